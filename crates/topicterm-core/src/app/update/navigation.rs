//! Narrows: opening one, pages of messages arriving, moving the selection, reading.

use super::common::*;
use super::prelude::*;
use crate::api::{DisplayRecipient, MessageType};
use crate::app::told::Mark;

/// Switch to a narrow, fetching its first page if needed. Offline, or while the last session
/// is shown before the server has answered, the messages already held that belong to it are
/// shown meanwhile; offline nothing is asked (it loads when the server answers).
pub fn open_narrow(st: &mut State, narrow: Narrow) -> Vec<Effect> {
    st.ui.narrow = narrow.clone();
    st.ui.selected = None;
    st.ui.focus = Focus::Messages;
    visit(st, &narrow);
    if st.data.views.get(&narrow).is_some_and(|v| v.is_loaded() || v.is_loading_newer()) {
        if narrow == Narrow::Starred {
            // Messages unstarred while the view was on screen leave it now.
            let msgs = &st.data.messages;
            if let Some(v) = st.data.views.get_mut(&narrow) {
                v.keep_only(|id| msgs.get(id).is_none_or(|m| m.has_flag(Flag::Starred)));
            }
        }
        select_initial(st);
        // Reopening a conversation reads its first unread message, as the first opening did.
        return mark_selected_read(st);
    }
    let epoch = st.data.reset_view(&narrow);
    if st.ui.conn.is_offline() || st.ui.conn.from_cache() {
        fill_from_held(st, &narrow);
    }
    let terms = narrow.terms(st.data.me);
    let search = matches!(narrow, Narrow::Search { .. });
    // The archive on this machine answers at once: a search's matches while the server is
    // asked, any view's messages offline (`update::local`).
    let mut fx: Vec<Effect> = (search || st.ui.conn.is_offline())
        .then(|| Effect::SearchArchive {
            narrow: narrow.clone(),
            terms: terms.clone(),
            limit: PAGE as u32,
            epoch,
        })
        .into_iter()
        .collect();
    if st.ui.conn.is_offline() {
        if let Some(v) = st.data.views.get_mut(&narrow) {
            v.not_asked();
        }
        return fx;
    }
    fx.push(first_page_of(st, narrow, epoch));
    fx
}

/// The request for a window's first page.
pub(super) fn first_page_of(st: &State, narrow: Narrow, epoch: u64) -> Effect {
    // A search's first page is its newest matches, as the archive's are (and as the web app
    // asks): the server's answer then covers what was shown from the archive, and takes its
    // place without moving the selection. A search reads nothing, so its first unread message
    // is no place to start.
    let anchor = if matches!(narrow, Narrow::Search { .. }) { Anchor::Newest } else { Anchor::FirstUnread };
    let (terms, page) = (narrow.terms(st.data.me), first_page(st));
    Effect::FetchMessages { narrow, terms, anchor, before: page, after: page, older: false, epoch }
}

/// The window of `narrow` asked for again as its new epoch `epoch` (`Views::ask_again`): around
/// the selection where it is on screen with one, else from its first unread message.
pub(super) fn again_of(st: &State, narrow: Narrow, epoch: u64) -> Effect {
    let anchor = match st.ui.selected {
        Some(id) if narrow == st.ui.narrow => Anchor::Id(id),
        _ => Anchor::FirstUnread,
    };
    let terms = narrow.terms(st.data.me);
    Effect::FetchMessages { narrow, terms, anchor, before: PAGE, after: PAGE, older: false, epoch }
}

/// Open a narrow at one message: its window is fetched around it, and it is selected when it
/// arrives (links to a message, a topic that moved under the reader).
pub fn open_near(st: &mut State, narrow: Narrow, id: MessageId) -> Vec<Effect> {
    st.ui.narrow = narrow.clone();
    st.ui.selected = None;
    st.ui.focus = Focus::Messages;
    visit(st, &narrow);
    st.ui.jump_to = Some(id);
    vec![fetch_around(st, narrow, id)]
}

