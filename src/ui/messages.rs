//! The messages pane: message blocks (conversation header, sender line, body, links,
//! reactions) around the selected one, and messages still on their way.

use super::common::{Ctx, RenderCache, clip, clip_line, emoji_label, reaction_counts};
use super::content::render_html_with_theme;
use super::hints::Spot;
use super::theme::Theme;
use crate::api::{Flag, MessageId};
use crate::app::hints::LinkSpot;
use crate::app::{Focus, Narrow, Shown, State, Stored};
use crate::content::{display_width, escape_html, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub(super) fn conversation_header(st: &State, m: &Stored) -> String {
    let d = &st.data;
    match m.stream_id() {
        Some(c) if !m.is_dm() => {
            let t = d.realm.topic_shown(m.topic());
            format!("#{} > {}{}", sanitize(d.channels.name(c)), sanitize(t), policy_mark(st, c, m.topic()))
        }
        _ => {
            let others = crate::app::narrow::dm_key(&m.dm_user_ids(), d.me);
            if others.is_empty() {
                "Notes to self".into()
            } else {
                format!(
                    "DM with {}",
                    others.iter().map(|u| sanitize(&d.partner_name(*u))).collect::<Vec<_>>().join(", ")
                )
            }
        }
    }
}

/// After a topic's name: ⚑ when followed, ✕ when muted (★ is a starred message's).
fn policy_mark(st: &State, channel: crate::api::ChannelId, topic: &str) -> &'static str {
    match st.data.policy(channel, topic) {
        crate::api::VisibilityPolicy::Followed => " ⚑",
        crate::api::VisibilityPolicy::Muted => " ✕",
        _ => "",
    }
}

/// Room a message block keeps for an inline image's picture.
struct Placed {
    /// Its first line in the block, its column, its rows.
    line: usize,
    col: u16,
    rows: u16,
    src: String,
}

/// What a message block places beside its lines: its pictures, its links' numbers.
#[derive(Default)]
struct InBlock {
    images: Vec<Placed>,
    spots: Vec<Spot>,
}

/// The lines of one message block: optional conversation header, sender line, body, reactions;
/// where its pictures go and where its links' numbers are drawn in `placed`.
fn message_block(
    st: &State,
    t: &Theme,
    cache: &mut RenderCache,
    m: &Stored,
    prev: Option<&Stored>,
    width: u16,
    placed: &mut InBlock,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let same_conv = prev.is_some_and(|p| p.same_place(m));
    // In search results, what matched is marked.
    let found = st.data.views.get(&st.ui.narrow).and_then(|v| v.matched(m.id));
    // A muted sender's message stays behind one line until the user asks to see it. The same
    // answer (`State::shown`) numbers the links `o` opens.
    let shown = st.shown(m);
    let hidden = shown == Shown::Hidden;
    if !same_conv {
        out.push(header_line(st, t, m, found.and_then(|f| f.subject.as_deref()), width));
    }
    let same_sender =
        same_conv && prev.is_some_and(|p| p.sender_id() == m.sender_id() && m.timestamp - p.timestamp < 300);
    let mut marks = edit_marks(t, m);
    if !same_sender {
        out.push(sender_line(st, t, m, hidden, &mut marks, width));
    }
    let spoilers = matches!(shown, Shown::Body { spoilers_open: true });
    if hidden {
        out.push(Line::styled(clip("  (a message from a muted user: z shows it)", width as usize), t.dim));
        return out;
    }
    let alerted;
    let html = match found.and_then(|f| f.content.as_deref()) {
        Some(html) => html,
        None if m.has_flag(Flag::HasAlertWord) && !st.data.alert_words().is_empty() => {
            alerted = crate::content::mark_words(m.content(), st.data.alert_words(), "alert-word", true);
            &alerted
        }
        None => m.content(),
    };
    // A poll or a to-do list shows instead of its `/poll` or `/todo` text.
    if let Some(w) = st.data.widgets().get(&m.id) {
        let mut lines = super::widget::widget_lines(st, t, w, st.ui.selected == Some(m.id), width);
        if !marks.is_empty()
            && let Some(first) = lines.first_mut()
        {
            first.spans.append(&mut marks);
        }
        out.append(&mut lines);
        out.extend(reaction_lines(st, t, m, width));
        return out;
    }
    let body = cache.get(m, html, width.saturating_sub(2).max(10), spoilers, st, true);
    body_lines(m.id, &body, marks, width, placed, &mut out);
    address_lines(st, t, m.id, &body, width, placed, &mut out);
    out.extend(reaction_lines(st, t, m, width));
    out
}

