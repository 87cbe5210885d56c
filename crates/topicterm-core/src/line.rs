//! The one-line prompts' editor (`:`, `/`, `c`/`x`, retarget, attach, the panes' filters, …):
//! tui-input's editing (cursor, graphemes, words, a kill ring of one) behind a small interface, the
//! usual readline keys mapped onto it here, and the window of a long line that keeps the cursor in
//! view. The pure core holds a [`LineEditor`] without naming a terminal type; `ui` draws
//! [`LineEditor::view`].
//!
//! The text never holds a control character: typed, pasted and prefilled text (a topic name from
//! the server) are all filtered on the way in, so what is drawn is what is held.

use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
use crate::content::{display_width, is_unsafe_char};
use tui_input::{Input, InputRequest};
use unicode_segmentation::UnicodeSegmentation;

#[derive(Debug, Clone, Default)]
pub struct LineEditor(Input);

/// What a key did to the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The text changed (completions and filters follow it).
    Changed,
    /// Only the cursor moved.
    Moved,
    /// Not an editing key here, or nothing to do (left at the start).
    Nothing,
}

/// What fits of a line in a given width, split around the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct View {
    /// Text is hidden to the left (drawn as `…`).
    pub cut_left: bool,
    pub before: String,
    /// The grapheme under the cursor; empty when the cursor is at the end.
    pub at: String,
    pub after: String,
    /// Text is hidden to the right (drawn as `…`).
    pub cut_right: bool,
}

impl PartialEq for LineEditor {
    fn eq(&self, other: &Self) -> bool {
        self.0.value() == other.0.value() && self.0.cursor() == other.0.cursor()
    }
}

impl Eq for LineEditor {}

/// What may stand on the line: no control characters, and none of what the sanitiser keeps off
/// the terminal (bidi overrides and isolates, BOM…) — a prompt can be filled from server text.
fn printable(text: &str) -> String {
    text.chars().filter(|c| !is_unsafe_char(*c)).collect()
}

impl LineEditor {
    /// A line holding `text` (control characters dropped), the cursor at its end.
    pub fn new(text: &str) -> LineEditor {
        LineEditor(Input::new(printable(text)))
    }

    pub fn text(&self) -> &str {
        self.0.value()
    }

    /// The text before the cursor: what completion works on.
    pub fn before_cursor(&self) -> &str {
        let s = self.0.value();
        let byte = s.char_indices().nth(self.0.cursor()).map_or(s.len(), |(b, _)| b);
        &s[..byte]
    }

    /// Replace the whole text; the cursor goes to its end.
    pub fn set(&mut self, text: &str) {
        *self = LineEditor::new(text);
    }

    /// Insert at the cursor (control characters dropped).
    pub fn insert_str(&mut self, text: &str) {
        for c in text.chars().filter(|c| !is_unsafe_char(*c)) {
            self.0.handle(InputRequest::InsertChar(c));
        }
    }

    /// Delete up to `n` characters before the cursor.
    pub fn delete_before(&mut self, n: usize) {
        let cursor = self.0.cursor();
        let start = cursor.saturating_sub(n);
        let s = self.0.value();
        let mut chars: Vec<char> = s.chars().collect();
        chars.drain(start..cursor);
        let text: String = chars.into_iter().collect();
        self.0 = Input::new(text).with_cursor(start);
    }

    /// Apply an editing key: characters, left/right, home/end, ctrl+a/e/b/f/d/h/k/u/w/y,
    /// alt+b/f/d, alt+backspace, ctrl+left/right, delete.
    pub fn key(&mut self, key: &KeyEvent) -> Edit {
        let Some(req) = request(key) else { return Edit::Nothing };
        match self.0.handle(req) {
            Some(changed) if changed.value => Edit::Changed,
            Some(_) => Edit::Moved,
            None => Edit::Nothing,
        }
    }

