//! What this machine keeps of each account, in one place: where each of its files is (its
//! drafts and outbox, its last session, its archive — each named by `files::account_key`, one
//! name per account), moving what an older version kept under the names two accounts could
//! share, and removing them all (`topicterm logout`). Each file also names its account inside,
//! and is refused for any other: that is each kind's own (`net::drafts`, `net::cache`,
//! `archive::store`).

use crate::files::{Owner, account_key};
use crate::net::{cache, drafts};
use std::path::{Path, PathBuf};

/// The client's own folders for what it keeps: `$XDG_DATA_HOME/topicterm` (drafts, archives)
/// and `$XDG_CACHE_HOME/topicterm` (last sessions).
#[derive(Debug, Clone)]
pub struct Folders {
    pub data: PathBuf,
    pub cache: PathBuf,
}

impl Folders {
    /// The user's (`None`: no home folder).
    pub fn of_user() -> Option<Folders> {
        let dirs = directories::ProjectDirs::from("", "", "topicterm")?;
        Some(Folders { data: dirs.data_dir().to_owned(), cache: dirs.cache_dir().to_owned() })
    }

    /// The files of the account `email` on `site` (`demo` for the demo organization), as the
    /// site is written in its credentials.
    pub fn account(&self, email: &str, site: &str) -> AccountFiles {
        let owner = Owner::new(email, site);
        let key = account_key(&owner);
        let old = old_key(email, site);
        AccountFiles {
            drafts: self.data.join("drafts").join(&key),
            cache: self.cache.join(format!("{key}.json")),
            archive: archive_in(&self.data, &owner),
            old_drafts: self.data.join("drafts").join(&old),
            old_cache: self.cache.join(format!("{old}.json")),
            old_archive: self.data.join("archive").join(format!("{old}.db")),
            shared: shares_old_name(email),
            owner,
        }
    }
}

/// The archive file of `owner` in the data folder `data` (`$XDG_DATA_HOME/topicterm`).
pub fn archive_in(data: &Path, owner: &Owner) -> PathBuf {
    data.join("archive").join(format!("{}.db", account_key(owner)))
}

/// One account's files.
#[derive(Debug, Clone)]
pub struct AccountFiles {
    pub owner: Owner,
    /// Its drafts and its outbox, one file each (`net::drafts`).
    pub drafts: PathBuf,
    /// Its last session (`net::cache`).
    pub cache: PathBuf,
    /// Its archive of messages (`archive`), with SQLite's `-wal` and `-shm` beside it.
    pub archive: PathBuf,
    old_drafts: PathBuf,
    old_cache: PathBuf,
    old_archive: PathBuf,
    /// Why the old name may be another account's too (`shares_old_name`).
    shared: Option<String>,
}

/// The name older versions kept an account's files under: `email@site`, every character
/// but letters, digits, `@` and `.` made `_` — the same for `j-doe@x` and `j_doe@x`.
fn old_key(email: &str, site: &str) -> String {
    format!("{email}@{site}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '@' || c == '.' { c } else { '_' })
        .collect()
}

/// Why an account's old name may be another's too (`None`: it is this account's alone). The old
/// name kept the email's letters, digits, `.` and `@` and made every other character `_`, so an
/// email with any other (`j-doe`, `j_doe`, `j+doe`, `zoë`) shares its old name with others a
/// member of the same server may hold. (Two servers whose addresses differ only where the old
/// name wrote `_` — `https://a-b.example` and `https://a/b.example` — each with an account of
/// the same email on this machine, are not thought of.)
fn shares_old_name(email: &str) -> Option<String> {
    let changed: String =
        email.chars().filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '@' | '.'))).collect();
    (!changed.is_empty()).then(|| {
        format!("the email holds {changed:?}, which the old name made `_`: another account's email may have had the same name")
    })
}

/// What `migrate` did, or left and why, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moved {
    /// Kept under the old name, and moved to the new one.
    Moved { what: &'static str, from: PathBuf, to: PathBuf },
    /// Kept under the old name, and left there: not given to this account.
    Left { what: &'static str, path: PathBuf, why: String },
}

impl std::fmt::Display for Moved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Moved::Moved { what, from, to } => {
                write!(f, "{what} moved from {} to {}", from.display(), to.display())
            }
            Moved::Left { what, path, why } => {
                write!(f, "{what} kept by an older topicterm in {} left there: {why}", path.display())
            }
        }
    }
}

/// What `remove` removed, and what it left (another account's) and why.
#[derive(Debug, Default)]
pub struct Removed {
    pub archive: bool,
    pub session: bool,
    /// Drafts and messages of the outbox.
    pub drafts: usize,
    pub left: Vec<String>,
}

