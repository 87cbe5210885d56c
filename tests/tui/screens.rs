//! Every screen and popup at 80×24 and 160×48.

use crate::harness::App;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Focus, Narrow, Popup, SidebarRow};

fn both(app: &mut App, name: &str) {
    insta::assert_snapshot!(format!("{name}_80x24"), app.screen(80, 24));
    insta::assert_snapshot!(format!("{name}_160x48"), app.screen(160, 48));
}

#[tokio::test]
async fn start_screen_shows_channels_and_the_first_unread() {
    let mut app = App::start("member").await;
    assert_eq!(app.st.ui.narrow, Narrow::All);
    assert!(app.st.ui.selected.is_some());
    both(&mut app, "start");
}

#[tokio::test]
async fn opening_a_channel_lists_its_topics_and_a_topic_narrows() {
    let mut app = App::start("member").await;
    let eng = app.channel_id("engineering");
    app.key(KeyCode::Char('h')).await;
    assert_eq!(app.st.ui.focus, Focus::Sidebar);
    // Down to it (the selection passes over the headings of the channels' folders).
    let row = app.sidebar_row(|r| *r == SidebarRow::Channel(eng));
    while app.st.ui.sidebar.selected_index() < row {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.sidebar.expanded(), Some(eng));
    assert!(app.st.ui.sidebar.rows().iter().any(|r| matches!(r, SidebarRow::Topic(c, _) if *c == eng)));
    app.key(KeyCode::Char('j')).await;
    app.key(KeyCode::Enter).await;
    assert!(matches!(app.st.ui.narrow, Narrow::Topic(c, _) if c == eng));
    both(&mut app, "topic");
}

#[tokio::test]
async fn compose_box_keeps_typed_text() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("Sounds good, see you there.").await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("Sounds good, see you there."));
    both(&mut app, "compose");
}

#[tokio::test]
async fn help_lists_the_keys_of_the_context() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('?')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Help { .. })));
    both(&mut app, "help");
}

/// `?` in the channels pane starts with what its marks mean (the `^` after a pinned channel's
/// name was explained nowhere).
#[tokio::test]
async fn help_in_the_channels_pane_explains_its_marks() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('h')).await;
    assert_eq!(app.st.ui.focus, Focus::Sidebar);
    app.key(KeyCode::Char('?')).await;
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("help_channels_pane_80x24", screen);
    assert!(screen.contains("Marks in the channels pane"), "{screen}");
    assert!(screen.contains("^     after a channel's name: pinned to the top"), "{screen}");
}

/// The compose box's keys are in `?` help, and in the box itself: a hint of the keys that fit
/// its width, and f1 (where `?` is text) opens the help on its keys, the text kept. The messages
/// pane's marks (▌ selected, ▏ unread) are explained. At 40×12 the first page shows keys.
#[tokio::test]
async fn help_lists_the_compose_keys_and_the_marks_and_f1_opens_it_from_the_box() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('?')).await;
    app.key(KeyCode::Char('G')).await;
    let mut text = String::new();
    // Every page, from the end up: the compose keys and the marks are somewhere in it.
    for _ in 0..40 {
        text.push_str(&app.screen(100, 40));
        app.key(KeyCode::PageUp).await;
    }
    for wanted in [
        "Keys in the compose box (f1 there shows them)",
        "ctrl+s",
        "schedule for later",
        "ctrl+t",
        "alt+p",
        "Marks in the messages pane",
        "▌         at the left of a message: the selected one",
        "▏         at the left of a message: unread",
    ] {
        assert!(text.contains(wanted), "{wanted:?} in the help");
    }
    app.key(KeyCode::Esc).await;
    let small = {
        app.key(KeyCode::Char('?')).await;
        let s = app.screen(40, 12);
        app.key(KeyCode::Esc).await;
        s
    };
    assert!(
        small.contains("j/k scroll") && small.contains("narrow to the selected"),
        "keys on the first page: {small}"
    );

    app.key(KeyCode::Char('r')).await;
    app.keys("half a thought").await;
    let s = app.screen(100, 30);
    assert!(s.contains("f1 keys · ctrl+s schedule · ctrl+t attach · alt+p preview"), "{s}");
    let narrow = app.screen(40, 12);
    let hint = narrow.lines().find(|l| l.contains("f1 keys")).unwrap_or_else(|| panic!("{narrow}"));
    assert!(!hint.contains("editor"), "only what fits, whole: {hint}");
    app.key(KeyCode::F(1)).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Help { .. })));
    let s = app.screen(100, 40);
    assert!(
        s.contains("schedule for later") && !s.contains("Keys in the compose box"),
        "its own keys first: {s}"
    );
    app.key(KeyCode::Esc).await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("half a thought"));
}

