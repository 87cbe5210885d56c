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
use ratatui::widgets::Paragraph;

/// The fewest columns a title is clipped to before it gives way to an error altogether.
const SHORTEST_TITLE: usize = 16;

/// The title of a narrow, as the status line shows it.
pub fn narrow_title(st: &State, n: &Narrow) -> String {
    let d = &st.data;
    match n {
        Narrow::All => "All messages".into(),
        Narrow::Channel(c) => format!("#{}", d.channel_name(*c)),
        Narrow::Topic(c, t) => {
            let t = if t.is_empty() { d.realm.empty_topic_name.as_str() } else { t };
            format!("#{} > {}", d.channel_name(*c), t)
        }
        Narrow::AllDms => "Direct messages".into(),
        Narrow::Dm(u) if u.is_empty() => "Notes to self".into(),
        Narrow::Dm(u) => {
            format!("DM with {}", u.iter().map(|id| d.user_name(*id)).collect::<Vec<_>>().join(", "))
        }
        Narrow::Starred => "Starred".into(),
        Narrow::Mentions => "Mentions".into(),
        Narrow::Search { query, .. } => format!("Search: {query}"),
    }
}

pub(super) fn draw_status(f: &mut Frame, st: &State, t: &Theme, area: Rect) {
    if let Some(p) = &st.ui.prompt {
        let question;
        let label = match p.kind {
            PromptKind::Search => "Search: ",
            PromptKind::OpenLink => "Open link number: ",
            PromptKind::CopyCode => "Copy code block number: ",
            PromptKind::AttachPath => "Attach file (path): ",
            PromptKind::FilterChannels => "Filter channels (enter keeps, esc clears): ",
            PromptKind::FilterPeople => "Filter people (enter keeps, esc clears): ",
            PromptKind::ChannelTopic => "Channel>topic: ",
            PromptKind::DmRecipients => "DM to (names or emails, comma-separated): ",
            PromptKind::Command => ":",
            PromptKind::ScheduleTime => "Send at (in 2h, tomorrow 9:00, 17:30, 2026-11-25 15:00): ",
            PromptKind::Confirm => {
                question = st.ui.confirm.as_ref().map(|(q, _)| format!("{q} ")).unwrap_or_default();
                question.as_str()
            }
        };
        let mut spans =
            vec![Span::styled(label, t.header), Span::raw(sanitize(&p.text)), Span::styled("█", t.dim)];
        // Completions of the channel>topic and DM prompts, as the compose box shows them; else
        // what the last key said (an error, the palette's completions), at once, beside the input.
        let c = &st.ui.completion;
        let used: usize = spans.iter().map(|s| display_width(&s.content)).sum();
        if matches!(p.kind, PromptKind::ChannelTopic | PromptKind::DmRecipients) && !c.suggestions.is_empty()
        {
            let room = (area.width as usize).saturating_sub(used + 2);
            let text = clip(&format!("tab: {}", candidates(&c.suggestions, c.cycle)), room);
            spans.push(Span::raw("  "));
            spans.push(Span::styled(text, t.highlight));
        } else if let Some(s) = &st.ui.status {
            let room = (area.width as usize).saturating_sub(used + 3);
            if room > 0 {
                let text = clip(&sanitize(&s.text), room);
                let pad = (area.width as usize).saturating_sub(used + display_width(&text));
                spans.push(Span::raw(" ".repeat(pad)));
                spans.push(Span::styled(text, if s.error { t.error } else { t.dim }));
            }
        }
        f.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    }
    let title = narrow_title(st, &st.ui.narrow);
    let typing = typing_line(st);
    let error = st.ui.offline.is_some() || st.ui.status.as_ref().is_some_and(|s| s.error);
    let (text, style) = match &st.ui.status {
        _ if st.ui.offline.is_some() => {
            let o = st.ui.offline.as_ref().expect("checked");
            let secs = (o.retry_at - st.now).max(0);
            let banner = format!("offline: {} — retrying in {secs} s", o.why);
            // The reassurance goes first when the line is short.
            let kept = " · drafts are kept";
            let fits = display_width(&banner) + kept.len() + SHORTEST_TITLE + 2 <= area.width as usize;
            (if fits { banner + kept } else { banner }, t.error)
        }
        Some(s) if s.error => (s.text.clone(), t.error),
        Some(s) => (s.text.clone(), Style::new()),
        _ if !typing.is_empty() => (typing, t.ok),
        None => ("? help".to_owned(), t.dim),
    };
    // Explore mode says so: nothing is being marked read.
    let title = if st.settings.explore { format!("{title} · explore") } else { title };
    // The last session, drawn from this machine until the server answers.
    let title = if st.ui.from_cache { format!("{title} · last session") } else { title };
    // Which organization, when several are open.
    let title = match st.ui.orgs.own_name() {
        Some(org) => format!("{org} · {title}"),
        None => title,
    };
    // Loud and first: any certificate is accepted, so anyone on the way can read along.
    let title = if st.insecure { format!("INSECURE TLS · {title}") } else { title };
    // The title takes at most half the line; less when an error needs the room to be read
    // whole, and none while an error would not fit beside a title of a few words (an error
    // goes after a while; the offline banner can last, and the insecure warning always stays,
    // so they keep a short title).
    let width = area.width as usize;
    let room = if error { width.saturating_sub(display_width(&text) + 2) } else { width };
    let shortest = if st.ui.offline.is_some() || st.insecure { SHORTEST_TITLE } else { 0 };
    let room = if room < SHORTEST_TITLE.min(display_width(&title)) { shortest } else { room };
    let left = clip(&sanitize(&title), room.min(width / 2));
    let gap = if left.is_empty() { 0 } else { 2 };
    let right_w = (area.width as usize).saturating_sub(display_width(&left) + gap);
    let right = clip(&sanitize(&text), right_w);
    let pad = (area.width as usize).saturating_sub(display_width(&left) + display_width(&right));
    let line = Line::from(vec![
        Span::styled(left, if st.insecure { t.error } else { t.header }),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, style),
    ]);
    f.render_widget(Paragraph::new(line).style(t.status_bar), area);
}

/// "Alice is typing…" / "Bob is editing…" for the shown conversation.
fn typing_line(st: &State) -> String {
    let conv = match &st.ui.narrow {
        Narrow::Topic(c, t) => Some(crate::app::Conv::Topic(*c, t.to_lowercase())),
        Narrow::Dm(u) => Some(crate::app::Conv::Dm(u.clone())),
        _ => None,
    };
    let view = st.data.narrows.get(&st.ui.narrow);
    let mut parts = Vec::new();
    for t in &st.ui.typing {
        let name = sanitize(st.data.user_name(t.user));
        if t.conversation.is_some() && t.conversation == conv {
            parts.push(format!("{name} is typing…"));
        } else if t.editing.is_some_and(|id| view.is_some_and(|v| v.ids.binary_search(&id).is_ok())) {
            parts.push(format!("{name} is editing a message…"));
        }
    }
    parts.join("  ")
}
