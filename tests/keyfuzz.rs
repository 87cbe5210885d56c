//! The whole app under random use, seeded so a failure is repeated by its seed: random keys,
//! pastes, frame sizes and palette commands with arguments drawn from the state, interleaved
//! with another user's messages, reactions and edits, on the whole-app harness against the demo
//! server. After every step nothing has panicked and no drawn cell holds a control character;
//! at the end, once settled, no new message's text is lost when its compose box closes (it was
//! sent, is in the outbox, a draft or a scheduled message, or is still in the box) and the
//! unread messages are the server's.
//!
//! `KEYFUZZ_STEPS=20000 KEYFUZZ_SEED=7 cargo test --test keyfuzz -- --nocapture` runs it longer
//! or another way; CI runs the default (2,000 steps, seed 1).

#[path = "support/app.rs"]
mod harness;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use harness::App;
use std::collections::BTreeSet;
use topicterm::api::{EmojiSpec, MessageEdit, OutgoingMessage};
use topicterm::app::{self, Effect, Msg};

/// Keys pressed alone (`o` and `O` open links in the browser: left out).
const KEYS: &str = "abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ0123456789 !@#:/?*+-=<>[]{}|~.,'\"\\";
/// Letters pressed with ctrl or alt.
const CHORDS: &str = "abdefghknprsuwyxlcgtv";
/// Palette commands run with arguments drawn from the state (those that change what the user
/// is subscribed to, who is muted or what exists are left out: the unread check compares with
/// the server's raw flags; `attach` and `dump-state` read and write files).
const COMMANDS: &[&str] = &[
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
/// Texts pasted and typed as arguments: control and escape characters, wide and combining
/// characters, emoji sequences, Markdown, a long line.
const TEXTS: &[&str] = &[
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

struct Fuzz {
    rng: fastrand::Rng,
    size: (u16, u16),
}

impl Fuzz {
    fn text(&mut self) -> String {
        let t = TEXTS[self.rng.usize(..TEXTS.len())];
        if self.rng.u8(..20) == 0 { t.repeat(200) } else { t.to_owned() }
    }

    /// An argument drawn from what the app holds: a channel, a person, a topic, or a text.
    fn argument(&mut self, app: &App) -> String {
        let d = &app.st.data;
        match self.rng.u8(..4) {
            0 => d
                .channels
                .values()
                .nth(self.rng.usize(..d.channels.len().max(1)))
                .map_or_else(String::new, |c| format!("#{}", c.name)),
            1 => d
                .users
                .values()
                .nth(self.rng.usize(..d.users.len().max(1)))
                .map_or_else(String::new, |u| format!("@{}", u.full_name)),
            2 => d
                .topics
                .values()
                .flat_map(|l| l.topics.iter())
                .nth(self.rng.usize(..8))
                .map_or_else(String::new, |t| t.name.clone()),
            _ => self.text(),
        }
    }

    fn key(&mut self) -> KeyEvent {
        let plain = |c| KeyEvent::new(c, KeyModifiers::NONE);
        match self.rng.u8(..10) {
            0..=4 => {
                let c = KEYS.chars().nth(self.rng.usize(..KEYS.chars().count())).unwrap();
                plain(KeyCode::Char(c))
            }
            5 | 6 => {
                let codes = [
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
                plain(codes[self.rng.usize(..codes.len())])
            }
            7 | 8 => {
                let c = CHORDS.chars().nth(self.rng.usize(..CHORDS.chars().count())).unwrap();
                KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
            }
            _ => {
                let c = CHORDS.chars().nth(self.rng.usize(..CHORDS.chars().count())).unwrap();
                KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT)
            }
        }
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
fn check_frame(app: &mut App, (w, h): (u16, u16), at: usize) {
    let buf = app.buffer(w, h);
    for y in 0..h {
        for x in 0..w {
            let sym = buf[(x, y)].symbol();
            assert!(
                !sym.chars().any(topicterm::content::is_unsafe_char),
                "step {at}: a control character drawn at {x},{y} ({sym:?}) at {w}×{h}"
            );
        }
    }
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_use_never_panics_draws_no_control_character_and_loses_nothing() {
    let steps: usize = std::env::var("KEYFUZZ_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::var("KEYFUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut app = App::start("member").await;
    let alice = app.other("alice");
    let general = app.channel_id("general");
    let mut fz = Fuzz { rng: fastrand::Rng::with_seed(seed), size: (80, 24) };
    let sizes = [(80, 24), (160, 48), (40, 10), (20, 5), (1, 1), (120, 30)];
    let mut written: BTreeSet<String> = BTreeSet::new();
    let mut alices = Vec::new();
    for at in 0..steps {
        let before = new_message_text(&app);
        let was_open = app.st.ui.compose.is_some();
        match fz.rng.u8(..100) {
            0..=69 => {
                let k = fz.key();
                step(&mut app, Msg::Key(k));
            }
            70..=74 => {
                let t = fz.text();
                step(&mut app, Msg::Paste(t));
            }
            75..=79 => fz.size = sizes[fz.rng.usize(..sizes.len())],
            80..=89 => {
                let cmd = COMMANDS[fz.rng.usize(..COMMANDS.len())];
                let args: Vec<String> = (0..fz.rng.usize(..3)).map(|_| fz.argument(&app)).collect();
                let line = format!("{cmd} {}", args.join(" "));
                step(&mut app, Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)));
                step(&mut app, Msg::Paste(line));
                step(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
            }
            _ => {
                // Another user: a message, a reaction, an edit of one of hers.
                let text = fz.text();
                match fz.rng.u8(..3) {
                    0 => {
                        let m = OutgoingMessage::channel(general, "fuzz", &text);
                        if let Ok(r) = alice.send_message(&m).await {
                            alices.push(r.id);
                        }
                    }
                    1 if !alices.is_empty() => {
                        let id = alices[fz.rng.usize(..alices.len())];
                        let _ = alice
                            .add_reaction(
                                id,
                                &EmojiSpec {
                                    emoji_name: Some("thumbs_up".into()),
                                    emoji_code: Some("1f44d".into()),
                                    reaction_type: Some("unicode_emoji".into()),
                                },
                            )
                            .await;
                    }
                    _ if !alices.is_empty() => {
                        let id = alices[fz.rng.usize(..alices.len())];
                        let edit = MessageEdit { content: Some(text), ..Default::default() };
                        let _ = alice.update_message(id, &edit).await;
                    }
                    _ => {}
                }
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
        if at % 8 == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            app.drain();
        }
        check_frame(&mut app, fz.size, at);
    }
    app.settle().await;
    check_frame(&mut app, (80, 24), steps);

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
    let lost: Vec<&String> = written
        .iter()
        .filter(|t| {
            !kept.iter().any(|k| k.contains(t.trim()) || t.contains(k.trim()) && !k.trim().is_empty())
        })
        .collect();
    assert!(lost.is_empty(), "seed {seed}: compose texts lost: {lost:?}");

    // The unread messages are the server's, once what is under way has landed (waited for, up
    // to a minute, as a busy machine may be slow).
    let unread = |app: &App| -> (BTreeSet<i64>, BTreeSet<i64>) {
        let org = app.server.shared.lock();
        let server = org.user_msgs[&me].iter().filter(|(_, f)| !f.read).map(|(id, _)| *id).collect();
        (app.st.data.unread.by_id.keys().copied().collect(), server)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while unread(&app).0 != unread(&app).1 && std::time::Instant::now() < deadline {
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
        "seed {seed}: unread here only {only_here:?}; unread on the server only {only_there:?}"
    );
}
