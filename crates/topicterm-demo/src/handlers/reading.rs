//! Reading messages: fetching by narrow and anchor, one message, and edit history.

use super::common::Res;
use super::narrow::{Narrow, highlight};
use crate::error::{ApiErr, ApiResult, success};
use crate::markdown::escape_html;
use crate::org::{LARGER_THAN_MAX_MESSAGE_ID, Org};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use serde_json::{Value, json};
use std::sync::Arc;

/// `GET /messages`
pub async fn get_messages(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let org = s.lock();
    let apply_markdown = p.bool_or("apply_markdown", true)?;
    let client_gravatar = p.bool_or("client_gravatar", true)?;
    let allow_empty = crate::levels::allow_empty_topic(org.settings.feature_level, p)?;
    let narrow_raw: Option<Value> = p.opt_json("narrow")?;
    let narrow = Narrow::parse(&org, req.user_id, narrow_raw.as_ref())?;
    let message_ids: Option<Vec<i64>> = p.opt_json("message_ids")?;
    let range_params = ["anchor", "include_anchor", "num_before", "num_after", "use_first_unread_anchor"];
    if let Some(ids) = message_ids {
        if let Some(bad) = range_params.iter().find(|k| p.has(k)) {
            return Err(ApiErr::bad(format!("Unsupported parameter combination: message_ids, {bad}")));
        }
        if ids.len() > 5000 {
            return Err(ApiErr::bad("Too many messages requested (maximum 5000)."));
        }
        let msgs: Vec<Value> = ids
            .iter()
            .filter_map(|id| org.messages.get(id))
            .filter(|m| org.can_read(req.user_id, m) && narrow.matches(&org, m))
            .map(|m| {
                with_avatar(
                    &org,
                    org.message_json(m, req.user_id, apply_markdown, allow_empty),
                    client_gravatar,
                )
            })
            .collect();
        return Ok(reply(
            p,
            success(
                json!({"messages": msgs, "found_anchor": false, "found_newest": false, "found_oldest": false, "history_limited": false}),
            ),
        ));
    }
    let num_before = p.i64("num_before")?;
    let num_after = p.i64("num_after")?;
    if num_before < 0 || num_after < 0 {
        return Err(ApiErr::bad("num_before and num_after must not be negative"));
    }
    if num_before + num_after > 5000 {
        return Err(ApiErr::bad("Too many messages requested (maximum 5000)."));
    }
    let first_unread_flag = p.bool_or("use_first_unread_anchor", false)?;
    // As the reference server: the legacy flag wins and `anchor` is ignored (zulip-terminal
    // sends both).
    let anchor_raw = p.opt_str("anchor");
    let include_anchor = p.bool_or("include_anchor", true)?;
    let ids = narrow.matching_ids(&org);
    let anchor_str = if first_unread_flag {
        "first_unread".to_owned()
    } else {
        anchor_raw.unwrap_or_else(|| "newest".into())
    };
    // An older server reads `date` as a message ID, which it is not.
    if anchor_str == "date" && org.settings.feature_level < crate::levels::ANCHOR_DATE {
        return Err(ApiErr::bad("Invalid anchor"));
    }
    let anchor_date = if anchor_str == "date" { Some(p.str("anchor_date")?) } else { None };
    let anchor = resolve_anchor(&org, req.user_id, &ids, &anchor_str, anchor_date.as_deref())?;
    let w = window(&ids, anchor, num_before as usize, num_after as usize, include_anchor);
    let search = narrow.search_words();
    let msgs: Vec<Value> = w
        .ids
        .iter()
        .filter_map(|id| org.messages.get(id))
        .map(|m| {
            let mut json = with_avatar(
                &org,
                org.message_json(m, req.user_id, apply_markdown, allow_empty),
                client_gravatar,
            );
            if let Some(words) = &search {
                // What matched, marked as the reference server marks it.
                json["match_content"] = json!(highlight(&m.rendered.html, words));
                json["match_subject"] = json!(highlight(&escape_html(m.topic()), words));
            }
            json
        })
        .collect();
    Ok(reply(
        p,
        success(json!({
            "anchor": anchor,
            "found_anchor": w.found_anchor,
            "found_oldest": w.found_oldest,
            "found_newest": w.found_newest,
            "history_limited": false,
            "messages": msgs,
        })),
    ))
}

