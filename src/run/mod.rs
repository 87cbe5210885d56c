//! The main loop: one `tokio::select!` over terminal input, background results and a clock.
//! Generic over the ratatui backend so whole-app tests run on `TestBackend`.
//!
//! Its parts, each below this file: [`input`] (the terminal's events), [`org`] (one
//! organization open, closed, reopened), [`effects`] (what runs between frames) and [`turn`]
//! (the loop's state and each step of a turn). Start at [`run_main_loop`].

mod effects;
mod input;
mod org;
mod turn;

pub use input::{MAX_INPUT_PER_FRAME, key_of, terminal_events};
pub use org::{ASK_GRAPHICS_BY, GraphicsSource, Organization, Reread, now};

use crate::app::{self, State};
use crossterm::event::Event as TermEvent;
use futures_util::Stream;
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::time::Duration;
use turn::MainLoop;

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
    let (mut lp, mut rx) = MainLoop::open_all(orgs, settings, graphics.into());
    let mut clock = tokio::time::interval(Duration::from_secs(1));
    loop {
        lp.share_rows();
        if lp.dirty {
            lp.draw_frame(terminal, outside)?;
        }
        if lp.graphics_due() {
            lp.ask_graphics();
            continue;
        }
        let (batch, ended) = lp.gather(&mut input, &mut rx, &mut clock).await?;
        if ended && batch.is_empty() {
            break;
        }
        let before = lp.before_batch(&batch);
        let applied = lp.apply_batch(terminal, outside, batch).await?;
        if applied.quit || ended {
            return Ok(lp.finish(applied.quit).await);
        }
        lp.after_batch(before, applied.visible);
    }
    Ok(lp.open.into_iter().map(|o| o.st).collect())
}
