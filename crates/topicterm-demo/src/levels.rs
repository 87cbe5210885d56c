//! What a reference server of a given feature level takes and sends, where that differs from
//! the newest: `demo-server --feature-level N` refuses what a server of level N refuses, with
//! that level's error, so a client is tested against old servers too. Levels from the API
//! changelog (`shared/spec/zulip-openapi.yaml`, zulip/zulip's `api_docs/changelog.md`); errors
//! from the reference server's validators of those versions (`zerver/lib/narrow.py`,
//! `zerver/views/message_send.py`).

use crate::error::ApiErr;
use serde_json::Value;

/// Narrow `id` takes an integer operand (Zulip 8.0).
pub const ID_INTEGER_OPERAND: i64 = 194;
/// `read_by_sender` on `POST /messages` (Zulip 8.0); before it, a sender's own message is read
/// only when sent from a client the server knows by name.
pub const READ_BY_SENDER: i64 = 236;
/// Saved snippets: `/saved_snippets`, register's `saved_snippets` and their events (Zulip 10.0).
pub const SAVED_SNIPPETS: i64 = 297;
/// `PATCH /saved_snippets/{id}`.
pub const SAVED_SNIPPET_EDIT: i64 = 368;
/// Empty topic names (Zulip 10.0): "Topic can't be empty!" before.
pub const EMPTY_TOPIC: i64 = 334;
/// Message type `channel` (Zulip 9.0).
pub const CHANNEL_TYPE: i64 = 248;
/// Narrow operators `channel` and `channels` (Zulip 9.0).
pub const CHANNEL_OPERATOR: i64 = 250;
/// `POST /typing` for a channel takes `stream_id` (Zulip 8.0); before, `to` is required.
pub const TYPING_STREAM_ID: i64 = 215;
/// `last_update_id` on presence pings and `presence_last_update_id` (Zulip 9.0).
pub const PRESENCE_LAST_UPDATE_ID: i64 = 263;
/// `history_limit_days` on presence pings (Zulip 10.0).
pub const PRESENCE_HISTORY_LIMIT: i64 = 288;
/// `has:reaction` (Zulip 9.0).
pub const HAS_REACTION: i64 = 249;
/// `is:followed` (Zulip 9.0).
pub const IS_FOLLOWED: i64 = 265;
/// `last_moved_timestamp` on messages (Zulip 10.0); before it, `last_edit_timestamp` says when
/// a message was last edited or moved, and only its edit history tells which.
pub const LAST_MOVED_TIMESTAMP: i64 = 365;
/// `is:muted` (Zulip 10.0).
pub const IS_MUTED: i64 = 366;
/// Narrow `with` (Zulip 9.0).
pub const WITH_OPERATOR: i64 = 271;
/// The `simplified_presence_events` capability: presence events in the modern shape (Zulip 11.0).
pub const SIMPLIFIED_PRESENCE_EVENTS: i64 = 419;
/// `/reminders` (Zulip 11.0): an unknown endpoint before.
pub const REMINDERS: i64 = 381;
/// Register's `reminders` (Zulip 11.0): before, a client asks `GET /reminders`.
pub const REMINDERS_IN_REGISTER: i64 = 399;
/// `note` on `POST /reminders` (Zulip 11.0): ignored before.
pub const REMINDER_NOTE: i64 = 415;
/// The organization's custom welcome message, and `POST /realm/test_welcome_bot_custom_message`.
pub const WELCOME_MESSAGE_CUSTOM_TEXT: i64 = 416;
/// A deactivated user's `peer_remove` events name archived channels too.
pub const PEER_REMOVE_ARCHIVED: i64 = 428;
/// `GET /export/realm/consents`.
pub const EXPORT_CONSENTS: i64 = 295;
/// Standard exports (`export_type`), and exports' `export_type`.
pub const EXPORT_TYPE: i64 = 304;
/// The `realm_export_consent` event.
pub const EXPORT_CONSENT_EVENT: i64 = 312;
/// `GET /streams/{id}/email_address` (Zulip 8.0): no such endpoint before.
pub const CHANNEL_EMAIL_ENDPOINT: i64 = 226;
/// An attachment's `create_time` (and its messages' `date_sent`) in seconds; milliseconds before.
pub const ATTACHMENT_SECONDS: i64 = 443;
/// An attachment's `message_ids` replaces its `messages` list of `{id, date_sent}`.
pub const ATTACHMENT_MESSAGE_IDS: i64 = 472;
/// `realm_is_zephyr_mirror_realm` leaves register (Zulip 12.0).
pub const NO_ZEPHYR_MIRROR_FIELD: i64 = 426;
/// `is_imported_stub` on user objects (Zulip 12.0).
pub const IMPORTED_STUB: i64 = 433;
/// `realm_owner_full_content_access` in register (Zulip 12.0).
pub const OWNER_FULL_CONTENT_ACCESS: i64 = 438;
/// `default_view` and `escape_navigates_to_default_view` renamed `web_home_view` and
/// `web_escape_navigates_to_home_view` (Zulip 8.0).
pub const WEB_HOME_VIEW: i64 = 219;
/// `web_home_view`'s recent conversations view is `recent`, no longer `recent_topics` (Zulip 12.0).
pub const WEB_HOME_VIEW_RECENT: i64 = 454;
/// The legacy `update_display_settings` and `update_global_notifications` events are no longer
/// sent (Zulip 12.0): only `user_settings`.
pub const NO_LEGACY_SETTINGS_EVENTS: i64 = 439;
/// `can_send_message_group` on channels: who may post (Zulip 10.0); before it, only the
/// `stream_post_policy` enum, which is still sent, deprecated, after.
pub const CAN_SEND_MESSAGE_GROUP: i64 = 333;
/// Channels' `can_subscribe_group` (who may join a private channel by themselves).
pub const CAN_SUBSCRIBE_GROUP: i64 = 357;
/// `realm_can_resolve_topics_group`: who may resolve topics (Zulip 10.0); before, those who may
/// move messages to another topic.
pub const CAN_RESOLVE_TOPICS_GROUP: i64 = 367;
/// `can_create_topic_group` on channels: who may start a new topic (Zulip 12.0).
pub const CAN_CREATE_TOPIC_GROUP: i64 = 441;
/// A channel's own permission groups beside the organization's: moving its messages (396),
/// resolving its topics (402), deleting one's own messages in it (407), each with its level.
pub const CHANNEL_GROUPS: &[(&str, i64)] = &[
    ("can_move_messages_within_channel_group", 396),
    ("can_move_messages_out_of_channel_group", 396),
    ("can_resolve_topics_group", 402),
    ("can_delete_own_message_group", 407),
];
/// `tenor_api_key` in register, `gif_rating_options` for `giphy_rating_options` (Zulip 12.0).
pub const TENOR: i64 = 442;
/// A `<time:…>` the server cannot read is left as text, not an error span (Zulip 12.0).
pub const INVALID_TIME_AS_TEXT: i64 = 451;
/// `realm_gif_rating_policy` and `gif_rating_policy_options` for the GIPHY names (Zulip 12.0).
pub const GIF_RATING_POLICY: i64 = 453;
/// `use_for_user_matching` on custom profile fields (Zulip 12.0).
pub const USE_FOR_USER_MATCHING: i64 = 455;
/// `realm_default_avatar_source` in register (Zulip 12.0).
pub const DEFAULT_AVATAR_SOURCE: i64 = 456;
/// A realm description change comes as `realm/update_dict` with its rendering (Zulip 12.0);
/// from 462 to 463 as `realm/update` with `rendered_description`; before, without it.
pub const DESCRIPTION_UPDATE_DICT: i64 = 464;
/// The `rendered_description` of a `realm/update` event for `description` (462–463).
pub const RENDERED_REALM_DESCRIPTION: i64 = 462;
/// Linkifiers carry `example_input` and `reverse_template` (Zulip 12.0).
pub const LINKIFIER_EXAMPLES: i64 = 471;
/// Bot objects (register's `realm_bots`) keep only `user_id`, the `default_*` settings and
/// `services` (Zulip 12.0): the rest comes from the user list.
pub const SLIM_BOT_OBJECTS: i64 = 474;
/// Linkifiers carry `alternative_url_templates` (Zulip 12.0).
pub const LINKIFIER_ALTERNATIVES: i64 = 478;
/// `idle_queue_timeout` on register: how long a queue lives without a poll (Zulip 12.0).
pub const IDLE_QUEUE_TIMEOUT: i64 = 481;
/// Reaction events no longer carry the `user` object (Zulip 12.0).
pub const REACTION_WITHOUT_USER: i64 = 484;
/// `klipy_api_key` in register (Zulip 12.0).
pub const KLIPY: i64 = 486;
/// `GET /users/{id}/presence` answers the modern `active_timestamp`/`idle_timestamp` (Zulip 12.0).
pub const MODERN_USER_PRESENCE: i64 = 487;
/// `discord` among `server_settings`' authentication methods (Zulip 12.0).
pub const DISCORD_AUTH: i64 = 488;
/// Narrow `channels:archived` (Zulip 12.0).
pub const CHANNELS_ARCHIVED: i64 = 489;
/// `is_deleted` on user objects (Zulip 12.0).
pub const USER_IS_DELETED: i64 = 490;
/// The `individual_emoji_changes` capability: `realm_emoji` `add`/`update_one` events (Zulip 12.0).
pub const INDIVIDUAL_EMOJI_CHANGES: i64 = 491;
/// An uploaded `.mov` (QuickTime) video is previewed inline like MP4 and WebM (Zulip 12.0).
pub const QUICKTIME_VIDEO: i64 = 495;
/// `GET /users/{id}/presence` answers the legacy `website`/`aggregated` beside the modern
/// fields again, and `server_timestamp` (Zulip 12.0).
pub const USER_PRESENCE_BOTH: i64 = 497;
/// `<time:…>` takes only ISO 8601, no longer UNIX timestamps or free text (Zulip 13.0).
pub const TIME_ISO_ONLY: i64 = 503;
/// `require_e2ee_push_notifications` stops legacy pushes altogether rather than sending them
/// redacted (Zulip 13.0; 12.x from 500). No API shape changes: the demo server sends no pushes.
pub const E2EE_PUSH_ONLY: i64 = 504;
/// A `change_all` move by a member whose target message is past the time limit answers
/// `MOVE_MESSAGES_TIME_LIMIT_EXCEEDED` when any message of the topic is still within it (13.0).
pub const MOVE_LIMIT_ERROR_FOR_OLD_TARGET: i64 = 505;
/// `export_from_prior_server` on export records (Zulip 13.0; 12.x from 499).
pub const EXPORT_FROM_PRIOR_SERVER: i64 = 506;
/// The channel setting `default_push_notifications` (Zulip 13.0).
pub const DEFAULT_PUSH_NOTIFICATIONS: i64 = 507;
/// `POST /messages` answers `message_url` and `message_link` (Zulip 13.0).
pub const SEND_ANSWERS_LINK: i64 = 508;
/// `PATCH /messages/{id}` with the message's own `stream_id` is not a channel move (13.0).
pub const SAME_CHANNEL_NOT_A_MOVE: i64 = 509;
/// The `hide_link_previews` message flag (Zulip 13.0).
pub const HIDE_LINK_PREVIEWS: i64 = 510;
/// `POST /messages/{id}/report` fails when the report cannot reach the moderation channel (13.0).
pub const REPORT_DELIVERY_ERROR: i64 = 511;
/// The undocumented `PATCH /users/me/subscriptions` (add/delete at once) is gone (Zulip 13.0).
pub const NO_PATCH_SUBSCRIPTIONS: i64 = 512;

