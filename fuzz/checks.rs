//! What the fuzz targets check, shared by the libFuzzer targets (`fuzz/fuzz_targets/*.rs`) and
//! the stable replay test (`tests/fuzz_corpus.rs`), which both include this file with `#[path]`.
//!
//! Every function takes arbitrary bytes, must not panic for any input, and panics (with the
//! invariant that broke) if the code under test misbehaves.

#![allow(dead_code)]

use std::sync::OnceLock;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::Value;
use topicterm::api::{
    ChannelId, Event, EventKind, EventsResponse, MessagesResponse, NarrowTerm, RegisterResponse, UserId,
};
use topicterm::app::narrow::{Resolver, parse_search, tokens};
use topicterm::app::{Msg, Narrow, State, update};
use topicterm::content::{ContentContext, Document, display_width, sanitize};
use topicterm::ui::content::{RenderedContent, render_html};
use topicterm::ui::{RenderCache, draw};

// ---------------------------------------------------------------------------------------------
// content: server HTML → terminal lines
// ---------------------------------------------------------------------------------------------

struct ContentCtx {
    spoilers_open: bool,
}

impl ContentContext for ContentCtx {
    fn format_time(&self, ts: i64) -> String {
        format!("<{ts}>")
    }
    fn spoiler_open(&self, _index: usize) -> bool {
        self.spoilers_open
    }
}

fn is_blank(line: &ratatui::text::Line<'_>) -> bool {
    line.spans.iter().all(|s| s.content.trim().is_empty())
}

/// Input: first byte = width (low 7 bits) and whether spoilers are open (high bit); the rest is
/// the HTML (lossy UTF-8).
///
/// Checks what `src/ui/content.rs` promises: every line fits the width (clamped to at least 10),
/// both as measured by `display_width` and as ratatui actually places it into a buffer; no
/// leading or trailing blank line; no span, link or code block carries a control, bidi or other
/// unsafe character (`sanitize` is the identity on them); nothing of a closed spoiler's content
/// reaches the lines or links (checked with a sentinel character, see [`SENTINEL`]); the number
/// of spoilers (which numbers them) does not depend on which are open; the document model
/// (`topicterm-core`'s `content/`) finds the links and code blocks the layout numbers, as the app opens and
/// copies them by those numbers.
pub fn content(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let width = u16::from(first & 0x7F);
    let html = String::from_utf8_lossy(rest);
    let open = first & 0x80 != 0;
    let ctx = ContentCtx { spoilers_open: open };
    let r = render_html(&html, width, &ctx);
    check_rendered(&r, width);
    let doc = Document::parse(&html);
    let s = doc.summary(&ctx);
    assert_eq!(s.links, r.links, "the document model and the layout number links differently");
    let code: Vec<(&str, Option<&str>)> =
        s.code_blocks.iter().map(|c| (c.code.as_str(), c.language.as_deref())).collect();
    let shown: Vec<(&str, Option<&str>)> =
        r.code_blocks.iter().map(String::as_str).zip(r.code_languages.iter().map(Option::as_deref)).collect();
    assert_eq!(code, shown, "the document model and the layout find different code blocks");
    assert_eq!(doc.spoiler_count(), r.spoilers);
    assert_eq!(sanitize(&s.text), s.text, "unsafe characters in the document's text");
    if !open && s.text.contains(SENTINEL) && !sentinel_outside_spoilers(&html) {
        panic!("the content of a closed spoiler is in the document's text: {:?}", s.text);
    }
    if !open && shows_sentinel(&r) && !sentinel_outside_spoilers(&html) {
        panic!("the content of a closed spoiler is shown: {r:?}");
    }
    if html.contains("spoiler") {
        let other = render_html(&html, width, &ContentCtx { spoilers_open: !open });
        assert_eq!(r.spoilers, other.spoilers, "the spoiler count depends on which spoilers are open");
    }
}

/// A private-use character the renderer never produces by itself: if it is on screen while
/// spoilers are closed, the input must have it somewhere outside a spoiler's content.
const SENTINEL: char = '\u{E000}';

fn shows_sentinel(r: &RenderedContent) -> bool {
    r.lines.iter().flat_map(|l| &l.spans).any(|s| s.content.contains(SENTINEL))
        || r.links.iter().any(|l| l.url.contains(SENTINEL) || l.text.contains(SENTINEL))
}

