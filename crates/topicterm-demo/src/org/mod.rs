//! The in-memory organization: users, channels, messages, and every per-user record, plus the
//! rules shared by several operations (access, posting, sending, editing, event fan-out).

use super::clock::{now, now_f64};
use super::error::{ApiErr, ApiResult};
use super::events::Queues;
use super::markdown::RenderContext;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use topicterm_api::names::same_name;

mod access;
mod json;
mod records;
pub mod rules;
mod store;
mod webhooks;
pub mod widgets;

pub use records::*;

/// The feature level the demo server reports unless told otherwise: today's Zulip Cloud
/// (13.0-dev). Its version string follows the level (`levels::version`).
pub const FEATURE_LEVEL: i64 = 512;
/// Anchor returned for `newest` (as the reference server does).
pub const LARGER_THAN_MAX_MESSAGE_ID: i64 = 10_000_000_000_000_000;
/// Password of every seeded human, for `fetch_api_key`.
pub const DEMO_PASSWORD: &str = "topicterm-demo";

/// See `Org::channel_stats`.
#[derive(Debug, Clone, Default)]
pub struct ChannelStats {
    pub generation: u64,
    pub computed_at: i64,
    /// Channel → (first message ID, messages in the last week).
    pub by_channel: HashMap<i64, (i64, usize)>,
}

/// An uploaded file.
#[derive(Debug, Clone)]
pub struct StoredUpload {
    /// The attachment's ID (`/attachments`).
    pub id: i64,
    /// The file's name as uploaded.
    pub name: String,
    /// When it was uploaded (UNIX seconds).
    pub created: i64,
    pub owner: i64,
    pub content_type: String,
    pub bytes: axum::body::Bytes,
    /// A picture's size in pixels (read from its header when it was uploaded).
    pub dimensions: Option<(u32, u32)>,
    /// The messages it is tied to: those that link it and whose sender could read it when
    /// linking it (the reference server's `Attachment.messages`). Who can read one of them can
    /// read the file (`Org::can_read_upload`).
    pub messages: BTreeSet<i64>,
}

/// The demo organization's built-in files (the seed has no binary assets). They have no
/// uploader: they are served to whoever can read a message that links them.
pub const DEMO_UPLOADS: &[(&str, &str)] =
    &[("2/ab/release-checklist.txt", "Release checklist\n- tag\n- changelog\n- announce\n")];

