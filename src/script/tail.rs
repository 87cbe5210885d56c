//! `topicterm tail [SEARCH]`: messages as they arrive, one line each (or one JSON object each).
//!
//! SEARCH is read by the client's own search parser (`app::narrow::parse_search`, the `/`
//! search), its names looked up in a first register answer. The queue that is followed is
//! registered with the part of the search the server filters events by (register's `narrow`:
//! channel, sender, `is:`; `check_narrow_for_events` in the reference server); when that part
//! is the whole search, each message event is printed as it comes, and otherwise an event
//! only says that something came, and what matches is fetched by anchor (`GET /messages`
//! after the last message printed) — the same fetch that fills the gap when the queue expired
//! and is registered again. Nothing is printed twice (IDs only grow) and nothing is missed.
//!
//! It ends with status 0 on SIGINT and when standard output is closed (`| head`).

use super::common::{Common, EXIT_HELP, Failure, Out, client, forget_queue, names_and_search};
use super::lines::{Style, json_of, text_line};
use crate::api::{Anchor, ApiError, Client, EventKind, GetMessages, Message, NarrowTerm, RegisterParams};
use crate::app::state::Data;
use crate::backoff::{Backoff, pseudo_random};
use crate::content::sanitize;
use std::time::Duration;

/// Messages asked for per page when filling a gap.
const PAGE: u64 = 1000;

/// Follow messages as they arrive.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = EXIT_HELP)]
pub struct TailArgs {
    /// Only messages matching this search, in the client's `/` search syntax: channel:NAME,
    /// topic:"a topic", sender:EMAIL, dm:NAME, is:dm, is:mentioned, has:link, words… (any
    /// number of words; quote what the shell would split).
    #[arg(value_name = "SEARCH")]
    pub search: Vec<String>,
    /// First print the last N messages (of the search).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub since: u64,
    #[command(flatten)]
    pub common: Common,
}

/// What is followed.
struct Follow {
    /// The whole search, for `GET /messages`.
    terms: Vec<NarrowTerm>,
    /// The part the server filters events by.
    events_narrow: Vec<(String, String)>,
    /// The events' filter is the whole search: an event's message is printed as it is.
    exact: bool,
    json: bool,
    /// How lines name the time and the empty topic (Markdown: the server's, unrendered).
    style: Style,
    /// Dates beside the times, from the first message printed that is not from today (the
    /// history asked for, or a day that turned while following) on: a time alone would not say
    /// which day, and one output keeps one format once it has changed.
    dated: std::sync::atomic::AtomicBool,
}

/// The part of a search the server filters events by, as register's `narrow` takes it
/// (names, not IDs), and whether it is the whole search. The events' topic match is looser
/// than a search's (a word of the topic matches too), so a topic makes it not the whole.
fn events_narrow(terms: &[NarrowTerm], d: &Data) -> (Vec<(String, String)>, bool) {
    let mut exact = true;
    let mut pairs = Vec::new();
    for t in terms {
        let pair = match (t.operator.as_str(), &t.operand) {
            _ if t.negated => None,
            ("channel", v) => v.as_i64().map(|id| ("channel", d.channels.name(id).to_owned())),
            ("sender", v) => v.as_i64().and_then(|id| d.users.get(id)).map(|u| ("sender", u.email.clone())),
            ("topic", v) => {
                exact = false;
                v.as_str().map(|topic| ("topic", topic.to_owned()))
            }
            ("is", v) => v
                .as_str()
                .filter(|o| ["dm", "starred", "mentioned", "alerted", "unread", "resolved"].contains(o))
                .map(|o| ("is", o.to_owned())),
            _ => None,
        };
        match pair {
            Some((op, operand)) => pairs.push((op.to_owned(), operand)),
            None => exact = false,
        }
    }
    (pairs, exact)
}

/// Print one message; `false` once standard output is closed.
fn print(out: &mut Out, m: &Message, f: &Follow) -> bool {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    out.line(&line_of(m, f, i64::try_from(now).unwrap_or(0)))
}

/// One message's line, `now` being the time it is printed.
fn line_of(m: &Message, f: &Follow, now: i64) -> String {
    use std::sync::atomic::Ordering::Relaxed;
    if f.json {
        return json_of(m, &f.style);
    }
    let this = f.style.clone().for_messages(std::iter::once(m), now);
    if this.dated {
        f.dated.store(true, Relaxed);
    }
    text_line(m, &Style { dated: f.dated.load(Relaxed), ..this })
}

