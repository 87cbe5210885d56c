//! The inbox (`:inbox`, `B`), through the whole app against the demo server: unread
//! conversations by channel then DMs, kept current while open (new messages, reads elsewhere,
//! mutes), folded and opened from the keyboard, the server's read state read back.

use crate::harness::*;
use topicterm::api::{OutgoingMessage, VisibilityPolicy};
use topicterm::app::keys::KeyCode;
use topicterm::app::{InboxGroup, InboxRow, InboxView, Narrow, Popup, State};
use topicterm::server::org::Recip;

fn inbox(st: &State) -> &InboxView {
    match &st.ui.popup {
        Some(Popup::Inbox(v)) => v,
        other => panic!("the inbox is not open: {other:?}"),
    }
}

fn selected(st: &State) -> InboxRow {
    let v = inbox(st);
    v.rows[v.selected].clone()
}

fn topic_row(st: &State, channel: i64, topic: &str) -> Option<usize> {
    inbox(st).rows.iter().position(
        |r| matches!(r, InboxRow::Topic { channel: c, topic: t, .. } if *c == channel && t == topic),
    )
}

#[tokio::test]
async fn the_inbox_lists_unread_conversations_by_channel_then_dms_and_opens_one() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('B')).await;
    let st = &app.st;
    let rows = &inbox(st).rows;
    // The counts are the unread index's: each channel's heading sums its topics.
    let mut heading = None;
    let mut sum = 0;
    for r in rows.iter().chain([&InboxRow::Group { group: InboxGroup::Dms, unread: 0 }]) {
        match r {
            InboxRow::Group { .. } => {
                if let Some(InboxRow::Group { unread, group: InboxGroup::Channel(c) }) = heading {
                    assert_eq!(unread, sum, "#{}", st.data.channels.name(c));
                    assert_eq!(unread, st.data.channel_unread(c));
                }
                heading = Some(r.clone());
                sum = 0;
            }
            InboxRow::Topic { channel, topic, unread } => {
                assert_eq!(*unread, st.data.topic_unread(*channel, topic));
                sum += unread;
            }
            InboxRow::Dm { .. } => {}
        }
    }
    // In the muted channel (#random, muted by this user) only the topics the user unmuted or
    // follows stay, as in the web app; the DMs come last.
    let random = app.channel_id("random");
    let shown: Vec<&str> = rows
        .iter()
        .filter_map(|r| match r {
            InboxRow::Topic { channel, topic, .. } if *channel == random => Some(topic.as_str()),
            _ => None,
        })
        .collect();
    assert!(!shown.is_empty(), "{rows:?}");
    for t in &shown {
        assert!(
            matches!(st.data.policy(random, t), VisibilityPolicy::Unmuted | VisibilityPolicy::Followed),
            "{t}"
        );
    }
    let unread_topics = st.data.unread.topics_in(random).unwrap().len();
    assert!(unread_topics > shown.len(), "its other unread topics are left out");
    let dms = rows.iter().position(|r| r.group() == InboxGroup::Dms).expect("the DMs");
    assert!(rows[dms..].iter().all(|r| r.group() == InboxGroup::Dms));
    insta::assert_snapshot!("inbox_80x24", app.screen(80, 24));
    insta::assert_snapshot!("inbox_160x48", app.screen(160, 48));
    // Enter on a topic opens it; reading it there makes it read on the server, and the inbox
    // (opened again) no longer lists it.
    let general = app.channel_id("general");
    let at = topic_row(&app.st, general, "all-hands questions").expect("an unread topic of #general");
    while inbox(&app.st).selected < at {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.popup.is_none());
    assert_eq!(app.st.ui.narrow, Narrow::Topic(general, "all-hands questions".into()));
    app.palette("mark-read").await;
    let me = app.st.data.me;
    app.until("read here", |st| st.data.topic_unread(general, "all-hands questions") == 0).await;
    let unread_on_server = {
        let org = app.server.shared.lock();
        let flags = &org.user_msgs[&me];
        org.messages
            .values()
            .filter(|m| matches!(&m.recip, Recip::Channel { id, topic } if *id == general && topic == "all-hands questions"))
            .filter(|m| flags.get(&m.id).is_some_and(|f| !f.read))
            .count()
    };
    assert_eq!(unread_on_server, 0, "read on the server");
    app.key(KeyCode::Char('B')).await;
    assert_eq!(topic_row(&app.st, general, "all-hands questions"), None);
    // `B` again closes it, as esc and q do.
    app.key(KeyCode::Char('B')).await;
    assert!(app.st.ui.popup.is_none());
}

