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
    url::Url::parse(site)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| site.to_owned())
}

/// Where a link found in server text (a message, a profile) leads, judged after parsing: the one
/// place that decides which links may carry the user's credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// A link into the user's own web app: the site's origin (scheme, host and port) and path,
    /// no query and no user name, and a fragment `#narrow/…`, kept. Only such a link is drawn
    /// or followed as a place in the app; a `#narrow/` on any other origin is just a web link.
    InApp(url::Url),
    /// An uploaded file on the user's own server: `/user_uploads/…` on the site's scheme, host
    /// and port, with no `.`/`..` segment (plain or percent-encoded), no query and no user
    /// name. Only such a link is ever fetched with the user's email and API key.
    OwnUpload(url::Url),
    /// A web or mail link (`http`, `https`, `mailto`), absolute and normalised: it starts with
    /// its scheme, so no program handed it can read it as an option; its host is ASCII (a
    /// name in other scripts as punycode, `xn--…`), as the opener gets it. A mail link asks
    /// for no attachment (see [`judge`]). Fetched, if at all, without credentials.
    Web(url::Url),
    /// Anything else (`file:`, `javascript:`, a link that does not parse): never opened.
    Refused(String),
}

/// The path every uploaded file lives under.
const UPLOADS: &str = "/user_uploads/";

/// Judge a link from server text against the user's site (`https://chat.example.com`).
pub fn judge(site: &str, link: &str) -> Link {
    let link = link.trim();
    // The URL parser silently drops tabs and newlines and reads `\` as `/`: text with any of
    // them could say one thing and mean another.
    if link.is_empty() || link.chars().any(|c| c.is_control() || c == '\\' || c.is_whitespace()) {
        return Link::Refused("the link has spaces or control characters in it".into());
    }
    let site_url = url::Url::parse(site.trim_end_matches('/')).ok();
    let parsed = match &site_url {
        Some(base) => base.join(link),
        None => url::Url::parse(link),
    };
    let Ok(mut url) = parsed else { return Link::Refused("the link is not a valid address".into()) };
    if !matches!(url.scheme(), "http" | "https" | "mailto") {
        return Link::Refused(format!("{}: links are not opened", url.scheme()));
    }
    // A mail program may attach a file named in the link (`?attach=/etc/passwd`): such a link
    // is not opened. Keys are compared decoded and in any case (`ATTACH`, `%61ttachment`).
    if url.scheme() == "mailto"
        && url.query_pairs().any(|(k, _)| k.trim().to_ascii_lowercase().starts_with("attach"))
    {
        return Link::Refused("a mail link that attaches a file is not opened".into());
    }
    // An origin is a scheme, host and port: `https://site.evil.example`, `//site:other-port`
    // and `https:site` (on an `http` site) are not the site.
    let own = site_url.as_ref().is_some_and(|s| s.origin() == url.origin() && url.origin().is_tuple());
    if let Some(site_url) = site_url.as_ref().filter(|_| own)
        && url.fragment().is_some_and(|f| f.starts_with("narrow/"))
        && url.path().trim_end_matches('/') == site_url.path().trim_end_matches('/')
        && url.query().is_none()
        && url.username().is_empty()
        && url.password().is_none()
    {
        return Link::InApp(url);
    }
    url.set_fragment(None);
    let in_uploads = url.path().starts_with(UPLOADS);
    if own && in_uploads && url.query().is_none() && url.username().is_empty() && url.password().is_none() {
        // The parser has already collapsed any `..`: look at the text as written.
        let path = link.split(['?', '#']).next().unwrap_or_default();
        let dotted = path.split('/').any(|seg| {
            let seg = decode(seg);
            seg == "." || seg == ".." || seg.contains(['/', '\\'])
        });
        if !dotted {
            return Link::OwnUpload(url);
        }
    }
    Link::Web(url)
}

/// The host a judged link names, as the opener will get it: ASCII (punycode for a name in
/// other scripts, as the URL parser gives it) with the port when it is not the scheme's own;
/// for a mail link, the address's domain. Empty when it names none.
pub fn shown_host(url: &url::Url) -> String {
    if url.scheme() == "mailto" {
        // `mailto:a@b.example`: the parser keeps it as a path; its domain is made ASCII as a
        // mail program would send to it.
        let to = decode(url.path());
        let domain =
            to.split(',').next().and_then(|a| a.rsplit_once('@')).map(|(_, d)| d).unwrap_or_default();
        return url::Url::parse(&format!("http://{domain}/"))
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_default();
    }
    match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_owned(),
        (None, _) => String::new(),
    }
}

