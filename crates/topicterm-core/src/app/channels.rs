//! Channels: the one owner of the channels the user is in (their subscriptions, with the
//! user's settings of each), the channels they can see and join (never subscribed, or left),
//! and the organization's channel folders — as zulip-flutter's `ChannelStore`. Built from its
//! part of register (`from_register`), changed only by the server's events through its
//! methods (a change the user asks for shows when the server's event says so), read through
//! its accessors. A leaf.

use crate::api::names::same_name;
use crate::api::{
    ChannelFolder, ChannelFolderEvent, ChannelId, GroupSettingValue, RegisterResponse, StreamChange,
    StreamEvent, Subscription, SubscriptionChange, SubscriptionEvent,
};
use std::collections::{BTreeMap, HashMap};

/// A subscribed channel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChannelInfo {
    pub id: ChannelId,
    pub name: String,
    pub description: String,
    pub color: String,
    pub pinned: bool,
    pub muted: bool,
    pub invite_only: bool,
    /// Desktop and audible notifications for the channel: `None` follows the user's default.
    pub desktop_notifications: Option<bool>,
    pub audible_notifications: Option<bool>,
    /// Whether `@all`-style mentions here notify: `None` follows the user's
    /// `wildcard_mentions_notify`.
    pub wildcard_mentions_notify: Option<bool>,
    pub folder_id: Option<i64>,
    /// Who may start a new topic in it (feature level 441); `None`: anyone who may post.
    pub can_create_topic_group: Option<GroupSettingValue>,
    /// Who may post in it (level 333); before, `stream_post_policy` (`app::rules`).
    pub can_send_message_group: Option<GroupSettingValue>,
    pub stream_post_policy: Option<i64>,
    /// Whether its messages must have a topic (level 392; `inherit`: the organization's).
    pub topics_policy: Option<String>,
    /// The channel's own permission groups that widen the organization's (level 315 on), by
    /// their names (`CHANNEL_PERMISSIONS`): its administrators, who may move its messages,
    /// resolve its topics, delete messages in it.
    pub permissions: BTreeMap<&'static str, GroupSettingValue>,
    /// Whether it had messages lately, as the server says (`None`: it does not say): an
    /// inactive one goes to the foot of its group where the user's `demote_inactive_streams`
    /// says so.
    pub recently_active: Option<bool>,
}

/// The channel permission groups kept in `ChannelInfo::permissions`.
pub const CHANNEL_PERMISSIONS: [&str; 6] = [
    "can_administer_channel_group",
    "can_move_messages_within_channel_group",
    "can_move_messages_out_of_channel_group",
    "can_resolve_topics_group",
    "can_delete_own_message_group",
    "can_delete_any_message_group",
];

impl ChannelInfo {
    /// What the client keeps of a subscription.
    pub fn of(s: &Subscription) -> ChannelInfo {
        ChannelInfo {
            id: s.stream_id,
            name: s.name.clone(),
            description: s.description.clone(),
            color: s.color.clone(),
            pinned: s.pin_to_top,
            muted: s.is_muted,
            invite_only: s.invite_only,
            desktop_notifications: s.desktop_notifications,
            audible_notifications: s.audible_notifications,
            wildcard_mentions_notify: s.wildcard_mentions_notify,
            folder_id: s.folder_id,
            can_create_topic_group: s.can_create_topic_group.clone(),
            can_send_message_group: s.can_send_message_group.clone(),
            // `is_announcement_only` before `stream_post_policy` (level 1).
            stream_post_policy: s.stream_post_policy.or(s.is_announcement_only.then_some(2)),
            topics_policy: s.topics_policy.clone(),
            permissions: CHANNEL_PERMISSIONS
                .into_iter()
                .zip([
                    &s.can_administer_channel_group,
                    &s.can_move_messages_within_channel_group,
                    &s.can_move_messages_out_of_channel_group,
                    &s.can_resolve_topics_group,
                    &s.can_delete_own_message_group,
                    &s.can_delete_any_message_group,
                ])
                .filter_map(|(k, v)| Some((k, v.clone()?)))
                .collect(),
            recently_active: s.is_recently_active,
        }
    }
}

/// What a `stream` event changed, for what the caller does after (the sidebar, the words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamApplied {
    /// Nothing held changed (a channel the user is not in, a property not kept).
    Nothing,
    /// A channel the user is in changed, or channels were created.
    Changed,
    /// Channels deleted or archived, forgotten; `subscribed`: the user was in one of them.
    Gone { ids: Vec<ChannelId>, subscribed: bool },
}

