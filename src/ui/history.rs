//! The edit history popup: each version of a message, as a word diff of the one before.

use super::common::{centered, scrolled_popup};
use super::theme::Theme;
use crate::api::MessageId;
use crate::app::State;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub(super) fn draw_history(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    id: MessageId,
    snaps: Option<&[crate::api::HistorySnapshot]>,
    scroll: u16,
) {
    let area = centered(f.area(), 100, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" Edit history of message {id} (esc to close) "));
    let Some(snaps) = snaps else {
        f.render_widget(Paragraph::new("Loading…").block(block), area);
        return;
    };
    let d = &st.data;
    let mut lines: Vec<Line> = Vec::new();
    for (i, s) in snaps.iter().enumerate() {
        let who = s.user_id.map_or("(unknown)".to_owned(), |u| d.user_name(u).to_owned());
        let what = if i == 0 { "Original" } else { "Edited" };
        lines.push(Line::from(vec![
            Span::styled(format!("{what} by {}", sanitize(&who)), t.header),
            Span::styled(format!("  {}", st.tz.format(s.timestamp, st.settings.clock.stamp())), t.dim),
        ]));
        if let Some(pt) = &s.prev_topic {
            lines.push(Line::from(format!("  topic: {} → {}", sanitize(pt), sanitize(&s.topic))));
        }
        if let (Some(ps), Some(ns)) = (s.prev_stream, s.stream) {
            lines.push(Line::from(format!(
                "  channel: #{} → #{}",
                sanitize(d.channels.name(ps)),
                sanitize(d.channels.name(ns))
            )));
        }
        if i == 0 || s.prev_content.is_some() {
            let prev = if i == 0 { None } else { snaps.get(i - 1).map(|p| p.content.as_str()) };
            lines.extend(diff_lines(prev, &s.content, t));
        }
        lines.push(Line::raw(""));
    }
    scrolled_popup(f, st, lines, block, area, scroll);
}

/// Word-level diff of Markdown, as lines: insertions green, deletions red and crossed out.
pub fn diff_lines(old: Option<&str>, new: &str, theme: &Theme) -> Vec<Line<'static>> {
    let (ins, del) = (theme.diff_insert, theme.diff_delete);
    let mut lines = vec![];
    let mut cur: Vec<Span<'static>> = vec![Span::raw("  ")];
    let push = |text: &str, style: Style, lines: &mut Vec<Line<'static>>, cur: &mut Vec<Span<'static>>| {
        let mut parts = text.split('\n').peekable();
        while let Some(p) = parts.next() {
            if !p.is_empty() {
                cur.push(Span::styled(sanitize(p), style));
            }
            if parts.peek().is_some() {
                lines.push(Line::from(std::mem::replace(cur, vec![Span::raw("  ")])));
            }
        }
    };
    match old {
        None => push(new, Style::new(), &mut lines, &mut cur),
        Some(old) => {
            let diff = similar::TextDiff::from_words(old, new);
            for ch in diff.iter_all_changes() {
                let style = match ch.tag() {
                    similar::ChangeTag::Equal => Style::new(),
                    similar::ChangeTag::Insert => ins,
                    similar::ChangeTag::Delete => del,
                };
                push(ch.value(), style, &mut lines, &mut cur);
            }
        }
    }
    lines.push(Line::from(cur));
    lines
}
