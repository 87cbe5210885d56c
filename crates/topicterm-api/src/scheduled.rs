//! Scheduled messages.

use super::error::{LimitError, Result};
use super::limits;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};

/// A new scheduled message (operation 1).
#[derive(Debug, Clone, PartialEq)]
pub struct NewScheduledMessage {
    pub kind: SendType,
    pub to: Recipient,
    pub content: String,
    pub topic: Option<String>,
    pub scheduled_delivery_timestamp: i64,
    pub read_by_sender: Option<bool>,
}

/// Changes to a scheduled message (operation 2); `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScheduledMessageUpdate {
    pub kind: Option<SendType>,
    pub to: Option<Recipient>,
    pub content: Option<String>,
    pub topic: Option<String>,
    pub scheduled_delivery_timestamp: Option<i64>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ScheduledMessageCreated {
    pub scheduled_message_id: i64,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ScheduledMessagesResponse {
    pub scheduled_messages: Vec<ScheduledMessage>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[cfg(feature = "http")]
impl Client {
    /// Operation 1: `POST /scheduled_messages`.
    pub async fn create_scheduled_message(
        &self,
        msg: &NewScheduledMessage,
    ) -> Result<ScheduledMessageCreated> {
        let info = self.server_info();
        if msg.kind.is_channel() {
            limits::check_scheduled_topic(msg.topic.as_deref(), info.empty_topic_display_name.as_deref())?;
            limits::check_topic_length(msg.topic.as_deref().unwrap_or(""), info.max_topic_length)?;
        }
        limits::check_content(&msg.content, info.max_message_length)?;
        if matches!(&msg.to, Recipient::Users(u) if u.is_empty()) {
            return Err(LimitError::NoRecipients.into());
        }
        let p = Params::new()
            .add("type", self.level().send_type(msg.kind).as_str())
            .add("to", msg.to.to_param())
            .add("content", &msg.content)
            .opt(
                "topic",
                msg.topic.as_deref().filter(|_| msg.kind.is_channel()).map(|t| self.level().topic(t)),
            )
            .add("scheduled_delivery_timestamp", msg.scheduled_delivery_timestamp)
            // Not to a server that does not know it.
            .opt(
                "read_by_sender",
                msg.read_by_sender.filter(|_| self.level().has(super::levels::READ_BY_SENDER)),
            );
        self.call(Method::POST, "/scheduled_messages", p).await
    }

    /// Operation 2: `PATCH /scheduled_messages/{id}`.
    pub async fn update_scheduled_message(&self, id: i64, upd: &ScheduledMessageUpdate) -> Result<Ack> {
        let info = self.server_info();
        if let Some(kind) = upd.kind {
            if upd.to.is_none() {
                return Err(LimitError::ScheduledTypeWithoutTo.into());
            }
            if kind.is_channel() {
                if upd.topic.is_none() {
                    return Err(LimitError::ScheduledChannelTypeWithoutTopic.into());
                }
                limits::check_scheduled_topic(
                    upd.topic.as_deref(),
                    info.empty_topic_display_name.as_deref(),
                )?;
            }
        }
        if let Some(c) = &upd.content {
            limits::check_content(c, info.max_message_length)?;
        }
        if let Some(t) = &upd.topic {
            limits::check_topic_length(t, info.max_topic_length)?;
        }
        if upd.kind.is_none()
            && upd.to.is_none()
            && upd.content.is_none()
            && upd.topic.is_none()
            && upd.scheduled_delivery_timestamp.is_none()
        {
            return Err(LimitError::NothingToChange.into());
        }
        let p = Params::new()
            .opt("type", upd.kind.map(|k| self.level().send_type(k).as_str()))
            .opt("to", upd.to.as_ref().map(Recipient::to_param))
            .opt("content", upd.content.as_ref())
            .opt("topic", upd.topic.as_ref())
            .opt("scheduled_delivery_timestamp", upd.scheduled_delivery_timestamp);
        self.call(Method::PATCH, &format!("/scheduled_messages/{id}"), p).await
    }

    /// `GET /scheduled_messages`.
    pub async fn get_scheduled_messages(&self) -> Result<ScheduledMessagesResponse> {
        self.call(Method::GET, "/scheduled_messages", Params::new()).await
    }

    /// `DELETE /scheduled_messages/{id}`.
    pub async fn delete_scheduled_message(&self, id: i64) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/scheduled_messages/{id}"), Params::new()).await
    }
}

/// A `scheduled_messages` event: the user's scheduled messages added, changed (edited, or
/// failed to send) or gone (sent or deleted).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawScheduledMessagesEvent")]
pub enum ScheduledMessagesEvent {
    Add(Vec<ScheduledMessage>),
    Update(ScheduledMessage),
    Remove {
        scheduled_message_id: i64,
    },
    /// An op this client does not know.
    Other(String),
}

#[derive(Deserialize)]
struct RawScheduledMessagesEvent {
    op: String,
    #[serde(default)]
    scheduled_messages: Option<Vec<ScheduledMessage>>,
    #[serde(default)]
    scheduled_message: Option<ScheduledMessage>,
    #[serde(default)]
    scheduled_message_id: Option<i64>,
}

impl TryFrom<RawScheduledMessagesEvent> for ScheduledMessagesEvent {
    type Error = &'static str;
    fn try_from(r: RawScheduledMessagesEvent) -> std::result::Result<Self, Self::Error> {
        Ok(match r.op.as_str() {
            "add" => Self::Add(r.scheduled_messages.ok_or("missing field `scheduled_messages`")?),
            "update" => Self::Update(r.scheduled_message.ok_or("missing field `scheduled_message`")?),
            "remove" => Self::Remove {
                scheduled_message_id: r.scheduled_message_id.ok_or("missing field `scheduled_message_id`")?,
            },
            _ => Self::Other(r.op),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Event, EventKind};
    use serde_json::{Value, json};

    fn scheduled(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    #[test]
    fn scheduled_messages_events_decode_per_op() {
        let message = json!({"scheduled_message_id": 7, "to": 4, "type": "stream", "topic": "t", "content": "c",
            "rendered_content": "<p>c</p>", "scheduled_delivery_timestamp": 100, "failed": false});
        let added =
            scheduled(json!({"type": "scheduled_messages", "op": "add", "scheduled_messages": [message]}));
        assert!(
            matches!(&added, EventKind::ScheduledMessages(ScheduledMessagesEvent::Add(l)) if l[0].scheduled_message_id == 7),
            "{added:?}"
        );
        let updated =
            scheduled(json!({"type": "scheduled_messages", "op": "update", "scheduled_message": message}));
        assert!(
            matches!(&updated, EventKind::ScheduledMessages(ScheduledMessagesEvent::Update(s)) if s.scheduled_message_id == 7),
            "{updated:?}"
        );
        assert_eq!(
            scheduled(json!({"type": "scheduled_messages", "op": "remove", "scheduled_message_id": 7})),
            EventKind::ScheduledMessages(ScheduledMessagesEvent::Remove { scheduled_message_id: 7 })
        );
        assert_eq!(
            scheduled(json!({"type": "scheduled_messages", "op": "pause"})),
            EventKind::ScheduledMessages(ScheduledMessagesEvent::Other("pause".into()))
        );
        let broken = scheduled(json!({"type": "scheduled_messages", "op": "remove"}));
        assert!(
            matches!(&broken, EventKind::Malformed { event_type, .. } if event_type == "scheduled_messages")
        );
    }
}
