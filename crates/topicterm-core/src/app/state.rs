//! The state store: everything the views show, owned by the UI task.
//!
//! Built for a large organization: messages live once in the store (`store.rs`, compact); each narrow keeps a sorted ID
//! list; unread and topic indexes are kept incrementally so nothing walks all messages per frame
//! or per event.

use super::channels::Channels;
use super::lists::Lists;
use super::narrow::{Narrow, Resolver, dm_key};
use super::people::NameError;
use super::store::{Store, Stored};
use super::topics::Topics;
use super::unreads::{Conv, Unreads};
use super::users::{Activity, Users};
pub use super::views::{Local, NarrowView, SearchMatch, Views};
use crate::api::names::same_name;
use crate::api::*;
use std::collections::HashMap;

/// The user's own defaults for channel notifications (register's `user_settings`, kept by
/// `user_settings` events): what a channel whose setting is `None` follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NotifyDefaults {
    pub desktop: bool,
    pub audible: bool,
}

impl NotifyDefaults {
    pub fn of(settings: &crate::api::UserSettings) -> NotifyDefaults {
        NotifyDefaults {
            desktop: settings.enable_stream_desktop_notifications.unwrap_or(false),
            audible: settings.enable_stream_audible_notifications.unwrap_or(false),
        }
    }

    /// The default for a subscription property (`desktop_notifications`, `audible_notifications`).
    pub fn get(&self, property: &str) -> bool {
        if property == "desktop_notifications" { self.desktop } else { self.audible }
    }
}

/// A channel's notification setting in words: "on", "off", or "off (your default)". A value
/// equal to the user's default counts as following it, as Zulip's own settings page counts it
/// (the API sets only `true` or `false`, never back to `null`).
pub fn notify_words(value: Option<bool>, default: bool) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    match value {
        Some(v) if v != default => on(v).to_owned(),
        _ => format!("{} (your default)", on(default)),
    }
}

/// What a key press sets a channel's notification setting to: from the user's default to the
/// other value, and from that back to the default.
pub fn next_notify(value: Option<bool>, default: bool) -> bool {
    if value.unwrap_or(default) == default { !default } else { default }
}

/// Server facts the client needs, grouped by what they are about: the organization's name,
/// the server's version, its limits, its clocks, its moderation, its policies and rules, and
/// what it defined for itself (profile fields, emoji, playgrounds). Inside each group the
/// names are the API's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RealmInfo {
    pub name: String,
    /// What the organization calls the empty topic (`realm_empty_topic_display_name`).
    pub empty_topic_name: String,
    pub server: ServerVersion,
    pub limits: RealmLimits,
    pub timing: ServerTiming,
    pub moderation: Moderation,
    pub policies: RealmPolicies,
    /// The organization's rules for posting, editing, moving and deleting messages (register,
    /// kept by `realm` events), checked by `app::rules` before a request.
    pub rules: RealmRules,
    pub custom: RealmCustom,
}

/// Which server this is: its feature level and its version.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerVersion {
    pub feature_level: i64,
    /// The server's version as it says it (`zulip_version`: "8.0-dev-1234-g…"), for the user.
    pub version: String,
}

/// How long a message, a topic and an upload may be.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RealmLimits {
    pub max_message_length: Option<usize>,
    pub max_topic_length: Option<usize>,
    /// The largest file the server takes (`max_file_upload_size_mib`), in bytes.
    pub max_upload_bytes: Option<u64>,
    /// The most the organization's uploads may take together (`realm_upload_quota_mib`), in
    /// bytes; `None`: no limit.
    pub upload_quota_bytes: Option<u64>,
}

/// The server's clocks: presence pings, the event queue's long poll, typing notices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerTiming {
    pub ping_interval: u64,
    pub offline_threshold: i64,
    pub longpoll_timeout: u64,
    /// How often a "typing" start is repeated while typing goes on (seconds).
    pub typing_started_wait_secs: i64,
}

/// How messages are reported: the kinds of report and the channel reports go to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Moderation {
    pub report_types: Vec<ReportType>,
    pub moderation_channel: Option<ChannelId>,
}

