//! The hostile-content suite: what a hostile member or admin of the user's own organization can
//! put into server text, sent through the demo server to the whole app, and what the client
//! may then do with it. The promises of `SECURITY.md`, each held here:
//!
//! - a link in a message never makes the client send the user's key anywhere but the site's
//!   API and its uploads (`/user_uploads/../../api/…` is a web page, never a download);
//! - a download lands in the client's private folder, under a fresh name, never over a file
//!   or through a symlink, mode 0600; it is opened only when its name and its contents are of
//!   an inert type (picture, PDF, plain text, audio, video), else saved and not opened;
//! - a link's number counts only links on screen: one in a closed spoiler (or a muted sender's
//!   message) gets none, and `o` cannot reach it, until it is shown;
//! - a program the client starts gets server text only where it cannot be read as an option
//!   (here: the browser gets one argument, which starts with `/` or its scheme);
//! - no control or escape character from any field reaches the terminal.
//!
//! The other halves of the suite: `tests/hostile.rs` (every escape payload in every field of a
//! state, through every view, and invisible characters), `tests/api/hostile_server.rs` (the demo
//! server's uploads, credentials before bodies, request heads' deadline, names without controls),
//! `tests/scripting.rs::a_look_alike_name_never_takes_someone_elses_direct_messages` and
//! `tests/tui/search_complete.rs::a_name_two_people_share_picks_no_one_and_is_shown_with_the_email`
//! (naming people), `tests/robustness.rs` (a message that cannot be decoded costs only
//! itself), `tests/e2e_notify.rs` (the exact argument lists of `notify-send`, the opener and the
//! editor, from the real binary with logging fakes first in `PATH`).

#[path = "support/forbidden.rs"]
mod forbidden;
use forbidden::forbidden;
#[path = "support/capture.rs"]
mod capture;
#[path = "support/app.rs"]
mod harness;

use harness::{App, Setup};
use reqwest::Method;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use topicterm::api::{Client, OutgoingMessage, Params};
use topicterm::app::keys::KeyCode;
use topicterm::app::{self, Narrow};

/// A stand-in browser for the whole binary of tests: it appends its arguments, each followed by
/// `|`, as one line to a log. Every test sets the same one, first.
fn browser() -> &'static Path {
    static LOG: OnceLock<PathBuf> = OnceLock::new();
    LOG.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let log = dir.join("opened");
        let script = dir.join("browser.sh");
        std::fs::write(
            &script,
            format!("#!/bin/sh\nprintf '%s|' \"$@\" >> {l}\necho >> {l}\n", l = log.display()),
        )
        .unwrap();
        std::process::Command::new("chmod").arg("+x").arg(&script).status().unwrap();
        // SAFETY: set once, before any test of this binary starts a runtime (each waits here).
        unsafe { std::env::set_var("BROWSER", &script) };
        log
    })
}

/// Lines the stand-in browser logged that contain `needle`.
fn opened_with(needle: &str) -> Vec<String> {
    std::fs::read_to_string(browser())
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(needle))
        .map(str::to_owned)
        .collect()
}

/// The member's app, downloading into a private folder of the test's own.
async fn member_app(downloads: &Path) -> App {
    browser();
    Setup::new("member").downloads(downloads.to_path_buf()).start().await
}

/// Alice posts `text` to #general > `topic`; the member's app opens that topic and selects it.
async fn posted_and_selected(app: &mut App, topic: &str, text: &str) -> i64 {
    let general = app.channel_id("general");
    let alice = app.other("alice");
    let id = alice.send_message(&OutgoingMessage::channel(general, topic, text)).await.unwrap().id;
    app.settle().await;
    app.open(Narrow::Topic(general, topic.into())).await;
    app.select(id);
    id
}

/// `o`, then link `n`, then wait for `done` to hold.
async fn open_link(app: &mut App, n: usize, what: &str, done: impl Fn(&app::State) -> bool) {
    app.key(KeyCode::Char('o')).await;
    if app.st.ui.prompt.is_some() {
        app.keys(&n.to_string()).await;
        app.key(KeyCode::Enter).await;
    }
    app.until(what, done).await;
}

