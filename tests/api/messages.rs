//! Messages: get (anchors, windows, narrows, history access, limits), report, edit history,
//! mark topic as read, reactions, typing for edits, send, edit and move, flags.

use crate::common::{Env, assert_err};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;
use topicterm::api::*;
use topicterm::server::ServerOptions;

/// The anchor the server reports for `newest` (and for "no such message, use the newest").
const NEWEST: i64 = 10_000_000_000_000_000;

fn t(op: &str, operand: impl Into<Value>) -> NarrowTerm {
    NarrowTerm::new(op, operand)
}

fn ids(ms: &[Message]) -> Vec<MessageId> {
    ms.iter().map(|m| m.id).collect()
}

/// Every message matching `narrow` (one request: the seed is far below the 5000 limit).
async fn all(c: &Client, narrow: Vec<NarrowTerm>) -> Vec<Message> {
    let r = c.get_messages(&GetMessages::around(Anchor::Newest, 5000, 0).narrow(narrow)).await.unwrap();
    assert!(r.found_newest && r.found_oldest, "one request should cover the whole narrow");
    r.messages
}

/// The one message matching `narrow` plus a full-text search for `words`.
async fn find_in(c: &Client, mut narrow: Vec<NarrowTerm>, words: &str) -> Message {
    narrow.push(t("search", words));
    let found = all(c, narrow).await;
    assert_eq!(found.len(), 1, "search {words:?} should match one message, got {:?}", ids(&found));
    found.into_iter().next().unwrap()
}

/// The one message of `c`'s personal history containing `words`.
async fn find(c: &Client, words: &str) -> Message {
    find_in(c, vec![], words).await
}

/// Register an event queue for `c` (this also teaches the client the server's limits).
async fn queue(c: &Client) -> String {
    c.register(&RegisterParams::default()).await.unwrap().queue_id.expect("queue_id")
}

/// Every event still in the queue (never acknowledged, so each call sees all of them).
async fn events(c: &Client, queue_id: &str) -> Vec<EventKind> {
    let evs = c.get_events(queue_id, -1, true, Duration::from_secs(5)).await.unwrap();
    evs.into_iter().map(|e| e.kind).filter(|k| *k != EventKind::Heartbeat).collect()
}

/// The events of one kind, in order.
fn pick<T>(evs: &[EventKind], f: impl Fn(&EventKind) -> Option<T>) -> Vec<T> {
    evs.iter().filter_map(f).collect()
}

fn typing_edits(evs: &[EventKind]) -> Vec<TypingEditEvent> {
    pick(evs, |e| if let EventKind::TypingEditMessage(t) = e { Some(t.clone()) } else { None })
}

fn reaction_events(evs: &[EventKind]) -> Vec<ReactionEvent> {
    pick(evs, |e| if let EventKind::Reaction(r) = e { Some(r.clone()) } else { None })
}

fn flag_events(evs: &[EventKind]) -> Vec<FlagsEvent> {
    pick(evs, |e| if let EventKind::UpdateMessageFlags(f) = e { Some(f.clone()) } else { None })
}

fn message_events(evs: &[EventKind]) -> Vec<MessageEvent> {
    pick(evs, |e| if let EventKind::Message(m) = e { Some((**m).clone()) } else { None })
}

fn update_events(evs: &[EventKind]) -> Vec<UpdateMessageEvent> {
    pick(evs, |e| if let EventKind::UpdateMessage(m) = e { Some((**m).clone()) } else { None })
}

/// Assert a client-side refusal that never reached the server.
#[track_caller]
fn assert_limit<T: std::fmt::Debug>(env: &Env, before: u64, r: Result<T>, expected: LimitError) {
    match r {
        Err(ApiError::Limit(e)) => assert_eq!(e, expected),
        other => panic!("expected limit error {expected:?}, got {other:?}"),
    }
    assert_eq!(env.requests(), before, "a refused request must not reach the server");
}

/// Assert a raw response is the server's own 400 with `code`.
#[track_caller]
fn assert_400(resp: (u16, Value), code: &str) -> Value {
    let (status, body) = resp;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["result"], "error", "{body}");
    assert_eq!(body["code"], code, "{body}");
    body
}

async fn send_channel(c: &Client, channel: i64, topic: &str, content: &str) -> MessageId {
    c.send_message(&OutgoingMessage::channel(channel, topic, content)).await.unwrap().id
}

async fn send_dm(c: &Client, to: Vec<UserId>, content: &str) -> MessageId {
    c.send_message(&OutgoingMessage::direct(to, content)).await.unwrap().id
}

/// A move without the notification bot's note in the new conversation (these tests count the
/// messages that moved; `tests/api/daily.rs` checks the notes).
fn move_to(topic: Option<&str>, stream_id: Option<ChannelId>, mode: &str) -> MessageEdit {
    MessageEdit {
        topic: topic.map(str::to_owned),
        stream_id,
        propagate_mode: Some(mode.to_owned()),
        send_notification_to_new_thread: Some(false),
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Operation 6: get messages — anchors and windows
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn newest_anchor_returns_the_latest_window() {
    let env = Env::start().await;
    let c = env.client("member");
    let everything = all(&c, vec![]).await;
    let r = c.get_messages(&GetMessages::around(Anchor::Newest, 5, 0)).await.unwrap();
    assert_eq!(ids(&r.messages), ids(&everything[everything.len() - 5..]));
    assert_eq!(r.anchor, Some(NEWEST));
    assert!(r.found_newest);
    assert!(!r.found_oldest);
    assert!(!r.found_anchor, "newest is not a message");
    assert!(!r.history_limited);
    assert!(r.ignored_parameters_unsupported.is_empty());
}

#[tokio::test]
async fn oldest_anchor_returns_the_first_window() {
    let env = Env::start().await;
    let c = env.client("member");
    let everything = all(&c, vec![]).await;
    let r = c.get_messages(&GetMessages::around(Anchor::Oldest, 0, 5)).await.unwrap();
    assert_eq!(ids(&r.messages), ids(&everything[..5]));
    assert_eq!(r.anchor, Some(0));
    assert!(r.found_oldest);
    assert!(!r.found_newest);
    assert!(!r.found_anchor);
}

#[tokio::test]
async fn integer_anchor_takes_num_before_and_num_after_around_it() {
    let env = Env::start().await;
    let c = env.client("member");
    let everything = ids(&all(&c, vec![]).await);
    let k = everything.len() / 2;
    let r = c.get_messages(&GetMessages::around(Anchor::Id(everything[k]), 3, 2)).await.unwrap();
    assert_eq!(ids(&r.messages), everything[k - 3..=k + 2].to_vec());
    assert_eq!(r.anchor, Some(everything[k]));
    assert!(r.found_anchor);
    assert!(!r.found_oldest && !r.found_newest);

    // A window that reaches both ends says so.
    let r = c.get_messages(&GetMessages::around(Anchor::Id(everything[1]), 5, 0)).await.unwrap();
    assert_eq!(ids(&r.messages), everything[..2].to_vec());
    assert!(r.found_oldest && !r.found_newest);
    let last = everything.len() - 2;
    let r = c.get_messages(&GetMessages::around(Anchor::Id(everything[last]), 0, 5)).await.unwrap();
    assert_eq!(ids(&r.messages), everything[last..].to_vec());
    assert!(r.found_newest && !r.found_oldest);
}

#[tokio::test]
async fn include_anchor_false_leaves_the_anchor_out() {
    let env = Env::start().await;
    let c = env.client("member");
    let everything = ids(&all(&c, vec![]).await);
    let k = everything.len() / 2;
    let q =
        GetMessages { include_anchor: Some(false), ..GetMessages::around(Anchor::Id(everything[k]), 3, 2) };
    let r = c.get_messages(&q).await.unwrap();
    let mut expected = everything[k - 3..k].to_vec();
    expected.extend_from_slice(&everything[k + 1..=k + 2]);
    assert_eq!(ids(&r.messages), expected);
    assert!(!r.found_anchor, "found_anchor is false when include_anchor is false");
}

#[tokio::test]
async fn anchor_outside_the_narrow_is_not_found_but_positions_the_window() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = env.channel_id("engineering");
    let dm = find(&c, "14:00 works").await;
    let in_channel = ids(&all(&c, vec![t("channel", eng)]).await);
    let r = c
        .get_messages(&GetMessages::around(Anchor::Id(dm.id), 2, 2).narrow(vec![t("channel", eng)]))
        .await
        .unwrap();
    assert!(!r.found_anchor, "the anchor does not match the narrow");
    let split = in_channel.partition_point(|id| *id < dm.id);
    assert_eq!(ids(&r.messages), in_channel[split - 2..split + 2].to_vec());

    // An ID beyond every message: not found, the window ends at the newest message.
    let beyond = in_channel.last().unwrap() + 1_000_000;
    let r = c
        .get_messages(&GetMessages::around(Anchor::Id(beyond), 3, 3).narrow(vec![t("channel", eng)]))
        .await
        .unwrap();
    assert!(!r.found_anchor);
    assert!(r.found_newest);
    assert_eq!(ids(&r.messages), in_channel[in_channel.len() - 3..].to_vec());
}

#[tokio::test]
async fn first_unread_anchor_is_the_oldest_unread_message() {
    let env = Env::start().await;
    let c = env.client("member");
    let unread = ids(&all(&c, vec![t("is", "unread")]).await);
    assert!(!unread.is_empty(), "the seed leaves member unread messages");
    let r = c.get_messages(&GetMessages::around(Anchor::FirstUnread, 0, 0)).await.unwrap();
    assert_eq!(r.anchor, Some(unread[0]));
    assert!(r.found_anchor);
    assert_eq!(ids(&r.messages), vec![unread[0]]);
    assert!(!r.messages[0].has_flag(topicterm::api::Flag::Read));

    // The deprecated flag means the same anchor.
    let q = GetMessages {
        use_first_unread_anchor: Some(true),
        num_before: Some(0),
        num_after: Some(0),
        ..Default::default()
    };
    let r = c.get_messages(&q).await.unwrap();
    assert_eq!(r.anchor, Some(unread[0]));
    assert_eq!(ids(&r.messages), vec![unread[0]]);
}

#[tokio::test]
async fn first_unread_anchor_without_unread_messages_is_the_newest() {
    let env = Env::start().await;
    let c = env.client("member");
    let design = vec![t("channel", "design")];
    c.update_message_flags_for_narrow(&Anchor::Oldest, 0, 5000, &design, true, topicterm::api::Flag::Read)
        .await
        .unwrap();
    assert!(all(&c, vec![t("channel", "design"), t("is", "unread")]).await.is_empty());
    let everything = ids(&all(&c, design.clone()).await);
    let r = c.get_messages(&GetMessages::around(Anchor::FirstUnread, 2, 0).narrow(design)).await.unwrap();
    assert_eq!(r.anchor, Some(NEWEST));
    assert!(r.found_newest);
    assert_eq!(ids(&r.messages), everything[everything.len() - 2..].to_vec());
}

fn utc(ts: i64) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(ts, 0).unwrap()
}

