//! The server's events applied to the data, in one place: [`Data::apply`] hands each typed
//! event to the owners of what it changes — the message store, the unread index, the views,
//! the topic rows, the users, the channels, the lists — each updating its own data and derived
//! indexes, and returns [`Changes`]: what the rest of the app reacts to (rows to draw again, a
//! view to ask again, a message that arrived, messages that moved or went). An event that
//! changes no data of `Data` (typing, drafts, …) comes back untouched, [`Applied::Elsewhere`].
//! A leaf over `Data`: it names no `State`.

use super::channels::StreamApplied;
use super::narrow::Narrow;
use super::state::{Data, RealmInfo, in_feed, topic_muted};
use super::told::Mark;
use super::unreads::Conv;
use crate::api::names::same_name;
use crate::api::*;

/// What the data needs to know of the moment an event is applied in.
#[derive(Debug, Clone, Copy)]
pub struct Moment<'a> {
    /// The clock (`app::told` notes when an event said something of a message).
    pub now: i64,
    /// The narrow on screen: its view is asked again where others are only marked stale, and
    /// the starred view there keeps a message unstarred under the cursor.
    pub shown: &'a Narrow,
}

/// Which channels' topic rows an event may have changed (the channels pane lists the topics
/// of the expanded channel only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TopicRows {
    #[default]
    Same,
    /// This channel's.
    In(ChannelId),
    /// Any channel's.
    Any,
}

/// A message the server sent that is held now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrived {
    pub id: MessageId,
    /// The local id it was sent under, when this client sent it (the outbox's entry).
    pub local_id: Option<String>,
}

/// The rows derived from the data that an event may have changed: rebuilt once per batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rows {
    /// The channels pane's rows (DMs, subscriptions, folders, muted users, saved views).
    pub sidebar: bool,
    /// The topic rows (listed for the expanded channel only).
    pub topics: TopicRows,
    /// The people pane's rows (presence, status, a user changed).
    pub people: bool,
    /// What the inbox leaves out, or the channels it names.
    pub mutes: bool,
}

/// What follows on screen from an event, in the order it is to be done.
#[derive(Debug, Clone, PartialEq)]
pub enum Follow {
    /// A new message, held now (a notification, the recent list, the outbox).
    Arrived(Arrived),
    /// The view on screen is asked again (moved messages not held landed in it): its epoch.
    AskAgain(u64),
    /// Messages deleted (a selection on one is let go).
    Deleted(Vec<MessageId>),
    /// The channels pane's rows changed for certain: drawn again at once; and a channel's
    /// topics asked for again (the server knows what is left).
    RowsNow { fetch_topics: Option<ChannelId> },
    /// Messages moved to another topic or channel (the selection may follow them).
    Moved(Vec<MessageId>),
    /// The user's Zulip settings changed (the time zone, the clock, the pane's order).
    Settings,
    /// A channel was muted (`true`) or unmuted: the combined feed follows.
    FeedMuted(bool),
    /// A channel's subscribers: `n` more (fewer when negative).
    Subscribers(ChannelId, i64),
    /// Channels archived or deleted; whether the user was subscribed to one.
    ChannelsGone { ids: Vec<ChannelId>, subscribed: bool },
    /// A channel's default for push notifications (channel info shows it).
    PushDefault(ChannelId, bool),
    /// The reminders changed (the list's selection stays on a row).
    Reminders,
    /// The saved snippets changed (the popup filters them again).
    Snippets,
}

/// What an event changed that the rest of the app reacts to.
#[derive(Debug, Default, PartialEq)]
pub struct Changes {
    pub rows: Rows,
    pub follow: Vec<Follow>,
}

impl Changes {
    fn of(rows: Rows) -> Changes {
        Changes { rows, follow: Vec::new() }
    }
    fn then(mut self, f: Follow) -> Changes {
        self.follow.push(f);
        self
    }
    /// These changes, once `apply` has applied the event (an owner's method that says nothing
    /// more).
    fn tap(self, apply: impl FnOnce()) -> Changes {
        apply();
        self
    }
}

/// What `Data::apply` did with an event.
#[derive(Debug)]
pub enum Applied {
    /// Applied by the data's owners; what follows.
    Data(Changes),
    /// No data of `Data` changes: the event is for another part (typing, drafts, a popup's list).
    Elsewhere(EventKind),
}

