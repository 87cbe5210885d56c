//! How the binary draws pictures in a terminal that answers as kitty does: a kitty before 0.28
//! (which draws no Unicode placeholders, so its pictures would be boxes) gets half-blocks, a
//! later one kitty graphics. The terminal is `support/fake_terminal.py` on a pseudo-terminal.

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// The binary (`--demo`) in a fake kitty of `version` (with the fake terminal's `options`),
/// with its own HOME; its log says which graphics it chose.
fn start_in_kitty(version: &str, options: &[&str], home: &Path) -> Child {
    Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/fake_terminal.py"))
        .arg(version)
        .args(options)
        .args(["--", "env"])
        .arg(format!("HOME={}", home.display()))
        .arg(format!("XDG_STATE_HOME={}/state", home.display()))
        .arg(format!("XDG_DATA_HOME={}/data", home.display()))
        .arg(format!("XDG_CONFIG_HOME={}/config", home.display()))
        .args(["TERM=xterm-kitty", "TMUX=", "TOPICTERM_LOG=topicterm=info"])
        .args([env!("CARGO_BIN_EXE_topicterm"), "--demo"])
        .spawn()
        .expect("python3 runs the fake terminal")
}

/// The log's line naming the graphics chosen, once it is written (the start-up probe is done).
fn graphics_chosen(home: &Path) -> String {
    let log = home.join("state/topicterm/topicterm.log");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("images: ") {
            return text;
        }
        assert!(Instant::now() < deadline, "no graphics chosen within a minute; log:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn run(version: &str, options: &[&str]) -> String {
    let home = tempfile::tempdir().unwrap();
    let mut child = start_in_kitty(version, options, home.path());
    let log = graphics_chosen(home.path());
    // SIGTERM: the fake terminal takes the binary with it.
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let _ = child.wait();
    log
}

#[test]
fn kitty_before_0_28_gets_half_blocks_and_a_later_one_kitty_graphics() {
    let old = run("0.26.5", &[]);
    assert!(
        old.contains("kitty 0.26.5 draws no Unicode placeholders (0.28 and later do): half-blocks"),
        "{old}"
    );
    assert!(old.contains("images: half-blocks"), "{old}");
    let new = run("0.35.2", &[]);
    assert!(new.contains("images: kitty"), "{new}");
    assert!(!new.contains("draws no Unicode placeholders"), "{new}");
}

/// The first frame does not wait for the graphics query: a terminal that answers only once
/// the screen shows "Connecting" (the first frame's text while the organization is asked for)
/// still gets its answer read. Asked before the first frame, the query would go unanswered for
/// its whole second and the binary would fall back to half-blocks.
#[test]
fn the_first_frame_is_drawn_before_the_terminal_is_asked_for_its_graphics() {
    let log = run("0.35.2", &["--answer-after", "Connecting"]);
    assert!(log.contains("images: kitty"), "{log}");
    assert!(!log.contains("did not say which graphics"), "{log}");
}
