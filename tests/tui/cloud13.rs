//! Zulip Cloud as it is today (levels 507–511, issue 53), through the whole app and the demo
//! server on both sides of each level: link previews hidden per message (510), a channel's
//! mobile notification default for administrators (507), and the refusals of 505 in words.

use super::harness::{App, Setup};
use topicterm::api::{Flag, OutgoingMessage};
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;

async fn send(app: &App, who: &str, channel: i64, topic: &str, text: &str) -> i64 {
    let client = app.other(who);
    client.register(&Default::default()).await.expect("registered");
    client.send_message(&OutgoingMessage::channel(channel, topic, text)).await.expect("sent").id
}

fn status(app: &App) -> (bool, String) {
    let s = app.st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

/// A message with a linked picture, open and selected: (app, message).
async fn open_preview(level: Option<i64>) -> (App, i64) {
    let setup = Setup::new("member");
    let mut app = match level {
        Some(l) => setup.feature_level(l).start().await,
        None => setup.start().await,
    };
    let general = app.channel_id("general");
    let id =
        send(&app, "alice", general, "previews", "Look at [a cat](https://img.example/cat.png) here").await;
    app.open(Narrow::Topic(general, "previews".into())).await;
    app.until("the message", |st| st.data.messages.contains_key(&id)).await;
    app.select(id);
    (app, id)
}

#[tokio::test]
async fn link_previews_are_hidden_and_shown_again_by_the_servers_word_from_510() {
    let (mut app, id) = open_preview(None).await;
    let shown = app.screen(100, 30);
    assert!(shown.contains("[image 1]") && shown.contains("a cat"), "{shown}");
    app.palette("hide-previews").await;
    app.until("the flag's event", |st| {
        st.data.messages.get(&id).is_some_and(|m| m.has_flag(Flag::HideLinkPreviews))
    })
    .await;
    let hidden = app.screen(100, 30);
    assert!(!hidden.contains("[image 1]"), "the preview is gone: {hidden}");
    assert!(hidden.contains("a cat") && hidden.contains("here"), "the link stays in the text: {hidden}");
    let me = app.st.data.me;
    assert!(app.server.shared.lock().user_msgs[&me][&id].hide_link_previews, "the server keeps it");
    app.palette("hide-previews").await;
    assert_eq!(status(&app), (true, "its link previews are hidden already".into()));
    app.key(KeyCode::Esc).await;
    app.palette("show-previews").await;
    app.until("shown again", |st| {
        st.data.messages.get(&id).is_some_and(|m| !m.has_flag(Flag::HideLinkPreviews))
    })
    .await;
    assert!(app.screen(100, 30).contains("[image 1]"));
}

#[tokio::test]
async fn a_server_before_510_cannot_hide_previews_and_says_so() {
    let (mut app, id) = open_preview(Some(509)).await;
    app.palette("hide-previews").await;
    let (error, text) = status(&app);
    assert!(
        error && text.contains("needs Zulip 13.0 or later (feature level 510; this server is at 509)"),
        "{text}"
    );
    let me = app.st.data.me;
    assert!(!app.server.shared.lock().user_msgs[&me][&id].hide_link_previews);
    assert!(app.screen(100, 30).contains("[image 1]"));
}

#[tokio::test]
async fn administrators_see_and_set_a_channels_mobile_notification_default_from_507() {
    let mut app = Setup::new("admin").start().await;
    let design = app.channel_id("general");
    app.palette("channel-info #general").await;
    app.until("the details", |st| {
        matches!(&st.ui.popup, Some(topicterm::app::Popup::ChannelInfo { details: Some(_), .. }))
    })
    .await;
    assert!(app.screen(120, 40).contains("Push default  off"), "{}", app.screen(120, 40));
    app.key(KeyCode::Esc).await;
    app.palette("channel-push-default on #general").await;
    assert_eq!(status(&app), (false, "new subscribers get mobile notifications for it".into()));
    assert!(app.server.shared.lock().channels[&design].default_push_notifications);
    app.palette("channel-info #general").await;
    app.until("the details", |st| {
        matches!(&st.ui.popup, Some(topicterm::app::Popup::ChannelInfo { details: Some(c), .. })
            if c.default_push_notifications == Some(true))
    })
    .await;
    let screen = app.screen(120, 40);
    assert!(screen.contains("Push default  on: new subscribers get mobile notifications"), "{screen}");
    // Another administrator turns it off while the popup is open: the event says so.
    app.other("admin").set_channel_push_default(design, false).await.expect("an administrator may");
    app.until("the channel's event", |st| {
        matches!(&st.ui.popup, Some(topicterm::app::Popup::ChannelInfo { details: Some(c), .. })
            if c.default_push_notifications == Some(false))
    })
    .await;
    assert!(app.screen(120, 40).contains("Push default  off"));

    // A member is told it is not theirs; nothing is asked of the server.
    let mut member = Setup::new("member").start().await;
    member.palette("channel-push-default on #general").await;
    let (error, text) = status(&member);
    assert!(error && text.starts_with("only organization administrators"), "{text}");
    assert!(!member.server.shared.lock().channels[&design].default_push_notifications);
    member.key(KeyCode::Esc).await;
    // Nor shown to them.
    member.palette("channel-info #general").await;
    member
        .until("the details", |st| {
            matches!(&st.ui.popup, Some(topicterm::app::Popup::ChannelInfo { details: Some(_), .. }))
        })
        .await;
    assert!(!member.screen(120, 40).contains("Push default"));

    // Below 507 there is no such setting.
    let mut old = Setup::new("admin").feature_level(506).start().await;
    old.palette("channel-push-default on #general").await;
    let (error, text) = status(&old);
    assert!(error && text.contains("feature level 507; this server is at 506"), "{text}");
}

/// A member renames a topic whose first message is past the week's limit: the refusal says how
/// many may move, and from which message (505 answers so for a `change_all` from the old one).
#[tokio::test]
async fn a_move_past_the_time_limit_says_which_messages_may_move() {
    for level in [Some(504), None] {
        let setup = Setup::new("member");
        let mut app = match level {
            Some(l) => setup.feature_level(l).start().await,
            None => setup.start().await,
        };
        let general = app.channel_id("general");
        let mut ids = Vec::new();
        for t in ["one", "two", "three"] {
            ids.push(send(&app, "alice", general, "aging", t).await);
        }
        app.server.shared.lock().messages.get_mut(&ids[0]).unwrap().timestamp -= 8 * 86400;
        app.open(Narrow::Topic(general, "aging".into())).await;
        app.until("the topic", |st| ids.iter().all(|i| st.data.messages.contains_key(i))).await;
        app.select(ids[0]);
        app.palette("rename-topic renamed --all").await;
        app.until("the answer", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
        let (_, text) = status(&app);
        if level == Some(504) {
            assert!(text.contains("time limit"), "{text}");
        } else {
            assert!(
                text.starts_with("not moved: only the 2 most recent of the topic's 3 messages may move")
                    && text.contains(&format!("(message {})", ids[1])),
                "{text}"
            );
        }
        let org = app.server.shared.lock();
        assert!(ids.iter().all(|i| org.messages[i].topic() == "aging"), "a refused move leaves no trace");
    }
}
