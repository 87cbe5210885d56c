//! Message content layout: a parsed [`Document`] (see `crate::content`) → styled terminal lines.
//!
//! The entry points are [`render_document`] and [`render_html`] (or [`render_html_with_theme`]),
//! which parse first. The layout walks the document's tree at a fixed width:
//!
//! * Block structure (paragraphs, quotes, lists, code, tables, spoilers, media) is laid out by a
//!   recursive walker whose depth is capped at `MAX_DEPTH`; anything nested deeper is rendered
//!   "flat" by an iterative walker (`flat.rs`), so hostile nesting cannot overflow the stack.
//! * Inline content is streamed into a greedy word wrapper (`flow.rs`) that measures by
//!   grapheme display width, breaks after spaces and around wide (CJK) characters, and hard-breaks
//!   words wider than the line. Tables are in `table.rs`, code blocks in `code.rs`, the palette
//!   in `theme.rs`.
//! * Every piece of text passes through `sanitize` before it reaches a [`Span`].
//! * Content the document refused to parse (too costly, see `content::guard`) renders as a
//!   one-line notice.
//!
//! Guarantees: every output line is at most `width` columns wide (as measured by
//! [`display_width`], which matches how ratatui lays out cells); there are no leading or trailing
//! blank lines; the content of a closed spoiler never reaches `lines` or `links`; the links and
//! code blocks are those the document's summary finds, in the same order.

use std::collections::HashMap;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use scraper::{ElementRef, Node};
use unicode_segmentation::UnicodeSegmentation;

use crate::content::guard::TOO_COMPLEX;
use crate::content::html::{
    Visit, audio_video_src, code_language, emoji_from_code, has_class, is_block, is_skipped,
    is_spoiler_block, is_spoiler_part, is_stray_spoiler_content, media_link, media_picture, parent_element,
    walk_tree,
};
use crate::content::text::{attr_text, grapheme_width, sanitize_code};
use crate::content::{ContentContext, LinkRef, display_width};
use crate::content::{Document, MAX_DEPTH, code_text, math_text};

mod code;
mod flat;
mod flow;
#[cfg(test)]
mod picture_tests;
mod table;
#[cfg(test)]
mod tests;
mod theme;

use flow::*;
pub use theme::Theme;

/// The result of rendering one message's content.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RenderedContent {
    pub lines: Vec<Line<'static>>,
    /// Links and images in order of first appearance, numbered [1], [2], … in the text (a
    /// picture's label says both: `[image 1] cat.png[2]` is the first picture, the second link).
    pub links: Vec<LinkRef>,
    /// Number of spoilers in the content.
    pub spoilers: usize,
    /// Code blocks' raw text, in order (for copy actions).
    pub code_blocks: Vec<String>,
    /// Each code block's language (lowercase), in the same order.
    pub code_languages: Vec<Option<String>>,
    /// Where inline images go: blank rows kept for them (when the context draws images).
    pub images: Vec<BodyImage>,
    /// Where each link's `[n]` is drawn in the lines (link hints draw their labels there).
    pub marks: Vec<LinkMark>,
}

/// A link's number `[n]` in the laid-out lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkMark {
    /// Its line (an index into the lines), its column and width.
    pub line: usize,
    pub col: u16,
    pub width: u16,
    /// The link's number (from 1).
    pub number: usize,
}

/// The style of a link's `[n]`: the theme's, and a modifier taken away that nothing adds (so
/// nothing changes on screen), which tells the numbers apart from text that looks the same
/// once laid out ([`link_marks`]).
fn marker_style(style: Style, theme: &Theme) -> Style {
    style.patch(theme.link_marker).remove_modifier(MARKER)
}

const MARKER: ratatui::style::Modifier = ratatui::style::Modifier::HIDDEN;

/// Where the links' numbers ended up: every `[n]` (1 ≤ n ≤ `links`) in a span of
/// [`marker_style`].
fn link_marks(lines: &[Line<'static>], links: usize) -> Vec<LinkMark> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut col = 0;
        for span in &line.spans {
            let text = span.content.as_ref();
            if span.style.sub_modifier.contains(MARKER) {
                let mut from = 0;
                while let Some(open) = text[from..].find('[').map(|o| from + o) {
                    let Some(close) = text[open..].find(']').map(|c| open + c) else { break };
                    if let Ok(number) = text[open + 1..close].parse::<usize>()
                        && (1..=links).contains(&number)
                    {
                        let at = col + display_width(&text[..open]);
                        let (col, width) = (at as u16, (close + 1 - open) as u16);
                        out.push(LinkMark { line: i, col, width, number });
                    }
                    from = close + 1;
                }
            }
            col += display_width(text);
        }
    }
    out
}

