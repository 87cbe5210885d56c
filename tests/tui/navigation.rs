//! Getting around: the direct-message conversations in the channels pane, the recent
//! conversations view, saved views, filtering the panes.

use crate::harness::*;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Narrow, SidebarRow};

#[tokio::test]
async fn recent_direct_messages_are_listed_newest_first_with_unread_counts() {
    let mut app = App::start("member").await;
    let dms: Vec<Vec<i64>> = app
        .st
        .ui
        .sidebar
        .rows()
        .iter()
        .filter_map(|r| match r {
            SidebarRow::Dm(users) => Some(users.clone()),
            _ => None,
        })
        .collect();
    assert!(!dms.is_empty(), "the seed has direct messages for member");
    let newest: Vec<i64> = dms.iter().map(|k| app.st.data.recent_dms()[k]).collect();
    assert!(newest.windows(2).all(|w| w[0] > w[1]), "newest first: {newest:?}");
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("dm_rows_80x24", screen);
    insta::assert_snapshot!("dm_rows_160x48", app.screen(160, 48));
    // A new DM from someone puts their conversation at the top, with its unread count.
    let carol = app.st.data.users.iter().find(|u| u.full_name.starts_with("Carol")).unwrap().id;
    let me = app.st.data.me;
    let sent = app
        .other("carol")
        .send_message(&topicterm::api::OutgoingMessage::direct(vec![me], "are you around?"))
        .await
        .unwrap()
        .id;
    app.until("the DM arrived", |st| st.data.messages.contains_key(&sent)).await;
    let first_dm = app.st.ui.sidebar.rows().iter().position(|r| matches!(r, SidebarRow::Dm(_))).unwrap();
    assert_eq!(app.st.ui.sidebar.rows()[first_dm], SidebarRow::Dm(vec![carol]));
    let screen = app.screen(80, 24);
    let row = screen.lines().find(|l| l.contains("Carol")).unwrap_or_default().to_owned();
    let pane = row.split('│').next().unwrap_or_default();
    assert!(pane.contains("○ Carol") || pane.contains("● Carol"), "a presence dot: {row:?}");
    assert!(pane.trim_end().ends_with(" 1"), "one unread: {row:?}");
    // enter opens it.
    app.st.ui.focus = topicterm::app::Focus::Sidebar;
    app.st.ui.sidebar.select(first_dm);
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.narrow, Narrow::Dm(vec![carol]));
    app.until("the conversation loaded", |st| st.ui.selected.is_some()).await;
    // Muting someone takes their conversation out of the list.
    app.palette(&format!("mute-user {}", app.st.data.user_name(carol))).await;
    app.until("muted", |st| st.data.users.is_muted(carol)).await;
    assert!(!app.st.ui.sidebar.rows().contains(&SidebarRow::Dm(vec![carol])));
}