/// The user's channels, the ones they can join, and the channel folders.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Channels {
    /// The channels the user is in, by ID.
    subscribed: BTreeMap<ChannelId, ChannelInfo>,
    /// Channels the user can see but is not in, by ID → name (register's `never_subscribed`
    /// and `unsubscribed`, kept by subscription events): `:subscribe` finds them here, and a
    /// search hit or a link from one is named.
    joinable: BTreeMap<ChannelId, String>,
    /// The organization's channel folders by ID (archived ones too: a channel in one is shown
    /// as in none); the channels pane groups channels under them in their `order`.
    folders: HashMap<i64, ChannelFolder>,
}

impl Channels {
    /// Register's channels: `subscriptions`, the joinable ones (`never_subscribed` and
    /// `unsubscribed`, less any the user is in) and `channel_folders`.
    pub fn from_register(r: &RegisterResponse) -> Channels {
        let subscribed: BTreeMap<ChannelId, ChannelInfo> =
            r.subscriptions.iter().flatten().map(|s| (s.stream_id, ChannelInfo::of(s))).collect();
        let joinable = r
            .never_subscribed
            .iter()
            .flatten()
            .filter_map(|c| Some((c.get("stream_id")?.as_i64()?, c.get("name")?.as_str()?.to_owned())))
            .chain(r.unsubscribed.iter().flatten().map(|s| (s.stream_id, s.name.clone())))
            .filter(|(id, _)| !subscribed.contains_key(id))
            .collect();
        let folders = r.channel_folders.iter().flatten().map(|f| (f.id, f.clone())).collect();
        Channels { subscribed, joinable, folders }
    }

    /// The user's subscriptions added, removed or changed (others' come and go elsewhere:
    /// the subscriber counts of the `:channels` list). Returns the channel's mute when an
    /// update changed it (the combined feed follows).
    pub fn on_subscription(&mut self, ev: &SubscriptionEvent) -> Option<bool> {
        match ev {
            SubscriptionEvent::Update { stream_id, change } => {
                let c = self.subscribed.get_mut(stream_id)?;
                let was = c.muted;
                match change {
                    SubscriptionChange::Muted(muted) => c.muted = *muted,
                    // The legacy inverse of `is_muted`: Zulip sends both.
                    SubscriptionChange::InHomeView(shown) => c.muted = !shown,
                    SubscriptionChange::PinToTop(pinned) => c.pinned = *pinned,
                    SubscriptionChange::Color(color) => c.color.clone_from(color),
                    // `None` (the user's default) is a value too.
                    SubscriptionChange::DesktopNotifications(v) => c.desktop_notifications = *v,
                    SubscriptionChange::AudibleNotifications(v) => c.audible_notifications = *v,
                    SubscriptionChange::WildcardMentionsNotify(v) => c.wildcard_mentions_notify = *v,
                    SubscriptionChange::Folder(folder) => c.folder_id = *folder,
                    SubscriptionChange::Other { .. } => {}
                }
                (c.muted != was).then_some(c.muted)
            }
            SubscriptionEvent::Add(subscriptions) => {
                for s in subscriptions {
                    self.joinable.remove(&s.stream_id);
                    self.subscribed.insert(s.stream_id, ChannelInfo::of(s));
                }
                None
            }
            SubscriptionEvent::Remove(ids) => {
                for id in ids {
                    if let Some(c) = self.subscribed.remove(id) {
                        self.joinable.insert(*id, c.name);
                    }
                }
                None
            }
            SubscriptionEvent::PeerAdd { .. }
            | SubscriptionEvent::PeerRemove { .. }
            | SubscriptionEvent::Other(_) => None,
        }
    }

