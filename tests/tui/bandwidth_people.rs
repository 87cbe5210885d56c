//! `--low-bandwidth`'s people read on demand, when the reading goes wrong or races: the whole
//! list or the groups not read (said, nothing left waiting, asked again at the next need),
//! channel info naming the groups it shows once they are read, and a change to a user made
//! while the list was on its way that the older list must not undo.

use crate::bandwidth::{LEAN_LEVELS, press, start_lean, start_lean_at, start_with_newcomer};
use crate::harness::{App, Setup};
use crate::rewriter::{Exchange, Hold, Reply, Rule};
use topicterm::api::OutgoingMessage;
use topicterm::app::Popup;
use topicterm::app::keys::KeyCode;
use topicterm::app::people::{READING_GROUPS, READING_PEOPLE};

/// A 502 from a gateway, once, for the next `GET path`.
fn fail_once(path: &'static str) -> Rule {
    Box::new(move |ex: &Exchange| {
        ex.is("GET", path).then(|| Reply::Body(502, b"<h1>502 Bad Gateway</h1>".to_vec()))
    })
}

fn status(app: &App) -> String {
    app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

/// The compose box open on general>lean, `typed` typed without waiting.
async fn compose(app: &mut App, typed: &str) {
    app.key(KeyCode::Char('c')).await;
    app.keys("general>lean").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.compose.is_some());
    for c in typed.chars() {
        press(app, KeyCode::Char(c));
    }
}

#[tokio::test]
async fn low_bandwidth_a_people_list_not_read_is_said_and_asked_again_at_the_next_need() {
    for level in LEAN_LEVELS {
        people_list_not_read(level).await;
    }
}

