//! People as the server describes them: users and bots, groups, statuses, presence, and the
//! organization's custom profile fields.

use super::ids::{UserId, default_true};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A custom profile field of the organization (register's `custom_profile_fields`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct CustomProfileField {
    pub id: i64,
    /// 1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 users, 7 external
    /// account, 8 pronouns.
    #[serde(rename = "type")]
    pub field_type: i64,
    pub name: String,
    #[serde(default)]
    pub hint: String,
    #[serde(default)]
    pub order: i64,
    /// JSON text: the options of a list field, the kind of an external account.
    #[serde(default)]
    pub field_data: String,
    #[serde(default)]
    pub display_in_profile_summary: bool,
}

/// A user's value of one custom profile field.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct ProfileValue {
    /// Text, a date, a link; for the users field a JSON list of IDs, for a list field the
    /// option's key.
    pub value: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rendered_value: Option<String>,
}

/// Modern presence entry (keyed by user ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct ModernPresence {
    pub active_timestamp: i64,
    pub idle_timestamp: i64,
}

/// One client's presence in the legacy format.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct LegacyClientPresence {
    #[serde(default)]
    pub client: String,
    pub status: String,
    pub timestamp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pushable: Option<bool>,
}

/// Legacy presence entry (keyed by email): `aggregated` plus one entry per client.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct LegacyPresence {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregated: Option<LegacyClientPresence>,
    #[serde(flatten)]
    pub clients: HashMap<String, LegacyClientPresence>,
}

/// The `presences` object in either format.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Presences {
    Modern(HashMap<String, ModernPresence>),
    Legacy(HashMap<String, LegacyPresence>),
}

impl Presences {
    /// Modern entries by user ID (empty for the legacy format).
    pub fn modern(&self) -> HashMap<UserId, ModernPresence> {
        match self {
            Presences::Modern(m) => m.iter().filter_map(|(k, v)| Some((k.parse().ok()?, *v))).collect(),
            Presences::Legacy(_) => HashMap::new(),
        }
    }
}

/// Presence status a client reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PresenceStatus {
    Active,
    Idle,
}

impl PresenceStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PresenceStatus::Active => "active",
            PresenceStatus::Idle => "idle",
        }
    }
}

/// Response of update-presence.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct PresenceResponse {
    #[serde(default)]
    pub presence_last_update_id: Option<i64>,
    #[serde(default)]
    pub server_timestamp: Option<f64>,
    #[serde(default)]
    pub presences: Option<Presences>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// A user's status.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
pub struct UserStatus {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub status_text: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub emoji_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub emoji_code: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reaction_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away: Option<bool>,
}

fn active() -> bool {
    true
}

/// A user or bot. Fields at their defaults are left out when written (the last session on
/// disk holds 20,000 of them in a large organization); reading fills them back in.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct User {
    pub user_id: UserId,
    #[serde(default)]
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_email: Option<String>,
    pub full_name: String,
    /// Register's `realm_users` carries no `is_active` (the server strips it: which list a user
    /// is in says it), so a missing one means active.
    #[serde(default = "active")]
    pub is_active: bool,
    #[serde(default)]
    pub is_bot: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_type: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_owner_id: Option<UserId>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_admin: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_owner: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_guest: bool,
    /// 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.
    #[serde(default)]
    pub role: Option<i64>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub timezone: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar_url: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date_joined: String,
    /// False: the user shares no presence data (invisible); show them offline.
    #[serde(default = "default_true")]
    pub presence_enabled: bool,
    /// Custom profile field ID → value; only when asked for (never for bots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_data: Option<HashMap<String, ProfileValue>>,
}

/// A user group.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct UserGroup {
    pub id: i64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub members: Vec<UserId>,
    #[serde(default)]
    pub direct_subgroup_ids: Vec<i64>,
    #[serde(default)]
    pub is_system_group: bool,
    #[serde(default)]
    pub deactivated: bool,
}