#[tokio::test]
async fn date_anchor_finds_the_first_message_on_or_after_the_date() {
    let env = Env::start().await;
    let c = env.client("member");
    let everything = all(&c, vec![]).await;
    // A message sent strictly later than the one before it.
    let k = (everything.len() / 2..everything.len())
        .find(|&k| everything[k - 1].timestamp < everything[k].timestamp)
        .unwrap();
    let m = &everything[k];
    let at = utc(m.timestamp);
    let date_query =
        |d: String| GetMessages { anchor_date: Some(d), ..GetMessages::around(Anchor::Date, 0, 0) };
    // Without a zone the time is UTC; with Z or an offset it names the same instant.
    let shifted = (at + chrono::TimeDelta::hours(2)).format("%Y-%m-%dT%H:%M:%S+02:00").to_string();
    for d in
        [at.format("%Y-%m-%dT%H:%M:%S").to_string(), at.format("%Y-%m-%dT%H:%M:%SZ").to_string(), shifted]
    {
        let r = c.get_messages(&date_query(d.clone())).await.unwrap();
        assert_eq!(r.anchor, Some(m.id), "anchor_date {d}");
        assert!(r.found_anchor);
        assert_eq!(ids(&r.messages), vec![m.id]);
    }

    // A date alone means 00:00 UTC of that day.
    let midnight = at.date_naive().and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp();
    let expected = everything.iter().find(|x| x.timestamp >= midnight).unwrap().id;
    let r = c.get_messages(&date_query(at.format("%Y-%m-%d").to_string())).await.unwrap();
    assert_eq!(r.anchor, Some(expected));

    // Nothing on or after the date: the most recent message.
    let r = c
        .get_messages(&GetMessages {
            anchor_date: Some("2999-01-01".into()),
            ..GetMessages::around(Anchor::Date, 1, 0)
        })
        .await
        .unwrap();
    assert_eq!(ids(&r.messages), vec![everything.last().unwrap().id]);
    assert!(r.found_newest);
}

#[tokio::test]
async fn paging_backwards_with_an_anchor_covers_the_narrow_without_overlap() {
    let env = Env::start().await;
    let c = env.client("member");
    let narrow = vec![t("channel", "engineering")];
    let everything = ids(&all(&c, narrow.clone()).await);
    assert!(everything.len() > 30);
    let first =
        c.get_messages(&GetMessages::around(Anchor::Newest, 10, 0).narrow(narrow.clone())).await.unwrap();
    assert!(first.found_newest);
    let mut pages = vec![ids(&first.messages)];
    let mut found_oldest = first.found_oldest;
    while !found_oldest {
        let oldest = pages.last().unwrap()[0];
        let q = GetMessages {
            include_anchor: Some(false),
            ..GetMessages::around(Anchor::Id(oldest), 10, 0).narrow(narrow.clone())
        };
        let r = c.get_messages(&q).await.unwrap();
        assert!(!r.found_newest, "an older page does not reach the newest message");
        assert!(r.messages.len() == 10 || r.found_oldest);
        found_oldest = r.found_oldest;
        pages.push(ids(&r.messages));
    }
    let stitched: Vec<MessageId> = pages.into_iter().rev().flatten().collect();
    assert_eq!(stitched, everything);
}

#[tokio::test]
async fn message_ids_returns_existing_accessible_messages_and_honours_the_narrow() {
    let env = Env::start().await;
    let c = env.client("member");
    let admin = env.client("admin");
    let eng = find(&c, "Tally so far TOML").await;
    let dm = find(&c, "14:00 works").await;
    let private = find(&admin, "Draft hiring plan").await;
    let q =
        GetMessages { message_ids: Some(vec![dm.id, eng.id, private.id, 99_999_999]), ..Default::default() };
    let r = c.get_messages(&q).await.unwrap();
    let mut expected = vec![eng.id, dm.id];
    expected.sort_unstable();
    assert_eq!(ids(&r.messages), expected, "only existing, accessible messages, sorted by ID");
    assert_eq!(r.anchor, None, "no anchor with message_ids");

    let q = GetMessages {
        message_ids: Some(vec![dm.id, eng.id]),
        narrow: vec![t("channel", "engineering")],
        ..Default::default()
    };
    assert_eq!(ids(&c.get_messages(&q).await.unwrap().messages), vec![eng.id]);
}

#[tokio::test]
async fn apply_markdown_false_returns_raw_markdown() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "blameless review").await;
    assert_eq!(m.content_type.as_deref(), Some("text/html"));
    assert!(m.content.contains("<strong>blameless</strong>"), "{}", m.content);
    let q = GetMessages {
        apply_markdown: Some(false),
        narrow: vec![t("search", "blameless review")],
        ..GetMessages::around(Anchor::Newest, 10, 0)
    };
    let raw = c.get_messages(&q).await.unwrap().messages.remove(0);
    assert_eq!(raw.id, m.id);
    assert_eq!(raw.content_type.as_deref(), Some("text/x-markdown"));
    assert!(raw.content.contains("**blameless**"), "{}", raw.content);
}

#[tokio::test]
async fn empty_topic_is_shown_by_name_unless_the_client_allows_it() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let narrow = vec![t("channel", general), t("topic", "")];
    // A client that does not allow it (topicterm allows it unless told otherwise).
    let q = GetMessages {
        allow_empty_topic_name: Some(false),
        ..GetMessages::around(Anchor::Newest, 5000, 0).narrow(narrow.clone())
    };
    let plain = c.get_messages(&q).await.unwrap().messages;
    assert!(plain.len() >= 3, "the seed has empty-topic messages in general");
    assert!(plain.iter().all(|m| m.subject == "general chat"));
    let q = GetMessages {
        allow_empty_topic_name: Some(true),
        ..GetMessages::around(Anchor::Newest, 5000, 0).narrow(narrow)
    };
    let allowed = c.get_messages(&q).await.unwrap().messages;
    assert_eq!(ids(&allowed), ids(&plain));
    assert!(allowed.iter().all(|m| m.subject.is_empty()));
    // The display name as a topic operand means the empty topic.
    let by_name = all(&c, vec![t("channel", general), t("topic", "general chat")]).await;
    assert_eq!(ids(&by_name), ids(&plain));
}

