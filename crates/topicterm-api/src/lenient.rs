//! Messages decoded one at a time: one that cannot be read (a lone UTF-16 surrogate such as
//! `\ud800` in its JSON, a field of the wrong type) becomes a placeholder that says so, with its
//! ID and whatever of its place could be read (channel, topic, sender, time), and a log entry.
//! Its neighbours in the page or the event batch are kept.
//!
//! serde_json refuses a lone surrogate wherever it decodes a string, but skips over one as a
//! raw value: a page's messages and a batch's events are taken as raw values first.
//!
//! [`Later`] is a list taken as raw JSON and read only when wanted — off the path of the first
//! frame — item by item in the same way: register's 20,000 users are megabytes of JSON that
//! the first screen does not show.

use super::models::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// A list of an answer kept as its JSON text, read when wanted ([`Later::read`]), or a list
/// already read (made by the client itself, say for the last session kept on disk). Taking one
/// from an answer checks only that it is a list; reading it leaves out, with a log entry, an
/// item that cannot be read, never the rest.
#[derive(Clone)]
pub enum Later<T> {
    /// The list's JSON text (checked to be a list only when read).
    Json(Box<str>),
    Read(Vec<T>),
}

impl<T> From<Vec<T>> for Later<T> {
    fn from(items: Vec<T>) -> Self {
        Later::Read(items)
    }
}

impl<T: DeserializeOwned> Later<T> {
    /// The items: those that can be read, in order.
    pub fn read(self) -> Vec<T> {
        let json = match self {
            Later::Read(items) => return items,
            Later::Json(json) => json,
        };
        if let Ok(items) = serde_json::from_str::<Vec<T>>(&json) {
            return items;
        }
        // One item spoils the whole: read one by one.
        let raw = match serde_json::from_str::<Vec<&RawValue>>(&json) {
            Ok(raw) => raw,
            Err(e) => {
                tracing::warn!("a list could not be read: {}", super::error::json_fault(&e));
                return Vec::new();
            }
        };
        raw.iter()
            .enumerate()
            .filter_map(|(i, r)| {
                serde_json::from_str(r.get())
                    .map_err(|e| {
                        tracing::warn!(
                            "item {i} of a list could not be read: {}",
                            super::error::json_fault(&e)
                        )
                    })
                    .ok()
            })
            .collect()
    }
}

impl<T: Clone + DeserializeOwned> Later<T> {
    /// The items, read without taking the list (tests, and the rare reader that keeps it).
    pub fn to_vec(&self) -> Vec<T> {
        self.clone().read()
    }
}

impl<'de, T> Deserialize<'de> for Later<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = Box::<RawValue>::deserialize(d)?;
        if !json.get().starts_with('[') {
            return Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Other("not a list"),
                &"a list",
            ));
        }
        Ok(Later::Json(json.into()))
    }
}

impl<T: Serialize> Serialize for Later<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Later::Json(json) => RawValue::from_string(json.to_string())
                .map_err(|e| serde::ser::Error::custom(format!("a list kept as JSON is not JSON: {e}")))?
                .serialize(s),
            Later::Read(items) => items.serialize(s),
        }
    }
}

impl<T> std::fmt::Debug for Later<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Later::Json(json) => write!(f, "Later({} bytes of JSON)", json.len()),
            Later::Read(items) => write!(f, "Later({} read)", items.len()),
        }
    }
}

/// Equal when they hold the same JSON text, or the same items.
impl<T: PartialEq> PartialEq for Later<T> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Later::Json(a), Later::Json(b)) => a == b,
            (Later::Read(a), Later::Read(b)) => a == b,
            _ => false,
        }
    }
}

/// What a message that could not be read shows in place of its text.
pub fn placeholder_html(id: MessageId) -> String {
    format!("<p><em>a message could not be read (ID {id})</em></p>")
}

/// `deserialize_with` for a list of messages.
pub fn messages<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Message>, D::Error> {
    let raw: Vec<Box<RawValue>> = Vec::deserialize(d)?;
    Ok(raw.iter().filter_map(|r| message_from_str(r.get())).collect())
}

/// `deserialize_with` for one message.
pub fn message<'de, D: Deserializer<'de>>(d: D) -> Result<Message, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    match serde_json::from_str::<Message>(raw.get()) {
        Ok(m) => Ok(m),
        Err(e) => unreadable(raw.get(), &e).ok_or_else(|| serde::de::Error::custom(e)),
    }
}

/// A message from its JSON, or its placeholder; `None` when not even its ID can be read.
pub fn message_from_str(json: &str) -> Option<Message> {
    match serde_json::from_str::<Message>(json) {
        Ok(m) => Some(m),
        Err(e) => unreadable(json, &e),
    }
}

