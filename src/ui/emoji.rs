//! The emoji picker popup.

use super::common::{centered, emoji_label};
use super::theme::Theme;
use crate::api::MessageId;
use crate::app::State;
use crate::content::sanitize;
use crate::line::LineEditor;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub(super) fn draw_emoji(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    id: MessageId,
    query: &LineEditor,
    matches: &[(String, String, String)],
    selected: usize,
) {
    let area = centered(f.area(), 50, f.area().height.saturating_sub(6).min(20));
    f.render_widget(Clear, area);
    let hint = " (enter toggles, esc closes) ";
    let room = (area.width as usize).saturating_sub(10 + hint.len()).max(8);
    let mut title = vec![ratatui::text::Span::raw(" React: ")];
    title.extend(super::common::line_spans(query, room, t));
    title.push(ratatui::text::Span::raw(hint));
    let block = Block::default()
        .borders(Borders::ALL)
        .title(super::common::clip_line(title, area.width.saturating_sub(2) as usize));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mine = |code: &str, kind: &str| reacted(st, id, code, kind);
    if matches.is_empty() {
        f.render_widget(Paragraph::new(Line::styled("No emoji match.", t.dim)), inner);
        return;
    }
    let h = inner.height as usize;
    let start = selected.saturating_sub(h.saturating_sub(1));
    let lines: Vec<Line> = matches
        .iter()
        .enumerate()
        .skip(start)
        .take(h)
        .map(|(i, (name, code, kind))| {
            // Custom and service emoji have no glyph in a terminal: mark them instead.
            let glyph = if kind == "unicode_emoji" { emoji_label(code, name, kind) } else { "◆".into() };
            let check = if mine(code, kind) { "  ✓ yours" } else { "" };
            let style = if i == selected { t.selected } else { Style::new() };
            Line::styled(format!("{glyph}  :{}:{check}", sanitize(name)), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// Has the user reacted to message `id` with this emoji (its code and type)?
pub(super) fn reacted(st: &State, id: MessageId, code: &str, kind: &str) -> bool {
    let me = st.data.me;
    st.data.messages.get(&id).is_some_and(|m| {
        m.reactions()
            .iter()
            .any(|r| r.user_id == me && r.emoji_code == code && r.reaction_type.as_str() == kind)
    })
}
