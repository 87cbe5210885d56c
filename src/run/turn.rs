//! One turn of the main loop ([`MainLoop`]): the rows shared between organizations, a frame
//! drawn, the graphics asked, a batch gathered from the terminal, the network and the clock,
//! then applied. Start at [`super::run_main_loop`], which calls these in order.

use crate::app::{self, Msg, State};
use crate::ui::{self};
use crossterm::event::Event as TermEvent;
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;

use super::effects::{after_frame, run_effects, tell_what_was_drawn};
use super::input::{Input, MAX_INPUT_PER_FRAME, translate};
use super::org::{
    ASK_GRAPHICS_BY, Answers, GraphicsSource, Open, Organization, close, held, now, reopen, start_org,
};

/// What a clock tick can change on screen without any other message.
pub(super) fn on_a_tick(st: &State) -> (Option<i64>, usize) {
    (st.ui.status.as_ref().map(|s| s.at), st.ui.presence.typing().len())
}

/// How many of start-up's frames are logged (`topicterm::start`).
pub(super) const START_STEPS: usize = 8;

/// What start-up's log calls a message that builds the first screen.
pub(super) fn start_step(msg: &Msg) -> Option<&'static str> {
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
pub(super) const TRIM_AFTER_MESSAGES: usize = 1000;

/// A message and who it is for.
pub(super) enum Item {
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

/// The main loop's own state between two turns: every open organization and which is on
/// screen, what is due (rows, a frame, the heap trimmed, the graphics asked) and what the
/// start-up and key-to-frame logs measure from.
pub(super) struct MainLoop {
    pub(super) open: Vec<Open>,
    pub(super) active: usize,
    pub(super) several: bool,
    pub(super) rows: Vec<app::orgs::OrgRow>,
    pub(super) rows_due: bool,
    pub(super) dirty: bool,
    /// When the oldest key not yet drawn arrived: key-to-frame times go to the log at debug
    /// level (target `topicterm::frame`) for `bench/scale.sh`.
    pub(super) key_at: Option<std::time::Instant>,
    /// Start-up's steps go to the log at debug level (target `topicterm::start`, for
    /// `bench/scale.sh`): when each organization's state and first page arrived, how long
    /// applying them, trimming the heap and drawing took, in time since the loop started.
    pub(super) launched: std::time::Instant,
    pub(super) start_steps: usize,
    /// The heap is given back after the frame that follows a large answer (see `after_frame`).
    pub(super) trim_due: bool,
    pub(super) tx: Answers,
    pub(super) settings: app::settings::Settings,
    pub(super) graphics: ui::Graphics,
    pub(super) ask: Option<Box<dyn FnOnce() -> ui::Graphics + Send>>,
    pub(super) ask_by: tokio::time::Instant,
}

/// What woke the main loop's wait.
pub(super) enum Woke {
    Input(Option<std::io::Result<TermEvent>>),
    Org(usize, u64, Msg),
    Picture,
    AskBy,
    Tick,
}

/// What the loop notes before applying a batch, to judge after it whether to redraw and trim.
pub(super) struct BatchBefore {
    pub(super) only_ticks: bool,
    /// The state of a whole organization arriving (from the server or this machine) leaves
    /// what decoding it needed free once applied.
    pub(super) large: bool,
    /// So does a burst of messages come or let go (`max_messages`): what decoding a large
    /// event batch took, what the held messages took. Counted by the messages held, O(1).
    pub(super) held: usize,
    pub(super) seen: (Option<i64>, usize),
}

/// What applying a batch came to.
pub(super) struct Applied {
    /// The user quit.
    pub(super) quit: bool,
    /// Something other than the clock came for the organization on screen.
    pub(super) visible: bool,
}

impl MainLoop {
    /// Every organization opened, the first on screen; the receiver their tasks answer on.
    pub(super) fn open_all(
        orgs: Vec<Organization>,
        settings: app::settings::Settings,
        graphics: GraphicsSource,
    ) -> (MainLoop, mpsc::UnboundedReceiver<(usize, u64, Msg)>) {
        let (graphics, ask) = match graphics {
            GraphicsSource::Known(g) => {
                tracing::info!("images: {}", g.name());
                (g, None)
            }
            GraphicsSource::Ask(ask) => (ui::Graphics::unknown(), Some(ask)),
        };
        let ask_by = tokio::time::Instant::now() + ASK_GRAPHICS_BY;
        let (tx, rx) = mpsc::unbounded_channel::<(usize, u64, Msg)>();
        let open: Vec<Open> = orgs
            .into_iter()
            .enumerate()
            .map(|(i, org)| start_org(i, org, 0, &tx, &settings, &graphics))
            .collect();
        let several = open.len() > 1;
        let lp = MainLoop {
            open,
            active: 0,
            several,
            rows: Vec::new(),
            rows_due: several,
            dirty: true,
            key_at: None,
            launched: std::time::Instant::now(),
            start_steps: 0,
            trim_due: false,
            tx,
            settings,
            graphics,
            ask,
            ask_by,
        };
        (lp, rx)
    }

