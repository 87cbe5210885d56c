//! The one-line prompts: the line editor's keys in every prompt, a long line scrolled to keep the
//! cursor in view, long messages wrapped above the bottom row, `ctrl+g` from a channel to people,
//! and tab completion of palette arguments and paths.

use crate::harness::*;
use topicterm::api::error::UNTRUSTED_CERTIFICATE;
use topicterm::api::{ApiError, OutgoingMessage};
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{Msg, Narrow, Popup, PromptKind, Target};

fn prompt_text(app: &App) -> String {
    app.st.ui.prompt.as_ref().expect("a prompt").text().to_owned()
}

async fn chord(app: &mut App, code: KeyCode, m: KeyModifiers) {
    app.send(Msg::Key(KeyEvent::new(code, m))).await;
}

fn last_row(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn the_rename_prompt_edits_anywhere_and_ctrl_u_clears_it() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let m = OutgoingMessage::channel(general, "fresh topic from alice", "hello");
    let id = app.other("alice").send_message(&m).await.unwrap().id;
    app.open(Narrow::Topic(general, "fresh topic from alice".into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    app.key(KeyCode::Char('t')).await;
    // Issue 40.12: a prompt of its own, holding only the name (it was the palette's
    // `rename-topic NAME`, where ctrl+u cleared the command too and enter said `no command`).
    assert_eq!(prompt_text(&app), "fresh topic from alice");
    assert!(last_row(&app.screen(100, 24)).starts_with("Rename topic (all its messages; tab changes): "));
    // ctrl+w takes the words back one at a time; ctrl+u everything before the cursor.
    for _ in 0..2 {
        app.ctrl('w').await;
    }
    assert_eq!(prompt_text(&app), "fresh topic ");
    app.ctrl('u').await;
    assert_eq!(prompt_text(&app), "");
    // Enter on no name renames nothing: the prompt stays, and says what it wants.
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.prompt.is_some(), "the prompt stays open");
    assert_eq!(app.st.ui.status.as_ref().map(|s| s.text.as_str()), Some("type the new name"));
    assert!(app.screen(100, 24).contains("type the new name"));
    app.keys("renamed topic X").await;
    // Home, then words in front; left/right/ctrl+e move without typing.
    app.key(KeyCode::Home).await;
    app.keys("the ").await;
    app.key(KeyCode::Left).await;
    app.ctrl('e').await;
    app.key(KeyCode::Backspace).await;
    assert_eq!(prompt_text(&app), "the renamed topic ");
    chord(&mut app, KeyCode::Char('b'), KeyModifiers::ALT).await;
    app.ctrl('k').await;
    app.keys("topic Y").await;
    assert_eq!(prompt_text(&app), "the renamed topic Y");
    // Tab says which messages take the name, as the web app asks.
    app.key(KeyCode::Tab).await;
    assert!(
        last_row(&app.screen(100, 24)).starts_with("Rename topic (this and later messages; tab changes): ")
    );
    app.key(KeyCode::Tab).await;
    assert!(last_row(&app.screen(100, 24)).starts_with("Rename topic (only this message; tab changes): "));
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "the renamed topic Y", "tab leaves the name");
    app.key(KeyCode::Enter).await;
    app.until("renamed", |st| st.data.messages[&id].topic() == "the renamed topic Y").await;
    assert_eq!(app.server.shared.lock().messages[&id].topic(), "the renamed topic Y", "on the server");
}

/// Only the selected message and later ones take the new name when tab says so.
#[tokio::test]
async fn the_rename_prompt_renames_only_later_messages_when_asked() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let mut ids = Vec::new();
    for text in ["one", "two", "three"] {
        ids.push(alice.send_message(&OutgoingMessage::channel(general, "split me", text)).await.unwrap().id);
    }
    app.open(Narrow::Topic(general, "split me".into())).await;
    app.until("the messages", |st| ids.iter().all(|id| st.data.messages.contains_key(id))).await;
    app.select(ids[1]);
    app.key(KeyCode::Char('t')).await;
    app.ctrl('u').await;
    app.keys("the later half").await;
    app.key(KeyCode::Tab).await;
    app.key(KeyCode::Enter).await;
    app.until("moved", |st| st.data.messages[&ids[2]].topic() == "the later half").await;
    let org = app.server.shared.lock();
    let topics: Vec<&str> = ids.iter().map(|id| org.messages[id].topic()).collect();
    assert_eq!(topics, ["split me", "the later half", "the later half"]);
}

