//! Server-side drafts: create (one or several), list, edit, delete, the `drafts` events that
//! keep a user's clients in step, `register`'s `drafts`, and `enable_drafts_synchronization`.

use crate::common::{Env, assert_err};
use serde_json::{Value, json};
use std::time::Duration;
use topicterm::api::*;

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
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

fn drafts_events(evs: &[EventKind]) -> Vec<DraftsEvent> {
    evs.iter().filter_map(|e| if let EventKind::Drafts(d) = e { Some(d.clone()) } else { None }).collect()
}

async fn listed(c: &Client) -> Vec<Draft> {
    let r = c.get_drafts().await.unwrap();
    assert_eq!(r.count, r.drafts.len(), "count matches the list");
    r.drafts
}

/// `draft` as the server stores it: with its ID (and the timestamp sent).
fn stored(id: i64, draft: &Draft) -> Draft {
    Draft { id: Some(id), ..draft.clone() }
}

/// POST /drafts with hand-written JSON, bypassing the client's checks.
async fn raw_create(env: &Env, who: &str, drafts: Value) -> (u16, Value) {
    env.raw(who, "POST", "/drafts", &[("drafts", &drafts.to_string())]).await
}

#[track_caller]
fn assert_refused(r: (u16, Value), status: u16, needle: &str) {
    assert_eq!(r.0, status, "status of {}", r.1);
    assert_eq!(r.1["result"], "error", "{}", r.1);
    assert_eq!(r.1["code"], "BAD_REQUEST", "{}", r.1);
    let msg = r.1["msg"].as_str().unwrap_or_default();
    assert!(msg.contains(needle), "message {msg:?} should contain {needle:?}");
}

// ---------------------------------------------------------------------------------------------
// Create and list
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn one_and_several_drafts_are_created_and_listed_newest_first() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    assert!(listed(&c).await.is_empty(), "nobody starts with drafts");
    let (general, alice, bob) = (env.channel_id("general"), env.user_id("alice"), env.user_id("bob"));

    let first =
        Draft { timestamp: Some(1_595_479_000), ..Draft::channel(general, "plans", "see you **soon**") };
    let ids = c.create_drafts(std::slice::from_ref(&first)).await.unwrap();
    assert_eq!(ids.len(), 1);
    assert_eq!(listed(&c).await, vec![stored(ids[0], &first)]);

    // A batch: IDs come back in the order sent; the list is ordered by last edit, newest first.
    let batch = vec![
        Draft { timestamp: Some(1_595_479_020), ..Draft::direct(vec![alice], "one") },
        Draft { timestamp: Some(1_595_479_040), ..Draft::direct(vec![alice, bob], "two") },
        Draft { timestamp: Some(1_595_479_010), ..Draft::unaddressed("three") },
    ];
    let more = c.create_drafts(&batch).await.unwrap();
    assert_eq!(more.len(), 3);
    let mut all_ids = more.clone();
    all_ids.push(ids[0]);
    all_ids.sort_unstable();
    all_ids.dedup();
    assert_eq!(all_ids.len(), 4, "every draft has its own ID: {more:?} {ids:?}");
    assert_eq!(
        listed(&c).await,
        vec![
            stored(more[1], &batch[1]),
            stored(more[0], &batch[0]),
            stored(more[2], &batch[2]),
            stored(ids[0], &first),
        ]
    );
    let r = c.get_drafts().await.unwrap();
    assert_eq!(r.count, 4);

    // Nothing is shared between users.
    assert!(listed(&env.client("alice")).await.is_empty());
}

