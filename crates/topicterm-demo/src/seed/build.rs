//! Building the organization from a [`Seed`]: one step per part of the file, in the order
//! later parts refer to earlier ones (users, then groups, channels, emoji, messages, and the
//! per-user records). IDs are assigned in file order; times count back from `start`.

use super::{
    Seed, SeedChannel, SeedMessage, SeedPolicy, SeedPosting, SeedPresenceStatus, SeedRole, SeedUser,
};
use crate::emoji;
use crate::markdown;
use crate::org::{
    BUILTIN_VIEWS, ChannelRec, GroupRec, GroupSetting, NavViewRec, Org, PlaygroundRec, PresenceRec,
    ProfileFieldRec, Reaction, ReactionType, RealmRec, Recip, Role, ScheduledRec, Settings, SubRec, UserRec,
    UserStatus,
};
use crate::token::token;
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// Channel colours, handed out in turn to channels whose seed names none.
const COLORS: &[&str] =
    &["#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5"];

impl From<SeedRole> for Role {
    fn from(r: SeedRole) -> Self {
        match r {
            SeedRole::Owner => Role::Owner,
            SeedRole::Admin => Role::Admin,
            SeedRole::Moderator => Role::Moderator,
            SeedRole::Member => Role::Member,
            SeedRole::Guest => Role::Guest,
        }
    }
}

impl Org {
    /// Build the organization from a seed, with times relative to `start`.
    pub fn from_seed(seed: &Seed, settings: Settings, start: i64) -> Result<Org, String> {
        let mut b =
            Builder { seed, start, org: Org::new(settings, realm(seed, start)), users: HashMap::new() };
        b.system_groups();
        b.users()?;
        b.folders();
        let groups = b.groups()?;
        b.channels(&groups)?;
        b.moderation_channel()?;
        b.custom_emoji()?;
        b.status_emoji()?;
        // Messages. IDs follow file order, which is time order.
        for m in &seed.messages {
            b.message(m)?;
        }
        b.user_topics()?;
        b.navigation_views()?;
        b.scheduled_messages()?;
        b.presence()?;
        b.playgrounds();
        b.profile_fields()?;
        Ok(b.org)
    }
}

fn realm(seed: &Seed, start: i64) -> RealmRec {
    let r = &seed.realm;
    RealmRec {
        name: r.name.clone(),
        string_id: r.string_id.clone(),
        email_domain: r.email_domain.clone(),
        empty_topic_display_name: r.empty_topic_display_name.clone(),
        moderation_request_channel_id: None,
        allow_edit_history: r.allow_edit_history,
        max_message_length: r.max_message_length,
        max_topic_length: r.max_topic_length,
        date_created: start - 400 * 86400,
        delete_own_limit_secs: Some(600),
        description: None,
        rules: Default::default(),
    }
}

/// The organization under construction, and the names the seed refers to things by.
struct Builder<'s> {
    seed: &'s Seed,
    start: i64,
    org: Org,
    /// short name → user ID.
    users: HashMap<String, i64>,
}

