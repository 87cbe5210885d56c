//! End to end: what the status line says reaches the screen at once and leaves it by itself,
//! on the real binary in tmux (the clock drives the redraw; no key is pressed meanwhile).

#[path = "support/tmux.rs"]
mod tmux;
use tmux::Tmux;

#[test]
fn a_remark_leaves_the_screen_by_itself() {
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_topicterm");
    let t = Tmux::new("feedback");
    t.start(&format!(
        "HOME={h} XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state XDG_CONFIG_HOME={h}/config {bin} --demo",
        h = home.path().display()
    ));
    t.wait_for_messages();
    t.keys(&["y"]);
    t.wait_for("the copy notice", |s| s.contains("link to the message copied"));
    // Remarks last six seconds; wait_for gives up after thirty.
    t.wait_for("the notice to expire", |s| {
        !s.contains("link to the message copied") && s.lines().last().is_some_and(|l| l.ends_with("? help"))
    });
    // A palette error shows while the prompt is still open.
    t.keys(&[":"]);
    t.text("frobnicate");
    t.keys(&["Enter"]);
    t.wait_for("the error beside the prompt", |s| {
        s.lines().last().is_some_and(|l| l.starts_with(":frobnicate") && l.contains("no command"))
    });
    t.keys(&["Escape", "q"]);
}
