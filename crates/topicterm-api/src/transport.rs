//! The HTTP transport: credentials, the client, form parameters, and the one request path every
//! operation goes through (limits checked before sending, `ignored_parameters_unsupported` logged,
//! error bodies turned into [`ApiError::Server`]).

use super::error::{ApiError, LimitError, Result, ServerError};

#[cfg(feature = "http")]
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// Account credentials (a zuliprc's `[api]` section). `Debug` never shows the key.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// Base URL of the server, e.g. `https://chat.example.com`.
    pub site: String,
    pub email: String,
    pub api_key: String,
    /// How the server's certificate is trusted, and the client's own.
    pub tls: Tls,
}

/// How a server is trusted: the zuliprc options of the official Python bindings, by the same
/// names and with the same meaning.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tls {
    /// `insecure`: accept any certificate (shown loudly in the status bar).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub insecure: bool,
    /// `cert_bundle`: a PEM file of the certificates to trust instead of the system's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cert_bundle: Option<std::path::PathBuf>,
    /// `client_cert`: a PEM certificate the client shows the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_cert: Option<std::path::PathBuf>,
    /// `client_cert_key`: its private key (PEM), when not in the `client_cert` file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_cert_key: Option<std::path::PathBuf>,
}

#[cfg(feature = "http")]
impl Tls {
    /// Apply to a request builder: the trusted certificates and the client's identity.
    fn apply(&self, mut b: reqwest::ClientBuilder) -> Result<reqwest::ClientBuilder> {
        let unreadable =
            |name: &str, path: &std::path::Path, e: &dyn std::fmt::Display| ApiError::Transport {
                message: format!("{name} {}: {e}", path.display()),
                timeout: false,
                connect: false,
            };
        if self.insecure {
            b = b.tls_danger_accept_invalid_certs(true);
        }
        if let Some(path) = &self.cert_bundle {
            let pem = std::fs::read(path).map_err(|e| unreadable("cert_bundle", path, &e))?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem)
                .map_err(|e| unreadable("cert_bundle", path, &e))?;
            if certs.is_empty() {
                return Err(unreadable("cert_bundle", path, &"no PEM certificate in it"));
            }
            b = b.tls_certs_only(certs);
        }
        if let Some(cert) = &self.client_cert {
            let mut pem = std::fs::read(cert).map_err(|e| unreadable("client_cert", cert, &e))?;
            if let Some(key) = &self.client_cert_key {
                pem.push(b'\n');
                pem.extend(std::fs::read(key).map_err(|e| unreadable("client_cert_key", key, &e))?);
            }
            let id = reqwest::Identity::from_pem(&pem).map_err(|e| unreadable("client_cert", cert, &e))?;
            b = b.identity(id);
        } else if let Some(key) = &self.client_cert_key {
            return Err(unreadable("client_cert_key", key, &"is set without client_cert"));
        }
        Ok(b)
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("site", &self.site)
            .field("email", &self.email)
            .field("api_key", &"<redacted>")
            .finish()
    }
}

/// What the client learns from the server and uses for limit checks and fallbacks.
#[derive(Debug, Clone, Default)]
pub struct ServerInfo {
    pub feature_level: Option<i64>,
    pub max_message_length: Option<usize>,
    pub max_topic_length: Option<usize>,
    pub empty_topic_display_name: Option<String>,
}

/// The typed API client. Cheap to clone; clones share the connection pools and server info.
#[derive(Clone)]
#[cfg(feature = "http")]
pub struct Client {
    /// The pool every request but the long-poll goes through, being made on a thread of its
    /// own from [`Client::new`] on (see [`Building`]).
    http: Arc<Building>,
    /// The long-poll's own pool: a `GET /events` held open never takes the connection a page
    /// or a send is waiting for (see [`Client::pool_for`]). Made at the first poll, not with
    /// the client: each pool reads the system's certificates (milliseconds of start-up).
    poll: Arc<std::sync::OnceLock<reqwest::Client>>,
    tls: Tls,
    /// `{site}/api/v1`
    base: String,
    email: String,
    api_key: String,
    info: Arc<RwLock<ServerInfo>>,
    /// Any certificate is accepted (`insecure`).
    insecure: bool,
    /// The requests on their way (not the long-poll, uploads or downloads).
    waiting: Arc<super::waiting::Waiting>,
}

