//! Topics: the one owner of each channel's topic rows (the channels pane's topics, the
//! completion of `#channel>topic`) and of the user's topic policies (muted, unmuted,
//! followed). Its fields are private: the rows come from the server's list of a channel's
//! topics (`on_fetched`), from every message stored in a topic (`on_message`), and go or move
//! with the messages they stand on (`on_message_left`, `on_move`, `on_delete`, a channel gone);
//! the policies come from register (`on_register`) and the `user_topic` event. What is still
//! known of a topic elsewhere (its unread messages, its view) is asked of the caller through a
//! closure, so this stays a leaf.

use crate::api::names::same_name;
use crate::api::{
    ChannelId, DeleteMessageEvent, MessageId, RegisterResponse, TopicEntry, UpdateMessageEvent, UserTopic,
    VisibilityPolicy,
};
use std::collections::HashMap;

/// A topic of a channel: a row, standing on its newest message known here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    pub name: String,
    pub max_id: MessageId,
}

/// The topics of one channel, listed by the server when asked (lazily), and touched by every
/// message seen meanwhile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TopicList {
    /// The server listed the channel's topics.
    loaded: bool,
    /// The server is being asked for them.
    loading: bool,
    /// The last list the server gave was older than the messages held (it named a message
    /// moved since as a topic's newest): asked again once, not again while its lists stay so.
    stale: bool,
    /// Newest first.
    rows: Vec<TopicInfo>,
}

impl TopicList {
    /// Whether the server listed the channel's topics (else the rows are only those seen).
    pub fn is_loaded(&self) -> bool {
        self.loaded
    }

    /// Whether the server is being asked for them.
    pub fn is_loading(&self) -> bool {
        self.loading
    }

    /// The rows, newest first.
    pub fn iter(&self) -> std::slice::Iter<'_, TopicInfo> {
        self.rows.iter()
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The row of topic `name` (ASCII case ignored, as rows are told apart).
    pub fn get(&self, name: &str) -> Option<&TopicInfo> {
        self.rows.iter().find(|t| same_name(&t.name, name))
    }

    /// Record a message in a topic (keeps newest-first order).
    fn touch(&mut self, name: &str, id: MessageId) {
        if let Some(pos) = self.rows.iter().position(|t| same_name(&t.name, name)) {
            if self.rows[pos].max_id >= id {
                return;
            }
            self.rows.remove(pos);
        }
        let at = self.rows.partition_point(|t| t.max_id > id);
        self.rows.insert(at, TopicInfo { name: name.to_owned(), max_id: id });
    }

    /// The row at `pos` lost the message it stood on: it stands on what `left` says is still
    /// known of the topic (given its name), else goes until the server lists the topics again.
    fn lose(&mut self, pos: usize, left: impl FnOnce(&str) -> Option<MessageId>) {
        let row = self.rows.remove(pos);
        if let Some(newest) = left(&row.name) {
            self.touch(&row.name, newest);
        }
    }
}

/// What a move or deletion did to the rows, for what the caller does after.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RowsChanged {
    /// A row went or moved (the sidebar is drawn again).
    pub rows: bool,
    /// The server's list of this channel's topics is to be asked for again (it was listed,
    /// and only the server knows what is left).
    pub ask_again: Option<ChannelId>,
}

/// Every channel's topic rows, and the user's topic policies.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Topics {
    lists: HashMap<ChannelId, TopicList>,
    /// (channel, lowercased topic) → policy; `VisibilityPolicy::None` is never kept.
    policies: HashMap<(ChannelId, String), VisibilityPolicy>,
}

impl Topics {
    /// What register's answer says: the user's topic policies (servers before level 170 list
    /// muted topics as [channel name, topic, time], named through `channel_id`), and a row for
    /// each topic with unread messages (the rows held stay: the server lists them when asked).
    pub fn on_register(&mut self, r: &RegisterResponse, channel_id: impl Fn(&str) -> Option<ChannelId>) {
        self.policies.clear();
        for t in r.user_topics.iter().flatten() {
            self.set_policy(t.stream_id, &t.topic_name, t.visibility_policy);
        }
        if r.user_topics.is_none() {
            for m in r.muted_topics.iter().flatten() {
                let (Some(name), Some(topic)) =
                    (m.get(0).and_then(|v| v.as_str()), m.get(1).and_then(|v| v.as_str()))
                else {
                    continue;
                };
                if let Some(c) = channel_id(name) {
                    self.set_policy(c, topic, VisibilityPolicy::Muted);
                }
            }
        }
        for t in r.unread_msgs.iter().flat_map(|u| &u.streams) {
            if let Some(newest) = t.unread_message_ids.iter().max() {
                self.on_message(t.stream_id, &t.topic, *newest);
            }
        }
    }