#[tokio::test]
async fn a_long_topic_scrolls_in_the_prompt_and_the_cursor_stays_in_view_at_80x24() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let long = "an extremely long topic name that fills all sixty characters";
    let m = OutgoingMessage::channel(general, long, "hello");
    let id = app.other("alice").send_message(&m).await.unwrap().id;
    app.open(Narrow::Topic(general, long.into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.key(KeyCode::Char('r')).await;
    app.ctrl('g').await;
    let row = last_row(&app.screen(80, 24));
    assert!(row.ends_with("sixty characters█"), "the end and the cursor are shown: {row:?}");
    assert!(row.contains('…'), "cut on the left, and says so: {row:?}");
    // Typed text stays in view.
    app.keys(" v2").await;
    insta::assert_snapshot!("prompt_long_topic_80x24", app.screen(80, 24));
    let row = last_row(&app.screen(80, 24));
    assert!(row.ends_with("characters v2█"), "{row:?}");
    // Home shows the start, the rest cut on the right.
    app.key(KeyCode::Home).await;
    let row = last_row(&app.screen(80, 24));
    assert!(row.contains("general>an extremely"), "{row:?}");
    assert!(row.ends_with('…'), "{row:?}");
    app.key(KeyCode::Esc).await;
}

#[tokio::test]
async fn a_long_banner_wraps_above_the_bottom_row_rather_than_hiding_its_fix_at_80x24() {
    let mut app = App::start("member").await;
    let message = format!("error sending request: {UNTRUSTED_CERTIFICATE}");
    app.apply(Msg::Offline {
        error: ApiError::Transport { message, timeout: false, connect: true },
        retry_in: 30,
    });
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("banner_wraps_80x24", screen);
    let flat: String =
        screen.lines().rev().take(3).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("insecure=true)"), "the whole fix is shown: {screen}");
    assert!(flat.contains("retrying in"), "and what happens next: {screen}");
    assert!(flat.contains("All messages"), "the title keeps its row: {screen}");
    // Online again: the bottom is one row again.
    app.apply(Msg::Online);
    let screen = app.screen(80, 24);
    assert!(!screen.contains("insecure=true"), "{screen}");
}

#[tokio::test]
async fn ctrl_g_turns_a_channel_message_into_a_dm_and_back() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("for your eyes only").await;
    app.ctrl('g').await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::ChannelTopic));
    app.ctrl('u').await;
    app.keys("ali").await;
    let screen = app.screen(100, 24);
    assert!(screen.contains("@Alice Okafor"), "people are offered too: {screen}");
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "@Alice Okafor, ");
    app.key(KeyCode::Enter).await;
    let alice = app.st.data.users.iter().find(|u| u.full_name == "Alice Okafor").unwrap().id;
    let c = app.st.ui.compose.as_ref().expect("the compose box");
    assert_eq!(c.target, Target::Dm(vec![alice]));
    assert_eq!(c.text(), "for your eyes only", "the text stays");
    // And from the DM prompt back to a channel.
    app.ctrl('g').await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::DmRecipients));
    app.ctrl('u').await;
    app.keys("#design>colours").await;
    app.key(KeyCode::Enter).await;
    let design = app.channel_id("design");
    let c = app.st.ui.compose.as_ref().expect("the compose box");
    assert_eq!(c.target, Target::Channel { id: design, topic: "colours".into() });
    // A name that is neither says so.
    app.ctrl('g').await;
    app.ctrl('u').await;
    app.keys("nobody at all").await;
    app.key(KeyCode::Enter).await;
    let status = app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert!(status.contains("no channel or person named \"nobody at all\""), "{status}");
    assert!(app.st.ui.prompt.is_some(), "the line stays open to fix");
}

#[tokio::test]
async fn palette_arguments_complete_channels_topics_people_and_groups() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char(':')).await;
    app.keys("move-topic #eng").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "move-topic #engineering ");
    // The topic after it comes from that channel (fetched when not known).
    app.keys("release").await;
    app.until("the topics", |st| !st.ui.completion.suggestions.is_empty()).await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "move-topic #engineering release 2.4 planning");
    app.key(KeyCode::Esc).await;
    // Words the usage lists (issue 40: `:mark-read ` and tab offered nothing).
    app.key(KeyCode::Char(':')).await;
    app.keys("mark-read ").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "mark-read channel ");
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "mark-read all ");
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char(':')).await;
    app.keys("profile @ali").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "profile @\"Alice Okafor\" ");
    app.key(KeyCode::Enter).await;
    app.until("the profile", |st| matches!(st.ui.popup, Some(Popup::Profile { .. }))).await;
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char(':')).await;
    app.keys("group-add back").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "group-add backend ");
    app.keys("Dav").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "group-add backend \"Dave Kowalski\" ");
    app.key(KeyCode::Esc).await;
    // Several commands: shown, and tab goes through them.
    app.key(KeyCode::Char(':')).await;
    app.keys("mu").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "mute ");
    assert!(app.screen(100, 24).contains("tab: [mute]  mute-user"), "{}", app.screen(100, 24));
}

