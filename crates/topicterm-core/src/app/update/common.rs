//! Helpers every part of `update` shares: the status line, the page size, derived sidebar and
//! people rows, opening the compose box, the selected message.

use super::prelude::*;

/// Messages fetched around the anchor when a narrow opens, and per page when scrolling back.
pub const PAGE: u64 = 50;

/// With `--low-bandwidth`: the messages asked for each side of a view's first page.
pub const LEAN_PAGE: u64 = 15;

/// The messages asked for each side of a view's first page, and in each page further on as the
/// selection nears a window's end.
pub(super) fn first_page(st: &State) -> u64 {
    if st.settings.low_bandwidth { LEAN_PAGE } else { PAGE }
}

/// Messages fetched after the newest loaded one when resynchronising a window (or filling the
/// gap after a first page taken before the event queue existed).
pub(super) const RESYNC_AFTER: u64 = 4 * PAGE;

/// The most a resynchronisation asks for before a window's newest message (the most the
/// reference server recommends a request ask): a longer window is cut to what the answer
/// covers, and pages back in the rest.
pub(super) const RESYNC_BEFORE: u64 = 1_000;

/// What a resynchronisation asks for before a window's newest message when it holds `held`
/// before it: all of them, so that the answer, which takes the window's place
/// (`Views::resync`), covers what it shows.
pub(super) fn resync_before(held: usize) -> u64 {
    (held as u64).clamp(PAGE, RESYNC_BEFORE)
}

/// The key that reopens an organization whose account the server refused (its closed screen's
/// own key, as a popup has its own).
pub(super) const REOPEN_KEY: char = 'r';

pub(super) fn set_status(st: &mut State, text: impl Into<String>) {
    st.ui.status = Some(Status { text: text.into(), error: false, at: st.now });
}

pub(super) fn set_error(st: &mut State, text: impl Into<String>) {
    st.ui.status = Some(Status { text: text.into(), error: true, at: st.now });
}

/// Open the compose box, continuing the conversation's saved draft if there is one.
pub(super) fn open_compose(st: &mut State, target: Target, text: &str, editing: Option<MessageId>) {
    let mut c = Compose::new(target, text, editing);
    if let Some(draft) = st.drafts.get(&c.draft_key()).filter(|d| !d.trim().is_empty()) {
        let merged =
            if text.is_empty() || editing.is_some() { draft.clone() } else { format!("{draft}\n{text}") };
        c = Compose::new(c.target.clone(), &merged, editing);
        set_status(st, "draft restored");
    }
    st.ui.compose = Some(c);
}

/// Forget a sent (or saved) compose box's draft.
pub(super) fn drop_draft(st: &mut State, key: String) -> Effect {
    st.drafts.remove(&key);
    st.ui.draft_dirty = false;
    Effect::SaveDraft { key, text: String::new() }
}

/// The selected message, if any.
pub fn selected_message(st: &State) -> Option<&Stored> {
    st.ui.selected.and_then(|id| st.data.messages.get(&id))
}

/// A message's links, code blocks and pictures as the message pane shows them ([`State::shown`]):
/// none of a hidden message, none inside a closed spoiler, numbered as on screen.
pub(super) fn shown_parts(st: &State, m: &Stored) -> crate::content::Summary {
    match st.shown(m) {
        Shown::Hidden => crate::content::Summary::default(),
        Shown::Body { spoilers_open } => parts_with(m, spoilers_open),
    }
}

/// A message's links, code blocks and pictures with its spoilers open or closed.
pub(super) fn parts_with(m: &Stored, spoilers_open: bool) -> crate::content::Summary {
    struct Spoilers(bool);
    impl crate::content::ContentContext for Spoilers {
        fn format_time(&self, _: i64) -> String {
            String::new()
        }
        fn spoiler_open(&self, _: usize) -> bool {
            self.0
        }
    }
    crate::content::Document::parse(m.content()).summary(&Spoilers(spoilers_open))
}

/// Would a message sent to `target` show in `narrow`?
pub(super) fn narrow_holds(narrow: &Narrow, target: &Target) -> bool {
    target.shown_in(narrow)
}