impl AccountFiles {
    /// Move what an older version kept of this account under its old name (`old_key`) to the
    /// new names, once (what is moved is gone from the old name): the last session when its
    /// stamp names this account; the drafts and outbox, and the archive, when the old name can
    /// have been no other account's (`shares_old_name`) — otherwise they are left where they
    /// are, for the log to say (their files do not say whose they are: a folder two accounts
    /// shared holds both's messages). What was done, for the log.
    pub fn migrate(&self) -> Vec<Moved> {
        let mut done = Vec::new();
        self.migrate_session(&mut done);
        let what = "drafts and unsent messages";
        if self.old_drafts.is_dir() {
            match &self.shared {
                Some(why) => done.push(self.left(what, &self.old_drafts, why.clone(), &self.drafts)),
                None => match drafts::adopt(&self.old_drafts, &self.drafts, &self.owner) {
                    Ok(left) if left.is_empty() => done.push(Moved::Moved {
                        what,
                        from: self.old_drafts.clone(),
                        to: self.drafts.clone(),
                    }),
                    Ok(left) => done.extend(left.into_iter().map(|path| {
                        Moved::Left {
                        what: "a file",
                        path,
                        why: "it is no draft, or a draft of the same conversation is kept under the new name"
                            .into(),
                    }
                    })),
                    Err(e) => {
                        done.push(Moved::Left { what, path: self.old_drafts.clone(), why: e.to_string() })
                    }
                },
            }
        }
        let what = "the archive of messages";
        if self.old_archive.is_file() {
            match &self.shared {
                Some(why) => done.push(self.left(what, &self.old_archive, why.clone(), &self.archive)),
                None if self.archive.exists() => done.push(Moved::Left {
                    what,
                    path: self.old_archive.clone(),
                    why: format!("{} is there already", self.archive.display()),
                }),
                None => done.push(match move_archive(&self.old_archive, &self.archive, &self.owner) {
                    Ok(()) => Moved::Moved { what, from: self.old_archive.clone(), to: self.archive.clone() },
                    Err(e) => Moved::Left { what, path: self.old_archive.clone(), why: e.to_string() },
                }),
            }
        }
        done
    }

    /// The last session under the old name: its stamp says whose it is.
    fn migrate_session(&self, done: &mut Vec<Moved>) {
        let what = "the last session";
        let Some((site, email)) = cache::stamped(&self.old_cache) else { return };
        if site != self.owner.site || email != self.owner.email {
            // Another account's: it is moved when that account starts.
            return;
        }
        let moved = if self.cache.exists() {
            // What this version kept since is newer.
            std::fs::remove_file(&self.old_cache).map(|()| None)
        } else {
            std::fs::rename(&self.old_cache, &self.cache).map(|()| Some(()))
        };
        match moved {
            Ok(Some(())) => {
                done.push(Moved::Moved { what, from: self.old_cache.clone(), to: self.cache.clone() })
            }
            Ok(None) => {}
            Err(e) => done.push(Moved::Left { what, path: self.old_cache.clone(), why: e.to_string() }),
        }
    }

    /// Left under an old name another account may share.
    fn left(&self, what: &'static str, path: &Path, why: String, new: &Path) -> Moved {
        let why = format!(
            "{why}; if they are {}'s, move them to {} by hand (or remove them)",
            self.owner,
            new.display()
        );
        Moved::Left { what, path: path.to_owned(), why }
    }

    /// Remove every file of this account's (`topicterm logout`): its archive, its last session,
    /// its drafts and outbox — only those that name this account; any other is left and said.
    /// What was kept under an old name is moved first where it is this account's alone
    /// (`migrate`), and what is left there said.
    pub fn remove(&self) -> Removed {
        let mut removed = Removed::default();
        for m in self.migrate() {
            if let Moved::Left { .. } = m {
                removed.left.push(m.to_string());
            }
        }
        match crate::archive::remove_for(&self.archive, &self.owner) {
            Ok(there) => removed.archive = there,
            Err(e) => removed.left.push(format!("the archive: {e}")),
        }
        match cache::remove(&self.cache, &self.owner.site, &self.owner.email) {
            Ok(there) => removed.session = there,
            Err(e) => removed.left.push(format!("the last session: {e}")),
        }
        match drafts::remove_all(&self.drafts, &self.owner) {
            Ok((n, left)) => {
                removed.drafts = n;
                for path in left {
                    removed.left.push(format!("{}: not a draft of {}", path.display(), self.owner));
                }
            }
            Err(e) => removed.left.push(format!("the drafts in {}: {e}", self.drafts.display())),
        }
        removed
    }
}

