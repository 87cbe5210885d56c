//! Message content rendering: Zulip server HTML → styled terminal lines.
//!
//! The entry point is [`render_html`] (or [`render_html_with_theme`]). It parses the HTML with
//! `scraper` (html5ever), walks the tree and lays the content out at a fixed width:
//!
//! * Block structure (paragraphs, quotes, lists, code, tables, spoilers, media) is laid out by a
//!   recursive walker whose depth is capped at `MAX_DEPTH`; anything nested deeper is rendered
//!   "flat" by an iterative walker, so hostile nesting cannot overflow the stack.
//! * Inline content is streamed into a greedy word wrapper (`Wrapper`) that measures by
//!   grapheme display width, breaks after spaces and around wide (CJK) characters, and hard-breaks
//!   words wider than the line.
//! * Every piece of text passes through [`sanitize`] before it reaches a [`Span`].
//! * Before parsing, a linear pre-scan (`guard`) refuses input on which html5ever itself would
//!   go quadratic (tens of thousands of nested elements); such content renders as a one-line
//!   notice instead.
//!
//! Guarantees: every output line is at most `width` columns wide (as measured by
//! [`display_width`], which matches how ratatui lays out cells); there are no leading or trailing
//! blank lines; the content of a closed spoiler never reaches `lines` or `links`.

use std::collections::HashMap;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use scraper::{ElementRef, Node};
use unicode_segmentation::UnicodeSegmentation;

use crate::content::guard::TOO_COMPLEX;
use crate::content::html::{
    Visit, code_language, emoji_from_code, has_class, is_block, is_skipped, is_spoiler_block,
    is_spoiler_part, is_stray_spoiler_content, parent_element, shown_elements, walk_tree,
};
use crate::content::text::{attr_text, clean, grapheme_width, is_html_space, sanitize_code};
use crate::content::{ContentContext, LinkRef, display_width};
use crate::content::{Document, MAX_DEPTH, code_text, math_text};

#[cfg(test)]
mod tests;

/// The result of rendering one message's content.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RenderedContent {
    pub lines: Vec<Line<'static>>,
    /// Links and images in order of first appearance, numbered [1], [2], … in the text.
    pub links: Vec<LinkRef>,
    /// Number of spoilers in the content.
    pub spoilers: usize,
    /// Code blocks' raw text, in order (for copy actions).
    pub code_blocks: Vec<String>,
    /// Each code block's language (lowercase), in the same order.
    pub code_languages: Vec<Option<String>>,
}

/// The palette used by the renderer. Every style the renderer emits comes from here, so a
/// different theme (light terminal, monochrome, …) is just a different value of this struct.
///
/// Styles are *patched* onto the inherited style (e.g. a link inside `<strong>` is bold and
/// link-coloured), so most entries only set what distinguishes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Base style of all text.
    pub text: Style,
    /// `<strong>`, `<b>`.
    pub strong: Style,
    /// `<em>`, `<i>`.
    pub emphasis: Style,
    /// `<del>`, `<s>`.
    pub strike: Style,
    /// `<u>`, `<ins>`.
    pub underline: Style,
    /// Inline `<code>`.
    pub code_inline: Style,
    /// `<h1>`, `<h2>`.
    pub heading_major: Style,
    /// `<h3>`–`<h6>`.
    pub heading: Style,
    /// The "▎ " bar in front of quoted lines.
    pub quote_bar: Style,
    /// List bullets and numbers.
    pub list_marker: Style,
    /// Link text.
    pub link: Style,
    /// The "[n]" reference after a link.
    pub link_marker: Style,
    /// `@Name` mention.
    pub mention: Style,
    /// Silent mention (`Name`, no notification).
    pub mention_silent: Style,
    /// `@group` mention.
    pub group_mention: Style,
    /// Silent group mention.
    pub group_mention_silent: Style,
    /// `@topic`, `@all`, `@channel` and other wildcard mentions.
    pub wildcard_mention: Style,
    /// `#channel` / `#channel > topic` references.
    pub channel: Style,
    /// Custom emoji shown as `:name:`.
    pub emoji_custom: Style,
    /// `<time>` rendered through [`ContentContext::format_time`].
    pub time: Style,
    /// Spoiler marker ("▶ "/"▼ "), default header and content gutter.
    pub spoiler: Style,
    /// TeX source of KaTeX math.
    pub math: Style,
    /// "[image N] …" / "[video N] …" lines.
    pub media: Style,
    /// `<hr>` line.
    pub rule: Style,
    /// Column separators of tables.
    pub table_border: Style,
    /// Header cells of tables (and labels in the narrow table layout).
    pub table_header: Style,
    /// Frame of code blocks ("╭─ lang", "│ ", "╰─").
    pub code_border: Style,
    /// Code block text.
    pub code_text: Style,
    /// Syntax highlighting (Pygments token classes in Zulip's HTML).
    pub code_keyword: Style,
    pub code_string: Style,
    pub code_comment: Style,
    pub code_number: Style,
    pub code_name: Style,
    pub code_inserted: Style,
    pub code_deleted: Style,
    pub code_heading: Style,
    /// Secondary text, e.g. the " (spoiler)" hint.
    pub dim: Style,
}

