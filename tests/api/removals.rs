//! The removals and edits the reference server has beside its additions (the gaps Zulip's own
//! API example suite found): navigation views added and removed, a saved snippet edited, a
//! default channel removed, linkifiers changed, reordered and removed, a code playground
//! removed, push device tokens, each with its event and refusals.

use crate::common::*;
use serde_json::{Value, json};

fn of_type<'a>(evs: &'a [Value], t: &str) -> Vec<&'a Value> {
    evs.iter().filter(|e| e["type"] == t).collect()
}

#[tokio::test]
async fn navigation_views_are_added_and_removed_with_their_events() {
    let env = Env::start().await;
    let q = env.queue("member", "[\"navigation_view\"]").await;
    let add = [("fragment", "narrow/is/alerted"), ("is_pinned", "true"), ("name", "Alert Word")];
    let (s, r) = env.raw("member", "POST", "/navigation_views", &add).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("member", "POST", "/navigation_views", &add).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Navigation view already exists.")));
    let (s, r) = env
        .raw(
            "member",
            "POST",
            "/navigation_views",
            &[("fragment", "narrow/is/starred"), ("is_pinned", "false")],
        )
        .await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Custom views must have a valid name.")));
    let (_, r) = env.raw("member", "GET", "/navigation_views", &[]).await;
    let views = r["navigation_views"].as_array().unwrap();
    assert!(views.iter().any(|v| v["fragment"] == "narrow/is/alerted" && v["name"] == "Alert Word"), "{r}");
    // Another user's views are their own.
    let (s, _) = env.raw("bob", "DELETE", "/navigation_views/narrow/is/alerted", &[]).await;
    assert_eq!(s, 404);
    let (s, r) = env.raw("member", "DELETE", "/navigation_views/narrow/is/alerted", &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, _) = env.raw("member", "DELETE", "/navigation_views/narrow/is/alerted", &[]).await;
    assert_eq!(s, 404);
    let evs = env.events("member", &q).await;
    let nav = of_type(&evs, "navigation_view");
    assert_eq!(nav[0]["op"], "add");
    assert_eq!(
        nav[0]["navigation_view"],
        json!({"fragment": "narrow/is/alerted", "is_pinned": true, "name": "Alert Word"})
    );
    assert_eq!(
        (nav[1]["op"].as_str(), nav[1]["fragment"].as_str()),
        (Some("remove"), Some("narrow/is/alerted"))
    );
}

#[tokio::test]
async fn a_saved_snippet_is_edited_by_its_owner_only() {
    let env = Env::start().await;
    let (_, r) = env
        .raw("member", "POST", "/saved_snippets", &[("title", "Welcome"), ("content", "**Welcome**")])
        .await;
    let id = r["saved_snippet_id"].as_i64().unwrap();
    let q = env.queue("member", "[\"saved_snippets\"]").await;
    let path = format!("/saved_snippets/{id}");
    let (s, _) = env.raw("bob", "PATCH", &path, &[("title", "Mine")]).await;
    assert_eq!(s, 404);
    let (s, r) = env.raw("member", "PATCH", &path, &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("At least one of title or content must be provided.")));
    let (s, r) = env
        .raw("member", "PATCH", &path, &[("title", "New welcome"), ("content", "Welcome to Zulip!")])
        .await;
    assert_eq!(s, 200, "{r}");
    let (_, r) = env.raw("member", "GET", "/saved_snippets", &[]).await;
    assert_eq!(r["saved_snippets"][0]["title"], "New welcome");
    assert_eq!(r["saved_snippets"][0]["content"], "Welcome to Zulip!");
    let evs = env.events("member", &q).await;
    let e = of_type(&evs, "saved_snippets");
    assert_eq!(
        (e[0]["op"].as_str(), e[0]["saved_snippet"]["title"].as_str()),
        (Some("update"), Some("New welcome"))
    );
}