/// Is a change made at `at13` on the 13.0 branch (and backported to 12.x at `at12`) in `level`?
pub fn has(level: i64, at13: i64, at12: i64) -> bool {
    level >= at13 || (at12..=501).contains(&level)
}

/// Narrow `mentions` (Zulip 12.0).
pub const MENTIONS_OPERATOR: i64 = 446;
/// `anchor=date` with `anchor_date` on `GET /messages`: "Invalid anchor" before.
pub const ANCHOR_DATE: i64 = 445;

/// Feature levels of the releases (`version.py`'s `API_FEATURE_LEVEL` at each `X.0`).
const RELEASES: &[(i64, &str)] =
    &[(185, "7.0"), (237, "8.0"), (278, "9.0"), (377, "10.0"), (421, "11.0"), (498, "12.0")];

/// The version a server of `level` says it runs (`zulip_version`, `zulip_merge_base`): a release
/// at a release's level, its maintenance release just after it (11.x: 422–424, 12.x: 499–501),
/// the next release's development branch between them (`8.0-dev` at 218), `13.0-dev` from 502.
pub fn version(level: i64) -> String {
    match level {
        502.. => "13.0-dev".into(),
        499..=501 => "12.1".into(),
        422..=424 => "11.1".into(),
        _ => match RELEASES.iter().find(|(at, _)| *at >= level) {
            Some((at, v)) if *at == level => (*v).into(),
            Some((_, v)) => format!("{v}-dev"),
            None => "13.0-dev".into(),
        },
    }
}

