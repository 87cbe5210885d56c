//! Messages: get (narrows, anchors), send, edit and move, history, flags, reactions, reports,
//! typing notifications.

use super::background::dispatch_webhooks;
use super::common::Res;
use super::narrow::Narrow;
use crate::server::emoji;
use crate::server::error::{ApiErr, ApiResult, ok, success};
use crate::server::org::{LARGER_THAN_MAX_MESSAGE_ID, Org, Reaction, ReactionType, Recip, Role};
use crate::server::params::{Params, path_id};
use crate::server::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

impl Org {
    /// Push `message` events for a stored message to everyone who received it.
    pub fn publish_message(&mut self, id: i64, local: Option<(String, String)>) {
        let Some(msg) = self.messages.get(&id).cloned() else { return };
        let users: Vec<i64> = self.recipients(&msg.recip);
        // Build per (viewer, markdown, empty-topic) once, then push.
        let mut built = Vec::new();
        for q in self.queues.map.values().filter(|q| users.contains(&q.user_id) && q.wants("message")) {
            let mut m = self.message_json(&msg, q.user_id, q.apply_markdown, q.empty_topic_name);
            let flags = m.as_object_mut().and_then(|o| o.remove("flags")).unwrap_or(json!([]));
            let mut ev = json!({"type": "message", "message": m, "flags": flags});
            if let Some((local_id, queue_id)) = &local
                && *queue_id == q.id
            {
                ev["local_message_id"] = json!(local_id);
            }
            built.push((q.id.clone(), ev));
        }
        for (qid, ev) in built {
            self.queues.push_to(&qid, ev);
        }
        self.trigger_webhooks(id);
    }

    /// Check and send a message; returns its ID.
    #[allow(clippy::too_many_arguments)]
    pub fn send(
        &mut self,
        sender: i64,
        recip: Recip,
        content: &str,
        client: &str,
        local: Option<(String, String)>,
        read_by_sender: Option<bool>,
    ) -> ApiResult<i64> {
        if content.trim().is_empty() {
            return Err(ApiErr::bad("Message must not be empty"));
        }
        if content.chars().count() > self.realm.max_message_length {
            return Err(ApiErr::bad(format!(
                "Message must not be longer than {} characters",
                self.realm.max_message_length
            )));
        }
        match &recip {
            Recip::Channel { id, topic } => {
                if topic.chars().count() > self.realm.max_topic_length {
                    return Err(ApiErr::bad(format!(
                        "Topic must not be longer than {} characters",
                        self.realm.max_topic_length
                    )));
                }
                if topic.chars().any(char::is_control) {
                    return Err(ApiErr::bad("Invalid character in topic"));
                }
                if let Some(why) = self.post_denied(sender, *id) {
                    return Err(ApiErr::bad(why));
                }
            }
            Recip::Dm { users } => {
                for u in users {
                    self.active_user(*u)?;
                }
            }
        }
        let id = self.insert_message(sender, recip, content, self.now(), client, read_by_sender);
        self.publish_message(id, local);
        Ok(id)
    }

    /// Resolve a channel given by ID or name, as the send and scheduled operations take it.
    pub fn channel_param(&self, raw: &str) -> ApiResult<i64> {
        let v: Value = serde_json::from_str(raw).unwrap_or_else(|_| json!(raw));
        let v = match v {
            Value::Array(mut a) if a.len() == 1 => a.remove(0),
            other => other,
        };
        match v {
            Value::Number(n) => {
                let id = n.as_i64().unwrap_or(-1);
                if self.channels.contains_key(&id) {
                    Ok(id)
                } else {
                    Err(ApiErr::new(
                        StatusCode::BAD_REQUEST,
                        "STREAM_DOES_NOT_EXIST",
                        format!("Channel with ID '{id}' does not exist"),
                    )
                    .with("stream_id", id))
                }
            }
            Value::String(s) => self.channel_named(&s).map(|c| c.id).ok_or_else(|| {
                ApiErr::new(
                    StatusCode::BAD_REQUEST,
                    "STREAM_DOES_NOT_EXIST",
                    format!("Channel '{s}' does not exist"),
                )
                .with("stream", s.clone())
            }),
            _ => Err(ApiErr::bad("Invalid 'to' argument")),
        }
    }

