//! Topic visibility policies: `update_user_topic` (operation 3) and the legacy mute endpoint
//! (operation 4), on servers before and after feature levels 170 and 219.

use crate::channels::{events, queue, server_at};
use crate::common::{Env, assert_err};
use serde_json::json;
use topicterm::api::events::EventKind;
use topicterm::api::*;

/// The user's topic visibility entries, as `register` reports them: (channel, topic) → policy.
/// Servers before level 170 only list muted topics, as `[channel name, topic, time]`.
async fn user_topics(c: &Client, empty_topic_name: bool) -> Vec<UserTopic> {
    let params = RegisterParams {
        fetch_event_types: Some(vec!["user_topic".into(), "muted_topics".into()]),
        event_types: Some(vec!["user_topic".into()]),
        client_capabilities: Some(json!({"empty_topic_name": empty_topic_name})),
        ..Default::default()
    };
    let r = c.register(&params).await.unwrap();
    if let Some(t) = r.user_topics {
        return t;
    }
    let subs = c.get_subscriptions(None).await.unwrap().subscriptions;
    r.muted_topics
        .expect("muted_topics before 170")
        .iter()
        .filter_map(|m| {
            let name = m.get(0)?.as_str()?;
            let stream_id = subs.iter().find(|s| s.name == name)?.stream_id;
            let topic_name = m.get(1)?.as_str()?.to_owned();
            Some(UserTopic {
                stream_id,
                topic_name,
                last_updated: 0,
                visibility_policy: VisibilityPolicy::Muted,
            })
        })
        .collect()
}

async fn policy_of(c: &Client, stream_id: i64, topic: &str) -> Option<VisibilityPolicy> {
    user_topics(c, true)
        .await
        .into_iter()
        .find(|t| t.stream_id == stream_id && t.topic_name == topic)
        .map(|t| t.visibility_policy)
}

// ---------------------------------------------------------------------------------------------
// Operation 3: update_user_topic
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn each_visibility_policy_is_stored_and_announced() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let q = queue(&c).await;
    for policy in [
        VisibilityPolicy::Muted,
        VisibilityPolicy::Unmuted,
        VisibilityPolicy::Followed,
        VisibilityPolicy::None,
    ] {
        c.update_user_topic(general, "coffee machine", policy).await.unwrap();
        let stored = policy_of(&c, general, "coffee machine").await;
        let expected = (policy != VisibilityPolicy::None).then_some(policy);
        assert_eq!(stored, expected, "{policy:?}");
    }
    let announced: Vec<VisibilityPolicy> = events(&c, &q)
        .await
        .into_iter()
        .filter_map(|e| match e {
            EventKind::UserTopic(t) if t.stream_id == general && t.topic_name == "coffee machine" => {
                Some(t.visibility_policy)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        announced,
        [
            VisibilityPolicy::Muted,
            VisibilityPolicy::Unmuted,
            VisibilityPolicy::Followed,
            VisibilityPolicy::None
        ]
    );
}

#[tokio::test]
async fn policy_applies_to_a_topic_without_messages() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    c.update_user_topic(general, "nothing here yet", VisibilityPolicy::Followed).await.unwrap();
    assert_eq!(policy_of(&c, general, "nothing here yet").await, Some(VisibilityPolicy::Followed));
}

#[tokio::test]
async fn client_refuses_policies_outside_0_to_3() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    for bad in [4, -1] {
        let before = env.requests();
        let r = c.update_user_topic(general, "coffee machine", VisibilityPolicy::Unknown(bad)).await;
        assert!(
            matches!(r, Err(ApiError::Limit(LimitError::InvalidVisibilityPolicy(p))) if p == bad),
            "{r:?}"
        );
        assert_eq!(env.requests(), before);
    }
}

#[tokio::test]
async fn server_refuses_policies_outside_0_to_3() {
    let env = Env::start().await;
    let general = env.channel_id("general").to_string();
    for bad in ["4", "-1"] {
        let (status, body) = env
            .raw(
                "member",
                "POST",
                "/user_topics",
                &[("stream_id", &general), ("topic", "coffee machine"), ("visibility_policy", bad)],
            )
            .await;
        assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{bad}: {body}");
    }
}

