//! Register and event queues, and protocol hygiene: authentication, malformed input, unknown
//! endpoints, ignored parameters, credentials.

use crate::common::{Env, assert_err};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;
use topicterm::api::*;
use topicterm::server::ServerOptions;

fn kinds(evs: Vec<Event>) -> Vec<EventKind> {
    evs.into_iter().map(|e| e.kind).collect()
}

fn messages(evs: &[EventKind]) -> Vec<&MessageEvent> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::Message(m) => Some(m.as_ref()),
            _ => None,
        })
        .collect()
}

async fn queue_of(c: &Client, params: &RegisterParams) -> String {
    c.register(params).await.unwrap().queue_id.expect("queue_id")
}

// ---------------------------------------------------------------------------------------------
// Register
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn register_returns_a_queue_and_the_initial_state() {
    let env = Env::start().await;
    let member = env.client("member");
    // Presences by user ID (`slim_presence`), as topicterm asks; the legacy shape is in fidelity.rs.
    let reg =
        member.register(&RegisterParams { slim_presence: Some(true), ..Default::default() }).await.unwrap();
    assert!(!reg.queue_id.as_deref().unwrap_or("").is_empty());
    assert_eq!(reg.last_event_id, -1);
    assert_eq!(reg.zulip_feature_level, 512);
    assert_eq!(reg.zulip_version, "13.0-dev", "today's Zulip Cloud");
    assert_eq!(reg.max_message_length, Some(10_000));
    assert_eq!(reg.max_topic_length, Some(60));
    assert_eq!(reg.realm_empty_topic_display_name.as_deref(), Some("general chat"));
    let report_keys: Vec<String> =
        reg.server_report_message_types.unwrap().into_iter().map(|t| t.key).collect();
    for key in ["spam", "harassment", "inappropriate", "norms", "other"] {
        assert!(report_keys.iter().any(|k| k == key), "{key} in {report_keys:?}");
    }
    assert_eq!(reg.realm_moderation_request_channel_id, Some(env.channel_id("moderation")));
    assert!(reg.event_queue_longpoll_timeout_seconds.is_some_and(|s| s > 0));
    assert_eq!(reg.user_id, Some(env.user_id("member")));

    let unread = reg.unread_msgs.expect("unread_msgs");
    assert!(unread.count > 0);
    let subs = reg.subscriptions.expect("subscriptions");
    assert!(subs.iter().any(|s| s.name == "security" && s.invite_only));
    assert!(subs.iter().find(|s| s.name == "random").is_some_and(|s| s.is_muted));
    assert!(!subs.iter().any(|s| s.name == "moderation"), "member is not subscribed to moderation");
    let users = reg.realm_users.expect("realm_users").read();
    for who in ["owner", "member", "carol", "guest", "helperbot", "echobot"] {
        assert!(users.iter().any(|u| u.user_id == env.user_id(who)), "{who}");
    }
    // Carol is invisible: as on the reference, no user object says so; she has no presence.
    let (_, raw) = env.raw("member", "POST", "/register", &[("event_types", "[\"presence\"]")]).await;
    assert!(raw["presences"].get(env.creds("carol").email).is_none(), "{raw}");
    assert!(raw["presences"].get(env.creds("alice").email).is_some(), "{raw}");
    let topics = reg.user_topics.expect("user_topics");
    assert!(
        topics
            .iter()
            .any(|t| t.topic_name == "release 2.4 planning"
                && t.visibility_policy == VisibilityPolicy::Followed)
    );
    assert!(
        topics.iter().any(|t| t.topic_name == "bikeshed: config file format"
            && t.visibility_policy == VisibilityPolicy::Muted)
    );
    assert!(reg.presences.expect("presences").modern().contains_key(&env.user_id("alice")));
    assert!(reg.presence_last_update_id.is_some_and(|id| id > 0));
    let statuses = reg.user_status.expect("user_status");
    assert_eq!(statuses[&env.user_id("admin").to_string()].status_text, "In a meeting");
    let scheduled = reg.scheduled_messages.expect("scheduled_messages");
    assert_eq!(scheduled.len(), 3);
    assert_eq!(scheduled.iter().filter(|m| m.failed).count(), 1);
    let views = reg.navigation_views.expect("navigation_views");
    assert!(
        views.iter().any(|v| v.fragment == "narrow/channel/engineering/topic/release.202.2E4.20planning")
    );
    let playgrounds = reg.realm_playgrounds.expect("realm_playgrounds");
    assert!(playgrounds.iter().any(|p| p.name == "Rust playground" && p.pygments_language == "Rust"));
    let groups = reg.realm_user_groups.expect("realm_user_groups").read();
    let engineers = groups.iter().find(|g| g.name == "engineers").expect("engineers");
    assert_eq!(engineers.direct_subgroup_ids.len(), 2);
    // The client learned the server's limits.
    assert_eq!(member.server_info().feature_level, Some(512));
    assert_eq!(member.server_info().max_topic_length, Some(60));
}

