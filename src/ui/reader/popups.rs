//! The list popups whose rows the default view marks with symbols, columns and colours (the
//! inbox, recent conversations, `:channels`), drawn by the screen-reader mode as rows of words
//! (the other popups: `text_popups.rs`, `list_popups.rs`).

use super::rows::{Pane, list, plain_row, with_marks};
use crate::app::{ChannelList, Conv, InboxGroup, InboxRow, InboxView, Narrow, RecentConversation, State};
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::layout::Rect;

fn unread(n: usize) -> String {
    if n > 0 { format!("unread {n}") } else { String::new() }
}

/// The inbox: a heading per channel, its topics, then the direct messages, every row in words.
pub(super) fn draw_inbox(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    view: &InboxView,
) -> Option<u16> {
    let d = &st.data;
    let head = if view.rows.is_empty() {
        "Inbox: no unread messages; esc closes"
    } else {
        "Inbox: enter opens, esc closes"
    };
    let row = |i: usize| match &view.rows[i] {
        InboxRow::Group { group, unread: n } => {
            let folded = if view.collapsed.contains(group) { "collapsed" } else { "" };
            match group {
                InboxGroup::Channel(c) => {
                    let ch = d.channels.get(*c);
                    let private = if ch.is_some_and(|c| c.invite_only) { "private" } else { "" };
                    let muted = if ch.is_some_and(|c| c.muted) { "muted" } else { "" };
                    let name = format!("channel {}", sanitize(d.channels.name(*c)));
                    with_marks(name, &[private.into(), muted.into(), folded.into(), unread(*n)])
                }
                InboxGroup::Dms => with_marks("Direct messages".into(), &[folded.into(), unread(*n)]),
            }
        }
        InboxRow::Topic { topic, unread: n, .. } => {
            with_marks(format!("topic {}", sanitize(d.realm.topic_shown(topic))), &[unread(*n)])
        }
        InboxRow::Dm { users, unread: n } => {
            let names = match users.as_slice() {
                [] => format!("{} (you)", d.user_name(d.me)),
                many => many.iter().map(|u| d.partner_name(*u)).collect::<Vec<_>>().join(", "),
            };
            with_marks(format!("DM with {}", sanitize(&names)), &[unread(*n)])
        }
    };
    list(f, pane, area, head, view.rows.len(), view.selected, row)
}

/// A conversation in words: `topic launch in channel design`, `DM with Alice`, `notes to self`
/// (sanitised).
pub(super) fn narrow_words(st: &State, narrow: &Narrow) -> String {
    let d = &st.data;
    match narrow {
        Narrow::Topic(c, t) => {
            format!("topic {} in channel {}", sanitize(d.realm.topic_shown(t)), sanitize(d.channels.name(*c)))
        }
        Narrow::Dm(users) if users.is_empty() => "notes to self".to_owned(),
        Narrow::Dm(users) => {
            let names: Vec<String> = users.iter().map(|u| sanitize(&d.partner_name(*u))).collect();
            format!("DM with {}", names.join(", "))
        }
        other => sanitize(&super::super::status::narrow_title(st, other)),
    }
}

/// Recent conversations, newest first: where, unread, who wrote, when.
pub(super) fn draw_recent(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    selected: usize,
    rows: Option<&[RecentConversation]>,
) -> Option<u16> {
    let d = &st.data;
    let Some(rows) = rows else {
        plain_row(f, pane.t, area, 0, "Recent conversations: loading", false);
        return Some(area.y);
    };
    let head = if rows.is_empty() {
        "Recent conversations: none yet; esc closes"
    } else {
        "Recent conversations: enter opens, esc closes"
    };
    let row = |i: usize| {
        let r = &rows[i];
        let place = narrow_words(st, &r.narrow);
        let conv = match &r.narrow {
            Narrow::Topic(c, t) => Some(Conv::Topic(*c, t.to_lowercase())),
            Narrow::Dm(users) => Some(Conv::Dm(users.clone())),
            _ => None,
        };
        let n = conv.and_then(|c| d.unread.in_conv(&c).map(|s| s.len())).unwrap_or(0);
        let who: Vec<String> = r.senders.iter().map(|u| sanitize(d.user_name(*u))).collect();
        let who = if who.is_empty() { String::new() } else { format!("from {}", who.join(", ")) };
        let when = st.tz.format(r.timestamp, st.settings.clock.short());
        with_marks(place, &[unread(n), who, when])
    };
    list(f, pane, area, head, rows.len(), selected, row)
}

/// `:channels`: what is typed to filter, then each channel shown, in words — subscribed or not,
/// private, how many subscribe, its description's first line.
pub(super) fn draw_channel_list(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    (typed, selected): (&str, usize),
    channels: Option<&ChannelList>,
) -> Option<u16> {
    let filter = if typed.is_empty() { String::new() } else { format!(" matching {}", sanitize(typed)) };
    let Some(channels) = channels else {
        plain_row(f, pane.t, area, 0, &format!("Channels{filter}: loading"), false);
        return None;
    };
    let head = match (channels.shown.is_empty(), channels.all.is_empty()) {
        (true, true) => "Channels: there are no channels you can see; esc closes".to_owned(),
        (true, false) => format!("Channels{filter}: none; esc closes"),
        _ => format!(
            "Channels{filter}: enter opens, control s joins or leaves, control o tells more, esc closes"
        ),
    };
    let row = |i: usize| {
        let Some(e) = channels.shown.get(i).and_then(|j| channels.all.get(*j)) else { return String::new() };
        let c = &e.channel;
        let marks = [
            if st.data.channels.is_subscribed(c.stream_id) { "subscribed" } else { "not subscribed" }
                .to_owned(),
            if c.invite_only { "private".to_owned() } else { String::new() },
            c.subscriber_count.map_or_else(String::new, |n| format!("{n} subscribers")),
        ];
        let text = with_marks(format!("channel {}", sanitize(&c.name)), &marks);
        if e.summary.is_empty() { text } else { format!("{text}: {}", sanitize(&e.summary)) }
    };
    list(f, pane, area, &head, channels.shown.len(), selected, row)
}
