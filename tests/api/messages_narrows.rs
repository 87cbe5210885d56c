//! Messages: get with a narrow — every operator the server reads (channels, topics, DMs,
//! senders, `is:`/`has:` flags, full-text search, negation, `with`), and who may read which
//! history (personal vs. shared, protected history, guests). Owns only these tests; the shared
//! helpers (`all`, `t`, `ids`, `find`, …) live in `messages.rs`, the anchors and limits of a
//! get stay there too. Start with `narrow_by_channel_name_or_id`.

use crate::common::{Env, assert_err};
use crate::messages::*;
use serde_json::json;
use std::collections::BTreeSet;
use topicterm::api::*;

// ---------------------------------------------------------------------------------------------
// Operation 6: narrows
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn narrow_by_channel_name_or_id() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = env.channel_id("engineering");
    let by_name = all(&c, vec![t("channel", "engineering")]).await;
    let by_id = all(&c, vec![t("channel", eng)]).await;
    let legacy_name = all(&c, vec![t("stream", "engineering")]).await;
    assert!(!by_name.is_empty());
    assert_eq!(ids(&by_name), ids(&by_id));
    assert_eq!(ids(&by_name), ids(&legacy_name));
    for m in &by_name {
        assert_eq!(m.stream_id, Some(eng));
        assert_eq!(m.channel_name(), Some("engineering"));
        assert_eq!(m.kind, MessageType::Stream);
    }
}

#[tokio::test]
async fn narrow_by_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("channel", "engineering"), t("topic", "release 2.4 planning")]).await;
    assert!(ms.len() > 5);
    assert!(ms.iter().all(|m| m.subject == "release 2.4 planning"));
    assert!(ms.iter().any(|m| m.content.contains("Kicking off 2.4 planning")));
}

#[tokio::test]
async fn narrow_by_direct_message_conversation() {
    let env = Env::start().await;
    let c = env.client("member");
    let (me, farid, alice, dave) =
        (env.user_id("member"), env.user_id("farid"), env.user_id("alice"), env.user_id("dave"));
    let one = all(&c, vec![t("dm", json!([farid]))]).await;
    assert!(one.iter().any(|m| m.content.contains("14:00 works")));
    for m in &one {
        let mut users = m.dm_user_ids();
        users.sort_unstable();
        let mut expected = vec![me, farid];
        expected.sort_unstable();
        assert_eq!(users, expected);
        assert_eq!(m.subject, "", "direct messages have no topic");
    }
    let group = all(&c, vec![t("dm", json!([alice, dave]))]).await;
    assert!(group.iter().any(|m| m.content.contains("perfect")));
    for m in &group {
        let users: BTreeSet<UserId> = m.dm_user_ids().into_iter().collect();
        assert_eq!(users, BTreeSet::from([me, alice, dave]));
    }
}

#[tokio::test]
async fn narrow_dm_including_includes_group_conversations() {
    let env = Env::start().await;
    let c = env.client("member");
    let (farid, noa) = (env.user_id("farid"), env.user_id("noa"));
    let group = send_dm(&c, vec![farid, noa], "group with farid and noa").await;
    let one_to_one = ids(&all(&c, vec![t("dm", json!([farid]))]).await);
    assert!(!one_to_one.contains(&group));
    // `dm-with` is the web app's search-box name: the client sends it as `dm-including`.
    for op in ["dm-with", "dm-including"] {
        let with = all(&c, vec![t(op, farid)]).await;
        assert!(with.iter().all(|m| m.dm_user_ids().contains(&farid)), "{op}");
        let with = ids(&with);
        assert!(with.contains(&group), "{op} includes the group DM");
        assert!(one_to_one.iter().all(|id| with.contains(id)), "{op} includes the 1:1 DMs");
    }
    // `group-pm-with`: the group conversations only.
    let groups = ids(&all(&c, vec![t("group-pm-with", farid)]).await);
    assert!(groups.contains(&group) && one_to_one.iter().all(|id| !groups.contains(id)));
    // No server knows `dm-with` itself: asked directly, it is refused as the reference server
    // refuses it (an integer operand fails the string check before the operator is looked up).
    let page = [("anchor", "newest"), ("num_before", "5"), ("num_after", "0")];
    let by_id = json!([{"operator": "dm-with", "operand": farid}]).to_string();
    let (status, body) =
        env.raw("member", "GET", "/messages", &[&page[..], &[("narrow", by_id.as_str())]].concat()).await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("operand is not a string")), "{body}");
    let by_email = json!([{"operator": "dm-with", "operand": env.creds("farid").email}]).to_string();
    let (status, body) =
        env.raw("member", "GET", "/messages", &[&page[..], &[("narrow", by_email.as_str())]].concat()).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")), "{body}");
    assert_eq!(body["msg"], "Invalid narrow operator: unknown operator dm-with");
}

