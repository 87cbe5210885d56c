//! The archive (issue 38): what the whole app sees against the demo server — the pages it
//! fetches, new messages, edits, moves, reactions, deletions — ends up in the account's
//! archive, and `topicterm search` (the real binary) finds it there, with the server gone.

use crate::harness::{App, Setup};
use crate::rewriter::{Exchange, Gate, Hold, Reply, Rewriter};
use std::path::Path;
use topicterm::api::{Anchor, EmojiSpec, GetMessages, MessageEdit, NarrowTerm, OutgoingMessage};
use topicterm::app::keys::KeyCode;
use topicterm::app::{Local, Narrow};

/// `topicterm search ARGS` on `home` (its data folder holding the archive): status, output.
pub(crate) fn search(home: &Path, rc: &Path, args: &[&str]) -> (i32, String, String) {
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
    let seen = *app.st.data.views.iter().flat_map(|(_, v)| v.ids().iter()).max().expect("a first page");

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

/// An archive that cannot be searched (its full-text index broken) is an error of the machine,
/// status 6, not of the command line; a search it cannot answer is the command line's, 2.
#[test]
fn a_search_the_archive_cannot_read_says_so_with_status_6_and_one_it_cannot_answer_2() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    std::fs::create_dir_all(home.join("rc")).unwrap();
    let rc = home.join("rc/zuliprc");
    std::fs::write(&rc, "[api]\nemail=me@example.com\nkey=abcdefgh\nsite=https://chat.example.com\n")
        .unwrap();
    std::fs::set_permissions(&rc, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let owner = topicterm::files::Owner::new("me@example.com", "https://chat.example.com");
    let file = topicterm::kept::archive_in(&home.join("data/topicterm"), &owner);
    let mut store = topicterm::archive::store::open(&file, &owner).unwrap();
    store.apply(&[topicterm::archive::Change::Me(1)]).unwrap();
    drop(store);
    let (code, _, err) = search(home, &rc, &["is:followed"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = search(home, &rc, &["zebra"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let db = rusqlite::Connection::open(&file).unwrap();
    db.execute_batch("DROP TABLE fts; CREATE TABLE fts(x)").unwrap();
    drop(db);
    let (code, _, err) = search(home, &rc, &["zebra"]);
    assert_eq!(code, 6, "{err}");
    assert!(err.contains("could not be searched"), "{err}");
}

/// `:forget` asks first; `n` keeps the archive, `y` removes every file of it, and nothing
/// more is kept this session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_asks_then_leaves_no_file_behind() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/topicterm");
    let (drafts, session) = (data.join("drafts/member"), home.path().join("cache/topicterm/member.json"));
    let (mut app, proxy) = Setup::new("member")
        .archive(data.clone())
        .drafts(Some(drafts.clone()))
        .cache(session.clone())
        .start_behind_fault_proxy()
        .await;
    assert!(app.archived());
    let folder = data.join("archive");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 3, "the database, its WAL and shared memory");
    // A draft kept, and a message written offline in the outbox.
    app.key(KeyCode::Char('r')).await;
    app.keys("half a thought").await;
    app.key(KeyCode::Esc).await;
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("written offline").await;
    app.ctrl('d').await;
    assert_eq!(app.st.outbox.len(), 1);
    for _ in 0..50 {
        if session.exists() && std::fs::read_dir(&drafts).is_ok_and(|d| d.count() == 2) {
            break;
        }
        app.settle().await;
    }
    assert!(session.exists(), "the last session kept");
    assert_eq!(std::fs::read_dir(&drafts).unwrap().count(), 2, "the draft and the outbox's message");
    let kept = crate::accounts::files_under(home.path());
    for path in &kept {
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(path).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o600, "{}", path.display());
    }
    assert_eq!(kept.len(), 6, "{kept:?}");

    app.palette("forget").await;
    let screen = app.screen(100, 24);
    assert!(screen.contains("Remove this account's archive"), "{screen}");
    app.key(KeyCode::Char('n')).await;
    assert!(app.archived());
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 3, "n keeps it");
    assert_eq!(crate::accounts::files_under(home.path()).len(), 6, "n keeps everything");
    app.palette("forget").await;
    app.key(KeyCode::Char('y')).await;
    app.until("the files removed", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text.contains("are removed from this machine"))
    })
    .await;
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0, "no file of the archive is left behind");
    assert!(!session.exists(), "nor the last session");
    assert!(!drafts.exists(), "nor the drafts and the outbox");
    // Nothing more is kept: not what comes, nor a draft typed, nor the session.
    proxy.set_down(false);
    let alice = app.other("alice");
    let general = app.channel_id("general");
    alice.send_message(&OutgoingMessage::channel(general, "t", "after forgetting")).await.unwrap();
    app.settle().await;
    app.key(KeyCode::Char('r')).await;
    app.keys("another thought").await;
    app.key(KeyCode::Esc).await;
    app.settle().await;
    assert!(app.archived());
    assert_eq!(
        crate::accounts::files_under(home.path()),
        Vec::<std::path::PathBuf>::new(),
        "nothing more is kept"
    );
}

