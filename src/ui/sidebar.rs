//! The channels pane: channels (under their folders' headings when some are in folders), their
//! topics when expanded, and the views above them.

use super::common::{HitMap, clip};
use super::theme::Theme;
use crate::app::{Focus, Section, SidebarRow, State};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

pub(super) fn draw_sidebar(f: &mut Frame, st: &State, area: Rect, hits: &mut HitMap, th: &Theme) {
    let focused = st.ui.focus == Focus::Sidebar;
    let block =
        Block::default().borders(Borders::RIGHT).border_style(if focused { th.accent } else { th.dim });
    let mut inner = block.inner(area);
    f.render_widget(block, area);
    inner = draw_orgs(f, st, inner, hits, th);
    // The filter in force, on the pane's first line.
    if !st.ui.sidebar.filter().is_empty() && inner.height > 1 {
        let line = format!("/{}", sanitize(st.ui.sidebar.filter()));
        let head = Rect { height: 1, ..inner };
        f.render_widget(Paragraph::new(Line::styled(clip(&line, inner.width as usize), th.accent)), head);
        inner = Rect { y: inner.y + 1, height: inner.height - 1, ..inner };
        if st.ui.sidebar.rows().is_empty() {
            f.render_widget(Paragraph::new(Line::styled("nothing matches", th.dim)), inner);
        }
    }
    let h = inner.height as usize;
    let sel = st.ui.sidebar.selected_index();
    let start = sel.saturating_sub(h.saturating_sub(1));
    hits.sidebar = inner;
    hits.sidebar_start = start;
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for (i, row) in st.ui.sidebar.rows().iter().enumerate().skip(start).take(h) {
        let Some(Label { label, count, style, dot, dot_count }) = row_label(st, th, row) else { continue };
        let lead = match dot {
            Some(dot) => vec![Span::raw("  "), dot, Span::raw(" ")],
            None if matches!(row, SidebarRow::Dm(_)) => vec![Span::raw("    ")],
            None => vec![],
        };
        let w = w.saturating_sub(lead.iter().map(|s| display_width(&s.content)).sum());
        let count_s = match count {
            0 if dot_count => " •".to_owned(),
            0 => String::new(),
            n => format!(" {n}"),
        };
        let label = clip(&label, w.saturating_sub(display_width(&count_s)));
        let pad = w.saturating_sub(display_width(&label) + display_width(&count_s));
        let mut style = style;
        if i == sel && focused {
            style = style.patch(th.selected);
        } else if i == sel {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        let mut spans = lead;
        spans.extend([
            Span::styled(label, style),
            Span::styled(" ".repeat(pad), style),
            Span::styled(count_s, style.patch(th.highlight)),
        ]);
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// What a row of the pane says, before it is fitted to the width.
struct Label<'a> {
    label: String,
    count: usize,
    style: Style,
    /// A presence dot before a one-to-one conversation.
    dot: Option<Span<'a>>,
    /// Unread messages shown as a dot instead of a number.
    dot_count: bool,
}

/// A row's label, count and style; `None` for a row whose channel or view is gone.
fn row_label<'a>(st: &'a State, th: &Theme, row: &SidebarRow) -> Option<Label<'a>> {
    let d = &st.data;
    let mut dot = None;
    let mut dot_count = false;
    let (label, count, style) = match row {
        SidebarRow::AllMessages => ("All messages".to_owned(), 0, th.bold),
        SidebarRow::AllDms => ("Direct messages".to_owned(), d.unread.dm_total(), th.bold),
        // How many, where the user's `starred_message_counts` asks for it.
        SidebarRow::Starred => {
            let n =
                if d.user_settings().starred_message_counts == Some(true) { d.starred().len() } else { 0 };
            ("Starred".to_owned(), n, Style::new())
        }
        SidebarRow::Mentions => ("Mentions".to_owned(), d.unread.mentions(), Style::new()),
        SidebarRow::Channel(c) => {
            let ch = d.channels.get(*c)?;
            let arrow = if st.ui.sidebar.expanded() == Some(*c) { "▾" } else { "▸" };
            let pin = if ch.pinned { "^" } else { "" };
            let lock = if ch.invite_only { "🔒" } else { "#" };
            let style = if ch.muted { th.dim } else { Style::new() };
            // A number where the user's `web_stream_unreads_count_display_policy` shows one
            // (2, the default: unmuted channels; 3: none; 1: all), else a dot for unread.
            // (1 counts a muted channel's muted topics too; 2 and a server without the
            // setting count its unmuted topics, a dot saying the rest).
            let any = d.unread.topics_in(*c).is_some_and(|t| !t.is_empty());
            let n = match d.user_settings().web_stream_unreads_count_display_policy {
                Some(3) => 0,
                Some(1) => d.unread.topics_in(*c).map_or(0, |topics| {
                    topics.iter().map(|t| d.unread.count(&crate::app::Conv::Topic(*c, t.clone()))).sum()
                }),
                _ => d.channel_unread(*c),
            };
            dot_count = n == 0 && any && d.user_settings().web_stream_unreads_count_display_policy.is_some();
            (format!("{arrow}{lock}{}{pin}", sanitize(&ch.name)), n, style)
        }
        SidebarRow::Topic(c, t) => {
            let policy = d.policy(*c, t);
            let muted = d.topic_muted(*c, t);
            let mark = match policy {
                crate::api::VisibilityPolicy::Followed => "⚑",
                crate::api::VisibilityPolicy::Muted => "✕",
                crate::api::VisibilityPolicy::Unmuted => "○",
                _ => " ",
            };
            let name = sanitize(d.realm.topic_shown(t));
            let n = if muted { 0 } else { d.topic_unread(*c, t) };
            (format!("  {mark}{name}"), n, if muted { th.dim } else { Style::new() })
        }
        SidebarRow::Dm(users) => {
            let names: Vec<String> = match users.as_slice() {
                [] => vec![format!("{} (you)", d.user_name(d.me))],
                [one] => {
                    dot = Some(super::people::presence_glyph(st, d.activity(*one, st.now), th));
                    vec![d.partner_name(*one).into_owned()]
                }
                many => many.iter().map(|u| d.partner_name(*u).into_owned()).collect(),
            };
            let n = d.unread.in_conv(&crate::app::Conv::Dm(users.clone())).map_or(0, |s| s.len());
            (sanitize(&names.join(", ")), n, Style::new())
        }
        SidebarRow::View(fragment) => {
            let v = d.lists.views().iter().find(|v| v.fragment == *fragment)?;
            let mark = if v.is_pinned { "◆ " } else { "◇ " };
            let style = if v.is_pinned { Style::new() } else { th.dim };
            (format!("{mark}{}", sanitize(&crate::app::view_name(v))), 0, style)
        }
        SidebarRow::Header(section) => {
            let name = match section {
                Section::Pinned => "PINNED CHANNELS".to_owned(),
                Section::Folder(f) => d
                    .channels
                    .folder(*f)
                    .map_or_else(|| "FOLDER".to_owned(), |f| sanitize(&f.name).to_uppercase()),
                Section::Other => "OTHER CHANNELS".to_owned(),
            };
            (name, 0, th.dim.add_modifier(Modifier::BOLD))
        }
    };
    Some(Label { label, count, style, dot, dot_count })
}

