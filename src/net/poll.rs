//! The event poller: long-polls `GET /events` on the register's queue, hands each batch to
//! the archive first and then to the app, backs off through faults (`backoff.rs`) saying
//! offline and online, and says when the queue is gone (`Msg::QueueLost`) or keeps answering
//! what cannot be read (`Msg::QueueUnreadable`): the app registers again.

use crate::api::*;
use crate::app::Msg;
use crate::backoff::Backoff;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// The queue polled: its ID, the last event read, how long the server holds a poll.
pub(super) struct Queue {
    pub id: String,
    pub last_event_id: i64,
    pub timeout_secs: u64,
}

/// Long-poll forever, sending batches of events (to the archive first); `QueueLost` when the
/// queue is gone.
pub(super) async fn poll_events(
    c: Client,
    tx: UnboundedSender<Msg>,
    archive: Option<crate::archive::Archive>,
    queue: Queue,
) {
    let Queue { id: queue_id, last_event_id: mut last, timeout_secs } = queue;
    let timeout = Duration::from_secs(timeout_secs + 10);
    let mut attempt = 0;
    let mut failing = false;
    // Answers in a row that arrived but could not be read: a queue holding an event this
    // client cannot parse would otherwise be asked for again forever.
    let mut unreadable = 0;
    loop {
        // After a failure, ask without waiting: a long poll that connects would otherwise hold
        // the news that the server is back until the next event or heartbeat.
        match c.get_events(&queue_id, last, failing, timeout).await {
            Ok(events) => {
                attempt = 0;
                unreadable = 0;
                if std::mem::take(&mut failing) && tx.send(Msg::Online).is_err() {
                    return;
                }
                if let Some(max) = events.iter().map(|e| e.id).max() {
                    last = last.max(max);
                }
                let events: Vec<Event> = events
                    .into_iter()
                    .filter(|e| !matches!(e.kind, crate::api::EventKind::Heartbeat))
                    .collect();
                let malformed: Vec<(String, String)> = events
                    .iter()
                    .filter_map(|e| match &e.kind {
                        EventKind::Malformed { event_type, error } => {
                            Some((event_type.clone(), error.clone()))
                        }
                        _ => None,
                    })
                    .collect();
                if let Some(a) = archive.as_ref().filter(|_| !events.is_empty()) {
                    a.events(&events);
                }
                if !events.is_empty() && tx.send(Msg::Events(events)).is_err() {
                    return;
                }
                if let Some(first) = malformed.first() {
                    let _ = tx.send(Msg::UnreadableEvents { count: malformed.len(), first: first.clone() });
                }
            }
            Err(ApiError::Decode { status: 200, .. }) if unreadable >= 2 => {
                tracing::warn!("the event queue keeps answering what cannot be read; registering again");
                let _ = tx.send(Msg::QueueUnreadable);
                return;
            }
            Err(e) if e.code() == Some("BAD_EVENT_QUEUE_ID") => {
                let _ = tx.send(Msg::QueueLost);
                return;
            }
            Err(e) if e.is_auth() => {
                let _ = tx.send(Msg::AuthLost(e));
                return;
            }
            // Rate limited: wait as long as the server asks, then go on.
            Err(e) if e.server().is_some_and(|s| s.status == 429) => {
                let wait = e.server().and_then(|s| s.retry_after).unwrap_or(1.0).clamp(0.1, 300.0);
                tracing::warn!("rate limited; waiting {wait}s");
                tokio::time::sleep(Duration::from_secs_f64(wait)).await;
            }
            Err(e) => {
                attempt += 1;
                let wait = Backoff::NETWORK.delay(attempt, rand::random());
                tracing::warn!("event poll failed: {e}; retrying in {wait:?}");
                failing = true;
                if matches!(e, ApiError::Decode { status: 200, .. }) {
                    unreadable += 1;
                }
                if tx.send(Msg::Offline { error: e, retry_in: wait.as_secs().max(1) }).is_err() {
                    return;
                }
                tokio::time::sleep(wait).await;
            }
        }
    }
}
