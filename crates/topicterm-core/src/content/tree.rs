//! The document tree: a message's HTML read once into what each part of it means to this client
//! — a paragraph, a link, a mention, a spoiler and its number, a code block with its tokens, a
//! picture with its size — so that nothing after the parse reads HTML. The summary
//! (`document.rs`) and the layout (`ui::content`) both walk this tree; what an element is (shown,
//! skipped, an atom drawn without its children, a block) is decided here, once.
//!
//! The tree is an arena (`Vec<Node>`, children by index), built without recursion, so a hostile
//! nesting depth can neither overflow the stack building it nor dropping it; the walkers recurse
//! to [`MAX_DEPTH`](super::MAX_DEPTH) and walk deeper parts with [`Tree::walk`], which does not
//! recurse.

use super::html::{
    Visit, audio_video_src, code_language, emoji_from_code, has_class, image_link, is_block, is_skipped,
    is_spoiler_block, is_spoiler_part, is_stray_spoiler_content, media_link, media_picture, shown_elements,
    walk_tree,
};
use super::text::{attr_text, collapse_ws, sanitize_code};
use scraper::{ElementRef, Html};
use std::collections::HashMap;

/// A node's place in its [`Tree`].
pub type NodeId = usize;

/// The parsed content: node 0 is the root (the fragment's `<html>`, not itself content).
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
}

#[derive(Debug)]
pub struct Node {
    pub parent: Option<NodeId>,
    /// In document order; empty for an atom (drawn from what it says, not from its children).
    pub children: Vec<NodeId>,
    pub kind: Kind,
}

#[derive(Debug)]
pub enum Kind {
    /// Text as the server wrote it, entities decoded (not yet sanitised).
    Text(String),
    Element(Element),
}

/// What an element is to this client.
#[derive(Debug)]
pub struct Element {
    pub role: Role,
    pub spoiler: Spoiler,
    pub tag: Tag,
    /// A paragraph-like element (it starts and ends a block).
    pub block: bool,
    /// It has the class `spoiler-header`.
    pub spoiler_header: bool,
    /// It has the class `spoiler-content` (a block's body, or, `Spoiler::Content`, a stray one).
    pub spoiler_content: bool,
    /// A preview the server made of a link in the text: not drawn for a message whose previews
    /// the user hid.
    pub preview: bool,
}

/// Whether an element is a spoiler, and its number (`None`: one the numbering missed, which
/// stays closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spoiler {
    No,
    /// A `spoiler-block`, with its header (the first child of class `spoiler-header`).
    Block {
        index: Option<usize>,
        header: Option<NodeId>,
    },
    /// A `spoiler-content`: `stray` when it is not a block's child (then a spoiler of its own).
    Content {
        index: Option<usize>,
        stray: bool,
    },
}

/// The elements a table, a list or the flat walk finds by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Li,
    Tr,
    /// `thead` (`head`), `tbody`, `tfoot`.
    RowGroup {
        head: bool,
    },
    Caption,
    /// `td`, or `th`.
    Cell {
        th: bool,
        align: Align,
    },
    Other,
}

/// A table cell's alignment (its `text-align` style, else its `align`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// What an element shows. Atoms (from `Skipped`… to `Media`) are drawn without their children.
#[derive(Debug)]
pub enum Role {
    /// Never shown (not content, or hidden by the page).
    Skipped,
    /// Shown as nothing (an embed's picture link).
    Nothing,
    Break,
    Rule,
    Image(Image),
    /// A bare `<audio>`/`<video>`; `None` without a usable source.
    AudioVideo(Option<AudioVideo>),
    /// A `<time>`: UNIX seconds.
    Time(i64),
    Code(Box<Code>),
    Math {
        tex: String,
        display: bool,
    },
    /// A Unicode emoji's text.
    Emoji(String),
    /// An inline image or video; `None` without a usable link.
    Media(Option<Box<Media>>),
    /// A link (`href` trimmed, `None` when empty); `mention`: a channel or topic link.
    Link {
        href: Option<String>,
        mention: bool,
    },
    Quote,
    List {
        ordered: bool,
        start: i64,
    },
    Table(Box<Table>),
    Heading {
        major: bool,
    },
    Block,
    Inline(Inline),
}

