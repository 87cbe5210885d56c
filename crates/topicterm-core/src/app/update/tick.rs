//! The clock: expiring notices, retries that are due, draft saves, presence pings.

use super::common::{RESYNC_AFTER, resync_before};
use super::prelude::*;

/// Seconds without input after which the user counts as idle.
pub const IDLE_AFTER: i64 = 300;

pub(super) fn on_tick(st: &mut State, now: i64) -> Vec<Effect> {
    st.now = now;
    // Feedback expires, so an old remark is never taken for the answer to a later action.
    if st.ui.status.as_ref().is_some_and(|s| s.expired(now)) {
        st.ui.status = None;
    }
    st.ui.presence.expire_typing(now);
    if st.ui.conn.register_due(now) {
        return vec![Effect::Register];
    }
    // A burst's held notifications, told once their window is over.
    let mut fx = super::burst::on_tick(st);
    // Drafts reach the disk within a tick of typing.
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
    fx.extend(catch_up(st, now));
    // A send waiting out its backoff.
    if st.outbox.retry_due(now) {
        fx.extend(super::outbox::pump(st));
    }
    fx
}

/// The shown window's newer messages (or its first page) failed to load: ask again once the
/// wait is over.
fn catch_up(st: &mut State, now: i64) -> Vec<Effect> {
    let me = st.data.me;
    let narrow = st.ui.narrow.clone();
    if st.ui.conn.is_offline() {
        return vec![];
    }
    let Some(v) = st.data.views.get_mut(&narrow) else { return vec![] };
    let Some(what) = v.catch_up_due(now) else { return vec![] };
    let epoch = v.epoch();
    // A window whose resynchronisation failed is still shown provisionally: it asks again for
    // all it holds, which the answer replaces.
    let before = if v.is_provisional() { resync_before(v.ids().len().saturating_sub(1)) } else { 0 };
    vec![match what {
        CatchUp::FirstPage => super::navigation::first_page_of(st, narrow, epoch),
        CatchUp::After(last) => Effect::FetchMessages {
            terms: narrow.terms(me),
            narrow,
            anchor: Anchor::Id(last),
            before,
            after: RESYNC_AFTER,
            older: false,
            epoch,
        },
    }]
}

pub(super) fn ping_if_due(st: &mut State, now: i64) -> Vec<Effect> {
    if st.ui.conn.loading() || st.data.queue_id().is_none() {
        return vec![];
    }
    let interval = st.data.realm.timing.ping_interval.max(10) as i64;
    if !st.ui.presence.ping_due(now, interval) {
        return vec![];
    }
    st.ui.presence.pinged(now);
    let active = st.ui.presence.active(now, IDLE_AFTER);
    vec![Effect::Ping { active, last_update_id: st.data.users.presence_last_update_id() }]
}

/// The terminal gained or lost focus: presence is told now rather than at the next interval.
pub(super) fn on_focus(st: &mut State, focused: bool) -> Vec<Effect> {
    st.ui.presence.focus_changed(focused);
    // Report the change now rather than at the next interval.
    let active = st.ui.presence.active(st.now, IDLE_AFTER);
    if st.data.queue_id().is_none() {
        return vec![];
    }
    if focused {
        st.ui.presence.key_pressed(st.now);
    }
    st.ui.presence.pinged(st.now);
    vec![Effect::Ping { active: active || focused, last_update_id: st.data.users.presence_last_update_id() }]
}

#[cfg(test)]
mod tests {
    use super::super::tests::{msg, registered};
    use super::*;
    use crate::app::update;
    use serde_json::json;

    fn page(narrow: &Narrow, ids: &[i64], epoch: u64) -> Msg {
        let messages: Vec<_> = ids.iter().map(|id| msg(*id, 1, "plans", &["read"])).collect();
        let resp = serde_json::from_value(json!({"messages": messages, "found_newest": true})).unwrap();
        Msg::Messages { narrow: narrow.clone(), resp: Box::new(resp), older: false, epoch }
    }

    fn failed(narrow: &Narrow, epoch: u64) -> Msg {
        let error = ApiError::Transport { message: "reset".into(), timeout: false, connect: false };
        Msg::MessagesFailed { narrow: narrow.clone(), error, older: false, epoch }
    }

