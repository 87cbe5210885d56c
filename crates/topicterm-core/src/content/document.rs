//! A message's HTML as a document: parsed once (unless parsing would cost too much) into the
//! document tree (`tree.rs`), and what the rest of the client needs of it without laying it
//! out — its links and code blocks as the message pane numbers them, and its text.
//!
//! [`Document::summary`] walks the tree the way the layout in `ui::content` does (the same
//! elements shown, skipped or hidden, links numbered in the same order, the same depth at
//! which the walk turns flat), so the numbers the user reads on screen are the numbers `o 2`
//! and `Y 2` use. The fuzz checks (`fuzz/checks.rs`) hold the two to that.

use super::guard::parse_too_costly;
use super::html::spoiler_indices;
use super::text::{attr_text, sanitize};
use super::tree::{Element, Image, Kind, NodeId, Role, Spoiler, Step, Table, Tag, Tree};
use scraper::Html;
use std::collections::HashMap;

/// Maximum element nesting walked recursively; deeper content is walked flat, without
/// recursion, so hostile nesting cannot overflow the stack.
pub const MAX_DEPTH: usize = 32;

/// What the reader of a document decides: how times read and which spoilers are open.
pub trait ContentContext {
    /// Format a UNIX timestamp (UTC seconds) in the user's local time, e.g. "Tue 25 Nov 15:00".
    fn format_time(&self, ts: i64) -> String;
    /// Whether the spoiler with this index (0-based, in document order) is expanded.
    fn spoiler_open(&self, index: usize) -> bool;
    /// Whether this inline image's picture is drawn (room is made for it under its link).
    fn image(&self, _src: &str) -> bool {
        false
    }
    /// The rows a drawn picture takes in a room `width` columns wide and at most `most` rows
    /// high, from its size in pixels: `pixels` as the message gives it, else the picture's own
    /// once it is held. `None` while its size is not known (the room is then `most` rows).
    fn picture_rows(&self, _src: &str, _pixels: Option<(u32, u32)>, _width: u16, _most: u16) -> Option<u16> {
        None
    }
    /// Whether the server's link previews (embeds, videos, pictures of linked pages) are drawn:
    /// not for a message the user flagged `hide_link_previews` (level 510).
    fn link_previews(&self) -> bool {
        true
    }
}

/// A link or image of a message, numbered `[1]`, `[2]`, … in order of first appearance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRef {
    pub url: String,
    pub text: String,
    pub is_image: bool,
}

/// A code block: its raw text (for copying) and its language (lowercase).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    pub code: String,
    pub language: Option<String>,
}

/// What a document holds for a reader who does not lay it out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Links and images, in the order (and with the numbers) the message pane shows them.
    pub links: Vec<LinkRef>,
    /// Code blocks, in order.
    pub code_blocks: Vec<CodeBlock>,
    /// The text, sanitised, on one line (closed spoilers' content left out; links, images,
    /// media by their text; no layout marks).
    pub text: String,
    /// The pictures of its inline images (the server's thumbnails where it made them), in
    /// order; those in closed spoilers left out.
    pub previews: Vec<String>,
    /// What each of `previews` is shown as (its title or file name), in the same order.
    pub preview_labels: Vec<String>,
}

/// Parsed message HTML, as the document tree.
pub struct Document {
    /// `None` when parsing would take too long (see `guard`): nothing of it is shown.
    tree: Option<Tree>,
    spoilers: usize,
}

impl Document {
    /// Parse `html` (entities decoded by the parser; nothing is escaped or decoded by hand)
    /// into the document tree; the HTML is not kept.
    pub fn parse(html: &str) -> Document {
        if parse_too_costly(html) {
            return Document { tree: None, spoilers: 0 };
        }
        let html = Html::parse_fragment(html);
        let spoilers = spoiler_indices(&html);
        Document { tree: Some(Tree::build(&html, &spoilers)), spoilers: spoilers.len() }
    }

    /// The tree, unless parsing was refused as too costly.
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// The number of spoilers (block or stray content), which numbers them.
    pub fn spoiler_count(&self) -> usize {
        self.spoilers
    }

