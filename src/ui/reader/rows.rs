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

/// A list popup filling `area`: its heading, then `len` rows, `sel` selected; the selected
/// row's screen row.
pub(super) fn list(
    f: &mut Frame,
    pane: &mut Pane,
    area: Rect,
    head: &str,
    len: usize,
    sel: usize,
    text: impl Fn(usize) -> String,
) -> Option<u16> {
    plain_row(f, pane.t, area, 0, head, false);
    let body = Rect { y: area.y + 1, height: area.height.saturating_sub(1), ..area };
    let h = body.height as usize;
    let top = keep_in_view(pane.memory.popup_top, sel, h, len);
    pane.memory.popup_top = top;
    let mut cursor = None;
    for (k, i) in (top..len).take(h).enumerate() {
        plain_row(f, pane.t, body, k as u16, &text(i), i == sel);
        if i == sel {
            cursor = Some(body.y + k as u16);
        }
    }
    cursor
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
    plain_row(f, t, area, 0, head, false);
    let body = Rect { y: area.y + 1, height: area.height.saturating_sub(1), ..area };
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

/// The first row shown of a list of `len` rows whose row `sel` is selected, `h` rows high: the
/// last frame's first row, moved only as far as the selection needs (so moving the selection
/// within the screen repaints only the two rows that change).
pub(super) fn keep_in_view(prev_top: usize, sel: usize, h: usize, len: usize) -> usize {
    if h == 0 || len == 0 {
        return 0;
    }
    let mut top = prev_top.min(len - 1);
    if sel < top {
        top = sel;
    } else if sel >= top + h {
        top = sel + 1 - h;
    }
    top
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

    #[test]
    fn the_list_scrolls_only_when_the_selection_leaves_the_screen() {
        assert_eq!(keep_in_view(0, 5, 10, 100), 0);
        assert_eq!(keep_in_view(0, 10, 10, 100), 1);
        assert_eq!(keep_in_view(5, 7, 10, 100), 5);
        assert_eq!(keep_in_view(5, 3, 10, 100), 3);
    }
}
