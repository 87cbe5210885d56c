//! The routes of the demo server.

mod drafts;
mod messages;
mod misc;
mod narrow;
mod scheduled;
mod subs;
mod users;

use super::Shared;
use super::error::ApiErr;
use axum::Router;
use axum::http::StatusCode;
use axum::routing::{delete, get, patch, post};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

pub type Json = axum::Json<Value>;
pub type Res = Result<Json, ApiErr>;

/// Report types by feature level (from the registration response since 435).
pub fn report_types(_feature_level: i64) -> Vec<(&'static str, &'static str)> {
    vec![
        ("spam", "Spam"),
        ("harassment", "Harassment"),
        ("inappropriate", "Inappropriate content"),
        ("norms", "Violates community norms"),
        ("other", "Other reason"),
    ]
}

pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/register", post(misc::register))
        .route("/events", get(misc::get_events).delete(misc::delete_queue))
        .route("/messages", get(messages::get_messages).post(messages::send))
        .route("/messages/flags", post(messages::flags))
        .route("/messages/flags/narrow", post(messages::flags_narrow))
        .route("/messages/{id}", get(messages::get_message).patch(messages::update_message))
        .route("/messages/{id}/history", get(messages::history))
        .route("/messages/{id}/reactions", post(messages::add_reaction).delete(messages::remove_reaction))
        .route("/messages/{id}/report", post(messages::report))
        .route("/messages/{id}/typing", post(messages::edit_typing))
        .route("/message_edit_typing", post(messages::edit_typing_legacy))
        .route("/typing", post(messages::typing))
        .route("/mark_topic_as_read", post(messages::mark_topic_read))
        .route("/scheduled_messages", get(scheduled::list).post(scheduled::create))
        .route("/scheduled_messages/{id}", patch(scheduled::update).delete(scheduled::delete))
        .route("/drafts", get(drafts::list).post(drafts::create))
        .route("/drafts/{id}", patch(drafts::edit).delete(drafts::delete))
        .route("/settings", patch(drafts::update_settings))
        .route("/user_topics", post(subs::user_topic))
        .route("/users/me/subscriptions", get(subs::list).post(subs::subscribe).delete(subs::unsubscribe))
        .route("/users/me/subscriptions/muted_topics", patch(subs::muted_topics))
        .route("/users/me/subscriptions/properties", post(subs::properties))
        .route("/users/me/{stream_id}/topics", get(subs::topics))
        .route("/streams", get(subs::streams))
        .route("/streams/{id}", delete(subs::archive))
        .route("/streams/{id}/email_address", get(subs::email_address))
        .route("/users/me/presence", post(users::presence))
        .route("/realm/presence", get(users::realm_presence))
        .route("/users/me/status", post(users::status))
        .route("/users/me/apns_device_token", post(users::apns))
        .route("/users", get(users::users))
        .route("/users/me", get(users::me))
        .route("/users/{id}", delete(users::deactivate))
        .route("/users/{id}/status", get(users::get_status))
        .route("/user_groups", get(users::groups))
        .route("/user_groups/{id}/members", post(users::group_members))
        .route("/navigation_views", get(misc::nav_views))
        .route("/navigation_views/{*fragment}", patch(misc::update_nav_view))
        .route("/realm", patch(misc::update_realm))
        .route("/realm/playgrounds", post(users::add_playground))
        .route("/server_settings", get(users::server_settings))
        .route("/fetch_api_key", post(users::fetch_api_key))
        .route("/demo/expire_queues", post(misc::expire_queues))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let counter = shared.clone();
    Router::new()
        .nest("/api/v1", api)
        .route("/user_uploads/{*path}", get(misc::upload))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
            counter.requests.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            next.run(req)
        }))
        .with_state(shared)
}

async fn not_found() -> ApiErr {
    ApiErr::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Invalid API endpoint")
}

async fn method_not_allowed() -> ApiErr {
    ApiErr::new(StatusCode::METHOD_NOT_ALLOWED, "BAD_REQUEST", "Method not allowed for this endpoint")
}

/// POST queued outgoing-webhook payloads; a bot's reply (`{"content": …}`) is sent back into
/// the conversation as the bot.
pub fn dispatch_webhooks(s: &Arc<Shared>) {
    let jobs = std::mem::take(&mut s.lock().webhook_jobs);
    for job in jobs {
        let s = s.clone();
        tokio::spawn(async move {
            let resp = s.http.post(&job.url).json(&job.payload).send().await;
            let body: Option<Value> = match resp {
                Ok(r) if r.status().is_success() => r.json().await.ok(),
                Ok(r) => {
                    tracing::warn!("outgoing webhook to {} answered {}", job.url, r.status());
                    None
                }
                Err(e) => {
                    tracing::warn!("outgoing webhook to {} failed: {e}", job.url);
                    None
                }
            };
            let Some(content) = body.as_ref().and_then(|b| b.get("content")).and_then(Value::as_str) else {
                return;
            };
            if content.trim().is_empty() {
                return;
            }
            let msg_id = job.payload["message"]["id"].as_i64().unwrap_or(0);
            {
                let mut org = s.lock();
                let Some(recip) = org.messages.get(&msg_id).map(|m| m.recip.clone()) else { return };
                let recip = match recip {
                    super::org::Recip::Dm { mut users } => {
                        users.push(job.bot_id);
                        users.sort_unstable();
                        users.dedup();
                        super::org::Recip::Dm { users }
                    }
                    other => other,
                };
                if let Err(e) = org.send(job.bot_id, recip, content, "ZulipOutgoingWebhook", None, None) {
                    tracing::warn!("webhook bot reply refused: {}", e.msg);
                }
            }
            dispatch_webhooks(&s);
        });
    }
}

/// Deliver due scheduled messages forever.
pub async fn scheduler_loop(shared: Arc<Shared>, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    loop {
        interval.tick().await;
        let delivered = {
            let mut org = shared.lock();
            let at = org.now();
            org.deliver_due(at)
        };
        if delivered {
            dispatch_webhooks(&shared);
        }
    }
}
