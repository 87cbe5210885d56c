//! Event queues: `register` creates one, every state change pushes events to the queues of the
//! users it concerns, and `GET /events` long-polls.
//!
//! Bounded, so that one member cannot grow the server without end (issue 50: 3,000 queues and
//! 40 long messages took it from 33 MB to 1.6 GB). The reference server bounds a queue's
//! lifetime (10 minutes without a poll by default, a week at most: `DEFAULT_EVENT_QUEUE_TIMEOUT_SECS`,
//! `MAX_QUEUE_TIMEOUT_SECS` in `zerver/tornado/event_queue.py`) and collects expired queues;
//! it has no count of queues per user or of events per queue, its rate limit (200 requests a
//! minute) standing in for one. The demo server, which has no rate limit, keeps at most
//! [`MAX_QUEUES_PER_USER`] queues a user (a new one collects that user's least recently polled)
//! and at most [`MAX_QUEUE_EVENTS`] events or [`MAX_QUEUE_BYTES`] bytes of them in a queue
//! nobody polls (past that the queue is collected). A collected queue answers as the reference
//! answers for one it collected, `BAD_EVENT_QUEUE_ID`, and every client recovers from that by
//! registering again.

use serde_json::{Value, json};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// The most event queues one user keeps: registering another collects the user's least
/// recently polled one.
pub const MAX_QUEUES_PER_USER: usize = 32;
/// The most events a queue holds unacknowledged; one more and the queue is collected.
pub const MAX_QUEUE_EVENTS: usize = 2_000;
/// The most bytes (of JSON) a queue's unacknowledged events take; past that it is collected.
pub const MAX_QUEUE_BYTES: usize = 2 << 20;

/// One client's event queue.
#[derive(Debug)]
pub struct Queue {
    pub id: String,
    pub user_id: i64,
    /// `None`: every event type.
    pub event_types: Option<HashSet<String>>,
    pub events: VecDeque<(i64, Value)>,
    /// What `events` takes, in bytes of JSON (bounded by [`MAX_QUEUE_BYTES`]).
    pub bytes: usize,
    /// Over its bounds: the queue is collected (see the module's documentation).
    pub overflowed: bool,
    pub next_id: i64,
    pub last_access: Instant,
    pub notify: Arc<Notify>,
    pub apply_markdown: bool,
    pub empty_topic_name: bool,
    /// The client declared `simplified_presence_events` (and the server is of level 419 or
    /// later): presence events in the modern shape only; else the legacy one.
    pub simplified_presence: bool,
    /// The client declared `user_settings_object`: settings changes come as `user_settings`
    /// events only, never the legacy `update_display_settings`/`update_global_notifications`.
    pub user_settings_object: bool,
    /// The client declared `individual_emoji_changes` (and the server is of level 491 or
    /// later): one `realm_emoji` `add`/`update_one` event per change, not the whole map.
    pub individual_emoji_changes: bool,
    /// How long the queue lives without a poll: the server's default, or the client's
    /// `idle_queue_timeout` (level 481).
    pub lifetime: Duration,
    /// A poll is waiting on this queue (it is not expired meanwhile).
    pub polling: bool,
    /// `narrow` of `POST /register`: `message` events only for messages it admits.
    pub narrow: Vec<(String, String)>,
}

impl Queue {
    pub fn wants(&self, event_type: &str) -> bool {
        event_type == "heartbeat" || self.event_types.as_ref().is_none_or(|t| t.contains(event_type))
    }

    fn push(&mut self, mut event: Value) {
        if self.overflowed {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        if let Some(obj) = event.as_object_mut() {
            obj.insert("id".into(), json!(id));
        }
        let size = size_of_json(&event);
        if self.events.len() >= MAX_QUEUE_EVENTS || self.bytes + size > MAX_QUEUE_BYTES {
            // Nobody polls it (a poll takes each event as it comes): its memory goes now, the
            // queue with the next collection, and its client's next poll is told so.
            self.overflowed = true;
            self.events = VecDeque::new();
            self.bytes = 0;
        } else {
            self.bytes += size;
            self.events.push_back((id, event));
        }
        self.notify.notify_one();
    }

    /// Whether a message (as this queue's user sees it) passes the queue's narrow: the reference
    /// server's `build_narrow_predicate` (`zerver/lib/narrow_predicate.py`), loose topic match
    /// (the topic or one of its words) and all.
    pub fn admits(&self, message: &Value, flags: &[String]) -> bool {
        let text = |k: &str| message.get(k).and_then(Value::as_str).unwrap_or("");
        let channel = text("type") == "stream";
        let topic = message.get("subject").or_else(|| message.get("topic")).and_then(Value::as_str);
        let topic = topic.unwrap_or("");
        let flag = |f: &str| flags.iter().any(|x| x == f);
        self.narrow.iter().all(|(op, operand)| match (op.as_str(), operand.as_str()) {
            ("channel" | "stream", name) => {
                channel
                    && message["display_recipient"]
                        .as_str()
                        .is_some_and(|d| d.to_lowercase() == name.to_lowercase())
            }
            ("topic", t) => {
                let (t, topic) = (t.to_lowercase(), topic.to_lowercase());
                channel && (t == topic || topic.split_whitespace().any(|w| w == t))
            }
            ("exact-topic", t) => channel && t == topic,
            ("sender", email) => text("sender_email").to_lowercase() == email.to_lowercase(),
            ("is", "dm" | "private") => text("type") == "private",
            ("is", "starred") => flag("starred"),
            ("is", "unread") => !flag("read"),
            ("is", "alerted" | "mentioned") => flag("mentioned"),
            ("is", "resolved") => channel && topic.starts_with("\u{2714} "),
            _ => true,
        })
    }

    /// Drop events the client acknowledged.
    pub fn ack(&mut self, last_event_id: i64) {
        while self.events.front().is_some_and(|(id, _)| *id <= last_event_id) {
            if let Some((_, e)) = self.events.pop_front() {
                self.bytes = self.bytes.saturating_sub(size_of_json(&e));
            }
        }
    }
}

/// How many bytes an event takes as JSON.
fn size_of_json(event: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, event);
    count.0
}

