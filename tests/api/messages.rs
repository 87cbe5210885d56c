//! Messages: get (anchors, windows, narrows, history access, limits). The operations on
//! messages are in `messages_ops.rs`, which shares the helpers here.

use crate::common::{Env, assert_err};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;
use topicterm::api::*;

/// The anchor the server reports for `newest` (and for "no such message, use the newest").
pub(crate) const NEWEST: i64 = 10_000_000_000_000_000;

pub(crate) fn t(op: &str, operand: impl Into<Value>) -> NarrowTerm {
    NarrowTerm::new(op, operand)
}

pub(crate) fn ids(ms: &[Message]) -> Vec<MessageId> {
    ms.iter().map(|m| m.id).collect()
}

/// Every message matching `narrow` (one request: the seed is far below the 5000 limit).
pub(crate) async fn all(c: &Client, narrow: Vec<NarrowTerm>) -> Vec<Message> {
    let r = c.get_messages(&GetMessages::around(Anchor::Newest, 5000, 0).narrow(narrow)).await.unwrap();
    assert!(r.found_newest && r.found_oldest, "one request should cover the whole narrow");
    r.messages
}

/// The one message matching `narrow` plus a full-text search for `words`.
pub(crate) async fn find_in(c: &Client, mut narrow: Vec<NarrowTerm>, words: &str) -> Message {
    narrow.push(t("search", words));
    let found = all(c, narrow).await;
    assert_eq!(found.len(), 1, "search {words:?} should match one message, got {:?}", ids(&found));
    found.into_iter().next().unwrap()
}

/// The one message of `c`'s personal history containing `words`.
pub(crate) async fn find(c: &Client, words: &str) -> Message {
    find_in(c, vec![], words).await
}

/// Register an event queue for `c` (this also teaches the client the server's limits).
pub(crate) async fn queue(c: &Client) -> String {
    c.register(&RegisterParams::default()).await.unwrap().queue_id.expect("queue_id")
}

/// Every event still in the queue (never acknowledged, so each call sees all of them).
pub(crate) async fn events(c: &Client, queue_id: &str) -> Vec<EventKind> {
    let evs = c.get_events(queue_id, -1, true, Duration::from_secs(5)).await.unwrap();
    evs.into_iter().map(|e| e.kind).filter(|k| *k != EventKind::Heartbeat).collect()
}

/// The events of one kind, in order.
pub(crate) fn pick<T>(evs: &[EventKind], f: impl Fn(&EventKind) -> Option<T>) -> Vec<T> {
    evs.iter().filter_map(f).collect()
}

pub(crate) fn typing_edits(evs: &[EventKind]) -> Vec<TypingEditEvent> {
    pick(evs, |e| if let EventKind::TypingEditMessage(t) = e { Some(t.clone()) } else { None })
}

pub(crate) fn reaction_events(evs: &[EventKind]) -> Vec<ReactionEvent> {
    pick(evs, |e| if let EventKind::Reaction(r) = e { Some(r.clone()) } else { None })
}

pub(crate) fn flag_events(evs: &[EventKind]) -> Vec<FlagsEvent> {
    pick(evs, |e| if let EventKind::UpdateMessageFlags(f) = e { Some(f.clone()) } else { None })
}

pub(crate) fn message_events(evs: &[EventKind]) -> Vec<MessageEvent> {
    pick(evs, |e| if let EventKind::Message(m) = e { Some((**m).clone()) } else { None })
}

pub(crate) fn update_events(evs: &[EventKind]) -> Vec<UpdateMessageEvent> {
    pick(evs, |e| if let EventKind::UpdateMessage(m) = e { Some((**m).clone()) } else { None })
}

/// Assert a client-side refusal that never reached the server.
#[track_caller]
pub(crate) fn assert_limit<T: std::fmt::Debug>(env: &Env, before: u64, r: Result<T>, expected: LimitError) {
    match r {
        Err(ApiError::Limit(e)) => assert_eq!(e, expected),
        other => panic!("expected limit error {expected:?}, got {other:?}"),
    }
    assert_eq!(env.requests(), before, "a refused request must not reach the server");
}

/// Assert a raw response is the server's own 400 with `code`.
#[track_caller]
pub(crate) fn assert_400(resp: (u16, Value), code: &str) -> Value {
    let (status, body) = resp;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["result"], "error", "{body}");
    assert_eq!(body["code"], code, "{body}");
    body
}

pub(crate) async fn send_channel(c: &Client, channel: i64, topic: &str, content: &str) -> MessageId {
    c.send_message(&OutgoingMessage::channel(channel, topic, content)).await.unwrap().id
}

pub(crate) async fn send_dm(c: &Client, to: Vec<UserId>, content: &str) -> MessageId {
    c.send_message(&OutgoingMessage::direct(to, content)).await.unwrap().id
}

/// A move without the notification bot's note in the new conversation (these tests count the
/// messages that moved; `tests/api/daily.rs` checks the notes).
pub(crate) fn move_to(topic: Option<&str>, stream_id: Option<ChannelId>, mode: &str) -> MessageEdit {
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

pub(crate) fn utc(ts: i64) -> chrono::DateTime<chrono::Utc> {
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
