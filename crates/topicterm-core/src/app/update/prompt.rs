//! The one-line prompt at the bottom (`:`, `/`, `c`/`x`, retarget, attach, the panes' filters,
//! when to send, which link): its keys — the line editor's (`crate::line`) for editing, tab for
//! completion, enter and esc — and what each kind of prompt does when answered.

use super::common::*;
use super::compose::*;
use super::navigation::*;
use super::palette::*;
use super::prelude::*;
use crate::app::people::NameError;
use crate::line::Edit;

pub(super) fn on_prompt_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(p) = &mut st.ui.prompt else { return vec![] };
    if p.kind == PromptKind::Confirm {
        st.ui.prompt = None;
        let pending = st.ui.confirm.take();
        if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
            return match pending {
                Some((_, Confirmed::Run(e))) => vec![*e],
                Some((_, Confirmed::DeleteDraft { key, on_server })) => {
                    super::drafts_list::delete(st, key, on_server)
                }
                None => vec![],
            };
        }
        set_status(st, "cancelled");
        return vec![];
    }
    // Renaming a topic: tab says which messages take the new name, as the web app asks.
    if let PromptKind::RenameTopic { mode } = &mut p.kind
        && matches!(key.code, KeyCode::Tab | KeyCode::BackTab)
    {
        let modes = ["change_all", "change_later", "change_one"];
        let at = modes.iter().position(|m| m == mode).unwrap_or(0);
        let step = if key.code == KeyCode::Tab { 1 } else { modes.len() - 1 };
        *mode = modes[(at + step) % modes.len()];
        return vec![];
    }
    if matches!(key.code, KeyCode::Tab | KeyCode::BackTab) {
        return super::complete::prompt(st, key.code == KeyCode::BackTab);
    }
    let filter = matches!(p.kind, PromptKind::FilterChannels | PromptKind::FilterPeople).then_some(p.kind);
    match key.code {
        KeyCode::Esc => {
            st.ui.prompt = None;
            st.ui.completion = Completion::default();
            if let Some(kind) = filter {
                super::panes::filter_changed(st, kind, None);
            }
            return vec![];
        }
        KeyCode::Enter => {
            let p = st.ui.prompt.take().expect("prompt");
            st.ui.completion = Completion::default();
            return submit_prompt(st, p);
        }
        _ => {}
    }
    match p.line.key(&key) {
        Edit::Nothing => vec![],
        Edit::Moved => edited(st, false),
        Edit::Changed => edited(st, true),
    }
}

/// A paste goes whole into the line at the cursor (newlines become spaces: a paste never
/// submits it); a question (y/N) takes no paste.
pub(super) fn paste(st: &mut State, text: &str) -> Vec<Effect> {
    let Some(p) = &mut st.ui.prompt else { return vec![] };
    if p.kind == PromptKind::Confirm {
        return vec![];
    }
    p.line.insert_str(&text.replace('\n', " "));
    edited(st, true)
}

/// The line changed (or its cursor moved): a pane's filter follows the text at once; the
/// candidates of a completing prompt follow what is before the cursor.
fn edited(st: &mut State, changed: bool) -> Vec<Effect> {
    let Some(p) = &st.ui.prompt else { return vec![] };
    if matches!(p.kind, PromptKind::FilterChannels | PromptKind::FilterPeople) {
        if changed {
            let (kind, text) = (p.kind, p.text().to_owned());
            super::panes::filter_changed(st, kind, Some(&text));
        }
        return vec![];
    }
    if super::complete::completes(p.kind) { super::complete::suggest(st) } else { vec![] }
}

