//! Channels, topics and subscriptions: unsubscribe (operation 7), topics of a channel (operation
//! 15), channel email address (operation 20), subscriptions (operation 22), plus subscribe and
//! subscription settings. Topic visibility (operations 3 and 4) is in `topic_policies.rs`.

use crate::common::{Env, assert_err};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;
use topicterm::api::events::{EventKind, SubscriptionChange, SubscriptionEvent};
use topicterm::api::*;
use topicterm::server::ServerOptions;

/// Register an event queue for the client; returns (queue_id, last_event_id).
pub(crate) async fn queue(c: &Client) -> (String, i64) {
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    (reg.queue_id.unwrap(), reg.last_event_id)
}

/// Every event queued so far, without waiting.
pub(crate) async fn events(c: &Client, q: &(String, i64)) -> Vec<EventKind> {
    c.get_events(&q.0, q.1, true, Duration::from_secs(5)).await.unwrap().into_iter().map(|e| e.kind).collect()
}

fn subscription_events(evs: &[EventKind]) -> Vec<SubscriptionEvent> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::Subscription(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn server_at(feature_level: i64) -> ServerOptions {
    ServerOptions { feature_level, ..Default::default() }
}

async fn subscription(c: &Client, name: &str, include: Option<IncludeSubscribers>) -> Option<Subscription> {
    c.get_subscriptions(include).await.unwrap().subscriptions.into_iter().find(|s| s.name == name)
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

// ---------------------------------------------------------------------------------------------
// Operation 7: unsubscribe
// ---------------------------------------------------------------------------------------------

async fn subscribed(env: &Env, who: &str, channel: &str) -> bool {
    subscription(&env.client(who), channel, None).await.is_some()
}

#[tokio::test]
async fn unsubscribing_yourself_removes_and_announces() {
    let env = Env::start().await;
    let c = env.client("member");
    let design = env.channel_id("design");
    let (q, alice) = (queue(&c).await, env.client("alice"));
    let alice_q = queue(&alice).await;

    let r = c.unsubscribe(&names(&["design"]), None).await.unwrap();
    assert_eq!((r.removed, r.not_removed), (names(&["design"]), vec![]));
    assert!(!subscribed(&env, "member", "design").await);

    assert_eq!(subscription_events(&events(&c, &q).await), [SubscriptionEvent::Remove(vec![design])]);
    let peers = subscription_events(&events(&alice, &alice_q).await);
    let left =
        SubscriptionEvent::PeerRemove { stream_ids: vec![design], user_ids: vec![env.user_id("member")] };
    assert_eq!(peers, [left]);
}

#[tokio::test]
async fn not_subscribed_is_listed_as_not_removed() {
    let env = Env::start().await;
    let bob = env.client("bob");
    let r = bob.unsubscribe(&names(&["design"]), None).await.unwrap();
    assert_eq!((r.removed, r.not_removed), (vec![], names(&["design"])));
}

#[tokio::test]
async fn one_call_splits_removed_and_not_removed() {
    let env = Env::start().await;
    let bob = env.client("bob");
    let r = bob.unsubscribe(&names(&["general", "design"]), None).await.unwrap();
    assert_eq!((r.removed, r.not_removed), (names(&["general"]), names(&["design"])));
    assert!(!subscribed(&env, "bob", "general").await);
}

#[tokio::test]
async fn administrator_removes_anyone_from_any_channel() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let bob = env.user_id("bob");
    let r = admin.unsubscribe(&names(&["general"]), Some(&Principals::Ids(vec![bob]))).await.unwrap();
    assert_eq!(r.removed, names(&["general"]));
    assert!(!subscribed(&env, "bob", "general").await);

    // A private channel the administrator is not subscribed to.
    let (status, body) = env
        .raw(
            "alice",
            "POST",
            "/users/me/subscriptions",
            &[("subscriptions", r#"[{"name": "alice-private"}]"#), ("invite_only", "true")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(subscription(&admin, "alice-private", None).await.is_none());
    let alice = env.user_id("alice");
    let r = admin.unsubscribe(&names(&["alice-private"]), Some(&Principals::Ids(vec![alice]))).await.unwrap();
    assert_eq!(r.removed, names(&["alice-private"]));
    assert!(!subscribed(&env, "alice", "alice-private").await);
}

#[tokio::test]
async fn owner_removes_their_bot() {
    let env = Env::start().await;
    let member = env.client("member");
    let helperbot = env.user_id("helperbot");
    let r =
        member.unsubscribe(&names(&["engineering"]), Some(&Principals::Ids(vec![helperbot]))).await.unwrap();
    assert_eq!(r.removed, names(&["engineering"]));
    assert!(!subscribed(&env, "helperbot", "engineering").await);
    // Not someone else's bot: alice does not own helperbot and "support" is not managed by her.
    assert_err(
        env.client("alice").unsubscribe(&names(&["support"]), Some(&Principals::Ids(vec![helperbot]))).await,
        "BAD_REQUEST",
        "Insufficient permission",
    );
    assert!(subscribed(&env, "helperbot", "support").await);
}

#[tokio::test]
async fn can_remove_subscribers_group_members_remove_anyone() {
    let env = Env::start().await;
    let bob = env.user_id("bob");
    for lead in ["alice", "dave"] {
        let target = if lead == "alice" { bob } else { env.user_id("erin") };
        let r = env
            .client(lead)
            .unsubscribe(&names(&["engineering"]), Some(&Principals::Ids(vec![target])))
            .await
            .unwrap();
        assert_eq!(r.removed, names(&["engineering"]), "{lead}");
    }
    assert!(!subscribed(&env, "bob", "engineering").await);
    assert!(!subscribed(&env, "erin", "engineering").await);
    // The group only governs the channel that names it.
    assert_err(
        env.client("alice").unsubscribe(&names(&["random"]), Some(&Principals::Ids(vec![bob]))).await,
        "BAD_REQUEST",
        "Insufficient permission",
    );
}

#[tokio::test]
async fn plain_member_cannot_remove_others() {
    let env = Env::start().await;
    let bob = env.user_id("bob");
    assert_err(
        env.client("member").unsubscribe(&names(&["engineering"]), Some(&Principals::Ids(vec![bob]))).await,
        "BAD_REQUEST",
        "Insufficient permission",
    );
    assert!(subscribed(&env, "bob", "engineering").await);
}

#[tokio::test]
async fn unknown_channel_is_stream_does_not_exist_with_stream() {
    let env = Env::start().await;
    let c = env.client("member");
    let e = assert_err(c.unsubscribe(&names(&["no-such-channel"]), None).await, "STREAM_DOES_NOT_EXIST", "");
    assert_eq!(e.status, 400);
    assert_eq!(e.stream.as_deref(), Some("no-such-channel"));
}

#[tokio::test]
async fn inaccessible_private_channel_is_stream_does_not_exist() {
    let env = Env::start().await;
    let c = env.client("member");
    let e = assert_err(c.unsubscribe(&names(&["leadership"]), None).await, "STREAM_DOES_NOT_EXIST", "");
    assert_eq!(e.stream.as_deref(), Some("leadership"));
}

#[tokio::test]
async fn deactivated_or_unknown_principal_is_bad_request() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let erin = env.user_id("erin");
    admin.deactivate_user(erin, None, None).await.unwrap();
    for who in [erin, 987_654] {
        let e = assert_err(
            admin.unsubscribe(&names(&["general"]), Some(&Principals::Ids(vec![who]))).await,
            "BAD_REQUEST",
            "",
        );
        assert_eq!(e.status, 400);
    }
}

#[tokio::test]
async fn bad_principal_before_208_is_unauthorized_principal() {
    let env = Env::start_with(server_at(200)).await;
    let admin = env.client("admin");
    let e = assert_err(
        admin.unsubscribe(&names(&["general"]), Some(&Principals::Ids(vec![987_654]))).await,
        "UNAUTHORIZED_PRINCIPAL",
        "",
    );
    assert_eq!(e.status, 403);
}

#[tokio::test]
async fn principals_may_be_emails() {
    let env = Env::start().await;
    let bob_email = env.creds("bob").email;
    let r = env
        .client("admin")
        .unsubscribe(&names(&["general"]), Some(&Principals::Emails(vec![bob_email])))
        .await
        .unwrap();
    assert_eq!(r.removed, names(&["general"]));
    assert!(!subscribed(&env, "bob", "general").await);
}

async fn archive(env: &Env, channel: &str) {
    let path = format!("/streams/{}", env.channel_id(channel));
    let (status, body) = env.raw("admin", "DELETE", &path, &[]).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn archived_channel_subscriptions_can_be_removed_since_362() {
    let env = Env::start().await;
    archive(&env, "random").await;
    let r = env.client("member").unsubscribe(&names(&["random"]), None).await.unwrap();
    assert_eq!(r.removed, names(&["random"]));

    let old = Env::start_with(server_at(300)).await;
    archive(&old, "random").await;
    assert_err(
        old.client("member").unsubscribe(&names(&["random"]), None).await,
        "STREAM_DOES_NOT_EXIST",
        "",
    );
    assert!(subscribed(&old, "member", "random").await);
}

// ---------------------------------------------------------------------------------------------
// Operation 15: get_topics
// ---------------------------------------------------------------------------------------------

async fn newest_in_topic(c: &Client, channel: i64, topic: &str) -> i64 {
    let q = GetMessages::around(Anchor::Newest, 1, 0)
        .narrow(vec![NarrowTerm::new("channel", channel), NarrowTerm::new("topic", topic)]);
    c.get_messages(&q).await.unwrap().messages.last().expect("a message").id
}

#[tokio::test]
async fn topics_carry_max_id_newest_first() {
    let env = Env::start().await;
    let c = env.client("member");
    let engineering = env.channel_id("engineering");
    let topics = c.get_topics(engineering, true).await.unwrap().topics;
    assert!(topics.len() > 5);
    assert!(topics.windows(2).all(|w| w[0].max_id > w[1].max_id), "{topics:?}");
    for t in &topics {
        assert_eq!(t.max_id, newest_in_topic(&c, engineering, &t.name).await, "{}", t.name);
    }
    // A new message moves its topic to the front.
    let last = topics.last().unwrap().name.clone();
    let sent = c.send_message(&OutgoingMessage::channel(engineering, &last, "bump")).await.unwrap().id;
    let topics = c.get_topics(engineering, true).await.unwrap().topics;
    assert_eq!(topics[0], TopicEntry { name: last, max_id: sent });
}

#[tokio::test]
async fn protected_history_shows_only_topics_after_subscription() {
    let env = Env::start().await;
    let security = env.channel_id("security");
    let bob = env.user_id("bob");
    let admin = env.client("admin");
    admin.subscribe(&["security"], Some(&Principals::Ids(vec![bob]))).await.unwrap();
    let bob_c = env.client("bob");
    assert_eq!(bob_c.get_topics(security, true).await.unwrap().topics, vec![]);

    let sent =
        admin.send_message(&OutgoingMessage::channel(security, "new audit", "hello bob")).await.unwrap().id;
    let seen = bob_c.get_topics(security, true).await.unwrap().topics;
    assert_eq!(seen, vec![TopicEntry { name: "new audit".into(), max_id: sent }]);
    // Earlier subscribers still see the old topics.
    let member_topics: Vec<String> = env
        .client("member")
        .get_topics(security, true)
        .await
        .unwrap()
        .topics
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert!(member_topics.contains(&"dependency audit".to_owned()), "{member_topics:?}");
    assert!(member_topics.contains(&"new audit".to_owned()));
}

#[tokio::test]
async fn empty_topic_is_shown_per_allow_empty_topic_name() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let raw: Vec<String> =
        c.get_topics(general, true).await.unwrap().topics.into_iter().map(|t| t.name).collect();
    assert!(raw.contains(&String::new()), "{raw:?}");
    assert!(!raw.contains(&"general chat".to_owned()));
    let shown: Vec<String> =
        c.get_topics(general, false).await.unwrap().topics.into_iter().map(|t| t.name).collect();
    assert!(shown.contains(&"general chat".to_owned()), "{shown:?}");
    assert!(!shown.contains(&String::new()));
}

#[tokio::test]
async fn topics_of_unknown_or_inaccessible_channel_are_refused() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.get_topics(987_654, false).await, "BAD_REQUEST", "");
    assert_err(c.get_topics(env.channel_id("leadership"), false).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn topics_of_archived_channels_since_480() {
    let env = Env::start().await;
    archive(&env, "random").await;
    let topics = env.client("member").get_topics(env.channel_id("random"), false).await.unwrap().topics;
    assert!(topics.iter().any(|t| t.name == "lunch friday"), "{topics:?}");

    let old = Env::start_with(server_at(470)).await;
    archive(&old, "random").await;
    assert_err(old.client("member").get_topics(old.channel_id("random"), false).await, "BAD_REQUEST", "");
}

// ---------------------------------------------------------------------------------------------
// Operation 20: get_channel_email
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn channel_email_for_gateway_self_and_own_bot() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let gateway = c.get_channel_email(general, None).await.unwrap().email;
    assert_eq!(c.get_channel_email(general, None).await.unwrap().email, gateway, "stable");
    let me = c.get_channel_email(general, Some(env.user_id("member"))).await.unwrap().email;
    let bot = c.get_channel_email(general, Some(env.user_id("helperbot"))).await.unwrap().email;
    let all: BTreeSet<&String> = [&gateway, &me, &bot].into_iter().collect();
    assert_eq!(all.len(), 3, "each sender has its own address: {all:?}");
    for e in all {
        assert!(e.contains('@') && e.starts_with("general"), "{e}");
    }
    let other = c.get_channel_email(env.channel_id("design"), None).await.unwrap().email;
    assert_ne!(other, gateway, "each channel has its own address");
}

#[tokio::test]
async fn channel_email_sender_must_be_self_gateway_or_own_bot() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let c = env.client("member");
    assert_err(c.get_channel_email(general, Some(env.user_id("alice"))).await, "BAD_REQUEST", "");
    // helperbot belongs to member, not to the administrator.
    assert_err(
        env.client("admin").get_channel_email(general, Some(env.user_id("helperbot"))).await,
        "BAD_REQUEST",
        "",
    );
}

#[tokio::test]
async fn channel_email_only_for_those_who_may_post() {
    let env = Env::start().await;
    let announcements = env.channel_id("announcements");
    assert_err(env.client("member").get_channel_email(announcements, None).await, "BAD_REQUEST", "");
    let email = env.client("admin").get_channel_email(announcements, None).await.unwrap().email;
    assert!(email.starts_with("announcements"), "{email}");
}

#[tokio::test]
async fn channel_email_of_unknown_or_inaccessible_channel_is_refused() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.get_channel_email(987_654, None).await, "BAD_REQUEST", "");
    assert_err(c.get_channel_email(env.channel_id("leadership"), None).await, "BAD_REQUEST", "");
}

