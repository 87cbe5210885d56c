//! A burst of notifications summed up (`app::burst`): a message that notifies goes through
//! [`admit`], which shows it or holds it; the clock ([`on_tick`]) tells the held ones in one
//! notification once their window is over — "17 more messages: 12 direct messages, 5 mentions",
//! or naming the conversation when they are all in one — whose click opens the newest.

use super::prelude::*;
use crate::app::burst::{Held, Notice, Reason};
use crate::app::settings::NotifyMethod;

/// A message's notification (`outside::notify`), shown now or held for the summary.
pub(super) fn admit(st: &mut State, notice: Option<Notice>) -> Vec<Effect> {
    let Some(notice) = notice else { return vec![] };
    let method = st.settings.notifications.method;
    let fx = st.notices.admit(st.now, notice).map(|n| shown(method, n)).unwrap_or_default();
    remember_bell(st, &fx);
    fx
}

/// Whether what was shown rang the bell beside a desktop notification (see [`unshown`]).
fn remember_bell(st: &mut State, fx: &[Effect]) {
    if fx.iter().any(|e| matches!(e, Effect::Term(TermEffect::Notify { .. }))) {
        st.notices.shown_with_bell(fx.iter().any(|e| matches!(e, Effect::Term(TermEffect::Bell))));
    }
}

/// No desktop showed the last notification (no service, a failing command): the bell says it
/// instead — unless it rang with it already (an audible one), which would ring it twice.
pub(super) fn unshown(st: &mut State) -> Vec<Effect> {
    if st.notices.rang() { vec![] } else { vec![Effect::Term(TermEffect::Bell)] }
}

/// On the clock: the summary of the held ones, once their window is over.
pub(super) fn on_tick(st: &mut State) -> Vec<Effect> {
    let method = st.settings.notifications.method;
    let fx = st.notices.due(st.now).map(|h| summary(method, h)).unwrap_or_default();
    remember_bell(st, &fx);
    fx
}

/// A notification as the config says notifications are shown (`[notifications] method`):
/// desktop — a desktop notification where it is to be shown, the bell where it sounds; bell —
/// the bell for either; none — nothing.
fn shown(method: NotifyMethod, n: Notice) -> Vec<Effect> {
    let (desktop, audible) = (n.desktop, n.audible);
    show(method, desktop, audible, TermEffect::Notify { title: n.title, body: n.body, clicked: n.clicked })
}

fn show(method: NotifyMethod, desktop: bool, audible: bool, notify: TermEffect) -> Vec<Effect> {
    match method {
        NotifyMethod::None => vec![],
        NotifyMethod::Bell if desktop || audible => vec![Effect::Term(TermEffect::Bell)],
        NotifyMethod::Bell => vec![],
        NotifyMethod::Desktop => {
            let mut fx = Vec::new();
            if desktop {
                fx.push(Effect::Term(notify));
            }
            if audible {
                fx.push(Effect::Term(TermEffect::Bell));
            }
            fx
        }
    }
}

/// One notification for the held ones: the only one as it is; else how many, and where from.
fn summary(method: NotifyMethod, h: Held) -> Vec<Effect> {
    if h.count == 1 {
        return shown(method, h.newest);
    }
    let n = h.count;
    let body = if h.one_conversation {
        let what = if h.newest.reason == Reason::Direct { "direct messages" } else { "messages" };
        format!("{n} more {what} {}", h.newest.place)
    } else {
        let parts: Vec<String> =
            Reason::ALL.iter().filter(|r| h.of(**r) > 0).map(|r| counted(*r, h.of(*r))).collect();
        format!("{n} more messages: {}", parts.join(", "))
    };
    let Notice { title, clicked, .. } = h.newest;
    show(method, h.desktop, h.audible, TermEffect::Notify { title, body, clicked })
}

