//! Looking at and shaping the organization: a channel's members, one user's subscription, the
//! custom profile fields, creating a channel, deleting a topic (administrators), channel
//! folders, and one's uploaded files — with the reference server's permissions, errors and
//! events.

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{Org, Recip};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use topicterm_api::names::same_name;

/// Administrators only (the reference server's refusal otherwise).
pub(super) fn admin(org: &Org, user: i64) -> Result<(), ApiErr> {
    if org.users.get(&user).is_some_and(|u| u.is_admin()) {
        Ok(())
    } else {
        Err(ApiErr::new(
            StatusCode::BAD_REQUEST,
            "UNAUTHORIZED_PRINCIPAL",
            "Must be an organization administrator",
        ))
    }
}

/// `GET /streams/{id}/members`: the active subscribers of a channel the user can see.
pub async fn members(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let org = s.lock();
    let c = org.accessible_channel(req.user_id, cid)?;
    let ids: Vec<i64> =
        c.subs.keys().copied().filter(|u| org.users.get(u).is_some_and(|u| u.is_active)).collect();
    Ok(reply(&req.p, success(json!({"subscribers": ids}))))
}

/// `GET /users/{user_id}/subscriptions/{stream_id}`.
pub async fn subscription_status(
    State(s): State<Arc<Shared>>,
    Path((uid, cid)): Path<(String, String)>,
    req: Req,
) -> Res {
    let (uid, cid) = (path_id("user_id", &uid)?, path_id("stream_id", &cid)?);
    let org = s.lock();
    org.user(uid)?;
    org.accessible_channel(req.user_id, cid)?;
    Ok(reply(&req.p, success(json!({"is_subscribed": org.is_subscribed(uid, cid)}))))
}

/// `POST /channels/create`: a new channel with its first subscribers; refused when the name
/// is taken or invalid.
pub async fn create_channel(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let name = p.str("name")?.trim().to_owned();
    let subscribers: Vec<i64> = p.json("subscribers")?;
    let description = p.opt_str("description").unwrap_or_default();
    let invite_only = p.bool_or("invite_only", false)?;
    crate::validate::check_channel_name(&name)?;
    let mut org = s.lock();
    if org.settings.feature_level < 417 {
        return Err(ApiErr::no_endpoint());
    }
    // Unknown before level 507: not read, so reported as ignored. Administrators only.
    let push = if org.settings.feature_level >= crate::levels::DEFAULT_PUSH_NOTIFICATIONS {
        p.opt_bool("default_push_notifications")?
    } else {
        None
    };
    if push == Some(true) && !org.users.get(&req.user_id).is_some_and(|u| u.is_admin()) {
        return Err(ApiErr::admin_required());
    }
    if org.users.get(&req.user_id).is_some_and(|u| u.role == crate::org::Role::Guest) {
        return Err(ApiErr::insufficient());
    }
    if org.channel_named(&name).is_some() {
        return Err(ApiErr::new(
            StatusCode::BAD_REQUEST,
            "CHANNEL_ALREADY_EXISTS",
            format!("Channel '{name}' already exists"),
        ));
    }
    for u in &subscribers {
        if !org.users.get(u).is_some_and(|u| u.is_active) {
            return Err(ApiErr::bad(format!("Invalid user ID {u}")));
        }
    }
    let id = org.create_channel(req.user_id, &name, &description, invite_only, push.unwrap_or(false));
    let first_visible = org.next_message_id();
    for u in subscribers {
        org.add_subscriber(u, id, first_visible);
    }
    Ok(reply(p, success(json!({"id": id}))))
}

/// `POST /streams/{id}/delete_topic`: administrators delete every message of a topic (a
/// `delete_message` event each); `complete` as the reference server answers it.
pub async fn delete_topic(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let topic = req.p.str("topic_name")?;
    let mut org = s.lock();
    admin(&org, req.user_id)?;
    org.accessible_channel(req.user_id, cid)?;
    let topic = org.topic_in(&topic);
    let ids: Vec<i64> = org
        .messages
        .values()
        .filter(|m| matches!(&m.recip, Recip::Channel { id, topic: t } if *id == cid && same_name(t, &topic)))
        .map(|m| m.id)
        .collect();
    for id in ids {
        org.delete_message(id);
    }
    Ok(reply(&req.p, success(json!({"complete": true}))))
}

fn folder_json(org: &Org, id: i64, order: usize) -> Value {
    let (name, description) = org.folders.get(&id).cloned().unwrap_or_default();
    json!({
        "id": id, "name": name, "description": description,
        "rendered_description": crate::markdown::render(&description, org).html,
        "order": order, "creator_id": org.folder_creators.get(&id), "date_created": org.realm.date_created,
        "is_archived": org.archived_folders.contains(&id),
    })
}

