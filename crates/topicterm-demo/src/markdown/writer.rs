//! From Markdown events to HTML: the renderer's state shared by a message and the fragments
//! inside it, and the writer that turns one fragment's events into HTML.

use super::fences::{MAX_FENCE_DEPTH, normalize_fences};
use super::links::{find_bare_url, is_image_url, is_video_url, sanitize_url};
use super::math::katex_html;
use super::placeholder::{Effect, Placeholder, parse_placeholder, restore};
use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};
use std::fmt::Write as _;
use topicterm_api::markup::{escape_html, push_escaped};

/// What the renderer needs to know about the organization.
pub trait RenderContext {
    /// A user by exact full name (case-insensitive), returning (user_id, full_name as stored).
    fn user_by_name(&self, full_name: &str) -> Option<(i64, String)>;
    /// A user by ID, returning the full name (for `@**Name|123**` syntax).
    fn user_by_id(&self, id: i64) -> Option<String>;
    /// A user group by name: (group_id, name).
    fn group_by_name(&self, name: &str) -> Option<(i64, String)>;
    /// A channel by name: (channel_id, name).
    fn channel_by_name(&self, name: &str) -> Option<(i64, String)>;
    /// A custom emoji by name: (emoji_id, image url).
    fn realm_emoji(&self, name: &str) -> Option<(String, String)>;
    /// An uploaded picture's size in pixels, by its address (`/user_uploads/…`): Zulip writes
    /// it on the preview as `data-original-dimensions`.
    fn upload_dimensions(&self, _href: &str) -> Option<(u32, u32)> {
        None
    }
    /// The server's feature level, for what its Markdown does differently by level (global
    /// times, video previews); the newest by default.
    fn feature_level(&self) -> i64 {
        i64::MAX
    }
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Rendered {
    pub html: String,
    /// Users mentioned with a non-silent mention.
    pub mentioned_user_ids: Vec<i64>,
    /// Groups mentioned (non-silent).
    pub mentioned_group_ids: Vec<i64>,
    /// `@**all**`, `@**everyone**`, `@**channel**`, `@**stream**` (channel-wide), `@**topic**`.
    pub wildcard_mention: bool,
    pub has_link: bool,
    pub has_image: bool,
    pub has_attachment: bool,
}

pub(super) fn parser_options() -> Options {
    // Zulip has no single-tilde syntax; enabling subscripts keeps `~x~` from
    // becoming a strikethrough, and the writer prints those tildes back.
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SUBSCRIPT
}

/// State shared by a message and the fragments rendered inside it.
pub(super) struct Renderer<'c> {
    pub(super) ctx: &'c dyn RenderContext,
    /// Everything but `html`, which each fragment returns instead.
    pub(super) result: Rendered,
}

impl Renderer<'_> {
    /// Renders one fragment; `depth` counts the `spoiler`/`quote` fences
    /// around it.
    pub(super) fn render_fragment(&mut self, source: &str, depth: usize) -> String {
        let source = normalize_fences(source);
        let (prepared, placeholders) = self.protect(&source);
        let parser = Parser::new_ext(&prepared, parser_options());
        Writer::new(self, &placeholders, depth).run(parser)
    }
}

/// An open link: its `href` when an `<a>` was written, and its text so far
/// (the title of an image preview).
pub(super) struct LinkFrame {
    pub(super) href: Option<String>,
    pub(super) text: String,
}

/// An image whose alt text is being collected.
pub(super) struct ImageFrame {
    pub(super) url: String,
    pub(super) alt: String,
    /// Images nested in the alt text (pulldown-cmark allows them).
    pub(super) nesting: usize,
}

/// A code block whose text is being collected; `info` is `None` when indented.
pub(super) struct CodeFrame {
    pub(super) info: Option<String>,
    pub(super) text: String,
}