/// The narrow validator's error for an operand that should have been a string: before the
/// typed `NarrowParameter` (Zulip 9.0), it named the element.
fn not_a_string(level: i64) -> ApiErr {
    ApiErr::bad(if level < CHANNEL_OPERATOR {
        "elem[\"operand\"] is not a string"
    } else {
        "operand is not a string"
    })
}

fn bad_narrow(desc: String) -> ApiErr {
    ApiErr::new(axum::http::StatusCode::BAD_REQUEST, "BAD_NARROW", format!("Invalid narrow operator: {desc}"))
}

fn unknown_operator(op: &str) -> ApiErr {
    bad_narrow(format!("unknown operator {op}"))
}

/// A narrow term a server of `level` refuses, with its error.
pub fn refuse_narrow_term(level: i64, op: &str, operand: &Value) -> Option<ApiErr> {
    match op {
        // The operand is checked before the operator: a number for an operator that takes
        // only strings fails as "not a string".
        "channel" | "channels" | "with" if level < CHANNEL_OPERATOR && !operand.is_string() => {
            Some(not_a_string(level))
        }
        "channel" | "channels" if level < CHANNEL_OPERATOR => Some(unknown_operator(op)),
        // No server has `dm-with` (the web app's search box takes it and sends `dm-including`):
        // an integer operand fails the string check first, as for any operator not taking IDs.
        "dm-with" if !operand.is_string() => Some(not_a_string(level)),
        "dm-with" => Some(unknown_operator(op)),
        "mentions" if level < MENTIONS_OPERATOR && !operand.is_string() => Some(not_a_string(level)),
        "mentions" if level < MENTIONS_OPERATOR => Some(unknown_operator(op)),
        "channels" | "streams" if level < CHANNELS_ARCHIVED && operand == "archived" => {
            Some(bad_narrow("unknown channels operand archived".into()))
        }
        "with" if level < WITH_OPERATOR => Some(unknown_operator(op)),
        "id" if level < ID_INTEGER_OPERAND && !operand.is_string() => Some(not_a_string(level)),
        "has" if level < HAS_REACTION && operand == "reaction" => {
            Some(bad_narrow("unknown 'has' operand reaction".into()))
        }
        "is" if (level < IS_FOLLOWED && operand == "followed")
            || (level < IS_MUTED && operand == "muted") =>
        {
            Some(bad_narrow(format!("unknown 'is' operand {}", operand.as_str().unwrap_or_default())))
        }
        _ => None,
    }
}

