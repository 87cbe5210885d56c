//! The organization's settings in a register answer (`realm_*`), every one the spec lists and
//! is not deprecated, at the reference server's defaults (zerver/models/realms.py), for the
//! demo organization. Clients read them without checking they are there (zulip-terminal reads
//! `realm_allow_message_editing` and the edit limits before editing).

use crate::levels;
use crate::org::{Org, UserRec};
use serde_json::{Value, json};

/// The `realm_*` fields of the `realm` event type (`fetch_event_types` containing `realm`), for
/// a server at `site` (`http://127.0.0.1:9991`).
pub fn realm_fields(org: &Org, site: &str) -> Vec<(&'static str, Value)> {
    let host =
        site.split("://").nth(1).unwrap_or(site).split([':', '/']).next().unwrap_or_default().to_owned();
    let mut fields: Vec<(&'static str, Value)> =
        org.realm_groups().into_iter().map(|(k, g)| (k, g.json())).collect();
    let providers = json!({
        "disabled": {"name": "None", "id": 0},
        "jitsi_meet": {"name": "Jitsi Meet", "id": 1},
    });
    fields.extend([
        ("realm_description", json!(org.realm_description())),
        ("realm_default_language", json!("en")),
        ("realm_welcome_message_custom_text", json!("")),
        ("realm_digest_emails_enabled", json!(false)),
        ("realm_digest_weekday", json!(1)),
        ("realm_disallow_disposable_email_addresses", json!(true)),
        ("realm_email_changes_disabled", json!(false)),
        ("realm_name_changes_disabled", json!(false)),
        ("realm_avatar_changes_disabled", json!(false)),
        ("realm_invite_required", json!(true)),
        ("realm_emails_restricted_to_domains", json!(false)),
        ("realm_send_welcome_emails", json!(true)),
        ("realm_message_content_allowed_in_email_notifications", json!(true)),
        ("realm_inline_image_preview", json!(true)),
        ("realm_inline_url_embed_preview", json!(false)),
        ("realm_require_e2ee_push_notifications", json!(false)),
        ("realm_require_unique_names", json!(false)),
        ("realm_enable_spectator_access", json!(false)),
        ("realm_want_advertise_in_communities_directory", json!(false)),
        ("realm_video_chat_provider", json!(1)),
        ("realm_available_video_chat_providers", providers),
        ("realm_jitsi_server_url", Value::Null),
        ("realm_waiting_period_threshold", json!(0)),
        ("realm_default_code_block_language", json!("")),
        ("realm_authentication_methods", json!({"Email": {"enabled": true, "available": true}})),
        ("realm_enable_read_receipts", json!(true)),
        ("realm_icon_url", json!(format!("{site}/static/images/logo/zulip-icon-128x128.png"))),
        ("realm_icon_source", json!("G")),
        ("realm_logo_url", json!(format!("{site}/static/images/logo/zulip-org-logo.svg"))),
        ("realm_logo_source", json!("D")),
        ("realm_night_logo_url", json!(format!("{site}/static/images/logo/zulip-org-logo.svg"))),
        ("realm_night_logo_source", json!("D")),
        ("realm_bot_domain", json!(host)),
        ("realm_url", json!(site)),
        ("realm_presence_disabled", json!(false)),
        ("realm_email_auth_enabled", json!(true)),
        ("realm_password_auth_enabled", json!(true)),
        ("realm_push_notifications_enabled", json!(false)),
        ("realm_push_notifications_enabled_end_timestamp", Value::Null),
        ("realm_upload_quota_mib", json!(org.settings.upload_quota_mib)),
        ("realm_org_type", json!(0)),
        ("realm_plan_type", json!(1)),
        ("realm_enable_guest_user_dm_warning", json!(true)),
        ("realm_enable_guest_user_indicator", json!(true)),
        ("realm_default_external_accounts", json!({})),
        ("realm_new_stream_announcements_stream_id", json!(-1)),
        ("realm_signup_announcements_stream_id", json!(-1)),
        ("realm_zulip_update_announcements_stream_id", json!(-1)),
    ]);
    fields.extend(by_level(org.settings.feature_level));
    // The rules for messages, as an administrator left them (`org/rules.rs`).
    fields.extend(org.rule_fields());
    fields
}

/// The GIPHY rating choices (`giphy_rating_options`, later `gif_rating_options` and
/// `gif_rating_policy_options`), by name: its label and the ID a rating is stored as.
fn rating_options() -> Value {
    json!({
        "disabled": {"name": "GIPHY integration disabled", "id": 0},
        "y": {"name": "Allow GIFs rated Y (Very young audience)", "id": 1},
        "g": {"name": "Allow GIFs rated G (General audience)", "id": 2},
        "pg": {"name": "Allow GIFs rated PG (Parental guidance)", "id": 3},
        "pg13": {"name": "Allow GIFs rated PG-13 (Parental guidance - under 13)", "id": 4},
        "r": {"name": "Allow GIFs rated R (Restricted)", "id": 5},
    })
}

/// The register fields that came or went with a feature level: the GIF settings' names (442,
/// 453, 486), the Zephyr mirror flag (gone at 426), owners' content access (438), the default
/// avatar source (456).
fn by_level(level: i64) -> Vec<(&'static str, Value)> {
    let mut fields = Vec::new();
    if level < levels::NO_ZEPHYR_MIRROR_FIELD {
        fields.push(("realm_is_zephyr_mirror_realm", json!(false)));
    }
    if level >= levels::OWNER_FULL_CONTENT_ACCESS {
        fields.push(("realm_owner_full_content_access", json!(false)));
    }
    if level >= levels::GIF_RATING_POLICY {
        fields.push(("realm_gif_rating_policy", json!(2)));
        fields.push(("gif_rating_policy_options", rating_options()));
    } else {
        fields.push(("realm_giphy_rating", json!(2)));
        let key = if level >= levels::TENOR { "gif_rating_options" } else { "giphy_rating_options" };
        fields.push((key, rating_options()));
    }
    if level >= levels::TENOR {
        fields.push(("tenor_api_key", json!("")));
    }
    if level >= levels::KLIPY {
        fields.push(("klipy_api_key", json!("")));
    }
    if level >= levels::DEFAULT_AVATAR_SOURCE {
        fields.push(("realm_default_avatar_source", json!("G")));
    }
    fields
}

/// Register's `realm_bots`: the bots `me` administers (all, for an organization administrator).
/// From level 474 only what the user list does not say: the `default_*` settings and `services`.
pub fn bots_json(org: &Org, me: &UserRec) -> Vec<Value> {
    let slim = org.settings.feature_level >= levels::SLIM_BOT_OBJECTS;
    org.users
        .values()
        .filter(|u| u.is_bot() && !u.is_system_bot && (me.is_admin() || u.bot_owner == Some(me.id)))
        .map(|u| {
            let services = match &u.webhook_token {
                Some(t) => {
                    // Always text, as the reference's (where a bot cannot lack one): "" with none set.
                    let url = org.settings.outgoing_webhook_url.clone().unwrap_or_default();
                    json!([{"base_url": url, "interface": 1, "token": t}])
                }
                None => json!([]),
            };
            let mut bot = json!({"user_id": u.id, "default_sending_stream": null,
                                 "default_events_register_stream": null,
                                 "default_all_public_streams": false, "services": services});
            if !slim {
                let user = org.user_json(u);
                for (k, v) in [
                    ("full_name", json!(u.full_name)),
                    ("email", json!(u.email)),
                    ("bot_type", json!(u.bot_type)),
                    ("avatar_url", user["avatar_url"].clone()),
                    ("owner_id", json!(u.bot_owner)),
                    ("is_active", json!(u.is_active)),
                    ("api_key", json!(u.api_key)),
                ] {
                    bot[k] = v;
                }
            }
            bot
        })
        .collect()
}

/// The `realm_*` fields that come with event types other than `realm`, each with its type.
pub fn other_fields(org: &Org) -> [(&'static str, &'static str, Value); 9] {
    let filters: Vec<Value> = org.linkifiers.iter().map(|(id, (p, u))| json!([p, u, id])).collect();
    let defaults: Vec<i64> = org.default_channels.iter().copied().collect();
    [
        ("realm_domains", "realm_domains", json!([])),
        ("realm_linkifiers", "realm_linkifiers", json!(super::invites::linkifiers_json(org))),
        ("realm_filters", "realm_filters", json!(filters)),
        ("realm_embedded_bots", "realm_embedded_bots", json!([])),
        ("realm_incoming_webhook_bots", "realm_incoming_webhook_bots", json!([])),
        ("realm_default_streams", "default_streams", json!(defaults)),
        ("realm_default_stream_groups", "default_stream_groups", json!([])),
        ("realm_billing", "realm_billing", json!({"has_pending_sponsorship_request": false})),
        ("realm_user_settings_defaults", "realm_user_settings_defaults", json!({})),
    ]
}
