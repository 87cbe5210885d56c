//! serde models of the resources the contract describes.
//!
//! Decoding is tolerant: unknown fields are ignored, optional fields are `Option`s or default,
//! and both spellings of renamed values decode (`private`/`direct`, `stream`/`channel`,
//! `svc_extra_emoji`/`zulip_extra_emoji`). Encoding uses the contract's spellings.

use serde::{Deserialize, Serialize};

mod channel;
mod ids;
mod people;
pub use channel::*;
pub use ids::{ChannelId, MessageId, UserId};
pub use people::*;

/// Success body of an operation that returns nothing but `result` and `msg`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
pub struct Ack {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// The two kinds of message. Decodes `stream`/`channel` and `private`/`direct`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum MessageType {
    #[serde(rename = "stream", alias = "channel")]
    Stream,
    #[serde(rename = "private", alias = "direct")]
    Private,
}

/// The message type values a request may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SendType {
    Channel,
    Stream,
    Direct,
    Private,
}

impl SendType {
    pub fn as_str(self) -> &'static str {
        match self {
            SendType::Channel => "channel",
            SendType::Stream => "stream",
            SendType::Direct => "direct",
            SendType::Private => "private",
        }
    }
    pub fn is_channel(self) -> bool {
        matches!(self, SendType::Channel | SendType::Stream)
    }
    /// Parse any of the four spellings.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "channel" => Some(SendType::Channel),
            "stream" => Some(SendType::Stream),
            "direct" => Some(SendType::Direct),
            "private" => Some(SendType::Private),
            _ => None,
        }
    }
}

/// The namespace of an emoji code.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(from = "String", into = "String")]
pub enum ReactionType {
    UnicodeEmoji,
    RealmEmoji,
    /// `svc_extra_emoji`, also spelled `zulip_extra_emoji`.
    SvcExtraEmoji,
    Other(String),
}

impl ReactionType {
    pub fn as_str(&self) -> &str {
        match self {
            ReactionType::UnicodeEmoji => "unicode_emoji",
            ReactionType::RealmEmoji => "realm_emoji",
            ReactionType::SvcExtraEmoji => "svc_extra_emoji",
            ReactionType::Other(s) => s,
        }
    }
}

impl From<String> for ReactionType {
    fn from(s: String) -> Self {
        match s.as_str() {
            "unicode_emoji" => ReactionType::UnicodeEmoji,
            "realm_emoji" => ReactionType::RealmEmoji,
            "svc_extra_emoji" | "zulip_extra_emoji" => ReactionType::SvcExtraEmoji,
            _ => ReactionType::Other(s),
        }
    }
}

impl From<&str> for ReactionType {
    fn from(s: &str) -> Self {
        ReactionType::from(s.to_owned())
    }
}

impl From<ReactionType> for String {
    fn from(r: ReactionType) -> String {
        r.as_str().to_owned()
    }
}

/// A muted user, as register and `muted_users` events list them.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub struct MutedUser {
    pub id: UserId,
    #[serde(default)]
    pub timestamp: i64,
}

/// An emoji as carried by reactions and user statuses.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub struct EmojiRef {
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: ReactionType,
}

/// One reaction on a message.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Reaction {
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: ReactionType,
    pub user_id: UserId,
}

/// A participant of a direct message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub struct DmRecipient {
    pub id: UserId,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub full_name: String,
    #[serde(default)]
    pub is_mirror_dummy: bool,
}

/// `display_recipient`: a channel name, or the participants of a DM.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum DisplayRecipient {
    Channel(String),
    Users(Vec<DmRecipient>),
}

/// One entry of a message's `edit_history` (newest first).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
pub struct EditHistoryEntry {
    pub user_id: Option<UserId>,
    pub timestamp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_rendered_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_stream: Option<ChannelId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<ChannelId>,
    #[serde(default, alias = "prev_subject", skip_serializing_if = "Option::is_none")]
    pub prev_topic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
}

/// A submessage (widgets such as polls).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Submessage {
    pub msg_type: String,
    pub content: String,
    pub message_id: MessageId,
    pub sender_id: UserId,
    pub id: i64,
}

/// A topic link detected by a linkifier.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct TopicLink {
    pub text: String,
    pub url: String,
}

/// A message as returned by get-messages and in events and webhook payloads.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Message {
    pub id: MessageId,
    #[serde(rename = "type")]
    pub kind: MessageType,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default)]
    pub client: String,
    pub content: String,
    #[serde(default)]
    pub content_type: Option<String>,
    pub display_recipient: DisplayRecipient,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit_history: Option<Vec<EditHistoryEntry>>,
    #[serde(default)]
    pub is_me_message: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_edit_timestamp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_moved_timestamp: Option<i64>,
    #[serde(default)]
    pub reactions: Vec<Reaction>,
    #[serde(default)]
    pub recipient_id: i64,
    #[serde(default)]
    pub sender_email: String,
    #[serde(default)]
    pub sender_full_name: String,
    pub sender_id: UserId,
    #[serde(default)]
    pub sender_realm_str: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_id: Option<ChannelId>,
    /// The topic (legacy name).
    #[serde(default, alias = "topic")]
    pub subject: String,
    #[serde(default)]
    pub submessages: Vec<Submessage>,
    pub timestamp: i64,
    #[serde(default)]
    pub topic_links: Vec<TopicLink>,
    /// The requesting user's flags (`read`, `starred`, `mentioned`, …).
    #[serde(default)]
    pub flags: Vec<crate::flags::Flag>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rendered_content: Option<String>,
    /// In search results: the rendered content with the matched words marked
    /// (`<span class="highlight">`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_content: Option<String>,
    /// In search results: the topic, HTML-escaped, with the matched words marked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_subject: Option<String>,
}