/// The conversation's header over a message: in search results with what matched marked.
fn header_line(st: &State, t: &Theme, m: &Stored, subject: Option<&str>, width: u16) -> Line<'static> {
    match (subject, m.stream_id()) {
        // An empty topic's match is empty too: the header names it as the realm does.
        (Some(subject), Some(c)) if !m.is_dm() && !subject.trim().is_empty() => {
            let mut spans =
                vec![Span::styled(format!("#{} > ", sanitize(st.data.channels.name(c))), t.header)];
            for (text, marked) in crate::content::highlighted_runs(subject) {
                let style = if marked { t.header.patch(t.content.search_match) } else { t.header };
                spans.push(Span::styled(text, style));
            }
            spans.push(Span::styled(policy_mark(st, c, m.topic()), t.header));
            clip_line(spans, width as usize)
        }
        _ => Line::styled(clip(&conversation_header(st, m), width as usize), t.header),
    }
}

/// "(edited)" or "(moved)", and ★ when starred: on the sender line, or for a message drawn
/// under the previous one's, after its first line (on a line of their own when that is full).
fn edit_marks(t: &Theme, m: &Stored) -> Vec<Span<'static>> {
    let mut marks = Vec::new();
    if m.last_edit_timestamp().is_some() {
        marks.push(Span::styled(" (edited)", t.dim));
    } else if m.last_moved_timestamp().is_some() {
        marks.push(Span::styled(" (moved)", t.dim));
    }
    if m.has_flag(Flag::Starred) {
        marks.push(Span::styled(" ★", t.highlight));
    }
    marks
}

/// The sender's name, the time and the `marks` (taken from it).
fn sender_line(
    st: &State,
    t: &Theme,
    m: &Stored,
    hidden: bool,
    marks: &mut Vec<Span<'static>>,
    width: u16,
) -> Line<'static> {
    let mut spans =
        vec![Span::styled(format!("  {}", st.tz.format(m.timestamp, st.settings.clock.short())), t.dim)];
    spans.append(marks);
    // A name too long for the line is shortened so the time stays in sight; in a pane too
    // narrow for both, the name comes first.
    let rest: usize = spans.iter().map(|s| display_width(&s.content)).sum();
    let room = match (width as usize).saturating_sub(rest) {
        r if r >= 10 => r,
        _ => (width as usize).max(1),
    };
    let name = if hidden { "Muted user".into() } else { clip(&sanitize(m.sender_full_name()), room) };
    spans.insert(0, Span::styled(name, t.bold));
    Line::from(spans)
}

/// The body's lines, indented, the `marks` after its first line (or on one of their own);
/// where its pictures and its links' numbers are go in `placed`.
fn body_lines(
    id: MessageId,
    body: &super::content::RenderedContent,
    mut marks: Vec<Span<'static>>,
    width: u16,
    placed: &mut InBlock,
    out: &mut Vec<Line<'static>>,
) {
    let marks_width: usize = marks.iter().map(|s| display_width(&s.content)).sum();
    let mut numbers = body.marks.iter().peekable();
    for (k, l) in body.lines.iter().enumerate() {
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
        if let Some(img) = body.images.iter().find(|img| img.line == k) {
            let (line, col, rows, src) = (out.len(), img.col + 2, img.rows, img.src.clone());
            placed.images.push(Placed { line, col, rows, src });
        }
        while let Some(n) = numbers.next_if(|n| n.line <= k) {
            let (col, width) = (n.col + 2, n.width);
            let link = LinkSpot { message: id, number: n.number };
            placed.spots.push(Spot { line: out.len(), col, width, link });
        }
        out.push(Line::from(spans));
    }
    if !marks.is_empty() {
        out.push(Line::from(vec![Span::raw(" ")].into_iter().chain(marks).collect::<Vec<_>>()));
    }
}

