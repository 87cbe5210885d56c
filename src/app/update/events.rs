//! Real-time events from the server: each handed to the data's owners (`Data::apply`), what
//! they changed reacted to (`message_events::react`), the rows derived from it rebuilt once
//! per batch; the few events no owner of `Data` takes applied by the part they are for.

use super::common::*;
use super::prelude::*;
use super::register::*;
use crate::app::data_events::{Applied, Changes, Moment, TopicRows};

/// An event no owner of `Data` takes (`Data::apply` gave it back): applied by the part it
/// is for.
fn on_event(st: &mut State, kind: EventKind) -> Vec<Effect> {
    match kind {
        EventKind::Subscription(ev) => return super::channel_events::on_subscription(st, &ev),
        EventKind::Stream(ev) => super::channel_events::on_stream(st, ev),
        EventKind::ChannelFolder(ev) => super::channel_events::on_folder(st, ev),
        EventKind::Typing(ev) => super::people_events::on_typing(st, &ev),
        EventKind::TypingEditMessage(ev) => super::people_events::on_edit_typing(st, &ev),
        EventKind::Drafts(ev) => return super::server_drafts::on_event(st, ev),
        EventKind::Reminders(ev) => super::reminders::on_event(st, ev),
        EventKind::Attachment(ev) => super::uploads::on_event(st, ev),
        EventKind::SavedSnippets(ev) => super::snippets::on_event(st, ev),
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

/// The rows derived from the data that a batch of events changed, rebuilt once after it.
#[derive(Default)]
struct Rows {
    sidebar: bool,
    people: bool,
    mutes: bool,
}

impl Rows {
    /// What the owners said changed.
    fn note(&mut self, changes: &Changes, expanded: Option<ChannelId>) {
        // The channels pane lists topics only for the expanded channel.
        self.sidebar |= changes.sidebar
            || match changes.topic_rows {
                TopicRows::Same => false,
                TopicRows::In(c) => expanded == Some(c),
                TopicRows::Any => expanded.is_some(),
            };
        self.people |= changes.people;
        self.mutes |= changes.mutes;
    }

    /// An event applied elsewhere.
    fn note_kind(&mut self, kind: &EventKind) {
        self.sidebar |= matches!(kind, EventKind::Subscription(_) | EventKind::ChannelFolder(_));
        // What the inbox leaves out, or the channels it names, may have changed.
        self.mutes |= matches!(kind, EventKind::Subscription(_) | EventKind::Stream(_));
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
    let mut rows = Rows::default();
    for e in events {
        st.data.last_event_id = st.data.last_event_id.max(e.id);
        let at = Moment { now: st.now, shown: &st.ui.narrow };
        match st.data.apply(e.kind, &at) {
            Applied::Data(changes) => {
                rows.note(&changes, st.ui.expanded);
                fx.extend(super::message_events::react(st, &changes));
            }
            Applied::Elsewhere(kind) => {
                rows.note_kind(&kind);
                fx.extend(on_event(st, kind));
            }
        }
    }
    // Rows and the people list change only for some events; rebuilding them for every
    // typing notice would be O(channels + users) per event.
    if rows.sidebar {
        rebuild_sidebar(st);
    }
    if rows.people {
        rebuild_people(st);
    }
    if rows.mutes {
        super::inbox::rebuild(st);
    }
    super::hold::enforce(st);
    fx
}
