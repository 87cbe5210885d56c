//! What a web-app user does every day, through the whole app against the demo server, the
//! server's state read back: marking unread from a message on.

use crate::harness::*;
use topicterm::api::OutgoingMessage;
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;

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
    assert!(ids.iter().all(|id| !app.st.data.unread.contains(*id)), "read by moving through");
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
    assert!(app.st.data.unread.contains(ids[1]), "held while the user stays");
    // Moving on reads the next one, as the web app does; the held one stays unread.
    app.key(KeyCode::Char('j')).await;
    app.settle().await;
    assert!(!app.st.data.unread.contains(ids[2]));
    assert!(app.st.data.unread.contains(ids[1]));
    assert!(!server_read(&app, ids[1]) && server_read(&app, ids[2]));
    // The palette does the same; with nothing selected it says what to do.
    app.st.ui.selected = None;
    app.palette("mark-unread").await;
    let status = app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert!(status.starts_with("select a message first"), "{status}");
}

#[tokio::test]
async fn a_poll_takes_new_options_and_a_to_do_list_new_tasks_from_the_palette() {
    use topicterm::app::widget::Widget;
    let mut app = App::start("member").await;
    let random = app.channel_id("random");
    app.open(Narrow::Topic(random, "team offsite".into())).await;
    let poll =
        *app.st.data.widgets().keys().find(|id| app.st.data.messages[id].topic() == "team offsite").unwrap();
    app.select(poll);
    let options = |st: &topicterm::app::State| match st.data.widgets().get(&poll) {
        Some(Widget::Poll(p)) => p.options.iter().map(|o| o.text.clone()).collect::<Vec<_>>(),
        _ => vec![],
    };
    let before = options(&app.st).len();
    app.palette("poll-option Riga").await;
    app.until("the new option, by event", |st| options(st).last().map(String::as_str) == Some("Riga")).await;
    // A second one gets the next index: both stay.
    app.palette("poll-option Vilnius").await;
    app.until("the second option", |st| options(st).len() == before + 2).await;
    assert!(app.screen(80, 24).contains("Vilnius"));
    // The server keeps them: another client sees the same poll.
    let subs = app.server.shared.lock().messages[&poll].submessages.len();
    assert!(subs >= 2, "{subs}");
    // The wrong kind is said.
    app.palette("todo-add pack").await;
    let status = app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert_eq!(status, "this message is a poll: :poll-option adds an option");
    app.key(KeyCode::Esc).await;
    let engineering = app.channel_id("engineering");
    app.open(Narrow::Topic(engineering, "release 2.5 checklist".into())).await;
    let todo = *app
        .st
        .data
        .widgets()
        .keys()
        .find(|id| app.st.data.messages[id].topic() == "release 2.5 checklist")
        .unwrap();
    app.select(todo);
    app.palette("todo-add write the release notes").await;
    app.until("the new task", |st| match st.data.widgets().get(&todo) {
        Some(Widget::Todo(t)) => {
            t.tasks.last().is_some_and(|x| x.task == "write the release notes" && !x.done)
        }
        _ => false,
    })
    .await;
    // `task: description`, as a `/todo` message's lines (issue 40: the whole text was the task).
    app.palette("todo-add notes: write the release notes").await;
    app.until("the task and its description", |st| match st.data.widgets().get(&todo) {
        Some(Widget::Todo(t)) => {
            t.tasks.last().is_some_and(|x| x.task == "notes" && x.desc == "write the release notes")
        }
        _ => false,
    })
    .await;
    // And on a message with neither.
    let m = OutgoingMessage::channel(engineering, "release 2.5 checklist", "plain words");
    let plain = app.other("alice").send_message(&m).await.unwrap().id;
    app.until("the plain message", |st| st.data.messages.contains_key(&plain)).await;
    app.select(plain);
    app.palette("todo-add x").await;
    let status = app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert_eq!(status, "the selected message has no to-do list (/todo makes one)");
}

