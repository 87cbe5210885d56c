//! What every handler gets: the state shared by all of them, the request extractors
//! (authenticated [`Req`] and anonymous [`Anon`]), and [`reply`], which finishes a success body.

use super::error::{ApiErr, ApiResult};
use super::org::Org;
use super::params::Params;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde_json::Value;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// State shared by every handler.
pub struct Shared {
    pub org: Mutex<Org>,
    /// Base URL the server is reachable at (the organization's URL).
    pub url: String,
    /// For POSTing outgoing-webhook payloads.
    pub http: reqwest::Client,
    /// A long-poll with nothing to deliver returns a heartbeat after this long.
    pub heartbeat: Duration,
    /// How long a request's body may take to arrive, all of it, once its head is in
    /// (`ServerOptions::body_read_timeout`).
    pub body_timeout: Duration,
    /// Requests received, of any kind (tests use it to prove a request was never sent).
    pub requests: std::sync::atomic::AtomicU64,
    /// The newest requests as `METHOD /path?query` (tests read which requests a client makes).
    pub request_log: Mutex<std::collections::VecDeque<String>>,
    /// How people log in, and the sign-ins under way (`logins`).
    pub logins: Mutex<crate::logins::Logins>,
    /// The newest parameters answered as `ignored_parameters_unsupported`, as `METHOD /path
    /// name` — what a real server warns of in its log (tests prove a client sends none that the
    /// server's level lacks).
    pub ignored_log: Arc<Mutex<std::collections::VecDeque<String>>>,
}

/// How many requests `Shared::request_log` keeps.
pub const REQUEST_LOG_LEN: usize = 256;

