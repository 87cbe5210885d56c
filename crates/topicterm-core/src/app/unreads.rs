//! Unread messages: the one owner of every unread count (channels, topics, direct messages,
//! mentions, the inbox), indexed by conversation so a count costs what it counts, never a walk
//! over all messages. Nothing outside changes the index but through its methods, and a
//! mention is recorded by the same call that records the message unread, so the two cannot
//! part (the Mentions row once stayed behind after `!` until a restart). A leaf.

use super::narrow::dm_key;
use crate::api::{ChannelId, MessageId, UnreadMsgs, UserId};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// Where an unread message lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Conv {
    /// Channel and lowercased topic.
    Topic(ChannelId, String),
    /// Other participants.
    Dm(Vec<UserId>),
}

impl Conv {
    /// A channel's topic (its name lowercased here: topics match case-insensitively).
    pub fn topic(channel: ChannelId, topic: &str) -> Conv {
        Conv::Topic(channel, topic.to_lowercase())
    }

    /// A direct-message conversation of these participants, seen by `me`.
    pub fn dm(participants: &[UserId], me: UserId) -> Conv {
        Conv::Dm(dm_key(participants, me))
    }
}

/// Unread messages, indexed by conversation. A conversation is kept once, shared by its
/// unread messages (a 100,000-message backlog holds no topic name per message).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unreads {
    by_id: HashMap<MessageId, Arc<Conv>>,
    by_conv: HashMap<Arc<Conv>, BTreeSet<MessageId>>,
    /// Channel → topics (lowercased) with unreads.
    by_channel: HashMap<ChannelId, BTreeSet<String>>,
    /// The unread messages that mention the user (a subset of `by_id`).
    mentions: HashSet<MessageId>,
    /// Unread direct messages in all conversations (kept with every change).
    dm_total: usize,
    /// Counts every change: what is derived from the index (the inbox) is rebuilt when it moves.
    revision: u64,
}

impl Unreads {
    /// The unread messages register lists (`unread_msgs`): channels' topics, direct messages
    /// (both forms) and group conversations, with the mentions among them.
    pub fn from_register(u: &UnreadMsgs, me: UserId) -> Unreads {
        let mut unread = Unreads::default();
        let mentions: HashSet<MessageId> = u.mentions.iter().copied().collect();
        let mentioned = |id: &MessageId| mentions.contains(id);
        for s in &u.streams {
            for id in &s.unread_message_ids {
                unread.add(*id, Conv::topic(s.stream_id, &s.topic), mentioned(id));
            }
        }
        for dm in u.direct() {
            if let Some(other) = dm.other() {
                let key = if other == me { vec![] } else { vec![other] };
                for id in &dm.unread_message_ids {
                    unread.add(*id, Conv::Dm(key.clone()), mentioned(id));
                }
            }
        }
        for h in &u.huddles {
            let users: Vec<UserId> = h.user_ids_string.split(',').filter_map(|x| x.parse().ok()).collect();
            for id in &h.unread_message_ids {
                unread.add(*id, Conv::dm(&users, me), mentioned(id));
            }
        }
        unread
    }

    /// A message is unread (again): where it lives, and whether it mentions the user. Known
    /// already: its place and mention are taken as given now (a move, an edit that mentions).
    pub fn add(&mut self, id: MessageId, conv: Conv, mentioned: bool) {
        if self.by_id.get(&id).is_some_and(|c| **c == conv) {
            self.set_mention(id, mentioned);
            return;
        }
        self.remove(id);
        self.revision += 1;
        match &conv {
            Conv::Topic(c, t) => {
                let topics = self.by_channel.entry(*c).or_default();
                if !topics.contains(t) {
                    topics.insert(t.clone());
                }
            }
            Conv::Dm(_) => self.dm_total += 1,
        }
        let shared = match self.by_conv.get_key_value(&conv) {
            Some((shared, _)) => shared.clone(),
            None => Arc::new(conv),
        };
        self.by_conv.entry(shared.clone()).or_default().insert(id);
        self.by_id.insert(id, shared);
        self.set_mention(id, mentioned);
    }

    fn set_mention(&mut self, id: MessageId, mentioned: bool) {
        let changed = if mentioned { self.mentions.insert(id) } else { self.mentions.remove(&id) };
        if changed {
            self.revision += 1;
        }
    }

    /// A message is read (or gone).
    pub fn remove(&mut self, id: MessageId) {
        self.mentions.remove(&id);
        let Some(conv) = self.by_id.remove(&id) else { return };
        self.revision += 1;
        if matches!(*conv, Conv::Dm(_)) {
            self.dm_total -= 1;
        }
        let now_empty = self.by_conv.get_mut(&*conv).is_some_and(|s| {
            s.remove(&id);
            s.is_empty()
        });
        if now_empty {
            self.by_conv.remove(&*conv);
            if let Conv::Topic(c, t) = &*conv
                && let Some(set) = self.by_channel.get_mut(c)
            {
                set.remove(t);
                if set.is_empty() {
                    self.by_channel.remove(c);
                }
            }
        }
    }

    /// Everything is read.
    pub fn clear(&mut self) {
        *self = Unreads { revision: self.revision + 1, ..Unreads::default() };
    }

    /// The index replaced by another (a new register answer's); the revision still moves
    /// forward, so what is derived from the index is rebuilt.
    pub fn replace(&mut self, by: Unreads) {
        let revision = self.revision + by.revision + 1;
        *self = Unreads { revision, ..by };
    }

    pub fn contains(&self, id: MessageId) -> bool {
        self.by_id.contains_key(&id)
    }