/// A fresh window of `narrow` around message `id` (the old window is dropped).
pub(super) fn fetch_around(st: &mut State, narrow: Narrow, id: MessageId) -> Effect {
    let epoch = st.data.reset_view(&narrow);
    let terms = narrow.terms(st.data.me);
    Effect::FetchMessages {
        narrow,
        terms,
        anchor: Anchor::Id(id),
        before: PAGE,
        after: PAGE,
        older: false,
        epoch,
    }
}

/// Note a narrow as the one opened last (the last session keeps the windows of these).
pub(super) fn visit(st: &mut State, narrow: &Narrow) {
    let v = &mut st.ui.visited;
    v.retain(|n| n != narrow);
    v.insert(0, narrow.clone());
    v.truncate(crate::app::session::CACHED_NARROWS);
}

/// Show in a narrow's window the messages already held that belong to it, as provisional (see
/// `NarrowView::provisional`), and select as on opening. A pass over the messages held: done
/// when a narrow is opened without a server to ask, never per event or frame.
pub(super) fn fill_from_held(st: &mut State, narrow: &Narrow) {
    let d = &st.data;
    let ids: Vec<MessageId> = d
        .messages
        .values()
        .filter(|m| narrow.contains(m, d.me) && (*narrow != Narrow::All || d.in_feed(m)))
        .map(|m| m.id)
        .collect();
    st.data.views.fill_provisional(narrow, ids);
    if *narrow == st.ui.narrow {
        select_initial(st);
    }
}

/// The narrow on screen loads now if it could not while the server was out of reach.
pub(super) fn reload_if_not_loaded(st: &mut State) -> Vec<Effect> {
    if st.data.views.get(&st.ui.narrow).is_some_and(|v| v.is_loaded() || v.is_loading_newer()) {
        return vec![];
    }
    open_shown(st)
}

/// Open the narrow on screen, the focus left where it is (the server's answers open it, not
/// the user).
pub(super) fn open_shown(st: &mut State) -> Vec<Effect> {
    let focus = st.ui.focus;
    let fx = open_narrow(st, st.ui.narrow.clone());
    st.ui.focus = focus;
    fx
}

pub(super) fn select_initial(st: &mut State) {
    let Some(view) = st.data.views.get(&st.ui.narrow) else { return };
    let first_unread = view.ids().iter().copied().find(|id| st.data.unread.contains(*id));
    st.ui.selected = first_unread.or_else(|| view.ids().last().copied());
}

pub(super) fn on_messages(
    st: &mut State,
    narrow: Narrow,
    resp: MessagesResponse,
    older: bool,
) -> Vec<Effect> {
    let ids: Vec<MessageId> = resp.messages.iter().map(|m| m.id).collect();
    let mut ids_sorted = ids.clone();
    ids_sorted.sort_unstable();
    // The server's computed anchor is the first message on or after the date.
    let date_anchor = match st.ui.date_jump.take() {
        Some(date) if narrow == st.ui.narrow && !older => resp.anchor.map(|a| (a, date)),
        other => {
            st.ui.date_jump = other;
            None
        }
    };
    let mut matches = Vec::new();
    st.data.messages.let_go_told(st.now);
    for mut m in resp.messages {
        // What a search matched belongs to that search's view, not to the message.
        let (content, subject) = (m.match_content.take(), m.match_subject.take());
        if content.is_some() || subject.is_some() {
            matches.push((m.id, SearchMatch { content, subject }));
        }
        take_fetched(st, m);
    }
    let keep: Vec<MessageId> = if narrow == Narrow::All {
        ids.into_iter().filter(|id| st.data.messages.get(id).is_some_and(|m| st.data.in_feed(m))).collect()
    } else {
        ids
    };
    let page = Page {
        covered: ids_sorted,
        shown: keep,
        matches,
        found_oldest: resp.found_oldest,
        found_newest: resp.found_newest,
    };
    st.data.views.ensure(&narrow).page_arrived(older, page);
    after_told(st, &narrow);
    let view = &st.data.views[&narrow];
    if let Some((anchor, date)) = date_anchor {
        // The anchor itself may be hidden (a muted topic in the feed): take the next shown one.
        let on_or_after = view.ids().iter().copied().find(|id| *id >= anchor);
        st.ui.selected = on_or_after.or(view.ids().last().copied());
        if on_or_after.is_none() {
            set_status(st, format!("nothing here on or after {date}: showing the newest message"));
        }
    }
    rebuild_sidebar(st);
    apply_jump(st);
    if narrow == st.ui.narrow {
        keep_nearest(st);
    }
    if narrow == st.ui.narrow && st.ui.selected.is_none() {
        select_initial(st);
        return mark_selected_read(st);
    }
    vec![]
}

