//! Effects that need the terminal or the frame, run between frames: an organization's
//! effects ([`run_effects`]), what a frame showed told back to the app
//! ([`tell_what_was_drawn`]) and what waited for the frame ([`after_frame`]). Knows the open
//! organizations ([`super::org::Open`]), not the loop that calls it.

use crate::app::{self, Effect, Msg, TermEffect};
use ratatui::Terminal;
use ratatui::backend::Backend;

use super::org::Open;

/// What running one organization's effects asks of the main loop.
#[derive(Default)]
pub(super) struct Asked {
    pub(super) quit: bool,
    pub(super) switch: Option<app::orgs::OrgSwitch>,
    /// Read the closed organization's credentials again and open it anew.
    pub(super) reopen: bool,
}

/// Run one message's effects; what needs the terminal runs here, between frames.
pub(super) fn run_effects<B>(
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

/// Tell the organization just drawn what its frame showed, running the effects of each.
pub(super) fn tell_what_was_drawn<B>(
    terminal: &mut Terminal<B>,
    o: &mut Open,
    outside: &mut dyn crate::outside::Outside,
    dirty: &mut bool,
) -> anyhow::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    // The links it shows, when they changed: what link hints label.
    // (Every update's effects are run: one that follows any message — the session
    // kept, a draft pushed, typing stopped — may come with this one.)
    if o.cache.hits.links != o.st.ui.links_on_screen {
        let effects = app::update(&mut o.st, Msg::LinksOnScreen(o.cache.hits.links.clone()));
        run_effects(terminal, o, outside, effects, dirty)?;
    }
    // The messages it drew, when they or the view changed: what reading on sight reads.
    if o.st.ui.messages_on_screen.0 != o.st.ui.narrow || o.st.ui.messages_on_screen.1 != o.cache.hits.seen {
        let effects = app::update(&mut o.st, Msg::MessagesOnScreen(o.cache.hits.seen.clone()));
        run_effects(terminal, o, outside, effects, dirty)?;
    }
    // Pictures the frame would have drawn are asked for after it.
    let wanted = std::mem::take(&mut o.cache.pictures.wanted);
    if !wanted.is_empty() {
        let effects = app::update(&mut o.st, Msg::ImagesWanted(wanted));
        run_effects(terminal, o, outside, effects, dirty)?;
    }
    Ok(())
}

/// After a frame (or when none is due): the effects held for it run, and the heap is given
/// back when a large answer or a burst of messages asked for it — walking the heap costs
/// milliseconds the frame need not wait for.
pub(super) fn after_frame(open: &mut [Open], trim_due: &mut bool, launched: std::time::Instant) {
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
