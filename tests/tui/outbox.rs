//! Optimistic sending through a network that fails: pending copies, the ordered outbox, retries
//! and refusals, against the real demo server behind a fault-injecting proxy.

use crate::harness::App;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, OutState};
use topicterm::server::proxy::FaultProxy;

/// Settle until `pred` holds (background retries run on real time), or fail.
async fn until(app: &mut App, what: &str, pred: impl Fn(&App) -> bool) {
    for _ in 0..80 {
        if pred(app) {
            return;
        }
        app.settle().await;
    }
    panic!("timed out waiting for {what}; status {:?}, outbox {:?}", app.st.ui.status, app.st.outbox);
}

/// Open a compose box to `channel > topic`.
async fn compose_to(app: &mut App, channel: &str, topic: &str) {
    app.key(KeyCode::Char('c')).await;
    app.keys(&format!("{channel}>{topic}")).await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.compose.is_some(), "compose box open; status {:?}", app.st.ui.status);
}

/// Messages with this exact text on the server, seen by an admin.
async fn on_server(app: &App, text: &str) -> usize {
    let admin = topicterm::api::Client::new(&app.server.credentials("admin").unwrap()).unwrap();
    let q = topicterm::api::GetMessages::around(topicterm::api::Anchor::Newest, 100, 0);
    let resp = admin.get_messages(&q).await.unwrap();
    resp.messages.iter().filter(|m| m.content.contains(text)).count()
}

#[tokio::test]
async fn messages_written_offline_show_pending_and_go_once_in_order_when_back() {
    let (mut app, proxy): (App, FaultProxy) = App::start_behind_proxy("member").await;
    proxy.set_down(true);
    until(&mut app, "the outage to be noticed", |a| a.st.ui.conn.is_offline()).await;

    compose_to(&mut app, "general", "outbox test").await;
    app.keys("first while offline").await;
    app.ctrl('d').await;
    assert!(app.st.ui.compose.is_none(), "the compose box closes at once");
    compose_to(&mut app, "general", "outbox test").await;
    app.keys("second while offline").await;
    app.ctrl('d').await;
    assert_eq!(app.st.outbox.len(), 2);
    assert!(app.st.outbox.iter().all(|o| o.state == OutState::Queued), "{:?}", app.st.outbox);

    app.open(Narrow::Topic(app.channel_id("general"), "outbox test".into())).await;
    let screen = app.screen(100, 24);
    assert!(screen.contains("first while offline") && screen.contains("second while offline"), "{screen}");
    assert!(screen.contains("waiting for the connection"), "{screen}");

    proxy.set_down(false);
    until(&mut app, "the outbox to empty", |a| a.st.outbox.is_empty() && !a.st.ui.conn.is_offline()).await;
    app.settle().await;
    assert_eq!(on_server(&app, "first while offline").await, 1);
    assert_eq!(on_server(&app, "second while offline").await, 1);
    let ids: Vec<_> = ["first while offline", "second while offline"]
        .iter()
        .map(|t| app.st.data.messages.values().find(|m| m.content().contains(t)).expect("in the store").id)
        .collect();
    assert!(ids[0] < ids[1], "sent in the order written");
    let screen = app.screen(100, 24);
    assert_eq!(screen.matches("first while offline").count(), 1, "shown once:\n{screen}");
    assert!(!screen.contains("waiting for the connection"), "{screen}");
    assert!(proxy.faults() > 0);
}

#[tokio::test]
async fn a_refused_message_stays_marked_and_comes_back_to_the_compose_box() {
    let mut app = App::start("member").await;
    // A refusal the client cannot foresee (its rules say #general is open to all: the compose
    // box refuses #announcements itself, `rules.rs`): the server made it administrators-only
    // without telling, as when the change's event is still on its way.
    let general = app.channel_id("general");
    compose_to(&mut app, "general", "from a member").await;
    app.server.shared.lock().channels.get_mut(&general).unwrap().admins_only_post = true;
    app.keys("this will be refused").await;
    app.ctrl('d').await;
    until(&mut app, "the refusal", |a| a.st.outbox.iter().any(|o| matches!(o.state, OutState::Failed(_))))
        .await;
    app.open(Narrow::Topic(general, "from a member".into())).await;
    let screen = app.screen(100, 24);
    assert!(screen.contains("this will be refused") && screen.contains("✗ not sent"), "{screen}");
    assert!(screen.contains("ctrl+r retry"), "{screen}");

    app.ctrl('u').await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("this will be refused"));
    assert!(app.st.outbox.is_empty());
    assert_eq!(on_server(&app, "this will be refused").await, 0);
}