/// Select the message the user just sent, once the current view holds it.
pub(super) fn apply_jump(st: &mut State) {
    let Some(id) = st.ui.jump_to else { return };
    if st.data.views.get(&st.ui.narrow).is_some_and(|v| v.contains(id)) {
        st.ui.selected = Some(id);
        st.ui.jump_to = None;
    }
}

/// Rebuild the people list: active, then idle, then offline; by name within each.
/// Only while the pane is shown: it sorts every user.
pub fn rebuild_people(st: &mut State) {
    if !st.ui.people.shown() {
        return;
    }
    let d = &st.data;
    let now = st.now;
    let filter = st.ui.people.filter();
    let mut people: Vec<(u8, String, UserId)> = d
        .users
        .all()
        .into_iter()
        .flatten()
        .filter(|u| u.is_active && !u.is_bot && matches_filter(&u.full_name, filter))
        .map(|u| {
            let rank = match d.activity(u.id, now) {
                Activity::Active => 0,
                Activity::Idle => 1,
                Activity::Offline => 2,
            };
            (rank, u.full_name.to_lowercase(), u.id)
        })
        .collect();
    people.sort();
    // The selection stays on the person it was on.
    st.ui.people.replace(people.into_iter().map(|(_, _, id)| id).collect());
}

/// Does a name match a filter (every word somewhere in it)?
pub fn matches_filter(name: &str, filter: &str) -> bool {
    if filter.is_empty() {
        return true;
    }
    let name = name.to_lowercase();
    filter.split_whitespace().all(|w| name.contains(w))
}

/// Whether a view gets a row of its own: saved narrows, and the built-in views this client
/// shows that the rows above do not already open (all messages, DMs, starred, mentions).
pub fn has_view_row(v: &NavigationView) -> bool {
    let bare = v.fragment.trim_start_matches('#');
    bare.starts_with("narrow/") || matches!(bare, "recent" | "scheduled")
}

/// How many recent direct-message conversations the channels pane lists.
pub const DM_ROWS: usize = 5;

/// The `n` most recent direct-message conversations, newest first; those with muted users
/// only are left out.
pub fn recent_dms(d: &Data, n: usize) -> Vec<Vec<UserId>> {
    let mut all: Vec<(&MessageId, &Vec<UserId>)> = d
        .recent_dms()
        .iter()
        .filter(|(users, _)| users.is_empty() || !users.iter().all(|u| d.users.is_muted(*u)))
        .map(|(users, id)| (id, users))
        .collect();
    let n = n.min(all.len());
    if n == 0 {
        return Vec::new();
    }
    all.select_nth_unstable_by(n - 1, |a, b| b.cmp(a));
    all.truncate(n);
    all.sort_unstable_by(|a, b| b.cmp(a));
    all.into_iter().map(|(_, users)| users.clone()).collect()
}

/// Rebuild the channels pane's rows (on changes only, not per frame).
pub fn rebuild_sidebar(st: &mut State) {
    let d = &st.data;
    let filter = st.ui.sidebar.filter();
    let matches = |name: &str| matches_filter(name, filter);
    let mut rows = Vec::new();
    if filter.is_empty() {
        rows.extend([SidebarRow::AllMessages, SidebarRow::AllDms]);
        rows.extend(recent_dms(d, DM_ROWS).into_iter().map(SidebarRow::Dm));
        rows.extend([SidebarRow::Starred, SidebarRow::Mentions]);
        // Saved views, pinned first (each group in the server's order).
        let (pinned, other): (Vec<&NavigationView>, Vec<&NavigationView>) =
            d.lists.views().iter().filter(|v| has_view_row(v)).partition(|v| v.is_pinned);
        rows.extend(pinned.into_iter().chain(other).map(|v| SidebarRow::View(v.fragment.clone())));
    } else {
        // Filtering: every conversation whose people match (newest first), then the channels.
        // The filter narrows the pane, it does not cap it: this runs per keystroke, and the
        // pane draws only the rows it shows.
        let named = |users: &Vec<UserId>| users.iter().any(|u| matches(d.user_name(*u)));
        rows.extend(recent_dms(d, usize::MAX).into_iter().filter(named).map(SidebarRow::Dm));
    }
    let sections = channel_sections(d, filter);
    // Headings only when some channels are in folders, as in the web app.
    let headed = sections.iter().any(|(s, _)| matches!(s, Section::Folder(_)));
    for (section, chans) in sections {
        if headed {
            rows.push(SidebarRow::Header(section));
        }
        for c in chans {
            rows.push(SidebarRow::Channel(c));
            if st.ui.sidebar.expanded() == Some(c)
                && let Some(list) = d.topics.of(c)
            {
                rows.extend(list.iter().map(|t| SidebarRow::Topic(c, t.name.clone())));
            }
        }
    }
    st.ui.sidebar.replace(rows);
}

