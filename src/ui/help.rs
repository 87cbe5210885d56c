//! The help popup: the keys of the current context, then the palette's commands.

use super::common::{centered, scrolled_popup};
use super::theme::Theme;
use crate::app::keymap::Context;
use crate::app::{Focus, State};
use crate::content::display_width;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

pub(super) fn draw_help(f: &mut Frame, st: &State, t: &Theme, scroll: u16) {
    let ctx = if st.ui.compose.is_some() {
        Context::Compose
    } else if st.ui.focus == Focus::Sidebar {
        Context::Sidebar
    } else if st.ui.focus == Focus::People {
        Context::People
    } else {
        Context::Messages
    };
    let rows = st.settings.keymap.help(ctx);
    let key_w = rows.iter().map(|(k, _)| display_width(k)).max().unwrap_or(4);
    let mut lines: Vec<Line> = rows
        .into_iter()
        .map(|(k, d)| Line::from(vec![Span::styled(format!("{k:<key_w$}  "), t.header), Span::raw(d)]))
        .collect();
    // The palette's commands come after the keys: say so at the top.
    let mut head = vec![
        Line::from(vec![
            Span::styled("Commands: ", t.header),
            Span::raw("press : for the command palette (tab completes); they are listed after the keys."),
        ]),
        Line::styled("g/home top, G/end the end (the commands), j/k and space/pgup scroll", t.dim),
        Line::raw(""),
    ];
    // What the channels pane's marks mean: first when help is opened there, else after the keys.
    let mut marks = channel_marks(t);
    if ctx == Context::Sidebar {
        head.append(&mut marks);
        head.push(Line::raw(""));
        head.append(&mut lines);
    } else {
        head.append(&mut lines);
        head.push(Line::raw(""));
        head.append(&mut marks);
    }
    let mut lines = head;
    // The palette's commands, from the same table that completes them.
    lines.push(Line::raw(""));
    lines.push(Line::styled("Commands (press : then tab to complete)", t.header));
    for (name, _, what) in crate::app::command::COMMANDS {
        let args = crate::app::command::args(name, st.data.realm.feature_level);
        lines.push(Line::from(vec![
            Span::styled(format!(":{name} {args}"), t.header),
            Span::raw(format!("  {what}")),
        ]));
    }
    let area = centered(f.area(), 90, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Keys (esc to close) ");
    scrolled_popup(f, st, lines, block, area, scroll);
}

/// The legend of the channels pane's marks (as `sidebar.rs` draws them).
pub(super) fn channel_marks(t: &Theme) -> Vec<Line<'static>> {
    // Padded by display width: 🔒 takes two columns.
    let row = |mark: &'static str, what: &'static str| {
        let pad = " ".repeat(6usize.saturating_sub(display_width(mark)));
        Line::from(vec![Span::styled(format!("  {mark}{pad}"), t.header), Span::raw(what)])
    };
    vec![
        Line::styled("Marks in the channels pane", t.header),
        row("▸ ▾", "a channel's topics hidden / shown (enter)"),
        row("# 🔒", "a public / private channel"),
        row("^", "after a channel's name: pinned to the top (p in channel info)"),
        row("ABC", "a heading: the pinned channels, a channel folder, the other channels"),
        row("⚑ ✕ ○", "a topic you follow / muted / unmuted (in a muted channel)"),
        row("dim", "a muted channel or topic"),
        row("◆ ◇", "a pinned / other saved view"),
        row("● ○", "before a one-to-one DM: active or idle (by colour) / offline"),
        row("N", "at the right: unread messages"),
    ]
}
