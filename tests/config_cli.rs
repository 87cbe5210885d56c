//! The real binary and the user's world: config files and their errors, the zuliprc permission
//! check, `NO_COLOR`, completions and the man page, and `login` followed by a session on the
//! stored account (in tmux, like tests/e2e_tmux.rs, reading the bytes the binary writes).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use topicterm::app::settings::Settings;
use topicterm::server::{DemoServer, ServerOptions, org::DEMO_PASSWORD};

const BIN: &str = env!("CARGO_BIN_EXE_topicterm");

/// Run the binary with a private HOME (so no real config, account or keyring is touched).
fn run(args: &[&str], home: &Path, stdin: &str) -> (i32, String, String) {
    let mut child = command(args, home).spawn().expect("runs");
    {
        use std::io::Write;
        let mut input = child.stdin.take().expect("stdin");
        let _ = input.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("exits");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The binary with a private HOME, its three streams piped.
fn command(args: &[&str], home: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let _ = (path, mode);
}

fn mode(path: &Path) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }
    #[cfg(not(unix))]
    0o600
}

/// Every file under a directory, as text.
fn all_text_under(dir: &Path) -> String {
    let mut out = String::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.push_str(&all_text_under(&p));
            } else if let Ok(bytes) = std::fs::read(&p) {
                out.push_str(&String::from_utf8_lossy(&bytes));
            }
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn a_zuliprc_others_can_read_is_refused_with_the_chmod_that_fixes_it() {
    let home = tempfile::tempdir().unwrap();
    let rc = home.path().join("work rc");
    let key = "k3yTHATmustNOTshow0000000000000";
    std::fs::write(&rc, format!("[api]\nemail=a@b.c\nkey={key}\nsite=http://127.0.0.1:1\n")).unwrap();
    set_mode(&rc, 0o644);
    let (code, out, err) = run(&["-c", rc.to_str().unwrap()], home.path(), "");
    assert_ne!(code, 0);
    assert!(err.contains("other users can read it (mode 0644)"), "{err}");
    assert!(err.contains(&format!("chmod 600 '{}'", rc.display())), "the exact command: {err}");
    assert!(!err.contains(key) && !out.contains(key), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // ~/.zuliprc too, when there is no account.
    let default_rc = home.path().join(".zuliprc");
    std::fs::copy(&rc, &default_rc).unwrap();
    set_mode(&default_rc, 0o640);
    let (code, _, err) = run(&[], home.path(), "");
    assert_ne!(code, 0);
    assert!(err.contains(&format!("chmod 600 {}", default_rc.display())), "{err}");

    // Fixed as told, the file is accepted (and the unreachable server is what fails now).
    set_mode(&rc, 0o600);
    let (code, _, err) = run(&["-c", rc.to_str().unwrap()], home.path(), "");
    assert_ne!(code, 0);
    assert!(!err.contains("chmod"), "{err}");
}

#[test]
fn config_errors_name_the_file_the_line_and_the_choices() {
    let home = tempfile::tempdir().unwrap();
    let cfg = home.path().join("topicterm.toml");
    std::fs::write(&cfg, "# mine\ntime_format = 12\ntheme = \"blue\"\n").unwrap();
    let (code, out, err) = run(&["--config", cfg.to_str().unwrap(), "--demo"], home.path(), "");
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!(
            "{}:3:9: theme = \"blue\" is not one of dark, light, high-contrast",
            cfg.display()
        )),
        "{err}"
    );
    assert!(out.is_empty() && !err.contains("panicked"), "nothing drawn: {out}");

    // The file in the XDG config directory is read without --config.
    let dir = home.path().join(".config/topicterm");
    std::fs::create_dir_all(&dir).unwrap();
    let default = dir.join("config.toml");
    std::fs::write(&default, "[panels]\nchannels = true\nsidebar = false\n").unwrap();
    let (code, _, err) = run(&["--demo"], home.path(), "");
    assert_ne!(code, 0);
    assert!(err.contains(&format!("{}:3:1: unknown field `sidebar`", default.display())), "{err}");
    assert!(err.contains("expected `channels` or `people`"), "the valid keys: {err}");

    std::fs::write(&default, "[keys]\nreply = [\"ctrl+enterr\"]\nstar = \"r\"\n").unwrap();
    let (code, _, err) = run(&["--demo"], home.path(), "");
    assert_ne!(code, 0);
    assert!(err.contains(":2:10: reply: \"ctrl+enterr\" is not a key"), "{err}");

    // A --config that does not exist is an error (the default one may be missing).
    let (code, _, err) = run(&["--config", "/nonexistent/t.toml", "--demo"], home.path(), "");
    assert_ne!(code, 0);
    assert!(err.contains("cannot read config file /nonexistent/t.toml"), "{err}");
}

