//! Emoji names and codes (Unicode emoji from the gemoji set of the `emojis` crate).

/// The code of a Unicode emoji by name: dash-separated lowercase hex code points, without
/// variation selectors (`+1` → `1f44d`).
pub fn unicode_code(name: &str) -> Option<String> {
    emojis::get_by_shortcode(name).map(|e| code_of(e.as_str()))
}

/// The hex code of an emoji string: its code points in lowercase hex, at least four digits,
/// joined by dashes, without variation selectors (`👍` → `1f44d`, `©` → `00a9`).
///
/// The client has the same function (`api::unicode_emoji_code`); the server keeps its own
/// because it knows nothing of the client, and `tests/server_layout.rs` checks they agree.
pub fn code_of(s: &str) -> String {
    s.chars().filter(|c| *c != '\u{fe0f}').map(|c| format!("{:04x}", c as u32)).collect::<Vec<_>>().join("-")
}

/// The emoji string of a code, if it is a known Unicode emoji.
pub fn from_code(code: &str) -> Option<&'static emojis::Emoji> {
    let mut s = String::new();
    for part in code.split('-') {
        let cp = u32::from_str_radix(part, 16).ok()?;
        s.push(char::from_u32(cp)?);
    }
    emojis::get(&s).or_else(|| {
        // Codes drop U+FE0F; the emoji table may list the form with it.
        let mut with = s.clone();
        with.push('\u{fe0f}');
        emojis::get(&with)
    })
}

/// The name the server stores for special (`svc_extra_emoji`) emoji.
pub const SVC_EXTRA: &[&str] = &["zulip"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes() {
        assert_eq!(unicode_code("+1").as_deref(), Some("1f44d"));
        assert_eq!(unicode_code("tada").as_deref(), Some("1f389"));
        assert_eq!(unicode_code("heart").as_deref(), Some("2764"));
        assert!(from_code("2764").is_some());
        assert!(from_code("1f44d").is_some());
        assert!(from_code("zzzz").is_none());
        assert!(unicode_code("not_an_emoji_name").is_none());
    }
}
