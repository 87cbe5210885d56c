//! How `tail` and `search` print a message — one rule for both: the line of text
//! (`HH:MM #channel > topic  Sender: text`, dated when the messages printed together are not
//! all from today), and the JSON object (the server's message object, with `content_type`
//! saying whether `content` is HTML or Markdown, and `text`, what the line says).
//!
//! `search` prints HTML (what the archive keeps, and what it asks the server for with
//! `--server`), read as the client reads it: a `<time>` as the client shows times, emoji as
//! their characters, spoilers open (what a search found is shown). `tail` prints Markdown, as
//! the server gives it when asked without rendering.

use super::common::json_line;
use crate::api::{DisplayRecipient, Message};
use crate::app::TimeZone;
use crate::app::settings::Clock;
use crate::content::{ContentContext, Document, sanitize};

/// What `content_type` says of HTML and of Markdown (the server's own names).
pub const HTML: &str = "text/html";
pub const MARKDOWN: &str = "text/x-markdown";

/// How the messages of one output are printed.
#[derive(Debug, Clone)]
pub struct Style {
    pub tz: TimeZone,
    /// Dates beside the times.
    pub dated: bool,
    /// What the organization calls the empty topic ("general chat").
    pub empty_topic: String,
    /// The content is the message's HTML (else its Markdown).
    pub html: bool,
}

impl Style {
    /// Times only, in the local time zone.
    pub fn new(empty_topic: &str, html: bool) -> Style {
        Style { tz: TimeZone::Local, dated: false, empty_topic: empty_topic.to_owned(), html }
    }

    /// Dated unless every one of the messages printed together is from today (`now`): a time
    /// alone would not say which day.
    pub fn for_messages<'a>(mut self, mut messages: impl Iterator<Item = &'a Message>, now: i64) -> Style {
        let day = |ts: i64| self.tz.format(ts, "%Y-%m-%d");
        let today = day(now);
        self.dated = messages.any(|m| day(m.timestamp) != today);
        self
    }
}

/// `<time>` as the client shows it (its default clock); spoilers open.
struct Shown(TimeZone);

impl ContentContext for Shown {
    fn format_time(&self, ts: i64) -> String {
        self.0.format(ts, Clock::default().short())
    }
    fn spoiler_open(&self, _: usize) -> bool {
        true
    }
}

/// The message's text on one line, sanitized.
pub fn text_of(m: &Message, style: &Style) -> String {
    if style.html {
        return Document::parse(&m.content).summary(&Shown(style.tz)).text;
    }
    sanitize(&m.content.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A message as one line of text: `HH:MM #channel > topic  Sender: text`, or for a direct
/// message `HH:MM @ Alice, Maya  Sender: text` (the conversation: everyone in it, as a channel
/// message names its channel and topic); `YYYY-MM-DD HH:MM` when dated. Everything from the
/// server goes through `sanitize`.
pub fn text_line(m: &Message, style: &Style) -> String {
    let when = style.tz.format(m.timestamp, if style.dated { "%Y-%m-%d %H:%M" } else { "%H:%M" });
    let text = text_of(m, style);
    let sender = sanitize(&m.sender_full_name);
    match &m.display_recipient {
        DisplayRecipient::Channel(channel) => {
            let topic = if m.topic().is_empty() { style.empty_topic.as_str() } else { m.topic() };
            format!("{when} #{} > {}  {sender}: {text}", sanitize(channel), sanitize(topic))
        }
        DisplayRecipient::Users(users) => {
            let mut names: Vec<String> = users.iter().map(|u| sanitize(&u.full_name)).collect();
            names.sort();
            names.dedup();
            if names.is_empty() {
                names.push(sender.clone());
            }
            format!("{when} @ {}  {sender}: {text}", names.join(", "))
        }
    }
}

/// A message as one JSON object: the server's message object; `content` is HTML or Markdown
/// as `content_type` says (`text/html` in `search`, `text/x-markdown` in `tail`); `text` is the
/// line's text (plain, on one line). The topic (`subject`) is as the server gives it.
pub fn json_of(m: &Message, style: &Style) -> String {
    let mut v = match serde_json::to_value(m) {
        Ok(v) => v,
        Err(_) => return json_line(m),
    };
    if let Some(o) = v.as_object_mut() {
        let kind = if style.html { HTML } else { MARKDOWN };
        o.insert("content_type".into(), kind.into());
        o.insert("text".into(), text_of(m, style).into());
    }
    json_line(&v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn style(html: bool) -> Style {
        Style { tz: TimeZone::Fixed(0), ..Style::new("general chat", html) }
    }

    #[test]
    fn a_line_is_one_line_without_controls() {
        let m: Message = serde_json::from_value(json!({
            "id": 1, "type": "stream", "content": "hello\n\x1b[31mworld\t!", "display_recipient": "book club",
            "subject": "next\u{202e}", "sender_id": 5, "sender_full_name": "Alice\x07", "timestamp": 0
        }))
        .unwrap();
        let s = Style { tz: TimeZone::Fixed(3600), ..style(false) };
        assert_eq!(text_line(&m, &s), "01:00 #book club > next  Alice: hello [31mworld !");
        let dm: Message = serde_json::from_value(json!({
            "id": 2, "type": "private", "content": "hi", "sender_id": 5, "sender_full_name": "Maya", "timestamp": 60,
            "display_recipient": [{"id": 5, "full_name": "Maya", "email": "m@x"}, {"id": 7, "full_name": "Alice\u{1b}", "email": "a@x"}],
        }))
        .unwrap();
        // Who the DM was with, not only who sent it (issue 40: a DM to Alice printed as `@ Maya: …`).
        assert_eq!(text_line(&dm, &style(false)), "00:01 @ Alice, Maya  Maya: hi");
    }

    #[test]
    fn html_reads_as_the_client_shows_it_with_the_empty_topic_named_and_dates_past_today() {
        let html = "<p>Branch cut proposed for <time datetime=\"2024-03-05T14:00:00Z\">x</time>, release \
                    <span aria-label=\"tada\" class=\"emoji emoji-1f389\" role=\"img\" title=\"tada\">:tada:</span></p>";
        let day = 1_709_647_200; // 2024-03-05 14:00 UTC
        let m: Message = serde_json::from_value(json!({
            "id": 3, "type": "stream", "content": html, "display_recipient": "design",
            "subject": "", "sender_id": 5, "sender_full_name": "Alice", "timestamp": day
        }))
        .unwrap();
        let s = style(true);
        assert_eq!(
            text_line(&m, &s),
            "14:00 #design > general chat  Alice: Branch cut proposed for Tue 5 Mar 14:00, release 🎉"
        );
        let yesterday = s.clone().for_messages([&m].into_iter(), day + 86_400);
        assert!(text_line(&m, &yesterday).starts_with("2024-03-05 14:00 #design"));
        assert!(!s.for_messages([&m].into_iter(), day + 60).dated, "all from today");
        let v: serde_json::Value = serde_json::from_str(&json_of(&m, &style(true))).unwrap();
        assert_eq!((v["content_type"].as_str(), v["content"].as_str()), (Some(HTML), Some(html)));
        assert_eq!(v["text"], "Branch cut proposed for Tue 5 Mar 14:00, release 🎉");
        let v: serde_json::Value = serde_json::from_str(&json_of(&m, &style(false))).unwrap();
        assert_eq!(v["content_type"], MARKDOWN);
    }
}