#[tokio::test]
async fn avatar_url_is_null_only_for_gravatar_senders_with_client_gravatar() {
    let env = Env::start().await;
    let c = env.client("member");
    let erin = env.user_id("erin");
    let actions = DeactivationActions { delete_profile: true, ..Default::default() };
    // Deleting erin's profile removes her uploaded avatar: clients fall back to gravatar.
    env.client("admin").deactivate_user(erin, Some(&actions), None).await.unwrap();
    let narrow = vec![t("channel", "general")];
    let q = |client_gravatar| GetMessages {
        client_gravatar,
        ..GetMessages::around(Anchor::Newest, 5000, 0).narrow(narrow.clone())
    };
    for default_or_true in [None, Some(true)] {
        let ms = c.get_messages(&q(default_or_true)).await.unwrap().messages;
        assert!(ms.iter().any(|m| m.sender_id == erin));
        for m in &ms {
            let expected = (m.sender_id != erin).then(|| format!("/avatar/{}", m.sender_id));
            assert_eq!(m.avatar_url, expected, "message {}", m.id);
        }
    }
    let ms = c.get_messages(&q(Some(false))).await.unwrap().messages;
    assert!(ms.iter().all(|m| m.avatar_url == Some(format!("/avatar/{}", m.sender_id))));
}

// ---------------------------------------------------------------------------------------------
// Operation 6: narrows
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn narrow_by_channel_name_or_id() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = env.channel_id("engineering");
    let by_name = all(&c, vec![t("channel", "engineering")]).await;
    let by_id = all(&c, vec![t("channel", eng)]).await;
    let legacy_name = all(&c, vec![t("stream", "engineering")]).await;
    assert!(!by_name.is_empty());
    assert_eq!(ids(&by_name), ids(&by_id));
    assert_eq!(ids(&by_name), ids(&legacy_name));
    for m in &by_name {
        assert_eq!(m.stream_id, Some(eng));
        assert_eq!(m.channel_name(), Some("engineering"));
        assert_eq!(m.kind, MessageType::Stream);
    }
}

#[tokio::test]
async fn narrow_by_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("channel", "engineering"), t("topic", "release 2.4 planning")]).await;
    assert!(ms.len() > 5);
    assert!(ms.iter().all(|m| m.subject == "release 2.4 planning"));
    assert!(ms.iter().any(|m| m.content.contains("Kicking off 2.4 planning")));
}

#[tokio::test]
async fn narrow_by_direct_message_conversation() {
    let env = Env::start().await;
    let c = env.client("member");
    let (me, farid, alice, dave) =
        (env.user_id("member"), env.user_id("farid"), env.user_id("alice"), env.user_id("dave"));
    let one = all(&c, vec![t("dm", json!([farid]))]).await;
    assert!(one.iter().any(|m| m.content.contains("14:00 works")));
    for m in &one {
        let mut users = m.dm_user_ids();
        users.sort_unstable();
        let mut expected = vec![me, farid];
        expected.sort_unstable();
        assert_eq!(users, expected);
        assert_eq!(m.subject, "", "direct messages have no topic");
    }
    let group = all(&c, vec![t("dm", json!([alice, dave]))]).await;
    assert!(group.iter().any(|m| m.content.contains("perfect")));
    for m in &group {
        let users: BTreeSet<UserId> = m.dm_user_ids().into_iter().collect();
        assert_eq!(users, BTreeSet::from([me, alice, dave]));
    }
}

#[tokio::test]
async fn narrow_dm_including_includes_group_conversations() {
    let env = Env::start().await;
    let c = env.client("member");
    let (farid, noa) = (env.user_id("farid"), env.user_id("noa"));
    let group = send_dm(&c, vec![farid, noa], "group with farid and noa").await;
    let one_to_one = ids(&all(&c, vec![t("dm", json!([farid]))]).await);
    assert!(!one_to_one.contains(&group));
    // `dm-with` is the web app's search-box name: the client sends it as `dm-including`.
    for op in ["dm-with", "dm-including"] {
        let with = all(&c, vec![t(op, farid)]).await;
        assert!(with.iter().all(|m| m.dm_user_ids().contains(&farid)), "{op}");
        let with = ids(&with);
        assert!(with.contains(&group), "{op} includes the group DM");
        assert!(one_to_one.iter().all(|id| with.contains(id)), "{op} includes the 1:1 DMs");
    }
    // `group-pm-with`: the group conversations only.
    let groups = ids(&all(&c, vec![t("group-pm-with", farid)]).await);
    assert!(groups.contains(&group) && one_to_one.iter().all(|id| !groups.contains(id)));
    // No server knows `dm-with` itself: asked directly, it is refused as the reference server
    // refuses it (an integer operand fails the string check before the operator is looked up).
    let page = [("anchor", "newest"), ("num_before", "5"), ("num_after", "0")];
    let by_id = json!([{"operator": "dm-with", "operand": farid}]).to_string();
    let (status, body) =
        env.raw("member", "GET", "/messages", &[&page[..], &[("narrow", by_id.as_str())]].concat()).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("operand is not a string")), "{body}");
    let by_email = json!([{"operator": "dm-with", "operand": env.creds("farid").email}]).to_string();
    let (status, body) =
        env.raw("member", "GET", "/messages", &[&page[..], &[("narrow", by_email.as_str())]].concat()).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")), "{body}");
    assert_eq!(body["msg"], "Invalid narrow operator: unknown operator dm-with");
}

#[tokio::test]
async fn narrow_by_sender_id_or_email() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.user_id("alice");
    let by_id = all(&c, vec![t("sender", alice)]).await;
    let by_email = all(&c, vec![t("sender", env.creds("alice").email)]).await;
    assert!(!by_id.is_empty());
    assert_eq!(ids(&by_id), ids(&by_email));
    assert!(by_id.iter().all(|m| m.sender_id == alice));
}

#[tokio::test]
async fn narrow_is_unread_matches_the_unread_state() {
    let env = Env::start().await;
    let c = env.client("member");
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    let unread = all(&c, vec![t("is", "unread")]).await;
    assert!(unread.iter().all(|m| !m.has_flag(topicterm::api::Flag::Read)));
    assert_eq!(unread.len() as i64, reg.unread_msgs.unwrap().count);
    let tally = find(&c, "Tally so far TOML").await;
    assert!(ids(&unread).contains(&tally.id));
}

#[tokio::test]
async fn narrow_is_starred_matches_starred_messages() {
    let env = Env::start().await;
    let c = env.client("member");
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    let starred = all(&c, vec![t("is", "starred")]).await;
    assert!(!starred.is_empty());
    assert!(starred.iter().all(|m| m.has_flag(topicterm::api::Flag::Starred)));
    assert_eq!(ids(&starred), reg.starred_messages.unwrap());
}

#[tokio::test]
async fn narrow_is_mentioned() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "mentioned")]).await;
    assert!(ms.iter().all(|m| m.has_flag(topicterm::api::Flag::Mentioned)
        || m.has_flag(topicterm::api::Flag::StreamWildcardMentioned)));
    assert!(ms.iter().any(|m| m.content.contains("blocker for 2.4")));
    let quiet = find(&c, "Tally so far TOML").await;
    assert!(!ids(&ms).contains(&quiet.id));
}

#[tokio::test]
async fn narrow_mentions_id_and_near() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let mentions = all(&c, vec![t("mentions", me)]).await;
    assert!(mentions.iter().any(|m| m.content.contains("blocker for 2.4")));
    assert!(mentions.iter().all(|m| m.has_flag(topicterm::api::Flag::Mentioned)));
    let m = find(&c, "Tally so far TOML").await;
    assert_eq!(ids(&all(&c, vec![t("id", m.id)]).await), vec![m.id]);
    // near only positions a view; on the server it filters nothing.
    let eng = ids(&all(&c, vec![t("channel", "engineering")]).await);
    assert_eq!(ids(&all(&c, vec![t("channel", "engineering"), t("near", m.id)]).await), eng);
}

#[tokio::test]
async fn narrow_is_dm() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "dm")]).await;
    assert!(ms.iter().all(Message::is_dm));
    assert!(ms.iter().any(|m| m.content.contains("14:00 works")));
    let legacy = all(&c, vec![t("is", "private")]).await;
    assert_eq!(ids(&ms), ids(&legacy));
}

#[tokio::test]
async fn narrow_is_resolved() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "resolved")]).await;
    assert!(!ms.is_empty());
    assert!(ms.iter().all(|m| m.subject.starts_with("✔ ")));
    assert!(ms.iter().any(|m| m.subject == "✔ flaky CI on arm64"));
}

#[tokio::test]
async fn narrow_is_followed() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "followed")]).await;
    let topics: BTreeSet<&str> = ms.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(topics, BTreeSet::from(["release 2.4 planning", "SSO login loop for Acme"]));
}

