//! Beyond the screen: notifications, the clipboard, links and attachments, `$EDITOR`.

use crate::harness::App;
use topicterm::api::{Client, OutgoingMessage, VisibilityPolicy};
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;

fn as_user(app: &App, who: &str) -> Client {
    Client::new(&app.server.credentials(who).unwrap()).unwrap()
}

/// The member's client with the user in another window (so messages notify), their ID, and
/// Alice to write to them.
async fn away_from_the_terminal() -> (App, topicterm::api::UserId, Client) {
    let mut app = App::start("member").await;
    let me = app.st.data.me;
    let alice = as_user(&app, "alice");
    app.st.ui.presence.focus_changed(false);
    (app, me, alice)
}

#[tokio::test]
async fn dms_mentions_and_followed_topics_notify_muted_topics_never() {
    let mut app = App::start("member").await;
    let me = app.st.data.me;
    let alice = as_user(&app, "alice");
    let general = app.channel_id("general");
    app.st.ui.presence.focus_changed(false); // the user is in another window
    alice.send_message(&OutgoingMessage::direct(vec![me], "are you there?")).await.unwrap();
    app.settle().await;
    let n = &app.outside.notifications;
    assert_eq!(n.len(), 1, "{n:?}");
    // The organization as the title; who, where and the text as the body.
    let org = app.st.data.realm.name.clone();
    assert!(!org.is_empty());
    assert_eq!(n[0], (org.clone(), "Alice Okafor (direct message): are you there?".to_owned()), "{n:?}");

    // A mention notifies; an ordinary message in an ordinary topic does not.
    let name = app.st.data.user_name(me).to_owned();
    alice
        .send_message(&OutgoingMessage::channel(general, "plans", &format!("@**{name}** look")))
        .await
        .unwrap();
    alice.send_message(&OutgoingMessage::channel(general, "plans", "nothing special")).await.unwrap();
    app.settle().await;
    assert_eq!(app.outside.notifications.len(), 2);
    assert!(app.outside.notifications[1].1.starts_with("Alice Okafor in #general > plans (mention): "));

    // Followed topics notify; muted ones never, not even for a mention.
    app.client.update_user_topic(general, "followed one", VisibilityPolicy::Followed).await.unwrap();
    app.client.update_user_topic(general, "muted one", VisibilityPolicy::Muted).await.unwrap();
    app.settle().await;
    alice.send_message(&OutgoingMessage::channel(general, "followed one", "news")).await.unwrap();
    alice
        .send_message(&OutgoingMessage::channel(general, "muted one", &format!("@**{name}** psst")))
        .await
        .unwrap();
    app.settle().await;
    let bodies: Vec<&str> = app.outside.notifications.iter().map(|(_, b)| b.as_str()).collect();
    assert_eq!(bodies.len(), 3, "{bodies:?}");
    assert!(bodies[2].contains("followed one (followed): news"), "{bodies:?}");

    // The user's own messages never notify.
    app.client.send_message(&OutgoingMessage::direct(vec![as_id(&app, "alice")], "mine")).await.unwrap();
    app.settle().await;
    assert_eq!(app.outside.notifications.len(), 3);
}

