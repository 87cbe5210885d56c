//! Notifications from the real binary, in tmux against an in-process demo server: over D-Bus to
//! a notification service (a small one of the test's own on a private session bus, where
//! `dbus-daemon` is installed) which shows the organization as the title and whose click opens
//! the conversation; the terminal bell, with the reason in the log, where no service answers;
//! and the user's own command (`[notifications] command`) where one is configured.

#[path = "support/tmux.rs"]
mod tmux;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tmux::Tmux;
use topicterm::api::{Client, OutgoingMessage};
use topicterm::server::{DemoServer, ServerOptions};

/// The demo organization's name: every notification's title.
const ORG: &str = "Topicterm Demo";

/// A home of the binary's own, with logging fakes of `names` first in `PATH` (each exits with
/// `exit`).
fn home_with(names: &[&str], exit: i32) -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let bin_dir = home.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    for name in names {
        fake_program(&bin_dir, name, &home.path().join(name), exit);
    }
    (home, bin_dir)
}

/// Start the binary as `member` in session `name`, with `env` (`env`'s options, then
/// assignments) before it and `config` as its config file.
fn launch(server: &DemoServer, name: &str, home: &Path, env: &str, config: &str) -> Tmux {
    let rc = home.join("member.zuliprc");
    topicterm::api::zuliprc::write(&rc, &server.credentials("member").unwrap()).unwrap();
    std::fs::create_dir_all(home.join("config/topicterm")).unwrap();
    std::fs::write(home.join("config/topicterm/config.toml"), config).unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new(name);
    t.start(&format!(
        "env {env} PATH={h}/bin:$PATH HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state \
         XDG_CONFIG_HOME={h}/config XDG_CACHE_HOME={h}/cache {bin} -c {rc}",
        h = home.display(),
        rc = rc.display()
    ));
    t.cmd(&["set-option", "-g", "bell-action", "any"]);
    t.cmd(&["set-option", "-g", "monitor-bell", "on"]);
    // From a loaded feed, as a user starts; then another view, so the conversation of the
    // message to come is not the one on screen.
    t.wait_for_messages();
    look_elsewhere(&t);
    // A second window, so that tmux flags a bell in the first.
    t.cmd(&["new-window", "-d", "-t", name]);
    t
}

/// Press `h` `f` (starred messages, from the channels pane: in the messages pane `f` is link
/// hints) and wait for its title on the bottom row.
fn look_elsewhere(t: &Tmux) {
    t.keys(&["h", "f"]);
    t.wait_for("the starred messages", |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()).is_some_and(|l| l.contains("Starred"))
    });
}

fn dm_to_member(rt: &tokio::runtime::Runtime, server: &DemoServer, text: &str) {
    let alice = Client::new(&server.credentials("alice").unwrap()).unwrap();
    let member = server.credentials("member").unwrap().email;
    rt.block_on(async {
        let users = alice.get_users().await.unwrap();
        let id = users.members.iter().find(|u| u.email == member).unwrap().user_id;
        alice.send_message(&OutgoingMessage::direct(vec![id], text)).await.unwrap();
    });
}