/// The organization's channel folders in display order (register's `channel_folders` too).
pub fn folders_json(org: &Org, include_archived: bool) -> Vec<Value> {
    org.folder_order
        .iter()
        .enumerate()
        .filter(|(_, id)| include_archived || !org.archived_folders.contains(id))
        .map(|(order, id)| folder_json(org, *id, order))
        .collect()
}

/// `GET /channel_folders`.
pub async fn channel_folders(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let include_archived = req.p.bool_or("include_archived", false)?;
    let org = s.lock();
    Ok(reply(&req.p, success(json!({"channel_folders": folders_json(&org, include_archived)}))))
}

fn check_folder_name(org: &Org, name: &str, except: Option<i64>) -> Result<(), ApiErr> {
    if name.trim().is_empty() {
        return Err(ApiErr::bad("Channel folder name can't be empty."));
    }
    if org.folders.iter().any(|(id, (n, _))| Some(*id) != except && n.eq_ignore_ascii_case(name.trim())) {
        return Err(ApiErr::bad(format!("Channel folder '{}' already exists", name.trim())));
    }
    Ok(())
}

/// `POST /channel_folders/create` (administrators): a `channel_folder` add event to everyone.
pub async fn create_folder(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let name = req.p.str("name")?;
    let description = req.p.opt_str("description").unwrap_or_default();
    let mut org = s.lock();
    admin(&org, req.user_id)?;
    check_folder_name(&org, &name, None)?;
    let id = org.alloc();
    org.folders.insert(id, (name.trim().to_owned(), description));
    org.folder_creators.insert(id, req.user_id);
    org.folder_order.push(id);
    let order = org.folder_order.len() - 1;
    let ev = json!({"type": "channel_folder", "op": "add", "channel_folder": folder_json(&org, id, order)});
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues.push(&everyone, &ev);
    Ok(reply(&req.p, success(json!({"channel_folder_id": id}))))
}

/// `PATCH /channel_folders/{id}` (administrators): name, description, archived.
pub async fn update_folder(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("channel_folder_id", &id)?;
    let p = &req.p;
    let (name, description, archived) =
        (p.opt_str("name"), p.opt_str("description"), p.opt_bool("is_archived")?);
    let mut org = s.lock();
    admin(&org, req.user_id)?;
    if !org.folders.contains_key(&id) {
        return Err(ApiErr::bad("Invalid channel folder ID"));
    }
    // As the reference server: a folder is emptied before it is archived.
    if archived == Some(true) && org.channels.values().any(|c| c.folder_id == Some(id)) {
        return Err(ApiErr::bad("You need to remove all the channels from this folder to archive it."));
    }
    let mut data = serde_json::Map::new();
    if let Some(n) = name {
        check_folder_name(&org, &n, Some(id))?;
        org.folders.entry(id).and_modify(|f| f.0 = n.trim().to_owned());
        data.insert("name".into(), json!(n.trim()));
    }
    if let Some(d) = description {
        let rendered = crate::markdown::render(&d, &*org).html;
        org.folders.entry(id).and_modify(|f| f.1 = d.clone());
        data.insert("description".into(), json!(d));
        data.insert("rendered_description".into(), json!(rendered));
    }
    if let Some(a) = archived {
        if a {
            org.archived_folders.insert(id);
        } else {
            org.archived_folders.remove(&id);
        }
        data.insert("is_archived".into(), json!(a));
    }
    let ev = json!({"type": "channel_folder", "op": "update", "channel_folder_id": id, "data": data});
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues.push(&everyone, &ev);
    Ok(reply(p, ok()))
}

/// `PATCH /channel_folders` (administrators): every folder's ID, archived ones too, in the new
/// order; a `channel_folder` reorder event to everyone.
pub async fn reorder_folders(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let order: Vec<i64> = req.p.json("order")?;
    let mut org = s.lock();
    admin(&org, req.user_id)?;
    let mut sorted = order.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != order.len() || !sorted.iter().eq(org.folders.keys()) {
        return Err(ApiErr::bad("Invalid order mapping."));
    }
    org.folder_order = order.clone();
    let ev = json!({"type": "channel_folder", "op": "reorder", "order": order});
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues.push(&everyone, &ev);
    Ok(reply(&req.p, ok()))
}

impl Org {
    /// An upload as `GET /attachments` lists it, with the messages it is tied to: times in
    /// seconds from level 443 (milliseconds before), the messages as `message_ids` from 472
    /// (a `messages` list of `{id, date_sent}` before).
    pub fn attachment_json(&self, path: &str) -> Option<Value> {
        use crate::levels::{ATTACHMENT_MESSAGE_IDS, ATTACHMENT_SECONDS};
        let level = self.settings.feature_level;
        let unit = if level >= ATTACHMENT_SECONDS { 1 } else { 1000 };
        let up = self.uploads.get(path)?;
        let linking = up.messages.iter().filter_map(|id| self.messages.get(id));
        let mut v = json!({
            "id": up.id, "name": up.name, "path_id": path, "size": up.bytes.len(),
            "create_time": up.created * unit,
        });
        if level >= ATTACHMENT_MESSAGE_IDS {
            v["message_ids"] = linking.map(|m| m.id).collect::<Vec<_>>().into();
        } else {
            v["messages"] = linking
                .map(|m| json!({"id": m.id, "date_sent": m.timestamp * unit}))
                .collect::<Vec<_>>()
                .into();
        }
        Some(v)
    }

