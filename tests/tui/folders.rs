//! Channel folders in the channels pane, through the whole app against the demo server: the
//! channels grouped under their folders' names (pinned ones first, the rest under "OTHER
//! CHANNELS"), regrouped by the server's events as an administrator changes folders, the
//! selection and the filter working across the headings.

use crate::harness::*;
use reqwest::Method;
use topicterm::api::{Ack, Params};
use topicterm::app::keys::KeyCode;
use topicterm::app::{Focus, Section, SidebarRow};

/// An administrator's request, straight to the server.
async fn admin(app: &App, method: Method, path: &str, params: Params) {
    let _: Ack = app.other("admin").call(method, path, params).await.expect("the server takes it");
}

fn folder_id(app: &App, name: &str) -> i64 {
    app.st.data.channels.folders().find(|f| f.name == name).map(|f| f.id).expect("folder")
}

/// The channels pane's lines from the first heading on, drawn tall enough for all of them (the
/// pane is the first 25 columns at 80 wide).
fn pane(app: &mut App) -> Vec<String> {
    let screen = app.screen(80, 60);
    // Without the unread counts at the right.
    let lines: Vec<String> = screen
        .lines()
        .map(|l| l.split('│').next().unwrap_or("").trim_end_matches(|c: char| c == ' ' || c.is_ascii_digit()))
        .map(str::to_owned)
        .collect();
    let first = lines.iter().position(|l| l.chars().all(|c| !c.is_lowercase()) && !l.is_empty()).unwrap();
    lines[first..].iter().take_while(|l| !l.is_empty()).cloned().collect()
}

#[tokio::test]
async fn channels_are_grouped_under_their_folders_and_follow_the_servers_changes() {
    let mut app = App::start("member").await;
    insta::assert_snapshot!("folders_80x24", app.screen(80, 24));
    assert_eq!(
        pane(&mut app),
        [
            "PINNED CHANNELS",
            "▸#engineering^",
            "ENGINEERING",
            "▸#builds",
            "▸#design",
            "SOCIAL",
            "▸#book-club",
            "▸#random",
            "OTHER CHANNELS",
            "▸#announcements",
            "▸#general",
            "▸🔒 security",
            "▸#support",
        ],
        "pinned first (#engineering is in Engineering); the folders in the server's order; muted last in each"
    );
    insta::assert_snapshot!("folders_160x48", app.screen(160, 48));
    let (engineering, social) = (folder_id(&app, "Engineering"), folder_id(&app, "Social"));
    // An administrator puts #general into Social: the event moves it there.
    let general = app.channel_id("general");
    let path = format!("/streams/{general}");
    admin(&app, Method::PATCH, &path, Params::new().add("folder_id", social)).await;
    app.until("general in Social", |st| st.data.channels[&general].folder_id == Some(social)).await;
    assert_eq!(app.server.shared.lock().channels[&general].folder_id, Some(social), "the server has it");
    let rows = pane(&mut app);
    let at = |name: &str| rows.iter().position(|r| r.contains(name)).unwrap();
    assert!(at("SOCIAL") < at("#general") && at("#general") < at("OTHER CHANNELS"), "{rows:?}");
    // The folders are reordered: Social comes first.
    let order = format!("[{social},{engineering}]");
    admin(&app, Method::PATCH, "/channel_folders", Params::new().add("order", &order)).await;
    app.until("reordered", |st| st.data.channels.folder(social).unwrap().order == 0).await;
    let rows = pane(&mut app);
    let at = |name: &str| rows.iter().position(|r| r == name).unwrap();
    assert!(at("SOCIAL") < at("▸#general") && at("▸#general") < at("ENGINEERING"), "{rows:?}");
    // Renamed (server text is drawn sanitized): the heading follows.
    let folder = format!("/channel_folders/{social}");
    admin(&app, Method::PATCH, &folder, Params::new().add("name", "Hang\u{1b}[31mout")).await;
    app.until("renamed", |st| st.data.channels.folder(social).unwrap().name.starts_with("Hang")).await;
    let screen = app.screen(80, 24);
    assert!(!screen.contains('\u{1b}'), "{screen}");
    assert!(pane(&mut app).iter().any(|r| r.starts_with("HANG")), "{screen}");
    // Out of its folder again (`null`): among the others.
    admin(&app, Method::PATCH, &path, Params::new().add("folder_id", "null")).await;
    app.until("general in none", |st| st.data.channels[&general].folder_id.is_none()).await;
    let rows = pane(&mut app);
    let at = |name: &str| rows.iter().position(|r| r.contains(name)).unwrap();
    assert!(at("OTHER CHANNELS") < at("#general"), "{rows:?}");
}

#[tokio::test]
async fn the_selection_and_the_filter_work_across_the_headings() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('h')).await;
    assert_eq!(app.st.ui.focus, Focus::Sidebar);
    // Down the whole pane and back: never on a heading, every channel passed.
    let mut seen = Vec::new();
    for code in std::iter::repeat_n(KeyCode::Char('j'), 30).chain(std::iter::repeat_n(KeyCode::Char('k'), 30))
    {
        app.key(code).await;
        seen.push(app.st.ui.sidebar.rows()[app.st.ui.sidebar.selected_index()].clone());
    }
    assert!(seen.iter().all(SidebarRow::selectable), "{seen:?}");
    for name in ["builds", "random", "announcements", "support"] {
        let c = app.channel_id(name);
        assert!(seen.contains(&SidebarRow::Channel(c)), "{name} passed");
    }
    // Up from the first channel of a folder: over its heading, to the channel above.
    let heading = app.sidebar_row(|r| matches!(r, SidebarRow::Header(Section::Folder(_))));
    let above = app.st.ui.sidebar.rows()[heading - 1].clone();
    assert!(matches!(above, SidebarRow::Channel(_)), "{above:?}");
    app.st.ui.sidebar.select(heading + 1);
    app.key(KeyCode::Char('k')).await;
    assert_eq!(app.st.ui.sidebar.rows()[app.st.ui.sidebar.selected_index()], above);
    // A click on a heading does nothing.
    app.screen(80, 24);
    let social = app.sidebar_row(|r| matches!(r, SidebarRow::Header(Section::Folder(_))));
    let narrow = app.st.ui.narrow.clone();
    app.send(topicterm::app::Msg::ClickSidebar(social)).await;
    assert_eq!(app.st.ui.narrow, narrow);
    // Filtering keeps the heading of what matches, the selection on the channel.
    app.key(KeyCode::Char('/')).await;
    app.keys("buil").await;
    app.key(KeyCode::Enter).await;
    assert_eq!(pane(&mut app), ["ENGINEERING", "▸#builds"]);
    assert_eq!(
        app.st.ui.sidebar.rows()[app.st.ui.sidebar.selected_index()],
        SidebarRow::Channel(app.channel_id("builds"))
    );
    app.key(KeyCode::Enter).await;
    assert_eq!(app.st.ui.narrow, topicterm::app::Narrow::Channel(app.channel_id("builds")));
}
