//! The screen-reader mode's popups (issue 39): each popup opened with its real keys against the
//! demo server reads as rows of words — a heading saying what it is, one row per item, no
//! box-drawing character and none of the default view's marks (✓, ◆, arrows, bullets) — with
//! the terminal's cursor on the selected row (the first row of text in a popup that scrolls),
//! following the selection, and a move repainting only the two rows whose selection changed.

use crate::harness::*;
use crate::screen_reader::{assert_plain, changed_rows, flat, reader, reversed_rows, row};
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, Popup, SidebarRow, State};

/// The marks the default popups draw that say nothing to a screen reader (or say "black
/// circle"): none is on screen in this mode.
const MARKS: &[char] = &['✓', '◆', '◇', '★', '→', '←', '↑', '↓', '·', '▸', '▾', '⚑', '✕', '●', '○', '🔒'];

/// Plain words: no box drawing, none of the default marks.
fn assert_words(screen: &str, what: &str) {
    assert_plain(screen, what);
    if let Some(c) = MARKS.iter().find(|c| screen.contains(**c)) {
        panic!("{what}: the mark {c:?} is on screen:\n{screen}");
    }
}

/// A frame's rows as text.
fn text_of(buf: &Buffer) -> String {
    (0..buf.area.height).map(|y| row(buf, y)).collect::<Vec<_>>().join("\n")
}

/// A frame of a list popup: the cursor shown at the start of its one selected row; that row.
fn on_selection(app: &mut App, (w, h): (u16, u16), what: &str) -> (Buffer, u16) {
    let (buf, cursor) = app.frame(w, h);
    let (x, y) = cursor.unwrap_or_else(|| panic!("{what}: no cursor"));
    assert_eq!(
        (x, reversed_rows(&buf)),
        (0, vec![y]),
        "{what}: the cursor is on the selected row:\n{}",
        text_of(&buf)
    );
    (buf, y)
}

/// Press `key` in a list popup: the cursor goes to the newly selected row, and only the rows
/// that were and are selected change (the status row aside). The new row.
async fn moves(app: &mut App, key: KeyCode, size: (u16, u16), what: &str) -> u16 {
    let (before, from) = on_selection(app, size, what);
    app.key(key).await;
    let (after, to) = on_selection(app, size, &format!("{what} after {key:?}"));
    assert_ne!(from, to, "{what}: {key:?} moved the selection:\n{}", text_of(&after));
    let changed: Vec<u16> = changed_rows(&before, &after).into_iter().filter(|y| *y != size.1 - 1).collect();
    let mut want = vec![from, to];
    want.sort();
    assert_eq!(changed, want, "{what}: {key:?} repainted more than the two rows:\n{}", text_of(&after));
    to
}

/// A popup that scrolls: the cursor at the start of its first row of text, under the heading
/// (which wraps where it is wider than the screen: it ends saying how to close the popup).
fn on_first_text_row(app: &mut App, size: (u16, u16), what: &str) -> Buffer {
    let (buf, cursor) = app.frame(size.0, size.1);
    let below = (0..buf.area.height).find(|y| row(&buf, *y).ends_with("esc closes")).map_or(1, |y| y + 1);
    assert_eq!(cursor, Some((0, below)), "{what}: the cursor on the first row of text:\n{}", text_of(&buf));
    assert!(reversed_rows(&buf).is_empty(), "{what}: nothing is selected in a text");
    buf
}

#[tokio::test]
async fn scheduled_messages_read_as_rows_of_words_and_the_cursor_follows_the_selection() {
    let mut app = reader().await;
    app.palette("scheduled").await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Scheduled { .. })));
    let screen = app.screen(100, 30);
    insta::assert_snapshot!("reader_scheduled_100x30", screen);
    assert_words(&screen, "scheduled messages");
    assert!(screen.starts_with("Scheduled messages, 3: e edits, d deletes, esc closes\n"), "{screen}");
    // The failed one is due first: where to, when, failed, the text.
    assert!(screen.contains("\nto channel support topic SSO login loop for Acme, "), "{screen}");
    // Each wraps whole: nothing of it is cut at the screen's width.
    assert!(screen.contains(", failed, text: Here's the\nparagraph for Acme"), "{screen}");
    assert!(screen.contains("\nto channel engineering topic release 2.4 planning, "), "{screen}");
    assert!(screen.contains("\nDM to Alice Okafor, "), "{screen}");
    assert_eq!(moves(&mut app, KeyCode::Char('j'), (100, 30), "scheduled").await, 4);
    assert_eq!(moves(&mut app, KeyCode::Char('j'), (100, 30), "scheduled").await, 7);
    assert_eq!(moves(&mut app, KeyCode::Char('k'), (100, 30), "scheduled").await, 4);
}

