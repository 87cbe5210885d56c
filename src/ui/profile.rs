//! A person's profile popup: what the client holds at once, the server's record when it comes.

use super::common::{centered, emoji_label, scrolled_popup};
use super::theme::Theme;
use crate::api::{User, UserId};
use crate::app::{Activity, State};
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

/// A role's name (the server's role codes).
fn role_name(role: i64) -> &'static str {
    match role {
        100 => "Organization owner",
        200 => "Organization administrator",
        300 => "Moderator",
        600 => "Guest",
        _ => "Member",
    }
}

/// The time now in an IANA time zone, as `14:05 (Tue)`; `None` for a zone the database lacks.
fn local_time(tz: &str, now: i64, twelve_hour: bool) -> Option<String> {
    let zone = jiff::tz::TimeZone::get(tz).ok()?;
    let t = jiff::Timestamp::from_second(now).ok()?.to_zoned(zone);
    Some(t.strftime(if twelve_hour { "%-I:%M %p (%a)" } else { "%H:%M (%a)" }).to_string())
}

pub(super) fn draw_profile(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    user: UserId,
    details: Option<&User>,
    scroll: u16,
) {
    let area = centered(f.area(), 72, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let block = Block::default().borders(Borders::ALL).title(" Profile (d: DM · @: mention · esc) ");
    let d = &st.data;
    let known = d.users.get(&user);
    let name = details
        .map(|u| u.full_name.as_str())
        .or(known.map(|u| u.full_name.as_str()))
        .unwrap_or("(unknown user)");
    let field = |label: &str, value: String| {
        Line::from(vec![Span::styled(format!("{label:<12}"), t.header), Span::raw(sanitize(&value))])
    };
    let mut lines = vec![Line::styled(sanitize(name), t.bold), Line::raw("")];
    if let Some(u) = known {
        lines.push(field("Email", u.email.clone()));
        let role = if u.is_bot { "Bot".to_owned() } else { role_name(u.role).to_owned() };
        lines.push(field("Role", if u.is_active { role } else { format!("{role} (deactivated)") }));
        let presence = match d.activity(user, st.now) {
            Activity::Active => "active",
            Activity::Idle => "idle",
            Activity::Offline => "offline",
        };
        lines.push(field("Presence", presence.into()));
        let s = &u.status;
        if !s.status_text.is_empty() || !s.emoji_name.is_empty() {
            let emoji = if s.emoji_name.is_empty() {
                String::new()
            } else {
                format!("{} ", emoji_label(&s.emoji_code, &s.emoji_name, &s.reaction_type))
            };
            lines.push(field("Status", format!("{emoji}{}", s.status_text)));
        }
    }
    match details {
        Some(u) => {
            if !u.timezone.is_empty() {
                let twelve = matches!(st.settings.clock, crate::app::settings::Clock::H12);
                let now = local_time(&u.timezone, st.now, twelve).map(|t| format!(", local time {t}"));
                lines.push(field("Time zone", format!("{}{}", u.timezone, now.unwrap_or_default())));
            }
            if let Some(joined) = u.date_joined.get(..10) {
                lines.push(field("Joined", joined.to_owned()));
            }
            for pf in &d.profile_fields {
                if let Some(v) = u.profile_data.as_ref().and_then(|p| p.get(&pf.id.to_string()))
                    && !v.value.is_empty()
                {
                    lines.push(field(&pf.name, v.value.clone()));
                }
            }
        }
        None => lines.push(Line::styled("loading the profile…", t.dim)),
    }
    let mut groups: Vec<&str> = d
        .groups
        .values()
        .filter(|g| !g.is_system_group && !g.deactivated && g.members.contains(&user))
        .map(|g| g.name.as_str())
        .collect();
    groups.sort_unstable();
    if !groups.is_empty() {
        lines.push(field("Groups", groups.iter().map(|g| format!("@{g}")).collect::<Vec<_>>().join(", ")));
    }
    scrolled_popup(f, st, lines, block, area, scroll);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_time_in_a_named_zone() {
        // 2026-11-23 12:00 UTC is 13:00 in Paris (CET) and 07:00 in New York (EST).
        let now = 1_795_435_200;
        assert_eq!(local_time("Europe/Paris", now, false).as_deref(), Some("13:00 (Mon)"));
        assert_eq!(local_time("America/New_York", now, true).as_deref(), Some("7:00 AM (Mon)"));
        assert_eq!(local_time("Not/AZone", now, false), None);
    }
}