#[tokio::test]
async fn fetch_event_types_limits_the_initial_state() {
    let env = Env::start().await;
    let params = RegisterParams { fetch_event_types: Some(vec!["message".into()]), ..Default::default() };
    let reg = env.client("member").register(&params).await.unwrap();
    assert!(reg.queue_id.is_some());
    assert_eq!(reg.zulip_feature_level, 512, "always present");
    assert!(reg.unread_msgs.is_some());
    assert!(reg.max_message_id.is_some());
    assert!(reg.subscriptions.is_none());
    assert!(reg.realm_users.is_none());
    assert!(reg.presences.is_none());
    assert!(reg.user_status.is_none());
    assert!(reg.navigation_views.is_none());
    assert!(reg.realm_playgrounds.is_none());
    assert!(reg.realm_user_groups.is_none());
}

#[tokio::test]
async fn event_types_limit_what_the_queue_receives() {
    let env = Env::start().await;
    let member = env.client("member");
    let params = RegisterParams { event_types: Some(vec!["user_status".into()]), ..Default::default() };
    let q = queue_of(&member, &params).await;
    let alice = env.client("alice");
    alice.send_message(&OutgoingMessage::direct(vec![env.user_id("member")], "hi")).await.unwrap();
    alice
        .update_status(&StatusUpdate { status_text: Some("Busy".into()), ..Default::default() })
        .await
        .unwrap();
    let evs = kinds(member.get_events(&q, -1, true, Duration::from_secs(5)).await.unwrap());
    assert_eq!(evs.len(), 1, "{evs:?}");
    assert!(matches!(&evs[0], EventKind::UserStatus(s) if s.status_text.as_deref() == Some("Busy")));
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn long_poll_returns_an_event_sent_by_another_user() {
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    let arrived = || env.server.shared.requests.load(std::sync::atomic::Ordering::SeqCst);
    let before = arrived();
    let poll = {
        let (member, q) = (member.clone(), q.clone());
        tokio::spawn(async move { member.get_events(&q, -1, false, Duration::from_secs(60)).await })
    };
    // The poll has reached the server, and waits: nothing is queued yet.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while arrived() == before {
        assert!(std::time::Instant::now() < deadline, "the poll never reached the server");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(!poll.is_finished());
    let sent = env
        .client("alice")
        .send_message(&OutgoingMessage::direct(vec![env.user_id("member")], "ping"))
        .await
        .unwrap();
    let evs =
        tokio::time::timeout(Duration::from_secs(5), poll).await.expect("the poll returns").unwrap().unwrap();
    let evs = kinds(evs);
    let m = messages(&evs);
    assert_eq!(m.len(), 1, "{evs:?}");
    assert_eq!(m[0].message.id, sent.id);
    assert_eq!(m[0].message.sender_id, env.user_id("alice"));
}

#[tokio::test]
async fn acknowledged_events_are_dropped() {
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    let alice = env.client("alice");
    let dm = |text: &str| OutgoingMessage::direct(vec![env.user_id("member")], text);
    alice.send_message(&dm("one")).await.unwrap();
    alice.send_message(&dm("two")).await.unwrap();
    let first = member.get_events(&q, -1, true, Duration::from_secs(5)).await.unwrap();
    assert_eq!(first.len(), 2);
    assert!(first[0].id < first[1].id);
    // Unacknowledged events are delivered again.
    let again = member.get_events(&q, -1, true, Duration::from_secs(5)).await.unwrap();
    assert_eq!(again, first);
    alice.send_message(&dm("three")).await.unwrap();
    let rest = member.get_events(&q, first[1].id, true, Duration::from_secs(5)).await.unwrap();
    assert_eq!(rest.len(), 1);
    assert!(rest[0].id > first[1].id);
    assert!(matches!(&rest[0].kind, EventKind::Message(m) if m.message.content.contains("three")));
    // Acknowledged events are gone for good.
    let after = member.get_events(&q, -1, true, Duration::from_secs(5)).await.unwrap();
    assert_eq!(after, rest);
}

#[tokio::test]
async fn heartbeat_arrives_when_idle() {
    let env =
        Env::start_with(ServerOptions { heartbeat: Duration::from_millis(300), ..Default::default() }).await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    let started = std::time::Instant::now();
    let evs = member.get_events(&q, -1, false, Duration::from_secs(10)).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(250), "the poll waited");
    assert_eq!(evs.len(), 1);
    assert_eq!(evs[0].kind, EventKind::Heartbeat);
}

