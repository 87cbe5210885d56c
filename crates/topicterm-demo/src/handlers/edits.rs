//! The removals and edits that go with the demo server's additions, as the reference server
//! does them (zerver/views/{navigation_views,streams,realm_linkifiers,realm_playgrounds,
//! push_notifications}.py): navigation views added and removed, a default channel removed,
//! linkifiers changed, reordered and removed, a code playground removed, and the push device
//! tokens a mobile client registers (kept, never used: the demo server sends no pushes).

use super::common::Res;
use crate::error::{ApiErr, ok};
use crate::org::{NavViewRec, Org};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::json;
use std::sync::Arc;

/// Navigation views came with feature level 390.
const NAVIGATION_VIEWS: i64 = 390;
/// `POST /mobile_push/register` came with feature level 406.
const PUSH_REGISTER: i64 = 406;

fn everyone(org: &Org) -> Vec<i64> {
    org.users.keys().copied().collect()
}

fn nav_not_found() -> ApiErr {
    ApiErr::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Navigation view does not exist.")
}

/// `POST /navigation_views`: a view of the user's own; a custom one needs a name, a built-in
/// one takes none, and a fragment is there once.
pub async fn add_nav_view(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let fragment = p.str("fragment")?;
    let is_pinned = p.opt_bool("is_pinned")?.ok_or_else(|| ApiErr::missing("is_pinned"))?;
    let name = p.opt_str("name").map(|n| n.trim().to_owned());
    let mut org = s.lock();
    if org.settings.feature_level < NAVIGATION_VIEWS {
        return Err(ApiErr::no_endpoint());
    }
    if fragment.trim().is_empty() {
        return Err(ApiErr::bad("fragment cannot be blank"));
    }
    let builtin = crate::org::BUILTIN_VIEWS.contains(&fragment.as_str());
    match (&name, builtin) {
        (Some(_), true) => return Err(ApiErr::bad("Built-in views cannot have a custom name.")),
        (None, false) => return Err(ApiErr::bad("Custom views must have a valid name.")),
        (Some(n), false) if n.is_empty() => return Err(ApiErr::bad("Custom views must have a valid name.")),
        _ => {}
    }
    let views = org.nav_views.entry(req.user_id).or_default();
    if views.iter().any(|v| v.fragment == fragment) {
        return Err(ApiErr::bad("Navigation view already exists."));
    }
    views.push(NavViewRec { fragment: fragment.clone(), name: name.clone(), is_pinned, builtin });
    let view = json!({"fragment": fragment, "is_pinned": is_pinned, "name": name});
    org.queues
        .push(&[req.user_id], &json!({"type": "navigation_view", "op": "add", "navigation_view": view}));
    Ok(reply(p, ok()))
}

/// `DELETE /navigation_views/{fragment}`: the user's own view goes, with a `remove` event.
pub async fn remove_nav_view(State(s): State<Arc<Shared>>, Path(fragment): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    if org.settings.feature_level < NAVIGATION_VIEWS {
        return Err(ApiErr::no_endpoint());
    }
    let views = org.nav_views.entry(req.user_id).or_default();
    let at = views.iter().position(|v| v.fragment == fragment).ok_or_else(nav_not_found)?;
    views.remove(at);
    org.queues
        .push(&[req.user_id], &json!({"type": "navigation_view", "op": "remove", "fragment": fragment}));
    Ok(reply(&req.p, ok()))
}

/// `DELETE /default_streams` (administrators): the channel is no longer a default one.
pub async fn remove_default_channel(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let id = req.p.i64("stream_id")?;
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    if !org.channels.contains_key(&id) {
        return Err(ApiErr::bad("Invalid channel ID"));
    }
    if !org.default_channels.remove(&id) {
        return Err(ApiErr::bad("Channel is not a default channel"));
    }
    let list: Vec<_> = org
        .default_channels
        .iter()
        .filter_map(|c| org.channels.get(c))
        .map(|c| org.channel_json(c))
        .collect();
    let all = everyone(&org);
    org.queues.push(&all, &json!({"type": "default_streams", "default_streams": list}));
    Ok(reply(&req.p, ok()))
}

fn linkifiers_event(org: &mut Org) {
    let ev = json!({"type": "realm_linkifiers", "realm_linkifiers": super::invites::linkifiers_json(org)});
    let all = everyone(org);
    org.queues.push(&all, &ev);
}

fn no_linkifier() -> ApiErr {
    ApiErr::bad("Linkifier not found.")
}

