//! Search, the palette's wording and tab completion, through the real dispatcher and demo server.

use crate::harness::App;
use topicterm::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use topicterm::app::{Msg, Narrow, PromptKind, Target};

/// Type `:command` and press enter.
/// Search with `/` and return the IDs found.
async fn search(app: &mut App, query: &str) -> Vec<i64> {
    app.key(KeyCode::Char('/')).await;
    app.keys(query).await;
    app.key(KeyCode::Enter).await;
    assert!(
        matches!(&app.st.ui.narrow, Narrow::Search { query: q, .. } if q == query),
        "{:?}",
        app.st.ui.status
    );
    app.st.data.views[&app.st.ui.narrow].ids().to_vec()
}

fn status(app: &App) -> (bool, String) {
    let s = app.st.ui.status.clone().expect("a status line");
    (s.error, s.text)
}

#[tokio::test]
async fn sender_me_searches_my_own_messages() {
    let mut app = App::start("member").await;
    let me = app.st.data.me;
    let mine = search(&mut app, "sender:me").await;
    assert!(!mine.is_empty());
    assert!(mine.iter().all(|id| app.st.data.messages[id].sender_id() == me));
    let not_mine = search(&mut app, "-sender:me channel:engineering").await;
    assert!(!not_mine.is_empty());
    assert!(not_mine.iter().all(|id| app.st.data.messages[id].sender_id() != me));
}