#[tokio::test]
async fn a_message_queued_offline_can_be_taken_back() {
    let (mut app, proxy): (App, FaultProxy) = App::start_behind_proxy("member").await;
    proxy.set_down(true);
    until(&mut app, "the outage to be noticed", |a| a.st.ui.conn.is_offline()).await;
    compose_to(&mut app, "general", "outbox test").await;
    app.keys("second thoughts").await;
    app.ctrl('d').await;
    assert!(app.st.outbox.iter().all(|o| o.state == OutState::Queued), "{:?}", app.st.outbox);
    app.open(Narrow::Topic(app.channel_id("general"), "outbox test".into())).await;
    assert!(app.screen(100, 24).contains("ctrl+u edit"), "the key is offered");

    app.ctrl('u').await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("second thoughts"));
    assert!(app.st.outbox.is_empty(), "{:?}", app.st.outbox);
    // Back online, nothing goes out by itself.
    proxy.set_down(false);
    until(&mut app, "the connection", |a| !a.st.ui.conn.is_offline()).await;
    app.settle().await;
    assert_eq!(on_server(&app, "second thoughts").await, 0);
}

/// Issue 40: a message whose first attempt was cut off, queued for a conversation the server
/// then refuses to search (a channel gone), looked for it, was refused, and looked again,
/// forever ("not sent yet (Invalid narrow operator: unknown channel): trying again in 5s").
/// Refused the search, it is sent; the server's refusal of the message is final, said as the
/// send's, and the text stays to be taken back.
#[tokio::test]
async fn a_send_refused_after_its_search_is_refused_stops_and_says_the_sends_reason() {
    use crate::rewriter::{Reply, Rewriter};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (mut app, proxy) = crate::harness::Setup::new("member")
        .start_through(async |s: &topicterm::server::DemoServer| {
            let p = Rewriter::start(&s.url, vec![]).await;
            let url = p.url.clone();
            (p, url)
        })
        .await;
    let posts = Arc::new(AtomicUsize::new(0));
    let seen = posts.clone();
    let error =
        |msg: &str| format!(r#"{{"result": "error", "code": "BAD_REQUEST", "msg": "{msg}"}}"#).into_bytes();
    proxy.arm_before(Box::new(move |ex| {
        let cut = seen.load(Ordering::SeqCst) > 0;
        if ex.is("POST", "/messages") {
            return Some(match seen.fetch_add(1, Ordering::SeqCst) {
                // The connection drops before the answer: the server may have it.
                0 => Reply::CutAfter(b"{\"result\": \"success\"}".to_vec(), 3),
                _ => Reply::Body(400, error("Invalid channel ID")),
            });
        }
        (cut && ex.is("GET", "/messages"))
            .then(|| Reply::Body(400, error("Invalid narrow operator: unknown channel")))
    }));
    compose_to(&mut app, "general", "gone soon").await;
    app.keys("to a channel that goes").await;
    app.ctrl('d').await;
    until(&mut app, "the first attempt cut off", |a| a.st.outbox.iter().next().is_some_and(|o| o.maybe_sent))
        .await;
    app.ctrl('r').await;
    // The search refused, it is sent at once (not looked for again), and refused.
    until(&mut app, "the refusal", |a| a.st.outbox.iter().any(|o| matches!(o.state, OutState::Failed(_))))
        .await;
    assert!(!app.st.outbox[0].maybe_sent, "not looked for again");
    let OutState::Failed(why) = &app.st.outbox[0].state else { unreachable!() };
    assert_eq!(why, "Invalid channel ID", "the send's reason, not the search's");
    let tried = posts.load(Ordering::SeqCst);
    app.settle().await;
    app.send(topicterm::app::Msg::Tick(app.st.now + 600)).await;
    assert_eq!(posts.load(Ordering::SeqCst), tried, "no attempt after a final refusal");
    assert_eq!(app.st.outbox.len(), 1, "the text is kept to be taken back");
}

/// Issue 40.1: a message kept from before a restart, to a channel that is gone since (deleted,
/// archived, a restarted server), showed as `#(unknown channel) > todos`. Its row names the
/// channel as it was when written, and the server's refusal is final.
#[tokio::test]
async fn a_kept_message_to_a_channel_gone_since_names_it_as_written_and_stops() {
    let mut app = App::start("member").await;
    let kept = serde_json::json!({
        "draft": "channel-424242-todos",
        "content": "write the release notes",
        "target": {"Channel": {"id": 424242, "topic": "todos"}},
        "after_id": app.st.data.newest_id(),
        "created": app.st.now,
        "channel_name": "retired",
    });
    let files = [("outbox-kept1".to_owned(), kept.to_string())].into_iter().collect();
    app.send(topicterm::app::Msg::DraftsLoaded(files)).await;
    until(&mut app, "the refusal", |a| a.st.outbox.iter().any(|o| matches!(o.state, OutState::Failed(_))))
        .await;
    app.key(KeyCode::Char('G')).await;
    let screen = app.screen(100, 30);
    assert!(screen.contains("#retired > todos"), "{screen}");
    assert!(!screen.contains("unknown channel"), "{screen}");
    assert!(screen.contains("write the release notes"), "the text is kept:\n{screen}");
}