fn status(app: &App) -> String {
    app.st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default()
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn an_upload_link_that_climbs_into_the_api_is_a_web_page_never_fetched_with_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let downloads = dir.path().join("downloads");
    let mut app = member_app(&downloads).await;
    let site = app.client.site().trim_end_matches('/').to_owned();
    // The report's attack, and its shorter cousin for the user's own record.
    let text = "[quarterly report](/user_uploads/../../api/v1/messages?anchor=newest&num_before=30&num_after=0&apply_markdown=false&narrow=%5B%5D&f=climb-report.html) \
        and [me](/user_uploads/2/%2e%2e/%2e%2e/%2e%2e/api/v1/users/me?f=climb-me)";
    posted_and_selected(&mut app, "climb", text).await;

    open_link(&mut app, 1, "the browser to be asked", |_| !opened_with("climb-report").is_empty()).await;
    assert_eq!(
        opened_with("climb-report"),
        vec![format!(
            "{site}/api/v1/messages?anchor=newest&num_before=30&num_after=0&apply_markdown=false&narrow=%5B%5D&f=climb-report.html|"
        )],
        "one argument: the address as the server resolves it, with no key in it"
    );
    open_link(&mut app, 2, "the browser to be asked", |_| !opened_with("climb-me").is_empty()).await;
    assert_eq!(opened_with("climb-me"), vec![format!("{site}/api/v1/users/me?f=climb-me|")]);

    // Neither was fetched by the client (with its key or at all), and nothing was saved.
    let asked = app.server.recent_requests();
    assert!(!asked.iter().any(|r| r.contains("climb-")), "{asked:#?}");
    assert!(!downloads.exists() || std::fs::read_dir(&downloads).unwrap().next().is_none());
    assert!(!status(&app).contains("saved"), "{}", status(&app));
}

/// The text of the rows the selected message takes on a screen of this size.
fn shown(app: &mut App, id: i64) -> String {
    app.draw(100, 30);
    app.draw(100, 30).rows_of(id).join("\n")
}

#[tokio::test]
async fn link_numbers_count_only_the_links_on_screen_and_a_closed_spoiler_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = member_app(&dir.path().join("downloads")).await;
    // The report's message: a hidden link before two shown ones.
    let text = "```spoiler Careful\n[a](http://evil.example/hidden)\n```\n\
        [docs](https://docs.example/spoiled-docs) and [wiki](https://wiki.example/spoiled-wiki)";
    let id = posted_and_selected(&mut app, "spoiled", text).await;
    let screen = shown(&mut app, id);
    assert!(screen.contains("docs[1]") && screen.contains("wiki[2]") && !screen.contains("evil"), "{screen}");
    app.key(KeyCode::Char('o')).await;
    assert!(app.st.ui.prompt.is_some());
    assert_eq!(status(&app), "which link? 1–2", "the range counts the links on screen");
    app.keys("1").await;
    app.key(KeyCode::Enter).await;
    app.until("the browser to be asked", |_| !opened_with("spoiled-docs").is_empty()).await;
    assert_eq!(opened_with("spoiled-docs"), vec!["https://docs.example/spoiled-docs|".to_owned()]);
    open_link(&mut app, 3, "the refusal", |st| st.ui.status.as_ref().is_some_and(|s| s.error)).await;
    assert_eq!(status(&app), "no link 3: the message has 2");

    // Open, the spoiler's link is first on screen and first for `o`.
    app.key(KeyCode::Char('z')).await;
    let screen = shown(&mut app, id);
    assert!(screen.contains("a[1]") && screen.contains("docs[2]") && screen.contains("wiki[3]"), "{screen}");
    app.key(KeyCode::Char('o')).await;
    assert_eq!(status(&app), "which link? 1–3");
    app.keys("1").await;
    app.key(KeyCode::Enter).await;
    app.until("the browser to be asked", |_| !opened_with("evil.example/hidden").is_empty()).await;
    assert_eq!(opened_with("evil.example/hidden"), vec!["http://evil.example/hidden|".to_owned()]);
    assert!(opened_with("spoiled-wiki").is_empty());
}

