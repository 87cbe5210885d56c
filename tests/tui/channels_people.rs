//! Channels and people: the `:channels` browser (filter, join, leave, open), `:subscribe`
//! and `:unsubscribe`, a channel's info with the user's own settings, and profiles — through
//! the real dispatcher and demo server.

use crate::harness::App;
use reqwest::Method;
use std::time::Duration;
use topicterm::api::Params;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, Popup, SidebarRow};

/// Type `:command` and press enter.
async fn palette(app: &mut App, line: &str) {
    app.key(KeyCode::Char(':')).await;
    app.keys(line).await;
    app.key(KeyCode::Enter).await;
}

fn status(app: &App) -> (bool, String) {
    let s = app.st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

/// The server's view of a user's subscription to a channel, if any.
fn server_sub(app: &App, who: &str, channel: &str) -> Option<topicterm::server::org::SubRec> {
    let org = app.server.shared.lock();
    let uid = org.users.values().find(|u| u.short_name == who).map(|u| u.id)?;
    org.channel_named(channel)?.subs.get(&uid).cloned()
}

fn server_channel_id(app: &App, name: &str) -> i64 {
    app.server.shared.lock().channel_named(name).map(|c| c.id).expect("channel")
}

/// The channel names the `:channels` popup shows, in order.
fn shown(app: &App) -> Vec<String> {
    match &app.st.ui.popup {
        Some(Popup::Channels { list: Some(l), .. }) => {
            l.shown.iter().map(|i| l.all[*i].channel.name.clone()).collect()
        }
        other => panic!("the channels list is not open: {other:?}"),
    }
}

#[tokio::test]
async fn the_channel_browser_filters_joins_opens_and_leaves() {
    let mut app = App::start("member").await;
    palette(&mut app, "channels").await;
    let all = shown(&app);
    assert!(all.contains(&"outdoors".to_owned()) && all.contains(&"general".to_owned()), "{all:?}");
    assert!(!all.contains(&"leadership".to_owned()), "private channels member is not in stay hidden");
    insta::assert_snapshot!("channels_80x24", app.screen(80, 24));
    insta::assert_snapshot!("channels_160x48", app.screen(160, 48));

    // Typing filters by name and description.
    app.keys("trail").await;
    assert_eq!(shown(&app), vec!["outdoors"], "the description mentions the trail list");
    // ctrl+o shows the channel's info; esc goes back to the list as it was (it closed both).
    app.ctrl('o').await;
    assert!(matches!(app.st.ui.popup, Some(Popup::ChannelInfo { details: Some(_), .. })));
    app.key(KeyCode::Esc).await;
    assert!(matches!(&app.st.ui.popup, Some(Popup::Channels { query, .. }) if query.text() == "trail"));
    assert_eq!(shown(&app), vec!["outdoors"]);
    app.key(KeyCode::Enter).await;
    assert!(status(&app).1.contains("not in #outdoors"), "{:?}", status(&app));
    assert!(matches!(app.st.ui.popup, Some(Popup::Channels { .. })), "enter does not join");

    // ctrl+s joins: the server has it, and its subscription event puts it in the sidebar.
    app.ctrl('s').await;
    assert_eq!(status(&app), (false, "you joined #outdoors".into()));
    assert!(server_sub(&app, "member", "outdoors").is_some());
    let outdoors = server_channel_id(&app, "outdoors");
    assert!(app.st.data.channels.is_subscribed(outdoors));
    assert!(app.st.ui.sidebar.rows().contains(&SidebarRow::Channel(outdoors)));
    assert!(app.screen(160, 48).contains("✓ #outdoors"), "the list marks it joined");
    let count = |app: &App| match &app.st.ui.popup {
        Some(Popup::Channels { list: Some(l), .. }) => {
            l.all.iter().find(|e| e.channel.name == "outdoors").and_then(|e| e.channel.subscriber_count)
        }
        _ => None,
    };
    assert_eq!(count(&app), Some(5), "the count follows the subscription");

    // Enter opens a channel one is in.
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.popup, None);
    assert_eq!(app.st.ui.narrow, Narrow::Channel(outdoors));
    assert!(app.screen(120, 30).contains("ridge loop"), "its messages are shown");

    // ctrl+s on a public channel one is in asks first, as :unsubscribe does.
    palette(&mut app, "channels").await;
    app.keys("outdoors").await;
    app.ctrl('s').await;
    assert_eq!(app.st.ui.confirm.as_ref().map(|(q, _)| q.as_str()), Some("Leave #outdoors? (y/N)"));
    assert!(app.screen(80, 24).contains("Leave #outdoors? (y/N)"), "the question is on screen");
    assert!(server_sub(&app, "member", "outdoors").is_some(), "nothing is left before the answer");
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "you left #outdoors".into()));
    assert!(server_sub(&app, "member", "outdoors").is_none());
    assert!(!app.st.data.channels.is_subscribed(outdoors));
    assert!(!app.st.ui.sidebar.rows().contains(&SidebarRow::Channel(outdoors)));
    assert_eq!(count(&app), Some(4));

    // A private channel asks first.
    app.key(KeyCode::Esc).await;
    palette(&mut app, "channels").await;
    app.keys("security").await;
    app.ctrl('s').await;
    let question = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).unwrap_or_default();
    assert!(question.starts_with("Leave #security? It is private"), "{question}");
    app.key(KeyCode::Char('n')).await;
    assert!(server_sub(&app, "member", "security").is_some(), "n keeps the subscription");
}