#[tokio::test]
async fn message_info_on_ones_own_message_says_who_has_read_it() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let m = OutgoingMessage::channel(general, "receipts", "did you see this?");
    let id = app.other("member").send_message(&m).await.unwrap().id;
    let other = app
        .other("alice")
        .send_message(&OutgoingMessage::channel(general, "receipts", "yes"))
        .await
        .unwrap()
        .id;
    app.other("alice").update_message_flags(&[id], true, topicterm::api::Flag::Read).await.unwrap();
    app.other("bob").update_message_flags(&[id], true, topicterm::api::Flag::Read).await.unwrap();
    app.open(Narrow::Topic(general, "receipts".into())).await;
    app.until("both messages", |st| {
        st.data.messages.contains_key(&id) && st.data.messages.contains_key(&other)
    })
    .await;
    app.select(id);
    app.key(KeyCode::Char('i')).await;
    app.until("the receipts", |st| st.ui.read_receipts.as_ref().is_some_and(|r| r.1.is_some())).await;
    let screen = app.screen(80, 24);
    // The time it was sent follows the demo server's clock: left out of the picture.
    let steady: String = screen
        .lines()
        .map(|l| if l.contains("Sent:") { "│Sent:  (the time it was sent)" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("read_receipts_80x24", steady);
    assert!(screen.contains("Read by 2"), "{screen}");
    assert!(screen.contains("Alice Okafor") && screen.contains("Bob Nakamura"), "{screen}");
    assert!(app.screen(160, 48).contains("Read by 2"));
    app.key(KeyCode::Esc).await;
    // Someone else's message: not asked.
    app.select(other);
    app.key(KeyCode::Char('i')).await;
    assert!(app.st.ui.read_receipts.is_none());
    assert!(!app.screen(80, 24).contains("Read by"));
    app.key(KeyCode::Esc).await;
    // Turned off by the organization (an event): said, not asked.
    app.inject(vec![serde_json::json!({"id": 99, "type": "realm", "op": "update", "property": "enable_read_receipts", "value": false})]).await;
    app.select(id);
    app.key(KeyCode::Char('i')).await;
    assert!(app.st.ui.read_receipts.is_none());
    assert!(app.screen(80, 24).contains("read receipts are off in this organization"));
}

#[tokio::test]
async fn an_administrator_deletes_a_topic_after_a_question_that_counts_its_messages() {
    let mut app = App::start("admin").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let mut ids = Vec::new();
    for text in ["one", "two", "three"] {
        ids.push(alice.send_message(&OutgoingMessage::channel(general, "to go", text)).await.unwrap().id);
    }
    let keep = alice.send_message(&OutgoingMessage::channel(general, "to stay", "here")).await.unwrap().id;
    let topic = Narrow::Topic(general, "to go".into());
    app.open(topic.clone()).await;
    app.until("the topic", |st| ids.iter().all(|id| st.data.messages.contains_key(id))).await;
    app.select(ids[1]);
    app.palette("delete-topic").await;
    app.until("the question", |st| st.ui.confirm.is_some()).await;
    let question = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).unwrap();
    assert_eq!(
        question,
        "Delete #general > to go and its 3 messages, for everyone? This cannot be undone. (y/N)"
    );
    insta::assert_snapshot!("delete_topic_confirm_80x24", app.screen(80, 24));
    // No: nothing goes.
    app.key(KeyCode::Char('n')).await;
    assert!(ids.iter().all(|id| app.server.shared.lock().messages.contains_key(id)));
    // Yes: every message of the topic, on the server and here; the other topic stays.
    app.palette("delete-topic").await;
    app.until("the question", |st| st.ui.confirm.is_some()).await;
    app.key(KeyCode::Char('y')).await;
    app.until("gone here", |st| ids.iter().all(|id| !st.data.messages.contains_key(id))).await;
    app.until("said so", |st| st.ui.status.as_ref().is_some_and(|s| s.text == "deleted #general > to go"))
        .await;
    let org = app.server.shared.lock();
    assert!(ids.iter().all(|id| !org.messages.contains_key(id)) && org.messages.contains_key(&keep));
}

#[tokio::test]
async fn a_member_is_told_only_administrators_delete_topics() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let id =
        app.other("alice").send_message(&OutgoingMessage::channel(general, "mine", "x")).await.unwrap().id;
    app.open(Narrow::Topic(general, "mine".into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    app.palette("delete-topic").await;
    assert_eq!(
        app.st.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("only administrators can delete a topic")
    );
    assert!(app.st.ui.confirm.is_none());
}
