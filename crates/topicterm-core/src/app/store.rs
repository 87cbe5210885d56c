//! The message store: every message the client holds, in less than its JSON.
//!
//! A message arrives as the API decodes it ([`Message`], twenty-odd owned strings and vectors,
//! ~560 bytes before its text) and is kept as a [`Stored`] of 64 bytes plus its text:
//! - its flags as bits ([`Flags`]);
//! - where it was sent and who sent it as shared, interned records ([`Place`]: a channel, its
//!   name and a topic, or a direct message's participants; [`From`]: the sender's name, email,
//!   avatar and client), one per conversation and per sender however many messages point at them;
//! - its rendered text once, boxed to its length;
//! - the parts few messages carry (reactions, edit history, widgets' submessages, topic links, a
//!   search's match marks, …) behind one box that most messages do not have.
//!
//! The interners let a record go when its last message goes, so what the store takes follows
//! what it holds. Nothing here walks the store per message: inserting, looking up, moving and
//! removing are O(1) (a move or rename touches only the message it is given).
//!
//! [`Stored::to_api`] gives the message back as the API shapes it, for what leaves the client's
//! memory in that shape (the kept session on disk, the state dump).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::told::{Mark, Told};
use crate::api::{
    ChannelId, DisplayRecipient, DmRecipient, EditHistoryEntry, Flag, Message, MessageId, MessageType,
    Reaction, Submessage, TopicLink, UserId,
};

/// A message's flags as bits, one per flag the API knows (`Flag::KNOWN`, in its order); a flag
/// it does not know is kept whole in the rare parts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags(u32);

impl Flags {
    fn bit(flag: &Flag) -> Option<u32> {
        flag.index().map(|i| 1 << i)
    }
    /// Whether the flag is set (false for one the store does not know as a bit).
    pub fn has(self, flag: &Flag) -> bool {
        Self::bit(flag).is_some_and(|b| self.0 & b != 0)
    }
    /// The flags set, in bit order.
    pub fn iter(self) -> impl Iterator<Item = Flag> {
        Flag::KNOWN.into_iter().enumerate().filter(move |(i, _)| self.0 & (1 << i) != 0).map(|(_, f)| f)
    }
}

/// Where a message was sent: one record per conversation, shared by its messages.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// `recipient` is the server's recipient ID (per channel; 0 when not known after a move).
    Channel {
        id: ChannelId,
        recipient: i64,
        name: Box<str>,
        topic: Box<str>,
    },
    Dm {
        recipient: i64,
        users: Box<[DmRecipient]>,
    },
}

/// Who sent a message, as the message says (the name when it was sent, the client it came
/// from): one record per sender and client, shared by their messages.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct From {
    pub id: UserId,
    pub full_name: Box<str>,
    pub email: Box<str>,
    pub avatar_url: Option<Box<str>>,
    pub realm_str: Box<str>,
    pub client: Box<str>,
}

/// What few messages carry, boxed apart.
#[derive(Debug, Clone, Default, PartialEq)]
struct Rare {
    reactions: Vec<Reaction>,
    edit_history: Option<Vec<EditHistoryEntry>>,
    last_edit_timestamp: Option<i64>,
    last_moved_timestamp: Option<i64>,
    submessages: Vec<Submessage>,
    topic_links: Vec<TopicLink>,
    match_content: Option<String>,
    match_subject: Option<String>,
    rendered_content: Option<String>,
    content_type: Option<String>,
    is_me_message: bool,
    /// Flags the store has no bit for.
    other_flags: Vec<Flag>,
}

impl Rare {
    fn is_empty(&self) -> bool {
        *self == Rare::default()
    }
}

/// One held message.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub id: MessageId,
    pub timestamp: i64,
    pub flags: Flags,
    from: Arc<From>,
    place: Arc<Place>,
    content: Box<str>,
    rare: Option<Box<Rare>>,
}

static NO_SUBMESSAGES: Vec<Submessage> = Vec::new();

