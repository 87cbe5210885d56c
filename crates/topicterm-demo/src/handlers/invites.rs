//! Growing the organization: invitations (by email and reusable links), default channels,
//! linkifiers and custom emoji — with the reference server's permissions and events. No email
//! leaves the demo server: an invitation is recorded and listed, as a server with outgoing
//! email off would.

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{InviteRec, Org};
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

/// Ten days, the reference server's default lifetime of an invitation, in minutes.
const DEFAULT_EXPIRY_MINUTES: i64 = 10 * 24 * 60;

/// Who may invite, and to which role, as the reference server's `invite_users_backend` and
/// `generate_multiuse_invite_backend` check it (a guest is refused before, in [`checked`]): only a
/// member of the realm's group for this kind of invitation (`can_invite_users_group` by email,
/// `create_multiuse_invite_group` for a link); owners only by owners and administrators only by
/// administrators (`check_role_based_permissions`).
fn may_invite(org: &Org, user: i64, setting: &str, role: i64) -> Result<(), ApiErr> {
    use crate::org::Role;
    let u = org.user(user)?;
    if !org.has_group_setting(&org.realm_group(setting), user) {
        return Err(ApiErr::insufficient());
    }
    if role == Role::Owner as i64 && u.role != Role::Owner {
        return Err(ApiErr::owner_required());
    }
    if role <= Role::Admin as i64 && !u.is_admin() {
        return Err(ApiErr::bad("Must be an organization administrator"));
    }
    Ok(())
}

fn expiry(p: &crate::params::Params, now: i64) -> Result<Option<i64>, ApiErr> {
    match p.opt_str("invite_expires_in_minutes").as_deref() {
        None => Ok(Some(now + DEFAULT_EXPIRY_MINUTES * 60)),
        Some("null") => Ok(None),
        Some(raw) => {
            let m: i64 =
                raw.parse().map_err(|_| ApiErr::bad("invite_expires_in_minutes is not an integer"))?;
            Ok(Some(now + m * 60))
        }
    }
}

fn invite_as(p: &crate::params::Params) -> Result<i64, ApiErr> {
    let role = p.opt_i64("invite_as")?.unwrap_or(400);
    if [100, 200, 300, 400, 600].contains(&role) { Ok(role) } else { Err(ApiErr::bad("Invalid invite_as")) }
}

fn check_channels(org: &Org, user: i64, p: &crate::params::Params, required: bool) -> Result<(), ApiErr> {
    let ids: Option<Vec<i64>> = p.opt_json("stream_ids")?;
    let ids = match (ids, required) {
        (Some(ids), _) => ids,
        (None, true) => return Err(ApiErr::missing("stream_ids")),
        (None, false) => Vec::new(),
    };
    for id in ids {
        org.accessible_channel(user, id).map_err(|_| ApiErr::bad(format!("Invalid channel ID {id}")))?;
    }
    let _: Option<Vec<i64>> = p.opt_json("group_ids")?;
    let _ = p.opt_bool("include_realm_default_subscriptions")?;
    let _ = p.opt_str("welcome_message_custom_text");
    Ok(())
}

fn invite_json(i: &InviteRec) -> Value {
    let mut v = json!({
        "id": i.id, "invited_by_user_id": i.by, "invited": i.at, "expiry_date": i.expires,
        "invited_as": i.invited_as, "is_multiuse": i.link.is_some(), "notify_referrer_on_join": true,
    });
    if let Some(e) = &i.email {
        v["email"] = json!(e);
    }
    if let Some(l) = &i.link {
        v["link_url"] = json!(l);
    }
    v
}

/// What both kinds of invitation check first: the role, the inviter's permission (`setting`:
/// the realm group that may make this kind), the channels (required for email invitations);
/// the role, now and the expiry.
fn checked(
    org: &Org,
    user: i64,
    p: &crate::params::Params,
    setting: &str,
    channels_required: bool,
) -> Result<(i64, i64, Option<i64>), ApiErr> {
    member_or_admin(org, user)?;
    let role = invite_as(p)?;
    may_invite(org, user, setting, role)?;
    check_channels(org, user, p, channels_required)?;
    let now = org.now();
    Ok((role, now, expiry(p, now)?))
}

