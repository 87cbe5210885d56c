//! The message archive (issue 38): every message the client sees, kept per account in an
//! SQLite database (`$XDG_DATA_HOME/topicterm/archive/ACCOUNT.db`, mode 0600 in a 0700 folder)
//! with a full-text index, so that history is searchable without the server
//! (`topicterm search`).
//!
//! `store.rs` is the database (its schema and every change); `query.rs` the web app's search
//! syntax translated into SQL and FTS5; this file the writer: a thread of its own that takes
//! changes through a channel and applies them in batches, one transaction each, so the
//! archive never delays a key or a frame. `net` feeds it what it fetches and every event batch
//! (`Archive::messages`, `Archive::events`, `Archive::registered`), before handing them to the
//! main loop; `app` knows nothing of it.

pub mod check;
pub mod query;
pub mod store;

use crate::api::{
    AddRemove, Anchor, Event, EventKind, GetMessages, Message, MessageId, MessagesResponse, NarrowTerm,
    Reaction, RegisterResponse, StreamChange, StreamEvent, SubscriptionEvent,
};
use crate::files::Owner;
pub use check::{Check, Scope, Step, Truth};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};
pub use store::{Change, Reached, channel_key};

/// SQLite's files beside a database: its write-ahead log and shared memory, and a rollback
/// journal.
pub const BESIDE: [&str; 3] = ["-wal", "-shm", "-journal"];

