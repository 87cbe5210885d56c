//! Drafts kept on the server: what is typed here reaches `/drafts`, what other clients write
//! arrives as events, a sent message deletes its draft there too.

use crate::harness::{App, SEED_TIME};
use topicterm::api::Draft;
use topicterm::app::Msg;
use topicterm::app::keys::KeyCode;

async fn server_drafts(app: &App) -> Vec<Draft> {
    app.client.get_drafts().await.expect("drafts").drafts
}

#[tokio::test]
async fn drafts_follow_the_typing_to_the_server_and_back() {
    let mut app = App::start("member").await;
    assert!(app.st.drafts.synced(), "the demo server keeps drafts");
    assert!(server_drafts(&app).await.is_empty());

    // Typing: the first save goes to the server at once.
    app.key(KeyCode::Char('r')).await;
    let target = app.st.ui.compose.as_ref().unwrap().target.clone();
    app.keys("kept on the server").await;
    app.send(Msg::Tick(SEED_TIME + 1)).await;
    let d = server_drafts(&app).await;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].content, "kept on the server");
    let id = d[0].id;
    if let topicterm::app::Target::Channel { id: channel, topic } = &target {
        assert_eq!(
            (d[0].to.as_slice(), d[0].topic.as_str()),
            (std::slice::from_ref(channel), topic.as_str())
        );
    }

    // Still typing: held back a few seconds, then the same draft is updated.
    app.keys(", and more").await;
    app.send(Msg::Tick(SEED_TIME + 2)).await;
    assert_eq!(server_drafts(&app).await[0].content, "kept on the server");
    app.send(Msg::Tick(SEED_TIME + 8)).await;
    let d = server_drafts(&app).await;
    assert_eq!((d.len(), d[0].content.as_str(), d[0].id), (1, "kept on the server, and more", id));

    // Sent: gone from the server too.
    app.ctrl('d').await;
    assert!(app.st.ui.compose.is_none());
    assert!(server_drafts(&app).await.is_empty());
}

#[tokio::test]
async fn a_draft_written_in_another_client_opens_here_and_goes_when_deleted_there() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    // The web app (same account, same server) saves a draft.
    let ids = app
        .client
        .create_drafts(&[Draft::channel(general, "From the web", "written elsewhere")])
        .await
        .unwrap();
    app.settle().await;
    assert_eq!(
        app.st
            .drafts
            .get("channel-{general}-from the web".replace("{general}", &general.to_string()).as_str())
            .map(String::as_str),
        Some("written elsewhere")
    );

    app.key(KeyCode::Char('c')).await;
    app.keys("general>From the web").await;
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("written elsewhere"));
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.text.contains("draft restored")));
    app.key(KeyCode::Esc).await;
    assert_eq!(server_drafts(&app).await.len(), 1, "closing with the same text changes nothing there");

    // Deleted (or sent) in the other client: the copy here goes too.
    app.client.delete_draft(ids[0]).await.unwrap();
    app.settle().await;
    assert!(!app.st.drafts.values().any(|t| t == "written elsewhere"), "{:?}", app.st.drafts);
}

#[tokio::test]
async fn no_sync_when_the_user_turned_it_off() {
    let mut app = App::start("member").await;
    app.client.set_drafts_sync(false).await.unwrap();
    app.send(Msg::QueueLost).await;
    assert!(!app.st.drafts.synced());
    app.key(KeyCode::Char('r')).await;
    app.keys("only on this machine").await;
    app.send(Msg::Tick(SEED_TIME + 1)).await;
    app.key(KeyCode::Esc).await;
    assert!(app.st.drafts.values().any(|t| t == "only on this machine"));
    app.client.set_drafts_sync(true).await.unwrap();
    assert!(server_drafts(&app).await.is_empty(), "nothing was pushed while sync was off");
}

/// `:drafts` lists every draft — one typed here, one the web app wrote — with where each goes;
/// `d` deletes the server's copy too (`DELETE /drafts/{id}`); `enter` opens one in the compose
/// box with its conversation on screen (issue 51.14i).
#[tokio::test]
async fn the_drafts_list_shows_local_and_server_drafts_opens_and_deletes_them() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    app.client.create_drafts(&[Draft::channel(general, "From the web", "written elsewhere")]).await.unwrap();
    app.settle().await;
    app.key(KeyCode::Char('c')).await;
    app.keys("general>Typed here").await;
    app.key(KeyCode::Enter).await;
    app.keys("typed on this machine").await;
    app.key(KeyCode::Esc).await;
    app.settle().await;
    assert_eq!(server_drafts(&app).await.len(), 2, "both on the server");

    app.palette("drafts").await;
    let shown = app.screen(100, 30);
    assert!(shown.contains("Drafts — enter open, d delete"), "{shown}");
    assert!(shown.contains("#general > From the web") && shown.contains("written elsewhere"), "{shown}");
    assert!(shown.contains("#general > Typed here") && shown.contains("typed on this machine"), "{shown}");
    // Read as words in screen-reader mode.
    app.st.settings.screen_reader = true;
    let read = app.screen(100, 30);
    assert!(read.contains("Drafts, 2: enter opens one, d deletes, esc closes"), "{read}");
    assert!(read.contains("#general > From the web, on the server too, text: written elsewhere"), "{read}");
    app.st.settings.screen_reader = false;
    // In key order: "from the web" first. `d` asks first; anything but y keeps it.
    app.key(KeyCode::Char('d')).await;
    let asked = app.screen(100, 30);
    assert!(
        asked.contains("Delete the draft \"written elsewhere\" here and on the server? (y/N)"),
        "{asked}"
    );
    app.key(KeyCode::Char('n')).await;
    app.settle().await;
    assert_eq!(server_drafts(&app).await.len(), 2, "kept: the user said no");
    assert!(app.screen(100, 30).contains("written elsewhere"));
    // Said yes: it goes, here and on the server.
    app.key(KeyCode::Char('d')).await;
    app.key(KeyCode::Char('y')).await;
    app.settle().await;
    let left = server_drafts(&app).await;
    assert_eq!(left.iter().map(|d| d.content.as_str()).collect::<Vec<_>>(), ["typed on this machine"]);
    let shown = app.screen(100, 30);
    assert!(!shown.contains("written elsewhere") && shown.contains("typed on this machine"), "{shown}");

    app.key(KeyCode::Enter).await;
    app.settle().await;
    assert!(app.st.ui.popup.is_none());
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("typed on this machine"));
    assert_eq!(app.st.ui.narrow, topicterm::app::Narrow::Topic(general, "Typed here".into()));
}
