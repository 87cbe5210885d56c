//! What changed from Zulip 11 to today's Zulip Cloud (feature levels 421–503), each fact on
//! both sides of its level, against the demo server started at that level: it behaves as a
//! real server of that level (issue 41; `shared/spec/api-changelog-since-11.md`).

use crate::common::*;
use serde_json::{Value, json};
use std::time::Duration;
use topicterm::server::ServerOptions;
use topicterm::server::levels::*;

async fn at(level: i64) -> Env {
    Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await
}

/// `GET /messages` with one narrow term, raw: (status, body).
async fn narrowed(env: &Env, op: &str, operand: Value) -> (u16, Value) {
    let narrow = json!([{"operator": op, "operand": operand}]).to_string();
    let page = [("anchor", "newest"), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow.as_str())];
    env.raw("member", "GET", "/messages", &page).await
}

fn message_ids(body: &Value) -> Vec<i64> {
    body["messages"]
        .as_array()
        .map(|m| m.iter().filter_map(|m| m["id"].as_i64()).collect())
        .unwrap_or_default()
}

/// Register raw with these parameters; the whole answer.
async fn register(env: &Env, who: &str, params: &[(&str, &str)]) -> Value {
    let (status, body) = env.raw(who, "POST", "/register", params).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn the_default_is_level_512_and_the_version_follows_the_level() {
    let env = Env::start().await;
    let reg = register(&env, "member", &[("fetch_event_types", "[]")]).await;
    assert_eq!(
        (reg["zulip_feature_level"].as_i64(), reg["zulip_version"].as_str()),
        (Some(512), Some("13.0-dev"))
    );
    for (level, version) in
        [(218, "8.0-dev"), (420, "11.0-dev"), (421, "11.0"), (489, "12.0-dev"), (498, "12.0")]
    {
        let env = at(level).await;
        let reg = register(&env, "member", &[("fetch_event_types", "[]")]).await;
        assert_eq!(reg["zulip_version"], version, "level {level}");
        assert_eq!(reg["zulip_merge_base"], version, "level {level}");
        let (_, settings) = env.raw("", "GET", "/server_settings", &[]).await;
        assert_eq!(settings["zulip_version"], version, "level {level}");
        assert_eq!(settings["authentication_methods"].get("discord").is_some(), level >= DISCORD_AUTH);
    }
}

/// No server has a `dm-with` operator; the validator's order decides the error: an integer
/// operand fails the string check (worded per level), a string one is an unknown operator.
#[tokio::test]
async fn dm_with_is_refused_at_every_level() {
    for (level, not_a_string) in [
        (218, "elem[\"operand\"] is not a string"),
        (456, "operand is not a string"),
        (503, "operand is not a string"),
    ] {
        let env = at(level).await;
        let alice = env.user_id("alice");
        let (status, body) = narrowed(&env, "dm-with", alice.into()).await;
        assert_eq!((status, body["msg"].as_str()), (400, Some(not_a_string)), "level {level}: {body}");
        let (status, body) = narrowed(&env, "dm-with", env.creds("alice").email.into()).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")), "level {level}");
        assert_eq!(body["msg"], "Invalid narrow operator: unknown operator dm-with");
        // What the client sends instead.
        let (status, body) = narrowed(&env, "dm-including", alice.into()).await;
        assert_eq!(status, 200, "level {level}: {body}");
    }
}

#[tokio::test]
async fn mentions_from_446() {
    for level in [MENTIONS_OPERATOR - 1, MENTIONS_OPERATOR] {
        let env = at(level).await;
        let me = env.user_id("member");
        let general = env.channel_id("general").to_string();
        let mention =
            [("type", "stream"), ("to", &general), ("topic", "m"), ("content", "hi @**Maya Lindqvist**")];
        let (_, sent) = env.raw("alice", "POST", "/messages", &mention).await;
        let (status, body) = narrowed(&env, "mentions", me.into()).await;
        if level < MENTIONS_OPERATOR {
            assert_eq!((status, body["msg"].as_str()), (400, Some("operand is not a string")), "{body}");
            let (status, body) = narrowed(&env, "mentions", env.creds("member").email.into()).await;
            assert_eq!(
                (status, body["msg"].as_str()),
                (400, Some("Invalid narrow operator: unknown operator mentions"))
            );
        } else {
            assert_eq!(status, 200, "{body}");
            assert!(message_ids(&body).contains(&sent["id"].as_i64().unwrap()), "{body}");
        }
    }
}

/// `channels:archived` (489): the messages the user received in archived channels.
#[tokio::test]
async fn channels_archived_from_489() {
    for level in [CHANNELS_ARCHIVED - 1, CHANNELS_ARCHIVED] {
        let env = at(level).await;
        let general = env.channel_id("general");
        let (_, sent) = env
            .raw(
                "alice",
                "POST",
                "/messages",
                &[("type", "stream"), ("to", &general.to_string()), ("topic", "old"), ("content", "before")],
            )
            .await;
        let (status, body) = env.raw("admin", "DELETE", &format!("/streams/{general}"), &[]).await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = narrowed(&env, "channels", "archived".into()).await;
        if level < CHANNELS_ARCHIVED {
            assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")), "{body}");
            assert_eq!(body["msg"], "Invalid narrow operator: unknown channels operand archived");
        } else {
            assert_eq!(status, 200, "{body}");
            let ids = message_ids(&body);
            assert!(ids.contains(&sent["id"].as_i64().unwrap()), "{body}");
            let messages = body["messages"].as_array().unwrap();
            assert!(messages.iter().all(|m| m["stream_id"] == general), "only the archived channel's");
        }
        let (_, body) = narrowed(&env, "channels", "nonsense".into()).await;
        assert_eq!(body["msg"], "Invalid narrow operator: unknown channels operand nonsense");
    }
}

#[tokio::test]
async fn reaction_events_carry_user_only_before_484() {
    for level in [REACTION_WITHOUT_USER - 1, REACTION_WITHOUT_USER] {
        let env = at(level).await;
        let queue = env.queue("member", r#"["reaction"]"#).await;
        let general = env.channel_id("general").to_string();
        let (_, sent) = env
            .raw(
                "alice",
                "POST",
                "/messages",
                &[("type", "stream"), ("to", &general), ("topic", "r"), ("content", "x")],
            )
            .await;
        let id = sent["id"].as_i64().unwrap();
        env.raw("alice", "POST", &format!("/messages/{id}/reactions"), &[("emoji_name", "smile")]).await;
        let evs = env.events("member", &queue).await;
        let ev = evs.iter().find(|e| e["type"] == "reaction").expect("a reaction event");
        assert_eq!(ev["user_id"], env.user_id("alice"));
        if level < REACTION_WITHOUT_USER {
            assert_eq!(ev["user"]["full_name"], "Alice Okafor");
            assert_eq!(ev["user"]["is_mirror_dummy"], false);
        } else {
            assert!(ev.get("user").is_none(), "{ev}");
        }
    }
}

/// The legacy settings events: before 439 beside `user_settings` (not to a client that declared
/// `user_settings_object`); from 439 never.
#[tokio::test]
async fn legacy_settings_events_only_before_439() {
    for level in [NO_LEGACY_SETTINGS_EVENTS - 1, NO_LEGACY_SETTINGS_EVENTS] {
        let env = at(level).await;
        let types = r#"["user_settings","update_display_settings","update_global_notifications"]"#;
        let legacy_client = env.queue("member", types).await;
        let modern = register(
            &env,
            "member",
            &[("event_types", types), ("client_capabilities", r#"{"user_settings_object": true}"#)],
        )
        .await["queue_id"]
            .as_str()
            .unwrap()
            .to_owned();
        let (status, body) = env
            .raw("member", "PATCH", "/settings", &[("color_scheme", "3"), ("enable_sounds", "false")])
            .await;
        assert_eq!(status, 200, "{body}");
        let kinds = |evs: Vec<Value>| -> Vec<String> {
            evs.iter().map(|e| e["type"].as_str().unwrap_or_default().to_owned()).collect()
        };
        let legacy = kinds(env.events("member", &legacy_client).await);
        let old = level < NO_LEGACY_SETTINGS_EVENTS;
        assert_eq!(legacy.iter().filter(|t| *t == "user_settings").count(), 2, "{legacy:?}");
        assert_eq!(legacy.contains(&"update_display_settings".to_owned()), old, "level {level}: {legacy:?}");
        assert_eq!(legacy.contains(&"update_global_notifications".to_owned()), old, "level {level}");
        let modern = kinds(env.events("member", &modern).await);
        assert!(modern.iter().all(|t| t == "user_settings") && modern.len() == 2, "{modern:?}");
    }
}

#[tokio::test]
async fn bot_objects_lose_what_the_user_list_says_at_474() {
    for level in [SLIM_BOT_OBJECTS - 1, SLIM_BOT_OBJECTS] {
        let env = at(level).await;
        let reg = register(&env, "admin", &[("fetch_event_types", r#"["realm_bot"]"#)]).await;
        let bots = reg["realm_bots"].as_array().unwrap();
        assert!(!bots.is_empty());
        for bot in bots {
            let keys: Vec<&str> = bot.as_object().unwrap().keys().map(String::as_str).collect();
            for key in [
                "user_id",
                "default_sending_stream",
                "default_events_register_stream",
                "default_all_public_streams",
                "services",
            ] {
                assert!(keys.contains(&key), "level {level}: {key} in {bot}");
            }
            for key in ["full_name", "email", "bot_type", "avatar_url", "owner_id", "is_active", "api_key"] {
                assert_eq!(keys.contains(&key), level < SLIM_BOT_OBJECTS, "level {level}: {key} in {bot}");
            }
        }
    }
}

/// `idle_queue_timeout` (481): how long a queue lives without a poll, in seconds or `mobile`,
/// at most a week; before 481 the parameter is ignored (and said to be).
#[tokio::test]
async fn the_queue_lifetime_follows_idle_queue_timeout_from_481() {
    for level in [IDLE_QUEUE_TIMEOUT - 1, IDLE_QUEUE_TIMEOUT] {
        let env = at(level).await;
        let short =
            register(&env, "member", &[("fetch_event_types", "[]"), ("idle_queue_timeout", "60")]).await;
        let default = register(&env, "member", &[("fetch_event_types", "[]")]).await;
        let modern = level >= IDLE_QUEUE_TIMEOUT;
        if modern {
            assert_eq!(short["idle_queue_timeout_secs"], 60);
            assert_eq!(default["idle_queue_timeout_secs"], 600);
            assert!(short.get("ignored_parameters_unsupported").is_none(), "{short}");
        } else {
            assert!(short.get("idle_queue_timeout_secs").is_none());
            assert_eq!(short["ignored_parameters_unsupported"], json!(["idle_queue_timeout"]));
        }
        let (short, default) = (short["queue_id"].as_str().unwrap(), default["queue_id"].as_str().unwrap());
        for q in [short, default] {
            env.server.shared.lock().queues.age(q, Duration::from_secs(61));
        }
        let poll = |q: &str| {
            let q = q.to_owned();
            let env = &env;
            async move {
                let p = [("queue_id", q.as_str()), ("last_event_id", "-1"), ("dont_block", "true")];
                env.raw("member", "GET", "/events", &p).await
            }
        };
        let (status, body) = poll(short).await;
        if modern {
            assert_eq!((status, body["code"].as_str()), (400, Some("BAD_EVENT_QUEUE_ID")), "{body}");
        } else {
            assert_eq!(status, 200, "level {level}: the server's ten minutes: {body}");
        }
        assert_eq!(poll(default).await.0, 200, "level {level}: ten minutes by default");
    }
    let env = at(IDLE_QUEUE_TIMEOUT).await;
    for (given, secs) in [("mobile", 12 * 3600), ("100000000", 7 * 24 * 3600)] {
        let reg =
            register(&env, "member", &[("fetch_event_types", "[]"), ("idle_queue_timeout", given)]).await;
        assert_eq!(reg["idle_queue_timeout_secs"], secs, "{given}");
    }
    let (status, _) = env.raw("member", "POST", "/register", &[("idle_queue_timeout", "soon")]).await;
    assert_eq!(status, 400);
}

/// `GET /users/{id}/presence`: legacy before 487 (`endpoints13.rs`), modern from 487, both with
/// the server's time from 497.
#[tokio::test]
async fn one_users_presence_by_level() {
    for level in [MODERN_USER_PRESENCE, USER_PRESENCE_BOTH - 1, USER_PRESENCE_BOTH] {
        let env = at(level).await;
        env.raw("alice", "POST", "/users/me/presence", &[("status", "active")]).await;
        let alice = env.user_id("alice");
        let (status, r) = env.raw("member", "GET", &format!("/users/{alice}/presence"), &[]).await;
        assert_eq!(status, 200, "{r}");
        let p = &r["presence"];
        assert!(p["active_timestamp"].as_i64().is_some() && p["idle_timestamp"].as_i64().is_some(), "{r}");
        let both = level >= USER_PRESENCE_BOTH;
        assert_eq!(p.get("aggregated").is_some(), both, "level {level}: {r}");
        assert_eq!(r.get("server_timestamp").is_some(), both, "level {level}: {r}");
        if both {
            assert_eq!(p["aggregated"]["status"], "active");
            assert_eq!(p["website"]["timestamp"], p["active_timestamp"]);
        }
    }
}

/// Upload a custom emoji as `who`.
async fn upload_emoji(env: &Env, who: &str, name: &str) {
    let creds = env.creds(who);
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(b"GIF89a".to_vec()).file_name("e.gif"));
    let resp = reqwest::Client::new()
        .post(format!("{}/api/v1/realm/emoji/{name}", env.server.url))
        .basic_auth(&creds.email, Some(&creds.api_key))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
}

/// `individual_emoji_changes` (491): a queue that declared it gets one `add` or `update_one`
/// per change; others (and every queue before 491) the whole map.
#[tokio::test]
async fn custom_emoji_events_one_by_one_from_491() {
    for level in [INDIVIDUAL_EMOJI_CHANGES - 1, INDIVIDUAL_EMOJI_CHANGES] {
        let env = at(level).await;
        let caps = r#"{"individual_emoji_changes": true}"#;
        let declared =
            register(&env, "member", &[("event_types", r#"["realm_emoji"]"#), ("client_capabilities", caps)])
                .await["queue_id"]
                .as_str()
                .unwrap()
                .to_owned();
        let plain = env.queue("member", r#"["realm_emoji"]"#).await;
        upload_emoji(&env, "member", "party").await;
        let (status, body) = env.raw("alice", "DELETE", "/realm/emoji/party", &[]).await;
        assert_eq!(
            (status, body["msg"].as_str()),
            (400, Some("Must be an organization administrator or emoji author"))
        );
        let (status, body) = env.raw("member", "DELETE", "/realm/emoji/party", &[]).await;
        assert_eq!(status, 200, "{body}");
        let (status, _) = env.raw("member", "DELETE", "/realm/emoji/party", &[]).await;
        assert_eq!(status, 404, "already deactivated");
        let ops =
            |evs: Vec<Value>| evs.into_iter().filter(|e| e["type"] == "realm_emoji").collect::<Vec<_>>();
        let legacy = ops(env.events("member", &plain).await);
        assert_eq!(legacy.len(), 2);
        assert!(legacy.iter().all(|e| e["op"] == "update"), "{legacy:?}");
        let party = |e: &Value| {
            e["realm_emoji"].as_object().unwrap().values().find(|x| x["name"] == "party").cloned()
        };
        assert_eq!(party(&legacy[1]).unwrap()["deactivated"], true);
        let mine = ops(env.events("member", &declared).await);
        if level < INDIVIDUAL_EMOJI_CHANGES {
            assert_eq!(mine, legacy, "the capability means nothing before 491");
        } else {
            assert_eq!(
                (mine[0]["op"].as_str(), mine[0]["emoji"]["name"].as_str()),
                (Some("add"), Some("party"))
            );
            assert_eq!(mine[0]["emoji"]["author_id"], env.user_id("member"));
            let id = mine[0]["emoji"]["id"].clone();
            assert_eq!(
                mine[1],
                json!({"type": "realm_emoji", "op": "update_one", "emoji_id": id,
                                       "data": {"deactivated": true}, "id": mine[1]["id"]})
            );
        }
        // A deactivated emoji is no longer drawn.
        let (_, r) = env.raw("member", "POST", "/messages/render", &[("content", ":party:")]).await;
        assert_eq!(r["rendered"], "<p>:party:</p>");
    }
}

#[tokio::test]
async fn a_description_change_is_update_dict_from_464() {
    for level in [RENDERED_REALM_DESCRIPTION - 1, RENDERED_REALM_DESCRIPTION, DESCRIPTION_UPDATE_DICT] {
        let env = at(level).await;
        let queue = env.queue("member", r#"["realm"]"#).await;
        let (status, body) = env.raw("admin", "PATCH", "/realm", &[("description", "Our **org**")]).await;
        assert_eq!(status, 200, "{body}");
        let ev = env.events("member", &queue).await.into_iter().find(|e| e["type"] == "realm").unwrap();
        let rendered = "<p>Our <strong>org</strong></p>";
        if level >= DESCRIPTION_UPDATE_DICT {
            assert_eq!((ev["op"].as_str(), ev["property"].as_str()), (Some("update_dict"), Some("default")));
            assert_eq!(ev["data"], json!({"description": "Our **org**", "rendered_description": rendered}));
        } else {
            assert_eq!((ev["op"].as_str(), ev["property"].as_str()), (Some("update"), Some("description")));
            assert_eq!(ev["value"], "Our **org**");
            assert_eq!(ev.get("rendered_description").is_some(), level >= RENDERED_REALM_DESCRIPTION);
        }
        let reg = register(&env, "member", &[("fetch_event_types", r#"["realm"]"#)]).await;
        assert_eq!(reg["realm_description"], "Our **org**");
    }
}

/// Global times (451: an unreadable one as text; 503: ISO 8601 only) and `.mov` videos (495),
/// as the server renders them.
#[tokio::test]
async fn rendering_by_level() {
    let env = at(INVALID_TIME_AS_TEXT - 1).await;
    assert_eq!(
        render(&env, "<time:soon>").await,
        "<p><span class=\"timestamp-error\">Invalid time format: soon</span></p>"
    );
    let env = at(INVALID_TIME_AS_TEXT).await;
    assert_eq!(render(&env, "<time:soon>").await, "<p>&lt;time:soon&gt;</p>");
    let env = at(TIME_ISO_ONLY - 1).await;
    assert_eq!(
        render(&env, "<time:1733000000>").await,
        "<p><time datetime=\"2024-11-30T20:53:20Z\">1733000000</time></p>"
    );
    let env = at(TIME_ISO_ONLY).await;
    assert_eq!(render(&env, "<time:1733000000>").await, "<p>&lt;time:1733000000&gt;</p>");
    assert_eq!(
        render(&env, "<time:2026-11-25T10:00-05:00>").await,
        "<p><time datetime=\"2026-11-25T15:00:00Z\">2026-11-25T10:00-05:00</time></p>"
    );
    let mov = "[clip.mov](/user_uploads/2/ab/clip.mov)";
    assert!(!render(&at(QUICKTIME_VIDEO - 1).await, mov).await.as_str().unwrap().contains("<video"));
    assert!(render(&at(QUICKTIME_VIDEO).await, mov).await.as_str().unwrap().contains("message_inline_video"));
}

async fn render(env: &Env, content: &str) -> Value {
    env.raw("member", "POST", "/messages/render", &[("content", content)]).await.1["rendered"].clone()
}

/// Register fields that came or went between 421 and 503.
#[tokio::test]
async fn register_fields_by_level() {
    let has = |reg: &Value, key: &str| reg.get(key).is_some();
    for level in [NO_ZEPHYR_MIRROR_FIELD - 1, TENOR, GIF_RATING_POLICY, KLIPY, 503] {
        let env = at(level).await;
        let reg = register(&env, "member", &[]).await;
        assert_eq!(
            has(&reg, "realm_is_zephyr_mirror_realm"),
            level < NO_ZEPHYR_MIRROR_FIELD,
            "level {level}"
        );
        assert_eq!(has(&reg, "realm_giphy_rating"), level < GIF_RATING_POLICY, "level {level}");
        assert_eq!(has(&reg, "realm_gif_rating_policy"), level >= GIF_RATING_POLICY, "level {level}");
        assert_eq!(has(&reg, "giphy_rating_options"), level < TENOR, "level {level}");
        assert_eq!(
            has(&reg, "gif_rating_options"),
            (TENOR..GIF_RATING_POLICY).contains(&level),
            "level {level}"
        );
        assert_eq!(has(&reg, "tenor_api_key"), level >= TENOR, "level {level}");
        assert_eq!(has(&reg, "klipy_api_key"), level >= KLIPY, "level {level}");
        assert_eq!(has(&reg, "realm_default_avatar_source"), level >= DEFAULT_AVATAR_SOURCE, "level {level}");
        let user = &reg["realm_users"][0];
        assert_eq!(has(user, "is_imported_stub"), level >= IMPORTED_STUB, "level {level}");
        assert_eq!(has(user, "is_deleted"), level >= USER_IS_DELETED, "level {level}");
    }
}

/// `anchor=date` (445): before it a server reads `date` as a message ID and refuses it.
#[tokio::test]
async fn a_date_anchor_from_445() {
    for level in [ANCHOR_DATE - 1, ANCHOR_DATE] {
        let env = at(level).await;
        let page =
            [("anchor", "date"), ("anchor_date", "2020-01-01"), ("num_before", "0"), ("num_after", "1")];
        let (status, body) = env.raw("member", "GET", "/messages", &page).await;
        if level < ANCHOR_DATE {
            assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid anchor")), "{body}");
        } else {
            assert_eq!(status, 200, "{body}");
        }
    }
}
