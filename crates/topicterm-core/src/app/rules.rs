//! The organization's rules, said before a key asks the server what it would refuse: who may
//! post in a channel (`can_send_message_group`, before it `stream_post_policy`), whether a
//! topic is needed (`topics_policy`, before it `mandatory_topics`), who may be sent a direct
//! message and who may start one (`direct_message_permission_group`,
//! `direct_message_initiator_group`), how long a message may be (`max_message_length`), and
//! who may edit, delete, move or resolve what and for how long (`RealmRules`). Everything is
//! read from `Data` as the server's register answer and events left it, so an administrator's
//! change applies at once; `None` wherever the client cannot know (the server then decides, and
//! says why it refuses). Times are given (`now`): a leaf over `Data`, it reads no clock.

use super::outgoing::Target;
use super::state::Data;
use super::store::Stored;
use crate::api::{GroupSettingValue, RealmRules, UserId, role_policy_allows};

/// The reference server lets an edit or a move through up to 20 seconds past its limit (for
/// the time a request takes); the client refuses only past that too.
const LIMIT_GRACE_SECS: i64 = 20;

/// From level 505 a whole-topic move from a message past the time limit is answered with how
/// many of the topic's messages may still move (`MOVE_MESSAGES_TIME_LIMIT_EXCEEDED`).
const WHOLE_TOPIC_SAYS_HOW_MANY: i64 = 505;

/// Whether the user is among those a group setting names, or (before the groups) a role
/// policy lets. `None`: neither is known, or the groups are still being read.
fn lets(d: &Data, group: Option<&GroupSettingValue>, policy: Option<i64>) -> Option<bool> {
    match group {
        Some(g) => d.users.in_group_setting(d.me, g),
        None => role_policy_allows(policy?, d.users.get(d.me)?.role),
    }
}

/// Whether a channel's own groups let the user (`permission`, in `ChannelInfo::permissions`),
/// or they administer it (`can_administer_channel_group`): what widens the organization's
/// groups (moving from level 396, resolving 402, deleting 407).
fn channel_lets(d: &Data, m: &Stored, permission: &str) -> bool {
    let Some(c) = m.stream_id().filter(|_| !m.is_dm()).and_then(|id| d.channels.get(id)) else {
        return false;
    };
    ["can_administer_channel_group", permission]
        .iter()
        .any(|k| c.permissions.get(k).is_some_and(|g| d.users.in_group_setting(d.me, g) == Some(true)))
}

fn is_admin(d: &Data) -> bool {
    d.users.get(d.me).is_some_and(|u| u.role <= 200)
}

fn is_moderator(d: &Data) -> bool {
    d.users.get(d.me).is_some_and(|u| u.role <= 300)
}

/// Who a group setting or role policy lets, in words: "administrators only", "members of
/// @leads".
pub fn who_may(d: &Data, group: Option<&GroupSettingValue>, policy: Option<i64>) -> String {
    let name = |id: i64| d.users.group(id);
    match group {
        Some(GroupSettingValue::Group(id)) => match name(*id).map(|g| (g.name.as_str(), g.is_system_group)) {
            Some(("role:everyone" | "role:internet", true)) => "everyone".into(),
            Some(("role:members", true)) => "members (not guests)".into(),
            Some(("role:fullmembers", true)) => "full members".into(),
            Some(("role:moderators", true)) => "moderators and administrators".into(),
            Some(("role:administrators", true)) => "administrators only".into(),
            Some(("role:owners", true)) => "owners only".into(),
            Some(("role:nobody", true)) => "nobody".into(),
            Some((n, _)) => format!("members of @{n}"),
            // Being read (`--low-bandwidth`).
            None if d.users.groups_unknown() => super::users::NOT_YET.into(),
            None => format!("members of group {id}"),
        },
        Some(GroupSettingValue::Anonymous { direct_members, direct_subgroups }) => {
            let mut who: Vec<String> = direct_members.iter().map(|u| d.user_name(*u).to_owned()).collect();
            who.extend(direct_subgroups.iter().map(|g| match name(*g) {
                Some(g) if g.is_system_group => g.name.trim_start_matches("role:").to_owned(),
                Some(g) => format!("@{}", g.name),
                None if d.users.groups_unknown() => super::users::NOT_YET.into(),
                None => format!("group {g}"),
            }));
            if who.is_empty() { "nobody".into() } else { who.join(", ") }
        }
        None => match policy {
            Some(2) => "administrators only".into(),
            Some(3) => "full members".into(),
            Some(4) => "moderators and administrators".into(),
            Some(6) => "nobody".into(),
            Some(1) => "members (not guests)".into(),
            _ => "everyone".into(),
        },
    }
}

