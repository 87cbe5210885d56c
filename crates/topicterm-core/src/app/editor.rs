//! The compose box's text editor, plain: lines of text, a cursor, a selection, a yank buffer
//! and undo/redo, edited by the core's keys ([`super::keys`]). Its key table is
//! ratatui-textarea 0.9.4's default one (`TextArea::input`), which the box used before the core
//! became a crate of its own, so the keys do what they did: characters, enter, tab,
//! backspace/delete, ctrl+h/d/k/j/w, alt+backspace/delete/h/d, arrows, home/end, ctrl+a/e/f/b/n/p,
//! word moves (ctrl+arrows, alt+f/b), paragraph moves (ctrl+↑↓, alt+[/]/p/n), alt+</> top and
//! bottom, shift+moves select, ctrl+c/x/y copy, cut and paste, ctrl+u/r undo and redo, pgup/pgdn
//! and ctrl+v/alt+v a page.
//!
//! Owns: the text and every position in it. What never enters the text: the characters
//! `content::is_unsafe_char` names (tabs and newlines aside), whether typed, inserted or given to
//! [`Editor::new`]. Knows nothing of drawing: `ui::editor` builds what ratatui draws from
//! [`Editor::lines`], [`Editor::cursor`] and [`Editor::selection`], wrapping the lines and keeping
//! the cursor in view. What the drawing knows and the text does not (where long lines wrap) is
//! why ↑/↓ move by a line of the text here, not by a row of the wrapped box, and a page is the
//! box's height in lines of text.
//!
//! Start at [`Editor::input`].

use super::keys::{KeyCode, KeyEvent, KeyModifiers};
use crate::content::is_unsafe_char;
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use unicode_width::UnicodeWidthChar;

/// Undo steps kept (ratatui-textarea's default).
const HISTORY: usize = 50;
/// The columns a tab stops at: tab inserts spaces to the next stop.
const TAB: usize = 4;

/// (row, column in characters).
pub type Pos = (usize, usize);

/// One step of the history: the lines as they were on the other side of the step, with the
/// cursor there, and the cursor on this side.
#[derive(Debug, Clone)]
struct Step {
    lines: Vec<String>,
    cursor: Pos,
    /// Where the cursor goes when the step is taken again.
    back: Pos,
}

#[derive(Debug, Clone)]
pub struct Editor {
    lines: Vec<String>,
    cursor: Pos,
    /// Where a selection started (shift+move); it ends at the cursor.
    anchor: Option<Pos>,
    /// What ctrl+y pastes: one piece of a line, or several lines.
    yank: Vec<String>,
    undo: VecDeque<Step>,
    redo: Vec<Step>,
    /// Which box this is (clones share it): the drawing keeps its scroll per box.
    id: u64,
    /// The box's height in rows at the last frame drawn: a page for pgup/pgdn. Written by the
    /// drawing (`ui::editor`), as ratatui-textarea kept its viewport.
    page: Cell<u16>,
}

/// The moves of the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Move {
    Forward,
    Back,
    Up,
    Down,
    Head,
    End,
    Top,
    Bottom,
    WordForward,
    WordBack,
    ParagraphForward,
    ParagraphBack,
    PageDown,
    PageUp,
}

impl Editor {
    /// An editor holding `text`, the cursor at its end. A text ending in a newline leaves the
    /// cursor on a fresh line (lines are split, not `lines()`d).
    pub fn new(text: &str) -> Editor {
        static BOXES: AtomicU64 = AtomicU64::new(0);
        let lines: Vec<String> = text.split('\n').map(|l| kept(l.strip_suffix('\r').unwrap_or(l))).collect();
        let row = lines.len() - 1;
        let cursor = (row, lines[row].chars().count());
        Editor {
            lines,
            cursor,
            anchor: None,
            yank: vec![String::new()],
            undo: VecDeque::new(),
            redo: Vec::new(),
            id: BOXES.fetch_add(1, Ordering::Relaxed),
            page: Cell::new(0),
        }
    }

    /// The whole text, lines joined with `\n`.
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// The lines (never none: an empty text is one empty line).
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// (row, column in characters).
    pub fn cursor(&self) -> Pos {
        self.cursor
    }

    /// Where the selection starts, when there is one (it ends at the cursor).
    pub fn selection(&self) -> Option<Pos> {
        self.anchor
    }