#[tokio::test]
async fn edit_history_popup_shows_every_version() {
    let mut app = App::start("member").await;
    // The seeded message with three edits (content, topic, content).
    let id = {
        let org = app.server.shared.lock();
        org.messages.values().find(|m| m.edits.len() >= 3).map(|m| m.id).expect("edited message")
    };
    app.st.ui.selected = Some(id);
    app.key(KeyCode::Char('H')).await;
    match &app.st.ui.popup {
        Some(Popup::EditHistory { snapshots: Some(s), .. }) => assert!(s.len() >= 4, "{} snapshots", s.len()),
        other => panic!("no history popup: {other:?}"),
    }
    both(&mut app, "history");
}

#[tokio::test]
async fn search_narrows_with_web_syntax() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.keys("channel:engineering flaky").await;
    app.key(KeyCode::Enter).await;
    let Narrow::Search { terms, .. } = &app.st.ui.narrow else {
        panic!("not a search: {:?}", app.st.ui.narrow)
    };
    assert_eq!(terms.len(), 2);
    let view = &app.st.data.views[&app.st.ui.narrow];
    assert!(!view.ids().is_empty());
    for id in view.ids() {
        let m = &app.st.data.messages[id];
        assert!(format!("{} {}", m.topic(), m.content()).to_lowercase().contains("flaky"));
    }
    both(&mut app, "search");
}

#[tokio::test]
async fn a_bad_search_says_why_and_keeps_the_query() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.keys("channel:nosuchchannel").await;
    app.key(KeyCode::Enter).await;
    let status = app.st.ui.status.clone().expect("status");
    assert!(status.error && status.text.contains("nosuchchannel"), "{status:?}");
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some("channel:nosuchchannel"));
}

/// Select a message the seed gave reactions from several people and a link (fetched, so
/// held whichever view is open); returns its ID.
pub(crate) async fn select_a_reacted_message_with_a_link(app: &mut App) -> i64 {
    let id = {
        let org = app.server.shared.lock();
        org.messages
            .values()
            .filter(|m| m.reactions.len() >= 3 && m.rendered.has_link)
            .map(|m| m.id)
            .next()
            .expect("a reacted message with a link")
    };
    let m = app.client.get_message(id, true).await.unwrap().message;
    app.st.data.insert_message(m);
    app.st.ui.selected = Some(id);
    id
}

#[tokio::test]
async fn message_info_shows_time_links_and_who_reacted() {
    let mut app = App::start("member").await;
    select_a_reacted_message_with_a_link(&mut app).await;
    app.key(KeyCode::Char('i')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::MessageInfo { .. })));
    let screen = app.screen(160, 48);
    assert!(screen.contains("Reactions") && screen.contains("Links"), "{screen}");
    both(&mut app, "info");
}

#[tokio::test]
async fn people_pane_shows_presence_and_statuses() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('w')).await;
    assert!(app.st.ui.people.shown());
    let d = &app.st.data;
    let first = app.st.ui.people.list().first().copied().unwrap();
    assert_eq!(d.activity(first, app.st.now), topicterm::app::Activity::Active, "active people first");
    let carol = d.users.iter().find(|u| u.full_name == "Carol Dubois").unwrap().id;
    assert_eq!(
        d.activity(carol, app.st.now),
        topicterm::app::Activity::Offline,
        "invisible users show offline"
    );
    let screen = app.screen(160, 48);
    assert!(screen.contains("Vacationing"), "statuses are shown:\n{screen}");
    both(&mut app, "people");
}

