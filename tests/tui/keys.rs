//! Keys and commands doing what they say (issue 14): each test drives the real state, update,
//! dispatcher and views against the demo server, and reads the server's truth back.

use crate::harness::App;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, SidebarRow};

fn status(app: &App) -> (bool, String) {
    let s = app.st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

#[tokio::test]
async fn a_quote_reply_leaves_the_reply_outside_the_quote() {
    let mut app = App::start("member").await;
    let quoted = app.st.ui.selected.expect("a selected message");
    app.key(KeyCode::Char('>')).await;
    assert!(app.st.ui.compose.is_some(), "{:?}", app.st.ui.status);
    app.keys("my answer").await;
    app.ctrl('d').await;
    let mine = app.st.ui.selected.expect("the view jumped to the sent message");
    assert_ne!(mine, quoted);
    let html = app.client.get_message(mine, true).await.unwrap().message.content;
    let (quote, after) = html.rsplit_once("</blockquote>").expect("a blockquote");
    assert!(after.contains("<p>my answer</p>"), "the reply follows the quote: {html}");
    assert!(!quote.contains("my answer"), "the quote holds only the quoted text: {html}");
    assert!(html.contains("class=\"user-mention silent\""), "a silent mention of the author: {html}");
}

/// (channel, lowercased topic) of the shown narrow.
fn shown_topic(app: &App) -> Option<(i64, String)> {
    match &app.st.ui.narrow {
        Narrow::Topic(c, t) => Some((*c, t.to_lowercase())),
        _ => None,
    }
}

#[tokio::test]
async fn next_unread_topic_moves_on_and_reopening_reads_the_first_unread() {
    let mut app = App::start("member").await;
    let unread_topics: usize = app
        .st
        .data
        .unread
        .channels()
        .map(|(c, ts)| ts.iter().filter(|t| !app.st.data.topic_muted(c, t)).count())
        .sum();
    assert!(unread_topics >= 3, "the demo org gives member several unread topics");
    // `n` visits every unread topic once before coming back to any.
    let mut seen = Vec::new();
    for _ in 0..unread_topics {
        app.key(KeyCode::Char('n')).await;
        let t = shown_topic(&app).expect("n opens a topic");
        assert!(!seen.contains(&t), "n came back to {t:?} after {seen:?}");
        let selected = app.st.ui.selected.expect("a selected message");
        assert!(!app.st.data.unread.contains(selected), "the first unread is read on opening");
        seen.push(t);
    }

    // A topic with unread messages left, opened again from the sidebar: its (new) first unread
    // message is selected and read, locally and on the server.
    let mut app = App::start("member").await;
    let (conv, ids) = app
        .st
        .data
        .unread
        .conversations()
        .find(|(c, ids)| matches!(c, topicterm::app::Conv::Topic(..)) && ids.len() >= 3)
        .map(|(c, ids)| (c.clone(), ids.iter().copied().collect::<Vec<_>>()))
        .expect("a topic with three unread messages");
    let topicterm::app::Conv::Topic(channel, _) = conv else { unreachable!() };
    let topic = app.client.get_message(ids[0], false).await.unwrap().message.topic().to_owned();
    app.open(Narrow::Topic(channel, topic.clone())).await;
    assert_eq!(app.st.ui.selected, Some(ids[0]));
    app.open(Narrow::All).await;
    app.open(Narrow::Topic(channel, topic)).await;
    assert_eq!(app.st.ui.selected, Some(ids[1]), "the next unread message is selected");
    assert!(!app.st.data.unread.contains(ids[1]), "and read");
    let on_server = app.client.get_message(ids[1], false).await.unwrap().message;
    assert!(
        on_server.flags.contains(&topicterm::api::Flag::Read),
        "the server has it read: {:?}",
        on_server.flags
    );
}

/// The starred messages: `f` in the channels pane (in the messages pane `f` is link hints).
async fn starred(app: &mut App) {
    app.key(KeyCode::Char('h')).await;
    app.key(KeyCode::Char('f')).await;
    assert_eq!(app.st.ui.narrow, Narrow::Starred);
}

#[tokio::test]
async fn the_starred_view_follows_stars_made_here_and_elsewhere() {
    let mut app = App::start("member").await;
    starred(&mut app).await;
    let before = app.st.data.views[&Narrow::Starred].ids().to_vec();
    app.key(KeyCode::Char('a')).await;
    let id = app.st.ui.selected.expect("a selected message");
    assert!(!before.contains(&id), "the selected message is not starred yet");
    app.key(KeyCode::Char('*')).await;
    starred(&mut app).await;
    app.key(KeyCode::Char('G')).await;
    assert!(app.st.data.views[&Narrow::Starred].ids().contains(&id), "starred here: in the view");
    assert!(app.screen(160, 48).contains('★'));
    let on_server = app.client.get_message(id, false).await.unwrap().message;
    assert!(on_server.flags.contains(&topicterm::api::Flag::Starred));

    // Unstarred while shown: it stays until the view is opened again.
    app.st.ui.selected = Some(id);
    app.key(KeyCode::Char('*')).await;
    assert!(app.st.data.views[&Narrow::Starred].ids().contains(&id));
    app.key(KeyCode::Char('a')).await;
    starred(&mut app).await;
    assert!(!app.st.data.views[&Narrow::Starred].ids().contains(&id), "unstarred: gone on reopening");

    // Starred in another client (an event): in the view next time it is shown.
    app.key(KeyCode::Char('a')).await;
    let other = *app.st.data.views[&Narrow::All].ids().iter().rev().find(|x| **x != id).unwrap();
    let elsewhere = topicterm::api::Client::new(&app.server.credentials("member").unwrap()).unwrap();
    elsewhere.update_message_flags(&[other], true, topicterm::api::Flag::Starred).await.unwrap();
    app.settle().await;
    starred(&mut app).await;
    assert!(app.st.data.views[&Narrow::Starred].ids().contains(&other), "starred elsewhere: in the view");
}

#[tokio::test]
async fn mute_and_mark_read_on_a_channel_row_act_on_the_channel() {
    use topicterm::api::{Anchor, GetMessages, NarrowTerm};
    let mut app = App::start("member").await;
    // A channel with unread messages in more than one topic.
    let (channel, _) = app
        .st
        .data
        .unread
        .channels()
        .filter(|(c, ts)| ts.len() >= 2 && !app.st.data.channels[c].muted)
        .map(|(c, ts)| (c, ts.len()))
        .next()
        .expect("a channel with two unread topics");
    // Open some other topic first: the keys must not act on it.
    app.key(KeyCode::Char('n')).await;
    let open_before = app.st.ui.narrow.clone();
    let policy_of = |app: &App| match &open_before {
        Narrow::Topic(c, t) => Some(app.st.data.policy(*c, t)),
        _ => None,
    };
    let policy_before = policy_of(&app);
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| *r == SidebarRow::Channel(channel)));

    app.key(KeyCode::Char('R')).await;
    assert!(app.st.data.unread.topics_in(channel).is_none(), "no unread topics left in the channel");
    let still_unread = app
        .client
        .get_messages(
            &GetMessages::around(Anchor::Oldest, 0, 1000)
                .narrow(vec![NarrowTerm::new("channel", channel), NarrowTerm::new("is", "unread")]),
        )
        .await
        .unwrap()
        .messages;
    assert!(still_unread.is_empty(), "the server has the whole channel read: {}", still_unread.len());
    assert!(status(&app).1.contains("marked as read"), "{:?}", status(&app));

    app.key(KeyCode::Char('M')).await;
    let subs = app.client.get_subscriptions(None).await.unwrap().subscriptions;
    assert!(subs.iter().find(|s| s.stream_id == channel).unwrap().is_muted, "the channel is muted");
    assert!(app.st.data.channels[&channel].muted);
    assert!(status(&app).1.ends_with("muted"), "{:?}", status(&app));
    app.key(KeyCode::Char('U')).await;
    let subs = app.client.get_subscriptions(None).await.unwrap().subscriptions;
    assert!(!subs.iter().find(|s| s.stream_id == channel).unwrap().is_muted, "and unmuted again");
    assert_eq!(app.st.ui.narrow, open_before, "the open topic was left alone");
    assert_eq!(policy_of(&app), policy_before, "its topic too");
}