    /// Which box this is: a fresh number per [`Editor::new`], kept by clones.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The drawing says how many rows the box shows (a page for pgup/pgdn).
    pub fn shown_rows(&self, rows: u16) {
        self.page.set(rows);
    }

    /// Apply an editing key (characters, movement, deletion, undo …): ratatui-textarea's
    /// default key table, in its order.
    pub fn input(&mut self, key: KeyEvent) {
        use KeyCode::*;
        if matches!(key.code, Char(c) if is_unsafe_char(c)) {
            return;
        }
        let m = key.modifiers;
        let (ctrl, alt) = (m.contains(KeyModifiers::CONTROL), m.contains(KeyModifiers::ALT));
        // Shift+tab arrives as backtab: tab with shift.
        let (code, shift) = match key.code {
            BackTab => (Tab, true),
            code => (code, m.contains(KeyModifiers::SHIFT)),
        };
        let go = |e: &mut Editor, to: Move| e.go(to, shift);
        match (code, ctrl, alt) {
            (Char('m'), true, false) | (Char('\n' | '\r'), false, false) | (Enter, _, _) => {
                self.insert_newline()
            }
            (Char(c), false, false) => self.insert_char(c),
            (Tab, false, false) => {
                self.insert_tab();
            }
            (Char('h'), true, false) | (Backspace, false, false) => {
                self.delete_char();
            }
            (Char('d'), true, false) | (Delete, false, false) => {
                self.delete_next_char();
            }
            (Char('k'), true, false) => self.delete_line_by_end(),
            (Char('j'), true, false) => self.delete_line_by_head(),
            (Char('w'), true, false) | (Char('h') | Backspace, false, true) => self.delete_word(),
            (Delete | Char('d'), false, true) => self.delete_next_word(),
            (Char('n'), true, false) | (Down, false, false) => go(self, Move::Down),
            (Char('p'), true, false) | (Up, false, false) => go(self, Move::Up),
            (Char('f'), true, false) | (Right, false, false) => go(self, Move::Forward),
            (Char('b'), true, false) | (Left, false, false) => go(self, Move::Back),
            (Char('a'), true, false) | (Home, _, _) | (Left | Char('b'), true, true) => go(self, Move::Head),
            (Char('e'), true, false) | (End, _, _) | (Right | Char('f'), true, true) => go(self, Move::End),
            (Char('<'), false, true) | (Up | Char('p'), true, true) => go(self, Move::Top),
            (Char('>'), false, true) | (Down | Char('n'), true, true) => go(self, Move::Bottom),
            (Char('f'), false, true) | (Right, true, false) => go(self, Move::WordForward),
            (Char('b'), false, true) | (Left, true, false) => go(self, Move::WordBack),
            (Char(']' | 'n'), false, true) | (Down, true, false) => go(self, Move::ParagraphForward),
            (Char('[' | 'p'), false, true) | (Up, true, false) => go(self, Move::ParagraphBack),
            (Char('u'), true, false) => self.undo(),
            (Char('r'), true, false) => self.redo(),
            (Char('y'), true, false) => self.paste(),
            (Char('x'), true, false) => {
                self.delete_selection(true);
            }
            (Char('c'), true, false) => self.copy(),
            (Char('v'), true, false) | (PageDown, _, _) => go(self, Move::PageDown),
            (Char('v'), false, true) | (PageUp, _, _) => go(self, Move::PageUp),
            _ => {}
        }
    }

    /// Insert text at the cursor (over the selection), without what must never reach the
    /// terminal (tabs and newlines are kept).
    pub fn insert_str(&mut self, text: impl AsRef<str>) {
        self.delete_selection(false);
        let text: String =
            text.as_ref().chars().filter(|c| matches!(c, '\n' | '\t') || !is_unsafe_char(*c)).collect();
        let lines: Vec<String> =
            text.split('\n').map(|s| s.strip_suffix('\r').unwrap_or(s).to_owned()).collect();
        self.insert_lines(lines);
    }

    /// Delete the character before the cursor (or the selection); at the start of a line, join
    /// it to the one above.
    pub fn delete_char(&mut self) -> bool {
        if self.delete_selection(false) {
            return true;
        }
        let (row, col) = self.cursor;
        if col == 0 {
            return self.delete_newline();
        }
        let before = self.lines.clone();
        let at = offset(&self.lines[row], col - 1);
        self.lines[row].remove(at);
        self.cursor.1 -= 1;
        self.record(before, (row, col));
        true
    }

