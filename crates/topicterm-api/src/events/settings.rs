//! Settings events, typed per operation and property: the organization's (`realm`), the
//! user's own (`user_settings`), the user's saved views (`navigation_view`), and the server
//! restarting (`restart`).

use super::ops::{present, value_as};
use crate::models::NavigationView;
use serde::Deserialize;
use serde_json::Value;

/// A `realm` event.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawRealmEvent")]
pub enum RealmEvent {
    /// One setting changed (`update`).
    Update(RealmChange),
    /// Several settings at once (`update_dict`), one change per key of its `data`.
    UpdateDict(Vec<RealmChange>),
    /// The organization was deactivated.
    Deactivated,
    /// An op this client does not know.
    Other(String),
}

/// One organization setting and its new value.
#[derive(Debug, Clone, PartialEq)]
pub enum RealmChange {
    /// The moderation request channel: `None` or -1 when there is none.
    ModerationRequestChannel(Option<i64>),
    AllowEditHistory(bool),
    EnableReadReceipts(bool),
    Name(String),
    /// A setting this client does not use.
    Other {
        property: String,
        value: Value,
    },
}

impl RealmChange {
    fn read(property: String, value: Value) -> Result<Self, &'static str> {
        Ok(match property.as_str() {
            "moderation_request_channel_id" => Self::ModerationRequestChannel(value_as(value)?),
            "allow_edit_history" => Self::AllowEditHistory(value_as(value)?),
            "enable_read_receipts" => Self::EnableReadReceipts(value_as(value)?),
            "name" => Self::Name(value_as(value)?),
            _ => Self::Other { property, value },
        })
    }
}

#[derive(Deserialize)]
struct RawRealmEvent {
    op: String,
    #[serde(default)]
    property: Option<String>,
    #[serde(default)]
    value: Value,
    #[serde(default)]
    data: Option<serde_json::Map<String, Value>>,
}

impl TryFrom<RawRealmEvent> for RealmEvent {
    type Error = &'static str;
    fn try_from(r: RawRealmEvent) -> Result<Self, Self::Error> {
        Ok(match r.op.as_str() {
            "update" => {
                Self::Update(RealmChange::read(r.property.ok_or("missing field `property`")?, r.value)?)
            }
            "update_dict" => Self::UpdateDict(
                r.data
                    .ok_or("missing field `data`")?
                    .into_iter()
                    .map(|(property, value)| RealmChange::read(property, value))
                    .collect::<Result<_, _>>()?,
            ),
            "deactivated" => Self::Deactivated,
            _ => Self::Other(r.op),
        })
    }
}

/// A `user_settings` event: one of the user's own settings changed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawUserSettingsEvent")]
pub enum UserSettingsEvent {
    Update(UserSettingChange),
    /// An op this client does not know.
    Other(String),
}

/// One of the user's settings and its new value.
#[derive(Debug, Clone, PartialEq)]
pub enum UserSettingChange {
    /// `enable_stream_desktop_notifications`: channels' default.
    StreamDesktopNotifications(bool),
    /// `enable_stream_audible_notifications`: channels' default.
    StreamAudibleNotifications(bool),
    /// A setting this client does not use.
    Other { property: String, value: Value },
}

#[derive(Deserialize)]
struct RawUserSettingsEvent {
    op: String,
    #[serde(default)]
    property: Option<String>,
    #[serde(default)]
    value: Value,
}

impl TryFrom<RawUserSettingsEvent> for UserSettingsEvent {
    type Error = &'static str;
    fn try_from(r: RawUserSettingsEvent) -> Result<Self, Self::Error> {
        if r.op != "update" {
            return Ok(Self::Other(r.op));
        }
        let property = r.property.ok_or("missing field `property`")?;
        Ok(Self::Update(match property.as_str() {
            "enable_stream_desktop_notifications" => {
                UserSettingChange::StreamDesktopNotifications(value_as(r.value)?)
            }
            "enable_stream_audible_notifications" => {
                UserSettingChange::StreamAudibleNotifications(value_as(r.value)?)
            }
            _ => UserSettingChange::Other { property, value: r.value },
        }))
    }
}

