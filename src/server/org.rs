//! The in-memory organization: users, channels, messages, and every per-user record, plus the
//! rules shared by several operations (access, posting, sending, editing, event fan-out).

use super::clock::{now, now_f64};
use super::emoji;
use super::error::{ApiErr, ApiResult};
use super::events::Queues;
use super::markdown::{self, RenderContext, Rendered};
use super::seed::{self, Seed};
use super::token::token;
use crate::api::models::{Reaction, ReactionType, UserStatus};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The feature level the demo server reports unless told otherwise.
pub const FEATURE_LEVEL: i64 = 496;
/// The version string it reports.
pub const VERSION: &str = "11.0-topicterm-demo";
/// Anchor returned for `newest` (as the reference server does).
pub const LARGER_THAN_MAX_MESSAGE_ID: i64 = 10_000_000_000_000_000;
/// Password of every seeded human, for `fetch_api_key`.
pub const DEMO_PASSWORD: &str = "topicterm-demo";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Owner = 100,
    Admin = 200,
    Moderator = 300,
    Member = 400,
    Guest = 600,
}

impl From<seed::SeedRole> for Role {
    fn from(r: seed::SeedRole) -> Self {
        match r {
            seed::SeedRole::Owner => Role::Owner,
            seed::SeedRole::Admin => Role::Admin,
            seed::SeedRole::Moderator => Role::Moderator,
            seed::SeedRole::Member => Role::Member,
            seed::SeedRole::Guest => Role::Guest,
        }
    }
}

#[derive(Debug, Clone)]
pub struct UserRec {
    pub id: i64,
    pub short_name: String,
    pub email: String,
    pub full_name: String,
    pub role: Role,
    /// 1 generic, 3 outgoing webhook; None for humans.
    pub bot_type: Option<u8>,
    pub bot_owner: Option<i64>,
    pub is_active: bool,
    pub api_key: String,
    pub presence_enabled: bool,
    pub timezone: String,
    pub date_joined: i64,
    /// Token sent in outgoing-webhook payloads (outgoing-webhook bots only).
    pub webhook_token: Option<String>,
    /// Bots of the server itself (notification bot, email gateway).
    pub is_system_bot: bool,
    pub status: UserStatus,
    pub avatar_removed: bool,
}

impl UserRec {
    pub fn is_bot(&self) -> bool {
        self.bot_type.is_some()
    }
    pub fn is_admin(&self) -> bool {
        self.role <= Role::Admin
    }
}

#[derive(Debug, Clone)]
pub struct SubRec {
    pub color: String,
    pub pin_to_top: bool,
    pub is_muted: bool,
    pub desktop_notifications: Option<bool>,
    pub email_notifications: Option<bool>,
    pub wildcard_mentions_notify: Option<bool>,
    pub push_notifications: Option<bool>,
    pub audible_notifications: Option<bool>,
    /// Messages with lower IDs are hidden in a channel with protected history.
    pub first_visible: i64,
}

#[derive(Debug, Clone)]
pub struct ChannelRec {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub rendered_description: String,
    pub invite_only: bool,
    pub history_public: bool,
    pub is_web_public: bool,
    pub folder_id: Option<i64>,
    pub admins_only_post: bool,
    pub subs: BTreeMap<i64, SubRec>,
    pub date_created: i64,
    pub creator_id: Option<i64>,
    /// Group whose members may unsubscribe others.
    pub can_remove_group: i64,
    pub is_archived: bool,
    pub email_token: String,
}