impl Role {
    /// Drawn from what it says, without walking its children.
    pub fn is_atom(&self) -> bool {
        matches!(
            self,
            Role::Skipped
                | Role::Nothing
                | Role::Break
                | Role::Rule
                | Role::Image(_)
                | Role::AudioVideo(_)
                | Role::Time(_)
                | Role::Code(_)
                | Role::Math { .. }
                | Role::Emoji(_)
                | Role::Media(_)
        )
    }
}

#[derive(Debug)]
pub enum Image {
    /// A custom emoji: its alt text, else `:title:`; `None` when it has neither.
    Emoji(Option<String>),
    /// A picture: its file's address (as written) and its alt text.
    Picture { src: String, alt: String },
    /// No usable address: its alt text (maybe empty).
    Alt(String),
}

#[derive(Debug)]
pub struct AudioVideo {
    /// `audio` or `video`.
    pub tag: &'static str,
    pub src: String,
    pub title: String,
}

/// A code block: the text to copy, its language, and its text as runs of Pygments tokens.
#[derive(Debug)]
pub struct Code {
    pub code: String,
    pub language: Option<String>,
    pub runs: Vec<(String, Option<Token>)>,
}

/// A Pygments token class of a code block's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Deleted,
    Inserted,
    Heading,
    Number,
    Name,
    Keyword,
    String,
    Comment,
}

#[derive(Debug)]
pub struct Media {
    pub url: String,
    pub label: String,
    pub is_video: bool,
    /// The picture shown (the server's thumbnail where it made one) and its size in pixels
    /// when the message gives it.
    pub picture: Option<(String, Option<(u32, u32)>)>,
}

/// A table's captions and rows (from `tr`s, directly or in row groups).
#[derive(Debug, Default)]
pub struct Table {
    pub captions: Vec<NodeId>,
    pub rows: Vec<Row>,
}

#[derive(Debug)]
pub struct Row {
    pub header: bool,
    /// Its `td`s and `th`s.
    pub cells: Vec<NodeId>,
}

/// Inline emphasis and mentions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inline {
    Plain,
    Strong,
    Emphasis,
    Strike,
    Underline,
    Code,
    Mention { wildcard: bool, silent: bool },
    GroupMention { silent: bool },
    TopicMention,
    Highlight,
    AlertWord,
}

