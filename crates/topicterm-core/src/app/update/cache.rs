//! The last session kept on this machine, so that the first screen is drawn before the server
//! answers: the state rebuilt as a register answer (users, channels, unread messages, muted
//! topics, …), the narrow that was open, and the newest messages of it and of the few narrows
//! opened before it (see `session`). Applied through the same
//! code as a real register answer, marked as not yet current until the server's own answer
//! replaces it. `net` reads and writes the file (atomically, with the server and account it
//! belongs to); this module only turns state into a snapshot and back.

use super::common::*;
use super::prelude::*;
pub use crate::app::session::{CACHED_MESSAGES, CACHED_NARROWS, Snapshot, Window};
use crate::app::settings::StartNarrow;
use serde_json::json;

/// The state worth keeping, as a snapshot. Costs a pass over users and channels: taken once the
/// first page of a session is in and when the user quits, never per frame or event.
pub fn snapshot(st: &State) -> Snapshot {
    let d = &st.data;
    let r = &d.realm;
    let users: Vec<User> = d
        .users
        .iter()
        .map(|u| User {
            user_id: u.id,
            email: u.email.clone(),
            delivery_email: None,
            full_name: u.full_name.clone(),
            is_active: u.is_active,
            is_bot: u.is_bot,
            bot_type: None,
            bot_owner_id: None,
            is_admin: u.role <= 200,
            is_owner: u.role <= 100,
            is_guest: u.role >= 600,
            role: Some(u.role),
            timezone: String::new(),
            avatar_url: None,
            date_joined: String::new(),
            presence_enabled: u.presence_enabled,
            profile_data: None,
        })
        .collect();
    let statuses: HashMap<String, UserStatus> = d
        .users
        .iter()
        .filter(|u| u.status != UserStatus::default())
        .map(|u| (u.id.to_string(), u.status.clone()))
        .collect();
    let subscriptions: Vec<Subscription> = d
        .channels
        .iter()
        .filter_map(|c| {
            serde_json::from_value(json!({
                "stream_id": c.id, "name": c.name, "description": c.description, "color": c.color,
                "pin_to_top": c.pinned, "is_muted": c.muted, "in_home_view": !c.muted,
                "invite_only": c.invite_only, "desktop_notifications": c.desktop_notifications,
                "audible_notifications": c.audible_notifications, "folder_id": c.folder_id,
            }))
            .ok()
        })
        .collect();
    let unread = unread_msgs(st);
    let (windows, messages) = kept_windows(st);
    let register = RegisterResponse {
        zulip_feature_level: r.server.feature_level,
        realm_name: Some(r.name.clone()),
        realm_empty_topic_display_name: Some(r.empty_topic_name.clone()),
        max_message_length: r.limits.max_message_length,
        max_topic_length: r.limits.max_topic_length,
        server_report_message_types: Some(r.moderation.report_types.clone()),
        realm_moderation_request_channel_id: r.moderation.moderation_channel,
        realm_allow_edit_history: Some(r.policies.allow_edit_history),
        realm_enable_read_receipts: Some(r.policies.read_receipts),
        server_presence_ping_interval_seconds: Some(r.timing.ping_interval),
        server_presence_offline_threshold_seconds: Some(r.timing.offline_threshold.max(0) as u64),
        event_queue_longpoll_timeout_seconds: Some(r.timing.longpoll_timeout),
        server_typing_started_wait_period_milliseconds: Some(
            r.timing.typing_started_wait_secs.max(0) as u64 * 1000,
        ),
        max_file_upload_size_mib: r.limits.max_upload_bytes.map(|b| b >> 20),
        user_id: Some(d.me),
        subscriptions: Some(subscriptions),
        unsubscribed: None,
        never_subscribed: Some(
            d.channels.joinable().map(|(id, name)| json!({"stream_id": id, "name": name})).collect(),
        ),
        unread_msgs: Some(unread),
        user_topics: Some(
            d.topics
                .policies()
                .map(|(channel, topic, policy)| UserTopic {
                    stream_id: channel,
                    topic_name: display_topic(st, channel, topic),
                    last_updated: 0,
                    visibility_policy: policy,
                })
                .collect(),
        ),
        user_status: Some(statuses),
        realm_emoji: Some(d.realm.custom.emoji.clone()),
        scheduled_messages: Some(d.lists.scheduled().values().cloned().collect()),
        navigation_views: Some(d.lists.views().to_vec()),
        recent_private_conversations: Some(
            d.recent_dms()
                .iter()
                .map(|(users, max)| RecentDm { user_ids: users.clone(), max_message_id: *max })
                .collect(),
        ),
        realm_playgrounds: Some(d.realm.custom.playgrounds.clone()),
        muted_users: Some(d.users.muted().map(|id| MutedUser { id, timestamp: 0 }).collect()),
        custom_profile_fields: Some(d.realm.custom.profile_fields.clone()),
        alert_words: Some(d.alert_words().to_vec()),
        saved_snippets: d.lists.snippets().map(|s| s.values().cloned().collect()),
        channel_folders: Some(d.channels.folders().cloned().collect()),
        reminders: d.lists.reminders().map(<[_]>::to_vec),
        realm_upload_quota_mib: r.limits.upload_quota_bytes.map(|b| b >> 20),
        // The user's own settings (their clock, zone, who reacted…): the kept session is
        // drawn as the server's answer will draw it.
        user_settings: Some(d.user_settings().clone()),
        ..Default::default()
    };
    Snapshot {
        register,
        open: st.ui.narrow.clone(),
        selected: st.ui.selected,
        windows,
        messages,
        users: Some(users.into()),
        groups: Some(d.users.groups().cloned().collect::<Vec<_>>().into()),
        backfill: st.ui.backfill.to_keep(),
    }
}