/// Turns one fragment's events into HTML.
pub(super) struct Writer<'w, 'c> {
    pub(super) renderer: &'w mut Renderer<'c>,
    pub(super) placeholders: &'w [Placeholder],
    pub(super) depth: usize,
    pub(super) out: String,
    /// Consecutive text events, joined before processing.
    pub(super) text: String,
    pub(super) links: Vec<LinkFrame>,
    /// Open `<a>` elements (links can't nest, so inner ones are left out).
    pub(super) open_anchors: usize,
    pub(super) image: Option<ImageFrame>,
    pub(super) code: Option<CodeFrame>,
    pub(super) table_alignments: Vec<Alignment>,
    pub(super) table_cell: usize,
    pub(super) in_table_head: bool,
    /// Open block elements; image previews follow the top-level block.
    pub(super) open_blocks: usize,
    pub(super) previews: Vec<String>,
}

impl<'w, 'c> Writer<'w, 'c> {
    pub(super) fn new(renderer: &'w mut Renderer<'c>, placeholders: &'w [Placeholder], depth: usize) -> Self {
        Writer {
            renderer,
            placeholders,
            depth,
            out: String::new(),
            text: String::new(),
            links: Vec::new(),
            open_anchors: 0,
            image: None,
            code: None,
            table_alignments: Vec::new(),
            table_cell: 0,
            in_table_head: false,
            open_blocks: 0,
            previews: Vec::new(),
        }
    }