impl Builder<'_> {
    fn user(&self, short_name: &str) -> Result<i64, String> {
        self.users.get(short_name).copied().ok_or_else(|| format!("unknown user {short_name}"))
    }

    fn channel(&self, name: &str) -> Result<i64, String> {
        Ok(self.org.channel_named(name).ok_or_else(|| format!("unknown channel {name}"))?.id)
    }

    fn system_groups(&mut self) {
        let org = &mut self.org;
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
    }

    /// Humans and bots (IDs 8.. in file order), bot owners, the system bots, and the role
    /// groups' members.
    fn users(&mut self) -> Result<(), String> {
        let seed = self.seed;
        for (i, u) in seed.users.iter().enumerate() {
            let id = 8 + i as i64;
            if self.users.insert(u.short_name.clone(), id).is_some() {
                return Err(format!("duplicate user {}", u.short_name));
            }
            let rec = self.user_rec(id, i, u);
            self.org.users.insert(id, rec);
        }
        self.org.skip_ids_below(8 + seed.users.len() as i64);
        for u in &seed.users {
            if let Some(owner) = &u.owner {
                let oid = self.user(owner)?;
                let id = self.users[&u.short_name];
                if let Some(rec) = self.org.users.get_mut(&id) {
                    rec.bot_owner = Some(oid);
                }
            }
        }
        self.org.notification_bot = self.system_bot("notification-bot", "Notification Bot");
        self.org.email_gateway_bot = self.system_bot("emailgateway", "Email Gateway");
        self.org.welcome_bot = self.system_bot("welcome-bot", "Welcome Bot");
        self.org.refresh_system_groups();
        Ok(())
    }

    fn user_rec(&self, id: i64, i: usize, u: &SeedUser) -> UserRec {
        let status = u.status.as_ref().map(|s| UserStatus {
            status_text: s.status_text.clone(),
            emoji_name: s.emoji_name.clone(),
            emoji_code: s.emoji_code.clone(),
            reaction_type: s.reaction_type.clone(),
            away: None,
        });
        UserRec {
            id,
            short_name: u.short_name.clone(),
            email: format!("{}@{}", u.short_name, self.seed.realm.email_domain),
            full_name: u.full_name.clone(),
            role: u.role.into(),
            bot_type: u.bot_type,
            bot_owner: None,
            is_active: true,
            api_key: token(32),
            presence_enabled: u.presence_enabled,
            timezone: u.timezone.clone(),
            date_joined: self.org.realm.date_created + i as i64 * 3600,
            webhook_token: (u.bot_type == Some(3)).then(|| token(32)),
            is_system_bot: false,
            status: status.unwrap_or_default(),
            avatar_removed: false,
        }
    }

    /// A bot of the server itself (IDs 1000..).
    fn system_bot(&mut self, short: &str, full: &str) -> i64 {
        let org = &mut self.org;
        let id = 1000 + org.users.len() as i64;
        org.users.insert(
            id,
            UserRec {
                id,
                short_name: short.into(),
                email: format!("{short}@{}", org.realm.email_domain),
                full_name: full.into(),
                role: Role::Member,
                bot_type: Some(1),
                bot_owner: None,
                is_active: true,
                api_key: token(32),
                presence_enabled: false,
                timezone: "UTC".into(),
                date_joined: org.realm.date_created,
                webhook_token: None,
                is_system_bot: true,
                status: UserStatus::default(),
                avatar_removed: false,
            },
        );
        id
    }

    fn folders(&mut self) {
        for f in &self.seed.channel_folders {
            let id = self.org.alloc();
            self.org.folders.insert(id, (f.name.clone(), f.description.clone()));
            self.org.folder_order.push(id);
        }
    }

    /// User groups in file order (a group's subgroups come before it). Returns name → ID.
    fn groups(&mut self) -> Result<HashMap<String, i64>, String> {
        let mut group_ids: HashMap<String, i64> = HashMap::new();
        for g in &self.seed.user_groups {
            let id = self.org.alloc();
            let mut members = BTreeSet::new();
            for m in &g.members {
                members.insert(self.user(m)?);
            }
            let mut subgroups = BTreeSet::new();
            for s in &g.subgroups {
                subgroups.insert(*group_ids.get(s).ok_or_else(|| format!("unknown subgroup {s}"))?);
            }
            group_ids.insert(g.name.clone(), id);
            self.org.groups.insert(
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
                    date_created: self.start - 300 * 86400,
                },
            );
        }
        Ok(group_ids)
    }

    fn channels(&mut self, groups: &HashMap<String, i64>) -> Result<(), String> {
        let admins_group = self.org.system_group("role:administrators");
        let everyone_group = self.org.system_group("role:everyone");
        for (i, c) in self.seed.channels.iter().enumerate() {
            let id = self.org.alloc();
            let folder_id = match &c.folder {
                Some(f) => Some(
                    *self
                        .org
                        .folders
                        .iter()
                        .find(|(_, (n, _))| n == f)
                        .ok_or_else(|| format!("unknown folder {f}"))?
                        .0,
                ),
                None => None,
            };
            let subs = self.subscriptions(i, c)?;
            let can_remove_group = match &c.can_remove_subscribers_group {
                Some(g) => *groups.get(g).ok_or_else(|| format!("unknown group {g}"))?,
                None => admins_group,
            };
            let creator_id = match &c.creator {
                Some(s) => Some(self.user(s)?),
                None => None,
            };
            let rendered_description = markdown::render(&c.description, &self.org).html;
            self.org.channels.insert(
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
                    admins_only_post: c.posting == SeedPosting::Admins,
                    subs,
                    date_created: self.start - c.created_days_ago as i64 * 86400,
                    creator_id,
                    can_remove_group,
                    is_archived: false,
                    email_token: token(12).to_lowercase(),
                    can_create_topic_group: GroupSetting::Named(everyone_group),
                    groups: Default::default(),
                    default_push_notifications: false,
                },
            );
        }
        Ok(())
    }

    /// The subscriptions of the `i`th channel (`*` subscribes every seeded user).
    fn subscriptions(&self, i: usize, c: &SeedChannel) -> Result<BTreeMap<i64, SubRec>, String> {
        let mut subs = BTreeMap::new();
        let everyone: Vec<String> = if c.subscribers.iter().any(|s| s == "*") {
            self.seed.users.iter().map(|u| u.short_name.clone()).collect()
        } else {
            c.subscribers.clone()
        };
        for s in &everyone {
            let uid = self.user(s)?;
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
        Ok(subs)
    }

    fn moderation_channel(&mut self) -> Result<(), String> {
        if let Some(name) = &self.seed.realm.moderation_request_channel {
            self.org.realm.moderation_request_channel_id = Some(self.channel(name)?);
        }
        Ok(())
    }

    fn custom_emoji(&mut self) -> Result<(), String> {
        for e in &self.seed.custom_emoji {
            let id = self.org.alloc();
            let author = self.user(&e.author)?;
            self.org.realm_emoji.insert(id, (e.name.clone(), author));
        }
        Ok(())
    }

    /// Statuses naming an emoji without its code get it (a custom emoji's code is its ID).
    fn status_emoji(&mut self) -> Result<(), String> {
        let emoji_ids: HashMap<String, i64> =
            self.org.realm_emoji.iter().map(|(id, (n, _))| (n.clone(), *id)).collect();
        for u in self.org.users.values_mut() {
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
        Ok(())
    }

    /// One message with its flags, reactions and edits.
    fn message(&mut self, m: &SeedMessage) -> Result<(), String> {
        let sender = self.user(&m.sender)?;
        let ts = self.start - m.minutes_ago as i64 * 60;
        let recip = match (&m.channel, &m.to) {
            (Some(c), None) => {
                Recip::Channel { id: self.channel(c)?, topic: m.topic.clone().unwrap_or_default() }
            }
            (None, Some(to)) => {
                let mut users = vec![sender];
                for t in to {
                    users.push(self.user(t)?);
                }
                users.sort_unstable();
                users.dedup();
                Recip::Dm { users }
            }
            _ => return Err(format!("message needs a channel or a recipient list: {:?}", m.content)),
        };
        let client = m.client.clone().unwrap_or_else(|| "website".into());
        let id = self.org.insert_message(sender, recip, &m.content, ts, &client, None);
        self.message_flags(m, id);
        for w in &m.widget_events {
            let by = self.user(&w.user)?;
            let mut content = w.content.to_string();
            for (short, uid) in &self.users {
                content = content.replace(&format!("{{id:{short}}}"), &uid.to_string());
            }
            self.org.add_submessage(id, by, "widget", &content);
        }
        for r in &m.reactions {
            let reaction = self.reaction(r)?;
            if let Some(msg) = self.org.messages.get_mut(&id) {
                msg.reactions.push(reaction);
            }
        }
        for e in &m.edits {
            let by = self.user(&e.by)?;
            let new_channel = match &e.channel {
                Some(c) => Some(self.channel(c)?),
                None => None,
            };
            self.org.apply_edit(
                id,
                by,
                ts + e.minutes_later as i64 * 60,
                e.content.as_deref(),
                e.topic.as_deref(),
                new_channel,
                false,
            );
        }
        Ok(())
    }

    /// Every recipient has read the message unless listed in `unread_for`.
    fn message_flags(&mut self, m: &SeedMessage, id: i64) {
        // Those it was stored for (before any seeded edit moves it).
        let recipients: Vec<i64> =
            self.org.messages.get(&id).map(|msg| self.org.recipients(&msg.recip)).unwrap_or_default();
        for uid in recipients {
            let unread = m.unread_for.iter().any(|s| self.users.get(s) == Some(&uid));
            let starred = m.starred_by.iter().any(|s| self.users.get(s) == Some(&uid));
            if let Some(f) = self.org.user_msgs.get_mut(&uid).and_then(|ms| ms.get_mut(&id)) {
                f.read = !unread;
                f.starred = starred;
            }
        }
    }

    fn reaction(&self, r: &super::SeedReaction) -> Result<Reaction, String> {
        let uid = self.user(&r.user)?;
        let rt = ReactionType::from(r.reaction_type.clone().unwrap_or_else(|| "unicode_emoji".into()));
        let code = match (&r.emoji_code, &rt) {
            (Some(c), _) => c.clone(),
            (None, ReactionType::UnicodeEmoji) => {
                emoji::unicode_code(&r.emoji_name).ok_or_else(|| format!("unknown emoji {}", r.emoji_name))?
            }
            (None, ReactionType::RealmEmoji) => self
                .org
                .realm_emoji
                .iter()
                .find(|(_, (n, _))| *n == r.emoji_name)
                .map(|(id, _)| id.to_string())
                .ok_or_else(|| format!("unknown custom emoji {}", r.emoji_name))?,
            (None, _) => r.emoji_name.clone(),
        };
        Ok(Reaction { emoji_name: r.emoji_name.clone(), emoji_code: code, reaction_type: rt, user_id: uid })
    }

    fn user_topics(&mut self) -> Result<(), String> {
        for t in &self.seed.user_topics {
            let uid = self.user(&t.user)?;
            let cid = self.channel(&t.channel)?;
            let policy = match t.policy {
                SeedPolicy::Muted => 1,
                SeedPolicy::Unmuted => 2,
                SeedPolicy::Followed => 3,
            };
            self.org
                .user_topics
                .insert((uid, cid, t.topic.to_lowercase()), (t.topic.clone(), policy, self.start - 3600));
        }
        Ok(())
    }

    /// Every human gets the built-in views; the seed pins or unpins them and adds its own.
    fn navigation_views(&mut self) -> Result<(), String> {
        let humans: Vec<i64> = self.org.users.values().filter(|u| !u.is_system_bot).map(|u| u.id).collect();
        for uid in humans {
            let views = BUILTIN_VIEWS
                .iter()
                .map(|f| NavViewRec { fragment: (*f).into(), name: None, is_pinned: true, builtin: true })
                .collect();
            self.org.nav_views.insert(uid, views);
        }
        for v in &self.seed.navigation_views {
            let uid = self.user(&v.user)?;
            let views = self.org.nav_views.entry(uid).or_default();
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
        Ok(())
    }

    fn scheduled_messages(&mut self) -> Result<(), String> {
        for s in &self.seed.scheduled_messages {
            let sender = self.user(&s.sender)?;
            let id = self.org.alloc();
            let (is_channel, channel_id, user_ids) = match (&s.channel, &s.to) {
                (Some(c), _) => (true, self.channel(c)?, vec![]),
                (None, Some(to)) => {
                    let mut ids = Vec::new();
                    for t in to {
                        ids.push(self.user(t)?);
                    }
                    (false, 0, ids)
                }
                (None, None) => return Err("scheduled message needs a channel or recipients".into()),
            };
            self.org.scheduled.insert(
                id,
                ScheduledRec {
                    id,
                    sender_id: sender,
                    is_channel,
                    channel_id,
                    user_ids,
                    topic: s.topic.clone().unwrap_or_default(),
                    content: s.content.clone(),
                    deliver_at: self.start + s.minutes_from_now * 60,
                    failed: s.failed,
                    read_by_sender: None,
                },
            );
        }
        Ok(())
    }

    fn presence(&mut self) -> Result<(), String> {
        for p in &self.seed.presence {
            let uid = self.user(&p.user)?;
            let at = self.start - p.seconds_ago as i64;
            self.org.presence_counter += 1;
            let rec = PresenceRec {
                active_ts: if p.status == SeedPresenceStatus::Active { at } else { at - 600 },
                idle_ts: at,
                update_id: self.org.presence_counter,
            };
            self.org.presence.insert(uid, rec);
        }
        Ok(())
    }

    fn playgrounds(&mut self) {
        for p in &self.seed.playgrounds {
            let id = self.org.alloc();
            self.org.playgrounds.push(PlaygroundRec {
                id,
                name: p.name.clone(),
                pygments_language: p.pygments_language.clone(),
                url_template: p.url_template.clone(),
            });
        }
    }

    /// Custom profile fields (IDs 1.., their own sequence) and the users' values.
    fn profile_fields(&mut self) -> Result<(), String> {
        for (i, f) in self.seed.custom_profile_fields.iter().enumerate() {
            let id = i as i64 + 1;
            self.org.profile_fields.insert(
                id,
                ProfileFieldRec {
                    id,
                    field_type: f.kind.type_id(),
                    name: f.name.clone(),
                    hint: f.hint.clone(),
                    order: id,
                    display_in_profile_summary: f.summary,
                    field_data: String::new(),
                    required: false,
                    editable_by_user: true,
                    use_for_user_matching: false,
                },
            );
            for (who, value) in &f.values {
                let uid = self.user(who)?;
                self.org.profile_data.insert((uid, id), value.clone());
            }
        }
        Ok(())
    }
}
