//! Topics that move while they are open (issue 51, items 1 and 2): messages moved into the
//! topic on screen join it, held or not; a topic resolved or renamed from its own view keeps
//! every message there, whether the server's answer to the new view's first page comes before
//! or after the move's event, and whether it was computed before the move was made (a real
//! server may answer it first: the event must win either way). At level 218 and the default.

use super::harness::{App, Setup};
use topicterm::api::{Anchor, GetMessages, MessagesResponse, NarrowTerm, OutgoingMessage};
use topicterm::app::keys::KeyCode;
use topicterm::app::{Msg, Narrow};
use topicterm::server::org::Recip;

const LEVELS: [Option<i64>; 2] = [Some(218), None];

async fn start(level: Option<i64>) -> App {
    match level {
        Some(l) => Setup::new("member").feature_level(l).start().await,
        None => Setup::new("member").start().await,
    }
}

/// Another user's client, knowing the server's level (the message type it sends depends on it).
async fn other(app: &App, who: &str) -> topicterm::api::Client {
    let client = app.other(who);
    client.register(&Default::default()).await.expect("registered");
    client
}

/// Move the topic of `message` (all of it) to `to` as an administrator does.
async fn move_topic(app: &App, message: i64, to: &str) {
    app.other("admin")
        .raw(
            reqwest::Method::PATCH,
            &format!("/messages/{message}"),
            topicterm::api::Params::new().add("topic", to).add("propagate_mode", "change_all"),
            std::time::Duration::from_secs(10),
        )
        .await
        .expect("the move");
}

/// Messages the server holds but never told this client of (as if sent before it loaded
/// anything of their topic): stored on the server without events.
fn sent_unseen(app: &App, sender: &str, channel: i64, topic: &str, texts: &[&str]) -> Vec<i64> {
    let mut org = app.server.shared.lock();
    let sender = org.user_by_email(&format!("{sender}@demo.topicterm.test")).expect("the sender").id;
    let now = org.now();
    let recip = || Recip::Channel { id: channel, topic: topic.to_owned() };
    texts.iter().map(|t| org.insert_message(sender, recip(), t, now, "test", None)).collect()
}

async fn send(app: &App, who: &str, channel: i64, topic: &str, text: &str) -> i64 {
    let m = OutgoingMessage::channel(channel, topic, text);
    other(app, who).await.send_message(&m).await.expect("sent").id
}

#[tokio::test]
async fn messages_moved_into_the_open_topic_join_it_held_or_not() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let a = send(&app, "alice", general, "rz archive", "the archive's first line").await;
        let held = send(&app, "alice", general, "elsewhere", "held, moved in").await;
        app.settle().await;
        let target = Narrow::Topic(general, "rz archive".into());
        app.open(target.clone()).await;
        assert_eq!(app.st.data.views[&target].ids(), [a], "level {level:?}");
        assert!(app.st.data.messages.contains_key(&held), "the client holds the first one");
        let unseen = sent_unseen(&app, "alice", general, "never loaded", &["not held, moved in"]);
        assert!(!app.st.data.messages.contains_key(&unseen[0]));

        move_topic(&app, held, "rz archive").await;
        app.until("the held one joins", |st| st.data.views.get(&target).is_some_and(|v| v.contains(held)))
            .await;
        move_topic(&app, unseen[0], "rz archive").await;
        app.until("the one not held joins", |st| {
            st.data.views.get(&target).is_some_and(|v| v.contains(unseen[0]) && v.is_loaded())
        })
        .await;
        app.settle().await;
        let view = &app.st.data.views[&target];
        let ours: Vec<i64> = view
            .ids()
            .iter()
            .copied()
            .filter(|id| app.st.data.messages[id].sender_full_name() != "Notification Bot")
            .collect();
        assert_eq!(ours, [a, held, unseen[0]], "level {level:?}: with the bot's notices {:?}", view.ids());
        assert!(view.is_loaded() && !view.is_loading_newer(), "level {level:?}: {view:?}");
        let screen = app.screen(120, 30);
        assert!(screen.contains("held, moved in") && screen.contains("not held, moved in"), "{screen}");
        assert!(!screen.contains("Loading"), "{screen}");
        app.close().await;
    }
}

/// Which order the follow's first page and the move's event are applied in, and whether the
/// page is the server's answer from before the move.
#[derive(Debug, Clone, Copy)]
enum Timing {
    /// As they come.
    AsTheyCome,
    /// The page computed before the move was made, applied after the event.
    StalePageAfterEvent,
}