#[tokio::test]
async fn subscribe_and_unsubscribe_from_the_palette() {
    let mut app = App::start("member").await;
    palette(&mut app, "subscribe #Outdoors").await;
    assert_eq!(status(&app), (false, "you joined #outdoors".into()));
    let outdoors = server_channel_id(&app, "outdoors");
    assert!(app.st.ui.sidebar.rows().contains(&SidebarRow::Channel(outdoors)));

    palette(&mut app, "subscribe #general").await;
    assert_eq!(status(&app), (true, "you are already in #general".into()));
    let before = app.server.shared.lock().channels.len();
    palette(&mut app, "subscribe #no-such-place").await;
    let (err, text) = status(&app);
    assert!(err && text.contains("no channel named"), "{text}");
    assert_eq!(app.server.shared.lock().channels.len(), before, "no channel was created");
    app.key(KeyCode::Esc).await;
    palette(&mut app, "subscribe #leadership").await;
    assert!(status(&app).0, "a private channel one is not in cannot be joined: {:?}", status(&app));

    // `:unsubscribe` with a channel row selected in the sidebar leaves that channel.
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| *r == SidebarRow::Channel(outdoors)));
    palette(&mut app, "unsubscribe").await;
    assert_eq!(app.st.ui.confirm.as_ref().map(|(q, _)| q.as_str()), Some("Leave #outdoors? (y/N)"));
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "you left #outdoors".into()));
    assert!(!app.st.ui.sidebar.rows().contains(&SidebarRow::Channel(outdoors)));
    // … and it can be joined again by name.
    palette(&mut app, "subscribe outdoors").await;
    assert_eq!(status(&app), (false, "you joined #outdoors".into()));
}

