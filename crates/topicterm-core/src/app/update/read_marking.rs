//! Reading as the user set it: their `web_mark_read_on_scroll_policy` decides whether the
//! messages a frame draws in a view become read (as the web app marks what is on screen), in
//! which views, or never — then only explicit marking reads (`T`, `:mark-read`). The main loop
//! tells which messages the last frame drew (`Msg::MessagesOnScreen`); after every `Msg`
//! [`follow`] reads the unread ones among them where the policy, explore mode and the screen
//! allow. A server without the setting (before feature level 175) keeps the old behaviour:
//! the selected message is read, what is only on screen is not.

use super::prelude::*;

/// How looking reads, by the user's setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Policy {
    /// `1`: everywhere.
    Always,
    /// `2`: in conversation views only — one topic, one direct message conversation.
    Conversations,
    /// `3`: never; only explicit marking reads.
    Never,
    /// The server did not say (or said what this client does not know): the selection reads,
    /// what is merely on screen does not — the client's behaviour before the setting existed.
    Selection,
}

fn policy(st: &State) -> Policy {
    match st.data.user_settings().web_mark_read_on_scroll_policy {
        Some(1) => Policy::Always,
        Some(2) => Policy::Conversations,
        Some(3) => Policy::Never,
        _ => Policy::Selection,
    }
}

/// Whether the shown narrow is a conversation view (the web app's `is_conversation_view`).
fn conversation_view(narrow: &Narrow) -> bool {
    matches!(narrow, Narrow::Topic(..) | Narrow::Dm(_))
}

/// Whether selecting a message in the shown view may read it, by the user's setting (the
/// selection's other rules — explore mode, searches, the organization on screen — are the
/// caller's).
pub(super) fn selection_reads(st: &State) -> bool {
    match policy(st) {
        Policy::Always | Policy::Selection => true,
        Policy::Conversations => conversation_view(&st.ui.narrow),
        Policy::Never => false,
    }
}

/// Whether what is drawn in the shown view is read on sight now.
fn sight_reads(st: &State) -> bool {
    let allowed = match policy(st) {
        Policy::Always => true,
        Policy::Conversations => conversation_view(&st.ui.narrow),
        Policy::Never | Policy::Selection => false,
    };
    allowed
        && !st.settings.explore
        && !st.settings.screen_reader
        && st.ui.orgs.on_screen()
        && st.ui.narrow.reads()
        && !st.ui.presence.unfocused()
        && !st.ui.conn.from_cache()
        && !st.ui.conn.loading()
        && st.ui.popup.is_none()
        && st.ui.reading_held.as_ref() != Some(&st.ui.narrow)
}

/// Reads the unread messages the last frame drew in the shown view, where the user's setting
/// says looking reads: each costs what the screen holds, never the view's length.
pub(super) fn follow(st: &mut State) -> Vec<Effect> {
    // A view marked unread from here holds its reading only while it is shown.
    if st.ui.reading_held.as_ref().is_some_and(|n| *n != st.ui.narrow) {
        st.ui.reading_held = None;
    }
    if st.ui.messages_on_screen.0 != st.ui.narrow || !sight_reads(st) {
        return vec![];
    }
    let seen: Vec<MessageId> =
        st.ui.messages_on_screen.1.iter().copied().filter(|id| st.data.unread.contains(*id)).collect();
    if seen.is_empty() {
        return vec![];
    }
    for id in &seen {
        st.data.unread.remove(*id);
        if let Some(m) = st.data.messages.get_mut(id) {
            m.set_flag(Flag::Read, true);
        }
    }
    vec![Effect::MarkRead(seen)]
}
