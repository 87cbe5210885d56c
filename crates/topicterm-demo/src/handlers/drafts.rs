//! Server-side drafts (list, create, edit, delete) and the one user setting that governs them,
//! `enable_drafts_synchronization`.
//!
//! Checks and messages follow the reference server, except that content and topics over the
//! organization's limits are refused (as everywhere else in the demo server) rather than
//! silently truncated.

use super::common::Res;
use crate::error::{ApiErr, ApiResult, ok, success};
use crate::org::{DraftRec, DraftTo, Org};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// At most this many drafts come with `register` (the reference server's cap).
pub const MAX_DRAFTS_IN_REGISTER: usize = 1000;

/// Keys a draft object may have (`id` is allowed and ignored on input).
const DRAFT_KEYS: &[&str] = &["id", "type", "to", "topic", "content", "timestamp"];

/// A draft as the client sent it, syntactically valid.
struct DraftIn {
    kind: String,
    to: Vec<i64>,
    topic: String,
    content: String,
    timestamp: Option<f64>,
}

impl Org {
    /// Whether the user keeps drafts on the server (the default).
    pub fn drafts_sync_enabled(&self, user: i64) -> bool {
        !self.drafts_sync_off.contains(&user)
    }

    pub fn draft_json(d: &DraftRec) -> Value {
        let (kind, to) = match &d.to {
            DraftTo::Nobody => ("", Vec::new()),
            DraftTo::Channel(c) => ("stream", vec![*c]),
            DraftTo::Users(u) => ("private", u.clone()),
        };
        json!({
            "id": d.id,
            "type": kind,
            "to": to,
            "topic": d.topic,
            "content": d.content,
            "timestamp": d.timestamp.floor() as i64,
        })
    }

    /// A user's drafts, most recently edited first.
    pub fn drafts_json(&self, user: i64) -> Vec<Value> {
        let mut mine: Vec<&DraftRec> =
            self.drafts.get(&user).map(|m| m.values().collect()).unwrap_or_default();
        mine.sort_by(|a, b| b.timestamp.total_cmp(&a.timestamp).then(b.seq.cmp(&a.seq)));
        mine.into_iter().map(Self::draft_json).collect()
    }

    fn next_draft_seq(&self, user: i64) -> i64 {
        self.drafts.get(&user).and_then(|m| m.values().map(|d| d.seq).max()).unwrap_or(0) + 1
    }

    /// The checks the reference server makes once a draft is well-formed; returns the
    /// draft's recipient, topic and timestamp as stored.
    fn validate_draft(&self, owner: i64, d: &DraftIn) -> ApiResult<(DraftTo, String, f64)> {
        if d.content.trim().is_empty() {
            return Err(ApiErr::bad("Message must not be empty"));
        }
        if d.content.contains('\0') {
            return Err(ApiErr::bad("Message must not contain null bytes"));
        }
        if d.content.chars().count() > self.realm.max_message_length {
            return Err(ApiErr::bad(format!(
                "Message must not be longer than {} characters",
                self.realm.max_message_length
            )));
        }
        let timestamp = d.timestamp.unwrap_or_else(|| self.now_f64());
        if timestamp < 0.0 {
            return Err(ApiErr::bad("Timestamp must not be negative."));
        }
        match d.kind.as_str() {
            "stream" => {
                if d.topic.contains('\0') {
                    return Err(ApiErr::bad("Topic must not contain null bytes"));
                }
                if d.topic.chars().count() > self.realm.max_topic_length {
                    return Err(ApiErr::bad(format!(
                        "Topic must not be longer than {} characters",
                        self.realm.max_topic_length
                    )));
                }
                let [channel] = d.to[..] else {
                    return Err(ApiErr::bad("Must specify exactly 1 channel ID for channel messages"));
                };
                let c = self.accessible_channel(owner, channel)?;
                if c.is_archived {
                    return Err(ApiErr::bad("Invalid channel ID"));
                }
                Ok((DraftTo::Channel(channel), d.topic.clone(), timestamp))
            }
            "private" if !d.to.is_empty() => {
                let mut users = d.to.clone();
                users.sort_unstable();
                users.dedup();
                for u in &users {
                    if !self.users.get(u).is_some_and(|r| r.is_active) {
                        return Err(ApiErr::bad(format!("Invalid user ID {u}")));
                    }
                }
                // Like a conversation's recipients: the others, or only the owner for a
                // draft to themselves.
                if users.len() > 1 {
                    users.retain(|u| *u != owner);
                }
                Ok((DraftTo::Users(users), String::new(), timestamp))
            }
            // Unaddressed, or "private" with nobody yet: stored (and shown) as unaddressed.
            _ => Ok((DraftTo::Nobody, String::new(), timestamp)),
        }
    }
}

fn sync_required(org: &Org, user: i64) -> ApiResult<()> {
    if org.drafts_sync_enabled(user) {
        Ok(())
    } else {
        Err(ApiErr::bad("User has disabled synchronizing drafts."))
    }
}

fn not_found() -> ApiErr {
    ApiErr::new(StatusCode::NOT_FOUND, "BAD_REQUEST", "Draft does not exist")
}

