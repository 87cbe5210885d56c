//! What broke on a real Zulip 8 server (level 218) and was a plain client defect, each shown
//! against the demo server: the star on a message not shown, unmuted channels that stayed out
//! of the feed, presence that was not applied, a failure that outlived the next view, a moved
//! topic's old row, a users field drawn as JSON, and unmute that did not mean "back to default".

use super::harness::App;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Focus, Narrow, SidebarRow};

/// Put the channels pane's selection on a channel's row.
fn select_channel_row(app: &mut App, channel: i64) {
    app.st.ui.focus = Focus::Sidebar;
    app.st.ui.sidebar.select(app.sidebar_row(|r| matches!(r, SidebarRow::Channel(c) if *c == channel)));
}

#[tokio::test]
async fn muting_a_channel_moves_the_selection_and_unmuting_brings_its_messages_back() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    // A, in #general, is selected in the feed; B, in another channel, is newer.
    let a = alice.send_message(&OutgoingMessage::channel(general, "feed", "message A")).await.unwrap().id;
    let design = app.channel_id("design");
    let b = alice.send_message(&OutgoingMessage::channel(design, "feed", "message B")).await.unwrap().id;
    app.open(Narrow::All).await;
    app.key(KeyCode::Char('G')).await;
    app.until("both in the feed", |st| st.data.views[&Narrow::All].ids().contains(&b)).await;
    app.select(a);
    select_channel_row(&mut app, general);
    app.key(KeyCode::Char('M')).await;
    app.settle().await;
    let sel = app.st.ui.selected.expect("a selection");
    assert!(app.st.data.views[&Narrow::All].ids().contains(&sel), "the selection is a message shown");
    assert_ne!(sel, a, "not the muted channel's");
    // `*` stars what is highlighted.
    app.key(KeyCode::Char('l')).await;
    let sel = app.st.ui.selected.unwrap();
    app.key(KeyCode::Char('*')).await;
    app.settle().await;
    let me = app.st.data.me;
    assert!(app.server.shared.lock().flags_for(me, sel).contains(&"starred"));
    assert!(!app.server.shared.lock().flags_for(me, a).contains(&"starred"));
    // Unmuted again: A is back in the feed without `a`.
    select_channel_row(&mut app, general);
    app.key(KeyCode::Char('M')).await;
    app.until("A back in the feed", |st| {
        st.data.views.get(&Narrow::All).is_some_and(|v| v.ids().contains(&a))
    })
    .await;
    assert_eq!(app.st.ui.narrow, Narrow::All);
}

#[tokio::test]
async fn presence_events_of_either_shape_are_applied() {
    let mut app = App::start("member").await;
    let alice = app.st.data.users.iter().find(|u| u.full_name == "Alice Okafor").unwrap().id;
    let now = app.st.now;
    // What a server sends a client without `simplified_presence_events` (every server before
    // level 419): one user's presence by client.
    app.inject(vec![serde_json::json!({
        "type": "presence", "user_id": alice, "email": "alice@example.com", "server_timestamp": now as f64,
        "presence": {"website": {"client": "website", "status": "active", "timestamp": now, "pushable": false}},
    })])
    .await;
    let p = app.st.data.users.presence(alice).copied().unwrap();
    assert_eq!((p.active_timestamp, p.idle_timestamp), (now, now), "the legacy shape is applied");
    // The modern shape.
    app.inject(vec![serde_json::json!({
        "type": "presence", "presences": {alice.to_string(): {"active_timestamp": now + 60, "idle_timestamp": now + 60}},
    })])
    .await;
    assert_eq!(app.st.data.users.presence(alice).copied().unwrap().active_timestamp, now + 60);
}

