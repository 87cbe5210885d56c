//! The people pane: presence, names and status.

use super::common::{clip, emoji_label};
use super::theme::Theme;
use crate::app::{Activity, Focus, State};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

pub(super) fn draw_people(f: &mut Frame, st: &State, t: &Theme, area: Rect) {
    let focused = st.ui.focus == Focus::People;
    let title = if st.ui.people.filter().is_empty() {
        " People ".to_owned()
    } else {
        format!(" People /{} ", sanitize(st.ui.people.filter()))
    };
    let block = Block::default()
        .borders(Borders::LEFT)
        .border_style(if focused { t.accent } else { t.dim })
        .title(clip(&title, area.width.saturating_sub(1) as usize));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let w = inner.width as usize;
    let h = inner.height as usize;
    if st.ui.people.list().is_empty() && !st.ui.people.filter().is_empty() {
        f.render_widget(Paragraph::new(Line::styled("nobody matches", t.dim)), inner);
        return;
    }
    // Only the rows that fit are drawn, scrolled to keep the selection in view.
    let sel = st.ui.people.selected_index();
    let start = sel.saturating_sub(h.saturating_sub(1));
    let lines: Vec<Line> = st
        .ui
        .people
        .list()
        .iter()
        .enumerate()
        .skip(start)
        .take(h)
        .filter_map(|(i, id)| Some((i, st.data.users.get(*id)?)))
        .map(|(i, u)| {
            let activity = st.data.activity(u.id, st.now);
            let s = &u.status;
            let emoji = if s.emoji_name.is_empty() {
                String::new()
            } else {
                format!("{} ", emoji_label(&s.emoji_code, &s.emoji_name, &s.reaction_type))
            };
            let status = if s.status_text.is_empty() && emoji.is_empty() {
                String::new()
            } else {
                format!(" {emoji}{}", sanitize(&s.status_text))
            };
            let name = sanitize(&u.full_name);
            let offline = activity == Activity::Offline && !st.settings.low_bandwidth;
            let mut name_style = if offline { t.dim } else { Style::new() };
            if i == sel && focused {
                name_style = name_style.patch(t.selected);
            }
            let room = w.saturating_sub(2);
            let name = clip(&name, room);
            let status = clip(&status, room.saturating_sub(display_width(&name)));
            Line::from(vec![
                presence_glyph(st, activity, t),
                Span::raw(" "),
                Span::styled(name, name_style),
                Span::styled(status, t.dim),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// Presence dot of a person: `·` when presence is not fetched (`--low-bandwidth`), never a
/// claim that they are offline.
pub fn presence_glyph(st: &State, a: Activity, theme: &Theme) -> Span<'static> {
    if st.settings.low_bandwidth { Span::styled("·", theme.dim) } else { activity_glyph(a, theme) }
}

/// Presence dot for the people list.
pub fn activity_glyph(a: Activity, theme: &Theme) -> Span<'static> {
    match a {
        Activity::Active => Span::styled("●", theme.ok),
        Activity::Idle => Span::styled("●", theme.idle),
        Activity::Offline => Span::styled("○", theme.dim),
    }
}
