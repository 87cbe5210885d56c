//! Messages sent, edited and moved, their flags, and a single message fetched. (Getting
//! messages and narrows are in `messages.rs`, whose helpers these share.)

use crate::common::{Env, assert_err};
use crate::messages::*;
use std::collections::BTreeSet;
use topicterm::api::*;

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn send_to_a_channel_by_id() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let aq = queue(&alice).await;
    let eng = env.channel_id("engineering");
    let id = send_channel(&c, eng, "sending", "hello **world**").await;
    let m = c.get_message(id, true).await.unwrap().message;
    assert_eq!((m.stream_id, m.subject.as_str()), (Some(eng), "sending"));
    assert_eq!(m.channel_name(), Some("engineering"));
    assert_eq!(m.sender_id, env.user_id("member"));
    assert!(m.content.contains("<strong>world</strong>"));
    assert!(m.has_flag(topicterm::api::Flag::Read), "the sender has read it");
    let delivered = message_events(&events(&alice, &aq).await);
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].message.id, id);
    assert!(!delivered[0].flags.contains(&topicterm::api::Flag::Read), "unread for other subscribers");
    assert_eq!(delivered[0].local_message_id, None);
}

#[tokio::test]
async fn send_direct_and_group_direct_messages() {
    let env = Env::start().await;
    let c = env.client("member");
    let (me, farid, noa) = (env.user_id("member"), env.user_id("farid"), env.user_id("noa"));
    let one = send_dm(&c, vec![farid], "just us").await;
    let m = env.client("farid").get_message(one, true).await.unwrap().message;
    assert!(m.is_dm());
    let users: BTreeSet<UserId> = m.dm_user_ids().into_iter().collect();
    assert_eq!(users, BTreeSet::from([me, farid]));

    let group = send_dm(&c, vec![farid, noa], "the three of us").await;
    let m = env.client("noa").get_message(group, true).await.unwrap().message;
    let users: BTreeSet<UserId> = m.dm_user_ids().into_iter().collect();
    assert_eq!(users, BTreeSet::from([me, farid, noa]));
    assert_err(env.client("alice").get_message(group, true).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn send_to_the_empty_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    for topic in ["", "general chat", "(no topic)"] {
        let id = send_channel(&c, general, topic, "no topic here").await;
        let q = GetMessages {
            message_ids: Some(vec![id]),
            allow_empty_topic_name: Some(true),
            ..Default::default()
        };
        assert_eq!(c.get_messages(&q).await.unwrap().messages[0].subject, "", "topic {topic:?}");
        assert_eq!(c.get_message(id, true).await.unwrap().message.subject, "general chat");
    }
}

#[tokio::test]
async fn send_limits_are_checked_after_register() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    let before = env.requests();
    let r = c.send_message(&OutgoingMessage::channel(general, &"t".repeat(61), "hi")).await;
    assert_limit(&env, before, r, LimitError::TopicTooLong { len: 61, max: 60 });
    let r = c.send_message(&OutgoingMessage::channel(general, "ok", &"x".repeat(10_001))).await;
    assert_limit(&env, before, r, LimitError::ContentTooLong { len: 10_001, max: 10_000 });
    let r = c.send_message(&OutgoingMessage::direct(vec![], "hi")).await;
    assert_limit(&env, before, r, LimitError::NoRecipients);
    // Code points, not bytes: 60 two-byte characters fit.
    send_channel(&c, general, &"é".repeat(60), "fits").await;

    let g = general.to_string();
    let long_topic = "t".repeat(61);
    let long_content = "x".repeat(10_001);
    for (topic, content) in [(long_topic.as_str(), "hi"), ("ok", long_content.as_str())] {
        let raw = env
            .raw(
                "member",
                "POST",
                "/messages",
                &[("type", "channel"), ("to", g.as_str()), ("topic", topic), ("content", content)],
            )
            .await;
        assert_400(raw, "BAD_REQUEST");
    }
}