#[derive(Debug, Clone)]
pub struct GroupRec {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub members: BTreeSet<i64>,
    pub subgroups: BTreeSet<i64>,
    pub is_system: bool,
    pub deactivated: bool,
    pub creator_id: Option<i64>,
    pub date_created: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recip {
    Channel {
        id: i64,
        topic: String,
    },
    /// Sorted participant IDs, the sender included.
    Dm {
        users: Vec<i64>,
    },
}

#[derive(Debug, Clone, Default)]
pub struct EditRec {
    pub user_id: i64,
    pub timestamp: i64,
    pub prev_content: Option<String>,
    pub prev_rendered: Option<String>,
    pub content: Option<String>,
    pub rendered: Option<String>,
    pub prev_topic: Option<String>,
    pub topic: Option<String>,
    pub prev_stream: Option<i64>,
    pub stream: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct MessageRec {
    pub id: i64,
    pub sender_id: i64,
    pub recip: Recip,
    pub content: String,
    pub rendered: Rendered,
    pub timestamp: i64,
    pub client: String,
    pub is_me: bool,
    pub reactions: Vec<Reaction>,
    /// Oldest first.
    pub edits: Vec<EditRec>,
    pub last_edit_ts: Option<i64>,
    pub last_moved_ts: Option<i64>,
}

impl MessageRec {
    pub fn channel_id(&self) -> Option<i64> {
        match &self.recip {
            Recip::Channel { id, .. } => Some(*id),
            Recip::Dm { .. } => None,
        }
    }
    pub fn topic(&self) -> &str {
        match &self.recip {
            Recip::Channel { topic, .. } => topic,
            Recip::Dm { .. } => "",
        }
    }
}

/// Per-user message flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    pub read: bool,
    pub starred: bool,
    pub mentioned: bool,
    pub wildcard_mentioned: bool,
    pub collapsed: bool,
}

impl Flags {
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.read {
            v.push("read");
        }
        if self.starred {
            v.push("starred");
        }
        if self.mentioned {
            v.push("mentioned");
        }
        if self.wildcard_mentioned {
            v.push("stream_wildcard_mentioned");
        }
        if self.collapsed {
            v.push("collapsed");
        }
        v
    }
    /// Set or clear a flag by name; false for flags that cannot be changed by a user.
    pub fn set(&mut self, flag: &str, on: bool) -> bool {
        match flag {
            "read" => self.read = on,
            "starred" => self.starred = on,
            "collapsed" => self.collapsed = on,
            _ => return false,
        }
        true
    }
    pub fn get(&self, flag: &str) -> bool {
        match flag {
            "read" => self.read,
            "starred" => self.starred,
            "collapsed" => self.collapsed,
            "mentioned" => self.mentioned,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct PresenceRec {
    pub active_ts: i64,
    pub idle_ts: i64,
    pub update_id: i64,
}

#[derive(Debug, Clone)]
pub struct NavViewRec {
    pub fragment: String,
    pub name: Option<String>,
    pub is_pinned: bool,
    pub builtin: bool,
}

#[derive(Debug, Clone)]
pub struct ScheduledRec {
    pub id: i64,
    pub sender_id: i64,
    pub is_channel: bool,
    pub channel_id: i64,
    pub user_ids: Vec<i64>,
    pub topic: String,
    pub content: String,
    pub deliver_at: i64,
    pub failed: bool,
    pub read_by_sender: Option<bool>,
}

/// Who a server-side draft is addressed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftTo {
    /// Not addressed yet (`type` "").
    Nobody,
    Channel(i64),
    /// The other participants, sorted; only the owner's ID for a draft to themselves.
    Users(Vec<i64>),
}

/// A draft kept on the server for its owner (the key it is stored under).
#[derive(Debug, Clone)]
pub struct DraftRec {
    pub id: i64,
    pub to: DraftTo,
    /// Empty unless addressed to a channel.
    pub topic: String,
    pub content: String,
    /// Last edit, seconds (fractional, as the client may send it).
    pub timestamp: f64,
    /// Write order: breaks ties between drafts edited within the same timestamp.
    pub seq: i64,
}

#[derive(Debug, Clone)]
pub struct PlaygroundRec {
    pub id: i64,
    pub name: String,
    pub pygments_language: String,
    pub url_template: String,
}

#[derive(Debug, Clone)]
pub struct RealmRec {
    pub name: String,
    pub string_id: String,
    pub email_domain: String,
    pub empty_topic_display_name: String,
    pub moderation_request_channel_id: Option<i64>,
    pub allow_edit_history: bool,
    pub max_message_length: usize,
    pub max_topic_length: usize,
    pub date_created: i64,
}

/// Server-wide behaviour that tests can change.
#[derive(Debug, Clone)]
pub struct Settings {
    pub feature_level: i64,
    /// Channels with at least this many subscribers get `partial_subscribers`.
    pub partial_subscribers_threshold: usize,
    /// Where outgoing-webhook bots' payloads are POSTed.
    pub outgoing_webhook_url: Option<String>,
    /// Seconds added to the real clock: a server seeded at a fixed past time keeps its own
    /// "now" consistent with its data (tests).
    pub clock_offset: i64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            feature_level: FEATURE_LEVEL,
            partial_subscribers_threshold: 250,
            outgoing_webhook_url: None,
            clock_offset: 0,
        }
    }
}

/// A payload to POST to an outgoing-webhook bot once the lock is released.
#[derive(Debug, Clone)]
pub struct WebhookJob {
    pub url: String,
    pub bot_id: i64,
    pub payload: Value,
}

/// The whole organization.
pub struct Org {
    pub settings: Settings,
    pub realm: RealmRec,
    pub users: BTreeMap<i64, UserRec>,
    pub channels: BTreeMap<i64, ChannelRec>,
    pub folders: BTreeMap<i64, (String, String)>,
    pub groups: BTreeMap<i64, GroupRec>,
    pub messages: BTreeMap<i64, MessageRec>,
    /// user → message → flags: the user's personal message history.
    pub user_msgs: HashMap<i64, BTreeMap<i64, Flags>>,
    /// (user, channel, lowercased topic) → (topic as set, policy, last_updated).
    pub user_topics: BTreeMap<(i64, i64, String), (String, i64, i64)>,
    pub presence: HashMap<i64, PresenceRec>,
    pub presence_counter: i64,
    pub nav_views: HashMap<i64, Vec<NavViewRec>>,
    pub scheduled: BTreeMap<i64, ScheduledRec>,
    pub playgrounds: Vec<PlaygroundRec>,
    /// id → (name, author)
    pub realm_emoji: BTreeMap<i64, (String, i64)>,
    pub apns_tokens: Vec<(i64, String, Option<String>)>,
    /// owner → draft ID → draft.
    pub drafts: HashMap<i64, BTreeMap<i64, DraftRec>>,
    /// Users who turned `enable_drafts_synchronization` off (it is on by default).
    pub drafts_sync_off: HashSet<i64>,
    pub dm_recipient_ids: HashMap<Vec<i64>, i64>,
    pub queues: Queues,
    pub webhook_jobs: Vec<WebhookJob>,
    next_id: i64,
    pub notification_bot: i64,
    pub email_gateway_bot: i64,
}

/// Built-in navigation views every user has.
pub const BUILTIN_VIEWS: &[&str] =
    &["inbox", "recent", "feed", "starred", "mentions", "reactions", "my_dms", "drafts", "scheduled"];

/// System groups, created first (IDs 1..).
const SYSTEM_GROUPS: &[&str] = &[
    "role:nobody",
    "role:owners",
    "role:administrators",
    "role:moderators",
    "role:fullmembers",
    "role:members",
    "role:everyone",
    "role:internet",
];

const COLORS: &[&str] =
    &["#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5"];