    /// Channels deleted, archived or changed (name, description, folder, who may start
    /// topics) while the user is in them.
    pub fn on_stream(&mut self, ev: StreamEvent) -> StreamApplied {
        match ev {
            StreamEvent::Delete(ids) => self.forget(ids),
            StreamEvent::Update { stream_id, change } => {
                let Some(c) = self.subscribed.get_mut(&stream_id) else {
                    // One the user can join: its name is kept current, and archived it goes.
                    match change {
                        StreamChange::Name(n) if self.joinable.contains_key(&stream_id) => {
                            self.joinable.insert(stream_id, n);
                        }
                        StreamChange::Archived(true) if self.joinable.remove(&stream_id).is_some() => {
                            return StreamApplied::Gone { ids: vec![stream_id], subscribed: false };
                        }
                        _ => {}
                    }
                    return StreamApplied::Nothing;
                };
                match change {
                    StreamChange::Archived(true) => return self.forget(vec![stream_id]),
                    StreamChange::Name(n) => c.name = n,
                    StreamChange::Description(d) => c.description = d,
                    // Into a folder, or out of every folder (`None`).
                    StreamChange::Folder(folder) => c.folder_id = folder,
                    StreamChange::CanCreateTopicGroup(setting) => c.can_create_topic_group = setting,
                    StreamChange::CanSendMessageGroup(setting) => c.can_send_message_group = setting,
                    StreamChange::PostPolicy(policy) => c.stream_post_policy = Some(policy),
                    StreamChange::TopicsPolicy(policy) => c.topics_policy = Some(policy),
                    // Shown in the channel info popup, from its own details.
                    StreamChange::DefaultPushNotifications(_) => return StreamApplied::Nothing,
                    StreamChange::Permission { invite_only, .. } => c.invite_only = invite_only,
                    StreamChange::Other { property, value } => {
                        let Some(key) = CHANNEL_PERMISSIONS.into_iter().find(|k| *k == property) else {
                            return StreamApplied::Nothing;
                        };
                        match serde_json::from_value(value) {
                            Ok(setting) => c.permissions.insert(key, setting),
                            Err(_) => c.permissions.remove(key),
                        };
                    }
                    StreamChange::Archived(false) => return StreamApplied::Nothing,
                }
                StreamApplied::Changed
            }
            StreamEvent::Create(created) => {
                for (id, name) in created {
                    if !self.subscribed.contains_key(&id) {
                        self.joinable.insert(id, name);
                    }
                }
                StreamApplied::Changed
            }
            StreamEvent::Other(_) => StreamApplied::Changed,
        }
    }

    /// Channels gone (deleted or archived): the user is in them no more.
    fn forget(&mut self, ids: Vec<ChannelId>) -> StreamApplied {
        let mut subscribed = false;
        for id in &ids {
            subscribed |= self.subscribed.remove(id).is_some();
            self.joinable.remove(id);
        }
        StreamApplied::Gone { ids, subscribed }
    }

    /// Channel folders added, renamed, archived or reordered.
    pub fn on_folder(&mut self, ev: ChannelFolderEvent) {
        match ev {
            ChannelFolderEvent::Add(f) => {
                self.folders.insert(f.id, f);
            }
            ChannelFolderEvent::Update { id, name, is_archived } => {
                if let Some(f) = self.folders.get_mut(&id) {
                    f.name = name.unwrap_or_else(|| std::mem::take(&mut f.name));
                    f.is_archived = is_archived.unwrap_or(f.is_archived);
                }
            }
            ChannelFolderEvent::Reorder(order) => {
                for (i, id) in order.iter().enumerate() {
                    if let Some(f) = self.folders.get_mut(id) {
                        f.order = i as i64;
                    }
                }
            }
        }
    }

    /// A channel the user is in.
    pub fn get(&self, id: ChannelId) -> Option<&ChannelInfo> {
        self.subscribed.get(&id)
    }

    /// Whether the user is in the channel.
    pub fn is_subscribed(&self, id: ChannelId) -> bool {
        self.subscribed.contains_key(&id)
    }

    /// Whether the user is in the channel and has muted it.
    pub fn is_muted(&self, id: ChannelId) -> bool {
        self.subscribed.get(&id).is_some_and(|c| c.muted)
    }

