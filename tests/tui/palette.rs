//! The command palette and scheduling, through the real dispatcher and demo server.

use crate::harness::App;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Popup, PromptKind};

/// Type `:command` and press enter.
fn status(app: &App) -> (bool, String) {
    let s = app.st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

#[tokio::test]
async fn status_is_set_and_cleared() {
    let mut app = App::start("member").await;
    app.palette("status Heads down until 3").await;
    assert_eq!(status(&app), (false, "status set".into()));
    let me = app.st.data.me;
    assert_eq!(app.server.shared.lock().users[&me].status.status_text, "Heads down until 3");
    app.palette("status clear").await;
    assert_eq!(app.server.shared.lock().users[&me].status.status_text, "");
    app.palette(&"x".repeat(61)).await;
    app.palette("status").await;
    assert!(status(&app).0, "a bare :status explains its usage");
}

#[tokio::test]
async fn unsubscribe_reports_removed_and_not_removed() {
    let mut app = App::start("member").await;
    let design = app.channel_id("design");
    app.palette("unsubscribe #design").await;
    assert_eq!(app.st.ui.confirm.as_ref().map(|(q, _)| q.as_str()), Some("Leave #design? (y/N)"));
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "you left #design".into()));
    assert!(!app.st.data.channels.is_subscribed(design), "the subscription event removed it");
    // Owning helperbot lets member unsubscribe it; it is not in #random.
    app.palette("unsubscribe #general helperbot@demo.topicterm.test").await;
    assert_eq!(
        app.st.ui.confirm.as_ref().map(|(q, _)| q.as_str()),
        Some("Remove Helper Bot from #general? (y/N)")
    );
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "Helper Bot removed from #general".into()));
    app.palette("unsubscribe #general helperbot@demo.topicterm.test").await;
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "Helper Bot was not subscribed to #general".into()));
    app.palette("unsubscribe #general bob@demo.topicterm.test").await;
    app.key(KeyCode::Char('y')).await;
    let (err, text) = status(&app);
    assert!(err && text.contains("Insufficient permission"), "{text}");
}

#[tokio::test]
async fn deactivation_asks_first_and_only_admins_may() {
    let mut app = App::start("admin").await;
    app.palette("deactivate Bob Nakamura").await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::Confirm));
    insta::assert_snapshot!("confirm_80x24", app.screen(80, 24));
    app.key(KeyCode::Char('n')).await;
    let bob = app.server.shared.lock().users.values().find(|u| u.short_name == "bob").map(|u| u.id).unwrap();
    assert!(app.server.shared.lock().users[&bob].is_active, "n cancels");
    app.palette("deactivate Bob Nakamura").await;
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "Bob Nakamura deactivated".into()));
    assert!(!app.server.shared.lock().users[&bob].is_active);

    let mut member = App::start("member").await;
    member.palette("deactivate alice@demo.topicterm.test").await;
    let (err, text) = status(&member);
    assert!(err && text.contains("administrator"), "{text}");
    assert!(member.st.ui.confirm.is_none(), "a member is told before being asked to confirm");
}

#[tokio::test]
async fn group_view_playground_email_and_apns_commands() {
    let mut app = App::start("admin").await;
    app.palette("group-add backend noa@demo.topicterm.test").await;
    assert_eq!(status(&app), (false, "Noa Peretz added to @backend".into()));
    let noa = app.server.shared.lock().users.values().find(|u| u.short_name == "noa").map(|u| u.id).unwrap();
    let backend = app.st.data.users.groups().find(|g| g.name == "backend").map(|g| g.id).unwrap();
    assert!(app.server.shared.lock().groups[&backend].members.contains(&noa));
    app.palette("subgroup-add oncall frontend").await;
    assert_eq!(status(&app), (false, "@frontend is now a subgroup of @oncall".into()));

    app.palette("view-hide recent").await;
    assert_eq!(status(&app), (false, "view recent updated".into()));
    app.palette("view-rename recent Recent stuff").await;
    assert!(status(&app).1.contains("Built-in views cannot have a custom name"));

    app.palette("playground Go Go https://go.dev/play/?code={code}").await;
    assert_eq!(status(&app), (false, "playground Go added".into()));
    app.palette("playground Bad Go https://go.dev/play/").await;
    assert!(status(&app).0, "checked before sending");
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some("playground Bad Go https://go.dev/play/"));
    app.key(KeyCode::Esc).await;

    app.palette("channel-email #general").await;
    let (err, text) = status(&app);
    assert!(
        !err && text.starts_with("channel email copied: general.") && text.contains("@streams."),
        "{text}"
    );
    let copied = app.outside.copied.last().cloned().expect("the address reached the clipboard");
    assert!(text.ends_with(&copied) && copied.starts_with("general."), "{copied}");

    app.palette("apns 0123456789abcdef com.example.app").await;
    assert_eq!(status(&app), (false, "APNs token registered".into()));
}

