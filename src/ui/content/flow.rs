//! Layout: a greedy word wrapper (by grapheme display width, breaking after spaces and around
//! wide characters, hard-breaking words wider than the line) and the block flow that stacks
//! paragraphs, quotes, lists and the rest at a fixed width.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

use crate::content::display_width;
use crate::content::text::{clean, grapheme_width, is_html_space};

/// Narrowest layout width; smaller requested widths are clamped to this.
pub(super) const MIN_WIDTH: usize = 10;
/// Indentation (quotes, lists, spoilers) is only applied if at least this much width remains.
pub(super) const MIN_INNER: usize = 6;
/// A word too long for any line starts on the current line if at least this much room is left.
pub(super) const LONG_WORD_MIN: usize = 6;
/// Tab stops in code blocks.
pub(super) const TAB_WIDTH: usize = 4;

pub(super) fn truncate_to_width(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    for g in s.graphemes(true) {
        let gw = grapheme_width(g);
        if w + gw > max {
            break;
        }
        w += gw;
        out.push_str(g);
    }
    out
}

pub(super) fn line_width(line: &Line<'_>) -> usize {
    line.spans.iter().map(|s| display_width(&s.content)).sum()
}

pub(super) fn is_blank(line: &Line<'_>) -> bool {
    line.spans.iter().all(|s| s.content.trim().is_empty())
}

pub(super) fn trim_blank_edges(lines: &mut Vec<Line<'static>>) {
    while lines.last().is_some_and(is_blank) {
        lines.pop();
    }
    let lead = lines.iter().take_while(|l| is_blank(l)).count();
    lines.drain(..lead);
}

/// Remove trailing spaces at the end of a line (table padding).
pub(super) fn trim_line_end(spans: &mut Vec<Span<'static>>) {
    while let Some(last) = spans.last_mut() {
        let trimmed = last.content.trim_end_matches(' ').len();
        if trimmed == 0 {
            spans.pop();
        } else {
            last.content.to_mut().truncate(trimmed);
            break;
        }
    }
}

pub(super) fn push_span(spans: &mut Vec<Span<'static>>, s: &str, style: Style) {
    if s.is_empty() {
        return;
    }
    if let Some(last) = spans.last_mut()
        && last.style == style
    {
        last.content.to_mut().push_str(s);
        return;
    }
    spans.push(Span::styled(s.to_owned(), style));
}

/// Prefix every line (first line with `first`, the others with `rest`). Blank lines get the
/// prefix without its trailing spaces, so no line ends in whitespace.
pub(super) fn prefix_lines(
    lines: Vec<Line<'static>>,
    first: &str,
    rest: &str,
    style: Style,
) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let prefix = if i == 0 { first } else { rest };
            let blank = is_blank(&line);
            let prefix = if blank { prefix.trim_end() } else { prefix };
            let mut spans = Vec::with_capacity(line.spans.len() + 1);
            if !prefix.is_empty() {
                spans.push(Span::styled(prefix.to_owned(), style));
            }
            if !blank {
                spans.extend(line.spans);
            }
            Line::from(spans)
        })
        .collect()
}

/// Hard-wrap a line at grapheme boundaries so that no piece is wider than `width`.
pub(super) fn split_line_to_width(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut w = 0;
    for span in line.spans {
        for g in span.content.graphemes(true) {
            let mut gw = grapheme_width(g);
            let g = if gw > width {
                gw = 1;
                "\u{FFFD}"
            } else {
                g
            };
            if w + gw > width {
                out.push(Line::from(std::mem::take(&mut cur)));
                w = 0;
            }
            push_span(&mut cur, g, span.style);
            w += gw;
        }
    }
    if !cur.is_empty() || out.is_empty() {
        out.push(Line::from(cur));
    }
    out
}