pub(super) fn submit_prompt(st: &mut State, p: Prompt) -> Vec<Effect> {
    let text = p.text().to_owned();
    let keep_open = |st: &mut State, why: String| {
        set_error(st, why);
        st.ui.prompt = Some(p.clone());
        vec![]
    };
    match p.kind {
        PromptKind::Confirm => vec![],
        PromptKind::AttachPath if text.trim().is_empty() => vec![],
        PromptKind::AttachPath => match super::attach::attach(st, text.trim()) {
            Ok(fx) => fx,
            Err(e) => keep_open(st, e),
        },
        PromptKind::FilterChannels | PromptKind::FilterPeople => {
            super::panes::filter_changed(st, p.kind, Some(&text));
            super::panes::filter_kept(st, p.kind);
            vec![]
        }
        PromptKind::OpenLink | PromptKind::CopyCode => match text.trim().parse::<usize>() {
            Ok(n) if p.kind == PromptKind::OpenLink => super::outside::open_link(st, Some(n)),
            Ok(n) => super::outside::copy_code(st, Some(n)),
            Err(_) => keep_open(st, "type a number".into()),
        },
        PromptKind::Command => match crate::app::command::parse(&text, st.data.realm.server.feature_level) {
            Ok(cmd) => match run_command(st, cmd) {
                Ok(fx) => fx,
                Err(e) => keep_open(st, e),
            },
            Err(e) => keep_open(st, e),
        },
        PromptKind::ScheduleTime => match crate::app::when::parse_when(&text, st.now, st.tz) {
            Ok(at) => schedule_compose(st, at),
            Err(e) => keep_open(st, e),
        },
        PromptKind::Search if text.trim().is_empty() => {
            set_status(st, "nothing to search for");
            vec![]
        }
        PromptKind::Search => match parse_search(&text, &st.data) {
            Ok(terms) => {
                let narrow = Narrow::Search { query: text.clone(), terms };
                st.data.views.close(&narrow);
                open_narrow(st, narrow)
            }
            Err(e) => keep_open(st, format!("search: {e}")),
        },
        PromptKind::RenameTopic { .. } if text.trim().is_empty() => keep_open(st, "type the new name".into()),
        PromptKind::RenameTopic { mode } => {
            let new = st.data.realm.topic_typed(&text).to_owned();
            match super::palette_topics::move_topic(st, None, Some(new), mode) {
                Ok(fx) => fx,
                Err(e) => keep_open(st, e),
            }
        }
        PromptKind::SnippetTitle => match super::snippets::save(st, &text) {
            Ok(fx) => fx,
            Err(e) => keep_open(st, e),
        },
        PromptKind::ChannelTopic | PromptKind::DmRecipients => match target_of(st, &text, p.kind) {
            Ok(target) => retarget_or_open(st, target),
            Err(e) => keep_open(st, e),
        },
    }
}

/// Where the `c`/`x` prompt (or `ctrl+g`) sends: `channel>topic` (`#` optional), or people's
/// names or emails, comma-separated (`@` optional). Either prompt takes either form, so a
/// channel message can become a DM and back: a text with `>` or `#` is a channel; without, in
/// the channel prompt, a channel of that name wins over people of that name.
fn target_of(st: &State, text: &str, kind: PromptKind) -> Result<Target, String> {
    let d = &st.data;
    let text = text.trim();
    let channel_form = text.contains('>') || text.starts_with('#');
    if channel_form || (kind == PromptKind::ChannelTopic && !text.starts_with('@')) {
        let (chan, topic) = text.split_once('>').unwrap_or((text, ""));
        let chan = chan.trim().trim_start_matches('#');
        if let Some(id) = crate::app::narrow::Resolver::channel_id(d, chan) {
            return Ok(Target::Channel { id, topic: d.realm.topic_typed(topic).to_owned() });
        }
        if channel_form || chan.is_empty() {
            return Err(format!("no channel named {chan:?}"));
        }
    }
    // A full name may hold commas ("Othello, the Moor of Venice"): `app::people` reads the list.
    let ids = match crate::app::people::people_in(text, |who| crate::app::narrow::Resolver::user_id(d, who)) {
        Ok(ids) => ids,
        Err(NameError::Nobody { who, could }) if kind == PromptKind::ChannelTopic && could.is_empty() => {
            return Err(format!("no channel or person named {who:?} (channel>topic, or names for a DM)"));
        }
        Err(e) => return Err(e.to_string()),
    };
    if ids.is_empty() {
        return Err("name at least one recipient".into());
    }
    Ok(Target::Dm(dm_key(&ids, d.me)))
}

/// `ctrl+g` in the compose box: the `c` or `x` prompt, filled with where it goes now.
pub(super) fn change_recipient(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    if c.editing.is_some() {
        set_error(st, "a sent message keeps its conversation: :rename-topic or :move-topic moves it");
        return vec![];
    }
    let d = &st.data;
    let (kind, text) = match &c.target {
        Target::Channel { id, topic } => {
            (PromptKind::ChannelTopic, format!("{}>{topic}", d.channels.name(*id)))
        }
        Target::Dm(users) => {
            // Each as the prompt reads it back: a shared name by its email, commas quoted.
            let typed = |u: crate::api::UserId| match d.users.get(u) {
                Some(info) if d.users.name_shared(&info.full_name) => info.email.clone(),
                _ => crate::app::people::as_typed(d.user_name(u)),
            };
            let names: Vec<String> = users.iter().map(|u| typed(*u)).collect();
            (PromptKind::DmRecipients, names.join(", "))
        }
    };
    st.ui.prompt = Some(Prompt::new(kind, &text));
    vec![]
}

/// The `c`/`x` prompt answered: with a compose box open (`ctrl+g`) it now goes to `target`,
/// text and all (its draft moves with it); else a compose box opens for `target`.
fn retarget_or_open(st: &mut State, target: Target) -> Vec<Effect> {
    let Some(c) = &mut st.ui.compose else {
        open_compose(st, target, "", None);
        return vec![];
    };
    if c.target == target {
        return vec![];
    }
    let old = c.draft_key();
    c.target = target;
    c.suggestions.clear();
    let fx = drop_draft(st, old);
    st.ui.draft_dirty = true;
    set_status(st, "the message will go to the new recipient; the text is kept");
    // (Typing notices follow by themselves: `typing::follow` runs after every input.)
    vec![fx]
}
