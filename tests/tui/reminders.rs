//! Reminders through the whole app against the demo server, the server's state read back:
//! `:remind WHEN [NOTE]` on the selected message, the `:reminders` list (d deletes after a
//! question), delivery by the Notification Bot (a notification, and the list loses it), every
//! refusal and failure in words.

use crate::harness::*;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Msg, Narrow, Popup, State};
use topicterm::server::ServerOptions;

fn status(st: &State) -> (bool, String) {
    let s = st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

/// The member in #general > lunch plans, on a message of Alice's.
async fn on_a_message(setup: Setup) -> (App, i64) {
    let mut app = setup.start().await;
    let general = app.channel_id("general");
    let m = OutgoingMessage::channel(general, "lunch plans", "book the table for Friday");
    let id = app.other("alice").send_message(&m).await.unwrap().id;
    app.open(Narrow::Topic(general, "lunch plans".into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    (app, id)
}

/// The server's reminders of the member: (message, delivery time, its text).
fn server_reminders(app: &App) -> Vec<(i64, i64, String)> {
    let org = app.server.shared.lock();
    org.reminders.values().map(|r| (r.message_id, r.deliver_at, r.content.clone())).collect()
}

#[tokio::test]
async fn a_reminder_is_set_listed_by_time_and_deleted_after_a_question() {
    let (mut app, id) = on_a_message(Setup::new("member")).await;
    app.palette("remind tomorrow 9:00 call the restaurant").await;
    app.until("said when", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("I'll"))).await;
    assert_eq!(status(&app.st), (false, "I'll remind you about this message tomorrow at 09:00".into()));
    let tomorrow_nine = SEED_TIME + 21 * 3600;
    let on_server = server_reminders(&app);
    assert_eq!(on_server.len(), 1);
    assert_eq!((on_server[0].0, on_server[0].1), (id, tomorrow_nine));
    assert!(on_server[0].2.contains("Note:\n > call the restaurant"), "{}", on_server[0].2);
    // A second one, sooner: the list is by delivery time.
    // In words, as the help shows them (issue 40: `in 2 hours` was refused; `in 2h` works too).
    app.palette("remind in 2 hours").await;
    app.until("said when", |st| st.ui.status.as_ref().is_some_and(|s| s.text.ends_with("today at 14:00")))
        .await;
    app.until("both, by event", |st| st.data.lists.reminders().is_some_and(|r| r.len() == 2)).await;
    app.palette("reminders").await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Reminders { .. })));
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("reminders_80x24", screen);
    let soon = screen.find("Sat 21 Nov 14:00").expect("the sooner one");
    let later = screen.find("Sun 22 Nov 09:00").expect("the later one");
    assert!(soon < later, "by delivery time:\n{screen}");
    assert!(screen.contains("#general > lunch plans") && screen.contains("book the table for Friday"));
    assert!(screen.contains("note: call the restaurant"), "{screen}");
    insta::assert_snapshot!("reminders_160x48", app.screen(160, 48));
    // d asks, naming it; n keeps it; y deletes it here and on the server.
    app.key(KeyCode::Char('j')).await;
    app.key(KeyCode::Char('d')).await;
    let question = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).expect("d asks first");
    assert_eq!(
        question,
        "Delete the reminder of Sun 22 Nov 09:00 about \"book the table for Friday\"? (y/N)"
    );
    app.key(KeyCode::Char('n')).await;
    assert_eq!(server_reminders(&app).len(), 2);
    app.key(KeyCode::Char('d')).await;
    app.key(KeyCode::Char('y')).await;
    app.until("deleted", |st| st.data.lists.reminders().is_some_and(|r| r.len() == 1)).await;
    assert_eq!(status(&app.st), (false, "reminder deleted".into()));
    let left = server_reminders(&app);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].1, SEED_TIME + 2 * 3600, "the other one stays");
    assert!(!app.screen(80, 24).contains("Sun 22 Nov 09:00"));
    // What the server says of a reminder is text, never terminal control.
    let evil = serde_json::json!({"id": 9_999, "type": "reminders", "op": "add", "reminders": [{
        "reminder_id": 9_999_999, "type": "private", "to": [app.st.data.me], "failed": false,
        "scheduled_delivery_timestamp": SEED_TIME + 3 * 86_400, "reminder_target_message_id": 1,
        "content": "You requested a reminder for the following message. Note:\n > evil\u{1b}]0;pwned\u{7}\n\n\
            @_**X|1** [said](#) in #**a\u{1b}[2J>b@1**:\n```quote\nthe\u{1b}[31m text\n```"}]});
    app.inject(vec![evil]).await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("note: evil") && !screen.contains(['\u{1b}', '\u{7}']), "{screen:?}");
    app.key(KeyCode::Esc).await;
    assert!(app.st.ui.popup.is_none());
}

#[tokio::test]
async fn a_delivered_reminder_notifies_like_a_direct_message_and_leaves_the_list() {
    let (mut app, _) = on_a_message(Setup::new("member")).await;
    app.palette("remind in 1h before lunch").await;
    app.until("listed", |st| st.data.lists.reminders().is_some_and(|r| r.len() == 1)).await;
    app.palette("reminders").await;
    // The server's clock moves on past it: the Notification Bot delivers it.
    app.server.shared.lock().settings.clock_offset += 2 * 3600;
    app.until("delivered", |st| st.data.lists.reminders().is_some_and(<[_]>::is_empty)).await;
    app.until("the Notification Bot's message", |st| {
        st.data.messages.values().any(|m| m.sender_full_name() == "Notification Bot")
    })
    .await;
    let (title, body) = app.outside.notifications.last().cloned().expect("a notification");
    assert_eq!(title, app.st.data.realm.name);
    assert!(
        body.starts_with(
            "Notification Bot (direct message): You requested a reminder for the following message. Note: before lunch"
        ),
        "{body}"
    );
    let screen = app.screen(80, 24);
    assert!(screen.contains("No reminders."), "{screen}");
}