/// Resolve the topic on screen with `V` and follow it, with the follow's first page and the
/// move's event ordered by `timing`: every message of the topic is in the new view, the
/// selection stays on its message, and `V` then unresolves.
async fn resolve_from_its_own_view(level: Option<i64>, timing: Timing) {
    let mut app = start(level).await;
    let general = app.channel_id("general");
    let mut ids = Vec::new();
    for text in ["plan one", "plan two", "plan three"] {
        ids.push(send(&app, "alice", general, "release plan", text).await);
    }
    // A message of the topic the client never held: the move takes it too.
    ids.insert(0, sent_unseen(&app, "alice", general, "release plan", &["plan zero"])[0]);
    ids.sort();
    app.settle().await;
    let old = Narrow::Topic(general, "release plan".into());
    app.open(old.clone()).await;
    let sel = *ids.last().unwrap();
    app.select(sel);
    let new = Narrow::Topic(general, "✔ release plan".into());
    // What the server answers for the new topic before the move: nothing.
    let terms = vec![NarrowTerm::new("channel", general), NarrowTerm::new("topic", "✔ release plan")];
    let mut q = GetMessages::around(Anchor::Id(sel), 50, 50).narrow(terms);
    q.apply_markdown = Some(true);
    let stale: MessagesResponse = app.client.get_messages(&q).await.expect("the new topic, before");
    assert!(stale.messages.is_empty());

    app.apply(Msg::Key(topicterm::app::keys::KeyEvent::from(KeyCode::Char('V'))));
    match timing {
        Timing::AsTheyCome => {}
        Timing::StalePageAfterEvent => {
            // Apply everything but the new view's first page; once the event has moved the
            // selected message, give the page the server's answer from before the move.
            let mut page = None;
            while page.is_none() || app.st.data.messages[&sel].topic() != "✔ release plan" {
                match app.next_msg("the move's event and the new view's page").await {
                    Msg::Messages { narrow, older, epoch, .. } if narrow == new => {
                        page = Some(Msg::Messages { narrow, resp: Box::new(stale.clone()), older, epoch });
                    }
                    m => app.apply(m),
                }
            }
            app.apply(page.unwrap());
        }
    }
    app.until("the new topic's view", |st| {
        st.ui.narrow == new && st.data.views.get(&new).is_some_and(|v| v.is_loaded() && !v.is_loading_newer())
    })
    .await;
    app.settle().await;
    let view = &app.st.data.views[&new];
    for id in &ids {
        assert!(view.contains(*id), "level {level:?}, {timing:?}: {id} in {:?}", view.ids());
    }
    assert_eq!(app.st.ui.selected, Some(sel), "level {level:?}, {timing:?}");
    let screen = app.screen(120, 30);
    assert!(screen.contains("plan zero") && screen.contains("plan three"), "{timing:?}: {screen}");
    // The topic can be unresolved from there at once.
    app.key(KeyCode::Char('V')).await;
    app.until("unresolved", |st| st.data.messages[&sel].topic() == "release plan").await;
    app.settle().await;
    assert_eq!(app.st.ui.narrow, old, "level {level:?}, {timing:?}");
    let view = &app.st.data.views[&old];
    assert!(ids.iter().all(|id| view.contains(*id)), "level {level:?}, {timing:?}: {:?}", view.ids());
    app.close().await;
}

#[tokio::test]
async fn a_topic_resolved_from_its_own_view_keeps_every_message() {
    for level in LEVELS {
        resolve_from_its_own_view(level, Timing::AsTheyCome).await;
    }
}

#[tokio::test]
async fn a_topic_resolved_from_its_own_view_keeps_every_message_when_the_page_was_answered_before_the_move() {
    for level in LEVELS {
        resolve_from_its_own_view(level, Timing::StalePageAfterEvent).await;
    }
}

