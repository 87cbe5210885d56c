//! What the screen-reader views share: a pane being drawn (the theme, what the mode keeps
//! between frames, the hit map), a row of plain text, and text wrapped at words.

use super::super::common::{HitMap, ReaderMemory, clip};
use super::super::theme::Theme;
use crate::content::display_width;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// A pane being drawn in the screen-reader mode.
pub(super) struct Pane<'a> {
    pub(super) t: &'a Theme,
    pub(super) memory: &'a mut ReaderMemory,
    pub(super) hits: &'a mut HitMap,
}

/// Row `k` of `area`: `text`, clipped to the width; the selected row in the selection's style
/// over its text only (not the whole width, and no other row: moving the selection changes two
/// rows).
pub(super) fn plain_row(f: &mut Frame, t: &Theme, area: Rect, k: u16, text: &str, selected: bool) {
    if k >= area.height {
        return;
    }
    let row = Rect { y: area.y + k, height: 1, ..area };
    let style = if selected { t.selected } else { Style::new() };
    f.render_widget(Paragraph::new(Line::styled(clip(text, area.width as usize), style)), row);
}

/// A heading atop `area`, wrapped at words (on at most half its rows); the rest of `area`.
pub(super) fn heading(f: &mut Frame, t: &Theme, area: Rect, head: &str) -> Rect {
    let rows = wrap(head, area.width as usize);
    let n = rows.len().min((usize::from(area.height) / 2).max(1));
    for (k, row) in rows.iter().take(n).enumerate() {
        plain_row(f, t, area, k as u16, row, false);
    }
    let n = n as u16;
    Rect { y: area.y + n, height: area.height.saturating_sub(n), ..area }
}

/// A list popup filling `area`: its heading, then `len` entries, `sel` selected, each wrapped
/// into as many rows as it needs; the selected entry's first screen row.
pub(super) fn list(
    f: &mut Frame,
    pane: &mut Pane,
    area: Rect,
    head: &str,
    len: usize,
    sel: usize,
    text: impl Fn(usize) -> String,
) -> Option<u16> {
    let body = heading(f, pane.t, area, head);
    let laid = entries(f, pane.t, body, (pane.memory.popup_top, len, sel), text);
    pane.memory.popup_top = laid.top;
    laid.cursor
}

/// A list as [`entries`] laid it on screen.
pub(super) struct Laid {
    /// The first entry shown.
    pub(super) top: usize,
    /// The screen row of the selected entry's first row.
    pub(super) cursor: Option<u16>,
    /// The entry on each screen row, top to bottom (what a click there means).
    pub(super) owners: Vec<usize>,
}

/// `len` entries of a list filling `body`, `sel` selected: each entry's text wrapped at words
/// into as many rows as it needs — never cut at the screen's width, where a row's end (a
/// time, a count) would be lost — the selection's first row marked (moving it repaints two
/// rows). The first entry shown
/// is `prev_top` (the last frame's) while the selection stays on screen, else as far up as
/// lets the selection end on the last row (or start on the first, when it takes more).
pub(super) fn entries(
    f: &mut Frame,
    t: &Theme,
    body: Rect,
    (prev_top, len, sel): (usize, usize, usize),
    text: impl Fn(usize) -> String,
) -> Laid {
    let (w, h) = (body.width as usize, body.height as usize);
    let mut laid = Laid { top: 0, cursor: None, owners: Vec::new() };
    if h == 0 || len == 0 {
        return laid;
    }
    let sel = sel.min(len - 1);
    let mut rows: std::collections::HashMap<usize, Vec<String>> = std::collections::HashMap::new();
    let mut rows_of = |i: usize| rows.entry(i).or_insert_with(|| wrap(&text(i), w)).clone();
    let mut top = prev_top.min(sel);
    let mut fit = sel;
    let mut used = rows_of(sel).len();
    while fit > top {
        let n = rows_of(fit - 1).len();
        if used + n > h {
            break;
        }
        used += n;
        fit -= 1;
    }
    top = top.max(fit);
    laid.top = top;
    let mut k = 0;
    for i in top..len {
        for (r, row) in rows_of(i).iter().enumerate() {
            if k >= h {
                return laid;
            }
            if i == sel && r == 0 {
                laid.cursor = Some(body.y + k as u16);
            }
            plain_row(f, t, body, k as u16, row, i == sel && r == 0);
            laid.owners.push(i);
            k += 1;
        }
    }
    laid
}

/// A popup of text filling `area`: its heading, then `paragraphs` wrapped at words (an empty
/// one is a blank row), from row `scroll` on — no further than its last row at the bottom, that
/// largest useful scroll left in the state for the keys, as the default view does. The cursor's
/// row: the first row of text.
pub(super) fn scrolled(
    f: &mut Frame,
    st: &crate::app::State,
    t: &Theme,
    area: Rect,
    head: &str,
    paragraphs: &[String],
    scroll: u16,
) -> Option<u16> {
    let body = heading(f, t, area, head);
    let rows: Vec<String> = paragraphs.iter().flat_map(|p| wrap(p, body.width as usize)).collect();
    let bottom = rows.len().saturating_sub(body.height as usize);
    let bottom = u16::try_from(bottom).unwrap_or(u16::MAX);
    st.ui.popup_bottom.set(Some(bottom));
    let top = usize::from(scroll.min(bottom));
    for (k, text) in rows.iter().skip(top).take(body.height as usize).enumerate() {
        plain_row(f, t, body, k as u16, text, false);
    }
    Some(if body.height > 0 && !rows.is_empty() { body.y } else { area.y })
}

/// Marks joined as words after a name, the empty ones left out: `design, private, unread 3`.
pub(super) fn with_marks(name: String, marks: &[String]) -> String {
    let mut s = name;
    for m in marks.iter().filter(|m| !m.is_empty()) {
        s.push_str(", ");
        s.push_str(m);
    }
    s
}

/// `text` in rows of at most `width` columns, broken at spaces (a word longer than a row is
/// broken where the row ends). Never empty.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = vec![String::new()];
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let last = rows.last_mut().expect("a row");
        let used = display_width(last);
        let w = display_width(word);
        if used > 0 && used + 1 + w <= width {
            last.push(' ');
            last.push_str(word);
            continue;
        }
        if used == 0 && w <= width {
            last.push_str(word);
            continue;
        }
        if used > 0 {
            rows.push(String::new());
        }
        // Fill rows a character at a time with a word too long for one.
        for c in word.chars() {
            let last = rows.last_mut().expect("a row");
            let cw = display_width(c.encode_utf8(&mut [0; 4]));
            if display_width(last) + cw > width && !last.is_empty() {
                rows.push(String::new());
            }
            rows.last_mut().expect("a row").push(c);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_and_long_words_break() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), vec![""]);
        assert_eq!(wrap("a abcdefgh", 4), vec!["a", "abcd", "efgh"]);
    }
}