    /// After a lost queue every loaded window is asked for what it missed; when that fails, a
    /// window must not go on claiming to reach the newest message (new events would land after a
    /// gap). The shown one is asked again after a wait; one not shown is loaded anew when opened.
    #[test]
    fn a_window_whose_resynchronisation_failed_catches_up_or_is_loaded_anew() {
        let (mut st, _) = registered();
        st.now = 100;
        let (shown, other) = (Narrow::Topic(1, "plans".into()), Narrow::Channel(1));
        for n in [&other, &shown] {
            update(&mut st, Msg::Tick(100));
            let fx = crate::app::open_narrow(&mut st, n.clone());
            let epoch = match fx.first() {
                Some(Effect::FetchMessages { epoch, .. }) => *epoch,
                _ => panic!("a fetch: {fx:?}"),
            };
            update(&mut st, page(n, &[1, 2, 3], epoch));
        }
        // The queue is lost: both windows are resynchronised, and both fetches fail.
        let fx = super::super::register::resync_narrows(&mut st);
        assert_eq!(fx.len(), 2, "{fx:?}");
        let (e_shown, e_other) = (st.data.epoch(&shown), st.data.epoch(&other));
        update(&mut st, failed(&other, e_other));
        assert!(!st.data.views.contains(&other), "not shown: dropped, loaded anew when opened");
        update(&mut st, failed(&shown, e_shown));
        let v = &st.data.views[&shown];
        assert!(!v.found_newest() && !v.is_loading_newer() && v.ids() == [1, 2, 3], "{v:?}");
        let status = st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
        assert!(status.contains("trying again in"), "{status}");
        let at = v.catch_up_at().expect("asked again later");
        // Not before its time; then from the newest held message on.
        assert!(
            update(&mut st, Msg::Tick(at - 1)).iter().all(|e| !matches!(e, Effect::FetchMessages { .. }))
        );
        let fx = update(&mut st, Msg::Tick(at));
        let Some(Effect::FetchMessages { anchor, before, older: false, epoch, .. }) =
            fx.iter().find(|e| matches!(e, Effect::FetchMessages { .. }))
        else {
            panic!("a newer page: {fx:?}")
        };
        assert_eq!(
            (anchor, *before),
            (&Anchor::Id(3), super::super::common::PAGE),
            "again all it holds, and what came after"
        );
        update(&mut st, page(&shown, &[1, 2, 3, 4, 5], *epoch));
        let v = &st.data.views[&shown];
        assert!(v.found_newest() && v.catch_up_at().is_none() && v.ids() == [1, 2, 3, 4, 5], "{v:?}");
        // A failure for an earlier incarnation of the window changes nothing.
        update(&mut st, failed(&shown, e_shown - 1));
        assert!(st.data.views[&shown].found_newest());
    }

    /// The window on screen whose first page did not come (a lie, a cut) is asked again after
    /// a wait, as a loaded one catching up is: nobody has to reopen it.
    #[test]
    fn a_first_page_that_failed_on_screen_is_asked_again_after_a_wait() {
        let (mut st, _) = registered();
        st.now = 100;
        let shown = Narrow::Topic(1, "plans".into());
        update(&mut st, Msg::Tick(100));
        let fx = crate::app::open_narrow(&mut st, shown.clone());
        let Some(Effect::FetchMessages { epoch, .. }) = fx.first() else { panic!("a fetch: {fx:?}") };
        let epoch = *epoch;
        update(&mut st, failed(&shown, epoch));
        let status = st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
        assert!(status.contains("trying again in"), "{status}");
        let at = st.data.views[&shown].catch_up_at().expect("asked again later");
        assert!(
            update(&mut st, Msg::Tick(at - 1)).iter().all(|e| !matches!(e, Effect::FetchMessages { .. }))
        );
        let fx = update(&mut st, Msg::Tick(at));
        let asked: Vec<_> = fx.iter().filter(|e| matches!(e, Effect::FetchMessages { .. })).collect();
        let [Effect::FetchMessages { anchor: Anchor::FirstUnread, epoch: again, older: false, .. }] =
            asked[..]
        else {
            panic!("its first page once more: {fx:?}")
        };
        assert_eq!(*again, epoch, "the same window");
        update(&mut st, page(&shown, &[1, 2, 3], epoch));
        let v = &st.data.views[&shown];
        assert!(v.is_loaded() && v.found_newest() && v.ids() == [1, 2, 3], "{v:?}");
        assert!(st.ui.status.is_none(), "the failure is over: {:?}", st.ui.status);
    }
}