/// Channels the user is in from which `demote_inactive_streams`' automatic choice demotes the
/// inactive ones (the web app's cut).
const DEMOTE_FROM: usize = 30;

/// The subscribed channels matching `filter`, grouped as the channels pane shows them: pinned
/// ones first (wherever their folder), then each folder that holds some, in the organization's
/// order (archived folders' channels count as in none), then the rest; within each, inactive
/// ones last where the user's setting demotes them, then muted, then by name. Empty groups are left out.
pub fn channel_sections(d: &Data, filter: &str) -> Vec<(Section, Vec<ChannelId>)> {
    let mut chans: Vec<&ChannelInfo> =
        d.channels.iter().filter(|c| matches_filter(&c.name, filter)).collect();
    // Inactive channels last in each group where the user's `demote_inactive_streams` says
    // (1, automatic: with 30 channels or more, as the web app; 2: always; 3: never).
    let demote = match d.user_settings().demote_inactive_streams {
        Some(1) => d.channels.iter().count() >= DEMOTE_FROM,
        Some(2) => true,
        _ => false,
    };
    let inactive = |c: &ChannelInfo| demote && c.recently_active == Some(false);
    chans.sort_by_cached_key(|c| (inactive(c), c.muted, c.name.to_lowercase()));
    let folder = |c: &ChannelInfo| {
        c.folder_id.and_then(|f| d.channels.folder(f)).filter(|f| !f.is_archived).map(|f| (f.order, f.id))
    };
    let mut groups: std::collections::BTreeMap<(u8, (i64, i64)), Vec<ChannelId>> = Default::default();
    for c in chans {
        let key = match (c.pinned, folder(c)) {
            (true, _) => (0, (0, 0)),
            (false, Some(f)) => (1, f),
            (false, None) => (2, (0, 0)),
        };
        groups.entry(key).or_default().push(c.id);
    }
    groups
        .into_iter()
        .map(|((rank, (_, id)), chans)| {
            let section = match rank {
                0 => Section::Pinned,
                1 => Section::Folder(id),
                _ => Section::Other,
            };
            (section, chans)
        })
        .collect()
}

/// Keep the channels pane's selection off headings: onward in the direction it was moving (or
/// back, at the end).
pub(super) fn settle_sidebar_selection(st: &mut State, forward: bool) {
    st.ui.sidebar.settle(forward);
}

/// "A", "A and B", "A, B and C".
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Move a list's selection by the keys every list popup shares — `j`/`k` or arrows, page keys,
/// `g`/`G` or home/end — within `0..=last`; `false`: not one of them.
pub(super) fn list_move(selected: &mut usize, last: usize, code: KeyCode) -> bool {
    *selected = match code {
        KeyCode::Down | KeyCode::Char('j') => (*selected + 1).min(last),
        KeyCode::Up | KeyCode::Char('k') => selected.saturating_sub(1),
        KeyCode::PageDown => (*selected + 10).min(last),
        KeyCode::PageUp => selected.saturating_sub(10),
        KeyCode::Home | KeyCode::Char('g') => 0,
        KeyCode::End | KeyCode::Char('G') => last,
        _ => return false,
    };
    true
}
