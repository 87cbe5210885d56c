//! The one owner of the narrows' views: each narrow's loaded window of message IDs (sorted),
//! how far it reaches, what is being asked for it, what the archive showed of it, its search
//! matches and its catching up, and the window epochs handed out (pages asked for an earlier
//! incarnation of a window are dropped, so they cannot leave a gap).
//!
//! Its fields are private; a view is changed only through the methods below, named for what
//! happens (a page arrived or failed, a message stored, moved or deleted, a view opened, closed
//! or resynchronised, the archive's messages shown, …); readers use the accessors (`get`,
//! `iter`, and a view's `ids`, `is_loaded`, `found_newest`, …). `check` says that every view's
//! IDs are sorted and unique. A leaf: it names no `State` and no message store (what belongs
//! where is given as a closure).

use super::narrow::Narrow;
use crate::api::MessageId;
use std::collections::{HashMap, HashSet};

/// Why a window shows what the archive on this machine holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Local {
    /// Shown at once; the server is asked too, and its answer takes their place.
    Asking,
    /// The server cannot be asked (offline, or its answer did not come): the archive alone.
    Offline,
    /// The server refused the request: the archive alone.
    Refused,
}

impl Local {
    /// How the title says it.
    pub fn words(self) -> &'static str {
        match self {
            Local::Asking => "local results · asking the server…",
            Local::Offline => "offline: showing what this machine has seen",
            Local::Refused => "local results: the server did not search",
        }
    }
}

/// What matched a search in one message: its rendered content and its topic (escaped HTML)
/// with the matched words in `<span class="highlight">`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchMatch {
    pub content: Option<String>,
    pub subject: Option<String>,
}

/// The loaded window of one narrow.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NarrowView {
    /// Sorted ascending, deduplicated.
    ids: Vec<MessageId>,
    found_oldest: bool,
    found_newest: bool,
    loading_older: bool,
    loading_newer: bool,
    /// Set once the first page arrived.
    loaded: bool,
    /// Filled from messages already held while the server could not be asked (offline, or
    /// the last session before the server answered): shown, not loaded, never paged, and
    /// replaced by the first page the server sends.
    provisional: bool,
    /// Shown from the archive on this machine (`Msg::ArchiveHits`), and why: the title says so
    /// until the server's first page replaces them.
    local: Option<Local>,
    /// Which incarnation of the window this is.
    epoch: u64,
    /// Search results: what matched in each message, as the server marked it.
    matches: HashMap<MessageId, SearchMatch>,
    /// Newer messages of this loaded window failed to load (its resynchronisation after a lost
    /// queue, or a page): it may miss what came after its newest, so it is asked again at this
    /// time while shown (windows not shown are dropped and loaded anew when opened).
    catch_up_at: Option<i64>,
    /// Failures in a row of those newer pages (drives the backoff).
    catch_up_failures: u32,
}

/// A page of a narrow as the server sent it, for [`NarrowView::page_arrived`].
#[derive(Debug, Default)]
pub struct Page {
    /// Every ID the page covers, sorted: the truth for the range from its first to its last.
    pub covered: Vec<MessageId>,
    /// The IDs the view takes (in the combined feed, those not muted).
    pub shown: Vec<MessageId>,
    pub matches: Vec<(MessageId, SearchMatch)>,
    pub found_oldest: bool,
    pub found_newest: bool,
}

/// What follows a page of newer messages (or a first page) that did not come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failed {
    /// Nothing more (an older page, a window not shown and not yet loaded, or a refusal).
    Nothing,
    /// Not shown: the window was dropped, to be loaded anew when opened.
    Dropped,
    /// Shown, and the error passes: asked again after this many seconds.
    Retry(i64),
}

/// What a window asks for again once the wait after a failure is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatchUp {
    /// Its first page (none came).
    FirstPage,
    /// The messages after this one, its newest.
    After(MessageId),
}

/// The pages a move of the selection asks for, for [`NarrowView::selection_moved`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    pub newer: bool,
    pub older: bool,
    pub first: MessageId,
    pub last: MessageId,
    pub epoch: u64,
}

