//! The profile popup: who someone is, their local time, status, presence, groups and custom
//! profile fields, and the keys that write to them.

use super::common::{Ctx, centered, emoji_label, scrolled_popup};
use super::content::render_html_with_theme;
use super::people::activity_glyph;
use super::theme::Theme;
use crate::api::{User, UserId};
use crate::app::State;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

pub(super) fn draw_profile(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    user: UserId,
    details: Option<&User>,
    scroll: u16,
) {
    let area = centered(f.area(), 84, f.area().height.saturating_sub(2));
    f.render_widget(Clear, area);
    let d = &st.data;
    let name = details.map_or_else(|| d.user_name(user).to_owned(), |u| u.full_name.clone());
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} (esc to close) ", sanitize(&name)))
        .title_bottom(Line::styled(" x direct message · @ mention · esc close ", t.dim));
    let field = |label: &str, value: Vec<Span<'static>>| labelled(label, value, t).remove(0);
    let Some(u) = details else {
        scrolled_popup(f, st, vec![Line::styled("Loading…", t.dim)], block, area, scroll);
        return;
    };
    let mut lines = vec![Line::styled(sanitize(&u.full_name), t.bold), Line::raw("")];
    for fact in facts(st, u, user) {
        let value = match fact.activity {
            Some(a) => vec![activity_glyph(a, t), Span::raw(format!(" {}", fact.value))],
            None => vec![Span::raw(fact.value)],
        };
        lines.push(field(fact.label, value));
    }
    let width = area.width.saturating_sub(2).max(10);
    let ctx = Ctx { spoilers: false, tz: st.tz, clock: st.settings.clock, images: None, previews: true };
    let mut custom = Vec::new();
    for (label, value) in custom_fields(st, u) {
        match value {
            Custom::Html(html) => {
                custom.push(Line::styled(label, t.header));
                custom.extend(
                    render_html_with_theme(html, width.saturating_sub(2), &ctx, &t.content)
                        .lines
                        .into_iter()
                        .map(|l| {
                            let mut spans = vec![Span::raw("  ")];
                            spans.extend(l.spans);
                            Line::from(spans)
                        }),
                );
            }
            Custom::Text(text) => custom.extend(labelled(&label, vec![Span::raw(text)], t)),
        }
    }
    if !custom.is_empty() {
        lines.push(Line::raw(""));
        lines.extend(custom);
    }
    scrolled_popup(f, st, lines, block, area, scroll);
}

/// A row of what the popup tells of someone: its label, its value (sanitised) and, for their
/// presence, the activity its mark shows.
pub(super) struct Fact {
    pub(super) label: &'static str,
    pub(super) value: String,
    pub(super) activity: Option<crate::app::Activity>,
}

/// What the popup tells of `u` above their custom fields: email, role, local time, joined,
/// status, presence, groups — those known.
pub(super) fn facts(st: &State, u: &User, user: UserId) -> Vec<Fact> {
    let d = &st.data;
    let fact = |label, value| Fact { label, value, activity: None };
    let mut out = vec![fact("Email", sanitize(&u.email))];
    let role = crate::app::role_of(u.role, u.is_owner, u.is_admin, u.is_guest);
    let mut what = if u.is_bot {
        let owner =
            u.bot_owner_id.map_or_else(String::new, |o| format!(", owned by {}", sanitize(d.user_name(o))));
        format!("Bot{owner}")
    } else {
        crate::app::role_name(role).to_owned()
    };
    if !u.is_active {
        what.push_str(" (deactivated)");
    }
    out.push(fact("Role", what));
    if !u.timezone.is_empty() {
        let zone = sanitize(&u.timezone);
        let now = crate::app::zone_time(&u.timezone, st.now, st.settings.clock)
            .map_or_else(|| zone.clone(), |time| format!("{time}, {zone}"));
        out.push(fact("Local time", now));
    }
    if let Ok(joined) = chrono::DateTime::parse_from_rfc3339(&u.date_joined) {
        out.push(fact("Joined", st.tz.format(joined.timestamp(), "%-d %B %Y")));
    }
    if let Some(info) = d.users.get(user) {
        let s = &info.status;
        if !s.status_text.is_empty() || !s.emoji_name.is_empty() {
            let emoji = if s.emoji_name.is_empty() {
                String::new()
            } else {
                format!("{} ", emoji_label(&s.emoji_code, &s.emoji_name, &s.reaction_type))
            };
            out.push(fact("Status", format!("{emoji}{}", sanitize(&s.status_text))));
        }
    }
    if !u.is_bot && !st.settings.low_bandwidth {
        let activity = d.activity(user, st.now);
        let word = match activity {
            crate::app::Activity::Active => "active",
            crate::app::Activity::Idle => "idle",
            crate::app::Activity::Offline => "offline",
        };
        out.push(Fact { label: "Presence", value: word.to_owned(), activity: Some(activity) });
    }
    // Only the groups people made (the role groups say what Role already says).
    let mut groups: Vec<String> = d
        .users
        .groups()
        .filter(|g| !g.is_system_group && !g.deactivated && g.members.contains(&user))
        .map(|g| format!("@{}", sanitize(&g.name)))
        .collect();
    groups.sort();
    if !groups.is_empty() {
        out.push(fact("Groups", groups.join(", ")));
    }
    out
}

