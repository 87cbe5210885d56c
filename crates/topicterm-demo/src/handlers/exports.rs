//! Data exports of the organization, as the reference's `zerver/views/realm_export.py`:
//! administrators ask for one (public, or from level 304 standard: with the private data of
//! those who consented), list and delete them, and see who consents. The demo server makes an
//! export at once, in memory: a `.tar.gz` holding `realm.json`, served from an unguessable
//! address as the reference's local storage serves it (`/user_avatars/exports/…`).

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{ExportRec, Org, Recip, Role};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use serde_json::{Value, json};
use std::sync::Arc;

/// `export_type`: public data only, or with the private data of those who consented.
pub const PUBLIC: i64 = 1;
pub const STANDARD: i64 = 2;
/// At most this many exports a week (the reference's `EXPORT_LIMIT`).
const WEEKLY_LIMIT: usize = 5;
/// Where the reference says to ask for a bigger export.
const SUPPORT: &str = "zulip-admin@example.com";

impl Org {
    fn exports_json(&self, site: &str) -> Value {
        let level = self.settings.feature_level;
        let typed = level >= crate::levels::EXPORT_TYPE;
        // Whether the export came with the organization from another server (13.0; 12.x from
        // 499): never, for the demo server's own exports.
        let prior = crate::levels::has(level, crate::levels::EXPORT_FROM_PRIOR_SERVER, 499);
        let list: Vec<Value> = self
            .exports
            .values()
            .map(|e| {
                let mut v = json!({
                    "id": e.id,
                    "acting_user_id": e.acting_user_id,
                    "export_time": e.export_time,
                    "deleted_timestamp": e.deleted_timestamp,
                    "failed_timestamp": null,
                    "export_url": e.path.as_ref().map(|p| format!("{site}{p}")),
                    "pending": e.path.is_none() && e.deleted_timestamp.is_none(),
                });
                if typed {
                    v["export_type"] = json!(e.export_type);
                }
                if prior {
                    v["export_from_prior_server"] = json!(false);
                }
                v
            })
            .collect();
        json!(list)
    }

    fn human_admins(&self) -> Vec<i64> {
        self.users.values().filter(|u| u.is_active && !u.is_bot() && u.is_admin()).map(|u| u.id).collect()
    }

    /// The organization's administrators learn the state of every export.
    fn notify_exports(&mut self, site: &str) {
        let e = json!({"type": "realm_export", "exports": self.exports_json(site)});
        let admins = self.human_admins();
        self.queues.push(&admins, &e);
    }

    fn consents(&self, uid: i64) -> bool {
        super::settings::of_user(self, uid).get("allow_private_data_export").and_then(Value::as_bool)
            == Some(true)
    }

    /// What an export holds: the organization, its people, its public channels and their
    /// messages; a standard export adds the private channels and the messages of those who
    /// consented.
    fn export_document(&self, export_type: i64) -> Value {
        let private_ok = |uid: i64| export_type == STANDARD && self.consents(uid);
        let channels: Vec<Value> = self
            .channels
            .values()
            .filter(|c| !c.invite_only || export_type == STANDARD)
            .map(|c| json!({"id": c.id, "name": c.name, "description": c.description, "invite_only": c.invite_only}))
            .collect();
        let users: Vec<Value> = self
            .users
            .values()
            .filter(|u| !u.is_system_bot)
            .map(|u| json!({"id": u.id, "full_name": u.full_name, "is_active": u.is_active, "is_bot": u.is_bot()}))
            .collect();
        let messages: Vec<Value> = self
            .messages
            .values()
            .filter(|m| match &m.recip {
                Recip::Channel { id, .. } => {
                    self.channels.get(id).is_some_and(|c| !c.invite_only) || private_ok(m.sender_id)
                }
                Recip::Dm { .. } => private_ok(m.sender_id),
            })
            .map(|m| {
                let to = match &m.recip {
                    Recip::Channel { id, topic } => json!({"stream_id": id, "topic": topic}),
                    Recip::Dm { users } => json!({"user_ids": users}),
                };
                json!({"id": m.id, "sender_id": m.sender_id, "to": to, "content": m.content, "timestamp": m.timestamp})
            })
            .collect();
        json!({"realm": {"name": self.realm.name, "string_id": self.realm.string_id},
               "users": users, "channels": channels, "messages": messages})
    }
}

/// A `.tar.gz` of one file.
fn tar_gz(name: &str, body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut header = [0u8; 512];
    header[..name.len().min(100)].copy_from_slice(&name.as_bytes()[..name.len().min(100)]);
    let octal = |field: &mut [u8], v: u64| {
        let s = format!("{:0width$o}\0", v, width = field.len() - 1);
        field.copy_from_slice(s.as_bytes());
    };
    octal(&mut header[100..108], 0o644);
    octal(&mut header[108..116], 0);
    octal(&mut header[116..124], 0);
    octal(&mut header[124..136], body.len() as u64);
    octal(&mut header[136..148], 0);
    header[156] = b'0';
    header[257..263].copy_from_slice(b"ustar\0");
    header[263..265].copy_from_slice(b"00");
    header[148..156].copy_from_slice(b"        ");
    let sum: u64 = header.iter().map(|b| u64::from(*b)).sum();
    let check = format!("{sum:06o}\0 ");
    header[148..156].copy_from_slice(check.as_bytes());
    let mut tar = header.to_vec();
    tar.extend_from_slice(body);
    tar.resize(tar.len().div_ceil(512) * 512 + 1024, 0);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to memory cannot fail.
    let _ = gz.write_all(&tar);
    gz.finish().unwrap_or_default()
}

