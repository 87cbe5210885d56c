//! A page of `GET /messages` asked patiently, for the archive's background work (`backfill.rs`,
//! `reconcile.rs`): waiting as long as the server asks when it limits the rate, and while it
//! cannot be reached trying again further apart each time. Only a refusal ends it early.

use crate::api::{ApiError, Client, GetMessages, MessagesResponse};
use crate::backoff::Backoff;
use std::time::Duration;

/// Ask for `q` until the server answers or refuses. `what` names the work in the log; before
/// each wait after a failure to reach the server, `waiting` is told the failure and the wait,
/// and ends the asking by answering false (the client is gone).
pub(super) async fn get_messages(
    c: &Client,
    q: &GetMessages,
    what: &str,
    mut waiting: impl FnMut(&ApiError, Duration) -> bool,
) -> Result<MessagesResponse, Stopped> {
    let mut attempt = 0;
    loop {
        match c.get_messages(q).await {
            Ok(page) => return Ok(page),
            Err(e) if e.server().is_some_and(|s| s.status == 429) => {
                let wait = e.server().and_then(|s| s.retry_after).unwrap_or(1.0).clamp(0.1, 300.0);
                tracing::info!("{what} is rate limited; waiting {wait}s");
                tokio::time::sleep(Duration::from_secs_f64(wait)).await;
            }
            Err(e) if e.is_transient() => {
                attempt += 1;
                let wait = Backoff::NETWORK.delay(attempt, rand::random());
                tracing::info!("{what} failed: {e}; retrying in {wait:?}");
                if !waiting(&e, wait) {
                    return Err(Stopped::Gone);
                }
                tokio::time::sleep(wait).await;
            }
            Err(e) => return Err(Stopped::Refused(e)),
        }
    }
}

/// Why [`get_messages`] gave up.
#[derive(Debug)]
pub(super) enum Stopped {
    /// The server refused the request.
    Refused(ApiError),
    /// The one told of the waits answered that nobody waits any more.
    Gone,
}
