//! Real-time events from the server: each handed to the data's owners (`Data::apply`), what
//! they changed reacted to here (`react`), the rows derived from it rebuilt once per batch;
//! the few events no owner of `Data` takes applied by the part they are for.

use super::common::*;
use super::prelude::*;
use super::register::*;
use crate::app::data_events::{Applied, Changes, Follow, Moment, Rows, TopicRows};

/// An event no owner of `Data` takes (`Data::apply` gave it back): applied by the part it
/// is for.
fn on_event(st: &mut State, kind: EventKind) -> Vec<Effect> {
    match kind {
        EventKind::Typing(ev) => super::people_events::on_typing(st, &ev),
        EventKind::TypingEditMessage(ev) => super::people_events::on_edit_typing(st, &ev),
        EventKind::Drafts(ev) => return super::server_drafts::on_event(st, ev),
        EventKind::Attachment(ev) => super::uploads::on_event(st, ev),
        EventKind::Malformed { event_type, error } => {
            tracing::warn!("ignored a malformed {event_type} event: {error}");
            // What such an event carried is fetched again: the loaded windows are refreshed.
            if matches!(event_type.as_str(), "message" | "update_message" | "delete_message") {
                return resync_narrows(st);
            }
        }
        _ => {}
    }
    vec![]
}

/// What follows on screen from what an event changed, in the order the owners said: the
/// effects. (The rows are rebuilt after the batch, `on_events`.)
fn react(st: &mut State, changes: Changes) -> Vec<Effect> {
    let mut fx = Vec::new();
    for f in changes.follow {
        match f {
            Follow::Arrived(a) => fx.extend(super::message_events::arrived(st, &a)),
            Follow::AskAgain(epoch) => fx.push(super::navigation::again_of(st, st.ui.narrow.clone(), epoch)),
            Follow::Deleted(ids) => {
                if st.ui.selected.is_some_and(|s| ids.contains(&s)) {
                    st.ui.selected = None;
                }
            }
            Follow::RowsNow { fetch_topics } => {
                rebuild_sidebar(st);
                fx.extend(fetch_topics.map(Effect::FetchTopics));
            }
            Follow::Moved(ids) => fx = super::message_events::follow_moved(st, &ids, fx),
            Follow::Settings => {
                super::user_settings::follow(st);
                // The channels pane's order may follow (`demote_inactive_streams`).
                rebuild_sidebar(st);
            }
            Follow::FeedMuted(muted) => fx.extend(super::navigation::feed_after_mute(st, muted)),
            Follow::Subscribers(c, n) => super::directory::count_subscribers(st, c, n),
            Follow::ChannelsGone { ids, subscribed } => super::channel_events::gone(st, &ids, subscribed),
            Follow::PushDefault(c, on) => super::channel_events::push_default(st, c, on),
            Follow::Reminders => super::reminders::clamp(st),
            Follow::Snippets => super::snippets::refilter(st, true),
        }
    }
    fx
}

/// The rows derived from the data that a batch of events changed, rebuilt once after it.
#[derive(Default)]
struct Batch {
    sidebar: bool,
    people: bool,
    mutes: bool,
}

impl Batch {
    fn note(&mut self, rows: &Rows, expanded: Option<ChannelId>) {
        // The channels pane lists topics only for the expanded channel.
        self.sidebar |= rows.sidebar
            || match rows.topics {
                TopicRows::Same => false,
                TopicRows::In(c) => expanded == Some(c),
                TopicRows::Any => expanded.is_some(),
            };
        self.people |= rows.people;
        self.mutes |= rows.mutes;
    }
}

/// A batch of events: held while the users are read or the first page is out; then each
/// applied, and the rows derived from them rebuilt once for the batch.
pub(super) fn on_events(st: &mut State, events: Vec<Event>) -> Vec<Effect> {
    // Held while the users are read (an event about a user lands on the map that lists
    // them), then while the first page is still out.
    let Some(events) = st.data.users.hold(events) else { return vec![] };
    let Some(events) = super::cold_start::hold(st, events) else { return vec![] };
    let mut fx = Vec::new();
    let mut batch = Batch::default();
    for e in events {
        let at = Moment { now: st.now, shown: &st.ui.narrow };
        match st.data.apply(e, &at) {
            Applied::Data(changes) => {
                batch.note(&changes.rows, st.ui.sidebar.expanded());
                fx.extend(react(st, changes));
            }
            Applied::Elsewhere(kind) => fx.extend(on_event(st, kind)),
        }
    }
    // Rows and the people list change only for some events; rebuilding them for every
    // typing notice would be O(channels + users) per event.
    if batch.sidebar {
        rebuild_sidebar(st);
    }
    if batch.people {
        rebuild_people(st);
    }
    if batch.mutes {
        super::inbox::rebuild(st);
    }
    super::hold::enforce(st);
    fx
}