/// A click on a notification (as a notification service tells of it) opens its conversation at
/// its message and rings the bell; one no desktop showed rings the bell.
#[tokio::test]
async fn a_clicked_notification_opens_its_conversation_at_its_message() {
    let (mut app, me, alice) = away_from_the_terminal().await;
    let id = alice.send_message(&OutgoingMessage::direct(vec![me], "over here")).await.unwrap().id;
    app.settle().await;
    assert_eq!(app.outside.notifications.len(), 1, "{:?}", app.outside.notifications);
    assert!(!matches!(app.st.ui.narrow, Narrow::Dm(_)), "{:?}", app.st.ui.narrow);
    assert_eq!(app.outside.bells, 1, "the user's enable_sounds: the bell");

    app.outside.click(0);
    app.settle().await;
    assert_eq!(app.st.ui.narrow, Narrow::Dm(vec![as_id(&app, "alice")]));
    assert_eq!(app.st.ui.selected, Some(id));
    assert_eq!(app.outside.bells, 2, "the bell draws the eye to the terminal");
    assert!(app.screen(80, 24).contains("over here"));

    // That one rang with it (the user's sounds are on): no desktop showing it rings nothing
    // more — it rang twice.
    app.apply(topicterm::app::Msg::NotificationUnshown);
    assert_eq!(app.outside.bells, 2, "it rang already");
    // Sounds off in the user's Zulip: a silent notification; none shown, the bell instead.
    as_user(&app, "member")
        .raw(
            reqwest::Method::PATCH,
            "/settings",
            topicterm::api::Params::new().add("enable_sounds", "false"),
            std::time::Duration::from_secs(10),
        )
        .await
        .unwrap();
    app.until("sounds off", |st| st.data.user_settings().enable_sounds == Some(false)).await;
    alice.send_message(&OutgoingMessage::direct(vec![me], "quietly")).await.unwrap();
    app.settle().await;
    assert_eq!((app.outside.notifications.len(), app.outside.bells), (2, 2), "silent");
    app.apply(topicterm::app::Msg::NotificationUnshown);
    assert_eq!(app.outside.bells, 3, "none shown: the bell instead");
}

/// A burst is summed up: twenty direct messages at once show three notifications, and once ten
/// seconds are over one more says how many came after them; its click opens the newest. Every
/// one of them is unread all the same.
#[tokio::test]
async fn twenty_direct_messages_at_once_notify_three_times_then_once_for_the_rest() {
    let (mut app, me, alice) = away_from_the_terminal().await;
    let alice_id = as_id(&app, "alice");
    let conversation = topicterm::app::Conv::Dm(vec![alice_id]);
    let unread_before = app.st.data.unread.count(&conversation);
    let mut newest = 0;
    for i in 1..=20 {
        newest =
            alice.send_message(&OutgoingMessage::direct(vec![me], &format!("ping {i}"))).await.unwrap().id;
    }
    app.until("all twenty arrived", |st| st.data.messages.contains_key(&newest)).await;
    app.settle().await;
    assert_eq!(
        app.st.data.unread.count(&conversation),
        unread_before + 20,
        "nothing lost from the unread state"
    );
    let bodies = |app: &App| app.outside.notifications.iter().map(|(_, b)| b.clone()).collect::<Vec<_>>();
    assert_eq!(
        bodies(&app),
        (1..=3).map(|i| format!("Alice Okafor (direct message): ping {i}")).collect::<Vec<_>>()
    );
    // Not before the ten seconds are over; then once.
    let now = app.st.now;
    app.apply(topicterm::app::Msg::Tick(now + 9));
    assert_eq!(app.outside.notifications.len(), 3);
    app.apply(topicterm::app::Msg::Tick(now + 10));
    app.apply(topicterm::app::Msg::Tick(now + 11));
    assert_eq!(bodies(&app)[3..], ["17 more direct messages from Alice Okafor".to_owned()]);
    let org = app.st.data.realm.name.clone();
    assert_eq!(app.outside.notifications[3].0, org, "the organization as its title");
    app.outside.click(3);
    app.settle().await;
    assert_eq!(app.st.ui.narrow, Narrow::Dm(vec![alice_id]));
    assert_eq!(app.st.ui.selected, Some(newest));
}

fn as_id(app: &App, short: &str) -> i64 {
    let email = app.server.credentials(short).unwrap().email;
    app.st.data.users.iter().find(|u| u.email == email).unwrap().id
}

