//! The user's uploaded files (attachments): list them, delete one. The server says how much
//! space every upload of the organization takes, and sends `attachment` events as files are
//! uploaded, linked from messages and deleted.

use super::error::Result;
use super::levels;
use super::models::{Ack, MessageId};
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};

/// A file the user uploaded.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Attachment {
    pub id: i64,
    pub name: String,
    /// Where it lives: `/user_uploads/{path_id}`.
    pub path_id: String,
    /// Bytes.
    #[serde(default)]
    pub size: u64,
    /// When it was uploaded: seconds from feature level 443, milliseconds before (a float
    /// before Zulip 3.0). Seconds once read through [`Attachment::read_at`].
    #[serde(default)]
    pub create_time: f64,
    /// The messages that link to it (anyone's), as servers below level 472 list them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<AttachmentMessage>,
    /// The messages that link to it (anyone's), by ID: from level 472, and from `messages`
    /// once read through [`Attachment::read_at`].
    #[serde(default)]
    pub message_ids: Vec<MessageId>,
}

/// A message that links to an attachment.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct AttachmentMessage {
    pub id: MessageId,
}

impl Attachment {
    /// The attachment as a server of `level` sent it, in one shape: `create_time` in seconds
    /// (milliseconds below [`levels::ATTACHMENT_SECONDS`]) and the linking messages in
    /// `message_ids` (a `messages` list below [`levels::ATTACHMENT_MESSAGE_IDS`]).
    pub fn read_at(mut self, level: levels::Level) -> Attachment {
        if !level.has(levels::ATTACHMENT_SECONDS) {
            self.create_time /= 1000.0;
        }
        if self.message_ids.is_empty() {
            self.message_ids = self.messages.drain(..).map(|m| m.id).collect();
        }
        self
    }

    /// When it was uploaded (UNIX seconds), once read through [`Attachment::read_at`].
    pub fn uploaded_at(&self) -> i64 {
        self.create_time as i64
    }

    /// The link a message uses for it, relative to the site: every segment of its path
    /// percent-encoded.
    pub fn url(&self) -> String {
        format!("/user_uploads/{}", crate::urls::path(&self.path_id))
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AttachmentsResponse {
    pub attachments: Vec<Attachment>,
    /// Bytes every upload of the organization takes (what its quota counts).
    #[serde(default)]
    pub upload_space_used: Option<u64>,
}

/// An `attachment` event: the user's file uploaded, changed (linked from a message or no
/// longer) or deleted, and the space uploads take now.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawAttachmentEvent")]
pub struct AttachmentEvent {
    pub change: AttachmentChange,
    pub upload_space_used: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AttachmentChange {
    Add(Attachment),
    Update(Attachment),
    Remove(i64),
}

#[derive(Deserialize)]
struct RawAttachmentEvent {
    op: String,
    attachment: serde_json::Value,
    #[serde(default)]
    upload_space_used: Option<u64>,
}

impl TryFrom<RawAttachmentEvent> for AttachmentEvent {
    type Error = String;
    fn try_from(r: RawAttachmentEvent) -> std::result::Result<Self, Self::Error> {
        let whole = || serde_json::from_value::<Attachment>(r.attachment.clone()).map_err(|e| e.to_string());
        let change = match r.op.as_str() {
            "add" => AttachmentChange::Add(whole()?),
            "update" => AttachmentChange::Update(whole()?),
            "remove" => AttachmentChange::Remove(
                r.attachment.get("id").and_then(|i| i.as_i64()).ok_or("missing field `id`")?,
            ),
            other => return Err(format!("unknown attachment op `{other}`")),
        };
        Ok(AttachmentEvent { change, upload_space_used: r.upload_space_used })
    }
}

#[cfg(feature = "http")]
impl Client {
    /// `GET /attachments`: the user's uploads, and the space all uploads take.
    pub async fn get_attachments(&self) -> Result<AttachmentsResponse> {
        let mut r: AttachmentsResponse = self.call(Method::GET, "/attachments", Params::new()).await?;
        r.attachments = r.attachments.into_iter().map(|a| a.read_at(self.level())).collect();
        Ok(r)
    }

    /// `DELETE /attachments/{id}`: delete one of the user's uploads (links to it stop working).
    pub async fn remove_attachment(&self, id: i64) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/attachments/{id}"), Params::new()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn times_are_read_by_level_and_links_are_encoded() {
        let before: Attachment = serde_json::from_value(json!({
            "id": 1, "name": "a b.txt", "path_id": "2/ce/x y/a b.txt", "size": 3,
            "create_time": 1_588_145_417_000_i64, "messages": [{"id": 102, "date_sent": 1_588_145_424_000_i64}]
        }))
        .unwrap();
        let a = before.read_at(levels::Level(Some(levels::ATTACHMENT_SECONDS - 1)));
        assert_eq!(a.uploaded_at(), 1_588_145_417);
        assert_eq!(a.url(), "/user_uploads/2/ce/x%20y/a%20b.txt");
        assert_eq!(a.message_ids, vec![102]);
        let old: Attachment =
            serde_json::from_value(json!({"id": 1, "name": "n", "path_id": "p", "create_time": 1.5e12}))
                .unwrap();
        assert_eq!(old.read_at(levels::Level(Some(300))).uploaded_at(), 1_500_000_000);
        let now: Attachment = serde_json::from_value(
            json!({"id": 1, "name": "n", "path_id": "p", "create_time": 1_780_000_000, "message_ids": [7, 9]}),
        )
        .unwrap();
        let now = now.read_at(levels::Level(Some(levels::ATTACHMENT_MESSAGE_IDS)));
        assert_eq!((now.uploaded_at(), now.message_ids), (1_780_000_000, vec![7, 9]));
    }

    #[test]
    fn events_decode_by_op() {
        let gone: AttachmentEvent =
            serde_json::from_value(json!({"op": "remove", "attachment": {"id": 7}, "upload_space_used": 10}))
                .unwrap();
        assert_eq!(
            gone,
            AttachmentEvent { change: AttachmentChange::Remove(7), upload_space_used: Some(10) }
        );
        let add: AttachmentEvent = serde_json::from_value(json!({
            "op": "add", "upload_space_used": 12,
            "attachment": {"id": 8, "name": "n", "path_id": "p", "size": 2, "create_time": 0, "messages": []}
        }))
        .unwrap();
        assert!(matches!(add.change, AttachmentChange::Add(a) if a.id == 8));
        assert!(
            serde_json::from_value::<AttachmentEvent>(json!({"op": "update", "attachment": {}})).is_err()
        );
    }
}
