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

fn body(bytes: &[u8]) -> reqwest::Body {
    reqwest::Body::from(bytes.to_vec())
}

/// `GET {path}` on the server as `who` (a short name; "" for no credentials): status and body.
async fn get_as(env: &Env, who: &str, path: &str) -> (u16, Vec<u8>) {
    let mut req = reqwest::Client::new().get(format!("{}{path}", env.server.url));
    if !who.is_empty() {
        let c = env.creds(who);
        req = req.basic_auth(c.email, Some(c.api_key));
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    (status, resp.bytes().await.expect("body").to_vec())
}

#[tokio::test]
async fn an_upload_is_served_only_to_its_uploader_and_to_readers_of_a_message_that_links_it() {
    let env = Env::start().await;
    let member = env.client("member");
    let secret = b"the member's own secret\n";
    let up = member.upload_file("victim-secret.txt", secret.len() as u64, body(secret)).await.unwrap();
    let missing = get_as(&env, "alice", "/user_uploads/2/ab/no-such-file.txt").await;
    assert_eq!(missing.0, 404, "{:?}", String::from_utf8_lossy(&missing.1));
    // The uploader reads it; another member, knowing its address, gets what a missing file gets.
    assert_eq!(get_as(&env, "member", &up.url).await, (200, secret.to_vec()));
    assert_eq!(get_as(&env, "alice", &up.url).await, missing, "a member who was never shown it");
    // Nor does linking it herself give it to her, or to those who read her message: the
    // reference server ties a file to a message only when its sender may read the file.
    let general = env.channel_id("general");
    let alice = env.client("alice");
    let m = OutgoingMessage::channel(general, "files", &format!("[mine now]({})", up.url));
    alice.send_message(&m).await.unwrap();
    assert_eq!(get_as(&env, "alice", &up.url).await, missing, "linked by someone who may not read it");
    assert_eq!(get_as(&env, "bob", &up.url).await, missing);
    // The same under the thumbnail address and the API's prefix.
    let thumb = up.url.replacen("/user_uploads/", "/user_uploads/thumbnail/", 1) + "/840x560.webp";
    assert_eq!(get_as(&env, "alice", &thumb).await, missing);
    let (status, _) = get_as(&env, "alice", &format!("/api/v1{}", up.url)).await;
    assert_ne!(status, 200, "the API's prefix serves no file");
    // The uploader sends it to Bob: Bob reads it, Alice still does not.
    let bob_id = env.user_id("bob");
    let dm = OutgoingMessage::direct(vec![bob_id], &format!("[for you]({})", up.url));
    let to_bob = member.send_message(&dm).await.unwrap().id;
    assert_eq!(get_as(&env, "bob", &up.url).await, (200, secret.to_vec()));
    assert_eq!(get_as(&env, "alice", &up.url).await, missing);
    // Edited out of that message, it is Bob's no more.
    let edit = MessageEdit { content: Some("never mind".into()), ..Default::default() };
    member.update_message(to_bob, &edit).await.unwrap();
    assert_eq!(get_as(&env, "bob", &up.url).await, missing);
    // Once the uploader links it in a public channel, every member who can read that reads it.
    let m = OutgoingMessage::channel(general, "files", &format!("[for all]({})", up.url));
    let public = member.send_message(&m).await.unwrap().id;
    assert_eq!(get_as(&env, "alice", &up.url).await, (200, secret.to_vec()));
    // Deleted, that message no longer shows it.
    member.delete_message(public).await.unwrap();
    assert_eq!(get_as(&env, "alice", &up.url).await, missing);
    // Without credentials: refused as before.
    assert_eq!(get_as(&env, "", &up.url).await.0, 401);
}

#[tokio::test]
async fn upload_addresses_cannot_be_guessed_from_one_another() {
    let env = Env::start().await;
    let member = env.client("member");
    let a = member.upload_file("a.txt", 1, body(b"a")).await.unwrap();
    let b = member.upload_file("a.txt", 1, body(b"b")).await.unwrap();
    let folder = |url: &str| url.trim_start_matches("/user_uploads/").split('/').nth(1).unwrap().to_owned();
    let (fa, fb) = (folder(&a.url), folder(&b.url));
    assert!(fa.len() >= 20 && fb.len() >= 20, "random folders: {} {}", a.url, b.url);
    assert_ne!(fa, fb);
}

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

#[tokio::test]
async fn control_characters_are_refused_in_channel_names_topics_and_full_names() {
    let env = Env::start().await;
    let general = env.channel_id("general").to_string();
    let csi = "\u{9b}";
    // Channel names: renamed, created by subscribing, created outright.
    let (s, r) = env
        .raw("admin", "PATCH", &format!("/streams/{general}"), &[("new_name", &format!("gen{csi}31m"))])
        .await;
    assert_eq!(
        (s, r["msg"].as_str()),
        (400, Some("Invalid character in channel name, at position 4.")),
        "{r}"
    );
    let subs = serde_json::json!([{"name": format!("x{csi}")}]).to_string();
    let (s, r) = env.raw("member", "POST", "/users/me/subscriptions", &[("subscriptions", &subs)]).await;
    assert_eq!(
        (s, r["msg"].as_str()),
        (400, Some("Invalid character in channel name, at position 2.")),
        "{r}"
    );
    let members = format!("[{}]", env.user_id("member"));
    let (s, r) = env
        .raw("member", "POST", "/channels/create", &[("name", "\u{1b}[2J"), ("subscribers", &members)])
        .await;
    assert_eq!(
        (s, r["msg"].as_str()),
        (400, Some("Invalid character in channel name, at position 1.")),
        "{r}"
    );
    // Topics: sent, moved to, scheduled.
    let (s, r) = env
        .raw(
            "alice",
            "POST",
            "/messages",
            &[("type", "stream"), ("to", &general), ("topic", &format!("t{csi}")), ("content", "x")],
        )
        .await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid character in topic, at position 2!")), "{r}");
    let (_, sent) = env
        .raw(
            "alice",
            "POST",
            "/messages",
            &[("type", "stream"), ("to", &general), ("topic", "fine"), ("content", "x")],
        )
        .await;
    let id = sent["id"].as_i64().expect("sent");
    let (s, r) =
        env.raw("alice", "PATCH", &format!("/messages/{id}"), &[("topic", &format!("ok{csi}"))]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid character in topic, at position 3!")), "{r}");
    let at = (chrono::Utc::now().timestamp() + 3600).to_string();
    let (s, r) = env
        .raw(
            "alice",
            "POST",
            "/scheduled_messages",
            &[
                ("type", "stream"),
                ("to", &general),
                ("topic", &format!("later{csi}")),
                ("content", "x"),
                ("scheduled_delivery_timestamp", &at),
            ],
        )
        .await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid character in topic, at position 6!")), "{r}");
    // Full names: one's own, and an admin's change of another's; C1 controls and noncharacters.
    for name in [format!("Alice{csi}"), "Alice\u{fffe}".to_owned()] {
        let (s, r) = env.raw("alice", "PATCH", "/settings", &[("full_name", &name)]).await;
        assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid characters in name!")), "{name:?} {r}");
        let alice = env.user_id("alice");
        let (s, r) = env.raw("admin", "PATCH", &format!("/users/{alice}"), &[("full_name", &name)]).await;
        assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid characters in name!")), "{name:?} {r}");
    }
    // Format characters are not controls: the reference server takes them, and so does this one
    // (the client shows them visibly).
    let (s, r) =
        env.raw("admin", "PATCH", &format!("/streams/{general}"), &[("new_name", "general\u{202e}")]).await;
    assert_eq!(s, 200, "{r}");
    let org = env.server.shared.lock();
    assert!(org.channels.values().all(|c| !c.name.chars().any(char::is_control)));
    assert!(org.users.values().all(|u| !u.full_name.chars().any(char::is_control)));
}
