//! The help popup: the keys of the current context, then the palette's commands.

use super::common::{centered, hanging, scrolled_popup};
use super::theme::Theme;
use crate::app::keymap::Context;
use crate::app::{Focus, State};
use crate::content::display_width;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

/// The keys the help lists: those of the compose box or of the focused pane.
pub(super) fn context(st: &State) -> Context {
    if st.ui.compose.is_some() {
        Context::Compose
    } else if st.ui.focus == Focus::Sidebar {
        Context::Sidebar
    } else if st.ui.focus == Focus::People {
        Context::People
    } else {
        Context::Messages
    }
}

/// What the help says first: where the commands are, the keys that move in it.
pub(super) const COMMANDS_HEAD: &str =
    "press : for the command palette (tab completes); they are listed after the keys.";

/// Who the user is and where: "Maya Lindqvist in Acme" (with `email`: "Maya Lindqvist
/// (maya@example.com) in Acme"), the organization by the name its server gives it, else its
/// server's host.
pub(super) fn who(st: &State, email: bool) -> String {
    let realm = st.data.realm.name.trim();
    let org = if realm.is_empty() { crate::urls::host_of(&st.site) } else { realm.to_owned() };
    match st.data.users.get(st.data.me) {
        Some(u) if email => format!("{} ({}) in {org}", u.full_name, u.email),
        Some(u) => format!("{} in {org}", u.full_name),
        None => format!("in {org}"),
    }
}

pub(super) fn draw_help(f: &mut Frame, st: &State, t: &Theme, scroll: u16) {
    let ctx = context(st);
    let area = centered(f.area(), 90, f.area().height.saturating_sub(2));
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = key_rows(st, t, ctx, width);
    // The compose box's keys, where `?` is typed as text (f1 opens this help there).
    if ctx != Context::Compose {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Keys in the compose box (f1 there shows them)", t.header));
        lines.extend(key_rows(st, t, Context::Compose, width));
    }
    let modes = Line::from(vec![Span::styled("Modes: ", t.header), Span::raw(modes(st))]);
    // The palette's commands come after the keys: said at the top. A small screen's first page
    // holds keys, not the text about them: a short head, the modes after the keys.
    let small = area.height < 16 || width < 60;
    let mut head = if small {
        vec![Line::styled("j/k scroll · G the : commands", t.dim)]
    } else {
        vec![
            Line::from(vec![Span::styled("Commands: ", t.header), Span::raw(COMMANDS_HEAD)]),
            Line::styled("g/home top, G/end the end (the commands), j/k and space/pgup scroll", t.dim),
            modes.clone(),
            Line::raw(""),
        ]
    };
    // What the panes' marks mean: the channels pane's first when help is opened there, else
    // after the keys.
    let mut marks = channel_marks(t, width);
    if ctx == Context::Sidebar {
        head.append(&mut marks);
        head.push(Line::raw(""));
        head.append(&mut lines);
    } else {
        head.append(&mut lines);
        head.push(Line::raw(""));
        head.append(&mut marks);
    }
    head.push(Line::raw(""));
    head.extend(message_marks(st, t, width));
    let mut lines = head;
    if small {
        lines.push(Line::raw(""));
        lines.push(modes);
    }
    // The palette's commands, from the same table that completes them.
    lines.push(Line::raw(""));
    lines.push(Line::styled("Commands (press : then tab to complete)", t.header));
    for (name, _, what) in crate::app::command::COMMANDS {
        let args = crate::app::command::args(name, st.data.realm.server.feature_level);
        // What a command does follows its usage; wrapped, it goes on under it, indented.
        let head = format!(":{name} {args}  ");
        let w = display_width(&head);
        let first = width.saturating_sub(w);
        let (on_row, rest) = split_at_words(what, first);
        let mut row = vec![Line::from(vec![Span::styled(head, t.header), Span::raw(on_row.to_owned())])];
        if !rest.is_empty() {
            row.extend(hanging(Span::raw("    "), rest, 4, width));
        }
        lines.extend(row);
    }
    f.render_widget(Clear, area);
    let title = crate::content::sanitize(&format!(" Keys (esc to close) · {} ", who(st, false)));
    let block = Block::default().borders(Borders::ALL).title(title);
    scrolled_popup(f, st, lines, block, area, scroll);
}

