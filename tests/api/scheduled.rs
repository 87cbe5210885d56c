//! Scheduled messages: create (operation 1), edit (operation 2), delete, and delivery by the
//! server's timer (pending → delivered, pending → failed).

use crate::common::{Env, assert_err};
use serde_json::Value;
use std::time::Duration;
use topicterm::api::events::EventKind;
use topicterm::api::*;
use topicterm::server::ServerOptions;

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// An hour from now: far enough that the scheduler never delivers it during a test.
fn later() -> i64 {
    now() + 3600
}

/// Register an event queue for the client; returns (queue_id, last_event_id).
async fn queue(c: &Client) -> (String, i64) {
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    (reg.queue_id.unwrap(), reg.last_event_id)
}

/// Every event queued so far, without waiting.
async fn events(c: &Client, q: &(String, i64)) -> Vec<EventKind> {
    c.get_events(&q.0, q.1, true, Duration::from_secs(5)).await.unwrap().into_iter().map(|e| e.kind).collect()
}

fn channel_msg(stream_id: i64, topic: &str, content: &str) -> NewScheduledMessage {
    NewScheduledMessage {
        kind: SendType::Channel,
        to: Recipient::Channel(stream_id),
        content: content.into(),
        topic: Some(topic.into()),
        scheduled_delivery_timestamp: later(),
        read_by_sender: None,
    }
}

fn direct_msg(users: Vec<i64>, content: &str) -> NewScheduledMessage {
    NewScheduledMessage {
        kind: SendType::Direct,
        to: Recipient::Users(users),
        content: content.into(),
        topic: None,
        scheduled_delivery_timestamp: later(),
        read_by_sender: None,
    }
}

async fn listed(c: &Client, id: i64) -> Option<ScheduledMessage> {
    c.get_scheduled_messages()
        .await
        .unwrap()
        .scheduled_messages
        .into_iter()
        .find(|m| m.scheduled_message_id == id)
}

/// The raw JSON of one listed scheduled message, to check the wire shape.
async fn listed_raw(env: &Env, who: &str, id: i64) -> Value {
    let (status, body) = env.raw(who, "GET", "/scheduled_messages", &[]).await;
    assert_eq!(status, 200);
    body["scheduled_messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["scheduled_message_id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("scheduled message {id} not listed"))
}

// ---------------------------------------------------------------------------------------------
// Operation 1: create
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn channel_message_is_created_listed_and_announced() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let general = env.channel_id("general");
    let mut m = channel_msg(general, "plans", "see you **tomorrow**");
    m.read_by_sender = Some(true);
    let id = c.create_scheduled_message(&m).await.unwrap().scheduled_message_id;

    let s = listed(&c, id).await.expect("listed");
    assert_eq!(s.kind, MessageType::Stream);
    assert_eq!(s.to, Recipient::Channel(general));
    assert_eq!(s.topic.as_deref(), Some("plans"));
    assert_eq!(s.content, "see you **tomorrow**");
    assert!(s.rendered_content.contains("<strong>tomorrow</strong>"), "{}", s.rendered_content);
    assert_eq!(s.scheduled_delivery_timestamp, m.scheduled_delivery_timestamp);
    assert!(!s.failed);

    let raw = listed_raw(&env, "member", id).await;
    assert_eq!(raw["type"], "stream");
    assert!(raw["to"].is_i64(), "channel `to` is an integer: {raw}");
    assert_eq!(raw["failed"], false);

    let evs = events(&c, &q).await;
    let added = evs.iter().find_map(|e| match e {
        EventKind::ScheduledMessages(ScheduledMessagesEvent::Add(list)) => Some(list.clone()),
        _ => None,
    });
    let added = added.expect("scheduled_messages add event");
    assert_eq!(added.len(), 1);
    assert_eq!(added[0], s);
}

#[tokio::test]
async fn direct_message_to_one_and_to_several_users() {
    let env = Env::start().await;
    let c = env.client("member");
    let (alice, bob) = (env.user_id("alice"), env.user_id("bob"));
    let one = c.create_scheduled_message(&direct_msg(vec![alice], "hi")).await.unwrap().scheduled_message_id;
    let several = c
        .create_scheduled_message(&direct_msg(vec![alice, bob], "hi all"))
        .await
        .unwrap()
        .scheduled_message_id;
    assert_ne!(one, several);

    let s = listed(&c, one).await.unwrap();
    assert_eq!(s.kind, MessageType::Private);
    assert_eq!(s.to, Recipient::Users(vec![alice]));
    assert_eq!(s.topic, None);
    let s = listed(&c, several).await.unwrap();
    assert_eq!(s.to, Recipient::Users(vec![alice, bob]));

    let raw = listed_raw(&env, "member", several).await;
    assert_eq!(raw["type"], "private");
    assert!(raw["to"].is_array(), "direct `to` is a list: {raw}");
    assert!(raw.get("topic").is_none(), "topic only for channel messages: {raw}");
}

