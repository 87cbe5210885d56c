//! Drafts on disk: one JSON file per draft key in the account's folder, written atomically
//! (temp file + rename) so a crash or `kill -9` leaves either the old or the new text, never a
//! torn file. The outbox's messages are drafts too (`outbox-…`). Each file names the account it
//! belongs to (`files::Owner`); one that names another account, or none, is refused: not read,
//! not written over, not removed — only logged.

use crate::files::Owner;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize)]
struct Stored {
    key: String,
    text: String,
    /// Whose it is (files written before drafts named their account have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email: Option<String>,
}

impl Stored {
    fn owner(&self) -> Option<Owner> {
        Some(Owner { site: self.site.clone()?, email: self.email.clone()? })
    }
}

fn file(dir: &Path, key: &str) -> PathBuf {
    let name: String = key.bytes().map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{name}.json"))
}

/// A draft file read: `None` when there is none or it cannot be read as one.
fn read(path: &Path) -> Option<Stored> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Why a file of the folder is not this account's (`None`: it is, or there is none).
fn foreign(path: &Path, owner: &Owner) -> Option<String> {
    let stored = read(path)?;
    match stored.owner() {
        Some(o) if o == *owner => None,
        Some(o) => Some(format!("it is kept for {o}")),
        None => Some("it names no account".to_owned()),
    }
}

/// The error for a file that is another account's.
fn refused(path: &Path, why: &str) -> std::io::Error {
    std::io::Error::other(format!("{} is not this account's draft ({why}): left as it is", path.display()))
}

/// Save a draft of `owner`'s; empty text removes it. A file there of another account is left.
pub fn save(dir: &Path, owner: &Owner, key: &str, text: &str) -> std::io::Result<()> {
    let path = file(dir, key);
    if let Some(why) = foreign(&path, owner) {
        return Err(refused(&path, &why));
    }
    if text.trim().is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let stored = Stored {
        key: key.to_owned(),
        text: text.to_owned(),
        site: Some(owner.site.clone()),
        email: Some(owner.email.clone()),
    };
    crate::files::write_atomic(&path, &serde_json::to_vec(&stored)?)
}

/// Every readable draft of `owner`'s in the folder. Unreadable files are skipped, and files of
/// another account (or of none) are logged and left: neither is fatal.
pub fn load(dir: &Path, owner: &Owner) -> HashMap<String, String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return HashMap::new() };
    let mut out = HashMap::new();
    for path in entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")) {
        let Some(stored) = read(&path) else { continue };
        match stored.owner() {
            Some(o) if o == *owner => drop(out.insert(stored.key, stored.text)),
            Some(o) => tracing::warn!("{} is kept for {o}, not {owner}: not read", path.display()),
            None => tracing::warn!("{} names no account: not read as {owner}'s", path.display()),
        }
    }
    out
}

/// Remove every draft of `owner`'s in the folder, and the folder once it is empty (`:forget`,
/// `topicterm logout`): how many were removed, and the files left (another account's, or
/// none's, or not drafts), which keep the folder.
pub fn remove_all(dir: &Path, owner: &Owner) -> std::io::Result<(usize, Vec<PathBuf>)> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, Vec::new())),
        Err(e) => return Err(e),
    };
    let (mut removed, mut left) = (0, Vec::new());
    for path in entries.flatten().map(|e| e.path()) {
        if read(&path).and_then(|s| s.owner()).is_some_and(|o| o == *owner) {
            std::fs::remove_file(&path)?;
            removed += 1;
        } else {
            left.push(path);
        }
    }
    if left.is_empty() {
        std::fs::remove_dir(dir)?;
    }
    Ok((removed, left))
}

/// Give `owner` the drafts an older version kept in `old` (files naming no account): each is
/// written into `new` naming its account, then removed from `old`, and `old` goes once it is
/// empty. A draft of the same key already in `new` is kept and the old one left (unless it is
/// the same text); files that are not drafts are left. The files left are returned.
pub fn adopt(old: &Path, new: &Path, owner: &Owner) -> std::io::Result<Vec<PathBuf>> {
    let mut left = Vec::new();
    for path in std::fs::read_dir(old)?.flatten().map(|e| e.path()) {
        let Some(stored) = read(&path).filter(|s| s.owner().is_none_or(|o| o == *owner)) else {
            left.push(path);
            continue;
        };
        let there = read(&file(new, &stored.key));
        match there {
            Some(t) if t.text != stored.text => left.push(path),
            Some(_) => std::fs::remove_file(&path)?,
            None => {
                save(new, owner, &stored.key, &stored.text)?;
                std::fs::remove_file(&path)?;
            }
        }
    }
    if left.is_empty() {
        std::fs::remove_dir(old)?;
    }
    Ok(left)
}

/// What the drafts' writer is asked, in order.
enum Job {
    Save(String, String),
    /// Remove the account's drafts and keep nothing more (`:forget`): answered with how many
    /// were removed, or the folder and why not.
    Forget(std::sync::mpsc::Sender<Forgotten>),
}

/// The drafts removed by `:forget` (how many), or the folder and why they could not be.
pub type Forgotten = Result<usize, (PathBuf, std::io::Error)>;

