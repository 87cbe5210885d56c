//! Markdown → HTML rendering for the demo server, imitating the HTML the
//! Zulip server produces (the classes and shapes clients rely on).
//!
//! One fragment of Markdown (a message, or the body of a `spoiler`/`quote`
//! fence, rendered recursively) goes through three steps:
//!
//! 1. `normalize_fences` lengthens the fences of `quote`/`spoiler` blocks
//!    that contain other fences, so that CommonMark parses Zulip's nesting
//!    (where an inner ```` ```python ```` opens a nested block rather than
//!    being content) the same way Zulip does.
//! 2. `Renderer::protect` finds, outside code, the Zulip syntax that
//!    Markdown would otherwise mangle (mentions, channel links, `$$math$$`,
//!    `<time:…>`) and replaces each with a placeholder made of private-use
//!    characters. It also turns every other `<` into `&lt;`, so raw HTML is
//!    shown as text and never reaches the output.
//! 3. pulldown-cmark parses the result and `Writer` turns its events into
//!    HTML, expanding placeholders, emoji and bare URLs in text.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

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

/// Render a message's Markdown to HTML the way the Zulip server would.
pub fn render(markdown: &str, ctx: &dyn RenderContext) -> Rendered {
    // Placeholders are made of these private-use characters; the input must
    // not be able to forge one.
    let source = if markdown.contains([PH_START, PH_END]) {
        Cow::Owned(markdown.replace([PH_START, PH_END], "\u{FFFD}"))
    } else {
        Cow::Borrowed(markdown)
    };
    let mut renderer = Renderer { ctx, result: Rendered::default() };
    let html = renderer.render_fragment(&source, 0);
    Rendered { html, ..renderer.result }
}

/// Escape text for HTML (also used by the server elsewhere).
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` to `out`, escaped for use in text and double-quoted attributes.
fn push_escaped(out: &mut String, s: &str) {
    let mut last = 0;
    for (i, byte) in s.bytes().enumerate() {
        let replacement = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(replacement);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

/// How deeply `spoiler`/`quote` fences nest before they are shown as plain
/// code blocks; this bounds the renderer's recursion.
const MAX_FENCE_DEPTH: usize = 10;

/// A placeholder in the prepared source is `PH_START`, its index in decimal,
/// then `PH_END`.
const PH_START: char = '\u{E000}';
const PH_END: char = '\u{E001}';

/// Mention names that address many users; `topic` only those in the topic.
const WILDCARDS: [&str; 5] = ["all", "everyone", "channel", "stream", "topic"];

/// Schemes a link may use (as in Zulip's `sanitize_url`).
const SAFE_SCHEMES: [&str; 4] = ["http", "https", "ftp", "mailto"];

/// Path endings of links that get an inline image preview.
const IMAGE_EXTENSIONS: [&str; 6] = [".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"];

fn parser_options() -> Options {
    // Zulip has no single-tilde syntax; enabling subscripts keeps `~x~` from
    // becoming a strikethrough, and the writer prints those tildes back.
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SUBSCRIPT
}

/// Inline syntax recognised before Markdown parsing.
struct Placeholder {
    /// The source text it replaced, put back where HTML can't go (URLs, alt
    /// text, code).
    original: String,
    html: String,
    /// What to write inside a link instead, where `<a>` can't nest.
    html_in_link: Option<String>,
    effect: Effect,
}

/// What writing a placeholder records in [`Rendered`].
enum Effect {
    None,
    User(i64),
    Group(i64),
    Wildcard,
}

/// State shared by a message and the fragments rendered inside it.
struct Renderer<'c> {
    ctx: &'c dyn RenderContext,
    /// Everything but `html`, which each fragment returns instead.
    result: Rendered,
}

impl Renderer<'_> {
    /// Renders one fragment; `depth` counts the `spoiler`/`quote` fences
    /// around it.
    fn render_fragment(&mut self, source: &str, depth: usize) -> String {
        let source = normalize_fences(source);
        let (prepared, placeholders) = self.protect(&source);
        let parser = Parser::new_ext(&prepared, parser_options());
        Writer::new(self, &placeholders, depth).run(parser)
    }

    /// Replaces Zulip's inline syntax outside code with placeholders and
    /// escapes raw HTML, returning the prepared source and the placeholders.
    fn protect(&self, source: &str) -> (String, Vec<Placeholder>) {
        let mut placeholders = Vec::new();
        if !source.bytes().any(|b| matches!(b, b'@' | b'#' | b'$' | b'<')) {
            return (source.to_owned(), placeholders);
        }
        let bytes = source.as_bytes();
        let mut out = String::with_capacity(source.len() + source.len() / 8);
        let mut copied = 0;
        for segment in outside(source.len(), &literal_ranges(source)) {
            let mut time_close = ClosingSearch::default();
            let mut i = segment.start;
            while i < segment.end {
                let found = match bytes[i] {
                    b'@' => self.mention(source, i, segment.end),
                    b'#' => self.channel_link(source, i, segment.end),
                    b'$' => inline_math(source, i, segment.end).map(|(end, tex)| {
                        let html = katex_html(tex, false);
                        (end, html, None, Effect::None)
                    }),
                    b'<' if !escaped_by_backslash(bytes, i) => {
                        time_tag(source, i, segment.end, &mut time_close)
                            .map(|(end, html)| (end, html, None, Effect::None))
                    }
                    _ => None,
                };
                if let Some((end, html, html_in_link, effect)) = found {
                    out.push_str(&source[copied..i]);
                    let _ = write!(out, "{PH_START}{}{PH_END}", placeholders.len());
                    placeholders.push(Placeholder {
                        original: source[i..end].to_owned(),
                        html,
                        html_in_link,
                        effect,
                    });
                    copied = end;
                    i = end;
                } else if bytes[i] == b'<' && !escaped_by_backslash(bytes, i) && !source[..i].ends_with("](")
                {
                    // pulldown-cmark decodes the entity back into a literal `<`.
                    // (A `<` opening a link destination, `](<url>)`, is kept;
                    // if it turns out to start raw HTML, `Writer` escapes it.)
                    out.push_str(&source[copied..i]);
                    out.push_str("&lt;");
                    i += 1;
                    copied = i;
                } else {
                    i += 1;
                }
            }
        }
        out.push_str(&source[copied..]);
        (out, placeholders)
    }

    /// `@**Full Name**`, `@**Name|ID**`, wildcards, `@*group*`, and their
    /// silent `@_` forms, at byte `at` (an `@`).
    fn mention(&self, source: &str, at: usize, end: usize) -> Option<Found> {
        if !mention_may_start(source, at) {
            return None;
        }
        let rest = &source[at + 1..end];
        let (silent, rest) = match rest.strip_prefix('_') {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let rest_at = end - rest.len();
        if let Some(inner) = rest.strip_prefix("**") {
            let name = delimited_name(inner, "**")?;
            let (html, effect) = self.user_mention(name, silent)?;
            Some((rest_at + name.len() + 4, html, None, effect))
        } else {
            let name = delimited_name(rest.strip_prefix('*')?, "*")?;
            let (html, effect) = self.group_mention(name, silent)?;
            Some((rest_at + name.len() + 2, html, None, effect))
        }
    }

    fn user_mention(&self, name: &str, silent: bool) -> Option<(String, Effect)> {
        let prefix = if silent { "" } else { "@" };
        let silent_class = if silent { " silent" } else { "" };
        if WILDCARDS.contains(&name) {
            let html = if name == "topic" {
                format!(r#"<span class="topic-mention{silent_class}">{prefix}topic</span>"#)
            } else {
                format!(r#"<span class="user-mention{silent_class}" data-user-id="*">{prefix}{name}</span>"#)
            };
            let effect = if silent { Effect::None } else { Effect::Wildcard };
            return Some((html, effect));
        }
        let (id, full_name) = match name.rsplit_once('|') {
            // `@**Name|ID**` (or `@**|ID**`): the ID decides, the name must agree.
            Some((given, id)) if is_digits(id) => {
                let id: i64 = id.parse().ok()?;
                let full_name = self.ctx.user_by_id(id)?;
                if !given.is_empty() && given.to_lowercase() != full_name.to_lowercase() {
                    return None;
                }
                (id, full_name)
            }
            _ => self.ctx.user_by_name(name)?,
        };
        let html = format!(
            r#"<span class="user-mention{silent_class}" data-user-id="{id}">{prefix}{}</span>"#,
            escape_html(&full_name)
        );
        let effect = if silent { Effect::None } else { Effect::User(id) };
        Some((html, effect))
    }

    fn group_mention(&self, name: &str, silent: bool) -> Option<(String, Effect)> {
        let (id, name) = self.ctx.group_by_name(name)?;
        let (prefix, silent_class) = if silent { ("", " silent") } else { ("@", "") };
        let html = format!(
            r#"<span class="user-group-mention{silent_class}" data-user-group-id="{id}">{prefix}{}</span>"#,
            escape_html(&name)
        );
        let effect = if silent { Effect::None } else { Effect::Group(id) };
        Some((html, effect))
    }

    /// `#**channel**`, `#**channel>topic**` or `#**channel>topic@123**` at
    /// byte `at` (a `#`).
    fn channel_link(&self, source: &str, at: usize, end: usize) -> Option<Found> {
        if !mention_may_start(source, at) {
            return None;
        }
        let body = delimited_name(source[at..end].strip_prefix("#**")?, "**")?;
        let (class, id, href, text) = self.channel_link_parts(body)?;
        let id_attr = id.map(|id| format!(r#" data-stream-id="{id}""#)).unwrap_or_default();
        let text = escape_html(&text);
        let html = format!(r#"<a class="{class}"{id_attr} href="{}">{text}</a>"#, escape_html(&href));
        Some((at + body.len() + 5, html, Some(text), Effect::None))
    }

    /// The class, `data-stream-id`, href and text of a channel link.
    fn channel_link_parts(&self, body: &str) -> Option<(&'static str, Option<i64>, String, String)> {
        if let Some((channel, topic)) = body.split_once('>')
            && let Some((id, name)) = self.ctx.channel_by_name(channel)
        {
            let base = channel_url(id, &name);
            if let Some((topic, message)) = topic.rsplit_once('@').filter(|(_, m)| is_digits(m)) {
                let href = format!("{base}/topic/{}/near/{message}", encode_hash_component(topic));
                return Some(("message-link", None, href, format!("#{name} > {topic} @ 💬")));
            }
            let href = format!("{base}/topic/{}", encode_hash_component(topic));
            return Some(("stream-topic", Some(id), href, format!("#{name} > {topic}")));
        }
        let (id, name) = self.ctx.channel_by_name(body)?;
        Some(("stream", Some(id), channel_url(id, &name), format!("#{name}")))
    }

    /// The HTML of `:name:`, or `None` when there is no such emoji.
    fn emoji_html(&self, name: &str) -> Option<String> {
        let title = escape_html(&name.replace('_', " "));
        let image = |url: &str| {
            format!(
                r#"<img alt=":{}:" class="emoji" src="{}" title="{title}">"#,
                escape_html(name),
                escape_html(url)
            )
        };
        if let Some((_, url)) = self.ctx.realm_emoji(name) {
            return Some(image(&url));
        }
        if name == "zulip" {
            return Some(image("/static/generated/emoji/images/emoji/unicode/zulip.png"));
        }
        let emoji = emojis::get_by_shortcode(name)?;
        // Zulip's codes leave out the U+FE0F variation selector.
        let code: Vec<String> = emoji
            .as_str()
            .chars()
            .filter(|&c| c != '\u{FE0F}')
            .map(|c| format!("{:04x}", u32::from(c)))
            .collect();
        Some(format!(
            r#"<span aria-label="{title}" class="emoji emoji-{}" role="img" title="{title}">:{}:</span>"#,
            code.join("-"),
            escape_html(name)
        ))
    }
}

/// A recognised construct: where it ends, its HTML, its HTML inside a link,
/// and its effect.
type Found = (usize, String, Option<String>, Effect);

/// Byte ranges whose text Markdown shows literally: code spans, code blocks
/// and autolinks (other than `<time:…>`, which is an autolink to CommonMark).
fn literal_ranges(source: &str) -> Vec<Range<usize>> {
    Parser::new_ext(source, parser_options())
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Code(_) | Event::Start(Tag::CodeBlock(_)) => Some(range),
            Event::Start(Tag::Link { link_type: LinkType::Autolink | LinkType::Email, dest_url, .. })
                if !dest_url.starts_with("time:") =>
            {
                Some(range)
            }
            _ => None,
        })
        .collect()
}

