//! The whole-app key fuzzer, in one home for its three users: the seeded stable run
//! (`tests/keyfuzz.rs`, bytes from a seeded RNG), the libFuzzer target `keys`
//! (`fuzz/fuzz_targets/keys.rs`, bytes from libFuzzer) and the corpus replay
//! (`tests/fuzz_corpus.rs`, bytes from `fuzz/corpus/keys/` and `fuzz/regressions/keys/`).
//!
//! A byte slice is read as a sequence of actions, each from a few bytes ([`Action::decode`]): a
//! key, a ctrl or alt chord, a paste of one of the [`TEXTS`], a resize to one of the [`SIZES`], a
//! palette command with arguments drawn from the state, another user's message, reaction or
//! edit, or a clock tick. They run on the whole-app harness (`tests/support/app.rs`) against the
//! demo server, as the main loop would run them ([`run`]). After every step nothing has
//! panicked and no drawn cell holds a character the sanitiser removes ([`check_buffer`]); at the
//! end, once settled, no new message's text is lost when its compose box closes (it was sent, is
//! in the outbox, a draft or a scheduled message, or is still in the box: [`lost`]) and the
//! unread messages are the server's.
//!
//! `KEYFUZZ_TRACE=1` prints each action as it runs, and at the end the texts written and kept
//! (to read what an input does).

#![allow(dead_code)]

#[path = "../tests/support/app.rs"]
pub mod harness;

use harness::App;
use ratatui::buffer::Buffer;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use topicterm::api::{Client, EmojiSpec, MessageEdit, OutgoingMessage};
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{self, Effect, Msg};

/// Keys pressed alone (`o` and `O` open links in the browser: left out).
pub const KEYS: &str =
    "abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ0123456789 !@#:/?*+-=<>[]{}|~.,'\"\\";
/// Letters pressed with ctrl or alt.
pub const CHORDS: &str = "abdefghknprsuwyxlcgtv";
/// Keys without a character.
pub const SPECIAL: &[KeyCode] = &[
    KeyCode::Enter,
    KeyCode::Esc,
    KeyCode::Tab,
    KeyCode::BackTab,
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::PageUp,
    KeyCode::PageDown,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::Backspace,
    KeyCode::Delete,
];
/// Palette commands run with arguments drawn from the state (those that change what the user
/// is subscribed to, who is muted or what exists are left out: the unread check compares with
/// the server's raw flags; `attach` and `dump-state` read and write files).
pub const COMMANDS: &[&str] = &[
    "scheduled",
    "status",
    "date",
    "mute",
    "unmute",
    "follow",
    "view-pin",
    "channel-email",
    "report",
    "rename-topic",
    "resolve",
    "unresolve",
    "poll-option",
    "todo-add",
    "mark-unread",
    "mark-read",
    "alert-words",
    "channels",
    "recent",
    "channel-info",
    "profile",
    "help",
    "create-channel",
    "invite",
];
/// Texts pasted, typed as arguments and sent by the other user: control and escape
/// characters, wide and combining characters, emoji sequences, Markdown, a long line.
pub const TEXTS: &[&str] = &[
    "hello",
    "\u{1b}[31mred\u{1b}[0m",
    "bell\u{7}",
    "tab\tand\r\nnewline",
    "嵐の中 宽字符",
    "e\u{301}\u{301}\u{301}",
    "👩‍👩‍👧 🏳️‍🌈 👍🏽",
    "**bold** _it_ `code` ~~x~~ [l](http://x.invalid)",
    "@**Alice Okafor**",
    "#**general**",
    "```\ncode\n```",
    "> quote",
    "in 2h",
    "tomorrow 9:00",
    "2026-11-20",
    "\u{202e}reversed",
    "\u{0}nul",
];
/// Frame sizes, down to a single cell.
pub const SIZES: &[(u16, u16)] = &[(80, 24), (160, 48), (40, 10), (20, 5), (1, 1), (120, 30)];

/// The most actions one input runs (the libFuzzer target and the replay).
pub const MAX_STEPS: usize = 2000;