/// A database file's companion (`BESIDE`).
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// Remove an archive file and SQLite's files beside it (`-wal`, `-shm`); one that is not
/// there is no error. Whose it is is the caller's to check (`remove_for`).
pub fn remove(path: &Path) -> std::io::Result<()> {
    for p in std::iter::once(path.to_owned()).chain(BESIDE.iter().map(|s| beside(path, s))) {
        match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// Remove `owner`'s archive at `path` (`topicterm logout`): true when there was one. One that
/// names another account is left, and said.
pub fn remove_for(path: &Path, owner: &Owner) -> std::io::Result<bool> {
    if !path.exists() {
        return Ok(false);
    }
    match store::owner_of(path) {
        Ok(Some(o)) if o != *owner => {
            return Err(std::io::Error::other(format!("{} is kept for {o}: left as it is", path.display())));
        }
        Ok(_) => {}
        Err(e) => tracing::info!("whose {} is cannot be read ({e}): removed as {owner}'s", path.display()),
    }
    remove(path).map(|()| true)
}

/// What the writer thread is sent.
enum Job {
    Changes(Vec<Change>),
    /// An event batch's changes, received at this instant: they win over answers asked before.
    Events(Vec<Change>, Instant),
    /// An answer of the server asked for at this instant, to check against what is kept; then
    /// more changes in the same transaction (a backfill's record).
    Check(Box<Check>, Instant, Vec<Change>),
    /// Answered once everything sent before it is written.
    Flush(mpsc::Sender<()>),
    /// Remove the archive's files, and keep nothing more; answered with the file removed.
    Forget(mpsc::Sender<Forgotten>),
    /// Write what was sent before, fold the write-ahead log into the database and close it,
    /// so that SQLite removes its `-wal` and `-shm` (the client quits); nothing more is kept.
    Close(mpsc::Sender<()>),
}

/// The archive file removed, or the file and why it could not be.
pub type Forgotten = Result<PathBuf, (PathBuf, std::io::Error)>;

/// The most changes written in one transaction.
const BATCH: usize = 5_000;

/// The handle the network side writes through; cloned into every task that sees messages.
#[derive(Clone)]
pub struct Archive {
    tx: mpsc::Sender<Job>,
    /// The file, which searches read on a connection of their own.
    path: PathBuf,
    /// Whose archive it is: a file that names another account is neither written nor read.
    owner: Owner,
}

impl Archive {
    /// Open (or create) `owner`'s archive at `path` on a thread of its own. A file that cannot
    /// be opened, or that names another account, is logged (and left as it is), and what is
    /// sent is dropped: the client works without an archive.
    pub fn start(path: PathBuf, owner: Owner) -> Archive {
        let (tx, rx) = mpsc::channel();
        let (file, whose) = (path.clone(), owner.clone());
        let spawned =
            std::thread::Builder::new().name("archive".into()).spawn(move || write(&file, &whose, &rx));
        if let Err(e) = spawned {
            tracing::warn!("no archive: {e}");
        }
        Archive { tx, path, owner }
    }

    fn send(&self, changes: Vec<Change>) {
        if !changes.is_empty() {
            let _ = self.tx.send(Job::Changes(changes));
        }
    }

    /// A page of `terms` fetched for the client (asked at `asked`, as `anchor`): its messages put
    /// in with their flags, and what is kept in its narrow over the IDs it covers checked
    /// against it (`check`).
    pub fn page(&self, terms: &[NarrowTerm], anchor: &Anchored, resp: &MessagesResponse, asked: Instant) {
        self.check(page_check(terms, anchor, resp), asked, Vec::new());
    }

    /// A page of a backfill (`:archive`), checked as any page, then how far back it has come,
    /// in one batch, so that the record never runs ahead of what is written.
    pub fn backfilled(
        &self,
        terms: &[NarrowTerm],
        anchor: &Anchored,
        resp: &MessagesResponse,
        asked: Instant,
        reached: Reached,
    ) {
        self.check(page_check(terms, anchor, resp), asked, vec![Change::Reached(reached)]);
    }

    /// An answer of the check of the whole history (`net/reconcile.rs`), asked at `asked`: what
    /// is kept in `scope` from `lo` to `hi` and not in `messages` goes, what differs is replaced.
    pub fn checked(
        &self,
        scope: Scope,
        lo: MessageId,
        hi: MessageId,
        messages: Vec<Message>,
        asked: Instant,
    ) {
        let truth = Some(Truth { scope, lo, hi });
        self.check(Check { truth, messages, insert: false, exempt: HashSet::new() }, asked, Vec::new());
    }

    fn check(&self, check: Check, asked: Instant, then: Vec<Change>) {
        let _ = self.tx.send(Job::Check(Box::new(check), asked, then));
    }

    /// What the check of the whole history walks: the received messages, then the historical
    /// ones of each channel that has some. Blocking (a read of the file); none when there is no
    /// archive.
    pub fn scopes(&self) -> Vec<Scope> {
        let read = store::open_reader(&self.path, &self.owner)
            .and_then(|s| s.map_or(Ok(Vec::new()), |s| check::historical_channels(s.conn())));
        match read {
            Ok(channels) => {
                std::iter::once(Scope::Received).chain(channels.into_iter().map(Scope::History)).collect()
            }
            Err(e) => {
                tracing::info!("the archive cannot be read to check it: {e}");
                Vec::new()
            }
        }
    }

    /// The newest kept message of `scope` below `below` (`None`: the newest): where the check of
    /// the whole history asks next. Blocking.
    pub fn newest_below(&self, scope: &Scope, below: Option<MessageId>) -> Option<MessageId> {
        let read = store::open_reader(&self.path, &self.owner).and_then(|s| match s {
            None => Ok(None),
            Some(s) => check::newest_below(s.conn(), scope, below, s.me()?.unwrap_or(-1)),
        });
        read.unwrap_or_else(|e| {
            tracing::info!("the archive cannot be read to check it: {e}");
            None
        })
    }

    /// How far back a backfill of `key` has come (what was sent before is written first, at
    /// most 30 s); blocking. `None` when it has not begun, or the archive cannot be read.
    pub fn reached(&self, key: &str) -> Option<Reached> {
        self.flush(std::time::Duration::from_secs(30));
        match store::open_reader(&self.path, &self.owner).and_then(|s| s.map_or(Ok(None), |s| s.reached(key)))
        {
            Ok(r) => r,
            Err(e) => {
                tracing::info!("no backfill record read: {e}");
                None
            }
        }
    }

    /// A batch of events: the messages, flags, edits, moves, reactions, deletions and
    /// channels left that it holds. What they say wins over the answers asked before now.
    pub fn events(&self, events: &[Event]) {
        let changes: Vec<Change> = events.iter().flat_map(|e| changes_of(&e.kind)).collect();
        if !changes.is_empty() {
            let _ = self.tx.send(Job::Events(changes, Instant::now()));
        }
    }

    /// A register answer: who the user is, the empty topic's name, and the channels' names and
    /// privacy.
    pub fn registered(&self, r: &RegisterResponse) {
        let mut changes: Vec<Change> = r.user_id.map(Change::Me).into_iter().collect();
        changes.extend(r.realm_empty_topic_display_name.clone().map(Change::EmptyTopicName));
        for s in r.subscriptions.iter().flatten() {
            changes.push(Change::Channel { id: s.stream_id, name: s.name.clone(), private: s.invite_only });
        }
        for s in r.unsubscribed.iter().flatten() {
            changes.push(Change::Channel { id: s.stream_id, name: s.name.clone(), private: s.invite_only });
        }
        changes.extend(r.never_subscribed.iter().flatten().filter_map(channel_of));
        // The private channels the user is not in are ones they cannot read (now).
        if let Some(subs) = &r.subscriptions {
            changes.push(Change::Subscribed(subs.iter().map(|s| s.stream_id).collect()));
        }
        self.send(changes);
    }

    /// Remove the archive from the disk (`:forget`); nothing sent afterwards is kept. Waits
    /// for the writer (at most 30 s): `None` when it is gone.
    pub fn forget(&self) -> Result<Option<PathBuf>, (PathBuf, std::io::Error)> {
        let (tx, rx) = mpsc::channel();
        if self.tx.send(Job::Forget(tx)).is_err() {
            return Ok(None);
        }
        match rx.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(done) => done.map(Some),
            Err(_) => Ok(None),
        }
    }

    /// The newest `limit` kept messages matching `terms` (narrow terms with IDs, as the app
    /// asks the server), oldest first, read on a read-only connection of their own while the
    /// writer goes on; blocking (a search takes milliseconds, opening the file too). Nothing when
    /// there is no archive yet or it was forgotten; a search it cannot answer (`is:` of what it
    /// does not keep) or a file it cannot read is logged and finds nothing.
    pub fn search(&self, terms: &[crate::api::NarrowTerm], limit: u32) -> Vec<Message> {
        let found = store::open_reader(&self.path, &self.owner)
            .map_err(|e| format!("the archive cannot be read: {e}"))
            .and_then(|s| s.map_or(Ok(Vec::new()), |s| query::search(&s, terms, limit)));
        match found {
            Ok(found) => found.into_iter().map(|f| f.message).collect(),
            Err(e) => {
                tracing::info!("no local results: {e}");
                Vec::new()
            }
        }
    }

    /// Wait until what was sent before is written, at most `within`.
    pub fn flush(&self, within: std::time::Duration) -> bool {
        let (tx, rx) = mpsc::channel();
        self.tx.send(Job::Flush(tx)).is_ok() && rx.recv_timeout(within).is_ok()
    }

    /// Write what was sent before and close the database, leaving only its file (the client
    /// quits); nothing sent afterwards is kept. Waits at most `within`.
    pub fn close(&self, within: std::time::Duration) -> bool {
        let (tx, rx) = mpsc::channel();
        self.tx.send(Job::Close(tx)).is_ok() && rx.recv_timeout(within).is_ok()
    }
}

/// How a page was asked for: its anchor, when a message ID, and whether the anchor was to be
/// included (the server's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Anchored {
    pub id: Option<MessageId>,
    pub include: bool,
}

