//! The user's own lists: muted users and alert words.

use super::common::Res;
use crate::error::{ApiErr, success};
use crate::org::Org;
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use serde_json::{Value, json};
use std::sync::Arc;

/// Longest alert word the reference server takes.
const MAX_ALERT_WORD_LENGTH: usize = 100;

/// A user's muted users as register and events carry them.
pub fn muted_users_json(org: &Org, uid: i64) -> Value {
    let list: Vec<Value> = org
        .muted_users
        .get(&uid)
        .map(|m| m.iter().map(|(id, ts)| json!({"id": id, "timestamp": ts})).collect())
        .unwrap_or_default();
    json!(list)
}

fn muted_users_event(org: &mut Org, uid: i64) {
    let ev = json!({"type": "muted_users", "muted_users": muted_users_json(org, uid)});
    org.queues.push(&[uid], &ev);
}

/// `POST /users/me/muted_users/{muted_user_id}`: mute a user. Their unread messages become read.
pub async fn mute_user(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let target = path_id("muted_user_id", &id)?;
    let me = req.user_id;
    let mut org = s.lock();
    if target == me {
        return Err(ApiErr::bad("Cannot mute self"));
    }
    if !org.users.contains_key(&target) {
        return Err(ApiErr::bad("No such user"));
    }
    if org.muted_users.get(&me).is_some_and(|m| m.contains_key(&target)) {
        return Err(ApiErr::bad("User already muted"));
    }
    let now = org.now();
    org.muted_users.entry(me).or_default().insert(target, now);
    let unread: Vec<i64> = org
        .user_msgs
        .get(&me)
        .map(|ms| {
            ms.iter()
                .filter(|(id, f)| !f.read && org.messages.get(id).is_some_and(|m| m.sender_id == target))
                .map(|(id, _)| *id)
                .collect()
        })
        .unwrap_or_default();
    if let Some(ms) = org.user_msgs.get_mut(&me) {
        for id in &unread {
            if let Some(f) = ms.get_mut(id) {
                f.read = true;
            }
        }
    }
    org.flags_event(me, true, "read", &unread);
    muted_users_event(&mut org, me);
    Ok(reply(&req.p, success(json!({}))))
}

/// `DELETE /users/me/muted_users/{muted_user_id}`
pub async fn unmute_user(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let target = path_id("muted_user_id", &id)?;
    let me = req.user_id;
    let mut org = s.lock();
    if !org.users.contains_key(&target) {
        return Err(ApiErr::bad("No such user"));
    }
    if org.muted_users.get_mut(&me).and_then(|m| m.remove(&target)).is_none() {
        return Err(ApiErr::bad("User is not muted"));
    }
    muted_users_event(&mut org, me);
    Ok(reply(&req.p, success(json!({}))))
}

/// `GET /users/me/alert_words`
pub async fn alert_words(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    let words = org.alert_words.get(&req.user_id).cloned().unwrap_or_default();
    Ok(reply(&req.p, success(json!({"alert_words": words}))))
}

/// `POST /users/me/alert_words`: add words (kept unique by case, in the order added).
pub async fn add_alert_words(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let words: Vec<String> = req.p.json("alert_words")?;
    let words: Vec<String> = words.iter().map(|w| w.trim().to_owned()).filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| w.chars().count() > MAX_ALERT_WORD_LENGTH) {
        return Err(ApiErr::bad(format!(
            "alert_words[0] is too long (limit: {MAX_ALERT_WORD_LENGTH} characters)"
        )));
    }
    let mut org = s.lock();
    let list = org.alert_words.entry(req.user_id).or_default();
    for w in words {
        if !list.iter().any(|x| x.eq_ignore_ascii_case(&w)) {
            list.push(w);
        }
    }
    Ok(reply(&req.p, success(json!({"alert_words": changed(&mut org, req.user_id)}))))
}

/// `DELETE /users/me/alert_words`: remove words (any case); unknown ones are ignored.
pub async fn remove_alert_words(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let words: Vec<String> = req.p.json("alert_words")?;
    let mut org = s.lock();
    let list = org.alert_words.entry(req.user_id).or_default();
    list.retain(|x| !words.iter().any(|w| w.trim().eq_ignore_ascii_case(x)));
    Ok(reply(&req.p, success(json!({"alert_words": changed(&mut org, req.user_id)}))))
}

/// Announce a user's alert words after a change; the new list.
fn changed(org: &mut Org, uid: i64) -> Vec<String> {
    let words = org.alert_words.get(&uid).cloned().unwrap_or_default();
    org.queues.push(&[uid], &json!({"type": "alert_words", "alert_words": words}));
    words
}
