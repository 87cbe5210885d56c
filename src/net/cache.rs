//! The last session on this machine: one file per account, written atomically, stamped with
//! the server, the account and the format, so that a cache of another server, account or
//! version of topicterm is never shown. Four lines: the stamp; what the first screen needs;
//! the users (megabytes in a large organization) and the user groups, which are read after
//! the first frame.

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
    /// its own; `then` runs on it once the session is read (start-up's other work that the
    /// first frame does not need: making the connection pool).
    pub fn read(path: PathBuf, site: String, email: String, then: impl FnOnce() + Send + 'static) -> Early {
        let (tx, rx) = oneshot::channel();
        let spawned = std::thread::Builder::new().name("kept-session".into()).spawn(move || {
            let began = std::time::Instant::now();
            let read = load(&path, &site, &email);
            tracing::debug!(target: "topicterm::start", "the last session read in {:?}", began.elapsed());
            drop(tx.send(read));
            then();
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
/// a second line; 4: the stamp on a line of its own, so that checking it reads only it; 5: the
/// user groups on a line of their own after the users).
pub const FORMAT: u32 = 5;

/// The first line. (Files before format 4 hold the snapshot in it too: their stamp is still
/// read, and refused for its format; so is a stamp of format 4.)
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

/// Whom the session kept in `path` is for, as its stamp says (site, email): `None` when there
/// is none or its first line is no stamp.
pub fn stamped(path: &Path) -> Option<(String, String)> {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(std::fs::File::open(path).ok()?).read_line(&mut line).ok()?;
    let stamp: Stamp = serde_json::from_str(&line).ok()?;
    Some((stamp.site.into_owned(), stamp.email.into_owned()))
}

/// Why the file in `path` is not to be written over or removed for this account: it is
/// another's (`None`: it is this account's, or there is none, or it is unreadable — a torn
/// file is no one's).
fn foreign(path: &Path, site: &str, email: &str) -> Option<String> {
    let (s, e) = stamped(path)?;
    (s != site || e != email).then(|| format!("{} is kept for {e} on {s}: left as it is", path.display()))
}

/// Remove the session kept for this server and account (`:forget`, `topicterm logout`): true
/// when there was one; another account's is left.
pub fn remove(path: &Path, site: &str, email: &str) -> std::io::Result<bool> {
    if let Some(why) = foreign(path, site, email) {
        return Err(std::io::Error::other(why));
    }
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// The file the last session is kept in, shared by the tasks that write it, until `:forget`
/// removes it and nothing more is kept that session.
#[derive(Clone, Default)]
pub struct Keeper(Arc<Mutex<Option<PathBuf>>>);

impl Keeper {
    pub fn new(path: PathBuf) -> Keeper {
        Keeper(Arc::new(Mutex::new(Some(path))))
    }

    /// The file, while the session is kept.
    pub fn path(&self) -> Option<PathBuf> {
        self.0.lock().ok()?.clone()
    }

    /// Write the session (`keep`), unless it was forgotten; a removal waits for a write begun.
    pub fn keep(&self, site: &str, email: &str, snapshot: &Snapshot) {
        if let Ok(path) = self.0.lock()
            && let Some(path) = path.as_ref()
        {
            keep(path, site, email, snapshot);
        }
    }

    /// Remove the file and keep nothing more: the file removed, if there was one.
    pub fn forget(&self, site: &str, email: &str) -> Result<Option<PathBuf>, (PathBuf, std::io::Error)> {
        let Ok(mut path) = self.0.lock() else { return Ok(None) };
        let Some(file) = path.take() else { return Ok(None) };
        match remove(&file, site, email) {
            Ok(true) => Ok(Some(file)),
            Ok(false) => Ok(None),
            Err(e) => Err((file, e)),
        }
    }
}

/// Write the session for this server and account (temp file + rename: never a torn file).
/// A file there that is another account's is left as it is.
pub fn save(path: &Path, site: &str, email: &str, snapshot: &Snapshot) -> std::io::Result<()> {
    if let Some(why) = foreign(path, site, email) {
        return Err(std::io::Error::other(why));
    }
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
    body.push(b'\n');
    match &snapshot.groups {
        Some(groups) => serde_json::to_writer(&mut body, groups)?,
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

/// The session kept for this server and account, if there is one this version can show. The
/// lines the first screen needs are read and parsed; the users and groups after them are read
/// as text, to be parsed after the first frame.
pub fn load(path: &Path, site: &str, email: &str) -> Result<Snapshot, String> {
    use std::io::{BufRead, Read};
    let faulty = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut file =
        std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path).map_err(|e| faulty(&e))?);
    let mut line = String::new();
    file.read_line(&mut line).map_err(|e| faulty(&e))?;
    let stamp: Stamp = serde_json::from_str(&line).map_err(|e| faulty(&e))?;
    if stamp.format != FORMAT || stamp.version != env!("CARGO_PKG_VERSION") {
        return Err(format!("written by topicterm {} (format {})", stamp.version, stamp.format));
    }
    if stamp.site != site || stamp.email != email {
        return Err(format!("kept for {} on {}", stamp.email, stamp.site));
    }
    let mut first = String::new();
    file.read_line(&mut first).map_err(|e| faulty(&e))?;
    let mut snapshot = serde_json::from_str::<Snapshot>(&first).map_err(|e| faulty(&e))?;
    drop(first);
    // Read (and checked) after the first frame.
    let mut users = String::new();
    file.read_to_string(&mut users).map_err(|e| faulty(&e))?;
    let groups = match users.find('\n') {
        Some(end) => {
            let groups = users[end + 1..].trim().to_owned();
            users.truncate(end);
            groups
        }
        None => String::new(),
    };
    snapshot.users = later(users);
    snapshot.groups = later(groups);
    Ok(snapshot)
}

/// A list's JSON text kept to be read later: the text itself, not a copy (megabytes).
fn later<T>(mut text: String) -> Option<crate::api::Later<T>> {
    text.truncate(text.trim_end().len());
    (!text.trim_start().is_empty()).then(|| crate::api::Later::Json(text.into_boxed_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> Snapshot {
        Snapshot::default()
    }

    #[test]
    fn another_accounts_session_is_neither_written_over_nor_removed_and_a_forgotten_one_stays_gone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("s.json");
        let site = "https://chat.example.com";
        save(&file, site, "j_doe@example.com", &empty()).unwrap();
        assert!(save(&file, site, "j-doe@example.com", &empty()).is_err(), "not written over");
        assert!(remove(&file, site, "j-doe@example.com").is_err(), "nor removed");
        assert!(remove(&file, "https://other.example.com", "j_doe@example.com").is_err());
        assert_eq!(stamped(&file), Some((site.to_owned(), "j_doe@example.com".to_owned())));
        let keeper = Keeper::new(file.clone());
        assert_eq!(keeper.forget(site, "j_doe@example.com").unwrap(), Some(file.clone()));
        assert!(!file.exists());
        keeper.keep(site, "j_doe@example.com", &empty());
        assert!(!file.exists() && keeper.path().is_none(), "nothing more is kept");
    }

    /// The users and the user groups are kept on lines of their own, after what the first
    /// screen needs, and read back as they were written.
    #[test]
    fn the_users_and_groups_are_kept_apart_and_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("member.json");
        let users: Vec<crate::api::User> = serde_json::from_value(serde_json::json!([
            {"user_id": 1, "full_name": "Ann Lee", "email": "ann@a"},
            {"user_id": 2, "full_name": "Bo", "email": "bo@a"},
        ]))
        .unwrap();
        let groups: Vec<crate::api::UserGroup> = serde_json::from_value(serde_json::json!([
            {"id": 7, "name": "backend", "description": "", "members": [1, 2], "direct_subgroup_ids": []},
        ]))
        .unwrap();
        let snapshot = Snapshot {
            users: Some(users.clone().into()),
            groups: Some(groups.clone().into()),
            ..Snapshot::default()
        };
        save(&file, "https://a.example", "me@a", &snapshot).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let first = text.lines().next().unwrap();
        assert!(first.contains("\"format\":5") && !first.contains("register"), "{first}");
        let second = text.lines().nth(1).unwrap();
        assert!(!second.contains("Ann Lee") && !second.contains("backend"), "users and groups apart");
        assert!(text.lines().nth(2).unwrap().contains("Ann Lee"), "the users on the third line");
        assert!(text.lines().nth(3).unwrap().contains("backend"), "the groups on the fourth");
        let back = load(&file, "https://a.example", "me@a").unwrap();
        assert!(matches!(back.users, Some(crate::api::Later::Json(_))), "not read yet");
        assert!(matches!(back.groups, Some(crate::api::Later::Json(_))), "not read yet");
        assert_eq!(back.users.unwrap().read(), users);
        assert_eq!(back.groups.unwrap().read(), groups);
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
