//! Zulip Cloud as it is today (feature levels 504–512, Zulip 13.0-dev; issue 53): each change on
//! both sides of its level, against the demo server started at that level.

use crate::common::*;
use serde_json::{Value, json};
use topicterm::server::ServerOptions;
use topicterm::server::levels::*;

async fn at(level: i64) -> Env {
    Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await
}

/// `member` posts to #general > `topic`; the whole answer.
async fn post(env: &Env, topic: &str, content: &str) -> Value {
    let general = env.channel_id("general").to_string();
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/messages",
            &[("type", "stream"), ("to", &general), ("topic", topic), ("content", content)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Make a message `days` older than it is.
fn age(env: &Env, id: i64, days: i64) {
    let mut org = env.server.shared.lock();
    org.messages.get_mut(&id).expect("message").timestamp -= days * 86400;
}

#[tokio::test]
async fn the_default_is_level_512_zulip_13_dev() {
    let env = Env::start().await;
    let (_, reg) = env.raw("member", "POST", "/register", &[("fetch_event_types", "[]")]).await;
    assert_eq!(
        (reg["zulip_feature_level"].as_i64(), reg["zulip_version"].as_str()),
        (Some(512), Some("13.0-dev"))
    );
}

#[tokio::test]
async fn sending_answers_the_messages_link_from_508() {
    let env = at(SEND_ANSWERS_LINK - 1).await;
    let sent = post(&env, "links", "hello").await;
    assert!(sent["id"].is_i64() && sent.get("message_url").is_none() && sent.get("message_link").is_none());

    let env = at(SEND_ANSWERS_LINK).await;
    let sent = post(&env, "release plan", "hello").await;
    let id = sent["id"].as_i64().unwrap();
    let general = env.channel_id("general");
    assert_eq!(
        sent["message_url"],
        format!("{}/#narrow/channel/{general}-general/topic/release.plan/near/{id}", env.server.url)
    );
    assert_eq!(sent["message_link"], format!("#**general>release plan@{id}**"));
    // A direct message has no channel link: a plain link to the message.
    let alice = env.user_id("alice").to_string();
    let (_, dm) = env
        .raw(
            "member",
            "POST",
            "/messages",
            &[("type", "private"), ("to", &format!("[{alice}]")), ("content", "hi")],
        )
        .await;
    let id = dm["id"].as_i64().unwrap();
    let url = format!("{}/#narrow/near/{id}", env.server.url);
    assert_eq!(
        (dm["message_url"].as_str(), dm["message_link"].clone()),
        (Some(url.as_str()), json!(format!("[💬]({url})")))
    );
}

#[tokio::test]
async fn hide_link_previews_is_a_flag_the_user_sets_from_510() {
    for level in [HIDE_LINK_PREVIEWS - 1, HIDE_LINK_PREVIEWS] {
        let env = at(level).await;
        let id = post(&env, "previews", "see https://example.com").await["id"].as_i64().unwrap();
        let ids = format!("[{id}]");
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/messages/flags",
                &[("messages", &ids), ("op", "add"), ("flag", "hide_link_previews")],
            )
            .await;
        if level < HIDE_LINK_PREVIEWS {
            assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid flag: 'hide_link_previews'")));
            continue;
        }
        assert_eq!(status, 200, "{body}");
        let (_, got) = env.raw("member", "GET", &format!("/messages/{id}"), &[]).await;
        assert!(got["message"]["flags"].as_array().unwrap().contains(&json!("hide_link_previews")), "{got}");
        // Another user's flags are their own.
        let (_, theirs) = env.raw("alice", "GET", &format!("/messages/{id}"), &[]).await;
        assert!(!theirs["message"]["flags"].as_array().unwrap().contains(&json!("hide_link_previews")));
    }
}

/// A member moves a topic whose first message is past the week's limit: before 505 a `change_all`
/// from that old message is refused outright; from 505 the answer says how many may move.
#[tokio::test]
async fn a_move_past_the_time_limit_says_how_many_may_move_from_505() {
    for level in [MOVE_LIMIT_ERROR_FOR_OLD_TARGET - 1, MOVE_LIMIT_ERROR_FOR_OLD_TARGET] {
        let env = at(level).await;
        let ids = post_all(&env, "aging", &["one", "two", "three"]).await;
        age(&env, ids[0], 8);
        // From the recent message: refused at both levels, with the counts.
        let (status, body) = move_all(&env, ids[2]).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("MOVE_MESSAGES_TIME_LIMIT_EXCEEDED")),
            "{body}"
        );
        assert_eq!(
            body["msg"],
            "You only have permission to move the 2/3 most recent messages in this topic."
        );
        assert_eq!(
            (
                &body["first_message_id_allowed_to_move"],
                &body["total_messages_allowed_to_move"],
                &body["total_messages_in_topic"]
            ),
            (&json!(ids[1]), &json!(2), &json!(3))
        );
        // From the old message.
        let (status, body) = move_all(&env, ids[0]).await;
        if level < MOVE_LIMIT_ERROR_FOR_OLD_TARGET {
            assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")));
            assert_eq!(body["msg"], "The time limit for editing this message's topic has passed.");
        } else {
            assert_eq!(
                (status, body["code"].as_str()),
                (400, Some("MOVE_MESSAGES_TIME_LIMIT_EXCEEDED")),
                "{body}"
            );
            assert_eq!(body["first_message_id_allowed_to_move"], json!(ids[1]));
        }
        // What the answer allows does move.
        let path = format!("/messages/{}", ids[1]);
        let (status, body) = env
            .raw("member", "PATCH", &path, &[("topic", "moved"), ("propagate_mode", "change_later")])
            .await;
        assert_eq!(status, 200, "{body}");
        let org = env.server.shared.lock();
        let topics: Vec<&str> = ids.iter().map(|i| org.messages[i].topic()).collect();
        assert_eq!(topics, ["aging", "moved", "moved"]);
    }
}