/// Make ring the process's TLS crypto provider (the one linked; reqwest has none of its own in
/// the binary). Done by every client and by `main` first thing; the first call wins.
#[cfg(feature = "http")]
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

#[cfg(feature = "http")]
impl Client {
    /// True when any certificate is accepted (`insecure`): the status bar says so.
    pub fn insecure(&self) -> bool {
        self.insecure
    }

    /// A new pool's settings as this client's (its TLS), for a request outside the API
    /// (`desktop_login`'s web session).
    pub(crate) fn builder_for_login(&self) -> Result<reqwest::ClientBuilder> {
        builder(&self.tls)
    }

    /// The server's base URL (without `/api/v1`).
    pub fn site(&self) -> &str {
        self.base.strip_suffix("/api/v1").unwrap_or(&self.base)
    }
}

/// A connection pool trusting servers as `tls` says.
#[cfg(feature = "http")]
fn pool(tls: &Tls) -> Result<reqwest::Client> {
    Ok(builder(tls)?.build()?)
}

/// A pool's settings, with the files `tls` names read (an unreadable one is an error now).
#[cfg(feature = "http")]
fn builder(tls: &Tls) -> Result<reqwest::ClientBuilder> {
    let builder = reqwest::Client::builder()
        .user_agent(concat!("topicterm/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10));
    tls.apply(builder)
}

/// The pool, or why it could not be made.
#[cfg(feature = "http")]
type Built = std::result::Result<reqwest::Client, String>;

/// A pool being made. Making one reads and parses the system's certificates: milliseconds
/// that would otherwise stand between the launch and the first frame, which needs no network.
/// A thread makes it ([`Connect`]); the first request waits for it only if it is not done.
#[cfg(feature = "http")]
pub struct Building(std::sync::LazyLock<Built, Box<dyn FnOnce() -> Built + Send>>);

#[cfg(feature = "http")]
impl Building {
    fn new(make: impl FnOnce() -> Built + Send + 'static) -> Arc<Building> {
        Arc::new(Building(std::sync::LazyLock::new(Box::new(make))))
    }

    fn get(&self) -> Result<&reqwest::Client> {
        std::sync::LazyLock::force(&self.0).as_ref().map_err(|e| ApiError::no_connections(e))
    }
}

/// The making of a client's pool, not started yet ([`Client::held`]): [`Connect::now`] makes
/// it on the caller's thread; dropped unused, it starts a thread that makes it. (Without either,
/// the first request would make it.)
#[cfg(feature = "http")]
pub struct Connect(Option<Arc<Building>>);

#[cfg(feature = "http")]
impl Connect {
    /// Make the pool here and now (a thread that has other start-up work to do first).
    pub fn now(mut self) {
        if let Some(building) = self.0.take() {
            std::sync::LazyLock::force(&building.0);
        }
    }
}

#[cfg(feature = "http")]
impl Drop for Connect {
    fn drop(&mut self) {
        if let Some(building) = self.0.take() {
            let _ = std::thread::Builder::new().name("connections".into()).spawn(move || {
                std::sync::LazyLock::force(&building.0);
            });
        }
    }
}

/// A server's address as a client keeps it (spaces and trailing slashes gone): what
/// [`Client::site`] gives back for it, known before the client is made.
pub fn site_of(site: &str) -> &str {
    site.trim().trim_end_matches('/')
}

#[cfg(feature = "http")]
impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("base", &self.base).field("email", &self.email).finish()
    }
}

/// Parameters of one request, in order.
#[derive(Debug, Default, Clone)]
pub struct Params(Vec<(String, String)>);