/// The link's address if it is an upload on the user's own server (see [`judge`]).
pub fn own_upload(site: &str, link: &str) -> Option<url::Url> {
    match judge(site, link) {
        Link::OwnUpload(url) => Some(url),
        _ => None,
    }
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
    fn only_a_clean_upload_path_on_the_site_is_an_upload() {
        let site = "https://chat.example.com";
        let up = |l: &str| own_upload(site, l).map(|u| u.to_string());
        assert_eq!(
            up("/user_uploads/2/ab/cat.png").as_deref(),
            Some("https://chat.example.com/user_uploads/2/ab/cat.png")
        );
        assert!(up("https://chat.example.com/user_uploads/thumbnail/2/x.webp").is_some());
        assert!(up("/user_uploads/2/ab/cat.png#frag").is_some(), "a fragment is never sent");
        // The attack of the issue: `..` climbs out of the uploads into the API.
        let climbing = "/user_uploads/../../api/v1/messages?anchor=newest&num_before=30&f=report.html";
        assert_eq!(up(climbing), None);
        assert!(matches!(judge(site, climbing), Link::Web(u) if u.path() == "/api/v1/messages"));
        for bad in [
            "/user_uploads/../api/v1/users/me",
            "/user_uploads/2/%2e%2e/%2E%2E/api/v1/users/me",
            "/user_uploads/2/.%2e/x",
            "/user_uploads/2/./x.png",
            "/user_uploads/2/a%2Fb.png",
            "/user_uploads/2/a%5Cb.png",
            "/user_uploads\\..\\api/v1/users/me",
            "/user_uploads/.\t./api/v1/users/me",
            "/user_uploads/2/x.png?download=1",
            "//evil.example/user_uploads/2/x.png",
            "https://chat.example.com.evil.example/user_uploads/2/x.png",
            "http://chat.example.com/user_uploads/2/x.png",
            "https://chat.example.com:8443/user_uploads/2/x.png",
            "https://me@chat.example.com/user_uploads/2/x.png",
            "/api/v1/users/me",
            "/user_uploadsx/2/x.png",
        ] {
            assert_eq!(up(bad), None, "{bad}");
        }
    }

    #[test]
    fn links_open_only_as_web_or_mail_addresses_that_start_with_their_scheme() {
        let site = "https://chat.example.com";
        for (link, want) in [
            ("https://example.org/a b", None),
            ("https://example.org/-x", Some("https://example.org/-x")),
            ("/help/", Some("https://chat.example.com/help/")),
            ("mailto:a@b.example", Some("mailto:a@b.example")),
            ("--help", Some("https://chat.example.com/--help")),
        ] {
            let got = match judge(site, link) {
                Link::Web(u) => Some(u.to_string()),
                _ => None,
            };
            assert_eq!(got.as_deref(), want, "{link}");
        }
        for refused in ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "ssh://h", ""] {
            assert!(matches!(judge(site, refused), Link::Refused(_)), "{refused}");
        }
    }

    #[test]
    fn only_the_sites_own_origin_and_path_is_in_app() {
        let site = "http://127.0.0.1:9991";
        let in_app = |l: &str| matches!(judge(site, l), Link::InApp(_));
        for own in [
            "/#narrow/channel/9-general/topic/t",
            "#narrow/channel/9-general",
            "http://127.0.0.1:9991/#narrow/dm/7-alice",
            "http://127.0.0.1:9991#narrow/near/5",
        ] {
            assert!(in_app(own), "{own}");
        }
        for other in [
            "https://evil.example/login#narrow/channel/9-general/topic/all-hands.20questions",
            "//127.0.0.1:9992/phish#narrow/channel/9-general",
            "//127.0.0.1:9992/#narrow/channel/9-general",
            "https:127.0.0.1:9991/#narrow/channel/9-general",
            "http://127.0.0.1:9991@evil.example/#narrow/channel/9",
            "http://me@127.0.0.1:9991/#narrow/channel/9",
            "http://127.0.0.1:9991/login#narrow/channel/9",
            "http://127.0.0.1:9991/?next=x#narrow/channel/9",
            "http://127.0.0.1:99910/#narrow/channel/9",
        ] {
            assert!(!in_app(other), "{other}");
        }
        // The lookalike of the issue opens (if at all) as the web link it is, without its fragment.
        let evil = "https://evil.example/login#narrow/channel/9-general";
        assert!(matches!(judge(site, evil), Link::Web(u) if u.as_str() == "https://evil.example/login"));
    }

    #[test]
    fn a_host_is_shown_as_the_opener_gets_it() {
        let site = "http://127.0.0.1:9991";
        let host = |l: &str| match judge(site, l) {
            Link::Web(u) | Link::OwnUpload(u) | Link::InApp(u) => shown_host(&u),
            Link::Refused(_) => "refused".into(),
        };
        assert_eq!(host("https://\u{430}pple.com/"), "xn--pple-43d.com");
        assert_eq!(host("https://docs.example/x"), "docs.example");
        assert_eq!(host("//127.0.0.1:9992/phish"), "127.0.0.1:9992");
        assert_eq!(host("https:127.0.0.1:9991/wiki"), "127.0.0.1:9991");
        assert_eq!(host("/user_uploads/2/ab/x.png"), "127.0.0.1:9991");
        assert_eq!(host("https://a.example:443/"), "a.example");
        assert_eq!(host("mailto:bob@\u{430}pple.com"), "xn--pple-43d.com");
        assert_eq!(host("javascript:alert(1)"), "refused");
    }

    #[test]
    fn a_mail_link_that_attaches_a_file_is_refused() {
        let site = "https://chat.example.com";
        for bad in [
            "mailto:a@b.example?attach=/etc/passwd",
            "mailto:a@b.example?subject=hi&ATTACH=/etc/passwd",
            "mailto:a@b.example?Attachment=%2Fhome%2Fme%2F.ssh%2Fid_ed25519",
            "mailto:a@b.example?%61ttach=/etc/passwd",
            "mailto:?to=a@b.example&attachments=x",
        ] {
            assert!(matches!(judge(site, bad), Link::Refused(_)), "{bad}");
        }
        assert!(matches!(judge(site, "mailto:a@b.example?subject=attach%20it"), Link::Web(_)));
    }

    #[test]
    fn the_host_of_a_site() {
        assert_eq!(super::host_of("https://chat.example.com:8443/"), "chat.example.com");
        assert_eq!(super::host_of("http://127.0.0.1:9991"), "127.0.0.1");
        assert_eq!(super::host_of("not a url"), "not a url");
    }
}
