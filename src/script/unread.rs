//! `topicterm unread`: unread counts for a status bar, from one register (the unread messages,
//! and the channels' names only when the template or `--json` needs them). On any failure it
//! prints the placeholder and nothing else (the reason with `-v`, on standard error), and its
//! exit status says what failed.

use super::common::{Common, EXIT_HELP, Exit, Failure, Out, client, forget_queue, json_line, register};
use crate::api::{IncludeSubscribers, RegisterParams, RegisterResponse};
use crate::names::same_name;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// Print unread counts (for status bars).
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = EXIT_HELP)]
pub struct UnreadArgs {
    /// What to print: {total} (unread outside muted channels and topics, as the client counts
    /// them; with --include-muted every unread message), {mentions}, {dms}
    /// (direct messages), {channel:NAME} (one of your channels, muted topics included); {{ and
    /// }} print braces.
    #[arg(short = 'f', long, value_name = "TEMPLATE", default_value = "{total}")]
    pub format: String,
    /// Printed instead when the counts cannot be had.
    #[arg(long, value_name = "TEXT", default_value = "?")]
    pub placeholder: String,
    /// Count unread messages in muted channels and topics in {total} too.
    #[arg(long)]
    pub include_muted: bool,
    /// On failure, say why on standard error.
    #[arg(short = 'v', long)]
    pub verbose: bool,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub timeout: u64,
    #[command(flatten)]
    pub common: Common,
}

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Total,
    Mentions,
    Dms,
    Channel(String),
}

/// Read a template: `{total}`, `{mentions}`, `{dms}`, `{channel:NAME}`, `{{`, `}}`, text.
pub fn parse_template(t: &str) -> Result<Vec<Piece>, Failure> {
    let bad = |why: String| Failure::new(Exit::Usage, format!("the format {t:?}: {why}"));
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut rest = t;
    while let Some(i) = rest.find(['{', '}']) {
        text.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{").or_else(|| tail.strip_prefix("}}")) {
            text.push_str(&tail[..1]);
            rest = after;
            continue;
        }
        if tail.starts_with('}') {
            return Err(bad("a '}' without its '{' (write }} for a brace)".into()));
        }
        let Some(end) = tail.find('}') else { return Err(bad("a '{' without its '}'".into())) };
        let name = &tail[1..end];
        let piece = match name.trim() {
            "total" => Piece::Total,
            "mentions" => Piece::Mentions,
            "dms" => Piece::Dms,
            n => match n.strip_prefix("channel:").map(str::trim) {
                Some(c) if !c.is_empty() => Piece::Channel(c.trim_start_matches('#').to_owned()),
                _ => {
                    return Err(bad(format!(
                        "no placeholder {{{name}}} (there are {{total}}, {{mentions}}, {{dms}}, {{channel:NAME}})"
                    )));
                }
            },
        };
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(piece);
        rest = &tail[end + 1..];
    }
    text.push_str(rest);
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// The counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Unread messages outside muted channels and topics, by the client's own rule
    /// (`Data::unread_total`, what its screen says); every unread message with `--include-muted`.
    pub total: u64,
    pub mentions: usize,
    pub dms: usize,
    /// Each of the user's channels by name: its unread messages, muted topics included (only
    /// when asked for).
    pub channels: BTreeMap<String, usize>,
}

/// The counts in a register answer: the total by the client's own rule (what its screen says),
/// or every unread message with `include_muted`.
pub fn counts(r: &RegisterResponse, include_muted: bool) -> Result<Counts, Failure> {
    let u = r
        .unread_msgs
        .as_ref()
        .ok_or_else(|| Failure::new(Exit::Other, "the server sent no unread messages"))?;
    let dms = u.direct().iter().map(|d| d.unread_message_ids.len()).sum::<usize>()
        + u.huddles.iter().map(|h| h.unread_message_ids.len()).sum::<usize>();
    let mut by_id: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
    for s in &u.streams {
        *by_id.entry(s.stream_id).or_default() += s.unread_message_ids.len();
    }
    let channels = r
        .subscriptions
        .iter()
        .flatten()
        .map(|s| (s.name.clone(), by_id.get(&s.stream_id).copied().unwrap_or(0)))
        .collect();
    let total = if include_muted {
        dms + by_id.values().sum::<usize>()
    } else {
        super::common::data_of(r.clone()).unread_total()
    };
    Ok(Counts { total: total as u64, mentions: u.mentions.len(), dms, channels })
}