#[tokio::test]
async fn recent_conversations_list_the_latest_across_channels_and_dms_and_open_one() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('v')).await;
    app.until("the server's newest messages", |st| {
        matches!(&st.ui.popup, Some(topicterm::app::Popup::Recent { rows: Some(_), .. }))
    })
    .await;
    let rows = match &app.st.ui.popup {
        Some(topicterm::app::Popup::Recent { rows: Some(rows), .. }) => rows.clone(),
        _ => unreachable!(),
    };
    assert!(rows.len() > 5, "{rows:?}");
    assert!(rows.windows(2).all(|w| w[0].newest > w[1].newest), "newest first");
    assert!(rows.iter().any(|r| matches!(r.narrow, Narrow::Dm(_))), "DMs too");
    assert!(rows.iter().any(|r| matches!(r.narrow, Narrow::Topic(..))), "topics too");
    // Every newer message the user has is in a muted topic or channel (left out, as in the
    // web app): the top row is the newest conversation shown.
    let newer: Vec<(i64, String)> = {
        let org = app.server.shared.lock();
        let me = app.st.data.me;
        org.user_msgs[&me]
            .keys()
            .filter(|id| **id > rows[0].newest)
            .filter_map(|id| org.messages.get(id))
            .map(|m| {
                (m.channel_id().expect("no muted users here: DMs are never hidden"), m.topic().to_owned())
            })
            .collect()
    };
    assert_eq!(app.st.data.users.muted().count(), 0);
    for (c, t) in &newer {
        assert!(app.st.data.topic_muted(*c, t), "#{c} > {t} is newer and not muted");
    }
    let first = rows[0].narrow.clone();
    insta::assert_snapshot!("recent_80x24", app.screen(80, 24));
    insta::assert_snapshot!("recent_160x48", app.screen(160, 48));
    // At 40×12 the time column is as short as the web app's ("Sun", "6 Dec", a time today):
    // the conversation keeps its room.
    insta::assert_snapshot!("recent_40x12", app.screen(40, 12));
    // A new message puts its conversation on top while the view is open.
    let design = app.channel_id("design");
    app.other("bob")
        .send_message(&topicterm::api::OutgoingMessage::channel(design, "fresh topic", "just now"))
        .await
        .unwrap();
    app.until("it moved to the top", |st| match &st.ui.popup {
        Some(topicterm::app::Popup::Recent { rows: Some(rows), .. }) => {
            rows[0].narrow == Narrow::Topic(design, "fresh topic".into())
        }
        _ => false,
    })
    .await;
    let screen = app.screen(160, 48);
    let row = screen.lines().find(|l| l.contains("#design > fresh topic")).expect("on screen").to_owned();
    assert!(row.contains("Bob Nakamura") && row.contains("  1 #design"), "unread and who: {row}");
    // The selection stayed on the conversation it was on; g goes to the top, enter opens it.
    match &app.st.ui.popup {
        Some(topicterm::app::Popup::Recent { rows: Some(rows), selected }) => {
            assert_eq!(rows[*selected].narrow, first, "the selection stays put")
        }
        _ => unreachable!(),
    }
    app.key(KeyCode::Char('g')).await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.popup.is_none());
    assert_eq!(app.st.ui.narrow, Narrow::Topic(design, "fresh topic".into()));
    // :recent is the same view.
    app.palette("recent").await;
    assert!(matches!(app.st.ui.popup, Some(topicterm::app::Popup::Recent { .. })));
}

#[tokio::test]
async fn the_people_pane_takes_the_focus_filters_as_you_type_and_opens_a_dm_or_a_profile() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('w')).await;
    assert_eq!(app.st.ui.focus, topicterm::app::Focus::People, "w shows and focuses it");
    let everyone = app.st.ui.people.list().len();
    assert!(everyone > 10);
    // j moves down the list; the selection is drawn and scrolled into view.
    for _ in 0..everyone {
        app.key(KeyCode::Char('j')).await;
    }
    assert_eq!(app.st.ui.people.selected_index(), everyone - 1, "stops at the last person");
    let last = app.st.data.user_name(app.st.ui.people.list()[everyone - 1]).to_owned();
    assert!(
        app.screen(80, 24).contains(&last[..10.min(last.len())]),
        "the last person is scrolled into view"
    );
    app.key(KeyCode::Char('g')).await;
    // / filters as the user types.
    app.key(KeyCode::Char('/')).await;
    app.keys("bob").await;
    let bob = app.st.data.users.iter().find(|u| u.full_name == "Bob Nakamura").unwrap().id;
    assert_eq!(app.st.ui.people.list(), vec![bob], "at once, while typing");
    app.key(KeyCode::Enter).await;
    insta::assert_snapshot!("people_filtered_80x24", app.screen(80, 24));
    insta::assert_snapshot!("people_filtered_160x48", app.screen(160, 48));
    // u: the profile of the selected person.
    app.key(KeyCode::Char('u')).await;
    assert!(matches!(&app.st.ui.popup, Some(topicterm::app::Popup::Profile { user, .. }) if *user == bob));
    app.key(KeyCode::Esc).await;
    // enter: their conversation, with the compose box open to them.
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.narrow, Narrow::Dm(vec![bob]));
    assert_eq!(
        app.st.ui.compose.as_ref().map(|c| c.target.clone()),
        Some(topicterm::app::Target::Dm(vec![bob]))
    );
    app.keys("hello bob").await;
    app.ctrl('d').await;
    app.until("sent", |st| st.data.messages.values().any(|m| m.content().contains("hello bob"))).await;
    // esc in the pane clears its filter.
    app.key(KeyCode::Esc).await;
    app.st.ui.focus = topicterm::app::Focus::People;
    app.key(KeyCode::Esc).await;
    assert_eq!(app.st.ui.people.list().len(), everyone);
}

