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