/// Wait until tmux flags a bell in the session's first window.
fn wait_for_bell(t: &Tmux, name: &str) {
    let start = Instant::now();
    loop {
        let out = t.cmd(&["display-message", "-p", "-t", &format!("{name}:0"), "#{window_bell_flag}"]);
        if String::from_utf8_lossy(&out.stdout).trim() == "1" {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the bell did not ring");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Wait until `file` holds a line that satisfies `pred`, and return the file.
fn wait_for_line(file: &Path, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if text.lines().any(&pred) {
            return text;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no {what} in {}: {text:?}", file.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

#[test]
fn without_a_notification_service_the_bell_rings_and_the_log_says_why_once() {
    let rt = runtime();
    let server = rt.block_on(DemoServer::start(ServerOptions::default())).unwrap();
    // A session bus address where nothing listens; notify-send on PATH, never to be run.
    let (home, _) = home_with(&["notify-send"], 0);
    let bus = format!("unix:path={}/no-bus", home.path().display());
    let env = format!("DBUS_SESSION_BUS_ADDRESS={bus} TOPICTERM_LOG=topicterm=debug");
    let t = launch(&server, "nobus", home.path(), &env, "");
    dm_to_member(&rt, &server, "anyone there?");
    wait_for_bell(&t, "nobus");
    let log = home.path().join("state/topicterm/topicterm.log");
    wait_for_line(&log, "reason", |l| {
        l.contains("no desktop notification:") && l.contains("the terminal bell rings instead")
    });
    // A second one rings again; the reason is not told twice.
    dm_to_member(&rt, &server, "hello?");
    let text = wait_for_line(&log, "second failure", |l| l.contains("the bell rang"));
    assert_eq!(text.matches("rings instead").count(), 1, "{text}");
    assert!(!home.path().join("notify-send").exists(), "notify-send is not the built-in notifier");
    t.keys(&["q"]);
}

#[test]
fn a_configured_command_is_run_with_the_organization_and_the_message_and_rings_when_it_fails() {
    let rt = runtime();
    let server = rt.block_on(DemoServer::start(ServerOptions::default())).unwrap();
    let config = "[notifications]\ncommand = \"notify-send --app-name=topicterm\"\n";

    let (home, _) = home_with(&["notify-send"], 0);
    let t = launch(&server, "command", home.path(), "", config);
    dm_to_member(&rt, &server, "lunch at noon?");
    assert_eq!(
        logged(&home.path().join("notify-send")),
        vec![format!("--app-name=topicterm|--|{ORG}|Alice Okafor (direct message): lunch at noon?|")]
    );
    t.keys(&["q"]);

    // It fails (no notification service for it): the terminal bell rings instead.
    let (home, _) = home_with(&["notify-send"], 1);
    let t = launch(&server, "failing", home.path(), "", config);
    dm_to_member(&rt, &server, "still there?");
    wait_for_bell(&t, "failing");
    t.keys(&["q"]);
}

/// What a notification service is given: app name, summary, body and actions.
type Shown = (String, String, String, Vec<String>);

/// A freedesktop notification service of the test's own, on a private session bus: it records
/// each notification (its id is its index + 1).
#[derive(Clone, Default)]
struct Service {
    shown: Arc<Mutex<Vec<Shown>>>,
    /// Says it reads the body as markup (`body-markup`), as most desktops' services do.
    markup: bool,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Service {
    #[allow(clippy::too_many_arguments)]
    fn notify(
        &self,
        app_name: String,
        _replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        actions: Vec<String>,
        _hints: std::collections::HashMap<String, zbus::zvariant::OwnedValue>,
        _expire_timeout: i32,
    ) -> u32 {
        let mut shown = self.shown.lock().unwrap();
        shown.push((app_name, summary, body, actions));
        shown.len() as u32
    }

    fn get_capabilities(&self) -> Vec<String> {
        let mut caps = vec!["body".into(), "actions".into()];
        if self.markup {
            caps.push("body-markup".into());
        }
        caps
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        ("test".into(), "topicterm".into(), "1".into(), "1.2".into())
    }
}

/// A session bus of its own (`dbus-daemon`), stopped when dropped.
struct Bus(std::process::Child, String);

impl Bus {
    fn start(dir: &Path) -> Option<Bus> {
        use std::io::BufRead as _;
        let mut child = std::process::Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .arg(format!("--address=unix:path={}/bus", dir.display()))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take()?).read_line(&mut line).ok()?;
        Some(Bus(child, line.trim().to_owned()))
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `service` on a bus of its own.
fn serve(rt: &tokio::runtime::Runtime, bus: &Bus, service: &Service) -> zbus::Connection {
    rt.block_on(async {
        zbus::connection::Builder::address(bus.1.as_str())?
            .serve_at("/org/freedesktop/Notifications", service.clone())?
            .name("org.freedesktop.Notifications")?
            .build()
            .await
    })
    .expect("the notification service is on the bus")
}

/// What the service was shown, once it was shown something.
fn shown(service: &Service) -> Vec<Shown> {
    let start = Instant::now();
    while service.shown.lock().unwrap().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "no notification reached the service");
        std::thread::sleep(Duration::from_millis(50));
    }
    service.shown.lock().unwrap().clone()
}

/// A demo server and a notification service on a session bus of the test's own, and the
/// client's home (which has a `notify-send` that must not run).
struct Desk {
    conn: zbus::Connection,
    service: Service,
    server: DemoServer,
    rt: tokio::runtime::Runtime,
    bus: Bus,
    home: tempfile::TempDir,
}

impl Desk {
    /// `None` (said) where no `dbus-daemon` can run a bus.
    fn start(service: Service) -> Option<Desk> {
        let (home, _) = home_with(&["notify-send"], 0);
        let Some(bus) = Bus::start(home.path()) else {
            eprintln!("SKIPPED: no dbus-daemon to run a session bus (apt-get install dbus; .ci/run does)");
            return None;
        };
        let rt = runtime();
        let server = rt.block_on(DemoServer::start(ServerOptions::default())).unwrap();
        let conn = serve(&rt, &bus, &service);
        Some(Desk { conn, service, server, rt, bus, home })
    }

    /// The client, its notifications going to this desk's bus.
    fn launch(&self, name: &str) -> Tmux {
        launch(&self.server, name, self.home.path(), &format!("DBUS_SESSION_BUS_ADDRESS={}", self.bus.1), "")
    }
}

#[test]
fn over_d_bus_the_organization_is_the_title_and_a_click_opens_the_conversation() {
    let Some(desk) = Desk::start(Service::default()) else { return };
    let Desk { conn, service, server, rt, home, .. } = &desk;
    let t = desk.launch("dbus");
    dm_to_member(rt, server, "lunch at noon?");
    let shown = shown(service);
    assert_eq!(
        shown,
        vec![(
            "topicterm".to_owned(),
            ORG.to_owned(),
            "Alice Okafor (direct message): lunch at noon?".to_owned(),
            vec!["default".to_owned(), "Open".to_owned()]
        )]
    );
    assert!(!home.path().join("notify-send").exists(), "notify-send was not run");

    // The user clicks it: the service invokes its default action. Told again until the client
    // shows the conversation (it listens for the click once the notification is shown).
    let start = Instant::now();
    loop {
        rt.block_on(conn.emit_signal(
            None::<zbus::names::BusName<'_>>,
            "/org/freedesktop/Notifications",
            "org.freedesktop.Notifications",
            "ActionInvoked",
            &(1u32, "default"),
        ))
        .unwrap();
        let s = t.screen();
        // The conversation with Alice, the message selected (`▌` beside it).
        if s.lines().any(|l| l.contains("│▌") && l.contains("lunch at noon?"))
            && s.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.contains("DM with Alice Okafor"))
        {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the click opened nothing; screen:\n{s}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // And the bell, to draw the eye to the terminal.
    wait_for_bell(&t, "dbus");
    t.keys(&["q"]);
}

/// A service that reads markup gets the message's text escaped: a `<b>` or an `<img src=…>`
/// typed in a message is shown as written, never read as markup (nor an image fetched).
#[test]
fn over_d_bus_text_that_looks_like_markup_is_shown_as_written() {
    let Some(desk) = Desk::start(Service { markup: true, ..Service::default() }) else { return };
    let t = desk.launch("markup");
    dm_to_member(&desk.rt, &desk.server, "`<b>5 < 6 & 7 > 6</b> <img src=\"https://example.com/t.png\">`");
    let shown = shown(&desk.service);
    assert_eq!(
        shown[0].2,
        "Alice Okafor (direct message): &lt;b&gt;5 &lt; 6 &amp; 7 &gt; 6&lt;/b&gt; &lt;img \
         src=&quot;https://example.com/t.png&quot;&gt;"
    );
    t.keys(&["q"]);
}

/// A logging stand-in for a program: appends its arguments, each followed by `|`, as one line
/// to `log`, and exits with `exit`.
fn fake_program(bin_dir: &Path, name: &str, log: &Path, exit: i32) {
    let fake = bin_dir.join(name);
    std::fs::write(
        &fake,
        format!("#!/bin/sh\nprintf '%s|' \"$@\" >> {l}\necho >> {l}\nexit {exit}\n", l = log.display()),
    )
    .unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
}

/// Wait for a program's log to hold a line, and return its lines.
fn logged(log: &Path) -> Vec<String> {
    // A whole line: the fake writes its arguments, then the newline (the file exists, empty or
    // half written, before that).
    let start = Instant::now();
    let mut text = String::new();
    while start.elapsed() < Duration::from_secs(20) {
        text = std::fs::read_to_string(log).unwrap_or_default();
        if text.ends_with('\n') {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    text.lines().map(str::to_owned).collect()
}

/// The hostile-content suite's subprocess half: server text reaches the notification command,
/// the link opener (`xdg-open`) and the editor only where it cannot be read as an option.
/// Logging fakes of all three come first in `PATH`, and each argument list is checked exactly.
#[test]
fn server_text_reaches_the_programs_the_client_starts_only_where_it_is_no_option() {
    let rt = runtime();
    let server = rt.block_on(DemoServer::start(ServerOptions::default())).unwrap();
    // An admin renames Alice to something notify-send would read as an option.
    let admin = Client::new(&server.credentials("admin").unwrap()).unwrap();
    let alice = Client::new(&server.credentials("alice").unwrap()).unwrap();
    let member_email = server.credentials("member").unwrap().email;
    let (alice_id, member_id) = rt.block_on(async {
        let users = alice.get_users().await.unwrap();
        let id =
            |f: &dyn Fn(&topicterm::api::User) -> bool| users.members.iter().find(|u| f(u)).unwrap().user_id;
        (id(&|u| u.full_name == "Alice Okafor"), id(&|u| u.email == member_email))
    });
    rt.block_on(admin.raw(
        reqwest::Method::PATCH,
        &format!("/users/{alice_id}"),
        topicterm::api::Params::new().add("full_name", "--icon=/tmp/x"),
        Duration::from_secs(10),
    ))
    .expect("renamed");

    let (home, _) = home_with(&["notify-send", "xdg-open", "fake-editor"], 0);
    let (notified, opened, edited) =
        (home.path().join("notify-send"), home.path().join("xdg-open"), home.path().join("fake-editor"));
    let t = launch(
        &server,
        "argv",
        home.path(),
        "-u BROWSER -u VISUAL EDITOR=fake-editor",
        "[notifications]\ncommand = \"notify-send --app-name=topicterm\"\n",
    );

    // 1. The notification: title and body after `--`.
    let text = "--urgency=critical --expire-time=1 body [quarterly report](/user_uploads/../../api/v1/messages?anchor=newest&f=report.html)";
    rt.block_on(alice.send_message(&OutgoingMessage::direct(vec![member_id], text))).unwrap();
    assert_eq!(
        logged(&notified),
        vec![format!(
            "--app-name=topicterm|--|{ORG}|--icon=/tmp/x (direct message): --urgency=critical --expire-time=1 body quarterly report|"
        )]
    );

    // 2. The link opener: one argument, the resolved address (a web page: never downloaded).
    t.keys(&["P"]);
    t.wait_for("the direct messages", |s| s.contains("DM with"));
    t.keys(&["G"]);
    // Selected (`▌` beside it) and the newest: nothing more below.
    t.wait_for("the direct message selected", |s| {
        s.lines().any(|l| l.contains("│▌") && l.contains("quarterly report"))
            && !s.contains("new messages below")
    });
    t.keys(&["o"]);
    assert_eq!(
        logged(&opened),
        vec![format!("{}/api/v1/messages?anchor=newest&f=report.html|", server.url.trim_end_matches('/'))]
    );
    assert!(!home.path().join("cache/topicterm/downloads/report.html").exists());

    // 3. The editor: one argument, the path of a private file of the client's own.
    t.keys(&["r"]);
    t.wait_for("the compose box", |s| s.contains("--icon=/tmp/x") && s.contains("ctrl+d"));
    t.text("draft to edit");
    t.keys(&["C-o"]);
    let args = logged(&edited);
    assert_eq!(args.len(), 1, "{args:?}");
    let path = args[0].strip_suffix('|').expect("one argument");
    assert!(!path.contains('|') && path.starts_with('/') && path.ends_with(".md"), "{path}");
    assert!(Path::new(path).file_name().unwrap().to_string_lossy().starts_with("topicterm-"));
    t.wait_for("the compose box back", |s| s.contains("draft to edit"));
    t.keys(&["Escape"]);
    t.keys(&["q"]);
}