/// Set a message's `avatar_url` for the requester: null (the client computes the gravatar URL
/// from `sender_email`) only with `client_gravatar` and for a sender without an uploaded avatar.
fn with_avatar(org: &Org, mut message: Value, client_gravatar: bool) -> Value {
    let sender = message["sender_id"].as_i64().unwrap_or(0);
    let uploaded = org.users.get(&sender).is_some_and(|u| !u.avatar_removed);
    message["avatar_url"] =
        if client_gravatar && !uploaded { Value::Null } else { json!(format!("/avatar/{sender}")) };
    message
}

/// An anchor name or ID as the message ID it means for these matching `ids` (ascending).
pub(super) fn resolve_anchor(
    org: &Org,
    user: i64,
    ids: &[i64],
    anchor: &str,
    anchor_date: Option<&str>,
) -> ApiResult<i64> {
    Ok(match anchor {
        "newest" => LARGER_THAN_MAX_MESSAGE_ID,
        "oldest" => 0,
        "first_unread" => {
            let flags = org.user_msgs.get(&user);
            ids.iter()
                .copied()
                .find(|id| flags.and_then(|f| f.get(id)).is_some_and(|f| !f.read))
                .unwrap_or(LARGER_THAN_MAX_MESSAGE_ID)
        }
        "date" => {
            let date = anchor_date.ok_or_else(|| ApiErr::missing("anchor_date"))?;
            let ts = parse_anchor_date(date).ok_or_else(|| ApiErr::bad("Invalid anchor_date"))?;
            ids.iter()
                .copied()
                .find(|id| org.messages.get(id).is_some_and(|m| m.timestamp >= ts))
                .unwrap_or(LARGER_THAN_MAX_MESSAGE_ID)
        }
        other => other.parse::<i64>().map_err(|_| ApiErr::bad("Invalid anchor"))?,
    })
}

/// The messages around an anchor, and whether they reach either end.
pub(super) struct Window {
    pub(super) ids: Vec<i64>,
    pub(super) found_anchor: bool,
    pub(super) found_oldest: bool,
    pub(super) found_newest: bool,
}

pub(super) fn window(
    ids: &[i64],
    anchor: i64,
    num_before: usize,
    num_after: usize,
    include_anchor: bool,
) -> Window {
    let split = ids.partition_point(|id| *id < anchor);
    let anchor_present = ids.get(split) == Some(&anchor);
    let before_start = split.saturating_sub(num_before);
    let mut out: Vec<i64> = ids[before_start..split].to_vec();
    if anchor_present && include_anchor {
        out.push(anchor);
    }
    let after_from = if anchor_present { split + 1 } else { split };
    let after_end = (after_from + num_after).min(ids.len());
    out.extend_from_slice(&ids[after_from.min(after_end)..after_end]);
    Window {
        ids: out,
        found_anchor: anchor_present && include_anchor,
        // The reference server's rule, not the exact truth: an end counts as found when the
        // anchor is that end ("oldest", "newest"), or when fewer messages came on that side than
        // were asked for. A full page that happens to reach the end says "not found"; the next
        // (empty) page says "found". Clients must page that way against a real server.
        found_oldest: anchor == 0 || split - before_start < num_before,
        found_newest: anchor >= LARGER_THAN_MAX_MESSAGE_ID
            || after_end - after_from.min(after_end) < num_after,
    }
}

/// An ISO 8601 date or datetime; date-only means 00:00 UTC; no zone means UTC.
fn parse_anchor_date(s: &str) -> Option<i64> {
    if let Ok(dt) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(dt.timestamp());
    }
    if let Ok(dt) = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S") {
        return Some(dt.and_utc().timestamp());
    }
    if let Ok(dt) = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M") {
        return Some(dt.and_utc().timestamp());
    }
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| d.and_utc().timestamp())
}