impl Anchored {
    pub fn of(q: &GetMessages) -> Anchored {
        let id = match q.anchor {
            Some(Anchor::Id(id)) => Some(id),
            _ => None,
        };
        Anchored { id, include: q.include_anchor.unwrap_or(true) }
    }
}

/// A page of `terms`, to be put in and checked against what is kept in its narrow and range.
fn page_check(terms: &[NarrowTerm], anchor: &Anchored, resp: &MessagesResponse) -> Check {
    let truth = Scope::of_terms(terms)
        .zip(check::covered(anchor.id, anchor.include, resp))
        .map(|(scope, (lo, hi))| Truth { scope, lo, hi });
    Check { truth, messages: resp.messages.clone(), insert: true, exempt: HashSet::new() }
}

/// How long what an event said of a message wins over answers asked before it: longer than any
/// request takes (30 s) with what waits in the writer's queue. An answer asked longer ago only
/// puts its messages in (what was told since is no longer all known): it checks nothing.
const HOLD: Duration = Duration::from_secs(120);

/// What events (and pages) said of messages lately, and when: an answer asked before that
/// leaves those messages as they are.
#[derive(Default)]
struct Told {
    when: HashMap<MessageId, Instant>,
    order: VecDeque<(Instant, MessageId)>,
    /// The channels the user left lately, and when: an answer asked before holds their
    /// messages as the user could read them then.
    left: HashMap<crate::api::ChannelId, Instant>,
}