#[tokio::test]
async fn channel_direct_and_unaddressed_drafts_have_the_protocol_shape() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let (general, me, alice, bob) =
        (env.channel_id("general"), env.user_id("member"), env.user_id("alice"), env.user_id("bob"));
    let ts = 1_700_000_000;
    let sent = vec![
        Draft::channel(general, "", "empty topic is fine"),
        Draft { topic: "ignored for DMs".into(), ..Draft::direct(vec![bob, alice, bob], "dm") },
        Draft::direct(vec![me, alice], "me and alice"),
        Draft::direct(vec![me], "note to self"),
        Draft::direct(vec![], "nobody yet"),
        Draft { topic: "ignored".into(), to: vec![alice], ..Draft::unaddressed("unaddressed") },
    ];
    let sent: Vec<Draft> = sent.into_iter().map(|d| Draft { timestamp: Some(ts), ..d }).collect();
    let ids = c.create_drafts(&sent).await.unwrap();
    let by_id = |d: &[Draft], id: i64| d.iter().find(|x| x.id == Some(id)).cloned().expect("listed");
    let list = listed(&c).await;

    let d = by_id(&list, ids[0]);
    assert_eq!((d.kind, d.to, d.topic.as_str()), (DraftType::Stream, vec![general], ""));
    // Direct: recipients sorted and de-duplicated, the topic dropped.
    let d = by_id(&list, ids[1]);
    assert_eq!((d.kind, d.to, d.topic.as_str()), (DraftType::Private, vec![alice, bob], ""));
    // The owner is not among the recipients of a conversation with others...
    assert_eq!(by_id(&list, ids[2]).to, vec![alice]);
    // ...but is the recipient of a note to self.
    assert_eq!(by_id(&list, ids[3]).to, vec![me]);
    // A direct draft with nobody in it, like an unaddressed one, comes back unaddressed.
    for id in [ids[4], ids[5]] {
        let d = by_id(&list, id);
        assert_eq!((d.kind, &d.to[..], d.topic.as_str()), (DraftType::Unaddressed, &[][..], ""), "{d:?}");
    }

    let (status, body) = env.raw("member", "GET", "/drafts", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(body["count"], 6);
    let raw = |id: i64| body["drafts"].as_array().unwrap().iter().find(|d| d["id"] == id).cloned().unwrap();
    assert_eq!(
        raw(ids[0]),
        json!({"id": ids[0], "type": "stream", "to": [general], "topic": "", "content": "empty topic is fine", "timestamp": ts})
    );
    assert_eq!(raw(ids[1])["type"], "private");
    assert_eq!(raw(ids[4])["type"], "");
    assert_eq!(raw(ids[4])["to"], json!([]));
}

#[tokio::test]
async fn a_missing_timestamp_is_filled_in_and_a_fractional_one_truncated() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let before = now();
    let ids = c.create_drafts(&[Draft::unaddressed("when?")]).await.unwrap();
    let d = listed(&c).await.into_iter().find(|d| d.id == Some(ids[0])).unwrap();
    let ts = d.timestamp.expect("the server sets the timestamp");
    assert!(ts >= before && ts <= now() + 1, "{ts} should be about now ({before})");

    let r = raw_create(
        &env,
        "member",
        json!([{"type": "", "to": [], "topic": "", "content": "x", "timestamp": 1595479019.75}]),
    )
    .await;
    assert_eq!(r.0, 200, "{}", r.1);
    let id = r.1["ids"][0].as_i64().unwrap();
    let d = listed(&c).await.into_iter().find(|d| d.id == Some(id)).unwrap();
    assert_eq!(d.timestamp, Some(1_595_479_019));
}

#[tokio::test]
async fn a_batch_with_one_bad_draft_stores_nothing() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let general = env.channel_id("general");
    let r = c
        .create_drafts(&[
            Draft::channel(general, "ok", "fine"),
            Draft::channel(999_999, "no", "such channel"),
        ])
        .await;
    assert_err(r, "BAD_REQUEST", "Invalid channel ID");
    assert!(listed(&c).await.is_empty());
    assert!(drafts_events(&events(&c, &q).await).is_empty(), "no event for a refused batch");
}

