//! The screen-reader mode (`--screen-reader`, `screen_reader = true`): one column, the focused
//! pane (channels, messages, people, the compose box) or the open popup filling the screen,
//! drawn from the same state as the default view so every key works unchanged.
//!
//! - plain text: no borders, rules or box-drawing characters (nothing in U+2500–U+259F reaches
//!   the screen: what the compose box's frame or a laid-out text would draw there is blanked);
//!   every popup is rows of words of its own (`popups.rs`, `list_popups.rs`, `text_popups.rs`):
//!   a heading saying what it is and which keys work, then one row per item;
//! - nothing that moves by itself: no spinner, no countdown — the status row is one plain line
//!   that changes only when the state does;
//! - every mark a word (`unread 3`, `muted`, `starred`, `edited`, `mentioned you`), a message one
//!   run of text (who, when, where, then the text, its links as `link 1: docs (good.example)`);
//! - the terminal's cursor on the focused row after every frame (a list's or a popup's selected
//!   row, a text popup's first row of text, a message's first row, the compose box's or the
//!   prompt's cursor), where screen readers look;
//! - lists keep their scroll while the selection stays on screen, and only the selected row is
//!   marked, so moving the selection repaints two rows.

mod list_popups;
mod lists;
mod messages;
mod popups;
mod rows;
mod text_popups;

use super::common::{HitMap, RenderCache};
use super::theme::Theme;
use crate::app::{Focus, Popup, PromptKind, State};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use rows::{Pane, plain_row};

/// Draw the whole screen in the screen-reader mode.
pub(super) fn draw(f: &mut Frame, st: &State, cache: &mut RenderCache) {
    let area = f.area();
    st.ui.popup_bottom.set(None);
    let theme = cache.theme(st.settings.theme);
    let t = &*theme;
    cache.hits = HitMap::default();
    if area.height < 2 || area.width < 2 {
        return;
    }
    let main = Rect { height: area.height - 1, ..area };
    let status = Rect { y: area.bottom() - 1, height: 1, ..area };
    let popup = st.ui.popup.as_ref().filter(|p| !matches!(p, Popup::Hints(_)));
    // The start of a row the view says (its first when it says none).
    let at_row = |row: Option<u16>| Position { x: main.x, y: row.unwrap_or(main.y) };
    let cursor = match popup {
        Some(p) => {
            let mut pane = Pane { t, memory: &mut cache.reader, hits: &mut cache.hits };
            at_row(draw_popup(f, st, &mut pane, main, p))
        }
        None if st.ui.compose.is_some() => {
            super::compose::draw_compose(f, st, t, cache, main);
            reversed_cell(f.buffer_mut(), main).unwrap_or(Position { x: main.x, y: main.y + 1 })
        }
        None => {
            let mut pane = Pane { t, memory: &mut cache.reader, hits: &mut cache.hits };
            at_row(match st.ui.focus {
                Focus::Sidebar => lists::draw_channels(f, st, &mut pane, main),
                Focus::People => lists::draw_people(f, st, &mut pane, main),
                Focus::Messages => messages::draw_messages(f, st, &mut pane, main),
            })
        }
    };
    // A prompt being typed has the focus.
    let cursor = draw_status(f, st, t, status).unwrap_or(cursor);
    blank_box_drawing(f.buffer_mut());
    super::clusters::cut_wide(f.buffer_mut());
    super::clusters::guard_clusters(f.buffer_mut(), &mut cache.clusters);
    f.set_cursor_position(cursor);
}

/// Is `c` a box-drawing or block character (U+2500–U+259F), which screen readers speak?
pub fn is_box_drawing(c: char) -> bool {
    ('\u{2500}'..='\u{259F}').contains(&c)
}

/// Blank every cell that would draw a box-drawing or block character (a popup's frame, a code
/// block's or a table's rules, a picture drawn in half-blocks), and let none blink.
fn blank_box_drawing(buf: &mut Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if let Some(cell) = buf.cell_mut((x, y)) {
                if cell.symbol().chars().any(is_box_drawing) {
                    cell.set_symbol(" ");
                }
                // Nothing blinks either.
                cell.modifier.remove(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK);
            }
        }
    }
}

/// The first cell of `area` drawn reversed (the selection's and the editors' cursor's style).
fn reversed_cell(buf: &Buffer, area: Rect) -> Option<Position> {
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if buf.cell((x, y)).is_some_and(|c| c.modifier.contains(Modifier::REVERSED)) {
                return Some(Position { x, y });
            }
        }
    }
    None
}

