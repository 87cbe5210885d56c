//! The user's own Zulip settings decide, through the whole app against the demo server: how
//! looking reads (`web_mark_read_on_scroll_policy`), the first view (`web_home_view`), what enter
//! does in the compose box (`enter_sends`), typing notices. Each is changed by another session
//! of the same user through the API (`PATCH /settings`) while topicterm runs, and followed live;
//! at the demo server's level and at 218.

use crate::harness::*;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, Popup, State};
use topicterm::server::org::Recip;

const LEVELS: [i64; 2] = [topicterm::server::org::FEATURE_LEVEL, 218];

/// `PATCH /settings` as the user's other session (the web app) sends it.
async fn set(app: &App, name: &str, value: &str) {
    app.other("member")
        .raw(
            reqwest::Method::PATCH,
            "/settings",
            topicterm::api::Params::new().add(name, value),
            std::time::Duration::from_secs(10),
        )
        .await
        .unwrap_or_else(|e| panic!("PATCH /settings {name}={value}: {e}"));
}

/// The member's unread messages by topic, as the server has them.
fn unread_by_topic(app: &App) -> std::collections::BTreeMap<(i64, String), Vec<i64>> {
    let me = app.st.data.me;
    let org = app.server.shared.lock();
    let flags = &org.user_msgs[&me];
    let mut by: std::collections::BTreeMap<(i64, String), Vec<i64>> = Default::default();
    for m in org.messages.values() {
        if let Recip::Channel { id, topic } = &m.recip
            && flags.get(&m.id).is_some_and(|f| !f.read)
        {
            by.entry((*id, topic.clone())).or_default().push(m.id);
        }
    }
    by
}

/// A topic (not `but`) where the member has at least `n` unread messages, and those.
fn unread_topic(app: &App, n: usize, but: Option<&(i64, String)>) -> ((i64, String), Vec<i64>) {
    unread_by_topic(app)
        .into_iter()
        .find(|(t, ids)| ids.len() >= n && Some(t) != but)
        .expect("a topic with unread messages")
}

/// Which of `ids` the server has unread for the member.
fn unread_on_server(app: &App, ids: &[i64]) -> Vec<i64> {
    let me = app.st.data.me;
    let org = app.server.shared.lock();
    let flags = &org.user_msgs[&me];
    ids.iter().copied().filter(|id| flags.get(id).is_some_and(|f| !f.read)).collect()
}

/// The messages a frame drew (any of their rows).
fn drawn(screen: &Screen) -> Vec<i64> {
    let mut ids: Vec<i64> = screen.owners.iter().flatten().copied().collect();
    ids.dedup();
    ids
}

