//! The organization's rules before the key (issue 52): the compose box says at once that a
//! member may not post in an announcement channel, keeping the text and sending nothing; a
//! length counter shows as the text nears `max_message_length` and sending past it is refused
//! here with the numbers, never offered as retryable; an edit past the organization's time
//! limit is refused before any request; and an administrator's change (`PATCH /realm`,
//! `PATCH /streams`) applies to the open client at once. At level 218 and the default.

use super::harness::{App, Setup};
use std::time::Duration;
use topicterm::api::Params;
use topicterm::app::Narrow;
use topicterm::app::keys::KeyCode;
use topicterm::server::org::Recip;

const LEVELS: [Option<i64>; 2] = [Some(218), None];

async fn start(level: Option<i64>) -> App {
    match level {
        Some(l) => Setup::new("member").feature_level(l).start().await,
        None => Setup::new("member").start().await,
    }
}

/// A message stored on the server as sent by `sender` `ago` seconds ago (no event: the client
/// reads it with its topic's first page).
fn stored(app: &App, sender: i64, channel: i64, topic: &str, text: &str, ago: i64) -> i64 {
    let mut org = app.server.shared.lock();
    let at = org.now() - ago;
    let recip = Recip::Channel { id: channel, topic: topic.to_owned() };
    org.insert_message(sender, recip, text, at, "test", None)
}

fn content(app: &App, id: i64) -> String {
    app.server.shared.lock().messages[&id].content.clone()
}

/// An administrator's `PATCH` of `path` with `params`, from another client.
async fn admin_patch(app: &App, path: &str, params: Params) {
    app.other("admin")
        .raw(reqwest::Method::PATCH, path, params, Duration::from_secs(10))
        .await
        .unwrap_or_else(|e| panic!("PATCH {path}: {e}"));
}

fn status(app: &App) -> String {
    app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

/// Opens `topic` in `channel` with `id` selected and presses `r`: the compose box to it.
async fn reply_in(app: &mut App, channel: i64, topic: &str, id: i64) {
    app.open(Narrow::Topic(channel, topic.into())).await;
    app.select(id);
    app.key(KeyCode::Char('r')).await;
    assert!(app.st.ui.compose.is_some(), "the compose box: {}", status(app));
}

#[tokio::test]
async fn composing_where_members_may_not_post_says_so_at_once_keeps_the_text_and_sends_nothing() {
    for level in LEVELS {
        let mut app = start(level).await;
        let announcements = app.channel_id("announcements");
        let admin = app.server.shared.lock().users.values().find(|u| u.short_name == "admin").unwrap().id;
        let id = stored(&app, admin, announcements, "town hall", "Town hall on Friday", 60);
        reply_in(&mut app, announcements, "town hall", id).await;
        let said = "you may not post in #announcements: administrators only may post there";
        let screen = app.screen(160, 40);
        assert!(screen.contains(said), "level {level:?}: at once, before any key:\n{screen}");

        app.keys("see you there").await;
        let held = app.server.shared.lock().messages.len();
        app.ctrl('d').await;
        app.settle().await;
        assert_eq!(status(&app), said, "level {level:?}");
        let c = app.st.ui.compose.as_ref().expect("the box stays open");
        assert_eq!(c.text(), "see you there", "the text is kept");
        assert!(app.st.outbox.is_empty(), "nothing on its way");
        assert_eq!(app.server.shared.lock().messages.len(), held, "level {level:?}: nothing sent");
        app.close().await;
    }
}

#[tokio::test]
async fn a_counter_shows_near_the_length_limit_and_past_it_the_send_is_refused_here_with_the_numbers() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let me = app.st.data.me;
        let id = stored(&app, me, general, "long reads", "a short one", 60);
        reply_in(&mut app, general, "long reads", id).await;
        assert!(!app.screen(160, 40).contains("/10,000"), "no counter for a short text");

        let line = format!("{}\n", "x".repeat(99));
        app.send(topicterm::app::Msg::Paste(line.repeat(95))).await;
        let screen = app.screen(160, 40);
        assert!(screen.contains("9,500/10,000"), "level {level:?}: the counter near the limit:\n{screen}");
        app.send(topicterm::app::Msg::Paste(line.repeat(10))).await;
        assert!(app.screen(160, 40).contains("10,500/10,000"), "level {level:?}");

        let held = app.server.shared.lock().messages.len();
        app.ctrl('d').await;
        app.settle().await;
        let said = status(&app);
        assert_eq!(
            said, "too long to send: 10,500 characters, the organization takes at most 10,000 (500 too many)",
            "level {level:?}"
        );
        assert!(!said.contains("ctrl+r") && app.st.outbox.is_empty(), "never offered as retryable");
        assert_eq!(app.st.ui.compose.as_ref().map(|c| c.text().chars().count()), Some(10_500), "text kept");
        assert_eq!(app.server.shared.lock().messages.len(), held, "nothing sent");
        app.close().await;
    }
}

