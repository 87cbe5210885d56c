//! The message archive (issue 38, `src/archive/`) at the large organization's scale
//! (`demo-server --size large`): its ~155,000 messages `member` can read, fetched once over
//! loopback as the client fetches them (HTML, `client_gravatar`), topped up to 200,000 with
//! copies under new IDs. Run with `cargo bench --bench archive`. Printed before criterion's
//! figures:
//! - archiving all 200,000 through the writer thread (`Archive::backfilled`, pages of 1,000 as
//!   `:archive` fetches them) until they are written, and meanwhile, on this thread, a key and
//!   a 160×48 frame drawn over and over (the main loop's work for a key while the writer
//!   ingests): median and p99;
//! - checking all 200,000 against the server's answers as `net/reconcile.rs` does after a
//!   register (`Archive::checked`, 1,000 an answer, 1% deleted and 1% edited), keys and frames
//!   meanwhile as above;
//! - the archive's file size once closed, against the messages' JSON as fetched;
//! - word searches as `/` asks the archive (`Archive::search`, the newest 50, opening the file
//!   as each search does): median and p95 of 100 runs each; criterion then times them again.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};
use topicterm::api::{DisplayRecipient, Message, MessagesResponse, decode};
use topicterm::app::views::Page;
use topicterm::app::{self, Channels, Msg, Narrow, State, TimeZone};
use topicterm::archive::{Anchored, Archive, Reached, Scope, query, store};
use topicterm::server::{DemoServer, ServerOptions, seed};
use topicterm::ui::{self, RenderCache};

const MESSAGES: usize = 200_000;

/// Every message `member` can read in the large organization, as fetched (5,000 a page), and
/// the bytes of their JSON in the answers.
fn fetch_all() -> (Vec<Message>, usize) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let seed = seed::large::large_seed(seed::DEMO_SEED).expect("large seed");
        let server = DemoServer::start(ServerOptions { seed, ..Default::default() }).await.expect("server");
        let creds = server.credentials("member").expect("member");
        let http = reqwest::Client::new();
        let (mut all, mut json, mut anchor) = (Vec::new(), 0, "newest".to_owned());
        loop {
            let body = http
                .get(format!("{}/api/v1/messages", server.url))
                .basic_auth(&creds.email, Some(&creds.api_key))
                .query(&[
                    ("anchor", anchor.as_str()),
                    ("num_before", "5000"),
                    ("num_after", "0"),
                    ("include_anchor", if all.is_empty() { "true" } else { "false" }),
                    ("apply_markdown", "true"),
                    ("client_gravatar", "true"),
                ])
                .send()
                .await
                .expect("messages")
                .bytes()
                .await
                .expect("messages body");
            let raw: serde_json::Value = serde_json::from_slice(&body).expect("json");
            json += raw["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .map(|m| m.to_string().len())
                .sum::<usize>();
            let page = decode::<MessagesResponse>("/messages", 200, None, &body).expect("page decodes");
            let done = page.found_oldest || page.messages.is_empty();
            anchor = page.messages.iter().map(|m| m.id).min().unwrap_or(0).to_string();
            all.extend(page.messages);
            if done {
                break;
            }
        }
        server.stop().await;
        all.sort_by_key(|m| m.id);
        (all, json)
    })
}

/// The real messages, topped up to 200,000 with copies of the oldest under new IDs.
fn messages() -> (Vec<Message>, f64) {
    let (mut all, json) = fetch_all();
    let real = all.len();
    let per_message = json as f64 / real as f64;
    let top = all.last().map_or(0, |m| m.id);
    for i in 0..MESSAGES.saturating_sub(real) {
        let mut m = all[i % real].clone();
        m.id = top + 1 + i as i64;
        all.push(m);
    }
    eprintln!(
        "{real} messages of the large organization fetched ({per_message:.0} bytes of JSON each), topped up to {}",
        all.len()
    );
    (all, per_message)
}