/// What the organization shows of messages beyond their text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RealmPolicies {
    pub allow_edit_history: bool,
    /// The organization shows who has read a message (`realm_enable_read_receipts`).
    pub read_receipts: bool,
}

/// What the organization defined for itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RealmCustom {
    /// The organization's custom profile fields, in display order.
    pub profile_fields: Vec<CustomProfileField>,
    /// Its custom emoji (kept by `realm_emoji` events).
    pub emoji: HashMap<String, RealmEmoji>,
    /// Code playgrounds of the organization (links for code blocks by language; kept by
    /// `realm_playgrounds` events).
    pub playgrounds: Vec<Playground>,
}

/// All the data the client holds. Each public field is an owner with private fields of its
/// own (`app::users`, `app::channels`, `app::topics`, `store`, `app::views`, `app::unreads`,
/// `app::lists`; `me` and `realm` set by register alone, the realm's by `RealmInfo::on_change`
/// too); the rest is `Data`'s own, read through its accessors and changed only by register
/// (`on_register`), the events (`Data::apply`, `app::data_events`) and the few methods below.
#[derive(Debug, Default)]
pub struct Data {
    pub me: UserId,
    pub realm: RealmInfo,
    /// The users and their groups, presence and status, and whom the user muted
    /// (`app::users`).
    pub users: Users,
    /// The user's channels, the ones they can join, and the channel folders (`app::channels`).
    pub channels: Channels,
    /// Each channel's topic rows, and the user's topic policies (`app::topics`).
    pub topics: Topics,
    pub messages: Store,
    /// The narrows' views, and the window epochs handed out (`app::views`).
    pub views: Views,
    pub unread: Unreads,
    /// The user's scheduled messages, saved snippets, reminders and saved views (`app::lists`).
    pub lists: Lists,
    /// The server has answered register at least once (the last session is no longer shown).
    served: bool,
    /// Words that make a message notify and are marked in it.
    alert_words: Vec<String>,
    queue_id: Option<String>,
    last_event_id: i64,
    /// The highest message ID seen.
    newest_id: MessageId,
    /// Direct-message conversations (the others in each, sorted) → their newest message ID:
    /// register's `recent_private_conversations`, kept by every DM the client sees.
    recent_dms: HashMap<Vec<UserId>, MessageId>,
    /// Polls and to-do lists of cached messages, read from their submessages.
    widgets: HashMap<MessageId, super::widget::Widget>,
    /// What channels' notification settings follow when they have none of their own.
    notify_defaults: NotifyDefaults,
    /// The user's own Zulip settings (register's `user_settings`, kept by `user_settings`
    /// events): what the user set in the web app or on the phone, for every client to follow.
    user_settings: UserSettings,
    /// The user's starred messages (register's `starred_messages`, kept by the `starred` flag's
    /// events): what the Starred row counts, where the user's `starred_message_counts` asks.
    starred: std::collections::BTreeSet<MessageId>,
}

/// `Data`'s own: what register said, and what events keep.
impl Data {
    /// A register answer (its users taken out to be read apart, `app::roster`): the user, the
    /// organization, the channels, the user's presence and muted users, topics, unread
    /// messages (the messages held from before read or not as it says now), lists, settings,
    /// starred messages, recent conversations, and the event queue.
    pub fn on_register(&mut self, r: &RegisterResponse) {
        self.served |= r.queue_id.is_some();
        self.me = r.user_id.unwrap_or(self.me);
        self.realm = RealmInfo::of(r);
        self.channels = Channels::from_register(r);
        self.users.on_register(r);
        self.alert_words = r.alert_words.clone().unwrap_or_default();
        let channels = &self.channels;
        self.topics.on_register(r, |name| channels.iter().find(|c| c.name == name).map(|c| c.id));
        self.unread.clear();
        if let Some(u) = &r.unread_msgs {
            self.unread.replace(Unreads::from_register(u, self.me));
        }
        let unread = &self.unread;
        self.messages.set_flag_where(Flag::Read, |id| !unread.contains(id));
        self.lists.on_register(r);
        self.queue_id = r.queue_id.clone();
        self.last_event_id = r.last_event_id;
        self.notify_defaults = r.user_settings.as_ref().map(NotifyDefaults::of).unwrap_or_default();
        self.user_settings = r.user_settings.clone().unwrap_or_default();
        self.starred = r.starred_messages.iter().flatten().copied().collect();
        let me = self.me;
        self.recent_dms = r
            .recent_private_conversations
            .iter()
            .flatten()
            .map(|c| (dm_key(&c.user_ids, me), c.max_message_id))
            .collect();
    }

