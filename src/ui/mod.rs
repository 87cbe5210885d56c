//! Views: functions of the state. Only what is visible is laid out; rendered message content
//! is cached per (message, width, content, spoilers) in a [`RenderCache`] the caller owns.

pub mod content;
pub mod theme;

use crate::api::{Message, MessageId};
use crate::app::keymap::{Action, Context};
use crate::app::{Activity, Focus, Narrow, Popup, PromptKind, SidebarRow, State, Target};
use content::{ContentContext, RenderedContent, display_width, render_html_with_theme, sanitize};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use std::collections::HashMap;
use std::rc::Rc;

/// Cache of rendered message bodies. Bounded; cleared wholesale when full.
#[derive(Default)]
pub struct RenderCache {
    map: HashMap<(MessageId, u16, u64, bool), Rc<RenderedContent>>,
    /// Where the last frame put things, for mouse clicks.
    pub hits: HitMap,
    /// Where the last frame drew graphemes that terminals may draw differently (see
    /// [`guard_clusters`]).
    clusters: Vec<(u16, u16, String)>,
}

/// Screen regions of the last frame.
#[derive(Debug, Default, Clone)]
pub struct HitMap {
    pub sidebar: Rect,
    /// Sidebar row index shown on the sidebar's first line.
    pub sidebar_start: usize,
    pub messages: Rect,
    /// The message on each line of the messages pane (top to bottom).
    pub message_rows: Vec<Option<MessageId>>,
}

impl HitMap {
    /// What a click at (column, row) means.
    pub fn click(&self, x: u16, y: u16) -> Option<crate::app::Msg> {
        let inside = |r: Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if inside(self.sidebar) {
            return Some(crate::app::Msg::ClickSidebar(self.sidebar_start + (y - self.sidebar.y) as usize));
        }
        if inside(self.messages) {
            let id = self.message_rows.get((y - self.messages.y) as usize).copied().flatten()?;
            return Some(crate::app::Msg::ClickMessage(id));
        }
        None
    }

    /// Is (column, row) over the channels pane?
    pub fn over_sidebar(&self, x: u16, y: u16) -> bool {
        let r = self.sidebar;
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    }
}

const CACHE_LIMIT: usize = 4000;

struct Ctx {
    spoilers: bool,
    tz: crate::app::TimeZone,
    clock: crate::app::settings::Clock,
}

impl ContentContext for Ctx {
    fn format_time(&self, ts: i64) -> String {
        self.tz.format(ts, self.clock.short())
    }
    fn spoiler_open(&self, _index: usize) -> bool {
        self.spoilers
    }
}

fn hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

impl RenderCache {
    fn get(
        &mut self,
        m: &Message,
        width: u16,
        spoilers: bool,
        tz: crate::app::TimeZone,
        settings: &crate::app::settings::Settings,
    ) -> Rc<RenderedContent> {
        let key = (m.id, width, hash(&m.content), spoilers);
        if let Some(r) = self.map.get(&key) {
            return r.clone();
        }
        if self.map.len() >= CACHE_LIMIT {
            self.map.clear();
        }
        let ctx = Ctx { spoilers, tz, clock: settings.clock };
        let r = Rc::new(render_html_with_theme(&m.content, width, &ctx, &settings.theme.content));
        self.map.insert(key, r.clone());
        r
    }
}

const SIDEBAR_WIDTH: u16 = 26;

/// Draw the whole screen.
pub fn draw(f: &mut Frame, st: &State, cache: &mut RenderCache) {
    let area = f.area();
    // Set again below by a scrolled popup.
    st.ui.popup_bottom.set(None);
    let compose_h = if st.ui.compose.is_some() { 7.min(area.height / 2) } else { 0 };
    let [main, compose, status] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(compose_h), Constraint::Length(1)])
            .areas(area);
    let side_w = if !st.settings.show_channels && st.ui.focus != Focus::Sidebar {
        0
    } else if main.width < 60 {
        main.width / 3
    } else {
        SIDEBAR_WIDTH
    };
    let people_w = if st.ui.show_people { (main.width / 4).clamp(16, 30) } else { 0 };
    let [side, msgs, people] =
        Layout::horizontal([Constraint::Length(side_w), Constraint::Min(10), Constraint::Length(people_w)])
            .areas(main);
    draw_sidebar(f, st, side, &mut cache.hits);
    draw_messages(f, st, cache, msgs);
    if people_w > 0 {
        draw_people(f, st, people);
    }
    if compose_h > 0 {
        draw_compose(f, st, compose);
    }
    draw_status(f, st, status);
    match &st.ui.popup {
        Some(Popup::Help { scroll }) => draw_help(f, st, *scroll),
        Some(Popup::EditHistory { message_id, snapshots, scroll }) => {
            draw_history(f, st, *message_id, snapshots.as_deref(), *scroll)
        }
        Some(Popup::MessageInfo { message_id, scroll }) => draw_info(f, st, cache, *message_id, *scroll),
        Some(Popup::Scheduled { selected }) => draw_scheduled(f, st, *selected),
        Some(Popup::Emoji { message_id, query, matches, selected }) => {
            draw_emoji(f, st, *message_id, query, matches, *selected)
        }
        None => {}
    }
    guard_clusters(f.buffer_mut(), &mut cache.clusters);
}

