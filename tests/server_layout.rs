//! Layout rules of the demo server (issue 9), the crate topicterm-demo: none of its files is over
//! 1,000 lines. That it knows nothing of the client, Cargo enforces: it depends on topicterm-api
//! alone, and what both sides must agree on (`ReactionType`, the playground-template check, the
//! emoji table, escaping HTML) has its one home there. That none of its files is part of an
//! import cycle, `tests/layout.rs` checks with the rest of the workspace.

#[path = "support/imports.rs"]
mod imports;

use imports::{SourceFile, read_crate};
use std::path::{Path, PathBuf};

/// The demo server's `src/`, or another copy of it named by `SERVER_LAYOUT_ROOT` (to check an
/// old tree).
fn root() -> PathBuf {
    std::env::var_os("SERVER_LAYOUT_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/topicterm-demo/src"))
}

/// Every server source file.
fn server_files() -> Vec<SourceFile> {
    read_crate(&root(), &["server"])
}

#[test]
fn no_server_source_file_is_over_1000_lines() {
    let files = server_files();
    assert!(files.len() > 50, "every file is read: {}", files.len());
    for file in files {
        let code = file.text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
        let lines = code.lines().count();
        assert!(lines <= 1000, "{} has {lines} lines of non-test code", file.module.join("::"));
    }
}
