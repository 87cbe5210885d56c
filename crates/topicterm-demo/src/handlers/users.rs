//! Users: presence, status, deactivation, push tokens, user groups, credentials.

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{DEMO_PASSWORD, Org, PresenceRec, Recip, Role, UserRec};
use crate::params::path_id;
use crate::shared::{Anon, Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Seconds after which an active timestamp counts as offline.
pub const OFFLINE_THRESHOLD: i64 = 140;
/// How often clients should ping.
pub const PING_INTERVAL: i64 = 60;
/// A presence timestamp younger than this is not rewritten (the reference server's
/// `PRESENCE_UPDATE_MIN_FREQ_SECONDS`).
pub const PRESENCE_UPDATE_MIN_FREQ: i64 = 55;

impl Org {
    /// Presence entries visible to others (invisible and deactivated users are left out).
    pub fn visible_presence(&self, since_update: Option<i64>, history_days: i64) -> Vec<(i64, PresenceRec)> {
        let oldest = self.now() - history_days * 86400;
        let mut v: Vec<(i64, PresenceRec)> = self
            .presence
            .iter()
            .filter(|(u, _)| self.users.get(u).is_some_and(|u| u.is_active && u.presence_enabled))
            .filter(|(_, p)| match since_update {
                Some(id) if id > 0 => p.update_id > id,
                _ => p.active_ts.max(p.idle_ts) >= oldest,
            })
            .map(|(u, p)| (*u, *p))
            .collect();
        v.sort_by_key(|(u, _)| *u);
        v
    }

    /// The presence object in the modern (by ID) or legacy (by email) format.
    pub fn presence_json(&self, entries: &[(i64, PresenceRec)], modern: bool) -> Value {
        let mut out = Map::new();
        for (uid, p) in entries {
            if modern {
                out.insert(
                    uid.to_string(),
                    json!({"active_timestamp": p.active_ts, "idle_timestamp": p.idle_ts}),
                );
            } else if let Some(u) = self.users.get(uid) {
                let (status, ts) = legacy_status(p);
                out.insert(
                    u.email.clone(),
                    json!({
                        "aggregated": {"client": "website", "status": status, "timestamp": ts},
                        "website": {"client": "website", "status": status, "timestamp": ts, "pushable": false},
                    }),
                );
            }
        }
        Value::Object(out)
    }

    pub fn max_presence_id(&self) -> i64 {
        self.presence.values().map(|p| p.update_id).max().unwrap_or(0)
    }
}

fn legacy_status(p: &PresenceRec) -> (&'static str, i64) {
    if p.active_ts >= p.idle_ts { ("active", p.active_ts) } else { ("idle", p.idle_ts) }
}

/// `POST /users/me/presence`
pub async fn presence(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let status = p.str("status")?;
    if !matches!(status.as_str(), "active" | "idle") {
        return Err(ApiErr::bad(format!("Invalid status: {status}")));
    }
    let level = s.lock().settings.feature_level;
    // Servers before these levels do not know the parameters (they are reported as ignored).
    let last_update_id =
        if level >= crate::levels::PRESENCE_LAST_UPDATE_ID { p.opt_i64("last_update_id")? } else { None };
    let history_days = if level >= crate::levels::PRESENCE_HISTORY_LIMIT {
        p.opt_i64("history_limit_days")?.unwrap_or(14).max(0)
    } else {
        14
    };
    let ping_only = p.bool_or("ping_only", false)?;
    let _ = p.opt_bool("new_user_input")?;
    let slim = p.bool_or("slim_presence", false)?;
    let mut org = s.lock();
    let t = org.now();
    let prev = org.presence.get(&req.user_id).copied();
    let mut rec = prev.unwrap_or_default();
    // Like the reference server, a report only rewrites timestamps that are stale, so a client
    // polling with its `last_update_id` does not get its own entry back every time.
    let mut changed = prev.is_none();
    if t - rec.idle_ts >= PRESENCE_UPDATE_MIN_FREQ {
        rec.idle_ts = t;
        changed = true;
    }
    let came_online = status == "active" && t - rec.active_ts > OFFLINE_THRESHOLD;
    if status == "active" && t - rec.active_ts >= PRESENCE_UPDATE_MIN_FREQ {
        rec.active_ts = t;
        changed = true;
    }
    if changed {
        org.presence_counter += 1;
        rec.update_id = org.presence_counter;
        org.presence.insert(req.user_id, rec);
    }
    let status_changed = prev.is_none_or(|prev| legacy_status(&prev).0 != legacy_status(&rec).0);
    let visible = org.users.get(&req.user_id).is_some_and(|u| u.presence_enabled);
    if visible && changed && (came_online || status_changed) {
        let email = org.users.get(&req.user_id).map(|u| u.email.clone()).unwrap_or_default();
        let (now_status, ts) = legacy_status(&rec);
        // The legacy shape, unless the client declared `simplified_presence_events`.
        let legacy = json!({
            "type": "presence",
            "user_id": req.user_id,
            "email": email,
            "server_timestamp": org.now_f64(),
            "presence": {"website": {"client": "website", "status": now_status, "timestamp": ts, "pushable": false}},
        });
        let modern = json!({
            "type": "presence",
            "presences": {req.user_id.to_string(): {"active_timestamp": rec.active_ts, "idle_timestamp": rec.idle_ts}},
        });
        let everyone: Vec<i64> = org.users.keys().copied().filter(|u| *u != req.user_id).collect();
        org.queues.push_with(&everyone, "presence", |q| {
            Some(if q.simplified_presence { modern.clone() } else { legacy.clone() })
        });
    }
    let knows_ids = level >= crate::levels::PRESENCE_LAST_UPDATE_ID;
    if ping_only {
        let id = if last_update_id.is_some() { org.max_presence_id() } else { -1 };
        let body = if knows_ids { json!({"presence_last_update_id": id}) } else { json!({}) };
        return Ok(reply(p, success(body)));
    }
    let modern = last_update_id.is_some() || slim;
    let entries = org.visible_presence(last_update_id, history_days);
    let last = match last_update_id {
        Some(id) => entries.iter().map(|(_, r)| r.update_id).max().unwrap_or(0).max(id),
        None if entries.is_empty() => -1,
        None => org.max_presence_id(),
    };
    let mut body = json!({
        "server_timestamp": org.now_f64(),
        "presences": org.presence_json(&entries, modern),
    });
    if knows_ids {
        body["presence_last_update_id"] = json!(last);
    }
    Ok(reply(p, success(body)))
}

/// `GET /realm/presence`
pub async fn realm_presence(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    let entries = org.visible_presence(None, 14);
    Ok(reply(
        &req.p,
        success(json!({"server_timestamp": org.now_f64(), "presences": org.presence_json(&entries, false)})),
    ))
}

/// `POST /users/me/status`
pub async fn status(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let text = p.opt_str("status_text");
    let name = p.opt_str("emoji_name");
    let code = p.opt_str("emoji_code");
    let rt = p.opt_str("reaction_type");
    let away = p.opt_bool("away")?;
    if text.is_none() && name.is_none() && code.is_none() && rt.is_none() && away.is_none() {
        return Err(ApiErr::bad("Client did not pass any new values."));
    }
    if let Some(t) = &text
        && t.chars().count() > 60
    {
        return Err(ApiErr::bad("Status text is too long (limit: 60 characters)."));
    }
    if name.is_none() && (code.is_some() || rt.is_some()) {
        return Err(ApiErr::bad(
            "Client must pass emoji_name if they pass either emoji_code or reaction_type.",
        ));
    }
    let mut org = s.lock();
    let emoji = match name.as_deref() {
        Some("") => Some((String::new(), String::new(), String::new())),
        Some(n) => {
            let (n, c, t) = super::reactions::check_emoji(&org, n, code.as_deref(), rt.as_deref())?;
            Some((n, c, t.as_str().to_owned()))
        }
        None => None,
    };
    let user = org.users.get_mut(&req.user_id).ok_or_else(|| ApiErr::bad("Invalid user"))?;
    if let Some(t) = &text {
        user.status.status_text = t.trim().to_owned();
    }
    if let Some((n, c, t)) = &emoji {
        user.status.emoji_name = n.clone();
        user.status.emoji_code = c.clone();
        user.status.reaction_type = t.clone();
    }
    if let Some(a) = away {
        user.presence_enabled = !a;
    }
    let st = user.status.clone();
    let mut ev = json!({"type": "user_status", "user_id": req.user_id});
    if text.is_some() {
        ev["status_text"] = json!(st.status_text);
    }
    if emoji.is_some() {
        ev["emoji_name"] = json!(st.emoji_name);
        ev["emoji_code"] = json!(st.emoji_code);
        ev["reaction_type"] = json!(st.reaction_type);
    }
    if let Some(a) = away {
        ev["away"] = json!(a);
    }
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues.push(&everyone, &ev);
    Ok(reply(p, ok()))
}

/// `GET /users/{id}/status`
pub async fn get_status(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("user_id", &id)?;
    let org = s.lock();
    let u = org.user(id)?;
    Ok(reply(&req.p, success(json!({"status": status_json(u)}))))
}

/// A user's status record; `away` is the inverse of `presence_enabled` (deprecated, still sent).
pub fn status_json(u: &UserRec) -> Value {
    let mut st = serde_json::to_value(&u.status).unwrap_or_else(|_| json!({}));
    if !u.presence_enabled
        && let Some(obj) = st.as_object_mut()
    {
        obj.insert("away".into(), json!(true));
    }
    st
}

/// `GET /users`
pub async fn users(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let _ = req.p.opt_bool("client_gravatar")?;
    let profile = req.p.bool_or("include_custom_profile_fields", false)?;
    let org = s.lock();
    let members: Vec<Value> = org
        .users
        .values()
        .filter(|u| !u.is_system_bot)
        .map(|u| {
            let mut v = org.user_json(u);
            if let (false, Some(o)) = (profile, v.as_object_mut()) {
                o.remove("profile_data");
            }
            v
        })
        .collect();
    Ok(reply(&req.p, success(json!({"members": members}))))
}

/// `GET /users/me`
pub async fn me(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    let u = org.user(req.user_id)?;
    let mut me = org.user_json(u);
    // One's own address is always one's own to see (the reference's `get_profile_backend`).
    me["delivery_email"] = json!(u.email);
    Ok(reply(&req.p, success(me)))
}

/// Deactivate one account and apply the deletion actions to it.
fn deactivate_one(org: &mut Org, uid: i64, actions: &Map<String, Value>) {
    let flag = |k: &str| actions.get(k).and_then(Value::as_bool).unwrap_or(false);
    let mut deleted = Vec::new();
    for m in org.messages.values().filter(|m| m.sender_id == uid) {
        let delete = match &m.recip {
            Recip::Channel { id, .. } => {
                let private = org.channels.get(id).is_some_and(|c| c.invite_only);
                if private {
                    flag("delete_private_channel_messages")
                } else {
                    flag("delete_public_channel_messages")
                }
            }
            Recip::Dm { .. } => flag("delete_direct_messages"),
        };
        if delete {
            deleted.push(m.id);
        }
    }
    for id in deleted {
        org.delete_message(id);
    }
    if let Some(u) = org.users.get_mut(&uid) {
        u.is_active = false;
        if flag("delete_profile") {
            u.full_name = format!("Deleted User {uid}");
            u.avatar_removed = true;
        }
    }
    org.queues.drop_user(uid);
    // As the reference's `do_deactivate_user`: the user leaves each channel's subscribers, then
    // everyone learns `is_active: false` (a deleted profile's new name is an update of its own),
    // and a bot's owner hears of it as a bot; the invitations the user made are revoked.
    // Archived channels' subscribers hear of it too from level 428.
    let archived_too = org.settings.feature_level >= crate::levels::PEER_REMOVE_ARCHIVED;
    let channels: Vec<(i64, Vec<i64>)> = org
        .channels
        .values()
        .filter(|c| c.subs.contains_key(&uid) && (archived_too || !c.is_archived))
        .map(|c| (c.id, c.subs.keys().copied().filter(|u| *u != uid).collect()))
        .collect();
    for (cid, others) in channels {
        let e = json!({"type": "subscription", "op": "peer_remove", "stream_ids": [cid], "user_ids": [uid]});
        org.queues.push(&others, &e);
    }
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    let e = json!({"type": "realm_user", "op": "update", "person": {"user_id": uid, "is_active": false}});
    org.queues.push(&everyone, &e);
    if flag("delete_profile")
        && let Some(name) = org.users.get(&uid).map(|u| u.full_name.clone())
    {
        let e = json!({"type": "realm_user", "op": "update", "person": {"user_id": uid, "full_name": name}});
        org.queues.push(&everyone, &e);
    }
    if let Some(owner) = org.users.get(&uid).and_then(|u| u.bot_owner) {
        let e = json!({"type": "realm_bot", "op": "update", "bot": {"user_id": uid, "is_active": false}});
        org.queues.push(&[owner], &e);
    }
    org.invites.retain(|_, i| i.by != uid);
    org.scheduled.retain(|_, s| s.sender_id != uid);
}

/// `DELETE /users/me`: the user deactivates their own account (and their bots), unless they
/// are the organization's only user or its only human owner (`CANNOT_DEACTIVATE_LAST_USER`,
/// as the reference's `deactivate_user_own_backend`).
pub async fn deactivate_me(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let mut org = s.lock();
    let me = org.user(req.user_id)?;
    let last = |owner: bool| {
        let entity = if owner { "organization owner" } else { "user" };
        ApiErr::new(
            StatusCode::BAD_REQUEST,
            "CANNOT_DEACTIVATE_LAST_USER",
            format!("Cannot deactivate the only {entity}."),
        )
        .with("is_last_owner", owner)
        .with("entity", entity)
    };
    if org.users.values().filter(|u| u.is_active && !u.is_system_bot).count() == 1 {
        return Err(last(false));
    }
    if me.role == Role::Owner && !me.is_bot() {
        let owners =
            org.users.values().filter(|u| u.is_active && u.role == Role::Owner && !u.is_bot()).count();
        if owners == 1 {
            return Err(last(true));
        }
    }
    let bots: Vec<i64> = org
        .users
        .values()
        .filter(|u| u.bot_owner == Some(req.user_id) && u.is_active)
        .map(|u| u.id)
        .collect();
    let none = Map::new();
    for b in bots {
        deactivate_one(&mut org, b, &none);
    }
    deactivate_one(&mut org, req.user_id, &none);
    org.refresh_system_groups();
    Ok(reply(&req.p, ok()))
}

/// `DELETE /users/{id}`: administrators only; bots owned by the user go first.
pub async fn deactivate(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let target = path_id("user_id", &id)?;
    let p = &req.p;
    let actions: Map<String, Value> = p.opt_json("actions")?.unwrap_or_default();
    for (k, v) in &actions {
        if !matches!(
            k.as_str(),
            "delete_profile"
                | "delete_public_channel_messages"
                | "delete_private_channel_messages"
                | "delete_direct_messages"
        ) {
            return Err(ApiErr::bad(format!("Invalid actions key '{k}'")));
        }
        if !v.is_boolean() {
            return Err(ApiErr::bad(format!("actions[\"{k}\"] is not a boolean")));
        }
    }
    let _ = p.opt_str("deactivation_notification_comment");
    let mut org = s.lock();
    if !org.user(req.user_id)?.is_admin() {
        return Err(ApiErr::admin_required());
    }
    let t = org
        .users
        .get(&target)
        .filter(|u| u.is_active && !u.is_system_bot)
        .ok_or_else(|| ApiErr::bad("No such user"))?;
    if t.role == Role::Owner {
        if !org.user(req.user_id)?.role.eq(&Role::Owner) {
            return Err(ApiErr::bad("Only organization owners can deactivate owners"));
        }
        let owners =
            org.users.values().filter(|u| u.is_active && u.role == Role::Owner && !u.is_bot()).count();
        if owners <= 1 {
            return Err(ApiErr::bad("Cannot deactivate the only organization owner"));
        }
    }
    let bots: Vec<i64> =
        org.users.values().filter(|u| u.bot_owner == Some(target) && u.is_active).map(|u| u.id).collect();
    for b in bots {
        deactivate_one(&mut org, b, &actions);
    }
    deactivate_one(&mut org, target, &actions);
    org.refresh_system_groups();
    Ok(reply(p, ok()))
}

/// `POST /users/me/apns_device_token`
pub async fn apns(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let token = p.str("token")?;
    let level = s.lock().settings.feature_level;
    let appid = if level >= 223 { Some(p.str("appid")?) } else { p.opt_str("appid") };
    if token.is_empty() || token.len() > 255 {
        return Err(ApiErr::bad("Empty or invalid length token"));
    }
    // The token is binary data in hex: whole bytes only.
    if token.len() % 2 != 0 || !token.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(ApiErr::bad("Invalid APNS token"));
    }
    if let Some(a) = &appid
        && (a.is_empty() || !a.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'))
    {
        return Err(ApiErr::bad("Invalid app ID"));
    }
    let mut org = s.lock();
    let uid = req.user_id;
    org.apns_tokens.retain(|(u, t, _)| !(*u == uid && *t == token));
    org.apns_tokens.push((uid, token, appid));
    Ok(reply(p, ok()))
}

/// `GET /user_groups`
pub async fn groups(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    let list: Vec<Value> = org.groups.values().map(group_json).collect();
    Ok(reply(&req.p, success(json!({"user_groups": list}))))
}

pub fn group_json(g: &crate::org::GroupRec) -> Value {
    json!({
        "id": g.id, "name": g.name, "description": g.description,
        "members": g.members, "direct_subgroup_ids": g.subgroups,
        "is_system_group": g.is_system, "deactivated": g.deactivated,
        "creator_id": g.creator_id, "date_created": g.date_created,
    })
}

/// `POST /user_groups/{id}/members`
pub async fn group_members(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let gid = path_id("user_group_id", &id)?;
    let p = &req.p;
    let add: Vec<i64> = p.opt_json("add")?.unwrap_or_default();
    let delete: Vec<i64> = p.opt_json("delete")?.unwrap_or_default();
    let add_sub: Vec<i64> = p.opt_json("add_subgroups")?.unwrap_or_default();
    let del_sub: Vec<i64> = p.opt_json("delete_subgroups")?.unwrap_or_default();
    if add.is_empty() && delete.is_empty() && add_sub.is_empty() && del_sub.is_empty() {
        return Err(ApiErr::bad(
            "Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \"delete_subgroups\".",
        ));
    }
    let mut org = s.lock();
    let caller = org.user(req.user_id)?.clone();
    if caller.is_bot() && org.settings.feature_level < 496 {
        return Err(ApiErr::bad("Bots cannot change user group members"));
    }
    let group = org.groups.get(&gid).cloned().ok_or_else(|| ApiErr::bad("Invalid user group"))?;
    if group.is_system {
        return Err(ApiErr::bad("Insufficient permission"));
    }
    if group.deactivated && org.settings.feature_level < 391 {
        return Err(ApiErr::bad("User group is deactivated."));
    }
    let may_manage = caller.role <= Role::Moderator || org.in_group(gid, req.user_id);
    if !may_manage {
        return Err(ApiErr::insufficient());
    }
    for u in &add {
        if !org.users.get(u).is_some_and(|x| x.is_active) {
            return Err(ApiErr::bad(format!("Invalid user ID: {u}")));
        }
        if group.members.contains(u) {
            return Err(ApiErr::bad(format!("User {u} is already a member of this group")));
        }
    }
    for u in &delete {
        if !org.users.get(u).is_some_and(|x| x.is_active) {
            return Err(ApiErr::bad(format!("Invalid user ID: {u}")));
        }
        if !group.members.contains(u) {
            return Err(ApiErr::bad(format!("There is no member '{u}' in this user group")));
        }
    }
    for g in &add_sub {
        let Some(sub) = org.groups.get(g) else {
            return Err(ApiErr::bad(format!("Invalid user group ID: {g}")));
        };
        if sub.deactivated {
            return Err(ApiErr::bad("Deactivated groups cannot be used as subgroups"));
        }
        if *g == gid || group.subgroups.contains(g) {
            return Err(ApiErr::bad(format!("User group {g} is already a subgroup of this group.")));
        }
        // A cycle: the new subgroup (transitively) contains this group.
        let mut stack = vec![*g];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(x) = stack.pop() {
            if x == gid {
                return Err(ApiErr::bad("User group cycle detected"));
            }
            if seen.insert(x)
                && let Some(r) = org.groups.get(&x)
            {
                stack.extend(r.subgroups.iter().copied());
            }
        }
    }
    for g in &del_sub {
        if !group.subgroups.contains(g) {
            return Err(ApiErr::bad(format!("User group {g} is not a subgroup of this group.")));
        }
    }
    if let Some(g) = org.groups.get_mut(&gid) {
        g.members.extend(add.iter().copied());
        for u in &delete {
            g.members.remove(u);
        }
        g.subgroups.extend(add_sub.iter().copied());
        for x in &del_sub {
            g.subgroups.remove(x);
        }
    }
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    let evs = [
        ("add_members", "user_ids", &add),
        ("remove_members", "user_ids", &delete),
        ("add_subgroups", "direct_subgroup_ids", &add_sub),
        ("remove_subgroups", "direct_subgroup_ids", &del_sub),
    ];
    for (op, key, ids) in evs {
        if !ids.is_empty() {
            let ev = json!({"type": "user_group", "op": op, "group_id": gid, key: ids});
            org.queues.push(&everyone, &ev);
        }
    }
    Ok(reply(p, ok()))
}

/// `POST /realm/playgrounds` (administrators).
pub async fn add_playground(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let name = p.str("name")?;
    let lang = p.str("pygments_language")?;
    let template = p.str("url_template")?;
    if name.trim().is_empty() {
        return Err(ApiErr::bad("Name must not be empty"));
    }
    if lang.trim().is_empty() || !lang.chars().all(|c| c.is_alphanumeric() || " _+-#.".contains(c)) {
        return Err(ApiErr::bad("Invalid characters in pygments language"));
    }
    if topicterm_api::limits::check_playground_template(&template).is_err() {
        return Err(ApiErr::bad("url_template must contain exactly one variable named 'code'."));
    }
    let mut org = s.lock();
    if !org.user(req.user_id)?.is_admin() {
        return Err(ApiErr::admin_required());
    }
    if org.playgrounds.iter().any(|x| x.name == name && x.pygments_language == lang) {
        return Err(ApiErr::bad("Realm playground with this name and language already exists"));
    }
    let id = org.alloc();
    org.playgrounds.push(crate::org::PlaygroundRec {
        id,
        name,
        pygments_language: lang,
        url_template: template,
    });
    let list = playgrounds_json(&org);
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues.push(&everyone, &json!({"type": "realm_playgrounds", "realm_playgrounds": list}));
    Ok(reply(p, success(json!({"id": id}))))
}

pub fn playgrounds_json(org: &Org) -> Value {
    json!(org
        .playgrounds
        .iter()
        .map(|x| json!({"id": x.id, "name": x.name, "pygments_language": x.pygments_language, "url_template": x.url_template}))
        .collect::<Vec<_>>())
}

/// `GET /server_settings` (no authentication).
pub async fn server_settings(State(s): State<Arc<Shared>>, a: Anon) -> Res {
    let org = s.lock();
    let level = org.settings.feature_level;
    let version = crate::levels::version(level);
    let mode = s.logins().mode;
    let mut methods = json!({
        "password": mode.passwords(),
        "dev": false,
        "email": mode.passwords() && !mode.ldap(),
        "ldap": mode.ldap(),
        "remoteuser": false,
        "github": false,
        "gitlab": false,
        "google": false,
        "apple": false,
        "saml": false,
        "azuread": false,
        "openid connect": mode.sso(),
    });
    if level >= crate::levels::DISCORD_AUTH {
        methods["discord"] = json!(false);
    }
    Ok(reply(
        &a.p,
        success(json!({
            "zulip_version": version,
            "zulip_feature_level": level,
            "zulip_merge_base": version,
            "push_notifications_enabled": false,
            "authentication_methods": methods,
            "external_authentication_methods": super::sso::external_methods(mode),
            "email_auth_enabled": mode.passwords() && !mode.ldap(),
            "require_email_format_usernames": !mode.ldap(),
            "realm_name": org.realm.name,
            "realm_url": s.url,
            "realm_uri": s.url,
            "realm_icon": "",
            "realm_description": "",
            "realm_web_public_access_enabled": false,
        })),
    ))
}

/// `POST /fetch_api_key`: the demo password works for every seeded human.
pub async fn fetch_api_key(State(s): State<Arc<Shared>>, a: Anon) -> Res {
    let username = a.p.str("username")?;
    let password = a.p.str("password")?;
    let mode = s.logins().mode;
    if !mode.passwords() {
        return Err(ApiErr::new(
            StatusCode::UNAUTHORIZED,
            "PASSWORD_AUTH_DISABLED",
            "Password authentication is disabled in this organization",
        ));
    }
    let org = s.lock();
    // An LDAP organization's users log in with their username, not an email.
    let found = if mode.ldap() {
        org.users.values().find(|u| u.short_name == username.trim())
    } else {
        org.user_by_email(&username)
    };
    let user = found.filter(|u| !u.is_bot() && password == DEMO_PASSWORD);
    match user {
        None => Err(ApiErr::new(
            StatusCode::UNAUTHORIZED,
            "AUTHENTICATION_FAILED",
            "Your username or password is incorrect",
        )),
        Some(u) if !u.is_active => {
            Err(ApiErr::new(StatusCode::UNAUTHORIZED, "USER_DEACTIVATED", "Account is deactivated"))
        }
        Some(u) => Ok(reply(&a.p, success(json!({"api_key": u.api_key, "email": u.email, "user_id": u.id})))),
    }
}

/// The custom profile field types (register's `custom_profile_field_types`).
pub fn profile_field_types() -> Value {
    let mut m = Map::new();
    for (key, id, name) in [
        ("SHORT_TEXT", 1, "Text (short)"),
        ("LONG_TEXT", 2, "Text (long)"),
        ("SELECT", 3, "List of options"),
        ("DATE", 4, "Date"),
        ("URL", 5, "Link"),
        ("USER", 6, "Users"),
        ("EXTERNAL_ACCOUNT", 7, "External account"),
        ("PRONOUNS", 8, "Pronouns"),
    ] {
        m.insert(key.into(), json!({"id": id, "name": name}));
    }
    Value::Object(m)
}

/// `GET /users/{user_id}` and `GET /users/{email}`: one user, deactivated ones included;
/// "No such user" for anyone else (the server's own bots are of another realm).
pub async fn get_user(State(s): State<Arc<Shared>>, Path(who): Path<String>, req: Req) -> Res {
    let _ = req.p.opt_bool("client_gravatar")?;
    let profile = req.p.bool_or("include_custom_profile_fields", false)?;
    let org = s.lock();
    let found = match who.parse::<i64>() {
        Ok(id) => org.users.get(&id),
        // Anything else is an email, as in the reference server's routes.
        Err(_) => org.user_by_email(&who),
    };
    let u = found.filter(|u| !u.is_system_bot).ok_or_else(|| ApiErr::bad("No such user"))?;
    let mut user = org.user_json(u);
    if let Some(o) = user.as_object_mut() {
        // Bots have no profile data; others only when asked for it.
        if u.is_bot() || !profile {
            o.remove("profile_data");
        }
    }
    Ok(reply(&req.p, success(json!({"user": user}))))
}
