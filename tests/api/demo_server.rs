//! The demo server as a real server behaves across time: message IDs are never reused, and the
//! same organization keeps its API keys across restarts (issue 40.10).

use crate::common::Env;
use topicterm::api::{Client, OutgoingMessage};
use topicterm::server::{DemoServer, ServerOptions};

#[tokio::test]
async fn a_deleted_newest_message_never_gives_its_id_to_the_next() {
    let env = Env::start().await;
    let member = env.client("member");
    let general = env.channel_id("general");
    let soon_gone = OutgoingMessage::channel(general, "ids", "soon gone");
    let newest = member.send_message(&soon_gone).await.expect("sent").id;
    env.client("owner").delete_message(newest).await.expect("deleted");
    let after = OutgoingMessage::channel(general, "ids", "after it");
    let next = member.send_message(&after).await.expect("sent").id;
    assert!(next > newest, "a deleted message's ID {newest} was given again: {next}");
    // The first message a new subscriber may see is past the deleted one too.
    assert_eq!(env.server.shared.lock().next_message_id(), next + 1);
}

#[tokio::test]
async fn the_same_organization_keeps_its_api_keys_across_restarts() {
    let dir = tempfile::tempdir().expect("a folder");
    let kept = dir.path().join("data");
    let secret = topicterm::server::key_secret_file(&kept).expect("a secret made");
    assert_eq!(topicterm::server::key_secret_file(&kept).expect("read again"), secret);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).expect("there").permissions().mode() & 0o777;
        assert_eq!(mode(&kept.join("demo-server.secret")), 0o600);
        assert_eq!(mode(&kept), 0o700);
    }
    let opts = |secret: &[u8]| ServerOptions { key_secret: Some(secret.to_vec()), ..Default::default() };
    let first = DemoServer::start(opts(&secret)).await.expect("started");
    let creds = first.credentials("member").expect("member");
    let webhook = first.webhook_token("echobot");
    assert!(webhook.is_some());
    first.stop().await;
    // Started again: the key a running client holds still works.
    let again = DemoServer::start(opts(&secret)).await.expect("started again");
    let mut held = creds.clone();
    held.site = again.url.clone();
    let me = Client::new(&held).expect("client").get_users().await;
    assert!(me.is_ok(), "the key held from before is refused: {me:?}");
    assert_eq!(again.webhook_token("echobot"), webhook);
    again.stop().await;
    // Another organization (another secret) has other keys; so has one started without.
    for opts in [opts(b"another secret of at least 32 bytes."), ServerOptions::default()] {
        let other = DemoServer::start(opts).await.expect("started");
        assert_ne!(other.credentials("member").expect("member").api_key, creds.api_key);
        other.stop().await;
    }
}

/// `POST {path}` on `server` as `who`, over loopback: the answer's JSON.
async fn post_as(server: &DemoServer, who: &str, path: &str, params: &[(&str, &str)]) -> serde_json::Value {
    let c = server.credentials(who).expect("a seeded user");
    let resp = reqwest::Client::new()
        .post(format!("{}/api/v1{path}", server.url))
        .basic_auth(c.email, Some(c.api_key))
        .form(params)
        .send()
        .await
        .expect("answered");
    resp.json().await.expect("JSON")
}

/// Every message ID `who` can read on `server`, oldest first.
async fn message_ids(server: &DemoServer, who: &str) -> Vec<i64> {
    let c = server.credentials(who).expect("a seeded user");
    let q = topicterm::api::GetMessages::around(topicterm::api::Anchor::Newest, 5000, 0);
    let page = Client::new(&c).expect("client").get_messages(&q).await.expect("messages");
    page.messages.iter().map(|m| m.id).collect()
}

/// Issue 51.3 (a): a restarted `demo-server` (the same data folder: the same keys) gives no
/// ID it gave before — neither the seed's messages, posted again, nor those sent after, nor a
/// snippet's — even when the first run was killed rather than stopped.
#[tokio::test]
async fn a_restarted_server_never_gives_an_id_it_gave_before() {
    let dir = tempfile::tempdir().expect("a folder");
    let data = dir.path().join("data");
    let secret = topicterm::server::key_secret_file(&data).expect("a secret made");
    let counters = data.join(topicterm::server::counters::FILE);
    let opts = || ServerOptions {
        key_secret: Some(secret.clone()),
        counters_file: Some(counters.clone()),
        ..Default::default()
    };
    let send = |text: &'static str| {
        [("type", "stream"), ("to", "general"), ("topic", "after a restart"), ("content", text)]
    };
    let first = DemoServer::start(opts()).await.expect("started");
    let sent = post_as(&first, "member", "/messages", &send("before")).await;
    let sent_before = sent["id"].as_i64().expect("an ID");
    let snippet = post_as(&first, "member", "/saved_snippets", &[("title", "t"), ("content", "c")]).await;
    let snippet_before = snippet["saved_snippet_id"].as_i64().expect("an ID");
    let before = message_ids(&first, "member").await;
    assert!(before.contains(&sent_before));
    let newest_before = *before.last().expect("messages");
    let creds = first.credentials("member").expect("member");
    // Killed, not stopped: nothing is written on the way out.
    drop(first);
    let again = DemoServer::start(opts()).await.expect("started again");
    assert_eq!(again.credentials("member").expect("member").api_key, creds.api_key, "the same keys");
    let after = message_ids(&again, "member").await;
    assert_eq!(after.len() + 1, before.len(), "the seed's messages again, not the one sent");
    assert!(
        after[0] > newest_before,
        "the seed's messages came back under IDs already given: {}..{} after {newest_before}",
        after[0],
        after.last().unwrap()
    );
    let sent = post_as(&again, "member", "/messages", &send("after")).await;
    assert!(sent["id"].as_i64().expect("an ID") > *after.last().unwrap());
    let snippet = post_as(&again, "member", "/saved_snippets", &[("title", "t"), ("content", "c")]).await;
    assert!(snippet["saved_snippet_id"].as_i64().expect("an ID") > snippet_before, "{snippet}");
    again.stop().await;
    // Without the folder (tests, `--demo`), IDs count from the start each time, as before.
    let fresh = DemoServer::start(ServerOptions::default()).await.expect("started");
    assert_eq!(message_ids(&fresh, "member").await[0], before[0]);
    fresh.stop().await;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&counters).expect("kept").permissions().mode() & 0o777, 0o600);
    }
}
