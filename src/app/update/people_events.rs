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
    let groups = &mut st.data.groups;
    match ev {
        UserGroupEvent::Add(g) => {
            groups.insert(g.id, g.clone());
        }
        UserGroupEvent::Remove { group_id } => {
            groups.remove(group_id);
        }
        UserGroupEvent::AddMembers { group_id, user_ids } => {
            if let Some(g) = groups.get_mut(group_id) {
                g.members.extend(user_ids);
            }
        }
        UserGroupEvent::RemoveMembers { group_id, user_ids } => {
            if let Some(g) = groups.get_mut(group_id) {
                g.members.retain(|m| !user_ids.contains(m));
            }
        }
        UserGroupEvent::AddSubgroups { group_id, subgroup_ids } => {
            if let Some(g) = groups.get_mut(group_id) {
                g.direct_subgroup_ids.extend(subgroup_ids);
            }
        }
        UserGroupEvent::RemoveSubgroups { group_id, subgroup_ids } => {
            if let Some(g) = groups.get_mut(group_id) {
                g.direct_subgroup_ids.retain(|m| !subgroup_ids.contains(m));
            }
        }
        UserGroupEvent::Update { .. } | UserGroupEvent::Other(_) => {}
    }
}

/// A user joined the organization, or one changed (name, email, active, role).
pub(super) fn on_user(st: &mut State, ev: &RealmUserEvent) {
    let p = match ev {
        RealmUserEvent::Add(u) => {
            st.data.names.add(u.user_id, &u.full_name);
            st.data.users.insert(
                u.user_id,
                UserInfo {
                    id: u.user_id,
                    full_name: u.full_name.clone(),
                    email: u.email.clone(),
                    is_bot: u.is_bot,
                    is_active: true,
                    presence_enabled: u.presence_enabled,
                    status: UserStatus::default(),
                    role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
                },
            );
            return;
        }
        // One no longer seen keeps its ID, under the name the server gives it.
        RealmUserEvent::Update(p) | RealmUserEvent::Remove(p) => p,
        RealmUserEvent::Other(_) => return,
    };
    let id = p.user_id;
    let Some(u) = st.data.users.get_mut(&id) else { return };
    if let Some(n) = &p.full_name {
        st.data.names.remove(id, &u.full_name);
        st.data.names.add(id, n);
        u.full_name.clone_from(n);
    }
    if let Some(e) = &p.new_email {
        u.email.clone_from(e);
    }
    if let Some(a) = p.is_active {
        u.is_active = a;
    }
    if let Some(r) = p.role {
        u.role = r;
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
    if ev.op == StartStop::Start && user != me {
        st.ui.typing.push(Typing { user, conversation, editing: None, until: st.now + 15 });
    }
}

/// Someone started or stopped editing a message.
pub(super) fn on_edit_typing(st: &mut State, ev: &TypingEditEvent) {
    let me = st.data.me;
    st.ui.typing.retain(|t| !(t.user == ev.sender_id && t.editing == Some(ev.message_id)));
    if ev.op == StartStop::Start && ev.sender_id != me {
        st.ui.typing.push(Typing {
            user: ev.sender_id,
            conversation: None,
            editing: Some(ev.message_id),
            until: st.now + 15,
        });
    }
}
