//! The main loop: one `tokio::select!` over terminal input, background results and a clock.
//! Generic over the ratatui backend so whole-app tests run on `TestBackend`.

use crate::api::Client;
use crate::app::{self, Effect, Msg, State, TermEffect};
use crate::net::Dispatcher;
use crate::ui::{self, RenderCache};
use crossterm::event::{Event as TermEvent, KeyEventKind};
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::time::Duration;
use tokio::sync::mpsc;

/// Current UNIX time.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// What a mouse event means, given where the last frame drew things.
fn mouse(cache: &RenderCache, m: crossterm::event::MouseEvent) -> Option<Msg> {
    use crossterm::event::{MouseButton, MouseEventKind};
    let sidebar = cache.hits.over_sidebar(m.column, m.row);
    match m.kind {
        MouseEventKind::ScrollUp => Some(Msg::Scroll { sidebar, lines: -1 }),
        MouseEventKind::ScrollDown => Some(Msg::Scroll { sidebar, lines: 1 }),
        MouseEventKind::Down(MouseButton::Left) => cache.hits.click(m.column, m.row),
        _ => None,
    }
}

/// The terminal's events, read by a thread of its own with crossterm's blocking `poll`/`read`.
/// Not crossterm's `EventStream`: with the level-triggered reader (the `use-dev-tty` feature)
/// its zero-timeout poll never sees bytes already waiting, so every event costs a round trip
/// through its wake thread and a burst could not be taken in one go. Here everything read is
/// queued at once, and the main loop drains the queue before it draws. Nothing is read before
/// `start` is sent (or dropped): the graphics query reads the terminal's answers first, and
/// keys typed meanwhile wait in the terminal.
pub fn terminal_events(
    start: tokio::sync::oneshot::Receiver<()>,
) -> impl Stream<Item = std::io::Result<TermEvent>> + Unpin {
    let (tx, mut rx) = mpsc::channel(MAX_INPUT_PER_FRAME);
    std::thread::spawn(move || {
        let _ = start.blocking_recv();
        loop {
            if crate::outside::terminal_input_paused() {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            // A short poll, so that a pause takes effect soon and the reader's lock is let go.
            let ev = match crossterm::event::poll(Duration::from_millis(50)) {
                Ok(false) => continue,
                Ok(true) => crossterm::event::read(),
                Err(e) => Err(e),
            };
            let failed = ev.is_err();
            if tx.blocking_send(ev).is_err() || failed {
                break;
            }
        }
    });
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

/// What a clock tick can change on screen without any other message.
fn on_a_tick(st: &State) -> (Option<i64>, usize) {
    (st.ui.status.as_ref().map(|s| s.at), st.ui.typing.len())
}

/// At most this many terminal events are applied between two frames.
pub const MAX_INPUT_PER_FRAME: usize = 4096;

/// What a terminal event asks of the main loop.
enum Input {
    Msg(Msg),
    /// Nothing for the app, but the screen must be drawn again (a resize).
    Redraw,
    Nothing,
}

fn translate(cache: &RenderCache, ev: TermEvent) -> Input {
    match ev {
        TermEvent::Key(k) if k.kind != KeyEventKind::Release => Input::Msg(Msg::Key(k)),
        TermEvent::Paste(text) => Input::Msg(Msg::Paste(text)),
        TermEvent::Resize(..) => Input::Redraw,
        TermEvent::FocusGained => Input::Msg(Msg::Focus(true)),
        TermEvent::FocusLost => Input::Msg(Msg::Focus(false)),
        TermEvent::Mouse(m) => mouse(cache, m).map_or(Input::Nothing, Input::Msg),
        _ => Input::Nothing,
    }
}

/// One organization to open: its client, and where its drafts and last session are kept.
#[derive(Clone)]
pub struct Organization {
    /// The account's name (`topicterm accounts`): shown when several are open.
    pub name: String,
    pub client: Client,
    /// Whose files these are: the drafts are named for it (`files::Owner`; the demo
    /// organization's site is `demo`).
    pub owner: crate::files::Owner,
    pub drafts_dir: Option<std::path::PathBuf>,
    pub cache_file: Option<std::path::PathBuf>,
    /// The last session, being read since before the client was made (else it is read when the
    /// organization opens).
    pub kept: Option<crate::net::cache::Early>,
    /// Where fetched pictures are kept (pruned to `net::images::DISK_LIMIT`).
    pub images_dir: Option<std::path::PathBuf>,
    /// The private folder attachments are downloaded to (`None`: a fresh private folder in
    /// the temporary directory for each).
    pub downloads_dir: Option<std::path::PathBuf>,
    /// The account's archive (`crate::archive`; `None`: history is not kept).
    pub archive_file: Option<std::path::PathBuf>,
    /// Where the credentials come from: what the user is told to fix when the server refuses
    /// them.
    pub account: app::orgs::AccountSource,
    /// Reads the credentials again, to reopen the organization once the user has fixed them
    /// (`None`: they cannot be read again).
    pub reread: Option<Reread>,
}

/// Reads an organization's credentials again (the account store, a zuliprc).
pub type Reread = std::sync::Arc<dyn Fn() -> anyhow::Result<crate::api::Credentials> + Send + Sync>;

impl Organization {
    /// An organization with nothing kept on disk, named after its server.
    pub fn new(client: Client) -> Organization {
        let name = crate::urls::host_of(client.site());
        let owner = crate::files::Owner::new(client.email(), client.site());
        Organization {
            name,
            client,
            owner,
            drafts_dir: None,
            cache_file: None,
            kept: None,
            images_dir: None,
            downloads_dir: None,
            archive_file: None,
            account: app::orgs::AccountSource::Given,
            reread: None,
        }
    }
}

/// How pictures are drawn, as the main loop is given it.
pub enum GraphicsSource {
    /// Known from the start (tests; `images = "off"` or `"halfblocks"`).
    Known(ui::Graphics),
    /// Asked of the terminal (which answers within a second) once the first frame that shows
    /// the organization is drawn, or [`ASK_GRAPHICS_BY`] after the loop starts, whichever is
    /// first: the question holds the terminal to itself, and the first frame does not wait
    /// for it. Until then pictures are not drawn ([`ui::Graphics::unknown`]).
    Ask(Box<dyn FnOnce() -> ui::Graphics + Send>),
}

impl From<ui::Graphics> for GraphicsSource {
    fn from(graphics: ui::Graphics) -> Self {
        GraphicsSource::Known(graphics)
    }
}

/// The latest the terminal's graphics are asked, while the first screen is still loading.
pub const ASK_GRAPHICS_BY: Duration = Duration::from_millis(200);

/// How many of start-up's frames are logged (`topicterm::start`).
const START_STEPS: usize = 8;

/// What start-up's log calls a message that builds the first screen.
fn start_step(msg: &Msg) -> Option<&'static str> {
    match msg {
        Msg::Registered(_) => Some("register's answer"),
        Msg::Cached(_) => Some("the last session"),
        Msg::Users { .. } => Some("the users"),
        Msg::Messages { .. } => Some("a page"),
        _ => None,
    }
}

/// How many messages coming or let go at once are worth giving the heap back for (walking the
/// heap costs milliseconds: a few microseconds a message at most).
const TRIM_AFTER_MESSAGES: usize = 1000;

/// The messages every organization holds.
fn held(open: &[Open]) -> usize {
    open.iter().map(|o| o.st.data.messages.len()).sum()
}

/// An organization open in the window: its state, its own network tasks and event queue, and
/// what its last frame laid out.
struct Open {
    /// How it was opened, to open it again.
    org: Organization,
    st: State,
    dispatcher: Dispatcher,
    cache: RenderCache,
    /// Its row as the others last showed it; worked out again at most once a second.
    stale: bool,
    /// Stopped: the server refused the account. Its screen says how to reopen it.
    closed: bool,
    /// Which opening this is: answers of the tasks of an earlier one are dropped.
    generation: u64,
    /// Effects held until the next frame is drawn: reading the users (tens of milliseconds of
    /// a processor) does not share one with the first screen of the answer that asked for it.
    after_frame: Vec<Effect>,
    /// Its first screen (not the loading one) is drawn.
    shown: bool,
}

/// Where every organization's tasks answer: its index and generation with each message.
type Answers = mpsc::UnboundedSender<(usize, u64, Msg)>;

/// Open organization `i` (again, as `generation`): its tasks answer through `tx`; the last
/// session is read while the server is asked.
fn start_org(
    i: usize,
    org: Organization,
    generation: u64,
    tx: &Answers,
    settings: &app::settings::Settings,
    graphics: &ui::Graphics,
) -> Open {
    // Its tasks answer on a channel of their own, forwarded with its index and generation.
    let (org_tx, mut org_rx) = mpsc::unbounded_channel::<Msg>();
    let all = tx.clone();
    tokio::spawn(async move {
        while let Some(m) = org_rx.recv().await {
            if all.send((i, generation, m)).is_err() {
                break;
            }
        }
    });
    let client = org.client.clone();
    let mut dispatcher = Dispatcher::new(client.clone(), org_tx);
    if let Some(dir) = org.drafts_dir.clone() {
        dispatcher = dispatcher.with_drafts(dir, org.owner.clone());
    }
    if let Some(dir) = org.images_dir.clone() {
        dispatcher = dispatcher.with_images(dir);
    }
    if let Some(dir) = org.downloads_dir.clone() {
        dispatcher = dispatcher.with_downloads(dir);
    }
    if let Some(file) = org.archive_file.clone() {
        dispatcher = dispatcher.with_archive(file);
    }
    dispatcher = dispatcher.with_low_bandwidth(settings.low_bandwidth);
    let mut st = State {
        now: now(),
        site: client.site().to_owned(),
        insecure: client.insecure(),
        keep_session: org.cache_file.is_some(),
        account: org.account.clone(),
        ..Default::default()
    };
    st.ui.show_people = settings.show_people;
    st.settings = settings.clone();
    st.ui.conn.connecting();
    // The last session is read while the server is asked: whichever comes first is drawn.
    if let Some(file) = org.cache_file.clone() {
        dispatcher = dispatcher.with_cache(file);
        dispatcher.load_cache(org.kept.as_ref());
    }
    // Register, and the first page with it.
    for effect in app::start(&mut st) {
        dispatcher.run(effect);
    }
    let mut cache = RenderCache::default();
    cache.pictures.graphics = graphics.clone();
    Open {
        org,
        st,
        dispatcher,
        cache,
        stale: true,
        closed: false,
        generation,
        after_frame: Vec::new(),
        shown: false,
    }
}

/// A message and who it is for.
enum Item {
    /// For the organization on screen (keys, pastes, clicks).
    Active(Msg),
    /// From an organization's tasks, for it.
    Org(usize, Msg),
    /// The clock and the terminal's focus: for every organization.
    Tick(i64),
    Focus(bool),
}

impl Item {
    fn from_terminal(m: Msg) -> Item {
        match m {
            Msg::Focus(f) => Item::Focus(f),
            m => Item::Active(m),
        }
    }
}

/// What running one organization's effects asks of the main loop.
#[derive(Default)]
struct Asked {
    quit: bool,
    switch: Option<app::orgs::OrgSwitch>,
    /// Read the closed organization's credentials again and open it anew.
    reopen: bool,
}

/// Run one message's effects; what needs the terminal runs here, between frames.
fn run_effects<B>(
    terminal: &mut Terminal<B>,
    org: &mut Open,
    outside: &mut dyn crate::outside::Outside,
    effects: Vec<Effect>,
    dirty: &mut bool,
) -> anyhow::Result<Asked>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    let mut asked = Asked::default();
    for e in effects {
        match e {
            Effect::Term(TermEffect::Notify { title, body, clicked }) => {
                outside.notify(&title, &body, clicked, &org.dispatcher.answers())
            }
            Effect::Term(TermEffect::Bell) => outside.bell(),
            Effect::Term(TermEffect::Copy(text)) => outside.copy(&text),
            Effect::Term(TermEffect::SwitchOrganization(how)) => asked.switch = Some(how),
            Effect::Term(TermEffect::Reopen) => asked.reopen = true,
            e @ Effect::ReadUsers { .. } => org.after_frame.push(e),
            Effect::Term(TermEffect::ExternalEdit { text }) => {
                let result = outside.edit(&text);
                terminal.clear()?;
                *dirty = true;
                // Taken back at once, before any later input of the same batch.
                let more = app::update(&mut org.st, Msg::EditorDone(result));
                let then = run_effects(terminal, org, outside, more, dirty)?;
                asked.quit |= then.quit;
                asked.reopen |= then.reopen;
                asked.switch = then.switch.or(asked.switch);
            }
            e => asked.quit |= !org.dispatcher.run(e),
        }
    }
    asked.quit |= org.st.ui.conn.quitting();
    Ok(asked)
}