    // The edits. Each records one step of the history, as ratatui-textarea's did, with the
    // cursor it records.

    fn insert_char(&mut self, c: char) {
        self.delete_selection(false);
        let (row, col) = self.cursor;
        let before = self.lines.clone();
        let at = offset(&self.lines[row], col);
        self.lines[row].insert(at, c);
        self.cursor.1 += 1;
        self.record(before, (row, col));
    }

    fn insert_newline(&mut self) {
        self.delete_selection(false);
        let (row, col) = self.cursor;
        let before = self.lines.clone();
        let at = offset(&self.lines[row], col);
        let rest = self.lines[row].split_off(at);
        self.lines.insert(row + 1, rest);
        self.cursor = (row + 1, 0);
        self.record(before, (row, col));
    }

    /// Spaces to the next tab stop.
    fn insert_tab(&mut self) -> bool {
        let removed = self.delete_selection(false);
        let (row, col) = self.cursor;
        let width: usize = self.lines[row].chars().take(col).map(|c| c.width().unwrap_or(0)).sum();
        self.insert_lines(vec![" ".repeat(TAB - width % TAB)]) || removed
    }

    /// Insert one piece of a line, or several lines, at the cursor.
    fn insert_lines(&mut self, mut lines: Vec<String>) -> bool {
        if lines.len() == 1 && lines[0].is_empty() || lines.is_empty() {
            return false;
        }
        let (row, col) = self.cursor;
        let before = self.lines.clone();
        let at = offset(&self.lines[row], col);
        if lines.len() == 1 {
            self.lines[row].insert_str(at, &lines[0]);
            self.cursor.1 += lines[0].chars().count();
        } else {
            let tail = self.lines[row].split_off(at);
            let first = lines.remove(0);
            self.lines[row].push_str(&first);
            let end = (row + lines.len(), lines[lines.len() - 1].chars().count());
            if let Some(last) = lines.last_mut() {
                last.push_str(&tail);
            }
            self.lines.splice(row + 1..row + 1, lines);
            self.cursor = end;
        }
        self.record(before, (row, col));
        true
    }

    /// Join the cursor's line to the one above.
    fn delete_newline(&mut self) -> bool {
        if self.delete_selection(false) {
            return true;
        }
        let row = self.cursor.0;
        if row == 0 {
            return false;
        }
        let before = self.lines.clone();
        let line = self.lines.remove(row);
        let above = &mut self.lines[row - 1];
        self.cursor = (row - 1, above.chars().count());
        above.push_str(&line);
        self.record(before, (row, 0));
        true
    }

    fn delete_next_char(&mut self) -> bool {
        if self.delete_selection(false) {
            return true;
        }
        let was = self.cursor;
        self.go(Move::Forward, false);
        if was == self.cursor {
            return false;
        }
        self.delete_char()
    }

    /// ctrl+k: to the end of the line (yanked); at its end, the line break.
    fn delete_line_by_end(&mut self) {
        if self.delete_selection(false) || self.delete_piece(self.cursor.1, usize::MAX) {
            return;
        }
        self.delete_next_char();
    }

    /// ctrl+j: to the start of the line (yanked); at its start, the line break.
    fn delete_line_by_head(&mut self) {
        if self.delete_selection(false) || self.delete_piece(0, self.cursor.1) {
            return;
        }
        self.delete_newline();
    }

    /// ctrl+w, alt+backspace: the word before the cursor (yanked).
    fn delete_word(&mut self) {
        if self.delete_selection(false) {
            return;
        }
        let (row, col) = self.cursor;
        if let Some(start) = word_start_backward(&self.lines[row], col) {
            self.delete_piece(start, col - start);
        } else if col > 0 {
            self.delete_piece(0, col);
        } else {
            self.delete_newline();
        }
    }

    /// alt+delete, alt+d: the word after the cursor (yanked).
    fn delete_next_word(&mut self) {
        if self.delete_selection(false) {
            return;
        }
        let (row, col) = self.cursor;
        let line = &self.lines[row];
        if let Some(end) = word_exclusive_end_forward(line, col) {
            self.delete_piece(col, end - col);
        } else {
            let len = line.chars().count();
            if col < len {
                self.delete_piece(col, len - col);
            } else if row + 1 < self.lines.len() {
                self.cursor = (row + 1, 0);
                self.delete_newline();
            }
        }
    }