#[tokio::test]
async fn channel_info_shows_the_channel_and_toggles_your_settings() {
    let mut app = App::start("member").await;
    let eng = app.channel_id("engineering");
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| *r == SidebarRow::Channel(eng)));
    app.key(KeyCode::Char('i')).await;
    let (details, email) = match &app.st.ui.popup {
        Some(Popup::ChannelInfo { channel, details, email, .. }) => {
            assert_eq!(*channel, eng);
            (details.is_some(), email.clone())
        }
        other => panic!("channel info is not open: {other:?}"),
    };
    assert!(details, "the server's details arrived");
    let email = email.expect("the email arrived").expect("member may post there");
    let token = app.server.shared.lock().channels[&eng].email_token.clone();
    assert!(email.contains(&token));
    // The email's token is random: the snapshots show it masked.
    let masked = |s: String| s.replace(&token, &"x".repeat(token.len()));
    let screen = masked(app.screen(160, 48));
    for shown in
        ["Day-to-day engineering", "Subscribers   12", "Folder        Engineering", "Who may post  everyone"]
    {
        assert!(screen.contains(shown), "{shown:?} in\n{screen}");
    }
    insta::assert_snapshot!("channel_info_160x48", screen);
    insta::assert_snapshot!("channel_info_80x24", masked(app.screen(80, 24)));

    // Each key changes the setting on the server; the server's event shows it here.
    let sub = |app: &App| server_sub(app, "member", "engineering").expect("subscribed");
    assert!(sub(&app).pin_to_top, "member pinned engineering");
    app.key(KeyCode::Char('p')).await;
    assert!(!sub(&app).pin_to_top);
    assert!(!app.st.data.channels[&eng].pinned);
    assert_eq!(status(&app), (false, "#engineering unpinned".into()));
    app.key(KeyCode::Char('d')).await;
    assert_eq!(sub(&app).desktop_notifications, Some(true));
    assert_eq!(app.st.data.channels[&eng].desktop_notifications, Some(true));
    app.key(KeyCode::Char('a')).await;
    assert_eq!(sub(&app).audible_notifications, Some(true));
    assert_eq!(status(&app), (false, "#engineering: audible notifications on".into()));
    // Again: back to the user's default (off), which the API sets as false (it takes no null).
    app.key(KeyCode::Char('d')).await;
    assert_eq!(sub(&app).desktop_notifications, Some(false));
    assert_eq!(status(&app), (false, "#engineering: desktop notifications off (your default)".into()));
    app.key(KeyCode::Char('m')).await;
    assert!(sub(&app).is_muted);
    assert!(app.st.data.channels[&eng].muted);
    let screen = app.screen(80, 24);
    assert!(screen.contains("muted                  yes"), "{screen}");
    assert!(screen.contains("desktop notifications  off (your default)"), "{screen}");
    assert!(screen.contains("audible notifications  on"), "{screen}");
    // The user's default turned on elsewhere: off is now this channel's own, and d goes back
    // to the default.
    let on = Params::new().add("enable_stream_desktop_notifications", true);
    let patched = app.other("member").raw(Method::PATCH, "/settings", on, Duration::from_secs(10)).await;
    assert!(patched.is_ok(), "{patched:?}");
    app.until("the settings event", |st| st.data.notify_defaults().desktop).await;
    let screen = app.screen(80, 24);
    assert!(
        screen.contains("desktop notifications  off") && !screen.contains("off (your default)"),
        "{screen}"
    );
    app.key(KeyCode::Char('d')).await;
    assert_eq!(sub(&app).desktop_notifications, Some(true));
    assert!(app.screen(80, 24).contains("desktop notifications  on (your default)"));
    // y copies the email.
    app.key(KeyCode::Char('y')).await;
    assert_eq!(app.outside.copied, vec![email]);
    app.key(KeyCode::Esc).await;
    assert_eq!(app.st.ui.popup, None);

    // By name, for a channel one is not in, and for one that cannot be seen.
    palette(&mut app, "channel-info #outdoors").await;
    let screen = app.screen(120, 40);
    assert!(screen.contains("You are not subscribed") && screen.contains("Folder        Social"), "{screen}");
    app.key(KeyCode::Char('p')).await;
    assert!(status(&app).1.contains("not in #outdoors"), "{:?}", status(&app));
    app.key(KeyCode::Char('s')).await;
    assert_eq!(status(&app), (false, "you joined #outdoors".into()));
    assert!(app.screen(120, 40).contains("Your settings"), "the event turns the popup into a subscriber's");
    app.key(KeyCode::Esc).await;
    palette(&mut app, "channel-info #leadership").await;
    assert_eq!(status(&app), (true, "no channel named \"leadership\"".into()));
}

