//! The channel info popup: the rendered description, subscribers, folder, who may post, the
//! channel email, and the user's own settings with the keys that toggle them.

use super::common::{Ctx, centered, scrolled_popup};
use super::content::render_html_with_theme;
use super::theme::Theme;
use crate::api::{BasicChannel, ChannelId};
use crate::app::State;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

pub(super) fn draw_channel_info(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    channel: ChannelId,
    details: Option<&BasicChannel>,
    email: Option<&Result<String, String>>,
    scroll: u16,
) {
    let area = centered(f.area(), 90, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let d = &st.data;
    let sub = d.channels.get(channel);
    let name = details.map(|c| c.name.as_str()).or(sub.map(|s| s.name.as_str())).unwrap_or("channel");
    let block = Block::default().borders(Borders::ALL).title(format!(" #{} (esc to close) ", sanitize(name)));
    let field = |label: &str, value: String| {
        Line::from(vec![Span::styled(format!("{label:<14}"), t.header), Span::raw(value)])
    };
    let mut lines = Vec::new();
    match details {
        None => lines.push(Line::styled("Loading…", t.dim)),
        Some(c) => {
            let (kind, archived) = (kind(c), if c.is_archived { ", archived" } else { "" });
            lines.push(Line::styled(format!("#{} ({kind}{archived})", sanitize(&c.name)), t.bold));
            lines.push(Line::raw(""));
            let width = area.width.saturating_sub(2).max(10);
            let ctx =
                Ctx { spoilers: false, tz: st.tz, clock: st.settings.clock, images: None, previews: true };
            if c.rendered_description.trim().is_empty() && c.description.trim().is_empty() {
                lines.push(Line::styled("No description.", t.dim));
            } else if c.rendered_description.trim().is_empty() {
                lines.push(Line::raw(sanitize(&c.description)));
            } else {
                let r = render_html_with_theme(&c.rendered_description, width, &ctx, &t.content);
                lines.extend(r.lines);
                // The links, numbered as the description shows them.
                for (i, l) in r.links.iter().enumerate() {
                    lines.push(Line::styled(format!("  [{}] {}", i + 1, sanitize(&l.url)), t.dim));
                }
            }
            lines.push(Line::raw(""));
            for (label, value) in facts(st, c) {
                lines.push(field(label, value));
            }
        }
    }
    let email = match email {
        None => Line::styled("loading…", t.dim),
        Some(Ok(e)) => Line::raw(sanitize(e)),
        Some(Err(e)) => Line::styled(sanitize(e), t.dim),
    };
    let mut email_line = vec![Span::styled(format!("{:<14}", "Email"), t.header)];
    email_line.extend(email.spans);
    lines.push(Line::from(email_line));
    lines.push(Line::raw(""));
    let Some(s) = sub else {
        lines.push(Line::styled("You are not subscribed.", t.header));
        lines.push(Line::raw("  s  join the channel"));
        scrolled_popup(f, st, lines, block, area, scroll);
        return;
    };
    lines.push(Line::styled("Your settings", t.header));
    for (key, what, value) in settings(st, s) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {key}  "), t.accent),
            Span::raw(format!("{what:<23}")),
            Span::styled(value, t.bold),
        ]));
    }
    lines.push(Line::from(vec![Span::styled("  s  ", t.accent), Span::raw("leave the channel")]));
    lines.push(Line::from(vec![Span::styled("  y  ", t.accent), Span::raw("copy the channel email")]));
    scrolled_popup(f, st, lines, block, area, scroll);
}

/// Public, private or web-public.
pub(super) fn kind(c: &BasicChannel) -> &'static str {
    match (c.invite_only, c.is_web_public) {
        (true, _) => "private",
        (false, true) => "web-public",
        _ => "public",
    }
}

/// What the popup tells of a channel under its description, each a label and its value
/// (sanitised): subscribers, folder, who may post, created.
pub(super) fn facts(st: &State, c: &BasicChannel) -> Vec<(&'static str, String)> {
    let d = &st.data;
    // An older server's channel has no count (Zulip 8 sends none).
    let count = c.subscriber_count.map_or_else(|| d.realm.not_here(), |n| n.to_string());
    let folder = match c.folder_id {
        Some(id) => d.channels.folder(id).map_or_else(|| format!("folder {id}"), |f| sanitize(&f.name)),
        None => "none".to_owned(),
    };
    let created = st.tz.format(c.date_created, "%-d %b %Y");
    let by = c.creator_id.map_or_else(String::new, |u| format!(" by {}", sanitize(d.user_name(u))));
    let mut facts = vec![
        ("Subscribers", count),
        ("Folder", folder),
        ("Who may post", sanitize(&crate::app::who_may_post(d, c))),
        ("Created", format!("{created}{by}")),
    ];
    // An administrator's setting (level 507), for administrators: `:channel-push-default`.
    let admin = d.users.get(d.me).is_some_and(crate::app::UserInfo::is_admin);
    if let Some(on) = c.default_push_notifications.filter(|_| admin) {
        let words = if on { "on: new subscribers get mobile notifications" } else { "off" };
        facts.push(("Push default", words.to_owned()));
    }
    facts
}

/// The user's own settings of a channel they subscribe to: the key that toggles each, what it
/// is, its value in words.
pub(super) fn settings(st: &State, s: &crate::app::ChannelInfo) -> [(&'static str, &'static str, String); 4] {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let defaults = st.data.notify_defaults();
    [
        ("m", "muted", yes(s.muted).to_owned()),
        ("p", "pinned", yes(s.pinned).to_owned()),
        ("d", "desktop notifications", crate::app::notify_words(s.desktop_notifications, defaults.desktop)),
        ("a", "audible notifications", crate::app::notify_words(s.audible_notifications, defaults.audible)),
    ]
}