/// `alice` sends `texts` to #general > `topic`; returns their IDs once the app holds them and
/// the archive has written them.
async fn seen_in_general(app: &mut App, topic: &str, texts: &[&str]) -> Vec<i64> {
    let alice = app.other("alice");
    let general = app.channel_id("general");
    let mut ids = Vec::new();
    for text in texts {
        ids.push(alice.send_message(&OutgoingMessage::channel(general, topic, text)).await.unwrap().id);
    }
    let last = *ids.last().unwrap();
    app.until("the messages told of", |st| st.data.messages.contains_key(&last)).await;
    assert!(app.archived(), "the archive's writer answers");
    ids
}

/// The view shown, and how it says it came from the archive.
fn shown(app: &App) -> (Vec<i64>, Option<Local>, bool) {
    let v = &app.st.data.views[&app.st.ui.narrow];
    (v.ids().to_vec(), v.local(), v.is_loaded())
}

/// `/` shows the archive's matches while the server's answer is held back, marked as local;
/// the server's answer then takes their place — a match the archive did not have added, none
/// twice — and the message the user selected among the local ones stays selected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_shows_local_matches_at_once_then_the_servers_without_moving_the_selection() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, proxy) = Setup::new("member")
        .archive(home.path().join("data/topicterm"))
        .start_through(async |s| {
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await;
    let local = seen_in_general(
        &mut app,
        "marsupials",
        &["a quokka smiles", "the quokka naps at noon", "one more quokka"],
    )
    .await;
    let gate: Gate = proxy.hold("GET", "/messages", Hold::Request);
    app.key(KeyCode::Char('/')).await;
    app.keys("quokka").await;
    app.key(KeyCode::Enter).await;
    assert!(matches!(app.st.ui.narrow, Narrow::Search { .. }), "{:?}", app.st.ui.narrow);
    app.until("the archive's matches", |st| {
        st.data.views.get(&st.ui.narrow).is_some_and(|v| v.local().is_some())
    })
    .await;
    gate.arrived().await;
    assert_eq!(shown(&app), (local.clone(), Some(Local::Asking), false), "shown before the server answers");
    let screen = app.screen(80, 24);
    assert!(screen.contains("the quokka naps at noon"), "{screen}");
    let last = screen.lines().last().unwrap_or_default();
    assert!(last.contains("Search: quokka · local results · asking the server…"), "{screen}");

    // The user picks one; meanwhile the server gets a match the archive has not seen yet.
    app.select(local[1]);
    let alice = app.other("alice");
    let general = app.channel_id("general");
    let late = OutgoingMessage::channel(general, "marsupials", "a late quokka");
    let late = alice.send_message(&late).await.unwrap().id;
    gate.release();
    app.until("the server's answer", |st| st.data.views.get(&st.ui.narrow).is_some_and(|v| v.is_loaded()))
        .await;
    app.settle().await;
    let mut all = local.clone();
    all.push(late);
    assert_eq!(shown(&app), (all, None, true), "each match once, the server's included");
    assert_eq!(app.st.ui.selected, Some(local[1]), "the selection did not move");
    let screen = app.screen(80, 24);
    assert!(screen.contains("a late quokka") && !screen.contains("local results"), "{screen}");
    // Which one answered is said: the archive takes a word's beginning, the server may not
    // (issue 51.14f).
    let last = screen.lines().last().unwrap_or_default();
    assert!(last.contains("Search: quokka · from the server"), "{screen}");
}

/// Offline, a search finds what this machine has seen, and says that is all it shows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_a_search_shows_what_this_machine_has_seen_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, proxy) =
        Setup::new("member").archive(home.path().join("data/topicterm")).start_behind_fault_proxy().await;
    let seen = seen_in_general(&mut app, "birds", &["a kakapo booms", "the kakapo is green"]).await;
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    app.key(KeyCode::Char('/')).await;
    app.keys("kakap").await;
    app.key(KeyCode::Enter).await;
    app.until("the archive's matches", |st| {
        st.data.views.get(&st.ui.narrow).is_some_and(|v| v.local().is_some())
    })
    .await;
    assert_eq!(shown(&app), (seen, Some(Local::Offline), false));
    let screen = app.screen(80, 24);
    assert!(screen.contains("a kakapo booms") && screen.contains("the kakapo is green"), "{screen}");
    assert!(screen.contains("offline: showing what this machine has seen"), "{screen}");
}

