//! Drafts kept on the server (`/drafts`), synchronised with the drafts on disk.
//!
//! The local drafts stay the source of truth for what is typed here: every local save
//! (`Effect::SaveDraft` of a conversation's draft) is followed by a push to the server — at most
//! every few seconds while typing, at once when the compose box closes — and a sent or emptied
//! draft is deleted there. Drafts written in other clients arrive with register and as `drafts`
//! events and fill in conversations that have no local draft; a draft being edited here is never
//! overwritten from outside. A deletion is remembered on disk until the server confirms it, so
//! a sent draft whose deletion failed (a lost connection, a crash) does not come back from the
//! server into the compose box at the next start.

use super::prelude::*;

use crate::app::narrow::dm_key;

/// Seconds between pushes of a draft that is still being typed.
pub const PUSH_EVERY: i64 = 5;

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

/// The disk key that remembers a create whose answer was lost (see `State::unconfirmed_drafts`).
pub fn unconfirmed_key(key: &str) -> String {
    format!("unconfirmed-draft-{key}")
}

/// Creates whose answer was lost in an earlier run, found on disk at start-up (`key` →
/// content): remembered; one that register already put into a conversation whose draft is not on
/// disk (its text was sent or emptied) is deleted. `on_disk` says which drafts the disk holds.
pub(super) fn on_unconfirmed_loaded(
    st: &mut State,
    found: Vec<(String, String)>,
    on_disk: &std::collections::HashSet<String>,
) -> Vec<Effect> {
    let mut fx = Vec::new();
    for (key, content) in found {
        let from_server = st.data.server_drafts.as_ref().and_then(|sd| sd.by_key.get(&key)).cloned();
        match from_server {
            Some((id, text)) if text == content && !on_disk.contains(&key) => {
                if let Some(sd) = st.data.server_drafts.as_mut() {
                    sd.by_key.remove(&key);
                }
                if st.drafts.get(&key) == Some(&content) {
                    st.drafts.remove(&key);
                }
                st.gone_drafts.insert(id);
                fx.push(Effect::SaveDraft { key: unconfirmed_key(&key), text: String::new() });
                fx.push(Effect::SaveDraft { key: gone_key(id), text: id.to_string() });
                fx.push(Effect::DeleteServerDraft(id));
            }
            _ => {
                st.unconfirmed_drafts.insert(key, content);
            }
        }
    }
    fx
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

/// The compose box's key being typed in right now, if any.
fn editing_key(st: &State) -> Option<String> {
    st.ui.compose.as_ref().filter(|c| c.editing.is_none() && c.scheduled.is_none()).map(Compose::draft_key)
}

/// Register: take the server's drafts (when it keeps them for this user).
pub(super) fn on_register(
    st: &mut State,
    drafts: Option<Vec<Draft>>,
    settings: Option<&UserSettings>,
) -> Vec<Effect> {
    let enabled = settings.and_then(|s| s.enable_drafts_synchronization).unwrap_or(true);
    let Some(drafts) = drafts.filter(|_| enabled) else {
        st.data.server_drafts = None;
        return vec![];
    };
    let mut sd = ServerDrafts::default();
    let fx = drafts.into_iter().flat_map(|d| add(st, &mut sd, d)).collect();
    st.data.server_drafts = Some(sd);
    fx
}

/// Record a server draft; fill the local draft of its conversation if there is none. One this
/// client made without hearing back, whose text has been sent or emptied since, is deleted.
fn add(st: &mut State, sd: &mut ServerDrafts, d: Draft) -> Vec<Effect> {
    let (Some(id), Some((key, target))) = (d.id, key_of(&d, st.data.me)) else { return vec![] };
    if st.gone_drafts.contains(&id) {
        return vec![];
    }
    let typing_here = editing_key(st).as_deref() == Some(key.as_str());
    // Ours, by its content (a create whose answer was lost) or by a create still on its way
    // (its event can come before its answer).
    let unconfirmed = st.unconfirmed_drafts.get(&key) == Some(&d.content);
    if unconfirmed || sd.creating.contains(&key) {
        let mut fx = Vec::new();
        if unconfirmed {
            st.unconfirmed_drafts.remove(&key);
            fx.push(Effect::SaveDraft { key: unconfirmed_key(&key), text: String::new() });
        }
        if !typing_here && st.drafts.get(&key).is_none_or(|t| t.trim().is_empty()) {
            st.gone_drafts.insert(id);
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
        st.drafts.insert(key, d.content);
    }
    vec![]
}

/// A `drafts` event.
pub(super) fn on_event(st: &mut State, ev: DraftsEvent) -> Vec<Effect> {
    let Some(mut sd) = st.data.server_drafts.take() else { return vec![] };
    let mut fx = Vec::new();
    match ev {
        DraftsEvent::Add(list) => {
            for d in list {
                fx.extend(add(st, &mut sd, d));
            }
        }
        DraftsEvent::Update(d) => fx.extend(add(st, &mut sd, d)),
        DraftsEvent::Remove(id) => {
            if let Some(key) = sd.by_key.iter().find(|(_, (i, _))| *i == id).map(|(k, _)| k.clone()) {
                let (_, content) = sd.by_key.remove(&key).unwrap_or_default();
                // Sent or discarded elsewhere: drop ours too unless it says something else.
                let typing_here = editing_key(st).as_deref() == Some(key.as_str());
                if !typing_here && st.drafts.get(&key).is_some_and(|t| t.trim() == content.trim()) {
                    st.drafts.remove(&key);
                    fx.push(Effect::SaveDraft { key, text: String::new() });
                }
            }
        }
    }
    st.data.server_drafts = Some(sd);
    fx
}

/// The answer to a push: remember the new draft's ID, or why it failed.
pub(super) fn on_pushed(
    st: &mut State,
    key: String,
    content: String,
    result: Result<i64, ApiError>,
) -> Vec<Effect> {
    let typing_here = editing_key(st).as_deref() == Some(key.as_str());
    let dropped = !typing_here && st.drafts.get(&key).is_none_or(|t| t.trim().is_empty());
    let Some(sd) = st.data.server_drafts.as_mut() else { return vec![] };
    let was_create = sd.creating.remove(&key);
    match result {
        // Already deleted when its event came first.
        Ok(id) if st.gone_drafts.contains(&id) => {}
        // Sent or emptied while the draft was being created there: delete it at once.
        Ok(id) if dropped && !sd.by_key.contains_key(&key) => {
            st.gone_drafts.insert(id);
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
                st.unconfirmed_drafts.insert(key.clone(), content.clone());
                return vec![Effect::SaveDraft { key: unconfirmed_key(&key), text: content }];
            }
        }
    }
    vec![]
}

/// Follow local draft saves with server pushes and deletes (called on every `update`).
pub(super) fn follow(st: &mut State, fx: &mut Vec<Effect>) {
    if st.data.server_drafts.is_none() {
        return;
    }
    let saves: Vec<(String, String)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::SaveDraft { key, text } if is_conversation_key(key) => Some((key.clone(), text.clone())),
            _ => None,
        })
        .collect();
    let typing = editing_key(st);
    let compose_target = st.ui.compose.as_ref().map(|c| c.target.clone());
    let (me, now) = (st.data.me, st.now);
    let Some(sd) = st.data.server_drafts.as_mut() else { return };
    if let (Some(k), Some(t)) = (&typing, compose_target) {
        sd.targets.entry(k.clone()).or_insert(t);
    }
    for (key, text) in saves {
        if text.trim().is_empty() {
            sd.dirty.remove(&key);
            if let Some((id, _)) = sd.by_key.remove(&key) {
                st.gone_drafts.insert(id);
                // On disk right after the draft's own removal, before anything written after it
                // (a sent message's outbox file): a crash in between cannot bring the draft back.
                let at = fx.iter().position(|e| matches!(e, Effect::SaveDraft { key: k, .. } if *k == key));
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

/// On each tick: push drafts whose last change was held back.
pub(super) fn flush(st: &mut State) -> Vec<Effect> {
    let (me, now) = (st.data.me, st.now);
    let Some(sd) = st.data.server_drafts.as_mut() else { return vec![] };
    if sd.dirty.is_empty() {
        return vec![];
    }
    let due: Vec<String> = sd
        .dirty
        .iter()
        .filter(|k| !sd.creating.contains(*k) && sd.last_push.get(*k).is_none_or(|t| now - t >= PUSH_EVERY))
        .cloned()
        .collect();
    let mut fx = Vec::new();
    for key in due {
        let text = st.drafts.get(&key).cloned().unwrap_or_default();
        if text.trim().is_empty() {
            sd.dirty.remove(&key);
            continue;
        }
        fx.extend(push(sd, &key, &text, me, now));
    }
    fx
}

/// Deletions of server drafts found on disk at start-up (the earlier run's were not confirmed):
/// asked again, and a draft of theirs that register already put into a conversation taken out.
pub(super) fn on_gone_loaded(st: &mut State, ids: Vec<i64>) -> Vec<Effect> {
    let mut fx = Vec::new();
    for id in ids {
        st.gone_drafts.insert(id);
        fx.push(Effect::DeleteServerDraft(id));
        let Some(sd) = st.data.server_drafts.as_mut() else { continue };
        let Some(key) = sd.by_key.iter().find(|(_, (i, _))| *i == id).map(|(k, _)| k.clone()) else {
            continue;
        };
        let (_, content) = sd.by_key.remove(&key).unwrap_or_default();
        let typing_here = editing_key(st).as_deref() == Some(key.as_str());
        if !typing_here && st.drafts.get(&key).is_some_and(|t| t.trim() == content.trim()) {
            st.drafts.remove(&key);
        }
    }
    fx
}

/// The server confirmed a deletion (or had no such draft): forget it.
pub(super) fn on_gone(st: &mut State, id: i64) -> Vec<Effect> {
    st.gone_drafts.remove(&id);
    vec![Effect::SaveDraft { key: gone_key(id), text: String::new() }]
}

/// Drafts found on disk at start-up: kept where nothing newer is typed, with the outbox's
/// unsent messages and what the server was not yet told.
pub(super) fn on_loaded(st: &mut State, drafts: std::collections::HashMap<String, String>) -> Vec<Effect> {
    let (unsent, drafts): (Vec<_>, Vec<_>) = drafts.into_iter().partition(|(k, _)| k.starts_with("outbox-"));
    let (gone, drafts): (Vec<_>, Vec<_>) = drafts.into_iter().partition(|(k, _)| gone_id(k).is_some());
    let gone: Vec<i64> = gone.iter().filter_map(|(k, _)| gone_id(k)).collect();
    let (unconfirmed, drafts): (Vec<_>, Vec<_>) =
        drafts.into_iter().partition(|(k, _)| k.starts_with("unconfirmed-draft-"));
    let unconfirmed: Vec<(String, String)> = unconfirmed
        .into_iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("unconfirmed-draft-")?.to_owned(), v)))
        .collect();
    let on_disk: std::collections::HashSet<String> = drafts.iter().map(|(k, _)| k.clone()).collect();
    for (k, v) in drafts {
        // What is on this machine wins over a copy from the server; text typed since
        // start-up wins over both.
        let from_server = st.data.server_drafts.as_ref().and_then(|sd| sd.by_key.get(&k)).map(|(_, c)| c);
        if st.drafts.get(&k).is_none_or(|cur| Some(cur) == from_server) {
            st.drafts.insert(k, v);
        }
    }
    let mut fx = on_gone_loaded(st, gone);
    fx.extend(on_unconfirmed_loaded(st, unconfirmed, &on_disk));
    fx.extend(super::outbox::restore_all(st, unsent));
    fx
}