#[tokio::test]
async fn quoted_phrases_are_searched_as_phrases() {
    let mut app = App::start("member").await;
    let words = search(&mut app, "topics muted").await;
    assert_eq!(words.len(), 3, "the words appear in three messages");
    assert!(search(&mut app, r#""topics muted""#).await.is_empty(), "but never as that phrase");
    let phrase = search(&mut app, r#""Muted topics""#).await;
    assert_eq!(phrase, words);
    let one = search(&mut app, r#""muted topics" reappear"#).await;
    assert_eq!(one.len(), 1);
    assert!(app.st.data.messages[&one[0]].content().contains("reappear after a reconnect"));
}

#[tokio::test]
async fn a_status_with_text_only_clears_the_earlier_emoji() {
    let mut app = App::start("member").await;
    let me = app.st.data.me;
    let server_status = |app: &App| {
        let s = app.server.shared.lock().users[&me].status.clone();
        (s.status_text, s.emoji_name, s.emoji_code, s.reaction_type)
    };
    app.palette("status :coffee: Coffee time").await;
    assert_eq!(
        server_status(&app),
        ("Coffee time".into(), "coffee".into(), "2615".into(), "unicode_emoji".into())
    );
    app.palette("status Just text").await;
    assert_eq!(status(&app), (false, "status set".into()));
    assert_eq!(server_status(&app), ("Just text".into(), String::new(), String::new(), String::new()));
    app.palette("status :coffee: Back to coffee").await;
    app.palette("status clear").await;
    assert_eq!(server_status(&app), (String::new(), String::new(), String::new(), String::new()));
}

#[tokio::test]
async fn apns_needs_an_app_id_from_the_level_that_requires_it() {
    // The demo server announces a level where `appid` is required (223 and later).
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('?')).await;
    // The commands come last (G: the end).
    app.key(KeyCode::Char('G')).await;
    let help = app.screen(120, 90);
    assert!(help.contains(":apns TOKEN APPID "), "{help}");
    app.key(KeyCode::Esc).await;
    app.palette("apns 0123456789abcdef").await;
    let (err, text) = status(&app);
    assert!(err && text.contains("needs the app ID") && text.contains(":apns TOKEN APPID"), "{text}");
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.text()), Some("apns 0123456789abcdef"));
    assert!(app.server.shared.lock().apns_tokens.is_empty(), "refused before any request");
    app.key(KeyCode::Esc).await;
    app.palette("apns 0123456789abcdef com.example.app").await;
    assert_eq!(status(&app), (false, "APNs token registered".into()));

    // Older servers default the app ID: it is optional there.
    let mut old = App::start_at_level("member", 222).await;
    old.key(KeyCode::Char('?')).await;
    old.key(KeyCode::Char('G')).await;
    let help = old.screen(120, 90);
    assert!(help.contains(":apns TOKEN [APPID] "), "{help}");
    old.key(KeyCode::Esc).await;
    old.palette("apns 0123456789abcdef").await;
    assert_eq!(status(&old), (false, "APNs token registered".into()));
    assert_eq!(old.server.shared.lock().apns_tokens.len(), 1);
}

#[tokio::test]
async fn group_commands_name_people_and_groups() {
    let mut app = App::start("admin").await;
    app.palette("group-add backend dave@demo.topicterm.test").await;
    assert_eq!(status(&app), (true, "Dave Kowalski is already in @backend".into()));
    assert!(app.st.ui.prompt.is_some(), "refused before any request; the line stays to fix");
    app.key(KeyCode::Esc).await;
    app.palette("group-add backend noa@demo.topicterm.test erin@demo.topicterm.test").await;
    assert_eq!(status(&app), (false, "Noa Peretz and Erin Byrne added to @backend".into()));
    app.palette("group-remove backend noa@demo.topicterm.test").await;
    assert_eq!(status(&app), (false, "Noa Peretz removed from @backend".into()));
    app.palette("group-remove backend noa@demo.topicterm.test").await;
    assert_eq!(status(&app), (true, "Noa Peretz is not in @backend".into()));
    app.key(KeyCode::Esc).await;
    app.palette("subgroup-add oncall frontend").await;
    assert_eq!(status(&app), (false, "@frontend is now a subgroup of @oncall".into()));
    app.palette("subgroup-add oncall frontend").await;
    assert_eq!(status(&app), (true, "@frontend is already a subgroup of @oncall".into()));
    app.key(KeyCode::Esc).await;
    app.palette("subgroup-remove oncall frontend").await;
    assert_eq!(status(&app), (false, "@frontend is no longer a subgroup of @oncall".into()));
    app.palette("playground Go Go https://go.dev/play/?code={code}").await;
    assert_eq!(status(&app), (false, "playground Go added".into()));
}

#[tokio::test]
async fn unsubscribe_says_who_was_removed() {
    let mut app = App::start("admin").await;
    // Each asks first (y/N).
    let unsubscribe = async |app: &mut App, line: &str| {
        app.palette(line).await;
        app.key(KeyCode::Char('y')).await;
    };
    unsubscribe(&mut app, "unsubscribe #builds dave@demo.topicterm.test").await;
    assert_eq!(status(&app), (false, "Dave Kowalski removed from #builds".into()));
    unsubscribe(&mut app, "unsubscribe #builds dave@demo.topicterm.test").await;
    assert_eq!(status(&app), (false, "Dave Kowalski was not subscribed to #builds".into()));
    unsubscribe(&mut app, "unsubscribe #builds bob@demo.topicterm.test dave@demo.topicterm.test").await;
    assert_eq!(
        status(&app),
        (false, "Bob Nakamura removed from #builds; Dave Kowalski was not subscribed to #builds".into())
    );
    // Without a name: the channel on screen.
    app.open(Narrow::Channel(app.channel_id("builds"))).await;
    unsubscribe(&mut app, "unsubscribe").await;
    assert_eq!(status(&app), (false, "you left #builds".into()));
}

#[tokio::test]
async fn a_failed_state_dump_says_why_without_temporary_paths() {
    let mut app = App::start("member").await;
    app.palette("dump-state /nonexistent-dir/state.json").await;
    let (err, text) = status(&app);
    assert!(err, "{text}");
    assert_eq!(text, "could not write /nonexistent-dir/state.json: there is no folder /nonexistent-dir");
}

async fn shift_tab(app: &mut App) {
    app.send(Msg::Key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT))).await;
}

fn compose_text(app: &App) -> String {
    app.st.ui.compose.as_ref().expect("compose box").text()
}

fn prompt_text(app: &App) -> String {
    app.st.ui.prompt.as_ref().expect("a prompt").text().to_owned()
}

