//! Register response and real-time events.
//!
//! Events are decoded one by one from JSON values, so one event of an unknown type or with a
//! malformed field never loses the rest of the batch: it becomes [`EventKind::Unknown`] or
//! [`EventKind::Malformed`].

use super::models::*;
use super::settings::UserSettings;
use super::snippets::SavedSnippet;

mod channel;
mod message;
pub(crate) mod ops;
mod people;
mod settings;

pub use channel::{StreamChange, StreamEvent, SubscriptionChange, SubscriptionEvent};
pub use message::{
    DeleteMessageEvent, FlagDetails, FlagsEvent, MessageEvent, ReactionEvent, SubmessageEvent,
    UpdateMessageEvent,
};
pub use ops::{AddRemove, StartStop};
pub use people::{PersonChange, RealmUserEvent, UserGroupEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;
pub use settings::{
    NavigationViewEvent, RealmChange, RealmEvent, RestartEvent, UserSettingChange, UserSettingsEvent,
};
use std::collections::HashMap;

/// `POST /register` response (the parts a client uses; everything else is ignored).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, Default)]
pub struct RegisterResponse {
    #[serde(default)]
    pub queue_id: Option<String>,
    #[serde(default)]
    pub last_event_id: i64,
    #[serde(default)]
    pub zulip_feature_level: i64,
    #[serde(default)]
    pub zulip_version: String,
    #[serde(default)]
    pub max_message_length: Option<usize>,
    #[serde(default)]
    pub max_topic_length: Option<usize>,
    #[serde(default)]
    pub max_message_id: Option<MessageId>,
    #[serde(default)]
    pub realm_empty_topic_display_name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub max_file_upload_size_mib: Option<u64>,
    #[serde(default)]
    pub server_report_message_types: Option<Vec<ReportType>>,
    /// Channel ID of the moderation request channel; -1 or absent when none is configured.
    #[serde(default)]
    pub realm_moderation_request_channel_id: Option<i64>,
    #[serde(default)]
    pub realm_allow_edit_history: Option<bool>,
    #[serde(default)]
    pub realm_enable_read_receipts: Option<bool>,
    #[serde(default)]
    pub realm_message_edit_history_visibility_policy: Option<String>,
    #[serde(default)]
    pub realm_name: Option<String>,
    #[serde(default)]
    pub server_presence_ping_interval_seconds: Option<u64>,
    #[serde(default)]
    pub server_presence_offline_threshold_seconds: Option<u64>,
    #[serde(default)]
    pub event_queue_longpoll_timeout_seconds: Option<u64>,
    /// How long the queue lives without a poll, as the server settled it (level 481).
    #[serde(default)]
    pub idle_queue_timeout_secs: Option<u64>,
    #[serde(default)]
    pub server_typing_started_wait_period_milliseconds: Option<u64>,
    #[serde(default)]
    pub server_typing_stopped_wait_period_milliseconds: Option<u64>,
    #[serde(default)]
    pub server_typing_started_expiry_period_milliseconds: Option<u64>,
    #[serde(default)]
    pub user_id: Option<UserId>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub full_name: Option<String>,
    #[serde(default)]
    pub is_admin: Option<bool>,
    #[serde(default)]
    pub is_owner: Option<bool>,
    #[serde(default)]
    pub is_moderator: Option<bool>,
    #[serde(default)]
    pub is_guest: Option<bool>,
    /// Not sent by the reference (it says the role by the flags above); read where a server does.
    #[serde(default)]
    pub role: Option<i64>,
    #[serde(default)]
    pub realm_users: Option<super::lenient::Later<User>>,
    /// The sections the server's answer lacked though they were asked for, read on their own
    /// ([`super::Client::register_whole`]); not the server's.
    #[serde(skip)]
    pub lacked: Vec<&'static str>,
    #[serde(default)]
    pub realm_non_active_users: Option<super::lenient::Later<User>>,
    #[serde(default)]
    pub cross_realm_bots: Option<super::lenient::Later<User>>,
    #[serde(default)]
    pub subscriptions: Option<Vec<Subscription>>,
    #[serde(default, deserialize_with = "lenient")]
    pub unsubscribed: Option<Vec<Subscription>>,
    #[serde(default, deserialize_with = "lenient")]
    pub never_subscribed: Option<Vec<Value>>,
    #[serde(default)]
    pub unread_msgs: Option<UnreadMsgs>,
    #[serde(default)]
    pub user_topics: Option<Vec<UserTopic>>,
    #[serde(default, deserialize_with = "lenient")]
    pub muted_topics: Option<Vec<Value>>,
    #[serde(default, deserialize_with = "lenient")]
    pub presences: Option<Presences>,
    #[serde(default)]
    pub presence_last_update_id: Option<i64>,
    #[serde(default)]
    pub server_timestamp: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub user_status: Option<HashMap<String, UserStatus>>,
    #[serde(default, deserialize_with = "lenient")]
    pub realm_emoji: Option<HashMap<String, RealmEmoji>>,
    #[serde(default, deserialize_with = "lenient")]
    pub scheduled_messages: Option<Vec<ScheduledMessage>>,
    /// The user's server-side drafts, most recently edited first (empty when
    /// `enable_drafts_synchronization` is off).
    #[serde(default, deserialize_with = "lenient")]
    pub drafts: Option<Vec<Draft>>,
    #[serde(default, deserialize_with = "lenient")]
    pub user_settings: Option<UserSettings>,
    #[serde(default, deserialize_with = "lenient")]
    pub navigation_views: Option<Vec<NavigationView>>,
    #[serde(default, deserialize_with = "lenient")]
    pub recent_private_conversations: Option<Vec<RecentDm>>,
    #[serde(default, deserialize_with = "lenient")]
    pub realm_playgrounds: Option<Vec<Playground>>,
    #[serde(default, deserialize_with = "lenient")]
    pub muted_users: Option<Vec<MutedUser>>,
    #[serde(default, deserialize_with = "lenient")]
    pub custom_profile_fields: Option<Vec<CustomProfileField>>,
    #[serde(default, deserialize_with = "lenient")]
    pub alert_words: Option<Vec<String>>,
    /// Read with the users, off the first frame's path (half a megabyte in a large organization).
    #[serde(default)]
    pub realm_user_groups: Option<super::lenient::Later<UserGroup>>,
    #[serde(default, deserialize_with = "lenient")]
    pub starred_messages: Option<Vec<MessageId>>,
    #[serde(default, deserialize_with = "lenient")]
    pub channel_folders: Option<Vec<ChannelFolder>>,
    /// The user's undelivered reminders (Zulip 11.0; absent from older servers' answers).
    #[serde(default, deserialize_with = "lenient")]
    pub reminders: Option<Vec<super::reminders::Reminder>>,
    /// The most the organization's uploads may take together, in MiB (`None`: no limit).
    #[serde(default, deserialize_with = "lenient")]
    pub realm_upload_quota_mib: Option<u64>,
    /// The user's saved snippets (Zulip 10.0; absent before).
    #[serde(default, deserialize_with = "lenient")]
    pub saved_snippets: Option<Vec<SavedSnippet>>,
    // The organization's rules for messages, read by `rules::RealmRules::of`.
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_allow_message_editing: Option<bool>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_message_content_edit_limit_seconds: Option<i64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_message_content_delete_limit_seconds: Option<i64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_move_messages_within_stream_limit_seconds: Option<i64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_move_messages_between_streams_limit_seconds: Option<i64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_mandatory_topics: Option<bool>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_topics_policy: Option<String>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_can_move_messages_between_channels_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_can_move_messages_between_topics_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_can_resolve_topics_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_can_delete_own_message_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_can_delete_any_message_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_direct_message_permission_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_direct_message_initiator_group: Option<GroupSettingValue>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_edit_topic_policy: Option<i64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_move_messages_between_streams_policy: Option<i64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub realm_delete_own_message_policy: Option<i64>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// An optional section of the register answer that the client can do without: if the server
/// sends it in a shape this client cannot read, it is left out (and logged) rather than making
/// the whole registration fail.
fn lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    // Taken as raw text, then read: a `Value` tree first would cost the allocations of every
    // object and string of the section twice over (the last session's first screen waited on it).
    let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
    if raw.get() == "null" {
        return Ok(None);
    }
    match serde_json::from_str(raw.get()) {
        Ok(t) => Ok(Some(t)),
        Err(e) => {
            tracing::warn!(
                "left out an unreadable part of the register answer: {}",
                super::error::json_fault(&e)
            );
            Ok(None)
        }
    }
}

/// `GET /events` response.
#[derive(Debug, Clone, Deserialize)]
pub struct EventsResponse {
    /// Raw, so that one event the JSON decoder refuses (a lone surrogate) costs only itself.
    #[serde(default)]
    pub events: Vec<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    pub queue_id: Option<String>,
}

/// One event: its ID and what happened.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: i64,
    pub kind: EventKind,
}

