//! The compose box: where the message goes, what the keys do, completions; or, in place of the
//! editor, the preview of the text as the server renders it.

use super::common::{RenderCache, clip};
use super::theme::Theme;
use crate::app::keymap::{Action, Context};
use crate::app::rules;
use crate::app::{Preview, State, Target};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

pub(super) fn draw_compose(f: &mut Frame, st: &State, t: &Theme, cache: &mut RenderCache, area: Rect) {
    let Some(c) = &st.ui.compose else { return };
    let d = &st.data;
    let to = match &c.target {
        Target::Channel { id, topic } => {
            let t = d.realm.topic_shown(topic);
            format!("#{} > {}", d.channels.name(*id), t)
        }
        Target::Dm(u) if u.is_empty() => "Notes to self".into(),
        // "To: Alice Okafor" (it read "To: DM to Alice Okafor").
        Target::Dm(u) => u.iter().map(|id| d.partner_name(*id)).collect::<Vec<_>>().join(", "),
    };
    let verb = match (&c.target, c.editing.is_some()) {
        (Target::Dm(u), true) if !u.is_empty() => "Editing a DM to",
        (_, true) => "Editing",
        _ => "To",
    };
    let key =
        |a: Action| st.settings.keymap.keys_for(Context::Compose, a).into_iter().next().unwrap_or_default();
    // What the send key does here: a sent message being edited, or a scheduled one, is saved.
    // With the user's `enter_sends`, enter sends and alt+enter makes a new line.
    let key =
        |a: Action| if a == Action::Send && crate::app::enter_sends(st) { "enter".into() } else { key(a) };
    let newline = if crate::app::enter_sends(st) { ", alt+enter new line" } else { "" };
    let does = if c.scheduled.is_some() {
        format!("{} save, {} new time", key(Action::Send), key(Action::Schedule))
    } else if c.editing.is_some() {
        format!("{} save", key(Action::Send))
    } else {
        format!("{} send{newline}", key(Action::Send))
    };
    let title = format!(" {verb}: {} — {does}, {} cancel ", sanitize(&to), key(Action::Cancel));
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(clip(&title, area.width.saturating_sub(2) as usize))
        .border_style(t.accent);
    if !c.suggestions.is_empty() {
        let text = format!(" tab: {} ", candidates(&c.suggestions, c.cycle));
        let hint = Line::styled(clip(&text, area.width.saturating_sub(2) as usize), t.highlight);
        block = block.title_bottom(hint);
    } else if let Some(why) = refused(st, c) {
        // What the organization's rules refuse, said as soon as the box opens (`app::rules`).
        let text = format!(" {} ", sanitize(&why));
        block = block.title_bottom(Line::styled(clip(&text, area.width.saturating_sub(2) as usize), t.error));
    }
    let len = c.editor.lines().iter().map(|l| l.chars().count() + 1).sum::<usize>().saturating_sub(1);
    let counter = rules::length_counter(d, len);
    if let Some(counter) = &counter {
        let max = d.realm.limits.max_message_length.unwrap_or(usize::MAX);
        let style = if len > max { t.error } else { t.highlight };
        block = block.title_bottom(Line::styled(format!(" {counter} "), style).right_aligned());
    }
    if c.suggestions.is_empty() && refused(st, c).is_none() {
        // The box's other keys, as many as fit beside the counter (`?` is text here: f1 helps).
        let room = (area.width as usize).saturating_sub(4 + counter.map_or(0, |c| display_width(&c) + 3));
        block = block.title_bottom(Line::styled(key_hint(st, room), t.dim));
    }
    let inner = block.inner(area);
    f.render_widget(block, area);
    match &c.preview {
        Some(p) => draw_preview(f, st, t, cache, p, inner),
        None => super::editor::draw(f, &c.editor, &mut cache.compose, inner),
    }
}

/// " f1 keys · ctrl+s schedule · …": the compose box's keys that fit in `room` columns, whole.
fn key_hint(st: &State, room: usize) -> String {
    let key = |a: Action| st.settings.keymap.keys_for(Context::Compose, a).into_iter().next();
    let items = [
        (Action::Help, "keys"),
        (Action::Schedule, "schedule"),
        (Action::Attach, "attach"),
        (Action::Preview, "preview"),
        (Action::ExternalEditor, "editor"),
        (Action::ChangeRecipient, "recipient"),
        (Action::Snippets, "snippets"),
    ];
    let mut out = String::new();
    for (action, what) in items {
        let Some(k) = key(action) else { continue };
        let item = if out.is_empty() { format!("{k} {what}") } else { format!(" · {k} {what}") };
        if display_width(&out) + display_width(&item) > room {
            break;
        }
        out.push_str(&item);
    }
    if out.is_empty() { out } else { format!(" {out} ") }
}

/// Why the organization's rules refuse what the box holds: the conversation (who may post or
/// be written to, a topic needed) or, for an edit, the message's time limit.
fn refused(st: &State, c: &crate::app::Compose) -> Option<String> {
    match c.editing {
        Some(id) => st.data.messages.get(&id).and_then(|m| rules::edit_refused(&st.data, m, st.now)),
        None if c.scheduled.is_some() => None,
        None => rules::send_refused(&st.data, &c.target),
    }
}

/// The preview in place of the editor: a line saying what it is and how to go back, then the
/// server's rendering laid out as a message's body, scrolled.
fn draw_preview(f: &mut Frame, st: &State, t: &Theme, cache: &mut RenderCache, p: &Preview, inner: Rect) {
    let key =
        |a: Action| st.settings.keymap.keys_for(Context::Compose, a).into_iter().next().unwrap_or_default();
    let head = format!(
        "Preview — {}, {} or typing: back to the text; {} sends",
        key(Action::Preview),
        key(Action::Cancel),
        key(Action::Send)
    );
    let [head_row, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    f.render_widget(
        Paragraph::new(Line::styled(clip(&head, head_row.width as usize), t.highlight)),
        head_row,
    );
    let Some(html) = &p.html else {
        f.render_widget(Paragraph::new(Line::styled("rendering…", t.dim)), body);
        return;
    };
    let rendered = cache.preview(html, body.width, st);
    let bottom = rendered.lines.len().saturating_sub(body.height as usize);
    let bottom = u16::try_from(bottom).unwrap_or(u16::MAX);
    st.ui.popup_bottom.set(Some(bottom));
    let top = usize::from(p.scroll.min(bottom));
    let lines: Vec<Line> = rendered.lines.iter().skip(top).take(body.height as usize).cloned().collect();
    f.render_widget(Paragraph::new(lines), body);
}

/// Completion candidates, the one inserted by the last tab in brackets.
pub(super) fn candidates(suggestions: &[(String, String)], cycle: Option<(usize, usize)>) -> String {
    let shown: Vec<String> = suggestions
        .iter()
        .enumerate()
        .map(|(i, (label, _))| {
            let label = sanitize(label);
            if cycle.is_some_and(|(at, _)| at == i) { format!("[{label}]") } else { label }
        })
        .collect();
    shown.join("  ")
}
