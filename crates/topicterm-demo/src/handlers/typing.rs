//! Typing notifications: composing a message, and editing one.

use super::common::Res;
use crate::error::{ApiErr, ApiResult, ok};
use crate::org::{Org, Recip};
use crate::params::{Params, path_id};
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use serde_json::{Value, json};
use std::sync::Arc;

fn typing_op(p: &Params) -> ApiResult<&'static str> {
    match p.str("op")?.as_str() {
        "start" => Ok("start"),
        "stop" => Ok("stop"),
        other => Err(ApiErr::bad(format!("Invalid op '{other}'"))),
    }
}

fn edit_typing_inner(org: &mut Org, user: i64, id: i64, op: &str) -> ApiResult<()> {
    let msg = org.readable(user, id)?.clone();
    // Only a message's sender may edit its content, so only the sender can be typing an edit.
    if msg.sender_id != user {
        return Err(ApiErr::bad("You don't have permission to edit this message"));
    }
    let recipient = match &msg.recip {
        Recip::Channel { id: cid, topic } => json!({"type": "channel", "channel_id": cid, "topic": topic}),
        Recip::Dm { users } => json!({"type": "direct", "user_ids": users}),
    };
    let others: Vec<i64> = org.recipients(&msg.recip).into_iter().filter(|u| *u != user).collect();
    let ev = json!({"type": "typing_edit_message", "op": op, "sender_id": user, "message_id": id, "recipient": recipient});
    org.queues.push(&others, &ev);
    Ok(())
}

/// The 404 of a path the configured feature level does not have.
/// `POST /messages/{id}/typing` (feature level 361 on).
pub async fn edit_typing(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    if org.settings.feature_level < 361 {
        return Err(ApiErr::no_endpoint());
    }
    let id = path_id("message_id", &id)?;
    let op = typing_op(&req.p)?;
    edit_typing_inner(&mut org, req.user_id, id, op)?;
    Ok(reply(&req.p, ok()))
}

/// `POST /message_edit_typing`: the same operation's name from feature level 351 to 360.
pub async fn edit_typing_legacy(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let mut org = s.lock();
    if !(351..361).contains(&org.settings.feature_level) {
        return Err(ApiErr::no_endpoint());
    }
    let id = req.p.i64("message_id")?;
    let op = typing_op(&req.p)?;
    edit_typing_inner(&mut org, req.user_id, id, op)?;
    Ok(reply(&req.p, ok()))
}

/// `POST /typing`
pub async fn typing(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let op = typing_op(p)?;
    let kind = p.opt_str("type").unwrap_or_else(|| "direct".into());
    let mut org = s.lock();
    crate::levels::typing_type(org.settings.feature_level, &kind)?;
    let sender = org.user(req.user_id)?;
    let sender_json = json!({"user_id": sender.id, "email": sender.email});
    let (users, ev) = match kind.as_str() {
        "direct" | "private" => {
            // A JSON list of user IDs (since Zulip 3.0): emails and bare numbers are refused.
            let mut ids = crate::levels::typing_recipients(&p.str("to")?)?;
            for id in &ids {
                if !org.users.get(id).is_some_and(|u| u.is_active) {
                    return Err(ApiErr::bad(format!("Invalid user ID {id}")));
                }
            }
            ids.push(req.user_id);
            ids.sort_unstable();
            ids.dedup();
            let recipients: Vec<Value> = ids
                .iter()
                .filter_map(|u| org.users.get(u))
                .map(|u| json!({"user_id": u.id, "email": u.email}))
                .collect();
            (
                ids,
                json!({"type": "typing", "op": op, "message_type": "direct", "sender": sender_json, "recipients": recipients}),
            )
        }
        "stream" | "channel" => {
            // Before `stream_id`, the channel is `to` (a list of one ID), and required.
            let cid = if org.settings.feature_level < crate::levels::TYPING_STREAM_ID {
                let to: Vec<i64> =
                    serde_json::from_str(&p.str("to")?).map_err(|_| ApiErr::bad("Invalid 'to'"))?;
                *to.first().ok_or_else(|| ApiErr::bad("Invalid 'to'"))?
            } else {
                p.i64("stream_id")?
            };
            let topic = org.topic_in(&p.str("topic")?);
            org.accessible_channel(req.user_id, cid)?;
            let users = org.recipients(&Recip::Channel { id: cid, topic: topic.clone() });
            (
                users,
                json!({"type": "typing", "op": op, "message_type": "stream", "sender": sender_json, "stream_id": cid, "topic": topic}),
            )
        }
        other => return Err(ApiErr::bad(format!("Invalid type '{other}'"))),
    };
    let others: Vec<i64> = users.into_iter().filter(|u| *u != req.user_id).collect();
    org.queues.push(&others, &ev);
    Ok(reply(p, ok()))
}