#[tokio::test]
async fn an_edit_past_the_time_limit_is_refused_before_any_request() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let me = app.st.data.me;
        let old = stored(&app, me, general, "edit limits", "written an hour ago", 3600);
        app.open(Narrow::Topic(general, "edit limits".into())).await;
        app.select(old);
        app.key(KeyCode::Char('e')).await;
        assert!(app.st.ui.compose.is_none(), "level {level:?}: no edit box");
        let said = status(&app);
        assert_eq!(
            said,
            "the time limit for editing this message has passed: the organization allows 10 minutes after \
             sending; its topic may still be changed (t)",
            "level {level:?}"
        );
        app.settle().await;
        assert_eq!(status(&app), said, "level {level:?}: no answer from the server came after");
        assert_eq!(content(&app, old), "written an hour ago");
        app.close().await;
    }
}

#[tokio::test]
async fn an_administrators_change_of_the_rules_applies_to_the_open_client_at_once() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let me = app.st.data.me;
        let old = stored(&app, me, general, "live rules", "written an hour ago", 3600);
        app.open(Narrow::Topic(general, "live rules".into())).await;
        app.select(old);
        app.key(KeyCode::Char('e')).await;
        assert!(status(&app).contains("the organization allows 10 minutes"), "{}", status(&app));

        // No limit: the edit box opens.
        admin_patch(&app, "/realm", Params::new().add("message_content_edit_limit_seconds", "unlimited"))
            .await;
        app.until("no limit", |st| st.data.realm.rules.message_content_edit_limit_seconds.is_none()).await;
        app.key(KeyCode::Char('e')).await;
        app.until("the edit box", |st| st.ui.compose.as_ref().is_some_and(|c| c.editing == Some(old))).await;
        app.key(KeyCode::Esc).await;
        app.until("the edit box closed", |st| st.ui.compose.is_none()).await;

        // Editing turned off: `e` says so, before asking anything.
        admin_patch(&app, "/realm", Params::new().add("allow_message_editing", "false")).await;
        app.until("the rule applied", |st| st.data.realm.rules.allow_message_editing == Some(false)).await;
        app.key(KeyCode::Char('e')).await;
        assert!(app.st.ui.compose.is_none(), "level {level:?}");
        assert!(
            status(&app).starts_with("the organization has turned off message editing"),
            "{}",
            status(&app)
        );

        // #general made announcement-only while the box is open: it says so at once.
        app.key(KeyCode::Char('r')).await;
        assert!(!app.screen(160, 40).contains("you may not post"));
        let path = format!("/streams/{general}");
        admin_patch(&app, &path, Params::new().add("stream_post_policy", "2")).await;
        let said = "you may not post in #general: administrators only may post there";
        app.until("the channel's rule", |st| {
            st.data.channels.get(general).is_some_and(|c| c.stream_post_policy == Some(2))
        })
        .await;
        assert!(app.screen(160, 40).contains(said), "level {level:?}: {}", app.screen(160, 40));
        admin_patch(&app, &path, Params::new().add("stream_post_policy", "1")).await;
        app.until("open again", |st| {
            st.data.channels.get(general).is_some_and(|c| c.stream_post_policy == Some(1))
        })
        .await;
        assert!(!app.screen(160, 40).contains(said), "level {level:?}");
        app.close().await;
    }
}