    /// Every organization learns the others' rows when they changed (several open only).
    pub(super) fn share_rows(&mut self) {
        if !self.rows_due {
            return;
        }
        self.rows_due = false;
        let rows = &self.rows;
        let fresh: Vec<_> = self
            .open
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
        let changed = fresh != self.rows || self.open[self.active].st.ui.orgs.active != self.active;
        if changed {
            self.rows = fresh;
            let active = self.active;
            for (i, o) in self.open.iter_mut().enumerate() {
                let orgs = app::orgs::Orgs { rows: self.rows.clone(), active, index: i };
                app::update(&mut o.st, Msg::Organizations(orgs));
            }
            self.dirty = true;
        }
    }

    /// Draw the organization on screen, tell it what the frame showed, and run what waited
    /// for the frame.
    pub(super) fn draw_frame<B>(
        &mut self,
        terminal: &mut Terminal<B>,
        outside: &mut dyn crate::outside::Outside,
    ) -> anyhow::Result<()>
    where
        B: Backend,
        B::Error: Send + Sync + 'static,
    {
        let launched = self.launched;
        let o = &mut self.open[self.active];
        let at = std::time::Instant::now();
        terminal.draw(|f| ui::draw(f, &o.st, &mut o.cache))?;
        self.dirty = false;
        if self.start_steps < START_STEPS {
            self.start_steps += 1;
            tracing::debug!(target: "topicterm::start", "frame drawn at {:?} in {:?}", launched.elapsed(), at.elapsed());
        }
        if !o.shown && !o.st.ui.conn.loading() {
            o.shown = true;
            tracing::debug!(target: "topicterm::start", "first screen drawn at {:?}", launched.elapsed());
        }
        if let Some(at) = self.key_at.take() {
            tracing::debug!(target: "topicterm::frame", key_to_frame_us = at.elapsed().as_micros() as u64);
        }
        tell_what_was_drawn(terminal, o, outside, &mut self.dirty)?;
        after_frame(&mut self.open, &mut self.trim_due, launched);
        Ok(())
    }

    /// The terminal's graphics are asked once the organization is on screen (or loading takes
    /// long).
    pub(super) fn graphics_due(&self) -> bool {
        self.ask.is_some()
            && (!self.open[self.active].st.ui.conn.loading() || tokio::time::Instant::now() >= self.ask_by)
    }

    /// Ask the terminal how pictures are drawn, and redraw with it.
    pub(super) fn ask_graphics(&mut self) {
        let at = std::time::Instant::now();
        self.graphics = self.ask.take().map_or(self.graphics.clone(), |ask| ask());
        tracing::info!("images: {}", self.graphics.name());
        tracing::debug!(target: "topicterm::start", "graphics known at {:?} in {:?}", self.launched.elapsed(), at.elapsed());
        for o in &mut self.open {
            o.cache.set_graphics(self.graphics.clone());
        }
        self.dirty = true;
    }

