//! The archive's database: one SQLite file per account, its schema, and every change made to
//! it — messages put in (again), flags, edits, moves, reactions, deletions, a channel's
//! messages dropped when the user lost access to it — each batch in one transaction.

use crate::api::{ChannelId, DisplayRecipient, Flag, Message, MessageId, Reaction, UserId};
use crate::files::Owner;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// Bumped when the schema changes meaning; a file of another version is emptied and rebuilt
/// (what it held is fetched again as it is seen).
const VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS channels (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    private INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS backfill (
    key TEXT PRIMARY KEY,
    oldest INTEGER NOT NULL,
    found_oldest INTEGER NOT NULL,
    fetched INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER,
    channel_name TEXT,
    topic TEXT NOT NULL,
    sender_id INTEGER NOT NULL,
    sender_name TEXT NOT NULL,
    sender_email TEXT NOT NULL,
    dm_key TEXT,
    timestamp INTEGER NOT NULL,
    flags INTEGER NOT NULL,
    has INTEGER NOT NULL,
    text TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_channel ON messages(channel_id, topic COLLATE NOCASE, id);
CREATE INDEX IF NOT EXISTS messages_sender ON messages(sender_id, id);
CREATE INDEX IF NOT EXISTS messages_dm ON messages(dm_key, id) WHERE dm_key IS NOT NULL;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    topic, text, content = 'messages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO fts(rowid, topic, text) VALUES (new.id, new.topic, new.text);
END;
CREATE TRIGGER IF NOT EXISTS messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO fts(fts, rowid, topic, text) VALUES ('delete', old.id, old.topic, old.text);
END;
CREATE TRIGGER IF NOT EXISTS messages_au AFTER UPDATE OF topic, text ON messages BEGIN
    INSERT INTO fts(fts, rowid, topic, text) VALUES ('delete', old.id, old.topic, old.text);
    INSERT INTO fts(rowid, topic, text) VALUES (new.id, new.topic, new.text);
END;
CREATE TABLE IF NOT EXISTS doubt (id INTEGER PRIMARY KEY);
CREATE TRIGGER IF NOT EXISTS messages_doubt_ad AFTER DELETE ON messages BEGIN
    DELETE FROM doubt WHERE id = old.id;
END;
";

/// The flags kept, each a bit of the `flags` column (others are not kept).
pub const FLAGS: &[(Flag, i64)] = &[
    (Flag::Read, 1),
    (Flag::Starred, 2),
    (Flag::Collapsed, 4),
    (Flag::Mentioned, 8),
    (Flag::WildcardMentioned, 16),
    (Flag::StreamWildcardMentioned, 32),
    (Flag::TopicWildcardMentioned, 64),
    (Flag::HasAlertWord, 128),
    (Flag::Historical, 256),
];

/// The bit of a flag, 0 for one not kept.
pub fn flag_bit(flag: &Flag) -> i64 {
    FLAGS.iter().find(|(f, _)| f == flag).map_or(0, |(_, b)| *b)
}

/// The bits of `is:mentioned`: a mention of the user or a wildcard one.
pub const MENTIONED: i64 = 8 | 16 | 32 | 64;

/// What a message holds, as bits of the `has` column.
pub const HAS_LINK: i64 = 1;
pub const HAS_ATTACHMENT: i64 = 2;
pub const HAS_IMAGE: i64 = 4;
pub const HAS_REACTION: i64 = 8;

/// One change to the archive.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The current user: whom `me` names in a search.
    Me(UserId),
    /// What the organization calls the empty topic ("general chat"), as lines name it.
    EmptyTopicName(String),
    /// A channel's name, and whether it is private (its messages go when the user leaves it).
    Channel { id: ChannelId, name: String, private: bool },
    /// A channel renamed: its messages are found by the new name.
    Renamed { id: ChannelId, name: String },
    /// A channel made private or public: a private one's messages go when the user leaves it.
    Private { id: ChannelId, private: bool },
    /// A message seen (its flags included), put in or replaced.
    Put(Box<Message>),
    /// A flag added or taken away, on these messages or on all.
    Flag { ids: Vec<MessageId>, all: bool, flag: Flag, add: bool },
    /// A message's new text (HTML as the client shows it).
    Edit { id: MessageId, content: String, edited_at: Option<i64> },
    /// Messages moved to another topic and/or channel.
    Move { ids: Vec<MessageId>, channel: Option<ChannelId>, topic: Option<String> },
    /// A reaction added or taken away.
    React { id: MessageId, reaction: Reaction, add: bool },
    /// Messages deleted on the server.
    Delete(Vec<MessageId>),
    /// The user lost access to a channel: its messages go. Public ones stay readable.
    Left(ChannelId),
    /// How far back a backfill of a narrow (`Reached::key`) has come, written after its page.
    Reached(Reached),
    /// Register's word on the channels: these are the user's; a private channel not among
    /// them is one the user cannot read, and its messages go.
    Subscribed(Vec<ChannelId>),
}

/// How far back `:archive` has fetched a narrow's history: what a backfill resumes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached {
    /// The narrow: `channel:ID`, or `all`.
    pub key: String,
    /// The oldest message ID fetched.
    pub oldest: MessageId,
    /// Whether the server said there is nothing older.
    pub found_oldest: bool,
    /// How many messages the backfill has fetched so far, over every run.
    pub fetched: u64,
}