impl Shared {
    /// The sign-in state (recovered from a poisoned lock as `lock` is).
    pub fn logins(&self) -> MutexGuard<'_, crate::logins::Logins> {
        self.logins.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Lock the organization. A poisoned lock (a panic elsewhere) is recovered: the data is
    /// plain records, and refusing every later request would be worse.
    pub fn lock(&self) -> MutexGuard<'_, Org> {
        self.org.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// An authenticated request: the caller's user ID and the merged parameters.
pub struct Req {
    pub user_id: i64,
    /// The client the request names (`client` parameter, else the User-Agent's product).
    pub client: String,
    pub p: Params,
    /// Files of a multipart body (`POST /user_uploads`).
    pub files: Vec<UploadedFile>,
}

/// A file part of a multipart request.
pub struct UploadedFile {
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: axum::body::Bytes,
}

/// An unauthenticated request's parameters.
pub struct Anon {
    pub p: Params,
}

/// Largest request body accepted from a user whose credentials were checked (messages are
/// limited far below this; an upload may take 25 MiB).
const MAX_BODY: usize = 32 * 1024 * 1024;

/// Largest body of a request made without credentials (`fetch_api_key`: an email and a password).
const MAX_ANON_BODY: usize = 64 * 1024;

fn too_large() -> ApiErr {
    ApiErr::new(StatusCode::PAYLOAD_TOO_LARGE, "BAD_REQUEST", "Request body too large")
}

/// A multipart body: its text fields as parameters, its files apart.
async fn read_multipart(
    ctype: &str,
    bytes: axum::body::Bytes,
    pairs: &mut Vec<(String, String)>,
) -> ApiResult<Vec<UploadedFile>> {
    let bad = |e: multer::Error| ApiErr::bad(format!("Invalid multipart body: {e}"));
    let boundary = multer::parse_boundary(ctype).map_err(bad)?;
    let stream = futures_util::stream::once(async move { Ok::<_, std::convert::Infallible>(bytes) });
    let mut form = multer::Multipart::new(stream, boundary);
    let mut files = Vec::new();
    while let Some(field) = form.next_field().await.map_err(bad)? {
        let name = field.name().unwrap_or_default().to_owned();
        match field.file_name().map(str::to_owned) {
            Some(filename) => {
                let content_type = field.content_type().map(|m| m.to_string());
                files.push(UploadedFile { filename, content_type, bytes: field.bytes().await.map_err(bad)? });
            }
            None => pairs.push((name, field.text().await.map_err(bad)?)),
        }
    }
    Ok(files)
}

/// 408, and the connection closed: the body did not arrive within the bound.
fn too_slow() -> ApiErr {
    ApiErr::new(StatusCode::REQUEST_TIMEOUT, "REQUEST_TIMEOUT", "Request body not received in time")
}

/// The query's and the body's parameters, and the body's files; a body over `max` bytes is
/// refused, one that says so in its `Content-Length` before any of it is read, and one not
/// wholly received within `within` too (one byte every few seconds must not hold a connection,
/// nor a file descriptor, for minutes: issue 50).
async fn read_params(
    parts: &axum::http::request::Parts,
    body: axum::body::Body,
    max: usize,
    within: Duration,
) -> ApiResult<(Params, Vec<UploadedFile>)> {
    let mut pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(parts.uri.query().unwrap_or("").as_bytes()).into_owned().collect();
    let announced =
        parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let bytes = tokio::time::timeout(within, axum::body::to_bytes(body, max))
        .await
        .map_err(|_| too_slow())?
        .map_err(|_| too_large())?;
    let mut files = Vec::new();
    if !bytes.is_empty() {
        let ctype = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
        if ctype.starts_with("multipart/form-data") {
            files = read_multipart(ctype, bytes, &mut pairs).await?;
        } else {
            pairs.extend(url::form_urlencoded::parse(&bytes).into_owned());
        }
    }
    Ok((Params::from_pairs(pairs), files))
}

/// The user the request's `Authorization` header names, if its key is theirs and they are
/// active. Only the head is read: a request without valid credentials is answered before any
/// of its body arrives (issue 37: 32 MiB bodies were buffered for anyone).
fn authenticate(headers: &axum::http::HeaderMap, state: &Shared) -> ApiResult<i64> {
    let unauthorized = |code, msg: &str| ApiErr::new(StatusCode::UNAUTHORIZED, code, msg);
    let header = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| unauthorized("UNAUTHORIZED", "Missing authorization header"))?;
    let encoded = header
        .strip_prefix("Basic ")
        .ok_or_else(|| unauthorized("UNAUTHORIZED", "Only Basic authentication is supported"))?;
    use base64::Engine;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| unauthorized("UNAUTHORIZED", "Invalid authorization header"))?;
    let (email, key) = decoded.split_once(':').unwrap_or((&decoded, ""));
    let org = state.lock();
    let user = org.user_by_email(email).filter(|u| u.api_key == key && !key.is_empty());
    // The reference's `authenticated_rest_api_view` answers every refused key with 401
    // `UNAUTHORIZED` and the reason (`InvalidAPIKeyError`'s own code never reaches the client).
    let well_formed = key.len() == 32 && key.bytes().all(|b| b.is_ascii_alphanumeric());
    match user {
        None if !well_formed => Err(unauthorized("UNAUTHORIZED", "Malformed API key")),
        None => Err(unauthorized("UNAUTHORIZED", "Invalid API key")),
        Some(u) if !u.is_active => Err(unauthorized("USER_DEACTIVATED", "Account is deactivated")),
        Some(u) => Ok(u.id),
    }
}

impl FromRequest<Arc<Shared>> for Req {
    type Rejection = ApiErr;

    async fn from_request(req: Request, state: &Arc<Shared>) -> Result<Self, ApiErr> {
        let (parts, body) = req.into_parts();
        let user_id = authenticate(&parts.headers, state)?;
        let (p, files) = read_params(&parts, body, MAX_BODY, state.body_timeout).await?;
        let p = p.noting_ignored(format!("{} {}", parts.method, parts.uri.path()), &state.ignored_log);
        let agent = parts.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
        let client = crate::levels::client_name(p.opt_str("client"), agent);
        Ok(Req { user_id, client, p, files })
    }
}

impl FromRequest<Arc<Shared>> for Anon {
    type Rejection = ApiErr;

    async fn from_request(req: Request, state: &Arc<Shared>) -> Result<Self, ApiErr> {
        let (parts, body) = req.into_parts();
        let (p, _) = read_params(&parts, body, MAX_ANON_BODY, state.body_timeout).await?;
        Ok(Anon { p })
    }
}

/// Finish a success body: report parameters the operation did not read.
pub fn reply(p: &Params, mut body: Value) -> axum::Json<Value> {
    let unused = p.ignored();
    if !unused.is_empty()
        && let Some(obj) = body.as_object_mut()
    {
        obj.insert("ignored_parameters_unsupported".into(), serde_json::json!(unused));
    }
    axum::Json(body)
}
