//! The scheduled messages popup, and the drafts popup (`:drafts`).

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

/// Where a draft goes, as a list names it: `#channel > topic` or `DM to Alice, Bob`.
pub(super) fn draft_place(st: &State, target: &crate::app::Target) -> String {
    let d = &st.data;
    match target {
        crate::app::Target::Channel { id, topic } => {
            format!("#{} > {}", sanitize(d.channels.name(*id)), sanitize(d.realm.topic_shown(topic)))
        }
        crate::app::Target::Dm(users) if users.is_empty() => "notes to self".to_owned(),
        crate::app::Target::Dm(users) => format!(
            "DM to {}",
            users.iter().map(|x| sanitize(&d.partner_name(*x))).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// `:drafts`: each conversation's draft, where it goes and its first line; the server's copies
/// marked.
pub(super) fn draw_drafts(f: &mut Frame, st: &State, t: &Theme, selected: usize) {
    let area = centered(f.area(), 100, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Drafts — enter open, d delete, esc close ");
    let all = crate::app::drafts_listed(st);
    if all.is_empty() {
        let empty = "No drafts. What you type in a compose box and leave unsent is kept here.";
        f.render_widget(Paragraph::new(Line::styled(empty, t.dim)).block(block), area);
        return;
    }
    let width = area.width.saturating_sub(2) as usize;
    let fit = (area.height.saturating_sub(2) as usize / 2).max(1);
    let start = selected.saturating_sub(fit - 1);
    let mut lines = Vec::new();
    for (i, d) in all.iter().enumerate().skip(start).take(fit) {
        let style = if i == selected { t.selected } else { Style::new() };
        let server = if d.on_server { Span::styled(" (on the server too)", t.dim) } else { Span::raw("") };
        lines.push(Line::from(vec![
            Span::styled(clip(&draft_place(st, &d.target), width.saturating_sub(20)), style.patch(t.header)),
            server,
        ]));
        let first = d.text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        lines.push(Line::styled(clip(&format!("  {}", sanitize(first)), width), style));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}
