//! Getting around: the direct-message conversations in the channels pane, the recent
//! conversations view, saved views, filtering the panes.

use crate::harness::*;
use crossterm::event::KeyCode;
use topicterm::app::{Narrow, SidebarRow};

#[tokio::test]
async fn recent_direct_messages_are_listed_newest_first_with_unread_counts() {
    let mut app = App::start("member").await;
    let dms: Vec<Vec<i64>> = app
        .st
        .ui
        .sidebar
        .iter()
        .filter_map(|r| match r {
            SidebarRow::Dm(users) => Some(users.clone()),
            _ => None,
        })
        .collect();
    assert!(!dms.is_empty(), "the seed has direct messages for member");
    let newest: Vec<i64> = dms.iter().map(|k| app.st.data.recent_dms[k]).collect();
    assert!(newest.windows(2).all(|w| w[0] > w[1]), "newest first: {newest:?}");
    let screen = app.screen(80, 24);
    insta::assert_snapshot!("dm_rows_80x24", screen);
    insta::assert_snapshot!("dm_rows_160x48", app.screen(160, 48));
    // A new DM from someone puts their conversation at the top, with its unread count.
    let carol = app.st.data.users.values().find(|u| u.full_name.starts_with("Carol")).unwrap().id;
    let me = app.st.data.me;
    let sent = app
        .other("carol")
        .send_message(&topicterm::api::OutgoingMessage::direct(vec![me], "are you around?"))
        .await
        .unwrap()
        .id;
    app.until("the DM arrived", |st| st.data.messages.contains_key(&sent)).await;
    let first_dm = app.st.ui.sidebar.iter().position(|r| matches!(r, SidebarRow::Dm(_))).unwrap();
    assert_eq!(app.st.ui.sidebar[first_dm], SidebarRow::Dm(vec![carol]));
    let screen = app.screen(80, 24);
    let row = screen.lines().find(|l| l.contains("Carol")).unwrap_or_default().to_owned();
    let pane = row.split('│').next().unwrap_or_default();
    assert!(pane.contains("○ Carol") || pane.contains("● Carol"), "a presence dot: {row:?}");
    assert!(pane.trim_end().ends_with(" 1"), "one unread: {row:?}");
    // enter opens it.
    app.st.ui.focus = topicterm::app::Focus::Sidebar;
    app.st.ui.sidebar_selected = first_dm;
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.narrow, Narrow::Dm(vec![carol]));
    app.until("the conversation loaded", |st| st.ui.selected.is_some()).await;
    // Muting someone takes their conversation out of the list.
    app.palette(&format!("mute-user {}", app.st.data.user_name(carol))).await;
    app.until("muted", |st| st.data.muted_users.contains(&carol)).await;
    assert!(!app.st.ui.sidebar.contains(&SidebarRow::Dm(vec![carol])));
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
    assert!(app.st.data.muted_users.is_empty());
    for (c, t) in &newer {
        assert!(app.st.data.topic_muted(*c, t), "#{c} > {t} is newer and not muted");
    }
    let first = rows[0].narrow.clone();
    insta::assert_snapshot!("recent_80x24", app.screen(80, 24));
    insta::assert_snapshot!("recent_160x48", app.screen(160, 48));
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
