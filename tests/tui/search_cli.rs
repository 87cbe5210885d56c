//! `topicterm search` (the real binary) as a script reads it: its plain lines and its exit
//! statuses, against an archive written here and against the demo server (`--server`).

use crate::archive::search;
use crate::harness::Setup;
use std::path::{Path, PathBuf};
use topicterm::api::Message;
use topicterm::archive::Change;

/// A home folder with a zuliprc of `me@example.com` and that account's archive holding these
/// messages (the user is 1); the zuliprc's path.
pub(crate) fn archive_home(home: &Path, messages: Vec<serde_json::Value>) -> PathBuf {
    std::fs::create_dir_all(home.join("rc")).unwrap();
    let rc = home.join("rc/zuliprc");
    std::fs::write(&rc, "[api]\nemail=me@example.com\nkey=abcdefgh\nsite=https://chat.example.com\n")
        .unwrap();
    std::fs::set_permissions(&rc, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let owner = topicterm::files::Owner::new("me@example.com", "https://chat.example.com");
    let file = topicterm::kept::archive_in(&home.join("data/topicterm"), &owner);
    let mut store = topicterm::archive::store::open(&file, &owner).unwrap();
    let mut changes = vec![Change::Me(1)];
    for m in messages {
        let m: Message = serde_json::from_value(m).unwrap();
        changes.push(Change::Put(Box::new(m)));
    }
    store.apply(&changes).unwrap();
    rc
}

/// A name the archive or the server does not know (or shares) is refused, status 5, as `send`
/// refuses one; a search that cannot be read is the command line's, status 2; one too long for
/// the archive's SQLite (3,000 `channel:` terms) or any server is refused in words before
/// either sees it, status 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_exits_5_for_an_unknown_name_and_2_for_a_search_too_long_or_unreadable() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let general = serde_json::json!({
        "id": 10, "type": "stream", "content": "<p>hello there</p>", "display_recipient": "general",
        "stream_id": 9, "subject": "greetings", "sender_id": 2, "sender_full_name": "Zoe Adams",
        "sender_email": "zoe@example.com", "timestamp": 1_700_000_000, "flags": []
    });
    let rc = archive_home(home, vec![general]);
    let many = vec!["channel:general"; 3000].join(" ");
    let long = "a".repeat(5000);
    for (args, code, says) in [
        (vec!["channel:nonexistent", "x"], 5, "no channel named \"nonexistent\""),
        (vec!["sender:zoe", "x"], 5, "no one is named \"zoe\""),
        (vec!["is:weird"], 2, "unknown is:weird"),
        (vec![many.as_str()], 2, "too many terms (3000; at most 100)"),
        (vec![long.as_str()], 2, "too long (5000 characters; at most 2000)"),
    ] {
        let (status, out, err) = search(home, &rc, &args);
        assert_eq!((status, out.as_str()), (code, ""), "{says}: {err:.300}");
        assert!(err.starts_with("topicterm search: cannot read the search: "), "{err}");
        assert!(err.contains(says), "{says}: {err:.300}");
        assert!(!err.contains("Expression tree") && !err.contains("SQL"), "{err:.300}");
    }
    let (status, out, err) = search(home, &rc, &["sender:zoe@example.com", "hello"]);
    assert_eq!(status, 0, "{err}");
    assert!(out.ends_with("#general > greetings  Zoe Adams: hello there\n"), "{out}");

    // The server's names: the same statuses.
    let server = topicterm::server::DemoServer::start(Default::default()).await.expect("demo server");
    server.write_zuliprcs(&home.join("demo")).unwrap();
    let rc = home.join("demo/member.zuliprc");
    for (args, code) in [
        (vec!["--server", "channel:nonexistent", "x"], 5),
        (vec!["--server", "sender:zoe", "x"], 5),
        (vec!["--server", many.as_str()], 2),
        (vec!["--server", "is:weird"], 2),
    ] {
        let (status, _, err) = search(home, &rc, &args);
        assert_eq!(status, code, "{err:.300}");
    }
}

/// The same message reads alike from the archive and from the server (issue 51.10): the
/// empty topic as the organization names it, a `<time>` as the client shows it, emoji as
/// their characters; dated when the lines span more than today; `--json` says what `content`
/// is and gives the line's text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_lines_name_the_empty_topic_times_emoji_and_days_alike_from_archive_and_server() {
    use topicterm::api::OutgoingMessage;
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let seed = topicterm::server::seed::DEMO_SEED.replace(
        "\"empty_topic_display_name\": \"general chat\"",
        "\"empty_topic_display_name\": \"town square\"",
    );
    let opts = topicterm::server::ServerOptions { seed, ..Default::default() };
    let mut app = Setup::new("member").server(opts).archive(home.join("data/topicterm")).start().await;
    app.server.write_zuliprcs(&home.join("rc")).unwrap();
    let rc = home.join("rc/member.zuliprc");
    let general = app.channel_id("general");
    let text = "Branch cut proposed for <time:2024-03-05T14:00:00Z>, release :tada: zebrafish";
    let id = app.other("alice").send_message(&OutgoingMessage::channel(general, "", text)).await.unwrap().id;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    assert!(app.archived(), "the archive's writer answers");
    let server = app.into_server().await;

    let when = topicterm::app::TimeZone::Local
        .format(1_709_647_200, topicterm::app::settings::Clock::default().short());
    let (code, offline, err) = search(home, &rc, &["zebrafish"]);
    assert_eq!(code, 0, "{err}");
    let (code, online, err) = search(home, &rc, &["--server", "zebrafish"]);
    assert_eq!(code, 0, "{err}");
    let said = format!(
        "#general > town square  Alice Okafor: Branch cut proposed for {when}, release 🎉 zebrafish\n"
    );
    assert!(offline.ends_with(&said), "{offline}\nwanted …{said}");
    assert_eq!(offline, online, "one rule for both");
    assert_eq!(offline.find(" #general"), Some(5), "today's only: the time alone (HH:MM): {offline}");

    // The seed's messages span days: each line is dated.
    let (code, out, err) = search(home, &rc, &["--server", "channel:general"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().count() > 2, "{out}");
    for line in out.lines() {
        let day = line.get(..10).unwrap_or_default();
        assert!(day.len() == 10 && day.as_bytes()[4] == b'-' && day.as_bytes()[7] == b'-', "dated: {line}");
    }

    let (code, out, err) = search(home, &rc, &["--json", "--server", "zebrafish"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["content_type"], "text/html", "{v}");
    assert!(v["content"].as_str().unwrap().contains("<time datetime="), "{v}");
    assert_eq!(v["text"], format!("Branch cut proposed for {when}, release 🎉 zebrafish"));
    let (code, out, err) = search(home, &rc, &["--json", "zebrafish"]);
    assert_eq!(code, 0, "{err}");
    let a: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((&a["content_type"], &a["text"]), (&v["content_type"], &v["text"]), "{a}");
    drop(server);
}