    /// Resolve DM recipients given as a JSON list of IDs or emails, or comma-separated emails.
    pub fn users_param(&self, raw: &str) -> ApiResult<Vec<i64>> {
        let v: Value = serde_json::from_str(raw).unwrap_or_else(|_| json!(raw));
        let items: Vec<Value> = match v {
            Value::Array(a) => a,
            Value::String(s) => s.split(',').map(|x| json!(x.trim())).collect(),
            other => vec![other],
        };
        let mut ids = Vec::new();
        for item in items {
            let id = match &item {
                Value::Number(n) => n.as_i64().unwrap_or(-1),
                Value::String(s) => match self.user_by_email(s) {
                    Some(u) => u.id,
                    None => return Err(ApiErr::bad(format!("Invalid email '{s}'"))),
                },
                _ => return Err(ApiErr::bad("Invalid 'to' argument")),
            };
            if !self.users.get(&id).is_some_and(|u| u.is_active) {
                return Err(ApiErr::bad(format!("Invalid user ID {id}")));
            }
            ids.push(id);
        }
        if ids.is_empty() {
            return Err(ApiErr::bad("Message must have recipients"));
        }
        Ok(ids)
    }

    fn readable(&self, viewer: i64, id: i64) -> ApiResult<&crate::server::org::MessageRec> {
        self.messages
            .get(&id)
            .filter(|m| self.can_read(viewer, m))
            .ok_or_else(|| ApiErr::bad("Invalid message(s)"))
    }

    /// Users who hold a message in their history (for update events).
    pub fn holders(&self, id: i64) -> Vec<i64> {
        self.user_msgs.iter().filter(|(_, ms)| ms.contains_key(&id)).map(|(u, _)| *u).collect()
    }

    /// Push an `update_message_flags` event to a user.
    pub fn flags_event(&mut self, user: i64, add: bool, flag: &str, messages: &[i64]) {
        if messages.is_empty() {
            return;
        }
        let ev = json!({
            "type": "update_message_flags",
            "op": if add { "add" } else { "remove" },
            "operation": if add { "add" } else { "remove" },
            "flag": flag,
            "messages": messages,
            "all": false,
        });
        self.queues.push(&[user], &ev);
    }
}

fn send_type(p: &Params) -> ApiResult<bool> {
    let t = p.str("type")?;
    match t.as_str() {
        "stream" | "channel" => Ok(true),
        "private" | "direct" => Ok(false),
        _ => Err(ApiErr::bad(format!("Invalid message type '{t}'"))),
    }
}

/// `POST /messages`
pub async fn send(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let is_channel = send_type(p)?;
    let to = p.str("to")?;
    let content = p.str("content")?;
    let local = match (p.opt_str("local_id"), p.opt_str("queue_id")) {
        (Some(l), Some(q)) => Some((l, q)),
        _ => None,
    };
    let read_by_sender = p.opt_bool("read_by_sender")?;
    let id = {
        let mut org = s.lock();
        let recip = if is_channel {
            let cid = org.channel_param(&to)?;
            let topic = org.topic_in(
                &p.opt_str("topic")
                    .or_else(|| p.opt_str("subject"))
                    .ok_or_else(|| ApiErr::missing("topic"))?,
            );
            Recip::Channel { id: cid, topic }
        } else {
            let mut users = org.users_param(&to)?;
            users.push(req.user_id);
            users.sort_unstable();
            users.dedup();
            Recip::Dm { users }
        };
        org.send(req.user_id, recip, &content, "topicterm", local, read_by_sender)?
    };
    dispatch_webhooks(&s);
    Ok(reply(p, success(json!({"id": id}))))
}

