//! The channels pane and the people pane as the screen-reader mode draws them: one row per
//! entry, every mark a word (`channel design, private, muted, unread 3`).

use super::rows::{Pane, entries, heading, plain_row, with_marks};
use crate::app::{Activity, Conv, Section, SidebarRow, State};
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::layout::Rect;

fn unread(n: usize) -> String {
    if n > 0 { format!("unread {n}") } else { String::new() }
}

/// A person's presence in words; nothing when presence is not fetched (`--low-bandwidth`).
pub(super) fn presence(st: &State, a: Activity) -> String {
    if st.settings.low_bandwidth {
        return String::new();
    }
    match a {
        Activity::Active => "active",
        Activity::Idle => "idle",
        Activity::Offline => "offline",
    }
    .to_owned()
}

/// One row of the channels pane in words (`None` for a row whose channel or view is gone).
pub(super) fn sidebar_row(st: &State, row: &SidebarRow) -> Option<String> {
    let d = &st.data;
    Some(match row {
        SidebarRow::AllMessages => "All messages".to_owned(),
        SidebarRow::AllDms => with_marks("Direct messages".to_owned(), &[unread(d.unread.dm_total())]),
        SidebarRow::Starred => "Starred messages".to_owned(),
        SidebarRow::Mentions => with_marks("Mentions".to_owned(), &[unread(d.unread.mentions())]),
        SidebarRow::Channel(c) => {
            let ch = d.channels.get(*c)?;
            let marks = [
                if ch.invite_only { "private".to_owned() } else { String::new() },
                if ch.pinned { "pinned".to_owned() } else { String::new() },
                if ch.muted { "muted".to_owned() } else { String::new() },
                if st.ui.sidebar.expanded() == Some(*c) { "topics shown".to_owned() } else { String::new() },
                unread(d.channel_unread(*c)),
            ];
            with_marks(format!("channel {}", sanitize(&ch.name)), &marks)
        }
        SidebarRow::Topic(c, t) => {
            let policy = match d.policy(*c, t) {
                crate::api::VisibilityPolicy::Followed => "followed",
                crate::api::VisibilityPolicy::Muted => "muted",
                crate::api::VisibilityPolicy::Unmuted => "unmuted",
                _ => "",
            };
            let muted = d.topic_muted(*c, t);
            // A topic muted by its channel says so, as the default view's dim row does.
            let muted = if muted && policy.is_empty() { "muted" } else { "" };
            let n = if d.topic_muted(*c, t) { 0 } else { d.topic_unread(*c, t) };
            let name = format!("topic {}", sanitize(d.realm.topic_shown(t)));
            with_marks(name, &[policy.to_owned(), muted.to_owned(), unread(n)])
        }
        SidebarRow::Dm(users) => {
            let (names, presence_word) = match users.as_slice() {
                [] => (format!("{} (you)", d.user_name(d.me)), String::new()),
                [one] => (d.partner_name(*one).into_owned(), presence(st, d.activity(*one, st.now))),
                many => (
                    many.iter().map(|u| d.partner_name(*u).into_owned()).collect::<Vec<_>>().join(", "),
                    String::new(),
                ),
            };
            let n = d.unread.in_conv(&Conv::Dm(users.clone())).map_or(0, |s| s.len());
            with_marks(format!("DM with {}", sanitize(&names)), &[presence_word, unread(n)])
        }
        SidebarRow::View(fragment) => {
            let v = d.lists.views().iter().find(|v| v.fragment == *fragment)?;
            let pinned = if v.is_pinned { "pinned" } else { "" };
            with_marks(format!("view {}", sanitize(&crate::app::view_name(v))), &[pinned.to_owned()])
        }
        SidebarRow::Header(section) => match section {
            Section::Pinned => "Heading: pinned channels".to_owned(),
            Section::Folder(f) => format!(
                "Heading: folder {}",
                d.channels.folder(*f).map_or_else(|| "without a name".to_owned(), |f| sanitize(&f.name))
            ),
            Section::Other => "Heading: other channels".to_owned(),
        },
    })
}

