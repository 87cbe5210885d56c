//! Every organization in one window: the real main loop with two demo servers open at once.

use crate::harness::{Mirrored, client_of, main_loop_of};
use crossterm::event::{self as term, Event};
use std::time::{Duration, Instant};
use topicterm::api::{Client, OutgoingMessage};
use topicterm::run::Organization;
use topicterm::server::{DemoServer, ServerOptions};

pub(crate) fn key(c: char) -> std::io::Result<Event> {
    Ok(Event::Key(term::KeyEvent::new(term::KeyCode::Char(c), term::KeyModifiers::NONE)))
}

fn esc() -> std::io::Result<Event> {
    Ok(Event::Key(term::KeyEvent::new(term::KeyCode::Esc, term::KeyModifiers::NONE)))
}

/// Wait (at most a minute) until the screen shows what `ok` looks for.
pub(crate) async fn wait_for(screen: &impl Fn() -> String, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let s = screen();
        if ok(&s) {
            return s;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "waited for {what}; the screen:\n{s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The organization rows at the top of the channels pane, as drawn: "▶ acme       1".
pub(crate) fn org_row(screen: &str, name: &str) -> Option<String> {
    screen.lines().map(|l| l.split('│').next().unwrap_or("").trim().to_owned()).find(|l| {
        let l = l.trim_start_matches("▶ ");
        l.strip_prefix(name).is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    })
}

/// The count at the end of an organization's row ("" when none).
pub(crate) fn count(screen: &str, name: &str) -> Option<String> {
    let row = org_row(screen, name)?;
    let rest = row.trim_start_matches("▶ ")[name.len()..].trim().to_owned();
    Some(rest)
}

pub(crate) async fn dm_to_member(server: &DemoServer, from: &str, text: &str) {
    let sender = client_of(server, from);
    let member = server.credentials("member").unwrap().email;
    let users = sender.get_users().await.unwrap();
    let id = users.members.iter().find(|u| u.email == member).unwrap().user_id;
    sender.send_message(&OutgoingMessage::direct(vec![id], text)).await.unwrap();
}

fn named(name: &str, client: Client, drafts: &std::path::Path) -> Organization {
    Organization { name: name.into(), drafts_dir: Some(drafts.join(name)), ..Organization::new(client) }
}

/// Two organizations (two demo servers) in one window: both unread counts in the channels pane,
/// a message in the one not on screen counted there and notified with its name, `]` and `[`
/// switching (title, feed and drafts each the organization's own), one event queue each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_organizations_show_both_unread_counts_and_switch() {
    let acme = DemoServer::start(ServerOptions::default()).await.unwrap();
    let globex = DemoServer::start(ServerOptions::default()).await.unwrap();
    // Everything read in both, then a known number of new messages in each: acme's one is
    // selected on screen (so read at once), globex's two are not seen yet.
    for s in [&acme, &globex] {
        client_of(s, "member").mark_all_as_read().await.unwrap();
    }
    dm_to_member(&acme, "alice", "hello from acme").await;
    dm_to_member(&globex, "bob", "first from globex").await;
    dm_to_member(&globex, "bob", "second from globex").await;
    let drafts = tempfile::tempdir().unwrap();
    let orgs = vec![
        named("acme", client_of(&acme, "member"), drafts.path()),
        named("globex", client_of(&globex, "member"), drafts.path()),
    ];
    let backend = Mirrored::new(120, 30);
    let screen = backend.screen();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel();
    let run = main_loop_of(backend, orgs, rx);
    let drive = async {
        let s = wait_for(&screen, "both organizations with their unread counts", |s| {
            count(s, "acme").as_deref() == Some("") && count(s, "globex").as_deref() == Some("2")
        })
        .await;
        assert!(org_row(&s, "acme").unwrap().starts_with("▶ acme"), "acme is on screen:\n{s}");
        assert!(!org_row(&s, "globex").unwrap().starts_with('▶'), "{s}");
        assert!(
            s.lines().last().unwrap().starts_with("acme as Maya Lindqvist · "),
            "the title names it:\n{s}"
        );
        wait_for(&screen, "acme's feed", |s| s.contains("hello from acme")).await;
        assert_eq!(acme.shared.lock().queues.map.len(), 1, "one event queue in acme");
        assert_eq!(globex.shared.lock().queues.map.len(), 1, "one event queue in globex");

        // A message arrives in the organization not on screen: counted there (within the
        // second the rows take to be worked out again), not drawn in acme's feed.
        dm_to_member(&globex, "carol", "while you were in acme").await;
        let s = wait_for(&screen, "globex counting 3", |s| count(s, "globex").as_deref() == Some("3")).await;
        assert_eq!(count(&s, "acme").as_deref(), Some(""), "{s}");
        assert!(!s.contains("while you were in acme"), "{s}");

        // A draft in acme: reply to the selected message, type, leave the box.
        keys.send(key('r')).unwrap();
        for c in "draft for acme".chars() {
            keys.send(key(c)).unwrap();
        }
        wait_for(&screen, "the reply box in acme", |s| s.contains("draft for acme")).await;
        keys.send(esc()).unwrap();

        // `]`: globex on screen, with its own feed, title and marker.
        keys.send(key(']')).unwrap();
        let s = wait_for(&screen, "globex on screen", |s| {
            s.lines().last().unwrap().starts_with("globex as Maya Lindqvist · ")
        })
        .await;
        assert!(org_row(&s, "globex").unwrap().starts_with("▶ globex"), "{s}");
        let s = wait_for(&screen, "globex's feed", |s| s.contains("first from globex")).await;
        assert!(!s.contains("hello from acme"), "acme's messages are not globex's:\n{s}");
        // On screen, what it draws is seen (the user's `web_mark_read_on_scroll_policy` is the
        // default, always): all three read.
        wait_for(&screen, "globex counting none", |s| count(s, "globex").as_deref() == Some("")).await;
        keys.send(key('r')).unwrap();
        for c in "draft for globex".chars() {
            keys.send(key(c)).unwrap();
        }
        wait_for(&screen, "the reply box in globex", |s| s.contains("draft for globex")).await;
        keys.send(esc()).unwrap();

        // `[` goes back; so does `]` (two organizations: round).
        keys.send(key('[')).unwrap();
        wait_for(&screen, "acme again", |s| {
            s.lines().last().unwrap().starts_with("acme as Maya Lindqvist · ")
        })
        .await;
        // Drafts reach each organization's own folder within a second or two.
        let start = Instant::now();
        loop {
            let kept = |name: &str| {
                std::fs::read_dir(drafts.path().join(name))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                    .collect::<String>()
            };
            let (a, g) = (kept("acme"), kept("globex"));
            if a.contains("draft for acme") && g.contains("draft for globex") {
                assert!(!a.contains("globex") && !g.contains("for acme"), "{a:?} {g:?}");
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "drafts not kept apart: {a:?} / {g:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // A tick later (the states' clock moves by ticks), the last key, in acme.
        tokio::time::sleep(Duration::from_millis(1100)).await;
        keys.send(key('q')).unwrap();
    };
    let (ended, ()) = tokio::join!(run, drive);
    let (states, outside) = ended.unwrap();
    assert_eq!(states.len(), 2);
    // Keys in acme count as the user being there for globex too (its presence stays active).
    assert_eq!(
        states[1].ui.presence.last_input(),
        states[0].ui.presence.last_input(),
        "globex heard of acme's last key"
    );
    let told = &outside.notifications;
    assert!(
        told.iter().any(|(title, body)| title == "globex" && body.contains("Carol")),
        "the notification names the organization: {told:?}"
    );
    // A clean exit gives both servers their queues back.
    assert_eq!(acme.shared.lock().queues.map.len(), 0);
    assert_eq!(globex.shared.lock().queues.map.len(), 0);
}

/// With one organization there are no organization rows, and `]` says why nothing happened.
#[tokio::test]
async fn with_one_organization_the_switch_key_says_how_to_open_more() {
    let server = DemoServer::start(ServerOptions::default()).await.unwrap();
    let backend = Mirrored::new(120, 30);
    let screen = backend.screen();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel();
    let run = main_loop_of(backend, vec![Organization::new(client_of(&server, "member"))], rx);
    let drive = async {
        let s = wait_for(&screen, "the channel list", |s| s.contains("#general")).await;
        assert!(!s.contains('▶') && !s.lines().last().unwrap().contains("127.0.0.1 · "), "{s}");
        keys.send(key(']')).unwrap();
        wait_for(&screen, "the reason", |s| s.contains("only this organization is open")).await;
        keys.send(key('q')).unwrap();
    };
    let (ended, ()) = tokio::join!(run, drive);
    assert_eq!(ended.unwrap().0.len(), 1);
}

/// Accounts named by their server's address (`127.0.0.1-19991`, as login names one the user
/// did not name) are shown by the organization's own name, and the title says who the user is
/// there; `?` says it with one organization too (issue 51.14h).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organization_rows_name_the_organization_and_the_title_the_user() {
    let acme = DemoServer::start(ServerOptions::default()).await.unwrap();
    let seed = topicterm::server::seed::DEMO_SEED.replacen(
        "\"name\": \"Topicterm Demo\"",
        "\"name\": \"Globex Corp\"",
        1,
    );
    let globex = DemoServer::start(ServerOptions { seed, ..Default::default() }).await.unwrap();
    let by_address = |server: &DemoServer, who: &str| {
        let client = client_of(server, who);
        let name = topicterm::account::name_from_site(client.site());
        Organization { name, ..Organization::new(client) }
    };
    let orgs = vec![by_address(&acme, "member"), by_address(&globex, "alice")];
    let backend = Mirrored::new(120, 30);
    let screen = backend.screen();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel();
    let run = main_loop_of(backend, orgs, rx);
    let drive = async {
        let s = wait_for(&screen, "both organizations by name", |s| {
            org_row(s, "Topicterm Demo").is_some() && org_row(s, "Globex Corp").is_some()
        })
        .await;
        assert!(!s.contains("127.0.0.1-"), "not the account's address-made name:\n{s}");
        let s = wait_for(&screen, "who the user is", |s| {
            s.lines().last().unwrap().starts_with("Topicterm Demo as Maya Lindqvist · ")
        })
        .await;
        assert!(org_row(&s, "Topicterm Demo").unwrap().starts_with("▶ "), "{s}");
        keys.send(key(']')).unwrap();
        wait_for(&screen, "globex, as alice", |s| {
            s.lines().last().unwrap().starts_with("Globex Corp as Alice Okafor · ")
        })
        .await;
        keys.send(key('?')).unwrap();
        wait_for(&screen, "help saying who", |s| {
            s.contains("Keys (esc to close) · Alice Okafor in Globex Corp")
        })
        .await;
        keys.send(esc()).unwrap();
        keys.send(key('q')).unwrap();
    };
    let (ended, ()) = tokio::join!(run, drive);
    assert_eq!(ended.unwrap().0.len(), 2);
}