impl Params {
    pub fn new() -> Self {
        Params(Vec::new())
    }
    /// A plain value (strings, numbers, booleans as `true`/`false`).
    pub fn add(mut self, key: &str, value: impl ToString) -> Self {
        self.0.push((key.to_owned(), value.to_string()));
        self
    }
    /// An optional plain value.
    pub fn opt(self, key: &str, value: Option<impl ToString>) -> Self {
        match value {
            Some(v) => self.add(key, v),
            None => self,
        }
    }
    /// A list or object, as JSON text.
    pub fn json(self, key: &str, value: &impl Serialize) -> Self {
        let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
        self.add(key, text)
    }
    /// An optional list or object, as JSON text.
    pub fn opt_json(self, key: &str, value: Option<&impl Serialize>) -> Self {
        match value {
            Some(v) => self.json(key, v),
            None => self,
        }
    }
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}

/// What `POST /user_uploads` answers.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UploadResponse {
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub uri: String,
    /// The name the server stored the file as (feature level 285).
    #[serde(default)]
    pub filename: Option<String>,
}

/// Timeout for ordinary requests; long-polls set their own.
#[cfg(feature = "http")]
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

#[cfg(feature = "http")]
impl Client {
    /// A client with credentials. The site may be given with or without a trailing slash.
    pub fn new(creds: &Credentials) -> Result<Self> {
        Self::held(creds).map(|(client, _connect)| client)
    }

    /// A client whose pool is made when the caller says ([`Connect`]): start-up has it made
    /// after the last session is read, so that the two do not share the processor on the way
    /// to the first frame.
    pub fn held(creds: &Credentials) -> Result<(Self, Connect)> {
        Self::build(&creds.site, &creds.email, &creds.api_key, &creds.tls)
    }

    /// A client without credentials, for `server_settings` and `fetch_api_key`.
    pub fn anonymous(site: &str, tls: &Tls) -> Result<Self> {
        Self::build(site, "", "", tls).map(|(client, _connect)| client)
    }

    fn build(site: &str, email: &str, api_key: &str, tls: &Tls) -> Result<(Self, Connect)> {
        let site = site_of(site);
        let parsed = url::Url::parse(site).map_err(|e| ApiError::Transport {
            message: format!("invalid server URL {site:?}: {e}"),
            timeout: false,
            connect: false,
        })?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(ApiError::Transport {
                message: format!("invalid server URL {site:?}: use http:// or https://"),
                timeout: false,
                connect: false,
            });
        }
        install_crypto();
        let builder = builder(tls)?;
        let http = Building::new(move || builder.build().map_err(|e| e.to_string()));
        let client = Client {
            http: http.clone(),
            poll: Arc::default(),
            tls: tls.clone(),
            insecure: tls.insecure,
            base: format!("{site}/api/v1"),
            email: email.to_owned(),
            api_key: api_key.to_owned(),
            info: Arc::new(RwLock::new(ServerInfo::default())),
            waiting: Arc::default(),
        };
        Ok((client, Connect(Some(http))))
    }

    /// The account's email.
    pub fn email(&self) -> &str {
        &self.email
    }

    /// What the client knows about the server (feature level, limits).
    pub fn server_info(&self) -> ServerInfo {
        self.info.read().map(|i| i.clone()).unwrap_or_default()
    }

    /// Record what the server said about itself (done by `register` automatically).
    pub fn set_server_info(&self, info: ServerInfo) {
        if let Ok(mut guard) = self.info.write() {
            *guard = info;
        }
    }

    pub(super) fn feature_level(&self) -> Option<i64> {
        self.server_info().feature_level
    }

    /// The server's level, to speak in its terms ([`super::levels`]).
    pub fn level(&self) -> super::levels::Level {
        super::levels::Level(self.feature_level())
    }

    /// Send a request and return the decoded success body. It counts among the requests on
    /// their way ([`Client::unanswered_for`]) until it is answered.
    pub async fn call<T: DeserializeOwned>(&self, method: Method, path: &str, params: Params) -> Result<T> {
        let _waiting = self.waiting.start();
        self.call_with_timeout(method, path, params, DEFAULT_TIMEOUT).await
    }

    /// How long the oldest request on its way (the long-poll, uploads and downloads aside) has
    /// waited for its answer: seconds for a request that should take a moment say the server is
    /// not answering, well before the request's own deadline.
    pub fn unanswered_for(&self) -> Option<Duration> {
        self.waiting.longest()
    }

    pub(super) async fn call_with_timeout<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        params: Params,
        timeout: Duration,
    ) -> Result<T> {
        let sent = std::time::Instant::now();
        let (status, retry_header, bytes) = self.send(method, path, params, timeout).await?;
        let (read, decoding) = (sent.elapsed(), std::time::Instant::now());
        let decoded = decode(path, status, retry_header, bytes.as_ref());
        if path == "/register" {
            // Start-up's steps (the client's log target `topicterm::start`, read by bench/scale.sh).
            let kb = bytes.as_ref().len() / 1024;
            let took = decoding.elapsed();
            tracing::debug!(target: "topicterm::start", "register's answer read ({kb} KB) {read:?} after it was sent, decoded in {took:?}");
        }
        decoded
    }

    /// `POST /user_uploads`: one file, sent as multipart form data; `body` is the file's
    /// content as a stream (so a caller can count what has gone out). The answer's `url` is
    /// what a message links to.
    pub async fn upload_file(&self, filename: &str, len: u64, body: reqwest::Body) -> Result<UploadResponse> {
        let part = reqwest::multipart::Part::stream_with_length(body, len).file_name(filename.to_owned());
        let form = reqwest::multipart::Form::new().part("file", part);
        let path = "/user_uploads";
        let mut req = self.http.get()?.post(format!("{}{path}", self.base)).timeout(Duration::from_secs(600));
        if !self.email.is_empty() {
            req = req.basic_auth(&self.email, Some(&self.api_key));
        }
        let resp = req.multipart(form).send().await?;
        let status = resp.status().as_u16();
        let max = answer_bound(&Method::POST, path);
        let bytes =
            read_at_most(resp, max).await?.ok_or(LimitError::AnswerTooLarge { max_mib: max >> 20 })?;
        let mut r: UploadResponse = decode(path, status, None, &bytes)?;
        // Servers before feature level 272 name it `uri` only.
        if r.url.is_empty() {
            r.url = r.uri.clone();
        }
        Ok(r)
    }
}