#[tokio::test]
async fn report_goes_to_the_moderators() {
    let mut app = App::start("member").await;
    let id = app.st.ui.selected.expect("a selected message");
    app.palette("report other").await;
    assert!(status(&app).1.contains("description"), "other needs a description: {:?}", status(&app));
    app.key(KeyCode::Esc).await;
    app.palette("report spam buying followers").await;
    assert_eq!(status(&app), (false, "reported to the moderators".into()));
    let org = app.server.shared.lock();
    let channel = org.realm.moderation_request_channel_id.unwrap();
    let last = org.messages.values().rev().find(|m| m.channel_id() == Some(channel)).unwrap();
    assert!(last.content.contains(&format!("({id})")) && last.content.contains("buying followers"));
}

#[tokio::test]
async fn compose_schedules_for_later_and_the_list_edits_and_deletes() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("remember the retro").await;
    app.ctrl('s').await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::ScheduleTime));
    app.keys("yesterday").await;
    app.key(KeyCode::Enter).await;
    assert!(status(&app).1.contains("cannot read"), "{:?}", status(&app));
    app.key(KeyCode::Esc).await;
    app.ctrl('s').await;
    app.keys("in 2h").await;
    app.key(KeyCode::Enter).await;
    // It says when (issue 40: it said only "scheduled").
    let said = status(&app);
    assert!(!said.0 && said.1.starts_with("scheduled for ") && said.1.contains(" at "), "{said:?}");
    assert!(app.st.ui.compose.is_none());
    let ours = app
        .st
        .data
        .lists
        .scheduled()
        .values()
        .find(|s| s.content == "remember the retro")
        .cloned()
        .expect("event");
    assert!(ours.scheduled_delivery_timestamp > app.st.now + 7000);

    app.palette("scheduled").await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Scheduled { .. })));
    insta::assert_snapshot!("scheduled_80x24", app.screen(80, 24));
    insta::assert_snapshot!("scheduled_160x48", app.screen(160, 48));
    // G and g, as in every list (issue 40: G did nothing here).
    let last = topicterm::app::scheduled_in_order(&app.st).len() - 1;
    app.key(KeyCode::Char('G')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Scheduled { selected }) if selected == last));
    app.key(KeyCode::Char('g')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Scheduled { selected: 0 })));

    // The seeded failed message sorts first: editing it needs a new time.
    let order = topicterm::app::scheduled_in_order(&app.st);
    let failed_pos =
        order.iter().position(|id| app.st.data.lists.scheduled()[id].failed).expect("a failed one");
    for _ in 0..failed_pos {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Char('e')).await;
    assert!(app.st.ui.compose.as_ref().is_some_and(|c| c.scheduled.is_some()));
    app.ctrl('d').await;
    assert!(status(&app).1.contains("new time"), "{:?}", status(&app));
    app.ctrl('s').await;
    app.keys("tomorrow 10:00").await;
    app.key(KeyCode::Enter).await;
    assert_eq!(status(&app), (false, "scheduled message moved to tomorrow at 10:00".into()));
    let failed_id = order[failed_pos];
    assert!(!app.st.data.lists.scheduled()[&failed_id].failed, "pending again");

    app.palette("scheduled").await;
    let pos = topicterm::app::scheduled_in_order(&app.st)
        .iter()
        .position(|id| *id == ours.scheduled_message_id)
        .unwrap();
    for _ in 0..pos {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Char('d')).await;
    let question = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).expect("d asks first");
    assert!(
        question.starts_with("Delete the scheduled message to #") && question.contains(" at "),
        "{question}"
    );
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "scheduled message deleted".into()));
    assert!(!app.st.data.lists.scheduled().contains_key(&ours.scheduled_message_id));
}

