//! Sending, editing and moving messages, and reporting them; the rules `send` shares with
//! the scheduler and webhook bots.

use super::background::dispatch_webhooks;
use super::common::Res;
use crate::error::{ApiErr, ApiResult, ok, success};
use crate::levels;
use crate::org::rules::LIMIT_GRACE;
use crate::org::{MessageRec, Org, Recip, Role, strip_resolved};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use crate::validate::{check_topic, normalize_body};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use topicterm_api::names::same_name;

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
            let listed: Vec<String> = serde_json::from_value(flags.clone()).unwrap_or_default();
            if !q.admits(&m, &listed) {
                continue;
            }
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
                check_topic(topic)?;
                if let Some(why) = self.topic_required_denied(topic) {
                    return Err(ApiErr::bad(why));
                }
                if let Some(why) = self.post_denied(sender, *id) {
                    return Err(ApiErr::bad(why));
                }
                if let Some(why) = self.topic_create_denied(sender, *id, topic) {
                    return Err(ApiErr::bad(why));
                }
            }
            Recip::Dm { users } => {
                for u in users {
                    self.active_user(*u)?;
                }
                if let Some(why) = self.dm_denied(sender, users) {
                    return Err(ApiErr::bad(why));
                }
            }
        }
        let id = self.insert_message(sender, recip, content, self.now(), client, read_by_sender);
        self.publish_message(id, local);
        self.claim_attachments(id, "");
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

    pub fn readable(&self, viewer: i64, id: i64) -> ApiResult<&crate::org::MessageRec> {
        self.messages
            .get(&id)
            .filter(|m| self.can_read(viewer, m))
            .ok_or_else(|| ApiErr::bad("Invalid message(s)"))
    }

    /// Users who hold a message in their history (for update events).
    pub fn holders(&self, id: i64) -> Vec<i64> {
        self.user_msgs.iter().filter(|(_, ms)| ms.contains_key(&id)).map(|(u, _)| *u).collect()
    }

    /// Delete a message and tell everyone who held it (`delete_message`, the reference shape).
    pub fn delete_message(&mut self, id: i64) {
        let holders = self.holders(id);
        self.message_generation += 1;
        if let Some(m) = self.messages.remove(&id) {
            let mut ev = json!({"type": "delete_message", "message_id": id, "message_ids": [id]});
            match &m.recip {
                Recip::Channel { id: cid, topic } => {
                    ev["message_type"] = json!("stream");
                    ev["stream_id"] = json!(cid);
                    ev["topic"] = json!(topic);
                }
                Recip::Dm { .. } => ev["message_type"] = json!("private"),
            }
            self.queues.push(&holders, &ev);
        }
        for rows in self.user_msgs.values_mut() {
            rows.remove(&id);
        }
        for up in self.uploads.values_mut() {
            up.messages.remove(&id);
        }
    }

    /// Push an `update_message_flags` event to a user.
    pub fn flags_event(&mut self, user: i64, add: bool, flag: &str, messages: &[i64]) {
        if messages.is_empty() {
            return;
        }
        let mut ev = json!({
            "type": "update_message_flags",
            "op": if add { "add" } else { "remove" },
            "operation": if add { "add" } else { "remove" },
            "flag": flag,
            "messages": messages,
            "all": false,
        });
        if flag == "read" && !add {
            // Where each message marked unread is, as the reference server says it (feature
            // level 121): a client that does not hold them counts them all the same.
            let empty_topic = self.settings.feature_level >= levels::EMPTY_TOPIC;
            let details: serde_json::Map<String, Value> = messages
                .iter()
                .filter_map(|id| {
                    let m = self.messages.get(id)?;
                    let mentioned = self.user_msgs.get(&user).and_then(|r| r.get(id)).is_some_and(|f| f.mentioned || f.wildcard_mentioned);
                    let mut d = match &m.recip {
                        Recip::Channel { id: c, topic } => {
                            json!({"type": "stream", "stream_id": c, "topic": self.topic_out(topic, empty_topic)})
                        }
                        Recip::Dm { users } => {
                            json!({"type": "private", "user_ids": users.iter().filter(|u| **u != user).collect::<Vec<_>>()})
                        }
                    };
                    if mentioned {
                        d["mentioned"] = json!(true);
                    }
                    Some((id.to_string(), d))
                })
                .collect();
            ev["message_details"] = Value::Object(details);
        }
        self.queues.push(&[user], &ev);
    }
}

