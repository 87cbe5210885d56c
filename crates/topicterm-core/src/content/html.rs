//! What Zulip's HTML means: which elements are spoilers, skipped, blocks; emoji codes; code
//! block languages; and an iterative walk for subtrees whose depth the input decides.

use super::text::{attr_text, display_width, sanitize};
use scraper::{ElementRef, Html, Node};
use std::collections::HashMap;

/// Short marked-up text (a search result's `match_subject`) as runs of plain text, each saying
/// whether it is in a `<span class="highlight">`. Other markup is dropped; text is sanitized.
pub fn highlighted_runs(html: &str) -> Vec<(String, bool)> {
    let doc = Html::parse_fragment(html);
    let mut runs: Vec<(String, bool)> = Vec::new();
    for node in doc.root_element().descendants() {
        let Node::Text(t) = node.value() else { continue };
        let marked = node.ancestors().filter_map(ElementRef::wrap).any(|el| has_class(el, "highlight"));
        let text = sanitize(t);
        match runs.last_mut() {
            Some((prev, m)) if *m == marked => prev.push_str(&text),
            _ => runs.push((text, marked)),
        }
    }
    runs
}

pub(crate) fn has_class(el: ElementRef<'_>, class: &str) -> bool {
    el.value().classes().any(|c| c == class)
}

