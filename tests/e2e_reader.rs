//! End to end, the screen-reader mode (issue 39): the real binary with `--demo
//! --screen-reader` in tmux. Where tmux says the terminal's cursor is (`#{cursor_x},#{cursor_y}`)
//! must be the start of the selected row of every pane and of a popup, and `j` must rewrite no
//! more rows than the two whose selection changed and the status row — counted in the bytes the
//! binary wrote (`pipe-pane`), by the rows its cursor-position escapes go to.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "support/tmux.rs"]
mod tmux;
use tmux::Tmux;

const W: u16 = 100;
const H: u16 = 30;

/// Where the terminal's cursor is and whether it is shown.
fn cursor(t: &Tmux) -> (u16, u16, bool) {
    let out = t.cmd(&["display-message", "-p", "-t", &t.session, "#{cursor_x},#{cursor_y},#{cursor_flag}"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Vec<&str> = text.trim().split(',').collect();
    (v[0].parse().unwrap(), v[1].parse().unwrap(), v.get(2) == Some(&"1"))
}

/// The screen's rows with their attributes (`capture-pane -e`).
fn styled_rows(t: &Tmux) -> Vec<String> {
    let out = t.cmd(&["capture-pane", "-p", "-e", "-t", &t.session]);
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

/// The rows drawn in reverse video: the selection's.
fn reversed(t: &Tmux) -> Vec<u16> {
    styled_rows(t).iter().enumerate().filter(|(_, r)| r.contains("\x1b[7m")).map(|(i, _)| i as u16).collect()
}

/// Row `y` as plain text.
fn row(t: &Tmux, y: u16) -> String {
    t.screen().lines().nth(y as usize).unwrap_or("").to_owned()
}

/// Wait until the cursor is shown at the start of the one selected row, a row other than
/// `not` (the one before a move); that row.
fn cursor_on_selection(t: &Tmux, what: &str, not: Option<u16>) -> u16 {
    let start = Instant::now();
    loop {
        let (x, y, shown) = cursor(t);
        let sel = reversed(t);
        if shown && x == 0 && sel == vec![y] && Some(y) != not {
            return y;
        }
        if start.elapsed() > Duration::from_secs(30) {
            panic!(
                "{what}: the cursor is at ({x}, {y}) shown {shown}, the selected rows are {sel:?}; screen:\n{}",
                t.screen()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Press `key` and wait until the cursor has followed the selection to another row.
fn press(t: &Tmux, key: &str, what: &str) -> u16 {
    let before = cursor(t).1;
    t.keys(&[key]);
    cursor_on_selection(t, &format!("{what} after {key}"), Some(before))
}

/// The rows (from 0) that cursor-position escapes (`CSI row ; col H`) in `bytes` go to.
fn rows_addressed(bytes: &[u8]) -> BTreeSet<u16> {
    let mut rows = BTreeSet::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == 0x1b && bytes[i + 1] == b'[' {
            let mut j = i + 2;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b';') {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b'H' {
                let params = String::from_utf8_lossy(&bytes[i + 2..j]);
                let r = params.split(';').next().and_then(|r| r.parse::<u16>().ok()).unwrap_or(1);
                rows.insert(r.saturating_sub(1));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    rows
}

fn start(name: &str, home: &Path) -> Tmux {
    let t = Tmux::new(name);
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let command = format!(
        "HOME={h} XDG_STATE_HOME={h}/state XDG_DATA_HOME={h}/data XDG_CACHE_HOME={h}/cache {bin} --demo --screen-reader",
        h = home.display()
    );
    t.start_sized(&command, W, H);
    let messages = |s: &str| s.starts_with("Messages in All messages") && s.contains(", in ");
    let s = t.wait_for("the messages or the home view", |s| messages(s) || s.starts_with("Inbox: "));
    // The demo user's Zulip home view is the inbox (the reference's default): it opens over
    // the messages at a first start, and is closed as the user does.
    if s.starts_with("Inbox: ") {
        t.keys(&["Escape"]);
        t.wait_for("the messages, one column", messages);
    }
    t
}

#[test]
fn the_cursor_follows_the_selection_in_every_pane_and_a_popup() {
    let home = tempfile::tempdir().unwrap();
    let t = start("reader-cursor", home.path());
    let s = t.screen();
    assert!(!s.chars().any(|c| ('\u{2500}'..='\u{259F}').contains(&c)), "no box drawing:\n{s}");

    // Messages: the selected message's first row, which says who wrote it.
    cursor_on_selection(&t, "the first frame", None);
    for key in ["k", "k", "j"] {
        let y = press(&t, key, "messages");
        assert!(row(&t, y).contains(", in "), "a message's first row: {}", row(&t, y));
    }

    // Channels, then a channel's topics.
    t.keys(&["h"]);
    t.wait_for("the channels pane", |s| s.starts_with("Channels"));
    cursor_on_selection(&t, "the channels pane", None);
    for key in ["j", "j", "k"] {
        press(&t, key, "channels");
    }
    for _ in 0..40 {
        if row(&t, cursor(&t).1).starts_with("channel engineering") {
            break;
        }
        press(&t, "j", "down to engineering");
    }
    assert!(row(&t, cursor(&t).1).starts_with("channel engineering"), "{}", t.screen());
    t.keys(&["Enter"]);
    t.wait_for("its topics", |s| s.contains("topics shown") && s.contains("\ntopic "));
    t.keys(&["h"]);
    t.wait_for("the channels pane", |s| s.starts_with("Channels"));
    cursor_on_selection(&t, "the channels pane with topics", None);
    let y = press(&t, "j", "topics");
    assert!(row(&t, y).starts_with("topic "), "the cursor on a topic: {}", row(&t, y));

    // People.
    t.keys(&["w"]);
    t.wait_for("the people pane", |s| s.starts_with("People"));
    cursor_on_selection(&t, "the people pane", None);
    for key in ["j", "j", "k"] {
        let y = press(&t, key, "people");
        assert!(
            row(&t, y).contains(", active")
                || row(&t, y).contains(", offline")
                || row(&t, y).contains(", idle")
        );
    }

    // The help popup: the start of its first row of text.
    t.keys(&["?"]);
    t.wait_for("the help popup", |s| s.starts_with("Help, keys (esc to close)"));
    let start = Instant::now();
    loop {
        let (x, y, shown) = cursor(&t);
        let text = row(&t, y);
        if shown && text.get(x as usize..).is_some_and(|r| r.starts_with("Commands:")) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "cursor at ({x}, {y}) in the help:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    t.keys(&["Escape"]);
    t.wait_for("the help closed", |s| !s.contains("keys (esc to close)"));

    // The palette: after what is typed, on the status row.
    t.keys(&[":"]);
    t.text("he");
    t.wait_for("the palette", |s| s.contains("Command: he"));
    let start = Instant::now();
    while cursor(&t) != (11, H - 1, true) {
        assert!(start.elapsed() < Duration::from_secs(30), "cursor at {:?} in the palette", cursor(&t));
        std::thread::sleep(Duration::from_millis(50));
    }
    t.keys(&["Escape", "q"]);
}

#[test]
fn j_rewrites_the_two_rows_whose_selection_changed_and_the_status_row_at_most() {
    let home = tempfile::tempdir().unwrap();
    let t = start("reader-rows", home.path());
    cursor_on_selection(&t, "the first frame", None);
    // Up three messages (each read as it is selected), so that `j` comes back to one on screen.
    for _ in 0..3 {
        press(&t, "k", "messages");
    }
    let before = styled_rows(&t);
    let log = home.path().join("written");
    let out = t.cmd(&["pipe-pane", "-o", "-t", &t.session, &format!("cat >> {}", log.display())]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let y = press(&t, "j", "messages");
    // Until what moved the cursor there is in the file too.
    let wanted = format!("\x1b[{};1H", y + 1);
    let start = Instant::now();
    while !std::fs::read(&log).is_ok_and(|b| String::from_utf8_lossy(&b).contains(&wanted)) {
        assert!(start.elapsed() < Duration::from_secs(30), "the frame after j never reached the log");
        std::thread::sleep(Duration::from_millis(50));
    }
    t.cmd(&["pipe-pane", "-t", &t.session]);
    let written = std::fs::read(&log).unwrap();
    let rows = rows_addressed(&written);
    let after = styled_rows(&t);
    let differ: Vec<usize> =
        (0..before.len().max(after.len())).filter(|&i| before.get(i) != after.get(i)).collect();
    let others: Vec<u16> = rows.iter().copied().filter(|r| *r != H - 1).collect();
    assert!(
        !others.is_empty() && others.len() <= 2,
        "j rewrote rows {rows:?} ({} bytes; rows that look different: {differ:?}):\n{}",
        written.len(),
        t.screen()
    );
    t.keys(&["q"]);
}

/// A list popup (`:scheduled`) reads as rows of words, and the terminal's cursor is on its
/// selected row before and after `j` — not where the old frame's first reversed cell was.
#[test]
fn the_cursor_is_on_the_selected_row_of_a_list_popup() {
    let home = tempfile::tempdir().unwrap();
    let t = start("reader-popup", home.path());
    cursor_on_selection(&t, "the first frame", None);
    t.keys(&[":"]);
    t.text("scheduled");
    t.keys(&["Enter"]);
    let s = t.wait_for("the scheduled messages", |s| s.starts_with("Scheduled messages, 3: "));
    assert!(!s.chars().any(|c| ('\u{2500}'..='\u{259F}').contains(&c)), "no box drawing:\n{s}");
    let first = cursor_on_selection(&t, "the scheduled messages", None);
    assert_eq!(first, 1, "the first message, under the heading:\n{}", t.screen());
    assert!(
        row(&t, first).starts_with("to channel support topic SSO login loop for Acme, "),
        "{}",
        t.screen()
    );
    // A long item wraps onto the rows below it (issue 51.13): the second item starts on the
    // first row after the first item's words, and that is where the cursor goes.
    let second = press(&t, "j", "the scheduled messages");
    let starts = (first + 1..H)
        .find(|&y| row(&t, y).starts_with("to channel engineering topic release 2.4 planning, "))
        .unwrap_or_else(|| panic!("no row starts the second item:\n{}", t.screen()));
    assert_eq!(second, starts, "the cursor is on the second item's first row:\n{}", t.screen());
    t.keys(&["Escape", "q"]);
}