/// Type `:command` and press enter.
#[tokio::test]
async fn leaving_a_channel_needs_it_named_or_open_and_a_yes() {
    let mut app = App::start("member").await;
    // From All messages, a bare :unsubscribe names no channel: nothing happens but a hint.
    app.key(KeyCode::Char('a')).await;
    let subscribed = app.st.data.channels.len();
    app.palette("unsubscribe").await;
    let (err, text) = status(&app);
    assert!(err && text.contains("name the channel"), "{text}");
    assert!(app.st.ui.confirm.is_none());
    app.key(KeyCode::Esc).await;
    // In a channel: it asks, and n keeps the subscription.
    let design = app.channel_id("design");
    app.open(Narrow::Channel(design)).await;
    app.palette("unsubscribe").await;
    assert_eq!(app.st.ui.confirm.as_ref().map(|(q, _)| q.as_str()), Some("Leave #design? (y/N)"));
    app.key(KeyCode::Char('n')).await;
    assert_eq!(app.st.data.channels.len(), subscribed);
    let subs = app.client.get_subscriptions(None).await.unwrap().subscriptions;
    assert!(subs.iter().any(|s| s.stream_id == design), "still subscribed on the server");
}

#[tokio::test]
async fn the_deactivate_question_says_what_goes() {
    let mut app = App::start("admin").await;
    app.palette("deactivate Bob Nakamura --delete-public --delete-dms").await;
    let q = app.st.ui.confirm.as_ref().map(|(q, _)| q.clone()).expect("a question");
    assert!(
        q.contains("messages in public channels") && q.contains("direct messages") && !q.contains("private"),
        "{q}"
    );
    assert!(app.screen(160, 48).contains("Deactivate Bob Nakamura?"));
    app.key(KeyCode::Char('n')).await;
}

