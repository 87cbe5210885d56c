//! The contract's limits, checked on the client before any request is sent.
//!
//! Each check is a pure function so the same rule can be shown to the user while typing.

use super::error::LimitError;
use super::models::{Draft, DraftType};

/// Unicode code points (the unit of every length limit in the contract).
pub fn code_points(s: &str) -> usize {
    s.chars().count()
}

/// Status text: at most 60 code points.
pub fn check_status_text(text: &str) -> Result<(), LimitError> {
    let n = code_points(text);
    if n > 60 { Err(LimitError::StatusTextTooLong(n)) } else { Ok(()) }
}

/// `emoji_name` is required when `emoji_code` or `reaction_type` is given.
pub fn check_emoji_triplet(
    name: Option<&str>,
    code: Option<&str>,
    reaction_type: Option<&str>,
) -> Result<(), LimitError> {
    if name.is_none() && (code.is_some() || reaction_type.is_some()) {
        return Err(LimitError::EmojiNameRequired);
    }
    Ok(())
}

/// Report description: at most 1000 code points; required and non-empty for `other`.
pub fn check_report(report_type: &str, description: Option<&str>) -> Result<(), LimitError> {
    let desc = description.unwrap_or("");
    let n = code_points(desc);
    if n > 1000 {
        return Err(LimitError::ReportDescriptionTooLong(n));
    }
    if report_type == "other" && desc.trim().is_empty() {
        return Err(LimitError::ReportDescriptionRequired);
    }
    Ok(())
}

/// Visibility policy must be 0..=3.
pub fn check_visibility_policy(policy: i64) -> Result<(), LimitError> {
    if (0..=3).contains(&policy) { Ok(()) } else { Err(LimitError::InvalidVisibilityPolicy(policy)) }
}

/// A scheduled channel message's topic cannot be `(no topic)`, empty, or the realm's
/// empty-topic display name.
pub fn check_scheduled_topic(
    topic: Option<&str>,
    empty_topic_display_name: Option<&str>,
) -> Result<(), LimitError> {
    let t = topic.unwrap_or("");
    if t.trim().is_empty() || t == "(no topic)" || Some(t) == empty_topic_display_name {
        return Err(LimitError::ScheduledTopicInvalid(t.to_owned()));
    }
    Ok(())
}

/// An RFC 6570 playground template must contain exactly one variable, named `code`.
pub fn check_playground_template(template: &str) -> Result<(), LimitError> {
    let mut vars = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or(LimitError::PlaygroundTemplate)?;
        let expr = &after[..close];
        if expr.contains('{') {
            return Err(LimitError::PlaygroundTemplate);
        }
        let expr = expr.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expr.split(',') {
            let name = var.split(':').next().unwrap_or("").trim_end_matches('*');
            vars.push(name.to_owned());
        }
        rest = &after[close + 1..];
    }
    if rest.contains('}') || vars.len() != 1 || vars[0] != "code" {
        return Err(LimitError::PlaygroundTemplate);
    }
    Ok(())
}

/// Message content: non-empty and within `max_message_length` when known.
pub fn check_content(content: &str, max: Option<usize>) -> Result<(), LimitError> {
    if content.trim().is_empty() {
        return Err(LimitError::EmptyContent);
    }
    let len = code_points(content);
    match max {
        Some(max) if len > max => Err(LimitError::ContentTooLong { len, max }),
        _ => Ok(()),
    }
}

/// A channel name as the reference server takes it: not blank, at most 60 characters
/// (`max_stream_name_length`), no control characters.
pub fn check_channel_name(name: &str) -> Result<(), LimitError> {
    let len = code_points(name);
    if name.trim().is_empty() {
        Err(LimitError::EmptyChannelName)
    } else if len > 60 {
        Err(LimitError::ChannelNameTooLong(len))
    } else if name.chars().any(char::is_control) {
        Err(LimitError::ChannelNameControl)
    } else {
        Ok(())
    }
}