/// A success body decoded into its type, or the error the answer stands for. Public for the
/// decoding benchmark (`benches/decode.rs`).
///
/// A success body is decoded straight into its type, in one pass: the envelope's `result` and
/// `ignored_parameters_unsupported` are read on the way ([`Envelope`]), not by a pass of their
/// own over the whole answer (a register of 20,000 users is ten megabytes: a third of its
/// decoding was that pass). Whatever that pass does not take as it is — the type refuses the
/// answer, the envelope says `error`, a field of it has another shape — is judged as before, by
/// [`decode_in_two`].
pub fn decode<T: DeserializeOwned>(
    path: &str,
    status: u16,
    retry_header: Option<f64>,
    bytes: &[u8],
) -> Result<T> {
    if !(200..300).contains(&status) {
        return Err(error_body(path, status, retry_header, bytes));
    }
    let mut seen = Envelope::default();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let typed = T::deserialize(Tee { de: &mut de, seen: &mut seen }).and_then(|t| de.end().map(|()| t));
    match (typed, seen.plain()) {
        (Ok(t), Some(ignored)) => {
            if let Some(ignored) = ignored.filter(|i| !i.is_empty()) {
                tracing::warn!(path, ?ignored, "server ignored unsupported parameters");
            }
            Ok(t)
        }
        _ => decode_in_two(path, status, retry_header, bytes),
    }
}

/// The envelope read first, then the body into its type: what [`decode`] falls back on.
fn decode_in_two<T: DeserializeOwned>(
    path: &str,
    status: u16,
    retry_header: Option<f64>,
    bytes: &[u8],
) -> Result<T> {
    // A large register answer is never held twice (once as a JSON tree, once typed). Errors
    // are small: they go through a tree.
    #[derive(Deserialize)]
    struct Envelope {
        #[serde(default)]
        result: Option<String>,
        #[serde(default)]
        ignored_parameters_unsupported: Option<Vec<Value>>,
    }
    let envelope = match serde_json::from_slice::<Envelope>(bytes) {
        Ok(e) if (200..300).contains(&status) => e,
        _ => return Err(error_body(path, status, retry_header, bytes)),
    };
    if envelope.result.as_deref() == Some("error") {
        return Err(error_body(path, status, retry_header, bytes));
    }
    if let Some(ignored) = envelope.ignored_parameters_unsupported.filter(|i| !i.is_empty()) {
        tracing::warn!(path, ?ignored, "server ignored unsupported parameters");
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::unreadable(path, status, bytes.len(), &e))
}