/// The most cells a terminal may give a grapheme: each of its characters drawn on its own.
fn widest_drawing(g: &str) -> u16 {
    g.chars().map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) as u16).sum()
}

/// Wide graphemes of several characters (flags made of two regional indicators, ZWJ sequences,
/// keycaps, skin tones, VS16 emoji) are one cell pair to ratatui, which then writes only the
/// first cell when such a grapheme is replaced and leaves the second alone. Many terminals
/// (tmux, xterm) keep them as separate characters instead, so writing the first cell clears only
/// the first character: a lone "🇴" stays behind, also under a popup or the compose box. Drawing
/// one can also spill over the following cells. So: when a grapheme of that kind leaves a
/// position, every cell it may have covered is written again, and when one is drawn, the cells it
/// may have spilled onto are too.
fn guard_clusters(buf: &mut ratatui::buffer::Buffer, last: &mut Vec<(u16, u16, String)>) {
    use ratatui::buffer::CellDiffOption;
    use unicode_width::UnicodeWidthStr;
    let area = buf.area;
    let mut now = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let g = buf[(x, y)].symbol();
            if g.chars().nth(1).is_some() && g.width() > 1 {
                now.push((x, y, g.to_owned()));
            }
        }
    }
    let rewrite = |buf: &mut ratatui::buffer::Buffer, x: u16, y: u16, from: u16, to: u16| {
        for cx in x.saturating_add(from)..x.saturating_add(to).min(area.right()) {
            let cell = &mut buf[(cx, y)];
            if cell.diff_option == CellDiffOption::None {
                cell.diff_option = CellDiffOption::AlwaysUpdate;
            }
        }
    };
    for (x, y, g) in last.iter() {
        if area.contains((*x, *y).into()) && buf[(*x, *y)].symbol() != g {
            rewrite(buf, *x, *y, 0, widest_drawing(g).max(g.width() as u16));
        }
    }
    // A set: a hostile message can put thousands of these on screen.
    let before: std::collections::HashSet<(u16, u16, &str)> =
        last.iter().map(|(x, y, g)| (*x, *y, g.as_str())).collect();
    for (x, y, g) in &now {
        if !before.contains(&(*x, *y, g.as_str())) {
            rewrite(buf, *x, *y, g.width() as u16, widest_drawing(g));
        }
    }
    *last = now;
}

fn clip(s: &str, width: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    for g in unicode_segmentation::UnicodeSegmentation::graphemes(s, true) {
        let gw = display_width(g);
        if w + gw > width {
            if !out.is_empty() {
                out.pop();
                out.push('…');
            }
            break;
        }
        out.push_str(g);
        w += gw;
    }
    out
}

