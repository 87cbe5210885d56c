//! The status line: the narrow's title and the latest news, or the prompt being typed.

use super::common::clip;
use super::compose::candidates;
use super::theme::Theme;
use crate::app::{Narrow, PromptKind, State};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// The title of a narrow, as the status line shows it.
pub fn narrow_title(st: &State, n: &Narrow) -> String {
    let d = &st.data;
    match n {
        Narrow::All => "All messages".into(),
        Narrow::Channel(c) => format!("#{}", d.channels.name(*c)),
        Narrow::Topic(c, t) => {
            let t = d.realm.topic_shown(t);
            format!("#{} > {}", d.channels.name(*c), t)
        }
        Narrow::AllDms => "Direct messages".into(),
        Narrow::Dm(u) if u.is_empty() => "Notes to self".into(),
        Narrow::Dm(u) => {
            format!("DM with {}", u.iter().map(|id| d.partner_name(*id)).collect::<Vec<_>>().join(", "))
        }
        Narrow::Starred => "Starred".into(),
        Narrow::Mentions => "Mentions".into(),
        Narrow::Search { query, .. } => format!("Search: {query}"),
    }
}

/// What the bottom takes: the prompt or the title and news on one row, and the rows above it
/// a long message wraps into (at most [`MAX_WRAPPED`]) when it does not fit beside them — a long
/// banner wraps rather than hiding its fix.
struct Bottom {
    /// What wraps above the last row (status text), and its style.
    above: Option<(String, Style)>,
    /// Beside the prompt or the title, on the last row.
    aside: Option<(String, Style)>,
}

/// The most rows a wrapped message takes above the last row.
const MAX_WRAPPED: u16 = 3;

pub(super) fn prompt_label(st: &State, kind: PromptKind) -> String {
    match kind {
        PromptKind::Search => "Search: ".into(),
        PromptKind::OpenLink => "Open link number: ".into(),
        PromptKind::CopyCode => "Copy code block number: ".into(),
        PromptKind::AttachPath => "Attach file (path): ".into(),
        PromptKind::FilterChannels => "Filter channels (enter keeps, esc clears): ".into(),
        PromptKind::FilterPeople => "Filter people (enter keeps, esc clears): ".into(),
        PromptKind::ChannelTopic => "Channel>topic (or @name for a DM): ".into(),
        PromptKind::DmRecipients => "DM to (names or emails, comma-separated): ".into(),
        PromptKind::Command => ":".into(),
        PromptKind::ScheduleTime => "Send at (in 2h, tomorrow 9:00, 17:30): ".into(),
        PromptKind::Confirm => st.ui.confirm.as_ref().map(|(q, _)| format!("{q} ")).unwrap_or_default(),
        PromptKind::SnippetTitle => "Title of the new snippet: ".into(),
        PromptKind::RenameTopic { mode } => {
            format!("Rename topic ({}; tab changes): ", PromptKind::rename_scope(mode))
        }
    }
}

/// The narrow's title with what qualifies it (organization, explore, last session, insecure), in
/// at most `room` columns: the narrow's name is cut, never what qualifies it.
fn title(st: &State, room: usize) -> String {
    let mut before = String::new();
    // Loud and first: any certificate is accepted, so anyone on the way can read along.
    if st.insecure {
        before.push_str("INSECURE TLS · ");
    }
    // Which organization, when several are open, and who the user is there.
    if let Some(org) = st.ui.orgs.own_name() {
        before.push_str(&sanitize(&org));
        if let Some(user) = st.ui.orgs.own_user() {
            before.push_str(" as ");
            before.push_str(&sanitize(user));
        }
        before.push_str(" · ");
    }
    let mut after = String::new();
    // Explore mode says so: nothing is being marked read.
    if st.settings.explore {
        after.push_str(" · explore");
    }
    // The last session, drawn from this machine until the server answers.
    if st.ui.conn.from_cache() {
        after.push_str(" · last session");
    }
    // Shown from the archive on this machine, not (yet) the server's answer; a search says
    // which answered, as each matches words its own way.
    let search = matches!(st.ui.narrow, Narrow::Search { .. });
    if let Some(who) = st.data.views.get(&st.ui.narrow).and_then(|v| v.answered_by(search)) {
        after.push_str(" · ");
        after.push_str(who);
    }
    let name = sanitize(&narrow_title(st, &st.ui.narrow));
    let kept = display_width(&before) + display_width(&after);
    clip(&format!("{before}{}{after}", clip(&name, room.saturating_sub(kept).max(1))), room)
}