#[test]
fn the_printed_default_config_parses_back_to_the_defaults() {
    let home = tempfile::tempdir().unwrap();
    let (code, out, err) = run(&["--print-default-config"], home.path(), "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# topicterm configuration."), "{out}");
    let cfg = topicterm::config::parse(&out, "printed").expect("parses");
    assert_eq!(cfg.keymap, topicterm::app::keymap::Keymap::default());
    assert_eq!(
        topicterm::config::Config { key_overrides: vec![], clock_set: false, start_set: false, ..cfg },
        topicterm::config::Config::default()
    );
}

#[test]
fn help_version_completions_and_man() {
    let home = tempfile::tempdir().unwrap();
    let (code, out, _) = run(&["--help"], home.path(), "");
    assert_eq!(code, 0);
    for word in ["login", "completions", "man", "--demo", "--zuliprc", "--account", "--config", "NO_COLOR"] {
        assert!(out.contains(word), "--help mentions {word}: {out}");
    }
    let (code, out, _) = run(&["--version"], home.path(), "");
    assert_eq!(code, 0);
    assert_eq!(out.trim(), format!("topicterm {}", env!("CARGO_PKG_VERSION")));
    for (shell, marker) in
        [("bash", "complete -F"), ("zsh", "#compdef topicterm"), ("fish", "complete -c topicterm")]
    {
        let (code, out, err) = run(&["completions", shell], home.path(), "");
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(marker), "{shell}: {out}");
        assert!(out.contains("login") && out.contains("print-default-config"), "{shell} completes the CLI");
    }
    let (code, _, err) = run(&["completions", "tcsh"], home.path(), "");
    assert_ne!(code, 0);
    assert!(err.contains("possible values"), "{err}");
    let (code, out, _) = run(&["man"], home.path(), "");
    assert_eq!(code, 0);
    assert!(out.contains(".TH topicterm 1"), "{out}");
    assert!(out.contains("login") && out.contains("\\-\\-print\\-default\\-config"), "{out}");
    // A reader that stops early is not an error.
    let mut child =
        Command::new(BIN).arg("man").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[tokio::test(flavor = "multi_thread")]
