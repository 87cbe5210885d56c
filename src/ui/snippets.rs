//! The saved snippets popup (`:snippets`): each snippet's title and the start of its text, the
//! filter line when there is one, the selected snippet's text below the list.

use super::common::{centered, clip, line_spans};
use super::theme::Theme;
use crate::app::State;
use crate::content::{display_width, sanitize};
use crate::line::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// The most of a text's start read for its row (the row is narrower).
const START_CHARS: usize = 300;

/// A text on one line: line breaks as spaces, at most [`START_CHARS`] characters read.
pub(super) fn one_line(text: &str) -> String {
    let start: String = text.chars().take(START_CHARS).map(|c| if c == '\n' { ' ' } else { c }).collect();
    sanitize(start.trim())
}

pub(super) fn draw_snippets(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    query: &LineEditor,
    filtering: bool,
    selected: usize,
    shown: Option<&[i64]>,
) {
    let area = centered(f.area(), 100, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let mut title = vec![Span::raw(" Saved snippets ")];
    if filtering {
        title.push(Span::raw("— filter: "));
        title.extend(line_spans(query, (area.width as usize).saturating_sub(30), t));
        title.push(Span::raw(" "));
    } else if !query.text().is_empty() {
        title.push(Span::styled(clip(&format!("— filter: {} ", query.text()), 40), t.dim));
    }
    let help = if filtering {
        " type to filter · ↑/↓ move · enter insert · esc back to the list "
    } else {
        " enter insert · a save the compose text · d delete · / filter · esc close "
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title))
        .title_bottom(Line::styled(clip(help, area.width.saturating_sub(2) as usize), t.dim));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let (Some(shown), Some(all)) = (shown, st.data.lists.snippets()) else {
        f.render_widget(Paragraph::new(Line::styled("Loading saved snippets…", t.dim)), inner);
        return;
    };
    if shown.is_empty() {
        let text = if all.is_empty() {
            "No saved snippets yet: write one in the compose box, then a (here) saves it."
        } else {
            "No snippet matches."
        };
        f.render_widget(Paragraph::new(Line::styled(text, t.dim)).wrap(Wrap { trim: true }), inner);
        return;
    }
    // The selected snippet's text under the list, when there is room.
    let detail_h: u16 = if inner.height >= 12 { 5 } else { 0 };
    let rows = Rect { height: inner.height - detail_h, ..inner };
    let h = rows.height as usize;
    let width = rows.width as usize;
    let start = selected.saturating_sub(h.saturating_sub(1));
    let visible: Vec<(usize, &crate::api::SavedSnippet)> =
        shown.iter().enumerate().skip(start).take(h).filter_map(|(i, id)| Some((i, all.get(id)?))).collect();
    let title_w = visible.iter().map(|(_, s)| display_width(&sanitize(&s.title))).max().unwrap_or(8).min(24);
    let lines: Vec<Line> = visible
        .iter()
        .map(|(i, s)| {
            let style = if *i == selected { t.selected } else { Style::new() };
            let name = clip(&sanitize(&s.title), title_w);
            let pad = " ".repeat(title_w.saturating_sub(display_width(&name)));
            let text = clip(&one_line(&s.content), width.saturating_sub(title_w + 3));
            Line::from(vec![
                Span::styled(format!(" {name}{pad}  "), style.patch(t.header)),
                Span::styled(text, style.patch(t.dim)),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), rows);
    if detail_h == 0 {
        return;
    }
    let Some(s) = shown.get(selected).and_then(|id| all.get(id)) else { return };
    let detail = Rect { y: rows.y + rows.height, height: detail_h, ..inner };
    let mut text = vec![Line::styled(sanitize(&s.title), t.header)];
    // The first lines of its text, as it will be inserted (Markdown), no more than fit.
    let room = usize::from(detail_h.saturating_sub(2));
    text.extend(s.content.lines().take(room).map(|l| Line::raw(sanitize(l))));
    let rule = Block::default().borders(Borders::TOP).border_style(t.dim);
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }).block(rule), detail);
}