/// Safety net: re-wrap any line wider than `width` (the layout code should never produce one).
pub(super) fn enforce_width(lines: &mut Vec<Line<'static>>, width: usize) {
    if lines.iter().all(|l| line_width(l) <= width) {
        return;
    }
    if cfg!(test) {
        let bad = lines.iter().find(|l| line_width(l) > width);
        panic!("content renderer produced an over-wide line (width {width}): {bad:?}");
    }
    let old = std::mem::take(lines);
    for line in old {
        if line_width(&line) <= width {
            lines.push(line);
        } else {
            lines.extend(split_line_to_width(line, width));
        }
    }
}

pub(super) fn inner_width(width: usize, indent: usize) -> Option<usize> {
    (width >= indent + MIN_INNER).then(|| width - indent)
}

/// boundaries of wide (CJK, emoji) graphemes; words wider than the line are hard-broken.
pub(super) struct Wrapper {
    pub(super) width: usize,
    pub(super) lines: Vec<Line<'static>>,
    pub(super) cur: Vec<Span<'static>>,
    pub(super) cur_w: usize,
    /// The word being collected (it may span several styles).
    pub(super) word: Vec<(String, Style)>,
    pub(super) word_w: usize,
    /// Whether (and in which style) a space separates `word` from the text before it.
    pub(super) word_space: Option<Style>,
    /// A space seen after the last word, to go before the next one.
    pub(super) pending_space: Option<Style>,
    /// Graphemes received so far (to detect whether anything was emitted).
    pub(super) pushed: usize,
}

impl Wrapper {
    pub(super) fn new(width: usize) -> Self {
        Wrapper {
            width: width.max(1),
            lines: Vec::new(),
            cur: Vec::new(),
            cur_w: 0,
            word: Vec::new(),
            word_w: 0,
            word_space: None,
            pending_space: None,
            pushed: 0,
        }
    }

    /// Add text; whitespace runs collapse to one breakable space (or a literal space if
    /// `nowrap`), everything else is sanitized.
    pub(super) fn text(&mut self, s: &str, style: Style, nowrap: bool) {
        let mut rest = s;
        while !rest.is_empty() {
            let ws = rest.find(|c| !is_html_space(c)).unwrap_or(rest.len());
            if ws > 0 {
                if nowrap {
                    self.grapheme(" ", style);
                } else {
                    self.space(style);
                }
                rest = &rest[ws..];
                continue;
            }
            let end = rest.find(is_html_space).unwrap_or(rest.len());
            let word = clean(&rest[..end]);
            for g in word.graphemes(true) {
                self.grapheme(g, style);
            }
            rest = &rest[end..];
        }
    }

    pub(super) fn grapheme(&mut self, g: &str, style: Style) {
        self.pushed += 1;
        let gw = grapheme_width(g);
        if gw >= 2 {
            self.end_word();
            self.word_space = self.pending_space.take();
            self.push_to_word(g, gw, style);
            self.end_word();
        } else {
            if self.word.is_empty() {
                self.word_space = self.pending_space.take();
            }
            self.push_to_word(g, gw, style);
        }
    }

    pub(super) fn push_to_word(&mut self, g: &str, gw: usize, style: Style) {
        match self.word.last_mut() {
            Some((s, st)) if *st == style => s.push_str(g),
            _ => self.word.push((g.to_owned(), style)),
        }
        self.word_w += gw;
    }

    pub(super) fn space(&mut self, style: Style) {
        self.end_word();
        if self.pending_space.is_none() {
            self.pending_space = Some(style);
        }
    }

