//! A rewriting HTTP proxy for tests: it sits between the client and the demo server, relays
//! everything, and when a rule matches replaces the server's answer (another status, another
//! body, or a body cut off mid-way). It can also hold one request back (before the server sees
//! it, or its answer after the server gave it) until the test lets it go ([`Rewriter::hold`]),
//! and counts the requests of each endpoint. Included by `tests/robustness.rs` and `tests/tui`.

#![allow(dead_code)]

use axum::body::{Body, Bytes};
use axum::extract::{Request, State as AxState};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// What went through the proxy: the request and the server's real answer.
pub struct Exchange {
    pub method: String,
    /// Path without the query, e.g. `/api/v1/events`.
    pub path: String,
    pub status: u16,
    pub body: Vec<u8>,
}

impl Exchange {
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
    pub fn is(&self, method: &str, path: &str) -> bool {
        self.method == method && self.path == format!("/api/v1{path}")
    }
    /// A GET /events answer holding at least one `message` event.
    pub fn has_message_event(&self) -> bool {
        self.is("GET", "/events")
            && self
                .json()
                .and_then(|v| v["events"].as_array().cloned())
                .is_some_and(|evs| evs.iter().any(|e| e["type"] == "message"))
    }
}

/// What the client gets instead.
pub enum Reply {
    /// This status and body (as JSON content).
    Body(u16, Vec<u8>),
    /// Headers announcing the whole body, then only `sent` bytes of it, then the connection drops.
    CutAfter(Vec<u8>, usize),
}

/// A rule: `Some` replaces the answer, `None` lets it through.
pub type Rule = Box<dyn FnMut(&Exchange) -> Option<Reply> + Send>;

struct ProxyState {
    upstream: String,
    http: reqwest::Client,
    /// Rules in order, each with whether it is used up by the first answer it replaces.
    rules: Mutex<Vec<(Rule, bool)>>,
    /// Answers replaced so far.
    rewritten: Mutex<usize>,
    /// Holds still to catch a request, each used up by the first it catches.
    holds: Mutex<Vec<Gate>>,
    /// Every request so far: method and path (without the query).
    seen: Mutex<Vec<(String, String)>>,
}

/// Where a held request waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Before the server sees it: the server takes it only once let go.
    Request,
    /// After the server answered: the client gets the answer only once let go.
    Answer,
}