impl RenderContext for Org {
    fn user_by_name(&self, full_name: &str) -> Option<(i64, String)> {
        self.users
            .values()
            .find(|u| u.is_active && u.full_name.eq_ignore_ascii_case(full_name))
            .map(|u| (u.id, u.full_name.clone()))
    }
    fn user_by_id(&self, id: i64) -> Option<String> {
        self.users.get(&id).map(|u| u.full_name.clone())
    }
    fn group_by_name(&self, name: &str) -> Option<(i64, String)> {
        self.groups
            .values()
            .find(|g| !g.is_system && !g.deactivated && g.name.eq_ignore_ascii_case(name))
            .map(|g| (g.id, g.name.clone()))
    }
    fn channel_by_name(&self, name: &str) -> Option<(i64, String)> {
        self.channel_named(name).map(|c| (c.id, c.name.clone()))
    }
    fn realm_emoji(&self, name: &str) -> Option<(String, String)> {
        self.realm_emoji
            .iter()
            .find(|(_, (n, _))| n == name)
            .map(|(id, _)| (id.to_string(), format!("/user_avatars/1/emoji/images/{id}.png")))
    }
}

impl Org {
    /// Build the organization from a seed, with times relative to `start`.
    pub fn from_seed(seed: &Seed, settings: Settings, start: i64) -> Result<Org, String> {
        let r = &seed.realm;
        let mut org = Org {
            settings,
            realm: RealmRec {
                name: r.name.clone(),
                string_id: r.string_id.clone(),
                email_domain: r.email_domain.clone(),
                empty_topic_display_name: r.empty_topic_display_name.clone(),
                moderation_request_channel_id: None,
                allow_edit_history: r.allow_edit_history,
                max_message_length: r.max_message_length,
                max_topic_length: r.max_topic_length,
                date_created: start - 400 * 86400,
            },
            users: BTreeMap::new(),
            channels: BTreeMap::new(),
            folders: BTreeMap::new(),
            groups: BTreeMap::new(),
            messages: BTreeMap::new(),
            user_msgs: HashMap::new(),
            user_topics: BTreeMap::new(),
            presence: HashMap::new(),
            presence_counter: 0,
            nav_views: HashMap::new(),
            scheduled: BTreeMap::new(),
            playgrounds: Vec::new(),
            realm_emoji: BTreeMap::new(),
            apns_tokens: Vec::new(),
            drafts: HashMap::new(),
            drafts_sync_off: HashSet::new(),
            dm_recipient_ids: HashMap::new(),
            queues: Queues::default(),
            webhook_jobs: Vec::new(),
            next_id: 1,
            notification_bot: 0,
            email_gateway_bot: 0,
        };
        for name in SYSTEM_GROUPS {
            let id = org.alloc();
            org.groups.insert(
                id,
                GroupRec {
                    id,
                    name: (*name).into(),
                    description: String::new(),
                    members: BTreeSet::new(),
                    subgroups: BTreeSet::new(),
                    is_system: true,
                    deactivated: false,
                    creator_id: None,
                    date_created: org.realm.date_created,
                },
            );
        }
        let mut by_short: HashMap<String, i64> = HashMap::new();
        for (i, u) in seed.users.iter().enumerate() {
            let id = 8 + i as i64;
            if by_short.insert(u.short_name.clone(), id).is_some() {
                return Err(format!("duplicate user {}", u.short_name));
            }
            let status = u.status.as_ref().map(|s| UserStatus {
                status_text: s.status_text.clone(),
                emoji_name: s.emoji_name.clone(),
                emoji_code: s.emoji_code.clone(),
                reaction_type: s.reaction_type.clone(),
                away: None,
            });
            org.users.insert(
                id,
                UserRec {
                    id,
                    short_name: u.short_name.clone(),
                    email: format!("{}@{}", u.short_name, r.email_domain),
                    full_name: u.full_name.clone(),
                    role: u.role.into(),
                    bot_type: u.bot_type,
                    bot_owner: None,
                    is_active: true,
                    api_key: token(32),
                    presence_enabled: u.presence_enabled,
                    timezone: u.timezone.clone(),
                    date_joined: org.realm.date_created + i as i64 * 3600,
                    webhook_token: (u.bot_type == Some(3)).then(|| token(32)),
                    is_system_bot: false,
                    status: status.unwrap_or_default(),
                    avatar_removed: false,
                },
            );
        }
        org.next_id = org.next_id.max(8 + seed.users.len() as i64);
        let lookup =
            |m: &HashMap<String, i64>, s: &str| m.get(s).copied().ok_or_else(|| format!("unknown user {s}"));
        for u in &seed.users {
            if let Some(owner) = &u.owner {
                let oid = lookup(&by_short, owner)?;
                let id = by_short[&u.short_name];
                if let Some(rec) = org.users.get_mut(&id) {
                    rec.bot_owner = Some(oid);
                }
            }
        }
        org.notification_bot = org.add_system_bot("notification-bot", "Notification Bot");
        org.email_gateway_bot = org.add_system_bot("emailgateway", "Email Gateway");
        org.refresh_system_groups();

        for f in &seed.channel_folders {
            let id = org.alloc();
            org.folders.insert(id, (f.name.clone(), f.description.clone()));
        }
        let admins_group = org.system_group("role:administrators");
        let groups_first_id = org.next_id;
        // Groups first (channels may name one), in file order.
        let mut group_ids: HashMap<String, i64> = HashMap::new();
        for g in &seed.user_groups {
            let id = org.alloc();
            let mut members = BTreeSet::new();
            for m in &g.members {
                members.insert(lookup(&by_short, m)?);
            }
            let mut subgroups = BTreeSet::new();
            for s in &g.subgroups {
                subgroups.insert(*group_ids.get(s).ok_or_else(|| format!("unknown subgroup {s}"))?);
            }
            group_ids.insert(g.name.clone(), id);
            org.groups.insert(
                id,
                GroupRec {
                    id,
                    name: g.name.clone(),
                    description: g.description.clone(),
                    members,
                    subgroups,
                    is_system: false,
                    deactivated: false,
                    creator_id: None,
                    date_created: start - 300 * 86400,
                },
            );
        }
        debug_assert!(groups_first_id <= org.next_id);
        for (i, c) in seed.channels.iter().enumerate() {
            let id = org.alloc();
            let folder_id = match &c.folder {
                Some(f) => Some(
                    *org.folders
                        .iter()
                        .find(|(_, (n, _))| n == f)
                        .ok_or_else(|| format!("unknown folder {f}"))?
                        .0,
                ),
                None => None,
            };
            let mut subs = BTreeMap::new();
            let everyone: Vec<String> = if c.subscribers.iter().any(|s| s == "*") {
                seed.users.iter().map(|u| u.short_name.clone()).collect()
            } else {
                c.subscribers.clone()
            };
            for s in &everyone {
                let uid = lookup(&by_short, s)?;
                subs.insert(
                    uid,
                    SubRec {
                        color: c.color.clone().unwrap_or_else(|| COLORS[i % COLORS.len()].into()),
                        pin_to_top: c.pinned_by.contains(s),
                        is_muted: c.muted_by.contains(s),
                        desktop_notifications: None,
                        email_notifications: None,
                        wildcard_mentions_notify: None,
                        push_notifications: None,
                        audible_notifications: None,
                        first_visible: 0,
                    },
                );
            }
            let can_remove_group = match &c.can_remove_subscribers_group {
                Some(g) => *group_ids.get(g).ok_or_else(|| format!("unknown group {g}"))?,
                None => admins_group,
            };
            let creator_id = match &c.creator {
                Some(s) => Some(lookup(&by_short, s)?),
                None => None,
            };
            let rendered_description = markdown::render(&c.description, &org).html;
            org.channels.insert(
                id,
                ChannelRec {
                    id,
                    name: c.name.clone(),
                    description: c.description.clone(),
                    rendered_description,
                    invite_only: c.invite_only,
                    history_public: c.history_public_to_subscribers,
                    is_web_public: false,
                    folder_id,
                    admins_only_post: c.posting == seed::SeedPosting::Admins,
                    subs,
                    date_created: start - c.created_days_ago as i64 * 86400,
                    creator_id,
                    can_remove_group,
                    is_archived: false,
                    email_token: token(12).to_lowercase(),
                },
            );
        }
        if let Some(name) = &r.moderation_request_channel {
            let id = org.channel_named(name).ok_or_else(|| format!("unknown channel {name}"))?.id;
            org.realm.moderation_request_channel_id = Some(id);
        }
        for e in &seed.custom_emoji {
            let id = org.alloc();
            org.realm_emoji.insert(id, (e.name.clone(), lookup(&by_short, &e.author)?));
        }
        // Statuses naming a custom emoji get its ID as the code.
        let emoji_ids: HashMap<String, i64> =
            org.realm_emoji.iter().map(|(id, (n, _))| (n.clone(), *id)).collect();
        for u in org.users.values_mut() {
            let st = &mut u.status;
            if st.reaction_type == "realm_emoji" && st.emoji_code.is_empty() {
                let id = emoji_ids
                    .get(&st.emoji_name)
                    .ok_or_else(|| format!("unknown custom emoji {}", st.emoji_name))?;
                st.emoji_code = id.to_string();
            } else if st.reaction_type == "unicode_emoji" && st.emoji_code.is_empty() {
                st.emoji_code = emoji::unicode_code(&st.emoji_name).unwrap_or_default();
            }
        }
        // Messages. IDs follow file order, which is time order.
        for m in &seed.messages {
            let sender = lookup(&by_short, &m.sender)?;
            let ts = start - m.minutes_ago as i64 * 60;
            let recip = match (&m.channel, &m.to) {
                (Some(c), None) => {
                    let cid = org.channel_named(c).ok_or_else(|| format!("unknown channel {c}"))?.id;
                    Recip::Channel { id: cid, topic: m.topic.clone().unwrap_or_default() }
                }
                (None, Some(to)) => {
                    let mut users = vec![sender];
                    for t in to {
                        users.push(lookup(&by_short, t)?);
                    }
                    users.sort_unstable();
                    users.dedup();
                    Recip::Dm { users }
                }
                _ => return Err(format!("message needs a channel or a recipient list: {:?}", m.content)),
            };
            let client = m.client.clone().unwrap_or_else(|| "website".into());
            let id = org.insert_message(sender, recip, &m.content, ts, &client, None);
            let recipients: Vec<i64> =
                org.user_msgs.iter().filter(|(_, ms)| ms.contains_key(&id)).map(|(u, _)| *u).collect();
            for uid in recipients {
                let unread = m.unread_for.iter().any(|s| by_short.get(s) == Some(&uid));
                let starred = m.starred_by.iter().any(|s| by_short.get(s) == Some(&uid));
                if let Some(f) = org.user_msgs.get_mut(&uid).and_then(|ms| ms.get_mut(&id)) {
                    f.read = !unread;
                    f.starred = starred;
                }
            }
            for r in &m.reactions {
                let uid = lookup(&by_short, &r.user)?;
                let rt =
                    ReactionType::from(r.reaction_type.clone().unwrap_or_else(|| "unicode_emoji".into()));
                let code = match (&r.emoji_code, &rt) {
                    (Some(c), _) => c.clone(),
                    (None, ReactionType::UnicodeEmoji) => emoji::unicode_code(&r.emoji_name)
                        .ok_or_else(|| format!("unknown emoji {}", r.emoji_name))?,
                    (None, ReactionType::RealmEmoji) => org
                        .realm_emoji
                        .iter()
                        .find(|(_, (n, _))| *n == r.emoji_name)
                        .map(|(id, _)| id.to_string())
                        .ok_or_else(|| format!("unknown custom emoji {}", r.emoji_name))?,
                    (None, _) => r.emoji_name.clone(),
                };
                if let Some(msg) = org.messages.get_mut(&id) {
                    msg.reactions.push(Reaction {
                        emoji_name: r.emoji_name.clone(),
                        emoji_code: code,
                        reaction_type: rt,
                        user_id: uid,
                    });
                }
            }
            for e in &m.edits {
                let by = lookup(&by_short, &e.by)?;
                let new_channel = match &e.channel {
                    Some(c) => Some(org.channel_named(c).ok_or_else(|| format!("unknown channel {c}"))?.id),
                    None => None,
                };
                org.apply_edit(
                    id,
                    by,
                    ts + e.minutes_later as i64 * 60,
                    e.content.as_deref(),
                    e.topic.as_deref(),
                    new_channel,
                    false,
                );
            }
        }
        for t in &seed.user_topics {
            let uid = lookup(&by_short, &t.user)?;
            let cid =
                org.channel_named(&t.channel).ok_or_else(|| format!("unknown channel {}", t.channel))?.id;
            let policy = match t.policy {
                seed::SeedPolicy::Muted => 1,
                seed::SeedPolicy::Unmuted => 2,
                seed::SeedPolicy::Followed => 3,
            };
            org.user_topics
                .insert((uid, cid, t.topic.to_lowercase()), (t.topic.clone(), policy, start - 3600));
        }
        let humans: Vec<i64> = org.users.values().filter(|u| !u.is_system_bot).map(|u| u.id).collect();
        for uid in humans {
            let views = BUILTIN_VIEWS
                .iter()
                .map(|f| NavViewRec { fragment: (*f).into(), name: None, is_pinned: true, builtin: true })
                .collect();
            org.nav_views.insert(uid, views);
        }
        for v in &seed.navigation_views {
            let uid = lookup(&by_short, &v.user)?;
            let views = org.nav_views.entry(uid).or_default();
            if let Some(existing) = views.iter_mut().find(|x| x.fragment == v.fragment) {
                existing.is_pinned = v.is_pinned;
            } else {
                views.push(NavViewRec {
                    fragment: v.fragment.clone(),
                    name: v.name.clone(),
                    is_pinned: v.is_pinned,
                    builtin: false,
                });
            }
        }
        for s in &seed.scheduled_messages {
            let sender = lookup(&by_short, &s.sender)?;
            let id = org.alloc();
            let (is_channel, channel_id, user_ids) = match (&s.channel, &s.to) {
                (Some(c), _) => {
                    (true, org.channel_named(c).ok_or_else(|| format!("unknown channel {c}"))?.id, vec![])
                }
                (None, Some(to)) => {
                    let mut ids = Vec::new();
                    for t in to {
                        ids.push(lookup(&by_short, t)?);
                    }
                    (false, 0, ids)
                }
                (None, None) => return Err("scheduled message needs a channel or recipients".into()),
            };
            org.scheduled.insert(
                id,
                ScheduledRec {
                    id,
                    sender_id: sender,
                    is_channel,
                    channel_id,
                    user_ids,
                    topic: s.topic.clone().unwrap_or_default(),
                    content: s.content.clone(),
                    deliver_at: start + s.minutes_from_now * 60,
                    failed: s.failed,
                    read_by_sender: None,
                },
            );
        }
        for p in &seed.presence {
            let uid = lookup(&by_short, &p.user)?;
            let at = start - p.seconds_ago as i64;
            org.presence_counter += 1;
            let rec = PresenceRec {
                active_ts: if p.status == seed::SeedPresenceStatus::Active { at } else { at - 600 },
                idle_ts: at,
                update_id: org.presence_counter,
            };
            org.presence.insert(uid, rec);
        }
        for p in &seed.playgrounds {
            let id = org.alloc();
            org.playgrounds.push(PlaygroundRec {
                id,
                name: p.name.clone(),
                pygments_language: p.pygments_language.clone(),
                url_template: p.url_template.clone(),
            });
        }
        Ok(org)
    }

