//! The inbox: a heading per channel with its unread total, its topics under it (newest first),
//! then the direct-message conversations; only the rows on screen are drawn.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::keymap::{Action, Context};
use crate::app::{InboxGroup, InboxRow, InboxView, State};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// What a row says (indented under its heading) and its style.
fn label(st: &State, t: &Theme, view: &InboxView, row: &InboxRow) -> (String, Style) {
    let d = &st.data;
    match row {
        InboxRow::Group { group, .. } => {
            let fold = if view.collapsed.contains(group) { "▸" } else { "▾" };
            match group {
                InboxGroup::Channel(c) => {
                    let ch = d.channels.get(*c);
                    let lock = if ch.is_some_and(|c| c.invite_only) { "🔒" } else { "#" };
                    let style = if ch.is_some_and(|c| c.muted) { t.dim.patch(t.bold) } else { t.bold };
                    (format!("{fold} {lock}{}", sanitize(d.channels.name(*c))), style)
                }
                InboxGroup::Dms => (format!("{fold} Direct messages"), t.bold),
            }
        }
        InboxRow::Topic { topic, .. } => {
            let name = d.realm.topic_shown(topic);
            (format!("    {}", sanitize(name)), Style::new())
        }
        InboxRow::Dm { users, .. } => {
            let names = match users.as_slice() {
                [] => format!("{} (you)", d.user_name(d.me)),
                many => many.iter().map(|u| d.partner_name(*u)).collect::<Vec<_>>().join(", "),
            };
            (format!("    {}", sanitize(&names)), Style::new())
        }
    }
}

pub(super) fn draw_inbox(f: &mut Frame, st: &State, t: &Theme, view: &InboxView) {
    let area = centered(f.area(), 140, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let keys = &st.settings.keymap;
    let key = |a: Action| keys.keys_for(Context::Inbox, a).into_iter().next().unwrap_or_default();
    let help = format!(
        " j/k move · enter open · {} fold · {}/{} collapse/expand · esc close ",
        key(Action::InboxToggle),
        key(Action::InboxCollapse),
        key(Action::InboxExpand)
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Inbox ")
        .title_bottom(Line::styled(clip(&help, area.width.saturating_sub(2) as usize), t.dim));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if view.rows.is_empty() {
        f.render_widget(Paragraph::new(Line::styled("No unread messages", t.dim)), inner);
        return;
    }
    let h = inner.height as usize;
    let width = inner.width as usize;
    let start = view.selected.saturating_sub(h.saturating_sub(1));
    let lines: Vec<Line> = view
        .rows
        .iter()
        .enumerate()
        .skip(start)
        .take(h)
        .map(|(i, row)| {
            let (text, style) = label(st, t, view, row);
            let style = if i == view.selected { style.patch(t.selected) } else { style };
            let count = format!(" {}", row.unread());
            let text = clip(&text, width.saturating_sub(count.len()));
            let pad = " ".repeat(width.saturating_sub(display_width(&text) + count.len()));
            Line::from(vec![
                Span::styled(text, style),
                Span::styled(pad, style),
                Span::styled(count, style.patch(t.highlight)),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
