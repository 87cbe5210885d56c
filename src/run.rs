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
/// queued at once, and the main loop drains the queue before it draws.
pub fn terminal_events() -> impl Stream<Item = std::io::Result<TermEvent>> + Unpin {
    let (tx, mut rx) = mpsc::channel(MAX_INPUT_PER_FRAME);
    std::thread::spawn(move || {
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

/// Run one message's effects; what needs the terminal runs here, between frames. True when
/// the client must stop.
fn run_effects<B>(
    terminal: &mut Terminal<B>,
    st: &mut State,
    dispatcher: &mut Dispatcher,
    outside: &mut dyn crate::outside::Outside,
    effects: Vec<Effect>,
    dirty: &mut bool,
) -> anyhow::Result<bool>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    let mut quit = false;
    for e in effects {
        match e {
            Effect::Term(TermEffect::Notify { title, body }) => outside.notify(&title, &body),
            Effect::Term(TermEffect::Copy(text)) => outside.copy(&text),
            Effect::Term(TermEffect::ExternalEdit { text }) => {
                let result = outside.edit(&text);
                terminal.clear()?;
                *dirty = true;
                // Taken back at once, before any later input of the same batch.
                let more = app::update(st, Msg::EditorDone(result));
                quit |= run_effects(terminal, st, dispatcher, outside, more, dirty)?;
            }
            e => quit |= !dispatcher.run(e),
        }
    }
    Ok(quit)
}

/// Run the client until the user quits. `input` yields terminal events ([`terminal_events`]
/// in the binary, a scripted stream in tests).
pub async fn run_main_loop<B, S>(
    terminal: &mut Terminal<B>,
    client: Client,
    mut input: S,
    drafts_dir: Option<std::path::PathBuf>,
    cache_file: Option<std::path::PathBuf>,
    settings: app::settings::Settings,
    outside: &mut dyn crate::outside::Outside,
) -> anyhow::Result<State>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
{
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let mut dispatcher = Dispatcher::new(client.clone(), tx.clone());
    if let Some(dir) = drafts_dir {
        dispatcher = dispatcher.with_drafts(dir);
    }
    let mut st = State {
        now: now(),
        site: client.site().to_owned(),
        insecure: client.insecure(),
        keep_session: cache_file.is_some(),
        ..Default::default()
    };
    st.ui.show_people = settings.show_people;
    st.settings = settings;
    st.ui.loading = true;
    let mut cache = RenderCache::default();
    // The last session is read while the server is asked: whichever comes first is drawn.
    if let Some(file) = cache_file {
        dispatcher = dispatcher.with_cache(file);
        dispatcher.run(Effect::LoadCache);
    }
    dispatcher.run(Effect::Register);
    let mut clock = tokio::time::interval(Duration::from_secs(1));
    let mut dirty = true;
    // When the oldest key not yet drawn arrived: key-to-frame times go to the log at debug level
    // (target `topicterm::frame`) for `bench/scale.sh`.
    let mut key_at: Option<std::time::Instant> = None;
    loop {
        if dirty {
            terminal.draw(|f| ui::draw(f, &st, &mut cache))?;
            dirty = false;
            if let Some(at) = key_at.take() {
                tracing::debug!(target: "topicterm::frame", key_to_frame_us = at.elapsed().as_micros() as u64);
            }
        }
        let mut batch = Vec::new();
        let mut ended = false;
        tokio::select! {
            ev = input.next() => match ev {
                Some(Ok(ev)) => match translate(&cache, ev) {
                    Input::Msg(m @ Msg::Key(_)) => {
                        key_at.get_or_insert_with(std::time::Instant::now);
                        batch.push(m);
                    }
                    Input::Msg(m) => batch.push(m),
                    Input::Redraw => dirty = true,
                    Input::Nothing => {}
                },
                Some(Err(e)) => return Err(e.into()),
                None => ended = true,
            },
            Some(m) = rx.recv() => batch.push(m),
            _ = clock.tick() => batch.push(Msg::Tick(now())),
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
                std::task::Poll::Ready(Some(Ok(ev))) => match translate(&cache, ev) {
                    Input::Msg(m) => batch.push(m),
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
        let only_ticks = batch.iter().all(|m| matches!(m, Msg::Tick(_)));
        // The state of a whole organization arriving (from the server or this machine) leaves
        // what decoding it needed free once applied.
        let is_large = |m: &Msg| matches!(m, Msg::Registered(_) | Msg::Cached(_));
        let mut large = batch.iter().any(is_large);
        let seen_before = on_a_tick(&st);
        let mut quit = false;
        for msg in batch {
            let effects = app::update(&mut st, msg);
            quit |=
                st.ui.quit | run_effects(terminal, &mut st, &mut dispatcher, outside, effects, &mut dirty)?;
            if quit {
                break;
            }
        }
        // Drain whatever else is queued before redrawing (batches bursts of events).
        while !quit && let Ok(m) = rx.try_recv() {
            large |= is_large(&m);
            let effects = app::update(&mut st, m);
            quit |=
                st.ui.quit | run_effects(terminal, &mut st, &mut dispatcher, outside, effects, &mut dirty)?;
        }
        if quit || ended {
            // A clean exit gives the server its event queue back (not when the server has
            // just refused us).
            if quit && st.ui.fatal.is_none() {
                dispatcher.shutdown(st.data.queue_id.as_deref()).await;
            }
            if quit && st.ui.fatal.is_none() && !st.ui.loading && st.keep_session {
                dispatcher.save_cache_now(&app::cache::snapshot(&st));
            }
            return Ok(st);
        }
        if large {
            crate::heap::trim();
        }
        // A tick redraws only when time changed what is shown: an expired remark, a typing
        // notice gone, the offline countdown.
        dirty |= !only_ticks || seen_before != on_a_tick(&st) || st.ui.offline.is_some();
    }
    Ok(st)
}