/// One request held back: wait for it to arrive, then let it go.
#[derive(Clone)]
pub struct Gate {
    method: String,
    path: String,
    when: Hold,
    arrived: Arc<tokio::sync::watch::Sender<bool>>,
    open: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Gate {
    /// Wait until the held request has reached the gate (and, for [`Hold::Answer`], the server
    /// has answered it).
    pub async fn arrived(&self) {
        let _ = self.arrived.subscribe().wait_for(|a| *a).await;
    }

    /// Let it go on.
    pub fn release(&self) {
        self.open.send_replace(true);
    }

    /// If this gate catches the exchange: wait there until it is let go.
    async fn pass(&self) {
        self.arrived.send_replace(true);
        let _ = self.open.subscribe().wait_for(|o| *o).await;
    }
}

pub struct Rewriter {
    pub url: String,
    state: Arc<ProxyState>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Rewriter {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Rewriter {
    pub async fn start(upstream: &str, rules: Vec<Rule>) -> Rewriter {
        let state = Arc::new(ProxyState {
            upstream: upstream.to_owned(),
            http: reqwest::Client::new(),
            rules: Mutex::new(rules.into_iter().map(|r| (r, true)).collect()),
            rewritten: Mutex::new(0),
            holds: Mutex::new(Vec::new()),
            seen: Mutex::new(Vec::new()),
        });
        let router = axum::Router::new().fallback(relay).with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Rewriter { url, state, task }
    }

    /// Add a rule for the next answer it matches, from now on.
    pub fn arm(&self, rule: Rule) {
        self.state.rules.lock().unwrap().push((rule, true));
    }

    /// Add a rule for every answer it matches, from now on.
    pub fn arm_always(&self, rule: Rule) {
        self.state.rules.lock().unwrap().push((rule, false));
    }

    pub fn rewritten(&self) -> usize {
        *self.state.rewritten.lock().unwrap()
    }

    /// Hold back the next request of `method` to `path` (e.g. `/register`) at `when`.
    pub fn hold(&self, method: &str, path: &str, when: Hold) -> Gate {
        let gate = Gate {
            method: method.to_owned(),
            path: format!("/api/v1{path}"),
            when,
            arrived: Arc::new(tokio::sync::watch::channel(false).0),
            open: Arc::new(tokio::sync::watch::channel(false).0),
        };
        self.state.holds.lock().unwrap().push(gate.clone());
        gate
    }

    /// How many requests of `method` to `path` went through so far.
    pub fn seen(&self, method: &str, path: &str) -> usize {
        let path = format!("/api/v1{path}");
        self.state.seen.lock().unwrap().iter().filter(|(m, p)| m == method && *p == path).count()
    }
}

/// The gate that catches a request of `method` to `path` at `when`, if one still waits for it.
fn gate_for(p: &ProxyState, method: &str, path: &str, when: Hold) -> Option<Gate> {
    let mut holds = p.holds.lock().unwrap();
    let i = holds.iter().position(|g| g.method == method && g.path == path && g.when == when)?;
    Some(holds.remove(i))
}

async fn relay(AxState(p): AxState<Arc<ProxyState>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
    let path_query = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let (method, path) = (parts.method.to_string(), parts.uri.path().to_owned());
    p.seen.lock().unwrap().push((method.clone(), path.clone()));
    if let Some(gate) = gate_for(&p, &method, &path, Hold::Request) {
        gate.pass().await;
    }
    let mut up = p.http.request(parts.method.clone(), format!("{}{path_query}", p.upstream)).body(body);
    for (k, v) in &parts.headers {
        if ![header::HOST, header::CONTENT_LENGTH, header::CONNECTION, header::TRANSFER_ENCODING].contains(k)
        {
            up = up.header(k, v);
        }
    }
    let answer = match up.send().await {
        Ok(a) => a,
        Err(e) => return plain(StatusCode::BAD_GATEWAY, format!("proxy: {e}").into_bytes()),
    };
    let status = answer.status().as_u16();
    let retry_after = answer.headers().get(header::RETRY_AFTER).cloned();
    let bytes = answer.bytes().await.map(|b| b.to_vec()).unwrap_or_default();
    if let Some(gate) = gate_for(&p, &method, &path, Hold::Answer) {
        gate.pass().await;
    }
    let ex = Exchange { method, path, status, body: bytes };
    let reply = {
        let mut rules = p.rules.lock().unwrap();
        let mut found = None;
        for i in 0..rules.len() {
            if let Some(r) = rules[i].0(&ex) {
                if rules[i].1 {
                    drop(rules.remove(i));
                }
                found = Some(r);
                break;
            }
        }
        found
    };
    match reply {
        None => {
            let mut resp = plain(StatusCode::from_u16(ex.status).unwrap_or(StatusCode::OK), ex.body);
            if let Some(v) = retry_after {
                resp.headers_mut().insert(header::RETRY_AFTER, v);
            }
            resp
        }
        Some(r) => {
            *p.rewritten.lock().unwrap() += 1;
            match r {
                Reply::Body(status, body) => {
                    plain(StatusCode::from_u16(status).unwrap_or(StatusCode::OK), body)
                }
                Reply::CutAfter(body, sent) => {
                    let full = body.len();
                    let part = Bytes::from(body[..sent.min(full)].to_vec());
                    let chunks: Vec<Result<Bytes, std::io::Error>> =
                        vec![Ok(part), Err(std::io::Error::other("connection cut by the test"))];
                    let mut resp = Response::new(Body::from_stream(futures_util::stream::iter(chunks)));
                    resp.headers_mut()
                        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                    resp.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(full));
                    resp
                }
            }
        }
    }
}

fn plain(status: StatusCode, body: Vec<u8>) -> Response {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = status;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}
