//! The user's uploaded files through the whole app against the demo server, the server's
//! state read back: `:uploads` lists them (size, date, where used, the total and the quota),
//! `d` deletes after a question naming the file, enter or `o` opens one through the
//! open-link path; an empty list and every refusal and failure in words.

use crate::harness::*;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{Msg, Popup, State};
use topicterm::server::ServerOptions;

fn status(st: &State) -> (bool, String) {
    let s = st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

fn files(st: &State) -> Vec<String> {
    match &st.ui.popup {
        Some(Popup::Uploads { list: Some(list), .. }) => list.files.iter().map(|f| f.name.clone()).collect(),
        _ => vec![],
    }
}

fn body(bytes: &[u8]) -> reqwest::Body {
    reqwest::Body::from(bytes.to_vec())
}

/// The server's uploads of the member, by name.
fn on_server(app: &App) -> Vec<String> {
    let org = app.server.shared.lock();
    let me = app.st.data.me;
    let mut names: Vec<String> =
        org.uploads.values().filter(|u| u.owner == me).map(|u| u.name.clone()).collect();
    names.sort();
    names
}

/// The member with three uploads (one linked from #general > reports), on a server with a
/// quota of 5 MiB.
async fn with_uploads(downloads: &std::path::Path) -> App {
    let setup = Setup::new("member")
        .server(ServerOptions { seed_time: Some(SEED_TIME), upload_quota_mib: Some(5), ..Default::default() })
        .downloads(downloads.to_owned());
    let mut app = setup.start().await;
    let me = app.other("member");
    let report = vec![b'r'; 12_345];
    let url = me.upload_file("report.pdf", report.len() as u64, body(&report)).await.unwrap().url;
    me.upload_file("notes.txt", 3, body(b"abc")).await.unwrap();
    me.upload_file("deploy.sh", 10, body(b"echo hi\n\n\n")).await.unwrap();
    let general = app.channel_id("general");
    let m = OutgoingMessage::channel(general, "reports", &format!("the [report]({url})"));
    let id = me.send_message(&m).await.unwrap().id;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app
}

#[tokio::test]
async fn uploads_are_listed_with_size_date_and_where_used_and_deleted_after_a_question() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = with_uploads(dir.path()).await;
    app.palette("uploads").await;
    app.until("the list", |st| files(st).len() == 3).await;
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("uploads_80x24", screen);
    assert!(
        screen.contains("report.pdf") && screen.contains("12 KiB") && screen.contains("21 Nov 2026"),
        "{screen}"
    );
    assert!(screen.contains("used in #general > reports") && screen.contains("not used"), "{screen}");
    assert!(screen.contains("3 files, 12 KiB") && screen.contains("of 5.0 MiB"), "{screen}");
    insta::assert_snapshot!("uploads_160x48", app.screen(160, 48));
    // Newest first: deploy.sh, notes.txt, report.pdf. d on notes.txt asks, naming it.
    assert_eq!(files(&app.st), ["deploy.sh", "notes.txt", "report.pdf"]);
    app.key(KeyCode::Char('j')).await;
    app.key(KeyCode::Char('d')).await;
    let question = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).expect("d asks first");
    assert_eq!(
        question,
        "Delete notes.txt (3 bytes)? Messages that link to it lose it; this cannot be undone. (y/N)"
    );
    app.key(KeyCode::Esc).await;
    assert_eq!(on_server(&app), ["deploy.sh", "notes.txt", "report.pdf"], "esc keeps it");
    app.key(KeyCode::Char('d')).await;
    app.key(KeyCode::Char('y')).await;
    app.until("gone from the list", |st| files(st).len() == 2).await;
    assert_eq!(status(&app.st), (false, "deleted notes.txt".into()));
    assert_eq!(on_server(&app), ["deploy.sh", "report.pdf"]);
    let screen = app.screen(80, 24);
    assert!(!screen.contains("│notes.txt") && screen.contains("└ 2 files, 12 KiB"), "{screen}");
    // A file uploaded meanwhile joins the list (its event).
    app.other("member").upload_file("later.txt", 2, body(b"hi")).await.unwrap();
    app.until("the new file", |st| files(st).first().map(String::as_str) == Some("later.txt")).await;
    // A name from the server is text, never terminal control.
    let evil = serde_json::json!({"id": 9_999, "type": "attachment", "op": "add", "upload_space_used": 1,
        "attachment": {"id": 9_999_999, "name": "evil\u{1b}]0;pwned\u{7}\u{1b}[2J.txt", "path_id": "2/ff/evil.txt",
            "size": 1, "create_time": SEED_TIME * 1000, "messages": []}});
    app.inject(vec![evil]).await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("evil") && !screen.contains(['\u{1b}', '\u{7}']), "{screen:?}");
    app.key(KeyCode::Esc).await;
    assert!(app.st.ui.popup.is_none());
}

#[tokio::test]
async fn a_file_opens_through_the_open_link_path_and_a_refused_deletion_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = with_uploads(dir.path()).await;
    app.key(KeyCode::Char('A')).await;
    app.until("the list", |st| files(st).len() == 3).await;
    // deploy.sh, first: downloaded with the user's login into the private folder, not run.
    app.key(KeyCode::Char('o')).await;
    app.until("saved", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("saved "))).await;
    let (error, text) = status(&app.st);
    assert!(
        !error
            && text.ends_with(" — not opened: only pictures, PDFs, plain text, audio and video are opened"),
        "{text}"
    );
    let saved: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(saved.len(), 1);
    assert_eq!(std::fs::read(&saved[0]).unwrap(), b"echo hi\n\n\n");
    // Deleted elsewhere before the answer to the question: the server's refusal, in words.
    let id = app.server.shared.lock().uploads.values().find(|u| u.name == "notes.txt").map(|u| u.id).unwrap();
    app.key(KeyCode::Char('j')).await;
    app.other("member").remove_attachment(id).await.unwrap();
    app.apply(Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::NONE)));
    app.key(KeyCode::Char('y')).await;
    app.until("refused", |st| st.ui.status.as_ref().is_some_and(|s| s.text.contains("not deleted"))).await;
    assert_eq!(status(&app.st), (true, "notes.txt not deleted: Invalid attachment".into()));
    assert_eq!(files(&app.st), ["deploy.sh", "report.pdf"], "its event took it out");
}

#[tokio::test]
async fn an_empty_list_says_so_and_a_list_that_cannot_be_had_says_why() {
    let (mut app, proxy) = Setup::new("bob").start_behind_fault_proxy().await;
    app.palette("uploads").await;
    app.until("the list", |st| matches!(st.ui.popup, Some(Popup::Uploads { list: Some(_), .. }))).await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("You have not uploaded any files."), "{screen}");
    app.key(KeyCode::Esc).await;
    proxy.set_down(true);
    app.palette("uploads").await;
    app.until("failed", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("uploads not loaded")))
        .await;
    assert_eq!(status(&app.st), (true, "uploads not loaded: connection lost (A retries)".into()));
    assert!(app.st.ui.popup.is_none());
    proxy.set_down(false);
}
