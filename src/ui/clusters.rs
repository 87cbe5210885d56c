//! Multi-character graphemes that terminals draw differently from ratatui.

/// The most cells a terminal may give a grapheme: each of its characters drawn on its own.
fn widest_drawing(g: &str) -> u16 {
    g.chars().map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) as u16).sum()
}

/// Wide graphemes of several characters (flags made of two regional indicators, ZWJ sequences,
/// keycaps, skin tones, VS16 emoji) are one cell pair to ratatui, which then writes only the
/// first cell when such a grapheme is replaced and leaves the second alone. Many terminals
/// (tmux, xterm) keep them as separate characters instead, so writing the first cell clears only
/// the first character: a lone "🇴" stays behind, also under a popup or the compose box. Drawing
/// one can also spill over the following cells. So: when a grapheme of that kind leaves a
/// position, every cell it may have covered is written again, and when one is drawn, the cells it
/// may have spilled onto are too.
pub(super) fn guard_clusters(buf: &mut ratatui::buffer::Buffer, last: &mut Vec<(u16, u16, String)>) {
    use ratatui::buffer::CellDiffOption;
    use unicode_width::UnicodeWidthStr;
    let area = buf.area;
    let mut now = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let g = buf[(x, y)].symbol();
            if g.chars().nth(1).is_some() && g.width() > 1 {
                now.push((x, y, g.to_owned()));
            }
        }
    }
    let rewrite = |buf: &mut ratatui::buffer::Buffer, x: u16, y: u16, from: u16, to: u16| {
        for cx in x.saturating_add(from)..x.saturating_add(to).min(area.right()) {
            let cell = &mut buf[(cx, y)];
            if cell.diff_option == CellDiffOption::None {
                cell.diff_option = CellDiffOption::AlwaysUpdate;
            }
        }
    };
    for (x, y, g) in last.iter() {
        if area.contains((*x, *y).into()) && buf[(*x, *y)].symbol() != g {
            rewrite(buf, *x, *y, 0, widest_drawing(g).max(g.width() as u16));
        }
    }
    // A set: a hostile message can put thousands of these on screen.
    let before: std::collections::HashSet<(u16, u16, &str)> =
        last.iter().map(|(x, y, g)| (*x, *y, g.as_str())).collect();
    for (x, y, g) in &now {
        if !before.contains(&(*x, *y, g.as_str())) {
            rewrite(buf, *x, *y, g.width() as u16, widest_drawing(g));
        }
    }
    *last = now;
}
/// A wide grapheme whose second cell something else was drawn on (a popup's left border over a
/// channel name with `😎` in it) is replaced by a space: the terminal would draw it over that
/// cell, and ratatui, which never writes the cell after a wide one, leaves it there — the
/// popup lost its border. O(cells), once per frame.
pub(super) fn cut_wide(buf: &mut ratatui::buffer::Buffer) {
    use unicode_width::UnicodeWidthStr;
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let w = buf[(x, y)].symbol().width() as u16;
            if w < 2 {
                continue;
            }
            let covered = x.saturating_add(1)..x.saturating_add(w).min(area.right());
            if covered.clone().any(|cx| !matches!(buf[(cx, y)].symbol(), " " | "")) {
                buf[(x, y)].set_symbol(" ");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cut_wide, guard_clusters};

    #[test]
    fn a_wide_grapheme_cut_by_what_is_drawn_after_it_gives_way() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 8, 1));
        buf.set_string(0, 0, "a😎b😎", ratatui::style::Style::new());
        // A popup's left border drawn on the second cell of the last emoji.
        buf[(5, 0)].set_symbol("│");
        cut_wide(&mut buf);
        let row: Vec<&str> = (0..8).map(|x| buf[(x, 0)].symbol()).collect();
        assert_eq!(row[..6], ["a", "😎", " ", "b", " ", "│"], "the whole emoji stays, the cut one goes");
    }
    use ratatui::buffer::{Buffer, CellDiffOption};
    use ratatui::layout::Rect;

    fn forced(buf: &Buffer) -> Vec<u16> {
        (0..buf.area.width).filter(|&x| buf[(x, 0)].diff_option == CellDiffOption::AlwaysUpdate).collect()
    }

    /// Each kind of multi-character grapheme is cleared as one when it goes, over every cell a
    /// terminal may have drawn it on, and when it comes, the cells it may spill onto are redrawn.
    #[test]
    fn multi_character_graphemes_are_drawn_and_cleared_as_one() {
        let area = Rect::new(0, 0, 12, 1);
        for (g, widest) in [
            ("\u{1F1F3}\u{1F1F4}", 2),                          // a flag: two regional indicators
            ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 6), // a ZWJ family
            ("1\u{FE0F}\u{20E3}", 2),                           // a keycap
            ("\u{1F44D}\u{1F3FD}", 4),                          // a skin tone
            ("\u{2764}\u{FE0F}", 2),                            // VS16
        ] {
            let mut last = Vec::new();
            let mut buf = Buffer::empty(area);
            buf.set_string(2, 0, g, ratatui::style::Style::default());
            guard_clusters(&mut buf, &mut last);
            let spill: Vec<u16> = (4..2 + widest).collect();
            assert_eq!(forced(&buf), spill, "{g:?} drawn");
            let mut buf = Buffer::empty(area);
            guard_clusters(&mut buf, &mut last);
            let covered: Vec<u16> = (2..2 + widest.max(2)).collect();
            assert_eq!(forced(&buf), covered, "{g:?} gone");
            assert!(last.is_empty());
        }
        // A plain wide character needs none of this.
        let mut last = Vec::new();
        let mut buf = Buffer::empty(area);
        buf.set_string(2, 0, "コ", ratatui::style::Style::default());
        guard_clusters(&mut buf, &mut last);
        assert!(forced(&buf).is_empty() && last.is_empty());
    }
}
