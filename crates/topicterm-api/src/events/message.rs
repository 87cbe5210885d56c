//! Message events: a new message, an edit or move, a deletion, a reaction, flags, a widget's
//! submessage.

use super::ops::AddRemove;
use crate::models::{ChannelId, Message, MessageId, ReactionType, Submessage, TopicLink, UserId};
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SubmessageEvent {
    pub msg_type: String,
    pub content: String,
    pub submessage_id: i64,
    pub message_id: MessageId,
    pub sender_id: UserId,
}

impl SubmessageEvent {
    /// As it is stored in the message's `submessages`.
    pub fn submessage(&self) -> Submessage {
        Submessage {
            msg_type: self.msg_type.clone(),
            content: self.content.clone(),
            message_id: self.message_id,
            sender_id: self.sender_id,
            id: self.submessage_id,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MessageEvent {
    pub message: Message,
    #[serde(default)]
    pub flags: Vec<crate::flags::Flag>,
    /// Echo of the sender's `local_id`, present only on the sender's own queue.
    #[serde(default)]
    pub local_message_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct UpdateMessageEvent {
    #[serde(default)]
    pub user_id: Option<UserId>,
    #[serde(default)]
    pub rendering_only: bool,
    pub message_id: MessageId,
    #[serde(default)]
    pub message_ids: Vec<MessageId>,
    #[serde(default)]
    pub flags: Vec<crate::flags::Flag>,
    #[serde(default)]
    pub edit_timestamp: i64,
    #[serde(default)]
    pub stream_name: Option<String>,
    #[serde(default)]
    pub stream_id: Option<ChannelId>,
    #[serde(default)]
    pub new_stream_id: Option<ChannelId>,
    #[serde(default)]
    pub propagate_mode: Option<String>,
    #[serde(default)]
    pub orig_subject: Option<String>,
    #[serde(default)]
    pub subject: Option<String>,
    #[serde(default)]
    pub topic_links: Option<Vec<TopicLink>>,
    #[serde(default)]
    pub orig_content: Option<String>,
    #[serde(default)]
    pub orig_rendered_content: Option<String>,
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub rendered_content: Option<String>,
    #[serde(default)]
    pub is_me_message: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DeleteMessageEvent {
    #[serde(default)]
    pub message_id: Option<MessageId>,
    #[serde(default)]
    pub message_ids: Option<Vec<MessageId>>,
    #[serde(default)]
    pub message_type: Option<String>,
    #[serde(default)]
    pub stream_id: Option<ChannelId>,
    #[serde(default)]
    pub topic: Option<String>,
}

impl DeleteMessageEvent {
    /// Every deleted ID, from either form.
    pub fn ids(&self) -> Vec<MessageId> {
        let mut ids = self.message_ids.clone().unwrap_or_default();
        ids.extend(self.message_id);
        ids
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReactionEvent {
    pub op: AddRemove,
    pub message_id: MessageId,
    pub user_id: UserId,
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: ReactionType,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawFlagsEvent")]
pub struct FlagsEvent {
    pub op: AddRemove,
    pub flag: crate::flags::Flag,
    pub messages: Vec<MessageId>,
    pub all: bool,
    /// Messages marked unread: where each is (feature level 121), so a client that does not
    /// hold them can count them.
    pub message_details: std::collections::HashMap<MessageId, FlagDetails>,
}

/// Where a message marked unread is (`message_details` of `update_message_flags`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct FlagDetails {
    /// `stream` or `private`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub stream_id: Option<ChannelId>,
    #[serde(default)]
    pub topic: Option<String>,
    /// The other participants of a direct message.
    #[serde(default)]
    pub user_ids: Option<Vec<UserId>>,
    #[serde(default)]
    pub mentioned: bool,
}

/// Servers send `op`, the deprecated `operation`, or both (a serde alias would reject both).
#[derive(Deserialize)]
struct RawFlagsEvent {
    #[serde(default)]
    op: Option<String>,
    #[serde(default)]
    operation: Option<String>,
    flag: String,
    #[serde(default)]
    messages: Vec<MessageId>,
    #[serde(default)]
    all: bool,
    /// Keyed by the ID as a string: inside an internally tagged enum serde cannot read map
    /// keys as numbers.
    #[serde(default)]
    message_details: std::collections::HashMap<String, FlagDetails>,
}

impl TryFrom<RawFlagsEvent> for FlagsEvent {
    type Error = &'static str;
    fn try_from(r: RawFlagsEvent) -> Result<Self, Self::Error> {
        let op = AddRemove::from(r.op.or(r.operation).ok_or("missing field `op`")?);
        Ok(FlagsEvent {
            op,
            flag: crate::flags::Flag::from(r.flag),
            messages: r.messages,
            all: r.all,
            message_details: r
                .message_details
                .into_iter()
                .filter_map(|(id, d)| Some((id.trim().parse().ok()?, d)))
                .collect(),
        })
    }
}