/// Whether the sentinel is in the document outside every `spoiler-content` element, in text or
/// in an attribute, literally or as an emoji code ("emoji-e000" renders as U+E000).
pub fn sentinel_outside_spoilers(html: &str) -> bool {
    let is_source = |s: &str| s.contains(SENTINEL) || s.to_ascii_lowercase().contains("e000");
    let doc = scraper::Html::parse_fragment(html);
    // The renderer starts below the root element, which `<html class=…>` can give attributes.
    let root = doc.root_element().id();
    doc.tree.root().descendants().any(|node| {
        let hidden = std::iter::once(node).chain(node.ancestors()).any(|a| {
            a.id() != root
                && a.value().as_element().is_some_and(|e| e.classes().any(|c| c == "spoiler-content"))
        });
        !hidden
            && match node.value() {
                scraper::Node::Text(t) => is_source(t),
                scraper::Node::Element(e) => e.attrs().any(|(_, v)| is_source(v)),
                _ => false,
            }
    })
}

/// The renderer's promises about its output at `width`.
pub fn check_rendered(r: &RenderedContent, width: u16) {
    let max = usize::from(width).max(10);
    // A buffer wider than the limit, so an overlong line shows instead of being clipped.
    let area = Rect::new(0, 0, max as u16 + 16, 1);
    let mut buf = Buffer::empty(area);
    for (i, line) in r.lines.iter().enumerate() {
        let w: usize = line.spans.iter().map(|s| display_width(&s.content)).sum();
        assert!(w <= max, "line {i} is {w} > {max} columns: {line:?}");
        let (x, _) = buf.set_line(0, 0, line, area.width);
        assert!(usize::from(x) <= max, "ratatui puts line {i} in {x} > {max} columns: {line:?}");
        for span in &line.spans {
            assert_eq!(sanitize(&span.content), span.content, "unsafe character in line {i}: {line:?}");
        }
    }
    assert!(r.lines.first().is_none_or(|l| !is_blank(l)), "leading blank line");
    assert!(r.lines.last().is_none_or(|l| !is_blank(l)), "trailing blank line");
    for l in &r.links {
        assert_eq!(sanitize(&l.url), l.url, "unsafe character in link URL");
        assert_eq!(sanitize(&l.text), l.text, "unsafe character in link text");
    }
    for code in &r.code_blocks {
        let without_layout = code.replace(['\n', '\t'], "");
        assert_eq!(sanitize(&without_layout), without_layout, "unsafe character in a code block");
    }
}

// ---------------------------------------------------------------------------------------------
// search: the web app's search syntax → narrow terms
// ---------------------------------------------------------------------------------------------

/// Resolves the demo organization's channel and user names.
struct DemoNames;

const CHANNELS: &[(&str, ChannelId)] = &[
    ("general", 29),
    ("announcements", 30),
    ("engineering", 31),
    ("builds", 32),
    ("design", 33),
    ("support", 34),
    ("random", 35),
    ("book-club", 36),
    ("security", 37),
    ("leadership", 38),
];

const USERS: &[(&str, &str, UserId)] = &[
    ("owner", "Priya Raman", 8),
    ("admin", "Diego Alvarez", 9),
    ("member", "Maya Lindqvist", 10),
    ("alice", "Alice Okafor", 11),
    ("bob", "Bob Nakamura", 12),
    ("carol", "Carol Dubois", 13),
];

impl Resolver for DemoNames {
    fn channel_id(&self, name: &str) -> Option<ChannelId> {
        CHANNELS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, id)| *id)
    }
    fn user_id(&self, who: &str) -> Result<UserId, topicterm::app::people::NameError> {
        let emails: Vec<String> =
            USERS.iter().map(|(short, _, _)| format!("{short}@demo.topicterm.test")).collect();
        let people = USERS.iter().zip(&emails).map(|((_, full, id), email)| topicterm::app::people::Person {
            id: *id,
            full_name: full,
            email,
            active: true,
        });
        topicterm::app::people::person(people, |id| USERS.iter().any(|u| u.2 == id), who)
    }
    fn me(&self) -> UserId {
        10
    }
}

/// Operators `parse_search` may produce, and whether their operand is an ID (else a string;
/// `dm` takes a list of IDs).
const OPERATORS: &[(&str, bool)] = &[
    ("channel", true),
    ("channels", false),
    ("topic", false),
    ("sender", true),
    ("dm-including", true),
    ("mentions", true),
    ("is", false),
    ("has", false),
    ("id", true),
    ("near", true),
    ("with", true),
    ("search", false),
];

