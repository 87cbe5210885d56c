//! The whole-app harness shared by the test crates: the real state, update, dispatcher and
//! views against the demo server, driven step by step as the main loop drives them (feed a
//! message, run its effects, wait until the background work has settled) and drawn on
//! ratatui's `TestBackend`.
//!
//! Effects run as in `run::run_main_loop`: notifications, the clipboard and the external
//! editor through [`topicterm::outside::Recorder`], everything else through the real
//! [`Dispatcher`].
//!
//! Start one with [`App::start`] (the demo org at [`SEED_TIME`], logged in as a demo user) or
//! with a [`Setup`]: who logs in, the server's options (its feature level, its seed, its
//! clock), a drafts directory, and whatever stands between the client and the server (a
//! [`FaultProxy`], or any proxy of a test's own that the client reaches through a URL).
//!
//! Included by `tests/tui` (as `crate::harness`), `tests/robustness.rs`, `tests/chaos.rs` and
//! `fuzz/keys.rs` (the key fuzzer: `tests/keyfuzz.rs`, `tests/fuzz_corpus.rs`, the `keys` target).

#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use topicterm::api::{Client, Event};
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{self, Effect, Msg, State, TermEffect, TimeZone};
use topicterm::net::Dispatcher;
use topicterm::run::Organization;
use topicterm::server::proxy::FaultProxy;
use topicterm::server::{DemoServer, ServerOptions};
use topicterm::ui::{self, RenderCache};

/// 2026-11-21 12:00:00 UTC: the seed's "now" in tests, so timestamps are stable.
pub const SEED_TIME: i64 = 1_795_262_400;

/// How long [`App::until`] waits for one expected change.
pub const WAIT: Duration = Duration::from_secs(60);

/// How long without a message from the background tasks counts as settled.
pub const QUIET: Duration = Duration::from_millis(400);

// -------------------------------------------------------------------------------------------
// The server side: the demo server and what may stand in front of it.
// -------------------------------------------------------------------------------------------

/// A fault-injecting proxy in front of `server` (cut connections, outages).
pub async fn fault_proxy(server: &DemoServer) -> FaultProxy {
    let upstream = server.url.trim_start_matches("http://").parse().expect("server address");
    FaultProxy::start(upstream).await.expect("proxy")
}

/// A client of `who` straight to the server, past any proxy.
/// The real main loop (`run::run_main_loop`) on `backend`, reading terminal events sent to
/// `keys`, with nothing kept on disk: returns the state it ended with.
pub async fn main_loop<B>(
    backend: B,
    client: Client,
    keys: mpsc::UnboundedReceiver<std::io::Result<crossterm::event::Event>>,
) -> anyhow::Result<State>
where
    B: ratatui::backend::Backend,
    B::Error: Send + Sync + 'static,
{
    let (mut states, _) = main_loop_of(backend, vec![Organization::new(client)], keys).await?;
    Ok(states.remove(0))
}

/// The real main loop with every organization of `orgs` open: each one's final state, and the
/// notifications, copies and edits it asked of the terminal.
pub async fn main_loop_of<B>(
    backend: B,
    orgs: Vec<Organization>,
    keys: mpsc::UnboundedReceiver<std::io::Result<crossterm::event::Event>>,
) -> anyhow::Result<(Vec<State>, topicterm::outside::Recorder)>
where
    B: ratatui::backend::Backend,
    B::Error: Send + Sync + 'static,
{
    let input = futures_util::stream::unfold(keys, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) });
    let mut terminal = Terminal::new(backend).expect("terminal");
    let mut outside = topicterm::outside::Recorder::default();
    let settings = topicterm::app::settings::Settings {
        clock_set: true,
        start: Some(topicterm::app::settings::StartNarrow::All),
        ..Default::default()
    };
    let graphics = topicterm::ui::Graphics::halfblocks();
    let states =
        topicterm::run::run_main_loop(&mut terminal, orgs, Box::pin(input), settings, graphics, &mut outside)
            .await?;
    Ok((states, outside))
}

