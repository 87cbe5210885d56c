//! Emoji reactions, and the emoji check the status operation shares.

use super::common::Res;
use crate::emoji;
use crate::error::{ApiErr, ApiResult, ok};
use crate::org::{Org, Reaction, ReactionType};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::json;
use std::sync::Arc;

/// Validate an emoji triplet; returns (name, code, type).
fn resolve_emoji(
    org: &Org,
    name: Option<&str>,
    code: Option<&str>,
    reaction_type: Option<&str>,
) -> ApiResult<(String, String, ReactionType)> {
    let rt = reaction_type.map(ReactionType::from);
    match (name, code, rt) {
        (None, _, _) => Err(ApiErr::missing("emoji_name")),
        (Some(n), Some(c), Some(ReactionType::UnicodeEmoji)) | (Some(n), Some(c), None)
            if emoji::is_known_code(c) =>
        {
            // A valid code does not make any name valid: the name must stand for that code.
            if emoji::unicode_code(n).as_deref() != Some(c) {
                return Err(ApiErr::bad("Invalid emoji name."));
            }
            Ok((n.into(), c.into(), ReactionType::UnicodeEmoji))
        }
        (Some(_), Some(_), Some(ReactionType::UnicodeEmoji)) => Err(ApiErr::bad("Invalid emoji code")),
        (Some(n), Some(c), Some(ReactionType::RealmEmoji)) | (Some(n), Some(c), None) => {
            match c.parse::<i64>().ok().and_then(|id| org.realm_emoji.get(&id)) {
                Some((en, _)) if en == n => Ok((n.into(), c.into(), ReactionType::RealmEmoji)),
                _ if emoji::SVC_EXTRA.contains(&c) => Ok((n.into(), c.into(), ReactionType::SvcExtraEmoji)),
                _ => Err(ApiErr::bad("Invalid custom emoji.")),
            }
        }
        (Some(n), Some(c), Some(ReactionType::SvcExtraEmoji)) => {
            if emoji::SVC_EXTRA.contains(&c) && n == c {
                Ok((n.into(), c.into(), ReactionType::SvcExtraEmoji))
            } else {
                Err(ApiErr::bad("Invalid emoji name."))
            }
        }
        (Some(_), _, Some(ReactionType::Other(t))) => {
            Err(ApiErr::bad(format!("Invalid reaction_type '{t}'")))
        }
        (Some(n), None, rt) => {
            if matches!(rt, None | Some(ReactionType::RealmEmoji))
                && let Some((id, _)) = org.realm_emoji.iter().find(|(_, (en, _))| en == n)
            {
                return Ok((n.into(), id.to_string(), ReactionType::RealmEmoji));
            }
            if matches!(rt, None | Some(ReactionType::SvcExtraEmoji)) && emoji::SVC_EXTRA.contains(&n) {
                return Ok((n.into(), n.into(), ReactionType::SvcExtraEmoji));
            }
            if matches!(rt, None | Some(ReactionType::UnicodeEmoji))
                && let Some(c) = emoji::unicode_code(n)
            {
                return Ok((n.into(), c, ReactionType::UnicodeEmoji));
            }
            Err(ApiErr::bad(format!("Emoji '{n}' does not exist")))
        }
    }
}

/// Exposed for the status operation.
pub fn check_emoji(
    org: &Org,
    name: &str,
    code: Option<&str>,
    rt: Option<&str>,
) -> ApiResult<(String, String, ReactionType)> {
    resolve_emoji(org, Some(name), code, rt)
}

fn reaction_event(org: &mut Org, op: &str, msg_id: i64, r: &Reaction) {
    let mut ev = json!({
        "type": "reaction", "op": op, "message_id": msg_id, "user_id": r.user_id,
        "emoji_name": r.emoji_name, "emoji_code": r.emoji_code, "reaction_type": r.reaction_type,
    });
    // Before level 484, `user` carries the reacting user's email and name too, as the
    // reference server sent it (deprecated, but clients such as zulip-terminal 0.7.0 read it).
    if org.settings.feature_level < crate::levels::REACTION_WITHOUT_USER {
        let (email, full_name) =
            org.users.get(&r.user_id).map(|u| (u.email.clone(), u.full_name.clone())).unwrap_or_default();
        ev["user"] = json!({"user_id": r.user_id, "email": email, "full_name": full_name,
                            "is_mirror_dummy": false});
    }
    let holders = org.holders(msg_id);
    org.queues.push(&holders, &ev);
}

