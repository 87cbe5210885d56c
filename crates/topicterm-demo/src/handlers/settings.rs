//! A user's settings as the reference server reports them (`user_settings` in register, and
//! the legacy top-level copies): the reference defaults, which the demo organization keeps.

use super::common::Res;
use crate::error::{ApiErr, ok};
use crate::shared::{Req, Shared, reply};
use axum::extract::State;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The settings register also sends at the top level to a client without the
/// `user_settings_object` capability: the reference's `display_settings_legacy` and
/// `notification_settings_legacy` (frozen: settings added since are in `user_settings` only).
pub const LEGACY_TOP_LEVEL: &[&str] = &[
    "twenty_four_hour_time",
    "starred_message_counts",
    "receives_typing_notifications",
    "fluid_layout_width",
    "high_contrast_mode",
    "color_scheme",
    "translate_emoticons",
    "default_language",
    "web_home_view",
    "left_side_userlist",
    "emojiset",
    "demote_inactive_streams",
    "timezone",
    "enter_sends",
    "enable_drafts_synchronization",
    "enable_stream_desktop_notifications",
    "enable_stream_email_notifications",
    "enable_stream_push_notifications",
    "enable_stream_audible_notifications",
    "notification_sound",
    "enable_desktop_notifications",
    "enable_sounds",
    "email_notifications_batching_period_seconds",
    "enable_offline_email_notifications",
    "enable_offline_push_notifications",
    "enable_online_push_notifications",
    "enable_digest_emails",
    "enable_marketing_emails",
    "enable_login_emails",
    "message_content_in_email_notifications",
    "pm_content_in_desktop_notifications",
    "wildcard_mentions_notify",
    "desktop_icon_count_display",
    "realm_name_in_email_notifications_policy",
    "presence_enabled",
    "available_notification_sounds",
    "emojiset_choices",
];