    /// The server's clock (the real one, shifted by `clock_offset`).
    pub fn now(&self) -> i64 {
        now() + self.settings.clock_offset
    }

    pub fn now_f64(&self) -> f64 {
        now_f64() + self.settings.clock_offset as f64
    }

    /// A fresh ID for anything but messages.
    pub fn alloc(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn add_system_bot(&mut self, short: &str, full: &str) -> i64 {
        let id = 1000 + self.users.len() as i64;
        self.users.insert(
            id,
            UserRec {
                id,
                short_name: short.into(),
                email: format!("{short}@{}", self.realm.email_domain),
                full_name: full.into(),
                role: Role::Member,
                bot_type: Some(1),
                bot_owner: None,
                is_active: true,
                api_key: token(32),
                presence_enabled: false,
                timezone: "UTC".into(),
                date_joined: self.realm.date_created,
                webhook_token: None,
                is_system_bot: true,
                status: UserStatus::default(),
                avatar_removed: false,
            },
        );
        id
    }

    pub fn system_group(&self, name: &str) -> i64 {
        self.groups.values().find(|g| g.is_system && g.name == name).map(|g| g.id).unwrap_or(0)
    }

    /// Recompute the role groups' members from users' roles.
    pub fn refresh_system_groups(&mut self) {
        let users: Vec<(i64, Role, bool)> = self
            .users
            .values()
            .filter(|u| u.is_active && !u.is_system_bot)
            .map(|u| (u.id, u.role, u.is_bot()))
            .collect();
        for g in self.groups.values_mut().filter(|g| g.is_system) {
            let max_role = match g.name.as_str() {
                "role:owners" => Some(Role::Owner),
                "role:administrators" => Some(Role::Admin),
                "role:moderators" => Some(Role::Moderator),
                "role:fullmembers" | "role:members" => Some(Role::Member),
                "role:everyone" | "role:internet" => Some(Role::Guest),
                _ => None,
            };
            g.members = match max_role {
                Some(max) => users.iter().filter(|(_, r, _)| *r <= max).map(|(id, _, _)| *id).collect(),
                None => BTreeSet::new(),
            };
        }
    }

    pub fn channel_named(&self, name: &str) -> Option<&ChannelRec> {
        self.channels.values().find(|c| c.name.eq_ignore_ascii_case(name))
    }

    pub fn user(&self, id: i64) -> ApiResult<&UserRec> {
        self.users.get(&id).ok_or_else(|| ApiErr::bad(format!("Invalid user ID: {id}")))
    }

    pub fn active_user(&self, id: i64) -> ApiResult<&UserRec> {
        self.users
            .get(&id)
            .filter(|u| u.is_active)
            .ok_or_else(|| ApiErr::bad(format!("Invalid user ID: {id}")))
    }

    pub fn user_by_email(&self, email: &str) -> Option<&UserRec> {
        self.users.values().find(|u| u.email.eq_ignore_ascii_case(email))
    }

    /// Whether a user is in a group, directly or through subgroups.
    pub fn in_group(&self, group_id: i64, user_id: i64) -> bool {
        let mut stack = vec![group_id];
        let mut seen = BTreeSet::new();
        while let Some(g) = stack.pop() {
            if !seen.insert(g) {
                continue;
            }
            if let Some(rec) = self.groups.get(&g) {
                if rec.members.contains(&user_id) {
                    return true;
                }
                stack.extend(rec.subgroups.iter().copied());
            }
        }
        false
    }

    pub fn is_subscribed(&self, user_id: i64, channel_id: i64) -> bool {
        self.channels.get(&channel_id).is_some_and(|c| c.subs.contains_key(&user_id))
    }

    /// Can the user see that the channel exists and read its metadata?
    pub fn can_access_channel(&self, user_id: i64, channel_id: i64) -> bool {
        let Some(c) = self.channels.get(&channel_id) else { return false };
        let Some(u) = self.users.get(&user_id) else { return false };
        c.subs.contains_key(&user_id) || (!c.invite_only && u.role != Role::Guest)
    }

    /// The channel, if the user can access it; otherwise the contract's BAD_REQUEST.
    pub fn accessible_channel(&self, user_id: i64, channel_id: i64) -> ApiResult<&ChannelRec> {
        if self.can_access_channel(user_id, channel_id) {
            self.channels.get(&channel_id).ok_or_else(|| ApiErr::bad("Invalid channel ID"))
        } else {
            Err(ApiErr::bad("Invalid channel ID"))
        }
    }

    /// Why the user may not post in the channel, if they may not.
    pub fn post_denied(&self, user_id: i64, channel_id: i64) -> Option<String> {
        let c = self.channels.get(&channel_id)?;
        let u = self.users.get(&user_id)?;
        if c.is_archived {
            return Some(format!("Channel '{}' is archived.", c.name));
        }
        if u.is_system_bot {
            return None;
        }
        if !self.can_access_channel(user_id, channel_id) || (c.invite_only && !c.subs.contains_key(&user_id))
        {
            return Some("Not authorized to send to channel".into());
        }
        if c.admins_only_post && !u.is_admin() {
            // Bots post with their owner's rights.
            let owner_admin = u.bot_owner.and_then(|o| self.users.get(&o)).is_some_and(UserRec::is_admin);
            if !owner_admin {
                return Some(format!("You do not have permission to post in channel '{}'.", c.name));
            }
        }
        None
    }

    /// Can the user read this message?
    pub fn can_read(&self, user_id: i64, msg: &MessageRec) -> bool {
        if self.user_msgs.get(&user_id).is_some_and(|m| m.contains_key(&msg.id)) {
            return true;
        }
        match &msg.recip {
            Recip::Dm { users } => users.contains(&user_id),
            Recip::Channel { id, .. } => {
                let Some(c) = self.channels.get(id) else { return false };
                if let Some(sub) = c.subs.get(&user_id) {
                    return c.history_public || msg.id >= sub.first_visible;
                }
                !c.invite_only && self.users.get(&user_id).is_some_and(|u| u.role != Role::Guest)
            }
        }
    }

    /// Users who receive a message: subscribers, or DM participants.
    pub fn recipients(&self, recip: &Recip) -> Vec<i64> {
        match recip {
            Recip::Channel { id, .. } => {
                self.channels.get(id).map(|c| c.subs.keys().copied().collect()).unwrap_or_default()
            }
            Recip::Dm { users } => users.clone(),
        }
    }

    pub fn recipient_id(&mut self, recip: &Recip) -> i64 {
        match recip {
            Recip::Channel { id, .. } => 100_000 + id,
            Recip::Dm { users } => {
                let next = 200_000 + self.dm_recipient_ids.len() as i64;
                *self.dm_recipient_ids.entry(users.clone()).or_insert(next)
            }
        }
    }

    /// Store a message (no checks, no events); the sender has read it.
    pub fn insert_message(
        &mut self,
        sender: i64,
        recip: Recip,
        content: &str,
        ts: i64,
        client: &str,
        read_by_sender: Option<bool>,
    ) -> i64 {
        let id = self.messages.keys().next_back().map_or(100, |k| k + 1).max(100);
        let rendered = markdown::render(content, self);
        let mut wildcard_users = Vec::new();
        if rendered.wildcard_mention {
            wildcard_users = self.recipients(&recip);
        }
        let mut mentioned: BTreeSet<i64> = rendered.mentioned_user_ids.iter().copied().collect();
        for g in &rendered.mentioned_group_ids {
            for u in self.users.keys() {
                if self.in_group(*g, *u) {
                    mentioned.insert(*u);
                }
            }
        }
        let is_me = content.starts_with("/me ");
        self.recipient_id(&recip);
        for uid in self.recipients(&recip) {
            let flags = Flags {
                read: uid == sender && read_by_sender.unwrap_or(true),
                starred: false,
                mentioned: mentioned.contains(&uid),
                wildcard_mentioned: wildcard_users.contains(&uid),
                collapsed: false,
            };
            self.user_msgs.entry(uid).or_default().insert(id, flags);
        }
        self.messages.insert(
            id,
            MessageRec {
                id,
                sender_id: sender,
                recip,
                content: content.to_owned(),
                rendered,
                timestamp: ts,
                client: client.to_owned(),
                is_me,
                reactions: Vec::new(),
                edits: Vec::new(),
                last_edit_ts: None,
                last_moved_ts: None,
            },
        );
        id
    }

    /// Change one message's content, topic and/or channel, recording edit history.
    #[allow(clippy::too_many_arguments)]
    pub fn apply_edit(
        &mut self,
        id: i64,
        by: i64,
        ts: i64,
        content: Option<&str>,
        topic: Option<&str>,
        channel: Option<i64>,
        _notify: bool,
    ) {
        let rendered = content.map(|c| markdown::render(c, self));
        let new_subs: Option<Vec<i64>> = channel
            .map(|c| self.channels.get(&c).map(|ch| ch.subs.keys().copied().collect()).unwrap_or_default());
        let Some(msg) = self.messages.get_mut(&id) else { return };
        let mut e = EditRec { user_id: by, timestamp: ts, ..Default::default() };
        if let (Some(c), Some(r)) = (content, rendered)
            && c != msg.content
        {
            e.prev_content = Some(std::mem::replace(&mut msg.content, c.to_owned()));
            e.prev_rendered = Some(std::mem::replace(&mut msg.rendered.html, r.html.clone()));
            e.content = Some(c.to_owned());
            e.rendered = Some(r.html.clone());
            let html = r.html.clone();
            msg.rendered = r;
            msg.rendered.html = html;
            msg.is_me = c.starts_with("/me ");
            msg.last_edit_ts = Some(ts);
        }
        let mut moved = false;
        if let Recip::Channel { id: cid, topic: t } = &mut msg.recip {
            if let Some(nt) = topic
                && nt != t
            {
                let old = std::mem::replace(t, nt.to_owned());
                // Resolving or unresolving alone is not a move.
                if strip_resolved(&old) != strip_resolved(nt) {
                    moved = true;
                }
                e.prev_topic = Some(old);
                e.topic = Some(nt.to_owned());
            }
            if let Some(nc) = channel
                && nc != *cid
            {
                e.prev_stream = Some(*cid);
                e.stream = Some(nc);
                *cid = nc;
                moved = true;
            }
        }
        if moved {
            msg.last_moved_ts = Some(ts);
        }
        let changed = e.content.is_some() || e.topic.is_some() || e.stream.is_some();
        if changed {
            msg.edits.push(e);
        }
        if let Some(subs) = new_subs {
            for uid in subs {
                self.user_msgs
                    .entry(uid)
                    .or_default()
                    .entry(id)
                    .or_insert(Flags { read: true, ..Default::default() });
            }
        }
    }

    /// The viewer's flags on a message (`read` + `historical` without a personal copy).
    pub fn flags_for(&self, viewer: i64, id: i64) -> Vec<&'static str> {
        match self.user_msgs.get(&viewer).and_then(|m| m.get(&id)) {
            Some(f) => f.names(),
            None => vec!["read", "historical"],
        }
    }

