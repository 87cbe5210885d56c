//! Browsing channels and people: `GET /streams` (which channels, subscriber counts,
//! visibility), `GET /streams/{id}`, `GET /users/{user_id}` and `GET /users/{email}` (with
//! custom profile fields), and register's `custom_profile_fields` and `channel_folders`.

use crate::common::{Env, assert_err};
use topicterm::api::*;

fn names(list: &[BasicChannel]) -> Vec<&str> {
    list.iter().map(|c| c.name.as_str()).collect()
}

#[tokio::test]
async fn streams_lists_public_and_subscribed_channels_by_name_with_subscriber_counts() {
    let env = Env::start().await;
    let member = env.client("member");
    let list = member.get_streams(&StreamsQuery::default()).await.unwrap().streams;
    let got = names(&list);
    let mut sorted = got.clone();
    sorted.sort_unstable();
    assert_eq!(got, sorted, "sorted by name, as the reference server answers");
    assert!(got.contains(&"outdoors"), "a public channel member is not in is listed: {got:?}");
    assert!(got.contains(&"security"), "a private channel member is in is listed");
    for hidden in ["leadership", "moderation"] {
        assert!(!got.contains(&hidden), "private channel {hidden} member is not in is hidden");
    }
    let outdoors = list.iter().find(|c| c.name == "outdoors").unwrap();
    assert_eq!(outdoors.subscriber_count, Some(4));
    assert!(outdoors.rendered_description.contains("<strong>where to go</strong>"));
    assert!(outdoors.folder_id.is_some(), "outdoors is in the Social folder");
    let general = list.iter().find(|c| c.name == "general").unwrap();
    let everyone = env.server.shared.lock().users.values().filter(|u| !u.is_system_bot).count() as i64;
    assert_eq!(general.subscriber_count, Some(everyone));

    // Only what is subscribed …
    let q = StreamsQuery { include_public: Some(false), ..Default::default() };
    let mine = member.get_streams(&q).await.unwrap().streams;
    assert!(!names(&mine).contains(&"outdoors"));
    assert!(names(&mine).contains(&"security") && names(&mine).contains(&"general"));
    // … or only what is public.
    let q = StreamsQuery { include_subscribed: Some(false), ..Default::default() };
    let public = member.get_streams(&q).await.unwrap().streams;
    assert!(names(&public).contains(&"outdoors") && !names(&public).contains(&"security"));
    // A subscriber count follows subscriptions.
    member.subscribe(&["outdoors"], None).await.unwrap();
    let list = member.get_streams(&StreamsQuery::default()).await.unwrap().streams;
    assert_eq!(list.iter().find(|c| c.name == "outdoors").unwrap().subscriber_count, Some(5));
}