/// A line for each link whose address is worth showing (`address_line`), numbered.
fn address_lines(
    st: &State,
    t: &Theme,
    id: MessageId,
    body: &super::content::RenderedContent,
    width: u16,
    placed: &mut InBlock,
    out: &mut Vec<Line<'static>>,
) {
    for (i, link) in body.links.iter().enumerate() {
        let Some(address) = address_line(&st.site, &link.url) else { continue };
        let number = format!("[{}]", i + 1);
        let spot = LinkSpot { message: id, number: i + 1 };
        placed.spots.push(Spot { line: out.len(), col: 2, width: number.len() as u16, link: spot });
        out.push(Line::styled(clip(&format!("  {number} {address}"), width as usize), t.dim));
    }
}

/// What a link's address line says, judged by `urls::judge` as `o` opens it: nothing for a
/// link into the user's own web app (`o` opens it here); a path on the user's own server as
/// written; any other address as the opener gets it (its host ASCII, `xn--…` for a name in
/// other scripts, without the fragment it never sends); a refused one marked so.
fn address_line(site: &str, link: &str) -> Option<String> {
    use crate::urls::Link;
    let relative = link.starts_with('/') && !link.starts_with("//");
    Some(match crate::urls::judge(site, link) {
        Link::InApp(_) => return None,
        Link::OwnUpload(_) | Link::Web(_) if relative => sanitize(link),
        Link::OwnUpload(url) | Link::Web(url) => sanitize(url.as_str()),
        Link::Refused(_) => format!("{} (not opened)", sanitize(link)),
    })
}

/// Reaction chip lines at most this many; the info popup lists every reaction.
const MAX_REACTION_LINES: usize = 3;
/// Reactions in all up to which chips name who reacted, where the user asks for names.
const REACTION_NAMES_UP_TO: usize = 3;

/// A message's reactions as "[emoji n]" chips, wrapped to `width` and at most
/// [`MAX_REACTION_LINES`] lines, the last ending in "+N more" when not all fit.
fn reaction_lines(st: &State, t: &Theme, m: &Stored, width: u16) -> Vec<Line<'static>> {
    if m.reactions().is_empty() {
        return Vec::new();
    }
    let label =
        |r: &crate::api::Reaction| emoji_label(&r.emoji_code, &r.emoji_name, r.reaction_type.as_str());
    let counts = reaction_counts(st, m, label);
    // Who reacted instead of how many, as the user set it (`display_emoji_reaction_users`),
    // where the message has few reactions in all (the web app's cut: three).
    let names = st.data.user_settings().display_emoji_reaction_users == Some(true)
        && m.reactions().len() <= REACTION_NAMES_UP_TO;
    // (The user first, as "You", as the web app names them.)
    let who = |chip: &str| -> String {
        let of_chip: Vec<&crate::api::Reaction> = m.reactions().iter().filter(|r| label(r) == chip).collect();
        let me = of_chip.iter().any(|r| r.user_id == st.data.me).then(|| "You".to_owned());
        let others = of_chip
            .iter()
            .filter(|r| r.user_id != st.data.me)
            .map(|r| sanitize(st.data.user_name(r.user_id)));
        me.into_iter().chain(others).collect::<Vec<_>>().join(", ")
    };
    let room = (width as usize).saturating_sub(2).max(1);
    let chips: Vec<(String, usize, Style)> = counts
        .into_iter()
        .map(|(label, n, mine)| {
            // A name too long for the pane is shortened, keeping the brackets and the count.
            let tail = if names { format!(" {}]", who(&label)) } else { format!(" {n}]") };
            let label = clip(&label, room.saturating_sub(1 + display_width(&tail)));
            let chip = clip(&format!("[{label}{tail}"), room);
            let w = display_width(&chip);
            (chip, w, if mine { t.accent } else { t.dim })
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
                spans.push(Span::styled(format!(" +{more} more"), t.dim));
            }
            Line::from(spans)
        })
        .collect()
}

