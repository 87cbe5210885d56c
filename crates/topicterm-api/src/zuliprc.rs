//! The conventional `zuliprc` credentials file: INI with an `[api]` section holding `email`,
//! `key` and `site`.

use super::transport::{Credentials, Tls};
use std::path::Path;

/// Why a zuliprc could not be used. Messages never include the key.
#[derive(Debug, thiserror::Error)]
pub enum ZuliprcError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path} is not a valid zuliprc: {reason}.\n{example}", example = EXAMPLE)]
    Invalid { path: String, reason: String },
}

/// What a zuliprc looks like, said with every refusal of one (the key is the user's API key
/// from their Zulip settings, "Account & privacy").
pub const EXAMPLE: &str = "A zuliprc looks like this (its key from your Zulip settings, Account & privacy):\n\
                           \x20   [api]\n\
                           \x20   email=you@example.com\n\
                           \x20   key=YOUR_API_KEY\n\
                           \x20   site=https://chat.example.com";

/// The first line (from 1) that is neither blank, a comment, a `[section]` nor `name=value`,
/// in words. The line itself is not quoted: it may be a key pasted on its own.
fn bad_line(text: &str) -> Option<String> {
    let i = text.lines().position(|l| {
        let l = l.trim();
        let section = l.starts_with('[') && l.ends_with(']');
        !(l.is_empty() || l.starts_with(['#', ';']) || section || l.contains(['=', ':']))
    })?;
    Some(format!("line {} is not \"name=value\" (nor [api], a comment or blank)", i + 1))
}

/// Where the INI parser stopped, in words, when every line looks right ([`bad_line`]).
fn unreadable(text: &str, e: &ini::ParseError) -> String {
    if e.line > text.lines().count() {
        "it ends before a line is complete".into()
    } else {
        format!("line {} cannot be read ({})", e.line, e.msg)
    }
}

/// Parse zuliprc text.
pub fn parse(text: &str, path: &str) -> Result<Credentials, ZuliprcError> {
    if let Some(reason) = bad_line(text) {
        return Err(ZuliprcError::Invalid { path: path.to_owned(), reason });
    }
    let ini = ini::Ini::load_from_str(text)
        .map_err(|e| ZuliprcError::Invalid { path: path.to_owned(), reason: unreadable(text, &e) })?;
    let section = ini
        .section(Some("api"))
        .ok_or_else(|| ZuliprcError::Invalid { path: path.to_owned(), reason: "no [api] section".into() })?;
    let get = |k: &str| {
        section.get(k).map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned).ok_or_else(|| {
            ZuliprcError::Invalid { path: path.to_owned(), reason: format!("[api] has no '{k}'") }
        })
    };
    let path_of =
        |k: &str| section.get(k).map(str::trim).filter(|v| !v.is_empty()).map(crate::files::expand_home);
    let insecure = match section.get("insecure").map(|v| v.trim().to_ascii_lowercase()) {
        None => false,
        Some(v) if v.is_empty() || v == "false" => false,
        Some(v) if v == "true" => true,
        Some(v) => {
            return Err(ZuliprcError::Invalid {
                path: path.to_owned(),
                reason: format!("insecure={v}: use true or false"),
            });
        }
    };
    let tls = Tls {
        insecure,
        cert_bundle: path_of("cert_bundle"),
        client_cert: path_of("client_cert"),
        client_cert_key: path_of("client_cert_key"),
    };
    Ok(Credentials { email: get("email")?, api_key: get("key")?, site: get("site")?, tls })
}

/// Read a zuliprc file.
pub fn read(path: &Path) -> Result<Credentials, ZuliprcError> {
    let shown = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| ZuliprcError::Io { path: shown.clone(), source })?;
    parse(&text, &shown)
}

/// Render credentials as zuliprc text.
pub fn render(c: &Credentials) -> String {
    let mut text = format!("[api]\nemail={}\nkey={}\nsite={}\n", c.email, c.api_key, c.site);
    let t = &c.tls;
    if t.insecure {
        text.push_str("insecure=true\n");
    }
    for (name, path) in [
        ("cert_bundle", &t.cert_bundle),
        ("client_cert", &t.client_cert),
        ("client_cert_key", &t.client_cert_key),
    ] {
        if let Some(p) = path {
            text.push_str(&format!("{name}={}\n", p.display()));
        }
    }
    text
}

/// Write a zuliprc with mode 0600 (created with that mode, so it is never readable by others).
pub fn write(path: &Path, c: &Credentials) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    f.write_all(render(c).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let c = Credentials {
            site: "http://127.0.0.1:9991".into(),
            email: "a@b.c".into(),
            api_key: "k1".into(),
            tls: Default::default(),
        };
        assert_eq!(parse(&render(&c), "x").unwrap(), c);
    }

    /// Issue 51.14: the parser's own words ("2:1 expecting \"[Some('='), Some(':')]\" but found
    /// EOF.") said neither the file nor what a zuliprc looks like.
    #[test]
    fn a_malformed_file_is_named_with_its_line_and_an_example() {
        let e = parse("[api]\nemail=a@b.c\nsecretkeyonitsown\nsite=http://x\n", "/home/me/.zuliprc")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("/home/me/.zuliprc is not a valid zuliprc: line 3 is not \"name=value\""),
            "{e}"
        );
        assert!(!e.contains("secretkeyonitsown") && !e.contains("EOF"), "{e}");
        assert!(e.contains("\n    [api]\n    email=you@example.com\n    key=YOUR_API_KEY\n    site="), "{e}");
        let e = parse("[api\n", "rc").unwrap_err().to_string();
        assert!(e.starts_with("rc is not a valid zuliprc: line 1 ") && e.contains("[api]"), "{e}");
    }

    #[test]
    fn missing_fields_are_named() {
        let e = parse("[api]\nemail=a@b\nsite=http://x\n", "rc").unwrap_err().to_string();
        assert!(e.contains("'key'"), "{e}");
        let e = parse("[other]\n", "rc").unwrap_err().to_string();
        assert!(e.contains("[api]"), "{e}");
    }
}