#[tokio::test]
async fn empty_topic_display_name_means_the_empty_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let q = {
        let reg = c
            .register(&RegisterParams {
                client_capabilities: Some(json!({"empty_topic_name": true})),
                ..Default::default()
            })
            .await
            .unwrap();
        (reg.queue_id.unwrap(), reg.last_event_id)
    };
    c.update_user_topic(general, "general chat", VisibilityPolicy::Muted).await.unwrap();

    assert_eq!(policy_of(&c, general, "").await, Some(VisibilityPolicy::Muted));
    let legacy_view = user_topics(&c, false).await;
    assert!(legacy_view.iter().any(|t| t.stream_id == general && t.topic_name == "general chat"));
    let evs = events(&c, &q).await;
    assert!(
        evs.iter().any(
            |e| matches!(e, EventKind::UserTopic(t) if t.stream_id == general && t.topic_name.is_empty())
        ),
        "{evs:?}"
    );
    // And the same topic given as "" is the one that was muted.
    c.update_user_topic(general, "", VisibilityPolicy::None).await.unwrap();
    assert_eq!(policy_of(&c, general, "").await, None);
}

#[tokio::test]
async fn inaccessible_or_unknown_channel_is_refused() {
    let env = Env::start().await;
    let c = env.client("member");
    let leadership = env.channel_id("leadership");
    assert_err(c.update_user_topic(leadership, "offsite", VisibilityPolicy::Muted).await, "BAD_REQUEST", "");
    assert_err(c.update_user_topic(987_654, "x", VisibilityPolicy::Muted).await, "BAD_REQUEST", "");
    assert_eq!(policy_of(&c, leadership, "offsite").await, None);
}

#[tokio::test]
async fn followed_is_refused_before_feature_level_219() {
    let env = Env::start_with(server_at(200)).await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    // The client knows the level and says so without asking; the server refuses it too.
    let e = c.update_user_topic(general, "office wifi", VisibilityPolicy::Followed).await.unwrap_err();
    assert!(e.to_string().contains("Zulip 8.0"), "{e}");
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/user_topics",
            &[("stream_id", &general.to_string()), ("topic", "office wifi"), ("visibility_policy", "3")],
        )
        .await;
    assert_eq!((status, body["msg"].as_str()), (400, Some("Invalid visibility_policy")), "{body}");
    assert_eq!(policy_of(&c, general, "office wifi").await, None);
    c.update_user_topic(general, "office wifi", VisibilityPolicy::Muted).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, Some(VisibilityPolicy::Muted));
}

#[tokio::test]
async fn client_mutes_through_the_legacy_endpoint_before_170() {
    let env = Env::start_with(server_at(160)).await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    let g = general.to_string();
    // The old server has no user_topics endpoint at all.
    let (status, _) = env
        .raw(
            "member",
            "POST",
            "/user_topics",
            &[("stream_id", &g), ("topic", "office wifi"), ("visibility_policy", "1")],
        )
        .await;
    assert_eq!(status, 404);

    c.update_user_topic(general, "office wifi", VisibilityPolicy::Muted).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, Some(VisibilityPolicy::Muted));
    c.update_user_topic(general, "office wifi", VisibilityPolicy::None).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, None);
}

// ---------------------------------------------------------------------------------------------
// Operation 4: mute_topic_legacy
// ---------------------------------------------------------------------------------------------

fn legacy(stream_id: Option<i64>, stream: Option<&str>, topic: &str, mute: bool) -> LegacyMute {
    LegacyMute { stream_id, stream: stream.map(str::to_owned), topic: topic.into(), mute }
}

#[tokio::test]
async fn legacy_mute_by_id_and_unmute_by_name() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let q = queue(&c).await;
    c.mute_topic_legacy(&legacy(Some(general), None, "office wifi", true)).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, Some(VisibilityPolicy::Muted));
    c.mute_topic_legacy(&legacy(None, Some("general"), "office wifi", false)).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, None);

    c.mute_topic_legacy(&legacy(None, Some("general"), "holiday schedule", true)).await.unwrap();
    assert_eq!(policy_of(&c, general, "holiday schedule").await, Some(VisibilityPolicy::Muted));
    c.mute_topic_legacy(&legacy(Some(general), None, "holiday schedule", false)).await.unwrap();
    assert_eq!(policy_of(&c, general, "holiday schedule").await, None);

    let policies: Vec<VisibilityPolicy> = events(&c, &q)
        .await
        .into_iter()
        .filter_map(|e| match e {
            EventKind::UserTopic(t) => Some(t.visibility_policy),
            _ => None,
        })
        .collect();
    assert_eq!(policies, [1, 0, 1, 0].map(VisibilityPolicy::from));
}

