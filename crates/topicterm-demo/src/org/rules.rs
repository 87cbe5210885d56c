//! The organization's rules for messages, as the reference server keeps and applies them:
//! whether and for how long messages may be edited and moved, whether topics are required, and
//! the realm permission groups an administrator changed (the rest keep the defaults of
//! `access.rs`). Sent in register at the levels that have them — the groups from their levels
//! on (281–367), the role policies they replaced before —, changed by `PATCH /realm` with the
//! `realm` events a server of that level sends, and checked on edits, moves, deletions and
//! direct messages in the reference server's words (`zerver/actions/message_edit.py`,
//! `zerver/lib/message.py`, `zerver/actions/message_send.py`).

use super::Org;
use super::records::{GroupSetting, MessageRec, Recip};
use crate::error::{ApiErr, ApiResult};
use crate::params::Params;
use serde_json::{Value, json};

/// The reference server lets an edit or a move through 20 s past its limit.
pub const LIMIT_GRACE: i64 = 20;

/// The realm group settings that replaced a role policy, each with the level it came at and
/// the policy's name before (`None`: nothing before it).
const GROUP_LEVELS: &[(&str, i64, Option<&str>)] = &[
    ("can_move_messages_between_channels_group", 310, Some("move_messages_between_streams_policy")),
    ("can_move_messages_between_topics_group", 316, Some("edit_topic_policy")),
    ("can_resolve_topics_group", 367, None),
    ("can_delete_own_message_group", 291, Some("delete_own_message_policy")),
    ("can_delete_any_message_group", 281, None),
    ("direct_message_permission_group", 270, Some("private_message_policy")),
    ("direct_message_initiator_group", 270, None),
];

/// `topics_policy` in register and `PATCH /realm` (Zulip 11.0); `mandatory_topics` before.
pub const TOPICS_POLICY: i64 = 392;

impl Org {
    /// Whether a realm group setting (`can_resolve_topics_group`, without `realm_`) exists at
    /// this server's level; settings not listed in `GROUP_LEVELS` always do.
    pub fn has_realm_group(&self, setting: &str) -> bool {
        let level = self.settings.feature_level;
        GROUP_LEVELS.iter().find(|(k, _, _)| *k == setting).is_none_or(|(_, at, _)| level >= *at)
    }

    /// Whether a user is among those a realm group setting (`can_resolve_topics_group`) lets.
    pub fn realm_lets(&self, setting: &str, user_id: i64) -> bool {
        self.has_group_setting(&self.realm_group(&format!("realm_{setting}")), user_id)
    }

    /// A channel's own permission group (`CHANNEL_GROUPS`): `role:nobody` where never set.
    pub fn channel_group(&self, c: &super::records::ChannelRec, name: &str) -> GroupSetting {
        c.groups.get(name).cloned().unwrap_or_else(|| GroupSetting::Named(self.system_group("role:nobody")))
    }

    /// Whether a channel's own groups let a user what the organization's `realm_setting` does
    /// not (the reference's `can_move_messages_within_channel_group` and its kin, from their
    /// levels): the channel's administrators (`can_administer_channel_group`: its creator and
    /// the organization's administrators here) and those in the channel's `setting`.
    pub fn channel_lets(&self, cid: i64, setting: &str, user_id: i64) -> bool {
        let level = self.settings.feature_level;
        let Some(at) = crate::levels::CHANNEL_GROUPS.iter().find(|(k, _)| *k == setting).map(|(_, at)| *at)
        else {
            return false;
        };
        let Some(c) = self.channels.get(&cid).filter(|_| level >= at) else { return false };
        let admin = c.creator_id == Some(user_id) || self.users.get(&user_id).is_some_and(|u| u.is_admin());
        admin || self.has_group_setting(&self.channel_group(c, setting), user_id)
    }

    /// The rules' fields of register's answer at this server's level.
    pub fn rule_fields(&self) -> Vec<(&'static str, Value)> {
        let r = &self.realm.rules;
        let level = self.settings.feature_level;
        let mut fields = vec![
            ("realm_allow_message_editing", json!(r.allow_message_editing)),
            ("realm_message_content_edit_limit_seconds", json!(r.edit_limit_secs)),
            ("realm_move_messages_within_stream_limit_seconds", json!(r.move_within_limit_secs)),
            ("realm_move_messages_between_streams_limit_seconds", json!(r.move_between_limit_secs)),
            ("realm_mandatory_topics", json!(r.mandatory_topics)),
        ];
        if level >= TOPICS_POLICY {
            fields.push(("realm_topics_policy", json!(topics_policy(r.mandatory_topics))));
        }
        for (setting, at, before) in GROUP_LEVELS {
            if level < *at
                && let Some(policy) = before
            {
                let value = self.role_policy(&self.realm_group(&format!("realm_{setting}")), policy);
                fields.push((register_name(policy), json!(value)));
            }
        }
        fields
    }