/// Offline, a view whose messages this client no longer holds (let go of, as the cap on what is
/// held does) shows what the archive has of it, and says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_a_topic_no_longer_held_shows_what_the_archive_has_of_it() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, proxy) =
        Setup::new("member").archive(home.path().join("data/topicterm")).start_behind_fault_proxy().await;
    let seen = seen_in_general(&mut app, "reptiles", &["a tuatara basks", "the tuatara sleeps"]).await;
    app.st.data.messages.retain(|id, _| !seen.contains(id));
    for id in &seen {
        app.st.data.views.on_delete(*id);
    }
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    let topic = Narrow::Topic(app.channel_id("general"), "reptiles".into());
    let fx = topicterm::app::open_narrow(&mut app.st, topic.clone());
    app.run(fx);
    app.until("the archive's messages", |st| st.data.views.get(&topic).is_some_and(|v| v.local().is_some()))
        .await;
    assert_eq!(shown(&app), (seen, Some(Local::Offline), false));
    let screen = app.screen(80, 24);
    assert!(screen.contains("a tuatara basks") && screen.contains("the tuatara sleeps"), "{screen}");
    assert!(screen.contains("offline: showing what this machine has seen"), "{screen}");
}

/// The status line says `text`.
async fn until_status(app: &mut App, text: &str) {
    app.until(text, |st| st.ui.status.as_ref().is_some_and(|s| s.text.contains(text))).await;
}

/// Whose the app's files are.
fn owner(app: &App) -> topicterm::files::Owner {
    topicterm::files::Owner::new(app.client.email(), app.client.site())
}