#[tokio::test]
async fn both_spellings_of_each_type_are_accepted() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let alice = env.user_id("alice");
    for (kind, expected) in [
        (SendType::Channel, MessageType::Stream),
        (SendType::Stream, MessageType::Stream),
        (SendType::Direct, MessageType::Private),
        (SendType::Private, MessageType::Private),
    ] {
        let mut m =
            if kind.is_channel() { channel_msg(general, "t", "x") } else { direct_msg(vec![alice], "x") };
        m.kind = kind;
        let id = c.create_scheduled_message(&m).await.unwrap().scheduled_message_id;
        assert_eq!(listed(&c, id).await.unwrap().kind, expected, "{kind:?}");
    }
}

#[tokio::test]
async fn listing_is_ordered_by_delivery_time() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let mut late = channel_msg(general, "t", "late");
    late.scheduled_delivery_timestamp = now() + 7200;
    let mut early = channel_msg(general, "t", "early");
    early.scheduled_delivery_timestamp = now() + 600;
    c.create_scheduled_message(&late).await.unwrap();
    c.create_scheduled_message(&early).await.unwrap();
    let list = c.get_scheduled_messages().await.unwrap().scheduled_messages;
    let times: Vec<i64> = list.iter().map(|m| m.scheduled_delivery_timestamp).collect();
    let mut sorted = times.clone();
    sorted.sort_unstable();
    assert_eq!(times, sorted);
}

#[tokio::test]
async fn unknown_channel_is_stream_does_not_exist_with_stream_id() {
    let env = Env::start().await;
    let c = env.client("member");
    let e = assert_err(
        c.create_scheduled_message(&channel_msg(987_654, "t", "x")).await,
        "STREAM_DOES_NOT_EXIST",
        "",
    );
    assert_eq!(e.status, 400);
    assert_eq!(e.stream_id, Some(987_654));
}

#[tokio::test]
async fn unknown_user_is_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    let e = assert_err(c.create_scheduled_message(&direct_msg(vec![987_654], "x")).await, "BAD_REQUEST", "");
    assert_eq!(e.status, 400);
    assert!(c.get_scheduled_messages().await.unwrap().scheduled_messages.iter().all(|m| m.content != "x"));

    let id = c.create_scheduled_message(&direct_msg(vec![env.user_id("alice")], "y")).await.unwrap();
    let upd = ScheduledMessageUpdate { to: Some(Recipient::Users(vec![987_654])), ..Default::default() };
    assert_err(c.update_scheduled_message(id.scheduled_message_id, &upd).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn client_refuses_empty_topics_without_a_request() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    for topic in [Some("(no topic)"), Some(""), Some("general chat"), None] {
        let mut m = channel_msg(general, "", "x");
        m.topic = topic.map(str::to_owned);
        let before = env.requests();
        let r = c.create_scheduled_message(&m).await;
        assert!(matches!(r, Err(ApiError::Limit(LimitError::ScheduledTopicInvalid(_)))), "{topic:?}: {r:?}");
        assert_eq!(env.requests(), before, "{topic:?}: no request sent");
    }
}

#[tokio::test]
async fn server_refuses_empty_topics() {
    let env = Env::start().await;
    let general = env.channel_id("general").to_string();
    let at = later().to_string();
    for topic in ["(no topic)", "", "general chat"] {
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/scheduled_messages",
                &[
                    ("type", "channel"),
                    ("to", &general),
                    ("content", "x"),
                    ("topic", topic),
                    ("scheduled_delivery_timestamp", &at),
                ],
            )
            .await;
        assert_eq!(status, 400, "{topic:?}: {body}");
        assert_eq!(body["code"], "BAD_REQUEST", "{topic:?}");
    }
    // No topic at all.
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/scheduled_messages",
            &[("type", "channel"), ("to", &general), ("content", "x"), ("scheduled_delivery_timestamp", &at)],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["result"], "error");
    assert!(body["msg"].as_str().unwrap().to_lowercase().contains("topic"), "{body}");
}

