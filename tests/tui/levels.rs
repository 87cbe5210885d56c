//! The whole app's key paths against the demo server at the levels people run — 185 (Zulip
//! 7.0, the oldest supported), 218 (an 8.0-dev server, the one of the report), 289 (10.0), 420
//! (11.0) and the demo server's own (Zulip Cloud's 13.0-dev) — the demo server refusing what a
//! server of that level refuses. Each step reads the server's state back.

use super::harness::App;
use topicterm::api::VisibilityPolicy;
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;

const LEVELS: [i64; 5] = [185, 218, 289, 420, topicterm::server::org::FEATURE_LEVEL];

fn error(app: &App) -> Option<String> {
    app.st.ui.status.as_ref().filter(|s| s.error).map(|s| s.text.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_key_paths_work_at_every_supported_level() {
    for level in LEVELS {
        let mut app = App::start_at_level("member", level).await;
        let me = app.st.data.me;
        let general = app.channel_id("general");
        assert_eq!(app.st.data.realm.server.feature_level, level);

        // People: everyone register lists is active (it sends no `is_active`).
        let active = app.st.data.users.iter().filter(|u| u.is_active).count();
        assert!(active > 10, "level {level}: {active} active users");
        app.key(KeyCode::Char('x')).await;
        app.keys("Alice Okafor").await;
        app.key(KeyCode::Enter).await;
        assert!(app.st.ui.compose.is_some(), "level {level}: {:?}", app.st.ui.status);
        app.key(KeyCode::Esc).await;

        // The channel view, then a topic of it.
        app.open(Narrow::Channel(general)).await;
        assert_eq!(error(&app), None, "level {level}");
        let view = &app.st.data.views[&Narrow::Channel(general)];
        assert!(view.is_loaded() && !view.ids().is_empty(), "level {level}: the channel view loads");
        // A named topic (the empty one, "general chat", is Zulip 10's).
        let topic = view
            .ids()
            .iter()
            .rev()
            .map(|id| app.st.data.messages[id].topic())
            .find(|t| !t.is_empty() && *t != "general chat");
        let topic = topic.expect("a named topic").to_owned();
        app.open(Narrow::Topic(general, topic.clone())).await;
        assert_eq!(error(&app), None, "level {level}");
        assert!(!app.st.data.views[&Narrow::Topic(general, topic.clone())].ids().is_empty());

        // A search with a channel.
        app.key(KeyCode::Char('/')).await;
        app.keys("channel:general").await;
        app.key(KeyCode::Enter).await;
        app.settle().await;
        assert_eq!(error(&app), None, "level {level}");
        let found = app.st.data.views.get(&app.st.ui.narrow).map_or(0, |v| v.ids().len());
        assert!(found > 0, "level {level}: search found nothing");
        // DMs with a person, by the web app's name and the server's (no server knows `dm-with`).
        for op in ["dm-with", "dm-including", "dm"] {
            app.key(KeyCode::Char('/')).await;
            app.keys(&format!("{op}:alice@demo.topicterm.test")).await;
            app.key(KeyCode::Enter).await;
            app.settle().await;
            assert_eq!(error(&app), None, "level {level}: {op}");
            let found = app.st.data.views.get(&app.st.ui.narrow).map_or(0, |v| v.ids().len());
            assert!(found > 0, "level {level}: {op} found nothing");
        }
        // Bots come from the user list (level 474 took their names out of bot objects): known as
        // bots, and their profile opens.
        let bot = app.st.data.users.iter().find(|u| u.full_name == "Helper Bot").map(|u| (u.id, u.is_bot));
        assert!(matches!(bot, Some((_, true))), "level {level}: {bot:?}");
        app.palette("profile @Helper Bot").await;
        app.until("the bot's record", |st| {
            matches!(&st.ui.popup, Some(topicterm::app::Popup::Profile { details: Some(_), .. }))
        })
        .await;
        assert!(app.screen(100, 30).contains("Helper Bot"), "level {level}");
        app.key(KeyCode::Esc).await;
        // The uploads list: an upload linked from a message is dated today and placed there
        // (seconds and `message_ids` from 443 and 472, milliseconds and `messages` before).
        let me_too = app.other("member");
        me_too.register(&Default::default()).await.unwrap();
        let up = me_too.upload_file("levels.txt", 2, reqwest::Body::from("hi")).await.unwrap();
        let m = topicterm::api::OutgoingMessage::channel(
            general,
            "uploads",
            &format!("[levels.txt]({})", up.url),
        );
        me_too.send_message(&m).await.unwrap();
        app.palette("uploads").await;
        app.until("the list", |st| {
            matches!(&st.ui.popup, Some(topicterm::app::Popup::Uploads { list: Some(_), .. }))
        })
        .await;
        let shown = app.screen(120, 30);
        assert!(shown.contains("levels.txt") && !shown.contains("1970"), "level {level}: dated:\n{shown}");
        assert!(shown.contains("used in #general > uploads"), "level {level}: where it is used:\n{shown}");
        app.key(KeyCode::Esc).await;

        // Send a reply: it is read for its sender, here and on the server.
        app.open(Narrow::Topic(general, topic.clone())).await;
        app.key(KeyCode::Char('r')).await;
        app.keys(&format!("reply at level {level}")).await;
        app.ctrl('d').await;
        let reply = format!("reply at level {level}");
        app.until("the reply to come back into the topic", |st| {
            st.outbox.is_empty()
                && st.data.views.get(&st.ui.narrow).is_some_and(|v| {
                    v.ids()
                        .iter()
                        .any(|id| st.data.messages.get(id).is_some_and(|m| m.content().contains(&reply)))
                })
        })
        .await;
        let mine = app
            .st
            .data
            .messages
            .values()
            .filter(|m| m.content().contains(&reply))
            .map(|m| m.id)
            .max()
            .unwrap();
        app.until("the sender's copy to be read", |st| !st.data.unread.contains(mine)).await;
        assert!(
            app.server.shared.lock().flags_for(me, mine).contains(&"read"),
            "level {level}: read on the server"
        );

        // Edit it, react to it.
        app.select(mine);
        app.key(KeyCode::Char('e')).await;
        app.keys(" (edited)").await;
        app.ctrl('d').await;
        app.until("the edit", |st| st.data.messages[&mine].content().contains("(edited)")).await;
        app.key(KeyCode::Char('+')).await;
        app.until("the reaction", |st| !st.data.messages[&mine].reactions().is_empty()).await;

        // Follow (8.0 and later), mute, unmute: back to the default in a channel not muted.
        app.ctrl('f').await;
        app.settle().await;
        let policy = |app: &App| {
            app.server.shared.lock().user_topics.get(&(me, general, topic.to_lowercase())).map_or(0, |t| t.1)
        };
        if level >= 219 {
            assert_eq!(policy(&app), 3, "level {level}: followed");
        } else {
            let e = error(&app).expect("refused");
            assert!(e.contains("Zulip 8.0"), "level {level}: {e}");
        }
        app.key(KeyCode::Char('M')).await;
        app.settle().await;
        assert_eq!(policy(&app), 1, "level {level}: muted");
        app.key(KeyCode::Char('U')).await;
        app.settle().await;
        assert_eq!(policy(&app), 0, "level {level}: back to the default");
        assert_eq!(app.st.data.policy(general, &topic), VisibilityPolicy::None);

        // Schedule a channel message.
        app.key(KeyCode::Char('c')).await;
        app.keys("general>scheduled at a level").await;
        app.key(KeyCode::Enter).await;
        app.keys("later").await;
        app.ctrl('s').await;
        app.keys("in 2h").await;
        app.key(KeyCode::Enter).await;
        app.until("the scheduled message", |st| {
            !st.data.lists.scheduled().is_empty() || st.ui.status.as_ref().is_some_and(|s| s.error)
        })
        .await;
        assert_eq!(error(&app), None, "level {level}");
        assert!(
            app.server
                .shared
                .lock()
                .scheduled
                .values()
                .any(|s| s.sender_id == me && s.content.contains("later")),
            "level {level}: scheduled on the server"
        );

        // Presence: Bob, last seen days ago, comes online; the event (legacy below 419, or
        // the one the client asked for) is applied.
        let bob = app.st.data.users.iter().find(|u| u.full_name == "Bob Nakamura").unwrap().id;
        let before = app.st.data.users.presence(bob).map_or(0, |p| p.active_timestamp);
        let mut ping = topicterm::api::PresenceUpdate::new(topicterm::api::PresenceStatus::Active);
        ping.new_user_input = Some(true);
        app.other("bob").update_presence(&ping).await.unwrap();
        app.until("Bob online", |st| {
            st.data.users.presence(bob).is_some_and(|p| p.active_timestamp > before)
        })
        .await;

        // A move: an administrator renames the topic; the message and the topic's row follow.
        let admin = app.other("admin");
        let moved = app.st.data.views[&Narrow::Topic(general, topic.clone())].ids()[0];
        let new_name = format!("{topic} (moved at {level})");
        admin
            .raw(
                reqwest::Method::PATCH,
                &format!("/messages/{moved}"),
                topicterm::api::Params::new().add("topic", &new_name).add("propagate_mode", "change_all"),
                std::time::Duration::from_secs(10),
            )
            .await
            .unwrap();
        app.until("the move", |st| st.data.messages[&moved].topic() == new_name).await;

        // Mark the channel read: the server's unread messages there go, and so does the count.
        app.open(Narrow::Channel(general)).await;
        app.palette("mark-read channel").await;
        app.until("the channel read", |st| st.data.channel_unread(general) == 0).await;
        assert_eq!(error(&app), None, "level {level}");
    }
}

#[tokio::test]
async fn a_server_older_than_supported_is_named_with_its_version() {
    let mut app = App::start_at_level("member", 160).await;
    let s = app.screen(160, 30);
    assert!(s.contains("feature level 160") && s.contains("Zulip 7.0 and later"), "{s}");
}

/// What came with Zulip 12.0 and has no older form is refused before anything is asked or
/// reset, naming both levels; on the level's side it works (`:date` jumps, `--delete-dms`
/// deletes: `tests/tui/palette.rs`).
#[tokio::test]
async fn a_jump_to_a_date_and_deleting_a_deactivated_users_messages_need_zulip_12() {
    let level = topicterm::api::levels::ANCHOR_DATE - 1;
    let mut app = App::start_at_level("admin", level).await;
    let general = app.channel_id("general");
    app.open(Narrow::Channel(general)).await;
    let held = app.st.data.views[&Narrow::Channel(general)].ids().len();
    app.palette("date 2024-01-01").await;
    assert_eq!(
        error(&app).as_deref(),
        Some(
            "this server does not offer jumping to a date: it needs Zulip 12.0 or later (feature level 445; this server is at 444)"
        )
    );
    assert_eq!(app.st.data.views[&Narrow::Channel(general)].ids().len(), held, "the view is kept");
    let bob = app.server.shared.lock().users.values().find(|u| u.short_name == "bob").map(|u| u.id).unwrap();
    app.key(KeyCode::Esc).await;
    app.palette("deactivate bob@demo.topicterm.test --delete-dms").await;
    app.key(KeyCode::Char('y')).await;
    app.until("the refusal", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    assert!(error(&app).unwrap().contains("deleting a deactivated user's messages"), "{:?}", error(&app));
    assert!(app.server.shared.lock().users[&bob].is_active, "not deactivated: the deletion would not happen");
}

/// Found on a real Zulip 8.0-dev server (level 218): the channel info said "Email garbled
/// answer from the server" where the server has no email endpoint (a 404 page; it came with
/// level 226), and "Subscribers unknown" where its channels carry no count. Both say what is
/// missing, and on which server.
#[tokio::test]
async fn channel_info_says_what_an_older_server_does_not_offer() {
    let mut app = App::start_at_level("member", 218).await;
    app.palette("channel-info #general").await;
    app.until("the details and the email", |st| {
        matches!(
            &st.ui.popup,
            Some(topicterm::app::Popup::ChannelInfo { details: Some(_), email: Some(_), .. })
        )
    })
    .await;
    let screen = app.screen(100, 40);
    let email = screen.lines().find(|l| l.contains("Email")).unwrap_or_default().to_owned();
    assert!(email.contains("not available on this server (Zulip "), "{screen}");
    assert!(!screen.contains("garbled"), "{screen}");
}

/// Level 441 in the whole app: an administrator limits new topics in #general to
/// administrators; the member's client, told by the `stream` event, refuses a new topic there
/// before sending (the text kept), and sends to an existing one. On a 503 server register also
/// settles the hour's queue the client asks for (481).
#[tokio::test]
async fn a_new_topic_in_a_channel_that_limits_them_is_refused_before_sending() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let admins = app.st.data.users.groups().find(|g| g.name == "role:administrators").unwrap().id;
    let change = serde_json::json!({"new": admins}).to_string();
    app.other("admin")
        .call::<serde_json::Value>(
            reqwest::Method::PATCH,
            &format!("/streams/{general}"),
            topicterm::api::Params::new().add("can_create_topic_group", &change),
        )
        .await
        .unwrap();
    app.until("the stream event", |st| st.data.channels[&general].can_create_topic_group.is_some()).await;
    // The channel's topics, as `c` and tab fetch them.
    app.key(KeyCode::Char('c')).await;
    app.keys("general>").await;
    app.key(KeyCode::Tab).await;
    app.until("the topic list", |st| st.data.topics.of(general).is_some_and(|l| l.is_loaded())).await;
    app.key(KeyCode::Esc).await;
    let existing = app.st.data.topics.of(general).unwrap().iter().next().unwrap().name.clone();
    for (topic, refused) in [("a brand new topic", true), (existing.as_str(), false)] {
        app.key(KeyCode::Char('c')).await;
        app.keys(&format!("general>{topic}")).await;
        app.key(KeyCode::Enter).await;
        app.keys("hello").await;
        app.ctrl('d').await;
        if refused {
            assert!(
                error(&app).is_some_and(|e| e.starts_with("you may not start new topics in #general")),
                "{:?}",
                app.st.ui.status
            );
            assert!(app.st.ui.compose.as_ref().is_some_and(|c| c.text() == "hello"), "the text is kept");
            app.key(KeyCode::Esc).await;
        } else {
            assert!(app.st.ui.compose.is_none(), "{topic}: {:?}", app.st.ui.status);
        }
    }
    let r = app.other("member").register(&topicterm::net::register_params()).await.unwrap();
    assert_eq!(r.idle_queue_timeout_secs, Some(topicterm::net::IDLE_QUEUE_SECS));
}

/// Issue 51.8: on a server before level 219, ctrl+f in the messages pane said that following
/// needs it, and `F` on a topic row in the channels pane said nothing at all. Every key that
/// asks to follow says so, in the same words, and nothing is sent.
#[tokio::test]
async fn following_before_219_is_refused_by_every_key_in_the_same_words() {
    use topicterm::app::{Focus, SidebarRow};
    let level = topicterm::api::levels::FOLLOWED_TOPICS - 1;
    let mut app = App::start_at_level("member", level).await;
    let words = "this server does not offer following topics: it needs Zulip 8.0 or later \
                 (feature level 219; this server is at 218)";
    let eng = app.channel_id("engineering");
    let posts_before = app.server.recent_requests().iter().filter(|r| r.contains("/user_topics")).count();
    // A topic row in the channels pane: the channel opened, its topics listed, one selected.
    app.key(KeyCode::Char('h')).await;
    let row = app.sidebar_row(|r| *r == SidebarRow::Channel(eng));
    while app.st.ui.sidebar.selected_index() < row {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Enter).await;
    app.until("the topics listed", |st| st.data.topics.of(eng).is_some_and(|l| l.is_loaded())).await;
    app.key(KeyCode::Char('j')).await;
    assert!(matches!(app.st.ui.sidebar.selected(), Some(SidebarRow::Topic(..))));
    assert_eq!(app.st.ui.focus, Focus::Sidebar);
    app.st.ui.status = None;
    app.key(KeyCode::Char('F')).await;
    app.settle().await;
    assert_eq!(error(&app).as_deref(), Some(words), "F on a topic row");
    // The topic opened: ctrl+f on its messages, and the palette's :follow.
    app.key(KeyCode::Enter).await;
    app.until("the topic's messages", |st| {
        matches!(st.ui.narrow, Narrow::Topic(..))
            && st.data.views.get(&st.ui.narrow).is_some_and(|v| v.is_loaded())
    })
    .await;
    app.key(KeyCode::Char('l')).await;
    assert_eq!(app.st.ui.focus, Focus::Messages);
    for (how, key) in [("ctrl+f", true), (":follow", false)] {
        app.st.ui.status = None;
        if key {
            app.ctrl('f').await;
        } else {
            app.palette("follow").await;
        }
        app.settle().await;
        assert_eq!(error(&app).as_deref(), Some(words), "{how}");
    }
    let posts = app.server.recent_requests().iter().filter(|r| r.contains("/user_topics")).count();
    assert_eq!(posts, posts_before, "nothing was asked of the server");
}

/// Issue 51.14: against a real 8.0-dev server (level 218) the client sent `read_by_sender`
/// (level 236), `allow_empty_topic_name` (334) and `last_update_id` (263) — 57 warnings in its
/// log in 15 minutes. Once register has said the level, each goes only to a server of the
/// level that has it: at 218 the demo
/// server, which answers what it does not know as `ignored_parameters_unsupported` as the
/// reference does, notes none of them; at its own level none is ignored either.
#[tokio::test]
async fn parameters_go_only_to_a_server_whose_level_knows_them() {
    use topicterm::app::Effect;
    const NEWER: [&str; 3] = ["read_by_sender", "allow_empty_topic_name", "last_update_id"];
    for level in [218, topicterm::server::org::FEATURE_LEVEL] {
        let mut app = App::start_at_level("member", level).await;
        // The first page is asked together with register, before the level is known: in the
        // newest terms (at most one request a start); every request after register is in the
        // server's.
        let before_register = app.server.ignored_parameters().len();
        let general = app.channel_id("general");
        // Pages of messages, a channel's topics, a sent and a scheduled message, an edit
        // history, presence pings.
        app.open(Narrow::Channel(general)).await;
        app.key(KeyCode::Char('c')).await;
        app.keys("general>").await;
        app.key(KeyCode::Tab).await;
        app.until("the topic list", |st| st.data.topics.of(general).is_some_and(|l| l.is_loaded())).await;
        app.key(KeyCode::Esc).await;
        app.key(KeyCode::Char('c')).await;
        app.keys("general>levels").await;
        app.key(KeyCode::Enter).await;
        app.keys(&format!("sent at {level}")).await;
        app.ctrl('d').await;
        app.until("sent", |st| st.outbox.is_empty() && st.ui.compose.is_none()).await;
        app.key(KeyCode::Char('c')).await;
        app.keys("general>levels").await;
        app.key(KeyCode::Enter).await;
        app.keys("later").await;
        app.ctrl('s').await;
        app.keys("in 2h").await;
        app.key(KeyCode::Enter).await;
        app.until("scheduled", |st| !st.data.lists.scheduled().is_empty()).await;
        let mine = *app.st.data.views[&Narrow::Channel(general)].ids().last().unwrap();
        app.select(mine);
        app.key(KeyCode::Char('H')).await;
        app.settle().await;
        app.key(KeyCode::Esc).await;
        app.run(vec![Effect::Ping { active: true, last_update_id: -1 }]);
        app.settle().await;
        app.run(vec![Effect::Ping {
            active: true,
            last_update_id: app.st.data.users.presence_last_update_id(),
        }]);
        app.settle().await;
        let asked = app.server.recent_requests();
        for path in [
            "GET /api/v1/messages?",
            "/topics",
            "POST /api/v1/messages",
            "/scheduled_messages",
            "/history",
            "/presence",
        ] {
            assert!(asked.iter().any(|r| r.contains(path)), "level {level}: {path} asked: {asked:#?}");
        }
        let ignored = app.server.ignored_parameters().split_off(before_register);
        let newer: Vec<&String> = ignored.iter().filter(|i| NEWER.iter().any(|n| i.ends_with(n))).collect();
        assert!(newer.is_empty(), "level {level}: sent where unknown: {newer:?} (all ignored: {ignored:?})");
    }
}
