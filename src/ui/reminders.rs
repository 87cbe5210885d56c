//! The reminders popup: the user's reminders by delivery time — when, which message (its
//! conversation and the start of its text), the note.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::State;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Rows a reminder takes at most: when and where, the text, the note.
const ROWS: usize = 3;

pub(super) fn draw_reminders(f: &mut Frame, st: &State, t: &Theme, selected: usize) {
    let area = centered(f.area(), 100, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Reminders — d delete, esc close ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(list) = st.data.lists.reminders() else {
        f.render_widget(Paragraph::new(Line::styled("Loading reminders…", t.dim)), inner);
        return;
    };
    if list.is_empty() {
        let empty = "No reminders. Select a message, then :remind WHEN [NOTE] (in 2h, tomorrow 9:00, …).";
        f.render_widget(Paragraph::new(Line::styled(clip(empty, inner.width as usize), t.dim)), inner);
        return;
    }
    let width = inner.width as usize;
    // Only the reminders that fit, the selected one among them.
    let fit = (inner.height as usize / ROWS).max(1);
    let start = selected.saturating_sub(fit - 1);
    let mut lines = Vec::new();
    for (i, r) in list.iter().enumerate().skip(start).take(fit) {
        let style = if i == selected { t.selected } else { Style::new() };
        let when = st.tz.format(r.scheduled_delivery_timestamp, st.settings.clock.short());
        let held = st.data.messages.get(&r.reminder_target_message_id);
        let place = match held {
            Some(m) => super::recent::title(st, &crate::app::conversation(&st.data, m)),
            None => r.place().unwrap_or_else(|| "a message not loaded here".to_owned()),
        };
        let failed = if r.failed { Span::styled(" FAILED", t.error) } else { Span::raw("") };
        lines.push(Line::from(vec![
            Span::styled(
                clip(&sanitize(&format!("{when}  {place}")), width.saturating_sub(7)),
                style.patch(t.header),
            ),
            failed,
        ]));
        let text = crate::app::reminder_excerpt(st, r, width);
        lines.push(Line::styled(clip(&format!("  {}", sanitize(&text)), width), style));
        if let Some(note) = r.note() {
            lines.push(Line::styled(clip(&format!("  note: {}", sanitize(note)), width), style.patch(t.dim)));
        }
    }
    f.render_widget(Paragraph::new(lines), inner);
}
