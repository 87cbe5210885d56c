//! Terminal-level input and drawing of the real binary (`--demo`) in tmux: bursts of typed
//! input, bracketed paste, and graphemes the terminal draws as one cell pair.

#[path = "support/tmux.rs"]
mod tmux;

use std::process::Command;
use std::time::{Duration, Instant};
use tmux::Tmux;
#[path = "support/drafts.rs"]
mod drafts;
use drafts::wait_for_draft;

/// Start the binary in its own HOME, with a scripted `$EDITOR` that records how many bytes it
/// was given and replaces the text.
fn launch(name: &str) -> (Tmux, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let editor = home.path().join("editor.sh");
    let saw = home.path().join("editor-saw");
    std::fs::write(
        &editor,
        format!("#!/bin/sh\nwc -c < \"$1\" > {}\nprintf 'written in the editor' > \"$1\"\n", saw.display()),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&editor).status().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new(name);
    t.start(&format!(
        "HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state XDG_CONFIG_HOME={h}/config EDITOR={e} {bin} --demo",
        h = home.path().display(),
        e = editor.display()
    ));
    t.wait_for_messages();
    (t, home)
}

/// 2,100 characters typed in one burst all reach the compose box (crossterm's edge-triggered
/// reader used to keep all but the first 1,024 bytes until the next key), and a key pressed after
/// the burst runs without waiting for another.
#[test]
fn a_burst_of_typing_arrives_whole_and_the_next_key_runs_at_once() {
    let (t, home) = launch("burst");
    t.keys(&["r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    let text: String = (0..2100).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    t.text(&text);
    wait_for_draft(home.path(), "the whole burst in the draft", |d| d == text);
    t.keys(&["C-o"]);
    t.wait_for("the edited text", |s| {
        s.contains("written in the editor") && s.contains("taken back from the editor")
    });
    let saw = std::fs::read_to_string(home.path().join("editor-saw")).unwrap();
    assert_eq!(saw.trim(), "2100", "the editor was given the whole text");
}

/// A bracketed paste arrives as one piece: newlines stay newlines in the compose box (they are
/// not enter presses), and in a prompt line they become spaces instead of submitting it.
#[test]
fn a_bracketed_paste_arrives_whole() {
    let (t, home) = launch("paste");
    let paste = |text: &str| {
        assert!(t.cmd(&["set-buffer", "-b", "p", text]).status.success());
        assert!(t.cmd(&["paste-buffer", "-p", "-b", "p", "-t", "paste"]).status.success());
    };
    // Into the search prompt: one line, not submitted.
    t.keys(&["/"]);
    t.wait_for("the search prompt", |s| s.contains("Search"));
    paste("channel:engineering\nflaky");
    t.wait_for("the pasted search", |s| s.contains("channel:engineering flaky"));
    t.keys(&["Enter"]);
    t.wait_for("search results", |s| s.contains("Search: channel:engineering flaky") && s.contains("arm64"));

    // Into the compose box: several lines, longer than one read of the terminal.
    t.keys(&["r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    let lines: Vec<String> =
        (0..30).map(|i| format!("line {i:02} of the pasted text, {}", "x".repeat(40))).collect();
    let text = lines.join("\n");
    paste(&text);
    wait_for_draft(home.path(), "the paste in the draft", |d| d == text);
}

/// Press `G` until the last message of #engineering (which ends in a flag) is on screen: the
/// narrow may still be loading when the first press arrives.
fn to_the_end(t: &Tmux) {
    let start = Instant::now();
    loop {
        t.keys(&["G"]);
        std::thread::sleep(Duration::from_millis(300));
        let s = t.screen();
        if s.contains("Norway problem") && s.contains('\u{1F1F4}') {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the flag never came into sight:\n{s}");
    }
}

/// A regional-indicator pair is one grapheme to ratatui (two cells) but two characters to
/// terminals such as tmux: when the flag leaves the screen both of its cells must be cleared,
/// or a lone "🇴" stays behind (also under the compose box drawn over it).
#[test]
fn a_flag_is_cleared_as_one() {
    let (t, _home) = launch("flag");
    t.keys(&["/"]);
    t.line("channel:engineering");
    t.wait_for("the channel", |s| s.contains("Search: channel:engineering"));
    to_the_end(&t);
    t.keys(&["/"]);
    t.line("topic:\"deprecating v1 API\"");
    // Its last message on screen: the results are drawn (the search's text shows in the prompt
    // before Enter is read, over the channel's view with the flag still in it).
    let s = t.wait_for("the topic", |s| {
        s.contains("Search: topic:\"deprecating v1 API\"") && s.contains("Will do, Sam.")
    });
    assert!(!s.contains('\u{1F1F4}') && !s.contains('\u{1F1F3}'), "a stray regional indicator:\n{s}");
    // Back to the flag, then a compose box over it.
    t.keys(&["/"]);
    t.line("channel:engineering");
    t.wait_for("the channel again", |s| s.contains("Search: channel:engineering"));
    to_the_end(&t);
    t.keys(&["r"]);
    // The frame that drew the compose box over the flag is the one to look at.
    let s = t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    let lone = s.lines().filter(|l| l.contains('\u{1F1F4}') && !l.contains("Norway")).count();
    assert_eq!(lone, 0, "a stray regional indicator:\n{s}");
}