/// The envelope's fields as the body's one pass met them (each also given to the type).
#[derive(Default)]
struct Envelope {
    result: Option<Value>,
    ignored: Option<Value>,
    /// One of them came twice.
    twice: bool,
}

impl Envelope {
    /// The parameters the server ignored, when the envelope is a plain success (`result` a
    /// string other than `error`, or none; the list a list, or none): `None` otherwise.
    fn plain(self) -> Option<Option<Vec<Value>>> {
        let result_ok = match &self.result {
            None | Some(Value::Null) => true,
            Some(Value::String(r)) => r != "error",
            Some(_) => false,
        };
        let ignored = match self.ignored {
            None | Some(Value::Null) => None,
            Some(Value::Array(list)) => Some(list),
            Some(_) => return None,
        };
        (result_ok && !self.twice).then_some(ignored)
    }
}

/// The answer's top level, every key and value handed on to the type being decoded; the
/// envelope's two fields copied on their way into [`Envelope`].
struct Tee<'a, D> {
    de: D,
    seen: &'a mut Envelope,
}

impl<'de, D: serde::Deserializer<'de>> serde::Deserializer<'de> for Tee<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, D::Error> {
        self.de.deserialize_map(TeeVisitor { visitor, seen: self.seen })
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, D::Error> {
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

struct TeeVisitor<'a, V> {
    visitor: V,
    seen: &'a mut Envelope,
}

impl<'de, V: serde::de::Visitor<'de>> serde::de::Visitor<'de> for TeeVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> std::result::Result<V::Value, A::Error> {
        self.visitor.visit_map(TeeMap { map, seen: self.seen, envelope: None })
    }
}

/// Which envelope field the key just handed on names.
#[derive(Clone, Copy)]
enum Field {
    Result,
    Ignored,
}

struct TeeMap<'a, A> {
    map: A,
    seen: &'a mut Envelope,
    envelope: Option<Field>,
}