/// Move an archive (and SQLite's files beside it) to its new name, and name its account in
/// it. Nothing may have it open.
fn move_archive(old: &Path, new: &Path, owner: &Owner) -> std::io::Result<()> {
    use crate::archive::{BESIDE, beside};
    for suffix in BESIDE {
        let from = beside(old, suffix);
        if from.exists() {
            std::fs::rename(&from, beside(new, suffix))?;
        }
    }
    std::fs::rename(old, new)?;
    let store = crate::archive::store::open(new, owner).map_err(std::io::Error::other)?;
    store.close();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "http://127.0.0.1:9991";

    fn folders(root: &Path) -> Folders {
        Folders { data: root.join("data"), cache: root.join("cache") }
    }

    /// A draft as older versions wrote it: no account named.
    fn old_draft(dir: &Path, key: &str, text: &str) {
        std::fs::create_dir_all(dir).unwrap();
        let name: String = key.bytes().map(|b| format!("{b:02x}")).collect();
        std::fs::write(
            dir.join(format!("{name}.json")),
            serde_json::json!({"key": key, "text": text}).to_string(),
        )
        .unwrap();
    }

    fn snapshot() -> crate::app::session::Snapshot {
        crate::app::session::Snapshot::default()
    }

    #[test]
    fn the_old_name_was_shared_by_lookalike_emails_and_the_new_ones_are_not() {
        let f = folders(Path::new("/x"));
        let (a, b) = (f.account("j-doe@x.example", SITE), f.account("j_doe@x.example", SITE));
        assert_eq!(old_key("j-doe@x.example", SITE), old_key("j_doe@x.example", SITE));
        assert_eq!(a.old_drafts, b.old_drafts);
        assert_ne!(a.drafts, b.drafts);
        assert_ne!(a.cache, b.cache);
        assert_ne!(a.archive, b.archive);
        assert!(a.shared.is_some() && b.shared.is_some());
        assert!(f.account("jdoe@x.example", SITE).shared.is_none());
    }

    #[test]
    fn what_an_older_version_kept_moves_once_when_it_can_be_only_this_accounts() {
        let root = tempfile::tempdir().unwrap();
        let f = folders(root.path());
        let me = f.account("member@x.example", SITE);
        old_draft(&me.old_drafts, "outbox-1", "sent later");
        // An archive as older versions wrote it: its account not named in it.
        let store = crate::archive::store::open(&me.old_archive, &me.owner).unwrap();
        store.conn().execute("DELETE FROM meta WHERE key IN ('site', 'email')", []).unwrap();
        drop(store);
        let done = me.migrate();
        assert_eq!(done.len(), 2, "{done:?}");
        assert!(done.iter().all(|m| matches!(m, Moved::Moved { .. })), "{done:?}");
        assert_eq!(drafts::load(&me.drafts, &me.owner)["outbox-1"], "sent later");
        assert!(!me.old_drafts.exists() && !me.old_archive.exists());
        assert_eq!(crate::archive::store::owner_of(&me.archive).unwrap(), Some(me.owner.clone()));
        assert!(me.migrate().is_empty(), "once");
    }

    #[test]
    fn an_old_name_two_accounts_could_share_is_given_to_neither_and_its_files_stay() {
        let root = tempfile::tempdir().unwrap();
        let f = folders(root.path());
        let (a, b) = (f.account("j-doe@x.example", SITE), f.account("j_doe@x.example", SITE));
        old_draft(&a.old_drafts, "outbox-1", "a DM j_doe wrote");
        for files in [&a, &b] {
            let done = files.migrate();
            assert_eq!(done.len(), 1, "{done:?}");
            assert!(
                matches!(&done[0], Moved::Left { why, .. } if why.contains("another account") && why.contains("by hand")),
                "{done:?}"
            );
            assert!(drafts::load(&files.drafts, &files.owner).is_empty());
        }
        assert!(a.old_drafts.exists(), "not deleted");
    }

    #[test]
    fn the_last_session_goes_to_the_account_its_stamp_names_whatever_its_old_name() {
        let root = tempfile::tempdir().unwrap();
        let f = folders(root.path());
        let (a, b) = (f.account("j-doe@x.example", SITE), f.account("j_doe@x.example", SITE));
        cache::save(&b.old_cache, &b.owner.site, &b.owner.email, &snapshot()).unwrap();
        assert!(a.migrate().is_empty(), "j_doe's is not j-doe's");
        assert!(b.old_cache.exists());
        assert_eq!(b.migrate().len(), 1);
        assert!(cache::load(&b.cache, &b.owner.site, &b.owner.email).is_ok());
        assert!(!a.cache.exists());
    }

    #[test]
    fn logging_out_removes_every_file_of_the_account_and_only_its_own() {
        let root = tempfile::tempdir().unwrap();
        let f = folders(root.path());
        let (a, b) = (f.account("j-doe@x.example", SITE), f.account("j_doe@x.example", SITE));
        for files in [&a, &b] {
            drafts::save(&files.drafts, &files.owner, "outbox-1", "unsent").unwrap();
            drop(crate::archive::store::open(&files.archive, &files.owner).unwrap());
            cache::save(&files.cache, &files.owner.site, &files.owner.email, &snapshot()).unwrap();
        }
        let removed = a.remove();
        assert!(removed.archive && removed.session && removed.drafts == 1, "{removed:?}");
        assert!(removed.left.is_empty(), "{:?}", removed.left);
        assert!(!a.drafts.exists() && !a.cache.exists() && !a.archive.exists());
        assert!(b.drafts.exists() && b.cache.exists() && b.archive.exists(), "the other account's stay");
    }
}
