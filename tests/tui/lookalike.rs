//! Issue 50.2: a link dressed as an in-app link (`#narrow/…`) on another origin is drawn, read
//! aloud and opened as the web link it is; only the user's own server's links are places here.

use crate::harness::App;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{self, Effect, Msg, Narrow};

/// Alice's message in a topic of its own, opened and selected.
async fn message(app: &mut App, topic: &str, text: &str) -> i64 {
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let id = alice.send_message(&OutgoingMessage::channel(general, topic, text)).await.unwrap().id;
    app.open(Narrow::Topic(general, topic.into())).await;
    app.select(id);
    id
}

fn press(app: &mut App, c: char) -> Vec<Effect> {
    app::update(&mut app.st, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)))
}

fn status(app: &App) -> String {
    app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

#[tokio::test]
async fn a_narrow_link_on_another_origin_shows_its_host_and_opens_as_a_web_link() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let text = format!(
        "see [#general > all-hands questions](https://evil.example/login#narrow/channel/{general}-general/topic/all-hands.20questions)"
    );
    message(&mut app, "lookalike", &text).await;
    let screen = app.screen(100, 20);
    assert!(screen.contains("[1] https://evil.example/login"), "{screen}");
    let fx = press(&mut app, 'o');
    assert_eq!(fx, vec![Effect::OpenUrl { url: "https://evil.example/login".into(), download: false }]);
    assert_eq!(status(&app), "opening [1]…");
    assert_eq!(app.st.ui.narrow, Narrow::Topic(general, "lookalike".into()), "not followed here");
}

#[tokio::test]
async fn a_narrow_link_on_the_users_own_server_is_still_a_place_here() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let site = app.client.site().trim_end_matches('/').to_owned();
    let text = format!("see [there]({site}/#narrow/channel/{general}-general/topic/elsewhere)");
    message(&mut app, "own link", &text).await;
    let screen = app.screen(100, 20);
    assert!(!screen.contains("[1] "), "no address line: {screen}");
    let fx = press(&mut app, 'o');
    assert!(!fx.iter().any(|e| matches!(e, Effect::OpenUrl { .. })), "{fx:?}");
    assert_eq!(status(&app), "[1] opened here");
    assert_eq!(app.st.ui.narrow, Narrow::Topic(general, "elsewhere".into()));
}

#[tokio::test]
async fn the_screen_reader_says_where_each_link_goes_by_the_rule_that_opens_it() {
    let mut app = App::start("member").await;
    app.st.settings.screen_reader = true;
    let site = app.client.site().trim_end_matches('/').to_owned();
    let url = url::Url::parse(&site).unwrap();
    let (host, port) = (url.host_str().unwrap().to_owned(), url.port().unwrap());
    let other = port.wrapping_add(1);
    let text = format!(
        "[a](//{host}:{other}/phish#narrow/channel/9-general) [b](https:{host}:{port}/wiki) \
         [c](https://\u{430}pple.com/) [d](/#narrow/channel/9-general) [e](/help/) \
         [f](mailto:bob@example.com?attach=/etc/passwd)"
    );
    message(&mut app, "where to", &text).await;
    let screen = crate::screen_reader::flat(&app.screen(160, 40));
    for want in [
        format!("link 1: a ({host}:{other})."),
        format!("link 2: b (https://{host}:{port})."),
        "link 3: c (xn--pple-43d.com).".to_owned(),
        "link 4: d (in this organization).".to_owned(),
        "link 5: e (this server).".to_owned(),
        "link 6: f (not opened).".to_owned(),
    ] {
        assert!(screen.contains(&want), "{want} in {screen}");
    }
}