#[tokio::test]
async fn a_message_whose_only_links_are_in_a_closed_spoiler_opens_none() {
    let dir = tempfile::tempdir().unwrap();
    let downloads = dir.path().join("downloads");
    let mut app = member_app(&downloads).await;
    let alice = app.other("alice");
    let body = "[Desktop Entry]\nType=Application\nExec=sh -c 'touch /tmp/pwned'\n";
    let up =
        alice.upload_file("only-hidden.desktop", body.len() as u64, body.to_owned().into()).await.unwrap();
    let text =
        format!("```spoiler Nothing to see\n[launch]({}) [web](https://hidden-only.example/x)\n```", up.url);
    posted_and_selected(&mut app, "only hidden", &text).await;
    app.key(KeyCode::Char('o')).await;
    app.settle().await;
    let said = app.st.ui.status.clone().expect("a status");
    assert!(said.error, "{said:?}");
    assert_eq!(
        said.text,
        "this message has no links shown (those in its closed spoiler count once it is open)"
    );
    assert!(app.st.ui.prompt.is_none(), "nothing to ask");
    assert!(opened_with("hidden-only").is_empty() && opened_with("only-hidden").is_empty(), "nothing opened");
    assert!(!downloads.exists() || std::fs::read_dir(&downloads).unwrap().next().is_none(), "nothing saved");
    assert!(!app.server.recent_requests().iter().any(|r| r.contains("only-hidden")), "nothing fetched");

    // A muted sender's message, shown as one line: none of its links either, until `z`.
    let muted = posted_and_selected(&mut app, "muted", "[m](https://muted-sender.example/m)").await;
    let alice_id = app.st.data.messages[&muted].sender_id();
    app.client.mute_user(alice_id).await.unwrap();
    app.until("the mute", |st| st.data.users.is_muted(alice_id)).await;
    app.select(muted);
    app.key(KeyCode::Char('o')).await;
    assert_eq!(status(&app), "this message has no links (its sender is muted)");
    app.key(KeyCode::Char('z')).await;
    open_link(&mut app, 1, "the browser to be asked", |_| !opened_with("muted-sender").is_empty()).await;
}