async fn people_list_not_read(level: i64) {
    let (mut app, proxy, _) = start_lean_at(level).await;
    proxy.arm(fail_once("/users"));
    compose(&mut app, "@Ali").await;
    assert!(app.screen(120, 30).contains(READING_PEOPLE));
    app.until("the failure", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    app.settle().await;
    let said = status(&app);
    assert!(
        said.starts_with("the people list could not be read: ")
            && said.ends_with("; asked again when needed"),
        "{said}"
    );
    // Nothing waits for an answer that will not come, and nothing is asked again on its own.
    let shown = app.screen(120, 30);
    assert!(!shown.contains(READING_PEOPLE), "{shown}");
    assert!(shown.contains("the people list could not be read"), "{shown}");
    assert!(app.st.data.users.is_partial() && !shown.contains("tab: Alice"), "{shown}");
    assert_eq!(proxy.seen("GET", "/users"), 1);
    // The next need (one more letter) asks again, and this time the list comes.
    press(&mut app, KeyCode::Char('c'));
    assert!(app.screen(120, 30).contains(READING_PEOPLE));
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    assert_eq!(proxy.seen("GET", "/users"), 2);
    let shown = app.screen(120, 30);
    assert!(shown.contains("tab: Alice Okafor"), "{shown}");
    assert!(!shown.contains(READING_PEOPLE) && !shown.contains("could not be read"), "{shown}");
}

/// The groups fail while the people list (asked with them by a mention) is on its way: the
/// list's answer, which suggests again, does not ask again at once for the groups that just
/// failed; the next key does.
#[tokio::test]
async fn low_bandwidth_user_groups_not_read_are_said_and_asked_again_at_the_next_need() {
    let (mut app, proxy, _) = start_lean().await;
    let people = proxy.hold("GET", "/users", Hold::Answer);
    proxy.arm(fail_once("/user_groups"));
    compose(&mut app, "@fro").await;
    app.until("the failure", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    let said = status(&app);
    assert!(
        said.starts_with("the user groups could not be read: ")
            && said.ends_with("; asked again when needed"),
        "{said}"
    );
    people.release();
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    assert_eq!(proxy.seen("GET", "/user_groups"), 1, "not asked again by the list's answer");
    assert!(app.st.data.users.groups_unknown());
    let shown = app.screen(120, 30);
    assert!(shown.contains("the user groups could not be read"), "{shown}");
    assert!(!shown.contains(READING_GROUPS) && !shown.contains(READING_PEOPLE), "{shown}");
    assert!(!shown.contains("frontend (group"), "{shown}");
    // The next key asks again; the group is offered once read.
    press(&mut app, KeyCode::Char('n'));
    app.until("the groups", |st| !st.data.users.groups_unknown()).await;
    app.settle().await;
    assert_eq!(proxy.seen("GET", "/user_groups"), 2);
    let shown = app.screen(120, 30);
    assert!(shown.contains("frontend (group of"), "{shown}");
    assert!(!shown.contains("could not be read"), "{shown}");
}

fn info_shown(st: &topicterm::app::State) -> bool {
    matches!(st.ui.popup, Some(Popup::ChannelInfo { details: Some(_), .. }))
}

/// Channel info says who may post: with `--low-bandwidth` the groups are read for it (the role
/// groups, a group people made) and shown once read, never as "members of group 5"; a member
/// the setting names whom no message named is read alone, not with the whole list.
#[tokio::test]
async fn low_bandwidth_channel_info_reads_the_groups_it_names_then_shows_them() {
    let (mut app, proxy, _) = start_lean().await;
    let general = app.channel_id("general");
    app.palette("channel-info #general").await;
    app.until("the details", info_shown).await;
    app.until("the groups", |st| !st.data.users.groups_unknown()).await;
    app.settle().await;
    assert_eq!((proxy.seen("GET", "/user_groups"), proxy.seen("GET", "/users")), (1, 0));
    let shown = app.screen(100, 40);
    assert!(shown.contains("Who may post  everyone"), "{shown}");
    // (The feed behind the popup may cut a name with its email: "…" only counts in the popup.)
    let popup: String = shown.lines().filter_map(|l| l.split('│').nth(1)).collect();
    assert!(!shown.contains("group ") && !popup.contains("…"), "{shown}");
    app.key(KeyCode::Esc).await;

    // A setting naming a group people made and someone this client does not know yet.
    let (leads, who, name) = {
        let org = app.server.shared.lock();
        let leads = org.groups.values().find(|g| g.name == "leads").expect("the leads group").id;
        let u = org
            .users
            .values()
            .find(|u| u.bot_type.is_none() && !u.is_system_bot && !app.st.data.users.contains(u.id))
            .expect("someone not known here");
        (leads, u.id, u.full_name.clone())
    };
    let path = format!("/streams/{general}");
    proxy.arm(Box::new(move |ex: &Exchange| {
        let mut v = ex.json().filter(|_| ex.is("GET", &path))?;
        v["stream"]["can_send_message_group"] =
            serde_json::json!({"direct_members": [who], "direct_subgroups": [leads]});
        Some(Reply::Body(200, v.to_string().into_bytes()))
    }));
    app.palette("channel-info #general").await;
    app.until("the details", info_shown).await;
    app.until("the member", move |st| st.data.users.contains(who)).await;
    app.settle().await;
    let shown = app.screen(100, 40);
    assert!(shown.contains(&format!("Who may post  {name}, @leads")), "{shown}");
    assert_eq!((proxy.seen("GET", "/user_groups"), proxy.seen("GET", "/users")), (1, 0));
}

/// A server before Zulip 10.0 (level 333) says who may post with the old enum alone: channel
/// info says it in words without reading the groups.
#[tokio::test]
async fn low_bandwidth_channel_info_on_an_old_server_says_who_may_post_without_the_groups() {
    let (mut app, proxy, _) = start_lean_at(218).await;
    app.palette("channel-info #announcements").await;
    app.until("the details", info_shown).await;
    app.settle().await;
    let shown = app.screen(100, 40);
    assert!(shown.contains("Who may post  administrators only"), "{shown}");
    assert_eq!(proxy.seen("GET", "/user_groups"), 0, "nothing to read for it");
}

/// A deactivation and a rename made while `GET /users` is on its way, its answer made before
/// them (the proxy holds it back once the server gave it): their events came after the asking,
/// so they win over the older list — neither is undone when it arrives.
#[tokio::test]
async fn low_bandwidth_a_rename_and_a_deactivation_during_the_list_read_are_not_undone() {
    for level in LEAN_LEVELS {
        rename_and_deactivation_during_the_read(level).await;
    }
}

async fn rename_and_deactivation_during_the_read(level: i64) {
    // Someone who sent nothing and is named nowhere: not known here.
    let setup = Setup::new("member").low_bandwidth().feature_level(level);
    let (mut app, proxy) = start_with_newcomer(setup, "quiet@demo.topicterm.test", "Quinn Quiet").await;
    let gone = app.server.shared.lock().user_by_email("quiet@demo.topicterm.test").expect("Quinn").id;
    assert!(!app.st.data.users.contains(gone));
    let bob = app.other("bob");
    bob.register(&Default::default()).await.unwrap();
    let bob_id = bob.get_own_user().await.unwrap().user_id;
    bob.send_message(&OutgoingMessage::direct(vec![app.st.data.me], "ping")).await.unwrap();
    app.until("Bob named", move |st| st.data.users.contains(bob_id)).await;
    let list = proxy.hold("GET", "/users", Hold::Answer);
    compose(&mut app, "@Ali").await;
    list.arrived().await;
    let admin = app.other("admin");
    admin.deactivate_user(gone, None, None).await.unwrap();
    let rename = topicterm::api::Params::new().add("full_name", "Robert Nakamura");
    admin
        .call::<serde_json::Value>(reqwest::Method::PATCH, &format!("/users/{bob_id}"), rename)
        .await
        .unwrap();
    // The rename came after the deactivation, in the same queue: both are here.
    app.until("the rename", move |st| st.data.user_name(bob_id) == "Robert Nakamura").await;
    list.release();
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    assert_eq!(app.st.data.user_name(bob_id), "Robert Nakamura", "the older list does not undo the rename");
    assert_eq!(app.st.data.users.named("Bob Nakamura").count(), 0);
    assert!(app.st.data.users.get(gone).is_some_and(|u| !u.is_active), "nor the deactivation");
}

/// A Tab pressed while the people list is still on its way completes once it is in, without a
/// second press: in the `x` prompt and in the compose box (issue 51.14g).
#[tokio::test]
async fn low_bandwidth_a_tab_pressed_while_the_list_is_read_completes_once_it_is_in() {
    let (mut app, proxy, _) = start_lean().await;
    let gate = proxy.hold("GET", "/users", Hold::Request);
    app.key(KeyCode::Char('x')).await;
    for c in "Alice Ok".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Tab);
    gate.arrived().await;
    let line = |app: &App| app.st.ui.prompt.as_ref().map(|p| p.text().to_owned()).unwrap_or_default();
    assert_eq!(line(&app), "Alice Ok", "nothing to complete from yet");
    gate.release();
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    assert_eq!(line(&app), "Alice Okafor, ", "the same Tab completed");
    assert_eq!(proxy.seen("GET", "/users"), 1);

    // The compose box, on a server whose list is not read yet.
    let (mut app, proxy, _) = start_lean().await;
    let gate = proxy.hold("GET", "/users", Hold::Request);
    compose(&mut app, "hi @Ali").await;
    press(&mut app, KeyCode::Tab);
    gate.arrived().await;
    gate.release();
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    let text = app.st.ui.compose.as_ref().map(|c| c.text()).unwrap_or_default();
    assert!(text.contains("@**Alice Okafor**"), "the same Tab completed: {text}");
}

/// In low bandwidth the user is known by register's flags alone (the reference sends no
/// `role` there): a moderator and a guest are what they are before any list is read.
#[tokio::test]
async fn low_bandwidth_the_users_own_role_comes_from_registers_flags() {
    for (who, role) in [("moderator", 300), ("guest", 600), ("admin", 200), ("member", 400)] {
        let app = Setup::new(who).low_bandwidth().start().await;
        let me = app.st.data.me;
        assert_eq!(app.st.data.users.get(me).map(|u| u.role), Some(role), "{who}");
    }
}