impl<'de, A: serde::de::MapAccess<'de>> serde::de::MapAccess<'de> for TeeMap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> std::result::Result<Option<K::Value>, A::Error> {
        use serde::de::IntoDeserializer;
        let Some(key) = self.map.next_key::<String>()? else { return Ok(None) };
        self.envelope = match key.as_str() {
            "result" => Some(Field::Result),
            "ignored_parameters_unsupported" => Some(Field::Ignored),
            _ => None,
        };
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<S: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> std::result::Result<S::Value, A::Error> {
        use serde::de::Error;
        let Some(field) = self.envelope.take() else { return self.map.next_value_seed(seed) };
        // Taken as its text, and that text given to the type by the decoder the rest goes
        // through (not a `Value`: every field's decoder would be compiled again for one).
        let raw: &'de serde_json::value::RawValue = self.map.next_value()?;
        let slot = match field {
            Field::Result => &mut self.seen.result,
            Field::Ignored => &mut self.seen.ignored,
        };
        self.seen.twice |= slot.is_some();
        *slot = Some(serde_json::from_str(raw.get()).map_err(A::Error::custom)?);
        seed.deserialize(&mut serde_json::Deserializer::from_slice(raw.get().as_bytes()))
            .map_err(A::Error::custom)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

#[cfg(feature = "http")]
impl Client {
    /// Fetch a file a message links to: an upload on this server (see [`crate::urls::judge`])
    /// with the user's credentials, anything else on the web without them. At most 200 MB.
    pub async fn download(&self, url: &str) -> Result<Vec<u8>> {
        self.download_at_most(url, 200 << 20).await
    }

    /// [`Client::download`], refusing a body of more than `max` bytes (read no further). The
    /// credentials go only with an upload on the user's own server; a redirect to another
    /// origin drops them (reqwest removes `Authorization` across hosts, ports and schemes).
    pub async fn download_at_most(&self, url: &str, max: usize) -> Result<Vec<u8>> {
        use crate::urls::Link;
        let req = match crate::urls::judge(self.site(), url) {
            Link::OwnUpload(full) => {
                let req = self.http.get()?.get(full);
                if self.email.is_empty() { req } else { req.basic_auth(&self.email, Some(&self.api_key)) }
            }
            Link::Web(full) if matches!(full.scheme(), "http" | "https") => self.http.get()?.get(full),
            Link::InApp(_) | Link::Web(_) | Link::Refused(_) => return Err(LimitError::NotFetchable.into()),
        };
        let req = req.timeout(Duration::from_secs(300));
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        if !resp.status().is_success() {
            // A file's answer is no API error body: the status says it all.
            return Err(ApiError::Server(Box::new(ServerError::new(status, "DOWNLOAD_REFUSED", ""))));
        }
        read_at_most(resp, max)
            .await?
            .ok_or_else(|| LimitError::TooLargeToFetch { max_mib: max >> 20 }.into())
    }

    /// Send a request and return the raw JSON of a success body; error bodies become
    /// [`ApiError::Server`]. Used for operations this client has no type for.
    pub async fn raw(&self, method: Method, path: &str, params: Params, timeout: Duration) -> Result<Value> {
        let (status, retry_header, bytes) = self.send(method, path, params, timeout).await?;
        let bytes = bytes.as_ref();
        match serde_json::from_slice::<Value>(bytes) {
            Ok(body)
                if (200..300).contains(&status)
                    && body.get("result").and_then(Value::as_str) != Some("error") =>
            {
                Ok(body)
            }
            _ => Err(error_body(path, status, retry_header, bytes)),
        }
    }

    /// The pool a request goes through: the long-poll (`GET /events`) its own, everything else
    /// the other, so a poll held open for a minute never makes a short request wait for a
    /// connection or open one of its own in the middle of the first screen.
    fn pool_for(&self, method: &Method, path: &str) -> Result<&reqwest::Client> {
        let http = self.http.get()?;
        if *method == Method::GET && path == "/events" {
            // Made as the other was, which worked: should it fail now, the poll shares the other.
            Ok(self.poll.get_or_init(|| {
                pool(&self.tls).unwrap_or_else(|e| {
                    tracing::warn!("the long-poll shares the connections of the rest: {e}");
                    http.clone()
                })
            }))
        } else {
            Ok(http)
        }
    }

    /// Send a request: the status, the `Retry-After` header, and the body.
    async fn send(
        &self,
        method: Method,
        path: &str,
        params: Params,
        timeout: Duration,
    ) -> Result<(u16, Option<f64>, impl AsRef<[u8]>)> {
        let url = format!("{}{}", self.base, path);
        let mut req = self.pool_for(&method, path)?.request(method.clone(), &url).timeout(timeout);
        if !self.email.is_empty() {
            req = req.basic_auth(&self.email, Some(&self.api_key));
        }
        req = if method == Method::GET { req.query(params.pairs()) } else { req.form(params.pairs()) };
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let retry_header = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok());
        let max = answer_bound(&method, path);
        let body = read_at_most(resp, max).await?.ok_or(LimitError::AnswerTooLarge { max_mib: max >> 20 })?;
        Ok((status, retry_header, body))
    }
}

/// The most an answer of an endpoint may be, read before it is decoded: register (the whole
/// organization's state: 20,000 users and 2,000 channels take about 12 MB) may be large; a page
/// of messages, an events batch and the lists of users or channels moderate; every other answer
/// (a send's, a flag's, one user's…) small. Past it the answer is refused, not read whole.
#[cfg(feature = "http")]
pub fn answer_bound(method: &Method, path: &str) -> usize {
    const MIB: usize = 1 << 20;
    let path = path.split('?').next().unwrap_or(path);
    match (method, path) {
        (_, "/register") => 512 * MIB,
        (&Method::GET, "/messages" | "/events" | "/users" | "/streams" | "/users/me/subscriptions") => {
            128 * MIB
        }
        _ => 16 * MIB,
    }
}