/// A `TestBackend` whose every flushed frame can be read from outside the main loop that owns
/// it (through [`Mirrored::screen`]'s handle).
pub struct Mirrored {
    inner: TestBackend,
    frame: std::sync::Arc<std::sync::Mutex<ratatui::buffer::Buffer>>,
}

impl Mirrored {
    pub fn new(width: u16, height: u16) -> Mirrored {
        let inner = TestBackend::new(width, height);
        let frame = std::sync::Arc::new(std::sync::Mutex::new(inner.buffer().clone()));
        Mirrored { inner, frame }
    }

    /// The last frame flushed, as text (one line per row), readable while the loop runs.
    pub fn screen(&self) -> impl Fn() -> String + use<> {
        let frame = self.frame.clone();
        move || {
            let b = frame.lock().expect("frame");
            let w = b.area.width as usize;
            let cells: Vec<&str> = b.content.iter().map(|c| c.symbol()).collect();
            cells.chunks(w).map(|row| row.concat().trim_end().to_owned()).collect::<Vec<_>>().join("\n")
        }
    }
}

impl ratatui::backend::Backend for Mirrored {
    type Error = <TestBackend as ratatui::backend::Backend>::Error;
    fn draw<'a, I: Iterator<Item = (u16, u16, &'a ratatui::buffer::Cell)>>(
        &mut self,
        content: I,
    ) -> Result<(), Self::Error> {
        self.inner.draw(content)
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> Result<ratatui::layout::Position, Self::Error> {
        self.inner.get_cursor_position()
    }
    fn set_cursor_position<P: Into<ratatui::layout::Position>>(
        &mut self,
        position: P,
    ) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }
    fn clear_region(&mut self, clear_type: ratatui::backend::ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)
    }
    fn size(&self) -> Result<ratatui::layout::Size, Self::Error> {
        self.inner.size()
    }
    fn window_size(&mut self) -> Result<ratatui::backend::WindowSize, Self::Error> {
        self.inner.window_size()
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        *self.frame.lock().expect("frame") = self.inner.buffer().clone();
        self.inner.flush()
    }
}

pub fn client_of(server: &DemoServer, who: &str) -> Client {
    Client::new(&server.credentials(who).expect("user")).expect("client")
}

/// How to start an [`App`].
pub struct Setup {
    /// Who logs in: a demo user's short name.
    pub who: String,
    /// The server to start. Its `seed_time` is also the app's clock (the real clock when
    /// `None`); times are shown in UTC.
    pub server: ServerOptions,
    /// Where drafts are kept (as the binary keeps them in its data directory), if anywhere.
    pub drafts: Option<PathBuf>,
    /// The private folder attachments are downloaded to (as the binary's cache directory).
    pub downloads: Option<PathBuf>,
    /// The data folder the account's archive is kept in (as the binary's
    /// `$XDG_DATA_HOME/topicterm`), if anywhere.
    pub archive: Option<PathBuf>,
    /// Messages asked per page by `:archive` (default: `Dispatcher`'s).
    pub backfill_page: Option<u64>,
    /// `--low-bandwidth`.
    pub low_bandwidth: bool,
    /// The file the last session is kept in (as the binary's cache directory), if any.
    pub cache: Option<PathBuf>,
    /// A server already running (another account's app used it before), instead of a new one.
    pub on: Option<DemoServer>,
    /// Who opens links (default: `$BROWSER`, else the system's opener).
    pub openers: Option<topicterm::net::Openers>,
    /// Start as a config naming no first view does: the user's Zulip home view
    /// (`web_home_view`) opens. Off, the app starts as a config giving `start = "all"`.
    pub home_view: bool,
}