#[tokio::test]
async fn an_empty_list_creates_nothing_and_a_missing_or_malformed_list_is_refused() {
    let env = Env::start().await;
    let r = raw_create(&env, "member", json!([])).await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(r.1["ids"], json!([]));

    let (status, body) = env.raw("member", "POST", "/drafts", &[]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "REQUEST_VARIABLE_MISSING");
    assert_eq!(body["var_name"], "drafts");
    assert_refused(env.raw("member", "POST", "/drafts", &[("drafts", "not json")]).await, 400, "drafts");
    assert_refused(raw_create(&env, "member", json!({"type": ""})).await, 400, "not a list");
    assert_refused(raw_create(&env, "member", json!([7])).await, 400, "drafts[0] is not a dict");
    let missing = json!([{"type": "", "to": [], "content": "no topic key"}]);
    assert_refused(raw_create(&env, "member", missing).await, 400, "\"topic\"");
    let bad_to = json!([{"type": "private", "to": ["alice"], "topic": "", "content": "x"}]);
    assert_refused(raw_create(&env, "member", bad_to).await, 400, "\"to\"");
    let extra = json!([{"type": "", "to": [], "topic": "", "content": "x", "color": "red"}]);
    assert_refused(raw_create(&env, "member", extra).await, 400, "'color'");
    // `id` is part of the draft object; it is ignored on input.
    let with_id = json!([{"id": 424242, "type": "", "to": [], "topic": "", "content": "x"}]);
    let r = raw_create(&env, "member", with_id).await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_ne!(r.1["ids"][0], 424242);
    assert_eq!(listed(&env.client("member")).await.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn only_the_three_protocol_types_are_accepted() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    for ty in ["channel", "direct", "bogus", "Stream"] {
        let d = json!([{"type": ty, "to": [general], "topic": "t", "content": "x"}]);
        assert_refused(raw_create(&env, "member", d).await, 400, "\"type\"");
    }
    let d = json!([{"type": 1, "to": [], "topic": "", "content": "x"}]);
    assert_refused(raw_create(&env, "member", d).await, 400, "\"type\"");
    assert!(listed(&env.client("member")).await.is_empty());
}

#[tokio::test]
async fn channel_drafts_need_exactly_one_accessible_channel() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let (general, leadership) = (env.channel_id("general"), env.channel_id("leadership"));
    // Refused by the server…
    assert_err(
        c.create_drafts(&[Draft::channel(999_999, "t", "x")]).await,
        "BAD_REQUEST",
        "Invalid channel ID",
    );
    // …also for a private channel the user is not subscribed to (its existence is not revealed).
    assert_err(
        c.create_drafts(&[Draft::channel(leadership, "t", "x")]).await,
        "BAD_REQUEST",
        "Invalid channel ID",
    );
    // A subscriber may keep a draft there.
    assert!(
        env.registered_client("alice")
            .await
            .create_drafts(&[Draft::channel(leadership, "t", "x")])
            .await
            .is_ok()
    );

    for to in [json!([]), json!([general, general + 1])] {
        let d = json!([{"type": "stream", "to": to, "topic": "t", "content": "x"}]);
        assert_refused(
            raw_create(&env, "member", d).await,
            400,
            "Must specify exactly 1 channel ID for channel messages",
        );
    }
    // The client refuses the same before sending anything.
    let before = env.requests();
    let two = Draft { to: vec![general, general + 1], ..Draft::channel(general, "t", "x") };
    match c.create_drafts(&[two]).await {
        Err(ApiError::Limit(LimitError::DraftChannelCount(2))) => {}
        other => panic!("expected a limit error, got {other:?}"),
    }
    assert_eq!(env.requests(), before, "nothing was sent");
    assert!(listed(&c).await.is_empty());

    // Nor an archived channel.
    let random = env.channel_id("random");
    let (status, body) = env.raw("admin", "DELETE", &format!("/streams/{random}"), &[]).await;
    assert_eq!(status, 200, "{body}");
    assert_err(
        c.create_drafts(&[Draft::channel(random, "t", "x")]).await,
        "BAD_REQUEST",
        "Invalid channel ID",
    );
}

#[tokio::test]
async fn direct_drafts_need_existing_users() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let alice = env.user_id("alice");
    let r = c.create_drafts(&[Draft::direct(vec![alice, 99_999_999], "hi")]).await;
    assert_err(r, "BAD_REQUEST", "Invalid user ID 99999999");
    assert!(listed(&c).await.is_empty());
}

