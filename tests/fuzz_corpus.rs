//! Replays the fuzz corpora on stable: every file in `fuzz/corpus/<target>/` and
//! `fuzz/regressions/<target>/` goes through the same checks as the libFuzzer targets
//! (`fuzz/checks.rs`), so a regression of a fixed crash or a broken invariant fails CI without
//! a nightly toolchain. Run the fuzzers themselves with `fuzz/run.sh`.

#[path = "../fuzz/checks.rs"]
mod checks;

// The whole-app key fuzzer runs against the demo server.
#[cfg(feature = "demo")]
#[path = "../fuzz/keys.rs"]
mod keys;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else { continue };
        for e in entries {
            let path = e.expect("readable corpus directory").path();
            if path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Run every input, collect the failures with their file names, and fail once at the end.
fn replay(target: &str, check: fn(&[u8]), min_inputs: usize) {
    let files = inputs(target);
    assert!(files.len() >= min_inputs, "{target}: only {} corpus files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let data = std::fs::read(path).expect("readable corpus file");
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
            let msg = e
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| e.downcast_ref::<&str>().copied())
                .unwrap_or("(non-string panic)");
            failures.push(format!("{}: {msg}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{target}: {} of {} inputs fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn content_corpus() {
    replay("content", checks::content, 50);
}

#[test]
fn search_corpus() {
    replay("search", checks::search, 50);
}

#[test]
fn events_corpus() {
    replay("events", checks::events, 50);
}

/// Each input a fresh demo server and app driven by its actions (see `fuzz/keys.rs`).
#[cfg(feature = "demo")]
#[test]
fn keys_corpus() {
    replay("keys", keys::check, 30);
}

fn fails(f: impl FnOnce()) -> bool {
    catch_unwind(AssertUnwindSafe(f)).is_err()
}

/// The checks are not vacuous: output that breaks a promise fails them, and a well-behaved
/// input passes.
#[test]
fn checks_reject_violations() {
    use ratatui::text::Line;
    use serde_json::json;
    use topicterm::api::{Event, EventKind, NarrowTerm};
    use topicterm::ui::content::RenderedContent;

    let rendered = |lines: Vec<Line<'static>>| RenderedContent { lines, ..RenderedContent::default() };
    assert!(fails(|| checks::check_rendered(&rendered(vec![Line::from("x".repeat(11))]), 10)));
    assert!(fails(|| checks::check_rendered(&rendered(vec![Line::from("日本語日本語")]), 0)));
    assert!(fails(|| checks::check_rendered(&rendered(vec![Line::from("a\u{1b}[2J")]), 40)));
    assert!(fails(|| checks::check_rendered(&rendered(vec![Line::from("a\u{202e}b")]), 40)));
    assert!(fails(|| checks::check_rendered(&rendered(vec![Line::from(" "), Line::from("x")]), 40)));
    assert!(fails(|| checks::check_rendered(&rendered(vec![Line::from("x"), Line::from("")]), 40)));
    assert!(!fails(|| checks::check_rendered(&rendered(vec![Line::from("x".repeat(10))]), 3)));
    // The spoiler-leak oracle: where the sentinel may legitimately come from.
    let hidden = "<div class=\"spoiler-block\"><div class=\"spoiler-content\"><p>\u{E000}</p></div></div>";
    assert!(!checks::sentinel_outside_spoilers(hidden));
    assert!(!checks::sentinel_outside_spoilers("<p class=\"spoiler-content\" title=\"&#xE000;\">x</p>"));
    assert!(checks::sentinel_outside_spoilers(&format!("{hidden}<p>&#57344;</p>")));
    assert!(checks::sentinel_outside_spoilers(
        "<div class=\"spoiler-header\"><a href=\"/\u{E000}\">x</a></div>"
    ));
    assert!(checks::sentinel_outside_spoilers("<span class=\"emoji emoji-E000\">:x:</span>"));
    assert!(checks::sentinel_outside_spoilers("<html class=\"spoiler-content\">\u{E000}"));

    assert!(fails(|| checks::check_term(&NarrowTerm::new("bogus", 1), "q")));
    assert!(fails(|| checks::check_term(&NarrowTerm::new("sender", "alice"), "q")));
    assert!(fails(|| checks::check_term(&NarrowTerm::new("topic", ""), "q")));
    assert!(fails(|| checks::check_term(&NarrowTerm::new("search", "x").negate(), "q")));
    assert!(fails(|| checks::check_term(&NarrowTerm::new("dm", json!(["11"])), "q")));
    assert!(!fails(|| checks::check_term(&NarrowTerm::new("dm", json!([11, 12])).negate(), "q")));

    let ev = |id, kind| Event { id, kind };
    assert!(fails(|| checks::check_decoded(&ev(4, EventKind::Heartbeat), 3, "heartbeat")));
    assert!(fails(|| checks::check_decoded(&ev(3, EventKind::Heartbeat), 3, "message")));
    let unknown = |t: &str| EventKind::Unknown { event_type: t.into() };
    assert!(fails(|| checks::check_decoded(&ev(3, unknown("message")), 3, "message")));
    let malformed = |t: &str| EventKind::Malformed { event_type: t.into(), error: "e".into() };
    assert!(fails(|| checks::check_decoded(&ev(3, malformed("nope")), 3, "nope")));
    assert!(!fails(|| checks::check_decoded(&ev(3, unknown("nope")), 3, "nope")));
    assert!(!fails(|| checks::check_decoded(&ev(-1, malformed("typing")), -1, "typing")));

    #[cfg(feature = "demo")]
    {
        // The key fuzzer's: a drawn escape, bidi override or C1 control fails; wide and
        // combining characters pass.
        use ratatui::buffer::Buffer;
        use ratatui::layout::Rect;
        // Cells set one by one: ratatui's own `set_string` drops control characters itself.
        let drawn = |cells: &[&str]| {
            let mut buf = Buffer::empty(Rect::new(0, 0, 12, 2));
            for (x, c) in cells.iter().enumerate() {
                buf[(x as u16 + 3, 1)].set_symbol(c);
            }
            buf
        };
        assert!(fails(|| keys::check_buffer(&drawn(&["a", "\u{1b}", "[", "2", "J"]), "t")));
        assert!(fails(|| keys::check_buffer(&drawn(&["a", "\u{202e}b"]), "t")));
        assert!(fails(|| keys::check_buffer(&drawn(&["\u{9b}"]), "t")));
        assert!(fails(|| keys::check_buffer(&drawn(&["e\u{7}"]), "t")));
        assert!(!fails(|| keys::check_buffer(&drawn(&["嵐", " ", "e\u{301}", "👍🏽"]), "t")));
        // A compose text none of the kept texts holds is lost; one kept whole, trimmed, or
        // inside a longer text (edited on after sending) is not.
        let written: std::collections::BTreeSet<String> = ["draft one".into(), " hello \n".into()].into();
        let kept = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(keys::lost(&written, &kept(&["draft one"])), [" hello \n"]);
        assert_eq!(keys::lost(&written, &kept(&["", "  "])).len(), 2, "a blank text keeps nothing");
        assert!(keys::lost(&written, &kept(&["draft one, edited", "hello"])).is_empty());
    }
}
