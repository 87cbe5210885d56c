//! The connection and the session's bookkeeping: whether the first register answer is in,
//! whether the server is out of reach (and when it is tried again), whether a request waits
//! long for its answer, whether what is shown is the last session's from this machine, the cold
//! start's first page, a refused account, and quitting.
//!
//! Owned by the answers of the server and the network task's reports (`update/connection.rs`,
//! `update/register.rs`, `update/cache.rs`, `update/cold_start.rs`, `update/answers.rs`); the
//! rest of the app and the view only read it. It knows no `State`: start with
//! [`Connection::went_offline`] and [`Connection::registered`].

use crate::api::{Event, MessageId, MessagesResponse};
use crate::app::narrow::Narrow;

/// The connection is down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offline {
    pub why: String,
    /// When the next attempt happens (UNIX seconds).
    pub retry_at: i64,
    /// Failed register attempts in a row (drives the backoff).
    pub attempts: u32,
    /// A register is due at `retry_at` (the poller retries by itself).
    pub register_due: bool,
}

/// The first page of a cold start, asked for at the same moment as register: its answer held
/// until the register answer is in, the register's newest message ID (to see whether the page
/// was taken before the queue existed), and the events held until the page is in.
#[derive(Debug, Default)]
pub struct FirstPage {
    pub narrow: Narrow,
    /// The epoch the page was asked with (its window's, once one is made for it).
    pub epoch: u64,
    /// The page, arrived before the register answer.
    pub page: Option<MessagesResponse>,
    /// The register answer is in (its `max_message_id`, -1 when it had none).
    pub registered: Option<MessageId>,
    /// The messages after the page were asked for (it was taken before the queue existed).
    pub gap_asked: bool,
    /// Event batches that arrived while the page (or the gap after it) was still out.
    pub held: Vec<Vec<Event>>,
}

/// The connection and the session's bookkeeping (see the module doc).
#[derive(Debug, Default)]
pub struct Connection {
    /// True until the first register answer arrives.
    loading: bool,
    /// Set while the server cannot be reached.
    offline: Option<Offline>,
    /// Since when (the app's clock) a request that should take a moment has waited for the
    /// server's answer, once that is seconds: the status line says so.
    unanswered_since: Option<i64>,
    /// What is shown is the last session's, from this machine: not yet current.
    from_cache: bool,
    /// The session is to be written to this machine once the open narrow's first page is in.
    cache_due: bool,
    /// The first page, asked for together with register, until it and the register answer
    /// are both in (see `update::cold_start`).
    first_page: Option<Box<FirstPage>>,
    /// The user's home view (`web_home_view`) is still to open, at the server's first answer:
    /// the config names no first view.
    home_due: bool,
    /// The server refused the account, and why: the organization is closed (its screen says
    /// how to reopen it) until it is reopened; printed after the terminal is restored.
    fatal: Option<String>,
    /// While closed: how to fix the account and reopen the organization, line by line.
    reopen: Vec<String>,
    quit: bool,
}

impl Connection {
    /// The first register answer is not in yet.
    pub fn loading(&self) -> bool {
        self.loading
    }
    /// A register is asked for (at start, on reopening): "connecting" until it is answered.
    pub fn connecting(&mut self) {
        self.loading = true;
    }
    /// The register was answered, or failed: the organization is no longer "connecting".
    pub fn loaded(&mut self) {
        self.loading = false;
    }

    pub fn offline(&self) -> Option<&Offline> {
        self.offline.as_ref()
    }
    pub fn is_offline(&self) -> bool {
        self.offline.is_some()
    }
    /// The server is out of reach: `why`, tried again at `retry_at`.
    pub fn went_offline(&mut self, offline: Offline) {
        self.offline = Some(offline);
    }
    /// The server answers again; whether it had been out of reach.
    pub fn back_online(&mut self) -> bool {
        self.offline.take().is_some()
    }
    /// The retry of a register is due at `now`: taken (once).
    pub fn register_due(&mut self, now: i64) -> bool {
        match &mut self.offline {
            Some(o) if o.register_due && now >= o.retry_at => {
                o.register_due = false;
                true
            }
            _ => false,
        }
    }

    pub fn unanswered_since(&self) -> Option<i64> {
        self.unanswered_since
    }
    /// Some request has waited since `since` for its answer (`None`: every one is answered).
    pub fn unanswered(&mut self, since: Option<i64>) {
        self.unanswered_since = since;
    }

    /// What is shown is the last session's, from this machine.
    pub fn from_cache(&self) -> bool {
        self.from_cache
    }
    /// The last session was read from this machine: shown until the server answers; its
    /// home view is not opened over it, and it is not written back before it is current.
    pub fn shown_from_cache(&mut self) {
        self.from_cache = true;
        self.cache_due = false;
        self.home_due = false;
    }
    /// The server's register answer is in: what is shown is current (whether it was the
    /// last session's is returned), and the session is kept once its first page is in when
    /// `keep` says so.
    pub fn registered(&mut self, keep: bool) -> bool {
        self.loading = false;
        self.cache_due = keep;
        std::mem::take(&mut self.from_cache)
    }
    /// The session is to be written to this machine (the next time the open narrow's first
    /// page is in): taken once.
    pub fn take_cache_due(&mut self) -> bool {
        std::mem::take(&mut self.cache_due)
    }
    pub fn cache_due(&self) -> bool {
        self.cache_due
    }

    /// A cold start: the user's home view opens at the server's first answer unless the
    /// config names a first view.
    pub fn home_view_due(&mut self, due: bool) {
        self.home_due = due;
    }
    /// The home view is to open now: taken once.
    pub fn take_home_due(&mut self) -> bool {
        std::mem::take(&mut self.home_due)
    }

    pub fn first_page(&self) -> Option<&FirstPage> {
        self.first_page.as_deref()
    }
    pub fn first_page_mut(&mut self) -> Option<&mut FirstPage> {
        self.first_page.as_deref_mut()
    }
    /// The first page is asked for with register.
    pub fn await_first_page(&mut self, page: FirstPage) {
        self.first_page = Some(Box::new(page));
    }
    /// The first page is done with (applied, or forgotten with a failed register).
    pub fn take_first_page(&mut self) -> Option<FirstPage> {
        self.first_page.take().map(|f| *f)
    }

    /// Why the server refused the account, while the organization is closed.
    pub fn fatal(&self) -> Option<&str> {
        self.fatal.as_deref()
    }
    /// How to fix the account and reopen the organization, line by line.
    pub fn reopen(&self) -> &[String] {
        &self.reopen
    }
    /// The server refused the account: the organization closes, its screen says `why` and
    /// `how` to reopen it; nothing is retried.
    pub fn refused(&mut self, why: String, how: Vec<String>) {
        self.fatal = Some(why);
        self.reopen = how;
        self.offline = None;
        self.loading = false;
    }

    /// The user asked to quit.
    pub fn quit(&mut self) {
        self.quit = true;
    }
    pub fn quitting(&self) -> bool {
        self.quit
    }
}