/// The template filled in.
pub fn render(pieces: &[Piece], c: &Counts) -> Result<String, Failure> {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Total => out.push_str(&c.total.to_string()),
            Piece::Mentions => out.push_str(&c.mentions.to_string()),
            Piece::Dms => out.push_str(&c.dms.to_string()),
            Piece::Channel(name) => {
                let n = c.channels.iter().find(|(k, _)| same_name(k, name)).map(|(_, n)| *n);
                let n = n.ok_or_else(|| {
                    Failure::new(Exit::Refused, format!("you are in no channel named #{name}"))
                })?;
                out.push_str(&n.to_string());
            }
        }
    }
    // The template is the user's own (escape sequences and all); the counts are numbers.
    Ok(out)
}

async fn fetch(args: &UnreadArgs, creds: anyhow::Result<crate::api::Credentials>) -> Result<String, Failure> {
    let pieces = parse_template(&args.format)?;
    let names = args.common.json || pieces.iter().any(|p| matches!(p, Piece::Channel(_)));
    // Both are needed for `unread_msgs` (`zerver/lib/events.py`); the names come with the
    // subscriptions.
    // What is muted, for the total: the channels (with the subscriptions) and the topics.
    let mut types = vec!["message".to_owned(), "update_message_flags".to_owned(), "user_topic".to_owned()];
    if names || !args.include_muted {
        types.push("subscription".into());
    }
    let client = client(creds)?;
    let params = RegisterParams {
        event_types: Some(types.clone()),
        fetch_event_types: Some(types),
        apply_markdown: Some(false),
        include_subscribers: Some(IncludeSubscribers::False),
        ..Default::default()
    };
    let answer = register(&client, &params).await?;
    let queue = answer.queue_id.clone();
    let result = counts(&answer, args.include_muted)
        .and_then(|c| if args.common.json { Ok(json_line(&c)) } else { render(&pieces, &c) });
    forget_queue(&client, queue.as_deref()).await;
    result
}

/// `topicterm unread`: the counts, or the placeholder and a status.
pub async fn run(args: UnreadArgs, creds: anyhow::Result<crate::api::Credentials>, out: &mut Out) -> i32 {
    let limit = Duration::from_secs(args.timeout.max(1));
    let result = match tokio::time::timeout(limit, fetch(&args, creds)).await {
        Ok(r) => r,
        Err(_) => Err(Failure::new(Exit::Network, format!("no answer within {} s", limit.as_secs()))),
    };
    match result {
        Ok(line) => {
            out.line(&line);
            Exit::Done.code()
        }
        Err(f) => {
            out.line(&args.placeholder);
            if args.verbose {
                // A reason of several lines (a fix to run on a line of its own) keeps its lines.
                let mut lines = f.why.lines().map(crate::content::sanitize);
                eprintln!("topicterm unread: {}", lines.next().unwrap_or_default());
                for line in lines {
                    eprintln!("{line}");
                }
            }
            f.exit.code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        assert_eq!(
            parse_template("✉ {total} @{mentions} {{dm}} {dms} {channel: book club}").unwrap(),
            vec![
                Piece::Text("✉ ".into()),
                Piece::Total,
                Piece::Text(" @".into()),
                Piece::Mentions,
                Piece::Text(" {dm} ".into()),
                Piece::Dms,
                Piece::Text(" ".into()),
                Piece::Channel("book club".into()),
            ]
        );
        for bad in ["{nope}", "{total", "total}", "{channel:}"] {
            assert_eq!(parse_template(bad).unwrap_err().exit, Exit::Usage, "{bad}");
        }
        let c = Counts { total: 7, mentions: 1, dms: 2, channels: [("Design".to_owned(), 3)].into() };
        assert_eq!(render(&parse_template("{total}/{channel:design}").unwrap(), &c).unwrap(), "7/3");
        assert_eq!(render(&parse_template("{channel:nope}").unwrap(), &c).unwrap_err().exit, Exit::Refused);
    }
}
