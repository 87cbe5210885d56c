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
        app.st.data.channels.iter().map(|c| app.st.data.channel_unread(c.id)).collect();
    assert!(live_unread.iter().sum::<usize>() > 0, "the demo member has unread messages");
    let dir = tempfile::tempdir().unwrap();
    let snapshot = kept_and_read(&app, dir.path());

    // A new start: nothing from the server yet, the kept session arrives.
    let fresh =
        State { tz: TimeZone::Fixed(0), now: app.st.now, site: app.st.site.clone(), ..Default::default() };
    let live_state = std::mem::replace(&mut app.st, fresh);
    app.st.ui.conn.connecting();
    let fx = app::update(&mut app.st, Msg::Cached(Box::new(snapshot.clone())));
    assert!(
        fx.len() == 1 && matches!(fx[0], topicterm::app::Effect::ReadUsers { .. }),
        "the kept session asks the server nothing, only that its users be read: {fx:?}"
    );
    assert!(app.st.ui.conn.from_cache() && !app.st.ui.conn.loading());
    // The first frame does not wait for the users: the messages are drawn.
    let first = app.draw(120, 30);
    assert!(first.owners.iter().flatten().count() > 10, "messages are drawn:\n{}", first.text());
    // Only the people its messages name are known yet (each message names its sender), not the
    // organization's list, which is still being read.
    assert!(
        app.st.data.users.len() < live_state.data.users.len() && app.st.data.users.is_reading(),
        "{} of {} users known before the list is read",
        app.st.data.users.len(),
        live_state.data.users.len()
    );
    assert_eq!(app.st.data.users.groups().count(), 0, "the groups are read with the users");
    app.run(fx);
    app.until("the users read", |st| !st.data.users.is_reading()).await;
    assert!(live_state.data.users.groups().next().is_some(), "the demo organization has user groups");
    let ids = |users: &topicterm::app::Users| {
        let mut ids: Vec<i64> = users.groups().map(|g| g.id).collect();
        ids.sort_unstable();
        ids
    };
    assert_eq!(ids(&app.st.data.users), ids(&live_state.data.users), "the kept groups came back");
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
    let ids = |st: &State| st.data.views[&narrow].ids().to_vec();
    let live_ids = ids(&live_state);
    assert_eq!(ids(&app.st), live_ids[live_ids.len().saturating_sub(app::cache::CACHED_MESSAGES)..]);
    assert!(cached.owners.iter().flatten().count() > 10, "messages are drawn:\n{}", cached.text());
    assert!(
        cached.owners.iter().flatten().all(|id| live.owners.contains(&Some(*id)) || live_ids.contains(id)),
        "only the session's messages"
    );
    let unread: Vec<usize> = app.st.data.channels.iter().map(|c| app.st.data.channel_unread(c.id)).collect();
    assert_eq!(unread, live_unread, "the same unread counts");
    assert_eq!(app.st.data.users.len(), live_state.data.users.len(), "every user");

    // The server answers: its truth replaces the kept session, which is no longer marked.
    app.run(vec![topicterm::app::Effect::Register]);
    app.until("registered", |st| st.data.queue_id().is_some()).await;
    app.settle().await;
    assert!(!app.st.ui.conn.from_cache());
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
    assert!(fx.is_empty() && !app.st.ui.conn.from_cache());
    assert_eq!(app.st.data.users.len(), live_state.data.users.len(), "the users are the server's");
}

