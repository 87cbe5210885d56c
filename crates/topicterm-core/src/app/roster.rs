//! Who is in the organization, read off the first frame's path. Register's lists of users (and
//! the last session's) are kept as JSON ([`Later`]) when the answer is decoded; applying the
//! answer asks for them to be read (`Effect::ReadUsers`, on a blocking thread) and the users map
//! arrives whole (`Msg::Users`), after the first frame. Until then a name not yet known shows as
//! `users::NOT_YET`, and event batches wait: an event about a user must land on the map that lists
//! them. A leaf: it names no `State`.

use super::users::{UserInfo, role_of};
use crate::api::{Later, User, UserGroup, UserId, UserStatus};
use std::collections::HashMap;

/// Register's lists of users, each with whether its users are active, their statuses, and the
/// user groups.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Roster {
    pub lists: Vec<(Later<User>, bool)>,
    pub statuses: HashMap<String, UserStatus>,
    pub groups: Option<Later<UserGroup>>,
}

/// A roster read: the users and the user groups, by ID.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Roll {
    pub users: HashMap<UserId, UserInfo>,
    pub groups: HashMap<i64, UserGroup>,
}

impl Roster {
    /// The users and groups maps (O(users): run off the main task).
    pub fn read(self) -> Roll {
        let groups =
            self.groups.map(Later::read).unwrap_or_default().into_iter().map(|g| (g.id, g)).collect();
        Roll { users: users(self.lists, self.statuses), groups }
    }
}

/// The users of every list, each with their status.
fn users(
    lists: Vec<(Later<User>, bool)>,
    mut statuses: HashMap<String, UserStatus>,
) -> HashMap<UserId, UserInfo> {
    let mut users = HashMap::new();
    for (list, active) in lists {
        for u in list.read() {
            let status = statuses.remove(&u.user_id.to_string()).unwrap_or_default();
            users.insert(
                u.user_id,
                UserInfo {
                    id: u.user_id,
                    role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
                    full_name: u.full_name,
                    email: u.email,
                    is_bot: u.is_bot,
                    // Active or not by the list a user is in (register sends no `is_active`).
                    is_active: active && u.is_active,
                    presence_enabled: u.presence_enabled,
                    status,
                },
            );
        }
    }
    users
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_read_with_its_statuses_and_whether_its_users_are_active() {
        let list = |json: &str| serde_json::from_str::<Later<User>>(json).unwrap();
        let mut statuses = HashMap::new();
        statuses.insert("2".to_owned(), UserStatus { status_text: "away".into(), ..Default::default() });
        let roster = Roster {
            lists: vec![
                (list(r#"[{"user_id": 1, "full_name": "Ann", "email": "a@x", "role": 200}]"#), true),
                (list(r#"[{"user_id": 2, "full_name": "Bo", "email": "b@x"}, {"user_id": "x"}]"#), false),
            ],
            statuses,
            groups: Some(
                serde_json::from_str(r#"[{"id": 5, "name": "backend", "members": [1]}, {"id": "x"}]"#)
                    .unwrap(),
            ),
        };
        let Roll { users, groups } = roster.read();
        assert_eq!(groups.len(), 1, "the unreadable group left out");
        assert_eq!(groups[&5].name, "backend");
        assert_eq!(users.len(), 2, "the unreadable user left out, the others kept");
        assert!(users[&1].is_active && users[&1].is_admin());
        assert!(!users[&2].is_active, "from the list of deactivated users");
        assert_eq!(users[&2].status.status_text, "away");
    }
}