/// A channel's `stream_post_policy` as a role policy: its 1 is everyone (the role policies'
/// 5); 2 administrators, 3 full members and 4 moderators read the same.
pub fn post_policy(stream_post_policy: Option<i64>) -> Option<i64> {
    stream_post_policy.map(|p| if p == 1 { 5 } else { p })
}

/// Why the user may not send to `target` as it stands: the channel is not one they may post
/// in, it needs a topic (or takes none), they may not start that topic, or the direct message
/// goes to people the organization does not let them write to. `None`: nothing the client
/// knows of refuses it.
pub fn send_refused(d: &Data, target: &Target) -> Option<String> {
    match target {
        Target::Channel { id, topic } => {
            let c = d.channels.get(*id)?;
            let policy = post_policy(c.stream_post_policy);
            if lets(d, c.can_send_message_group.as_ref(), policy) == Some(false) {
                let who = who_may(d, c.can_send_message_group.as_ref(), policy);
                return Some(format!("you may not post in #{}: {who} may post there", c.name));
            }
            topic_refused(d, c, topic).or_else(|| d.may_not_start_topic(*id, topic))
        }
        Target::Dm(users) => dm_refused(d, users),
    }
}

/// Whether a channel's messages need a topic, or take none: the channel's `topics_policy`
/// unless it inherits the organization's (`realm_topics_policy`, before it
/// `realm_mandatory_topics`).
fn topic_refused(d: &Data, c: &super::channels::ChannelInfo, topic: &str) -> Option<String> {
    let rules = &d.realm.rules;
    let policy = match c.topics_policy.as_deref() {
        Some("inherit") | None => match (&rules.topics_policy, rules.mandatory_topics) {
            (Some(p), _) => p.as_str(),
            (None, Some(true)) => "disable_empty_topic",
            _ => "allow_empty_topic",
        },
        Some(p) => p,
    };
    let empty = topic.trim().is_empty() || topic == "(no topic)";
    match policy {
        "disable_empty_topic" if empty => Some(format!(
            "#{} needs a topic: the organization does not take messages without one (type one)",
            c.name
        )),
        "empty_topic_only" if !empty => {
            Some(format!("#{} takes messages only without a topic ({})", c.name, d.realm.topic_shown("")))
        }
        _ => None,
    }
}

/// A direct message the organization's DM groups rule out: none in the conversation (the
/// user included) is in `direct_message_permission_group`, or it would start a conversation
/// and the user is not in `direct_message_initiator_group`. Notes to self always go.
fn dm_refused(d: &Data, users: &[UserId]) -> Option<String> {
    let others: Vec<_> = users.iter().copied().filter(|u| *u != d.me).collect();
    if others.is_empty() {
        return None;
    }
    let rules = &d.realm.rules;
    if let Some(g) = &rules.direct_message_permission_group {
        let anyone = std::iter::once(d.me).chain(others.iter().copied());
        let mut known = true;
        let mut allowed = false;
        for u in anyone {
            match d.users.in_group_setting(u, g) {
                Some(true) => allowed = true,
                Some(false) => {}
                None => known = false,
            }
        }
        if known && !allowed {
            let nobody = matches!(g, GroupSettingValue::Anonymous { direct_members, direct_subgroups }
                if direct_members.is_empty() && direct_subgroups.is_empty())
                || who_may(d, Some(g), None) == "nobody";
            return Some(if nobody {
                "direct messages are disabled in this organization".into()
            } else {
                format!(
                    "this conversation does not include anyone who may authorize it ({} may)",
                    who_may(d, Some(g), None)
                )
            });
        }
    }
    let mut key = others.clone();
    key.sort_unstable();
    let new = !d.recent_dms().contains_key(&key);
    let g = rules.direct_message_initiator_group.as_ref().filter(|_| new)?;
    (d.users.in_group_setting(d.me, g) == Some(false)).then(|| {
        format!(
            "you may not start direct message conversations: {} may (reply in one already going)",
            who_may(d, Some(g), None)
        )
    })
}