    /// The channels the user is in, by ID.
    pub fn iter(&self) -> impl Iterator<Item = &ChannelInfo> + '_ {
        self.subscribed.values()
    }

    /// How many channels the user is in.
    pub fn len(&self) -> usize {
        self.subscribed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.subscribed.is_empty()
    }

    /// A channel the user is in, by name (any case).
    pub fn by_name(&self, name: &str) -> Option<&ChannelInfo> {
        self.subscribed.values().find(|c| same_name(&c.name, name))
    }

    /// The channels the user can join, by ID, with their names.
    pub fn joinable(&self) -> impl Iterator<Item = (ChannelId, &str)> + '_ {
        self.joinable.iter().map(|(id, name)| (*id, name.as_str()))
    }

    /// A channel the user can join, by name (any case): its ID and its name as the server
    /// spells it.
    pub fn joinable_by_name(&self, name: &str) -> Option<(ChannelId, &str)> {
        self.joinable().find(|(_, n)| same_name(n, name))
    }

    /// Any channel the user can see, by name (any case): theirs first, then one they can join.
    pub fn id_by_name(&self, name: &str) -> Option<ChannelId> {
        self.by_name(name).map(|c| c.id).or_else(|| self.joinable_by_name(name).map(|(id, _)| id))
    }

    /// A channel's name: one the user is in, or one they can join — a search hit or a link
    /// can come from either; "(unknown channel)" for any other.
    pub fn name(&self, id: ChannelId) -> &str {
        match self.subscribed.get(&id) {
            Some(c) => c.name.as_str(),
            None => self.joinable.get(&id).map_or("(unknown channel)", String::as_str),
        }
    }

    /// The channels of `which` whose name the typed text `q` begins or begins a word of (any
    /// case; `#` left off), best first: the name itself, then names it begins, then names with
    /// a word it begins, each alphabetical. The one rule of completion and of the commands
    /// that take a channel, so that Enter takes what Tab offers.
    pub fn matching(&self, which: Which, q: &str) -> Vec<(ChannelId, &str)> {
        let q = q.trim_start_matches('#').to_lowercase();
        let mine = self.subscribed.values().map(|c| (c.id, c.name.as_str()));
        let theirs = self.joinable();
        let all: Box<dyn Iterator<Item = (ChannelId, &str)>> = match which {
            Which::Subscribed => Box::new(mine),
            Which::Joinable => Box::new(theirs),
            Which::Any => Box::new(mine.chain(theirs)),
        };
        let mut found: Vec<(u8, String, ChannelId, &str)> = all
            .filter_map(|(id, name)| {
                let lower = name.to_lowercase();
                Some((match_rank(&lower, &q)?, lower, id, name))
            })
            .collect();
        found.sort();
        found.into_iter().map(|(_, _, id, name)| (id, name)).collect()
    }

    /// The one channel of `which` that the typed text names — the name itself, or else the
    /// only one that `matching` finds; `Err` with the candidates (none, or several).
    pub fn resolve(&self, which: Which, q: &str) -> Result<ChannelId, Vec<&str>> {
        let found = self.matching(which, q);
        match found.as_slice() {
            [(id, _)] => Ok(*id),
            [(id, name), ..] if same_name(name, q.trim_start_matches('#')) => Ok(*id),
            _ => Err(found.into_iter().map(|(_, n)| n).collect()),
        }
    }

    /// A channel folder, archived or not.
    pub fn folder(&self, id: i64) -> Option<&ChannelFolder> {
        self.folders.get(&id)
    }

    /// Every channel folder, in no order (each has its `order`).
    pub fn folders(&self) -> impl Iterator<Item = &ChannelFolder> + '_ {
        self.folders.values()
    }

    /// Whether the store agrees with itself: a channel is either the user's or joinable,
    /// never both, and each is kept under its own ID.
    pub fn check(&self) -> Result<(), String> {
        if let Some(id) = self.joinable.keys().find(|id| self.subscribed.contains_key(id)) {
            return Err(format!("channel {id} is both subscribed and joinable"));
        }
        if let Some((id, c)) = self.subscribed.iter().find(|(id, c)| **id != c.id) {
            return Err(format!("channel {} is kept under ID {id}", c.id));
        }
        if let Some((id, f)) = self.folders.iter().find(|(id, f)| **id != f.id) {
            return Err(format!("folder {} is kept under ID {id}", f.id));
        }
        Ok(())
    }
}

/// Which channels a name is looked for among: what a command can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The user's own (`:unsubscribe`, and what names a channel to post in).
    Subscribed,
    /// The ones they can join and are not in (`:subscribe`).
    Joinable,
    /// Either (`:channel-info`, a search's `channel:`).
    Any,
}