impl Setup {
    /// The demo org at [`SEED_TIME`], logged in as `who`, no drafts directory.
    pub fn new(who: &str) -> Setup {
        Setup {
            who: who.to_owned(),
            server: ServerOptions { seed_time: Some(SEED_TIME), ..Default::default() },
            drafts: None,
            downloads: None,
            archive: None,
            backfill_page: None,
            low_bandwidth: false,
            cache: None,
            on: None,
            openers: None,
            home_view: false,
        }
    }

    /// Start as a config naming no first view: the user's home view opens.
    pub fn home_view(mut self) -> Setup {
        self.home_view = true;
        self
    }

    /// Log in to this server, already running (`App::into_server` of another account's app),
    /// instead of starting one.
    pub fn on_server(mut self, server: DemoServer) -> Setup {
        self.on = Some(server);
        self
    }

    /// Keep the last session in `file`.
    pub fn cache(mut self, file: PathBuf) -> Setup {
        self.cache = Some(file);
        self
    }

    /// Start the server with these options instead.
    pub fn server(mut self, opts: ServerOptions) -> Setup {
        self.server = opts;
        self
    }

    /// A server pretending to be of an older feature level.
    pub fn feature_level(mut self, level: i64) -> Setup {
        self.server.feature_level = level;
        self
    }

    /// Keep drafts in `dir`.
    pub fn drafts(mut self, dir: Option<PathBuf>) -> Setup {
        self.drafts = dir;
        self
    }

    /// Open links with these programs.
    pub fn openers(mut self, openers: topicterm::net::Openers) -> Setup {
        self.openers = Some(openers);
        self
    }

    /// Download attachments into `dir`.
    pub fn downloads(mut self, dir: PathBuf) -> Setup {
        self.downloads = Some(dir);
        self
    }

    /// Keep the account's archive in the data folder `data`.
    pub fn archive(mut self, data: PathBuf) -> Setup {
        self.archive = Some(data);
        self
    }

    /// Ask `:archive`'s pages `n` messages at a time (the demo org's channels fit in the
    /// default page).
    pub fn backfill_page(mut self, n: u64) -> Setup {
        self.backfill_page = Some(n);
        self
    }

    /// As `--low-bandwidth` runs.
    pub fn low_bandwidth(mut self) -> Setup {
        self.low_bandwidth = true;
        self
    }

    /// Start the server and the app talking to it directly.
    pub async fn start(self) -> App {
        self.start_through(async |s: &DemoServer| ((), s.url.clone())).await.0
    }

    /// Start the server and the app talking to it through a [`FaultProxy`].
    pub async fn start_behind_fault_proxy(self) -> (App, FaultProxy) {
        self.start_through(async |s: &DemoServer| {
            let p = fault_proxy(s).await;
            let url = p.url();
            (p, url)
        })
        .await
    }

    /// Start the server, then `proxy` in front of it (given the server, it returns the proxy
    /// and the URL the client is to talk to), then the app through that URL: logged in,
    /// registered and showing its first narrow.
    pub async fn start_through<P>(self, proxy: impl AsyncFnOnce(&DemoServer) -> (P, String)) -> (App, P) {
        let (mut app, proxy) = self.launch(proxy).await;
        app.settle().await;
        (app, proxy)
    }

    /// Start the server and the app talking to it directly, waiting until it has registered
    /// and then only until no news came for `quiet` (not [`QUIET`]): for runs that start an
    /// app for each of many inputs.
    pub async fn start_quickly(self, quiet: Duration) -> App {
        let (mut app, ()) = self.launch(async |s: &DemoServer| ((), s.url.clone())).await;
        app.until("the register answer", |st| st.data.queue_id().is_some()).await;
        app.settle_for(quiet).await;
        app
    }