#[track_caller]
fn assert_bad_queue(r: Result<Vec<Event>>, queue_id: &str) {
    let e = assert_err(r, "BAD_EVENT_QUEUE_ID", "");
    assert_eq!(e.status, 400);
    assert_eq!(e.queue_id.as_deref(), Some(queue_id));
}

#[tokio::test]
async fn unknown_queue_is_a_bad_event_queue_id() {
    let env = Env::start().await;
    let r = env.client("member").get_events("1234:nope", -1, true, Duration::from_secs(5)).await;
    assert_bad_queue(r, "1234:nope");
}

#[tokio::test]
async fn another_users_queue_is_a_bad_event_queue_id() {
    let env = Env::start().await;
    let q = queue_of(&env.client("alice"), &RegisterParams::default()).await;
    let member = env.client("member");
    assert_bad_queue(member.get_events(&q, -1, true, Duration::from_secs(5)).await, &q);
    assert_err(member.delete_queue(&q).await, "BAD_EVENT_QUEUE_ID", "");
    // alice's queue is untouched.
    env.client("alice").get_events(&q, -1, true, Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn deleted_queue_is_a_bad_event_queue_id() {
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    member.delete_queue(&q).await.unwrap();
    assert_bad_queue(member.get_events(&q, -1, true, Duration::from_secs(5)).await, &q);
    assert_err(member.delete_queue(&q).await, "BAD_EVENT_QUEUE_ID", "");
}

/// The answer to a poll of `q` once its lifetime has passed without a poll: once the server says
/// no poll waits on it (a poller that hung up has been noticed), the server's clock for the queue
/// is moved past its lifetime (`Queues::age`), then it is asked without blocking — which must not
/// itself keep it alive.
async fn expired(env: &Env, member: &Client, q: &str) -> Result<Vec<Event>, ApiError> {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while env.server.shared.lock().queues.map.get(q).is_some_and(|queue| queue.polling) {
        assert!(std::time::Instant::now() < deadline, "the server never saw the poll end");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    {
        let mut org = env.server.shared.lock();
        let lifetime = org.queues.map.get(q).expect("the queue, before its lifetime passed").lifetime;
        org.queues.age(q, lifetime);
    }
    member.get_events(q, -1, true, Duration::from_secs(5)).await
}

#[tokio::test]
async fn expired_queue_is_a_bad_event_queue_id() {
    // The default lifetime (ten minutes): the server's clock for the queue is moved past it.
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    member.get_events(&q, -1, true, Duration::from_secs(5)).await.expect("fresh queue");
    assert_bad_queue(expired(&env, &member, &q).await, &q);
}

#[tokio::test]
async fn a_queue_being_polled_does_not_expire() {
    let opts = ServerOptions {
        queue_lifetime: Duration::from_millis(300),
        heartbeat: Duration::from_millis(900),
        ..Default::default()
    };
    let env = Env::start_with(opts).await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    let evs = member.get_events(&q, -1, false, Duration::from_secs(10)).await.unwrap();
    assert_eq!(evs[0].kind, EventKind::Heartbeat, "the queue outlived its lifetime while polled");
    member.get_events(&q, evs[0].id, true, Duration::from_secs(5)).await.expect("still there");
}

#[tokio::test]
async fn a_queue_whose_poller_hung_up_still_expires() {
    let opts = ServerOptions { heartbeat: Duration::from_secs(30), ..Default::default() };
    let env = Env::start_with(opts).await;
    let member = env.client("member");
    let q = queue_of(&member, &RegisterParams::default()).await;
    // The client gives up mid-poll; the server must not keep the queue alive for it.
    let r = member.get_events(&q, -1, false, Duration::from_millis(150)).await;
    assert!(matches!(&r, Err(ApiError::Transport { timeout: true, .. })), "{r:?}");
    assert_bad_queue(expired(&env, &member, &q).await, &q);
}

#[tokio::test]
async fn empty_topic_name_capability_changes_the_subject_in_events() {
    let env = Env::start().await;
    let member = env.client("member");
    let modern =
        RegisterParams { client_capabilities: Some(json!({"empty_topic_name": true})), ..Default::default() };
    let with_cap = queue_of(&member, &modern).await;
    let without_cap = queue_of(&member, &RegisterParams::default()).await;
    let general = env.channel_id("general");
    env.client("alice")
        .send_message(&OutgoingMessage::channel(general, "", "in the empty topic"))
        .await
        .unwrap();
    for (q, subject) in [(&with_cap, ""), (&without_cap, "general chat")] {
        let evs = kinds(member.get_events(q, -1, true, Duration::from_secs(5)).await.unwrap());
        let m = messages(&evs);
        assert_eq!(m.len(), 1, "{evs:?}");
        assert_eq!(m[0].message.subject, subject);
    }
}

#[test]
fn unknown_event_types_decode_to_unknown() {
    let e = Event::decode(json!({"id": 4, "type": "holographic_call", "op": "start"}));
    assert_eq!(e.id, 4);
    assert_eq!(e.kind, EventKind::Unknown { event_type: "holographic_call".into() });
    let e = Event::decode(json!({"id": 5}));
    assert!(matches!(e.kind, EventKind::Unknown { .. }), "{e:?}");
}

#[test]
fn malformed_known_events_decode_to_malformed() {
    let e = Event::decode(json!({"id": 6, "type": "reaction", "op": "add", "message_id": "not a number"}));
    assert_eq!(e.id, 6);
    match e.kind {
        EventKind::Malformed { event_type, error } => {
            assert_eq!(event_type, "reaction");
            assert!(!error.is_empty());
        }
        other => panic!("expected Malformed, got {other:?}"),
    }
    // A good one next to it still decodes.
    let ok = Event::decode(json!({"id": 7, "type": "heartbeat"}));
    assert_eq!(ok, Event { id: 7, kind: EventKind::Heartbeat });
}

// ---------------------------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn wrong_credentials_are_401_json() {
    let env = Env::start().await;
    for creds in [
        Credentials { api_key: "wrong".into(), ..env.creds("member") },
        Credentials { email: "nobody@demo.topicterm.test".into(), ..env.creds("member") },
        Credentials { api_key: String::new(), ..env.creds("member") },
    ] {
        let err = Client::new(&creds).unwrap().get_subscriptions(None).await.unwrap_err();
        let e = err.server().expect("a JSON error body");
        assert_eq!(e.status, 401);
        // As the reference's `authenticated_rest_api_view`: `UNAUTHORIZED`, with the reason.
        assert_eq!(e.code, "UNAUTHORIZED");
        assert!(!e.msg.is_empty());
        assert!(err.is_auth());
    }
    // A key of the right form that is nobody's, or another user's, is "Invalid API key".
    let other = env.creds("bob").api_key;
    for key in ["X".repeat(32), other] {
        let creds = Credentials { api_key: key, ..env.creds("member") };
        let err = Client::new(&creds).unwrap().get_subscriptions(None).await.unwrap_err();
        let e = err.server().expect("a JSON error body");
        assert_eq!((e.status, e.code.as_str(), e.msg.as_str()), (401, "UNAUTHORIZED", "Invalid API key"));
    }
    let resp = reqwest::Client::new()
        .get(format!("{}/api/v1/users/me", env.server.url))
        .basic_auth(env.creds("member").email, Some("X".repeat(32)))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["www-authenticate"], "Basic realm=\"zulip\"");
}

#[tokio::test]
async fn missing_authorization_is_401_json() {
    let env = Env::start().await;
    let (status, body) = env.raw("", "GET", "/users/me/subscriptions", &[]).await;
    assert_eq!(status, 401);
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], "UNAUTHORIZED");
    assert!(body["msg"].as_str().is_some_and(|m| !m.is_empty()));
    // Garbage in the header is refused the same way.
    let resp = reqwest::Client::new()
        .get(format!("{}/api/v1/users/me", env.server.url))
        .header("authorization", "Basic !!!not-base64")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "UNAUTHORIZED");
}