#[tokio::test]
async fn copy_a_link_to_the_message_and_a_code_block() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    let alice = as_user(&app, "alice");
    let id = alice
        .send_message(&OutgoingMessage::channel(
            general,
            "copy me.now",
            "see:\n```rust\nfn main() {}\n```\nand\n```\nls -l\n```",
        ))
        .await
        .unwrap()
        .id;
    app.open(Narrow::Topic(general, "copy me.now".into())).await;
    app.st.ui.selected = Some(id);
    app.key(KeyCode::Char('y')).await;
    let site = app.client.site().to_owned();
    assert_eq!(
        app.outside.copied,
        vec![format!("{site}/#narrow/channel/{general}-general/topic/copy.20me.2Enow/near/{id}")]
    );
    // Two code blocks: asks which.
    app.key(KeyCode::Char('Y')).await;
    assert!(app.st.ui.prompt.is_some());
    assert_eq!(app.st.ui.status.as_ref().map(|s| s.text.as_str()), Some("which code block? 1–2"));
    app.keys("2").await;
    app.key(KeyCode::Enter).await;
    assert_eq!(app.outside.copied.last().map(String::as_str), Some("ls -l"));
    let plain =
        alice.send_message(&OutgoingMessage::channel(general, "copy me.now", "no code")).await.unwrap().id;
    app.settle().await;
    app.st.ui.selected = Some(plain);
    app.key(KeyCode::Char('Y')).await;
    assert!(
        app.st.ui.status.as_ref().is_some_and(|s| s.error && s.text == "this message has no code blocks")
    );
}

#[tokio::test]
async fn an_attachment_is_downloaded_with_the_users_login_and_opened() {
    let mut app = App::start("member").await;
    let dir = tempfile::tempdir().unwrap();
    // A stand-in browser that records what it was asked to open.
    let log = dir.path().join("opened");
    let browser = dir.path().join("browser.sh");
    std::fs::write(&browser, format!("#!/bin/sh\necho \"$1\" >> {}\n", log.display())).unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&browser).status().unwrap();
    // SAFETY: only this test in the binary reads BROWSER.
    unsafe { std::env::set_var("BROWSER", &browser) };
    let general = app.channel_id("general");
    let alice = as_user(&app, "alice");
    let text = "[checklist](/user_uploads/2/ab/release-checklist.txt) and [docs](https://docs.example/x)";
    let id = alice.send_message(&OutgoingMessage::channel(general, "files", text)).await.unwrap().id;
    app.open(Narrow::Topic(general, "files".into())).await;
    app.st.ui.selected = Some(id);
    app.key(KeyCode::Char('o')).await;
    app.keys("1").await;
    app.key(KeyCode::Enter).await;
    for _ in 0..20 {
        if log.exists() {
            break;
        }
        app.settle().await;
    }
    let opened = std::fs::read_to_string(&log).expect("the browser was asked");
    let file = opened.lines().next().unwrap();
    assert_eq!(std::fs::read_to_string(file).unwrap(), "Release checklist\n- tag\n- changelog\n- announce\n");
    assert!(
        app.st.ui.status.as_ref().is_some_and(|s| s.text.contains("saved and opened")),
        "{:?}",
        app.st.ui.status
    );
    // An ordinary link goes to the browser as it is.
    app.key(KeyCode::Char('o')).await;
    app.keys("2").await;
    app.key(KeyCode::Enter).await;
    app.settle().await;
    let opened = std::fs::read_to_string(&log).unwrap();
    assert_eq!(opened.lines().nth(1), Some("https://docs.example/x"));
    // A number that is not a link, then a browser that fails: said, nothing else happens.
    app.key(KeyCode::Char('o')).await;
    app.keys("7").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.error && s.text == "no link 7: the message has 2"));
    unsafe { std::env::set_var("BROWSER", "false") };
    app.key(KeyCode::Char('o')).await;
    app.keys("2").await;
    app.key(KeyCode::Enter).await;
    app.settle().await;
    let status = app.st.ui.status.clone().unwrap();
    assert_eq!(status.text, "could not open https://docs.example/x: false failed (exit code 1)");
    assert!(status.error);
    unsafe { std::env::set_var("BROWSER", "no-such-browser-here") };
    app.key(KeyCode::Char('o')).await;
    app.keys("2").await;
    app.key(KeyCode::Enter).await;
    app.settle().await;
    let status = app.st.ui.status.clone().unwrap();
    assert_eq!(
        status.text,
        "could not open https://docs.example/x: no-such-browser-here was not found: is it installed?"
    );
    // Without a login the file is not served.
    let mut stranger = app.server.credentials("member").unwrap();
    stranger.api_key = "wrong".into();
    assert!(
        Client::new(&stranger).unwrap().download("/user_uploads/2/ab/release-checklist.txt").await.is_err()
    );
    unsafe { std::env::remove_var("BROWSER") };
}

