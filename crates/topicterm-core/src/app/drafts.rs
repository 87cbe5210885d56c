//! The one owner of drafts: the text typed into each conversation's compose box (mirroring the
//! drafts on disk), what is known of the server's copies (`/drafts`), deletions the server has
//! not confirmed, and creates whose answer was lost.
//!
//! The local drafts stay the source of truth for what is typed here: every local save
//! (`Effect::SaveDraft` of a conversation's draft) is followed by a push to the server — at most
//! every few seconds while typing, at once when the compose box closes — and a sent or emptied
//! draft is deleted there. Drafts written in other clients arrive with register and as `drafts`
//! events and fill in conversations that have no local draft; a draft being edited here is never
//! overwritten from outside (`editing`: the key the compose box is typing in, which every method
//! that could overwrite is told). A deletion is remembered on disk until the server confirms it,
//! so a sent draft whose deletion failed (a lost connection, a crash) does not come back from the
//! server into the compose box at the next start.
//!
//! Its fields are private; it is changed only through its methods, which return the effects that
//! follow (saves to disk, pushes and deletes on the server); `check` says what must hold of it.
//! A leaf: it names no `State`.

use super::effect::Effect;
use super::narrow::dm_key;
use super::outgoing::Target;
use crate::api::{ApiError, Draft, DraftType, DraftsEvent, UserId};
use std::collections::{HashMap, HashSet};

/// Seconds between pushes of a draft that is still being typed.
pub const PUSH_EVERY: i64 = 5;

/// The drafts of one account.
#[derive(Debug, Default)]
pub struct Drafts {
    /// Unsent compose text by draft key (mirrors the drafts on disk).
    typed: HashMap<String, String>,
    /// What this client knows of the server's drafts, when it keeps them for this user.
    server: Option<ServerDrafts>,
    /// Server drafts deleted here (sent or emptied) whose deletion the server has not confirmed:
    /// kept on disk until it has ([`gone_key`]), never taken back from the server.
    gone: HashSet<i64>,
    /// Server draft creates whose answer was lost (they may have been made): key → the content
    /// sent, kept on disk too ([`unconfirmed_key`]). The draft that turns up with that content is
    /// ours; if its text was sent or emptied since, it is deleted instead of filling the
    /// conversation's draft again.
    unconfirmed: HashMap<String, String>,
}

/// What this client knows of the server's drafts.
#[derive(Debug, Clone, Default, PartialEq)]
struct ServerDrafts {
    /// Draft key → the server's draft ID and content.
    by_key: HashMap<String, (i64, String)>,
    /// Where each known conversation's draft goes (keys are lowercased; targets are not).
    targets: HashMap<String, Target>,
    /// When each key was last pushed.
    last_push: HashMap<String, i64>,
    /// Keys with a create in flight (a second create would make a duplicate).
    creating: HashSet<String>,
    /// Keys whose latest text has not been pushed yet.
    dirty: HashSet<String>,
}

/// The local draft key of a server draft (`None`: not addressed; kept on the server only).
pub fn key_of(d: &Draft, me: UserId) -> Option<(String, Target)> {
    let target = match d.kind {
        DraftType::Stream => Target::Channel { id: *d.to.first()?, topic: d.topic.clone() },
        DraftType::Private => Target::Dm(dm_key(&d.to, me)),
        _ => return None,
    };
    Some((target.key(), target))
}

/// The disk key that remembers a server draft deleted here until the server confirms it.
pub fn gone_key(id: i64) -> String {
    format!("gone-draft-{id}")
}

/// The disk key that remembers a create whose answer was lost.
pub fn unconfirmed_key(key: &str) -> String {
    format!("unconfirmed-draft-{key}")
}

/// The server draft ID of a [`gone_key`].
pub fn gone_id(key: &str) -> Option<i64> {
    key.strip_prefix("gone-draft-")?.parse().ok()
}

fn is_conversation_key(key: &str) -> bool {
    key.starts_with("channel-") || key.starts_with("dm-")
}