/// `POST /messages/{id}/reactions`
pub async fn add_reaction(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let (name, code, rt) = (p.opt_str("emoji_name"), p.opt_str("emoji_code"), p.opt_str("reaction_type"));
    let mut org = s.lock();
    org.readable(req.user_id, id)?;
    let (name, code, rt) = resolve_emoji(&org, name.as_deref(), code.as_deref(), rt.as_deref())?;
    let r = Reaction { emoji_name: name, emoji_code: code, reaction_type: rt, user_id: req.user_id };
    let msg = org.messages.get_mut(&id).ok_or_else(|| ApiErr::bad("Invalid message(s)"))?;
    if msg
        .reactions
        .iter()
        .any(|x| x.user_id == r.user_id && x.emoji_code == r.emoji_code && x.reaction_type == r.reaction_type)
    {
        return Err(ApiErr::new(
            StatusCode::BAD_REQUEST,
            "REACTION_ALREADY_EXISTS",
            "Reaction already exists.",
        ));
    }
    msg.reactions.push(r.clone());
    reaction_event(&mut org, "add", id, &r);
    Ok(reply(p, ok()))
}

/// `DELETE /messages/{id}/reactions`
pub async fn remove_reaction(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let (name, code, rt) = (p.opt_str("emoji_name"), p.opt_str("emoji_code"), p.opt_str("reaction_type"));
    let mut org = s.lock();
    org.readable(req.user_id, id)?;
    let rt = rt.map(ReactionType::from);
    if let Some(ReactionType::Other(t)) = &rt {
        return Err(ApiErr::bad(format!("Invalid reaction_type '{t}'")));
    }
    if let Some(c) = &code {
        let valid = match &rt {
            Some(ReactionType::UnicodeEmoji) => emoji::is_known_code(c),
            Some(ReactionType::RealmEmoji) => {
                c.parse::<i64>().ok().is_some_and(|i| org.realm_emoji.contains_key(&i))
            }
            Some(ReactionType::SvcExtraEmoji) => emoji::SVC_EXTRA.contains(&c.as_str()),
            _ => {
                emoji::is_known_code(c)
                    || c.parse::<i64>().ok().is_some_and(|i| org.realm_emoji.contains_key(&i))
                    || emoji::SVC_EXTRA.contains(&c.as_str())
            }
        };
        if !valid {
            return Err(ApiErr::bad("Invalid emoji code"));
        }
    } else if name.is_none() {
        return Err(ApiErr::missing("emoji_name"));
    }
    let level = org.settings.feature_level;
    let msg = org.messages.get_mut(&id).ok_or_else(|| ApiErr::bad("Invalid message(s)"))?;
    let pos = msg.reactions.iter().position(|x| {
        x.user_id == req.user_id
            && match &code {
                Some(c) => x.emoji_code == *c && rt.as_ref().is_none_or(|t| *t == x.reaction_type),
                None => Some(&x.emoji_name) == name.as_ref(),
            }
    });
    let Some(pos) = pos else {
        let code = if level >= 193 { "REACTION_DOES_NOT_EXIST" } else { "BAD_REQUEST" };
        return Err(ApiErr::new(StatusCode::BAD_REQUEST, code, "Reaction doesn't exist."));
    };
    let r = msg.reactions.remove(pos);
    reaction_event(&mut org, "remove", id, &r);
    Ok(reply(p, ok()))
}

/// `POST /submessage`: a change to a message's widget (a vote, a new option, a ticked task),
/// from anyone who can read the message; sent to everyone who has it as a `submessage` event.
pub async fn add_submessage(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let id = p.i64("message_id")?;
    let msg_type = p.str("msg_type")?;
    let content = p.str("content")?;
    if msg_type != "widget" {
        return Err(ApiErr::bad("Invalid msg_type"));
    }
    if serde_json::from_str::<serde_json::Value>(&content).map_or(true, |v| !v.is_object()) {
        return Err(ApiErr::bad("Invalid json for submessage"));
    }
    let mut org = s.lock();
    org.readable(req.user_id, id)?;
    if org.messages.get(&id).is_none_or(|m| m.submessages.is_empty()) {
        return Err(ApiErr::bad("Message has no widget"));
    }
    let sub_id = org.add_submessage(id, req.user_id, &msg_type, &content);
    let ev = json!({
        "type": "submessage", "msg_type": msg_type, "content": content,
        "submessage_id": sub_id, "message_id": id, "sender_id": req.user_id,
    });
    let holders = org.holders(id);
    org.queues.push(&holders, &ev);
    Ok(reply(p, ok()))
}
