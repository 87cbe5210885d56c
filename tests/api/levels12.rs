//! What changed from Zulip 11 to today's Zulip Cloud (feature levels 421–503), each fact on
//! both sides of its level, against the demo server started at that level: it behaves as a
//! real server of that level (issue 41; `shared/spec/api-changelog-since-11.md`).

use crate::common::*;
use serde_json::Value;
use topicterm::server::ServerOptions;
use topicterm::server::levels::*;

async fn at(level: i64) -> Env {
    Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await
}

/// Register raw with these parameters; the whole answer.
async fn register(env: &Env, who: &str, params: &[(&str, &str)]) -> Value {
    let (status, body) = env.raw(who, "POST", "/register", params).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn the_default_is_level_503_and_the_version_follows_the_level() {
    let env = Env::start().await;
    let reg = register(&env, "member", &[("fetch_event_types", "[]")]).await;
    assert_eq!(
        (reg["zulip_feature_level"].as_i64(), reg["zulip_version"].as_str()),
        (Some(503), Some("13.0-dev"))
    );
    for (level, version) in
        [(218, "8.0-dev"), (420, "11.0-dev"), (421, "11.0"), (489, "12.0-dev"), (498, "12.0")]
    {
        let env = at(level).await;
        let reg = register(&env, "member", &[("fetch_event_types", "[]")]).await;
        assert_eq!(reg["zulip_version"], version, "level {level}");
        assert_eq!(reg["zulip_merge_base"], version, "level {level}");
        let (_, settings) = env.raw("", "GET", "/server_settings", &[]).await;
        assert_eq!(settings["zulip_version"], version, "level {level}");
        assert_eq!(settings["authentication_methods"].get("discord").is_some(), level >= DISCORD_AUTH);
    }
}
