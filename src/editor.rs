//! The compose box's text editor: ratatui-textarea's editing (cursor movement, words, undo,
//! wrapping) behind a small interface, so that the pure core (`app`) holds an editor without
//! naming ratatui. `ui` draws it with [`Editor::widget`].

use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use crate::content::is_unsafe_char;
use ratatui_textarea::{CursorMove, Input, Key, TextArea, WrapMode};

#[derive(Debug, Clone)]
pub struct Editor(TextArea<'static>);

impl Editor {
    /// An editor holding `text`, the cursor at its end. A text ending in a newline leaves the
    /// cursor on a fresh line (lines are split, not `lines()`d).
    pub fn new(text: &str) -> Editor {
        let lines = text.split('\n').map(|l| kept(l.strip_suffix('\r').unwrap_or(l)));
        let mut area = TextArea::from(lines.collect::<Vec<_>>());
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        // Long lines wrap at words (long words at graphemes) rather than scroll sideways.
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        Editor(area)
    }

    /// The whole text, lines joined with `\n`.
    pub fn text(&self) -> String {
        self.0.lines().join("\n")
    }

    pub fn lines(&self) -> &[String] {
        self.0.lines()
    }

    /// (row, column in characters).
    pub fn cursor(&self) -> (usize, usize) {
        let c = self.0.cursor();
        (c.0, c.1)
    }

    /// Apply an editing key (characters, movement, deletion, undo …).
    pub fn input(&mut self, key: KeyEvent) {
        if matches!(key.code, KeyCode::Char(c) if is_unsafe_char(c)) {
            return;
        }
        self.0.input(input_of(key));
    }

    pub fn insert_str(&mut self, text: impl AsRef<str>) {
        let text: String =
            text.as_ref().chars().filter(|c| matches!(c, '\n' | '\t') || !is_unsafe_char(*c)).collect();
        self.0.insert_str(text);
    }

    /// Delete the character before the cursor.
    pub fn delete_char(&mut self) {
        self.0.delete_char();
    }

    /// What `ui` renders.
    pub fn widget(&self) -> &TextArea<'static> {
        &self.0
    }
}

/// The core's key as ratatui-textarea's input (its crossterm conversion, on the core's types).
fn input_of(key: KeyEvent) -> Input {
    let m = key.modifiers;
    let (ctrl, alt) = (m.contains(KeyModifiers::CONTROL), m.contains(KeyModifiers::ALT));
    let (key, shift) = match key.code {
        KeyCode::BackTab => (Key::Tab, true),
        KeyCode::Char(c) => (Key::Char(c), m.contains(KeyModifiers::SHIFT)),
        KeyCode::Backspace => (Key::Backspace, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Enter => (Key::Enter, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Left => (Key::Left, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Right => (Key::Right, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Up => (Key::Up, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Down => (Key::Down, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Tab => (Key::Tab, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Delete => (Key::Delete, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Home => (Key::Home, m.contains(KeyModifiers::SHIFT)),
        KeyCode::End => (Key::End, m.contains(KeyModifiers::SHIFT)),
        KeyCode::PageUp => (Key::PageUp, m.contains(KeyModifiers::SHIFT)),
        KeyCode::PageDown => (Key::PageDown, m.contains(KeyModifiers::SHIFT)),
        KeyCode::Esc => (Key::Esc, m.contains(KeyModifiers::SHIFT)),
        KeyCode::F(n) => (Key::F(n), m.contains(KeyModifiers::SHIFT)),
        KeyCode::Insert | KeyCode::Null => (Key::Null, m.contains(KeyModifiers::SHIFT)),
    };
    Input { key, ctrl, alt, shift }
}

/// A line as the editor keeps it: without what must never reach the terminal (the text can
/// come from the server: an edit's raw content) — tabs are kept, as typed.
fn kept(line: &str) -> String {
    line.chars().filter(|c| *c == '\t' || !is_unsafe_char(*c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_newline_leaves_the_cursor_on_a_fresh_line() {
        let e = Editor::new("quote\n");
        assert_eq!(e.lines(), ["quote", ""]);
        assert_eq!(e.cursor(), (1, 0));
        assert_eq!(e.text(), "quote\n");
        let mut e = Editor::new("a\r\nb");
        assert_eq!(e.text(), "a\nb");
        e.insert_str("c");
        e.delete_char();
        e.insert_str("d");
        assert_eq!(e.text(), "a\nbd");
    }

    #[test]
    fn what_must_never_reach_the_terminal_never_enters_the_text() {
        let mut e = Editor::new("a\u{202e}b\u{1b}[2J\tc\nd\u{2067}");
        assert_eq!(e.text(), "ab[2J\tc\nd");
        e.insert_str("\u{202e}x\ny\u{7}");
        assert_eq!(e.text(), "ab[2J\tc\ndx\ny");
        e.input(KeyEvent::new(KeyCode::Char('\u{202e}'), KeyModifiers::NONE));
        assert_eq!(e.text(), "ab[2J\tc\ndx\ny");
    }
}