impl NarrowView {
    /// The window's message IDs, oldest first.
    pub fn ids(&self) -> &[MessageId] {
        &self.ids
    }
    /// Whether the window holds message `id` (O(log n)).
    pub fn contains(&self, id: MessageId) -> bool {
        self.ids.binary_search(&id).is_ok()
    }
    pub fn found_oldest(&self) -> bool {
        self.found_oldest
    }
    pub fn found_newest(&self) -> bool {
        self.found_newest
    }
    pub fn is_loading_older(&self) -> bool {
        self.loading_older
    }
    pub fn is_loading_newer(&self) -> bool {
        self.loading_newer
    }
    /// The server's first page arrived.
    pub fn is_loaded(&self) -> bool {
        self.loaded
    }
    /// Filled from what was held or what the archive had, until the server's first page.
    pub fn is_provisional(&self) -> bool {
        self.provisional
    }
    /// Shown from the archive on this machine, and why.
    pub fn local(&self) -> Option<Local> {
        self.local
    }
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
    /// What the title says of who answered: the archive's words while the window shows what
    /// the archive holds; for a search the server answered, "from the server" (its matching is
    /// its own: the archive's takes a word's beginning, the server's may not).
    pub fn answered_by(&self, search: bool) -> Option<&'static str> {
        match self.local {
            Some(local) => Some(local.words()),
            None if search && self.loaded => Some("from the server"),
            None => None,
        }
    }
    /// What a search matched, by message.
    pub fn matches(&self) -> &HashMap<MessageId, SearchMatch> {
        &self.matches
    }
    /// What a search matched in message `id`.
    pub fn matched(&self, id: MessageId) -> Option<&SearchMatch> {
        self.matches.get(&id)
    }
    /// When the newer messages are asked for again, after a failure.
    pub fn catch_up_at(&self) -> Option<i64> {
        self.catch_up_at
    }
    pub fn catch_up_failures(&self) -> u32 {
        self.catch_up_failures
    }
    /// Whether the window reaches the place of message `id` (loaded, and between its ends or
    /// beyond one it found the end of).
    pub fn covers(&self, id: MessageId) -> bool {
        self.loaded
            && (self.found_oldest || self.ids.first().is_some_and(|f| *f <= id))
            && (self.found_newest || self.ids.last().is_some_and(|l| id <= *l))
    }

    /// Messages stored (or now in the narrow) join the window.
    pub fn merge(&mut self, ids: impl IntoIterator<Item = MessageId>) {
        for id in ids {
            if let Err(pos) = self.ids.binary_search(&id) {
                self.ids.insert(pos, id);
            }
        }
    }
    /// A message deleted (or gone from the narrow) leaves the window.
    pub fn remove(&mut self, id: MessageId) {
        if let Ok(pos) = self.ids.binary_search(&id) {
            self.ids.remove(pos);
        }
    }
    /// Messages that left the narrow (unstarred, muted, moved away) leave the window: only
    /// those `keep` says stay.
    pub fn keep_only(&mut self, keep: impl FnMut(&MessageId) -> bool) {
        self.ids.retain(keep);
    }
    /// What the window holds may be incomplete (a topic unmuted in the feed): loaded anew when
    /// opened.
    pub fn stale(&mut self) {
        self.loaded = false;
    }
    /// The first page is not asked for (offline): it is not loading.
    pub fn not_asked(&mut self) {
        self.loading_newer = false;
    }
    /// The page after the first page is asked for (the gap up to the queue).
    pub fn asking_newer(&mut self) {
        self.loading_newer = true;
    }

    /// A page arrived (older: above the window; else its first page or newer messages).
    pub fn page_arrived(&mut self, older: bool, page: Page) {
        if self.provisional && !older {
            self.ids.clear();
            self.provisional = false;
        }
        if !older {
            self.local = None;
        }
        // A page is the truth for the range it covers: drop what is no longer there (deleted or
        // moved away while the queue was lost).
        if let (Some(lo), Some(hi)) = (page.covered.first(), page.covered.last()) {
            let covered = &page.covered;
            self.ids.retain(|id| id < lo || id > hi || covered.binary_search(id).is_ok());
        }
        self.merge(page.shown);
        self.matches.extend(page.matches);
        if older {
            self.found_oldest = page.found_oldest;
            self.loading_older = false;
        } else {
            self.found_oldest |= page.found_oldest;
            self.found_newest = page.found_newest;
            self.loading_newer = false;
        }
        self.loaded = true;
    }

    /// A page of newer messages (not `older`) arrived: its earlier failures are over.
    pub fn caught_up(&mut self) {
        self.catch_up_at = None;
        self.catch_up_failures = 0;
    }

    /// A page did not come. A loaded window whose newer messages did not come may miss some:
    /// it no longer claims to reach the newest. Shown, it is asked again after `wait(failures
    /// in a row)` seconds when the error passes; not shown, the caller drops it.
    pub fn page_failed(
        &mut self,
        older: bool,
        shown: bool,
        transient: bool,
        now: i64,
        wait: impl FnOnce(u32) -> i64,
    ) -> Failed {
        self.loading_older = false;
        self.loading_newer = false;
        if older {
            return Failed::Nothing;
        }
        if self.loaded {
            self.found_newest = false;
            if !shown {
                return Failed::Dropped;
            }
        } else if !shown {
            // Asked for when opened.
            return Failed::Nothing;
        }
        // The window on screen, loaded or still to be, is asked again when the error passes.
        if !transient {
            return Failed::Nothing;
        }
        self.catch_up_failures += 1;
        let wait = wait(self.catch_up_failures);
        self.catch_up_at = Some(now + wait);
        Failed::Retry(wait)
    }

    /// The clock: when the wait after a failure is over, what the window lacks is asked for
    /// again: the newer messages from the newest held, or its first page if none came.
    pub fn catch_up_due(&mut self, now: i64) -> Option<CatchUp> {
        if self.catch_up_at.is_none_or(|at| at > now) || self.loading_newer {
            return None;
        }
        let what = if self.loaded { CatchUp::After(*self.ids.last()?) } else { CatchUp::FirstPage };
        self.catch_up_at = None;
        self.loading_newer = true;
        Some(what)
    }

    /// The selection moved to position `at`: near the bottom of a window that does not reach
    /// the newest messages newer ones are asked for, near the top older ones. `None`: empty.
    pub fn selection_moved(&mut self, at: usize) -> Option<Wanted> {
        let (&first, &last) = (self.ids.first()?, self.ids.last()?);
        let newer =
            at + 5 >= self.ids.len() && !self.found_newest && !self.loading_newer && !self.provisional;
        let older = at < 5 && !self.found_oldest && !self.loading_older && !self.provisional;
        self.loading_newer |= newer;
        self.loading_older |= older;
        Some(Wanted { newer, older, first, last, epoch: self.epoch })
    }

    /// The archive's messages for the window arrived (it is not loaded yet): shown as
    /// provisional, and said. Returns false (nothing shown) when there are none and the
    /// server, online, is still to answer.
    pub fn archive_shown(&mut self, ids: Vec<MessageId>, offline: bool) -> bool {
        if ids.is_empty() && !offline && self.loading_newer {
            return false;
        }
        self.merge(ids);
        self.provisional = true;
        if self.local.is_none() {
            self.local = Some(if offline || !self.loading_newer { Local::Offline } else { Local::Asking });
        }
        true
    }

    /// The server's first page did not come after the archive showed its messages: they stay,
    /// alone (`offline`: it could not be asked, else it refused).
    pub fn archive_alone(&mut self, offline: bool) {
        if !self.loaded && self.local.is_some() {
            self.local = Some(if offline { Local::Offline } else { Local::Refused });
        }
    }
}