    /// Start the server, the proxy and the app, its register asked for.
    async fn launch<P>(self, proxy: impl AsyncFnOnce(&DemoServer) -> (P, String)) -> (App, P) {
        let now = self.server.seed_time.unwrap_or_else(|| chrono::Utc::now().timestamp());
        let server = match self.on {
            Some(server) => server,
            None => DemoServer::start(self.server).await.expect("demo server"),
        };
        let (proxy, site) = proxy(&server).await;
        let mut creds = server.credentials(&self.who).expect("user");
        creds.site = site;
        let archive = self.archive.map(|data| {
            topicterm::kept::archive_in(&data, &topicterm::files::Owner::new(&creds.email, &creds.site))
        });
        let how = How {
            creds,
            drafts: self.drafts,
            downloads: self.downloads,
            archive,
            backfill_page: self.backfill_page,
            cache: self.cache,
            openers: self.openers,
            low_bandwidth: self.low_bandwidth,
            home_view: self.home_view,
            now,
        };
        (connect(server, how), proxy)
    }
}

/// How an app was started, kept to start it again on the same server ([`App::stop`]).
#[derive(Clone)]
struct How {
    home_view: bool,
    creds: topicterm::api::Credentials,
    drafts: Option<PathBuf>,
    downloads: Option<PathBuf>,
    /// The archive file.
    archive: Option<PathBuf>,
    backfill_page: Option<u64>,
    /// The file the last session is kept in.
    cache: Option<PathBuf>,
    openers: Option<topicterm::net::Openers>,
    low_bandwidth: bool,
    now: i64,
}

/// The app on `server`, as `how` says, its register asked for.
fn connect(server: DemoServer, how: How) -> App {
    let client = Client::new(&how.creds).expect("client");
    let (tx, rx) = mpsc::unbounded_channel();
    let mut dispatcher = Dispatcher::new(client.clone(), tx);
    if let Some(dir) = how.drafts.clone() {
        // As the binary names the demo organization's: `demo`, the same on every run.
        let owner = topicterm::files::Owner::new(&how.creds.email, "demo");
        dispatcher = dispatcher.with_drafts(dir, owner);
    }
    if let Some(openers) = how.openers.clone() {
        dispatcher = dispatcher.with_openers(openers);
    }
    if let Some(dir) = how.downloads.clone() {
        dispatcher = dispatcher.with_downloads(dir);
    }
    if let Some(file) = how.archive.clone() {
        dispatcher = dispatcher.with_archive(file);
    }
    if let Some(n) = how.backfill_page {
        dispatcher = dispatcher.with_backfill_page(n);
    }
    let keep_session = how.cache.is_some();
    if let Some(file) = how.cache.clone() {
        dispatcher = dispatcher.with_cache(file);
    }
    dispatcher = dispatcher.with_low_bandwidth(how.low_bandwidth);
    // As `run::run_main_loop` starts.
    let site = client.site().to_owned();
    let mut st = State { tz: TimeZone::Fixed(0), now: how.now, site, ..Default::default() };
    st.ui.conn.connecting();
    st.settings.low_bandwidth = how.low_bandwidth;
    // As a config giving `time_format = 24`: the screens the tests read keep one clock; and
    // `start = "all"`, unless the test asks for the user's home view.
    st.settings.clock_set = true;
    if !how.home_view {
        st.settings.start = Some(topicterm::app::settings::StartNarrow::All);
    }
    st.keep_session = keep_session;
    let mut app = App {
        server,
        client,
        st,
        dispatcher,
        rx,
        cache: RenderCache::default(),
        outside: Default::default(),
        how,
    };
    let start = app::start(&mut app.st);
    app.run(start);
    app
}

/// An app stopped as a user quits, its server still running ([`App::stop`]).
pub struct Stopped {
    pub server: DemoServer,
    how: How,
}

impl Stopped {
    /// A client of a user, straight to the server.
    pub fn other(&self, who: &str) -> Client {
        client_of(&self.server, who)
    }

    /// Start the app again as it was started (its archive, drafts, …): registered and settled.
    pub async fn start(self) -> App {
        let mut app = connect(self.server, self.how);
        app.settle().await;
        app
    }
}

// -------------------------------------------------------------------------------------------
// The app, driven like the main loop drives it.
// -------------------------------------------------------------------------------------------

