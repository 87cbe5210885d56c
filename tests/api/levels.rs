//! Every "since level N" fact of the client's table (`api::levels`), on both sides of N, against
//! the demo server started at that level: the server refuses the newer form with that level's
//! error (as the reference server does), and the client, speaking the server's terms, works.

use crate::common::*;
use topicterm::api::levels::*;
use topicterm::api::*;
use topicterm::server::ServerOptions;

/// `simplified_presence_events` (Zulip 11.0).
const SIMPLIFIED_PRESENCE: i64 = 419;

async fn at(level: i64) -> Env {
    Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await
}

fn narrow_param(op: &str, operand: serde_json::Value) -> String {
    serde_json::json!([{"operator": op, "operand": operand}]).to_string()
}

#[tokio::test]
async fn the_channel_operator_from_250_and_the_client_says_stream_before() {
    for level in [CHANNEL_OPERATOR - 1, CHANNEL_OPERATOR] {
        let env = at(level).await;
        let general = env.channel_id("general");
        let page = [("anchor", "newest"), ("num_before", "5"), ("num_after", "0")];
        let by_id = narrow_param("channel", general.into());
        let by_name = narrow_param("channel", "general".into());
        let (s1, b1) =
            env.raw("member", "GET", "/messages", &[&page[..], &[("narrow", by_id.as_str())]].concat()).await;
        let (s2, b2) = env
            .raw("member", "GET", "/messages", &[&page[..], &[("narrow", by_name.as_str())]].concat())
            .await;
        if level < CHANNEL_OPERATOR {
            assert_eq!((s1, b1["msg"].as_str()), (400, Some("elem[\"operand\"] is not a string")), "{b1}");
            assert_eq!((s2, b2["code"].as_str()), (400, Some("BAD_NARROW")), "{b2}");
            assert_eq!(b2["msg"], "Invalid narrow operator: unknown operator channel");
        } else {
            assert_eq!((s1, s2), (200, 200), "{b1} {b2}");
        }
        // The client's own channel view and mark-read work at both levels.
        let c = env.registered_client("member").await;
        let q = GetMessages::around(Anchor::Newest, 5, 0).narrow(vec![NarrowTerm::new("channel", general)]);
        let got = c.get_messages(&q).await.unwrap_or_else(|e| panic!("level {level}: {e}"));
        assert!(!got.messages.is_empty() && got.messages.iter().all(|m| m.stream_id == Some(general)));
        let narrow = [NarrowTerm::new("channel", general)];
        c.update_message_flags_for_narrow(
            &Anchor::Oldest,
            0,
            5000,
            &narrow,
            true,
            topicterm::api::Flag::Read,
        )
        .await
        .unwrap_or_else(|e| panic!("level {level}: {e}"));
        let q = q.narrow(vec![NarrowTerm::new("channel", general), NarrowTerm::new("is", "unread")]);
        assert!(c.get_messages(&q).await.unwrap().messages.is_empty(), "level {level}: the channel is read");
    }
}

#[tokio::test]
async fn the_channel_message_type_from_248_and_the_client_sends_stream_before() {
    for level in [CHANNEL_TYPE - 1, CHANNEL_TYPE] {
        let env = at(level).await;
        let general = env.channel_id("general").to_string();
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/messages",
                &[("type", "channel"), ("to", &general), ("topic", "t"), ("content", "x")],
            )
            .await;
        if level < CHANNEL_TYPE {
            assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid type")), "{body}");
        } else {
            assert_eq!(status, 200, "{body}");
        }
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/scheduled_messages",
                &[
                    ("type", "channel"),
                    ("to", &general),
                    ("topic", "t"),
                    ("content", "later"),
                    ("scheduled_delivery_timestamp", "4102444800"),
                ],
            )
            .await;
        assert_eq!(status, if level < CHANNEL_TYPE { 400 } else { 200 }, "{body}");
        // The client: send and schedule a channel message at both levels.
        let c = env.registered_client("member").await;
        let id: i64 = general.parse().unwrap();
        c.send_message(&OutgoingMessage::channel(id, "levels", "hello"))
            .await
            .unwrap_or_else(|e| panic!("{level}: {e}"));
        let msg = NewScheduledMessage {
            kind: SendType::Channel,
            to: Recipient::Channel(id),
            content: "later".into(),
            topic: Some("levels".into()),
            scheduled_delivery_timestamp: 4_102_444_800,
            read_by_sender: None,
        };
        c.create_scheduled_message(&msg).await.unwrap_or_else(|e| panic!("{level}: {e}"));
    }
}