#[tokio::test]
async fn the_channels_pane_filters_as_you_type() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('h')).await;
    app.key(KeyCode::Char('/')).await;
    app.keys("eng").await;
    let engineering = app.channel_id("engineering");
    assert_eq!(app.st.ui.sidebar.rows(), vec![SidebarRow::Channel(engineering)]);
    app.key(KeyCode::Enter).await;
    insta::assert_snapshot!("channels_filtered_80x24", app.screen(80, 24));
    insta::assert_snapshot!("channels_filtered_160x48", app.screen(160, 48));
    // enter opens the match.
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.narrow, Narrow::Channel(engineering));
    // A name finds direct-message conversations too.
    app.key(KeyCode::Char('/')).await;
    for _ in 0..3 {
        app.key(KeyCode::Backspace).await;
    }
    app.keys("alice").await;
    assert!(
        app.st.ui.sidebar.rows().iter().any(|r| matches!(r, SidebarRow::Dm(_))),
        "{:?}",
        app.st.ui.sidebar.rows()
    );
    assert!(!app.st.ui.sidebar.rows().contains(&SidebarRow::Channel(engineering)));
    // Every conversation with someone whose name matches, not only five of them ("a" hid
    // Carol and Bob).
    for _ in 0.."alice".len() {
        app.key(KeyCode::Backspace).await;
    }
    app.keys("a").await;
    let dms: Vec<Vec<i64>> = app
        .st
        .ui
        .sidebar
        .rows()
        .iter()
        .filter_map(|r| match r {
            SidebarRow::Dm(users) => Some(users.clone()),
            _ => None,
        })
        .collect();
    let d = &app.st.data;
    let named = |users: &Vec<i64>| users.iter().any(|u| d.user_name(*u).to_lowercase().contains('a'));
    let expected =
        d.recent_dms().keys().filter(|u| named(u) && !u.iter().all(|u| d.users.is_muted(*u))).count();
    assert!(expected > 5, "the demo org has more than five such conversations: {expected}");
    assert_eq!(dms.len(), expected, "{dms:?}");
    for who in ["Carol Dubois", "Bob Nakamura"] {
        let id = d.users.iter().find(|u| u.full_name == who).map(|u| u.id).unwrap();
        assert!(dms.contains(&vec![id]), "{who} is listed");
    }
    insta::assert_snapshot!("channels_filtered_dms_80x24", app.screen(80, 24));
    // esc in the prompt drops the filter.
    app.key(KeyCode::Esc).await;
    assert!(app.st.ui.sidebar.rows().contains(&SidebarRow::AllMessages));
    assert!(app.st.ui.sidebar.filter().is_empty());
    // Nothing matching says so.
    app.key(KeyCode::Char('/')).await;
    app.keys("zzzz").await;
    app.key(KeyCode::Enter).await;
    assert!(app.st.ui.sidebar.rows().is_empty());
    assert!(app.screen(80, 24).contains("nothing matches"));
}