impl Stored {
    pub fn kind(&self) -> MessageType {
        match *self.place {
            Place::Channel { .. } => MessageType::Stream,
            Place::Dm { .. } => MessageType::Private,
        }
    }
    pub fn is_dm(&self) -> bool {
        matches!(*self.place, Place::Dm { .. })
    }
    /// The channel of a channel message.
    pub fn stream_id(&self) -> Option<ChannelId> {
        match &*self.place {
            Place::Channel { id, .. } => Some(*id),
            Place::Dm { .. } => None,
        }
    }
    /// The channel's name as the message gave it.
    pub fn channel_name(&self) -> Option<&str> {
        match &*self.place {
            Place::Channel { name, .. } => Some(name),
            Place::Dm { .. } => None,
        }
    }
    /// The topic name (empty for direct messages).
    pub fn topic(&self) -> &str {
        match &*self.place {
            Place::Channel { topic, .. } => topic,
            Place::Dm { .. } => "",
        }
    }
    /// A direct message's participants (empty for channel messages).
    pub fn dm_recipients(&self) -> &[DmRecipient] {
        match &*self.place {
            Place::Dm { users, .. } => users,
            Place::Channel { .. } => &[],
        }
    }
    /// Sent to the same conversation (a topic's name compared as given).
    pub fn same_place(&self, other: &Stored) -> bool {
        Arc::ptr_eq(&self.place, &other.place)
            || match (&*self.place, &*other.place) {
                (Place::Channel { id: a, topic: x, .. }, Place::Channel { id: b, topic: y, .. }) => {
                    a == b && x == y
                }
                (Place::Dm { users: a, .. }, Place::Dm { users: b, .. }) => {
                    a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.id == y.id)
                }
                _ => false,
            }
    }
    /// User IDs of a direct message's participants (empty for channel messages).
    pub fn dm_user_ids(&self) -> Vec<UserId> {
        self.dm_recipients().iter().map(|r| r.id).collect()
    }
    pub fn sender_id(&self) -> UserId {
        self.from.id
    }
    /// The sender's name when the message was sent.
    pub fn sender_full_name(&self) -> &str {
        &self.from.full_name
    }
    pub fn sender_email(&self) -> &str {
        &self.from.email
    }
    pub fn avatar_url(&self) -> Option<&str> {
        self.from.avatar_url.as_deref()
    }
    /// The program it was sent from.
    pub fn client(&self) -> &str {
        &self.from.client
    }
    /// The rendered text (HTML).
    pub fn content(&self) -> &str {
        &self.content
    }
    pub fn has_flag(&self, flag: Flag) -> bool {
        self.flags.has(&flag) || self.rare.as_ref().is_some_and(|r| r.other_flags.contains(&flag))
    }
    /// Does it mention the user: by name, or a wildcard in its channel or topic (the flags the
    /// server sets; `wildcard_mentioned` is the name older servers use)? The one rule for the
    /// Mentions count and view.
    pub fn mentions_me(&self) -> bool {
        Flag::MENTIONS.into_iter().any(|f| self.has_flag(f))
    }
    pub fn reactions(&self) -> &[Reaction] {
        self.rare.as_ref().map_or(&[], |r| &r.reactions)
    }
    pub fn edit_history(&self) -> Option<&[EditHistoryEntry]> {
        self.rare.as_ref().and_then(|r| r.edit_history.as_deref())
    }
    /// When the text was last edited (not moved: `edited_and_moved`).
    pub fn last_edit_timestamp(&self) -> Option<i64> {
        self.rare.as_ref().and_then(|r| edited_and_moved(r).0)
    }
    /// When it was last moved to another topic or channel.
    pub fn last_moved_timestamp(&self) -> Option<i64> {
        self.rare.as_ref().and_then(|r| edited_and_moved(r).1)
    }
    pub fn submessages(&self) -> &[Submessage] {
        self.rare.as_ref().map_or(&NO_SUBMESSAGES, |r| &r.submessages)
    }
    /// In search results: the rendered text with the matched words marked.
    pub fn match_content(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.match_content.as_deref())
    }
    /// In search results: the topic, HTML-escaped, with the matched words marked.
    pub fn match_subject(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.match_subject.as_deref())
    }

    fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Default::default)
    }
    fn tidy(&mut self) {
        if self.rare.as_ref().is_some_and(|r| r.is_empty()) {
            self.rare = None;
        }
    }

    /// The text after an edit.
    pub fn set_content(&mut self, content: &str, edited_at: i64) {
        self.content = content.into();
        self.rare_mut().last_edit_timestamp = Some(edited_at);
    }
    /// It was moved to another topic or channel at `at` (an event's `edit_timestamp`).
    pub fn set_moved(&mut self, at: i64) {
        self.rare_mut().last_moved_timestamp = Some(at);
    }
    /// Set or clear a flag.
    pub fn set_flag(&mut self, flag: Flag, on: bool) {
        match Flags::bit(&flag) {
            Some(b) if on => self.flags.0 |= b,
            Some(b) => self.flags.0 &= !b,
            None if on => {
                if !self.has_flag(flag.clone()) {
                    self.rare_mut().other_flags.push(flag);
                }
            }
            None => {
                if let Some(r) = &mut self.rare {
                    r.other_flags.retain(|f| *f != flag);
                }
                self.tidy();
            }
        }
    }
    /// Replace every flag by these.
    pub fn set_flags(&mut self, names: &[Flag]) {
        self.flags = Flags::default();
        if let Some(r) = &mut self.rare {
            r.other_flags.clear();
        }
        for n in names {
            self.set_flag(n.clone(), true);
        }
        self.tidy();
    }
    /// Add a reaction unless it is there; true if it was added.
    pub fn add_reaction(&mut self, r: Reaction) -> bool {
        if self.reactions().contains(&r) {
            return false;
        }
        self.rare_mut().reactions.push(r);
        true
    }
    /// Keep only the reactions `keep` says to.
    pub fn retain_reactions(&mut self, keep: impl FnMut(&Reaction) -> bool) {
        if let Some(r) = &mut self.rare {
            r.reactions.retain(keep);
        }
        self.tidy();
    }
    /// Add a widget's submessage unless one with its ID is there; true if it was added.
    pub fn add_submessage(&mut self, s: Submessage) -> bool {
        if self.submessages().iter().any(|x| x.id == s.id) {
            return false;
        }
        self.rare_mut().submessages.push(s);
        true
    }

    /// The message as the API shapes it.
    pub fn to_api(&self) -> Message {
        let rare = self.rare.as_deref().cloned().unwrap_or_default();
        let mut flags: Vec<Flag> = self.flags.iter().collect();
        flags.extend(rare.other_flags);
        let (stream_id, recipient_id, subject, display_recipient) = match &*self.place {
            Place::Channel { id, recipient, name, topic } => {
                (Some(*id), *recipient, topic.to_string(), DisplayRecipient::Channel(name.to_string()))
            }
            Place::Dm { recipient, users } => {
                (None, *recipient, String::new(), DisplayRecipient::Users(users.to_vec()))
            }
        };
        Message {
            id: self.id,
            kind: self.kind(),
            avatar_url: self.from.avatar_url.as_deref().map(str::to_owned),
            client: self.from.client.to_string(),
            content: self.content.to_string(),
            content_type: rare.content_type,
            display_recipient,
            edit_history: rare.edit_history,
            is_me_message: rare.is_me_message,
            last_edit_timestamp: rare.last_edit_timestamp,
            last_moved_timestamp: rare.last_moved_timestamp,
            reactions: rare.reactions,
            recipient_id,
            sender_email: self.from.email.to_string(),
            sender_full_name: self.from.full_name.to_string(),
            sender_id: self.from.id,
            sender_realm_str: self.from.realm_str.to_string(),
            stream_id,
            subject,
            submessages: rare.submessages,
            timestamp: self.timestamp,
            topic_links: rare.topic_links,
            flags,
            rendered_content: rare.rendered_content,
            match_content: rare.match_content,
            match_subject: rare.match_subject,
        }
    }
}