/// The open popup filling `area`, as rows of words; the row the cursor goes to (its
/// selection's, else its first row of text).
fn draw_popup(f: &mut Frame, st: &State, pane: &mut Pane, area: Rect, popup: &Popup) -> Option<u16> {
    use list_popups::SnippetsShown;
    use text_popups::ChannelShown;
    match popup {
        Popup::Inbox(view) => popups::draw_inbox(f, st, pane, area, view),
        Popup::Recent { selected, rows } => {
            popups::draw_recent(f, st, pane, area, *selected, rows.as_deref())
        }
        Popup::Channels { query, selected, list } => {
            popups::draw_channel_list(f, st, pane, area, (query.text(), *selected), list.as_ref())
        }
        Popup::Help { scroll } => text_popups::draw_help(f, st, pane, area, *scroll),
        Popup::EditHistory { message_id, snapshots, scroll } => {
            text_popups::draw_history(f, st, pane, area, (*message_id, *scroll), snapshots.as_deref())
        }
        Popup::MessageInfo { message_id, scroll } => {
            text_popups::draw_info(f, st, pane, area, (*message_id, *scroll))
        }
        Popup::ChannelInfo { channel, details, email, scroll, .. } => {
            let shown = ChannelShown {
                channel: *channel,
                details: details.as_deref(),
                email: email.as_ref(),
                scroll: *scroll,
            };
            text_popups::draw_channel_info(f, st, pane, area, shown)
        }
        Popup::Profile { user, details, scroll } => {
            text_popups::draw_profile(f, st, pane, area, (*user, *scroll), details.as_deref())
        }
        Popup::Scheduled { selected } => list_popups::draw_scheduled(f, st, pane, area, *selected),
        Popup::Drafts { selected } => list_popups::draw_drafts(f, st, pane, area, *selected),
        Popup::Emoji { message_id, query, matches, selected } => {
            list_popups::draw_emoji(f, st, pane, area, (*message_id, query), matches, *selected)
        }
        Popup::Image { message_id, srcs, shown } => {
            list_popups::draw_image(f, st, pane, area, *message_id, (srcs, *shown))
        }
        Popup::Reminders { selected } => list_popups::draw_reminders(f, st, pane, area, *selected),
        Popup::Settings { selected } => list_popups::draw_settings(f, st, pane, area, *selected),
        Popup::Uploads { selected, list } => {
            list_popups::draw_uploads(f, st, pane, area, *selected, list.as_ref())
        }
        Popup::Snippets { query, filtering, selected, shown } => {
            let shown =
                SnippetsShown { query, filtering: *filtering, selected: *selected, shown: shown.as_deref() };
            list_popups::draw_snippets(f, st, pane, area, shown)
        }
        // Drawn in the messages pane, over the links' numbers (filtered out above).
        Popup::Hints(_) => None,
    }
}

/// The status row: the prompt being typed (the cursor in it: returned), or the news in one
/// plain line — no countdown, no spinner: it changes when the state does, not with the clock.
fn draw_status(f: &mut Frame, st: &State, t: &Theme, area: Rect) -> Option<Position> {
    let w = area.width as usize;
    if let Some(p) = &st.ui.prompt {
        let label = match p.kind {
            PromptKind::Confirm => st.ui.confirm.as_ref().map(|(q, _)| format!("{q} ")).unwrap_or_default(),
            PromptKind::Command => "Command: ".to_owned(),
            kind => super::status::prompt_label(st, kind),
        };
        let label = super::common::clip(&label, w.saturating_sub(10).max(w / 2));
        let room = w.saturating_sub(display_width(&label)).max(1);
        let v = p.line.view(room);
        let mut x = display_width(&label);
        let mut spans = vec![Span::styled(label, t.header)];
        if v.cut_left {
            spans.push(Span::raw("…"));
            x += 1;
        }
        x += display_width(&v.before);
        spans.extend([Span::raw(v.before), Span::raw(v.at), Span::raw(v.after)]);
        if v.cut_right {
            spans.push(Span::raw("…"));
        }
        let c = &st.ui.completion;
        if !c.suggestions.is_empty() {
            spans.push(Span::raw(format!("  tab: {}", super::compose::candidates(&c.suggestions, c.cycle))));
        }
        f.render_widget(Paragraph::new(Line::from(spans)), area);
        return Some(Position { x: area.x + (x as u16).min(area.width.saturating_sub(1)), y: area.y });
    }
    plain_row(f, t, area, 0, &news(st), false);
    None
}

/// What the status row says, without anything that counts by itself.
pub(super) fn news(st: &State) -> String {
    if let Some(o) = st.ui.conn.offline() {
        return sanitize(&format!("offline: {}; retrying; drafts are kept", o.why));
    }
    if st.ui.conn.unanswered_since().is_some() {
        return "the server is not answering; still waiting; drafts are kept".to_owned();
    }
    if let Some(s) = &st.ui.status {
        return sanitize(&if s.error { format!("error: {}", s.text) } else { s.text.clone() });
    }
    let typing = super::status::typing_line(st);
    if !typing.is_empty() {
        return sanitize(&typing);
    }
    "? help".to_owned()
}
