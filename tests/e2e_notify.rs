//! Notifications from the real binary: a direct message from someone else reaches the desktop
//! through `notify-send` when a notification service answers, and rings the terminal bell when
//! none does. The binary runs in tmux against an in-process demo server.

#[path = "support/tmux.rs"]
mod tmux;

use std::time::{Duration, Instant};
use tmux::Tmux;
use topicterm::api::{Client, OutgoingMessage};
use topicterm::server::{DemoServer, ServerOptions};

/// Start the binary as `member` with `notify-send` answering with `exit`.
fn launch(server: &DemoServer, name: &str, exit: i32) -> (Tmux, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let bin_dir = home.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let log = home.path().join("notified");
    let fake = bin_dir.join("notify-send");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nprintf '%s|' \"$@\" >> {}\necho >> {}\nexit {exit}\n",
            log.display(),
            log.display()
        ),
    )
    .unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let rc = home.path().join("member.zuliprc");
    topicterm::api::zuliprc::write(&rc, &server.credentials("member").unwrap()).unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new(name);
    let command = format!(
        "PATH={b}:$PATH HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state XDG_CONFIG_HOME={h}/config {bin} -c {rc}",
        b = bin_dir.display(),
        h = home.path().display(),
        rc = rc.display()
    );
    t.start(&command);
    t.cmd(&["set-option", "-g", "bell-action", "any"]);
    t.cmd(&["set-option", "-g", "monitor-bell", "on"]);
    // From a loaded feed, as a user starts, before the key that looks elsewhere.
    t.wait_for_messages();
    (t, home)
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

#[test]
fn a_direct_message_notifies_on_the_desktop_or_rings_the_bell() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let server = rt.block_on(DemoServer::start(ServerOptions::default())).unwrap();

    // A notification service: notify-send succeeds.
    let (t, home) = launch(&server, "desktop", 0);
    // Look elsewhere, so the conversation is not the one on screen.
    t.keys(&["f"]);
    std::thread::sleep(Duration::from_millis(500));
    dm_to_member(&rt, &server, "lunch at noon?");
    let log = home.path().join("notified");
    let start = Instant::now();
    while !log.exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let sent = std::fs::read_to_string(&log).expect("notify-send was run");
    assert!(sent.contains("Alice Okafor (direct message)|lunch at noon?|"), "{sent:?}");
    t.keys(&["q"]);

    // None: notify-send fails, and the terminal bell rings instead.
    let (t, _home) = launch(&server, "bell", 1);
    t.keys(&["f"]);
    std::thread::sleep(Duration::from_millis(500));
    // A second window, so tmux flags the bell in the first.
    t.cmd(&["new-window", "-d", "-t", "bell"]);
    dm_to_member(&rt, &server, "still there?");
    let start = Instant::now();
    let flag = loop {
        let out = t.cmd(&["display-message", "-p", "-t", "bell:0", "#{window_bell_flag}"]);
        let f = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if f == "1" || start.elapsed() > Duration::from_secs(20) {
            break f;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(flag, "1", "the bell rang");
    t.keys(&["q"]);
}

/// A logging stand-in for a program: appends its arguments, each followed by `|`, as one line
/// to `log`, and exits 0.
fn fake_program(bin_dir: &std::path::Path, name: &str, log: &std::path::Path) {
    let fake = bin_dir.join(name);
    std::fs::write(&fake, format!("#!/bin/sh\nprintf '%s|' \"$@\" >> {l}\necho >> {l}\n", l = log.display()))
        .unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
}

/// Wait for a program's log to hold a line, and return its lines.
fn logged(log: &std::path::Path) -> Vec<String> {
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

/// The hostile-content suite's subprocess half: server text reaches `notify-send`, the link
/// opener (`xdg-open`) and the editor only where it cannot be read as an option. Logging fakes
/// of all three come first in `PATH`, and each argument list is checked exactly.
#[test]
fn server_text_reaches_the_programs_the_client_starts_only_where_it_is_no_option() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
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

    let home = tempfile::tempdir().unwrap();
    let bin_dir = home.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let (notified, opened, edited) =
        (home.path().join("notified"), home.path().join("opened"), home.path().join("edited"));
    fake_program(&bin_dir, "notify-send", &notified);
    fake_program(&bin_dir, "xdg-open", &opened);
    fake_program(&bin_dir, "fake-editor", &edited);
    let rc = home.path().join("member.zuliprc");
    topicterm::api::zuliprc::write(&rc, &server.credentials("member").unwrap()).unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new("argv");
    t.start(&format!(
        "env -u BROWSER -u VISUAL PATH={b}:$PATH EDITOR=fake-editor HOME={h} XDG_DATA_HOME={h}/data \
         XDG_STATE_HOME={h}/state XDG_CONFIG_HOME={h}/config XDG_CACHE_HOME={h}/cache {bin} -c {rc}",
        b = bin_dir.display(),
        h = home.path().display(),
        rc = rc.display()
    ));
    t.wait_for_messages();
    t.keys(&["f"]);
    std::thread::sleep(Duration::from_millis(500));

    // 1. The notification: title and body after `--`.
    let text = "--urgency=critical --expire-time=1 body [quarterly report](/user_uploads/../../api/v1/messages?anchor=newest&f=report.html)";
    rt.block_on(alice.send_message(&OutgoingMessage::direct(vec![member_id], text))).unwrap();
    assert_eq!(
        logged(&notified),
        vec![
            "--app-name=topicterm|--|--icon=/tmp/x (direct message)|--urgency=critical --expire-time=1 body quarterly report|"
        ]
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
    assert!(std::path::Path::new(path).file_name().unwrap().to_string_lossy().starts_with("topicterm-"));
    t.wait_for("the compose box back", |s| s.contains("draft to edit"));
    t.keys(&["Escape"]);
    t.keys(&["q"]);
}
