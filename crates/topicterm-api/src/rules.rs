//! The organization's rules for what its members may do with messages: edit, delete and move
//! them (and within what time), resolve topics, give topics, send direct messages — register's
//! `realm_*` fields, kept by `realm` `update` and `update_dict` events ([`RealmRules::apply`]),
//! so that a client says before it asks what the server would refuse.

use super::events::RegisterResponse;
use super::models::GroupSettingValue;
use serde::{Deserialize, Serialize};

/// The rules a client checks before asking, named as the `realm` events name them (register's
/// fields add `realm_`). Each is `None` where the server did not send it (a level that lacks
/// it: the server decides, and says why it refuses); a time limit is `None` too when it is
/// `null`, "no limit".
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
pub struct RealmRules {
    #[serde(default)]
    pub allow_message_editing: Option<bool>,
    #[serde(default)]
    pub message_content_edit_limit_seconds: Option<i64>,
    #[serde(default)]
    pub message_content_delete_limit_seconds: Option<i64>,
    #[serde(default)]
    pub move_messages_within_stream_limit_seconds: Option<i64>,
    #[serde(default)]
    pub move_messages_between_streams_limit_seconds: Option<i64>,
    /// Before level 392: whether a channel message must have a topic.
    #[serde(default)]
    pub mandatory_topics: Option<bool>,
    /// From level 392: `allow_empty_topic` or `disable_empty_topic`.
    #[serde(default)]
    pub topics_policy: Option<String>,
    #[serde(default)]
    pub can_move_messages_between_channels_group: Option<GroupSettingValue>,
    #[serde(default)]
    pub can_move_messages_between_topics_group: Option<GroupSettingValue>,
    #[serde(default)]
    pub can_resolve_topics_group: Option<GroupSettingValue>,
    #[serde(default)]
    pub can_delete_own_message_group: Option<GroupSettingValue>,
    #[serde(default)]
    pub can_delete_any_message_group: Option<GroupSettingValue>,
    #[serde(default)]
    pub direct_message_permission_group: Option<GroupSettingValue>,
    #[serde(default)]
    pub direct_message_initiator_group: Option<GroupSettingValue>,
    /// The role policies the groups replaced (levels before them): who may move messages to
    /// another topic, to another channel, delete their own.
    #[serde(default)]
    pub edit_topic_policy: Option<i64>,
    #[serde(default)]
    pub move_messages_between_streams_policy: Option<i64>,
    #[serde(default)]
    pub delete_own_message_policy: Option<i64>,
}

impl RealmRules {
    /// The rules register's answer gives.
    pub fn of(r: &RegisterResponse) -> RealmRules {
        RealmRules {
            allow_message_editing: r.realm_allow_message_editing,
            message_content_edit_limit_seconds: r.realm_message_content_edit_limit_seconds,
            message_content_delete_limit_seconds: r.realm_message_content_delete_limit_seconds,
            move_messages_within_stream_limit_seconds: r.realm_move_messages_within_stream_limit_seconds,
            move_messages_between_streams_limit_seconds: r.realm_move_messages_between_streams_limit_seconds,
            mandatory_topics: r.realm_mandatory_topics,
            topics_policy: r.realm_topics_policy.clone(),
            can_move_messages_between_channels_group: r
                .realm_can_move_messages_between_channels_group
                .clone(),
            can_move_messages_between_topics_group: r.realm_can_move_messages_between_topics_group.clone(),
            can_resolve_topics_group: r.realm_can_resolve_topics_group.clone(),
            can_delete_own_message_group: r.realm_can_delete_own_message_group.clone(),
            can_delete_any_message_group: r.realm_can_delete_any_message_group.clone(),
            direct_message_permission_group: r.realm_direct_message_permission_group.clone(),
            direct_message_initiator_group: r.realm_direct_message_initiator_group.clone(),
            edit_topic_policy: r.realm_edit_topic_policy,
            move_messages_between_streams_policy: r.realm_move_messages_between_streams_policy,
            delete_own_message_policy: r.realm_delete_own_message_policy,
        }
    }

    /// Applies one changed setting of a `realm` event (`update`, or one key of `update_dict`'s
    /// `data`). Returns whether it is one of these rules and its value was of its type;
    /// otherwise nothing changes. A limit set to `null` is no limit.
    pub fn apply(&mut self, property: &str, value: &serde_json::Value) -> bool {
        super::settings::apply_property(self, property, value)
    }

    /// A time limit in seconds, `None` when there is none (`null`, or 0 on old servers).
    pub fn limit(value: Option<i64>) -> Option<i64> {
        value.filter(|s| *s > 0)
    }
}

/// Whether a role (100 owner, 200 administrator, 300 moderator, 400 member, 600 guest) is
/// among those a role policy of the levels before permission groups lets: 1 members, 2
/// administrators, 3 full members (taken as members: the waiting period is the server's to
/// judge), 4 moderators, 5 everyone, 6 nobody. `None` for a policy this client does not know.
pub fn role_policy_allows(policy: i64, role: i64) -> Option<bool> {
    Some(match policy {
        1 | 3 => role <= 400,
        2 => role <= 200,
        4 => role <= 300,
        5 => true,
        6 => false,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_update_sets_one_rule_a_null_limit_is_none_and_a_wrong_type_changes_nothing() {
        let mut r = RealmRules { message_content_edit_limit_seconds: Some(600), ..Default::default() };
        assert!(r.apply("message_content_edit_limit_seconds", &json!(60)));
        assert_eq!(r.message_content_edit_limit_seconds, Some(60));
        assert!(r.apply("message_content_edit_limit_seconds", &json!(null)));
        assert_eq!(RealmRules::limit(r.message_content_edit_limit_seconds), None);
        assert!(r.apply("can_resolve_topics_group", &json!(11)));
        assert_eq!(r.can_resolve_topics_group, Some(GroupSettingValue::Group(11)));
        let anon = json!({"direct_members": [7], "direct_subgroups": []});
        assert!(r.apply("direct_message_permission_group", &anon));
        let before = r.clone();
        assert!(!r.apply("allow_message_editing", &json!("yes")));
        assert!(!r.apply("name", &json!("Acme")));
        assert_eq!(r, before);
        assert_eq!(RealmRules::limit(Some(0)), None, "0 was no limit before level 138");
    }

    #[test]
    fn role_policies_read_as_the_reference_server_reads_them() {
        assert_eq!(role_policy_allows(2, 400), Some(false));
        assert_eq!(role_policy_allows(2, 200), Some(true));
        assert_eq!(role_policy_allows(1, 600), Some(false));
        assert_eq!(role_policy_allows(5, 600), Some(true));
        assert_eq!(role_policy_allows(6, 100), Some(false));
        assert_eq!(role_policy_allows(9, 100), None);
    }
}