/// Run the client until the user quits, with every organization of `orgs` open (the first on
/// screen): one state, one set of network tasks and one event queue each, all answering into
/// this loop. `input` yields terminal events ([`terminal_events`] in the binary, a scripted
/// stream in tests); `graphics` is how pictures are drawn, or how to ask. Returns each
/// organization's state as it ended.
pub async fn run_main_loop<B, S>(
    terminal: &mut Terminal<B>,
    orgs: Vec<Organization>,
    mut input: S,
    settings: app::settings::Settings,
    graphics: impl Into<GraphicsSource>,
    outside: &mut dyn crate::outside::Outside,
) -> anyhow::Result<Vec<State>>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
{
    anyhow::ensure!(!orgs.is_empty(), "no organization to open");
    let (mut graphics, mut ask) = match graphics.into() {
        GraphicsSource::Known(g) => {
            tracing::info!("images: {}", g.name());
            (g, None)
        }
        GraphicsSource::Ask(ask) => (ui::Graphics::unknown(), Some(ask)),
    };
    let ask_by = tokio::time::Instant::now() + ASK_GRAPHICS_BY;
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, u64, Msg)>();
    let mut open: Vec<Open> = orgs
        .into_iter()
        .enumerate()
        .map(|(i, org)| start_org(i, org, 0, &tx, &settings, &graphics))
        .collect();
    let several = open.len() > 1;
    let mut active = 0;
    let mut rows: Vec<app::orgs::OrgRow> = Vec::new();
    let mut rows_due = several;
    let mut clock = tokio::time::interval(Duration::from_secs(1));
    let mut dirty = true;
    // When the oldest key not yet drawn arrived: key-to-frame times go to the log at debug level
    // (target `topicterm::frame`) for `bench/scale.sh`.
    let mut key_at: Option<std::time::Instant> = None;
    // Start-up's steps go to the log at debug level (target `topicterm::start`, for
    // `bench/scale.sh`): when each organization's state and first page arrived, how long
    // applying them, trimming the heap and drawing took, in time since the loop started.
    let launched = std::time::Instant::now();
    let mut start_steps = 0;
    // The heap is given back after the frame that follows a large answer (see `after_frame`).
    let mut trim_due = false;
    loop {
        // Every organization learns the others' rows when they changed (several open only).
        if rows_due {
            rows_due = false;
            let fresh: Vec<_> = open
                .iter_mut()
                .enumerate()
                .map(|(i, o)| match rows.get(i) {
                    Some(r) if !o.stale => r.clone(),
                    _ => {
                        o.stale = false;
                        // Named by the server's address (at login, or here), not by the user.
                        let site = &o.st.site;
                        let chosen = o.org.name != crate::account::name_from_site(site)
                            && o.org.name != crate::urls::host_of(site);
                        let mut r = app::org_row(&o.org.name, chosen, &o.st);
                        r.closed = r.closed.filter(|_| o.closed);
                        r
                    }
                })
                .collect();
            let changed = fresh != rows || open[active].st.ui.orgs.active != active;
            if changed {
                rows = fresh;
                for (i, o) in open.iter_mut().enumerate() {
                    let orgs = app::orgs::Orgs { rows: rows.clone(), active, index: i };
                    app::update(&mut o.st, Msg::Organizations(orgs));
                }
                dirty = true;
            }
        }
        if dirty {
            let o = &mut open[active];
            let at = std::time::Instant::now();
            terminal.draw(|f| ui::draw(f, &o.st, &mut o.cache))?;
            dirty = false;
            if start_steps < START_STEPS {
                start_steps += 1;
                tracing::debug!(target: "topicterm::start", "frame drawn at {:?} in {:?}", launched.elapsed(), at.elapsed());
            }
            if !o.shown && !o.st.ui.conn.loading() {
                o.shown = true;
                tracing::debug!(target: "topicterm::start", "first screen drawn at {:?}", launched.elapsed());
            }
            if let Some(at) = key_at.take() {
                tracing::debug!(target: "topicterm::frame", key_to_frame_us = at.elapsed().as_micros() as u64);
            }
            // The links it shows, when they changed: what link hints label.
            // (Every update's effects are run: one that follows any message — the session
            // kept, a draft pushed, typing stopped — may come with this one.)
            if o.cache.hits.links != o.st.ui.links_on_screen {
                let effects = app::update(&mut o.st, Msg::LinksOnScreen(o.cache.hits.links.clone()));
                run_effects(terminal, o, outside, effects, &mut dirty)?;
            }
            // The messages it drew, when they or the view changed: what reading on sight reads.
            if o.st.ui.messages_on_screen.0 != o.st.ui.narrow
                || o.st.ui.messages_on_screen.1 != o.cache.hits.seen
            {
                let effects = app::update(&mut o.st, Msg::MessagesOnScreen(o.cache.hits.seen.clone()));
                run_effects(terminal, o, outside, effects, &mut dirty)?;
            }
            // Pictures the frame would have drawn are asked for after it.
            let wanted = std::mem::take(&mut o.cache.pictures.wanted);
            if !wanted.is_empty() {
                let effects = app::update(&mut o.st, Msg::ImagesWanted(wanted));
                run_effects(terminal, o, outside, effects, &mut dirty)?;
            }
            after_frame(&mut open, &mut trim_due, launched);
        }
        // The terminal's graphics, once the organization is on screen (or loading takes long).
        if ask.is_some() && (!open[active].st.ui.conn.loading() || tokio::time::Instant::now() >= ask_by) {
            let at = std::time::Instant::now();
            graphics = ask.take().map_or(graphics, |ask| ask());
            tracing::info!("images: {}", graphics.name());
            tracing::debug!(target: "topicterm::start", "graphics known at {:?} in {:?}", launched.elapsed(), at.elapsed());
            for o in &mut open {
                o.cache.set_graphics(graphics.clone());
            }
            dirty = true;
            continue;
        }
        let mut batch: Vec<Item> = Vec::new();
        let mut ended = false;
        let hits = &open[active].cache;
        // A picture encoded off the frame (kitty, sixel, iTerm2) is drawn when it is ready.
        let pictures_ready = hits.pictures.ready.clone();
        tokio::select! {
            ev = input.next() => match ev {
                Some(Ok(ev)) => match translate(hits, ev) {
                    Input::Msg(m @ Msg::Key(_)) => {
                        key_at.get_or_insert_with(std::time::Instant::now);
                        batch.push(Item::Active(m));
                    }
                    Input::Msg(m) => batch.push(Item::from_terminal(m)),
                    Input::Redraw => dirty = true,
                    Input::Nothing => {}
                },
                Some(Err(e)) => return Err(e.into()),
                None => ended = true,
            },
            Some((i, g, m)) = rx.recv() => if open[i].generation == g {
                batch.push(Item::Org(i, m));
            },
            () = pictures_ready.notified() => dirty = true,
            () = tokio::time::sleep_until(ask_by), if ask.is_some() => {}
            _ = clock.tick() => {
                batch.push(Item::Tick(now()));
                rows_due = several;
            }
        };
        // Everything the terminal has already delivered is applied before the next frame: a
        // burst of typing or a paste is one redraw, not one per key. Bounded, so that a flood
        // of input cannot keep the frame, the clock or the network waiting for ever.
        let mut taken = 1;
        while !ended && taken < MAX_INPUT_PER_FRAME {
            taken += 1;
            // Polled with this task's own waker, so that a stream which is not ready yet
            // (crossterm's `EventStream`, say) still wakes the loop when it is; outside tokio's
            // cooperative budget, which would otherwise cut the burst every 128 events (the
            // bound above keeps the loop from starving instead).
            match futures_util::poll!(tokio::task::unconstrained(input.next())) {
                std::task::Poll::Ready(Some(Ok(ev))) => match translate(&open[active].cache, ev) {
                    // Timed as a key the wait above took (woken by the network, the loop takes
                    // the keys here).
                    Input::Msg(m @ Msg::Key(_)) => {
                        key_at.get_or_insert_with(std::time::Instant::now);
                        batch.push(Item::Active(m));
                    }
                    Input::Msg(m) => batch.push(Item::from_terminal(m)),
                    Input::Redraw => dirty = true,
                    Input::Nothing => {}
                },
                std::task::Poll::Ready(Some(Err(e))) => return Err(e.into()),
                std::task::Poll::Ready(None) => ended = true,
                std::task::Poll::Pending => break,
            }
        }
        if ended && batch.is_empty() {
            break;
        }
        // Drain whatever else the network tasks queued before redrawing (batches bursts of events).
        while let Ok((i, g, m)) = rx.try_recv() {
            if open[i].generation == g {
                batch.push(Item::Org(i, m));
            }
        }
        let only_ticks = batch.iter().all(|m| matches!(m, Item::Tick(_)));
        // The state of a whole organization arriving (from the server or this machine) leaves
        // what decoding it needed free once applied.
        let large = batch.iter().any(|m| matches!(m, Item::Org(_, Msg::Registered(_) | Msg::Cached(_))));
        // So does a burst of messages come or let go (`max_messages`): what decoding a large
        // event batch took, what the held messages took. Counted by the messages held, O(1).
        let held_before = held(&open);
        let seen_before = on_a_tick(&open[active].st);
        let mut quit = false;
        let mut visible = false;
        // A key or paste for the one on screen: the user is at the keyboard for all of them.
        let typed = several && batch.iter().any(|m| matches!(m, Item::Active(Msg::Key(_) | Msg::Paste(_))));
        if typed {
            for (i, o) in open.iter_mut().enumerate() {
                if i != active && !o.closed {
                    app::update(&mut o.st, Msg::InputElsewhere);
                }
            }
        }
        'batch: for item in batch {
            // A closed organization still takes keys and the clock (its screen says how to
            // reopen it), nothing from the network.
            let deliveries = match item {
                Item::Active(m) => vec![(active, m)],
                Item::Org(i, _) if open[i].closed => continue,
                Item::Org(i, m) => vec![(i, m)],
                Item::Tick(t) => (0..open.len()).map(|i| (i, Msg::Tick(t))).collect(),
                Item::Focus(f) => (0..open.len()).map(|i| (i, Msg::Focus(f))).collect(),
            };
            for (i, msg) in deliveries {
                visible |= i == active && !matches!(msg, Msg::Tick(_));
                let step = start_step(&msg).filter(|_| start_steps < START_STEPS);
                let at = step.map(|_| std::time::Instant::now());
                let effects = app::update(&mut open[i].st, msg);
                if let (Some(what), Some(at)) = (step, at) {
                    tracing::debug!(target: "topicterm::start", "{what} applied at {:?} in {:?}", launched.elapsed(), at.elapsed());
                }
                let asked = run_effects(terminal, &mut open[i], outside, effects, &mut dirty)?;
                open[i].stale = true;
                if let Some(how) = asked.switch
                    && let Some(to) = app::orgs::switch_target(&rows, active, how)
                {
                    active = to;
                    rows_due = true;
                    dirty = true;
                }
                // The server refused the account: its tasks stop, its screen says how to
                // reopen it (the others, if any, stay open).
                if open[i].st.ui.conn.fatal().is_some() && !open[i].closed {
                    close(&mut open, i, &mut active).await;
                    rows_due = true;
                    dirty = true;
                }
                if asked.reopen && open[i].closed {
                    reopen(&mut open, i, &tx, &settings, &graphics).await;
                    rows_due = true;
                    dirty = true;
                }
                if asked.quit {
                    quit = true;
                    break 'batch;
                }
            }
        }
        if quit || ended {
            for o in open.iter_mut().filter(|o| !o.closed) {
                // A clean exit gives the server its event queue back (not when the server has
                // just refused us).
                if quit && o.st.ui.conn.fatal().is_none() {
                    o.dispatcher.shutdown(o.st.data.queue_id()).await;
                }
                if quit
                    && o.st.ui.conn.fatal().is_none()
                    && !o.st.ui.conn.loading()
                    && !o.st.data.users.is_reading()
                    && o.st.keep_session
                {
                    o.dispatcher.save_cache_now(&app::cache::snapshot(&o.st));
                }
            }
            return Ok(open.into_iter().map(|o| o.st).collect());
        }
        trim_due |= large || held(&open).abs_diff(held_before) >= TRIM_AFTER_MESSAGES;
        // A tick redraws only when time changed what is shown: an expired remark, a typing
        // notice gone, the offline countdown.
        let st = &open[active].st;
        dirty |= (visible && !only_ticks) || seen_before != on_a_tick(st) || st.ui.conn.is_offline();
        // What waits for a frame goes now when none is due.
        if !dirty {
            after_frame(&mut open, &mut trim_due, launched);
        }
    }
    Ok(open.into_iter().map(|o| o.st).collect())
}

