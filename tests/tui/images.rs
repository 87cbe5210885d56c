//! Pictures in messages: an uploaded image drawn in half-blocks under its message (fetched
//! with the user's credentials from their own server), full screen with `I`, never fetched from
//! another server, and not drawn at all with `images = "off"`.

use crate::harness::App;
use ratatui::style::Color;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::KeyCode;
use topicterm::app::settings::ImageMode;
use topicterm::app::{Narrow, Popup};

/// A 160×120 PNG in four quadrants: red, green / blue, white; the top ones 50 pixels high, so
/// that the line between them falls inside a row of half-blocks (`▀` in the snapshots).
fn quadrants() -> Vec<u8> {
    let img = image::RgbImage::from_fn(160, 120, |x, y| match (x < 80, y < 50) {
        (true, true) => image::Rgb([255, 0, 0]),
        (false, true) => image::Rgb([0, 255, 0]),
        (true, false) => image::Rgb([0, 0, 255]),
        (false, false) => image::Rgb([255, 255, 255]),
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// Bob uploads the picture and posts it in #general > pictures; the app opens that topic.
async fn posted_picture(app: &mut App) -> String {
    let bob = app.other("bob");
    let png = quadrants();
    let len = png.len() as u64;
    let up = bob.upload_file("quadrants.png", len, png.into()).await.unwrap();
    let general = app.channel_id("general");
    let text = format!("the build light, as a picture:\n[quadrants.png]({})", up.url);
    bob.send_message(&OutgoingMessage::channel(general, "pictures", &text)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "pictures".into())).await;
    up.url
}

/// The colours of the half-block cells drawn, top to bottom, left to right: (upper, lower) —
/// a cell of one colour is a space with that background.
fn halfblock_colours(buf: &ratatui::buffer::Buffer) -> Vec<(Color, Color)> {
    buf.content
        .iter()
        .filter(|c| matches!(c.bg, Color::Rgb(..)))
        .map(|c| match c.symbol() {
            "▀" => (c.fg, c.bg),
            "▄" => (c.bg, c.fg),
            _ => (c.bg, c.bg),
        })
        .collect()
}

#[tokio::test]
async fn an_uploaded_image_is_drawn_in_half_blocks_under_its_message() {
    let mut app = App::start("member").await;
    let url = posted_picture(&mut app).await;
    // The first frame keeps the rows and asks for the picture; it is fetched in the background.
    let first = app.screen(80, 24);
    assert!(first.contains("[image 1] quadrants.png") && first.contains("loading image…"), "{first}");
    app.settle().await;
    let asked = app.server.recent_requests();
    assert!(asked.iter().any(|r| r == &format!("GET {url}")), "fetched from the own server: {asked:?}");
    insta::assert_snapshot!("image_80x24", app.screen(80, 24));
    insta::assert_snapshot!("image_160x48", app.screen(160, 48));
    // The cells carry the picture's colours: its four quadrants, top to bottom.
    let cells = halfblock_colours(&app.buffer(160, 48));
    assert!(!cells.is_empty(), "half-blocks drawn");
    let rgb = |c: Color| match c {
        Color::Rgb(r, g, b) => (r, g, b),
        other => panic!("not a colour of the picture: {other:?}"),
    };
    let (top, bottom) = (rgb(cells[0].0), rgb(cells.last().unwrap().1));
    assert!(top.0 > 200 && top.1 < 60 && top.2 < 60, "red at the top left: {top:?}");
    assert!(bottom.0 > 200 && bottom.1 > 200 && bottom.2 > 200, "white at the bottom right: {bottom:?}");
    let greens =
        cells.iter().filter(|(u, _)| matches!(u, Color::Rgb(r, g, _) if *g > 200 && *r < 60)).count();
    let blues = cells.iter().filter(|(_, l)| matches!(l, Color::Rgb(r, _, b) if *b > 200 && *r < 60)).count();
    assert!(greens > 0 && blues > 0, "green and blue quadrants too");

    // `I` shows it full screen; Esc goes back.
    app.key(KeyCode::Char('I')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Image { .. })));
    insta::assert_snapshot!("image_full_screen_80x24", app.screen(80, 24));
    // As large as the screen allows, aspect kept: 16×6 cells natural, 59×22 here.
    let full = halfblock_colours(&app.buffer(80, 24));
    assert_eq!(full.len(), 59 * 22, "the whole height of the popup");
    assert_eq!(full.first().map(|c| rgb(c.0)), Some((255, 0, 0)), "red at the top left");
    assert_eq!(full.last().map(|c| rgb(c.1)), Some((255, 255, 255)), "white at the bottom right");
    app.key(KeyCode::Esc).await;
    assert!(app.st.ui.popup.is_none());
}

