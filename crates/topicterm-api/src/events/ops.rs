//! What the typed events share: the ops that several event types take, and reading a
//! property's value as the type that property has. A leaf: it names no other event file.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `add` or `remove` (a reaction, a message flag); any other op kept as it came.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "String")]
pub enum AddRemove {
    Add,
    Remove,
    Other(String),
}

impl From<String> for AddRemove {
    fn from(op: String) -> Self {
        match op.as_str() {
            "add" => Self::Add,
            "remove" => Self::Remove,
            _ => Self::Other(op),
        }
    }
}

/// `start` or `stop` (typing, editing); any other op kept as it came.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "String")]
pub enum StartStop {
    Start,
    Stop,
    Other(String),
}

impl From<String> for StartStop {
    fn from(op: String) -> Self {
        match op.as_str() {
            "start" => Self::Start,
            "stop" => Self::Stop,
            _ => Self::Other(op),
        }
    }
}

/// A known property's `value` read as its type; one of another type makes the event malformed.
pub(crate) fn value_as<T: DeserializeOwned>(value: Value) -> Result<T, &'static str> {
    serde_json::from_value(value).map_err(|_| "a `value` of another type than its property's")
}

/// A field that may be absent, null or a value, told apart: `Some(None)` is an explicit null.
pub(crate) fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Event, EventKind};
    use serde_json::json;

    #[test]
    fn reaction_and_flag_ops_decode_as_add_or_remove_and_keep_an_unknown_one() {
        let reaction = |op: &str| {
            let e = Event::decode(json!({"type": "reaction", "op": op, "message_id": 3, "user_id": 11,
                "emoji_name": "tada", "emoji_code": "1f389", "reaction_type": "unicode_emoji"}));
            let EventKind::Reaction(r) = e.kind else { panic!("not a reaction: {e:?}") };
            r.op
        };
        assert_eq!(reaction("add"), AddRemove::Add);
        assert_eq!(reaction("remove"), AddRemove::Remove);
        assert_eq!(reaction("swap"), AddRemove::Other("swap".into()));
        // `op`, or the deprecated `operation` of older servers.
        let flags = |v: Value| {
            let e = Event::decode(v);
            let EventKind::UpdateMessageFlags(f) = e.kind else { panic!("not flags: {e:?}") };
            f.op
        };
        let base = json!({"type": "update_message_flags", "flag": "read", "messages": [3], "all": false});
        let with = |k: &str, op: &str| {
            let mut v = base.clone();
            v[k] = json!(op);
            v
        };
        assert_eq!(flags(with("op", "add")), AddRemove::Add);
        assert_eq!(flags(with("operation", "remove")), AddRemove::Remove);
        assert_eq!(flags(with("op", "toggle")), AddRemove::Other("toggle".into()));
        // The flag decodes as a typed value; one not known is kept by its name.
        let flag = |name: &str| {
            let mut v = with("op", "add");
            v["flag"] = json!(name);
            let EventKind::UpdateMessageFlags(f) = Event::decode(v).kind else { panic!("not flags") };
            f.flag
        };
        assert_eq!(flag("starred"), crate::flags::Flag::Starred);
        assert_eq!(flag("has_alert_word"), crate::flags::Flag::HasAlertWord);
        assert_eq!(flag("glittery"), crate::flags::Flag::Other("glittery".into()));
        let missing = Event::decode(base).kind;
        assert!(
            matches!(&missing, EventKind::Malformed { event_type, .. } if event_type == "update_message_flags")
        );
    }

    #[test]
    fn typing_ops_decode_as_start_or_stop() {
        let typing = |op: &str| {
            let e = Event::decode(json!({"type": "typing", "op": op, "sender": {"user_id": 11}}));
            let EventKind::Typing(t) = e.kind else { panic!("not typing: {e:?}") };
            t.op
        };
        assert_eq!(typing("start"), StartStop::Start);
        assert_eq!(typing("stop"), StartStop::Stop);
        assert_eq!(typing("pause"), StartStop::Other("pause".into()));
        let edit = Event::decode(
            json!({"type": "typing_edit_message", "op": "stop", "message_id": 3, "sender_id": 11}),
        );
        assert!(matches!(edit.kind, EventKind::TypingEditMessage(t) if t.op == StartStop::Stop));
    }
}
