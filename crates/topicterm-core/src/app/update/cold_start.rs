//! The cold start at the network floor: the first page of the first view is asked for at the
//! same moment as register, not one round trip after it, and the two answers are joined so
//! that no message is missed or shown twice.
//!
//! The page and the register's event queue overlap by message ID, whichever the server took
//! first:
//! - the page taken after the queue existed: messages sent in between are in the page and come
//!   as events too — the window merges by ID, so each is there once;
//! - the page taken before the queue existed: messages sent in between are in neither. The
//!   register answer's `max_message_id` says so (newer than the page's newest while the page
//!   reached the newest): the messages after the page are asked for once register is in, as
//!   the web app asks for messages after register's `max_message_id`. What comes after the
//!   queue was made comes as events.
//!
//! Until the page (and that gap) is in, event batches are held and then applied in order, so an
//! event never lands in a window that is still to be filled (where it would be dropped, or
//! land before the page that holds older messages). The page itself, arrived before the
//! register answer, is held until the organization is known (muted topics, who the user is).

use super::common::*;
use super::navigation::*;
use super::prelude::*;
use crate::app::settings::StartNarrow;

/// What a start asks for: register and, when the first view is known without the organization
/// (anything but a search, which is read with the organization's names), its first page.
pub fn start(st: &mut State) -> Vec<Effect> {
    let mut fx = vec![Effect::Register];
    // A config that names no first view leaves it to the user's home view.
    st.ui.conn.home_view_due(st.settings.start.is_none());
    let narrow = match &st.settings.start {
        None => st.ui.narrow.clone(),
        Some(StartNarrow::All) => Narrow::All,
        Some(StartNarrow::AllDms) => Narrow::AllDms,
        Some(StartNarrow::Starred) => Narrow::Starred,
        Some(StartNarrow::Mentions) => Narrow::Mentions,
        Some(StartNarrow::Search(_)) => return fx,
    };
    // Only views whose terms need neither the user's ID nor the server's level.
    if !matches!(narrow, Narrow::All | Narrow::AllDms | Narrow::Starred | Narrow::Mentions) {
        return fx;
    }
    let epoch = st.data.views.next_epoch();
    let page = first_page(st);
    fx.push(Effect::FetchMessages {
        terms: narrow.terms(st.data.me),
        narrow: narrow.clone(),
        anchor: Anchor::FirstUnread,
        before: page,
        after: page,
        older: false,
        epoch,
    });
    st.ui.conn.await_first_page(FirstPage { narrow, epoch, ..Default::default() });
    fx
}

/// A page arrived: the first page, before the register answer, is kept (`None`); any other
/// page goes on.
pub(super) fn on_page(
    st: &mut State,
    narrow: &Narrow,
    epoch: u64,
    resp: Box<MessagesResponse>,
) -> Option<Box<MessagesResponse>> {
    match st.ui.conn.first_page_mut() {
        Some(f) if f.registered.is_none() && f.narrow == *narrow && f.epoch == epoch => {
            f.page = Some(*resp);
            None
        }
        _ => Some(resp),
    }
}

/// The first page failed: before the register answer, it is asked for again as any first view
/// is once register is in (`true`: nothing to say yet); after it, the held events go on.
pub(super) fn on_page_failed(st: &mut State, narrow: &Narrow) -> (bool, Vec<Vec<Event>>) {
    match st.ui.conn.first_page() {
        Some(f) if f.narrow == *narrow => {
            let early = f.registered.is_none();
            let held = st.ui.conn.take_first_page().map(|f| f.held).unwrap_or_default();
            (early, held)
        }
        _ => (false, vec![]),
    }
}

/// Events arrived: held while the first page or the gap after it is still out.
pub(super) fn hold(st: &mut State, events: Vec<Event>) -> Option<Vec<Event>> {
    match st.ui.conn.first_page_mut() {
        Some(f) if f.registered.is_some() => {
            f.held.push(events);
            None
        }
        _ => Some(events),
    }
}

/// Register failed: the first view is asked for again once a register answer is in.
pub(super) fn forget(st: &mut State) {
    st.ui.conn.take_first_page();
}

/// The register answer is in (called after the kept windows were resynchronised, before the
/// shown narrow is opened): the held page is applied, or a window waits for it.
pub(super) fn on_registered(st: &mut State, max_message_id: Option<MessageId>) -> Vec<Effect> {
    let Some(mut f) = st.ui.conn.take_first_page() else { return vec![] };
    // A second register (the queue was lost meanwhile): the window is loaded anew like the
    // others; a kept window of the last session is resynchronised like the others.
    if f.registered.is_some() || st.data.views.get(&f.narrow).is_some_and(|v| v.is_loaded()) {
        return vec![];
    }
    f.registered = Some(max_message_id.unwrap_or(-1));
    let narrow = f.narrow.clone();
    st.data.views.open_at(&narrow, f.epoch);
    if narrow == st.ui.narrow {
        st.ui.selected = None;
        visit(st, &narrow);
    }
    let page = f.page.take();
    st.ui.conn.await_first_page(f);
    let Some(page) = page else { return vec![] };
    let (newest, found_newest) = newest_of(&page);
    let mut fx = on_messages(st, narrow, page, false);
    let (more, _) = after_page(st, newest, found_newest);
    fx.extend(more);
    fx
}

/// The newest message of a page, and whether it reached the newest of its narrow.
pub(super) fn newest_of(page: &MessagesResponse) -> (Option<MessageId>, bool) {
    (page.messages.iter().map(|m| m.id).max(), page.found_newest)
}

/// Is this page (now applied) the first page or its gap, after register?
pub(super) fn is_first(st: &State, narrow: &Narrow, epoch: u64) -> bool {
    st.ui.conn.first_page().is_some_and(|f| f.registered.is_some() && f.narrow == *narrow && f.epoch == epoch)
}

/// The first page (or the gap after it) is in, after register: the messages between the page
/// and the queue are asked for when the page was taken before the queue existed; otherwise the
/// cold start is over and the held events are given back, in order, to be applied.
pub(super) fn after_page(
    st: &mut State,
    newest: Option<MessageId>,
    found_newest: bool,
) -> (Vec<Effect>, Vec<Vec<Event>>) {
    let Some(f) = st.ui.conn.first_page_mut() else { return (vec![], vec![]) };
    let max = f.registered.unwrap_or(-1);
    if !f.gap_asked && found_newest && newest.is_none_or(|n| n < max) {
        f.gap_asked = true;
        let (narrow, epoch) = (f.narrow.clone(), f.epoch);
        if let Some(v) = st.data.views.get_mut(&narrow) {
            v.asking_newer();
        }
        let terms = narrow.terms(st.data.me);
        let anchor = newest.map_or(Anchor::Oldest, Anchor::Id);
        let gap = Effect::FetchMessages {
            narrow,
            terms,
            anchor,
            before: 0,
            after: RESYNC_AFTER,
            older: false,
            epoch,
        };
        return (vec![gap], vec![]);
    }
    let held = st.ui.conn.take_first_page().map(|f| f.held).unwrap_or_default();
    (vec![], held)
}
