//! What the main loop does beyond the screen: the bell, the clipboard, desktop notifications,
//! `$EDITOR`. They run on the UI task between frames, so nothing interleaves with drawing; a
//! notification is handed to a task (`crate::desktop`, or the user's command) whose outcome
//! comes back to its organization as a `Msg`. The binary uses [`Terminal`]; tests use
//! [`Recorder`].

use crate::app::{Clicked, Msg, ProgramFailure};
use base64::Engine as _;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set while an outside program (the editor) has the terminal, so that the main loop's reader
/// thread takes none of its keys.
static INPUT_PAUSED: AtomicBool = AtomicBool::new(false);

/// Stop (true) or resume (false) reading the terminal.
pub fn pause_terminal_input(paused: bool) {
    INPUT_PAUSED.store(paused, Ordering::SeqCst);
}

/// Whether the terminal is lent to an outside program.
pub fn terminal_input_paused() -> bool {
    INPUT_PAUSED.load(Ordering::SeqCst)
}

pub use crate::app::settings::NotifyMethod;

pub use crate::desktop::Answers;

pub trait Outside {
    /// Announce a new message; a click on it answers `Msg::NotificationClicked(clicked)`.
    fn notify(&mut self, title: &str, body: &str, clicked: Clicked, answers: &Answers);
    /// Ring the terminal bell.
    fn bell(&mut self);
    /// Put text on the clipboard.
    fn copy(&mut self, text: &str);
    /// Leave the screen, edit `text` in the user's editor, come back with the result.
    fn edit(&mut self, text: &str) -> Result<String, ProgramFailure>;
}

/// The real terminal on stdout.
#[derive(Debug, Default)]
pub struct Terminal {
    pub notify: NotifyMethod,
    /// The user's own notification command (`[notifications] command`): it wins over the
    /// built-in desktop notifications.
    pub command: Option<String>,
}

/// OSC 52: the terminal (or tmux, or the terminal at the other end of SSH) sets its clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64::engine::general_purpose::STANDARD.encode(text))
}

/// Run the user's notification command (through `sh`, so it may carry arguments) with `--`,
/// the title and the body after it: server text is never read as an option. Exiting with a
/// failure or not starting counts as not shown.
pub fn run_command(command: &str, title: &str, body: &str, answers: &Answers) {
    let mut child = tokio::process::Command::new("sh");
    child
        .arg("-c")
        .arg(format!("{command} -- \"$1\" \"$2\""))
        .arg("sh")
        .args([title, body])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true);
    let (command, answers) = (command.to_owned(), answers.clone());
    tokio::spawn(async move {
        match child.status().await {
            Ok(s) if s.success() => {}
            Ok(s) => crate::desktop::unshown(&format!("`{command}` exited with {s}"), &answers),
            Err(e) => crate::desktop::unshown(&format!("`{command}` cannot be run ({e})"), &answers),
        }
    });
}

/// The editor the user chose: `$VISUAL`, then `$EDITOR`, then `vi`.
pub fn editor_command() -> String {
    std::env::var("VISUAL")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .or_else(|| std::env::var("EDITOR").ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".into())
}

/// Write `text` to a private temporary file, run `editor` on it (through `sh`, so it may carry
/// arguments), and read the file back.
pub fn edit_with(editor: &str, text: &str) -> Result<String, ProgramFailure> {
    let file_failed = |e: std::io::Error| ProgramFailure::File(e.kind());
    let mut file =
        tempfile::Builder::new().prefix("topicterm-").suffix(".md").tempfile().map_err(file_failed)?;
    file.write_all(text.as_bytes()).and_then(|_| file.flush()).map_err(file_failed)?;
    let path = file.path().to_owned();
    let program = editor.to_owned();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&path)
        .status()
        .map_err(|e| ProgramFailure::NotStarted { program: program.clone(), kind: e.kind() })?;
    ProgramFailure::from_sh(program, status.code())?;
    std::fs::read_to_string(&path).map_err(file_failed)
}

