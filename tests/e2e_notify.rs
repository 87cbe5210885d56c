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
