//! The user's Zulip settings as `:settings` lists them: each one's words, its value as the
//! server says it (`Data::user_settings`), where the config overrides it, and what enter sets it
//! to. A leaf: it reads [`UserSettings`] and the local [`Notifications`], nothing else.

use super::settings::{Notifications, NotifyMethod};
use crate::api::UserSettings;
use serde_json::{Value, json};

/// What values a setting takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// On or off: enter turns it over.
    Bool,
    /// One of these numbers (value, words): enter takes the next.
    Ints(&'static [(i64, &'static str)]),
    /// One of these texts (value, words): enter takes the next.
    Texts(&'static [(&'static str, &'static str)]),
    /// Free text, set in the web app (the time zone).
    Text,
}

/// One of the user's Zulip settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Its name on the server (a `UserSettings` field, `PATCH /settings`'s parameter).
    pub name: &'static str,
    pub label: &'static str,
    pub kind: Kind,
}

const fn b(name: &'static str, label: &'static str) -> Setting {
    Setting { name, label, kind: Kind::Bool }
}

const MARK_READ: &[(i64, &str)] = &[(1, "always"), (2, "only in conversation views"), (3, "never")];
/// The recent conversations view is `recent` from level 454, `recent_topics` before: both are
/// worded, enter takes the one of the server's level ([`next`]).
const HOME: &[(&str, &str)] = &[
    ("inbox", "inbox"),
    ("recent", "recent conversations"),
    ("all_messages", "combined feed"),
    ("recent_topics", "recent conversations"),
];

/// The level from which the recent conversations view is `recent`.
const HOME_VIEW_RECENT: i64 = 454;
const DEMOTE: &[(i64, &str)] = &[(1, "automatic"), (2, "always"), (3, "never")];
const UNREADS: &[(i64, &str)] =
    &[(1, "all channels"), (2, "unmuted channels and topics"), (3, "no channels")];

/// The settings `:settings` lists, in its order: notifications first.
pub const SETTINGS: &[Setting] = &[
    b("enable_desktop_notifications", "Notify of direct messages and mentions"),
    b("enable_sounds", "Sound (the bell) for direct messages and mentions"),
    b("pm_content_in_desktop_notifications", "Show a direct message's text in its notification"),
    b("wildcard_mentions_notify", "Notify of @all mentions"),
    b("enable_followed_topic_desktop_notifications", "Notify of messages in followed topics"),
    b("enable_followed_topic_audible_notifications", "Sound for messages in followed topics"),
    b("enable_followed_topic_wildcard_mentions_notify", "Notify of @all mentions in followed topics"),
    b("enable_stream_desktop_notifications", "Notify of every message in channels (their default)"),
    b("enable_stream_audible_notifications", "Sound for every message in channels (their default)"),
    Setting {
        name: "web_mark_read_on_scroll_policy",
        label: "Mark messages read as they show",
        kind: Kind::Ints(MARK_READ),
    },
    Setting { name: "web_home_view", label: "Home view", kind: Kind::Texts(HOME) },
    b("enter_sends", "Enter sends (else enter makes a new line)"),
    b("starred_message_counts", "Count starred messages"),
    b("display_emoji_reaction_users", "Name who reacted"),
    b("receives_typing_notifications", "Show who is typing"),
    b("send_private_typing_notifications", "Tell others you are typing a direct message"),
    b("send_stream_typing_notifications", "Tell others you are typing in a channel"),
    b("send_read_receipts", "Let others see that you have read their messages"),
    Setting { name: "demote_inactive_streams", label: "Demote inactive channels", kind: Kind::Ints(DEMOTE) },
    Setting {
        name: "web_stream_unreads_count_display_policy",
        label: "Unread counts for",
        kind: Kind::Ints(UNREADS),
    },
    b("twenty_four_hour_time", "24-hour time"),
    Setting { name: "timezone", label: "Time zone", kind: Kind::Text },
];

/// A setting's value as the server said it; `None`: this server has no such setting.
pub fn value(s: &UserSettings, name: &str) -> Option<Value> {
    let Ok(Value::Object(fields)) = serde_json::to_value(s) else { return None };
    fields.get(name).filter(|v| !v.is_null()).cloned()
}

/// A value in words.
pub fn words(setting: &Setting, value: Option<&Value>) -> String {
    let Some(v) = value else { return "not on this server".into() };
    match (setting.kind, v) {
        (Kind::Bool, Value::Bool(on)) => (if *on { "on" } else { "off" }).into(),
        (Kind::Ints(choices), Value::Number(n)) => choices
            .iter()
            .find(|(c, _)| Some(*c) == n.as_i64())
            .map_or_else(|| n.to_string(), |(_, w)| (*w).into()),
        (Kind::Texts(choices), Value::String(s)) => {
            choices.iter().find(|(c, _)| c == s).map_or_else(|| s.clone(), |(_, w)| (*w).into())
        }
        (Kind::Text, Value::String(s)) if s.is_empty() => "not set".into(),
        (_, Value::String(s)) => s.clone(),
        (_, other) => other.to_string(),
    }
}