#[tokio::test]
async fn narrow_is_muted_covers_muted_topics_and_channels_but_not_unmuted_topics() {
    let env = Env::start().await;
    let c = env.client("member");
    let random = env.channel_id("random");
    let ms = all(&c, vec![t("is", "muted")]).await;
    for m in &ms {
        let muted_topic = m.subject == "bikeshed: config file format";
        let muted_channel = m.stream_id == Some(random) && m.subject != "lunch friday";
        assert!(muted_topic || muted_channel, "{} / {}", m.id, m.subject);
    }
    assert!(ms.iter().any(|m| m.subject == "bikeshed: config file format"));
    assert!(ms.iter().any(|m| m.content.contains("Clint Yeastwood")), "muted channel random");
    assert!(!ms.iter().any(|m| m.subject == "lunch friday"), "unmuted topic in a muted channel");
}

#[tokio::test]
async fn narrow_has_link_image_and_reaction() {
    let env = Env::start().await;
    let c = env.client("member");
    let links = ids(&all(&c, vec![t("has", "link")]).await);
    assert!(links.contains(&find(&c, "pull/1899").await.id));
    assert!(!links.contains(&find(&c, "wait for the branch cut").await.id));

    let images = all(&c, vec![t("has", "image")]).await;
    assert!(images.iter().any(|m| m.content.contains("Mochi")));
    assert!(images.iter().all(|m| m.content.contains("<img")), "every match renders an image");

    let reacted = all(&c, vec![t("has", "reaction")]).await;
    assert!(!reacted.is_empty());
    assert!(reacted.iter().all(|m| !m.reactions.is_empty()));
    assert!(!ids(&reacted).contains(&find(&c, "Tally so far TOML").await.id));
}

#[tokio::test]
async fn narrow_search_matches_every_word() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("search", "sourdough STARTER")]).await;
    assert_eq!(ms.len(), 1);
    assert!(ms[0].content.contains("Clint Yeastwood"));
    assert!(all(&c, vec![t("search", "sourdough xylophone")]).await.is_empty());
}

