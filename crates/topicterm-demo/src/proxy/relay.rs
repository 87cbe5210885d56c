//! A rewriting HTTP proxy: it sits between a client and the demo server, relays every request,
//! and when a rule matches replaces the server's answer — another status or body, a body cut off
//! mid-way, trickled, held back, or far too large. The rules see the request and the server's
//! real answer (the request has reached the server: a lie about a send's answer is a lie about a
//! send that happened). It can also hold one request back — before the server sees it, or its
//! answer after the server gave it — until the test lets it go ([`Rewriter::hold`]), and counts
//! the requests of each endpoint. Tests arm their own rules; [`super::lies`] makes a seeded rule that lies
//! in every way a broken network or server does.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State as AxState};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What went through the proxy: the request and the server's real answer.
pub struct Exchange {
    pub method: String,
    /// Path without the query, e.g. `/api/v1/events`.
    pub path: String,
    pub status: u16,
    /// The server's answer; for a rule asked before the server ([`Rewriter::arm_before`]), the
    /// request's body.
    pub body: Vec<u8>,
}

impl Exchange {
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
    /// This method and API path (`/events` for `/api/v1/events`).
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
    /// This status and body, labelled as HTML (a captive portal, a proxy's error page).
    Html(u16, Vec<u8>),
    /// Headers announcing the whole body, then only `sent` bytes of it, then the connection drops.
    CutAfter(Vec<u8>, usize),
    /// No length announced (chunked), `sent` bytes of the body, then the connection drops.
    Truncated(Vec<u8>, usize),
    /// The body in small pieces, spread over this long.
    Trickle(Vec<u8>, Duration),
    /// This status, a `Retry-After` of these seconds, and a JSON error body.
    RetryAfter(u16, u64),
    /// The server's real answer, after this long.
    Late(Duration),
    /// A JSON-looking body of this many bytes, streamed.
    Huge(usize),
}

/// A rule: `Some` replaces the answer, `None` lets it through.
pub type Rule = Box<dyn FnMut(&Exchange) -> Option<Reply> + Send>;

struct ProxyState {
    upstream: String,
    http: reqwest::Client,
    /// Rules asked before the request goes to the server (they see it with status 0 and the
    /// request's own body, e.g. a form); one that answers keeps it from the server.
    before: Mutex<Vec<Rule>>,
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

/// The gate that catches a request of `method` to `path` at `when`, if one still waits for it.
fn gate_for(p: &ProxyState, method: &str, path: &str, when: Hold) -> Option<Gate> {
    let mut holds = p.holds.lock().unwrap_or_else(|e| e.into_inner());
    let i = holds.iter().position(|g| g.method == method && g.path == path && g.when == when)?;
    Some(holds.remove(i))
}

/// The proxy; dropping it stops it.
pub struct Rewriter {
    /// `http://ADDR` of the proxy.
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
    /// Listen on a free loopback port and relay to `upstream` (`http://ADDR`).
    pub async fn start(upstream: &str, rules: Vec<Rule>) -> Rewriter {
        let state = Arc::new(ProxyState {
            upstream: upstream.to_owned(),
            // Bodies are read plain (no Accept-Encoding passed on) so that rules see JSON.
            http: reqwest::Client::new(),
            before: Mutex::new(Vec::new()),
            holds: Mutex::new(Vec::new()),
            seen: Mutex::new(Vec::new()),
            rules: Mutex::new(rules.into_iter().map(|r| (r, true)).collect()),
            rewritten: Mutex::new(0),
        });
        let router = axum::Router::new().fallback(relay).with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port");
        let url = format!("http://{}", listener.local_addr().expect("a bound address"));
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Rewriter { url, state, task }
    }

    /// Add a rule for the next answer it matches, from now on.
    pub fn arm(&self, rule: Rule) {
        self.state.rules.lock().unwrap_or_else(|e| e.into_inner()).push((rule, true));
    }

    /// Add a rule for every answer it matches, from now on.
    pub fn arm_always(&self, rule: Rule) {
        self.state.rules.lock().unwrap_or_else(|e| e.into_inner()).push((rule, false));
    }

    /// Add a rule asked before each request goes to the server, from now on: when it answers,
    /// the request never reaches the server (a refusal, a captive portal).
    pub fn arm_before(&self, rule: Rule) {
        self.state.before.lock().unwrap_or_else(|e| e.into_inner()).push(rule);
    }