/// Every setting with the reference server's default.
pub fn defaults() -> Map<String, Value> {
    let all: Vec<(&str, Value)> = vec![
        ("twenty_four_hour_time", json!(false)),
        ("web_mark_read_on_scroll_policy", json!(1)),
        ("web_channel_default_view", json!(1)),
        ("starred_message_counts", json!(true)),
        ("receives_typing_notifications", json!(true)),
        ("web_suggest_update_timezone", json!(true)),
        ("fluid_layout_width", json!(false)),
        ("high_contrast_mode", json!(false)),
        ("web_font_size_px", json!(16)),
        ("web_line_height_percent", json!(140)),
        ("color_scheme", json!(1)),
        ("translate_emoticons", json!(false)),
        ("display_emoji_reaction_users", json!(true)),
        ("default_language", json!("en")),
        ("web_home_view", json!("inbox")),
        ("web_escape_navigates_to_home_view", json!(true)),
        ("left_side_userlist", json!(false)),
        ("emojiset", json!("google")),
        ("demote_inactive_streams", json!(1)),
        ("user_list_style", json!(2)),
        ("web_animate_image_previews", json!("on_hover")),
        ("web_stream_unreads_count_display_policy", json!(2)),
        ("hide_ai_features", json!(false)),
        ("web_left_sidebar_show_channel_folders", json!(true)),
        ("web_left_sidebar_unreads_count_summary", json!(true)),
        ("timezone", json!("")),
        ("enter_sends", json!(false)),
        ("enable_drafts_synchronization", json!(true)),
        ("enable_stream_desktop_notifications", json!(false)),
        ("enable_stream_email_notifications", json!(false)),
        ("enable_stream_push_notifications", json!(false)),
        ("enable_stream_audible_notifications", json!(false)),
        ("notification_sound", json!("zulip")),
        ("enable_desktop_notifications", json!(true)),
        ("enable_sounds", json!(true)),
        ("enable_followed_topic_desktop_notifications", json!(true)),
        ("enable_followed_topic_email_notifications", json!(true)),
        ("enable_followed_topic_push_notifications", json!(true)),
        ("enable_followed_topic_audible_notifications", json!(true)),
        ("email_notifications_batching_period_seconds", json!(120)),
        ("enable_offline_email_notifications", json!(true)),
        ("enable_offline_push_notifications", json!(true)),
        ("enable_online_push_notifications", json!(true)),
        ("enable_digest_emails", json!(true)),
        ("enable_marketing_emails", json!(true)),
        ("enable_login_emails", json!(true)),
        ("message_content_in_email_notifications", json!(true)),
        ("pm_content_in_desktop_notifications", json!(true)),
        ("wildcard_mentions_notify", json!(true)),
        ("enable_followed_topic_wildcard_mentions_notify", json!(true)),
        ("desktop_icon_count_display", json!(1)),
        ("realm_name_in_email_notifications_policy", json!(1)),
        ("automatically_follow_topics_policy", json!(3)),
        ("automatically_unmute_topics_in_muted_streams_policy", json!(3)),
        ("automatically_follow_topics_where_mentioned", json!(true)),
        ("resolved_topic_notice_auto_read_policy", json!("except_followed")),
        ("presence_enabled", json!(true)),
        ("available_notification_sounds", json!(["chime-short", "zulip"])),
        (
            "emojiset_choices",
            json!([{"key": "google", "text": "Google"}, {"key": "twitter", "text": "Twitter"}, {"key": "text", "text": "Plain text"}]),
        ),
        ("send_private_typing_notifications", json!(true)),
        ("send_stream_typing_notifications", json!(true)),
        ("send_read_receipts", json!(true)),
        ("allow_private_data_export", json!(false)),
        ("email_address_visibility", json!(1)),
        ("web_navigate_to_sent_message", json!(true)),
    ];
    all.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// The settings `PATCH /settings` takes whose values are one of a fixed set (the spec's enums).
const CHOICES: &[(&str, &[&str])] = &[
    ("web_mark_read_on_scroll_policy", &["1", "2", "3"]),
    ("web_channel_default_view", &["1", "2", "4"]),
    ("color_scheme", &["1", "2", "3"]),
    ("demote_inactive_streams", &["1", "2", "3"]),
    ("user_list_style", &["1", "2", "3"]),
    ("web_animate_image_previews", &["always", "on_hover", "never"]),
    ("web_stream_unreads_count_display_policy", &["1", "2", "3"]),
    ("desktop_icon_count_display", &["1", "2", "3", "4"]),
    ("realm_name_in_email_notifications_policy", &["1", "2", "3"]),
    ("automatically_follow_topics_policy", &["1", "2", "3", "4"]),
    ("automatically_unmute_topics_in_muted_streams_policy", &["1", "2", "3", "4"]),
    ("resolved_topic_notice_auto_read_policy", &["always", "except_followed", "never"]),
    ("email_address_visibility", &["1", "2", "3", "4", "5"]),
    ("emojiset", &["google", "twitter", "text"]),
];

/// Settings the reference server gained within the levels the demo serves, with the level each
/// came at (the API changelog): a server of an older level neither sends nor takes them.
const SINCE: &[(&str, i64)] = &[
    ("send_private_typing_notifications", 105),
    ("send_stream_typing_notifications", 105),
    ("send_read_receipts", 105),
    ("display_emoji_reaction_users", 125),
    ("web_mark_read_on_scroll_policy", 175),
    ("enable_followed_topic_desktop_notifications", 189),
    ("enable_followed_topic_email_notifications", 189),
    ("enable_followed_topic_push_notifications", 189),
    ("enable_followed_topic_audible_notifications", 189),
    ("enable_followed_topic_wildcard_mentions_notify", 189),
    ("web_stream_unreads_count_display_policy", 210),
    ("receives_typing_notifications", 253),
];

/// Settings renamed at a level (new name, old name, level): before it the old name is the one.
const RENAMED: &[(&str, &str, i64)] = &[
    ("web_home_view", "default_view", crate::levels::WEB_HOME_VIEW),
    ("web_escape_navigates_to_home_view", "escape_navigates_to_default_view", crate::levels::WEB_HOME_VIEW),
];

/// The settings a server of `level` has, by the name it gives them, with their defaults.
pub fn at_level(level: i64) -> Map<String, Value> {
    defaults()
        .into_iter()
        .filter(|(k, _)| SINCE.iter().all(|(name, since)| name != k || level >= *since))
        .map(|(k, v)| match RENAMED.iter().find(|(new, _, at)| *new == k && level < *at) {
            Some((_, old, _)) => ((*old).to_owned(), v),
            None => (k, v),
        })
        .collect()
}

/// The values a setting with fixed choices takes at `level`; `None`: any of its type.
fn choices(name: &str, level: i64) -> Option<Vec<&'static str>> {
    if name == "web_home_view" || name == "default_view" {
        // The recent conversations view is `recent` from level 454, `recent_topics` before.
        let recent = if level >= crate::levels::WEB_HOME_VIEW_RECENT { "recent" } else { "recent_topics" };
        return Some(vec![recent, "inbox", "all_messages"]);
    }
    CHOICES.iter().find(|(k, _)| *k == name).map(|(_, c)| c.to_vec())
}