#[tokio::test]
async fn empty_content_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let c = env.client("member");
    let g = env.channel_id("general").to_string();
    let before = env.requests();
    let r = c.send_message(&OutgoingMessage::channel(env.channel_id("general"), "t", " \n ")).await;
    assert_limit(&env, before, r, LimitError::EmptyContent);
    let raw = env
        .raw(
            "member",
            "POST",
            "/messages",
            &[("type", "channel"), ("to", g.as_str()), ("topic", "t"), ("content", " ")],
        )
        .await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn edit_limits_are_checked_after_register() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let id = send_channel(&c, env.channel_id("engineering"), "limits", "short").await;
    let before = env.requests();
    let long_topic = MessageEdit { topic: Some("t".repeat(61)), ..Default::default() };
    assert_limit(
        &env,
        before,
        c.update_message(id, &long_topic).await,
        LimitError::TopicTooLong { len: 61, max: 60 },
    );
    let long_content = MessageEdit { content: Some("x".repeat(10_001)), ..Default::default() };
    let r = c.update_message(id, &long_content).await;
    assert_limit(&env, before, r, LimitError::ContentTooLong { len: 10_001, max: 10_000 });
    assert_limit(
        &env,
        before,
        c.update_message(id, &MessageEdit::default()).await,
        LimitError::NothingToChange,
    );

    let path = format!("/messages/{id}");
    let (topic, content) = ("t".repeat(61), "x".repeat(10_001));
    for params in [vec![("topic", topic.as_str())], vec![("content", content.as_str())], vec![]] {
        assert_400(env.raw("member", "PATCH", &path, &params).await, "BAD_REQUEST");
    }
    let m = c.get_message(id, false).await.unwrap().message;
    assert_eq!((m.subject.as_str(), m.content.as_str()), ("limits", "short"));
}

#[tokio::test]
async fn an_admins_only_channel_refuses_members() {
    let env = Env::start().await;
    let announcements = env.channel_id("announcements");
    let r = env.client("member").send_message(&OutgoingMessage::channel(announcements, "hi", "may I?")).await;
    assert_err(r, "BAD_REQUEST", "permission");
    send_channel(&env.client("admin"), announcements, "hi", "admins may").await;
}

#[tokio::test]
async fn local_id_is_echoed_only_on_the_senders_queue() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let (q1, q2, aq) = (queue(&c).await, queue(&c).await, queue(&alice).await);
    let msg = OutgoingMessage {
        local_id: Some("local-17".into()),
        queue_id: Some(q1.clone()),
        ..OutgoingMessage::channel(env.channel_id("engineering"), "echo", "with a local id")
    };
    let id = c.send_message(&msg).await.unwrap().id;
    let on = |evs: Vec<EventKind>| message_events(&evs).into_iter().find(|e| e.message.id == id).unwrap();
    assert_eq!(on(events(&c, &q1).await).local_message_id.as_deref(), Some("local-17"));
    assert_eq!(on(events(&c, &q2).await).local_message_id, None, "another queue of the sender");
    assert_eq!(on(events(&alice, &aq).await).local_message_id, None);
}

// ---------------------------------------------------------------------------------------------
// Editing and moving
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn only_the_sender_edits_content() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let aq = queue(&alice).await;
    let id = send_channel(&c, env.channel_id("engineering"), "edits", "original text").await;
    let edit = MessageEdit { content: Some("edited text".into()), ..Default::default() };
    for other in ["alice", "admin", "owner"] {
        assert_err(env.client(other).update_message(id, &edit).await, "BAD_REQUEST", "permission");
    }
    assert_eq!(c.get_message(id, false).await.unwrap().message.content, "original text");

    c.update_message(id, &edit).await.unwrap();
    let m = c.get_message(id, false).await.unwrap().message;
    assert_eq!(m.content, "edited text");
    assert!(m.last_edit_timestamp.is_some());
    assert!(m.last_moved_timestamp.is_none());
    let ups = update_events(&events(&alice, &aq).await);
    assert_eq!(ups.len(), 1);
    assert_eq!(ups[0].message_id, id);
    assert_eq!(ups[0].orig_content.as_deref(), Some("original text"));
    assert_eq!(ups[0].content.as_deref(), Some("edited text"));
}

async fn topic_ids(c: &Client, channel: ChannelId, topic: &str) -> Vec<MessageId> {
    ids(&all(c, vec![t("channel", channel), t("topic", topic)]).await)
}

