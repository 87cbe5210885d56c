//! The `:channels` popup: every channel the user can see, filtered as they type, with the
//! selected one's description below the list.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::{ChannelList, State};
use crate::content::{display_width, sanitize};
use crate::line::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

pub(super) fn draw_channels(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    query: &LineEditor,
    selected: usize,
    list: Option<&ChannelList>,
) {
    let area = centered(f.area(), 110, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let mut title = vec![Span::raw(" Channels: ")];
    title.extend(super::common::line_spans(query, (area.width as usize).saturating_sub(15), t));
    title.push(Span::raw(" "));
    let help = " enter open · ctrl+s join/leave · ctrl+o info · esc close ";
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title))
        .title_bottom(Line::styled(clip(help, area.width.saturating_sub(2) as usize), t.dim));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(list) = list else {
        f.render_widget(Paragraph::new(Line::styled("Loading channels…", t.dim)), inner);
        return;
    };
    if list.shown.is_empty() {
        let text =
            if list.all.is_empty() { "There are no channels you can see." } else { "No channel matches." };
        f.render_widget(Paragraph::new(Line::styled(text, t.dim)), inner);
        return;
    }
    // The selected channel's description under the list, when there is room.
    let detail_h: u16 = if inner.height >= 12 { 4 } else { 0 };
    let rows = Rect { height: inner.height - detail_h, ..inner };
    let h = rows.height as usize;
    let width = rows.width as usize;
    let start = selected.saturating_sub(h.saturating_sub(1));
    let entries: Vec<_> = list.shown.iter().filter_map(|i| list.all.get(*i)).collect();
    let name_w =
        entries.iter().map(|e| display_width(&sanitize(&e.channel.name)) + 1).max().unwrap_or(8).min(24);
    let lines: Vec<Line> = entries
        .iter()
        .enumerate()
        .skip(start)
        .take(h)
        .map(|(i, e)| {
            let c = &e.channel;
            let joined = st.data.channels.is_subscribed(c.stream_id);
            let mark = if joined { Span::styled("✓ ", t.ok) } else { Span::raw("  ") };
            let name = clip(&format!("#{}", sanitize(&c.name)), name_w);
            let pad = " ".repeat(name_w.saturating_sub(display_width(&name)));
            let count = c.subscriber_count.map_or_else(|| "  ?".to_owned(), |n| format!("{n:>3}"));
            let private = if c.invite_only { " private" } else { "" };
            let used = 2 + name_w + 1 + 3 + private.len() + 2;
            let style = if i == selected { t.selected } else { Style::new() };
            Line::from(vec![
                mark,
                Span::styled(format!("{name}{pad} "), style.patch(t.header)),
                Span::styled(count, style),
                Span::styled(private, style.patch(t.dim)),
                Span::styled(
                    format!("  {}", clip(&e.summary, width.saturating_sub(used))),
                    style.patch(t.dim),
                ),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), rows);
    if detail_h == 0 {
        return;
    }
    let Some(e) = list.shown.get(selected).and_then(|i| list.all.get(*i)) else { return };
    let c = &e.channel;
    let joined = st.data.channels.is_subscribed(c.stream_id);
    let who = c
        .subscriber_count
        .map_or_else(String::new, |n| format!("{n} subscriber{}", if n == 1 { "" } else { "s" }));
    let state = if joined { "you are in it" } else { "you are not in it: ctrl+s joins" };
    let head = Line::from(vec![
        Span::styled(format!("#{}", sanitize(&c.name)), t.header),
        Span::styled(format!(" · {who} · {state}"), t.dim),
    ]);
    let detail = Rect { y: rows.y + rows.height, height: detail_h, ..inner };
    let text = vec![head, Line::raw(e.summary.clone())];
    let rule = Block::default().borders(Borders::TOP).border_style(t.dim);
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).block(rule), detail);
}
