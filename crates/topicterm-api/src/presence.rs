//! Presence: reporting this client's presence and reading others'.

use super::error::Result;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;

/// Presence report (operation 5).
#[derive(Debug, Clone)]
pub struct PresenceUpdate {
    pub status: PresenceStatus,
    pub last_update_id: Option<i64>,
    pub history_limit_days: Option<u32>,
    pub ping_only: Option<bool>,
    pub new_user_input: Option<bool>,
    pub slim_presence: Option<bool>,
}

impl PresenceUpdate {
    pub fn new(status: PresenceStatus) -> Self {
        PresenceUpdate {
            status,
            last_update_id: None,
            history_limit_days: None,
            ping_only: None,
            new_user_input: None,
            slim_presence: None,
        }
    }
}

#[cfg(feature = "http")]
impl Client {
    /// Operation 5: `POST /users/me/presence`.
    pub async fn update_presence(&self, u: &PresenceUpdate) -> Result<PresenceResponse> {
        // Before `last_update_id`, only `slim_presence` gets the modern format (by user ID).
        let slim = u.slim_presence.or_else(|| {
            (u.last_update_id.is_some() && !self.level().has(super::levels::PRESENCE_LAST_UPDATE_ID))
                .then_some(true)
        });
        let p = Params::new()
            .add("status", u.status.as_str())
            // Not to a server that does not know it (it warns of each ping in its log).
            .opt(
                "last_update_id",
                u.last_update_id.filter(|_| self.level().has(super::levels::PRESENCE_LAST_UPDATE_ID)),
            )
            .opt("history_limit_days", u.history_limit_days)
            .opt("ping_only", u.ping_only)
            .opt("new_user_input", u.new_user_input)
            .opt("slim_presence", slim);
        self.call(Method::POST, "/users/me/presence", p).await
    }
}