/// A `navigation_view` event: one of the user's saved views added, changed or removed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawNavigationViewEvent")]
pub enum NavigationViewEvent {
    Add(NavigationView),
    /// What `data` changed: `name` is `Some(None)` when the name was taken away.
    Update {
        fragment: String,
        is_pinned: Option<bool>,
        name: Option<Option<String>>,
    },
    Remove {
        fragment: String,
    },
    /// An op this client does not know.
    Other(String),
}

#[derive(Deserialize)]
struct RawNavigationViewEvent {
    op: String,
    #[serde(default)]
    fragment: Option<String>,
    #[serde(default)]
    navigation_view: Option<NavigationView>,
    #[serde(default)]
    data: Option<NavigationViewChange>,
}

#[derive(Deserialize, Default)]
struct NavigationViewChange {
    #[serde(default)]
    is_pinned: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    name: Option<Option<String>>,
}

impl TryFrom<RawNavigationViewEvent> for NavigationViewEvent {
    type Error = &'static str;
    fn try_from(r: RawNavigationViewEvent) -> Result<Self, Self::Error> {
        let fragment = || r.fragment.clone().ok_or("missing field `fragment`");
        Ok(match r.op.as_str() {
            "add" => Self::Add(r.navigation_view.clone().ok_or("missing field `navigation_view`")?),
            "update" => {
                let data = r.data.unwrap_or_default();
                Self::Update { fragment: fragment()?, is_pinned: data.is_pinned, name: data.name }
            }
            "remove" => Self::Remove { fragment: fragment()? },
            _ => Self::Other(r.op),
        })
    }
}