// ---------------------------------------------------------------------------------------------
// Operation 22: get_subscriptions; subscribe; subscription settings
// ---------------------------------------------------------------------------------------------

const MEMBER_CHANNELS: &[&str] = &[
    "general",
    "announcements",
    "engineering",
    "builds",
    "design",
    "support",
    "random",
    "book-club",
    "security",
];

#[tokio::test]
async fn subscriptions_without_subscribers() {
    let env = Env::start().await;
    let c = env.client("member");
    for include in [None, Some(IncludeSubscribers::False)] {
        let subs = c.get_subscriptions(include).await.unwrap().subscriptions;
        let got: BTreeSet<&str> = subs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(got, MEMBER_CHANNELS.iter().copied().collect());
        assert!(subs.iter().all(|s| s.subscribers.is_none() && s.partial_subscribers.is_none()));
    }
    let (_, body) = env.raw("member", "GET", "/users/me/subscriptions", &[]).await;
    assert!(body["subscriptions"].as_array().unwrap().iter().all(|s| s.get("subscribers").is_none()));
}

fn ids(env: &Env, shorts: &[&str]) -> BTreeSet<i64> {
    shorts.iter().map(|s| env.user_id(s)).collect()
}

#[tokio::test]
async fn subscriptions_with_subscribers() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = subscription(&c, "engineering", Some(IncludeSubscribers::True)).await.unwrap();
    let expected = ids(
        &env,
        &[
            "owner",
            "admin",
            "member",
            "alice",
            "bob",
            "carol",
            "dave",
            "erin",
            "farid",
            "noa",
            "moderator",
            "helperbot",
        ],
    );
    assert_eq!(eng.subscribers.unwrap().into_iter().collect::<BTreeSet<_>>(), expected);
    assert!(eng.partial_subscribers.is_none());
}

