//! Access rules: who may see a channel, post in it, and read a message.

use super::Org;
use super::records::{ChannelRec, GroupSetting, MessageRec, Recip, Role, UserRec};
use crate::error::{ApiErr, ApiResult};
use std::collections::BTreeSet;

/// The realm's permission settings (register's `realm_*_group` fields) and the system group
/// each is given to by default (the reference server's defaults; `PATCH /realm` changes the
/// rules' groups, `rules.rs`).
const REALM_GROUP_SETTINGS: &[(&str, &str)] = &[
    ("realm_can_access_all_users_group", "role:everyone"),
    ("realm_can_add_custom_emoji_group", "role:members"),
    ("realm_can_add_subscribers_group", "role:members"),
    ("realm_can_create_bots_group", "role:members"),
    ("realm_can_delete_any_message_group", "role:administrators"),
    ("realm_can_delete_own_message_group", "role:everyone"),
    ("realm_can_create_groups", "role:members"),
    ("realm_can_create_private_channel_group", "role:members"),
    ("realm_can_create_public_channel_group", "role:members"),
    ("realm_can_create_web_public_channel_group", "role:owners"),
    ("realm_can_create_write_only_bots_group", "role:members"),
    ("realm_can_invite_users_group", "role:members"),
    ("realm_can_manage_all_groups", "role:owners"),
    ("realm_can_manage_billing_group", "role:administrators"),
    ("realm_can_mention_many_users_group", "role:administrators"),
    ("realm_can_move_messages_between_channels_group", "role:members"),
    ("realm_can_move_messages_between_topics_group", "role:everyone"),
    ("realm_can_resolve_topics_group", "role:everyone"),
    ("realm_can_set_delete_message_policy_group", "role:moderators"),
    ("realm_can_set_topics_policy_group", "role:moderators"),
    ("realm_can_summarize_topics_group", "role:everyone"),
    ("realm_create_multiuse_invite_group", "role:administrators"),
    ("realm_direct_message_initiator_group", "role:everyone"),
    ("realm_direct_message_permission_group", "role:everyone"),
];

impl Org {
    /// Each realm permission setting this server's level has and the group it is given to
    /// (an administrator's change, `MessageRules::groups`, or the default).
    pub fn realm_groups(&self) -> Vec<(&'static str, GroupSetting)> {
        REALM_GROUP_SETTINGS
            .iter()
            .filter(|(k, _)| self.has_realm_group(k.trim_start_matches("realm_")))
            .map(|(k, _)| (*k, self.realm_group(k)))
            .collect()
    }

    /// The group a realm permission setting (`realm_can_invite_users_group`) is given to.
    pub fn realm_group(&self, setting: &str) -> GroupSetting {
        if let Some(g) = self.realm.rules.groups.get(setting) {
            return g.clone();
        }
        let default = REALM_GROUP_SETTINGS.iter().find(|(k, _)| *k == setting).map(|(_, g)| *g);
        GroupSetting::Named(default.map_or(0, |g| self.system_group(g)))
    }

    /// Whether a user is in a group, directly or through subgroups.
    pub fn in_group(&self, group_id: i64, user_id: i64) -> bool {
        let mut stack = vec![group_id];
        let mut seen = BTreeSet::new();
        while let Some(g) = stack.pop() {
            if !seen.insert(g) {
                continue;
            }
            if let Some(rec) = self.groups.get(&g) {
                if rec.members.contains(&user_id) {
                    return true;
                }
                stack.extend(rec.subgroups.iter().copied());
            }
        }
        false
    }

    pub fn is_subscribed(&self, user_id: i64, channel_id: i64) -> bool {
        self.channels.get(&channel_id).is_some_and(|c| c.subs.contains_key(&user_id))
    }

    /// Can the user see that the channel exists and read its metadata?
    pub fn can_access_channel(&self, user_id: i64, channel_id: i64) -> bool {
        let Some(c) = self.channels.get(&channel_id) else { return false };
        let Some(u) = self.users.get(&user_id) else { return false };
        c.subs.contains_key(&user_id) || (!c.invite_only && u.role != Role::Guest)
    }

    /// The channel, if the user can access it; otherwise the contract's BAD_REQUEST.
    pub fn accessible_channel(&self, user_id: i64, channel_id: i64) -> ApiResult<&ChannelRec> {
        if self.can_access_channel(user_id, channel_id) {
            self.channels.get(&channel_id).ok_or_else(|| ApiErr::bad("Invalid channel ID"))
        } else {
            Err(ApiErr::bad("Invalid channel ID"))
        }
    }

