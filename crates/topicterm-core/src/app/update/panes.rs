//! The channels and people panes as places of their own: filtered as the user types (`/` in
//! the pane), and the people pane focused, moved through, and acted on (a DM, a profile).

use super::common::*;
use super::prelude::*;

/// `/` in the channels or people pane: filter it, starting from the filter in force.
pub(super) fn start_filter(st: &mut State) -> Vec<Effect> {
    let (kind, text) = match st.ui.focus {
        Focus::People => (PromptKind::FilterPeople, st.ui.people.filter().to_owned()),
        _ => (PromptKind::FilterChannels, st.ui.sidebar.filter().to_owned()),
    };
    st.ui.prompt = Some(Prompt::new(kind, &text));
    vec![]
}

/// The prompt's text changed (or was dropped, `None`): the pane follows at once.
pub(super) fn filter_changed(st: &mut State, kind: PromptKind, text: Option<&str>) {
    let text = text.map(|t| t.trim().to_lowercase()).unwrap_or_default();
    match kind {
        PromptKind::FilterPeople => {
            st.ui.people.filter_by(text);
            rebuild_people(st);
        }
        _ => {
            st.ui.sidebar.filter_by(text);
            rebuild_sidebar(st);
            // The first channel (or conversation) that matches, when filtering.
            if !st.ui.sidebar.filter().is_empty() {
                st.ui.sidebar.select(0);
                settle_sidebar_selection(st, true);
            }
        }
    }
}

/// Enter in a filter prompt: the filter stays and the pane takes the focus.
pub(super) fn filter_kept(st: &mut State, kind: PromptKind) {
    st.ui.focus = if kind == PromptKind::FilterPeople { Focus::People } else { Focus::Sidebar };
    let n =
        if kind == PromptKind::FilterPeople { st.ui.people.list().len() } else { st.ui.sidebar.rows().len() };
    if n == 0 {
        set_status(st, "nothing matches the filter (/ changes it, esc clears it)");
    }
}

/// Esc in a pane: drop its filter. `false`: there was none.
pub(super) fn clear_filter(st: &mut State) -> bool {
    match st.ui.focus {
        Focus::People if !st.ui.people.filter().is_empty() => {
            filter_changed(st, PromptKind::FilterPeople, None);
            true
        }
        Focus::Sidebar if !st.ui.sidebar.filter().is_empty() => {
            filter_changed(st, PromptKind::FilterChannels, None);
            true
        }
        _ => false,
    }
}

/// Move the people pane's selection.
pub(super) fn move_person(st: &mut State, delta: isize) {
    st.ui.people.move_selection(delta);
}

/// The person selected in the people pane.
pub(super) fn selected_person(st: &State) -> Option<UserId> {
    st.ui.people.selected()
}

/// Enter on a person: their conversation, with the compose box open to them.
pub(super) fn open_person(st: &mut State) -> Vec<Effect> {
    let Some(user) = selected_person(st) else {
        set_status(st, "nobody matches the filter");
        return vec![];
    };
    let key = dm_key(&[user], st.data.me);
    let fx = super::navigation::open_narrow(st, Narrow::Dm(key.clone()));
    open_compose(st, Target::Dm(key), "", None);
    fx
}

/// `h` and `l`: the pane to the left or right (the people pane only while shown).
pub(super) fn focus_step(st: &mut State, right: bool) {
    st.ui.focus = match (st.ui.focus, right) {
        (Focus::Sidebar, true) => Focus::Messages,
        (Focus::Messages, true) if st.ui.people.shown() => Focus::People,
        (Focus::People, false) => Focus::Messages,
        (Focus::Messages, false) => Focus::Sidebar,
        (f, _) => f,
    };
}
