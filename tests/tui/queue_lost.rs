//! A lost event queue (issue 51 item 3 b, issue 50 item 3): while the client had no queue the
//! server deleted and edited messages without a word. On the new queue the open view is asked
//! again for all it holds, and its answer takes its place — as zulip-flutter reloads — so no
//! message the server no longer has stays on screen, however far back in the window; the
//! archive is checked again too.

use crate::harness::Setup;
use topicterm::api::{Ack, MessageEdit, MessageId, OutgoingMessage, Params};
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_new_queue_the_open_view_no_longer_shows_what_the_server_deleted_meanwhile() {
    let data = tempfile::tempdir().unwrap();
    let (mut app, proxy) =
        Setup::new("member").archive(data.path().to_path_buf()).start_behind_fault_proxy().await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let member = app.other("member");
    let mut ids: Vec<MessageId> = Vec::new();
    for i in 0..70 {
        let m = OutgoingMessage::channel(general, "resync", &format!("resync note {i}"));
        ids.push(alice.send_message(&m).await.unwrap().id);
    }
    let elsewhere = alice
        .send_message(&OutgoingMessage::channel(general, "elsewhere", "a walrus elsewhere"))
        .await
        .unwrap()
        .id;
    member.mark_all_as_read().await.unwrap();
    app.until("the messages told of", |st| st.data.messages.contains_key(&elsewhere)).await;

    // The whole topic in its window: its newest page, then older ones as the selection nears
    // the top.
    let narrow = Narrow::Topic(general, "resync".into());
    app.open(narrow.clone()).await;
    app.st.ui.narrow = narrow.clone();
    for _ in 0..10 {
        if app.st.data.views[&narrow].found_oldest() {
            break;
        }
        let first = app.st.data.views[&narrow].ids()[0];
        app.select(first);
        app.key(KeyCode::Char('k')).await;
        app.until("an older page", |st| !st.data.views[&st.ui.narrow].is_loading_older()).await;
    }
    assert_eq!(app.st.data.views[&narrow].ids(), &ids[..], "the whole topic");
    app.select(ids[69]);
    assert!(app.screen(100, 30).contains("resync note 69"));
    assert!(app.archived());
    app.st.ui.backfill.check_ended(None);

    // The client loses the server, and the server its queue; meanwhile the newest and the
    // oldest message of the window are deleted (the oldest is older than any page the client
    // would ask to catch up), one is edited, and one no view holds is deleted.
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    let old_queue = app.st.data.queue_id().map(str::to_owned);
    let expired: Ack =
        member.call(reqwest::Method::POST, "/demo/expire_queues", Params::new()).await.unwrap();
    assert!(expired.ignored_parameters_unsupported.is_empty());
    let admin = app.other("admin");
    for id in [ids[69], ids[0], elsewhere] {
        admin.delete_message(id).await.unwrap();
    }
    let edit = MessageEdit { content: Some("resync note rewritten".into()), ..Default::default() };
    alice.update_message(ids[30], &edit).await.unwrap();
    proxy.set_down(false);

    app.until("a new queue, and the window asked again", |st| {
        st.data.queue_id().is_some()
            && st.data.queue_id() != old_queue.as_deref()
            && st.data.views.get(&st.ui.narrow).is_some_and(|v| v.is_loaded() && !v.is_provisional())
    })
    .await;
    let view = &app.st.data.views[&narrow];
    assert_eq!(view.ids(), &ids[1..69], "what the server has of the topic, and nothing else");
    let edited = app.st.data.messages.get(&ids[30]).map(|m| m.content().to_owned()).unwrap_or_default();
    assert!(edited.contains("rewritten"), "{edited}");
    assert_eq!(app.st.ui.selected, Some(ids[68]), "the selection on the nearest message left");
    let screen = app.screen(100, 30);
    assert!(screen.contains("resync note 68") && !screen.contains("resync note 69"), "{screen}");

    // The archive was checked again on the new queue: no deleted message is kept.
    app.until("the archive's check", |st| st.ui.backfill.checked().is_some()).await;
    assert!(matches!(app.st.ui.backfill.checked(), Some(Ok(_))), "{:?}", app.st.ui.backfill.checked());
    assert!(app.archived());
    let email = app.server.credentials("member").unwrap().email;
    let owner = topicterm::files::Owner::new(&email, app.client.site());
    let file = topicterm::kept::archive_in(data.path(), &owner);
    let store = topicterm::archive::store::open_reader(&file, &owner).unwrap().expect("the archive");
    for id in [ids[69], ids[0], elsewhere] {
        assert!(store.message(id).unwrap().is_none(), "{id} is no longer kept");
    }
    let kept = store.message(ids[30]).unwrap().expect("kept");
    assert!(kept.content.contains("rewritten"), "{}", kept.content);
}
