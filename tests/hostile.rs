//! Server text is untrusted: escape sequences, C0/C1 controls and bidirectional overrides in
//! any field must never reach the terminal. This draws hostile data through the real views on
//! a crossterm backend writing into memory, and inspects the bytes it would send.
//!
//! Two layers stand between server text and the terminal: our `sanitize` (unit-tested in
//! `ui::content`) on every server string, and ratatui's buffer, which drops control characters
//! and standalone zero-width graphemes. This test checks the outcome of the whole pipeline, so
//! it also guards anything that writes to the terminal outside ratatui's buffer.

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use serde_json::json;
use topicterm::api::{Event, MessagesResponse, RegisterResponse};
use topicterm::app::{self, Msg, Narrow, State, TimeZone};
use topicterm::ui::{self, RenderCache};

const EVIL: &str =
    "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[31mred\u{9b}31m\u{202e}reversed\u{2066}iso\u{8}\u{7f}\r";

fn hostile_state() -> State {
    let mut st = State { tz: TimeZone::Fixed(0), now: 1_800_000_000, ..Default::default() };
    let reg: RegisterResponse = serde_json::from_value(json!({
        "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 496, "user_id": 1,
        "realm_empty_topic_display_name": format!("empty{EVIL}"),
        "realm_users": [
            {"user_id": 1, "full_name": "Me", "email": "me@x"},
            {"user_id": 2, "full_name": format!("Mallory{EVIL}"), "email": format!("m{EVIL}@x")},
        ],
        "subscriptions": [{"stream_id": 7, "name": format!("chan{EVIL}"), "color": "#fff", "description": EVIL}],
        "user_status": {"2": {"status_text": format!("away{EVIL}"), "emoji_name": format!("x{EVIL}"), "emoji_code": "1b", "reaction_type": "unicode_emoji"}},
        "unread_msgs": {"streams": [{"stream_id": 7, "topic": format!("topic{EVIL}"), "unread_message_ids": [10]}]},
        "saved_snippets": [{"id": 3, "title": format!("title{EVIL}"), "content": format!("{EVIL}\ntext{EVIL}"), "date_created": 1}],
    }))
    .unwrap();
    app::register_at_once(&mut st, reg);
    let content = format!(
        "<p>{e}<strong>{e}</strong><a href=\"https://x/{e}\">{e}</a></p><div class=\"codehilite\"><pre><code>{e}</code></pre></div><span class=\"user-mention\" data-user-id=\"2\">@{e}</span><time datetime=\"{e}\">{e}</time><table><tr><td>{e}</td></tr></table>",
        e = EVIL
    );
    let resp: MessagesResponse = serde_json::from_value(json!({
        "found_newest": true, "found_oldest": true,
        "messages": [{
            "id": 10, "type": "stream", "content": content, "display_recipient": format!("chan{EVIL}"),
            "sender_id": 2, "sender_full_name": format!("Mallory{EVIL}"), "sender_email": format!("m{EVIL}@x"),
            "stream_id": 7, "subject": format!("topic{EVIL}"), "timestamp": 1_799_999_000, "flags": [],
            "reactions": [{"emoji_name": format!("e{EVIL}"), "emoji_code": "1b-5b-32-4a", "reaction_type": "unicode_emoji", "user_id": 2},
                          {"emoji_name": format!("r{EVIL}"), "emoji_code": EVIL, "reaction_type": "realm_emoji", "user_id": 2}],
        }],
    }))
    .unwrap();
    app::update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    let typing = Event::decode(json!({"id": 1, "type": "typing", "op": "start", "message_type": "stream",
        "sender": {"user_id": 2, "email": "m@x"}, "stream_id": 7, "topic": format!("topic{EVIL}")}));
    app::update(&mut st, Msg::Events(vec![typing]));
    st
}

#[path = "support/forbidden.rs"]
mod forbidden;
use forbidden::forbidden;
#[path = "support/capture.rs"]
mod capture;
use capture::Shared;