/// The placeholder of a message that did not decode, from what of it can be read.
fn unreadable(json: &str, error: &serde_json::Error) -> Option<Message> {
    #[derive(Deserialize)]
    struct Skeleton<'a> {
        id: MessageId,
        #[serde(rename = "type", borrow, default)]
        kind: Option<&'a RawValue>,
        #[serde(borrow, default)]
        display_recipient: Option<&'a RawValue>,
        #[serde(borrow, default)]
        sender_id: Option<&'a RawValue>,
        #[serde(borrow, default)]
        stream_id: Option<&'a RawValue>,
        #[serde(borrow, default, alias = "topic")]
        subject: Option<&'a RawValue>,
        #[serde(borrow, default)]
        timestamp: Option<&'a RawValue>,
        #[serde(borrow, default)]
        flags: Option<&'a RawValue>,
        #[serde(borrow, default)]
        recipient_id: Option<&'a RawValue>,
    }
    fn field<T: serde::de::DeserializeOwned>(raw: Option<&RawValue>) -> Option<T> {
        raw.and_then(|r| serde_json::from_str(r.get()).ok())
    }
    let Ok(s) = serde_json::from_str::<Skeleton>(json) else {
        tracing::warn!("a message without a readable ID was left out: {}", super::error::json_fault(error));
        return None;
    };
    tracing::warn!(id = s.id, "a message could not be read: {}", super::error::json_fault(error));
    let stream_id: Option<ChannelId> = field(s.stream_id);
    let kind =
        field(s.kind).unwrap_or(if stream_id.is_some() { MessageType::Stream } else { MessageType::Private });
    Some(Message {
        id: s.id,
        kind,
        avatar_url: None,
        client: String::new(),
        content: placeholder_html(s.id),
        content_type: None,
        display_recipient: field(s.display_recipient).unwrap_or(DisplayRecipient::Users(Vec::new())),
        edit_history: None,
        is_me_message: false,
        last_edit_timestamp: None,
        last_moved_timestamp: None,
        reactions: Vec::new(),
        recipient_id: field(s.recipient_id).unwrap_or_default(),
        sender_email: String::new(),
        sender_full_name: String::new(),
        sender_id: field(s.sender_id).unwrap_or_default(),
        sender_realm_str: String::new(),
        stream_id,
        subject: field(s.subject).unwrap_or_default(),
        submessages: Vec::new(),
        timestamp: field(s.timestamp).unwrap_or_default(),
        topic_links: Vec::new(),
        flags: field(s.flags).unwrap_or_default(),
        rendered_content: None,
        match_content: None,
        match_subject: None,
    })
}

#[cfg(test)]
mod tests {
    use super::Later;

    #[test]
    fn a_list_read_later_keeps_every_item_it_can_read() {
        let later: Later<crate::User> = serde_json::from_str(
            r#"[{"user_id": 1, "full_name": "Ann", "email": "a@x"}, {"user_id": "two"}, {"user_id": 3, "full_name": "Cy", "email": "c@x"}]"#,
        )
        .unwrap();
        let users = later.clone().read();
        assert_eq!(
            users.iter().map(|u| u.user_id).collect::<Vec<_>>(),
            [1, 3],
            "the unreadable one left out"
        );
        // Written back as it came.
        let again: Later<crate::User> =
            serde_json::from_str(&serde_json::to_string(&later).unwrap()).unwrap();
        assert_eq!(again, later);
        // From a JSON value too (as tests build answers).
        let v: Later<crate::User> =
            serde_json::from_value(serde_json::json!([{"user_id": 4, "full_name": "D", "email": "d@x"}]))
                .unwrap();
        assert_eq!(v.read()[0].full_name, "D");
        assert!(serde_json::from_str::<Later<crate::User>>(r#""everyone""#).is_err(), "not a list: refused");
    }

    #[test]
    fn a_lone_surrogate_costs_one_message_not_the_page() {
        let page = r#"{"found_newest":true,"messages":[
            {"id":1,"type":"stream","stream_id":7,"display_recipient":"general","subject":"t","sender_id":5,"timestamp":10,"content":"a\ud800b","flags":["read"]},
            {"id":2,"type":"stream","stream_id":7,"display_recipient":"general","subject":"t","sender_id":5,"timestamp":11,"content":"fine"},
            {"type":"stream","content":"\udc00 no id"}]}"#;
        let r: crate::MessagesResponse = serde_json::from_str(page).unwrap();
        assert_eq!(r.messages.len(), 2, "the one without an ID is left out");
        let bad = &r.messages[0];
        assert_eq!(bad.content, "<p><em>a message could not be read (ID 1)</em></p>");
        assert_eq!((bad.stream_id, bad.topic(), bad.sender_id, bad.timestamp), (Some(7), "t", 5, 10));
        assert_eq!(bad.flags, vec![crate::flags::Flag::Read]);
        assert_eq!(r.messages[1].content, "fine");
    }
}
