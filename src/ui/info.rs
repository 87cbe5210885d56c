//! The message info popup: sender, times, links, code playgrounds, who reacted.

use super::common::{RenderCache, centered, emoji_label, scrolled_popup};
use super::messages::conversation_header;
use super::theme::Theme;
use crate::api::MessageId;
use crate::app::State;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use std::collections::HashMap;

pub(super) fn draw_info(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    cache: &mut RenderCache,
    id: MessageId,
    scroll: u16,
) {
    let clock = st.settings.clock;
    let area = centered(f.area(), 80, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Message info (esc to close) ");
    let Some(m) = st.data.messages.get(&id) else {
        f.render_widget(Paragraph::new("This message is gone.").block(block), area);
        return;
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled("From:  ", t.header),
            Span::raw(format!("{} <{}>", sanitize(m.sender_full_name()), sanitize(m.sender_email()))),
        ]),
        Line::from(vec![
            Span::styled("Sent:  ", t.header),
            Span::raw(st.tz.format(m.timestamp, clock.full())),
        ]),
        Line::from(vec![Span::styled("Where: ", t.header), Span::raw(conversation_header(st, m))]),
        Line::from(vec![Span::styled("ID:    ", t.header), Span::raw(m.id.to_string())]),
    ];
    if let Some(ts) = m.last_edit_timestamp() {
        lines.push(Line::from(vec![
            Span::styled("Edited: ", t.header),
            Span::raw(st.tz.format(ts, clock.stamp())),
        ]));
    }
    if let Some(ts) = m.last_moved_timestamp() {
        lines.push(Line::from(vec![
            Span::styled("Moved: ", t.header),
            Span::raw(st.tz.format(ts, clock.stamp())),
        ]));
    }
    let body = cache.get(m, m.content(), area.width.saturating_sub(4).max(10), false, st, false);
    if !body.links.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Links", t.header));
        for (i, l) in body.links.iter().enumerate() {
            let kind = if l.is_image { " (image)" } else { "" };
            lines.push(Line::raw(format!("  [{}] {}{kind}", i + 1, sanitize(&l.url))));
        }
    }
    let code =
        body.code_blocks.iter().map(String::as_str).zip(body.code_languages.iter().map(Option::as_deref));
    let playgrounds: Vec<String> = playgrounds(st, code)
        .into_iter()
        .flat_map(|p| [format!("  code block {} in {}:", p.block, p.name), format!("    {}", p.url)])
        .collect();
    if !playgrounds.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Code playgrounds", t.header));
        lines.extend(playgrounds.into_iter().map(Line::raw));
    }
    if !m.reactions().is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Reactions", t.header));
        for r in reactions_by_emoji(st, m) {
            // A Unicode emoji and its name; an emoji without a character here (custom,
            // zulip_extra) is drawn as its name, once.
            let name = format!(":{}:", r.name);
            let label = if r.glyph == name { name } else { format!("{} {name}", r.glyph) };
            lines.push(Line::raw(format!("  {label}  {}", r.who.join(", "))));
        }
    }
    // Who has read it (the user's own message), names in order; the popup scrolls.
    match read_by(st, m) {
        None => {}
        Some(ReadBy::Asking) => {
            lines.extend([Line::raw(""), Line::styled("Read by: asking the server…", t.dim)])
        }
        Some(ReadBy::Failed(e)) => {
            lines.extend([Line::raw(""), Line::styled(format!("Read by: {e}"), t.error)])
        }
        Some(ReadBy::Names(names)) if names.is_empty() => {
            lines.extend([Line::raw(""), Line::styled("Read by nobody yet", t.header)])
        }
        Some(ReadBy::Names(names)) => {
            lines.extend([Line::raw(""), Line::styled(format!("Read by {}", names.len()), t.header)]);
            lines.extend(names.into_iter().map(|n| Line::raw(format!("  {n}"))));
        }
        Some(ReadBy::Off) => {
            lines.extend([Line::raw(""), Line::styled("read receipts are off in this organization", t.dim)])
        }
    }
    // The user keeps their own reading to themselves (`send_read_receipts` off): said where
    // receipts are shown, since others' lists leave the user out.
    if st.data.user_settings().send_read_receipts == Some(false)
        && matches!(read_by(st, m), Some(ReadBy::Names(_) | ReadBy::Asking))
    {
        lines.push(Line::styled("(your read receipts are off: others do not see what you read)", t.dim));
    }
    scrolled_popup(f, st, lines, block, area, scroll);
}

/// A code block that a playground of the organization runs: the block's number, the
/// playground's name and the link that opens the code in it (all sanitised).
pub(super) struct Playground {
    pub(super) block: usize,
    pub(super) name: String,
    pub(super) url: String,
}

/// The playgrounds for a message's code blocks (each its code and language), in order.
pub(super) fn playgrounds<'a>(
    st: &State,
    blocks: impl Iterator<Item = (&'a str, Option<&'a str>)>,
) -> Vec<Playground> {
    let mut out = Vec::new();
    for (i, (code, lang)) in blocks.enumerate() {
        let Some(lang) = lang.filter(|l| !l.is_empty()) else { continue };
        for p in
            st.data.realm.custom.playgrounds.iter().filter(|p| p.pygments_language.eq_ignore_ascii_case(lang))
        {
            let code = crate::urls::uri_component(code);
            out.push(Playground {
                block: i + 1,
                name: sanitize(&p.name),
                url: sanitize(&p.url_template.replace("{code}", &code)),
            });
        }
    }
    out
}

/// The people who reacted with one emoji: its name (sanitised), how it is drawn (the Unicode
/// emoji, or `:name:`), who (sanitised names, in order).
pub(super) struct Reacted {
    pub(super) name: String,
    pub(super) glyph: String,
    pub(super) who: Vec<String>,
}

/// A message's reactions by emoji, in order of first appearance.
pub(super) fn reactions_by_emoji(st: &State, m: &crate::app::Stored) -> Vec<Reacted> {
    let mut by: Vec<Reacted> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for r in m.reactions() {
        let glyph = emoji_label(&r.emoji_code, &r.emoji_name, r.reaction_type.as_str());
        let key = (glyph, sanitize(&r.emoji_name));
        let who = sanitize(st.data.user_name(r.user_id));
        match index.get(&key) {
            Some(&i) => by[i].who.push(who),
            None => {
                index.insert(key.clone(), by.len());
                by.push(Reacted { name: key.1, glyph: key.0, who: vec![who] });
            }
        }
    }
    by
}

/// Who has read the user's own message, as far as it is known.
pub(super) enum ReadBy {
    Asking,
    /// Why not (sanitised).
    Failed(String),
    /// Their names, sanitised, sorted.
    Names(Vec<String>),
    /// The organization does not keep read receipts.
    Off,
}

/// Who has read message `m` (`None`: not asked, not the user's own).
pub(super) fn read_by(st: &State, m: &crate::app::Stored) -> Option<ReadBy> {
    let d = &st.data;
    if let Some((id, receipts)) = &st.ui.read_receipts
        && *id == m.id
    {
        return Some(match receipts {
            None => ReadBy::Asking,
            Some(Err(e)) => ReadBy::Failed(sanitize(e)),
            Some(Ok(ids)) => {
                let mut names: Vec<String> = ids.iter().map(|u| sanitize(d.user_name(*u))).collect();
                names.sort_by_key(|n| n.to_lowercase());
                ReadBy::Names(names)
            }
        });
    }
    (m.sender_id() == d.me && !d.realm.policies.read_receipts).then_some(ReadBy::Off)
}
