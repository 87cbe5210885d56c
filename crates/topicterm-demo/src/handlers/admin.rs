//! Endpoints Zulip clients and bots use beyond the contract: bot storage, a channel's ID by
//! name, channel and user changes by administrators, creating users and groups, one user's
//! presence, the custom emoji and linkifiers of the organization.

use super::common::Res;
use crate::error::{ApiErr, ApiResult, ok, success};
use crate::levels;
use crate::org::{GroupSetting, Org, Role, UserRec};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Most characters one user may keep in bot storage (keys and values), as the reference server.
pub const STORAGE_LIMIT: usize = 10_000_000;

/// Everyone's IDs (events about users and groups go to the whole organization).
fn everyone(org: &Org) -> Vec<i64> {
    org.users.keys().copied().collect()
}

fn require_admin(org: &Org, uid: i64) -> Result<(), ApiErr> {
    if org.user(uid)?.is_admin() { Ok(()) } else { Err(ApiErr::admin_required()) }
}

// ----- bot storage ---------------------------------------------------------------------------

/// `PUT /bot_storage`: `storage` is a JSON object of string keys to string values.
pub async fn put_storage(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let storage: Value = p.json("storage")?;
    let Value::Object(entries) = storage else {
        return Err(ApiErr::bad("Argument \"storage\" is not a dict"));
    };
    let mut new = Vec::new();
    for (k, v) in entries {
        let Value::String(v) = v else {
            return Err(ApiErr::bad(format!("Value type is {}, but should be str.", json_type(&v))));
        };
        new.push((k, v));
    }
    let mut org = s.lock();
    let mine = org.bot_storage.entry(req.user_id).or_default();
    let mut after = mine.clone();
    after.extend(new);
    let size: usize = after.iter().map(|(k, v)| k.len() + v.len()).sum();
    if size > STORAGE_LIMIT {
        return Err(ApiErr::bad(format!(
            "Request exceeds storage limit by {} characters. The limit is {STORAGE_LIMIT} characters.",
            size - STORAGE_LIMIT
        )));
    }
    *mine = after;
    Ok(reply(p, ok()))
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// The keys asked for (all when `keys` is absent); "Key does not exist." for a missing one.
fn storage_keys(org: &Org, uid: i64, keys: Option<Vec<String>>) -> Result<Vec<String>, ApiErr> {
    let mine = org.bot_storage.get(&uid);
    match keys {
        None => Ok(mine.map(|m| m.keys().cloned().collect()).unwrap_or_default()),
        Some(keys) => {
            if keys.iter().any(|k| !mine.is_some_and(|m| m.contains_key(k))) {
                return Err(ApiErr::bad("Key does not exist."));
            }
            Ok(keys)
        }
    }
}

/// `GET /bot_storage`: `{"storage": {key: value}}`.
pub async fn get_storage(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let keys: Option<Vec<String>> = p.opt_json("keys")?;
    let org = s.lock();
    let keys = storage_keys(&org, req.user_id, keys)?;
    let mine = org.bot_storage.get(&req.user_id);
    let out: Map<String, Value> =
        keys.into_iter().filter_map(|k| Some((k.clone(), json!(mine?.get(&k)?)))).collect();
    Ok(reply(p, success(json!({"storage": out}))))
}

/// `DELETE /bot_storage`: the keys named, or everything.
pub async fn delete_storage(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let keys: Option<Vec<String>> = p.opt_json("keys")?;
    let mut org = s.lock();
    let keys = storage_keys(&org, req.user_id, keys)?;
    if let Some(mine) = org.bot_storage.get_mut(&req.user_id) {
        for k in keys {
            mine.remove(&k);
        }
    }
    Ok(reply(p, ok()))
}

// ----- channels --------------------------------------------------------------------------------

/// `GET /get_stream_id?stream=NAME`
pub async fn get_stream_id(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let name = p.str("stream")?;
    let org = s.lock();
    let found = org
        .channels
        .values()
        .find(|c| c.name.eq_ignore_ascii_case(&name) && org.can_access_channel(req.user_id, c.id))
        .map(|c| c.id);
    let id = found.ok_or_else(|| ApiErr::bad(format!("Invalid channel name '{name}'")))?;
    Ok(reply(p, success(json!({"stream_id": id}))))
}

/// `PATCH /streams/{id}`: organization administrators (and the channel's creator) change a
/// channel's name, description and access; one `stream` `update` event per property (the
/// three access settings in one `invite_only` event), to everyone who can see the channel.
pub async fn update_stream(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let p = &req.p;
    let description = p.opt_str("description");
    let new_name = p.opt_str("new_name");
    let is_private = p.opt_bool("is_private")?;
    let history = p.opt_bool("history_public_to_subscribers")?;
    let web_public = p.opt_bool("is_web_public")?;
    // Absent: unchanged; `null`: out of its folder.
    let folder: Option<Option<i64>> = p.opt_json("folder_id")?;
    let mut org = s.lock();
    // Unknown before level 441: not read, so reported as ignored.
    let topic_group: Option<Value> = if org.settings.feature_level >= levels::CAN_CREATE_TOPIC_GROUP {
        p.opt_json("can_create_topic_group")?
    } else {
        None
    };
    let (everyone, admins) = (org.system_group("role:everyone"), org.system_group("role:administrators"));
    let admins_only = who_posts(&org, p, (everyone, admins))?;
    // The channel's own permission groups, each from its level (unknown before: ignored).
    let mut own_groups: Vec<(&'static str, Value)> = Vec::new();
    for (name, at) in levels::CHANNEL_GROUPS {
        if org.settings.feature_level >= *at
            && let Some(change) = p.opt_json::<Value>(name)?
        {
            own_groups.push((name, change));
        }
    }
    let push_default = if org.settings.feature_level >= levels::DEFAULT_PUSH_NOTIFICATIONS {
        p.opt_bool("default_push_notifications")?
    } else {
        None
    };
    org.accessible_channel(req.user_id, cid)?;
    let me = org.user(req.user_id)?;
    let creator = org.channels.get(&cid).and_then(|c| c.creator_id) == Some(req.user_id);
    if !me.is_admin() && !creator {
        return Err(ApiErr::bad("You do not have permission to administer this channel."));
    }
    // Only organization administrators, not a channel's administrators (507).
    if push_default.is_some() && !me.is_admin() {
        return Err(ApiErr::admin_required());
    }
    if let Some(n) = &new_name {
        let n = n.trim();
        crate::validate::check_channel_name(n)?;
        if org.channels.values().any(|c| c.id != cid && c.name.eq_ignore_ascii_case(n)) {
            return Err(ApiErr::bad(format!("Channel '{n}' already exists")));
        }
    }
    if description.as_ref().is_some_and(|d| d.chars().count() > 1024) {
        return Err(ApiErr::bad("description is too long (limit: 1024 characters)"));
    }
    if let Some(Some(f)) = folder
        && !org.folders.contains_key(&f)
    {
        return Err(ApiErr::bad("Invalid channel folder ID"));
    }
    let topic_group = match topic_group {
        Some(change) => Some(group_setting_change(&org, cid, "can_create_topic_group", &change)?),
        None => None,
    };
    let own_groups = own_groups
        .into_iter()
        .map(|(name, change)| Ok((name, group_setting_change(&org, cid, name, &change)?)))
        .collect::<Result<Vec<_>, ApiErr>>()?;
    let level = org.settings.feature_level;
    let mut changes: Vec<(&str, Value, Option<Value>)> = Vec::new();
    let rendered = description.as_ref().map(|d| crate::markdown::render(d, &*org).html);
    let c = org.channels.get_mut(&cid).ok_or_else(|| ApiErr::bad("Invalid channel ID"))?;
    if let Some(n) = new_name {
        c.name = n.trim().to_owned();
        changes.push(("name", json!(c.name), None));
    }
    if let (Some(d), Some(r)) = (description, rendered) {
        c.description = d;
        c.rendered_description = r;
        changes.push(("description", json!(c.description), Some(json!(c.rendered_description))));
    }
    // The three permission settings change together and are told in one `invite_only`
    // event that carries the other two, as the reference server's
    // `do_change_stream_permission` does.
    let permission = is_private.is_some() || history.is_some() || web_public.is_some();
    c.invite_only = is_private.unwrap_or(c.invite_only);
    c.history_public = history.unwrap_or(c.history_public);
    c.is_web_public = web_public.unwrap_or(c.is_web_public);
    if permission {
        changes.push(("invite_only", json!(c.invite_only), None));
    }
    if let Some(f) = folder {
        c.folder_id = f;
        changes.push(("folder_id", json!(f), None));
    }
    if let Some(g) = topic_group {
        changes.push(("can_create_topic_group", g.json(), None));
        c.can_create_topic_group = g;
    }
    for (name, g) in own_groups {
        changes.push((name, g.json(), None));
        c.groups.insert(name, g);
    }
    if let Some(only) = admins_only {
        c.admins_only_post = only;
        if level >= levels::CAN_SEND_MESSAGE_GROUP {
            changes.push(("can_send_message_group", json!(if only { admins } else { everyone }), None));
        }
        changes.push(("stream_post_policy", json!(if only { 2 } else { 1 }), None));
        changes.push(("is_announcement_only", json!(only), None));
    }
    if let Some(on) = push_default {
        c.default_push_notifications = on;
        changes.push(("default_push_notifications", json!(on), None));
    }
    tell_stream_changes(&mut org, cid, changes);
    Ok(reply(p, ok()))
}

/// One `stream` `update` event per property changed (the access settings' `invite_only` one
/// carrying the other two), to everyone who can see the channel.
fn tell_stream_changes(org: &mut Org, cid: i64, changes: Vec<(&str, Value, Option<Value>)>) {
    let Some(c) = org.channels.get(&cid) else { return };
    let name = c.name.clone();
    let (c_history, c_web_public) = (c.history_public, c.is_web_public);
    let viewers: Vec<i64> = org.users.keys().copied().filter(|u| org.can_access_channel(*u, cid)).collect();
    for (property, value, rendered) in changes {
        let mut ev = json!({"type": "stream", "op": "update", "stream_id": cid, "name": name,
                            "property": property, "value": value});
        if let Some(r) = rendered {
            ev["rendered_description"] = r;
        }
        if property == "invite_only" {
            ev["history_public_to_subscribers"] = json!(c_history);
            ev["is_web_public"] = json!(c_web_public);
        }
        org.queues.push(&viewers, &ev);
    }
}

/// Who may post, as `PATCH /streams/{id}` asks it: the role policy at every level (deprecated
/// from 333), the group from 333; the demo server keeps either everyone (`false`) or
/// administrators only (`true`). `None`: unchanged.
fn who_posts(
    org: &Org,
    p: &crate::params::Params,
    (everyone, admins): (i64, i64),
) -> ApiResult<Option<bool>> {
    let post_policy = p.opt_i64("stream_post_policy")?;
    let send_group: Option<Value> = if org.settings.feature_level >= levels::CAN_SEND_MESSAGE_GROUP {
        p.opt_json("can_send_message_group")?
    } else {
        None
    };
    Ok(match (post_policy, &send_group) {
        (Some(1), _) => Some(false),
        (Some(2), _) => Some(true),
        (Some(_), _) => return Err(ApiErr::bad("Invalid stream_post_policy")),
        (None, Some(change)) => match GroupSetting::parse(change.get("new").unwrap_or(change)) {
            Some(GroupSetting::Named(g)) if g == everyone => Some(false),
            Some(GroupSetting::Named(g)) if g == admins => Some(true),
            _ => return Err(ApiErr::bad("Invalid user group")),
        },
        (None, None) => None,
    })
}

/// A channel's group setting changed by `{"new": value, "old": value}` (`old` optional): the
/// new value, checked as the reference server checks it (`old` must be the current value; the
/// groups must exist, `role:internet` never).
fn group_setting_change(org: &Org, cid: i64, name: &str, change: &Value) -> Result<GroupSetting, ApiErr> {
    let current = org.channels.get(&cid).map(|c| match name {
        "can_create_topic_group" => c.can_create_topic_group.clone(),
        other => org.channel_group(c, other),
    });
    let new = change
        .get("new")
        .and_then(GroupSetting::parse)
        .ok_or_else(|| ApiErr::bad(format!("{name} is not a valid group-setting value")))?;
    if let Some(old) = change.get("old")
        && GroupSetting::parse(old) != current
    {
        return Err(ApiErr::bad("'old' value does not match the expected value."));
    }
    let usable = |g: &i64| org.groups.get(g).is_some_and(|g| !g.deactivated);
    let ok = match &new {
        GroupSetting::Named(g) => usable(g),
        GroupSetting::Anonymous { members, subgroups } => {
            members.iter().all(|u| org.users.get(u).is_some_and(|u| u.is_active))
                && subgroups.iter().all(usable)
        }
    };
    if !ok {
        return Err(ApiErr::bad("Invalid user group"));
    }
    if let GroupSetting::Named(g) = new
        && g == org.system_group("role:internet")
    {
        return Err(ApiErr::bad(format!("'{name}' setting cannot be set to 'role:internet' group.")));
    }
    Ok(new)
}

// ----- users -----------------------------------------------------------------------------------

fn role_of(code: i64) -> Option<Role> {
    Some(match code {
        100 => Role::Owner,
        200 => Role::Admin,
        300 => Role::Moderator,
        400 => Role::Member,
        600 => Role::Guest,
        _ => return None,
    })
}

pub(super) fn person_event(org: &mut Org, person: Value) {
    let all = everyone(org);
    org.queues.push(&all, &json!({"type": "realm_user", "op": "update", "person": person}));
}

/// `PATCH /users/{id}`: administrators change a user's name, role (owners only to or from
/// owner) and custom profile field values; a `realm_user` update event per change.
pub async fn update_user(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let p = &req.p;
    let full_name = p.opt_str("full_name");
    let role = p.opt_i64("role")?;
    let profile: Option<Vec<Value>> = p.opt_json("profile_data")?;
    let mut org = s.lock();
    require_admin(&org, req.user_id)?;
    let uid = match path_id("user_id", &id) {
        Ok(uid) => uid,
        Err(e) => org.user_by_email(&id).map(|u| u.id).ok_or(e)?,
    };
    let target =
        org.users.get(&uid).filter(|u| !u.is_system_bot).ok_or_else(|| ApiErr::bad("No such user"))?;
    let acting_owner = org.user(req.user_id)?.role == Role::Owner;
    let new_role = match role {
        Some(code) => Some(role_of(code).ok_or_else(|| ApiErr::bad("Invalid role"))?),
        None => None,
    };
    if (new_role == Some(Role::Owner) || (new_role.is_some() && target.role == Role::Owner)) && !acting_owner
    {
        return Err(ApiErr::bad("Must be an organization owner"));
    }
    if let Some(n) = &full_name {
        crate::validate::check_full_name(n)?;
    }
    let mut fields = Vec::new();
    for entry in profile.iter().flatten() {
        let fid =
            entry.get("id").and_then(Value::as_i64).ok_or_else(|| ApiErr::bad("profile_data is invalid"))?;
        if !org.profile_fields.contains_key(&fid) {
            return Err(ApiErr::bad(format!("Field id {fid} not found.")));
        }
        let value = match entry.get("value") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        fields.push((fid, value));
    }
    if let Some(n) = full_name {
        if let Some(u) = org.users.get_mut(&uid) {
            u.full_name = n.trim().to_owned();
        }
        person_event(&mut org, json!({"user_id": uid, "full_name": n.trim()}));
    }
    if let Some(r) = new_role {
        if let Some(u) = org.users.get_mut(&uid) {
            u.role = r;
        }
        org.refresh_system_groups();
        person_event(&mut org, json!({"user_id": uid, "role": r as i64}));
    }
    for (fid, value) in fields {
        if value.is_empty() {
            org.profile_data.remove(&(uid, fid));
        } else {
            org.profile_data.insert((uid, fid), value.clone());
        }
        person_event(&mut org, json!({"user_id": uid, "custom_profile_field": {"id": fid, "value": value}}));
    }
    Ok(reply(p, ok()))
}

/// `POST /users`: a new account (administrators; the reference server asks for the
/// `can_create_users` permission, which the demo organization gives its administrators).
pub async fn create_user(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let email = p.str("email")?;
    let _password = p.str("password")?;
    let full_name = p.str("full_name")?;
    let mut org = s.lock();
    require_admin(&org, req.user_id)?;
    let email = email.trim().to_lowercase();
    let (local, domain) =
        email.split_once('@').ok_or_else(|| ApiErr::bad(format!("Invalid address '{email}'")))?;
    if local.is_empty() || !domain.contains('.') {
        return Err(ApiErr::bad(format!("Invalid address '{email}'")));
    }
    if org.user_by_email(&email).is_some() {
        return Err(ApiErr::bad(format!("Email '{email}' already in use")));
    }
    crate::validate::check_full_name(&full_name)?;
    let id = org.users.keys().filter(|k| **k < 1000).max().copied().unwrap_or(0) + 1;
    let now = org.now();
    let rec = UserRec {
        id,
        short_name: local.to_owned(),
        email: email.clone(),
        full_name: full_name.trim().to_owned(),
        role: Role::Member,
        bot_type: None,
        bot_owner: None,
        is_active: true,
        api_key: crate::token::token(32),
        presence_enabled: true,
        timezone: String::new(),
        date_joined: now,
        webhook_token: None,
        is_system_bot: false,
        status: Default::default(),
        avatar_removed: false,
    };
    let person = org.user_json(&rec);
    org.users.insert(id, rec);
    org.refresh_system_groups();
    let all = everyone(&org);
    org.queues.push(&all, &json!({"type": "realm_user", "op": "add", "person": person}));
    Ok(reply(p, success(json!({"user_id": id}))))
}

/// `POST /users/{id}/reactivate` (administrators).
pub async fn reactivate_user(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let uid = path_id("user_id", &id)?;
    let p = &req.p;
    let mut org = s.lock();
    require_admin(&org, req.user_id)?;
    let u =
        org.users.get_mut(&uid).filter(|u| !u.is_system_bot).ok_or_else(|| ApiErr::bad("No such user"))?;
    if u.is_active {
        return Err(ApiErr::bad("User is already active"));
    }
    u.is_active = true;
    let name = u.full_name.clone();
    org.refresh_system_groups();
    person_event(&mut org, json!({"user_id": uid, "is_active": true, "full_name": name}));
    Ok(reply(p, ok()))
}

/// `GET /users/{id|email}/presence`: one user's presence, by client and aggregated.
pub async fn user_presence(State(s): State<Arc<Shared>>, Path(who): Path<String>, req: Req) -> Res {
    let p = &req.p;
    let org = s.lock();
    let found = match who.parse::<i64>() {
        Ok(id) => org.users.get(&id),
        Err(_) => org.user_by_email(&who),
    };
    let u = found.filter(|u| u.is_active && !u.is_system_bot).ok_or_else(|| ApiErr::bad("No such user"))?;
    let entry = org.presence.get(&u.id).filter(|_| u.presence_enabled).copied();
    let Some(entry) = entry else {
        return Ok(reply(p, success(json!({"presence": {}}))));
    };
    use crate::levels::{MODERN_USER_PRESENCE, USER_PRESENCE_BOTH};
    let level = org.settings.feature_level;
    if level < MODERN_USER_PRESENCE {
        let body = org.presence_json(&[(u.id, entry)], false);
        let presence = body.get(&u.email).cloned().unwrap_or_else(|| json!({}));
        return Ok(reply(p, success(json!({"presence": presence}))));
    }
    let mut presence = json!({"active_timestamp": entry.active_ts, "idle_timestamp": entry.idle_ts});
    if level < USER_PRESENCE_BOTH {
        return Ok(reply(p, success(json!({"presence": presence}))));
    }
    // From 497 the legacy forms again (status and time only), and the server's time.
    let (status, at) =
        if entry.active_ts >= entry.idle_ts { ("active", entry.active_ts) } else { ("idle", entry.idle_ts) };
    let aggregated = if org.now() - at > super::users::OFFLINE_THRESHOLD { "offline" } else { status };
    presence["website"] = json!({"status": status, "timestamp": at});
    presence["aggregated"] = json!({"status": aggregated, "timestamp": at});
    Ok(reply(p, success(json!({"presence": presence, "server_timestamp": org.now_f64()}))))
}

// ----- user groups -----------------------------------------------------------------------------

/// `POST /user_groups/create`: members of the organization (not guests) create groups.
pub async fn create_group(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let name = p.str("name")?;
    let description = p.str("description")?;
    let members: Vec<i64> = p.json("members")?;
    let subgroups: Vec<i64> = p.opt_json("subgroups")?.unwrap_or_default();
    let mut org = s.lock();
    if org.user(req.user_id)?.role == Role::Guest {
        return Err(ApiErr::insufficient());
    }
    let name = name.trim().to_owned();
    if name.is_empty() {
        return Err(ApiErr::bad("User group name cannot be empty."));
    }
    if name.starts_with("role:") {
        return Err(ApiErr::bad("User group name cannot start with 'role:'."));
    }
    if org.groups.values().any(|g| g.name.eq_ignore_ascii_case(&name)) {
        return Err(ApiErr::bad(format!("User group '{name}' already exists.")));
    }
    if let Some(bad) = members.iter().find(|u| !org.users.get(u).is_some_and(|u| u.is_active)) {
        return Err(ApiErr::bad(format!("Invalid user ID: {bad}")));
    }
    if let Some(bad) = subgroups.iter().find(|g| !org.groups.contains_key(g)) {
        return Err(ApiErr::bad(format!("Invalid user group ID: {bad}")));
    }
    let id = org.groups.keys().max().copied().unwrap_or(0) + 1;
    let now = org.now();
    let g = crate::org::GroupRec {
        id,
        name,
        description,
        members: members.into_iter().collect(),
        subgroups: subgroups.into_iter().collect(),
        is_system: false,
        deactivated: false,
        creator_id: Some(req.user_id),
        date_created: now,
    };
    let group = super::users::group_json(&g);
    org.groups.insert(id, g);
    let all = everyone(&org);
    org.queues.push(&all, &json!({"type": "user_group", "op": "add", "group": group}));
    Ok(reply(p, success(json!({"group_id": id}))))
}

/// `PATCH /user_groups/{id}`: its name or description, by its members or administrators.
pub async fn update_group(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let gid = path_id("user_group_id", &id)?;
    let p = &req.p;
    let name = p.opt_str("name");
    let description = p.opt_str("description");
    if name.is_none() && description.is_none() {
        return Err(ApiErr::bad("No new data supplied"));
    }
    let mut org = s.lock();
    let admin = org.user(req.user_id)?.is_admin();
    let g =
        org.groups.get(&gid).filter(|g| !g.deactivated).ok_or_else(|| ApiErr::bad("Invalid user group"))?;
    if g.is_system {
        return Err(ApiErr::bad("Insufficient permission"));
    }
    if !admin && !g.members.contains(&req.user_id) {
        return Err(ApiErr::insufficient());
    }
    if let Some(n) = &name
        && org.groups.values().any(|x| x.id != gid && x.name.eq_ignore_ascii_case(n.trim()))
    {
        return Err(ApiErr::bad(format!("User group '{}' already exists.", n.trim())));
    }
    let mut data = Map::new();
    let g = org.groups.get_mut(&gid).ok_or_else(|| ApiErr::bad("Invalid user group"))?;
    if let Some(n) = name {
        g.name = n.trim().to_owned();
        data.insert("name".into(), json!(g.name));
    }
    if let Some(d) = description {
        g.description = d;
        data.insert("description".into(), json!(g.description));
    }
    let all = everyone(&org);
    org.queues.push(&all, &json!({"type": "user_group", "op": "update", "group_id": gid, "data": data}));
    Ok(reply(p, ok()))
}

// ----- realm -----------------------------------------------------------------------------------

/// `GET /realm/emoji`: the custom emoji by ID.
pub async fn realm_emoji(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    Ok(reply(&req.p, success(json!({"emoji": org.realm_emoji_json()}))))
}

/// `GET /realm/linkifiers`: the organization's linkifiers (`POST /realm/filters` adds them).
pub async fn linkifiers(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let list = super::invites::linkifiers_json(&s.lock());
    Ok(reply(&req.p, success(json!({"linkifiers": list}))))
}