impl Default for Theme {
    /// A theme for dark terminals using only the 16 basic ANSI colours.
    fn default() -> Self {
        let bold = Modifier::BOLD;
        let dim = Style::new().fg(Color::DarkGray);
        Theme {
            text: Style::new(),
            strong: Style::new().add_modifier(bold),
            emphasis: Style::new().add_modifier(Modifier::ITALIC),
            strike: Style::new().add_modifier(Modifier::CROSSED_OUT),
            underline: Style::new().add_modifier(Modifier::UNDERLINED),
            code_inline: Style::new().fg(Color::Yellow),
            heading_major: Style::new().add_modifier(bold | Modifier::UNDERLINED),
            heading: Style::new().add_modifier(bold),
            quote_bar: dim,
            list_marker: Style::new().fg(Color::LightBlue),
            link: Style::new().fg(Color::Cyan).add_modifier(Modifier::UNDERLINED),
            link_marker: Style::new().fg(Color::Cyan),
            mention: Style::new().fg(Color::LightBlue).add_modifier(bold),
            mention_silent: Style::new().fg(Color::Blue),
            group_mention: Style::new().fg(Color::LightMagenta).add_modifier(bold),
            group_mention_silent: Style::new().fg(Color::Magenta),
            wildcard_mention: Style::new().fg(Color::LightYellow).add_modifier(bold),
            channel: Style::new().fg(Color::LightGreen),
            emoji_custom: Style::new().fg(Color::LightYellow),
            time: Style::new().fg(Color::LightCyan),
            spoiler: Style::new().fg(Color::LightYellow),
            math: Style::new().fg(Color::Green),
            media: Style::new().fg(Color::Cyan),
            rule: dim,
            table_border: dim,
            table_header: Style::new().add_modifier(bold),
            code_border: dim,
            code_text: Style::new().fg(Color::Gray),
            code_keyword: Style::new().fg(Color::Magenta),
            code_string: Style::new().fg(Color::Green),
            code_comment: Style::new().fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            code_number: Style::new().fg(Color::Cyan),
            code_name: Style::new().fg(Color::Blue),
            code_inserted: Style::new().fg(Color::Green),
            code_deleted: Style::new().fg(Color::Red),
            code_heading: Style::new().add_modifier(bold),
            dim,
        }
    }
}

/// Render HTML content to lines no wider than `width` display columns (width >= 10; clamp smaller).
pub fn render_html(html: &str, width: u16, ctx: &dyn ContentContext) -> RenderedContent {
    render_html_with_theme(html, width, ctx, &Theme::default())
}

/// [`render_html`] with an explicit [`Theme`].
pub fn render_html_with_theme(
    html: &str,
    width: u16,
    ctx: &dyn ContentContext,
    theme: &Theme,
) -> RenderedContent {
    render_document(&Document::parse(html), width, ctx, theme)
}

/// Lay a parsed document out at `width` columns (at least 10).
pub fn render_document(
    doc: &Document,
    width: u16,
    ctx: &dyn ContentContext,
    theme: &Theme,
) -> RenderedContent {
    let width = usize::from(width).max(MIN_WIDTH);
    let Some(html) = doc.html() else {
        let mut flow = Flow::new(width);
        flow.text(TOO_COMPLEX, theme.dim, false);
        return RenderedContent { lines: flow.finish(), ..RenderedContent::default() };
    };
    let mut renderer = Renderer {
        ctx,
        theme,
        links: Vec::new(),
        link_ids: HashMap::new(),
        doc,
        code_blocks: Vec::new(),
        code_languages: Vec::new(),
        list_depth: 0,
        capture: None,
    };
    let mut flow = Flow::new(width);
    let base = Inherit { style: theme.text, nowrap: false };
    renderer.children(html.root_element(), &mut flow, base, 0);
    let mut lines = flow.finish();
    enforce_width(&mut lines, width);
    RenderedContent {
        lines,
        links: renderer.links,
        spoilers: doc.spoiler_count(),
        code_blocks: renderer.code_blocks,
        code_languages: renderer.code_languages,
    }
}

/// Narrowest layout width; smaller requested widths are clamped to this.
const MIN_WIDTH: usize = 10;
/// Indentation (quotes, lists, spoilers) is only applied if at least this much width remains.
const MIN_INNER: usize = 6;
/// A word too long for any line starts on the current line if at least this much room is left.
const LONG_WORD_MIN: usize = 6;
/// Tab stops in code blocks.
const TAB_WIDTH: usize = 4;