async fn login_from_a_pipe_without_a_keyring_writes_a_private_zuliprc() {
    let server = DemoServer::start(ServerOptions::default()).await.unwrap();
    let creds = server.credentials("alice").unwrap();
    let home = tempfile::tempdir().unwrap();
    let answers = format!("{}\n{}\n{DEMO_PASSWORD}\n", server.url, creds.email);
    let h = home.path().to_owned();
    let (code, out, err) =
        tokio::task::spawn_blocking(move || run(&["login", "--account", "work"], &h, &answers))
            .await
            .unwrap();
    assert_eq!(code, 0, "{err}");
    let rc = home.path().join(".config/topicterm/work.zuliprc");
    assert!(err.contains("No OS keyring is available here"), "{err}");
    assert!(err.contains(&rc.display().to_string()), "{err}");
    assert_eq!(mode(&rc), 0o600);
    assert!(!out.contains(&creds.api_key) && !err.contains(&creds.api_key), "{err}");
    let h = home.path().to_owned();
    let (code, out, _) = tokio::task::spawn_blocking(move || run(&["accounts"], &h, "")).await.unwrap();
    assert_eq!(code, 0);
    assert!(out.contains("* work") && out.contains(&creds.email), "{out}");
    assert!(!all_text_under(&home.path().join("state")).contains(&creds.api_key));
    // Everything the client kept of the account goes with it: its archive, its last session,
    // its drafts and outbox — and nothing of another account's.
    let folders = topicterm::kept::Folders {
        data: home.path().join("data/topicterm"),
        cache: home.path().join("cache/topicterm"),
    };
    let (files, other) =
        (folders.account(&creds.email, &server.url), folders.account("x@y.example", &server.url));
    let owner = files.owner.clone();
    let archive = topicterm::kept::archive_in(&folders.data, &owner);
    assert_eq!(archive, files.archive);
    drop(topicterm::archive::store::open(&archive, &owner).unwrap());
    let snapshot = topicterm::app::session::Snapshot::default();
    for f in [&files, &other] {
        topicterm::net::drafts::save(&f.drafts, &f.owner, "outbox-1", "unsent").unwrap();
        topicterm::net::cache::save(&f.cache, &f.owner.site, &f.owner.email, &snapshot).unwrap();
    }
    let h = home.path().to_owned();
    let (code, out, _) = tokio::task::spawn_blocking(move || run(&["logout"], &h, "")).await.unwrap();
    assert_eq!(code, 0);
    assert!(out.contains("Logged out of work"), "{out}");
    assert!(
        out.contains(
            "Removed from this machine: its archive of messages, its last session, its one draft or unsent message."
        ),
        "{out}"
    );
    assert!(!rc.exists());
    let left: Vec<_> = std::fs::read_dir(archive.parent().unwrap()).unwrap().collect();
    assert!(left.is_empty(), "no file of the archive is left: {left:?}");
    assert!(!files.drafts.exists() && !files.cache.exists());
    assert!(other.drafts.exists() && other.cache.exists(), "another account's are left");
}

// ------------------------------------------------------------------------------------------
// In tmux
// ------------------------------------------------------------------------------------------

#[path = "support/capture.rs"]
mod capture;
#[path = "support/tmux.rs"]
mod tmux;
use tmux::Tmux;