/// A PNG of one pixel, made by the `image` crate.
fn real_png() -> Vec<u8> {
    let img = image::RgbImage::from_pixel(1, 1, image::Rgb([200, 30, 30]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

const PAGE: &str = "<!DOCTYPE html><html><script>fetch('file:///etc/passwd')</script></html>\n";

#[tokio::test]
async fn an_attachment_that_can_run_code_is_saved_privately_and_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let downloads = dir.path().join("downloads");
    let mut app = member_app(&downloads).await;
    let alice = app.other("alice");
    let body = "[Desktop Entry]\nType=Application\nExec=sh -c 'touch /tmp/pwned'\n";
    let up = alice.upload_file("launch-x1.desktop", body.len() as u64, body.to_owned().into()).await.unwrap();
    posted_and_selected(&mut app, "launcher", &format!("[launch-x1.desktop]({})", up.url)).await;

    open_link(&mut app, 1, "the file to be saved", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text.contains("not opened"))
    })
    .await;
    let saved = downloads.join("launch-x1.desktop");
    assert_eq!(
        status(&app),
        format!(
            "saved {} — not opened: only pictures, PDFs, plain text, audio and video are opened",
            saved.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), body);
    assert!(opened_with("launch-x1").is_empty(), "not handed to any program");
    #[cfg(unix)]
    {
        assert_eq!(mode(&downloads), 0o700, "the downloads folder is the user's alone");
        assert_eq!(mode(&saved), 0o600);
    }

    // Again: a fresh name, the first file untouched.
    open_link(&mut app, 1, "the second copy", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text.contains("launch-x1 (2).desktop"))
    })
    .await;
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), body);

    // What a deny-list let through: a trailing dot (no extension), types it did not name, HTML
    // under an unknown extension, and HTML under a picture's name. Only an allow-list of inert
    // types is opened, and only when the contents are of that type.
    let not_inert = "only pictures, PDFs, plain text, audio and video are opened";
    let cases: [(&str, &[u8], &str); 6] = [
        ("report.html.", PAGE.as_bytes(), not_inert),
        ("page.xht", PAGE.as_bytes(), not_inert),
        ("run.jnlp", b"<?xml version=\"1.0\"?><jnlp><application-desc main-class=\"X\"/></jnlp>", not_inert),
        ("doc.ps", b"%!PS-Adobe-3.0\n(/etc/passwd) (r) file\n", not_inert),
        ("sniff.dat", PAGE.as_bytes(), not_inert),
        ("fake.png", PAGE.as_bytes(), "its contents are not those of a .png file"),
    ];
    let mut text = String::new();
    for (name, bytes, _) in &cases {
        let up = alice.upload_file(name, bytes.len() as u64, bytes.to_vec().into()).await.unwrap();
        text.push_str(&format!("[{name}]({}) ", up.url));
    }
    posted_and_selected(&mut app, "not inert", &text).await;
    for (n, (name, bytes, why)) in cases.iter().enumerate() {
        let saved = downloads.join(name);
        open_link(&mut app, n + 1, name, |st| {
            st.ui.status.as_ref().is_some_and(|s| s.text.contains(&saved.display().to_string()))
        })
        .await;
        assert!(opened_with(&saved.display().to_string()).is_empty(), "{name} was handed to a program");
        assert_eq!(status(&app), format!("saved {} — not opened: {why}", saved.display()), "{name}");
        assert_eq!(&std::fs::read(&saved).unwrap(), bytes, "{name}");
    }

    // A real picture and a PDF are opened: the path, one argument.
    let pdf = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n".to_vec();
    let mut text = String::new();
    for (name, bytes) in [("dot.png", real_png()), ("paper.pdf", pdf)] {
        let up = alice.upload_file(name, bytes.len() as u64, bytes.into()).await.unwrap();
        text.push_str(&format!("[{name}]({}) ", up.url));
    }
    posted_and_selected(&mut app, "inert", &text).await;
    for (n, name) in ["dot.png", "paper.pdf"].into_iter().enumerate() {
        let saved = downloads.join(name).display().to_string();
        open_link(&mut app, n + 1, name, |_| !opened_with(&saved).is_empty()).await;
        assert_eq!(opened_with(&saved), vec![format!("{saved}|")]);
        assert_eq!(status(&app), format!("saved and opened {saved}"));
    }
}

#[cfg(unix)]
#[tokio::test]
async fn a_download_never_writes_through_a_symlink_or_over_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let downloads = dir.path().join("downloads");
    let mut app = member_app(&downloads).await;
    // Someone left a symlink where the download would go, pointing at a file of the user's.
    std::fs::create_dir_all(&downloads).unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "the user's own file").unwrap();
    std::os::unix::fs::symlink(&victim, downloads.join("sym-notes.txt")).unwrap();
    let alice = app.other("alice");
    let body = "meeting notes";
    let up = alice.upload_file("sym-notes.txt", body.len() as u64, body.to_owned().into()).await.unwrap();
    posted_and_selected(&mut app, "notes", &format!("[sym-notes.txt]({})", up.url)).await;

    open_link(&mut app, 1, "the browser to be asked", |_| !opened_with("sym-notes").is_empty()).await;
    let fresh = downloads.join("sym-notes (2).txt");
    assert_eq!(opened_with("sym-notes"), vec![format!("{}|", fresh.display())], "one argument, a path");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's own file");
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), body);
    assert_eq!(mode(&fresh), 0o600);
    assert!(status(&app).starts_with("saved and opened"), "{}", status(&app));
}

// -------------------------------------------------------------------------------------------
// Another origin: a listener that records every request and whether it carried credentials.
// -------------------------------------------------------------------------------------------

#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<(String, bool)>>>);

impl Seen {
    fn all(&self) -> Vec<(String, bool)> {
        self.0.lock().unwrap().clone()
    }
}

/// Serve `router` on a free loopback port: its `http://ADDR`.
async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    url
}