#[tokio::test]
async fn deactivated_user_is_401_user_deactivated() {
    let env = Env::start().await;
    env.client("admin").deactivate_user(env.user_id("erin"), None, None).await.unwrap();
    let (status, body) = env.raw("erin", "GET", "/users/me", &[]).await;
    assert_eq!(status, 401);
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], "USER_DEACTIVATED");
}

// ---------------------------------------------------------------------------------------------
// Malformed requests
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn assert_bad(status: u16, body: &Value, code: &str, naming: &str) {
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], code, "{body}");
    assert!(body["msg"].as_str().unwrap_or("").contains(naming), "{body} should name {naming}");
}

#[tokio::test]
async fn malformed_parameters_are_400_naming_the_parameter() {
    let env = Env::start().await;
    let (s, b) =
        env.raw("member", "POST", "/mark_topic_as_read", &[("stream_id", "abc"), ("topic_name", "x")]).await;
    assert_bad(s, &b, "BAD_REQUEST", "stream_id");
    let (s, b) =
        env.raw("member", "DELETE", "/users/me/subscriptions", &[("subscriptions", "[\"general\"")]).await;
    assert_bad(s, &b, "BAD_REQUEST", "subscriptions");
    let (s, b) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("apply_markdown", "maybe")],
        )
        .await;
    assert_bad(s, &b, "BAD_REQUEST", "apply_markdown");
    let (s, b) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", "{oops")],
        )
        .await;
    assert_bad(s, &b, "BAD_REQUEST", "narrow");
}