/// One step of [`Tree::walk`].
pub enum Step<'t> {
    /// An element is entered; the callback returns whether to descend into it.
    Open(NodeId, &'t Element),
    /// An element that was descended into is left.
    Close(NodeId, &'t Element),
    /// A text node and its parent.
    Text(&'t str, Option<NodeId>),
}

impl Tree {
    /// The root: the content is its children.
    pub fn root(&self) -> NodeId {
        0
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id].children
    }

    pub fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.nodes[id].kind {
            Kind::Element(e) => Some(e),
            Kind::Text(_) => None,
        }
    }

    /// The elements among `id`'s children.
    pub fn child_elements(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &Element)> + '_ {
        self.children(id).iter().filter_map(|&c| self.element(c).map(|e| (c, e)))
    }

    /// Pre/post-order walk over `root` (included) without recursion.
    pub fn walk<'t>(&'t self, root: NodeId, mut f: impl FnMut(Step<'t>) -> bool) {
        let mut open: Vec<(NodeId, usize)> = Vec::new();
        let mut next = Some(root);
        loop {
            if let Some(id) = next.take() {
                match &self.nodes[id].kind {
                    Kind::Text(t) => {
                        f(Step::Text(t, self.nodes[id].parent));
                    }
                    Kind::Element(e) => {
                        if f(Step::Open(id, e)) {
                            open.push((id, 0));
                        }
                    }
                }
            }
            let Some((id, i)) = open.last_mut() else { return };
            let id = *id;
            match self.nodes[id].children.get(*i) {
                Some(&child) => {
                    *i += 1;
                    next = Some(child);
                }
                None => {
                    open.pop();
                    if let Kind::Element(e) = &self.nodes[id].kind {
                        f(Step::Close(id, e));
                    }
                }
            }
        }
    }

    /// Read `html` into a tree; `spoilers` numbers its spoilers (see `html::spoiler_indices`).
    pub(crate) fn build(html: &Html, spoilers: &HashMap<*const scraper::node::Element, usize>) -> Tree {
        let mut nodes: Vec<Node> = Vec::new();
        let mut stack: Vec<NodeId> = Vec::new();
        walk_tree(html.root_element(), |v| match v {
            Visit::Open(el) => {
                let e = element(el, spoilers);
                // A hidden element's children are kept: a list item, a table cell or a spoiler's
                // part is walked by its place, whatever it says of itself.
                let descend =
                    !e.role.is_atom() || e.spoiler != Spoiler::No || matches!(e.role, Role::Skipped);
                let id = nodes.len();
                let parent = stack.last().copied();
                nodes.push(Node { parent, children: Vec::new(), kind: Kind::Element(e) });
                if let Some(p) = parent {
                    nodes[p].children.push(id);
                }
                if descend {
                    stack.push(id);
                }
                descend
            }
            Visit::Close(_) => {
                if let Some(id) = stack.pop() {
                    finish(&mut nodes, id);
                }
                true
            }
            Visit::Text(text) => {
                if let Some(&p) = stack.last() {
                    let id = nodes.len();
                    nodes.push(Node {
                        parent: Some(p),
                        children: Vec::new(),
                        kind: Kind::Text(text.to_owned()),
                    });
                    nodes[p].children.push(id);
                }
                true
            }
        });
        Tree { nodes }
    }
}

/// What the element `el` is.
fn element(el: ElementRef<'_>, spoilers: &HashMap<*const scraper::node::Element, usize>) -> Element {
    let name = el.value().name();
    let index = spoilers.get(&(el.value() as *const _)).copied();
    let spoiler = if is_spoiler_block(el) {
        Spoiler::Block { index, header: None }
    } else if has_class(el, "spoiler-content") {
        Spoiler::Content { index, stray: is_stray_spoiler_content(el) }
    } else {
        Spoiler::No
    };
    let tag = match name {
        "li" => Tag::Li,
        "tr" => Tag::Tr,
        "thead" => Tag::RowGroup { head: true },
        "tbody" | "tfoot" => Tag::RowGroup { head: false },
        "caption" => Tag::Caption,
        "td" | "th" => Tag::Cell { th: name == "th", align: cell_align(el) },
        _ => Tag::Other,
    };
    Element {
        role: role(el),
        spoiler,
        tag,
        block: is_block(name),
        spoiler_header: has_class(el, "spoiler-header"),
        spoiler_content: has_class(el, "spoiler-content"),
        preview: name == "div" && is_link_preview(el),
    }
}

/// What an element shows: an atom first, else what its name says.
fn role(el: ElementRef<'_>) -> Role {
    if is_skipped(el) {
        return Role::Skipped;
    }
    atom(el).unwrap_or_else(|| {
        let name = el.value().name();
        match name {
            "a" => Role::Link {
                href: el.attr("href").map(str::trim).filter(|h| !h.is_empty()).map(str::to_owned),
                mention: has_class(el, "stream") || has_class(el, "stream-topic"),
            },
            "blockquote" => Role::Quote,
            "ul" | "ol" | "menu" => Role::List { ordered: name == "ol", start: list_start(el) },
            "table" => Role::Table(Box::default()),
            "h1" | "h2" => Role::Heading { major: true },
            "h3" | "h4" | "h5" | "h6" => Role::Heading { major: false },
            _ if is_block(name) => Role::Block,
            _ => Role::Inline(inline(el)),
        }
    })
}

