//! What the event queue told of messages lately — sent, edited, moved, deleted, flagged,
//! reacted to — which wins over a page of messages asked for before it.
//!
//! A real server may answer a page before it has made a change whose event the client then
//! applies first (a rename, a resolve, a move: the page's request and the event race), so a
//! page can arrive holding what the event already replaced. Every message an event touched is
//! noted here with when (the clock of `update`); a page that arrives within [`HOLD`] seconds
//! leaves what the store holds of such a message as it is, takes back a deleted one never, and
//! puts a moved one where the event said it went. [`HOLD`] is longer than any page request may
//! take (the client's requests time out after 30 s), so an older note can concern no page still
//! on its way; notes older than that are let go of as new ones come. A new event queue starts
//! afresh ([`Told::forget`]): what it tells is the truth from then on.
//!
//! A leaf: message IDs, channel IDs, topics and times.

use crate::api::{ChannelId, MessageId};
use std::collections::{HashMap, VecDeque};

/// How long, in seconds, an event's word on a message wins over pages.
pub const HOLD: i64 = 120;

/// What an event said of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// Changed where it stands (its text, flags, reactions, widgets) or newly sent.
    Changed,
    /// Moved: to this channel (`None`: the same) and/or this topic (`None`: the same).
    Moved { channel: Option<ChannelId>, topic: Option<String> },
    /// Deleted.
    Deleted,
}

/// The notes, by message, and the order they were taken in (to let the old ones go).
#[derive(Debug, Default)]
pub struct Told {
    notes: HashMap<MessageId, (i64, Mark)>,
    /// (when, message) in the order noted; an entry whose time no longer matches the note is a
    /// later note's leftover and is skipped.
    order: VecDeque<(i64, MessageId)>,
}

impl Told {
    /// An event touched message `id` at `now`. A move is kept over a later change where it
    /// stands (the page may still hold the old place), a deletion over everything.
    pub fn note(&mut self, id: MessageId, mark: Mark, now: i64) {
        self.let_go(now);
        let mark = match (self.notes.remove(&id), mark) {
            (Some((_, Mark::Deleted)), _) => Mark::Deleted,
            (Some((_, Mark::Moved { channel, topic })), Mark::Changed) => Mark::Moved { channel, topic },
            (Some((_, Mark::Moved { channel: c0, topic: t0 })), Mark::Moved { channel, topic }) => {
                Mark::Moved { channel: channel.or(c0), topic: topic.or(t0) }
            }
            (_, mark) => mark,
        };
        self.notes.insert(id, (now, mark));
        self.order.push_back((now, id));
    }

    /// What an event said of message `id` lately.
    pub fn of(&self, id: MessageId) -> Option<&Mark> {
        self.notes.get(&id).map(|(_, m)| m)
    }

    /// Every message an event touched lately, and what it said.
    pub fn iter(&self) -> impl Iterator<Item = (MessageId, &Mark)> {
        self.notes.iter().map(|(id, (_, m))| (*id, m))
    }

    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    /// Let go of the notes older than [`HOLD`] at `now` (amortised O(1) per note).
    pub fn let_go(&mut self, now: i64) {
        while let Some(&(at, id)) = self.order.front() {
            if at >= now - HOLD {
                break;
            }
            self.order.pop_front();
            if self.notes.get(&id).is_some_and(|(when, _)| *when == at) {
                self.notes.remove(&id);
            }
        }
    }

    /// A new event queue: the notes of the old one no longer concern any page.
    pub fn forget(&mut self) {
        self.notes.clear();
        self.order.clear();
    }

    /// Every note has its place in the order.
    pub fn check(&self) -> Result<(), String> {
        if self.notes.len() > self.order.len() {
            return Err("a note on a message is missing from the order of notes".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_lasts_its_hold_and_the_old_ones_go_as_new_ones_come() {
        let mut t = Told::default();
        t.note(1, Mark::Changed, 100);
        t.note(2, Mark::Deleted, 150);
        assert_eq!(t.of(1), Some(&Mark::Changed));
        t.note(3, Mark::Changed, 100 + HOLD);
        assert_eq!(t.of(1), Some(&Mark::Changed), "exactly HOLD seconds old: still held");
        t.note(3, Mark::Changed, 101 + HOLD);
        assert_eq!(t.of(1), None);
        assert_eq!(t.of(2), Some(&Mark::Deleted));
        t.let_go(151 + HOLD);
        assert_eq!(t.of(2), None);
        assert_eq!(t.of(3), Some(&Mark::Changed), "its newer note stands, not the older one");
        t.check().unwrap();
        t.forget();
        assert!(t.is_empty());
    }

    #[test]
    fn a_deletion_stands_over_later_notes_and_a_move_over_a_change() {
        let mut t = Told::default();
        t.note(1, Mark::Moved { channel: Some(9), topic: None }, 10);
        t.note(1, Mark::Changed, 11);
        t.note(1, Mark::Moved { channel: None, topic: Some("b".into()) }, 12);
        assert_eq!(t.of(1), Some(&Mark::Moved { channel: Some(9), topic: Some("b".into()) }));
        t.note(1, Mark::Deleted, 13);
        t.note(1, Mark::Changed, 14);
        assert_eq!(t.of(1), Some(&Mark::Deleted));
    }
}