impl Event {
    /// Decode one event value. Never fails: the worst case is `Malformed`.
    pub fn decode(value: Value) -> Event {
        Event::decode_str(&value.to_string())
    }

    /// Decode one event from its JSON. Never fails: a message event whose message cannot be
    /// read carries a placeholder ([`super::lenient`]); the worst case is `Malformed`.
    pub fn decode_str(json: &str) -> Event {
        // Each field on its own, as a JSON value would read it (the last of duplicate keys):
        // one that is not what it should be costs only itself.
        let head: std::collections::HashMap<String, &serde_json::value::RawValue> =
            serde_json::from_str(json).unwrap_or_default();
        let field = |k: &str| head.get(k).and_then(|r| serde_json::from_str::<Value>(r.get()).ok());
        let id = field("id").and_then(|v| v.as_i64()).unwrap_or(-1);
        let ty = field("type").and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        let kind = match serde_json::from_str::<EventKind>(json) {
            Ok(k) => k,
            Err(e) if ty == "message" => {
                let salvaged = head
                    .get("message")
                    .and_then(|m| super::lenient::message_from_str(m.get()))
                    .map(|message| {
                        let flags = head.get("flags").and_then(|f| serde_json::from_str(f.get()).ok());
                        let local =
                            head.get("local_message_id").and_then(|l| serde_json::from_str(l.get()).ok());
                        MessageEvent { message, flags: flags.unwrap_or_default(), local_message_id: local }
                    });
                match salvaged {
                    Some(m) => EventKind::Message(Box::new(m)),
                    None => EventKind::Malformed { event_type: ty, error: super::error::json_fault(&e) },
                }
            }
            Err(e) if KNOWN_EVENT_TYPES.contains(&ty.as_str()) => {
                EventKind::Malformed { event_type: ty, error: super::error::json_fault(&e) }
            }
            Err(_) => EventKind::Unknown { event_type: ty },
        };
        Event { id, kind }
    }
}

