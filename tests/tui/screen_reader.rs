//! The screen-reader mode (issue 39, `--screen-reader`): one column of plain words — the
//! focused pane or the popup filling the screen, no box-drawing characters, every mark a word —
//! the terminal's cursor on the focused row, moving the selection repainting two rows, and a
//! status row that the clock alone never changes.

use crate::harness::App;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use topicterm::api::Flag;
use topicterm::app::keys::KeyCode;
use topicterm::app::{Focus, Msg, Narrow, Popup, SidebarRow};

/// The demo org as `member` sees it, in the screen-reader mode (as `--screen-reader` sets it).
pub(crate) async fn reader() -> App {
    let mut app = App::start("member").await;
    app.st.settings.screen_reader = true;
    app
}

/// Fails naming the first box-drawing or block character (U+2500–U+259F) on the screen.
pub(crate) fn assert_plain(screen: &str, what: &str) {
    if let Some((row, line)) =
        screen.lines().enumerate().find(|(_, l)| l.chars().any(|c| ('\u{2500}'..='\u{259F}').contains(&c)))
    {
        panic!("{what}: a box-drawing character on row {row}: {line:?}\n{screen}");
    }
}

/// The screen's rows as one run of text, as a screen reader reads them on (rows wrap at spaces).
pub(crate) fn flat(screen: &str) -> String {
    screen.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

/// Row `y` of a buffer as text.
pub(crate) fn row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>().trim_end().to_owned()
}

/// The rows drawn reversed (the selection's style).
pub(crate) fn reversed_rows(buf: &Buffer) -> Vec<u16> {
    (0..buf.area.height)
        .filter(|&y| (0..buf.area.width).any(|x| buf[(x, y)].modifier.contains(Modifier::REVERSED)))
        .collect()
}

/// The rows that differ between two frames.
pub(crate) fn changed_rows(a: &Buffer, b: &Buffer) -> Vec<u16> {
    (0..a.area.height).filter(|&y| (0..a.area.width).any(|x| a[(x, y)] != b[(x, y)])).collect()
}

