//! Messages read, told to the server in batches with `--low-bandwidth` (issue 39): reading
//! a message at a time costs an answer to its `POST /messages/flags` and the
//! `update_message_flags` event it sends back to this client's queue (about half a kilobyte, most
//! of the bytes of reading), so the messages read within `BATCH_DELAY` of the first go in one
//! request (`Dispatcher::run` sends it). The app has marked them read already (counts everywhere
//! at once); what is pending is sent before the process goes (`Dispatcher::shutdown`).

use crate::api::{Client, Flag, MessageId};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long the first message read waits for the others.
pub const BATCH_DELAY: Duration = Duration::from_secs(2);

/// The messages read and not yet sent, and whether a send is due.
#[derive(Default, Clone)]
pub(super) struct Reads {
    pending: Arc<Mutex<(Vec<MessageId>, bool)>>,
}

impl Reads {
    /// `ids` were read. The first of a batch gives the batch back: the caller sends what it
    /// holds after [`BATCH_DELAY`] (`take`); the others join it.
    pub(super) fn add(&self, ids: Vec<MessageId>) -> Option<Reads> {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.0.extend(ids);
        (!std::mem::replace(&mut p.1, true)).then(|| self.clone())
    }

    /// The pending messages, taken (sorted, each once); the next one read starts a batch.
    pub(super) fn take(&self) -> Vec<MessageId> {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.1 = false;
        let mut ids = std::mem::take(&mut p.0);
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Send what is pending now (the process is going), waiting at most two seconds.
    pub(super) async fn flush(&self, c: &Client) {
        let ids = self.take();
        if ids.is_empty() {
            return;
        }
        let send = c.update_message_flags(&ids, true, Flag::Read);
        if !matches!(tokio::time::timeout(Duration::from_secs(2), send).await, Ok(Ok(_))) {
            tracing::warn!("{} message(s) read here were not marked read on the server", ids.len());
        }
    }
}