/// How much of a pending message's text is shown, in lines and characters.
const PENDING_PREVIEW_LINES: usize = 12;
const PENDING_PREVIEW_CHARS: usize = 2000;

/// A message on its way: the sender line says where it is, the text is shown as typed.
fn pending_block(st: &State, th: &Theme, o: &crate::app::Outgoing, width: u16) -> Vec<Line<'static>> {
    use crate::app::OutState;
    let (dim, warn) = (th.dim, th.highlight);
    let (note, style, detail) = match &o.state {
        OutState::Queued if st.ui.conn.is_offline() => {
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
                let t = st.data.realm.topic_shown(topic);
                // As the user knows it now, else as it was when written (the channel is gone).
                let name = match (st.data.channels.get(*id), &o.channel_name) {
                    (None, Some(name)) => name.as_str(),
                    _ => st.data.channels.name(*id),
                };
                format!("#{} > {}", sanitize(name), sanitize(t))
            }
            crate::app::Target::Dm(users) if users.is_empty() => "Notes to self".into(),
            crate::app::Target::Dm(users) => format!(
                "DM with {}",
                users.iter().map(|u| sanitize(&st.data.partner_name(*u))).collect::<Vec<_>>().join(", ")
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
    let html: String =
        preview.lines().take(PENDING_PREVIEW_LINES).map(escape_html).collect::<Vec<_>>().join("<br>");
    let body = render_html_with_theme(
        &format!("<p>{html}</p>"),
        width.saturating_sub(2).max(10),
        &Ctx { spoilers: false, tz: st.tz, clock: st.settings.clock, images: None, previews: true },
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

pub(super) fn draw_messages(f: &mut Frame, st: &State, t: &Theme, cache: &mut RenderCache, area: Rect) {
    cache.hits.messages = area;
    cache.hits.message_rows.clear();
    cache.hits.links.clear();
    cache.hits.seen.clear();
    let width = area.width.saturating_sub(1);
    let height = area.height as usize;
    // Closed: the server refused the account. Why (the first two lines), and how to reopen
    // it, in place of messages.
    if st.ui.conn.fatal().is_some() {
        let lines: Vec<Line> = st
            .ui
            .conn
            .reopen()
            .iter()
            .enumerate()
            .map(|(i, l)| Line::styled(sanitize(l), if i < 2 { t.error } else { Style::new() }))
            .collect();
        let inner = Rect { x: area.x + 1, width: area.width.saturating_sub(2), ..area };
        f.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }), inner);
        return;
    }
    let Some(view) = st.data.views.get(&st.ui.narrow) else {
        let text = if st.ui.conn.loading() {
            "Connecting…"
        } else if st.ui.conn.is_offline() {
            crate::app::not_loaded(st)
        } else {
            "Loading…"
        };
        let mut lines = vec![Line::styled(text, t.dim)];
        lines.extend(crate::app::pending_in(st, &st.ui.narrow).flat_map(|o| pending_block(st, t, o, width)));
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        return;
    };
    let pending: Vec<Line<'static>> = if view.found_newest() || view.ids().is_empty() {
        crate::app::pending_in(st, &st.ui.narrow).flat_map(|o| pending_block(st, t, o, width)).collect()
    } else {
        Vec::new()
    };
    if view.ids().is_empty() {
        let text = if view.is_loading_newer() {
            "Loading…"
        } else if !view.is_loaded() {
            crate::app::not_loaded(st)
        } else {
            "No messages here."
        };
        let mut lines = vec![Line::styled(text, t.dim)];
        lines.extend(pending);
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        return;
    }
    let ids = view.ids();
    let sel_pos = st.ui.selected.and_then(|id| ids.binary_search(&id).ok()).unwrap_or(ids.len() - 1);
    let blocks = blocks_around(st, t, cache, ids, sel_pos, width, height);
    let mut pane = Stacked::default();
    let from_start = blocks.first == 0 && blocks.above.first().is_none_or(|(i, _, _)| *i == 0);
    if from_start && view.found_oldest() {
        pane.note(Line::styled("— beginning of the conversation —", t.dim));
    } else if view.is_loading_older() {
        pane.note(Line::styled("loading older messages…", t.dim));
    }
    let past_end = blocks.end >= ids.len();
    pane.stack(st, t, ids, sel_pos, blocks);
    if past_end {
        pane.owners.extend(pending.iter().map(|_| None));
        pane.lines.extend(pending);
    }
    // Scroll so the selected block starts within the pane, preferring the bottom.
    let total = pane.lines.len();
    let mut top = total.saturating_sub(height);
    if pane.sel_start < top {
        top = pane.sel_start;
    }
    let Stacked { lines, owners, pictures, numbers, .. } = pane;
    let mut visible: Vec<Line> = lines.into_iter().skip(top).take(height).collect();
    cache.hits.message_rows = owners.iter().skip(top).take(height).copied().collect();
    let rows_free = new_below(st, t, ids, &cache.hits.message_rows, &mut visible, height, width);
    f.render_widget(Paragraph::new(visible), area);
    // The messages whose last line is on screen (not under the "new below" row): seen whole.
    for (r, owner) in owners.iter().enumerate().take(top + rows_free).skip(top) {
        if let Some(id) = *owner
            && owners.get(r + 1) != Some(&Some(id))
        {
            cache.hits.seen.push(id);
        }
    }
    // The links whose numbers are on screen (what `f` labels), and their labels while shown.
    let shown: Vec<(u16, Spot)> = numbers
        .into_iter()
        .filter(|(at, _)| *at >= top && *at < top + rows_free)
        .map(|(at, n)| ((at - top) as u16, n))
        .collect();
    super::hints::on_screen(f, st, t, &mut cache.hits, &shown, area);
    draw_pictures(f, st, t, cache, pictures, (top, top + rows_free), area);
}