#[tokio::test]
async fn a_default_channel_is_removed_by_an_administrator() {
    let env = Env::start().await;
    let design = env.channel_id("design").to_string();
    let (s, _) = env.raw("admin", "POST", "/default_streams", &[("stream_id", &design)]).await;
    assert_eq!(s, 200);
    let (s, r) = env.raw("member", "DELETE", "/default_streams", &[("stream_id", &design)]).await;
    assert_eq!(s, 400, "{r}");
    let q = env.queue("bob", "[\"default_streams\"]").await;
    let (s, r) = env.raw("admin", "DELETE", "/default_streams", &[("stream_id", &design)]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "DELETE", "/default_streams", &[("stream_id", &design)]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Channel is not a default channel")));
    let evs = env.events("bob", &q).await;
    let e = of_type(&evs, "default_streams");
    assert!(e[0]["default_streams"].as_array().unwrap().iter().all(|c| c["name"] != "design"), "{evs:?}");
}

#[tokio::test]
async fn linkifiers_are_changed_reordered_and_removed() {
    let env = Env::start().await;
    let mut ids = vec![];
    for (p, u) in
        [("#(?P<id>[0-9]+)", "https://a.example/{id}"), ("T(?P<id>[0-9]+)", "https://b.example/{id}")]
    {
        let (_, r) = env.raw("admin", "POST", "/realm/filters", &[("pattern", p), ("url_template", u)]).await;
        ids.push(r["id"].as_i64().unwrap());
    }
    let first = format!("/realm/filters/{}", ids[0]);
    let change = [("pattern", "#(?P<id>[0-9]+)"), ("url_template", "https://c.example/{id}")];
    let (s, _) = env.raw("member", "PATCH", &first, &change).await;
    assert_eq!(s, 400);
    let (s, r) =
        env.raw("admin", "PATCH", &first, &[("pattern", "(("), ("url_template", "https://c.example/")]).await;
    assert_eq!(s, 400, "{r}");
    let (s, r) = env.raw("admin", "PATCH", &first, &change).await;
    assert_eq!(s, 200, "{r}");
    let order = json!([ids[1], ids[0]]).to_string();
    let (s, r) = env.raw("admin", "PATCH", "/realm/linkifiers", &[("ordered_linkifier_ids", &order)]).await;
    assert_eq!(s, 200, "{r}");
    let (_, r) = env.raw("member", "GET", "/realm/linkifiers", &[]).await;
    let got: Vec<i64> =
        r["linkifiers"].as_array().unwrap().iter().map(|l| l["id"].as_i64().unwrap()).collect();
    let at = |id| got.iter().position(|x| *x == id).unwrap();
    assert!(at(ids[1]) < at(ids[0]), "{r}");
    assert_eq!(r["linkifiers"][at(ids[0])]["url_template"], "https://c.example/{id}");
    let partial = json!([ids[1]]).to_string();
    let (s, _) = env.raw("admin", "PATCH", "/realm/linkifiers", &[("ordered_linkifier_ids", &partial)]).await;
    assert_eq!(s, 400);
    let (s, _) = env.raw("admin", "DELETE", &first, &[]).await;
    assert_eq!(s, 200);
    let (s, r) = env.raw("admin", "DELETE", &first, &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Linkifier not found.")));
}

#[tokio::test]
async fn a_code_playground_is_removed_by_an_administrator() {
    let env = Env::start().await;
    let add =
        [("name", "Py"), ("pygments_language", "Python"), ("url_template", "https://p.example/?c={code}")];
    let (_, r) = env.raw("admin", "POST", "/realm/playgrounds", &add).await;
    let path = format!("/realm/playgrounds/{}", r["id"]);
    let (s, _) = env.raw("member", "DELETE", &path, &[]).await;
    assert_eq!(s, 400);
    let (s, r) = env.raw("admin", "DELETE", &path, &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "DELETE", &path, &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid playground")));
}

#[tokio::test]
async fn push_device_tokens_are_added_and_removed() {
    let env = Env::start().await;
    let (s, _) = env
        .raw(
            "member",
            "POST",
            "/users/me/apns_device_token",
            &[("token", "c0ffee"), ("appid", "org.zulip.Zulip")],
        )
        .await;
    assert_eq!(s, 200);
    let (s, r) = env.raw("bob", "DELETE", "/users/me/apns_device_token", &[("token", "c0ffee")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Token does not exist")));
    let (s, _) = env.raw("member", "DELETE", "/users/me/apns_device_token", &[("token", "c0ffee")]).await;
    assert_eq!(s, 200);
    let (s, _) =
        env.raw("member", "POST", "/users/me/android_gcm_reg_id", &[("token", "android-token")]).await;
    assert_eq!(s, 200);
    let (s, _) =
        env.raw("member", "DELETE", "/users/me/android_gcm_reg_id", &[("token", "android-token")]).await;
    assert_eq!(s, 200);
    let (s, r) =
        env.raw("member", "DELETE", "/users/me/android_gcm_reg_id", &[("token", "android-token")]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Token does not exist")));
    let reg = [
        ("token_kind", "fcm"),
        ("push_account_id", "2408"),
        ("push_public_key", "k"),
        ("bouncer_public_key", "b"),
        ("encrypted_push_registration", "e"),
    ];
    let (s, r) = env.raw("member", "POST", "/mobile_push/register", &reg).await;
    assert_eq!(s, 200, "{r}");
    let mut bad = reg;
    bad[0].1 = "sms";
    let (s, _) = env.raw("member", "POST", "/mobile_push/register", &bad).await;
    assert_eq!(s, 400);
}

#[tokio::test]
async fn invitations_are_revoked_and_resent_by_their_inviter_or_an_administrator() {
    let env = Env::start().await;
    let (s, r) = env
        .raw("member", "POST", "/invites", &[("invitee_emails", "x@example.org"), ("stream_ids", "[]")])
        .await;
    assert_eq!(s, 200, "{r}");
    let (_, r) = env.raw("admin", "GET", "/invites", &[]).await;
    let id = r["invites"].as_array().unwrap().iter().find(|i| i["email"] == "x@example.org").unwrap()["id"]
        .clone();
    let (s, r) = env.raw("bob", "POST", &format!("/invites/{id}/resend"), &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Must be an organization administrator")));
    let (s, r) = env.raw("member", "POST", &format!("/invites/{id}/resend"), &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "DELETE", &format!("/invites/{id}"), &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "DELETE", &format!("/invites/{id}"), &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("No such invitation")));
    let (_, r) = env.raw("admin", "POST", "/invites/multiuse", &[]).await;
    let link = r["invite_link"].clone();
    let (_, r) = env.raw("admin", "GET", "/invites", &[]).await;
    let id = r["invites"].as_array().unwrap().iter().find(|i| i["link_url"] == link).unwrap()["id"].clone();
    // A link is not an email invitation, nor the other way round.
    let (s, _) = env.raw("admin", "DELETE", &format!("/invites/{id}"), &[]).await;
    assert_eq!(s, 400);
    let (s, r) = env.raw("admin", "DELETE", &format!("/invites/multiuse/{id}"), &[]).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = env.raw("admin", "DELETE", &format!("/invites/multiuse/{id}"), &[]).await;
    assert_eq!((s, r["msg"].as_str()), (400, Some("Invalid invitation ID.")));
}
