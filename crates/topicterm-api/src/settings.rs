//! The user's own Zulip settings (`user_settings` in register and its update events): what they
//! set in the web app or on the phone, which every client of theirs follows.

use super::error::Result;
use super::models::Ack;
#[cfg(feature = "http")]
use super::transport::Client;
use super::transport::Params;
#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};

#[cfg(feature = "http")]
impl Client {
    /// `PATCH /settings` with one setting: `name` set to `value` (a boolean, an integer or a
    /// text, sent as the server reads it). The server answers with a `user_settings` event; the
    /// value is the user's only once that comes.
    pub async fn update_user_setting(&self, name: &str, value: &serde_json::Value) -> Result<Ack> {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        self.call(Method::PATCH, "/settings", Params::new().add(name, text)).await
    }
}

/// The user's personal settings this client reads (from `register`'s `user_settings`, kept by
/// `user_settings` events through [`UserSettings::apply`]). Each is `None` where the server did not
/// send it — an older server that lacks the setting: the client keeps its own behaviour there.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
pub struct UserSettings {
    /// Whether drafts are kept on the server (`None`: the server did not say; assume on).
    #[serde(default)]
    pub enable_drafts_synchronization: Option<bool>,
    /// Desktop and audible notifications for channel messages: what a channel whose own
    /// setting is `null` follows (`None`: the server did not say; Zulip's default is off).
    #[serde(default)]
    pub enable_stream_desktop_notifications: Option<bool>,
    #[serde(default)]
    pub enable_stream_audible_notifications: Option<bool>,
    /// Desktop notifications for direct messages and mentions.
    #[serde(default)]
    pub enable_desktop_notifications: Option<bool>,
    /// Audible notifications (a sound; the terminal's bell) for direct messages and mentions.
    #[serde(default)]
    pub enable_sounds: Option<bool>,
    #[serde(default)]
    pub enable_followed_topic_desktop_notifications: Option<bool>,
    #[serde(default)]
    pub enable_followed_topic_audible_notifications: Option<bool>,
    /// Whether `@all`-style (wildcard) mentions notify as a personal mention does.
    #[serde(default)]
    pub wildcard_mentions_notify: Option<bool>,
    #[serde(default)]
    pub enable_followed_topic_wildcard_mentions_notify: Option<bool>,
    /// Whether a direct message's text is shown in its desktop notification.
    #[serde(default)]
    pub pm_content_in_desktop_notifications: Option<bool>,
    /// 1: mark read on scroll always; 2: only in conversation views; 3: never.
    #[serde(default)]
    pub web_mark_read_on_scroll_policy: Option<i64>,
    /// `inbox`, `recent_topics` or `all_messages`.
    #[serde(default)]
    pub web_home_view: Option<String>,
    #[serde(default)]
    pub starred_message_counts: Option<bool>,
    #[serde(default)]
    pub display_emoji_reaction_users: Option<bool>,
    #[serde(default)]
    pub enter_sends: Option<bool>,
    #[serde(default)]
    pub receives_typing_notifications: Option<bool>,
    #[serde(default)]
    pub send_private_typing_notifications: Option<bool>,
    #[serde(default)]
    pub send_stream_typing_notifications: Option<bool>,
    #[serde(default)]
    pub send_read_receipts: Option<bool>,
    /// 1: automatic; 2: always demote; 3: never.
    #[serde(default)]
    pub demote_inactive_streams: Option<i64>,
    /// 1: all channels; 2: unmuted channels and topics; 3: no channels.
    #[serde(default)]
    pub web_stream_unreads_count_display_policy: Option<i64>,
    /// An IANA time zone name (`""`: the user set none).
    #[serde(default)]
    pub timezone: Option<String>,
    #[serde(default)]
    pub twenty_four_hour_time: Option<bool>,
}

/// Sets one field of a settings record by its wire name, as an update event names it: returns
/// whether `property` is a field of `T` and `value` is of its type; otherwise `target` is left
/// as it was. For records whose fields are the server's names (`UserSettings`,
/// `rules::RealmRules`).
pub fn apply_property<T: Serialize + serde::de::DeserializeOwned>(
    target: &mut T,
    property: &str,
    value: &serde_json::Value,
) -> bool {
    let Ok(serde_json::Value::Object(mut fields)) = serde_json::to_value(&*target) else {
        return false;
    };
    if !fields.contains_key(property) {
        return false;
    }
    fields.insert(property.to_owned(), value.clone());
    match serde_json::from_value(serde_json::Value::Object(fields)) {
        Ok(next) => {
            *target = next;
            true
        }
        Err(_) => false,
    }
}

impl UserSettings {
    /// Applies one `user_settings` update event (`property`, `value`). Returns whether the
    /// property is one this type keeps and the value was of its type; otherwise nothing changes.
    pub fn apply(&mut self, property: &str, value: &serde_json::Value) -> bool {
        apply_property(self, property, value)
    }
}

#[cfg(test)]
mod tests {
    use super::UserSettings;
    use serde_json::json;

    #[test]
    fn an_update_sets_the_one_setting_and_a_wrong_type_or_unknown_name_changes_nothing() {
        let mut s: UserSettings =
            serde_json::from_value(json!({"enter_sends": false, "web_home_view": "recent_topics"})).unwrap();
        assert!(s.apply("enter_sends", &json!(true)));
        assert_eq!(s.enter_sends, Some(true));
        assert_eq!(s.web_home_view.as_deref(), Some("recent_topics"));
        assert!(s.apply("web_mark_read_on_scroll_policy", &json!(3)));
        assert_eq!(s.web_mark_read_on_scroll_policy, Some(3));
        let before = s.clone();
        assert!(!s.apply("enter_sends", &json!("yes")));
        assert!(!s.apply("no_such_setting", &json!(true)));
        assert_eq!(s, before);
    }
}
