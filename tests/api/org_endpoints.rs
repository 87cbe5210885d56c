//! The organization endpoints third-party clients call that the demo server lacked: a channel's
//! members, one user's subscription, the custom profile fields, creating a channel, deleting a
//! topic, channel folders and one's uploads — each with its permission and its event.

use crate::common::*;
use serde_json::json;
use topicterm::api::{ApiError, Invited, LimitError, NewChannel, OutgoingMessage, invitation_failure};
use topicterm::server::ServerOptions;

#[tokio::test]
async fn members_and_one_users_subscription() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let (status, body) = env.raw("member", "GET", &format!("/streams/{general}/members"), &[]).await;
    assert_eq!(status, 200, "{body}");
    let ids: Vec<i64> = serde_json::from_value(body["subscribers"].clone()).unwrap();
    assert!(ids.contains(&env.user_id("member")) && ids.contains(&env.user_id("alice")));
    let member = env.user_id("member");
    let (_, body) = env.raw("alice", "GET", &format!("/users/{member}/subscriptions/{general}"), &[]).await;
    assert_eq!(body["is_subscribed"], true);
    let outdoors = env.channel_id("outdoors");
    let (_, body) = env.raw("alice", "GET", &format!("/users/{member}/subscriptions/{outdoors}"), &[]).await;
    assert_eq!(body["is_subscribed"], false);
    let leadership = env.channel_id("leadership");
    let (status, _) = env.raw("member", "GET", &format!("/streams/{leadership}/members"), &[]).await;
    assert_eq!(status, 400, "a private channel one is not in");
}

#[tokio::test]
async fn the_custom_profile_fields_are_listed() {
    let env = Env::start().await;
    let (status, body) = env.raw("member", "GET", "/realm/profile_fields", &[]).await;
    assert_eq!(status, 200, "{body}");
    let names: Vec<&str> =
        body["custom_fields"].as_array().unwrap().iter().filter_map(|f| f["name"].as_str()).collect();
    assert!(names.contains(&"Pronouns") && names.contains(&"Team"), "{names:?}");
}

#[tokio::test]
async fn a_channel_is_created_with_its_subscribers_once() {
    let env = Env::start().await;
    let q = env.queue("alice", r#"["stream","subscription"]"#).await;
    let alice = env.user_id("alice").to_string();
    let subs = format!("[{alice}]");
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/channels/create",
            &[("name", "new-projects"), ("subscribers", &subs), ("description", "Ideas")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_i64().unwrap();
    let evs = env.events("alice", &q).await;
    assert!(evs.iter().any(|e| e["type"] == "stream" && e["op"] == "create"), "{evs:?}");
    assert!(evs.iter().any(|e| e["type"] == "subscription"
        && e["op"] == "add"
        && e["subscriptions"][0]["stream_id"] == id));
    let (status, body) = env
        .raw("member", "POST", "/channels/create", &[("name", "new-projects"), ("subscribers", "[]")])
        .await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("Channel 'new-projects' already exists")));
}

#[tokio::test]
async fn only_administrators_delete_a_topic() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let alice = env.client("alice");
    for text in ["one", "two"] {
        alice.send_message(&OutgoingMessage::channel(general, "to delete", text)).await.unwrap();
    }
    let q = env.queue("member", r#"["delete_message"]"#).await;
    let path = format!("/streams/{general}/delete_topic");
    let (status, body) = env.raw("member", "POST", &path, &[("topic_name", "to delete")]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("Must be an organization administrator")));
    let err = env.client("member").delete_topic(general, "to delete").await.expect_err("members may not");
    assert_eq!(err.server().map(|e| e.msg.as_str()), Some("Must be an organization administrator"));
    // The typed client, as :delete-topic calls it.
    let done = env.client("admin").delete_topic(general, "to delete").await.unwrap();
    assert_eq!(done.complete, Some(true));
    let deleted = env.events("member", &q).await.iter().filter(|e| e["type"] == "delete_message").count();
    assert_eq!(deleted, 2);
}