/// A message's index in the view, its lines, and what it places beside them.
type Block = (usize, Vec<Line<'static>>, InBlock);

/// The blocks drawn around the selected one.
struct Around {
    /// From the selected one downwards, until the pane is full.
    below: Vec<Block>,
    /// Upwards from the one before it until the pane is full, in the view's order.
    above: Vec<Block>,
    /// The index of the first message looked at upwards, and one past the last downwards.
    first: usize,
    end: usize,
}

/// Blocks from the selected one downwards, then upwards until the pane is full.
fn blocks_around(
    st: &State,
    t: &Theme,
    cache: &mut RenderCache,
    ids: &[MessageId],
    sel_pos: usize,
    width: u16,
    height: usize,
) -> Around {
    let msg = |i: usize| ids.get(i).and_then(|id| st.data.messages.get(id));
    let mut below: Vec<Block> = Vec::new();
    let mut used = 0;
    let mut i = sel_pos;
    while i < ids.len() && used < height {
        if let Some(m) = msg(i) {
            let mut placed = InBlock::default();
            let prev = if i == 0 { None } else { msg(i - 1) };
            let block = message_block(st, t, cache, m, prev, width, &mut placed);
            used += block.len();
            below.push((i, block, placed));
        }
        i += 1;
    }
    let mut above: Vec<Block> = Vec::new();
    let mut j = sel_pos;
    let reserve_below = below.iter().skip(1).map(|(_, b, _)| b.len()).sum::<usize>().min(height / 3);
    let mut room = height.saturating_sub(below.first().map_or(0, |(_, b, _)| b.len()) + reserve_below);
    while j > 0 && room > 0 {
        j -= 1;
        if let Some(m) = msg(j) {
            let mut placed = InBlock::default();
            let prev = if j == 0 { None } else { msg(j - 1) };
            let block = message_block(st, t, cache, m, prev, width, &mut placed);
            room = room.saturating_sub(block.len());
            above.push((j, block, placed));
        }
    }
    above.reverse();
    Around { below, above, first: j, end: i }
}

/// The pane's lines, stacked: who owns each, where the selected block starts, where the
/// pictures and the links' numbers are among them.
#[derive(Default)]
struct Stacked {
    lines: Vec<Line<'static>>,
    owners: Vec<Option<MessageId>>,
    sel_start: usize,
    /// Pictures: their first line among all the lines, column, rows.
    pictures: Vec<(usize, Placed)>,
    /// Links' numbers: their line among all the lines.
    numbers: Vec<(usize, Spot)>,
}

impl Stacked {
    /// A line of no message's.
    fn note(&mut self, line: Line<'static>) {
        self.lines.push(line);
        self.owners.push(None);
    }

    /// The blocks in order, each line behind its marker (the selection, or unread).
    fn stack(&mut self, st: &State, t: &Theme, ids: &[MessageId], sel_pos: usize, blocks: Around) {
        for (idx, block, placed) in blocks.above.into_iter().chain(blocks.below) {
            let selected = idx == sel_pos;
            if selected {
                self.sel_start = self.lines.len();
            }
            let at = self.lines.len();
            self.pictures.extend(placed.images.into_iter().map(|p| (at + p.line, p)));
            self.numbers.extend(placed.spots.into_iter().map(|n| (at + n.line, n)));
            let unread = ids.get(idx).is_some_and(|id| st.data.unread.contains(*id));
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
                self.lines.push(Line::from(spans).style(l.style));
                self.owners.push(ids.get(idx).copied());
            }
        }
    }
}