#[tokio::test]
async fn every_pane_and_a_popup_are_plain_words_without_box_drawing() {
    let mut app = reader().await;
    // The start screen: the all-hands message, edited, mentions everyone.
    let start = app.screen(80, 24);
    insta::assert_snapshot!("reader_start_80x24", start);
    assert_plain(&start, "the messages pane");
    assert!(start.starts_with("Messages in All messages"), "{start}");
    assert!(
        flat(&start)
            .contains("Priya Raman, Fri 20 Nov 12:00, in channel announcements topic all-hands, edited,"),
        "{start}"
    );
    assert!(flat(&start).contains("mentioned you:"), "{start}");
    assert!(
        flat(&start).contains("link 1: #general > all-hands questions (in this organization)."),
        "{start}"
    );
    assert!(flat(&start).contains("tada 2 including you, zulip 1."), "{start}");

    // A build's message, starred: its link by its text and its host.
    let builds = app.channel_id("builds");
    app.open(Narrow::Topic(builds, "main".into())).await;
    let id = *app.st.data.views[&app.st.ui.narrow]
        .ids()
        .iter()
        .find(|id| app.st.data.messages[*id].content().contains("ci.demo.topicterm.test/builds/4412"))
        .expect("the failed build's message");
    app.select(id);
    app.key(KeyCode::Char('*')).await;
    app.until("the star", move |st| st.data.messages[&id].has_flag(Flag::Starred)).await;
    let build = app.screen(80, 24);
    insta::assert_snapshot!("reader_starred_link_80x24", build);
    assert_plain(&build, "a message with a link");
    assert!(flat(&build).contains("starred"), "{build}");
    assert!(flat(&build).contains("link 1: #4412 (ci.demo.topicterm.test)."), "{build}");

    // The channels pane: a muted channel with three unread messages, in words.
    app.key(KeyCode::Char('h')).await;
    assert_eq!(app.st.ui.focus, Focus::Sidebar);
    let channels = app.screen(80, 24);
    insta::assert_snapshot!("reader_channels_80x24", channels);
    assert_plain(&channels, "the channels pane");
    assert!(channels.starts_with("Channels\n"), "{channels}");
    assert!(channels.contains("channel random, muted, unread 3"), "{channels}");
    assert!(channels.contains("Mentions, unread 3"), "{channels}");
    // A channel's topics, each with its policy and count in words.
    let eng = app.channel_id("engineering");
    let at = app.sidebar_row(|r| *r == SidebarRow::Channel(eng));
    while app.st.ui.sidebar.selected_index() < at {
        app.key(KeyCode::Char('j')).await;
    }
    app.key(KeyCode::Enter).await;
    app.key(KeyCode::Char('h')).await;
    let topics = app.screen(80, 24);
    insta::assert_snapshot!("reader_topics_80x24", topics);
    assert_plain(&topics, "the channels pane with topics");
    assert!(flat(&topics).contains("channel engineering, pinned, topics shown, unread 7"), "{topics}");
    assert!(flat(&topics).contains("topic "), "{topics}");

    // The people pane: presence and status in words.
    app.key(KeyCode::Char('w')).await;
    assert_eq!(app.st.ui.focus, Focus::People);
    let people = app.screen(80, 24);
    insta::assert_snapshot!("reader_people_80x24", people);
    assert_plain(&people, "the people pane");
    assert!(
        flat(&people).contains("Alice Okafor, active, status: emoji partyparrot Release week!"),
        "{people}"
    );

    // A popup fills the screen, its frame blanked.
    app.key(KeyCode::Char('?')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Help { .. })));
    let help = app.screen(80, 24);
    insta::assert_snapshot!("reader_help_80x24", help);
    assert_plain(&help, "the help popup");
    assert!(flat(&help).contains("screen reader on (--screen-reader)"), "{help}");
    // Nothing of the panes is under it.
    assert!(!flat(&help).contains("Alice Okafor, active"), "{help}");
    app.key(KeyCode::Esc).await;

    // The inbox: its folds, privacy and counts in words, not ▾, 🔒 and a column of numbers.
    app.key(KeyCode::Char('B')).await;
    assert!(matches!(app.st.ui.popup, Some(Popup::Inbox(_))));
    let inbox = app.screen(80, 24);
    insta::assert_snapshot!("reader_inbox_80x24", inbox);
    assert_plain(&inbox, "the inbox");
    assert!(inbox.starts_with("Inbox: enter opens, esc closes\n"), "{inbox}");
    assert!(flat(&inbox).contains("channel random, muted, unread 3"), "{inbox}");
    app.key(KeyCode::Esc).await;
    // Recent conversations: where, unread, who, when.
    app.key(KeyCode::Char('v')).await;
    app.until("the recent conversations", |st| {
        matches!(&st.ui.popup, Some(Popup::Recent { rows: Some(_), .. }))
    })
    .await;
    let recent = app.screen(80, 24);
    assert_plain(&recent, "recent conversations");
    assert!(recent.starts_with("Recent conversations: enter opens, esc closes\n"), "{recent}");
    assert!(flat(&recent).contains("topic all-hands questions in channel general, "), "{recent}");
}

/// The default view draws borders and rules; the mode's words are not in it.
#[tokio::test]
async fn the_default_view_is_unchanged_by_the_mode_being_there() {
    let mut app = App::start("member").await;
    let screen = app.screen(80, 24);
    assert!(screen.chars().any(|c| ('\u{2500}'..='\u{259F}').contains(&c)), "{screen}");
    assert!(!screen.contains("Messages in All messages"), "{screen}");
}