/// The backfill key of a channel's history (`Reached::key`).
pub fn channel_key(channel: ChannelId) -> String {
    format!("channel:{channel}")
}

/// The archive's database.
pub struct Store {
    conn: Connection,
}

/// The archive is another account's: `meta` names it.
#[derive(Debug, thiserror::Error)]
#[error("it is kept for {0}")]
pub struct OtherAccount(pub Owner);

/// Whose archive the database says it is (`meta`'s `site` and `email`), if it says.
fn owner_in(conn: &Connection) -> rusqlite::Result<Option<Owner>> {
    let has_meta: bool = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !has_meta {
        return Ok(None);
    }
    let value = |key: &str| {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get::<_, String>(0)).optional()
    };
    Ok(match (value("site")?, value("email")?) {
        (Some(site), Some(email)) => Some(Owner { site, email }),
        _ => None,
    })
}

/// Refuse a database that names another account than `owner`.
fn check_owner(conn: &Connection, owner: &Owner) -> rusqlite::Result<()> {
    match owner_in(conn)? {
        Some(o) if o != *owner => Err(rusqlite::Error::UserFunctionError(Box::new(OtherAccount(o)))),
        _ => Ok(()),
    }
}

/// Whose the archive at `path` is, as it says (read-only; `None`: it names no one).
pub fn owner_of(path: &Path) -> rusqlite::Result<Option<Owner>> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    owner_in(&conn)
}

/// Open (or create) `owner`'s database file `path`: its folder made the user's alone (0700),
/// the file created with mode 0600 before SQLite opens it, and named `owner`'s in `meta` (a file
/// that names no one yet — new, or kept by a version before files named their account under a
/// name that was this account's alone — becomes theirs). One that names another account is
/// refused, and left as it is.
pub fn open(path: &Path, owner: &Owner) -> rusqlite::Result<Store> {
    let io = |e: std::io::Error| rusqlite::Error::ToSqlConversionFailure(Box::new(e));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::files::private_folder(dir).map_err(io)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    drop(options.open(path).map_err(io)?);
    let conn = Connection::open(path)?;
    check_owner(&conn, owner)?;
    let store = Store::on(conn)?;
    for (key, value) in [("site", &owner.site), ("email", &owner.email)] {
        store.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)", [key, value])?;
    }
    Ok(store)
}

/// Open `owner`'s existing database to read (a script's search); `None` when there is none,
/// or it names no one yet. One that names another account is refused.
pub fn open_existing(path: &Path, owner: &Owner) -> rusqlite::Result<Option<Store>> {
    if !path.exists() {
        return Ok(None);
    }
    let conn = Connection::open(path)?;
    if owner_in(&conn)?.is_none() {
        return Ok(None);
    }
    check_owner(&conn, owner)?;
    Store::on(conn).map(Some)
}