/// Room kept in a message's lines for one inline image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyImage {
    /// Its first row (an index into the lines) and how many rows it has.
    pub line: usize,
    pub rows: u16,
    /// The column it starts at (after a quote's or a list's indent).
    pub col: u16,
    /// The picture to fetch (the server's thumbnail where it made one).
    pub src: String,
    /// The rows follow the picture's size; false: its size was not known when laid out, and
    /// the rows are the most it may take (laid out again once the picture is held).
    pub sized: bool,
}

/// Rows kept at most for an inline image in a body `width` columns wide: more on wider screens
/// (a picture takes fewer when it is smaller).
pub fn image_rows(width: usize) -> u16 {
    (width / 8).clamp(4, 12) as u16
}

/// Marks a row kept for an image until the layout is done (then it is blanked): a control
/// character, which no server text can bring (every text is sanitised), then the image's index.
const IMAGE_ROW: char = '\u{1}';

/// Blank the rows kept for images and say where they are.
fn take_image_rows(lines: &mut [Line<'static>], previews: &[(String, bool)]) -> Vec<BodyImage> {
    let mut out: Vec<(usize, BodyImage)> = Vec::new();
    for (i, line) in lines.iter_mut().enumerate() {
        let Some(at) = line.spans.iter().position(|s| s.content.starts_with(IMAGE_ROW)) else { continue };
        let k: usize = line.spans[at].content[IMAGE_ROW.len_utf8()..].parse().unwrap_or(usize::MAX);
        let col: usize = line.spans[..at].iter().map(|s| display_width(&s.content)).sum();
        line.spans.truncate(at);
        let Some((src, sized)) = previews.get(k) else { continue };
        match out.last_mut() {
            Some((last, img)) if *last == k && img.line + usize::from(img.rows) == i => img.rows += 1,
            _ => out
                .push((k, BodyImage { line: i, rows: 1, col: col as u16, src: src.clone(), sized: *sized })),
        }
    }
    out.into_iter().map(|(_, img)| img).collect()
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
        previews: Vec::new(),
        pictures: 0,
    };
    let mut flow = Flow::new(width);
    let base = Inherit { style: theme.text, nowrap: false };
    renderer.children(html.root_element(), &mut flow, base, 0);
    let mut lines = flow.finish();
    enforce_width(&mut lines, width);
    let images = if renderer.previews.is_empty() {
        Vec::new()
    } else {
        take_image_rows(&mut lines, &renderer.previews)
    };
    let marks = if renderer.links.is_empty() { Vec::new() } else { link_marks(&lines, renderer.links.len()) };
    RenderedContent {
        lines,
        marks,
        links: renderer.links,
        spoilers: doc.spoiler_count(),
        code_blocks: renderer.code_blocks,
        code_languages: renderer.code_languages,
        images,
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
    /// The pictures of the inline images given room, in order, and whether their rows follow
    /// their size.
    previews: Vec<(String, bool)>,
    /// Pictures met so far: each is labelled `[image N]` as `I` numbers them.
    pictures: usize,
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
        // A hidden spoiler is hidden too.
        if is_skipped(el) {
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
            "span" if cls("highlight") => inh.patch(t.search_match),
            "span" if cls("alert-word") => inh.patch(t.alert_word),
            _ => inh,
        }
    }

    /// Leaf-like elements rendered without walking their children. Shared by the structured
    /// and the flat walker. Returns whether `el` was handled.
    fn atom(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) -> bool {
        if is_skipped(el) {
            return true;
        }
        let name = el.value().name();
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
            // The user hid this message's previews: the links stay in the text.
            "div" if !self.ctx.link_previews() && is_link_preview(el) => {}
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
        let src = crate::content::html::image_link(el);
        let Some(src) = src else {
            if !alt.is_empty() {
                self.emit(flow, &alt, inh);
            }
            return;
        };
        // Not a picture `I` shows (not an inline image's): no picture number, only its link's.
        let n = self.register_link(src, &alt, true);
        let style = inh.style.patch(t.media);
        flow.text("[image]", style, true);
        if !alt.is_empty() {
            flow.space(style);
            self.emit(flow, &alt, inh.patch(t.media));
        }
        flow.text(&format!("[{n}]"), marker_style(style, t), true);
    }

    /// A bare `<audio>`/`<video>` (Zulip renders `[a.mp3](/user_uploads/…)` as `<audio>`):
    /// "[audio N] title" inline; the fallback content inside the element is not shown.
    fn audio_video(&mut self, el: ElementRef<'_>, flow: &mut Flow, inh: Inherit) {
        let t = self.theme;
        let Some(src) = audio_video_src(el) else { return };
        let title = el.attr("title").map(attr_text).unwrap_or_default();
        let n = self.register_link(src, &title, false);
        let style = inh.style.patch(t.media);
        flow.text(&format!("[{}]", el.value().name()), style, true);
        flow.space(style);
        let label = if title.is_empty() { attr_text(src) } else { title };
        self.emit(flow, &label, inh.patch(t.media));
        flow.text(&format!("[{n}]"), marker_style(style, t), true);
    }

    fn media(&mut self, el: ElementRef<'_>, flow: &mut Flow) {
        let t = self.theme;
        let Some((url, label, is_video)) = media_link(el) else { return };
        let n = self.register_link(&url, &label, !is_video);
        let picture = media_picture(el);
        // Pictures are numbered as `I` shows them (the first of the message is `[image 1]`),
        // apart from links: the link's number follows the label, as it follows a link's text.
        let tag = match &picture {
            _ if is_video => "[video]".to_owned(),
            Some(_) => {
                self.pictures += 1;
                format!("[image {}]", self.pictures)
            }
            None => "[image]".to_owned(),
        };
        let mut sub = Flow::new(flow.width);
        sub.text(&tag, t.media, true);
        sub.space(t.media);
        sub.text(&label, t.media, false);
        sub.text(&format!("[{n}]"), marker_style(t.media, t), true);
        flow.block(sub.finish(), Kind::Media);
        // Room for the picture under its link, marked until the layout is done: the rows its
        // size takes (one column is kept free at the right), at most `image_rows`.
        if let Some((src, pixels)) = picture.filter(|(src, _)| self.ctx.image(src)) {
            let most = image_rows(flow.width);
            let width = u16::try_from(flow.width.saturating_sub(1)).unwrap_or(u16::MAX);
            let rows = self.ctx.picture_rows(&src, pixels, width, most);
            let mark = format!("{IMAGE_ROW}{}", self.previews.len());
            self.previews.push((src, rows.is_some()));
            let rows = (0..rows.unwrap_or(most).clamp(1, most)).map(|_| Line::raw(mark.clone())).collect();
            flow.block(rows, Kind::Media);
        }
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
        // Channel and topic mentions are links into the app: numbered like the others (`o`
        // opens them in topicterm), drawn in the channel style.
        let mention = has_class(el, "stream") || has_class(el, "stream-topic");
        let href = el.attr("href").map(str::trim).filter(|h| !h.is_empty());
        let Some(href) = href else {
            self.children(el, flow, if mention { inh.patch(t.channel) } else { inh }, depth);
            return;
        };
        let outer = self.capture.replace(String::new());
        self.children(el, flow, inh.patch(if mention { t.channel } else { t.link }), depth);
        let captured = self.capture.take().unwrap_or_default();
        self.capture = outer.map(|mut o| {
            o.push_str(&captured);
            o
        });
        let n = self.register_link(href, &attr_text(&captured), false);
        flow.text(&format!("[{n}]"), marker_style(inh.style, t), true);
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
}

/// A preview the server made of a link in the text: a page's embed, a video's, or the picture
/// of a linked image that is not an upload (an upload's picture is the message's own).
fn is_link_preview(el: ElementRef<'_>) -> bool {
    if has_class(el, "message_embed") || has_class(el, "youtube-video") || has_class(el, "vimeo-video") {
        return true;
    }
    let media = has_class(el, "message_inline_image") || has_class(el, "message_inline_video");
    let upload = el
        .select(&scraper::Selector::parse("a[href]").expect("selector"))
        .next()
        .and_then(|a| a.attr("href"))
        .is_some_and(|h| h.contains("/user_uploads/"));
    media && !upload
}