    /// Wait for the next input, answer, picture or tick, then take everything else already
    /// waiting: the batch, and whether the terminal's input has ended.
    pub(super) async fn gather<S>(
        &mut self,
        input: &mut S,
        rx: &mut mpsc::UnboundedReceiver<(usize, u64, Msg)>,
        clock: &mut tokio::time::Interval,
    ) -> anyhow::Result<(Vec<Item>, bool)>
    where
        S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
    {
        let mut batch: Vec<Item> = Vec::new();
        let mut ended = false;
        // A picture encoded off the frame (kitty, sixel, iTerm2) is drawn when it is ready.
        let pictures_ready = self.open[self.active].cache.pictures.ready.clone();
        let woke = tokio::select! {
            ev = input.next() => Woke::Input(ev),
            Some((i, g, m)) = rx.recv() => Woke::Org(i, g, m),
            () = pictures_ready.notified() => Woke::Picture,
            () = tokio::time::sleep_until(self.ask_by), if self.ask.is_some() => Woke::AskBy,
            _ = clock.tick() => Woke::Tick,
        };
        match woke {
            Woke::Input(Some(Ok(ev))) => self.take_input(ev, &mut batch),
            Woke::Input(Some(Err(e))) => return Err(e.into()),
            Woke::Input(None) => ended = true,
            Woke::Org(i, g, m) => {
                if self.open[i].generation == g {
                    batch.push(Item::Org(i, m));
                }
            }
            Woke::Picture => self.dirty = true,
            Woke::AskBy => {}
            Woke::Tick => {
                batch.push(Item::Tick(now()));
                self.rows_due = self.several;
            }
        }
        ended = self.take_waiting_input(input, &mut batch, ended).await?;
        if ended && batch.is_empty() {
            return Ok((batch, ended));
        }
        // Drain whatever else the network tasks queued before redrawing (batches bursts of events).
        while let Ok((i, g, m)) = rx.try_recv() {
            if self.open[i].generation == g {
                batch.push(Item::Org(i, m));
            }
        }
        Ok((batch, ended))
    }

    /// A terminal event into the batch; a key is timed to the frame that shows it.
    fn take_input(&mut self, ev: TermEvent, batch: &mut Vec<Item>) {
        match translate(&self.open[self.active].cache, ev) {
            Input::Msg(m @ Msg::Key(_)) => {
                self.key_at.get_or_insert_with(std::time::Instant::now);
                batch.push(Item::Active(m));
            }
            Input::Msg(m) => batch.push(Item::from_terminal(m)),
            Input::Redraw => self.dirty = true,
            Input::Nothing => {}
        }
    }

    /// Everything the terminal has already delivered is applied before the next frame: a
    /// burst of typing or a paste is one redraw, not one per key. Bounded, so that a flood
    /// of input cannot keep the frame, the clock or the network waiting for ever. Returns
    /// whether the input has ended.
    async fn take_waiting_input<S>(
        &mut self,
        input: &mut S,
        batch: &mut Vec<Item>,
        mut ended: bool,
    ) -> anyhow::Result<bool>
    where
        S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
    {
        let mut taken = 1;
        while !ended && taken < MAX_INPUT_PER_FRAME {
            taken += 1;
            // Polled with this task's own waker, so that a stream which is not ready yet
            // (crossterm's `EventStream`, say) still wakes the loop when it is; outside tokio's
            // cooperative budget, which would otherwise cut the burst every 128 events (the
            // bound above keeps the loop from starving instead).
            match futures_util::poll!(tokio::task::unconstrained(input.next())) {
                // Timed as a key the wait above took (woken by the network, the loop takes
                // the keys here).
                std::task::Poll::Ready(Some(Ok(ev))) => self.take_input(ev, batch),
                std::task::Poll::Ready(Some(Err(e))) => return Err(e.into()),
                std::task::Poll::Ready(None) => ended = true,
                std::task::Poll::Pending => break,
            }
        }
        Ok(ended)
    }

    /// What a batch is judged by once applied.
    pub(super) fn before_batch(&self, batch: &[Item]) -> BatchBefore {
        BatchBefore {
            only_ticks: batch.iter().all(|m| matches!(m, Item::Tick(_))),
            large: batch.iter().any(|m| matches!(m, Item::Org(_, Msg::Registered(_) | Msg::Cached(_)))),
            held: held(&self.open),
            seen: on_a_tick(&self.open[self.active].st),
        }
    }