/// Settings that only list what the server offers: not settable.
const READ_ONLY: &[&str] = &["available_notification_sounds", "emojiset_choices"];

/// Is a setting one of the legacy "global notification" settings (its legacy event is
/// `update_global_notifications`; the others' is `update_display_settings`)?
fn is_notification_setting(name: &str) -> bool {
    name.starts_with("enable_")
        || name.contains("notification")
        || matches!(
            name,
            "wildcard_mentions_notify"
                | "desktop_icon_count_display"
                | "presence_enabled"
                | "email_notifications_batching_period_seconds"
        )
}

/// A setting's new value from its request text, checked against the setting's type (that of
/// its default) and its choices; the reference server's errors.
pub fn parse_setting(name: &str, default: &Value, raw: &str, level: i64) -> Result<Value, String> {
    let value = match default {
        Value::Bool(_) => match raw {
            "true" => json!(true),
            "false" => json!(false),
            _ => return Err(format!("{name} is not a boolean")),
        },
        Value::Number(_) => json!(raw.parse::<i64>().map_err(|_| format!("{name} is not an integer"))?),
        _ => json!(raw),
    };
    if let Some(choices) = choices(name, level)
        && !choices.contains(&raw)
    {
        return Err(format!("Invalid {name}"));
    }
    Ok(value)
}