    /// The server has answered register at least once.
    pub fn served(&self) -> bool {
        self.served
    }
    pub fn alert_words(&self) -> &[String] {
        &self.alert_words
    }
    /// The user's alert words as the server listed them after a change (`ApiCall::AlertWords`).
    pub fn on_alert_words(&mut self, words: Vec<String>) {
        self.alert_words = words;
    }
    /// The event queue being polled (`None`: none, or let go).
    pub fn queue_id(&self) -> Option<&str> {
        self.queue_id.as_deref()
    }
    /// The last event applied from the queue.
    pub fn last_event_id(&self) -> i64 {
        self.last_event_id
    }
    /// Nothing is polled any more (the account was refused; the last session shown offline).
    pub fn forget_queue(&mut self) {
        self.queue_id = None;
    }
    /// The highest message ID seen.
    pub fn newest_id(&self) -> MessageId {
        self.newest_id
    }
    /// Direct-message conversations (the others in each, sorted) → their newest message ID.
    pub fn recent_dms(&self) -> &HashMap<Vec<UserId>, MessageId> {
        &self.recent_dms
    }
    /// Polls and to-do lists of held messages.
    pub fn widgets(&self) -> &HashMap<MessageId, super::widget::Widget> {
        &self.widgets
    }
    pub fn notify_defaults(&self) -> NotifyDefaults {
        self.notify_defaults
    }
    pub fn user_settings(&self) -> &UserSettings {
        &self.user_settings
    }
    pub fn starred(&self) -> &std::collections::BTreeSet<MessageId> {
        &self.starred
    }
}

impl Data {
    /// A user's full name (`Users::name`: "…" while the users are read).
    pub fn user_name(&self, id: UserId) -> &str {
        self.users.name(id)
    }