/// A message of a page, held as the page has it — unless an event said otherwise since the
/// page may have been asked for (`app::told`): a message deleted is not taken back, one held
/// stays as the events left it, and one not held that moved is put where the event said.
fn take_fetched(st: &mut State, mut m: Message) {
    match st.data.messages.told_lately().of(m.id) {
        None | Some(Mark::Changed) => {}
        Some(Mark::Deleted) => return,
        Some(_) if st.data.messages.contains_key(&m.id) => return,
        // Put where the event said before it is indexed: no topic row ever stands on it in
        // the topic it left.
        Some(Mark::Moved { channel, topic }) => {
            if let Some(c) = *channel
                && m.kind == MessageType::Stream
            {
                m.stream_id = Some(c);
                m.display_recipient = DisplayRecipient::Channel(st.data.channels.name(c).to_owned());
                m.recipient_id = 0;
            }
            if let Some(t) = topic {
                m.subject.clone_from(t);
            }
        }
    }
    st.data.insert_fetched(m);
}

/// What events said since a page of `narrow` may have been asked for wins over it: the
/// messages they touched join or leave its window as they are held now.
fn after_told(st: &mut State, narrow: &Narrow) {
    if st.data.messages.told_lately().is_empty() {
        return;
    }
    let me = st.data.me;
    let mut views = std::mem::take(&mut st.data.views);
    let d = &st.data;
    let belongs = |id: MessageId| {
        d.messages
            .get(&id)
            .is_some_and(|m| narrow.contains(m, me) && (*narrow != Narrow::All || d.in_feed(m)))
    };
    let told = d.messages.told_lately().iter().map(|(id, _)| id);
    views.after_page(narrow, told, |id| d.messages.contains_key(&id), belongs);
    st.data.views = views;
}

/// A selection the shown window no longer holds (what was shown before the server's page —
/// the last session, the archive's matches — and is not in it) goes to the nearest message
/// after it, else the last: the selection does not jump back to where a view opens.
fn keep_nearest(st: &mut State) {
    let (Some(sel), Some(view)) = (st.ui.selected, st.data.views.get(&st.ui.narrow)) else { return };
    if !view.contains(sel) {
        let at = view.ids().partition_point(|id| *id < sel);
        st.ui.selected = view.ids().get(at).or_else(|| view.ids().last()).copied();
    }
}

pub(super) fn mark_selected_read(st: &mut State) -> Vec<Effect> {
    let Some(id) = st.ui.selected else { return vec![] };
    // Just marked unread: read again only once the user has moved on.
    if let Some(held) = st.ui.hold_read {
        if held == id {
            return vec![];
        }
        st.ui.hold_read = None;
    }
    // Explore mode: looking reads nothing; nor does an organization that is not on screen, nor
    // a search (`Narrow::reads`), nor a view the user's setting says looking does not read, nor
    // one the inbox or the recent conversations cover.
    if st.settings.explore
        || !st.ui.orgs.on_screen()
        || !st.ui.narrow.reads()
        || !super::read_marking::selection_reads(st)
        || matches!(st.ui.popup, Some(Popup::Inbox(_) | Popup::Recent { .. }))
        || !st.data.unread.contains(id)
    {
        return vec![];
    }
    st.data.unread.remove(id);
    if let Some(m) = st.data.messages.get_mut(&id) {
        m.set_flag(Flag::Read, true);
    }
    vec![Effect::MarkRead(vec![id])]
}