#[tokio::test]
async fn missing_parameters_are_400_naming_the_parameter() {
    let env = Env::start().await;
    let (s, b) = env.raw("member", "POST", "/mark_topic_as_read", &[("topic_name", "x")]).await;
    assert_bad(s, &b, "REQUEST_VARIABLE_MISSING", "stream_id");
    assert_eq!(b["var_name"], "stream_id");
    let (s, b) =
        env.raw("admin", "POST", "/realm/playgrounds", &[("name", "x"), ("pygments_language", "Go")]).await;
    assert_bad(s, &b, "REQUEST_VARIABLE_MISSING", "url_template");
}

#[tokio::test]
async fn unknown_endpoint_is_404_json() {
    let env = Env::start().await;
    let (s, b) = env.raw("member", "GET", "/no/such/endpoint", &[]).await;
    assert_eq!(s, 404);
    assert_eq!(b["result"], "error");
    assert_eq!(b["code"], "NOT_FOUND");
    let resp = reqwest::get(format!("{}/not-the-api", env.server.url)).await.unwrap();
    assert_eq!(resp.status().as_u16(), 404);
    let b: Value = resp.json().await.unwrap();
    assert_eq!(b["result"], "error");
    // Through the client it is a server error, not a decoding failure.
    let r = env.client("member").call::<Ack>(Method::GET, "/no/such/endpoint", Params::new()).await;
    assert_eq!(assert_err(r, "NOT_FOUND", "").status, 404);
}

