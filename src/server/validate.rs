//! Checks of values clients send that the client also makes before sending (the server must
//! enforce them regardless). The server knows nothing of the client, so it keeps its own
//! copy; `tests/server_layout.rs` checks the two agree.

/// Whether a playground's `url_template` is an RFC 6570 template with exactly one variable,
/// `code`, as the server requires. (The client checks the same before sending, in
/// `api::limits::check_playground_template`; `tests/server_layout.rs` checks they agree.)
pub fn playground_template_ok(template: &str) -> bool {
    let mut vars = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { return false };
        let expr = &after[..close];
        if expr.contains('{') {
            return false;
        }
        let expr = expr.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expr.split(',') {
            vars.push(var.split(':').next().unwrap_or("").trim_end_matches('*'));
        }
        rest = &after[close + 1..];
    }
    !rest.contains('}') && vars == ["code"]
}

/// A message's Markdown as the reference server stores it (and so renders and searches it):
/// trailing whitespace and leading blank lines removed.
pub fn normalize_body(content: &str) -> String {
    content.trim_end().trim_start_matches(['\n', '\r']).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playground_templates_need_exactly_one_code_variable() {
        assert!(playground_template_ok("https://play.example/?code={code}"));
        assert!(playground_template_ok("https://play.example/{?code}"));
        assert!(playground_template_ok("https://play.example/#{+code}"));
        for bad in [
            "https://play.example/",
            "https://play.example/?c={source}",
            "https://play.example/?c={code}&l={lang}",
            "https://play.example/{?code,lang}",
            "https://play.example/?c={code",
            "https://play.example/?c=code}",
            "https://play.example/{code}{code}",
        ] {
            assert!(!playground_template_ok(bad), "{bad}");
        }
    }
}