/// The last session reopens on the narrow the user left, with its messages, even with the
/// server out of reach (`n` to a topic, quit, server gone, start again). The narrows opened
/// before it were kept too and show their messages; one never opened shows what is held of it,
/// and one with nothing held says it is not loaded — until the server answers, when it loads.
#[tokio::test]
async fn the_last_session_reopens_the_narrow_left_and_the_others_kept_even_offline() {
    use topicterm::app::{Effect, Narrow, settings::StartNarrow};
    let (mut app, proxy) = App::start_behind_proxy("member").await;
    app.keys("n").await;
    let topic = app.st.ui.narrow.clone();
    let Narrow::Topic(channel, _) = topic.clone() else { panic!("n opens a topic: {topic:?}") };
    assert!(app.st.data.views[&topic].is_loaded());
    let left = app.draw(80, 24);
    let dir = tempfile::tempdir().unwrap();
    let snapshot = kept_and_read(&app, dir.path());
    let kept: Vec<&Narrow> = snapshot.windows.iter().map(|w| &w.narrow).collect();
    assert_eq!(kept, [&topic, &Narrow::All], "the narrow left first, then the one before it");
    assert!(snapshot.messages.len() <= app::cache::CACHED_MESSAGES * app::cache::CACHED_NARROWS);
    let held: Vec<i64> = snapshot.messages.iter().map(|m| m.id).collect();

    // A new start, the server out of reach; the config names no first view of its own.
    proxy.set_down(true);
    let mut fresh =
        State { tz: TimeZone::Fixed(0), now: app.st.now, site: app.st.site.clone(), ..Default::default() };
    fresh.settings.start = Some(StartNarrow::All);
    fresh.ui.conn.connecting();
    app.st = fresh;
    app.apply(Msg::Cached(Box::new(snapshot)));
    app.run(vec![Effect::Register]);
    app.until("the server found out of reach", |st| st.ui.conn.offline().is_some_and(|o| o.register_due))
        .await;
    // The kept users are read on a thread of their own: under load, after the server is found
    // out of reach. Until then names show as not yet known.
    app.until("the kept users read", |st| !st.data.users.is_reading()).await;
    assert_eq!(app.st.ui.narrow, topic, "the narrow left");
    let screen = app.draw(80, 24);
    assert!(screen.rows[23].contains("· last session"), "{}", screen.text());
    let shown = |s: &crate::harness::Screen| s.owners.iter().flatten().copied().collect::<Vec<i64>>();
    // The same messages from the same first row (the offline banner, whole above the title, may
    // take the last row).
    let (now, before) = (shown(&screen), shown(&left));
    assert!(
        now.len() + 1 >= before.len() && before.starts_with(&now),
        "its messages, as they were left:\n{}",
        screen.text()
    );
    insta::assert_snapshot!("last_session_offline_80x24", screen.text());

    // All messages was kept with it.
    app.open(Narrow::All).await;
    let all = app.draw(80, 24);
    assert!(shown(&all).len() > 5 && shown(&all).iter().all(|id| held.contains(id)), "{}", all.text());

    // A topic never opened: the messages held of it (from the kept All messages).
    let (other, of_other) = {
        let d = &app.st.data;
        let m = d.views[&Narrow::All]
            .ids()
            .iter()
            .rev()
            .map(|id| &d.messages[id])
            .find(|m| m.stream_id().is_some_and(|c| c != channel))
            .expect("a message of another channel");
        let other = Narrow::Topic(m.stream_id().unwrap(), m.topic().to_owned());
        let of_other: Vec<i64> =
            held.iter().copied().filter(|id| other.contains(&d.messages[id], d.me)).collect();
        (other, of_other)
    };
    app.open(other.clone()).await;
    let screen = app.draw(80, 24);
    assert!(
        !shown(&screen).is_empty() && shown(&screen).iter().all(|id| of_other.contains(id)),
        "{}",
        screen.text()
    );

    // A channel none of whose messages is held: it says so and why.
    let empty = {
        let d = &app.st.data;
        let c = d
            .channels
            .iter()
            .map(|c| c.id)
            .find(|c| !held.iter().any(|id| d.messages[id].stream_id() == Some(*c)));
        Narrow::Channel(c.expect("a channel with no message kept"))
    };
    app.open(empty.clone()).await;
    let screen = app.draw(80, 24);
    let p = screen.pane;
    let pane: String = screen.rows[p.y as usize..(p.y + 2) as usize]
        .iter()
        .map(|r| r.chars().skip(p.x as usize).collect::<String>().trim().to_owned())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(pane, "Not loaded yet: offline — it loads when the server answers", "{}", screen.text());
    insta::assert_snapshot!("last_session_not_loaded_80x24", screen.text());

    // The server is back: the narrow on screen loads, the last session is replaced.
    proxy.set_down(false);
    let retry_at = app.st.ui.conn.offline().unwrap().retry_at;
    app.apply(Msg::Tick(retry_at));
    app.until("registered", |st| st.data.queue_id().is_some()).await;
    app.until("the channel loaded", |st| st.data.views.get(&empty).is_some_and(|v| v.is_loaded())).await;
    assert!(!app.st.ui.conn.from_cache() && !app.st.ui.conn.is_offline());
    let screen = app.draw(80, 24);
    assert!(!screen.text().contains("Not loaded"), "{}", screen.text());
    // The topic shown from what was held is fetched anew when opened.
    app.open(other.clone()).await;
    assert!(app.st.data.views[&other].is_loaded() && !app.st.data.views[&other].is_provisional());
}

/// The user's home view (`web_home_view`, the inbox for the demo user) opens at a start with
/// nothing kept; a start from the last session reopens where the user was, with no inbox over
/// it once the server answers (as the web app reopens the narrow in its address).
#[tokio::test]
async fn the_last_session_reopens_its_narrow_not_the_home_view() {
    use crate::harness::Setup;
    use topicterm::app::Popup;
    use topicterm::app::keys::KeyCode;
    let mut app = Setup::new("member").home_view().start().await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Inbox(_))), "a first start: the home view");
    app.key(KeyCode::Esc).await;
    app.keys("n").await;
    let topic = app.st.ui.narrow.clone();
    assert!(matches!(topic, app::Narrow::Topic(..)), "n opens a topic: {topic:?}");
    let dir = tempfile::tempdir().unwrap();
    let snapshot = kept_and_read(&app, dir.path());
    let fresh =
        State { tz: TimeZone::Fixed(0), now: app.st.now, site: app.st.site.clone(), ..Default::default() };
    assert_eq!(fresh.settings.start, None, "the config names no first view");
    app.st = fresh;
    app.st.ui.conn.connecting();
    // As the binary starts: register (and the first page) asked for, then the kept session read.
    let asked = app::start(&mut app.st);
    app.apply(Msg::Cached(Box::new(snapshot)));
    app.run(asked);
    app.until("the server's answer", |st| {
        st.data.served() && st.data.views.get(&topic).is_some_and(|v| v.is_loaded())
    })
    .await;
    app.settle().await;
    assert_eq!(app.st.data.user_settings().web_home_view.as_deref(), Some("inbox"));
    assert!(app.st.ui.popup.is_none(), "no home view over the last session: {:?}", app.st.ui.popup);
    assert_eq!(app.st.ui.narrow, topic);
    app.close().await;
}