/// Unread messages under the visible part: say how many, on the last row. The rows left for
/// messages.
fn new_below(
    st: &State,
    t: &Theme,
    ids: &[MessageId],
    rows: &[Option<MessageId>],
    visible: &mut [Line<'_>],
    height: usize,
    width: u16,
) -> usize {
    let last_seen = rows.iter().rev().flatten().next().copied();
    let Some(last) = last_seen.filter(|_| visible.len() >= height && height > 1) else { return height };
    let after = ids.partition_point(|id| *id <= last);
    let unread = ids[after..].iter().take(NEW_BELOW_CAP).filter(|id| st.data.unread.contains(**id)).count();
    if unread == 0 {
        return height;
    }
    let n = if unread >= NEW_BELOW_CAP { format!("{}+", NEW_BELOW_CAP - 1) } else { unread.to_string() };
    let plural = if unread == 1 { "" } else { "s" };
    let text = format!(" ▼ {n} new message{plural} below — G jumps to the end ");
    let Some(row) = visible.last_mut() else { return height };
    *row = Line::styled(
        clip(&text, width as usize),
        t.highlight.add_modifier(ratatui::style::Modifier::REVERSED),
    );
    height - 1
}

/// Pictures wholly on screen (among the lines `rows` shows) go in the rows their messages keep
/// for them.
fn draw_pictures(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    cache: &mut RenderCache,
    pictures: Vec<(usize, Placed)>,
    (top, end): (usize, usize),
    area: Rect,
) {
    let width = area.width.saturating_sub(1);
    for (at, p) in pictures {
        if at < top || at + usize::from(p.rows) > end {
            continue;
        }
        let x = area.x + 1 + p.col;
        let room = Rect {
            x,
            y: area.y + (at - top) as u16,
            width: (area.x + width).saturating_sub(x),
            height: p.rows,
        };
        if room.width > 0 {
            super::image::draw_picture(
                f,
                st,
                t,
                &mut cache.pictures,
                &p.src,
                room,
                super::image::Fit::Shrink,
            );
        }
    }
}

/// Unread messages below the pane are counted up to this many ("999+").
const NEW_BELOW_CAP: usize = 1000;