/// Topic within `max_topic_length` when known.
pub fn check_topic_length(topic: &str, max: Option<usize>) -> Result<(), LimitError> {
    let len = code_points(topic);
    match max {
        Some(max) if len > max => Err(LimitError::TopicTooLong { len, max }),
        _ => Ok(()),
    }
}

/// A draft to create or edit: content as for a message (and no null bytes); a channel draft
/// names exactly one channel and its topic fits `max_topic_length`; no negative timestamp.
pub fn check_draft(
    draft: &Draft,
    max_message_length: Option<usize>,
    max_topic_length: Option<usize>,
) -> Result<(), LimitError> {
    check_content(&draft.content, max_message_length)?;
    if draft.content.contains('\0') {
        return Err(LimitError::NullByte("content"));
    }
    if draft.timestamp.is_some_and(|t| t < 0) {
        return Err(LimitError::NegativeDraftTimestamp);
    }
    match draft.kind {
        DraftType::Stream => {
            if draft.to.len() != 1 {
                return Err(LimitError::DraftChannelCount(draft.to.len()));
            }
            if draft.topic.contains('\0') {
                return Err(LimitError::NullByte("topic"));
            }
            check_topic_length(&draft.topic, max_topic_length)
        }
        DraftType::Private | DraftType::Unaddressed => Ok(()),
        DraftType::Other => Err(LimitError::UnknownDraftType),
    }
}

/// The longest title a saved snippet may have (the reference server's
/// `SavedSnippet.MAX_TITLE_LENGTH`), in code points.
pub const SNIPPET_TITLE_MAX: usize = 60;

