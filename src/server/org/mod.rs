//! The in-memory organization: users, channels, messages, and every per-user record, plus the
//! rules shared by several operations (access, posting, sending, editing, event fan-out).

use super::clock::{now, now_f64};
use super::emoji;
use super::error::{ApiErr, ApiResult};
use super::events::Queues;
use super::markdown::{self, RenderContext};
use super::seed::{self, Seed};
use super::token::token;
use crate::api::models::{Reaction, ReactionType, UserStatus};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

mod access;
mod json;
mod records;
mod store;
mod webhooks;

pub use records::*;

/// The feature level the demo server reports unless told otherwise.
pub const FEATURE_LEVEL: i64 = 496;
/// The version string it reports.
pub const VERSION: &str = "11.0-topicterm-demo";
/// Anchor returned for `newest` (as the reference server does).
pub const LARGER_THAN_MAX_MESSAGE_ID: i64 = 10_000_000_000_000_000;
/// Password of every seeded human, for `fetch_api_key`.
pub const DEMO_PASSWORD: &str = "topicterm-demo";

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

    /// A topic given by a client: `(no topic)` and the empty-topic display name mean "".
    pub fn topic_in(&self, topic: &str) -> String {
        let t = topic.trim();
        if t == "(no topic)" || t == self.realm.empty_topic_display_name {
            String::new()
        } else {
            t.to_owned()
        }
    }

    /// The topic visibility policy of a user for a topic (0 = none).
    pub fn topic_policy(&self, user_id: i64, channel_id: i64, topic: &str) -> i64 {
        self.user_topics.get(&(user_id, channel_id, topic.to_lowercase())).map_or(0, |(_, p, _)| *p)
    }
}

/// A topic name without the resolved-topic prefix.
pub fn strip_resolved(topic: &str) -> &str {
    topic.strip_prefix("✔ ").unwrap_or(topic)
}