#[tokio::test]
async fn policy_always_reads_what_an_opened_topic_draws_without_moving_and_never_reads_nothing() {
    for level in LEVELS {
        let mut app = App::start_at_level("member", level).await;
        assert_eq!(app.st.data.user_settings().web_mark_read_on_scroll_policy, Some(1), "level {level}");
        let (first, unread) = unread_topic(&app, 3, None);
        app.open(Narrow::Topic(first.0, first.1.clone())).await;
        let selected = app.st.ui.selected;
        let screen = app.draw(100, 40);
        // The messages drawn whole (a message cut at the pane's foot is not counted).
        let whole = app.st.ui.messages_on_screen.1.clone();
        let shown = drawn(&screen);
        assert!(whole.iter().all(|id| shown.contains(id)), "level {level}: {whole:?} ⊆ {shown:?}");
        let looked: Vec<i64> = unread.iter().copied().filter(|id| whole.contains(id)).collect();
        assert!(looked.len() >= 3, "level {level}: unread drawn {looked:?}");
        // Each is read, here at once and on the server, the selection where it was.
        assert!(looked.iter().all(|id| !app.st.data.unread.contains(*id)), "level {level}");
        app.settle().await;
        assert_eq!(unread_on_server(&app, &looked), Vec::<i64>::new(), "level {level}: read on the server");
        assert_eq!(app.st.ui.selected, selected, "level {level}: the selection did not move");

        // Set to never in the web app: followed live; another topic drawn stays unread, the
        // message selected on opening too; `T` still reads it.
        set(&app, "web_mark_read_on_scroll_policy", "3").await;
        app.until("the setting followed", |st| {
            st.data.user_settings().web_mark_read_on_scroll_policy == Some(3)
        })
        .await;
        let (second, unread) = unread_topic(&app, 2, Some(&first));
        app.open(Narrow::Topic(second.0, second.1.clone())).await;
        let shown = drawn(&app.draw(100, 40));
        app.settle().await;
        let looked: Vec<i64> = unread.iter().copied().filter(|id| shown.contains(id)).collect();
        assert!(looked.len() >= 2, "level {level}: unread drawn {looked:?}");
        assert_eq!(unread_on_server(&app, &looked), looked, "level {level}: nothing read by looking");
        assert!(looked.iter().all(|id| app.st.data.unread.contains(*id)), "level {level}");
        app.key(KeyCode::Char('T')).await;
        app.until("read by T", |st| st.data.topic_unread(second.0, &second.1) == 0).await;
        assert_eq!(unread_on_server(&app, &looked), Vec::<i64>::new(), "level {level}: T reads");
        app.close().await;
    }
}

#[tokio::test]
async fn policy_conversations_only_reads_in_a_topic_and_not_in_all_messages() {
    let mut app = App::start("member").await;
    set(&app, "web_mark_read_on_scroll_policy", "2").await;
    app.until("the setting followed", |st| st.data.user_settings().web_mark_read_on_scroll_policy == Some(2))
        .await;
    // All messages is not a conversation view: what it draws stays unread, the selected one too.
    let before: Vec<i64> = unread_by_topic(&app).into_values().flatten().collect();
    app.open(Narrow::All).await;
    let shown = drawn(&app.draw(100, 40));
    app.settle().await;
    let looked: Vec<i64> = before.iter().copied().filter(|id| shown.contains(id)).collect();
    assert!(!looked.is_empty(), "something unread is drawn in all messages");
    assert_eq!(unread_on_server(&app, &looked), looked);
    // One topic is: what it draws is read.
    let (topic, unread) = unread_topic(&app, 2, None);
    app.open(Narrow::Topic(topic.0, topic.1)).await;
    app.draw(100, 40);
    let whole = app.st.ui.messages_on_screen.1.clone();
    let looked: Vec<i64> = unread.iter().copied().filter(|id| whole.contains(id)).collect();
    assert!(looked.len() >= 2, "{looked:?}");
    app.settle().await;
    assert_eq!(unread_on_server(&app, &looked), Vec::<i64>::new());
    app.close().await;
}

fn inbox_open(st: &State) -> bool {
    matches!(st.ui.popup, Some(Popup::Inbox(_)))
}

#[tokio::test]
async fn web_home_view_inbox_opens_the_inbox_and_all_messages_does_not() {
    // The demo server's default is the inbox, as the reference server's.
    let mut app = Setup::new("member").home_view().start().await;
    assert_eq!(app.st.data.user_settings().web_home_view.as_deref(), Some("inbox"));
    assert!(inbox_open(&app.st), "{:?}", app.st.ui.popup);
    // Nothing under it was read by being there.
    let s = app.screen(100, 30);
    assert!(s.contains("Inbox") || s.contains("inbox"), "{s}");
    set(&app, "web_home_view", "all_messages").await;
    app.until("followed", |st| st.data.user_settings().web_home_view.as_deref() == Some("all_messages"))
        .await;
    let app = app.stop().await.start().await;
    assert!(!inbox_open(&app.st), "all messages: no inbox at start");
    assert_eq!(app.st.ui.narrow, Narrow::All);
    // Recent conversations: `recent` from level 454 (`recent_topics` before).
    set(&app, "web_home_view", "recent").await;
    let mut app = app.stop().await.start().await;
    app.until("the recent conversations", |st| matches!(st.ui.popup, Some(Popup::Recent { .. }))).await;
    app.close().await;
}