/// Open `owner`'s existing database read-only, beside the writer (WAL lets a reader go on
/// while it writes): `None` when there is none yet, it names no one yet, or it is of another
/// version (rebuilt by the writer). One that names another account is refused.
pub fn open_reader(path: &Path, owner: &Owner) -> rusqlite::Result<Option<Store>> {
    use rusqlite::OpenFlags;
    if !path.exists() {
        return Ok(None);
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version != VERSION || owner_in(&conn)?.is_none() {
        return Ok(None);
    }
    check_owner(&conn, owner)?;
    with_functions(&conn)?;
    Ok(Some(Store { conn }))
}

/// The server's own rules, as SQL functions for searches: `same_name(a, b)` says whether the
/// server takes two topic names as the same, in every script (`COLLATE NOCASE` knows ASCII
/// only).
fn with_functions(conn: &Connection) -> rusqlite::Result<()> {
    use rusqlite::functions::FunctionFlags;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("same_name", 2, flags, |ctx| {
        let (a, b) = (ctx.get_raw(0).as_str_or_null()?, ctx.get_raw(1).as_str_or_null()?);
        Ok(matches!((a, b), (Some(a), Some(b)) if crate::names::same_name(a, b)))
    })
}

impl Store {
    fn on(conn: Connection) -> rusqlite::Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // Readers (`topicterm search`) go on while the client writes.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version != VERSION {
            conn.execute_batch(
                "DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS messages; DROP TABLE IF EXISTS channels;
                 DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS people; DROP TABLE IF EXISTS backfill;
                 DROP TABLE IF EXISTS doubt;",
            )?;
        }
        conn.execute_batch(SCHEMA)?;
        conn.pragma_update(None, "user_version", VERSION)?;
        with_functions(&conn)?;
        Ok(Store { conn })
    }

    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Fold the write-ahead log into the database and close it: the last connection closed,
    /// SQLite removes `-wal` and `-shm`. A failure is logged (they stay; nothing is lost).
    pub fn close(self) {
        if let Err(e) = self.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);") {
            tracing::info!("the archive's log not folded in: {e}");
        }
        if let Err((_, e)) = self.conn.close() {
            tracing::info!("the archive not closed: {e}");
        }
    }

    /// Apply a batch of changes in one transaction.
    pub fn apply(&mut self, changes: &[Change]) -> rusqlite::Result<()> {
        self.transaction(|tx| changes.iter().try_for_each(|change| apply_one(tx, change)))
    }

    /// `f` in one transaction, committed when it succeeds (the writer's batches of changes and
    /// checks, `check::apply_all`).
    pub(super) fn transaction<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let tx = self.conn.transaction()?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }

    /// The current user, when known.
    pub fn me(&self) -> rusqlite::Result<Option<UserId>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = 'me'", [], |r| r.get::<_, String>(0))
            .optional()
            .map(|v| v.and_then(|v| v.parse().ok()))
    }

    /// What the organization calls the empty topic, when a register answer said it.
    pub fn empty_topic_name(&self) -> rusqlite::Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = 'empty_topic_name'", [], |r| r.get(0))
            .optional()
    }

    /// How many messages are kept.
    pub fn count(&self) -> rusqlite::Result<i64> {
        self.conn.query_row("SELECT count(*) FROM messages", [], |r| r.get(0))
    }

    /// How far back a backfill of `key` has come, if it has begun.
    pub fn reached(&self, key: &str) -> rusqlite::Result<Option<Reached>> {
        self.conn
            .query_row("SELECT oldest, found_oldest, fetched FROM backfill WHERE key = ?1", [key], |r| {
                Ok(Reached {
                    key: key.to_owned(),
                    oldest: r.get(0)?,
                    found_oldest: r.get(1)?,
                    fetched: r.get::<_, i64>(2)?.try_into().unwrap_or(0),
                })
            })
            .optional()
    }

    /// A kept message, in the API's shape (its flags as kept).
    pub fn message(&self, id: MessageId) -> rusqlite::Result<Option<Message>> {
        self.conn
            .query_row(&format!("SELECT {ROW} FROM messages WHERE id = ?1"), [id], from_row)
            .optional()
            .map(Option::flatten)
    }
}

/// The columns a message is read back from (`from_row`), first in a `SELECT`: its kept JSON,
/// its flags, and what the JSON leaves to the other columns.
pub(super) const ROW: &str =
    "json, flags, id, sender_id, sender_name, sender_email, topic, timestamp, channel_id, channel_name";

/// The keys of a message's JSON that its columns hold: left out of the kept JSON, which is most
/// of the archive (a third of each message's JSON is these).
const IN_COLUMNS: &[&str] =
    &["id", "sender_id", "sender_full_name", "sender_email", "subject", "timestamp", "flags"];

/// Keys left out of the kept JSON when their value is empty (null, false, "", []): each is
/// read back as that (`#[serde(default)]` in the API's `Message`).
const DEFAULTED: &[&str] = &[
    "avatar_url",
    "client",
    "content_type",
    "is_me_message",
    "reactions",
    "sender_realm_str",
    "submessages",
    "topic_links",
];

/// A message as kept in the `json` column: without what the other columns hold (`IN_COLUMNS`,
/// and a channel message's channel) or what is empty (`DEFAULTED`).
fn kept_json(m: &Message, channel: Option<(ChannelId, &str)>) -> serde_json::Result<String> {
    use serde_json::Value;
    let mut v = serde_json::to_value(m)?;
    if let Value::Object(o) = &mut v {
        for k in IN_COLUMNS {
            o.remove(*k);
        }
        if channel.is_some() {
            o.remove("stream_id");
            o.remove("display_recipient");
        }
        o.retain(|k, v| {
            let empty = match v {
                Value::Null => true,
                Value::Bool(b) => !*b,
                Value::String(s) => s.is_empty(),
                Value::Array(a) => a.is_empty(),
                _ => false,
            };
            !(empty && DEFAULTED.contains(&k.as_str()))
        });
    }
    serde_json::to_string(&v)
}

