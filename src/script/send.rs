//! `topicterm send TARGET [TEXT]`: one message, sent exactly once, its ID printed.
//!
//! A queue for message events is registered first (with what names the target: the channels,
//! or the people), and the message goes with its `queue_id` and a `local_id`. When the answer
//! to a send is lost (a cut connection, a timeout, a 5xx) the message may be on the server:
//! the queue is asked for the `message` event that echoes the `local_id` before the message is
//! sent again, and when that cannot be known it is not sent again — the outbox's rule.

use super::common::{
    Common, EXIT_HELP, Exit, Failure, Out, client, data_of, forget_queue, json_line, register,
};
use crate::api::{Client, EventKind, OutgoingMessage, RegisterParams, SendResponse};
use crate::app::narrow::Resolver;
use crate::app::state::Data;
use crate::backoff::{Backoff, pseudo_random};
use std::io::Read;
use std::time::Duration;

/// Sends before giving up (the first one included).
const ATTEMPTS: u32 = 4;
/// Looks at the queue for a send whose answer was lost, before deciding it did not arrive.
const LOOKS: u32 = 3;

/// Send a message.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = EXIT_HELP)]
pub struct SendArgs {
    /// Where: '#channel>topic' (split at the first '>'), or '@name', '@email' or
    /// '@name,@other' for a direct message ('@"Name, with a comma"' quotes one full name).
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The message, in Markdown; read from standard input when not given.
    #[arg(value_name = "TEXT")]
    pub text: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

/// Where a message goes, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Channel {
        name: String,
        topic: String,
    },
    /// The names as typed, read with the register answer: a full name may hold commas.
    People(String),
}

const TARGET_FORMS: &str =
    "a target is '#channel>topic', '@name', '@email', '@name,@other' or '@\"Name, with a comma\"'";

/// Read a target: `#channel>topic` or `@name[,@other…]`.
pub fn parse_target(s: &str) -> Result<Target, Failure> {
    let usage = |why: &str| Failure::new(Exit::Usage, format!("{why} ({TARGET_FORMS})"));
    if let Some(rest) = s.trim().strip_prefix('#') {
        let Some((name, topic)) = rest.split_once('>') else {
            return Err(usage("a channel message needs a topic"));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(usage("no channel named"));
        }
        return Ok(Target::Channel { name: name.to_owned(), topic: topic.trim().to_owned() });
    }
    if s.trim().starts_with('@') {
        let blank = |p: &str| p.trim().trim_start_matches('@').trim_matches(['"', '*', ' ']).is_empty();
        if crate::app::people::pieces(s).iter().all(|(at, _)| blank(&s[at.clone()])) {
            return Err(usage("an empty name"));
        }
        return Ok(Target::People(s.trim().to_owned()));
    }
    Err(usage(&format!("{s:?} is not a target")))
}

/// The message for a target, its names looked up in the register answer's data.
fn message_for(d: &Data, target: &Target, content: &str) -> Result<OutgoingMessage, Failure> {
    match target {
        Target::Channel { name, topic } => {
            let id = d.channel_id(name).ok_or_else(|| {
                Failure::new(Exit::Refused, format!("no channel named #{name} that you can see"))
            })?;
            Ok(OutgoingMessage::channel(id, topic, content))
        }
        Target::People(people) => {
            // The prompts' rule (`app::people::people_in`): "Othello, the Moor of Venice" is one.
            let ids = crate::app::people::people_in(people, |who| d.user_id(who))
                .map_err(|e| Failure::new(Exit::Refused, e.to_string()))?;
            Ok(OutgoingMessage::direct(ids, content))
        }
    }
}

/// The text: the argument, else standard input.
fn text_of(arg: Option<String>) -> Result<String, Failure> {
    let text = match arg {
        Some(t) => t,
        None => {
            let mut t = String::new();
            std::io::stdin().read_to_string(&mut t).map_err(|e| {
                Failure::new(Exit::Usage, format!("cannot read the message from standard input: {e}"))
            })?;
            t
        }
    };
    if text.trim().is_empty() {
        return Err(Failure::new(Exit::Usage, "nothing to send: the message is empty"));
    }
    Ok(text)
}

/// A `local_id` no other send of this machine uses.
fn fresh_local_id() -> String {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("topicterm-send.{}.{nanos}", std::process::id())
}