    /// Delete up to `chars` characters of the cursor's line from column `col`, yanked; the
    /// cursor goes to `col`.
    fn delete_piece(&mut self, col: usize, chars: usize) -> bool {
        let row = self.cursor.0;
        let line = &self.lines[row];
        if chars == 0 || col >= line.chars().count() {
            return false;
        }
        let before = self.lines.clone();
        let start = offset(line, col);
        let taken = chars.min(line.chars().count() - col);
        let end = offset(line, col + taken);
        let removed: String = self.lines[row].drain(start..end).collect();
        self.cursor = (row, col);
        self.record(before, (row, col + taken));
        self.yank = vec![removed];
        true
    }

    /// The selection's ends in text order, when it holds anything.
    fn selected(&self) -> Option<(Pos, Pos)> {
        let a = self.anchor?;
        match a.cmp(&self.cursor) {
            std::cmp::Ordering::Less => Some((a, self.cursor)),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some((self.cursor, a)),
        }
    }

    /// The selected text, as lines.
    fn selected_lines(&self, (s, e): (Pos, Pos)) -> Vec<String> {
        let (so, eo) = (offset(&self.lines[s.0], s.1), offset(&self.lines[e.0], e.1));
        if s.0 == e.0 {
            return vec![self.lines[s.0][so..eo].to_owned()];
        }
        let mut out = vec![self.lines[s.0][so..].to_owned()];
        out.extend(self.lines[s.0 + 1..e.0].iter().cloned());
        out.push(self.lines[e.0][..eo].to_owned());
        out
    }

    /// Delete the selection (yanked when `yank`); the selection ends either way.
    fn delete_selection(&mut self, yank: bool) -> bool {
        let Some((s, e)) = self.selected() else {
            self.anchor = None;
            return false;
        };
        self.anchor = None;
        let removed = self.selected_lines((s, e));
        let before = self.lines.clone();
        let (so, eo) = (offset(&self.lines[s.0], s.1), offset(&self.lines[e.0], e.1));
        let tail = self.lines[e.0][eo..].to_owned();
        self.lines[s.0].truncate(so);
        self.lines[s.0].push_str(&tail);
        self.lines.drain(s.0 + 1..=e.0);
        self.cursor = s;
        self.record(before, e);
        if yank {
            self.yank = removed;
        }
        true
    }

    fn copy(&mut self) {
        if let Some(range) = self.selected() {
            self.yank = self.selected_lines(range);
        }
        self.anchor = None;
    }

    fn paste(&mut self) {
        self.delete_selection(false);
        self.insert_lines(self.yank.clone());
    }

    /// Note an edit: the lines before it, and the cursor undoing it puts back.
    fn record(&mut self, lines: Vec<String>, cursor: Pos) {
        self.redo.clear();
        if self.undo.len() == HISTORY {
            self.undo.pop_front();
        }
        self.undo.push_back(Step { lines, cursor, back: self.cursor });
    }

    fn undo(&mut self) {
        let Some(step) = self.undo.pop_back() else { return };
        let lines = std::mem::replace(&mut self.lines, step.lines);
        self.redo.push(Step { lines, cursor: step.back, back: step.cursor });
        self.restore(step.cursor);
    }

    fn redo(&mut self) {
        let Some(step) = self.redo.pop() else { return };
        let lines = std::mem::replace(&mut self.lines, step.lines);
        self.undo.push_back(Step { lines, cursor: step.back, back: step.cursor });
        self.restore(step.cursor);
    }

    /// The cursor after undo or redo, kept inside the text; no selection.
    fn restore(&mut self, (row, col): Pos) {
        self.anchor = None;
        let row = row.min(self.lines.len() - 1);
        self.cursor = (row, col.min(self.lines[row].chars().count()));
    }

    /// Move the cursor; with shift, the selection starts (or goes on) from where it was.
    fn go(&mut self, to: Move, shift: bool) {
        let Some(next) = self.next(to) else { return };
        if !shift {
            self.anchor = None;
        } else if self.anchor.is_none() {
            self.anchor = Some(self.cursor);
        }
        self.cursor = next;
    }

    fn len(&self, row: usize) -> usize {
        self.lines[row].chars().count()
    }