/// The news on the right: offline, an error, a notice, who is typing, or the hint.
fn news(st: &State, t: &Theme) -> (String, Style) {
    let typing = typing_line(st);
    let (text, style) = match &st.ui.status {
        _ if st.ui.conn.is_offline() => {
            let o = st.ui.conn.offline().expect("checked");
            let secs = (o.retry_at - st.now).max(0);
            (format!("offline: {} — retrying in {secs} s · drafts are kept", o.why), t.error)
        }
        _ if st.ui.conn.unanswered_since().is_some() => {
            let secs = st.ui.conn.unanswered_since().map_or(0, |since| (st.now - since).max(0));
            (format!("the server is not answering ({secs} s) — still waiting · drafts are kept"), t.error)
        }
        Some(s) if s.error => (s.text.clone(), t.error),
        Some(s) => (s.text.clone(), Style::new()),
        _ if !typing.is_empty() => (typing, t.ok),
        None => ("? help".to_owned(), t.dim),
    };
    (sanitize(&text), style)
}

/// Rows `text` takes wrapped at `width`, at most [`MAX_WRAPPED`].
fn wrapped_rows(text: &str, width: u16) -> u16 {
    u16::try_from(wrapped_rows_unclamped(text, width)).unwrap_or(u16::MAX).clamp(1, MAX_WRAPPED)
}

fn plan(st: &State, t: &Theme, width: u16) -> Bottom {
    let w = width as usize;
    if let Some(p) = &st.ui.prompt {
        let label = prompt_label(st, p.kind);
        // A question longer than the row is read whole above it; the row keeps the answer.
        if p.kind == PromptKind::Confirm && display_width(&label) + 1 > w {
            let question = label.trim_end().trim_end_matches("(y/N)").trim_end().to_owned();
            return Bottom { above: Some((question, t.header)), aside: None };
        }
        // Candidates of a completing prompt, else what the last key said (an error, a notice).
        let c = &st.ui.completion;
        let aside = if !c.suggestions.is_empty() {
            Some((format!("tab: {}", candidates(&c.suggestions, c.cycle)), t.highlight))
        } else {
            st.ui.status.as_ref().map(|s| (sanitize(&s.text), if s.error { t.error } else { t.dim }))
        };
        // The typed text keeps at least half the row (and the cursor its cell).
        let used = if p.kind == PromptKind::Confirm {
            display_width(&label) + 1
        } else {
            display_width(&label).min(w.saturating_sub(20).max(w / 2))
                + display_width(p.text()).max(w / 4)
                + 3
        };
        return match aside {
            Some((ref text, _)) if used + display_width(text) <= w => Bottom { above: None, aside },
            Some(a) => Bottom { above: Some(a), aside: None },
            None => Bottom { above: None, aside: None },
        };
    }
    let (text, style) = news(st, t);
    let title_w = display_width(&title(st, usize::MAX));
    // Both whole on one row; else a message (not the hint or who is typing) wraps above, the
    // title keeping the row; the hint gives way to the title.
    let message =
        st.ui.conn.is_offline() || st.ui.conn.unanswered_since().is_some() || st.ui.status.is_some();
    if title_w + 2 + display_width(&text) <= w
        || (!message && title_w.min(w / 2) + 2 + display_width(&text) <= w)
    {
        Bottom { above: None, aside: Some((text, style)) }
    } else {
        Bottom { above: Some((text, style)), aside: None }
    }
}