/// A message from a row whose first columns are `ROW` (`None`: unreadable, which a newer JSON
/// shape could make; it is left out).
pub(super) fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Option<Message>> {
    use serde_json::Value;
    let json: String = r.get(0)?;
    let flags: i64 = r.get(1)?;
    let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(&json) else { return Ok(None) };
    o.insert("id".into(), r.get::<_, i64>(2)?.into());
    o.insert("sender_id".into(), r.get::<_, i64>(3)?.into());
    o.insert("sender_full_name".into(), r.get::<_, String>(4)?.into());
    o.insert("sender_email".into(), r.get::<_, String>(5)?.into());
    o.insert("subject".into(), r.get::<_, String>(6)?.into());
    o.insert("timestamp".into(), r.get::<_, i64>(7)?.into());
    // A channel message's channel, by its current name (a rename updates the column).
    if let (Some(id), Some(name)) = (r.get::<_, Option<i64>>(8)?, r.get::<_, Option<String>>(9)?)
        && !o.contains_key("display_recipient")
    {
        o.insert("stream_id".into(), id.into());
        o.insert("display_recipient".into(), name.into());
    }
    let Ok(mut m) = serde_json::from_value::<Message>(Value::Object(o)) else { return Ok(None) };
    m.flags = FLAGS.iter().filter(|(_, b)| flags & b != 0).map(|(f, _)| f.clone()).collect();
    Ok(Some(m))
}

pub(super) fn apply_one(tx: &rusqlite::Transaction<'_>, change: &Change) -> rusqlite::Result<()> {
    match change {
        Change::Me(id) => {
            tx.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('me', ?1)", [id.to_string()])?;
        }
        Change::EmptyTopicName(name) => {
            tx.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('empty_topic_name', ?1)", [name])?;
        }
        Change::Channel { id, name, private } => {
            tx.execute(
                "INSERT OR REPLACE INTO channels(id, name, private) VALUES (?1, ?2, ?3)",
                params![id, name, private],
            )?;
            tx.execute("UPDATE messages SET channel_name = ?2 WHERE channel_id = ?1", params![id, name])?;
        }
        Change::Renamed { id, name } => {
            tx.execute("UPDATE channels SET name = ?2 WHERE id = ?1", params![id, name])?;
            tx.execute("UPDATE messages SET channel_name = ?2 WHERE channel_id = ?1", params![id, name])?;
        }
        Change::Private { id, private } => {
            tx.execute("UPDATE channels SET private = ?2 WHERE id = ?1", params![id, private])?;
        }
        Change::Put(m) => {
            put(tx, m)?;
            confirmed(tx, m.id)?;
        }
        Change::Flag { ids, all, flag, add } => {
            let bit = flag_bit(flag);
            let sql = match (add, all) {
                (true, true) => "UPDATE messages SET flags = flags | ?1",
                (false, true) => "UPDATE messages SET flags = flags & ~?1",
                (true, false) => "UPDATE messages SET flags = flags | ?1 WHERE id = ?2",
                (false, false) => "UPDATE messages SET flags = flags & ~?1 WHERE id = ?2",
            };
            if *all {
                tx.execute(sql, [bit])?;
            } else {
                let mut stmt = tx.prepare_cached(sql)?;
                for id in ids {
                    stmt.execute([bit, *id])?;
                }
            }
        }
        Change::Edit { id, content, edited_at } => rewrite(tx, *id, |m| {
            m.content.clone_from(content);
            if edited_at.is_some() {
                m.last_edit_timestamp = *edited_at;
            }
        })?,
        Change::Move { ids, channel, topic } => {
            let name: Option<String> = match channel {
                Some(c) => {
                    tx.query_row("SELECT name FROM channels WHERE id = ?1", [c], |r| r.get(0)).optional()?
                }
                None => None,
            };
            for id in ids {
                // Where it is now is what the event says: no longer in doubt.
                confirmed(tx, *id)?;
                rewrite(tx, *id, |m| {
                    if let Some(t) = topic {
                        m.subject.clone_from(t);
                    }
                    if let Some(c) = channel {
                        m.stream_id = Some(*c);
                        if let Some(n) = &name {
                            m.display_recipient = DisplayRecipient::Channel(n.clone());
                        }
                    }
                })?;
            }
        }
        Change::React { id, reaction, add } => rewrite(tx, *id, |m| {
            let same = |r: &Reaction| {
                r.user_id == reaction.user_id
                    && r.emoji_code == reaction.emoji_code
                    && r.reaction_type == reaction.reaction_type
            };
            m.reactions.retain(|r| !same(r));
            if *add {
                m.reactions.push(reaction.clone());
            }
        })?,
        Change::Delete(ids) => {
            let mut stmt = tx.prepare_cached("DELETE FROM messages WHERE id = ?1")?;
            for id in ids {
                stmt.execute([id])?;
            }
        }
        Change::Left(channel) => {
            let private: bool = tx
                .query_row("SELECT private FROM channels WHERE id = ?1", [channel], |r| r.get(0))
                .optional()?
                .unwrap_or(false);
            if private {
                tx.execute("DELETE FROM messages WHERE channel_id = ?1", [channel])?;
                // Its history is fetched again from the newest if the user comes back.
                tx.execute("DELETE FROM backfill WHERE key = ?1", [channel_key(*channel)])?;
            }
        }
        Change::Subscribed(ids) => {
            let mut stmt = tx.prepare("SELECT id FROM channels WHERE private = 1")?;
            let private: Vec<ChannelId> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
            for channel in private.into_iter().filter(|c| !ids.contains(c)) {
                tx.execute("DELETE FROM messages WHERE channel_id = ?1", [channel])?;
                tx.execute("DELETE FROM backfill WHERE key = ?1", [channel_key(channel)])?;
            }
        }
        Change::Reached(r) => {
            tx.execute(
                "INSERT OR REPLACE INTO backfill(key, oldest, found_oldest, fetched) VALUES (?1, ?2, ?3, ?4)",
                params![r.key, r.oldest, r.found_oldest, i64::try_from(r.fetched).unwrap_or(i64::MAX)],
            )?;
        }
    }
    Ok(())
}