#[tokio::test]
async fn narrow_search_quoted_phrase_matches_adjacent_words_in_order() {
    let env = Env::start().await;
    let c = env.client("member");
    // Unquoted words match anywhere, in any order.
    let words = all(&c, vec![t("search", "topics muted")]).await;
    assert_eq!(words.len(), 3, "{:?}", ids(&words));
    // A quoted phrase is matched as a phrase: adjacent, in order, any case.
    let phrase = all(&c, vec![t("search", r#""MUTED Topics""#)]).await;
    assert_eq!(ids(&phrase), ids(&words));
    assert!(all(&c, vec![t("search", r#""topics muted""#)]).await.is_empty());
    assert!(all(&c, vec![t("search", r#""hide topics""#)]).await.is_empty(), "words must be adjacent");
    // Phrases and words combine; each must match.
    let one = all(&c, vec![t("search", r#"reappear "muted topics""#)]).await;
    assert_eq!(one.len(), 1);
    assert!(one[0].content.contains("reappear after a reconnect"));
    assert!(all(&c, vec![t("search", r#"xylophone "muted topics""#)]).await.is_empty());
}

#[tokio::test]
async fn narrow_user_operands_are_ids_or_emails_not_me() {
    // The reference server has no `me` operand: clients resolve it to the user's ID.
    let env = Env::start().await;
    let c = env.client("member");
    let q = GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![t("sender", "me")]);
    assert_err(c.get_messages(&q).await, "BAD_NARROW", "Invalid narrow operator");
    let q = GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![t("dm", json!(["me"]))]);
    assert_err(c.get_messages(&q).await, "BAD_NARROW", "Invalid narrow operator");
}

#[tokio::test]
async fn negated_terms_exclude_matches() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let eng = all(&c, vec![t("channel", "engineering")]).await;
    let not_mine = all(&c, vec![t("channel", "engineering"), t("sender", me).negate()]).await;
    assert!(!not_mine.is_empty());
    assert!(not_mine.iter().all(|m| m.sender_id != me));
    let mine = eng.iter().filter(|m| m.sender_id == me).count();
    assert!(mine > 0);
    assert_eq!(not_mine.len() + mine, eng.len());

    let not_dm = all(&c, vec![t("is", "dm").negate()]).await;
    assert!(!not_dm.is_empty() && not_dm.iter().all(|m| !m.is_dm()));
}

#[tokio::test]
async fn with_operator_follows_a_moved_message() {
    let env = Env::start().await;
    let c = env.client("member");
    let (eng, design) = (env.channel_id("engineering"), env.channel_id("design"));
    let id = send_channel(&c, eng, "with test", "a message that will move").await;
    c.update_message(id, &move_to(Some("with moved"), Some(design), "change_one")).await.unwrap();
    let old = vec![t("channel", eng), t("topic", "with test")];
    assert!(all(&c, old.clone()).await.is_empty(), "nothing left in the old conversation");
    let mut followed = old;
    followed.push(t("with", id));
    let ms = all(&c, followed).await;
    assert_eq!(ids(&ms), vec![id]);
    assert_eq!(ms[0].stream_id, Some(design));
    assert_eq!(ms[0].subject, "with moved");
}

#[tokio::test]
async fn channels_public_searches_shared_history_of_public_channels_only() {
    let env = Env::start().await;
    // bob is not subscribed to design.
    let bob = env.client("bob");
    assert!(all(&bob, vec![t("search", "Uploaded the dark mode")]).await.is_empty());
    let shared = all(&bob, vec![t("channels", "public"), t("search", "Uploaded the dark mode")]).await;
    assert_eq!(shared.len(), 1);
    assert_eq!(shared[0].channel_name(), Some("design"));

    // admin is in the private leadership channel, but channels:public leaves it out.
    let admin = env.client("admin");
    let leadership = env.channel_id("leadership");
    assert!(!all(&admin, vec![t("channel", leadership)]).await.is_empty());
    let public = all(&admin, vec![t("channels", "public")]).await;
    assert!(!public.is_empty());
    assert!(public.iter().all(|m| !m.is_dm() && m.stream_id != Some(leadership)));
    for private in ["security", "moderation"] {
        assert!(public.iter().all(|m| m.channel_name() != Some(private)));
    }
}

#[tokio::test]
async fn legacy_pair_narrow_is_accepted() {
    let env = Env::start().await;
    let c = env.client("member");
    let modern = ids(&all(&c, vec![t("channel", "engineering"), t("topic", "release 2.4 planning")]).await);
    let (status, body) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[
                ("anchor", "newest"),
                ("num_before", "5000"),
                ("num_after", "0"),
                ("narrow", r#"[["channel", "engineering"], ["topic", "release 2.4 planning"]]"#),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let legacy: Vec<i64> =
        body["messages"].as_array().unwrap().iter().map(|m| m["id"].as_i64().unwrap()).collect();
    assert_eq!(legacy, modern);
}

#[tokio::test]
async fn unknown_operators_operands_and_channels_are_bad_narrows() {
    let env = Env::start().await;
    let c = env.client("member");
    for narrow in [
        vec![t("frobnicate", "x")],
        vec![t("channel", "no-such-channel")],
        vec![t("channel", 99_999)],
        vec![t("is", "sparkly")],
        vec![t("has", "smell")],
        // Private and not subscribed: the same answer as a channel that does not exist.
        vec![t("channel", "leadership")],
    ] {
        let r = c.get_messages(&GetMessages::around(Anchor::Newest, 10, 0).narrow(narrow)).await;
        assert_err(r, "BAD_NARROW", "");
    }
    let (status, body) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[
                ("anchor", "newest"),
                ("num_before", "1"),
                ("num_after", "0"),
                ("narrow", r#"[["nope", "x"]]"#),
            ],
        )
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")));
}

#[tokio::test]
async fn personal_history_needs_a_channel_operator_for_unsubscribed_public_channels() {
    let env = Env::start().await;
    let bob = env.client("bob");
    let guest = env.user_id("guest");
    // Without a channel operator only bob's own history is searched.
    let own = all(&bob, vec![t("sender", guest)]).await;
    assert!(own.iter().all(|m| m.channel_name() != Some("design")));
    // With one, the channel's shared history.
    let shared = all(&bob, vec![t("channel", "design"), t("sender", guest)]).await;
    assert!(!shared.is_empty());
    assert!(shared.iter().all(|m| m.channel_name() == Some("design") && m.sender_id == guest));
    // Messages bob never received are marked historical (and read).
    assert!(
        shared
            .iter()
            .all(|m| m.has_flag(topicterm::api::Flag::Historical) && m.has_flag(topicterm::api::Flag::Read))
    );
}

#[tokio::test]
async fn protected_history_hides_messages_from_before_the_subscription() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let bob = env.client("bob");
    let bob_id = env.user_id("bob");
    let security = env.channel_id("security");
    let old = all(&admin, vec![t("channel", security)]).await;
    assert!(!old.is_empty());
    admin.subscribe(&["security"], Some(&Principals::Ids(vec![bob_id]))).await.unwrap();

    let r = bob
        .get_messages(&GetMessages::around(Anchor::Newest, 100, 0).narrow(vec![t("channel", security)]))
        .await
        .unwrap();
    assert!(r.messages.is_empty(), "no history from before bob joined");
    assert!(r.found_newest && r.found_oldest);
    let q = GetMessages { message_ids: Some(ids(&old)), ..Default::default() };
    assert!(bob.get_messages(&q).await.unwrap().messages.is_empty());
    assert_err(bob.get_message(old[0].id, true).await, "BAD_REQUEST", "");

    let new = send_channel(&admin, security, "after bob joined", "welcome bob").await;
    assert_eq!(ids(&all(&bob, vec![t("channel", security)]).await), vec![new]);

    // A private channel whose history is shared shows everything to a new subscriber.
    let leadership = env.channel_id("leadership");
    let before = ids(&all(&admin, vec![t("channel", leadership)]).await);
    admin.subscribe(&["leadership"], Some(&Principals::Ids(vec![bob_id]))).await.unwrap();
    assert_eq!(ids(&all(&bob, vec![t("channel", leadership)]).await), before);
}

#[tokio::test]
async fn guests_cannot_read_public_channels_they_are_not_in() {
    let env = Env::start().await;
    let guest = env.client("guest");
    let member = env.client("member");
    let eng_msg = find(&member, "Tally so far TOML").await;
    let r = guest
        .get_messages(&GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![t("channel", "engineering")]))
        .await;
    assert_err(r, "BAD_NARROW", "");
    let q = GetMessages { message_ids: Some(vec![eng_msg.id]), ..Default::default() };
    assert!(guest.get_messages(&q).await.unwrap().messages.is_empty());
    assert_err(guest.get_message(eng_msg.id, true).await, "BAD_REQUEST", "");
    let public = all(&guest, vec![t("channels", "public")]).await;
    assert!(public.iter().all(|m| m.channel_name() != Some("engineering")));
    assert!(public.iter().any(|m| m.channel_name() == Some("design")), "channels the guest is in");
}

// ---------------------------------------------------------------------------------------------
// Operation 6: limits
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn more_than_5000_messages_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let c = env.client("member");
    let before = env.requests();
    let r = c.get_messages(&GetMessages::around(Anchor::Newest, 3000, 2001)).await;
    assert_limit(&env, before, r, LimitError::TooManyMessages(5001));
    let q = GetMessages { message_ids: Some((1..=5001).collect()), ..Default::default() };
    assert_limit(&env, before, c.get_messages(&q).await, LimitError::TooManyMessages(5001));
    // Exactly 5000 is fine.
    c.get_messages(&GetMessages::around(Anchor::Newest, 3000, 2000)).await.unwrap();

    let raw = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "newest"), ("num_before", "5001"), ("num_after", "0")],
        )
        .await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn message_ids_with_a_range_parameter_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let c = env.client("member");
    let base = || GetMessages { message_ids: Some(vec![100]), ..Default::default() };
    let before = env.requests();
    for q in [
        GetMessages { anchor: Some(Anchor::Newest), ..base() },
        GetMessages { include_anchor: Some(true), ..base() },
        GetMessages { num_before: Some(0), ..base() },
        GetMessages { num_after: Some(0), ..base() },
        GetMessages { use_first_unread_anchor: Some(false), ..base() },
    ] {
        assert_limit(&env, before, c.get_messages(&q).await, LimitError::MessageIdsWithRange);
    }
    for (key, value) in [
        ("anchor", "newest"),
        ("include_anchor", "true"),
        ("num_before", "0"),
        ("num_after", "0"),
        ("use_first_unread_anchor", "false"),
    ] {
        let raw = env.raw("member", "GET", "/messages", &[("message_ids", "[100]"), (key, value)]).await;
        assert_400(raw, "BAD_REQUEST");
    }
}

#[tokio::test]
async fn use_first_unread_anchor_with_anchor_is_refused_by_the_client() {
    // (The server takes the flag and ignores `anchor`, as the reference does: fidelity.rs.)
    let env = Env::start().await;
    let c = env.client("member");
    let before = env.requests();
    let q = GetMessages { use_first_unread_anchor: Some(true), ..GetMessages::around(Anchor::Newest, 1, 0) };
    assert_limit(&env, before, c.get_messages(&q).await, LimitError::FirstUnreadWithAnchor);
}

#[tokio::test]
async fn date_anchor_without_anchor_date_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let c = env.client("member");
    let before = env.requests();
    let r = c.get_messages(&GetMessages::around(Anchor::Date, 1, 0)).await;
    assert_limit(&env, before, r, LimitError::AnchorDateRequired);
    let raw = env
        .raw("member", "GET", "/messages", &[("anchor", "date"), ("num_before", "1"), ("num_after", "0")])
        .await;
    assert_eq!(raw.0, 400);
    let raw = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "date"), ("anchor_date", "yesterday"), ("num_before", "1"), ("num_after", "0")],
        )
        .await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn a_range_needs_num_before_and_num_after() {
    let env = Env::start().await;
    let c = env.client("member");
    let before = env.requests();
    let q = GetMessages { anchor: Some(Anchor::Newest), num_before: Some(1), ..Default::default() };
    assert_limit(&env, before, c.get_messages(&q).await, LimitError::RangeRequired);
    let raw = env.raw("member", "GET", "/messages", &[("anchor", "newest"), ("num_before", "1")]).await;
    assert_eq!(raw.0, 400);
}

// ---------------------------------------------------------------------------------------------
// Operation 9: report a message
// ---------------------------------------------------------------------------------------------

/// The newest messages of the moderation channel, raw Markdown, as an administrator reads them.
async fn moderation_messages(env: &Env, n: u64) -> Vec<Message> {
    let q = GetMessages {
        apply_markdown: Some(false),
        ..GetMessages::around(Anchor::Newest, n, 0).narrow(vec![t("channel", env.channel_id("moderation"))])
    };
    env.client("admin").get_messages(&q).await.unwrap().messages
}

#[tokio::test]
async fn report_posts_a_notification_into_the_moderation_channel() {
    let env = Env::start().await;
    let member = env.client("member");
    let moderator = env.client("moderator");
    let mod_queue = queue(&moderator).await;
    let reported = find(&member, "pull/1902").await;
    let before = moderation_messages(&env, 1).await[0].id;
    member.report_message(reported.id, "spam", Some("Looks like an ad to me")).await.unwrap();

    let latest = moderation_messages(&env, 1).await.remove(0);
    assert!(latest.id > before);
    assert_eq!(latest.channel_name(), Some("moderation"));
    for needle in ["Maya Lindqvist", "Alice Okafor", "Spam", "Looks like an ad to me", "pull/1902"] {
        assert!(latest.content.contains(needle), "{needle:?} in {}", latest.content);
    }
    assert!(latest.subject.contains("Alice Okafor"), "{}", latest.subject);
    // Subscribers of the moderation channel get it live.
    let delivered = message_events(&events(&moderator, &mod_queue).await);
    assert!(delivered.iter().any(|e| e.message.id == latest.id));
    // The reporter is not in the channel and cannot read it.
    let r = member
        .get_messages(&GetMessages::around(Anchor::Newest, 1, 0).narrow(vec![t("channel", "moderation")]))
        .await;
    assert_err(r, "BAD_NARROW", "");
}

#[tokio::test]
async fn every_report_type_from_register_is_accepted() {
    let env = Env::start().await;
    let member = env.client("member");
    let types =
        member.register(&RegisterParams::default()).await.unwrap().server_report_message_types.unwrap();
    let keys: BTreeSet<&str> = types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, BTreeSet::from(["harassment", "inappropriate", "norms", "other", "spam"]));
    let reported = find(&member, "pull/1902").await;
    for rt in &types {
        member.report_message(reported.id, &rt.key, Some("see above")).await.unwrap();
        let latest = moderation_messages(&env, 1).await.remove(0);
        assert!(latest.content.contains(&rt.name), "{} in {}", rt.name, latest.content);
    }
}

#[tokio::test]
async fn report_of_type_other_needs_a_description() {
    let env = Env::start().await;
    let member = env.client("member");
    let reported = find(&member, "pull/1902").await;
    let before = env.requests();
    for desc in [None, Some("   ")] {
        let r = member.report_message(reported.id, "other", desc).await;
        assert_limit(&env, before, r, LimitError::ReportDescriptionRequired);
    }
    let newest = moderation_messages(&env, 1).await[0].id;
    let raw = env
        .raw("member", "POST", &format!("/messages/{}/report", reported.id), &[("report_type", "other")])
        .await;
    assert_400(raw, "BAD_REQUEST");
    assert_eq!(moderation_messages(&env, 1).await[0].id, newest, "nothing was posted");
}

#[tokio::test]
async fn report_description_is_limited_to_1000_code_points() {
    let env = Env::start().await;
    let member = env.client("member");
    let reported = find(&member, "pull/1902").await;
    let before = env.requests();
    let long = "é".repeat(1001);
    let r = member.report_message(reported.id, "spam", Some(&long)).await;
    assert_limit(&env, before, r, LimitError::ReportDescriptionTooLong(1001));
    // 1000 two-byte characters are 1000 code points, within the limit.
    member.report_message(reported.id, "spam", Some(&"é".repeat(1000))).await.unwrap();
    let path = format!("/messages/{}/report", reported.id);
    let raw =
        env.raw("member", "POST", &path, &[("report_type", "spam"), ("description", long.as_str())]).await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn report_with_an_unknown_type_is_a_bad_request() {
    let env = Env::start().await;
    let member = env.client("member");
    let reported = find(&member, "pull/1902").await;
    assert_err(member.report_message(reported.id, "boring", None).await, "BAD_REQUEST", "report_type");
}

#[tokio::test]
async fn report_of_an_inaccessible_message_is_a_bad_request() {
    let env = Env::start().await;
    let member = env.client("member");
    let hidden = find(&env.client("admin"), "Draft hiring plan").await;
    assert_err(member.report_message(hidden.id, "spam", None).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn register_names_the_moderation_channel_and_reports_need_one() {
    let env = Env::start().await;
    let member = env.client("member");
    let reg = member.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.realm_moderation_request_channel_id, Some(env.channel_id("moderation")));

    let admin = env.client("admin");
    admin.update_realm(Params::new().add("moderation_request_channel_id", -1)).await.unwrap();
    let reg = member.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.realm_moderation_request_channel_id, Some(-1));
    let reported = find(&member, "pull/1902").await;
    assert_err(
        member.report_message(reported.id, "spam", None).await,
        "BAD_REQUEST",
        "Moderation request channel",
    );
}

// ---------------------------------------------------------------------------------------------
// Operation 10: edit history
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn history_of_an_unedited_message_is_one_snapshot() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Tally so far TOML").await;
    let raw_content = c.get_message(m.id, false).await.unwrap().message.content;
    let h = c.get_message_history(m.id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].topic, "bikeshed: config file format");
    assert_eq!(h[0].content, raw_content);
    assert_eq!(h[0].rendered_content, m.content);
    assert_eq!(h[0].user_id, Some(m.sender_id));
    assert_eq!(h[0].timestamp, m.timestamp);
    assert!(m.edit_history.is_none() && m.last_edit_timestamp.is_none() && m.last_moved_timestamp.is_none());

    let (status, body) = env.raw("member", "GET", &format!("/messages/{}/history", m.id), &[]).await;
    assert_eq!(status, 200);
    let keys: BTreeSet<&str> =
        body["message_history"][0].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["content", "rendered_content", "timestamp", "topic", "user_id"]));
}

#[tokio::test]
async fn history_of_the_seeded_message_with_content_and_topic_edits() {
    let env = Env::start().await;
    let c = env.client("member");
    let (alice, admin) = (env.user_id("alice"), env.user_id("admin"));
    let m = find(&c, "Update: fixed, see below").await;
    assert_eq!(m.subject, "staging certificate expiry");
    let h = c.get_message_history(m.id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 4, "the original and three edits");
    let original = "Unrelated, but staging is throwing cert erors sinc this morning:";
    let fixed = "Unrelated, but staging is throwing cert errors since this morning:";

    // The original: only the five base fields.
    assert!(h[0].content.starts_with(original));
    assert_eq!(h[0].topic, "release 2.4 planning");
    assert_eq!((h[0].user_id, h[0].timestamp), (Some(alice), m.timestamp));
    assert!(h[0].prev_content.is_none() && h[0].prev_topic.is_none() && h[0].stream.is_none());

    // 1: content edit by alice, two minutes later.
    assert!(h[1].content.starts_with(fixed));
    assert_eq!(h[1].prev_content.as_deref(), Some(h[0].content.as_str()));
    assert_eq!(h[1].prev_rendered_content.as_deref(), Some(h[0].rendered_content.as_str()));
    let diff = h[1].content_html_diff.as_deref().unwrap();
    assert!(diff.contains("errors") && diff.contains("highlight_text_inserted"), "{diff}");
    assert_eq!(h[1].topic, "release 2.4 planning");
    assert!(h[1].prev_topic.is_none() && h[1].stream.is_none() && h[1].prev_stream.is_none());
    assert_eq!((h[1].user_id, h[1].timestamp), (Some(alice), m.timestamp + 120));

    // 2: topic edit by admin: the content is unchanged and not marked edited.
    assert_eq!(h[2].prev_topic.as_deref(), Some("release 2.4 planning"));
    assert_eq!(h[2].topic, "staging certificate expiry");
    assert_eq!(h[2].content, h[1].content);
    assert!(h[2].prev_content.is_none() && h[2].content_html_diff.is_none() && h[2].stream.is_none());
    assert_eq!((h[2].user_id, h[2].timestamp), (Some(admin), m.timestamp + 600));

    // 3: content edit by alice.
    assert!(h[3].content.ends_with("**Update:** fixed, see below."));
    assert_eq!(h[3].prev_content.as_deref(), Some(h[2].content.as_str()));
    assert!(h[3].content_html_diff.is_some());
    assert!(h[3].prev_topic.is_none());
    assert_eq!(h[3].topic, "staging certificate expiry");
    assert_eq!(h[3].rendered_content, m.content, "the last snapshot is the current message");
    assert_eq!((h[3].user_id, h[3].timestamp), (Some(alice), m.timestamp + 2700));

    // get-messages carries the same edits, newest first.
    let eh = m.edit_history.clone().unwrap();
    assert_eq!(eh.len(), 3);
    assert_eq!(eh[0].prev_content.as_deref(), Some(h[2].content.as_str()));
    assert_eq!(eh[1].prev_topic.as_deref(), Some("release 2.4 planning"));
    assert_eq!(eh[1].topic.as_deref(), Some("staging certificate expiry"));
    assert!(eh[1].prev_content.is_none());
    assert_eq!(eh[2].prev_content.as_deref(), Some(h[0].content.as_str()));
    assert_eq!(m.last_edit_timestamp, Some(m.timestamp + 2700));
    assert_eq!(m.last_moved_timestamp, Some(m.timestamp + 600));
}

#[tokio::test]
async fn history_of_a_moved_message_names_both_channels() {
    let env = Env::start().await;
    let c = env.client("member");
    let (eng, support) = (env.channel_id("engineering"), env.channel_id("support"));
    let m = find(&c, "exporting a channel with").await;
    assert_eq!(m.stream_id, Some(support));
    let h = c.get_message_history(m.id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 2);
    assert!(h[0].stream.is_none() && h[0].prev_stream.is_none());
    assert_eq!((h[1].prev_stream, h[1].stream), (Some(eng), Some(support)));
    assert!(h[1].prev_topic.is_none() && h[1].prev_content.is_none() && h[1].content_html_diff.is_none());
    assert_eq!(h[1].topic, h[0].topic);
    assert_eq!(h[1].user_id, Some(env.user_id("moderator")));
    let eh = &m.edit_history.clone().unwrap()[0];
    assert_eq!((eh.prev_stream, eh.stream), (Some(eng), Some(support)));
    assert!(m.last_moved_timestamp.is_some());
    assert!(m.last_edit_timestamp.is_none(), "a move is not a content edit");
}

#[tokio::test]
async fn history_shows_a_fresh_edit() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = send_channel(&c, env.channel_id("engineering"), "history test", "first draft").await;
    c.update_message(id, &MessageEdit { content: Some("second draft".into()), ..Default::default() })
        .await
        .unwrap();
    let h = c.get_message_history(id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].content, "first draft");
    assert_eq!(h[1].content, "second draft");
    assert_eq!(h[1].prev_content.as_deref(), Some("first draft"));
    assert_eq!(h[1].user_id, Some(env.user_id("member")));
    let diff = h[1].content_html_diff.as_deref().unwrap();
    assert!(diff.contains("second") && diff.contains("first"), "{diff}");
}

#[tokio::test]
async fn history_of_a_missing_or_inaccessible_message_is_a_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.get_message_history(99_999_999, false).await, "BAD_REQUEST", "");
    let hidden = find(&env.client("admin"), "Draft hiring plan").await;
    assert_err(c.get_message_history(hidden.id, false).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn disabled_edit_history_refuses_history_and_hides_edit_history() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Update: fixed, see below").await;
    assert!(m.edit_history.is_some());
    env.client("admin").update_realm(Params::new().add("allow_edit_history", false)).await.unwrap();
    assert_err(c.get_message_history(m.id, false).await, "BAD_REQUEST", "");
    let again = find(&c, "Update: fixed, see below").await;
    assert!(again.edit_history.is_none(), "edit_history is absent when viewing it is disallowed");
    assert_eq!(again.last_edit_timestamp, m.last_edit_timestamp);
}

#[tokio::test]
async fn history_replaces_the_empty_topic_unless_allowed() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = send_channel(&c, env.channel_id("general"), "", "in the empty topic").await;
    let plain_q = queue(&c).await;
    let capable = env.client("member");
    let caps =
        RegisterParams { client_capabilities: Some(json!({"empty_topic_name": true})), ..Default::default() };
    let capable_q = capable.register(&caps).await.unwrap().queue_id.unwrap();
    c.update_message(id, &move_to(Some("named now"), None, "change_one")).await.unwrap();
    // The update event names the old topic the way each queue's client can show it.
    let plain = update_events(&events(&c, &plain_q).await);
    assert_eq!(plain[0].orig_subject.as_deref(), Some("general chat"));
    assert_eq!(plain[0].subject.as_deref(), Some("named now"));
    let with_capability = update_events(&events(&capable, &capable_q).await);
    assert_eq!(with_capability[0].orig_subject.as_deref(), Some(""));

    let h = c.get_message_history(id, false).await.unwrap().message_history;
    assert_eq!(h[0].topic, "general chat");
    assert_eq!(h[1].prev_topic.as_deref(), Some("general chat"));
    assert_eq!(h[1].topic, "named now");
    let h = c.get_message_history(id, true).await.unwrap().message_history;
    assert_eq!(h[0].topic, "");
    assert_eq!(h[1].prev_topic.as_deref(), Some(""));
}

