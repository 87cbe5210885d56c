//! The channels pane (the sidebar): its rows (views, recent DMs, channels by section, the
//! expanded channel's topics), the selection, which channel shows its topics, and the filter
//! the user typed (`/` in the pane).
//!
//! Written by `update::common::rebuild_sidebar` (the rows, on changes only, never per frame),
//! `update/actions_moves.rs` (moves, expanding), `update/panes.rs` (the filter) and the mouse;
//! `ui/sidebar.rs` and the screen reader's list draw it. It knows no `State` nor how rows are
//! chosen: start with [`ChannelsPane::replace`] and [`ChannelsPane::settle`].

use crate::api::{ChannelId, UserId};
use crate::app::narrow::Narrow;

/// A row of the channels pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SidebarRow {
    AllMessages,
    AllDms,
    Starred,
    Mentions,
    Channel(ChannelId),
    Topic(ChannelId, String),
    /// A recent direct-message conversation (the others in it).
    Dm(Vec<UserId>),
    /// A saved view (navigation view), by its fragment.
    View(String),
    /// A heading over channels (shown when some are in folders); the selection passes over it.
    Header(Section),
}

/// A group of the channels pane, as the web app's left sidebar has them: the pinned channels,
/// then each channel folder in the organization's order, then the channels in none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    Pinned,
    Folder(i64),
    Other,
}

impl SidebarRow {
    /// Can the selection rest here (anything but a heading)?
    pub fn selectable(&self) -> bool {
        !matches!(self, SidebarRow::Header(_))
    }

    pub fn narrow(&self) -> Narrow {
        match self {
            SidebarRow::AllMessages => Narrow::All,
            SidebarRow::AllDms => Narrow::AllDms,
            SidebarRow::Starred => Narrow::Starred,
            SidebarRow::Mentions => Narrow::Mentions,
            SidebarRow::Channel(c) => Narrow::Channel(*c),
            SidebarRow::Topic(c, t) => Narrow::Topic(*c, t.clone()),
            SidebarRow::Dm(users) => Narrow::Dm(users.clone()),
            // Opened through `views::open` (it needs the names of channels and people).
            SidebarRow::View(_) => Narrow::All,
            // Never opened: the selection does not rest on a heading.
            SidebarRow::Header(_) => Narrow::All,
        }
    }
}

/// The channels pane (see the module doc).
#[derive(Debug, Default)]
pub struct ChannelsPane {
    rows: Vec<SidebarRow>,
    selected: usize,
    /// The channel whose topics are shown.
    expanded: Option<ChannelId>,
    /// What the pane is filtered by (lowercase; empty: everything).
    filter: String,
}

impl ChannelsPane {
    /// The rows, in order.
    pub fn rows(&self) -> &[SidebarRow] {
        &self.rows
    }
    /// The selection's row number.
    pub fn selected_index(&self) -> usize {
        self.selected
    }
    /// The row selected.
    pub fn selected(&self) -> Option<&SidebarRow> {
        self.rows.get(self.selected)
    }
    /// Select row `i` (a click, a test's shortcut).
    pub fn select(&mut self, i: usize) {
        self.selected = i;
    }
    /// Move the selection by `delta` rows, stopping at either end (then [`Self::settle`]).
    pub fn move_selection(&mut self, delta: isize) {
        let len = self.rows.len() as isize;
        self.selected = (self.selected as isize).saturating_add(delta).clamp(0, (len - 1).max(0)) as usize;
    }
    /// Keep the selection off headings: onward in the direction it was moving (or back, at the
    /// end).
    pub fn settle(&mut self, forward: bool) {
        let (rows, at) = (&self.rows, self.selected);
        if rows.get(at).is_none_or(SidebarRow::selectable) {
            return;
        }
        let ahead = || (at + 1..rows.len()).find(|&i| rows[i].selectable());
        let behind = || (0..at).rev().find(|&i| rows[i].selectable());
        let to = if forward { ahead().or_else(behind) } else { behind().or_else(ahead) };
        self.selected = to.unwrap_or(at);
    }
    /// The rows were rebuilt: the selection stays on the row it was on (else on its number,
    /// within the rows), then off headings.
    pub fn replace(&mut self, rows: Vec<SidebarRow>) {
        let prev = self.selected().cloned();
        self.rows = rows;
        if let Some(p) = prev
            && let Some(i) = self.rows.iter().position(|r| *r == p)
        {
            self.selected = i;
        }
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
        self.settle(true);
    }

    /// The channel whose topics are shown.
    pub fn expanded(&self) -> Option<ChannelId> {
        self.expanded
    }
    /// Show channel `c`'s topics (another's close): whether they are shown now (a second time
    /// closes them).
    pub fn toggle_topics(&mut self, c: ChannelId) -> bool {
        self.expanded = if self.expanded == Some(c) { None } else { Some(c) };
        self.expanded.is_some()
    }
    /// Show channel `c`'s topics.
    pub fn expand(&mut self, c: ChannelId) {
        self.expanded = Some(c);
    }
    /// Channels gone (archived, deleted): the expanded one, if among them, closes.
    pub fn channels_gone(&mut self, ids: &[ChannelId]) {
        if self.expanded.is_some_and(|c| ids.contains(&c)) {
            self.expanded = None;
        }
    }

    /// What the pane is filtered by (lowercase; empty: everything).
    pub fn filter(&self) -> &str {
        &self.filter
    }
    /// The user typed a new filter (lowercase); the rows are to be rebuilt.
    pub fn filter_by(&mut self, filter: String) {
        self.filter = filter;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_passes_over_headings_and_follows_its_row() {
        let mut p = ChannelsPane::default();
        p.replace(vec![SidebarRow::AllMessages, SidebarRow::Header(Section::Pinned), SidebarRow::Channel(1)]);
        p.move_selection(1);
        p.settle(true);
        assert_eq!(p.selected(), Some(&SidebarRow::Channel(1)), "over the heading");
        p.replace(vec![SidebarRow::Channel(1), SidebarRow::AllMessages]);
        assert_eq!(p.selected_index(), 0, "the same row, moved");
        assert!(p.toggle_topics(1));
        p.channels_gone(&[1]);
        assert_eq!(p.expanded(), None);
    }
}