#[tokio::test]
async fn channel_folders_are_listed_created_and_archived_by_administrators() {
    let env = Env::start().await;
    let q = env.queue("member", r#"["channel_folder"]"#).await;
    let (_, before) = env.raw("member", "GET", "/channel_folders", &[]).await;
    let count = before["channel_folders"].as_array().unwrap().len();
    let (status, _) = env.raw("member", "POST", "/channel_folders/create", &[("name", "Ops")]).await;
    assert_eq!(status, 400, "members may not");
    let (status, body) = env
        .raw(
            "admin",
            "POST",
            "/channel_folders/create",
            &[("name", "Ops"), ("description", "Running things")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let id = body["channel_folder_id"].as_i64().unwrap();
    let (status, _) =
        env.raw("admin", "PATCH", &format!("/channel_folders/{id}"), &[("is_archived", "true")]).await;
    assert_eq!(status, 200);
    let (_, after) = env.raw("member", "GET", "/channel_folders", &[]).await;
    assert_eq!(after["channel_folders"].as_array().unwrap().len(), count, "archived: left out by default");
    let (_, all) = env.raw("member", "GET", "/channel_folders", &[("include_archived", "true")]).await;
    assert_eq!(all["channel_folders"].as_array().unwrap().len(), count + 1);
    let ops: Vec<String> = env
        .events("member", &q)
        .await
        .iter()
        .filter(|e| e["type"] == "channel_folder")
        .map(|e| e["op"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(ops, vec!["add", "update"]);
}

#[tokio::test]
async fn ones_uploads_are_listed_with_where_they_are_used_and_deleted() {
    let env = Env::start().await;
    let member = env.client("member");
    let up = member.upload_file("notes.txt", 5, "hello".to_owned().into()).await.unwrap();
    let general = env.channel_id("general");
    member
        .send_message(&OutgoingMessage::channel(general, "files", &format!("[notes.txt]({})", up.url)))
        .await
        .unwrap();
    let (status, body) = env.raw("member", "GET", "/attachments", &[]).await;
    assert_eq!(status, 200, "{body}");
    let mine = &body["attachments"][0];
    assert_eq!((mine["name"].as_str(), mine["size"].as_i64()), (Some("notes.txt"), Some(5)));
    assert_eq!(mine["message_ids"].as_array().unwrap().len(), 1, "where it is used (level 472)");
    let id = mine["id"].as_i64().unwrap();
    let (_, others) = env.raw("alice", "GET", "/attachments", &[]).await;
    assert_eq!(others["attachments"], json!([]));
    let (status, _) = env.raw("alice", "DELETE", &format!("/attachments/{id}"), &[]).await;
    assert_eq!(status, 404, "not another user's");
    let (status, _) = env.raw("member", "DELETE", &format!("/attachments/{id}"), &[]).await;
    assert_eq!(status, 200);
    let (_, body) = env.raw("member", "GET", "/attachments", &[]).await;
    assert_eq!(body["attachments"], json!([]));
}

#[tokio::test]
async fn invitations_are_sent_listed_and_refused_for_members_already_there() {
    let env = Env::start().await;
    let general = env.channel_id("general").to_string();
    let ids = format!("[{general}]");
    let alice = env.creds("alice").email;
    let emails = format!("new.person@example.org, {alice}");
    let (status, body) =
        env.raw("member", "POST", "/invites", &[("invitee_emails", &emails), ("stream_ids", &ids)]).await;
    // As the reference server: the others are invited, the refusal says so and names the member.
    assert_eq!((status, body["code"].as_str()), (400, Some("INVITATION_FAILED")), "{body}");
    assert_eq!(body["sent_invitations"], true);
    assert_eq!(body["errors"][0][0], alice.as_str(), "an existing member is skipped and named");
    let (status, body) =
        env.raw("member", "POST", "/invites", &[("invitee_emails", &alice), ("stream_ids", &ids)]).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("INVITATION_FAILED")));
    assert_eq!(body["sent_invitations"], false);
    let bad = "another.new@example.org, not-an-address";
    let (status, body) =
        env.raw("member", "POST", "/invites", &[("invitee_emails", bad), ("stream_ids", &ids)]).await;
    assert_eq!((status, body["sent_invitations"].as_bool()), (400, Some(false)), "one invalid: none sent");
    assert_eq!(body["errors"], json!([["not-an-address", "Invalid address.", false]]));
    // Reusable links are for `create_multiuse_invite_group`: administrators by default.
    let (status, body) = env.raw("admin", "POST", "/invites/multiuse", &[("invite_as", "400")]).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["invite_link"].as_str().unwrap().contains("/join/"));
    let (_, list) = env.raw("member", "GET", "/invites", &[]).await;
    let invites = list["invites"].as_array().unwrap();
    assert_eq!(invites.len(), 1, "a member lists their own: {list}");
    assert!(invites.iter().any(|i| i["email"] == "new.person@example.org" && i["is_multiuse"] == false));
    let (_, list) = env.raw("admin", "GET", "/invites", &[]).await;
    assert_eq!(list["invites"].as_array().unwrap().len(), 2, "an administrator lists every one: {list}");
    let (status, _) = env.raw("guest", "POST", "/invites/multiuse", &[]).await;
    assert_eq!(status, 400, "guests may not invite");
}

/// As the reference server's `invite_users_backend`, `generate_multiuse_invite_backend` and
/// `check_role_based_permissions`: a guest never invites; email invitations are for
/// `can_invite_users_group` (members by default), links for `create_multiuse_invite_group`
/// (administrators); only an owner invites an owner, only an administrator an administrator.
/// Nothing refused is kept.
#[tokio::test]
async fn invitations_to_a_role_above_the_inviters_or_without_the_group_are_refused() {
    let env = Env::start().await;
    let ids = format!("[{}]", env.channel_id("general"));
    let mut n = 0;
    let mut email = |who: &str, role: &str| {
        n += 1;
        let addr = format!("{who}.as.{role}.{n}@example.org");
        let (env, ids) = (&env, ids.clone());
        let who = who.to_owned();
        let role = role.to_owned();
        async move {
            let params =
                [("invitee_emails", addr.as_str()), ("stream_ids", ids.as_str()), ("invite_as", &role)];
            env.raw(&who, "POST", "/invites", &params).await
        }
    };
    let link = |who: &'static str, role: &'static str| {
        let env = &env;
        async move { env.raw(who, "POST", "/invites/multiuse", &[("invite_as", role)]).await }
    };
    let refused = |(status, body): (u16, serde_json::Value), code: &str, msg: &str, what: &str| {
        assert_eq!(
            (status, body["code"].as_str(), body["msg"].as_str()),
            (400, Some(code), Some(msg)),
            "{what}: {body}"
        );
    };
    let owner_only = ("UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    let admin_only = ("BAD_REQUEST", "Must be an organization administrator");
    let no_group = ("BAD_REQUEST", "Insufficient permission");
    let guest = ("BAD_REQUEST", "Not allowed for guest users");
    for (who, role, refusal) in [
        ("member", "100", Some(owner_only)),
        ("member", "200", Some(admin_only)),
        ("moderator", "100", Some(owner_only)),
        ("moderator", "200", Some(admin_only)),
        ("admin", "100", Some(owner_only)),
        ("guest", "400", Some(guest)),
        ("guest", "600", Some(guest)),
        // What each may: up to their own role (a moderator's is not checked by the reference).
        ("member", "400", None),
        ("member", "600", None),
        ("moderator", "300", None),
        ("admin", "200", None),
        ("owner", "100", None),
    ] {
        let answer = email(who, role).await;
        match refusal {
            Some((code, msg)) => refused(answer, code, msg, &format!("{who} inviting as {role}")),
            None => assert_eq!(answer.0, 200, "{who} inviting as {role}: {}", answer.1),
        }
    }
    for (who, role, refusal) in [
        ("member", "100", Some(no_group)),
        ("member", "400", Some(no_group)),
        ("moderator", "400", Some(no_group)),
        ("guest", "600", Some(guest)),
        ("admin", "100", Some(owner_only)),
        ("admin", "200", None),
        ("owner", "100", None),
    ] {
        let answer = link(who, role).await;
        match refusal {
            Some((code, msg)) => refused(answer, code, msg, &format!("{who}'s link as {role}")),
            None => assert_eq!(answer.0, 200, "{who}'s link as {role}: {}", answer.1),
        }
    }
    let id = |who: &str| env.user_id(who);
    let mut kept: Vec<(i64, i64, bool)> = {
        let org = env.server.shared.lock();
        org.invites.values().map(|i| (i.by, i.invited_as, i.link.is_some())).collect()
    };
    kept.sort();
    let mut want = vec![
        (id("member"), 400, false),
        (id("member"), 600, false),
        (id("moderator"), 300, false),
        (id("admin"), 200, false),
        (id("owner"), 100, false),
        (id("admin"), 200, true),
        (id("owner"), 100, true),
    ];
    want.sort();
    assert_eq!(kept, want, "only what was allowed is kept");
}

#[tokio::test]
async fn default_channels_linkifiers_and_custom_emoji_are_added_with_events() {
    let env = Env::start().await;
    let q = env.queue("member", r#"["default_streams","realm_linkifiers","realm_emoji"]"#).await;
    let general = env.channel_id("general").to_string();
    let (status, _) = env.raw("member", "POST", "/default_streams", &[("stream_id", &general)]).await;
    assert_eq!(status, 400, "administrators only");
    let (status, body) = env.raw("admin", "POST", "/default_streams", &[("stream_id", &general)]).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = env
        .raw(
            "admin",
            "POST",
            "/realm/filters",
            &[("pattern", "#(?P<id>[0-9]+)"), ("url_template", "https://tracker.example/{id}")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, list) = env.raw("member", "GET", "/realm/linkifiers", &[]).await;
    assert_eq!(list["linkifiers"][0]["url_template"], "https://tracker.example/{id}");
    let reg = env.raw("member", "POST", "/register", &[]).await.1;
    assert_eq!(reg["realm_default_streams"], json!([env.channel_id("general")]));
    assert_eq!(reg["realm_linkifiers"][0]["pattern"], "#(?P<id>[0-9]+)");
    // A custom emoji: one image, as multipart form data.
    let creds = env.creds("member");
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(b"GIF89a".to_vec()).file_name("party.gif"));
    let resp = reqwest::Client::new()
        .post(format!("{}/api/v1/realm/emoji/party_parrot", env.server.url))
        .basic_auth(&creds.email, Some(&creds.api_key))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let (_, emoji) = env.raw("member", "GET", "/realm/emoji", &[]).await;
    assert!(emoji["emoji"].as_object().unwrap().values().any(|e| e["name"] == "party_parrot"), "{emoji}");
    let types: Vec<String> = env
        .events("member", &q)
        .await
        .iter()
        .map(|e| e["type"].as_str().unwrap_or_default().to_owned())
        .collect();
    for t in ["default_streams", "realm_linkifiers", "realm_emoji"] {
        assert!(types.contains(&t.to_owned()), "{t}: {types:?}");
    }
}

#[tokio::test]
async fn the_typed_client_creates_a_channel_by_the_endpoint_of_each_level() {
    for level in [topicterm::api::levels::CREATE_CHANNEL - 1, topicterm::api::levels::CREATE_CHANNEL] {
        let env = Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await;
        let me = env.user_id("member");
        let c = env.registered_client("member").await;
        let new = NewChannel {
            name: "night shift".into(),
            description: "Who is on **tonight**".into(),
            private: true,
            subscribers: vec![me],
        };
        let made = c.create_channel(&new).await.unwrap_or_else(|e| panic!("level {level}: {e}"));
        let id = env.channel_id("night shift");
        assert_eq!(
            made.id,
            (level >= 417).then_some(id),
            "level {level}: the new ID where the server says it"
        );
        let ch = c.get_stream(id).await.unwrap().stream;
        assert!(ch.invite_only, "level {level}: private");
        assert_eq!(ch.description, "Who is on **tonight**");
        let subs = c.get_subscriptions(Default::default()).await.unwrap().subscriptions;
        assert!(subs.iter().any(|s| s.stream_id == id), "level {level}: the creator is in it");
        if level >= 417 {
            let err = c.create_channel(&new).await.expect_err("a name taken");
            assert_eq!(err.server().map(|e| e.msg.as_str()), Some("Channel 'night shift' already exists"));
        }
    }
    let c = Env::start().await.client("member");
    let blank = NewChannel { name: "  ".into(), ..Default::default() };
    assert!(matches!(c.create_channel(&blank).await, Err(ApiError::Limit(LimitError::EmptyChannelName))));
}

#[tokio::test]
async fn the_typed_client_invites_and_names_those_skipped() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let c = env.registered_client("member").await;
    let alice = env.creds("alice").email;
    let done = c.send_invites(&["new.one@example.org".into()], &[general]).await.unwrap();
    assert_eq!(done, Invited::default());
    let done = c.send_invites(&["new.two@example.org".into(), alice.clone()], &[]).await.unwrap();
    assert_eq!(done.skipped.len(), 1, "sent to the one, the member skipped: {done:?}");
    assert_eq!(
        (done.skipped[0].email.as_str(), done.skipped[0].reason.as_str()),
        (alice.as_str(), "Already has an account.")
    );
    let err = c.send_invites(std::slice::from_ref(&alice), &[general]).await.expect_err("nobody invited");
    let (skipped, sent) = invitation_failure(&err).expect("an invitation failure");
    assert_eq!((skipped.len(), sent), (1, false));
    let err = env.registered_client("guest").await.send_invites(&["x@example.org".into()], &[general]).await;
    assert_eq!(
        err.expect_err("guests may not").server().map(|e| e.msg.as_str()),
        Some("Not allowed for guest users")
    );
    let (_, list) = env.raw("member", "GET", "/invites", &[]).await;
    let emails: Vec<&str> =
        list["invites"].as_array().unwrap().iter().filter_map(|i| i["email"].as_str()).collect();
    assert_eq!(emails, ["new.one@example.org", "new.two@example.org"]);
}

#[tokio::test]
async fn channel_folders_are_reordered_and_channels_moved_between_them_with_events() {
    let env = Env::start().await;
    let q = env.queue("member", r#"["channel_folder","stream"]"#).await;
    let (_, listed) = env.raw("member", "GET", "/channel_folders", &[]).await;
    let ids: Vec<i64> =
        listed["channel_folders"].as_array().unwrap().iter().filter_map(|f| f["id"].as_i64()).collect();
    assert_eq!(ids.len(), 2, "{listed}");
    let reversed = format!("[{},{}]", ids[1], ids[0]);
    let (status, _) = env.raw("member", "PATCH", "/channel_folders", &[("order", &reversed)]).await;
    assert_eq!(status, 400, "members may not");
    // Every folder, each once, or the reference server's refusal.
    for bad in [format!("[{}]", ids[0]), format!("[{0},{0}]", ids[0]), format!("[{},{},999]", ids[1], ids[0])]
    {
        let (status, body) = env.raw("admin", "PATCH", "/channel_folders", &[("order", &bad)]).await;
        assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid order mapping.")), "{bad}");
    }
    let (status, body) = env.raw("admin", "PATCH", "/channel_folders", &[("order", &reversed)]).await;
    assert_eq!(status, 200, "{body}");
    let (_, listed) = env.raw("member", "GET", "/channel_folders", &[]).await;
    let now: Vec<(i64, i64)> = listed["channel_folders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["id"].as_i64().unwrap(), f["order"].as_i64().unwrap()))
        .collect();
    assert_eq!(now, vec![(ids[1], 0), (ids[0], 1)]);
    // A channel goes into a folder and out of it (`null`), as `PATCH /streams/{id}` says.
    let general = env.channel_id("general");
    let path = format!("/streams/{general}");
    let (status, body) = env.raw("admin", "PATCH", &path, &[("folder_id", "999")]).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid channel folder ID")));
    let into = ids[0].to_string();
    let (status, body) = env.raw("admin", "PATCH", &path, &[("folder_id", &into)]).await;
    assert_eq!(status, 200, "{body}");
    let (_, c) = env.raw("member", "GET", &path, &[]).await;
    assert_eq!(c["stream"]["folder_id"], ids[0]);
    // A folder with channels in it is not archived.
    let (status, body) =
        env.raw("admin", "PATCH", &format!("/channel_folders/{}", ids[0]), &[("is_archived", "true")]).await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (400, Some("You need to remove all the channels from this folder to archive it."))
    );
    let (status, _) = env.raw("admin", "PATCH", &path, &[("folder_id", "null")]).await;
    assert_eq!(status, 200);
    let (_, c) = env.raw("member", "GET", &path, &[]).await;
    assert_eq!(c["stream"]["folder_id"], serde_json::Value::Null);
    let evs = env.events("member", &q).await;
    let reorder: Vec<&serde_json::Value> = evs.iter().filter(|e| e["type"] == "channel_folder").collect();
    assert_eq!(reorder.len(), 1, "{evs:?}");
    assert_eq!(reorder[0]["op"], "reorder");
    assert_eq!(reorder[0]["order"], json!([ids[1], ids[0]]));
    let moved: Vec<&serde_json::Value> =
        evs.iter().filter(|e| e["type"] == "stream" && e["property"] == "folder_id").collect();
    assert_eq!(moved.len(), 2, "{evs:?}");
    assert_eq!((moved[0]["stream_id"].as_i64(), &moved[0]["value"]), (Some(general), &json!(ids[0])));
    assert_eq!(moved[1]["value"], serde_json::Value::Null);
    assert_eq!(moved[1]["op"], "update");
    assert_eq!(moved[1]["name"], "general");
}