    /// A topic's policy changed (the `user_topic` event; `None` takes it back to the default).
    pub fn on_user_topic(&mut self, t: &UserTopic) {
        self.set_policy(t.stream_id, &t.topic_name, t.visibility_policy);
    }

    fn set_policy(&mut self, c: ChannelId, topic: &str, policy: VisibilityPolicy) {
        let key = (c, topic.to_lowercase());
        if policy == VisibilityPolicy::None {
            self.policies.remove(&key);
        } else {
            self.policies.insert(key, policy);
        }
    }

    /// Whether the server should be asked for a channel's topics now: not listed and not being
    /// asked. Asked from here on (`true`).
    pub fn ask(&mut self, channel: ChannelId) -> bool {
        let list = self.lists.entry(channel).or_default();
        let ask = !list.loaded && !list.loading;
        list.loading |= ask;
        ask
    }

    /// The ask for a channel's topics failed: it is no longer loading, so the next look at the
    /// channel asks again (a list already held stays).
    pub fn on_failed(&mut self, channel: ChannelId) {
        if let Some(list) = self.lists.get_mut(&channel) {
            list.loading = false;
        }
    }

    /// A channel's topics, as the server lists them: what there is (a topic it no longer lists
    /// was deleted or moved away), with each topic that still has unread messages (`unread`:
    /// the topic and its newest unread message). A listed topic whose newest message is held
    /// and in another topic now (`moved`: the list was taken before a move this client has
    /// applied) is left out, and the list is to be asked for again (`true`) — once, so a server
    /// whose lists stay so is not asked without end.
    pub fn on_fetched<'a>(
        &mut self,
        channel: ChannelId,
        listed: Vec<TopicEntry>,
        unread: impl IntoIterator<Item = (&'a str, MessageId)>,
        moved: impl Fn(&str, MessageId) -> bool,
    ) -> bool {
        let list = self.lists.entry(channel).or_default();
        list.rows.clear();
        let mut stale = false;
        for t in listed {
            if moved(&t.name, t.max_id) {
                stale = true;
            } else {
                list.touch(&t.name, t.max_id);
            }
        }
        for (t, newest) in unread {
            if list.get(t).is_none() {
                list.touch(t, newest);
            }
        }
        list.loaded = true;
        list.loading = false;
        let again = stale && !list.stale;
        list.stale = stale;
        again
    }

    /// A message stored, or known, in channel `c`'s topic `topic`.
    pub fn on_message(&mut self, c: ChannelId, topic: &str, id: MessageId) {
        self.lists.entry(c).or_default().touch(topic, id);
    }

    /// Message `id` is no longer in channel `c`'s topic `topic` (lowercased): a row standing on
    /// it stands on what `left` says is still known of the topic, else goes until the server
    /// lists the channel's topics again.
    pub fn on_message_left(
        &mut self,
        c: ChannelId,
        topic: &str,
        id: MessageId,
        left: impl FnOnce(&str) -> Option<MessageId>,
    ) {
        let Some(list) = self.lists.get_mut(&c) else { return };
        if let Some(pos) = list.rows.iter().position(|t| t.max_id == id && t.name.to_lowercase() == topic) {
            list.lose(pos, left);
        }
    }