/// Message `id` is where the server says it is: no longer in doubt (`check.rs`).
pub(super) fn confirmed(tx: &rusqlite::Transaction<'_>, id: MessageId) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM doubt WHERE id = ?1")?.execute([id])?;
    Ok(())
}

/// Change a kept message (a message not kept is left alone: it is put in when it is seen).
fn rewrite(
    tx: &rusqlite::Transaction<'_>,
    id: MessageId,
    f: impl FnOnce(&mut Message),
) -> rusqlite::Result<()> {
    let row =
        tx.query_row(&format!("SELECT {ROW} FROM messages WHERE id = ?1"), [id], from_row).optional()?;
    let Some(mut m) = row.flatten() else { return Ok(()) };
    f(&mut m);
    put(tx, &m)
}

/// The sorted participants of a direct message, as `,3,7,` (`dm:` and `dm-including:` match on it).
pub fn dm_key(ids: impl IntoIterator<Item = UserId>) -> String {
    let mut ids: Vec<UserId> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    let inner: Vec<String> = ids.iter().map(ToString::to_string).collect();
    format!(",{},", inner.join(","))
}

/// The columns of a message but its text (`put`), as they are kept.
pub(super) struct Placed<'a> {
    pub channel_id: Option<ChannelId>,
    pub channel_name: Option<&'a str>,
    pub dm: Option<String>,
    pub flags: i64,
    pub json: String,
}

pub(super) fn placed(m: &Message) -> rusqlite::Result<Placed<'_>> {
    let (channel_id, channel_name, dm) = match &m.display_recipient {
        DisplayRecipient::Channel(name) => (m.stream_id, Some(name.as_str()), None),
        DisplayRecipient::Users(users) => {
            (None, None, Some(dm_key(users.iter().map(|u| u.id).chain([m.sender_id]))))
        }
    };
    let flags = m.flags.iter().fold(0, |bits, f| bits | flag_bit(f));
    let json = kept_json(m, channel_id.zip(channel_name))
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    Ok(Placed { channel_id, channel_name, dm, flags, json })
}