/// An organization open in the window, in words: `organization acme, on screen, unread 3,
/// mentioned you` (the default pane's `▶`, `@3` and `⚠`).
fn org_words(r: &crate::app::orgs::OrgRow, label: &str, on_screen: bool) -> String {
    let marks = [
        if on_screen { "on screen".to_owned() } else { String::new() },
        match &r.closed {
            Some(why) => format!("closed: {}", sanitize(why)),
            None if r.offline => "server not answering".to_owned(),
            None => String::new(),
        },
        if r.closed.is_none() { unread(r.unread) } else { String::new() },
        if r.closed.is_none() && r.mentions > 0 { "mentioned you".to_owned() } else { String::new() },
        if r.user.is_empty() { String::new() } else { format!("you are {}", sanitize(&r.user)) },
    ];
    with_marks(format!("organization {}", sanitize(label)), &marks)
}

/// With several organizations open, a row for each above the channels (as the default pane
/// has them, and where a click switches to one); what is left of `area` below them.
fn draw_orgs(f: &mut Frame, st: &State, pane: &mut Pane, area: Rect) -> Rect {
    let orgs = &st.ui.orgs;
    let n = orgs.rows.len() as u16;
    // At least the heading and two channels' rows left below them.
    if !orgs.several() || area.height < n + 3 {
        pane.hits.orgs = Rect::default();
        return area;
    }
    for (k, r) in orgs.rows.iter().enumerate() {
        plain_row(
            f,
            pane.t,
            area,
            k as u16,
            &org_words(r, &orgs.label(k).unwrap_or_default(), k == orgs.active),
            false,
        );
    }
    pane.hits.orgs = Rect { height: n, ..area };
    Rect { y: area.y + n, height: area.height - n, ..area }
}

/// The channels pane filling `area`; the row of its selection.
pub(super) fn draw_channels(f: &mut Frame, st: &State, pane: &mut Pane, area: Rect) -> Option<u16> {
    let mut head = "Channels".to_owned();
    if !st.ui.sidebar.filter().is_empty() {
        head.push_str(&format!(", filtered by {}", sanitize(st.ui.sidebar.filter())));
    }
    let rows = st.ui.sidebar.rows();
    if rows.is_empty() {
        head.push_str(if st.ui.sidebar.filter().is_empty() { ": none yet" } else { ": nothing matches" });
    }
    let area = draw_orgs(f, st, pane, area);
    let body = heading(f, pane.t, area, &head);
    let sel = st.ui.sidebar.selected_index();
    let text = |i: usize| sidebar_row(st, &rows[i]).unwrap_or_default();
    let laid = entries(f, pane.t, body, (pane.memory.sidebar_top, rows.len(), sel), text);
    pane.memory.sidebar_top = laid.top;
    pane.hits.sidebar = body;
    pane.hits.sidebar_start = laid.top;
    pane.hits.sidebar_rows = Some(laid.owners);
    laid.cursor
}

/// Someone's status in words (`emoji partyparrot Release week!`), empty when they set none.
pub(super) fn status_words(st: &State, user: crate::api::UserId) -> String {
    let Some(u) = st.data.users.get(user) else { return String::new() };
    let s = &u.status;
    let mut status = String::new();
    if !s.emoji_name.is_empty() {
        status.push_str(&format!("emoji {}", sanitize(&s.emoji_name).replace('_', " ")));
    }
    if !s.status_text.is_empty() {
        if !status.is_empty() {
            status.push(' ');
        }
        status.push_str(&sanitize(&s.status_text));
    }
    status
}

/// The people pane filling `area`; the row of its selection.
pub(super) fn draw_people(f: &mut Frame, st: &State, pane: &mut Pane, area: Rect) -> Option<u16> {
    let mut head = "People".to_owned();
    if !st.ui.people.filter().is_empty() {
        head.push_str(&format!(", filtered by {}", sanitize(st.ui.people.filter())));
        if st.ui.people.list().is_empty() {
            head.push_str(": nobody matches");
        }
    }
    let body = heading(f, pane.t, area, &head);
    let sel = st.ui.people.selected_index();
    let text = |i: usize| {
        let Some(u) = st.data.users.get(st.ui.people.list()[i]) else { return String::new() };
        let status = status_words(st, u.id);
        let status = if status.is_empty() { status } else { format!("status: {status}") };
        let bot = if u.is_bot { "bot" } else { "" };
        let marks = [presence(st, st.data.activity(u.id, st.now)), bot.to_owned(), status];
        with_marks(sanitize(&u.full_name), &marks)
    };
    let laid = entries(f, pane.t, body, (pane.memory.people_top, st.ui.people.list().len(), sel), text);
    pane.memory.people_top = laid.top;
    laid.cursor
}
