//! Real-time events from the server, applied to the store.

use super::common::*;
use super::prelude::*;
use super::register::*;

pub(super) fn on_event(st: &mut State, kind: EventKind) -> Vec<Effect> {
    match kind {
        EventKind::Message(ev) => return super::message_events::on_message(st, ev),
        EventKind::UpdateMessage(ev) => return super::message_events::on_update(st, &ev),
        EventKind::Submessage(ev) => super::message_events::on_submessage(st, &ev),
        EventKind::DeleteMessage(ev) => return super::message_events::on_delete(st, &ev),
        EventKind::Reaction(ev) => super::message_events::on_reaction(st, ev),
        EventKind::UpdateMessageFlags(ev) => super::message_events::on_flags(st, &ev),
        EventKind::MutedUsers { muted_users } => st.data.users.on_muted_users(&muted_users),
        EventKind::AlertWords { alert_words } => st.data.alert_words = alert_words,
        EventKind::Subscription(ev) => return super::channel_events::on_subscription(st, &ev),
        EventKind::Stream(ev) => super::channel_events::on_stream(st, ev),
        EventKind::ChannelFolder(ev) => super::channel_events::on_folder(st, ev),
        EventKind::Presence(ev) => st.data.users.on_presence(&ev),
        EventKind::UserStatus(ev) => st.data.users.on_status(ev),
        EventKind::UserGroup(ev) => st.data.users.on_group(&ev),
        EventKind::RealmUser(ev) => st.data.users.on_realm_user(&ev),
        EventKind::Typing(ev) => super::people_events::on_typing(st, &ev),
        EventKind::TypingEditMessage(ev) => super::people_events::on_edit_typing(st, &ev),
        EventKind::UserTopic(t) => super::navigation::policy_changed(st, &t),
        EventKind::ScheduledMessages(ev) => st.data.lists.on_scheduled(ev),
        EventKind::Realm(RealmEvent::Update(change)) => on_realm(st, change),
        EventKind::Realm(RealmEvent::UpdateDict(changes)) => {
            changes.into_iter().for_each(|c| on_realm(st, c))
        }
        EventKind::Drafts(ev) => return super::server_drafts::on_event(st, ev),
        EventKind::UserSettings(UserSettingsEvent::Update(change)) => {
            let d = &mut st.data.notify_defaults;
            let settings = &mut st.data.user_settings;
            match change {
                UserSettingChange::StreamDesktopNotifications(v) => {
                    d.desktop = v;
                    settings.enable_stream_desktop_notifications = Some(v);
                }
                UserSettingChange::StreamAudibleNotifications(v) => {
                    d.audible = v;
                    settings.enable_stream_audible_notifications = Some(v);
                }
                UserSettingChange::Other { property, value } => {
                    settings.apply(&property, &value);
                }
            }
            super::user_settings::follow(st);
            // The channels pane's order may follow (`demote_inactive_streams`).
            rebuild_sidebar(st);
        }
        EventKind::NavigationView(ev) => st.data.lists.on_view(ev),
        EventKind::RealmPlaygrounds { realm_playgrounds } => st.data.playgrounds = realm_playgrounds,
        EventKind::RealmEmoji { realm_emoji } => st.data.realm_emoji = realm_emoji,
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

/// One of the organization's settings the client relies on changed.
fn on_realm(st: &mut State, change: RealmChange) {
    let realm = &mut st.data.realm;
    match change {
        RealmChange::ModerationRequestChannel(id) => realm.moderation_channel = id.filter(|id| *id > 0),
        RealmChange::AllowEditHistory(allowed) => realm.allow_edit_history = allowed,
        RealmChange::EnableReadReceipts(enabled) => realm.read_receipts = enabled,
        RealmChange::Name(name) => realm.name = name,
        // The rules for messages (`app::rules` reads them); the rest this client does not use.
        RealmChange::Other { property, value } => {
            realm.rules.apply(&property, &value);
        }
    }
}

/// A batch of events: held while the users are read or the first page is out; then each
/// applied, and the rows derived from them rebuilt once for the batch.
pub(super) fn on_events(st: &mut State, events: Vec<Event>) -> Vec<Effect> {
    // Held while the users are read (an event about a user lands on the map that lists
    // them), then while the first page is still out.
    let Some(events) = st.data.users.hold(events) else { return vec![] };
    let Some(events) = super::cold_start::hold(st, events) else { return vec![] };
    let mut fx = Vec::new();
    let (mut sidebar, mut people, mut mutes) = (false, false, false);
    for e in events {
        st.data.last_event_id = st.data.last_event_id.max(e.id);
        // Rows and the people list change only for some events; rebuilding them for
        // every typing notice would be O(channels + users) per event.
        let expanded = st.ui.expanded;
        sidebar |= match &e.kind {
            EventKind::Subscription(_) => true,
            // Rows list topics only for the expanded channel.
            // … and the recent direct-message conversations.
            EventKind::Message(m) => {
                m.message.is_dm() || (expanded.is_some() && m.message.stream_id == expanded)
            }
            EventKind::MutedUsers { .. } | EventKind::NavigationView(_) => true,
            EventKind::ChannelFolder(_) => true,
            EventKind::UpdateMessage(_) | EventKind::DeleteMessage(_) => expanded.is_some(),
            _ => false,
        };
        people |=
            matches!(e.kind, EventKind::Presence(_) | EventKind::UserStatus(_) | EventKind::RealmUser(_));
        // What the inbox leaves out, or the channels it names, may have changed.
        mutes |= matches!(
            e.kind,
            EventKind::UserTopic(_)
                | EventKind::Subscription(_)
                | EventKind::MutedUsers { .. }
                | EventKind::Stream(_)
        );
        fx.extend(on_event(st, e.kind));
    }
    if sidebar {
        rebuild_sidebar(st);
    }
    if people {
        rebuild_people(st);
    }
    if mutes {
        super::inbox::rebuild(st);
    }
    super::hold::enforce(st);
    fx
}
