//! The check of the whole archive against the server (issue 50), after every register — at
//! start, and after a lost event queue: while the client was closed, or its queue gone, the
//! server deleted, edited and moved messages without telling it. The archive never shows what
//! the server no longer shows the user, so what it keeps is asked for again, by ID range,
//! newest first, and each answer is checked against it (`archive::check`): what the server
//! lacks goes, what differs is replaced.
//!
//! What is walked (`Archive::scopes`): the messages the user received, through the empty
//! narrow — the user's whole history, where a message moved to another channel or topic is
//! still found, so what it lacks was deleted or is no longer readable — then the historical
//! messages of each channel (its history from before the user joined, or of a channel they are
//! not in), through the channel's narrow. Each request asks [`BATCH`] messages back from the
//! newest kept message not yet covered; the answer is the truth from its oldest message to that
//! anchor, and the next request starts below it, skipping what the archive does not keep.
//!
//! In the background, at low priority: it waits for the register answer, asks one request at
//! a time only when no other request is on its way, and leaves at least as long as the last
//! request took (and [`MIN_GAP`]) before the next, so the user's own requests and the server's
//! rate limit come first; a rate limit waits as long as the server asks, a lost connection
//! backs off and tries again. A new register starts the check anew (`Dispatcher::run`).

use super::patient::{self, Stopped};
use crate::api::*;
use crate::app::{ArchiveCheck, Msg};
use crate::archive::{Archive, Scope};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

/// Messages asked per request (what the reference server recommends at most).
pub const BATCH: u64 = 1_000;

/// The least time between two requests of the check.
pub const MIN_GAP: Duration = Duration::from_millis(250);

/// How long the check waits for the other requests on their way before it asks anyway.
const QUIET_AT_MOST: Duration = Duration::from_secs(10);

/// Check the archive once `registered` says the register answer is in; then tell the app.
pub async fn run(
    c: Client,
    archive: Archive,
    registered: tokio::sync::oneshot::Receiver<()>,
    tx: UnboundedSender<Msg>,
) {
    if registered.await.is_err() {
        return;
    }
    let started = Instant::now();
    let result = walk(&c, &archive).await;
    // Said once what the check sent the writer is written.
    let a = archive.clone();
    let _ = tokio::task::spawn_blocking(move || a.flush(Duration::from_secs(30))).await;
    match &result {
        Ok(done) => tracing::info!(
            "archive checked against the server: {} requests, {} messages, {:.1}s",
            done.requests,
            done.messages,
            started.elapsed().as_secs_f64()
        ),
        Err(why) => tracing::info!("the archive's check stopped: {why}"),
    }
    let _ = tx.send(Msg::ArchiveChecked(result));
}

/// Every scope, newest first, a request at a time.
async fn walk(c: &Client, archive: &Archive) -> Result<ArchiveCheck, String> {
    let a = archive.clone();
    let scopes = tokio::task::spawn_blocking(move || a.scopes()).await.unwrap_or_default();
    let mut done = ArchiveCheck::default();
    for scope in scopes {
        let terms = match &scope {
            Scope::History(channel) => vec![NarrowTerm::new("channel", *channel)],
            Scope::Received | Scope::Narrow(_) => Vec::new(),
        };
        let mut below = None;
        loop {
            let (a, s) = (archive.clone(), scope.clone());
            let next = tokio::task::spawn_blocking(move || a.newest_below(&s, below)).await.ok().flatten();
            let Some(anchor) = next else { break };
            quiet(c).await;
            let mut q = GetMessages::around(Anchor::Id(anchor), BATCH, 0).narrow(terms.clone());
            q.apply_markdown = Some(true);
            q.client_gravatar = Some(true);
            let asked = Instant::now();
            let resp = match patient::get_messages(c, &q, "the archive's check", |_, _| true).await {
                Ok(resp) => resp,
                // The channel is no longer one the user may read: its history goes.
                Err(Stopped::Refused(e))
                    if matches!(scope, Scope::History(_)) && e.code() == Some("BAD_NARROW") =>
                {
                    archive.checked(scope.clone(), MessageId::MIN, MessageId::MAX, Vec::new(), asked);
                    break;
                }
                Err(Stopped::Refused(e)) => return Err(crate::app::why(&e)),
                Err(Stopped::Gone) => return Err("the client is gone".into()),
            };
            let took = asked.elapsed();
            done.requests += 1;
            done.messages += resp.messages.len() as u64;
            let oldest = resp.messages.iter().map(|m| m.id).min().unwrap_or(anchor).min(anchor);
            let lo = if resp.found_oldest { MessageId::MIN } else { oldest };
            let found_oldest = resp.found_oldest;
            archive.checked(scope.clone(), lo, anchor, resp.messages, asked);
            if found_oldest {
                break;
            }
            below = Some(lo);
            tokio::time::sleep(took.max(MIN_GAP)).await;
        }
    }
    Ok(done)
}

/// Wait until no other request is on its way (at most [`QUIET_AT_MOST`]).
async fn quiet(c: &Client) {
    let until = Instant::now() + QUIET_AT_MOST;
    while c.unanswered_for().is_some() && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