/// The gaps of `0..len` between the sorted, disjoint `ranges`.
fn outside(len: usize, ranges: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut gaps = Vec::with_capacity(ranges.len() + 1);
    let mut start = 0;
    for range in ranges {
        if range.start > start {
            gaps.push(start..range.start);
        }
        start = start.max(range.end);
    }
    if start < len {
        gaps.push(start..len);
    }
    gaps
}

/// Zulip only starts mentions and channel links after whitespace or an
/// opening bracket or quote.
fn mention_may_start(source: &str, at: usize) -> bool {
    source[..at].chars().next_back().is_none_or(|c| c.is_whitespace() || "'\"({[/<".contains(c))
}

/// The name at the start of `s` up to the `closing` delimiter: non-empty,
/// on one line, without `*` or backticks.
fn delimited_name<'s>(s: &'s str, closing: &str) -> Option<&'s str> {
    let name = &s[..s.find(['*', '\n', '`']).unwrap_or(s.len())];
    (!name.is_empty() && s[name.len()..].starts_with(closing)).then_some(name)
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether the byte at `at` follows an odd number of backslashes.
fn escaped_by_backslash(bytes: &[u8], at: usize) -> bool {
    bytes[..at].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// Inline `$$TeX$$` at byte `at`, as Zulip's pattern
/// `\B(?<!\$)\$\$[^\n_$](\\\$|[^$\n])*\$\$(?!\$)\B` (so `$$5 and $$10` is
/// not math). Returns where it ends and the TeX.
fn inline_math(source: &str, at: usize, end: usize) -> Option<(usize, &str)> {
    let rest = source[at..end].strip_prefix("$$")?;
    if source[..at].chars().next_back().is_some_and(|c| c == '$' || is_word_char(c)) {
        return None;
    }
    let close = rest.find("$$")?;
    let body = &rest[..close];
    let unescaped_dollar = body.match_indices('$').any(|(i, _)| !body[..i].ends_with('\\'));
    if body.is_empty() || body.starts_with('_') || body.contains(['\n', '`']) || unescaped_dollar {
        return None;
    }
    let after = rest[close + 2..].chars().next();
    if after.is_some_and(|c| c == '$' || is_word_char(c)) {
        return None;
    }
    Some((at + close + 4, body))
}

/// Remembers where the last search for a `<time:…>` tag's end stopped, so
/// that many unclosed tags on one line don't make rendering quadratic.
#[derive(Default)]
struct ClosingSearch {
    from: usize,
    /// The first `>` or newline at or after `from`, if any.
    found: Option<usize>,
}

/// `<time:…>` at byte `at`: where it ends and its HTML (Zulip's `<time>`
/// element, or its error span for values it can't parse).
fn time_tag(source: &str, at: usize, end: usize, search: &mut ClosingSearch) -> Option<(usize, String)> {
    const OPEN: &str = "<time:";
    if !source[at..end].starts_with(OPEN) {
        return None;
    }
    let from = at + OPEN.len();
    let stale = from < search.from || search.found.is_some_and(|found| found < from);
    if stale || search.from == 0 {
        search.from = from;
        search.found = source[from..end].find(['>', '\n']).map(|i| from + i);
    }
    let close = search.found.filter(|&i| source.as_bytes()[i] == b'>')?;
    let value = &source[from..close];
    let html = match parse_time(value) {
        Some(datetime) => format!(r#"<time datetime="{datetime}">{}</time>"#, escape_html(value)),
        None => {
            format!(r#"<span class="timestamp-error">Invalid time format: {}</span>"#, escape_html(value))
        }
    };
    Some((close + 1, html))
}

/// KaTeX's output shape; the demo server doesn't typeset, so the TeX source
/// stands in for the rendered formula.
fn katex_html(tex: &str, display: bool) -> String {
    let tex = escape_html(tex);
    let display = if display { r#" display="block""# } else { "" };
    format!(
        r#"<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"{display}><semantics><mrow></mrow><annotation encoding="application/x-tex">{tex}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">{tex}</span></span>"#
    )
}

/// `/#narrow/channel/ID-name`, as Zulip's `encode_channel`.
fn channel_url(id: i64, name: &str) -> String {
    format!("/#narrow/channel/{id}-{}", encode_hash_component(&name.replace(' ', "-")))
}

/// Zulip's `encode_hash_component`: percent-encoding with `.` instead of
/// `%` (and `.` itself encoded), so `q3 plan.md` becomes `q3.20plan.2Emd`.
fn encode_hash_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for byte in s.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, ".{byte:02X}");
        }
    }
    out
}