#[tokio::test]
async fn the_emoji_picker_says_each_match_by_name_with_its_place() {
    let mut app = reader().await;
    app.key(KeyCode::Char('E')).await;
    app.keys("smil").await;
    let Some(Popup::Emoji { matches, .. }) = &app.st.ui.popup else { panic!("no picker") };
    let n = matches.len();
    assert!(n > 2, "{n} matches");
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("reader_emoji_80x24", screen);
    assert_words(&screen, "the emoji picker");
    assert!(screen.starts_with(&format!("Emoji picker: search smil, {n} matches; ")), "{screen}");
    assert!(row(&app.buffer(80, 24), 1).ends_with(&format!(", 1 of {n}")), "{screen}");
    let y = moves(&mut app, KeyCode::Down, (80, 24), "emoji").await;
    assert!(row(&app.buffer(80, 24), y).ends_with(&format!(", 2 of {n}")), "{screen}");
    moves(&mut app, KeyCode::Up, (80, 24), "emoji").await;
    // A custom emoji says so, not ◆; one the user reacted with says so, not ✓.
    app.ctrl('u').await;
    app.keys("partyp").await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("\npartyparrot, custom, 1 of 1"), "{screen}");
    // React with tada (enter), and the picker says so when opened again.
    app.ctrl('u').await;
    app.keys("tada").await;
    app.key(KeyCode::Enter).await;
    let (id, me) = (app.st.ui.selected.expect("a selection"), app.st.data.me);
    app.until("the reaction", move |st| {
        st.data.messages[&id].reactions().iter().any(|r| r.user_id == me && r.emoji_name == "tada")
    })
    .await;
    app.key(KeyCode::Char('E')).await;
    app.keys("tada").await;
    let screen = app.screen(80, 24);
    assert_words(&screen, "the emoji picker");
    assert!(screen.contains("\ntada, you reacted, 1 of "), "{screen}");
    app.ctrl('u').await;
    app.keys("nosuchemojiatall").await;
    let (buf, cursor) = app.frame(80, 24);
    assert_eq!(row(&buf, 0), "Emoji picker: search nosuchemojiatall, no emoji match; esc closes");
    assert_eq!(cursor, Some((0, 0)), "the cursor on the one sentence");
}

#[tokio::test]
async fn edit_history_reads_each_version_in_words_and_scrolls_with_the_keys() {
    let mut app = reader().await;
    let id = {
        let org = app.server.shared.lock();
        org.messages.values().find(|m| m.edits.len() >= 3).map(|m| m.id).expect("edited message")
    };
    let m = app.client.get_message(id, true).await.unwrap().message;
    app.st.data.insert_message(m);
    app.st.ui.selected = Some(id);
    app.key(KeyCode::Char('H')).await;
    app.until("the history", |st| {
        matches!(&st.ui.popup, Some(Popup::EditHistory { snapshots: Some(_), .. }))
    })
    .await;
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("reader_history_80x24", screen);
    assert_words(&screen, "the edit history");
    let text = flat(&screen);
    assert!(text.starts_with("Edit history of message by "), "{screen}");
    assert!(text.contains(" versions: j and k scroll, esc closes"), "{screen}");
    assert!(text.contains("version 1 of 4, "), "{screen}");
    assert!(text.contains(": the original; text: "), "{screen}");
    assert!(
        text.contains(": topic changed from release 2.4 planning to staging certificate expiry"),
        "{screen}"
    );
    assert!(text.contains(": removed: erors sinc; added: errors since; text: "), "{screen}");
    assert!(text.contains("version 4 of 4, "), "{screen}");
    // Short of room it scrolls: j brings the next row up, the cursor stays on the first.
    let before = on_first_text_row(&mut app, (60, 6), "the history");
    app.key(KeyCode::Char('j')).await;
    let after = on_first_text_row(&mut app, (60, 6), "the history after j");
    // At 60 columns the heading takes two rows (it wraps rather than losing "esc closes").
    assert_eq!(row(&before, 1), "scroll, esc closes");
    assert_eq!(row(&after, 2), row(&before, 3), "j scrolled a row");
    assert_eq!((row(&after, 0), row(&after, 1)), (row(&before, 0), row(&before, 1)), "the heading stays");
}