    /// Bytes every upload of the organization takes (what its quota counts).
    pub fn upload_space_used(&self) -> usize {
        self.uploads.values().map(|u| u.bytes.len()).sum()
    }

    /// Tell an upload's owner it was added or changed (`op`), as the reference server's
    /// `notify_attachment_update` does.
    pub fn notify_attachment(&mut self, path: &str, op: &str) {
        let (Some(json), Some(owner)) = (self.attachment_json(path), self.uploads.get(path).map(|u| u.owner))
        else {
            return;
        };
        let ev = json!({"type": "attachment", "op": op, "attachment": json, "upload_space_used": self.upload_space_used()});
        self.queues.push(&[owner], &ev);
    }

    /// A message was sent, or edited from `before`: each upload its text links is tied to it
    /// if its sender may read that upload (the reference server's `do_claim_attachments`:
    /// linking a file one may not read gives it to no one, oneself included), each it no
    /// longer links is untied, and their owners are told where they are used now.
    pub fn claim_attachments(&mut self, message_id: i64, before: &str) {
        let Some(msg) = self.messages.get(&message_id) else { return };
        let (sender, linked) = (msg.sender_id, crate::org::linked_uploads(&msg.content));
        let mut told = Vec::new();
        for path in &linked {
            let tied = self.uploads.get(path).is_some_and(|u| u.messages.contains(&message_id));
            if tied || self.uploads.contains_key(path) && self.can_read_upload(sender, path) {
                if let Some(up) = self.uploads.get_mut(path) {
                    up.messages.insert(message_id);
                }
                told.push(path.clone());
            }
        }
        for path in crate::org::linked_uploads(before) {
            if !linked.contains(&path)
                && self.uploads.get_mut(&path).is_some_and(|u| u.messages.remove(&message_id))
            {
                told.push(path);
            }
        }
        for path in told {
            self.notify_attachment(&path, "update");
        }
    }
}

/// `GET /attachments`: the user's own uploads, and the space all uploads take.
pub async fn attachments(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    let list: Vec<Value> = org
        .uploads
        .iter()
        .filter(|(_, u)| u.owner == req.user_id)
        .filter_map(|(path, _)| org.attachment_json(path))
        .collect();
    let used = org.upload_space_used();
    Ok(reply(&req.p, success(json!({"attachments": list, "upload_space_used": used}))))
}

/// `DELETE /attachments/{id}`: one's own upload; an `attachment` remove event.
pub async fn delete_attachment(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("attachment_id", &id)?;
    let mut org = s.lock();
    let Some(path) =
        org.uploads.iter().find(|(_, u)| u.id == id && u.owner == req.user_id).map(|(p, _)| p.clone())
    else {
        return Err(ApiErr::new(StatusCode::NOT_FOUND, "BAD_REQUEST", "Invalid attachment"));
    };
    org.uploads.remove(&path);
    let used = org.upload_space_used();
    let ev =
        json!({"type": "attachment", "op": "remove", "attachment": {"id": id}, "upload_space_used": used});
    org.queues.push(&[req.user_id], &ev);
    Ok(reply(&req.p, ok()))
}

/// `POST /realm/test_welcome_bot_custom_message` (administrators, level 416): the Welcome Bot
/// DMs the administrator the custom welcome message, so they see it as a new user will, as the
/// reference's `send_test_welcome_bot_custom_message` (at most 8,000 characters, not empty).
pub async fn test_welcome_message(State(s): State<Arc<Shared>>, req: Req) -> Res {
    const MAX: usize = 8000;
    let text = req.p.str("welcome_message_custom_text")?;
    let mut org = s.lock();
    if org.settings.feature_level < crate::levels::WELCOME_MESSAGE_CUSTOM_TEXT {
        return Err(ApiErr::no_endpoint());
    }
    admin(&org, req.user_id)?;
    if text.chars().count() > MAX {
        return Err(ApiErr::bad(format!(
            "welcome_message_custom_text is too long (limit: {MAX} characters)"
        )));
    }
    if text.is_empty() {
        return Err(ApiErr::bad("Message must not be empty"));
    }
    let bot = org.welcome_bot;
    let users = vec![bot.min(req.user_id), bot.max(req.user_id)];
    let id = org.send(bot, Recip::Dm { users }, &text, "Internal", None, Some(false))?;
    Ok(reply(&req.p, success(json!({"message_id": id}))))
}
