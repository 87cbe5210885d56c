//! Message content layout: a parsed [`Document`] (see `crate::content`) → styled terminal lines.
//!
//! The entry points are [`render_document`] and [`render_html`] (or [`render_html_with_theme`]),
//! which parse first. The layout walks the document's tree (`content::tree`, never HTML) at a
//! fixed width:
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
use unicode_segmentation::UnicodeSegmentation;

use crate::content::guard::TOO_COMPLEX;
use crate::content::text::{attr_text, grapheme_width};
use crate::content::tree::{
    Element, Image, Inline, Kind as NodeKind, Media, NodeId, Role, Spoiler, Step, Tag, Tree,
};
use crate::content::{ContentContext, LinkRef, display_width};
use crate::content::{Document, MAX_DEPTH, spoiler_open};

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
    let Some(tree) = doc.tree() else {
        let mut flow = Flow::new(width);
        flow.text(TOO_COMPLEX, theme.dim, false);
        return RenderedContent { lines: flow.finish(), ..RenderedContent::default() };
    };
    let mut renderer = Renderer {
        ctx,
        theme,
        links: Vec::new(),
        link_ids: HashMap::new(),
        tree,
        code_blocks: Vec::new(),
        code_languages: Vec::new(),
        list_depth: 0,
        capture: None,
        previews: Vec::new(),
        pictures: 0,
    };
    let mut flow = Flow::new(width);
    let base = Inherit { style: theme.text, nowrap: false };
    renderer.children(tree.root(), &mut flow, base, 0);
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
    /// The document laid out.
    tree: &'a Tree,
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
    fn spoiler_open(&self, e: &Element) -> bool {
        spoiler_open(self.ctx, e.spoiler)
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

    fn children(&mut self, id: NodeId, flow: &mut Flow, inh: Inherit, depth: usize) {
        let tree = self.tree;
        for &child in tree.children(id) {
            match &tree.node(child).kind {
                NodeKind::Text(t) => self.emit(flow, t, inh),
                NodeKind::Element(_) => self.element(child, flow, inh, depth + 1),
            }
        }
    }

    fn block_children(&mut self, id: NodeId, flow: &mut Flow, inh: Inherit, depth: usize) {
        flow.flush();
        self.children(id, flow, inh, depth);
        flow.flush();
    }

    fn element(&mut self, id: NodeId, flow: &mut Flow, inh: Inherit, depth: usize) {
        let tree = self.tree;
        let Some(e) = tree.element(id) else { return };
        if depth > MAX_DEPTH {
            self.walk_flat(id, flow, inh);
            return;
        }
        // A hidden spoiler is hidden too.
        if matches!(e.role, Role::Skipped) {
            return;
        }
        match e.spoiler {
            Spoiler::Block { .. } => return self.spoiler(id, e, false, flow, inh, depth),
            // The spoiler-block handler never passes its content here: this one is stray.
            Spoiler::Content { .. } => return self.spoiler(id, e, true, flow, inh, depth),
            Spoiler::No => {}
        }
        if self.atom(e, flow, inh) {
            return;
        }
        let t = self.theme;
        match &e.role {
            Role::Link { href, mention } => self.link(id, href.as_deref(), *mention, flow, inh, depth),
            Role::Quote => self.blockquote(id, flow, inh, depth),
            Role::List { ordered, start } => self.list(id, flow, inh, depth, *ordered, *start),
            Role::Table(table) => self.table(table, flow, inh, depth),
            Role::Heading { major: true } => self.block_children(id, flow, inh.patch(t.heading_major), depth),
            Role::Heading { major: false } => self.block_children(id, flow, inh.patch(t.heading), depth),
            _ if e.block => self.block_children(id, flow, inh, depth),
            _ => {
                let inh = self.inline_inherit(e, inh);
                self.children(id, flow, inh, depth);
            }
        }
    }

    fn inline_inherit(&self, e: &Element, inh: Inherit) -> Inherit {
        let t = self.theme;
        let Role::Inline(inline) = e.role else { return inh };
        match inline {
            Inline::Plain => inh,
            Inline::Strong => inh.patch(t.strong),
            Inline::Emphasis => inh.patch(t.emphasis),
            Inline::Strike => inh.patch(t.strike),
            Inline::Underline => inh.patch(t.underline),
            Inline::Code => inh.patch(t.code_inline),
            Inline::Mention { wildcard: true, .. } => inh.patch(t.wildcard_mention).nowrap(),
            Inline::Mention { silent: true, .. } => inh.patch(t.mention_silent).nowrap(),
            Inline::Mention { .. } => inh.patch(t.mention).nowrap(),
            Inline::GroupMention { silent: true } => inh.patch(t.group_mention_silent).nowrap(),
            Inline::GroupMention { silent: false } => inh.patch(t.group_mention).nowrap(),
            Inline::TopicMention => inh.patch(t.wildcard_mention).nowrap(),
            Inline::Highlight => inh.patch(t.search_match),
            Inline::AlertWord => inh.patch(t.alert_word),
        }
    }

    /// Leaf-like elements rendered without walking their children. Shared by the structured
    /// and the flat walker. Returns whether `e` was handled.
    fn atom(&mut self, e: &Element, flow: &mut Flow, inh: Inherit) -> bool {
        // The user hid this message's previews: the links stay in the text.
        if e.preview && !self.ctx.link_previews() {
            return true;
        }
        match &e.role {
            Role::Break => flow.hard_break(),
            Role::Rule => {
                let rule = Line::from(Span::styled("─".repeat(flow.width), self.theme.rule));
                flow.block(vec![rule], Kind::Block);
            }
            Role::Image(image) => self.image(image, flow, inh),
            Role::AudioVideo(Some(av)) => self.audio_video(av.tag, &av.src, &av.title, flow, inh),
            Role::Time(ts) => {
                let text = attr_text(&self.ctx.format_time(*ts));
                self.emit(flow, &text, inh.patch(self.theme.time).nowrap());
            }
            Role::Code(code) => self.code_block(code, flow),
            Role::Math { tex, display } => self.math(tex, flow, inh, *display),
            // Not a valid code point sequence is no `Emoji`: the element's text (":name:") is drawn.
            Role::Emoji(text) => self.emit(flow, text, inh.nowrap()),
            Role::Media(Some(m)) => self.media(m, flow),
            _ => {}
        }
        e.role.is_atom()
    }

    fn image(&mut self, image: &Image, flow: &mut Flow, inh: Inherit) {
        let t = self.theme;
        let (src, alt) = match image {
            Image::Emoji(text) => {
                if let Some(text) = text {
                    self.emit(flow, text, inh.patch(t.emoji_custom).nowrap());
                }
                return;
            }
            Image::Alt(alt) => {
                if !alt.is_empty() {
                    self.emit(flow, alt, inh);
                }
                return;
            }
            Image::Picture { src, alt } => (src, alt),
        };
        // Not a picture `I` shows (not an inline image's): no picture number, only its link's.
        let n = self.register_link(src, alt, true);
        let style = inh.style.patch(t.media);
        flow.text("[image]", style, true);
        if !alt.is_empty() {
            flow.space(style);
            self.emit(flow, alt, inh.patch(t.media));
        }
        flow.text(&format!("[{n}]"), marker_style(style, t), true);
    }

    /// A bare `<audio>`/`<video>` (Zulip renders `[a.mp3](/user_uploads/…)` as `<audio>`):
    /// "[audio N] title" inline; the fallback content inside the element is not shown.
    fn audio_video(&mut self, tag: &str, src: &str, title: &str, flow: &mut Flow, inh: Inherit) {
        let t = self.theme;
        let n = self.register_link(src, title, false);
        let style = inh.style.patch(t.media);
        flow.text(&format!("[{tag}]"), style, true);
        flow.space(style);
        let label = if title.is_empty() { attr_text(src) } else { title.to_owned() };
        self.emit(flow, &label, inh.patch(t.media));
        flow.text(&format!("[{n}]"), marker_style(style, t), true);
    }

    fn media(&mut self, m: &Media, flow: &mut Flow) {
        let t = self.theme;
        let n = self.register_link(&m.url, &m.label, !m.is_video);
        // Pictures are numbered as `I` shows them (the first of the message is `[image 1]`),
        // apart from links: the link's number follows the label, as it follows a link's text.
        let tag = match &m.picture {
            _ if m.is_video => "[video]".to_owned(),
            Some(_) => {
                self.pictures += 1;
                format!("[image {}]", self.pictures)
            }
            None => "[image]".to_owned(),
        };
        let mut sub = Flow::new(flow.width);
        sub.text(&tag, t.media, true);
        sub.space(t.media);
        sub.text(&m.label, t.media, false);
        sub.text(&format!("[{n}]"), marker_style(t.media, t), true);
        flow.block(sub.finish(), Kind::Media);
        // Room for the picture under its link, marked until the layout is done: the rows its
        // size takes (one column is kept free at the right), at most `image_rows`.
        if let Some((src, pixels)) = m.picture.as_ref().filter(|(src, _)| self.ctx.image(src)) {
            let most = image_rows(flow.width);
            let width = u16::try_from(flow.width.saturating_sub(1)).unwrap_or(u16::MAX);
            let rows = self.ctx.picture_rows(src, *pixels, width, most);
            let mark = format!("{IMAGE_ROW}{}", self.previews.len());
            self.previews.push((src.clone(), rows.is_some()));
            let rows = (0..rows.unwrap_or(most).clamp(1, most)).map(|_| Line::raw(mark.clone())).collect();
            flow.block(rows, Kind::Media);
        }
    }

    fn math(&mut self, text: &str, flow: &mut Flow, inh: Inherit, display: bool) {
        let inh = inh.patch(self.theme.math);
        if display {
            flow.soft_break();
            self.emit(flow, text, inh);
            flow.soft_break();
        } else {
            self.emit(flow, text, inh);
        }
    }

    fn link(
        &mut self,
        id: NodeId,
        href: Option<&str>,
        mention: bool,
        flow: &mut Flow,
        inh: Inherit,
        depth: usize,
    ) {
        let t = self.theme;
        // Channel and topic mentions are links into the app: numbered like the others (`o`
        // opens them in topicterm), drawn in the channel style.
        let Some(href) = href else {
            self.children(id, flow, if mention { inh.patch(t.channel) } else { inh }, depth);
            return;
        };
        let outer = self.capture.replace(String::new());
        self.children(id, flow, inh.patch(if mention { t.channel } else { t.link }), depth);
        let captured = self.capture.take().unwrap_or_default();
        self.capture = outer.map(|mut o| {
            o.push_str(&captured);
            o
        });
        let n = self.register_link(href, &attr_text(&captured), false);
        flow.text(&format!("[{n}]"), marker_style(inh.style, t), true);
    }

    fn blockquote(&mut self, id: NodeId, flow: &mut Flow, inh: Inherit, depth: usize) {
        match inner_width(flow.width, 2) {
            Some(w) => {
                let mut sub = Flow::new(w);
                self.children(id, &mut sub, inh, depth);
                let lines = prefix_lines(sub.finish(), "▎ ", "▎ ", self.theme.quote_bar);
                flow.block(lines, Kind::Block);
            }
            None => self.block_children(id, flow, inh, depth),
        }
    }

    /// One item of a list: a `li`'s children, another element, or stray text.
    fn list_item(&mut self, item: NodeId, sub: &mut Flow, inh: Inherit, depth: usize) {
        match &self.tree.node(item).kind {
            NodeKind::Text(text) => self.emit(sub, text, inh),
            NodeKind::Element(e) if e.tag == Tag::Li => self.children(item, sub, inh, depth + 1),
            NodeKind::Element(_) => self.element(item, sub, inh, depth + 1),
        }
    }

    fn list(&mut self, id: NodeId, flow: &mut Flow, inh: Inherit, depth: usize, ordered: bool, start: i64) {
        let t = self.theme;
        let tree = self.tree;
        // Items: child elements (normally <li>) and stray non-blank text.
        let items: Vec<NodeId> = tree
            .children(id)
            .iter()
            .copied()
            .filter(|&c| match &tree.node(c).kind {
                NodeKind::Element(_) => true,
                NodeKind::Text(text) => !text.trim().is_empty(),
            })
            .collect();
        if items.is_empty() {
            return;
        }
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
            self.list_item(item, &mut sub, inh, depth);
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

    /// A spoiler's header lines: its header's content (else "Spoiler"), the hint, the marker.
    fn spoiler_head(
        &mut self,
        header: Option<NodeId>,
        open: bool,
        w: usize,
        indented: bool,
        inh: Inherit,
        depth: usize,
    ) -> Vec<Line<'static>> {
        let t = self.theme;
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
        if indented {
            prefix_lines(head, marker, "  ", t.spoiler)
        } else {
            let mut l = vec![Line::from(Span::styled(marker.trim_end(), t.spoiler))];
            l.extend(head);
            l
        }
    }

    fn spoiler(&mut self, id: NodeId, e: &Element, stray: bool, flow: &mut Flow, inh: Inherit, depth: usize) {
        let t = self.theme;
        let tree = self.tree;
        let open = self.spoiler_open(e);
        let header = match e.spoiler {
            Spoiler::Block { header, .. } if !stray => header,
            _ => None,
        };
        let indented = inner_width(flow.width, 2);
        let w = indented.unwrap_or(flow.width);
        let mut lines = self.spoiler_head(header, open, w, indented.is_some(), inh, depth);
        if open {
            let mut body = Flow::new(w);
            for &child in tree.children(id) {
                match &tree.node(child).kind {
                    NodeKind::Text(text) => self.emit(&mut body, text, inh),
                    NodeKind::Element(_) if Some(child) == header => {}
                    NodeKind::Element(c) if !stray && c.spoiler_content => {
                        self.children(child, &mut body, inh, depth + 1)
                    }
                    NodeKind::Element(_) => self.element(child, &mut body, inh, depth + 1),
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
