//! Checks of values clients send, as the reference server makes them: names and topics, and
//! some the client also makes before sending (the server must enforce them regardless). The
//! server knows nothing of the client, so it keeps its own copy of those; `tests/server_layout.rs`
//! checks the two agree.

use super::error::{ApiErr, ApiResult};

/// Where the first character the reference server refuses in names and topics is, counting
/// characters from 1 (`check_string_is_printable`): a control character (Unicode's Cc: C0, DEL
/// and C1, such as U+009B, which terminals read as CSI) or a noncharacter. Its third kind, a
/// lone surrogate, cannot be in a Rust string. Format characters (bidi controls, zero-width
/// ones) are taken, there as here.
pub fn unprintable_at(text: &str) -> Option<usize> {
    let noncharacter = |c: char| matches!(c as u32, 0xFDD0..=0xFDEF) || c as u32 & 0xFFFE == 0xFFFE;
    text.chars().position(|c| c.is_control() || noncharacter(c)).map(|i| i + 1)
}

/// A channel name (trimmed) as the reference server's `check_stream_name` takes it.
pub fn check_channel_name(name: &str) -> ApiResult<()> {
    if name.trim().is_empty() {
        return Err(ApiErr::bad("Channel name can't be empty."));
    }
    if name.chars().count() > 60 {
        return Err(ApiErr::bad("Channel name too long (limit: 60 characters)."));
    }
    match unprintable_at(name) {
        Some(at) => Err(ApiErr::bad(format!("Invalid character in channel name, at position {at}."))),
        None => Ok(()),
    }
}

/// A topic (trimmed) as the reference server's `check_stream_topic` takes it; the empty topic
/// ("general chat") is one.
pub fn check_topic(topic: &str) -> ApiResult<()> {
    match unprintable_at(topic) {
        Some(at) => Err(ApiErr::bad(format!("Invalid character in topic, at position {at}!"))),
        None => Ok(()),
    }
}

/// A person's full name as the reference server's `check_full_name` takes it (trimmed).
pub fn check_full_name(name: &str) -> ApiResult<()> {
    let name = name.trim();
    if name.chars().count() > 100 {
        return Err(ApiErr::bad("Name too long!"));
    }
    if name.is_empty() {
        return Err(ApiErr::bad("Name must not be empty!"));
    }
    // `UserProfile.NAME_INVALID_CHARS`: mention syntax and `@`, so a name can never pass for
    // an email or a mention of someone else.
    if unprintable_at(name).is_some() || name.contains(['*', '`', '\\', '>', '"', '@']) {
        return Err(ApiErr::bad("Invalid characters in name!"));
    }
    // A name ending like `|15` would read as the ID form of a mention (`@**Name|15**`).
    if let Some((_, tail)) = name.rsplit_once('|')
        && !tail.is_empty()
        && tail.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ApiErr::bad("Invalid format!"));
    }
    Ok(())
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
    fn controls_and_noncharacters_are_found_format_characters_are_not() {
        assert_eq!(unprintable_at("plain name"), None);
        assert_eq!(unprintable_at("a\u{202e}b\u{200b}c\u{e0041}"), None, "format characters");
        assert_eq!(unprintable_at("ab\u{9b}31m"), Some(3), "C1");
        assert_eq!(unprintable_at("\u{1b}[2J"), Some(1), "C0");
        assert_eq!(unprintable_at("x\u{7f}"), Some(2), "DEL");
        assert_eq!(unprintable_at("é\u{fffe}"), Some(2), "counted in characters, not bytes");
        assert_eq!(unprintable_at("\u{fdd0}"), Some(1));
        assert_eq!(unprintable_at("\u{10ffff}"), Some(1));
        assert_eq!(unprintable_at("\u{fdf0}\u{fffd}"), None, "next to noncharacters");
    }

    #[test]
    fn a_full_name_cannot_pass_for_an_email_or_a_mention() {
        assert!(check_full_name("Bob Nakamura").is_ok());
        assert!(check_full_name("Bob | Ops").is_ok());
        for bad in ["bob@demo.topicterm.test", "**Bob**", "a>b", "say \"hi\"", "a`b", "a\\b"] {
            assert_eq!(check_full_name(bad).unwrap_err().msg, "Invalid characters in name!", "{bad}");
        }
        assert_eq!(check_full_name("Bob Nakamura|12").unwrap_err().msg, "Invalid format!");
    }
}