#[tokio::test]
async fn a_cancelled_edit_of_a_scheduled_message_is_kept() {
    let mut app = App::start("member").await;
    app.palette("scheduled").await;
    let order = topicterm::app::scheduled_in_order(&app.st);
    let pos = order.iter().position(|id| !app.st.data.lists.scheduled()[id].failed).expect("a pending one");
    for _ in 0..pos {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Char('e')).await;
    let original = app.st.ui.compose.as_ref().map(|c| c.text()).expect("the compose box");
    app.keys(" and more").await;
    app.key(KeyCode::Esc).await;
    assert!(status(&app).1.contains("draft kept"), "{:?}", status(&app));
    app.palette("scheduled").await;
    for _ in 0..pos {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Char('e')).await;
    let text = app.st.ui.compose.as_ref().map(|c| c.text()).expect("the compose box");
    assert_eq!(text, format!("{original} and more"), "the edit was kept");
    assert!(status(&app).1.contains("draft restored"), "{:?}", status(&app));
    // Saving it sends the kept text, and the draft goes.
    app.ctrl('d').await;
    let id = order[pos];
    assert_eq!(app.st.data.lists.scheduled()[&id].content, format!("{original} and more"));
    assert!(!app.st.drafts.contains_key(&format!("scheduled-{id}")));
}

