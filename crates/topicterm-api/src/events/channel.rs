//! Channel events, typed per operation: the user's subscriptions and others' (`subscription`),
//! and channels created, deleted or changed (`stream`).

use super::ops::value_as;
use crate::models::{ChannelId, GroupSettingValue, Subscription, UserId};
use serde::Deserialize;
use serde_json::Value;

/// A `subscription` event.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawSubscriptionEvent")]
pub enum SubscriptionEvent {
    /// The user subscribed: each subscription that could be read (one that could not is left
    /// out, its neighbours kept).
    Add(Vec<Subscription>),
    /// The user left these channels.
    Remove(Vec<ChannelId>),
    /// One of the user's subscriptions changed.
    Update { stream_id: ChannelId, change: SubscriptionChange },
    /// Others subscribed to these channels.
    PeerAdd { stream_ids: Vec<ChannelId>, user_ids: Vec<UserId> },
    /// Others left these channels.
    PeerRemove { stream_ids: Vec<ChannelId>, user_ids: Vec<UserId> },
    /// An op this client does not know.
    Other(String),
}

/// What changed in one of the user's subscriptions (`property` and `value`).
#[derive(Debug, Clone, PartialEq)]
pub enum SubscriptionChange {
    /// `is_muted`.
    Muted(bool),
    /// `in_home_view`, the legacy inverse of `is_muted` (servers send both).
    InHomeView(bool),
    PinToTop(bool),
    Color(String),
    /// `null`: the user's default.
    DesktopNotifications(Option<bool>),
    /// `null`: the user's default.
    AudibleNotifications(Option<bool>),
    /// Into a folder, or out of every folder (`null`).
    Folder(Option<i64>),
    /// A property this client does not use.
    Other {
        property: String,
        value: Value,
    },
}

impl SubscriptionChange {
    fn read(property: String, value: Value) -> Result<Self, &'static str> {
        Ok(match property.as_str() {
            "is_muted" => Self::Muted(value_as(value)?),
            "in_home_view" => Self::InHomeView(value_as(value)?),
            "pin_to_top" => Self::PinToTop(value_as(value)?),
            "color" => Self::Color(value_as(value)?),
            "desktop_notifications" => Self::DesktopNotifications(value_as(value)?),
            "audible_notifications" => Self::AudibleNotifications(value_as(value)?),
            "folder_id" => Self::Folder(value_as(value)?),
            _ => Self::Other { property, value },
        })
    }
}

#[derive(Deserialize)]
struct RawSubscriptionEvent {
    op: String,
    #[serde(default)]
    subscriptions: Option<Vec<Value>>,
    #[serde(default)]
    stream_id: Option<ChannelId>,
    #[serde(default)]
    property: Option<String>,
    /// `null` and absent alike: a `null` is a value for some properties.
    #[serde(default)]
    value: Value,
    #[serde(default)]
    stream_ids: Option<Vec<ChannelId>>,
    #[serde(default)]
    user_ids: Option<Vec<UserId>>,
}

impl TryFrom<RawSubscriptionEvent> for SubscriptionEvent {
    type Error = &'static str;
    fn try_from(r: RawSubscriptionEvent) -> Result<Self, Self::Error> {
        let subscriptions = || r.subscriptions.clone().ok_or("missing field `subscriptions`");
        let peers = || {
            let stream_ids = r.stream_ids.clone().ok_or("missing field `stream_ids`")?;
            Ok::<_, &'static str>((stream_ids, r.user_ids.clone().ok_or("missing field `user_ids`")?))
        };
        Ok(match r.op.as_str() {
            "add" => Self::Add(
                subscriptions()?.into_iter().filter_map(|s| serde_json::from_value(s).ok()).collect(),
            ),
            "remove" => Self::Remove(
                subscriptions()?.iter().filter_map(|s| s.get("stream_id").and_then(Value::as_i64)).collect(),
            ),
            "update" => Self::Update {
                stream_id: r.stream_id.ok_or("missing field `stream_id`")?,
                change: SubscriptionChange::read(r.property.ok_or("missing field `property`")?, r.value)?,
            },
            "peer_add" => {
                let (stream_ids, user_ids) = peers()?;
                Self::PeerAdd { stream_ids, user_ids }
            }
            "peer_remove" => {
                let (stream_ids, user_ids) = peers()?;
                Self::PeerRemove { stream_ids, user_ids }
            }
            _ => Self::Other(r.op),
        })
    }
}

/// A `stream` event.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawStreamEvent")]
pub enum StreamEvent {
    /// Channels the user can now see were created (subscriptions come as their own events).
    Create,
    /// Channels deleted (or, before channels could be archived, archived): `stream_ids` and
    /// each of `streams`' `stream_id`, whichever the server sent.
    Delete(Vec<ChannelId>),
    /// A channel changed.
    Update { stream_id: ChannelId, change: StreamChange },
    /// An op this client does not know.
    Other(String),
}

/// What changed in a channel (`property` and `value`).
#[derive(Debug, Clone, PartialEq)]
pub enum StreamChange {
    Name(String),
    Description(String),
    /// Archived (`true`) or unarchived.
    Archived(bool),
    /// Into a folder, or out of every folder (`null`).
    Folder(Option<i64>),
    /// Who may start a new topic; `None` when the value could not be read.
    CanCreateTopicGroup(Option<GroupSettingValue>),
    /// A property this client does not use.
    Other {
        property: String,
        value: Value,
    },
}

impl StreamChange {
    fn read(property: String, value: Value) -> Result<Self, &'static str> {
        Ok(match property.as_str() {
            "name" => Self::Name(value_as(value)?),
            "description" => Self::Description(value_as(value)?),
            "is_archived" => Self::Archived(value_as(value)?),
            "folder_id" => Self::Folder(value_as(value)?),
            "can_create_topic_group" => Self::CanCreateTopicGroup(serde_json::from_value(value).ok()),
            _ => Self::Other { property, value },
        })
    }
}

#[derive(Deserialize)]
struct RawStreamEvent {
    op: String,
    #[serde(default)]
    streams: Option<Vec<Value>>,
    #[serde(default)]
    stream_ids: Option<Vec<ChannelId>>,
    #[serde(default)]
    stream_id: Option<ChannelId>,
    #[serde(default)]
    property: Option<String>,
    #[serde(default)]
    value: Value,
}

impl TryFrom<RawStreamEvent> for StreamEvent {
    type Error = &'static str;
    fn try_from(r: RawStreamEvent) -> Result<Self, Self::Error> {
        Ok(match r.op.as_str() {
            "create" => Self::Create,
            "delete" => {
                let mut ids = r.stream_ids.unwrap_or_default();
                let listed = r.streams.iter().flatten();
                ids.extend(listed.filter_map(|s| s.get("stream_id").and_then(Value::as_i64)));
                Self::Delete(ids)
            }
            "update" => Self::Update {
                stream_id: r.stream_id.ok_or("missing field `stream_id`")?,
                change: StreamChange::read(r.property.ok_or("missing field `property`")?, r.value)?,
            },
            _ => Self::Other(r.op),
        })
    }
}