const SIDEBAR: Rows = Rows { sidebar: true, topics: TopicRows::Same, people: false, mutes: false };
const PEOPLE: Rows = Rows { sidebar: false, topics: TopicRows::Same, people: true, mutes: false };
const MUTES: Rows = Rows { sidebar: false, topics: TopicRows::Same, people: false, mutes: true };
const NOTHING: Rows = Rows { sidebar: false, topics: TopicRows::Same, people: false, mutes: false };

impl Data {
    /// One event, handed to the owners of what it changes.
    pub fn apply(&mut self, event: Event, at: &Moment) -> Applied {
        self.note_event(event.id);
        let changes = match event.kind {
            EventKind::Message(ev) => self.on_message(*ev, at),
            EventKind::UpdateMessage(ev) => self.on_update(&ev, at),
            EventKind::DeleteMessage(ev) => self.on_delete(&ev, at),
            EventKind::UpdateMessageFlags(ev) => Changes::of(NOTHING).tap(|| self.on_flags(&ev, at)),
            EventKind::Reaction(ev) => Changes::of(NOTHING).tap(|| self.on_reaction(ev, at)),
            EventKind::Submessage(ev) => Changes::of(NOTHING).tap(|| self.on_submessage(&ev, at)),
            EventKind::UserTopic(t) => Changes::of(MUTES).tap(|| self.on_user_topic(&t)),
            EventKind::Subscription(ev) => self.on_subscription(&ev),
            EventKind::Stream(ev) => self.on_stream(ev),
            EventKind::ChannelFolder(ev) => Changes::of(SIDEBAR).tap(|| self.channels.on_folder(ev)),
            EventKind::MutedUsers { muted_users } => {
                Changes::of(Rows { mutes: true, ..SIDEBAR }).tap(|| self.users.on_muted_users(&muted_users))
            }
            EventKind::Presence(ev) => Changes::of(PEOPLE).tap(|| self.users.on_presence(&ev)),
            EventKind::UserStatus(ev) => Changes::of(PEOPLE).tap(|| self.users.on_status(ev)),
            EventKind::RealmUser(ev) => Changes::of(PEOPLE).tap(|| self.users.on_realm_user(&ev)),
            EventKind::UserGroup(ev) => Changes::of(NOTHING).tap(|| self.users.on_group(&ev)),
            EventKind::AlertWords { alert_words } => {
                Changes::of(NOTHING).tap(|| self.on_alert_words(alert_words))
            }
            EventKind::ScheduledMessages(ev) => Changes::of(NOTHING).tap(|| self.lists.on_scheduled(ev)),
            EventKind::NavigationView(ev) => Changes::of(SIDEBAR).tap(|| self.lists.on_view(ev)),
            EventKind::Reminders(ev) => {
                self.lists.on_reminders(ev);
                Changes::of(NOTHING).then(Follow::Reminders)
            }
            EventKind::SavedSnippets(ev) => match self.lists.on_snippets(ev) {
                true => Changes::of(NOTHING).then(Follow::Snippets),
                // Not known yet: the list is asked for whole when it is opened.
                false => Changes::of(NOTHING),
            },
            EventKind::Realm(RealmEvent::Update(change)) => {
                Changes::of(NOTHING).tap(|| self.realm.on_change(change))
            }
            EventKind::Realm(RealmEvent::UpdateDict(changes)) => {
                changes.into_iter().for_each(|c| self.realm.on_change(c));
                Changes::of(NOTHING)
            }
            EventKind::RealmPlaygrounds { realm_playgrounds } => {
                Changes::of(NOTHING).tap(|| self.realm.custom.playgrounds = realm_playgrounds)
            }
            EventKind::RealmEmoji { realm_emoji } => {
                Changes::of(NOTHING).tap(|| self.realm.custom.emoji = realm_emoji)
            }
            EventKind::UserSettings(UserSettingsEvent::Update(change)) => {
                self.on_user_setting(change);
                Changes::of(NOTHING).then(Follow::Settings)
            }
            kind => return Applied::Elsewhere(kind),
        };
        Applied::Data(changes)
    }

