//! People events, typed per operation: users of the organization (`realm_user`) and user
//! groups (`user_group`).

use crate::models::{User, UserGroup, UserId};
use serde::Deserialize;

/// A `realm_user` event.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawRealmUserEvent")]
pub enum RealmUserEvent {
    /// A user joined (or became visible to the user).
    Add(Box<User>),
    /// A user the user can no longer see: its ID and the name to show for it instead.
    Remove(PersonChange),
    /// A user changed: name, email, active, role.
    Update(PersonChange),
    /// An op this client does not know.
    Other(String),
}

/// The `person` of a `realm_user` update or removal: its ID and what changed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PersonChange {
    pub user_id: UserId,
    #[serde(default)]
    pub full_name: Option<String>,
    #[serde(default)]
    pub new_email: Option<String>,
    #[serde(default)]
    pub is_active: Option<bool>,
    #[serde(default)]
    pub role: Option<i64>,
}

#[derive(Deserialize)]
struct RawRealmUserEvent {
    op: String,
    #[serde(default)]
    person: Option<serde_json::Value>,
}

impl TryFrom<RawRealmUserEvent> for RealmUserEvent {
    type Error = &'static str;
    fn try_from(r: RawRealmUserEvent) -> Result<Self, Self::Error> {
        let person = || r.person.clone().ok_or("missing field `person`");
        let change = || serde_json::from_value(person()?).map_err(|_| "a `person` of another shape");
        Ok(match r.op.as_str() {
            "add" => Self::Add(serde_json::from_value(person()?).map_err(|_| "a `person` of another shape")?),
            "remove" => Self::Remove(change()?),
            "update" => Self::Update(change()?),
            _ => Self::Other(r.op),
        })
    }
}

/// A `user_group` event.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawUserGroupEvent")]
pub enum UserGroupEvent {
    Add(UserGroup),
    /// The group's name, description or settings changed (this client does not show them).
    Update {
        group_id: i64,
    },
    Remove {
        group_id: i64,
    },
    AddMembers {
        group_id: i64,
        user_ids: Vec<UserId>,
    },
    RemoveMembers {
        group_id: i64,
        user_ids: Vec<UserId>,
    },
    AddSubgroups {
        group_id: i64,
        subgroup_ids: Vec<i64>,
    },
    RemoveSubgroups {
        group_id: i64,
        subgroup_ids: Vec<i64>,
    },
    /// An op this client does not know.
    Other(String),
}

#[derive(Deserialize)]
struct RawUserGroupEvent {
    op: String,
    #[serde(default)]
    group_id: Option<i64>,
    #[serde(default)]
    group: Option<UserGroup>,
    #[serde(default)]
    user_ids: Option<Vec<UserId>>,
    #[serde(default)]
    direct_subgroup_ids: Option<Vec<i64>>,
}

impl TryFrom<RawUserGroupEvent> for UserGroupEvent {
    type Error = &'static str;
    fn try_from(r: RawUserGroupEvent) -> Result<Self, Self::Error> {
        let group_id = || r.group_id.ok_or("missing field `group_id`");
        let user_ids = || r.user_ids.clone().ok_or("missing field `user_ids`");
        let subgroup_ids = || r.direct_subgroup_ids.clone().ok_or("missing field `direct_subgroup_ids`");
        Ok(match r.op.as_str() {
            "add" => Self::Add(r.group.clone().ok_or("missing field `group`")?),
            "update" => Self::Update { group_id: group_id()? },
            "remove" => Self::Remove { group_id: group_id()? },
            "add_members" => Self::AddMembers { group_id: group_id()?, user_ids: user_ids()? },
            "remove_members" => Self::RemoveMembers { group_id: group_id()?, user_ids: user_ids()? },
            "add_subgroups" => Self::AddSubgroups { group_id: group_id()?, subgroup_ids: subgroup_ids()? },
            "remove_subgroups" => {
                Self::RemoveSubgroups { group_id: group_id()?, subgroup_ids: subgroup_ids()? }
            }
            _ => Self::Other(r.op),
        })
    }
}