/// The reference server's `require_member_or_admin`, checked before any parameter is read: no
/// guest and no bot uses the invitation endpoints.
fn member_or_admin(org: &Org, user: i64) -> Result<(), ApiErr> {
    let u = org.user(user)?;
    if u.role == crate::org::Role::Guest {
        return Err(ApiErr::bad("Not allowed for guest users"));
    }
    if u.is_bot() {
        return Err(ApiErr::bad("This endpoint does not accept bot requests."));
    }
    Ok(())
}

/// Keep an invitation under a fresh ID.
fn keep(org: &mut Org, mut rec: InviteRec) {
    rec.id = org.alloc();
    org.invites.insert(rec.id, rec);
}

/// `GET /invites`: administrators see every unexpired invitation, other members their own;
/// guests and bots none (`require_member_or_admin`).
pub async fn list(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    member_or_admin(&org, req.user_id)?;
    let now = org.now();
    let admin = org.users.get(&req.user_id).is_some_and(|u| u.is_admin());
    let list: Vec<Value> = org
        .invites
        .values()
        .filter(|i| i.expires.is_none_or(|e| e > now) && (admin || i.by == req.user_id))
        .map(invite_json)
        .collect();
    Ok(reply(&req.p, success(json!({"invites": list}))))
}

/// `POST /invites`: an invitation to each address, as the reference server does it
/// (`zerver/actions/invites.py`): one address that is not valid and none is sent; addresses of
/// members are skipped, the rest invited, and the skipped ones listed in an `INVITATION_FAILED`
/// refusal that says invitations were sent (or, all skipped, that none were).
pub async fn send(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let emails = p.str("invitee_emails")?;
    let mut org = s.lock();
    let (role, now, expires) = checked(&org, req.user_id, p, "realm_can_invite_users_group", true)?;
    let _ = p.opt_bool("notify_referrer_on_join")?;
    let mut emails: Vec<&str> = emails.split([',', '\n']).map(str::trim).filter(|e| !e.is_empty()).collect();
    emails.dedup();
    if emails.is_empty() {
        return Err(ApiErr::bad("You must specify at least one email address."));
    }
    let failed = |msg: &str, errors: Vec<Value>, sent: bool| {
        ApiErr::new(StatusCode::BAD_REQUEST, "INVITATION_FAILED", msg)
            .with("errors", errors)
            .with("sent_invitations", sent)
            .with("license_limit_reached", false)
            .with("daily_limit_reached", false)
    };
    let invalid: Vec<Value> =
        emails.iter().filter(|e| !valid_address(e)).map(|e| json!([e, "Invalid address.", false])).collect();
    if !invalid.is_empty() {
        return Err(failed(
            "Some emails did not validate, so we didn't send any invitations.",
            invalid,
            false,
        ));
    }
    let mut skipped: Vec<Value> = Vec::new();
    let mut invite = Vec::new();
    for email in emails {
        match org.user_by_email(email).map(|u| u.is_active) {
            Some(active) => skipped.push(json!([
                email,
                if active { "Already has an account." } else { "Account has been deactivated." },
                !active
            ])),
            None => invite.push(email),
        }
    }
    if invite.is_empty() {
        return Err(failed("We weren't able to invite anyone.", skipped, false));
    }
    for email in invite {
        let rec = InviteRec {
            id: 0,
            by: req.user_id,
            at: now,
            expires,
            invited_as: role,
            email: Some(email.to_owned()),
            link: None,
        };
        keep(&mut org, rec);
    }
    if !skipped.is_empty() {
        return Err(failed(
            "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
            skipped,
            true,
        ));
    }
    Ok(reply(p, ok()))
}

/// An address as far as the demo server checks one: a local part, `@`, a domain with a dot,
/// no spaces.
fn valid_address(e: &str) -> bool {
    match e.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !e.contains(char::is_whitespace)
        }
        None => false,
    }
}