/// `POST /messages`
pub async fn send(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let level = s.lock().settings.feature_level;
    let is_channel = levels::message_type(level, &p.str("type")?)?;
    let to = p.str("to")?;
    let content = normalize_body(&p.str("content")?);
    let local = match (p.opt_str("local_id"), p.opt_str("queue_id")) {
        (Some(l), Some(q)) => Some((l, q)),
        _ => None,
    };
    // Before `read_by_sender`, the sender's copy is read only from a client known by name.
    let read_by_sender = if level < levels::READ_BY_SENDER {
        Some(levels::sent_by_human(&req.client))
    } else {
        p.opt_bool("read_by_sender")?
    };
    let id = {
        let mut org = s.lock();
        let recip = if is_channel {
            let cid = org.channel_param(&to)?;
            let given = p
                .opt_str("topic")
                .or_else(|| p.opt_str("subject"))
                .ok_or_else(|| ApiErr::missing("topic"))?;
            if given.trim().is_empty() && level < levels::EMPTY_TOPIC {
                return Err(ApiErr::bad("Topic can't be empty!"));
            }
            let topic = org.topic_in(&given);
            Recip::Channel { id: cid, topic }
        } else {
            let mut users = org.users_param(&to)?;
            users.push(req.user_id);
            users.sort_unstable();
            users.dedup();
            Recip::Dm { users }
        };
        org.send(req.user_id, recip, &content, &req.client, local, read_by_sender)?
    };
    dispatch_webhooks(&s);
    let mut answer = json!({"id": id});
    if level >= levels::SEND_ANSWERS_LINK {
        let org = s.lock();
        if let Some(m) = org.messages.get(&id) {
            let (fragment, link) = super::common::message_place(&org, m);
            let url = format!("{}/{fragment}", s.url.trim_end_matches('/'));
            answer["message_link"] = json!(link.unwrap_or_else(|| format!("[💬]({url})")));
            answer["message_url"] = json!(url);
        }
    }
    Ok(reply(p, success(answer)))
}

/// `DELETE /messages/{id}`: administrators delete any message; senders their own within the
/// organization's time limit.
pub async fn delete_message(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let mut org = s.lock();
    let m = org.readable(req.user_id, id)?;
    let (sender, sent) = (m.sender_id, m.timestamp);
    // `can_delete_any_message_group` (administrators by default); their own messages, those
    // in `can_delete_own_message_group` within the time limit.
    let cid = m.channel_id();
    let channel_lets = |setting: &str| cid.is_some_and(|c| org.channel_lets(c, setting, req.user_id));
    if !org.realm_lets("can_delete_any_message_group", req.user_id) {
        if sender != req.user_id
            || !(org.realm_lets("can_delete_own_message_group", req.user_id)
                || channel_lets("can_delete_own_message_group"))
        {
            return Err(ApiErr::bad("You don't have permission to delete this message"));
        }
        if org.realm.delete_own_limit_secs.is_some_and(|limit| org.now() - sent > limit) {
            return Err(ApiErr::bad("The time limit for deleting this message has passed"));
        }
    }
    org.delete_message(id);
    Ok(reply(&req.p, ok()))
}

