//! Saved snippets through the whole app against the demo server, the server's state read
//! back: `:snippets` (and alt+s in the compose box) lists them, `/` filters, enter inserts one
//! at the cursor or opens a compose box with it, `a` saves the compose text as one, `d`
//! deletes one after a question; every refusal and failure in words.

use crate::harness::*;
use crate::rewriter::{Exchange, Reply, Rewriter, Rule};
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{Msg, Narrow, Popup, PromptKind, State};
use topicterm::server::DemoServer;

async fn alt(app: &mut App, c: char) {
    app.send(Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT))).await;
}

fn status(st: &State) -> String {
    st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

/// The member's snippets on the server: (title, text), by ID.
fn on_server(app: &App) -> Vec<(String, String)> {
    let me = app.st.data.me;
    let org = app.server.shared.lock();
    org.snippets.values().filter(|s| s.owner == me).map(|s| (s.title.clone(), s.content.clone())).collect()
}

fn known(st: &State) -> usize {
    st.data.lists.snippets().map_or(0, |s| s.len())
}

/// The member, with three snippets saved from another of their clients (they arrive as events).
async fn with_snippets() -> App {
    let mut app = App::start("member").await;
    let elsewhere = app.other("member");
    for (title, text) in [
        ("thanks", "Thank you for the review! :heart:"),
        ("standup", "Yesterday: the release notes.\nToday: the \u{1b}[31mdeploy\u{1b}[0m.\nBlockers: none."),
        ("on call", "I am on call this week: page me on #support."),
    ] {
        elsewhere.create_saved_snippet(title, text).await.unwrap();
    }
    app.until("the three snippets, by event", |st| known(st) == 3).await;
    app
}

/// A topic of #general with one message of Alice's, selected.
async fn in_a_topic(app: &mut App) -> i64 {
    let general = app.channel_id("general");
    let m = OutgoingMessage::channel(general, "snippets", "how do we say thanks?");
    let id = app.other("alice").send_message(&m).await.unwrap().id;
    app.open(Narrow::Topic(general, "snippets".into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    id
}

#[tokio::test]
async fn snippets_are_listed_filtered_inserted_saved_and_deleted() {
    let mut app = with_snippets().await;
    in_a_topic(&mut app).await;
    app.palette("snippets").await;
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("snippets_80x24", screen);
    assert!(!screen.contains('\u{1b}'), "no escape from the server reaches the terminal");
    insta::assert_snapshot!("snippets_160x48", app.screen(160, 48));
    // `/` filters by title and text (a word of standup's text), esc gives the keys back.
    app.keys("/deploy").await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("standup") && !screen.contains("on call"), "{screen}");
    insta::assert_snapshot!("snippets_filtered_80x24", screen);
    app.key(KeyCode::Esc).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Snippets { filtering: false, .. })), "still open");
    app.key(KeyCode::Char('/')).await;
    app.ctrl('u').await;
    app.key(KeyCode::Esc).await;
    // Enter with no compose box: one opens for the selected message's conversation, with the
    // snippet; sending it puts it on the server.
    select_snippet(&mut app, "on call").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.popup.is_none());
    let c = app.st.ui.compose.as_ref().expect("a compose box");
    assert_eq!(c.text(), "I am on call this week: page me on #support.");
    app.ctrl('d').await;
    app.until("sent", |st| st.ui.compose.is_none() && st.outbox.is_empty()).await;
    let sent = app
        .server
        .shared
        .lock()
        .messages
        .values()
        .any(|m| m.content == "I am on call this week: page me on #support." && m.topic() == "snippets");
    assert!(sent, "the snippet went to #general > snippets");
    // In an open compose box it goes in at the cursor (alt+s opens the list there).
    app.key(KeyCode::Char('r')).await;
    app.keys("Hi  -- Sam").await;
    for _ in 0.." -- Sam".len() {
        app.key(KeyCode::Left).await;
    }
    alt(&mut app, 's').await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Snippets { .. })));
    select_snippet(&mut app, "thanks").await;
    app.key(KeyCode::Enter).await;
    let text = app.st.ui.compose.as_ref().unwrap().text();
    assert_eq!(text, "Hi Thank you for the review! :heart: -- Sam");
    assert_eq!(status(&app.st), "inserted the snippet \"thanks\"");
    // `a` saves the compose text under a title typed at the prompt.
    alt(&mut app, 's').await;
    app.keys("a").await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::SnippetTitle));
    let screen = app.screen(80, 24);
    assert!(screen.lines().last().unwrap().starts_with("Title of the new snippet: "), "{screen}");
    app.keys("greeting").await;
    app.key(KeyCode::Enter).await;
    app.until("saved", |st| known(st) == 4 && status(st).starts_with("saved the")).await;
    assert_eq!(status(&app.st), "saved the snippet \"greeting\"");
    assert!(on_server(&app).contains(&("greeting".into(), text.clone())), "on the server");
    assert!(app.screen(80, 24).contains("greeting"), "listed");
    // `d` deletes the selected one after a question naming it.
    select_snippet(&mut app, "greeting").await;
    app.keys("d").await;
    let question = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).unwrap_or_default();
    assert_eq!(question, "Delete the saved snippet \"greeting\"? (y/N)");
    insta::assert_snapshot!("snippets_delete_80x24", app.screen(80, 24));
    app.keys("n").await;
    assert_eq!(on_server(&app).len(), 4, "no: kept");
    app.keys("d").await;
    app.keys("y").await;
    app.until("deleted", |st| known(st) == 3 && status(st).starts_with("deleted")).await;
    assert_eq!(status(&app.st), "deleted the snippet \"greeting\"");
    assert!(on_server(&app).iter().all(|(t, _)| t != "greeting"), "gone from the server");
}