/// Elements shown without walking their children; `None` for the others.
fn atom(el: ElementRef<'_>) -> Option<Role> {
    let name = el.value().name();
    Some(match name {
        "br" => Role::Break,
        "hr" => Role::Rule,
        "img" => Role::Image(image(el)),
        "audio" | "video" => Role::AudioVideo(audio_video_src(el).map(|src| AudioVideo {
            tag: if name == "audio" { "audio" } else { "video" },
            src: src.to_owned(),
            title: el.attr("title").map(attr_text).unwrap_or_default(),
        })),
        "time" => {
            let dt = el.attr("datetime")?;
            Role::Time(chrono::DateTime::parse_from_rfc3339(dt.trim()).ok()?.timestamp())
        }
        "pre" => Role::Code(Box::new(Code {
            code: code_text(el),
            language: code_language(el),
            runs: code_runs(el),
        })),
        "span" if has_class(el, "katex-display") => Role::Math { tex: math_text(el), display: true },
        "span" if has_class(el, "katex") => Role::Math { tex: math_text(el), display: false },
        "span" if has_class(el, "emoji") => Role::Emoji(
            el.value().classes().filter_map(|c| c.strip_prefix("emoji-")).find_map(emoji_from_code)?,
        ),
        "div"
            if has_class(el, "message_inline_image")
                || has_class(el, "message_inline_video")
                || has_class(el, "youtube-video")
                || has_class(el, "vimeo-video") =>
        {
            Role::Media(media_link(el).map(|(url, label, is_video)| {
                Box::new(Media { url, label, is_video, picture: media_picture(el) })
            }))
        }
        "a" if has_class(el, "message_embed_image") => Role::Nothing,
        _ => return None,
    })
}

fn image(el: ElementRef<'_>) -> Image {
    let alt = el.attr("alt").map(attr_text).unwrap_or_default();
    if has_class(el, "emoji") {
        if !alt.is_empty() {
            return Image::Emoji(Some(alt));
        }
        return Image::Emoji(match el.attr("title").map(attr_text) {
            Some(title) if !title.is_empty() => Some(format!(":{title}:")),
            _ => None,
        });
    }
    match image_link(el) {
        Some(src) => Image::Picture { src: src.to_owned(), alt },
        None => Image::Alt(alt),
    }
}

fn list_start(el: ElementRef<'_>) -> i64 {
    el.attr("start").and_then(|s| s.trim().parse().ok()).unwrap_or(1).clamp(-1_000_000_000, 1_000_000_000)
}

fn inline(el: ElementRef<'_>) -> Inline {
    let e = el.value();
    let cls = |c: &str| e.classes().any(|x| x == c);
    match e.name() {
        "strong" | "b" => Inline::Strong,
        "em" | "i" | "cite" | "var" | "dfn" => Inline::Emphasis,
        "del" | "s" | "strike" => Inline::Strike,
        "u" | "ins" => Inline::Underline,
        "code" | "kbd" | "samp" | "tt" => Inline::Code,
        "span" if cls("user-mention") => Inline::Mention {
            wildcard: el.attr("data-user-id") == Some("*") || e.classes().any(|c| c.contains("wildcard")),
            silent: cls("silent"),
        },
        "span" if cls("user-group-mention") => Inline::GroupMention { silent: cls("silent") },
        "span" if cls("topic-mention") => Inline::TopicMention,
        "span" if cls("highlight") => Inline::Highlight,
        "span" if cls("alert-word") => Inline::AlertWord,
        _ => Inline::Plain,
    }
}