/// The bottom row of the screen.
fn status_row(app: &mut App) -> String {
    app.screen(100, 24).lines().last().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn feedback_shows_at_once_beside_the_prompt_and_then_expires() {
    let mut app = App::start("member").await;
    // A palette error shows while the prompt is still open for correction.
    app.palette("frobnicate").await;
    assert!(app.st.ui.prompt.is_some(), "the prompt stays open to correct it");
    let row = status_row(&mut app);
    assert!(row.starts_with(":frobnicate") && row.contains("no command \"frobnicate\""), "{row}");
    app.key(KeyCode::Esc).await;
    // A search error and a bad schedule time likewise.
    app.key(KeyCode::Char('/')).await;
    app.keys("sender:nobody-at-all").await;
    app.key(KeyCode::Enter).await;
    let row = status_row(&mut app);
    assert!(row.starts_with("Search: sender:nobody") && row.contains("nobody-at-all"), "{row}");
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("later").await;
    app.ctrl('s').await;
    app.keys("when pigs fly").await;
    app.key(KeyCode::Enter).await;
    // Too long to sit beside the prompt: it wraps above it, whole.
    let screen = app.screen(100, 24);
    let rows: Vec<&str> = screen.lines().rev().take(3).collect();
    assert!(rows[0].starts_with("Send at") && rows[1..].concat().contains("cannot read"), "{screen}");
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Esc).await;

    // Something said before a prompt opens is not shown in it.
    app.key(KeyCode::Char('y')).await;
    assert!(status_row(&mut app).contains("link to the message copied"));
    app.key(KeyCode::Char(':')).await;
    assert!(!status_row(&mut app).contains("copied"), "{}", status_row(&mut app));
    app.key(KeyCode::Esc).await;

    // And it expires: errors after twice as long as other remarks.
    app.key(KeyCode::Char('y')).await;
    let now = app.st.now;
    app.send(topicterm::app::Msg::Tick(now + 3)).await;
    assert!(status_row(&mut app).contains("copied"), "still there after 3 s");
    app.send(topicterm::app::Msg::Tick(now + 6)).await;
    assert!(!status_row(&mut app).contains("copied"), "gone after 6 s");
    app.palette("frobnicate").await;
    app.key(KeyCode::Esc).await;
    let now = app.st.now;
    app.send(topicterm::app::Msg::Tick(now + 6)).await;
    assert!(status_row(&mut app).contains("no command"), "an error stays longer");
    app.send(topicterm::app::Msg::Tick(now + 12)).await;
    assert!(status_row(&mut app).contains("? help"), "{}", status_row(&mut app));
}

#[tokio::test]
async fn keys_with_nothing_to_act_on_say_so() {
    let mut app = App::start("member").await;
    // z on a message without spoilers.
    let plain = app.st.data.views[&app.st.ui.narrow]
        .ids()
        .iter()
        .copied()
        .find(|id| !app.st.data.messages[id].content().contains("spoiler"))
        .expect("a message without spoilers");
    app.st.ui.selected = Some(plain);
    app.key(KeyCode::Char('z')).await;
    assert_eq!(status(&app), (false, "this message has no spoilers".into()));
    assert!(app.st.ui.open_spoilers.is_empty());

    // :date after the last message: the newest is selected, and the user is told.
    app.palette("date 2030-01-01").await;
    let view = &app.st.data.views[&app.st.ui.narrow];
    assert_eq!(app.st.ui.selected, view.ids().last().copied());
    assert_eq!(
        status(&app),
        (false, "nothing here on or after 2030-01-01: showing the newest message".into())
    );
}

#[tokio::test]
async fn channel_row_keys_with_nothing_to_do_say_so() {
    let mut app = App::start("member").await;
    let design = app.channel_id("design");
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| *r == SidebarRow::Channel(design)));
    app.key(KeyCode::Char('U')).await;
    assert_eq!(status(&app), (false, "#design is not muted".into()));
    app.key(KeyCode::Char('F')).await;
    assert_eq!(status(&app), (false, "following is for topics: open the channel and pick one".into()));
    app.key(KeyCode::Char('R')).await;
    app.key(KeyCode::Char('R')).await;
    assert_eq!(status(&app), (false, "#design has no unread messages".into()));
}
