//! Real-Zulip behaviour seen on screen: search results mark what matched; muted users and
//! alert words.

use crate::harness::*;
use ratatui::style::Color;
use topicterm::api::{MessageEdit, OutgoingMessage};
use topicterm::app::keys::KeyCode;

/// Each place `word` is drawn (any case), and whether it is drawn as a search match.
fn marked(buf: &ratatui::buffer::Buffer, pane: ratatui::layout::Rect, word: &str) -> Vec<bool> {
    marked_with(buf, pane, word, |c| c.bg == Color::Yellow)
}

/// Each place `word` is drawn in the pane (any case), and whether its first cell is styled so.
fn marked_with(
    buf: &ratatui::buffer::Buffer,
    pane: ratatui::layout::Rect,
    word: &str,
    styled: impl Fn(&ratatui::buffer::Cell) -> bool,
) -> Vec<bool> {
    let word: Vec<String> = word.chars().map(|c| c.to_string()).collect();
    let mut out = Vec::new();
    for y in pane.y..pane.y + pane.height {
        let cells: Vec<String> = (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_lowercase()).collect();
        for x in pane.x as usize..cells.len().saturating_sub(word.len()) {
            if cells[x..x + word.len()] == word[..] {
                out.push(styled(&buf[(x as u16, y)]));
            }
        }
    }
    out
}

#[tokio::test]
async fn search_results_mark_the_matched_words_in_text_and_topic() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.keys("flaky").await;
    app.key(KeyCode::Enter).await;
    let view = &app.st.data.views[&app.st.ui.narrow];
    assert!(!view.ids().is_empty(), "the seed talks of flaky tests");
    assert!(
        view.matches()
            .values()
            .any(|m| m.content.as_deref().is_some_and(|c| c.contains("class=\"highlight\""))),
        "the server marked what matched"
    );
    let id = view.ids()[0];
    // The first result, with its topic's header above it.
    app.select(id);
    let pane = app.draw(160, 48).pane;
    let buf = app.buffer(160, 48);
    let seen = marked(&buf, pane, "flaky");
    assert!(!seen.is_empty() && seen.iter().all(|m| *m), "the topic's match drawn marked: {seen:?}");
    // A result that matched in its text.
    let in_text = *app.st.data.views[&app.st.ui.narrow]
        .ids()
        .iter()
        .find(|id| app.st.data.messages[id].content().to_lowercase().contains("flaky"))
        .expect("a result with the word in its text");
    app.select(in_text);
    let buf = app.buffer(160, 48);
    let seen = marked(&buf, pane, "flaky");
    assert!(!seen.is_empty() && seen.iter().all(|m| *m), "the text's match drawn marked: {seen:?}");
    // The same message outside the search is drawn plain.
    let m = app.st.data.messages[&in_text].clone();
    assert!(m.match_content().is_none(), "what matched stays with the search, not the message");
    app.open(topicterm::app::Narrow::Topic(m.stream_id().unwrap(), m.topic().to_owned())).await;
    app.select(in_text);
    let buf = app.buffer(160, 48);
    let seen = marked(&buf, pane, "flaky");
    assert!(!seen.is_empty() && seen.iter().all(|m| !m), "no marks outside the search: {seen:?}");
}

#[tokio::test]
async fn a_muted_users_messages_hide_behind_a_line_never_notify_and_show_on_request() {
    let mut app = App::start("member").await;
    let me = app.st.data.me;
    let bob = app.other("bob");
    let bob_id = app.st.data.users.iter().find(|u| u.full_name.starts_with("Bob")).map(|u| u.id).unwrap();
    app.palette("mute-user Bob Nakamura").await;
    app.until("the server's muted_users event", |st| st.data.users.is_muted(bob_id)).await;
    assert!(app.st.ui.status.as_ref().unwrap().text.contains("muted"), "{:?}", app.st.ui.status);
    app.st.ui.presence.focus_changed(false);
    let general = app.channel_id("general");
    let id = bob
        .send_message(&OutgoingMessage::channel(general, "muted sender", "secret plans"))
        .await
        .unwrap()
        .id;
    bob.send_message(&OutgoingMessage::direct(vec![me], "psst")).await.unwrap();
    app.until("both messages arrived", |st| st.data.messages.contains_key(&id)).await;
    app.settle().await;
    assert!(app.outside.notifications.is_empty(), "no notifications: {:?}", app.outside.notifications);
    assert!(!app.st.data.unread.contains(id), "arrives read");
    app.open(topicterm::app::Narrow::Topic(general, "muted sender".into())).await;
    app.select(id);
    let screen = app.draw(80, 24);
    let rows = screen.rows_of(id).join("\n");
    assert!(rows.contains("Muted user") && rows.contains("muted user: z shows it"), "{rows}");
    assert!(!rows.contains("secret plans") && !rows.contains("Bob"), "{rows}");
    insta::assert_snapshot!("muted_sender_80x24", app.screen(80, 24));
    app.key(KeyCode::Char('z')).await;
    let rows = app.draw(80, 24).rows_of(id).join("\n");
    assert!(rows.contains("secret plans") && rows.contains("Bob"), "shown on request: {rows}");
    app.palette("unmute-user bob@demo.topicterm.test").await;
    app.until("unmuted", |st| !st.data.users.is_muted(bob_id)).await;
}

#[tokio::test]
async fn alert_words_are_marked_and_notify() {
    let mut app = App::start("member").await;
    app.palette(r#"alert-words add "on call" deploy"#).await;
    app.until("the list came back", |st| st.data.alert_words().len() == 2).await;
    assert_eq!(app.st.ui.status.as_ref().unwrap().text, "alert words: on call, deploy");
    app.st.ui.presence.focus_changed(false);
    let general = app.channel_id("general");
    let id = app
        .other("alice")
        .send_message(&OutgoingMessage::channel(general, "alerts", "who is on call for the deploy?"))
        .await
        .unwrap()
        .id;
    app.until("it arrived", |st| st.data.messages.contains_key(&id)).await;
    app.settle().await;
    let n = &app.outside.notifications;
    assert!(n.iter().any(|(_, body)| body.contains("(alert word): ")), "{n:?}");
    app.open(topicterm::app::Narrow::Topic(general, "alerts".into())).await;
    app.select(id);
    let pane = app.draw(160, 48).pane;
    let buf = app.buffer(160, 48);
    for word in ["deploy", "call"] {
        let cells = marked_with(&buf, pane, word, |c| c.fg == Color::LightRed);
        assert!(!cells.is_empty() && cells.iter().all(|m| *m), "{word}: {cells:?}");
    }
    app.palette("alert-words").await;
    assert_eq!(app.st.ui.status.as_ref().unwrap().text, "alert words: on call, deploy");
    // Edited to hold none of the words: the flag goes (the server checks again), and back.
    let edit = |text: &'static str| MessageEdit { content: Some(text.into()), ..Default::default() };
    app.other("alice").update_message(id, &edit("who is around for the release?")).await.unwrap();
    app.until("the flag is gone", |st| !st.data.messages[&id].has_flag(topicterm::api::Flag::HasAlertWord))
        .await;
    app.other("alice").update_message(id, &edit("and the deploy?")).await.unwrap();
    app.until("the flag is back", |st| st.data.messages[&id].has_flag(topicterm::api::Flag::HasAlertWord))
        .await;
}
