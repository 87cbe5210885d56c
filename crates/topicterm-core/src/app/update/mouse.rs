//! The mouse: the wheel scrolls the pane under it, a click selects a row or a message.

use super::actions::on_action;
use super::navigation::mark_selected_read;
use super::prelude::*;

/// The wheel over a pane: moves its selection.
pub(super) fn on_scroll(st: &mut State, sidebar: bool, lines: isize) -> Vec<Effect> {
    if st.ui.popup.is_some() || st.ui.prompt.is_some() {
        return vec![];
    }
    st.ui.focus = if sidebar { Focus::Sidebar } else { Focus::Messages };
    on_action(st, if lines < 0 { Action::Up } else { Action::Down })
}

/// A click on a row of the channels pane opens it.
pub(super) fn on_click_sidebar(st: &mut State, row: usize) -> Vec<Effect> {
    let heading = st.ui.sidebar.rows().get(row).is_none_or(|r| !r.selectable());
    if heading || st.ui.popup.is_some() || st.ui.prompt.is_some() {
        return vec![];
    }
    st.ui.focus = Focus::Sidebar;
    st.ui.sidebar.select(row);
    on_action(st, Action::Open)
}

/// A click on a message selects it.
pub(super) fn on_click_message(st: &mut State, id: MessageId) -> Vec<Effect> {
    if st.ui.popup.is_some() || st.ui.prompt.is_some() {
        return vec![];
    }
    st.ui.focus = Focus::Messages;
    st.ui.selected = Some(id);
    mark_selected_read(st)
}