#[tokio::test]
async fn emoji_picker_searches_adds_and_removes_with_stored_values() {
    let mut app = App::start("member").await;
    let id = app.st.ui.selected.unwrap();
    app.key(KeyCode::Char('E')).await;
    app.keys("partyp").await;
    match &app.st.ui.popup {
        Some(Popup::Emoji { matches, .. }) => {
            assert_eq!(matches[0].0, "partyparrot", "custom emoji are found")
        }
        other => panic!("no picker: {other:?}"),
    }
    both(&mut app, "emoji");
    app.key(KeyCode::Enter).await;
    let me = app.st.data.me;
    let has = |app: &App| {
        app.server.shared.lock().messages[&id].reactions.iter().any(|r| {
            r.user_id == me && r.emoji_name == "partyparrot" && r.reaction_type.as_str() == "realm_emoji"
        })
    };
    assert!(has(&app), "added on the server");
    assert!(
        app.st.data.messages[&id].reactions().iter().any(|r| r.user_id == me),
        "and shown through the event"
    );
    app.key(KeyCode::Char('E')).await;
    app.keys("partyparrot").await;
    app.key(KeyCode::Enter).await;
    assert!(!has(&app), "removed again");
    app.key(KeyCode::Char('E')).await;
    app.keys("tada").await;
    match &app.st.ui.popup {
        Some(Popup::Emoji { matches, .. }) => {
            assert_eq!(matches[0], ("tada".into(), "1f389".into(), "unicode_emoji".into()))
        }
        other => panic!("no picker: {other:?}"),
    }
}

#[tokio::test]
async fn compose_completes_users_channels_topics_and_emoji() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("hey @ali").await;
    let c = app.st.ui.compose.as_ref().unwrap();
    assert_eq!(c.suggestions.first().map(|s| s.1.as_str()), Some("@**Alice Okafor**"));
    insta::assert_snapshot!("complete_80x24", app.screen(80, 24));
    app.key(KeyCode::Tab).await;
    app.keys("see #eng").await;
    app.key(KeyCode::Tab).await;
    app.keys("and #engineering>release").await;
    let c = app.st.ui.compose.as_ref().unwrap();
    assert_eq!(
        c.suggestions.first().map(|s| s.1.as_str()),
        Some("#**engineering>release 2.4 planning**"),
        "topics are fetched"
    );
    app.key(KeyCode::Tab).await;
    app.keys(":tad").await;
    // Issue 40.6: listed as the `E` picker lists them, the emoji and its name, no codes.
    let shown: Vec<String> =
        app.st.ui.compose.as_ref().unwrap().suggestions.iter().map(|s| s.0.clone()).collect();
    assert_eq!(shown.first().map(String::as_str), Some("🎉 :tada:"), "{shown:?}");
    let screen = app.screen(100, 30);
    assert!(
        screen.contains("🎉")
            && screen.contains(":tada:")
            && !screen.contains("1f389")
            && !screen.contains("unicode_emoji"),
        "{screen}"
    );
    app.key(KeyCode::Tab).await;
    assert_eq!(
        app.st.ui.compose.as_ref().unwrap().text(),
        "hey @**Alice Okafor** see #**engineering** and #**engineering>release 2.4 planning** :tada: "
    );
}

#[tokio::test]
async fn the_mouse_opens_channels_and_selects_messages() {
    let mut app = App::start("member").await;
    let screen = app.screen(80, 24);
    let y = screen.lines().position(|l| l.contains("#design")).expect("design in the sidebar") as u16;
    app.click(3, y).await;
    let design = app.channel_id("design");
    assert_eq!(app.st.ui.narrow, Narrow::Channel(design));
    let screen = app.screen(80, 24);
    // Click the line of the first sender name shown in the pane.
    let y = screen.lines().position(|l| l.contains("│ ") && l.contains("  ") && l.contains(':')).unwrap_or(3)
        as u16;
    app.click(40, y).await;
    assert_eq!(app.st.ui.focus, Focus::Messages);
    let clicked = app.st.ui.selected.expect("a selected message");
    app.send(topicterm::app::Msg::Scroll { sidebar: false, lines: 1 }).await;
    let view = &app.st.data.views[&app.st.ui.narrow];
    let pos = |id| view.ids().iter().position(|x| *x == id).unwrap();
    assert!(pos(app.st.ui.selected.unwrap()) >= pos(clicked), "the wheel moves down");
}

