//! Terminal input and drawing: pastes, bursts of input, and how messages and popups are drawn.

use crate::harness::App;
use crossterm::event::{self as term, Event};
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use topicterm::api::Client;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Msg, PromptKind};

/// A `TestBackend` that counts the frames drawn, records the cells written and keeps the last
/// frame flushed readable while the main loop runs.
struct Counting {
    inner: TestBackend,
    frames: Arc<AtomicUsize>,
    writes: Vec<(u16, u16, String)>,
    shown: Arc<std::sync::Mutex<ratatui::buffer::Buffer>>,
}

impl Counting {
    fn new(width: u16, height: u16) -> Counting {
        let inner = TestBackend::new(width, height);
        let shown = Arc::new(std::sync::Mutex::new(inner.buffer().clone()));
        Counting { inner, frames: Default::default(), writes: Vec::new(), shown }
    }

    /// The last frame flushed, as text.
    fn screen(&self) -> impl Fn() -> String + use<> {
        let shown = self.shown.clone();
        move || {
            let b = shown.lock().expect("frame");
            let cells: Vec<&str> = b.content.iter().map(|c| c.symbol()).collect();
            cells.chunks(b.area.width as usize).map(|row| row.concat()).collect::<Vec<_>>().join("\n")
        }
    }
}

impl Backend for Counting {
    type Error = <TestBackend as Backend>::Error;
    fn draw<'a, I: Iterator<Item = (u16, u16, &'a Cell)>>(&mut self, content: I) -> Result<(), Self::Error> {
        let content: Vec<_> = content.collect();
        self.writes.extend(content.iter().map(|(x, y, c)| (*x, *y, c.symbol().to_owned())));
        self.inner.draw(content.into_iter())
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }
    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)
    }
    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size()
    }
    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner.window_size()
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        *self.shown.lock().expect("frame") = self.inner.buffer().clone();
        self.frames.fetch_add(1, Ordering::SeqCst);
        self.inner.flush()
    }
}

fn key(c: char) -> std::io::Result<Event> {
    Ok(Event::Key(term::KeyEvent::new(term::KeyCode::Char(c), term::KeyModifiers::NONE)))
}

/// The real main loop takes a burst of input in one go: 5,000 keys already waiting are applied
/// in two frames (at most `MAX_INPUT_PER_FRAME` events a frame), not one frame per key.
#[tokio::test]
async fn a_burst_of_keys_is_drawn_in_few_frames() {
    use topicterm::server::{DemoServer, ServerOptions};
    let server = DemoServer::start(ServerOptions::default()).await.unwrap();
    let client = Client::new(&server.credentials("member").unwrap()).unwrap();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel::<std::io::Result<Event>>();
    let backend = Counting::new(100, 30);
    let frames = backend.frames.clone();
    let screen = backend.screen();
    let run = crate::harness::main_loop(backend, client, rx);
    let text: String = (0..5000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let drive = async {
        // Registered, with the first view drawn.
        crate::orgs::wait_for(&screen, "the first view", |s| {
            s.contains("All messages") && s.contains("▌") && server.shared.lock().queues.map.len() == 1
        })
        .await;
        keys.send(key('r')).unwrap();
        crate::orgs::wait_for(&screen, "the compose box", |s| s.contains("ctrl+d send")).await;
        let before = frames.load(Ordering::SeqCst);
        for c in text.chars() {
            keys.send(key(c)).unwrap();
        }
        // Esc comes after every key of the burst (the draft is kept): the first frame without
        // the compose box ends the burst.
        keys.send(Ok(Event::Key(term::KeyEvent::new(term::KeyCode::Esc, term::KeyModifiers::NONE)))).unwrap();
        crate::orgs::wait_for(&screen, "the compose box closed", |s| !s.contains("ctrl+d send")).await;
        let during = frames.load(Ordering::SeqCst) - before;
        keys.send(key('q')).unwrap();
        during
    };
    let (st, during) = tokio::join!(run, drive);
    let st = st.unwrap();
    assert!(st.drafts.values().any(|d| *d == text), "every key reached the compose box");
    assert!((2..=6).contains(&during), "5,000 keys drawn in {during} frames");
}

/// A paste goes into the compose box whole (lines and all) and marks the draft for saving; in
/// a prompt line its line breaks become spaces and it does not submit; elsewhere it does nothing.
#[tokio::test]
async fn a_paste_goes_whole_into_the_compose_box_or_the_prompt_line() {
    let mut app = App::start("member").await;
    // Nowhere to go: nothing happens (no key of it runs).
    let selected = app.st.ui.selected;
    app.send(Msg::Paste("qqq jjj".into())).await;
    assert!(!app.st.ui.conn.quitting() && app.st.ui.selected == selected && app.st.ui.compose.is_none());

    app.key(KeyCode::Char('r')).await;
    app.keys("before ").await;
    app.st.ui.draft_dirty = false;
    app.send(Msg::Paste("first line\r\nsecond\rthird\x1b[31m".into())).await;
    let c = app.st.ui.compose.as_ref().expect("compose box");
    assert_eq!(c.text(), "before first line\nsecond\nthird[31m");
    assert!(app.st.ui.draft_dirty, "the draft is saved like typed text");

    // A prompt over the compose box takes the paste instead, on one line.
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('/')).await;
    assert!(app.st.ui.prompt.as_ref().is_some_and(|p| p.kind == PromptKind::Search));
    app.send(Msg::Paste("channel:engineering\nflaky".into())).await;
    let p = app.st.ui.prompt.as_ref().expect("still open: a paste does not submit");
    assert_eq!(p.text(), "channel:engineering flaky");
    let screen = app.screen(100, 30);
    assert!(screen.contains("channel:engineering flaky"), "{screen}");
}

