//! The `:settings` popup: the user's Zulip settings, each with its value and where it comes
//! from (the server, or a local override the config writes); enter changes the selected one.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::State;
use crate::app::zulip_settings::{ROWS, listed};
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub(super) fn draw_settings(f: &mut Frame, st: &State, t: &Theme, selected: usize) {
    let area = centered(f.area(), 110, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Your Zulip settings — enter changes one on the server, esc close ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = inner.width as usize;
    let label_width = (width / 2).min(52);
    let fit = (inner.height as usize).max(1);
    let start = selected.saturating_sub(fit - 1);
    let local = &st.settings.notifications;
    let lines: Vec<Line> = (start..ROWS.min(start + fit))
        .filter_map(|i| {
            let (label, value, from) = listed(st.data.user_settings(), local, i)?;
            let style = if i == selected { t.selected } else { Style::new() };
            let label = format!("{:<label_width$}", clip(&label, label_width));
            let value = sanitize(&value);
            let rest = width.saturating_sub(label_width + 1);
            let value_text = clip(&value, rest);
            let from_room = rest.saturating_sub(value_text.chars().count() + 3);
            Some(Line::from(vec![
                Span::styled(format!("{label} "), style.patch(t.header)),
                Span::styled(value_text, style),
                Span::styled(
                    if from.is_empty() || from_room < 4 {
                        String::new()
                    } else {
                        format!("  ({})", clip(&from, from_room))
                    },
                    style.patch(t.dim),
                ),
            ]))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