// ---------------------------------------------------------------------------------------------
// Operation 11: mark a topic as read
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn mark_topic_as_read_marks_only_that_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let eng = env.channel_id("engineering");
    let topic = vec![t("channel", eng), t("topic", "bikeshed: config file format"), t("is", "unread")];
    let other = vec![t("channel", eng), t("topic", "release 2.4 planning"), t("is", "unread")];
    let unread = ids(&all(&c, topic.clone()).await);
    let other_unread = ids(&all(&c, other.clone()).await);
    assert!(!unread.is_empty() && !other_unread.is_empty());

    c.mark_topic_as_read(eng, "bikeshed: config file format").await.unwrap();
    assert!(all(&c, topic).await.is_empty());
    assert_eq!(ids(&all(&c, other).await), other_unread, "other topics stay unread");
    let flags = flag_events(&events(&c, &q).await);
    assert_eq!(flags.len(), 1);
    assert_eq!((&flags[0].op, flags[0].flag.as_str()), (&AddRemove::Add, "read"));
    assert_eq!(flags[0].messages, unread);
}

#[tokio::test]
async fn mark_topic_as_read_takes_the_empty_topic_display_name() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let general = env.channel_id("general");
    let unread = vec![t("channel", general), t("topic", ""), t("is", "unread")];
    let mut expected = ids(&all(&c, unread.clone()).await);
    expected.push(send_channel(&alice, general, "", "first in the empty topic").await);
    expected.push(send_channel(&alice, general, "", "second in the empty topic").await);
    assert_eq!(ids(&all(&c, unread.clone()).await), expected);
    let q = queue(&c).await;
    c.mark_topic_as_read(general, "general chat").await.unwrap();
    assert!(all(&c, unread).await.is_empty());
    assert_eq!(flag_events(&events(&c, &q).await)[0].messages, expected);
    // Messages in named topics of the channel stay unread.
    let named =
        all(&c, vec![t("channel", general), t("topic", "all-hands questions"), t("is", "unread")]).await;
    assert!(!named.is_empty());
}

