//! The compose box's preview (alt+p) through the whole app against the demo server: the
//! server's rendering drawn by the messages' content renderer in place of the editor, a line
//! saying what it is; any key that edits (or alt+p, or esc) goes back to the text and cursor as
//! they were; the send key sends; a failed render is said and the text kept.

use crate::harness::*;
use crate::rewriter::{Exchange, Reply, Rewriter};
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{Msg, Narrow, State};

async fn alt_p(app: &mut App) {
    app.send(Msg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::ALT))).await;
}

fn previewing(st: &State) -> bool {
    st.ui.compose.as_ref().is_some_and(|c| c.preview.is_some())
}

fn rendered(st: &State) -> bool {
    st.ui.compose.as_ref().and_then(|c| c.preview.as_ref()).is_some_and(|p| p.html.is_some())
}

fn text_and_cursor(st: &State) -> (String, (usize, usize)) {
    let c = st.ui.compose.as_ref().expect("the compose box");
    (c.text(), c.editor.cursor())
}

/// The member behind a rewriting proxy, replying in #general > preview.
async fn composing() -> (App, Rewriter) {
    let (mut app, proxy) = crate::failures::behind_rewriter().await;
    let general = app.channel_id("general");
    let m = OutgoingMessage::channel(general, "preview", "what does it look like?");
    let id = app.other("alice").send_message(&m).await.unwrap().id;
    app.open(Narrow::Topic(general, "preview".into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    app.key(KeyCode::Char('r')).await;
    (app, proxy)
}

#[tokio::test]
async fn the_preview_is_the_servers_rendering_and_any_edit_goes_back_to_the_text() {
    let (mut app, _proxy) = composing().await;
    app.keys("**Bold** move, `code` and a list:").await;
    app.key(KeyCode::Enter).await;
    app.keys("- one").await;
    app.key(KeyCode::Enter).await;
    app.keys("- two").await;
    // The cursor somewhere in the middle: it comes back there.
    app.key(KeyCode::Up).await;
    app.key(KeyCode::Left).await;
    let before = text_and_cursor(&app.st);
    alt_p(&mut app).await;
    app.until("the rendering", rendered).await;
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("preview_80x24", screen);
    assert!(screen.contains("Preview — alt+p, esc or typing: back to the text; ctrl+d sends"), "{screen}");
    assert!(screen.contains("Bold move, code and a list:") && !screen.contains("**Bold**"), "{screen}");
    insta::assert_snapshot!("preview_160x48", app.screen(160, 48));
    // A key that edits goes back to the editor and does nothing more.
    app.keys("x").await;
    assert!(!previewing(&app.st));
    assert_eq!(text_and_cursor(&app.st), before, "text and cursor as they were");
    assert!(app.screen(80, 24).contains("**Bold**"), "the editor is back");
    // alt+p again, and esc: back too; the compose box stays open.
    alt_p(&mut app).await;
    app.until("the rendering", rendered).await;
    alt_p(&mut app).await;
    assert!(!previewing(&app.st));
    alt_p(&mut app).await;
    app.key(KeyCode::Esc).await;
    assert!(!previewing(&app.st) && app.st.ui.compose.is_some());
    assert_eq!(text_and_cursor(&app.st), before);
    // A paste goes into the text (the preview goes first).
    alt_p(&mut app).await;
    app.send(Msg::Paste("!".into())).await;
    assert!(!previewing(&app.st));
    assert!(text_and_cursor(&app.st).0.contains("- on!e"), "at the cursor: {:?}", text_and_cursor(&app.st));
    // The send key sends from the preview: the text as written.
    alt_p(&mut app).await;
    app.until("the rendering", rendered).await;
    app.ctrl('d').await;
    app.until("sent", |st| st.ui.compose.is_none() && st.outbox.is_empty()).await;
    let sent = app.server.shared.lock().messages.values().any(|m| m.content.contains("- on!e\n- two"));
    assert!(sent, "the message reached the server");
}

#[tokio::test]
async fn a_failed_render_is_said_and_the_text_kept() {
    let (mut app, proxy) = composing().await;
    alt_p(&mut app).await;
    assert_eq!(
        app.st.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("nothing to preview: the compose box is empty")
    );
    assert!(!previewing(&app.st));
    app.keys("a _draft_ worth keeping").await;
    let before = text_and_cursor(&app.st);
    proxy.arm(Box::new(|ex: &Exchange| {
        ex.is("POST", "/messages/render").then(|| Reply::Body(502, b"<h1>502 Bad Gateway</h1>".to_vec()))
    }));
    alt_p(&mut app).await;
    app.until("the failure", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    assert_eq!(
        app.st.ui.status.as_ref().unwrap().text,
        "no preview: server unavailable (alt+p retries); the text is as you left it"
    );
    assert!(!previewing(&app.st));
    assert_eq!(text_and_cursor(&app.st), before);
    let screen = app.screen(80, 24);
    assert!(screen.contains("a _draft_ worth keeping") && screen.contains("no preview: server"), "{screen}");
    // A text too long for a message: said before the server is asked.
    let max = app.st.data.realm.limits.max_message_length.unwrap();
    app.send(Msg::Paste("x".repeat(max))).await;
    alt_p(&mut app).await;
    app.until("the refusal", |st| st.ui.status.as_ref().is_some_and(|s| s.text.contains("allows"))).await;
    let said = app.st.ui.status.as_ref().unwrap().text.clone();
    assert!(
        said.starts_with("no preview: message is ") && said.ends_with("the text is as you left it"),
        "{said}"
    );
}

#[tokio::test]
async fn an_answer_for_an_older_text_is_not_shown() {
    let (mut app, _proxy) = composing().await;
    app.keys("old").await;
    // The preview is asked for, then (before the answer) the user goes back and changes the
    // text, and asks again.
    app.apply(Msg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::ALT)));
    app.apply(Msg::Key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE)));
    app.apply(Msg::Key(KeyEvent::new(KeyCode::Char('!'), KeyModifiers::NONE)));
    app.apply(Msg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::ALT)));
    app.settle().await;
    let p = app.st.ui.compose.as_ref().and_then(|c| c.preview.clone()).expect("the preview");
    assert_eq!(p.text, "old!");
    assert_eq!(p.html.as_deref(), Some("<p>old!</p>"));
}