    /// A person named as a DM partner (`Users::partner_name`).
    pub fn partner_name(&self, id: UserId) -> std::borrow::Cow<'_, str> {
        self.users.partner_name(id)
    }

    /// Why the user may not start topic `topic` in `channel`, where the client can know it:
    /// the channel's `can_create_topic_group` (level 441) leaves them out and the channel's
    /// whole topic list is held without that topic. `None`: they may, or it cannot be known
    /// here (the server decides, and says why it refuses).
    pub fn may_not_start_topic(&self, channel: ChannelId, topic: &str) -> Option<String> {
        let c = self.channels.get(channel)?;
        let setting = c.can_create_topic_group.as_ref()?;
        if self.users.in_group_setting(self.me, setting)? {
            return None;
        }
        let list = self.topics.of(channel).filter(|l| l.is_loaded())?;
        if list.get(topic).is_some() {
            return None;
        }
        Some(format!(
            "you may not start new topics in #{}: pick one of its topics (tab completes them)",
            c.name
        ))
    }

    /// The user's policy for a topic (`Topics::policy`).
    pub fn policy(&self, channel: ChannelId, topic: &str) -> VisibilityPolicy {
        self.topics.policy(channel, topic)
    }

    /// Is this topic hidden from unread counts and the combined feed?
    pub fn topic_muted(&self, channel: ChannelId, topic: &str) -> bool {
        topic_muted(&self.topics, &self.channels, channel, topic)
    }

    /// Unread count of a channel, without muted topics (cost: topics with unreads).
    pub fn channel_unread(&self, channel: ChannelId) -> usize {
        self.unread.topics_in(channel).map_or(0, |topics| {
            topics
                .iter()
                .filter(|t| !self.topic_muted(channel, t))
                .map(|t| self.unread.count(&Conv::Topic(channel, t.clone())))
                .sum()
        })
    }

    /// Unread messages outside muted channels and topics, direct messages included (cost:
    /// the topics with unreads).
    pub fn unread_total(&self) -> usize {
        self.unread.dm_total() + self.unread.channels().map(|(c, _)| self.channel_unread(c)).sum::<usize>()
    }

    pub fn topic_unread(&self, channel: ChannelId, topic: &str) -> usize {
        self.unread.count(&Conv::Topic(channel, topic.to_lowercase()))
    }

    pub fn conv_of(&self, m: &Stored) -> Conv {
        match m.stream_id() {
            Some(c) if !m.is_dm() => Conv::Topic(c, m.topic().to_lowercase()),
            _ => Conv::Dm(dm_key(&m.dm_user_ids(), self.me)),
        }
    }

    /// Does a message show in the combined feed?
    pub fn in_feed(&self, m: &Stored) -> bool {
        in_feed(&self.topics, &self.channels, m)
    }

    /// A held message moved to `channel` (if it changed) and `topic` (if it changed).
    pub fn move_held(&mut self, id: MessageId, channel: Option<ChannelId>, topic: Option<&str>) {
        let to = channel.map(|c| (c, self.channels.get(c).map(|x| x.name.as_str()).unwrap_or_default()));
        self.messages.move_to(id, to, topic);
    }

    pub fn activity(&self, user: UserId, now: i64) -> Activity {
        let threshold =
            if self.realm.timing.offline_threshold > 0 { self.realm.timing.offline_threshold } else { 140 };
        self.users.activity(user, now, threshold)
    }

    /// A message from a page of messages. A page is a picture of the server when it was asked
    /// for: for a message already known, the read state that events have left since stands
    /// (a page asked for before "mark as read" must not make the messages unread again).
    pub fn insert_fetched(&mut self, m: Message) {
        let mut m = self.messages.compact(m);
        if self.messages.contains_key(&m.id) {
            let unread = self.unread.contains(m.id);
            m.set_flag(Flag::Read, !unread);
        }
        self.insert_stored(m);
    }

    /// Store a decoded message and index it.
    pub fn insert_message(&mut self, m: Message) {
        let m = self.messages.compact(m);
        self.insert_stored(m);
    }

    /// Store a message and index it.
    pub fn insert_stored(&mut self, m: Stored) {
        // Known elsewhere before (held, or counted unread there): a page can bring a message that
        // moved while the client was not told (a lost queue). The topic it left must not keep a
        // row standing on it.
        let before = match self.messages.get(&m.id) {
            Some(old) if !old.is_dm() => old.stream_id().map(|c| Conv::topic(c, old.topic())),
            Some(_) => None,
            None => self.unread.conv(m.id).cloned(),
        };
        let now = m.stream_id().filter(|_| !m.is_dm()).map(|c| Conv::topic(c, m.topic()));
        if let Some(Conv::Topic(c, t)) = before.filter(|b| Some(b) != now.as_ref()) {
            // Its row stands on the newest unread message still there, else goes.
            let unread = &self.unread;
            self.topics.on_message_left(c, &t, m.id, |name| {
                unread
                    .in_conv(&Conv::topic(c, name))
                    .and_then(|s| s.iter().rev().find(|x| **x != m.id).copied())
            });
        }
        let unread = !m.has_flag(Flag::Read);
        let conv = self.conv_of(&m);
        if let (Some(c), false) = (m.stream_id(), m.is_dm()) {
            self.topics.on_message(c, m.topic(), m.id);
        }
        if let Conv::Dm(key) = &conv {
            let newest = self.recent_dms.entry(key.clone()).or_default();
            *newest = (*newest).max(m.id);
        }
        if unread {
            self.unread.add(m.id, conv, m.mentions_me());
        } else {
            self.unread.remove(m.id);
        }
        self.newest_id = self.newest_id.max(m.id);
        // The message names its sender and a DM's people, whom the store may not know
        // (`--low-bandwidth`; a system bot there).
        self.users.learn(m.sender_id(), m.sender_full_name(), m.sender_email());
        m.dm_recipients().iter().for_each(|r| self.users.learn(r.id, &r.full_name, &r.email));
        self.refresh_widget(&m);
        self.messages.put(m);
    }

    /// A message deleted: gone from the store, its widget, the unread index and every view.
    pub fn remove_stored(&mut self, id: MessageId) {
        self.messages.remove(&id);
        self.widgets.remove(&id);
        self.unread.remove(id);
        self.views.on_delete(id);
    }

    /// Keep only the held messages `keep` says to (the bound on messages held), and their
    /// widgets.
    pub fn retain_messages(&mut self, keep: impl Fn(&MessageId) -> bool) {
        self.messages.retain(|id, _| keep(id));
        self.widgets.retain(|id, _| keep(id));
    }

    /// Message `id` starred, or not any more (the flag's event).
    pub fn set_starred(&mut self, id: MessageId, starred: bool) {
        if starred {
            self.starred.insert(id);
        } else {
            self.starred.remove(&id);
        }
    }

    /// An event of the queue applied: its ID is the last one the server is told of.
    pub fn note_event(&mut self, id: i64) {
        self.last_event_id = self.last_event_id.max(id);
    }

    /// One of the user's Zulip settings changed (`user_settings`); the channels' notification
    /// defaults follow theirs.
    pub fn on_user_setting(&mut self, change: UserSettingChange) {
        let (d, settings) = (&mut self.notify_defaults, &mut self.user_settings);
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
    }

    /// Read a message's widget again from its submessages.
    pub fn refresh_widget(&mut self, m: &Stored) {
        match (m.submessages().is_empty(), super::widget::build(m.submessages())) {
            (false, Some(w)) => {
                self.widgets.insert(m.id, w);
            }
            _ => {
                self.widgets.remove(&m.id);
            }
        }
    }

    /// Reindex a message after its topic or channel changed.
    pub fn reindex(&mut self, id: MessageId) {
        let Some(m) = self.messages.get(&id) else { return };
        let conv = self.conv_of(m);
        let topic = (m.stream_id(), m.topic().to_owned());
        // Where it is now, and whether it mentions the user now (an edit may add or take one).
        if self.unread.contains(id) {
            self.unread.add(id, conv, m.mentions_me());
        }
        if let (Some(c), t) = topic {
            self.topics.on_message(c, &t, id);
        }
    }
}