/// `member` moves every message of the topic of `target` to "moved".
async fn move_all(env: &Env, target: i64) -> (u16, Value) {
    let path = format!("/messages/{target}");
    env.raw("member", "PATCH", &path, &[("topic", "moved"), ("propagate_mode", "change_all")]).await
}

async fn post_all(env: &Env, topic: &str, texts: &[&str]) -> Vec<i64> {
    let mut ids = Vec::new();
    for t in texts {
        ids.push(post(env, topic, t).await["id"].as_i64().unwrap());
    }
    ids
}

/// Naming the message's own channel is no move from 509: a topic edit stays an edit within
/// the channel, and nothing else is "Nothing to change".
#[tokio::test]
async fn the_messages_own_channel_is_not_a_move_from_509() {
    for level in [SAME_CHANNEL_NOT_A_MOVE - 1, SAME_CHANNEL_NOT_A_MOVE] {
        let env = at(level).await;
        let id = post(&env, "stay", "here").await["id"].as_i64().unwrap();
        let general = env.channel_id("general").to_string();
        let q = env.queue("admin", "[\"update_message\"]").await;
        let (status, body) =
            env.raw("member", "PATCH", &format!("/messages/{id}"), &[("stream_id", &general)]).await;
        if level < SAME_CHANNEL_NOT_A_MOVE {
            assert_eq!(status, 200, "{body}");
            let events = env.events("admin", &q).await;
            assert!(
                events.iter().any(|e| e["new_stream_id"] == json!(general.parse::<i64>().unwrap())),
                "{events:?}"
            );
        } else {
            assert_eq!((status, body["msg"].as_str()), (400, Some("Nothing to change")), "{body}");
            assert!(env.events("admin", &q).await.iter().all(|e| e["type"] != "update_message"));
        }
    }
}