/// A server elsewhere that answers every path with a small PNG and records what it was asked.
async fn elsewhere() -> (String, Seen) {
    let seen = Seen::default();
    let record = seen.clone();
    let router = axum::Router::new().fallback(move |req: axum::extract::Request| {
        let record = record.clone();
        async move {
            let auth = req.headers().contains_key(axum::http::header::AUTHORIZATION);
            record.0.lock().unwrap().push((req.uri().to_string(), auth));
            "elsewhere"
        }
    });
    (serve(router).await, seen)
}

#[tokio::test]
async fn links_and_pictures_elsewhere_never_get_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = member_app(&dir.path().join("downloads")).await;
    let (other, seen) = elsewhere().await;
    // A picture and a look-alike upload path on another origin.
    let text = format!(
        "![cat]({other}/user_uploads/2/ab/cat.png) [file]({other}/user_uploads/2/ab/elsewhere-x.txt)"
    );
    posted_and_selected(&mut app, "elsewhere", &text).await;
    for (w, h) in [(80, 24), (160, 48)] {
        app.draw(w, h);
        app.settle().await;
    }
    open_link(&mut app, 2, "the browser to be asked", |_| !opened_with("elsewhere-x").is_empty()).await;
    assert_eq!(opened_with("elsewhere-x"), vec![format!("{other}/user_uploads/2/ab/elsewhere-x.txt|")]);
    assert!(seen.all().iter().all(|(_, auth)| !auth), "credentials went elsewhere: {:?}", seen.all());
    assert!(seen.all().is_empty(), "pictures elsewhere are not fetched: {:?}", seen.all());
}

#[tokio::test]
async fn a_redirect_from_an_upload_to_another_origin_drops_the_key() {
    let (other, seen) = elsewhere().await;
    // The user's own server redirects an upload elsewhere (as Zulip does to S3).
    let own_seen = Seen::default();
    let record = own_seen.clone();
    let to = format!("{other}/bucket/x.txt");
    let router = axum::Router::new().fallback(move |req: axum::extract::Request| {
        let (record, to) = (record.clone(), to.clone());
        async move {
            let auth = req.headers().contains_key(axum::http::header::AUTHORIZATION);
            record.0.lock().unwrap().push((req.uri().to_string(), auth));
            axum::response::Redirect::temporary(&to)
        }
    });
    let site = serve(router).await;
    let creds = topicterm::api::Credentials {
        site: site.clone(),
        email: "member@example.com".into(),
        api_key: "KEY".into(),
        tls: Default::default(),
    };
    let client = Client::new(&creds).unwrap();
    let body = client.download("/user_uploads/2/ab/x.txt").await.unwrap();
    assert_eq!(body, b"elsewhere");
    assert_eq!(
        own_seen.all(),
        vec![("/user_uploads/2/ab/x.txt".to_owned(), true)],
        "the own server gets the key"
    );
    assert_eq!(seen.all(), vec![("/bucket/x.txt".to_owned(), false)], "the other origin does not");
    // A link that only looks like an upload gets no key on the own server either.
    let _ = client.download(&format!("{site}/user_uploads/../api/v1/users/me")).await;
    let last = own_seen.all().last().cloned().unwrap();
    assert_eq!(last, ("/api/v1/users/me".to_owned(), false), "{:?}", own_seen.all());
}

// -------------------------------------------------------------------------------------------
// Escape and control characters, set through the server in every field a member or admin can
// set, drawn by the real views on a terminal backend writing into memory.
// -------------------------------------------------------------------------------------------

const EVIL: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}rev\u{2066}\u{8}\u{7f}\r";

fn bytes_written(app: &App, width: u16, height: u16) -> Vec<u8> {
    let out = capture::Shared::default();
    let backend = ratatui::backend::CrosstermBackend::new(out.clone());
    let viewport = ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, width, height));
    let mut terminal =
        ratatui::Terminal::with_options(backend, ratatui::TerminalOptions { viewport }).unwrap();
    let mut cache = topicterm::ui::RenderCache::default();
    terminal.draw(|f| topicterm::ui::draw(f, &app.st, &mut cache)).unwrap();
    drop(terminal);
    out.0.lock().unwrap().clone()
}

