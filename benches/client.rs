//! Client hot paths at the scale the brief designs for: 20,000 users, 2,000 channels,
//! 200,000 cached messages. Run with `cargo bench --bench client`.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use std::hint::black_box;
use topicterm::api::{Event, Message};
use topicterm::app::views::Page;
use topicterm::app::{self, Channels, Msg, Narrow, State, TimeZone, UserInfo};
use topicterm::content::ContentContext;
use topicterm::ui::content::render_html;
use topicterm::ui::{self, RenderCache};

/// Counts the bytes on the heap, to compare what 200,000 cached messages hold with their JSON.
struct Counting;
static HEAP: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
// SAFETY: every call is passed to the system allocator unchanged; only a counter is kept.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        HEAP.fetch_add(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        HEAP.fetch_sub(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: std::alloc::Layout, new: usize) -> *mut u8 {
        HEAP.fetch_add(new, std::sync::atomic::Ordering::Relaxed);
        HEAP.fetch_sub(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.realloc(p, l, new) }
    }
}
#[global_allocator]
static ALLOC: Counting = Counting;

fn heap() -> usize {
    HEAP.load(std::sync::atomic::Ordering::Relaxed)
}

const USERS: i64 = 20_000;
const CHANNELS: i64 = 2_000;
const MESSAGES: i64 = 200_000;

struct Ctx;
impl ContentContext for Ctx {
    fn format_time(&self, _ts: i64) -> String {
        "Tue 25 Nov 15:00".into()
    }
    fn spoiler_open(&self, _index: usize) -> bool {
        false
    }
}

const TYPICAL: &str = r#"<p>Heads-up: the <strong>branch cut</strong> is <time datetime="2026-11-24T12:00:00Z">x</time>. <span class="user-mention" data-user-id="9">@Maya Lindqvist</span> see <a href="https://example.com/pull/1902">the fix</a> and <a class="stream-topic" data-stream-id="3" href="/x">#engineering &gt; release</a> <span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>
<div class="codehilite" data-code-language="Rust"><pre><span></span><code>fn main() {
    println!("hello");
}
</code></pre></div>
<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
<blockquote><p>quoted text that is long enough to wrap a couple of times at eighty columns, surely</p></blockquote>"#;

fn message(id: i64, channel: i64, read: bool) -> Message {
    serde_json::from_value(json!({
        "id": id, "type": "stream", "content": format!("<p>message {id} with some <strong>text</strong></p>"),
        "display_recipient": format!("channel-{channel}"), "sender_id": 1 + id % USERS,
        "sender_full_name": format!("User {}", id % USERS), "stream_id": channel,
        "subject": format!("topic {}", id % 37), "timestamp": 1_700_000_000 + id,
        "flags": if read { json!(["read"]) } else { json!([]) },
    }))
    .expect("message")
}

/// A state holding the whole large organization, showing the combined feed.
fn big_state() -> State {
    let mut st = State { tz: TimeZone::Fixed(0), now: 1_800_000_000, ..Default::default() };
    st.data.me = 1;
    let users = (1..=USERS).map(|id| {
        (
            id,
            UserInfo {
                id,
                full_name: format!("User {id}"),
                email: format!("u{id}@x"),
                is_bot: false,
                is_active: true,
                presence_enabled: true,
                status: Default::default(),
                role: 400,
            },
        )
    });
    // The users as the roster read gives them.
    st.data.users.reading(1);
    st.data.users.on_roster(1, users.collect(), Default::default());
    // The user's channels as register lists them.
    let subscriptions: Vec<_> = (1..=CHANNELS)
        .map(|id| {
            json!({
                "stream_id": id, "name": format!("channel-{id}"), "color": "#fff",
                "pin_to_top": id % 100 == 0, "is_muted": id % 50 == 0, "invite_only": false,
            })
        })
        .collect();
    let register = serde_json::from_value(json!({
        "queue_id": null, "last_event_id": -1, "zulip_feature_level": 496, "subscriptions": subscriptions,
    }))
    .expect("register");
    st.data.channels = Channels::from_register(&register);
    let mut ids = Vec::with_capacity(MESSAGES as usize);
    let (before, mut json) = (heap(), 0);
    for id in 1..=MESSAGES {
        let m = message(id, 1 + id % CHANNELS, id % 10 != 0);
        json += serde_json::to_vec(&m).expect("json").len();
        st.data.insert_message(m);
        ids.push(id);
    }
    let page = Page { shown: ids, found_newest: true, found_oldest: true, ..Default::default() };
    st.data.views.ensure(&Narrow::All).page_arrived(false, page);
    eprintln!(
        "200,000 cached messages hold {:.1} MB of heap (with the unread index and the feed's window); \
         their JSON is {:.1} MB",
        (heap() - before) as f64 / 1e6,
        json as f64 / 1e6
    );
    st.ui.narrow = Narrow::All;
    st.ui.selected = Some(MESSAGES / 2);
    app::update(&mut st, Msg::Tick(1_800_000_000));
    st
}

/// The message store alone: the heap one held message takes, against its JSON.
fn store_figure() {
    let (before, mut json) = (heap(), 0);
    let mut store = app::Store::default();
    for id in 1..=MESSAGES {
        let m = message(id, 1 + id % CHANNELS, id % 10 != 0);
        json += serde_json::to_vec(&m).expect("json").len();
        store.insert(m);
    }
    let (places, senders) = store.shared_records();
    eprintln!(
        "the message store: {:.0} bytes of heap per held message against {:.0} bytes of JSON \
         ({} messages, {places} conversations, {senders} senders)",
        (heap() - before) as f64 / MESSAGES as f64,
        json as f64 / MESSAGES as f64,
        store.len()
    );
}

fn benches(c: &mut Criterion) {
    store_figure();
    c.bench_function("render typical message at 80 columns", |b| {
        b.iter(|| black_box(render_html(black_box(TYPICAL), 80, &Ctx)))
    });
    let big = TYPICAL.repeat(1_000_000 / TYPICAL.len());
    c.bench_function("render a 1 MB message", |b| {
        b.iter(|| black_box(render_html(black_box(&big), 80, &Ctx)))
    });

    let mut st = big_state();
    let mut next = MESSAGES + 1;
    c.bench_function("apply one message event with 200k cached", |b| {
        b.iter(|| {
            let m = serde_json::to_value(message(next, 1 + next % CHANNELS, false)).expect("json");
            let ev = Event::decode(json!({"id": next, "type": "message", "message": m, "flags": []}));
            next += 1;
            black_box(app::update(&mut st, Msg::Events(vec![ev])))
        })
    });
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
    let mut cache = RenderCache::default();
    c.bench_function("draw a 160x48 frame with 200k cached (warm cache)", |b| {
        b.iter(|| terminal.draw(|f| ui::draw(f, &st, &mut cache)).map(|_| ()).expect("draw"))
    });
    c.bench_function("move the selection and draw (cold neighbours)", |b| {
        b.iter(|| {
            app::update(
                &mut st,
                Msg::Key(topicterm::app::keys::KeyEvent::from(topicterm::app::keys::KeyCode::Char('k'))),
            );
            terminal.draw(|f| ui::draw(f, &st, &mut cache)).map(|_| ()).expect("draw")
        })
    });
}

criterion_group! {
    name = client;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(client);