#[tokio::test]
async fn narrow_by_sender_id_or_email() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.user_id("alice");
    let by_id = all(&c, vec![t("sender", alice)]).await;
    let by_email = all(&c, vec![t("sender", env.creds("alice").email)]).await;
    assert!(!by_id.is_empty());
    assert_eq!(ids(&by_id), ids(&by_email));
    assert!(by_id.iter().all(|m| m.sender_id == alice));
}

#[tokio::test]
async fn narrow_is_unread_matches_the_unread_state() {
    let env = Env::start().await;
    let c = env.client("member");
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    let unread = all(&c, vec![t("is", "unread")]).await;
    assert!(unread.iter().all(|m| !m.has_flag(topicterm::api::Flag::Read)));
    assert_eq!(unread.len() as i64, reg.unread_msgs.unwrap().count);
    let tally = find(&c, "Tally so far TOML").await;
    assert!(ids(&unread).contains(&tally.id));
}

#[tokio::test]
async fn narrow_is_starred_matches_starred_messages() {
    let env = Env::start().await;
    let c = env.client("member");
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    let starred = all(&c, vec![t("is", "starred")]).await;
    assert!(!starred.is_empty());
    assert!(starred.iter().all(|m| m.has_flag(topicterm::api::Flag::Starred)));
    assert_eq!(ids(&starred), reg.starred_messages.unwrap());
}

#[tokio::test]
async fn narrow_is_mentioned() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "mentioned")]).await;
    assert!(ms.iter().all(|m| m.has_flag(topicterm::api::Flag::Mentioned)
        || m.has_flag(topicterm::api::Flag::StreamWildcardMentioned)));
    assert!(ms.iter().any(|m| m.content.contains("blocker for 2.4")));
    let quiet = find(&c, "Tally so far TOML").await;
    assert!(!ids(&ms).contains(&quiet.id));
}

#[tokio::test]
async fn narrow_mentions_id_and_near() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let mentions = all(&c, vec![t("mentions", me)]).await;
    assert!(mentions.iter().any(|m| m.content.contains("blocker for 2.4")));
    assert!(mentions.iter().all(|m| m.has_flag(topicterm::api::Flag::Mentioned)));
    let m = find(&c, "Tally so far TOML").await;
    assert_eq!(ids(&all(&c, vec![t("id", m.id)]).await), vec![m.id]);
    // near only positions a view; on the server it filters nothing.
    let eng = ids(&all(&c, vec![t("channel", "engineering")]).await);
    assert_eq!(ids(&all(&c, vec![t("channel", "engineering"), t("near", m.id)]).await), eng);
}

#[tokio::test]
async fn narrow_is_dm() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "dm")]).await;
    assert!(ms.iter().all(Message::is_dm));
    assert!(ms.iter().any(|m| m.content.contains("14:00 works")));
    let legacy = all(&c, vec![t("is", "private")]).await;
    assert_eq!(ids(&ms), ids(&legacy));
}

