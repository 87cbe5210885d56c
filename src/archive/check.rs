//! What the server answered for a range of message IDs, checked against what the archive keeps
//! there (issue 50): the archive never shows what the server no longer shows the user.
//!
//! An answer of `GET /messages` is the truth for the IDs it covers in its narrow (`covered`): a
//! message the archive keeps in that narrow and range that the answer lacks was deleted, moved
//! away or made unreadable to the user; one that differs was edited, moved, reacted to or
//! (un)flagged. What follows depends on what the narrow can tell (`Scope`): the user's whole
//! history (the empty narrow) and direct messages cannot hide a move, so what they lack goes;
//! a channel or topic lacking a message may only mean it moved, so it is put in doubt — left
//! out of every search until the check of the whole history (`net/reconcile.rs`) says where it
//! is or that it is gone.
//!
//! Messages an event told of after the answer was asked for (`Check::exempt`, kept by the
//! writer in `mod.rs`) are left as the events left them: a page answered before a deletion,
//! an edit or a new message must not win over it.

use super::store::{Change, Placed, Store, apply_one, confirmed, placed, put};
use crate::api::{ChannelId, Message, MessageId, MessagesResponse, NarrowTerm};
use rusqlite::{OptionalExtension, params_from_iter};
use std::collections::HashSet;

/// The bit of the `historical` flag: kept without the user having received it (a channel's
/// history from before they joined, or a channel they are not in), so the empty narrow does
/// not hold it.
const HISTORICAL: i64 = 256;

/// What the server answers as the anchor `newest` (the reference's `LARGER_THAN_MAX_MESSAGE_ID`):
/// no message's ID.
const BEYOND_EVERY_ID: MessageId = 10_000_000_000_000_000;

/// Which kept messages an answer speaks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// A narrow of the views, of places only (channel, topic, direct messages, sender).
    Narrow(Vec<NarrowTerm>),
    /// Everything the user received: the empty narrow (all but the historical messages).
    Received,
    /// The historical messages of one channel, asked for by the channel's narrow.
    History(ChannelId),
}

impl Scope {
    /// The scope of a page of `terms`, if the archive can tell which of its messages the
    /// narrow holds: places only, none negated (a search's words, flags and `has:` are the
    /// server's to judge: its answer is not the truth for what the archive would match).
    pub fn of_terms(terms: &[NarrowTerm]) -> Option<Scope> {
        if terms.is_empty() {
            return Some(Scope::Received);
        }
        let place = |t: &NarrowTerm| {
            !t.negated
                && match t.operator.as_str() {
                    "channel" | "topic" | "dm" | "dm-including" | "sender" => true,
                    "is" => t.operand.as_str() == Some("dm"),
                    _ => false,
                }
        };
        terms.iter().all(place).then(|| Scope::Narrow(terms.to_vec()))
    }

    /// The scope's messages as SQL, with its parameters.
    fn sql(&self, me: crate::api::UserId) -> Option<(String, Vec<rusqlite::types::Value>)> {
        use rusqlite::types::Value;
        Some(match self {
            Scope::Received => (format!("flags & {HISTORICAL} = 0"), vec![]),
            Scope::History(c) => {
                (format!("channel_id = ?1 AND flags & {HISTORICAL} != 0"), vec![Value::Integer(*c)])
            }
            Scope::Narrow(terms) => {
                let sql = super::query::translate(terms, me).ok()?;
                // Without a channel, the server's narrow holds only what the user received.
                let received = !terms.iter().any(|t| t.operator == "channel");
                let clause = if received {
                    format!("({}) AND flags & {HISTORICAL} = 0", sql.clause)
                } else {
                    sql.clause
                };
                (clause, sql.params)
            }
        })
    }

    /// Whether a message the answer lacks is gone for good (it cannot have moved out of what
    /// the narrow holds and still be readable), rather than in doubt.
    fn lacking_is_gone(&self) -> bool {
        match self {
            Scope::Received | Scope::History(_) => true,
            Scope::Narrow(terms) => terms.iter().all(|t| match t.operator.as_str() {
                "dm" | "dm-including" => true,
                "is" => t.operand.as_str() == Some("dm"),
                _ => false,
            }),
        }
    }
}

