//! `topicterm webhook-listen` as a process, fed by the demo server's outgoing webhook.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;
use topicterm::api::{Client, OutgoingMessage};
use topicterm::server::{DemoServer, ServerOptions};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread")]
async fn listener_prints_mentions_and_refuses_a_wrong_token() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/svc-outgoing-webhook");
    let server =
        DemoServer::start(ServerOptions { outgoing_webhook_url: Some(url.clone()), ..Default::default() })
            .await
            .unwrap();
    let token = server.webhook_token("echobot").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_topicterm"))
        .args(["webhook-listen", "--addr", &format!("127.0.0.1:{port}"), "--token", &token])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let first = rx.recv_timeout(Duration::from_secs(20)).expect("listening line");
    assert!(first.contains("listening"), "{first}");

    // A wrong token is refused.
    let resp = reqwest::Client::new().post(&url).body(r#"{"bot_email":"x","bot_full_name":"x","data":"x","trigger":"mention","token":"nope","message":{"id":1,"type":"stream","content":"x","display_recipient":"general","sender_id":1,"timestamp":1}}"#).send().await.unwrap();
    assert_eq!(resp.status(), 401);

    // A real mention arrives and is printed, control characters removed.
    let member = Client::new(&server.credentials("member").unwrap()).unwrap();
    let general = server.shared.lock().channel_named("general").unwrap().id;
    let msg = OutgoingMessage::channel(general, "bots", "@**Echo Bot** status?\u{1b}[31m");
    member.send_message(&msg).await.unwrap();
    let line = rx.recv_timeout(Duration::from_secs(20)).expect("a printed payload");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        line.starts_with("[mention] Maya Lindqvist in #general > bots to Echo Bot: @**Echo Bot** status?"),
        "{line}"
    );
    assert!(!line.contains('\u{1b}'));
}