/// The views of every narrow held, and the window epochs handed out.
#[derive(Debug, Default)]
pub struct Views {
    map: HashMap<Narrow, NarrowView>,
    /// The last window epoch handed out.
    epochs: u64,
}

impl std::ops::Index<&Narrow> for Views {
    type Output = NarrowView;
    fn index(&self, narrow: &Narrow) -> &NarrowView {
        &self.map[narrow]
    }
}

impl Views {
    /// The view of a narrow.
    pub fn get(&self, narrow: &Narrow) -> Option<&NarrowView> {
        self.map.get(narrow)
    }
    /// The view of a narrow, to tell it what happened (through its methods).
    pub fn get_mut(&mut self, narrow: &Narrow) -> Option<&mut NarrowView> {
        self.map.get_mut(narrow)
    }
    pub fn contains(&self, narrow: &Narrow) -> bool {
        self.map.contains_key(narrow)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&Narrow, &NarrowView)> {
        self.map.iter()
    }
    pub fn narrows(&self) -> impl Iterator<Item = &Narrow> {
        self.map.keys()
    }
    /// How many message IDs the views hold together.
    pub fn held(&self) -> usize {
        self.map.values().map(|v| v.ids.len()).sum()
    }
    /// The epoch of a narrow's window (0: none).
    pub fn epoch(&self, narrow: &Narrow) -> u64 {
        self.map.get(narrow).map_or(0, |v| v.epoch)
    }

    /// A new epoch, for a window or anything else that must drop answers asked for before.
    pub fn next_epoch(&mut self) -> u64 {
        self.epochs += 1;
        self.epochs
    }

    /// A fresh, loading window for `narrow` (replacing any); returns its epoch.
    pub fn open(&mut self, narrow: &Narrow) -> u64 {
        let epoch = self.next_epoch();
        self.open_at(narrow, epoch);
        epoch
    }

    /// A fresh, loading window for `narrow` with an epoch handed out before (a first page
    /// asked for before register).
    pub fn open_at(&mut self, narrow: &Narrow, epoch: u64) {
        let view = NarrowView { loading_newer: true, epoch, ..Default::default() };
        self.map.insert(narrow.clone(), view);
    }

