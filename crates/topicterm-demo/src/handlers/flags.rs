//! Message flags: setting them by ID or by narrow, and marking a topic as read.

use super::common::Res;
use super::narrow::Narrow;
use super::reading::{resolve_anchor, window};
use crate::error::{ApiErr, ApiResult, ok, success};
use crate::org::Org;
use crate::shared::{Req, Shared, reply};
use axum::extract::State;
use serde_json::{Value, json};
use std::sync::Arc;

/// `POST /messages/flags`
pub async fn flags(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let messages: Vec<i64> = p.json("messages")?;
    let op = p.str("op")?;
    let flag = p.str("flag")?;
    let add = match op.as_str() {
        "add" => true,
        "remove" => false,
        _ => return Err(ApiErr::bad("Invalid op")),
    };
    let mut org = s.lock();
    let changed = set_flags(&mut org, req.user_id, &messages, add, &flag)?;
    org.flags_event(req.user_id, add, &flag, &changed);
    Ok(reply(p, success(json!({"messages": changed}))))
}

fn set_flags(org: &mut Org, user: i64, ids: &[i64], add: bool, flag: &str) -> ApiResult<Vec<i64>> {
    let hide_previews = org.settings.feature_level >= crate::levels::HIDE_LINK_PREVIEWS;
    let editable = |f: &str| {
        matches!(f, "read" | "starred" | "collapsed") || (f == "hide_link_previews" && hide_previews)
    };
    if !editable(flag)
        && !matches!(
            flag,
            "read"
                | "starred"
                | "collapsed"
                | "mentioned"
                | "wildcard_mentioned"
                | "has_alert_word"
                | "historical"
        )
    {
        return Err(ApiErr::bad(format!("Invalid flag: '{flag}'")));
    }
    if !editable(flag) {
        return Err(ApiErr::bad(format!("Flag not editable: '{flag}'")));
    }
    let mut changed = Vec::new();
    for id in ids {
        let Some(m) = org.messages.get(id) else { continue };
        if !org.can_read(user, m) {
            continue;
        }
        let rows = org.user_msgs.entry(user).or_default();
        let f = rows.entry(*id).or_insert(crate::org::Flags { read: true, ..Default::default() });
        if f.get(flag) != add {
            f.set(flag, add);
            changed.push(*id);
        }
    }
    Ok(changed)
}

/// `POST /messages/flags/narrow`
pub async fn flags_narrow(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let op = p.str("op")?;
    let flag = p.str("flag")?;
    let add = match op.as_str() {
        "add" => true,
        "remove" => false,
        _ => return Err(ApiErr::bad("Invalid op")),
    };
    let num_before = p.i64("num_before")?.max(0) as usize;
    let num_after = p.i64("num_after")?.max(0) as usize;
    let include_anchor = p.bool_or("include_anchor", true)?;
    let anchor_raw = p.str("anchor")?;
    let narrow_raw: Option<Value> = p.opt_json("narrow")?;
    let mut org = s.lock();
    let narrow = Narrow::parse(&org, req.user_id, narrow_raw.as_ref())?;
    let ids = narrow.matching_ids(&org);
    let anchor = resolve_anchor(&org, req.user_id, &ids, &anchor_raw, p.opt_str("anchor_date").as_deref())?;
    let w = window(&ids, anchor, num_before, num_after, include_anchor);
    let changed = set_flags(&mut org, req.user_id, &w.ids, add, &flag)?;
    org.flags_event(req.user_id, add, &flag, &changed);
    Ok(reply(
        p,
        success(json!({
            "processed_count": w.ids.len(),
            "updated_count": changed.len(),
            "first_processed_id": w.ids.first(),
            "last_processed_id": w.ids.last(),
            "found_oldest": w.found_oldest,
            "found_newest": w.found_newest,
        })),
    ))
}

/// `POST /mark_topic_as_read`
pub async fn mark_topic_read(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let cid = p.i64("stream_id")?;
    let topic_raw = p.str("topic_name")?;
    let mut org = s.lock();
    org.accessible_channel(req.user_id, cid)?;
    let topic = org.topic_in(&topic_raw).to_lowercase();
    mark_unread_read(&mut org, req.user_id, |org, id| {
        org.messages
            .get(&id)
            .is_some_and(|m| m.channel_id() == Some(cid) && m.topic().to_lowercase() == topic)
    })?;
    Ok(reply(p, ok()))
}

/// The user's unread messages that `keep` accepts, marked read and announced.
fn mark_unread_read(org: &mut Org, user: i64, keep: impl Fn(&Org, i64) -> bool) -> ApiResult<()> {
    let ids: Vec<i64> = org
        .user_msgs
        .get(&user)
        .map(|ms| ms.iter().filter(|(_, f)| !f.read).map(|(id, _)| *id).collect())
        .unwrap_or_default();
    let ids: Vec<i64> = ids.into_iter().filter(|id| keep(org, *id)).collect();
    let changed = set_flags(org, user, &ids, true, "read")?;
    org.flags_event(user, true, "read", &changed);
    Ok(())
}

/// `POST /mark_all_as_read` (deprecated in the reference, still used by real clients).
pub async fn mark_all_read(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let mut org = s.lock();
    mark_unread_read(&mut org, req.user_id, |_, _| true)?;
    Ok(reply(&req.p, success(json!({"complete": true}))))
}

/// `POST /mark_stream_as_read` (deprecated in the reference, still used by real clients).
pub async fn mark_channel_read(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let cid = req.p.i64("stream_id")?;
    let mut org = s.lock();
    org.accessible_channel(req.user_id, cid)?;
    mark_unread_read(&mut org, req.user_id, |org, id| {
        org.messages.get(&id).is_some_and(|m| m.channel_id() == Some(cid))
    })?;
    Ok(reply(&req.p, ok()))
}