/// A `restart` event: the server restarted (onto another version, perhaps).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RestartEvent {
    #[serde(default)]
    pub zulip_version: Option<String>,
    #[serde(default)]
    pub zulip_feature_level: Option<i64>,
    /// Whether clients should reload at once.
    #[serde(default)]
    pub immediate: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Event, EventKind};
    use serde_json::json;

    fn kind(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    fn malformed(v: Value, ty: &str) {
        let k = kind(v.clone());
        assert!(matches!(&k, EventKind::Malformed { event_type, .. } if event_type == ty), "{v} → {k:?}");
    }

    #[test]
    fn realm_events_decode_per_op_and_property() {
        let update = |property: &str, value: Value| match kind(
            json!({"type": "realm", "op": "update", "property": property, "value": value}),
        ) {
            EventKind::Realm(RealmEvent::Update(change)) => change,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            update("moderation_request_channel_id", json!(9)),
            RealmChange::ModerationRequestChannel(Some(9))
        );
        assert_eq!(
            update("moderation_request_channel_id", json!(null)),
            RealmChange::ModerationRequestChannel(None)
        );
        assert_eq!(update("allow_edit_history", json!(false)), RealmChange::AllowEditHistory(false));
        assert_eq!(update("enable_read_receipts", json!(true)), RealmChange::EnableReadReceipts(true));
        assert_eq!(update("name", json!("Acme")), RealmChange::Name("Acme".into()));
        assert_eq!(
            update("description", json!("d")),
            RealmChange::Other { property: "description".into(), value: json!("d") }
        );
        let dict = json!({"type": "realm", "op": "update_dict", "property": "default",
            "data": {"enable_read_receipts": false, "waiting_period_threshold": 3}});
        let EventKind::Realm(RealmEvent::UpdateDict(mut changes)) = kind(dict) else { panic!("not a dict") };
        changes.sort_by_key(|c| matches!(c, RealmChange::Other { .. }));
        assert_eq!(changes[0], RealmChange::EnableReadReceipts(false));
        assert!(
            matches!(&changes[1], RealmChange::Other { property, .. } if property == "waiting_period_threshold")
        );
        assert_eq!(
            kind(json!({"type": "realm", "op": "deactivated", "realm_id": 2})),
            EventKind::Realm(RealmEvent::Deactivated)
        );
        assert_eq!(
            kind(json!({"type": "realm", "op": "export"})),
            EventKind::Realm(RealmEvent::Other("export".into()))
        );
        malformed(
            json!({"type": "realm", "op": "update", "property": "allow_edit_history", "value": "no"}),
            "realm",
        );
        malformed(json!({"type": "realm", "op": "update", "value": true}), "realm");
    }

    #[test]
    fn user_settings_events_decode_per_property() {
        let update = |property: &str, value: Value| {
            kind(json!({"type": "user_settings", "op": "update", "property": property, "value": value}))
        };
        assert_eq!(
            update("enable_stream_desktop_notifications", json!(false)),
            EventKind::UserSettings(UserSettingsEvent::Update(
                UserSettingChange::StreamDesktopNotifications(false)
            ))
        );
        assert_eq!(
            update("enable_stream_audible_notifications", json!(true)),
            EventKind::UserSettings(UserSettingsEvent::Update(
                UserSettingChange::StreamAudibleNotifications(true)
            ))
        );
        assert_eq!(
            update("twenty_four_hour_time", json!(true)),
            EventKind::UserSettings(UserSettingsEvent::Update(UserSettingChange::Other {
                property: "twenty_four_hour_time".into(),
                value: json!(true)
            }))
        );
        assert_eq!(
            kind(json!({"type": "user_settings", "op": "reset"})),
            EventKind::UserSettings(UserSettingsEvent::Other("reset".into()))
        );
        malformed(
            json!({"type": "user_settings", "op": "update", "property": "enable_stream_audible_notifications", "value": 1}),
            "user_settings",
        );
    }

    #[test]
    fn navigation_view_events_decode_per_op() {
        let view = |v: Value| match kind(v) {
            EventKind::NavigationView(e) => e,
            other => panic!("{other:?}"),
        };
        let added = view(json!({"type": "navigation_view", "op": "add",
            "navigation_view": {"fragment": "narrow/is/starred", "is_pinned": true, "name": "Stars"}}));
        assert!(
            matches!(&added, NavigationViewEvent::Add(v) if v.fragment == "narrow/is/starred" && v.is_pinned)
        );
        let update = |data: Value| {
            view(json!({"type": "navigation_view", "op": "update", "fragment": "f", "data": data}))
        };
        let changed = |is_pinned, name| NavigationViewEvent::Update { fragment: "f".into(), is_pinned, name };
        assert_eq!(update(json!({"is_pinned": false})), changed(Some(false), None));
        assert_eq!(update(json!({"name": "R"})), changed(None, Some(Some("R".into()))));
        assert_eq!(update(json!({"name": null})), changed(None, Some(None)), "a name taken away");
        assert_eq!(
            view(json!({"type": "navigation_view", "op": "remove", "fragment": "f"})),
            NavigationViewEvent::Remove { fragment: "f".into() }
        );
        assert_eq!(
            view(json!({"type": "navigation_view", "op": "sort"})),
            NavigationViewEvent::Other("sort".into())
        );
        malformed(json!({"type": "navigation_view", "op": "remove"}), "navigation_view");
        malformed(
            json!({"type": "navigation_view", "op": "update", "fragment": "f", "data": {"is_pinned": "yes"}}),
            "navigation_view",
        );
    }

    #[test]
    fn restart_events_decode_with_or_without_their_fields() {
        let r = kind(json!({"type": "restart", "zulip_version": "11.0", "zulip_feature_level": 400,
            "server_generation": 1, "immediate": true}));
        let want = RestartEvent {
            zulip_version: Some("11.0".into()),
            zulip_feature_level: Some(400),
            immediate: true,
        };
        assert_eq!(r, EventKind::Restart(want));
        let bare = kind(json!({"type": "restart", "server_generation": 1}));
        let none = RestartEvent { zulip_version: None, zulip_feature_level: None, immediate: false };
        assert_eq!(bare, EventKind::Restart(none));
    }
}
