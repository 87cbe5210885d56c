//! Daily-driver commands through the whole app: marking read, deleting, moving topics.

use crate::harness::*;
use topicterm::app::keys::KeyCode;

fn unread_total(app: &App) -> usize {
    app.st.data.unread.len()
}

#[tokio::test]
async fn mark_read_takes_the_topic_the_channel_or_everything_after_asking() {
    let mut app = App::start("member").await;
    let engineering = app.channel_id("engineering");
    assert!(app.st.data.channel_unread(engineering) > 0);
    let before = unread_total(&app);
    // The channel of the open view.
    app.open(topicterm::app::Narrow::Channel(engineering)).await;
    app.palette("mark-read channel").await;
    app.settle().await;
    assert_eq!(app.st.data.channel_unread(engineering), 0);
    assert!(unread_total(&app) > 0 && unread_total(&app) < before, "only that channel");
    // Everything, after a question.
    app.palette("mark-read all").await;
    assert!(app.st.ui.prompt.is_some(), "asks first");
    app.key(KeyCode::Char('y')).await;
    app.until("every unread message read", |st| st.data.unread.is_empty()).await;
    app.until("said so", |st| st.ui.status.as_ref().is_some_and(|s| s.text == "all messages marked as read"))
        .await;
    let server_unread = {
        let org = app.server.shared.lock();
        org.user_msgs[&app.st.data.me].values().filter(|f| !f.read).count()
    };
    assert_eq!(server_unread, 0, "on the server too");
}

#[tokio::test]
async fn delete_asks_then_the_message_goes_everywhere() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let topic = topicterm::app::Narrow::Topic(general, "to delete".into());
    app.open(topic.clone()).await;
    // Someone else's message cannot be deleted by a member.
    let theirs = app
        .other("bob")
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "to delete", "bob says"))
        .await
        .unwrap()
        .id;
    let mine = app
        .other("member")
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "to delete", "a typo"))
        .await
        .unwrap()
        .id;
    app.until("both arrived", |st| {
        st.data.messages.contains_key(&mine) && st.data.messages.contains_key(&theirs)
    })
    .await;
    app.select(theirs);
    app.palette("delete").await;
    assert_eq!(
        app.st.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("you may delete only your own messages: administrators only may delete anyone's")
    );
    app.key(KeyCode::Esc).await;
    app.select(mine);
    app.palette("delete").await;
    insta::assert_snapshot!("delete_confirm_80x24", app.screen(80, 24));
    app.key(KeyCode::Char('y')).await;
    app.until("gone", |st| !st.data.messages.contains_key(&mine)).await;
    assert!(!app.st.data.views[&topic].ids().contains(&mine));
    assert!(!app.server.shared.lock().messages.contains_key(&mine), "on the server too");
}

#[tokio::test]
async fn rename_resolve_and_move_a_topic_from_the_keyboard_and_the_view_follows() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let design = app.channel_id("design");
    let bob = app.other("bob");
    let mut ids = Vec::new();
    for text in ["one", "two", "three"] {
        let m = topicterm::api::OutgoingMessage::channel(general, "naming things", text);
        ids.push(bob.send_message(&m).await.unwrap().id);
    }
    let old = topicterm::app::Narrow::Topic(general, "naming things".into());
    app.open(old.clone()).await;
    app.until("the topic's messages", |st| ids.iter().all(|id| st.data.messages.contains_key(id))).await;
    app.select(ids[1]);
    // `t` opens a prompt of its own with the topic's name to edit.
    app.key(KeyCode::Char('t')).await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some("naming things"));
    for _ in 0.."things".len() {
        app.key(KeyCode::Backspace).await;
    }
    app.keys("stuff").await;
    app.key(KeyCode::Enter).await;
    app.until("renamed here", |st| ids.iter().all(|id| st.data.messages[id].topic() == "naming stuff")).await;
    app.until("said so", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text == "topic renamed: #general > naming stuff")
    })
    .await;
    assert_eq!(
        app.st.ui.narrow,
        topicterm::app::Narrow::Topic(general, "naming stuff".into()),
        "the view follows"
    );
    assert_eq!(app.st.ui.selected, Some(ids[1]), "the same message stays selected");
    // `V` resolves it; the notification bot says who did.
    app.key(KeyCode::Char('V')).await;
    app.until("resolved", |st| st.data.messages[&ids[0]].topic() == "✔ naming stuff").await;
    app.until("the bot's note", |st| {
        st.data
            .messages
            .values()
            .any(|m| m.topic() == "✔ naming stuff" && m.content().contains("marked this topic as resolved"))
    })
    .await;
    // `:move-topic #design` moves every message; the old channel no longer has them.
    app.select(ids[0]);
    app.palette("move-topic #design").await;
    app.until("moved", |st| ids.iter().all(|id| st.data.messages[id].stream_id() == Some(design))).await;
    let org = app.server.shared.lock();
    assert!(ids.iter().all(|id| org.messages[id].channel_id() == Some(design)), "on the server");
}

