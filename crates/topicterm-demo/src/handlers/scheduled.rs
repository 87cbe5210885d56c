//! Scheduled messages: create, edit (including failed ones), list, delete, and delivery.

use super::common::Res;
use crate::error::{ApiErr, ApiResult, ok, success};
use crate::markdown;
use crate::org::{Org, Recip, ScheduledRec};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use crate::validate::normalize_body;
use axum::extract::{Path, State};
use serde_json::{Value, json};
use std::sync::Arc;

impl Org {
    pub fn scheduled_json(&self, s: &ScheduledRec) -> Value {
        let rendered = markdown::render(&s.content, self).html;
        let mut v = json!({
            "scheduled_message_id": s.id,
            "type": if s.is_channel { "stream" } else { "private" },
            "to": if s.is_channel { json!(s.channel_id) } else { json!(s.user_ids) },
            "content": s.content,
            "rendered_content": rendered,
            "scheduled_delivery_timestamp": s.deliver_at,
            "failed": s.failed,
        });
        if s.is_channel {
            v["topic"] = json!(s.topic);
        }
        v
    }

    /// A user's undelivered scheduled messages, soonest first (as the protocol orders them).
    pub fn scheduled_list_json(&self, user: i64) -> Vec<Value> {
        let mut mine: Vec<&ScheduledRec> = self.scheduled.values().filter(|m| m.sender_id == user).collect();
        mine.sort_by_key(|m| (m.deliver_at, m.id));
        mine.into_iter().map(|m| self.scheduled_json(m)).collect()
    }

    fn scheduled_event(&mut self, user: i64, ev: Value) {
        self.queues.push(&[user], &ev);
    }

    /// Deliver every due scheduled message; mark undeliverable ones failed.
    pub fn deliver_due(&mut self, at: i64) -> bool {
        let due: Vec<i64> =
            self.scheduled.values().filter(|s| !s.failed && s.deliver_at <= at).map(|s| s.id).collect();
        let delivered_any = !due.is_empty();
        for id in due {
            let Some(s) = self.scheduled.get(&id).cloned() else { continue };
            let recip = if s.is_channel {
                Recip::Channel { id: s.channel_id, topic: s.topic.clone() }
            } else {
                let mut users = s.user_ids.clone();
                users.push(s.sender_id);
                users.sort_unstable();
                users.dedup();
                Recip::Dm { users }
            };
            let sender_active = self.users.get(&s.sender_id).is_some_and(|u| u.is_active);
            let result = if !s.is_channel || self.channels.contains_key(&s.channel_id) {
                if sender_active {
                    self.send(s.sender_id, recip, &s.content, "topicterm", None, s.read_by_sender)
                } else {
                    Err(ApiErr::bad("sender deactivated"))
                }
            } else {
                Err(ApiErr::bad("channel does not exist"))
            };
            match result {
                Ok(_) => {
                    self.scheduled.remove(&id);
                    self.scheduled_event(
                        s.sender_id,
                        json!({"type": "scheduled_messages", "op": "remove", "scheduled_message_id": id}),
                    );
                }
                Err(e) => {
                    tracing::info!("scheduled message {id} failed: {}", e.msg);
                    if let Some(rec) = self.scheduled.get_mut(&id) {
                        rec.failed = true;
                    }
                    let json = self.scheduled.get(&id).map(|r| self.scheduled_json(r));
                    self.scheduled_event(
                        s.sender_id,
                        json!({"type": "scheduled_messages", "op": "update", "scheduled_message": json}),
                    );
                }
            }
        }
        delivered_any
    }

    fn scheduled_target(&self, is_channel: bool, to: &str) -> ApiResult<(i64, Vec<i64>)> {
        if is_channel { Ok((self.channel_param(to)?, Vec::new())) } else { Ok((0, self.users_param(to)?)) }
    }

    /// A required scheduled topic: not `(no topic)`, empty, or the empty-topic display name.
    fn scheduled_topic(&self, raw: Option<String>) -> ApiResult<String> {
        let raw = raw.ok_or_else(|| ApiErr::missing("topic"))?;
        let t = self.topic_in(&raw);
        if t.is_empty() {
            return Err(ApiErr::bad(format!(
                "Topic '{raw}' is not allowed for a scheduled channel message; choose a topic"
            )));
        }
        if t.chars().count() > self.realm.max_topic_length {
            return Err(ApiErr::bad(format!(
                "Topic must not be longer than {} characters",
                self.realm.max_topic_length
            )));
        }
        crate::validate::check_topic(&t)?;
        Ok(t)
    }
}

fn parse_type(s: &Shared, raw: &str) -> ApiResult<bool> {
    crate::levels::message_type(s.lock().settings.feature_level, raw)
}

fn check_content(org: &Org, content: &str) -> ApiResult<()> {
    if content.trim().is_empty() {
        return Err(ApiErr::bad("Message must not be empty"));
    }
    if content.chars().count() > org.realm.max_message_length {
        return Err(ApiErr::bad("Message is too long"));
    }
    Ok(())
}

