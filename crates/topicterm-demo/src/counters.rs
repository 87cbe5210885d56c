//! The organization's ID counters, kept across restarts beside the key secret (issue 51: a
//! restarted server was seeded afresh and gave a new message an ID it had already given, 454,
//! so a client put it among older messages and kept showing ones the server no longer had).
//!
//! The demo server keeps its organization in memory, so a restart loses the messages; what it
//! keeps is where its counters stood, so that no ID is ever given to a second message (or
//! channel, draft, scheduled message…). The seed's people, channels and groups are made again
//! with the IDs they had, since the seed makes them the same way (and their keys come from the
//! secret); the seed's messages are posted again under new IDs, past every one an earlier run
//! gave. To a client, a restart is the organization's old messages deleted and the seed's
//! posted anew: what it held under the old IDs is gone from the server, and nothing new takes
//! their IDs.
//!
//! A run reserves [`BLOCK`] IDs of each kind ahead of what it has used, in the file, before it
//! gives any: a server killed without a chance to write still leaves a file past every ID it
//! gave. One that reaches the end of its reservation writes a further one first.

use std::path::{Path, PathBuf};

/// The file, in the data folder beside `demo-server.secret`.
pub const FILE: &str = "demo-server.ids";

/// How many IDs of each kind a run reserves at a time.
pub const BLOCK: i64 = 1_000_000;

/// Where the counters may start: past every ID an earlier run gave (or reserved).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Floors {
    pub messages: i64,
    pub others: i64,
}

/// Read the floors from `path`; none yet (a first start) is all zeros. A file that is not
/// the server's own is refused with what to do rather than read as zeros, which would give
/// old IDs again.
pub fn load(path: &Path) -> anyhow::Result<Floors> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Floors::default()),
        Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
    };
    let mut floors = (None, None);
    for line in text.lines() {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim().parse::<i64>().ok().filter(|v| *v >= 0);
        match key {
            "messages" => floors.0 = value,
            "others" => floors.1 = value,
            _ => {}
        }
    }
    match floors {
        (Some(messages), Some(others)) => Ok(Floors { messages, others }),
        _ => anyhow::bail!(
            "{} is not the demo server's record of its IDs: delete it only together with every \
             client's saved data for this server",
            path.display()
        ),
    }
}

/// The IDs this run has reserved in its file.
#[derive(Debug, Clone)]
pub struct Reservation {
    path: PathBuf,
    /// Every ID below these is this run's to give; the file says these.
    until: Floors,
    block: i64,
}

impl Reservation {
    /// Reserve `block` IDs of each kind past `next` (what the run gives next), in the file at
    /// `path` (mode 0600, written whole and then renamed over the old one).
    pub fn reserve(path: &Path, next: Floors, block: i64) -> anyhow::Result<Reservation> {
        let mut r = Reservation { path: path.to_owned(), until: next, block };
        r.extend(next)?;
        Ok(r)
    }

    /// Before an ID at or past the reservation is given: reserve further.
    pub fn covers(&mut self, next: Floors) -> anyhow::Result<()> {
        if next.messages < self.until.messages && next.others < self.until.others {
            return Ok(());
        }
        self.extend(next)
    }

    fn extend(&mut self, next: Floors) -> anyhow::Result<()> {
        let until = Floors {
            messages: next.messages.max(self.until.messages) + self.block,
            others: next.others.max(self.until.others) + self.block,
        };
        write_private(&self.path, &format!("messages {}\nothers {}\n", until.messages, until.others))?;
        self.until = until;
        Ok(())
    }
}

fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        topicterm_api::files::private_folder(dir)?;
    }
    let tmp = path.with_extension("ids.tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", tmp.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reservation_is_written_before_it_is_used_and_extended_past_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        assert_eq!(load(&path).unwrap(), Floors::default(), "a first start");
        let mut r = Reservation::reserve(&path, Floors { messages: 100, others: 40 }, 10).unwrap();
        assert_eq!(load(&path).unwrap(), Floors { messages: 110, others: 50 });
        r.covers(Floors { messages: 109, others: 49 }).unwrap();
        assert_eq!(load(&path).unwrap(), Floors { messages: 110, others: 50 }, "still inside");
        r.covers(Floors { messages: 110, others: 41 }).unwrap();
        assert_eq!(load(&path).unwrap(), Floors { messages: 120, others: 60 });
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }

    #[test]
    fn a_file_that_is_not_the_record_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        std::fs::write(&path, "messages 12\n").unwrap();
        assert!(load(&path).is_err());
        std::fs::write(&path, "messages -1\nothers 3\n").unwrap();
        assert!(load(&path).is_err());
    }
}