    /// Links, code blocks and text, as a reader with `ctx` sees them.
    pub fn summary(&self, ctx: &dyn ContentContext) -> Summary {
        let Some(tree) = &self.tree else { return Summary::default() };
        let mut w = Walker { tree, ctx, out: Summary::default(), link_ids: HashMap::new(), capture: None };
        w.children(tree.root(), 0);
        let text = w.out.text.split_whitespace().collect::<Vec<_>>().join(" ");
        w.out.text = sanitize(&text);
        w.out
    }
}

/// Whether the spoiler `index` is open for `ctx`; one the numbering missed stays closed.
pub fn spoiler_open(ctx: &dyn ContentContext, spoiler: Spoiler) -> bool {
    match spoiler {
        Spoiler::Block { index, .. } | Spoiler::Content { index, .. } => {
            index.is_some_and(|i| ctx.spoiler_open(i))
        }
        Spoiler::No => false,
    }
}

/// The layout's walk, keeping only what is not layout.
struct Walker<'a> {
    tree: &'a Tree,
    ctx: &'a dyn ContentContext,
    out: Summary,
    link_ids: HashMap<String, usize>,
    /// Text shown inside the link being walked (its text, when it has one).
    capture: Option<String>,
}

impl<'a> Walker<'a> {
    /// Text shown as the content's own (link text inside a link).
    fn emit(&mut self, text: &str) {
        if let Some(c) = self.capture.as_mut() {
            c.push_str(text);
        }
        self.out.text.push_str(text);
    }

    /// Text the layout adds beside the content (not part of a link's text).
    fn note(&mut self, text: &str) {
        self.out.text.push(' ');
        self.out.text.push_str(text);
        self.out.text.push(' ');
    }

    fn register_link(&mut self, url: &str, text: &str, is_image: bool) {
        let url = attr_text(url);
        if let Some(&i) = self.link_ids.get(&url) {
            if is_image {
                self.out.links[i].is_image = true;
            }
            return;
        }
        let text = if text.is_empty() { url.clone() } else { text.to_owned() };
        self.out.links.push(LinkRef { url: url.clone(), text, is_image });
        self.link_ids.insert(url, self.out.links.len() - 1);
    }

    fn children(&mut self, id: NodeId, depth: usize) {
        let tree = self.tree;
        for &child in tree.children(id) {
            match &tree.node(child).kind {
                Kind::Text(t) => self.emit(t),
                Kind::Element(_) => self.element(child, depth + 1),
            }
        }
    }

    fn element(&mut self, id: NodeId, depth: usize) {
        let tree = self.tree;
        let Some(e) = tree.element(id) else { return };
        if depth > MAX_DEPTH {
            self.flat(id);
            return;
        }
        // A hidden spoiler is hidden too.
        if matches!(e.role, Role::Skipped) {
            return;
        }
        match e.spoiler {
            Spoiler::Block { .. } => return self.spoiler(id, e, false, depth),
            Spoiler::Content { .. } => return self.spoiler(id, e, true, depth),
            Spoiler::No => {}
        }
        if self.atom(e) {
            return;
        }
        // Blocks end words: keep them apart in the text.
        if e.block {
            self.out.text.push(' ');
        }
        match &e.role {
            Role::Link { href, .. } => self.link(id, href.as_deref(), depth),
            Role::List { .. } => self.list(id, depth),
            Role::Table(t) => self.table(t, depth),
            _ => self.children(id, depth),
        }
        if e.block {
            self.out.text.push(' ');
        }
    }

    /// Elements shown without walking their children; whether `e` was one.
    fn atom(&mut self, e: &Element) -> bool {
        match &e.role {
            Role::Break | Role::Rule => self.out.text.push(' '),
            Role::Image(image) => self.image(image),
            Role::AudioVideo(Some(av)) => {
                self.register_link(&av.src, &av.title, false);
                let label = if av.title.is_empty() { attr_text(&av.src) } else { av.title.clone() };
                self.out.text.push(' ');
                self.emit(&label);
            }
            Role::Time(ts) => {
                let text = attr_text(&self.ctx.format_time(*ts));
                self.emit(&text);
            }
            Role::Code(code) => {
                self.note(&code.code);
                self.out
                    .code_blocks
                    .push(CodeBlock { code: code.code.clone(), language: code.language.clone() });
            }
            Role::Math { tex, .. } | Role::Emoji(tex) => self.emit(tex),
            Role::Media(Some(m)) => {
                self.register_link(&m.url, &m.label, !m.is_video);
                if let Some((src, _)) = &m.picture {
                    self.out.previews.push(src.clone());
                    self.out.preview_labels.push(m.label.clone());
                }
                self.note(&m.label);
            }
            _ => {}
        }
        e.role.is_atom()
    }