/// `POST /invites/multiuse`: a reusable invitation link.
pub async fn create_link(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let mut org = s.lock();
    let (role, now, expires) = checked(&org, req.user_id, p, "realm_create_multiuse_invite_group", false)?;
    let link = format!("{}/join/{}/", s.url, crate::token::token(24).to_lowercase());
    let rec = InviteRec {
        id: 0,
        by: req.user_id,
        at: now,
        expires,
        invited_as: role,
        email: None,
        link: Some(link.clone()),
    };
    keep(&mut org, rec);
    Ok(reply(p, success(json!({"invite_link": link}))))
}

/// The invitation `id` of this kind (`link`: a reusable link) that `user` may revoke or resend, as
/// the reference server's `zerver/views/invite.py` finds it: someone else's invitation only by an
/// administrator, an owner's only by an owner.
fn own_or_admin(org: &Org, user: i64, raw: &str, link: bool) -> Result<i64, ApiErr> {
    member_or_admin(org, user)?;
    let missing = || ApiErr::bad(if link { "Invalid invitation ID." } else { "No such invitation" });
    let id = crate::params::path_id("invite_id", raw)?;
    let rec = org.invites.get(&id).filter(|i| i.link.is_some() == link).ok_or_else(missing)?;
    if rec.by != user {
        let u = org.user(user)?;
        if rec.invited_as == crate::org::Role::Owner as i64 && u.role != crate::org::Role::Owner {
            return Err(ApiErr::owner_required());
        }
        if !u.is_admin() {
            return Err(ApiErr::bad("Must be an organization administrator"));
        }
    }
    Ok(id)
}

/// `DELETE /invites/{id}`: an email invitation revoked.
pub async fn revoke(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    let id = own_or_admin(&org, req.user_id, &id, false)?;
    org.invites.remove(&id);
    Ok(reply(&req.p, ok()))
}

/// `DELETE /invites/multiuse/{id}`: a reusable link revoked.
pub async fn revoke_link(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    let id = own_or_admin(&org, req.user_id, &id, true)?;
    org.invites.remove(&id);
    Ok(reply(&req.p, ok()))
}

/// `POST /invites/{id}/resend`: the email again (none leaves the demo server); the invitation is
/// dated now, its lifetime kept.
pub async fn resend(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    let id = own_or_admin(&org, req.user_id, &id, false)?;
    let now = org.now();
    if let Some(rec) = org.invites.get_mut(&id) {
        rec.expires = rec.expires.map(|e| e - rec.at + now);
        rec.at = now;
    }
    Ok(reply(&req.p, ok()))
}

/// `POST /default_streams` (administrators): a `default_streams` event with the whole list.
pub async fn add_default_channel(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let id = req.p.i64("stream_id")?;
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    let c = org.channels.get(&id).ok_or_else(|| ApiErr::bad("Invalid channel ID"))?;
    if c.invite_only {
        return Err(ApiErr::bad("Private channels cannot be made default."));
    }
    org.default_channels.insert(id);
    let list: Vec<Value> = org
        .default_channels
        .iter()
        .filter_map(|c| org.channels.get(c))
        .map(|c| org.channel_json(c))
        .collect();
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues.push(&everyone, &json!({"type": "default_streams", "default_streams": list}));
    Ok(reply(&req.p, ok()))
}

/// `POST /realm/filters` (administrators): a linkifier, kept and listed (`GET
/// /realm/linkifiers`, register's `realm_linkifiers`) with a `realm_linkifiers` event.
pub async fn add_linkifier(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let (pattern, template) = (req.p.str("pattern")?, req.p.str("url_template")?);
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    check_linkifier(&pattern, &template)?;
    let id = org.alloc();
    org.linkifiers.insert(id, (pattern, template));
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    let ev = json!({"type": "realm_linkifiers", "realm_linkifiers": linkifiers_json(&org)});
    org.queues.push(&everyone, &ev);
    Ok(reply(&req.p, success(json!({"id": id}))))
}

