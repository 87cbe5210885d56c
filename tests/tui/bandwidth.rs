//! `--low-bandwidth` (issue 39): smaller first pages, no typing notifications sent, neither
//! others' presence nor typing fetched, pictures only when asked for — each compared with the
//! same steps in the default mode, through the whole app against the demo server; and a
//! register without the users and the groups: people named by the messages, read one by one
//! for the DM rows, the whole list (or the groups) read once where a name or a completion
//! needs everyone, and never a recipient picked from the partial list.

use crate::harness::{App, Setup};
use crate::rewriter::{Exchange, Rewriter, Rule};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use topicterm::api::OutgoingMessage;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{Effect, Msg, Narrow, Popup, SidebarRow};

/// The app as `member`, through a proxy that counts requests; low-bandwidth or not.
async fn start(low: bool) -> (App, Rewriter) {
    start_at(low, topicterm::server::org::FEATURE_LEVEL).await
}

/// The same against a server of `level`.
async fn start_at(low: bool, level: i64) -> (App, Rewriter) {
    let setup = if low { Setup::new("member").low_bandwidth() } else { Setup::new("member") };
    setup
        .feature_level(level)
        .start_through(async |s| {
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await
}

/// The app as set up, through a counting proxy, after the admin made a newcomer (who sent
/// nothing and is named nowhere: not in a low-bandwidth register's answer).
pub(crate) async fn start_with_newcomer(setup: Setup, email: &str, full_name: &str) -> (App, Rewriter) {
    setup
        .start_through(async |s| {
            let admin = s.credentials("admin").unwrap();
            let r = reqwest::Client::new()
                .post(format!("{}/api/v1/users", s.url))
                .basic_auth(&admin.email, Some(&admin.api_key))
                .form(&[("email", email), ("password", "x"), ("full_name", full_name)])
                .send()
                .await
                .unwrap();
            assert!(r.status().is_success());
            let proxy = Rewriter::start(&s.url, vec![]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await
}

/// What each mode spends: (messages in the first view, presence dots drawn, typing
/// notifications sent while replying, after a presence ping).
async fn steps(low: bool) -> (usize, bool, usize, bool) {
    let (mut app, proxy) = start(low).await;
    let first = app.st.data.views.get(&app.st.ui.narrow).map_or(0, |v| v.ids().len());
    let screen = app.screen(100, 30);
    // Presence not fetched is said as such (`·`), never as offline (`○`).
    let dots = screen.contains("● Alice Okafor") || screen.contains("○ Alice Okafor");
    assert_eq!(screen.contains("· Alice Okafor"), low, "{screen}");
    let general = app.channel_id("general");
    app.open(Narrow::Topic(general, "typing".into())).await;
    app.key(KeyCode::Char('r')).await;
    app.keys("a reply typed on a train").await;
    app.settle().await;
    let typing = proxy.seen("POST", "/typing");
    app.key(KeyCode::Esc).await;
    app.run(vec![Effect::Ping { active: true, last_update_id: -1 }]);
    app.settle().await;
    let dots_after_ping = app.screen(100, 30).contains("● Alice Okafor");
    (first, dots, typing, dots_after_ping)
}

#[tokio::test]
async fn low_bandwidth_asks_smaller_pages_and_neither_sends_typing_nor_fetches_presence() {
    let (first, dots, typing, pinged) = steps(false).await;
    assert!(first > 31 && dots && typing > 0 && pinged, "the default: {:?}", (first, dots, typing, pinged));
    let (first, dots, typing, pinged) = steps(true).await;
    assert!((1..=31).contains(&first), "15 each side of the first unread: {first}");
    assert!(!dots, "others' presence is not fetched, and not shown as offline");
    assert_eq!(typing, 0, "no typing notification is sent");
    assert!(!pinged, "a presence ping asks for nobody's presence");
}

/// How many messages the first page further back brings into the combined feed, as the
/// selection climbs to the top of its first window.
async fn older_page(low: bool) -> usize {
    let (mut app, _proxy) = start(low).await;
    app.open(Narrow::All).await;
    let len = |app: &App| app.st.data.views.get(&Narrow::All).map_or(0, |v| v.ids().len());
    let before = len(&app);
    assert!(
        app.st.data.views.get(&Narrow::All).is_some_and(|v| !v.found_oldest()),
        "older messages to page in"
    );
    // Each key settles: the key that reaches the window's top has its page in when it returns.
    for _ in 0..before {
        app.key(KeyCode::Char('k')).await;
        if len(&app) > before {
            break;
        }
    }
    len(&app) - before
}

#[tokio::test]
async fn low_bandwidth_pages_further_back_are_as_small_as_the_first() {
    let default = older_page(false).await;
    assert!(default > 15, "the default pages 50 at a time: {default}");
    let low = older_page(true).await;
    assert!((1..=15).contains(&low), "15 at a time: {low}");
}

#[tokio::test]
async fn low_bandwidth_fetches_a_picture_only_when_asked_for() {
    for level in LEAN_LEVELS {
        picture_when_asked(level).await;
    }
}

async fn picture_when_asked(level: i64) {
    let mut app = Setup::new("member").low_bandwidth().feature_level(level).start().await;
    let bob = app.other("bob");
    // Registered, Bob's client knows the server's level (an older one says "stream").
    bob.register(&Default::default()).await.unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    let img = image::RgbImage::from_pixel(40, 30, image::Rgb([200, 120, 40]));
    image::DynamicImage::ImageRgb8(img).write_to(&mut png, image::ImageFormat::Png).unwrap();
    let png = png.into_inner();
    let len = png.len() as u64;
    let up = bob.upload_file("cat.png", len, png.into()).await.unwrap();
    let general = app.channel_id("general");
    let text = format!("a picture:\n[cat.png]({})", up.url);
    bob.send_message(&OutgoingMessage::channel(general, "pictures", &text)).await.unwrap();
    app.settle().await;
    app.open(Narrow::Topic(general, "pictures".into())).await;
    let screen = app.screen(100, 30);
    assert!(screen.contains("picture not fetched (low bandwidth): I shows it"), "{screen}");
    app.settle().await;
    let fetched = |app: &App| app.server.recent_requests().iter().any(|r| r == &format!("GET {}", up.url));
    assert!(!fetched(&app), "not fetched until asked for");
    app.key(KeyCode::Char('I')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Image { .. })));
    app.screen(100, 30);
    app.until("the picture", |st| st.images.get(&up.url).is_some()).await;
    app.settle().await;
    assert!(fetched(&app), "asked for with I: fetched");
}

/// The app as `member` with `--low-bandwidth`, through a proxy that counts requests and keeps
/// the names of the fields of each register answer.
pub(crate) async fn start_lean() -> (App, Rewriter, Arc<Mutex<Vec<Vec<String>>>>) {
    start_lean_at(topicterm::server::org::FEATURE_LEVEL).await
}

/// The levels the low-bandwidth paths run at: 218 (an 8.0-dev server, the oldest this mode was
/// reported on) and the demo server's own.
pub(crate) const LEAN_LEVELS: [i64; 2] = [218, topicterm::server::org::FEATURE_LEVEL];

/// The same against a server of `level`.
pub(crate) async fn start_lean_at(level: i64) -> (App, Rewriter, Arc<Mutex<Vec<Vec<String>>>>) {
    let answers = Arc::new(Mutex::new(Vec::new()));
    let kept = answers.clone();
    let keep: Rule = Box::new(move |ex: &Exchange| {
        if ex.is("POST", "/register")
            && let Some(Value::Object(o)) = ex.json()
        {
            kept.lock().unwrap().push(o.keys().cloned().collect());
        }
        None
    });
    let (app, proxy) = Setup::new("member")
        .low_bandwidth()
        .feature_level(level)
        .start_through(async |s| {
            let proxy = Rewriter::start(&s.url, vec![keep]).await;
            let url = proxy.url.clone();
            (proxy, url)
        })
        .await;
    (app, proxy, answers)
}

/// A key, applied without waiting for what it starts.
pub(crate) fn press(app: &mut App, code: KeyCode) {
    app.apply(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

#[tokio::test]
async fn low_bandwidth_register_asks_for_neither_the_users_nor_the_groups() {
    for level in LEAN_LEVELS {
        register_lean(level).await;
    }
}

async fn register_lean(level: i64) {
    let (app, proxy, answers) = start_lean_at(level).await;
    assert_eq!(app.st.data.realm.server.feature_level, level);
    let answers = answers.lock().unwrap().clone();
    assert_eq!(answers.len(), 1, "one register");
    for list in ["realm_users", "realm_non_active_users", "realm_user_groups", "presences", "user_status"] {
        assert!(!answers[0].iter().any(|k| k == list), "register answered {list}");
    }
    // Who the user is comes from `GET /users/me` (one user), not from the list.
    assert_eq!(proxy.seen("GET", "/users/me"), 1);
    assert_eq!(proxy.seen("GET", "/users") + proxy.seen("GET", "/user_groups"), 0, "nothing read on its own");
    let me = app.server.credentials("member").unwrap();
    assert_eq!(app.st.data.users.get(app.st.data.me).map(|u| u.email.as_str()), Some(me.email.as_str()));
    assert_eq!(app.st.data.user_name(app.st.data.me), "Maya Lindqvist");
    assert!(app.st.data.users.len() < 14, "only some of the organization known: {}", app.st.data.users.len());
}

#[tokio::test]
async fn low_bandwidth_names_a_senders_and_a_dms_people_without_the_list() {
    for level in LEAN_LEVELS {
        senders_and_dms(level).await;
    }
}

async fn senders_and_dms(level: i64) {
    let (mut app, proxy, answers) = start_lean_at(level).await;
    assert!(!answers.lock().unwrap()[0].iter().any(|k| k == "realm_users"), "no list of users");
    let bob = app.other("bob");
    let bob_id = bob.get_own_user().await.unwrap().user_id;
    let me = app.st.data.me;
    bob.send_message(&OutgoingMessage::direct(vec![me], "are you on the train?")).await.unwrap();
    app.settle().await;
    app.open(Narrow::Dm(vec![bob_id])).await;
    let shown = app.screen(120, 30);
    assert!(shown.contains("DM with Bob Nakamura"), "{shown}");
    assert!(shown.contains("are you on the train?"), "{shown}");
    assert!(!shown.contains("(unknown user)") && !shown.contains("DM with …"), "{shown}");
    // The DM rows of the channels pane name their people too: read one by one where no
    // message named them, never the whole list.
    let dms: Vec<i64> = app
        .st
        .ui
        .sidebar
        .rows()
        .iter()
        .filter_map(|r| if let SidebarRow::Dm(users) = r { Some(users.clone()) } else { None })
        .flatten()
        .collect();
    assert!(dms.len() >= 4, "{dms:?}");
    for u in dms {
        assert!(app.st.data.users.contains(u), "user {u} of a DM row is named");
    }
    assert_eq!(proxy.seen("GET", "/users") + proxy.seen("GET", "/user_groups"), 0);
}

#[tokio::test]
async fn low_bandwidth_profile_and_name_completion_read_what_they_need_then_show_it() {
    for level in LEAN_LEVELS {
        profile_and_completion(level).await;
    }
}

async fn profile_and_completion(level: i64) {
    let (mut app, proxy, _) = start_lean_at(level).await;
    // The profile of someone named by name: the whole list is read first (a name decides only
    // among everyone), then the profile and the groups it shows.
    app.palette("profile Alice Okafor").await;
    app.until("the profile", |st| matches!(st.ui.popup, Some(Popup::Profile { details: Some(_), .. }))).await;
    app.settle().await;
    assert_eq!((proxy.seen("GET", "/users"), proxy.seen("GET", "/user_groups")), (1, 1), "each read once");
    let shown = app.screen(120, 40);
    assert!(shown.contains("Alice Okafor") && shown.contains("@frontend, @leads"), "{shown}");
    app.key(KeyCode::Esc).await;

    // A mention completed in the compose box, from the list now read: no second reading.
    let general = app.channel_id("general");
    app.open(Narrow::Topic(general, "lean".into())).await;
    app.key(KeyCode::Char('c')).await;
    app.keys("general>lean").await;
    app.key(KeyCode::Enter).await;
    app.keys("hi @Ali").await;
    app.key(KeyCode::Tab).await;
    let text = app.st.ui.compose.as_ref().map(|c| c.text()).unwrap_or_default();
    assert!(text.contains("@**Alice Okafor**"), "{text}");
    assert_eq!(proxy.seen("GET", "/users"), 1);
}

#[tokio::test]
async fn low_bandwidth_mention_completion_waits_for_the_list() {
    let (mut app, proxy, _) = start_lean().await;
    app.key(KeyCode::Char('c')).await;
    app.keys("general>lean").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.compose.is_some());
    for c in "@Ali".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    // Nobody is offered from the few known: the list is asked for, and that is said.
    assert!(app.st.ui.completion.suggestions.is_empty(), "{:?}", app.st.ui.completion.suggestions);
    let shown = app.screen(120, 30);
    assert!(shown.contains("reading the people list…"), "{shown}");
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    assert_eq!(proxy.seen("GET", "/users"), 1);
    assert!(app.screen(120, 30).contains("Alice Okafor"), "offered once read");
    app.key(KeyCode::Tab).await;
    let text = app.st.ui.compose.as_ref().map(|c| c.text()).unwrap_or_default();
    assert!(text.contains("@**Alice Okafor**"), "{text}");
}

/// A name the partial list knows once (Bob, from his message) is held by someone it does not
/// know (a newcomer of the same name, who sent nothing): `x` with it picks no one — it waits
/// for the whole list, then refuses the shared name as the default mode does.
#[tokio::test]
async fn low_bandwidth_dm_to_a_name_only_the_partial_list_knows_picks_no_one() {
    let setup = Setup::new("member").low_bandwidth();
    let (mut app, proxy) = start_with_newcomer(setup, "bob.n@demo.topicterm.test", "Bob Nakamura").await;
    let bob = app.other("bob");
    bob.send_message(&OutgoingMessage::direct(vec![app.st.data.me], "ping")).await.unwrap();
    app.settle().await;
    assert!(app.st.data.users.is_partial());
    assert_eq!(app.st.data.users.named("Bob Nakamura").count(), 1, "the partial list knows one");
    app.key(KeyCode::Char('x')).await;
    for c in "Bob Nakamura".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert!(app.st.ui.compose.is_none(), "no one picked from the partial list");
    assert!(app.screen(160, 30).contains("reading the people list…"));
    app.until("the list", |st| !st.data.users.is_partial()).await;
    app.settle().await;
    assert!(app.st.ui.compose.is_none(), "no one picked once read either");
    let shown = app.screen(160, 48);
    assert!(shown.contains("2 people are named \"Bob Nakamura\""), "{shown}");
    assert_eq!(proxy.seen("GET", "/users"), 1);
}

/// Reads six messages of a new topic (opening it at the first, then `j` five times without
/// waiting); the `POST /messages/flags` requests it took, once the server has all six read.
async fn reading_six(low: bool, level: i64) -> usize {
    let (mut app, proxy) = start_at(low, level).await;
    let general = app.channel_id("general");
    let bob = app.other("bob");
    bob.register(&Default::default()).await.unwrap();
    let mut ids = Vec::new();
    for i in 0..6 {
        let m = OutgoingMessage::channel(general, "batched reads", &format!("line {i}"));
        ids.push(bob.send_message(&m).await.unwrap().id);
    }
    app.settle().await;
    let before = proxy.seen("POST", "/messages/flags");
    app.open(Narrow::Topic(general, "batched reads".into())).await;
    for _ in 0..5 {
        press(&mut app, KeyCode::Char('j'));
    }
    assert!(ids.iter().all(|id| !app.st.data.unread.contains(*id)), "read here at once");
    // Until the server has them all read (a condition, with a deadline).
    let me = app.other("member");
    me.register(&Default::default()).await.unwrap();
    let terms = vec![topicterm::api::NarrowTerm::new("topic", "batched reads")];
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let q =
            topicterm::api::GetMessages::around(topicterm::api::Anchor::Newest, 10, 0).narrow(terms.clone());
        let page = me.get_messages(&q).await.unwrap();
        if page.messages.iter().filter(|m| m.flags.contains(&topicterm::api::Flag::Read)).count() == 6 {
            break;
        }
        assert!(std::time::Instant::now() < end, "the server never had the six read");
        app.drain();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    proxy.seen("POST", "/messages/flags") - before
}

#[tokio::test]
async fn low_bandwidth_tells_the_server_of_messages_read_in_batches() {
    let default = reading_six(false, topicterm::server::org::FEATURE_LEVEL).await;
    assert!(default >= 6, "one request a message by default: {default}");
    for level in LEAN_LEVELS {
        let low = reading_six(true, level).await;
        assert!((1..=2).contains(&low), "level {level}: the six read within two seconds go together: {low}");
    }
}