/// When the message's content was last edited and when it was last moved. A server before
/// level 365 gives one `last_edit_timestamp` for both (and no `last_moved_timestamp`); its edit
/// history, where the organization shows it, tells an edit of the content (`prev_content`)
/// from a move (`prev_topic`, `prev_stream`), as the web app reads it.
fn edited_and_moved(m: &Rare) -> (Option<i64>, Option<i64>) {
    let (Some(_), None, Some(history)) = (m.last_edit_timestamp, m.last_moved_timestamp, &m.edit_history)
    else {
        return (m.last_edit_timestamp, m.last_moved_timestamp);
    };
    let latest =
        |of: fn(&EditHistoryEntry) -> bool| history.iter().filter(|e| of(e)).map(|e| e.timestamp).max();
    // An edit after the history was given (an edit's event sets the time alone) is an edit.
    let newer = m.last_edit_timestamp.filter(|t| history.iter().all(|e| e.timestamp < *t));
    let edited = newer.or(latest(|e| e.prev_content.is_some() || e.prev_rendered_content.is_some()));
    // Resolving or unresolving a topic (its "✔ " alone) is no move, as the server counts it.
    let moved = latest(|e| {
        let unresolved = |t: &Option<String>| t.as_deref().map(|t| t.trim_start_matches("✔ ").to_owned());
        e.prev_stream.is_some()
            || (e.prev_topic.is_some() && unresolved(&e.prev_topic) != unresolved(&e.topic))
    });
    if edited.is_none() && moved.is_none() {
        // A history that says neither: the server's word stands.
        return (m.last_edit_timestamp, None);
    }
    (edited, moved)
}