/// Largest upload, as register's `max_file_upload_size_mib` says.
pub const MAX_UPLOAD_MIB: usize = 25;

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
    /// The most all uploads may take together, in MiB (`realm_upload_quota_mib`; `None`: no
    /// limit).
    pub upload_quota_mib: Option<u64>,
    /// What upload folders are drawn from: a server started at a fixed moment (tests) names
    /// them the same on every run; otherwise (`None`) they come from the system's randomness.
    pub upload_seed: Option<u64>,
    /// The first message ID this run may give (past every one an earlier run of the same
    /// organization gave: `counters`); IDs start at 100 when it is lower.
    pub message_id_floor: i64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            feature_level: FEATURE_LEVEL,
            partial_subscribers_threshold: 250,
            outgoing_webhook_url: None,
            clock_offset: 0,
            upload_quota_mib: None,
            upload_seed: None,
            message_id_floor: 0,
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
    /// Channel folder IDs in display order (each folder's `order` is its place here; `PATCH
    /// /channel_folders` changes it).
    pub folder_order: Vec<i64>,
    /// Archived channel folders.
    pub archived_folders: BTreeSet<i64>,
    /// Who created each folder made through the API (the seed's have none).
    pub folder_creators: BTreeMap<i64, i64>,
    /// Custom profile fields by ID (their own sequence, as in the reference server).
    pub profile_fields: BTreeMap<i64, ProfileFieldRec>,
    /// (user, field) → the user's value.
    pub profile_data: BTreeMap<(i64, i64), String>,
    pub groups: BTreeMap<i64, GroupRec>,
    pub messages: BTreeMap<i64, MessageRec>,
    /// user → message → flags: the user's personal message history.
    pub user_msgs: HashMap<i64, BTreeMap<i64, Flags>>,
    /// (user, channel, lowercased topic) → (topic as set, policy, last_updated).
    pub user_topics: BTreeMap<(i64, i64, String), (String, i64, i64)>,
    /// Files uploaded through `POST /user_uploads`, by path under `/user_uploads/`.
    pub uploads: BTreeMap<String, StoredUpload>,
    /// Data exports by ID (`/export/realm`).
    pub exports: BTreeMap<i64, ExportRec>,
    /// Each user's bot storage (`/bot_storage`): key → value.
    pub bot_storage: HashMap<i64, BTreeMap<String, String>>,
    /// Bumped whenever a message is stored, edited, moved or deleted (for `channel_stats`).
    pub message_generation: u64,
    /// Each channel's first message and last week's traffic, computed in one pass over the
    /// messages and kept until they change (or an hour passes): a register lists thousands of
    /// channels, and counting per channel would be O(channels × messages).
    pub channel_stats: std::sync::Mutex<Option<ChannelStats>>,
    /// The last submessage ID handed out.
    pub submessage_seq: i64,
    /// Whom each user muted, and when.
    pub muted_users: HashMap<i64, BTreeMap<i64, i64>>,
    /// Each user's alert words.
    pub alert_words: HashMap<i64, Vec<String>>,
    pub presence: HashMap<i64, PresenceRec>,
    pub presence_counter: i64,
    pub nav_views: HashMap<i64, Vec<NavViewRec>>,
    pub scheduled: BTreeMap<i64, ScheduledRec>,
    pub playgrounds: Vec<PlaygroundRec>,
    /// id → (name, author)
    pub realm_emoji: BTreeMap<i64, (String, i64)>,
    /// Custom emoji deactivated (`DELETE /realm/emoji/{name}`): listed as such, no longer drawn.
    pub deactivated_emoji: BTreeSet<i64>,
    pub apns_tokens: Vec<(i64, String, Option<String>)>,
    /// FCM registration tokens (`/users/me/android_gcm_reg_id`): (user, token).
    pub fcm_tokens: Vec<(i64, String)>,
    /// End-to-end push registrations (`/mobile_push/register`): (user, push account ID).
    pub push_devices: Vec<(i64, i64)>,
    /// The linkifiers' order when an administrator set one (`PATCH /realm/linkifiers`).
    pub linkifier_order: Vec<i64>,
    /// owner → draft ID → draft.
    pub drafts: HashMap<i64, BTreeMap<i64, DraftRec>>,
    /// Users who turned `enable_drafts_synchronization` off (it is on by default).
    pub drafts_sync_off: HashSet<i64>,
    /// user → the settings they changed from the defaults (`PATCH /settings`).
    pub user_settings: HashMap<i64, serde_json::Map<String, serde_json::Value>>,
    /// Invitations by ID (`/invites`).
    pub invites: BTreeMap<i64, InviteRec>,
    /// Default channels for new members (`/default_streams`).
    pub default_channels: BTreeSet<i64>,
    /// Linkifiers by ID: (pattern, URL template) (`/realm/filters`).
    pub linkifiers: BTreeMap<i64, (String, String)>,
    /// Saved snippets by ID (`/saved_snippets`).
    pub snippets: BTreeMap<i64, SnippetRec>,
    /// Undelivered reminders by ID (`/reminders`).
    pub reminders: BTreeMap<i64, ReminderRec>,
    pub dm_recipient_ids: HashMap<Vec<i64>, i64>,
    pub queues: Queues,
    pub webhook_jobs: Vec<WebhookJob>,
    next_id: i64,
    /// The next message's ID: past every message ever stored, deleted or not (a real server
    /// never gives a deleted message's ID to another).
    next_message_id: i64,
    pub notification_bot: i64,
    pub email_gateway_bot: i64,
    /// Sends the organization's welcome message (`POST /realm/test_welcome_bot_custom_message`).
    pub welcome_bot: i64,
    /// Draws the random folder of each upload (`Org::upload_folder`).
    upload_rng: rand::rngs::StdRng,
    /// Where IDs are reserved across restarts (`demo-server`), if they are.
    reservation: Option<crate::counters::Reservation>,
}

/// Built-in navigation views every user has.
pub const BUILTIN_VIEWS: &[&str] =
    &["inbox", "recent", "feed", "starred", "mentions", "reactions", "my_dms", "drafts", "scheduled"];

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
            .find(|(id, (n, _))| n == name && !self.deactivated_emoji.contains(id))
            .map(|(id, _)| (id.to_string(), format!("/user_avatars/1/emoji/images/{id}.png")))
    }
    fn feature_level(&self) -> i64 {
        self.settings.feature_level
    }
    fn upload_dimensions(&self, href: &str) -> Option<(u32, u32)> {
        self.uploads.get(href.strip_prefix("/user_uploads/")?)?.dimensions
    }
}