/// After a frame (or when none is due): the effects held for it run, and the heap is given
/// back when a large answer or a burst of messages asked for it — walking the heap costs
/// milliseconds the frame need not wait for.
fn after_frame(open: &mut [Open], trim_due: &mut bool, launched: std::time::Instant) {
    for o in open.iter_mut() {
        if o.closed {
            o.after_frame.clear();
            continue;
        }
        for e in std::mem::take(&mut o.after_frame) {
            o.dispatcher.run(e);
        }
    }
    if std::mem::take(trim_due) {
        let at = std::time::Instant::now();
        crate::heap::trim();
        tracing::debug!(target: "topicterm::start", "heap trimmed at {:?} in {:?}", launched.elapsed(), at.elapsed());
    }
}

/// Close organization `i` (the server refused its account): its tasks stop. If it was on
/// screen and another is still open, that one takes its place and says so; alone, it stays on
/// screen, saying how to reopen it.
async fn close(open: &mut [Open], i: usize, active: &mut usize) {
    open[i].closed = true;
    open[i].stale = true;
    open[i].dispatcher.shutdown(None).await;
    let name = open[i].org.name.clone();
    let why = open[i].st.ui.conn.fatal().map(str::to_owned).unwrap_or_default();
    if *active == i
        && let Some(next) = (1..open.len()).map(|k| (i + k) % open.len()).find(|&k| !open[k].closed)
    {
        *active = next;
    }
    tracing::warn!("{name} is closed: {why}");
    if *active != i {
        app::update(&mut open[*active].st, Msg::OrganizationClosed { name, why });
    }
}

