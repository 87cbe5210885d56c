//! Which terminal answers, by XTVERSION (`CSI > 0 q`, answered `DCS > | name ST`): the one
//! thing the graphics probe cannot tell. ratatui-image draws kitty pictures as Unicode
//! placeholders, which kitty draws from 0.28 on; an older kitty answers the graphics probe all
//! the same and would show boxes, so it gets half-blocks.

use std::io::{Read, Write};
use std::time::Duration;

/// The first kitty that draws Unicode placeholders.
pub const PLACEHOLDERS_SINCE: (u32, u32, u32) = (0, 28, 0);

/// The query: XTVERSION, then a status report every terminal answers (`CSI 0 n`), which ends
/// the reading. Inside tmux the question goes to tmux and, passed through, to the terminal
/// outside it (tmux answers for itself).
pub fn query(in_tmux: bool) -> String {
    let mut q = String::from("\x1b[>0q");
    if in_tmux {
        q.push_str("\x1bPtmux;\x1b\x1b[>0q\x1b\\");
    }
    q.push_str("\x1b[5n");
    q
}

/// The names in the XTVERSION answers found in `input` ("kitty(0.26.5)", "tmux 3.3a").
pub fn names(input: &str) -> Vec<&str> {
    input
        .split("\x1bP>|")
        .skip(1)
        .filter_map(|rest| rest.find(['\x1b', '\x07']).map(|end| &rest[..end]))
        .collect()
}

/// The version of kitty among the answers: `kitty(0.26.5)`.
pub fn kitty_version(input: &str) -> Option<(u32, u32, u32)> {
    names(input).into_iter().find_map(|name| {
        let v = name.strip_prefix("kitty(")?.strip_suffix(')')?;
        let mut parts = v.split('.').map(|p| p.parse::<u32>().ok());
        Some((parts.next()??, parts.next().flatten().unwrap_or(0), parts.next().flatten().unwrap_or(0)))
    })
}

/// Whether the kitty that answered draws Unicode placeholders; `None` when no kitty answered
/// (the graphics probe decides alone).
pub fn kitty_draws_placeholders(input: &str) -> Option<bool> {
    kitty_version(input).map(|v| v >= PLACEHOLDERS_SINCE)
}

/// Ask the terminal (raw mode, before its events are read) and gather what it answers until
/// the status report, for at most `timeout`. `None`: no answer in time.
pub fn ask(in_tmux: bool, timeout: Duration) -> Option<String> {
    let mut out = std::io::stdout();
    out.write_all(query(in_tmux).as_bytes()).ok()?;
    out.flush().ok()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut buf = [0u8; 256];
        let mut stdin = std::io::stdin();
        while !String::from_utf8_lossy(&got).contains("\x1b[0n") {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
        let _ = tx.send(String::from_utf8_lossy(&got).into_owned());
    });
    rx.recv_timeout(timeout).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kitty_before_0_28_draws_no_placeholders() {
        assert_eq!(kitty_draws_placeholders("\x1bP>|kitty(0.26.5)\x1b\\\x1b[0n"), Some(false));
        assert_eq!(kitty_draws_placeholders("\x1bP>|kitty(0.28.0)\x1b\\\x1b[0n"), Some(true));
        assert_eq!(kitty_draws_placeholders("\x1bP>|kitty(0.35.2)\x1b\\\x1b[0n"), Some(true));
        assert_eq!(kitty_draws_placeholders("\x1bP>|kitty(1)\x07"), Some(true));
    }

    #[test]
    fn other_terminals_and_tmux_leave_it_to_the_graphics_probe() {
        assert_eq!(kitty_draws_placeholders("\x1bP>|tmux 3.3a\x1b\\\x1b[0n"), None);
        assert_eq!(kitty_draws_placeholders("\x1bP>|WezTerm 20240203\x1b\\\x1b[0n"), None);
        assert_eq!(kitty_draws_placeholders("\x1b[0n"), None);
        assert_eq!(kitty_draws_placeholders(""), None);
        // tmux answers for itself, and the kitty outside it through the passthrough.
        let both = "\x1bP>|tmux 3.3a\x1b\\\x1bP>|kitty(0.26.5)\x1b\\\x1b[0n";
        assert_eq!(names(both), ["tmux 3.3a", "kitty(0.26.5)"]);
        assert_eq!(kitty_draws_placeholders(both), Some(false));
    }

    #[test]
    fn a_garbled_answer_is_no_answer() {
        assert_eq!(kitty_version("\x1bP>|kitty(x.y)\x1b\\"), None);
        assert_eq!(kitty_version("\x1bP>|kitty(0.26.5"), None);
        assert_eq!(query(false), "\x1b[>0q\x1b[5n");
    }
}
