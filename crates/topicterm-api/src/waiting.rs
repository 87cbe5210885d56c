//! Requests on their way: when the oldest unanswered one left, so that a client can say within
//! seconds that the server is not answering, long before a request's own deadline (30 s) or the
//! long-poll's (90 s) tells it. Only requests that should take a moment are counted — not the
//! long-poll, which waits on purpose, nor uploads and downloads, which take what they take.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The requests on their way, by the order they left in.
#[derive(Debug, Default)]
pub struct Waiting {
    next: AtomicU64,
    started: Mutex<BTreeMap<u64, Instant>>,
}

/// One request on its way; dropped (answered, failed or cancelled), it is no longer waited for.
pub struct Request<'a> {
    of: &'a Waiting,
    id: u64,
}

impl Waiting {
    /// A request leaves now.
    pub fn start(&self) -> Request<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(id, Instant::now());
        Request { of: self, id }
    }

    /// How long the oldest request on its way has waited for its answer, if any is on its way.
    pub fn longest(&self) -> Option<Duration> {
        // The first to leave is the oldest: IDs and instants grow together.
        self.lock().first_key_value().map(|(_, at)| at.elapsed())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Instant>> {
        self.started.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Request<'_> {
    fn drop(&mut self) {
        self.of.lock().remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_request_on_its_way_is_the_one_measured_until_it_is_answered() {
        let w = Waiting::default();
        assert_eq!(w.longest(), None);
        let first = w.start();
        let second = w.start();
        let oldest = w.longest().expect("two on their way");
        drop(second);
        assert!(w.longest().expect("the first still") >= oldest);
        drop(first);
        assert_eq!(w.longest(), None, "all answered");
    }
}