/// A message type (`POST /messages`, scheduled messages, typing): `true` for a channel.
pub fn message_type(level: i64, raw: &str) -> Result<bool, ApiErr> {
    match raw {
        "channel" if level < CHANNEL_TYPE => Err(ApiErr::bad("Invalid type")),
        "stream" | "channel" => Ok(true),
        "private" | "direct" => Ok(false),
        _ => Err(ApiErr::bad(format!("Invalid type '{raw}'"))),
    }
}

/// `allow_empty_topic_name`, which a server before [`EMPTY_TOPIC`] does not know (it reports the
/// parameter ignored and names the topic by its display name).
pub fn allow_empty_topic(level: i64, p: &crate::params::Params) -> Result<bool, ApiErr> {
    if level < EMPTY_TOPIC {
        return Ok(false);
    }
    p.bool_or("allow_empty_topic_name", false)
}

/// A typing notice's type: `private` is refused from [`TYPING_STREAM_ID`] on (only `direct`),
/// `channel` before [`CHANNEL_TYPE`].
pub fn typing_type(level: i64, raw: &str) -> Result<bool, ApiErr> {
    match raw {
        "private" if level >= TYPING_STREAM_ID => Err(ApiErr::bad("Invalid type")),
        "private" => Ok(false),
        other => message_type(level, other),
    }
}