/// Whether the queue holds the event of the message sent with `local_id`: its ID if so,
/// `None` if it did not come after a few looks, an error if the queue cannot be asked.
async fn arrived(
    client: &Client,
    queue: &str,
    last_event_id: &mut i64,
    local_id: &str,
) -> Result<Option<i64>, Failure> {
    for look in 1..=LOOKS {
        let events =
            client.get_events(queue, *last_event_id, true, Duration::from_secs(10)).await.map_err(|e| {
                Failure::new(
                    Exit::of(&e),
                    format!(
                        "the message may have been sent, and whether it was cannot be known: {}",
                        crate::app::why(&e)
                    ),
                )
            })?;
        for ev in events {
            *last_event_id = (*last_event_id).max(ev.id);
            if let EventKind::Message(m) = ev.kind
                && m.local_message_id.as_deref() == Some(local_id)
            {
                return Ok(Some(m.message.id));
            }
        }
        if look < LOOKS {
            tokio::time::sleep(Backoff::NETWORK.delay(look, pseudo_random(0, look))).await;
        }
    }
    Ok(None)
}

/// Send `message` once: retried through transient failures, never twice.
async fn send_once(
    client: &Client,
    queue: &str,
    mut last_event_id: i64,
    message: &mut OutgoingMessage,
) -> Result<SendResponse, Failure> {
    let local_id = fresh_local_id();
    message.local_id = Some(local_id.clone());
    message.queue_id = Some(queue.to_owned());
    message.read_by_sender = Some(true);
    for attempt in 1..=ATTEMPTS {
        let e = match client.send_message(message).await {
            Ok(sent) => return Ok(sent),
            Err(e) => e,
        };
        if !e.is_transient() {
            return Err(Failure::api("not sent", &e));
        }
        if e.may_have_arrived()
            && let Some(id) = arrived(client, queue, &mut last_event_id, &local_id).await?
        {
            // Found among the events: the server's answer (and its link) was lost.
            return Ok(SendResponse {
                id,
                message_url: None,
                message_link: None,
                automatic_new_visibility_policy: None,
                ignored_parameters_unsupported: Vec::new(),
            });
        }
        if attempt == ATTEMPTS {
            return Err(Failure::api("not sent", &e));
        }
        tracing::info!("send attempt {attempt} failed ({e}); trying again");
        tokio::time::sleep(Backoff::NETWORK.delay(attempt, pseudo_random(attempt.into(), attempt))).await;
    }
    unreachable!("the last attempt returns")
}

/// `topicterm send`: the sent message's ID.
pub async fn run(
    args: SendArgs,
    creds: anyhow::Result<crate::api::Credentials>,
    out: &mut Out,
) -> Result<(), Failure> {
    let target = parse_target(&args.target)?;
    let content = text_of(args.text)?;
    let client = client(creds)?;
    let names = match target {
        Target::Channel { .. } => "subscription",
        Target::People(_) => "realm_user",
    };
    let params = RegisterParams {
        event_types: Some(vec!["message".into()]),
        fetch_event_types: Some(vec![names.into()]),
        apply_markdown: Some(false),
        ..Default::default()
    };
    let answer = register(&client, &params).await?;
    let queue = answer.queue_id.clone().unwrap_or_default();
    let last_event_id = answer.last_event_id;
    let data = data_of(answer);
    let result = async {
        let mut message = message_for(&data, &target, &content)?;
        send_once(&client, &queue, last_event_id, &mut message).await
    }
    .await;
    forget_queue(&client, Some(&queue)).await;
    let sent = result?;
    if args.common.json {
        // The message's address and its Markdown link, as the server gives them (level 508).
        let mut line = serde_json::json!({"id": sent.id, "result": "success"});
        for (key, value) in [("message_url", &sent.message_url), ("message_link", &sent.message_link)] {
            if let Some(v) = value {
                line[key] = serde_json::json!(v);
            }
        }
        out.line(&json_line(&line));
    } else {
        out.line(&sent.id.to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert_eq!(
            parse_target("#book club > what next > maybe").unwrap(),
            Target::Channel { name: "book club".into(), topic: "what next > maybe".into() }
        );
        assert_eq!(
            parse_target(" @Alice Okafor,@bob@example.com, carol").unwrap(),
            Target::People("@Alice Okafor,@bob@example.com, carol".into())
        );
        for bad in ["#general", "#>topic", "general>x", "@", "@,@", "@\"\"", ""] {
            assert_eq!(parse_target(bad).unwrap_err().exit, Exit::Usage, "{bad}");
        }
    }
}
