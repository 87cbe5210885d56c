//! End to end: the real binary with `--demo` in tmux, driven with send-keys, read with
//! capture-pane. Uses its own tmux socket so it never touches a user's sessions.

use std::process::Command;
use std::time::{Duration, Instant};

#[path = "support/tmux.rs"]
mod tmux;
use tmux::Tmux;
#[path = "support/drafts.rs"]
mod drafts;
use drafts::wait_for_draft;

/// Whether a screen row is the status bar's title of the organization `name` ("acme · …", or
/// "acme as Maya Lindqvist · …" where it says who you are there).
fn titled(line: &str, name: &str) -> bool {
    line.strip_prefix(name).is_some_and(|rest| rest.starts_with(" · ") || rest.starts_with(" as "))
}

#[test]
fn demo_session_reads_searches_replies_and_quits_cleanly() {
    let t = Tmux::new("e2e");
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    // The shell records the exit code: tmux's own pane_dead_status is sometimes left empty.
    let status_file = home.path().join("exit-status");
    let command = format!(
        "HOME={h} XDG_STATE_HOME={h}/state {bin} --demo; echo $? > {f}",
        h = home.path().display(),
        f = status_file.display()
    );
    t.start(&command);

    let s = t.wait_for_messages();
    assert!(s.contains("Direct messages"));
    // The binary asked the terminal for mouse reports.
    let flag = t.cmd(&["display-message", "-p", "-t", "e2e", "#{mouse_any_flag}#{mouse_button_flag}"]);
    assert!(String::from_utf8_lossy(&flag.stdout).contains('1'), "mouse reporting is on");

    // Search with the web syntax.
    t.keys(&["/"]);
    t.text("channel:engineering flaky");
    t.keys(&["Enter"]);
    t.wait_for("search results", |s| s.contains("Search: channel:engineering flaky") && s.contains("arm64"));

    // Back to all messages, reply, and see the message come back from the server.
    t.keys(&["a", "r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    t.text("hello from the e2e test");
    t.keys(&["C-d"]);
    t.wait_for("the sent message", |s| {
        s.contains("sent") && s.matches("hello from the e2e test").count() == 1
    });

    // Help, then quit: the terminal is restored (the alternate screen is gone).
    t.keys(&["?"]);
    t.wait_for("the help popup", |s| s.contains("Keys (esc to close)"));
    // Apart: an escape with a key right behind it reads as alt+key (it did under load).
    t.keys(&["Escape"]);
    t.wait_for("the help popup closed", |s| !s.contains("Keys (esc to close)"));
    t.keys(&["q"]);
    t.wait_for("a clean exit", |s| !s.contains("All messages") && !s.contains("#engineering"));
    let start = Instant::now();
    let status = loop {
        // The shell creates the file before `echo` writes to it: wait for the whole line.
        if let Ok(s) = std::fs::read_to_string(&status_file)
            && s.ends_with('\n')
        {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the process did not exit");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status.trim(), "0", "exit status");
}

#[test]
fn a_draft_survives_kill_9() {
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new("k9");
    let command = format!(
        "HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state {bin} --demo",
        h = home.path().display()
    );
    t.start(&command);
    t.wait_for_messages();
    t.keys(&["r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    t.text("do not lose me");
    // Within a second of typing the draft is on disk.
    wait_for_draft(home.path(), "the draft on disk", |d| d == "do not lose me");
    let pid = String::from_utf8_lossy(&t.cmd(&["display-message", "-p", "-t", "k9", "#{pane_pid}"]).stdout)
        .trim()
        .to_owned();
    // The pane runs a shell that runs the binary (or the binary itself, exec'd): kill the
    // binary, and wait until it is gone (a zombie, or no process at all).
    let children =
        String::from_utf8_lossy(&Command::new("pgrep").args(["-P", &pid]).output().unwrap().stdout)
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>();
    let targets = if children.is_empty() { vec![pid.clone()] } else { children };
    for target in &targets {
        assert!(Command::new("kill").args(["-9", target]).status().unwrap().success());
    }
    let alive = |p: &String| {
        std::fs::read_to_string(format!("/proc/{p}/stat"))
            .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
    };
    let gone = Instant::now() + Duration::from_secs(20);
    while targets.iter().any(alive) {
        assert!(Instant::now() < gone, "the killed client is still running");
        std::thread::yield_now();
    }
    t.cmd(&["kill-session", "-t", "k9"]);
    t.start(&command);
    t.wait_for_messages();
    t.keys(&["r"]);
    t.wait_for("the restored draft", |s| s.contains("do not lose me") && s.contains("draft restored"));
    t.keys(&["Escape", "q"]);
}

/// `y` puts a link to the selected message on the clipboard with OSC 52; tmux (with
/// `set-clipboard on`, as a terminal would) takes it into its paste buffer. `ctrl+o` runs
/// `$EDITOR` on the compose text and the edited text comes back.
#[test]
fn copy_reaches_the_terminal_clipboard_and_the_editor_round_trips() {
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new("clip");
    // A scripted editor: replaces the text.
    let editor = home.path().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\nprintf 'written in the editor' > \"$1\"\n").unwrap();
    Command::new("chmod").arg("+x").arg(&editor).status().unwrap();
    let command = format!(
        "HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state XDG_CONFIG_HOME={h}/config EDITOR={e} {bin} --demo",
        h = home.path().display(),
        e = editor.display()
    );
    t.start(&command);
    t.cmd(&["set-option", "-g", "set-clipboard", "on"]);
    t.wait_for_messages();
    t.keys(&["y"]);
    t.wait_for("the copy notice", |s| s.contains("link to the message copied"));
    let start = Instant::now();
    let buffer = loop {
        let out = t.cmd(&["show-buffer"]);
        let b = String::from_utf8_lossy(&out.stdout).into_owned();
        if b.contains("/#narrow/") || start.elapsed() > Duration::from_secs(10) {
            break b;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        buffer.starts_with("http://127.0.0.1:") && buffer.contains("/#narrow/") && buffer.contains("/near/"),
        "{buffer:?}"
    );

    t.keys(&["r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    t.text("typed here");
    t.keys(&["C-o"]);
    t.wait_for("the edited text", |s| {
        s.contains("written in the editor") && s.contains("taken back from the editor")
    });
    // The server goes with the tmux session when `t` drops.
}

/// The demo in tmux (a home of its own), opened on `#random > lunch friday`: found by search,
/// then `S`, the selected message's conversation.
fn demo_in_lunch_friday(name: &str) -> (Tmux, tempfile::TempDir) {
    let t = Tmux::new(name);
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    t.start(&format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display()));
    t.wait_for_messages();
    t.keys(&["/"]);
    t.text("topic:\"lunch friday\"");
    t.keys(&["Enter"]);
    t.wait_for("the search", |s| s.contains("> lunch friday"));
    t.keys(&["S"]);
    // Its messages selected too: `t` and `V` act on the selected message, and a key pressed
    // while the topic's page is still on its way only gets a hint.
    t.wait_for("the topic with a message selected", |s| {
        s.lines().last().is_some_and(|l| l.contains("#random > lunch friday")) && s.contains("│▌")
    });
    (t, home)
}

#[test]
fn renaming_a_topic_from_the_keyboard_moves_the_view_with_it() {
    let (t, _home) = demo_in_lunch_friday("e2e-rename");
    // `t`: a prompt of its own offers the topic's name to edit.
    t.keys(&["t"]);
    t.wait_for("the prefilled prompt", |s| {
        s.contains("Rename topic (all its messages; tab changes): lunch friday")
    });
    for _ in 0.."friday".len() {
        t.keys(&["BSpace"]);
    }
    t.text("on Friday");
    t.keys(&["Enter"]);
    // The view moved with it (the status bar names the conversation shown), and the
    // notification bot left a note there.
    t.wait_for("the view on the renamed topic", |s| {
        s.lines().last().is_some_and(|l| l.contains("#random > lunch on Friday"))
            && s.contains("This topic was moved here from")
    });
    // Resolving marks it ✔; the end of the topic holds the notification bot's note.
    t.keys(&["V"]);
    t.wait_for("the resolved topic", |s| s.contains("resolved: #random > ✔ lunch on Friday"));
    // The move reopens the topic: G needs its page in and a message selected.
    t.wait_for("the resolved topic's messages", |s| {
        s.lines().last().is_some_and(|l| l.starts_with("#random > ✔ lunch on Friday")) && s.contains("│▌")
    });
    t.keys(&["G"]);
    t.wait_for("the bot's note", |s| s.contains("marked this topic as resolved"));
    t.keys(&["q"]);
}

/// `:channels` lists a public channel the demo user is not in; typing filters to it, ctrl+s
/// joins it, and the server's subscription event puts it in the sidebar.
#[test]
fn subscribing_from_the_channel_browser_adds_the_channel_to_the_sidebar() {
    let t = Tmux::new("chans");
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let command = format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display());
    t.start(&command);
    let s = t.wait_for_messages();
    assert!(!s.contains("▸#outdoors"), "the demo user is not in #outdoors yet");
    t.keys(&[":"]);
    t.text("channels");
    t.keys(&["Enter"]);
    t.wait_for("the channel browser", |s| s.contains("Channels:") && s.contains("#outdoors"));
    t.text("outdoors");
    t.wait_for("the filtered list", |s| s.contains("Channels: outdoors") && !s.contains("#announcements"));
    t.keys(&["C-s"]);
    t.wait_for("the joined channel", |s| s.contains("you joined #outdoors") && s.contains("✓ #outdoors"));
    t.keys(&["Enter"]);
    let s = t.wait_for("the channel open, the browser closed", |s| {
        !s.contains("Channels:") && s.contains("▸#outdoors") && s.contains("ridge loop")
    });
    assert!(s.contains("#outdoors"), "{s}");
    t.keys(&["q"]);
}

/// ctrl+t in the compose box uploads a file to the demo server and links it; sent, the
/// message shows the link.
#[test]
fn attaching_a_file_uploads_it_and_links_it_in_the_message() {
    let t = Tmux::new("e2e-attach");
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("hello-attach.txt");
    std::fs::write(&file, "hello from tmux\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    t.start(&format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display()));
    t.wait_for_messages();
    t.keys(&["r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    t.text("the file: ");
    t.keys(&["C-t"]);
    t.wait_for("the path prompt", |s| s.contains("Attach file (path):"));
    t.text("~/hello-attach.txt");
    t.keys(&["Enter"]);
    t.wait_for("the link in the compose box", |s| s.contains("[hello-attach.txt](/user_uploads/"));
    t.keys(&["C-d"]);
    t.wait_for("the sent message with the link", |s| {
        !s.contains("ctrl+d send") && s.contains("the file: hello-attach.txt")
    });
    t.keys(&["q"]);
}

/// A digit on a poll votes: the vote goes to the demo server and comes back by event.
#[test]
fn voting_in_a_poll_from_the_keyboard() {
    let t = Tmux::new("e2e-poll");
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    t.start(&format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display()));
    t.wait_for_messages();
    t.keys(&["/"]);
    t.text("topic:\"team offsite\"");
    t.keys(&["Enter"]);
    t.wait_for("the poll", |s| s.contains("Where should the spring offsite be?") && s.contains("2 Lisbon"));
    t.keys(&["1"]);
    t.wait_for("my vote counted", |s| s.contains("1 ✓  3 Lisbon") && s.contains("Maya Lindqvist"));
    t.keys(&["1"]);
    t.wait_for("my vote taken back", |s| s.contains("1    2 Lisbon"));
    t.keys(&["q"]);
}

/// w focuses the people pane, / filters it, enter opens a DM to the person: sent, it is in
/// their conversation.
#[test]
fn a_dm_from_the_people_pane() {
    let t = Tmux::new("e2e-people");
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    t.start(&format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display()));
    t.wait_for_messages();
    t.keys(&["w"]);
    t.wait_for("the people pane", |s| s.lines().next().is_some_and(|l| l.trim_end().ends_with("People")));
    t.keys(&["/"]);
    t.text("noa");
    t.wait_for("the filtered list", |s| s.contains("People /noa") && s.contains("Noa Peretz"));
    t.keys(&["Enter", "Enter"]);
    t.wait_for("a compose box to Noa", |s| s.contains("To: Noa Peretz") || s.contains("DM with Noa Peretz"));
    t.text("hi Noa, from the people pane");
    t.keys(&["C-d"]);
    t.wait_for("the sent DM in the conversation", |s| {
        !s.contains("ctrl+d send")
            && s.contains("hi Noa, from the people pane")
            && s.contains("DM with Noa Peretz")
            && s.contains("sent")
    });
    t.keys(&["q"]);
}

/// The last session is kept on disk when the user quits and drawn at the next start before the
/// server answers — here it never does: the server is gone, and the kept session is what
/// there is to read, marked as such, with the client saying it is offline. It reopens on the
/// topic the user left (`n`), and the feed opened before it is there too.
#[tokio::test(flavor = "multi_thread")]
async fn the_last_session_is_shown_at_once_even_with_the_server_gone() {
    let server = topicterm::server::DemoServer::start(Default::default()).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    server.write_zuliprcs(home.path()).unwrap();
    let h = home.path().to_owned();
    let command = format!(
        "HOME={h} XDG_CACHE_HOME={h}/cache XDG_STATE_HOME={h}/state XDG_DATA_HOME={h}/data {bin} -c {h}/member.zuliprc",
        h = h.display(),
        bin = env!("CARGO_BIN_EXE_topicterm"),
    );
    let first = command.clone();
    tokio::task::spawn_blocking(move || {
        let t = Tmux::new("e2e-cache");
        t.start_sized(&first, 120, 30);
        // A first start opens the user's Zulip home view, the inbox for the demo user (the
        // config names no first view).
        t.wait_for("the home view, the inbox", |s| s.contains("┌ Inbox") && s.contains("#engineering"));
        t.keys(&["Escape"]);
        t.wait_for("the first screen", |s| {
            !s.contains("┌ Inbox") && s.contains("#engineering") && s.contains("Nightly #306")
        });
        t.keys(&["n"]);
        t.wait_for("the next unread topic", |s| {
            s.contains("#engineering > release 2.4 planning") && s.contains("muted topics reappear")
        });
        t.keys(&["q"]);
        t.wait_for("a clean exit", |s| !s.contains("#engineering"));
    })
    .await
    .unwrap();
    let kept: Vec<_> = std::fs::read_dir(h.join("cache/topicterm")).unwrap().flatten().collect();
    assert_eq!(kept.len(), 1, "one file for the account: {kept:?}");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(kept[0].metadata().unwrap().permissions().mode() & 0o777, 0o600, "readable only by the user");

    server.stop().await;
    tokio::task::spawn_blocking(move || {
        let t = Tmux::new("e2e-cache2");
        t.start_sized(&command, 120, 30);
        let s = t.wait_for("the topic left, from the last session", |s| {
            s.contains("#engineering > release 2.4 planning · last session")
                && s.contains("muted topics reappear")
        });
        assert!(!s.contains("Connecting…") && !s.contains("Loading…"), "{s}");
        // The last session reopens where the user was: no home view over it.
        assert!(!s.contains("┌ Inbox"), "{s}");
        t.wait_for("the client saying it is offline", |s| {
            s.contains("offline") && s.contains("last session")
        });
        // The feed was kept with it: Nightly #306 was read in the first session, so it opens
        // at the next unread message.
        t.keys(&["a"]);
        t.wait_for("all messages, from the last session", |s| {
            s.contains("All messages · last session") && s.contains("The grinder arrived")
        });
        t.keys(&["q"]);
    })
    .await
    .unwrap();
}

/// A server with a self-signed certificate (`demo-server --tls`), as self-hosted servers are:
/// the binary trusts it through the `cert_bundle` its zuliprc names; without it, it refuses and
/// says which option fixes it; with `insecure=true` it connects and says so on every frame.
#[tokio::test(flavor = "multi_thread")]
async fn a_self_signed_server_is_trusted_through_cert_bundle_refused_without_or_accepted_insecure() {
    use topicterm::api::{Tls, zuliprc};
    let server = topicterm::server::DemoServer::start(topicterm::server::ServerOptions {
        tls: true,
        ..Default::default()
    })
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    server.write_zuliprcs(home.path()).unwrap();
    let h = home.path().to_owned();
    let trusted = zuliprc::read(&h.join("member.zuliprc")).unwrap();
    assert_eq!(trusted.tls.cert_bundle, Some(std::fs::canonicalize(&h).unwrap().join("demo-cert.pem")));
    zuliprc::write(
        &h.join("plain.zuliprc"),
        &topicterm::api::Credentials { tls: Tls::default(), ..trusted.clone() },
    )
    .unwrap();
    let insecure = Tls { insecure: true, ..Tls::default() };
    zuliprc::write(&h.join("insecure.zuliprc"), &topicterm::api::Credentials { tls: insecure, ..trusted })
        .unwrap();
    let command = move |rc: &str| {
        format!(
            "HOME={h} XDG_CACHE_HOME={h}/cache XDG_STATE_HOME={h}/state XDG_DATA_HOME={h}/data {bin} --no-cache -c {h}/{rc}",
            h = h.display(),
            bin = env!("CARGO_BIN_EXE_topicterm"),
        )
    };
    tokio::task::spawn_blocking(move || {
        let t = Tmux::new("e2e-tls");
        t.start_sized(&command("member.zuliprc"), 140, 30);
        let s = t.wait_for_first("the first screen over HTTPS", |s| {
            s.contains("#engineering") && s.contains("All messages")
        });
        assert!(!s.contains("INSECURE"), "{s}");
        t.keys(&["q"]);
        t.wait_for("a clean exit", |s| !s.contains("#engineering"));

        let t = Tmux::new("e2e-tls-plain");
        t.start_sized(&command("plain.zuliprc"), 140, 30);
        t.wait_for("the reason and the fix", |s| {
            s.contains("certificate is not trusted") && s.contains("cert_bundle")
        });
        t.keys(&["q"]);

        let t = Tmux::new("e2e-tls-insecure");
        t.start_sized(&command("insecure.zuliprc"), 140, 30);
        t.wait_for("connected, and saying it is insecure", |s| {
            s.contains("#engineering") && s.contains("INSECURE TLS · All messages")
        });
        t.keys(&["q"]);
    })
    .await
    .unwrap();
}

/// `HTTPS_PROXY`/`HTTP_PROXY` and `NO_PROXY` are honoured, as people expect of a command-line
/// tool: the binary's requests go through the proxy named in the environment, and straight to
/// the server when `NO_PROXY` names it.
#[tokio::test(flavor = "multi_thread")]
async fn the_proxy_named_in_the_environment_is_used_unless_no_proxy_names_the_server() {
    use std::sync::{Arc, Mutex};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let server = topicterm::server::DemoServer::start(Default::default()).await.unwrap();
    // A forward proxy: it notes each connection's first request line, connects to the host
    // that line names and relays both ways (absolute-form requests are served as they are).
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_url = format!("http://{}", listener.local_addr().unwrap());
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let log = log.clone();
            tokio::spawn(async move {
                let mut client = BufReader::new(client);
                let mut line = String::new();
                if client.read_line(&mut line).await.is_err() {
                    return;
                }
                log.lock().unwrap().push(line.trim_end().to_owned());
                let Some(host) = line.split_whitespace().nth(1).and_then(|u| u.strip_prefix("http://"))
                else {
                    return;
                };
                let host = host.split('/').next().unwrap_or_default().to_owned();
                let Ok(mut upstream) = tokio::net::TcpStream::connect(&host).await else { return };
                if upstream.write_all(line.as_bytes()).await.is_err() {
                    return;
                }
                let buffered = client.buffer().to_vec();
                let _ = upstream.write_all(&buffered).await;
                let mut client = client.into_inner();
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            });
        }
    });
    let home = tempfile::tempdir().unwrap();
    server.write_zuliprcs(home.path()).unwrap();
    let h = home.path().to_owned();
    let run = move |env: &str, session: &str| {
        let t = Tmux::new(session);
        t.start_sized(
            &format!(
                "env -u http_proxy -u https_proxy -u no_proxy -u NO_PROXY {env} HOME={h} XDG_STATE_HOME={h}/state {bin} --no-cache -c {h}/member.zuliprc",
                h = h.display(),
                bin = env!("CARGO_BIN_EXE_topicterm"),
            ),
            120,
            30,
        );
        t.wait_for_first("the first screen", |s| s.contains("#engineering") && s.contains("All messages"));
        t.keys(&["q"]);
        t.wait_for("a clean exit", |s| !s.contains("#engineering"));
    };
    let (p, log) = (proxy_url.clone(), seen.clone());
    let port = server.url.rsplit(':').next().unwrap().to_owned();
    tokio::task::spawn_blocking(move || {
        run(&format!("HTTP_PROXY={p} HTTPS_PROXY={p}"), "e2e-proxy");
        let through: Vec<String> = log.lock().unwrap().clone();
        assert!(
            through.iter().any(|l| l.starts_with("POST http://127.0.0.1:") && l.contains("/api/v1/register")),
            "register went through the proxy: {through:?}"
        );
        log.lock().unwrap().clear();
        run(&format!("HTTP_PROXY={p} HTTPS_PROXY={p} NO_PROXY=127.0.0.1"), "e2e-no-proxy");
        assert!(
            log.lock().unwrap().is_empty(),
            "NO_PROXY names the server (port {port}): nothing through the proxy"
        );
    })
    .await
    .unwrap();
}

/// A server that asks for a client certificate: the binary shows the one its zuliprc names (as
/// `demo-server --tls --require-client-cert` writes it) and is served; without it, it says which
/// options to set.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_asking_for_a_client_certificate_serves_the_binary_that_shows_one() {
    use topicterm::api::zuliprc;
    let opts =
        topicterm::server::ServerOptions { tls: true, require_client_cert: true, ..Default::default() };
    let server = topicterm::server::DemoServer::start(opts).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    server.write_zuliprcs(home.path()).unwrap();
    let h = home.path().to_owned();
    let mut bare = zuliprc::read(&h.join("member.zuliprc")).unwrap();
    (bare.tls.client_cert, bare.tls.client_cert_key) = (None, None);
    zuliprc::write(&h.join("bare.zuliprc"), &bare).unwrap();
    let command = move |rc: &str| {
        format!(
            "HOME={h} XDG_STATE_HOME={h}/state XDG_DATA_HOME={h}/data {bin} --no-cache -c {h}/{rc}",
            h = h.display(),
            bin = env!("CARGO_BIN_EXE_topicterm"),
        )
    };
    tokio::task::spawn_blocking(move || {
        let t = Tmux::new("e2e-client-cert");
        t.start_sized(&command("member.zuliprc"), 140, 30);
        t.wait_for_first("the first screen", |s| s.contains("#engineering") && s.contains("All messages"));
        t.keys(&["q"]);
        t.wait_for("a clean exit", |s| !s.contains("#engineering"));
        let t = Tmux::new("e2e-client-cert-bare");
        t.start_sized(&command("bare.zuliprc"), 140, 30);
        t.wait_for("the reason and the fix", |s| {
            s.contains("asks for a client certificate") && s.contains("client_cert=PATH")
        });
        t.keys(&["q"]);
    })
    .await
    .unwrap();
}

/// Every account opens at once: two in-process demo servers as two accounts of
/// `topicterm accounts` (a third whose key the server refuses), the binary started without
/// `--account`. Both organizations have rows with their unread counts, the default on screen;
/// `]` switches; the refused one is closed while the others stay open, its screen says how to
/// log in again, and once its key is fixed `r` opens it; `--account NAME` still opens just the
/// one — and a refused one alone stays open saying what to do, and says it again on exit.
#[tokio::test(flavor = "multi_thread")]
async fn every_account_opens_in_one_window_and_the_switch_key_moves_between_them() {
    use topicterm::server::DemoServer;
    let acme = DemoServer::start(Default::default()).await.unwrap();
    let globex = DemoServer::start(Default::default()).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    let h = home.path().to_owned();
    let mut toml = String::from("default = \"globex\"\n");
    let mut initech_key = None;
    for (name, server) in [("acme", &acme), ("globex", &globex), ("initech", &acme)] {
        let dir = h.join(name);
        server.write_zuliprcs(&dir).unwrap();
        let mut creds = server.credentials("member").unwrap();
        if name == "initech" {
            initech_key = Some((dir.join("member.zuliprc"), creds.clone()));
            creds.api_key = "NotAKeyTheServerKnows12345678901".into();
            topicterm::api::zuliprc::write(&dir.join("member.zuliprc"), &creds).unwrap();
        }
        toml.push_str(&format!(
            "[accounts.{name}]\nsite = \"{}\"\nemail = \"{}\"\nzuliprc = \"{}\"\n",
            creds.site,
            creds.email,
            dir.join("member.zuliprc").display()
        ));
    }
    let (initech_rc, initech_good) = initech_key.unwrap();
    std::fs::create_dir_all(h.join("config/topicterm")).unwrap();
    std::fs::write(h.join("config/topicterm/accounts.toml"), toml).unwrap();
    // Each run writes its stderr and then its exit status to files named after it.
    let command = |args: &str, run: &str| {
        format!(
            "HOME={h} XDG_CONFIG_HOME={h}/config XDG_CACHE_HOME={h}/cache XDG_STATE_HOME={h}/state \
             XDG_DATA_HOME={h}/data {bin} {args} 2> {h}/stderr-{run}; echo $? > {h}/exit-{run}",
            h = h.display(),
            bin = env!("CARGO_BIN_EXE_topicterm"),
        )
    };
    let (all, one, refused) =
        (command("", "all"), command("--account acme", "one"), command("--account initech", "refused"));
    tokio::task::spawn_blocking(move || {
        // A run's exit status and stderr, once the shell has written the status (waiting on the
        // file, not a fixed time).
        let ended = |run: &str| {
            let start = Instant::now();
            loop {
                let code = std::fs::read_to_string(h.join(format!("exit-{run}"))).unwrap_or_default();
                if !code.trim().is_empty() {
                    let said = std::fs::read_to_string(h.join(format!("stderr-{run}"))).unwrap_or_default();
                    break (code.trim().to_owned(), said);
                }
                assert!(start.elapsed() < Duration::from_secs(30), "{run} did not end");
                std::thread::sleep(Duration::from_millis(100));
            }
        };

        // The refused account alone: the window stays open and says what to do.
        let t = Tmux::new("e2e-orgs-refused");
        t.start_sized(&refused, 100, 30);
        let s = t.wait_for("the refusal and how to log in again", |s| {
            s.contains("The server refused this account:")
                && s.contains("    Invalid API key")
                && s.contains("topicterm login --account initech")
                && s.contains("then press r here to reopen it.")
        });
        assert!(!s.contains("Error"), "{s}");
        t.keys(&["q"]);
        let (code, said) = ended("refused");
        assert_eq!(
            said,
            "closed: the server refused this account: Invalid API key\n  \
             to use it again, log in again: topicterm login --account initech\n",
        );
        assert_eq!(code, "0", "the user quit");

        let t = Tmux::new("e2e-orgs");
        t.start_sized(&all, 120, 30);
        let s = t.wait_for("three organization rows, initech closed and why", |s| {
            s.contains("▶ globex")
                && s.contains("acme")
                && s.contains("initech")
                && s.contains("closed")
                && s.contains("initech closed — the server refused the account; ] shows how to reopen it")
        });
        assert!(s.lines().any(|l| titled(l, "globex")), "the default account on screen first:\n{s}");
        t.wait_for_first("unread counts in both", |s| {
            let row = |n: &str| {
                s.lines().find(|l| l.trim_start_matches('▶').trim_start().starts_with(n)).unwrap_or("")
            };
            row("acme").split('│').next().unwrap().trim().ends_with(char::is_numeric)
                && row("globex").split('│').next().unwrap().trim().ends_with(char::is_numeric)
        });
        t.keys(&["]"]);
        let s = t.wait_for_first("acme on screen", |s| s.lines().any(|l| titled(l, "acme")));
        assert!(s.contains("▶ acme"), "{s}");
        // On to the closed one: it says how to reopen it.
        t.keys(&["]"]);
        let s = t.wait_for("initech's screen", |s| s.contains("topicterm login --account initech"));
        assert!(s.contains("▶ initech"), "{s}");
        // Logged in again (here: its key file fixed, as `topicterm login` writes it): `r`.
        topicterm::api::zuliprc::write(&initech_rc, &initech_good).unwrap();
        t.keys(&["r"]);
        let s = t.wait_for_first("initech open", |s| {
            s.lines().any(|l| titled(l, "initech")) && s.contains("#engineering") && !s.contains("refused")
        });
        assert!(!s.lines().any(|l| l.contains("initech") && l.contains("closed")), "{s}");
        t.keys(&["]"]);
        t.wait_for("globex again", |s| s.lines().any(|l| titled(l, "globex")));
        t.keys(&["q"]);
        // Nothing left refused: nothing to say on the way out.
        assert_eq!(ended("all"), ("0".to_owned(), String::new()));

        let t = Tmux::new("e2e-orgs-one");
        t.start_sized(&one, 120, 30);
        let s = t
            .wait_for_first("one organization", |s| s.contains("#engineering") && s.contains("All messages"));
        assert!(!s.contains("▶") && !s.contains("globex") && !s.contains("acme · "), "{s}");
        t.keys(&["q"]);
        assert_eq!(ended("one").0, "0");
    })
    .await
    .unwrap();
}

/// The binary draws an uploaded picture in half-blocks under its message (tmux here: it has no
/// kitty or sixel graphics of its own, and in a session no terminal is attached to the graphics
/// query is not even sent, so start-up does not wait and the first key is not lost), in the
/// picture's colours; `I` shows it full screen.
#[tokio::test(flavor = "multi_thread")]
async fn an_uploaded_picture_is_drawn_in_the_terminal_and_full_screen() {
    use topicterm::api::{Client, OutgoingMessage};
    let server = topicterm::server::DemoServer::start(Default::default()).await.unwrap();
    let bob = Client::new(&server.credentials("bob").unwrap()).unwrap();
    let img = image::RgbImage::from_fn(160, 120, |x, _| {
        if x < 80 { image::Rgb([255, 0, 0]) } else { image::Rgb([0, 0, 255]) }
    });
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut png, image::ImageFormat::Png).unwrap();
    let png = png.into_inner();
    let up = bob.upload_file("flag.png", png.len() as u64, png.into()).await.unwrap();
    let subs = bob.get_subscriptions(None).await.unwrap().subscriptions;
    let general = subs.iter().find(|s| s.name == "general").unwrap().stream_id;
    let text = format!("the flag:\n[flag.png]({})", up.url);
    bob.send_message(&OutgoingMessage::channel(general, "pictures", &text)).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    server.write_zuliprcs(home.path()).unwrap();
    let h = home.path().to_owned();
    std::fs::write(h.join("config.toml"), "start = \"channel:general topic:pictures\"\n").unwrap();
    let command = format!(
        "HOME={h} XDG_CACHE_HOME={h}/cache XDG_STATE_HOME={h}/state XDG_DATA_HOME={h}/data {bin} \
         --config {h}/config.toml -c {h}/member.zuliprc",
        h = h.display(),
        bin = env!("CARGO_BIN_EXE_topicterm"),
    );
    tokio::task::spawn_blocking(move || {
        let t = Tmux::new("e2e-picture");
        t.start_sized(&command, 120, 40);
        let s = t.wait_for("the picture drawn", |s| {
            s.contains("[image 1] flag.png") && !s.contains("loading image")
        });
        assert!(!s.contains("image not shown"), "{s}");
        // Its colours reach the terminal: the rows under the link are painted (a background colour
        // in the cells, red then blue along a row).
        let coloured =
            String::from_utf8_lossy(&t.cmd(&["capture-pane", "-p", "-e", "-t", "e2e-picture"]).stdout)
                .into_owned();
        let rows: Vec<&str> =
            coloured.lines().skip_while(|l| !l.contains("[image 1] flag.png")).skip(1).take(4).collect();
        let painted = rows.iter().filter(|l| l.contains("\u{1b}[48;2;")).count();
        assert!(painted >= 2, "painted rows under the link: {rows:#?}");
        // Kept on disk for the next start.
        let kept = std::fs::read_dir(h.join("cache/topicterm/images")).map(|d| d.count()).unwrap_or(0);
        assert_eq!(kept, 1, "one picture in the disk cache");
        t.keys(&["I"]);
        t.wait_for("the picture full screen", |s| s.contains("image 1 of 1") && s.contains("half-blocks"));
        t.keys(&["Escape"]);
        t.wait_for("back", |s| !s.contains("image 1 of 1"));
        t.keys(&["q"]);
    })
    .await
    .unwrap();
}

/// `!` marks the selected message and every later one unread: the channel's count in the
/// sidebar goes up at once, the server says it is done, and staying on the message keeps it so.
#[test]
fn mark_unread_from_the_keyboard_raises_the_count_at_once() {
    let (t, _home) = demo_in_lunch_friday("e2e-unread");
    let row = |s: &str| {
        // The sidebar's row (left of the first border), not the conversation's header.
        s.lines()
            .map(|l| l.split('│').next().unwrap_or(""))
            .find(|l| l.contains("#random"))
            .map(str::to_owned)
    };
    let count = |s: &str| -> u32 {
        row(s).and_then(|r| r.split_whitespace().last().and_then(|n| n.parse().ok())).unwrap_or(0)
    };
    // The whole topic read first (T), then its first message selected: every message follows it.
    // The channel's other unread topic is muted: its row comes down to no count once the
    // server's read event is in (the answer's remark can come before it).
    t.keys(&["T"]);
    t.wait_for("the topic read", |s| s.contains("topic marked as read") && row(s).is_some() && count(s) == 0);
    t.keys(&["g"]);
    let before = t.wait_for("the channel's row", |s| row(s).is_some());
    let was = count(&before);
    t.keys(&["!"]);
    // The topic holds ten messages or more: all of them unread again, at once.
    t.wait_for("the count up", |s| count(s) >= was + 2);
    let after = t.wait_for("the server done", |s| s.contains("marked as unread from the selected message"));
    let now = count(&after);
    assert!(now >= was + 2, "{after}");
    // Still on it: a later frame keeps the count.
    t.keys(&["?"]);
    t.wait_for("help", |s| s.contains("mark the message and every later one unread"));
    t.keys(&["Escape"]);
    let again = t.wait_for("the view back", |s| !s.contains("mark the message and every later one unread"));
    assert_eq!(count(&again), now, "held while the user stays:\n{again}");
    t.keys(&["q"]);
}

/// `B` opens the inbox: unread conversations by channel, the channel's total on its heading;
/// enter opens a topic, and once it is read the inbox (opened again) leaves it out; space folds
/// a channel; q closes.
#[test]
fn the_inbox_from_the_keyboard_opens_a_topic_and_follows_what_was_read() {
    let t = Tmux::new("e2e-inbox");
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    t.start(&format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display()));
    t.wait_for_messages();
    // The inbox's rows: the lines inside its box, without the borders and the right-hand count.
    let rows = |s: &str| -> Vec<(String, u32)> {
        s.lines()
            .skip_while(|l| !l.starts_with("┌ Inbox"))
            .skip(1)
            .take_while(|l| !l.starts_with('└'))
            .map(|l| {
                let inner = l.trim_start_matches('│').trim_end_matches('│').trim_end();
                let count = inner.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
                let label = inner.trim_end_matches(|c: char| c.is_ascii_digit()).trim().to_owned();
                (label, count)
            })
            .collect()
    };
    let count_of = |s: &str, label: &str| rows(s).into_iter().find(|(l, _)| l == label).map(|(_, n)| n);
    t.keys(&["B"]);
    let open = t.wait_for("the inbox", |s| count_of(s, "all-hands questions").is_some());
    let general = count_of(&open, "▾ #general").expect("#general's heading");
    let topic = count_of(&open, "all-hands questions").unwrap();
    assert!(general > topic, "the heading sums its topics:\n{open}");
    // Down to the topic (the first row is selected on opening), enter opens it.
    let at = rows(&open).iter().position(|(l, _)| l == "all-hands questions").unwrap();
    for _ in 0..at {
        t.keys(&["j"]);
    }
    t.keys(&["Enter"]);
    // Its messages in, one selected (T acts on the selected message's topic).
    t.wait_for("the topic", |s| {
        !s.contains("┌ Inbox")
            && s.contains("│▌")
            && s.lines().last().is_some_and(|l| l.contains("#general > all-hands questions"))
    });
    // Read (T), the inbox leaves it out and #general's total drops by its count.
    t.keys(&["T"]);
    t.wait_for("the topic read", |s| s.contains("topic marked as read"));
    t.keys(&["B"]);
    let again = t.wait_for("the inbox without the topic, #general's total down by its count", |s| {
        count_of(s, "▾ #general") == Some(general - topic) && count_of(s, "all-hands questions").is_none()
    });
    // Space folds the selected (first) channel: its heading turns ▸, its topics go.
    let first = rows(&again)[0].0.clone();
    let heading = first.trim_start_matches("▾ ").to_owned();
    t.keys(&["Space"]);
    let folded = t.wait_for("the channel folded", |s| count_of(s, &format!("▸ {heading}")).is_some());
    assert!(rows(&folded)[1].0.starts_with('▾'), "the next row is the next channel:\n{folded}");
    t.keys(&["q"]);
    t.wait_for("the inbox closed", |s| !s.contains("┌ Inbox") && s.contains("All messages"));
    t.keys(&["q"]);
}

/// Link hints (issue 39): `F` labels the links on screen and a label copies that link's
/// address with OSC 52, which tmux (with `set-clipboard on`, as a terminal would) takes into its
/// paste buffer; `f` labels them again and esc takes the labels away.
#[test]
fn link_hints_label_the_links_on_screen_and_a_label_copies_one() {
    let t = Tmux::new("e2e-hints");
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    t.start(&format!("HOME={h} XDG_STATE_HOME={h}/state {bin} --demo", h = home.path().display()));
    t.cmd(&["set-option", "-g", "set-clipboard", "on"]);
    let before = t.wait_for_first("a link's number on screen", |s| s.contains("│▌") && s.contains("[1]"));
    t.keys(&["F"]);
    let labelled = t.wait_for("the labels", |s| s.contains("type a link's label to copy its address"));
    // The labels are drawn over the links' numbers.
    assert!(numbers(&labelled) < numbers(&before), "{labelled}");
    t.keys(&["a"]);
    t.wait_for("the copy notice", |s| s.contains("the address of [a] copied"));
    let start = Instant::now();
    let buffer = loop {
        let out = t.cmd(&["show-buffer"]);
        let b = String::from_utf8_lossy(&out.stdout).into_owned();
        if b.starts_with("http") || start.elapsed() > Duration::from_secs(10) {
            break b;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(buffer.starts_with("http://") || buffer.starts_with("https://"), "{buffer:?}");
    t.keys(&["f"]);
    t.wait_for("the labels again", |s| s.contains("type a link's label to open it"));
    t.keys(&["Escape"]);
    let after = t.wait_for("the labels gone", |s| !s.contains("type a link's label"));
    assert_eq!(numbers(&after), numbers(&before), "the numbers are back:\n{after}");
    t.keys(&["q"]);
}

/// How many links' numbers (`[1]`, `[12]`) a screen shows.
fn numbers(screen: &str) -> usize {
    screen
        .split('[')
        .skip(1)
        .filter(|rest| {
            rest.split_once(']').is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .count()
}