#[tokio::test]
async fn partial_below_the_threshold_returns_full_subscribers() {
    let env = Env::start().await;
    let c = env.client("member");
    let subs = c.get_subscriptions(Some(IncludeSubscribers::Partial)).await.unwrap().subscriptions;
    for s in subs {
        assert!(s.subscribers.is_some() && s.partial_subscribers.is_none(), "{}", s.name);
    }
}

#[tokio::test]
async fn partial_above_the_threshold_returns_bots_and_recently_active() {
    let env = Env::start_with(ServerOptions { partial_subscribers_threshold: 3, ..Default::default() }).await;
    let c = env.client("member");
    // A channel below the threshold still gets its full list.
    c.subscribe(&["solo"], None).await.unwrap();
    let full = c.get_subscriptions(Some(IncludeSubscribers::True)).await.unwrap().subscriptions;
    let partial = c.get_subscriptions(Some(IncludeSubscribers::Partial)).await.unwrap().subscriptions;
    let bots = ids(&env, &["helperbot", "echobot"]);
    // Seeded presence within the last 14 days.
    let recent =
        ids(&env, &["owner", "admin", "alice", "carol", "dave", "erin", "farid", "noa", "moderator", "bob"]);
    for s in partial {
        let all: BTreeSet<i64> = full
            .iter()
            .find(|f| f.stream_id == s.stream_id)
            .unwrap()
            .subscribers
            .clone()
            .unwrap()
            .into_iter()
            .collect();
        if s.name == "solo" {
            assert_eq!(s.subscribers, Some(vec![env.user_id("member")]));
            assert!(s.partial_subscribers.is_none());
            continue;
        }
        assert!(s.subscribers.is_none(), "{}: no full list", s.name);
        let part: BTreeSet<i64> =
            s.partial_subscribers.clone().expect("partial_subscribers").into_iter().collect();
        assert!(part.is_subset(&all), "{}", s.name);
        let must: BTreeSet<i64> =
            all.iter().copied().filter(|u| bots.contains(u) || recent.contains(u)).collect();
        assert!(must.is_subset(&part), "{}: {part:?} lacks some of {must:?}", s.name);
    }
}

