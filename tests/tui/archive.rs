//! The archive (issue 38): what the whole app sees against the demo server — the pages it
//! fetches, new messages, edits, moves, reactions, deletions — ends up in the account's
//! archive, and `topicterm search` (the real binary) finds it there, with the server gone.

use crate::harness::{App, Setup};
use std::path::Path;
use topicterm::api::{EmojiSpec, MessageEdit, OutgoingMessage};

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
async fn what_the_client_saw_is_searchable_offline_edited_moved_reacted_and_deleted_as_on_the_server() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let mut app = Setup::new("member").archive(home.join("data/topicterm")).start().await;
    app.server.write_zuliprcs(&home.join("rc")).unwrap();
    let rc = home.join("rc/member.zuliprc");
    // A message of the first page fetched, never told of by an event.
    let seen = *app.st.data.narrows.values().flat_map(|v| v.ids.iter()).max().expect("a first page");

    let alice = app.other("alice");
    let general = app.channel_id("general");
    let send = |text: &str| OutgoingMessage::channel(general, "field notes", text);
    let kept = alice.send_message(&send("the zebracorn migrates at dawn")).await.unwrap().id;
    let gone = alice.send_message(&send("an ephemeral platypus")).await.unwrap().id;
    app.until("both messages", |st| st.data.messages.contains_key(&gone)).await;
    let edit = MessageEdit { content: Some("the zebracorn migrated north".into()), ..Default::default() };
    alice.update_message(kept, &edit).await.unwrap();
    let moved = MessageEdit { topic: Some("zoology".into()), ..Default::default() };
    alice.update_message(kept, &moved).await.unwrap();
    let thumbs = EmojiSpec { emoji_name: Some("+1".into()), ..Default::default() };
    app.client.add_reaction(kept, &thumbs).await.unwrap();
    app.other("admin").delete_message(gone).await.unwrap();
    app.until("the deletion", |st| !st.data.messages.contains_key(&gone)).await;
    app.until("the reaction", |st| st.data.messages.get(&kept).is_some_and(|m| !m.reactions().is_empty()))
        .await;
    assert!(app.archived(), "the archive's writer answers");

    // The server is gone: the archive alone answers.
    app.close().await;

    let (code, out, err) = search(home, &rc, &["zebracorn"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].ends_with("#general > zoology  Alice Okafor: the zebracorn migrated north"), "{out}");
    let (code, out, _) = search(home, &rc, &["migrates"]);
    assert_eq!((code, out.as_str()), (0, ""), "the text before the edit is no longer found");
    let (code, out, _) = search(home, &rc, &["platyp"]);
    assert_eq!((code, out.as_str()), (0, ""), "a deleted message is gone from the archive");

    let (code, out, err) = search(home, &rc, &["--json", "channel:general", "topic:zoology", "zebra"]);
    assert_eq!(code, 0, "{err}");
    let m: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(m["id"], kept);
    assert_eq!(m["reactions"][0]["emoji_name"], "+1", "{m}");

    let (code, out, err) = search(home, &rc, &["--json", &format!("id:{seen}")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "a message of a page fetched is kept: {out}");

    let (code, _, err) = search(home, &rc, &["is:weird"]);
    assert_eq!(code, 2, "a search that cannot be read is a usage error: {err}");
    assert!(err.starts_with("topicterm search: cannot read the search"), "{err}");
}

/// An app started without an archive leaves no trace, and `search` says there is none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_history_nothing_is_kept_and_search_says_so() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let app = App::start("member").await;
    app.server.write_zuliprcs(&home.join("rc")).unwrap();
    assert!(!app.archived());
    let (code, out, err) = search(home, &home.join("rc/member.zuliprc"), &["anything"]);
    assert_eq!((code, out.as_str()), (6, ""));
    assert!(err.contains("no archive of this account"), "{err}");
    assert!(!home.join("data").exists());
}

/// `:forget` asks first; `n` keeps the archive, `y` removes every file of it, and nothing
/// more is kept this session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_asks_then_leaves_no_file_behind() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/topicterm");
    let mut app = Setup::new("member").archive(data.clone()).start().await;
    assert!(app.archived());
    let folder = data.join("archive");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 3, "the database, its WAL and shared memory");
    app.palette("forget").await;
    let screen = app.screen(100, 24);
    assert!(screen.contains("Remove this account's archive"), "{screen}");
    app.key(crossterm::event::KeyCode::Char('n')).await;
    assert!(app.archived());
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 3, "n keeps it");
    app.palette("forget").await;
    app.key(crossterm::event::KeyCode::Char('y')).await;
    app.until("the archive removed", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text.contains("archive is removed"))
    })
    .await;
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0, "no file is left behind");
    let alice = app.other("alice");
    let general = app.channel_id("general");
    alice.send_message(&OutgoingMessage::channel(general, "t", "after forgetting")).await.unwrap();
    app.settle().await;
    assert!(app.archived());
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0, "nothing more is kept");
}