/// Event types this client decodes (anything else is `EventKind::Unknown`): `heartbeat`,
/// which always comes, then [`REGISTERED_EVENT_TYPES`].
pub const KNOWN_EVENT_TYPES: &[&str] = &[
    "heartbeat",
    "message",
    "update_message",
    "delete_message",
    "reaction",
    "update_message_flags",
    "typing",
    "typing_edit_message",
    "subscription",
    "stream",
    "user_topic",
    "presence",
    "user_status",
    "realm",
    "realm_user",
    "realm_emoji",
    "user_group",
    "scheduled_messages",
    "navigation_view",
    "realm_playgrounds",
    "drafts",
    "user_settings",
    "restart",
    "muted_users",
    "alert_words",
    "submessage",
    "reminders",
    "attachment",
    "saved_snippets",
    "channel_folder",
];

/// The event types a client registers for: every one it decodes but `heartbeat` (which comes
/// unasked). One list with [`KNOWN_EVENT_TYPES`], so registering for a type the decoder does
/// not know (every such event silently `Unknown`) cannot happen.
pub const REGISTERED_EVENT_TYPES: &[&str] = match KNOWN_EVENT_TYPES {
    [_heartbeat, rest @ ..] => rest,
    [] => &[],
};

/// The kinds of event this client understands.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    Heartbeat,
    Message(Box<MessageEvent>),
    UpdateMessage(Box<UpdateMessageEvent>),
    DeleteMessage(DeleteMessageEvent),
    Reaction(ReactionEvent),
    Subscription(SubscriptionEvent),
    UpdateMessageFlags(FlagsEvent),
    Typing(TypingEvent),
    TypingEditMessage(TypingEditEvent),
    Presence(PresenceEvent),
    UserStatus(UserStatusEvent),
    UserTopic(UserTopic),
    ScheduledMessages(super::scheduled::ScheduledMessagesEvent),
    UserGroup(UserGroupEvent),
    NavigationView(NavigationViewEvent),
    RealmPlaygrounds {
        realm_playgrounds: Vec<Playground>,
    },
    /// Every custom emoji of the organization (not only the changed one).
    RealmEmoji {
        realm_emoji: HashMap<String, RealmEmoji>,
    },
    RealmUser(RealmUserEvent),
    Realm(RealmEvent),
    Stream(StreamEvent),
    Drafts(DraftsEvent),
    UserSettings(UserSettingsEvent),
    Restart(RestartEvent),
    /// Everyone the user muted (the whole list, not only the change).
    MutedUsers {
        muted_users: Vec<MutedUser>,
    },
    /// The user's alert words (the whole list).
    AlertWords {
        alert_words: Vec<String>,
    },
    /// A change to a message's widget (a vote, a new option, a ticked task).
    Submessage(SubmessageEvent),
    /// Reminders set, or gone (deleted or delivered).
    Reminders(super::reminders::RemindersEvent),
    /// One of the user's uploads added, linked or unlinked, or deleted.
    Attachment(super::attachments::AttachmentEvent),
    /// One of the user's saved snippets was created, edited or deleted.
    SavedSnippets(SavedSnippetsEvent),
    /// A channel folder was created, changed or the folders reordered.
    ChannelFolder(ChannelFolderEvent),
    /// An event type this client does not know.
    #[serde(skip)]
    Unknown {
        event_type: String,
    },
    /// A known event type whose fields did not decode.
    #[serde(skip)]
    Malformed {
        event_type: String,
        /// Where its JSON broke ([`super::error::json_fault`]: never the event's text).
        error: String,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TypingUser {
    pub user_id: UserId,
    #[serde(default)]
    pub email: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TypingEvent {
    pub op: StartStop,
    #[serde(default)]
    pub message_type: Option<String>,
    pub sender: TypingUser,
    #[serde(default)]
    pub recipients: Option<Vec<TypingUser>>,
    #[serde(default)]
    pub stream_id: Option<ChannelId>,
    #[serde(default)]
    pub topic: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TypingEditEvent {
    pub op: StartStop,
    pub message_id: MessageId,
    pub sender_id: UserId,
    #[serde(default)]
    pub recipient: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PresenceEvent {
    #[serde(default)]
    pub user_id: Option<UserId>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub server_timestamp: Option<f64>,
    #[serde(default)]
    pub presence: Option<HashMap<String, LegacyClientPresence>>,
    #[serde(default)]
    pub presences: Option<HashMap<String, ModernPresence>>,
}

impl PresenceEvent {
    /// The event's entries by user ID, in either shape: the modern `presences`, or the legacy
    /// `presence` of one user by client (what servers send without `simplified_presence_events`).
    pub fn entries(&self) -> Vec<(UserId, ModernPresence)> {
        if let Some(p) = &self.presences {
            return p.iter().filter_map(|(k, v)| Some((k.parse().ok()?, *v))).collect();
        }
        let (Some(user), Some(clients)) = (self.user_id, &self.presence) else { return Vec::new() };
        let newest = |active: bool| {
            clients
                .values()
                .filter(|c| !active || c.status == "active")
                .map(|c| c.timestamp)
                .max()
                .unwrap_or(0)
        };
        vec![(user, ModernPresence { active_timestamp: newest(true), idle_timestamp: newest(false) })]
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct UserStatusEvent {
    pub user_id: UserId,
    #[serde(default)]
    pub status_text: Option<String>,
    #[serde(default)]
    pub emoji_name: Option<String>,
    #[serde(default)]
    pub emoji_code: Option<String>,
    #[serde(default)]
    pub reaction_type: Option<String>,
    #[serde(default)]
    pub away: Option<bool>,
}

/// A server-side draft was created, edited or deleted (sent only to its owner).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawDraftsEvent")]
pub enum DraftsEvent {
    Add(Vec<Draft>),
    Update(Draft),
    Remove(i64),
}

#[derive(Deserialize)]
struct RawDraftsEvent {
    op: String,
    #[serde(default)]
    drafts: Option<Vec<Draft>>,
    #[serde(default)]
    draft: Option<Draft>,
    #[serde(default)]
    draft_id: Option<i64>,
}

impl TryFrom<RawDraftsEvent> for DraftsEvent {
    type Error = String;
    fn try_from(r: RawDraftsEvent) -> Result<Self, Self::Error> {
        match r.op.as_str() {
            "add" => r.drafts.map(DraftsEvent::Add).ok_or_else(|| "missing field `drafts`".into()),
            "update" => r.draft.map(DraftsEvent::Update).ok_or_else(|| "missing field `draft`".into()),
            "remove" => r.draft_id.map(DraftsEvent::Remove).ok_or_else(|| "missing field `draft_id`".into()),
            other => Err(format!("unknown drafts op `{other}`")),
        }
    }
}

/// A saved snippet was created, edited (Zulip 10.0, level 368) or deleted: sent to its owner.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawSavedSnippetsEvent")]
pub enum SavedSnippetsEvent {
    /// Created, or (op `update`) edited: the snippet as it now is.
    Put(SavedSnippet),
    Remove(i64),
}

#[derive(Deserialize)]
struct RawSavedSnippetsEvent {
    op: String,
    #[serde(default)]
    saved_snippet: Option<SavedSnippet>,
    #[serde(default)]
    saved_snippet_id: Option<i64>,
}

impl TryFrom<RawSavedSnippetsEvent> for SavedSnippetsEvent {
    type Error = String;
    fn try_from(r: RawSavedSnippetsEvent) -> Result<Self, Self::Error> {
        match r.op.as_str() {
            "add" | "update" => r
                .saved_snippet
                .map(SavedSnippetsEvent::Put)
                .ok_or_else(|| "missing field `saved_snippet`".into()),
            "remove" => r
                .saved_snippet_id
                .map(SavedSnippetsEvent::Remove)
                .ok_or_else(|| "missing field `saved_snippet_id`".into()),
            other => Err(format!("unknown saved_snippets op `{other}`")),
        }
    }
}

/// A channel folder came, changed (name, description, archived), or the folders' order did
/// (every folder's ID, archived ones too, in the new order).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawChannelFolderEvent")]
pub enum ChannelFolderEvent {
    Add(ChannelFolder),
    Update { id: i64, name: Option<String>, is_archived: Option<bool> },
    Reorder(Vec<i64>),
}

#[derive(Deserialize)]
struct RawChannelFolderEvent {
    op: String,
    #[serde(default)]
    channel_folder: Option<ChannelFolder>,
    #[serde(default)]
    channel_folder_id: Option<i64>,
    #[serde(default)]
    data: Option<ChannelFolderChange>,
    #[serde(default)]
    order: Option<Vec<i64>>,
}

#[derive(Deserialize, Default)]
struct ChannelFolderChange {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    is_archived: Option<bool>,
}

impl TryFrom<RawChannelFolderEvent> for ChannelFolderEvent {
    type Error = String;
    fn try_from(r: RawChannelFolderEvent) -> Result<Self, Self::Error> {
        match r.op.as_str() {
            "add" => r.channel_folder.map(Self::Add).ok_or_else(|| "missing field `channel_folder`".into()),
            "update" => {
                let id = r.channel_folder_id.ok_or("missing field `channel_folder_id`")?;
                let data = r.data.unwrap_or_default();
                Ok(Self::Update { id, name: data.name, is_archived: data.is_archived })
            }
            "reorder" => r.order.map(Self::Reorder).ok_or_else(|| "missing field `order`".into()),
            other => Err(format!("unknown channel_folder op `{other}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_unreadable_optional_section_of_register_is_left_out_not_fatal() {
        let r: RegisterResponse = serde_json::from_value(json!({
            "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 496,
            "realm_emoji": "not a map", "navigation_views": [{"fragment": 5}],
            "realm_playgrounds": [{"id": 1, "name": "P", "pygments_language": "py", "url_template": "x{code}"}],
        }))
        .expect("still decodes");
        assert!(r.realm_emoji.is_none() && r.navigation_views.is_none());
        assert_eq!(r.realm_playgrounds.map(|p| p.len()), Some(1), "readable sections are kept");
        // Essential sections stay strict: the registration is refused with a message.
        let bad = serde_json::from_value::<RegisterResponse>(json!({
            "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 496, "realm_users": "everyone",
        }));
        assert!(bad.is_err());
    }

    #[test]
    fn a_message_marked_unread_says_where_it_is() {
        let e = Event::decode(json!({
            "id": 3, "type": "update_message_flags", "op": "remove", "flag": "read", "messages": [446, 7],
            "all": false,
            "message_details": {
                "446": {"type": "stream", "stream_id": 29, "topic": "", "mentioned": true},
                "7": {"type": "private", "user_ids": [11]},
                "x": {"type": "private"},
            },
        }));
        let EventKind::UpdateMessageFlags(f) = e.kind else { panic!("not decoded: {e:?}") };
        assert_eq!(f.messages, [446, 7]);
        assert_eq!(f.flag, crate::flags::Flag::Read);
        assert_eq!(f.message_details[&446].stream_id, Some(29));
        assert!(f.message_details[&446].mentioned);
        assert_eq!(f.message_details[&7].user_ids.as_deref(), Some(&[11][..]));
        assert_eq!(f.message_details.len(), 2, "a key that is no ID is left out");
    }

    #[test]
    fn saved_snippet_events_put_and_remove() {
        let snippet = json!({"id": 4, "title": "thanks", "content": "Thank you!", "date_created": 1});
        let put = |op: &str| {
            Event::decode(json!({"id": 1, "type": "saved_snippets", "op": op, "saved_snippet": snippet})).kind
        };
        let want =
            SavedSnippet { id: 4, title: "thanks".into(), content: "Thank you!".into(), date_created: 1 };
        assert_eq!(put("add"), EventKind::SavedSnippets(SavedSnippetsEvent::Put(want.clone())));
        assert_eq!(put("update"), EventKind::SavedSnippets(SavedSnippetsEvent::Put(want)));
        let gone =
            Event::decode(json!({"id": 2, "type": "saved_snippets", "op": "remove", "saved_snippet_id": 4}));
        assert_eq!(gone.kind, EventKind::SavedSnippets(SavedSnippetsEvent::Remove(4)));
        let odd = Event::decode(json!({"id": 3, "type": "saved_snippets", "op": "remove"}));
        assert!(matches!(odd.kind, EventKind::Malformed { .. }), "{odd:?}");
        let r: RegisterResponse = serde_json::from_value(json!({
            "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 297, "saved_snippets": [snippet],
        }))
        .unwrap();
        assert_eq!(r.saved_snippets.map(|s| s.len()), Some(1));
    }

    #[test]
    fn channel_folder_events_decode_and_a_broken_one_is_malformed() {
        let kind = |v: Value| Event::decode(v).kind;
        let folder = json!({"id": 7, "name": "Ops", "order": 7, "is_archived": false});
        assert!(matches!(
            kind(json!({"id": 1, "type": "channel_folder", "op": "add", "channel_folder": folder})),
            EventKind::ChannelFolder(ChannelFolderEvent::Add(f)) if f.name == "Ops"
        ));
        assert_eq!(
            kind(json!({"id": 2, "type": "channel_folder", "op": "update", "channel_folder_id": 7,
                "data": {"is_archived": true}})),
            EventKind::ChannelFolder(ChannelFolderEvent::Update {
                id: 7,
                name: None,
                is_archived: Some(true)
            })
        );
        assert_eq!(
            kind(json!({"id": 3, "type": "channel_folder", "op": "reorder", "order": [3, 1]})),
            EventKind::ChannelFolder(ChannelFolderEvent::Reorder(vec![3, 1]))
        );
        assert!(matches!(
            kind(json!({"id": 4, "type": "channel_folder", "op": "reorder"})),
            EventKind::Malformed { event_type, .. } if event_type == "channel_folder"
        ));
    }
}