#[tokio::test]
async fn mentions_complete_groups_silent_mentions_and_wildcards() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("ping @back").await;
    let firsts = |app: &App| -> Vec<String> {
        app.st.ui.compose.as_ref().unwrap().suggestions.iter().map(|s| s.1.clone()).collect()
    };
    assert!(firsts(&app).contains(&"@*backend*".to_owned()), "{:?}", firsts(&app));
    app.key(KeyCode::Tab).await;
    app.keys("and @_ali").await;
    assert_eq!(firsts(&app).first().map(String::as_str), Some("@_**Alice Okafor**"));
    app.key(KeyCode::Tab).await;
    app.keys("and @to").await;
    assert!(firsts(&app).contains(&"@**topic**".to_owned()), "{:?}", firsts(&app));
    insta::assert_snapshot!("complete_wildcard_80x24", app.screen(80, 24));
    // Gabriel Stone comes first (names before wildcards): tab again takes the next.
    app.key(KeyCode::Tab).await;
    app.key(KeyCode::Tab).await;
    assert_eq!(
        app.st.ui.compose.as_ref().unwrap().text(),
        "ping @*backend* and @_**Alice Okafor** and @**topic** "
    );
}

#[tokio::test]
async fn the_compose_box_changes_its_recipient_and_keeps_the_text() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('r')).await;
    app.keys("this belongs elsewhere").await;
    let old_key = app.st.ui.compose.as_ref().unwrap().draft_key();
    app.ctrl('g').await;
    let p = app.st.ui.prompt.as_ref().expect("the channel>topic prompt");
    assert_eq!(p.text(), "builds>nightly", "filled with where it goes now");
    for _ in 0.."builds>nightly".len() {
        app.key(KeyCode::Backspace).await;
    }
    app.keys("design>new home").await;
    app.key(KeyCode::Enter).await;
    let design = app.channel_id("design");
    let c = app.st.ui.compose.as_ref().unwrap();
    assert_eq!(c.target, topicterm::app::Target::Channel { id: design, topic: "new home".into() });
    assert_eq!(c.text(), "this belongs elsewhere");
    assert!(!app.st.drafts.contains_key(&old_key), "the draft moved with it");
    assert!(app.screen(80, 24).contains("To: #design > new home"));
    app.ctrl('d').await;
    app.until("sent there", |st| {
        st.data
            .messages
            .values()
            .any(|m| m.content().contains("this belongs elsewhere") && m.topic() == "new home")
    })
    .await;
}

#[tokio::test]
async fn saved_views_are_rows_pinned_first_and_open_what_they_name() {
    let mut app = App::start("member").await;
    let views: Vec<String> = app
        .st
        .ui
        .sidebar
        .rows()
        .iter()
        .filter_map(|r| if let SidebarRow::View(f) = r { Some(f.clone()) } else { None })
        .collect();
    // Member's saved views, and the built-in ones this client opens that no other row does.
    assert_eq!(views.len(), 4, "{views:?}");
    let pinned: Vec<bool> = views
        .iter()
        .map(|f| app.st.data.lists.views().iter().find(|v| v.fragment == *f).unwrap().is_pinned)
        .collect();
    assert!(pinned.windows(2).all(|w| w[0] >= w[1]), "pinned first: {views:?} {pinned:?}");
    assert!(views.iter().any(|f| f.contains("release")) && views.contains(&"recent".to_owned()));
    let screen = app.screen(80, 24);
    assert!(screen.contains("◆ Release") && screen.contains("◇ Recent conversations"), "{screen}");
    // enter on "Release": the topic it names.
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| matches!(r, SidebarRow::View(f) if f.contains("release"))));
    app.key(KeyCode::Enter).await;
    let engineering = app.channel_id("engineering");
    assert_eq!(app.st.ui.narrow, Narrow::Topic(engineering, "release 2.4 planning".into()));
    // "Support (followed)": a search of the channel's followed topics.
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| matches!(r, SidebarRow::View(f) if f.contains("followed"))));
    app.key(KeyCode::Enter).await;
    assert!(
        matches!(&app.st.ui.narrow, Narrow::Search { query, .. } if query == "channel:support is:followed")
    );
    // The built-in "recent": the recent conversations view.
    app.key(KeyCode::Char('h')).await;
    app.st.ui.sidebar.select(app.sidebar_row(|r| *r == SidebarRow::View("recent".into())));
    app.key(KeyCode::Enter).await;
    assert!(matches!(app.st.ui.popup, Some(topicterm::app::Popup::Recent { .. })));
}