#[tokio::test]
async fn explore_mode_reads_nothing_while_browsing_and_says_so() {
    let mut app = App::start("member").await;
    app.st.settings.explore = true;
    let engineering = app.channel_id("engineering");
    let before = app.st.data.channel_unread(engineering);
    let before_all = app.st.data.unread.len();
    assert!(before > 0);
    // Open the channel and walk through every message.
    app.open(topicterm::app::Narrow::Channel(engineering)).await;
    for _ in 0..40 {
        app.key(KeyCode::Char('j')).await;
    }
    app.settle().await;
    assert_eq!(app.st.data.channel_unread(engineering), before, "nothing read by looking");
    assert_eq!(app.st.data.unread.len(), before_all);
    let text = app.screen(80, 24);
    assert!(text.lines().last().unwrap().contains("· explore"), "{text}");
    // Marking on purpose still works.
    let unread =
        app.st.data.unread.ids().find(|id| app.st.data.views[&app.st.ui.narrow].ids().contains(id)).unwrap();
    app.select(unread);
    let total = app.st.data.unread.len();
    app.key(KeyCode::Char('T')).await;
    app.settle().await;
    // (Counted over every unread message: the channel's count leaves muted topics out.)
    assert!(app.st.data.unread.len() < total);
}

#[tokio::test]
async fn at_replies_in_the_conversation_mentioning_the_author() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let bob = app.other("bob");
    let id = bob
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "mentions", "anyone?"))
        .await
        .unwrap()
        .id;
    let topic = topicterm::app::Narrow::Topic(general, "mentions".into());
    app.open(topic.clone()).await;
    app.until("it arrived", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    app.key(KeyCode::Char('@')).await;
    let bob_id = app.st.data.messages[&id].sender_id();
    let text = app.st.ui.compose.as_ref().map(|c| c.text()).unwrap_or_default();
    assert_eq!(text, format!("@**Bob Nakamura|{bob_id}** "));
    app.keys("me!").await;
    app.ctrl('d').await;
    app.until("sent and back", |st| {
        st.data.views.get(&topic).is_some_and(|v| {
            v.ids()
                .iter()
                .any(|m| st.data.messages[m].content().contains(&format!("data-user-id=\"{bob_id}\"")))
        })
    })
    .await;
}

#[tokio::test]
async fn messages_arriving_below_the_visible_part_are_announced_until_seen() {
    let mut app = App::start("member").await;
    let engineering = app.channel_id("engineering");
    let topic = topicterm::app::Narrow::Topic(engineering, "release 2.4 planning".into());
    app.open(topic.clone()).await;
    app.key(KeyCode::Char('g')).await;
    app.key(KeyCode::Char('T')).await; // everything here read: only new arrivals count
    app.settle().await;
    let last_row = |app: &mut App| app.screen(80, 24).lines().rev().nth(1).unwrap_or_default().to_owned();
    assert!(!last_row(&mut app).contains("below"), "{}", last_row(&mut app));
    let bob = app.other("bob");
    let mut new = Vec::new();
    for text in ["first new", "second new"] {
        let m = topicterm::api::OutgoingMessage::channel(engineering, "release 2.4 planning", text);
        new.push(bob.send_message(&m).await.unwrap().id);
    }
    app.until("both arrived", |st| new.iter().all(|id| st.data.views[&topic].ids().contains(id))).await;
    let row = last_row(&mut app);
    assert!(row.contains("▼ 2 new messages below — G jumps to the end"), "{row}");
    app.key(KeyCode::Char('G')).await;
    app.settle().await;
    assert!(!last_row(&mut app).contains("below"), "seen: {}", last_row(&mut app));
}