/// The client's state holding every message, showing the combined feed.
fn state(all: &[Message]) -> State {
    let mut st = State { tz: TimeZone::Fixed(0), now: 1_800_000_000, ..Default::default() };
    let mut seen = std::collections::BTreeMap::new();
    for m in all {
        if let (Some(id), DisplayRecipient::Channel(name)) = (m.stream_id, &m.display_recipient) {
            seen.insert(id, name.clone());
        }
    }
    let subscriptions: Vec<_> = seen
        .iter()
        .map(|(id, name)| json!({"stream_id": id, "name": name, "color": "#fff", "invite_only": false}))
        .collect();
    let register = serde_json::from_value(json!({
        "queue_id": null, "last_event_id": -1, "zulip_feature_level": 496, "subscriptions": subscriptions,
    }))
    .expect("register");
    st.data.channels = Channels::from_register(&register);
    let mut ids = Vec::with_capacity(all.len());
    for m in all {
        ids.push(m.id);
        st.data.insert_message(m.clone());
    }
    let page = Page { shown: ids, found_newest: true, found_oldest: true, ..Default::default() };
    st.data.views.ensure(&Narrow::All).page_arrived(false, page);
    st.ui.narrow = Narrow::All;
    st.ui.selected = all.get(all.len() / 2).map(|m| m.id);
    app::update(&mut st, Msg::Tick(1_800_000_000));
    st
}

/// A page of messages as the server answers it.
fn answer(page: &[Message]) -> MessagesResponse {
    let mut resp: MessagesResponse = serde_json::from_value(json!({"messages": []})).expect("answer");
    resp.messages = page.to_vec();
    resp
}

fn pct(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p).div_ceil(100).clamp(1, sorted.len()) - 1]
}