#[tokio::test]
async fn refusals_are_worded_before_anything_is_sent_and_the_servers_after() {
    let (mut app, _) = on_a_message(Setup::new("member")).await;
    // Refused before anything is sent: said, the line kept for a correction (esc leaves it).
    async fn refused(app: &mut App, line: &str) -> (bool, String) {
        app.palette(line).await;
        assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some(line), "kept for a correction");
        let said = status(&app.st);
        app.key(KeyCode::Esc).await;
        said
    }
    assert_eq!(refused(&mut app, "remind").await, (true, "usage: :remind WHEN [NOTE]".into()));
    assert_eq!(
        refused(&mut app, "remind soonish call Bob").await,
        (
            true,
            "cannot read \"soonish call Bob\" as a time; try `in 2h`, `tomorrow 9:00`, `17:30` or `2026-11-25 15:00`"
                .into()
        )
    );
    assert_eq!(
        refused(&mut app, "remind 2020-01-01 10:00 too late").await,
        (true, "\"2020-01-01 10:00\" is in the past".into())
    );
    // The server's refusal, in its words.
    app.key(KeyCode::Char(':')).await;
    app.send(Msg::Paste(format!("remind in 2h {}", "x".repeat(1001)))).await;
    app.key(KeyCode::Enter).await;
    app.until("refused", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("not reminded")))
        .await;
    assert_eq!(status(&app.st), (true, "not reminded: Maximum reminder note length: 1000 characters".into()));
    assert!(server_reminders(&app).is_empty());
    // Nothing selected: the palette and the key say so.
    app.st.ui.selected = None;
    assert_eq!(
        refused(&mut app, "remind in 2h").await,
        (true, "select the message to be reminded of first".into())
    );
    app.key(KeyCode::Char('Z')).await;
    assert_eq!(status(&app.st), (true, "select the message to be reminded of first".into()));
    assert!(app.st.ui.prompt.is_none());
}

/// What a server before reminders is said to lack, in the words of every key its level rules
/// out (issue 51.8).
const NO_REMINDERS: &str = "this server does not offer reminders: it needs Zulip 11.0 or later (feature level 381; this server is at 380)";

#[tokio::test]
async fn the_remind_key_opens_the_palette_and_an_old_server_is_said_to_have_none() {
    let (mut app, id) = on_a_message(Setup::new("member")).await;
    app.key(KeyCode::Char('Z')).await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some("remind "));
    app.keys("17:30").await;
    app.key(KeyCode::Enter).await;
    app.until("said", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("I'll"))).await;
    assert_eq!(server_reminders(&app)[0].0, id);
    // A server before reminders (Zulip 11.0).
    let old = Setup::new("member").feature_level(380);
    let (mut app, _) = on_a_message(old).await;
    // In words, as the help shows them (issue 40: `in 2 hours` was refused; `in 2h` works too).
    app.palette("remind in 2 hours").await;
    assert_eq!(status(&app.st), (true, NO_REMINDERS.into()));
    app.key(KeyCode::Esc).await;
    app.palette("reminders").await;
    assert_eq!(status(&app.st), (true, NO_REMINDERS.into()));
    app.key(KeyCode::Esc).await;
    app.st.ui.status = None;
    app.key(KeyCode::Char('Z')).await;
    assert_eq!(status(&app.st), (true, NO_REMINDERS.into()), "the key says it as the command does");
    assert!(app.st.ui.popup.is_none());
}

#[tokio::test]
async fn before_level_399_the_list_is_asked_for_and_before_415_the_note_is_left_out() {
    let (mut app, _) = on_a_message(Setup::new("member").feature_level(398)).await;
    assert!(app.st.data.lists.reminders().is_none(), "register said nothing of them");
    app.palette("remind in 2h keep this").await;
    app.until("said", |st| st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("I'll"))).await;
    assert_eq!(
        status(&app.st),
        (
            false,
            "I'll remind you about this message today at 14:00 (without the note: this server keeps none)"
                .into()
        )
    );
    app.key(KeyCode::Char('W')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Reminders { .. })));
    app.until("asked for", |st| st.data.lists.reminders().is_some_and(|r| r.len() == 1)).await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("Sat 21 Nov 14:00") && !screen.contains("note:"), "{screen}");
}

#[tokio::test]
async fn a_list_that_cannot_be_had_closes_and_says_why() {
    let setup = Setup::new("member").server(ServerOptions {
        seed_time: Some(SEED_TIME),
        feature_level: 398,
        ..Default::default()
    });
    let (mut app, proxy) = setup.start_behind_fault_proxy().await;
    proxy.set_down(true);
    app.palette("reminders").await;
    app.until("failed", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text.starts_with("reminders not loaded"))
    })
    .await;
    assert_eq!(status(&app.st), (true, "reminders not loaded: connection lost (W retries)".into()));
    assert!(app.st.ui.popup.is_none());
    proxy.set_down(false);
}