/// Reopen closed organization `i`: its credentials read again (the user has logged in again
/// meanwhile) and the organization opened anew, as at start; or, when they cannot be read,
/// why not, on its screen.
async fn reopen(
    open: &mut [Open],
    i: usize,
    tx: &Answers,
    settings: &app::settings::Settings,
    graphics: &ui::Graphics,
) {
    let read = match open[i].org.reread.clone() {
        Some(read) => tokio::task::spawn_blocking(move || read())
            .await
            .unwrap_or_else(|e| Err(anyhow::anyhow!("{e}")))
            .and_then(|creds| Client::new(&creds).map_err(anyhow::Error::from)),
        None => Err(anyhow::anyhow!("this organization's credentials cannot be read again")),
    };
    match read {
        Ok(client) => {
            tracing::info!("reopening {}", open[i].org.name);
            let org = Organization { client, ..open[i].org.clone() };
            let orgs = open[i].st.ui.orgs.clone();
            open[i] = start_org(i, org, open[i].generation + 1, tx, settings, graphics);
            open[i].st.ui.orgs = orgs;
        }
        Err(e) => {
            tracing::warn!("{} not reopened: {e:#}", open[i].org.name);
            app::update(&mut open[i].st, Msg::ReopenFailed(format!("{e:#}")));
        }
    }
}
