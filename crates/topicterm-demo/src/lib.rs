//! `topicterm-demo`: the demo server topicterm embeds (`topicterm --demo`, `topicterm
//! demo-server`, and every test that runs against a server) — an in-memory organization seeded
//! from `assets/demo_org.json`, serving the contract's operations plus register/events/send over
//! axum, at the feature level asked for ([`levels`]).
//!
//! It depends on `topicterm-api` alone, and Cargo keeps it so: it cannot name the client (`app`,
//! `ui`, `net`, …). From the API crate it takes what both sides must agree on, in one home: the
//! types the protocol shares ([`topicterm_api::ReactionType`]), the checks both make (the
//! playground template, `topicterm_api::limits`), Zulip's emoji table, escaping and marking
//! words in HTML (`topicterm_api::markup`), and the hand-over to a client:
//! [`DemoServer::credentials`] returns the client's [`Credentials`], and
//! [`DemoServer::write_zuliprcs`] writes them with the API crate's zuliprc writer.
//!
//! `proxy` holds the fault proxies the tests put between a client and this server: one that cuts
//! connections, a rewriting relay that replaces, trickles or holds back answers, and the seeded
//! lies it tells.
//!
//! All state sits in one [`org::Org`] behind a mutex that no handler holds across an `await`.
//! The client links it only with its `demo` feature (on by default).

pub mod clock;
pub mod counters;
pub mod emoji;
pub mod error;
pub mod events;
mod handlers;
pub mod levels;
pub mod logins;
pub mod markdown;
pub mod org;
pub mod params;
pub mod proxy;
pub mod seed;
mod serve;
pub mod shared;
pub mod tls;
pub mod token;
pub mod validate;

use org::Org;
use shared::Shared;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use topicterm_api::Credentials;

/// How to start a demo server.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Address to bind; port 0 picks a free one.
    pub addr: SocketAddr,
    /// Seed text (JSON); the bundled demo org by default.
    pub seed: String,
    pub outgoing_webhook_url: Option<String>,
    pub feature_level: i64,
    pub heartbeat: Duration,
    pub queue_lifetime: Duration,
    pub partial_subscribers_threshold: usize,
    /// How often due scheduled messages are delivered.
    pub scheduler_tick: Duration,
    /// The moment the seed's relative times count from (default: now). Tests fix it so
    /// rendered timestamps are stable.
    pub seed_time: Option<i64>,
    /// Serve HTTPS with a self-signed certificate generated at start (`DemoServer::cert_pem`).
    pub tls: bool,
    /// With `tls`: serve only clients showing a certificate signed by a CA made at start, which
    /// signs one client certificate (`DemoServer::client_cert`).
    pub require_client_cert: bool,
    /// The most all uploads of the organization may take together, in MiB (`None`: no limit,
    /// as a self-hosted server has by default).
    pub upload_quota_mib: Option<u64>,
    /// How long a client may take to send a request's head (and, with `tls`, its handshake)
    /// before the connection is closed; an idle kept-alive connection is closed after as long.
    pub header_read_timeout: Duration,
    /// How long a request's body may take to arrive, all of it, after its head: past that the
    /// request is answered 408 and its connection closed.
    pub body_read_timeout: Duration,
    /// The seeded users' API keys and outgoing-webhook tokens are derived from this secret and
    /// each user's email, so they stay the same across restarts of the same organization (a
    /// restart must not close every running client with "Invalid API key"); random when `None`.
    /// `demo-server` keeps one in the data folder (`key_secret_file`).
    pub key_secret: Option<Vec<u8>>,
    /// Where the organization's ID counters are kept across restarts (`counters`): each run's
    /// messages, channels and the rest get IDs past every one an earlier run gave. `None`:
    /// counted from the start each time. `demo-server` keeps it in the data folder, beside the
    /// key secret (`counters::FILE`).
    pub counters_file: Option<std::path::PathBuf>,
    /// How people log in: password (the default), LDAP-style username, single sign-on, or both.
    pub auth: logins::AuthMode,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            seed: seed::DEMO_SEED.to_owned(),
            outgoing_webhook_url: None,
            feature_level: org::FEATURE_LEVEL,
            heartbeat: Duration::from_secs(50),
            queue_lifetime: Duration::from_secs(600),
            partial_subscribers_threshold: 250,
            scheduler_tick: Duration::from_millis(500),
            seed_time: None,
            tls: false,
            require_client_cert: false,
            upload_quota_mib: None,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            key_secret: None,
            counters_file: None,
            auth: logins::AuthMode::default(),
        }
    }
}