#[tokio::test]
async fn the_inbox_stays_current_while_open_and_the_selection_stays_on_its_row() {
    let mut app = App::start("member").await;
    let general = app.channel_id("general");
    app.palette("inbox").await;
    // On the last row (a DM conversation).
    app.key(KeyCode::Char('G')).await;
    let on = selected(&app.st);
    assert!(matches!(on, InboxRow::Dm { .. }), "{on:?}");
    // A new message in a new topic: its row comes in, at the top of #general's topics.
    let alice = app.other("alice");
    let id = alice.send_message(&OutgoingMessage::channel(general, "fresh news", "hello")).await.unwrap().id;
    app.until("the new topic", |st| topic_row(st, general, "fresh news").is_some()).await;
    let heading = inbox(&app.st).rows.iter().position(|r| r.group() == InboxGroup::Channel(general)).unwrap();
    assert_eq!(topic_row(&app.st, general, "fresh news"), Some(heading + 1), "newest first");
    assert!(selected(&app.st).same_place(&on), "the selection stays on its row");
    // Read elsewhere (another client of the same user): the row goes at once.
    app.other("member").update_message_flags(&[id], true, topicterm::api::Flag::Read).await.unwrap();
    app.until("the row gone", |st| topic_row(st, general, "fresh news").is_none()).await;
    assert!(selected(&app.st).same_place(&on));
    // Muted elsewhere: the topic leaves the inbox.
    let unread_topic = match &inbox(&app.st).rows[heading + 1] {
        InboxRow::Topic { topic, .. } => topic.clone(),
        other => panic!("{other:?}"),
    };
    app.other("member").update_user_topic(general, &unread_topic, VisibilityPolicy::Muted).await.unwrap();
    app.until("the muted topic gone", |st| topic_row(st, general, &unread_topic).is_none()).await;
    // The row under the selection going: the selection takes the row in its place.
    let last = inbox(&app.st).rows.len() - 1;
    assert_eq!(inbox(&app.st).selected, last);
    let InboxRow::Dm { users, .. } = selected(&app.st) else { panic!() };
    let ids: Vec<i64> = app
        .st
        .data
        .unread
        .in_conv(&topicterm::app::Conv::Dm(users.clone()))
        .unwrap()
        .iter()
        .copied()
        .collect();
    app.other("member").update_message_flags(&ids, true, topicterm::api::Flag::Read).await.unwrap();
    app.until("the DM gone", |st| {
        !inbox(st).rows.iter().any(|r| matches!(r, InboxRow::Dm { users: u, .. } if *u == users))
    })
    .await;
    assert_eq!(inbox(&app.st).selected, inbox(&app.st).rows.len() - 1, "on the row that took its place");
}

#[tokio::test]
async fn space_folds_a_channel_and_an_empty_inbox_says_so() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('B')).await;
    let rows = inbox(&app.st).rows.len();
    // On a topic: space folds its channel, the selection on the heading.
    app.key(KeyCode::Char('j')).await;
    let group = selected(&app.st).group();
    let topics = inbox(&app.st)
        .rows
        .iter()
        .filter(|r| matches!(r, InboxRow::Topic { .. }) && r.group() == group)
        .count();
    assert!(topics > 0);
    app.key(KeyCode::Char(' ')).await;
    assert_eq!(inbox(&app.st).rows.len(), rows - topics);
    assert!(matches!(selected(&app.st), InboxRow::Group { group: g, .. } if g == group));
    let screen = app.screen(80, 24);
    assert!(screen.lines().any(|l| l.contains('▸')), "{screen}");
    // → unfolds it; ← folds it; space again unfolds.
    app.key(KeyCode::Right).await;
    assert_eq!(inbox(&app.st).rows.len(), rows);
    app.key(KeyCode::Left).await;
    app.key(KeyCode::Char(' ')).await;
    assert_eq!(inbox(&app.st).rows.len(), rows);
    // Folded, a new message in it keeps it folded.
    app.key(KeyCode::Char(' ')).await;
    let InboxGroup::Channel(channel) = group else { panic!() };
    let alice = app.other("alice");
    alice.send_message(&OutgoingMessage::channel(channel, "while folded", "x")).await.unwrap();
    app.until("counted", |st| st.data.topic_unread(channel, "while folded") == 1).await;
    assert!(topic_row(&app.st, channel, "while folded").is_none(), "still folded");
    // Everything read: it says so.
    app.key(KeyCode::Esc).await;
    app.palette("mark-read all").await;
    app.key(KeyCode::Char('y')).await;
    app.until("all read", |st| st.data.unread.is_empty()).await;
    app.key(KeyCode::Char('B')).await;
    assert!(inbox(&app.st).rows.is_empty());
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("inbox_empty_80x24", screen);
    assert!(screen.contains("No unread messages"));
    insta::assert_snapshot!("inbox_empty_160x48", app.screen(160, 48));
    app.key(KeyCode::Char('q')).await;
    assert!(app.st.ui.popup.is_none());
}
