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
    /// Whether `@all`-style mentions notify here; `null`: the user's default.
    WildcardMentionsNotify(Option<bool>),
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
            "wildcard_mentions_notify" => Self::WildcardMentionsNotify(value_as(value)?),
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
    /// Channels the user can now see were created, or became visible (subscriptions come as
    /// their own events): each one's ID and name.
    Create(Vec<(ChannelId, String)>),
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
    /// Who may post in it (level 333); `None` when the value could not be read.
    CanSendMessageGroup(Option<GroupSettingValue>),
    /// Who may post in it, the role policy before level 333 (1 everyone, 2 administrators, 3
    /// full members, 4 moderators; still sent, deprecated, after).
    PostPolicy(i64),
    /// Whether its messages must have a topic (`inherit`, `allow_empty_topic`,
    /// `disable_empty_topic`, `empty_topic_only`; level 392).
    TopicsPolicy(String),
    /// Whether new subscribers get mobile notifications on (level 507).
    DefaultPushNotifications(bool),
    /// Made private or public (`invite_only`); the reference server sends the other two
    /// permission settings beside it, in the same event.
    Permission {
        invite_only: bool,
        history_public_to_subscribers: Option<bool>,
        is_web_public: Option<bool>,
    },
    /// A property this client does not use.
    Other {
        property: String,
        value: Value,
    },
}