#[tokio::test]
async fn delivery_time_in_the_past_is_refused() {
    let env = Env::start().await;
    let c = env.client("member");
    let mut m = channel_msg(env.channel_id("general"), "t", "too late");
    m.scheduled_delivery_timestamp = now() - 60;
    assert_err(c.create_scheduled_message(&m).await, "BAD_REQUEST", "future");
}

#[tokio::test]
async fn client_checks_limits_without_a_request() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    let id = c.create_scheduled_message(&channel_msg(general, "t", "x")).await.unwrap().scheduled_message_id;
    let long_content = "x".repeat(10_001);
    let long_topic = "t".repeat(61);

    let mut too_long = channel_msg(general, "t", &long_content);
    let mut cases: Vec<(NewScheduledMessage, LimitError)> =
        vec![(too_long.clone(), LimitError::ContentTooLong { len: 10_001, max: 10_000 })];
    too_long.content = "x".into();
    too_long.topic = Some(long_topic.clone());
    cases.push((too_long, LimitError::TopicTooLong { len: 61, max: 60 }));
    cases.push((channel_msg(general, "t", "  "), LimitError::EmptyContent));
    cases.push((direct_msg(vec![], "x"), LimitError::NoRecipients));
    for (m, expected) in cases {
        let before = env.requests();
        match c.create_scheduled_message(&m).await {
            Err(ApiError::Limit(e)) => assert_eq!(e, expected),
            other => panic!("expected {expected:?}, got {other:?}"),
        }
        assert_eq!(env.requests(), before, "{expected:?}: no request sent");
    }

    let edits = [
        (
            ScheduledMessageUpdate { content: Some(long_content), ..Default::default() },
            LimitError::ContentTooLong { len: 10_001, max: 10_000 },
        ),
        (
            ScheduledMessageUpdate { topic: Some(long_topic), ..Default::default() },
            LimitError::TopicTooLong { len: 61, max: 60 },
        ),
        (ScheduledMessageUpdate::default(), LimitError::NothingToChange),
    ];
    for (upd, expected) in edits {
        let before = env.requests();
        match c.update_scheduled_message(id, &upd).await {
            Err(ApiError::Limit(e)) => assert_eq!(e, expected),
            other => panic!("expected {expected:?}, got {other:?}"),
        }
        assert_eq!(env.requests(), before, "{expected:?}: no request sent");
    }
}

#[tokio::test]
async fn server_checks_limits() {
    let env = Env::start().await;
    let general = env.channel_id("general").to_string();
    let at = later().to_string();
    let long_content = "x".repeat(10_001);
    let long_topic = "t".repeat(61);
    for (content, topic) in [(long_content.as_str(), "t"), ("x", long_topic.as_str())] {
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/scheduled_messages",
                &[
                    ("type", "channel"),
                    ("to", &general),
                    ("content", content),
                    ("topic", topic),
                    ("scheduled_delivery_timestamp", &at),
                ],
            )
            .await;
        assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{body}");
    }
    let id = env
        .client("member")
        .create_scheduled_message(&channel_msg(env.channel_id("general"), "t", "x"))
        .await
        .unwrap()
        .scheduled_message_id;
    let path = format!("/scheduled_messages/{id}");
    for edit in [("content", long_content.as_str()), ("topic", long_topic.as_str()), ("topic", "(no topic)")]
    {
        let (status, body) = env.raw("member", "PATCH", &path, &[edit]).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{edit:?}: {body}");
    }
    let s = listed(&env.client("member"), id).await.unwrap();
    assert_eq!((s.content.as_str(), s.topic.as_deref()), ("x", Some("t")), "unchanged");
}

