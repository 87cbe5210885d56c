//! A message's HTML as a document: parsed once (unless parsing would cost too much), its
//! spoilers numbered, and what the rest of the client needs of it without laying it out —
//! its links and code blocks as the message pane numbers them, and its text.
//!
//! [`Document::summary`] walks the tree the way the layout in `ui::content` does (the same
//! elements shown, skipped or hidden, links numbered in the same order, the same depth at
//! which the walk turns flat), so the numbers the user reads on screen are the numbers `o 2`
//! and `Y 2` use. The fuzz checks (`fuzz/checks.rs`) hold the two to that.

use super::guard::parse_too_costly;
use super::html::{
    Visit, audio_video_src, code_language, emoji_from_code, has_class, is_block, is_skipped,
    is_spoiler_block, is_spoiler_part, is_stray_spoiler_content, media_link, media_preview, parent_element,
    shown_elements, spoiler_indices, walk_tree,
};
use super::text::{attr_text, collapse_ws, sanitize, sanitize_code};
use scraper::{ElementRef, Html, Node};
use std::collections::HashMap;

/// Maximum element nesting walked recursively; deeper content is walked flat, without
/// recursion, so hostile nesting cannot overflow the stack.
pub(crate) const MAX_DEPTH: usize = 32;

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

/// Parsed message HTML.
pub struct Document {
    /// `None` when parsing would take too long (see `guard`): nothing of it is shown.
    html: Option<Html>,
    spoilers: HashMap<*const scraper::node::Element, usize>,
}

impl Document {
    /// Parse `html` (entities decoded by the parser; nothing is escaped or decoded by hand).
    pub fn parse(html: &str) -> Document {
        if parse_too_costly(html) {
            return Document { html: None, spoilers: HashMap::new() };
        }
        let html = Html::parse_fragment(html);
        let spoilers = spoiler_indices(&html);
        Document { html: Some(html), spoilers }
    }

    /// The tree, unless parsing was refused as too costly.
    pub fn html(&self) -> Option<&Html> {
        self.html.as_ref()
    }

    /// The number of spoilers (block or stray content), which numbers them.
    pub fn spoiler_count(&self) -> usize {
        self.spoilers.len()
    }

    /// The index of a spoiler element; `None` for one the numbering missed (it stays closed).
    pub fn spoiler_index(&self, el: ElementRef<'_>) -> Option<usize> {
        self.spoilers.get(&(el.value() as *const _)).copied()
    }

    /// Links, code blocks and text, as a reader with `ctx` sees them.
    pub fn summary(&self, ctx: &dyn ContentContext) -> Summary {
        let Some(html) = &self.html else { return Summary::default() };
        let mut w =
            Walker { doc: self, ctx, out: Summary::default(), link_ids: HashMap::new(), capture: None };
        w.children(html.root_element(), 0);
        let text = w.out.text.split_whitespace().collect::<Vec<_>>().join(" ");
        w.out.text = sanitize(&text);
        w.out
    }
}

/// The layout's walk, keeping only what is not layout.
struct Walker<'a> {
    doc: &'a Document,
    ctx: &'a dyn ContentContext,
    out: Summary,
    link_ids: HashMap<String, usize>,
    /// Text shown inside the link being walked (its text, when it has one).
    capture: Option<String>,
}

