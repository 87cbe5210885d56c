//! The last session on this machine: one file per account, written atomically, stamped with
//! the server, the account and the format, so that a cache of another server, account or
//! version of topicterm is never shown.

use crate::app::session::Snapshot;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Bumped whenever what a `Snapshot` holds changes meaning (2: the open narrow and the windows
/// of the narrows opened last, instead of the open narrow's terms and messages).
pub const FORMAT: u32 = 2;

#[derive(Serialize)]
struct Stamped<'a> {
    format: u32,
    version: &'a str,
    site: &'a str,
    email: &'a str,
    snapshot: &'a Snapshot,
}

#[derive(Deserialize)]
struct Stamp {
    format: u32,
    version: String,
    site: String,
    email: String,
}

#[derive(Deserialize)]
struct Loaded {
    snapshot: Snapshot,
}

/// Write the session for this server and account (temp file + rename: never a torn file).
pub fn save(path: &Path, site: &str, email: &str, snapshot: &Snapshot) -> std::io::Result<()> {
    let body = serde_json::to_vec(&Stamped {
        format: FORMAT,
        version: env!("CARGO_PKG_VERSION"),
        site,
        email,
        snapshot,
    })?;
    crate::files::write_atomic(path, &body)
}

/// Write the session, or log why it could not be (a cache that is not written costs only the
/// next start's head start: nothing for the user to act on).
pub fn keep(path: &Path, site: &str, email: &str, snapshot: &Snapshot) {
    if let Err(e) = save(path, site, email, snapshot) {
        tracing::warn!("could not keep the session in {}: {e}", path.display());
    }
}

/// The session kept for this server and account, if there is one this version can show.
pub fn load(path: &Path, site: &str, email: &str) -> Result<Snapshot, String> {
    let body = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let stamp: Stamp = serde_json::from_slice(&body).map_err(|e| format!("{}: {e}", path.display()))?;
    if stamp.format != FORMAT || stamp.version != env!("CARGO_PKG_VERSION") {
        return Err(format!("written by topicterm {} (format {})", stamp.version, stamp.format));
    }
    if stamp.site != site || stamp.email != email {
        return Err(format!("kept for {} on {}", stamp.email, stamp.site));
    }
    serde_json::from_slice::<Loaded>(&body)
        .map(|l| l.snapshot)
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the earlier format (the open narrow's terms and messages) is refused, never
    /// read as if it were of this one.
    #[test]
    fn a_file_of_another_format_is_ignored_not_misread() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("member.json");
        let old = serde_json::json!({
            "format": 1, "version": env!("CARGO_PKG_VERSION"), "site": "https://a.example", "email": "me@a",
            "snapshot": {"register": {}, "narrow": [], "messages": [], "found_newest": true, "found_oldest": true},
        });
        std::fs::write(&file, old.to_string()).unwrap();
        let err = load(&file, "https://a.example", "me@a").unwrap_err();
        assert!(err.contains("format 1"), "{err}");
    }
}