#[tokio::test]
async fn links_into_the_app_open_here_at_that_place_and_others_outside() {
    let mut app = App::start("member").await;
    let (general, engineering) = (app.channel_id("general"), app.channel_id("engineering"));
    // A message of the planning topic to point at.
    let planning = topicterm::app::Narrow::Topic(engineering, "release 2.4 planning".into());
    app.open(planning.clone()).await;
    let pointed = app.st.data.views[&planning].ids()[3];
    let bob = app.other("bob");
    let text = format!(
        "see #**engineering>release 2.4 planning** and [that one](#narrow/channel/{engineering}-engineering/topic/release.202.2E4.20planning/near/{pointed})"
    );
    let id = bob
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "links", &text))
        .await
        .unwrap()
        .id;
    let here = topicterm::app::Narrow::Topic(general, "links".into());
    app.open(here.clone()).await;
    app.until("it arrived", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    // Two links: `o` asks which; the topic link opens the topic here.
    app.key(KeyCode::Char('o')).await;
    app.key(KeyCode::Char('1')).await;
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.narrow, planning);
    assert_eq!(
        app.st.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("[1] opened here"),
        "not the browser"
    );
    // The message link opens its topic with that message selected.
    app.open(here).await;
    app.select(id);
    app.key(KeyCode::Char('o')).await;
    app.key(KeyCode::Char('2')).await;
    app.key(KeyCode::Enter).await;
    app.until("at the message", |st| st.ui.selected == Some(pointed)).await;
    assert_eq!(app.st.ui.narrow, planning);
}

#[tokio::test]
async fn others_see_the_user_typing_throttled_and_stopping() {
    use topicterm::api::{EventKind, RegisterParams};
    let mut app = App::start("member").await;
    let me = app.st.data.me;
    let bob = app.other("bob");
    let q = bob.register(&RegisterParams::default()).await.unwrap().queue_id.unwrap();
    let general = app.channel_id("general");
    app.open(topicterm::app::Narrow::Topic(general, "typing".into())).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("hello there, a long sentence typed in one go").await;
    app.settle().await;
    let now = app.st.now;
    // Five idle seconds: stopped.
    app.send(topicterm::app::Msg::Tick(now + 6)).await;
    app.settle().await;
    let evs = bob.get_events(&q, -1, true, std::time::Duration::from_secs(5)).await.unwrap();
    let ops: Vec<topicterm::api::StartStop> = evs
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Typing(t) if t.sender.user_id == me => Some(t.op.clone()),
            _ => None,
        })
        .collect();
    use topicterm::api::StartStop::{Start, Stop};
    assert_eq!(ops, [Start, Stop], "one start for a burst of keys, then a stop");
}

#[tokio::test]
async fn a_profile_from_the_palette_or_a_message_then_a_dm_or_a_mention() {
    let mut app = App::start("member").await;
    app.palette("profile @Bob Nakamura").await;
    app.until("the server's record", |st| {
        matches!(&st.ui.popup, Some(topicterm::app::Popup::Profile { details: Some(_), .. }))
    })
    .await;
    let text = app.screen(80, 24);
    assert!(text.contains("Bob Nakamura") && text.contains("Role") && text.contains("Joined"), "{text}");
    // x: a direct message to them (the popup's look is in `channels_people`'s snapshots).
    app.key(KeyCode::Char('x')).await;
    let bob = app.st.data.users.iter().find(|u| u.full_name == "Bob Nakamura").unwrap().id;
    assert_eq!(
        app.st.ui.compose.as_ref().map(|c| c.target.clone()),
        Some(topicterm::app::Target::Dm(vec![bob]))
    );
    app.key(KeyCode::Esc).await;
    // u on a message: its sender's profile; @ mentions them in a reply.
    let general = app.channel_id("general");
    let id = app
        .other("bob")
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "profiles", "hi"))
        .await
        .unwrap()
        .id;
    app.open(topicterm::app::Narrow::Topic(general, "profiles".into())).await;
    app.until("it arrived", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    app.key(KeyCode::Char('u')).await;
    assert!(matches!(&app.st.ui.popup, Some(topicterm::app::Popup::Profile { user, .. }) if *user == bob));
    app.key(KeyCode::Char('@')).await;
    let c = app.st.ui.compose.as_ref().expect("a reply");
    assert_eq!(c.text(), format!("@**Bob Nakamura|{bob}** "));
    assert_eq!(c.target, topicterm::app::Target::Channel { id: general, topic: "profiles".into() });
}