/// A saved snippet: a title of at most [`SNIPPET_TITLE_MAX`] code points and a text of a
/// message's length at most, neither blank (measured without the whitespace around them, which
/// the server strips).
pub fn check_snippet(
    title: &str,
    content: &str,
    max_message_length: Option<usize>,
) -> Result<(), LimitError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(LimitError::SnippetTitleEmpty);
    }
    let n = code_points(title);
    if n > SNIPPET_TITLE_MAX {
        return Err(LimitError::SnippetTitleTooLong(n));
    }
    check_content(content.trim(), max_message_length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_text_counts_code_points_not_bytes() {
        assert!(check_status_text(&"é".repeat(60)).is_ok());
        assert_eq!(check_status_text(&"é".repeat(61)), Err(LimitError::StatusTextTooLong(61)));
    }

    #[test]
    fn report_rules() {
        assert!(check_report("spam", None).is_ok());
        assert_eq!(check_report("other", None), Err(LimitError::ReportDescriptionRequired));
        assert_eq!(check_report("other", Some("  ")), Err(LimitError::ReportDescriptionRequired));
        assert!(check_report("other", Some(&"x".repeat(1000))).is_ok());
        assert_eq!(
            check_report("spam", Some(&"x".repeat(1001))),
            Err(LimitError::ReportDescriptionTooLong(1001))
        );
    }

    #[test]
    fn scheduled_topic_rules() {
        let d = Some("general chat");
        assert!(check_scheduled_topic(Some("plans"), d).is_ok());
        for bad in ["", "(no topic)", "general chat", "   "] {
            assert!(check_scheduled_topic(Some(bad), d).is_err(), "{bad:?}");
        }
        assert!(check_scheduled_topic(None, d).is_err());
    }

    #[test]
    fn playground_templates() {
        assert!(check_playground_template("https://play.example/?code={code}").is_ok());
        assert!(check_playground_template("https://play.example/{?code}").is_ok());
        assert!(check_playground_template("https://play.example/#{+code}").is_ok());
        for bad in [
            "https://play.example/",
            "https://play.example/?c={source}",
            "https://play.example/?c={code}&l={lang}",
            "https://play.example/{?code,lang}",
            "https://play.example/?c={code",
            "https://play.example/?c=code}",
            "https://play.example/{code}{code}",
        ] {
            assert_eq!(check_playground_template(bad), Err(LimitError::PlaygroundTemplate), "{bad}");
        }
    }

    #[test]
    fn visibility_policy_range() {
        for p in 0..=3 {
            assert!(check_visibility_policy(p).is_ok());
        }
        assert!(check_visibility_policy(4).is_err());
        assert!(check_visibility_policy(-1).is_err());
    }

    #[test]
    fn content_and_topic_lengths() {
        assert_eq!(check_content(" \n", None), Err(LimitError::EmptyContent));
        assert!(check_content("hi", Some(2)).is_ok());
        assert_eq!(check_content("hey", Some(2)), Err(LimitError::ContentTooLong { len: 3, max: 2 }));
        assert_eq!(check_topic_length("abc", Some(2)), Err(LimitError::TopicTooLong { len: 3, max: 2 }));
        assert!(check_emoji_triplet(None, Some("1f600"), None).is_err());
        assert!(check_emoji_triplet(Some("smile"), Some("1f600"), None).is_ok());
    }

    #[test]
    fn draft_rules() {
        let ok = Draft::channel(3, "plans", "hello");
        assert_eq!(check_draft(&ok, Some(10), Some(5)), Ok(()));
        assert_eq!(check_draft(&Draft::unaddressed("  "), None, None), Err(LimitError::EmptyContent));
        assert_eq!(
            check_draft(&Draft::unaddressed("hello!"), Some(5), None),
            Err(LimitError::ContentTooLong { len: 6, max: 5 })
        );
        assert_eq!(
            check_draft(&Draft::unaddressed("a\0b"), None, None),
            Err(LimitError::NullByte("content"))
        );
        let two = Draft { to: vec![3, 4], ..ok.clone() };
        assert_eq!(check_draft(&two, None, None), Err(LimitError::DraftChannelCount(2)));
        let none = Draft { to: vec![], ..ok.clone() };
        assert_eq!(check_draft(&none, None, None), Err(LimitError::DraftChannelCount(0)));
        let long_topic = Draft { topic: "topics".into(), ..ok.clone() };
        assert_eq!(check_draft(&long_topic, None, Some(5)), Err(LimitError::TopicTooLong { len: 6, max: 5 }));
        let nul_topic = Draft { topic: "a\0".into(), ..ok.clone() };
        assert_eq!(check_draft(&nul_topic, None, None), Err(LimitError::NullByte("topic")));
        // The topic of a direct draft is ignored by the server, so it is not checked.
        let dm = Draft { topic: "x".repeat(100), ..Draft::direct(vec![8], "hi") };
        assert_eq!(check_draft(&dm, None, Some(5)), Ok(()));
        let past = Draft { timestamp: Some(-1), ..ok.clone() };
        assert_eq!(check_draft(&past, None, None), Err(LimitError::NegativeDraftTimestamp));
        let odd = Draft { kind: DraftType::Other, ..Draft::unaddressed("x") };
        assert_eq!(check_draft(&odd, None, None), Err(LimitError::UnknownDraftType));
    }

    #[test]
    fn snippet_rules() {
        assert_eq!(check_snippet(" thanks ", "Thank you!", Some(10)), Ok(()));
        assert_eq!(check_snippet("  ", "x", None), Err(LimitError::SnippetTitleEmpty));
        assert_eq!(check_snippet(&"é".repeat(60), "x", None), Ok(()), "code points, not bytes");
        assert_eq!(check_snippet(&"é".repeat(61), "x", None), Err(LimitError::SnippetTitleTooLong(61)));
        assert_eq!(check_snippet("t", " \n ", None), Err(LimitError::EmptyContent));
        assert_eq!(check_snippet("t", " 12345 ", Some(5)), Ok(()), "measured as the server strips it");
        assert_eq!(check_snippet("t", "123456", Some(5)), Err(LimitError::ContentTooLong { len: 6, max: 5 }));
    }
}