    /// Messages `ids` moved (renamed, or to another channel): the row goes where they went.
    /// The old row goes when the whole topic moved; when only some messages did and its newest
    /// among them, it stands on what `left` says is still known there, and a listed channel's
    /// topics are asked for again.
    pub fn on_move(
        &mut self,
        ev: &UpdateMessageEvent,
        ids: &[MessageId],
        left: impl FnOnce(&str) -> Option<MessageId>,
    ) -> RowsChanged {
        let (Some(from), Some(old)) = (ev.stream_id, ev.orig_subject.as_deref()) else {
            return RowsChanged::default();
        };
        let to = ev.new_stream_id.unwrap_or(from);
        let new = ev.subject.as_deref().unwrap_or(old);
        let mut changed = RowsChanged { rows: true, ask_again: None };
        if let Some(list) = self.lists.get_mut(&from) {
            if ev.propagate_mode.as_deref() == Some("change_all") {
                list.rows.retain(|t| !same_name(&t.name, old));
            } else {
                if let Some(pos) = list.rows.iter().position(|t| same_name(&t.name, old))
                    && ids.contains(&list.rows[pos].max_id)
                {
                    list.lose(pos, left);
                }
                if list.loaded {
                    changed.ask_again = Some(from);
                }
            }
        }
        if let (Some(list), Some(max)) = (self.lists.get_mut(&to), ids.iter().max()) {
            list.touch(new, *max);
        }
        changed
    }

    /// Messages deleted (one, or a topic's in batches): a topic whose newest message went
    /// stands on what `left` says is still known of it, else loses its row; a listed channel's
    /// topics are asked for again.
    pub fn on_delete(
        &mut self,
        ev: &DeleteMessageEvent,
        left: impl FnOnce(&str) -> Option<MessageId>,
    ) -> RowsChanged {
        let (Some(c), Some(topic)) = (ev.stream_id, ev.topic.as_deref()) else {
            return RowsChanged::default();
        };
        let Some(list) = self.lists.get_mut(&c) else { return RowsChanged::default() };
        let Some(pos) = list.rows.iter().position(|t| same_name(&t.name, topic)) else {
            return RowsChanged::default();
        };
        if !ev.ids().contains(&list.rows[pos].max_id) {
            return RowsChanged::default();
        }
        list.lose(pos, left);
        RowsChanged { rows: true, ask_again: list.loaded.then_some(c) }
    }

    /// Channels deleted or archived: their rows go (asked for again should one come back).
    /// The policies stay, as the server keeps them.
    pub fn on_channels_gone(&mut self, ids: &[ChannelId]) {
        for c in ids {
            self.lists.remove(c);
        }
    }

    /// A channel's topics, if any are known.
    pub fn of(&self, channel: ChannelId) -> Option<&TopicList> {
        self.lists.get(&channel)
    }

