//! Drive the app like the main loop does, but step by step: feed a message, run its effects
//! through the real dispatcher, and wait until the background work has settled.

#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Duration;
use tokio::sync::mpsc;
use topicterm::api::Client;
use topicterm::app::{self, Effect, Msg, State, TermEffect, TimeZone};
use topicterm::net::Dispatcher;
use topicterm::server::proxy::FaultProxy;
use topicterm::server::{DemoServer, ServerOptions};
use topicterm::ui::{self, RenderCache};

/// 2026-11-21 12:00:00 UTC: the seed's "now" in tests, so timestamps are stable.
pub const SEED_TIME: i64 = 1_795_262_400;

pub struct App {
    pub server: DemoServer,
    pub client: Client,
    pub st: State,
    dispatcher: Dispatcher,
    rx: mpsc::UnboundedReceiver<Msg>,
    cache: RenderCache,
    /// What reached the terminal side (notifications, clipboard, editor), as the main loop
    /// would run it.
    pub outside: topicterm::outside::Recorder,
}

impl App {
    /// The demo org, logged in as `who`, registered and showing its first narrow.
    pub async fn start(who: &str) -> App {
        Self::start_with_drafts(who, None).await
    }

    /// The same, keeping drafts in `drafts` (as the binary does in its data directory).
    pub async fn start_with_drafts(who: &str, drafts: Option<std::path::PathBuf>) -> App {
        Self::start_full(who, drafts, false).await.0
    }

    /// The same, talking to the server through a fault-injecting proxy.
    pub async fn start_behind_proxy(who: &str) -> (App, FaultProxy) {
        let (app, proxy) = Self::start_full(who, None, true).await;
        (app, proxy.expect("proxy"))
    }

    /// The same, against a server pretending to be of an older feature level.
    pub async fn start_at_level(who: &str, feature_level: i64) -> App {
        let opts = ServerOptions { seed_time: Some(SEED_TIME), feature_level, ..Default::default() };
        Self::start_with(who, None, false, opts).await.0
    }

    async fn start_full(
        who: &str,
        drafts: Option<std::path::PathBuf>,
        proxied: bool,
    ) -> (App, Option<FaultProxy>) {
        let opts = ServerOptions { seed_time: Some(SEED_TIME), ..Default::default() };
        Self::start_with(who, drafts, proxied, opts).await
    }

    async fn start_with(
        who: &str,
        drafts: Option<std::path::PathBuf>,
        proxied: bool,
        opts: ServerOptions,
    ) -> (App, Option<FaultProxy>) {
        let server = DemoServer::start(opts).await.expect("demo server");
        let mut creds = server.credentials(who).expect("user");
        let mut proxy = None;
        if proxied {
            let upstream = server.url.trim_start_matches("http://").parse().expect("server address");
            let p = FaultProxy::start(upstream).await.expect("proxy");
            creds.site = p.url();
            proxy = Some(p);
        }
        let client = Client::new(&creds).expect("client");
        let (tx, rx) = mpsc::unbounded_channel();
        let mut dispatcher = Dispatcher::new(client.clone(), tx);
        if let Some(dir) = drafts {
            dispatcher = dispatcher.with_drafts(dir);
        }
        let site = client.site().to_owned();
        let mut st = State { tz: TimeZone::Fixed(0), now: SEED_TIME, site, ..Default::default() };
        st.ui.loading = true;
        let mut app = App {
            server,
            client,
            st,
            dispatcher,
            rx,
            cache: RenderCache::default(),
            outside: Default::default(),
        };
        app.run_effects(vec![Effect::Register]);
        app.settle().await;
        (app, proxy)
    }

    fn run_effects(&mut self, effects: Vec<Effect>) {
        use topicterm::outside::Outside as _;
        for e in effects {
            match e {
                Effect::Term(TermEffect::Notify { title, body }) => self.outside.notify(&title, &body),
                Effect::Term(TermEffect::Copy(text)) => self.outside.copy(&text),
                Effect::Term(TermEffect::ExternalEdit { text }) => {
                    let result = self.outside.edit(&text);
                    let fx = app::update(&mut self.st, Msg::EditorDone(result));
                    self.run_effects(fx);
                }
                e => {
                    self.dispatcher.run(e);
                }
            }
        }
    }

    /// Apply messages from background tasks until none arrives for a while.
    pub async fn settle(&mut self) {
        while let Ok(Some(m)) = tokio::time::timeout(Duration::from_millis(400), self.rx.recv()).await {
            let fx = app::update(&mut self.st, m);
            self.run_effects(fx);
        }
    }

    /// Feed one message and settle.
    pub async fn send(&mut self, msg: Msg) {
        let fx = app::update(&mut self.st, msg);
        self.run_effects(fx);
        self.settle().await;
    }

    /// Show a narrow, as choosing it in the sidebar does.
    pub async fn open(&mut self, narrow: app::Narrow) {
        let fx = app::open_narrow(&mut self.st, narrow);
        self.run_effects(fx);
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
            let fx = app::update(&mut self.st, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
            self.run_effects(fx);
        }
        self.settle().await;
    }

    /// The screen as text, one line per row (trailing spaces trimmed).
    pub fn screen(&mut self, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal.draw(|f| ui::draw(f, &self.st, &mut self.cache)).expect("draw");
        let buf = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut line = String::new();
            for x in 0..buf.area.width {
                line.push_str(buf[(x, y)].symbol());
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// Click at a screen position of the last frame drawn at `size`.
    pub async fn click(&mut self, x: u16, y: u16) {
        if let Some(msg) = self.cache.hits.click(x, y) {
            self.send(msg).await;
        }
    }

    /// Index of a sidebar row.
    pub fn sidebar_row(&self, pred: impl Fn(&app::SidebarRow) -> bool) -> usize {
        self.st.ui.sidebar.iter().position(pred).expect("sidebar row")
    }

    pub fn channel_id(&self, name: &str) -> i64 {
        self.st.data.channels.values().find(|c| c.name == name).map(|c| c.id).expect("channel")
    }
}
