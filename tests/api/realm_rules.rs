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

/// A channel's own permission groups (levels 396–407) widen the organization's: a member the
/// organization does not let move messages may in a channel whose
/// `can_move_messages_within_channel_group` holds them, delete their own messages where its
/// `can_delete_own_message_group` does. Sent with the channel from their levels (`role:nobody`
/// by default), changed by `PATCH /streams/{id}` with a `stream` update event; before 396 they
/// are neither sent nor read.
#[tokio::test]
async fn a_channels_own_groups_let_what_the_organizations_do_not() {
    for level in [395, topicterm::server::org::FEATURE_LEVEL] {
        let env = at(level).await;
        let general = env.server.shared.lock().channel_named("general").unwrap().id;
        let (admins, members) = (env.group_id("role:administrators"), env.group_id("role:members"));
        let (status, subs) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
        assert_eq!(status, 200);
        let sub =
            subs["subscriptions"].as_array().unwrap().iter().find(|s| s["stream_id"] == general).unwrap();
        let own = level >= 396;
        assert_eq!(sub.get("can_move_messages_within_channel_group").is_some(), own, "level {level}: {sub}");
        if own {
            assert_eq!(sub["can_move_messages_within_channel_group"], env.group_id("role:nobody"));
            assert_eq!(sub["can_delete_own_message_group"], env.group_id("role:nobody"));
        }
        // The organization lets only administrators move messages and delete their own.
        for setting in ["can_move_messages_between_topics_group", "can_delete_own_message_group"] {
            let change = json!({"new": admins}).to_string();
            let (status, body) = env.raw("admin", "PATCH", "/realm", &[(setting, &change)]).await;
            assert_eq!(status, 200, "{body}");
        }
        let mine = stored(&env, "member", 60);
        let path = format!("/messages/{mine}");
        let (status, body) = env.raw("member", "PATCH", &path, &[("topic", "moved by the channel")]).await;
        assert_eq!(
            (status, body["msg"].as_str()),
            (400, Some("You don't have permission to edit this message"))
        );
        // The channel lets its members: the same move goes through from 396 on.
        let queue = env.queue("member", r#"["stream"]"#).await;
        let change = json!({"new": members}).to_string();
        let stream = format!("/streams/{general}");
        let params = [
            ("can_move_messages_within_channel_group", change.as_str()),
            ("can_delete_own_message_group", change.as_str()),
        ];
        let (status, body) = env.raw("admin", "PATCH", &stream, &params).await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = env.raw("member", "PATCH", &path, &[("topic", "moved by the channel")]).await;
        if !own {
            assert_eq!(status, 400, "level {level}: the channel's groups are not read: {body}");
            continue;
        }
        assert_eq!(status, 200, "level {level}: {body}");
        let ev = env.events("member", &queue).await;
        assert!(
            ev.iter().any(|e| e["op"] == "update"
                && e["property"] == "can_move_messages_within_channel_group"
                && e["value"] == members),
            "{ev:?}"
        );
        let (status, body) = env.raw("member", "DELETE", &path, &[]).await;
        assert_eq!(status, 200, "{body}");
        // Another's message still not.
        let theirs = stored(&env, "alice", 60);
        let (status, _) = env.raw("member", "DELETE", &format!("/messages/{theirs}"), &[]).await;
        assert_eq!(status, 400);
    }
}