/// All queues of the server.
#[derive(Debug)]
pub struct Queues {
    pub map: HashMap<String, Queue>,
    /// Queues not polled for this long are deleted.
    pub lifetime: Duration,
}

impl Default for Queues {
    fn default() -> Self {
        Queues { map: HashMap::new(), lifetime: Duration::from_secs(600) }
    }
}

impl Queues {
    pub fn create(
        &mut self,
        user_id: i64,
        event_types: Option<HashSet<String>>,
        apply_markdown: bool,
        empty_topic_name: bool,
        simplified_presence: bool,
    ) -> String {
        let id = format!("{}:{}", super::clock::now(), super::token::token(16));
        self.make_room_for(user_id);
        self.map.insert(
            id.clone(),
            Queue {
                id: id.clone(),
                user_id,
                event_types,
                events: VecDeque::new(),
                bytes: 0,
                overflowed: false,
                next_id: 0,
                last_access: Instant::now(),
                notify: Arc::new(Notify::new()),
                apply_markdown,
                empty_topic_name,
                simplified_presence,
                user_settings_object: false,
                individual_emoji_changes: false,
                lifetime: self.lifetime,
                polling: false,
                narrow: Vec::new(),
            },
        );
        id
    }

    /// Delete queues nobody polled within their lifetime, and those over their bounds.
    pub fn gc(&mut self) {
        self.remove_where(|q| q.overflowed || (!q.polling && q.last_access.elapsed() >= q.lifetime));
    }

    /// Before a user's new queue: collect what is over their bounds, and their least recently
    /// polled queues (one being polled last) until there is room for one more.
    fn make_room_for(&mut self, user_id: i64) {
        self.remove_where(|q| q.user_id == user_id && q.overflowed);
        let mut theirs: Vec<(bool, Instant, String)> = self
            .map
            .values()
            .filter(|q| q.user_id == user_id)
            .map(|q| (q.polling, q.last_access, q.id.clone()))
            .collect();
        if theirs.len() < MAX_QUEUES_PER_USER {
            return;
        }
        theirs.sort();
        let excess = theirs.len() + 1 - MAX_QUEUES_PER_USER;
        let doomed: HashSet<String> = theirs.into_iter().take(excess).map(|(_, _, id)| id).collect();
        self.remove_where(|q| doomed.contains(&q.id));
    }

    /// Make a queue's last poll `by` longer ago (tests: a queue's lifetime of minutes or days
    /// passes at once). Its next `gc` judges it by the moved time.
    pub fn age(&mut self, queue_id: &str, by: Duration) {
        if let Some(q) = self.map.get_mut(queue_id)
            && let Some(earlier) = q.last_access.checked_sub(by)
        {
            q.last_access = earlier;
        }
    }

    /// Push one event to every queue of these users that wants its type.
    pub fn push(&mut self, users: &[i64], event: &Value) {
        let ty = event.get("type").and_then(Value::as_str).unwrap_or("");
        for q in self.map.values_mut() {
            if users.contains(&q.user_id) && q.wants(ty) {
                q.push(event.clone());
            }
        }
    }

    /// Push an event built per queue (for events whose shape depends on the client).
    pub fn push_with(&mut self, users: &[i64], ty: &str, mut build: impl FnMut(&Queue) -> Option<Value>) {
        for q in self.map.values_mut() {
            if users.contains(&q.user_id)
                && q.wants(ty)
                && let Some(ev) = build(q)
            {
                q.push(ev);
            }
        }
    }

    /// Push to one queue (heartbeats).
    pub fn push_to(&mut self, queue_id: &str, event: Value) {
        if let Some(q) = self.map.get_mut(queue_id) {
            q.push(event);
        }
    }

    /// Delete the queues matching `doomed`, waking any poll waiting on them so it answers
    /// `BAD_EVENT_QUEUE_ID` now rather than at the next heartbeat. Returns how many went.
    pub fn remove_where(&mut self, mut doomed: impl FnMut(&Queue) -> bool) -> usize {
        let before = self.map.len();
        self.map.retain(|_, q| {
            let go = doomed(q);
            if go {
                q.notify.notify_one();
            }
            !go
        });
        before - self.map.len()
    }

    /// Delete every queue of a user (deactivation).
    pub fn drop_user(&mut self, user_id: i64) {
        self.remove_where(|q| q.user_id == user_id);
    }
}