impl Message {
    /// The topic name (empty for DMs).
    pub fn topic(&self) -> &str {
        &self.subject
    }
    pub fn is_dm(&self) -> bool {
        self.kind == MessageType::Private
    }
    pub fn has_flag(&self, flag: crate::flags::Flag) -> bool {
        self.flags.contains(&flag)
    }
    /// User IDs of a DM's participants (empty for channel messages).
    pub fn dm_user_ids(&self) -> Vec<UserId> {
        match &self.display_recipient {
            DisplayRecipient::Users(u) => u.iter().map(|r| r.id).collect(),
            DisplayRecipient::Channel(_) => Vec::new(),
        }
    }
    /// The channel name of a channel message.
    pub fn channel_name(&self) -> Option<&str> {
        match &self.display_recipient {
            DisplayRecipient::Channel(s) => Some(s),
            DisplayRecipient::Users(_) => None,
        }
    }
}

/// One snapshot of a message's history (oldest first), from the history operation.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
pub struct HistorySnapshot {
    pub topic: String,
    pub content: String,
    pub rendered_content: String,
    pub user_id: Option<UserId>,
    pub timestamp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_topic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<ChannelId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_stream: Option<ChannelId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev_rendered_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_html_diff: Option<String>,
}

/// `to` of a scheduled message: a channel ID or a list of user IDs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Recipient {
    Channel(ChannelId),
    Users(Vec<UserId>),
}

impl Recipient {
    /// The JSON text the protocol expects inside the `to` field.
    pub fn to_param(&self) -> String {
        match self {
            Recipient::Channel(id) => id.to_string(),
            Recipient::Users(ids) => serde_json::to_string(ids).unwrap_or_default(),
        }
    }
}

/// A scheduled message, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ScheduledMessage {
    pub scheduled_message_id: i64,
    #[serde(rename = "type")]
    pub kind: MessageType,
    pub to: Recipient,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    pub content: String,
    #[serde(default)]
    pub rendered_content: String,
    pub scheduled_delivery_timestamp: i64,
    #[serde(default)]
    pub failed: bool,
}

/// A topic of a channel.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct TopicEntry {
    pub name: String,
    pub max_id: MessageId,
}

/// A recent direct-message conversation (register's `recent_private_conversations`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct RecentDm {
    /// The others in it, sorted; empty for messages to oneself.
    pub user_ids: Vec<UserId>,
    pub max_message_id: MessageId,
}

/// A navigation view.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct NavigationView {
    pub fragment: String,
    pub is_pinned: bool,
    #[serde(default)]
    pub name: Option<String>,
}

/// A code playground.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Playground {
    pub id: i64,
    pub name: String,
    pub pygments_language: String,
    pub url_template: String,
}

/// What a server-side draft is addressed to. Decodes the `channel` and `direct` spellings
/// too; a type this client does not know decodes as [`DraftType::Other`] (never sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, Serialize)]
pub enum DraftType {
    /// A channel message: `to` holds exactly one channel ID.
    #[serde(rename = "stream", alias = "channel")]
    Stream,
    /// A direct message: `to` holds the recipients' user IDs.
    #[serde(rename = "private", alias = "direct")]
    Private,
    /// Not addressed yet: `to` is empty.
    #[default]
    #[serde(rename = "")]
    Unaddressed,
    #[serde(rename = "unknown", other)]
    Other,
}

impl DraftType {
    pub fn as_str(self) -> &'static str {
        match self {
            DraftType::Stream => "stream",
            DraftType::Private => "private",
            DraftType::Unaddressed => "",
            DraftType::Other => "unknown",
        }
    }
}

/// A draft kept on the server (synchronized between a user's clients). `id` and `timestamp`
/// are filled in by the server; they are never sent when creating or editing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
pub struct Draft {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    #[serde(rename = "type", default)]
    pub kind: DraftType,
    #[serde(default)]
    pub to: Vec<i64>,
    /// The topic of a channel draft; empty otherwise.
    #[serde(default)]
    pub topic: String,
    pub content: String,
    /// Last edit, seconds since the epoch. When creating or editing, `None` means now.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "int_or_float")]
    pub timestamp: Option<i64>,
}

