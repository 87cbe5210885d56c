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