/// `GET /scheduled_messages`
pub async fn list(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    let list = org.scheduled_list_json(req.user_id);
    Ok(reply(&req.p, success(json!({"scheduled_messages": list}))))
}

/// `POST /scheduled_messages`
pub async fn create(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let is_channel = parse_type(&s, &p.str("type")?)?;
    let to = p.str("to")?;
    let content = normalize_body(&p.str("content")?);
    let at = p.i64("scheduled_delivery_timestamp")?;
    // A server before it does not know the parameter (it is reported as ignored).
    let level = s.lock().settings.feature_level;
    let read_by_sender =
        if level >= crate::levels::READ_BY_SENDER { p.opt_bool("read_by_sender")? } else { None };
    let topic_raw = p.opt_str("topic");
    let mut org = s.lock();
    let (channel_id, user_ids) = org.scheduled_target(is_channel, &to)?;
    let topic = if is_channel { org.scheduled_topic(topic_raw)? } else { String::new() };
    check_content(&org, &content)?;
    if at <= org.now() {
        return Err(ApiErr::bad("Scheduled delivery time must be in the future."));
    }
    if is_channel && let Some(why) = org.post_denied(req.user_id, channel_id) {
        return Err(ApiErr::bad(why));
    }
    // Checked again at delivery (`Org::send`), as the reference server checks both.
    if is_channel && let Some(why) = org.topic_create_denied(req.user_id, channel_id, &topic) {
        return Err(ApiErr::bad(why));
    }
    let id = org.alloc();
    let rec = ScheduledRec {
        id,
        sender_id: req.user_id,
        is_channel,
        channel_id,
        user_ids,
        topic,
        content,
        deliver_at: at,
        failed: false,
        read_by_sender,
    };
    let json = org.scheduled_json(&rec);
    org.scheduled.insert(id, rec);
    org.scheduled_event(
        req.user_id,
        json!({"type": "scheduled_messages", "op": "add", "scheduled_messages": [json]}),
    );
    Ok(reply(p, success(json!({"scheduled_message_id": id}))))
}

/// `PATCH /scheduled_messages/{id}`
pub async fn update(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("scheduled_message_id", &id)?;
    let p = &req.p;
    let new_type = p.opt_str("type").map(|t| parse_type(&s, &t)).transpose()?;
    let to = p.opt_str("to");
    let content = p.opt_str("content").map(|c| normalize_body(&c));
    let topic_raw = p.opt_str("topic");
    let at = p.opt_i64("scheduled_delivery_timestamp")?;
    let mut org = s.lock();
    let mut rec = org
        .scheduled
        .get(&id)
        .filter(|r| r.sender_id == req.user_id)
        .cloned()
        .ok_or_else(|| ApiErr::bad("Scheduled message does not exist"))?;
    if rec.failed && at.is_none() {
        return Err(ApiErr::bad(
            "Scheduled delivery timestamp must be specified to edit a failed scheduled message.",
        ));
    }
    if new_type.is_some() && to.is_none() {
        return Err(ApiErr::bad("Recipient required when updating type of scheduled message."));
    }
    if new_type == Some(true) && topic_raw.is_none() {
        return Err(ApiErr::bad("Topic required when updating scheduled message type to channel."));
    }
    if let Some(t) = new_type {
        rec.is_channel = t;
    }
    if let Some(to) = &to {
        let (c, u) = org.scheduled_target(rec.is_channel, to)?;
        rec.channel_id = c;
        rec.user_ids = u;
    }
    if rec.is_channel {
        if topic_raw.is_some() {
            rec.topic = org.scheduled_topic(topic_raw)?;
        }
        if let Some(why) = org.post_denied(req.user_id, rec.channel_id) {
            return Err(ApiErr::bad(why));
        }
        if let Some(why) = org.topic_create_denied(req.user_id, rec.channel_id, &rec.topic) {
            return Err(ApiErr::bad(why));
        }
    } else {
        rec.topic.clear();
    }
    if let Some(c) = content {
        check_content(&org, &c)?;
        rec.content = c;
    }
    if let Some(at) = at {
        if at <= org.now() {
            return Err(ApiErr::bad("Scheduled delivery time must be in the future."));
        }
        rec.deliver_at = at;
        rec.failed = false;
    }
    let json = org.scheduled_json(&rec);
    org.scheduled.insert(id, rec);
    org.scheduled_event(
        req.user_id,
        json!({"type": "scheduled_messages", "op": "update", "scheduled_message": json}),
    );
    Ok(reply(p, ok()))
}

/// `DELETE /scheduled_messages/{id}`
pub async fn delete(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("scheduled_message_id", &id)?;
    let mut org = s.lock();
    if org.scheduled.get(&id).is_none_or(|r| r.sender_id != req.user_id) {
        return Err(ApiErr::bad("Scheduled message does not exist"));
    }
    org.scheduled.remove(&id);
    org.scheduled_event(
        req.user_id,
        json!({"type": "scheduled_messages", "op": "remove", "scheduled_message_id": id}),
    );
    Ok(reply(&req.p, ok()))
}
