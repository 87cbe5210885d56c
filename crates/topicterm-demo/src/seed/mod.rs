//! The seed file (`assets/demo_org.json`) that the demo server loads its organization from.
//!
//! Everything is referred to by name (users by `short_name`, channels by `name`, groups by
//! `name`) so the file stays readable; the server assigns IDs in file order. Times are relative
//! to the moment the server starts, so the demo always looks fresh.

mod build;
pub mod large;

use serde::Deserialize;

/// A change to a widget: who made it, and the submessage.
#[derive(Debug, Clone, Deserialize)]
pub struct SeedWidgetEvent {
    pub user: String,
    pub content: serde_json::Value,
}

/// The seed shipped with the binary.
pub const DEMO_SEED: &str = include_str!("../../assets/demo_org.json");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    pub realm: SeedRealm,
    pub users: Vec<SeedUser>,
    #[serde(default)]
    pub channel_folders: Vec<SeedFolder>,
    pub channels: Vec<SeedChannel>,
    #[serde(default)]
    pub user_groups: Vec<SeedGroup>,
    #[serde(default)]
    pub custom_emoji: Vec<SeedEmoji>,
    /// Chronological: `minutes_ago` must not increase from one message to the next.
    pub messages: Vec<SeedMessage>,
    #[serde(default)]
    pub user_topics: Vec<SeedUserTopic>,
    /// Custom views; every user also gets the built-in views.
    #[serde(default)]
    pub navigation_views: Vec<SeedNavView>,
    #[serde(default)]
    pub scheduled_messages: Vec<SeedScheduled>,
    #[serde(default)]
    pub presence: Vec<SeedPresence>,
    #[serde(default)]
    pub playgrounds: Vec<SeedPlayground>,
    /// The organization's custom profile fields, with each user's value.
    #[serde(default)]
    pub custom_profile_fields: Vec<SeedProfileField>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRealm {
    pub name: String,
    /// Used in `sender_realm_str`.
    pub string_id: String,
    /// Domain of every seeded email address: `{short_name}@{email_domain}`.
    pub email_domain: String,
    pub empty_topic_display_name: String,
    /// Channel name of the moderation request channel, if any.
    pub moderation_request_channel: Option<String>,
    #[serde(default = "yes")]
    pub allow_edit_history: bool,
    pub max_message_length: usize,
    pub max_topic_length: usize,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedRole {
    Owner,
    Admin,
    Moderator,
    Member,
    Guest,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedUser {
    /// Also the zuliprc file name (`{short_name}.zuliprc`) and the email's local part.
    pub short_name: String,
    pub full_name: String,
    pub role: SeedRole,
    /// 1 = generic bot, 3 = outgoing webhook bot. Absent for humans.
    #[serde(default)]
    pub bot_type: Option<u8>,
    /// Short name of the bot's owner (bots only).
    #[serde(default)]
    pub owner: Option<String>,
    /// False = invisible mode.
    #[serde(default = "yes")]
    pub presence_enabled: bool,
    #[serde(default)]
    pub status: Option<SeedStatus>,
    #[serde(default = "utc")]
    pub timezone: String,
}

fn utc() -> String {
    "UTC".into()
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedStatus {
    #[serde(default)]
    pub status_text: String,
    #[serde(default)]
    pub emoji_name: String,
    #[serde(default)]
    pub emoji_code: String,
    #[serde(default)]
    pub reaction_type: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedFolder {
    pub name: String,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SeedPosting {
    #[default]
    Everyone,
    Admins,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedChannel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub invite_only: bool,
    #[serde(default = "yes")]
    pub history_public_to_subscribers: bool,
    /// Name of a channel folder.
    #[serde(default)]
    pub folder: Option<String>,
    #[serde(default)]
    pub posting: SeedPosting,
    /// Short names; `"*"` means every active human and bot.
    pub subscribers: Vec<String>,
    /// Per-user `#rrggbb`; a default is derived from the channel ID when absent.
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub pinned_by: Vec<String>,
    #[serde(default)]
    pub muted_by: Vec<String>,
    /// Name of a user group whose members may unsubscribe others; default administrators only.
    #[serde(default)]
    pub can_remove_subscribers_group: Option<String>,
    #[serde(default)]
    pub created_days_ago: u32,
    #[serde(default)]
    pub creator: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedGroup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub members: Vec<String>,
    /// Names of other (earlier) groups.
    #[serde(default)]
    pub subgroups: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedEmoji {
    pub name: String,
    pub author: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedMessage {
    pub sender: String,
    /// Changes to the message's widget (`/poll`, `/todo`), in order; `{id:NAME}` in a
    /// content's text stands for that user's ID.
    #[serde(default)]
    pub widget_events: Vec<SeedWidgetEvent>,
    /// Channel messages: channel name and topic (the topic may be `""`, the empty topic).
    #[serde(default)]
    pub channel: Option<String>,
    #[serde(default)]
    pub topic: Option<String>,
    /// Direct messages: the other participants' short names (1 = 1:1 DM, 2+ = group DM).
    #[serde(default)]
    pub to: Option<Vec<String>>,
    /// Raw Markdown of the original version.
    pub content: String,
    pub minutes_ago: u64,
    #[serde(default)]
    pub reactions: Vec<SeedReaction>,
    /// Applied in order after sending; each produces an edit-history entry.
    #[serde(default)]
    pub edits: Vec<SeedEdit>,
    /// Users (short names) for whom the message is unread; everyone else has read it.
    #[serde(default)]
    pub unread_for: Vec<String>,
    #[serde(default)]
    pub starred_by: Vec<String>,
    #[serde(default)]
    pub client: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedReaction {
    pub user: String,
    pub emoji_name: String,
    /// Derived from the name for `unicode_emoji` when absent.
    #[serde(default)]
    pub emoji_code: Option<String>,
    /// `unicode_emoji` (default), `realm_emoji` or `svc_extra_emoji`.
    #[serde(default)]
    pub reaction_type: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedEdit {
    pub by: String,
    /// Minutes after the message was sent.
    pub minutes_later: u64,
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub topic: Option<String>,
    /// Move to this channel (by name).
    #[serde(default)]
    pub channel: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedPolicy {
    Muted,
    Unmuted,
    Followed,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedUserTopic {
    pub user: String,
    pub channel: String,
    pub topic: String,
    pub policy: SeedPolicy,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedNavView {
    /// Short name of the owner.
    pub user: String,
    pub fragment: String,
    /// Custom views have a name; built-in ones have none.
    #[serde(default)]
    pub name: Option<String>,
    pub is_pinned: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedScheduled {
    pub sender: String,
    #[serde(default)]
    pub channel: Option<String>,
    #[serde(default)]
    pub topic: Option<String>,
    #[serde(default)]
    pub to: Option<Vec<String>>,
    pub content: String,
    /// Negative for a time already past (a failed message).
    pub minutes_from_now: i64,
    #[serde(default)]
    pub failed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedPresenceStatus {
    Active,
    Idle,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedPresence {
    pub user: String,
    pub status: SeedPresenceStatus,
    pub seconds_ago: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedPlayground {
    pub name: String,
    pub pygments_language: String,
    pub url_template: String,
}

/// The kinds of custom profile field the seed can describe (the reference server's type IDs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedFieldKind {
    ShortText,
    LongText,
    Date,
    Link,
    Pronouns,
}

impl SeedFieldKind {
    /// The field type's ID in the API.
    pub fn type_id(self) -> i64 {
        match self {
            SeedFieldKind::ShortText => 1,
            SeedFieldKind::LongText => 2,
            SeedFieldKind::Date => 4,
            SeedFieldKind::Link => 5,
            SeedFieldKind::Pronouns => 8,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedProfileField {
    pub name: String,
    pub kind: SeedFieldKind,
    #[serde(default)]
    pub hint: String,
    /// Shown on the user card in the web app.
    #[serde(default)]
    pub summary: bool,
    /// Short name → value (dates as YYYY-MM-DD, links as URLs, long text as Markdown).
    #[serde(default)]
    pub values: std::collections::BTreeMap<String, String>,
}

/// Parse a seed file.
pub fn parse(text: &str) -> Result<Seed, serde_json::Error> {
    serde_json::from_str(text)
}