// ---------------------------------------------------------------------------------------------
// Operation 2: edit
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn each_field_can_be_edited_and_an_update_event_follows() {
    let env = Env::start().await;
    let c = env.client("member");
    let (general, design) = (env.channel_id("general"), env.channel_id("design"));
    let alice = env.user_id("alice");
    let id =
        c.create_scheduled_message(&channel_msg(general, "t1", "v1")).await.unwrap().scheduled_message_id;
    let q = queue(&c).await;

    let upd = ScheduledMessageUpdate { content: Some("v2".into()), ..Default::default() };
    c.update_scheduled_message(id, &upd).await.unwrap();
    assert_eq!(listed(&c, id).await.unwrap().content, "v2");

    let upd = ScheduledMessageUpdate { topic: Some("t2".into()), ..Default::default() };
    c.update_scheduled_message(id, &upd).await.unwrap();
    assert_eq!(listed(&c, id).await.unwrap().topic.as_deref(), Some("t2"));

    let at = now() + 5000;
    let upd = ScheduledMessageUpdate { scheduled_delivery_timestamp: Some(at), ..Default::default() };
    c.update_scheduled_message(id, &upd).await.unwrap();
    assert_eq!(listed(&c, id).await.unwrap().scheduled_delivery_timestamp, at);

    let upd = ScheduledMessageUpdate { to: Some(Recipient::Channel(design)), ..Default::default() };
    c.update_scheduled_message(id, &upd).await.unwrap();
    let s = listed(&c, id).await.unwrap();
    assert_eq!(s.to, Recipient::Channel(design));
    assert_eq!(s.topic.as_deref(), Some("t2"), "topic kept when only the channel changes");

    let upd = ScheduledMessageUpdate {
        kind: Some(SendType::Direct),
        to: Some(Recipient::Users(vec![alice])),
        ..Default::default()
    };
    c.update_scheduled_message(id, &upd).await.unwrap();
    let s = listed(&c, id).await.unwrap();
    assert_eq!(
        (s.kind, s.to.clone(), s.topic.clone()),
        (MessageType::Private, Recipient::Users(vec![alice]), None)
    );

    let upd = ScheduledMessageUpdate {
        kind: Some(SendType::Stream),
        to: Some(Recipient::Channel(general)),
        topic: Some("back".into()),
        ..Default::default()
    };
    c.update_scheduled_message(id, &upd).await.unwrap();
    let s = listed(&c, id).await.unwrap();
    assert_eq!((s.kind, s.to.clone()), (MessageType::Stream, Recipient::Channel(general)));
    assert_eq!(s.topic.as_deref(), Some("back"));
    assert_eq!(s.content, "v2");
    assert_eq!(s.scheduled_delivery_timestamp, at);

    let updates: Vec<ScheduledMessage> = events(&c, &q)
        .await
        .into_iter()
        .filter_map(|e| match e {
            EventKind::ScheduledMessages(ScheduledMessagesEvent::Update(s)) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(updates.len(), 6, "one update event per edit");
    assert_eq!(updates[0].content, "v2");
    assert_eq!(updates.last(), Some(&s));
}

#[tokio::test]
async fn changing_type_requires_to() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = c
        .create_scheduled_message(&channel_msg(env.channel_id("general"), "t", "x"))
        .await
        .unwrap()
        .scheduled_message_id;
    let before = env.requests();
    let upd = ScheduledMessageUpdate { kind: Some(SendType::Direct), ..Default::default() };
    let r = c.update_scheduled_message(id, &upd).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::ScheduledTypeWithoutTo))), "{r:?}");
    assert_eq!(env.requests(), before);

    let (status, body) =
        env.raw("member", "PATCH", &format!("/scheduled_messages/{id}"), &[("type", "direct")]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
    assert_eq!(listed(&c, id).await.unwrap().kind, MessageType::Stream, "unchanged");
}

#[tokio::test]
async fn changing_type_to_channel_requires_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let id = c
        .create_scheduled_message(&direct_msg(vec![env.user_id("alice")], "x"))
        .await
        .unwrap()
        .scheduled_message_id;
    let before = env.requests();
    let upd = ScheduledMessageUpdate {
        kind: Some(SendType::Channel),
        to: Some(Recipient::Channel(general)),
        ..Default::default()
    };
    let r = c.update_scheduled_message(id, &upd).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::ScheduledChannelTypeWithoutTopic))), "{r:?}");
    assert_eq!(env.requests(), before);

    let g = general.to_string();
    let (status, body) = env
        .raw("member", "PATCH", &format!("/scheduled_messages/{id}"), &[("type", "channel"), ("to", &g)])
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
    assert_eq!(listed(&c, id).await.unwrap().kind, MessageType::Private, "unchanged");
}

