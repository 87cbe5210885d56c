//! The scheduled messages popup.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::State;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub(super) fn draw_scheduled(f: &mut Frame, st: &State, t: &Theme, selected: usize) {
    let area = centered(f.area(), 100, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block =
        Block::default().borders(Borders::ALL).title(" Scheduled messages — e edit, d delete, esc close ");
    let ids = crate::app::scheduled_in_order(st);
    if ids.is_empty() {
        f.render_widget(
            Paragraph::new(Line::styled("Nothing scheduled. Compose, then ctrl+s.", t.dim)).block(block),
            area,
        );
        return;
    }
    let d = &st.data;
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let Some(s) = d.lists.scheduled().get(id) else { continue };
        let to = match &s.to {
            crate::api::Recipient::Channel(c) => {
                format!("#{} > {}", sanitize(d.channels.name(*c)), sanitize(s.topic.as_deref().unwrap_or("")))
            }
            crate::api::Recipient::Users(u) => {
                format!(
                    "DM to {}",
                    u.iter().map(|x| sanitize(&d.partner_name(*x))).collect::<Vec<_>>().join(", ")
                )
            }
        };
        let when = st.tz.format(s.scheduled_delivery_timestamp, st.settings.clock.short());
        let state = if s.failed { Span::styled(" FAILED", t.error) } else { Span::raw("") };
        let style = if i == selected { t.selected } else { Style::new() };
        lines.push(Line::from(vec![
            Span::styled(clip(&format!("{when}  {to}"), width.saturating_sub(7)), style.patch(t.header)),
            state,
        ]));
        let first = s.content.lines().next().unwrap_or("");
        lines.push(Line::styled(clip(&format!("  {}", sanitize(first)), width), style));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}