/// `PATCH /settings` (and the legacy `/settings/display` and `/settings/notifications`):
/// every documented setting is kept and echoed by a `user_settings` event (plus, before level
/// 439, the legacy event of its kind); one bad value refuses the whole request.
pub async fn update(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let uid = req.user_id;
    let level = s.lock().settings.feature_level;
    let mut changes: Vec<(String, Value)> = Vec::new();
    // Only the settings of the server's level: another is ignored, as the reference ignores
    // a parameter it does not know.
    for (name, default) in at_level(level) {
        if READ_ONLY.contains(&name.as_str()) {
            continue;
        }
        if let Some(raw) = p.opt_str(&name) {
            changes.push((name.clone(), parse_setting(&name, &default, &raw, level).map_err(ApiErr::bad)?));
        }
    }
    let full_name = p.opt_str("full_name");
    if let Some(n) = &full_name {
        crate::validate::check_full_name(n)?;
    }
    // Drafts synchronization deletes the drafts when turned off: its own path.
    let sync =
        changes.iter().position(|(k, _)| k == "enable_drafts_synchronization").map(|i| changes.remove(i));
    let mut org = s.lock();
    if let Some((_, on)) = sync {
        super::drafts::set_drafts_sync(&mut org, uid, on.as_bool().unwrap_or(true));
    }
    if let Some(n) = full_name {
        if let Some(u) = org.users.get_mut(&uid) {
            u.full_name = n.trim().to_owned();
        }
        super::admin::person_event(&mut org, json!({"user_id": uid, "full_name": n.trim()}));
    }
    let email = org.users.get(&uid).map(|u| u.email.clone()).unwrap_or_default();
    for (name, value) in changes {
        match name.as_str() {
            "presence_enabled" => {
                if let Some(u) = org.users.get_mut(&uid) {
                    u.presence_enabled = value.as_bool().unwrap_or(true);
                }
            }
            // Administrators learn it (level 312), for `GET /export/realm/consents`.
            "allow_private_data_export"
                if org.settings.feature_level >= crate::levels::EXPORT_CONSENT_EVENT =>
            {
                let consented = value.as_bool().unwrap_or(false);
                let admins: Vec<i64> = org
                    .users
                    .values()
                    .filter(|u| u.is_active && !u.is_bot() && u.is_admin())
                    .map(|u| u.id)
                    .collect();
                let e = json!({"type": "realm_export_consent", "user_id": uid, "consented": consented});
                org.queues.push(&admins, &e);
            }
            "timezone" => {
                if let Some(u) = org.users.get_mut(&uid) {
                    u.timezone = value.as_str().unwrap_or_default().to_owned();
                }
            }
            _ => {}
        }
        org.user_settings.entry(uid).or_default().insert(name.clone(), value.clone());
        let ev = json!({"type": "user_settings", "op": "update", "property": name, "value": value});
        org.queues.push(&[uid], &ev);
        // The legacy events went at level 439; before, a client that declared
        // `user_settings_object` gets only the `user_settings` one.
        if org.settings.feature_level >= crate::levels::NO_LEGACY_SETTINGS_EVENTS {
            continue;
        }
        let (legacy, ty) = if is_notification_setting(&name) {
            let ty = "update_global_notifications";
            (json!({"type": ty, "user": email, "notification_name": name, "setting": value}), ty)
        } else {
            let ty = "update_display_settings";
            (json!({"type": ty, "user": email, "setting_name": name, "setting": value}), ty)
        };
        org.queues.push_with(&[uid], ty, |q| (!q.user_settings_object).then(|| legacy.clone()));
    }
    Ok(reply(p, ok()))
}

/// One user's settings: the defaults with what they changed.
pub fn of_user(org: &crate::org::Org, uid: i64) -> Map<String, Value> {
    let mut settings = at_level(org.settings.feature_level);
    if let Some(mine) = org.user_settings.get(&uid) {
        settings.extend(mine.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_against_their_type_and_choices() {
        assert_eq!(parse_setting("enter_sends", &json!(false), "true", 512), Ok(json!(true)));
        assert_eq!(
            parse_setting("enter_sends", &json!(false), "yes", 512).unwrap_err(),
            "enter_sends is not a boolean"
        );
        assert_eq!(parse_setting("color_scheme", &json!(1), "3", 512), Ok(json!(3)));
        assert_eq!(parse_setting("color_scheme", &json!(1), "9", 512).unwrap_err(), "Invalid color_scheme");
        assert_eq!(
            parse_setting("web_font_size_px", &json!(16), "x", 512).unwrap_err(),
            "web_font_size_px is not an integer"
        );
        assert_eq!(parse_setting("emojiset", &json!("google"), "twitter", 512), Ok(json!("twitter")));
        // The recent view's value by level.
        let home = json!("inbox");
        assert_eq!(parse_setting("web_home_view", &home, "recent", 512), Ok(json!("recent")));
        assert_eq!(
            parse_setting("web_home_view", &home, "recent_topics", 512).unwrap_err(),
            "Invalid web_home_view"
        );
        assert_eq!(parse_setting("web_home_view", &home, "recent_topics", 300), Ok(json!("recent_topics")));
    }

    #[test]
    fn a_server_of_an_older_level_has_the_settings_of_its_level() {
        let new = at_level(512);
        assert!(new.contains_key("web_home_view") && new.contains_key("receives_typing_notifications"));
        let old = at_level(218);
        assert!(!old.contains_key("web_home_view") && old.contains_key("default_view"));
        assert!(!old.contains_key("receives_typing_notifications"));
        assert!(old.contains_key("enable_followed_topic_desktop_notifications"));
        assert!(!at_level(188).contains_key("enable_followed_topic_desktop_notifications"));
        assert!(at_level(1).contains_key("enable_desktop_notifications"));
    }
}