/// An answer of the server, to be checked against the archive.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// What the answer is the truth for (`None`: only for its own messages — a search's).
    pub truth: Option<Truth>,
    pub messages: Vec<Message>,
    /// A page the client showed: what is not kept yet is put in. Otherwise (the check of the
    /// whole history) only what is kept is replaced.
    pub insert: bool,
    /// Told of by events (or by pages asked later) since this answer was asked for: left alone.
    pub exempt: HashSet<MessageId>,
}

/// The kept messages an answer is the truth for: those in its scope from `lo` to `hi`, both
/// included (`covered`).
#[derive(Debug, Clone, PartialEq)]
pub struct Truth {
    pub scope: Scope,
    pub lo: MessageId,
    pub hi: MessageId,
}

/// The IDs an answer covers in its narrow, both ends included, or `None` when it covers none:
/// from its first message (or the anchor) to its last (or the anchor) — the anchor is
/// covered when it was asked to be included — and on to either end the server said it found;
/// all of them when the narrow holds nothing.
pub fn covered(
    anchor: Option<MessageId>,
    include_anchor: bool,
    resp: &MessagesResponse,
) -> Option<(MessageId, MessageId)> {
    // An anchor of the server's own (`newest` is a number beyond every ID) is no message.
    let anchor = resp.anchor.or(anchor).filter(|a| include_anchor && (1..BEYOND_EVERY_ID).contains(a));
    let ids = resp.messages.iter().map(|m| m.id).chain(anchor);
    let span = ids.fold(None, |span: Option<(MessageId, MessageId)>, id| {
        Some(span.map_or((id, id), |(lo, hi)| (lo.min(id), hi.max(id))))
    });
    // Nothing at all in the narrow: the whole of it is covered.
    let (lo, hi) = match span {
        None if resp.found_oldest && resp.found_newest => return Some((MessageId::MIN, MessageId::MAX)),
        None => return None,
        Some(span) => span,
    };
    let lo = if resp.found_oldest { MessageId::MIN } else { lo };
    let hi = if resp.found_newest { MessageId::MAX } else { hi };
    Some((lo, hi))
}

/// What a check did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    pub dropped: u64,
    pub doubted: u64,
    pub replaced: u64,
}

/// One step of a batch the writer applies in a transaction (`apply_all`): a change, or an
/// answer of the server to check against what is kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Change(Change),
    Check(Box<Check>),
}

/// Apply `steps` in order, in one transaction.
pub fn apply_all(store: &mut Store, steps: &[Step]) -> rusqlite::Result<()> {
    store.transaction(|tx| {
        let me = tx
            .query_row("SELECT value FROM meta WHERE key = 'me'", [], |r| r.get::<_, String>(0))
            .optional()?
            .and_then(|v| v.parse().ok())
            .unwrap_or(-1);
        for step in steps {
            match step {
                Step::Change(change) => apply_one(tx, change)?,
                Step::Check(check) => {
                    let done = apply(tx, check, me)?;
                    if let Some(t) = check.truth.as_ref().filter(|_| done.dropped + done.doubted > 0) {
                        tracing::info!(
                            "archive checked from {} to {}: {} dropped, {} in doubt, {} replaced",
                            t.lo,
                            t.hi,
                            done.dropped,
                            done.doubted,
                            done.replaced
                        );
                    }
                }
            }
        }
        Ok(())
    })
}