#[tokio::test]
async fn topic_moves_follow_the_propagate_mode() {
    let env = Env::start().await;
    let c = env.client("member");
    let aq = queue(&env.client("alice")).await;
    let eng = env.channel_id("engineering");
    let mut sent = Vec::new();
    for topic in ["pm one", "pm later", "pm all"] {
        let mut batch = Vec::new();
        for i in 0..3 {
            batch.push(send_channel(&c, eng, topic, &format!("{topic} {i}")).await);
        }
        sent.push(batch);
    }
    c.update_message(sent[0][1], &move_to(Some("moved one"), None, "change_one")).await.unwrap();
    c.update_message(sent[1][1], &move_to(Some("moved later"), None, "change_later")).await.unwrap();
    c.update_message(sent[2][1], &move_to(Some("moved all"), None, "change_all")).await.unwrap();

    assert_eq!(topic_ids(&c, eng, "moved one").await, vec![sent[0][1]]);
    assert_eq!(topic_ids(&c, eng, "pm one").await, vec![sent[0][0], sent[0][2]]);
    assert_eq!(topic_ids(&c, eng, "moved later").await, sent[1][1..].to_vec());
    assert_eq!(topic_ids(&c, eng, "pm later").await, vec![sent[1][0]]);
    assert_eq!(topic_ids(&c, eng, "moved all").await, sent[2]);
    assert!(topic_ids(&c, eng, "pm all").await.is_empty());
    let moved = c.get_message(sent[1][2], true).await.unwrap().message;
    assert!(moved.last_moved_timestamp.is_some());
    assert!(moved.last_edit_timestamp.is_none());
    assert_eq!(moved.edit_history.unwrap()[0].prev_topic.as_deref(), Some("pm later"));

    let alice = env.client("alice");
    let ups = update_events(&events(&alice, &aq).await);
    let modes: Vec<(Option<&str>, Vec<MessageId>)> =
        ups.iter().map(|u| (u.propagate_mode.as_deref(), u.message_ids.clone())).collect();
    assert_eq!(
        modes,
        vec![
            (Some("change_one"), vec![sent[0][1]]),
            (Some("change_later"), sent[1][1..].to_vec()),
            (Some("change_all"), sent[2].clone()),
        ]
    );
}

/// Topics that differ only in case are one topic to the server, in every script: a narrow
/// finds all of it, and moving it moves all of it.
#[tokio::test]
async fn a_topic_is_one_topic_whatever_the_case_of_its_letters() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = env.channel_id("engineering");
    let mut sent = Vec::new();
    for topic in ["Äpfel", "äPFEL", "äpfel"] {
        sent.push(send_channel(&c, eng, topic, topic).await);
    }
    assert_eq!(topic_ids(&c, eng, "ÄPFEL").await, sent);
    c.update_message(sent[0], &move_to(Some("Birnen"), None, "change_all")).await.unwrap();
    assert_eq!(topic_ids(&c, eng, "birnen").await, sent);
    assert!(topic_ids(&c, eng, "äpfel").await.is_empty());
}

#[tokio::test]
async fn move_a_message_to_another_channel() {
    let env = Env::start().await;
    let c = env.client("member");
    let guest = env.client("guest");
    let (eng, design) = (env.channel_id("engineering"), env.channel_id("design"));
    let id = send_channel(&c, eng, "moving", "this belongs in design").await;
    assert_err(guest.get_message(id, true).await, "BAD_REQUEST", "");
    c.update_message(id, &move_to(None, Some(design), "change_one")).await.unwrap();
    let m = c.get_message(id, true).await.unwrap().message;
    assert_eq!((m.stream_id, m.channel_name(), m.subject.as_str()), (Some(design), Some("design"), "moving"));
    assert!(m.last_moved_timestamp.is_some());
    let e = &m.edit_history.unwrap()[0];
    assert_eq!((e.prev_stream, e.stream), (Some(eng), Some(design)));
    assert!(e.prev_topic.is_none());
    // Design's subscribers (the guest among them) can read it now.
    assert_eq!(guest.get_message(id, true).await.unwrap().message.id, id);
}

#[tokio::test]
async fn resolving_a_topic_is_not_a_move() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = env.channel_id("engineering");
    let id = send_channel(&c, eng, "needs fixing", "please fix").await;
    c.update_message(id, &move_to(Some("✔ needs fixing"), None, "change_all")).await.unwrap();
    let m = c.get_message(id, true).await.unwrap().message;
    assert_eq!(m.subject, "✔ needs fixing");
    assert!(m.last_moved_timestamp.is_none(), "resolving alone does not set last_moved_timestamp");
    let e = &m.edit_history.unwrap()[0];
    assert_eq!((e.prev_topic.as_deref(), e.topic.as_deref()), (Some("needs fixing"), Some("✔ needs fixing")));
    assert!(ids(&all(&c, vec![t("is", "resolved")]).await).contains(&id));
    // The seed's resolved topic was never moved either.
    let seeded = find(&c, "test_event_queue_gc has failed").await;
    assert!(seeded.last_moved_timestamp.is_none());

    c.update_message(id, &move_to(Some("renamed"), None, "change_all")).await.unwrap();
    assert!(c.get_message(id, true).await.unwrap().message.last_moved_timestamp.is_some());
}