impl StreamChange {
    fn read(r: &mut RawStreamEvent) -> Result<Self, &'static str> {
        let property = r.property.take().ok_or("missing field `property`")?;
        let value = r.value.take();
        Ok(match property.as_str() {
            "invite_only" => Self::Permission {
                invite_only: value_as(value)?,
                history_public_to_subscribers: r.history_public_to_subscribers,
                is_web_public: r.is_web_public,
            },
            "name" => Self::Name(value_as(value)?),
            "description" => Self::Description(value_as(value)?),
            "is_archived" => Self::Archived(value_as(value)?),
            "folder_id" => Self::Folder(value_as(value)?),
            "can_create_topic_group" => Self::CanCreateTopicGroup(serde_json::from_value(value).ok()),
            "default_push_notifications" => Self::DefaultPushNotifications(value_as(value)?),
            "can_send_message_group" => Self::CanSendMessageGroup(serde_json::from_value(value).ok()),
            "stream_post_policy" => Self::PostPolicy(value_as(value)?),
            "topics_policy" => Self::TopicsPolicy(value_as(value)?),
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
    #[serde(default)]
    history_public_to_subscribers: Option<bool>,
    #[serde(default)]
    is_web_public: Option<bool>,
}

impl TryFrom<RawStreamEvent> for StreamEvent {
    type Error = &'static str;
    fn try_from(mut r: RawStreamEvent) -> Result<Self, Self::Error> {
        Ok(match r.op.as_str() {
            "create" => Self::Create(
                r.streams
                    .iter()
                    .flatten()
                    .filter_map(|s| {
                        Some((s.get("stream_id")?.as_i64()?, s.get("name")?.as_str()?.to_owned()))
                    })
                    .collect(),
            ),
            "delete" => {
                let mut ids = r.stream_ids.unwrap_or_default();
                let listed = r.streams.iter().flatten();
                ids.extend(listed.filter_map(|s| s.get("stream_id").and_then(Value::as_i64)));
                Self::Delete(ids)
            }
            "update" => Self::Update {
                stream_id: r.stream_id.ok_or("missing field `stream_id`")?,
                change: StreamChange::read(&mut r)?,
            },
            _ => Self::Other(r.op),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Event, EventKind};
    use serde_json::json;

    fn kind(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    fn sub(v: Value) -> SubscriptionEvent {
        match kind(v) {
            EventKind::Subscription(s) => s,
            other => panic!("not a subscription event: {other:?}"),
        }
    }

    #[test]
    fn subscription_events_decode_per_op() {
        let added = sub(json!({"type": "subscription", "op": "add", "subscriptions": [
            {"stream_id": 4, "name": "design"}, {"name": "no ID"}]}));
        assert!(
            matches!(&added, SubscriptionEvent::Add(s) if s.len() == 1 && s[0].stream_id == 4),
            "{added:?}"
        );
        let removed =
            json!({"type": "subscription", "op": "remove", "subscriptions": [{"stream_id": 4, "name": "d"}]});
        assert_eq!(sub(removed), SubscriptionEvent::Remove(vec![4]));
        let peers = |op| json!({"type": "subscription", "op": op, "stream_ids": [4, 5], "user_ids": [11]});
        assert_eq!(
            sub(peers("peer_add")),
            SubscriptionEvent::PeerAdd { stream_ids: vec![4, 5], user_ids: vec![11] }
        );
        assert_eq!(
            sub(peers("peer_remove")),
            SubscriptionEvent::PeerRemove { stream_ids: vec![4, 5], user_ids: vec![11] }
        );
        assert_eq!(
            sub(json!({"type": "subscription", "op": "merge"})),
            SubscriptionEvent::Other("merge".into())
        );
    }

    #[test]
    fn subscription_updates_decode_per_property() {
        let update = |property: &str, value: Value| match sub(
            json!({"type": "subscription", "op": "update", "stream_id": 4, "property": property, "value": value}),
        ) {
            SubscriptionEvent::Update { stream_id: 4, change } => change,
            other => panic!("{other:?}"),
        };
        assert_eq!(update("is_muted", json!(true)), SubscriptionChange::Muted(true));
        assert_eq!(update("in_home_view", json!(false)), SubscriptionChange::InHomeView(false));
        assert_eq!(update("pin_to_top", json!(true)), SubscriptionChange::PinToTop(true));
        assert_eq!(update("color", json!("#abcdef")), SubscriptionChange::Color("#abcdef".into()));
        assert_eq!(
            update("desktop_notifications", json!(null)),
            SubscriptionChange::DesktopNotifications(None)
        );
        assert_eq!(
            update("audible_notifications", json!(true)),
            SubscriptionChange::AudibleNotifications(Some(true))
        );
        assert_eq!(update("folder_id", json!(101)), SubscriptionChange::Folder(Some(101)));
        assert_eq!(
            update("wildcard_mentions_notify", json!(null)),
            SubscriptionChange::WildcardMentionsNotify(None)
        );
        assert_eq!(
            update("email_notifications", json!(true)),
            SubscriptionChange::Other { property: "email_notifications".into(), value: json!(true) }
        );
    }

    #[test]
    fn a_subscription_event_with_broken_fields_is_malformed() {
        for broken in [
            json!({"type": "subscription", "op": "update", "stream_id": 4, "property": "is_muted", "value": "yes"}),
            json!({"type": "subscription", "op": "update", "property": "is_muted", "value": true}),
            json!({"type": "subscription", "op": "peer_add", "stream_ids": [4]}),
            json!({"type": "subscription", "op": "add"}),
        ] {
            let k = kind(broken.clone());
            assert!(
                matches!(&k, EventKind::Malformed { event_type, .. } if event_type == "subscription"),
                "{broken} → {k:?}"
            );
        }
    }

    #[test]
    fn stream_events_decode_per_op_and_property() {
        let stream = |v: Value| match kind(v) {
            EventKind::Stream(s) => s,
            other => panic!("not a stream event: {other:?}"),
        };
        assert_eq!(
            stream(json!({"type": "stream", "op": "create", "streams": []})),
            StreamEvent::Create(vec![])
        );
        let created = json!({"type": "stream", "op": "create", "streams": [{"stream_id": 8, "name": "new"}]});
        assert_eq!(stream(created), StreamEvent::Create(vec![(8, "new".into())]));
        // Both spellings of a deletion: `stream_ids` (newer) and each of `streams`.
        let both =
            json!({"type": "stream", "op": "delete", "stream_ids": [4], "streams": [{"stream_id": 5}]});
        assert_eq!(stream(both), StreamEvent::Delete(vec![4, 5]));
        let update = |property: &str, value: Value| match stream(
            json!({"type": "stream", "op": "update", "stream_id": 4, "name": "general",
                "property": property, "value": value}),
        ) {
            StreamEvent::Update { stream_id: 4, change } => change,
            other => panic!("{other:?}"),
        };
        assert_eq!(update("name", json!("ops")), StreamChange::Name("ops".into()));
        assert_eq!(update("description", json!("d")), StreamChange::Description("d".into()));
        assert_eq!(update("is_archived", json!(true)), StreamChange::Archived(true));
        assert_eq!(update("folder_id", json!(null)), StreamChange::Folder(None));
        assert_eq!(
            update("can_create_topic_group", json!(9)),
            StreamChange::CanCreateTopicGroup(Some(GroupSettingValue::Group(9)))
        );
        assert_eq!(
            update("invite_only", json!(true)),
            StreamChange::Permission {
                invite_only: true,
                history_public_to_subscribers: None,
                is_web_public: None
            }
        );
        let permission = stream(json!({"type": "stream", "op": "update", "stream_id": 4, "name": "general",
            "property": "invite_only", "value": false, "history_public_to_subscribers": true,
            "is_web_public": true}));
        assert_eq!(
            permission,
            StreamEvent::Update {
                stream_id: 4,
                change: StreamChange::Permission {
                    invite_only: false,
                    history_public_to_subscribers: Some(true),
                    is_web_public: Some(true)
                }
            }
        );
        assert_eq!(
            update("history_public_to_subscribers", json!(true)),
            StreamChange::Other { property: "history_public_to_subscribers".into(), value: json!(true) }
        );
        assert_eq!(stream(json!({"type": "stream", "op": "vanish"})), StreamEvent::Other("vanish".into()));
        let broken =
            kind(json!({"type": "stream", "op": "update", "stream_id": 4, "property": "name", "value": 7}));
        assert!(
            matches!(&broken, EventKind::Malformed { event_type, .. } if event_type == "stream"),
            "{broken:?}"
        );
    }
}