    /// Every channel's topics, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (ChannelId, &TopicList)> + '_ {
        self.lists.iter().map(|(c, l)| (*c, l))
    }

    /// The user's policy for a topic (any case); `None` when they set none.
    pub fn policy(&self, channel: ChannelId, topic: &str) -> VisibilityPolicy {
        self.policies.get(&(channel, topic.to_lowercase())).copied().unwrap_or(VisibilityPolicy::None)
    }

    /// Every policy the user set: the channel, the lowercased topic, the policy; in no order.
    pub fn policies(&self) -> impl Iterator<Item = (ChannelId, &str, VisibilityPolicy)> + '_ {
        self.policies.iter().map(|((c, t), p)| (*c, t.as_str(), *p))
    }

    /// Whether the rows and policies agree with themselves: no channel lists a topic twice,
    /// each list is newest first and not both listed and being asked for, and every policy is
    /// kept under its lowercased topic and is not the default.
    pub fn check(&self) -> Result<(), String> {
        for (c, list) in &self.lists {
            let mut names: Vec<String> = list.rows.iter().map(|t| t.name.to_lowercase()).collect();
            names.sort_unstable();
            if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
                return Err(format!("channel {c} lists topic {:?} twice", w[0]));
            }
            if let Some(w) = list.rows.windows(2).find(|w| w[0].max_id < w[1].max_id) {
                return Err(format!(
                    "channel {c} lists topic {:?} before the newer {:?}",
                    w[0].name, w[1].name
                ));
            }
            if list.loaded && list.loading {
                return Err(format!("channel {c}'s topics are both listed and being asked for"));
            }
        }
        for ((c, t), p) in &self.policies {
            if *t != t.to_lowercase() {
                return Err(format!("the policy of channel {c}'s topic {t:?} is not kept lowercased"));
            }
            if *p == VisibilityPolicy::None {
                return Err(format!("channel {c}'s topic {t:?} keeps the default policy"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Event, EventKind};
    use serde_json::{Value, json};

    fn event(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    #[test]
    fn a_failed_ask_is_asked_again_and_a_pending_one_is_not() {
        let mut t = Topics::default();
        assert!(t.ask(1), "first look");
        assert!(!t.ask(1), "already on its way");
        t.on_failed(1);
        assert!(t.ask(1), "failed: asked again");
        t.on_failed(2);
        assert!(t.ask(2), "a channel never asked is unchanged by a failure");
    }

    fn entry(name: &str, max_id: MessageId) -> TopicEntry {
        TopicEntry { name: name.into(), max_id }
    }

    fn rows(t: &Topics, c: ChannelId) -> Vec<(&str, MessageId)> {
        t.of(c).map_or(vec![], |l| l.iter().map(|r| (r.name.as_str(), r.max_id)).collect())
    }

    /// Channel 1 listed by the server: "plans" (9), "lunch" (5), "Old" (2).
    fn store() -> Topics {
        let mut t = Topics::default();
        assert!(t.ask(1));
        assert!(
            !t.on_fetched(1, vec![entry("lunch", 5), entry("plans", 9), entry("Old", 2)], [], |_, _| false)
        );
        t.check().unwrap();
        t
    }

    fn update(v: Value) -> UpdateMessageEvent {
        let EventKind::UpdateMessage(ev) = event(v) else { panic!("not an update_message event") };
        *ev
    }

    fn delete(v: Value) -> DeleteMessageEvent {
        let EventKind::DeleteMessage(ev) = event(v) else { panic!("not a delete_message event") };
        ev
    }

    #[test]
    fn a_channel_is_asked_for_once_and_its_list_replaces_what_was_seen() {
        let mut t = Topics::default();
        t.on_message(1, "seen", 3);
        assert!(t.of(1).is_some_and(|l| !l.is_loaded() && !l.is_loading()));
        assert!(t.ask(1));
        assert!(t.of(1).unwrap().is_loading());
        assert!(!t.ask(1), "already being asked");
        t.check().unwrap();
        // The server's list is what there is; a topic with unread messages stands too.
        assert!(!t.on_fetched(1, vec![entry("a", 4), entry("b", 7)], [("c", 6), ("B", 1)], |_, _| false));
        assert_eq!(rows(&t, 1), [("b", 7), ("c", 6), ("a", 4)]);
        let l = t.of(1).unwrap();
        assert!(l.is_loaded() && !l.is_loading() && l.len() == 3 && !l.is_empty());
        assert_eq!(l.get("B").map(|r| r.max_id), Some(7));
        assert!(!t.ask(1), "listed");
        t.check().unwrap();
    }

    #[test]
    fn a_list_taken_before_a_move_leaves_out_the_moved_topic_and_is_asked_again_once() {
        let mut t = store();
        // Message 9 moved out of "plans" after the server made its list.
        let moved = |name: &str, id| name == "plans" && id == 9;
        let listed = || vec![entry("plans", 9), entry("lunch", 5)];
        assert!(t.on_fetched(1, listed(), [], moved), "asked again");
        assert_eq!(rows(&t, 1), [("lunch", 5)]);
        t.check().unwrap();
        assert!(!t.on_fetched(1, listed(), [], moved), "not again while the lists stay so");
        assert!(!t.on_fetched(1, vec![entry("lunch", 5)], [], moved));
        assert!(t.on_fetched(1, listed(), [], moved), "a fresh list came between");
    }

    #[test]
    fn a_message_moves_its_topic_up_and_never_down() {
        let mut t = store();
        t.on_message(1, "LUNCH", 12);
        t.on_message(1, "plans", 3);
        t.on_message(1, "new", 10);
        assert_eq!(rows(&t, 1), [("LUNCH", 12), ("new", 10), ("plans", 9), ("Old", 2)]);
        t.on_message(2, "x", 1);
        assert_eq!(rows(&t, 2), [("x", 1)]);
        t.check().unwrap();
    }

    #[test]
    fn a_message_that_left_its_topic_takes_the_row_off_it() {
        let mut t = store();
        // Not the row's newest message: nothing changes.
        t.on_message_left(1, "plans", 8, |_| panic!("not asked"));
        t.on_message_left(1, "plans", 9, |name| {
            assert_eq!(name, "plans");
            Some(4)
        });
        assert_eq!(rows(&t, 1), [("lunch", 5), ("plans", 4), ("Old", 2)]);
        t.on_message_left(1, "old", 2, |_| None);
        assert_eq!(rows(&t, 1), [("lunch", 5), ("plans", 4)]);
        t.on_message_left(7, "x", 1, |_| panic!("no such channel"));
        t.check().unwrap();
    }

    #[test]
    fn a_whole_topic_moved_takes_its_row_along() {
        let mut t = store();
        t.on_message(2, "elsewhere", 1);
        let ev = update(json!({"type": "update_message", "message_id": 9, "message_ids": [8, 9],
            "stream_id": 1, "new_stream_id": 2, "orig_subject": "PLANS", "subject": "moved",
            "propagate_mode": "change_all"}));
        let changed = t.on_move(&ev, &[8, 9], |_| panic!("nothing is left"));
        assert_eq!(changed, RowsChanged { rows: true, ask_again: None });
        assert_eq!(rows(&t, 1), [("lunch", 5), ("Old", 2)]);
        assert_eq!(rows(&t, 2), [("moved", 9), ("elsewhere", 1)]);
        t.check().unwrap();
    }

    #[test]
    fn part_of_a_topic_moved_leaves_its_row_on_what_is_left_and_asks_again() {
        let mut t = store();
        let ev = update(json!({"type": "update_message", "message_id": 9, "stream_id": 1,
            "orig_subject": "plans", "subject": "plans (2)", "propagate_mode": "change_later"}));
        let changed = t.on_move(&ev, &[9], |name| (name == "plans").then_some(7));
        assert_eq!(changed, RowsChanged { rows: true, ask_again: Some(1) });
        assert_eq!(rows(&t, 1), [("plans (2)", 9), ("plans", 7), ("lunch", 5), ("Old", 2)]);
        // A channel never listed is not asked for; one not held gets no row.
        let ev = update(json!({"type": "update_message", "message_id": 3, "stream_id": 5,
            "new_stream_id": 6, "orig_subject": "a", "propagate_mode": "change_one"}));
        t.on_message(5, "a", 3);
        assert_eq!(t.on_move(&ev, &[3], |_| None), RowsChanged { rows: true, ask_again: None });
        assert_eq!((rows(&t, 5), t.of(6)), (vec![], None));
        // Not a move: nothing.
        let edit = update(json!({"type": "update_message", "message_id": 3, "rendered_content": "x"}));
        assert_eq!(t.on_move(&edit, &[3], |_| None), RowsChanged::default());
        t.check().unwrap();
    }

    #[test]
    fn a_topics_newest_message_deleted_moves_or_takes_its_row_and_asks_again() {
        let mut t = store();
        let ev = |ids: Value, topic: &str| {
            delete(json!({"type": "delete_message", "message_type": "stream", "message_ids": ids,
                "stream_id": 1, "topic": topic}))
        };
        // Not the row's newest: nothing.
        assert_eq!(t.on_delete(&ev(json!([4]), "lunch"), |_| None), RowsChanged::default());
        let changed = t.on_delete(&ev(json!([5]), "LUNCH"), |name| (name == "lunch").then_some(4));
        assert_eq!(changed, RowsChanged { rows: true, ask_again: Some(1) });
        assert_eq!(rows(&t, 1), [("plans", 9), ("lunch", 4), ("Old", 2)]);
        // The whole topic deleted by an administrator: the row goes.
        t.on_delete(&ev(json!([8, 9]), "plans"), |_| None);
        assert_eq!(rows(&t, 1), [("lunch", 4), ("Old", 2)]);
        // A direct message, or a channel not held: nothing.
        let dm = delete(json!({"type": "delete_message", "message_type": "private", "message_id": 4}));
        assert_eq!(t.on_delete(&dm, |_| None), RowsChanged::default());
        t.check().unwrap();
    }

    #[test]
    fn a_channel_gone_loses_its_rows_and_keeps_its_policies() {
        let mut t = store();
        t.on_user_topic(&UserTopic {
            stream_id: 1,
            topic_name: "Lunch".into(),
            last_updated: 0,
            visibility_policy: VisibilityPolicy::Muted,
        });
        t.on_channels_gone(&[1, 3]);
        assert!(t.of(1).is_none());
        assert_eq!(t.policy(1, "lunch"), VisibilityPolicy::Muted);
        assert!(t.ask(1), "asked for again should it come back");
    }

    #[test]
    fn policies_come_from_register_and_the_user_topic_event() {
        let mut t = store();
        let r: RegisterResponse = serde_json::from_value(json!({
            "queue_id": "q", "last_event_id": -1,
            "user_topics": [
                {"stream_id": 1, "topic_name": "Plans", "last_updated": 0, "visibility_policy": 3},
                {"stream_id": 1, "topic_name": "noise", "last_updated": 0, "visibility_policy": 0},
            ],
            "unread_msgs": {"count": 2, "pms": [], "huddles": [], "mentions": [], "streams": [
                {"stream_id": 1, "topic": "lunch", "unread_message_ids": [11, 10]},
                {"stream_id": 4, "topic": "fresh", "unread_message_ids": [3]},
            ]},
        }))
        .unwrap();
        t.on_register(&r, |_| panic!("the policies are listed"));
        assert_eq!(t.policy(1, "PLANS"), VisibilityPolicy::Followed);
        assert_eq!(t.policy(1, "noise"), VisibilityPolicy::None);
        assert_eq!(t.policies().collect::<Vec<_>>(), [(1, "plans", VisibilityPolicy::Followed)]);
        assert_eq!(rows(&t, 1), [("lunch", 11), ("plans", 9), ("Old", 2)], "the rows held stay");
        assert_eq!(rows(&t, 4), [("fresh", 3)]);
        t.check().unwrap();
        let ev = |policy: i64| {
            let EventKind::UserTopic(u) = event(json!({"type": "user_topic", "stream_id": 1,
                "topic_name": "PLANS", "last_updated": 1, "visibility_policy": policy}))
            else {
                panic!("not a user_topic event")
            };
            u
        };
        t.on_user_topic(&ev(1));
        assert_eq!(t.policy(1, "plans"), VisibilityPolicy::Muted);
        t.on_user_topic(&ev(0));
        assert_eq!(t.policies().count(), 0, "back to the default: not kept");
        t.check().unwrap();
    }

    #[test]
    fn before_level_170_the_muted_topics_are_named_by_channel() {
        let mut t = Topics::default();
        let r: RegisterResponse = serde_json::from_value(json!({
            "queue_id": "q", "last_event_id": -1,
            "muted_topics": [["general", "Noise", 0], ["gone", "x", 0], [1]],
        }))
        .unwrap();
        t.on_register(&r, |name| (name == "general").then_some(1));
        assert_eq!(t.policies().collect::<Vec<_>>(), [(1, "noise", VisibilityPolicy::Muted)]);
    }

    #[test]
    fn the_check_finds_rows_twice_out_of_order_and_policies_misfiled() {
        let mut t = store();
        t.lists.get_mut(&1).unwrap().rows.push(TopicInfo { name: "PLANS".into(), max_id: 1 });
        assert!(t.check().unwrap_err().contains("twice"));
        let mut t = store();
        t.lists.get_mut(&1).unwrap().rows.reverse();
        assert!(t.check().unwrap_err().contains("before the newer"));
        let mut t = store();
        t.lists.get_mut(&1).unwrap().loading = true;
        assert!(t.check().unwrap_err().contains("both listed"));
        let mut t = store();
        t.policies.insert((1, "Plans".into()), VisibilityPolicy::Muted);
        assert!(t.check().unwrap_err().contains("lowercased"));
        let mut t = store();
        t.policies.insert((1, "plans".into()), VisibilityPolicy::None);
        assert!(t.check().unwrap_err().contains("default policy"));
    }
}
