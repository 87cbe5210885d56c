//! People events the users store does not own: typing. (Presence, status, groups and users
//! added or changed are applied by `app::users::Users`.)

use super::prelude::*;

/// Someone started or stopped typing in a conversation.
pub(super) fn on_typing(st: &mut State, ev: &TypingEvent) {
    let me = st.data.me;
    let conversation = match (ev.stream_id, &ev.topic, &ev.recipients) {
        (Some(c), Some(t), _) => Some(Conv::Topic(c, t.to_lowercase())),
        (_, _, Some(r)) => Some(Conv::Dm(dm_key(&r.iter().map(|u| u.user_id).collect::<Vec<_>>(), me))),
        _ => None,
    };
    let user = ev.sender.user_id;
    let start = ev.op == StartStop::Start && user != me && super::typing::shown(st);
    st.ui.presence.someone_typing(user, conversation, start, st.now);
}

/// Someone started or stopped editing a message.
pub(super) fn on_edit_typing(st: &mut State, ev: &TypingEditEvent) {
    let me = st.data.me;
    let start = ev.op == StartStop::Start && ev.sender_id != me && super::typing::shown(st);
    st.ui.presence.someone_editing(ev.sender_id, ev.message_id, start, st.now);
}