/// A topic's name as shown (the state keys muted topics and unreads by the lowercased name).
fn display_topic(st: &State, channel: ChannelId, lower: &str) -> String {
    st.data
        .topics
        .of(channel)
        .and_then(|l| l.iter().find(|t| t.name.to_lowercase() == lower))
        .map_or_else(|| lower.to_owned(), |t| t.name.clone())
}

fn unread_msgs(st: &State) -> UnreadMsgs {
    let d = &st.data;
    let mut streams = Vec::new();
    let mut dms = Vec::new();
    let mut huddles = Vec::new();
    for (conv, ids) in d.unread.conversations() {
        let ids: Vec<MessageId> = ids.iter().copied().collect();
        match conv {
            Conv::Topic(channel, topic) => streams.push(UnreadStream {
                stream_id: *channel,
                topic: display_topic(st, *channel, topic),
                unread_message_ids: ids,
            }),
            Conv::Dm(others) if others.len() <= 1 => dms.push(UnreadDm {
                other_user_id: Some(others.first().copied().unwrap_or(d.me)),
                sender_id: None,
                unread_message_ids: ids,
            }),
            Conv::Dm(others) => {
                let mut all = others.clone();
                all.push(d.me);
                all.sort_unstable();
                let user_ids_string = all.iter().map(|u| u.to_string()).collect::<Vec<_>>().join(",");
                huddles.push(UnreadHuddle { user_ids_string, unread_message_ids: ids });
            }
        }
    }
    UnreadMsgs {
        count: d.unread.len() as i64,
        dms,
        pms: vec![],
        streams,
        huddles,
        mentions: d.unread.mention_ids().collect(),
        old_unreads_missing: false,
    }
}

