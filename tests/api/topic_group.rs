//! `can_create_topic_group` (feature level 441): who may start a new topic in a channel. In
//! channel objects and settable from 441, enforced on sending, scheduling and moving into a
//! topic with no message yet, in the reference server's words; nothing of it before 441.

use crate::common::*;
use serde_json::{Value, json};
use topicterm::api::{ApiError, OutgoingMessage};
use topicterm::server::ServerOptions;
use topicterm::server::levels::CAN_CREATE_TOPIC_GROUP;

const REFUSAL: &str = "You do not have permission to create new topics in this channel.";

async fn at(level: i64) -> Env {
    Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await
}

async fn send(env: &Env, who: &str, channel: i64, topic: &str) -> (u16, Value) {
    let to = channel.to_string();
    env.raw(who, "POST", "/messages", &[("type", "stream"), ("to", &to), ("topic", topic), ("content", "x")])
        .await
}

async fn set_group(env: &Env, channel: i64, change: Value) -> (u16, Value) {
    let change = change.to_string();
    env.raw("admin", "PATCH", &format!("/streams/{channel}"), &[("can_create_topic_group", &change)]).await
}

#[tokio::test]
async fn new_topics_only_for_the_group_from_441() {
    let env = at(CAN_CREATE_TOPIC_GROUP).await;
    let general = env.channel_id("general");
    let (everyone, admins) = (env.group_id("role:everyone"), env.group_id("role:administrators"));
    let (_, subs) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
    let sub = subs["subscriptions"].as_array().unwrap().iter().find(|s| s["stream_id"] == general).unwrap();
    assert_eq!(sub["can_create_topic_group"], everyone, "everyone by default");
    let (_, before) = send(&env, "member", general, "existing").await;
    let queue = env.queue("member", r#"["stream"]"#).await;
    // `old` must be what is set.
    let (status, body) = set_group(&env, general, json!({"new": admins, "old": admins})).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("'old' value does not match the expected value.")));
    let (status, body) = set_group(&env, general, json!({"new": admins, "old": everyone})).await;
    assert_eq!(status, 200, "{body}");
    let ev = env.events("member", &queue).await.into_iter().find(|e| e["type"] == "stream").unwrap();
    assert_eq!(
        (ev["op"].as_str(), ev["property"].as_str()),
        (Some("update"), Some("can_create_topic_group"))
    );
    assert_eq!(ev["value"], admins);
    // A member: an existing topic yes, a new one no (sending, scheduling, moving into it).
    assert_eq!(send(&env, "member", general, "EXISTING").await.0, 200, "the same topic, any case");
    let (status, body) = send(&env, "member", general, "brand new").await;
    assert_eq!((status, body["msg"].as_str()), (400, Some(REFUSAL)), "{body}");
    let to = general.to_string();
    let scheduled = [
        ("type", "stream"),
        ("to", to.as_str()),
        ("topic", "brand new"),
        ("content", "later"),
        ("scheduled_delivery_timestamp", "4102444800"),
    ];
    let (status, body) = env.raw("member", "POST", "/scheduled_messages", &scheduled).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some(REFUSAL)), "{body}");
    let id = before["id"].as_i64().unwrap();
    let (status, body) =
        env.raw("member", "PATCH", &format!("/messages/{id}"), &[("topic", "moved away")]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some(REFUSAL)), "{body}");
    // Resolving is not starting a topic.
    let (status, body) =
        env.raw("member", "PATCH", &format!("/messages/{id}"), &[("topic", "✔ existing")]).await;
    assert_eq!(status, 200, "{body}");
    // The typed client gets the server's words.
    let c = env.registered_client("member").await;
    match c.send_message(&OutgoingMessage::channel(general, "another new one", "x")).await {
        Err(ApiError::Server(e)) => assert_eq!(e.msg, REFUSAL),
        other => panic!("{other:?}"),
    }
    // An administrator may; an anonymous group of direct members lets the member in.
    assert_eq!(send(&env, "admin", general, "brand new").await.0, 200);
    let me = env.user_id("member");
    let (status, body) =
        set_group(&env, general, json!({"new": {"direct_members": [me], "direct_subgroups": []}})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(send(&env, "member", general, "mine now").await.0, 200);
    let (status, body) = set_group(&env, general, json!({"new": env.group_id("role:internet")})).await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (400, Some("'can_create_topic_group' setting cannot be set to 'role:internet' group."))
    );
}

#[tokio::test]
async fn before_441_there_is_no_such_setting() {
    let env = at(CAN_CREATE_TOPIC_GROUP - 1).await;
    let general = env.channel_id("general");
    let (_, subs) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
    let sub = subs["subscriptions"].as_array().unwrap().iter().find(|s| s["stream_id"] == general).unwrap();
    assert!(sub.get("can_create_topic_group").is_none(), "{sub}");
    let (status, body) = set_group(&env, general, json!({"new": env.group_id("role:administrators")})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ignored_parameters_unsupported"], json!(["can_create_topic_group"]));
    assert_eq!(send(&env, "member", general, "brand new").await.0, 200);
}