/// The keys of a context, one per row (a long description wraps under itself).
fn key_rows(st: &State, t: &Theme, ctx: Context, width: usize) -> Vec<Line<'static>> {
    let rows = st.settings.keymap.help(ctx);
    let key_w = rows.iter().map(|(k, _)| display_width(k)).max().unwrap_or(4);
    rows.into_iter()
        .flat_map(|(k, d)| {
            let pad = " ".repeat(key_w.saturating_sub(display_width(&k)) + 2);
            hanging(Span::styled(format!("{k}{pad}"), t.header), d, key_w + 2, width)
        })
        .collect()
}

/// The legend of the messages pane's marks (as `messages.rs` draws them).
pub(super) fn message_marks(st: &State, t: &Theme, width: usize) -> Vec<Line<'static>> {
    use crate::app::keymap::Action;
    let key =
        |a: Action| st.settings.keymap.keys_for(Context::Messages, a).into_iter().next().unwrap_or_default();
    let row = |mark: &'static str, what: String| {
        let pad = " ".repeat(10usize.saturating_sub(display_width(mark)));
        hanging(Span::styled(format!("  {mark}{pad}"), t.header), &what, 12, width)
    };
    let rows = [
        row("▌", "at the left of a message: the selected one (the keys act on it)".into()),
        row("▏", "at the left of a message: unread".into()),
        row("★", "on the sender line: a starred message".into()),
        row("(edited)", format!("its text was edited ({}: each version)", key(Action::EditHistory))),
        row("(moved)", "only moved to another topic or channel".into()),
        row(
            "[1]",
            format!(
                "a link's number: its address is listed under the message ({} opens, {} labels)",
                key(Action::OpenLink),
                key(Action::LinkHints)
            ),
        ),
    ];
    let mut lines = vec![Line::styled("Marks in the messages pane", t.header)];
    lines.extend(rows.into_iter().flatten());
    lines
}

/// The legend of the channels pane's marks (as `sidebar.rs` draws them).
pub(super) fn channel_marks(t: &Theme, width: usize) -> Vec<Line<'static>> {
    // Padded by display width: 🔒 takes two columns.
    let row = |mark: &'static str, what: &'static str| {
        let pad = " ".repeat(6usize.saturating_sub(display_width(mark)));
        hanging(Span::styled(format!("  {mark}{pad}"), t.header), what, 8, width)
    };
    let rows = [
        row("▸ ▾", "a channel's topics hidden / shown (enter)"),
        row("# 🔒", "a public / private channel"),
        row("^", "after a channel's name: pinned to the top (p in channel info)"),
        row("ABC", "a heading: the pinned channels, a channel folder, the other channels"),
        row("⚑ ✕ ○", "a topic you follow / muted / unmuted (in a muted channel)"),
        row("dim", "a muted channel or topic"),
        row("◆ ◇", "a pinned / other saved view"),
        row("● ○", "before a one-to-one DM: active or idle (by colour) / offline"),
        row("N", "at the right: unread messages"),
    ];
    let mut lines = vec![Line::styled("Marks in the channels pane", t.header)];
    lines.extend(rows.into_iter().flatten());
    lines
}

/// The words of `text` that fit in `width` columns, and the rest.
fn split_at_words(text: &str, width: usize) -> (&str, &str) {
    let mut end = 0;
    for (i, _) in text.match_indices(' ').chain([(text.len(), "")]) {
        if display_width(&text[..i]) > width {
            break;
        }
        end = i;
    }
    (&text[..end], text[end..].trim_start())
}

/// The modes the client runs in, each with how to turn it on.
pub(super) fn modes(st: &State) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    format!(
        "low bandwidth {} (--low-bandwidth), screen reader {} (--screen-reader), explore {} (--explore); the README says what each does",
        on(st.settings.low_bandwidth),
        on(st.settings.screen_reader),
        on(st.settings.explore)
    )
}
