//! The routes of the demo server.

mod admin;
pub mod background;
mod common;
mod daily;
mod drafts;
mod edits;
pub mod exports;
mod flags;
mod invites;
mod me;
mod messages;
mod misc;
mod narrow;
mod org_admin;
mod profile_fields;
mod reactions;
mod reading;
mod realm_state;
mod scheduled;
mod settings;
mod sso;
mod subs;
mod typing;
mod users;

use super::error::ApiErr;
use super::shared::Shared;
use axum::Router;
use axum::routing::{get, patch, post};
use std::sync::Arc;

pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .merge(message_routes())
        .merge(channel_routes())
        .merge(people_routes())
        .fallback(not_found)
        .method_not_allowed_fallback(common::method_not_allowed);
    let counter = shared.clone();
    Router::new()
        .nest("/api/v1", api)
        .route("/accounts/login/social/{backend}", get(sso::sign_in_page).post(sso::sign_in))
        .route("/accounts/login/subdomain/{token}", get(sso::log_into_subdomain))
        .route("/json/fetch_api_key", post(sso::json_fetch_api_key))
        .route("/user_uploads/{*path}", get(misc::upload))
        .route("/user_avatars/exports/{*path}", get(exports::download))
        .fallback(not_found)
        // gzip, brotli or deflate for clients that accept them (a register answer is ~14× smaller).
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
            counter.requests.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut log = counter.request_log.lock().unwrap_or_else(|p| p.into_inner());
            if log.len() == crate::shared::REQUEST_LOG_LEN {
                log.pop_front();
            }
            log.push_back(format!("{} {}", req.method(), req.uri()));
            drop(log);
            next.run(req)
        }))
        .with_state(shared)
}

/// Messages and what is said about them: flags, reactions, typing, drafts, reminders.
fn message_routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/register", post(misc::register))
        .route("/events", get(misc::get_events).delete(misc::delete_queue))
        .route("/messages", get(reading::get_messages).post(messages::send))
        .route("/messages/flags", post(flags::flags))
        .route("/messages/flags/narrow", post(flags::flags_narrow))
        .route(
            "/messages/{id}",
            get(reading::get_message).patch(messages::update_message).delete(messages::delete_message),
        )
        .route("/messages/{id}/history", get(reading::history))
        .route("/messages/{id}/read_receipts", get(daily::read_receipts))
        .route("/messages/render", post(daily::render))
        .route("/messages/matches_narrow", get(daily::matches_narrow))
        .route("/saved_snippets", get(daily::snippets).post(daily::create_snippet))
        .route("/saved_snippets/{id}", patch(daily::edit_snippet).delete(daily::delete_snippet))
        .route("/reminders", get(daily::reminders).post(daily::create_reminder))
        .route("/reminders/{id}", axum::routing::delete(daily::delete_reminder))
        .route("/messages/{id}/reactions", post(reactions::add_reaction).delete(reactions::remove_reaction))
        .route("/messages/{id}/report", post(messages::report))
        .route("/messages/{id}/typing", post(typing::edit_typing))
        .route("/message_edit_typing", post(typing::edit_typing_legacy))
        .route("/typing", post(typing::typing))
        .route("/mark_topic_as_read", post(flags::mark_topic_read))
        .route("/mark_all_as_read", post(flags::mark_all_read))
        .route("/mark_stream_as_read", post(flags::mark_channel_read))
        .route("/scheduled_messages", get(scheduled::list).post(scheduled::create))
        .route("/scheduled_messages/{id}", patch(scheduled::update).delete(scheduled::delete))
        .route("/drafts", get(drafts::list).post(drafts::create))
        .route("/drafts/{id}", patch(drafts::edit).delete(drafts::delete))
}

