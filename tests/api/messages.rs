//! Messages: get (anchors, windows, limits), and the helpers every messages test shares (`all`,
//! `t`, `find`, the event pickers, `assert_limit`/`assert_400`, `move_to`). The narrows and
//! history access are in `messages_narrows.rs`, the operations on messages in `messages_ops.rs`
//! and sending in `messages_send.rs`; all of them use the helpers here.

use crate::common::Env;
use serde_json::Value;
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
