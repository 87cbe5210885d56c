//! The outbox: the one owner of the messages on their way to the server (optimistic sending).
//! Its fields are private: an entry is written (`enqueue`) or brought back from disk at start
//! (`restore`), goes out one at a time in the order written (`next_to_send`, `sending`), and
//! takes the send's answer (`on_sent`, `on_unsearchable`, `on_retry`, `on_refused`); it leaves
//! when its message arrives (`on_message`, by its local id or the ID the send returned), when a
//! page holds that message (`reap`), or when taken back into the compose box (`take_back`).
//! `retry_now` skips every wait. What follows on screen and on disk (effects, status words) is
//! `update/outbox.rs`'s; this stays a leaf. The outbox is small: every method costs its length.

use super::narrow::Narrow;
use super::outgoing::{OutState, Outgoing, Target};
use crate::api::MessageId;
use std::collections::HashSet;

/// Messages sent but not yet seen back from the server, in the order written.
#[derive(Debug, Default)]
pub struct Outbox {
    items: Vec<Outgoing>,
    /// Counter for the `local_id`s of sends written in this run.
    next_local_id: u64,
}

impl Outbox {
    /// A message written at `now`: queued behind the others, under a new local id.
    pub fn enqueue(
        &mut self,
        now: i64,
        target: Target,
        channel_name: Option<String>,
        content: String,
        after_id: MessageId,
    ) -> &Outgoing {
        self.next_local_id += 1;
        self.items.push(Outgoing {
            local_id: format!("{now}.{}", self.next_local_id),
            target,
            channel_name,
            content,
            created: now,
            after_id,
            maybe_sent: false,
            attempts: 0,
            state: OutState::Queued,
        });
        self.items.last().expect("just pushed")
    }

    /// Messages left on disk by an earlier run go back ahead of anything written since, oldest
    /// first (by when written, then local id). One whose local id is already held (the same
    /// file) is not taken twice. Returns how many came back.
    pub fn restore(&mut self, mut back: Vec<Outgoing>) -> usize {
        let held: HashSet<String> = self.items.iter().map(|o| o.local_id.clone()).collect();
        back.retain(|o| !held.contains(&o.local_id));
        back.sort_by(|a, b| (a.created, &a.local_id).cmp(&(b.created, &b.local_id)));
        let n = back.len();
        back.append(&mut self.items);
        self.items = back;
        n
    }

    /// The message to send now, if any: none while one is in flight; order is kept, so the
    /// first waiting one goes, and while it waits out a retry the ones after it wait too.
    pub fn next_to_send(&self, now: i64) -> Option<&Outgoing> {
        if self.items.iter().any(|o| o.state == OutState::Sending) {
            return None;
        }
        let o = self.items.iter().find(|o| matches!(o.state, OutState::Queued | OutState::Retry { .. }))?;
        match o.state {
            OutState::Retry { at, .. } if at > now => None,
            _ => Some(o),
        }
    }

    /// Its request goes out.
    pub fn sending(&mut self, local_id: &str) -> Option<&Outgoing> {
        let o = self.get_mut(local_id)?;
        o.state = OutState::Sending;
        Some(o)
    }

    /// The server accepted it as message `id`: shown until that message arrives.
    pub fn on_sent(&mut self, local_id: &str, id: MessageId) -> Option<&Outgoing> {
        let o = self.get_mut(local_id)?;
        o.state = OutState::Sent(id);
        Some(o)
    }

    /// The search for an earlier attempt was refused (its place is gone): queued again, to be
    /// sent without looking.
    pub fn on_unsearchable(&mut self, local_id: &str) -> bool {
        let Some(o) = self.get_mut(local_id) else { return false };
        o.maybe_sent = false;
        o.state = OutState::Queued;
        true
    }

    /// A network or server fault: one more failed attempt, tried again at `backoff(attempts)`,
    /// which is returned. Once an attempt may have reached the server, every later one looks
    /// for it first.
    pub fn on_retry(
        &mut self,
        local_id: &str,
        maybe_sent: bool,
        why: String,
        backoff: impl FnOnce(u32) -> i64,
    ) -> Option<i64> {
        let o = self.get_mut(local_id)?;
        o.attempts += 1;
        let at = backoff(o.attempts);
        o.maybe_sent = o.maybe_sent || maybe_sent;
        o.state = OutState::Retry { at, why };
        Some(at)
    }

    /// The server refused it: it stays, marked, until retried or taken back.
    pub fn on_refused(&mut self, local_id: &str, why: String) -> bool {
        let Some(o) = self.get_mut(local_id) else { return false };
        o.state = OutState::Failed(why);
        true
    }