#[tokio::test]
async fn a_failure_leaves_the_status_bar_when_the_next_view_loads() {
    // A server before level 249 refuses `has:reaction`.
    let mut app = App::start_at_level("member", 248).await;
    app.key(KeyCode::Char('/')).await;
    app.keys("has:reaction").await;
    app.key(KeyCode::Enter).await;
    app.until("the failure", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    assert!(
        app.st.ui.status.as_ref().unwrap().text.starts_with("messages not loaded"),
        "{:?}",
        app.st.ui.status
    );
    let general = app.channel_id("general");
    app.open(Narrow::Channel(general)).await;
    assert_eq!(app.st.ui.status.as_ref().filter(|s| s.error).map(|s| s.text.as_str()), None);
}

#[tokio::test]
async fn a_moved_topic_leaves_its_old_row() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let id =
        alice.send_message(&OutgoingMessage::channel(general, "old name", "to be moved")).await.unwrap().id;
    app.settle().await;
    select_channel_row(&mut app, general);
    app.key(KeyCode::Enter).await;
    app.until("the topics", |st| st.data.topics.of(general).is_some_and(|l| l.is_loaded())).await;
    let row = |app: &App, t: &str| {
        app.st
            .ui
            .sidebar
            .rows()
            .iter()
            .any(|r| matches!(r, SidebarRow::Topic(c, n) if *c == general && n == t))
    };
    assert!(row(&app, "old name"));
    let admin = app.other("admin");
    admin
        .raw(
            reqwest::Method::PATCH,
            &format!("/messages/{id}"),
            topicterm::api::Params::new().add("topic", "new name").add("propagate_mode", "change_all"),
            std::time::Duration::from_secs(10),
        )
        .await
        .unwrap();
    app.until("the new row", |st| st.data.messages[&id].topic() == "new name").await;
    app.settle().await;
    assert!(row(&app, "new name") && !row(&app, "old name"), "{:?}", app.st.ui.sidebar.rows());
}

#[tokio::test]
async fn a_users_profile_field_shows_names() {
    let mut app = App::start("member").await;
    let alice = app.st.data.users.iter().find(|u| u.full_name == "Alice Okafor").unwrap().id;
    let me = app.st.data.me;
    {
        // A "Mentor" field of the users type, its value as the reference server keeps it.
        let mut org = app.server.shared.lock();
        let id = org.profile_fields.keys().max().unwrap() + 1;
        org.profile_fields.insert(
            id,
            topicterm::server::org::ProfileFieldRec {
                id,
                field_type: 6,
                name: "Mentor".into(),
                hint: String::new(),
                order: id,
                display_in_profile_summary: false,
                field_data: String::new(),
                required: false,
                editable_by_user: true,
                use_for_user_matching: false,
            },
        );
        org.profile_data.insert((me, id), format!("[{alice}]"));
    }
    app.send(topicterm::app::Msg::QueueLost).await;
    app.settle().await;
    app.palette("profile @Maya Lindqvist").await;
    app.settle().await;
    let s = app.screen(100, 40);
    assert!(s.contains("Mentor        Alice Okafor"), "{s}");
    assert!(!s.contains(&format!("[{alice}]")), "{s}");
}

#[tokio::test]
async fn a_channel_never_joined_is_named_and_searchable() {
    let mut app = App::start("member").await;
    let outdoors = app.st.data.channels.joinable().find(|(_, n)| *n == "outdoors").expect("never joined").0;
    let alice = app.other("alice");
    let id = alice
        .send_message(&OutgoingMessage::channel(outdoors, "trails", "ridgeline-xyz walk"))
        .await
        .unwrap()
        .id;
    for search in ["channels:public ridgeline-xyz", "channel:outdoors ridgeline-xyz"] {
        app.key(KeyCode::Char('/')).await;
        app.keys(search).await;
        app.key(KeyCode::Enter).await;
        app.until("the hit", |st| st.data.views.get(&st.ui.narrow).is_some_and(|v| v.ids().contains(&id)))
            .await;
        let s = app.screen(100, 30);
        assert!(s.contains("#outdoors > trails") && !s.contains("unknown channel"), "{search}:\n{s}");
    }
}

#[tokio::test]
async fn the_empty_topic_is_general_chat_in_search_headers_and_recent_counts() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let id =
        alice.send_message(&OutgoingMessage::channel(general, "", "empty-topic-xyz here")).await.unwrap().id;
    app.until("it arrived", |st| st.data.messages.contains_key(&id)).await;
    app.key(KeyCode::Char('/')).await;
    app.keys("empty-topic-xyz").await;
    app.key(KeyCode::Enter).await;
    app.until("the hit", |st| st.data.views.get(&st.ui.narrow).is_some_and(|v| v.ids().contains(&id))).await;
    let s = app.screen(100, 30);
    assert!(s.contains("#general > general chat"), "{s}");
    // The recent conversations: the row of the empty topic has its unread count.
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('v')).await;
    app.settle().await;
    let s = app.screen(120, 40);
    let row =
        s.lines().find(|l| l.contains("general chat")).unwrap_or_else(|| panic!("no general chat row:\n{s}"));
    // The count stands before the conversation's name.
    let before = &row[..row.find("#general").expect("the channel on the row")];
    let count = before.trim_matches(|c: char| c == '│' || c.is_whitespace());
    assert!(count.parse::<usize>().is_ok_and(|n| n > 0), "an unread count on the row: {row:?}");
}