/// One row per organization when several are open, the one on screen marked, each with its
/// unread count (`@` when some mention the user); what is left of `area` below them.
fn draw_orgs(f: &mut Frame, st: &State, area: Rect, hits: &mut HitMap, th: &Theme) -> Rect {
    let orgs = &st.ui.orgs;
    // Rows for the organizations, and at least two lines left for the pane's own.
    if !orgs.several() || area.height < orgs.rows.len() as u16 + 3 {
        hits.orgs = Rect::default();
        return area;
    }
    let w = area.width as usize;
    let lines: Vec<Line> = orgs
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let on = i == orgs.active;
            let mark = if on { "▶ " } else { "  " };
            let count = match (&r.closed, r.unread) {
                (Some(_), _) => " closed".to_owned(),
                (None, 0) => String::new(),
                (None, n) if r.mentions > 0 => format!(" @{n}"),
                (None, n) => format!(" {n}"),
            };
            let lost = if r.offline && r.closed.is_none() { " ⚠" } else { "" };
            let label = orgs.label(i).unwrap_or_default();
            let name = clip(&format!("{mark}{}{lost}", sanitize(&label)), w.saturating_sub(count.len()));
            let pad = w.saturating_sub(display_width(&name) + count.len());
            let style = if r.closed.is_some() {
                th.dim
            } else if on {
                th.accent.add_modifier(Modifier::BOLD)
            } else {
                Style::new()
            };
            Line::from(vec![
                Span::styled(name, style),
                Span::styled(" ".repeat(pad), style),
                Span::styled(count, style.patch(th.highlight)),
            ])
        })
        .collect();
    let n = lines.len() as u16;
    hits.orgs = Rect { height: n, ..area };
    f.render_widget(Paragraph::new(lines), hits.orgs);
    let rule = Rect { y: area.y + n, height: 1, ..area };
    f.render_widget(Paragraph::new(Line::styled("─".repeat(w), th.dim)), rule);
    Rect { y: area.y + n + 1, height: area.height - n - 1, ..area }
}