/// The windows of the open narrow and of those opened last (loaded ones only, at most
/// `CACHED_NARROWS`), each cut to its newest `CACHED_MESSAGES`, and their messages.
fn kept_windows(st: &State) -> (Vec<Window>, Vec<Message>) {
    let d = &st.data;
    let narrows = std::iter::once(&st.ui.narrow).chain(st.ui.visited.iter().filter(|n| **n != st.ui.narrow));
    let mut windows = Vec::new();
    let mut kept = std::collections::BTreeSet::new();
    for narrow in narrows {
        let Some(view) = d.views.get(narrow).filter(|v| v.is_loaded()) else { continue };
        let from = view.ids().len().saturating_sub(CACHED_MESSAGES);
        let ids: Vec<MessageId> =
            view.ids()[from..].iter().copied().filter(|id| d.messages.contains_key(id)).collect();
        kept.extend(ids.iter().copied());
        windows.push(Window {
            narrow: narrow.clone(),
            ids,
            found_newest: view.found_newest(),
            found_oldest: view.found_oldest() && from == 0,
        });
        if windows.len() == CACHED_NARROWS {
            break;
        }
    }
    (windows, kept.iter().filter_map(|id| d.messages.get(id).map(Stored::to_api)).collect())
}

/// Draw the last session while the server has not answered: its state, applied as a register
/// answer would be (nothing is fetched and no queue is polled on its account), reopened on the
/// narrow that was open (unless the config names another first view), with the kept windows
/// of it and of the narrows opened before it. Ignored once the server has answered (a
/// register answer always carries at least the user), not when it has refused or cannot be
/// reached.
pub(super) fn on_cached(st: &mut State, snap: Snapshot) -> Vec<Effect> {
    if st.data.served() {
        return vec![];
    }
    let configured = st.settings.start.as_ref().is_some_and(|s| *s != StartNarrow::All);
    let offline = st.ui.conn.offline().cloned();
    // Only the users are read from its answer: nothing is asked of the server.
    let mut register = snap.register;
    register.realm_users = register.realm_users.or(snap.users);
    register.realm_user_groups = register.realm_user_groups.or(snap.groups);
    let fx: Vec<Effect> = super::register::on_registered(st, register)
        .into_iter()
        .filter(|e| matches!(e, Effect::ReadUsers { .. }))
        .collect();
    if let Some(offline) = offline {
        st.ui.conn.went_offline(offline);
    }
    st.data.forget_queue();
    st.ui.backfill.resume_later(snap.backfill);
    // No page was asked for: the windows are the kept ones.
    st.data.views.clear();
    st.ui.visited.clear();
    if !configured {
        st.ui.narrow = snap.open;
    }
    // The last session reopens where the user was, as the web app reopens the narrow in its
    // address: the home view (`web_home_view`) is for a start with nothing kept.
    st.ui.conn.shown_from_cache();
    st.ui.selected = None;
    // Landing on the first unread message does not mark it read here: nothing is sent from
    // this answer, and the server's unread state is still to come.
    let explore = std::mem::replace(&mut st.settings.explore, true);
    let messages: HashMap<MessageId, Message> = snap.messages.into_iter().map(|m| (m.id, m)).collect();
    // Oldest visit first, so that the open narrow ends up the one visited last.
    for w in snap.windows.into_iter().rev() {
        let resp = MessagesResponse {
            anchor: None,
            found_newest: w.found_newest,
            found_oldest: w.found_oldest,
            found_anchor: false,
            history_limited: false,
            messages: w.ids.iter().filter_map(|id| messages.get(id).cloned()).collect(),
            ignored_parameters_unsupported: vec![],
        };
        let _ = super::navigation::on_messages(st, w.narrow.clone(), resp, false);
        super::navigation::visit(st, &w.narrow);
    }
    // The open narrow without a kept window: what is held of it, until the server answers.
    let open = st.ui.narrow.clone();
    if !st.data.views.contains(&open) {
        super::navigation::fill_from_held(st, &open);
    }
    // The message that was selected, where it is still shown.
    if let Some(id) = snap.selected.filter(|id| st.data.views[&open].contains(*id)) {
        st.ui.selected = Some(id);
    }
    super::navigation::visit(st, &open);
    st.settings.explore = explore;
    set_status(st, "showing the last session: connecting…");
    fx
}