/// The input, read a byte at a time; `None` once spent.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.data.split_first()?;
        self.data = rest;
        Some(b)
    }

    /// An index below `n` (0 when `n` is 0).
    fn index(&mut self, n: usize) -> Option<usize> {
        Some(usize::from(self.byte()?) % n.max(1))
    }

    fn char_of(&mut self, set: &str) -> Option<char> {
        let i = self.index(set.chars().count())?;
        set.chars().nth(i)
    }

    /// One of the [`TEXTS`], one time in fifteen repeated 200 times (a long line).
    fn text(&mut self) -> Option<String> {
        let b = usize::from(self.byte()?);
        let t = TEXTS[b % TEXTS.len()];
        Some(if b < TEXTS.len() { t.repeat(200) } else { t.to_owned() })
    }

    /// An argument drawn from what the app holds: a channel, a person, a topic, or a text.
    fn argument(&mut self, app: &App) -> Option<String> {
        let d = &app.st.data;
        let kind = self.byte()? % 4;
        if kind == 3 {
            return self.text();
        }
        let i = usize::from(self.byte()?);
        Some(match kind {
            0 => d
                .channels
                .iter()
                .nth(i % d.channels.len().max(1))
                .map_or_else(String::new, |c| format!("#{}", c.name)),
            1 => d
                .users
                .iter()
                .nth(i % d.users.len().max(1))
                .map_or_else(String::new, |u| format!("@{}", u.full_name)),
            _ => d
                .topics
                .iter()
                .flat_map(|(_, l)| l.iter())
                .nth(i % 8)
                .map_or_else(String::new, |t| t.name.clone()),
        })
    }

    fn key(&mut self) -> Option<KeyEvent> {
        let kind = self.byte()? % 10;
        let plain = |c| KeyEvent::new(c, KeyModifiers::NONE);
        Some(match kind {
            0..=4 => plain(KeyCode::Char(self.char_of(KEYS)?)),
            5 | 6 => plain(SPECIAL[self.index(SPECIAL.len())?]),
            7 | 8 => KeyEvent::new(KeyCode::Char(self.char_of(CHORDS)?), KeyModifiers::CONTROL),
            _ => KeyEvent::new(KeyCode::Char(self.char_of(CHORDS)?), KeyModifiers::ALT),
        })
    }
}

/// What the other user does.
#[derive(Debug)]
pub enum Other {
    /// A message to the general channel, topic "fuzz".
    Send(String),
    /// A thumbs-up on one of her messages (the index picks which).
    React(usize),
    /// An edit of one of her messages.
    Edit(usize, String),
}

/// One step.
#[derive(Debug)]
pub enum Action {
    Key(KeyEvent),
    Paste(String),
    /// Draw at this size from now on.
    Resize((u16, u16)),
    /// `:`, the line pasted, enter.
    Palette(String),
    Other(Other),
    /// The clock moves on by this many seconds.
    Tick(i64),
}

impl Action {
    /// The next action of the input, its arguments drawn from the state (`None`: the input is
    /// spent). The first byte picks the kind: keys 70%, pastes, resizes 5% each, palette
    /// commands 10%, the other user 9%, ticks 1%.
    pub fn decode(bytes: &mut Bytes<'_>, app: &App) -> Option<Action> {
        Some(match bytes.byte()? {
            0..=177 => Action::Key(bytes.key()?),
            178..=190 => Action::Paste(bytes.text()?),
            191..=203 => Action::Resize(SIZES[bytes.index(SIZES.len())?]),
            204..=229 => {
                let command = COMMANDS[bytes.index(COMMANDS.len())?];
                let args = (0..bytes.index(3)?).map(|_| bytes.argument(app)).collect::<Option<Vec<_>>>()?;
                Action::Palette(format!("{command} {}", args.join(" ")))
            }
            230..=252 => Action::Other(match bytes.byte()? % 3 {
                0 => Other::Send(bytes.text()?),
                1 => Other::React(bytes.index(256)?),
                _ => Other::Edit(bytes.index(256)?, bytes.text()?),
            }),
            _ => Action::Tick(1 + i64::from(bytes.byte()?) * 4),
        })
    }
}