#[tokio::test]
async fn own_messages_are_read_before_read_by_sender_because_the_client_marks_them() {
    for level in [READ_BY_SENDER - 1, READ_BY_SENDER] {
        let env = at(level).await;
        let c = env.registered_client("member").await;
        let general = env.channel_id("general");
        // Without read_by_sender, an old server leaves a message from an unknown client unread.
        let (_, body) = env
            .raw(
                "member",
                "POST",
                "/messages",
                &[("type", "stream"), ("to", &general.to_string()), ("topic", "rbs"), ("content", "raw")],
            )
            .await;
        let raw_id = body["id"].as_i64().unwrap();
        let mut m = OutgoingMessage::channel(general, "rbs", "mine");
        m.read_by_sender = Some(true);
        let id = c.send_message(&m).await.unwrap().id;
        let me = env.user_id("member");
        let flags = |id: i64| Some(env.server.shared.lock().flags_for(me, id).contains(&"read"));
        assert_eq!(flags(id), Some(true), "level {level}: the client's own message is read");
        if level < READ_BY_SENDER {
            assert_eq!(flags(raw_id), Some(false), "level {level}: a server before 236 leaves it unread");
        }
    }
}

#[tokio::test]
async fn register_sends_no_is_active_and_the_client_takes_everyone_listed_as_active() {
    let env = Env::start().await;
    let c = env.client("member");
    let raw = c
        .raw(reqwest::Method::POST, "/register", Params::new(), std::time::Duration::from_secs(10))
        .await
        .unwrap();
    let users = raw["realm_users"].as_array().unwrap();
    assert!(
        !users.is_empty() && users.iter().all(|u| u.get("is_active").is_none()),
        "as the reference server"
    );
    let reg = c.register(&Default::default()).await.unwrap();
    assert!(reg.realm_users.unwrap().read().iter().all(|u| u.is_active));
}

#[tokio::test]
async fn following_a_topic_from_219_and_a_clear_refusal_before() {
    for level in [FOLLOWED_TOPICS - 1, FOLLOWED_TOPICS] {
        let env = at(level).await;
        let c = env.registered_client("member").await;
        let general = env.channel_id("general");
        let r = c.update_user_topic(general, "follow me", VisibilityPolicy::Followed).await;
        if level < FOLLOWED_TOPICS {
            // A server of 8.0-dev calls itself 8.0: the level says why it is still refused.
            let e = r.unwrap_err().to_string();
            assert_eq!(
                e,
                "this server does not offer following topics: it needs Zulip 8.0 or later \
                 (feature level 219; this server is at 218)"
            );
        } else {
            r.unwrap();
        }
    }
}

#[tokio::test]
async fn edit_typing_is_not_sent_before_351() {
    let env = at(EDIT_TYPING_LEGACY - 1).await;
    let c = env.registered_client("member").await;
    let before = env.requests();
    c.set_edit_typing(1, TypingOp::Start).await.unwrap();
    assert_eq!(env.requests(), before, "no request to an endpoint the server lacks");
}

#[tokio::test]
async fn channel_typing_carries_to_before_215() {
    for level in [TYPING_STREAM_ID - 1, TYPING_STREAM_ID] {
        let env = at(level).await;
        let c = env.registered_client("member").await;
        let to = TypingTo::Channel { stream_id: env.channel_id("general"), topic: "t".into() };
        c.set_typing_status(TypingOp::Start, &to).await.unwrap_or_else(|e| panic!("{level}: {e}"));
    }
}

#[tokio::test]
async fn presence_events_are_legacy_unless_the_client_declares_simplified_presence_events() {
    for (level, declared, modern) in [
        (SIMPLIFIED_PRESENCE, true, true),
        (SIMPLIFIED_PRESENCE, false, false),
        (SIMPLIFIED_PRESENCE - 1, true, false),
    ] {
        let env = at(level).await;
        let member = env.client("member");
        let caps = serde_json::json!({"simplified_presence_events": declared}).to_string();
        let p = Params::new().add("event_types", r#"["presence"]"#).add("client_capabilities", caps);
        let reg = member
            .raw(reqwest::Method::POST, "/register", p, std::time::Duration::from_secs(10))
            .await
            .unwrap();
        let queue = reg["queue_id"].as_str().unwrap().to_owned();
        // Bob was last seen three days ago: coming online is an event.
        let bob = env.client("bob");
        let mut ping = PresenceUpdate::new(PresenceStatus::Active);
        ping.new_user_input = Some(true);
        bob.update_presence(&ping).await.unwrap();
        let events = member.get_events(&queue, -1, true, std::time::Duration::from_secs(10)).await.unwrap();
        let ev = events.iter().find_map(|e| match &e.kind {
            EventKind::Presence(p) => Some(p.clone()),
            _ => None,
        });
        let ev = ev.unwrap_or_else(|| panic!("level {level}: a presence event"));
        assert_eq!(ev.presences.is_some(), modern, "level {level}, declared {declared}");
        assert_eq!(ev.presence.is_some(), !modern, "level {level}, declared {declared}");
        assert!(!ev.entries().is_empty(), "the client reads either shape");
    }
}

#[tokio::test]
async fn an_empty_topic_from_334_and_no_topic_before() {
    for level in [EMPTY_TOPIC - 1, EMPTY_TOPIC] {
        let env = at(level).await;
        let general = env.channel_id("general").to_string();
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/messages",
                &[("type", "stream"), ("to", &general), ("topic", ""), ("content", "x")],
            )
            .await;
        if level < EMPTY_TOPIC {
            assert_eq!((status, body["msg"].as_str()), (400, Some("Topic can't be empty!")));
        } else {
            assert_eq!(status, 200, "{body}");
        }
        let c = env.registered_client("member").await;
        c.send_message(&OutgoingMessage::channel(env.channel_id("general"), "", "no topic"))
            .await
            .unwrap_or_else(|e| panic!("level {level}: {e}"));
    }
}