/// "9 direct messages", "1 mention", "2 with alert words", "1 in a followed topic".
fn counted(reason: Reason, n: usize) -> String {
    let (one, many) = match reason {
        Reason::Direct => ("direct message", "direct messages"),
        Reason::Mention => ("mention", "mentions"),
        Reason::AlertWord => ("with an alert word", "with alert words"),
        Reason::Followed => ("in a followed topic", "in followed topics"),
        Reason::Channel => ("in a channel you get every message of", "in channels you get every message of"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ME, msg, registered};
    use super::*;
    use crate::app::burst::WINDOW;
    use crate::app::update;
    use serde_json::json;

    fn dm(id: i64, from: i64) -> serde_json::Value {
        let name = if from == 11 { "Alice" } else { "Bob" };
        json!({"id": id, "type": "private", "content": format!("<p>dm {id}</p>"), "sender_id": from,
            "sender_full_name": name, "sender_email": "x@x", "timestamp": 1_700_000_000 + id, "flags": [],
            "display_recipient": [{"id": ME, "email": "me@x", "full_name": "Me"},
                {"id": from, "email": "x@x", "full_name": name}]})
    }

    fn event(m: serde_json::Value) -> Event {
        let flags = m["flags"].clone();
        Event::decode(json!({"id": 0, "type": "message", "message": m, "flags": flags}))
    }

    /// The notifications `fx` asks for: (body, what a click opens).
    fn told(fx: &[Effect]) -> Vec<(String, Clicked)> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Term(TermEffect::Notify { body, clicked, .. }) => {
                    Some((body.clone(), clicked.clone()))
                }
                _ => None,
            })
            .collect()
    }

    fn bodies(fx: &[Effect]) -> Vec<String> {
        told(fx).into_iter().map(|(b, _)| b).collect()
    }

    /// A registered state away from the terminal at `now`.
    fn away(now: i64) -> State {
        let (mut st, _) = registered();
        update(&mut st, Msg::Tick(now));
        st.ui.presence.focus_changed(false);
        st
    }

    fn arrive(st: &mut State, messages: Vec<serde_json::Value>) -> Vec<Effect> {
        update(st, Msg::Events(messages.into_iter().map(event).collect()))
    }

    #[test]
    fn three_in_a_row_are_shown_the_rest_summed_up_when_the_window_is_over() {
        let mut st = away(1000);
        let news = json!({"id": 0, "type": "user_topic", "stream_id": 1, "topic_name": "news",
            "last_updated": 0, "visibility_policy": 3});
        update(&mut st, Msg::Events(vec![Event::decode(news)]));
        let fx = arrive(&mut st, vec![dm(101, 11), dm(102, 11), dm(103, 11)]);
        assert_eq!(
            bodies(&fx),
            [
                "Alice (direct message): dm 101",
                "Alice (direct message): dm 102",
                "Alice (direct message): dm 103"
            ]
        );
        // The fourth and later: held, kept as unread as ever.
        let mut later: Vec<_> = (104..110).map(|id| dm(id, 11)).collect();
        later.push(msg(110, 1, "plans", &["mentioned"]));
        later.push(msg(111, 1, "news", &[]));
        later.push(msg(112, 1, "plans", &["has_alert_word"]));
        later.push(dm(113, 12));
        assert_eq!(bodies(&arrive(&mut st, later)), Vec::<String>::new());
        assert_eq!(st.notices.held(), 10);
        assert!((101..=113).all(|id| st.data.messages.contains_key(&id)));
        assert_eq!(st.data.unread.count(&Conv::Dm(vec![11])), 1 + 9, "nothing lost from the unread state");
        // Not before the window is over; then one summary, its click on the newest.
        for now in 1001..1000 + WINDOW {
            assert_eq!(told(&update(&mut st, Msg::Tick(now))), vec![], "at {now}");
        }
        let summary = told(&update(&mut st, Msg::Tick(1000 + WINDOW)));
        assert_eq!(
            summary,
            vec![(
                "10 more messages: 7 direct messages, 1 mention, 1 with an alert word, 1 in a followed topic"
                    .to_owned(),
                Clicked { open: Narrow::Dm(vec![12]), id: 113 }
            )]
        );
        assert_eq!(st.notices.held(), 0);
        assert_eq!(told(&update(&mut st, Msg::Tick(1000 + WINDOW + 1))), vec![], "told once");
    }

    #[test]
    fn a_burst_in_one_conversation_is_named_and_goes_on_summed_up_until_a_quiet_window() {
        let mut st = away(1000);
        let fx = arrive(&mut st, (101..=120).map(|id| msg(id, 1, "plans", &["mentioned"])).collect());
        assert_eq!(bodies(&fx).len(), 3);
        let summary = told(&update(&mut st, Msg::Tick(1010)));
        let open = Narrow::Topic(1, "plans".into());
        assert_eq!(summary, vec![("17 more messages in #eng > plans".to_owned(), Clicked { open, id: 120 })]);
        // Still coming: held again (the summary spent this window), told in the next one.
        assert_eq!(bodies(&arrive(&mut st, vec![dm(121, 11), dm(122, 11)])), Vec::<String>::new());
        assert_eq!(told(&update(&mut st, Msg::Tick(1019))), vec![]);
        assert_eq!(bodies(&update(&mut st, Msg::Tick(1020))), ["2 more direct messages from Alice"]);
        // A single one held is shown as it is.
        arrive(&mut st, vec![dm(123, 11)]);
        assert_eq!(bodies(&update(&mut st, Msg::Tick(1030))), ["Alice (direct message): dm 123"]);
        // A quiet window: the next ones are shown one by one again.
        update(&mut st, Msg::Tick(1040));
        let fx = arrive(&mut st, vec![dm(124, 11), dm(125, 11)]);
        assert_eq!(bodies(&fx), ["Alice (direct message): dm 124", "Alice (direct message): dm 125"]);
    }

    #[test]
    fn a_window_is_any_ten_seconds() {
        let mut st = away(1000);
        assert_eq!(bodies(&arrive(&mut st, vec![dm(101, 11), dm(102, 11)])).len(), 2);
        update(&mut st, Msg::Tick(1008));
        // One more fits in the window of the first two; the next waits for theirs to end.
        assert_eq!(bodies(&arrive(&mut st, vec![dm(103, 11), dm(104, 11)])).len(), 1);
        assert_eq!(bodies(&update(&mut st, Msg::Tick(1009))).len(), 0);
        assert_eq!(bodies(&update(&mut st, Msg::Tick(1010))), ["Alice (direct message): dm 104"]);
    }

    #[test]
    fn muted_and_own_messages_are_never_counted() {
        let mut st = away(1000);
        arrive(&mut st, vec![dm(101, 11), dm(102, 11), dm(103, 11)]);
        let mut own = dm(104, 11);
        own["sender_id"] = json!(ME);
        // Own, in a muted topic or channel (even a mention), in an ordinary topic unflagged.
        let quiet = vec![
            own,
            msg(105, 1, "Noise", &["mentioned"]),
            msg(106, 1, "plans", &[]),
            msg(107, 2, "chatter", &["mentioned"]),
        ];
        assert!(bodies(&arrive(&mut st, quiet)).is_empty());
        assert_eq!(st.notices.held(), 0);
        // A muted sender neither.
        st.data.users.on_muted_users(&[MutedUser { id: 12, timestamp: 0 }]);
        arrive(&mut st, vec![dm(108, 12)]);
        assert_eq!(st.notices.held(), 0);
        assert_eq!(told(&update(&mut st, Msg::Tick(1010))), vec![], "nothing to sum up");
        // Not held either: the next is shown at once.
        assert_eq!(bodies(&arrive(&mut st, vec![dm(109, 11)])).len(), 1);
    }
}
