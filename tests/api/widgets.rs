//! Widgets: `/poll` and `/todo` messages, `POST /submessage` and its event.

use crate::common::*;
use topicterm::api::*;

async fn message_in(c: &Client, channel: i64, topic: &str) -> Message {
    let q = GetMessages::around(Anchor::Newest, 50, 0)
        .narrow(vec![NarrowTerm::new("channel", channel), NarrowTerm::new("topic", topic)]);
    c.get_messages(&q).await.unwrap().messages.remove(0)
}

#[tokio::test]
async fn the_seeded_poll_carries_its_votes_and_a_vote_reaches_everyone() {
    let env = Env::start().await;
    let c = env.client("member");
    let random = env.channel_id("random");
    let poll = message_in(&c, random, "team offsite").await;
    assert!(poll.submessages.len() >= 5, "{:?}", poll.submessages);
    let head: serde_json::Value = serde_json::from_str(&poll.submessages[0].content).unwrap();
    assert_eq!(head["widget_type"], "poll");
    assert_eq!(head["extra_data"]["options"][0], "Lisbon");
    // A vote, seen by another subscriber as a submessage event.
    let bob = env.client("bob");
    let q = bob.register(&RegisterParams::default()).await.unwrap();
    let vote = serde_json::json!({"type": "vote", "key": "canned,2", "vote": 1});
    c.send_submessage(poll.id, &vote).await.unwrap();
    let events = bob
        .get_events(q.queue_id.as_deref().unwrap(), q.last_event_id, true, std::time::Duration::from_secs(5))
        .await
        .unwrap();
    let ev = events
        .iter()
        .find_map(|e| if let EventKind::Submessage(s) = &e.kind { Some(s.clone()) } else { None })
        .expect("a submessage event");
    assert_eq!(
        (ev.message_id, ev.sender_id, ev.msg_type.as_str()),
        (poll.id, env.user_id("member"), "widget")
    );
    assert_eq!(serde_json::from_str::<serde_json::Value>(&ev.content).unwrap(), vote);
    // Stored: the message carries it from now on.
    assert_eq!(message_in(&c, random, "team offsite").await.submessages.last().unwrap().id, ev.submessage_id);
}

#[tokio::test]
async fn poll_and_todo_messages_become_widgets_and_bad_submessages_are_refused() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let sent = c
        .send_message(&OutgoingMessage::channel(general, "votes", "/poll Tea or coffee?\ntea\ncoffee"))
        .await
        .unwrap()
        .id;
    let m = message_in(&c, general, "votes").await;
    assert_eq!(m.id, sent);
    let head: serde_json::Value = serde_json::from_str(&m.submessages[0].content).unwrap();
    assert_eq!(
        head,
        serde_json::json!({"widget_type": "poll", "extra_data": {"question": "Tea or coffee?", "options": ["tea", "coffee"]}})
    );
    // Not JSON, not a widget message, another type, a message one cannot see.
    let (status, r) = env
        .raw(
            "member",
            "POST",
            "/submessage",
            &[("message_id", &sent.to_string()), ("msg_type", "widget"), ("content", "{")],
        )
        .await;
    assert_eq!((status, r["msg"].as_str()), (400, Some("Invalid json for submessage")));
    let plain = c.send_message(&OutgoingMessage::channel(general, "votes", "just text")).await.unwrap().id;
    let vote = serde_json::json!({"type": "vote", "key": "canned,0", "vote": 1});
    assert_eq!(c.send_submessage(plain, &vote).await.unwrap_err().to_string(), "Message has no widget");
    let (status, r) = env
        .raw(
            "member",
            "POST",
            "/submessage",
            &[("message_id", &sent.to_string()), ("msg_type", "zform"), ("content", "{}")],
        )
        .await;
    assert_eq!((status, r["msg"].as_str()), (400, Some("Invalid msg_type")));
    let security = env.channel_id("security");
    let secret = env
        .client("admin")
        .send_message(&OutgoingMessage::channel(security, "x", "/todo Secret\none"))
        .await
        .unwrap()
        .id;
    let guest = env.client("guest");
    assert_eq!(guest.send_submessage(secret, &vote).await.unwrap_err().to_string(), "Invalid message(s)");
}