/// `to` of a direct typing notice: a JSON list of user IDs, nothing else (the reference
/// server's validator errors).
pub fn typing_recipients(raw: &str) -> Result<Vec<i64>, ApiErr> {
    let v: Value = serde_json::from_str(raw).map_err(|_| ApiErr::bad("to is not valid JSON"))?;
    let items = v.as_array().ok_or_else(|| ApiErr::bad("to is not a list"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, x)| x.as_i64().ok_or_else(|| ApiErr::bad(format!("to[{i}] is not an integer"))))
        .collect()
}

/// Before [`READ_BY_SENDER`]: does the server take a message from this client as sent by a
/// person, and so mark it read for its sender? (`Message.sent_by_human` of Zulip 7 and 8.)
pub fn sent_by_human(client: &str) -> bool {
    let c = client.to_lowercase();
    const HUMAN: &[&str] = &[
        "zulipandroid",
        "zulipios",
        "zulipdesktop",
        "zulipmobile",
        "zulipelectron",
        "zulipterminal",
        "snipe",
        "website",
        "ios",
        "android",
    ];
    HUMAN.contains(&c.as_str()) || c.contains("desktop app")
}

/// The client a request names: its `client` parameter, else its User-Agent's product
/// (`ZulipTerminal/0.7.0 …` → `ZulipTerminal`), else "Unspecified" (as `process_client` does).
pub fn client_name(param: Option<String>, user_agent: Option<&str>) -> String {
    param
        .filter(|c| !c.trim().is_empty())
        .or_else(|| {
            let ua = user_agent?.trim();
            let product = ua.split(['/', ' ']).next().filter(|p| !p.is_empty())?;
            Some(product.to_owned())
        })
        .unwrap_or_else(|| "Unspecified".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn narrow_operators_are_refused_below_their_level_with_that_levels_error() {
        let msg = |e: Option<ApiErr>| e.map(|e| e.msg);
        assert_eq!(
            msg(refuse_narrow_term(249, "channel", &json!("general"))).as_deref(),
            Some("Invalid narrow operator: unknown operator channel")
        );
        assert_eq!(
            msg(refuse_narrow_term(218, "channel", &json!(1))).as_deref(),
            Some("elem[\"operand\"] is not a string")
        );
        assert!(refuse_narrow_term(250, "channel", &json!(1)).is_none());
        assert!(refuse_narrow_term(185, "stream", &json!(1)).is_none(), "stream with an ID: every level");
        assert!(refuse_narrow_term(193, "id", &json!(5)).is_some());
        assert!(refuse_narrow_term(193, "id", &json!("5")).is_none());
        assert!(refuse_narrow_term(194, "id", &json!(5)).is_none());
        assert!(refuse_narrow_term(248, "has", &json!("reaction")).is_some());
        assert!(refuse_narrow_term(249, "has", &json!("reaction")).is_none());
        assert!(refuse_narrow_term(264, "is", &json!("followed")).is_some());
        assert!(refuse_narrow_term(265, "is", &json!("followed")).is_none());
        assert!(refuse_narrow_term(365, "is", &json!("muted")).is_some());
        assert!(refuse_narrow_term(366, "is", &json!("muted")).is_none());
        assert!(refuse_narrow_term(185, "is", &json!("starred")).is_none());
        for level in [185, 456, 503] {
            assert_eq!(
                msg(refuse_narrow_term(level, "dm-with", &json!("a@b"))).as_deref(),
                Some("Invalid narrow operator: unknown operator dm-with"),
                "no level has dm-with"
            );
            assert!(refuse_narrow_term(level, "dm-with", &json!(5)).unwrap().msg.contains("is not a string"));
        }
        assert!(refuse_narrow_term(445, "mentions", &json!(5)).is_some());
        assert!(refuse_narrow_term(446, "mentions", &json!(5)).is_none());
        assert_eq!(
            msg(refuse_narrow_term(488, "channels", &json!("archived"))).as_deref(),
            Some("Invalid narrow operator: unknown channels operand archived")
        );
        assert!(refuse_narrow_term(489, "channels", &json!("archived")).is_none());
    }

    #[test]
    fn the_version_follows_the_level() {
        assert_eq!(version(185), "7.0");
        assert_eq!(version(218), "8.0-dev");
        assert_eq!(version(289), "10.0-dev");
        assert_eq!(version(420), "11.0-dev");
        assert_eq!(version(421), "11.0");
        assert_eq!(version(423), "11.1");
        assert_eq!(version(489), "12.0-dev");
        assert_eq!(version(498), "12.0");
        assert_eq!(version(500), "12.1");
        assert_eq!(version(503), "13.0-dev");
        assert_eq!(version(512), "13.0-dev");
    }

    #[test]
    fn a_change_backported_to_12x_is_in_its_maintenance_levels_not_the_early_13_ones() {
        assert!(!has(498, EXPORT_FROM_PRIOR_SERVER, 499));
        assert!(has(499, EXPORT_FROM_PRIOR_SERVER, 499) && has(501, EXPORT_FROM_PRIOR_SERVER, 499));
        assert!(!has(502, EXPORT_FROM_PRIOR_SERVER, 499) && !has(505, EXPORT_FROM_PRIOR_SERVER, 499));
        assert!(has(506, EXPORT_FROM_PRIOR_SERVER, 499) && has(512, EXPORT_FROM_PRIOR_SERVER, 499));
    }

    #[test]
    fn typing_takes_a_list_of_user_ids_only() {
        assert_eq!(typing_recipients("[5, 6]").ok(), Some(vec![5, 6]));
        assert_eq!(typing_recipients("5").unwrap_err().msg, "to is not a list");
        assert_eq!(typing_recipients("[\"a@b\"]").unwrap_err().msg, "to[0] is not an integer");
        assert_eq!(typing_recipients("a@b").unwrap_err().msg, "to is not valid JSON");
        assert!(typing_type(214, "private").is_ok() && typing_type(215, "private").is_err());
    }

    #[test]
    fn channel_is_a_message_type_from_248() {
        assert_eq!(message_type(247, "channel").unwrap_err().msg, "Invalid type");
        assert_eq!(message_type(248, "channel").ok(), Some(true));
        assert_eq!(message_type(185, "stream").ok(), Some(true));
    }

    #[test]
    fn the_client_is_the_parameter_or_the_user_agents_product() {
        assert_eq!(client_name(None, Some("ZulipTerminal/0.7.0 (Linux)")), "ZulipTerminal");
        assert_eq!(client_name(Some("website".into()), Some("x/1")), "website");
        assert_eq!(client_name(None, None), "Unspecified");
        assert!(
            sent_by_human("ZulipTerminal") && !sent_by_human("topicterm") && !sent_by_human("ZulipPython")
        );
    }
}