/// Why text of `len` characters is too long to send, with the numbers: "10,500 characters:
/// the organization takes at most 10,000 (500 too many)".
pub fn too_long(d: &Data, len: usize) -> Option<String> {
    let max = d.realm.limits.max_message_length?;
    (len > max).then(|| {
        format!(
            "too long to send: {} characters, the organization takes at most {} ({} too many)",
            thousands(len),
            thousands(max),
            thousands(len - max)
        )
    })
}

/// The length counter the compose box shows once the text nears the organization's limit
/// (the last tenth of it): "9,512/10,000".
pub fn length_counter(d: &Data, len: usize) -> Option<String> {
    let max = d.realm.limits.max_message_length?;
    (len >= max - max / 10).then(|| format!("{}/{}", thousands(len), thousands(max)))
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A time limit in words: "10 minutes", "1 week".
fn span(secs: i64) -> String {
    let (n, unit) = match secs {
        s if s % 604_800 == 0 => (s / 604_800, "week"),
        s if s % 86_400 == 0 => (s / 86_400, "day"),
        s if s % 3_600 == 0 => (s / 3_600, "hour"),
        s if s % 60 == 0 => (s / 60, "minute"),
        s => (s, "second"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// Whether a message is past a limit at `now` (with the server's grace).
fn past(m: &Stored, limit: Option<i64>, now: i64) -> Option<i64> {
    let limit = RealmRules::limit(limit)?;
    (now - m.timestamp > limit + LIMIT_GRACE_SECS).then_some(limit)
}

/// Why the user may not edit the text of `m` now (`e`): editing is off, it is not theirs, or
/// it is past `message_content_edit_limit_seconds` — and what is still possible.
pub fn edit_refused(d: &Data, m: &Stored, now: i64) -> Option<String> {
    let rules = &d.realm.rules;
    if m.sender_id() != d.me {
        return Some("you can only edit your own messages".into());
    }
    if rules.allow_message_editing == Some(false) {
        return Some(
            "the organization has turned off message editing (quote it in a new message instead)".into(),
        );
    }
    past(m, rules.message_content_edit_limit_seconds, now).map(|limit| {
        let also = if m.is_dm() { "" } else { "; its topic may still be changed (t)" };
        format!(
            "the time limit for editing this message has passed: the organization allows {} after sending{also}",
            span(limit)
        )
    })
}

/// Why the user may not delete `m` now: not theirs and not an administrator (or in
/// `can_delete_any_message_group`), or their own past `message_content_delete_limit_seconds`
/// or outside `can_delete_own_message_group` (before it, `delete_own_message_policy`).
pub fn delete_refused(d: &Data, m: &Stored, now: i64) -> Option<String> {
    let rules = &d.realm.rules;
    let any = match &rules.can_delete_any_message_group {
        Some(g) => d.users.in_group_setting(d.me, g).unwrap_or(is_admin(d)),
        None => is_admin(d),
    } || channel_lets(d, m, "can_delete_any_message_group");
    if any {
        return None;
    }
    if m.sender_id() != d.me {
        return Some(format!(
            "you may delete only your own messages: {} may delete anyone's",
            who_may(d, rules.can_delete_any_message_group.as_ref(), Some(2))
        ));
    }
    let own = rules.can_delete_own_message_group.as_ref();
    if lets(d, own, rules.delete_own_message_policy) == Some(false)
        && !channel_lets(d, m, "can_delete_own_message_group")
    {
        return Some(format!(
            "the organization does not let you delete your messages: {} may",
            who_may(d, own, rules.delete_own_message_policy)
        ));
    }
    past(m, rules.message_content_delete_limit_seconds, now).map(|limit| {
        format!(
            "the time limit for deleting this message has passed: the organization allows {} after sending",
            span(limit)
        )
    })
}

/// What a topic key does to the selected message's topic: rename it (`t`), move it to
/// another channel (`m`), resolve or unresolve it (`V`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopicChange {
    Rename,
    Move,
    Resolve,
}

/// Why the user may not change `m`'s topic so now: not in the organization's group for it
/// (`can_move_messages_between_topics_group`, `can_move_messages_between_channels_group`,
/// `can_resolve_topics_group`; before them `edit_topic_policy`,
/// `move_messages_between_streams_policy`), or past the time limit for moving (which binds
/// all but moderators) — and what is still possible. A move of the whole topic (`whole`) from
/// a message past the limit is the server's to judge from level 505 on: it says how many of
/// the topic's messages may still move.
pub fn topic_change_refused(
    d: &Data,
    m: &Stored,
    change: TopicChange,
    whole: bool,
    now: i64,
) -> Option<String> {
    let rules = &d.realm.rules;
    let (group, policy, channel_group, what) = match change {
        TopicChange::Rename => (
            rules.can_move_messages_between_topics_group.as_ref(),
            rules.edit_topic_policy,
            "can_move_messages_within_channel_group",
            "rename topics or move messages to another topic",
        ),
        TopicChange::Move => (
            rules.can_move_messages_between_channels_group.as_ref(),
            rules.move_messages_between_streams_policy,
            "can_move_messages_out_of_channel_group",
            "move messages to another channel",
        ),
        // Before level 367 resolving is moving to another topic.
        TopicChange::Resolve => match &rules.can_resolve_topics_group {
            Some(g) => (Some(g), None, "can_resolve_topics_group", "resolve topics"),
            None => (
                rules.can_move_messages_between_topics_group.as_ref(),
                rules.edit_topic_policy,
                "can_move_messages_within_channel_group",
                "resolve topics",
            ),
        },
    };
    if lets(d, group, policy) == Some(false) && !channel_lets(d, m, channel_group) {
        return Some(format!("the organization does not let you {what}: {} may", who_may(d, group, policy)));
    }
    if change == TopicChange::Resolve
        || is_moderator(d)
        || (whole && d.realm.server.feature_level >= WHOLE_TOPIC_SAYS_HOW_MANY)
    {
        return None;
    }
    let (limit, still) = match change {
        TopicChange::Move => {
            (rules.move_messages_between_streams_limit_seconds, "its topic may still be renamed (t)")
        }
        _ => (rules.move_messages_within_stream_limit_seconds, "the topic may still be resolved (V)"),
    };
    past(m, limit, now).map(|limit| {
        format!(
            "the time limit for moving this message has passed: the organization allows {} after sending; {still}",
            span(limit)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_spans_read_as_words() {
        assert_eq!(thousands(277_889), "277,889");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(span(600), "10 minutes");
        assert_eq!(span(604_800), "1 week");
        assert_eq!(span(90), "90 seconds");
    }

    #[test]
    fn the_length_counter_shows_in_the_last_tenth_and_past_the_limit_refuses_with_the_numbers() {
        let mut d = Data::default();
        d.realm.limits.max_message_length = Some(10_000);
        assert_eq!(length_counter(&d, 8_999), None);
        assert_eq!(length_counter(&d, 9_000).as_deref(), Some("9,000/10,000"));
        assert_eq!(too_long(&d, 10_000), None);
        assert_eq!(
            too_long(&d, 277_889).as_deref(),
            Some(
                "too long to send: 277,889 characters, the organization takes at most 10,000 (267,889 too many)"
            )
        );
        d.realm.limits.max_message_length = None;
        assert_eq!(too_long(&d, 277_889), None, "a server that does not say decides itself");
    }
}
