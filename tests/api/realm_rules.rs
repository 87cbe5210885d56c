//! The organization's rules for messages in the demo server (issue 52): sent in register at the
//! levels that have them (the groups from their levels, the role policies before), changed by
//! an administrator's `PATCH /realm` with the events of that level, and applied to edits,
//! moves, deletions and direct messages in the reference server's words.

use crate::common::*;
use serde_json::{Value, json};
use topicterm::server::ServerOptions;

async fn at(level: i64) -> Env {
    Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await
}

async fn register(env: &Env, who: &str) -> Value {
    let (status, body) = env.raw(who, "POST", "/register", &[("fetch_event_types", r#"["realm"]"#)]).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// A message from `who` in #general, stored `ago` seconds back.
fn stored(env: &Env, who: &str, ago: i64) -> i64 {
    let sender = env.user_id(who);
    let mut org = env.server.shared.lock();
    let at = org.now() - ago;
    let recip = topicterm::server::org::Recip::Channel {
        id: org.channel_named("general").unwrap().id,
        topic: "rules".into(),
    };
    org.insert_message(sender, recip, "x", at, "test", None)
}

#[tokio::test]
async fn register_sends_the_groups_from_their_levels_and_the_policies_before() {
    let old = register(&at(218).await, "member").await;
    assert_eq!(old["realm_message_content_edit_limit_seconds"], 600);
    assert_eq!(old["realm_allow_message_editing"], true);
    assert_eq!(old["realm_edit_topic_policy"], 5, "everyone");
    assert_eq!(old["realm_move_messages_between_streams_policy"], 1, "members");
    assert!(old.get("realm_can_move_messages_between_topics_group").is_none(), "{old}");
    assert!(old.get("realm_topics_policy").is_none());
    assert!(old.get("realm_direct_message_permission_group").is_none());
    let env = Env::start().await;
    let new = register(&env, "member").await;
    assert_eq!(new["realm_can_move_messages_between_topics_group"], env.group_id("role:everyone"));
    assert_eq!(new["realm_can_delete_any_message_group"], env.group_id("role:administrators"));
    assert_eq!(new["realm_topics_policy"], "allow_empty_topic");
    assert!(new.get("realm_edit_topic_policy").is_none(), "{new}");
}

#[tokio::test]
async fn an_administrators_change_is_told_and_applied_in_the_reference_servers_words() {
    for level in [218, topicterm::server::org::FEATURE_LEVEL] {
        let env = at(level).await;
        let queue = env.queue("member", r#"["realm"]"#).await;
        let old = stored(&env, "member", 3600);
        let path = format!("/messages/{old}");
        let (status, body) = env.raw("member", "PATCH", &path, &[("content", "edited")]).await;
        assert_eq!(
            (status, body["msg"].as_str()),
            (400, Some("The time limit for editing this message has passed")),
            "level {level}"
        );
        // Not an administrator: refused, and nothing changes.
        let (status, _) = env
            .raw("member", "PATCH", "/realm", &[("message_content_edit_limit_seconds", "unlimited")])
            .await;
        assert_eq!(status, 400);
        let (status, body) =
            env.raw("admin", "PATCH", "/realm", &[("message_content_edit_limit_seconds", "unlimited")]).await;
        assert_eq!(status, 200, "{body}");
        let ev = env.events("member", &queue).await;
        assert!(
            ev.iter().any(|e| e["op"] == "update"
                && e["property"] == "message_content_edit_limit_seconds"
                && e["value"].is_null()),
            "level {level}: {ev:?}"
        );
        assert_eq!(env.raw("member", "PATCH", &path, &[("content", "edited")]).await.0, 200);
        env.raw("admin", "PATCH", "/realm", &[("allow_message_editing", "false")]).await;
        let (status, body) = env.raw("member", "PATCH", &path, &[("content", "again")]).await;
        assert_eq!(
            (status, body["msg"].as_str()),
            (400, Some("Your organization has turned off message editing")),
            "level {level}"
        );
        // Moving to another topic: the group from 316, the role policy before.
        let (status, body) = if level >= 316 {
            let change = json!({"new": env.group_id("role:administrators")}).to_string();
            env.raw("admin", "PATCH", "/realm", &[("can_move_messages_between_topics_group", &change)]).await
        } else {
            env.raw("admin", "PATCH", "/realm", &[("edit_topic_policy", "2")]).await
        };
        assert_eq!(status, 200, "{body}");
        let ev = env.events("member", &queue).await;
        let told = ev.iter().any(|e| match level >= 316 {
            true => {
                e["op"] == "update_dict" && e["data"]["can_move_messages_between_topics_group"].is_number()
            }
            false => e["property"] == "edit_topic_policy" && e["value"] == 2,
        });
        assert!(told, "level {level}: {ev:?}");
        let (status, body) = env.raw("member", "PATCH", &path, &[("topic", "elsewhere")]).await;
        assert_eq!(
            (status, body["msg"].as_str()),
            (400, Some("You don't have permission to edit this message")),
            "level {level}"
        );
    }
}