/// A custom profile field's value: the server's HTML of it, or its text (sanitised).
pub(super) enum Custom<'a> {
    Html(&'a str),
    Text(String),
}

/// `u`'s custom profile fields that have a value, in the organization's order: each its name
/// (sanitised) and value.
pub(super) fn custom_fields<'a>(st: &State, u: &'a User) -> Vec<(String, Custom<'a>)> {
    let profile = u.profile_data.as_ref();
    let mut out = Vec::new();
    for fd in &st.data.realm.custom.profile_fields {
        let Some(v) = profile.and_then(|p| p.get(&fd.id.to_string())) else { continue };
        // Labelled as the rows above are: the name, no colon.
        let label = sanitize(&fd.name);
        if let Some(html) = v.rendered_value.as_deref().filter(|h| !h.trim().is_empty()) {
            out.push((label, Custom::Html(html)));
            continue;
        }
        let text = match &v.value {
            // A list field: the option's text, from the field's options.
            serde_json::Value::String(key) if fd.field_type == 3 => {
                serde_json::from_str::<serde_json::Value>(&fd.field_data)
                    .ok()
                    .and_then(|o| o.get(key)?.get("text")?.as_str().map(str::to_owned))
                    .unwrap_or_else(|| key.clone())
            }
            // The users field: a list of IDs — as the JSON text of one, as the reference
            // server sends it (`"[10]"`), or as a list.
            serde_json::Value::String(s) if fd.field_type == USER_FIELD => {
                serde_json::from_str::<Vec<i64>>(s)
                    .map(|ids| user_names(st, &ids))
                    .unwrap_or_else(|_| s.clone())
            }
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(ids) => {
                user_names(st, &ids.iter().filter_map(serde_json::Value::as_i64).collect::<Vec<_>>())
            }
            other => other.to_string(),
        };
        out.push((label, Custom::Text(sanitize(&text))));
    }
    out
}

/// Columns a label takes before its value.
const LABEL: usize = 13;

/// A label and its value on one row, the value in the column after the labels (padded by
/// display width); a label too long for that column on a row of its own, its value indented
/// below (an organization's own field names run long: "Favorite editor" ran into "Emacs").
fn labelled(label: &str, value: Vec<Span<'static>>, t: &Theme) -> Vec<Line<'static>> {
    let width = crate::content::display_width(label);
    if width <= LABEL {
        let mut spans = vec![Span::styled(format!("{label}{}", " ".repeat(LABEL + 1 - width)), t.header)];
        spans.extend(value);
        return vec![Line::from(spans)];
    }
    let mut spans = vec![Span::raw("  ")];
    spans.extend(value);
    vec![Line::styled(label.to_owned(), t.header), Line::from(spans)]
}

/// The custom profile field type that holds users (Zulip's `USER`).
const USER_FIELD: i64 = 6;

/// Users' names, joined.
fn user_names(st: &State, ids: &[i64]) -> String {
    ids.iter().map(|id| st.data.user_name(*id).to_owned()).collect::<Vec<_>>().join(", ")
}
