//! The scripting subcommands — `topicterm send`, `tail`, `unread` and `search` — for shell
//! scripts, cron jobs, CI steps and status bars, on the same accounts and keyring as the client.
//!
//! `common.rs` holds what they share: the one table of exit statuses (`Exit`, shown by each
//! one's `--help` and listed in the README), the `-a`/`-c`/`--json` flags, failures in words,
//! standard output that ends quietly when its reader goes away. The credentials are read by
//! `main.rs`, as for the client, and handed over here.

pub mod common;
pub mod lines;
pub mod search;
pub mod send;
pub mod tail;
pub mod unread;

pub use common::{Common, EXIT_HELP, EXIT_STATUSES, Exit};
pub use search::SearchArgs;
pub use send::SendArgs;
pub use tail::TailArgs;
pub use unread::UnreadArgs;

use crate::api::Credentials;
use std::path::PathBuf;

/// A scripting subcommand, as parsed.
#[derive(Debug, Clone)]
pub enum Script {
    Send(SendArgs),
    Tail(TailArgs),
    Unread(UnreadArgs),
    Search(SearchArgs),
}

impl Script {
    /// Its account flags, else the top-level ones.
    pub fn account(
        &self,
        zuliprc: Option<PathBuf>,
        account: Option<String>,
    ) -> (Option<PathBuf>, Option<String>) {
        match self {
            Script::Send(a) => a.common.or(zuliprc, account),
            Script::Tail(a) => a.common.or(zuliprc, account),
            Script::Unread(a) => a.common.or(zuliprc, account),
            Script::Search(a) => a.common.or(zuliprc, account),
        }
    }

    /// Run it with these credentials (or why there are none); its exit status.
    pub async fn run(self, creds: anyhow::Result<Credentials>) -> i32 {
        let mut out = common::Out::new();
        let (name, json, result) = match self {
            Script::Send(a) => {
                let json = a.common.json;
                ("send", json, send::run(a, creds, &mut out).await)
            }
            Script::Tail(a) => {
                let json = a.common.json;
                ("tail", json, tail::run(a, creds, &mut out).await)
            }
            Script::Search(a) => {
                let json = a.common.json;
                ("search", json, search::run(a, creds, &mut out).await)
            }
            // Quiet on failure: it says why only when asked to.
            Script::Unread(a) => return unread::run(a, creds, &mut out).await,
        };
        match result {
            Ok(()) => Exit::Done.code(),
            Err(f) => common::report(name, json, &f),
        }
    }
}
