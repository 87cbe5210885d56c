//! Growing the organization from the palette, through the whole app against the demo server,
//! the server's state read back: creating a channel, inviting people.

use crate::harness::*;
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;

fn status(app: &App) -> Option<String> {
    app.st.ui.status.as_ref().map(|s| s.text.clone())
}

async fn said(app: &mut App, text: &str) {
    let text = text.to_owned();
    app.until(&format!("the status says {text:?}"), |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text == text)
    })
    .await;
}

#[tokio::test]
async fn a_member_creates_a_private_channel_and_lands_in_it() {
    let mut app = App::start("member").await;
    app.palette("create-channel night shift --private --description Who is on **tonight**").await;
    said(&mut app, "#night shift (private) created; you are in it").await;
    let id = app.server.shared.lock().channel_named("night shift").map(|c| c.id).expect("created");
    app.until("the new channel open", |st| st.ui.narrow == Narrow::Channel(id)).await;
    app.until("it in the sidebar", |st| st.data.channels.by_name("night shift").map(|c| c.id) == Some(id))
        .await;
    {
        let org = app.server.shared.lock();
        let c = org.channel_named("night shift").unwrap();
        assert!(c.invite_only);
        assert_eq!(c.description, "Who is on **tonight**");
    }
    insta::assert_snapshot!("channel_created_80x24", app.screen(80, 24));
    // The same name again, and the name of a channel the user could join.
    app.palette("create-channel Night Shift").await;
    assert_eq!(status(&app).as_deref(), Some("#night shift already exists, and you are in it"));
    app.key(KeyCode::Esc).await;
    let joinable = app
        .st
        .data
        .channels
        .joinable()
        .next()
        .map(|(_, n)| n.to_owned())
        .expect("a channel the member is not in");
    app.palette(&format!("create-channel {joinable}")).await;
    assert_eq!(status(&app), Some(format!("#{joinable} already exists (:subscribe #{joinable} joins it)")));
    app.key(KeyCode::Esc).await;
    app.palette("create-channel --private").await;
    assert_eq!(status(&app).as_deref(), Some("usage: :create-channel NAME [--private] [--description TEXT]"));
    app.key(KeyCode::Esc).await;
    app.palette(&format!("create-channel {}", "x".repeat(61))).await;
    assert_eq!(status(&app).as_deref(), Some("a channel name is at most 60 characters; this one has 61"));
    app.key(KeyCode::Esc).await;
}

#[tokio::test]
async fn a_guest_is_told_the_organization_does_not_let_them_create_channels() {
    let mut app = App::start("guest").await;
    app.palette("create-channel guests corner").await;
    said(&mut app, "#guests corner not created: this organization does not let you create channels").await;
    assert!(app.server.shared.lock().channel_named("guests corner").is_none());
}

#[tokio::test]
async fn an_older_server_creates_the_channel_by_subscribing() {
    let mut app = App::start_at_level("member", topicterm::api::levels::CREATE_CHANNEL - 1).await;
    app.palette("create-channel old ways").await;
    said(&mut app, "#old ways created; you are in it").await;
    let c = app.server.shared.lock().channel_named("old ways").map(|c| (c.id, c.invite_only));
    let (id, private) = c.expect("created");
    assert!(!private);
    app.until("it in the sidebar", |st| st.data.channels.by_name("old ways").map(|c| c.id) == Some(id)).await;
}

fn invited(app: &App) -> Vec<String> {
    app.server.shared.lock().invites.values().filter_map(|i| i.email.clone()).collect()
}

#[tokio::test]
async fn invitations_name_who_was_invited_where_and_who_was_not() {
    let mut app = App::start("member").await;
    let alice = app.server.credentials("alice").unwrap().email;
    app.palette(&format!("invite new.person@example.org, {alice} #general #random")).await;
    said(
        &mut app,
        &format!(
            "invited new.person@example.org (into #general, #random); not invited: {alice} (Already has an account.)"
        ),
    )
    .await;
    assert_eq!(invited(&app), ["new.person@example.org"]);
    {
        let org = app.server.shared.lock();
        let rec = org.invites.values().next().unwrap();
        assert_eq!(rec.by, app.st.data.me);
    }
    insta::assert_snapshot!("invited_80x24", app.screen(80, 24));
    // None named: the organization's default channels.
    app.palette("invite second@example.org").await;
    said(&mut app, "invited second@example.org (into the default channels)").await;
    assert_eq!(invited(&app).len(), 2);
    // Nobody: the reasons.
    app.palette(&format!("invite {alice}")).await;
    said(&mut app, &format!("nobody was invited; not invited: {alice} (Already has an account.)")).await;
    app.palette("invite third@example.org bob").await;
    assert_eq!(
        status(&app).as_deref(),
        Some("\"bob\" is not an email address; usage: :invite EMAIL… [#channel…]")
    );
    app.key(KeyCode::Esc).await;
    app.palette("invite third@example.org #no such place").await;
    assert_eq!(status(&app).as_deref(), Some("no channel named \"no such place\""));
    app.key(KeyCode::Esc).await;
    app.palette("invite").await;
    assert_eq!(status(&app).as_deref(), Some("usage: :invite EMAIL… [#channel…]"));
    app.key(KeyCode::Esc).await;
    assert_eq!(invited(&app).len(), 2, "nothing more was sent");
}

#[tokio::test]
async fn a_guest_is_told_they_may_not_invite_and_an_old_server_needs_channels_named() {
    let mut app = App::start("guest").await;
    app.palette("invite someone@example.org").await;
    said(&mut app, "not invited: this organization does not let you invite people").await;
    let level = topicterm::api::levels::INVITE_DEFAULT_CHANNELS - 1;
    let mut app = App::start_at_level("member", level).await;
    app.palette("invite someone@example.org").await;
    said(
        &mut app,
        "not invited: this server does not offer invitations to the default channels: it needs Zulip 9.0 or later (feature level 261; this server is at 260)",
    )
    .await;
    app.palette("invite someone@example.org #general").await;
    said(&mut app, "invited someone@example.org (into #general)").await;
    assert_eq!(invited(&app), ["someone@example.org"]);
}