#[tokio::test]
async fn repeated_tab_cycles_through_the_matches_in_the_compose_box() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("thanks @D").await;
    let screen = app.screen(80, 24);
    assert!(screen.contains("tab: Dave Kowalski  Diego Alvarez"), "{screen}");
    app.key(KeyCode::Tab).await;
    assert!(compose_text(&app).ends_with("thanks @**Dave Kowalski** "), "{}", compose_text(&app));
    app.key(KeyCode::Tab).await;
    assert!(compose_text(&app).ends_with("thanks @**Diego Alvarez** "), "{}", compose_text(&app));
    assert!(app.screen(80, 24).contains("[Diego Alvarez]"), "the inserted one is marked");
    shift_tab(&mut app).await;
    assert!(compose_text(&app).ends_with("thanks @**Dave Kowalski** "), "{}", compose_text(&app));
    shift_tab(&mut app).await;
    let (_, last) = app.st.ui.compose.as_ref().and_then(|c| c.suggestions.last().cloned()).expect("matches");
    assert!(
        compose_text(&app).ends_with(&format!("thanks {last} ")),
        "wraps to the last: {}",
        compose_text(&app)
    );
    app.key(KeyCode::Tab).await;
    assert!(compose_text(&app).ends_with("thanks @**Dave Kowalski** "), "wraps to the first");
    // Typing ends the cycle: the next tab completes the new word.
    app.keys("and #desi").await;
    app.key(KeyCode::Tab).await;
    assert!(
        compose_text(&app).ends_with("thanks @**Dave Kowalski** and #**design** "),
        "{}",
        compose_text(&app)
    );
}

#[tokio::test]
async fn the_channel_topic_prompt_completes_channels_then_topics() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('a')).await;
    app.key(KeyCode::Char('c')).await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::ChannelTopic));
    app.keys("eng").await;
    assert!(app.screen(100, 24).contains("tab: #engineering"));
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "engineering>");
    // The topics are fetched as the topic is typed; names that start with it come first.
    app.keys("co").await;
    let shown: Vec<String> = app.st.ui.completion.suggestions.iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(shown[..2], ["code review etiquette", "bikeshed: config file format"], "{shown:?}");
    let screen = app.screen(100, 24);
    assert!(screen.contains("tab: code review etiquette  bikeshed: config file format"), "{screen}");
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "engineering>code review etiquette");
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "engineering>bikeshed: config file format");
    shift_tab(&mut app).await;
    assert_eq!(prompt_text(&app), "engineering>code review etiquette");
    app.key(KeyCode::Enter).await;
    let eng = app.channel_id("engineering");
    let target = app.st.ui.compose.as_ref().map(|c| c.target.clone());
    assert_eq!(target, Some(Target::Channel { id: eng, topic: "code review etiquette".into() }));
}

#[tokio::test]
async fn the_dm_prompt_completes_each_name() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('x')).await;
    assert_eq!(app.st.ui.prompt.as_ref().map(|p| p.kind), Some(PromptKind::DmRecipients));
    app.keys("ali").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "Alice Okafor, ");
    app.keys("D").await;
    assert!(app.screen(100, 24).contains("tab: Dave Kowalski  Diego Alvarez"));
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "Alice Okafor, Dave Kowalski, ");
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "Alice Okafor, Diego Alvarez, ");
    app.key(KeyCode::Enter).await;
    let id = |name: &str| app.st.data.users.iter().find(|u| u.full_name == name).map(|u| u.id).unwrap();
    let mut want = vec![id("Alice Okafor"), id("Diego Alvarez")];
    want.sort_unstable();
    assert_eq!(app.st.ui.compose.as_ref().map(|c| c.target.clone()), Some(Target::Dm(want)));
}