fn draw_sidebar(f: &mut Frame, st: &State, area: Rect, hits: &mut HitMap) {
    let th = &st.settings.theme;
    let focused = st.ui.focus == Focus::Sidebar;
    let block =
        Block::default().borders(Borders::RIGHT).border_style(if focused { th.accent } else { th.dim });
    let inner = block.inner(area);
    f.render_widget(block, area);
    let h = inner.height as usize;
    let sel = st.ui.sidebar_selected;
    let start = sel.saturating_sub(h.saturating_sub(1));
    hits.sidebar = inner;
    hits.sidebar_start = start;
    let d = &st.data;
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for (i, row) in st.ui.sidebar.iter().enumerate().skip(start).take(h) {
        let (label, count, style) = match row {
            SidebarRow::AllMessages => ("All messages".to_owned(), 0, th.bold),
            SidebarRow::AllDms => ("Direct messages".to_owned(), d.unread.dm_total, th.bold),
            SidebarRow::Starred => ("Starred".to_owned(), 0, Style::new()),
            SidebarRow::Mentions => ("Mentions".to_owned(), d.unread.mentions.len(), Style::new()),
            SidebarRow::Channel(c) => {
                let Some(ch) = d.channels.get(c) else { continue };
                let arrow = if st.ui.expanded == Some(*c) { "▾" } else { "▸" };
                let pin = if ch.pinned { "^" } else { "" };
                let lock = if ch.invite_only { "🔒" } else { "#" };
                let style = if ch.muted { th.dim } else { Style::new() };
                (format!("{arrow}{lock}{}{pin}", sanitize(&ch.name)), d.channel_unread(*c), style)
            }
            SidebarRow::Topic(c, t) => {
                let policy = d.policy(*c, t);
                let muted = d.topic_muted(*c, t);
                let mark = match policy {
                    crate::api::VisibilityPolicy::Followed => "★",
                    crate::api::VisibilityPolicy::Muted => "✕",
                    crate::api::VisibilityPolicy::Unmuted => "○",
                    _ => " ",
                };
                let name = if t.is_empty() { d.realm.empty_topic_name.clone() } else { sanitize(t) };
                let n = if muted { 0 } else { d.topic_unread(*c, t) };
                (format!("  {mark}{name}"), n, if muted { th.dim } else { Style::new() })
            }
        };
        let count_s = if count > 0 { format!(" {count}") } else { String::new() };
        let label = clip(&label, w.saturating_sub(count_s.len()));
        let pad = w.saturating_sub(display_width(&label) + count_s.len());
        let mut style = style;
        if i == sel && focused {
            style = style.patch(th.selected);
        } else if i == sel {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        lines.push(Line::from(vec![
            Span::styled(label, style),
            Span::styled(" ".repeat(pad), style),
            Span::styled(count_s, style.patch(th.highlight)),
        ]));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

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

fn conversation_header(st: &State, m: &Message) -> String {
    let d = &st.data;
    match m.stream_id {
        Some(c) if !m.is_dm() => {
            let t = if m.topic().is_empty() { d.realm.empty_topic_name.as_str() } else { m.topic() };
            let mark = match d.policy(c, m.topic()) {
                crate::api::VisibilityPolicy::Followed => " ★",
                crate::api::VisibilityPolicy::Muted => " ✕",
                _ => "",
            };
            format!("#{} > {}{}", sanitize(d.channel_name(c)), sanitize(t), mark)
        }
        _ => {
            let others = crate::app::narrow::dm_key(&m.dm_user_ids(), d.me);
            if others.is_empty() {
                "Notes to self".into()
            } else {
                format!(
                    "DM with {}",
                    others.iter().map(|u| sanitize(d.user_name(*u))).collect::<Vec<_>>().join(", ")
                )
            }
        }
    }
}

/// The lines of one message block: optional conversation header, sender line, body, reactions.
fn message_block(
    st: &State,
    cache: &mut RenderCache,
    m: &Message,
    prev: Option<&Message>,
    width: u16,
) -> Vec<Line<'static>> {
    let t = &st.settings.theme;
    let mut out = Vec::new();
    let same_conv = prev.is_some_and(|p| {
        p.stream_id == m.stream_id
            && p.topic() == m.topic()
            && p.is_dm() == m.is_dm()
            && p.dm_user_ids() == m.dm_user_ids()
    });
    if !same_conv {
        out.push(Line::styled(clip(&conversation_header(st, m), width as usize), t.header));
    }
    let same_sender =
        same_conv && prev.is_some_and(|p| p.sender_id == m.sender_id && m.timestamp - p.timestamp < 300);
    // "(edited)" or "(moved)", and ★ when starred: on the sender line, or for a message drawn
    // under the previous one's, after its first line (on a line of their own when that is full).
    let mut marks = Vec::new();
    if m.last_edit_timestamp.is_some() {
        marks.push(Span::styled(" (edited)", t.dim));
    } else if m.last_moved_timestamp.is_some() {
        marks.push(Span::styled(" (moved)", t.dim));
    }
    if m.has_flag("starred") {
        marks.push(Span::styled(" ★", t.highlight));
    }
    if !same_sender {
        let mut spans =
            vec![Span::styled(format!("  {}", st.tz.format(m.timestamp, st.settings.clock.short())), t.dim)];
        spans.append(&mut marks);
        // A name too long for the line is shortened so the time stays in sight; in a pane too
        // narrow for both, the name comes first.
        let rest: usize = spans.iter().map(|s| display_width(&s.content)).sum();
        let room = match (width as usize).saturating_sub(rest) {
            r if r >= 10 => r,
            _ => (width as usize).max(1),
        };
        let name = clip(&sanitize(&m.sender_full_name), room);
        spans.insert(0, Span::styled(name, t.bold));
        out.push(Line::from(spans));
    }
    let spoilers = st.ui.open_spoilers.contains(&(m.id, 0));
    let body = cache.get(m, width.saturating_sub(2).max(10), spoilers, st.tz, &st.settings);
    let marks_width: usize = marks.iter().map(|s| display_width(&s.content)).sum();
    for l in &body.lines {
        let mut spans = vec![Span::raw("  ")];
        spans.extend(l.spans.iter().cloned());
        if !marks.is_empty() {
            let used: usize = spans.iter().map(|s| display_width(&s.content)).sum();
            if used + marks_width > width as usize {
                out.push(Line::from(
                    vec![Span::raw(" ")].into_iter().chain(marks.drain(..)).collect::<Vec<_>>(),
                ));
            } else {
                spans.append(&mut marks);
            }
        }
        out.push(Line::from(spans));
    }
    if !marks.is_empty() {
        out.push(Line::from(vec![Span::raw(" ")].into_iter().chain(marks).collect::<Vec<_>>()));
    }
    for (i, link) in body.links.iter().enumerate() {
        out.push(Line::styled(
            clip(&format!("  [{}] {}", i + 1, sanitize(&link.url)), width as usize),
            t.dim,
        ));
    }
    out.extend(reaction_lines(st, m, width));
    out
}

/// Reaction chip lines at most this many; the info popup lists every reaction.
const MAX_REACTION_LINES: usize = 3;

/// A message's reactions as "[emoji n]" chips, wrapped to `width` and at most
/// [`MAX_REACTION_LINES`] lines, the last ending in "+N more" when not all fit.
fn reaction_lines(st: &State, m: &Message, width: u16) -> Vec<Line<'static>> {
    if m.reactions.is_empty() {
        return Vec::new();
    }
    // (label, count, mine) in order of first appearance; the index keeps this linear in the
    // number of reactions (a message may carry thousands).
    let mut counts: Vec<(String, usize, bool)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for r in &m.reactions {
        let label = emoji_label(&r.emoji_code, &r.emoji_name, r.reaction_type.as_str());
        let mine = r.user_id == st.data.me;
        match index.get(&label) {
            Some(&i) => {
                counts[i].1 += 1;
                counts[i].2 |= mine;
            }
            None => {
                index.insert(label.clone(), counts.len());
                counts.push((label, 1, mine));
            }
        }
    }
    let room = (width as usize).saturating_sub(2).max(1);
    let chips: Vec<(String, usize, Style)> = counts
        .into_iter()
        .map(|(label, n, mine)| {
            // A name too long for the pane is shortened, keeping the brackets and the count.
            let tail = format!(" {n}]");
            let label = clip(&label, room.saturating_sub(1 + display_width(&tail)));
            let chip = clip(&format!("[{label}{tail}"), room);
            let w = display_width(&chip);
            (chip, w, if mine { st.settings.theme.accent } else { st.settings.theme.dim })
        })
        .collect();
    // Greedy rows of chip indices, one space apart.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = 0;
    for (i, (_, w, _)) in chips.iter().enumerate() {
        if let Some(row) = rows.last_mut()
            && used + 1 + w <= room
        {
            row.push(i);
            used += 1 + w;
        } else if rows.len() == MAX_REACTION_LINES {
            break;
        } else {
            rows.push(vec![i]);
            used = *w;
        }
    }
    let shown: usize = rows.iter().map(Vec::len).sum();
    let mut more = chips.len() - shown;
    if more > 0 {
        // Make room for the note on the last row.
        let last = rows.last_mut().expect("a row");
        loop {
            let note = display_width(&format!(" +{more} more"));
            let width: usize = last.iter().map(|&i| chips[i].1 + 1).sum::<usize>().saturating_sub(1);
            if last.len() <= 1 || width + note <= room {
                break;
            }
            last.pop();
            more += 1;
        }
    }
    let n_rows = rows.len();
    rows.into_iter()
        .enumerate()
        .map(|(r, row)| {
            let mut spans = vec![Span::raw("  ")];
            for (k, &i) in row.iter().enumerate() {
                if k > 0 {
                    spans.push(Span::raw(" "));
                }
                spans.push(Span::styled(chips[i].0.clone(), chips[i].2));
            }
            if more > 0 && r + 1 == n_rows {
                spans.push(Span::styled(format!(" +{more} more"), st.settings.theme.dim));
            }
            Line::from(spans)
        })
        .collect()
}

/// The glyph for a reaction: the Unicode emoji, or `:name:`.
pub fn emoji_label(code: &str, name: &str, kind: &str) -> String {
    if kind == "unicode_emoji" {
        let s: Option<String> =
            code.split('-').map(|p| u32::from_str_radix(p, 16).ok().and_then(char::from_u32)).collect();
        if let Some(s) = s.filter(|s| !s.chars().any(char::is_control)) {
            return s;
        }
    }
    format!(":{}:", sanitize(name))
}

/// How much of a pending message's text is shown, in lines and characters.
const PENDING_PREVIEW_LINES: usize = 12;
const PENDING_PREVIEW_CHARS: usize = 2000;

/// A message on its way: the sender line says where it is, the text is shown as typed.
fn pending_block(st: &State, o: &crate::app::Outgoing, width: u16) -> Vec<Line<'static>> {
    use crate::app::OutState;
    let th = &st.settings.theme;
    let (dim, warn) = (th.dim, th.highlight);
    let (note, style, detail) = match &o.state {
        OutState::Queued if st.ui.offline.is_some() => {
            ("waiting for the connection", dim, Some((String::new(), "ctrl+u edit".into())))
        }
        OutState::Queued => ("waiting to send", dim, None),
        OutState::Sending => ("sending…", dim, None),
        OutState::Sent(_) => ("sent", dim, None),
        OutState::Retry { at, why } => (
            "not sent yet",
            warn,
            Some((
                sanitize(why),
                format!("retrying at {} · ctrl+r now · ctrl+u edit", st.tz.format(*at, "%H:%M:%S")),
            )),
        ),
        OutState::Failed(why) => {
            ("✗ not sent", th.error, Some((sanitize(why), "ctrl+r retry · ctrl+u edit".into())))
        }
    };
    let mut out = Vec::new();
    if !matches!(st.ui.narrow, Narrow::Topic(..) | Narrow::Dm(_)) {
        let header = match &o.target {
            crate::app::Target::Channel { id, topic } => {
                let t = if topic.is_empty() { st.data.realm.empty_topic_name.as_str() } else { topic };
                format!("#{} > {}", sanitize(st.data.channel_name(*id)), sanitize(t))
            }
            crate::app::Target::Dm(users) if users.is_empty() => "Notes to self".into(),
            crate::app::Target::Dm(users) => format!(
                "DM with {}",
                users.iter().map(|u| sanitize(st.data.user_name(*u))).collect::<Vec<_>>().join(", ")
            ),
        };
        out.push(Line::styled(clip(&header, width as usize), th.header));
    }
    out.push(Line::from(vec![
        Span::styled(sanitize(st.data.user_name(st.data.me)), th.bold),
        Span::styled(format!("  {note}"), style),
    ]));
    // Only the start of a long text: a pasted megabyte would bury the reason and the keys
    // below, and cost a full render every frame.
    let preview = match o.content.char_indices().nth(PENDING_PREVIEW_CHARS) {
        Some((cut, _)) => &o.content[..cut],
        None => o.content.as_str(),
    };
    let html: String = preview
        .lines()
        .take(PENDING_PREVIEW_LINES)
        .map(|l| l.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;"))
        .collect::<Vec<_>>()
        .join("<br>");
    let body = render_html_with_theme(
        &format!("<p>{html}</p>"),
        width.saturating_sub(2).max(10),
        &Ctx { spoilers: false, tz: st.tz, clock: st.settings.clock },
        &th.content,
    );
    let shown = body.lines.len().min(PENDING_PREVIEW_LINES);
    let cut = shown < body.lines.len()
        || preview.len() < o.content.len()
        || o.content.lines().nth(PENDING_PREVIEW_LINES).is_some();
    for l in body.lines.into_iter().take(shown) {
        let mut spans = vec![Span::raw("  ")];
        spans.extend(l.spans.into_iter().map(|s| s.patch_style(dim)));
        out.push(Line::from(spans));
    }
    if cut {
        let more = format!("  … ({} characters in all)", o.content.chars().count());
        out.push(Line::styled(clip(&more, width as usize), dim));
    }
    if let Some((why, keys)) = detail {
        out.push(Line::styled(clip(&format!("  {why}"), width as usize), style));
        out.push(Line::styled(clip(&format!("  {keys}"), width as usize), dim));
    }
    out
}

fn draw_messages(f: &mut Frame, st: &State, cache: &mut RenderCache, area: Rect) {
    let t = &st.settings.theme;
    cache.hits.messages = area;
    cache.hits.message_rows.clear();
    let width = area.width.saturating_sub(1);
    let height = area.height as usize;
    let Some(view) = st.data.narrows.get(&st.ui.narrow) else {
        let mut lines = vec![Line::styled(if st.ui.loading { "Connecting…" } else { "Loading…" }, t.dim)];
        lines.extend(crate::app::pending_in(st, &st.ui.narrow).flat_map(|o| pending_block(st, o, width)));
        f.render_widget(Paragraph::new(lines), area);
        return;
    };
    let pending: Vec<Line<'static>> = if view.found_newest || view.ids.is_empty() {
        crate::app::pending_in(st, &st.ui.narrow).flat_map(|o| pending_block(st, o, width)).collect()
    } else {
        Vec::new()
    };
    if view.ids.is_empty() {
        let text = if view.loading_newer { "Loading…" } else { "No messages here." };
        let mut lines = vec![Line::styled(text, t.dim)];
        lines.extend(pending);
        f.render_widget(Paragraph::new(lines), area);
        return;
    }
    let ids = &view.ids;
    let sel_pos = st.ui.selected.and_then(|id| ids.binary_search(&id).ok()).unwrap_or(ids.len() - 1);
    let msg = |i: usize| ids.get(i).and_then(|id| st.data.messages.get(id));
    // Blocks from the selected one downwards, then upwards until the pane is full.
    let mut below: Vec<(usize, Vec<Line<'static>>)> = Vec::new();
    let mut used = 0;
    let mut i = sel_pos;
    while i < ids.len() && used < height {
        if let Some(m) = msg(i) {
            let block = message_block(st, cache, m, if i == 0 { None } else { msg(i - 1) }, width);
            used += block.len();
            below.push((i, block));
        }
        i += 1;
    }
    let mut above: Vec<(usize, Vec<Line<'static>>)> = Vec::new();
    let mut j = sel_pos;
    let reserve_below = below.iter().skip(1).map(|(_, b)| b.len()).sum::<usize>().min(height / 3);
    let mut room = height.saturating_sub(below.first().map_or(0, |(_, b)| b.len()) + reserve_below);
    while j > 0 && room > 0 {
        j -= 1;
        if let Some(m) = msg(j) {
            let block = message_block(st, cache, m, if j == 0 { None } else { msg(j - 1) }, width);
            room = room.saturating_sub(block.len());
            above.push((j, block));
        }
    }
    above.reverse();
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut owners: Vec<Option<MessageId>> = Vec::new();
    if j == 0 && view.found_oldest && above.first().is_none_or(|(i, _)| *i == 0) {
        lines.push(Line::styled("— beginning of the conversation —", t.dim));
        owners.push(None);
    } else if view.loading_older {
        lines.push(Line::styled("loading older messages…", t.dim));
        owners.push(None);
    }
    let mut sel_start = 0;
    for (idx, block) in above.into_iter().chain(below) {
        let selected = idx == sel_pos;
        if selected {
            sel_start = lines.len();
        }
        let unread = ids.get(idx).is_some_and(|id| st.data.unread.by_id.contains_key(id));
        for l in block {
            let marker = if selected && st.ui.focus == Focus::Messages {
                Span::styled("▌", t.accent)
            } else if unread {
                Span::styled("▏", t.highlight)
            } else {
                Span::raw(" ")
            };
            let mut spans = vec![marker];
            spans.extend(l.spans);
            lines.push(Line::from(spans).style(l.style));
            owners.push(ids.get(idx).copied());
        }
    }
    if i >= ids.len() {
        owners.extend(pending.iter().map(|_| None));
        lines.extend(pending);
    }
    // Scroll so the selected block starts within the pane, preferring the bottom.
    let total = lines.len();
    let mut top = total.saturating_sub(height);
    if sel_start < top {
        top = sel_start;
    }
    let visible: Vec<Line> = lines.into_iter().skip(top).take(height).collect();
    cache.hits.message_rows = owners.into_iter().skip(top).take(height).collect();
    f.render_widget(Paragraph::new(visible), area);
}

fn draw_compose(f: &mut Frame, st: &State, area: Rect) {
    let Some(c) = &st.ui.compose else { return };
    let d = &st.data;
    let to = match &c.target {
        Target::Channel { id, topic } => {
            let t = if topic.is_empty() { d.realm.empty_topic_name.as_str() } else { topic };
            format!("#{} > {}", d.channel_name(*id), t)
        }
        Target::Dm(u) if u.is_empty() => "Notes to self".into(),
        Target::Dm(u) => {
            format!("DM to {}", u.iter().map(|id| d.user_name(*id)).collect::<Vec<_>>().join(", "))
        }
    };
    let verb = if c.editing.is_some() { "Editing" } else { "To" };
    let t = &st.settings.theme;
    let key =
        |a: Action| st.settings.keymap.keys_for(Context::Compose, a).into_iter().next().unwrap_or_default();
    // What the send key does here: a sent message being edited, or a scheduled one, is saved.
    let does = if c.scheduled.is_some() {
        format!("{} save, {} new time", key(Action::Send), key(Action::Schedule))
    } else if c.editing.is_some() {
        format!("{} save", key(Action::Send))
    } else {
        format!("{} send", key(Action::Send))
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
    }
    let inner = block.inner(area);
    f.render_widget(block, area);
    f.render_widget(c.editor.widget(), inner);
}

/// Completion candidates, the one inserted by the last tab in brackets.
fn candidates(suggestions: &[(String, String)], cycle: Option<(usize, usize)>) -> String {
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

fn draw_status(f: &mut Frame, st: &State, area: Rect) {
    let t = &st.settings.theme;
    if let Some(p) = &st.ui.prompt {
        let question;
        let label = match p.kind {
            PromptKind::Search => "Search: ",
            PromptKind::OpenLink => "Open link number: ",
            PromptKind::CopyCode => "Copy code block number: ",
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
    let (text, style) = match &st.ui.status {
        _ if st.ui.offline.is_some() => {
            let o = st.ui.offline.as_ref().expect("checked");
            let secs = (o.retry_at - st.now).max(0);
            (format!("offline: {} — retrying in {secs} s · drafts are kept", o.why), t.error)
        }
        Some(s) if s.error => (s.text.clone(), t.error),
        Some(s) => (s.text.clone(), Style::new()),
        _ if !typing.is_empty() => (typing, t.ok),
        None => ("? help".to_owned(), t.dim),
    };
    let left = clip(&sanitize(&title), (area.width as usize) / 2);
    let right_w = (area.width as usize).saturating_sub(display_width(&left) + 2);
    let right = clip(&sanitize(&text), right_w);
    let pad = (area.width as usize).saturating_sub(display_width(&left) + display_width(&right));
    let line = Line::from(vec![
        Span::styled(left, t.header),
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

fn draw_info(f: &mut Frame, st: &State, cache: &mut RenderCache, id: MessageId, scroll: u16) {
    let (t, clock) = (&st.settings.theme, st.settings.clock);
    let area = centered(f.area(), 80, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Message info (esc to close) ");
    let Some(m) = st.data.messages.get(&id) else {
        f.render_widget(Paragraph::new("This message is gone.").block(block), area);
        return;
    };
    let d = &st.data;
    let mut lines = vec![
        Line::from(vec![
            Span::styled("From:  ", t.header),
            Span::raw(format!("{} <{}>", sanitize(&m.sender_full_name), sanitize(&m.sender_email))),
        ]),
        Line::from(vec![
            Span::styled("Sent:  ", t.header),
            Span::raw(st.tz.format(m.timestamp, clock.full())),
        ]),
        Line::from(vec![Span::styled("Where: ", t.header), Span::raw(conversation_header(st, m))]),
        Line::from(vec![Span::styled("ID:    ", t.header), Span::raw(m.id.to_string())]),
    ];
    if let Some(ts) = m.last_edit_timestamp {
        lines.push(Line::from(vec![
            Span::styled("Edited: ", t.header),
            Span::raw(st.tz.format(ts, clock.stamp())),
        ]));
    }
    if let Some(ts) = m.last_moved_timestamp {
        lines.push(Line::from(vec![
            Span::styled("Moved: ", t.header),
            Span::raw(st.tz.format(ts, clock.stamp())),
        ]));
    }
    let body = cache.get(m, area.width.saturating_sub(4).max(10), false, st.tz, &st.settings);
    if !body.links.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Links", t.header));
        for (i, l) in body.links.iter().enumerate() {
            let kind = if l.is_image { " (image)" } else { "" };
            lines.push(Line::raw(format!("  [{}] {}{kind}", i + 1, sanitize(&l.url))));
        }
    }
    let playgrounds: Vec<String> = body
        .code_blocks
        .iter()
        .zip(&body.code_languages)
        .enumerate()
        .flat_map(|(i, (code, lang))| {
            let lang = lang.clone().unwrap_or_default();
            st.data
                .playgrounds
                .iter()
                .filter(move |p| !lang.is_empty() && p.pygments_language.eq_ignore_ascii_case(&lang))
                .map(move |p| {
                    let code = crate::urls::uri_component(code);
                    [
                        format!("  code block {} in {}:", i + 1, sanitize(&p.name)),
                        format!("    {}", sanitize(&p.url_template.replace("{code}", &code))),
                    ]
                })
        })
        .flatten()
        .collect();
    if !playgrounds.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Code playgrounds", t.header));
        lines.extend(playgrounds.into_iter().map(Line::raw));
    }
    if !m.reactions.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Reactions", t.header));
        let mut by: Vec<(String, Vec<String>)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for r in &m.reactions {
            // A Unicode emoji and its name; an emoji without a character here (custom,
            // zulip_extra) is drawn as its name, once.
            let glyph = emoji_label(&r.emoji_code, &r.emoji_name, r.reaction_type.as_str());
            let name = format!(":{}:", sanitize(&r.emoji_name));
            let label = if glyph == name { name } else { format!("{glyph} {name}") };
            let who = sanitize(d.user_name(r.user_id));
            match index.get(&label) {
                Some(&i) => by[i].1.push(who),
                None => {
                    index.insert(label.clone(), by.len());
                    by.push((label, vec![who]));
                }
            }
        }
        for (label, who) in by {
            lines.push(Line::raw(format!("  {label}  {}", who.join(", "))));
        }
    }
    scrolled_popup(f, st, lines, block, area, scroll);
}

fn draw_emoji(
    f: &mut Frame,
    st: &State,
    id: MessageId,
    query: &str,
    matches: &[(String, String, String)],
    selected: usize,
) {
    let area = centered(f.area(), 50, f.area().height.saturating_sub(6).min(20));
    f.render_widget(Clear, area);
    let title = format!(" React: {}█ (enter toggles, esc closes) ", sanitize(query));
    let block =
        Block::default().borders(Borders::ALL).title(clip(&title, area.width.saturating_sub(2) as usize));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let me = st.data.me;
    let mine = |code: &str, kind: &str| {
        st.data.messages.get(&id).is_some_and(|m| {
            m.reactions
                .iter()
                .any(|r| r.user_id == me && r.emoji_code == code && r.reaction_type.as_str() == kind)
        })
    };
    if matches.is_empty() {
        f.render_widget(Paragraph::new(Line::styled("No emoji match.", st.settings.theme.dim)), inner);
        return;
    }
    let h = inner.height as usize;
    let start = selected.saturating_sub(h.saturating_sub(1));
    let lines: Vec<Line> = matches
        .iter()
        .enumerate()
        .skip(start)
        .take(h)
        .map(|(i, (name, code, kind))| {
            // Custom and service emoji have no glyph in a terminal: mark them instead.
            let glyph = if kind == "unicode_emoji" { emoji_label(code, name, kind) } else { "◆".into() };
            let check = if mine(code, kind) { "  ✓ yours" } else { "" };
            let style = if i == selected { st.settings.theme.selected } else { Style::new() };
            Line::styled(format!("{glyph}  :{}:{check}", sanitize(name)), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

fn draw_scheduled(f: &mut Frame, st: &State, selected: usize) {
    let t = &st.settings.theme;
    let area = centered(f.area(), 100, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block =
        Block::default().borders(Borders::ALL).title(" Scheduled messages — e edit, d delete, esc close ");
    let ids = crate::app::scheduled_in_order(st);
    if ids.is_empty() {
        f.render_widget(
            Paragraph::new(Line::styled("Nothing scheduled. Compose, then ctrl+s.", t.dim)).block(block),
            area,
        );
        return;
    }
    let d = &st.data;
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let Some(s) = d.scheduled.get(id) else { continue };
        let to = match &s.to {
            crate::api::Recipient::Channel(c) => {
                format!("#{} > {}", sanitize(d.channel_name(*c)), sanitize(s.topic.as_deref().unwrap_or("")))
            }
            crate::api::Recipient::Users(u) => {
                format!(
                    "DM to {}",
                    u.iter().map(|x| sanitize(d.user_name(*x))).collect::<Vec<_>>().join(", ")
                )
            }
        };
        let when = st.tz.format(s.scheduled_delivery_timestamp, st.settings.clock.short());
        let state = if s.failed { Span::styled(" FAILED", t.error) } else { Span::raw("") };
        let style = if i == selected { t.selected } else { Style::new() };
        lines.push(Line::from(vec![
            Span::styled(clip(&format!("{when}  {to}"), width.saturating_sub(7)), style.patch(t.header)),
            state,
        ]));
        let first = s.content.lines().next().unwrap_or("");
        lines.push(Line::styled(clip(&format!("  {}", sanitize(first)), width), style));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

fn draw_help(f: &mut Frame, st: &State, scroll: u16) {
    let ctx = if st.ui.compose.is_some() {
        Context::Compose
    } else if st.ui.focus == Focus::Sidebar {
        Context::Sidebar
    } else {
        Context::Messages
    };
    let t = &st.settings.theme;
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
    head.append(&mut lines);
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

/// A popup's text, scrolled: no further than its last line at the bottom. That largest useful
/// scroll is left in the state for the keys (`G`/End go there, `j` stops there).
fn scrolled_popup(f: &mut Frame, st: &State, lines: Vec<Line>, block: Block, area: Rect, scroll: u16) {
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let inner = block.inner(area);
    let total = text.line_count(inner.width);
    let bottom = u16::try_from(total.saturating_sub(inner.height as usize)).unwrap_or(u16::MAX);
    st.ui.popup_bottom.set(Some(bottom));
    f.render_widget(text.block(block).scroll((scroll.min(bottom), 0)), area);
}

fn draw_history(
    f: &mut Frame,
    st: &State,
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
    let t = &st.settings.theme;
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
                sanitize(d.channel_name(ps)),
                sanitize(d.channel_name(ns))
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
pub fn diff_lines(old: Option<&str>, new: &str, theme: &theme::Theme) -> Vec<Line<'static>> {
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

fn draw_people(f: &mut Frame, st: &State, area: Rect) {
    let t = &st.settings.theme;
    let block = Block::default().borders(Borders::LEFT).border_style(t.dim).title(" People ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let w = inner.width as usize;
    let lines: Vec<Line> = st
        .ui
        .people
        .iter()
        .take(inner.height as usize)
        .filter_map(|id| st.data.users.get(id))
        .map(|u| {
            let activity = st.data.activity(u.id, st.now);
            let s = &u.status;
            let emoji = if s.emoji_name.is_empty() {
                String::new()
            } else {
                format!("{} ", emoji_label(&s.emoji_code, &s.emoji_name, &s.reaction_type))
            };
            let status = if s.status_text.is_empty() && emoji.is_empty() {
                String::new()
            } else {
                format!(" {emoji}{}", sanitize(&s.status_text))
            };
            let name = sanitize(&u.full_name);
            let name_style = if activity == Activity::Offline { t.dim } else { Style::new() };
            let room = w.saturating_sub(2);
            let name = clip(&name, room);
            let status = clip(&status, room.saturating_sub(display_width(&name)));
            Line::from(vec![
                activity_glyph(activity, t),
                Span::raw(" "),
                Span::styled(name, name_style),
                Span::styled(status, t.dim),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// Presence dot for the people list.
pub fn activity_glyph(a: Activity, theme: &theme::Theme) -> Span<'static> {
    match a {
        Activity::Active => Span::styled("●", theme.ok),
        Activity::Idle => Span::styled("●", theme.idle),
        Activity::Offline => Span::styled("○", theme.dim),
    }
}

#[cfg(test)]
mod tests {
    use super::guard_clusters;
    use ratatui::buffer::{Buffer, CellDiffOption};
    use ratatui::layout::Rect;

    fn forced(buf: &Buffer) -> Vec<u16> {
        (0..buf.area.width).filter(|&x| buf[(x, 0)].diff_option == CellDiffOption::AlwaysUpdate).collect()
    }

    /// Each kind of multi-character grapheme is cleared as one when it goes, over every cell a
    /// terminal may have drawn it on, and when it comes, the cells it may spill onto are redrawn.
    #[test]
    fn multi_character_graphemes_are_drawn_and_cleared_as_one() {
        let area = Rect::new(0, 0, 12, 1);
        for (g, widest) in [
            ("\u{1F1F3}\u{1F1F4}", 2),                          // a flag: two regional indicators
            ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 6), // a ZWJ family
            ("1\u{FE0F}\u{20E3}", 2),                           // a keycap
            ("\u{1F44D}\u{1F3FD}", 4),                          // a skin tone
            ("\u{2764}\u{FE0F}", 2),                            // VS16
        ] {
            let mut last = Vec::new();
            let mut buf = Buffer::empty(area);
            buf.set_string(2, 0, g, ratatui::style::Style::default());
            guard_clusters(&mut buf, &mut last);
            let spill: Vec<u16> = (4..2 + widest).collect();
            assert_eq!(forced(&buf), spill, "{g:?} drawn");
            let mut buf = Buffer::empty(area);
            guard_clusters(&mut buf, &mut last);
            let covered: Vec<u16> = (2..2 + widest.max(2)).collect();
            assert_eq!(forced(&buf), covered, "{g:?} gone");
            assert!(last.is_empty());
        }
        // A plain wide character needs none of this.
        let mut last = Vec::new();
        let mut buf = Buffer::empty(area);
        buf.set_string(2, 0, "コ", ratatui::style::Style::default());
        guard_clusters(&mut buf, &mut last);
        assert!(forced(&buf).is_empty() && last.is_empty());
    }
}
