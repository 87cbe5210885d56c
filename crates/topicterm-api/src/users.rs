//! Users: the user list, status, deactivation, group membership, push tokens.

use super::error::{LimitError, Result};
use super::limits;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};

/// Status change (operation 8); only given fields change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusUpdate {
    pub status_text: Option<String>,
    pub emoji_name: Option<String>,
    pub emoji_code: Option<String>,
    pub reaction_type: Option<String>,
    pub away: Option<bool>,
}

/// What to delete along with a deactivated user (feature level 459).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct DeactivationActions {
    #[serde(default)]
    pub delete_profile: bool,
    #[serde(default)]
    pub delete_public_channel_messages: bool,
    #[serde(default)]
    pub delete_private_channel_messages: bool,
    #[serde(default)]
    pub delete_direct_messages: bool,
}

/// Changes to a user group's members and subgroups (operation 16).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupMembersUpdate {
    pub add: Option<Vec<UserId>>,
    pub delete: Option<Vec<UserId>>,
    pub add_subgroups: Option<Vec<i64>>,
    pub delete_subgroups: Option<Vec<i64>>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AlertWordsResponse {
    pub alert_words: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UsersResponse {
    pub members: Vec<User>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UserGroupsResponse {
    pub user_groups: Vec<UserGroup>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UserResponse {
    pub user: User,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[cfg(feature = "http")]
impl Client {
    /// Operation 8: `POST /users/me/status`.
    pub async fn update_status(&self, s: &StatusUpdate) -> Result<Ack> {
        if let Some(t) = &s.status_text {
            limits::check_status_text(t)?;
        }
        limits::check_emoji_triplet(
            s.emoji_name.as_deref(),
            s.emoji_code.as_deref(),
            s.reaction_type.as_deref(),
        )?;
        if s.status_text.is_none()
            && s.emoji_name.is_none()
            && s.emoji_code.is_none()
            && s.reaction_type.is_none()
            && s.away.is_none()
        {
            return Err(LimitError::NothingToChange.into());
        }
        let p = Params::new()
            .opt("status_text", s.status_text.as_ref())
            .opt("emoji_name", s.emoji_name.as_ref())
            .opt("emoji_code", s.emoji_code.as_ref())
            .opt("reaction_type", s.reaction_type.as_ref())
            .opt("away", s.away);
        self.call(Method::POST, "/users/me/status", p).await
    }

    /// Operation 12: `POST /users/me/apns_device_token` (deprecated since 406).
    pub async fn add_apns_token(&self, token: &str, appid: Option<&str>) -> Result<Ack> {
        if token.is_empty() {
            return Err(LimitError::EmptyToken.into());
        }
        let p = Params::new().add("token", token).opt("appid", appid);
        self.call(Method::POST, "/users/me/apns_device_token", p).await
    }

    /// Operation 14: `DELETE /users/{id}` (administrators only).
    pub async fn deactivate_user(
        &self,
        user_id: UserId,
        actions: Option<&DeactivationActions>,
        notification_comment: Option<&str>,
    ) -> Result<Ack> {
        // An older server ignores `actions`: it would deactivate and delete nothing, while the
        // user was told their messages would go.
        if actions.is_some() {
            self.level().require(
                super::levels::DEACTIVATE_ACTIONS,
                "deleting a deactivated user's messages",
                "Zulip 12.0",
            )?;
        }
        let p = Params::new()
            .opt_json("actions", actions)
            .opt("deactivation_notification_comment", notification_comment);
        self.call(Method::DELETE, &format!("/users/{user_id}"), p).await
    }

    /// Operation 16: `POST /user_groups/{id}/members`.
    pub async fn update_user_group_members(&self, group_id: i64, u: &GroupMembersUpdate) -> Result<Ack> {
        let p = Params::new()
            .opt_json("add", u.add.as_ref())
            .opt_json("delete", u.delete.as_ref())
            .opt_json("add_subgroups", u.add_subgroups.as_ref())
            .opt_json("delete_subgroups", u.delete_subgroups.as_ref());
        if p.pairs().is_empty() {
            return Err(LimitError::NothingToChange.into());
        }
        self.call(Method::POST, &format!("/user_groups/{group_id}/members"), p).await
    }

    /// `GET /users`.
    pub async fn get_users(&self) -> Result<UsersResponse> {
        self.call(Method::GET, "/users", Params::new()).await
    }

    /// `GET /users/me`: the user's own record (its fields at the top of the answer).
    pub async fn get_own_user(&self) -> Result<User> {
        self.call(Method::GET, "/users/me", Params::new()).await
    }

    /// `GET /user_groups`: every user group of the organization.
    pub async fn get_user_groups(&self) -> Result<UserGroupsResponse> {
        self.call(Method::GET, "/user_groups", Params::new()).await
    }

    /// `POST /users/me/muted_users/{id}`: their messages arrive read and are hidden.
    pub async fn mute_user(&self, user: UserId) -> Result<Ack> {
        self.call(Method::POST, &format!("/users/me/muted_users/{user}"), Params::new()).await
    }

    /// `DELETE /users/me/muted_users/{id}`.
    pub async fn unmute_user(&self, user: UserId) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/users/me/muted_users/{user}"), Params::new()).await
    }

    /// `GET /users/me/alert_words`.
    pub async fn get_alert_words(&self) -> Result<AlertWordsResponse> {
        self.call(Method::GET, "/users/me/alert_words", Params::new()).await
    }

    /// `POST /users/me/alert_words`: the list after adding.
    pub async fn add_alert_words(&self, words: &[String]) -> Result<AlertWordsResponse> {
        self.call(Method::POST, "/users/me/alert_words", Params::new().json("alert_words", &words)).await
    }

    /// `DELETE /users/me/alert_words`: the list after removing.
    pub async fn remove_alert_words(&self, words: &[String]) -> Result<AlertWordsResponse> {
        self.call(Method::DELETE, "/users/me/alert_words", Params::new().json("alert_words", &words)).await
    }

    /// `GET /users/{user_id}`; `profile`: with the custom profile field values.
    pub async fn get_user(&self, user_id: UserId, profile: bool) -> Result<UserResponse> {
        let p = Params::new().add("include_custom_profile_fields", profile);
        self.call(Method::GET, &format!("/users/{user_id}"), p).await
    }

    /// `GET /users/{email}` (the API email, as the server shows it).
    pub async fn get_user_by_email(&self, email: &str, profile: bool) -> Result<UserResponse> {
        if email.is_empty() {
            return Err(LimitError::EmptyEmail.into());
        }
        let p = Params::new().add("include_custom_profile_fields", profile);
        let path = format!("/users/{}", crate::urls::uri_component(email));
        self.call(Method::GET, &path, p).await
    }
}