    pub(super) fn end_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        let word = std::mem::take(&mut self.word);
        let ww = std::mem::take(&mut self.word_w);
        let space = self.word_space.take();
        if self.cur_w > 0 {
            let sw = usize::from(space.is_some());
            let fits = self.cur_w + sw + ww <= self.width;
            let long_starts_here = ww > self.width && self.cur_w + sw + LONG_WORD_MIN <= self.width;
            if fits || long_starts_here {
                if let Some(st) = space {
                    push_span(&mut self.cur, " ", st);
                    self.cur_w += 1;
                }
                if fits {
                    self.append(word, ww);
                } else {
                    self.append_breaking(word);
                }
                return;
            }
            self.newline();
        }
        if ww <= self.width {
            self.append(word, ww);
        } else {
            self.append_breaking(word);
        }
    }

    pub(super) fn append(&mut self, word: Vec<(String, Style)>, ww: usize) {
        for (s, st) in word {
            push_span(&mut self.cur, &s, st);
        }
        self.cur_w += ww;
    }

    pub(super) fn append_breaking(&mut self, word: Vec<(String, Style)>) {
        for (s, st) in word {
            for g in s.graphemes(true) {
                let mut gw = grapheme_width(g);
                let g = if gw > self.width {
                    gw = 1;
                    "\u{FFFD}"
                } else {
                    g
                };
                if self.cur_w + gw > self.width {
                    self.newline();
                }
                push_span(&mut self.cur, g, st);
                self.cur_w += gw;
            }
        }
    }

    pub(super) fn newline(&mut self) {
        self.lines.push(Line::from(std::mem::take(&mut self.cur)));
        self.cur_w = 0;
    }

    /// `<br>`: always start a new line (an empty one if the current line is empty).
    pub(super) fn hard_break(&mut self) {
        self.end_word();
        self.newline();
        self.pending_space = None;
    }

    /// Start a new line unless the current one is empty.
    pub(super) fn soft_break(&mut self) {
        self.end_word();
        if !self.cur.is_empty() {
            self.newline();
        }
        self.pending_space = None;
    }

    pub(super) fn take_lines(&mut self) -> Vec<Line<'static>> {
        self.end_word();
        if !self.cur.is_empty() {
            self.newline();
        }
        self.pending_space = None;
        std::mem::take(&mut self.lines)
    }
}

// ---------------------------------------------------------------------------------------------
// Block flow
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// Wrapped inline text (a paragraph).
    Text,
    /// Any other block (quote, code, table, …).
    Block,
    /// A list.
    List,
    /// An image/video line.
    Media,
}

/// A vertical sequence of blocks at a fixed width, with the inline text being wrapped.
pub(super) struct Flow {
    pub(super) width: usize,
    pub(super) lines: Vec<Line<'static>>,
    pub(super) wrap: Wrapper,
    /// In a list item, a nested list follows its text without a blank line.
    pub(super) list_item: bool,
    pub(super) last: Kind,
}

impl Flow {
    pub(super) fn new(width: usize) -> Self {
        let width = width.max(1);
        Flow { width, lines: Vec::new(), wrap: Wrapper::new(width), list_item: false, last: Kind::Text }
    }

    pub(super) fn text(&mut self, s: &str, style: Style, nowrap: bool) {
        self.wrap.text(s, style, nowrap);
    }

    pub(super) fn space(&mut self, style: Style) {
        self.wrap.space(style);
    }

    pub(super) fn hard_break(&mut self) {
        self.wrap.hard_break();
    }

    pub(super) fn soft_break(&mut self) {
        self.wrap.soft_break();
    }

    pub(super) fn mark(&self) -> usize {
        self.wrap.pushed
    }

    /// End the current paragraph.
    pub(super) fn flush(&mut self) {
        let lines = self.wrap.take_lines();
        self.add(lines, Kind::Text);
    }

    /// Append a finished block.
    pub(super) fn block(&mut self, lines: Vec<Line<'static>>, kind: Kind) {
        self.flush();
        self.add(lines, kind);
    }

    pub(super) fn add(&mut self, mut lines: Vec<Line<'static>>, kind: Kind) {
        trim_blank_edges(&mut lines);
        if lines.is_empty() {
            return;
        }
        if !self.lines.is_empty() {
            let gap = match kind {
                Kind::Media => false,
                Kind::List => !(self.list_item && self.last == Kind::Text),
                Kind::Text | Kind::Block => true,
            };
            if gap {
                self.lines.push(Line::default());
            }
        }
        self.lines.extend(lines);
        self.last = kind;
    }

    pub(super) fn finish(mut self) -> Vec<Line<'static>> {
        self.flush();
        trim_blank_edges(&mut self.lines);
        self.lines
    }
}
