//! The clock: expiring notices, retries that are due, draft saves, presence pings.

use super::prelude::*;

/// Seconds without input after which the user counts as idle.
pub const IDLE_AFTER: i64 = 300;

pub(super) fn on_tick(st: &mut State, now: i64) -> Vec<Effect> {
    st.now = now;
    // Feedback expires, so an old remark is never taken for the answer to a later action.
    if st.ui.status.as_ref().is_some_and(|s| s.expired(now)) {
        st.ui.status = None;
    }
    st.ui.typing.retain(|t| t.until > now);
    if let Some(o) = &mut st.ui.offline
        && o.register_due
        && now >= o.retry_at
    {
        o.register_due = false;
        return vec![Effect::Register];
    }
    // Drafts reach the disk within a tick of typing.
    let mut fx = Vec::new();
    if st.ui.draft_dirty
        && let Some(c) = &st.ui.compose
    {
        st.ui.draft_dirty = false;
        let (key, text) = (c.draft_key(), c.text());
        st.drafts.insert(key.clone(), text.clone());
        fx.push(Effect::SaveDraft { key, text });
    }
    fx.extend(ping_if_due(st, now));
    fx.extend(super::server_drafts::flush(st));
    // A send waiting out its backoff.
    if st.outbox.iter().any(|o| matches!(o.state, OutState::Retry { at, .. } if at <= now)) {
        fx.extend(super::outbox::pump(st));
    }
    fx
}

pub(super) fn ping_if_due(st: &mut State, now: i64) -> Vec<Effect> {
    if st.ui.loading || st.data.queue_id.is_none() {
        return vec![];
    }
    let interval = st.data.realm.ping_interval.max(10) as i64;
    if now - st.ui.last_ping < interval {
        return vec![];
    }
    st.ui.last_ping = now;
    let active = !st.ui.unfocused && now - st.ui.last_input < IDLE_AFTER;
    vec![Effect::Ping { active, last_update_id: st.data.presence_last_update_id }]
}