impl Stored {
    /// A decoded message taken apart: `share` gives its place and sender their shared records.
    fn build(m: Message, share: impl FnOnce(Place, From) -> (Arc<Place>, Arc<From>)) -> Stored {
        let recipient = m.recipient_id;
        let place = match m.display_recipient {
            DisplayRecipient::Users(users) if m.kind == MessageType::Private => {
                Place::Dm { recipient, users: users.into() }
            }
            DisplayRecipient::Channel(name) => Place::Channel {
                id: m.stream_id.unwrap_or_default(),
                recipient,
                name: name.into(),
                topic: m.subject.into(),
            },
            // A channel message whose recipient came as users (a malformed answer the decoder
            // let through): its channel is what `stream_id` says.
            DisplayRecipient::Users(users) => match m.stream_id {
                Some(id) => Place::Channel { id, recipient, name: "".into(), topic: m.subject.into() },
                None => Place::Dm { recipient, users: users.into() },
            },
        };
        let from = From {
            id: m.sender_id,
            full_name: m.sender_full_name.into(),
            email: m.sender_email.into(),
            avatar_url: m.avatar_url.map(Into::into),
            realm_str: m.sender_realm_str.into(),
            client: m.client.into(),
        };
        let (place, from) = share(place, from);
        let mut flags = Flags::default();
        let mut other_flags = Vec::new();
        for f in m.flags {
            match Flags::bit(&f) {
                Some(b) => flags.0 |= b,
                None => other_flags.push(f),
            }
        }
        let rare = Rare {
            reactions: m.reactions,
            edit_history: m.edit_history,
            last_edit_timestamp: m.last_edit_timestamp,
            last_moved_timestamp: m.last_moved_timestamp,
            submessages: m.submessages,
            topic_links: m.topic_links,
            match_content: m.match_content,
            match_subject: m.match_subject,
            rendered_content: m.rendered_content,
            content_type: m.content_type,
            is_me_message: m.is_me_message,
            other_flags,
        };
        Stored {
            id: m.id,
            timestamp: m.timestamp,
            flags,
            from,
            place,
            content: m.content.into(),
            rare: (!rare.is_empty()).then(|| Box::new(rare)),
        }
    }
}

/// Every held message by ID, and the records they share.
#[derive(Debug, Default)]
pub struct Store {
    messages: HashMap<MessageId, Stored>,
    places: HashSet<Arc<Place>>,
    senders: HashSet<Arc<From>>,
    /// What events said of messages lately, which wins over pages asked for before
    /// (`app::told`).
    told: Told,
}

/// One shared copy of `value` in `set`.
fn intern<T: Eq + std::hash::Hash>(set: &mut HashSet<Arc<T>>, value: T) -> Arc<T> {
    if let Some(shared) = set.get(&value) {
        return shared.clone();
    }
    let shared = Arc::new(value);
    set.insert(shared.clone());
    shared
}

/// Let `shared` go from `set` if only the set and the message being let go hold it.
fn release<T: Eq + std::hash::Hash>(set: &mut HashSet<Arc<T>>, shared: &Arc<T>) {
    if Arc::strong_count(shared) <= 2 {
        set.remove(&**shared);
    }
}

