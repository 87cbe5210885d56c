//! Link hints in the messages pane: which links the frame shows (their numbers on screen, in
//! reading order: what `f` labels, told to the app after the frame through the hit map), and
//! while `f` or `F` is on, each one's label drawn over its number (`[a]` where it fits),
//! qutebrowser's black on yellow.

use super::common::HitMap;
use super::theme::Theme;
use crate::app::hints::LinkSpot;
use crate::app::{Popup, State};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use std::collections::HashSet;

/// Where a message block draws a link's number `[n]`: its line in the block, its column (after
/// the selection marker) and width.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spot {
    pub(super) line: usize,
    pub(super) col: u16,
    pub(super) width: u16,
    pub(super) link: LinkSpot,
}

/// Record the links whose numbers are on screen (`shown`: each number's row in the pane and
/// where it is in the row) and draw the labels of a hint session over them.
pub(super) fn on_screen(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    hits: &mut HitMap,
    shown: &[(u16, Spot)],
    area: Rect,
) {
    let mut order: Vec<&(u16, Spot)> = shown.iter().collect();
    order.sort_by_key(|(row, n)| (*row, n.col));
    let mut seen = HashSet::new();
    hits.links = order.iter().map(|(_, n)| n.link).filter(|l| seen.insert(*l)).collect();
    let Some(Popup::Hints(hints)) = &st.ui.popup else { return };
    let label_style = t.content.search_match.add_modifier(Modifier::BOLD);
    let typed_style = t.content.search_match.patch(t.dim);
    let right = area.x + area.width;
    let buf = f.buffer_mut();
    for (row, n) in shown {
        let Some(label) = hints.label_of(n.link) else { continue };
        // Only the labels that start with what was typed stay.
        let Some(rest) = label.strip_prefix(hints.typed.as_str()) else { continue };
        let (x, y) = (area.x + 1 + n.col, area.y + row);
        if x >= right {
            continue;
        }
        // The number goes; the label takes its place.
        for dx in 0..n.width.min(right - x) {
            buf[(x + dx, y)].set_symbol(" ");
        }
        // In brackets where the number leaves room, as `[a]`: a label right after a link's
        // text ("docs[a]") reads apart from it, as the number did.
        let bracketed = label.len() + 2 <= usize::from(n.width);
        let room = |at: u16| usize::from(right.saturating_sub(at));
        let mut at = x;
        if bracketed {
            at = buf.set_stringn(at, y, "[", room(at), label_style).0;
        }
        at = buf.set_stringn(at, y, &hints.typed, room(at), typed_style).0;
        at = buf.set_stringn(at, y, rest, room(at), label_style).0;
        if bracketed {
            buf.set_stringn(at, y, "]", room(at), label_style);
        }
    }
}
