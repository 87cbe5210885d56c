//! Pages of messages and topics as they arrive (or fail): into the views, the held first
//! page of a cold start, the users read off the main task, and a channel's topic list.

use super::common::*;
use super::navigation::on_messages;
use super::prelude::*;
use super::{cold_start, complete, hold, outbox};
use crate::api::names::same_name;

/// How a failed page of messages starts its status line (cleared when a page loads).
pub(super) const LOAD_FAILED: &str = "messages not loaded";

/// A page of a narrow arrived.
pub(super) fn on_page(
    st: &mut State,
    narrow: Narrow,
    resp: Box<MessagesResponse>,
    older: bool,
    epoch: u64,
) -> Vec<Effect> {
    // The first page, come before the register answer, waits for it.
    let Some(resp) = cold_start::on_page(st, &narrow, epoch, resp) else { return vec![] };
    // A page asked for an earlier incarnation of the window would leave a gap.
    if epoch != 0 && st.data.epoch(&narrow) != epoch {
        return vec![];
    }
    // A view that loads says its earlier failure is over.
    if narrow == st.ui.narrow
        && st.ui.status.as_ref().is_some_and(|s| s.error && s.text.starts_with(LOAD_FAILED))
    {
        st.ui.status = None;
    }
    if !older && let Some(v) = st.data.views.get_mut(&narrow) {
        v.caught_up();
    }
    let first = cold_start::is_first(st, &narrow, epoch);
    let (newest, found_newest) = cold_start::newest_of(&resp);
    let mut fx = on_messages(st, narrow, *resp, older);
    fx.extend(outbox::reap(st));
    hold::enforce(st);
    if first {
        let (more, held) = cold_start::after_page(st, newest, found_newest);
        fx.extend(more);
        for events in held {
            fx.extend(super::events::on_events(st, events));
        }
    }
    fx
}

/// Register's users and groups, read: the event batches held meanwhile follow.
pub(super) fn on_users(st: &mut State, epoch: u64, roll: crate::app::roster::Roll) -> Vec<Effect> {
    let (mut fx, held) = super::register::on_users(st, epoch, roll);
    for events in held {
        fx.extend(super::events::on_events(st, events));
    }
    fx
}

/// A page did not come: said, and asked again as the error allows.
pub(super) fn on_page_failed(
    st: &mut State,
    narrow: Narrow,
    error: &ApiError,
    older: bool,
    epoch: u64,
) -> Vec<Effect> {
    let (early, held) = cold_start::on_page_failed(st, &narrow);
    if early {
        // Asked for again once register is in, as any first view is.
        return vec![];
    }
    let fx: Vec<Effect> = held.into_iter().flat_map(|events| super::events::on_events(st, events)).collect();
    if epoch != 0 && st.data.epoch(&narrow) != epoch {
        return fx;
    }
    super::local::on_failed(st, &narrow, error);
    let shown = narrow == st.ui.narrow;
    let now = st.now;
    let mut again =
        if error.is_transient() { " (reopen the view to retry)".to_owned() } else { String::new() };
    let mut drop_window = false;
    if let Some(v) = st.data.views.get_mut(&narrow) {
        // A loaded window whose newer messages did not come may miss some: it no longer
        // claims to reach the newest. Shown, it is asked again after a while; not shown,
        // it is loaded anew when opened.
        let wait = |failures| Backoff::CLIENT.delay_secs(failures, pseudo_random(now, failures));
        match v.page_failed(older, shown, error.is_transient(), now, wait) {
            Failed::Nothing => {}
            Failed::Dropped => drop_window = true,
            Failed::Retry(wait) => again = format!(" (trying again in {wait}s)"),
        }
    }
    if drop_window {
        st.data.views.close(&narrow);
    }
    // Asked again when the view is opened again (or paged, for older ones).
    if shown || !drop_window {
        set_error(st, format!("{LOAD_FAILED}: {}{again}", super::answers::why(error)));
    }
    fx
}

/// A channel's topics, as the server lists them.
pub(super) fn on_topics(st: &mut State, channel: ChannelId, topics: Vec<TopicEntry>) -> Vec<Effect> {
    // The server's list is what there is: a topic it no longer lists was deleted or
    // moved away. Its unread messages stand for a topic too (the index lets go of
    // deleted ones).
    let d = &mut st.data;
    let unread = &d.unread;
    let newest = unread.topics_in(channel).into_iter().flatten().filter_map(|t| {
        let newest = unread.in_conv(&Conv::Topic(channel, t.clone())).and_then(|s| s.last());
        newest.map(|id| (t.as_str(), *id))
    });
    // A list taken before a move applied here names a message that is elsewhere now.
    let messages = &d.messages;
    let moved = |name: &str, id| {
        messages.get(&id).is_some_and(|m| m.stream_id() != Some(channel) || !same_name(m.topic(), name))
    };
    let again = d.topics.on_fetched(channel, topics, newest, moved);
    rebuild_sidebar(st);
    let mut fx = if again { vec![Effect::FetchTopics(channel)] } else { vec![] };
    // A `#channel>topic` completion may be waiting for these.
    if st.ui.compose.is_some() {
        fx.extend(super::compose::suggest(st));
    } else if st.ui.prompt.as_ref().is_some_and(|p| complete::completes(p.kind))
        && st.ui.completion.cycle.is_none()
    {
        fx.extend(complete::suggest(st));
    }
    fx
}
