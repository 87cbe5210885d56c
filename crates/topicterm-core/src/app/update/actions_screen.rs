//! Actions on the screen rather than a message: quit, help, Esc, the people pane, the
//! prompts that start empty.

use super::prelude::*;

/// Quit the client.
pub(super) fn quit(st: &mut State) -> Vec<Effect> {
    st.ui.conn.quit();
    vec![Effect::Quit]
}

/// Open the keys' help.
pub(super) fn open_help(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Help { scroll: 0 });
    vec![]
}

/// Esc: clear a pane's filter, or else the status line.
pub(super) fn cancel(st: &mut State) -> Vec<Effect> {
    if super::panes::clear_filter(st) {
        return vec![];
    }
    st.ui.status = None;
    vec![]
}

/// Show the people pane (and focus it), or hide it.
pub(super) fn toggle_people(st: &mut State) -> Vec<Effect> {
    let shown = st.ui.people.toggle();
    st.ui.focus = match (shown, st.ui.focus) {
        (true, _) => Focus::People,
        (false, Focus::People) => Focus::Messages,
        (false, f) => f,
    };
    super::common::rebuild_people(st);
    vec![]
}

/// The profile of the person selected in the people pane.
pub(super) fn person_profile(st: &mut State) -> Vec<Effect> {
    match super::panes::selected_person(st) {
        Some(u) => super::directory::open_profile(st, u),
        None => vec![],
    }
}

/// Open an empty prompt of `kind` (the palette, search, the recipients of a new DM).
pub(super) fn open_prompt(st: &mut State, kind: PromptKind) -> Vec<Effect> {
    st.ui.prompt = Some(Prompt::new(kind, ""));
    vec![]
}