    /// Drop every rule: answers pass unchanged from now on.
    pub fn disarm(&self) {
        self.state.before.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.state.rules.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Answers replaced so far.
    pub fn rewritten(&self) -> usize {
        *self.state.rewritten.lock().unwrap_or_else(|e| e.into_inner())
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
        self.state.holds.lock().unwrap_or_else(|e| e.into_inner()).push(gate.clone());
        gate
    }

    /// How many requests of `method` to `path` went through so far.
    pub fn seen(&self, method: &str, path: &str) -> usize {
        let path = format!("/api/v1{path}");
        self.state
            .seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(m, p)| m == method && *p == path)
            .count()
    }
}

async fn relay(AxState(p): AxState<Arc<ProxyState>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
    let path_query = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let (method, path) = (parts.method.to_string(), parts.uri.path().to_owned());
    p.seen.lock().unwrap_or_else(|e| e.into_inner()).push((method.clone(), path.clone()));
    let asked = Exchange {
        method: parts.method.to_string(),
        path: parts.uri.path().to_owned(),
        status: 0,
        body: body.to_vec(),
    };
    let early = p.before.lock().unwrap_or_else(|e| e.into_inner()).iter_mut().find_map(|r| r(&asked));
    if let Some(reply) = early {
        *p.rewritten.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        let asked = Exchange { body: vec![], ..asked };
        return give(reply, asked, |ex| plain(StatusCode::OK, "application/json", ex.body)).await;
    }
    if let Some(gate) = gate_for(&p, &method, &path, Hold::Request) {
        gate.pass().await;
    }
    let mut up = p.http.request(parts.method.clone(), format!("{}{path_query}", p.upstream)).body(body);
    let skip = [
        header::HOST,
        header::CONTENT_LENGTH,
        header::CONNECTION,
        header::TRANSFER_ENCODING,
        header::ACCEPT_ENCODING,
    ];
    for (k, v) in &parts.headers {
        if !skip.contains(k) {
            up = up.header(k, v);
        }
    }
    let answer = match up.send().await {
        Ok(a) => a,
        Err(e) => {
            return plain(StatusCode::BAD_GATEWAY, "application/json", format!("proxy: {e}").into_bytes());
        }
    };
    let status = answer.status().as_u16();
    let retry_after = answer.headers().get(header::RETRY_AFTER).cloned();
    let content_type = answer.headers().get(header::CONTENT_TYPE).cloned();
    let bytes = answer.bytes().await.map(|b| b.to_vec()).unwrap_or_default();
    if let Some(gate) = gate_for(&p, &method, &path, Hold::Answer) {
        gate.pass().await;
    }
    let ex = Exchange { method, path, status, body: bytes };
    let reply = {
        let mut rules = p.rules.lock().unwrap_or_else(|e| e.into_inner());
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
    let real = move |ex: Exchange| {
        let mut resp =
            plain(StatusCode::from_u16(ex.status).unwrap_or(StatusCode::OK), "application/json", ex.body);
        if let Some(v) = content_type {
            resp.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        if let Some(v) = retry_after {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        resp
    };
    let Some(reply) = reply else { return real(ex) };
    *p.rewritten.lock().unwrap_or_else(|e| e.into_inner()) += 1;
    give(reply, ex, real).await
}

/// The response that gives `reply` for this exchange (`real` makes the server's own answer).
async fn give(reply: Reply, ex: Exchange, real: impl FnOnce(Exchange) -> Response) -> Response {
    let status = |s: u16| StatusCode::from_u16(s).unwrap_or(StatusCode::OK);
    match reply {
        Reply::Body(s, body) => plain(status(s), "application/json", body),
        Reply::Html(s, body) => plain(status(s), "text/html; charset=utf-8", body),
        Reply::CutAfter(body, sent) => {
            let full = body.len();
            let mut resp = cut_off(body, sent);
            resp.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(full));
            resp
        }
        Reply::Truncated(body, sent) => cut_off(body, sent),
        Reply::Trickle(body, over) => {
            let pieces = body.len().div_ceil(64).max(1);
            let pause = over / pieces as u32;
            let chunks: Vec<Bytes> = body.chunks(64).map(Bytes::copy_from_slice).collect();
            let stream = futures_util::stream::unfold(chunks.into_iter(), move |mut rest| async move {
                let next = rest.next()?;
                tokio::time::sleep(pause).await;
                Some((Ok::<_, std::io::Error>(next), rest))
            });
            let mut resp = Response::new(Body::from_stream(stream));
            resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            resp
        }
        Reply::RetryAfter(s, secs) => {
            let body = serde_json::json!({"result": "error", "msg": "Try again later.", "code": "RATE_LIMIT_HIT",
                "retry-after": secs});
            let mut resp = plain(status(s), "application/json", body.to_string().into_bytes());
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
            resp
        }
        Reply::Late(after) => {
            tokio::time::sleep(after).await;
            real(ex)
        }
        Reply::Huge(size) => {
            const PIECE: usize = 64 * 1024;
            let head = Bytes::from_static(b"{\"result\":\"success\",\"msg\":\"\",\"padding\":\"");
            let tail = Bytes::from_static(b"\"}");
            let fill = Bytes::from(vec![b'a'; PIECE]);
            let middle = size.saturating_sub(head.len() + tail.len());
            let mut pieces = vec![head];
            pieces.extend(std::iter::repeat_n(fill.clone(), middle / PIECE));
            pieces.push(fill.slice(..middle % PIECE));
            pieces.push(tail);
            let stream = futures_util::stream::iter(pieces.into_iter().map(Ok::<_, std::io::Error>));
            let mut resp = Response::new(Body::from_stream(stream));
            resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            resp
        }
    }
}

/// `sent` bytes of `body`, then a broken connection.
fn cut_off(body: Vec<u8>, sent: usize) -> Response {
    let part = Bytes::from(body[..sent.min(body.len())].to_vec());
    let chunks: Vec<Result<Bytes, std::io::Error>> =
        vec![Ok(part), Err(std::io::Error::other("connection cut by the proxy"))];
    let mut resp = Response::new(Body::from_stream(futures_util::stream::iter(chunks)));
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

fn plain(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = status;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    resp
}