    /// The view of `narrow`, made empty if there is none (a page came for it).
    pub fn ensure(&mut self, narrow: &Narrow) -> &mut NarrowView {
        self.map.entry(narrow.clone()).or_default()
    }

    /// What is held of `narrow` shown while the server cannot be asked: provisional.
    pub fn fill_provisional(&mut self, narrow: &Narrow, mut ids: Vec<MessageId>) {
        ids.sort_unstable();
        ids.dedup();
        let view = self.ensure(narrow);
        view.ids = ids;
        view.provisional = true;
    }

    /// The view is let go of (loaded anew when opened); whether there was one.
    pub fn close(&mut self, narrow: &Narrow) -> bool {
        self.map.remove(narrow).is_some()
    }

    /// Every view is let go of (the last session's windows are shown instead).
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// The event queue was lost: windows still loading or empty are let go of, the others ask
    /// again for what they hold and what came after their newest, as a new epoch (pages asked
    /// for before are dropped). While the queue was gone the server deleted, moved and edited
    /// without a word: what each window shows stays, provisional, until the answer takes its
    /// place — as zulip-flutter reloads — so that nothing the server no longer has stays on
    /// screen. Returns each narrow with its newest message, how many it holds before that, and
    /// its epoch.
    pub fn resync(&mut self) -> Vec<(Narrow, MessageId, usize, u64)> {
        self.map.retain(|_, v| v.loaded && !v.ids.is_empty());
        let mut out = Vec::with_capacity(self.map.len());
        for (narrow, view) in self.map.iter_mut() {
            self.epochs += 1;
            view.loading_newer = true;
            view.loading_older = false;
            view.provisional = true;
            view.epoch = self.epochs;
            out.push((narrow.clone(), view.ids[view.ids.len() - 1], view.ids.len() - 1, view.epoch));
        }
        out
    }

    /// A new message stored: it joins the views of `narrows`.
    pub fn on_message(&mut self, id: MessageId, narrows: &[Narrow]) {
        for n in narrows {
            if let Some(v) = self.map.get_mut(n) {
                v.merge([id]);
            }
        }
    }

    /// A message deleted: it leaves every view.
    pub fn on_delete(&mut self, id: MessageId) {
        for v in self.map.values_mut() {
            v.remove(id);
        }
    }

    /// Messages moved: every view but searches and the flag lists lets go of those no longer in
    /// it and takes those now in it where its window covers their place — the conversation on
    /// screen too, which a move into it must never leave without them. `belongs(narrow, id)`:
    /// message `id` is held and belongs in that narrow's view now. Moved messages not held
    /// (`missing`) cannot be taken: a view whose window covers their place and that they land
    /// in (`lands(narrow)`) is loaded anew when next opened — or, the one on screen (`shown`),
    /// asked again now, keeping what it shows meanwhile: its new epoch is returned.
    pub fn on_move(
        &mut self,
        ids: &[MessageId],
        missing: &[MessageId],
        belongs: impl Fn(&Narrow, MessageId) -> bool,
        lands: impl Fn(&Narrow) -> bool,
        shown: &Narrow,
    ) -> Option<u64> {
        let mut ask = false;
        for (n, view) in self.map.iter_mut() {
            if matches!(n, Narrow::Search { .. } | Narrow::Starred | Narrow::Mentions) {
                continue;
            }
            view.ids.retain(|id| !ids.contains(id) || belongs(n, *id));
            let joined: Vec<MessageId> =
                ids.iter().copied().filter(|id| view.covers(*id) && belongs(n, *id)).collect();
            view.merge(joined);
            if missing.iter().any(|id| view.covers(*id)) && lands(n) {
                if n == shown {
                    ask = true;
                } else {
                    view.stale();
                }
            }
        }
        if ask { self.ask_again(shown) } else { None }
    }

    /// The window of `narrow` is asked for again: what it shows stays, provisional, until the
    /// answer takes its place (no gap: the window is then what the answer covers). A new epoch
    /// (pages asked for before are dropped), returned; `None` without a window.
    pub fn ask_again(&mut self, narrow: &Narrow) -> Option<u64> {
        let view = self.map.get_mut(narrow)?;
        self.epochs += 1;
        view.epoch = self.epochs;
        view.provisional = true;
        view.found_oldest = false;
        view.found_newest = false;
        view.loading_newer = true;
        view.loading_older = false;
        Some(self.epochs)
    }

