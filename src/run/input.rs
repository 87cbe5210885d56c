//! The terminal's input, as the main loop takes it: read on a thread of its own
//! ([`terminal_events`]) and translated into messages ([`translate`]), mice by where the last
//! frame drew things. Knows nothing of organizations or of the loop's state; start at
//! [`terminal_events`].

use crate::app::Msg;
use crate::ui::RenderCache;
use crossterm::event::{Event as TermEvent, KeyEventKind};
use futures_util::Stream;
use std::time::Duration;
use tokio::sync::mpsc;

/// What a mouse event means, given where the last frame drew things.
pub(super) fn mouse(cache: &RenderCache, m: crossterm::event::MouseEvent) -> Option<Msg> {
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

/// At most this many terminal events are applied between two frames.
pub const MAX_INPUT_PER_FRAME: usize = 4096;

/// What a terminal event asks of the main loop.
pub(super) enum Input {
    Msg(Msg),
    /// Nothing for the app, but the screen must be drawn again (a resize).
    Redraw,
    Nothing,
}

/// crossterm's key as the core's (`app::keys`): the one place the two meet. Keys the core has
/// no name for arrive as `KeyCode::Null`.
pub fn key_of(k: crossterm::event::KeyEvent) -> crate::app::keys::KeyEvent {
    use crate::app::keys::{KeyCode, KeyModifiers};
    use crossterm::event::KeyCode as C;
    let code = match k.code {
        C::Backspace => KeyCode::Backspace,
        C::Enter => KeyCode::Enter,
        C::Left => KeyCode::Left,
        C::Right => KeyCode::Right,
        C::Up => KeyCode::Up,
        C::Down => KeyCode::Down,
        C::Home => KeyCode::Home,
        C::End => KeyCode::End,
        C::PageUp => KeyCode::PageUp,
        C::PageDown => KeyCode::PageDown,
        C::Tab => KeyCode::Tab,
        C::BackTab => KeyCode::BackTab,
        C::Delete => KeyCode::Delete,
        C::Insert => KeyCode::Insert,
        C::F(n) => KeyCode::F(n),
        C::Char(c) => KeyCode::Char(c),
        C::Esc => KeyCode::Esc,
        _ => KeyCode::Null,
    };
    crate::app::keys::KeyEvent::new(code, KeyModifiers::from_bits_truncate(k.modifiers.bits()))
}

pub(super) fn translate(cache: &RenderCache, ev: TermEvent) -> Input {
    match ev {
        TermEvent::Key(k) if k.kind != KeyEventKind::Release => Input::Msg(Msg::Key(key_of(k))),
        TermEvent::Paste(text) => Input::Msg(Msg::Paste(text)),
        TermEvent::Resize(..) => Input::Redraw,
        TermEvent::FocusGained => Input::Msg(Msg::Focus(true)),
        TermEvent::FocusLost => Input::Msg(Msg::Focus(false)),
        TermEvent::Mouse(m) => mouse(cache, m).map_or(Input::Nothing, Input::Msg),
        _ => Input::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::key_of;
    use crate::app::keys::{KeyCode, KeyModifiers};
    use crossterm::event::{KeyCode as C, KeyEvent as E, KeyModifiers as M};

    #[test]
    fn crossterm_keys_become_the_cores_with_their_modifiers() {
        let k = key_of(E::new(C::Char('x'), M::CONTROL | M::ALT | M::SHIFT));
        assert_eq!(k.code, KeyCode::Char('x'));
        assert_eq!(k.modifiers, KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        assert!(key_of(E::new(C::Left, M::META)).modifiers.contains(KeyModifiers::META));
        assert_eq!(key_of(E::new(C::BackTab, M::SHIFT)).code, KeyCode::BackTab);
        assert_eq!(key_of(E::new(C::F(5), M::NONE)).code, KeyCode::F(5));
        assert_eq!(key_of(E::new(C::CapsLock, M::NONE)).code, KeyCode::Null);
    }
}
