//! The last session, kept on this machine: drawn before the server answers, marked as not yet
//! current, then replaced by the server's truth.

use crate::harness::App;
use topicterm::app::{self, Msg, State, TimeZone};
use topicterm::net::cache;

/// The app's state kept on disk and read back, as a new start-up would.
fn kept_and_read(app: &App, dir: &std::path::Path) -> app::cache::Snapshot {
    let file = dir.join("member.json");
    let (site, email) = (app.client.site().to_owned(), app.client.email().to_owned());
    cache::save(&file, &site, &email, &app::cache::snapshot(&app.st)).expect("written");
    assert!(cache::load(&file, &site, "someone.else@example.com").is_err(), "another account's is not shown");
    assert!(cache::load(&file, "https://other.example.com", &email).is_err(), "nor another server's");
    cache::load(&file, &site, &email).expect("read back")
}

#[tokio::test]
async fn the_last_session_is_drawn_before_the_server_answers_then_replaced() {
    let mut app = App::start("member").await;
    let live = app.draw(120, 30);
    let live_unread: Vec<usize> =
        app.st.data.channels.keys().map(|c| app.st.data.channel_unread(*c)).collect();
    assert!(live_unread.iter().sum::<usize>() > 0, "the demo member has unread messages");
    let dir = tempfile::tempdir().unwrap();
    let snapshot = kept_and_read(&app, dir.path());

    // A new start: nothing from the server yet, the kept session arrives.
    let fresh =
        State { tz: TimeZone::Fixed(0), now: app.st.now, site: app.st.site.clone(), ..Default::default() };
    let live_state = std::mem::replace(&mut app.st, fresh);
    app.st.ui.loading = true;
    let fx = app::update(&mut app.st, Msg::Cached(Box::new(snapshot.clone())));
    assert!(fx.is_empty(), "the kept session asks the server nothing: {fx:?}");
    assert!(app.st.ui.from_cache && !app.st.ui.loading);
    let cached = app.draw(120, 30);
    assert!(cached.rows[cached.rows.len() - 1].contains("last session"), "marked:\n{}", cached.text());
    let pane = |s: &crate::harness::Screen| -> Vec<String> {
        let p = s.pane;
        s.rows[p.y as usize..(p.y + p.height) as usize]
            .iter()
            .map(|r| r.chars().skip(p.x as usize).take(p.width as usize).collect())
            .collect()
    };
    let narrow = app.st.ui.narrow.clone();
    assert_eq!(narrow, live_state.ui.narrow, "the same narrow");
    let ids = |st: &State| st.data.narrows[&narrow].ids.clone();
    let live_ids = ids(&live_state);
    assert_eq!(ids(&app.st), live_ids[live_ids.len().saturating_sub(app::cache::CACHED_MESSAGES)..]);
    assert!(cached.owners.iter().flatten().count() > 10, "messages are drawn:\n{}", cached.text());
    assert!(
        cached.owners.iter().flatten().all(|id| live.owners.contains(&Some(*id)) || live_ids.contains(id)),
        "only the session's messages"
    );
    let unread: Vec<usize> = app.st.data.channels.keys().map(|c| app.st.data.channel_unread(*c)).collect();
    assert_eq!(unread, live_unread, "the same unread counts");
    assert_eq!(app.st.data.users.len(), live_state.data.users.len(), "every user");

    // The server answers: its truth replaces the kept session, which is no longer marked.
    app.run(vec![topicterm::app::Effect::Register]);
    app.until("registered", |st| st.data.queue_id.is_some()).await;
    app.settle().await;
    assert!(!app.st.ui.from_cache);
    let now = app.draw(120, 30);
    assert!(!now.text().contains("last session"), "{}", now.text());
    // (The last row counts the unread messages below, of a window the server's answer grew.)
    let above_last = |s: &crate::harness::Screen| {
        let mut rows = pane(s);
        rows.pop();
        rows
    };
    assert_eq!(
        above_last(&now),
        above_last(&cached),
        "the view does not jump when the server's answer replaces it"
    );

    // A kept session that arrives after the server's answer is not shown.
    let fx = app::update(&mut app.st, Msg::Cached(Box::new(snapshot)));
    assert!(fx.is_empty() && !app.st.ui.from_cache);
}
