//! A bound on what is held: at most `max_messages` messages (a setting). Past it, the windows
//! furthest from the screen go first — those not shown, least recently visited first — and then,
//! if the shown window alone is too long, its messages furthest from the selection; the messages
//! no kept window holds are let go. A dropped window is loaded anew when it is opened; a trimmed
//! one no longer claims to reach the oldest or the newest message, so paging brings the rest back.
//! Unread counts, mentions and the rest of the unread state are kept apart from the messages and
//! never depend on what is held.
//!
//! Checking is O(1) (the count of held messages); letting go walks what is held, and happens once
//! per fifth of the cap that arrives, so its cost per message is constant.

use super::prelude::*;
use std::collections::HashSet;

/// What is kept after letting go: four fifths of the cap, so it is not done on every message.
fn target(cap: usize) -> usize {
    cap - cap / 5
}

/// Let go of messages past the cap.
pub(super) fn enforce(st: &mut State) {
    let cap = st.settings.max_messages;
    if cap == 0 || st.data.messages.len() <= cap {
        return;
    }
    let target = target(cap);
    let shown = st.ui.narrow.clone();
    // Windows not shown, the least recently visited first (never visited: before all, the
    // longest first).
    let rank = |n: &Narrow| st.ui.visited.iter().position(|v| v == n).unwrap_or(usize::MAX);
    let mut others: Vec<(usize, usize, Narrow)> = st
        .data
        .views
        .iter()
        .filter(|(n, _)| **n != shown)
        .map(|(n, v)| (rank(n), v.ids().len(), n.clone()))
        .collect();
    others.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut total: usize = st.data.views.held();
    for (_, len, n) in others {
        if total <= target {
            break;
        }
        st.data.views.close(&n);
        total -= len;
    }
    if total > target {
        trim_shown(st, target);
    }
    let mut kept: HashSet<MessageId> =
        st.data.views.iter().flat_map(|(_, v)| v.ids().iter().copied()).collect();
    kept.extend(st.outbox.sent_ids());
    kept.extend(st.ui.selected);
    kept.extend(st.ui.jump_to);
    st.data.retain_messages(|id| kept.contains(id));
    st.data.views.forget_matches(&kept);
}

/// Keep `keep` messages of the shown window around the selection.
fn trim_shown(st: &mut State, keep: usize) {
    // Pages asked for before were anchored on what is gone: dropped when they come.
    st.data.views.trim(&st.ui.narrow, st.ui.selected, keep);
}

#[cfg(test)]
mod tests {
    use super::super::tests::{msg, registered};
    use super::*;
    use crate::app::{open_narrow, update};
    use serde_json::json;

    /// Open `narrow` and give it `ids` as its first page (the newest messages).
    fn load(st: &mut State, narrow: Narrow, channel: i64, topic: &str, ids: std::ops::Range<i64>) {
        let fx = open_narrow(st, narrow.clone());
        let Some(Effect::FetchMessages { epoch, .. }) = fx.first() else { panic!("a fetch: {fx:?}") };
        let messages: Vec<_> = ids.map(|id| msg(id, channel, topic, &["read"])).collect();
        let page = json!({"messages": messages, "found_newest": true, "found_oldest": true});
        update(
            st,
            Msg::Messages {
                narrow,
                resp: Box::new(serde_json::from_value(page).unwrap()),
                older: false,
                epoch: *epoch,
            },
        );
    }

    #[test]
    fn past_the_cap_the_windows_furthest_from_the_screen_go_first() {
        let (mut st, _) = registered();
        st.settings.max_messages = 100;
        let (a, b, c) =
            (Narrow::Topic(1, "a".into()), Narrow::Topic(1, "b".into()), Narrow::Topic(2, "c".into()));
        load(&mut st, a.clone(), 1, "a", 1001..1041);
        load(&mut st, b.clone(), 1, "b", 1041..1081);
        assert_eq!(st.data.messages.len(), 80, "under the cap: all kept");
        // A third window passes the cap: the least recently visited (a) goes, b and c stay.
        load(&mut st, c.clone(), 2, "c", 1081..1121);
        assert!(!st.data.views.contains(&a));
        assert!(st.data.views.contains(&b) && st.data.views.contains(&c));
        assert_eq!(st.data.messages.len(), 80);
        assert!(!st.data.messages.contains_key(&1001) && st.data.messages.contains_key(&1041));
        // The unread state is not what is held.
        assert_eq!(st.data.unread.len(), registered().0.data.unread.len());
        // Reopened, a dropped window is asked for again.
        let fx = open_narrow(&mut st, a);
        assert!(matches!(fx.first(), Some(Effect::FetchMessages { .. })), "{fx:?}");
    }

    #[test]
    fn a_shown_window_longer_than_the_cap_keeps_the_messages_around_the_selection() {
        let (mut st, _) = registered();
        st.settings.max_messages = 100;
        let n = Narrow::Topic(1, "a".into());
        load(&mut st, n.clone(), 1, "a", 1001..1091);
        // Reading back in history; the newest messages go.
        st.ui.selected = Some(1020);
        let newer: Vec<_> = (1091..1131).map(|id| msg(id, 1, "a", &["read"])).collect();
        let epoch = st.data.epoch(&n);
        let resp = serde_json::from_value(json!({"messages": newer, "found_newest": true})).unwrap();
        update(&mut st, Msg::Messages { narrow: n.clone(), resp: Box::new(resp), older: false, epoch });
        let v = &st.data.views[&n];
        assert_eq!(v.ids().len(), 80);
        assert_eq!((v.ids()[0], *v.ids().last().unwrap()), (1001, 1080));
        assert!(v.found_oldest() && !v.found_newest(), "the newest are to be paged in again: {v:?}");
        assert_ne!(v.epoch(), epoch, "pages asked for before are dropped");
        assert_eq!(st.data.messages.len(), 80);
        assert_eq!(st.ui.selected, Some(1020));
        // At the newest, the oldest go.
        let mut st2 = registered().0;
        st2.settings.max_messages = 100;
        load(&mut st2, n.clone(), 1, "a", 1001..1131);
        let v = &st2.data.views[&n];
        assert_eq!((v.ids()[0], *v.ids().last().unwrap()), (1051, 1130));
        assert!(!v.found_oldest() && v.found_newest(), "{v:?}");
    }
}