/// Parse one draft object; `name` says where it sits (`drafts[2]`, `draft`) in messages.
fn parse_draft(v: &Value, name: &str) -> ApiResult<DraftIn> {
    let obj: &Map<String, Value> =
        v.as_object().ok_or_else(|| ApiErr::bad(format!("{name} is not a dict")))?;
    if let Some(k) = obj.keys().find(|k| !DRAFT_KEYS.contains(&k.as_str())) {
        return Err(ApiErr::bad(format!("{name} has an unexpected key '{k}'")));
    }
    let field = |key: &str| obj.get(key).ok_or_else(|| ApiErr::bad(format!("{name}[\"{key}\"] is missing")));
    let string = |key: &str| -> ApiResult<String> {
        field(key)?
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| ApiErr::bad(format!("{name}[\"{key}\"] is not a string")))
    };
    let kind = string("type")?;
    if !matches!(kind.as_str(), "" | "stream" | "private") {
        return Err(ApiErr::bad(format!(
            "{name}[\"type\"] must be one of \"\", \"stream\" or \"private\", not \"{kind}\""
        )));
    }
    let not_ids = || ApiErr::bad(format!("{name}[\"to\"] is not a list of integers"));
    let to = field("to")?
        .as_array()
        .ok_or_else(not_ids)?
        .iter()
        .map(|x| x.as_i64().ok_or_else(not_ids))
        .collect::<ApiResult<Vec<i64>>>()?;
    let topic = string("topic")?;
    let content = string("content")?;
    let timestamp = match obj.get("timestamp") {
        None | Some(Value::Null) => None,
        Some(t) => {
            Some(t.as_f64().ok_or_else(|| ApiErr::bad(format!("{name}[\"timestamp\"] is not a number")))?)
        }
    };
    Ok(DraftIn { kind, to, topic, content, timestamp })
}

/// `GET /drafts`
pub async fn list(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    sync_required(&org, req.user_id)?;
    let drafts = org.drafts_json(req.user_id);
    Ok(reply(&req.p, success(json!({"count": drafts.len(), "drafts": drafts}))))
}

/// `POST /drafts`: every draft is checked before any is stored.
pub async fn create(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let uid = req.user_id;
    let mut org = s.lock();
    sync_required(&org, uid)?;
    let raw: Value = p.json("drafts")?;
    let list = raw.as_array().ok_or_else(|| ApiErr::bad("drafts is not a list"))?;
    let mut checked = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let d = parse_draft(v, &format!("drafts[{i}]"))?;
        let (to, topic, timestamp) = org.validate_draft(uid, &d)?;
        checked.push((to, topic, d.content, timestamp));
    }
    let mut ids = Vec::with_capacity(checked.len());
    let mut created = Vec::with_capacity(checked.len());
    for (to, topic, content, timestamp) in checked {
        let id = org.alloc();
        let seq = org.next_draft_seq(uid);
        let rec = DraftRec { id, to, topic, content, timestamp, seq };
        created.push(Org::draft_json(&rec));
        org.drafts.entry(uid).or_default().insert(id, rec);
        ids.push(id);
    }
    if !created.is_empty() {
        org.queues.push(&[uid], &json!({"type": "drafts", "op": "add", "drafts": created}));
    }
    Ok(reply(p, success(json!({"ids": ids}))))
}

/// `PATCH /drafts/{draft_id}`: replaces the whole draft.
pub async fn edit(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let p = &req.p;
    let uid = req.user_id;
    let mut org = s.lock();
    sync_required(&org, uid)?;
    let id = path_id("draft_id", &id)?;
    let raw: Value = p.json("draft")?;
    let d = parse_draft(&raw, "draft")?;
    if !org.drafts.get(&uid).is_some_and(|m| m.contains_key(&id)) {
        return Err(not_found());
    }
    let (to, topic, timestamp) = org.validate_draft(uid, &d)?;
    let seq = org.next_draft_seq(uid);
    let rec = DraftRec { id, to, topic, content: d.content, timestamp, seq };
    let json = Org::draft_json(&rec);
    org.drafts.entry(uid).or_default().insert(id, rec);
    org.queues.push(&[uid], &json!({"type": "drafts", "op": "update", "draft": json}));
    Ok(reply(p, ok()))
}

/// `DELETE /drafts/{draft_id}`
pub async fn delete(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let uid = req.user_id;
    let mut org = s.lock();
    sync_required(&org, uid)?;
    let id = path_id("draft_id", &id)?;
    if org.drafts.get_mut(&uid).and_then(|m| m.remove(&id)).is_none() {
        return Err(not_found());
    }
    org.queues.push(&[uid], &json!({"type": "drafts", "op": "remove", "draft_id": id}));
    Ok(reply(&req.p, ok()))
}

/// `PATCH /settings`: only `enable_drafts_synchronization` is supported (anything else is
/// reported in `ignored_parameters_unsupported`). Turning it off deletes the user's drafts
/// on the server, without events (clients keep their local copies).
pub fn set_drafts_sync(org: &mut Org, uid: i64, on: bool) {
    if on == org.drafts_sync_enabled(uid) {
        return;
    }
    if on {
        org.drafts_sync_off.remove(&uid);
    } else {
        org.drafts_sync_off.insert(uid);
        org.drafts.remove(&uid);
    }
    let ev = json!({"type": "user_settings", "op": "update",
                    "property": "enable_drafts_synchronization", "value": on});
    org.queues.push(&[uid], &ev);
}
