//! People events: presence, status, groups, users added or changed, typing — applied to the
//! users the client holds (and the name index with them).

use super::prelude::*;

/// Who is active: a legacy entry says only the newest time, so no user moves back.
pub(super) fn on_presence(st: &mut State, ev: &PresenceEvent) {
    for (id, p) in ev.entries() {
        // A legacy entry says only the newest time: never move a user back.
        let e = st.data.presence.entry(id).or_insert(p);
        e.active_timestamp = e.active_timestamp.max(p.active_timestamp);
        e.idle_timestamp = e.idle_timestamp.max(p.idle_timestamp);
    }
}

/// A user's status text or emoji.
pub(super) fn on_status(st: &mut State, ev: UserStatusEvent) {
    if let Some(u) = st.data.users.get_mut(&ev.user_id) {
        if let Some(t) = ev.status_text {
            u.status.status_text = t;
        }
        if let Some(n) = ev.emoji_name {
            u.status.emoji_name = n;
            u.status.emoji_code = ev.emoji_code.unwrap_or_default();
            u.status.reaction_type = ev.reaction_type.unwrap_or_default();
        }
    }
}

/// A user group added, removed, or its members or subgroups changed.
pub(super) fn on_group(st: &mut State, ev: &UserGroupEvent) {
    let ids = || ev.user_ids.clone().unwrap_or_default();
    let subs = || ev.direct_subgroup_ids.clone().unwrap_or_default();
    match (ev.op.as_str(), ev.group_id.and_then(|g| st.data.groups.get_mut(&g))) {
        ("add", _) => {
            if let Some(g) = ev.group.clone() {
                st.data.groups.insert(g.id, g);
            }
        }
        ("remove", _) => {
            if let Some(g) = ev.group_id {
                st.data.groups.remove(&g);
            }
        }
        ("add_members", Some(g)) => g.members.extend(ids()),
        ("remove_members", Some(g)) => g.members.retain(|m| !ids().contains(m)),
        ("add_subgroups", Some(g)) => g.direct_subgroup_ids.extend(subs()),
        ("remove_subgroups", Some(g)) => g.direct_subgroup_ids.retain(|m| !subs().contains(m)),
        _ => {}
    }
}

/// A user joined the organization, or one changed (name, email, active, role).
pub(super) fn on_user(st: &mut State, ev: &OpValueEvent) {
    if ev.op.as_deref() == Some("add") {
        if let Some(u) = ev.fields.get("person").and_then(|p| serde_json::from_value::<User>(p.clone()).ok())
        {
            st.data.names.add(u.user_id, &u.full_name);
            st.data.users.insert(
                u.user_id,
                UserInfo {
                    id: u.user_id,
                    full_name: u.full_name,
                    email: u.email,
                    is_bot: u.is_bot,
                    is_active: true,
                    presence_enabled: u.presence_enabled,
                    status: UserStatus::default(),
                    role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
                },
            );
        }
        return;
    }
    if let Some(p) = ev.fields.get("person")
        && let Some(id) = p.get("user_id").and_then(|v| v.as_i64())
        && let Some(u) = st.data.users.get_mut(&id)
    {
        if let Some(n) = p.get("full_name").and_then(|v| v.as_str()) {
            st.data.names.remove(id, &u.full_name);
            st.data.names.add(id, n);
            u.full_name = n.to_owned();
        }
        if let Some(e) = p.get("new_email").and_then(|v| v.as_str()) {
            u.email = e.to_owned();
        }
        if let Some(a) = p.get("is_active").and_then(|v| v.as_bool()) {
            u.is_active = a;
        }
        if let Some(r) = p.get("role").and_then(|v| v.as_i64()) {
            u.role = r;
        }
    }
}

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
    if ev.op == "start" && user != me {
        st.ui.typing.push(Typing { user, conversation, editing: None, until: st.now + 15 });
    }
}

/// Someone started or stopped editing a message.
pub(super) fn on_edit_typing(st: &mut State, ev: &TypingEditEvent) {
    let me = st.data.me;
    st.ui.typing.retain(|t| !(t.user == ev.sender_id && t.editing == Some(ev.message_id)));
    if ev.op == "start" && ev.sender_id != me {
        st.ui.typing.push(Typing {
            user: ev.sender_id,
            conversation: None,
            editing: Some(ev.message_id),
            until: st.now + 15,
        });
    }
}