    /// Message `id` arrived (with our `local_id` when it came through our own queue): the entry
    /// it is, if any, leaves and is returned.
    pub fn on_message(&mut self, local_id: Option<&str>, id: MessageId) -> Option<Outgoing> {
        let pos = self
            .items
            .iter()
            .position(|o| local_id.is_some_and(|l| l == o.local_id) || o.state == OutState::Sent(id))?;
        Some(self.items.remove(pos))
    }

    /// Entries whose message `held` says is held now (however it arrived) leave; their local
    /// ids are returned.
    pub fn reap(&mut self, held: impl Fn(MessageId) -> bool) -> Vec<String> {
        let mut gone = Vec::new();
        self.items.retain(|o| {
            let arrived = matches!(o.state, OutState::Sent(id) if held(id));
            if arrived {
                gone.push(o.local_id.clone());
            }
            !arrived
        });
        gone
    }

    /// Every refused message is queued again and every wait for a retry ends now; returns how
    /// many.
    pub fn retry_now(&mut self, now: i64) -> usize {
        let mut n = 0;
        for o in &mut self.items {
            match &mut o.state {
                OutState::Failed(_) => o.state = OutState::Queued,
                OutState::Retry { at, .. } if *at > now => *at = now,
                _ => continue,
            }
            n += 1;
        }
        n
    }

    /// The newest unsent message (refused, waiting out a retry, or queued) leaves, to go back
    /// into its compose box. One in flight or sent is left alone: it may arrive.
    pub fn take_back(&mut self) -> Option<Outgoing> {
        let pos = self.items.iter().rposition(|o| {
            matches!(o.state, OutState::Failed(_) | OutState::Retry { .. } | OutState::Queued)
        })?;
        Some(self.items.remove(pos))
    }

    /// Forget every entry (their files on disk stay): for tests that clear the way.
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// The entries, in the order written.
    pub fn iter(&self) -> impl Iterator<Item = &Outgoing> {
        self.items.iter()
    }