#[tokio::test]
async fn a_move_past_the_organizations_limit_is_refused_before_any_request_saying_what_is_left() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let me = app.st.data.me;
        let limit = Params::new().add("move_messages_within_stream_limit_seconds", "60");
        admin_patch(&app, "/realm", limit).await;
        app.until("the limit", |st| {
            st.data.realm.rules.move_messages_within_stream_limit_seconds == Some(60)
        })
        .await;
        let old = stored(&app, me, general, "moving limits", "an hour old", 3600);
        app.open(Narrow::Topic(general, "moving limits".into())).await;
        app.select(old);
        app.palette("rename-topic elsewhere --one").await;
        let said = "the time limit for moving this message has passed: the organization allows 1 minute after \
                    sending; the topic may still be resolved (V)";
        assert_eq!(status(&app), said, "level {level:?}");
        app.settle().await;
        assert_eq!(status(&app), said, "level {level:?}: nothing came from the server after");
        assert_eq!(app.server.shared.lock().messages[&old].topic(), "moving limits", "not moved");
        app.close().await;
    }
}

/// `:resolve` typed in the palette asks the organization's rules before any request, as `V`
/// does: a member where only administrators may move topics (level 218: `edit_topic_policy`)
/// is told so in the same words, and the topic stays as it was on the server.
#[tokio::test]
async fn resolve_typed_in_the_palette_is_refused_before_any_request_as_the_key_is() {
    let mut app = start(Some(218)).await;
    let general = app.channel_id("general");
    let me = app.st.data.me;
    admin_patch(&app, "/realm", Params::new().add("edit_topic_policy", "2")).await;
    app.until("the policy", |st| st.data.realm.rules.edit_topic_policy == Some(2)).await;
    let id = stored(&app, me, general, "typed resolve", "mine, a minute old", 60);
    app.open(Narrow::Topic(general, "typed resolve".into())).await;
    app.select(id);
    app.key(KeyCode::Char('V')).await;
    let by_key = status(&app);
    assert!(by_key.starts_with("the organization does not let you resolve topics"), "{by_key}");
    app.st.ui.status = None;
    app.palette("resolve").await;
    assert_eq!(status(&app), by_key, "the same words");
    app.settle().await;
    assert_eq!(status(&app), by_key, "nothing came from the server after");
    assert_eq!(app.server.shared.lock().messages[&id].topic(), "typed resolve", "not resolved");
    app.close().await;
}

/// A channel's own group widens the organization's (level 396 on): where only administrators
/// may rename topics, a member in the channel's `can_move_messages_within_channel_group` is
/// not refused here — the rename goes to the server, which takes it; a member of another
/// channel still is, before any request.
#[tokio::test]
async fn a_channels_own_move_group_lets_what_the_organization_does_not() {
    let mut app = start(None).await;
    let (general, random) = (app.channel_id("general"), app.channel_id("random"));
    let me = app.st.data.me;
    let (admins, members) = {
        let org = app.server.shared.lock();
        (org.system_group("role:administrators"), org.system_group("role:members"))
    };
    let only_admins = serde_json::json!({"new": admins}).to_string();
    admin_patch(&app, "/realm", Params::new().add("can_move_messages_between_topics_group", &only_admins))
        .await;
    let lets_members = serde_json::json!({"new": members}).to_string();
    let path = format!("/streams/{general}");
    admin_patch(&app, &path, Params::new().add("can_move_messages_within_channel_group", &lets_members))
        .await;
    app.until("the channel's group", |st| {
        st.data
            .channels
            .get(general)
            .is_some_and(|c| c.permissions.contains_key("can_move_messages_within_channel_group"))
            && st.data.realm.rules.can_move_messages_between_topics_group.is_some()
    })
    .await;
    let elsewhere = stored(&app, me, random, "not here", "mine", 60);
    app.open(Narrow::Topic(random, "not here".into())).await;
    app.select(elsewhere);
    app.palette("rename-topic renamed --one").await;
    assert!(status(&app).starts_with("the organization does not let you rename topics"), "{}", status(&app));
    // The refused command stays in the palette, to be mended: closed.
    app.key(KeyCode::Esc).await;
    let id = stored(&app, me, general, "channel lets", "mine", 60);
    app.open(Narrow::Topic(general, "channel lets".into())).await;
    app.select(id);
    app.palette("rename-topic renamed by the channel --one").await;
    app.settle().await;
    assert_eq!(app.server.shared.lock().messages[&id].topic(), "renamed by the channel", "{}", status(&app));
    app.close().await;
}
