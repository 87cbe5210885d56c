//! Actions on the selected message: fetch its text to quote or edit, star it, 👍, the emoji
//! picker, its edit history and details, its spoilers.

use super::common::*;
use super::compose::emoji_matches;
use super::prelude::*;

/// Fetch the selected message's Markdown, to quote it in a reply or (`edit`, the user's own)
/// to edit it.
pub(super) fn fetch_text(st: &mut State, edit: bool) -> Vec<Effect> {
    let Some(m) = selected_message(st) else { return vec![] };
    // The organization's rules, before anything is asked (`app::rules`).
    if edit && let Some(why) = crate::app::rules::edit_refused(&st.data, m, st.now) {
        set_error(st, why);
        return vec![];
    }
    let id = m.id;
    vec![Effect::FetchRaw { message_id: id, edit }]
}

/// Star the selected message, or take its star off. As every change to what the server keeps
/// (a topic followed or muted, a reaction), the ★ changes when the server's event says so: until
/// then the status line says what is on its way, and a refusal leaves the message as it was.
pub(super) fn star(st: &mut State) -> Vec<Effect> {
    let Some(m) = selected_message(st) else { return vec![] };
    let add = !m.has_flag(Flag::Starred);
    let id = m.id;
    set_status(st, if add { "starring…" } else { "taking the star off…" });
    vec![Effect::Star { id, add }]
}

/// Add 👍 to the selected message, or take the user's off: shown when the server's event says
/// so, as a star is (`star`).
pub(super) fn thumbs_up(st: &mut State) -> Vec<Effect> {
    let me = st.data.me;
    let Some(m) = selected_message(st) else { return vec![] };
    let mine = m.reactions().iter().find(|r| r.user_id == me && r.emoji_code == "1f44d");
    let spec = match mine {
        Some(r) => EmojiSpec::from(r),
        None => EmojiSpec {
            emoji_name: Some("+1".into()),
            emoji_code: Some("1f44d".into()),
            reaction_type: Some("unicode_emoji".into()),
        },
    };
    let (id, add) = (m.id, mine.is_none());
    set_status(st, reacting(add));
    vec![Effect::React { message_id: id, emoji: spec, add }]
}

/// A reaction on its way, in words.
pub(super) fn reacting(add: bool) -> &'static str {
    if add { "adding the reaction…" } else { "taking the reaction back…" }
}

/// Open the emoji picker to react to the selected message.
pub(super) fn emoji_picker(st: &mut State) -> Vec<Effect> {
    let Some(id) = st.ui.selected else { return vec![] };
    let matches = emoji_matches(&st.data, "", 200);
    st.ui.popup = Some(Popup::Emoji { message_id: id, query: LineEditor::default(), matches, selected: 0 });
    vec![]
}

/// Open the selected message's edit history (where the organization allows it) and fetch it.
pub(super) fn edit_history(st: &mut State) -> Vec<Effect> {
    let Some(id) = st.ui.selected else { return vec![] };
    if !st.data.realm.policies.allow_edit_history {
        set_error(st, "this organization has disabled edit history");
        return vec![];
    }
    st.ui.popup = Some(Popup::EditHistory { message_id: id, snapshots: None, scroll: 0 });
    vec![Effect::FetchHistory(id)]
}

/// Open the selected message's details.
pub(super) fn message_info(st: &mut State) -> Vec<Effect> {
    let Some(id) = st.ui.selected else { return vec![] };
    st.ui.popup = Some(Popup::MessageInfo { message_id: id, scroll: 0 });
    // Who has read it, on the user's own message, where the organization shows that.
    let mine = st.data.messages.get(&id).is_some_and(|m| m.sender_id() == st.data.me);
    if mine && st.data.realm.policies.read_receipts {
        st.ui.read_receipts = Some((id, None));
        return vec![Effect::FetchReadReceipts(id)];
    }
    st.ui.read_receipts = None;
    vec![]
}

/// Show or hide the selected message's spoilers, or a muted sender's message.
pub(super) fn toggle_spoiler(st: &mut State) -> Vec<Effect> {
    let Some(m) = selected_message(st) else { return vec![] };
    // A muted sender's message: the key shows it (and hides it again).
    if st.data.users.is_muted(m.sender_id()) {
        let id = m.id;
        if !st.ui.revealed.remove(&id) {
            st.ui.revealed.insert(id);
        }
        return vec![];
    }
    // Zulip renders every spoiler as a `spoiler-block`.
    if !m.content().contains("spoiler-block") {
        set_status(st, "this message has no spoilers");
        return vec![];
    }
    let id = m.id;
    if !st.ui.open_spoilers.remove(&(id, 0)) {
        st.ui.open_spoilers.insert((id, 0));
    }
    vec![]
}