/// A flag (two regional indicators, one grapheme of two cells) that leaves the screen gets both
/// of its cells written again: terminals that keep the indicators apart would otherwise show a
/// lone "🇴" in the second cell.
#[tokio::test]
async fn both_cells_of_a_flag_are_written_when_it_goes() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.keys("channel:engineering").await;
    app.key(KeyCode::Enter).await;
    app.key(KeyCode::Char('G')).await;
    let mut terminal = ratatui::Terminal::new(Counting::new(100, 30)).unwrap();
    let mut cache = topicterm::ui::RenderCache::default();
    terminal.draw(|f| topicterm::ui::draw(f, &app.st, &mut cache)).unwrap();
    let flag = terminal
        .backend()
        .writes
        .iter()
        .find(|(_, _, s)| s == "\u{1F1F3}\u{1F1F4}")
        .cloned()
        .expect("the flag is drawn as one grapheme");
    terminal.backend_mut().writes.clear();

    app.key(KeyCode::Char('/')).await;
    app.keys("topic:\"deprecating v1 API\"").await;
    app.key(KeyCode::Enter).await;
    terminal.draw(|f| topicterm::ui::draw(f, &app.st, &mut cache)).unwrap();
    let writes = &terminal.backend().writes;
    for x in [flag.0, flag.0 + 1] {
        assert!(
            writes.iter().any(|(wx, wy, s)| (*wx, *wy) == (x, flag.1) && s == " "),
            "cell ({x}, {}) is not cleared: {:?}",
            flag.1,
            writes.iter().filter(|w| w.1 == flag.1).collect::<Vec<_>>()
        );
    }
}

/// A message drawn under the previous one's sender line (same sender, same conversation) still
/// shows that it was edited and that it is starred.
#[tokio::test]
async fn a_follow_on_message_shows_edited_and_starred() {
    use topicterm::api::MessageEdit;
    use topicterm::app::Narrow;
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let author = Client::new(&app.server.credentials("alice").unwrap()).unwrap();
    let send = |text: &'static str| {
        let author = author.clone();
        async move {
            author
                .send_message(&topicterm::api::OutgoingMessage::channel(general, "follow-on", text))
                .await
                .unwrap()
                .id
        }
    };
    send("first, with the sender line").await;
    let id = send("second, drawn under it").await;
    let narrow = Narrow::Topic(general, "follow-on".into());
    let edit = MessageEdit { content: Some("fixed it".into()), ..Default::default() };
    author.update_message(id, &edit).await.unwrap();
    app.client.update_message_flags(&[id], true, topicterm::api::Flag::Starred).await.unwrap();
    app.settle().await;
    app.open(narrow).await;
    app.st.ui.selected = Some(id);
    let screen = app.screen(100, 30);
    let line = screen.lines().find(|l| l.contains("fixed it")).expect("the edited message");
    assert!(line.contains("(edited)") && line.contains('★'), "{screen}");
    insta::assert_snapshot!("follow_on_marks_100x30", screen);
}

/// A line longer than the compose box wraps (at words) instead of scrolling sideways, and the
/// cursor at its end stays in sight.
#[tokio::test]
async fn the_compose_box_wraps_long_lines() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    let words = "the quick brown fox jumps over the lazy dog and keeps running past the end of the box";
    app.keys(&format!("{words} {words} END")).await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("the quick brown fox"), "the start stays in sight:\n{screen}");
    assert!(screen.contains("END"), "and the end too:\n{screen}");
    insta::assert_snapshot!("compose_wraps_80x24", screen);
}