fn bytes_written(st: &State, width: u16, height: u16) -> Vec<u8> {
    let out = Shared::default();
    let backend = CrosstermBackend::new(out.clone());
    let mut terminal = Terminal::with_options(
        backend,
        ratatui::TerminalOptions {
            viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, width, height)),
        },
    )
    .unwrap();
    let mut cache = RenderCache::default();
    terminal.draw(|f| ui::draw(f, st, &mut cache)).unwrap();
    drop(terminal);
    out.0.lock().unwrap().clone()
}

#[test]
fn hostile_server_text_never_reaches_the_terminal() {
    let mut st = hostile_state();
    for (w, h) in [(80, 24), (160, 48), (40, 12)] {
        // The main screen, then every popup that shows server text.
        let mut screens = vec![bytes_written(&st, w, h)];
        st.ui.people.show(true);
        app::rebuild_people(&mut st);
        screens.push(bytes_written(&st, w, h));
        st.ui.popup = Some(app::Popup::MessageInfo { message_id: 10, scroll: 0 });
        screens.push(bytes_written(&st, w, h));
        let snippets = |filtering| app::Popup::Snippets {
            query: topicterm::line::LineEditor::new("q"),
            filtering,
            selected: 0,
            shown: Some(vec![3]),
        };
        for filtering in [false, true] {
            st.ui.popup = Some(snippets(filtering));
            screens.push(bytes_written(&st, w, h));
        }
        st.ui.popup = None;
        // The compose box's preview: the server's rendering of the text.
        let mut c = app::Compose::new(app::Target::Dm(vec![2]), "x", None);
        let html = format!("<p>{EVIL}<strong>{EVIL}</strong></p><pre><code>{EVIL}</code></pre>");
        c.preview = Some(app::Preview { text: "x".into(), html: Some(html), scroll: 0 });
        st.ui.compose = Some(c);
        screens.push(bytes_written(&st, w, h));
        st.ui.compose = None;
        st.ui.sidebar.expand(7);
        let rows = st.data.topics.of(7).map_or(vec![], |l| {
            l.iter().map(|t| topicterm::api::TopicEntry { name: t.name.clone(), max_id: t.max_id }).collect()
        });
        st.data.topics.on_fetched(7, rows, [], |_, _| false);
        app::rebuild_sidebar(&mut st);
        screens.push(bytes_written(&st, w, h));
        for out in screens {
            for (what, needle) in forbidden() {
                assert!(
                    !out.windows(needle.len()).any(|win| win == needle.as_slice()),
                    "{what} reached the terminal at {w}x{h}"
                );
            }
            let text = String::from_utf8_lossy(&out);
            assert!(text.contains("Mallory"), "the sender is still shown");
        }
    }
}

/// Invisible format characters: tags (hidden ASCII), zero-width spaces, invisible operators,
/// Hangul fillers. Terminals disagree on their width (a line holding them lost its popup's
/// right border) and they hide text or make a name look empty.
const INVISIBLE: &str = "\u{e0041}\u{e0042}\u{200b}\u{2060}\u{2062}\u{3164}\u{115f}\u{ffa0}\u{ad}\u{180e}";