/// How well the typed text `q` (lowercase) matches a name (lowercase): 0 the name itself,
/// 1 its beginning, 2 the beginning of one of its words (after a character that is neither a
/// letter nor a digit); `None` otherwise. Empty text begins every name.
pub fn match_rank(name: &str, q: &str) -> Option<u8> {
    if name == q {
        return Some(0);
    }
    if name.starts_with(q) {
        return Some(1);
    }
    let mut prev_word = true;
    for (i, c) in name.char_indices() {
        let word = c.is_alphanumeric();
        if word && !prev_word && name[i..].starts_with(q) {
            return Some(2);
        }
        prev_word = word;
    }
    None
}

/// The channel the user is in with this ID (as `Store`'s index: a panic when they are not).
impl std::ops::Index<&ChannelId> for Channels {
    type Output = ChannelInfo;
    fn index(&self, id: &ChannelId) -> &ChannelInfo {
        &self.subscribed[id]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Event, EventKind};
    use serde_json::{Value, json};

    #[test]
    fn a_name_is_matched_by_its_beginning_and_its_words_beginnings() {
        assert_eq!(match_rank("outdoors", "outdoors"), Some(0));
        assert_eq!(match_rank("outdoors", "outd"), Some(1));
        assert_eq!(match_rank("book-club", "club"), Some(2));
        assert_eq!(match_rank("big one", "one"), Some(2));
        assert_eq!(match_rank("outdoors", "door"), None, "inside a word");
        assert_eq!(match_rank("outdoors", ""), Some(1));
    }

    #[test]
    fn each_command_finds_the_channels_it_can_take() {
        let c = store();
        let names = |w, q| c.matching(w, q).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(names(Which::Joinable, ""), ["old", "random"]);
        assert_eq!(names(Which::Subscribed, ""), ["design", "general"]);
        assert_eq!(names(Which::Any, "#ra"), ["random"]);
        assert_eq!(c.resolve(Which::Joinable, "ran"), Ok(3));
        assert_eq!(c.resolve(Which::Joinable, "des"), Err(vec![]), "not one to join");
        assert_eq!(c.resolve(Which::Any, ""), Err(vec!["design", "general", "old", "random"]));
    }

    fn register(v: Value) -> RegisterResponse {
        serde_json::from_value(v).unwrap()
    }

    fn sub(id: ChannelId, name: &str) -> Value {
        json!({"stream_id": id, "name": name, "color": "#c2c2c2", "folder_id": 1})
    }

