//! Zulip's inline syntax outside code: mentions, channel and topic links, emoji, math and
//! global times, replaced by placeholders before Markdown parsing.

use super::links::{channel_url, encode_hash_component};
use super::math::{inline_math, katex_html};
use super::placeholder::{Effect, PH_END, PH_START, Placeholder};
use super::text::is_digits;
use super::time::{ClosingSearch, time_tag};
use super::writer::{Renderer, parser_options};
use pulldown_cmark::{Event, LinkType, Parser, Tag};
use std::fmt::Write as _;
use std::ops::Range;
use topicterm_api::markup::escape_html;

/// Mention names that address many users; `topic` only those in the topic.
pub(super) const WILDCARDS: [&str; 5] = ["all", "everyone", "channel", "stream", "topic"];

impl Renderer<'_> {
    /// Replaces Zulip's inline syntax outside code with placeholders and
    /// escapes raw HTML, returning the prepared source and the placeholders.
    pub(super) fn protect(&self, source: &str) -> (String, Vec<Placeholder>) {
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
                        time_tag(source, i, segment.end, &mut time_close, self.ctx.feature_level())
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
    pub(super) fn mention(&self, source: &str, at: usize, end: usize) -> Option<Found> {
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

    pub(super) fn user_mention(&self, name: &str, silent: bool) -> Option<(String, Effect)> {
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

    pub(super) fn group_mention(&self, name: &str, silent: bool) -> Option<(String, Effect)> {
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
    pub(super) fn channel_link(&self, source: &str, at: usize, end: usize) -> Option<Found> {
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
    pub(super) fn channel_link_parts(
        &self,
        body: &str,
    ) -> Option<(&'static str, Option<i64>, String, String)> {
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
    pub(super) fn emoji_html(&self, name: &str) -> Option<String> {
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
        // Zulip's names only: a gemoji-only name (`:thumbsup:`) stays literal text, as on Zulip.
        let emoji = topicterm_api::emoji::by_name(name)?;
        Some(format!(
            r#"<span aria-label="{title}" class="emoji emoji-{}" role="img" title="{title}">:{}:</span>"#,
            emoji.code,
            escape_html(name)
        ))
    }
}

/// A recognised construct: where it ends, its HTML, its HTML inside a link,
/// and its effect.
pub(super) type Found = (usize, String, Option<String>, Effect);

/// Byte ranges whose text Markdown shows literally: code spans, code blocks
/// and autolinks (other than `<time:…>`, which is an autolink to CommonMark).
pub(super) fn literal_ranges(source: &str) -> Vec<Range<usize>> {
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
pub(super) fn outside(len: usize, ranges: &[Range<usize>]) -> Vec<Range<usize>> {
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
pub(super) fn mention_may_start(source: &str, at: usize) -> bool {
    source[..at].chars().next_back().is_none_or(|c| c.is_whitespace() || "'\"({[/<".contains(c))
}

/// The name at the start of `s` up to the `closing` delimiter: non-empty,
/// on one line, without `*` or backticks.
pub(super) fn delimited_name<'s>(s: &'s str, closing: &str) -> Option<&'s str> {
    let name = &s[..s.find(['*', '\n', '`']).unwrap_or(s.len())];
    (!name.is_empty() && s[name.len()..].starts_with(closing)).then_some(name)
}

/// Whether the byte at `at` follows an odd number of backslashes.
pub(super) fn escaped_by_backslash(bytes: &[u8], at: usize) -> bool {
    bytes[..at].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}