/// A linkifier's pattern and URL template as the reference server checks them.
pub fn check_linkifier(pattern: &str, template: &str) -> Result<(), ApiErr> {
    if regex::Regex::new(pattern).is_err() {
        return Err(ApiErr::bad("Invalid linkifier pattern.  Valid characters are [ a-zA-Z_#=/:+!-]."));
    }
    if !template.starts_with("http://") && !template.starts_with("https://") {
        return Err(ApiErr::bad("Invalid URL template."));
    }
    Ok(())
}

/// The organization's linkifiers, in the order an administrator set (`PATCH
/// /realm/linkifiers`), the others after them in the order they were added.
pub fn linkifiers_json(org: &Org) -> Vec<Value> {
    use crate::levels::{LINKIFIER_ALTERNATIVES, LINKIFIER_EXAMPLES};
    let level = org.settings.feature_level;
    let ordered = org.linkifier_order.iter().filter_map(|id| org.linkifiers.get_key_value(id));
    let rest = org.linkifiers.iter().filter(|(id, _)| !org.linkifier_order.contains(id));
    ordered
        .chain(rest)
        .map(|(id, (pattern, url))| {
            let mut l = json!({"id": id, "pattern": pattern, "url_template": url});
            if level >= LINKIFIER_EXAMPLES {
                l["example_input"] = Value::Null;
                l["reverse_template"] = Value::Null;
            }
            if level >= LINKIFIER_ALTERNATIVES {
                l["alternative_url_templates"] = json!([]);
            }
            l
        })
        .collect()
}

/// `POST /realm/emoji/{name}`: one image file (multipart) becomes a custom emoji; a
/// `realm_emoji` event with every custom emoji.
pub async fn upload_emoji(State(s): State<Arc<Shared>>, Path(name): Path<String>, req: Req) -> Res {
    let name = name.trim().to_lowercase();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ' ')
    {
        return Err(ApiErr::bad(
            "Emoji names must contain only lowercase alphanumeric characters, spaces, underscores, and dashes.",
        ));
    }
    if req.files.len() != 1 {
        return Err(ApiErr::bad("You must upload exactly one file."));
    }
    let mut org = s.lock();
    if org.users.get(&req.user_id).is_some_and(|u| u.role == crate::org::Role::Guest) {
        return Err(ApiErr::insufficient());
    }
    if org.realm_emoji.iter().any(|(id, (n, _))| *n == name && !org.deactivated_emoji.contains(id)) {
        return Err(ApiErr::bad("A custom emoji with this name already exists."));
    }
    let id = org.alloc();
    org.realm_emoji.insert(id, (name, req.user_id));
    let add = json!({"type": "realm_emoji", "op": "add", "emoji": org.one_emoji_json(id)});
    emoji_event(&mut org, add);
    Ok(reply(&req.p, ok()))
}

/// Tell everyone of a custom emoji change: the queues that declared `individual_emoji_changes`
/// (level 491) get `event`; the others the whole map, as a `realm_emoji` `update`.
fn emoji_event(org: &mut Org, event: Value) {
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    let legacy = json!({"type": "realm_emoji", "op": "update", "realm_emoji": org.realm_emoji_json()});
    org.queues.push_with(&everyone, "realm_emoji", |q| {
        Some(if q.individual_emoji_changes { event.clone() } else { legacy.clone() })
    });
}

/// `DELETE /realm/emoji/{name}`: its author or an administrator deactivates a custom emoji.
pub async fn deactivate_emoji(State(s): State<Arc<Shared>>, Path(name): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    let found = org.realm_emoji.iter().find(|(id, (n, _))| *n == name && !org.deactivated_emoji.contains(id));
    let Some((&id, &(_, author))) = found else {
        return Err(ApiErr::new(
            axum::http::StatusCode::NOT_FOUND,
            "BAD_REQUEST",
            format!("Emoji '{name}' does not exist"),
        ));
    };
    if author != req.user_id && !org.user(req.user_id)?.is_admin() {
        return Err(ApiErr::bad("Must be an organization administrator or emoji author"));
    }
    org.deactivated_emoji.insert(id);
    let one = json!({"type": "realm_emoji", "op": "update_one", "emoji_id": id.to_string(),
                     "data": {"deactivated": true}});
    emoji_event(&mut org, one);
    Ok(reply(&req.p, ok()))
}