/// Apply one message as the main loop would, leaving out what would reach outside the test
/// (a browser, files).
fn step(app: &mut App, msg: Msg) {
    let mut fx = app::update(&mut app.st, msg);
    fx.retain(|e| !matches!(e, Effect::OpenUrl { .. } | Effect::DumpState { .. } | Effect::Upload { .. }));
    app.run(fx);
    app.drain();
}

/// Every drawn cell is free of what must never reach the terminal (control characters, bidi
/// overrides and isolates, …: the sanitiser's own set).
pub fn check_buffer(buf: &Buffer, what: &str) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let sym = buf[(x, y)].symbol();
            assert!(
                !sym.chars().any(topicterm::content::is_unsafe_char),
                "{what}: a control character drawn at {x},{y} ({sym:?}) at {}×{}",
                area.width,
                area.height
            );
        }
    }
}

/// The texts of `written` that none of `kept` holds (one may hold the other: a draft is kept
/// trimmed, a sent message may have been edited on).
pub fn lost<'a>(written: &'a BTreeSet<String>, kept: &[String]) -> Vec<&'a String> {
    written
        .iter()
        .filter(|t| {
            !kept.iter().any(|k| k.contains(t.trim()) || t.contains(k.trim()) && !k.trim().is_empty())
        })
        .collect()
}

/// What the compose box holds, if open with text.
fn compose_text(app: &App) -> Option<String> {
    app.st.ui.compose.as_ref().map(|c| c.editor.text()).filter(|t| !t.trim().is_empty())
}

/// What the compose box holds when it is writing a new message (not editing a sent or a
/// scheduled one, which esc cancels, as in the web app).
fn new_message_text(app: &App) -> Option<String> {
    app.st.ui.compose.as_ref().filter(|c| c.editing.is_none() && c.scheduled.is_none()).and(compose_text(app))
}

/// The other user's side of a run.
struct Alice {
    client: Client,
    general: i64,
    /// Her messages sent so far.
    sent: Vec<i64>,
}

impl Alice {
    async fn act(&mut self, what: Other) {
        let pick = |sent: &[i64], i: usize| (!sent.is_empty()).then(|| sent[i % sent.len()]);
        match what {
            Other::Send(text) => {
                let m = OutgoingMessage::channel(self.general, "fuzz", &text);
                if let Ok(r) = self.client.send_message(&m).await {
                    self.sent.push(r.id);
                }
            }
            Other::React(i) => {
                if let Some(id) = pick(&self.sent, i) {
                    let emoji = EmojiSpec {
                        emoji_name: Some("thumbs_up".into()),
                        emoji_code: Some("1f44d".into()),
                        reaction_type: Some("unicode_emoji".into()),
                    };
                    let _ = self.client.add_reaction(id, &emoji).await;
                }
            }
            Other::Edit(i, text) => {
                if let Some(id) = pick(&self.sent, i) {
                    let edit = MessageEdit { content: Some(text), ..Default::default() };
                    let _ = self.client.update_message(id, &edit).await;
                }
            }
        }
    }
}

/// Whether `KEYFUZZ_TRACE` asks for each action to be printed.
fn tracing() -> bool {
    static TRACE: OnceLock<bool> = OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("KEYFUZZ_TRACE").is_some())
}