/// The title of the snippet selected in the popup.
fn selected_title(st: &State) -> Option<String> {
    let Some(Popup::Snippets { selected, shown: Some(shown), .. }) = &st.ui.popup else { return None };
    let id = shown.get(*selected)?;
    Some(st.data.lists.snippets()?.get(id)?.title.clone())
}

/// Move the popup's selection to a snippet, from the top, as `g` and `j` do.
async fn select_snippet(app: &mut App, title: &str) {
    app.keys("g").await;
    for _ in 0..10 {
        if selected_title(&app.st).as_deref() == Some(title) {
            return;
        }
        app.keys("j").await;
    }
    panic!("no snippet {title:?} in the list");
}

#[tokio::test]
async fn every_refusal_is_said() {
    let mut app = with_snippets().await;
    // Nothing to write in: no compose box, no message selected, no conversation in view.
    app.open(Narrow::All).await;
    app.st.ui.selected = None;
    app.palette("snippets").await;
    app.key(KeyCode::Enter).await;
    assert_eq!(status(&app.st), "select a message or open a conversation to write the snippet in");
    // Nothing to save.
    app.keys("a").await;
    assert_eq!(status(&app.st), "write the snippet in the compose box first, then save it from this list");
    app.key(KeyCode::Esc).await;
    in_a_topic(&mut app).await;
    app.key(KeyCode::Char('r')).await;
    alt(&mut app, 's').await;
    app.keys("a").await;
    assert_eq!(status(&app.st), "nothing to save: the compose box is empty");
    assert!(app.st.ui.prompt.is_none());
    app.key(KeyCode::Esc).await;
    // A title the server would refuse is refused at the prompt, which stays open to fix it.
    app.keys("Ship it").await;
    alt(&mut app, 's').await;
    app.keys("a").await;
    app.key(KeyCode::Enter).await;
    assert_eq!(status(&app.st), "a snippet needs a title");
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::SnippetTitle));
    app.keys(&"t".repeat(61)).await;
    app.key(KeyCode::Enter).await;
    assert_eq!(status(&app.st), "the title is 61 characters; a snippet's title may have 60");
    let screen = app.screen(80, 24);
    assert!(screen.contains("a snippet's title may have 60"), "{screen}");
    app.key(KeyCode::Esc).await;
    assert_eq!(on_server(&app).len(), 3, "nothing was saved");
    // The server's own refusal: deleted elsewhere while the question was asked.
    let thanks = app.st.data.lists.snippets().unwrap().values().find(|s| s.title == "thanks").unwrap().id;
    select_snippet(&mut app, "thanks").await;
    app.keys("d").await;
    app.other("member").delete_saved_snippet(thanks).await.unwrap();
    app.keys("y").await;
    app.until("refused", |st| status(st).contains("not deleted")).await;
    assert_eq!(status(&app.st), "the snippet \"thanks\" was not deleted: Saved snippet does not exist");
}

