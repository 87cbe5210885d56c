//! Endpoints Zulip clients and bots use beyond the contract, as the bindings send them (form
//! parameters, JSON-encoded where the reference says so), with their events and permissions.

use crate::common::*;
use serde_json::{Value, json};

/// Register `who` for events; (queue_id, last_event_id).
async fn queue(env: &Env, who: &str) -> (String, String) {
    let (_, r) = env
        .raw(who, "POST", "/register", &[("event_types", "[\"stream\",\"realm_user\",\"user_group\"]")])
        .await;
    (r["queue_id"].as_str().unwrap().to_owned(), r["last_event_id"].to_string())
}

async fn events(env: &Env, who: &str, q: &(String, String)) -> Vec<Value> {
    let (_, r) = env
        .raw(who, "GET", "/events", &[("queue_id", &q.0), ("last_event_id", &q.1), ("dont_block", "true")])
        .await;
    r["events"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn bot_storage_keeps_strings_per_user_and_refuses_what_the_reference_refuses() {
    let env = Env::start().await;
    let (s, r) = env
        .raw("helperbot", "PUT", "/bot_storage", &[("storage", r#"{"count": "3", "who": "alice"}"#)])
        .await;
    assert_eq!(s, 200, "{r}");
    let (_, r) = env.raw("helperbot", "GET", "/bot_storage", &[]).await;
    assert_eq!(r["storage"], json!({"count": "3", "who": "alice"}));
    let (_, r) = env.raw("helperbot", "GET", "/bot_storage", &[("keys", r#"["count"]"#)]).await;
    assert_eq!(r["storage"], json!({"count": "3"}));
    // Another user's storage is their own.
    let (_, r) = env.raw("member", "GET", "/bot_storage", &[]).await;
    assert_eq!(r["storage"], json!({}));
    let (s, r) = env.raw("helperbot", "GET", "/bot_storage", &[("keys", r#"["nope"]"#)]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Key does not exist.")));
    let (s, r) = env.raw("helperbot", "PUT", "/bot_storage", &[("storage", r#"{"n": 3}"#)]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Value type is int, but should be str.")));
    let (s, r) = env.raw("helperbot", "PUT", "/bot_storage", &[("storage", "[1]")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Argument \"storage\" is not a dict")));
    let (s, _) = env.raw("helperbot", "DELETE", "/bot_storage", &[("keys", r#"["count"]"#)]).await;
    assert_eq!(s, 200);
    let (_, r) = env.raw("helperbot", "GET", "/bot_storage", &[]).await;
    assert_eq!(r["storage"], json!({"who": "alice"}));
    env.raw("helperbot", "DELETE", "/bot_storage", &[]).await;
    let (_, r) = env.raw("helperbot", "GET", "/bot_storage", &[]).await;
    assert_eq!(r["storage"], json!({}));
}

#[tokio::test]
async fn a_channel_id_by_name_only_for_channels_one_can_see() {
    let env = Env::start().await;
    let (s, r) = env.raw("member", "GET", "/get_stream_id", &[("stream", "Design")]).await;
    assert_eq!((s, r["stream_id"].as_i64()), (200, Some(env.channel_id("design"))));
    let (s, r) = env.raw("guest", "GET", "/get_stream_id", &[("stream", "security")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid channel name 'security'")));
    let (s, r) = env.raw("member", "GET", "/get_stream_id", &[("stream", "nowhere")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid channel name 'nowhere'")));
}

#[tokio::test]
async fn administrators_change_a_channel_and_everyone_who_sees_it_hears() {
    let env = Env::start().await;
    let design = env.channel_id("design").to_string();
    let q = queue(&env, "bob").await;
    let (s, r) = env.raw("member", "PATCH", &format!("/streams/{design}"), &[("description", "x")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("You do not have permission to administer this channel.")));
    let (s, r) = env
        .raw(
            "admin",
            "PATCH",
            &format!("/streams/{design}"),
            &[("description", "Pixels **and** people"), ("new_name", "design-team")],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let evs = events(&env, "bob", &q).await;
    let props: Vec<&str> =
        evs.iter().filter(|e| e["type"] == "stream").filter_map(|e| e["property"].as_str()).collect();
    assert_eq!(props, vec!["name", "description"], "{evs:?}");
    let desc = evs.iter().find(|e| e["property"] == "description").unwrap();
    assert_eq!(desc["rendered_description"], "<p>Pixels <strong>and</strong> people</p>");
    let (_, r) = env.raw("member", "GET", "/get_stream_id", &[("stream", "design-team")]).await;
    assert_eq!(r["stream_id"].to_string(), design);
    let (s, r) = env.raw("admin", "PATCH", &format!("/streams/{design}"), &[("new_name", "general")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Channel 'general' already exists")));
}

#[tokio::test]
async fn administrators_create_change_deactivate_and_reactivate_users() {
    let env = Env::start().await;
    let q = queue(&env, "bob").await;
    let (s, r) = env
        .raw("member", "POST", "/users", &[("email", "new@x.test"), ("password", "pw"), ("full_name", "New")])
        .await;
    assert_eq!(
        (s, r["msg"].as_str()),
        (400, Some("Must be an organization administrator")),
        "members may not"
    );
    let (s, r) = env
        .raw(
            "admin",
            "POST",
            "/users",
            &[("email", "Kim@Example.test"), ("password", "pw"), ("full_name", "Kim Lee")],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let kim = r["user_id"].as_i64().unwrap();
    let (s, r) = env
        .raw(
            "admin",
            "POST",
            "/users",
            &[("email", "kim@example.test"), ("password", "pw"), ("full_name", "K")],
        )
        .await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Email 'kim@example.test' already in use")));
    let (_, r) = env.raw("member", "GET", &format!("/users/{kim}"), &[]).await;
    assert_eq!(r["user"]["full_name"], "Kim Lee");
    // A name and a role.
    let (s, r) = env
        .raw("admin", "PATCH", &format!("/users/{kim}"), &[("full_name", "Kim Lee-Park"), ("role", "300")])
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "PATCH", &format!("/users/{kim}"), &[("role", "100")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Must be an organization owner")));
    let (s, _) = env.raw("member", "PATCH", &format!("/users/{kim}"), &[("full_name", "x")]).await;
    assert_eq!(s, 400);
    // Deactivated, then back.
    env.raw("admin", "DELETE", &format!("/users/{kim}"), &[]).await;
    let (s, r) = env.raw("admin", "POST", &format!("/users/{kim}/reactivate"), &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "POST", &format!("/users/{kim}/reactivate"), &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("User is already active")));
    let evs = events(&env, "bob", &q).await;
    let users: Vec<&Value> = evs.iter().filter(|e| e["type"] == "realm_user").collect();
    assert_eq!(users[0]["op"], "add");
    assert_eq!(users[0]["person"]["email"], "kim@example.test");
    assert!(users.iter().any(|e| e["person"] == json!({"user_id": kim, "full_name": "Kim Lee-Park"})));
    assert!(users.iter().any(|e| e["person"] == json!({"user_id": kim, "role": 300})));
    assert!(users.iter().any(|e| e["person"]["is_active"] == true));
}

/// The legacy shape, as a server before level 487 answers it (`levels12.rs` has the others).
#[tokio::test]
async fn one_users_presence_by_id_or_email() {
    let env = Env::start_with(topicterm::server::ServerOptions {
        feature_level: topicterm::server::levels::MODERN_USER_PRESENCE - 1,
        ..Default::default()
    })
    .await;
    env.raw("alice", "POST", "/users/me/presence", &[("status", "active")]).await;
    let alice = env.user_id("alice");
    let (s, r) = env.raw("member", "GET", &format!("/users/{alice}/presence"), &[]).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["presence"]["aggregated"]["status"], "active");
    assert_eq!(r["presence"]["website"]["client"], "website");
    let email = env.creds("alice").email;
    let (_, by_email) = env.raw("member", "GET", &format!("/users/{email}/presence"), &[]).await;
    assert_eq!(by_email["presence"], r["presence"]);
    let (s, r) = env.raw("member", "GET", "/users/99999/presence", &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("No such user")));
}

#[tokio::test]
async fn groups_are_created_and_renamed_by_their_members() {
    let env = Env::start().await;
    let q = queue(&env, "bob").await;
    let (alice, member) = (env.user_id("alice").to_string(), env.user_id("member").to_string());
    let members = format!("[{alice},{member}]");
    let (s, r) = env
        .raw(
            "member",
            "POST",
            "/user_groups/create",
            &[("name", "pianists"), ("description", "Keys"), ("members", &members)],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let gid = r["group_id"].as_i64().unwrap();
    let (s, r) = env
        .raw(
            "member",
            "POST",
            "/user_groups/create",
            &[("name", "Pianists"), ("description", ""), ("members", "[]")],
        )
        .await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("User group 'Pianists' already exists.")));
    let (s, _) = env
        .raw("guest", "POST", "/user_groups/create", &[("name", "g"), ("description", ""), ("members", "[]")])
        .await;
    assert_eq!(s, 400, "guests may not");
    let (s, r) = env
        .raw("member", "PATCH", &format!("/user_groups/{gid}"), &[("description", "Keys and pedals")])
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, _) = env.raw("bob", "PATCH", &format!("/user_groups/{gid}"), &[("name", "bobs")]).await;
    assert_eq!(s, 400, "not a member, not an administrator");
    let evs = events(&env, "bob", &q).await;
    let groups: Vec<&Value> = evs.iter().filter(|e| e["type"] == "user_group").collect();
    assert_eq!(groups[0]["op"], "add");
    assert_eq!(groups[0]["group"]["name"], "pianists");
    assert_eq!(
        groups[1],
        &json!({"type": "user_group", "op": "update", "group_id": gid, "data": {"description": "Keys and pedals"}, "id": groups[1]["id"]})
    );
}

#[tokio::test]
async fn the_organizations_custom_emoji_and_linkifiers() {
    let env = Env::start().await;
    let (s, r) = env.raw("member", "GET", "/realm/emoji", &[]).await;
    assert_eq!(s, 200);
    let emoji = r["emoji"].as_object().unwrap();
    assert!(!emoji.is_empty());
    let (id, e) = emoji.iter().next().unwrap();
    assert_eq!((e["id"].as_str(), e["deactivated"].as_bool()), (Some(id.as_str()), Some(false)));
    assert!(e["source_url"].as_str().unwrap().contains(id.as_str()) && e["author_id"].is_i64());
    let (s, r) = env.raw("member", "GET", "/realm/linkifiers", &[]).await;
    assert_eq!((s, r["linkifiers"].as_array().map(Vec::len)), (200, Some(0)));
}
