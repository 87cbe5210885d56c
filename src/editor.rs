//! The compose box's text editor: ratatui-textarea's editing (cursor movement, words, undo,
//! wrapping) behind a small interface, so that the pure core (`app`) holds an editor without
//! naming ratatui. `ui` draws it with [`Editor::widget`].

use crossterm::event::KeyEvent;
use ratatui_textarea::{CursorMove, TextArea, WrapMode};

#[derive(Debug, Clone)]
pub struct Editor(TextArea<'static>);

impl Editor {
    /// An editor holding `text`, the cursor at its end. A text ending in a newline leaves the
    /// cursor on a fresh line (lines are split, not `lines()`d).
    pub fn new(text: &str) -> Editor {
        let lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned());
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
        self.0.input(key);
    }

    pub fn insert_str(&mut self, text: impl AsRef<str>) {
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
}