    fn image(&mut self, image: &Image) {
        match image {
            Image::Emoji(text) => {
                if let Some(text) = text {
                    self.emit(text);
                }
            }
            Image::Alt(alt) => {
                if !alt.is_empty() {
                    self.emit(alt);
                }
            }
            Image::Picture { src, alt } => {
                self.register_link(src, alt, true);
                if !alt.is_empty() {
                    self.out.text.push(' ');
                    self.emit(alt);
                }
            }
        }
    }

    fn link(&mut self, id: NodeId, href: Option<&str>, depth: usize) {
        let Some(href) = href else {
            self.children(id, depth);
            return;
        };
        let outer = self.capture.replace(String::new());
        self.children(id, depth);
        let captured = self.capture.take().unwrap_or_default();
        self.capture = outer.map(|mut o| {
            o.push_str(&captured);
            o
        });
        self.register_link(href, &attr_text(&captured), false);
    }

    /// Each item of a list ends as a sentence (a full stop unless it ends in punctuation), so
    /// that items read apart: "Agenda: Q4 numbers. 2.4 roadmap." rather than run together.
    fn list(&mut self, id: NodeId, depth: usize) {
        let tree = self.tree;
        for &item in tree.children(id) {
            let start = self.out.text.len();
            match &tree.node(item).kind {
                Kind::Text(text) if !text.trim().is_empty() => self.emit(text),
                Kind::Text(_) => continue,
                Kind::Element(e) => {
                    self.out.text.push(' ');
                    if e.tag == Tag::Li {
                        self.children(item, depth + 1);
                    } else {
                        self.element(item, depth + 1);
                    }
                }
            }
            self.end_sentence(start);
            self.out.text.push(' ');
        }
    }

    /// End the text written since byte `start` as a sentence, if it wrote any words.
    fn end_sentence(&mut self, start: usize) {
        let text = &self.out.text[start..];
        let Some(last) = text.trim_end().chars().next_back() else { return };
        if !matches!(last, '.' | '?' | '!' | ':' | ';' | ',' | '…') {
            let end = start + text.trim_end().len();
            self.out.text.truncate(end);
            self.out.text.push('.');
        }
    }

    fn table(&mut self, t: &Table, depth: usize) {
        for &c in &t.captions {
            self.children(c, depth + 1);
        }
        for row in &t.rows {
            for &td in &row.cells {
                self.out.text.push(' ');
                self.children(td, depth + 2);
                self.out.text.push(' ');
            }
        }
    }

    /// A spoiler: its header (always shown) first, then its content when open.
    fn spoiler(&mut self, id: NodeId, e: &Element, stray: bool, depth: usize) {
        let tree = self.tree;
        let open = spoiler_open(self.ctx, e.spoiler);
        let header = match e.spoiler {
            Spoiler::Block { header, .. } if !stray => header,
            _ => None,
        };
        self.out.text.push(' ');
        if let Some(h) = header {
            self.children(h, depth + 1);
        }
        self.out.text.push(' ');
        if open {
            for &child in tree.children(id) {
                match &tree.node(child).kind {
                    Kind::Text(text) => self.emit(text),
                    Kind::Element(c) => {
                        if Some(child) == header {
                            continue;
                        }
                        if !stray && c.spoiler_content {
                            self.children(child, depth + 1);
                        } else {
                            self.element(child, depth + 1);
                        }
                    }
                }
            }
            self.out.text.push(' ');
        }
    }

