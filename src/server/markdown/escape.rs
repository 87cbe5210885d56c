//! HTML escaping, for text and double-quoted attributes alike.

/// Escape text for HTML (also used by the server elsewhere).
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` to `out`, escaped for use in text and double-quoted attributes.
pub(super) fn push_escaped(out: &mut String, s: &str) {
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