#[tokio::test]
async fn enter_sends_when_the_user_set_it_and_alt_enter_makes_a_new_line() {
    for level in LEVELS {
        let mut app = App::start_at_level("member", level).await;
        let general = app.channel_id("general");
        app.open(Narrow::Channel(general)).await;
        // Off (the default): enter is a new line, the text stays in the box.
        app.key(KeyCode::Char('r')).await;
        assert!(app.st.ui.compose.is_some(), "level {level}: replying");
        app.keys("one").await;
        app.key(KeyCode::Enter).await;
        app.keys("two").await;
        let text = app.st.ui.compose.as_ref().map(|c| c.text());
        assert_eq!(text.as_deref(), Some("one\ntwo"), "level {level}");
        // Turned on in the web app: enter sends, alt+enter is the new line.
        set(&app, "enter_sends", "true").await;
        app.until("followed", |st| st.data.user_settings().enter_sends == Some(true)).await;
        let s = app.screen(100, 30);
        assert!(s.contains("enter send, alt+enter new line"), "level {level}: {s}");
        app.send(topicterm::app::Msg::Key(topicterm::app::keys::KeyEvent::new(
            KeyCode::Enter,
            topicterm::app::keys::KeyModifiers::ALT,
        )))
        .await;
        app.keys("three").await;
        let text = app.st.ui.compose.as_ref().map(|c| c.text());
        assert_eq!(text.as_deref(), Some("one\ntwo\nthree"), "level {level}");
        app.key(KeyCode::Enter).await;
        assert!(app.st.ui.compose.is_none(), "level {level}: sent");
        app.until("sent", |st| {
            st.data.messages.values().any(|m| m.content().contains("three") && m.sender_id() == st.data.me)
        })
        .await;
        app.close().await;
    }
}

/// The channels of the pane's unpinned channels outside folders, in the pane's order, each with
/// whether it is inactive.
fn unfoldered(st: &State) -> Vec<(i64, bool)> {
    st.ui
        .sidebar
        .rows()
        .iter()
        .filter_map(|r| match r {
            topicterm::app::SidebarRow::Channel(c) => st.data.channels.get(*c),
            _ => None,
        })
        .filter(|c| !c.pinned && c.folder_id.is_none())
        .map(|c| (c.id, c.recently_active == Some(false)))
        .collect()
}

#[tokio::test]
async fn demoting_inactive_channels_moves_them_last_and_never_leaves_them_in_place() {
    for level in LEVELS {
        let mut app = App::start_at_level("member", level).await;
        // A new channel has no messages yet: not recently active; its name sorts it first.
        app.other("member").subscribe(&["aaa quiet"], None).await.expect("a new channel");
        app.until("the channel", |st| st.data.channels.by_name("aaa quiet").is_some()).await;
        // Automatic (the default) with fewer than 30 channels: the order is by name.
        let before = unfoldered(&app.st);
        assert!(
            before.iter().any(|(_, inactive)| *inactive),
            "level {level}: an inactive channel: {before:?}"
        );
        set(&app, "demote_inactive_streams", "2").await;
        app.until("followed", |st| st.data.user_settings().demote_inactive_streams == Some(2)).await;
        let after = unfoldered(&app.st);
        let first_inactive = after.iter().position(|(_, i)| *i).expect("an inactive one");
        assert!(after[first_inactive..].iter().all(|(_, i)| *i), "level {level}: inactive last: {after:?}");
        assert_ne!(before, after, "level {level}: some moved");
        set(&app, "demote_inactive_streams", "3").await;
        app.until("followed", |st| st.data.user_settings().demote_inactive_streams == Some(3)).await;
        assert_eq!(unfoldered(&app.st), before, "level {level}: never: by name again");
        app.close().await;
    }
}