#[tokio::test]
async fn quote_reply_and_editing_own_messages() {
    let mut app = App::start("member").await;
    // Quote: the compose box gets the raw Markdown, quoted, in the same conversation.
    let id = app.st.ui.selected.unwrap();
    let raw = app.client.get_message(id, false).await.unwrap().raw_content.unwrap();
    app.key(KeyCode::Char('>')).await;
    let text = app.st.ui.compose.as_ref().map(|c| c.text()).unwrap();
    // The web app's format: a silent mention linking to the message, the raw text in a quote fence.
    let head = format!("@_**{}|", app.st.data.messages[&id].sender_full_name());
    assert!(text.starts_with(&head) && text.contains(&format!("/near/{id}):")), "{text}");
    assert!(text.contains(&format!("```quote\n{}\n```\n", raw.trim_end())), "{text}");
    // Esc keeps the quote as the conversation's draft; the next reply continues it.
    app.key(KeyCode::Esc).await;
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.text.contains("draft kept")));
    app.key(KeyCode::Char('r')).await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()), Some(text.clone()));
    app.key(KeyCode::Esc).await;

    // Send one, then edit it: the server has the new content, others saw the editing notice.
    let observer = app.server.credentials("alice").unwrap();
    let alice = topicterm::api::Client::new(&observer).unwrap();
    let queue = alice.register(&Default::default()).await.unwrap().queue_id.unwrap();
    app.key(KeyCode::Char('r')).await;
    app.keys("first draft").await;
    app.ctrl('d').await;
    let mine = app.st.ui.selected.unwrap();
    assert_eq!(
        app.st.data.messages[&mine].sender_id(),
        app.st.data.me,
        "the view jumped to the sent message"
    );
    app.key(KeyCode::Char('e')).await;
    let sent = app.st.ui.compose.as_ref().map(|c| c.text()).unwrap();
    assert!(
        sent.starts_with(text.trim_end()) && sent.ends_with("first draft"),
        "the quote draft was continued: {sent:?}"
    );
    for _ in 0.."draft".len() {
        app.send(topicterm::app::Msg::Key(topicterm::app::keys::KeyEvent::from(KeyCode::Backspace))).await;
    }
    app.keys("version").await;
    app.ctrl('d').await;
    assert!(app.st.ui.compose.is_none(), "{:?}", app.st.ui.status);
    let m = app.client.get_message(mine, false).await.unwrap();
    assert!(m.raw_content.as_deref().is_some_and(|c| c.ends_with("first version")), "{:?}", m.raw_content);
    let events = alice.get_events(&queue, -1, true, std::time::Duration::from_secs(5)).await.unwrap();
    let ops: Vec<topicterm::api::StartStop> = events
        .iter()
        .filter_map(|e| match &e.kind {
            topicterm::api::EventKind::TypingEditMessage(t) if t.message_id == mine => Some(t.op.clone()),
            _ => None,
        })
        .collect();
    use topicterm::api::StartStop::{Start, Stop};
    assert_eq!(ops, vec![Start, Stop], "editing notices");
    // Someone else's message cannot be edited.
    app.st.ui.selected = Some(id);
    app.key(KeyCode::Char('e')).await;
    assert!(app.st.ui.compose.is_none());
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.error));
}

#[tokio::test]
async fn drafts_survive_a_restart_and_go_when_sent() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::start_with_drafts("member", Some(dir.path().to_path_buf())).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("half a thought").await;
    app.send(topicterm::app::Msg::Tick(crate::harness::SEED_TIME + 1)).await;
    let files = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
            .count()
    };
    assert_eq!(files(), 1, "saved within a tick of typing");
    drop(app);

    // A new process on the same account finds it when the conversation's compose box opens.
    let mut app = App::start_with_drafts("member", Some(dir.path().to_path_buf())).await;
    app.key(KeyCode::Char('r')).await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("half a thought"));
    app.keys(", finished").await;
    app.ctrl('d').await;
    assert!(app.st.ui.compose.is_none());
    assert_eq!(files(), 0, "a sent message clears its draft");

    // Esc keeps a draft instead of discarding it.
    app.key(KeyCode::Char('r')).await;
    app.keys("for later").await;
    app.key(KeyCode::Esc).await;
    assert_eq!(files(), 1);
    app.key(KeyCode::Char('r')).await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("for later"));
}

