//! Polls and to-do lists drawn in a message, in place of their `/poll` or `/todo` text.

use super::common::clip;
use super::theme::Theme;
use crate::app::State;
use crate::app::widget::Widget;
use crate::content::sanitize;
use ratatui::text::{Line, Span};

/// How many voters an option names before "+N".
const NAMES: usize = 3;

pub(super) fn widget_lines(
    st: &State,
    t: &Theme,
    w: &Widget,
    selected: bool,
    width: u16,
) -> Vec<Line<'static>> {
    let width = width as usize;
    let mut out = Vec::new();
    match w {
        Widget::Poll(p) => {
            out.push(Line::styled(clip(&format!("  📊 {}", sanitize(&p.question)), width), t.bold));
            for (i, o) in p.options.iter().enumerate() {
                let mine = o.voters.contains(&st.data.me);
                let names: Vec<String> =
                    o.voters.iter().take(NAMES).map(|u| sanitize(st.data.user_name(*u))).collect();
                let more = o.voters.len().saturating_sub(NAMES);
                let who = match (names.is_empty(), more) {
                    (true, _) => String::new(),
                    (false, 0) => format!("  {}", names.join(", ")),
                    (false, n) => format!("  {} +{n}", names.join(", ")),
                };
                let number = if i < 9 { format!("{}", i + 1) } else { " ".into() };
                let head = format!(
                    "  {number} {} {:>2} {}",
                    if mine { "✓" } else { " " },
                    o.voters.len(),
                    sanitize(&o.text)
                );
                let style = if mine { t.highlight } else { ratatui::style::Style::new() };
                let head = clip(&head, width);
                let room = width.saturating_sub(crate::content::display_width(&head));
                out.push(Line::from(vec![Span::styled(head, style), Span::styled(clip(&who, room), t.dim)]));
            }
            if selected {
                out.push(Line::styled(clip("  1–9 vote (again: take the vote back)", width), t.dim));
            }
        }
        Widget::Todo(todo) => {
            let title = if todo.title.is_empty() { "Task list" } else { todo.title.as_str() };
            out.push(Line::styled(clip(&format!("  ☑ {}", sanitize(title)), width), t.bold));
            for (i, task) in todo.tasks.iter().enumerate() {
                let number = if i < 9 { format!("{}", i + 1) } else { " ".into() };
                let mark = if task.done { "[x]" } else { "[ ]" };
                let desc =
                    if task.desc.is_empty() { String::new() } else { format!(": {}", sanitize(&task.desc)) };
                let style = if task.done { t.dim } else { ratatui::style::Style::new() };
                out.push(Line::styled(
                    clip(&format!("  {number} {mark} {}{desc}", sanitize(&task.task)), width),
                    style,
                ));
            }
            if selected {
                out.push(Line::styled(clip("  1–9 tick or untick a task", width), t.dim));
            }
        }
    }
    out
}