#[tokio::test]
async fn content_and_topic_limits_are_checked_by_client_and_server() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    let long = "x".repeat(10_001);

    let before = env.requests();
    match c.create_drafts(&[Draft::unaddressed(&long)]).await {
        Err(ApiError::Limit(LimitError::ContentTooLong { len: 10_001, max: 10_000 })) => {}
        other => panic!("expected ContentTooLong, got {other:?}"),
    }
    match c.create_drafts(&[Draft::channel(general, &"t".repeat(61), "x")]).await {
        Err(ApiError::Limit(LimitError::TopicTooLong { len: 61, max: 60 })) => {}
        other => panic!("expected TopicTooLong, got {other:?}"),
    }
    match c.create_drafts(&[Draft::unaddressed(" \n ")]).await {
        Err(ApiError::Limit(LimitError::EmptyContent)) => {}
        other => panic!("expected EmptyContent, got {other:?}"),
    }
    assert_eq!(env.requests(), before, "nothing was sent");

    // Exactly at the limits is fine.
    let at = Draft::channel(general, &"t".repeat(60), &"x".repeat(10_000));
    let ids = c.create_drafts(std::slice::from_ref(&at)).await.unwrap();
    assert_eq!(listed(&c).await[0].content.chars().count(), 10_000);

    // The server refuses what a client without the checks sends.
    let d = json!([{"type": "", "to": [], "topic": "", "content": long}]);
    assert_refused(
        raw_create(&env, "member", d).await,
        400,
        "Message must not be longer than 10000 characters",
    );
    let d = json!([{"type": "stream", "to": [general], "topic": "t".repeat(61), "content": "x"}]);
    assert_refused(raw_create(&env, "member", d).await, 400, "Topic must not be longer than 60 characters");
    // The topic of a direct draft is ignored, so its length does not matter.
    let d =
        json!([{"type": "private", "to": [env.user_id("alice")], "topic": "t".repeat(61), "content": "x"}]);
    assert_eq!(raw_create(&env, "member", d).await.0, 200);
    let d = json!([{"type": "", "to": [], "topic": "", "content": "  "}]);
    assert_refused(raw_create(&env, "member", d).await, 400, "Message must not be empty");
    let d = json!([{"type": "", "to": [], "topic": "", "content": "a\u{0}b"}]);
    assert_refused(raw_create(&env, "member", d).await, 400, "Message must not contain null bytes");
    let d = json!([{"type": "stream", "to": [general], "topic": "a\u{0}", "content": "x"}]);
    assert_refused(raw_create(&env, "member", d).await, 400, "Topic must not contain null bytes");
    let d = json!([{"type": "", "to": [], "topic": "", "content": "x", "timestamp": -10.1}]);
    assert_refused(raw_create(&env, "member", d).await, 400, "Timestamp must not be negative.");

    // Edits are held to the same limits.
    let before = env.requests();
    let r = c.edit_draft(ids[0], &Draft::unaddressed(&long)).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::ContentTooLong { .. }))), "{r:?}");
    assert_eq!(env.requests(), before);
    let path = format!("/drafts/{}", ids[0]);
    let d = json!({"type": "", "to": [], "topic": "", "content": long});
    let r = env.raw("member", "PATCH", &path, &[("draft", &d.to_string())]).await;
    assert_refused(r, 400, "Message must not be longer than 10000 characters");
    assert_eq!(listed(&c).await.len(), 2);
}

// ---------------------------------------------------------------------------------------------
// Edit and delete
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn an_edit_replaces_the_draft_and_is_announced() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let (general, design, alice) =
        (env.channel_id("general"), env.channel_id("design"), env.user_id("alice"));
    let ids = c
        .create_drafts(&[
            Draft {
                timestamp: Some(1_595_505_700),
                ..Draft::channel(general, "drafts", "The API should be good")
            },
            Draft { timestamp: Some(1_595_505_750), ..Draft::unaddressed("other") },
        ])
        .await
        .unwrap();
    assert_eq!(listed(&c).await[0].id, Some(ids[1]));

    // Move it to another channel and topic, then make it a direct message.
    let edited = Draft {
        timestamp: Some(1_595_505_800),
        ..Draft::channel(design, "designing drafts", "structured yet simple")
    };
    c.edit_draft(ids[0], &edited).await.unwrap();
    let list = listed(&c).await;
    assert_eq!(list[0], stored(ids[0], &edited), "the edited draft is now the newest");
    assert_eq!(list.len(), 2);

    let dm = Draft { timestamp: Some(1_595_505_900), ..Draft::direct(vec![alice], "let's talk") };
    // A stale `id` in the object is not sent (and would not matter).
    c.edit_draft(ids[0], &Draft { id: Some(ids[1]), ..dm.clone() }).await.unwrap();
    assert_eq!(listed(&c).await[0], stored(ids[0], &dm));
    assert_eq!(listed(&c).await[1].id, Some(ids[1]), "the other draft is untouched");

    let evs = drafts_events(&events(&c, &q).await);
    assert_eq!(
        evs,
        vec![
            DraftsEvent::Add(vec![
                stored(
                    ids[0],
                    &Draft {
                        timestamp: Some(1_595_505_700),
                        ..Draft::channel(general, "drafts", "The API should be good")
                    }
                ),
                stored(ids[1], &Draft { timestamp: Some(1_595_505_750), ..Draft::unaddressed("other") }),
            ]),
            DraftsEvent::Update(stored(ids[0], &edited)),
            DraftsEvent::Update(stored(ids[0], &dm)),
        ]
    );

    // An edit is validated like a new draft.
    let r = c.edit_draft(ids[0], &Draft::channel(999_999, "t", "x")).await;
    assert_err(r, "BAD_REQUEST", "Invalid channel ID");
    assert_eq!(listed(&c).await[0], stored(ids[0], &dm), "a refused edit changes nothing");
    let path = format!("/drafts/{}", ids[0]);
    let r = env.raw("member", "PATCH", &path, &[]).await;
    assert_eq!(r.1["code"], "REQUEST_VARIABLE_MISSING", "{}", r.1);
    let bad = json!({"type": "channel", "to": [general], "topic": "t", "content": "x"});
    assert_refused(env.raw("member", "PATCH", &path, &[("draft", &bad.to_string())]).await, 400, "\"type\"");
}