#[tokio::test]
async fn an_image_on_another_server_is_never_fetched() {
    // Another server, counting every connection made to it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    tokio::spawn(async move {
        while let Ok((_stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
        }
    });
    let mut app = App::start("member").await;
    let bob = app.other("bob");
    let general = app.channel_id("general");
    let text = format!("look:\n[cat.png](http://{other}/user_uploads/cat.png)");
    bob.send_message(&OutgoingMessage::channel(general, "elsewhere", &text)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "elsewhere".into())).await;
    let s = app.screen(100, 30);
    assert!(s.contains("[image 1] cat.png"), "the numbered link stays: {s}");
    assert!(!s.contains("loading image"), "no room kept, nothing asked: {s}");
    // Asked for it full screen: refused, with the reason.
    app.key(KeyCode::Char('I')).await;
    app.settle().await;
    let s = app.screen(100, 30);
    assert!(s.contains("image not shown: on another server: not fetched (o opens the link)"), "{s}");
    // Settled: every task the keys started has answered, and none went there.
    assert_eq!(connections.load(Ordering::SeqCst), 0, "nothing ever went to the other server");
}

#[tokio::test]
async fn with_images_off_only_the_numbered_link_shows() {
    let mut app = App::start("member").await;
    app.st.settings.images = ImageMode::Off;
    posted_picture(&mut app).await;
    let s = app.screen(80, 24);
    assert!(s.contains("[image 1] quadrants.png") && !s.contains("loading image"), "{s}");
    app.settle().await;
    assert!(!app.server.recent_requests().iter().any(|r| r.contains("quadrants")), "not fetched");
    app.key(KeyCode::Char('I')).await;
    assert!(app.st.ui.popup.is_none());
    let said = &app.st.ui.status.as_ref().unwrap().text;
    assert!(said.contains("images are off"), "{said}");
}

/// A file that is not a picture, linked as one: the rows say why nothing is drawn.
#[tokio::test]
async fn a_file_that_is_no_picture_is_said_so_in_its_place() {
    let mut app = App::start("member").await;
    let bob = app.other("bob");
    let text = b"<html>surely not a picture</html>".to_vec();
    let up = bob.upload_file("fake.png", text.len() as u64, text.into()).await.unwrap();
    let general = app.channel_id("general");
    let content = format!("broken:\n[fake.png]({})", up.url);
    bob.send_message(&OutgoingMessage::channel(general, "fakes", &content)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "fakes".into())).await;
    app.screen(100, 30);
    app.settle().await;
    let s = app.screen(100, 30);
    assert!(s.contains("image not shown: not a picture topicterm can show"), "{s}");
}

#[tokio::test]
async fn a_message_without_an_image_says_so() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('I')).await;
    assert!(app.st.ui.popup.is_none());
    assert_eq!(app.st.ui.status.as_ref().unwrap().text, "this message has no image");
}