#[tokio::test]
async fn group_setting_values_and_personal_settings_decode() {
    let env = Env::start().await;
    let c = env.client("member");
    let eng = subscription(&c, "engineering", None).await.unwrap();
    assert_eq!(eng.can_remove_subscribers_group, Some(GroupSettingValue::Group(env.group_id("leads"))));
    let admins = env.group_id("role:administrators");
    assert_eq!(eng.can_delete_any_message_group, Some(GroupSettingValue::Group(admins)));
    assert_eq!(
        eng.can_administer_channel_group,
        Some(GroupSettingValue::Anonymous {
            direct_members: vec![env.user_id("admin")],
            direct_subgroups: vec![admins]
        })
    );
    assert!(matches!(eng.can_add_subscribers_group, Some(GroupSettingValue::Group(_))));
    assert!(eng.pin_to_top && !eng.is_muted && eng.in_home_view);
    assert_eq!(eng.color, "#5b8def");

    let random = subscription(&c, "random", None).await.unwrap();
    assert!(random.is_muted && !random.in_home_view && !random.pin_to_top);
    let security = subscription(&c, "security", None).await.unwrap();
    assert!(security.invite_only && !security.history_public_to_subscribers);
}

#[tokio::test]
async fn subscription_settings_change_and_announce() {
    let env = Env::start().await;
    let c = env.client("member");
    let design = env.channel_id("design");
    let q = queue(&c).await;
    c.update_subscription_settings(&[
        (design, "is_muted", json!(true)),
        (design, "pin_to_top", json!(true)),
        (design, "color", json!("#123456")),
    ])
    .await
    .unwrap();
    let s = subscription(&c, "design", None).await.unwrap();
    assert!(s.is_muted && !s.in_home_view && s.pin_to_top);
    assert_eq!(s.color, "#123456");
    let updates: Vec<SubscriptionChange> = subscription_events(&events(&c, &q).await)
        .into_iter()
        .map(|e| match e {
            SubscriptionEvent::Update { stream_id, change } if stream_id == design => change,
            other => panic!("not an update of design: {other:?}"),
        })
        .collect();
    assert_eq!(
        updates,
        vec![
            // `in_home_view` first, as the reference server sends it since level 139.
            SubscriptionChange::InHomeView(false),
            SubscriptionChange::Muted(true),
            SubscriptionChange::PinToTop(true),
            SubscriptionChange::Color("#123456".into()),
        ]
    );
}