    /// One event decoded as the server sends it.
    fn event(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    /// The user in #general (1, in folder 1) and #design (2); #random (3) never joined, #old
    /// (4) left; folders 1 and 2.
    fn store() -> Channels {
        let c = Channels::from_register(&register(json!({
            "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 496,
            "subscriptions": [sub(1, "general"), sub(2, "design")],
            "never_subscribed": [{"stream_id": 3, "name": "random"}, {"stream_id": 2, "name": "design"}],
            "unsubscribed": [sub(4, "old")],
            "channel_folders": [{"id": 1, "name": "Work", "order": 0}, {"id": 2, "name": "Social", "order": 1}],
        })));
        c.check().unwrap();
        c
    }

    fn apply_subscription(c: &mut Channels, v: Value) -> Option<bool> {
        let EventKind::Subscription(ev) = event(v) else { panic!("not a subscription event") };
        let muted = c.on_subscription(&ev);
        c.check().unwrap();
        muted
    }

    fn apply_stream(c: &mut Channels, v: Value) -> StreamApplied {
        let EventKind::Stream(ev) = event(v) else { panic!("not a stream event") };
        let applied = c.on_stream(ev);
        c.check().unwrap();
        applied
    }

    fn apply_folder(c: &mut Channels, v: Value) {
        let EventKind::ChannelFolder(ev) = event(v) else { panic!("not a folder event") };
        c.on_folder(ev);
        c.check().unwrap();
    }

    #[test]
    fn register_gives_the_users_channels_the_joinable_ones_and_the_folders() {
        let c = store();
        assert_eq!(c.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["general", "design"]);
        assert_eq!((c.len(), c.is_empty()), (2, false));
        assert_eq!(c.get(1).map(|c| (c.folder_id, c.color.as_str())), Some((Some(1), "#c2c2c2")));
        assert!(c.is_subscribed(2) && !c.is_subscribed(3));
        // One listed as never joined that the user is in is theirs, not joinable.
        assert_eq!(c.joinable().collect::<Vec<_>>(), [(3, "random"), (4, "old")]);
        assert_eq!(c.by_name("GENERAL").map(|c| c.id), Some(1));
        assert_eq!(c.by_name("random"), None, "by_name is the user's channels only");
        assert_eq!(c.joinable_by_name("Random"), Some((3, "random")));
        assert_eq!(
            (c.id_by_name("Design"), c.id_by_name("old"), c.id_by_name("nope")),
            (Some(2), Some(4), None)
        );
        assert_eq!((c.name(1), c.name(3), c.name(99)), ("general", "random", "(unknown channel)"));
        assert_eq!(c.folder(2).map(|f| f.name.as_str()), Some("Social"));
        assert_eq!(c.folders().count(), 2);
        assert_eq!(Channels::from_register(&RegisterResponse::default()), Channels::default());
    }

    #[test]
    fn a_subscription_update_changes_the_setting_and_says_when_the_mute_changed() {
        let mut c = store();
        let update = |property: &str, value: Value| json!({"type": "subscription", "op": "update", "stream_id": 1, "property": property, "value": value});
        assert_eq!(apply_subscription(&mut c, update("is_muted", json!(true))), Some(true));
        assert!(c.is_muted(1));
        assert_eq!(apply_subscription(&mut c, update("is_muted", json!(true))), None, "no change");
        assert_eq!(apply_subscription(&mut c, update("in_home_view", json!(true))), Some(false));
        assert!(!c.is_muted(1));
        apply_subscription(&mut c, update("pin_to_top", json!(true)));
        apply_subscription(&mut c, update("color", json!("#ff0000")));
        apply_subscription(&mut c, update("desktop_notifications", json!(true)));
        apply_subscription(&mut c, update("audible_notifications", json!(false)));
        apply_subscription(&mut c, update("folder_id", Value::Null));
        apply_subscription(&mut c, update("wildcard_mentions_notify", json!(true)));
        let g = c.get(1).unwrap();
        assert!(g.pinned);
        assert_eq!(g.color, "#ff0000");
        assert_eq!((g.desktop_notifications, g.audible_notifications), (Some(true), Some(false)));
        assert_eq!(g.folder_id, None);
        // A channel the user is not in is not made one.
        let other = json!({"type": "subscription", "op": "update", "stream_id": 3, "property": "is_muted", "value": true});
        assert_eq!(apply_subscription(&mut c, other), None);
        assert!(!c.is_subscribed(3));
    }

    #[test]
    fn joining_and_leaving_move_a_channel_between_the_users_and_the_joinable() {
        let mut c = store();
        apply_subscription(
            &mut c,
            json!({"type": "subscription", "op": "add", "subscriptions": [sub(3, "random")]}),
        );
        assert!(c.is_subscribed(3));
        assert_eq!(c.joinable_by_name("random"), None);
        apply_subscription(
            &mut c,
            json!({"type": "subscription", "op": "remove", "subscriptions": [{"stream_id": 1, "name": "general"}]}),
        );
        assert!(!c.is_subscribed(1));
        assert_eq!(c.joinable_by_name("general"), Some((1, "general")));
        assert_eq!(c.name(1), "general", "still named");
        // Others joining or leaving change nothing here.
        let before = c.clone();
        apply_subscription(
            &mut c,
            json!({"type": "subscription", "op": "peer_add", "stream_ids": [2], "user_ids": [5]}),
        );
        apply_subscription(
            &mut c,
            json!({"type": "subscription", "op": "peer_remove", "stream_ids": [2], "user_ids": [5]}),
        );
        assert_eq!(c, before);
    }

    #[test]
    fn a_channel_changed_deleted_or_archived() {
        let mut c = store();
        let update = |id: ChannelId, property: &str, value: Value| json!({"type": "stream", "op": "update", "stream_id": id, "name": "x", "property": property, "value": value});
        assert_eq!(apply_stream(&mut c, update(1, "name", json!("lobby"))), StreamApplied::Changed);
        assert_eq!(apply_stream(&mut c, update(1, "description", json!("hi"))), StreamApplied::Changed);
        assert_eq!(apply_stream(&mut c, update(1, "folder_id", json!(2))), StreamApplied::Changed);
        let g = c.get(1).unwrap();
        assert_eq!((g.name.as_str(), g.description.as_str(), g.folder_id), ("lobby", "hi", Some(2)));
        assert_eq!(c.by_name("lobby").map(|c| c.id), Some(1));
        assert_eq!(apply_stream(&mut c, update(1, "is_archived", json!(false))), StreamApplied::Nothing);
        assert_eq!(
            apply_stream(&mut c, update(3, "name", json!("chaos"))),
            StreamApplied::Nothing,
            "not the user's"
        );
        assert_eq!(
            apply_stream(&mut c, update(2, "is_archived", json!(true))),
            StreamApplied::Gone { ids: vec![2], subscribed: true }
        );
        assert!(!c.is_subscribed(2));
        let delete =
            json!({"type": "stream", "op": "delete", "streams": [{"stream_id": 1}, {"stream_id": 3}]});
        assert_eq!(apply_stream(&mut c, delete), StreamApplied::Gone { ids: vec![1, 3], subscribed: true });
        assert!(c.is_empty());
        let delete = json!({"type": "stream", "op": "delete", "streams": [{"stream_id": 3}]});
        assert_eq!(apply_stream(&mut c, delete), StreamApplied::Gone { ids: vec![3], subscribed: false });
    }

    #[test]
    fn channels_the_user_can_join_follow_creation_renames_and_archiving() {
        let mut c = store();
        let update = |id: ChannelId, property: &str, value: Value| json!({"type": "stream", "op": "update", "stream_id": id, "name": "x", "property": property, "value": value});
        let created = json!({"type": "stream", "op": "create", "streams": [
            {"stream_id": 9, "name": "fresh"}, {"stream_id": 1, "name": "general"}]});
        assert_eq!(apply_stream(&mut c, created), StreamApplied::Changed);
        assert_eq!(c.joinable_by_name("fresh"), Some((9, "fresh")), "a new channel can be joined");
        assert_eq!(c.joinable_by_name("general"), None, "one the user is in stays theirs");
        apply_stream(&mut c, update(3, "name", json!("chaos")));
        assert_eq!(c.joinable_by_name("chaos"), Some((3, "chaos")), "renamed");
        assert_eq!(c.joinable_by_name("random"), None, "the old name names nothing");
        assert_eq!(
            apply_stream(&mut c, update(4, "is_archived", json!(true))),
            StreamApplied::Gone { ids: vec![4], subscribed: false }
        );
        assert_eq!(c.joinable_by_name("old"), None, "archived: no longer joinable");
        let delete = json!({"type": "stream", "op": "delete", "stream_ids": [9]});
        apply_stream(&mut c, delete);
        assert_eq!(c.joinable_by_name("fresh"), None, "deleted: no longer joinable");
    }

    #[test]
    fn folders_added_renamed_archived_and_reordered() {
        let mut c = store();
        apply_folder(
            &mut c,
            json!({"type": "channel_folder", "op": "add", "channel_folder": {"id": 3, "name": "Ops", "order": 2}}),
        );
        apply_folder(
            &mut c,
            json!({"type": "channel_folder", "op": "update", "channel_folder_id": 1, "data": {"name": "Jobs"}}),
        );
        apply_folder(
            &mut c,
            json!({"type": "channel_folder", "op": "update", "channel_folder_id": 2, "data": {"is_archived": true}}),
        );
        apply_folder(&mut c, json!({"type": "channel_folder", "op": "reorder", "order": [3, 2, 1]}));
        let f = |id| c.folder(id).map(|f| (f.name.as_str(), f.order, f.is_archived));
        assert_eq!(
            (f(1), f(2), f(3)),
            (Some(("Jobs", 2, false)), Some(("Social", 1, true)), Some(("Ops", 0, false)))
        );
    }

    #[test]
    fn unknown_ops_change_nothing() {
        let mut c = store();
        let before = c.clone();
        assert_eq!(apply_subscription(&mut c, json!({"type": "subscription", "op": "frobnicate"})), None);
        assert_eq!(
            apply_stream(&mut c, json!({"type": "stream", "op": "frobnicate"})),
            StreamApplied::Changed
        );
        assert_eq!(
            apply_stream(
                &mut c,
                json!({"type": "stream", "op": "update", "stream_id": 1, "property": "frob", "value": 1})
            ),
            StreamApplied::Nothing
        );
        assert_eq!(c, before);
    }

    #[test]
    fn the_check_finds_a_channel_both_subscribed_and_joinable() {
        let mut c = store();
        c.joinable.insert(1, "general".into());
        assert!(c.check().unwrap_err().contains("both subscribed and joinable"));
    }
}
