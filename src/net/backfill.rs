//! `:archive` (`Effect::Backfill`): one task that fetches narrows' older history into the
//! archive only — never the views, so that 200,000 messages do not fill memory — a page at a
//! time, each from where the archive's record (`archive::Reached`) says the last run stopped,
//! at the server's pace: a rate limit waits as long as the server asks, a lost connection
//! backs off and tries again.

use crate::api::*;
use crate::app::{BackfillTarget, Msg};
use crate::archive::{Archive, Reached};
use crate::backoff::Backoff;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// Messages asked per page (the server gives at most 5,000).
pub const PAGE: u64 = 1_000;

/// Tries of one page the server does not answer before the backfill stops (it resumes there).
const TRIES: u32 = 8;

/// Fetch each target's history in turn, `page` messages a request, then say so; `None` for the
/// archive says it is off.
pub async fn run(
    c: Client,
    archive: Option<Archive>,
    targets: Vec<BackfillTarget>,
    page: u64,
    tx: UnboundedSender<Msg>,
) {
    for target in targets {
        let result = match &archive {
            None => Err("the archive is off (history = false in the config)".to_owned()),
            Some(a) => one(&c, a, &target, page, &tx).await,
        };
        let failed = result.is_err();
        if tx.send(Msg::BackfillDone { name: target.name, result }).is_err() || failed {
            return;
        }
    }
}

/// One narrow's history, from where the last run left it to the oldest message.
async fn one(
    c: &Client,
    archive: &Archive,
    target: &BackfillTarget,
    page_size: u64,
    tx: &UnboundedSender<Msg>,
) -> Result<u64, String> {
    let (key, terms) = match target.channel {
        Some(id) => (crate::archive::channel_key(id), vec![NarrowTerm::new("channel", id)]),
        None => ("all".to_owned(), Vec::new()),
    };
    let a = archive.clone();
    let k = key.clone();
    let mut reached = tokio::task::spawn_blocking(move || a.reached(&k)).await.ok().flatten();
    loop {
        if let Some(r) = reached.as_ref().filter(|r| r.found_oldest) {
            return Ok(r.fetched);
        }
        let anchor = reached.as_ref().map_or(Anchor::Newest, |r| Anchor::Id(r.oldest));
        let mut q = GetMessages::around(anchor, page_size, 0).narrow(terms.clone());
        q.include_anchor = Some(reached.is_none());
        q.apply_markdown = Some(true);
        q.client_gravatar = Some(true);
        let page = fetch(c, &q).await?;
        let fetched = reached.as_ref().map_or(0, |r| r.fetched) + page.messages.len() as u64;
        let oldest = page.messages.iter().map(|m| m.id).min();
        let next = Reached {
            key: key.clone(),
            oldest: oldest.or(reached.as_ref().map(|r| r.oldest)).unwrap_or(0),
            // A page that brings nothing older means there is nothing older.
            found_oldest: page.found_oldest || oldest.is_none(),
            fetched,
        };
        archive.backfilled(&page.messages, next.clone());
        drop(page);
        if tx.send(Msg::BackfillProgress { name: target.name.clone(), fetched }).is_err() {
            return Err("the client is gone".into());
        }
        reached = Some(next);
    }
}

/// One page, waiting as long as the server asks when it limits the rate, and backing off
/// while it cannot be reached (a few times: then the backfill stops, to be resumed).
async fn fetch(c: &Client, q: &GetMessages) -> Result<MessagesResponse, String> {
    let mut attempt = 0;
    loop {
        match c.get_messages(q).await {
            Ok(page) => return Ok(page),
            Err(e) if e.server().is_some_and(|s| s.status == 429) => {
                let wait = e.server().and_then(|s| s.retry_after).unwrap_or(1.0).clamp(0.1, 300.0);
                tracing::info!("backfill rate limited; waiting {wait}s");
                tokio::time::sleep(Duration::from_secs_f64(wait)).await;
            }
            Err(e) if e.is_transient() && attempt < TRIES => {
                attempt += 1;
                let wait = Backoff::NETWORK.delay(attempt, rand::random());
                tracing::info!("backfill page failed: {e}; retrying in {wait:?}");
                tokio::time::sleep(wait).await;
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}