pub struct App {
    pub server: DemoServer,
    /// The app's own client (through the proxy, if any).
    pub client: Client,
    pub st: State,
    dispatcher: Dispatcher,
    rx: mpsc::UnboundedReceiver<Msg>,
    cache: RenderCache,
    /// What reached the terminal side (notifications, clipboard, editor), as the main loop
    /// would run it.
    pub outside: topicterm::outside::Recorder,
    how: How,
}

impl App {
    /// The demo org, logged in as `who`, registered and showing its first narrow.
    pub async fn start(who: &str) -> App {
        Setup::new(who).start().await
    }

    /// The same, keeping drafts in `drafts` (as the binary does in its data directory).
    pub async fn start_with_drafts(who: &str, drafts: Option<PathBuf>) -> App {
        Setup::new(who).drafts(drafts).start().await
    }

    /// The same, talking to the server through a fault-injecting proxy.
    pub async fn start_behind_proxy(who: &str) -> (App, FaultProxy) {
        Setup::new(who).start_behind_fault_proxy().await
    }

    /// The same, against a server pretending to be of an older feature level.
    pub async fn start_at_level(who: &str, feature_level: i64) -> App {
        Setup::new(who).feature_level(feature_level).start().await
    }

    /// Run effects as the main loop does: what needs the terminal through the recorder, the
    /// rest through the dispatcher.
    pub fn run(&mut self, effects: Vec<Effect>) {
        use topicterm::outside::Outside as _;
        for e in effects {
            match e {
                Effect::Term(TermEffect::Notify { title, body, clicked }) => {
                    self.outside.notify(&title, &body, clicked, &self.dispatcher.answers())
                }
                Effect::Term(TermEffect::Bell) => self.outside.bell(),
                Effect::Term(TermEffect::Copy(text)) => self.outside.copy(&text),
                Effect::Term(TermEffect::ExternalEdit { text }) => {
                    let result = self.outside.edit(&text);
                    let fx = app::update(&mut self.st, Msg::EditorDone(result));
                    self.run(fx);
                }
                e => {
                    self.dispatcher.run(e);
                }
            }
        }
    }

    /// Feed one message and run its effects, without waiting for what they start.
    pub fn apply(&mut self, msg: Msg) {
        let fx = app::update(&mut self.st, msg);
        self.run(fx);
    }

    /// Apply messages from background tasks until none arrives for a while.
    pub async fn settle(&mut self) {
        self.settle_for(QUIET).await;
    }

    /// The same, for a quiet period of `quiet`.
    pub async fn settle_for(&mut self, quiet: Duration) {
        while let Ok(Some(m)) = tokio::time::timeout(quiet, self.rx.recv()).await {
            self.apply(m);
        }
    }