#[tokio::test]
async fn a_long_preview_scrolls_no_further_than_its_end() {
    let (mut app, _proxy) = composing().await;
    for n in 1..=6 {
        app.keys(&format!("paragraph {n}")).await;
        app.key(KeyCode::Enter).await;
        app.key(KeyCode::Enter).await;
    }
    alt_p(&mut app).await;
    app.until("the rendering", rendered).await;
    let body = |app: &mut App| {
        let s = app.screen(80, 24);
        s.lines()
            .filter(|l| l.contains("paragraph"))
            .map(|l| l.trim_matches('│').trim().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&mut app), ["paragraph 1", "paragraph 2"], "four rows: two paragraphs and their gaps");
    app.key(KeyCode::Down).await;
    app.key(KeyCode::Down).await;
    assert_eq!(body(&mut app), ["paragraph 2", "paragraph 3"]);
    // The end: the last paragraph at the bottom, however far the keys go.
    for _ in 0..5 {
        app.key(KeyCode::PageDown).await;
        body(&mut app);
    }
    assert_eq!(body(&mut app).last().map(String::as_str), Some("paragraph 6"));
    app.key(KeyCode::Up).await;
    assert!(previewing(&app.st), "scrolling does not leave the preview");
    app.key(KeyCode::PageUp).await;
    app.key(KeyCode::PageUp).await;
    app.key(KeyCode::PageUp).await;
    assert_eq!(body(&mut app).first().map(String::as_str), Some("paragraph 1"));
}
