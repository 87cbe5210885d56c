//! The demo server against a hostile member of its organization and a hostile stranger on the
//! network (issue 37): uploads are served only to those the reference server serves them to,
//! credentials are checked before any body is read, a request head must arrive within a bound,
//! and names and topics refuse control characters. Each test talks to a real demo server over
//! loopback, with the typed client, plain HTTP, or a raw socket.

use crate::common::*;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use topicterm::api::*;
use topicterm::server::ServerOptions;

/// Send `head` on a fresh connection, then read until the server answers or closes: what it
/// sent, and whether it closed, within `within`.
async fn answer_to_head(url: &str, head: &str, within: Duration) -> (String, bool) {
    let addr = url.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(head.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(Ok(n)) => {
                got.extend_from_slice(&buf[..n]);
                // A whole answer head is enough when one is what is waited for.
                if String::from_utf8_lossy(&got).contains("\r\n\r\n") {
                    return (String::from_utf8_lossy(&got).into_owned(), false);
                }
            }
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
        }
    }
}

#[tokio::test]
async fn a_request_without_valid_credentials_is_refused_before_its_body_is_sent() {
    let env = Env::start().await;
    let wrong = {
        use base64::Engine;
        let c = env.creds("member");
        base64::engine::general_purpose::STANDARD.encode(format!("{}:not-the-key", c.email))
    };
    // 32 MiB announced, none of it sent: the answer must not wait for it.
    for auth in [String::new(), format!("Authorization: Basic {wrong}\r\n")] {
        for path in ["/api/v1/messages", "/api/v1/user_uploads"] {
            let head = format!(
                "POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/x-www-form-urlencoded\r\n\
                 Content-Length: 33554432\r\n\r\n"
            );
            let (answer, _) = answer_to_head(&env.server.url, &head, Duration::from_secs(20)).await;
            assert!(answer.starts_with("HTTP/1.1 401"), "{path} {auth:?}: {answer:?}");
        }
    }
    // The operations that need no credentials take no large body either.
    let head = "POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
                Content-Length: 33554432\r\n\r\n";
    let (answer, _) = answer_to_head(&env.server.url, head, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:?}");
    // With the right key, the body is read as before.
    let c = env.client("member");
    c.send_message(&OutgoingMessage::channel(env.channel_id("general"), "t", "still works")).await.unwrap();
}

#[tokio::test]
async fn a_request_head_that_stops_halfway_is_dropped_after_the_bound() {
    let opts = ServerOptions { header_read_timeout: Duration::from_millis(500), ..Default::default() };
    let env = Env::start_with(opts).await;
    let half = "GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nUser-Agent: slow";
    let started = Instant::now();
    // Generous against a loaded machine; without a bound the connection stays open for good.
    let (_, closed) = answer_to_head(&env.server.url, half, Duration::from_secs(30)).await;
    assert!(closed, "still open after {:?}", started.elapsed());
    // A whole request is answered as before.
    let (answer, _) = answer_to_head(
        &env.server.url,
        "GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n\r\n",
        Duration::from_secs(20),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
}

#[tokio::test]
async fn a_tls_handshake_that_never_comes_keeps_no_one_else_waiting() {
    let opts =
        ServerOptions { tls: true, header_read_timeout: Duration::from_secs(60), ..Default::default() };
    let env = Env::start_with(opts).await;
    let addr = env.server.url.trim_start_matches("https://").to_owned();
    // Three connections that never start their handshake.
    let mut stalled = Vec::new();
    for _ in 0..3 {
        stalled.push(TcpStream::connect(&addr).await.unwrap());
    }
    let dir = tempfile::tempdir().unwrap();
    env.server.write_zuliprcs(dir.path()).unwrap();
    let creds = topicterm::api::zuliprc::read(&dir.path().join("member.zuliprc")).unwrap();
    let c = Client::new(&creds).unwrap();
    let started = Instant::now();
    let me = tokio::time::timeout(Duration::from_secs(60), c.get_subscriptions(None)).await;
    assert!(matches!(me, Ok(Ok(_))), "{me:?}");
    // Before, each stalled handshake held the accept loop for 10 s.
    assert!(started.elapsed() < Duration::from_secs(8), "waited {:?}", started.elapsed());
    drop(stalled);
}