impl Store {
    /// The compact form of a decoded message, its shared records interned (not yet held).
    pub fn compact(&mut self, m: Message) -> Stored {
        let (places, senders) = (&mut self.places, &mut self.senders);
        Stored::build(m, |place, from| (intern(places, place), intern(senders, from)))
    }

    /// Hold a message (replacing one with its ID).
    pub fn put(&mut self, s: Stored) {
        if let Some(old) = self.messages.insert(s.id, s) {
            self.let_go(&old);
        }
    }

    /// Hold a decoded message.
    pub fn insert(&mut self, m: Message) {
        let s = self.compact(m);
        self.put(s);
    }

    fn let_go(&mut self, s: &Stored) {
        release(&mut self.places, &s.place);
        release(&mut self.senders, &s.from);
    }

    pub fn remove(&mut self, id: &MessageId) -> Option<Stored> {
        let s = self.messages.remove(id)?;
        self.let_go(&s);
        Some(s)
    }

    /// Keep only the messages `keep` says to; the records only they used go with them.
    pub fn retain(&mut self, mut keep: impl FnMut(&MessageId, &Stored) -> bool) {
        self.messages.retain(|id, s| keep(id, s));
        self.places.retain(|p| Arc::strong_count(p) > 1);
        self.senders.retain(|f| Arc::strong_count(f) > 1);
    }

    /// A message moved: to channel `to` (its ID and name) and/or to `topic`; what is not given
    /// stays. A direct message does not move.
    pub fn move_to(&mut self, msg: MessageId, to: Option<(ChannelId, &str)>, topic: Option<&str>) {
        let Some(s) = self.messages.get(&msg) else { return };
        let Place::Channel { id, recipient, name, topic: was } = &*s.place else { return };
        // The new channel's recipient ID is not in the event.
        let (id, recipient, name) = to.map_or((*id, *recipient, &**name), |(id, name)| (id, 0, name));
        let place = Place::Channel { id, recipient, name: name.into(), topic: topic.unwrap_or(was).into() };
        let old = s.place.clone();
        let place = intern(&mut self.places, place);
        if let Some(s) = self.messages.get_mut(&msg) {
            s.place = place;
        }
        release(&mut self.places, &old);
    }

    pub fn get(&self, id: &MessageId) -> Option<&Stored> {
        self.messages.get(id)
    }
    /// A message to change in place (its text, flags, reactions, widgets; a move goes through
    /// [`Store::move_to`], which shares its new place).
    pub fn get_mut(&mut self, id: &MessageId) -> Option<&mut Stored> {
        self.messages.get_mut(id)
    }
    pub fn contains_key(&self, id: &MessageId) -> bool {
        self.messages.contains_key(id)
    }
    /// A flag set or cleared on every held message, as `on` says for each (all read at once;
    /// the read state a new register answer gives).
    pub fn set_flag_where(&mut self, flag: Flag, on: impl Fn(MessageId) -> bool) {
        for s in self.messages.values_mut() {
            s.set_flag(flag.clone(), on(s.id));
        }
    }
    pub fn len(&self) -> usize {
        self.messages.len()
    }
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
    pub fn values(&self) -> impl Iterator<Item = &Stored> {
        self.messages.values()
    }
    pub fn keys(&self) -> impl Iterator<Item = &MessageId> {
        self.messages.keys()
    }
    /// An event said this of message `id` at `now` (`app::told`).
    pub fn told(&mut self, id: MessageId, mark: Mark, now: i64) {
        self.told.note(id, mark, now);
    }
    /// What events said of messages lately.
    pub fn told_lately(&self) -> &Told {
        &self.told
    }
    /// A new event queue: what the old one said concerns no page any more.
    pub fn forget_told(&mut self) {
        self.told.forget();
    }
    /// Let go of what events said longer ago than any page may take.
    pub fn let_go_told(&mut self, now: i64) {
        self.told.let_go(now);
    }
    /// Conversations and senders shared by the held messages (for tests and benchmarks).
    pub fn shared_records(&self) -> (usize, usize) {
        (self.places.len(), self.senders.len())
    }
}

/// A message read as the store keeps it without being held (its records shared with nothing).
impl std::convert::From<Message> for Stored {
    fn from(m: Message) -> Stored {
        Stored::build(m, |place, from| (Arc::new(place), Arc::new(from)))
    }
}

