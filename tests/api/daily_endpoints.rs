//! The endpoints of the web app's daily features, as the reference server serves them: read
//! receipts, rendering a draft, `matches_narrow`, saved snippets and reminders (with their
//! events, and a reminder delivered by the Notification Bot).

use crate::common::*;
use serde_json::json;
use topicterm::api::OutgoingMessage;

#[tokio::test]
async fn read_receipts_name_the_readers_never_the_sender() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let id = env
        .client("alice")
        .send_message(&OutgoingMessage::channel(general, "receipts", "read me"))
        .await
        .unwrap()
        .id;
    let ids = format!("[{id}]");
    let (status, body) = env
        .raw("member", "POST", "/messages/flags", &[("messages", &ids), ("op", "add"), ("flag", "read")])
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = env
        .raw("bob", "POST", "/messages/flags", &[("messages", &ids), ("op", "add"), ("flag", "read")])
        .await;
    assert_eq!(status, 200, "{body}");
    // The typed client, as message info asks.
    let readers = env.client("alice").read_receipts(id).await.unwrap().user_ids;
    assert!(readers.contains(&env.user_id("member")) && readers.contains(&env.user_id("bob")), "{readers:?}");
    assert!(!readers.contains(&env.user_id("alice")), "never the sender");
    // Someone the asker muted is left out (and so is someone who muted the asker).
    let bob = env.user_id("bob");
    let (status, body) = env.raw("alice", "POST", &format!("/users/me/muted_users/{bob}"), &[]).await;
    assert_eq!(status, 200, "{body}");
    let readers = env.client("alice").read_receipts(id).await.unwrap().user_ids;
    assert!(!readers.contains(&bob) && readers.contains(&env.user_id("member")), "{readers:?}");
    let (status, _) = env.raw("alice", "GET", "/messages/99999999/read_receipts", &[]).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_draft_is_rendered_as_a_message_would_be() {
    let env = Env::start().await;
    let (status, body) =
        env.raw("member", "POST", "/messages/render", &[("content", "**bold** and `code`")]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["rendered"], "<p><strong>bold</strong> and <code>code</code></p>");
    let (status, _) = env.raw("member", "POST", "/messages/render", &[("content", " ")]).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn matches_narrow_says_which_messages_a_narrow_holds() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let alice = env.client("alice");
    let a =
        alice.send_message(&OutgoingMessage::channel(general, "match here", "needle text")).await.unwrap().id;
    let b =
        alice.send_message(&OutgoingMessage::channel(general, "elsewhere", "needle too")).await.unwrap().id;
    let ids = format!("[{a},{b}]");
    let narrow =
        json!([{"operator": "topic", "operand": "match here"}, {"operator": "search", "operand": "needle"}])
            .to_string();
    let (status, body) =
        env.raw("member", "GET", "/messages/matches_narrow", &[("msg_ids", &ids), ("narrow", &narrow)]).await;
    assert_eq!(status, 200, "{body}");
    let found = body["messages"].as_object().unwrap();
    assert_eq!(found.keys().cloned().collect::<Vec<_>>(), vec![a.to_string()]);
    assert!(found[&a.to_string()]["match_content"].as_str().unwrap().contains("highlight"), "{body}");
}

#[tokio::test]
async fn saved_snippets_are_created_listed_and_deleted_with_events() {
    let env = Env::start().await;
    let q = env.queue("member", r#"["saved_snippets"]"#).await;
    let (status, body) = env
        .raw("member", "POST", "/saved_snippets", &[("title", "thanks"), ("content", "Thank you! :heart:")])
        .await;
    assert_eq!(status, 200, "{body}");
    let id = body["saved_snippet_id"].as_i64().unwrap();
    let (_, list) = env.raw("member", "GET", "/saved_snippets", &[]).await;
    assert_eq!(list["saved_snippets"][0]["title"], "thanks");
    let (_, others) = env.raw("alice", "GET", "/saved_snippets", &[]).await;
    assert_eq!(others["saved_snippets"], json!([]), "one user's own");
    let (status, _) = env.raw("alice", "DELETE", &format!("/saved_snippets/{id}"), &[]).await;
    assert_eq!(status, 404, "not another user's");
    let (status, _) = env.raw("member", "DELETE", &format!("/saved_snippets/{id}"), &[]).await;
    assert_eq!(status, 200);
    let evs = env.events("member", &q).await;
    let ops: Vec<&str> =
        evs.iter().filter(|e| e["type"] == "saved_snippets").filter_map(|e| e["op"].as_str()).collect();
    assert_eq!(ops, vec!["add", "remove"]);
    let (status, body) =
        env.raw("member", "POST", "/saved_snippets", &[("title", " "), ("content", "x")]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("title cannot be blank")));
}

#[tokio::test]
async fn a_reminder_is_listed_then_delivered_by_the_notification_bot() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let id = env
        .client("alice")
        .send_message(&OutgoingMessage::channel(general, "remind", "do the thing"))
        .await
        .unwrap()
        .id;
    let q = env.queue("member", r#"["reminders","message"]"#).await;
    let now = chrono::Utc::now().timestamp();
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/reminders",
            &[("message_id", &id.to_string()), ("scheduled_delivery_timestamp", &(now - 10).to_string())],
        )
        .await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("Scheduled delivery time must be in the future.")));
    let later = (now + 3600).to_string();
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/reminders",
            &[
                ("message_id", &id.to_string()),
                ("scheduled_delivery_timestamp", &later),
                ("note", "before Friday"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let kept = body["reminder_id"].as_i64().unwrap();
    let (_, list) = env.raw("member", "GET", "/reminders", &[]).await;
    assert_eq!(list["reminders"][0]["reminder_id"], kept);
    assert!(list["reminders"][0]["content"].as_str().unwrap().contains("before Friday"));
    let (status, _) = env.raw("member", "DELETE", &format!("/reminders/{kept}"), &[]).await;
    assert_eq!(status, 200);
    // One due in two seconds arrives as a DM from the Notification Bot.
    let soon = (now + 2).to_string();
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/reminders",
            &[("message_id", &id.to_string()), ("scheduled_delivery_timestamp", &soon)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut delivered = None;
    for _ in 0..100 {
        let evs = env.events("member", &q).await;
        delivered = evs.into_iter().find(|e| {
            e["type"] == "message" && e["message"]["content"].as_str().is_some_and(|c| c.contains("reminder"))
        });
        if delivered.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let m = delivered.expect("the reminder was delivered");
    assert_eq!(m["message"]["sender_full_name"], "Notification Bot");
    let (_, list) = env.raw("member", "GET", "/reminders", &[]).await;
    assert_eq!(list["reminders"], json!([]), "delivered: no longer listed");
}
