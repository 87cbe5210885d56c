//! Messages: fetching with narrows, sending, editing, flags, reactions, typing, history, reports.

use super::error::{LimitError, Result};
use super::flags::Flag;
use super::levels;
use super::limits;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where get-messages starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    Id(MessageId),
    Newest,
    Oldest,
    FirstUnread,
    /// First message on or after `anchor_date` (feature level 445).
    Date,
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Anchor::Id(id) => write!(f, "{id}"),
            Anchor::Newest => f.write_str("newest"),
            Anchor::Oldest => f.write_str("oldest"),
            Anchor::FirstUnread => f.write_str("first_unread"),
            Anchor::Date => f.write_str("date"),
        }
    }
}

/// Parameters of get-messages (operation 6).
#[derive(Debug, Clone, Default)]
pub struct GetMessages {
    pub anchor: Option<Anchor>,
    pub include_anchor: Option<bool>,
    pub anchor_date: Option<String>,
    pub num_before: Option<u64>,
    pub num_after: Option<u64>,
    pub narrow: Vec<NarrowTerm>,
    pub client_gravatar: Option<bool>,
    pub apply_markdown: Option<bool>,
    pub message_ids: Option<Vec<MessageId>>,
    pub allow_empty_topic_name: Option<bool>,
    pub use_first_unread_anchor: Option<bool>,
}

impl GetMessages {
    /// `num_before` messages before and `num_after` after `anchor`.
    pub fn around(anchor: Anchor, num_before: u64, num_after: u64) -> Self {
        GetMessages {
            anchor: Some(anchor),
            num_before: Some(num_before),
            num_after: Some(num_after),
            ..Default::default()
        }
    }
    pub fn narrow(mut self, narrow: Vec<NarrowTerm>) -> Self {
        self.narrow = narrow;
        self
    }

    fn validate(&self) -> Result<(), LimitError> {
        let total = self.num_before.unwrap_or(0) + self.num_after.unwrap_or(0);
        if total > 5000 {
            return Err(LimitError::TooManyMessages(total));
        }
        if self.message_ids.is_some() {
            if self.anchor.is_some()
                || self.include_anchor.is_some()
                || self.use_first_unread_anchor.is_some()
                || self.num_before.is_some()
                || self.num_after.is_some()
            {
                return Err(LimitError::MessageIdsWithRange);
            }
            if self.message_ids.as_ref().is_some_and(|ids| ids.len() > 5000) {
                return Err(LimitError::TooManyMessages(
                    self.message_ids.as_ref().map_or(0, |v| v.len() as u64),
                ));
            }
        } else if self.num_before.is_none() || self.num_after.is_none() {
            return Err(LimitError::RangeRequired);
        }
        if self.use_first_unread_anchor == Some(true) && self.anchor.is_some() {
            return Err(LimitError::FirstUnreadWithAnchor);
        }
        if self.anchor == Some(Anchor::Date) && self.anchor_date.is_none() {
            return Err(LimitError::AnchorDateRequired);
        }
        Ok(())
    }

    fn params(&self) -> Params {
        Params::new()
            .opt("anchor", self.anchor.as_ref())
            .opt("include_anchor", self.include_anchor)
            .opt("anchor_date", self.anchor_date.as_ref())
            .opt("num_before", self.num_before)
            .opt("num_after", self.num_after)
            .opt_json("narrow", (!self.narrow.is_empty()).then_some(&self.narrow))
            .opt("client_gravatar", self.client_gravatar)
            .opt("apply_markdown", self.apply_markdown)
            .opt_json("message_ids", self.message_ids.as_ref())
            .opt("allow_empty_topic_name", self.allow_empty_topic_name)
            .opt("use_first_unread_anchor", self.use_first_unread_anchor)
    }
}

/// Response of get-messages.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct MessagesResponse {
    #[serde(default)]
    pub anchor: Option<i64>,
    #[serde(default)]
    pub found_newest: bool,
    #[serde(default)]
    pub found_oldest: bool,
    #[serde(default)]
    pub found_anchor: bool,
    #[serde(default)]
    pub history_limited: bool,
    /// One message that cannot be read becomes a placeholder: see [`super::lenient`].
    #[serde(deserialize_with = "super::lenient::messages")]
    pub messages: Vec<Message>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// `GET /messages/{id}/read_receipts`: who has read a message (never its sender; nor people