#[tokio::test]
async fn the_compose_text_goes_through_the_editor_and_comes_back() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("first draft").await;
    app.outside.editor_result = Some(Ok("rewritten in vim\n".into()));
    app.ctrl('o').await;
    assert_eq!(app.outside.edited, vec!["first draft".to_owned()]);
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("rewritten in vim"));
    // A failing editor changes nothing.
    app.outside.editor_result =
        Some(Err(topicterm::app::ProgramFailure::Exited { program: "vim".into(), code: Some(1) }));
    app.ctrl('o').await;
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("rewritten in vim"));
    let status = app.st.ui.status.clone().unwrap();
    assert!(status.error, "{status:?}");
    assert_eq!(
        status.text,
        "not edited: vim failed (exit code 1); the text is unchanged ($VISUAL or $EDITOR names the editor)"
    );
    // One that is not there says so.
    app.outside.editor_result = Some(Err(topicterm::app::ProgramFailure::NotStarted {
        program: "nvim".into(),
        kind: std::io::ErrorKind::NotFound,
    }));
    app.ctrl('o').await;
    let status = app.st.ui.status.clone().unwrap();
    assert!(status.text.starts_with("not edited: nvim was not found: is it installed?"), "{status:?}");
}

#[tokio::test]
async fn the_state_dump_is_written_or_the_reason_is_said() {
    let mut app = App::start("member").await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    app.key(KeyCode::Char(':')).await;
    app.keys(&format!("dump-state {}", path.display())).await;
    app.key(KeyCode::Enter).await;
    app.settle().await;
    let dump: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(dump["me"], app.st.data.me);
    assert!(app.st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("state written to")));
    app.key(KeyCode::Char(':')).await;
    app.keys("dump-state /nonexistent-dir/state.json").await;
    app.key(KeyCode::Enter).await;
    app.settle().await;
    let status = app.st.ui.status.clone().unwrap();
    assert!(
        status.error && status.text.starts_with("could not write /nonexistent-dir/state.json"),
        "{status:?}"
    );
}

/// Issue 51.12: with no `$BROWSER` and a system opener that fails, a link (`f` + label, `o`)
/// is said not opened, with how to name a browser — never "opened".
#[tokio::test]
async fn a_link_no_program_could_open_is_said_not_opened_with_how_to_name_a_browser() {
    use topicterm::net::Openers;
    // `false URL`: an opener that exits 1, as `xdg-open` does when nothing on the system opens links.
    let openers = Openers { browser: None, system: "false".into() };
    let mut app = crate::harness::Setup::new("member").openers(openers).start().await;
    let general = app.channel_id("general");
    let alice = as_user(&app, "alice");
    let id = alice
        .send_message(&OutgoingMessage::channel(general, "unopenable", "[docs](https://docs.example/x)"))
        .await
        .unwrap()
        .id;
    app.open(Narrow::Topic(general, "unopenable".into())).await;
    app.select(id);
    app.screen(100, 20);
    let said = "could not open https://docs.example/x: false failed (exit code 1) — set $BROWSER to your \
                browser's command to open links (e.g. BROWSER=firefox topicterm)";
    let failed = |st: &topicterm::app::State| st.ui.status.as_ref().is_some_and(|s| s.error);
    // A link hint's label…
    app.key(KeyCode::Char('f')).await;
    app.key(KeyCode::Char('a')).await;
    app.until("the opener's failure", failed).await;
    let status = app.st.ui.status.clone().unwrap();
    assert_eq!(status.text, said);
    // …and `o` say the same.
    app.st.ui.status = None;
    app.key(KeyCode::Char('o')).await;
    app.until("the opener's failure", failed).await;
    assert_eq!(app.st.ui.status.clone().unwrap().text, said);
}
