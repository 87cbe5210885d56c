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