#[tokio::test]
async fn escape_sequences_set_through_the_server_in_any_field_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = member_app(&dir.path().join("downloads")).await;
    let admin = app.other("admin");
    let alice = app.other("alice");
    let users = alice.get_users().await.unwrap();
    let alice_id = users.members.iter().find(|u| u.full_name == "Alice Okafor").unwrap().user_id;
    let general = app.channel_id("general");
    let set = |c: &Client, m: Method, path: String, p: Params| {
        let c = c.clone();
        async move { c.raw(m, &path, p, std::time::Duration::from_secs(10)).await }
    };
    // An admin's fields: the organization's name, a member's name, a channel's description.
    // Names with control characters are refused, as Zulip refuses them ("Invalid characters
    // in name!"); what is taken must still never reach the terminal.
    let renamed = set(
        &admin,
        Method::PATCH,
        format!("/users/{alice_id}"),
        Params::new().add("full_name", format!("Alice{EVIL}")),
    )
    .await;
    assert!(renamed.is_err(), "a name with control characters is refused");
    for (c, m, path, key, value) in [
        (&admin, Method::PATCH, "/realm".to_owned(), "name", format!("Org{EVIL}")),
        (&admin, Method::PATCH, format!("/streams/{general}"), "description", format!("d{EVIL}")),
        // A member's: their status.
        (&alice, Method::POST, "/users/me/status".to_owned(), "status_text", format!("away{EVIL}")),
    ] {
        set(c, m, path.clone(), Params::new().add(key, value))
            .await
            .unwrap_or_else(|e| panic!("{path} {key}: {e}"));
    }
    // Topics refuse control characters too (Zulip: "Invalid character in topic"), not format
    // characters such as bidi overrides.
    let refused = alice.send_message(&OutgoingMessage::channel(general, &format!("t{EVIL}"), "x")).await;
    assert!(refused.is_err(), "a topic with control characters is refused");
    let topic = "topic\u{202e}rev\u{2066}iso\u{200f}".to_owned();
    let text = format!("text{EVIL} `code{EVIL}` **bold{EVIL}** [link{EVIL}](https://example.org/{EVIL})");
    let id = alice.send_message(&OutgoingMessage::channel(general, &topic, &text)).await.unwrap().id;
    app.until("the message to arrive", |st| st.data.messages.contains_key(&id)).await;
    app.open(Narrow::Channel(general)).await;
    app.select(id);
    app.settle().await;

    let mut screens = Vec::new();
    for (w, h) in [(80, 24), (160, 48), (40, 12)] {
        app.st.ui.popup = None;
        app.st.ui.people.show(true);
        app::rebuild_people(&mut app.st);
        screens.push(bytes_written(&app, w, h));
        app.st.ui.popup = Some(app::Popup::MessageInfo { message_id: id, scroll: 0 });
        screens.push(bytes_written(&app, w, h));
    }
    app.st.ui.popup = None;
    for out in &screens {
        for (what, needle) in forbidden() {
            assert!(
                !out.windows(needle.len()).any(|win| win == needle.as_slice()),
                "{what} reached the terminal"
            );
        }
    }
    let wide = String::from_utf8_lossy(&screens[2]).into_owned();
    assert!(wide.contains("pwned") && wide.contains("Alice"), "the text around the escapes is still shown");
}

#[tokio::test]
async fn a_link_of_another_scheme_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = member_app(&dir.path().join("downloads")).await;
    // What a hostile server could send: the reference server strips such links, so the
    // message's HTML is set here as it would arrive.
    let id = posted_and_selected(&mut app, "schemes", "see the file").await;
    app.st.data.messages.get_mut(&id).unwrap().set_content(
        "<p><a href=\"file:///etc/passwd\">passwords</a> <a href=\"javascript:alert(1)\">js</a></p>",
        0,
    );
    for (n, scheme) in [(1, "file"), (2, "javascript")] {
        app.key(KeyCode::Char('o')).await;
        app.keys(&n.to_string()).await;
        app.key(KeyCode::Enter).await;
        let status = app.st.ui.status.clone().expect("a status");
        assert!(status.error, "{status:?}");
        assert_eq!(status.text, format!("link [{n}] not opened: {scheme}: links are not opened"));
    }
    assert!(opened_with("passwd").is_empty() && opened_with("alert").is_empty(), "no program was started");
}