#[tokio::test]
async fn a_deleted_draft_is_gone_and_announced() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let ids = c.create_drafts(&[Draft::unaddressed("keep"), Draft::unaddressed("drop")]).await.unwrap();
    c.delete_draft(ids[1]).await.unwrap();
    let list = listed(&c).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, Some(ids[0]));
    let evs = drafts_events(&events(&c, &q).await);
    assert_eq!(evs.len(), 2, "{evs:?}");
    assert_eq!(evs[1], DraftsEvent::Remove(ids[1]));

    // Twice is once too many.
    let e = assert_err(c.delete_draft(ids[1]).await, "BAD_REQUEST", "Draft does not exist");
    assert_eq!(e.status, 404);
    let e = assert_err(
        c.edit_draft(ids[1], &Draft::unaddressed("back?")).await,
        "BAD_REQUEST",
        "Draft does not exist",
    );
    assert_eq!(e.status, 404);
    assert_eq!(drafts_events(&events(&c, &q).await).len(), 2, "no event for a refused request");
}

#[tokio::test]
async fn unknown_ids_and_other_users_drafts_are_not_found() {
    let env = Env::start().await;
    let member = env.client("member");
    let alice = env.client("alice");
    let mine = Draft { timestamp: Some(1_595_505_700), ..Draft::unaddressed("mine") };
    let ids = member.create_drafts(std::slice::from_ref(&mine)).await.unwrap();

    for c in [&member, &alice] {
        let e = assert_err(c.delete_draft(999_999_999).await, "BAD_REQUEST", "Draft does not exist");
        assert_eq!(e.status, 404);
    }
    // Another user's draft is "not found" for everyone else, for edits and deletions alike.
    let e = assert_err(
        alice.edit_draft(ids[0], &Draft::unaddressed("???")).await,
        "BAD_REQUEST",
        "Draft does not exist",
    );
    assert_eq!(e.status, 404);
    let e = assert_err(alice.delete_draft(ids[0]).await, "BAD_REQUEST", "Draft does not exist");
    assert_eq!(e.status, 404);
    assert_eq!(listed(&member).await, vec![stored(ids[0], &mine)], "the owner's draft is intact");

    let r = env.raw("member", "DELETE", "/drafts/abc", &[]).await;
    assert_refused(r, 400, "draft_id is not an integer");
}

// ---------------------------------------------------------------------------------------------
// Events and register
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn drafts_events_reach_only_the_owners_queues() {
    let env = Env::start().await;
    let member = env.client("member");
    let phone = env.client("member");
    let alice = env.client("alice");
    let (q1, q2, qa) = (queue(&member).await, queue(&phone).await, queue(&alice).await);
    // A queue that asked for other event types only gets none either.
    let narrow = member
        .register(&RegisterParams { event_types: Some(vec!["message".into()]), ..Default::default() })
        .await
        .unwrap()
        .queue_id
        .unwrap();

    let d = Draft { timestamp: Some(1_595_479_019), ..Draft::direct(vec![env.user_id("alice")], "psst") };
    let ids = member.create_drafts(std::slice::from_ref(&d)).await.unwrap();
    member.delete_draft(ids[0]).await.unwrap();

    let expected = vec![DraftsEvent::Add(vec![stored(ids[0], &d)]), DraftsEvent::Remove(ids[0])];
    assert_eq!(drafts_events(&events(&member, &q1).await), expected);
    assert_eq!(drafts_events(&events(&phone, &q2).await), expected, "the owner's other client too");
    assert!(drafts_events(&events(&alice, &qa).await).is_empty(), "not even the recipient sees a draft");
    assert!(drafts_events(&events(&member, &narrow).await).is_empty());
}