/// Apply a check in the transaction `tx` (`me`: whom `dm:` adds to a conversation).
pub(super) fn apply(
    tx: &rusqlite::Transaction<'_>,
    check: &Check,
    me: crate::api::UserId,
) -> rusqlite::Result<Done> {
    let mut done = Done::default();
    let mut present: HashSet<MessageId> = HashSet::with_capacity(check.messages.len());
    for m in &check.messages {
        present.insert(m.id);
        // A message that could not be read says nothing of what is kept.
        if check.exempt.contains(&m.id) || m.content == crate::api::lenient::placeholder_html(m.id) {
            continue;
        }
        let mut m = m.clone();
        m.match_content = None;
        m.match_subject = None;
        match replace(tx, &m, check.insert)? {
            Replaced::Same | Replaced::NotKept => {}
            Replaced::Flags | Replaced::Whole => done.replaced += 1,
        }
        confirmed(tx, m.id)?;
    }
    let Some(truth) = &check.truth else { return Ok(done) };
    let Some((clause, mut params)) = truth.scope.sql(me) else { return Ok(done) };
    let n = params.len();
    params.push(truth.lo.into());
    params.push(truth.hi.into());
    let sql = format!("SELECT id FROM messages WHERE ({clause}) AND id BETWEEN ?{} AND ?{}", n + 1, n + 2);
    let kept: Vec<MessageId> = {
        let mut stmt = tx.prepare(&sql)?;
        stmt.query_map(params_from_iter(params.iter()), |r| r.get(0))?.collect::<Result<_, _>>()?
    };
    let lacking = kept.into_iter().filter(|id| !present.contains(id) && !check.exempt.contains(id));
    if truth.scope.lacking_is_gone() {
        let mut stmt = tx.prepare_cached("DELETE FROM messages WHERE id = ?1")?;
        for id in lacking {
            done.dropped += stmt.execute([id])? as u64;
        }
    } else {
        let mut stmt = tx.prepare_cached("INSERT OR IGNORE INTO doubt(id) VALUES (?1)")?;
        for id in lacking {
            done.doubted += stmt.execute([id])? as u64;
        }
    }
    Ok(done)
}

/// What became of a message of an answer.
enum Replaced {
    /// Kept as it is.
    Same,
    /// Only its flags changed (read elsewhere, starred): they are written, not its text.
    Flags,
    /// Put in, or replaced whole.
    Whole,
    /// Not kept, and not to be put in.
    NotKept,
}

/// Put `m` in place of the message kept with its ID when it differs (a message not kept is
/// put in when `insert`). Most of a check's messages are as kept: they cost a read, not a write
/// of their text and its index.
fn replace(tx: &rusqlite::Transaction<'_>, m: &Message, insert: bool) -> rusqlite::Result<Replaced> {
    type Row = (Option<ChannelId>, Option<String>, String, String, String, Option<String>, i64, i64, String);
    let row: Option<Row> = tx
        .prepare_cached(
            "SELECT channel_id, channel_name, topic, sender_name, sender_email, dm_key, timestamp, flags, json
             FROM messages WHERE id = ?1",
        )?
        .query_row([m.id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?))
        })
        .optional()?;
    let Some(row) = row else {
        if !insert {
            return Ok(Replaced::NotKept);
        }
        put(tx, m)?;
        return Ok(Replaced::Whole);
    };
    let Placed { channel_id, channel_name, dm, flags, json } = placed(m)?;
    let (c, name, topic, sender, email, dm_kept, timestamp, flags_kept, json_kept) = row;
    let same_place = c == channel_id
        && name.as_deref() == channel_name
        && topic == m.subject
        && sender == m.sender_full_name
        && email == m.sender_email
        && dm_kept == dm
        && timestamp == m.timestamp
        && json_kept == json;
    if !same_place {
        put(tx, m)?;
        return Ok(Replaced::Whole);
    }
    if flags_kept == flags {
        return Ok(Replaced::Same);
    }
    tx.prepare_cached("UPDATE messages SET flags = ?2 WHERE id = ?1")?.execute([m.id, flags])?;
    Ok(Replaced::Flags)
}

/// The kept messages' IDs in `scope` below `below` (all when `None`), newest first, at most
/// `limit`: where the check of the whole history goes next.
pub fn newest_below(
    conn: &rusqlite::Connection,
    scope: &Scope,
    below: Option<MessageId>,
    me: crate::api::UserId,
) -> rusqlite::Result<Option<MessageId>> {
    let Some((clause, mut params)) = scope.sql(me) else { return Ok(None) };
    params.push(below.unwrap_or(MessageId::MAX).into());
    let sql = format!("SELECT max(id) FROM messages WHERE ({clause}) AND id < ?{}", params.len());
    conn.query_row(&sql, params_from_iter(params.iter()), |r| r.get(0))
}