#[tokio::test]
async fn profiles_show_who_someone_is_and_lead_to_a_dm_or_a_mention() {
    let mut app = App::start("member").await;
    palette(&mut app, "profile Bob Nakamura").await;
    let screen = app.screen(160, 48);
    for shown in [
        "bob@demo.topicterm.test",
        "Role          Member",
        // The seed's now is 12:00 UTC.
        "Local time    21:00 (UTC+09:00), Asia/Tokyo",
        "Vacationing",
        "@backend",
        // Custom fields are labelled as the other rows are (they ended in a colon).
        "Pronouns      he/him",
        "Team          Backend",
        "Working hours 10:00–19:00 JST",
        "strong coffee",
    ] {
        assert!(screen.contains(shown), "{shown:?} in\n{screen}");
    }
    insta::assert_snapshot!("profile_160x48", screen);
    insta::assert_snapshot!("profile_80x24", app.screen(80, 24));

    // x starts a DM with them.
    app.key(KeyCode::Char('x')).await;
    let bob = app.st.data.users.iter().find(|u| u.full_name == "Bob Nakamura").map(|u| u.id).unwrap();
    let target = app.st.ui.compose.as_ref().map(|c| c.target.clone());
    assert_eq!(target, Some(topicterm::app::Target::Dm(vec![bob])));
    app.key(KeyCode::Esc).await;

    // u on a message: its sender; @ puts a mention in a reply to that message.
    let general = app.channel_id("general");
    app.open(Narrow::Channel(general)).await;
    let (id, sender) = {
        let view = &app.st.data.views[&Narrow::Channel(general)];
        let id = *view.ids().last().unwrap();
        (id, app.st.data.messages[&id].sender_id())
    };
    app.select(id);
    app.key(KeyCode::Char('u')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Profile { user, details: Some(_), .. }) if user == sender));
    app.key(KeyCode::Char('@')).await;
    let name = app.st.data.user_name(sender).to_owned();
    let compose = app.st.ui.compose.as_ref().expect("a reply");
    assert_eq!(compose.text(), format!("@**{name}|{sender}** "));
    assert!(matches!(&compose.target, topicterm::app::Target::Channel { id, .. } if *id == general));

    // Unknown people are named in the error.
    app.key(KeyCode::Esc).await;
    palette(&mut app, "profile nobody-here").await;
    assert_eq!(status(&app), (true, "no one is named \"nobody-here\"".into()));
}

#[tokio::test]
async fn start_up_asks_only_for_what_the_first_screen_reads() {
    let app = App::start("member").await;
    let asked: Vec<String> =
        app.server.recent_requests().into_iter().filter(|r| !r.starts_with("GET /api/v1/events")).collect();
    // Register carries the subscriptions (without subscriber lists): a second fetch of them
    // would cost a large organization a megabyte of subscriber lists no screen reads.
    assert!(!asked.iter().any(|r| r.contains("/users/me/subscriptions")), "{asked:#?}");
    assert_eq!(asked.first().map(String::as_str), Some("POST /api/v1/register"), "{asked:#?}");
    assert_eq!(asked.iter().filter(|r| r.starts_with("GET /api/v1/messages?")).count(), 1, "{asked:#?}");
    assert!(!app.st.data.channels.is_empty(), "the channels came with register");
}

/// Found on a real server: an organization's own field names run long, and "Favorite editor"
/// ran into its value ("Favorite editor Emacs"). A label too long for the labels' column gets
/// a row of its own, its value indented below; short ones keep the column.
#[tokio::test]
async fn a_long_profile_field_label_never_runs_into_its_value() {
    let mut app = App::start("member").await;
    for f in &mut app.st.data.realm.custom.profile_fields {
        if f.name == "Working hours" {
            f.name = "Favorite working hours".into();
        }
    }
    palette(&mut app, "profile @Bob Nakamura").await;
    app.until("the server's record", |st| {
        matches!(&st.ui.popup, Some(Popup::Profile { details: Some(_), .. }))
    })
    .await;
    for (w, h) in [(80, 24), (160, 48)] {
        let screen = app.screen(w, h);
        let rows: Vec<&str> = screen.lines().collect();
        let at = rows.iter().position(|r| r.contains("Favorite working hours")).expect("the label");
        assert!(!rows[at].contains("10:00"), "the value is not on the label's row:\n{screen}");
        assert!(rows[at + 1].contains("  10:00–19:00 JST"), "it is below, indented:\n{screen}");
        assert!(screen.contains("Pronouns      he/him"), "short labels keep their column:\n{screen}");
    }
}
