//! Reminders through the typed client (`crates/topicterm-api/src/reminders.rs`): set with a note, listed in
//! the Notification Bot's words (where the note and the message are read back from), the events, deletion;
//! the levels before the note and before reminders.

use crate::common::*;
use topicterm::api::*;
use topicterm::server::ServerOptions;

async fn message(env: &Env, topic: &str, text: &str) -> i64 {
    let general = env.channel_id("general");
    env.client("alice").send_message(&OutgoingMessage::channel(general, topic, text)).await.unwrap().id
}

#[tokio::test]
async fn a_reminder_is_set_listed_with_its_note_and_deleted() {
    let env = Env::start().await;
    let id = message(&env, "lunch plans", "book the table").await;
    let c = env.registered_client("member").await;
    let q = env.queue("member", r#"["reminders"]"#).await;
    let later = chrono::Utc::now().timestamp() + 3600;
    let made = c.create_message_reminder(id, later, Some("before Friday")).await.unwrap();
    assert!(made.ignored_parameters_unsupported.is_empty(), "{made:?}");
    let list = c.get_reminders().await.unwrap().reminders;
    assert_eq!(list.len(), 1);
    let r = &list[0];
    assert_eq!(
        (r.reminder_id, r.reminder_target_message_id, r.scheduled_delivery_timestamp),
        (made.reminder_id, id, later)
    );
    assert_eq!(r.note(), Some("before Friday"));
    assert_eq!(r.quoted(), Some("book the table"));
    assert_eq!(r.place().as_deref(), Some("#general > lunch plans"));
    // The reference server's words.
    assert!(
        r.content
            .starts_with("You requested a reminder for the following message. Note:\n > before Friday\n\n"),
        "{}",
        r.content
    );
    // Events: set, then gone when deleted.
    c.delete_reminder(made.reminder_id).await.unwrap();
    let kinds: Vec<EventKind> =
        env.events("member", &q).await.into_iter().map(Event::decode).map(|e| e.kind).collect();
    assert!(
        matches!(&kinds[0], EventKind::Reminders(RemindersEvent::Add(v)) if v[0].reminder_id == made.reminder_id),
        "{kinds:?}"
    );
    assert_eq!(kinds[1], EventKind::Reminders(RemindersEvent::Remove(made.reminder_id)));
    assert!(c.get_reminders().await.unwrap().reminders.is_empty());
    // Refusals, in the server's words.
    let err = c.delete_reminder(made.reminder_id).await.unwrap_err();
    assert_eq!(err.server().map(|s| s.msg.as_str()), Some("Reminder does not exist"));
    let err = c.create_message_reminder(id, 1_000, None).await.unwrap_err();
    assert_eq!(err.server().map(|s| s.msg.as_str()), Some("Scheduled delivery time must be in the future."));
    let long = "x".repeat(1001);
    let err = c.create_message_reminder(id, later, Some(&long)).await.unwrap_err();
    assert_eq!(err.server().map(|s| s.msg.as_str()), Some("Maximum reminder note length: 1000 characters"));
}

#[tokio::test]
async fn a_direct_message_reminder_names_whom_it_was_sent_to() {
    let env = Env::start().await;
    let member = env.user_id("member");
    let dm =
        env.client("alice").send_message(&OutgoingMessage::direct(vec![member], "call me")).await.unwrap().id;
    let c = env.registered_client("member").await;
    let later = chrono::Utc::now().timestamp() + 3600;
    c.create_message_reminder(dm, later, None).await.unwrap();
    let r = &c.get_reminders().await.unwrap().reminders[0];
    assert!(
        r.content.starts_with("You requested a reminder for the following direct message.\n\n"),
        "{}",
        r.content
    );
    assert_eq!(r.note(), None);
    assert!(r.place().is_some_and(|p| p.starts_with("DM: ")), "{:?}", r.place());
}

#[tokio::test]
async fn before_level_415_the_note_is_not_sent_and_before_381_there_are_no_reminders() {
    let env = Env::start_with(ServerOptions { feature_level: 414, ..Default::default() }).await;
    let id = message(&env, "t", "x").await;
    let c = env.registered_client("member").await;
    let later = chrono::Utc::now().timestamp() + 3600;
    let made = c.create_message_reminder(id, later, Some("ignored anyway")).await.unwrap();
    assert!(made.ignored_parameters_unsupported.is_empty(), "the note was not sent: {made:?}");
    assert_eq!(c.get_reminders().await.unwrap().reminders[0].note(), None);
    let reg = c
        .register(&RegisterParams { fetch_event_types: Some(vec!["reminders".into()]), ..Default::default() })
        .await
        .unwrap();
    assert!(reg.reminders.is_some(), "in register from level 399");
    let env398 = Env::start_with(ServerOptions { feature_level: 398, ..Default::default() }).await;
    let reg = env398
        .client("member")
        .register(&RegisterParams { fetch_event_types: Some(vec!["reminders".into()]), ..Default::default() })
        .await
        .unwrap();
    assert!(reg.reminders.is_none(), "not in register before 399: asked for");
    // A raw request with a note: the server of that level says it ignored it.
    let (status, body) = env
        .raw(
            "member",
            "POST",
            "/reminders",
            &[
                ("message_id", &id.to_string()),
                ("scheduled_delivery_timestamp", &later.to_string()),
                ("note", "n"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ignored_parameters_unsupported"], serde_json::json!(["note"]));
    let env = Env::start_with(ServerOptions { feature_level: 380, ..Default::default() }).await;
    let c = env.registered_client("member").await;
    let err = c.get_reminders().await.unwrap_err();
    assert_eq!(err.server().map(|s| s.status), Some(404));
}