#[tokio::test]
async fn topic_is_ignored_for_direct_messages() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.user_id("alice");
    let id = c.create_scheduled_message(&direct_msg(vec![alice], "x")).await.unwrap().scheduled_message_id;
    let upd = ScheduledMessageUpdate { topic: Some("ignored".into()), ..Default::default() };
    c.update_scheduled_message(id, &upd).await.unwrap();
    let s = listed(&c, id).await.unwrap();
    assert_eq!((s.kind, s.topic), (MessageType::Private, None));
    assert!(listed_raw(&env, "member", id).await.get("topic").is_none());
}

#[tokio::test]
async fn unknown_or_foreign_scheduled_message_is_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    let upd = ScheduledMessageUpdate { content: Some("y".into()), ..Default::default() };
    assert_err(c.update_scheduled_message(987_654, &upd).await, "BAD_REQUEST", "");

    let alice = env.client("alice");
    let theirs = alice
        .create_scheduled_message(&channel_msg(env.channel_id("general"), "t", "alice's"))
        .await
        .unwrap()
        .scheduled_message_id;
    assert_err(c.update_scheduled_message(theirs, &upd).await, "BAD_REQUEST", "");
    assert_err(c.delete_scheduled_message(theirs).await, "BAD_REQUEST", "");
    assert_eq!(listed(&alice, theirs).await.unwrap().content, "alice's", "untouched");
    assert!(listed(&c, theirs).await.is_none(), "not in member's list");
}

#[tokio::test]
async fn failed_message_needs_a_new_delivery_time_to_be_edited() {
    let env = Env::start().await;
    let c = env.client("member");
    let failed = c
        .get_scheduled_messages()
        .await
        .unwrap()
        .scheduled_messages
        .into_iter()
        .find(|m| m.failed)
        .expect("the seed has a failed scheduled message for member");
    let id = failed.scheduled_message_id;

    let upd = ScheduledMessageUpdate { content: Some("retry".into()), ..Default::default() };
    assert_err(c.update_scheduled_message(id, &upd).await, "BAD_REQUEST", "");
    assert_eq!(listed(&c, id).await.unwrap(), failed, "unchanged");

    let at = later();
    let upd = ScheduledMessageUpdate {
        content: Some("retry".into()),
        scheduled_delivery_timestamp: Some(at),
        ..Default::default()
    };
    c.update_scheduled_message(id, &upd).await.unwrap();
    let s = listed(&c, id).await.unwrap();
    assert!(!s.failed, "pending again");
    assert_eq!((s.content.as_str(), s.scheduled_delivery_timestamp), ("retry", at));
}

#[tokio::test]
async fn moving_to_a_missing_channel_is_stream_does_not_exist() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let id = c.create_scheduled_message(&channel_msg(general, "t", "x")).await.unwrap().scheduled_message_id;
    let upd = ScheduledMessageUpdate { to: Some(Recipient::Channel(987_654)), ..Default::default() };
    let e = assert_err(c.update_scheduled_message(id, &upd).await, "STREAM_DOES_NOT_EXIST", "");
    assert_eq!(e.stream_id, Some(987_654));
    assert_eq!(listed(&c, id).await.unwrap().to, Recipient::Channel(general));
}

#[tokio::test]
async fn delete_removes_and_announces_then_second_delete_fails() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = c
        .create_scheduled_message(&channel_msg(env.channel_id("general"), "t", "x"))
        .await
        .unwrap()
        .scheduled_message_id;
    let q = queue(&c).await;
    c.delete_scheduled_message(id).await.unwrap();
    assert!(listed(&c, id).await.is_none());
    let evs = events(&c, &q).await;
    assert!(
        evs.iter().any(|e| matches!(e, EventKind::ScheduledMessages(ScheduledMessagesEvent::Remove {
            scheduled_message_id
        }) if *scheduled_message_id == id)),
        "{evs:?}"
    );
    assert_err(c.delete_scheduled_message(id).await, "BAD_REQUEST", "");
}

// ---------------------------------------------------------------------------------------------
// Delivery by the server's timer
// ---------------------------------------------------------------------------------------------

async fn fast_scheduler() -> Env {
    Env::start_with(ServerOptions { scheduler_tick: Duration::from_millis(100), ..Default::default() }).await
}

