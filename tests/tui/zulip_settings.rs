//! Issue 52: the user's own Zulip settings decide, changed through the API by another client of
//! theirs while topicterm runs — notifications by `enable_desktop_notifications`,
//! `pm_content_in_desktop_notifications` and a channel's `desktop_notifications`, and
//! `:settings`, which lists them and changes them on the server. Each at the default level and
//! at 218.

use crate::harness::{App, Setup};
use crate::rewriter::{Reply, Rewriter};
use serde_json::json;
use topicterm::api::{Client, OutgoingMessage};
use topicterm::app::keys::KeyCode;
use topicterm::app::settings::NotifyMethod;
use topicterm::server::DemoServer;

const LEVELS: [Option<i64>; 2] = [None, Some(218)];

async fn member_at(level: Option<i64>) -> App {
    match level {
        Some(l) => App::start_at_level("member", l).await,
        None => App::start("member").await,
    }
}

/// The member's own other client (the web app, as far as the server knows) changes a setting;
/// the app has it once the event came.
async fn set_elsewhere(app: &mut App, name: &str, value: bool) {
    app.other("member").update_user_setting(name, &json!(value)).await.unwrap();
    let name = name.to_owned();
    app.until("the user_settings event", move |st| {
        serde_json::to_value(st.data.user_settings()).unwrap()[&name] == json!(value)
    })
    .await;
}

/// Alice, who writes to the member, speaking the server's level (register tells it her client).
async fn alice_of(app: &App) -> Client {
    let alice = app.other("alice");
    alice.register(&Default::default()).await.unwrap();
    alice
}

async fn dm(app: &App, alice: &Client, text: &str) -> i64 {
    alice.send_message(&OutgoingMessage::direct(vec![app.st.data.me], text)).await.unwrap().id
}

async fn arrived(app: &mut App, id: i64) {
    app.until("the message", move |st| st.data.messages.contains_key(&id)).await;
    app.settle().await;
}

#[tokio::test]
async fn a_channel_with_desktop_notifications_on_notifies_every_message_by_the_bell() {
    for level in LEVELS {
        let mut app = member_at(level).await;
        app.st.settings.notifications.method = NotifyMethod::Bell;
        app.st.ui.presence.focus_changed(false);
        let alice = alice_of(&app).await;
        let general = app.channel_id("general");
        let id = alice.send_message(&OutgoingMessage::channel(general, "plans", "before")).await.unwrap().id;
        arrived(&mut app, id).await;
        assert_eq!(app.outside.bells, 0, "an ordinary message does not ring ({level:?})");

        app.other("member")
            .update_subscription_settings(&[(general, "desktop_notifications", json!(true))])
            .await
            .unwrap();
        app.until("the subscription event", move |st| {
            st.data.channels.get(general).is_some_and(|c| c.desktop_notifications == Some(true))
        })
        .await;
        for text in ["one", "two"] {
            let id = alice.send_message(&OutgoingMessage::channel(general, "plans", text)).await.unwrap().id;
            arrived(&mut app, id).await;
        }
        assert_eq!(app.outside.bells, 2, "every message of the channel rings ({level:?})");
        assert!(
            app.outside.notifications.is_empty(),
            "the bell is how they show: {:?}",
            app.outside.notifications
        );
    }
}

#[tokio::test]
async fn turning_enable_desktop_notifications_off_stops_dm_notifications_live() {
    for level in LEVELS {
        let mut app = member_at(level).await;
        app.st.ui.presence.focus_changed(false);
        let alice = alice_of(&app).await;
        let id = dm(&app, &alice, "first").await;
        arrived(&mut app, id).await;
        assert_eq!(app.outside.notifications.len(), 1, "{:?}", app.outside.notifications);
        assert_eq!(app.outside.bells, 1, "enable_sounds rings the bell ({level:?})");

        set_elsewhere(&mut app, "enable_desktop_notifications", false).await;
        let id = dm(&app, &alice, "second").await;
        arrived(&mut app, id).await;
        assert_eq!(app.outside.notifications.len(), 1, "no desktop notification any more ({level:?})");
        assert_eq!(app.outside.bells, 2, "the sound is its own setting ({level:?})");

        set_elsewhere(&mut app, "enable_sounds", false).await;
        let id = dm(&app, &alice, "third").await;
        arrived(&mut app, id).await;
        assert_eq!(
            (app.outside.notifications.len(), app.outside.bells),
            (1, 2),
            "nothing at all ({level:?})"
        );

        // A line the user wrote in the config overrides the server.
        app.st.settings.notifications.dm = Some(true);
        let id = dm(&app, &alice, "fourth").await;
        arrived(&mut app, id).await;
        assert_eq!(app.outside.notifications.len(), 2, "dm = true in the config ({level:?})");
    }
}