    /// A group setting as the role policy of the levels before it: 1 members, 2
    /// administrators, 3 full members, 4 moderators, 5 everyone, 6 nobody (1 or 2 for
    /// `private_message_policy`: direct messages allowed or not).
    fn role_policy(&self, g: &GroupSetting, policy: &str) -> i64 {
        let name = match g {
            GroupSetting::Named(id) => self.groups.get(id).map_or("", |g| g.name.as_str()),
            GroupSetting::Anonymous { .. } => "",
        };
        if policy == "private_message_policy" {
            return if name == "role:nobody" { 2 } else { 1 };
        }
        match name {
            "role:everyone" => 5,
            "role:administrators" | "role:owners" => 2,
            "role:fullmembers" => 3,
            "role:moderators" => 4,
            "role:nobody" => 6,
            _ => 1,
        }
    }

    /// Why the user may not edit `msg`'s content now (`validate_user_can_edit_message`).
    pub fn edit_denied(&self, user_id: i64, msg: &MessageRec) -> Option<&'static str> {
        if !self.realm.rules.allow_message_editing {
            return Some("Your organization has turned off message editing");
        }
        if msg.sender_id != user_id {
            return Some("You don't have permission to edit this message");
        }
        let limit = self.realm.rules.edit_limit_secs?;
        (self.now() - msg.timestamp > limit + LIMIT_GRACE)
            .then_some("The time limit for editing this message has passed")
    }

    /// Why a direct message from `sender` to `users` is refused: none of them is in
    /// `direct_message_permission_group`, or it starts a conversation and the sender is not in
    /// `direct_message_initiator_group` (level 270; the system bots are never refused).
    pub fn dm_denied(&self, sender: i64, users: &[i64]) -> Option<&'static str> {
        let u = self.users.get(&sender)?;
        let others: Vec<i64> = users.iter().copied().filter(|x| *x != sender).collect();
        if u.is_system_bot || others.is_empty() || self.settings.feature_level < 270 {
            return None;
        }
        let permission = self.realm_group("realm_direct_message_permission_group");
        if !std::iter::once(sender)
            .chain(others.iter().copied())
            .any(|x| self.has_group_setting(&permission, x))
        {
            let nobody = permission == GroupSetting::Named(self.system_group("role:nobody"));
            return Some(if nobody {
                "Direct messages are disabled in this organization."
            } else {
                "This conversation does not include any users who can authorize it."
            });
        }
        let mut key: Vec<i64> = users.iter().copied().chain([sender]).collect();
        key.sort_unstable();
        key.dedup();
        let going = self.messages.values().any(|m| match &m.recip {
            Recip::Dm { users } => {
                let mut k = users.clone();
                k.sort_unstable();
                k.dedup();
                k == key
            }
            Recip::Channel { .. } => false,
        });
        if !going && !self.realm_lets("direct_message_initiator_group", sender) {
            return Some("You do not have permission to initiate direct message conversations.");
        }
        None
    }

    /// Why a channel message to `topic` is refused for having none while topics are required.
    pub fn topic_required_denied(&self, topic: &str) -> Option<String> {
        let empty = topic.trim().is_empty() || topic == "(no topic)";
        (self.realm.rules.mandatory_topics && empty).then(|| {
            if self.settings.feature_level >= TOPICS_POLICY {
                format!(
                    "Sending messages to {} is not allowed in this channel.",
                    self.realm.empty_topic_display_name
                )
            } else {
                "Topics are required in this organization".into()
            }
        })
    }

    /// `PATCH /realm`'s rules: checked whole before any changes, then applied; the events a
    /// server of this level sends for them (a `realm` `update` per property; group settings in
    /// one `update_dict` each, or their role policy's `update` before their level).
    pub fn patch_rules(&mut self, p: &Params) -> ApiResult<Vec<Value>> {
        let level = self.settings.feature_level;
        let allow = p.opt_bool("allow_message_editing")?;
        let limit = |key: &str| -> ApiResult<Option<Option<i64>>> {
            match p.opt_str(key) {
                None => Ok(None),
                Some(v) if v == "unlimited" || v == "null" => Ok(Some(None)),
                Some(v) => match v.parse::<i64>() {
                    Ok(n) if n > 0 => Ok(Some(Some(n))),
                    _ => Err(ApiErr::bad(format!("Invalid {key}"))),
                },
            }
        };
        let edit = limit("message_content_edit_limit_seconds")?;
        let within = limit("move_messages_within_stream_limit_seconds")?;
        let between = limit("move_messages_between_streams_limit_seconds")?;
        let delete = limit("message_content_delete_limit_seconds")?;
        let mandatory = match (p.opt_bool("mandatory_topics")?, p.opt_str("topics_policy")) {
            (_, Some(tp)) if level >= TOPICS_POLICY => match tp.as_str() {
                "allow_empty_topic" => Some(false),
                "disable_empty_topic" => Some(true),
                other => return Err(ApiErr::bad(format!("Invalid topics_policy: {other}"))),
            },
            (m, _) => m,
        };
        let mut groups = Vec::new();
        for (setting, at, before) in GROUP_LEVELS {
            if level >= *at {
                if let Some(change) = p.opt_json::<Value>(setting)? {
                    let new = change.get("new").unwrap_or(&change);
                    let g = GroupSetting::parse(new)
                        .filter(|g| self.group_setting_usable(g))
                        .ok_or_else(|| ApiErr::bad(format!("Invalid {setting}")))?;
                    groups.push((*setting, g, false));
                }
            } else if let Some(policy) = before
                && let Some(v) = p.opt_i64(policy)?
            {
                groups.push((*setting, self.group_of_policy(policy, v)?, true));
            }
        }
        let mut events = Vec::new();
        let mut update = |property: &str, value: Value| {
            events.push(json!({"type": "realm", "op": "update", "property": property, "value": value}));
        };
        if let Some(n) = delete {
            self.realm.delete_own_limit_secs = n;
            update("message_content_delete_limit_seconds", json!(n));
        }
        let r = &mut self.realm.rules;
        if let Some(a) = allow {
            r.allow_message_editing = a;
            update("allow_message_editing", json!(a));
        }
        for (key, new, slot) in [
            ("message_content_edit_limit_seconds", edit, &mut r.edit_limit_secs),
            ("move_messages_within_stream_limit_seconds", within, &mut r.move_within_limit_secs),
            ("move_messages_between_streams_limit_seconds", between, &mut r.move_between_limit_secs),
        ] {
            if let Some(n) = new {
                *slot = n;
                update(key, json!(n));
            }
        }
        if let Some(m) = mandatory {
            r.mandatory_topics = m;
            if level >= TOPICS_POLICY {
                update("topics_policy", json!(topics_policy(m)));
            }
            update("mandatory_topics", json!(m));
        }
        for (setting, g, as_policy) in groups {
            self.realm.rules.groups.insert(format!("realm_{setting}"), g.clone());
            let before = GROUP_LEVELS.iter().find(|(k, _, _)| *k == setting).and_then(|(_, _, b)| *b);
            match (as_policy, before) {
                (true, Some(policy)) => {
                    let value = self.role_policy(&g, policy);
                    events.push(json!({"type": "realm", "op": "update", "property": policy, "value": value}));
                }
                _ => events.push(json!({"type": "realm", "op": "update_dict", "property": "default",
                                        "data": {setting: g.json()}})),
            }
        }
        Ok(events)
    }

    /// The system group a role policy's value stands for.
    fn group_of_policy(&self, policy: &str, v: i64) -> ApiResult<GroupSetting> {
        let name = match (policy, v) {
            ("private_message_policy", 1) => "role:everyone",
            ("private_message_policy", 2) => "role:nobody",
            (_, 1) => "role:members",
            (_, 2) => "role:administrators",
            (_, 3) => "role:fullmembers",
            (_, 4) => "role:moderators",
            (p, 5) if p != "move_messages_between_streams_policy" => "role:everyone",
            (p, 6) if p != "delete_own_message_policy" => "role:nobody",
            _ => return Err(ApiErr::bad(format!("Invalid {policy}"))),
        };
        Ok(GroupSetting::Named(self.system_group(name)))
    }

    /// Whether a group setting names only groups that exist and are active, never
    /// `role:internet`, and active users.
    fn group_setting_usable(&self, g: &GroupSetting) -> bool {
        let usable = |id: &i64| {
            self.groups.get(id).is_some_and(|g| !g.deactivated) && *id != self.system_group("role:internet")
        };
        match g {
            GroupSetting::Named(id) => usable(id),
            GroupSetting::Anonymous { members, subgroups } => {
                members.iter().all(|u| self.users.get(u).is_some_and(|u| u.is_active))
                    && subgroups.iter().all(usable)
            }
        }
    }
}

fn topics_policy(mandatory: bool) -> &'static str {
    if mandatory { "disable_empty_topic" } else { "allow_empty_topic" }
}

/// A policy's register name (`realm_edit_topic_policy`).
fn register_name(policy: &str) -> &'static str {
    match policy {
        "move_messages_between_streams_policy" => "realm_move_messages_between_streams_policy",
        "edit_topic_policy" => "realm_edit_topic_policy",
        "delete_own_message_policy" => "realm_delete_own_message_policy",
        _ => "realm_private_message_policy",
    }
}