/// The secret `demo-server` derives its users' API keys from, kept in `dir` (mode 0600 in a
/// 0700 folder): read if it is there, made (32 random bytes) if not.
pub fn key_secret_file(dir: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let path = dir.join("demo-server.secret");
    match std::fs::read(&path) {
        Ok(bytes) if bytes.len() >= 32 => return Ok(bytes),
        Ok(_) => anyhow::bail!("{} is too short: delete it to make a new one", path.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
    }
    topicterm_api::files::private_folder(dir)?;
    let secret = token::token(64).into_bytes();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    std::io::Write::write_all(&mut options.open(&path)?, &secret)?;
    Ok(secret)
}

/// The file `write_zuliprcs` writes a TLS server's certificate to.
pub const CERT_FILE: &str = "demo-cert.pem";

/// A running demo server.
pub struct DemoServer {
    /// Base URL, e.g. `http://127.0.0.1:41234`.
    pub url: String,
    pub shared: Arc<Shared>,
    /// With `tls`: the server's self-signed certificate (PEM), to trust as a `cert_bundle`.
    pub cert_pem: Option<String>,
    /// With `require_client_cert`: a client certificate and key the server accepts.
    pub client_cert: Option<tls::Generated>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl DemoServer {
    /// Bind, load the seed and start serving in the background.
    pub async fn start(opts: ServerOptions) -> anyhow::Result<DemoServer> {
        let seed = seed::parse(&opts.seed).map_err(|e| anyhow::anyhow!("invalid seed: {e}"))?;
        let settings = org::Settings {
            feature_level: opts.feature_level,
            partial_subscribers_threshold: opts.partial_subscribers_threshold,
            outgoing_webhook_url: opts.outgoing_webhook_url.clone(),
            clock_offset: opts.seed_time.map_or(0, |t| t - clock::now()),
            upload_quota_mib: opts.upload_quota_mib,
            upload_seed: opts.seed_time.map(|t| t as u64),
            message_id_floor: 0,
        };
        let floors = match &opts.counters_file {
            Some(path) => counters::load(path)?,
            None => counters::Floors::default(),
        };
        let settings = org::Settings { message_id_floor: floors.messages, ..settings };
        let mut org = Org::from_seed(&seed, settings, opts.seed_time.unwrap_or_else(clock::now))
            .map_err(|e| anyhow::anyhow!("invalid seed: {e}"))?;
        org.queues.lifetime = opts.queue_lifetime;
        if let Some(path) = &opts.counters_file {
            // The seed's records keep their IDs; what is made from now on comes after
            // everything an earlier run made.
            org.skip_ids_below(floors.others);
            let next = counters::Floors { messages: org.next_message_id(), others: org.next_id() };
            org.reserve_ids(counters::Reservation::reserve(path, next, counters::BLOCK)?);
        }
        if let Some(secret) = &opts.key_secret {
            for u in org.users.values_mut() {
                u.api_key = token::derived(secret, &format!("api key of {}", u.email), 32);
                if let Some(t) = &mut u.webhook_token {
                    *t = token::derived(secret, &format!("webhook token of {}", u.email), 32);
                }
            }
        }
        let listener = tokio::net::TcpListener::bind(opts.addr).await?;
        let generated = if opts.tls { Some(tls::generate()?) } else { None };
        let client_certs =
            if opts.tls && opts.require_client_cert { Some(tls::client_certs()?) } else { None };
        let scheme = if opts.tls { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr()?);
        let shared = Arc::new(Shared {
            org: Mutex::new(org),
            url: url.clone(),
            http: reqwest::Client::builder().timeout(Duration::from_secs(10)).build()?,
            heartbeat: opts.heartbeat,
            body_timeout: opts.body_read_timeout,
            requests: std::sync::atomic::AtomicU64::new(0),
            request_log: Mutex::default(),
            logins: Mutex::new(logins::Logins { mode: opts.auth, ..Default::default() }),
            ignored_log: Arc::default(),
        });
        let app = handlers::router(shared.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let acceptor = match &generated {
            None => None,
            Some(g) => Some(tls::acceptor(g, client_certs.as_ref().map(|c| c.ca_pem.as_str()))?),
        };
        let serve = serve::spawn(listener, acceptor, app, opts.header_read_timeout, rx);
        let scheduler =
            tokio::spawn(handlers::background::scheduler_loop(shared.clone(), opts.scheduler_tick));
        let cert_pem = generated.map(|g| g.cert_pem);
        let client_cert = client_certs.map(|c| c.cert);
        Ok(DemoServer {
            url,
            shared,
            cert_pem,
            client_cert,
            shutdown: Some(tx),
            tasks: vec![serve, scheduler],
        })
    }

    /// Credentials of a seeded user or bot by short name.
    pub fn credentials(&self, short_name: &str) -> Option<Credentials> {
        let org = self.shared.lock();
        org.users.values().find(|u| u.short_name == short_name).map(|u| Credentials {
            site: self.url.clone(),
            email: u.email.clone(),
            api_key: u.api_key.clone(),
            tls: Default::default(),
        })
    }

    /// Short names of every seeded human and bot.
    pub fn short_names(&self) -> Vec<String> {
        let org = self.shared.lock();
        org.users.values().filter(|u| !u.is_system_bot).map(|u| u.short_name.clone()).collect()
    }

    /// The outgoing-webhook token of a bot.
    pub fn webhook_token(&self, short_name: &str) -> Option<String> {
        let org = self.shared.lock();
        org.users.values().find(|u| u.short_name == short_name).and_then(|u| u.webhook_token.clone())
    }

    /// Write `{short_name}.zuliprc` (mode 0600) for every seeded human and bot into `dir`.
    /// With `tls`, the certificate goes beside them as `demo-cert.pem`, and each names it as
    /// its `cert_bundle`; with `require_client_cert`, the client certificate and key go there
    /// too (`demo-client-cert.pem`, `demo-client-key.pem`, the key mode 0600) as `client_cert`
    /// and `client_cert_key`.
    pub fn write_zuliprcs(&self, dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
        std::fs::create_dir_all(dir)?;
        let bundle = match &self.cert_pem {
            Some(pem) => {
                let path = std::fs::canonicalize(dir)?.join(CERT_FILE);
                std::fs::write(&path, pem)?;
                Some(path)
            }
            None => None,
        };
        let client = match &self.client_cert {
            Some(g) => {
                let dir = std::fs::canonicalize(dir)?;
                let (cert, key) = (dir.join("demo-client-cert.pem"), dir.join("demo-client-key.pem"));
                std::fs::write(&cert, &g.cert_pem)?;
                topicterm_api::files::write_atomic(&key, g.key_pem().as_bytes())?;
                Some((cert, key))
            }
            None => None,
        };
        let mut written = Vec::new();
        for name in self.short_names() {
            if let Some(mut c) = self.credentials(&name) {
                c.tls.cert_bundle = bundle.clone();
                c.tls.client_cert = client.as_ref().map(|(cert, _)| cert.clone());
                c.tls.client_cert_key = client.as_ref().map(|(_, key)| key.clone());
                let path = dir.join(format!("{name}.zuliprc"));
                topicterm_api::zuliprc::write(&path, &c)?;
                written.push(path);
            }
        }
        Ok(written)
    }

    /// How many HTTP requests the server has received.
    pub fn request_count(&self) -> u64 {
        self.shared.requests.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The newest requests received (at most `REQUEST_LOG_LEN`), oldest first, as
    /// `METHOD /path?query`.
    pub fn recent_requests(&self) -> Vec<String> {
        self.shared.request_log.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect()
    }

    /// The newest parameters the server did not know (answered as
    /// `ignored_parameters_unsupported`, as a real server warns of them in its log), oldest
    /// first, as `METHOD /path name`.
    pub fn ignored_parameters(&self) -> Vec<String> {
        self.shared.ignored_log.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect()
    }

    /// Stop serving. Like a real restart, the event queues are lost: waiting polls answer
    /// `BAD_EVENT_QUEUE_ID` at once instead of holding their connections open.
    pub async fn stop(mut self) {
        self.shared.lock().queues.remove_where(|_| true);
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        for t in self.tasks.drain(..) {
            t.abort();
        }
    }
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}
