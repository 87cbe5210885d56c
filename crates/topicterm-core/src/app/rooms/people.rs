//! The people pane: whether it is shown, who it lists (by activity then name, only those the
//! filter keeps), the selection, and the filter the user typed (`/` in the pane).
//!
//! Written by `update/panes.rs` (filter, moves), `update/actions_screen.rs` (shown or hidden)
//! and `update::common::rebuild_people` (the list, on presence and user changes, never per
//! frame); `ui/people.rs` and the screen reader's list draw it. It knows no `State` nor how
//! people are ranked: start with [`PeoplePane::replace`].

use crate::api::UserId;

/// The people pane (see the module doc).
#[derive(Debug, Default)]
pub struct PeoplePane {
    /// Show the people pane.
    shown: bool,
    /// People by activity then name; only those matching `filter`.
    list: Vec<UserId>,
    selected: usize,
    /// What the pane is filtered by (lowercase; empty: everyone).
    filter: String,
}

impl PeoplePane {
    /// The pane is shown.
    pub fn shown(&self) -> bool {
        self.shown
    }
    /// Show the pane or not (the config's choice at start).
    pub fn show(&mut self, shown: bool) {
        self.shown = shown;
    }
    /// Show the pane if hidden, hide it if shown: whether it is shown now.
    pub fn toggle(&mut self) -> bool {
        self.shown = !self.shown;
        self.shown
    }
    /// Who the pane lists, in order.
    pub fn list(&self) -> &[UserId] {
        &self.list
    }
    /// The selection's row.
    pub fn selected_index(&self) -> usize {
        self.selected
    }
    /// The person selected.
    pub fn selected(&self) -> Option<UserId> {
        self.list.get(self.selected).copied()
    }
    /// Move the selection by `delta` rows, stopping at either end.
    pub fn move_selection(&mut self, delta: isize) {
        let last = self.list.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize).saturating_add(delta).clamp(0, last.max(0)) as usize;
    }
    /// What the pane is filtered by (lowercase; empty: everyone).
    pub fn filter(&self) -> &str {
        &self.filter
    }
    /// The user typed a new filter (lowercase): the selection goes back to the top.
    pub fn filter_by(&mut self, filter: String) {
        self.filter = filter;
        self.selected = 0;
    }
    /// The list was rebuilt: the selection stays on the person it was on (else on its row,
    /// within the list).
    pub fn replace(&mut self, list: Vec<UserId>) {
        let chosen = self.selected();
        self.list = list;
        self.selected = chosen
            .and_then(|u| self.list.iter().position(|p| *p == u))
            .unwrap_or(self.selected)
            .min(self.list.len().saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_follows_its_person_through_a_rebuild_and_stops_at_the_ends() {
        let mut p = PeoplePane::default();
        p.replace(vec![1, 2, 3]);
        p.move_selection(1);
        assert_eq!(p.selected(), Some(2));
        p.replace(vec![3, 1, 2]);
        assert_eq!(p.selected(), Some(2), "still the same person");
        p.move_selection(10);
        assert_eq!(p.selected_index(), 2);
        p.replace(vec![5]);
        assert_eq!(p.selected(), Some(5), "within the shorter list");
        p.filter_by("al".into());
        assert_eq!((p.filter(), p.selected_index()), ("al", 0));
    }
}
