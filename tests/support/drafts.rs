//! The drafts a client under test keeps on disk (`$XDG_DATA_HOME`), waited for by the tmux tests.

use std::path::Path;
use std::time::{Duration, Instant};

/// Every draft saved on disk under `dir`, as text.
fn drafts_on_disk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(drafts_on_disk(&p));
        } else if p.extension().is_some_and(|x| x == "json")
            && let Ok(v) = serde_json::from_slice::<serde_json::Value>(&std::fs::read(&p).unwrap_or_default())
            && let Some(text) = v["text"].as_str()
        {
            out.push(text.to_owned());
        }
    }
    out
}

/// Wait until a draft on disk satisfies `pred`; fail showing what is there.
pub fn wait_for_draft(home: &Path, what: &str, pred: impl Fn(&str) -> bool) {
    let start = Instant::now();
    loop {
        let drafts = drafts_on_disk(&home.join("data"));
        if drafts.iter().any(|d| pred(d)) {
            return;
        }
        if start.elapsed() > Duration::from_secs(15) {
            let lens: Vec<usize> = drafts.iter().map(|d| d.chars().count()).collect();
            panic!("timed out waiting for {what}; drafts on disk have lengths {lens:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}
