//! One home for URL encoding (as zulip-terminal's `server_url.py`): path segments for API
//! requests, URI components for URL templates, the web app's hash encoding for links into
//! conversations, and decoding. Built on the `percent-encoding` crate.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// What JavaScript's `encodeURIComponent` leaves as it is (letters, digits and these).
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// `encodeURIComponent`: for a value put into a URL (a playground's `{code}`), spaces as `%20`.
pub fn uri_component(s: &str) -> String {
    utf8_percent_encode(s, URI_COMPONENT).to_string()
}

/// A request path whose segments may hold anything but whose slashes separate segments.
pub fn path(p: &str) -> String {
    p.split('/').map(uri_component).collect::<Vec<_>>().join("/")
}

/// The web app's hash encoding of a narrow component (`#narrow/channel/9-design/topic/…`):
/// `encodeURIComponent`, then `.` as `%2E`, then every `%` as `.`.
pub fn hash_component(s: &str) -> String {
    uri_component(s).replace('.', "%2E").replace('%', ".")
}

/// The reverse of [`hash_component`]: dots back to percents, then percent-decoding.
pub fn hash_decode(s: &str) -> String {
    decode(&s.replace('.', "%"))
}

/// Percent-decoding, lossy for bytes that are not UTF-8.
pub fn decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// The host a site URL names (`chat.example.com` of `https://chat.example.com:8443/`), or the
/// text itself when it is no URL.
pub fn host_of(site: &str) -> String {
    reqwest::Url::parse(site)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| site.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_keep_their_slashes() {
        assert_eq!(path("narrow/channel/9-x/topic/a b"), "narrow/channel/9-x/topic/a%20b");
        assert_eq!(path("inbox"), "inbox");
        assert_eq!(path("a+b/c?d"), "a%2Bb/c%3Fd");
    }

    #[test]
    fn components_follow_encode_uri_component() {
        assert_eq!(uri_component("fn main() { 1 + 1 }"), "fn%20main()%20%7B%201%20%2B%201%20%7D");
        assert_eq!(uri_component("a-b_c.d!e~f*g'h"), "a-b_c.d!e~f*g'h");
        assert_eq!(uri_component("é"), "%C3%A9");
    }

    #[test]
    fn hash_components_decode_back() {
        for s in ["q3 plan", "a.b/c%d", "✔ flaky CI", "release 2.4"] {
            assert_eq!(hash_decode(&hash_component(s)), s);
        }
    }

    #[test]
    fn hash_components_are_the_web_apps() {
        // As the web app writes them: dots and percents become dots.
        assert_eq!(hash_component("release 2.4"), "release.202.2E4");
        assert_eq!(hash_component("café"), "caf.C3.A9");
        assert_eq!(decode("caf%C3%A9%20x"), "café x");
    }

    #[test]
    fn the_host_of_a_site() {
        assert_eq!(super::host_of("https://chat.example.com:8443/"), "chat.example.com");
        assert_eq!(super::host_of("http://127.0.0.1:9991"), "127.0.0.1");
        assert_eq!(super::host_of("not a url"), "not a url");
    }
}
