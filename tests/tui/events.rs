//! Events from other people's actions reach the store and the screens: saved views, code
//! playgrounds, archived channels.

use crate::harness::App;
use crossterm::event::KeyCode;
use reqwest::Method;
use topicterm::api::{Client, Params};
use topicterm::app::{Narrow, Popup};

fn admin(app: &App) -> Client {
    Client::new(&app.server.credentials("admin").unwrap()).unwrap()
}

#[tokio::test]
async fn saved_views_follow_changes_made_elsewhere() {
    let mut app = App::start("member").await;
    let views = &app.st.data.nav_views;
    assert!(views.iter().any(|v| v.name.as_deref() == Some("Release") && v.is_pinned), "{views:?}");
    let fragment = "narrow/channel/support/is/followed";
    app.client.update_navigation_view(fragment, Some(true), Some("Support, followed")).await.unwrap();
    app.settle().await;
    let v = app.st.data.nav_views.iter().find(|v| v.fragment == fragment).unwrap();
    assert!(v.is_pinned);
    assert_eq!(v.name.as_deref(), Some("Support, followed"));
}

#[tokio::test]
async fn a_new_playground_links_matching_code_blocks_in_message_info() {
    let mut app = App::start("member").await;
    admin(&app)
        .add_playground("Python tutor", "python", "https://tutor.example/run?code={code}")
        .await
        .unwrap();
    app.settle().await;
    assert!(app.st.data.playgrounds.iter().any(|p| p.name == "Python tutor"));
    let id = app
        .st
        .data
        .messages
        .values()
        .find(|m| {
            m.content.contains("data-code-language=\"Python\"")
                || m.content.contains("data-code-language=\"python\"")
        })
        .map(|m| m.id);
    let id = match id {
        Some(id) => id,
        None => {
            // Not in the loaded window: search for it.
            app.key(KeyCode::Char('/')).await;
            app.keys("has:code python").await;
            app.key(KeyCode::Enter).await;
            let found =
                app.st.data.messages.values().find(|m| m.content.contains("data-code-language=\"Python\""));
            found.expect("a python code block in the demo org").id
        }
    };
    app.st.ui.selected = Some(id);
    app.st.ui.popup = Some(Popup::MessageInfo { message_id: id, scroll: 0 });
    let screen = app.screen(160, 48);
    assert!(screen.contains("Code playgrounds"), "{screen}");
    assert!(
        screen.contains("in Python tutor:") && screen.contains("https://tutor.example/run?code="),
        "{screen}"
    );
}

#[tokio::test]
async fn an_archived_channel_leaves_the_sidebar() {
    let mut app = App::start("member").await;
    let design = app.channel_id("design");
    app.open(Narrow::Channel(design)).await;
    let resp = admin(&app)
        .raw(Method::DELETE, &format!("/streams/{design}"), Params::new(), std::time::Duration::from_secs(10))
        .await;
    assert!(resp.is_ok(), "{resp:?}");
    app.settle().await;
    assert!(!app.st.data.channels.contains_key(&design));
    let screen = app.screen(100, 24);
    assert!(!screen.contains("#design"), "{screen}");
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.text.contains("archived")), "{:?}", app.st.ui.status);
}
