//! More of what Zulip's own API example suite found missing on the demo server at level 420,
//! each as the reference server does it: a user deactivating their own account, the
//! `authorization_errors_fatal` of a subscription request, the Welcome Bot's test message,
//! custom profile fields created and reordered, data exports and export consents; and the
//! shapes: channels' `can_subscribe_group`, register's `unread_msgs` and legacy settings.

use crate::common::*;
use serde_json::{Value, json};

fn of_type<'a>(evs: &'a [Value], t: &str) -> Vec<&'a Value> {
    evs.iter().filter(|e| e["type"] == t).collect()
}

#[tokio::test]
async fn a_user_deactivates_their_own_account_but_not_the_only_owner() {
    let env = Env::start().await;
    // The seed has one owner: they may not leave the organization without one.
    let (s, r) = env.raw("owner", "DELETE", "/users/me", &[]).await;
    assert_eq!(s, 400, "{r}");
    assert_eq!(r["code"], "CANNOT_DEACTIVATE_LAST_USER");
    assert_eq!(r["msg"], "Cannot deactivate the only organization owner.");
    assert_eq!(
        (r["is_last_owner"].as_bool(), r["entity"].as_str()),
        (Some(true), Some("organization owner"))
    );
    let (s, _) = env.raw("owner", "GET", "/users/me", &[]).await;
    assert_eq!(s, 200, "a refused deactivation leaves the owner active");

    let q = env.queue("bob", "[\"realm_user\", \"subscription\"]").await;
    let member = env.user_id("member");
    let general = env.channel_id("general");
    let (s, r) = env.raw("member", "DELETE", "/users/me", &[]).await;
    assert_eq!(s, 200, "{r}");
    // The key no longer works, and the member's bots went with them.
    let (s, r) = env.raw("member", "GET", "/users/me", &[]).await;
    assert_eq!((s, r["code"].as_str()), (401, Some("USER_DEACTIVATED")));
    let (s, r) = env.raw("helperbot", "GET", "/users/me", &[]).await;
    assert_eq!((s, r["code"].as_str()), (401, Some("USER_DEACTIVATED")));
    let evs = env.events("bob", &q).await;
    let updates = of_type(&evs, "realm_user");
    assert!(
        updates
            .iter()
            .any(|e| e["op"] == "update" && e["person"] == json!({"user_id": member, "is_active": false})),
        "{evs:?}"
    );
    assert!(
        of_type(&evs, "subscription").iter().any(|e| e["op"] == "peer_remove"
            && e["stream_ids"] == json!([general])
            && e["user_ids"] == json!([member])),
        "{evs:?}"
    );
    let (_, r) = env.raw("bob", "GET", &format!("/streams/{general}/members"), &[]).await;
    assert!(!r["subscribers"].as_array().unwrap().contains(&json!(member)), "{r}");
    // An administrator brings them back.
    let (s, r) = env.raw("owner", "POST", &format!("/users/{member}/reactivate"), &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, _) = env.raw("member", "GET", "/users/me", &[]).await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn one_private_channel_refuses_a_whole_subscription_unless_told_not_to() {
    let env = Env::start().await;
    let both = json!([{"name": "design"}, {"name": "leadership"}]).to_string();
    let design = env.channel_id("design");
    let (s, r) = env.raw("bob", "POST", "/users/me/subscriptions", &[("subscriptions", &both)]).await;
    assert_eq!((s, r["code"].as_str()), (400, Some("BAD_REQUEST")), "{r}");
    assert_eq!(r["msg"], "Unable to access channel (leadership).");
    let (_, r) = env.raw("bob", "GET", &format!("/streams/{design}/members"), &[]).await;
    assert!(!r["subscribers"].as_array().unwrap().contains(&json!(env.user_id("bob"))), "refused: no trace");
    let (s, r) = env
        .raw(
            "bob",
            "POST",
            "/users/me/subscriptions",
            &[("subscriptions", &both), ("authorization_errors_fatal", "false")],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["unauthorized"], json!(["leadership"]));
    assert_eq!(r["subscribed"], json!({env.user_id("bob").to_string(): ["design"]}));
    // Where it is fatal and nothing is refused, the answer has no `unauthorized` list.
    let one = json!([{"name": "design"}]).to_string();
    let (s, r) = env.raw("bob", "POST", "/users/me/subscriptions", &[("subscriptions", &one)]).await;
    assert_eq!(s, 200, "{r}");
    assert!(r.get("unauthorized").is_none(), "{r}");
}

#[tokio::test]
async fn the_welcome_bot_sends_an_administrator_the_custom_welcome_message() {
    let env = Env::start_with(crate::channels::server_at(420)).await;
    let path = "/realm/test_welcome_bot_custom_message";
    let text = [("welcome_message_custom_text", "Welcome! Read **#general** first.")];
    let (s, r) = env.raw("member", "POST", path, &text).await;
    assert_eq!((s, r["code"].as_str()), (400, Some("UNAUTHORIZED_PRINCIPAL")), "{r}");
    let (s, r) = env.raw("admin", "POST", path, &[("welcome_message_custom_text", "")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Message must not be empty")));
    let long = "x".repeat(8001);
    let (s, r) = env.raw("admin", "POST", path, &[("welcome_message_custom_text", &long)]).await;
    assert_eq!(s, 400, "{r}");
    let (s, r) = env.raw("admin", "POST", path, &[]).await;
    assert_eq!((s, r["code"].as_str()), (400, Some("REQUEST_VARIABLE_MISSING")));
    let (s, r) = env.raw("admin", "POST", path, &text).await;
    assert_eq!(s, 200, "{r}");
    let id = r["message_id"].as_i64().expect("the message's ID");
    let (_, r) = env.raw("admin", "GET", &format!("/messages/{id}"), &[]).await;
    let m = &r["message"];
    assert_eq!(m["sender_full_name"], "Welcome Bot", "{r}");
    assert_eq!(m["type"], "private");
    assert!(m["content"].as_str().unwrap().contains("<strong>"), "rendered: {r}");
    // Before level 416 there is no such endpoint.
    let old = Env::start_with(crate::channels::server_at(415)).await;
    let (s, _) = old.raw("admin", "POST", path, &text).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn a_deactivated_users_archived_channels_are_told_from_level_428() {
    for level in [427, 428] {
        let env = Env::start_with(crate::channels::server_at(level)).await;
        let general = env.channel_id("general");
        let (s, r) = env.raw("admin", "DELETE", &format!("/streams/{general}"), &[]).await;
        assert_eq!(s, 200, "{r}");
        let q = env.queue("admin", "[\"subscription\"]").await;
        let (s, r) = env.raw("member", "DELETE", "/users/me", &[]).await;
        assert_eq!(s, 200, "{r}");
        let evs = env.events("admin", &q).await;
        let told = of_type(&evs, "subscription")
            .iter()
            .any(|e| e["op"] == "peer_remove" && e["stream_ids"] == json!([general]));
        assert_eq!(told, level >= 428, "level {level}: {evs:?}");
    }
}

#[tokio::test]
async fn administrators_create_and_reorder_custom_profile_fields_and_everyone_is_told() {
    let env = Env::start_with(crate::channels::server_at(420)).await;
    let path = "/realm/profile_fields";
    let phone = [("name", "Phone"), ("hint", "Contact no."), ("field_type", "1")];
    let (s, r) = env.raw("member", "POST", path, &phone).await;
    assert_eq!((s, r["code"].as_str()), (400, Some("UNAUTHORIZED_PRINCIPAL")), "{r}");
    for (params, msg) in [
        (vec![("name", "  "), ("field_type", "1")], "Label cannot be blank."),
        (vec![("name", "Pronouns"), ("field_type", "8")], "A field with that label already exists."),
        (
            vec![("name", "Shirt"), ("field_type", "3"), ("field_data", "{}")],
            "Field must have at least one choice.",
        ),
        (vec![("name", "Odd"), ("field_type", "42")], "Invalid field type."),
        (vec![("name", "Buddy"), ("field_type", "6"), ("display_in_profile_summary", "true")], "Only 2"),
    ] {
        let (s, r) = env.raw("admin", "POST", path, &params).await;
        assert_eq!(s, 400, "{params:?}: {r}");
        assert!(r["msg"].as_str().unwrap().starts_with(msg), "{params:?}: {r}");
    }
    let (_, before) = env.raw("member", "GET", path, &[]).await;
    let count = before["custom_fields"].as_array().unwrap().len();
    let q = env.queue("bob", "[\"custom_profile_fields\"]").await;
    let (s, r) = env.raw("admin", "POST", path, &phone).await;
    assert_eq!(s, 200, "{r}");
    let id = r["id"].as_i64().unwrap();
    let choices = json!({"1": {"text": "S", "order": "1"}, "2": {"text": "M", "order": "2"}}).to_string();
    let shirt = [("name", "Shirt size"), ("field_type", "3"), ("field_data", &choices)];
    let (s, r) = env.raw("admin", "POST", path, &shirt).await;
    assert_eq!(s, 200, "{r}");
    let (_, r) = env.raw("member", "GET", path, &[]).await;
    let fields = r["custom_fields"].as_array().unwrap().clone();
    assert_eq!(fields.len(), count + 2);
    let new = &fields[count];
    assert_eq!(
        (new["id"].as_i64(), new["name"].as_str(), new["hint"].as_str()),
        (Some(id), Some("Phone"), Some("Contact no."))
    );
    assert_eq!(new["type"], 1);
    let data: Value = serde_json::from_str(fields[count + 1]["field_data"].as_str().unwrap()).unwrap();
    assert_eq!(data["2"]["text"], "M", "a list field keeps its options");
    // Reordered: every field's ID, in the new order.
    let ids: Vec<i64> = fields.iter().map(|f| f["id"].as_i64().unwrap()).collect();
    let short = json!(ids[1..]).to_string();
    let (s, r) = env.raw("admin", "PATCH", path, &[("order", &short)]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid order mapping.")));
    let reversed: Vec<i64> = ids.iter().rev().copied().collect();
    let (s, r) = env.raw("admin", "PATCH", path, &[("order", &json!(reversed).to_string())]).await;
    assert_eq!(s, 200, "{r}");
    let (_, r) = env.raw("member", "GET", path, &[]).await;
    let now: Vec<i64> =
        r["custom_fields"].as_array().unwrap().iter().map(|f| f["id"].as_i64().unwrap()).collect();
    assert_eq!(now, reversed);
    // Each change told everyone the whole list.
    let evs = env.events("bob", &q).await;
    let told = of_type(&evs, "custom_profile_fields");
    assert_eq!(told.len(), 3, "{evs:?}");
    assert_eq!(told[0]["fields"].as_array().unwrap().len(), count + 1);
    let last: Vec<i64> =
        told[2]["fields"].as_array().unwrap().iter().map(|f| f["id"].as_i64().unwrap()).collect();
    assert_eq!(last, reversed);
}

#[tokio::test]
async fn administrators_export_the_organization_with_the_consent_of_its_people() {
    let env = Env::start_with(crate::channels::server_at(420)).await;
    let (s, r) = env.raw("member", "POST", "/export/realm", &[]).await;
    assert_eq!((s, r["code"].as_str()), (400, Some("UNAUTHORIZED_PRINCIPAL")), "{r}");
    let q = env.queue("admin", "[\"realm_export\", \"realm_export_consent\"]").await;
    let (s, r) = env.raw("admin", "POST", "/export/realm", &[]).await;
    assert_eq!(s, 200, "{r}");
    let id = r["id"].as_i64().unwrap();
    let (_, r) = env.raw("admin", "GET", "/export/realm", &[]).await;
    let e = &r["exports"][0];
    assert_eq!(
        (e["id"].as_i64(), e["pending"].as_bool(), e["export_type"].as_i64()),
        (Some(id), Some(false), Some(1))
    );
    assert_eq!(e["acting_user_id"], env.user_id("admin"));
    let url = e["export_url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with(&format!("{}/user_avatars/exports/", env.server.url)) && url.ends_with(".tar.gz"),
        "{url}"
    );
    // The file is at its unguessable address, a gzip archive.
    let file = reqwest::get(&url).await.unwrap();
    assert_eq!(file.status(), 200);
    let bytes = file.bytes().await.unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    // A standard export needs an owner who consents.
    let (s, r) = env.raw("admin", "POST", "/export/realm", &[("export_type", "2")]).await;
    assert_eq!(s, 400, "{r}");
    assert!(
        r["msg"].as_str().unwrap().starts_with("Make sure at least one Organization Owner is consenting"),
        "{r}"
    );
    let (s, r) = env.raw("admin", "POST", "/export/realm", &[("export_type", "3")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid export_type")));
    let (s, _) = env.raw("owner", "PATCH", "/settings", &[("allow_private_data_export", "true")]).await;
    assert_eq!(s, 200);
    let (_, r) = env.raw("admin", "GET", "/export/realm/consents", &[]).await;
    let consents = r["export_consents"].as_array().unwrap();
    let owner = env.user_id("owner");
    assert!(consents.contains(&json!({"user_id": owner, "consented": true})), "{r}");
    assert!(consents.contains(&json!({"user_id": env.user_id("bob"), "consented": false})), "{r}");
    assert!(!consents.iter().any(|c| c["user_id"] == env.user_id("helperbot")), "bots have no say: {r}");
    let (s, r) = env.raw("admin", "POST", "/export/realm", &[("export_type", "2")]).await;
    assert_eq!(s, 200, "{r}");
    // Deleted once: the file goes, the record stays.
    let path = format!("/export/realm/{id}");
    let (s, r) = env.raw("admin", "DELETE", &path, &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "DELETE", &path, &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Export already deleted")));
    let (s, r) = env.raw("admin", "DELETE", "/export/realm/999999", &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid data export ID")));
    assert_eq!(reqwest::get(&url).await.unwrap().status(), 404);
    let (_, r) = env.raw("admin", "GET", "/export/realm", &[]).await;
    assert!(
        r["exports"][0]["deleted_timestamp"].is_number() && r["exports"][0]["export_url"].is_null(),
        "{r}"
    );
    // Five a week.
    for _ in 0..3 {
        assert_eq!(env.raw("admin", "POST", "/export/realm", &[]).await.0, 200);
    }
    let (s, r) = env.raw("admin", "POST", "/export/realm", &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Exceeded rate limit.")));
    // The administrators heard each step: pending, made, deleted; and the owner's consent.
    let evs = env.events("admin", &q).await;
    let exports = of_type(&evs, "realm_export");
    assert_eq!(exports[0]["exports"][0]["pending"], true, "{evs:?}");
    assert!(exports[1]["exports"][0]["export_url"].is_string(), "{evs:?}");
    let consent = of_type(&evs, "realm_export_consent");
    assert_eq!(
        consent,
        [
            &json!({"type": "realm_export_consent", "user_id": owner, "consented": true, "id": consent[0]["id"]})
        ]
    );
}

#[tokio::test]
async fn export_consents_and_standard_exports_come_at_their_levels() {
    let env = Env::start_with(crate::channels::server_at(294)).await;
    assert_eq!(env.raw("admin", "GET", "/export/realm/consents", &[]).await.0, 404);
    let env = Env::start_with(crate::channels::server_at(303)).await;
    assert_eq!(env.raw("admin", "GET", "/export/realm/consents", &[]).await.0, 200);
    let (s, r) = env.raw("admin", "POST", "/export/realm", &[("export_type", "2")]).await;
    assert_eq!(s, 200, "before 304 every export is public: {r}");
    assert_eq!(r["ignored_parameters_unsupported"], json!(["export_type"]));
    let (_, r) = env.raw("admin", "GET", "/export/realm", &[]).await;
    assert!(r["exports"][0].get("export_type").is_none(), "{r}");
    let env = Env::start_with(crate::channels::server_at(311)).await;
    let q = env.queue("admin", "[\"realm_export_consent\"]").await;
    env.raw("owner", "PATCH", "/settings", &[("allow_private_data_export", "true")]).await;
    assert!(of_type(&env.events("admin", &q).await, "realm_export_consent").is_empty());
}

#[tokio::test]
async fn exports_say_whether_they_came_from_a_prior_server_in_13_0_and_12_x() {
    for (level, said) in [(498, false), (499, true), (501, true), (505, false), (506, true)] {
        let env = Env::start_with(crate::channels::server_at(level)).await;
        assert_eq!(env.raw("admin", "POST", "/export/realm", &[]).await.0, 200);
        let (_, r) = env.raw("admin", "GET", "/export/realm", &[]).await;
        let field = r["exports"][0].get("export_from_prior_server").cloned();
        assert_eq!(field, said.then_some(json!(false)), "level {level}: {r}");
    }
}

#[tokio::test]
async fn channels_say_who_may_join_them_from_level_357() {
    for (level, has) in [(356, false), (357, true), (420, true)] {
        let env = Env::start_with(crate::channels::server_at(level)).await;
        let nobody = env.group_id("role:nobody");
        let (_, r) = env.raw("member", "GET", "/streams", &[]).await;
        for c in r["streams"].as_array().unwrap() {
            assert_eq!(
                c.get("can_subscribe_group").cloned(),
                has.then_some(json!(nobody)),
                "level {level}: {c}"
            );
        }
        let (_, r) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
        assert_eq!(r["subscriptions"][0].get("can_subscribe_group").is_some(), has, "level {level}");
    }
}

#[tokio::test]
async fn register_sends_unread_dms_as_pms_and_only_the_legacy_settings_at_the_top() {
    let env = Env::start_with(crate::channels::server_at(420)).await;
    let (s, r) = env.raw("member", "POST", "/register", &[]).await;
    assert_eq!(s, 200, "{r}");
    // The user's role by its flags, as the reference says it (no `role` at the top level).
    assert!(r.get("role").is_none(), "{r}");
    assert_eq!(
        (r["is_admin"].as_bool(), r["is_moderator"].as_bool(), r["is_guest"].as_bool()),
        (Some(false), Some(false), Some(false))
    );
    let unread = r["unread_msgs"].as_object().unwrap();
    let mut keys: Vec<&str> = unread.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["count", "huddles", "mentions", "old_unreads_missing", "pms", "streams"]);
    // Without `user_settings_object`, the frozen legacy settings come at the top level too;
    // a newer setting only in `user_settings`.
    assert_eq!(r["enter_sends"], r["user_settings"]["enter_sends"]);
    assert!(r.get("enter_sends").is_some() && r.get("web_font_size_px").is_none(), "{r}");
    assert!(
        r.get("allow_private_data_export").is_none()
            && r["user_settings"]["allow_private_data_export"] == false
    );
    let caps = json!({"user_settings_object": true}).to_string();
    let (_, r) = env.raw("member", "POST", "/register", &[("client_capabilities", &caps)]).await;
    assert!(r.get("enter_sends").is_none() && r["user_settings"]["enter_sends"].is_boolean(), "{r}");
    // The client reads the DMs' unreads from `pms`.
    let c = env.client("member");
    let reg = c.register(&Default::default()).await.unwrap();
    let unread = reg.unread_msgs.unwrap();
    assert!(unread.dms.is_empty() && !unread.direct().is_empty(), "{unread:?}");
}

#[tokio::test]
async fn user_objects_have_the_references_fields() {
    let env = Env::start_with(crate::channels::server_at(420)).await;
    let (_, me) = env.raw("member", "GET", "/users/me", &[]).await;
    assert_eq!(me["delivery_email"], env.creds("member").email.as_str(), "one's own address: {me}");
    // A bot's type and owner on bots only; no user object says whether presence is shared.
    let (_, r) = env.raw("admin", "GET", "/users", &[]).await;
    for u in r["members"].as_array().unwrap() {
        assert_eq!(u.get("bot_type").is_some(), u["is_bot"] == true, "{u}");
        assert!(u.get("presence_enabled").is_none(), "{u}");
    }
    // An outgoing webhook bot's service always has a base URL (empty with none set).
    let (_, r) = env.raw("member", "POST", "/register", &[("event_types", "[\"realm_bot\"]")]).await;
    let services: Vec<&Value> =
        r["realm_bots"].as_array().unwrap().iter().flat_map(|b| b["services"].as_array().unwrap()).collect();
    assert!(!services.is_empty() && services.iter().all(|s| s["base_url"].is_string()), "{r}");
}