    /// A new message: held, counted, and added to every loaded view it belongs to.
    pub fn on_message(&mut self, ev: MessageEvent, at: &Moment) -> Changes {
        let me = self.me;
        let mut m = ev.message;
        m.flags = ev.flags;
        let m = self.messages.compact(m);
        let id = m.id;
        self.messages.told(id, Mark::Changed, at.now);
        let targets: Vec<Narrow> = self
            .views
            .iter()
            .filter(|(n, v)| {
                let feed_ok = **n != Narrow::All || self.in_feed(&m);
                feed_ok && n.contains(&m, me) && v.found_newest()
            })
            .map(|(n, _)| n.clone())
            .collect();
        let (dm, channel) = (m.is_dm(), m.stream_id());
        self.insert_stored(m);
        self.views.on_message(id, &targets);
        let rows = Rows {
            // The recent direct-message conversations are rows of the channels pane.
            sidebar: dm,
            topics: channel.filter(|_| !dm).map_or(TopicRows::Same, TopicRows::In),
            ..NOTHING
        };
        Changes::of(rows).then(Follow::Arrived(Arrived { id, local_id: ev.local_message_id }))
    }

    /// Messages edited, or moved to another topic or channel.
    pub fn on_update(&mut self, ev: &UpdateMessageEvent, at: &Moment) -> Changes {
        let ids = if ev.message_ids.is_empty() { vec![ev.message_id] } else { ev.message_ids.clone() };
        let moved = ev.subject.is_some() || ev.new_stream_id.is_some();
        // Resolving or unresolving a topic (its "✔ " alone) is no move, as the server counts it.
        let unresolved = |t: Option<&str>| t.map(|t| t.trim_start_matches("✔ ").to_owned());
        let counts_as_move = ev.new_stream_id.is_some_and(|c| Some(c) != ev.stream_id)
            || (ev.subject.is_some()
                && unresolved(ev.subject.as_deref()) != unresolved(ev.orig_subject.as_deref()));
        let moved_at = if ev.edit_timestamp > 0 { ev.edit_timestamp } else { at.now };
        for id in &ids {
            // What the event says wins over a page asked for before it (`app::told`).
            let mark = match moved {
                true => Mark::Moved { channel: ev.new_stream_id, topic: ev.subject.clone() },
                false => Mark::Changed,
            };
            self.messages.told(*id, mark, at.now);
            let Some(m) = self.messages.get_mut(id) else { continue };
            if *id == ev.message_id
                && let Some(c) = &ev.rendered_content
            {
                m.set_content(c, ev.edit_timestamp);
                // The user's flags as they are now (an alert word may have come or gone).
                if !ev.flags.is_empty() {
                    m.set_flags(&ev.flags);
                }
            }
            if moved {
                // "(moved)" shows at once, as it does for a page that says when.
                if counts_as_move {
                    m.set_moved(moved_at);
                }
                self.move_held(*id, ev.new_stream_id, ev.subject.as_deref());
            }
            self.reindex(*id);
        }
        let mut changes = Changes::of(Rows { topics: TopicRows::Any, ..NOTHING });
        if moved {
            changes.follow.extend(self.on_move(ev, &ids, at.shown).map(Follow::AskAgain));
            let rows = self.topic_rows_after_move(ev, &ids);
            if rows.rows {
                changes.follow.push(Follow::RowsNow { fetch_topics: rows.ask_again });
            }
            changes.follow.push(Follow::Moved(ids));
        }
        changes
    }

    /// Messages moved: every view (the conversations they left and joined too, the one on
    /// screen among them) lets go of those no longer in it and takes those now in it where its
    /// window covers their place — so a view never keeps a message moved out of it, nor lacks
    /// one moved into it. Moved messages not held are asked for with the window on screen they
    /// land in (the other windows they land in load anew when opened): its new epoch.
    fn on_move(&mut self, ev: &UpdateMessageEvent, ids: &[MessageId], shown: &Narrow) -> Option<u64> {
        let Data { me, views, messages, topics, channels, .. } = self;
        let me = *me;
        let belongs = |n: &Narrow, id: MessageId| {
            messages
                .get(&id)
                .is_some_and(|m| n.contains(m, me) && (*n != Narrow::All || in_feed(topics, channels, m)))
        };
        let missing: Vec<MessageId> = ids.iter().copied().filter(|id| !messages.contains_key(id)).collect();
        // Where the messages not held went: the event's channel and topic.
        let channel = ev.new_stream_id.or(ev.stream_id);
        let topic = ev.subject.as_deref().or(ev.orig_subject.as_deref());
        let lands = |n: &Narrow| match n {
            Narrow::All => channel.zip(topic).is_none_or(|(c, t)| !topic_muted(topics, channels, c, t)),
            Narrow::Channel(c) => channel == Some(*c),
            Narrow::Topic(c, t) => channel == Some(*c) && topic.is_some_and(|x| same_name(x, t)),
            _ => false,
        };
        views.on_move(ids, &missing, belongs, lands, shown)
    }