#[tokio::test]
async fn mark_topic_as_read_takes_no_topic_as_the_empty_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    send_channel(&env.client("alice"), general, "", "unread in the empty topic").await;
    let unread = vec![t("channel", general), t("topic", ""), t("is", "unread")];
    assert!(!all(&c, unread.clone()).await.is_empty());
    c.mark_topic_as_read(general, "(no topic)").await.unwrap();
    assert!(all(&c, unread).await.is_empty());
}

#[tokio::test]
async fn mark_topic_as_read_in_an_invalid_or_inaccessible_channel_is_a_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.mark_topic_as_read(99_999, "x").await, "BAD_REQUEST", "");
    assert_err(c.mark_topic_as_read(env.channel_id("leadership"), "offsite").await, "BAD_REQUEST", "");
}

// ---------------------------------------------------------------------------------------------
// Operation 13: remove a reaction (and adding them)
// ---------------------------------------------------------------------------------------------

fn mine<'a>(m: &'a Message, user: UserId, name: &str) -> Option<&'a Reaction> {
    m.reactions.iter().find(|r| r.user_id == user && r.emoji_name == name)
}

#[tokio::test]
async fn remove_a_unicode_reaction_with_the_stored_values() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let me = env.user_id("member");
    let alice_q = queue(&alice).await;
    let m = find(&c, "Please join me in welcoming").await;
    let r = mine(&m, me, "tada").cloned().expect("member reacted with tada");
    assert_eq!(r.reaction_type, ReactionType::UnicodeEmoji);
    assert_eq!(r.emoji_code, "1f389");
    c.remove_reaction(m.id, &EmojiSpec::from(&r)).await.unwrap();

    let after = c.get_message(m.id, true).await.unwrap().message;
    assert!(mine(&after, me, "tada").is_none());
    assert_eq!(after.reactions.len(), m.reactions.len() - 1, "other reactions stay");
    let evs = reaction_events(&events(&alice, &alice_q).await);
    assert_eq!(evs.len(), 1);
    let e = &evs[0];
    assert_eq!((&e.op, e.message_id, e.user_id), (&AddRemove::Remove, m.id, me));
    assert_eq!((e.emoji_name.as_str(), e.emoji_code.as_str()), ("tada", "1f389"));
    assert_eq!(e.reaction_type, ReactionType::UnicodeEmoji);
}

#[tokio::test]
async fn add_and_remove_a_custom_emoji_reaction() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let q = queue(&c).await;
    let m = find(&c, "Tally so far TOML").await;
    let spec = EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() };
    c.add_reaction(m.id, &spec).await.unwrap();
    let stored = c.get_message(m.id, true).await.unwrap().message;
    let r = mine(&stored, me, "partyparrot").cloned().unwrap();
    assert_eq!(r.reaction_type, ReactionType::RealmEmoji);
    assert!(r.emoji_code.parse::<i64>().is_ok(), "a custom emoji's code is its ID");
    c.remove_reaction(m.id, &EmojiSpec::from(&r)).await.unwrap();
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
    let evs = reaction_events(&events(&c, &q).await);
    let ops: Vec<&AddRemove> = evs.iter().map(|e| &e.op).collect();
    assert_eq!(ops, [&AddRemove::Add, &AddRemove::Remove]);
    assert!(evs.iter().all(|e| e.emoji_code == r.emoji_code && e.reaction_type == ReactionType::RealmEmoji));
}