#[cfg(test)]
mod tests {
    use super::super::tests::registered;
    use super::*;
    use crate::app::update;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    const KEY: &str = "channel-1-plans";

    /// Registered, with one draft kept on the server (ID 5) for #eng > plans.
    fn with_server_draft(st: &mut State) {
        let mut d = Draft::channel(1, "plans", "said already");
        d.id = Some(5);
        on_register(st, Some(vec![d]), None);
    }

    fn loaded(keys: &[(&str, &str)]) -> Msg {
        Msg::DraftsLoaded(keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    #[test]
    fn a_deleted_server_draft_is_remembered_on_disk_until_the_server_confirms() {
        let (mut st, _) = registered();
        with_server_draft(&mut st);
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("said already"));
        st.ui.compose =
            Some(Compose::new(Target::Channel { id: 1, topic: "plans".into() }, "said already", None));
        let fx = update(&mut st, Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)));
        assert!(fx.contains(&Effect::DeleteServerDraft(5)), "{fx:?}");
        let gone = fx.iter().position(|e| *e == Effect::SaveDraft { key: gone_key(5), text: "5".into() });
        let dropped =
            fx.iter().position(|e| *e == Effect::SaveDraft { key: KEY.into(), text: String::new() });
        let outbox =
            fx.iter().position(|e| matches!(e, Effect::SaveDraft { key, .. } if key.starts_with("outbox-")));
        assert!(dropped < gone && gone < outbox, "remembered before the outbox file is written: {fx:?}");
        assert!(st.gone_drafts.contains(&5));
        let fx = update(&mut st, Msg::ServerDraftGone(5));
        assert_eq!(fx, vec![Effect::SaveDraft { key: gone_key(5), text: String::new() }]);
        assert!(st.gone_drafts.is_empty());
    }

    /// The message was sent while its draft's creation was on its way to the server: the draft
    /// created there is deleted as soon as its ID is known.
    #[test]
    fn a_draft_created_on_the_server_after_its_message_was_sent_is_deleted() {
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![]), None);
        st.data.server_drafts.as_mut().unwrap().creating.insert(KEY.into());
        let fx = update(&mut st, Msg::DraftPushed { key: KEY.into(), content: "x".into(), result: Ok(9) });
        assert_eq!(
            fx,
            vec![Effect::SaveDraft { key: gone_key(9), text: "9".into() }, Effect::DeleteServerDraft(9)]
        );
        // Still there to type: kept.
        st.drafts.insert(KEY.into(), "x".into());
        let fx = update(&mut st, Msg::DraftPushed { key: KEY.into(), content: "x".into(), result: Ok(10) });
        assert!(fx.is_empty(), "{fx:?}");
        assert_eq!(st.data.server_drafts.as_ref().unwrap().by_key.get(KEY), Some(&(10, "x".to_string())));
    }

    /// A create whose answer was lost, or whose event comes before its answer: the draft that
    /// turns up is ours, and once its text was sent it is deleted, not put back in the compose box.
    #[test]
    fn our_own_draft_turning_up_after_its_text_was_sent_is_deleted() {
        let lost = || ApiError::Transport { message: "reset".into(), timeout: false, connect: false };
        for answer_first in [true, false] {
            let (mut st, _) = registered();
            on_register(&mut st, Some(vec![]), None);
            st.data.server_drafts.as_mut().unwrap().creating.insert(KEY.into());
            if answer_first {
                let fx = update(
                    &mut st,
                    Msg::DraftPushed { key: KEY.into(), content: "sent".into(), result: Err(lost()) },
                );
                assert_eq!(fx, vec![Effect::SaveDraft { key: unconfirmed_key(KEY), text: "sent".into() }]);
            }
            let mut d = Draft::channel(1, "plans", "sent");
            d.id = Some(12);
            let fx = update(
                &mut st,
                Msg::Events(vec![Event { id: 1, kind: EventKind::Drafts(DraftsEvent::Add(vec![d])) }]),
            );
            assert!(fx.contains(&Effect::DeleteServerDraft(12)), "answer first: {answer_first}: {fx:?}");
            assert!(!st.drafts.contains_key(KEY), "{:?}", st.drafts);
            if !answer_first {
                let fx = update(
                    &mut st,
                    Msg::DraftPushed { key: KEY.into(), content: "sent".into(), result: Ok(12) },
                );
                assert!(fx.is_empty(), "deleted once: {fx:?}");
            }
        }
        // Another client's draft for the same conversation still fills it.
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![]), None);
        let mut d = Draft::channel(1, "plans", "from the web");
        d.id = Some(13);
        update(
            &mut st,
            Msg::Events(vec![Event { id: 1, kind: EventKind::Drafts(DraftsEvent::Add(vec![d])) }]),
        );
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("from the web"));
    }

    /// A create whose answer was lost, then a kill: the next run still knows the draft is ours.
    #[test]
    fn an_unheard_create_is_known_after_a_restart_in_either_order() {
        let mut d = Draft::channel(1, "plans", "sent");
        d.id = Some(14);
        let found = || loaded(&[(&unconfirmed_key(KEY), "sent")]);
        // The disk first, then register.
        let (mut st, _) = registered();
        update(&mut st, found());
        let fx = on_register(&mut st, Some(vec![d.clone()]), None);
        assert!(fx.contains(&Effect::DeleteServerDraft(14)), "{fx:?}");
        assert!(!st.drafts.contains_key(KEY));
        // Register first.
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![d.clone()]), None);
        let fx = update(&mut st, found());
        assert!(fx.contains(&Effect::DeleteServerDraft(14)), "{fx:?}");
        assert!(!st.drafts.contains_key(KEY));
        // A draft of the same text still on disk is the user's: kept.
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![d]), None);
        let fx = update(&mut st, loaded(&[(&unconfirmed_key(KEY), "sent"), (KEY, "sent")]));
        assert!(!fx.contains(&Effect::DeleteServerDraft(14)), "{fx:?}");
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("sent"));
    }

    /// The run before was killed (or lost the network) before the server deleted a sent
    /// message's draft: at the next start that draft does not come back, whichever of register
    /// and the disk answers first, and the deletion is asked again.
    #[test]
    fn an_unconfirmed_deletion_keeps_the_draft_out_after_a_restart() {
        // Register first.
        let (mut st, _) = registered();
        with_server_draft(&mut st);
        let fx = update(&mut st, loaded(&[(&gone_key(5), "5")]));
        assert!(fx.contains(&Effect::DeleteServerDraft(5)), "{fx:?}");
        assert!(!st.drafts.contains_key(KEY), "{:?}", st.drafts);
        // The disk first.
        let (mut st, _) = registered();
        update(&mut st, loaded(&[(&gone_key(5), "5")]));
        with_server_draft(&mut st);
        assert!(!st.drafts.contains_key(KEY), "{:?}", st.drafts);
        // A local draft with other text is the user's: kept.
        let (mut st, _) = registered();
        with_server_draft(&mut st);
        st.drafts.insert(KEY.into(), "typed since".into());
        update(&mut st, loaded(&[(&gone_key(5), "5")]));
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("typed since"));
        assert_eq!(gone_id("gone-draft-x"), None);
    }
}