    /// Apply a batch to the organizations it is for, and run its effects.
    pub(super) async fn apply_batch<B>(
        &mut self,
        terminal: &mut Terminal<B>,
        outside: &mut dyn crate::outside::Outside,
        batch: Vec<Item>,
    ) -> anyhow::Result<Applied>
    where
        B: Backend,
        B::Error: Send + Sync + 'static,
    {
        // A key or paste for the one on screen: the user is at the keyboard for all of them.
        let typed =
            self.several && batch.iter().any(|m| matches!(m, Item::Active(Msg::Key(_) | Msg::Paste(_))));
        if typed {
            for (i, o) in self.open.iter_mut().enumerate() {
                if i != self.active && !o.closed {
                    app::update(&mut o.st, Msg::InputElsewhere);
                }
            }
        }
        let mut visible = false;
        for item in batch {
            // A closed organization still takes keys and the clock (its screen says how to
            // reopen it), nothing from the network.
            let deliveries = match item {
                Item::Active(m) => vec![(self.active, m)],
                Item::Org(i, _) if self.open[i].closed => continue,
                Item::Org(i, m) => vec![(i, m)],
                Item::Tick(t) => (0..self.open.len()).map(|i| (i, Msg::Tick(t))).collect(),
                Item::Focus(f) => (0..self.open.len()).map(|i| (i, Msg::Focus(f))).collect(),
            };
            for (i, msg) in deliveries {
                visible |= i == self.active && !matches!(msg, Msg::Tick(_));
                if self.deliver(terminal, outside, i, msg).await? {
                    return Ok(Applied { quit: true, visible });
                }
            }
        }
        Ok(Applied { quit: false, visible })
    }

    /// One message for organization `i`, and what its effects ask: a switch, a close, a
    /// reopening. Returns whether the user quit.
    async fn deliver<B>(
        &mut self,
        terminal: &mut Terminal<B>,
        outside: &mut dyn crate::outside::Outside,
        i: usize,
        msg: Msg,
    ) -> anyhow::Result<bool>
    where
        B: Backend,
        B::Error: Send + Sync + 'static,
    {
        let step = start_step(&msg).filter(|_| self.start_steps < START_STEPS);
        let at = step.map(|_| std::time::Instant::now());
        let effects = app::update(&mut self.open[i].st, msg);
        if let (Some(what), Some(at)) = (step, at) {
            tracing::debug!(target: "topicterm::start", "{what} applied at {:?} in {:?}", self.launched.elapsed(), at.elapsed());
        }
        let asked = run_effects(terminal, &mut self.open[i], outside, effects, &mut self.dirty)?;
        self.open[i].stale = true;
        if let Some(how) = asked.switch
            && let Some(to) = app::orgs::switch_target(&self.rows, self.active, how)
        {
            self.active = to;
            self.rows_due = true;
            self.dirty = true;
        }
        // The server refused the account: its tasks stop, its screen says how to
        // reopen it (the others, if any, stay open).
        if self.open[i].st.ui.conn.fatal().is_some() && !self.open[i].closed {
            close(&mut self.open, i, &mut self.active).await;
            self.rows_due = true;
            self.dirty = true;
        }
        if asked.reopen && self.open[i].closed {
            reopen(&mut self.open, i, &self.tx, &self.settings, &self.graphics).await;
            self.rows_due = true;
            self.dirty = true;
        }
        Ok(asked.quit)
    }

    /// The loop ends: on quitting, each organization gives the server its event queue back
    /// and keeps its session. Returns each organization's state.
    pub(super) async fn finish(mut self, quit: bool) -> Vec<State> {
        for o in self.open.iter_mut().filter(|o| !o.closed) {
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
        self.open.into_iter().map(|o| o.st).collect()
    }

    /// After a batch: the heap trim noted, and a frame due when the batch changed what is
    /// shown; what waits for a frame goes now when none is due.
    pub(super) fn after_batch(&mut self, before: BatchBefore, visible: bool) {
        self.trim_due |= before.large || held(&self.open).abs_diff(before.held) >= TRIM_AFTER_MESSAGES;
        // A tick redraws only when time changed what is shown: an expired remark, a typing
        // notice gone, the offline countdown.
        let st = &self.open[self.active].st;
        self.dirty |=
            (visible && !before.only_ticks) || before.seen != on_a_tick(st) || st.ui.conn.is_offline();
        if !self.dirty {
            after_frame(&mut self.open, &mut self.trim_due, self.launched);
        }
    }
}