fn truncate_to_width(s: &str, max: usize) -> String {
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

fn line_width(line: &Line<'_>) -> usize {
    line.spans.iter().map(|s| display_width(&s.content)).sum()
}

fn is_blank(line: &Line<'_>) -> bool {
    line.spans.iter().all(|s| s.content.trim().is_empty())
}

fn trim_blank_edges(lines: &mut Vec<Line<'static>>) {
    while lines.last().is_some_and(is_blank) {
        lines.pop();
    }
    let lead = lines.iter().take_while(|l| is_blank(l)).count();
    lines.drain(..lead);
}

/// Remove trailing spaces at the end of a line (table padding).
fn trim_line_end(spans: &mut Vec<Span<'static>>) {
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

fn push_span(spans: &mut Vec<Span<'static>>, s: &str, style: Style) {
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
fn prefix_lines(lines: Vec<Line<'static>>, first: &str, rest: &str, style: Style) -> Vec<Line<'static>> {
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
fn split_line_to_width(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
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
fn enforce_width(lines: &mut Vec<Line<'static>>, width: usize) {
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

fn inner_width(width: usize, indent: usize) -> Option<usize> {
    (width >= indent + MIN_INNER).then(|| width - indent)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Align {
    Left,
    Center,
    Right,
}

fn cell_align(el: ElementRef<'_>) -> Align {
    let from = |v: &str| {
        let v = v.trim().to_ascii_lowercase();
        if v.starts_with("right") {
            Some(Align::Right)
        } else if v.starts_with("center") {
            Some(Align::Center)
        } else if v.starts_with("left") {
            Some(Align::Left)
        } else {
            None
        }
    };
    if let Some(style) = el.attr("style") {
        for decl in style.split(';') {
            if let Some((k, v)) = decl.split_once(':')
                && k.trim().eq_ignore_ascii_case("text-align")
                && let Some(a) = from(v)
            {
                return a;
            }
        }
    }
    el.attr("align").and_then(from).unwrap_or(Align::Left)
}

/// boundaries of wide (CJK, emoji) graphemes; words wider than the line are hard-broken.
struct Wrapper {
    width: usize,
    lines: Vec<Line<'static>>,
    cur: Vec<Span<'static>>,
    cur_w: usize,
    /// The word being collected (it may span several styles).
    word: Vec<(String, Style)>,
    word_w: usize,
    /// Whether (and in which style) a space separates `word` from the text before it.
    word_space: Option<Style>,
    /// A space seen after the last word, to go before the next one.
    pending_space: Option<Style>,
    /// Graphemes received so far (to detect whether anything was emitted).
    pushed: usize,
}

impl Wrapper {
    fn new(width: usize) -> Self {
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
    fn text(&mut self, s: &str, style: Style, nowrap: bool) {
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

    fn grapheme(&mut self, g: &str, style: Style) {
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

    fn push_to_word(&mut self, g: &str, gw: usize, style: Style) {
        match self.word.last_mut() {
            Some((s, st)) if *st == style => s.push_str(g),
            _ => self.word.push((g.to_owned(), style)),
        }
        self.word_w += gw;
    }

    fn space(&mut self, style: Style) {
        self.end_word();
        if self.pending_space.is_none() {
            self.pending_space = Some(style);
        }
    }

    fn end_word(&mut self) {
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

    fn append(&mut self, word: Vec<(String, Style)>, ww: usize) {
        for (s, st) in word {
            push_span(&mut self.cur, &s, st);
        }
        self.cur_w += ww;
    }

    fn append_breaking(&mut self, word: Vec<(String, Style)>) {
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

    fn newline(&mut self) {
        self.lines.push(Line::from(std::mem::take(&mut self.cur)));
        self.cur_w = 0;
    }

    /// `<br>`: always start a new line (an empty one if the current line is empty).
    fn hard_break(&mut self) {
        self.end_word();
        self.newline();
        self.pending_space = None;
    }

    /// Start a new line unless the current one is empty.
    fn soft_break(&mut self) {
        self.end_word();
        if !self.cur.is_empty() {
            self.newline();
        }
        self.pending_space = None;
    }

    fn take_lines(&mut self) -> Vec<Line<'static>> {
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
enum Kind {
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
struct Flow {
    width: usize,
    lines: Vec<Line<'static>>,
    wrap: Wrapper,
    /// In a list item, a nested list follows its text without a blank line.
    list_item: bool,
    last: Kind,
}

impl Flow {
    fn new(width: usize) -> Self {
        let width = width.max(1);
        Flow { width, lines: Vec::new(), wrap: Wrapper::new(width), list_item: false, last: Kind::Text }
    }

    fn text(&mut self, s: &str, style: Style, nowrap: bool) {
        self.wrap.text(s, style, nowrap);
    }

    fn space(&mut self, style: Style) {
        self.wrap.space(style);
    }

    fn hard_break(&mut self) {
        self.wrap.hard_break();
    }

    fn soft_break(&mut self) {
        self.wrap.soft_break();
    }

    fn mark(&self) -> usize {
        self.wrap.pushed
    }

    /// End the current paragraph.
    fn flush(&mut self) {
        let lines = self.wrap.take_lines();
        self.add(lines, Kind::Text);
    }

    /// Append a finished block.
    fn block(&mut self, lines: Vec<Line<'static>>, kind: Kind) {
        self.flush();
        self.add(lines, kind);
    }

    fn add(&mut self, mut lines: Vec<Line<'static>>, kind: Kind) {
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

    fn finish(mut self) -> Vec<Line<'static>> {
        self.flush();
        trim_blank_edges(&mut self.lines);
        self.lines
    }
}

// ---------------------------------------------------------------------------------------------
// The renderer
// ---------------------------------------------------------------------------------------------

/// Inherited inline state.
#[derive(Clone, Copy, Debug)]
struct Inherit {
    style: Style,
    /// Spaces do not break lines (mentions).
    nowrap: bool,
}

impl Inherit {
    fn patch(self, style: Style) -> Self {
        Inherit { style: self.style.patch(style), nowrap: self.nowrap }
    }

    fn nowrap(self) -> Self {
        Inherit { nowrap: true, ..self }
    }
}

struct Renderer<'a> {
    ctx: &'a dyn ContentContext,
    theme: &'a Theme,
    links: Vec<LinkRef>,
    link_ids: HashMap<String, usize>,
    /// The document laid out; it numbers the spoilers.
    doc: &'a Document,
    code_blocks: Vec<String>,
    code_languages: Vec<Option<String>>,
    list_depth: usize,
    /// Text emitted inside the current link (its `LinkRef::text`).
    capture: Option<String>,
}

impl<'a> Renderer<'a> {
    /// Whether the user opened this spoiler. One the numbering missed stays closed.
    fn spoiler_open(&self, el: ElementRef<'_>) -> bool {
        self.doc.spoiler_index(el).is_some_and(|i| self.ctx.spoiler_open(i))
    }

    /// Emit visible text (also recorded as link text inside a link).
    fn emit(&mut self, flow: &mut Flow, text: &str, inh: Inherit) {
        if let Some(c) = self.capture.as_mut() {
            c.push_str(text);
        }
        flow.text(text, inh.style, inh.nowrap);
    }

    fn register_link(&mut self, url: &str, text: &str, is_image: bool) -> usize {
        let url = attr_text(url);
        if let Some(&i) = self.link_ids.get(&url) {
            if is_image {
                self.links[i].is_image = true;
            }
            return i + 1;
        }
        let text = if text.is_empty() { url.clone() } else { text.to_owned() };
        self.links.push(LinkRef { url: url.clone(), text, is_image });
        self.link_ids.insert(url, self.links.len() - 1);
        self.links.len()
    }

    fn children<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize) {
        for child in el.children() {
            match child.value() {
                Node::Text(t) => self.emit(flow, &t.text, inh),
                Node::Element(_) => {
                    if let Some(c) = ElementRef::wrap(child) {
                        self.element(c, flow, inh, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }

    fn block_children<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize) {
        flow.flush();
        self.children(el, flow, inh, depth);
        flow.flush();
    }

    fn element<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize) {
        if depth > MAX_DEPTH {
            self.walk_flat(el, flow, inh);
            return;
        }
        if is_spoiler_block(el) {
            self.spoiler(el, false, flow, inh, depth);
            return;
        }
        if has_class(el, "spoiler-content") {
            // The spoiler-block handler never passes its content here: this one is stray.
            self.spoiler(el, true, flow, inh, depth);
            return;
        }
        if self.atom(el, flow, inh) {
            return;
        }
        let t = self.theme;
        let name = el.value().name();
        match name {
            "a" => self.link(el, flow, inh, depth),
            "blockquote" => self.blockquote(el, flow, inh, depth),
            "ul" | "ol" | "menu" => self.list(el, flow, inh, depth, name == "ol"),
            "table" => self.table(el, flow, inh, depth),
            "h1" | "h2" => self.block_children(el, flow, inh.patch(t.heading_major), depth),
            "h3" | "h4" | "h5" | "h6" => self.block_children(el, flow, inh.patch(t.heading), depth),
            _ if is_block(name) => self.block_children(el, flow, inh, depth),
            _ => {
                let inh = self.inline_inherit(el, inh);
                self.children(el, flow, inh, depth);
            }
        }
    }

    fn inline_inherit(&self, el: ElementRef<'_>, inh: Inherit) -> Inherit {
        let t = self.theme;
        let e = el.value();
        let cls = |c: &str| e.classes().any(|x| x == c);
        match e.name() {
            "strong" | "b" => inh.patch(t.strong),
            "em" | "i" | "cite" | "var" | "dfn" => inh.patch(t.emphasis),
            "del" | "s" | "strike" => inh.patch(t.strike),
            "u" | "ins" => inh.patch(t.underline),
            "code" | "kbd" | "samp" | "tt" => inh.patch(t.code_inline),
            "span" if cls("user-mention") => {
                let wildcard =
                    el.attr("data-user-id") == Some("*") || e.classes().any(|c| c.contains("wildcard"));
                let style = if wildcard {
                    t.wildcard_mention
                } else if cls("silent") {
                    t.mention_silent
                } else {
                    t.mention
                };
                inh.patch(style).nowrap()
            }
            "span" if cls("user-group-mention") => {
                let style = if cls("silent") { t.group_mention_silent } else { t.group_mention };
                inh.patch(style).nowrap()
            }
            "span" if cls("topic-mention") => inh.patch(t.wildcard_mention).nowrap(),
            _ => inh,
        }
    }

    /// Leaf-like elements rendered without walking their children. Shared by the structured
    /// and the flat walker. Returns whether `el` was handled.
    fn atom(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) -> bool {
        let name = el.value().name();
        if is_skipped(name) {
            return true;
        }
        match name {
            "br" => flow.hard_break(),
            "hr" => {
                let rule = Line::from(Span::styled("─".repeat(flow.width), self.theme.rule));
                flow.block(vec![rule], Kind::Block);
            }
            "img" => self.image(el, flow, inh),
            "audio" | "video" => self.audio_video(el, flow, inh),
            "time" => return self.time(el, flow, inh),
            "pre" => self.code_block(el, flow),
            "span" if has_class(el, "katex-display") => self.math(el, flow, inh, true),
            "span" if has_class(el, "katex") => self.math(el, flow, inh, false),
            "span" if has_class(el, "emoji") => return self.emoji(el, flow, inh),
            "div"
                if has_class(el, "message_inline_image")
                    || has_class(el, "message_inline_video")
                    || has_class(el, "youtube-video")
                    || has_class(el, "vimeo-video") =>
            {
                self.media(el, flow)
            }
            "a" if has_class(el, "message_embed_image") => {}
            _ => return false,
        }
        true
    }

    fn image(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) {
        let t = self.theme;
        let alt = el.attr("alt").map(attr_text).unwrap_or_default();
        if has_class(el, "emoji") {
            let text = if alt.is_empty() {
                match el.attr("title").map(attr_text) {
                    Some(title) if !title.is_empty() => format!(":{title}:"),
                    _ => return,
                }
            } else {
                alt
            };
            self.emit(flow, &text, inh.patch(t.emoji_custom).nowrap());
            return;
        }
        let src =
            el.attr("data-src-fullsize").or_else(|| el.attr("src")).map(str::trim).filter(|s| !s.is_empty());
        let Some(src) = src else {
            if !alt.is_empty() {
                self.emit(flow, &alt, inh);
            }
            return;
        };
        let n = self.register_link(src, &alt, true);
        let style = inh.style.patch(t.media);
        flow.text(&format!("[image {n}]"), style, true);
        if !alt.is_empty() {
            flow.space(style);
            self.emit(flow, &alt, inh.patch(t.media));
        }
    }

    /// A bare `<audio>`/`<video>` (Zulip renders `[a.mp3](/user_uploads/…)` as `<audio>`):
    /// "[audio N] title" inline; the fallback content inside the element is not shown.
    fn audio_video(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) {
        let t = self.theme;
        let src = el
            .attr("src")
            .or_else(|| {
                el.child_elements()
                    .find(|c| c.value().name() == "source" && !is_spoiler_part(*c))
                    .and_then(|c| c.attr("src"))
            })
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let Some(src) = src else { return };
        let title = el.attr("title").map(attr_text).unwrap_or_default();
        let n = self.register_link(src, &title, false);
        let style = inh.style.patch(t.media);
        flow.text(&format!("[{} {n}]", el.value().name()), style, true);
        flow.space(style);
        let label = if title.is_empty() { attr_text(src) } else { title };
        self.emit(flow, &label, inh.patch(t.media));
    }

    fn media(&mut self, el: ElementRef<'_>, flow: &mut Flow) {
        let t = self.theme;
        let shown = shown_elements(el);
        let find = |tag: &str| shown.iter().copied().find(|d| d.value().name() == tag);
        let anchor = shown
            .iter()
            .copied()
            .find(|d| d.value().name() == "a" && d.attr("href").is_some_and(|h| !h.trim().is_empty()));
        let img = find("img");
        let video = find("video");
        let url = anchor
            .and_then(|a| a.attr("href"))
            .or_else(|| img.and_then(|i| i.attr("src")))
            .or_else(|| video.and_then(|v| v.attr("src")))
            .map(str::trim)
            .filter(|u| !u.is_empty());
        let Some(url) = url else { return };
        let label = [anchor.and_then(|a| a.attr("title")), img.and_then(|i| i.attr("alt"))]
            .into_iter()
            .flatten()
            .map(attr_text)
            .find(|l| !l.is_empty())
            .unwrap_or_else(|| attr_text(url));
        let is_video = video.is_some()
            || has_class(el, "message_inline_video")
            || has_class(el, "youtube-video")
            || has_class(el, "vimeo-video");
        let n = self.register_link(url, &label, !is_video);
        let tag = if is_video { "video" } else { "image" };
        let mut sub = Flow::new(flow.width);
        sub.text(&format!("[{tag} {n}]"), t.media, true);
        sub.space(t.media);
        sub.text(&label, t.media, false);
        flow.block(sub.finish(), Kind::Media);
    }

    fn time(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) -> bool {
        let Some(dt) = el.attr("datetime") else {
            return false;
        };
        let Ok(parsed) = chrono::DateTime::parse_from_rfc3339(dt.trim()) else {
            return false;
        };
        let text = attr_text(&self.ctx.format_time(parsed.timestamp()));
        self.emit(flow, &text, inh.patch(self.theme.time).nowrap());
        true
    }

    fn emoji(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) -> bool {
        let emoji = el.value().classes().filter_map(|c| c.strip_prefix("emoji-")).find_map(emoji_from_code);
        match emoji {
            Some(e) => {
                self.emit(flow, &e, inh.nowrap());
                true
            }
            // Not a valid code point sequence: render the element's text (":name:").
            None => false,
        }
    }

    fn math(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit, display: bool) {
        let text = math_text(el);
        let inh = inh.patch(self.theme.math);
        if display {
            flow.soft_break();
            self.emit(flow, &text, inh);
            flow.soft_break();
        } else {
            self.emit(flow, &text, inh);
        }
    }

    fn link<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize) {
        let t = self.theme;
        if has_class(el, "stream") || has_class(el, "stream-topic") {
            self.children(el, flow, inh.patch(t.channel), depth);
            return;
        }
        let href = el.attr("href").map(str::trim).filter(|h| !h.is_empty());
        let Some(href) = href else {
            self.children(el, flow, inh, depth);
            return;
        };
        let outer = self.capture.replace(String::new());
        self.children(el, flow, inh.patch(t.link), depth);
        let captured = self.capture.take().unwrap_or_default();
        self.capture = outer.map(|mut o| {
            o.push_str(&captured);
            o
        });
        let n = self.register_link(href, &attr_text(&captured), false);
        flow.text(&format!("[{n}]"), inh.style.patch(t.link_marker), true);
    }

    fn blockquote<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize) {
        match inner_width(flow.width, 2) {
            Some(w) => {
                let mut sub = Flow::new(w);
                self.children(el, &mut sub, inh, depth);
                let lines = prefix_lines(sub.finish(), "▎ ", "▎ ", self.theme.quote_bar);
                flow.block(lines, Kind::Block);
            }
            None => self.block_children(el, flow, inh, depth),
        }
    }

    fn list<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize, ordered: bool) {
        let t = self.theme;
        // Items: child elements (normally <li>) and stray non-blank text.
        let items: Vec<_> = el
            .children()
            .filter(|c| match c.value() {
                Node::Element(_) => true,
                Node::Text(text) => !text.trim().is_empty(),
                _ => false,
            })
            .collect();
        if items.is_empty() {
            return;
        }
        let start: i64 = el
            .attr("start")
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(1)
            .clamp(-1_000_000_000, 1_000_000_000);
        let bullet = ["•", "◦", "▪"][self.list_depth % 3];
        let labels: Vec<String> = (0..items.len())
            .map(|i| if ordered { format!("{}.", start + i as i64) } else { bullet.to_owned() })
            .collect();
        let label_w = labels.iter().map(|l| display_width(l)).max().unwrap_or(1);
        let marker_w = label_w + 1;
        self.list_depth += 1;
        let mut out = Vec::new();
        for (item, label) in items.into_iter().zip(labels) {
            let marker = format!("{}{label} ", " ".repeat(label_w - display_width(&label)));
            let indented = inner_width(flow.width, marker_w);
            let mut sub = Flow::new(indented.unwrap_or(flow.width));
            sub.list_item = true;
            if indented.is_none() {
                sub.text(&label, t.list_marker, true);
                sub.space(t.list_marker);
            }
            match item.value() {
                Node::Text(text) => self.emit(&mut sub, text, inh),
                _ => {
                    if let Some(e) = ElementRef::wrap(item) {
                        if e.value().name() == "li" {
                            self.children(e, &mut sub, inh, depth + 1);
                        } else {
                            self.element(e, &mut sub, inh, depth + 1);
                        }
                    }
                }
            }
            let mut lines = sub.finish();
            if indented.is_some() {
                if lines.is_empty() {
                    lines.push(Line::default());
                }
                out.extend(prefix_lines(lines, &marker, &" ".repeat(marker_w), t.list_marker));
            } else if lines.is_empty() {
                out.push(Line::from(Span::styled(label, t.list_marker)));
            } else {
                out.extend(lines);
            }
        }
        self.list_depth -= 1;
        flow.block(out, Kind::List);
    }

    fn spoiler<'d>(&mut self, el: ElementRef<'d>, stray: bool, flow: &mut Flow, inh: Inherit, depth: usize) {
        let t = self.theme;
        let open = self.spoiler_open(el);
        let header = if stray { None } else { el.child_elements().find(|c| has_class(*c, "spoiler-header")) };
        let indented = inner_width(flow.width, 2);
        let w = indented.unwrap_or(flow.width);

        let mut sub = Flow::new(w);
        if let Some(h) = header {
            self.children(h, &mut sub, inh, depth + 1);
        }
        let mut head = sub.finish();
        if head.is_empty() {
            head.push(Line::from(Span::styled("Spoiler", inh.style.patch(t.spoiler))));
        }
        let hint = " (spoiler)";
        let last_w = head.last().map(line_width).unwrap_or(0);
        if last_w + display_width(hint) <= w {
            if let Some(last) = head.last_mut() {
                last.spans.push(Span::styled(hint, t.dim));
            }
        } else if display_width(hint.trim_start()) <= w {
            head.push(Line::from(Span::styled(hint.trim_start(), t.dim)));
        }
        let marker = if open { "▼ " } else { "▶ " };
        let mut lines = if indented.is_some() {
            prefix_lines(head, marker, "  ", t.spoiler)
        } else {
            let mut l = vec![Line::from(Span::styled(marker.trim_end(), t.spoiler))];
            l.extend(head);
            l
        };

        if open {
            let mut body = Flow::new(w);
            for child in el.children() {
                match child.value() {
                    Node::Text(text) => self.emit(&mut body, text, inh),
                    Node::Element(_) => {
                        let Some(c) = ElementRef::wrap(child) else {
                            continue;
                        };
                        if Some(c) == header {
                            continue;
                        }
                        if !stray && has_class(c, "spoiler-content") {
                            self.children(c, &mut body, inh, depth + 1);
                        } else {
                            self.element(c, &mut body, inh, depth + 1);
                        }
                    }
                    _ => {}
                }
            }
            let body = body.finish();
            if indented.is_some() {
                lines.extend(prefix_lines(body, "┊ ", "┊ ", t.spoiler));
            } else {
                lines.extend(body);
            }
        }
        flow.block(lines, Kind::Block);
    }

    fn code_block(&mut self, pre: ElementRef<'_>, flow: &mut Flow) {
        let t = self.theme;
        let lang = code_language(pre);

        // Collect the text with Pygments token styles, without recursion.
        let mut segs: Vec<(String, Style)> = Vec::new();
        let mut stack: Vec<(ElementRef<'_>, Style)> = Vec::new();
        walk_tree(pre, |v| match v {
            Visit::Open(e) => {
                let name = e.value().name();
                if is_skipped(name) || (e != pre && is_spoiler_part(e)) {
                    return false;
                }
                if name == "br" {
                    segs.push(("\n".to_owned(), t.code_text));
                }
                if let Some(st) = token_style(e, t) {
                    stack.push((e, st));
                }
                true
            }
            Visit::Close(e) => {
                if stack.last().is_some_and(|(x, _)| *x == e) {
                    stack.pop();
                }
                true
            }
            Visit::Text(text, _) => {
                let st = stack.last().map_or(t.code_text, |(_, s)| t.code_text.patch(*s));
                segs.push((sanitize_code(text), st));
                true
            }
        });
        // The text to copy, as the document model has it (the same text, unstyled).
        self.code_blocks.push(code_text(pre));
        self.code_languages.push(lang.clone());

        // Split into logical lines.
        let mut logical: Vec<Vec<(&str, Style)>> = vec![Vec::new()];
        for (s, st) in &segs {
            for (i, part) in s.split('\n').enumerate() {
                if i > 0 {
                    logical.push(Vec::new());
                }
                if !part.is_empty()
                    && let Some(l) = logical.last_mut()
                {
                    l.push((part, *st));
                }
            }
        }
        if logical.len() > 1 && logical.last().is_some_and(|l| l.is_empty()) {
            logical.pop();
        }

        let framed = flow.width >= 2 + MIN_INNER / 2;
        let inner = if framed { flow.width - 2 } else { flow.width };
        let mut out = Vec::new();
        let header = match &lang {
            Some(l) => format!("╭─ {l}"),
            None => "╭─".to_owned(),
        };
        out.push(Line::from(Span::styled(truncate_to_width(&header, flow.width), t.code_border)));
        let mut body: Vec<Line<'static>> = Vec::new();
        let mut continued: Vec<bool> = Vec::new();
        for line in &logical {
            let mut cur: Vec<Span<'static>> = Vec::new();
            let mut w = 0;
            let mut col = 0;
            let mut first = true;
            let mut put = |g: &str, gw: usize, st: Style, cur: &mut Vec<Span<'static>>| {
                let (g, gw) = if gw > inner { ("\u{FFFD}", 1) } else { (g, gw) };
                if w + gw > inner && w > 0 {
                    body.push(Line::from(std::mem::take(cur)));
                    continued.push(!first);
                    first = false;
                    w = 0;
                }
                push_span(cur, g, st);
                w += gw;
            };
            for (text, st) in line {
                for g in text.graphemes(true) {
                    if g == "\t" {
                        let n = TAB_WIDTH - col % TAB_WIDTH;
                        for _ in 0..n {
                            put(" ", 1, *st, &mut cur);
                        }
                        col += n;
                    } else {
                        let gw = grapheme_width(g);
                        put(g, gw, *st, &mut cur);
                        col += gw;
                    }
                }
            }
            body.push(Line::from(cur));
            continued.push(!first);
        }
        for (line, cont) in body.into_iter().zip(continued) {
            if framed {
                let prefix = if cont { "┆ " } else { "│ " };
                out.extend(prefix_lines(vec![line], prefix, prefix, t.code_border));
            } else {
                out.push(line);
            }
        }
        out.push(Line::from(Span::styled("╰─", t.code_border)));
        flow.block(out, Kind::Block);
    }

    fn table<'d>(&mut self, el: ElementRef<'d>, flow: &mut Flow, inh: Inherit, depth: usize) {
        let t = self.theme;
        let mut rows: Vec<(ElementRef<'d>, bool)> = Vec::new();
        for c in el.child_elements() {
            match c.value().name() {
                "tr" => rows.push((c, false)),
                "thead" | "tbody" | "tfoot" => {
                    let header = c.value().name() == "thead";
                    rows.extend(c.child_elements().filter(|r| r.value().name() == "tr").map(|r| (r, header)));
                }
                "caption" => self.block_children(c, flow, inh, depth + 1),
                _ => {}
            }
        }
        let is_cell = |c: &ElementRef<'_>| matches!(c.value().name(), "td" | "th");
        if !rows.iter().any(|r| r.1)
            && let Some(first) = rows.first_mut()
        {
            let mut cells = first.0.child_elements().filter(is_cell).peekable();
            first.1 = cells.peek().is_some() && cells.all(|c| c.value().name() == "th");
        }

        // Render every cell exactly once, at the widest width a cell can get.
        struct Cell {
            lines: Vec<Line<'static>>,
            width: usize,
            align: Align,
        }
        let cell_w = inner_width(flow.width, 2).unwrap_or(flow.width);
        let mut grid: Vec<(Vec<Cell>, bool)> = Vec::new();
        for (tr, header) in rows {
            let mut cells = Vec::new();
            for td in tr.child_elements().filter(is_cell) {
                let cinh = if header || td.value().name() == "th" { inh.patch(t.table_header) } else { inh };
                let mut sub = Flow::new(cell_w);
                self.children(td, &mut sub, cinh, depth + 2);
                let lines = sub.finish();
                let width = lines.iter().map(line_width).max().unwrap_or(0);
                cells.push(Cell { lines, width, align: cell_align(td) });
            }
            grid.push((cells, header));
        }
        let ncols = grid.iter().map(|r| r.0.len()).max().unwrap_or(0);
        if ncols == 0 {
            return;
        }
        let mut col_w = vec![0; ncols];
        for (cells, _) in &grid {
            for (i, c) in cells.iter().enumerate() {
                col_w[i] = col_w[i].max(c.width);
            }
        }
        let total = col_w.iter().sum::<usize>() + 3 * (ncols - 1);
        let mut out: Vec<Line<'static>> = Vec::new();
        if total <= flow.width {
            for (ri, (cells, header)) in grid.iter().enumerate() {
                let height = cells.iter().map(|c| c.lines.len()).max().unwrap_or(0).max(1);
                for k in 0..height {
                    let mut spans: Vec<Span<'static>> = Vec::new();
                    for (ci, &cw) in col_w.iter().enumerate() {
                        if ci > 0 {
                            spans.push(Span::styled(" │ ", t.table_border));
                        }
                        let cell = cells.get(ci);
                        let line = cell.and_then(|c| c.lines.get(k));
                        let w = line.map(line_width).unwrap_or(0);
                        let pad = cw - w;
                        let (left, right) = match cell.map_or(Align::Left, |c| c.align) {
                            Align::Left => (0, pad),
                            Align::Right => (pad, 0),
                            Align::Center => (pad / 2, pad - pad / 2),
                        };
                        push_span(&mut spans, &" ".repeat(left), t.text);
                        if let Some(line) = line {
                            spans.extend(line.spans.iter().cloned());
                        }
                        push_span(&mut spans, &" ".repeat(right), t.text);
                    }
                    trim_line_end(&mut spans);
                    out.push(Line::from(spans));
                }
                let next_is_header = grid.get(ri + 1).is_some_and(|r| r.1);
                if *header && !next_is_header {
                    let sep: Vec<String> = col_w.iter().map(|&w| "─".repeat(w)).collect();
                    out.push(Line::from(Span::styled(sep.join("─┼─"), t.table_border)));
                }
            }
        } else {
            // Too wide: one "Header: value" entry per cell, rows separated by blank lines.
            let labels: Vec<Vec<Span<'static>>> = grid
                .iter()
                .find(|r| r.1)
                .map(|(cells, _)| {
                    cells
                        .iter()
                        .map(|c| {
                            let mut spans = Vec::new();
                            for (i, l) in c.lines.iter().enumerate() {
                                if i > 0 {
                                    spans.push(Span::styled(" ", t.table_header));
                                }
                                spans.extend(l.spans.iter().cloned());
                            }
                            spans
                        })
                        .collect()
                })
                .unwrap_or_default();
            let has_body = grid.iter().any(|r| !r.1);
            let mut first_row = true;
            for (cells, header) in grid {
                if header && has_body {
                    continue;
                }
                if !first_row {
                    out.push(Line::default());
                }
                first_row = false;
                for (ci, cell) in cells.into_iter().enumerate() {
                    if cell.width == 0 {
                        continue;
                    }
                    let label = labels
                        .get(ci)
                        .filter(|_| !header)
                        .filter(|l| l.iter().any(|s| !s.content.trim().is_empty()));
                    let Some(label) = label else {
                        out.extend(cell.lines);
                        continue;
                    };
                    let mut label_line = label.clone();
                    label_line.push(Span::styled(":", t.table_header));
                    let lw = label_line.iter().map(|s| display_width(&s.content)).sum::<usize>();
                    if cell.lines.len() == 1 && lw + 1 + cell.width <= flow.width {
                        let mut spans = label_line;
                        spans.push(Span::styled(" ", t.text));
                        spans.extend(cell.lines.into_iter().flat_map(|l| l.spans));
                        out.push(Line::from(spans));
                    } else {
                        out.extend(split_line_to_width(Line::from(label_line), flow.width));
                        if cell_w < flow.width {
                            out.extend(prefix_lines(cell.lines, "  ", "  ", t.text));
                        } else {
                            out.extend(cell.lines);
                        }
                    }
                }
            }
        }
        flow.block(out, Kind::Block);
    }

    /// The iterative walker used below [`MAX_DEPTH`]: keeps inline styles, links, spoilers
    /// (never leaking hidden content), code blocks, math and media; block structure becomes
    /// plain line breaks.
    fn walk_flat<'d>(&mut self, root: ElementRef<'d>, flow: &mut Flow, base: Inherit) {
        let t = self.theme;
        let mut cur = base;
        let mut styles: Vec<(ElementRef<'d>, Inherit)> = Vec::new();
        let mut links: Vec<(ElementRef<'d>, &'d str, Option<String>)> = Vec::new();
        let mut spoilers: Vec<(ElementRef<'d>, bool)> = Vec::new();
        let mut headers: Vec<(ElementRef<'d>, usize)> = Vec::new();
        walk_tree(root, |v| match v {
            Visit::Text(text, parent) => {
                let hidden = spoilers.last().is_some_and(|(b, open)| !open && parent == Some(*b));
                if !hidden {
                    self.emit(flow, text, cur);
                }
                true
            }
            Visit::Open(el) => {
                let name = el.value().name();
                let parent = parent_element(el);
                if let Some((block, false)) = spoilers.last()
                    && parent == Some(*block)
                    && !has_class(el, "spoiler-header")
                {
                    return false;
                }
                if is_spoiler_block(el) {
                    let open = self.spoiler_open(el);
                    flow.soft_break();
                    flow.text(if open { "▼ " } else { "▶ " }, t.spoiler, true);
                    if !el.child_elements().any(|c| has_class(c, "spoiler-header")) {
                        flow.text("Spoiler", cur.style.patch(t.spoiler), true);
                        flow.space(t.dim);
                        flow.text("(spoiler)", t.dim, true);
                        flow.soft_break();
                    }
                    spoilers.push((el, open));
                    return true;
                }
                if is_stray_spoiler_content(el) {
                    let open = self.spoiler_open(el);
                    flow.soft_break();
                    flow.text(if open { "▼ " } else { "▶ " }, t.spoiler, true);
                    flow.text("Spoiler", cur.style.patch(t.spoiler), true);
                    flow.space(t.dim);
                    flow.text("(spoiler)", t.dim, true);
                    flow.soft_break();
                    return open;
                }
                if has_class(el, "spoiler-header") && spoilers.last().is_some_and(|(b, _)| parent == Some(*b))
                {
                    headers.push((el, flow.mark()));
                    return true;
                }
                if self.atom(el, flow, cur) {
                    return false;
                }
                if name == "a" {
                    if has_class(el, "stream") || has_class(el, "stream-topic") {
                        styles.push((el, cur));
                        cur = cur.patch(t.channel);
                    } else if let Some(href) = el.attr("href").map(str::trim).filter(|h| !h.is_empty()) {
                        links.push((el, href, self.capture.replace(String::new())));
                        styles.push((el, cur));
                        cur = cur.patch(t.link);
                    }
                    return true;
                }
                let next = match name {
                    "h1" | "h2" => cur.patch(t.heading_major),
                    "h3" | "h4" | "h5" | "h6" => cur.patch(t.heading),
                    _ => self.inline_inherit(el, cur),
                };
                if is_block(name) {
                    if headers.is_empty() {
                        flow.soft_break();
                    } else {
                        flow.space(cur.style);
                    }
                    if name == "li" {
                        flow.text("• ", t.list_marker, true);
                    }
                } else if matches!(name, "td" | "th") {
                    flow.space(cur.style);
                }
                styles.push((el, cur));
                cur = next;
                true
            }
            Visit::Close(el) => {
                if styles.last().is_some_and(|(e, _)| *e == el)
                    && let Some((_, saved)) = styles.pop()
                {
                    cur = saved;
                }
                if links.last().is_some_and(|(e, _, _)| *e == el)
                    && let Some((_, href, outer)) = links.pop()
                {
                    let captured = self.capture.take().unwrap_or_default();
                    self.capture = outer.map(|mut o| {
                        o.push_str(&captured);
                        o
                    });
                    let n = self.register_link(href, &attr_text(&captured), false);
                    flow.text(&format!("[{n}]"), cur.style.patch(t.link_marker), true);
                }
                if headers.last().is_some_and(|(e, _)| *e == el)
                    && let Some((_, mark)) = headers.pop()
                {
                    if flow.mark() == mark {
                        flow.text("Spoiler", cur.style.patch(t.spoiler), true);
                    }
                    flow.space(t.dim);
                    flow.text("(spoiler)", t.dim, true);
                    flow.soft_break();
                }
                if spoilers.last().is_some_and(|(e, _)| *e == el) {
                    spoilers.pop();
                    flow.soft_break();
                }
                if headers.is_empty() && is_block(el.value().name()) {
                    flow.soft_break();
                }
                true
            }
        });
    }
}

/// Style of a Pygments token `<span class="…">` inside a code block.
fn token_style(el: ElementRef<'_>, t: &Theme) -> Option<Style> {
    if el.value().name() != "span" {
        return None;
    }
    el.value().classes().find_map(|c| {
        Some(match c {
            "gd" => t.code_deleted,
            "gi" => t.code_inserted,
            "gh" | "gu" => t.code_heading,
            "il" => t.code_number,
            "nf" | "fm" | "nc" | "nn" | "nb" | "bp" | "nd" | "nt" | "ne" => t.code_name,
            _ => match c.as_bytes().first() {
                Some(b'k') => t.code_keyword,
                Some(b's') => t.code_string,
                Some(b'c') => t.code_comment,
                Some(b'm') => t.code_number,
                _ => return None,
            },
        })
    })
}