#[tokio::test]
async fn an_expired_queue_is_replaced_and_missed_messages_appear() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    // Show a topic whose view reaches the newest message.
    let narrow = Narrow::Topic(general, "office wifi".into());
    app.st.ui.narrow = narrow.clone();
    app.send(topicterm::app::Msg::QueueLost).await;
    assert!(app.st.data.views.get(&narrow).is_some_and(|v| v.found_newest()));
    let old_queue = app.st.data.queue_id().map(str::to_owned).unwrap();
    // The server forgets the queue, then someone writes while the client is not listening.
    let expired: topicterm::api::Ack = app
        .client
        .call(reqwest::Method::POST, "/demo/expire_queues", topicterm::api::Params::new())
        .await
        .unwrap();
    assert!(expired.ignored_parameters_unsupported.is_empty());
    let alice = topicterm::api::Client::new(&app.server.credentials("alice").unwrap()).unwrap();
    let msg = topicterm::api::OutgoingMessage::channel(general, "office wifi", "sent while you were away");
    let id = alice.send_message(&msg).await.unwrap().id;
    // The poller hits BAD_EVENT_QUEUE_ID, the client registers again and refetches.
    for _ in 0..50 {
        app.settle().await;
        if app.st.data.views.get(&narrow).is_some_and(|v| v.ids().contains(&id)) {
            break;
        }
    }
    assert_ne!(app.st.data.queue_id(), Some(old_queue.as_str()), "a new queue");
    let view = &app.st.data.views[&narrow];
    assert_eq!(view.ids().iter().filter(|x| **x == id).count(), 1, "the missed message, once");
}

/// A deactivated account closes the organization, saying why and who can fix it; the client
/// does not end on its own.
#[tokio::test]
async fn a_deactivated_account_closes_the_organization_with_a_reason() {
    let mut app = App::start("bob").await;
    let admin = topicterm::api::Client::new(&app.server.credentials("admin").unwrap()).unwrap();
    let bob = app.st.data.me;
    admin.deactivate_user(bob, None, None).await.unwrap();
    app.until("the refusal", |st| st.ui.conn.fatal().is_some()).await;
    assert!(!app.st.ui.conn.quitting());
    assert!(
        app.st.ui.conn.fatal().is_some_and(|f| f.contains("deactivated")),
        "{:?}",
        app.st.ui.conn.fatal()
    );
    let s = app.draw(80, 24).text();
    assert!(s.contains("│ The server refused this account:\n"), "{s}");
    assert!(s.contains("│     Account is deactivated\n"), "{s}");
    assert!(s.contains("│ An administrator can reactivate it;\n"), "{s}");
    assert!(s.contains("│ then press r here to reopen it."), "{s}");
}

#[tokio::test]
async fn losing_the_server_shows_offline_and_keeps_the_compose_text() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("typed before the outage").await;
    let server = std::mem::replace(
        &mut app.server,
        topicterm::server::DemoServer::start(Default::default()).await.unwrap(),
    );
    server.stop().await;
    for _ in 0..30 {
        app.settle().await;
        if app.st.ui.conn.is_offline() {
            break;
        }
    }
    assert!(app.st.ui.conn.is_offline(), "the poller reported the outage");
    let screen = app.screen(100, 24);
    assert!(screen.contains("offline"), "{screen}");
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("typed before the outage"));
}

/// A skin tone stays joined to its base: one cell pair holding both, in the compose box and in
/// the sent message, the text after it where it belongs. (A terminal whose width table draws
/// the modifier as a character of its own — tmux 3.3a — still shows only the base: the cell
/// after the pair is written over; see `ui/clusters.rs`.)
#[tokio::test]
async fn a_skin_tone_stays_with_its_emoji() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("thumbs \u{1F44D}\u{1F3FD} up").await;
    let row_with = |b: &ratatui::buffer::Buffer, y: u16| -> Vec<String> {
        (0..b.area.width).map(|x| b[(x, y)].symbol().to_owned()).collect()
    };
    let check = |b: &ratatui::buffer::Buffer, what: &str| {
        let rows: Vec<Vec<String>> = (0..b.area.height).map(|y| row_with(b, y)).collect();
        let row = rows.iter().find(|r| r.iter().any(|c| c.starts_with('\u{1F44D}'))).expect(what);
        let x = row.iter().position(|c| c.starts_with('\u{1F44D}')).unwrap();
        assert_eq!(row[x], "\u{1F44D}\u{1F3FD}", "{what}: the modifier is in the emoji's cell");
        assert_eq!(row[x + 1..x + 4].concat(), "  u", "{what}: one cell pair, then the text: {row:?}");
    };
    check(&app.buffer(80, 24), "the compose box");
    app.ctrl('d').await;
    app.until("sent", |st| st.data.messages.values().any(|m| m.content().contains("\u{1F44D}\u{1F3FD} up")))
        .await;
    check(&app.buffer(80, 24), "the message");
}