/// A body, read chunk by chunk: `None` as soon as it passes `max` bytes (or announces more),
/// so an answer too large never takes its size in memory.
#[cfg(feature = "http")]
async fn read_at_most(mut resp: reqwest::Response, max: usize) -> Result<Option<Vec<u8>>> {
    // The announced length (reqwest's own `content_length` does not tell it where it can
    // decompress); of a compressed body it is less than what it decompresses to.
    let announced = resp
        .headers()
        .get(reqwest::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > max as u64) {
        return Ok(None);
    }
    let mut body = Vec::with_capacity(announced.map_or(0, |n| n as usize));
    while let Some(chunk) = resp.chunk().await? {
        if body.len() + chunk.len() > max {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}

/// The error an answer that is not a success stands for: the server's error body, or an answer
/// that is not the protocol's (not JSON, or JSON that is no error body: a proxy's page, a
/// mangled answer). Only facts about the answer are kept (status, length, where it broke), never
/// its text.
fn error_body(path: &str, status: u16, retry_header: Option<f64>, bytes: &[u8]) -> ApiError {
    let success = (200..300).contains(&status);
    match serde_json::from_slice::<Value>(bytes) {
        Ok(body)
            if body.is_object()
                && (!success || body.get("result").and_then(Value::as_str) == Some("error")) =>
        {
            ApiError::Server(Box::new(ServerError::from_body(status, &body, retry_header)))
        }
        Ok(_) => ApiError::Decode {
            status,
            message: format!(
                "{}: JSON that is no answer ({} bytes)",
                path.split('?').next().unwrap_or(path),
                bytes.len()
            ),
        },
        Err(e) => ApiError::unreadable(path, status, bytes.len(), &e),
    }
}

#[cfg(test)]
#[cfg(feature = "http")]
mod tests {
    use super::*;

    /// A pool that cannot be made (no certificate of the system's to trust servers by) is each
    /// request's error, told as what to put in the zuliprc, and nothing is sent.
    #[test]
    fn a_pool_that_cannot_be_made_says_what_trusts_a_server_instead() {
        let building = Building::new(|| Err("No CA certificates were loaded from the system".into()));
        let e = building.get().unwrap_err();
        assert_eq!(e.trouble(), crate::error::Trouble::UntrustedCertificate);
        assert!(!e.may_have_arrived());
    }

    /// A held pool is made when the caller says, or by a thread of its own once the caller
    /// lets it go unused; the first request gets that pool, not another.
    #[test]
    fn a_held_pool_is_made_when_told_or_when_let_go() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let made = Arc::new(AtomicUsize::new(0));
        let count = |made: &Arc<AtomicUsize>| {
            let made = made.clone();
            move || {
                made.fetch_add(1, Ordering::SeqCst);
                Err("no pool in this test".to_owned())
            }
        };
        let building = Building::new(count(&made));
        Connect(Some(building.clone())).now();
        assert_eq!(made.load(Ordering::SeqCst), 1, "made on this thread, before now() returned");
        assert!(building.get().is_err());
        assert_eq!(made.load(Ordering::SeqCst), 1, "the request took the pool made");

        let made = Arc::new(AtomicUsize::new(0));
        let building = Building::new(count(&made));
        drop(Connect(Some(building.clone())));
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while made.load(Ordering::SeqCst) == 0 && std::time::Instant::now() < deadline {
            std::thread::yield_now();
        }
        assert_eq!(made.load(Ordering::SeqCst), 1, "a thread made it");
        assert!(building.get().is_err());
        assert_eq!(made.load(Ordering::SeqCst), 1);
    }

    /// The one-pass decoding gives what the envelope first, then the body gave, answer for
    /// answer: a success with the envelope's fields seen by the type too, an error in a 200, an
    /// envelope of another shape, a body the type refuses, trailing bytes, no JSON at all.
    #[test]
    fn one_pass_decoding_judges_every_answer_as_two_passes_did() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Answer {
            result: Option<String>,
            n: i64,
            #[serde(default)]
            ignored_parameters_unsupported: Vec<String>,
            #[serde(default)]
            later: Option<Box<serde_json::value::RawValue>>,
        }
        let bodies = [
            (200, r#"{"result":"success","msg":"","n":1}"#),
            (200, r#"{"n":2,"later":[{"a":"\u00e9"}],"result":"success"}"#),
            (200, r#"{"result":"success","n":3,"ignored_parameters_unsupported":["x"]}"#),
            (200, r#"{"result":"error","msg":"No","code":"BAD_REQUEST","n":4}"#),
            (200, r#"{"result":"error","msg":"No","code":"BAD_REQUEST"}"#),
            (200, r#"{"result":7,"n":5}"#),
            (200, r#"{"result":"success","n":6,"ignored_parameters_unsupported":"x"}"#),
            (200, r#"{"result":"success","result":"error","n":7}"#),
            (200, r#"{"result":"success","n":"eight"}"#),
            (200, r#"{"result":"success","n":9} trailing"#),
            (200, r#"[1,2]"#),
            (200, "not json"),
            (400, r#"{"result":"error","msg":"Bad","code":"BAD_REQUEST","n":10}"#),
            (502, "<html>gateway</html>"),
        ];
        for (status, body) in bodies {
            let one = decode::<Answer>("/x", status, None, body.as_bytes());
            let two = decode_in_two::<Answer>("/x", status, None, body.as_bytes());
            assert_eq!(format!("{one:?}"), format!("{two:?}"), "{body}");
        }
        let a = decode::<Answer>("/x", 200, None, br#"{"n":2,"result":"success","later":[1, 2]}"#).unwrap();
        assert_eq!(
            (a.result.as_deref(), a.later.map(|l| l.get().to_owned())),
            (Some("success"), Some("[1, 2]".into()))
        );
    }

    /// What the log keeps of a bad answer: its status, length, endpoint and where its JSON
    /// broke — never its text, which can be message content.
    #[test]
    fn a_bad_answer_is_logged_without_its_text() {
        let secret = "the secret plans for friday";
        let path = "/messages?anchor=newest&narrow=%5B%7B%22operand%22%3A%22plans%22%7D%5D";
        let answers: [(u16, String, &str); 6] = [
            (200, format!("<html><body>{secret}</body></html>"), "/messages: not JSON at line 1, column 1 ("),
            (
                200,
                format!(r#"{{"result":"success","messages":"{secret}"}}"#),
                "/messages: JSON of another shape at line 1, column 60 (",
            ),
            (200, format!(r#"["{secret}"]"#), "/messages: JSON of another shape at line 1, column 30 ("),
            (200, format!(r#""{secret}""#), "/messages: JSON that is no answer ("),
            (502, format!("<h1>Bad Gateway</h1>{secret}"), "/messages: not JSON at line 1, column 1 ("),
            (
                200,
                format!(r#"{{"result":"success","messages":["{secret}"#),
                "/messages: JSON cut short at line 1, column 60 (",
            ),
        ];
        for (status, body, logged) in answers {
            let e =
                decode::<super::super::MessagesResponse>(path, status, None, body.as_bytes()).unwrap_err();
            let line = e.to_string();
            assert!(line.contains(logged), "{line}");
            assert!(line.ends_with(&format!("({} bytes)", body.len())), "{line}");
            assert!(line.contains(&format!("(HTTP {status})")), "{line}");
            assert!(
                !line.contains("secret") && !line.contains("plans") && !line.contains("anchor"),
                "{line}"
            );
        }
        // A refusal keeps the server's message (its words about the request, not content).
        let e =
            decode::<Value>(path, 400, None, br#"{"result":"error","code":"BAD_NARROW","msg":"Bad narrow"}"#)
                .unwrap_err();
        assert_eq!(e.server().map(ToString::to_string).as_deref(), Some("Bad narrow (BAD_NARROW, HTTP 400)"));
    }

    #[test]
    fn credentials_debug_hides_key() {
        let c = Credentials {
            site: "http://x".into(),
            email: "a@b".into(),
            api_key: "SECRET".into(),
            tls: Default::default(),
        };
        assert!(!format!("{c:?}").contains("SECRET"));
    }
}