#[tokio::test]
async fn narrow_is_resolved() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "resolved")]).await;
    assert!(!ms.is_empty());
    assert!(ms.iter().all(|m| m.subject.starts_with("✔ ")));
    assert!(ms.iter().any(|m| m.subject == "✔ flaky CI on arm64"));
}

#[tokio::test]
async fn narrow_is_followed() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("is", "followed")]).await;
    let topics: BTreeSet<&str> = ms.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(topics, BTreeSet::from(["release 2.4 planning", "SSO login loop for Acme"]));
}

#[tokio::test]
async fn narrow_is_muted_covers_muted_topics_and_channels_but_not_unmuted_topics() {
    let env = Env::start().await;
    let c = env.client("member");
    let random = env.channel_id("random");
    let ms = all(&c, vec![t("is", "muted")]).await;
    for m in &ms {
        let muted_topic = m.subject == "bikeshed: config file format";
        let muted_channel = m.stream_id == Some(random) && m.subject != "lunch friday";
        assert!(muted_topic || muted_channel, "{} / {}", m.id, m.subject);
    }
    assert!(ms.iter().any(|m| m.subject == "bikeshed: config file format"));
    assert!(ms.iter().any(|m| m.content.contains("Clint Yeastwood")), "muted channel random");
    assert!(!ms.iter().any(|m| m.subject == "lunch friday"), "unmuted topic in a muted channel");
}

#[tokio::test]
async fn narrow_has_link_image_and_reaction() {
    let env = Env::start().await;
    let c = env.client("member");
    let links = ids(&all(&c, vec![t("has", "link")]).await);
    assert!(links.contains(&find(&c, "pull/1899").await.id));
    assert!(!links.contains(&find(&c, "wait for the branch cut").await.id));

    let images = all(&c, vec![t("has", "image")]).await;
    assert!(images.iter().any(|m| m.content.contains("Mochi")));
    assert!(images.iter().all(|m| m.content.contains("<img")), "every match renders an image");

    let reacted = all(&c, vec![t("has", "reaction")]).await;
    assert!(!reacted.is_empty());
    assert!(reacted.iter().all(|m| !m.reactions.is_empty()));
    assert!(!ids(&reacted).contains(&find(&c, "Tally so far TOML").await.id));
}

#[tokio::test]
async fn narrow_search_matches_every_word() {
    let env = Env::start().await;
    let c = env.client("member");
    let ms = all(&c, vec![t("search", "sourdough STARTER")]).await;
    assert_eq!(ms.len(), 1);
    assert!(ms[0].content.contains("Clint Yeastwood"));
    assert!(all(&c, vec![t("search", "sourdough xylophone")]).await.is_empty());
}

