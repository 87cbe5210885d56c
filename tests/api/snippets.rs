//! Saved snippets and previews through the typed client (`api::snippets`, `render_message`),
//! and the demo server refusing what the reference server refuses (zerver/views/saved_snippets.py:
//! a stripped title of 1 to 60 characters and a stripped text of 1 to `max_message_length`).

use crate::common::*;
use topicterm::api::levels::SAVED_SNIPPETS;
use topicterm::api::*;
use topicterm::server::ServerOptions;

#[tokio::test]
async fn snippets_are_created_listed_registered_and_deleted_by_the_client() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let id = c.create_saved_snippet("  thanks ", "Thank you! :heart:\n").await.unwrap().saved_snippet_id;
    let list = c.get_saved_snippets().await.unwrap().saved_snippets;
    let mine = list.iter().find(|s| s.id == id).expect("listed");
    assert_eq!(
        (mine.title.as_str(), mine.content.as_str()),
        ("thanks", "Thank you! :heart:"),
        "stored stripped"
    );
    let r = c.register(&topicterm::net::register_params()).await.unwrap();
    assert!(r.saved_snippets.unwrap().iter().any(|s| s.id == id), "register carries them");
    c.delete_saved_snippet(id).await.unwrap();
    assert!(c.get_saved_snippets().await.unwrap().saved_snippets.iter().all(|s| s.id != id));
    // Gone already: the server's own words.
    assert_err(c.delete_saved_snippet(id).await, "BAD_REQUEST", "Saved snippet does not exist");
}

#[tokio::test]
async fn the_server_refuses_blank_and_long_titles_and_texts_as_the_reference_does() {
    let env = Env::start().await;
    let max = env.server.shared.lock().realm.max_message_length;
    let long_text = "x".repeat(max + 1);
    let long_title = "é".repeat(61);
    for (title, content, msg) in [
        (" ", "x", "title cannot be blank"),
        ("t", " \n ", "content cannot be blank"),
        (long_title.as_str(), "x", "title is too long (limit: 60 characters)"),
        ("t", long_text.as_str(), &*format!("content is too long (limit: {max} characters)")),
    ] {
        let (status, body) =
            env.raw("member", "POST", "/saved_snippets", &[("title", title), ("content", content)]).await;
        assert_eq!((status, body["msg"].as_str()), (400, Some(msg)), "{body}");
    }
    // Sixty characters (not bytes) are fine, and so is whitespace around a full-length text.
    let sixty = "é".repeat(60);
    let padded = format!("  {}  ", "x".repeat(max));
    let (status, body) =
        env.raw("member", "POST", "/saved_snippets", &[("title", &sixty), ("content", &padded)]).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn the_client_refuses_before_sending_what_the_server_would() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let before = env.requests();
    let long = "t".repeat(61);
    for (title, content, want) in [
        ("", "x", LimitError::SnippetTitleEmpty),
        (long.as_str(), "x", LimitError::SnippetTitleTooLong(61)),
        ("t", "  ", LimitError::EmptyContent),
    ] {
        match c.create_saved_snippet(title, content).await {
            Err(ApiError::Limit(e)) => assert_eq!(e, want),
            other => panic!("{title:?}: {other:?}"),
        }
    }
    assert!(matches!(c.render_message(" ").await, Err(ApiError::Limit(LimitError::EmptyContent))));
    assert_eq!(env.requests(), before, "nothing was sent");
}

#[tokio::test]
async fn saved_snippets_come_with_level_297() {
    for level in [SAVED_SNIPPETS - 1, SAVED_SNIPPETS] {
        let env = Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await;
        let (status, body) = env.raw("member", "GET", "/saved_snippets", &[]).await;
        let c = env.registered_client("member").await;
        let r = c.register(&topicterm::net::register_params()).await.unwrap();
        if level < SAVED_SNIPPETS {
            assert_eq!((status, body["msg"].as_str()), (404, Some("Invalid API endpoint")), "{body}");
            assert!(r.saved_snippets.is_none(), "an older server's register has none");
            let before = env.requests();
            match c.get_saved_snippets().await {
                Err(ApiError::Limit(LimitError::NotOnThisServer { what, version, since, at })) => {
                    assert_eq!((what, version, since, at), ("saved snippets", "Zulip 10.0", 297, 296))
                }
                other => panic!("{other:?}"),
            }
            assert!(c.create_saved_snippet("t", "x").await.is_err());
            assert_eq!(env.requests(), before, "not asked");
        } else {
            assert_eq!(status, 200, "{body}");
            assert_eq!(r.saved_snippets, Some(vec![]));
            assert!(c.create_saved_snippet("t", "x").await.is_ok());
        }
    }
}

#[tokio::test]
async fn a_preview_is_the_servers_rendering() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let r = c.render_message("**bold** and `code`").await.unwrap();
    assert_eq!(r.rendered, "<p><strong>bold</strong> and <code>code</code></p>");
}