/// Is this topic hidden from unread counts and the combined feed? By the topic's policy, else
/// the channel's mute (the owners given apart, so that a caller may change another of `Data`'s
/// owners meanwhile).
pub fn topic_muted(topics: &Topics, channels: &Channels, channel: ChannelId, topic: &str) -> bool {
    match topics.policy(channel, topic) {
        VisibilityPolicy::Muted => true,
        VisibilityPolicy::Unmuted | VisibilityPolicy::Followed => false,
        _ => channels.is_muted(channel),
    }
}

/// Does a message show in the combined feed? (`topic_muted`.)
pub fn in_feed(topics: &Topics, channels: &Channels, m: &Stored) -> bool {
    match m.stream_id() {
        Some(c) if !m.is_dm() => !topic_muted(topics, channels, c, m.topic()),
        _ => true,
    }
}

impl Resolver for Data {
    /// Any channel the user can see: theirs, or one they never joined (Zulip searches those).
    fn channel_id(&self, name: &str) -> Option<ChannelId> {
        self.channels.id_by_name(name)
    }
    /// By the one rule of `app::people`: an ID, an email, or a full name no one else holds.
    fn user_id(&self, who: &str) -> Result<UserId, NameError> {
        self.users.person(who)
    }
    fn me(&self) -> UserId {
        self.me
    }
}

