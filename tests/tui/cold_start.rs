//! The cold start asks for the first page together with register: whichever of the two the
//! server takes first, and whichever answer comes first, messages sent in between are in the
//! first view exactly once and in order — as the server has them.

use crate::harness::{App, Setup};
use crate::rewriter::{Gate, Hold, Rewriter};
use topicterm::api::{Anchor, GetMessages, NarrowTerm, OutgoingMessage};
use topicterm::app::{Narrow, State};

/// Start `member` through a proxy that holds back the next `method path` at `when`; while it
/// is held, another user sends three messages to #general; once `ready` holds (a state the
/// test wants the app in while the request is still held), it is let go. Returns the app once
/// its cold start is over, the proxy, and the messages sent (IDs and texts).
async fn start_holding(
    method: &str,
    path: &str,
    when: Hold,
    ready: impl Fn(&State) -> bool,
) -> (App, Rewriter, Vec<(i64, String)>) {
    let (mut app, (proxy, gate)) = Setup::new("member")
        .start_through(async |s| {
            // Nothing unread: the first page is the newest messages, reaching the newest.
            crate::harness::client_of(s, "member").mark_all_as_read().await.unwrap();
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let gate: Gate = proxy.hold(method, path, when);
            let url = proxy.url.clone();
            ((proxy, gate), url)
        })
        .await;
    gate.arrived().await;
    let alice = app.other("alice");
    let channels = alice.get_streams(&Default::default()).await.unwrap().streams;
    let general = channels.iter().find(|c| c.name == "general").map(|c| c.stream_id).unwrap();
    let mut sent = Vec::new();
    for i in 0..3 {
        let text = format!("sent while {path} was held ({when:?}), number {i}");
        let id =
            alice.send_message(&OutgoingMessage::channel(general, "cold start", &text)).await.unwrap().id;
        sent.push((id, text));
    }
    app.until("the state to look at while the request is held", ready).await;
    gate.release();
    app.until("the cold start is over", |st| {
        st.ui.conn.first_page().is_none()
            && st.data.queue_id().is_some()
            && st.data.views.get(&Narrow::All).is_some_and(|v| v.is_loaded() && !v.is_loading_newer())
    })
    .await;
    // Events in flight are applied too.
    app.settle().await;
    (app, proxy, sent)
}

/// The combined feed holds what the server has, from its first message on, each once and in
/// order; the messages sent during the start are on the screen once each.
async fn holds_each_once(app: &mut App, sent: &[(i64, String)]) {
    let ids = app.st.data.views[&Narrow::All].ids().to_vec();
    // The combined feed leaves muted topics out.
    let q = GetMessages::around(Anchor::Id(ids[0]), 0, 1000)
        .narrow(vec![NarrowTerm::new("is", "muted").negate()]);
    let truth: Vec<i64> =
        app.other("member").get_messages(&q).await.unwrap().messages.iter().map(|m| m.id).collect();
    assert_eq!(ids, truth, "the first view is not the server's");
    for (id, _) in sent {
        assert_eq!(ids.iter().filter(|i| *i == id).count(), 1, "message {id}");
    }
    // Drawn: each sent message once (the newest ones are at the bottom of the view).
    app.st.ui.selected = ids.last().copied();
    let screen = app.screen(200, 60);
    for (_, text) in sent {
        assert_eq!(screen.matches(text.as_str()).count(), 1, "{text} in\n{screen}");
    }
}

/// Register has answered and the events of the messages sent are in, held for the page.
fn events_held(st: &State) -> bool {
    st.ui.conn.first_page().is_some_and(|f| f.held.iter().flatten().count() >= 3)
}

/// The page is taken before the queue exists: the messages sent in between are in neither, and
/// are asked for once register has answered (a second page after the first).
#[tokio::test]
async fn a_page_taken_before_the_queue_is_followed_by_the_gap() {
    let (mut app, proxy, sent) = start_holding("POST", "/register", Hold::Request, |_| true).await;
    assert_eq!(proxy.seen("GET", "/messages"), 2, "the first page and the gap after it");
    holds_each_once(&mut app, &sent).await;
}

/// The queue and the page are both taken at once; register's answer comes late: the messages
/// sent meanwhile come as events.
#[tokio::test]
async fn a_late_register_answer_leaves_the_messages_to_events() {
    let (mut app, proxy, sent) = start_holding("POST", "/register", Hold::Answer, |_| true).await;
    assert_eq!(proxy.seen("GET", "/messages"), 1, "the first page only");
    holds_each_once(&mut app, &sent).await;
}

/// The page is taken after the queue: the messages sent in between are in the page and come as
/// events too, and are shown once.
#[tokio::test]
async fn a_page_taken_after_the_queue_is_not_doubled_by_events() {
    let (mut app, proxy, sent) = start_holding("GET", "/messages", Hold::Request, events_held).await;
    assert_eq!(proxy.seen("GET", "/messages"), 1, "the first page only");
    holds_each_once(&mut app, &sent).await;
}

/// The page's answer comes after register's and after the events of the messages sent
/// meanwhile: those events wait for the page and land in the view.
#[tokio::test]
async fn events_before_a_late_page_wait_for_it() {
    let (mut app, _proxy, sent) = start_holding("GET", "/messages", Hold::Answer, events_held).await;
    holds_each_once(&mut app, &sent).await;
}