/// The compose box's title says what ctrl+d does: send a new message, save an edited one, save
/// a scheduled one (ctrl+s picks its new time).
#[tokio::test]
async fn the_compose_title_says_what_ctrl_d_does() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("mine").await;
    app.ctrl('d').await;
    let screen = app.screen(100, 30);
    assert!(!screen.contains("ctrl+d send"), "{screen}");
    // Edit the message just sent.
    let mine = app.st.data.messages.values().filter(|m| m.sender_id() == app.st.data.me).map(|m| m.id).max();
    app.st.ui.selected = mine;
    app.key(KeyCode::Char('e')).await;
    assert!(app.st.ui.compose.as_ref().is_some_and(|c| c.editing.is_some()));
    let screen = app.screen(100, 30);
    assert!(screen.contains("ctrl+d save, esc cancel"), "{screen}");
    assert!(!screen.contains("send"), "{screen}");
    app.key(KeyCode::Esc).await;

    app.key(KeyCode::Char(':')).await;
    app.keys("scheduled").await;
    app.key(KeyCode::Enter).await;
    app.key(KeyCode::Char('e')).await;
    assert!(app.st.ui.compose.as_ref().is_some_and(|c| c.scheduled.is_some()));
    let screen = app.screen(100, 30);
    assert!(screen.contains("ctrl+d save, ctrl+s new time"), "{screen}");
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Esc).await;

    // A DM's title names the person once (it read "To: DM to Alice Okafor": issue 40).
    app.key(KeyCode::Char('x')).await;
    app.keys("Alice Okafor").await;
    app.key(KeyCode::Enter).await;
    let screen = app.screen(100, 30);
    assert!(screen.contains(" To: Alice Okafor — ctrl+d send"), "{screen}");
    assert!(!screen.contains("DM to"), "{screen}");
}

/// The help popup says near its top that the command palette exists; `G`/End go to its end
/// (the palette's commands), no further, so that `k` moves up at once; `g`/Home go back.
#[tokio::test]
async fn help_jumps_to_the_end_and_back_and_points_at_the_commands() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('?')).await;
    let top = app.screen(80, 24);
    assert!(top.contains("press :"), "{top}");
    let (last, _, _) = topicterm::app::command::COMMANDS.last().unwrap();
    let last = format!(":{last}");
    assert!(!top.contains(&last), "{top}");
    app.key(KeyCode::Char('G')).await;
    let end = app.screen(80, 24);
    assert!(end.contains(&last), "the last command is on screen:\n{end}");
    app.key(KeyCode::Char('k')).await;
    let up = app.screen(80, 24);
    assert!(up != end, "k after G scrolls up at once");
    app.key(KeyCode::Char('g')).await;
    assert_eq!(app.screen(80, 24), top);
    app.key(KeyCode::End).await;
    assert_eq!(app.screen(80, 24), end);
    app.key(KeyCode::Home).await;
    assert_eq!(app.screen(80, 24), top);
    app.key(KeyCode::Char('G')).await;
    insta::assert_snapshot!("help_end_80x24", app.screen(80, 24));
}

/// Message info lists each reaction once, custom emoji by their name once (not ":lgtm: :lgtm:"),
/// with the names of who reacted.
#[tokio::test]
async fn message_info_shows_each_reaction_once_with_names() {
    use topicterm::app::Popup;
    let mut app = App::start("member").await;
    let m = app
        .st
        .data
        .messages
        .values()
        .filter(|m| m.reactions().iter().any(|r| r.emoji_name == "lgtm"))
        .min_by_key(|m| m.id)
        .cloned()
        .expect("a message with a custom emoji reaction in the seed");
    app.st.ui.selected = Some(m.id);
    app.key(KeyCode::Char('i')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::MessageInfo { .. })));
    let screen = app.screen(120, 48);
    assert!(!screen.contains(":lgtm: :lgtm:"), "{screen}");
    let lines: Vec<&str> = screen.lines().filter(|l| l.contains(":lgtm:")).collect();
    assert_eq!(lines.len(), 1, "one line for the reaction:\n{screen}");
    for r in m.reactions().iter().filter(|r| r.emoji_name == "lgtm") {
        let name = app.st.data.user_name(r.user_id);
        assert!(lines[0].contains(name), "{name} reacted:\n{screen}");
    }
    assert!(screen.contains("Reactions"), "{screen}");
    insta::assert_snapshot!("info_reactions_120x48", screen);
}
