//! Actions that move about: the selection of each pane, from pane to pane, opening the
//! selected sidebar row, the next unread topic or direct messages, the selected message's
//! channel.

use super::common::*;
use super::navigation::{move_selection, open_narrow};
use super::prelude::*;

/// Up, down, a page, the top or the bottom: move the selection of the focused pane.
pub(super) fn move_by(st: &mut State, a: Action) -> Vec<Effect> {
    let delta: isize = match a {
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -10,
        Action::PageDown => 10,
        Action::Top => isize::MIN / 2,
        _ => isize::MAX / 2,
    };
    if st.ui.focus == Focus::People {
        super::panes::move_person(st, delta);
        vec![]
    } else if st.ui.focus == Focus::Sidebar {
        st.ui.sidebar.move_selection(delta);
        settle_sidebar_selection(st, delta > 0);
        vec![]
    } else {
        move_selection(st, delta)
    }
}

/// Move the focus to the next pane towards the messages (`to_messages`) or the sidebar.
pub(super) fn focus_step(st: &mut State, to_messages: bool) -> Vec<Effect> {
    super::panes::focus_step(st, to_messages);
    vec![]
}

/// Open the selected sidebar row's view; a channel row also shows or hides its topics.
pub(super) fn open_row(st: &mut State) -> Vec<Effect> {
    let Some(row) = st.ui.sidebar.selected().cloned() else { return vec![] };
    if !row.selectable() {
        return vec![];
    }
    if let SidebarRow::View(fragment) = &row {
        return super::views::open(st, fragment);
    }
    let mut fx = Vec::new();
    if let SidebarRow::Channel(c) = row {
        if st.ui.sidebar.toggle_topics(c) && st.data.topics.ask(c) {
            fx.push(Effect::FetchTopics(c));
        }
        rebuild_sidebar(st);
    }
    fx.extend(open_narrow(st, row.narrow()));
    st.ui.focus = Focus::Sidebar;
    fx
}

/// Open the next unread topic after the one in view, in sidebar order.
pub(super) fn next_unread_topic(st: &mut State) -> Vec<Effect> {
    let order: Vec<ChannelId> = st
        .ui
        .sidebar
        .rows()
        .iter()
        .filter_map(|r| if let SidebarRow::Channel(c) = r { Some(*c) } else { None })
        .collect();
    // Unread topics in sidebar order: channels as listed, topics by name. The next one
    // is the first after the current topic in that order (whether or not the current
    // one is still unread), wrapping around: never back to an earlier one first.
    let rank: HashMap<ChannelId, usize> = order.iter().enumerate().map(|(i, c)| (*c, i)).collect();
    let current = match &st.ui.narrow {
        Narrow::Topic(c, t) => rank.get(c).map(|r| (*r, t.to_lowercase())),
        Narrow::Channel(c) => rank.get(c).map(|r| (*r, String::new())),
        _ => None,
    };
    let mut candidates: Vec<(usize, ChannelId, String)> = Vec::new();
    for (r, c) in order.iter().enumerate() {
        if let Some(topics) = st.data.unread.topics_in(*c) {
            candidates
                .extend(topics.iter().filter(|t| !st.data.topic_muted(*c, t)).map(|t| (r, *c, t.clone())));
        }
    }
    let next = match &current {
        Some((r, t)) => candidates
            .iter()
            .find(|(cr, _, ct)| (cr, ct) > (r, t))
            .or(candidates.iter().find(|(cr, _, ct)| (cr, ct) != (r, t)))
            .or(candidates.first()),
        None => candidates.first(),
    }
    .map(|(_, c, t)| (*c, t.clone()));
    match next {
        Some((c, t)) => {
            // Use the topic's display name from any unread message in it.
            let name = st
                .data
                .unread
                .in_conv(&Conv::Topic(c, t.clone()))
                .and_then(|ids| ids.iter().find_map(|id| st.data.messages.get(id)))
                .map(|m| m.topic().to_owned())
                .or_else(|| {
                    st.data
                        .topics
                        .of(c)
                        .and_then(|l| l.iter().find(|x| x.name.to_lowercase() == t))
                        .map(|x| x.name.clone())
                })
                .unwrap_or(t);
            open_narrow(st, Narrow::Topic(c, name))
        }
        None => {
            set_status(st, "no unread topics");
            vec![]
        }
    }
}

/// Open the first direct-message conversation with unread messages.
pub(super) fn next_unread_dm(st: &mut State) -> Vec<Effect> {
    let next = st
        .data
        .unread
        .conversations()
        .filter_map(|(c, _)| if let Conv::Dm(u) = c { Some(u.clone()) } else { None })
        .min();
    match next {
        Some(users) => open_narrow(st, Narrow::Dm(users)),
        None => {
            set_status(st, "no unread direct messages");
            vec![]
        }
    }
}

/// Open the selected message's channel (nothing for a direct message).
pub(super) fn narrow_channel(st: &mut State) -> Vec<Effect> {
    match selected_message(st).map(|m| (m.stream_id(), m.is_dm())) {
        Some((Some(c), false)) => open_narrow(st, Narrow::Channel(c)),
        _ => vec![],
    }
}