#[tokio::test]
async fn the_attach_prompt_completes_paths() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("notes folder")).unwrap();
    std::fs::write(dir.path().join("notes folder").join("minutes.txt"), b"the minutes").unwrap();
    std::fs::write(dir.path().join("nothing.txt"), b"").unwrap();
    std::fs::write(dir.path().join(".hidden"), b"").unwrap();
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.ctrl('t').await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::AttachPath));
    let base = dir.path().display().to_string();
    app.keys(&format!("{base}/no")).await;
    app.until("the folder listed", |st| st.ui.completion.suggestions.len() == 2).await;
    let shown: Vec<&str> = app.st.ui.completion.suggestions.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(shown, ["notes folder/", "nothing.txt"], "folders end in /, hidden files are not offered");
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), format!("{base}/notes folder/"));
    app.key(KeyCode::Esc).await;
    app.ctrl('t').await;
    app.keys(&format!("{base}/notes folder/m")).await;
    app.until("the inner folder listed", |st| st.ui.completion.suggestions.len() == 1).await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), format!("{base}/notes folder/minutes.txt"));
    app.key(KeyCode::Enter).await;
    app.until("uploaded and linked", |st| {
        st.ui.compose.as_ref().is_some_and(|c| c.text().contains("[minutes.txt](/user_uploads/"))
    })
    .await;
}

#[tokio::test]
async fn an_empty_search_closes_the_line() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.prompt.is_none());
    assert_eq!(app.st.ui.status.as_ref().map(|s| s.text.as_str()), Some("nothing to search for"));
}

#[tokio::test]
async fn a_long_title_keeps_what_qualifies_it_at_80x24() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let long = "an extremely long topic name that fills all sixty characters";
    app.open(Narrow::Topic(general, long.into())).await;
    // Drawn from the last session: that is never the part cut.
    app.st.ui.conn.shown_from_cache();
    app.st.ui.status = None;
    let row = last_row(&app.screen(80, 24));
    assert!(row.contains("#general > an extremely long") && row.contains("… · last session"), "{row:?}");
    assert!(row.ends_with("? help"), "{row:?}");
}

#[tokio::test]
async fn the_channel_browser_and_the_emoji_picker_filter_with_the_same_line_keys() {
    let mut app = App::start("member").await;
    app.palette("channels").await;
    app.until("the list", |st| matches!(&st.ui.popup, Some(Popup::Channels { list: Some(_), .. }))).await;
    app.keys("nothing trail").await;
    let shown = |app: &App| match &app.st.ui.popup {
        Some(Popup::Channels { list: Some(l), query, .. }) => (query.text().to_owned(), l.shown.len()),
        _ => panic!("the channel browser"),
    };
    assert_eq!(shown(&app).1, 0, "nothing matches both words");
    // ctrl+a, then alt+d takes the first word: the list follows.
    app.ctrl('a').await;
    chord(&mut app, KeyCode::Char('d'), KeyModifiers::ALT).await;
    let (query, n) = shown(&app);
    assert_eq!(query.trim(), "trail");
    assert!(n > 0, "trail matches again");
    assert!(app.screen(80, 24).contains("Channels: trail"), "{}", app.screen(80, 24));
    app.key(KeyCode::Esc).await;
    // The emoji picker's query: ctrl+w takes the word back.
    let id = *app.st.data.views[&app.st.ui.narrow].ids().last().unwrap();
    app.select(id);
    app.key(KeyCode::Char('E')).await;
    app.keys("thumbs").await;
    app.ctrl('w').await;
    app.keys("tada").await;
    match &app.st.ui.popup {
        Some(Popup::Emoji { query, matches, .. }) => {
            assert_eq!(query.text(), "tada");
            assert_eq!(matches.first().map(|m| m.0.as_str()), Some("tada"));
        }
        other => panic!("the emoji picker: {other:?}"),
    }
}

/// Issue 40.5: the empty topic is "general chat" wherever a person sees or types it: topic
/// completion lists it by that name (not as an empty entry a second tab inserts), a prefix of
/// the name finds it, and the name typed addresses the empty topic.
#[tokio::test]
async fn the_empty_topic_completes_and_is_typed_as_general_chat() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let id = app
        .other("alice")
        .send_message(&OutgoingMessage::channel(general, "", "no topic here"))
        .await
        .unwrap()
        .id;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.key(KeyCode::Char('c')).await;
    app.keys("general>").await;
    app.key(KeyCode::Tab).await;
    app.until("the topics", |st| !st.ui.completion.suggestions.is_empty()).await;
    let shown: Vec<String> = app.st.ui.completion.suggestions.iter().map(|s| s.0.clone()).collect();
    assert!(shown.iter().any(|s| s == "general chat"), "{shown:?}");
    assert!(shown.iter().all(|s| !s.trim().is_empty()), "no empty entry: {shown:?}");
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('c')).await;
    app.keys("general>gen").await;
    app.key(KeyCode::Tab).await;
    app.until("a match", |st| !st.ui.completion.suggestions.is_empty()).await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "general>general chat");
    app.key(KeyCode::Enter).await;
    let target = app.st.ui.compose.as_ref().map(|c| c.target.clone());
    assert_eq!(target, Some(Target::Channel { id: general, topic: String::new() }), "the empty topic");
    assert!(app.screen(100, 30).contains("general chat"), "and named so in the compose box");
}
