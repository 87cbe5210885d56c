//! The server's view of emoji: Zulip's Unicode names and codes (`topicterm_api::emoji`, the one table
//! client and server share) and the service's own extra emoji.

/// The code of a Unicode emoji by name (canonical or alias): `+1`, `thumbs_up` → `1f44d`.
/// Only Zulip's names: a gemoji-only name (`thumbsup`) is refused, as the reference server does.
pub fn unicode_code(name: &str) -> Option<String> {
    topicterm_api::emoji::by_name(name).map(|e| e.code.to_owned())
}

/// Whether a code is a known Unicode emoji.
pub fn is_known_code(code: &str) -> bool {
    topicterm_api::emoji::by_code(code).is_some()
}

/// The name the server stores for special (`svc_extra_emoji`) emoji.
pub const SVC_EXTRA: &[&str] = &["zulip"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes() {
        assert_eq!(unicode_code("+1").as_deref(), Some("1f44d"));
        assert_eq!(unicode_code("thumbs_up").as_deref(), Some("1f44d"));
        assert_eq!(unicode_code("tada").as_deref(), Some("1f389"));
        assert_eq!(unicode_code("heart").as_deref(), Some("2764"));
        assert!(is_known_code("2764") && is_known_code("1f44d"));
        assert!(!is_known_code("zzzz"));
        assert!(unicode_code("not_an_emoji_name").is_none());
        assert!(unicode_code("thumbsup").is_none());
    }
}