impl Walker<'_> {
    fn spoiler_open(&self, el: ElementRef<'_>) -> bool {
        self.doc.spoiler_index(el).is_some_and(|i| self.ctx.spoiler_open(i))
    }

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

    fn children(&mut self, el: ElementRef<'_>, depth: usize) {
        for child in el.children() {
            match child.value() {
                Node::Text(t) => self.emit(&t.text),
                Node::Element(_) => {
                    if let Some(c) = ElementRef::wrap(child) {
                        self.element(c, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }

    fn element(&mut self, el: ElementRef<'_>, depth: usize) {
        if depth > MAX_DEPTH {
            self.flat(el);
            return;
        }
        // A hidden spoiler is hidden too.
        if is_skipped(el) {
            return;
        }
        if is_spoiler_block(el) {
            self.spoiler(el, false, depth);
            return;
        }
        if has_class(el, "spoiler-content") {
            self.spoiler(el, true, depth);
            return;
        }
        if self.atom(el) {
            return;
        }
        let name = el.value().name();
        // Blocks end words: keep them apart in the text.
        let block = is_block(name);
        if block {
            self.out.text.push(' ');
        }
        match name {
            "a" => self.link(el, depth),
            "ul" | "ol" | "menu" => self.list(el, depth),
            "table" => self.table(el, depth),
            _ => self.children(el, depth),
        }
        if block {
            self.out.text.push(' ');
        }
    }

    /// Elements shown without walking their children; whether `el` was one.
    fn atom(&mut self, el: ElementRef<'_>) -> bool {
        if is_skipped(el) {
            return true;
        }
        let name = el.value().name();
        match name {
            "br" | "hr" => self.out.text.push(' '),
            "img" => self.image(el),
            "audio" | "video" => self.audio_video(el),
            "time" => return self.time(el),
            "pre" => self.code_block(el),
            "span" if has_class(el, "katex-display") || has_class(el, "katex") => self.math(el),
            "span" if has_class(el, "emoji") => return self.emoji(el),
            "div"
                if has_class(el, "message_inline_image")
                    || has_class(el, "message_inline_video")
                    || has_class(el, "youtube-video")
                    || has_class(el, "vimeo-video") =>
            {
                self.media(el)
            }
            "a" if has_class(el, "message_embed_image") => {}
            _ => return false,
        }
        true
    }

    fn image(&mut self, el: ElementRef<'_>) {
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
            self.emit(&text);
            return;
        }
        let src = super::html::image_link(el);
        let Some(src) = src else {
            if !alt.is_empty() {
                self.emit(&alt);
            }
            return;
        };
        self.register_link(src, &alt, true);
        if !alt.is_empty() {
            self.out.text.push(' ');
            self.emit(&alt);
        }
    }

    fn audio_video(&mut self, el: ElementRef<'_>) {
        let Some(src) = audio_video_src(el) else { return };
        let title = el.attr("title").map(attr_text).unwrap_or_default();
        self.register_link(src, &title, false);
        let label = if title.is_empty() { attr_text(src) } else { title };
        self.out.text.push(' ');
        self.emit(&label);
    }

    fn media(&mut self, el: ElementRef<'_>) {
        let Some((url, label, is_video)) = media_link(el) else { return };
        self.register_link(&url, &label, !is_video);
        if let Some(src) = media_preview(el) {
            self.out.previews.push(src);
            self.out.preview_labels.push(label.clone());
        }
        self.note(&label);
    }

    fn time(&mut self, el: ElementRef<'_>) -> bool {
        let Some(dt) = el.attr("datetime") else {
            return false;
        };
        let Ok(parsed) = chrono::DateTime::parse_from_rfc3339(dt.trim()) else {
            return false;
        };
        let text = attr_text(&self.ctx.format_time(parsed.timestamp()));
        self.emit(&text);
        true
    }

    fn emoji(&mut self, el: ElementRef<'_>) -> bool {
        let emoji = el.value().classes().filter_map(|c| c.strip_prefix("emoji-")).find_map(emoji_from_code);
        match emoji {
            Some(e) => {
                self.emit(&e);
                true
            }
            None => false,
        }
    }

    fn math(&mut self, el: ElementRef<'_>) {
        self.emit(&math_text(el));
    }

    fn link(&mut self, el: ElementRef<'_>, depth: usize) {
        let Some(href) = el.attr("href").map(str::trim).filter(|h| !h.is_empty()) else {
            self.children(el, depth);
            return;
        };
        let outer = self.capture.replace(String::new());
        self.children(el, depth);
        let captured = self.capture.take().unwrap_or_default();
        self.capture = outer.map(|mut o| {
            o.push_str(&captured);
            o
        });
        self.register_link(href, &attr_text(&captured), false);
    }

    /// Each item of a list ends as a sentence (a full stop unless it ends in punctuation), so
    /// that items read apart: "Agenda: Q4 numbers. 2.4 roadmap." rather than run together.
    fn list(&mut self, el: ElementRef<'_>, depth: usize) {
        for item in el.children() {
            let start = self.out.text.len();
            match item.value() {
                Node::Text(text) if !text.trim().is_empty() => self.emit(text),
                Node::Element(_) => {
                    if let Some(e) = ElementRef::wrap(item) {
                        self.out.text.push(' ');
                        if e.value().name() == "li" {
                            self.children(e, depth + 1);
                        } else {
                            self.element(e, depth + 1);
                        }
                    }
                }
                _ => continue,
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

    fn table(&mut self, el: ElementRef<'_>, depth: usize) {
        let mut rows = Vec::new();
        for c in el.child_elements() {
            match c.value().name() {
                "tr" => rows.push(c),
                "thead" | "tbody" | "tfoot" => {
                    rows.extend(c.child_elements().filter(|r| r.value().name() == "tr"))
                }
                "caption" => self.children(c, depth + 1),
                _ => {}
            }
        }
        for tr in rows {
            for td in tr.child_elements().filter(|c| matches!(c.value().name(), "td" | "th")) {
                self.out.text.push(' ');
                self.children(td, depth + 2);
                self.out.text.push(' ');
            }
        }
    }

    /// A spoiler: its header (always shown) first, then its content when open.
    fn spoiler(&mut self, el: ElementRef<'_>, stray: bool, depth: usize) {
        let open = self.spoiler_open(el);
        let header = if stray { None } else { el.child_elements().find(|c| has_class(*c, "spoiler-header")) };
        self.out.text.push(' ');
        if let Some(h) = header {
            self.children(h, depth + 1);
        }
        self.out.text.push(' ');
        if open {
            for child in el.children() {
                match child.value() {
                    Node::Text(text) => self.emit(text),
                    Node::Element(_) => {
                        let Some(c) = ElementRef::wrap(child) else { continue };
                        if Some(c) == header {
                            continue;
                        }
                        if !stray && has_class(c, "spoiler-content") {
                            self.children(c, depth + 1);
                        } else {
                            self.element(c, depth + 1);
                        }
                    }
                    _ => {}
                }
            }
            self.out.text.push(' ');
        }
    }

    fn code_block(&mut self, pre: ElementRef<'_>) {
        let code = code_text(pre);
        self.note(&code);
        self.out.code_blocks.push(CodeBlock { code, language: code_language(pre) });
    }

    /// Below [`MAX_DEPTH`]: the same, iteratively and in document order (spoiler headers
    /// where they stand).
    fn flat<'d>(&mut self, root: ElementRef<'d>) {
        let mut links: Vec<(ElementRef<'d>, &'d str, Option<String>)> = Vec::new();
        let mut spoilers: Vec<(ElementRef<'d>, bool)> = Vec::new();
        walk_tree(root, |v| match v {
            Visit::Text(text, parent) => {
                let hidden = spoilers.last().is_some_and(|(b, open)| !open && parent == Some(*b));
                if !hidden {
                    self.emit(text);
                }
                true
            }
            Visit::Open(el) => {
                if is_skipped(el) {
                    return false;
                }
                let parent = parent_element(el);
                if let Some((block, false)) = spoilers.last()
                    && parent == Some(*block)
                    && !has_class(el, "spoiler-header")
                {
                    return false;
                }
                if is_spoiler_block(el) {
                    spoilers.push((el, self.spoiler_open(el)));
                    return true;
                }
                if is_stray_spoiler_content(el) {
                    return self.spoiler_open(el);
                }
                if has_class(el, "spoiler-header") && spoilers.last().is_some_and(|(b, _)| parent == Some(*b))
                {
                    return true;
                }
                if self.atom(el) {
                    return false;
                }
                if el.value().name() == "a"
                    && let Some(href) = el.attr("href").map(str::trim).filter(|h| !h.is_empty())
                {
                    links.push((el, href, self.capture.replace(String::new())));
                }
                if is_block(el.value().name()) {
                    self.out.text.push(' ');
                }
                true
            }
            Visit::Close(el) => {
                if links.last().is_some_and(|(e, _, _)| *e == el)
                    && let Some((_, href, outer)) = links.pop()
                {
                    let captured = self.capture.take().unwrap_or_default();
                    self.capture = outer.map(|mut o| {
                        o.push_str(&captured);
                        o
                    });
                    self.register_link(href, &attr_text(&captured), false);
                }
                if spoilers.last().is_some_and(|(e, _)| *e == el) {
                    spoilers.pop();
                }
                if is_block(el.value().name()) {
                    self.out.text.push(' ');
                }
                true
            }
        });
    }
}

/// A code block's raw text: `<br>` as line breaks, nothing of a spoiler inside it, controls
/// out (tabs and line breaks kept), one trailing line break dropped.
pub(crate) fn code_text(pre: ElementRef<'_>) -> String {
    let mut raw = String::new();
    walk_tree(pre, |v| match v {
        Visit::Open(e) => {
            let name = e.value().name();
            if is_skipped(e) || (e != pre && is_spoiler_part(e)) {
                return false;
            }
            if name == "br" {
                raw.push('\n');
            }
            true
        }
        Visit::Close(_) => true,
        Visit::Text(text, _) => {
            raw.push_str(&sanitize_code(text));
            true
        }
    });
    if raw.ends_with('\n') {
        raw.pop();
    }
    raw
}

/// KaTeX as its TeX source (`$$…$$`), or "[math]" when it carries none.
pub(crate) fn math_text(el: ElementRef<'_>) -> String {
    let tex = shown_elements(el)
        .into_iter()
        .find(|d| {
            d.value().name() == "annotation"
                && d.attr("encoding").is_some_and(|e| e.trim().eq_ignore_ascii_case("application/x-tex"))
        })
        .map(|a| {
            let mut tex = String::new();
            walk_tree(a, |v| match v {
                Visit::Open(e) => e == a || !is_spoiler_part(e),
                Visit::Text(t, _) => {
                    tex.push_str(t);
                    true
                }
                Visit::Close(_) => true,
            });
            collapse_ws(&tex)
        });
    match tex {
        Some(tex) => format!("$${tex}$$"),
        None => "[math]".to_owned(),
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
        assert!(doc.html().is_none());
        assert_eq!(doc.summary(&Ctx(true)), Summary::default());
    }
}