    /// A topic moved (renamed, or to another channel): its row goes where the messages went.
    /// Its newest message moved: the row stands on what is still known there (its newest
    /// unread message), else goes until the server says what is left.
    fn topic_rows_after_move(
        &mut self,
        ev: &UpdateMessageEvent,
        ids: &[MessageId],
    ) -> super::topics::RowsChanged {
        let unread = &self.unread;
        let from = ev.stream_id.unwrap_or_default();
        self.topics
            .on_move(ev, ids, |name| unread.in_conv(&Conv::topic(from, name)).and_then(|s| s.last().copied()))
    }

    /// Messages deleted (one, or a topic's in batches): gone from the store, the counts and
    /// every view. A topic whose newest message went loses its row unless what is left of it
    /// is known; the channel's topics are asked for again, the server knowing what is left.
    pub fn on_delete(&mut self, ev: &DeleteMessageEvent, at: &Moment) -> Changes {
        let ids = ev.ids();
        for &id in &ids {
            self.messages.told(id, Mark::Deleted, at.now);
            self.remove_stored(id);
        }
        let changes = Changes::of(Rows { topics: TopicRows::Any, ..NOTHING }).then(Follow::Deleted(ids));
        let (Some(c), Some(topic)) = (ev.stream_id, ev.topic.as_deref()) else { return changes };
        // What is still known of the topic: its newest unread message, or the newest message
        // its own view holds.
        let (unread, views) = (&self.unread, &self.views);
        let left = |name: &str| {
            let left = [
                unread.in_conv(&Conv::topic(c, topic)).and_then(|s| s.last().copied()),
                views.get(&Narrow::Topic(c, name.to_owned())).and_then(|v| v.ids().last().copied()),
            ];
            left.into_iter().flatten().max()
        };
        let rows = self.topics.on_delete(ev, left);
        match rows.rows {
            true => changes.then(Follow::RowsNow { fetch_topics: rows.ask_again }),
            false => changes,
        }
    }

    /// The user's subscriptions (added, removed, a property changed) and others' (counts).
    pub fn on_subscription(&mut self, ev: &SubscriptionEvent) -> Changes {
        let changes = Changes::of(Rows { mutes: true, ..SIDEBAR });
        if let Some(muted) = self.channels.on_subscription(ev) {
            return changes.then(Follow::FeedMuted(muted));
        }
        let counts = |ids: &[ChannelId], n: i64| ids.iter().map(|c| Follow::Subscribers(*c, n)).collect();
        let follow: Vec<Follow> = match ev {
            SubscriptionEvent::Add(subscriptions) => {
                subscriptions.iter().map(|s| Follow::Subscribers(s.stream_id, 1)).collect()
            }
            SubscriptionEvent::Remove(ids) => counts(ids, -1),
            SubscriptionEvent::PeerAdd { stream_ids, user_ids } => counts(stream_ids, user_ids.len() as i64),
            SubscriptionEvent::PeerRemove { stream_ids, user_ids } => {
                counts(stream_ids, -(user_ids.len() as i64))
            }
            SubscriptionEvent::Update { .. } | SubscriptionEvent::Other(_) => vec![],
        };
        Changes { follow, ..changes }
    }

    /// Channels deleted, archived or changed (name, description): their topic rows go with
    /// them.
    pub fn on_stream(&mut self, ev: StreamEvent) -> Changes {
        let mut changes = Changes::of(MUTES);
        if let StreamEvent::Update { stream_id, change: StreamChange::DefaultPushNotifications(on) } = &ev {
            changes.follow.push(Follow::PushDefault(*stream_id, *on));
        }
        match self.channels.on_stream(ev) {
            StreamApplied::Nothing => return changes,
            StreamApplied::Changed => {}
            StreamApplied::Gone { ids, subscribed } => {
                self.topics.on_channels_gone(&ids);
                changes.follow.push(Follow::ChannelsGone { ids, subscribed });
            }
        }
        changes.then(Follow::RowsNow { fetch_topics: None })
    }