#[tokio::test]
async fn register_includes_the_drafts_when_asked() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let sent = vec![
        Draft { timestamp: Some(1_595_479_019), ..Draft::channel(general, "sync", "first") },
        Draft { timestamp: Some(1_595_479_020), ..Draft::unaddressed("second") },
    ];
    let ids = c.create_drafts(&sent).await.unwrap();
    let expected = vec![stored(ids[1], &sent[1]), stored(ids[0], &sent[0])];

    let everything = c.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(everything.drafts.as_ref(), Some(&expected));
    let only = c
        .register(&RegisterParams { fetch_event_types: Some(vec!["drafts".into()]), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(only.drafts, Some(expected.clone()));
    assert_eq!(only.drafts, Some(listed(&c).await));
    let by_event_types = c
        .register(&RegisterParams { event_types: Some(vec!["drafts".into()]), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(by_event_types.drafts, Some(expected));
    let other = c
        .register(&RegisterParams { fetch_event_types: Some(vec!["message".into()]), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(other.drafts, None, "not asked for");
    assert_eq!(env.client("alice").register(&RegisterParams::default()).await.unwrap().drafts, Some(vec![]));
}

// ---------------------------------------------------------------------------------------------
// enable_drafts_synchronization
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn with_synchronization_off_drafts_are_refused_and_register_shows_none() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.user_settings.and_then(|s| s.enable_drafts_synchronization), Some(true), "on by default");
    let ids = c.create_drafts(&[Draft::unaddressed("one"), Draft::unaddressed("two")]).await.unwrap();
    let alices = env.client("alice").create_drafts(&[Draft::unaddressed("alice's")]).await.unwrap();

    c.set_drafts_sync(false).await.unwrap();
    let evs = events(&c, &q).await;
    let settings: Vec<&UserSettingsEvent> =
        evs.iter().filter_map(|e| if let EventKind::UserSettings(s) = e { Some(s) } else { None }).collect();
    assert_eq!(settings.len(), 1, "{evs:?}");
    let off =
        UserSettingChange::Other { property: "enable_drafts_synchronization".into(), value: json!(false) };
    assert_eq!(settings[0], &UserSettingsEvent::Update(off));
    // The server's drafts are deleted without drafts events (clients keep their copies).
    assert_eq!(drafts_events(&evs).len(), 1, "only the add: {evs:?}");

    let off = "User has disabled synchronizing drafts.";
    let e = assert_err(c.get_drafts().await, "BAD_REQUEST", off);
    assert_eq!(e.status, 400);
    assert_err(c.create_drafts(&[Draft::unaddressed("three")]).await, "BAD_REQUEST", off);
    assert_err(c.edit_draft(ids[0], &Draft::unaddressed("one!")).await, "BAD_REQUEST", off);
    assert_err(c.delete_draft(ids[0]).await, "BAD_REQUEST", off);
    // Refused before anything else is looked at.
    assert_err(c.delete_draft(999_999).await, "BAD_REQUEST", off);

    let reg = c.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.drafts, Some(vec![]));
    assert_eq!(reg.user_settings.and_then(|s| s.enable_drafts_synchronization), Some(false));

    // Other users are unaffected.
    assert_eq!(
        listed(&env.client("alice")).await.iter().map(|d| d.id).collect::<Vec<_>>(),
        vec![Some(alices[0])]
    );

    // Setting it to what it already is changes nothing and announces nothing.
    c.set_drafts_sync(false).await.unwrap();
    assert_eq!(events(&c, &q).await.len(), evs.len());

    // Back on: the old drafts are gone for good, new ones work.
    c.set_drafts_sync(true).await.unwrap();
    assert!(listed(&c).await.is_empty());
    let again = c.create_drafts(&[Draft::unaddressed("fresh start")]).await.unwrap();
    assert_eq!(listed(&c).await.len(), 1);
    assert!(!ids.contains(&again[0]));
}

#[tokio::test]
async fn drafts_synchronization_is_a_setting_among_the_others() {
    let env = Env::start().await;
    let (status, body) = env
        .raw(
            "member",
            "PATCH",
            "/settings",
            &[("enable_drafts_synchronization", "false"), ("color_scheme", "2")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Every documented setting is taken (none reported ignored): see tests/api/third_party.rs.
    assert!(body.get("ignored_parameters_unsupported").is_none(), "{body}");
    assert_err(env.client("member").get_drafts().await, "BAD_REQUEST", "disabled");
    let (status, body) =
        env.raw("member", "PATCH", "/settings", &[("enable_drafts_synchronization", "maybe")]).await;
    assert_eq!(status, 400, "{body}");
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

#[test]
fn the_draft_model_accepts_both_spellings_and_unknown_fields() {
    let d: Draft = serde_json::from_value(json!({"id": 3, "type": "channel", "to": [9], "topic": "t",
        "content": "c", "timestamp": 1595479019.9, "future_field": true}))
    .unwrap();
    assert_eq!(d, Draft { id: Some(3), timestamp: Some(1_595_479_019), ..Draft::channel(9, "t", "c") });
    let d: Draft = serde_json::from_value(json!({"type": "direct", "to": [8], "content": "c"})).unwrap();
    assert_eq!(d.kind, DraftType::Private);
    let d: Draft =
        serde_json::from_value(json!({"type": "", "to": [], "topic": "", "content": "c"})).unwrap();
    assert_eq!(d.kind, DraftType::Unaddressed);
    let d: Draft =
        serde_json::from_value(json!({"type": "thread", "to": [], "topic": "", "content": "c"})).unwrap();
    assert_eq!(d.kind, DraftType::Other);
    // Sent: the protocol's spellings, no ID.
    let sent =
        serde_json::to_value(Draft { id: Some(3), ..Draft::direct(vec![8], "c") }.to_request()).unwrap();
    assert_eq!(sent, json!({"type": "private", "to": [8], "topic": "", "content": "c"}));
}

#[test]
fn drafts_events_decode_typed_with_fallbacks() {
    let add = Event::decode(json!({"id": 1, "type": "drafts", "op": "add",
        "drafts": [{"id": 17, "type": "private", "to": [6], "topic": "", "content": "Hello there!", "timestamp": 15954790200_i64}]}));
    assert_eq!(add.id, 1);
    assert_eq!(
        add.kind,
        EventKind::Drafts(DraftsEvent::Add(vec![Draft {
            id: Some(17),
            timestamp: Some(15_954_790_200),
            ..Draft::direct(vec![6], "Hello there!")
        }]))
    );
    let upd = Event::decode(json!({"id": 2, "type": "drafts", "op": "update",
        "draft": {"id": 17, "type": "stream", "to": [3], "topic": "x", "content": "y", "timestamp": 5}}));
    assert!(
        matches!(upd.kind, EventKind::Drafts(DraftsEvent::Update(ref d)) if d.id == Some(17) && d.to == vec![3])
    );
    let rm = Event::decode(json!({"id": 3, "type": "drafts", "op": "remove", "draft_id": 17}));
    assert_eq!(rm.kind, EventKind::Drafts(DraftsEvent::Remove(17)));

    for bad in [
        json!({"id": 4, "type": "drafts", "op": "explode"}),
        json!({"id": 5, "type": "drafts", "op": "remove"}),
        json!({"id": 6, "type": "drafts", "op": "add", "drafts": [{"type": "", "to": []}]}),
        json!({"id": 7, "type": "drafts"}),
    ] {
        let e = Event::decode(bad.clone());
        assert!(
            matches!(&e.kind, EventKind::Malformed { event_type, .. } if event_type == "drafts"),
            "{bad} → {e:?}"
        );
    }
    let s = Event::decode(json!({"id": 8, "type": "user_settings", "op": "update",
        "property": "enable_drafts_synchronization", "value": false}));
    assert!(matches!(s.kind, EventKind::UserSettings(UserSettingsEvent::Update(UserSettingChange::Other {
        ref value, ..
    })) if *value == json!(false)));
    let unknown = Event::decode(json!({"id": 9, "type": "draft_folders", "op": "add"}));
    assert_eq!(unknown.kind, EventKind::Unknown { event_type: "draft_folders".into() });
}