impl RealmInfo {
    /// The organization's facts and limits, from register.
    pub fn of(r: &RegisterResponse) -> RealmInfo {
        let mut profile_fields = r.custom_profile_fields.clone().unwrap_or_default();
        profile_fields.sort_by_key(|f| (f.order, f.id));
        RealmInfo {
            name: r.realm_name.clone().unwrap_or_default(),
            empty_topic_name: r
                .realm_empty_topic_display_name
                .clone()
                .unwrap_or_else(|| "general chat".into()),
            server: ServerVersion { feature_level: r.zulip_feature_level, version: r.zulip_version.clone() },
            limits: RealmLimits {
                max_message_length: r.max_message_length,
                max_topic_length: r.max_topic_length,
                max_upload_bytes: r.max_file_upload_size_mib.map(|mib| mib << 20),
                upload_quota_bytes: r.realm_upload_quota_mib.map(|mib| mib << 20),
            },
            timing: ServerTiming {
                ping_interval: r.server_presence_ping_interval_seconds.unwrap_or(60),
                offline_threshold: r.server_presence_offline_threshold_seconds.unwrap_or(140) as i64,
                longpoll_timeout: r.event_queue_longpoll_timeout_seconds.unwrap_or(90),
                typing_started_wait_secs: r
                    .server_typing_started_wait_period_milliseconds
                    .map_or(10, |ms| (ms / 1000).max(1) as i64),
            },
            moderation: Moderation {
                // Before level 435 the server does not list them: the five fixed ones.
                report_types: r.server_report_message_types.clone().unwrap_or_else(|| {
                    [
                        ("spam", "Spam"),
                        ("harassment", "Harassment"),
                        ("inappropriate", "Inappropriate content"),
                        ("norms", "Violates community norms"),
                        ("other", "Other reason"),
                    ]
                    .iter()
                    .map(|(k, n)| ReportType { key: (*k).into(), name: (*n).into() })
                    .collect()
                }),
                moderation_channel: r.realm_moderation_request_channel_id.filter(|id| *id > 0),
            },
            policies: RealmPolicies {
                allow_edit_history: r.realm_allow_edit_history.unwrap_or(true),
                read_receipts: r.realm_enable_read_receipts.unwrap_or(true),
            },
            rules: RealmRules::of(r),
            custom: RealmCustom {
                profile_fields,
                emoji: r.realm_emoji.clone().unwrap_or_default(),
                playgrounds: r.realm_playgrounds.clone().unwrap_or_default(),
            },
        }
    }

    /// A topic as a person reads it: the empty topic is the organization's name for it
    /// (`realm_empty_topic_display_name`, "general chat"). The one rule for every view.
    pub fn topic_shown<'a>(&'a self, topic: &'a str) -> &'a str {
        if topic.is_empty() { &self.empty_topic_name } else { topic }
    }

    /// A topic as a person typed it: that name of the empty topic is the empty topic (as the
    /// reference server takes "general chat") — on a server that has empty topics (level 334);
    /// an older one refuses an empty topic, and there the name is a topic like any other.
    pub fn topic_typed<'a>(&self, typed: &'a str) -> &'a str {
        let typed = typed.trim();
        let has_empty = self.level().has(crate::api::levels::EMPTY_TOPIC);
        if has_empty && same_name(typed, &self.empty_topic_name) { "" } else { typed }
    }

    /// What is missing on this server, for the user: "not available on this server (Zulip 8.0-dev)".
    pub fn not_here(&self) -> String {
        match self.server.version.split('-').take(2).collect::<Vec<_>>().join("-") {
            v if v.is_empty() => "not available on this server".into(),
            v => format!("not available on this server (Zulip {})", crate::content::sanitize(&v)),
        }
    }

    /// The server's level as far as the client knows it (before register: the newest), in
    /// the terms of `api::levels`.
    pub fn level(&self) -> crate::api::levels::Level {
        crate::api::levels::Level(Some(self.server.feature_level).filter(|l| *l > 0))
    }
}

impl Data {
    /// A fresh, loading window for `narrow` (replacing any); returns its epoch.
    pub fn reset_view(&mut self, narrow: &Narrow) -> u64 {
        self.views.open(narrow)
    }

    /// The epoch of a narrow's window (0: none).
    pub fn epoch(&self, narrow: &Narrow) -> u64 {
        self.views.epoch(narrow)
    }
}