    /// A page of `narrow` arrived after events touched messages (`app::told`): what they said
    /// wins over it. Each message told of leaves the window unless it is held and belongs
    /// there (`belongs`), and joins it where the window now covers its place and it does.
    /// Searches keep their matches: only what was deleted leaves them.
    pub fn after_page(
        &mut self,
        narrow: &Narrow,
        told: impl Iterator<Item = MessageId>,
        held: impl Fn(MessageId) -> bool,
        belongs: impl Fn(MessageId) -> bool,
    ) {
        let Some(view) = self.map.get_mut(narrow) else { return };
        let search = matches!(narrow, Narrow::Search { .. });
        for id in told {
            if !held(id) || (!search && !belongs(id)) {
                view.remove(id);
            } else if !search && view.covers(id) {
                view.merge([id]);
            }
        }
    }

    /// The shown window is cut to `keep` messages around `selected` (the bound on messages
    /// held); pages asked for before were anchored on what is gone, so it takes a new epoch.
    pub fn trim(&mut self, narrow: &Narrow, selected: Option<MessageId>, keep: usize) {
        let Some(v) = self.map.get_mut(narrow) else { return };
        if v.ids.len() <= keep {
            return;
        }
        let at = selected.and_then(|id| v.ids.binary_search(&id).ok()).unwrap_or(v.ids.len() - 1);
        let start = at.saturating_sub(keep / 2).min(v.ids.len() - keep);
        let end = start + keep;
        if start > 0 {
            v.found_oldest = false;
        }
        if end < v.ids.len() || v.loading_newer {
            v.found_newest = false;
        }
        v.ids = v.ids[start..end].to_vec();
        v.loading_newer = false;
        v.loading_older = false;
        self.epochs += 1;
        v.epoch = self.epochs;
    }

    /// Messages let go of by the store: their search matches go too.
    pub fn forget_matches(&mut self, kept: &HashSet<MessageId>) {
        for v in self.map.values_mut() {
            v.matches.retain(|id, _| kept.contains(id));
        }
    }