    /// Where a move takes the cursor, if anywhere.
    fn next(&self, to: Move) -> Option<Pos> {
        let (row, col) = self.cursor;
        let last = self.lines.len() - 1;
        let page = usize::from(self.page.get().max(1));
        let at = |row: usize| (row, col.min(self.len(row)));
        Some(match to {
            Move::Forward if col >= self.len(row) => (row < last).then_some((row + 1, 0))?,
            Move::Forward => (row, col + 1),
            Move::Back if col == 0 => (row.checked_sub(1)?, self.len(row.checked_sub(1)?)),
            Move::Back => (row, col - 1),
            Move::Up => at(row.checked_sub(1)?),
            Move::Down => at((row < last).then_some(row + 1)?),
            Move::Head => (row, 0),
            Move::End => (row, self.len(row)),
            Move::Top => at(0),
            Move::Bottom => at(last),
            Move::WordForward => match word_start_forward(&self.lines[row], col) {
                Some(c) => (row, c),
                None if row < last => (row + 1, 0),
                None => (row, self.len(row)),
            },
            Move::WordBack => match word_start_backward(&self.lines[row], col) {
                Some(c) => (row, c),
                None if row > 0 => (row - 1, self.len(row - 1)),
                None => (row, 0),
            },
            Move::ParagraphForward => {
                let mut prev_empty = self.lines[row].is_empty();
                for r in row + 1..=last {
                    let empty = self.lines[r].is_empty();
                    if !empty && prev_empty {
                        return Some(at(r));
                    }
                    prev_empty = empty;
                }
                at(last)
            }
            Move::ParagraphBack => {
                let above = row.checked_sub(1)?;
                let mut prev_empty = self.lines[above].is_empty();
                for r in (0..above).rev() {
                    let empty = self.lines[r].is_empty();
                    if empty && !prev_empty {
                        return Some(at(r + 1));
                    }
                    prev_empty = empty;
                }
                at(0)
            }
            Move::PageDown => at((row + page).min(last)),
            Move::PageUp => at(row.saturating_sub(page)),
        })
    }
}

/// The byte offset of character `col` of `line` (its end past the last).
fn offset(line: &str, col: usize) -> usize {
    line.char_indices().nth(col).map_or(line.len(), |(i, _)| i)
}

/// A line as the editor keeps it: without what must never reach the terminal (the text can
/// come from the server: an edit's raw content) — tabs are kept, as typed.
fn kept(line: &str) -> String {
    line.chars().filter(|c| *c == '\t' || !is_unsafe_char(*c)).collect()
}

// Words, as ratatui-textarea finds them: runs of spaces, of ASCII punctuation, of the rest.

#[derive(PartialEq, Eq, Clone, Copy)]
enum CharKind {
    Space,
    Punct,
    Other,
}

impl CharKind {
    fn of(c: char) -> CharKind {
        if c.is_whitespace() {
            CharKind::Space
        } else if c != '_' && c.is_ascii_punctuation() {
            CharKind::Punct
        } else {
            CharKind::Other
        }
    }
}

fn word_start_forward(line: &str, start: usize) -> Option<usize> {
    let mut it = line.chars().enumerate().skip(start);
    let mut prev = CharKind::of(it.next()?.1);
    for (col, c) in it {
        let cur = CharKind::of(c);
        if cur != CharKind::Space && prev != cur {
            return Some(col);
        }
        prev = cur;
    }
    None
}

fn word_exclusive_end_forward(line: &str, start: usize) -> Option<usize> {
    let mut it = line.chars().enumerate().skip(start);
    let mut prev = CharKind::of(it.next()?.1);
    for (col, c) in it {
        let cur = CharKind::of(c);
        if prev != CharKind::Space && prev != cur {
            return Some(col);
        }
        prev = cur;
    }
    None
}

fn word_start_backward(line: &str, start: usize) -> Option<usize> {
    let mut it = line[..offset(line, start)].chars().rev().enumerate();
    let mut cur = CharKind::of(it.next()?.1);
    for (i, c) in it {
        let next = CharKind::of(c);
        if cur != CharKind::Space && next != cur {
            return Some(start - i);
        }
        cur = next;
    }
    (cur != CharKind::Space).then_some(0)
}

#[cfg(test)]
#[path = "editor_tests.rs"]
mod tests;