/// A code block's text as runs of Pygments tokens (the innermost token span's), `<br>` as a
/// line break; nothing of a spoiler inside it.
fn code_runs(pre: ElementRef<'_>) -> Vec<(String, Option<Token>)> {
    let mut runs = Vec::new();
    let mut stack: Vec<(ElementRef<'_>, Token)> = Vec::new();
    walk_tree(pre, |v| match v {
        Visit::Open(e) => {
            if is_skipped(e) || (e != pre && is_spoiler_part(e)) {
                return false;
            }
            if e.value().name() == "br" {
                runs.push(("\n".to_owned(), None));
            }
            if let Some(t) = token(e) {
                stack.push((e, t));
            }
            true
        }
        Visit::Close(e) => {
            if stack.last().is_some_and(|(x, _)| *x == e) {
                stack.pop();
            }
            true
        }
        Visit::Text(text) => {
            runs.push((sanitize_code(text), stack.last().map(|(_, t)| *t)));
            true
        }
    });
    runs
}

/// The token a Pygments `<span class="…">` inside a code block marks.
fn token(el: ElementRef<'_>) -> Option<Token> {
    if el.value().name() != "span" {
        return None;
    }
    el.value().classes().find_map(|c| {
        Some(match c {
            "gd" => Token::Deleted,
            "gi" => Token::Inserted,
            "gh" | "gu" => Token::Heading,
            "il" => Token::Number,
            "nf" | "fm" | "nc" | "nn" | "nb" | "bp" | "nd" | "nt" | "ne" => Token::Name,
            _ => match c.as_bytes().first() {
                Some(b'k') => Token::Keyword,
                Some(b's') => Token::String,
                Some(b'c') => Token::Comment,
                Some(b'm') => Token::Number,
                _ => return None,
            },
        })
    })
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

/// What a node needs of its children once they are read: a spoiler block's header, a table's
/// captions and rows.
fn finish(nodes: &mut [Node], id: NodeId) {
    let header = child_elements(nodes, id).into_iter().find(|c| c.2).map(|c| c.0);
    let Kind::Element(e) = &mut nodes[id].kind else { return };
    if let Spoiler::Block { header: h, .. } = &mut e.spoiler {
        *h = header;
    }
    if matches!(e.role, Role::Table(_)) {
        let t = table(nodes, id);
        if let Kind::Element(e) = &mut nodes[id].kind {
            e.role = Role::Table(Box::new(t));
        }
    }
}

/// The elements among a node's children: each with its tag and whether it is a spoiler header.
fn child_elements(nodes: &[Node], id: NodeId) -> Vec<(NodeId, Tag, bool)> {
    nodes[id]
        .children
        .iter()
        .filter_map(|&c| match &nodes[c].kind {
            Kind::Element(e) => Some((c, e.tag, e.spoiler_header)),
            Kind::Text(_) => None,
        })
        .collect()
}

/// A table's captions, and its rows with their cells; the first row is a header row when no
/// row group is a head and all its cells are `th`.
fn table(nodes: &[Node], id: NodeId) -> Table {
    let mut t = Table::default();
    let mut trs: Vec<(NodeId, bool)> = Vec::new();
    for (c, tag, _) in child_elements(nodes, id) {
        match tag {
            Tag::Tr => trs.push((c, false)),
            Tag::RowGroup { head } => trs
                .extend(child_elements(nodes, c).into_iter().filter(|r| r.1 == Tag::Tr).map(|r| (r.0, head))),
            Tag::Caption => t.captions.push(c),
            _ => {}
        }
    }
    t.rows = trs
        .into_iter()
        .map(|(tr, header)| {
            let cells = child_elements(nodes, tr).into_iter().filter(|c| matches!(c.1, Tag::Cell { .. }));
            Row { header, cells: cells.map(|c| c.0).collect() }
        })
        .collect();
    if !t.rows.iter().any(|r| r.header)
        && let Some(first) = t.rows.first_mut()
    {
        let th = |c: &NodeId| matches!(&nodes[*c].kind, Kind::Element(e) if matches!(e.tag, Tag::Cell { th: true, .. }));
        first.header = !first.cells.is_empty() && first.cells.iter().all(th);
    }
    t
}

/// A code block's raw text: `<br>` as line breaks, nothing of a spoiler inside it, controls
/// out (tabs and line breaks kept), one trailing line break dropped.
fn code_text(pre: ElementRef<'_>) -> String {
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
        Visit::Text(text) => {
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
fn math_text(el: ElementRef<'_>) -> String {
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
                Visit::Text(t) => {
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