impl Draft {
    /// A draft of a channel message.
    pub fn channel(stream_id: ChannelId, topic: &str, content: &str) -> Self {
        Draft {
            kind: DraftType::Stream,
            to: vec![stream_id],
            topic: topic.into(),
            content: content.into(),
            ..Default::default()
        }
    }
    /// A draft of a direct message to these users.
    pub fn direct(user_ids: Vec<UserId>, content: &str) -> Self {
        Draft { kind: DraftType::Private, to: user_ids, content: content.into(), ..Default::default() }
    }
    /// A draft not addressed to anyone yet.
    pub fn unaddressed(content: &str) -> Self {
        Draft { content: content.into(), ..Default::default() }
    }
    /// The object sent on create and edit: everything but the server-assigned `id`.
    pub fn to_request(&self) -> Draft {
        Draft { id: None, ..self.clone() }
    }
}

/// An optional integer that a server may send as a float (seconds with a fraction).
fn int_or_float<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let v: Option<f64> = Option::deserialize(d)?;
    Ok(v.filter(|f| f.is_finite()).map(|f| f.trunc() as i64))
}

/// `GET /drafts` response: the user's drafts, most recently edited first.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct DraftsResponse {
    #[serde(default)]
    pub count: usize,
    #[serde(default)]
    pub drafts: Vec<Draft>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// `POST /drafts` response: the new drafts' IDs, in the order they were sent.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct DraftsCreated {
    pub ids: Vec<i64>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// A custom emoji of the organization.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct RealmEmoji {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub source_url: String,
    #[serde(default)]
    pub deactivated: bool,
    #[serde(default)]
    pub author_id: Option<UserId>,
}

/// Trigger of an outgoing webhook.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WebhookTrigger {
    #[serde(alias = "private_message")]
    DirectMessage,
    Mention,
    #[serde(other)]
    Other,
}

/// What an outgoing-webhook bot's endpoint receives.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct WebhookPayload {
    pub bot_email: String,
    pub bot_full_name: String,
    pub data: String,
    pub trigger: WebhookTrigger,
    pub token: String,
    pub message: Message,
}

/// One element of a narrow.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct NarrowTerm {
    pub operator: String,
    pub operand: serde_json::Value,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub negated: bool,
}

impl NarrowTerm {
    pub fn new(operator: &str, operand: impl Into<serde_json::Value>) -> Self {
        NarrowTerm { operator: operator.to_owned(), operand: operand.into(), negated: false }
    }
    pub fn negate(mut self) -> Self {
        self.negated = true;
        self
    }
}

/// Topic visibility policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(from = "i64", into = "i64")]
pub enum VisibilityPolicy {
    None,
    Muted,
    Unmuted,
    Followed,
    Unknown(i64),
}

impl From<i64> for VisibilityPolicy {
    fn from(v: i64) -> Self {
        match v {
            0 => VisibilityPolicy::None,
            1 => VisibilityPolicy::Muted,
            2 => VisibilityPolicy::Unmuted,
            3 => VisibilityPolicy::Followed,
            n => VisibilityPolicy::Unknown(n),
        }
    }
}

impl From<VisibilityPolicy> for i64 {
    fn from(v: VisibilityPolicy) -> i64 {
        match v {
            VisibilityPolicy::None => 0,
            VisibilityPolicy::Muted => 1,
            VisibilityPolicy::Unmuted => 2,
            VisibilityPolicy::Followed => 3,
            VisibilityPolicy::Unknown(n) => n,
        }
    }
}

/// A topic visibility entry (register's `user_topics`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct UserTopic {
    pub stream_id: ChannelId,
    pub topic_name: String,
    #[serde(default)]
    pub last_updated: i64,
    pub visibility_policy: VisibilityPolicy,
}

/// A report type offered by the server.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ReportType {
    pub key: String,
    pub name: String,
}

/// Unread message IDs by conversation, from register's `unread_msgs`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
pub struct UnreadMsgs {
    #[serde(default)]
    pub count: i64,
    #[serde(default)]
    pub dms: Vec<UnreadDm>,
    /// Legacy name of `dms`; servers may send both.
    #[serde(default)]
    pub pms: Vec<UnreadDm>,
    #[serde(default)]
    pub streams: Vec<UnreadStream>,
    #[serde(default)]
    pub huddles: Vec<UnreadHuddle>,
    #[serde(default)]
    pub mentions: Vec<MessageId>,
    #[serde(default)]
    pub old_unreads_missing: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct UnreadDm {
    #[serde(default)]
    pub other_user_id: Option<UserId>,
    /// Legacy name of `other_user_id`.
    #[serde(default)]
    pub sender_id: Option<UserId>,
    pub unread_message_ids: Vec<MessageId>,
}

impl UnreadDm {
    /// The other participant, from either field.
    pub fn other(&self) -> Option<UserId> {
        self.other_user_id.or(self.sender_id)
    }
}

impl UnreadMsgs {
    /// 1:1 DM conversations with unreads, from `dms` or the legacy `pms`.
    pub fn direct(&self) -> &[UnreadDm] {
        if self.dms.is_empty() { &self.pms } else { &self.dms }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct UnreadStream {
    pub stream_id: ChannelId,
    pub topic: String,
    pub unread_message_ids: Vec<MessageId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct UnreadHuddle {
    pub user_ids_string: String,
    pub unread_message_ids: Vec<MessageId>,
}