#[tokio::test]
async fn topic_commands_say_when_there_is_nothing_to_do() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let id = app
        .other("bob")
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "✔ done already", "x"))
        .await
        .unwrap()
        .id;
    app.open(topicterm::app::Narrow::Topic(general, "✔ done already".into())).await;
    app.until("it arrived", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    let said = |app: &App| app.st.ui.status.as_ref().map(|s| (s.error, s.text.clone()));
    app.palette("resolve").await;
    assert_eq!(said(&app), Some((true, "the topic is already resolved".into())));
    app.key(KeyCode::Esc).await;
    app.palette("move-topic #general").await;
    assert_eq!(said(&app), Some((true, "nothing to change: that is where the topic is".into())));
    app.key(KeyCode::Esc).await;
    app.palette("unresolve").await;
    app.until("unresolved", |st| st.data.messages[&id].topic() == "done already").await;
}

#[tokio::test]
async fn attach_uploads_a_file_and_links_it_where_the_cursor_is() {
    let mut app = App::start("member").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plan v2.txt");
    std::fs::write(&file, "the plan\n").unwrap();
    let general = app.channel_id("general");
    let topic = topicterm::app::Narrow::Topic(general, "attachments".into());
    app.open(topic.clone()).await;
    // From the palette: the compose box opens for the conversation in view, the link goes in.
    app.palette(&format!("attach {}", file.display())).await;
    assert!(app.st.ui.compose.is_some(), "opened at once");
    app.until("uploaded", |st| st.ui.status.as_ref().is_some_and(|s| s.text == "uploaded plan v2.txt")).await;
    let text = app.st.ui.compose.as_ref().unwrap().text();
    assert!(text.starts_with("[plan v2.txt](/user_uploads/") && text.ends_with("/plan-v2.txt)"), "{text}");
    let url = text[text.find("(").unwrap() + 1..text.len() - 1].to_owned();
    assert_eq!(app.other("member").download(&url).await.unwrap(), b"the plan\n", "the server has it");
    // ctrl+t in the compose box: the link goes where the cursor is.
    app.keys(" and ").await;
    app.ctrl('t').await;
    assert!(app.screen(80, 24).contains("Attach file (path): "));
    app.keys(&file.display().to_string()).await;
    app.key(KeyCode::Enter).await;
    app.until("the second link", |st| {
        st.ui.compose.as_ref().is_some_and(|c| c.text().matches("](").count() == 2)
    })
    .await;
    // (A new server for each test: the upload paths are always these.)
    insta::assert_snapshot!("attach_80x24", app.screen(80, 24));
    // Right after a word, the link is set apart from it (it ran into it: "testplan v2.txt[1]").
    app.keys(" test").await;
    app.ctrl('t').await;
    app.keys(&file.display().to_string()).await;
    app.key(KeyCode::Enter).await;
    app.until("the third link", |st| {
        st.ui.compose.as_ref().is_some_and(|c| c.text().matches("](").count() == 3)
    })
    .await;
    let text = app.st.ui.compose.as_ref().unwrap().text();
    assert!(text.contains(" test [plan v2.txt](/user_uploads/"), "{text}");
    // A missing file or one over the server's limit: said, nothing uploaded, the text kept.
    let kept = app.st.ui.compose.as_ref().unwrap().text();
    let uploads = app.server.shared.lock().uploads.len();
    app.ctrl('t').await;
    app.keys("/no/such/file.txt").await;
    app.key(KeyCode::Enter).await;
    app.until("refused", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text == "not attached: there is no file /no/such/file.txt")
    })
    .await;
    let big = dir.path().join("big.bin");
    std::fs::write(&big, vec![0u8; 1_500_000]).unwrap();
    app.st.data.realm.limits.max_upload_bytes = Some(1 << 20);
    app.ctrl('t').await;
    app.keys(&big.display().to_string()).await;
    app.key(KeyCode::Enter).await;
    app.until("too large", |st| {
        st.ui
            .status
            .as_ref()
            .is_some_and(|s| s.text.ends_with("big.bin is 1.4 MiB; this server takes files up to 1 MiB"))
    })
    .await;
    assert_eq!(app.server.shared.lock().uploads.len(), uploads, "nothing more was uploaded");
    assert_eq!(app.st.ui.compose.as_ref().unwrap().text(), kept);
    // Sent, the message links the file.
    app.ctrl('d').await;
    app.until("sent", |st| st.data.messages.values().any(|m| m.content().contains("plan-v2.txt"))).await;
}