#[tokio::test]
async fn pm_content_in_desktop_notifications_off_leaves_the_text_out() {
    for level in LEVELS {
        let mut app = member_at(level).await;
        app.st.ui.presence.focus_changed(false);
        let alice = alice_of(&app).await;
        set_elsewhere(&mut app, "pm_content_in_desktop_notifications", false).await;
        let id = dm(&app, &alice, "the secret plans").await;
        arrived(&mut app, id).await;
        let n = &app.outside.notifications;
        assert_eq!(n.len(), 1, "{n:?}");
        assert_eq!(n[0].1, "Alice Okafor (direct message)", "{level:?}");
        // A mention in a channel still shows its text: the setting is for direct messages.
        let general = app.channel_id("general");
        let name = app.st.data.user_name(app.st.data.me).to_owned();
        let text = format!("@**{name}** see the plans");
        let id = alice.send_message(&OutgoingMessage::channel(general, "plans", &text)).await.unwrap().id;
        arrived(&mut app, id).await;
        assert!(app.outside.notifications[1].1.ends_with("see the plans"), "{:?}", app.outside.notifications);
    }
}

/// The `:settings` row of a label, as drawn.
fn row_of(app: &mut App, label: &str) -> String {
    let screen = app.screen(140, 40);
    screen.lines().find(|l| l.contains(label)).unwrap_or_default().to_owned()
}

#[tokio::test]
async fn settings_change_a_setting_on_the_server_and_follow_its_event() {
    for level in LEVELS {
        let mut app = member_at(level).await;
        app.palette("settings").await;
        let label = "Notify of direct messages and mentions";
        let row = row_of(&mut app, label);
        assert!(row.contains(" on") && row.contains("(server)"), "{row}");
        assert!(row_of(&mut app, "How notifications are shown").contains("local"), "the config's own");
        app.key(KeyCode::Down).await;
        app.key(KeyCode::Enter).await;
        app.until("the server's event", |st| {
            st.data.user_settings().enable_desktop_notifications == Some(false)
        })
        .await;
        let row = row_of(&mut app, label);
        assert!(row.contains(" off"), "{row}");
        // On the server: a new session of the user reads it there.
        let fresh = member_at_same_server(&app).await;
        assert_eq!(fresh.enable_desktop_notifications, Some(false), "{level:?}");
        // A setting the config overrides says so.
        app.st.settings.notifications.dm = Some(true);
        let row = row_of(&mut app, label);
        assert!(row.contains("local override: [notifications] dm = true"), "{row}");
    }
}

/// The user's settings as a new register of theirs reads them from the server.
async fn member_at_same_server(app: &App) -> topicterm::api::UserSettings {
    let c = app.other("member");
    let params = topicterm::api::RegisterParams {
        fetch_event_types: Some(vec!["user_settings".into()]),
        client_capabilities: Some(json!({"user_settings_object": true})),
        ..Default::default()
    };
    let r = c.register(&params).await.unwrap();
    r.user_settings.unwrap_or_default()
}

async fn refusing_settings(level: Option<i64>) -> (App, Rewriter) {
    let mut setup = Setup::new("member");
    if let Some(l) = level {
        setup = setup.feature_level(l);
    }
    let (app, proxy) = setup
        .start_through(async |s: &DemoServer| {
            let p = Rewriter::start(&s.url, vec![]).await;
            let url = p.url.clone();
            (p, url)
        })
        .await;
    let refusal = br#"{"result": "error", "code": "BAD_REQUEST", "msg": "Not allowed"}"#.to_vec();
    proxy.arm_before(Box::new(move |ex| {
        ex.is("PATCH", "/settings").then(|| Reply::Body(400, refusal.clone()))
    }));
    (app, proxy)
}

#[tokio::test]
async fn settings_say_when_the_server_refuses_and_keep_the_value() {
    for level in LEVELS {
        let (mut app, _proxy) = refusing_settings(level).await;
        app.palette("settings").await;
        app.key(KeyCode::Down).await;
        app.key(KeyCode::Enter).await;
        app.until("refused", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
        let said = app.st.ui.status.as_ref().unwrap().text.clone();
        assert!(said.starts_with("Notify of direct messages and mentions is unchanged: "), "{said}");
        assert!(said.contains("Not allowed"), "the server's words: {said}");
        assert_eq!(app.st.data.user_settings().enable_desktop_notifications, Some(true), "no trace");
        assert!(row_of(&mut app, "Notify of direct messages and mentions").contains(" on"));
    }
}