/// A member's move within the time limit (`check_time_limit_for_change_all_propagate_mode`):
/// the target message must be within it, and so must every message a `change_later` or
/// `change_all` move takes — else `MOVE_MESSAGES_TIME_LIMIT_EXCEEDED` says how many of the
/// topic's most recent messages may move. From 505 that answer also comes for a `change_all`
/// move whose target is past the limit, as long as a message of the topic is within it.
fn check_move_time_limit(org: &Org, msg: &MessageRec, mode: &str, level: i64) -> ApiResult<()> {
    let now = org.now();
    // How long after sending members may move a message to another topic
    // (`move_messages_within_stream_limit_seconds`, a week by default; `None`: any time).
    let Some(limit) = org.realm.rules.move_within_limit_secs else { return Ok(()) };
    let within = |m: &MessageRec| now - m.timestamp <= limit + LIMIT_GRACE;
    let target_ok = within(msg);
    let old_target_all = mode == "change_all" && level >= levels::MOVE_LIMIT_ERROR_FOR_OLD_TARGET;
    if mode == "change_one" || (!target_ok && !old_target_all) {
        return if target_ok {
            Ok(())
        } else {
            Err(ApiErr::bad("The time limit for editing this message's topic has passed."))
        };
    }
    let topic: Vec<&MessageRec> = org
        .messages
        .values()
        .filter(|m| m.channel_id() == msg.channel_id() && same_name(m.topic(), msg.topic()))
        .filter(|m| mode == "change_all" || m.id >= msg.id)
        .collect();
    let allowed: Vec<&&MessageRec> = topic.iter().filter(|m| within(m)).collect();
    if allowed.len() == topic.len() {
        return Ok(());
    }
    if allowed.is_empty() {
        return Err(ApiErr::bad("The time limit for editing this message's topic has passed."));
    }
    Err(ApiErr::new(
        axum::http::StatusCode::BAD_REQUEST,
        "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
        format!(
            "You only have permission to move the {}/{} most recent messages in this topic.",
            allowed.len(),
            topic.len()
        ),
    )
    .with("first_message_id_allowed_to_move", allowed[0].id)
    .with("total_messages_allowed_to_move", allowed.len())
    .with("total_messages_in_topic", topic.len()))
}

/// What `PATCH /messages/{id}` is asked to change.
struct Asked<'a> {
    content: Option<&'a str>,
    topic: Option<&'a str>,
    new_channel: Option<i64>,
    mode: &'a str,
}

/// Whether `user` may make the change asked of `msg` (in channel `old_cid`, topic `old_topic`),
/// refused in the reference server's words; the new topic as it is stored.
fn may_edit(
    org: &Org,
    user: &crate::org::UserRec,
    msg: &MessageRec,
    asked: &Asked<'_>,
    (old_cid, old_topic): (Option<i64>, &str),
) -> ApiResult<Option<String>> {
    let level = org.settings.feature_level;
    if asked.content.is_some()
        && let Some(why) = org.edit_denied(user.id, msg)
    {
        return Err(ApiErr::bad(why));
    }
    // Moving: the organization's groups say who may move messages to another topic, to
    // another channel, resolve topics (`org/rules.rs`); guests never. Members within the time
    // limits (a week by default), administrators any time.
    let moving_topic = asked.topic.map(str::trim).filter(|t| *t != old_topic);
    let resolve = moving_topic.is_some_and(|t| {
        t == format!("✔ {old_topic}") || old_topic.strip_prefix("✔ ").is_some_and(|o| o == t)
    });
    if (asked.topic.is_some() || asked.new_channel.is_some()) && user.role >= Role::Guest {
        return Err(ApiErr::bad("You don't have permission to edit this message"));
    }
    if moving_topic.is_some()
        && let Some(cid) = old_cid
    {
        let (setting, own, why) = if resolve && level >= levels::CAN_RESOLVE_TOPICS_GROUP {
            (
                "can_resolve_topics_group",
                "can_resolve_topics_group",
                "You don't have permission to resolve topics in this channel.",
            )
        } else {
            (
                "can_move_messages_between_topics_group",
                "can_move_messages_within_channel_group",
                "You don't have permission to edit this message",
            )
        };
        // The organization's group, or the channel's own (from its level).
        if !org.realm_lets(setting, user.id) && !org.channel_lets(cid, own, user.id) {
            return Err(ApiErr::bad(why));
        }
    }
    if asked.new_channel.is_some()
        && let Some(cid) = old_cid
    {
        if !org.realm_lets("can_move_messages_between_channels_group", user.id)
            && !org.channel_lets(cid, "can_move_messages_out_of_channel_group", user.id)
        {
            return Err(ApiErr::bad("You don't have permission to move this message"));
        }
        let limit = org.realm.rules.move_between_limit_secs;
        if !user.is_admin() && limit.is_some_and(|l| org.now() - msg.timestamp > l + LIMIT_GRACE) {
            return Err(ApiErr::bad("The time limit for editing this message's channel has passed"));
        }
    }
    if (moving_topic.is_some() || asked.new_channel.is_some()) && user.role > Role::Moderator && !resolve {
        check_move_time_limit(org, msg, asked.mode, level)?;
    }
    if old_cid.is_none() && (asked.topic.is_some() || asked.new_channel.is_some()) {
        return Err(ApiErr::bad("Direct messages cannot be moved"));
    }
    let topic = asked.topic.map(|t| org.topic_in(t));
    if let Some(t) = &topic {
        if t.chars().count() > org.realm.max_topic_length {
            return Err(ApiErr::bad(format!(
                "Topic must not be longer than {} characters",
                org.realm.max_topic_length
            )));
        }
        check_topic(t)?;
    }
    if let Some(c) = asked.content {
        if c.trim().is_empty() {
            return Err(ApiErr::bad("Message must not be empty"));
        }
        if c.chars().count() > org.realm.max_message_length {
            return Err(ApiErr::bad("Message is too long"));
        }
    }
    if let Some(nc) = asked.new_channel {
        if !org.channels.contains_key(&nc) {
            return Err(ApiErr::bad("Invalid channel ID"));
        }
        if let Some(why) = org.post_denied(user.id, nc) {
            return Err(ApiErr::bad(why));
        }
    }
    // Moving into a topic with no message yet starts it (resolving or unresolving does not).
    if topic.is_some() || asked.new_channel.is_some() {
        let target_topic = topic.clone().unwrap_or_else(|| old_topic.to_owned());
        let resolving = target_topic == format!("✔ {old_topic}")
            || old_topic.strip_prefix("✔ ").is_some_and(|t| t == target_topic);
        let target = asked.new_channel.or(old_cid).unwrap_or_default();
        if let Some(why) = org.topic_create_denied(user.id, target, &target_topic).filter(|_| !resolving) {
            return Err(ApiErr::bad(why));
        }
    }
    Ok(topic)
}