/// The channels holding historical messages: each is checked by its own narrow.
pub fn historical_channels(conn: &rusqlite::Connection) -> rusqlite::Result<Vec<ChannelId>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT DISTINCT channel_id FROM messages WHERE flags & {HISTORICAL} != 0 AND channel_id IS NOT NULL"
    ))?;
    stmt.query_map([], |r| r.get(0))?.collect()
}

/// How many kept messages are in doubt (tests, the log).
pub fn doubted(conn: &rusqlite::Connection) -> rusqlite::Result<Vec<MessageId>> {
    let mut stmt = conn.prepare("SELECT id FROM doubt ORDER BY id")?;
    stmt.query_map([], |r| r.get(0))?.collect()
}

#[cfg(test)]
mod tests {
    use super::super::store::{self, tests::channel_message};
    use super::*;

    fn temp() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut s = store::open(
            &dir.path().join("archive/a.db"),
            &crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        )
        .unwrap();
        s.apply(&[Change::Me(1)]).unwrap();
        (dir, s)
    }

    fn check(scope: Scope, lo: MessageId, hi: MessageId, messages: Vec<Message>) -> Check {
        let truth = Some(Truth { scope, lo, hi });
        Check { truth, messages, insert: true, exempt: HashSet::new() }
    }

    /// Apply one check to the store.
    fn apply_check(s: &mut Store, check: Check) {
        apply_all(s, &[Step::Check(Box::new(check))]).unwrap();
    }

    fn kept(s: &Store) -> Vec<MessageId> {
        (1..=9).filter(|id| s.message(*id).unwrap().is_some()).collect()
    }

    fn found(s: &Store, terms: &[NarrowTerm]) -> Vec<MessageId> {
        let mut ids: Vec<MessageId> =
            super::super::query::search(s, terms, 100).unwrap().iter().map(|f| f.message.id).collect();
        ids.sort_unstable();
        ids
    }

    #[test]
    fn an_answer_of_everything_drops_what_it_lacks_in_its_range_and_replaces_what_changed() {
        let (_dir, mut s) = temp();
        let put: Vec<Change> = (1..=5)
            .map(|id| Change::Put(Box::new(channel_message(id, 9, "t", "<p>old words</p>"))))
            .collect();
        s.apply(&put).unwrap();
        let edited = channel_message(2, 9, "t", "<p>new words</p>");
        let same = channel_message(4, 9, "t", "<p>old words</p>");
        apply_check(&mut s, check(Scope::Received, 2, 4, vec![edited, same]));
        assert_eq!(kept(&s), [1, 2, 4, 5], "3 is gone; 1 and 5 are outside the range");
        assert_eq!(s.message(2).unwrap().unwrap().content, "<p>new words</p>");
        assert_eq!(found(&s, &[NarrowTerm::new("search", "old")]), [1, 4, 5]);
    }

    #[test]
    fn a_channel_lacking_a_message_leaves_it_in_doubt_until_the_whole_history_says_where_it_is() {
        let (_dir, mut s) = temp();
        let put: Vec<Change> =
            (1..=4).map(|id| Change::Put(Box::new(channel_message(id, 9, "t", "<p>words</p>")))).collect();
        s.apply(&put).unwrap();
        let channel = vec![NarrowTerm::new("channel", 9)];
        let answer = [1, 2, 4].map(|id| channel_message(id, 9, "t", "<p>words</p>")).to_vec();
        apply_check(&mut s, check(Scope::of_terms(&channel).unwrap(), 1, 4, answer));
        assert_eq!(kept(&s), [1, 2, 3, 4], "it may have moved: kept");
        assert_eq!(doubted(s.conn()).unwrap(), [3]);
        assert_eq!(found(&s, &[NarrowTerm::new("search", "words")]), [1, 2, 4], "but never shown");
        // Everything the user received holds it, in another channel: where it is now.
        let moved = channel_message(3, 10, "t", "<p>words</p>");
        apply_check(&mut s, check(Scope::Received, 3, 3, vec![moved]));
        assert!(doubted(s.conn()).unwrap().is_empty());
        assert_eq!(found(&s, &[NarrowTerm::new("channel", 10)]), [3]);
        // And one in doubt that everything lacks is gone.
        apply_check(&mut s, check(Scope::of_terms(&channel).unwrap(), 1, 4, vec![]));
        assert_eq!(doubted(s.conn()).unwrap(), [1, 2, 4]);
        apply_check(&mut s, check(Scope::Received, MessageId::MIN, MessageId::MAX, vec![]));
        assert_eq!(kept(&s), [] as [MessageId; 0]);
        assert!(doubted(s.conn()).unwrap().is_empty(), "a message gone is no longer in doubt");
    }

    #[test]
    fn what_events_told_of_since_the_answer_was_asked_is_left_as_they_left_it() {
        let (_dir, mut s) = temp();
        let put: Vec<Change> =
            (1..=3).map(|id| Change::Put(Box::new(channel_message(id, 9, "t", "<p>new</p>")))).collect();
        s.apply(&put).unwrap();
        // The answer lacks 3 (sent since) and holds 2 as it was before an edit told since.
        let truth = Some(Truth { scope: Scope::Received, lo: 1, hi: 3 });
        let messages =
            vec![channel_message(1, 9, "t", "<p>new</p>"), channel_message(2, 9, "t", "<p>old</p>")];
        let exempt = HashSet::from([2, 3]);
        apply_check(&mut s, Check { truth, messages, insert: true, exempt });
        assert_eq!(kept(&s), [1, 2, 3]);
        assert_eq!(s.message(2).unwrap().unwrap().content, "<p>new</p>");
    }

    #[test]
    fn a_check_of_the_whole_history_puts_in_nothing_new() {
        let (_dir, mut s) = temp();
        s.apply(&[Change::Put(Box::new(channel_message(2, 9, "t", "<p>w</p>")))]).unwrap();
        let truth = Some(Truth { scope: Scope::Received, lo: 1, hi: 3 });
        let messages = [1, 2, 3].map(|id| channel_message(id, 9, "t", "<p>w</p>")).to_vec();
        let c = Check { truth, messages, insert: false, exempt: HashSet::new() };
        apply_check(&mut s, c);
        assert_eq!(kept(&s), [2]);
    }

    #[test]
    fn an_answer_covers_from_its_first_to_its_last_message_and_on_to_the_ends_it_found() {
        let page =
            |ids: &[MessageId], anchor: Option<MessageId>, oldest: bool, newest: bool| MessagesResponse {
                anchor,
                found_oldest: oldest,
                found_newest: newest,
                messages: ids.iter().map(|id| channel_message(*id, 9, "t", "")).collect(),
                ..serde_json::from_value(serde_json::json!({"messages": []})).unwrap()
            };
        assert_eq!(covered(None, true, &page(&[3, 5], None, false, false)), Some((3, 5)));
        assert_eq!(covered(Some(9), true, &page(&[3, 5], Some(9), false, false)), Some((3, 9)));
        assert_eq!(covered(Some(9), false, &page(&[3, 5], Some(9), false, false)), Some((3, 5)));
        assert_eq!(
            covered(None, true, &page(&[3], None, true, true)),
            Some((MessageId::MIN, MessageId::MAX))
        );
        let newest = page(&[], Some(BEYOND_EVERY_ID), false, true);
        assert_eq!(covered(None, true, &newest), None, "an empty page from `newest` covers nothing known");
        let empty = page(&[], Some(BEYOND_EVERY_ID), true, true);
        assert_eq!(covered(None, true, &empty), Some((MessageId::MIN, MessageId::MAX)), "an empty narrow");
    }
}