/// `GET /messages`
pub async fn get_messages(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let org = s.lock();
    let apply_markdown = p.bool_or("apply_markdown", true)?;
    let client_gravatar = p.bool_or("client_gravatar", true)?;
    let allow_empty = p.bool_or("allow_empty_topic_name", false)?;
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
    let anchor_raw = p.opt_str("anchor");
    if first_unread_flag && anchor_raw.is_some() {
        return Err(ApiErr::bad("Cannot specify both anchor and use_first_unread_anchor"));
    }
    let include_anchor = p.bool_or("include_anchor", true)?;
    let ids = narrow.matching_ids(&org);
    let anchor_str = if first_unread_flag {
        "first_unread".to_owned()
    } else {
        anchor_raw.unwrap_or_else(|| "newest".into())
    };
    let anchor_date = if anchor_str == "date" { Some(p.str("anchor_date")?) } else { None };
    let anchor = resolve_anchor(&org, req.user_id, &ids, &anchor_str, anchor_date.as_deref())?;
    let w = window(&ids, anchor, num_before as usize, num_after as usize, include_anchor);
    let msgs: Vec<Value> = w
        .ids
        .iter()
        .filter_map(|id| org.messages.get(id))
        .map(|m| {
            with_avatar(&org, org.message_json(m, req.user_id, apply_markdown, allow_empty), client_gravatar)
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
fn resolve_anchor(
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
struct Window {
    ids: Vec<i64>,
    found_anchor: bool,
    found_oldest: bool,
    found_newest: bool,
}

fn window(ids: &[i64], anchor: i64, num_before: usize, num_after: usize, include_anchor: bool) -> Window {
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
        found_oldest: before_start == 0 && (num_before > 0 || split == 0 || anchor == 0),
        found_newest: after_end == ids.len(),
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
    let allow_empty = p.bool_or("allow_empty_topic_name", false)?;
    let org = s.lock();
    let m = org.readable(req.user_id, id)?;
    // This operation has no client_gravatar: avatar URLs are always given.
    let json = with_avatar(&org, org.message_json(m, req.user_id, apply_markdown, allow_empty), false);
    Ok(reply(p, success(json!({"message": json, "raw_content": m.content}))))
}

/// `PATCH /messages/{id}`: edit content, rename the topic, move to another channel.
pub async fn update_message(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let content = p.opt_str("content");
    let topic_raw = p.opt_str("topic").or_else(|| p.opt_str("subject"));
    let new_channel = p.opt_i64("stream_id")?;
    let mode = p.opt_str("propagate_mode").unwrap_or_else(|| "change_one".into());
    if !matches!(mode.as_str(), "change_one" | "change_later" | "change_all") {
        return Err(ApiErr::bad("Invalid propagate_mode"));
    }
    let _ = (p.opt_bool("send_notification_to_old_thread")?, p.opt_bool("send_notification_to_new_thread")?);
    if content.is_none() && topic_raw.is_none() && new_channel.is_none() {
        return Err(ApiErr::bad("Nothing to change"));
    }
    let mut org = s.lock();
    let msg = org.readable(req.user_id, id)?.clone();
    let user = org.user(req.user_id)?.clone();
    if content.is_some() && msg.sender_id != req.user_id {
        return Err(ApiErr::bad("You don't have permission to edit this message"));
    }
    if (topic_raw.is_some() || new_channel.is_some())
        && msg.sender_id != req.user_id
        && user.role > Role::Moderator
    {
        return Err(ApiErr::bad("You don't have permission to edit this message"));
    }
    let (old_cid, old_topic) = match &msg.recip {
        Recip::Channel { id, topic } => (Some(*id), topic.clone()),
        Recip::Dm { .. } => (None, String::new()),
    };
    if old_cid.is_none() && (topic_raw.is_some() || new_channel.is_some()) {
        return Err(ApiErr::bad("Direct messages cannot be moved"));
    }
    let topic = topic_raw.map(|t| org.topic_in(&t));
    if let Some(t) = &topic
        && t.chars().count() > org.realm.max_topic_length
    {
        return Err(ApiErr::bad(format!(
            "Topic must not be longer than {} characters",
            org.realm.max_topic_length
        )));
    }
    if let Some(c) = &content {
        if c.trim().is_empty() {
            return Err(ApiErr::bad("Message must not be empty"));
        }
        if c.chars().count() > org.realm.max_message_length {
            return Err(ApiErr::bad("Message is too long"));
        }
    }
    if let Some(nc) = new_channel {
        if !org.channels.contains_key(&nc) {
            return Err(ApiErr::bad("Invalid channel ID"));
        }
        if let Some(why) = org.post_denied(req.user_id, nc) {
            return Err(ApiErr::bad(why));
        }
    }
    // The messages a topic or channel change applies to.
    let mut ids = vec![id];
    if (topic.is_some() || new_channel.is_some()) && mode != "change_one" {
        ids = org
            .messages
            .values()
            .filter(|m| m.channel_id() == old_cid && m.topic().eq_ignore_ascii_case(&old_topic))
            .filter(|m| mode == "change_all" || m.id >= id)
            .map(|m| m.id)
            .collect();
    }
    let ts = org.now();
    let prev_rendered = msg.rendered.html.clone();
    for mid in &ids {
        let c = if *mid == id { content.as_deref() } else { None };
        org.apply_edit(*mid, req.user_id, ts, c, topic.as_deref(), new_channel, true);
    }
    let edited = org.messages.get(&id).cloned();
    let mut ev = json!({
        "type": "update_message",
        "user_id": req.user_id,
        "rendering_only": false,
        "message_id": id,
        "message_ids": ids,
        "edit_timestamp": ts,
    });
    if let (Some(c), Some(m)) = (&content, &edited) {
        ev["orig_content"] = json!(msg.content);
        ev["orig_rendered_content"] = json!(prev_rendered);
        ev["content"] = json!(c);
        ev["rendered_content"] = json!(m.rendered.html);
        ev["is_me_message"] = json!(m.is_me);
    }
    if let Some(cid) = old_cid {
        ev["stream_id"] = json!(cid);
        ev["stream_name"] = json!(org.channels.get(&cid).map(|c| c.name.clone()));
        if topic.is_some() || new_channel.is_some() {
            ev["propagate_mode"] = json!(mode);
            ev["orig_subject"] = json!(old_topic);
            if let Some(t) = &topic {
                ev["subject"] = json!(t);
            }
            if let Some(nc) = new_channel {
                ev["new_stream_id"] = json!(nc);
            }
        }
    }
    let holders = org.holders(id);
    // Clients without the empty-topic capability see the realm's display name instead of "".
    let display = org.realm.empty_topic_display_name.clone();
    org.queues.push_with(&holders, "update_message", |q| {
        let mut e = ev.clone();
        if !q.empty_topic_name {
            for key in ["orig_subject", "subject"] {
                if e.get(key).and_then(Value::as_str) == Some("") {
                    e[key] = json!(display);
                }
            }
        }
        Some(e)
    });
    drop(org);
    Ok(reply(p, ok()))
}

/// `GET /messages/{id}/history`
pub async fn history(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let allow_empty = p.bool_or("allow_empty_topic_name", false)?;
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
    use crate::server::markdown::escape_html;
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
    if !matches!(
        flag,
        "read"
            | "starred"
            | "collapsed"
            | "mentioned"
            | "wildcard_mentioned"
            | "has_alert_word"
            | "historical"
    ) {
        return Err(ApiErr::bad(format!("Invalid flag: '{flag}'")));
    }
    if !matches!(flag, "read" | "starred" | "collapsed") {
        return Err(ApiErr::bad(format!("Flag not editable: '{flag}'")));
    }
    let mut changed = Vec::new();
    for id in ids {
        let Some(m) = org.messages.get(id) else { continue };
        if !org.can_read(user, m) {
            continue;
        }
        let rows = org.user_msgs.entry(user).or_default();
        let f = rows.entry(*id).or_insert(crate::server::org::Flags { read: true, ..Default::default() });
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
            if emoji::from_code(c).is_some() =>
        {
            // A valid code does not make any name valid.
            if emoji::unicode_code(n).is_none() {
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
    let ev = json!({
        "type": "reaction", "op": op, "message_id": msg_id, "user_id": r.user_id,
        "user": {"user_id": r.user_id},
        "emoji_name": r.emoji_name, "emoji_code": r.emoji_code, "reaction_type": r.reaction_type,
    });
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
            Some(ReactionType::UnicodeEmoji) => emoji::from_code(c).is_some(),
            Some(ReactionType::RealmEmoji) => {
                c.parse::<i64>().ok().is_some_and(|i| org.realm_emoji.contains_key(&i))
            }
            Some(ReactionType::SvcExtraEmoji) => emoji::SVC_EXTRA.contains(&c.as_str()),
            _ => {
                emoji::from_code(c).is_some()
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

/// `POST /messages/{id}/report`
pub async fn report(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let report_type = p.str("report_type")?;
    let description = p.opt_str("description").unwrap_or_default();
    {
        let mut org = s.lock();
        let msg = org.readable(req.user_id, id)?.clone();
        let Some(channel) = org.realm.moderation_request_channel_id.filter(|c| org.channels.contains_key(c))
        else {
            return Err(ApiErr::bad(
                "Moderation request channel must be specified to enable message reporting.",
            ));
        };
        let types = super::common::report_types(org.settings.feature_level);
        let Some((_, type_name)) = types.iter().find(|(k, _)| *k == report_type) else {
            return Err(ApiErr::bad(format!("Invalid report_type '{report_type}'")));
        };
        if report_type == "other" && description.trim().is_empty() {
            return Err(ApiErr::bad("An explanation is required."));
        }
        if description.chars().count() > 1000 {
            return Err(ApiErr::bad("Description is too long (limit: 1000 characters)."));
        }
        if msg.sender_id == req.user_id {
            return Err(ApiErr::bad("You cannot report your own message."));
        }
        let reporter = org.user(req.user_id)?.clone();
        let sender = org.user(msg.sender_id)?.clone();
        let place = match &msg.recip {
            Recip::Channel { id, topic } => {
                let name = org.channels.get(id).map(|c| c.name.clone()).unwrap_or_default();
                format!("#**{name}>{topic}**")
            }
            Recip::Dm { .. } => "a direct message".into(),
        };
        let mut content = format!(
            "@_**{}|{}** reported a message sent by @_**{}|{}** in {place} for **{type_name}**.\n",
            reporter.full_name, reporter.id, sender.full_name, sender.id
        );
        if !description.trim().is_empty() {
            content.push_str(&format!("\n**Explanation:**\n```quote\n{description}\n```\n"));
        }
        content.push_str(&format!("\n**Reported message ({id}):**\n```quote\n{}\n```", msg.content));
        let topic = format!("{}'s moderation requests", sender.full_name);
        let topic: String = topic.chars().take(org.realm.max_topic_length).collect();
        let bot = org.notification_bot;
        org.send(bot, Recip::Channel { id: channel, topic }, &content, "Internal", None, None)?;
    }
    dispatch_webhooks(&s);
    Ok(reply(p, ok()))
}

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
fn no_such_endpoint() -> ApiErr {
    ApiErr::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Invalid API endpoint")
}

/// `POST /messages/{id}/typing` (feature level 361 on).
pub async fn edit_typing(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    if org.settings.feature_level < 361 {
        return Err(no_such_endpoint());
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
        return Err(no_such_endpoint());
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
    let sender = org.user(req.user_id)?;
    let sender_json = json!({"user_id": sender.id, "email": sender.email});
    let (users, ev) = match kind.as_str() {
        "direct" | "private" => {
            let mut ids = org.users_param(&p.str("to")?)?;
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
            let cid = p.i64("stream_id")?;
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

/// `POST /mark_topic_as_read`
pub async fn mark_topic_read(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let cid = p.i64("stream_id")?;
    let topic_raw = p.str("topic_name")?;
    let mut org = s.lock();
    org.accessible_channel(req.user_id, cid)?;
    let topic = org.topic_in(&topic_raw).to_lowercase();
    let ids: Vec<i64> = org
        .user_msgs
        .get(&req.user_id)
        .map(|ms| ms.iter().filter(|(_, f)| !f.read).map(|(id, _)| *id).collect())
        .unwrap_or_default();
    let ids: Vec<i64> = ids
        .into_iter()
        .filter(|id| {
            org.messages
                .get(id)
                .is_some_and(|m| m.channel_id() == Some(cid) && m.topic().to_lowercase() == topic)
        })
        .collect();
    let changed = set_flags(&mut org, req.user_id, &ids, true, "read")?;
    org.flags_event(req.user_id, true, "read", &changed);
    Ok(reply(p, ok()))
}