#[tokio::test]
async fn the_cursor_is_on_the_selected_row_of_every_pane_and_popup() {
    let mut app = reader().await;
    // Messages: the selected message's first row, which names its sender.
    for key in ['k', 'k', 'j'] {
        app.key(KeyCode::Char(key)).await;
        let (buf, cursor) = app.frame(80, 24);
        let (x, y) = cursor.expect("the cursor is shown");
        let m = &app.st.data.messages[&app.st.ui.selected.expect("a selection")];
        assert_eq!(x, 0);
        assert!(row(&buf, y).starts_with(m.sender_full_name()), "after {key}: row {y}: {:?}", row(&buf, y));
        assert_eq!(reversed_rows(&buf), vec![y], "only the selected row is marked");
    }
    // Channels: the selected row.
    app.key(KeyCode::Char('h')).await;
    for key in ['j', 'j', 'j', 'k'] {
        app.key(KeyCode::Char(key)).await;
        let (buf, cursor) = app.frame(80, 24);
        let (x, y) = cursor.expect("the cursor is shown");
        assert_eq!(x, 0);
        assert_eq!(reversed_rows(&buf), vec![y], "after {key}: the cursor's row is the selected one");
        let text = row(&buf, y);
        match &app.st.ui.sidebar.rows()[app.st.ui.sidebar.selected_index()] {
            SidebarRow::Dm(users) if users.len() == 1 => {
                assert!(text.contains(&*app.st.data.partner_name(users[0])), "{text}")
            }
            SidebarRow::Starred => assert_eq!(text, "Starred messages"),
            other => assert!(!text.is_empty(), "{other:?}"),
        }
    }
    // People.
    app.key(KeyCode::Char('w')).await;
    for key in ['j', 'j', 'k'] {
        app.key(KeyCode::Char(key)).await;
        let (buf, cursor) = app.frame(80, 24);
        let (x, y) = cursor.expect("the cursor is shown");
        let who = app.st.ui.people.list()[app.st.ui.people.selected_index()];
        assert_eq!(x, 0);
        assert!(row(&buf, y).starts_with(&app.st.data.users.get(who).unwrap().full_name), "{}", row(&buf, y));
    }
    // The inbox: its selected row.
    app.key(KeyCode::Char('B')).await;
    for key in ['j', 'j', 'k'] {
        app.key(KeyCode::Char(key)).await;
        let (buf, cursor) = app.frame(80, 24);
        let (x, y) = cursor.expect("the cursor is shown");
        assert_eq!((x, reversed_rows(&buf)), (0, vec![y]), "after {key} in the inbox");
    }
    app.key(KeyCode::Esc).await;
    // A popup: the start of its first row of text.
    app.key(KeyCode::Char('?')).await;
    let (buf, cursor) = app.frame(80, 24);
    let (x, y) = cursor.expect("the cursor is shown");
    assert!(row(&buf, y)[x as usize..].starts_with("Commands:"), "{}", row(&buf, y));
    app.key(KeyCode::Esc).await;
    // The command palette: after what is typed, in the status row.
    app.key(KeyCode::Char(':')).await;
    app.keys("he").await;
    let (buf, cursor) = app.frame(80, 24);
    let (x, y) = cursor.expect("the cursor is shown");
    assert_eq!(y, 23);
    assert_eq!(&row(&buf, y)[..x as usize], "Command: he");
}

#[tokio::test]
async fn moving_the_selection_repaints_two_rows_and_the_status_row_at_most() {
    let mut app = reader().await;
    // Up three messages, a frame after each key as the main loop draws.
    app.buffer(80, 24);
    for _ in 0..3 {
        app.key(KeyCode::Char('k')).await;
        app.buffer(80, 24);
    }
    let before = app.buffer(80, 24);
    app.key(KeyCode::Char('j')).await;
    let after = app.buffer(80, 24);
    let changed = changed_rows(&before, &after);
    let status = 23;
    let others: Vec<u16> = changed.iter().copied().filter(|y| *y != status).collect();
    assert!(
        !others.is_empty() && others.len() <= 2,
        "j repainted rows {changed:?}:\n{}\n---\n{}",
        (0..24).map(|y| row(&before, y)).collect::<Vec<_>>().join("\n"),
        (0..24).map(|y| row(&after, y)).collect::<Vec<_>>().join("\n")
    );
    // In the channels pane too.
    app.key(KeyCode::Char('h')).await;
    app.key(KeyCode::Char('j')).await;
    let before = app.buffer(80, 24);
    app.key(KeyCode::Char('j')).await;
    let after = app.buffer(80, 24);
    let changed: Vec<u16> = changed_rows(&before, &after).into_iter().filter(|y| *y != status).collect();
    assert_eq!(changed.len(), 2, "{changed:?}");
}

#[tokio::test]
async fn the_clock_alone_changes_nothing_on_screen_even_offline() {
    let (mut app, proxy) = App::start_behind_proxy("member").await;
    app.st.settings.screen_reader = true;
    proxy.set_down(true);
    app.until("the outage to be noticed", |st| st.ui.conn.is_offline()).await;
    let now = app.st.now;
    let first = app.buffer(80, 24);
    let status = row(&first, 23);
    assert!(status.contains("offline: "), "{status}");
    assert!(!status.contains(" s "), "no countdown: {status}");
    app.apply(Msg::Tick(now + 1));
    let second = app.buffer(80, 24);
    app.apply(Msg::Tick(now + 2));
    let third = app.buffer(80, 24);
    assert_eq!(changed_rows(&first, &second), Vec::<u16>::new(), "a tick changed the screen");
    assert_eq!(changed_rows(&second, &third), Vec::<u16>::new(), "a tick changed the screen");
    proxy.set_down(false);
}

