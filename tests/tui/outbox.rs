//! Optimistic sending through a network that fails: pending copies, the ordered outbox, retries
//! and refusals, against the real demo server behind a fault-injecting proxy.

use crate::harness::App;
use crossterm::event::KeyCode;
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
    until(&mut app, "the outage to be noticed", |a| a.st.ui.offline.is_some()).await;

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
    until(&mut app, "the outbox to empty", |a| a.st.outbox.is_empty() && a.st.ui.offline.is_none()).await;
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
    // Only administrators may post in #announcements.
    compose_to(&mut app, "announcements", "from a member").await;
    app.keys("this will be refused").await;
    app.ctrl('d').await;
    until(&mut app, "the refusal", |a| a.st.outbox.iter().any(|o| matches!(o.state, OutState::Failed(_))))
        .await;
    app.open(Narrow::Topic(app.channel_id("announcements"), "from a member".into())).await;
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
    until(&mut app, "the outage to be noticed", |a| a.st.ui.offline.is_some()).await;
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
    until(&mut app, "the connection", |a| a.st.ui.offline.is_none()).await;
    app.settle().await;
    assert_eq!(on_server(&app, "second thoughts").await, 0);
}