/// Print the messages of the search after `last`, oldest first, moving `last`. `Ok(false)`:
/// standard output is closed.
async fn print_after(client: &Client, f: &Follow, last: &mut i64, out: &mut Out) -> Result<bool, ApiError> {
    loop {
        let mut q = GetMessages::around(Anchor::Id((*last).max(0)), 0, PAGE).narrow(f.terms.clone());
        q.include_anchor = Some(false);
        q.apply_markdown = Some(false);
        let page = client.get_messages(&q).await?;
        for m in &page.messages {
            if m.id <= *last {
                continue;
            }
            if !print(out, m, f) {
                return Ok(false);
            }
            *last = m.id;
        }
        if page.found_newest || page.messages.is_empty() {
            return Ok(true);
        }
    }
}

/// Print the last `n` messages of the search; the newest ID printed.
async fn print_last(client: &Client, f: &Follow, n: u64, out: &mut Out) -> Result<Option<i64>, Failure> {
    let mut q = GetMessages::around(Anchor::Newest, n.min(5000), 0).narrow(f.terms.clone());
    q.apply_markdown = Some(false);
    let page = client.get_messages(&q).await.map_err(|e| Failure::api("cannot read the messages", &e))?;
    let mut newest = None;
    for m in &page.messages {
        if !print(out, m, f) {
            break;
        }
        newest = Some(m.id);
    }
    Ok(newest)
}

/// What ends following one queue.
enum Stop {
    /// Standard output is closed: done.
    Closed,
    /// The queue is gone: register another.
    QueueGone,
}

/// A failure while following: a queue that is gone, trouble worth waiting out (`Ok`, after
/// the wait), or the end.
async fn weather(e: ApiError, faults: &mut u32) -> Result<Option<Stop>, Failure> {
    if e.code() == Some("BAD_EVENT_QUEUE_ID") {
        return Ok(Some(Stop::QueueGone));
    }
    if e.is_auth() || !e.is_transient() {
        return Err(Failure::api("stopped following", &e));
    }
    *faults += 1;
    if *faults == 1 {
        let why = sanitize(&crate::app::why(&e));
        eprintln!("topicterm tail: {why}; trying again");
    }
    tokio::time::sleep(Backoff::NETWORK.delay(*faults, pseudo_random(i64::from(*faults), *faults))).await;
    Ok(None)
}

/// A registered queue: its ID, the last event read, how long a poll may take.
struct Queue {
    id: String,
    last_event_id: i64,
    timeout: Duration,
}

/// Follow one queue until it is gone or standard output closes; `pending`: the gap after
/// `last` is still to be fetched.
async fn follow_queue(
    client: &Client,
    f: &Follow,
    mut queue: Queue,
    last: &mut i64,
    mut pending: bool,
    out: &mut Out,
) -> Result<Stop, Failure> {
    let mut faults = 0;
    loop {
        if pending {
            match print_after(client, f, last, out).await {
                Ok(true) => pending = false,
                Ok(false) => return Ok(Stop::Closed),
                Err(e) => match weather(e, &mut faults).await? {
                    Some(stop) => return Ok(stop),
                    None => continue,
                },
            }
        }
        let events = match client.get_events(&queue.id, queue.last_event_id, false, queue.timeout).await {
            Ok(events) => events,
            Err(e) => match weather(e, &mut faults).await? {
                Some(stop) => return Ok(stop),
                None => continue,
            },
        };
        faults = 0;
        for ev in events {
            queue.last_event_id = queue.last_event_id.max(ev.id);
            let EventKind::Message(m) = ev.kind else { continue };
            if !f.exact {
                pending = true;
                continue;
            }
            let mut message = m.message;
            if message.id <= *last {
                continue;
            }
            message.flags = m.flags;
            if !print(out, &message, f) {
                return Ok(Stop::Closed);
            }
            *last = message.id;
        }
    }
}

/// Register, print `--since`, then follow; register again whenever the queue is gone.
async fn follow(client: &Client, f: &Follow, since: u64, out: &mut Out) -> Result<(), Failure> {
    let params = RegisterParams {
        event_types: Some(vec!["message".into()]),
        fetch_event_types: Some(vec!["message".into()]),
        apply_markdown: Some(false),
        narrow: (!f.events_narrow.is_empty()).then(|| f.events_narrow.clone()),
        ..Default::default()
    };
    let mut last = -1;
    let mut first = true;
    let mut faults = 0;
    loop {
        let answer = match client.register(&params).await {
            Ok(a) => a,
            Err(e) if first => return Err(Failure::api("cannot follow the messages", &e)),
            Err(e) => match weather(e, &mut faults).await? {
                Some(Stop::Closed) => return Ok(()),
                _ => continue,
            },
        };
        faults = 0;
        let queue = answer.queue_id.clone().unwrap_or_default();
        let timeout = Duration::from_secs(answer.event_queue_longpoll_timeout_seconds.unwrap_or(90) + 15);
        if first && since > 0 {
            last = print_last(client, f, since, out).await?.unwrap_or(-1);
        }
        if first {
            last = last.max(answer.max_message_id.unwrap_or(-1));
        }
        let gap = !first;
        first = false;
        let followed = Queue { id: queue.clone(), last_event_id: answer.last_event_id, timeout };
        match follow_queue(client, f, followed, &mut last, gap, out).await? {
            Stop::Closed => {
                forget_queue(client, Some(&queue)).await;
                return Ok(());
            }
            Stop::QueueGone => tracing::info!("the event queue expired: registering again"),
        }
    }
}