/// The archive's database file under the data folder `data`.
fn archive_file(data: &Path) -> std::path::PathBuf {
    std::fs::read_dir(data.join("archive"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .unwrap()
}

/// The member's client keeping an archive (pages of 10) under a temporary home, through a
/// rewriting proxy, settled; with #general's ID and every message ID #general has on the server
/// (more than two pages' worth).
struct Backfilling {
    app: App,
    proxy: Rewriter,
    data: std::path::PathBuf,
    general: i64,
    all: Vec<i64>,
    _home: tempfile::TempDir,
}

async fn backfilling_app() -> Backfilling {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/topicterm");
    let (mut app, proxy) = Setup::new("member")
        .archive(data.clone())
        .backfill_page(10)
        .start_through(async |s| {
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await;
    app.settle().await;
    let general = app.channel_id("general");
    let mut q =
        GetMessages::around(Anchor::Newest, 5000, 0).narrow(vec![NarrowTerm::new("channel", general)]);
    q.apply_markdown = Some(true);
    let all: Vec<i64> = app.client.get_messages(&q).await.unwrap().messages.iter().map(|m| m.id).collect();
    assert!(all.len() > 20, "#general fills several pages: {}", all.len());
    Backfilling { app, proxy, data, general, all, _home: home }
}

/// `:archive #general` fetches the channel's history into the archive a page at a time —
/// messages this client never held, which stay out of its views — and says how far it has come;
/// `:archive stop` ends it mid-way, and `:archive` again resumes from its record to the oldest
/// message, each message fetched once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archive_fetches_a_channels_history_into_the_archive_only_stops_and_resumes_from_its_record() {
    let Backfilling { mut app, proxy, data, general, all, _home } = backfilling_app().await;
    let oldest = *all.iter().min().unwrap();
    assert!(!app.st.data.messages.contains_key(&oldest), "the oldest message of #general was never held");

    // The ask for the channel's oldest message (for "of about") and the first page go
    // through; the second page is held while the user stops.
    let probe = proxy.hold("GET", "/messages", Hold::Answer);
    app.palette("archive #general").await;
    probe.arrived().await;
    let first = proxy.hold("GET", "/messages", Hold::Answer);
    probe.release();
    first.arrived().await;
    let second = proxy.hold("GET", "/messages", Hold::Request);
    first.release();
    until_status(&mut app, "archiving #general: 10 of about ").await;
    // A guess from how densely the first page filled its IDs: more than one page, and not
    // wildly off.
    let said = app.st.ui.status.as_ref().unwrap().text.clone();
    let about: usize = said
        .trim_start_matches("archiving #general: 10 of about ")
        .trim_end_matches(" messages so far…")
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("{said}"));
    assert!((11..=all.len() * 3).contains(&about), "{said} ({} in all)", all.len());
    second.arrived().await;
    app.palette("archive stop").await;
    until_status(&mut app, "archiving stopped").await;
    assert_eq!(
        app.st.ui.status.as_ref().unwrap().text,
        "archiving stopped; :archive alone resumes where it stopped"
    );
    second.release();
    assert!(app.archived(), "the archive's writer answers");
    let key = topicterm::archive::channel_key(general);
    let store =
        topicterm::archive::store::open_existing(&archive_file(&data), &owner(&app)).unwrap().unwrap();
    let reached = store.reached(&key).unwrap().expect("a record of the first page");
    assert_eq!((reached.fetched, reached.found_oldest), (10, false), "{reached:?}");
    assert!(store.message(oldest).unwrap().is_none(), "not that far yet");

    // `:archive` alone goes on with what the stop ended (issue 51.9: it answered with its
    // usage while the stop said ":archive again resumes where it stopped").
    app.palette("archive").await;
    let now = app.st.ui.status.clone().unwrap();
    assert!(!now.error && now.text.contains("#general"), "resumed: {now:?}");
    until_status(&mut app, "archived #general").await;
    let said = app.st.ui.status.as_ref().unwrap().text.clone();
    assert_eq!(said, format!("archived #general: all {} messages", all.len()), "each fetched once");
    assert!(!app.st.data.messages.contains_key(&oldest), "the backfill does not fill the views");
    assert!(app.archived(), "the archive's writer answers");
    for id in &all {
        assert!(store.message(*id).unwrap().is_some(), "message {id} of #general is archived");
    }
    let terms = [NarrowTerm::new("channel", general), NarrowTerm::new("id", oldest)];
    let found = topicterm::archive::query::search(&store, &terms, 10).unwrap();
    assert_eq!(found.iter().map(|f| f.message.id).collect::<Vec<_>>(), [oldest], "a search finds it");
    let reached = store.reached(&key).unwrap().unwrap();
    assert_eq!((reached.oldest, reached.found_oldest), (oldest, true), "the record reaches the oldest");

    // Again: the record says it is done, and no page is asked for.
    app.st.ui.status = None;
    app.palette("archive #general").await;
    until_status(&mut app, "archived #general").await;
    assert_eq!(app.st.ui.status.as_ref().unwrap().text, said);
}

/// The server goes away mid-way (a restart behind its web server answers 502 for a while):
/// the backfill says it is waiting, asks again further apart, and goes on where it was when the
/// server is back — every message fetched once, to the oldest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archive_goes_on_where_it_was_when_the_server_comes_back_mid_way() {
    let Backfilling { mut app, proxy, data, general, all, _home } = backfilling_app().await;
    let all = all.len();
    // The ask for the oldest message and the first page go through; the next two asks find
    // the server restarting.
    let mut asked = 0;
    proxy.arm_before(Box::new(move |ex: &Exchange| {
        if !ex.is("GET", "/messages") {
            return None;
        }
        asked += 1;
        (3..=4).contains(&asked).then(|| Reply::Html(502, b"<h1>502 Bad Gateway</h1>".to_vec()))
    }));
    app.palette("archive #general").await;
    until_status(&mut app, "archiving #general: waiting for the server").await;
    // Said in words, not as the proxy's status line or a library's text.
    let said = app.st.ui.status.as_ref().unwrap().text.clone();
    assert!(!said.contains("502") && !said.contains("/api/v1") && !said.contains("http"), "{said}");
    until_status(&mut app, "archived #general").await;
    let said = app.st.ui.status.as_ref().unwrap().text.clone();
    assert_eq!(said, format!("archived #general: all {all} messages"), "each fetched once");
    assert!(app.archived(), "the archive's writer answers");
    let store =
        topicterm::archive::store::open_existing(&archive_file(&data), &owner(&app)).unwrap().unwrap();
    let reached = store.reached(&topicterm::archive::channel_key(general)).unwrap().unwrap();
    assert_eq!((reached.fetched, reached.found_oldest), (all as u64, true), "{reached:?}");
}

/// With no archive kept (`history = false`), `:archive` says the archive is off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archive_without_history_says_the_archive_is_off() {
    let mut app = App::start("member").await;
    app.palette("archive all").await;
    until_status(&mut app, "the archive is off").await;
    assert!(app.st.ui.status.as_ref().unwrap().error);
}

/// Issue 51.14: "archived #test: all 1 messages"; and the archive's `-wal` and `-shm` stayed
/// after a clean quit. One message is said as one, and on quit the log is folded into the
/// database (`wal_checkpoint(TRUNCATE)`) and the database closed last, leaving only its file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_of_one_message_is_archived_in_the_singular_and_quitting_leaves_only_the_file() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/topicterm");
    let mut app = Setup::new("member").archive(data.clone()).start().await;
    app.palette("create-channel solo").await;
    app.until("the channel", |st| st.data.channels.by_name("solo").is_some()).await;
    let solo = app.channel_id("solo");
    app.client.send_message(&OutgoingMessage::channel(solo, "only", "the one message")).await.unwrap();
    app.palette("archive #solo").await;
    app.until("archived", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("archived "))).await;
    assert_eq!(app.st.ui.status.as_ref().unwrap().text, "archived #solo: its 1 message");
    assert!(app.archived(), "the archive's writer answers");
    let folder = data.join("archive");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 3, "the database, its WAL and shared memory");
    drop(app.into_server().await);
    let left: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    assert!(left.len() == 1 && left[0].ends_with(".db"), "{left:?}");
}