/// Run at most `limit` actions of `data` on `app` (logged in as a member of the general
/// channel), checking the invariants after every step and at the end, after no news came for
/// `quiet` (the unread messages are waited for longer if they differ); `label` names the input
/// in a failure.
pub async fn run(mut app: App, data: &[u8], limit: usize, quiet: Duration, label: &str) {
    let mut alice =
        Alice { client: app.other("alice"), general: app.channel_id("general"), sent: Vec::new() };
    let mut size = (80, 24);
    let mut bytes = Bytes::new(data);
    let mut written: BTreeSet<String> = BTreeSet::new();
    let mut steps = 0;
    while steps < limit {
        let Some(action) = Action::decode(&mut bytes, &app) else { break };
        if tracing() {
            eprintln!("{label} step {steps}: {action:?}");
        }
        let before = new_message_text(&app);
        let was_open = app.st.ui.compose.is_some();
        match action {
            Action::Key(k) => step(&mut app, Msg::Key(k)),
            Action::Paste(t) => step(&mut app, Msg::Paste(t)),
            Action::Resize(s) => size = s,
            Action::Palette(line) => {
                step(&mut app, Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)));
                step(&mut app, Msg::Paste(line));
                step(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
            }
            Action::Other(o) => alice.act(o).await,
            Action::Tick(secs) => {
                let now = app.st.now + secs;
                step(&mut app, Msg::Tick(now));
            }
        }
        // The box closed (sent, kept as a draft, or put aside): its text must be kept.
        if let Some(t) = before
            && app.st.ui.compose.is_none()
        {
            written.insert(t);
        }
        // A box that opens on a kept text (a draft restored) takes it back: from here on the
        // text is the box's, which the user may change at will.
        if !was_open && let Some(now) = new_message_text(&app) {
            written.remove(&now);
        }
        if steps % 8 == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
            app.drain();
        }
        check_buffer(&app.buffer(size.0, size.1), &format!("{label} step {steps}"));
        steps += 1;
    }
    app.settle_for(quiet).await;
    check_buffer(&app.buffer(80, 24), &format!("{label} settled"));

    // Nothing written is lost: the last text of every new message's compose box that closed is
    // sent, waiting in the outbox, a draft, a scheduled message, or being written again.
    let me = app.st.data.me;
    let mut kept: Vec<String> = app.st.outbox.iter().map(|o| o.content.clone()).collect();
    kept.extend(app.st.drafts.values().cloned());
    kept.extend(compose_text(&app));
    {
        let org = app.server.shared.lock();
        kept.extend(org.messages.values().filter(|m| m.sender_id == me).map(|m| m.content.clone()));
        kept.extend(
            org.messages.values().flat_map(|m| m.edits.iter().filter_map(|e| e.prev_content.clone())),
        );
        kept.extend(org.scheduled.values().map(|s| s.content.clone()));
        kept.extend(org.drafts.get(&me).into_iter().flat_map(|d| d.values().map(|d| d.content.clone())));
    }
    if tracing() {
        eprintln!("{label}: compose boxes closed with {written:?}; {} texts kept", kept.len());
    }
    let lost = lost(&written, &kept);
    assert!(lost.is_empty(), "{label}: compose texts lost: {lost:?}");

    // The unread messages are the server's, once what is under way has landed (waited for, up
    // to a minute, as a busy machine may be slow).
    let unread = |app: &App| -> (BTreeSet<i64>, BTreeSet<i64>) {
        let org = app.server.shared.lock();
        let server = org.user_msgs[&me].iter().filter(|(_, f)| !f.read).map(|(id, _)| *id).collect();
        (app.st.data.unread.ids().collect(), server)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while unread(&app).0 != unread(&app).1 && Instant::now() < deadline {
        app.settle().await;
    }
    let (client, server) = unread(&app);
    let only_here: Vec<_> = client.difference(&server).collect();
    let only_there: Vec<String> = {
        let org = app.server.shared.lock();
        server
            .difference(&client)
            .map(|id| match org.messages.get(id) {
                Some(m) => format!("{id} (from {}, to {:?}, {:?})", m.sender_id, m.recip, m.content),
                None => format!("{id} (gone)"),
            })
            .collect()
    };
    assert!(
        only_here.is_empty() && only_there.is_empty(),
        "{label}: unread here only {only_here:?}; unread on the server only {only_there:?}"
    );
    app.close().await;
}

/// How long without news counts as settled in [`check`]: the in-process server answers in a
/// few milliseconds, and the long default of the harness would be most of an input's time.
pub const INPUT_QUIET: Duration = Duration::from_millis(50);

/// The check of one input, as the libFuzzer target and the replay run it: one tokio runtime
/// per process, a fresh demo server and app per input (so an input fails alone as it failed
/// in a run), at most [`MAX_STEPS`] actions.
pub fn check(data: &[u8]) {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    let rt = RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("tokio runtime")
    });
    rt.block_on(async {
        let app = harness::Setup::new("member").start_quickly(INPUT_QUIET).await;
        run(app, data, MAX_STEPS, INPUT_QUIET, "input").await;
    });
}
