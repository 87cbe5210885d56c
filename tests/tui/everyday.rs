//! What a web-app user does every day, through the whole app against the demo server, the
//! server's state read back: marking unread from a message on.

use crate::harness::*;
use crossterm::event::KeyCode;
use topicterm::api::OutgoingMessage;
use topicterm::app::Narrow;

fn server_read(app: &App, id: i64) -> bool {
    let me = app.st.data.me;
    app.server.shared.lock().user_msgs[&me][&id].read
}

#[tokio::test]
async fn mark_unread_takes_the_message_and_every_later_one_and_holds_until_the_user_moves() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let mut ids = Vec::new();
    for text in ["one", "two", "three", "four"] {
        let m = OutgoingMessage::channel(general, "unread again", text);
        ids.push(alice.send_message(&m).await.unwrap().id);
    }
    let topic = Narrow::Topic(general, "unread again".into());
    app.open(topic.clone()).await;
    app.until("the topic", |st| ids.iter().all(|id| st.data.messages.contains_key(id))).await;
    // Read them all by going through them.
    app.select(ids[0]);
    for _ in 0..3 {
        app.key(KeyCode::Char('j')).await;
    }
    app.settle().await;
    assert!(ids.iter().all(|id| !app.st.data.unread.by_id.contains_key(id)), "read by moving through");
    let before = app.st.data.channel_unread(general);
    // From the second message on: three become unread, here at once and on the server.
    app.select(ids[1]);
    app.key(KeyCode::Char('!')).await;
    assert_eq!(app.st.data.channel_unread(general), before + 3, "the counts follow at once");
    app.until("said so", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text == "marked as unread from the selected message")
    })
    .await;
    assert!(server_read(&app, ids[0]), "the one before stays read");
    assert!(ids[1..].iter().all(|id| !server_read(&app, *id)), "unread on the server");
    let screen = app.screen(80, 24);
    assert!(screen.contains("general") && screen.contains('3'), "{screen}");
    // Still on it: a redraw, a tick or events do not read it again.
    let now = app.st.now;
    app.send(topicterm::app::Msg::Tick(now + 5)).await;
    app.open(topic.clone()).await;
    app.select(ids[1]);
    assert!(app.st.data.unread.by_id.contains_key(&ids[1]), "held while the user stays");
    // Moving on reads the next one, as the web app does; the held one stays unread.
    app.key(KeyCode::Char('j')).await;
    app.settle().await;
    assert!(!app.st.data.unread.by_id.contains_key(&ids[2]));
    assert!(app.st.data.unread.by_id.contains_key(&ids[1]));
    assert!(!server_read(&app, ids[1]) && server_read(&app, ids[2]));
    // The palette does the same; with nothing selected it says what to do.
    app.st.ui.selected = None;
    app.palette("mark-unread").await;
    let status = app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert!(status.starts_with("select a message first"), "{status}");
}