/// `:mark-unread`: the selected message and every later one of the view become unread, here at
/// once (counts everywhere) and on the server — beyond what is loaded too.
pub(super) fn mark_unread_from_here(st: &mut State) -> Result<Vec<Effect>, String> {
    let id = st.ui.selected.ok_or("select a message first: it and every later one become unread")?;
    let view = st.data.views.get(&st.ui.narrow).ok_or("nothing is shown here yet")?;
    let from = view.ids().partition_point(|&m| m < id);
    let later = view.ids()[from..].to_vec();
    for m in later {
        if let Some(msg) = st.data.messages.get_mut(&m)
            && msg.has_flag(Flag::Read)
        {
            msg.set_flag(Flag::Read, false);
            let msg = &st.data.messages[&m];
            let (conv, mentioned) = (st.data.conv_of(msg), msg.mentions_me());
            st.data.unread.add(m, conv, mentioned);
        }
    }
    st.ui.hold_read = Some(id);
    st.ui.reading_held = Some(st.ui.narrow.clone());
    rebuild_sidebar(st);
    set_status(st, "marking as unread from here: reading resumes when you move");
    let terms = st.ui.narrow.terms(st.data.me);
    Ok(vec![Effect::MarkUnreadFrom { terms, anchor: id }])
}

pub(super) fn move_selection(st: &mut State, delta: isize) -> Vec<Effect> {
    let Some(view) = st.data.views.get(&st.ui.narrow) else { return vec![] };
    let ids = view.ids();
    if ids.is_empty() {
        return vec![];
    }
    let pos = st.ui.selected.and_then(|id| ids.binary_search(&id).ok()).unwrap_or(ids.len() - 1);
    let new = (pos as isize + delta).clamp(0, ids.len() as isize - 1) as usize;
    st.ui.selected = Some(ids[new]);
    let mut fx = mark_selected_read(st);
    // Near the bottom of a window that does not reach the newest messages: page newer ones in;
    // near the top, older history.
    let size = first_page(st);
    let view = st.data.views.get_mut(&st.ui.narrow).expect("view exists");
    let Wanted { newer, older, first, last, epoch } = view.selection_moved(new).expect("not empty");
    let narrow = st.ui.narrow.clone();
    let terms = narrow.terms(st.data.me);
    let page = |anchor, before, after, older| Effect::FetchMessages {
        narrow: narrow.clone(),
        terms: terms.clone(),
        anchor: Anchor::Id(anchor),
        before,
        after,
        older,
        epoch,
    };
    if newer {
        fx.push(page(last, 0, size, false));
    }
    if older {
        fx.push(page(first, size, 0, true));
    }
    fx
}

/// The combined feed after a channel was muted or unmuted (here or elsewhere). Muted: its
/// topics (those not unmuted or followed) leave the feed, and a selection among them moves to
/// the nearest message still there, so a key never acts on a message no longer shown.
/// Unmuted: the feed is fetched again around the selection, bringing them back.
pub(super) fn feed_after_mute(st: &mut State, muted: bool) -> Vec<Effect> {
    let mut fx = Vec::new();
    if muted {
        let d = &st.data;
        let keep: Option<Vec<MessageId>> = d.views.get(&Narrow::All).map(|v| {
            v.ids().iter().copied().filter(|id| d.messages.get(id).is_none_or(|m| d.in_feed(m))).collect()
        });
        if let (Some(keep), Some(view)) = (keep, st.data.views.get_mut(&Narrow::All)) {
            // `keep` is sorted, as the window is.
            view.keep_only(|id| keep.binary_search(id).is_ok());
            if st.ui.narrow == Narrow::All
                && let Some(sel) = st.ui.selected
                && !view.contains(sel)
            {
                let at = view.ids().partition_point(|id| *id < sel);
                st.ui.selected = view.ids().get(at).or_else(|| view.ids().last()).copied();
            }
        }
    } else if st.data.views.close(&Narrow::All) && st.ui.narrow == Narrow::All {
        let focus = st.ui.focus;
        fx = match st.ui.selected {
            Some(sel) => open_near(st, Narrow::All, sel),
            None => open_narrow(st, Narrow::All),
        };
        st.ui.focus = focus;
    }
    rebuild_sidebar(st);
    fx
}
