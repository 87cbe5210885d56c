//! What follows on screen when the data's owners applied a message event
//! (`app::data_events`, `Data::apply`; `events::react` hands it here): a message that arrived
//! notifies, joins the recent conversations and settles the outbox; the selection follows the
//! topic on screen that moved.

use super::common::*;
use super::navigation::open_near;
use super::prelude::*;
use crate::app::data_events::Arrived;

/// A new message, held now: a notification where it notifies, the recent conversations, a
/// jump waiting for it, and the outbox's entry it answers.
pub(super) fn arrived(st: &mut State, a: &Arrived) -> Vec<Effect> {
    let Some(m) = st.data.messages.get(&a.id).cloned() else { return vec![] };
    let notice = super::outside::notify(st, &m);
    super::recent::on_message(st, &m);
    apply_jump(st);
    let mut fx = super::burst::admit(st, notice);
    fx.extend(super::outbox::on_message_event(st, a.local_id.as_deref(), a.id));
    fx
}

/// Reading the topic that moved: follow the selected message to where it went.
pub(super) fn follow_moved(st: &mut State, ids: &[MessageId], fx: Vec<Effect>) -> Vec<Effect> {
    if let (Narrow::Topic(..), Some(sel)) = (&st.ui.narrow, st.ui.selected)
        && ids.contains(&sel)
        && let Some(m) = st.data.messages.get(&sel)
        && let Some(c) = m.stream_id()
    {
        let to = Narrow::Topic(c, m.topic().to_owned());
        if to != st.ui.narrow {
            return follow(st, to, sel, ids, fx);
        }
    }
    fx
}

/// The topic on screen moved with its selected message: its new topic is opened at that
/// message, showing at once what is held of it — the messages that moved and what the new
/// topic's view held — until the server's page takes their place (what the event said wins
/// over that page even when the server answered it before making the move, `app::told`).
fn follow(st: &mut State, to: Narrow, sel: MessageId, ids: &[MessageId], mut fx: Vec<Effect>) -> Vec<Effect> {
    let me = st.data.me;
    let d = &st.data;
    let mut shown: Vec<MessageId> = d.views.get(&to).map(|v| v.ids().to_vec()).unwrap_or_default();
    shown.extend(ids.iter().copied().filter(|id| d.messages.get(id).is_some_and(|m| to.contains(m, me))));
    fx.extend(open_near(st, to.clone(), sel));
    st.data.views.fill_provisional(&to, shown);
    apply_jump(st);
    fx
}
