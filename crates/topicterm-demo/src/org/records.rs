//! The organization's records: one plain type per thing the server keeps (users, channels,
//! groups, messages and their edits, flags, drafts, scheduled messages, …).

use crate::markdown::Rendered;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Owner = 100,
    Admin = 200,
    Moderator = 300,
    Member = 400,
    Guest = 600,
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
    /// Who may start a new topic here (level 441; `role:everyone` by default).
    pub can_create_topic_group: GroupSetting,
    /// New subscribers get mobile notifications on (from level 507; administrators set it).
    pub default_push_notifications: bool,
    /// The channel's own permission groups beside the organization's (`CHANNEL_GROUPS`, levels
    /// 396–407): who else may move its messages, resolve its topics, delete their own messages
    /// in it. One never set is `role:nobody`, the reference's default.
    pub groups: BTreeMap<&'static str, GroupSetting>,
}

/// A group-setting value: a named group (a system role group or a user group), or an
/// anonymous group of direct members and subgroups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupSetting {
    Named(i64),
    Anonymous { members: Vec<i64>, subgroups: Vec<i64> },
}

impl GroupSetting {
    /// As the API writes it: the group's ID, or `{"direct_members": […], "direct_subgroups": […]}`.
    pub fn json(&self) -> Value {
        match self {
            GroupSetting::Named(id) => serde_json::json!(id),
            GroupSetting::Anonymous { members, subgroups } => {
                serde_json::json!({"direct_members": members, "direct_subgroups": subgroups})
            }
        }
    }

    /// Read from the API's form (checked against the organization by the caller).
    pub fn parse(v: &Value) -> Option<GroupSetting> {
        if let Some(id) = v.as_i64() {
            return Some(GroupSetting::Named(id));
        }
        let ids = |k: &str| -> Option<Vec<i64>> { v.get(k)?.as_array()?.iter().map(Value::as_i64).collect() };
        Some(GroupSetting::Anonymous { members: ids("direct_members")?, subgroups: ids("direct_subgroups")? })
    }
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
    /// Widget data (polls, to-do lists), oldest first.
    pub submessages: Vec<SubmessageRec>,
    /// Oldest first.
    pub edits: Vec<EditRec>,
    pub last_edit_ts: Option<i64>,
    pub last_moved_ts: Option<i64>,
}

/// One submessage: a widget's creation or one change to it (a vote, a new option, …).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SubmessageRec {
    pub id: i64,
    pub message_id: i64,
    pub sender_id: i64,
    pub msg_type: String,
    /// JSON text.
    pub content: String,
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
    pub has_alert_word: bool,
    /// The user hid the message's link previews (from level 510).
    pub hide_link_previews: bool,
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
        if self.has_alert_word {
            v.push("has_alert_word");
        }
        if self.collapsed {
            v.push("collapsed");
        }
        if self.hide_link_previews {
            v.push("hide_link_previews");
        }
        v
    }
    /// Set or clear a flag by name; false for flags that cannot be changed by a user.
    pub fn set(&mut self, flag: &str, on: bool) -> bool {
        match flag {
            "read" => self.read = on,
            "starred" => self.starred = on,
            "collapsed" => self.collapsed = on,
            "hide_link_previews" => self.hide_link_previews = on,
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
            "hide_link_previews" => self.hide_link_previews,
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

/// A custom profile field of the organization (its values live in `Org::profile_data`).
#[derive(Debug, Clone)]
pub struct ProfileFieldRec {
    pub id: i64,
    /// 1 short text, 2 long text (Markdown), 4 date, 5 link, 8 pronouns.
    pub field_type: i64,
    pub name: String,
    pub hint: String,
    pub order: i64,
    pub display_in_profile_summary: bool,
    /// JSON text: a list field's options, an external account's kind ("" for other types).
    pub field_data: String,
    pub required: bool,
    pub editable_by_user: bool,
    /// Level 455 (sent only from then).
    pub use_for_user_matching: bool,
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
    /// How long after sending people may delete their own messages (`None`: any time); the
    /// reference server's default is 600 s. Administrators may delete any message any time.
    pub delete_own_limit_secs: Option<i64>,
    /// The organization's description as set (`PATCH /realm`); `None`: a sentence naming it.
    pub description: Option<String>,
    /// The rules for editing, moving and sending messages (`rules.rs`).
    pub rules: MessageRules,
}

/// A payload to POST to an outgoing-webhook bot once the lock is released.
#[derive(Debug, Clone)]
pub struct WebhookJob {
    pub url: String,
    pub bot_id: i64,
    pub payload: Value,
}

/// The namespace of an emoji code, as the API spells it in `reaction_type`: the API crate's
/// (the client decodes what this serializes).
pub use topicterm_api::ReactionType;

/// One reaction on a message, serialized as the API's `reactions` entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reaction {
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: ReactionType,
    pub user_id: i64,
}

/// A user's status, serialized as the API's status objects (empty fields left out).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct UserStatus {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status_text: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub emoji_name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub emoji_code: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reaction_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away: Option<bool>,
}

/// A saved snippet: a reusable reply of one user's.
#[derive(Debug, Clone)]
pub struct SnippetRec {
    pub id: i64,
    pub owner: i64,
    pub title: String,
    pub content: String,
    pub date_created: i64,
}

/// A reminder about a message, delivered to its owner as a DM from the Notification Bot.
#[derive(Debug, Clone)]
pub struct ReminderRec {
    pub id: i64,
    pub owner: i64,
    pub message_id: i64,
    /// The Notification Bot's text, written when it was set (the note in it).
    pub content: String,
    pub deliver_at: i64,
}

/// An invitation: to an email address, or a reusable link.
#[derive(Debug, Clone)]
pub struct InviteRec {
    pub id: i64,
    pub by: i64,
    pub at: i64,
    pub expires: Option<i64>,
    pub invited_as: i64,
    pub email: Option<String>,
    pub link: Option<String>,
}

/// A week, the reference server's default limit for moving messages.
pub const WEEK: i64 = 7 * 86400;
/// What `PATCH /realm` changes of the rules for messages (applied by `rules.rs`).
#[derive(Debug, Clone)]
pub struct MessageRules {
    pub allow_message_editing: bool,
    /// `None`: no limit. The reference server's defaults: 10 minutes to edit, a week to move.
    pub edit_limit_secs: Option<i64>,
    pub move_within_limit_secs: Option<i64>,
    pub move_between_limit_secs: Option<i64>,
    /// `topics_policy` `disable_empty_topic` (before level 392, `mandatory_topics`).
    pub mandatory_topics: bool,
    /// Realm group settings changed from their defaults, by register's name
    /// (`realm_can_resolve_topics_group`).
    pub groups: BTreeMap<String, GroupSetting>,
}

impl Default for MessageRules {
    fn default() -> Self {
        MessageRules {
            allow_message_editing: true,
            edit_limit_secs: Some(600),
            move_within_limit_secs: Some(WEEK),
            move_between_limit_secs: Some(WEEK),
            mandatory_topics: false,
            groups: BTreeMap::new(),
        }
    }
}

/// One data export (`handlers/exports.rs`).
#[derive(Debug, Clone)]
pub struct ExportRec {
    pub id: i64,
    pub acting_user_id: i64,
    pub export_time: f64,
    pub export_type: i64,
    pub deleted_timestamp: Option<f64>,
    /// Path under the server's URL, once made (and until deleted).
    pub path: Option<String>,
    pub bytes: Vec<u8>,
}
