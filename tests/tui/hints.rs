//! Link hints (issue 39): `f` labels the links on screen, typing a label opens it as `o`
//! does; `F` and a label copies its address as `y` copies a message's.

use crate::harness::App;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{self, Effect, Msg, Narrow, Popup};

/// Alice's messages in a topic of their own, shown with the last one selected.
async fn topic_with(texts: &[&str], topic: &str) -> (App, Vec<i64>) {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let mut ids = Vec::new();
    for text in texts {
        ids.push(alice.send_message(&OutgoingMessage::channel(general, topic, text)).await.unwrap().id);
    }
    app.open(Narrow::Topic(general, topic.into())).await;
    app.select(*ids.last().unwrap());
    (app, ids)
}

/// The labels of the session on (label, message, link number), in screen order.
fn labels(app: &App) -> Vec<(String, i64, usize)> {
    match &app.st.ui.popup {
        Some(Popup::Hints(h)) => h.targets.iter().map(|(l, s)| (l.clone(), s.message, s.number)).collect(),
        _ => vec![],
    }
}

/// A key, and the effects it asks for (not run: nothing is opened outside the test).
fn press(app: &mut App, c: char) -> Vec<Effect> {
    app::update(&mut app.st, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)))
}

fn status(app: &App) -> String {
    app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

const TWO_LINKS: &str =
    "read [the docs](https://docs.example/x) and [checklist](/user_uploads/2/ab/release-checklist.txt)";

#[tokio::test]
async fn f_labels_the_links_on_screen_and_a_label_opens_its_link_as_o_does() {
    let (mut app, ids) = topic_with(&["first, no link", TWO_LINKS], "hinted").await;
    app.screen(100, 20);
    app.key(KeyCode::Char('f')).await;
    assert_eq!(labels(&app), vec![("a".into(), ids[1], 1), ("s".into(), ids[1], 2)]);
    assert_eq!(status(&app), "type a link's label to open it (esc: cancel)");
    let screen = app.screen(100, 20);
    insta::assert_snapshot!("hints_labels_100x20", screen);
    // Each label over its link's number, in the text and on its address line.
    assert!(screen.contains("the docs[a] and checklist[s]\n"), "{screen}");
    assert!(screen.contains("  [a] https://docs.example/x"), "{screen}");
    assert!(screen.contains("  [s] /user_uploads/2/ab/release-checklist.txt"), "{screen}");
    // The labels are drawn black on yellow.
    let buf = app.buffer(100, 20);
    let row = (0..20)
        .find(|y| (0..100).map(|x| buf[(x, *y)].symbol()).collect::<String>().contains("docs[a]"))
        .unwrap();
    let at = |x: u16, s: &str| buf[(x, row)].symbol() == s;
    let x = (5..100)
        .find(|x| ["d", "o", "c", "s", "[", "a"].iter().enumerate().all(|(i, s)| at(x - 5 + i as u16, s)));
    let x = x.unwrap();
    assert_eq!(buf[(x, row)].bg, ratatui::style::Color::Yellow);
    // `s`: the upload, downloaded with the user's login as `o 2` does.
    let fx = press(&mut app, 's');
    let site = app.client.site().to_owned();
    let upload = format!("{site}/user_uploads/2/ab/release-checklist.txt");
    assert_eq!(fx, vec![Effect::OpenUrl { url: upload, download: true }]);
    assert!(app.st.ui.popup.is_none(), "the labels go");
    assert_eq!(status(&app), "downloading [s]…");
    // `a`: the web link, to the browser as it is.
    app.key(KeyCode::Char('f')).await;
    let fx = press(&mut app, 'a');
    assert_eq!(fx, vec![Effect::OpenUrl { url: "https://docs.example/x".into(), download: false }]);
    // `o` takes the same path.
    app.key(KeyCode::Char('o')).await;
    let fx = press(&mut app, '1');
    assert!(fx.is_empty(), "o asks which");
    let fx = app::update(&mut app.st, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(fx, vec![Effect::OpenUrl { url: "https://docs.example/x".into(), download: false }]);
}

#[tokio::test]
async fn capital_f_and_a_label_copies_the_links_address() {
    let (mut app, _) = topic_with(&[TWO_LINKS], "copied").await;
    app.screen(100, 20);
    app.key(KeyCode::Char('F')).await;
    assert_eq!(status(&app), "type a link's label to copy its address (esc: cancel)");
    assert_eq!(labels(&app).len(), 2);
    app.key(KeyCode::Char('s')).await;
    let site = app.client.site().to_owned();
    assert_eq!(app.outside.copied, vec![format!("{site}/user_uploads/2/ab/release-checklist.txt")]);
    assert_eq!(status(&app), "the address of [s] copied");
    // Capitals work as the letters.
    app.key(KeyCode::Char('F')).await;
    app.key(KeyCode::Char('A')).await;
    assert_eq!(app.outside.copied.last().map(String::as_str), Some("https://docs.example/x"));
    assert!(app.st.ui.popup.is_none());
}

#[tokio::test]
async fn links_in_a_closed_spoiler_or_a_muted_senders_message_get_no_label() {
    let spoiler =
        "[outside](https://out.example/)\n\n```spoiler plot\n[secret](https://secret.example/)\n```";
    let (mut app, ids) = topic_with(&["[muted](https://muted.example/)", spoiler], "spoiled").await;
    let alice = app.st.data.messages[&ids[0]].sender_id();
    app.client.mute_user(alice).await.unwrap();
    app.until("alice muted", move |st| st.data.users.is_muted(alice)).await;
    app.st.ui.revealed.insert(ids[1]);
    app.screen(100, 20);
    app.key(KeyCode::Char('f')).await;
    assert_eq!(labels(&app), vec![("a".into(), ids[1], 1)], "only the link outside the spoiler");
    let screen = app.screen(100, 20);
    assert!(!screen.contains("secret") && !screen.contains("muted.example"), "{screen}");
    app.key(KeyCode::Esc).await;
    // Shown, the muted sender's message's link gets one; opened, the spoiler's too.
    app.client.unmute_user(alice).await.unwrap();
    app.until("alice unmuted", move |st| !st.data.users.is_muted(alice)).await;
    app.key(KeyCode::Char('z')).await;
    app.screen(100, 20);
    app.key(KeyCode::Char('f')).await;
    let all = vec![("a".into(), ids[0], 1), ("s".into(), ids[1], 1), ("d".into(), ids[1], 2)];
    assert_eq!(labels(&app), all);
}

#[tokio::test]
async fn esc_or_a_key_no_label_has_cancels() {
    let (mut app, _) = topic_with(&[TWO_LINKS], "cancelled").await;
    let before = app.screen(100, 20);
    app.key(KeyCode::Char('f')).await;
    assert!(app.screen(100, 20).contains("docs[a]"));
    app.key(KeyCode::Esc).await;
    assert!(app.st.ui.popup.is_none());
    assert_eq!(app.st.ui.status, None);
    assert_eq!(app.screen(100, 20), before, "the numbers are back");
    app.key(KeyCode::Char('f')).await;
    let fx = press(&mut app, 'q');
    assert!(fx.is_empty());
    assert!(app.st.ui.popup.is_none());
    assert_eq!(status(&app), "no link is labelled q");
    // Nothing on screen to label: said, no session.
    let (mut app, _) = topic_with(&["no links here"], "plain").await;
    app.screen(100, 20);
    app.key(KeyCode::Char('f')).await;
    assert!(app.st.ui.popup.is_none());
    assert_eq!(status(&app), "no links on screen");
}

#[tokio::test]
async fn only_links_on_screen_are_labelled_two_letters_when_many() {
    let texts: Vec<String> = (0..40).map(|i| format!("link [n{i}](https://n{i}.example/)")).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (mut app, ids) = topic_with(&texts, "many").await;
    let screen = app.draw(100, 48);
    app.key(KeyCode::Char('f')).await;
    let l = labels(&app);
    // Only the messages the frame showed, each once.
    let shown: std::collections::HashSet<i64> = screen.owners.iter().flatten().copied().collect();
    assert!(l.len() > 9 && l.len() < ids.len(), "{} labelled", l.len());
    assert!(l.iter().all(|(_, m, _)| shown.contains(m)), "{l:?}");
    assert!(l.iter().any(|(x, _, _)| x.len() == 2), "{l:?}");
    // Typing a two-letter label: the first letter keeps only the labels starting with it.
    let (label, id, _) = l.iter().find(|(x, _, _)| x.len() == 2).cloned().unwrap();
    let first = label.chars().next().unwrap();
    assert!(press(&mut app, first).is_empty());
    let text = app.screen(100, 48);
    let others = l.iter().filter(|(x, _, _)| !x.starts_with(first)).count();
    assert!(others > 0);
    assert!(text.contains(&format!("link n{}{label}", ids.iter().position(|i| *i == id).unwrap())), "{text}");
    let fx = press(&mut app, label.chars().nth(1).unwrap());
    let n = ids.iter().position(|i| *i == id).unwrap();
    assert_eq!(fx, vec![Effect::OpenUrl { url: format!("https://n{n}.example/"), download: false }]);
}

/// `f` in the channels pane is still the starred messages; `ctrl+f` follows the selected
/// message's topic (`F` did, before link hints took it).
#[tokio::test]
async fn f_elsewhere_is_starred_and_ctrl_f_follows_the_topic() {
    let (mut app, _) = topic_with(&[TWO_LINKS], "to follow").await;
    app.ctrl('f').await;
    app.until("followed", |st| {
        let general = st.data.channels.iter().find(|c| c.name == "general").unwrap().id;
        st.data.policy(general, "to follow") == topicterm::api::VisibilityPolicy::Followed
    })
    .await;
    app.key(KeyCode::Char('h')).await;
    app.key(KeyCode::Char('f')).await;
    assert_eq!(app.st.ui.narrow, Narrow::Starred);
}

/// Issue 50.8: what the page hides (`hidden`, `display: none`, `visibility: hidden`) is not
/// drawn, numbered or labelled: `f` labels only the link the web app shows.
#[tokio::test]
async fn hidden_elements_get_no_link_number_and_no_label() {
    let (mut app, ids) = topic_with(&["[shown](https://shown.example/)"], "concealed").await;
    // What a hostile server could send as the message's HTML.
    let html = "<p><a href=\"https://shown.example/\">shown</a> \
        <span style=\"DISPLAY : none !important\"><a href=\"https://hidden1.example/\">ONE</a></span> \
        <a hidden href=\"https://hidden2.example/\">TWO</a> \
        <span style=\"color: red; visibility:hidden\"><a href=\"https://hidden3.example/\">THREE</a></span> \
        <div class=\"spoiler-block\" hidden><div class=\"spoiler-header\"><p>HEADER</p></div>\
        <div class=\"spoiler-content\"><p><a href=\"https://hidden4.example/\">FOUR</a></p></div></div></p>";
    app.inject(vec![serde_json::json!({
        "id": 900, "type": "update_message", "message_id": ids[0], "message_ids": [ids[0]],
        "rendering_only": true, "rendered_content": html, "flags": [],
    })])
    .await;
    let screen = app.screen(100, 20);
    assert!(screen.contains("shown[1]"), "{screen}");
    for hidden in ["hidden", "ONE", "TWO", "THREE", "FOUR", "HEADER", "Spoiler"] {
        assert!(!screen.contains(hidden), "{hidden}: {screen}");
    }
    app.key(KeyCode::Char('f')).await;
    assert_eq!(labels(&app), vec![("a".into(), ids[0], 1)]);
    // `o` finds only the one link too (the numbers are one answer).
    app.key(KeyCode::Esc).await;
    let fx = press(&mut app, 'o');
    assert_eq!(fx, vec![Effect::OpenUrl { url: "https://shown.example/".into(), download: false }]);
}