impl Told {
    fn note(&mut self, id: MessageId, at: Instant) {
        if self.when.get(&id).is_none_or(|w| *w < at) {
            self.when.insert(id, at);
            self.order.push_back((at, id));
        }
    }

    /// Let go of what was said longer than `HOLD` ago.
    fn let_go(&mut self, now: Instant) {
        self.left.retain(|_, at| now.duration_since(*at) < HOLD);
        while let Some(&(at, id)) = self.order.front() {
            if now.duration_since(at) < HOLD {
                break;
            }
            self.order.pop_front();
            if self.when.get(&id) == Some(&at) {
                self.when.remove(&id);
            }
        }
    }

    /// The messages of `check` told of after `asked`, or in a channel left since: left alone.
    fn since(&self, asked: Instant, check: &Check) -> HashSet<MessageId> {
        let mut exempt: HashSet<MessageId> =
            self.when.iter().filter(|(_, at)| **at > asked).map(|(id, _)| *id).collect();
        let left = |c: &crate::api::ChannelId| self.left.get(c).is_some_and(|at| *at > asked);
        exempt.extend(check.messages.iter().filter(|m| m.stream_id.as_ref().is_some_and(left)).map(|m| m.id));
        exempt
    }

    /// Every message a change names.
    fn changes(&mut self, changes: &[Change], at: Instant) {
        for c in changes {
            match c {
                Change::Put(m) => self.note(m.id, at),
                Change::Edit { id, .. } | Change::React { id, .. } => self.note(*id, at),
                Change::Move { ids, .. } | Change::Delete(ids) | Change::Flag { ids, all: false, .. } => {
                    ids.iter().for_each(|id| self.note(*id, at))
                }
                Change::Left(channel) => {
                    self.left.insert(*channel, at);
                }
                _ => {}
            }
        }
    }
}

/// A channel as a subscription event or register's `never_subscribed` gives it.
fn channel_of(v: &serde_json::Value) -> Option<Change> {
    Some(Change::Channel {
        id: v.get("stream_id")?.as_i64()?,
        name: v.get("name")?.as_str()?.to_owned(),
        private: v.get("invite_only").and_then(serde_json::Value::as_bool).unwrap_or(false),
    })
}

