//! Shared test harness: a fresh demo server per test on an ephemeral loopback port.

#![allow(dead_code)]

use serde_json::Value;
use topicterm::api::{Client, Credentials};
use topicterm::server::{DemoServer, ServerOptions};

pub struct Env {
    pub server: DemoServer,
    http: reqwest::Client,
}

impl Env {
    /// A demo server with the bundled seed and default options.
    pub async fn start() -> Env {
        Self::start_with(ServerOptions::default()).await
    }

    pub async fn start_with(opts: ServerOptions) -> Env {
        let server = DemoServer::start(opts).await.expect("demo server starts");
        Env { server, http: reqwest::Client::new() }
    }

    pub fn creds(&self, short: &str) -> Credentials {
        self.server.credentials(short).unwrap_or_else(|| panic!("no seeded user {short}"))
    }

    /// A typed client logged in as a seeded user or bot (by short name).
    pub fn client(&self, short: &str) -> Client {
        Client::new(&self.creds(short)).expect("client")
    }

    /// A client that has called `register`, so it knows the server's limits and feature level.
    pub async fn registered_client(&self, short: &str) -> Client {
        let c = self.client(short);
        c.register(&Default::default()).await.expect("register");
        c
    }

    pub fn user_id(&self, short: &str) -> i64 {
        let org = self.server.shared.lock();
        org.users
            .values()
            .find(|u| u.short_name == short)
            .map(|u| u.id)
            .unwrap_or_else(|| panic!("no user {short}"))
    }

    pub fn channel_id(&self, name: &str) -> i64 {
        let org = self.server.shared.lock();
        org.channel_named(name).map(|c| c.id).unwrap_or_else(|| panic!("no channel {name}"))
    }

    pub fn group_id(&self, name: &str) -> i64 {
        let org = self.server.shared.lock();
        org.groups
            .values()
            .find(|g| g.name == name)
            .map(|g| g.id)
            .unwrap_or_else(|| panic!("no group {name}"))
    }

    pub fn requests(&self) -> u64 {
        self.server.request_count()
    }

    /// A raw request bypassing the client's checks: returns (HTTP status, JSON body).
    /// `who` is a short name, or "" for no authentication.
    pub async fn raw(&self, who: &str, method: &str, path: &str, params: &[(&str, &str)]) -> (u16, Value) {
        let url = format!("{}/api/v1{}", self.server.url, path);
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self.http.request(method.clone(), &url);
        if !who.is_empty() {
            let c = self.creds(who);
            req = req.basic_auth(c.email, Some(c.api_key));
        }
        req = if method == reqwest::Method::GET { req.query(params) } else { req.form(params) };
        let resp = req.send().await.expect("request");
        let status = resp.status().as_u16();
        let body: Value = resp.json().await.expect("JSON body");
        (status, body)
    }
}

/// Assert an API error's code and that its message contains `needle`.
#[track_caller]
pub fn assert_err<T: std::fmt::Debug>(
    r: topicterm::api::Result<T>,
    code: &str,
    needle: &str,
) -> topicterm::api::ServerError {
    match r {
        Err(topicterm::api::ApiError::Server(e)) => {
            assert_eq!(e.code, code, "code of {e:?}");
            assert!(e.msg.contains(needle), "message {:?} should contain {needle:?}", e.msg);
            *e
        }
        other => panic!("expected server error {code}, got {other:?}"),
    }
}

impl Env {
    /// Register `who` for these event types (a JSON list); the queue's ID.
    pub async fn queue(&self, who: &str, types: &str) -> String {
        let (status, body) = self.raw(who, "POST", "/register", &[("event_types", types)]).await;
        assert_eq!(status, 200, "{body}");
        body["queue_id"].as_str().unwrap().to_owned()
    }

    /// Every event of a queue so far, without waiting.
    pub async fn events(&self, who: &str, queue: &str) -> Vec<Value> {
        let (_, body) = self
            .raw(
                who,
                "GET",
                "/events",
                &[("queue_id", queue), ("last_event_id", "-1"), ("dont_block", "true")],
            )
            .await;
        body["events"].as_array().cloned().unwrap_or_default()
    }
}