#[tokio::test]
async fn narrow_search_quoted_phrase_matches_adjacent_words_in_order() {
    let env = Env::start().await;
    let c = env.client("member");
    // Unquoted words match anywhere, in any order.
    let words = all(&c, vec![t("search", "topics muted")]).await;
    assert_eq!(words.len(), 3, "{:?}", ids(&words));
    // A quoted phrase is matched as a phrase: adjacent, in order, any case.
    let phrase = all(&c, vec![t("search", r#""MUTED Topics""#)]).await;
    assert_eq!(ids(&phrase), ids(&words));
    assert!(all(&c, vec![t("search", r#""topics muted""#)]).await.is_empty());
    assert!(all(&c, vec![t("search", r#""hide topics""#)]).await.is_empty(), "words must be adjacent");
    // Phrases and words combine; each must match.
    let one = all(&c, vec![t("search", r#"reappear "muted topics""#)]).await;
    assert_eq!(one.len(), 1);
    assert!(one[0].content.contains("reappear after a reconnect"));
    assert!(all(&c, vec![t("search", r#"xylophone "muted topics""#)]).await.is_empty());
}

#[tokio::test]
async fn narrow_user_operands_are_ids_or_emails_not_me() {
    // The reference server has no `me` operand: clients resolve it to the user's ID.
    let env = Env::start().await;
    let c = env.client("member");
    let q = GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![t("sender", "me")]);
    assert_err(c.get_messages(&q).await, "BAD_NARROW", "Invalid narrow operator");
    let q = GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![t("dm", json!(["me"]))]);
    assert_err(c.get_messages(&q).await, "BAD_NARROW", "Invalid narrow operator");
}

#[tokio::test]
async fn negated_terms_exclude_matches() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let eng = all(&c, vec![t("channel", "engineering")]).await;
    let not_mine = all(&c, vec![t("channel", "engineering"), t("sender", me).negate()]).await;
    assert!(!not_mine.is_empty());
    assert!(not_mine.iter().all(|m| m.sender_id != me));
    let mine = eng.iter().filter(|m| m.sender_id == me).count();
    assert!(mine > 0);
    assert_eq!(not_mine.len() + mine, eng.len());

    let not_dm = all(&c, vec![t("is", "dm").negate()]).await;
    assert!(!not_dm.is_empty() && not_dm.iter().all(|m| !m.is_dm()));
}

#[tokio::test]
async fn with_operator_follows_a_moved_message() {
    let env = Env::start().await;
    let c = env.client("member");
    let (eng, design) = (env.channel_id("engineering"), env.channel_id("design"));
    let id = send_channel(&c, eng, "with test", "a message that will move").await;
    c.update_message(id, &move_to(Some("with moved"), Some(design), "change_one")).await.unwrap();
    let old = vec![t("channel", eng), t("topic", "with test")];
    assert!(all(&c, old.clone()).await.is_empty(), "nothing left in the old conversation");
    let mut followed = old;
    followed.push(t("with", id));
    let ms = all(&c, followed).await;
    assert_eq!(ids(&ms), vec![id]);
    assert_eq!(ms[0].stream_id, Some(design));
    assert_eq!(ms[0].subject, "with moved");
}

#[tokio::test]
async fn channels_public_searches_shared_history_of_public_channels_only() {
    let env = Env::start().await;
    // bob is not subscribed to design.
    let bob = env.client("bob");
    assert!(all(&bob, vec![t("search", "Uploaded the dark mode")]).await.is_empty());
    let shared = all(&bob, vec![t("channels", "public"), t("search", "Uploaded the dark mode")]).await;
    assert_eq!(shared.len(), 1);
    assert_eq!(shared[0].channel_name(), Some("design"));

    // admin is in the private leadership channel, but channels:public leaves it out.
    let admin = env.client("admin");
    let leadership = env.channel_id("leadership");
    assert!(!all(&admin, vec![t("channel", leadership)]).await.is_empty());
    let public = all(&admin, vec![t("channels", "public")]).await;
    assert!(!public.is_empty());
    assert!(public.iter().all(|m| !m.is_dm() && m.stream_id != Some(leadership)));
    for private in ["security", "moderation"] {
        assert!(public.iter().all(|m| m.channel_name() != Some(private)));
    }
}

#[tokio::test]
async fn legacy_pair_narrow_is_accepted() {
    let env = Env::start().await;
    let c = env.client("member");
    let modern = ids(&all(&c, vec![t("channel", "engineering"), t("topic", "release 2.4 planning")]).await);
    let (status, body) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[
                ("anchor", "newest"),
                ("num_before", "5000"),
                ("num_after", "0"),
                ("narrow", r#"[["channel", "engineering"], ["topic", "release 2.4 planning"]]"#),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let legacy: Vec<i64> =
        body["messages"].as_array().unwrap().iter().map(|m| m["id"].as_i64().unwrap()).collect();
    assert_eq!(legacy, modern);
}

#[tokio::test]
async fn unknown_operators_operands_and_channels_are_bad_narrows() {
    let env = Env::start().await;
    let c = env.client("member");
    for narrow in [
        vec![t("frobnicate", "x")],
        vec![t("channel", "no-such-channel")],
        vec![t("channel", 99_999)],
        vec![t("is", "sparkly")],
        vec![t("has", "smell")],
        // Private and not subscribed: the same answer as a channel that does not exist.
        vec![t("channel", "leadership")],
    ] {
        let r = c.get_messages(&GetMessages::around(Anchor::Newest, 10, 0).narrow(narrow)).await;
        assert_err(r, "BAD_NARROW", "");
    }
    let (status, body) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[
                ("anchor", "newest"),
                ("num_before", "1"),
                ("num_after", "0"),
                ("narrow", r#"[["nope", "x"]]"#),
            ],
        )
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")));
}

#[tokio::test]
async fn personal_history_needs_a_channel_operator_for_unsubscribed_public_channels() {
    let env = Env::start().await;
    let bob = env.client("bob");
    let guest = env.user_id("guest");
    // Without a channel operator only bob's own history is searched.
    let own = all(&bob, vec![t("sender", guest)]).await;
    assert!(own.iter().all(|m| m.channel_name() != Some("design")));
    // With one, the channel's shared history.
    let shared = all(&bob, vec![t("channel", "design"), t("sender", guest)]).await;
    assert!(!shared.is_empty());
    assert!(shared.iter().all(|m| m.channel_name() == Some("design") && m.sender_id == guest));
    // Messages bob never received are marked historical (and read).
    assert!(
        shared
            .iter()
            .all(|m| m.has_flag(topicterm::api::Flag::Historical) && m.has_flag(topicterm::api::Flag::Read))
    );
}

#[tokio::test]
async fn protected_history_hides_messages_from_before_the_subscription() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let bob = env.client("bob");
    let bob_id = env.user_id("bob");
    let security = env.channel_id("security");
    let old = all(&admin, vec![t("channel", security)]).await;
    assert!(!old.is_empty());
    admin.subscribe(&["security"], Some(&Principals::Ids(vec![bob_id]))).await.unwrap();

    let r = bob
        .get_messages(&GetMessages::around(Anchor::Newest, 100, 0).narrow(vec![t("channel", security)]))
        .await
        .unwrap();
    assert!(r.messages.is_empty(), "no history from before bob joined");
    assert!(r.found_newest && r.found_oldest);
    let q = GetMessages { message_ids: Some(ids(&old)), ..Default::default() };
    assert!(bob.get_messages(&q).await.unwrap().messages.is_empty());
    assert_err(bob.get_message(old[0].id, true).await, "BAD_REQUEST", "");

    let new = send_channel(&admin, security, "after bob joined", "welcome bob").await;
    assert_eq!(ids(&all(&bob, vec![t("channel", security)]).await), vec![new]);

    // A private channel whose history is shared shows everything to a new subscriber.
    let leadership = env.channel_id("leadership");
    let before = ids(&all(&admin, vec![t("channel", leadership)]).await);
    admin.subscribe(&["leadership"], Some(&Principals::Ids(vec![bob_id]))).await.unwrap();
    assert_eq!(ids(&all(&bob, vec![t("channel", leadership)]).await), before);
}

#[tokio::test]
async fn guests_cannot_read_public_channels_they_are_not_in() {
    let env = Env::start().await;
    let guest = env.client("guest");
    let member = env.client("member");
    let eng_msg = find(&member, "Tally so far TOML").await;
    let r = guest
        .get_messages(&GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![t("channel", "engineering")]))
        .await;
    assert_err(r, "BAD_NARROW", "");
    let q = GetMessages { message_ids: Some(vec![eng_msg.id]), ..Default::default() };
    assert!(guest.get_messages(&q).await.unwrap().messages.is_empty());
    assert_err(guest.get_message(eng_msg.id, true).await, "BAD_REQUEST", "");
    let public = all(&guest, vec![t("channels", "public")]).await;
    assert!(public.iter().all(|m| m.channel_name() != Some("engineering")));
    assert!(public.iter().any(|m| m.channel_name() == Some("design")), "channels the guest is in");
}