/// Archive every message as `:archive all` does (newest page first, 1,000 a page), while this
/// thread presses keys and draws; the file it leaves.
fn ingest(all: &[Message], per_message: f64, dir: &std::path::Path) -> std::path::PathBuf {
    let mut st = state(all);
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
    let mut cache = RenderCache::default();
    let key = |c| Msg::Key(topicterm::app::keys::KeyEvent::from(topicterm::app::keys::KeyCode::Char(c)));
    let mut frame = |st: &mut State, c| {
        let at = Instant::now();
        app::update(st, key(c));
        terminal.draw(|f| ui::draw(f, st, &mut cache)).expect("draw");
        at.elapsed()
    };
    // Alone first: the same keys and frames with no writer.
    let mut alone: Vec<Duration> =
        (0..400).map(|i| frame(&mut st, if i % 2 == 0 { 'k' } else { 'j' })).collect();
    alone.sort();

    let path = dir.join("archive/bench.db");
    let archive = Archive::start(path.clone(), owner());
    let start = Instant::now();
    let mut fetched = 0;
    let anchored = Anchored { id: None, include: false };
    for page in all.rchunks(1_000) {
        fetched += page.len() as u64;
        let oldest = page.first().map_or(0, |m| m.id);
        let reached = Reached { key: "all".into(), oldest, found_oldest: false, fetched };
        archive.backfilled(&[], &anchored, &answer(page), Instant::now(), reached);
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let writer = archive.clone();
    std::thread::spawn(move || {
        let _ = tx.send(writer.flush(Duration::from_secs(600)));
    });
    let mut busy = Vec::new();
    let written = loop {
        if let Ok(done) = rx.try_recv() {
            assert!(done, "the archive was written within 10 minutes");
            break start.elapsed();
        }
        busy.push(frame(&mut st, if busy.len() % 2 == 0 { 'k' } else { 'j' }));
        std::thread::sleep(Duration::from_millis(5));
    };
    busy.sort();
    let archived = (written, busy.clone());

    // The check against the server after a register (`net/reconcile.rs`): every kept message
    // asked again, 1,000 a request newest first, each answer checked (one in a hundred deleted
    // on the server, one in a hundred edited), while keys are pressed.
    let start = Instant::now();
    for page in all.rchunks(1_000) {
        let (lo, hi) = (page[0].id, page[page.len() - 1].id);
        let answer: Vec<Message> = page
            .iter()
            .filter(|m| m.id % 100 != 7)
            .map(|m| {
                let mut m = m.clone();
                if m.id % 100 == 3 {
                    m.content = format!("<p>edited {}</p>", m.id);
                }
                m
            })
            .collect();
        archive.checked(Scope::Received, lo, hi, answer, Instant::now());
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let writer = archive.clone();
    std::thread::spawn(move || {
        let _ = tx.send(writer.flush(Duration::from_secs(600)));
    });
    let mut busy = Vec::new();
    let checked = loop {
        if let Ok(done) = rx.try_recv() {
            assert!(done, "the archive was checked within 10 minutes");
            break start.elapsed();
        }
        busy.push(frame(&mut st, if busy.len() % 2 == 0 { 'k' } else { 'j' }));
        std::thread::sleep(Duration::from_millis(5));
    };
    busy.sort();
    drop(archive);
    eprintln!(
        "checked {} messages against answers of 1,000 in {:.1} s ({:.0} µs each, the server's time aside); \
         a key and its frame meanwhile ({} frames): median {:.2} ms, p99 {:.2} ms",
        all.len(),
        checked.as_secs_f64(),
        checked.as_secs_f64() * 1e6 / all.len() as f64,
        busy.len(),
        pct(&busy, 50).as_secs_f64() * 1e3,
        pct(&busy, 99).as_secs_f64() * 1e3,
    );
    let (written, busy) = archived;
    eprintln!(
        "archived {} messages in {:.1} s ({:.0} µs each); a key and its frame meanwhile ({} frames): \
         median {:.2} ms, p99 {:.2} ms (alone: median {:.2} ms, p99 {:.2} ms)",
        all.len(),
        written.as_secs_f64(),
        written.as_secs_f64() * 1e6 / all.len() as f64,
        busy.len(),
        pct(&busy, 50).as_secs_f64() * 1e3,
        pct(&busy, 99).as_secs_f64() * 1e3,
        pct(&alone, 50).as_secs_f64() * 1e3,
        pct(&alone, 99).as_secs_f64() * 1e3,
    );
    // Closed: the write-ahead log is folded into the file and removed.
    let s = store::open(&path, &owner()).expect("reopen");
    drop(s);
    let size: u64 = ["", "-wal", "-shm"]
        .iter()
        .filter_map(|x| std::fs::metadata(format!("{}{x}", path.display())).ok())
        .map(|m| m.len())
        .sum();
    let json = per_message * all.len() as f64;
    eprintln!(
        "the archive on disk: {:.1} MB, {:.2}× the messages' JSON ({:.1} MB)",
        size as f64 / 1e6,
        size as f64 / json,
        json / 1e6
    );
    path
}

/// Whose the benchmark's archive is.
fn owner() -> topicterm::files::Owner {
    topicterm::files::Owner::new("bench@example.com", "https://chat.example.com")
}

fn benches(c: &mut Criterion) {
    let (all, per_message) = messages();
    let dir = tempfile::tempdir().expect("dir");
    let path = ingest(&all, per_message, dir.path());
    drop(all);

    let s = store::open_existing(&path, &owner()).expect("open").expect("there");
    let known = query::Known::of(&s).expect("names");
    let channel: String = {
        let found = query::search(&s, &[], 1).expect("a message");
        found[0].message.channel_name().unwrap_or("general").to_owned()
    };
    let archive = Archive::start(path.clone(), owner());
    let searches =
        ["rollback", "roll", "zebracorn", "\"rollback quota\"", &format!("channel:{channel} rollback")];
    let mut g = c.benchmark_group("archive search over 200,000 (the newest 50, as `/` asks)");
    for q in searches {
        let terms = query::parse(q, &known).expect("a search");
        let mut times: Vec<Duration> = (0..100)
            .map(|_| {
                let at = Instant::now();
                black_box(archive.search(&terms, 50));
                at.elapsed()
            })
            .collect();
        times.sort();
        eprintln!(
            "search {q:?}: {} found; median {:.2} ms, p95 {:.2} ms",
            archive.search(&terms, 50).len(),
            pct(&times, 50).as_secs_f64() * 1e3,
            pct(&times, 95).as_secs_f64() * 1e3
        );
        g.bench_function(q, |b| b.iter(|| black_box(archive.search(black_box(&terms), 50))));
    }
    g.finish();
}

criterion_group! {
    name = archive;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(archive);