    /// Below [`MAX_DEPTH`]: the same, iteratively and in document order (spoiler headers
    /// where they stand).
    fn flat(&mut self, root: NodeId) {
        let tree = self.tree;
        let mut links: Vec<(NodeId, &'a str, Option<String>)> = Vec::new();
        let mut spoilers: Vec<(NodeId, bool)> = Vec::new();
        tree.walk(root, |step| match step {
            Step::Text(text, parent) => {
                let hidden = spoilers.last().is_some_and(|(b, open)| !open && parent == Some(*b));
                if !hidden {
                    self.emit(text);
                }
                true
            }
            Step::Open(id, e) => {
                if matches!(e.role, Role::Skipped) {
                    return false;
                }
                let parent = tree.node(id).parent;
                if let Some((block, false)) = spoilers.last()
                    && parent == Some(*block)
                    && !e.spoiler_header
                {
                    return false;
                }
                match e.spoiler {
                    Spoiler::Block { .. } => {
                        spoilers.push((id, spoiler_open(self.ctx, e.spoiler)));
                        return true;
                    }
                    Spoiler::Content { stray: true, .. } => return spoiler_open(self.ctx, e.spoiler),
                    _ => {}
                }
                if e.spoiler_header && spoilers.last().is_some_and(|(b, _)| parent == Some(*b)) {
                    return true;
                }
                if self.atom(e) {
                    return false;
                }
                if let Role::Link { href: Some(href), .. } = &e.role {
                    links.push((id, href, self.capture.replace(String::new())));
                }
                if e.block {
                    self.out.text.push(' ');
                }
                true
            }
            Step::Close(id, e) => {
                if links.last().is_some_and(|(l, _, _)| *l == id)
                    && let Some((_, href, outer)) = links.pop()
                {
                    let captured = self.capture.take().unwrap_or_default();
                    self.capture = outer.map(|mut o| {
                        o.push_str(&captured);
                        o
                    });
                    self.register_link(href, &attr_text(&captured), false);
                }
                if spoilers.last().is_some_and(|(s, _)| *s == id) {
                    spoilers.pop();
                }
                if e.block {
                    self.out.text.push(' ');
                }
                true
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ctx(bool);
    impl ContentContext for Ctx {
        fn format_time(&self, ts: i64) -> String {
            format!("<{ts}>")
        }
        fn spoiler_open(&self, _: usize) -> bool {
            self.0
        }
    }

    const SPOILER: &str = "<p>a &amp; b <strong>bold</strong> <a href=\"https://x.example\">x</a></p>\
        <div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>ending</p></div>\
        <div class=\"spoiler-content\"><p>he <a href=\"/secret\">dies</a></p>\
        <pre><code class=\"language-rust\">fn main() {}\n</code></pre></div></div>";

    #[test]
    fn closed_spoilers_keep_their_links_code_and_text_to_themselves() {
        let doc = Document::parse(SPOILER);
        assert_eq!(doc.spoiler_count(), 1);
        let closed = doc.summary(&Ctx(false));
        assert_eq!(closed.text, "a & b bold x ending");
        assert_eq!(closed.links.len(), 1);
        assert!(closed.code_blocks.is_empty());
        let open = doc.summary(&Ctx(true));
        assert_eq!(open.text, "a & b bold x ending he dies fn main() {}");
        assert_eq!(
            open.links,
            vec![
                LinkRef { url: "https://x.example".into(), text: "x".into(), is_image: false },
                LinkRef { url: "/secret".into(), text: "dies".into(), is_image: false },
            ]
        );
        assert_eq!(
            open.code_blocks,
            vec![CodeBlock { code: "fn main() {}".into(), language: Some("rust".into()) }]
        );
    }

    #[test]
    fn links_are_numbered_once_and_images_marked() {
        let doc = Document::parse(
            "<p><a href=\"/u/a.png\"><img src=\"/u/a.png\" alt=\"cat\"></a> <a href=\" /u/a.png \">again</a> \
             <time datetime=\"2026-01-01T00:00:00Z\">x</time>\u{1b}[2J</p>",
        );
        let s = doc.summary(&Ctx(false));
        assert_eq!(s.links, vec![LinkRef { url: "/u/a.png".into(), text: "cat".into(), is_image: true }]);
        assert_eq!(s.text, "cat again <1767225600>[2J");
    }

    #[test]
    fn too_costly_html_is_an_empty_document() {
        let doc = Document::parse(&"<div>".repeat(50_000));
        assert!(doc.tree().is_none());
        assert_eq!(doc.summary(&Ctx(true)), Summary::default());
    }
}