    /// An emoji reaction added or taken back.
    pub fn on_reaction(&mut self, ev: ReactionEvent, at: &Moment) {
        self.messages.told(ev.message_id, Mark::Changed, at.now);
        let Some(m) = self.messages.get_mut(&ev.message_id) else { return };
        let r = Reaction {
            emoji_name: ev.emoji_name,
            emoji_code: ev.emoji_code,
            reaction_type: ev.reaction_type,
            user_id: ev.user_id,
        };
        match ev.op {
            AddRemove::Add => {
                m.add_reaction(r);
            }
            AddRemove::Remove => m.retain_reactions(|x| {
                !(x.user_id == r.user_id
                    && x.emoji_code == r.emoji_code
                    && x.reaction_type == r.reaction_type)
            }),
            AddRemove::Other(_) => {}
        }
    }

    /// A poll's vote, a to-do list's tick.
    pub fn on_submessage(&mut self, ev: &SubmessageEvent, at: &Moment) {
        self.messages.told(ev.message_id, Mark::Changed, at.now);
        if let Some(m) = self.messages.get_mut(&ev.message_id) {
            m.add_submessage(ev.submessage());
            let m = m.clone();
            self.refresh_widget(&m);
        }
    }

    /// Flags set or cleared (read, starred, …), here or on another device.
    pub fn on_flags(&mut self, ev: &FlagsEvent, at: &Moment) {
        let add = match ev.op {
            AddRemove::Add => true,
            AddRemove::Remove => false,
            AddRemove::Other(_) => return,
        };
        if ev.flag == Flag::Read && add && ev.all {
            self.unread.clear();
            self.messages.set_flag_where(Flag::Read, |_| true);
        }
        for id in &ev.messages {
            // The read state is the unread index's, which a page never overrides; other flags
            // win over a page asked for before (`app::told`).
            if ev.flag != Flag::Read {
                self.messages.told(*id, Mark::Changed, at.now);
            }
            if let Some(m) = self.messages.get_mut(id) {
                m.set_flag(ev.flag.clone(), add);
            }
            if ev.flag == Flag::Starred {
                self.set_starred(*id, add);
                self.starred_changed(*id, add, at.shown);
            }
            if ev.flag == Flag::Read {
                self.read_changed(*id, add, ev.message_details.get(id));
            }
        }
    }

    /// Message `id` read (`read`) or unread again: the unread index follows, where the event's
    /// details say it is when it is not held here.
    fn read_changed(&mut self, id: MessageId, read: bool, details: Option<&FlagDetails>) {
        if read {
            self.unread.remove(id);
        } else if let Some(m) = self.messages.get(&id) {
            let conv = self.conv_of(m);
            let mentioned = m.mentions_me();
            self.unread.add(id, conv, mentioned);
        } else if let Some(d) = details {
            let conv = match (d.kind.as_str(), d.stream_id) {
                ("stream", Some(c)) => {
                    let topic = d.topic.clone().unwrap_or_default();
                    self.topics.on_message(c, &topic, id);
                    Conv::topic(c, &topic)
                }
                _ => Conv::dm(d.user_ids.as_deref().unwrap_or_default(), self.me),
            };
            self.unread.add(id, conv, d.mentioned);
        }
    }

    /// Keep the starred view's window true to the flags: a newly starred message joins it where
    /// the window covers its place; an unstarred one leaves it, except while the view is on
    /// screen (it stays under the cursor until the view is opened again, as in the web app). A
    /// message this client does not hold makes the window stale: it is fetched again when next
    /// opened.
    fn starred_changed(&mut self, id: MessageId, add: bool, shown: &Narrow) {
        let shown = *shown == Narrow::Starred;
        let held = self.messages.contains_key(&id);
        let Some(view) = self.views.get_mut(&Narrow::Starred) else { return };
        if !held {
            if !shown {
                self.views.close(&Narrow::Starred);
            }
            return;
        }
        if add {
            if view.covers(id) {
                view.merge([id]);
            }
        } else if !shown {
            view.remove(id);
        }
    }

    /// The user's policy for a topic changed: the topic rows keep it, and the combined feed
    /// lets go of a topic muted now (one unmuted comes back when the feed is asked again).
    pub fn on_user_topic(&mut self, t: &UserTopic) {
        self.topics.on_user_topic(t);
        let (c, topic, policy) = (t.stream_id, t.topic_name.as_str(), t.visibility_policy);
        let hide = policy == VisibilityPolicy::Muted
            || (policy == VisibilityPolicy::None && self.channels.get(c).is_some_and(|ch| ch.muted));
        let Some(view) = self.views.get_mut(&Narrow::All) else { return };
        if hide {
            let msgs = &self.messages;
            view.keep_only(|id| {
                !msgs.get(id).is_some_and(|m| m.stream_id() == Some(c) && same_name(m.topic(), topic))
            });
        } else {
            view.stale();
        }
    }
}

