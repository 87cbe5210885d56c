//! Real-time events from the server, applied to the store.

use super::common::*;
use super::navigation::open_near;
use super::prelude::*;
use super::register::*;

/// Channels deleted, archived or changed (name, description) while subscribed.
pub(super) fn on_stream_event(st: &mut State, ev: OpValueEvent) {
    let id_of = |v: &serde_json::Value| v.get("stream_id").and_then(|i| i.as_i64());
    let gone: Vec<ChannelId> = match ev.op.as_deref() {
        Some("delete") => {
            let mut ids: Vec<ChannelId> = ev
                .fields
                .get("stream_ids")
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|i| i.as_i64()).collect())
                .unwrap_or_default();
            if let Some(streams) = ev.fields.get("streams").and_then(|v| v.as_array()) {
                ids.extend(streams.iter().filter_map(id_of));
            }
            ids
        }
        Some("update") => {
            let Some(id) = ev.fields.get("stream_id").and_then(|i| i.as_i64()) else { return };
            let prop = ev.fields.get("property").and_then(|p| p.as_str()).unwrap_or_default();
            let value = ev.fields.get("value");
            let Some(c) = st.data.channels.get_mut(&id) else { return };
            match (prop, value) {
                ("name", Some(serde_json::Value::String(n))) => c.name = n.clone(),
                ("description", Some(serde_json::Value::String(d))) => c.description = d.clone(),
                ("is_archived", Some(serde_json::Value::Bool(true))) => {}
                // Into a folder, or out of every folder (`null`).
                ("folder_id", Some(v)) => c.folder_id = v.as_i64(),
                ("can_create_topic_group", Some(v)) => {
                    c.can_create_topic_group = serde_json::from_value(v.clone()).ok();
                }
                _ => return,
            }
            if prop == "is_archived" { vec![id] } else { vec![] }
        }
        _ => vec![],
    };
    let mut any = false;
    for id in gone {
        any |= st.data.channels.remove(&id).is_some();
        if st.ui.expanded == Some(id) {
            st.ui.expanded = None;
        }
    }
    if any {
        set_status(st, "a channel you were subscribed to was archived");
    }
    rebuild_sidebar(st);
}

/// Keep the starred view's window true to the flags: a newly starred message joins it where the
/// window covers its place; an unstarred one leaves it, except while the view is on screen (it
/// stays under the cursor until the view is opened again, as in the web app). A message this
/// client does not hold makes the window stale: it is fetched again when next opened.
pub(super) fn starred_changed(st: &mut State, id: MessageId, add: bool) {
    let shown = st.ui.narrow == Narrow::Starred;
    let held = st.data.messages.contains_key(&id);
    let Some(view) = st.data.narrows.get_mut(&Narrow::Starred) else { return };
    if !held {
        if !shown {
            st.data.narrows.remove(&Narrow::Starred);
        }
        return;
    }
    if add {
        let after_first = view.found_oldest || view.ids.first().is_some_and(|f| *f <= id);
        let before_last = view.found_newest || view.ids.last().is_some_and(|l| id <= *l);
        if view.loaded && after_first && before_last {
            view.merge([id]);
        }
    } else if !shown {
        view.remove(id);
    }
}