#[tokio::test]
async fn legacy_mute_needs_exactly_one_channel_identifier_client() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    for m in [legacy(Some(general), Some("general"), "t", true), legacy(None, None, "t", true)] {
        let before = env.requests();
        let r = c.mute_topic_legacy(&m).await;
        assert!(matches!(r, Err(ApiError::Limit(LimitError::LegacyMuteChannel))), "{r:?}");
        assert_eq!(env.requests(), before);
    }
}

#[tokio::test]
async fn legacy_mute_needs_exactly_one_channel_identifier_server() {
    let env = Env::start().await;
    let g = env.channel_id("general").to_string();
    let path = "/users/me/subscriptions/muted_topics";
    let both = [("stream_id", g.as_str()), ("stream", "general"), ("topic", "t"), ("op", "add")];
    let (status, body) = env.raw("member", "PATCH", path, &both).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{body}");
    let neither = [("topic", "t"), ("op", "add")];
    let (status, body) = env.raw("member", "PATCH", path, &neither).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{body}");
}

#[tokio::test]
async fn legacy_mute_is_idempotent_since_170() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    let mute = legacy(Some(general), None, "office wifi", true);
    c.mute_topic_legacy(&mute).await.unwrap();
    c.mute_topic_legacy(&mute).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, Some(VisibilityPolicy::Muted));
    let unmute = legacy(Some(general), None, "office wifi", false);
    c.mute_topic_legacy(&unmute).await.unwrap();
    c.mute_topic_legacy(&unmute).await.unwrap();
    assert_eq!(policy_of(&c, general, "office wifi").await, None);
}

#[tokio::test]
async fn legacy_mute_is_strict_before_170() {
    let env = Env::start_with(server_at(160)).await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    let mute = legacy(Some(general), None, "office wifi", true);
    c.mute_topic_legacy(&mute).await.unwrap();
    assert_err(c.mute_topic_legacy(&mute).await, "BAD_REQUEST", "");
    let unmute = legacy(Some(general), None, "office wifi", false);
    c.mute_topic_legacy(&unmute).await.unwrap();
    assert_err(c.mute_topic_legacy(&unmute).await, "BAD_REQUEST", "");
    assert_eq!(policy_of(&c, general, "office wifi").await, None);
}

#[tokio::test]
async fn legacy_mute_of_unknown_channel_name_is_stream_does_not_exist() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(
        c.mute_topic_legacy(&legacy(None, Some("no-such-channel"), "t", true)).await,
        "STREAM_DOES_NOT_EXIST",
        "",
    );
}

#[tokio::test]
async fn legacy_mute_requires_a_subscription() {
    let env = Env::start().await;
    let design = env.channel_id("design");
    assert_err(
        env.client("bob").mute_topic_legacy(&legacy(Some(design), None, "t", true)).await,
        "BAD_REQUEST",
        "",
    );
    assert_err(
        env.client("member").mute_topic_legacy(&legacy(None, Some("leadership"), "offsite", true)).await,
        "BAD_REQUEST",
        "",
    );
}

#[tokio::test]
async fn topic_length_is_checked_for_visibility_operations() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let general = env.channel_id("general");
    let long = "t".repeat(61);
    let too_long = LimitError::TopicTooLong { len: 61, max: 60 };

    let before = env.requests();
    let r = c.update_user_topic(general, &long, VisibilityPolicy::Muted).await;
    assert!(matches!(&r, Err(ApiError::Limit(e)) if *e == too_long), "{r:?}");
    let r = c.mute_topic_legacy(&legacy(Some(general), None, &long, true)).await;
    assert!(matches!(&r, Err(ApiError::Limit(e)) if *e == too_long), "{r:?}");
    assert_eq!(env.requests(), before);

    let g = general.to_string();
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/user_topics",
            &[("stream_id", &g), ("topic", &long), ("visibility_policy", "1")],
        )
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{body}");
    let (status, body) = env
        .raw(
            "member",
            "PATCH",
            "/users/me/subscriptions/muted_topics",
            &[("stream_id", &g), ("topic", &long), ("op", "add")],
        )
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")), "{body}");
}