/// Writes one account's drafts in the order asked (a save then a removal of the same key must
/// not swap), on a thread of its own that first reads the ones there (`Msg::DraftsLoaded`).
pub struct Writer {
    jobs: Option<std::sync::mpsc::Sender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    /// Keep `owner`'s drafts in `dir`; what is read and what fails is told through `tx`.
    pub fn start(
        dir: PathBuf,
        owner: Owner,
        tx: tokio::sync::mpsc::UnboundedSender<crate::app::Msg>,
    ) -> Writer {
        use crate::app::{Failure, Job as Done, Msg};
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let thread = std::thread::spawn(move || {
            let _ = tx.send(Msg::DraftsLoaded(load(&dir, &owner)));
            let mut kept = true;
            for job in queue {
                match job {
                    Job::Save(key, text) if kept => {
                        if let Err(error) = save(&dir, &owner, &key, &text) {
                            let failure = Failure::File { path: dir.clone(), error };
                            let _ = tx.send(Msg::Done { job: Done::SaveDraft, result: Err(failure) });
                        }
                    }
                    Job::Save(..) => {}
                    Job::Forget(done) => {
                        kept = false;
                        let _ = done.send(match remove_all(&dir, &owner) {
                            Ok((n, left)) => {
                                for path in left {
                                    tracing::warn!("{} is not {owner}'s draft: left", path.display());
                                }
                                Ok(n)
                            }
                            Err(e) => Err((dir.clone(), e)),
                        });
                    }
                }
            }
        });
        Writer { jobs: Some(jobs), thread: Some(thread) }
    }

    /// Save a draft (empty text removes it).
    pub fn save(&self, key: String, text: String) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job::Save(key, text));
        }
    }

    /// A handle that asks the writer to forget (`Forgetter::forget`), from a task of its own.
    pub fn forgetter(&self) -> Forgetter {
        Forgetter(self.jobs.clone())
    }
}

/// Asks a [`Writer`] to forget.
pub struct Forgetter(Option<std::sync::mpsc::Sender<Job>>);

impl Forgetter {
    /// Remove the account's drafts once what was asked before is written, and keep nothing
    /// more; blocking (at most 30 s).
    pub fn forget(self) -> Forgotten {
        let (tx, rx) = std::sync::mpsc::channel();
        if self.0.as_ref().is_none_or(|j| j.send(Job::Forget(tx)).is_err()) {
            return Ok(0);
        }
        rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap_or(Ok(0))
    }
}

impl Drop for Writer {
    /// Drafts asked for reach the disk before the process goes.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(email: &str) -> Owner {
        Owner::new(email, "https://chat.example.com")
    }

    #[test]
    fn each_draft_names_its_account_and_another_accounts_is_neither_read_nor_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let (mine, theirs) = (owner("j-doe@example.com"), owner("j_doe@example.com"));
        save(dir.path(), &theirs, "outbox-1", "a DM only j_doe wrote").unwrap();
        save(dir.path(), &mine, "dm:7", "my own draft").unwrap();
        let text = std::fs::read_to_string(file(dir.path(), "dm:7")).unwrap();
        assert!(text.contains("j-doe@example.com") && text.contains("https://chat.example.com"), "{text}");
        let loaded = load(dir.path(), &mine);
        assert_eq!(loaded.len(), 1, "{loaded:?}");
        assert_eq!(loaded["dm:7"], "my own draft");
        // Neither written over nor removed for another account.
        assert!(save(dir.path(), &mine, "outbox-1", "mine now").is_err());
        assert!(save(dir.path(), &mine, "outbox-1", "").is_err());
        assert_eq!(load(dir.path(), &theirs)["outbox-1"], "a DM only j_doe wrote");
        // Files an older version wrote name no one: not read as anyone's.
        std::fs::write(file(dir.path(), "old"), r#"{"key":"old","text":"whose?"}"#).unwrap();
        assert!(!load(dir.path(), &mine).contains_key("old"));
        let (removed, left) = remove_all(dir.path(), &mine).unwrap();
        assert_eq!((removed, left.len()), (1, 2), "only this account's draft goes");
        assert!(dir.path().exists(), "the others keep the folder");
        let (removed, left) = remove_all(dir.path(), &theirs).unwrap();
        assert_eq!((removed, left.len()), (1, 1));
    }

    #[test]
    fn drafts_of_an_older_version_are_given_to_their_account_once() {
        let root = tempfile::tempdir().unwrap();
        let (old, new) = (root.path().join("old"), root.path().join("new"));
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(file(&old, "a"), r#"{"key":"a","text":"first"}"#).unwrap();
        std::fs::write(file(&old, "b"), r#"{"key":"b","text":"older"}"#).unwrap();
        std::fs::write(old.join("stray.txt"), "not a draft").unwrap();
        let me = owner("me@example.com");
        save(&new, &me, "b", "newer").unwrap();
        let left = adopt(&old, &new, &me).unwrap();
        assert_eq!(left.len(), 2, "the stray file and the draft whose key is taken: {left:?}");
        let loaded = load(&new, &me);
        assert_eq!((loaded["a"].as_str(), loaded["b"].as_str()), ("first", "newer"));
        assert!(!file(&old, "a").exists(), "moved, not copied");
        std::fs::remove_file(old.join("stray.txt")).unwrap();
        std::fs::remove_file(file(&old, "b")).unwrap();
        assert!(adopt(&old, &new, &me).unwrap().is_empty());
        assert!(!old.exists(), "the old folder goes once empty");
    }
}