/// who do not share read receipts, or who are muted either way).
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ReadReceipts {
    pub user_ids: Vec<UserId>,
}

/// `POST /messages/render`: the HTML a message with some Markdown would have.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Rendered {
    pub rendered: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct HistoryResponse {
    pub message_history: Vec<HistorySnapshot>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// An emoji to remove or add; give the server's stored values when removing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmojiSpec {
    pub emoji_name: Option<String>,
    pub emoji_code: Option<String>,
    pub reaction_type: Option<String>,
}

impl From<&Reaction> for EmojiSpec {
    fn from(r: &Reaction) -> Self {
        EmojiSpec {
            emoji_name: Some(r.emoji_name.clone()),
            emoji_code: Some(r.emoji_code.clone()),
            reaction_type: Some(r.reaction_type.as_str().to_owned()),
        }
    }
}

/// `start` or `stop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypingOp {
    Start,
    Stop,
}

impl fmt::Display for TypingOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TypingOp::Start => "start",
            TypingOp::Stop => "stop",
        })
    }
}

/// Where someone is typing.
#[derive(Debug, Clone)]
pub enum TypingTo {
    Direct(Vec<UserId>),
    Channel { stream_id: ChannelId, topic: String },
}

/// A message to send.
#[derive(Debug, Clone, PartialEq)]
pub struct OutgoingMessage {
    pub kind: SendType,
    pub to: Recipient,
    pub topic: Option<String>,
    pub content: String,
    /// Echoed back in the `message` event on this client's queue.
    pub local_id: Option<String>,
    pub queue_id: Option<String>,
    pub read_by_sender: Option<bool>,
}