#[tokio::test]
async fn include_all_shows_administrators_every_channel_and_members_what_they_may_see() {
    let env = Env::start().await;
    let all = StreamsQuery { include_all: Some(true), ..Default::default() };
    let admin = env.client("admin").get_streams(&all).await.unwrap().streams;
    assert!(names(&admin).contains(&"leadership"), "admin is in leadership");
    let owner_only = env.client("moderator").get_streams(&all).await.unwrap().streams;
    assert!(!names(&owner_only).contains(&"security"), "a moderator is not an administrator");
    // An administrator sees private channels they are not in; a member does not.
    let admin_not_in: Vec<String> = {
        let org = env.server.shared.lock();
        let admin = org.users.values().find(|u| u.short_name == "admin").unwrap().id;
        org.channels.values().filter(|c| !c.subs.contains_key(&admin)).map(|c| c.name.clone()).collect()
    };
    assert!(admin_not_in.iter().any(|n| n == "outdoors"));
    for n in &admin_not_in {
        assert!(names(&admin).contains(&n.as_str()), "include_all lists {n} to an administrator");
    }
    let member = env.client("member").get_streams(&all).await.unwrap().streams;
    assert!(!names(&member).contains(&"leadership"));
    // The deprecated include_all_active is for administrators only.
    let (status, body) = env.raw("member", "GET", "/streams", &[("include_all_active", "true")]).await;
    assert_eq!((status, body["result"].as_str()), (400, Some("error")), "{body}");
    assert_eq!(body["msg"], "User not authorized for this query");
    let (status, _) = env.raw("admin", "GET", "/streams", &[("include_all_active", "true")]).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn guests_see_only_their_channels_and_archived_ones_are_left_out() {
    let env = Env::start().await;
    let guest = env.client("guest").get_streams(&StreamsQuery::default()).await.unwrap().streams;
    let mut got = names(&guest);
    got.sort_unstable();
    assert_eq!(got, vec!["announcements", "book-club", "design", "general", "support"]);

    env.client("admin").get_streams(&StreamsQuery::default()).await.unwrap();
    let random = env.channel_id("random");
    let (status, _) = env.raw("admin", "DELETE", &format!("/streams/{random}"), &[]).await;
    assert_eq!(status, 200);
    let member = env.client("member");
    let list = member.get_streams(&StreamsQuery::default()).await.unwrap().streams;
    assert!(!names(&list).contains(&"random"), "archived channels are excluded by default");
    let q = StreamsQuery { exclude_archived: Some(false), ..Default::default() };
    let list = member.get_streams(&q).await.unwrap().streams;
    assert!(list.iter().any(|c| c.name == "random" && c.is_archived));
    // Bad flags are refused.
    let (status, body) = env.raw("member", "GET", "/streams", &[("include_public", "maybe")]).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn one_channel_by_id_only_when_the_user_may_see_it() {
    let env = Env::start().await;
    let member = env.client("member");
    let outdoors = env.channel_id("outdoors");
    let c = member.get_stream(outdoors).await.unwrap().stream;
    assert_eq!((c.stream_id, c.name.as_str(), c.subscriber_count), (outdoors, "outdoors", Some(4)));
    assert_eq!(c.stream_post_policy, Some(1));
    let announcements = member.get_stream(env.channel_id("announcements")).await.unwrap().stream;
    assert_eq!(announcements.stream_post_policy, Some(2), "only administrators post there");
    // A private channel the user is not in, and a channel that does not exist.
    let leadership = env.channel_id("leadership");
    assert_err(member.get_stream(leadership).await, "BAD_REQUEST", "Invalid channel ID");
    assert_err(member.get_stream(99_999).await, "BAD_REQUEST", "Invalid channel ID");
    assert!(env.client("alice").get_stream(leadership).await.is_ok(), "alice is in leadership");
    assert_err(env.client("guest").get_stream(outdoors).await, "BAD_REQUEST", "Invalid channel ID");
    let (status, body) = env.raw("member", "GET", "/streams/abc", &[]).await;
    assert_eq!(status, 400, "{body}");
}

/// Who may post is `can_send_message_group` from Zulip 10.0 (level 333), with the old
/// `stream_post_policy` still sent beside it; a server before that sends only the old enum.
#[tokio::test]
async fn who_may_post_is_the_old_enum_alone_before_level_333() {
    for (level, group) in
        [(218, false), (332, false), (333, true), (topicterm::server::org::FEATURE_LEVEL, true)]
    {
        let env =
            Env::start_with(topicterm::server::ServerOptions { feature_level: level, ..Default::default() })
                .await;
        let member = env.client("member");
        let _ = member.register(&topicterm::api::RegisterParams::default()).await.unwrap();
        let c = member.get_stream(env.channel_id("announcements")).await.unwrap().stream;
        assert_eq!(c.stream_post_policy, Some(2), "level {level}: only administrators post there");
        assert_eq!(c.can_send_message_group.is_some(), group, "level {level}");
    }
}

#[tokio::test]
async fn one_user_by_id_or_email_with_custom_profile_fields() {
    let env = Env::start().await;
    let c = env.client("bob");
    let member = env.user_id("member");
    let u = c.get_user(member, true).await.unwrap().user;
    assert_eq!(
        (u.user_id, u.full_name.as_str(), u.timezone.as_str()),
        (member, "Maya Lindqvist", "Europe/Stockholm")
    );
    assert_eq!(u.role, Some(400));
    let profile = u.profile_data.expect("profile data when asked for");
    // Field names come from register.
    let reg = c
        .register(&RegisterParams {
            fetch_event_types: Some(vec!["custom_profile_fields".into(), "channel_folders".into()]),
            ..Default::default()
        })
        .await
        .unwrap();
    let fields = reg.custom_profile_fields.expect("custom_profile_fields");
    let id_of = |name: &str| fields.iter().find(|f| f.name == name).map(|f| f.id.to_string()).unwrap();
    assert_eq!(profile[&id_of("Pronouns")].value, "she/her");
    assert_eq!(fields.iter().find(|f| f.name == "Pronouns").unwrap().field_type, 8);
    let about = &profile[&id_of("About me")];
    assert!(
        about.rendered_value.as_deref().is_some_and(|h| h.contains("<strong>keyboard shortcuts</strong>"))
    );
    assert_eq!(profile[&id_of("Birthday")].value, "1991-04-12");
    let bob = c.get_user(env.user_id("bob"), true).await.unwrap().user.profile_data.unwrap();
    assert!(!bob.contains_key(&id_of("Birthday")), "only fields with values");
    let folders = reg.channel_folders.expect("channel_folders");
    assert_eq!(folders.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), vec!["Engineering", "Social"]);

    // Without the flag, no profile data; by email, the same user.
    assert!(c.get_user(member, false).await.unwrap().user.profile_data.is_none());
    let by_email = c.get_user_by_email("member@demo.topicterm.test", true).await.unwrap().user;
    assert_eq!(by_email.user_id, member);
    assert!(by_email.profile_data.is_some());
    // Bots have none, even when asked.
    let bot = c.get_user(env.user_id("helperbot"), true).await.unwrap().user;
    assert!(bot.is_bot && bot.profile_data.is_none());
    // The whole list too (the reference's `format_user_row`; Zulip's example suite, get_members).
    let (status, all) = env.raw("bob", "GET", "/users", &[("include_custom_profile_fields", "true")]).await;
    assert_eq!(status, 200, "{all}");
    for u in all["members"].as_array().unwrap() {
        assert_eq!(u.get("profile_data").is_some(), u["is_bot"] == false, "{u}");
    }
}

#[tokio::test]
async fn unknown_users_are_no_such_user() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.get_user(99_999, false).await, "BAD_REQUEST", "No such user");
    assert_err(c.get_user_by_email("nobody@demo.topicterm.test", false).await, "BAD_REQUEST", "No such user");
    // The server's own bots belong to no organization.
    let bot = env.server.shared.lock().notification_bot;
    assert_err(c.get_user(bot, false).await, "BAD_REQUEST", "No such user");
    // Deactivated users are still found.
    let admin = env.client("admin");
    let carol = env.user_id("carol");
    admin.deactivate_user(carol, None, None).await.unwrap();
    let u = c.get_user(carol, false).await.unwrap().user;
    assert!(!u.is_active);
    let (status, body) = env.raw("", "GET", &format!("/users/{carol}"), &[]).await;
    assert_eq!(status, 401, "{body}");
    assert!(matches!(c.get_user_by_email("", false).await, Err(ApiError::Limit(LimitError::EmptyEmail))));
}