impl Terminal {
    fn write(&self, s: &str) {
        let mut out = std::io::stdout();
        let _ = out.write_all(s.as_bytes()).and_then(|_| out.flush());
    }
}

impl Outside for Terminal {
    fn notify(&mut self, title: &str, body: &str, clicked: Clicked, answers: &Answers) {
        match (self.notify, &self.command) {
            (NotifyMethod::None, _) => {}
            (NotifyMethod::Bell, _) => self.bell(),
            (NotifyMethod::Desktop, Some(command)) => run_command(command, title, body, answers),
            (NotifyMethod::Desktop, None) => crate::desktop::show(title, body, clicked, answers),
        }
    }

    fn bell(&mut self) {
        self.write("\x07");
    }

    fn copy(&mut self, text: &str) {
        self.write(&osc52(text));
    }

    fn edit(&mut self, text: &str) -> Result<String, ProgramFailure> {
        use crossterm::{event, execute, terminal};
        let mut out = std::io::stdout();
        // The editor owns the terminal's input until it exits: our reader takes none of it.
        pause_terminal_input(true);
        let _ = execute!(
            out,
            event::DisableMouseCapture,
            event::DisableBracketedPaste,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
        let result = edit_with(&editor_command(), text);
        let _ = terminal::enable_raw_mode();
        // Editors switch bracketed paste off as they exit: switch it on again.
        let _ = execute!(
            out,
            terminal::EnterAlternateScreen,
            event::EnableMouseCapture,
            event::EnableBracketedPaste
        );
        pause_terminal_input(false);
        result
    }
}

/// Records what would have gone outside (tests).
#[derive(Debug, Default)]
pub struct Recorder {
    /// Title and body of each notification.
    pub notifications: Vec<(String, String)>,
    /// What clicking each notification would answer, and where ([`Recorder::click`]).
    pub clickable: Vec<(Clicked, Answers)>,
    pub bells: usize,
    pub copied: Vec<String>,
    /// What the "editor" returns: a fixed text, or an error.
    pub editor_result: Option<Result<String, ProgramFailure>>,
    pub edited: Vec<String>,
}

impl Recorder {
    /// The user clicks notification `i` (in the order shown), as a notification service tells.
    pub fn click(&self, i: usize) {
        let (clicked, answers) = &self.clickable[i];
        let _ = answers.send(Msg::NotificationClicked(clicked.clone()));
    }
}

impl Outside for Recorder {
    fn notify(&mut self, title: &str, body: &str, clicked: Clicked, answers: &Answers) {
        self.notifications.push((title.into(), body.into()));
        self.clickable.push((clicked, answers.clone()));
    }
    fn bell(&mut self) {
        self.bells += 1;
    }
    fn copy(&mut self, text: &str) {
        self.copied.push(text.into());
    }
    fn edit(&mut self, text: &str) -> Result<String, ProgramFailure> {
        self.edited.push(text.into());
        self.editor_result.clone().unwrap_or_else(|| Ok(text.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_carries_the_text_in_base64() {
        assert_eq!(osc52("hi ✓"), "\x1b]52;c;aGkg4pyT\x07");
    }

    #[test]
    fn the_editor_edits_a_file_and_its_text_comes_back() {
        // A scripted "editor": appends a line to the file it is given.
        let out = edit_with("sh -c 'printf \"\\nadded\" >> \"$0\"'", "typed").unwrap();
        assert_eq!(out, "typed\nadded");
        let err = edit_with("false", "typed").unwrap_err();
        assert_eq!(err, ProgramFailure::Exited { program: "false".into(), code: Some(1) });
        // Not installed: told apart from a failing one.
        let err = edit_with("no-such-editor-here", "typed").unwrap_err();
        assert_eq!(
            err,
            ProgramFailure::NotStarted {
                program: "no-such-editor-here".into(),
                kind: std::io::ErrorKind::NotFound
            }
        );
    }
}
