//! `--low-bandwidth` (issue 39): smaller first pages, no typing notifications sent, neither
//! others' presence nor typing fetched, pictures only when asked for — each compared with the
//! same steps in the default mode, through the whole app against the demo server.

use crate::harness::{App, Setup};
use crate::rewriter::Rewriter;
use crossterm::event::KeyCode;
use topicterm::api::OutgoingMessage;
use topicterm::app::{Effect, Narrow, Popup};

/// The app as `member`, through a proxy that counts requests; low-bandwidth or not.
async fn start(low: bool) -> (App, Rewriter) {
    let setup = if low { Setup::new("member").low_bandwidth() } else { Setup::new("member") };
    setup
        .start_through(async |s| {
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await
}

/// What each mode spends: (messages in the first view, presence dots drawn, typing
/// notifications sent while replying, after a presence ping).
async fn steps(low: bool) -> (usize, bool, usize, bool) {
    let (mut app, proxy) = start(low).await;
    let first = app.st.data.views.get(&app.st.ui.narrow).map_or(0, |v| v.ids().len());
    let screen = app.screen(100, 30);
    // Presence not fetched is said as such (`·`), never as offline (`○`).
    let dots = screen.contains("● Alice Okafor") || screen.contains("○ Alice Okafor");
    assert_eq!(screen.contains("· Alice Okafor"), low, "{screen}");
    let general = app.channel_id("general");
    app.open(Narrow::Topic(general, "typing".into())).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("a reply typed on a train").await;
    app.settle().await;
    let typing = proxy.seen("POST", "/typing");
    app.key(KeyCode::Esc).await;
    app.run(vec![Effect::Ping { active: true, last_update_id: -1 }]);
    app.settle().await;
    let dots_after_ping = app.screen(100, 30).contains("● Alice Okafor");
    (first, dots, typing, dots_after_ping)
}

#[tokio::test]
async fn low_bandwidth_asks_smaller_pages_and_neither_sends_typing_nor_fetches_presence() {
    let (first, dots, typing, pinged) = steps(false).await;
    assert!(first > 31 && dots && typing > 0 && pinged, "the default: {:?}", (first, dots, typing, pinged));
    let (first, dots, typing, pinged) = steps(true).await;
    assert!((1..=31).contains(&first), "15 each side of the first unread: {first}");
    assert!(!dots, "others' presence is not fetched, and not shown as offline");
    assert_eq!(typing, 0, "no typing notification is sent");
    assert!(!pinged, "a presence ping asks for nobody's presence");
}

#[tokio::test]
async fn low_bandwidth_fetches_a_picture_only_when_asked_for() {
    let mut app = Setup::new("member").low_bandwidth().start().await;
    let bob = app.other("bob");
    let mut png = std::io::Cursor::new(Vec::new());
    let img = image::RgbImage::from_pixel(40, 30, image::Rgb([200, 120, 40]));
    image::DynamicImage::ImageRgb8(img).write_to(&mut png, image::ImageFormat::Png).unwrap();
    let png = png.into_inner();
    let len = png.len() as u64;
    let up = bob.upload_file("cat.png", len, png.into()).await.unwrap();
    let general = app.channel_id("general");
    let text = format!("a picture:\n[cat.png]({})", up.url);
    bob.send_message(&OutgoingMessage::channel(general, "pictures", &text)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "pictures".into())).await;
    let screen = app.screen(100, 30);
    assert!(screen.contains("picture not fetched (low bandwidth): I shows it"), "{screen}");
    app.settle().await;
    let fetched = |app: &App| app.server.recent_requests().iter().any(|r| r == &format!("GET {}", up.url));
    assert!(!fetched(&app), "not fetched until asked for");
    app.key(KeyCode::Char('I')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Image { .. })));
    app.screen(100, 30);
    app.until("the picture", |st| st.images.get(&up.url).is_some()).await;
    app.settle().await;
    assert!(fetched(&app), "asked for with I: fetched");
}