#[tokio::test]
async fn message_info_profile_channel_info_and_help_are_labelled_words() {
    let mut app = reader().await;
    crate::screens::select_a_reacted_message_with_a_link(&mut app).await;
    app.key(KeyCode::Char('i')).await;
    let screen = app.screen(100, 40);
    assert_words(&screen, "message info");
    assert!(screen.starts_with("Message info: j and k scroll, esc closes\nFrom: "), "{screen}");
    assert!(screen.contains("\nWhere: channel "), "{screen}");
    assert!(screen.contains("\nlink 1: "), "{screen}");
    assert!(screen.contains("\nreaction ") && screen.contains(" by "), "{screen}");
    on_first_text_row(&mut app, (100, 40), "message info");
    app.key(KeyCode::Esc).await;

    // The sender's profile: facts as label and value, presence a word.
    app.key(KeyCode::Char('u')).await;
    app.until("the profile", |st| matches!(&st.ui.popup, Some(Popup::Profile { details: Some(_), .. })))
        .await;
    let screen = app.screen(100, 30);
    assert_words(&screen, "a profile");
    assert!(screen.starts_with("Profile of "), "{screen}");
    assert!(screen.contains("\nEmail: ") && screen.contains("\nRole: "), "{screen}");
    assert!(
        ["active", "idle", "offline"].iter().any(|w| screen.contains(&format!("\nPresence: {w}"))),
        "{screen}"
    );
    on_first_text_row(&mut app, (100, 30), "a profile");
    app.key(KeyCode::Esc).await;

    // A channel's info, from the channels pane.
    app.key(KeyCode::Char('h')).await;
    let general = app.channel_id("general");
    let at = app.sidebar_row(|r| *r == SidebarRow::Channel(general));
    while app.st.ui.sidebar.selected_index() != at {
        let key = if app.st.ui.sidebar.selected_index() < at { 'j' } else { 'k' };
        app.key(KeyCode::Char(key)).await;
    }
    app.key(KeyCode::Char('i')).await;
    let loaded = |st: &State| {
        matches!(&st.ui.popup, Some(Popup::ChannelInfo { details: Some(_), email: Some(_), .. }))
    };
    app.until("the channel's details", loaded).await;
    let screen = app.screen(100, 30);
    // The channel's email has a token the server makes up.
    let token = screen.split("Email: general.").nth(1).and_then(|r| r.split('@').next()).expect("the email");
    insta::assert_snapshot!("reader_channel_info_100x30", screen.replace(token, "TOKEN"));
    assert_words(&screen, "channel info");
    assert!(screen.starts_with("Channel info of channel general: j and k scroll, esc closes\n"), "{screen}");
    assert!(screen.contains("\nchannel general, public\n"), "{screen}");
    assert!(screen.contains("\nSubscribers: ") && screen.contains("\nWho may post: "), "{screen}");
    assert!(screen.contains("\nmuted: no, key m\n"), "{screen}");
    on_first_text_row(&mut app, (100, 30), "channel info");
    app.key(KeyCode::Esc).await;

    // The help: keys in words, not arrows.
    app.key(KeyCode::Char('?')).await;
    let screen = app.screen(100, 40);
    assert_words(&screen, "the help");
    assert!(screen.starts_with("Help, keys (esc to close) of the channels pane"), "{screen}");
    assert!(screen.contains("\nk or up: move up\n"), "{screen}");
}