/// How many rows the bottom needs at this width: 1, or more when a message wraps above it.
pub(super) fn status_height(st: &State, t: &Theme, width: u16) -> u16 {
    match plan(st, t, width).above {
        Some((text, _)) => 1 + wrapped_rows(&text, width),
        None => 1,
    }
}

pub(super) fn draw_status(f: &mut Frame, st: &State, t: &Theme, area: Rect) {
    let plan = plan(st, t, area.width);
    let last = Rect { y: area.bottom().saturating_sub(1), height: area.height.min(1), ..area };
    if let Some((text, style)) = &plan.above {
        let rows = Rect { height: area.height.saturating_sub(1), ..area };
        f.render_widget(Paragraph::new(text.as_str()).style(*style).wrap(Wrap { trim: true }), rows);
        // A message longer than the rows it may take ends in `…`.
        if wrapped_rows_unclamped(text, area.width) > rows.height as usize && rows.height > 0 {
            let end = ratatui::layout::Position { x: rows.right().saturating_sub(1), y: rows.bottom() - 1 };
            if let Some(cell) = f.buffer_mut().cell_mut(end) {
                cell.set_symbol("…");
            }
        }
    }
    let w = area.width as usize;
    if let Some(p) = &st.ui.prompt {
        // A question is all there is to read; another label leaves the typed text 20 columns (or half).
        let most =
            if p.kind == PromptKind::Confirm { w.saturating_sub(2) } else { w.saturating_sub(20).max(w / 2) };
        let long_question = p.kind == PromptKind::Confirm && plan.above.is_some();
        let label = if long_question { "(y/N) ".to_owned() } else { clip(&prompt_label(st, p.kind), most) };
        let aside_w = plan.aside.as_ref().map_or(0, |(s, _)| display_width(s) + 2);
        let room = w.saturating_sub(display_width(&label) + aside_w).max(1);
        let mut spans = vec![Span::styled(label, t.header)];
        spans.extend(super::common::line_spans(&p.line, room, t));
        if let Some((text, style)) = plan.aside {
            let used: usize = spans.iter().map(|s| display_width(&s.content)).sum();
            let pad = w.saturating_sub(used + display_width(&text)).max(2);
            spans.push(Span::raw(" ".repeat(pad)));
            spans.push(Span::styled(text, style));
        }
        f.render_widget(Paragraph::new(Line::from(spans)), last);
        return;
    }
    let (left, right, style) = match plan.aside {
        Some((text, style)) => (title(st, w.saturating_sub(display_width(&text) + 2)), text, style),
        None => (title(st, w), String::new(), Style::new()),
    };
    let right = clip(&right, w.saturating_sub(display_width(&left) + 2));
    let pad = w.saturating_sub(display_width(&left) + display_width(&right));
    let line = Line::from(vec![
        Span::styled(left, if st.insecure { t.error } else { t.header }),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, style),
    ]);
    f.render_widget(Paragraph::new(line).style(t.status_bar), last);
    if plan.above.is_some() {
        f.buffer_mut().set_style(Rect { height: area.height.saturating_sub(1), ..area }, t.status_bar);
    }
}

fn wrapped_rows_unclamped(text: &str, width: u16) -> usize {
    Paragraph::new(text).wrap(Wrap { trim: true }).line_count(width.max(1))
}

/// "Alice is typing…" / "Bob is editing…" for the shown conversation.
pub(super) fn typing_line(st: &State) -> String {
    let conv = match &st.ui.narrow {
        Narrow::Topic(c, t) => Some(crate::app::Conv::Topic(*c, t.to_lowercase())),
        Narrow::Dm(u) => Some(crate::app::Conv::Dm(u.clone())),
        _ => None,
    };
    let view = st.data.views.get(&st.ui.narrow);
    let mut parts = Vec::new();
    for t in st.ui.presence.typing() {
        let name = sanitize(st.data.user_name(t.user));
        if t.conversation.is_some() && t.conversation == conv {
            parts.push(format!("{name} is typing…"));
        } else if t.editing.is_some_and(|id| view.is_some_and(|v| v.contains(id))) {
            parts.push(format!("{name} is editing a message…"));
        }
    }
    parts.join("  ")
}