/// `GET /messages/{id}`
pub async fn get_message(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let apply_markdown = p.bool_or("apply_markdown", true)?;
    let allow_empty = crate::levels::allow_empty_topic(s.lock().settings.feature_level, p)?;
    let org = s.lock();
    let m = org.readable(req.user_id, id)?;
    // This operation has no client_gravatar: avatar URLs are always given.
    let json = with_avatar(&org, org.message_json(m, req.user_id, apply_markdown, allow_empty), false);
    Ok(reply(p, success(json!({"message": json, "raw_content": m.content}))))
}

/// `GET /messages/{id}/history`
pub async fn history(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let allow_empty = crate::levels::allow_empty_topic(s.lock().settings.feature_level, p)?;
    let org = s.lock();
    if !org.realm.allow_edit_history {
        return Err(ApiErr::bad("Message edit history is disabled in this organization"));
    }
    let m = org.readable(req.user_id, id)?;
    // Roll back from the current state to the original, then forward through the edits.
    let mut content = m.content.clone();
    let mut rendered = m.rendered.html.clone();
    let mut topic = m.topic().to_owned();
    for e in m.edits.iter().rev() {
        if let Some(pc) = &e.prev_content {
            content = pc.clone();
            rendered = e.prev_rendered.clone().unwrap_or_default();
        }
        if let Some(pt) = &e.prev_topic {
            topic = pt.clone();
        }
    }
    let mut snaps = vec![json!({
        "topic": org.topic_out(&topic, allow_empty || m.channel_id().is_none()),
        "content": content,
        "rendered_content": rendered,
        "user_id": m.sender_id,
        "timestamp": m.timestamp,
    })];
    for e in &m.edits {
        let mut snap = serde_json::Map::new();
        if let (Some(pt), Some(t)) = (&e.prev_topic, &e.topic) {
            snap.insert("prev_topic".into(), json!(org.topic_out(pt, allow_empty)));
            topic = t.clone();
        }
        if let (Some(ps), Some(st)) = (e.prev_stream, e.stream) {
            snap.insert("prev_stream".into(), json!(ps));
            snap.insert("stream".into(), json!(st));
        }
        if let (Some(pc), Some(c)) = (&e.prev_content, &e.content) {
            snap.insert("prev_content".into(), json!(pc));
            snap.insert("prev_rendered_content".into(), json!(e.prev_rendered));
            snap.insert("content_html_diff".into(), json!(html_diff(pc, c)));
            content = c.clone();
            rendered = e.rendered.clone().unwrap_or_default();
        }
        snap.insert("topic".into(), json!(org.topic_out(&topic, allow_empty || m.channel_id().is_none())));
        snap.insert("content".into(), json!(content));
        snap.insert("rendered_content".into(), json!(rendered));
        snap.insert("user_id".into(), json!(e.user_id));
        snap.insert("timestamp".into(), json!(e.timestamp));
        snaps.push(Value::Object(snap));
    }
    Ok(reply(p, success(json!({"message_history": snaps}))))
}

/// A word-level HTML diff of two Markdown texts.
fn html_diff(old: &str, new: &str) -> String {
    use crate::markdown::escape_html;
    let diff = similar::TextDiff::from_words(old, new);
    let mut out = String::from("<p>");
    for change in diff.iter_all_changes() {
        let text = escape_html(change.value());
        match change.tag() {
            similar::ChangeTag::Equal => out.push_str(&text),
            similar::ChangeTag::Insert => {
                out.push_str(&format!("<span class=\"highlight_text_inserted\">{text}</span>"))
            }
            similar::ChangeTag::Delete => {
                out.push_str(&format!("<span class=\"highlight_text_deleted\">{text}</span>"))
            }
        }
    }
    out.push_str("</p>");
    out
}
