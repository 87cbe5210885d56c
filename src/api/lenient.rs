//! Messages decoded one at a time: one that cannot be read (a lone UTF-16 surrogate such as
//! `\ud800` in its JSON, a field of the wrong type) becomes a placeholder that says so, with its
//! ID and whatever of its place could be read (channel, topic, sender, time), and a log entry.
//! Its neighbours in the page or the event batch are kept.
//!
//! serde_json refuses a lone surrogate wherever it decodes a string, but skips over one as a
//! raw value: a page's messages and a batch's events are taken as raw values first.

use super::models::*;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

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
    #[test]
    fn a_lone_surrogate_costs_one_message_not_the_page() {
        let page = r#"{"found_newest":true,"messages":[
            {"id":1,"type":"stream","stream_id":7,"display_recipient":"general","subject":"t","sender_id":5,"timestamp":10,"content":"a\ud800b","flags":["read"]},
            {"id":2,"type":"stream","stream_id":7,"display_recipient":"general","subject":"t","sender_id":5,"timestamp":11,"content":"fine"},
            {"type":"stream","content":"\udc00 no id"}]}"#;
        let r: crate::api::MessagesResponse = serde_json::from_str(page).unwrap();
        assert_eq!(r.messages.len(), 2, "the one without an ID is left out");
        let bad = &r.messages[0];
        assert_eq!(bad.content, "<p><em>a message could not be read (ID 1)</em></p>");
        assert_eq!((bad.stream_id, bad.topic(), bad.sender_id, bad.timestamp), (Some(7), "t", 5, 10));
        assert_eq!(bad.flags, vec!["read".to_owned()]);
        assert_eq!(r.messages[1].content, "fine");
    }
}
