//! A tmux session on its own socket, driven with send-keys and read with capture-pane.

#![allow(dead_code)]

use std::process::Command;
use std::time::{Duration, Instant};

pub struct Tmux {
    pub socket: String,
    pub session: String,
}

impl Tmux {
    /// A session named `name` on a socket of its own.
    pub fn new(name: &str) -> Tmux {
        assert!(
            Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success()),
            "this test needs tmux (apt-get install tmux); .ci/run installs it"
        );
        Tmux { socket: format!("topicterm-{name}-{}", std::process::id()), session: name.into() }
    }

    /// Run `command` in the session, 100×30.
    pub fn start(&self, command: &str) {
        self.start_sized(command, 100, 30);
    }

    /// Run `command` in the session, `width`×`height`.
    pub fn start_sized(&self, command: &str, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        let out = self.cmd(&["new-session", "-d", "-s", &self.session, "-x", &w, "-y", &h, command]);
        assert!(out.status.success(), "tmux: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Type a line and press enter.
    pub fn line(&self, text: &str) {
        self.text(text);
        self.keys(&["Enter"]);
    }

    pub fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux runs")
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", &self.session]).stdout).into_owned()
    }

    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", "-t", &self.session, k]);
        }
    }

    pub fn text(&self, text: &str) {
        self.cmd(&["send-keys", "-t", &self.session, "-l", text]);
    }

    /// Wait until the sidebar is drawn and a message is selected (`▌` beside it): the
    /// channel list comes with the first answer, the messages with a later one, and a key
    /// that acts on the selected message (`r`, `y`) pressed in between only gets a hint.
    pub fn wait_for_messages(&self) -> String {
        self.wait_for_first("the channel list and a selected message", |s| {
            s.contains("All messages") && s.contains("│▌")
        })
    }

    /// Wait for the first screen of a start (`pred`). Without a config naming a first view, the
    /// user's Zulip home view opens over the messages at a first start, with the channels (the
    /// register answer): the demo user's is the inbox (the reference server's default). It is
    /// closed, as the user does to reach the messages.
    pub fn wait_for_first(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let inbox = |s: &str| s.contains("┌ Inbox");
        let s = self.wait_for(what, |s| pred(s) || inbox(s));
        if !inbox(&s) {
            return s;
        }
        self.keys(&["Escape"]);
        self.wait_for(&format!("the inbox closed and {what}"), |s| !inbox(s) && pred(s))
    }

    /// Wait until the screen satisfies `pred`, or fail showing the screen.
    pub fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("timed out waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.cmd(&["kill-server"]);
    }
}