    /// Why the user may not post in the channel, if they may not.
    pub fn post_denied(&self, user_id: i64, channel_id: i64) -> Option<String> {
        let c = self.channels.get(&channel_id)?;
        let u = self.users.get(&user_id)?;
        if c.is_archived {
            return Some(format!("Channel '{}' is archived.", c.name));
        }
        if u.is_system_bot {
            return None;
        }
        if !self.can_access_channel(user_id, channel_id) || (c.invite_only && !c.subs.contains_key(&user_id))
        {
            return Some("Not authorized to send to channel".into());
        }
        if c.admins_only_post && !u.is_admin() {
            // Bots post with their owner's rights.
            let owner_admin = u.bot_owner.and_then(|o| self.users.get(&o)).is_some_and(UserRec::is_admin);
            if !owner_admin {
                return Some(format!("You do not have permission to post in channel '{}'.", c.name));
            }
        }
        None
    }

    /// Whether a user has a group setting: is in its named group, or among its direct members
    /// or in one of its subgroups.
    pub fn has_group_setting(&self, setting: &GroupSetting, user_id: i64) -> bool {
        match setting {
            GroupSetting::Named(g) => self.in_group(*g, user_id),
            GroupSetting::Anonymous { members, subgroups } => {
                members.contains(&user_id) || subgroups.iter().any(|g| self.in_group(*g, user_id))
            }
        }
    }

    /// Why the user may not start `topic` in the channel, if it has no message yet and they are
    /// not in its `can_create_topic_group` (level 441): the reference server's
    /// `check_for_can_create_topic_group_violation`. The system bots are never refused; a bot
    /// is let through by its owner's permission.
    pub fn topic_create_denied(&self, user_id: i64, channel_id: i64, topic: &str) -> Option<&'static str> {
        if self.settings.feature_level < crate::levels::CAN_CREATE_TOPIC_GROUP {
            return None;
        }
        let c = self.channels.get(&channel_id)?;
        let u = self.users.get(&user_id)?;
        let everyone = GroupSetting::Named(self.system_group("role:everyone"));
        if u.is_system_bot || c.can_create_topic_group == everyone {
            return None;
        }
        let topic = topic.to_lowercase();
        let exists = self
            .messages
            .values()
            .any(|m| m.channel_id() == Some(channel_id) && m.topic().to_lowercase() == topic);
        let may = |id: i64| self.has_group_setting(&c.can_create_topic_group, id);
        if exists || may(user_id) || (u.is_bot() && u.bot_owner.is_some_and(may)) {
            None
        } else {
            Some("You do not have permission to create new topics in this channel.")
        }
    }

    /// May the user read the upload at `path` (under `/user_uploads/`)? Its uploader may, and
    /// whoever can read a message it is tied to (the reference server's
    /// `validate_attachment_request`); a built-in demo file, whoever can read a message that
    /// links it. Anyone else is answered as if there were no such file.
    pub fn can_read_upload(&self, user_id: i64, path: &str) -> bool {
        let readable = |id: &i64| self.messages.get(id).is_some_and(|m| self.can_read(user_id, m));
        if let Some(up) = self.uploads.get(path) {
            return up.owner == user_id || up.messages.iter().any(readable);
        }
        super::DEMO_UPLOADS.iter().any(|(p, _)| *p == path)
            && self.messages.values().any(|m| {
                super::linked_uploads(&m.content).iter().any(|p| p == path) && self.can_read(user_id, m)
            })
    }

    /// Can the user read this message?
    pub fn can_read(&self, user_id: i64, msg: &MessageRec) -> bool {
        if self.user_msgs.get(&user_id).is_some_and(|m| m.contains_key(&msg.id)) {
            return true;
        }
        match &msg.recip {
            Recip::Dm { users } => users.contains(&user_id),
            Recip::Channel { id, .. } => {
                let Some(c) = self.channels.get(id) else { return false };
                if let Some(sub) = c.subs.get(&user_id) {
                    return c.history_public || msg.id >= sub.first_visible;
                }
                !c.invite_only && self.users.get(&user_id).is_some_and(|u| u.role != Role::Guest)
            }
        }
    }
}