#[tokio::test]
async fn wrong_method_is_a_json_error() {
    let env = Env::start().await;
    let (s, b) = env.raw("member", "PUT", "/users/me/status", &[("status_text", "x")]).await;
    assert_eq!(s, 405);
    assert_eq!(b["result"], "error");
    assert!(b["msg"].as_str().is_some_and(|m| !m.is_empty()));
}

/// POST a raw form body as the member; returns (status, JSON body).
async fn post_raw(env: &Env, path: &str, body: Vec<u8>) -> (u16, Value) {
    let c = env.creds("member");
    let resp = reqwest::Client::new()
        .post(format!("{}/api/v1{path}", env.server.url))
        .basic_auth(c.email, Some(c.api_key))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.expect("a JSON body"))
}

#[tokio::test]
async fn hostile_input_gets_json_answers_and_the_server_survives() {
    let env = Env::start().await;
    // A 2 MB message.
    let huge = format!("type=stream&to=general&topic=x&content={}", "a".repeat(2 * 1024 * 1024));
    let (s, b) = post_raw(&env, "/messages", huge.into_bytes()).await;
    assert_eq!(s, 400, "{b}");
    assert_eq!(b["result"], "error");
    // Integers beyond i64.
    let (s, b) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "newest"), ("num_before", "99999999999999999999999"), ("num_after", "0")],
        )
        .await;
    assert_bad(s, &b, "BAD_REQUEST", "num_before");
    // Percent-encodings that are not UTF-8.
    let (s, b) = post_raw(&env, "/users/me/status", b"status_text=%FF%FE%C3%28".to_vec()).await;
    assert!(s == 200 || s == 400, "{s} {b}");
    let (s, b) =
        post_raw(&env, "/messages", b"type=stream&to=%FF&topic=%C3%28&content=%E2%82".to_vec()).await;
    assert_eq!(s, 400, "{b}");
    // Raw bytes that are not UTF-8 at all, and a broken percent sign.
    let (s, _) =
        post_raw(&env, "/users/me/presence", vec![b's', b't', b'a', 0xff, 0xfe, b'=', b'%', b'z']).await;
    assert_eq!(s, 400);
    // Deeply nested JSON in a narrow.
    let nested = format!("{}{}", "[".repeat(2_000), "]".repeat(2_000));
    let (s, b) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", &nested)],
        )
        .await;
    assert_bad(s, &b, "BAD_REQUEST", "narrow");
    let deep_object = format!("[{}]", "{\"operand\":".repeat(2_000));
    let (s, b) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", &deep_object)],
        )
        .await;
    assert_bad(s, &b, "BAD_REQUEST", "narrow");
    // Still serving.
    let reg = env.client("member").register(&RegisterParams::default()).await.unwrap();
    assert!(reg.queue_id.is_some());
}