fn wait_for_file(path: &Path) -> String {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(path)
            && !s.is_empty()
        {
            return s;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Run `topicterm --demo` in tmux with `env` and return every byte it wrote to the terminal.
fn demo_output(name: &str, env: &str) -> Vec<u8> {
    let home = tempfile::tempdir().unwrap();
    let h = home.path().display();
    let t = Tmux::new(name);
    let (go, bytes, status) = (home.path().join("go"), home.path().join("bytes"), home.path().join("status"));
    // The binary starts once the pane's output is being recorded.
    t.start(&format!(
        "unset XDG_CONFIG_HOME; while [ ! -e {go} ]; do sleep 0.05; done; \
         env {env} HOME={h} XDG_STATE_HOME={h}/state {BIN} --demo; echo $? > {status}",
        go = go.display(),
        status = status.display()
    ));
    let out = t.cmd(&["pipe-pane", "-O", "-t", &t.session, &format!("cat >> {}", bytes.display())]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(&go, "").unwrap();
    // A message selected: `r` below replies to it.
    t.wait_for_messages();
    // Show more styles: the help popup, the people pane, a compose box.
    t.keys(&["w", "?"]);
    t.wait_for("the help", |s| s.contains("Keys (esc to close)"));
    // w focused the people pane: h goes back to the messages, where r replies.
    // Escape alone, and seen to act: an escape followed at once by a letter reads as alt+letter.
    t.keys(&["Escape"]);
    t.wait_for("the help closed", |s| !s.contains("Keys (esc to close)"));
    t.keys(&["h", "r"]);
    t.wait_for("the compose box", |s| s.contains("ctrl+d send"));
    // Escape and q sent together can reach the binary as one alt+q: each is seen to act.
    t.keys(&["Escape"]);
    t.wait_for("the compose box closed", |s| !s.contains("ctrl+d send"));
    t.keys(&["q"]);
    assert_eq!(wait_for_file(&status).trim(), "0");
    // The recorder may lag the exit: wait until it has the terminal given back (the main
    // screen restored), the last thing the binary writes.
    let start = Instant::now();
    loop {
        let written = std::fs::read(&bytes).unwrap_or_default();
        if written.windows(8).any(|w| w == b"\x1b[?1049l") {
            return written;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the recording never showed the main screen restored"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SGR sequences that set a foreground or background colour (ESC [ 3x/4x/9x/10x … m).
fn colour_sequences(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut found = Vec::new();
    for (i, _) in text.match_indices("\u{1b}[") {
        let rest = &text[i + 2..];
        let Some(end) = rest.find(|c: char| !(c.is_ascii_digit() || c == ';')) else { continue };
        if !rest[end..].starts_with('m') {
            continue;
        }
        let params: Vec<u32> = rest[..end].split(';').filter_map(|p| p.parse().ok()).collect();
        // 39/49 reset to the default colour: that is not a colour.
        if params.iter().any(|p| matches!(p, 30..=38 | 40..=48 | 90..=97 | 100..=107)) {
            found.push(rest[..end].to_owned());
        }
    }
    found
}

/// The binary as a user runs it. (crossterm drops colours under NO_COLOR as well; the test
/// below checks the theme on its own.)
#[test]
fn no_color_means_no_colour_escape_sequences_at_all() {
    let coloured = demo_output("colour", "-u NO_COLOR");
    assert!(!colour_sequences(&coloured).is_empty(), "the control run has colours");
    let empty = demo_output("colour-empty", "NO_COLOR=");
    assert!(!colour_sequences(&empty).is_empty(), "an empty NO_COLOR does not count");
    let plain = demo_output("nocolour", "NO_COLOR=1");
    assert!(plain.len() > 1000, "the demo drew something");
    assert_eq!(colour_sequences(&plain), Vec::<String>::new());
    // Bold and reverse video stay: the interface is still readable.
    let text = String::from_utf8_lossy(&plain);
    assert!(text.contains("\u{1b}[1m") && text.contains("\u{1b}[7m"), "modifiers remain");
}

#[tokio::test(flavor = "multi_thread")]
async fn login_in_a_terminal_hides_the_password_then_the_account_just_works() {
    let server = DemoServer::start(ServerOptions::default()).await.unwrap();
    let creds = server.credentials("member").unwrap();
    let url = server.url.clone();
    tokio::task::spawn_blocking(move || {
        let home = tempfile::tempdir().unwrap();
        let h = home.path().display();
        let status = home.path().join("status");
        let config = home.path().join("topicterm.toml");
        std::fs::write(
            &config,
            "time_format = 12\nstart = \"channel:engineering\"\n[keys]\nquit = [\"Q\"]\n",
        )
        .unwrap();
        let t = Tmux::new("login");
        // No D-Bus here: the key must go to the private zuliprc, and the session must read it.
        t.start(&format!(
            "unset XDG_CONFIG_HOME; export HOME={h} XDG_STATE_HOME={h}/state \
             DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent; \
             {BIN} login && {BIN} -d --config {cfg}; echo $? > {status}; sleep 60",
            cfg = config.display(),
            status = status.display()
        ));
        t.wait_for("the URL question", |s| s.contains("Server URL"));
        t.line(&url);
        t.wait_for("the email question", |s| s.contains("Email:"));
        t.line(&creds.email);
        t.wait_for("the password question", |s| s.contains("Password:"));
        t.line(DEMO_PASSWORD);
        // The session starts on the new default account, with the config applied.
        // Messages drawn with a selected one (`│▌`): their times are on screen.
        let s = t.wait_for("the session", |s| {
            s.contains("#engineering") && s.contains("All messages") && s.contains("│▌")
        });
        assert!(s.contains("PM") || s.contains("AM"), "12-hour times: {s}");
        let status_line = s.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
        assert!(status_line.starts_with("#engineering"), "starts in the channel: {s}");
        // q is no longer quit: a key after it is still read.
        t.keys(&["q", "?"]);
        t.wait_for("the help after q", |s| s.contains("Keys (esc to close)"));
        t.keys(&["Escape"]);
        t.wait_for("the help closed", |s| !s.contains("Keys (esc to close)"));
        t.keys(&["Q"]);
        assert_eq!(wait_for_file(&status).trim(), "0");
        // What login printed, still on the screen: the password was not echoed.
        let s = t.screen();
        let pw_line = s.lines().find(|l| l.contains("Password:")).expect("the prompt stays");
        assert_eq!(pw_line.trim(), "Password:", "{s}");
        assert!(s.contains("No OS keyring is available here"), "{s}");
        assert!(!s.contains(&creds.api_key), "{s}");
        let rc = home
            .path()
            .join(".config/topicterm")
            .join(format!("{}.zuliprc", url.trim_start_matches("http://").replace(':', "-")));
        assert_eq!(mode(&rc), 0o600, "{}", rc.display());
        // The debug log exists and never holds the key.
        let logs = all_text_under(&home.path().join("state"));
        assert!(!logs.contains(&creds.api_key), "the key is in the log");
    })
    .await
    .unwrap();
}

// ------------------------------------------------------------------------------------------
// In process: the theme itself
// ------------------------------------------------------------------------------------------

/// crossterm also drops colours when NO_COLOR is set in the environment, so the binary's output
/// cannot tell whether the theme did its part. Here the views draw through a crossterm backend
/// into memory, in a process without NO_COLOR: only the theme can remove the colours.
/// Registered with two channels, one unread starred message with a link, a mention, code and
/// a reaction, and the people pane open; `settings` as a config file would give them.
fn sample_state(settings: Settings) -> topicterm::app::State {
    use serde_json::json;
    use topicterm::app::{self, Msg, State, TimeZone};
    let mut st = State { tz: TimeZone::Fixed(0), now: 1_800_000_000, settings, ..Default::default() };
    let reg: topicterm::api::RegisterResponse = serde_json::from_value(json!({
        "queue_id": "q", "last_event_id": -1, "zulip_feature_level": 496, "user_id": 1,
        "realm_users": [{"user_id": 1, "full_name": "Me", "email": "me@x"}, {"user_id": 2, "full_name": "Ann", "email": "ann@x"}],
        "subscriptions": [{"stream_id": 7, "name": "design", "color": "#fff", "description": ""},
                          {"stream_id": 8, "name": "quiet", "color": "#fff", "description": "", "is_muted": true}],
        "unread_msgs": {"streams": [{"stream_id": 7, "topic": "plans", "unread_message_ids": [10]}]},
        "presences": {"2": {"active_timestamp": 1_800_000_000, "idle_timestamp": 1_800_000_000}},
    }))
    .unwrap();
    app::register_at_once(&mut st, reg);
    let resp: topicterm::api::MessagesResponse = serde_json::from_value(json!({
        "found_newest": true, "found_oldest": true,
        "messages": [{
            "id": 10, "type": "stream", "display_recipient": "design", "stream_id": 7, "subject": "plans",
            "sender_id": 2, "sender_full_name": "Ann", "sender_email": "ann@x", "timestamp": 1_799_999_000,
            "flags": ["starred"],
            "content": "<p>See <a href=\"https://x\">this</a>, <span class=\"user-mention\" data-user-id=\"1\">@Me</span> <code>x</code></p><div class=\"codehilite\"><pre><span class=\"k\">fn</span> <span class=\"s\">\"s\"</span></pre></div>",
            "reactions": [{"emoji_name": "smile", "emoji_code": "1f604", "reaction_type": "unicode_emoji", "user_id": 1}],
        }],
    }))
    .unwrap();
    let narrow = st.ui.narrow.clone();
    app::update(&mut st, Msg::Messages { narrow, resp: Box::new(resp), older: false, epoch: 0 });
    st.ui.people.show(true);
    app::rebuild_people(&mut st);

    st
}

/// The screen as text.
fn screen_of(st: &topicterm::app::State) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap();
    let mut cache = topicterm::ui::RenderCache::default();
    terminal.draw(|f| topicterm::ui::draw(f, st, &mut cache)).unwrap();
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn config_settings_reach_the_screen() {
    use topicterm::app::{Focus, Narrow};
    let cfg = topicterm::config::parse(
        "time_format = 12\nstart = \"channel:design topic:plans\"\n[panels]\nchannels = false\npeople = true\n",
        "x",
    )
    .unwrap();
    let mut st = sample_state(cfg.settings(false));
    assert_eq!(st.ui.narrow, Narrow::Topic(7, "plans".into()), "the first view, resolved at register");
    assert_eq!(st.settings.start, None, "taken once: a re-register keeps the user's view");
    let s = screen_of(&st);
    assert!(s.contains("Ann  Fri 15 Jan 7:43 AM"), "12-hour clock: {s}");
    assert!(!s.contains("All messages"), "the channels pane is hidden: {s}");
    st.ui.focus = Focus::Sidebar;
    assert!(screen_of(&st).contains("All messages"), "and shows while it has the focus");
    // A first view naming a channel that does not exist: all messages, and the reason.
    let cfg = topicterm::config::parse("start = \"channel:nope\"", "x").unwrap();
    let st = sample_state(cfg.settings(false));
    assert_eq!(st.ui.narrow, Narrow::All);
    assert!(screen_of(&st).contains("config: start = \"channel:nope\": no channel named \"nope\""));
}

#[test]
fn the_no_colour_theme_writes_no_colour_through_crossterm() {
    use ratatui::Terminal;
    use ratatui::backend::CrosstermBackend;
    use topicterm::app::State;
    use topicterm::app::settings::{ThemeChoice, ThemeName};

    let mut st = sample_state(Settings::default());
    use capture::Shared;
    let draw = |st: &State| {
        let out = Shared::default();
        let viewport = ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, 120, 30));
        let mut terminal =
            Terminal::with_options(CrosstermBackend::new(out.clone()), ratatui::TerminalOptions { viewport })
                .unwrap();
        let mut cache = topicterm::ui::RenderCache::default();
        terminal.draw(|f| topicterm::ui::draw(f, st, &mut cache)).unwrap();
        drop(terminal);
        out.0.lock().unwrap().clone()
    };
    let env_allows_colour = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    for (_, name) in ThemeName::ALL {
        st.settings.theme = ThemeChoice::new(*name, false);
        let coloured = draw(&st);
        assert!(String::from_utf8_lossy(&coloured).contains("Ann"));
        if env_allows_colour {
            assert!(!colour_sequences(&coloured).is_empty(), "{name:?} has colours");
        }
        st.settings.theme = ThemeChoice::new(*name, true);
        let plain = draw(&st);
        assert!(String::from_utf8_lossy(&plain).contains("Ann"));
        assert_eq!(colour_sequences(&plain), Vec::<String>::new(), "{name:?} without colour");
    }
}

#[path = "support/browser.rs"]
mod browser;

/// `topicterm login` through the organization's single sign-on, from a pipe as from a terminal:
/// the binary prints the sign-in address, a browser signs in there, the token the page shows is
/// pasted back, and the account works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_through_single_sign_on_from_a_pipe() {
    use std::io::{Read, Write};
    let auth = topicterm::server::logins::AuthMode::Sso;
    let server = DemoServer::start(ServerOptions { auth, ..Default::default() }).await.unwrap();
    let creds = server.credentials("alice").unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut child =
        command(&["login", "--account", "sso", "--no-keyring"], home.path()).spawn().expect("runs");
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "{}", server.url).unwrap();
    let mut err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = err.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut printed = String::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let url = loop {
        if let Some(url) = browser::address_in(&printed).filter(|_| printed.contains("Login token: ")) {
            break url;
        }
        assert!(Instant::now() < deadline, "no sign-in address:\n{printed}");
        if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(200)) {
            printed.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    let shown = browser::sign_in(&url, &creds.email, DEMO_PASSWORD).await.unwrap();
    writeln!(input, "{shown}").unwrap();
    drop(input);
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap()).await.unwrap();
    reader.join().unwrap();
    printed.extend(rx.try_iter().map(|c| String::from_utf8_lossy(&c).into_owned()));
    assert!(status.success(), "{printed}");
    assert!(printed.contains("log in with Demo SSO"), "{printed}");
    assert!(printed.contains(&format!("Logged in as {} on {}", creds.email, server.url)), "{printed}");
    let rc = home.path().join(".config/topicterm/sso.zuliprc");
    assert_eq!(mode(&rc), 0o600);
    assert!(std::fs::read_to_string(&rc).unwrap().contains(&creds.api_key));
    assert!(!printed.contains(&creds.api_key), "{printed}");
}
