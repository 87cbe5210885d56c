//! The event queue: register, long-poll for events, delete.

use super::channels::IncludeSubscribers;
use super::error::{ApiError, Result};
use super::events::{Event, EventsResponse, RegisterResponse};
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde_json::Value;
use std::time::Duration;

/// Parameters of `POST /register`.
#[derive(Debug, Clone, Default)]
pub struct RegisterParams {
    pub event_types: Option<Vec<String>>,
    pub fetch_event_types: Option<Vec<String>>,
    pub apply_markdown: Option<bool>,
    pub client_gravatar: Option<bool>,
    pub include_subscribers: Option<IncludeSubscribers>,
    pub slim_presence: Option<bool>,
    pub all_public_streams: Option<bool>,
    pub narrow: Option<Vec<(String, String)>>,
    pub client_capabilities: Option<Value>,
    /// How long the queue lives without a poll, in seconds (level 481; an older server ignores
    /// it and keeps a queue 10 minutes).
    pub idle_queue_timeout: Option<u64>,
}

impl RegisterParams {
    /// The form fields of the request.
    pub fn params(&self) -> Params {
        let r = self;
        Params::new()
            .opt_json("event_types", r.event_types.as_ref())
            .opt_json("fetch_event_types", r.fetch_event_types.as_ref())
            .opt("apply_markdown", r.apply_markdown)
            .opt("client_gravatar", r.client_gravatar)
            .opt("include_subscribers", r.include_subscribers)
            .opt("slim_presence", r.slim_presence)
            .opt("all_public_streams", r.all_public_streams)
            .opt_json("narrow", r.narrow.as_ref())
            .opt_json("client_capabilities", r.client_capabilities.as_ref())
            .opt("idle_queue_timeout", r.idle_queue_timeout)
    }
}

#[cfg(feature = "http")]
impl Client {
    /// `POST /register`. Records the server's feature level and limits in this client.
    /// The answer is taken as the server gave it; [`Client::register_whole`] also reads on their
    /// own the sections it lacks. Its `narrow` is spoken in the terms of the level known from
    /// an earlier register ([`super::levels::Level::events_narrow`]), as every narrow is.
    pub async fn register(&self, r: &RegisterParams) -> Result<RegisterResponse> {
        let mut params = r.clone();
        params.narrow = r.narrow.as_deref().map(|n| self.level().events_narrow(n));
        let resp: RegisterResponse = self.call(Method::POST, "/register", params.params()).await?;
        let mut info = self.server_info();
        info.feature_level = Some(resp.zulip_feature_level);
        info.max_message_length = resp.max_message_length.or(info.max_message_length);
        info.max_topic_length = resp.max_topic_length.or(info.max_topic_length);
        info.empty_topic_display_name =
            resp.realm_empty_topic_display_name.clone().or(info.empty_topic_display_name);
        self.set_server_info(info);
        Ok(resp)
    }

    /// `POST /register`, then the users (`GET /users`) and the subscriptions
    /// (`GET /users/me/subscriptions`) on their own when they were asked for and the answer
    /// lacks them (the spec's own example answer has no `realm_users`): taken as it is, such an
    /// answer would show an organization without its people ("(unknown user)" in every
    /// conversation) or its channels. What was read on its own is named in
    /// [`RegisterResponse::lacked`]; a failure to read it is the register's failure. An answer
    /// without a queue (`queue_id` missing or `null`) when events were asked for is unreadable:
    /// taken, it would leave the client without events, and never registering again.
    pub async fn register_whole(&self, r: &RegisterParams) -> Result<RegisterResponse> {
        let mut resp = self.register(r).await?;
        if resp.queue_id.is_none() && r.event_types.as_ref().is_none_or(|t| !t.is_empty()) {
            return Err(ApiError::Decode {
                status: 200,
                message: "/register: an answer without a queue_id".into(),
            });
        }
        // What the answer carries: `fetch_event_types`, else `event_types`, else everything.
        let fetched = r.fetch_event_types.as_ref().or(r.event_types.as_ref());
        let asked = |t: &str| fetched.is_none_or(|f| f.iter().any(|x| x == t));
        if asked("realm_user") && resp.realm_users.is_none() {
            // `GET /users` lists the deactivated too, each with its `is_active`.
            resp.realm_users = Some(self.get_users().await?.members.into());
            resp.lacked.push("realm_users");
        }
        if asked("subscription") && resp.subscriptions.is_none() {
            resp.subscriptions = Some(self.get_subscriptions(None).await?.subscriptions);
            resp.lacked.push("subscriptions");
        }
        Ok(resp)
    }

    /// `GET /events`: long-polls up to `timeout` (use the server's
    /// `event_queue_longpoll_timeout_seconds` plus a margin). Events are decoded one by one.
    pub async fn get_events(
        &self,
        queue_id: &str,
        last_event_id: i64,
        dont_block: bool,
        timeout: Duration,
    ) -> Result<Vec<Event>> {
        let p = Params::new()
            .add("queue_id", queue_id)
            .add("last_event_id", last_event_id)
            .add("dont_block", dont_block);
        let resp: EventsResponse = self.call_with_timeout(Method::GET, "/events", p, timeout).await?;
        Ok(resp.events.iter().map(|e| Event::decode_str(e.get())).collect())
    }

    /// `DELETE /events`.
    pub async fn delete_queue(&self, queue_id: &str) -> Result<Ack> {
        self.call(Method::DELETE, "/events", Params::new().add("queue_id", queue_id)).await
    }
}