#[tokio::test]
async fn polls_and_todo_lists_show_their_state_and_take_votes_and_ticks_by_digit() {
    use topicterm::app::widget::Widget;
    let mut app = App::start("member").await;
    let random = app.channel_id("random");
    app.open(topicterm::app::Narrow::Topic(random, "team offsite".into())).await;
    let poll =
        *app.st.data.widgets().keys().find(|id| app.st.data.messages[id].topic() == "team offsite").unwrap();
    app.select(poll);
    let screen = app.screen(80, 24);
    assert!(screen.contains("Where should the spring offsite be?"), "{screen}");
    assert!(!screen.contains("/poll"), "the widget, not its text");
    insta::assert_snapshot!("poll_80x24", screen);
    insta::assert_snapshot!("poll_160x48", app.screen(160, 48));
    let me = app.st.data.me;
    let voted = |st: &topicterm::app::State, n: usize| match st.data.widgets().get(&poll) {
        Some(Widget::Poll(p)) => p.options[n].voters.contains(&me),
        _ => false,
    };
    // 3: a vote for the third option, on the server and back by event.
    app.key(KeyCode::Char('3')).await;
    app.until("my vote", |st| voted(st, 2)).await;
    assert!(app.screen(80, 24).contains("3 ✓  1 Tallinn"));
    // Again: taken back.
    app.key(KeyCode::Char('3')).await;
    app.until("my vote taken back", |st| !voted(st, 2)).await;
    // An option that is not there is said.
    app.key(KeyCode::Char('9')).await;
    assert_eq!(app.st.ui.status.as_ref().map(|s| s.text.as_str()), Some("there is no item 9 here"));
    // A to-do list: 2 ticks the second task.
    let engineering = app.channel_id("engineering");
    app.open(topicterm::app::Narrow::Topic(engineering, "release 2.5 checklist".into())).await;
    let todo = *app
        .st
        .data
        .widgets()
        .keys()
        .find(|id| app.st.data.messages[id].topic() == "release 2.5 checklist")
        .unwrap();
    app.select(todo);
    let done = |st: &topicterm::app::State, n: usize| match st.data.widgets().get(&todo) {
        Some(Widget::Todo(t)) => t.tasks[n].done,
        _ => false,
    };
    assert!(done(&app.st, 0) && !done(&app.st, 1), "the seed ticked the first");
    insta::assert_snapshot!("todo_80x24", app.screen(80, 24));
    insta::assert_snapshot!("todo_160x48", app.screen(160, 48));
    app.key(KeyCode::Char('2')).await;
    app.until("ticked", |st| done(st, 1)).await;
    assert!(app.screen(80, 24).contains("2 [x] Changelog"));
    // A digit on a message with neither says why nothing happens (it said nothing).
    app.open(topicterm::app::Narrow::Channel(engineering)).await;
    let plain = *app.st.data.views[&app.st.ui.narrow]
        .ids()
        .iter()
        .find(|id| !app.st.data.widgets().contains_key(id))
        .expect("a message without a widget");
    app.select(plain);
    app.key(KeyCode::Char('1')).await;
    let said = "1–9 vote in a poll or tick a to-do item; this message has neither";
    assert_eq!(app.st.ui.status.as_ref().map(|s| s.text.as_str()), Some(said));
    assert!(app.screen(80, 24).contains("1–9 vote in a poll or tick a to-do item;"));
}
