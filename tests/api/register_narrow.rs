//! Register's `narrow`: a queue gets only the message events its narrow admits, as the reference
//! server's `build_narrow_predicate` decides, and operators it cannot filter by are refused.

use crate::common::Env;
use topicterm::api::OutgoingMessage;

#[tokio::test]
async fn a_narrowed_queue_gets_only_the_messages_its_narrow_admits() {
    let env = Env::start().await;
    let register = |narrow: &'static str| {
        let env = &env;
        async move {
            let params = [("event_types", r#"["message"]"#), ("narrow", narrow)];
            let (status, body) = env.raw("member", "POST", "/register", &params).await;
            assert_eq!(status, 200, "{body}");
            body["queue_id"].as_str().unwrap().to_owned()
        }
    };
    let general = register(r#"[["channel", "General"]]"#).await;
    let word = register(r#"[["stream", "general"], ["topic", "plans"]]"#).await;
    let dms = register(r#"[["is", "dm"], ["sender", "ALICE@demo.topicterm.test"]]"#).await;
    let all = register("[]").await;
    let alice = env.client("alice");
    let sent = |m: OutgoingMessage| {
        let alice = &alice;
        async move { alice.send_message(&m).await.unwrap().id }
    };
    let a = sent(OutgoingMessage::channel(env.channel_id("general"), "q3 plans", "in general")).await;
    let b = sent(OutgoingMessage::channel(env.channel_id("random"), "plans", "in random")).await;
    let c = sent(OutgoingMessage::direct(vec![env.user_id("member")], "a dm")).await;
    let ids = |events: Vec<serde_json::Value>| -> Vec<i64> {
        events.iter().filter_map(|e| e["message"]["id"].as_i64()).collect()
    };
    assert_eq!(ids(env.events("member", &general).await), vec![a]);
    assert_eq!(ids(env.events("member", &word).await), vec![a], "a word of the topic matches");
    assert_eq!(ids(env.events("member", &dms).await), vec![c]);
    assert_eq!(ids(env.events("member", &all).await), vec![a, b, c]);
    for (narrow, says) in [
        (r#"[["search", "x"]]"#, "Operator search not supported."),
        (r#"[["is", "followed"]]"#, "Operand followed not supported."),
    ] {
        let (status, body) = env.raw("member", "POST", "/register", &[("narrow", narrow)]).await;
        assert_eq!((status, body["msg"].as_str()), (400, Some(says)), "{narrow}");
    }
}

/// Before `channel` was an operator (level 250), register's `narrow` refuses it as Zulip 8.0
/// (level 218) does, and takes `stream`; from 250 on, and at the default level, it takes both.
#[tokio::test]
async fn register_refuses_the_channel_operator_before_level_250() {
    use topicterm::api::levels::CHANNEL_OPERATOR;
    use topicterm::server::ServerOptions;
    for level in [218, CHANNEL_OPERATOR - 1, CHANNEL_OPERATOR, ServerOptions::default().feature_level] {
        let env = Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await;
        let register = |narrow: &'static str| {
            let env = &env;
            async move { env.raw("member", "POST", "/register", &[("narrow", narrow)]).await }
        };
        let (status, body) = register(r#"[["channel", "general"]]"#).await;
        if level < CHANNEL_OPERATOR {
            assert_eq!(
                (status, body["msg"].as_str(), body["code"].as_str()),
                (400, Some("Operator channel not supported."), Some("BAD_REQUEST")),
                "level {level}: {body}"
            );
        } else {
            assert_eq!(status, 200, "level {level}: {body}");
        }
        let (status, body) = register(r#"[["stream", "general"], ["topic", "plans"]]"#).await;
        assert_eq!(status, 200, "level {level}: {body}");
        // GET /messages refuses it in its own words below 250 (`tests/api/levels.rs`).
        let narrow = r#"[{"operator": "channel", "operand": "general"}]"#;
        let page = [("anchor", "newest"), ("num_before", "1"), ("num_after", "0"), ("narrow", narrow)];
        let (status, body) = env.raw("member", "GET", "/messages", &page).await;
        if level < CHANNEL_OPERATOR {
            assert_eq!((status, body["code"].as_str()), (400, Some("BAD_NARROW")), "level {level}: {body}");
        } else {
            assert_eq!(status, 200, "level {level}: {body}");
        }
    }
}
