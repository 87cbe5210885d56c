//! Drafts kept on the server (`/drafts`), synchronised with the drafts on disk.
//!
//! The local drafts stay the source of truth for what is typed here: every local save
//! (`Effect::SaveDraft` of a conversation's draft) is followed by a push to the server — at most
//! every few seconds while typing, at once when the compose box closes — and a sent or emptied
//! draft is deleted there. Drafts written in other clients arrive with register and as `drafts`
//! events and fill in conversations that have no local draft; a draft being edited here is never
//! overwritten from outside.

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
pub(super) fn on_register(st: &mut State, drafts: Option<Vec<Draft>>, settings: Option<&UserSettings>) {
    let enabled = settings.and_then(|s| s.enable_drafts_synchronization).unwrap_or(true);
    let Some(drafts) = drafts.filter(|_| enabled) else {
        st.data.server_drafts = None;
        return;
    };
    let mut sd = ServerDrafts::default();
    for d in drafts {
        add(st, &mut sd, d);
    }
    st.data.server_drafts = Some(sd);
}

/// Record a server draft; fill the local draft of its conversation if there is none.
fn add(st: &mut State, sd: &mut ServerDrafts, d: Draft) {
    let (Some(id), Some((key, target))) = (d.id, key_of(&d, st.data.me)) else { return };
    sd.by_key.insert(key.clone(), (id, d.content.clone()));
    sd.targets.entry(key.clone()).or_insert(target);
    let typing_here = editing_key(st).as_deref() == Some(key.as_str());
    if !typing_here && !d.content.trim().is_empty() {
        st.drafts.insert(key, d.content);
    }
}

/// A `drafts` event.
pub(super) fn on_event(st: &mut State, ev: DraftsEvent) -> Vec<Effect> {
    let Some(mut sd) = st.data.server_drafts.take() else { return vec![] };
    let mut fx = Vec::new();
    match ev {
        DraftsEvent::Add(list) => {
            for d in list {
                add(st, &mut sd, d);
            }
        }
        DraftsEvent::Update(d) => add(st, &mut sd, d),
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
    let Some(sd) = st.data.server_drafts.as_mut() else { return vec![] };
    sd.creating.remove(&key);
    match result {
        Ok(id) => {
            sd.by_key.entry(key).or_insert((id, content));
        }
        Err(e) => tracing::warn!("draft not saved on the server: {e}"),
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