// ---------------------------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn update_message_flags_adds_and_removes_read_and_starred() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let m = find(&c, "Tally so far TOML").await;
    assert!(!m.has_flag(topicterm::api::Flag::Read) && !m.has_flag(topicterm::api::Flag::Starred));

    assert_eq!(
        c.update_message_flags(&[m.id], true, topicterm::api::Flag::Read).await.unwrap().messages,
        vec![m.id]
    );
    assert!(c.get_message(m.id, true).await.unwrap().message.has_flag(topicterm::api::Flag::Read));
    assert!(!ids(&all(&c, vec![t("is", "unread")]).await).contains(&m.id));
    // Already read: nothing changes.
    assert!(
        c.update_message_flags(&[m.id], true, topicterm::api::Flag::Read).await.unwrap().messages.is_empty()
    );
    c.update_message_flags(&[m.id], false, topicterm::api::Flag::Read).await.unwrap();
    assert!(ids(&all(&c, vec![t("is", "unread")]).await).contains(&m.id));

    c.update_message_flags(&[m.id], true, topicterm::api::Flag::Starred).await.unwrap();
    assert!(ids(&all(&c, vec![t("is", "starred")]).await).contains(&m.id));
    c.update_message_flags(&[m.id], false, topicterm::api::Flag::Starred).await.unwrap();
    assert!(!ids(&all(&c, vec![t("is", "starred")]).await).contains(&m.id));

    let got: Vec<(AddRemove, topicterm::api::Flag, Vec<MessageId>)> =
        flag_events(&events(&c, &q).await).into_iter().map(|f| (f.op, f.flag, f.messages)).collect();
    let expect = |op: &str, flag: &str| (AddRemove::from(op.to_owned()), flag.into(), vec![m.id]);
    assert_eq!(
        got,
        vec![
            expect("add", "read"),
            expect("remove", "read"),
            expect("add", "starred"),
            expect("remove", "starred")
        ]
    );
}

#[tokio::test]
async fn update_message_flags_refuses_flags_users_cannot_set() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Tally so far TOML").await;
    for flag in ["mentioned", "wildcard_mentioned", "has_alert_word", "historical"] {
        assert_err(c.update_message_flags(&[m.id], true, flag.into()).await, "BAD_REQUEST", "not editable");
    }
    assert_err(
        c.update_message_flags(&[m.id], true, topicterm::api::Flag::from("sparkly")).await,
        "BAD_REQUEST",
        "Invalid flag",
    );
}

#[tokio::test]
async fn update_message_flags_for_narrow_marks_the_window() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let topic = vec![t("channel", "engineering"), t("topic", "release 2.4 planning")];
    let everything = ids(&all(&c, topic.clone()).await);
    let mut unread_narrow = topic.clone();
    unread_narrow.push(t("is", "unread"));
    let unread = ids(&all(&c, unread_narrow.clone()).await);
    assert!(!unread.is_empty());

    let r = c
        .update_message_flags_for_narrow(&Anchor::Oldest, 0, 5000, &topic, true, topicterm::api::Flag::Read)
        .await
        .unwrap();
    assert_eq!(r.processed_count as usize, everything.len());
    assert_eq!(r.updated_count as usize, unread.len());
    assert_eq!(
        (r.first_processed_id, r.last_processed_id),
        (everything.first().copied(), everything.last().copied())
    );
    assert!(r.found_oldest && r.found_newest);
    assert!(all(&c, unread_narrow).await.is_empty());
    let f = &flag_events(&events(&c, &q).await)[0];
    assert_eq!((&f.op, f.flag.as_str()), (&AddRemove::Add, "read"));
    assert_eq!(f.messages, unread);
}

// ---------------------------------------------------------------------------------------------
// Single message
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn get_message_returns_raw_markdown_on_request() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "blameless review").await;
    let raw = c.get_message(m.id, false).await.unwrap();
    assert_eq!(raw.message.content_type.as_deref(), Some("text/x-markdown"));
    assert!(raw.message.content.contains("**blameless**"));
    assert_eq!(raw.raw_content.as_deref(), Some(raw.message.content.as_str()));
    let html = c.get_message(m.id, true).await.unwrap().message;
    assert_eq!(html.content_type.as_deref(), Some("text/html"));
    assert_eq!(html.content, m.content);
}