impl std::ops::Index<&MessageId> for Store {
    type Output = Stored;
    fn index(&self, id: &MessageId) -> &Stored {
        &self.messages[id]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ReactionType;

    fn channel_message(id: MessageId, topic: &str, sender: UserId) -> Message {
        serde_json::from_value(serde_json::json!({
            "id": id, "type": "stream", "content": format!("<p>message {id}</p>"),
            "display_recipient": "general", "stream_id": 7, "subject": topic,
            "sender_id": sender, "sender_full_name": format!("User {sender}"),
            "sender_email": format!("u{sender}@example.com"), "sender_realm_str": "zulip",
            "avatar_url": null, "client": "website", "timestamp": 1_700_000_000 + id,
            "recipient_id": 20, "flags": ["read", "mentioned"], "reactions": [],
        }))
        .unwrap()
    }

    fn dm(id: MessageId) -> Message {
        serde_json::from_value(serde_json::json!({
            "id": id, "type": "private", "content": "<p>hi</p>",
            "display_recipient": [
                {"id": 1, "email": "a@example.com", "full_name": "A", "is_mirror_dummy": false},
                {"id": 2, "email": "b@example.com", "full_name": "B", "is_mirror_dummy": false}],
            "sender_id": 2, "sender_full_name": "B", "sender_email": "b@example.com",
            "timestamp": 1_700_000_000, "flags": [],
        }))
        .unwrap()
    }

    #[test]
    fn before_level_365_the_history_tells_a_move_from_an_edit() {
        let entry = |timestamp, moved: bool| EditHistoryEntry {
            timestamp,
            prev_topic: moved.then(|| "old".into()),
            prev_content: (!moved).then(|| "before".into()),
            ..Default::default()
        };
        let mut store = Store::default();
        let mut m = channel_message(1, "lunch", 3);
        m.edit_history = Some(vec![entry(7, true)]);
        m.last_edit_timestamp = Some(7);
        store.insert(m.clone());
        assert_eq!((store[&1].last_edit_timestamp(), store[&1].last_moved_timestamp()), (None, Some(7)));
        // An edit told by its event afterwards is an edit.
        store.get_mut(&1).unwrap().set_content("<p>after</p>", 9);
        assert_eq!((store[&1].last_edit_timestamp(), store[&1].last_moved_timestamp()), (Some(9), Some(7)));
        m.edit_history = Some(vec![entry(8, false), entry(7, true)]);
        m.last_edit_timestamp = Some(8);
        store.insert(m.clone());
        assert_eq!((store[&1].last_edit_timestamp(), store[&1].last_moved_timestamp()), (Some(8), Some(7)));
        // From level 365 the server's fields stand.
        m.last_moved_timestamp = Some(7);
        m.edit_history = None;
        store.insert(m);
        assert_eq!((store[&1].last_edit_timestamp(), store[&1].last_moved_timestamp()), (Some(8), Some(7)));
    }

    #[test]
    fn a_message_is_given_back_as_it_came() {
        let mut store = Store::default();
        let mut m = channel_message(1, "lunch", 3);
        m.flags.push("some_future_flag".into());
        m.edit_history = Some(vec![EditHistoryEntry {
            timestamp: 5,
            prev_topic: Some("old".into()),
            ..Default::default()
        }]);
        m.last_edit_timestamp = Some(9);
        m.match_content = Some("<p><span class=\"highlight\">message</span></p>".into());
        m.reactions.push(Reaction {
            emoji_name: "smile".into(),
            emoji_code: "1f642".into(),
            reaction_type: ReactionType::UnicodeEmoji,
            user_id: 4,
        });
        store.insert(m.clone());
        assert_eq!(store[&1].to_api(), m);
        assert!(store[&1].has_flag(Flag::from("some_future_flag")) && store[&1].has_flag(Flag::Mentioned));
        assert!(!store[&1].has_flag(Flag::Starred));
        let d = dm(2);
        store.insert(d.clone());
        assert_eq!(store[&2].to_api(), d);
        assert_eq!(store[&2].dm_user_ids(), vec![1, 2]);
        assert!(store[&2].is_dm() && store[&2].topic().is_empty() && store[&2].stream_id().is_none());
    }

    #[test]
    fn a_stored_message_is_small_and_its_usual_parts_need_no_box() {
        assert!(std::mem::size_of::<Stored>() <= 64, "{} bytes", std::mem::size_of::<Stored>());
        let mut store = Store::default();
        assert!(store.compact(channel_message(1, "t", 1)).rare.is_none());
        let mut m = channel_message(2, "t", 1);
        m.last_edit_timestamp = Some(3);
        assert!(store.compact(m).rare.is_some());
    }

    #[test]
    fn conversations_and_senders_are_shared_and_let_go_with_their_last_message() {
        let mut store = Store::default();
        for id in 1..=100 {
            store.insert(channel_message(id, if id % 2 == 0 { "a" } else { "b" }, id % 3));
        }
        assert_eq!(store.shared_records(), (2, 3));
        assert!(Arc::ptr_eq(&store[&2].place, &store[&4].place));
        store.retain(|_, s| s.topic() == "a");
        assert_eq!(store.len(), 50);
        assert_eq!(store.shared_records(), (1, 3));
        store.retain(|id, _| *id == 2);
        assert_eq!(store.shared_records(), (1, 1));
        store.remove(&2);
        assert_eq!(store.shared_records(), (0, 0));
        assert!(store.is_empty());
        // Replacing a message with a copy of itself keeps its records once.
        store.insert(channel_message(5, "c", 1));
        store.insert(channel_message(5, "c", 1));
        assert_eq!(store.shared_records(), (1, 1));
        store.insert(channel_message(5, "d", 2));
        assert_eq!(store.shared_records(), (1, 1));
    }

    #[test]
    fn a_moved_message_shares_its_new_conversation_and_lets_the_old_go() {
        let mut store = Store::default();
        store.insert(channel_message(1, "old", 1));
        store.insert(channel_message(2, "new", 1));
        store.move_to(1, None, Some("new"));
        assert_eq!(store[&1].topic(), "new");
        assert!(Arc::ptr_eq(&store[&1].place, &store[&2].place));
        assert_eq!(store.shared_records().0, 1);
        store.move_to(2, Some((9, "design")), None);
        assert_eq!(
            (store[&2].stream_id(), store[&2].channel_name(), store[&2].topic()),
            (Some(9), Some("design"), "new")
        );
        assert_eq!(store[&1].stream_id(), Some(7));
        store.insert(dm(3));
        store.move_to(3, Some((9, "design")), Some("x"));
        assert!(store[&3].is_dm(), "a direct message does not move");
    }

    #[test]
    fn flags_reactions_and_widgets_change_in_place() {
        let mut store = Store::default();
        store.insert(channel_message(1, "t", 1));
        let s = store.get_mut(&1).unwrap();
        s.set_flag(Flag::Starred, true);
        s.set_flag(Flag::Read, false);
        s.set_flag(Flag::from("brand_new"), true);
        s.set_flag(Flag::from("brand_new"), true);
        assert!(s.has_flag(Flag::Starred) && !s.has_flag(Flag::Read) && s.has_flag(Flag::from("brand_new")));
        assert_eq!(s.to_api().flags, [Flag::Starred, Flag::Mentioned, Flag::Other("brand_new".into())]);
        s.set_flags(&[Flag::Read]);
        assert_eq!(s.to_api().flags, [Flag::Read]);
        let r = Reaction {
            emoji_name: "tada".into(),
            emoji_code: "1f389".into(),
            reaction_type: ReactionType::UnicodeEmoji,
            user_id: 2,
        };
        assert!(s.add_reaction(r.clone()));
        assert!(!s.add_reaction(r));
        assert_eq!(s.reactions().len(), 1);
        s.retain_reactions(|x| x.user_id != 2);
        assert!(s.reactions().is_empty());
        let sub = Submessage {
            msg_type: "widget".into(),
            content: "{}".into(),
            message_id: 1,
            sender_id: 1,
            id: 3,
        };
        assert!(s.add_submessage(sub.clone()));
        assert!(!s.add_submessage(sub));
        assert_eq!(s.submessages().len(), 1);
        s.set_content("<p>edited</p>", 42);
        assert_eq!((s.content(), s.last_edit_timestamp()), ("<p>edited</p>", Some(42)));
    }
}
