//! Placeholders: Zulip syntax found before Markdown parsing stands in the parsed text as a
//! run of private-use characters, and what each one stands for.

use std::borrow::Cow;

/// A placeholder in the prepared source is `PH_START`, its index in decimal,
/// then `PH_END`.
pub(super) const PH_START: char = '\u{E000}';
pub(super) const PH_END: char = '\u{E001}';

/// Inline syntax recognised before Markdown parsing.
pub(super) struct Placeholder {
    /// The source text it replaced, put back where HTML can't go (URLs, alt
    /// text, code).
    pub(super) original: String,
    pub(super) html: String,
    /// What to write inside a link instead, where `<a>` can't nest.
    pub(super) html_in_link: Option<String>,
    pub(super) effect: Effect,
}

/// What writing a placeholder records in [`Rendered`].
pub(super) enum Effect {
    None,
    User(i64),
    Group(i64),
    Wildcard,
}

/// The index and byte length of the placeholder at the start of `s`.
pub(super) fn parse_placeholder(s: &str) -> Option<(usize, usize)> {
    let digits = s.strip_prefix(PH_START)?;
    let len = digits.find(PH_END)?;
    let index = digits[..len].parse().ok()?;
    Some((index, PH_START.len_utf8() + len + PH_END.len_utf8()))
}

/// `s` with placeholders replaced by the source text they stand for.
pub(super) fn restore<'s>(s: &'s str, placeholders: &[Placeholder]) -> Cow<'s, str> {
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