/// Put a message in, or replace the one kept with its ID.
pub(super) fn put(tx: &rusqlite::Transaction<'_>, m: &Message) -> rusqlite::Result<()> {
    let (text, has) = text_and_has(m);
    let Placed { channel_id, channel_name, dm, flags, json } = placed(m)?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO messages(id, channel_id, channel_name, topic, sender_id, sender_name, sender_email,
             dm_key, timestamp, flags, has, text, json)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT(id) DO UPDATE SET channel_id = excluded.channel_id,
             channel_name = excluded.channel_name, topic = excluded.topic,
             sender_id = excluded.sender_id, sender_name = excluded.sender_name,
             sender_email = excluded.sender_email, dm_key = excluded.dm_key,
             timestamp = excluded.timestamp, flags = excluded.flags, has = excluded.has,
             text = excluded.text, json = excluded.json",
    )?;
    // Written only when a name or address is new: most messages' people are known.
    let mut person = tx.prepare_cached(
        "INSERT INTO people(id, name, email) VALUES (?1, ?2, ?3) ON CONFLICT(id) DO UPDATE
         SET name = excluded.name, email = excluded.email
         WHERE name != excluded.name OR email != excluded.email",
    )?;
    person.execute(params![m.sender_id, m.sender_full_name, m.sender_email])?;
    // Its channel's name, for searches by name (`query::Known`), unless register gave it.
    if let (Some(id), Some(name)) = (channel_id, channel_name) {
        let mut channel =
            tx.prepare_cached("INSERT INTO channels(id, name) VALUES (?1, ?2) ON CONFLICT(id) DO NOTHING")?;
        channel.execute(params![id, name])?;
    }
    if let DisplayRecipient::Users(users) = &m.display_recipient {
        for u in users.iter().filter(|u| !u.full_name.is_empty()) {
            person.execute(params![u.id, u.full_name, u.email])?;
        }
    }
    stmt.execute(params![
        m.id,
        channel_id,
        channel_name,
        m.subject,
        m.sender_id,
        m.sender_full_name,
        m.sender_email,
        dm,
        m.timestamp,
        flags,
        has,
        text,
        json
    ])?;
    Ok(())
}

/// Spoilers open: what they hide is found by a search, as on the server.
struct Open;

impl crate::content::ContentContext for Open {
    fn format_time(&self, _: i64) -> String {
        String::new()
    }
    fn spoiler_open(&self, _: usize) -> bool {
        true
    }
}

