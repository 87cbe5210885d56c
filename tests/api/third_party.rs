//! The shapes clients nobody here wrote rely on (zulip-terminal, the Python bindings, bots,
//! zulip-js), each where the demo server differed from the reference server: register's
//! `realm_*` settings, reaction events' `user`, the two events of a mute, every setting of
//! `PATCH /settings` (and its legacy paths), a message's `client`, `POST /typing`'s `to`, and a
//! topic move's `topic_links`.

use crate::common::*;
use serde_json::Value;

/// Register with raw parameters, as a third-party client does; the whole answer.
async fn register(env: &Env, who: &str, params: &[(&str, &str)]) -> Value {
    let (status, body) = env.raw(who, "POST", "/register", params).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn register_carries_the_organizations_settings() {
    let env = Env::start().await;
    let reg = register(&env, "member", &[]).await;
    // What zulip-terminal reads before editing, and a sample of the rest.
    for key in [
        "realm_allow_message_editing",
        "realm_message_content_edit_limit_seconds",
        "realm_allow_edit_history",
        "realm_move_messages_within_stream_limit_seconds",
        "realm_can_move_messages_between_topics_group",
        "realm_enable_read_receipts",
        "realm_default_language",
        "realm_url",
        "realm_video_chat_provider",
        "realm_linkifiers",
        "realm_default_streams",
        "realm_user_settings_defaults",
    ] {
        assert!(reg.get(key).is_some(), "register lacks {key}");
    }
    let count = reg.as_object().unwrap().keys().filter(|k| k.starts_with("realm_")).count();
    assert!(count >= 100, "{count} realm_* fields");
    assert_eq!(reg["realm_allow_message_editing"], true);
    assert_eq!(reg["realm_message_content_edit_limit_seconds"], 600);
    // Only what was asked for.
    let only = register(&env, "member", &[("fetch_event_types", r#"["message"]"#)]).await;
    assert!(only.get("realm_allow_message_editing").is_none() && only.get("realm_linkifiers").is_none());
}

/// Before level 484 a reaction event names the reacting user in `user` (zulip-terminal 0.7.0
/// reads it); from 484 it carries only `user_id`, as a real 12.x server.
#[tokio::test]
async fn reaction_events_name_the_user_before_484() {
    let env = Env::start_with(topicterm::server::ServerOptions {
        feature_level: topicterm::server::levels::REACTION_WITHOUT_USER - 1,
        ..Default::default()
    })
    .await;
    let reg = register(&env, "member", &[("event_types", r#"["reaction"]"#)]).await;
    let queue = reg["queue_id"].as_str().unwrap().to_owned();
    let alice = env.client("alice");
    let general = env.channel_id("general");
    let id = alice
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "reactions", "react to me"))
        .await
        .unwrap()
        .id;
    let (status, body) =
        env.raw("alice", "POST", &format!("/messages/{id}/reactions"), &[("emoji_name", "smile")]).await;
    assert_eq!(status, 200, "{body}");
    let evs = env.events("member", &queue).await;
    let ev = evs.iter().find(|e| e["type"] == "reaction").expect("a reaction event");
    assert_eq!(ev["user"]["user_id"], env.user_id("alice"));
    assert_eq!(ev["user"]["full_name"], "Alice Okafor");
    assert!(ev["user"]["email"].as_str().is_some_and(|e| e.contains('@')), "{ev}");
    assert_eq!(ev["user"]["is_mirror_dummy"], false);
}

#[tokio::test]
async fn muting_a_channel_sends_in_home_view_then_is_muted() {
    let env = Env::start().await;
    let reg = register(&env, "member", &[("event_types", r#"["subscription"]"#)]).await;
    let queue = reg["queue_id"].as_str().unwrap().to_owned();
    let general = env.channel_id("general");
    let data = format!(r#"[{{"stream_id": {general}, "property": "is_muted", "value": true}}]"#);
    let (status, body) = env
        .raw("member", "POST", "/users/me/subscriptions/properties", &[("subscription_data", &data)])
        .await;
    assert_eq!(status, 200, "{body}");
    let evs: Vec<(String, Value)> = env
        .events("member", &queue)
        .await
        .into_iter()
        .filter(|e| e["type"] == "subscription")
        .map(|e| (e["property"].as_str().unwrap_or_default().to_owned(), e["value"].clone()))
        .collect();
    assert_eq!(
        evs,
        vec![("in_home_view".to_owned(), Value::Bool(false)), ("is_muted".to_owned(), Value::Bool(true))]
    );
}

/// At level 438, the last with the legacy settings events (`update_display_settings`), as
/// older third-party clients read them; `levels12.rs` has both sides of 439.
#[tokio::test]
async fn every_documented_setting_is_kept_and_the_legacy_paths_work() {
    let env = Env::start_with(topicterm::server::ServerOptions {
        feature_level: topicterm::server::levels::NO_LEGACY_SETTINGS_EVENTS - 1,
        ..Default::default()
    })
    .await;
    let reg =
        register(&env, "member", &[("event_types", r#"["user_settings","update_display_settings"]"#)]).await;
    let queue = reg["queue_id"].as_str().unwrap().to_owned();
    let changes = [
        ("twenty_four_hour_time", "true"),
        ("color_scheme", "3"),
        ("emojiset", "twitter"),
        ("enter_sends", "true"),
        ("web_home_view", "all_messages"),
        ("enable_sounds", "false"),
        ("email_notifications_batching_period_seconds", "300"),
        ("resolved_topic_notice_auto_read_policy", "never"),
    ];
    let (status, body) = env.raw("member", "PATCH", "/settings", &changes).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("ignored_parameters_unsupported").is_none(), "{body}");
    let (status, body) = env.raw("member", "PATCH", "/settings/display", &[("default_language", "de")]).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) =
        env.raw("member", "PATCH", "/settings/notifications", &[("enable_digest_emails", "false")]).await;
    assert_eq!(status, 200, "{body}");
    let settings = register(&env, "member", &[("client_capabilities", r#"{"user_settings_object": true}"#)])
        .await["user_settings"]
        .clone();
    assert_eq!(settings["twenty_four_hour_time"], true);
    assert_eq!(settings["color_scheme"], 3);
    assert_eq!(settings["emojiset"], "twitter");
    assert_eq!(settings["web_home_view"], "all_messages");
    assert_eq!(settings["email_notifications_batching_period_seconds"], 300);
    assert_eq!(settings["default_language"], "de");
    assert_eq!(settings["enable_digest_emails"], false);
    let evs = env.events("member", &queue).await;
    assert!(
        evs.iter()
            .any(|e| e["type"] == "user_settings" && e["property"] == "color_scheme" && e["value"] == 3)
    );
    assert!(
        evs.iter().any(|e| e["type"] == "update_display_settings" && e["setting_name"] == "color_scheme")
    );
    // A value outside the choices, or of the wrong type, refuses the whole request.
    let (status, body) =
        env.raw("member", "PATCH", "/settings", &[("color_scheme", "9"), ("enter_sends", "false")]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid color_scheme")));
    let (status, body) = env.raw("member", "PATCH", "/settings", &[("enter_sends", "maybe")]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("enter_sends is not a boolean")));
}

#[tokio::test]
async fn a_message_records_the_client_that_sent_it() {
    let env = Env::start().await;
    let general = env.channel_id("general").to_string();
    let send =
        [("type", "stream"), ("to", general.as_str()), ("topic", "clients"), ("content", "from a bot")];
    let (_, body) =
        env.raw("member", "POST", "/messages", &[&send[..], &[("client", "ZulipPython")]].concat()).await;
    let by_param = body["id"].as_i64().unwrap();
    // With no parameter, the User-Agent's product names it (topicterm's own client here).
    let c = env.client("member");
    let by_agent = c
        .send_message(&topicterm::api::OutgoingMessage::channel(env.channel_id("general"), "clients", "x"))
        .await
        .unwrap()
        .id;
    let client_of = |id: i64| env.server.shared.lock().messages[&id].client.clone();
    assert_eq!(client_of(by_param), "ZulipPython");
    assert_eq!(client_of(by_agent), "topicterm");
}

#[tokio::test]
async fn typing_takes_a_json_list_of_user_ids_only() {
    let env = Env::start().await;
    let alice = env.user_id("alice").to_string();
    let list = format!("[{alice}]");
    let (status, body) = env.raw("member", "POST", "/typing", &[("op", "start"), ("to", &list)]).await;
    assert_eq!(status, 200, "{body}");
    let email = env.creds("alice").email;
    let emails = format!("[\"{email}\"]");
    let (status, body) = env.raw("member", "POST", "/typing", &[("op", "start"), ("to", &emails)]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("to[0] is not an integer")));
    let (status, body) = env.raw("member", "POST", "/typing", &[("op", "start"), ("to", &alice)]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("to is not a list")));
}

#[tokio::test]
async fn a_topic_move_event_carries_topic_links() {
    let env = Env::start().await;
    let reg = register(&env, "member", &[("event_types", r#"["update_message"]"#)]).await;
    let queue = reg["queue_id"].as_str().unwrap().to_owned();
    let general = env.channel_id("general");
    let admin = env.client("admin");
    let id = admin
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "before the move", "moving"))
        .await
        .unwrap()
        .id;
    let (status, body) = env
        .raw(
            "admin",
            "PATCH",
            &format!("/messages/{id}"),
            &[("topic", "after the move"), ("propagate_mode", "change_all")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let evs = env.events("member", &queue).await;
    let ev = evs.iter().find(|e| e["type"] == "update_message").expect("the move");
    assert_eq!(ev["subject"], "after the move");
    assert!(ev["topic_links"].is_array(), "{ev}");
}
