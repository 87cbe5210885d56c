//! Events from other people's actions reach the store and the screens: saved views, code
//! playgrounds, archived channels.

use crate::harness::App;
use reqwest::Method;
use topicterm::api::{Client, Params};
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, Popup};

fn admin(app: &App) -> Client {
    Client::new(&app.server.credentials("admin").unwrap()).unwrap()
}

#[tokio::test]
async fn saved_views_follow_changes_made_elsewhere() {
    let mut app = App::start("member").await;
    let views = &app.st.data.lists.views();
    assert!(views.iter().any(|v| v.name.as_deref() == Some("Release") && v.is_pinned), "{views:?}");
    let fragment = "narrow/channel/support/is/followed";
    app.client.update_navigation_view(fragment, Some(true), Some("Support, followed")).await.unwrap();
    app.settle().await;
    let v = app.st.data.lists.views().iter().find(|v| v.fragment == fragment).unwrap();
    assert!(v.is_pinned);
    assert_eq!(v.name.as_deref(), Some("Support, followed"));
}

#[tokio::test]
async fn a_new_playground_links_matching_code_blocks_in_message_info() {
    let mut app = App::start("member").await;
    admin(&app)
        .add_playground("Python tutor", "python", "https://tutor.example/run?code={code}")
        .await
        .unwrap();
    app.settle().await;
    assert!(app.st.data.realm.custom.playgrounds.iter().any(|p| p.name == "Python tutor"));
    let general = app.channel_id("general");
    let code = "```python\nprint('hi')\n```";
    let alice = Client::new(&app.server.credentials("alice").unwrap()).unwrap();
    let id =
        alice.send_message(&topicterm::api::OutgoingMessage::channel(general, "py", code)).await.unwrap().id;
    app.settle().await;
    app.st.ui.selected = Some(id);
    app.st.ui.popup = Some(Popup::MessageInfo { message_id: id, scroll: 0 });
    let screen = app.screen(160, 48);
    assert!(screen.contains("Code playgrounds"), "{screen}");
    assert!(
        screen.contains("in Python tutor:") && screen.contains("https://tutor.example/run?code="),
        "{screen}"
    );
}

#[tokio::test]
async fn an_archived_channel_leaves_the_sidebar() {
    let mut app = App::start("member").await;
    let design = app.channel_id("design");
    app.open(Narrow::Channel(design)).await;
    let resp = admin(&app)
        .raw(Method::DELETE, &format!("/streams/{design}"), Params::new(), std::time::Duration::from_secs(10))
        .await;
    assert!(resp.is_ok(), "{resp:?}");
    app.settle().await;
    assert!(!app.st.data.channels.is_subscribed(design));
    let screen = app.screen(100, 24);
    assert!(!screen.contains("#design"), "{screen}");
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.text.contains("archived")), "{:?}", app.st.ui.status);
}