/// `topicterm tail`: until SIGINT, or standard output closes.
pub async fn run(
    args: TailArgs,
    creds: anyhow::Result<crate::api::Credentials>,
    out: &mut Out,
) -> Result<(), Failure> {
    let client = client(creds)?;
    let query = args.search.join(" ");
    let (terms, events_narrow, exact, empty_topic) = if query.trim().is_empty() {
        (Vec::new(), Vec::new(), true, "general chat".to_owned())
    } else {
        let (data, terms) = names_and_search(&client, &query).await?;
        let (pairs, exact) = events_narrow(&terms, &data);
        (terms, pairs, exact, data.realm.empty_topic_name.clone())
    };
    let style = Style::new(&empty_topic, false);
    let f = Follow { terms, events_narrow, exact, json: args.common.json, style, dated: false.into() };
    tokio::select! {
        r = follow(&client, &f, args.since, out) => r,
        _ = tokio::signal::ctrl_c() => Ok(()),
        () = reader_gone() => Ok(()),
    }
}

/// Resolves when standard output is a pipe whose reader has gone (`| head -1` after its line):
/// the end, even while no message comes to fail writing. Never, where that cannot be watched
/// (a file, a terminal).
async fn reader_gone() {
    #[cfg(unix)]
    {
        use tokio::io::Interest;
        use tokio::io::unix::AsyncFd;
        // SAFETY: standard output's descriptor (1) is open for the whole process, and nothing
        // here closes or replaces it; `Stdout` always names that same descriptor.
        let watched = unsafe { AsyncFd::register_with_interest(std::io::stdout(), Interest::ERROR) };
        if let Ok(fd) = watched
            && fd.ready(Interest::ERROR).await.is_ok()
        {
            return;
        }
    }
    std::future::pending::<()>().await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times alone while every message printed is from today; from the first one of another
    /// day (the history, or midnight passing while following) on, every line is dated.
    #[test]
    fn lines_are_dated_from_the_first_message_not_of_today() {
        let at = |id: i64, ts: i64| -> Message {
            serde_json::from_value(serde_json::json!({
                "id": id, "type": "stream", "content": "hi", "display_recipient": "general",
                "subject": "t", "sender_id": 5, "sender_full_name": "Alice", "timestamp": ts
            }))
            .unwrap()
        };
        let f = |dated: bool| Follow {
            terms: vec![],
            events_narrow: vec![],
            exact: true,
            json: false,
            style: Style { tz: crate::app::TimeZone::Fixed(0), ..Style::new("general chat", false) },
            dated: dated.into(),
        };
        let day = 1_709_647_200; // 2024-03-05 14:00 UTC
        let today = f(false);
        assert_eq!(line_of(&at(1, day), &today, day + 60), "14:00 #general > t  Alice: hi");
        let follow = f(false);
        assert_eq!(line_of(&at(1, day - 86_400), &follow, day), "2024-03-04 14:00 #general > t  Alice: hi");
        assert_eq!(line_of(&at(2, day), &follow, day + 60), "2024-03-05 14:00 #general > t  Alice: hi");
    }

    #[test]
    fn the_events_narrow_is_what_the_server_filters_by() {
        let mut d = Data::default();
        let never = vec![serde_json::json!({"stream_id": 9, "name": "design"})];
        d.channels = crate::app::channels::Channels::from_register(&crate::api::RegisterResponse {
            never_subscribed: Some(never),
            ..Default::default()
        });
        let terms = vec![NarrowTerm::new("channel", 9), NarrowTerm::new("is", "mentioned")];
        assert_eq!(
            events_narrow(&terms, &d),
            (vec![("channel".into(), "design".into()), ("is".into(), "mentioned".into())], true)
        );
        let terms = vec![NarrowTerm::new("channel", 9), NarrowTerm::new("search", "words")];
        assert_eq!(events_narrow(&terms, &d), (vec![("channel".into(), "design".into())], false));
        let terms = vec![NarrowTerm::new("topic", "q3"), NarrowTerm::new("is", "dm").negate()];
        assert_eq!(events_narrow(&terms, &d), (vec![("topic".into(), "q3".into())], false));
    }
}
