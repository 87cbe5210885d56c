//! The events that came while a read was on its way (`--low-bandwidth`'s `GET /users`,
//! `GET /users/{id}`, `GET /user_groups`): the answer may have been made before them, so an
//! event the client got after asking wins over it — applied again on the answer, in order, as
//! zulip-flutter does with the events after its request. Kept only while a read is on its way
//! (the log goes once none is), so it costs nothing otherwise. A leaf.

use std::collections::HashMap;
use std::hash::Hash;

/// Reads on their way, each keyed by what it reads, and the events since the oldest was asked.
#[derive(Debug, Clone)]
pub struct Since<K, E> {
    /// The number of the next event recorded.
    next: u64,
    /// Each read on its way: the number of the first event it may not have seen.
    open: HashMap<K, u64>,
    /// The events since the oldest read on its way was asked, numbered.
    log: Vec<(u64, E)>,
}

/// The reads on their way and the events kept (the numbering is bookkeeping).
impl<K: Eq + Hash, E: PartialEq> PartialEq for Since<K, E> {
    fn eq(&self, o: &Self) -> bool {
        (&self.open, &self.log) == (&o.open, &o.log)
    }
}

impl<K, E> Default for Since<K, E> {
    fn default() -> Self {
        Since { next: 0, open: HashMap::new(), log: Vec::new() }
    }
}

impl<K: Eq + Hash, E: Clone> Since<K, E> {
    /// A read of `key` is asked now (one asked again while on its way keeps its first ask: the
    /// events since then are applied again, which the answer may have seen — they set what
    /// they say, so twice is as once).
    pub fn asked(&mut self, key: K) {
        self.open.entry(key).or_insert(self.next);
    }

    /// An event applied: kept while a read is on its way.
    pub fn record(&mut self, ev: &E) {
        if !self.open.is_empty() {
            self.log.push((self.next, ev.clone()));
        }
        self.next += 1;
    }

    /// The read of `key` answered (or failed): the events that came since it was asked, in
    /// order, to apply again over its answer. Nothing when no such read was on its way.
    pub fn answered(&mut self, key: &K) -> Vec<E> {
        let Some(from) = self.open.remove(key) else { return vec![] };
        let start = self.log.partition_point(|(n, _)| *n < from);
        let since = self.log[start..].iter().map(|(_, e)| e.clone()).collect();
        // What no read on its way needs any longer goes.
        match self.open.values().min() {
            None => self.log.clear(),
            Some(oldest) => {
                let keep = self.log.partition_point(|(n, _)| n < oldest);
                self.log.drain(..keep);
            }
        }
        since
    }

    /// Every read forgotten (a new register: their answers belong to the last one).
    pub fn clear(&mut self) {
        self.open.clear();
        self.log.clear();
    }

    /// Events kept.
    #[cfg(test)]
    pub fn kept(&self) -> usize {
        self.log.len()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Users, WANT_GROUPS, WANT_PEOPLE};
    use super::*;
    use crate::api::{Event, EventKind, User, UserId};
    use serde_json::{Value, json};

    fn apply(u: &mut Users, v: Value) {
        match Event::decode(v).kind {
            EventKind::RealmUser(ev) => u.on_realm_user(&ev),
            EventKind::UserGroup(ev) => u.on_group(&ev),
            other => panic!("not a user or group event: {other:?}"),
        }
        u.check().unwrap();
    }

    #[test]
    fn events_while_a_read_is_on_its_way_win_over_its_older_answer() {
        let person = |id: UserId, name: &str| -> User {
            serde_json::from_value(
                json!({"user_id": id, "full_name": name, "email": format!("{id}@x"), "is_active": true}),
            )
            .unwrap()
        };
        let update = |person: Value| json!({"type": "realm_user", "op": "update", "person": person});
        let mut u = Users::default();
        u.start_partial();
        u.learn(2, "Bo", "bo@x");
        // The whole list asked; meanwhile Bo is renamed and Cy (not known here) deactivated.
        assert!(u.all().is_none());
        assert_eq!(u.take_wants(), WANT_PEOPLE);
        apply(&mut u, update(json!({"user_id": 2, "full_name": "Bo Renamed"})));
        apply(&mut u, update(json!({"user_id": 3, "is_active": false})));
        // The answer, made before both.
        u.on_people(vec![person(2, "Bo"), person(3, "Cy")]);
        u.check().unwrap();
        assert_eq!(u.name(2), "Bo Renamed");
        assert!(!u[&3].is_active);
        assert_eq!(u.named("Bo").count(), 0);
        // One user read alone: an event about them meanwhile wins, one about another is not
        // applied again; an answer once everyone is known is not needed.
        let mut u = Users::default();
        u.start_partial();
        u.reading_user(4);
        apply(&mut u, update(json!({"user_id": 4, "full_name": "Di New"})));
        u.on_user(&person(4, "Di"));
        assert_eq!(u.name(4), "Di New");
        u.reading_user(5);
        apply(&mut u, update(json!({"user_id": 4, "full_name": "Di Newer"})));
        u.on_user(&person(5, "Ed"));
        assert_eq!((u.name(4), u.name(5)), ("Di Newer", "Ed"));
        // The groups likewise; a member the answer has already is kept once.
        assert!(u.all_groups().is_none());
        assert_eq!(u.take_wants(), WANT_GROUPS);
        apply(&mut u, json!({"type": "user_group", "op": "add_members", "group_id": 5, "user_ids": [4]}));
        apply(
            &mut u,
            json!({"type": "user_group", "op": "add", "group": {"id": 6, "name": "new", "members": [5]}}),
        );
        u.on_groups(vec![serde_json::from_value(json!({"id": 5, "name": "b", "members": [4]})).unwrap()]);
        assert_eq!(u.group(5).map(|g| g.members.clone()), Some(vec![4]));
        assert_eq!(u.group(6).map(|g| g.members.clone()), Some(vec![5]));
        assert_eq!(u.user_reads.kept() + u.group_reads.kept(), 0, "nothing kept once answered");
        // Without a read on the way nothing is kept.
        apply(&mut u, update(json!({"user_id": 4, "full_name": "Di"})));
        assert_eq!(u.user_reads.kept(), 0);
    }

    #[test]
    fn each_answer_gets_the_events_since_its_ask_and_nothing_is_kept_after() {
        let mut s: Since<u8, &str> = Since::default();
        s.record(&"before any read");
        assert_eq!(s.kept(), 0, "nothing is on its way: nothing kept");
        s.asked(1);
        s.record(&"a");
        s.asked(2);
        s.asked(1);
        s.record(&"b");
        assert_eq!(s.answered(&2), ["b"]);
        assert_eq!(s.kept(), 2, "read 1 still needs both");
        assert_eq!(s.answered(&1), ["a", "b"], "its first ask counts");
        assert_eq!(s.kept(), 0);
        assert_eq!(s.answered(&1), Vec::<&str>::new(), "answered once");
        s.asked(3);
        s.clear();
        s.record(&"c");
        assert_eq!((s.kept(), s.answered(&3)), (0, vec![]));
    }
}
