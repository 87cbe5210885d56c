//! Links: channel and topic URLs, Zulip's `sanitize_url`, image previews and bare URLs.

use super::placeholder::{PH_END, PH_START};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use std::ops::Range;

/// What `encode_hash_component` encodes: all but ASCII letters, digits, `-`, `_` and `~`.
const HASH_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'~');

/// Schemes a link may use (as in Zulip's `sanitize_url`).
pub(super) const SAFE_SCHEMES: [&str; 4] = ["http", "https", "ftp", "mailto"];

/// Path endings of links that get an inline image preview.
pub(super) const IMAGE_EXTENSIONS: [&str; 6] = [".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"];

/// `/#narrow/channel/ID-name`, as Zulip's `encode_channel`.
pub(super) fn channel_url(id: i64, name: &str) -> String {
    format!("/#narrow/channel/{id}-{}", encode_hash_component(&name.replace(' ', "-")))
}

/// Zulip's `encode_hash_component`: percent-encoding with `.` instead of
/// `%` (and `.` itself encoded), so `q3 plan.md` becomes `q3.20plan.2Emd`.
pub(super) fn encode_hash_component(s: &str) -> String {
    utf8_percent_encode(s, HASH_COMPONENT).to_string().replace('%', ".")
}

/// Zulip's `sanitize_url`: domain-relative and fragment links pass,
/// scheme-less ones get `mailto:` (with an `@`) or `http://`, and only safe
/// schemes are allowed (no `javascript:`). `None` means "don't link".
pub(super) fn sanitize_url(url: &str) -> Option<String> {
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
pub(super) fn url_scheme(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// Does `url` name a video a server of `level` previews inline (by its extension's type, as
/// Python's `mimetypes.guess_type` reads it): MP4 and WebM, and QuickTime from level 495.
pub(super) fn is_video_url(url: &str, level: i64) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url).to_ascii_lowercase();
    path.ends_with(".mp4")
        || path.ends_with(".webm")
        || (level >= crate::levels::QUICKTIME_VIDEO && path.ends_with(".mov"))
}

pub(super) fn is_image_url(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url).to_ascii_lowercase();
    IMAGE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

/// The next bare URL (`http://`, `https://`, `ftp://` or `www.`) in `text`.
pub(super) fn find_bare_url(text: &str) -> Option<Range<usize>> {
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
pub(super) fn url_end(s: &str) -> usize {
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
