//! Invitations by email (`POST /invites`).

use super::error::{ApiError, LimitError, Result};
use super::levels;
use super::models::ChannelId;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An address the server did not invite, and why (its words: "Already has an account.").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub email: String,
    pub reason: String,
    /// The address belongs to a deactivated account.
    pub deactivated: bool,
}

/// What an invitation did: everyone invited but `skipped`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invited {
    pub skipped: Vec<Skipped>,
}

/// The addresses an `INVITATION_FAILED` refusal lists (`errors`: `[email, reason, deactivated]`
/// each; what does not have that shape is left out), and whether some invitations were sent all
/// the same.
pub fn invitation_failure(e: &ApiError) -> Option<(Vec<Skipped>, bool)> {
    let s = e.server().filter(|s| s.code == "INVITATION_FAILED")?;
    let skipped = s
        .extra
        .get("errors")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|row| match row.as_array()?.as_slice() {
                    [email, reason, rest @ ..] => Some(Skipped {
                        email: email.as_str()?.to_owned(),
                        reason: reason.as_str()?.to_owned(),
                        deactivated: rest.first().and_then(Value::as_bool).unwrap_or(false),
                    }),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let sent = s.extra.get("sent_invitations").and_then(Value::as_bool).unwrap_or(false);
    Some((skipped, sent))
}

#[cfg(feature = "http")]
impl Client {
    /// `POST /invites`: invite `emails` to join, into `channels` — or, none named, the
    /// organization's default channels (`include_realm_default_subscriptions`, from
    /// [`levels::INVITE_DEFAULT_CHANNELS`]; an older server needs them named). A refusal that
    /// says some invitations were sent (some addresses already have accounts) is a success
    /// naming those skipped.
    pub async fn send_invites(&self, emails: &[String], channels: &[ChannelId]) -> Result<Invited> {
        if emails.iter().all(|e| e.trim().is_empty()) {
            return Err(LimitError::NoInvitees.into());
        }
        let defaults = channels.is_empty();
        if defaults {
            self.level().require(
                levels::INVITE_DEFAULT_CHANNELS,
                "invitations to the default channels",
                "Zulip 9.0",
            )?;
        }
        let p = Params::new()
            .add("invitee_emails", emails.join(","))
            .json("stream_ids", &channels)
            .opt("include_realm_default_subscriptions", defaults.then_some(true));
        match self.call::<Value>(Method::POST, "/invites", p).await {
            Ok(_) => Ok(Invited::default()),
            Err(e) => match invitation_failure(&e) {
                Some((skipped, true)) => Ok(Invited { skipped }),
                _ => Err(e),
            },
        }
    }
}