#[tokio::test]
async fn palette_completes_and_explains_unknown_commands() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char(':')).await;
    app.keys("sch").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some("scheduled "));
    app.key(KeyCode::Esc).await;
    app.palette("view").await;
    app.palette("frobnicate").await;
    assert!(status(&app).1.contains("no command"));
}

#[tokio::test]
async fn date_jumps_to_the_first_message_of_the_day() {
    let mut app = App::start("member").await;
    app.palette("date 2026-11-19").await;
    let day = 1_795_046_400; // 2026-11-19 00:00 UTC
    let sel = app.st.ui.selected.expect("a selected message");
    let view = &app.st.data.views[&app.st.ui.narrow];
    let pos = view.ids().iter().position(|id| *id == sel).unwrap();
    assert!(app.st.data.messages[&sel].timestamp >= day);
    assert!(pos > 0 && app.st.data.messages[&view.ids()[pos - 1]].timestamp < day, "the one before is older");
    app.palette("date yesterday-ish").await;
    assert!(status(&app).1.contains("not a date"));
}

#[tokio::test]
async fn status_takes_an_emoji_and_deactivation_takes_actions() {
    let mut app = App::start("admin").await;
    app.palette("status :coffee: Coffee time").await;
    assert_eq!(status(&app), (false, "status set".into()));
    let me = app.st.data.me;
    let st = app.server.shared.lock().users[&me].status.clone();
    assert_eq!(
        (st.emoji_name.as_str(), st.emoji_code.as_str(), st.status_text.as_str()),
        ("coffee", "2615", "Coffee time")
    );

    let bob = app.server.shared.lock().users.values().find(|u| u.short_name == "bob").map(|u| u.id).unwrap();
    let dms_of_bob = |app: &App| {
        let org = app.server.shared.lock();
        org.messages.values().filter(|m| m.sender_id == bob && m.channel_id().is_none()).count()
    };
    assert!(dms_of_bob(&app) > 0, "the seed has DMs from bob");
    app.palette("deactivate bob@demo.topicterm.test --delete-dms").await;
    app.key(KeyCode::Char('y')).await;
    assert_eq!(status(&app), (false, "Bob Nakamura deactivated".into()));
    assert_eq!(dms_of_bob(&app), 0, "his direct messages are deleted");
}

/// Issue 51.7: `:subscribe #` offered the channels the user was already in, `:subscribe #outd`
/// and `:channel-info #out` completed nothing, and Enter refused "outd" while #outdoors was
/// there to join. Each command completes what it can take, by the beginning of the name or of
/// one of its words, and Enter takes what Tab would.
#[tokio::test]
async fn channel_arguments_complete_what_the_command_takes_and_enter_agrees() {
    let mut app = App::start("member").await;
    let offered =
        |app: &App| app.st.ui.completion.suggestions.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>();
    let tab = async |app: &mut App, typed: &str| {
        app.key(KeyCode::Char(':')).await;
        app.keys(typed).await;
        let offered = offered(app);
        app.key(KeyCode::Tab).await;
        let text = app.st.ui.prompt.as_ref().map(|p| p.text().to_owned()).unwrap_or_default();
        app.key(KeyCode::Esc).await;
        (offered, text)
    };
    assert_eq!(
        tab(&mut app, "subscribe #").await,
        (vec!["#outdoors".to_owned()], "subscribe #outdoors ".into())
    );
    assert_eq!(tab(&mut app, "subscribe #outd").await.1, "subscribe #outdoors ");
    assert_eq!(tab(&mut app, "channel-info #out").await.1, "channel-info #outdoors ");
    assert_eq!(tab(&mut app, "channel-info #club").await.1, "channel-info #book-club ", "a word's beginning");
    let (mine, _) = tab(&mut app, "unsubscribe #").await;
    assert!(mine.contains(&"#design".to_owned()) && !mine.contains(&"#outdoors".to_owned()), "{mine:?}");

    // Enter resolves as Tab does: the one channel to join that "outd" begins.
    app.palette("subscribe #outd").await;
    let outdoors = app.channel_id("outdoors");
    app.until("the subscription", |st| st.data.channels.is_subscribed(outdoors)).await;
    // Several that a name begins are named, and nothing is done.
    app.palette("channel-info #b").await;
    let (err, text) = status(&app);
    assert!(err && text.contains("#book-club") && text.contains("#builds"), "{text}");
    assert!(app.st.ui.popup.is_none());
}