/// `f` labels the links of the messages on screen; each says its label in words, and typing
/// it opens the link as in the default view.
#[tokio::test]
async fn link_hints_are_words_in_the_text() {
    let mut app = reader().await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let text = "read [the docs](https://docs.example/x) first";
    let id = alice
        .send_message(&topicterm::api::OutgoingMessage::channel(general, "hinted", text))
        .await
        .unwrap()
        .id;
    app.open(Narrow::Topic(general, "hinted".into())).await;
    app.select(id);
    let screen = app.screen(80, 24);
    assert!(flat(&screen).contains("read the docs first link 1: the docs (docs.example)."), "{screen}");
    app.key(KeyCode::Char('f')).await;
    let screen = app.screen(80, 24);
    assert_plain(&screen, "link hints");
    assert!(flat(&screen).contains("link 1, hint a: the docs (docs.example)."), "{screen}");
    let fx = topicterm::app::update(
        &mut app.st,
        Msg::Key(topicterm::app::keys::KeyEvent::new(
            KeyCode::Char('a'),
            topicterm::app::keys::KeyModifiers::NONE,
        )),
    );
    assert_eq!(
        fx,
        vec![topicterm::app::Effect::OpenUrl { url: "https://docs.example/x".into(), download: false }]
    );
}

/// The compose box fills the screen without its frame; the cursor is where typing goes.
#[tokio::test]
async fn the_compose_box_is_plain_and_holds_the_cursor() {
    let mut app = reader().await;
    app.key(KeyCode::Char('r')).await;
    app.keys("hello").await;
    let (buf, cursor) = app.frame(80, 24);
    let screen = (0..24).map(|y| row(&buf, y)).collect::<Vec<_>>().join("\n");
    assert_plain(&screen, "the compose box");
    assert!(screen.contains("ctrl+d send"), "{screen}");
    let (x, y) = cursor.expect("the cursor is shown");
    assert_eq!(&row(&buf, y)[..x as usize].trim_start(), &"hello", "{screen}");
}

/// A poll reads as its question and options with their votes in words, not its `/poll` text.
#[tokio::test]
async fn a_poll_reads_as_its_options_and_votes() {
    let mut app = reader().await;
    let random = app.channel_id("random");
    app.open(Narrow::Topic(random, "team offsite".into())).await;
    let poll =
        *app.st.data.widgets().keys().find(|id| app.st.data.messages[id].topic() == "team offsite").unwrap();
    app.select(poll);
    let screen = flat(&app.screen(80, 24));
    assert!(screen.contains("Poll: Where should the spring offsite be? Option 1: Lisbon, "), "{screen}");
    assert!(screen.contains("1 to 9 vote"), "{screen}");
    assert!(!screen.contains("/poll"), "{screen}");
}

/// `:channels` reads as words — subscribed or not, private, how many subscribe — with no ✓, and
/// the cursor follows its selection.
#[tokio::test]
async fn the_channel_list_reads_as_words_and_holds_the_cursor_on_its_selection() {
    let mut app = reader().await;
    app.palette("channels").await;
    app.until("the channel list", |st| matches!(&st.ui.popup, Some(Popup::Channels { list: Some(_), .. })))
        .await;
    let screen = app.screen(100, 30);
    assert_plain(&screen, "the channel list");
    assert!(!screen.contains('✓'), "{screen}");
    assert!(screen.starts_with("Channels: enter opens"), "{screen}");
    assert!(screen.contains("channel general, subscribed, "), "{screen}");
    assert!(screen.contains("channel security, subscribed, private"), "{screen}");
    assert!(screen.contains(", not subscribed"), "a channel the member can join: {screen}");
    // Letters filter the list: the arrows move.
    for key in [KeyCode::Down, KeyCode::Down, KeyCode::Up] {
        app.key(key).await;
        let (buf, cursor) = app.frame(100, 30);
        let (x, y) = cursor.expect("the cursor is shown");
        assert_eq!((x, reversed_rows(&buf)), (0, vec![y]), "after {key:?} in the channel list");
        let Some(Popup::Channels { selected, list: Some(list), .. }) = &app.st.ui.popup else { panic!() };
        let name = &list.all[list.shown[*selected]].channel.name;
        assert!(row(&buf, y).starts_with(&format!("channel {name}")), "{}", row(&buf, y));
    }
}

