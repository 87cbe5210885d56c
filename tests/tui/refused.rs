//! An account the server refuses (a wrong key, a key regenerated elsewhere): its organization
//! closes and says how to fix the account; once the user has (in another terminal), `r` reads
//! the credentials again and reopens it — with one organization open and with several. The
//! real main loop on a mirrored `TestBackend`.

use crate::harness::{Mirrored, client_of, main_loop_of};
use crate::orgs::{count, dm_to_member, key, org_row, wait_for};
use std::sync::{Arc, Mutex};
use topicterm::api::{Client, Credentials};
use topicterm::app::orgs::AccountSource;
use topicterm::run::{Organization, Reread};
use topicterm::server::{DemoServer, ServerOptions};

/// What the account store holds for an account: what `topicterm login` writes, what reopening
/// reads.
#[derive(Clone)]
struct Stored(Arc<Mutex<Result<Credentials, String>>>);

impl Stored {
    fn new(creds: Credentials) -> Stored {
        Stored(Arc::new(Mutex::new(Ok(creds))))
    }
    fn set(&self, now: Result<Credentials, String>) {
        *self.0.lock().unwrap() = now;
    }
    fn reread(&self) -> Reread {
        let kept = self.0.clone();
        Arc::new(move || kept.lock().unwrap().clone().map_err(anyhow::Error::msg))
    }
}

/// The server gives `who` a new API key (as regenerating it in the web app does): the old one
/// is refused from now on. Returns the credentials with the new key.
fn regenerate_key(server: &DemoServer, who: &str) -> Credentials {
    let mut creds = server.credentials(who).unwrap();
    let fresh = format!("{}-regenerated", creds.api_key);
    let mut org = server.shared.lock();
    let user = org.users.values_mut().find(|u| u.email == creds.email).unwrap();
    user.api_key = fresh.clone();
    creds.api_key = fresh;
    creds
}

/// The account `name` of `topicterm accounts`, on `server` as the member, its credentials as
/// `stored` holds them.
fn account(name: &str, stored: &Stored) -> Organization {
    let creds = stored.0.lock().unwrap().clone().unwrap();
    Organization {
        name: name.into(),
        account: AccountSource::Account(name.into()),
        reread: Some(stored.reread()),
        ..Organization::new(Client::new(&creds).unwrap())
    }
}

/// One account, its key regenerated since it was stored: the window stays open and says how to
/// log in again; reopening before the login says why nothing happened; after it, `r` opens it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_account_stays_open_says_how_to_log_in_again_and_reopens() {
    let server = DemoServer::start(ServerOptions::default()).await.unwrap();
    let stored = Stored::new(server.credentials("member").unwrap());
    let fresh = regenerate_key(&server, "member");
    let backend = Mirrored::new(80, 24);
    let screen = backend.screen();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel();
    let run = main_loop_of(backend, vec![account("work", &stored)], rx);
    let drive = async {
        let s = wait_for(&screen, "the refusal and what to do", |s| s.contains("topicterm login")).await;
        insta::assert_snapshot!("refused_account_80x24", s);
        // `r` before logging in again: the stored key is gone (say, `topicterm logout`).
        stored.set(Err("the keyring has no API key for account \"work\"".into()));
        keys.send(key('r')).unwrap();
        let s = wait_for(&screen, "why it did not reopen", |s| s.contains("not reopened")).await;
        let said = "not reopened: the keyring has no API key for account \"work\"";
        assert_eq!(s.lines().last().unwrap(), format!("All messages{said:>68}"), "{s}");
        // Logged in again (in another terminal): the new key is stored; `r` opens it.
        stored.set(Ok(fresh.clone()));
        keys.send(key('r')).unwrap();
        let s = wait_for(&screen, "the organization open", |s| s.contains("#general")).await;
        assert!(!s.contains("refused"), "{s}");
        // Its queue exists (its register was taken) before the client quits.
        let queues = || server.shared.lock().queues.map.len().to_string();
        wait_for(&queues, "the new queue", |n| n == "1").await;
        keys.send(key('q')).unwrap();
    };
    let (ended, ()) = tokio::join!(run, drive);
    let (states, _) = ended.unwrap();
    assert_eq!(states[0].ui.conn.fatal(), None, "open when the user quit");
    assert_eq!(server.shared.lock().queues.map.len(), 0, "its queue given back");
}

/// Two organizations; one's key is regenerated while the window is open: that one closes (the
/// other stays on screen and says so), `]` shows how to reopen it, and after logging in again
/// `r` opens it, with what came meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_revoked_while_open_closes_that_organization_and_it_reopens() {
    let acme = DemoServer::start(ServerOptions::default()).await.unwrap();
    let globex = DemoServer::start(ServerOptions::default()).await.unwrap();
    client_of(&globex, "member").mark_all_as_read().await.unwrap();
    let (at_acme, at_globex) = (
        Stored::new(acme.credentials("member").unwrap()),
        Stored::new(globex.credentials("member").unwrap()),
    );
    let orgs = vec![account("acme", &at_acme), account("globex", &at_globex)];
    let backend = Mirrored::new(120, 30);
    let screen = backend.screen();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel();
    let run = main_loop_of(backend, orgs, rx);
    let drive = async {
        wait_for(&screen, "both open", |s| {
            count(s, "acme").is_some() && count(s, "globex").as_deref() == Some("") && s.contains("#general")
        })
        .await;
        // The first page can be on screen before the server has taken register (they are asked
        // for together): the key changes only once the session's queue exists.
        let queues = |server: &DemoServer| server.shared.lock().queues.map.len().to_string();
        wait_for(&|| queues(&globex), "globex's queue", |n| n == "1").await;
        // The key is regenerated in globex's web app; the next poll is refused.
        let fresh = regenerate_key(&globex, "member");
        dm_to_member(&globex, "alice", "after the new key").await;
        let s = wait_for(&screen, "globex closed", |s| count(s, "globex").as_deref() == Some("closed")).await;
        assert!(org_row(&s, "acme").unwrap().starts_with("▶ acme"), "acme stays on screen:\n{s}");
        let s = wait_for(&screen, "told in acme", |s| s.contains("globex closed")).await;
        assert!(
            s.lines()
                .last()
                .unwrap()
                .ends_with("globex closed — the server refused the account; ] shows how to reopen it"),
            "{s}"
        );
        keys.send(key(']')).unwrap();
        let s =
            wait_for(&screen, "globex's screen", |s| s.contains("topicterm login --account globex")).await;
        assert!(org_row(&s, "globex").unwrap().starts_with("▶ globex"), "{s}");
        assert!(s.contains("The server refused this account:") && s.contains("    Invalid API key"), "{s}");
        assert!(s.contains("then press r here to reopen it."), "{s}");
        at_globex.set(Ok(fresh));
        keys.send(key('r')).unwrap();
        let s = wait_for(&screen, "globex open again", |s| {
            count(s, "globex").is_some_and(|c| c != "closed") && s.contains("after the new key")
        })
        .await;
        assert!(!s.contains("refused"), "{s}");
        // The new session's queue exists (its register was taken) before the client quits.
        wait_for(&|| queues(&globex), "globex's new queue", |n| n == "2").await;
        keys.send(key('q')).unwrap();
    };
    let (ended, ()) = tokio::join!(run, drive);
    let (states, _) = ended.unwrap();
    assert!(states.iter().all(|st| st.ui.conn.fatal().is_none()));
    // The refused session's queue could not be given back (its key was refused); the new
    // session's was, as acme's.
    assert_eq!(globex.shared.lock().queues.map.len(), 1);
    assert_eq!(acme.shared.lock().queues.map.len(), 0);
}