/// Settings, subscriptions, channels and their folders, invitations, the realm's lists.
fn channel_routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/settings", patch(settings::update))
        // The legacy paths of the same operation.
        .route("/settings/display", patch(settings::update))
        .route("/settings/notifications", patch(settings::update))
        .route("/user_topics", post(subs::user_topic))
        .route(
            "/users/me/subscriptions",
            get(subs::list).post(subs::subscribe).delete(subs::unsubscribe).patch(subs::update_subscriptions),
        )
        .route("/users/me/subscriptions/muted_topics", patch(subs::muted_topics))
        .route("/users/me/subscriptions/properties", post(subs::properties))
        .route("/users/me/{stream_id}/topics", get(subs::topics))
        .route("/streams", get(subs::streams))
        .route("/streams/{id}", get(subs::stream).delete(subs::archive).patch(admin::update_stream))
        .route("/streams/{id}/email_address", get(subs::email_address))
        .route("/streams/{id}/members", get(org_admin::members))
        .route("/streams/{id}/delete_topic", post(org_admin::delete_topic))
        .route("/users/{id}/subscriptions/{stream_id}", get(org_admin::subscription_status))
        .route(
            "/realm/profile_fields",
            get(profile_fields::list).post(profile_fields::create).patch(profile_fields::reorder),
        )
        .route("/export/realm", get(exports::list).post(exports::create))
        .route("/export/realm/consents", get(exports::consents))
        .route("/export/realm/{id}", axum::routing::delete(exports::delete))
        .route("/realm/test_welcome_bot_custom_message", post(org_admin::test_welcome_message))
        .route("/channels/create", post(org_admin::create_channel))
        .route("/channel_folders", get(org_admin::channel_folders).patch(org_admin::reorder_folders))
        .route("/channel_folders/create", post(org_admin::create_folder))
        .route("/channel_folders/{id}", patch(org_admin::update_folder))
        .route("/invites", get(invites::list).post(invites::send))
        .route("/invites/multiuse", post(invites::create_link))
        .route("/invites/multiuse/{id}", axum::routing::delete(invites::revoke_link))
        .route("/invites/{id}", axum::routing::delete(invites::revoke))
        .route("/invites/{id}/resend", post(invites::resend))
        .route("/default_streams", post(invites::add_default_channel).delete(edits::remove_default_channel))
        .route("/realm/filters", post(invites::add_linkifier))
        .route("/realm/filters/{id}", patch(edits::update_linkifier).delete(edits::remove_linkifier))
        .route("/realm/emoji/{name}", post(invites::upload_emoji).delete(invites::deactivate_emoji))
        .route("/attachments", get(org_admin::attachments))
        .route("/attachments/{id}", axum::routing::delete(org_admin::delete_attachment))
}

/// Users, presence, statuses, groups, saved views, and the rest of the organization.
fn people_routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/users/me/presence", post(users::presence))
        .route("/realm/presence", get(users::realm_presence))
        .route("/users/me/status", post(users::status))
        .route("/users/me/muted_users/{id}", post(me::mute_user).delete(me::unmute_user))
        .route(
            "/users/me/alert_words",
            get(me::alert_words).post(me::add_alert_words).delete(me::remove_alert_words),
        )
        .route("/users/me/apns_device_token", post(users::apns).delete(edits::remove_apns))
        .route("/users/me/android_gcm_reg_id", post(edits::add_fcm).delete(edits::remove_fcm))
        .route("/mobile_push/register", post(edits::register_push_device))
        .route("/users", get(users::users).post(admin::create_user))
        .route("/users/me", get(users::me).delete(users::deactivate_me))
        .route("/users/{id}", get(users::get_user).delete(users::deactivate).patch(admin::update_user))
        .route("/users/{id}/status", get(users::get_status))
        .route("/user_groups", get(users::groups))
        .route("/user_groups/{id}/members", post(users::group_members))
        .route("/navigation_views", get(misc::nav_views).post(edits::add_nav_view))
        .route("/navigation_views/{*fragment}", patch(misc::update_nav_view).delete(edits::remove_nav_view))
        .route("/realm", patch(misc::update_realm))
        .route("/realm/playgrounds", post(users::add_playground))
        .route("/realm/playgrounds/{id}", axum::routing::delete(edits::remove_playground))
        .route("/server_settings", get(users::server_settings))
        .route("/fetch_api_key", post(users::fetch_api_key))
        .route("/demo/expire_queues", post(misc::expire_queues))
        .route("/user_uploads", post(misc::upload_file))
        .route("/submessage", post(reactions::add_submessage))
        .route(
            "/bot_storage",
            axum::routing::put(admin::put_storage).get(admin::get_storage).delete(admin::delete_storage),
        )
        .route("/get_stream_id", get(admin::get_stream_id))
        .route("/users/{id}/reactivate", post(admin::reactivate_user))
        .route("/users/{id}/presence", get(admin::user_presence))
        .route("/user_groups/create", post(admin::create_group))
        .route("/user_groups/{id}", axum::routing::patch(admin::update_group))
        .route("/realm/emoji", get(admin::realm_emoji))
        .route("/realm/linkifiers", get(admin::linkifiers).patch(edits::reorder_linkifiers))
}

async fn not_found() -> ApiErr {
    ApiErr::no_endpoint()
}