/// `PATCH /messages/{id}`: edit content, rename the topic, move to another channel.
pub async fn update_message(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let p = &req.p;
    let content = p.opt_str("content").map(|c| normalize_body(&c));
    let topic_raw = p.opt_str("topic").or_else(|| p.opt_str("subject"));
    let new_channel = p.opt_i64("stream_id")?;
    let mode = p.opt_str("propagate_mode").unwrap_or_else(|| "change_one".into());
    if !matches!(mode.as_str(), "change_one" | "change_later" | "change_all") {
        return Err(ApiErr::bad("Invalid propagate_mode"));
    }
    // The reference server's defaults: tell the new conversation, not the old one.
    let notify_old = p.opt_bool("send_notification_to_old_thread")?.unwrap_or(false);
    let notify_new = p.opt_bool("send_notification_to_new_thread")?.unwrap_or(true);
    let mut org = s.lock();
    let level = org.settings.feature_level;
    let msg = org.readable(req.user_id, id)?.clone();
    let (old_cid, old_topic) = match &msg.recip {
        Recip::Channel { id, topic } => (Some(*id), topic.clone()),
        Recip::Dm { .. } => (None, String::new()),
    };
    // From 509 a message's own channel is no move (before, it was taken as one).
    let new_channel = new_channel.filter(|c| level < levels::SAME_CHANNEL_NOT_A_MOVE || Some(*c) != old_cid);
    if content.is_none() && topic_raw.is_none() && new_channel.is_none() {
        return Err(ApiErr::bad("Nothing to change"));
    }
    let user = org.user(req.user_id)?.clone();
    let asked = Asked { content: content.as_deref(), topic: topic_raw.as_deref(), new_channel, mode: &mode };
    let topic = may_edit(&org, &user, &msg, &asked, (old_cid, &old_topic))?;
    // The messages a topic or channel change applies to.
    let mut ids = vec![id];
    if (topic.is_some() || new_channel.is_some()) && mode != "change_one" {
        ids = org
            .messages
            .values()
            .filter(|m| m.channel_id() == old_cid && same_name(m.topic(), &old_topic))
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
    // Uploads linked or no longer linked: their owners hear where they are used now.
    if content.is_some() {
        org.claim_attachments(id, &msg.content);
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
                // The new topic's linkifier matches (the organization has no linkifiers).
                ev["topic_links"] = json!([]);
            }
            if let Some(nc) = new_channel {
                ev["new_stream_id"] = json!(nc);
            }
        }
    }
    let holders = org.holders(id);
    // Each holder's own flags for the message (an edit can add or take away an alert word).
    let flags: std::collections::HashMap<i64, Vec<&'static str>> =
        holders.iter().map(|u| (*u, org.flags_for(*u, id))).collect();
    // Clients without the empty-topic capability see the realm's display name instead of "".
    let display = org.realm.empty_topic_display_name.clone();
    org.queues.push_with(&holders, "update_message", |q| {
        let mut e = ev.clone();
        e["flags"] = json!(flags.get(&q.user_id).cloned().unwrap_or_default());
        if !q.empty_topic_name {
            for key in ["orig_subject", "subject"] {
                if e.get(key).and_then(Value::as_str) == Some("") {
                    e[key] = json!(display);
                }
            }
        }
        Some(e)
    });
    if let Some(old_cid) = old_cid
        && (topic.is_some() || new_channel.is_some())
    {
        let to = (new_channel.unwrap_or(old_cid), topic.clone().unwrap_or_else(|| old_topic.clone()));
        let by = format!("@_**{}|{}**", user.full_name, user.id);
        move_notices(
            &mut org,
            (old_cid, &old_topic),
            (to.0, &to.1),
            &by,
            ids.len(),
            mode == "change_all",
            (notify_old, notify_new),
        );
    }
    drop(org);
    Ok(reply(p, ok()))
}