impl RealmInfo {
    /// One of the organization's settings the client relies on changed (`realm` events).
    pub fn on_change(&mut self, change: RealmChange) {
        match change {
            RealmChange::ModerationRequestChannel(id) => {
                self.moderation.moderation_channel = id.filter(|id| *id > 0)
            }
            RealmChange::AllowEditHistory(allowed) => self.policies.allow_edit_history = allowed,
            RealmChange::EnableReadReceipts(enabled) => self.policies.read_receipts = enabled,
            RealmChange::Name(name) => self.name = name,
            // The rules for messages (`app::rules` reads them); the rest this client does not use.
            RealmChange::Other { property, value } => {
                self.rules.apply(&property, &value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn held(data: &mut Data, id: MessageId, topic: &str) {
        data.insert_message(
            serde_json::from_value(json!({
                "id": id, "type": "stream", "content": "<p>hi</p>", "display_recipient": "eng",
                "sender_id": 11, "sender_full_name": "Alice", "stream_id": 1, "subject": topic,
                "timestamp": 1_700_000_000 + id, "flags": ["read"],
            }))
            .unwrap(),
        );
    }

    fn apply(data: &mut Data, event: serde_json::Value) -> Changes {
        let at = Moment { now: 1_700_000_500, shown: &Narrow::All };
        match data.apply(Event::decode(event), &at) {
            Applied::Data(changes) => changes,
            Applied::Elsewhere(kind) => panic!("not the data's: {kind:?}"),
        }
    }

    fn moved(id: MessageId, from: &str, to: &str, at: i64) -> serde_json::Value {
        json!({"id": 9, "type": "update_message", "message_id": id, "message_ids": [id],
               "stream_id": 1, "orig_subject": from, "subject": to, "propagate_mode": "change_one",
               "edit_timestamp": at, "flags": []})
    }

    #[test]
    fn a_move_sets_the_time_of_the_move_and_says_what_moved() {
        let mut data = Data::default();
        held(&mut data, 5, "plans");
        let changes = apply(&mut data, moved(5, "plans", "later", 1_700_000_100));
        assert_eq!(data.messages[&5].topic(), "later");
        assert_eq!(data.messages[&5].last_moved_timestamp(), Some(1_700_000_100));
        assert_eq!(data.messages[&5].last_edit_timestamp(), None, "a move is no edit");
        assert!(changes.follow.contains(&Follow::Moved(vec![5])), "{changes:?}");
        assert_eq!(changes.rows.topics, TopicRows::Any);
        assert_eq!(data.last_event_id(), 9, "the event's ID noted");
    }

    #[test]
    fn resolving_a_topic_is_no_move() {
        let mut data = Data::default();
        held(&mut data, 5, "plans");
        apply(&mut data, moved(5, "plans", "✔ plans", 1_700_000_100));
        assert_eq!(data.messages[&5].topic(), "✔ plans");
        assert_eq!(data.messages[&5].last_moved_timestamp(), None);
    }

    #[test]
    fn a_deletion_takes_the_message_from_every_owner_and_says_so() {
        let mut data = Data::default();
        held(&mut data, 5, "plans");
        data.views.open(&Narrow::Topic(1, "plans".into()));
        data.views.on_message(5, &[Narrow::Topic(1, "plans".into())]);
        let changes = apply(
            &mut data,
            json!({"id": 3, "type": "delete_message", "message_id": 5,
            "message_type": "stream", "stream_id": 1, "topic": "plans"}),
        );
        assert!(!data.messages.contains_key(&5));
        assert!(!data.views[&Narrow::Topic(1, "plans".into())].contains(5));
        assert_eq!(changes.follow.first(), Some(&Follow::Deleted(vec![5])), "{changes:?}");
    }

    #[test]
    fn typing_is_not_the_datas() {
        let mut data = Data::default();
        let at = Moment { now: 0, shown: &Narrow::All };
        let typing = json!({"id": 1, "type": "typing", "op": "start", "sender": {"user_id": 11, "email": "a@x"},
            "message_type": "stream", "stream_id": 1, "topic": "plans"});
        assert!(matches!(data.apply(Event::decode(typing), &at), Applied::Elsewhere(EventKind::Typing(_))));
        assert_eq!(data.last_event_id(), 1);
    }
}
