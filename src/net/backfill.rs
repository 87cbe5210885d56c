//! `:archive` (`Effect::Backfill`): one task that fetches narrows' older history into the
//! archive only — never the views, so that 200,000 messages do not fill memory — a page at a
//! time, each from where the archive's record (`archive::Reached`) says the last run stopped,
//! at the server's pace: a rate limit waits as long as the server asks, a lost connection
//! backs off and tries again until the server answers or the user stops it.

use super::patient::{self, Stopped};
use crate::api::*;
use crate::app::{BackfillTarget, Msg};
use crate::archive::{Anchored, Archive, Reached};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// Messages asked per page (the server gives at most 5,000).
pub const PAGE: u64 = 1_000;

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
    if let Some(r) = reached.as_ref().filter(|r| r.found_oldest) {
        return Ok(r.fetched);
    }
    // The narrow's oldest message, for "of about N".
    let mut first = GetMessages::around(Anchor::Oldest, 0, 1).narrow(terms.clone());
    first.apply_markdown = Some(false);
    let oldest_id = fetch(c, &first, target, tx).await?.messages.first().map(|m| m.id);
    let mut estimate = Estimate { before: reached.as_ref().map_or(0, |r| r.fetched), ..Estimate::default() };
    loop {
        if let Some(r) = reached.as_ref().filter(|r| r.found_oldest) {
            return Ok(r.fetched);
        }
        let anchor = reached.as_ref().map_or(Anchor::Newest, |r| Anchor::Id(r.oldest));
        let mut q = GetMessages::around(anchor, page_size, 0).narrow(terms.clone());
        q.include_anchor = Some(reached.is_none());
        q.apply_markdown = Some(true);
        q.client_gravatar = Some(true);
        let asked = std::time::Instant::now();
        let page = fetch(c, &q, target, tx).await?;
        let fetched = reached.as_ref().map_or(0, |r| r.fetched) + page.messages.len() as u64;
        let oldest = page.messages.iter().map(|m| m.id).min();
        let newest = page.messages.iter().map(|m| m.id).max();
        let next = Reached {
            key: key.clone(),
            oldest: oldest.or(reached.as_ref().map(|r| r.oldest)).unwrap_or(0),
            // A page that brings nothing older means there is nothing older.
            found_oldest: page.found_oldest || oldest.is_none(),
            fetched,
        };
        archive.backfilled(&terms, &Anchored::of(&q), &page, asked, next.clone());
        drop(page);
        let about = estimate.page(fetched, newest, next.oldest, oldest_id);
        if tx.send(Msg::BackfillProgress { name: target.name.clone(), fetched, about }).is_err() {
            return Err("the client is gone".into());
        }
        reached = Some(next);
    }
}

/// How many messages a narrow holds, about: the messages fetched, plus those still to fetch
/// guessed from how densely this run's pages filled the IDs they spanned.
#[derive(Debug, Default)]
struct Estimate {
    /// Fetched by the runs before this one.
    before: u64,
    /// The newest message ID this run fetched.
    newest: Option<MessageId>,
}

impl Estimate {
    /// After a page: `fetched` in all, the page's newest ID, the oldest fetched so far, and the
    /// narrow's oldest message. `None` until there is something to guess from.
    fn page(
        &mut self,
        fetched: u64,
        newest: Option<MessageId>,
        reached: MessageId,
        oldest: Option<MessageId>,
    ) -> Option<u64> {
        self.newest = self.newest.or(newest);
        let oldest = oldest?;
        let spanned = u64::try_from(self.newest? - reached + 1).ok()?.max(1);
        let left = u64::try_from(reached - oldest).unwrap_or(0);
        let this_run = fetched.saturating_sub(self.before);
        Some(fetched + left.saturating_mul(this_run) / spanned)
    }
}

/// One page, waiting as long as the server asks when it limits the rate, and while it cannot
/// be reached trying again, further apart each time (at most 30 s), saying so, until it
/// answers or the user stops the backfill (`:archive stop`): a server restarted mid-way
/// finds the backfill going on where it was.
async fn fetch(
    c: &Client,
    q: &GetMessages,
    target: &BackfillTarget,
    tx: &UnboundedSender<Msg>,
) -> Result<MessagesResponse, String> {
    let waiting = |e: &ApiError, wait: Duration| {
        let why = crate::app::why(e);
        tx.send(Msg::BackfillWaiting { name: target.name.clone(), why, retry_in: wait.as_secs().max(1) })
            .is_ok()
    };
    patient::get_messages(c, q, "a backfill page", waiting).await.map_err(|stopped| match stopped {
        Stopped::Refused(e) => crate::app::why(&e),
        Stopped::Gone => "the client is gone".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::Estimate;

    #[test]
    fn the_estimate_grows_the_count_by_how_densely_the_pages_filled_their_ids() {
        let mut e = Estimate { before: 0, newest: None };
        // IDs 1..=1000 hold 500 messages of the narrow; the first page brings 100 of them,
        // spanning IDs 801..=1000.
        assert_eq!(e.page(100, Some(1000), 801, Some(1)), Some(100 + 800 * 100 / 200));
        assert_eq!(e.page(200, Some(800), 601, Some(1)), Some(200 + 600 * 200 / 400));
        assert_eq!(e.page(250, Some(600), 1, Some(1)), Some(250), "at the oldest: what was fetched");
        assert_eq!(Estimate::default().page(10, Some(5), 1, None), None, "an empty narrow: no guess");
        // A run resumed after 300 were fetched guesses from its own pages only.
        let mut resumed = Estimate { before: 300, newest: None };
        assert_eq!(resumed.page(310, Some(400), 391, Some(1)), Some(310 + 390 * 10 / 10));
    }
}