    /// What of the line to draw in `width` columns (the cursor takes a cell of its own at the
    /// end), scrolled sideways so that the cursor is always in view.
    pub fn view(&self, width: usize) -> View {
        let gs: Vec<(&str, usize)> = self.0.value().graphemes(true).map(|g| (g, display_width(g))).collect();
        // The grapheme the cursor sits on (the cursor counts characters).
        let mut ci = gs.len();
        let mut chars = 0;
        for (i, (g, _)) in gs.iter().enumerate() {
            if chars >= self.0.cursor() {
                ci = i;
                break;
            }
            chars += g.chars().count();
        }
        let cell = |i: usize| gs.get(i).map_or(1, |g| g.1.max(1));
        let total: usize = gs.iter().map(|g| g.1).sum::<usize>() + usize::from(ci == gs.len());
        let (start, end) = if total <= width {
            (0, gs.len())
        } else {
            // From the start when the cursor is in the first screenful (one cell kept for `…`).
            let room = width.saturating_sub(1);
            let mut used = 0;
            let mut end = 0;
            while end < gs.len() && used + cell(end) <= room {
                used += cell(end);
                end += 1;
            }
            if ci < end {
                (0, end)
            } else {
                // Else the window ends at the cursor: `…` on the left, and on the right when
                // text follows it.
                let right = usize::from(ci + 1 < gs.len());
                let room = width.saturating_sub(1 + right);
                let mut used = cell(ci).min(room);
                let mut start = ci;
                while start > 0 && used + cell(start - 1) <= room {
                    start -= 1;
                    used += cell(start);
                }
                (start, (ci + 1).min(gs.len()))
            }
        };
        let join = |r: std::ops::Range<usize>| gs[r].iter().map(|g| g.0).collect::<String>();
        let (before, at, after) = if ci >= end {
            (join(start..end.min(ci)), String::new(), String::new())
        } else {
            (join(start..ci), gs[ci].0.to_owned(), join(ci + 1..end))
        };
        View { cut_left: start > 0, before, at, after, cut_right: end < gs.len() }
    }
}