#[tokio::test]
async fn add_and_remove_a_service_extra_emoji_reaction() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Tally so far TOML").await;
    c.add_reaction(m.id, &EmojiSpec { emoji_name: Some("zulip".into()), ..Default::default() })
        .await
        .unwrap();
    let stored = c.get_message(m.id, true).await.unwrap().message;
    let r = mine(&stored, me, "zulip").cloned().unwrap();
    assert_eq!(r.reaction_type, ReactionType::SvcExtraEmoji);
    assert_eq!(r.emoji_code, "zulip");
    c.remove_reaction(m.id, &EmojiSpec::from(&r)).await.unwrap();
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn remove_without_reaction_type_does_not_assume_unicode() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Tally so far TOML").await;
    c.add_reaction(m.id, &EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() })
        .await
        .unwrap();
    let r = mine(&c.get_message(m.id, true).await.unwrap().message, me, "partyparrot").cloned().unwrap();
    // The code of a custom emoji is not a valid Unicode code: this only works if the server
    // does not assume unicode_emoji when reaction_type is absent.
    let spec = EmojiSpec {
        emoji_name: Some(r.emoji_name.clone()),
        emoji_code: Some(r.emoji_code.clone()),
        reaction_type: None,
    };
    c.remove_reaction(m.id, &spec).await.unwrap();
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn remove_a_reaction_by_code_alone_or_by_name_alone() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Please join me in welcoming").await;
    let tada = mine(&m, me, "tada").cloned().unwrap();
    // emoji_name is optional: code and type identify the reaction.
    let by_code = EmojiSpec {
        emoji_name: None,
        emoji_code: Some(tada.emoji_code.clone()),
        reaction_type: Some("unicode_emoji".into()),
    };
    c.remove_reaction(m.id, &by_code).await.unwrap();
    assert!(mine(&c.get_message(m.id, true).await.unwrap().message, me, "tada").is_none());

    let party = find(&c, "Tally so far TOML").await;
    c.add_reaction(party.id, &EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() })
        .await
        .unwrap();
    let by_name = EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() };
    c.remove_reaction(party.id, &by_name).await.unwrap();
    assert!(c.get_message(party.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn add_reaction_needs_an_emoji_name() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Tally so far TOML").await;
    let before = env.requests();
    let spec = EmojiSpec { emoji_name: None, emoji_code: Some("1f389".into()), reaction_type: None };
    assert_limit(&env, before, c.add_reaction(m.id, &spec).await, LimitError::EmojiNameRequired);
    let path = format!("/messages/{}/reactions", m.id);
    let (status, _) = env.raw("member", "POST", &path, &[("emoji_code", "1f389")]).await;
    assert_eq!(status, 400);
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn removing_an_absent_reaction_is_reaction_does_not_exist() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Please join me in welcoming").await;
    // Others reacted with wave; member did not.
    let wave = m.reactions.iter().find(|r| r.emoji_name == "wave").cloned().unwrap();
    assert!(mine(&m, me, "wave").is_none());
    assert_err(c.remove_reaction(m.id, &EmojiSpec::from(&wave)).await, "REACTION_DOES_NOT_EXIST", "");
    let after = c.get_message(m.id, true).await.unwrap().message;
    assert_eq!(after.reactions, m.reactions, "nobody's reaction was removed");
}

#[tokio::test]
async fn before_feature_level_193_an_absent_reaction_is_a_bad_request() {
    let env = Env::start_with(ServerOptions { feature_level: 192, ..Default::default() }).await;
    let c = env.client("member");
    let m = find(&c, "Please join me in welcoming").await;
    let wave = m.reactions.iter().find(|r| r.emoji_name == "wave").cloned().unwrap();
    assert_err(c.remove_reaction(m.id, &EmojiSpec::from(&wave)).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn removing_with_an_invalid_emoji_code_is_a_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Please join me in welcoming").await;
    for rt in [Some("unicode_emoji"), Some("realm_emoji"), None] {
        let spec = EmojiSpec {
            emoji_name: Some("tada".into()),
            emoji_code: Some("not-a-code".into()),
            reaction_type: rt.map(str::to_owned),
        };
        assert_err(c.remove_reaction(m.id, &spec).await, "BAD_REQUEST", "emoji code");
    }
    assert_eq!(c.get_message(m.id, true).await.unwrap().message.reactions, m.reactions);
}

#[tokio::test]
async fn adding_a_reaction_twice_or_an_unknown_emoji_fails() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Please join me in welcoming").await;
    let tada = EmojiSpec { emoji_name: Some("tada".into()), ..Default::default() };
    assert_err(c.add_reaction(m.id, &tada).await, "REACTION_ALREADY_EXISTS", "");
    let unknown = EmojiSpec { emoji_name: Some("no_such_emoji_anywhere".into()), ..Default::default() };
    assert_err(c.add_reaction(m.id, &unknown).await, "BAD_REQUEST", "");
    // A valid code does not make a made-up name valid.
    let made_up = EmojiSpec {
        emoji_name: Some("not_a_real_name".into()),
        emoji_code: Some("1f44d".into()),
        reaction_type: Some("unicode_emoji".into()),
    };
    assert_err(c.add_reaction(m.id, &made_up).await, "BAD_REQUEST", "Invalid emoji name");
    assert_eq!(c.get_message(m.id, true).await.unwrap().message.reactions, m.reactions);
}

// ---------------------------------------------------------------------------------------------
// Operation 17: typing notifications for message edits
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn edit_typing_in_a_channel_notifies_the_other_subscribers() {
    let env = Env::start().await;
    let member = env.client("member");
    let (alice, guest) = (env.client("alice"), env.client("guest"));
    let eng = env.channel_id("engineering");
    let id = send_channel(&member, eng, "typing test", "to be edited").await;
    let (mq, aq, gq) = (queue(&member).await, queue(&alice).await, queue(&guest).await);

    member.set_edit_typing(id, TypingOp::Start).await.unwrap();
    member.set_edit_typing(id, TypingOp::Stop).await.unwrap();
    let got = typing_edits(&events(&alice, &aq).await);
    let ops: Vec<&StartStop> = got.iter().map(|e| &e.op).collect();
    assert_eq!(ops, [&StartStop::Start, &StartStop::Stop]);
    for e in &got {
        assert_eq!((e.sender_id, e.message_id), (env.user_id("member"), id));
        assert_eq!(e.recipient, Some(json!({"type": "channel", "channel_id": eng, "topic": "typing test"})));
    }
    assert!(typing_edits(&events(&member, &mq).await).is_empty(), "not to the sender");
    assert!(typing_edits(&events(&guest, &gq).await).is_empty(), "not to non-subscribers");
}

#[tokio::test]
async fn edit_typing_in_a_direct_message_notifies_the_participants() {
    let env = Env::start().await;
    let member = env.client("member");
    let (farid, alice) = (env.client("farid"), env.client("alice"));
    let (me, farid_id) = (env.user_id("member"), env.user_id("farid"));
    let id = send_dm(&member, vec![farid_id], "dm to be edited").await;
    let (fq, aq) = (queue(&farid).await, queue(&alice).await);
    member.set_edit_typing(id, TypingOp::Start).await.unwrap();
    let got = typing_edits(&events(&farid, &fq).await);
    assert_eq!(got.len(), 1);
    assert_eq!((&got[0].op, got[0].sender_id, got[0].message_id), (&StartStop::Start, me, id));
    let mut users = vec![me, farid_id];
    users.sort_unstable();
    assert_eq!(got[0].recipient, Some(json!({"type": "direct", "user_ids": users})));
    assert!(typing_edits(&events(&alice, &aq).await).is_empty());
}

#[tokio::test]
async fn edit_typing_with_an_invalid_op_is_a_bad_request() {
    let env = Env::start().await;
    let member = env.client("member");
    let id = send_channel(&member, env.channel_id("engineering"), "typing", "x").await;
    let raw = env.raw("member", "POST", &format!("/messages/{id}/typing"), &[("op", "pause")]).await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn edit_typing_needs_an_accessible_message_of_ones_own() {
    let env = Env::start().await;
    let member = env.client("member");
    let hidden = find(&env.client("admin"), "Draft hiring plan").await;
    assert_err(member.set_edit_typing(hidden.id, TypingOp::Start).await, "BAD_REQUEST", "");
    assert_err(member.set_edit_typing(99_999_999, TypingOp::Start).await, "BAD_REQUEST", "");
    let alices = find(&member, "pull/1902").await;
    assert_err(member.set_edit_typing(alices.id, TypingOp::Start).await, "BAD_REQUEST", "permission");
    // Content edits belong to the sender alone, even for moderators.
    let own = send_channel(&member, env.channel_id("engineering"), "typing", "mine").await;
    let moderator = env.client("moderator");
    assert_err(moderator.set_edit_typing(own, TypingOp::Start).await, "BAD_REQUEST", "permission");
}

#[tokio::test]
async fn edit_typing_uses_the_legacy_path_before_feature_level_361() {
    let env = Env::start_with(ServerOptions { feature_level: 355, ..Default::default() }).await;
    let member = env.client("member");
    let farid = env.client("farid");
    let id = send_dm(&member, vec![env.user_id("farid")], "old server").await;
    // This server has no /messages/{id}/typing yet.
    let (status, _) = env.raw("member", "POST", &format!("/messages/{id}/typing"), &[("op", "start")]).await;
    assert_eq!(status, 404);
    assert_err(member.set_edit_typing(id, TypingOp::Start).await, "NOT_FOUND", "");
    // Once the client knows the feature level it uses /message_edit_typing.
    let fq = queue(&farid).await;
    member.register(&RegisterParams::default()).await.unwrap();
    member.set_edit_typing(id, TypingOp::Start).await.unwrap();
    let got = typing_edits(&events(&farid, &fq).await);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].message_id, id);
}

#[tokio::test]
async fn edit_typing_legacy_path_is_gone_from_feature_level_361() {
    let env = Env::start().await;
    let member = env.client("member");
    let id = send_channel(&member, env.channel_id("engineering"), "typing", "new server").await;
    let id = id.to_string();
    let (status, _) = env
        .raw("member", "POST", "/message_edit_typing", &[("message_id", id.as_str()), ("op", "start")])
        .await;
    assert_eq!(status, 404);
}

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