/// What an event changes in the archive.
fn changes_of(kind: &EventKind) -> Vec<Change> {
    match kind {
        EventKind::Message(ev) => {
            let mut m = ev.message.clone();
            m.flags.clone_from(&ev.flags);
            vec![Change::Put(Box::new(m))]
        }
        EventKind::UpdateMessage(u) => {
            let mut out = Vec::new();
            if let Some(content) = u.rendered_content.as_ref().or(u.content.as_ref()) {
                let edited_at = (!u.rendering_only).then_some(u.edit_timestamp);
                out.push(Change::Edit { id: u.message_id, content: content.clone(), edited_at });
            }
            if u.subject.is_some() || u.new_stream_id.is_some() {
                let mut ids = u.message_ids.clone();
                if !ids.contains(&u.message_id) {
                    ids.push(u.message_id);
                }
                out.push(Change::Move { ids, channel: u.new_stream_id, topic: u.subject.clone() });
            }
            out
        }
        EventKind::DeleteMessage(d) => vec![Change::Delete(d.ids())],
        EventKind::Reaction(r) => vec![Change::React {
            id: r.message_id,
            reaction: Reaction {
                emoji_name: r.emoji_name.clone(),
                emoji_code: r.emoji_code.clone(),
                reaction_type: r.reaction_type.clone(),
                user_id: r.user_id,
            },
            add: r.op == AddRemove::Add,
        }],
        EventKind::UpdateMessageFlags(f) => vec![Change::Flag {
            ids: f.messages.clone(),
            all: f.all,
            flag: f.flag.clone(),
            add: f.op == AddRemove::Add,
        }],
        EventKind::Subscription(SubscriptionEvent::Add(subs)) => subs
            .iter()
            .map(|s| Change::Channel { id: s.stream_id, name: s.name.clone(), private: s.invite_only })
            .collect(),
        EventKind::Subscription(SubscriptionEvent::Remove(ids)) => {
            ids.iter().copied().map(Change::Left).collect()
        }
        EventKind::Stream(StreamEvent::Update { stream_id, change: StreamChange::Name(name) }) => {
            vec![Change::Renamed { id: *stream_id, name: name.clone() }]
        }
        EventKind::Stream(StreamEvent::Update {
            stream_id,
            change: StreamChange::Permission { invite_only, .. },
        }) => vec![Change::Private { id: *stream_id, private: *invite_only }],
        _ => Vec::new(),
    }
}