#[tokio::test]
async fn a_page_answered_before_a_move_out_and_a_deletion_does_not_bring_them_back() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let stay = send(&app, "alice", general, "triage", "stays").await;
        let moves = send(&app, "alice", general, "triage", "moves away").await;
        let goes = send(&app, "alice", general, "triage", "is deleted").await;
        app.settle().await;
        let triage = Narrow::Topic(general, "triage".into());
        app.open(triage.clone()).await;
        // The server's answer for the topic while all three are there.
        let terms = vec![NarrowTerm::new("channel", general), NarrowTerm::new("topic", "triage")];
        let mut q = GetMessages::around(Anchor::Newest, 50, 50).narrow(terms);
        q.apply_markdown = Some(true);
        let stale = app.client.get_messages(&q).await.expect("the topic");
        let admin = app.other("admin");
        admin
            .raw(
                reqwest::Method::PATCH,
                &format!("/messages/{moves}"),
                topicterm::api::Params::new().add("topic", "elsewhere").add("propagate_mode", "change_one"),
                std::time::Duration::from_secs(10),
            )
            .await
            .unwrap();
        admin
            .raw(
                reqwest::Method::DELETE,
                &format!("/messages/{goes}"),
                topicterm::api::Params::new(),
                std::time::Duration::from_secs(10),
            )
            .await
            .unwrap();
        app.until("both events", |st| {
            !st.data.messages.contains_key(&goes) && st.data.messages[&moves].topic() == "elsewhere"
        })
        .await;
        // The stale answer arrives now, for the window as it is.
        let epoch = app.st.data.views.epoch(&triage);
        app.send(Msg::Messages { narrow: triage.clone(), resp: Box::new(stale), older: false, epoch }).await;
        assert_eq!(app.st.data.views[&triage].ids(), [stay], "level {level:?}");
        assert!(!app.st.data.messages.contains_key(&goes), "the deleted one is not taken back");
        assert_eq!(app.st.data.messages[&moves].topic(), "elsewhere", "level {level:?}");
        app.close().await;
    }
}

/// A message that was only moved says "(moved)", one whose text was edited "(edited)" — also
/// on servers before level 365, where `last_edit_timestamp` says when either happened and only
/// the edit history tells which (issue 51.14e).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_only_moved_says_moved_and_an_edited_one_edited_before_level_365_too() {
    for level in [Some(218), Some(364), None] {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let moved = sent_unseen(&app, "alice", general, "open sea", &["a wandering albatross"])[0];
        let edited = sent_unseen(&app, "alice", general, "roost", &["a resting gull"])[0];
        move_topic(&app, moved, "roost").await;
        let edit =
            topicterm::api::MessageEdit { content: Some("a resting gannet".into()), ..Default::default() };
        other(&app, "alice").await.update_message(edited, &edit).await.expect("the edit");
        let roost = Narrow::Topic(general, "roost".into());
        app.open(roost.clone()).await;
        app.until("both", |st| st.data.views.get(&roost).is_some_and(|v| v.ids().contains(&moved))).await;
        let screen = app.draw(100, 30);
        let (m, e) = (screen.rows_of(moved).join("\n"), screen.rows_of(edited).join("\n"));
        assert!(m.contains("(moved)") && !m.contains("(edited)"), "level {level:?}: {m}\n{}", screen.text());
        assert!(e.contains("(edited)") && e.contains("gannet"), "level {level:?}: {e}\n{}", screen.text());
        app.close().await;
    }
}

/// A held message moved into the topic on screen says "(moved)" as soon as the move's event
/// is in — not only once a page brings it again (issue 51: the event set no time of the move).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_message_moved_into_the_open_topic_says_moved_at_once() {
    for level in LEVELS {
        let mut app = start(level).await;
        let general = app.channel_id("general");
        let stays = send(&app, "alice", general, "harbour", "the harbour's own line").await;
        let held = send(&app, "alice", general, "open sea", "a wandering albatross").await;
        app.settle().await;
        let harbour = Narrow::Topic(general, "harbour".into());
        app.open(harbour.clone()).await;
        assert!(app.st.data.messages.contains_key(&held), "level {level:?}: the client holds it");
        assert_eq!(app.st.data.messages[&held].last_moved_timestamp(), None);

        move_topic(&app, held, "harbour").await;
        app.until("the held one joins", |st| st.data.views.get(&harbour).is_some_and(|v| v.contains(held)))
            .await;
        let screen = app.draw(100, 30);
        let (m, s) = (screen.rows_of(held).join("\n"), screen.rows_of(stays).join("\n"));
        assert!(m.contains("(moved)") && !m.contains("(edited)"), "level {level:?}: {m}\n{}", screen.text());
        assert!(!s.contains("(moved)"), "level {level:?}: {s}");
        app.close().await;
    }
}
