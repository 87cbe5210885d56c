//! The demo server's resource bounds against one hostile member and a stranger on the network
//! (issue 50.6): event queues a user keeps, events a queue nobody polls holds, expired queues
//! collected with no request to trigger it, and a request body that must arrive whole within
//! a bound. Over loopback, with plain HTTP and raw sockets.

use crate::common::*;
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use topicterm::server::ServerOptions;
use topicterm::server::events::{MAX_QUEUE_BYTES, MAX_QUEUES_PER_USER};

/// A queue of `who`'s for message events only: its ID.
async fn register(env: &Env, who: &str) -> String {
    let (status, body) = env.raw(who, "POST", "/register", &[("event_types", r#"["message"]"#)]).await;
    assert_eq!(status, 200, "{body}");
    body["queue_id"].as_str().expect("a queue").to_owned()
}

/// `GET /events` without waiting, acknowledging through `last_event_id`.
async fn poll(env: &Env, who: &str, queue: &str, last_event_id: i64) -> (u16, Value) {
    let last = last_event_id.to_string();
    let params = [("queue_id", queue), ("last_event_id", last.as_str()), ("dont_block", "true")];
    env.raw(who, "GET", "/events", &params).await
}

/// The reference server's answer for a queue it no longer has.
fn assert_gone(answer: (u16, Value), queue: &str) {
    let (status, body) = answer;
    assert_eq!(
        (status, body["code"].as_str(), body["msg"].as_str()),
        (400, Some("BAD_EVENT_QUEUE_ID"), Some(format!("Bad event queue ID: {queue}").as_str())),
        "{body}"
    );
    assert_eq!(body["queue_id"], queue);
}

#[tokio::test]
async fn a_user_keeps_a_bounded_number_of_queues_and_the_least_recently_polled_goes_first() {
    let env = Env::start().await;
    let alices = register(&env, "alice").await;
    let mut queues = Vec::new();
    for _ in 0..MAX_QUEUES_PER_USER {
        queues.push(register(&env, "member").await);
    }
    // The first is polled now: the second becomes the least recently polled.
    assert_eq!(poll(&env, "member", &queues[0], -1).await.0, 200);
    let newest = register(&env, "member").await;
    let held = |user: &str| {
        let id = env.user_id(user);
        env.server.shared.lock().queues.map.values().filter(|q| q.user_id == id).count()
    };
    assert_eq!(held("member"), MAX_QUEUES_PER_USER);
    assert_gone(poll(&env, "member", &queues[1], -1).await, &queues[1]);
    for q in [&queues[0], &queues[2], &newest] {
        assert_eq!(poll(&env, "member", q, -1).await.0, 200, "{q} is kept");
    }
    // A hundred more leave the server holding as many as before, and nobody else's.
    for _ in 0..100 {
        register(&env, "member").await;
    }
    assert_eq!(held("member"), MAX_QUEUES_PER_USER);
    assert_eq!(poll(&env, "alice", &alices, -1).await.0, 200, "another user's queue is untouched");
}

#[tokio::test]
async fn a_queue_nobody_polls_is_collected_past_its_bound_and_a_polled_one_is_not() {
    let env = Env::start().await;
    let idle = register(&env, "alice").await;
    let polled = register(&env, "bob").await;
    let long = "a long line of words to fill the queue ".repeat(250);
    let general = env.channel_id("general").to_string();
    let send = [("type", "stream"), ("to", general.as_str()), ("topic", "long"), ("content", long.as_str())];
    let over = |q: &str| env.server.shared.lock().queues.map.get(q).is_none_or(|q| q.overflowed);
    let (mut sent, mut bob_saw) = (0usize, -1i64);
    while !over(&idle) {
        assert!(sent * long.len() < 4 * MAX_QUEUE_BYTES, "still kept after {sent} long messages");
        let (status, body) = env.raw("member", "POST", "/messages", &send).await;
        assert_eq!(status, 200, "{body}");
        sent += 1;
        if sent % 20 == 0 {
            let (status, body) = poll(&env, "bob", &polled, bob_saw).await;
            assert_eq!(status, 200, "bob polls as he goes: {body}");
            bob_saw = body["events"]
                .as_array()
                .and_then(|e| e.last())
                .map_or(bob_saw, |e| e["id"].as_i64().unwrap());
        }
    }
    assert!(sent * long.len() >= MAX_QUEUE_BYTES / 2, "collected too soon, after {sent}");
    assert_gone(poll(&env, "alice", &idle, -1).await, &idle);
    let (status, body) = poll(&env, "bob", &polled, bob_saw).await;
    assert_eq!(status, 200, "the queue that was polled is kept: {body}");
    // Alice registers again, as every client does on that answer, and is served.
    let again = register(&env, "alice").await;
    assert_eq!(poll(&env, "alice", &again, -1).await.0, 200);
}

#[tokio::test]
async fn an_expired_queue_is_collected_without_any_request_to_trigger_it() {
    let env = Env::start().await;
    let q = register(&env, "member").await;
    let lifetime = env.server.shared.lock().queues.map[&q].lifetime;
    env.server.shared.lock().queues.age(&q, lifetime);
    let deadline = Instant::now() + Duration::from_secs(30);
    while env.server.shared.lock().queues.map.contains_key(&q) {
        assert!(Instant::now() < deadline, "an expired queue still held");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Send `head` and then the body one byte at a time every `every`, on a task of its own, while
/// reading what the server answers until it closes the connection (or `within` passes).
async fn trickle(url: &str, head: String, every: Duration, within: Duration) -> (String, bool) {
    let stream = TcpStream::connect(url.trim_start_matches("http://")).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let writer = tokio::spawn(async move {
        if write.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        for _ in 0..10_000 {
            tokio::time::sleep(every).await;
            if write.write_all(b"x").await.is_err() {
                return;
            }
        }
    });
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + within;
    let closed = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, read.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break true,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => break false,
        }
    };
    writer.abort();
    (String::from_utf8_lossy(&got).into_owned(), closed)
}

#[tokio::test]
async fn a_request_body_trickled_in_is_answered_and_closed_after_the_bound() {
    let opts = ServerOptions { body_read_timeout: Duration::from_millis(1500), ..Default::default() };
    let env = Env::start_with(opts).await;
    let auth = {
        use base64::Engine;
        let c = env.creds("member");
        base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", c.email, c.api_key))
    };
    for (path, auth) in [
        ("/api/v1/fetch_api_key", String::new()),
        ("/api/v1/messages", format!("Authorization: Basic {auth}\r\n")),
    ] {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/x-www-form-urlencoded\r\n\
             Content-Length: 2000\r\n\r\nusername="
        );
        let started = Instant::now();
        // A byte every 100 ms never lets a between-bytes bound fire; only a bound on the whole
        // body does. Generous against a loaded machine; without a bound it runs to 200 s.
        let (answer, closed) =
            trickle(&env.server.url, head, Duration::from_millis(100), Duration::from_secs(60)).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{path}: {answer:?}");
        assert!(answer.contains("Request body not received in time"), "{path}: {answer:?}");
        assert!(closed, "{path}: still open after {:?}", started.elapsed());
        assert!(started.elapsed() < Duration::from_secs(30), "{path}: took {:?}", started.elapsed());
    }
    // A whole request is answered as before.
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/messages",
            &[
                ("type", "stream"),
                ("to", &env.channel_id("general").to_string()),
                ("topic", "t"),
                ("content", "still works"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
}
