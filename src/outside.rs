//! What the main loop does beyond the screen: the bell, the clipboard, desktop notifications,
//! `$EDITOR`. They run on the UI task between frames, so nothing interleaves with drawing.
//! The binary uses [`Terminal`]; tests use [`Recorder`].

use crate::app::ProgramFailure;
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

pub trait Outside {
    /// Announce a new message.
    fn notify(&mut self, title: &str, body: &str);
    /// Put text on the clipboard.
    fn copy(&mut self, text: &str);
    /// Leave the screen, edit `text` in the user's editor, come back with the result.
    fn edit(&mut self, text: &str) -> Result<String, ProgramFailure>;
}

/// The real terminal on stdout.
#[derive(Debug, Default)]
pub struct Terminal {
    pub notify: NotifyMethod,
}

/// OSC 52: the terminal (or tmux, or the terminal at the other end of SSH) sets its clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64::engine::general_purpose::STANDARD.encode(text))
}

/// `notify-send`'s arguments: the untrusted title and body after `--`.
pub fn notify_send_args<'a>(title: &'a str, body: &'a str) -> [&'a str; 4] {
    ["--app-name=topicterm", "--", title, body]
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
    fn notify(&mut self, title: &str, body: &str) {
        match self.notify {
            NotifyMethod::None => {}
            NotifyMethod::Bell => self.write("\x07"),
            NotifyMethod::Desktop => {
                // Title and body are server text: after `--`, never read as options.
                let shown = std::process::Command::new("notify-send")
                    .args(notify_send_args(title, body))
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status();
                match shown {
                    Ok(s) if s.success() => {}
                    // It ran and failed (no notification service answering): the bell, this time.
                    Ok(s) => {
                        tracing::debug!("notify-send exited with {s}: rang the bell instead");
                        self.write("\x07");
                    }
                    // No notify-send here (a server, SSH, a bare console): the bell from now on.
                    Err(e) => {
                        tracing::info!("notifications by the bell: notify-send cannot be run ({e})");
                        self.notify = NotifyMethod::Bell;
                        self.write("\x07");
                    }
                }
            }
        }
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
    pub notifications: Vec<(String, String)>,
    pub copied: Vec<String>,
    /// What the "editor" returns: a fixed text, or an error.
    pub editor_result: Option<Result<String, ProgramFailure>>,
    pub edited: Vec<String>,
}

impl Outside for Recorder {
    fn notify(&mut self, title: &str, body: &str) {
        self.notifications.push((title.into(), body.into()));
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
