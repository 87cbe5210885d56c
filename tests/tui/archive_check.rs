//! The archive checked against the server (issue 50 item 3): what the server deleted or edited
//! while the client was closed leaves the archive once the client starts again — for
//! `topicterm search` (the real binary) and for `/` offline — though no event told of it and
//! no view the client opens fetches it.

use crate::harness::Setup;
use std::path::Path;
use topicterm::api::{MessageEdit, OutgoingMessage};
use topicterm::app::Local;
use topicterm::app::keys::KeyCode;

/// `topicterm search ARGS` on `home` (its data folder holding the archive): status, output.
fn search(home: &Path, rc: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_topicterm"))
        .arg("search")
        .arg("-c")
        .arg(rc)
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_DATA_HOME", home.join("data"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_server_deleted_or_edited_while_the_client_was_closed_leaves_the_archive() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let (mut app, proxy) =
        Setup::new("member").archive(home.join("data/topicterm")).start_behind_fault_proxy().await;
    // The member's zuliprc, naming the server as the client reaches it (the archive's key).
    app.server.write_zuliprcs(&home.join("rc")).unwrap();
    let rc = home.join("rc/member.zuliprc");
    let text = std::fs::read_to_string(&rc).unwrap().replace(&app.server.url, &proxy.url());
    std::fs::write(&rc, text).unwrap();

    let alice = app.other("alice");
    let general = app.channel_id("general");
    let send = |text: &str| OutgoingMessage::channel(general, "cetaceans", text);
    let gone = alice.send_message(&send("a narwhal surfaces")).await.unwrap().id;
    let edited = alice.send_message(&send("the narwhal sings")).await.unwrap().id;
    let kept = alice.send_message(&send("a third narwhal")).await.unwrap().id;
    app.until("the messages told of", |st| st.data.messages.contains_key(&kept)).await;
    let stopped = app.stop().await;
    let (code, out, err) = search(home, &rc, &["narwhal"]);
    assert_eq!((code, out.lines().count()), (0, 3), "all three archived: {out}{err}");

    // While the client is closed: one deleted, one edited, and enough newer messages (read)
    // that the first page after the start covers neither, so no view fetches them.
    stopped.other("admin").delete_message(gone).await.unwrap();
    let edit = MessageEdit { content: Some("the narwhal sang".into()), ..Default::default() };
    alice.update_message(edited, &edit).await.unwrap();
    let member = stopped.other("member");
    for i in 0..120 {
        member
            .send_message(&OutgoingMessage::channel(general, "filler", &format!("filler {i}")))
            .await
            .unwrap();
    }
    member.mark_all_as_read().await.unwrap();

    let mut app = stopped.start().await;
    app.until("the archive's check", |st| st.ui.backfill.checked().is_some()).await;
    let checked = app.st.ui.backfill.checked().cloned().unwrap();
    let checked = checked.expect("the check ran to its end");
    assert!(checked.requests >= 1, "{checked:?}");
    assert!(!app.st.data.messages.contains_key(&edited), "no view fetched the edited message");
    assert!(app.archived(), "the archive's writer answers");

    let (code, out, err) = search(home, &rc, &["narwhal"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "the deleted message is no longer found: {out}");
    assert!(lines.iter().any(|l| l.ends_with("Alice Okafor: the narwhal sang")), "{out}");
    assert!(!out.contains("surfaces") && !out.contains("sings"), "{out}");
    let (code, out, _) = search(home, &rc, &["sings"]);
    assert_eq!((code, out.as_str()), (0, ""), "the text before the edit is no longer found");

    // Offline, `/` shows only what the server still shows.
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    app.key(KeyCode::Char('/')).await;
    app.keys("narwhal").await;
    app.key(KeyCode::Enter).await;
    app.until("the archive's matches", |st| {
        st.data.views.get(&st.ui.narrow).is_some_and(|v| v.local().is_some())
    })
    .await;
    let view = &app.st.data.views[&app.st.ui.narrow];
    assert_eq!((view.ids().to_vec(), view.local()), (vec![edited, kept], Some(Local::Offline)));
    let screen = app.screen(80, 24);
    assert!(screen.contains("the narwhal sang") && screen.contains("a third narwhal"), "{screen}");
    assert!(!screen.contains("surfaces") && !screen.contains("sings"), "{screen}");
    assert!(screen.contains("offline: showing what this machine has seen"), "{screen}");
}