/// The member through a rewriting proxy whose register answers carry no saved snippets.
async fn without_snippets_in_register() -> (App, Rewriter) {
    Setup::new("member")
        .start_through(async |s: &DemoServer| {
            let strip: Rule = Box::new(|ex: &Exchange| {
                if !ex.is("POST", "/register") {
                    return None;
                }
                let mut v = ex.json()?;
                v.as_object_mut()?.remove("saved_snippets");
                Some(Reply::Body(200, serde_json::to_vec(&v).ok()?))
            });
            let p = Rewriter::start(&s.url, vec![strip]).await;
            let url = p.url.clone();
            (p, url)
        })
        .await
}

#[tokio::test]
async fn without_them_in_register_they_are_asked_for_and_failures_are_said() {
    let (mut app, proxy) = without_snippets_in_register().await;
    assert!(app.st.data.lists.snippets().is_none(), "register brought none");
    app.other("member").create_saved_snippet("thanks", "Thank you!").await.unwrap();
    // A garbled answer: said, with how to ask again; the popup closes.
    proxy.arm(Box::new(|ex: &Exchange| {
        ex.is("GET", "/saved_snippets").then(|| Reply::Body(200, b"<html>oops</html>".to_vec()))
    }));
    app.palette("snippets").await;
    app.until("the failure", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    assert_eq!(status(&app.st), "saved snippets: garbled answer from the server (:snippets retries)");
    assert!(app.st.ui.popup.is_none());
    let last = app.screen(80, 24).lines().last().unwrap().to_owned();
    assert!(last.contains("saved snippets: garbled answer"), "{last}");
    // Asked again: listed.
    app.palette("snippets").await;
    app.until("the list", |st| known(st) == 1).await;
    assert!(app.screen(80, 24).contains("Thank you!"));
    app.key(KeyCode::Esc).await;
    // Saving fails on the way: said, the compose text kept.
    in_a_topic(&mut app).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("Ship it").await;
    proxy.arm(Box::new(|ex: &Exchange| {
        ex.is("POST", "/saved_snippets").then(|| Reply::Body(502, b"<h1>502 Bad Gateway</h1>".to_vec()))
    }));
    alt(&mut app, 's').await;
    app.keys("a").await;
    app.keys("ship").await;
    app.key(KeyCode::Enter).await;
    app.until("the failure", |st| status(st).contains("not saved")).await;
    assert_eq!(status(&app.st), "the snippet \"ship\" was not saved: server unavailable");
    assert_eq!(app.st.ui.compose.as_ref().unwrap().text(), "Ship it");
}

#[tokio::test]
async fn a_server_older_than_snippets_is_said_to_have_none() {
    let mut app = App::start_at_level("member", topicterm::api::levels::SAVED_SNIPPETS - 1).await;
    assert!(app.st.data.lists.snippets().is_none(), "its register has none");
    app.palette("snippets").await;
    app.until("the refusal", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    assert_eq!(
        status(&app.st),
        "this server does not offer saved snippets: it needs Zulip 10.0 or later (feature level 297; this server is at 296)"
    );
    assert!(app.st.ui.popup.is_none());
    assert!(app.screen(80, 24).contains("does not offer saved snippets"));
}