/// The writer thread: open the archive, then write what comes, in batches, until every
/// handle is gone.
fn write(path: &Path, owner: &Owner, rx: &mpsc::Receiver<Job>) {
    let mut store = match store::open(path, owner) {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::warn!("the archive {} cannot be opened: {e}", path.display());
            None
        }
    };
    let mut told = Told::default();
    while let Ok(first) = rx.recv() {
        let mut batch = Vec::new();
        let mut flushes = Vec::new();
        let mut closes = Vec::new();
        let mut next = Some(first);
        while let Some(job) = next.take() {
            let now = Instant::now();
            told.let_go(now);
            match job {
                Job::Changes(c) => batch.extend(c.into_iter().map(Step::Change)),
                Job::Events(c, at) => {
                    told.changes(&c, at);
                    batch.extend(c.into_iter().map(Step::Change));
                }
                Job::Check(mut check, asked, then) => {
                    // Too old to know all that events said since: a page only puts its
                    // messages in, and the check of the whole history's answer is let go of
                    // (the next register's check asks again).
                    let stale = now.duration_since(asked) >= HOLD;
                    if stale && check.truth.take().is_some() {
                        tracing::info!("an answer waited too long to be checked against the archive");
                    }
                    check.exempt = told.since(asked, &check);
                    // A page's messages win over answers asked before it.
                    if check.insert {
                        check.messages.iter().for_each(|m| told.note(m.id, asked));
                    }
                    if check.insert || !stale {
                        batch.push(Step::Check(check));
                    }
                    batch.extend(then.into_iter().map(Step::Change));
                }
                Job::Flush(done) => flushes.push(done),
                // What came before it is written first; the rest of the batch is not kept.
                Job::Close(done) => {
                    closes.push(done);
                    break;
                }
                Job::Forget(done) => {
                    // The connection closed first, so that SQLite leaves no file behind it.
                    store = None;
                    batch.clear();
                    let _ =
                        done.send(remove(path).map(|()| path.to_owned()).map_err(|e| (path.to_owned(), e)));
                }
            }
            if batch.len() < BATCH {
                next = rx.try_recv().ok();
            }
        }
        if let Some(s) = store.as_mut()
            && let Err(e) = check::apply_all(s, &batch)
        {
            tracing::warn!("{} changes not archived: {e}", batch.len());
        }
        for done in flushes {
            let _ = done.send(());
        }
        if !closes.is_empty() {
            if let Some(s) = store.take() {
                s.close();
            }
            for done in closes {
                let _ = done.send(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn events(v: serde_json::Value) -> Vec<Event> {
        v.as_array().unwrap().iter().cloned().map(Event::decode).collect()
    }

    #[test]
    fn events_are_written_in_order_through_the_thread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive/me.db");
        let archive = Archive::start(
            path.clone(),
            crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        );
        let message = json!({
            "id": 3, "type": "stream", "content": "<p>first words</p>", "display_recipient": "design",
            "stream_id": 9, "subject": "t", "sender_id": 5, "sender_full_name": "Alice",
            "sender_email": "alice@x", "timestamp": 10,
        });
        archive.events(&events(json!([
            {"id": 0, "type": "message", "message": message, "flags": []},
            {"id": 1, "type": "update_message", "message_id": 3, "message_ids": [3], "edit_timestamp": 20,
             "rendered_content": "<p>second words</p>", "content": "second words", "subject": "moved",
             "flags": [], "stream_id": 9},
            {"id": 2, "type": "update_message_flags", "op": "add", "flag": "starred", "messages": [3], "all": false},
        ])));
        assert!(archive.flush(std::time::Duration::from_secs(10)));
        let s = store::open(&path, &crate::files::Owner::new("me@example.com", "https://chat.example.com"))
            .unwrap();
        let m = s.message(3).unwrap().unwrap();
        assert_eq!(
            (m.content.as_str(), m.topic(), m.flags.clone()),
            ("<p>second words</p>", "moved", vec![crate::api::Flag::Starred])
        );
        archive.events(&events(
            json!([{"id": 3, "type": "delete_message", "message_id": 3, "message_type": "stream"}]),
        ));
        assert!(archive.flush(std::time::Duration::from_secs(10)));
        assert_eq!(s.count().unwrap(), 0);
        drop(s);
        assert_eq!(archive.forget().unwrap(), Some(path.clone()));
        assert_eq!(
            std::fs::read_dir(dir.path().join("archive")).unwrap().count(),
            0,
            "no file is left behind"
        );
        archive.events(&events(json!([{"id": 4, "type": "message", "message": message, "flags": []}])));
        assert!(archive.flush(std::time::Duration::from_secs(10)));
        assert!(!path.exists(), "nothing more is kept");
    }

    #[test]
    fn a_channel_renamed_or_made_private_is_kept_as_the_server_says() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive/me.db");
        let archive = Archive::start(
            path.clone(),
            crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        );
        let message = |id: i64| {
            json!({
                "id": id, "type": "stream", "content": "<p>words</p>", "display_recipient": "design",
                "stream_id": 9, "subject": "t", "sender_id": 5, "sender_full_name": "Alice",
                "sender_email": "alice@x", "timestamp": 10,
            })
        };
        archive.events(&events(json!([
            {"id": 0, "type": "subscription", "op": "add", "subscriptions": [
                {"stream_id": 9, "name": "design", "invite_only": false, "color": "#fff"}]},
            {"id": 1, "type": "message", "message": message(1), "flags": []},
            {"id": 2, "type": "stream", "op": "update", "stream_id": 9, "name": "design",
             "property": "name", "value": "ops"},
        ])));
        assert!(archive.flush(std::time::Duration::from_secs(10)));
        let s = store::open(&path, &crate::files::Owner::new("me@example.com", "https://chat.example.com"))
            .unwrap();
        let known = query::Known::of(&s).unwrap();
        assert_eq!(
            query::parse("channel:ops", &known).unwrap(),
            vec![crate::api::NarrowTerm::new("channel", 9)]
        );
        assert!(query::parse("channel:design", &known).is_err(), "the old name names nothing now");
        // Made private, then left: what the user can no longer read goes.
        archive.events(&events(json!([
            {"id": 3, "type": "stream", "op": "update", "stream_id": 9, "name": "ops",
             "property": "invite_only", "value": true, "history_public_to_subscribers": false,
             "is_web_public": false},
            {"id": 4, "type": "subscription", "op": "remove", "subscriptions": [{"stream_id": 9, "name": "ops"}]},
        ])));
        assert!(archive.flush(std::time::Duration::from_secs(10)));
        assert_eq!(s.count().unwrap(), 0);
    }

    #[test]
    fn a_page_asked_before_the_user_left_a_private_channel_does_not_bring_its_messages_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive/me.db");
        let archive = Archive::start(
            path.clone(),
            crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        );
        archive.events(&events(json!([
            {"id": 0, "type": "subscription", "op": "add", "subscriptions": [
                {"stream_id": 9, "name": "secret", "invite_only": true, "color": "#fff"}]},
        ])));
        let asked = Instant::now();
        archive.events(&events(json!([
            {"id": 1, "type": "subscription", "op": "remove", "subscriptions": [{"stream_id": 9, "name": "secret"}]},
        ])));
        let page = MessagesResponse {
            found_oldest: true,
            found_newest: true,
            messages: vec![store::tests::channel_message(1, 9, "t", "<p>secret words</p>")],
            ..serde_json::from_value(json!({"messages": []})).unwrap()
        };
        archive.page(&[], &Anchored { id: None, include: true }, &page, asked);
        assert!(archive.flush(Duration::from_secs(10)));
        assert_eq!(
            store::open(&path, &crate::files::Owner::new("me@example.com", "https://chat.example.com"))
                .unwrap()
                .count()
                .unwrap(),
            0
        );
    }

    #[test]
    fn a_page_is_checked_against_what_is_kept_but_never_wins_over_the_events_told_since_it_was_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive/me.db");
        let archive = Archive::start(
            path.clone(),
            crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        );
        let m = |id: i64, text: &str| store::tests::channel_message(id, 9, "t", text);
        let page = |ids: &[(i64, &str)]| MessagesResponse {
            found_oldest: true,
            found_newest: true,
            messages: ids.iter().map(|(id, text)| m(*id, text)).collect(),
            ..serde_json::from_value(json!({"messages": []})).unwrap()
        };
        let everything = Anchored { id: None, include: true };
        let asked = Instant::now();
        archive.page(&[], &everything, &page(&[(1, "<p>a</p>"), (2, "<p>b</p>"), (3, "<p>c</p>")]), asked);
        // Asked before: 2 deleted and 4 sent since. Neither comes back or goes.
        let before = Instant::now();
        archive.events(&events(json!([
            {"id": 0, "type": "delete_message", "message_id": 2, "message_type": "stream"},
            {"id": 1, "type": "message", "message": m(4, "<p>d</p>"), "flags": []},
        ])));
        archive.page(&[], &everything, &page(&[(1, "<p>a</p>"), (2, "<p>b</p>"), (3, "<p>c</p>")]), before);
        assert!(archive.flush(Duration::from_secs(10)));
        let s = store::open(&path, &crate::files::Owner::new("me@example.com", "https://chat.example.com"))
            .unwrap();
        let kept =
            |s: &store::Store| (1..=4).filter(|id| s.message(*id).unwrap().is_some()).collect::<Vec<_>>();
        assert_eq!(kept(&s), [1, 3, 4]);
        // Asked after: it is the truth — 3 deleted, 1 edited, while no event said so.
        archive.page(&[], &everything, &page(&[(1, "<p>e</p>"), (4, "<p>d</p>")]), Instant::now());
        assert!(archive.flush(Duration::from_secs(10)));
        assert_eq!(kept(&s), [1, 4]);
        assert_eq!(s.message(1).unwrap().unwrap().content, "<p>e</p>");
    }
}