fn admin(org: &Org, uid: i64) -> Result<(), ApiErr> {
    super::org_admin::admin(org, uid)
}

/// `POST /export/realm` (administrators): a new export, made at once; its ID.
pub async fn create(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let mut org = s.lock();
    // `export_type` came with level 304: before, every export is public (and it is ignored).
    let export_type = if org.settings.feature_level >= crate::levels::EXPORT_TYPE {
        match p.opt_json::<i64>("export_type")? {
            None => PUBLIC,
            Some(t @ (PUBLIC | STANDARD)) => t,
            Some(_) => return Err(ApiErr::bad("Invalid export_type")),
        }
    } else {
        PUBLIC
    };
    admin(&org, req.user_id)?;
    let now = org.now_f64();
    let week_ago = now - 7.0 * 86400.0;
    if org.exports.values().filter(|e| e.export_time >= week_ago).count() >= WEEKLY_LIMIT {
        return Err(ApiErr::bad("Exceeded rate limit."));
    }
    let owners: Vec<i64> = org
        .users
        .values()
        .filter(|u| u.is_active && !u.is_bot() && u.role == Role::Owner)
        .map(|u| u.id)
        .collect();
    if export_type == STANDARD && !owners.iter().any(|o| org.consents(*o)) {
        return Err(ApiErr::bad(format!(
            "Make sure at least one Organization Owner is consenting to the export or contact {SUPPORT} for help."
        )));
    }
    // A public export names people by address only where an owner lets administrators see it.
    let visible = |o: &i64| {
        let v = super::settings::of_user(&org, *o).get("email_address_visibility").and_then(Value::as_i64);
        matches!(v, Some(1..=3))
    };
    if export_type == PUBLIC && !owners.iter().any(visible) {
        return Err(ApiErr::bad(format!(
            "Make sure at least one Organization Owner allows other Administrators to see their email address or contact {SUPPORT} for help"
        )));
    }
    let id = org.alloc();
    let rec = ExportRec {
        id,
        acting_user_id: req.user_id,
        export_time: now,
        export_type,
        deleted_timestamp: None,
        path: None,
        bytes: Vec::new(),
    };
    org.exports.insert(id, rec);
    // Pending first, as the reference's clients see it, then made.
    org.notify_exports(&s.url);
    let doc = org.export_document(export_type).to_string();
    let file = format!("zulip-export-{}.tar.gz", crate::token::token(8).to_lowercase());
    let path = format!("/user_avatars/exports/{}/{}/{file}", org.realm.string_id, crate::token::token(24));
    if let Some(e) = org.exports.get_mut(&id) {
        e.bytes = tar_gz("realm.json", doc.as_bytes());
        e.path = Some(path);
    }
    org.notify_exports(&s.url);
    Ok(reply(p, success(json!({"id": id}))))
}

/// `GET /export/realm` (administrators).
pub async fn list(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    admin(&org, req.user_id)?;
    Ok(reply(&req.p, success(json!({"exports": org.exports_json(&s.url)}))))
}

/// `DELETE /export/realm/{id}` (administrators): the file goes; the record stays, deleted.
pub async fn delete(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("export_id", &id)?;
    let mut org = s.lock();
    admin(&org, req.user_id)?;
    let now = org.now_f64();
    let e = org.exports.get_mut(&id).ok_or_else(|| ApiErr::bad("Invalid data export ID"))?;
    if e.deleted_timestamp.is_some() {
        return Err(ApiErr::bad("Export already deleted"));
    }
    if e.path.is_none() {
        return Err(ApiErr::bad("Export still in progress"));
    }
    e.deleted_timestamp = Some(now);
    e.path = None;
    e.bytes = Vec::new();
    org.notify_exports(&s.url);
    Ok(reply(&req.p, ok()))
}

/// `GET /export/realm/consents` (administrators, level 295): whether each active person lets
/// administrators export their private data.
pub async fn consents(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    if org.settings.feature_level < crate::levels::EXPORT_CONSENTS {
        return Err(ApiErr::no_endpoint());
    }
    admin(&org, req.user_id)?;
    let list: Vec<Value> = org
        .users
        .values()
        .filter(|u| u.is_active && !u.is_bot())
        .map(|u| json!({"user_id": u.id, "consented": org.consents(u.id)}))
        .collect();
    Ok(reply(&req.p, success(json!({"export_consents": list}))))
}

/// `GET /user_avatars/exports/…`: an export's file, to whoever has its unguessable address
/// (as the reference's local storage serves it).
pub async fn download(
    State(s): State<Arc<Shared>>,
    Path(rest): Path<String>,
) -> Result<axum::response::Response, ApiErr> {
    use axum::response::IntoResponse;
    let path = format!("/user_avatars/exports/{rest}");
    let org = s.lock();
    let found = org.exports.values().find(|e| e.path.as_deref() == Some(path.as_str()));
    match found {
        Some(e) => {
            Ok(([(axum::http::header::CONTENT_TYPE, "application/gzip")], e.bytes.clone()).into_response())
        }
        None => Err(ApiErr::new(axum::http::StatusCode::NOT_FOUND, "NOT_FOUND", "File not found")),
    }
}