    /// Apply background messages one at a time until `pred` holds (checked before each), so
    /// passing states such as "offline" are seen; fail after [`WAIT`].
    pub async fn until(&mut self, what: &str, pred: impl Fn(&State) -> bool) {
        let end = Instant::now() + WAIT;
        while !pred(&self.st) {
            let left = end.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.rx.recv()).await {
                Ok(Some(m)) => self.apply(m),
                Ok(None) => panic!("the background tasks are gone while waiting for {what}"),
                Err(_) => panic!(
                    "timed out waiting for {what}; status {:?}, offline {:?}",
                    self.st.ui.status,
                    self.st.ui.conn.offline()
                ),
            }
        }
    }

    /// The next message from the background tasks, not applied (a test that orders an answer
    /// and an event as a real server's timing may); fails after [`WAIT`].
    pub async fn next_msg(&mut self, what: &str) -> Msg {
        match tokio::time::timeout(WAIT, self.rx.recv()).await {
            Ok(Some(m)) => m,
            Ok(None) => panic!("the background tasks are gone while waiting for {what}"),
            Err(_) => panic!("timed out waiting for {what}; status {:?}", self.st.ui.status),
        }
    }

    /// Apply what the background tasks have sent so far, without waiting for more.
    pub fn drain(&mut self) {
        while let Ok(m) = self.rx.try_recv() {
            self.apply(m);
        }
    }

    /// Feed one message and settle.
    pub async fn send(&mut self, msg: Msg) {
        self.apply(msg);
        self.settle().await;
    }

    /// Show a narrow, as choosing it in the sidebar does: its first page in (or its failure
    /// said, or the client offline), then what follows settled.
    pub async fn open(&mut self, narrow: app::Narrow) {
        let fx = app::open_narrow(&mut self.st, narrow.clone());
        self.run(fx);
        self.until("the view's first page", move |st| {
            st.data.views.get(&narrow).is_some_and(|v| v.is_loaded())
                || st.ui.conn.is_offline()
                || st.ui.status.as_ref().is_some_and(|s| s.error)
        })
        .await;
        self.settle().await;
    }

    pub async fn key(&mut self, code: KeyCode) {
        self.send(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))).await;
    }

    pub async fn ctrl(&mut self, c: char) {
        self.send(Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))).await;
    }

    /// Type text (each char a key press).
    pub async fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.apply(Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
        }
        self.settle().await;
    }

    /// Feed events as the poller would, and settle.
    pub async fn inject(&mut self, events: Vec<serde_json::Value>) {
        let events = events.into_iter().map(Event::decode).collect();
        self.send(Msg::Events(events)).await;
    }

    /// Select a message of the shown narrow, as moving to it does.
    pub fn select(&mut self, id: i64) {
        let view = &self.st.data.views[&self.st.ui.narrow];
        assert!(view.ids().contains(&id), "message {id} is in the shown narrow");
        self.st.ui.selected = Some(id);
        self.st.ui.focus = app::Focus::Messages;
    }

    /// Draw a frame at `width`×`height`.
    pub fn draw(&mut self, width: u16, height: u16) -> Screen {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal.draw(|f| ui::draw(f, &self.st, &mut self.cache)).expect("draw");
        self.after_frame();
        let buf = terminal.backend().buffer();
        let rows = (0..buf.area.height)
            .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect();
        Screen { rows, pane: self.cache.hits.messages, owners: self.cache.hits.message_rows.clone() }
    }

    /// Run a palette command: `:`, the line, enter.
    pub async fn palette(&mut self, line: &str) {
        self.key(KeyCode::Char(':')).await;
        self.keys(line).await;
        self.key(KeyCode::Enter).await;
    }

    /// Draw a frame and keep its cells, styles included.
    pub fn buffer(&mut self, width: u16, height: u16) -> ratatui::buffer::Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal.draw(|f| ui::draw(f, &self.st, &mut self.cache)).expect("draw");
        self.after_frame();
        terminal.backend().buffer().clone()
    }

    /// Draw a frame and keep its cells and where the terminal's cursor is, when it is shown.
    pub fn frame(&mut self, width: u16, height: u16) -> (ratatui::buffer::Buffer, Option<(u16, u16)>) {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal.draw(|f| ui::draw(f, &self.st, &mut self.cache)).expect("draw");
        self.after_frame();
        let b = terminal.backend();
        let cursor = b.cursor_visible().then(|| (b.cursor_position().x, b.cursor_position().y));
        (b.buffer().clone(), cursor)
    }

    /// As the main loop does after a frame: tell the links it shows when they changed, ask for
    /// the pictures it would have drawn.
    fn after_frame(&mut self) {
        if self.cache.hits.links != self.st.ui.links_on_screen {
            let effects = app::update(&mut self.st, Msg::LinksOnScreen(self.cache.hits.links.clone()));
            self.run(effects);
        }
        if self.st.ui.messages_on_screen.0 != self.st.ui.narrow
            || self.st.ui.messages_on_screen.1 != self.cache.hits.seen
        {
            let effects = app::update(&mut self.st, Msg::MessagesOnScreen(self.cache.hits.seen.clone()));
            self.run(effects);
        }
        let wanted = std::mem::take(&mut self.cache.pictures.wanted);
        if !wanted.is_empty() {
            let effects = app::update(&mut self.st, Msg::ImagesWanted(wanted));
            self.run(effects);
        }
    }

    /// The screen as text, one line per row (trailing spaces trimmed).
    pub fn screen(&mut self, width: u16, height: u16) -> String {
        self.draw(width, height).text() + "\n"
    }

    /// Click at a screen position of the last frame drawn.
    pub async fn click(&mut self, x: u16, y: u16) {
        if let Some(msg) = self.cache.hits.click(x, y) {
            self.send(msg).await;
        }
    }

    /// Index of a sidebar row.
    pub fn sidebar_row(&self, pred: impl Fn(&app::SidebarRow) -> bool) -> usize {
        self.st.ui.sidebar.rows().iter().position(pred).expect("sidebar row")
    }

    pub fn channel_id(&self, name: &str) -> i64 {
        self.st.data.channels.iter().find(|c| c.name == name).map(|c| c.id).expect("channel")
    }

    /// Wait until what the archive was sent is written (false: not within 30 s, or none).
    pub fn archived(&self) -> bool {
        self.dispatcher.flush_archive(Duration::from_secs(30))
    }

    /// A client of another user (or of the same one elsewhere), straight to the server.
    pub fn other(&self, who: &str) -> Client {
        client_of(&self.server, who)
    }

    /// Stop as the main loop does on quit: the event poller stopped, the queue deleted (so a
    /// process that starts many apps leaves no long poll behind).
    pub async fn close(mut self) {
        self.dispatcher.shutdown(self.st.data.queue_id()).await;
    }

    /// Quit as [`App::close`] does, what the dispatcher keeps on disk written (its drafts, its
    /// archive), and hand back the server for another account's app (`Setup::on_server`).
    pub async fn into_server(mut self) -> DemoServer {
        self.dispatcher.shutdown(self.st.data.queue_id()).await;
        let App { server, dispatcher, .. } = self;
        drop(dispatcher);
        server
    }

    /// Quit as the main loop does (what the archive was sent written first), leaving the
    /// server running: [`Stopped::start`] starts the app again.
    pub async fn stop(mut self) -> Stopped {
        assert!(self.how.archive.is_none() || self.archived(), "the archive's writer answers");
        self.dispatcher.shutdown(self.st.data.queue_id()).await;
        let App { server, how, .. } = self;
        Stopped { server, how }
    }
}