/// What enter sets a setting to: on to off and back, the next of its choices (those of a server
/// of `level`); `None`: enter does not change it here (free text; a setting the server lacks).
pub fn next(setting: &Setting, value: Option<&Value>, level: i64) -> Option<Value> {
    let v = value?;
    if setting.name == "web_home_view" {
        let recent = if level >= HOME_VIEW_RECENT { "recent" } else { "recent_topics" };
        let cycle = ["inbox", recent, "all_messages"];
        let now = match v.as_str()? {
            "recent" | "recent_topics" => recent,
            other => other,
        };
        let i = cycle.iter().position(|c| *c == now).map_or(0, |i| i + 1);
        return Some(json!(cycle[i % cycle.len()]));
    }
    match setting.kind {
        Kind::Bool => Some(json!(!v.as_bool()?)),
        Kind::Ints(choices) => {
            let i = choices.iter().position(|(c, _)| Some(*c) == v.as_i64()).map_or(0, |i| i + 1);
            Some(json!(choices[i % choices.len()].0))
        }
        Kind::Texts(choices) => {
            let i = choices.iter().position(|(c, _)| Some(*c) == v.as_str()).map_or(0, |i| i + 1);
            Some(json!(choices[i % choices.len()].0))
        }
        Kind::Text => None,
    }
}

/// Where the config overrides a setting: the lines the user wrote (`[notifications] dm = false`).
pub fn overridden(setting: &Setting, local: &Notifications) -> Option<String> {
    let line = |key: &str, v: Option<bool>| v.map(|v| format!("{key} = {v}"));
    let lines: Vec<String> = match setting.name {
        "enable_desktop_notifications" => {
            [line("dm", local.dm), line("mention", local.mention)].into_iter().flatten().collect()
        }
        "enable_followed_topic_desktop_notifications" => {
            line("followed", local.followed).into_iter().collect()
        }
        _ => vec![],
    };
    (!lines.is_empty()).then(|| format!("[notifications] {}", lines.join(", ")))
}

/// How notifications are shown, which is the terminal's own (`[notifications] method`).
pub fn shown_as(local: &Notifications) -> String {
    match local.method {
        NotifyMethod::Desktop => "desktop notifications; sounds ring the bell".into(),
        NotifyMethod::Bell => "the terminal bell".into(),
        NotifyMethod::None => "not shown".into(),
    }
}

/// How many rows `:settings` lists: how notifications are shown, then [`SETTINGS`].
pub const ROWS: usize = SETTINGS.len() + 1;

/// Row `i` of `:settings` (label, value in words, where it comes from); `None` past the end.
pub fn listed(s: &UserSettings, local: &Notifications, i: usize) -> Option<(String, String, String)> {
    match i.checked_sub(1) {
        None => Some((
            "How notifications are shown".into(),
            shown_as(local),
            "local: [notifications] method".into(),
        )),
        Some(i) => SETTINGS.get(i).map(|setting| row(s, local, setting)),
    }
}

/// One row of the list: the label, the value in words, where it comes from.
pub fn row(s: &UserSettings, local: &Notifications, setting: &Setting) -> (String, String, String) {
    let v = value(s, setting.name);
    let from = match overridden(setting, local) {
        Some(o) => format!("server; local override: {o}"),
        None if v.is_none() => String::new(),
        None => "server".into(),
    };
    (setting.label.to_owned(), words(setting, v.as_ref()), from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_worded_and_turned_over() {
        let s = UserSettings {
            enable_sounds: Some(true),
            web_mark_read_on_scroll_policy: Some(3),
            web_home_view: Some("all_messages".into()),
            ..Default::default()
        };
        let find = |n: &str| *SETTINGS.iter().find(|x| x.name == n).unwrap();
        let sounds = find("enable_sounds");
        assert_eq!(words(&sounds, value(&s, "enable_sounds").as_ref()), "on");
        assert_eq!(next(&sounds, value(&s, "enable_sounds").as_ref(), 512), Some(json!(false)));
        let policy = find("web_mark_read_on_scroll_policy");
        assert_eq!(words(&policy, value(&s, policy.name).as_ref()), "never");
        assert_eq!(next(&policy, value(&s, policy.name).as_ref(), 512), Some(json!(1)));
        let home = find("web_home_view");
        assert_eq!(next(&home, value(&s, home.name).as_ref(), 512), Some(json!("inbox")));
        assert_eq!(next(&home, Some(&json!("inbox")), 512), Some(json!("recent")));
        assert_eq!(next(&home, Some(&json!("inbox")), 300), Some(json!("recent_topics")));
        assert_eq!(next(&home, Some(&json!("recent")), 512), Some(json!("all_messages")));
        let absent = find("enter_sends");
        assert_eq!(words(&absent, value(&s, absent.name).as_ref()), "not on this server");
        assert_eq!(next(&absent, None, 512), None);
        let every = SETTINGS.iter().all(|x| {
            let all: UserSettings = serde_json::from_value(json!({x.name: true})).unwrap_or_default();
            serde_json::to_value(all).unwrap().get(x.name).is_some()
        });
        assert!(every, "each is a UserSettings field");
        let local = Notifications { dm: Some(false), ..Default::default() };
        let (_, _, from) = row(&s, &local, &find("enable_desktop_notifications"));
        assert_eq!(from, "server; local override: [notifications] dm = false");
    }
}