/// A channel's notification settings start as `null` (the user's default); as on the reference
/// server, only `true` or `false` can be set, never `null` again.
#[tokio::test]
async fn notification_settings_take_booleans_only() {
    let env = Env::start().await;
    let c = env.client("member");
    let design = env.channel_id("design");
    assert_eq!(subscription(&c, "design", None).await.unwrap().desktop_notifications, None);
    c.update_subscription_settings(&[(design, "desktop_notifications", json!(true))]).await.unwrap();
    assert_eq!(subscription(&c, "design", None).await.unwrap().desktop_notifications, Some(true));
    let null = c.update_subscription_settings(&[(design, "desktop_notifications", Value::Null)]).await;
    assert_err(null, "BAD_REQUEST", "not a boolean");
    assert_eq!(subscription(&c, "design", None).await.unwrap().desktop_notifications, Some(true));
}

#[tokio::test]
async fn subscribe_adds_announces_and_reports_already_and_unauthorized() {
    let env = Env::start().await;
    let bob = env.client("bob");
    // Keyed by user ID (feature level 289 and later; email before: see `tests/api/reference.rs`).
    let bob_key = env.user_id("bob").to_string();
    let design = env.channel_id("design");
    let (bob_q, alice) = (queue(&bob).await, env.client("alice"));
    let alice_q = queue(&alice).await;

    let r = bob.subscribe(&["design"], None).await.unwrap();
    assert_eq!(r.subscribed, json!({bob_key.clone(): ["design"]}));
    assert!(subscription(&bob, "design", None).await.is_some());
    let adds = subscription_events(&events(&bob, &bob_q).await);
    assert!(matches!(&adds[..], [SubscriptionEvent::Add(subs)] if subs[0].stream_id == design), "{adds:?}");
    let peers = subscription_events(&events(&alice, &alice_q).await);
    assert_eq!(
        peers,
        [SubscriptionEvent::PeerAdd { stream_ids: vec![design], user_ids: vec![env.user_id("bob")] }]
    );

    let r = bob.subscribe(&["design", "leadership"], None).await.unwrap();
    assert_eq!(r.already_subscribed, json!({bob_key: ["design"]}));
    assert_eq!(r.unauthorized, names(&["leadership"]));
    assert!(subscription(&bob, "leadership", None).await.is_none());
}