impl OutgoingMessage {
    pub fn channel(stream_id: ChannelId, topic: &str, content: &str) -> Self {
        OutgoingMessage {
            kind: SendType::Channel,
            to: Recipient::Channel(stream_id),
            topic: Some(topic.to_owned()),
            content: content.to_owned(),
            local_id: None,
            queue_id: None,
            read_by_sender: None,
        }
    }
    pub fn direct(user_ids: Vec<UserId>, content: &str) -> Self {
        OutgoingMessage {
            kind: SendType::Direct,
            to: Recipient::Users(user_ids),
            topic: None,
            content: content.to_owned(),
            local_id: None,
            queue_id: None,
            read_by_sender: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SendResponse {
    pub id: MessageId,
    /// The message's address in the web app (level 508; absent before).
    #[serde(default)]
    pub message_url: Option<String>,
    /// Markdown that links to the message, as the web app writes it (level 508).
    #[serde(default)]
    pub message_link: Option<String>,
    #[serde(default)]
    pub automatic_new_visibility_policy: Option<i64>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// An edit of a message (content, topic, move).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageEdit {
    pub content: Option<String>,
    pub topic: Option<String>,
    pub stream_id: Option<ChannelId>,
    /// `change_one`, `change_later` or `change_all`.
    pub propagate_mode: Option<String>,
    pub send_notification_to_old_thread: Option<bool>,
    pub send_notification_to_new_thread: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SingleMessageResponse {
    #[serde(deserialize_with = "super::lenient::message")]
    pub message: Message,
    #[serde(default)]
    pub raw_content: Option<String>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FlagsResponse {
    #[serde(default)]
    pub messages: Vec<MessageId>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FlagsNarrowResponse {
    pub processed_count: i64,
    pub updated_count: i64,
    #[serde(default)]
    pub first_processed_id: Option<MessageId>,
    #[serde(default)]
    pub last_processed_id: Option<MessageId>,
    #[serde(default)]
    pub found_oldest: bool,
    #[serde(default)]
    pub found_newest: bool,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[cfg(feature = "http")]
impl Client {
    /// Operation 6: `GET /messages`.
    pub async fn get_messages(&self, q: &GetMessages) -> Result<MessagesResponse> {
        q.validate()?;
        // Messages in the empty topic come with "" (not its display name), as in register,
        // events and topic lists: every page, whoever asks for it (the recent view, a jump).
        // Not at all to a server before it, which does not know the parameter.
        let allow_empty =
            self.level().has(levels::EMPTY_TOPIC).then(|| q.allow_empty_topic_name.unwrap_or(true));
        self.level().check_narrow(&q.narrow)?;
        if q.anchor == Some(Anchor::Date) {
            self.level().require(levels::ANCHOR_DATE, "jumping to a date", "Zulip 12.0")?;
        }
        let asked = GetMessages {
            narrow: self.level().narrow(&q.narrow),
            allow_empty_topic_name: allow_empty,
            ..q.clone()
        };
        match self.call(Method::GET, "/messages", asked.params()).await {
            // A server that does not know an operator's name its level says it has: once more
            // in the oldest names, and nothing said to the user.
            Err(e) if levels::refuses_a_name(&e) => match self.level().older_names(&q.narrow) {
                Some(narrow) => {
                    tracing::info!(
                        "the server refused a narrow operator's name ({e}); asking in the older names"
                    );
                    self.call(Method::GET, "/messages", GetMessages { narrow, ..asked }.params()).await
                }
                None => Err(e),
            },
            answer => answer,
        }
    }

    /// Operation 9: `POST /messages/{id}/report`.
    pub async fn report_message(
        &self,
        message_id: MessageId,
        report_type: &str,
        description: Option<&str>,
    ) -> Result<Ack> {
        limits::check_report(report_type, description)?;
        let p = Params::new().add("report_type", report_type).opt("description", description);
        self.call(Method::POST, &format!("/messages/{message_id}/report"), p).await
    }

    /// Operation 10: `GET /messages/{id}/history`.
    /// `GET /messages/{id}/read_receipts`; refused where the organization turned them off.
    pub async fn read_receipts(&self, message_id: MessageId) -> Result<ReadReceipts> {
        self.call(Method::GET, &format!("/messages/{message_id}/read_receipts"), Params::new()).await
    }

    /// `POST /messages/render`: how the server would render `content` (a preview); refused
    /// before sending when it is empty or longer than the server's `max_message_length`.
    pub async fn render_message(&self, content: &str) -> Result<Rendered> {
        limits::check_content(content, self.server_info().max_message_length)?;
        self.call(Method::POST, "/messages/render", Params::new().add("content", content)).await
    }

    pub async fn get_message_history(
        &self,
        message_id: MessageId,
        allow_empty_topic_name: bool,
    ) -> Result<HistoryResponse> {
        let known = self.level().has(levels::EMPTY_TOPIC);
        let p = Params::new().opt("allow_empty_topic_name", known.then_some(allow_empty_topic_name));
        self.call(Method::GET, &format!("/messages/{message_id}/history"), p).await
    }

    /// Operation 11: `POST /mark_topic_as_read` (deprecated).
    pub async fn mark_topic_as_read(&self, stream_id: ChannelId, topic_name: &str) -> Result<Ack> {
        let p = Params::new().add("stream_id", stream_id).add("topic_name", topic_name);
        self.call(Method::POST, "/mark_topic_as_read", p).await
    }

    /// `DELETE /messages/{id}`.
    pub async fn delete_message(&self, message_id: MessageId) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/messages/{message_id}"), Params::new()).await
    }

    /// `POST /mark_stream_as_read` (deprecated by the reference server in favour of
    /// `messages/flags/narrow`, which the client itself uses; kept for completeness).
    pub async fn mark_channel_as_read(&self, stream_id: ChannelId) -> Result<Ack> {
        self.call(Method::POST, "/mark_stream_as_read", Params::new().add("stream_id", stream_id)).await
    }

    /// `POST /mark_all_as_read` (deprecated likewise).
    pub async fn mark_all_as_read(&self) -> Result<Ack> {
        self.call(Method::POST, "/mark_all_as_read", Params::new()).await
    }

    /// Operation 13: `DELETE /messages/{id}/reactions`.
    pub async fn remove_reaction(&self, message_id: MessageId, emoji: &EmojiSpec) -> Result<Ack> {
        let p = Params::new()
            .opt("emoji_name", emoji.emoji_name.as_ref())
            .opt("emoji_code", emoji.emoji_code.as_ref())
            .opt("reaction_type", emoji.reaction_type.as_ref());
        self.call(Method::DELETE, &format!("/messages/{message_id}/reactions"), p).await
    }

    /// Operation 17: `POST /messages/{id}/typing` (before feature level 361:
    /// `/message_edit_typing`; before 351 there is none, and nothing is sent).
    pub async fn set_edit_typing(&self, message_id: MessageId, op: TypingOp) -> Result<Ack> {
        if !self.level().has(levels::EDIT_TYPING_LEGACY) {
            return Ok(Ack::default());
        }
        if !self.level().has(levels::EDIT_TYPING) {
            let p = Params::new().add("message_id", message_id).add("op", op);
            return self.call(Method::POST, "/message_edit_typing", p).await;
        }
        let p = Params::new().add("op", op);
        self.call(Method::POST, &format!("/messages/{message_id}/typing"), p).await
    }

    /// `POST /messages`.
    pub async fn send_message(&self, m: &OutgoingMessage) -> Result<SendResponse> {
        let info = self.server_info();
        limits::check_content(&m.content, info.max_message_length)?;
        if let Some(t) = &m.topic {
            limits::check_topic_length(t, info.max_topic_length)?;
        }
        if matches!(&m.to, Recipient::Users(u) if u.is_empty()) {
            return Err(LimitError::NoRecipients.into());
        }
        let kind = self.level().send_type(m.kind);
        let p = Params::new()
            .add("type", kind.as_str())
            .add("to", m.to.to_param())
            .opt("topic", m.topic.as_deref().filter(|_| m.kind.is_channel()).map(|t| self.level().topic(t)))
            .add("content", &m.content)
            .opt("local_id", m.local_id.as_ref())
            .opt("queue_id", m.queue_id.as_ref())
            // Not to a server that does not know it (it warns of each one in its log).
            .opt("read_by_sender", m.read_by_sender.filter(|_| self.level().has(levels::READ_BY_SENDER)));
        let sent: SendResponse = self.call(Method::POST, "/messages", p).await?;
        // An older server marks the sender's own message read only for clients it knows by
        // name: do what `read_by_sender` asks of a newer one.
        if m.read_by_sender == Some(true)
            && !self.level().has(levels::READ_BY_SENDER)
            && let Err(e) = self.update_message_flags(&[sent.id], true, Flag::Read).await
        {
            tracing::debug!("own message {} not marked read: {e}", sent.id);
        }
        Ok(sent)
    }

    /// `PATCH /messages/{id}`.
    pub async fn update_message(&self, message_id: MessageId, e: &MessageEdit) -> Result<Ack> {
        let info = self.server_info();
        if let Some(c) = &e.content {
            limits::check_content(c, info.max_message_length)?;
        }
        if let Some(t) = &e.topic {
            limits::check_topic_length(t, info.max_topic_length)?;
        }
        let p = Params::new()
            .opt("content", e.content.as_ref())
            .opt("topic", e.topic.as_ref())
            .opt("stream_id", e.stream_id)
            .opt("propagate_mode", e.propagate_mode.as_ref())
            .opt("send_notification_to_old_thread", e.send_notification_to_old_thread)
            .opt("send_notification_to_new_thread", e.send_notification_to_new_thread);
        if p.pairs().is_empty() {
            return Err(LimitError::NothingToChange.into());
        }
        self.call(Method::PATCH, &format!("/messages/{message_id}"), p).await
    }

    /// `GET /messages/{id}`; `apply_markdown=false` gives the raw Markdown (quote, edit).
    pub async fn get_message(
        &self,
        message_id: MessageId,
        apply_markdown: bool,
    ) -> Result<SingleMessageResponse> {
        let p = Params::new().add("apply_markdown", apply_markdown);
        self.call(Method::GET, &format!("/messages/{message_id}"), p).await
    }

    /// `POST /messages/flags`.
    pub async fn update_message_flags(
        &self,
        messages: &[MessageId],
        add: bool,
        flag: Flag,
    ) -> Result<FlagsResponse> {
        let p = Params::new()
            .json("messages", &messages)
            .add("op", if add { "add" } else { "remove" })
            .add("flag", flag.as_str());
        self.call(Method::POST, "/messages/flags", p).await
    }

    /// `POST /messages/flags/narrow`.
    pub async fn update_message_flags_for_narrow(
        &self,
        anchor: &Anchor,
        num_before: u64,
        num_after: u64,
        narrow: &[NarrowTerm],
        add: bool,
        flag: Flag,
    ) -> Result<FlagsNarrowResponse> {
        self.level().check_narrow(narrow)?;
        let params = |terms: &[NarrowTerm]| {
            Params::new()
                .add("anchor", anchor)
                .add("num_before", num_before)
                .add("num_after", num_after)
                .json("narrow", &terms)
                .add("op", if add { "add" } else { "remove" })
                .add("flag", flag.as_str())
        };
        match self.call(Method::POST, "/messages/flags/narrow", params(&self.level().narrow(narrow))).await {
            Err(e) if levels::refuses_a_name(&e) => match self.level().older_names(narrow) {
                Some(older) => self.call(Method::POST, "/messages/flags/narrow", params(&older)).await,
                None => Err(e),
            },
            answer => answer,
        }
    }

    /// `POST /submessage`: a change to a message's widget; `content` is its JSON.
    pub async fn send_submessage(&self, message_id: MessageId, content: &serde_json::Value) -> Result<Ack> {
        let p = Params::new()
            .add("message_id", message_id)
            .add("msg_type", "widget")
            .add("content", content.to_string());
        self.call(Method::POST, "/submessage", p).await
    }

    /// `POST /messages/{id}/reactions`.
    pub async fn add_reaction(&self, message_id: MessageId, emoji: &EmojiSpec) -> Result<Ack> {
        limits::check_emoji_triplet(
            emoji.emoji_name.as_deref(),
            emoji.emoji_code.as_deref(),
            emoji.reaction_type.as_deref(),
        )?;
        let p = Params::new()
            .opt("emoji_name", emoji.emoji_name.as_ref())
            .opt("emoji_code", emoji.emoji_code.as_ref())
            .opt("reaction_type", emoji.reaction_type.as_ref());
        self.call(Method::POST, &format!("/messages/{message_id}/reactions"), p).await
    }

    /// `POST /typing`.
    pub async fn set_typing_status(&self, op: TypingOp, to: &TypingTo) -> Result<Ack> {
        let p = Params::new().add("op", op);
        let p = match to {
            TypingTo::Direct(ids) => p.add("type", "direct").json("to", ids),
            // `to` for servers before `stream_id` (level 215); later ones ignore it.
            TypingTo::Channel { stream_id, topic } => {
                let p = p.add("type", "stream").add("stream_id", stream_id).add("topic", topic);
                if self.level().has(levels::TYPING_STREAM_ID) { p } else { p.json("to", &[stream_id]) }
            }
        };
        self.call(Method::POST, "/typing", p).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_messages_limits() {
        let q = GetMessages::around(Anchor::Newest, 3000, 2001);
        assert_eq!(q.validate(), Err(LimitError::TooManyMessages(5001)));
        let q =
            GetMessages { message_ids: Some(vec![1]), anchor: Some(Anchor::Newest), ..Default::default() };
        assert_eq!(q.validate(), Err(LimitError::MessageIdsWithRange));
        let q = GetMessages { message_ids: Some(vec![1]), num_after: Some(1), ..Default::default() };
        assert_eq!(q.validate(), Err(LimitError::MessageIdsWithRange));
        let q = GetMessages { message_ids: Some(vec![1, 2]), ..Default::default() };
        assert_eq!(q.validate(), Ok(()));
        let mut q = GetMessages::around(Anchor::Newest, 1, 1);
        q.use_first_unread_anchor = Some(true);
        assert_eq!(q.validate(), Err(LimitError::FirstUnreadWithAnchor));
        let q = GetMessages::around(Anchor::Date, 1, 1);
        assert_eq!(q.validate(), Err(LimitError::AnchorDateRequired));
    }
}
