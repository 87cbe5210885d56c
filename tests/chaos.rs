//! Chaos: the real binary in tmux talks to the demo server through a fault-injecting proxy. The
//! network is cut, the server "goes away" for seconds at a time and the client's event queue is
//! expired, over and over, while other people write and edit and the user writes too. Then the
//! network heals, the client writes down what it holds (`:dump-state`), and that is compared with
//! the server's truth: every loaded window holds exactly the server's messages for its range,
//! unread messages are the same, everything the user wrote is on the server exactly once and
//! nothing is left pending.

#[path = "support/app.rs"]
mod harness;
#[path = "support/tmux.rs"]
mod tmux;

use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use tmux::Tmux;
use topicterm::api::{Anchor, Client, GetMessages, MessageEdit, NarrowTerm, OutgoingMessage, Params};
use topicterm::server::proxy::FaultProxy;
use topicterm::server::{DemoServer, ServerOptions};

/// Rounds of faults (each with other people writing and the user writing); a longer run:
/// `TOPICTERM_CHAOS_ROUNDS=200 cargo test --release --test chaos -- --nocapture`.
fn rounds() -> usize {
    std::env::var("TOPICTERM_CHAOS_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(16)
}

/// The demo server and the fault-injecting proxy the client talks through.
struct World {
    rt: tokio::runtime::Runtime,
    server: DemoServer,
    proxy: FaultProxy,
}

impl World {
    /// A client of `who` straight to the server.
    fn client(&self, who: &str) -> Client {
        harness::client_of(&self.server, who)
    }
}

/// Ask the client to write down what it holds; wait for the file and parse it.
fn dump(t: &Tmux, path: &std::path::Path) -> Value {
    let _ = std::fs::remove_file(path);
    t.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    t.keys(&[":"]);
    t.text(&format!("dump-state {}", path.display()));
    t.keys(&["Enter"]);
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(v) = serde_json::from_str::<Value>(&text)
        {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no state dump; screen:\n{}", t.screen());
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Message IDs on the server for these terms, from `first` on (inclusive), as `who` sees them.
fn server_ids(w: &World, who: &Client, terms: &[NarrowTerm], first: Option<i64>) -> Vec<i64> {
    let anchor = first.map_or(Anchor::Oldest, Anchor::Id);
    let q = GetMessages::around(anchor, 0, 5000).narrow(terms.to_vec());
    let resp = w.rt.block_on(who.get_messages(&q)).expect("server truth");
    resp.messages.iter().map(|m| m.id).collect()
}

#[test]
fn the_client_survives_cuts_outages_and_lost_queues_without_losing_or_doubling_anything() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (server, proxy) = rt.block_on(async {
        let server =
            DemoServer::start(ServerOptions { heartbeat: Duration::from_secs(5), ..Default::default() })
                .await
                .expect("demo server");
        let proxy = harness::fault_proxy(&server).await;
        (server, proxy)
    });
    let w = World { rt, server, proxy };

    // The user's account, through the proxy.
    let home = tempfile::tempdir().unwrap();
    let mut creds = w.server.credentials("member").unwrap();
    creds.site = w.proxy.url();
    let rc = home.path().join("member.zuliprc");
    topicterm::api::zuliprc::write(&rc, &creds).unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new("chaos");
    let command = format!(
        "HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state XDG_CONFIG_HOME={h}/config {bin} -c {rc}",
        h = home.path().display(),
        rc = rc.display()
    );
    t.start_sized(&command, 120, 40);
    t.wait_for("the channel list", |s| s.contains("#general") && s.contains("All messages"));
    // Two windows loaded: direct messages, then the combined feed (shown).
    t.keys(&["P"]);
    t.wait_for("direct messages", |s| s.contains("Direct messages") && s.contains("DM with"));
    t.keys(&["a"]);
    std::thread::sleep(Duration::from_millis(500));

    let others: Vec<(&str, Client)> = ["alice", "bob", "dave"].iter().map(|n| (*n, w.client(n))).collect();
    let member = w.client("member");
    let me =
        w.rt.block_on(member.raw(reqwest::Method::GET, "/users/me", Params::new(), Duration::from_secs(5)));
    let member_id = me.expect("me")["user_id"].as_i64().expect("user_id");
    let admin = w.client("admin");
    let general = w.rt.block_on(member.get_subscriptions(None)).unwrap().subscriptions;
    let general = general.iter().find(|s| s.name == "general").expect("#general").stream_id;

    let mut rng = rand::rngs::StdRng::seed_from_u64(20261121);
    let (mut cuts, mut outages, mut expiries) = (0, 0, 0);
    let mut typed: Vec<String> = Vec::new();
    let mut theirs: Vec<(usize, i64)> = Vec::new();
    let rounds = rounds();
    for round in 0..rounds {
        // Other people write: channel messages and DMs to the user, and edit earlier ones.
        for (i, (name, c)) in others.iter().enumerate() {
            let text = format!("chaos round {round} from {name}");
            let msg = if rng.random_bool(0.3) {
                OutgoingMessage::direct(vec![member_id], &text)
            } else {
                OutgoingMessage::channel(general, &format!("chaos {}", round % 3), &text)
            };
            let id = w.rt.block_on(c.send_message(&msg)).expect("others can always send").id;
            theirs.push((i, id));
        }
        if let Some(&(i, id)) = theirs.get(rng.random_range(0..theirs.len())) {
            let edit =
                MessageEdit { content: Some(format!("edited in round {round}")), ..Default::default() };
            let _ = w.rt.block_on(others[i].1.update_message(id, &edit));
        }
        // The user writes (whatever the network is doing).
        if round % 2 == 0 {
            let token = format!("user writes in round {round}!");
            t.keys(&["Escape"]);
            std::thread::sleep(Duration::from_millis(200));
            t.keys(&["c"]);
            t.text("general>chaos from the user");
            t.keys(&["Enter"]);
            t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
            t.text(&token);
            t.keys(&["C-d"]);
            typed.push(token);
        }
        // A fault.
        match rng.random_range(0..4) {
            0 => {
                w.proxy.cut();
                cuts += 1;
            }
            1 => {
                w.proxy.set_down(true);
                std::thread::sleep(Duration::from_millis(rng.random_range(800..2500)));
                w.proxy.set_down(false);
                outages += 1;
            }
            2 => {
                let r = w.rt.block_on(member.raw(
                    reqwest::Method::POST,
                    "/demo/expire_queues",
                    Params::new(),
                    Duration::from_secs(5),
                ));
                assert!(r.is_ok(), "{r:?}");
                expiries += 1;
            }
            _ => {
                w.proxy.cut();
                let _ = w.rt.block_on(member.raw(
                    reqwest::Method::POST,
                    "/demo/expire_queues",
                    Params::new(),
                    Duration::from_secs(5),
                ));
                cuts += 1;
                expiries += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(rng.random_range(300..1200)));
    }
    // An admin writes once more after the last fault: it must arrive live.
    let last = OutgoingMessage::channel(general, "chaos 0", "after the storm");
    let last_id = w.rt.block_on(admin.send_message(&last)).unwrap().id;

    // Healed: wait until the client has caught up (nothing pending, online, nothing loading, and
    // the message written after the storm arrived — after a cut the next poll may take a while).
    let path = home.path().join("state.json");
    let start = Instant::now();
    let state = loop {
        let s = dump(&t, &path);
        let settled = s["outbox"].as_array().is_some_and(Vec::is_empty)
            && s["offline"].is_null()
            && s["narrows"].as_array().unwrap().iter().all(|n| n["loading"] == false)
            && s["narrows"].as_array().unwrap().iter().any(|n| {
                n["narrow"] == "All" && n["ids"].as_array().is_some_and(|ids| ids.contains(&last_id.into()))
            });
        if settled {
            // One more round trip for events already on their way.
            std::thread::sleep(Duration::from_secs(2));
            break dump(&t, &path);
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the client did not settle: {s:#}\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_secs(2));
    };

    // Every loaded window holds exactly the server's messages for its range.
    let mut windows = 0;
    for n in state["narrows"].as_array().unwrap() {
        let ids: Vec<i64> = serde_json::from_value(n["ids"].clone()).unwrap();
        let Some(&first) = ids.first() else { continue };
        let terms: Vec<NarrowTerm> = serde_json::from_value(n["terms"].clone()).unwrap();
        let mut truth = server_ids(&w, &member, &terms, Some(first));
        if n["found_newest"] != true {
            let last = *ids.last().unwrap();
            truth.retain(|id| *id <= last);
        }
        let uniq: BTreeSet<i64> = ids.iter().copied().collect();
        assert_eq!(uniq.len(), ids.len(), "{}: an ID twice", n["narrow"]);
        if ids != truth {
            let missing: Vec<i64> = truth.iter().filter(|i| !uniq.contains(i)).copied().collect();
            let extra: Vec<i64> = ids.iter().filter(|i| !truth.contains(i)).copied().collect();
            panic!(
                "{}: the client's window differs from the server: missing {missing:?}, extra {extra:?}\n{state:#}",
                n["narrow"]
            );
        }
        windows += 1;
    }
    assert!(windows >= 2, "{state:#}");
    // Unread messages are the same.
    let unread_terms = vec![NarrowTerm::new("is", "unread")];
    let truth: Vec<i64> = server_ids(&w, &member, &unread_terms, None);
    let held: Vec<i64> = serde_json::from_value(state["unread"].clone()).unwrap();
    assert_eq!(held, truth, "unread messages differ");
    // Everything the user wrote is on the server exactly once, in the order written.
    let mine = server_ids(&w, &member, &[NarrowTerm::new("sender", member_id)], None);
    let q = GetMessages { message_ids: Some(mine), apply_markdown: Some(false), ..Default::default() };
    let sent = w.rt.block_on(member.get_messages(&q)).unwrap().messages;
    let mut positions = Vec::new();
    for token in &typed {
        let copies: Vec<i64> =
            sent.iter().filter(|m| m.content.contains(token.as_str())).map(|m| m.id).collect();
        assert_eq!(copies.len(), 1, "{token:?} on the server {} times", copies.len());
        positions.push(copies[0]);
    }
    assert!(positions.windows(2).all(|p| p[0] < p[1]), "sent in the order written: {positions:?}");
    let after: bool = state["narrows"].as_array().unwrap().iter().any(|n| {
        n["narrow"] == "All" && n["found_newest"] == true && {
            let ids: Vec<i64> = serde_json::from_value(n["ids"].clone()).unwrap();
            ids.iter().any(|id| sent.iter().all(|m| m.id != *id)) // at least others' messages shown
        }
    });
    assert!(after, "{state:#}");

    let faults = w.proxy.faults();
    eprintln!(
        "chaos: {rounds} rounds; {cuts} cuts, {outages} outages, {expiries} queue expiries; {faults} connections \
         cut or refused by the proxy ({} relayed); {} messages written by the user, {} by others; {windows} \
         windows and {} unread checked",
        w.proxy.relayed(),
        typed.len(),
        theirs.len() + 1,
        held.len()
    );
    assert!(faults as usize >= rounds, "faults really happened: {faults}");
    t.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(200));
    t.keys(&["q"]);
}
