//! The recent conversations view: one row per conversation, newest first, with its unread
//! count, who wrote in it and when.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::{Conv, Narrow, RecentConversation, State};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// "#channel > topic" or the people of a direct-message conversation.
pub(super) fn title(st: &State, n: &Narrow) -> String {
    let d = &st.data;
    match n {
        Narrow::Topic(c, t) => {
            let topic = d.realm.topic_shown(t);
            format!("#{} > {}", d.channels.name(*c), topic)
        }
        Narrow::Dm(users) if users.is_empty() => format!("DM: {} (you)", d.user_name(d.me)),
        Narrow::Dm(users) => {
            let names: Vec<_> = users.iter().map(|u| d.partner_name(*u)).collect();
            format!("DM: {}", names.join(", "))
        }
        other => format!("{other:?}"),
    }
}

fn unread(st: &State, n: &Narrow) -> usize {
    let conv = match n {
        Narrow::Topic(c, t) => Conv::Topic(*c, t.to_lowercase()),
        Narrow::Dm(users) => Conv::Dm(users.clone()),
        _ => return 0,
    };
    st.data.unread.in_conv(&conv).map_or(0, |s| s.len())
}

pub(super) fn draw_recent(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    selected: usize,
    rows: Option<&[RecentConversation]>,
) {
    let area = centered(f.area(), 140, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let help = " j/k move · enter open · esc close ";
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Recent conversations ")
        .title_bottom(Line::styled(clip(help, area.width.saturating_sub(2) as usize), t.dim));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(rows) = rows else {
        f.render_widget(Paragraph::new(Line::styled("Loading recent conversations…", t.dim)), inner);
        return;
    };
    if rows.is_empty() {
        f.render_widget(Paragraph::new(Line::styled("No conversations yet.", t.dim)), inner);
        return;
    }
    let h = inner.height as usize;
    let width = inner.width as usize;
    let start = selected.saturating_sub(h.saturating_sub(1));
    // Unread · conversation · who · when. The columns fit what the shown rows hold: who wrote
    // keeps at least a third of the room, or what it needs if less, the conversation takes what it needs of
    // the rest, and who wrote gets all that is left (issue 40: at 160 columns names were cut
    // at 34 beside 50 empty columns).
    let when_w =
        rows.iter().skip(start).take(h).map(|r| display_width(&when(st, r.timestamp))).max().unwrap_or(0);
    let avail = width.saturating_sub(4 + 1 + 1 + when_w);
    let shown = || rows.iter().skip(start).take(h);
    let senders = |r: &RecentConversation| {
        r.senders.iter().map(|u| sanitize(st.data.user_name(*u))).collect::<Vec<_>>().join(", ")
    };
    let conv_need = shown().map(|r| display_width(&sanitize(&title(st, &r.narrow)))).max().unwrap_or(0);
    let who_need = shown().map(|r| display_width(&senders(r))).max().unwrap_or(0);
    let conv_w = conv_need.min(avail.saturating_sub(who_need.min(avail / 3)));
    let who_w = avail.saturating_sub(conv_w);
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(start)
        .take(h)
        .map(|(i, r)| {
            let style = if i == selected { t.selected } else { Style::new() };
            let n = unread(st, &r.narrow);
            let count = if n > 0 { format!("{n:>3} ") } else { "    ".to_owned() };
            let conv = clip(&sanitize(&title(st, &r.narrow)), conv_w);
            let conv_pad = " ".repeat(conv_w.saturating_sub(display_width(&conv)));
            let who = clip(&senders(r), who_w);
            let who_pad = " ".repeat(who_w.saturating_sub(display_width(&who)));
            let when = when(st, r.timestamp);
            let when = format!("{}{when}", " ".repeat(when_w.saturating_sub(display_width(&when))));
            let conv_style = if n > 0 { style.patch(t.bold) } else { style };
            Line::from(vec![
                Span::styled(count, style.patch(t.highlight)),
                Span::styled(format!("{conv}{conv_pad} "), conv_style),
                Span::styled(format!("{who}{who_pad} "), style.patch(t.dim)),
                Span::styled(clip(&when, when_w), style.patch(t.dim)),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// When a conversation last moved, as short as the web app's list says it: the time today, the
/// weekday within the week, the day and month this year, else with the year (in the user's
/// time zone and clock).
fn when(st: &State, ts: i64) -> String {
    let day = |t: i64| st.tz.format(t, "%Y-%m-%d");
    if day(ts) == day(st.now) {
        st.tz.format(ts, st.settings.clock.time())
    } else if (0..6 * 86_400).contains(&(st.now - ts)) {
        st.tz.format(ts, "%a")
    } else if st.tz.format(ts, "%Y") == st.tz.format(st.now, "%Y") {
        st.tz.format(ts, "%-d %b")
    } else {
        st.tz.format(ts, "%-d %b %Y")
    }
}