    /// Display form of a topic for a client that may not know the empty topic.
    pub fn topic_out(&self, topic: &str, allow_empty: bool) -> String {
        if topic.is_empty() && !allow_empty {
            self.realm.empty_topic_display_name.clone()
        } else {
            topic.to_owned()
        }
    }

    /// A topic given by a client: `(no topic)` and the empty-topic display name mean "".
    pub fn topic_in(&self, topic: &str) -> String {
        let t = topic.trim();
        if t == "(no topic)" || t == self.realm.empty_topic_display_name {
            String::new()
        } else {
            t.to_owned()
        }
    }

    /// A message as the viewer sees it.
    pub fn message_json(
        &self,
        msg: &MessageRec,
        viewer: i64,
        apply_markdown: bool,
        allow_empty_topic: bool,
    ) -> Value {
        let sender = self.users.get(&msg.sender_id);
        let (kind, display_recipient, stream_id) = match &msg.recip {
            Recip::Channel { id, .. } => {
                let name = self.channels.get(id).map(|c| c.name.clone()).unwrap_or_default();
                ("stream", json!(name), Some(*id))
            }
            Recip::Dm { users } => {
                let list: Vec<Value> = users
                    .iter()
                    .filter_map(|u| self.users.get(u))
                    .map(|u| json!({"id": u.id, "email": u.email, "full_name": u.full_name, "is_mirror_dummy": false}))
                    .collect();
                ("private", json!(list), None)
            }
        };
        let recipient_id = match &msg.recip {
            Recip::Channel { id, .. } => 100_000 + id,
            Recip::Dm { users } => self.dm_recipient_ids.get(users).copied().unwrap_or(0),
        };
        let mut v = json!({
            "id": msg.id,
            "type": kind,
            "avatar_url": null,
            "client": msg.client,
            "content": if apply_markdown { &msg.rendered.html } else { &msg.content },
            "content_type": if apply_markdown { "text/html" } else { "text/x-markdown" },
            "display_recipient": display_recipient,
            "is_me_message": msg.is_me,
            "reactions": msg.reactions,
            "recipient_id": recipient_id,
            "sender_email": sender.map(|s| s.email.clone()).unwrap_or_default(),
            "sender_full_name": sender.map(|s| s.full_name.clone()).unwrap_or_default(),
            "sender_id": msg.sender_id,
            "sender_realm_str": self.realm.string_id,
            "subject": self.topic_out(msg.topic(), allow_empty_topic || kind == "private"),
            "submessages": [],
            "timestamp": msg.timestamp,
            "topic_links": [],
            "flags": self.flags_for(viewer, msg.id),
        });
        if let Some(obj) = v.as_object_mut() {
            if let Some(sid) = stream_id {
                obj.insert("stream_id".into(), json!(sid));
            }
            if let Some(t) = msg.last_edit_ts {
                obj.insert("last_edit_timestamp".into(), json!(t));
            }
            if let Some(t) = msg.last_moved_ts {
                obj.insert("last_moved_timestamp".into(), json!(t));
            }
            if !msg.edits.is_empty() && self.realm.allow_edit_history {
                let hist: Vec<Value> =
                    msg.edits.iter().rev().map(|e| self.edit_entry_json(e, allow_empty_topic)).collect();
                obj.insert("edit_history".into(), json!(hist));
            }
        }
        v
    }