/// The real main loop on a `TestBackend`: quitting deletes the event queue on the server.
#[tokio::test]
async fn a_clean_exit_deletes_the_event_queue() {
    use crossterm::event::{self as term, Event};
    use topicterm::server::{DemoServer, ServerOptions};
    let server = DemoServer::start(ServerOptions::default()).await.unwrap();
    let client = Client::new(&server.credentials("member").unwrap()).unwrap();
    let (keys, rx) = tokio::sync::mpsc::unbounded_channel::<std::io::Result<Event>>();
    let backend = ratatui::backend::TestBackend::new(100, 30);
    let run = async move {
        crate::harness::main_loop(backend, client, rx).await.map(|st| st.data.queue_id().map(str::to_owned))
    };
    let queues = |s: &DemoServer| s.shared.lock().queues.map.len();
    // The client polls its queue only once it has applied register's answer (the queue's ID is
    // in its state): a `q` before that has no queue to delete (a race seen under load).
    let polled = |s: &DemoServer| s.recent_requests().iter().any(|r| r.starts_with("GET /api/v1/events"));
    let drive = async {
        for _ in 0..400 {
            if polled(&server) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(polled(&server), "the client polls its queue");
        assert_eq!(queues(&server), 1, "registered");
        keys.send(Ok(Event::Key(term::KeyEvent::new(term::KeyCode::Char('q'), term::KeyModifiers::NONE))))
            .unwrap();
    };
    let (queue_id, ()) = tokio::join!(run, drive);
    assert!(queue_id.unwrap().is_some());
    assert_eq!(queues(&server), 0, "deleted on the way out");
}

/// An old server gets the old protocol from the same keys: legacy muting (below 170), `stream`
/// message types (below 248), the fixed report types (below 435), `dm-including` (below 456).
#[tokio::test]
async fn an_old_server_gets_the_old_protocol() {
    for level in [160, 300, 440] {
        let mut app = App::start_at_level("member", level).await;
        assert_eq!(app.st.data.realm.server.feature_level, level);
        // Search by DM participant.
        app.key(KeyCode::Char('/')).await;
        app.keys("dm-with:alice@demo.topicterm.test").await;
        app.key(KeyCode::Enter).await;
        let found = app.st.data.views.get(&app.st.ui.narrow).map_or(0, |v| v.ids().len());
        assert!(found > 0, "level {level}: {:?}", app.st.ui.status);
        // Report the selected message with a type the old server knows.
        assert!(app.st.data.realm.moderation.report_types.iter().any(|t| t.key == "norms"), "level {level}");
        app.key(KeyCode::Char(':')).await;
        app.keys("report spam looks like spam").await;
        app.key(KeyCode::Enter).await;
        assert!(app.st.ui.status.as_ref().is_some_and(|s| !s.error), "level {level}: {:?}", app.st.ui.status);
        // Send and mute from the keyboard.
        app.key(KeyCode::Char('a')).await;
        app.key(KeyCode::Char('r')).await;
        app.keys(&format!("hello level {level}")).await;
        app.ctrl('d').await;
        assert!(app.st.outbox.is_empty(), "level {level}: {:?}", app.st.outbox);
        assert!(app.st.data.messages.values().any(|m| m.content().contains(&format!("hello level {level}"))));
        let m = app.st.data.messages[&app.st.ui.selected.unwrap()].clone();
        if let Some(channel) = m.stream_id() {
            app.key(KeyCode::Char('M')).await;
            assert_eq!(
                app.st.data.policy(channel, m.topic()),
                topicterm::api::VisibilityPolicy::Muted,
                "level {level}: {:?}",
                app.st.ui.status
            );
            // Registering again (legacy `muted_topics` below 170) keeps it muted.
            app.send(topicterm::app::Msg::QueueLost).await;
            assert_eq!(
                app.st.data.policy(channel, m.topic()),
                topicterm::api::VisibilityPolicy::Muted,
                "level {level}"
            );
        }
    }
}

/// Messages in the empty topic arrive with "" from every source, so the topic is listed once
/// (under the organization's display name), not twice.
#[tokio::test]
async fn the_empty_topic_is_listed_once() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let row = app.sidebar_row(|r| *r == topicterm::app::SidebarRow::Channel(general));
    app.send(topicterm::app::Msg::ClickSidebar(row)).await;
    let names: Vec<String> = app.st.data.topics.of(general).unwrap().iter().map(|t| t.name.clone()).collect();
    assert_eq!(names.iter().filter(|n| n.is_empty() || *n == "general chat").count(), 1, "{names:?}");
    let screen = app.screen(100, 30);
    assert_eq!(screen.matches("   general chat").count(), 1, "{screen}");
}

/// A message marked unread elsewhere that this client does not hold (older than what it
/// loaded): counted all the same, from where the server says it is.
#[tokio::test]
async fn a_message_marked_unread_elsewhere_is_counted_though_not_held() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let me = app.st.data.me;
    // The oldest message of #general the member has read, dropped from what the app holds.
    let id = {
        let org = app.server.shared.lock();
        *org.user_msgs[&me]
            .iter()
            .find(|(id, f)| f.read && org.messages[id].channel_id() == Some(general))
            .map(|(id, _)| id)
            .unwrap()
    };
    app.st.data.messages.remove(&id);
    let before = app.st.data.channel_unread(general);
    // Another client of the same user marks it unread.
    let other = app.other("member");
    let ids = [id];
    other.update_message_flags(&ids, false, topicterm::api::Flag::Read).await.unwrap();
    app.until("counted", |st| st.data.unread.contains(id)).await;
    assert_eq!(app.st.data.channel_unread(general), before + 1);
}
