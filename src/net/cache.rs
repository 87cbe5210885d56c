//! The last session on this machine: one file per account, written atomically, stamped with
//! the server, the account and the format, so that a cache of another server, account or
//! version of topicterm is never shown. Three lines: the stamp; what the first screen needs;
//! the users (megabytes in a large organization), which are read after the first frame.

use crate::app::session::Snapshot;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// The last session being read while the rest of start-up goes on (the client, the terminal),
/// so that the first frame is drawn from it as soon as the main loop runs. Taken once; an
/// organization opened again reads it again (`Effect::LoadCache`).
#[derive(Clone, Default)]
pub struct Early(Arc<Mutex<Option<Reading>>>);

/// The session read, or why none is shown.
pub type Reading = oneshot::Receiver<Result<Snapshot, String>>;

impl Early {
    /// Start reading the session kept in `path` for this server and account, on a thread of
    /// its own.
    pub fn read(path: PathBuf, site: String, email: String) -> Early {
        let (tx, rx) = oneshot::channel();
        let spawned = std::thread::Builder::new().name("kept-session".into()).spawn(move || {
            let began = std::time::Instant::now();
            let read = load(&path, &site, &email);
            tracing::debug!(target: "topicterm::start", "the last session read in {:?}", began.elapsed());
            drop(tx.send(read))
        });
        match spawned {
            Ok(_) => Early(Arc::new(Mutex::new(Some(rx)))),
            Err(e) => {
                tracing::warn!("the last session is read later: {e}");
                Early::default()
            }
        }
    }

    /// The reading, the first time it is asked for.
    pub fn take(&self) -> Option<Reading> {
        self.0.lock().ok()?.take()
    }
}

/// Bumped whenever what a `Snapshot` holds changes meaning (2: the open narrow and the windows
/// of the narrows opened last, instead of the open narrow's terms and messages; 3: the users on
/// a second line; 4: the stamp on a line of its own, so that checking it reads only it).
pub const FORMAT: u32 = 4;

/// The first line. (Files before format 4 hold the snapshot in it too: their stamp is still
/// read, and refused for its format.)
#[derive(Serialize, Deserialize)]
struct Stamp<'a> {
    format: u32,
    #[serde(borrow)]
    version: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    site: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    email: std::borrow::Cow<'a, str>,
}

/// Write the session for this server and account (temp file + rename: never a torn file).
pub fn save(path: &Path, site: &str, email: &str, snapshot: &Snapshot) -> std::io::Result<()> {
    let mut body = serde_json::to_vec(&Stamp {
        format: FORMAT,
        version: env!("CARGO_PKG_VERSION").into(),
        site: site.into(),
        email: email.into(),
    })?;
    // JSON written by serde_json holds no line break of its own.
    body.push(b'\n');
    serde_json::to_writer(&mut body, snapshot)?;
    body.push(b'\n');
    match &snapshot.users {
        Some(users) => serde_json::to_writer(&mut body, users)?,
        None => body.extend_from_slice(b"[]"),
    }
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
    let faulty = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let body = std::fs::read_to_string(path).map_err(|e| faulty(&e))?;
    let (stamp, rest) = body.split_once('\n').unwrap_or((&body, ""));
    let stamp: Stamp = serde_json::from_str(stamp).map_err(|e| faulty(&e))?;
    if stamp.format != FORMAT || stamp.version != env!("CARGO_PKG_VERSION") {
        return Err(format!("written by topicterm {} (format {})", stamp.version, stamp.format));
    }
    if stamp.site != site || stamp.email != email {
        return Err(format!("kept for {} on {}", stamp.email, stamp.site));
    }
    let (snapshot, users) = rest.split_once('\n').unwrap_or((rest, ""));
    let mut snapshot = serde_json::from_str::<Snapshot>(snapshot).map_err(|e| faulty(&e))?;
    // Read (and checked) after the first frame.
    let users = users.trim();
    snapshot.users = (!users.is_empty()).then(|| crate::api::Later::Json(users.into()));
    Ok(snapshot)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The users are kept on a line of their own, after what the first screen needs, and read
    /// back as they were written.
    #[test]
    fn the_users_are_kept_apart_and_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("member.json");
        let users: Vec<crate::api::User> = serde_json::from_value(serde_json::json!([
            {"user_id": 1, "full_name": "Ann Lee", "email": "ann@a"},
            {"user_id": 2, "full_name": "Bo", "email": "bo@a"},
        ]))
        .unwrap();
        let snapshot = Snapshot {
            register: Default::default(),
            open: crate::app::Narrow::All,
            selected: None,
            windows: vec![],
            messages: vec![],
            users: Some(users.clone().into()),
        };
        save(&file, "https://a.example", "me@a", &snapshot).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let first = text.lines().next().unwrap();
        assert!(first.contains("\"format\":4") && !first.contains("register"), "{first}");
        assert!(!text.lines().nth(1).unwrap().contains("Ann Lee"), "the users on a line of their own");
        let back = load(&file, "https://a.example", "me@a").unwrap();
        assert!(matches!(back.users, Some(crate::api::Later::Json(_))), "not read yet");
        assert_eq!(back.users.unwrap().read(), users);
        assert!(load(&file, "https://b.example", "me@a").is_err(), "another server's is not shown");
    }

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