pub fn check_term(t: &NarrowTerm, query: &str) {
    let ctx = || format!("{t:?} from {query:?}");
    if t.operator == "dm" {
        let ids = t.operand.as_array().unwrap_or_else(|| panic!("dm operand not a list: {}", ctx()));
        assert!(!ids.is_empty() && ids.iter().all(Value::is_i64), "dm operand: {}", ctx());
        return;
    }
    let &(_, is_id) = OPERATORS
        .iter()
        .find(|(op, _)| *op == t.operator)
        .unwrap_or_else(|| panic!("unexpected operator: {}", ctx()));
    if is_id {
        assert!(t.operand.is_i64(), "operand not an ID: {}", ctx());
    } else {
        let s = t.operand.as_str().unwrap_or_else(|| panic!("operand not a string: {}", ctx()));
        assert!(!s.is_empty(), "empty operand: {}", ctx());
    }
    assert!(!(t.negated && t.operator == "search"), "negated free text: {}", ctx());
}

/// Input: the query (lossy UTF-8). Checks the tokenizer's and parser's contracts: tokens are
/// non-empty and quote-free; a successful parse is non-empty, has well-typed operands of known
/// operators, at most one free-text term and only at the end, survives a JSON round trip and is
/// what the search narrow sends; an error says something.
pub fn search(data: &[u8]) {
    let query = String::from_utf8_lossy(data);
    let toks = tokens(&query);
    let chars: usize = toks.iter().map(|t| t.chars().count()).sum();
    assert!(chars <= query.chars().count(), "tokens longer than the query {query:?}: {toks:?}");
    for t in &toks {
        assert!(!t.is_empty() && !t.contains('"'), "bad token {t:?} in {query:?}");
        assert!(query.contains('"') || !t.contains(char::is_whitespace), "split missed in {query:?}: {t:?}");
    }
    match parse_search(&query, &DemoNames) {
        Ok(terms) => {
            assert!(!terms.is_empty(), "no terms from {query:?}");
            for t in &terms {
                check_term(t, &query);
            }
            let free = terms.iter().filter(|t| t.operator == "search").count();
            assert!(free <= 1, "{free} free-text terms from {query:?}");
            if free == 1 {
                assert_eq!(terms.last().map(|t| t.operator.as_str()), Some("search"), "{query:?}");
            }
            let json = serde_json::to_string(&terms).expect("terms serialize");
            let back: Vec<NarrowTerm> = serde_json::from_str(&json).expect("terms deserialize");
            assert_eq!(back, terms, "JSON round trip of {query:?}");
            let narrow = Narrow::Search { query: query.to_string(), terms: terms.clone() };
            assert_eq!(narrow.terms(11), terms);
        }
        Err(e) => assert!(!e.is_empty(), "empty error for {query:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// events: server JSON → events → the state store
// ---------------------------------------------------------------------------------------------

/// The `type` tag of a kind the decoder understood, `None` for Unknown/Malformed.
fn kind_tag(k: &EventKind) -> Option<&'static str> {
    Some(match k {
        EventKind::Heartbeat => "heartbeat",
        EventKind::Message(_) => "message",
        EventKind::UpdateMessage(_) => "update_message",
        EventKind::DeleteMessage(_) => "delete_message",
        EventKind::Reaction(_) => "reaction",
        EventKind::Subscription(_) => "subscription",
        EventKind::UpdateMessageFlags(_) => "update_message_flags",
        EventKind::Typing(_) => "typing",
        EventKind::TypingEditMessage(_) => "typing_edit_message",
        EventKind::Presence(_) => "presence",
        EventKind::UserStatus(_) => "user_status",
        EventKind::UserTopic(_) => "user_topic",
        EventKind::ScheduledMessages(_) => "scheduled_messages",
        EventKind::UserGroup(_) => "user_group",
        EventKind::NavigationView(_) => "navigation_view",
        EventKind::RealmPlaygrounds { .. } => "realm_playgrounds",
        EventKind::RealmEmoji { .. } => "realm_emoji",
        EventKind::RealmUser(_) => "realm_user",
        EventKind::Realm(_) => "realm",
        EventKind::Stream(_) => "stream",
        EventKind::Drafts(_) => "drafts",
        EventKind::UserSettings(_) => "user_settings",
        EventKind::Restart(_) => "restart",
        EventKind::MutedUsers { .. } => "muted_users",
        EventKind::AlertWords { .. } => "alert_words",
        EventKind::Submessage(_) => "submessage",
        EventKind::Reminders(_) => "reminders",
        EventKind::Attachment(_) => "attachment",
        EventKind::SavedSnippets(_) => "saved_snippets",
        EventKind::ChannelFolder(_) => "channel_folder",
        EventKind::Unknown { .. } | EventKind::Malformed { .. } => return None,
    })
}

/// The decoder's own list of the types it understands.
const KNOWN_TAGS: &[&str] = topicterm::api::KNOWN_EVENT_TYPES;

/// `Event::decode` with its contract checked: the ID is the value's `id` (or -1); an understood
/// event has the value's `type`; a known type that did not decode is `Malformed` with a reason;
/// anything else is `Unknown` with the type (or "").
fn decode_checked(value: Value) -> Event {
    let id = value.get("id").and_then(Value::as_i64).unwrap_or(-1);
    let ty = value.get("type").and_then(Value::as_str).unwrap_or("").to_owned();
    let ev = Event::decode(value);
    check_decoded(&ev, id, &ty);
    ev
}

/// An event decoded from a value with this `id` (-1 if none) and `type` ("" if none).
pub fn check_decoded(ev: &Event, id: i64, ty: &str) {
    assert_eq!(ev.id, id, "event ID");
    match (&ev.kind, kind_tag(&ev.kind)) {
        (_, Some(tag)) => assert_eq!(tag, ty, "decoded as another type"),
        (EventKind::Malformed { event_type, error }, None) => {
            assert_eq!(*event_type, ty);
            assert!(KNOWN_TAGS.contains(&ty), "malformed event of an unknown type {ty:?}");
            assert!(!error.is_empty(), "malformed without a reason");
        }
        (EventKind::Unknown { event_type }, None) => {
            assert_eq!(*event_type, ty);
            assert!(!KNOWN_TAGS.contains(&ty), "known type {ty:?} reported as unknown");
        }
        (k, None) => unreachable!("kind_tag covers {k:?}"),
    }
}

/// A register response and a page of messages captured from the demo server (as Alice).
fn base() -> &'static (RegisterResponse, MessagesResponse) {
    static BASE: OnceLock<(RegisterResponse, MessagesResponse)> = OnceLock::new();
    BASE.get_or_init(|| {
        let v: Value = serde_json::from_str(include_str!("base_state.json")).expect("base_state.json");
        let reg = serde_json::from_value(v["register"].clone()).expect("base register response");
        let msgs = serde_json::from_value(v["messages"].clone()).expect("base messages");
        (reg, msgs)
    })
}

/// Input: one JSON value (anything else is ignored). It is decoded as a single event, as a
/// get-events response and as a register response (none of which may panic), and then applied
/// to a state store that registered and loaded the feed from the demo server's data: the value
/// as a register response if it has a `queue_id`, as a page of messages if it has `messages`,
/// and its events (or itself as one event), followed by a tick; then the screen is drawn.
pub fn events(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let single = decode_checked(value.clone());
    let events = match serde_json::from_value::<EventsResponse>(value.clone()) {
        Ok(resp) => resp
            .events
            .iter()
            .map(|e| decode_checked(serde_json::from_str(e.get()).unwrap_or(Value::Null)))
            .collect(),
        Err(_) => vec![single],
    };
    let register = serde_json::from_value::<RegisterResponse>(value.clone()).ok();
    let messages = serde_json::from_value::<MessagesResponse>(value.clone()).ok();

    let (base_reg, base_msgs) = base();
    let mut st = State::default();
    update(&mut st, Msg::Registered(Box::new(base_reg.clone())));
    let page = |resp: MessagesResponse| Msg::Messages {
        narrow: Narrow::All,
        resp: Box::new(resp),
        older: false,
        epoch: 0,
    };
    update(&mut st, page(base_msgs.clone()));
    if let Some(reg) = register.filter(|_| value.get("queue_id").is_some()) {
        update(&mut st, Msg::Registered(Box::new(reg)));
    }
    if let Some(msgs) = messages.filter(|_| value.get("messages").is_some()) {
        update(&mut st, page(msgs));
    }
    update(&mut st, Msg::Events(events));
    update(&mut st, Msg::Tick(1_800_000_000));
    // And what the user would see of it.
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
    terminal.draw(|f| draw(f, &st, &mut RenderCache::default())).expect("draw");
}
