//! The user's lists kept on the server: scheduled messages, saved snippets, reminders and saved
//! views — the one owner of them, as `app::channels` is of the channels. Its fields are
//! private: each list comes from register (`on_register`) or, where register did not say it,
//! from the server's answer when the list is opened (`on_snippets_listed`,
//! `on_reminders_listed`), and changes only by the server's events through its methods;
//! readers use its accessors. A leaf. (The `:uploads` list is the popup's own: it is asked for
//! each time it opens.)

use crate::api::{
    NavigationView, NavigationViewEvent, RegisterResponse, Reminder, RemindersEvent, SavedSnippet,
    SavedSnippetsEvent, ScheduledMessage, ScheduledMessagesEvent,
};
use std::collections::BTreeMap;

/// The user's scheduled messages, snippets, reminders and saved views.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lists {
    /// By ID.
    scheduled: BTreeMap<i64, ScheduledMessage>,
    /// By ID; `None`: not known (register had none: an older server, or a section it could not
    /// read), so `:snippets` asks.
    snippets: Option<BTreeMap<i64, SavedSnippet>>,
    /// Undelivered, soonest first; `None` while the server has not said (asked for when listed).
    reminders: Option<Vec<Reminder>>,
    /// Built-in and custom, as the server lists them.
    views: Vec<NavigationView>,
}

/// Soonest first, as the server lists them.
fn reminder_order(r: &Reminder) -> (i64, i64) {
    (r.scheduled_delivery_timestamp, r.reminder_id)
}

impl Lists {
    /// What register's answer says of each list (each replaces the one held).
    pub fn on_register(&mut self, r: &RegisterResponse) {
        self.scheduled =
            r.scheduled_messages.iter().flatten().map(|s| (s.scheduled_message_id, s.clone())).collect();
        self.snippets = r.saved_snippets.as_ref().map(|v| v.iter().map(|s| (s.id, s.clone())).collect());
        self.on_reminders_known(r.reminders.clone());
        self.views = r.navigation_views.clone().unwrap_or_default();
    }

    /// The user's scheduled messages added, changed or gone.
    pub fn on_scheduled(&mut self, ev: ScheduledMessagesEvent) {
        let scheduled = &mut self.scheduled;
        match ev {
            ScheduledMessagesEvent::Add(list) => {
                scheduled.extend(list.into_iter().map(|s| (s.scheduled_message_id, s)));
            }
            ScheduledMessagesEvent::Update(s) => {
                scheduled.insert(s.scheduled_message_id, s);
            }
            ScheduledMessagesEvent::Remove { scheduled_message_id } => {
                scheduled.remove(&scheduled_message_id);
            }
            ScheduledMessagesEvent::Other(_) => {}
        }
    }

    /// The server listed the snippets (they replace any held).
    pub fn on_snippets_listed(&mut self, list: Vec<SavedSnippet>) {
        self.snippets = Some(list.into_iter().map(|s| (s.id, s)).collect());
    }

    /// A snippet created, edited or deleted (by this client or another of the user's). Not
    /// known yet: nothing to keep (the list is asked for whole when opened): `false`.
    pub fn on_snippets(&mut self, ev: SavedSnippetsEvent) -> bool {
        let Some(all) = &mut self.snippets else { return false };
        match ev {
            SavedSnippetsEvent::Put(s) => {
                all.insert(s.id, s);
            }
            SavedSnippetsEvent::Remove(id) => {
                all.remove(&id);
            }
        }
        true
    }

    /// The server listed the reminders.
    pub fn on_reminders_listed(&mut self, list: Vec<Reminder>) {
        self.on_reminders_known(Some(list));
    }

    fn on_reminders_known(&mut self, list: Option<Vec<Reminder>>) {
        self.reminders = list.map(|mut l| {
            l.sort_by_key(reminder_order);
            l
        });
    }

    /// A `reminders` event: set, or gone (deleted here or elsewhere, or delivered). Without a
    /// list yet there is nothing to keep: the list is asked for when it is opened.
    pub fn on_reminders(&mut self, ev: RemindersEvent) {
        let Some(list) = &mut self.reminders else { return };
        match ev {
            RemindersEvent::Add(added) => {
                for r in added {
                    list.retain(|x| x.reminder_id != r.reminder_id);
                    let at = list.partition_point(|x| reminder_order(x) < reminder_order(&r));
                    list.insert(at, r);
                }
            }
            RemindersEvent::Remove(id) => list.retain(|x| x.reminder_id != id),
        }
    }