// -------------------------------------------------------------------------------------------
// The drawn screen.
// -------------------------------------------------------------------------------------------

/// A drawn frame.
pub struct Screen {
    /// Each row's cells, as text (a wide character's second cell included as drawn).
    pub rows: Vec<String>,
    /// The messages pane.
    pub pane: Rect,
    /// The message shown on each row of the pane.
    pub owners: Vec<Option<i64>>,
}

impl Screen {
    /// The rows, trailing spaces trimmed, joined by newlines.
    pub fn text(&self) -> String {
        self.rows.iter().map(|r| r.trim_end()).collect::<Vec<_>>().join("\n")
    }

    /// The pane's part of each row showing message `id`, without the one-column marker.
    pub fn rows_of(&self, id: i64) -> Vec<String> {
        self.owners
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(id))
            .map(|(i, _)| {
                let row = &self.rows[self.pane.y as usize + i];
                row.chars().skip(self.pane.x as usize + 1).collect::<String>().trim_end().to_owned()
            })
            .collect()
    }

    /// Body rows of message `id` (indented by two columns), without the indent.
    pub fn body_of(&self, id: i64) -> Vec<String> {
        self.rows_of(id).into_iter().filter_map(|r| r.strip_prefix("  ").map(str::to_owned)).collect()
    }

    /// Columns a body row may fill: the pane less the marker and the indent.
    pub fn body_width(&self) -> usize {
        self.pane.width as usize - 3
    }
}
