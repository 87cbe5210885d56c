//! The main loop: one `tokio::select!` over terminal input, background results and a clock.
//! Generic over the ratatui backend so whole-app tests run on `TestBackend`.

use crate::api::Client;
use crate::app::{self, Effect, Msg, State};
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

/// What a clock tick can change on screen without any other message.
fn on_a_tick(st: &State) -> (Option<i64>, usize) {
    (st.ui.status.as_ref().map(|s| s.at), st.ui.typing.len())
}

/// Run the client until the user quits. `input` yields terminal events (crossterm's
/// `EventStream` in the binary, a scripted stream in tests).
pub async fn run_main_loop<B, S>(
    terminal: &mut Terminal<B>,
    client: Client,
    mut input: S,
    drafts_dir: Option<std::path::PathBuf>,
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
    let mut st = State { now: now(), site: client.site().to_owned(), ..Default::default() };
    st.ui.show_people = settings.show_people;
    st.settings = settings;
    st.ui.loading = true;
    let mut cache = RenderCache::default();
    dispatcher.run(Effect::Register);
    let mut clock = tokio::time::interval(Duration::from_secs(1));
    let mut dirty = true;
    loop {
        if dirty {
            terminal.draw(|f| ui::draw(f, &st, &mut cache))?;
            dirty = false;
        }
        let msg = tokio::select! {
            ev = input.next() => match ev {
                Some(Ok(TermEvent::Key(k))) if k.kind != KeyEventKind::Release => Msg::Key(k),
                Some(Ok(TermEvent::Resize(..))) => { dirty = true; continue }
                Some(Ok(TermEvent::FocusGained)) => Msg::Focus(true),
                Some(Ok(TermEvent::FocusLost)) => Msg::Focus(false),
                Some(Ok(TermEvent::Mouse(m))) => match mouse(&cache, m) {
                    Some(msg) => msg,
                    None => continue,
                },
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
                None => break,
            },
            Some(m) = rx.recv() => m,
            _ = clock.tick() => Msg::Tick(now()),
        };
        let is_tick = matches!(msg, Msg::Tick(_));
        let seen_before = is_tick.then(|| on_a_tick(&st));
        let mut effects = app::update(&mut st, msg);
        // Drain whatever else is queued before redrawing (batches bursts of events).
        while let Ok(m) = rx.try_recv() {
            effects.extend(app::update(&mut st, m));
        }
        let mut quit = st.ui.quit;
        for e in effects {
            match e {
                // What needs the terminal runs here, between frames.
                Effect::Notify { title, body } => outside.notify(&title, &body),
                Effect::Copy(text) => outside.copy(&text),
                Effect::ExternalEdit { text } => {
                    let result = outside.edit(&text);
                    terminal.clear()?;
                    dirty = true;
                    let _ = tx.send(Msg::EditorDone(result));
                }
                e => quit |= !dispatcher.run(e),
            }
        }
        if quit {
            // A clean exit gives the server its event queue back (not when the server has
            // just refused us).
            if st.ui.fatal.is_none() {
                dispatcher.shutdown(st.data.queue_id.as_deref()).await;
            }
            return Ok(st);
        }
        // A tick redraws only when time changed what is shown: an expired remark, a typing
        // notice gone, the offline countdown.
        dirty |= !is_tick || seen_before != Some(on_a_tick(&st)) || st.ui.offline.is_some();
    }
    Ok(st)
}