    /// One of the user's saved views added, pinned, renamed or removed.
    pub fn on_view(&mut self, ev: NavigationViewEvent) {
        let views = &mut self.views;
        match ev {
            NavigationViewEvent::Add(v) => {
                views.retain(|x| x.fragment != v.fragment);
                views.push(v);
            }
            NavigationViewEvent::Update { fragment, is_pinned, name } => {
                if let Some(v) = views.iter_mut().find(|x| x.fragment == fragment) {
                    v.is_pinned = is_pinned.unwrap_or(v.is_pinned);
                    if let Some(name) = name {
                        v.name = name;
                    }
                }
            }
            NavigationViewEvent::Remove { fragment } => views.retain(|x| x.fragment != fragment),
            NavigationViewEvent::Other(_) => {}
        }
    }

    /// The scheduled messages by ID.
    pub fn scheduled(&self) -> &BTreeMap<i64, ScheduledMessage> {
        &self.scheduled
    }

    /// The snippets by ID; `None` while not known.
    pub fn snippets(&self) -> Option<&BTreeMap<i64, SavedSnippet>> {
        self.snippets.as_ref()
    }

    /// The undelivered reminders, soonest first; `None` while the server has not said.
    pub fn reminders(&self) -> Option<&[Reminder]> {
        self.reminders.as_deref()
    }

    /// The saved views, as the server lists them.
    pub fn views(&self) -> &[NavigationView] {
        &self.views
    }