#[tokio::test]
async fn partial_is_unknown_before_412_and_the_client_asks_for_full_lists() {
    let env = Env::start_with(server_at(400)).await;
    let (status, body) =
        env.raw("member", "GET", "/users/me/subscriptions", &[("include_subscribers", "partial")]).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{body}");
    let c = env.registered_client("member").await;
    let subs = c.get_subscriptions(Some(IncludeSubscribers::Partial)).await.unwrap().subscriptions;
    assert!(!subs.is_empty());
    assert!(subs.iter().all(|s| s.subscribers.is_some()));
}

#[tokio::test]
async fn access_changes_are_told_in_one_invite_only_event_carrying_the_other_settings() {
    let env = Env::start().await;
    let general = env.channel_id("general");
    let q = env.queue("member", r#"["stream"]"#).await;
    let path = format!("/streams/{general}");
    let (status, _) = env
        .raw("admin", "PATCH", &path, &[("is_private", "true"), ("history_public_to_subscribers", "false")])
        .await;
    assert_eq!(status, 200);
    let evs = env.events("member", &q).await;
    let updates: Vec<&Value> = evs.iter().filter(|e| e["op"] == "update").collect();
    assert_eq!(updates.len(), 1, "one event for the three settings: {evs:?}");
    let e = updates[0];
    assert_eq!(
        (&e["property"], &e["value"], &e["history_public_to_subscribers"], &e["is_web_public"]),
        (&json!("invite_only"), &json!(true), &json!(false), &json!(false)),
        "{e}"
    );
}
