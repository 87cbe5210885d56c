//! The `:archive` backfill as the UI knows it: what a running one has still to fetch, what
//! `:archive stop` (or a failure) left, what the last session's had left to resume, and how
//! the last check of the archive against the server ended.
//!
//! Owned by `update/palette_settings.rs` (`:archive`), `update/local.rs` (the network task's
//! progress) and `update/register.rs`/`update/cache.rs` (resuming the last session's); the
//! status line reads it. Start with [`Backfill::start`].

use crate::app::msg::ArchiveCheck;
use crate::app::session::BackfillTarget;

/// The backfill's bookkeeping (see the module doc).
#[derive(Debug, Default)]
pub struct Backfill {
    /// What a running backfill has still to fetch, in order (empty: none runs); its progress
    /// is shown in the status line.
    running: Vec<BackfillTarget>,
    /// What the last session's backfill had still to fetch: started once the server answers.
    resume: Vec<BackfillTarget>,
    /// What `:archive stop` ended with still to fetch: `:archive` alone starts it again (each
    /// channel from where its record in the archive says it came to).
    stopped: Vec<BackfillTarget>,
    /// How the last check of the archive against the server ended (`Msg::ArchiveChecked`).
    checked: Option<Result<ArchiveCheck, String>>,
}

impl Backfill {
    /// What a running backfill has still to fetch (empty: none runs).
    pub fn running(&self) -> &[BackfillTarget] {
        &self.running
    }
    pub fn is_running(&self) -> bool {
        !self.running.is_empty()
    }
    /// What a session kept on this machine has still to fetch: the running one's, else what
    /// the last session left.
    pub fn to_keep(&self) -> Vec<BackfillTarget> {
        if self.running.is_empty() { self.resume.clone() } else { self.running.clone() }
    }
    /// `targets` start fetching; nothing stopped or left is resumed any more (no targets
    /// leave a running backfill alone).
    pub fn start(&mut self, targets: &[BackfillTarget]) {
        self.resume.clear();
        self.stopped.clear();
        if !targets.is_empty() {
            self.running = targets.to_vec();
        }
    }
    /// One of the running targets has all its history.
    pub fn done(&mut self, name: &str) {
        self.running.retain(|t| t.name != name);
    }
    /// The running backfill failed: what it had left waits for `:archive` alone.
    pub fn failed(&mut self) {
        self.stopped = std::mem::take(&mut self.running);
    }
    /// `:archive stop`: what was still to fetch (the last session's, when none ran yet) waits
    /// for `:archive` alone; whether there was any.
    pub fn stop(&mut self) -> bool {
        let left = if self.running.is_empty() {
            std::mem::take(&mut self.resume)
        } else {
            std::mem::take(&mut self.running)
        };
        self.resume.clear();
        let any = !left.is_empty();
        if any {
            self.stopped = left;
        }
        any
    }
    /// What `:archive` alone goes on with: what was stopped, else the last session's.
    pub fn take_to_resume(&mut self) -> Vec<BackfillTarget> {
        if self.stopped.is_empty() {
            std::mem::take(&mut self.resume)
        } else {
            std::mem::take(&mut self.stopped)
        }
    }
    /// The last session left `targets` to fetch: they go on once the server answers.
    pub fn resume_later(&mut self, targets: Vec<BackfillTarget>) {
        self.resume = targets;
    }
    /// The server answers: what the last session left, to start now unless one runs.
    pub fn take_left_by_last_session(&mut self) -> Vec<BackfillTarget> {
        if self.running.is_empty() { std::mem::take(&mut self.resume) } else { vec![] }
    }

    /// How the last check of the archive against the server ended.
    pub fn checked(&self) -> Option<&Result<ArchiveCheck, String>> {
        self.checked.as_ref()
    }
    pub fn check_ended(&mut self, result: Option<Result<ArchiveCheck, String>>) {
        self.checked = result;
    }
}
