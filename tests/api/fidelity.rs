//! What the reference server answers that older clients (zulip-terminal 0.7.0, the Python
//! bindings) depend on: register's shapes by capability, legacy presence, the legacy anchor.

use crate::common::*;
use serde_json::Value;

async fn register(env: &Env, params: &[(&str, &str)]) -> Value {
    let (s, r) = env.raw("member", "POST", "/register", params).await;
    assert_eq!(s, 200, "{r}");
    r
}

#[tokio::test]
async fn settings_come_whole_and_at_the_top_level_for_clients_that_want_them_there() {
    let env = Env::start().await;
    let legacy = register(&env, &[("fetch_event_types", r#"["user_settings","realm"]"#)]).await;
    let settings = legacy["user_settings"].as_object().expect("user_settings");
    assert!(settings.len() >= 60, "every setting: {}", settings.len());
    for key in ["twenty_four_hour_time", "pm_content_in_desktop_notifications", "enter_sends", "emojiset"] {
        assert!(settings.contains_key(key), "{key} in user_settings");
        assert_eq!(legacy[key], settings[key], "{key} at the top level too, without user_settings_object");
    }
    assert_eq!(legacy["realm_message_retention_days"], -1);
    let modern = register(
        &env,
        &[
            ("fetch_event_types", r#"["user_settings"]"#),
            ("client_capabilities", r#"{"user_settings_object": true}"#),
        ],
    )
    .await;
    assert!(modern.get("twenty_four_hour_time").is_none(), "only in user_settings with the capability");
    assert_eq!(modern["user_settings"], legacy["user_settings"]);
}

#[tokio::test]
async fn presences_are_keyed_by_email_unless_slim_presence_is_asked_for() {
    let env = Env::start().await;
    env.raw("alice", "POST", "/users/me/presence", &[("status", "active")]).await;
    let email = env.creds("alice").email;
    let alice = env.user_id("alice").to_string();
    let legacy = register(&env, &[("fetch_event_types", r#"["presence"]"#)]).await;
    assert_eq!(legacy["presences"][&email]["aggregated"]["status"], "active", "{}", legacy["presences"]);
    assert!(legacy["presences"].get(&alice).is_none());
    let slim = register(&env, &[("fetch_event_types", r#"["presence"]"#), ("slim_presence", "true")]).await;
    assert!(slim["presences"][&alice]["active_timestamp"].is_i64(), "{}", slim["presences"]);
    // The presence endpoint answers in the same format as asked.
    let (_, r) = env.raw("member", "POST", "/users/me/presence", &[("status", "active")]).await;
    assert!(r["presences"].get(&email).is_some(), "{r}");
    let (_, r) = env
        .raw("member", "POST", "/users/me/presence", &[("status", "active"), ("slim_presence", "true")])
        .await;
    assert!(r["presences"].get(&alice).is_some(), "{r}");
}

#[tokio::test]
async fn use_first_unread_anchor_wins_over_anchor() {
    let env = Env::start().await;
    let (s, r) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[
                ("anchor", "newest"),
                ("use_first_unread_anchor", "true"),
                ("num_before", "0"),
                ("num_after", "1"),
            ],
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (_, first) = env
        .raw(
            "member",
            "GET",
            "/messages",
            &[("anchor", "first_unread"), ("num_before", "0"), ("num_after", "1")],
        )
        .await;
    assert_eq!(r["anchor"], first["anchor"]);
    assert_eq!(r["messages"][0]["id"], first["messages"][0]["id"]);
}

#[tokio::test]
async fn answers_are_compressed_for_clients_that_accept_it_and_the_client_asks_and_decodes() {
    let env = Env::start().await;
    let creds = env.creds("member");
    let url = format!("{}/api/v1/register", env.server.url);
    // A client that does not decode, to see what goes over the wire.
    let raw = reqwest::Client::builder().no_gzip().no_brotli().no_deflate().build().unwrap();
    let send = |encoding: Option<&'static str>| {
        let mut req = raw.post(&url).basic_auth(&creds.email, Some(&creds.api_key));
        if let Some(e) = encoding {
            req = req.header("accept-encoding", e);
        }
        req.send()
    };
    let plain = send(None).await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    let plain_len = plain.bytes().await.unwrap().len();
    for encoding in ["gzip", "br"] {
        let r = send(Some(encoding)).await.unwrap();
        assert_eq!(r.headers().get("content-encoding").and_then(|v| v.to_str().ok()), Some(encoding));
        let len = r.bytes().await.unwrap().len();
        assert!(len * 4 < plain_len, "{encoding}: {len} bytes of {plain_len}");
    }
    // topicterm's client asks for compression: the request as a listener receives it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let site = format!("http://{}", listener.local_addr().unwrap());
    let seen = tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (mut sock, _) = listener.accept().await.unwrap();
        let mut buf = vec![0u8; 8192];
        let n = sock.read(&mut buf).await.unwrap();
        let _ = sock.write_all(b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n").await;
        String::from_utf8_lossy(&buf[..n]).to_lowercase()
    });
    let probe = topicterm::api::Client::new(&topicterm::api::Credentials {
        site,
        email: "a@b.test".into(),
        api_key: "k".into(),
        tls: Default::default(),
    })
    .unwrap();
    let _ = probe.get_users().await;
    let request = seen.await.unwrap();
    let accept = request.lines().find(|l| l.starts_with("accept-encoding:")).unwrap_or_default().to_owned();
    assert!(accept.contains("gzip") && accept.contains("br"), "{request}");
    // … and decodes it (a whole register goes through).
    let reg = env.client("member").register(&topicterm::api::RegisterParams::default()).await.unwrap();
    assert!(reg.realm_users.is_some_and(|u| u.read().len() > 10));
}