    /// How many unread messages in all.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Every unread message, in no order.
    pub fn ids(&self) -> impl Iterator<Item = MessageId> + '_ {
        self.by_id.keys().copied()
    }

    /// Where an unread message lives.
    pub fn conv(&self, id: MessageId) -> Option<&Conv> {
        self.by_id.get(&id).map(|c| &**c)
    }

    /// The unread messages of one conversation.
    pub fn in_conv(&self, conv: &Conv) -> Option<&BTreeSet<MessageId>> {
        self.by_conv.get(conv)
    }

    pub fn count(&self, conv: &Conv) -> usize {
        self.by_conv.get(conv).map_or(0, BTreeSet::len)
    }

    /// Every conversation with unread messages, and its messages.
    pub fn conversations(&self) -> impl Iterator<Item = (&Conv, &BTreeSet<MessageId>)> + '_ {
        self.by_conv.iter().map(|(c, ids)| (&**c, ids))
    }

    /// The topics (lowercased) of a channel that have unread messages.
    pub fn topics_in(&self, channel: ChannelId) -> Option<&BTreeSet<String>> {
        self.by_channel.get(&channel)
    }

    /// Every channel with unread messages, and its topics.
    pub fn channels(&self) -> impl Iterator<Item = (ChannelId, &BTreeSet<String>)> + '_ {
        self.by_channel.iter().map(|(c, t)| (*c, t))
    }

    pub fn is_mention(&self, id: MessageId) -> bool {
        self.mentions.contains(&id)
    }

    /// How many unread messages mention the user.
    pub fn mentions(&self) -> usize {
        self.mentions.len()
    }

    pub fn mention_ids(&self) -> impl Iterator<Item = MessageId> + '_ {
        self.mentions.iter().copied()
    }

    /// Unread direct messages, in all conversations.
    pub fn dm_total(&self) -> usize {
        self.dm_total
    }

    /// Moves with every change (the inbox is rebuilt when it does).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Do the indexes agree with one another? (Checked after every event in debug builds.)
    pub fn check(&self) -> Result<(), String> {
        let mut dms = 0;
        let mut listed = 0;
        for (conv, ids) in &self.by_conv {
            if ids.is_empty() {
                return Err(format!("{conv:?} is listed with no unread message"));
            }
            listed += ids.len();
            for id in ids {
                if self.by_id.get(id).is_none_or(|c| c != conv) {
                    return Err(format!("message {id} is listed under {conv:?} but indexed elsewhere"));
                }
            }
            match &**conv {
                Conv::Dm(_) => dms += ids.len(),
                Conv::Topic(c, t) => {
                    if !self.by_channel.get(c).is_some_and(|ts| ts.contains(t)) {
                        return Err(format!("channel {c} does not list its unread topic {t:?}"));
                    }
                }
            }
        }
        if listed != self.by_id.len() {
            return Err(format!("{} unread messages, {listed} listed by conversation", self.by_id.len()));
        }
        if dms != self.dm_total {
            return Err(format!("{dms} unread direct messages, counted {}", self.dm_total));
        }
        for (c, topics) in &self.by_channel {
            for t in topics {
                if !self.by_conv.contains_key(&Conv::Topic(*c, t.clone())) {
                    return Err(format!("channel {c} lists topic {t:?} with no unread message"));
                }
            }
        }
        if let Some(id) = self.mentions.iter().find(|id| !self.by_id.contains_key(id)) {
            return Err(format!("message {id} counts as a mention but is not unread"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_made_unread_again_counts_its_mention_again() {
        let mut u = Unreads::default();
        u.add(5, Conv::topic(1, "Plans"), true);
        assert_eq!((u.len(), u.mentions()), (1, 1));
        u.remove(5);
        assert_eq!((u.len(), u.mentions()), (0, 0), "read: neither counts");
        u.add(5, Conv::topic(1, "plans"), true);
        assert_eq!((u.len(), u.mentions()), (1, 1), "unread again: both count");
        u.check().unwrap();
    }

    #[test]
    fn a_move_leaves_the_old_topic_empty() {
        let mut u = Unreads::default();
        u.add(5, Conv::topic(1, "plans"), true);
        u.add(6, Conv::dm(&[3, 9], 9), false);
        u.add(5, Conv::topic(2, "later"), true);
        assert!(u.topics_in(1).is_none(), "no topic left with unreads in channel 1");
        assert_eq!(u.count(&Conv::topic(2, "Later")), 1);
        assert!(u.is_mention(5));
        assert_eq!((u.len(), u.dm_total()), (2, 1));
        u.check().unwrap();
    }

    #[test]
    fn adding_twice_counts_once_and_the_revision_moves_with_each_change() {
        let mut u = Unreads::default();
        u.add(5, Conv::dm(&[3], 9), false);
        let r = u.revision();
        u.add(5, Conv::dm(&[3], 9), false);
        assert_eq!((u.dm_total(), u.revision()), (1, r), "nothing changed");
        u.add(5, Conv::dm(&[3], 9), true);
        assert!(u.revision() > r && u.mentions() == 1, "an edit that mentions the user");
        u.clear();
        assert!(u.is_empty() && u.mentions() == 0 && u.dm_total() == 0);
        u.check().unwrap();
    }

    #[test]
    fn the_check_finds_indexes_that_disagree() {
        let mut u = Unreads::default();
        u.add(5, Conv::dm(&[3], 9), false);
        u.dm_total = 2;
        assert!(u.check().unwrap_err().contains("counted 2"));
        let mut u = Unreads::default();
        u.mentions.insert(8);
        assert!(u.check().unwrap_err().contains("not unread"));
    }
}