#[tokio::test]
async fn integer_id_operands_from_194_and_strings_before() {
    for level in [ID_INTEGER_OPERAND - 1, ID_INTEGER_OPERAND] {
        let env = at(level).await;
        let c = env.registered_client("member").await;
        let newest = c.get_messages(&GetMessages::around(Anchor::Newest, 1, 0)).await.unwrap().messages[0].id;
        let q = GetMessages::around(Anchor::Newest, 5, 0).narrow(vec![NarrowTerm::new("id", newest)]);
        let got = c.get_messages(&q).await.unwrap_or_else(|e| panic!("level {level}: {e}"));
        assert_eq!(got.messages.iter().map(|m| m.id).collect::<Vec<_>>(), vec![newest]);
        let by_int = narrow_param("id", newest.into());
        let page =
            [("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", by_int.as_str())];
        let (status, _) = env.raw("member", "GET", "/messages", &page).await;
        assert_eq!(status, if level < ID_INTEGER_OPERAND { 400 } else { 200 });
    }
}

#[tokio::test]
async fn presence_pings_get_users_by_id_on_each_side_of_263() {
    for level in [PRESENCE_LAST_UPDATE_ID - 1, PRESENCE_LAST_UPDATE_ID] {
        let env = at(level).await;
        let c = env.registered_client("member").await;
        let mut ping = PresenceUpdate::new(PresenceStatus::Active);
        ping.last_update_id = Some(-1);
        let r = c.update_presence(&ping).await.unwrap();
        let by_id = r.presences.as_ref().map(|p| p.modern()).unwrap_or_default();
        assert!(!by_id.is_empty(), "level {level}: presences by user ID");
        assert_eq!(r.presence_last_update_id.is_some(), level >= PRESENCE_LAST_UPDATE_ID, "level {level}");
    }
}

/// A server that calls itself newer than it is (a development build, a fork) and refuses an
/// operator's name its level should have: the client asks once more in the oldest names,
/// and the page arrives; nothing is said to the user.
#[tokio::test]
async fn an_operator_a_server_does_not_know_is_asked_once_more_in_its_older_name() {
    use topicterm::server::proxy::relay::{Reply, Rewriter};
    let env = at(CHANNEL_OPERATOR - 1).await;
    let proxy = Rewriter::start(&env.server.url, vec![]).await;
    // Register says 503: the client speaks `channel` to a server that knows only `stream`.
    proxy.arm_always(Box::new(|ex| {
        let mut v = ex.json().filter(|_| ex.is("POST", "/register"))?;
        v["zulip_feature_level"] = 503.into();
        Some(Reply::Body(200, v.to_string().into_bytes()))
    }));
    let mut creds = env.creds("member");
    creds.site = proxy.url.clone();
    let c = Client::new(&creds).unwrap();
    c.register(&Default::default()).await.unwrap();
    assert_eq!(c.level(), Level(Some(503)));
    let general = env.channel_id("general");
    let q = GetMessages::around(Anchor::Newest, 5, 0).narrow(vec![NarrowTerm::new("channel", general)]);
    let page = c.get_messages(&q).await.expect("the page, asked again as `stream`");
    assert!(!page.messages.is_empty() && page.messages.iter().all(|m| m.stream_id == Some(general)));
    assert_eq!(proxy.seen("GET", "/messages"), 2, "asked twice: the modern name, then the older one");
    // Where the older names are the same, the refusal stands (asked once).
    let q = GetMessages::around(Anchor::Newest, 5, 0).narrow(vec![NarrowTerm::new("nonsense", 1)]);
    assert!(c.get_messages(&q).await.is_err());
    assert_eq!(proxy.seen("GET", "/messages"), 3);
}