impl Org {
    /// An organization with nothing in it yet but its realm (see `Org::from_seed`).
    pub fn new(settings: Settings, realm: RealmRec) -> Org {
        use rand::SeedableRng;
        let upload_rng = match settings.upload_seed {
            Some(seed) => rand::rngs::StdRng::seed_from_u64(seed),
            None => rand::rngs::StdRng::from_os_rng(),
        };
        let first_message_id = settings.message_id_floor.max(100);
        Org {
            settings,
            realm,
            users: BTreeMap::new(),
            channels: BTreeMap::new(),
            folders: BTreeMap::new(),
            folder_order: Vec::new(),
            archived_folders: BTreeSet::new(),
            folder_creators: BTreeMap::new(),
            exports: BTreeMap::new(),
            profile_fields: BTreeMap::new(),
            profile_data: BTreeMap::new(),
            groups: BTreeMap::new(),
            messages: BTreeMap::new(),
            user_msgs: HashMap::new(),
            user_topics: BTreeMap::new(),
            uploads: BTreeMap::new(),
            submessage_seq: 0,
            message_generation: 0,
            channel_stats: std::sync::Mutex::new(None),
            bot_storage: HashMap::new(),
            muted_users: HashMap::new(),
            alert_words: HashMap::new(),
            presence: HashMap::new(),
            presence_counter: 0,
            nav_views: HashMap::new(),
            scheduled: BTreeMap::new(),
            playgrounds: Vec::new(),
            realm_emoji: BTreeMap::new(),
            deactivated_emoji: BTreeSet::new(),
            apns_tokens: Vec::new(),
            fcm_tokens: Vec::new(),
            push_devices: Vec::new(),
            linkifier_order: Vec::new(),
            drafts: HashMap::new(),
            drafts_sync_off: HashSet::new(),
            user_settings: HashMap::new(),
            snippets: BTreeMap::new(),
            invites: BTreeMap::new(),
            default_channels: BTreeSet::new(),
            linkifiers: BTreeMap::new(),
            reminders: BTreeMap::new(),
            dm_recipient_ids: HashMap::new(),
            queues: Queues::default(),
            webhook_jobs: Vec::new(),
            next_id: 1,
            next_message_id: first_message_id,
            notification_bot: 0,
            welcome_bot: 0,
            email_gateway_bot: 0,
            upload_rng,
            reservation: None,
        }
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
        self.keep_reserved();
        id
    }

    /// The ID [`alloc`](Org::alloc) gives next.
    pub fn next_id(&self) -> i64 {
        self.next_id
    }

    /// From now on, reserve IDs in `reservation`'s file before giving them (see `counters`).
    pub fn reserve_ids(&mut self, reservation: crate::counters::Reservation) {
        self.reservation = Some(reservation);
        self.keep_reserved();
    }

    /// What is given next is reserved in the file: if it is not, reserve further first. A file
    /// that cannot be written is said in the log; the IDs are given all the same (refusing
    /// every message would be worse), and a restart after that may give them again.
    fn keep_reserved(&mut self) {
        let next = crate::counters::Floors { messages: self.next_message_id, others: self.next_id };
        if let Some(r) = &mut self.reservation
            && let Err(e) = r.covers(next)
        {
            tracing::warn!("IDs not reserved across restarts: {e}");
        }
    }

    /// The ID the next message will have: the first a user who subscribes now may see.
    pub fn next_message_id(&self) -> i64 {
        self.next_message_id
    }

    /// Take the next message's ID.
    pub(crate) fn alloc_message_id(&mut self) -> i64 {
        let id = self.next_message_id;
        self.next_message_id += 1;
        self.keep_reserved();
        id
    }

    /// Make [`alloc`](Org::alloc) hand out IDs from `id` on (for IDs assigned by hand).
    pub fn skip_ids_below(&mut self, id: i64) {
        self.next_id = self.next_id.max(id);
        self.keep_reserved();
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
        self.channels.values().find(|c| same_name(&c.name, name))
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

    /// A new upload's folder: 24 random letters and digits (as the reference server's
    /// `token_urlsafe(18)`), so that one upload's address says nothing of another's.
    pub fn upload_folder(&mut self) -> String {
        use rand::Rng;
        (&mut self.upload_rng).sample_iter(rand::distr::Alphanumeric).take(24).map(char::from).collect()
    }

    /// The organization's description (`realm_description`).
    pub fn realm_description(&self) -> String {
        self.realm.description.clone().unwrap_or_else(|| format!("The {} organization.", self.realm.name))
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

/// The upload paths (under `/user_uploads/`, percent-decoded) a message's text links to,
/// whether or not a file is there.
pub fn linked_uploads(content: &str) -> Vec<String> {
    const LINK: &str = "/user_uploads/";
    let mut paths: Vec<String> = content
        .match_indices(LINK)
        .map(|(i, _)| {
            let rest = &content[i + LINK.len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, ')' | ']' | '"' | '>' | '?' | '#'))
                .unwrap_or(rest.len());
            percent_encoding::percent_decode_str(&rest[..end]).decode_utf8_lossy().into_owned()
        })
        .collect();
    paths.sort();
    paths.dedup();
    paths
}