/// A 64×48 PNG: red above, blue below.
fn small_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(64, 48, |_, y| {
        if y < 24 { image::Rgb([255, 0, 0]) } else { image::Rgb([0, 0, 255]) }
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A small picture takes the rows of its size (64×48 pixels: 6×2 cells of half-blocks) and no
/// more — no blank rows under it, the text going on at once — and its label numbers it as `I`
/// does (the first picture of the message), apart from the links, whose number follows it.
#[tokio::test]
async fn a_small_picture_leaves_no_hole_and_is_numbered_as_i_numbers_it() {
    let mut app = App::start("member").await;
    let bob = app.other("bob");
    let png = small_png();
    let up = bob.upload_file("dot.png", png.len() as u64, png.into()).await.unwrap();
    let general = app.channel_id("general");
    let text = format!(
        "the status light, see https://example.com/status\n[dot.png]({})\n\nafter the picture",
        up.url
    );
    bob.send_message(&OutgoingMessage::channel(general, "small", &text)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "small".into())).await;
    let first = app.screen(80, 24);
    assert!(first.contains("loading image…"), "{first}");
    app.settle().await;
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("small_image_80x24", screen);
    let rows: Vec<&str> = screen.lines().collect();
    let label = rows.iter().position(|r| r.contains("[image 1] dot.png[2]")).expect("the label");
    let after = rows.iter().position(|r| r.contains("after the picture")).expect("the text after it");
    // The picture's two rows, then the blank line between paragraphs.
    assert_eq!(after, label + 4, "no hole under the picture:\n{screen}");
    let buf = app.buffer(80, 24);
    let drawn: Vec<u16> =
        (0..24).filter(|y| (0..80).any(|x| matches!(buf[(x, *y)].bg, Color::Rgb(..)))).collect();
    assert_eq!(drawn, [label as u16 + 1, label as u16 + 2], "two rows of picture under its label");
    let cells = halfblock_colours(&buf);
    assert_eq!(cells.len(), 6 * 2, "6×2 cells");

    app.key(KeyCode::Char('I')).await;
    let popup = app.screen(80, 24);
    assert!(popup.contains("image 1 of 1"), "the number the label says: {popup}");
}

/// A picture whose size the message does not give (here: linked by its full address, which the
/// server does not size) keeps the most rows until it is held, then the rows of its size — the
/// layout changes once, and the selected message below it stays where it was on screen.
#[tokio::test]
async fn a_picture_of_unknown_size_takes_its_rows_once_held_the_selection_staying_in_place() {
    let mut app = App::start("member").await;
    let bob = app.other("bob");
    let png = small_png();
    let up = bob.upload_file("dot.png", png.len() as u64, png.into()).await.unwrap();
    let general = app.channel_id("general");
    let send = |text: String| {
        let bob = bob.clone();
        async move { bob.send_message(&OutgoingMessage::channel(general, "unsized", &text)).await.unwrap() }
    };
    for i in 0..12 {
        send(format!("filler {i}")).await;
    }
    send(format!("[dot.png]({}{})\n\nafter the picture", app.client.site(), up.url)).await;
    send("the message after".into()).await;
    app.settle().await;
    app.open(Narrow::Topic(general, "unsized".into())).await;
    app.key(KeyCode::Char('G')).await;
    let row_of = |s: &str, text: &str| s.lines().position(|r| r.contains(text));
    let before = app.screen(80, 24);
    let (label, after) =
        (row_of(&before, "[image 1] dot.png[1]").unwrap(), row_of(&before, "after the picture").unwrap());
    assert_eq!(after - label, 1 + 6 + 1, "the most rows, while its size is not known:\n{before}");
    app.settle().await;
    let now = app.screen(80, 24);
    let (label_now, after_now) =
        (row_of(&now, "[image 1] dot.png[1]").unwrap(), row_of(&now, "after the picture").unwrap());
    assert_eq!(after_now - label_now, 1 + 2 + 1, "its own two rows once held:\n{now}");
    assert_eq!(
        row_of(&now, "the message after"),
        row_of(&before, "the message after"),
        "the selected message stays in place:\n{before}\n{now}"
    );
}
