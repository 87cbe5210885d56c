//! A resize storm on the binary in tmux: sizes down to 1×1 and up to 300×100, hundreds of
//! times, while another user sends messages with emoji and CJK. The client must live through it
//! and end on the screen it draws afresh at 80×24 (nothing left over from the storm).

#[path = "support/tmux.rs"]
mod tmux;

use tmux::Tmux;
use topicterm::api::{Client, OutgoingMessage};

const SIZES: &[(u16, u16)] = &[(1, 1), (2, 2), (10, 3), (20, 5), (80, 24), (300, 100), (40, 10), (3, 40)];

/// A fixed pseudo-random walk over the sizes (a linear congruential generator: the same storm
/// every run).
fn storm(steps: usize) -> Vec<(u16, u16)> {
    let mut x: u64 = 0x5eed;
    (0..steps)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            SIZES[(x >> 33) as usize % SIZES.len()]
        })
        .collect()
}

fn resize(t: &Tmux, (w, h): (u16, u16)) {
    let out = t.cmd(&["resize-window", "-t", &t.session, "-x", &w.to_string(), "-y", &h.to_string()]);
    assert!(out.status.success(), "tmux resize: {}", String::from_utf8_lossy(&out.stderr));
}

/// Drawn whole at `width` columns: the status line's help hint ends in the last column (a
/// screen still drawn at another width shows it elsewhere, or cut).
fn drawn_at(s: &str, width: usize) -> bool {
    s.lines()
        .last()
        .is_some_and(|l| l.trim_end().ends_with("? help") && l.trim_end().chars().count() == width)
}

/// The screen once it stops changing (two captures alike, a tenth of a second apart).
fn settled(t: &Tmux) -> String {
    let mut last = t.screen();
    for _ in 0..300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let now = t.screen();
        if now == last {
            return now;
        }
        last = now;
    }
    panic!("the screen never settled:\n{last}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_resize_storm_ends_on_the_screen_a_fresh_draw_gives() {
    let server = topicterm::server::DemoServer::start(Default::default()).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    server.write_zuliprcs(home.path()).unwrap();
    let command = format!(
        "HOME={h} XDG_CACHE_HOME={h}/cache XDG_STATE_HOME={h}/state XDG_DATA_HOME={h}/data {bin} -c {h}/member.zuliprc; echo exited $?; sleep 600",
        h = home.path().display(),
        bin = env!("CARGO_BIN_EXE_topicterm"),
    );
    let alice = Client::new(&server.credentials("alice").unwrap()).unwrap();
    let general = server.shared.lock().channel_named("general").map(|c| c.id).unwrap();
    let t = std::sync::Arc::new(Tmux::new("e2e-resize"));
    let t2 = t.clone();
    tokio::task::spawn_blocking(move || {
        t2.start_sized(&command, 80, 24);
        t2.wait_for_messages();
    })
    .await
    .unwrap();
    // The storm, a message every tenth resize.
    let steps = storm(400);
    for (i, size) in steps.into_iter().enumerate() {
        let t = t.clone();
        tokio::task::spawn_blocking(move || resize(&t, size)).await.unwrap();
        if i % 10 == 0 {
            let text = format!("storm {i}: 嵐の中 🌪️👩‍👩‍👧 Ünïcödé {}", "宽".repeat(i % 7));
            alice.send_message(&OutgoingMessage::channel(general, "resize storm", &text)).await.unwrap();
        }
    }
    let t2 = t.clone();
    tokio::task::spawn_blocking(move || {
        resize(&t2, (80, 24));
        // The client catches up with the storm (on a busy machine it may take a while).
        t2.wait_for("the screen drawn at 80×24", |s| {
            s.contains("exited") || (s.contains("All messages") && s.contains("│▌") && drawn_at(s, 80))
        });
        let after = settled(&t2);
        assert!(!after.contains("exited"), "the client ended in the storm:\n{after}");
        // A fresh draw: away and back, which ratatui draws whole. Each step waits for the
        // client's draw at that width (on a loaded machine tmux shows the old one, cut or
        // padded, for a while).
        resize(&t2, (81, 24));
        t2.wait_for("the screen drawn at 81 columns", |s| drawn_at(s, 81));
        resize(&t2, (80, 24));
        t2.wait_for("the screen drawn at 80×24 again", |s| drawn_at(s, 80));
        let fresh = settled(&t2);
        assert_eq!(after, fresh, "the screen after the storm is not the one drawn afresh");
        t2.keys(&["q"]);
        t2.wait_for("a clean exit", |s| s.contains("exited 0"));
    })
    .await
    .unwrap();
}