/// Issue 37, hole 1, in the client: a name two people share picks no one. Alice renames herself
/// after Bob: `x` with the name is refused naming both with their emails, completion shows and
/// inserts the email, and a DM with Bob is titled with his email beside the name.
#[tokio::test]
async fn a_name_two_people_share_picks_no_one_and_is_shown_with_the_email() {
    let mut app = App::start("member").await;
    let alice = app.server.credentials("alice").unwrap();
    let bob_email = app.server.credentials("bob").unwrap().email;
    let r = reqwest::Client::new()
        .patch(format!("{}/api/v1/settings", app.server.url))
        .basic_auth(&alice.email, Some(&alice.api_key))
        .form(&[("full_name", "Bob Nakamura")])
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    app.until("the rename", |st| st.data.users.name_shared("Bob Nakamura")).await;
    let id = |app: &App, email: &str| app.st.data.users.iter().find(|u| u.email == email).unwrap().id;
    let bob = id(&app, &bob_email);

    app.key(KeyCode::Char('x')).await;
    app.keys("Bob Nakamura").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.compose.is_none(), "no one was picked");
    let shown = app.screen(160, 48);
    assert!(shown.contains("2 people are named \"Bob Nakamura\""), "{shown}");
    assert!(shown.contains(&alice.email) && shown.contains(&bob_email), "{shown}");

    // Completion tells them apart and inserts the email, which names one.
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('x')).await;
    app.keys("Bob Nak").await;
    app.key(KeyCode::Tab).await;
    let text = prompt_text(&app);
    assert!(text == format!("{bob_email}, ") || text == format!("{}, ", alice.email), "{text}");
    assert!(app.screen(160, 24).contains(&format!("Bob Nakamura ({bob_email})")));
    app.key(KeyCode::Esc).await;

    // A DM with Bob is titled with his email beside the shared name.
    app.open(Narrow::Dm(vec![bob])).await;
    let shown = app.screen(160, 48);
    assert!(shown.contains(&format!("DM with Bob Nakamura ({bob_email})")), "{shown}");
}

/// Issue 40: a search selected an unread group DM and marked it read (the server's DM count
/// went 7 → 6). As in the web app, looking at a search's results reads nothing; the DM's own
/// view still does.
#[tokio::test]
async fn search_results_are_not_marked_read() {
    use topicterm::api::{Anchor, GetMessages, NarrowTerm};
    let mut app = App::start("member").await;
    let unread_from_alice = async |app: &App| {
        let q = GetMessages::around(Anchor::Newest, 100, 0).narrow(vec![
            NarrowTerm::new("sender", "alice@demo.topicterm.test"),
            NarrowTerm::new("is", "unread"),
        ]);
        app.other("member").get_messages(&q).await.unwrap().messages.len()
    };
    let before = unread_from_alice(&app).await;
    assert!(before > 0, "the seed has unread messages from Alice");
    let found = search(&mut app, "sender:alice@demo.topicterm.test").await;
    assert!(!found.is_empty());
    for _ in 0..found.len() {
        app.key(KeyCode::Char('k')).await;
    }
    app.settle().await;
    assert_eq!(unread_from_alice(&app).await, before, "nothing read on the server");
    assert!(found.iter().any(|id| app.st.data.unread.contains(*id)), "nor here");
}

/// Issue 40.4: the `/` prompt completes like every one-line prompt: an operator's operand
/// (`channel:`, `topic:` of the channel named before it, `sender:`, `is:`), and `#name` or
/// `@name` to the whole operator — and the search it builds runs.
#[tokio::test]
async fn the_search_prompt_completes_operators_channels_topics_and_people() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.keys("channel:eng").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "channel:engineering ");
    app.keys("topic:rel").await;
    app.until("the topics", |st| !st.ui.completion.suggestions.is_empty()).await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "channel:engineering topic:\"release 2.4 planning\" ");
    app.keys("sender:Far").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(
        prompt_text(&app),
        "channel:engineering topic:\"release 2.4 planning\" sender:\"Farid Haddad\" "
    );
    app.key(KeyCode::Esc).await;
    app.key(KeyCode::Char('/')).await;
    app.keys("#eng").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "channel:engineering ");
    app.keys("@Far").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "channel:engineering sender:\"Farid Haddad\" ");
    app.keys("is:sta").await;
    app.key(KeyCode::Tab).await;
    assert_eq!(prompt_text(&app), "channel:engineering sender:\"Farid Haddad\" is:starred ");
    app.key(KeyCode::Enter).await;
    let Narrow::Search { terms, .. } = &app.st.ui.narrow else { panic!("{:?}", app.st.ui.status) };
    let ops: Vec<&str> = terms.iter().map(|t| t.operator.as_str()).collect();
    assert_eq!(ops, ["channel", "sender", "is"]);
}
