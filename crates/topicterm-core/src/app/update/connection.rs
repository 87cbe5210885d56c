//! The connection: register failed, the event poll offline and back.

use super::common::*;
use super::navigation::reload_if_not_loaded;
use super::prelude::*;

/// Register failed: tried again after a backoff.
pub(super) fn on_register_failed(st: &mut State, error: &ApiError) -> Vec<Effect> {
    super::cold_start::forget(st);
    let why = super::answers::why(error);
    st.ui.conn.loaded();
    // Back off exponentially up to a minute, with jitter so that many clients of a
    // restarted server do not come back in step.
    let attempts = st.ui.conn.offline().map_or(0, |o| o.attempts) + 1;
    let wait = Backoff::CLIENT.delay_secs(attempts, pseudo_random(st.now, attempts));
    let retry_at = st.now + wait;
    st.ui.conn.went_offline(Offline { why, retry_at, attempts, register_due: true });
    vec![]
}

/// The event poll failed for a network reason; it tries again in `retry_in` seconds.
pub(super) fn on_offline(st: &mut State, error: &ApiError, retry_in: u64) -> Vec<Effect> {
    let why = super::answers::why(error);
    let attempts = st.ui.conn.offline().map_or(0, |o| o.attempts);
    st.ui.conn.went_offline(Offline {
        why,
        retry_at: st.now + retry_in as i64,
        attempts,
        register_due: false,
    });
    vec![]
}

/// A request has waited seconds for its answer, or every such request is answered: the status
/// line says the server is not answering, counting, until then. What waits keeps waiting (its
/// own deadline makes it a failure, said as such).
pub(super) fn on_unanswered(st: &mut State, waited: Option<u64>) -> Vec<Effect> {
    let since = waited.map(|secs| st.now - secs as i64);
    st.ui.conn.unanswered(since);
    vec![]
}

/// A poll succeeded after failures: what did not load is asked again, the outbox sends.
pub(super) fn on_online(st: &mut State) -> Vec<Effect> {
    if st.ui.conn.back_online() {
        set_status(st, "back online");
    }
    let mut fx = reload_if_not_loaded(st);
    fx.extend(super::outbox::pump(st));
    fx
}
