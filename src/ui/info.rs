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
    let d = &st.data;
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
    if !m.reactions().is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Reactions", t.header));
        let mut by: Vec<(String, Vec<String>)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for r in m.reactions() {
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
    // Who has read it (the user's own message), names in order; the popup scrolls.
    if let Some((id, receipts)) = &st.ui.read_receipts
        && *id == m.id
    {
        lines.push(Line::raw(""));
        match receipts {
            None => lines.push(Line::styled("Read by: asking the server…", t.dim)),
            Some(Err(e)) => lines.push(Line::styled(format!("Read by: {}", sanitize(e)), t.error)),
            Some(Ok(ids)) if ids.is_empty() => lines.push(Line::styled("Read by nobody yet", t.header)),
            Some(Ok(ids)) => {
                lines.push(Line::styled(format!("Read by {}", ids.len()), t.header));
                let mut names: Vec<String> = ids.iter().map(|u| sanitize(d.user_name(*u))).collect();
                names.sort_by_key(|n| n.to_lowercase());
                lines.extend(names.into_iter().map(|n| Line::raw(format!("  {n}"))));
            }
        }
    } else if m.sender_id() == d.me && !d.realm.read_receipts {
        lines.push(Line::raw(""));
        lines.push(Line::styled("read receipts are off in this organization", t.dim));
    }
    scrolled_popup(f, st, lines, block, area, scroll);
}