#[test]
fn invisible_characters_in_names_and_topics_never_reach_the_screen_or_break_a_border() {
    let mut st = hostile_state();
    let topic = format!("plan{INVISIBLE}ned");
    let renamed: Event = Event::decode(json!({"id": 2, "type": "realm_user", "op": "update",
        "person": {"user_id": 2, "full_name": format!("{INVISIBLE}Mal{INVISIBLE}lory{INVISIBLE}")}}));
    app::update(&mut st, Msg::Events(vec![renamed]));
    let snap = |topic: &str, prev: Option<&str>, content: &str| {
        serde_json::from_value::<topicterm::api::HistorySnapshot>(json!({
            "topic": topic, "prev_topic": prev, "content": content, "rendered_content": "",
            "user_id": 2, "timestamp": 1_799_999_000,
        }))
        .unwrap()
    };
    st.ui.popup = Some(app::Popup::EditHistory {
        message_id: 10,
        snapshots: Some(vec![
            snap("old", None, &format!("first {INVISIBLE}draft")),
            snap(&topic, Some("old"), &format!("second{INVISIBLE} draft {INVISIBLE}")),
        ]),
        scroll: 0,
    });
    for (w, h) in [(80, 24), (160, 48)] {
        let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
        let mut cache = RenderCache::default();
        terminal.draw(|f| ui::draw(f, &st, &mut cache)).unwrap();
        let buf = terminal.backend().buffer().clone();
        let rows: Vec<String> =
            (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_owned()).collect::<String>()).collect();
        let screen = rows.join("\n");
        for c in INVISIBLE.chars() {
            assert!(!screen.contains(c), "U+{:04X} reached the screen at {w}x{h}:\n{screen}", c as u32);
        }
        assert!(screen.contains("Edited by Mallory"), "the name, without what hid in it:\n{screen}");
        assert!(screen.contains("topic: old → planned"), "{screen}");
        // Every row of the popup ends in its right border, in the same column.
        let top =
            rows.iter().position(|r| r.contains("Edit history of message 10")).expect("the popup") as u16;
        let right = (0..w).rev().find(|&x| buf[(x, top)].symbol() == "┐").expect("the corner");
        let bottom = (top + 1..h).find(|&y| buf[(right, y)].symbol() == "┘").expect("the bottom corner");
        for y in top + 1..bottom {
            assert_eq!(buf[(right, y)].symbol(), "│", "the border lost on row {y} at {w}x{h}:\n{screen}");
        }
    }
}

/// Found on a real server: a channel named `#조리법 😎` erased the left border of a popup drawn
/// over it. Ratatui never writes the cell after a wide grapheme, so a border drawn on the second
/// cell of an emoji left the emoji there for the terminal to draw. The bytes of each frame go
/// through a terminal emulator (vt100) here, at every width where a popup's edge can cut one.
#[test]
fn a_wide_emoji_under_a_popup_never_takes_its_border() {
    let mut st = State { tz: TimeZone::Fixed(0), now: 1_800_000_000, ..Default::default() };
    let reg: RegisterResponse = serde_json::from_value(json!({
        "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 503, "user_id": 1,
        "realm_users": [{"user_id": 1, "full_name": "Me", "email": "me@x"}],
        "subscriptions": [
            {"stream_id": 7, "name": "조리법 😎😎😎😎😎😎😎😎😎😎😎😎😎😎😎😎", "color": "#fff"},
            {"stream_id": 8, "name": "a조리법 😎😎😎😎😎😎😎😎😎😎😎😎😎😎😎😎", "color": "#fff"},
        ],
    }))
    .unwrap();
    app::register_at_once(&mut st, reg);
    st.ui.popup = Some(app::Popup::Help { scroll: 0 });
    for w in 40..=100u16 {
        let h = 24;
        let mut screen = vt100::Parser::new(h.try_into().unwrap(), w.try_into().unwrap(), 0);
        screen.process(&bytes_written(&st, w, h));
        let s = screen.screen();
        let cell = |row: u16, col: u16| s.cell(row, col).map(|c| c.contents().to_owned()).unwrap_or_default();
        let (top, left) = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .find(|&(r, c)| cell(r, c) == "┌")
            .expect("the popup's corner");
        let bottom = (top + 1..h).find(|&r| cell(r, left) == "└").expect("its bottom corner");
        for row in top + 1..bottom {
            assert_eq!(
                cell(row, left),
                "│",
                "row {row} lost the popup's left border at width {w}:\n{}",
                s.contents()
            );
        }
    }
}