    fn edit_entry_json(&self, e: &EditRec, allow_empty: bool) -> Value {
        let mut o = serde_json::Map::new();
        o.insert("user_id".into(), json!(e.user_id));
        o.insert("timestamp".into(), json!(e.timestamp));
        if let Some(p) = &e.prev_content {
            o.insert("prev_content".into(), json!(p));
            o.insert("prev_rendered_content".into(), json!(e.prev_rendered));
        }
        if let (Some(p), Some(s)) = (e.prev_stream, e.stream) {
            o.insert("prev_stream".into(), json!(p));
            o.insert("stream".into(), json!(s));
        }
        if let (Some(p), Some(t)) = (&e.prev_topic, &e.topic) {
            o.insert("prev_topic".into(), json!(self.topic_out(p, allow_empty)));
            o.insert("topic".into(), json!(self.topic_out(t, allow_empty)));
        }
        Value::Object(o)
    }

    /// Unread counts etc. for `register`'s `unread_msgs`.
    pub fn unread_msgs(&self, user_id: i64, allow_empty_topic: bool) -> Value {
        let mut streams: BTreeMap<(i64, String), Vec<i64>> = BTreeMap::new();
        let mut dms: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        let mut huddles: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let mut mentions = Vec::new();
        let mut count = 0;
        if let Some(ms) = self.user_msgs.get(&user_id) {
            for (id, f) in ms.iter().filter(|(_, f)| !f.read) {
                let Some(m) = self.messages.get(id) else { continue };
                count += 1;
                if f.mentioned || f.wildcard_mentioned {
                    mentions.push(*id);
                }
                match &m.recip {
                    Recip::Channel { id: cid, topic } => {
                        streams.entry((*cid, self.topic_out(topic, allow_empty_topic))).or_default().push(*id)
                    }
                    Recip::Dm { users } if users.len() <= 2 => {
                        let other = users.iter().copied().find(|u| *u != user_id).unwrap_or(user_id);
                        dms.entry(other).or_default().push(*id)
                    }
                    Recip::Dm { users } => huddles
                        .entry(users.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
                        .or_default()
                        .push(*id),
                }
            }
        }
        json!({
            "count": count,
            "pms": dms.iter().map(|(u, ids)| json!({"other_user_id": u, "sender_id": u, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "dms": dms.iter().map(|(u, ids)| json!({"other_user_id": u, "sender_id": u, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "streams": streams.iter().map(|((c, t), ids)| json!({"stream_id": c, "topic": t, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "huddles": huddles.iter().map(|(k, ids)| json!({"user_ids_string": k, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "mentions": mentions,
            "old_unreads_missing": false,
        })
    }

    pub fn user_json(&self, u: &UserRec) -> Value {
        json!({
            "user_id": u.id,
            "email": u.email,
            "delivery_email": null,
            "full_name": u.full_name,
            "is_active": u.is_active,
            "is_bot": u.is_bot(),
            "bot_type": u.bot_type,
            "bot_owner_id": u.bot_owner,
            "is_admin": u.is_admin(),
            "is_owner": u.role == Role::Owner,
            "is_guest": u.role == Role::Guest,
            "role": u.role as i64,
            "timezone": u.timezone,
            "avatar_url": if u.avatar_removed { json!(null) } else { json!(format!("/avatar/{}", u.id)) },
            "avatar_version": 1,
            "date_joined": chrono::DateTime::from_timestamp(u.date_joined, 0).map(|d| d.to_rfc3339()).unwrap_or_default(),
            "presence_enabled": u.presence_enabled,
            "profile_data": {},
        })
    }

    /// The topic visibility policy of a user for a topic (0 = none).
    pub fn topic_policy(&self, user_id: i64, channel_id: i64, topic: &str) -> i64 {
        self.user_topics.get(&(user_id, channel_id, topic.to_lowercase())).map_or(0, |(_, p, _)| *p)
    }

    /// Queue an outgoing-webhook payload for every webhook bot the message triggers.
    pub fn trigger_webhooks(&mut self, msg_id: i64) {
        let Some(url) = self.settings.outgoing_webhook_url.clone() else { return };
        let Some(msg) = self.messages.get(&msg_id).cloned() else { return };
        let bots: Vec<UserRec> = self
            .users
            .values()
            .filter(|u| u.bot_type == Some(3) && u.is_active && u.id != msg.sender_id)
            .cloned()
            .collect();
        for bot in bots {
            let trigger = match &msg.recip {
                Recip::Dm { users } if users.contains(&bot.id) => "direct_message",
                Recip::Channel { .. } if msg.rendered.mentioned_user_ids.contains(&bot.id) => "mention",
                _ => continue,
            };
            let mut m = self.message_json(&msg, bot.id, false, true);
            if let Some(obj) = m.as_object_mut() {
                obj.insert("rendered_content".into(), json!(msg.rendered.html));
            }
            let payload = json!({
                "bot_email": bot.email,
                "bot_full_name": bot.full_name,
                "data": msg.content,
                "trigger": trigger,
                "token": bot.webhook_token,
                "message": m,
            });
            self.webhook_jobs.push(WebhookJob { url: url.clone(), bot_id: bot.id, payload });
        }
    }
}

/// A topic name without the resolved-topic prefix.
pub fn strip_resolved(topic: &str) -> &str {
    topic.strip_prefix("✔ ").unwrap_or(topic)
}