/// `PATCH /realm/filters/{id}` (administrators): a new pattern and URL template, checked as
/// when added.
pub async fn update_linkifier(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("filter_id", &id)?;
    let (pattern, template) = (req.p.str("pattern")?, req.p.str("url_template")?);
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    if !org.linkifiers.contains_key(&id) {
        return Err(no_linkifier());
    }
    super::invites::check_linkifier(&pattern, &template)?;
    org.linkifiers.insert(id, (pattern, template));
    linkifiers_event(&mut org);
    Ok(reply(&req.p, ok()))
}

/// `DELETE /realm/filters/{id}` (administrators).
pub async fn remove_linkifier(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("filter_id", &id)?;
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    if org.linkifiers.remove(&id).is_none() {
        return Err(no_linkifier());
    }
    linkifiers_event(&mut org);
    Ok(reply(&req.p, ok()))
}

/// `PATCH /realm/linkifiers` (administrators): every linkifier's ID once, in the new order.
pub async fn reorder_linkifiers(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let ids: Vec<i64> = req.p.json("ordered_linkifier_ids")?;
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != ids.len() {
        return Err(ApiErr::bad("The ordered list must not contain duplicated linkifiers"));
    }
    let known: Vec<i64> = org.linkifiers.keys().copied().collect();
    if sorted != known {
        return Err(ApiErr::bad("The ordered list must enumerate all existing linkifiers exactly once"));
    }
    org.linkifier_order = ids;
    linkifiers_event(&mut org);
    Ok(reply(&req.p, ok()))
}

/// `DELETE /realm/playgrounds/{id}` (administrators).
pub async fn remove_playground(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("playground_id", &id)?;
    let mut org = s.lock();
    if !org.user(req.user_id)?.is_admin() {
        return Err(ApiErr::admin_required());
    }
    let at =
        org.playgrounds.iter().position(|x| x.id == id).ok_or_else(|| ApiErr::bad("Invalid playground"))?;
    org.playgrounds.remove(at);
    let list = super::users::playgrounds_json(&org);
    let all = everyone(&org);
    org.queues.push(&all, &json!({"type": "realm_playgrounds", "realm_playgrounds": list}));
    Ok(reply(&req.p, ok()))
}

fn token_param(req: &Req) -> Result<String, ApiErr> {
    let token = req.p.str("token")?;
    if token.is_empty() || token.len() > 4096 {
        return Err(ApiErr::bad("Empty or invalid length token"));
    }
    Ok(token)
}

/// `DELETE /users/me/apns_device_token`: the user's own token, else "Token does not exist".
pub async fn remove_apns(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let token = token_param(&req)?;
    let mut org = s.lock();
    let uid = req.user_id;
    let before = org.apns_tokens.len();
    org.apns_tokens.retain(|(u, t, _)| !(*u == uid && *t == token));
    if org.apns_tokens.len() == before {
        return Err(ApiErr::bad("Token does not exist"));
    }
    Ok(reply(&req.p, ok()))
}

/// `POST /users/me/android_gcm_reg_id`: an FCM registration token of the user's.
pub async fn add_fcm(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let token = token_param(&req)?;
    let mut org = s.lock();
    let uid = req.user_id;
    if !org.fcm_tokens.iter().any(|(u, t)| *u == uid && *t == token) {
        org.fcm_tokens.push((uid, token));
    }
    Ok(reply(&req.p, ok()))
}

/// `DELETE /users/me/android_gcm_reg_id`.
pub async fn remove_fcm(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let token = token_param(&req)?;
    let mut org = s.lock();
    let uid = req.user_id;
    let before = org.fcm_tokens.len();
    org.fcm_tokens.retain(|(u, t)| !(*u == uid && *t == token));
    if org.fcm_tokens.len() == before {
        return Err(ApiErr::bad("Token does not exist"));
    }
    Ok(reply(&req.p, ok()))
}

/// `POST /mobile_push/register` (feature level 406): an end-to-end encrypted registration the
/// server would pass to the push bouncer; the demo server keeps its account ID only.
pub async fn register_push_device(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let kind = p.str("token_kind")?;
    let account = p.i64("push_account_id")?;
    for key in ["push_public_key", "bouncer_public_key", "encrypted_push_registration"] {
        if p.str(key)?.is_empty() {
            return Err(ApiErr::bad(format!("{key} cannot be blank")));
        }
    }
    if kind != "fcm" && kind != "apns" {
        return Err(ApiErr::bad("Invalid token_kind"));
    }
    let mut org = s.lock();
    if org.settings.feature_level < PUSH_REGISTER {
        return Err(ApiErr::no_endpoint());
    }
    let uid = req.user_id;
    if !org.push_devices.contains(&(uid, account)) {
        org.push_devices.push((uid, account));
    }
    Ok(reply(p, ok()))
}
