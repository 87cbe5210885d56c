//! Channels as the server describes them: what every description says ([`ChannelCore`]), a
//! subscriber's ([`Subscription`]), `GET /streams`' ([`BasicChannel`]), folders, and the
//! group-setting values their permissions take.

use super::ids::{ChannelId, MessageId, UserId, default_true};
use serde::{Deserialize, Serialize};

/// A group-setting value: a group ID, or an anonymous group of users and subgroups.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum GroupSettingValue {
    Group(i64),
    Anonymous { direct_members: Vec<UserId>, direct_subgroups: Vec<i64> },
}

/// What every description of a channel says of it, whoever asks: its ID and name, its
/// description, who may read and post, its folder and traffic. [`Subscription`] (the channel
/// as a subscriber has it) and [`BasicChannel`] (`GET /streams`) carry it flattened, so both
/// decode the same fields the same way; both deref to it (`sub.name`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct ChannelCore {
    pub stream_id: ChannelId,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub rendered_description: String,
    #[serde(default)]
    pub date_created: i64,
    #[serde(default)]
    pub creator_id: Option<UserId>,
    #[serde(default)]
    pub invite_only: bool,
    #[serde(default)]
    pub is_web_public: bool,
    #[serde(default)]
    pub is_announcement_only: bool,
    /// 1 anyone, 2 administrators, 3 full members, 4 moderators (deprecated for
    /// `can_send_message_group`).
    #[serde(default)]
    pub stream_post_policy: Option<i64>,
    #[serde(default = "default_true")]
    pub history_public_to_subscribers: bool,
    #[serde(default)]
    pub first_message_id: Option<MessageId>,
    #[serde(default)]
    pub folder_id: Option<i64>,
    #[serde(default)]
    pub stream_weekly_traffic: Option<i64>,
    /// Non-deactivated subscribers, bots included (feature level 394).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscriber_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_send_message_group: Option<GroupSettingValue>,
}

/// A channel subscription, as returned by get-subscriptions: the channel ([`ChannelCore`])
/// and the subscriber's own settings for it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Subscription {
    #[serde(flatten)]
    pub channel: ChannelCore,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribers: Option<Vec<UserId>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_subscribers: Option<Vec<UserId>>,
    #[serde(default)]
    pub desktop_notifications: Option<bool>,
    #[serde(default)]
    pub email_notifications: Option<bool>,
    #[serde(default)]
    pub wildcard_mentions_notify: Option<bool>,
    #[serde(default)]
    pub push_notifications: Option<bool>,
    #[serde(default)]
    pub audible_notifications: Option<bool>,
    #[serde(default)]
    pub pin_to_top: bool,
    #[serde(default)]
    pub is_muted: bool,
    #[serde(default = "default_true")]
    pub in_home_view: bool,
    #[serde(default)]
    pub color: String,
    #[serde(default)]
    pub message_retention_days: Option<i64>,
    #[serde(default)]
    pub topics_policy: Option<String>,
    #[serde(default)]
    pub is_recently_active: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_add_subscribers_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_remove_subscribers_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_administer_channel_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_delete_any_message_group: Option<GroupSettingValue>,
    /// Who may start a new topic (feature level 441); `None`: anyone who may post.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_create_topic_group: Option<GroupSettingValue>,
    /// The channel's own permissions beside the organization's (moving from feature level 396, resolving 402, deleting 407): who
    /// else may move its messages to another topic or out of it, resolve its topics, delete
    /// their own messages in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_move_messages_within_channel_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_move_messages_out_of_channel_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_resolve_topics_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_delete_own_message_group: Option<GroupSettingValue>,
}

/// A channel as `GET /streams` and `GET /streams/{id}` describe it (no personal settings).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct BasicChannel {
    #[serde(flatten)]
    pub channel: ChannelCore,
    #[serde(default)]
    pub is_archived: bool,
    /// New subscribers get mobile notifications on (level 507; administrators set it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_push_notifications: Option<bool>,
    /// Only with `include_default`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
}

impl std::ops::Deref for Subscription {
    type Target = ChannelCore;
    fn deref(&self) -> &ChannelCore {
        &self.channel
    }
}

impl std::ops::DerefMut for Subscription {
    fn deref_mut(&mut self) -> &mut ChannelCore {
        &mut self.channel
    }
}

impl std::ops::Deref for BasicChannel {
    type Target = ChannelCore;
    fn deref(&self) -> &ChannelCore {
        &self.channel
    }
}

impl std::ops::DerefMut for BasicChannel {
    fn deref_mut(&mut self) -> &mut ChannelCore {
        &mut self.channel
    }
}

/// A channel folder (register's `channel_folders`, feature level 389).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ChannelFolder {
    pub id: i64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub rendered_description: String,
    #[serde(default)]
    pub order: i64,
    #[serde(default)]
    pub is_archived: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same channel as `GET /users/me/subscriptions` and `GET /streams` describe it: what
    /// both say decodes into the one `ChannelCore`, the rest stays each one's own.
    #[test]
    fn a_subscription_and_a_channel_share_one_core() {
        let core = r#""stream_id": 7, "name": "design", "description": "d", "rendered_description": "<p>d</p>",
            "date_created": 1700000000, "creator_id": 9, "invite_only": true, "is_web_public": false,
            "is_announcement_only": false, "stream_post_policy": 1, "history_public_to_subscribers": false,
            "first_message_id": 12, "folder_id": null, "stream_weekly_traffic": 3, "subscriber_count": 4,
            "can_send_message_group": 2"#;
        let sub: Subscription = serde_json::from_str(&format!(
            r#"{{{core}, "color": "c0ffee", "pin_to_top": true, "is_muted": false}}"#
        ))
        .unwrap();
        let channel: BasicChannel =
            serde_json::from_str(&format!(r#"{{{core}, "is_archived": false, "is_default": true}}"#))
                .unwrap();
        assert_eq!(sub.channel, channel.channel);
        assert_eq!((sub.name.as_str(), sub.stream_id, sub.invite_only), ("design", 7, true));
        assert_eq!((sub.color.as_str(), sub.pin_to_top, sub.in_home_view), ("c0ffee", true, true));
        assert_eq!(channel.is_default, Some(true));
        // What a server leaves out takes its default, in either.
        let bare: Subscription = serde_json::from_str(r#"{"stream_id": 1, "name": "x"}"#).unwrap();
        assert!(bare.history_public_to_subscribers && bare.in_home_view && bare.subscriber_count.is_none());
        // And it is written back as the server writes it: flat, not nested.
        let written = serde_json::to_value(&sub).unwrap();
        assert_eq!(written["name"], "design");
        assert!(written.get("channel").is_none());
    }
}
