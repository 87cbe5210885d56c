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
    st.ui.typing.retain(|t| !(t.user == user && t.editing.is_none()));
    if ev.op == StartStop::Start && user != me && super::typing::shown(st) {
        st.ui.typing.push(Typing { user, conversation, editing: None, until: st.now + 15 });
    }
}

/// Someone started or stopped editing a message.
pub(super) fn on_edit_typing(st: &mut State, ev: &TypingEditEvent) {
    let me = st.data.me;
    st.ui.typing.retain(|t| !(t.user == ev.sender_id && t.editing == Some(ev.message_id)));
    if ev.op == StartStop::Start && ev.sender_id != me && super::typing::shown(st) {
        st.ui.typing.push(Typing {
            user: ev.sender_id,
            conversation: None,
            editing: Some(ev.message_id),
            until: st.now + 15,
        });
    }
}