    /// Whether the lists agree with themselves: each scheduled message and snippet is kept
    /// under its own ID, and the reminders are soonest first.
    pub fn check(&self) -> Result<(), String> {
        if let Some((id, s)) = self.scheduled.iter().find(|(id, s)| **id != s.scheduled_message_id) {
            return Err(format!("scheduled message {} is kept under ID {id}", s.scheduled_message_id));
        }
        if let Some((id, s)) = self.snippets.iter().flatten().find(|(id, s)| **id != s.id) {
            return Err(format!("snippet {} is kept under ID {id}", s.id));
        }
        if let Some(w) = self
            .reminders
            .iter()
            .flat_map(|l| l.windows(2))
            .find(|w| reminder_order(&w[0]) > reminder_order(&w[1]))
        {
            return Err(format!(
                "reminder {} is listed before the sooner {}",
                w[0].reminder_id, w[1].reminder_id
            ));
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

    fn scheduled(id: i64, content: &str) -> Value {
        json!({"scheduled_message_id": id, "type": "stream", "to": 1, "topic": "t", "content": content,
            "rendered_content": "", "scheduled_delivery_timestamp": 100, "failed": false})
    }

    fn reminder(id: i64, at: i64) -> Value {
        json!({"reminder_id": id, "type": "private", "to": [1], "content": "", "rendered_content": "",
            "scheduled_delivery_timestamp": at, "failed": false, "reminder_target_message_id": 5})
    }

    fn register(v: Value) -> RegisterResponse {
        let mut v = v;
        v["queue_id"] = json!("q");
        v["last_event_id"] = json!(-1);
        serde_json::from_value(v).unwrap()
    }

    /// Register with scheduled message 1, snippet 7, reminders 2 (at 200) and 1 (at 100), and
    /// two saved views.
    fn store() -> Lists {
        let mut l = Lists::default();
        l.on_register(&register(json!({
            "scheduled_messages": [scheduled(1, "later")],
            "saved_snippets": [{"id": 7, "title": "thanks", "content": "Thank you!", "date_created": 0}],
            "reminders": [reminder(2, 200), reminder(1, 100)],
            "navigation_views": [{"fragment": "inbox", "is_pinned": true}, {"fragment": "recent", "is_pinned": false}],
        })));
        l.check().unwrap();
        l
    }

    fn reminder_ids(l: &Lists) -> Vec<i64> {
        l.reminders().unwrap_or_default().iter().map(|r| r.reminder_id).collect()
    }

    #[test]
    fn register_gives_each_list_and_says_which_it_did_not() {
        let l = store();
        assert_eq!(l.scheduled().keys().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(l.snippets().map(|s| s[&7].title.as_str()), Some("thanks"));
        assert_eq!(reminder_ids(&l), [1, 2], "soonest first");
        assert_eq!(l.views().iter().map(|v| v.fragment.as_str()).collect::<Vec<_>>(), ["inbox", "recent"]);
        let mut l = store();
        l.on_register(&register(json!({})));
        assert!(l.scheduled().is_empty() && l.views().is_empty());
        assert!(l.snippets().is_none() && l.reminders().is_none(), "not said: asked when opened");
    }

    #[test]
    fn scheduled_messages_added_changed_and_gone() {
        let mut l = store();
        let apply = |l: &mut Lists, v: Value| {
            let EventKind::ScheduledMessages(ev) = event(v) else { panic!("not a scheduled_messages event") };
            l.on_scheduled(ev);
            l.check().unwrap();
        };
        apply(
            &mut l,
            json!({"type": "scheduled_messages", "op": "add", "scheduled_messages": [scheduled(3, "x")]}),
        );
        apply(
            &mut l,
            json!({"type": "scheduled_messages", "op": "update", "scheduled_message": scheduled(1, "sooner")}),
        );
        assert_eq!(l.scheduled()[&1].content, "sooner");
        apply(&mut l, json!({"type": "scheduled_messages", "op": "remove", "scheduled_message_id": 3}));
        assert_eq!(l.scheduled().keys().copied().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn snippets_kept_by_events_once_known() {
        let apply = |l: &mut Lists, v: Value| {
            let EventKind::SavedSnippets(ev) = event(v) else { panic!("not a saved_snippets event") };
            let kept = l.on_snippets(ev);
            l.check().unwrap();
            kept
        };
        let put = json!({"type": "saved_snippets", "op": "add",
            "saved_snippet": {"id": 8, "title": "bye", "content": "Bye", "date_created": 1}});
        let mut unknown = Lists::default();
        assert!(!apply(&mut unknown, put.clone()), "not known: nothing to keep");
        assert!(unknown.snippets().is_none());
        let mut l = store();
        assert!(apply(&mut l, put));
        assert!(apply(&mut l, json!({"type": "saved_snippets", "op": "remove", "saved_snippet_id": 7})));
        assert_eq!(l.snippets().unwrap().keys().copied().collect::<Vec<_>>(), [8]);
        unknown.on_snippets_listed(vec![l.snippets().unwrap()[&8].clone()]);
        assert_eq!(unknown.snippets().map(|s| s.len()), Some(1));
    }

    #[test]
    fn reminders_kept_soonest_first_once_known() {
        let apply = |l: &mut Lists, v: Value| {
            let EventKind::Reminders(ev) = event(v) else { panic!("not a reminders event") };
            l.on_reminders(ev);
            l.check().unwrap();
        };
        let add = |id, at| json!({"type": "reminders", "op": "add", "reminders": [reminder(id, at)]});
        let mut unknown = Lists::default();
        apply(&mut unknown, add(3, 50));
        assert!(unknown.reminders().is_none(), "not known: nothing to keep");
        let mut l = store();
        apply(&mut l, add(3, 150));
        apply(&mut l, add(2, 50));
        assert_eq!(reminder_ids(&l), [2, 1, 3], "moved to its new time");
        apply(&mut l, json!({"type": "reminders", "op": "remove", "reminder_id": 1}));
        assert_eq!(reminder_ids(&l), [2, 3]);
        let listed: Vec<Reminder> = serde_json::from_value(json!([reminder(9, 9), reminder(4, 4)])).unwrap();
        unknown.on_reminders_listed(listed);
        assert_eq!(reminder_ids(&unknown), [4, 9]);
    }

    #[test]
    fn saved_views_added_pinned_renamed_and_removed() {
        let mut l = store();
        let apply = |l: &mut Lists, v: Value| {
            let EventKind::NavigationView(ev) = event(v) else { panic!("not a navigation_view event") };
            l.on_view(ev);
        };
        apply(
            &mut l,
            json!({"type": "navigation_view", "op": "add", "navigation_view": {"fragment": "narrow/is/starred", "is_pinned": false, "name": "Stars"}}),
        );
        apply(
            &mut l,
            json!({"type": "navigation_view", "op": "update", "fragment": "recent", "data": {"is_pinned": true, "name": "Recent"}}),
        );
        apply(&mut l, json!({"type": "navigation_view", "op": "remove", "fragment": "inbox"}));
        let views: Vec<_> =
            l.views().iter().map(|v| (v.fragment.as_str(), v.is_pinned, v.name.as_deref())).collect();
        assert_eq!(views, [("recent", true, Some("Recent")), ("narrow/is/starred", false, Some("Stars"))]);
    }

    #[test]
    fn the_check_finds_lists_out_of_step() {
        let mut l = store();
        let s = l.scheduled[&1].clone();
        l.scheduled.insert(9, s);
        assert!(l.check().unwrap_err().contains("kept under ID 9"));
        let mut l = store();
        l.reminders.as_mut().unwrap().reverse();
        assert!(l.check().unwrap_err().contains("before the sooner"));
        let mut l = store();
        let s = l.snippets.as_ref().unwrap()[&7].clone();
        l.snippets.as_mut().unwrap().insert(2, s);
        assert!(l.check().unwrap_err().contains("snippet 7"));
    }
}