/// A report that cannot reach the moderation channel (archived) is dropped in silence before
/// 511; from 511 the reporter is told.
#[tokio::test]
async fn a_report_that_cannot_be_delivered_says_so_from_511() {
    for level in [REPORT_DELIVERY_ERROR - 1, REPORT_DELIVERY_ERROR] {
        let env = at(level).await;
        let id = post(&env, "reported", "spam spam").await["id"].as_i64().unwrap();
        {
            let mut org = env.server.shared.lock();
            let moderation = org.channel_named("leadership").map(|c| c.id).unwrap();
            org.realm.moderation_request_channel_id = Some(moderation);
            org.channels.get_mut(&moderation).unwrap().is_archived = true;
        }
        let (status, body) =
            env.raw("alice", "POST", &format!("/messages/{id}/report"), &[("report_type", "spam")]).await;
        if level < REPORT_DELIVERY_ERROR {
            assert_eq!(status, 200, "{body}");
        } else {
            assert_eq!(
                (status, body["msg"].as_str()),
                (400, Some("The report could not be sent to the moderation request channel."))
            );
        }
    }
}

#[tokio::test]
async fn patch_subscriptions_adds_and_removes_until_512() {
    for level in [NO_PATCH_SUBSCRIPTIONS - 1, NO_PATCH_SUBSCRIPTIONS] {
        let env = at(level).await;
        let add = json!([{"name": "patched"}]).to_string();
        let delete = json!(["random"]).to_string();
        let (status, body) = env
            .raw("member", "PATCH", "/users/me/subscriptions", &[("add", &add), ("delete", &delete)])
            .await;
        let me = env.user_id("member");
        let org = env.server.shared.lock();
        let subscribed = |name: &str| org.channel_named(name).is_some_and(|c| c.subs.contains_key(&me));
        if level < NO_PATCH_SUBSCRIPTIONS {
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["subscribed"][me.to_string()], json!(["patched"]), "{body}");
            assert_eq!(body["removed"], json!(["random"]), "{body}");
            assert!(subscribed("patched") && !subscribed("random"));
        } else {
            assert_eq!(status, 405, "{body}");
            assert!(org.channel_named("patched").is_none() && subscribed("random"));
        }
    }
}

#[tokio::test]
async fn default_push_notifications_is_an_administrators_channel_setting_from_507() {
    let env = at(DEFAULT_PUSH_NOTIFICATIONS - 1).await;
    let (_, subs) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
    assert!(subs["subscriptions"][0].get("default_push_notifications").is_none());

    let env = at(DEFAULT_PUSH_NOTIFICATIONS).await;
    let (_, subs) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
    assert_eq!(subs["subscriptions"][0]["default_push_notifications"], json!(false));
    let new = json!([{"name": "alerts"}]).to_string();
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/users/me/subscriptions",
            &[("subscriptions", &new), ("default_push_notifications", "true")],
        )
        .await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (400, Some("Must be an organization administrator")),
        "{body}"
    );
    assert!(env.server.shared.lock().channel_named("alerts").is_none(), "a refused change leaves no trace");
    let (status, body) = env
        .raw(
            "admin",
            "POST",
            "/users/me/subscriptions",
            &[("subscriptions", &new), ("default_push_notifications", "true")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let alerts = env.channel_id("alerts");
    // A new subscriber gets mobile notifications for it whatever their own default.
    let me = json!([{"name": "alerts"}]).to_string();
    let (status, _) = env.raw("member", "POST", "/users/me/subscriptions", &[("subscriptions", &me)]).await;
    assert_eq!(status, 200);
    let (_, subs) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
    let sub = subs["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stream_id"] == json!(alerts))
        .unwrap()
        .clone();
    assert_eq!(
        (&sub["default_push_notifications"], &sub["push_notifications"]),
        (&json!(true), &json!(true))
    );
    // Turned off by an administrator, with an event; a member may not.
    let path = format!("/streams/{alerts}");
    let (status, _) = env.raw("member", "PATCH", &path, &[("default_push_notifications", "false")]).await;
    assert_eq!(status, 400);
    let q = env.queue("member", "[\"stream\"]").await;
    let (status, body) = env.raw("admin", "PATCH", &path, &[("default_push_notifications", "false")]).await;
    assert_eq!(status, 200, "{body}");
    let events = env.events("member", &q).await;
    assert!(
        events.iter().any(|e| e["op"] == "update"
            && e["property"] == "default_push_notifications"
            && e["value"] == json!(false)),
        "{events:?}"
    );
}