fn draft_for(target: &Target, text: &str, me: UserId) -> Draft {
    match target {
        Target::Channel { id, topic } => Draft::channel(*id, topic, text),
        Target::Dm(users) if users.is_empty() => Draft::direct(vec![me], text),
        Target::Dm(users) => Draft::direct(users.clone(), text),
    }
}

fn empty(text: Option<&String>) -> bool {
    text.is_none_or(|t| t.trim().is_empty())
}

impl Drafts {
    /// The text typed for `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.typed.get(key)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.typed.contains_key(key)
    }

    /// Every typed draft's text.
    pub fn values(&self) -> impl Iterator<Item = &String> {
        self.typed.values()
    }

    /// Each conversation's draft that holds text, by key (typed here, or the server's filling a
    /// conversation that had none here).
    pub fn conversations(&self) -> Vec<(&str, &str)> {
        let mut all: Vec<(&str, &str)> = self
            .typed
            .iter()
            .filter(|(k, t)| is_conversation_key(k) && !t.trim().is_empty())
            .map(|(k, t)| (k.as_str(), t.as_str()))
            .collect();
        all.sort();
        all
    }

    /// Where the server's draft of `key` goes, as it said it (its topic's own case).
    pub fn server_target(&self, key: &str) -> Option<&Target> {
        self.server.as_ref()?.targets.get(key)
    }

    /// How many drafts are typed.
    pub fn len(&self) -> usize {
        self.typed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.typed.is_empty()
    }

    /// Text typed (or put back) for `key`; its save and push follow from the `SaveDraft` effect
    /// the caller returns ([`Drafts::follow`]).
    pub fn insert(&mut self, key: String, text: String) {
        self.typed.insert(key, text);
    }

    /// The draft of `key` is sent or emptied.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.typed.remove(key)
    }

    /// The server keeps drafts for this user (register said so).
    pub fn synced(&self) -> bool {
        self.server.is_some()
    }

    /// The server's copy of `key`'s draft: its ID and content.
    pub fn server_copy(&self, key: &str) -> Option<(i64, &str)> {
        self.server.as_ref()?.by_key.get(key).map(|(id, c)| (*id, c.as_str()))
    }

    /// A deletion of this server draft is not yet confirmed.
    pub fn is_gone(&self, id: i64) -> bool {
        self.gone.contains(&id)
    }

    /// No deletion waits for the server's word.
    pub fn none_gone(&self) -> bool {
        self.gone.is_empty()
    }

    /// Register: take the server's drafts (when it keeps them for this user: `enabled`).
    pub fn on_register(
        &mut self,
        drafts: Option<Vec<Draft>>,
        enabled: bool,
        me: UserId,
        editing: Option<&str>,
    ) -> Vec<Effect> {
        let Some(drafts) = drafts.filter(|_| enabled) else {
            self.server = None;
            return vec![];
        };
        let mut sd = ServerDrafts::default();
        let fx = drafts.into_iter().flat_map(|d| self.add(&mut sd, d, me, editing)).collect();
        self.server = Some(sd);
        fx
    }

    /// Record a server draft; fill the local draft of its conversation if there is none. One
    /// this client made without hearing back, whose text has been sent or emptied since, is
    /// deleted.
    fn add(&mut self, sd: &mut ServerDrafts, d: Draft, me: UserId, editing: Option<&str>) -> Vec<Effect> {
        let (Some(id), Some((key, target))) = (d.id, key_of(&d, me)) else { return vec![] };
        if self.gone.contains(&id) {
            return vec![];
        }
        let typing_here = editing == Some(key.as_str());
        // Ours, by its content (a create whose answer was lost) or by a create still on its way
        // (its event can come before its answer).
        let unconfirmed = self.unconfirmed.get(&key) == Some(&d.content);
        if unconfirmed || sd.creating.contains(&key) {
            let mut fx = Vec::new();
            if unconfirmed {
                self.unconfirmed.remove(&key);
                fx.push(Effect::SaveDraft { key: unconfirmed_key(&key), text: String::new() });
            }
            if !typing_here && empty(self.typed.get(&key)) {
                self.gone.insert(id);
                fx.push(Effect::SaveDraft { key: gone_key(id), text: id.to_string() });
                fx.push(Effect::DeleteServerDraft(id));
                return fx;
            }
            sd.by_key.insert(key.clone(), (id, d.content.clone()));
            sd.targets.entry(key).or_insert(target);
            return fx;
        }
        sd.by_key.insert(key.clone(), (id, d.content.clone()));
        sd.targets.entry(key.clone()).or_insert(target);
        if !typing_here && !d.content.trim().is_empty() {
            self.typed.insert(key, d.content);
        }
        vec![]
    }

    /// A `drafts` event.
    pub fn on_event(&mut self, ev: DraftsEvent, me: UserId, editing: Option<&str>) -> Vec<Effect> {
        let Some(mut sd) = self.server.take() else { return vec![] };
        let mut fx = Vec::new();
        match ev {
            DraftsEvent::Add(list) => {
                for d in list {
                    fx.extend(self.add(&mut sd, d, me, editing));
                }
            }
            DraftsEvent::Update(d) => fx.extend(self.add(&mut sd, d, me, editing)),
            DraftsEvent::Remove(id) => {
                if let Some(key) = sd.by_key.iter().find(|(_, (i, _))| *i == id).map(|(k, _)| k.clone()) {
                    let (_, content) = sd.by_key.remove(&key).unwrap_or_default();
                    // Sent or discarded elsewhere: drop ours too unless it says something else.
                    let typing_here = editing == Some(key.as_str());
                    if !typing_here && self.typed.get(&key).is_some_and(|t| t.trim() == content.trim()) {
                        self.typed.remove(&key);
                        fx.push(Effect::SaveDraft { key, text: String::new() });
                    }
                }
            }
        }
        self.server = Some(sd);
        fx
    }

    /// The answer to a push: remember the new draft's ID, or why it failed.
    pub fn on_pushed(
        &mut self,
        key: String,
        content: String,
        result: Result<i64, ApiError>,
        editing: Option<&str>,
    ) -> Vec<Effect> {
        let typing_here = editing == Some(key.as_str());
        let dropped = !typing_here && empty(self.typed.get(&key));
        let Some(sd) = self.server.as_mut() else { return vec![] };
        let was_create = sd.creating.remove(&key);
        match result {
            // Already deleted when its event came first.
            Ok(id) if self.gone.contains(&id) => {}
            // Sent or emptied while the draft was being created there: delete it at once.
            Ok(id) if dropped && !sd.by_key.contains_key(&key) => {
                self.gone.insert(id);
                return vec![
                    Effect::SaveDraft { key: gone_key(id), text: id.to_string() },
                    Effect::DeleteServerDraft(id),
                ];
            }
            Ok(id) => {
                sd.by_key.entry(key).or_insert((id, content));
            }
            Err(e) => {
                tracing::warn!("draft not saved on the server: {e}");
                if was_create && e.may_have_arrived() {
                    self.unconfirmed.insert(key.clone(), content.clone());
                    return vec![Effect::SaveDraft { key: unconfirmed_key(&key), text: content }];
                }
            }
        }
        vec![]
    }

    /// Follow local draft saves in `fx` with server pushes and deletes (after every `update`).
    /// `compose`: the key and target the compose box is typing in.
    pub fn follow(&mut self, fx: &mut Vec<Effect>, compose: Option<(String, Target)>, me: UserId, now: i64) {
        let Some(sd) = self.server.as_mut() else { return };
        let saves: Vec<(String, String)> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::SaveDraft { key, text } if is_conversation_key(key) => {
                    Some((key.clone(), text.clone()))
                }
                _ => None,
            })
            .collect();
        let typing = compose.as_ref().map(|(k, _)| k.clone());
        if let Some((k, t)) = compose {
            sd.targets.entry(k).or_insert(t);
        }
        for (key, text) in saves {
            if text.trim().is_empty() {
                sd.dirty.remove(&key);
                if let Some((id, _)) = sd.by_key.remove(&key) {
                    self.gone.insert(id);
                    // On disk right after the draft's own removal, before anything written after
                    // it (a sent message's outbox file): a crash in between cannot bring the
                    // draft back.
                    let at =
                        fx.iter().position(|e| matches!(e, Effect::SaveDraft { key: k, .. } if *k == key));
                    let remember = Effect::SaveDraft { key: gone_key(id), text: id.to_string() };
                    match at {
                        Some(i) => fx.insert(i + 1, remember),
                        None => fx.push(remember),
                    }
                    fx.push(Effect::DeleteServerDraft(id));
                }
                continue;
            }
            // Still typing: not more often than every few seconds (the tick pushes the rest).
            let still_typing = typing.as_deref() == Some(key.as_str());
            let recent = sd.last_push.get(&key).is_some_and(|t| now - t < PUSH_EVERY);
            if (still_typing && recent) || sd.creating.contains(&key) {
                sd.dirty.insert(key);
                continue;
            }
            if let Some(e) = push(sd, &key, &text, me, now) {
                fx.push(e);
            }
        }
    }

    /// On each tick: push drafts whose last change was held back.
    pub fn flush(&mut self, me: UserId, now: i64) -> Vec<Effect> {
        let Some(sd) = self.server.as_mut() else { return vec![] };
        if sd.dirty.is_empty() {
            return vec![];
        }
        let due: Vec<String> = sd
            .dirty
            .iter()
            .filter(|k| {
                !sd.creating.contains(*k) && sd.last_push.get(*k).is_none_or(|t| now - t >= PUSH_EVERY)
            })
            .cloned()
            .collect();
        let mut fx = Vec::new();
        for key in due {
            let text = self.typed.get(&key).cloned().unwrap_or_default();
            if text.trim().is_empty() {
                sd.dirty.remove(&key);
                continue;
            }
            fx.extend(push(sd, &key, &text, me, now));
        }
        fx
    }

    /// The server confirmed a deletion (or had no such draft): forget it.
    pub fn on_gone(&mut self, id: i64) -> Vec<Effect> {
        self.gone.remove(&id);
        vec![Effect::SaveDraft { key: gone_key(id), text: String::new() }]
    }

    /// Drafts found on disk at start-up: kept where nothing newer is typed, with what the server
    /// was not yet told. The outbox's unsent messages (`outbox-` keys) are handed back for the
    /// outbox to restore.
    pub fn on_loaded(
        &mut self,
        drafts: HashMap<String, String>,
        editing: Option<&str>,
    ) -> (Vec<Effect>, Vec<(String, String)>) {
        let (unsent, drafts): (Vec<_>, Vec<_>) =
            drafts.into_iter().partition(|(k, _)| k.starts_with("outbox-"));
        let (gone, drafts): (Vec<_>, Vec<_>) = drafts.into_iter().partition(|(k, _)| gone_id(k).is_some());
        let gone: Vec<i64> = gone.iter().filter_map(|(k, _)| gone_id(k)).collect();
        let (unconfirmed, drafts): (Vec<_>, Vec<_>) =
            drafts.into_iter().partition(|(k, _)| k.starts_with("unconfirmed-draft-"));
        let unconfirmed: Vec<(String, String)> = unconfirmed
            .into_iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("unconfirmed-draft-")?.to_owned(), v)))
            .collect();
        let on_disk: HashSet<String> = drafts.iter().map(|(k, _)| k.clone()).collect();
        for (k, v) in drafts {
            // What is on this machine wins over a copy from the server; text typed since
            // start-up wins over both.
            let from_server = self.server.as_ref().and_then(|sd| sd.by_key.get(&k)).map(|(_, c)| c);
            if self.typed.get(&k).is_none_or(|cur| Some(cur) == from_server) {
                self.typed.insert(k, v);
            }
        }
        let mut fx = self.on_gone_loaded(gone, editing);
        fx.extend(self.on_unconfirmed_loaded(unconfirmed, &on_disk));
        (fx, unsent)
    }

    /// Deletions of server drafts found on disk at start-up (the earlier run's were not
    /// confirmed): asked again, and a draft of theirs that register already put into a
    /// conversation taken out.
    fn on_gone_loaded(&mut self, ids: Vec<i64>, editing: Option<&str>) -> Vec<Effect> {
        let mut fx = Vec::new();
        for id in ids {
            self.gone.insert(id);
            fx.push(Effect::DeleteServerDraft(id));
            let Some(sd) = self.server.as_mut() else { continue };
            let Some(key) = sd.by_key.iter().find(|(_, (i, _))| *i == id).map(|(k, _)| k.clone()) else {
                continue;
            };
            let (_, content) = sd.by_key.remove(&key).unwrap_or_default();
            let typing_here = editing == Some(key.as_str());
            if !typing_here && self.typed.get(&key).is_some_and(|t| t.trim() == content.trim()) {
                self.typed.remove(&key);
            }
        }
        fx
    }

    /// Creates whose answer was lost in an earlier run, found on disk at start-up (`key` →
    /// content): remembered; one that register already put into a conversation whose draft is
    /// not on disk (its text was sent or emptied) is deleted. `on_disk`: the drafts the disk
    /// holds.
    fn on_unconfirmed_loaded(
        &mut self,
        found: Vec<(String, String)>,
        on_disk: &HashSet<String>,
    ) -> Vec<Effect> {
        let mut fx = Vec::new();
        for (key, content) in found {
            let from_server = self.server.as_ref().and_then(|sd| sd.by_key.get(&key)).cloned();
            match from_server {
                Some((id, text)) if text == content && !on_disk.contains(&key) => {
                    if let Some(sd) = self.server.as_mut() {
                        sd.by_key.remove(&key);
                    }
                    if self.typed.get(&key) == Some(&content) {
                        self.typed.remove(&key);
                    }
                    self.gone.insert(id);
                    fx.push(Effect::SaveDraft { key: unconfirmed_key(&key), text: String::new() });
                    fx.push(Effect::SaveDraft { key: gone_key(id), text: id.to_string() });
                    fx.push(Effect::DeleteServerDraft(id));
                }
                _ => {
                    self.unconfirmed.insert(key, content);
                }
            }
        }
        fx
    }

    /// A create of `key`'s draft is on its way (tests: the moment between a push and its answer).
    #[cfg(test)]
    pub fn creating(&mut self, key: &str) {
        if let Some(sd) = self.server.as_mut() {
            sd.creating.insert(key.to_owned());
        }
    }

    /// What must hold: no server draft is both held as a conversation's copy and deleted here, and
    /// no two conversations hold the same server draft.
    pub fn check(&self) -> Result<(), String> {
        let Some(sd) = &self.server else { return Ok(()) };
        let mut seen = HashMap::new();
        for (key, (id, _)) in &sd.by_key {
            if self.gone.contains(id) {
                return Err(format!("server draft {id} of {key} is held and deleted"));
            }
            if let Some(other) = seen.insert(*id, key) {
                return Err(format!("server draft {id} is held by {key} and {other}"));
            }
        }
        Ok(())
    }
}