/// Poll until `check` yields a value, for up to ten seconds.
async fn poll<T, F, Fut>(mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    for _ in 0..100 {
        if let Some(v) = check().await {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("condition not reached within 10 s");
}

async fn newest_with(c: &Client, content: &str) -> Option<Message> {
    let q = GetMessages { apply_markdown: Some(false), ..GetMessages::around(Anchor::Newest, 20, 0) };
    c.get_messages(&q).await.unwrap().messages.into_iter().find(|m| m.content == content)
}

#[tokio::test]
async fn due_messages_are_delivered_by_the_timer() {
    let env = fast_scheduler().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let general = env.channel_id("general");
    let alice = env.user_id("alice");
    let at = now() + 2;
    let mut chan = channel_msg(general, "soon", "delivered to the channel");
    chan.scheduled_delivery_timestamp = at;
    chan.read_by_sender = Some(false);
    let chan_id = c.create_scheduled_message(&chan).await.unwrap().scheduled_message_id;
    let mut dm = direct_msg(vec![alice], "delivered as a DM");
    dm.scheduled_delivery_timestamp = at;
    dm.read_by_sender = Some(true);
    let dm_id = c.create_scheduled_message(&dm).await.unwrap().scheduled_message_id;

    let sent = poll(|| newest_with(&c, "delivered to the channel")).await;
    assert_eq!(sent.sender_id, env.user_id("member"));
    assert_eq!(sent.stream_id, Some(general));
    assert_eq!(sent.topic(), "soon");
    assert!(sent.timestamp >= at, "not sent before its time");
    assert!(
        !sent.has_flag(topicterm::api::Flag::Read),
        "read_by_sender=false leaves it unread: {:?}",
        sent.flags
    );
    let sent_dm = poll(|| newest_with(&c, "delivered as a DM")).await;
    assert_eq!(sent_dm.dm_user_ids(), {
        let mut v = vec![env.user_id("member"), alice];
        v.sort_unstable();
        v
    });
    assert!(sent_dm.has_flag(topicterm::api::Flag::Read), "read_by_sender=true: {:?}", sent_dm.flags);
    // Alice really received it.
    assert!(newest_with(&env.client("alice"), "delivered as a DM").await.is_some());

    assert!(listed(&c, chan_id).await.is_none(), "removed from the list once sent");
    assert!(listed(&c, dm_id).await.is_none());
    let evs = events(&c, &q).await;
    for id in [chan_id, dm_id] {
        assert!(
            evs.iter().any(|e| matches!(e, EventKind::ScheduledMessages(ScheduledMessagesEvent::Remove {
                scheduled_message_id
            }) if *scheduled_message_id == id)),
            "remove event for {id}"
        );
    }
    assert!(evs.iter().any(|e| matches!(e, EventKind::Message(m) if m.message.id == sent.id)));
}

/// Wait until the scheduled message is marked failed; returns it.
async fn wait_failed(c: &Client, id: i64) -> ScheduledMessage {
    poll(|| async move { listed(c, id).await.filter(|m| m.failed) }).await
}

#[tokio::test]
async fn message_to_a_channel_archived_before_it_is_due_fails() {
    let env = fast_scheduler().await;
    let c = env.client("member");
    let random = env.channel_id("random");
    let mut m = channel_msg(random, "t", "never delivered");
    m.scheduled_delivery_timestamp = now() + 2;
    let id = c.create_scheduled_message(&m).await.unwrap().scheduled_message_id;
    let q = queue(&c).await;
    let (status, body) = env.raw("admin", "DELETE", &format!("/streams/{random}"), &[]).await;
    assert_eq!(status, 200, "{body}");

    let s = wait_failed(&c, id).await;
    assert_eq!(s.content, "never delivered");
    assert!(newest_with(&env.client("admin"), "never delivered").await.is_none());
    let evs = events(&c, &q).await;
    assert!(
        evs.iter().any(|e| matches!(e, EventKind::ScheduledMessages(ScheduledMessagesEvent::Update(s))
            if s.failed && s.scheduled_message_id == id)),
        "{evs:?}"
    );
}

#[tokio::test]
async fn message_fails_when_the_sender_loses_access() {
    let env = fast_scheduler().await;
    let c = env.client("member");
    let security = env.channel_id("security");
    let mut m = channel_msg(security, "audit", "after I left");
    m.scheduled_delivery_timestamp = now() + 2;
    let id = c.create_scheduled_message(&m).await.unwrap().scheduled_message_id;
    let member = env.user_id("member");
    env.client("admin")
        .unsubscribe(&["security".into()], Some(&Principals::Ids(vec![member])))
        .await
        .unwrap();

    wait_failed(&c, id).await;
    assert!(newest_with(&env.client("admin"), "after I left").await.is_none());
}