#[tokio::test]
async fn reminders_uploads_and_snippets_read_as_rows_of_words() {
    let mut app = reader().await;
    // No reminder yet: one sentence, the cursor on it.
    app.palette("reminders").await;
    app.until("the reminders", |st| st.data.lists.reminders().is_some()).await;
    let (buf, cursor) = app.frame(100, 30);
    assert!(row(&buf, 0).starts_with("Reminders: none; select a message, then :remind"), "{}", row(&buf, 0));
    assert_eq!(cursor, Some((0, 0)));
    app.key(KeyCode::Esc).await;
    // Two reminders on the start message.
    app.palette("remind in 2 hours").await;
    app.palette("remind tomorrow 9:00 call the restaurant").await;
    app.until("both", |st| st.data.lists.reminders().is_some_and(|r| r.len() == 2)).await;
    app.palette("reminders").await;
    let screen = app.screen(100, 30);
    assert_words(&screen, "reminders");
    assert!(screen.starts_with("Reminders, 2: d deletes, esc closes\n"), "{screen}");
    assert!(screen.contains(", note: call the restaurant, text: "), "{screen}");
    assert!(
        screen.contains(", in channel ") || screen.contains(", in a DM with "),
        "where, in words: {screen}"
    );
    assert!(!screen.contains(" > "), "{screen}");
    moves(&mut app, KeyCode::Char('j'), (100, 30), "reminders").await;
    app.key(KeyCode::Esc).await;

    // Uploads: name, size, date, where used; the totals in the heading.
    let me = app.other("member");
    me.upload_file("notes.txt", 3, reqwest::Body::from(b"abc".to_vec())).await.unwrap();
    me.upload_file("deploy.sh", 10, reqwest::Body::from(b"echo hi\n\n\n".to_vec())).await.unwrap();
    app.palette("uploads").await;
    app.until("the uploads", |st| matches!(&st.ui.popup, Some(Popup::Uploads { list: Some(_), .. }))).await;
    let screen = app.screen(100, 30);
    assert_words(&screen, "uploads");
    assert!(
        screen.starts_with("Uploaded files: enter opens, d deletes, esc closes; 2 files, 13 bytes"),
        "{screen}"
    );
    assert!(
        screen.contains("\ndeploy.sh, 10 bytes, uploaded ") && screen.contains(", not used\n"),
        "{screen}"
    );
    // The heading, wider than the screen, takes two rows (its end was cut before).
    assert!(screen.contains("; the organization's uploads:\n13 bytes\n"), "{screen}");
    assert_eq!(moves(&mut app, KeyCode::Char('j'), (100, 30), "uploads").await, 3);
    assert!(row(&app.buffer(100, 30), 3).starts_with("notes.txt, 3 bytes, uploaded "));
    app.key(KeyCode::Esc).await;

    // Saved snippets: the title, then the text on one row.
    me.create_saved_snippet("thanks", "Thank you for the review!").await.unwrap();
    me.create_saved_snippet("standup", "Yesterday: notes.\nToday: the \u{1b}[31mdeploy\u{1b}[0m.")
        .await
        .unwrap();
    app.until("the snippets", |st| st.data.lists.snippets().is_some_and(|s| s.len() == 2)).await;
    app.palette("snippets").await;
    app.until("the snippets shown", |st| {
        matches!(&st.ui.popup, Some(Popup::Snippets { shown: Some(_), .. }))
    })
    .await;
    let screen = app.screen(100, 30);
    assert_words(&screen, "snippets");
    assert!(!screen.contains('\u{1b}'), "no escape from the server reaches the terminal");
    assert!(screen.starts_with("Saved snippets, 2: enter inserts, "), "{screen}");
    assert!(screen.contains("\nthanks: Thank you for the review!"), "{screen}");
    assert!(screen.contains("\nstandup: Yesterday: notes. Today: the "), "{screen}");
    moves(&mut app, KeyCode::Char('j'), (100, 30), "snippets").await;
    // Filtering says so; the arrows move.
    app.keys("/t").await;
    let screen = app.screen(100, 30);
    assert!(screen.starts_with("Saved snippets matching t, 2: type to filter"), "{screen}");
    moves(&mut app, KeyCode::Down, (100, 30), "filtered snippets").await;
}

#[tokio::test]
async fn a_picture_is_said_by_its_name_and_server_not_drawn() {
    let mut app = reader().await;
    let png = {
        let img = image::RgbImage::from_pixel(64, 48, image::Rgb([255, 0, 0]));
        let mut out = std::io::Cursor::new(Vec::new());
        image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    };
    let bob = app.other("bob");
    let mut urls = Vec::new();
    for name in ["red.png", "again.png"] {
        urls.push(bob.upload_file(name, png.len() as u64, png.clone().into()).await.unwrap().url);
    }
    let general = app.channel_id("general");
    let text = format!("two pictures:\n[red.png]({})\n[again.png]({})", urls[0], urls[1]);
    bob.send_message(&OutgoingMessage::channel(general, "pictures", &text)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "pictures".into())).await;
    app.key(KeyCode::Char('I')).await;
    let Some(Popup::Image { srcs, .. }) = &app.st.ui.popup else { panic!("no picture") };
    assert_eq!(srcs.len(), 2);
    app.settle().await;
    let (buf, cursor) = app.frame(80, 24);
    let screen = text_of(&buf);
    assert_words(&screen, "a picture");
    let host = app.st.site.split("://").nth(1).unwrap_or_default().trim_end_matches('/').to_owned();
    assert_eq!(row(&buf, 0), format!("picture 1 of 2: red.png ({host})"), "{screen}");
    assert_eq!(row(&buf, 1), "fetched; the screen-reader mode does not draw pictures", "{screen}");
    assert!(screen.contains("n or j the next picture, p or k the previous, esc closes"), "{screen}");
    assert!(!buf.content.iter().any(|c| matches!(c.bg, Color::Rgb(..))), "no picture in colours:\n{screen}");
    assert_eq!(cursor, Some((0, 0)));
    app.key(KeyCode::Char('n')).await;
    let (buf, cursor) = app.frame(80, 24);
    assert!(row(&buf, 0).starts_with("picture 2 of 2: again.png ("), "{}", text_of(&buf));
    assert_eq!(cursor, Some((0, 0)));
}