pub(crate) fn parent_element(el: ElementRef<'_>) -> Option<ElementRef<'_>> {
    el.parent().and_then(ElementRef::wrap)
}

pub(crate) fn is_spoiler_block(el: ElementRef<'_>) -> bool {
    has_class(el, "spoiler-block")
}

/// A `spoiler-content` that is not the direct child of a `spoiler-block`: treated as a spoiler
/// of its own (hidden unless opened), so malformed markup cannot leak hidden text.
pub(crate) fn is_stray_spoiler_content(el: ElementRef<'_>) -> bool {
    has_class(el, "spoiler-content") && !parent_element(el).is_some_and(is_spoiler_block)
}

pub(crate) fn is_spoiler_part(el: ElementRef<'_>) -> bool {
    is_spoiler_block(el) || has_class(el, "spoiler-content")
}

/// Every spoiler (block or stray content) numbered in document order, keyed by its element's
/// address in the tree. Numbering up front keeps an index independent of which spoilers are
/// open and of whether the renderer walks the subtree a spoiler is in (it skips math, code,
/// media, table debris…).
pub(crate) fn spoiler_indices(doc: &Html) -> HashMap<*const scraper::node::Element, usize> {
    // The root is not content (an `<html class=…>` tag only adds attributes to it).
    doc.root_element()
        .descendent_elements()
        .skip(1)
        .filter(|d| is_spoiler_block(*d) || is_stray_spoiler_content(*d))
        .enumerate()
        .map(|(i, d)| (d.value() as *const _, i))
        .collect()
}

/// Elements whose content is never shown: what is not content (scripts, styles, forms,
/// frames…), and what the page hides — the `hidden` attribute, a style of `display: none` or
/// `visibility: hidden` — which the web app never shows: no text, no link number, no hint.
pub(crate) fn is_skipped(el: ElementRef<'_>) -> bool {
    const SKIPPED: &[&str] = &[
        "script", "style", "template", "head", "title", "meta", "link", "base", "noscript", "noembed",
        "noframes", "iframe", "frame", "frameset", "object", "embed", "param", "input", "select", "textarea",
        "button", "svg", "canvas", "source", "track", "map", "area",
    ];
    let e = el.value();
    SKIPPED.contains(&e.name()) || e.attr("hidden").is_some() || e.attr("style").is_some_and(style_hides)
}

/// Whether a `style` attribute hides its element: a declaration `display: none`, or
/// `visibility: hidden`/`collapse`, in any case and spacing, `!important` or not.
fn style_hides(style: &str) -> bool {
    style.split(';').any(|declaration| {
        let Some((property, value)) = declaration.split_once(':') else { return false };
        let property = property.trim().to_ascii_lowercase();
        let value = value.trim().to_ascii_lowercase();
        let value = value.strip_suffix("!important").unwrap_or(&value).trim();
        (property == "display" && value == "none")
            || (property == "visibility" && matches!(value, "hidden" | "collapse"))
    })
}

/// Elements that start and end a block (paragraph-like separation).
pub(crate) fn is_block(name: &str) -> bool {
    const BLOCKS: &[&str] = &[
        "p",
        "div",
        "section",
        "article",
        "header",
        "footer",
        "nav",
        "aside",
        "main",
        "figure",
        "figcaption",
        "details",
        "summary",
        "dl",
        "dt",
        "dd",
        "address",
        "center",
        "form",
        "fieldset",
        "legend",
        "li",
        "ul",
        "ol",
        "menu",
        "blockquote",
        "pre",
        "table",
        "caption",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "body",
        "html",
        "hgroup",
    ];
    BLOCKS.contains(&name)
}

pub(crate) fn emoji_from_code(code: &str) -> Option<String> {
    let mut s = String::new();
    for part in code.split('-') {
        if part.is_empty() || part.len() > 6 {
            return None;
        }
        let cp = u32::from_str_radix(part, 16).ok()?;
        s.push(char::from_u32(cp)?);
    }
    let mut s = sanitize(&s);
    if s.is_empty() {
        return None;
    }
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && !c.is_ascii()
        && display_width(&s) == 1
    {
        // Single code points with text presentation by default (☺, ❤, ©): ask for the emoji.
        s.push('\u{FE0F}');
    }
    Some(s)
}

/// `atom` and its descendant elements in document order, except spoilers and what is in them.
/// For elements rendered without walking them (code, math, media): what they show of their
/// descendants must not come from a spoiler, which is never opened there.
pub(crate) fn shown_elements(atom: ElementRef<'_>) -> Vec<ElementRef<'_>> {
    let mut out = Vec::new();
    walk_tree(atom, |v| {
        if let Visit::Open(e) = v {
            if e != atom && is_spoiler_part(e) {
                return false;
            }
            out.push(e);
        }
        true
    });
    out
}

pub(crate) enum Visit<'a> {
    /// An element is entered; the callback returns whether to descend into it.
    Open(ElementRef<'a>),
    /// An element that was descended into is left.
    Close(ElementRef<'a>),
    /// A text node.
    Text(&'a str),
}

/// Pre/post-order walk over `root` (included) without recursion.
pub(crate) fn walk_tree<'a>(root: ElementRef<'a>, mut f: impl FnMut(Visit<'a>) -> bool) {
    let root_id = root.id();
    let mut node = *root;
    loop {
        match node.value() {
            Node::Text(t) => {
                let text: &'a str = &t.text;
                f(Visit::Text(text));
            }
            Node::Element(_) => {
                if let Some(el) = ElementRef::wrap(node)
                    && f(Visit::Open(el))
                {
                    if let Some(child) = node.first_child() {
                        node = child;
                        continue;
                    }
                    f(Visit::Close(el));
                }
            }
            _ => {}
        }
        loop {
            if node.id() == root_id {
                return;
            }
            if let Some(next) = node.next_sibling() {
                node = next;
                break;
            }
            match node.parent() {
                Some(parent) => {
                    if let Some(pe) = ElementRef::wrap(parent) {
                        f(Visit::Close(pe));
                    }
                    node = parent;
                }
                None => return,
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Word wrapping
// ---------------------------------------------------------------------------------------------

/// Greedy word wrapper fed with styled text. Break opportunities are HTML whitespace and the
pub(crate) fn code_language(pre: ElementRef<'_>) -> Option<String> {
    let attr = pre.attr("data-code-language").or_else(|| {
        parent_element(pre).filter(|p| has_class(*p, "codehilite")).and_then(|p| p.attr("data-code-language"))
    });
    let lang = match attr {
        Some(a) => a.to_owned(),
        None => pre
            .child_elements()
            .find(|c| c.value().name() == "code" && !is_spoiler_part(*c))
            .and_then(|c| c.value().classes().find_map(|x| x.strip_prefix("language-")).map(str::to_owned))?,
    };
    let lang = attr_text(&lang).to_lowercase();
    (!lang.is_empty()).then_some(lang)
}

/// A bare `<audio>`/`<video>`'s source: its own `src`, else its first shown `<source>`'s;
/// `None` without a usable one.
pub(crate) fn audio_video_src<'a>(el: ElementRef<'a>) -> Option<&'a str> {
    el.attr("src")
        .or_else(|| {
            el.child_elements()
                .find(|c| c.value().name() == "source" && !is_spoiler_part(*c))
                .and_then(|c| c.attr("src"))
        })
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// An inline image or video: its link (the anchor's, else the media's source), its label
/// (title, alt, else the URL) and whether it is a video. `None` without a usable URL.
pub(crate) fn media_link(el: ElementRef<'_>) -> Option<(String, String, bool)> {
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
    let url = url?;
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
    Some((url.to_owned(), label, is_video))
}

/// The address an `<img>` stands for: the file of Markdown image syntax (level 437:
/// `data-original-src`; `src` is a thumbnail, or the loading spinner while there is none), a
/// full-size picture, else `src` — never the spinner's.
pub(crate) fn image_link(el: ElementRef<'_>) -> Option<&str> {
    el.attr("data-original-src")
        .or_else(|| el.attr("data-src-fullsize"))
        .or_else(|| el.attr("src").filter(|_| !has_class(el, "image-loading-placeholder")))
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The picture an inline image (`div.message_inline_image`) shows: its shown `<img>`'s source
/// (the server's thumbnail when it made one), not a video's, not the server's "still making the
/// thumbnail" placeholder; with its size in pixels when the message gives it (Zulip's
/// `data-original-dimensions="640x480"` on the `<img>`).
pub(crate) fn media_picture(el: ElementRef<'_>) -> Option<(String, Option<(u32, u32)>)> {
    let shown = shown_elements(el);
    if shown.iter().any(|d| d.value().name() == "video")
        || has_class(el, "message_inline_video")
        || has_class(el, "youtube-video")
        || has_class(el, "vimeo-video")
    {
        return None;
    }
    let img =
        shown.iter().find(|d| d.value().name() == "img" && !has_class(**d, "image-loading-placeholder"))?;
    let src = img.attr("src").map(str::trim).filter(|s| !s.is_empty())?;
    let pixels = img.attr("data-original-dimensions").and_then(|d| {
        let (w, h) = d.trim().split_once('x')?;
        let (w, h) = (w.parse::<u32>().ok()?, h.parse::<u32>().ok()?);
        (w > 0 && h > 0).then_some((w, h))
    });
    Some((attr_text(src), pixels))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pictures_size_is_read_from_the_message_when_given() {
        let html = |img: &str| {
            Html::parse_fragment(&format!(
                "<div class=\"message_inline_image\"><a href=\"/u/p.png\">{img}</a></div>"
            ))
        };
        let picture = |img: &str| {
            let doc = html(img);
            let div = doc.root_element().child_elements().next().unwrap();
            media_picture(div)
        };
        let given = r#"<img data-original-dimensions="64x48" src="/u/thumbnail/p.png/840x560.webp">"#;
        assert_eq!(picture(given), Some(("/u/thumbnail/p.png/840x560.webp".into(), Some((64, 48)))));
        for odd in ["0x48", "64", "x", "64x-1", "big"] {
            let img = format!(r#"<img data-original-dimensions="{odd}" src="/u/p.png">"#);
            assert_eq!(picture(&img), Some(("/u/p.png".into(), None)), "{odd}");
        }
        assert_eq!(picture(r#"<img src="/u/p.png">"#), Some(("/u/p.png".into(), None)));
    }

    #[test]
    fn highlighted_runs_of_a_marked_topic() {
        let runs = highlighted_runs("<span class=\"highlight\">Deploy</span> plans &amp; <b>x</b>\u{1b}[31m");
        assert_eq!(runs, vec![("Deploy".into(), true), (" plans & x[31m".into(), false)]);
    }
}