/// With several organizations open, the channels pane lists them first, in words — which is on
/// screen, unread, mentions, closed — not `▶`, `@3` and a rule.
#[tokio::test]
async fn the_organizations_open_are_rows_of_words_above_the_channels() {
    use topicterm::app::orgs::{OrgRow, Orgs};
    let mut app = reader().await;
    let row =
        |name: &str, unread, mentions| OrgRow { name: name.into(), unread, mentions, ..Default::default() };
    let rows = vec![
        row("demo", 0, 0),
        row("acme", 3, 1),
        OrgRow { closed: Some("the server refused the account".into()), ..row("old", 0, 0) },
    ];
    app.apply(Msg::Organizations(Orgs { rows, active: 0, index: 0 }));
    app.key(KeyCode::Char('h')).await;
    let (buf, cursor) = app.frame(80, 24);
    let screen = (0..24).map(|y| self::row(&buf, y)).collect::<Vec<_>>().join("\n");
    assert_plain(&screen, "the organizations");
    assert!(!screen.contains('▶') && !screen.contains('@'), "{screen}");
    assert!(
        screen.starts_with(
            "organization demo, on screen\norganization acme, unread 3, mentioned you\n\
             organization old, closed: the server refused the account\nChannels\n"
        ),
        "{screen}"
    );
    // The cursor stays on the selected channel's row, under them.
    let (x, y) = cursor.expect("the cursor is shown");
    assert_eq!((x, reversed_rows(&buf)), (0, vec![y]));
    assert!(y > 3, "{screen}");
}

/// Issue 51.13: a list's items read apart, a link whose text is its address is read once, and
/// rows wrap at the screen's width instead of losing their end.
#[tokio::test]
async fn list_items_read_apart_a_bare_link_once_and_rows_wrap_instead_of_being_cut() {
    let mut app = reader().await;
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let text = "Agenda:\n- Q4 numbers\n- 2.4 roadmap\n- hiring?\n\nsee https://docs.example/x and [the docs](https://docs.example/y)";
    let post =
        topicterm::api::OutgoingMessage::channel(general, "a very long topic name for the agenda", text);
    let id = alice.send_message(&post).await.unwrap().id;
    app.open(Narrow::Topic(general, "a very long topic name for the agenda".into())).await;
    app.select(id);
    let said = flat(&app.screen(160, 40));
    assert!(said.contains("Agenda: Q4 numbers. 2.4 roadmap. hiring? see https://docs.example/x"), "{said}");
    assert_eq!(said.matches("docs.example/x").count(), 1, "read once: {said}");
    assert!(said.contains(" link 1 (docs.example). link 2: the docs (docs.example)."), "{said}");
    // At 40 columns a recent conversation's row takes two, its time on the second.
    app.key(KeyCode::Char('v')).await;
    app.until("the recent conversations", |st| {
        matches!(&st.ui.popup, Some(Popup::Recent { rows: Some(_), .. }))
    })
    .await;
    let narrow = app.screen(40, 12);
    let when = app.st.tz.format(app.st.data.messages[&id].timestamp, app.st.settings.clock.short());
    assert!(narrow.lines().all(|l| topicterm::content::display_width(l) <= 40), "{narrow}");
    assert!(flat(&narrow).contains(&format!("from Alice Okafor, {when}")), "{narrow}");
    // The selected conversation holds the cursor on its first row, the one marked.
    let (buf, cursor) = app.frame(40, 12);
    assert_eq!(reversed_rows(&buf), vec![cursor.unwrap().1], "{narrow}");
    // The channels pane wraps too.
    app.key(KeyCode::Esc).await;
    app.st.ui.focus = Focus::Sidebar;
    let pane = app.screen(24, 12);
    assert!(pane.lines().all(|l| topicterm::content::display_width(l) <= 24), "{pane}");
    assert!(flat(&pane).contains("DM with Alice Okafor, active, unread 2"), "{pane}");
}