// ---------------------------------------------------------------------------------------------
// ignored_parameters_unsupported
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn unknown_parameters_are_listed_as_ignored() {
    let env = Env::start().await;
    let (s, b) =
        env.raw("member", "POST", "/users/me/status", &[("status_text", "x"), ("bogus_param", "1")]).await;
    assert_eq!(s, 200);
    assert_eq!(b["result"], "success");
    assert_eq!(b["ignored_parameters_unsupported"], json!(["bogus_param"]));
    let p = Params::new().add("status_text", "x").add("bogus_param", "1");
    let ack: Ack = env.client("member").call(Method::POST, "/users/me/status", p).await.unwrap();
    assert_eq!(ack.ignored_parameters_unsupported, vec!["bogus_param".to_owned()]);
    // A request with only known parameters carries no such field.
    let (_, b) = env.raw("member", "POST", "/users/me/status", &[("status_text", "y")]).await;
    assert!(b.get("ignored_parameters_unsupported").is_none(), "{b}");
}

// ---------------------------------------------------------------------------------------------
// Credentials
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn server_settings_need_no_authentication() {
    let env = Env::start().await;
    let s = Client::anonymous(&env.server.url, &Default::default()).unwrap().server_settings().await.unwrap();
    assert_eq!(s.zulip_feature_level, 512);
    assert_eq!(s.zulip_version, "13.0-dev");
    assert_eq!(s.realm_name.as_deref(), Some("Topicterm Demo"));
    assert_eq!(s.authentication_methods["password"], json!(true));
    assert_eq!(s.url(), Some(env.server.url.as_str()));
    let (status, _) = env.raw("", "GET", "/server_settings", &[]).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn fetch_api_key_with_the_demo_password() {
    let env = Env::start().await;
    let anon = Client::anonymous(&env.server.url, &Default::default()).unwrap();
    let creds = env.creds("alice");
    let r = anon.fetch_api_key(&creds.email, topicterm::server::org::DEMO_PASSWORD).await.unwrap();
    assert_eq!(r.api_key, creds.api_key);
    assert_eq!(r.email, creds.email);
    assert_eq!(r.user_id, Some(env.user_id("alice")));
    // The key works.
    let c = Client::new(&Credentials { api_key: r.api_key, ..creds }).unwrap();
    c.get_subscriptions(None).await.unwrap();
}

#[tokio::test]
async fn fetch_api_key_with_a_wrong_password_is_401() {
    let env = Env::start().await;
    let anon = Client::anonymous(&env.server.url, &Default::default()).unwrap();
    let email = env.creds("alice").email;
    let err = anon.fetch_api_key(&email, "hunter2").await.unwrap_err();
    let e = err.server().expect("a JSON error");
    assert_eq!(e.status, 401);
    assert!(!e.msg.is_empty());
    let err = anon
        .fetch_api_key("nobody@demo.topicterm.test", topicterm::server::org::DEMO_PASSWORD)
        .await
        .unwrap_err();
    assert_eq!(err.server().map(|e| e.status), Some(401));
}

#[tokio::test]
async fn write_zuliprcs_writes_one_private_file_per_account() {
    let env = Env::start().await;
    let dir = tempfile::tempdir().unwrap();
    let written = env.server.write_zuliprcs(dir.path()).unwrap();
    let mut names: Vec<String> = env.server.short_names();
    names.sort();
    assert_eq!(names.len(), 14, "12 humans and 2 bots: {names:?}");
    assert!(names.contains(&"helperbot".to_owned()) && names.contains(&"echobot".to_owned()));
    assert_eq!(written.len(), names.len());
    for name in &names {
        let path = dir.path().join(format!("{name}.zuliprc"));
        assert!(written.contains(&path), "{path:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{name}");
        }
        let creds = zuliprc::read(&path).unwrap();
        assert_eq!(creds, env.creds(name), "{name}");
    }
    let creds = zuliprc::read(&dir.path().join("echobot.zuliprc")).unwrap();
    Client::new(&creds).unwrap().get_subscriptions(None).await.expect("the bot's file works");
}