    /// What must hold of the views: each window's IDs sorted and unique, and no epoch beyond
    /// the last handed out.
    pub fn check(&self) -> Result<(), String> {
        for (narrow, view) in &self.map {
            if !view.ids.is_sorted() {
                return Err(format!("the view of {narrow:?} is out of order"));
            }
            if view.ids.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("the view of {narrow:?} holds a message twice"));
            }
            if view.epoch > self.epochs {
                return Err(format!("the view of {narrow:?} has an epoch never handed out"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(ids: &[MessageId], found_oldest: bool, found_newest: bool) -> Page {
        Page { covered: ids.to_vec(), shown: ids.to_vec(), found_oldest, found_newest, ..Default::default() }
    }

    /// A loaded window of channel 1 holding `ids`, with the given ends found.
    fn loaded(ids: &[MessageId], found_oldest: bool, found_newest: bool) -> (Views, Narrow) {
        let mut v = Views::default();
        let n = Narrow::Channel(1);
        v.open(&n);
        v.get_mut(&n).unwrap().page_arrived(false, page(ids, found_oldest, found_newest));
        v.check().unwrap();
        (v, n)
    }

    #[test]
    fn opening_hands_out_a_new_epoch_each_time_and_starts_loading() {
        let mut v = Views::default();
        let n = Narrow::All;
        let a = v.open(&n);
        assert!(v[&n].is_loading_newer() && !v[&n].is_loaded() && v[&n].ids().is_empty());
        let b = v.open(&n);
        assert!(b > a && v.epoch(&n) == b);
        assert!(v.next_epoch() > b, "an epoch handed out for anything else is new too");
        assert_eq!(v.epoch(&Narrow::Starred), 0, "no window: 0");
        v.open_at(&Narrow::Starred, 2);
        assert_eq!(v.epoch(&Narrow::Starred), 2);
        v.check().unwrap();
    }

    #[test]
    fn a_first_page_loads_the_window_and_replaces_what_was_shown_provisionally() {
        let mut v = Views::default();
        let n = Narrow::Channel(1);
        v.fill_provisional(&n, vec![9, 3, 5]);
        assert_eq!(v[&n].ids(), [3, 5, 9], "sorted");
        assert!(v[&n].is_provisional() && !v[&n].is_loaded());
        let mut p = page(&[5, 7], false, true);
        p.matches.push((7, SearchMatch { content: Some("x".into()), subject: None }));
        v.ensure(&n).page_arrived(false, p);
        let w = &v[&n];
        assert_eq!(w.ids(), [5, 7], "the page replaces what was held");
        assert!(w.is_loaded() && !w.is_provisional() && w.found_newest() && !w.found_oldest());
        assert_eq!(w.matched(7).and_then(|m| m.content.as_deref()), Some("x"));
        assert!(w.matched(5).is_none());
        v.check().unwrap();
    }

    #[test]
    fn a_page_is_the_truth_for_the_range_it_covers() {
        let (mut v, n) = loaded(&[10, 20, 30, 40], false, false);
        // 20 was deleted meanwhile; 25 is new; the combined feed would show only some.
        v.get_mut(&n)
            .unwrap()
            .page_arrived(false, Page { covered: vec![10, 25, 30], shown: vec![25], ..Default::default() });
        assert_eq!(v[&n].ids(), [10, 25, 30, 40], "what the range no longer has goes, what is outside stays");
        v.get_mut(&n).unwrap().page_arrived(true, page(&[1, 2], true, false));
        let w = &v[&n];
        assert_eq!(w.ids(), [1, 2, 10, 25, 30, 40]);
        assert!(w.found_oldest() && !w.is_loading_older());
    }

    #[test]
    fn a_failed_newer_page_of_a_loaded_window_is_retried_on_screen_and_dropped_off_it() {
        let (mut v, n) = loaded(&[1, 2], true, true);
        let w = v.get_mut(&n).unwrap();
        assert_eq!(w.page_failed(false, true, true, 100, |f| f as i64 * 10), Failed::Retry(10));
        assert!(!w.found_newest() && w.catch_up_at() == Some(110) && w.catch_up_failures() == 1);
        assert_eq!(w.page_failed(false, true, true, 200, |f| f as i64 * 10), Failed::Retry(20));
        assert_eq!(w.catch_up_at(), Some(220));
        assert_eq!(w.page_failed(false, true, false, 300, |_| 1), Failed::Nothing, "refused: not retried");
        assert_eq!(w.page_failed(true, true, true, 300, |_| 1), Failed::Nothing, "an older page: nothing");
        assert_eq!(w.page_failed(false, false, true, 300, |_| 1), Failed::Dropped, "not shown: dropped");
        w.caught_up();
        assert!(w.catch_up_at().is_none() && w.catch_up_failures() == 0);
        let mut fresh = Views::default();
        fresh.open(&n);
        let f = fresh.get_mut(&n).unwrap();
        assert_eq!(f.page_failed(false, false, true, 1, |_| 1), Failed::Nothing, "not loaded nor shown");
        assert!(!f.is_loading_newer() && f.catch_up_at().is_none());
        assert_eq!(f.page_failed(false, true, false, 1, |_| 1), Failed::Nothing, "refused: not retried");
        assert_eq!(
            f.page_failed(false, true, true, 1, |_| 5),
            Failed::Retry(5),
            "shown: its first page again"
        );
        assert_eq!(f.catch_up_due(5), None, "not yet");
        assert_eq!(f.catch_up_due(6), Some(CatchUp::FirstPage));
        assert!(f.is_loading_newer() && f.catch_up_at().is_none());
    }

    #[test]
    fn catching_up_asks_from_the_newest_once_the_wait_is_over() {
        let (mut v, n) = loaded(&[1, 2], true, true);
        let w = v.get_mut(&n).unwrap();
        w.page_failed(false, true, true, 100, |_| 10);
        assert_eq!(w.catch_up_due(105), None, "not yet");
        assert_eq!(w.catch_up_due(110), Some(CatchUp::After(2)));
        assert!(w.is_loading_newer() && w.catch_up_at().is_none());
        assert_eq!(w.catch_up_due(500), None, "asked once");
    }

    #[test]
    fn moving_the_selection_near_an_open_end_asks_for_a_page_once() {
        let ids: Vec<MessageId> = (1..=20).collect();
        let (mut v, n) = loaded(&ids, false, false);
        let w = v.get_mut(&n).unwrap();
        let epoch = w.epoch();
        assert_eq!(
            w.selection_moved(10),
            Some(Wanted { newer: false, older: false, first: 1, last: 20, epoch })
        );
        assert_eq!(
            w.selection_moved(17),
            Some(Wanted { newer: true, older: false, first: 1, last: 20, epoch })
        );
        assert!(w.is_loading_newer());
        assert!(!w.selection_moved(18).unwrap().newer, "already asked");
        assert!(w.selection_moved(2).unwrap().older && w.is_loading_older());
        let mut empty = Views::default();
        empty.open(&n);
        assert_eq!(empty.get_mut(&n).unwrap().selection_moved(0), None);
    }

    #[test]
    fn the_archive_shows_its_messages_until_the_server_answers() {
        let mut v = Views::default();
        let n = Narrow::Channel(1);
        v.open(&n);
        let w = v.get_mut(&n).unwrap();
        assert!(!w.archive_shown(vec![], false), "nothing, online: Loading… until the server answers");
        assert!(w.archive_shown(vec![4, 2], false));
        assert_eq!((w.ids(), w.local(), w.is_provisional()), (&[2, 4][..], Some(Local::Asking), true));
        w.archive_alone(false);
        assert_eq!(w.local(), Some(Local::Refused));
        w.archive_alone(true);
        assert_eq!(w.local(), Some(Local::Offline));
        w.page_arrived(false, page(&[2], false, true));
        assert_eq!((w.ids(), w.local()), (&[2][..], None), "the server's page takes their place");
        w.archive_alone(true);
        assert_eq!(w.local(), None, "loaded: nothing to say");
        let mut off = Views::default();
        off.open(&n);
        let w = off.get_mut(&n).unwrap();
        w.not_asked();
        assert!(w.archive_shown(vec![], true) && w.local() == Some(Local::Offline));
    }

    #[test]
    fn messages_stored_join_the_views_named_and_deleted_ones_leave_every_view() {
        let (mut v, n) = loaded(&[1, 3], true, true);
        v.open(&Narrow::All);
        v.get_mut(&Narrow::All).unwrap().page_arrived(false, page(&[1, 3], true, true));
        v.on_message(2, std::slice::from_ref(&n));
        assert_eq!(v[&n].ids(), [1, 2, 3]);
        assert_eq!(v[&Narrow::All].ids(), [1, 3], "not named: not joined");
        v.on_delete(3);
        assert_eq!((v[&n].ids(), v[&Narrow::All].ids()), (&[1, 2][..], &[1][..]));
        v.check().unwrap();
    }

    #[test]
    fn a_move_moves_messages_where_windows_cover_them_conversations_too() {
        let (mut v, chan) = loaded(&[10, 20], false, true);
        let other = Narrow::Channel(2);
        v.open(&other);
        v.get_mut(&other).unwrap().page_arrived(false, page(&[15, 30], false, true));
        let topic = Narrow::Topic(2, "t".into());
        v.open(&topic);
        v.get_mut(&topic).unwrap().page_arrived(false, page(&[], true, true));
        v.open(&Narrow::Starred);
        v.get_mut(&Narrow::Starred).unwrap().page_arrived(false, page(&[20], true, true));
        // 20 moved from channel 1 to channel 2's topic t; 5 (above channel 2's window) too.
        let now_in_2 = [20, 5];
        let asked = v.on_move(
            &[20, 5],
            &[],
            |n, id| match n {
                Narrow::Channel(2) | Narrow::Topic(2, _) => now_in_2.contains(&id),
                Narrow::Starred => true,
                _ => false,
            },
            |_| true,
            &topic,
        );
        assert_eq!(asked, None, "every moved message is held: nothing to ask");
        assert_eq!(v[&topic].ids(), [5, 20], "the conversation moved into takes them");
        assert_eq!(v[&chan].ids(), [10]);
        assert_eq!(v[&other].ids(), [15, 20, 30], "5 is above what the window covers");
        assert_eq!(v[&Narrow::Starred].ids(), [20], "the flag lists are left alone");
        v.check().unwrap();
    }

    #[test]
    fn messages_not_held_moved_into_a_window_ask_it_again_on_screen_and_stale_it_elsewhere() {
        let (mut v, shown) = loaded(&[10, 20], true, true);
        let other = Narrow::Topic(1, "elsewhere".into());
        v.open(&other);
        v.get_mut(&other).unwrap().page_arrived(false, page(&[12], true, true));
        let before = v.epoch(&shown);
        // 15 is not held: the event says it came to both narrows.
        let asked = v.on_move(&[15], &[15], |_, _| false, |_| true, &shown);
        let epoch = asked.expect("the view on screen is asked again");
        assert!(epoch > before && v.epoch(&shown) == epoch);
        assert_eq!(v[&shown].ids(), [10, 20], "what it shows stays until the answer");
        assert!(v[&shown].is_loading_newer() && v[&shown].is_provisional());
        assert!(!v[&other].is_loaded(), "the other is loaded anew when opened");
        // Landing elsewhere asks nothing.
        let (mut v, shown) = loaded(&[10, 20], true, true);
        assert_eq!(v.on_move(&[15], &[15], |_, _| false, |_| false, &shown), None);
        v.check().unwrap();
    }

    #[test]
    fn what_events_told_wins_over_a_page_asked_before_them() {
        let (mut v, n) = loaded(&[], true, true);
        // A page computed before 3 moved in and 4 was deleted: it holds 1, 2 and 4.
        v.get_mut(&n).unwrap().page_arrived(false, page(&[1, 2, 4], true, true));
        let held = |id| id != 4;
        let belongs = |id| id != 2;
        v.after_page(&n, [3, 4, 2].into_iter(), held, belongs);
        assert_eq!(v[&n].ids(), [1, 3], "3 joins, 4 (deleted) and 2 (moved away) leave");
        // A search keeps its matches but loses what was deleted.
        let search = Narrow::Search { query: "x".into(), terms: vec![] };
        v.open(&search);
        v.get_mut(&search).unwrap().page_arrived(false, page(&[2, 4], true, true));
        v.after_page(&search, [2, 3, 4].into_iter(), held, belongs);
        assert_eq!(v[&search].ids(), [2]);
        v.check().unwrap();
    }

    #[test]
    fn messages_that_left_a_narrow_leave_its_window_and_a_stale_one_loads_anew() {
        let (mut v, n) = loaded(&[1, 2, 3], true, true);
        let w = v.get_mut(&n).unwrap();
        w.keep_only(|id| id % 2 == 1);
        assert_eq!(w.ids(), [1, 3]);
        assert!(w.contains(3) && !w.contains(2));
        assert!(w.covers(2) && w.covers(100), "both ends found");
        w.stale();
        assert!(!w.is_loaded() && !w.covers(2));
    }

    #[test]
    fn resync_lets_go_of_empty_and_loading_windows_and_asks_the_rest_from_their_newest() {
        let (mut v, n) = loaded(&[4, 8], true, true);
        let before = v.epoch(&n);
        v.open(&Narrow::All);
        v.open(&Narrow::Starred);
        v.get_mut(&Narrow::Starred).unwrap().page_arrived(false, page(&[], true, true));
        let asked = v.resync();
        assert_eq!(asked.len(), 1);
        let (narrow, newest, held, epoch) = &asked[0];
        assert_eq!((narrow, *newest, *held), (&n, 8, 1), "its newest, and how many before it");
        assert!(*epoch > before && v.epoch(&n) == *epoch);
        assert!(v[&n].is_loading_newer() && !v.contains(&Narrow::All) && !v.contains(&Narrow::Starred));
        assert_eq!((v[&n].ids(), v[&n].is_provisional()), (&[4, 8][..], true), "shown until the answer");
        v.check().unwrap();
        // The answer takes the window's place: what the server no longer has leaves it, beyond
        // the ends the answer reached too.
        v.get_mut(&n).unwrap().page_arrived(false, page(&[4], true, true));
        assert_eq!((v[&n].ids(), v[&n].is_provisional()), (&[4][..], false));
        v.check().unwrap();
    }

    #[test]
    fn trimming_keeps_the_messages_around_the_selection_as_a_new_epoch() {
        let ids: Vec<MessageId> = (1..=10).collect();
        let (mut v, n) = loaded(&ids, true, true);
        let before = v.epoch(&n);
        v.trim(&n, Some(5), 4);
        let w = &v[&n];
        assert_eq!(w.ids(), [3, 4, 5, 6]);
        assert!(!w.found_oldest() && !w.found_newest() && w.epoch() > before);
        let e = w.epoch();
        v.trim(&n, Some(5), 4);
        assert_eq!(v.epoch(&n), e, "nothing to cut: same epoch");
        assert_eq!(v.held(), 4);
        v.check().unwrap();
    }

    #[test]
    fn matches_of_messages_let_go_of_are_forgotten_and_views_close() {
        let mut v = Views::default();
        let n = Narrow::Channel(1);
        v.open(&n);
        let mut p = page(&[1, 2], true, true);
        p.matches = vec![(1, SearchMatch::default()), (2, SearchMatch::default())];
        v.get_mut(&n).unwrap().page_arrived(false, p);
        v.forget_matches(&HashSet::from([2]));
        assert!(v[&n].matched(1).is_none() && v[&n].matched(2).is_some());
        assert!(v.close(&n) && !v.close(&n));
        v.open(&Narrow::All);
        v.clear();
        assert_eq!(v.iter().count(), 0);
    }

    #[test]
    fn check_finds_a_window_out_of_order_or_holding_a_message_twice() {
        let (mut v, n) = loaded(&[1, 2], true, true);
        v.map.get_mut(&n).unwrap().ids = vec![2, 1];
        assert!(v.check().unwrap_err().contains("out of order"));
        v.map.get_mut(&n).unwrap().ids = vec![1, 1];
        assert!(v.check().unwrap_err().contains("twice"));
        v.map.get_mut(&n).unwrap().ids = vec![1];
        v.map.get_mut(&n).unwrap().epoch = 99;
        assert!(v.check().unwrap_err().contains("epoch"));
    }
}
