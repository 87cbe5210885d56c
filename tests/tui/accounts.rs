//! Issue 50.1 and 50.5: what this machine keeps of an account is that account's alone. Two
//! members of one demo server, `j-doe@…` and `j_doe@…` — one name to older versions, which made
//! both characters `_` — each with its own drafts, outbox and archive: one never sends the
//! other's outbox, `topicterm search` (the real binary) of one never prints the other's DM, and
//! `:forget` leaves nothing of the account behind.

use crate::harness::{App, SEED_TIME, Setup, client_of};
use std::path::Path;
use topicterm::api::{Anchor, Client, GetMessages, OutgoingMessage, Params};
use topicterm::app::OutState;
use topicterm::app::keys::KeyCode;
use topicterm::kept::Folders;
use topicterm::server::{DemoServer, ServerOptions};

const DASH: &str = "j-doe@example.com";
const UNDER: &str = "j_doe@example.com";

/// The demo organization with two more members whose emails differ only by `-` and `_`.
async fn lookalikes() -> DemoServer {
    let server = DemoServer::start(ServerOptions { seed_time: Some(SEED_TIME), ..Default::default() })
        .await
        .expect("demo server");
    let admin = client_of(&server, "admin");
    for (email, name) in [(DASH, "J. Doe"), (UNDER, "Jay Doe")] {
        admin
            .raw(
                reqwest::Method::POST,
                "/users",
                Params::new().add("email", email).add("password", "a long password").add("full_name", name),
                std::time::Duration::from_secs(10),
            )
            .await
            .expect("a new member");
    }
    server
}

/// The folders the binary keeps its files in under `home` (`XDG_DATA_HOME`, `XDG_CACHE_HOME`).
fn folders(home: &Path) -> Folders {
    Folders { data: home.join("data/topicterm"), cache: home.join("cache/topicterm") }
}

/// The direct messages `who` (a client) holds whose text holds `text`, with their senders.
async fn dms_with(who: &Client, text: &str) -> Vec<String> {
    let q = GetMessages::around(Anchor::Newest, 200, 0);
    let resp = who.get_messages(&q).await.expect("messages");
    resp.messages.iter().filter(|m| m.content.contains(text)).map(|m| m.sender_email.clone()).collect()
}

/// Settle until `pred` holds (the outbox retries on real time), or fail.
async fn until(app: &mut App, what: &str, pred: impl Fn(&App) -> bool) {
    for _ in 0..80 {
        if pred(app) {
            return;
        }
        app.settle().await;
    }
    panic!("timed out waiting for {what}; status {:?}, outbox {:?}", app.st.ui.status, app.st.outbox);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_accounts_outbox_is_never_sent_by_an_account_whose_email_differs_by_a_dash() {
    let home = tempfile::tempdir().unwrap();
    let f = folders(home.path());
    // As the binary names the demo organization's files (its site `demo`, as the harness's).
    let (dash, under) = (f.account(DASH, "demo"), f.account(UNDER, "demo"));
    assert_ne!(dash.drafts, under.drafts, "one folder each");
    let server = lookalikes().await;
    let alice = client_of(&server, "alice");

    // j_doe writes to Alice offline: the message waits in j_doe's outbox, on disk.
    let (mut app, proxy) = Setup::new("j_doe")
        .on_server(server)
        .drafts(Some(under.drafts.clone()))
        .start_behind_fault_proxy()
        .await;
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    app.key(KeyCode::Char('x')).await;
    app.keys("Alice Okafor").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.compose.is_some(), "{:?}", app.st.ui.status);
    app.keys("only j_doe wrote this").await;
    app.ctrl('d').await;
    assert!(app.st.outbox.iter().all(|o| o.state == OutState::Queued) && app.st.outbox.len() == 1);
    let mut server = app.into_server().await;
    drop(proxy);
    let kept = topicterm::net::drafts::load(&under.drafts, &under.owner);
    assert!(kept.keys().any(|k| k.starts_with("outbox-")), "{kept:?}");

    // j-doe starts, with its own folder — and even with j_doe's, as the old name gave both:
    // j_doe's message is neither sent nor shown, nor removed.
    for dir in [&dash.drafts, &under.drafts] {
        let mut app = Setup::new("j-doe").on_server(server).drafts(Some(dir.clone())).start().await;
        app.send(topicterm::app::Msg::Tick(SEED_TIME + 600)).await;
        assert!(app.st.outbox.is_empty(), "{:?}", app.st.outbox);
        assert!(!app.screen(120, 30).contains("only j_doe wrote this"));
        server = app.into_server().await;
        assert_eq!(dms_with(&alice, "only j_doe wrote this").await, Vec::<String>::new(), "never sent");
    }
    assert_eq!(topicterm::net::drafts::load(&under.drafts, &under.owner), kept, "left as it was");

    // j_doe, back online, sends it: once, as j_doe.
    let mut app = Setup::new("j_doe").on_server(server).drafts(Some(under.drafts.clone())).start().await;
    until(&mut app, "the outbox to empty", |a| a.st.outbox.is_empty()).await;
    assert_eq!(dms_with(&alice, "only j_doe wrote this").await, vec![UNDER.to_owned()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_of_one_account_never_prints_a_dm_sent_only_to_the_other() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let mut server = lookalikes().await;
    let alice = client_of(&server, "alice");
    let id_of = |email: &str| server.shared.lock().user_by_email(email).map(|u| u.id).expect("a member");
    let (dash_id, under_id) = (id_of(DASH), id_of(UNDER));
    // Each account's client sees its own DM and keeps it in its archive.
    for (who, id, text) in
        [("j_doe", under_id, "zebracorn for j_doe alone"), ("j-doe", dash_id, "zebracorn for j-doe")]
    {
        let mut app = Setup::new(who).on_server(server).archive(home.join("data/topicterm")).start().await;
        alice.send_message(&OutgoingMessage::direct(vec![id], text)).await.unwrap();
        app.until("the DM", |st| st.data.messages.values().any(|m| m.content().contains(text))).await;
        assert!(app.archived(), "the archive's writer answers");
        server = app.into_server().await;
    }
    server.write_zuliprcs(&home.join("rc")).unwrap();
    let (dash_rc, under_rc) = (home.join("rc/j-doe.zuliprc"), home.join("rc/j_doe.zuliprc"));
    let (code, out, err) = crate::archive::search(home, &dash_rc, &["zebracorn"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("zebracorn for j-doe"), "{out}");
    assert!(!out.contains("j_doe alone"), "another account's DM: {out}");
    let (code, out, err) = crate::archive::search(home, &under_rc, &["zebracorn"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("zebracorn for j_doe alone") && !out.contains("for j-doe"), "{out}");

    // A file that names another account is refused even under this account's name (as the old
    // name, which both had, would give it).
    let f = folders(home);
    let (dash, under) = (f.account(DASH, &server.url), f.account(UNDER, &server.url));
    std::fs::copy(&under.archive, &dash.archive).unwrap();
    let (code, out, err) = crate::archive::search(home, &dash_rc, &["zebracorn"]);
    assert_ne!(code, 0, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains(&format!("kept for {UNDER}")), "{err}");

    // Every file the client wrote is the user's alone, its log too.
    let mut seen = 0;
    for path in files_under(home).iter().filter(|p| !p.starts_with(home.join("rc"))) {
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(path).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o600, "{}", path.display());
        seen += 1;
    }
    assert!(home.join("state/topicterm/topicterm.log").exists());
    assert!(seen >= 3, "the archives and the log");
}

/// Every file under `dir`, at any depth.
pub(crate) fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}