/// A message's text for search and what it holds (`has:`): from its HTML, links by their
/// address (an attachment is an upload of the server), images by their previews; Markdown (a
/// message fetched without rendering) is taken as it is, its links by their scheme.
fn text_and_has(m: &Message) -> (String, i64) {
    let reacted = if m.reactions.is_empty() { 0 } else { HAS_REACTION };
    let markdown = m.content_type.as_deref().is_some_and(|t| t.contains("markdown"));
    if markdown {
        let link = if m.content.contains("://") { HAS_LINK } else { 0 };
        let upload = if m.content.contains("/user_uploads/") { HAS_ATTACHMENT | HAS_LINK } else { 0 };
        return (crate::content::sanitize(&m.content), link | upload | reacted);
    }
    let summary = crate::content::Document::parse(&m.content).summary(&Open);
    let mut has = reacted;
    if !summary.links.is_empty() {
        has |= HAS_LINK;
    }
    if summary.links.iter().any(|l| l.url.contains("/user_uploads/")) {
        has |= HAS_ATTACHMENT;
    }
    if !summary.previews.is_empty() || m.content.contains("message_inline_image") {
        has |= HAS_IMAGE;
    }
    (summary.text, has)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) fn channel_message(id: MessageId, channel: ChannelId, topic: &str, content: &str) -> Message {
        serde_json::from_value(json!({
            "id": id, "type": "stream", "content": content, "display_recipient": format!("c{channel}"),
            "stream_id": channel, "subject": topic, "sender_id": 5, "sender_full_name": "Alice",
            "sender_email": "alice@x", "timestamp": 1000 + id, "flags": ["read"],
        }))
        .unwrap()
    }

    fn temp() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = open(
            &dir.path().join("archive/a.db"),
            &crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        )
        .unwrap();
        (dir, store)
    }

    fn texts(s: &Store) -> Vec<(MessageId, String)> {
        let mut stmt = s.conn.prepare("SELECT id, text FROM messages ORDER BY id").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
    }

    fn fts(s: &Store, q: &str) -> Vec<MessageId> {
        let mut stmt = s.conn.prepare("SELECT rowid FROM fts WHERE fts MATCH ?1 ORDER BY rowid").unwrap();
        stmt.query_map([q], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn a_backfill_resumes_from_the_record_its_last_page_left() {
        let (dir, mut s) = temp();
        assert_eq!(s.reached("channel:9").unwrap(), None, "not begun");
        let reached =
            |oldest, found_oldest, fetched| Reached { key: channel_key(9), oldest, found_oldest, fetched };
        s.apply(&[
            Change::Put(Box::new(channel_message(50, 9, "t", "<p>a</p>"))),
            Change::Reached(reached(50, false, 1000)),
        ])
        .unwrap();
        s.apply(&[Change::Reached(reached(20, false, 2000))]).unwrap();
        drop(s);
        // After a restart, the record is where the last page left it.
        let mut s = open(
            &dir.path().join("archive/a.db"),
            &crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        )
        .unwrap();
        assert_eq!(s.reached("channel:9").unwrap(), Some(reached(20, false, 2000)));
        assert_eq!(s.reached("all").unwrap(), None, "each narrow has its own");
        s.apply(&[Change::Reached(reached(3, true, 2100))]).unwrap();
        assert_eq!(s.reached("channel:9").unwrap().map(|r| r.found_oldest), Some(true));
        // A private channel left: its messages go, and its history would be fetched anew.
        s.apply(&[Change::Channel { id: 9, name: "c9".into(), private: true }, Change::Left(9)]).unwrap();
        assert_eq!(s.reached("channel:9").unwrap(), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_the_users_alone_in_a_private_folder() {
        use std::os::unix::fs::PermissionsExt;
        let (dir, _s) = temp();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir.path().join("archive")), 0o700);
        assert_eq!(mode(&dir.path().join("archive/a.db")), 0o600);
    }

    #[test]
    fn messages_are_put_replaced_and_their_text_indexed_without_diacritics() {
        let (_d, mut s) = temp();
        let m = channel_message(1, 9, "Café plans", "<p>Meet at the <strong>crème</strong> stand</p>");
        s.apply(&[Change::Put(Box::new(m.clone()))]).unwrap();
        assert_eq!(texts(&s), vec![(1, "Meet at the crème stand".to_owned())]);
        assert_eq!(fts(&s, "creme"), vec![1]);
        assert_eq!(fts(&s, "cafe"), vec![1], "the topic is searched too");
        let again = channel_message(1, 9, "Café plans", "<p>moved on</p>");
        s.apply(&[Change::Put(Box::new(again))]).unwrap();
        assert_eq!(s.count().unwrap(), 1);
        assert!(fts(&s, "creme").is_empty(), "the old text leaves the index");
        assert_eq!(fts(&s, "moved"), vec![1]);
        assert_eq!(s.message(1).unwrap().unwrap().flags, vec![Flag::Read]);
    }

    #[test]
    fn flags_edits_moves_reactions_and_deletions_apply() {
        let (_d, mut s) = temp();
        let put = |id| Change::Put(Box::new(channel_message(id, 9, "t", "<p>old words</p>")));
        s.apply(&[Change::Channel { id: 10, name: "design".into(), private: false }, put(1), put(2), put(3)])
            .unwrap();
        s.apply(&[
            Change::Flag { ids: vec![1], all: false, flag: Flag::Starred, add: true },
            Change::Flag { ids: vec![], all: true, flag: Flag::Read, add: false },
            Change::Edit { id: 2, content: "<p>new text</p>".into(), edited_at: Some(5) },
            Change::Move { ids: vec![3], channel: Some(10), topic: Some("elsewhere".into()) },
            Change::React {
                id: 1,
                reaction: serde_json::from_value(
                    json!({"emoji_name": "+1", "emoji_code": "1f44d", "reaction_type": "unicode_emoji", "user_id": 7}),
                )
                .unwrap(),
                add: true,
            },
        ])
        .unwrap();
        let one = s.message(1).unwrap().unwrap();
        assert_eq!(one.flags, vec![Flag::Starred]);
        assert_eq!(one.reactions.len(), 1);
        let two = s.message(2).unwrap().unwrap();
        assert_eq!((two.content.as_str(), two.last_edit_timestamp), ("<p>new text</p>", Some(5)));
        assert_eq!(fts(&s, "new"), vec![2]);
        assert_eq!(fts(&s, "old"), vec![1, 3]);
        let three = s.message(3).unwrap().unwrap();
        assert_eq!((three.stream_id, three.topic()), (Some(10), "elsewhere"));
        assert_eq!(three.display_recipient, DisplayRecipient::Channel("design".into()));
        s.apply(&[Change::Delete(vec![1, 2])]).unwrap();
        assert_eq!(s.count().unwrap(), 1);
        assert!(fts(&s, "new").is_empty(), "a deleted message leaves the index");
    }

    #[test]
    fn leaving_a_private_channel_drops_its_messages_and_a_public_one_keeps_them() {
        let (_d, mut s) = temp();
        s.apply(&[
            Change::Channel { id: 9, name: "secret".into(), private: true },
            Change::Channel { id: 10, name: "open".into(), private: false },
            Change::Put(Box::new(channel_message(1, 9, "t", "<p>a</p>"))),
            Change::Put(Box::new(channel_message(2, 10, "t", "<p>b</p>"))),
        ])
        .unwrap();
        s.apply(&[Change::Left(9), Change::Left(10)]).unwrap();
        assert_eq!(texts(&s), vec![(2, "b".to_owned())]);
    }

    #[test]
    fn a_private_channel_register_no_longer_lists_as_the_users_loses_its_messages() {
        let (_d, mut s) = temp();
        s.apply(&[
            Change::Channel { id: 9, name: "secret".into(), private: true },
            Change::Channel { id: 10, name: "open".into(), private: false },
            Change::Channel { id: 11, name: "still mine".into(), private: true },
            Change::Put(Box::new(channel_message(1, 9, "t", "<p>a</p>"))),
            Change::Put(Box::new(channel_message(2, 10, "t", "<p>b</p>"))),
            Change::Put(Box::new(channel_message(3, 11, "t", "<p>c</p>"))),
        ])
        .unwrap();
        // Left while the client was closed: register lists only 11 as the user's.
        s.apply(&[Change::Subscribed(vec![11])]).unwrap();
        assert_eq!(texts(&s), vec![(2, "b".to_owned()), (3, "c".to_owned())]);
    }

    #[test]
    fn what_a_message_has_is_read_from_its_html() {
        let (_d, mut s) = temp();
        let html = r#"<p><a href="/user_uploads/1/ab/cat.png">cat.png</a></p><div class="message_inline_image"><a href="/user_uploads/1/ab/cat.png"><img src="/user_uploads/thumbnail/1/ab/cat.png/840x560.webp"></a></div>"#;
        s.apply(&[
            Change::Put(Box::new(channel_message(1, 9, "t", html))),
            Change::Put(Box::new(channel_message(2, 9, "t", r#"<p><a href="https://x.org">x</a></p>"#))),
            Change::Put(Box::new(channel_message(3, 9, "t", "<p>plain</p>"))),
        ])
        .unwrap();
        let has: Vec<(MessageId, i64)> = {
            let mut stmt = s.conn.prepare("SELECT id, has FROM messages ORDER BY id").unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
        };
        assert_eq!(has, vec![(1, HAS_LINK | HAS_ATTACHMENT | HAS_IMAGE), (2, HAS_LINK), (3, 0)]);
    }

    #[test]
    fn the_kept_json_leaves_to_the_columns_what_they_hold_and_reads_back_whole() {
        let (_d, mut s) = temp();
        let channel = channel_message(1, 9, "plans", "<p>a</p>");
        let dm: Message = serde_json::from_value(json!({
            "id": 2, "type": "private", "content": "<p>b</p>", "sender_id": 5, "sender_full_name": "Alice",
            "sender_email": "alice@x", "timestamp": 1002, "flags": ["starred"], "client": "website",
            "display_recipient": [{"id": 5, "full_name": "Alice", "email": "alice@x"},
                                  {"id": 7, "full_name": "Me", "email": "me@x"}],
            "reactions": [{"emoji_name": "+1", "emoji_code": "1f44d", "reaction_type": "unicode_emoji", "user_id": 7}],
        }))
        .unwrap();
        s.apply(&[Change::Put(Box::new(channel.clone())), Change::Put(Box::new(dm.clone()))]).unwrap();
        let kept = |id: MessageId| -> String {
            s.conn.query_row("SELECT json FROM messages WHERE id = ?1", [id], |r| r.get(0)).unwrap()
        };
        let one = kept(1);
        for key in [
            "id",
            "sender_email",
            "sender_full_name",
            "subject",
            "timestamp",
            "display_recipient",
            "stream_id",
        ] {
            assert!(!one.contains(&format!("\"{key}\"")), "{key} is a column's: {one}");
        }
        for key in ["flags", "reactions", "client", "submessages", "topic_links", "avatar_url"] {
            assert!(!one.contains(&format!("\"{key}\"")), "{key} is empty: {one}");
        }
        assert!(kept(2).contains("\"display_recipient\"") && kept(2).contains("\"reactions\""));
        assert_eq!(s.message(1).unwrap().unwrap(), channel);
        assert_eq!(s.message(2).unwrap().unwrap(), dm);
        // A renamed channel's messages read back under its new name.
        s.apply(&[Change::Channel { id: 9, name: "renamed".into(), private: false }]).unwrap();
        assert_eq!(
            s.message(1).unwrap().unwrap().display_recipient,
            DisplayRecipient::Channel("renamed".into())
        );
    }

    #[test]
    fn a_file_of_another_version_is_rebuilt_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.db");
        let mut s =
            open(&path, &crate::files::Owner::new("me@example.com", "https://chat.example.com")).unwrap();
        s.apply(&[Change::Put(Box::new(channel_message(1, 9, "t", "<p>a</p>")))]).unwrap();
        s.conn.pragma_update(None, "user_version", 0).unwrap();
        drop(s);
        let s = open(&path, &crate::files::Owner::new("me@example.com", "https://chat.example.com")).unwrap();
        assert_eq!(s.count().unwrap(), 0);
    }
}