pub(super) fn on_event(st: &mut State, kind: EventKind) -> Vec<Effect> {
    let me = st.data.me;
    match kind {
        EventKind::Message(ev) => {
            let mut m = ev.message;
            m.flags = ev.flags;
            let m = st.data.messages.compact(m);
            let id = m.id;
            let notice = super::outside::notify(st, &m);
            super::recent::on_message(st, &m);
            let narrows: Vec<Narrow> = st.data.narrows.keys().cloned().collect();
            let mut targets = Vec::new();
            for n in narrows {
                let feed_ok = n != Narrow::All || st.data.in_feed(&m);
                if feed_ok && n.contains(&m, me) && st.data.narrows.get(&n).is_some_and(|v| v.found_newest) {
                    targets.push(n);
                }
            }
            st.data.insert_stored(m);
            for n in targets {
                if let Some(v) = st.data.narrows.get_mut(&n) {
                    v.merge([id]);
                }
            }
            apply_jump(st);
            let mut fx = super::burst::admit(st, notice);
            fx.extend(super::outbox::on_message_event(st, ev.local_message_id.as_deref(), id));
            return fx;
        }
        EventKind::UpdateMessage(ev) => {
            let ids = if ev.message_ids.is_empty() { vec![ev.message_id] } else { ev.message_ids.clone() };
            for id in &ids {
                let Some(m) = st.data.messages.get_mut(id) else { continue };
                if *id == ev.message_id
                    && let Some(c) = &ev.rendered_content
                {
                    m.set_content(c, ev.edit_timestamp);
                    // The user's flags as they are now (an alert word may have come or gone).
                    if !ev.flags.is_empty() {
                        m.set_flags(&ev.flags);
                    }
                }
                if ev.subject.is_some() || ev.new_stream_id.is_some() {
                    let to = ev
                        .new_stream_id
                        .map(|c| (c, st.data.channels.get(&c).map(|x| x.name.as_str()).unwrap_or_default()));
                    st.data.messages.move_to(*id, to, ev.subject.as_deref());
                }
                st.data.reindex(*id);
            }
            // Views of the old and new conversations are refetched when next opened.
            if ev.subject.is_some() || ev.new_stream_id.is_some() {
                st.data.narrows.retain(|n, _| !n.is_conversation());
                let refetch = moved_topic_rows(st, &ev, &ids);
                // Reading the topic that moved: follow the selected message to where it went.
                if let (Narrow::Topic(..), Some(sel)) = (&st.ui.narrow, st.ui.selected)
                    && ids.contains(&sel)
                    && let Some(m) = st.data.messages.get(&sel)
                    && let Some(c) = m.stream_id()
                {
                    let to = Narrow::Topic(c, m.topic().to_owned());
                    if to != st.ui.narrow {
                        let mut fx = open_near(st, to, sel);
                        fx.extend(refetch);
                        return fx;
                    }
                }
                return refetch;
            }
        }
        EventKind::Submessage(ev) => {
            if let Some(m) = st.data.messages.get_mut(&ev.message_id) {
                m.add_submessage(ev.submessage());
                let m = m.clone();
                st.data.refresh_widget(&m);
            }
        }
        EventKind::DeleteMessage(ev) => {
            for id in ev.ids() {
                st.data.messages.remove(&id);
                st.data.widgets.remove(&id);
                st.data.unread.remove(id);
                for v in st.data.narrows.values_mut() {
                    v.remove(id);
                }
                if st.ui.selected == Some(id) {
                    st.ui.selected = None;
                }
            }
        }
        EventKind::Reaction(ev) => {
            if let Some(m) = st.data.messages.get_mut(&ev.message_id) {
                let r = Reaction {
                    emoji_name: ev.emoji_name,
                    emoji_code: ev.emoji_code,
                    reaction_type: ev.reaction_type,
                    user_id: ev.user_id,
                };
                if ev.op == "add" {
                    m.add_reaction(r);
                } else {
                    m.retain_reactions(|x| {
                        !(x.user_id == r.user_id
                            && x.emoji_code == r.emoji_code
                            && x.reaction_type == r.reaction_type)
                    });
                }
            }
        }
        EventKind::UpdateMessageFlags(ev) => {
            let add = ev.op == "add";
            if ev.flag == "read" && add && ev.all {
                st.data.unread.clear();
            }
            for id in &ev.messages {
                if let Some(m) = st.data.messages.get_mut(id) {
                    m.set_flag(&ev.flag, add);
                }
                if ev.flag == "starred" {
                    starred_changed(st, *id, add);
                }
                if ev.flag == "read" {
                    if add {
                        st.data.unread.remove(*id);
                    } else if let Some(m) = st.data.messages.get(id) {
                        let conv = st.data.conv_of(m);
                        st.data.unread.add(*id, conv);
                    } else if let Some(d) = ev.message_details.get(id) {
                        // Not held here: where it is comes with the event.
                        let conv = match (d.kind.as_str(), d.stream_id) {
                            ("stream", Some(c)) => {
                                let topic = d.topic.clone().unwrap_or_default();
                                st.data.topics.entry(c).or_default().touch(&topic, *id);
                                Conv::Topic(c, topic.to_lowercase())
                            }
                            _ => Conv::Dm(dm_key(d.user_ids.as_deref().unwrap_or_default(), st.data.me)),
                        };
                        st.data.unread.add(*id, conv);
                        if d.mentioned {
                            st.data.unread.mentions.insert(*id);
                        }
                    }
                }
            }
        }
        EventKind::MutedUsers { muted_users } => {
            st.data.muted_users = muted_users.into_iter().map(|m| m.id).collect();
        }
        EventKind::AlertWords { alert_words } => st.data.alert_words = alert_words,
        EventKind::UserTopic(t) => {
            let key = (t.stream_id, t.topic_name.to_lowercase());
            if t.visibility_policy == VisibilityPolicy::None {
                st.data.user_topics.remove(&key);
            } else {
                st.data.user_topics.insert(key, t.visibility_policy);
            }
        }
        EventKind::Subscription(ev) => match ev.op.as_str() {
            "update" => {
                if let (Some(id), Some(prop), Some(v)) =
                    (ev.stream_id, ev.property.as_deref(), ev.value.as_ref())
                    && let Some(c) = st.data.channels.get_mut(&id)
                {
                    let was = c.muted;
                    match prop {
                        // Zulip sends both (`in_home_view` is the legacy inverse).
                        "is_muted" => c.muted = v.as_bool().unwrap_or(c.muted),
                        "in_home_view" => c.muted = !v.as_bool().unwrap_or(!c.muted),
                        "pin_to_top" => c.pinned = v.as_bool().unwrap_or(c.pinned),
                        "color" => c.color = v.as_str().unwrap_or(&c.color).to_owned(),
                        // `null` (the user's default) is a value too.
                        "desktop_notifications" => c.desktop_notifications = v.as_bool(),
                        "audible_notifications" => c.audible_notifications = v.as_bool(),
                        "folder_id" => c.folder_id = v.as_i64(),
                        _ => {}
                    }
                    if c.muted != was {
                        let muted = c.muted;
                        return super::navigation::feed_after_mute(st, muted);
                    }
                }
            }
            "add" => {
                for s in ev.subscriptions.iter().flatten() {
                    if let Ok(s) = serde_json::from_value::<Subscription>(s.clone()) {
                        st.data.unsubscribed.remove(&s.stream_id);
                        super::directory::count_subscribers(st, s.stream_id, 1);
                        st.data.channels.insert(s.stream_id, channel_info(&s));
                    }
                }
            }
            "remove" => {
                for s in ev.subscriptions.iter().flatten() {
                    if let Some(id) = s.get("stream_id").and_then(|v| v.as_i64()) {
                        if let Some(c) = st.data.channels.remove(&id) {
                            st.data.unsubscribed.insert(id, c.name);
                        }
                        super::directory::count_subscribers(st, id, -1);
                    }
                }
            }
            "peer_add" | "peer_remove" => {
                let n = ev.user_ids.as_ref().map_or(0, Vec::len) as i64;
                let n = if ev.op == "peer_add" { n } else { -n };
                for id in ev.stream_ids.iter().flatten() {
                    super::directory::count_subscribers(st, *id, n);
                }
            }
            _ => {}
        },
        EventKind::Presence(ev) => {
            for (id, p) in ev.entries() {
                // A legacy entry says only the newest time: never move a user back.
                let e = st.data.presence.entry(id).or_insert(p);
                e.active_timestamp = e.active_timestamp.max(p.active_timestamp);
                e.idle_timestamp = e.idle_timestamp.max(p.idle_timestamp);
            }
        }
        EventKind::UserStatus(ev) => {
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
        EventKind::ScheduledMessages(ev) => {
            for s in ev.scheduled_messages.into_iter().flatten().chain(ev.scheduled_message) {
                st.data.scheduled.insert(s.scheduled_message_id, s);
            }
            if ev.op == "remove"
                && let Some(id) = ev.scheduled_message_id
            {
                st.data.scheduled.remove(&id);
            }
        }
        EventKind::Realm(ev) if ev.op.as_deref() == Some("update") => {
            let value = ev.fields.get("value");
            match ev.fields.get("property").and_then(|p| p.as_str()) {
                Some("moderation_request_channel_id") => {
                    st.data.realm.moderation_channel = value.and_then(|v| v.as_i64()).filter(|id| *id > 0);
                }
                Some("allow_edit_history") => {
                    st.data.realm.allow_edit_history = value.and_then(|v| v.as_bool()).unwrap_or(true);
                }
                Some("enable_read_receipts") => {
                    st.data.realm.read_receipts = value.and_then(|v| v.as_bool()).unwrap_or(true);
                }
                Some("name") => {
                    st.data.realm.name = value.and_then(|v| v.as_str()).unwrap_or_default().to_owned();
                }
                _ => {}
            }
        }
        EventKind::UserGroup(ev) => {
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
        EventKind::RealmUser(ev) if ev.op.as_deref() == Some("add") => {
            if let Some(u) =
                ev.fields.get("person").and_then(|p| serde_json::from_value::<User>(p.clone()).ok())
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
        }
        EventKind::RealmUser(ev) => {
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
        EventKind::Typing(ev) => {
            let conversation = match (ev.stream_id, &ev.topic, &ev.recipients) {
                (Some(c), Some(t), _) => Some(Conv::Topic(c, t.to_lowercase())),
                (_, _, Some(r)) => {
                    Some(Conv::Dm(dm_key(&r.iter().map(|u| u.user_id).collect::<Vec<_>>(), me)))
                }
                _ => None,
            };
            let user = ev.sender.user_id;
            st.ui.typing.retain(|t| !(t.user == user && t.editing.is_none()));
            if ev.op == "start" && user != me {
                st.ui.typing.push(Typing { user, conversation, editing: None, until: st.now + 15 });
            }
        }
        EventKind::TypingEditMessage(ev) => {
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
        EventKind::Drafts(ev) => return super::server_drafts::on_event(st, ev),
        EventKind::UserSettings(ev) if ev.op == "update" => {
            let (d, v) = (&mut st.data.notify_defaults, ev.value.as_ref().and_then(|v| v.as_bool()));
            match (ev.property.as_deref(), v) {
                (Some("enable_stream_desktop_notifications"), Some(v)) => d.desktop = v,
                (Some("enable_stream_audible_notifications"), Some(v)) => d.audible = v,
                _ => {}
            }
        }
        EventKind::NavigationView(ev) => {
            let views = &mut st.data.nav_views;
            match (ev.op.as_str(), ev.navigation_view, ev.fragment) {
                ("add", Some(v), _) => {
                    views.retain(|x| x.fragment != v.fragment);
                    views.push(v);
                }
                ("update", _, Some(f)) => {
                    if let (Some(v), Some(data)) = (views.iter_mut().find(|x| x.fragment == f), ev.data) {
                        if let Some(p) = data.get("is_pinned").and_then(|p| p.as_bool()) {
                            v.is_pinned = p;
                        }
                        if let Some(n) = data.get("name") {
                            v.name = n.as_str().map(str::to_owned);
                        }
                    }
                }
                ("remove", _, Some(f)) => views.retain(|x| x.fragment != f),
                _ => {}
            }
        }
        EventKind::ChannelFolder(ev) => {
            let folders = &mut st.data.channel_folders;
            match ev {
                ChannelFolderEvent::Add(f) => {
                    folders.insert(f.id, f);
                }
                ChannelFolderEvent::Update { id, name, is_archived } => {
                    if let Some(f) = folders.get_mut(&id) {
                        f.name = name.unwrap_or_else(|| std::mem::take(&mut f.name));
                        f.is_archived = is_archived.unwrap_or(f.is_archived);
                    }
                }
                ChannelFolderEvent::Reorder(order) => {
                    for (i, id) in order.iter().enumerate() {
                        if let Some(f) = folders.get_mut(id) {
                            f.order = i as i64;
                        }
                    }
                }
            }
        }
        EventKind::RealmPlaygrounds { realm_playgrounds } => st.data.playgrounds = realm_playgrounds,
        EventKind::RealmEmoji { realm_emoji } => st.data.realm_emoji = realm_emoji,
        EventKind::Stream(ev) => on_stream_event(st, ev),
        EventKind::Reminders(ev) => super::reminders::on_event(st, ev),
        EventKind::Attachment(ev) => super::uploads::on_event(st, ev),
        EventKind::SavedSnippets(ev) => super::snippets::on_event(st, ev),
        EventKind::Malformed { event_type, error } => {
            tracing::warn!("ignored a malformed {event_type} event: {error}");
            // What such an event carried is fetched again: the loaded windows are refreshed.
            if matches!(event_type.as_str(), "message" | "update_message" | "delete_message") {
                return resync_narrows(st);
            }
        }
        _ => {}
    }
    vec![]
}

/// A topic moved (renamed, or to another channel): its row in the channels pane goes where
/// the messages went. The old row goes when the whole topic moved; when only some messages
/// did, the old channel's topics are asked for again (the server knows what is left).
fn moved_topic_rows(st: &mut State, ev: &UpdateMessageEvent, ids: &[MessageId]) -> Vec<Effect> {
    let (Some(from), Some(old)) = (ev.stream_id, ev.orig_subject.as_deref()) else { return vec![] };
    let to = ev.new_stream_id.unwrap_or(from);
    let new = ev.subject.as_deref().unwrap_or(old);
    let mut fx = Vec::new();
    if let Some(list) = st.data.topics.get_mut(&from).filter(|l| l.loaded) {
        if ev.propagate_mode.as_deref() == Some("change_all") {
            list.topics.retain(|t| !t.name.eq_ignore_ascii_case(old));
        } else {
            fx.push(Effect::FetchTopics(from));
        }
    }
    if let (Some(list), Some(max)) = (st.data.topics.get_mut(&to).filter(|l| l.loaded), ids.iter().max()) {
        list.touch(new, *max);
    }
    rebuild_sidebar(st);
    fx
}