    pub(super) fn run(mut self, parser: Parser<'_>) -> String {
        for event in parser {
            if self.image.is_some() {
                self.image_event(event);
                continue;
            }
            if let Some(code) = self.code.as_mut() {
                match event {
                    Event::Text(text) => code.text.push_str(&text),
                    Event::End(TagEnd::CodeBlock) => {
                        if let Some(code) = self.code.take() {
                            self.finish_code_block(code);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match event {
                // Raw HTML (only possible after `](<`, see `protect`) is
                // shown as text.
                Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                    self.text.push_str(&text);
                }
                Event::Start(Tag::Subscript) | Event::End(TagEnd::Subscript) => self.text.push('~'),
                event => {
                    self.flush_text();
                    self.event(event);
                }
            }
        }
        self.flush_text();
        self.flush_previews();
        let len = self.out.trim_end_matches('\n').len();
        self.out.truncate(len);
        self.out
    }

    pub(super) fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Code(code) => {
                let code = restore(&code, self.placeholders);
                if let Some(link) = self.links.last_mut() {
                    link.text.push_str(&code);
                }
                self.out.push_str("<code>");
                push_escaped(&mut self.out, &code);
                self.out.push_str("</code>");
            }
            // Zulip treats every newline in a paragraph as a line break.
            Event::SoftBreak | Event::HardBreak => self.out.push_str("<br>\n"),
            Event::Rule => {
                self.out.push_str("<hr>\n");
                if self.open_blocks == 0 {
                    self.flush_previews();
                }
            }
            // Text is handled by `run`; math, footnotes and task lists are
            // not enabled.
            _ => {}
        }
    }

    pub(super) fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.open_block("<p>"),
            Tag::Heading { level, .. } => self.open_block(&format!("<h{}>", level as usize)),
            Tag::BlockQuote(_) => self.open_block("<blockquote>\n"),
            Tag::CodeBlock(kind) => {
                self.open_blocks += 1;
                let info = match kind {
                    CodeBlockKind::Fenced(info) => Some(info.into_string()),
                    CodeBlockKind::Indented => None,
                };
                self.code = Some(CodeFrame { info, text: String::new() });
            }
            Tag::List(Some(1)) => self.open_block("<ol>\n"),
            Tag::List(Some(start)) => self.open_block(&format!("<ol start=\"{start}\">\n")),
            Tag::List(None) => self.open_block("<ul>\n"),
            Tag::Item => self.out.push_str("<li>"),
            Tag::Table(alignments) => {
                self.table_alignments = alignments;
                self.open_block("<table>\n");
            }
            Tag::TableHead => {
                self.in_table_head = true;
                self.table_cell = 0;
                self.out.push_str("<thead>\n<tr>\n");
            }
            Tag::TableRow => {
                self.table_cell = 0;
                self.out.push_str("<tr>\n");
            }
            Tag::TableCell => {
                let name = if self.in_table_head { "th" } else { "td" };
                let style = match self.table_alignments.get(self.table_cell) {
                    Some(Alignment::Left) => r#" style="text-align: left;""#,
                    Some(Alignment::Center) => r#" style="text-align: center;""#,
                    Some(Alignment::Right) => r#" style="text-align: right;""#,
                    _ => "",
                };
                let _ = write!(self.out, "<{name}{style}>");
            }
            Tag::Emphasis => self.out.push_str("<em>"),
            Tag::Strong => self.out.push_str("<strong>"),
            Tag::Strikethrough => self.out.push_str("<del>"),
            Tag::Link { link_type, dest_url, title, .. } => self.start_link(link_type, &dest_url, &title),
            Tag::Image { dest_url, .. } => {
                self.image = Some(ImageFrame {
                    url: restore(&dest_url, self.placeholders).into_owned(),
                    alt: String::new(),
                    nesting: 0,
                });
            }
            // HTML blocks can't occur (see `run`); the rest is not enabled.
            _ => {}
        }
    }

    pub(super) fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.close_block("</p>\n"),
            TagEnd::Heading(level) => self.close_block(&format!("</h{}>\n", level as usize)),
            TagEnd::BlockQuote(_) => self.close_block("</blockquote>\n"),
            TagEnd::List(true) => self.close_block("</ol>\n"),
            TagEnd::List(false) => self.close_block("</ul>\n"),
            TagEnd::Item => self.out.push_str("</li>\n"),
            TagEnd::Table => self.close_block("</tbody>\n</table>\n"),
            TagEnd::TableHead => {
                self.in_table_head = false;
                self.out.push_str("</tr>\n</thead>\n<tbody>\n");
            }
            TagEnd::TableRow => self.out.push_str("</tr>\n"),
            TagEnd::TableCell => {
                self.out.push_str(if self.in_table_head { "</th>\n" } else { "</td>\n" });
                self.table_cell += 1;
            }
            TagEnd::Emphasis => self.out.push_str("</em>"),
            TagEnd::Strong => self.out.push_str("</strong>"),
            TagEnd::Strikethrough => self.out.push_str("</del>"),
            TagEnd::Link => self.end_link(),
            // Code blocks and images end in `run`; the rest is not enabled.
            _ => {}
        }
    }

    pub(super) fn open_block(&mut self, html: &str) {
        self.open_blocks += 1;
        self.out.push_str(html);
    }

    pub(super) fn close_block(&mut self, html: &str) {
        self.out.push_str(html);
        self.open_blocks = self.open_blocks.saturating_sub(1);
        if self.open_blocks == 0 {
            self.flush_previews();
        }
    }

    pub(super) fn flush_previews(&mut self) {
        for preview in self.previews.drain(..) {
            self.out.push_str(&preview);
            self.out.push('\n');
        }
    }

    /// Records that a link to `href` was written.
    pub(super) fn note_link(&mut self, href: &str) {
        self.renderer.result.has_link = true;
        if href.contains("/user_uploads/") {
            self.renderer.result.has_attachment = true;
        }
    }

    /// Queues an inline image preview, written after the top-level block.
    pub(super) fn queue_preview(&mut self, href: &str, title: Option<&str>) {
        self.renderer.result.has_image = true;
        let size = self
            .renderer
            .ctx
            .upload_dimensions(href)
            .map(|(w, h)| format!(r#" data-original-dimensions="{w}x{h}""#))
            .unwrap_or_default();
        let href = escape_html(href);
        let title = title.map(|title| format!(r#" title="{}""#, escape_html(title))).unwrap_or_default();
        self.previews.push(format!(
            r#"<div class="message_inline_image"><a href="{href}"{title}><img{size} src="{href}"></a></div>"#
        ));
    }

    /// Queues an inline video preview (`<video>` in a link to it), written after the
    /// top-level block.
    pub(super) fn queue_video(&mut self, href: &str, title: Option<&str>) {
        self.renderer.result.has_image = true;
        let href = escape_html(href);
        let title = title.map(|title| format!(r#" title="{}""#, escape_html(title))).unwrap_or_default();
        self.previews.push(format!(
            r#"<div class="message_inline_image message_inline_video"><a href="{href}"{title}><video preload="metadata" src="{href}"></video></a></div>"#
        ));
    }

    pub(super) fn start_link(&mut self, link_type: LinkType, dest: &str, title: &str) {
        let dest = restore(dest, self.placeholders);
        let href = if self.open_anchors > 0 {
            None
        } else if link_type == LinkType::Email {
            Some(format!("mailto:{dest}"))
        } else {
            sanitize_url(&dest)
        };
        if let Some(href) = &href {
            self.note_link(href);
            self.open_anchors += 1;
            self.out.push_str("<a href=\"");
            push_escaped(&mut self.out, href);
            if !title.is_empty() {
                self.out.push_str("\" title=\"");
                push_escaped(&mut self.out, &restore(title, self.placeholders));
            }
            self.out.push_str("\">");
        }
        self.links.push(LinkFrame { href, text: String::new() });
    }

    pub(super) fn end_link(&mut self) {
        let Some(link) = self.links.pop() else { return };
        if let Some(href) = link.href {
            self.out.push_str("</a>");
            self.open_anchors -= 1;
            let title = (link.text != href).then_some(link.text.as_str());
            if is_image_url(&href) {
                self.queue_preview(&href, title);
            } else if is_video_url(&href, self.renderer.ctx.feature_level()) {
                self.queue_video(&href, title);
            }
        }
    }

    /// Collects an image's alt text until its end.
    pub(super) fn image_event(&mut self, event: Event<'_>) {
        let Some(image) = self.image.as_mut() else {
            return;
        };
        match event {
            Event::Start(Tag::Image { .. }) => image.nesting += 1,
            Event::End(TagEnd::Image) if image.nesting > 0 => image.nesting -= 1,
            Event::End(TagEnd::Image) => {
                if let Some(image) = self.image.take() {
                    self.finish_image(image);
                }
            }
            Event::Text(text) | Event::Code(text) => {
                image.alt.push_str(&restore(&text, self.placeholders));
            }
            Event::SoftBreak | Event::HardBreak => image.alt.push(' '),
            _ => {}
        }
    }

    /// `![alt](url)`: a link (Zulip has no image syntax of its own) plus an
    /// inline preview.
    pub(super) fn finish_image(&mut self, image: ImageFrame) {
        let Some(href) = sanitize_url(&image.url) else {
            push_escaped(&mut self.out, &image.alt);
            return;
        };
        let text = if image.alt.is_empty() { &href } else { &image.alt };
        if self.open_anchors > 0 {
            push_escaped(&mut self.out, text);
        } else {
            let _ = write!(self.out, r#"<a href="{}">{}</a>"#, escape_html(&href), escape_html(text));
        }
        self.note_link(&href);
        let title = (!image.alt.is_empty()).then_some(image.alt.as_str());
        self.queue_preview(&href, title);
    }

    pub(super) fn finish_code_block(&mut self, code: CodeFrame) {
        let text = restore(&code.text, self.placeholders);
        let info = code.info.as_deref().unwrap_or("").trim();
        let (language, header) = info.split_once(char::is_whitespace).unwrap_or((info, ""));
        let header = header.trim();
        let nested = self.depth + 1;
        match language.to_ascii_lowercase().as_str() {
            "spoiler" if nested <= MAX_FENCE_DEPTH => {
                let header = if header.is_empty() {
                    String::new()
                } else {
                    self.renderer.render_fragment(header, nested)
                };
                let content = self.renderer.render_fragment(&text, nested);
                let _ = write!(
                    self.out,
                    "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n{header}\n</div>\
                     <div class=\"spoiler-content\" aria-hidden=\"true\">\n{content}\n</div></div>\n"
                );
            }
            "quote" | "quoted" if nested <= MAX_FENCE_DEPTH => {
                let content = self.renderer.render_fragment(&text, nested);
                let _ = write!(self.out, "<blockquote>\n{content}\n</blockquote>\n");
            }
            // Zulip shows each blank-line-separated chunk as its own formula.
            "math" | "tex" | "latex" => {
                for chunk in text.split("\n\n").map(str::trim).filter(|c| !c.is_empty()) {
                    let _ = writeln!(
                        self.out,
                        "<p><span class=\"katex-display\">{}</span></p>",
                        katex_html(chunk, true)
                    );
                }
            }
            _ => {
                self.out.push_str("<div class=\"codehilite\"");
                if !language.is_empty() {
                    let _ = write!(self.out, " data-code-language=\"{}\"", escape_html(language));
                }
                self.out.push_str("><pre><span></span><code>");
                push_escaped(&mut self.out, &text);
                // Zulip's code always ends with a newline, even at the end of
                // an unclosed fence.
                if !text.is_empty() && !text.ends_with('\n') {
                    self.out.push('\n');
                }
                self.out.push_str("</code></pre></div>\n");
            }
        }
        self.close_block("");
    }

    pub(super) fn flush_text(&mut self) {
        if self.text.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.text);
        if let Some(link) = self.links.last_mut() {
            link.text.push_str(&restore(&text, self.placeholders));
        }
        let mut rest = text.as_str();
        if self.open_anchors == 0 {
            while let Some(url) = find_bare_url(rest) {
                self.write_plain(&rest[..url.start]);
                self.write_bare_url(&rest[url.clone()]);
                rest = &rest[url.end..];
            }
        }
        self.write_plain(rest);
        // Keep the buffer's allocation for the next run of text.
        self.text = text;
        self.text.clear();
    }

    pub(super) fn write_bare_url(&mut self, url: &str) {
        let href = if url.len() >= 4 && url[..4].eq_ignore_ascii_case("www.") {
            format!("http://{url}")
        } else {
            url.to_owned()
        };
        self.note_link(&href);
        let _ = write!(self.out, r#"<a href="{}">{}</a>"#, escape_html(&href), escape_html(url));
        if is_image_url(&href) {
            self.queue_preview(&href, None);
        } else if is_video_url(&href, self.renderer.ctx.feature_level()) {
            self.queue_video(&href, None);
        }
    }

    /// Writes text that is not a URL: escaped, with placeholders, emoji and
    /// line breaks expanded.
    pub(super) fn write_plain(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut written = 0;
        let mut i = 0;
        while i < bytes.len() {
            let replacement = match bytes[i] {
                b'\n' => Some(("<br>\n".to_owned(), 1)),
                b':' => self.emoji_at(&s[i..]),
                // The first byte of `PH_START`, which only starts characters.
                0xEE => self.placeholder_at(&s[i..]),
                _ => None,
            };
            match replacement {
                Some((html, len)) => {
                    push_escaped(&mut self.out, &s[written..i]);
                    self.out.push_str(&html);
                    i += len;
                    written = i;
                }
                None => i += 1,
            }
        }
        push_escaped(&mut self.out, &s[written..]);
    }

    /// `:name:` at the start of `s`: its HTML and length, if it is an emoji.
    pub(super) fn emoji_at(&self, s: &str) -> Option<(String, usize)> {
        let name_len = s[1..]
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-'))
            .count();
        if name_len == 0 || s.as_bytes().get(1 + name_len) != Some(&b':') {
            return None;
        }
        let html = self.renderer.emoji_html(&s[1..1 + name_len])?;
        Some((html, name_len + 2))
    }

    /// The placeholder at the start of `s`: its HTML and length; records its
    /// effect.
    pub(super) fn placeholder_at(&mut self, s: &str) -> Option<(String, usize)> {
        let (index, len) = parse_placeholder(s)?;
        let placeholder = self.placeholders.get(index)?;
        let result = &mut self.renderer.result;
        match placeholder.effect {
            Effect::None => {}
            Effect::User(id) if !result.mentioned_user_ids.contains(&id) => {
                result.mentioned_user_ids.push(id);
            }
            Effect::Group(id) if !result.mentioned_group_ids.contains(&id) => {
                result.mentioned_group_ids.push(id);
            }
            Effect::User(_) | Effect::Group(_) => {}
            Effect::Wildcard => result.wildcard_mention = true,
        }
        let html = match &placeholder.html_in_link {
            Some(html) if self.open_anchors > 0 => html,
            _ => &placeholder.html,
        };
        Some((html.clone(), len))
    }
}
