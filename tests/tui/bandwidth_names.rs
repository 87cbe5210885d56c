//! How people are named with `--low-bandwidth` compared with the default mode: a name someone
//! else may hold shows the email beside it in both, whether or not the whole list is read; the
//! system bots (register's `cross_realm_bots`, which this mode does not ask for) are named.

use crate::bandwidth::LEAN_LEVELS;
use crate::harness::{App, Setup};
use crate::rewriter::Rewriter;
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, SidebarRow};
use topicterm::server::org::Recip;

/// The app as the member, through a counting proxy; low-bandwidth or not.
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

/// The rows of the screen that hold `text`.
fn rows_with(screen: &str, text: &str) -> usize {
    screen.lines().filter(|l| l.contains(text)).count()
}

/// Alice renamed herself "Bob Nakamura" and DMs the member: the DM row, the title and the
/// status name her with her email in both modes alike — in low bandwidth before the whole list
/// is read (whether someone else holds the name cannot be known there) and without reading it.
#[tokio::test]
async fn a_lookalike_dms_partner_shows_the_email_in_every_mode() {
    for low in [false, true] {
        lookalike(low).await;
    }
}

async fn lookalike(low: bool) {
    let (mut app, proxy) = start(low).await;
    let alice = app.other("alice");
    let alice_id = alice.get_own_user().await.unwrap().user_id;
    let rename = topicterm::api::Params::new().add("full_name", "Bob Nakamura");
    app.other("admin")
        .call::<serde_json::Value>(reqwest::Method::PATCH, &format!("/users/{alice_id}"), rename)
        .await
        .unwrap();
    let me = app.st.data.me;
    alice.send_message(&OutgoingMessage::direct(vec![me], "it's Bob, on my new account")).await.unwrap();
    app.until("the rename", move |st| st.data.user_name(alice_id) == "Bob Nakamura").await;
    app.until("her DM row", move |st| {
        st.ui.sidebar.rows().iter().any(|r| *r == SidebarRow::Dm(vec![alice_id]))
    })
    .await;
    app.open(Narrow::Dm(vec![alice_id])).await;
    app.settle().await;
    let shown = app.screen(160, 40);
    // The DM row (cut to its width), the messages pane's title and the status row.
    assert_eq!(rows_with(&shown, "Bob Nakamura (alic"), 3, "low bandwidth {low}: {shown}");
    assert_eq!(
        rows_with(&shown, "DM with Bob Nakamura (alice@demo.topicterm.test)"),
        2,
        "low bandwidth {low}: {shown}"
    );
    if low {
        assert!(app.st.data.users.is_partial());
        assert_eq!(proxy.seen("GET", "/users"), 0, "the list is not read for it");
    }
}

/// The Notification Bot reminded the member before the client started: its DM row, and the
/// conversation's title, name it in low bandwidth — before the whole list is read and after
/// (which leaves the system bots out: register's `cross_realm_bots` come only with everyone),
/// though no message of it was in the first page.
#[tokio::test]
async fn low_bandwidth_names_a_system_bots_dm_before_and_after_the_people_list() {
    for level in LEAN_LEVELS {
        system_bot(level).await;
    }
}

async fn system_bot(level: i64) {
    let setup = Setup::new("member").low_bandwidth().feature_level(level);
    let (mut app, proxy) = setup
        .start_through(async |s| {
            {
                let mut org = s.shared.lock();
                let (bot, member) =
                    (org.notification_bot, org.user_by_email("member@demo.topicterm.test").unwrap().id);
                let users = vec![bot.min(member), bot.max(member)];
                let text =
                    "You requested a reminder for the following message. Note:\n > call the restaurant";
                org.send(bot, Recip::Dm { users }, text, "Internal", None, Some(false)).unwrap();
            }
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await;
    let bot = app.server.shared.lock().notification_bot;
    assert!(app.st.ui.sidebar.rows().contains(&SidebarRow::Dm(vec![bot])), "{:?}", app.st.ui.sidebar.rows());
    assert!(!app.st.data.messages.values().any(|m| m.sender_id() == bot), "not named by a message held");
    let shown = app.screen(120, 30);
    assert!(shown.contains("· Notification Bot ("), "level {level}: {shown}");
    assert!(!shown.contains("(unknown user)") && !shown.contains("  · …"), "level {level}: {shown}");
    // The whole list read (a name typed for a DM needs it): the bot is still named.
    app.key(KeyCode::Char('x')).await;
    app.keys("Alice Okafor").await;
    app.key(KeyCode::Enter).await;
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.key(KeyCode::Esc).await;
    app.open(Narrow::Dm(vec![bot])).await;
    app.settle().await;
    assert_eq!(proxy.seen("GET", "/users"), 1);
    let shown = app.screen(120, 30);
    assert!(shown.contains("DM with Notification Bot"), "level {level}: {shown}");
    assert!(shown.contains("· Notification Bot"), "level {level}: {shown}");
    assert!(!shown.contains("(unknown user)"), "level {level}: {shown}");
}
