//! A full name with a comma ("Othello, the Moor of Venice", as the server allows) is a recipient
//! like any other: typed bare, quoted or as the `x` prompt's own Tab completion wrote it, and
//! written back by `ctrl+g`; a text that reads both as one name and as several people is refused.

use crate::harness::*;
use topicterm::app::keys::KeyCode;
use topicterm::app::{PromptKind, Target};

const OTHELLO: &str = "Othello, the Moor of Venice";

/// `who` renames themselves, as any member may; the app sees the new name.
async fn rename(app: &mut App, who: &str, name: &'static str) -> i64 {
    let client = app.other(who);
    let id = client.get_own_user().await.unwrap().user_id;
    let _: serde_json::Value = client
        .call(reqwest::Method::PATCH, "/settings", topicterm::api::Params::new().add("full_name", name))
        .await
        .unwrap();
    app.until("the rename", move |st| st.data.user_name(id) == name).await;
    id
}

fn prompt_text(app: &App) -> String {
    app.st.ui.prompt.as_ref().expect("a prompt").text().to_owned()
}

/// The `x` prompt answered with `typed` (after a fresh `x`): the compose box's people.
async fn dm_to(app: &mut App, typed: &str) -> Result<Target, String> {
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('x')).await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::DmRecipients));
    app.keys(typed).await;
    app.key(KeyCode::Enter).await;
    match &app.st.ui.compose {
        Some(c) if app.st.ui.prompt.is_none() => Ok(c.target.clone()),
        _ => Err(app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()),
    }
}

#[tokio::test]
async fn a_name_with_a_comma_is_a_recipient_typed_quoted_or_completed() {
    let mut app = App::start("member").await;
    let alice = rename(&mut app, "alice", OTHELLO).await;
    let bob = app.st.data.users.iter().find(|u| u.full_name == "Bob Nakamura").unwrap().id;
    let me = app.st.data.me;
    let dm = |ids: &[i64]| Target::Dm(topicterm::app::narrow::dm_key(ids, me));
    for typed in [
        "@Othello, the Moor of Venice",
        "othello, the moor of venice",
        "@\"Othello, the Moor of Venice\"",
        "@**Othello, the Moor of Venice**",
    ] {
        assert_eq!(dm_to(&mut app, typed).await, Ok(dm(&[alice])), "{typed}");
    }
    assert_eq!(dm_to(&mut app, "Bob Nakamura, Othello, the Moor of Venice").await, Ok(dm(&[alice, bob])));

    // What Tab writes reads back: the name in quotes, then the next one.
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('x')).await;
    app.keys("othel").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "\"Othello, the Moor of Venice\", ");
    app.keys("bob n").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "\"Othello, the Moor of Venice\", Bob Nakamura, ");
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.target.clone()), Some(dm(&[alice, bob])));

    // ctrl+g writes the people back as the prompt reads them.
    app.keys("hello").await;
    app.ctrl('g').await;
    let written = prompt_text(&app);
    assert!(written.contains("\"Othello, the Moor of Venice\""), "{written}");
    app.key(KeyCode::Enter).await;
    let c = app.st.ui.compose.as_ref().expect("the compose box");
    assert_eq!((c.target.clone(), c.text()), (dm(&[alice, bob]), "hello".to_owned()));
    app.key(KeyCode::Esc).await;

    // Bob and Carol become "Othello" and "the Moor of Venice": the bare text reads two ways.
    rename(&mut app, "bob", "Othello").await;
    let carol = rename(&mut app, "carol", "the Moor of Venice").await;
    let err = dm_to(&mut app, "Othello, the Moor of Venice").await.unwrap_err();
    assert!(err.contains("is one person's name and also a list of people"), "{err}");
    assert_eq!(dm_to(&mut app, "\"Othello, the Moor of Venice\"").await, Ok(dm(&[alice])));
    assert_eq!(dm_to(&mut app, "\"Othello\", \"the Moor of Venice\"").await, Ok(dm(&[bob, carol])));
}