    /// The entries of a narrow, for the message pane.
    pub fn pending_in<'a>(&'a self, narrow: &'a Narrow) -> impl Iterator<Item = &'a Outgoing> + 'a {
        self.items.iter().filter(move |o| o.target.shown_in(narrow))
    }

    pub fn get(&self, local_id: &str) -> Option<&Outgoing> {
        self.items.iter().find(|o| o.local_id == local_id)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether a message waiting out a retry is due at `now`.
    pub fn retry_due(&self, now: i64) -> bool {
        self.items.iter().any(|o| matches!(o.state, OutState::Retry { at, .. } if at <= now))
    }

    /// The IDs the server gave the messages it accepted that have not arrived yet.
    pub fn sent_ids(&self) -> impl Iterator<Item = MessageId> + '_ {
        self.items.iter().filter_map(|o| if let OutState::Sent(id) = o.state { Some(id) } else { None })
    }

    fn get_mut(&mut self, local_id: &str) -> Option<&mut Outgoing> {
        self.items.iter_mut().find(|o| o.local_id == local_id)
    }

    /// What must hold: each entry under its own local id (its file on disk, the server's echo),
    /// at most one in flight (sends keep their order), and no two accepted by the server as the
    /// same message (one arriving would end both).
    pub fn check(&self) -> Result<(), String> {
        let mut ids = HashSet::new();
        let mut sent = HashSet::new();
        let mut sending: Option<&str> = None;
        for o in &self.items {
            if !ids.insert(o.local_id.as_str()) {
                return Err(format!("two outbox entries have local id {:?}", o.local_id));
            }
            match &o.state {
                OutState::Sending => {
                    if let Some(other) = sending.replace(&o.local_id) {
                        return Err(format!(
                            "outbox entries {other:?} and {:?} are both in flight",
                            o.local_id
                        ));
                    }
                }
                OutState::Sent(id) if !sent.insert(*id) => {
                    return Err(format!("two outbox entries were accepted as message {id}"));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl std::ops::Index<usize> for Outbox {
    type Output = Outgoing;

    /// The entry at `i`, in the order written.
    fn index(&self, i: usize) -> &Outgoing {
        &self.items[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plans() -> Target {
        Target::Channel { id: 1, topic: "Plans".into() }
    }

    /// An outbox holding `texts`, written at 100 in that order; returns their local ids.
    fn written(texts: &[&str]) -> (Outbox, Vec<String>) {
        let mut ob = Outbox::default();
        let ids =
            texts.iter().map(|t| ob.enqueue(100, plans(), None, (*t).into(), 7).local_id.clone()).collect();
        (ob, ids)
    }

    fn states(ob: &Outbox) -> Vec<OutState> {
        ob.iter().map(|o| o.state.clone()).collect()
    }

    fn old(local_id: &str, created: i64) -> Outgoing {
        Outgoing {
            local_id: local_id.into(),
            target: plans(),
            channel_name: None,
            content: local_id.into(),
            created,
            after_id: 3,
            maybe_sent: true,
            attempts: 0,
            state: OutState::Retry { at: 0, why: "restart".into() },
        }
    }

    #[test]
    fn enqueue_gives_each_a_new_local_id_and_queues_it_in_order() {
        let mut ob = Outbox::default();
        let o = ob.enqueue(100, plans(), Some("general".into()), "one".into(), 7);
        assert_eq!((o.local_id.as_str(), o.created, o.after_id), ("100.1", 100, 7));
        assert_eq!((o.state.clone(), o.maybe_sent, o.attempts), (OutState::Queued, false, 0));
        assert_eq!(ob.enqueue(100, plans(), None, "two".into(), 7).local_id, "100.2");
        assert_eq!(ob.iter().map(|o| o.content.as_str()).collect::<Vec<_>>(), ["one", "two"]);
        assert_eq!((ob.len(), ob.is_empty(), ob[1].content.as_str()), (2, false, "two"));
        assert_eq!(ob.get("100.1").map(|o| o.channel_name.as_deref()), Some(Some("general")));
        assert!(ob.check().is_ok());
    }

    #[test]
    fn one_goes_at_a_time_in_order_and_a_retry_holds_back_the_later_ones() {
        let (mut ob, ids) = written(&["a", "b"]);
        assert!(Outbox::default().next_to_send(0).is_none());
        assert_eq!(ob.next_to_send(100).map(|o| o.content.as_str()), Some("a"));
        assert_eq!(ob.sending(&ids[0]).map(|o| o.state.clone()), Some(OutState::Sending));
        assert!(ob.next_to_send(100).is_none(), "one in flight");
        assert!(ob.sending("no such").is_none());
        let at = ob.on_retry(&ids[0], false, "down".into(), |n| 100 + i64::from(n) * 10);
        assert_eq!(at, Some(110));
        assert!(ob.next_to_send(109).is_none(), "'a' waits out its retry, and 'b' behind it");
        assert!(!ob.retry_due(109) && ob.retry_due(110));
        assert_eq!(ob.next_to_send(110).map(|o| o.content.as_str()), Some("a"));
        // A refused one does not hold back the ones after it.
        ob.sending(&ids[0]);
        assert!(ob.on_refused(&ids[0], "no".into()));
        assert_eq!(ob.next_to_send(110).map(|o| o.content.as_str()), Some("b"));
    }

    #[test]
    fn the_answers_of_a_send_set_its_state() {
        let (mut ob, ids) = written(&["a"]);
        let id = &ids[0];
        ob.sending(id);
        assert_eq!(ob.on_retry(id, true, "timed out".into(), i64::from), Some(1));
        assert_eq!(ob.on_retry(id, false, "refused".into(), i64::from), Some(2));
        assert!(ob[0].maybe_sent, "once it may have arrived, it is looked for");
        assert_eq!(ob[0].attempts, 2);
        assert_eq!(ob[0].state, OutState::Retry { at: 2, why: "refused".into() });
        assert!(ob.on_unsearchable(id));
        assert_eq!((ob[0].state.clone(), ob[0].maybe_sent), (OutState::Queued, false));
        assert!(ob.on_refused(id, "not allowed".into()));
        assert_eq!(ob[0].state, OutState::Failed("not allowed".into()));
        assert_eq!(ob.on_sent(id, 42).map(|o| o.state.clone()), Some(OutState::Sent(42)));
        assert_eq!(ob.sent_ids().collect::<Vec<_>>(), [42]);
        // An answer for an entry that is gone changes nothing.
        assert!(ob.on_sent("gone", 1).is_none() && !ob.on_refused("gone", "x".into()));
        assert!(!ob.on_unsearchable("gone") && ob.on_retry("gone", true, "x".into(), |_| 0).is_none());
        assert_eq!(states(&ob), [OutState::Sent(42)]);
    }

    #[test]
    fn a_message_arriving_ends_its_entry_by_local_id_or_by_the_id_it_was_given() {
        let (mut ob, ids) = written(&["a", "b", "c"]);
        ob.on_sent(&ids[1], 50);
        assert!(ob.on_message(None, 49).is_none(), "someone else's");
        assert_eq!(ob.on_message(None, 50).map(|o| o.content), Some("b".into()));
        assert_eq!(ob.on_message(Some(&ids[2]), 60).map(|o| o.content), Some("c".into()));
        assert_eq!(ob.on_message(Some("other"), 61), None);
        assert_eq!(ob.len(), 1);
    }

    #[test]
    fn reap_ends_the_accepted_entries_whose_message_is_held() {
        let (mut ob, ids) = written(&["a", "b", "c"]);
        ob.on_sent(&ids[0], 50);
        ob.on_sent(&ids[2], 52);
        assert_eq!(ob.reap(|id| id == 52 || id == 51), [ids[2].clone()]);
        assert_eq!(ob.iter().map(|o| o.content.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert!(ob.reap(|_| false).is_empty());
    }

    #[test]
    fn retry_now_queues_the_refused_and_ends_the_waits() {
        let (mut ob, ids) = written(&["a", "b", "c", "d"]);
        assert_eq!(ob.retry_now(100), 0, "nothing waits");
        ob.sending(&ids[0]);
        ob.on_retry(&ids[0], false, "down".into(), |_| 130);
        ob.on_refused(&ids[1], "no".into());
        ob.on_sent(&ids[2], 9);
        assert_eq!(ob.retry_now(100), 2);
        assert_eq!(
            states(&ob),
            [
                OutState::Retry { at: 100, why: "down".into() },
                OutState::Queued,
                OutState::Sent(9),
                OutState::Queued
            ]
        );
        assert_eq!(ob.retry_now(100), 0, "a retry already due is not counted again");
    }

    #[test]
    fn take_back_takes_the_newest_unsent_and_leaves_those_on_their_way() {
        let (mut ob, ids) = written(&["a", "b", "c"]);
        ob.sending(&ids[2]);
        ob.on_sent(&ids[2], 9);
        ob.sending(&ids[1]);
        assert_eq!(ob.take_back().map(|o| o.content), Some("a".into()));
        assert!(ob.take_back().is_none(), "one in flight and one accepted: both may arrive");
        assert_eq!(ob.len(), 2);
        ob.clear();
        assert!(ob.is_empty());
    }

    #[test]
    fn restore_puts_the_old_ones_first_oldest_first_and_never_twice() {
        let (mut ob, ids) = written(&["new"]);
        let n = ob.restore(vec![old("20.1", 20), old("10.2", 10), old("10.1", 10), old(&ids[0], 100)]);
        assert_eq!(n, 3, "the one held already is not taken again");
        assert_eq!(
            ob.iter().map(|o| o.local_id.as_str()).collect::<Vec<_>>(),
            ["10.1", "10.2", "20.1", &ids[0]]
        );
        assert_eq!(ob.restore(Vec::new()), 0);
        assert!(ob.check().is_ok());
    }

    #[test]
    fn pending_in_lists_the_entries_a_narrow_shows() {
        let mut ob = Outbox::default();
        ob.enqueue(1, plans(), None, "topic".into(), 0);
        ob.enqueue(1, Target::Channel { id: 2, topic: "x".into() }, None, "other".into(), 0);
        ob.enqueue(1, Target::Dm(vec![5]), None, "dm".into(), 0);
        let texts = |n: Narrow| ob.pending_in(&n).map(|o| o.content.clone()).collect::<Vec<_>>();
        assert_eq!(texts(Narrow::Topic(1, "plans".into())), ["topic"], "topics compare whatever the case");
        assert_eq!(texts(Narrow::Channel(2)), ["other"]);
        assert_eq!(texts(Narrow::Dm(vec![5])), ["dm"]);
        assert_eq!(texts(Narrow::AllDms), ["dm"]);
        assert_eq!(texts(Narrow::All), ["topic", "other", "dm"]);
        assert!(texts(Narrow::Channel(3)).is_empty());
    }

    #[test]
    fn check_catches_two_entries_under_one_local_id() {
        let (mut ob, _) = written(&["a", "b"]);
        ob.items[1].local_id = ob.items[0].local_id.clone();
        assert_eq!(ob.check(), Err("two outbox entries have local id \"100.1\"".into()));
    }

    #[test]
    fn check_catches_two_sends_in_flight() {
        let (mut ob, ids) = written(&["a", "b"]);
        ob.sending(&ids[0]);
        assert!(ob.check().is_ok());
        ob.items[1].state = OutState::Sending;
        assert_eq!(ob.check(), Err("outbox entries \"100.1\" and \"100.2\" are both in flight".into()));
    }

    #[test]
    fn check_catches_two_entries_accepted_as_one_message() {
        let (mut ob, ids) = written(&["a", "b"]);
        ob.on_sent(&ids[0], 5);
        ob.on_sent(&ids[1], 6);
        assert!(ob.check().is_ok());
        ob.items[1].state = OutState::Sent(5);
        assert_eq!(ob.check(), Err("two outbox entries were accepted as message 5".into()));
    }
}
