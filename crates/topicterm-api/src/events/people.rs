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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Event, EventKind};
    use serde_json::{Value, json};

    fn kind(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    #[test]
    fn realm_user_events_decode_per_op() {
        let person = json!({"user_id": 12, "full_name": "New Person", "email": "n@x"});
        let added = kind(json!({"type": "realm_user", "op": "add", "person": person}));
        assert!(
            matches!(&added, EventKind::RealmUser(RealmUserEvent::Add(u)) if u.user_id == 12),
            "{added:?}"
        );
        let change = PersonChange {
            user_id: 12,
            full_name: None,
            new_email: Some("m@x".into()),
            is_active: Some(false),
            role: Some(400),
        };
        let updated = json!({"type": "realm_user", "op": "update",
            "person": {"user_id": 12, "new_email": "m@x", "is_active": false, "role": 400, "avatar_url": "/a"}});
        assert_eq!(kind(updated), EventKind::RealmUser(RealmUserEvent::Update(change)));
        let removed = kind(
            json!({"type": "realm_user", "op": "remove", "person": {"user_id": 12, "full_name": "Unknown user"}}),
        );
        assert!(
            matches!(&removed, EventKind::RealmUser(RealmUserEvent::Remove(p)) if p.full_name.as_deref() == Some("Unknown user")),
            "{removed:?}"
        );
        assert_eq!(
            kind(json!({"type": "realm_user", "op": "merge", "person": {}})),
            EventKind::RealmUser(RealmUserEvent::Other("merge".into()))
        );
        for broken in [
            json!({"type": "realm_user", "op": "update"}),
            json!({"type": "realm_user", "op": "update", "person": {"user_id": "twelve"}}),
            json!({"type": "realm_user", "op": "add", "person": {"full_name": "no ID"}}),
        ] {
            let k = kind(broken.clone());
            assert!(
                matches!(&k, EventKind::Malformed { event_type, .. } if event_type == "realm_user"),
                "{broken} → {k:?}"
            );
        }
    }

    #[test]
    fn user_group_events_decode_per_op() {
        let group = |v: Value| match kind(v) {
            EventKind::UserGroup(g) => g,
            other => panic!("not a user_group event: {other:?}"),
        };
        let added = group(
            json!({"type": "user_group", "op": "add", "group": {"id": 5, "name": "backend", "members": [10]}}),
        );
        assert!(matches!(&added, UserGroupEvent::Add(g) if g.id == 5 && g.members == [10]), "{added:?}");
        let members = |op| json!({"type": "user_group", "op": op, "group_id": 5, "user_ids": [11]});
        assert_eq!(
            group(members("add_members")),
            UserGroupEvent::AddMembers { group_id: 5, user_ids: vec![11] }
        );
        assert_eq!(
            group(members("remove_members")),
            UserGroupEvent::RemoveMembers { group_id: 5, user_ids: vec![11] }
        );
        let subgroups =
            |op| json!({"type": "user_group", "op": op, "group_id": 5, "direct_subgroup_ids": [6]});
        assert_eq!(
            group(subgroups("add_subgroups")),
            UserGroupEvent::AddSubgroups { group_id: 5, subgroup_ids: vec![6] }
        );
        assert_eq!(
            group(subgroups("remove_subgroups")),
            UserGroupEvent::RemoveSubgroups { group_id: 5, subgroup_ids: vec![6] }
        );
        let update = json!({"type": "user_group", "op": "update", "group_id": 5, "data": {"name": "be"}});
        assert_eq!(group(update), UserGroupEvent::Update { group_id: 5 });
        assert_eq!(
            group(json!({"type": "user_group", "op": "remove", "group_id": 5})),
            UserGroupEvent::Remove { group_id: 5 }
        );
        assert_eq!(
            group(json!({"type": "user_group", "op": "split"})),
            UserGroupEvent::Other("split".into())
        );
        let broken = kind(json!({"type": "user_group", "op": "add_members", "group_id": 5}));
        assert!(
            matches!(&broken, EventKind::Malformed { event_type, .. } if event_type == "user_group"),
            "{broken:?}"
        );
    }
}