/// The readline keys every prompt knows.
fn request(key: &KeyEvent) -> Option<InputRequest> {
    use InputRequest::*;
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT) || key.modifiers.contains(KeyModifiers::META);
    Some(match key.code {
        KeyCode::Left if ctrl || alt => GoToPrevWord,
        KeyCode::Right if ctrl || alt => GoToNextWord,
        KeyCode::Left => GoToPrevChar,
        KeyCode::Right => GoToNextChar,
        KeyCode::Home => GoToStart,
        KeyCode::End => GoToEnd,
        KeyCode::Backspace if ctrl || alt => DeletePrevWord,
        KeyCode::Backspace => DeletePrevChar,
        KeyCode::Delete if ctrl || alt => DeleteNextWord,
        KeyCode::Delete => DeleteNextChar,
        KeyCode::Char(c) if ctrl && !alt => match c.to_ascii_lowercase() {
            'a' => GoToStart,
            'e' => GoToEnd,
            'b' => GoToPrevChar,
            'f' => GoToNextChar,
            'h' => DeletePrevChar,
            'd' => DeleteNextChar,
            'k' => DeleteTillEnd,
            'u' => DeleteFromStart,
            'w' => DeletePrevWord,
            'y' => Yank,
            _ => return None,
        },
        KeyCode::Char(c) if alt && !ctrl => match c.to_ascii_lowercase() {
            'b' => GoToPrevWord,
            'f' => GoToNextWord,
            'd' => DeleteNextWord,
            _ => return None,
        },
        // AltGr arrives as ctrl+alt on some terminals: a character.
        KeyCode::Char(c) if !is_unsafe_char(c) => InsertChar(c),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_overrides_and_other_unsafe_characters_never_stand_on_the_line() {
        let mut l = LineEditor::new("evil\u{202e}txt.exe\u{2066}\u{feff}");
        assert_eq!(l.text(), "eviltxt.exe");
        l.insert_str("\u{202d}x\u{1b}[31m");
        assert_eq!(l.text(), "eviltxt.exex[31m");
        press(&mut l, KeyCode::Char('\u{202e}'), KeyModifiers::NONE);
        assert_eq!(l.text(), "eviltxt.exex[31m");
    }

    fn press(l: &mut LineEditor, code: KeyCode, m: KeyModifiers) -> Edit {
        l.key(&KeyEvent::new(code, m))
    }

    fn typed(l: &mut LineEditor, s: &str) {
        for c in s.chars() {
            press(l, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    fn shown(v: &View) -> String {
        let at = if v.at.is_empty() { "█" } else { &v.at };
        format!(
            "{}{}[{}]{}{}",
            if v.cut_left { "…" } else { "" },
            v.before,
            at,
            v.after,
            if v.cut_right { "…" } else { "" }
        )
    }

    #[test]
    fn the_readline_keys_edit_anywhere_in_the_line() {
        let mut l = LineEditor::new("fresh topic from alice");
        // ctrl+u from the end clears the prefilled text: a rename is not appended to the old name.
        assert_eq!(press(&mut l, KeyCode::Char('u'), KeyModifiers::CONTROL), Edit::Changed);
        assert_eq!(l.text(), "");
        typed(&mut l, "renamed topic X");
        assert_eq!(press(&mut l, KeyCode::Char('w'), KeyModifiers::CONTROL), Edit::Changed);
        assert_eq!(l.text(), "renamed topic ");
        assert_eq!(press(&mut l, KeyCode::Char('a'), KeyModifiers::CONTROL), Edit::Moved);
        typed(&mut l, "a ");
        assert_eq!(l.text(), "a renamed topic ");
        // alt+f goes to the start of the next word.
        press(&mut l, KeyCode::Char('f'), KeyModifiers::ALT);
        assert_eq!(l.before_cursor(), "a renamed ");
        press(&mut l, KeyCode::Char('k'), KeyModifiers::CONTROL);
        assert_eq!(l.text(), "a renamed ");
        press(&mut l, KeyCode::Char('y'), KeyModifiers::CONTROL);
        assert_eq!(l.text(), "a renamed topic ");
        press(&mut l, KeyCode::Home, KeyModifiers::NONE);
        press(&mut l, KeyCode::Right, KeyModifiers::NONE);
        press(&mut l, KeyCode::Delete, KeyModifiers::NONE);
        assert_eq!(l.text(), "arenamed topic ");
        press(&mut l, KeyCode::End, KeyModifiers::NONE);
        press(&mut l, KeyCode::Char('b'), KeyModifiers::ALT);
        press(&mut l, KeyCode::Left, KeyModifiers::NONE);
        assert_eq!(l.before_cursor(), "arenamed");
        assert_eq!(press(&mut l, KeyCode::Left, KeyModifiers::CONTROL), Edit::Moved);
        assert_eq!(l.before_cursor(), "");
        assert_eq!(press(&mut l, KeyCode::Left, KeyModifiers::NONE), Edit::Nothing);
        // Keys the prompt itself handles are no edits.
        assert_eq!(press(&mut l, KeyCode::Enter, KeyModifiers::NONE), Edit::Nothing);
        assert_eq!(press(&mut l, KeyCode::Char('g'), KeyModifiers::CONTROL), Edit::Nothing);
    }

    #[test]
    fn control_characters_never_get_in() {
        let mut l = LineEditor::new("a\u{1b}[31mb\nc");
        assert_eq!(l.text(), "a[31mbc");
        l.insert_str("\u{7}d\te");
        assert_eq!(l.text(), "a[31mbcde");
    }

    #[test]
    fn completion_replaces_what_is_before_the_cursor() {
        let mut l = LineEditor::new("general>rel");
        l.delete_before(3);
        l.insert_str("release 2.4");
        assert_eq!(l.text(), "general>release 2.4");
        press(&mut l, KeyCode::Char('a'), KeyModifiers::CONTROL);
        l.delete_before(3);
        assert_eq!(l.text(), "general>release 2.4");
    }

    #[test]
    fn a_long_line_scrolls_to_keep_the_cursor_in_view() {
        let text = "general>an extremely long topic name that fills all sixty characters";
        let mut l = LineEditor::new(text);
        // The cursor at the end: the end of the text is shown, cut on the left.
        let v = l.view(20);
        assert_eq!(shown(&v), format!("…{}[█]", &text[text.len() - 18..]));
        assert_eq!(display_width(&shown(&v)) - 2, 20);
        // At the start: the start is shown, cut on the right.
        press(&mut l, KeyCode::Home, KeyModifiers::NONE);
        assert_eq!(shown(&l.view(20)), "[g]eneral>an extremel…");
        // In the middle: cut on both sides, the cursor inside.
        for _ in 0..40 {
            press(&mut l, KeyCode::Right, KeyModifiers::NONE);
        }
        let v = l.view(20);
        assert!(v.cut_left && v.cut_right, "{v:?}");
        assert_eq!(v.at, &text[40..41]);
        assert_eq!(display_width(&shown(&v)) - 2, 20);
        // A short line is shown whole.
        assert_eq!(shown(&LineEditor::new("gen").view(20)), "gen[█]");
    }

    #[test]
    fn wide_characters_keep_the_window_in_width() {
        let mut l = LineEditor::new(&"日本語".repeat(10));
        for w in [5, 6, 7, 20] {
            let v = l.view(w);
            assert!(display_width(&shown(&v)) - 2 <= w, "{w}: {v:?}");
        }
        press(&mut l, KeyCode::Home, KeyModifiers::NONE);
        let v = l.view(7);
        assert_eq!(v.at, "日");
        assert!(display_width(&shown(&v)) - 2 <= 7, "{v:?}");
    }
}