fn push(sd: &mut ServerDrafts, key: &str, text: &str, me: UserId, now: i64) -> Option<Effect> {
    let target = sd.targets.get(key)?;
    let draft = draft_for(target, text, me);
    sd.dirty.remove(key);
    sd.last_push.insert(key.to_owned(), now);
    match sd.by_key.get_mut(key) {
        Some((id, content)) => {
            if content == text {
                return None;
            }
            *content = text.to_owned();
            Some(Effect::PushDraft { key: key.to_owned(), id: Some(*id), draft })
        }
        None => {
            sd.creating.insert(key.to_owned());
            Some(Effect::PushDraft { key: key.to_owned(), id: None, draft })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "channel-1-plans";

    fn synced(drafts: Vec<Draft>) -> Drafts {
        let mut d = Drafts::default();
        d.on_register(Some(drafts), true, 7, None);
        d
    }

    fn draft(id: i64, text: &str) -> Draft {
        let mut d = Draft::channel(1, "plans", text);
        d.id = Some(id);
        d
    }

    #[test]
    fn a_server_draft_fills_an_empty_conversation_but_never_the_one_being_typed() {
        let d = synced(vec![draft(5, "from the web")]);
        assert_eq!(d.get(KEY).map(String::as_str), Some("from the web"));
        assert_eq!(d.server_copy(KEY), Some((5, "from the web")));
        let mut d = Drafts::default();
        d.insert(KEY.into(), "typing".into());
        d.on_register(Some(vec![draft(5, "from the web")]), true, 7, Some(KEY));
        assert_eq!(d.get(KEY).map(String::as_str), Some("typing"));
        assert!(d.check().is_ok());
    }

    #[test]
    fn sync_off_keeps_nothing_of_the_server() {
        let mut d = Drafts::default();
        d.on_register(Some(vec![draft(5, "x")]), false, 7, None);
        assert!(!d.synced() && d.is_empty());
        let mut fx = vec![Effect::SaveDraft { key: KEY.into(), text: "local".into() }];
        d.follow(&mut fx, None, 7, 100);
        assert_eq!(fx.len(), 1, "nothing pushed: {fx:?}");
    }

    #[test]
    fn an_emptied_draft_is_deleted_on_the_server_and_remembered_until_confirmed() {
        let mut d = synced(vec![draft(5, "said")]);
        d.remove(KEY);
        let mut fx = vec![Effect::SaveDraft { key: KEY.into(), text: String::new() }];
        d.follow(&mut fx, None, 7, 100);
        assert_eq!(
            fx,
            vec![
                Effect::SaveDraft { key: KEY.into(), text: String::new() },
                Effect::SaveDraft { key: gone_key(5), text: "5".into() },
                Effect::DeleteServerDraft(5),
            ]
        );
        assert!(d.is_gone(5) && d.server_copy(KEY).is_none());
        assert!(d.check().is_ok());
        // The same draft coming back (a late event) is not taken.
        d.on_event(DraftsEvent::Add(vec![draft(5, "said")]), 7, None);
        assert!(d.get(KEY).is_none());
        assert_eq!(d.on_gone(5), vec![Effect::SaveDraft { key: gone_key(5), text: String::new() }]);
        assert!(d.none_gone());
    }

    #[test]
    fn typing_pushes_at_most_every_few_seconds_and_the_tick_pushes_the_rest() {
        let target = Target::Channel { id: 1, topic: "plans".into() };
        let mut d = synced(vec![draft(5, "one")]);
        let save = |t: &str| vec![Effect::SaveDraft { key: KEY.into(), text: t.into() }];
        d.insert(KEY.into(), "two".into());
        let mut fx = save("two");
        d.follow(&mut fx, Some((KEY.into(), target.clone())), 7, 100);
        assert!(matches!(fx.last(), Some(Effect::PushDraft { id: Some(5), .. })), "{fx:?}");
        d.insert(KEY.into(), "three".into());
        let mut fx = save("three");
        d.follow(&mut fx, Some((KEY.into(), target)), 7, 101);
        assert_eq!(fx.len(), 1, "held back: {fx:?}");
        assert!(d.flush(7, 103).is_empty(), "not yet");
        let fx = d.flush(7, 100 + PUSH_EVERY);
        assert!(
            matches!(&fx[..], [Effect::PushDraft { id: Some(5), draft, .. }] if draft.content == "three"),
            "{fx:?}"
        );
    }

    #[test]
    fn the_check_finds_a_draft_held_and_deleted() {
        let mut d = synced(vec![draft(5, "x")]);
        d.gone.insert(5);
        assert!(d.check().is_err());
    }
}
