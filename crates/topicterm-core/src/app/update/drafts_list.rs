//! `:drafts`: every conversation's draft, as the web app's drafts list shows them — the ones
//! typed here and the server's (`/drafts`, which fill in conversations that had none here,
//! `app::drafts`). `enter` opens one in the compose box; `d` deletes it, here and, where the
//! server has a copy, there (`DELETE /drafts/{id}`, through `Drafts::follow` as for a sent one).

use super::common::*;
use super::prelude::*;
use crate::app::drafts::Drafts;

/// One draft of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub key: String,
    pub target: Target,
    pub text: String,
    /// The server keeps a copy.
    pub on_server: bool,
}

/// Where a draft key's conversation is: as the server said it, else read back from the key
/// (`Target::key`: `channel-ID-topic`, the topic lowercased — its own case where the channel's
/// topics are known — or `dm-ID-ID`).
fn target_of(d: &Data, drafts: &Drafts, key: &str) -> Option<Target> {
    if let Some(t) = drafts.server_target(key) {
        return Some(t.clone());
    }
    if let Some(rest) = key.strip_prefix("channel-") {
        let (id, topic) = rest.split_once('-')?;
        let id: ChannelId = id.parse().ok()?;
        let named = d
            .topics
            .of(id)
            .and_then(|list| list.iter().find(|t| t.name.to_lowercase() == topic).map(|t| t.name.clone()));
        return Some(Target::Channel { id, topic: named.unwrap_or_else(|| topic.to_owned()) });
    }
    let rest = key.strip_prefix("dm-")?;
    let ids: Option<Vec<UserId>> =
        if rest.is_empty() { Some(vec![]) } else { rest.split('-').map(|u| u.parse().ok()).collect() };
    Some(Target::Dm(ids?))
}

/// The drafts, by conversation key.
pub fn listed(st: &State) -> Vec<Listed> {
    st.drafts
        .conversations()
        .into_iter()
        .filter_map(|(key, text)| {
            let target = target_of(&st.data, &st.drafts, key)?;
            let on_server = st.drafts.server_copy(key).is_some();
            Some(Listed { key: key.to_owned(), target, text: text.to_owned(), on_server })
        })
        .collect()
}

/// `:drafts`.
pub(super) fn open(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Drafts { selected: 0 });
    vec![]
}

/// The list's keys: move, open, delete, close.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let all = listed(st);
    let Some(Popup::Drafts { selected }) = &mut st.ui.popup else { return vec![] };
    *selected = (*selected).min(all.len().saturating_sub(1));
    if list_move(selected, all.len().saturating_sub(1), key.code) {
        return vec![];
    }
    let chosen = all.get(*selected).cloned();
    match (key.code, chosen) {
        (KeyCode::Esc | KeyCode::Char('q'), _) => st.ui.popup = None,
        (KeyCode::Enter | KeyCode::Char('e'), Some(d)) => {
            st.ui.popup = None;
            // The conversation on screen, its draft in the compose box (`open_compose` restores it).
            let fx = super::navigation::open_narrow(st, d.target.narrow());
            open_compose(st, d.target, "", None);
            return fx;
        }
        (KeyCode::Char('d'), Some(d)) => {
            // Which draft, in its first words on one line.
            let line = d.text.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut words: String = crate::content::sanitize(&line).chars().take(30).collect();
            if words.chars().count() < line.chars().count() {
                words.push('…');
            }
            let question = format!(
                "Delete the draft \"{words}\"{}?",
                if d.on_server { " here and on the server" } else { "" }
            );
            super::palette_args::ask(
                st,
                question,
                Confirmed::DeleteDraft { key: d.key, on_server: d.on_server },
            );
        }
        _ => {}
    }
    vec![]
}

/// Discard a draft once the user said yes (`d` in the list).
pub(super) fn delete(st: &mut State, key: String, on_server: bool) -> Vec<Effect> {
    let effect = drop_draft(st, key);
    set_status(st, if on_server { "draft deleted, here and on the server" } else { "draft deleted" });
    vec![effect]
}