/// The notification bot's notes on a moved or (un)resolved topic, worded as the reference
/// server words them (a channel the bot may not post in goes without).
fn move_notices(
    org: &mut Org,
    from: (i64, &str),
    to: (i64, &str),
    by: &str,
    count: usize,
    whole_topic: bool,
    (notify_old, notify_new): (bool, bool),
) {
    let bot = org.notification_bot;
    let name = |org: &Org, c: i64| org.channels.get(&c).map(|c| c.name.clone()).unwrap_or_default();
    let link = |org: &Org, (c, t): (i64, &str)| format!("#**{}>{}**", name(org, c), t);
    let resolving = from.0 == to.0 && strip_resolved(from.1) == strip_resolved(to.1) && from.1 != to.1;
    if resolving {
        if notify_new {
            let done = if to.1.starts_with("✔ ") { "resolved" } else { "unresolved" };
            let text = format!("{by} has marked this topic as {done}.");
            let _ = org.send(
                bot,
                Recip::Channel { id: to.0, topic: to.1.to_owned() },
                &text,
                "Internal",
                None,
                None,
            );
        }
        return;
    }
    let what = if whole_topic {
        "This topic was".to_owned()
    } else if count == 1 {
        "A message was".to_owned()
    } else {
        format!("{count} messages were")
    };
    if notify_new {
        let text = format!("{what} moved here from {} by {by}.", link(org, from));
        let _ =
            org.send(bot, Recip::Channel { id: to.0, topic: to.1.to_owned() }, &text, "Internal", None, None);
    }
    if notify_old {
        let text = format!("{what} moved to {} by {by}.", link(org, to));
        let _ = org.send(
            bot,
            Recip::Channel { id: from.0, topic: from.1.to_owned() },
            &text,
            "Internal",
            None,
            None,
        );
    }
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
        // Before 511 a report that could not be posted (an archived moderation channel, a
        // topic the bot may not start) was dropped in silence; from 511 the reporter hears it.
        let sent = org.send(bot, Recip::Channel { id: channel, topic }, &content, "Internal", None, None);
        if sent.is_err() && org.settings.feature_level >= levels::REPORT_DELIVERY_ERROR {
            return Err(ApiErr::bad("The report could not be sent to the moderation request channel."));
        }
    }
    dispatch_webhooks(&s);
    Ok(reply(p, ok()))
}