/// Zulip's `sanitize_url`: domain-relative and fragment links pass,
/// scheme-less ones get `mailto:` (with an `@`) or `http://`, and only safe
/// schemes are allowed (no `javascript:`). `None` means "don't link".
fn sanitize_url(url: &str) -> Option<String> {
    let url = url.trim().replace(' ', "%20");
    if url.is_empty() {
        return None;
    }
    if url.starts_with(['/', '#']) {
        return Some(url);
    }
    match url_scheme(&url) {
        Some(scheme) => SAFE_SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()).then_some(url),
        None if url.contains('@') => Some(format!("mailto:{url}")),
        None => Some(format!("http://{url}")),
    }
}

/// The scheme of `url` (the part before the first `:`, if it is one).
fn url_scheme(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

fn is_image_url(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url).to_ascii_lowercase();
    IMAGE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

/// The next bare URL (`http://`, `https://`, `ftp://` or `www.`) in `text`.
fn find_bare_url(text: &str) -> Option<Range<usize>> {
    const PREFIXES: [&str; 4] = ["http://", "https://", "ftp://", "www."];
    let bytes = text.as_bytes();
    for (i, byte) in bytes.iter().enumerate() {
        if !matches!(byte.to_ascii_lowercase(), b'h' | b'f' | b'w')
            || text[..i].chars().next_back().is_some_and(char::is_alphanumeric)
        {
            continue;
        }
        let tail = &bytes[i..];
        let Some(prefix) = PREFIXES
            .iter()
            .find(|p| tail.len() >= p.len() && tail[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
        else {
            continue;
        };
        let end = url_end(&text[i..]);
        if end > prefix.len() {
            return Some(i..i + end);
        }
    }
    None
}

/// How much of `s` (which starts with a URL) belongs to the URL: up to
/// whitespace, less trailing punctuation and unbalanced closing brackets.
fn url_end(s: &str) -> usize {
    let stop =
        |c: char| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | PH_START | PH_END);
    let mut end = s.find(stop).unwrap_or(s.len());
    let count = |c| s[..end].matches(c).count();
    let (mut open_parens, mut close_parens) = (count('('), count(')'));
    let (open_brackets, mut close_brackets) = (count('['), count(']'));
    while let Some(last) = s[..end].chars().next_back() {
        let trim = match last {
            '.' | ',' | ':' | ';' | '!' | '?' | '\'' | '*' | '_' | '~' => true,
            ')' if close_parens > open_parens => {
                close_parens -= 1;
                true
            }
            ']' if close_brackets > open_brackets => {
                close_brackets -= 1;
                true
            }
            '(' => {
                open_parens -= 1;
                true
            }
            _ => false,
        };
        if !trim {
            break;
        }
        end -= last.len_utf8();
    }
    end
}

/// The index and byte length of the placeholder at the start of `s`.
fn parse_placeholder(s: &str) -> Option<(usize, usize)> {
    let digits = s.strip_prefix(PH_START)?;
    let len = digits.find(PH_END)?;
    let index = digits[..len].parse().ok()?;
    Some((index, PH_START.len_utf8() + len + PH_END.len_utf8()))
}

/// `s` with placeholders replaced by the source text they stand for.
fn restore<'s>(s: &'s str, placeholders: &[Placeholder]) -> Cow<'s, str> {
    if !s.contains(PH_START) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(PH_START) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        match parse_placeholder(rest).and_then(|(index, len)| Some((placeholders.get(index)?, len))) {
            Some((placeholder, len)) => {
                out.push_str(&placeholder.original);
                rest = &rest[len..];
            }
            None => {
                out.push(PH_START);
                rest = &rest[PH_START.len_utf8()..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// An open link: its `href` when an `<a>` was written, and its text so far
/// (the title of an image preview).
struct LinkFrame {
    href: Option<String>,
    text: String,
}

/// An image whose alt text is being collected.
struct ImageFrame {
    url: String,
    alt: String,
    /// Images nested in the alt text (pulldown-cmark allows them).
    nesting: usize,
}

/// A code block whose text is being collected; `info` is `None` when indented.
struct CodeFrame {
    info: Option<String>,
    text: String,
}

/// Turns one fragment's events into HTML.
struct Writer<'w, 'c> {
    renderer: &'w mut Renderer<'c>,
    placeholders: &'w [Placeholder],
    depth: usize,
    out: String,
    /// Consecutive text events, joined before processing.
    text: String,
    links: Vec<LinkFrame>,
    /// Open `<a>` elements (links can't nest, so inner ones are left out).
    open_anchors: usize,
    image: Option<ImageFrame>,
    code: Option<CodeFrame>,
    table_alignments: Vec<Alignment>,
    table_cell: usize,
    in_table_head: bool,
    /// Open block elements; image previews follow the top-level block.
    open_blocks: usize,
    previews: Vec<String>,
}

impl<'w, 'c> Writer<'w, 'c> {
    fn new(renderer: &'w mut Renderer<'c>, placeholders: &'w [Placeholder], depth: usize) -> Self {
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

    fn run(mut self, parser: Parser<'_>) -> String {
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

    fn event(&mut self, event: Event<'_>) {
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

    fn start(&mut self, tag: Tag<'_>) {
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

    fn end(&mut self, tag: TagEnd) {
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

    fn open_block(&mut self, html: &str) {
        self.open_blocks += 1;
        self.out.push_str(html);
    }

    fn close_block(&mut self, html: &str) {
        self.out.push_str(html);
        self.open_blocks = self.open_blocks.saturating_sub(1);
        if self.open_blocks == 0 {
            self.flush_previews();
        }
    }

    fn flush_previews(&mut self) {
        for preview in self.previews.drain(..) {
            self.out.push_str(&preview);
            self.out.push('\n');
        }
    }

    /// Records that a link to `href` was written.
    fn note_link(&mut self, href: &str) {
        self.renderer.result.has_link = true;
        if href.contains("/user_uploads/") {
            self.renderer.result.has_attachment = true;
        }
    }

    /// Queues an inline image preview, written after the top-level block.
    fn queue_preview(&mut self, href: &str, title: Option<&str>) {
        self.renderer.result.has_image = true;
        let href = escape_html(href);
        let title = title.map(|title| format!(r#" title="{}""#, escape_html(title))).unwrap_or_default();
        self.previews.push(format!(
            r#"<div class="message_inline_image"><a href="{href}"{title}><img src="{href}"></a></div>"#
        ));
    }

    fn start_link(&mut self, link_type: LinkType, dest: &str, title: &str) {
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

    fn end_link(&mut self) {
        let Some(link) = self.links.pop() else { return };
        if let Some(href) = link.href {
            self.out.push_str("</a>");
            self.open_anchors -= 1;
            if is_image_url(&href) {
                let title = (link.text != href).then_some(link.text.as_str());
                self.queue_preview(&href, title);
            }
        }
    }

    /// Collects an image's alt text until its end.
    fn image_event(&mut self, event: Event<'_>) {
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
    fn finish_image(&mut self, image: ImageFrame) {
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

    fn finish_code_block(&mut self, code: CodeFrame) {
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

    fn flush_text(&mut self) {
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

    fn write_bare_url(&mut self, url: &str) {
        let href = if url.len() >= 4 && url[..4].eq_ignore_ascii_case("www.") {
            format!("http://{url}")
        } else {
            url.to_owned()
        };
        self.note_link(&href);
        let _ = write!(self.out, r#"<a href="{}">{}</a>"#, escape_html(&href), escape_html(url));
        if is_image_url(&href) {
            self.queue_preview(&href, None);
        }
    }

    /// Writes text that is not a URL: escaped, with placeholders, emoji and
    /// line breaks expanded.
    fn write_plain(&mut self, s: &str) {
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
    fn emoji_at(&self, s: &str) -> Option<(String, usize)> {
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
    fn placeholder_at(&mut self, s: &str) -> Option<(String, usize)> {
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

/// A line that opens or closes a fence.
struct FenceLine<'a> {
    indent: usize,
    fence_char: u8,
    len: usize,
    info: &'a str,
}

impl<'a> FenceLine<'a> {
    /// Fences indented by up to three spaces (deeper lines may be indented
    /// code, so nesting there is left to CommonMark).
    fn parse(line: &'a str) -> Option<Self> {
        let line = line.trim_end_matches(['\n', '\r']);
        let rest = line.trim_start_matches(' ');
        let indent = line.len() - rest.len();
        let fence_char = *rest.as_bytes().first()?;
        if indent > 3 || !matches!(fence_char, b'`' | b'~') {
            return None;
        }
        let len = rest.bytes().take_while(|&b| b == fence_char).count();
        let info = rest[len..].trim();
        if len < 3 || (fence_char == b'`' && info.contains('`')) {
            return None;
        }
        Some(FenceLine { indent, fence_char, len, info })
    }
}

/// A fence open while [`normalize_fences`] scans.
struct OpenFence {
    fence_char: u8,
    len: usize,
    /// A `quote`/`spoiler` fence, whose content is Markdown with fences of its own.
    container: bool,
    opener_line: usize,
    /// The longest fence line inside, per fence character (`` ` ``, `~`).
    inner: [usize; 2],
}

fn fence_index(fence_char: u8) -> usize {
    usize::from(fence_char == b'~')
}

/// Zulip lets a `quote` or `spoiler` fence contain fenced blocks opened with
/// the same fence: an inner ```` ```python ```` opens a nested block (closed
/// by the next ```` ``` ````), where CommonMark would take it as content and
/// end the outer block early. This lengthens such outer fences so that
/// CommonMark finds the same structure.
fn normalize_fences(source: &str) -> Cow<'_, str> {
    if !source.contains("```") && !source.contains("~~~") {
        return Cow::Borrowed(source);
    }
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let mut stack: Vec<OpenFence> = Vec::new();
    // (line, new fence length), in the order fences close.
    let mut rewrites: Vec<(usize, usize)> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(fence) = FenceLine::parse(line) else {
            continue;
        };
        let depth = stack.len();
        match stack.last_mut() {
            Some(top)
                if fence.fence_char == top.fence_char && fence.len >= top.len && fence.info.is_empty() =>
            {
                close_fence(&mut stack, &mut rewrites, Some((index, fence.len)));
            }
            // Inside code (or too deep to nest further), fences are content.
            Some(top) if !top.container || depth >= MAX_FENCE_DEPTH => {
                let slot = &mut top.inner[fence_index(fence.fence_char)];
                *slot = (*slot).max(fence.len);
            }
            _ => {
                let kind = fence.info.split_whitespace().next().unwrap_or("");
                stack.push(OpenFence {
                    fence_char: fence.fence_char,
                    len: fence.len,
                    container: ["quote", "quoted", "spoiler"].iter().any(|k| k.eq_ignore_ascii_case(kind)),
                    opener_line: index,
                    inner: [0; 2],
                });
            }
        }
    }
    while !stack.is_empty() {
        close_fence(&mut stack, &mut rewrites, None);
    }
    if rewrites.is_empty() {
        return Cow::Borrowed(source);
    }
    rewrites.sort_unstable();
    let mut out = String::with_capacity(source.len() + rewrites.len() * 4);
    let mut pending = rewrites.iter().peekable();
    for (index, line) in lines.iter().enumerate() {
        match pending.next_if(|(at, _)| *at == index) {
            Some(&(_, len)) => {
                // Only fence lines are rewritten, so this parses.
                if let Some(fence) = FenceLine::parse(line) {
                    out.push_str(&line[..fence.indent]);
                    out.extend(std::iter::repeat_n(char::from(fence.fence_char), len));
                    out.push_str(&line[fence.indent + fence.len..]);
                }
            }
            None => out.push_str(line),
        }
    }
    Cow::Owned(out)
}

/// Pops the innermost open fence (closed on `closer` = (line, length), or by
/// the end of the text), lengthening it if it is a container with longer or
/// equal fences inside, and tells its parent about its fence lines.
fn close_fence(
    stack: &mut Vec<OpenFence>,
    rewrites: &mut Vec<(usize, usize)>,
    closer: Option<(usize, usize)>,
) {
    let Some(fence) = stack.pop() else { return };
    let own = fence_index(fence.fence_char);
    let mut len = fence.len;
    if fence.container && fence.inner[own] >= fence.len {
        len = fence.inner[own] + 1;
        rewrites.push((fence.opener_line, len));
        if let Some((line, _)) = closer {
            rewrites.push((line, len));
        }
    }
    if let Some(parent) = stack.last_mut() {
        for (slot, inner) in parent.inner.iter_mut().zip(fence.inner) {
            *slot = (*slot).max(inner);
        }
        let closer_len = closer.map_or(0, |(_, closer_len)| closer_len);
        parent.inner[own] = parent.inner[own].max(len).max(closer_len);
    }
}

/// Parses a `<time:…>` value for the forms people use (Zulip accepts
/// whatever `dateutil` does): ISO 8601 with an optional offset (UTC when
/// absent) and UNIX timestamps. Returns the UTC `datetime` attribute value.
fn parse_time(value: &str) -> Option<String> {
    let value = value.trim();
    let (seconds, micros) = parse_unix_timestamp(value).or_else(|| parse_iso8601(value))?;
    let days = seconds.div_euclid(86_400);
    let time = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    if !(1..=9999).contains(&year) {
        return None;
    }
    let mut out =
        format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}", time / 3600, time / 60 % 60, time % 60);
    if micros > 0 {
        let _ = write!(out, ".{micros:06}");
    }
    out.push('Z');
    Some(out)
}

/// `1733000000` or `1733000000.5`: seconds and microseconds.
fn parse_unix_timestamp(value: &str) -> Option<(i64, u32)> {
    let unsigned = value.strip_prefix('-').unwrap_or(value);
    let (int, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if !is_digits(int) || !(fraction.is_empty() || is_digits(fraction)) || int.len() > 12 {
        return None;
    }
    let value: f64 = value.parse().ok()?;
    let seconds = value.floor();
    let mut micros = ((value - seconds) * 1e6).round() as u32;
    // `seconds` has at most 12 digits, so it fits.
    let mut seconds = seconds as i64;
    if micros >= 1_000_000 {
        seconds += 1;
        micros -= 1_000_000;
    }
    Some((seconds, micros))
}

/// `2026-11-25`, `2026-11-25T15:00`, `2026-11-25 15:00:00.5+01:00`, …:
/// seconds since the epoch and microseconds.
fn parse_iso8601(value: &str) -> Option<(i64, u32)> {
    let mut p = Cursor { rest: value };
    let year = p.number(4)?;
    p.expect("-")?;
    let month = p.number(2)?;
    p.expect("-")?;
    let day = p.number(2)?;
    if year == 0 || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let (mut hour, mut minute, mut second, mut micros) = (0, 0, 0, 0);
    if p.eat("T") || p.eat("t") || p.eat(" ") {
        hour = p.number(2)?;
        p.expect(":")?;
        minute = p.number(2)?;
        if p.eat(":") {
            second = p.number(2)?;
            if p.eat(".") || p.eat(",") {
                micros = p.fraction()?;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let offset = p.utc_offset()?;
    if !p.rest.is_empty() {
        return None;
    }
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Some((seconds, micros))
}

/// A tiny parser over the rest of a string.
struct Cursor<'a> {
    rest: &'a str,
}

impl Cursor<'_> {
    fn eat(&mut self, s: &str) -> bool {
        match self.rest.strip_prefix(s) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, s: &str) -> Option<()> {
        self.eat(s).then_some(())
    }

    /// Exactly `digits` decimal digits.
    fn number(&mut self, digits: usize) -> Option<i64> {
        let field = self.rest.get(..digits).filter(|f| is_digits(f))?;
        self.rest = &self.rest[digits..];
        field.parse().ok()
    }

    /// Fractional-second digits, as microseconds.
    fn fraction(&mut self) -> Option<u32> {
        let len = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return None;
        }
        let digits = &self.rest[..len.min(6)];
        self.rest = &self.rest[len..];
        let micros: u32 = digits.parse().ok()?;
        Some(micros * 10u32.pow((6 - digits.len()) as u32))
    }

    /// An optional `Z`, `UTC`, `GMT`, `±HH`, `±HHMM` or `±HH:MM` (after
    /// optional spaces), in seconds east of UTC.
    fn utc_offset(&mut self) -> Option<i64> {
        self.rest = self.rest.trim_start_matches(' ');
        if self.rest.is_empty() || self.eat("Z") || self.eat("z") || self.eat("UTC") || self.eat("GMT") {
            return Some(0);
        }
        let sign = if self.eat("+") {
            1
        } else {
            self.expect("-")?;
            -1
        };
        let hours = self.number(2)?;
        self.eat(":");
        let minutes = if self.rest.is_empty() { 0 } else { self.number(2)? };
        (hours <= 23 && minutes <= 59).then_some(sign * (hours * 3600 + minutes * 60))
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Alice Smith (7), Bob (8); group backend (3); channels design (9) and
    /// general chat (10); custom emoji party_parrot.
    struct TestContext;

    const USERS: [(i64, &str); 2] = [(7, "Alice Smith"), (8, "Bob")];

    impl RenderContext for TestContext {
        fn user_by_name(&self, full_name: &str) -> Option<(i64, String)> {
            USERS
                .iter()
                .find(|(_, name)| name.eq_ignore_ascii_case(full_name))
                .map(|&(id, name)| (id, name.to_owned()))
        }
        fn user_by_id(&self, id: i64) -> Option<String> {
            USERS.iter().find(|(i, _)| *i == id).map(|(_, name)| (*name).to_owned())
        }
        fn group_by_name(&self, name: &str) -> Option<(i64, String)> {
            (name == "backend").then(|| (3, name.to_owned()))
        }
        fn channel_by_name(&self, name: &str) -> Option<(i64, String)> {
            match name {
                "design" => Some((9, name.to_owned())),
                "general chat" => Some((10, name.to_owned())),
                _ => None,
            }
        }
        fn realm_emoji(&self, name: &str) -> Option<(String, String)> {
            (name == "party_parrot")
                .then(|| ("1".to_owned(), "/user_avatars/2/emoji/images/1.gif".to_owned()))
        }
    }

    fn full(markdown: &str) -> Rendered {
        let rendered = render(markdown, &TestContext);
        assert_well_formed(&rendered.html);
        rendered
    }

    fn html(markdown: &str) -> String {
        full(markdown).html
    }

    /// Every element closes in order, `<a>` never nests, and no placeholder
    /// leaks. Text never holds a raw `<`, so a tag scan is enough.
    fn assert_well_formed(html: &str) {
        let mut stack: Vec<&str> = Vec::new();
        let mut rest = html;
        while let Some(start) = rest.find('<') {
            let end = start + rest[start..].find('>').expect("unterminated tag");
            let tag = &rest[start + 1..end];
            rest = &rest[end + 1..];
            let name = tag.trim_start_matches('/').split(' ').next().unwrap_or("");
            assert!(
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric()),
                "bad tag {tag:?} in {html}"
            );
            if matches!(name, "br" | "hr" | "img") {
                continue;
            }
            if tag.starts_with('/') {
                assert_eq!(stack.pop(), Some(name), "misnested </{name}> in {html}");
            } else {
                assert!(!(name == "a" && stack.contains(&"a")), "nested <a> in {html}");
                stack.push(name);
            }
        }
        assert!(stack.is_empty(), "unclosed {stack:?} in {html}");
        assert!(!html.contains([PH_START, PH_END]), "placeholder leaked: {html}");
    }

    #[test]
    fn paragraphs_and_inline_formatting() {
        assert_eq!(
            html("Hello **bold** *it* ~~gone~~\n\nNext"),
            "<p>Hello <strong>bold</strong> <em>it</em> <del>gone</del></p>\n<p>Next</p>"
        );
    }

    #[test]
    fn single_newline_is_a_line_break() {
        assert_eq!(html("one\ntwo"), "<p>one<br>\ntwo</p>");
    }

    #[test]
    fn single_tilde_stays_literal() {
        assert_eq!(html("~a~ and ~~b~~"), "<p>~a~ and <del>b</del></p>");
    }

    #[test]
    fn inline_code() {
        assert_eq!(html("use `a < b` here"), "<p>use <code>a &lt; b</code> here</p>");
    }

    #[test]
    fn code_spans_are_not_processed() {
        let rendered =
            full("`@**Alice Smith**` `#**design**` `:smile:` `https://x.org` `$$x$$` `<time:2026-01-01>`");
        assert_eq!(
            rendered.html,
            "<p><code>@**Alice Smith**</code> <code>#**design**</code> <code>:smile:</code> <code>https://x.org</code> <code>$$x$$</code> <code>&lt;time:2026-01-01&gt;</code></p>"
        );
        assert!(rendered.mentioned_user_ids.is_empty() && !rendered.has_link);
    }

    #[test]
    fn headings_and_rule() {
        assert_eq!(html("# One\n###### Six\n\n---"), "<h1>One</h1>\n<h6>Six</h6>\n<hr>");
    }

    #[test]
    fn blockquote() {
        assert_eq!(html("> quoted\n> more"), "<blockquote>\n<p>quoted<br>\nmore</p>\n</blockquote>");
    }

    #[test]
    fn nested_lists() {
        assert_eq!(
            html("- a\n  - b\n    1. c\n- d"),
            "<ul>\n<li>a<ul>\n<li>b<ol>\n<li>c</li>\n</ol>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>"
        );
        assert_eq!(html("3. x\n4. y"), "<ol start=\"3\">\n<li>x</li>\n<li>y</li>\n</ol>");
    }

    #[test]
    fn table() {
        assert_eq!(
            html("| a | b |\n|:--|--:|\n| 1 | **2** |"),
            "<table>\n<thead>\n<tr>\n<th style=\"text-align: left;\">a</th>\n<th style=\"text-align: right;\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style=\"text-align: left;\">1</td>\n<td style=\"text-align: right;\"><strong>2</strong></td>\n</tr>\n</tbody>\n</table>"
        );
    }

    #[test]
    fn links() {
        let rendered = full("[docs](https://example.com/a?b=1&c=2 \"T\")");
        assert_eq!(
            rendered.html,
            "<p><a href=\"https://example.com/a?b=1&amp;c=2\" title=\"T\">docs</a></p>"
        );
        assert!(rendered.has_link && !rendered.has_image && !rendered.has_attachment);
        assert_eq!(html("[x](example.com)"), "<p><a href=\"http://example.com\">x</a></p>");
        assert_eq!(html("[me](me@example.com)"), "<p><a href=\"mailto:me@example.com\">me</a></p>");
        assert_eq!(html("<https://a.org/x>"), "<p><a href=\"https://a.org/x\">https://a.org/x</a></p>");
        assert_eq!(html("<me@x.org>"), "<p><a href=\"mailto:me@x.org\">me@x.org</a></p>");
    }

    #[test]
    fn bare_urls_are_linked() {
        let rendered = full(
            "see https://x.y/z. and (www.rust-lang.org) or https://en.wikipedia.org/wiki/Rust_(language)",
        );
        assert_eq!(
            rendered.html,
            "<p>see <a href=\"https://x.y/z\">https://x.y/z</a>. and (<a href=\"http://www.rust-lang.org\">www.rust-lang.org</a>) or <a href=\"https://en.wikipedia.org/wiki/Rust_(language)\">https://en.wikipedia.org/wiki/Rust_(language)</a></p>"
        );
        assert!(rendered.has_link);
        assert_eq!(html("xhttp://a.b and http://"), "<p>xhttp://a.b and http://</p>");
        // Not inside link text.
        assert_eq!(html("[https://a.b](https://c.d)"), "<p><a href=\"https://c.d\">https://a.b</a></p>");
    }

    #[test]
    fn unsafe_links_are_not_linked() {
        let rendered = full("[click](javascript:alert(1)) <javascript:alert(2)>");
        assert_eq!(rendered.html, "<p>click javascript:alert(2)</p>");
        assert!(!rendered.has_link);
        assert_eq!(html("![x](javascript:alert(1))"), "<p>x</p>");
    }

    #[test]
    fn fenced_code() {
        let rendered =
            full("```Rust\nfn main() { let x = 1 < 2; }\n// @**Alice Smith** :smile: https://x.y\n```");
        assert_eq!(
            rendered.html,
            "<div class=\"codehilite\" data-code-language=\"Rust\"><pre><span></span><code>fn main() { let x = 1 &lt; 2; }\n// @**Alice Smith** :smile: https://x.y\n</code></pre></div>"
        );
        assert!(rendered.mentioned_user_ids.is_empty() && !rendered.has_link);
        assert_eq!(
            html("```\nplain\n```"),
            "<div class=\"codehilite\"><pre><span></span><code>plain\n</code></pre></div>"
        );
        assert_eq!(
            html("    indented"),
            "<div class=\"codehilite\"><pre><span></span><code>indented\n</code></pre></div>"
        );
    }

    #[test]
    fn unbalanced_fences() {
        assert_eq!(
            html("```python\nx = 1"),
            "<div class=\"codehilite\" data-code-language=\"python\"><pre><span></span><code>x = 1\n</code></pre></div>"
        );
        assert_eq!(
            html("```spoiler Open\nhidden"),
            "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Open</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>hidden</p>\n</div></div>"
        );
        assert_eq!(
            html("```quote\n```python\nx\n```"),
            "<blockquote>\n<div class=\"codehilite\" data-code-language=\"python\"><pre><span></span><code>x\n</code></pre></div>\n</blockquote>"
        );
        assert_eq!(
            html("text\n```"),
            "<p>text</p>\n<div class=\"codehilite\"><pre><span></span><code></code></pre></div>"
        );
        for source in
            ["```", "~~~~\n```", "```quote\n~~~spoiler\n```math", "> ```quote\n> x", "- ```spoiler\n  - ```"]
        {
            html(source);
        }
    }

    #[test]
    fn image() {
        let rendered = full("Look ![a cat](https://img.example/cat.png) here\n\nafter");
        assert_eq!(
            rendered.html,
            "<p>Look <a href=\"https://img.example/cat.png\">a cat</a> here</p>\n<div class=\"message_inline_image\"><a href=\"https://img.example/cat.png\" title=\"a cat\"><img src=\"https://img.example/cat.png\"></a></div>\n<p>after</p>"
        );
        assert!(rendered.has_image && rendered.has_link && !rendered.has_attachment);
        // Inside a list, the preview follows the whole list.
        assert_eq!(
            html("- ![](/i.gif)"),
            "<ul>\n<li><a href=\"/i.gif\">/i.gif</a></li>\n</ul>\n<div class=\"message_inline_image\"><a href=\"/i.gif\"><img src=\"/i.gif\"></a></div>"
        );
        // An image in a link doesn't nest anchors.
        assert_eq!(
            html("[![alt](/p.png)](https://x.y)"),
            "<p><a href=\"https://x.y\">alt</a></p>\n<div class=\"message_inline_image\"><a href=\"/p.png\" title=\"alt\"><img src=\"/p.png\"></a></div>"
        );
    }

    #[test]
    fn uploaded_files() {
        let rendered = full("[report.pdf](/user_uploads/2/ab/report.pdf)");
        assert_eq!(rendered.html, "<p><a href=\"/user_uploads/2/ab/report.pdf\">report.pdf</a></p>");
        assert!(rendered.has_attachment && rendered.has_link && !rendered.has_image);
        let rendered = full("[shot.png](/user_uploads/2/cd/shot.png)");
        assert!(rendered.has_attachment && rendered.has_image);
        assert!(rendered.html.ends_with(
            "<div class=\"message_inline_image\"><a href=\"/user_uploads/2/cd/shot.png\" title=\"shot.png\"><img src=\"/user_uploads/2/cd/shot.png\"></a></div>"
        ));
        let rendered = full("https://x.org/a.JPG");
        assert!(rendered.has_image && rendered.html.contains("<img src=\"https://x.org/a.JPG\">"));
    }

    #[test]
    fn user_mentions() {
        let rendered = full("hi @**alice smith** and @_**Bob**, @**Bob|8** again (@**Alice Smith**)");
        assert_eq!(
            rendered.html,
            "<p>hi <span class=\"user-mention\" data-user-id=\"7\">@Alice Smith</span> and <span class=\"user-mention silent\" data-user-id=\"8\">Bob</span>, <span class=\"user-mention\" data-user-id=\"8\">@Bob</span> again (<span class=\"user-mention\" data-user-id=\"7\">@Alice Smith</span>)</p>"
        );
        assert_eq!(rendered.mentioned_user_ids, vec![7, 8]);
        assert!(!rendered.wildcard_mention);
        assert_eq!(
            html("@**|7**"),
            "<p><span class=\"user-mention\" data-user-id=\"7\">@Alice Smith</span></p>"
        );
        // Silent mentions don't notify.
        assert!(full("@_**Bob**").mentioned_user_ids.is_empty());
    }

    #[test]
    fn mention_needs_a_known_user_and_a_boundary() {
        // Like Zulip, a failed mention is ordinary Markdown.
        let rendered = full("@**Nobody** @**Bob|7** mail@**Bob**");
        assert_eq!(
            rendered.html,
            "<p>@<strong>Nobody</strong> @<strong>Bob|7</strong> mail@<strong>Bob</strong></p>"
        );
        assert!(rendered.mentioned_user_ids.is_empty());
        assert_eq!(html("@**Nobody"), "<p>@**Nobody</p>");
        assert_eq!(html("\\@**Bob**"), "<p>@<strong>Bob</strong></p>");
    }

    #[test]
    fn wildcard_mentions() {
        for name in ["all", "everyone", "channel", "stream"] {
            let rendered = full(&format!("@**{name}**"));
            assert_eq!(
                rendered.html,
                format!("<p><span class=\"user-mention\" data-user-id=\"*\">@{name}</span></p>")
            );
            assert!(rendered.wildcard_mention);
        }
        let rendered = full("@**topic**");
        assert_eq!(rendered.html, "<p><span class=\"topic-mention\">@topic</span></p>");
        assert!(rendered.wildcard_mention);
        let rendered = full("@_**all**");
        assert_eq!(rendered.html, "<p><span class=\"user-mention silent\" data-user-id=\"*\">all</span></p>");
        assert!(!rendered.wildcard_mention);
    }

    #[test]
    fn group_mentions() {
        let rendered = full("@*backend* and @_*backend* but not @*frontend*");
        assert_eq!(
            rendered.html,
            "<p><span class=\"user-group-mention\" data-user-group-id=\"3\">@backend</span> and <span class=\"user-group-mention silent\" data-user-group-id=\"3\">backend</span> but not @<em>frontend</em></p>"
        );
        assert_eq!(rendered.mentioned_group_ids, vec![3]);
        assert!(rendered.mentioned_user_ids.is_empty());
    }

    #[test]
    fn channel_and_topic_links() {
        let rendered = full("#**design** #**general chat>q3 plan.md** #**design>x@123** #**nope**");
        assert_eq!(
            rendered.html,
            "<p><a class=\"stream\" data-stream-id=\"9\" href=\"/#narrow/channel/9-design\">#design</a> \
             <a class=\"stream-topic\" data-stream-id=\"10\" href=\"/#narrow/channel/10-general-chat/topic/q3.20plan.2Emd\">#general chat &gt; q3 plan.md</a> \
             <a class=\"message-link\" href=\"/#narrow/channel/9-design/topic/x/near/123\">#design &gt; x @ 💬</a> \
             #<strong>nope</strong></p>"
        );
        assert!(!rendered.has_link);
        assert_eq!(encode_hash_component("a/b ü"), "a.2Fb.20.C3.BC");
        // No nested anchors inside a link.
        assert_eq!(html("[see #**design**](https://x.y)"), "<p><a href=\"https://x.y\">see #design</a></p>");
    }

    #[test]
    fn emoji() {
        assert_eq!(
            html("ok :+1: :smile:"),
            "<p>ok <span aria-label=\"+1\" class=\"emoji emoji-1f44d\" role=\"img\" title=\"+1\">:+1:</span> <span aria-label=\"smile\" class=\"emoji emoji-1f604\" role=\"img\" title=\"smile\">:smile:</span></p>"
        );
        // U+FE0F is left out of the code; underscores become spaces in titles.
        assert_eq!(
            html(":heart::red_circle:"),
            "<p><span aria-label=\"heart\" class=\"emoji emoji-2764\" role=\"img\" title=\"heart\">:heart:</span><span aria-label=\"red circle\" class=\"emoji emoji-1f534\" role=\"img\" title=\"red circle\">:red_circle:</span></p>"
        );
        assert_eq!(
            html(":hash:"),
            "<p><span aria-label=\"hash\" class=\"emoji emoji-0023-20e3\" role=\"img\" title=\"hash\">:hash:</span></p>"
        );
        assert_eq!(
            html(":party_parrot:"),
            "<p><img alt=\":party_parrot:\" class=\"emoji\" src=\"/user_avatars/2/emoji/images/1.gif\" title=\"party parrot\"></p>"
        );
        assert_eq!(
            html(":zulip:"),
            "<p><img alt=\":zulip:\" class=\"emoji\" src=\"/static/generated/emoji/images/emoji/unicode/zulip.png\" title=\"zulip\"></p>"
        );
        assert_eq!(html(":not_an_emoji: at 10:30:45 ::"), "<p>:not_an_emoji: at 10:30:45 ::</p>");
        assert_eq!(html("literal 👍"), "<p>literal 👍</p>");
    }

    #[test]
    fn global_times() {
        assert_eq!(
            html("at <time:2026-11-25T15:00:00+00:00>!"),
            "<p>at <time datetime=\"2026-11-25T15:00:00Z\">2026-11-25T15:00:00+00:00</time>!</p>"
        );
        assert_eq!(
            html("<time:2026-11-25T10:30-05:00> <time:2024-02-29 23:00:00.25+0100>"),
            "<p><time datetime=\"2026-11-25T15:30:00Z\">2026-11-25T10:30-05:00</time> <time datetime=\"2024-02-29T22:00:00.250000Z\">2024-02-29 23:00:00.25+0100</time></p>"
        );
        assert_eq!(
            html("<time:1733000000>"),
            "<p><time datetime=\"2024-11-30T20:53:20Z\">1733000000</time></p>"
        );
        assert_eq!(
            html("<time:1969-12-31>"),
            "<p><time datetime=\"1969-12-31T00:00:00Z\">1969-12-31</time></p>"
        );
        assert_eq!(
            html("<time:2023-02-29>"),
            "<p><span class=\"timestamp-error\">Invalid time format: 2023-02-29</span></p>"
        );
        assert_eq!(
            html("<time:soon>"),
            "<p><span class=\"timestamp-error\">Invalid time format: soon</span></p>"
        );
        assert_eq!(html("<time:2026-01-01"), "<p>&lt;time:2026-01-01</p>");
        assert_eq!(html("\\<time:2026-01-01>"), "<p>&lt;time:2026-01-01&gt;</p>");
    }

    #[test]
    fn date_arithmetic_round_trips() {
        for days in (-800_000..3_000_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
    }

    #[test]
    fn spoilers() {
        let rendered = full("```spoiler Plot **twist**\nIt was @**Bob**.\n\n- all along\n```");
        assert_eq!(
            rendered.html,
            "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Plot <strong>twist</strong></p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>It was <span class=\"user-mention\" data-user-id=\"8\">@Bob</span>.</p>\n<ul>\n<li>all along</li>\n</ul>\n</div></div>"
        );
        assert_eq!(rendered.mentioned_user_ids, vec![8]);
        assert_eq!(
            html("~~~spoiler\nx\n~~~"),
            "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>x</p>\n</div></div>"
        );
    }

    #[test]
    fn fences_nest_as_in_zulip() {
        // The inner ``` closes the python block, not the spoiler.
        assert_eq!(
            html("```spoiler Code\n```python\nprint(1)\n```\ntext\n```\nafter"),
            "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Code</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<div class=\"codehilite\" data-code-language=\"python\"><pre><span></span><code>print(1)\n</code></pre></div>\n<p>text</p>\n</div></div>\n<p>after</p>"
        );
        assert_eq!(
            html("```quote\n```quote\ninner\n```\n```"),
            "<blockquote>\n<blockquote>\n<p>inner</p>\n</blockquote>\n</blockquote>"
        );
        // Inside a plain code block, fences are just text.
        assert_eq!(
            html("```\n```quote\n```"),
            "<div class=\"codehilite\"><pre><span></span><code>```quote\n</code></pre></div>"
        );
    }

    #[test]
    fn quote_fence() {
        let rendered = full("```quote\n**said** :smile:\n```");
        assert_eq!(
            rendered.html,
            "<blockquote>\n<p><strong>said</strong> <span aria-label=\"smile\" class=\"emoji emoji-1f604\" role=\"img\" title=\"smile\">:smile:</span></p>\n</blockquote>"
        );
    }

    #[test]
    fn math() {
        assert_eq!(html("so $$a_1 < b^*$$ ok"), format!("<p>so {} ok</p>", katex_html("a_1 < b^*", false)));
        assert_eq!(
            katex_html("x<1", false),
            "<span class=\"katex\"><span class=\"katex-mathml\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow></mrow><annotation encoding=\"application/x-tex\">x&lt;1</annotation></semantics></math></span><span class=\"katex-html\" aria-hidden=\"true\">x&lt;1</span></span>"
        );
        assert_eq!(
            html("```math\n\\frac{1}{2}\n\ny\n```"),
            format!(
                "<p><span class=\"katex-display\">{}</span></p>\n<p><span class=\"katex-display\">{}</span></p>",
                katex_html("\\frac{1}{2}", true),
                katex_html("y", true)
            )
        );
        // Prices are not math.
        assert_eq!(html("$$5 and $$10"), "<p>$$5 and $$10</p>");
        assert_eq!(html("a$$x$$ $$$y$$$"), "<p>a$$x$$ $$$y$$$</p>");
    }

    #[test]
    fn raw_html_is_escaped() {
        assert_eq!(
            html("<script>alert('x')</script> <b onclick=\"x\">hi</b>"),
            "<p>&lt;script&gt;alert('x')&lt;/script&gt; &lt;b onclick=&quot;x&quot;&gt;hi&lt;/b&gt;</p>"
        );
        assert_eq!(
            html("<div>\n**md**\n</div>"),
            "<p>&lt;div&gt;<br>\n<strong>md</strong><br>\n&lt;/div&gt;</p>"
        );
        assert_eq!(html("<!-- c --> \\<b> 1 < 2 & 3"), "<p>&lt;!-- c --&gt; &lt;b&gt; 1 &lt; 2 &amp; 3</p>");
        assert_eq!(
            html("[a](https://x.y \"<b>\")"),
            "<p><a href=\"https://x.y\" title=\"&lt;b&gt;\">a</a></p>"
        );
        assert_eq!(html("[a](<https://x.y/a b>)"), "<p><a href=\"https://x.y/a%20b\">a</a></p>");
        assert_eq!(html("](<b>x</b>"), "<p>](&lt;b&gt;x&lt;/b&gt;</p>");
    }

    #[test]
    fn escape_html_escapes_markup_characters() {
        assert_eq!(escape_html(r#"<a href="x">&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;'&lt;/a&gt;");
    }

    #[test]
    fn forged_placeholders_are_neutralized() {
        let source = format!("@**Bob** {PH_START}0{PH_END}");
        let rendered = full(&source);
        assert_eq!(
            rendered.html,
            "<p><span class=\"user-mention\" data-user-id=\"8\">@Bob</span> \u{FFFD}0\u{FFFD}</p>"
        );
    }

    #[test]
    fn placeholders_in_urls_are_restored() {
        assert_eq!(html("[x](https://a.b/@**Bob**)"), "<p><a href=\"https://a.b/@**Bob**\">x</a></p>");
        assert_eq!(
            html("<https://a.b/@**Bob**>"),
            "<p><a href=\"https://a.b/@**Bob**\">https://a.b/@**Bob**</a></p>"
        );
        assert!(full("[x](https://a.b/@**Bob**)").mentioned_user_ids.is_empty());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let quotes = format!("{} deep", ">".repeat(1000));
        let out = html(&quotes);
        assert_eq!(out.matches("<blockquote>").count(), out.matches("</blockquote>").count());
        let mut lists = String::new();
        for depth in 0..1000 {
            lists.push_str(&"  ".repeat(depth));
            lists.push_str("- item\n");
        }
        html(&lists);
        html(&"[".repeat(10_000));
        html(&"*a ".repeat(10_000));
        // Spoilers past the depth limit are shown as code.
        let mut spoilers = String::new();
        for depth in 0..50 {
            spoilers.push_str(&"`".repeat(60 - depth));
            spoilers.push_str("spoiler\n");
        }
        spoilers.push_str("core\n");
        for depth in (0..50).rev() {
            spoilers.push_str(&"`".repeat(60 - depth));
            spoilers.push('\n');
        }
        let out = html(&spoilers);
        assert_eq!(out.matches("class=\"spoiler-block\"").count(), MAX_FENCE_DEPTH);
        assert!(out.contains("data-code-language=\"spoiler\""));
        // Zulip-style nesting, deeper than the limit.
        let nested = format!("{}core\n{}", "```quote\n".repeat(100), "```\n".repeat(100));
        html(&nested);
    }

    #[test]
    fn huge_inputs_render_quickly() {
        let megabyte = 1 << 20;
        let samples = [
            "Some *text* with @**Alice Smith**, :smile:, https://x.y/z and `code`.\n\n",
            "@**",
            "@*",
            "#**",
            "$$",
            "$$a",
            "<time:",
            "<",
            "\\",
            ":",
            ":a",
            "http://",
            "```\n",
            "```quote\n",
            "> ",
            "- ",
            "|a|\n",
            "[a](",
            "![",
            ")",
        ];
        for sample in samples {
            let source = sample.repeat(megabyte / sample.len());
            let started = Instant::now();
            let rendered = render(&source, &TestContext);
            let elapsed = started.elapsed();
            assert!(elapsed < Duration::from_secs(20), "{sample:?} took {elapsed:?}");
            assert!(!rendered.html.is_empty());
        }
    }

    /// Random mixes of syntax never panic and always give well-formed HTML.
    #[test]
    fn random_inputs_are_well_formed() {
        const TOKENS: [&str; 44] = [
            "@**Alice Smith**",
            "@_**Bob**",
            "@**all**",
            "@*backend*",
            "#**design**",
            "#**design>t**",
            ":smile:",
            ":party_parrot:",
            "$$x_1$$",
            "<time:2026-01-01T00:00Z>",
            "https://x.y/a.png",
            "www.a.b",
            "```",
            "```spoiler h",
            "```quote",
            "```math",
            "~~~",
            "\n",
            "\n\n",
            "> ",
            "- ",
            "1. ",
            "  ",
            "*",
            "**",
            "_",
            "~~",
            "~",
            "`",
            "[",
            "]",
            "(",
            ")",
            "![",
            "](/u.png)",
            "|",
            "|---|",
            "<b>",
            "</b>",
            "&amp;",
            "\\",
            "# ",
            "text",
            "**bold**",
        ];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = next() % 40;
            let source: String = (0..len).map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize]).collect();
            let rendered = render(&source, &TestContext);
            assert_well_formed(&rendered.html);
        }
    }
}
