//! Channels and subscriptions: list, subscribe, unsubscribe, properties, topics, topic
//! visibility (modern and legacy), channel email addresses, archiving.

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{ChannelRec, GroupSetting, Org, SubRec};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

impl Org {
    /// A subscription object as `viewer` sees it.
    pub fn subscription_json(&self, c: &ChannelRec, sub: &SubRec, include: &str) -> Value {
        let mut v = self.channel_json(c);
        let o = v.as_object_mut().expect("object");
        for (k, val) in [
            ("color", json!(sub.color)),
            ("pin_to_top", json!(sub.pin_to_top)),
            ("is_muted", json!(sub.is_muted)),
            ("in_home_view", json!(!sub.is_muted)),
            ("desktop_notifications", json!(sub.desktop_notifications)),
            ("email_notifications", json!(sub.email_notifications)),
            ("wildcard_mentions_notify", json!(sub.wildcard_mentions_notify)),
            ("push_notifications", json!(sub.push_notifications)),
            ("audible_notifications", json!(sub.audible_notifications)),
        ] {
            o.insert(k.into(), val);
        }
        let subscribers: Vec<i64> =
            c.subs.keys().copied().filter(|u| self.users.get(u).is_some_and(|u| u.is_active)).collect();
        match include {
            "true" => {
                o.insert("subscribers".into(), json!(subscribers));
            }
            "partial" if subscribers.len() >= self.settings.partial_subscribers_threshold => {
                // All bots plus users active in the last 14 days.
                let recent = self.now() - 14 * 86400;
                let partial: Vec<i64> = subscribers
                    .iter()
                    .copied()
                    .filter(|u| {
                        self.users.get(u).is_some_and(|x| x.is_bot())
                            || self.presence.get(u).is_some_and(|p| p.active_ts.max(p.idle_ts) >= recent)
                    })
                    .collect();
                o.insert("partial_subscribers".into(), json!(partial));
            }
            "partial" => {
                o.insert("subscribers".into(), json!(subscribers));
            }
            _ => {}
        }
        v
    }

    /// A channel's first message and its messages of the last week (see `Org::channel_stats`).
    fn channel_stat(&self, channel: i64) -> (Option<i64>, usize) {
        let now = self.now();
        let mut cache = self.channel_stats.lock().unwrap_or_else(|p| p.into_inner());
        let fresh = cache
            .as_ref()
            .is_some_and(|s| s.generation == self.message_generation && now - s.computed_at < 3600);
        if !fresh {
            let week_ago = now - 7 * 86400;
            let mut by_channel: HashMap<i64, (i64, usize)> = HashMap::new();
            for m in self.messages.values() {
                if let Some(c) = m.channel_id() {
                    let e = by_channel.entry(c).or_insert((m.id, 0));
                    e.1 += usize::from(m.timestamp >= week_ago);
                }
            }
            *cache = Some(crate::org::ChannelStats {
                generation: self.message_generation,
                computed_at: now,
                by_channel,
            });
        }
        cache.as_ref().and_then(|s| s.by_channel.get(&channel)).map_or((None, 0), |(f, n)| (Some(*f), *n))
    }

    /// Channel fields shared by subscription and stream objects.
    pub fn channel_json(&self, c: &ChannelRec) -> Value {
        let (first, traffic) = self.channel_stat(c.id);
        let week_ago = self.now() - 7 * 86400;
        let subscriber_count =
            c.subs.keys().filter(|u| self.users.get(u).is_some_and(|u| u.is_active)).count();
        let admins = self.system_group("role:administrators");
        let everyone = self.system_group("role:everyone");
        let members = self.system_group("role:members");
        let mut v = json!({
            "stream_id": c.id,
            "name": c.name,
            "description": c.description,
            "rendered_description": c.rendered_description,
            "date_created": c.date_created,
            "creator_id": c.creator_id,
            "invite_only": c.invite_only,
            "is_announcement_only": c.admins_only_post,
            "is_web_public": c.is_web_public,
            "stream_post_policy": if c.admins_only_post { 2 } else { 1 },
            "message_retention_days": null,
            "history_public_to_subscribers": c.history_public,
            "first_message_id": first,
            "folder_id": c.folder_id,
            "topics_policy": "inherit",
            "is_recently_active": traffic > 0,
            "stream_weekly_traffic": if c.date_created > week_ago { Value::Null } else { json!(traffic) },
            "is_archived": c.is_archived,
            "can_add_subscribers_group": members,
            "can_remove_subscribers_group": c.can_remove_group,
            "can_administer_channel_group": {"direct_members": c.creator_id.into_iter().collect::<Vec<_>>(), "direct_subgroups": [admins]},
            "can_delete_any_message_group": admins,
            "subscriber_count": subscriber_count,
        });
        if self.settings.feature_level >= crate::levels::CAN_SEND_MESSAGE_GROUP {
            v["can_send_message_group"] = json!(if c.admins_only_post { admins } else { everyone });
        }
        if self.settings.feature_level >= crate::levels::CAN_SUBSCRIBE_GROUP {
            // The reference's default: nobody joins a private channel uninvited (anyone but a
            // guest joins a public one, whatever this says).
            v["can_subscribe_group"] = json!(self.system_group("role:nobody"));
        }
        if self.settings.feature_level >= crate::levels::CAN_CREATE_TOPIC_GROUP {
            v["can_create_topic_group"] = c.can_create_topic_group.json();
        }
        if self.settings.feature_level >= crate::levels::DEFAULT_PUSH_NOTIFICATIONS {
            v["default_push_notifications"] = json!(c.default_push_notifications);
        }
        for (name, at) in crate::levels::CHANNEL_GROUPS {
            if self.settings.feature_level >= *at {
                v[*name] = self.channel_group(c, name).json();
            }
        }
        v
    }

    /// A new channel, announced to everyone who can see it (a `stream` create event); its ID.
    pub(super) fn create_channel(
        &mut self,
        creator: i64,
        name: &str,
        description: &str,
        invite_only: bool,
        default_push_notifications: bool,
    ) -> i64 {
        let id = self.alloc();
        let rendered_description = crate::markdown::render(description, &*self).html;
        let admins = self.system_group("role:administrators");
        let created = self.now();
        self.channels.insert(
            id,
            ChannelRec {
                id,
                name: name.to_owned(),
                description: description.to_owned(),
                rendered_description,
                invite_only,
                history_public: true,
                is_web_public: false,
                folder_id: None,
                admins_only_post: false,
                subs: BTreeMap::new(),
                date_created: created,
                creator_id: Some(creator),
                can_remove_group: admins,
                is_archived: false,
                email_token: crate::token::token(12).to_lowercase(),
                can_create_topic_group: GroupSetting::Named(self.system_group("role:everyone")),
                default_push_notifications,
                groups: Default::default(),
            },
        );
        let json = self.channels.get(&id).map(|c| self.channel_json(c));
        let everyone: Vec<i64> = self.users.keys().copied().collect();
        if !invite_only {
            self.queues.push(&everyone, &json!({"type": "stream", "op": "create", "streams": [json]}));
        }
        id
    }

    /// Subscribe a user (who sees messages from `first_visible` on), with its events.
    pub(super) fn add_subscriber(&mut self, user: i64, cid: i64, first_visible: i64) {
        let color = ["#76ce90", "#fae589", "#a6c7e5", "#e79ab5"][(cid % 4) as usize].to_owned();
        let push_default = self.settings.feature_level >= crate::levels::DEFAULT_PUSH_NOTIFICATIONS;
        if let Some(c) = self.channels.get_mut(&cid) {
            // A channel that turns mobile notifications on for new subscribers overrides the
            // user's default for it (507).
            let push_notifications = (push_default && c.default_push_notifications).then_some(true);
            c.subs.insert(
                user,
                SubRec {
                    color,
                    pin_to_top: false,
                    is_muted: false,
                    desktop_notifications: None,
                    email_notifications: None,
                    wildcard_mentions_notify: None,
                    push_notifications,
                    audible_notifications: None,
                    first_visible,
                },
            );
        }
        self.sub_event_add(user, cid);
    }

    fn sub_event_add(&mut self, user: i64, cid: i64) {
        let Some(c) = self.channels.get(&cid) else { return };
        let Some(sub) = c.subs.get(&user) else { return };
        let json = self.subscription_json(c, sub, "true");
        self.queues.push(&[user], &json!({"type": "subscription", "op": "add", "subscriptions": [json]}));
        let others: Vec<i64> = c.subs.keys().copied().filter(|u| *u != user).collect();
        self.queues.push(
            &others,
            &json!({"type": "subscription", "op": "peer_add", "stream_ids": [cid], "user_ids": [user]}),
        );
    }

    fn sub_event_remove(&mut self, user: i64, cid: i64) {
        let Some(c) = self.channels.get(&cid) else { return };
        let name = c.name.clone();
        let others: Vec<i64> = c.subs.keys().copied().filter(|u| *u != user).collect();
        self.queues.push(&[user], &json!({"type": "subscription", "op": "remove", "subscriptions": [{"stream_id": cid, "name": name}]}));
        self.queues.push(
            &others,
            &json!({"type": "subscription", "op": "peer_remove", "stream_ids": [cid], "user_ids": [user]}),
        );
    }
}

/// `GET /users/me/subscriptions`
pub async fn list(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let include = req.p.opt_str("include_subscribers").unwrap_or_else(|| "false".into());
    let org = s.lock();
    // `partial` is new in feature level 412.
    let partial_known = org.settings.feature_level >= 412;
    if !(matches!(include.as_str(), "true" | "false") || (include == "partial" && partial_known)) {
        return Err(ApiErr::bad("Invalid include_subscribers"));
    }
    let subs: Vec<Value> = org
        .channels
        .values()
        .filter_map(|c| c.subs.get(&req.user_id).map(|sub| org.subscription_json(c, sub, &include)))
        .collect();
    Ok(reply(&req.p, success(json!({"subscriptions": subs}))))
}

/// `GET /streams`: the channels the flags ask for, of those the user may see, by name.
pub async fn streams(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let mut include_public = p.bool_or("include_public", true)?;
    let include_web_public = p.bool_or("include_web_public", false)?;
    let include_subscribed = p.bool_or("include_subscribed", true)?;
    let exclude_archived = p.bool_or("exclude_archived", true)?;
    let include_all_active = p.bool_or("include_all_active", false)?;
    let include_all = p.bool_or("include_all", false)?;
    let include_default = p.bool_or("include_default", false)?;
    let include_owner_subscribed = p.bool_or("include_owner_subscribed", false)?;
    let include_content = p.bool_or("include_can_access_content", false)?;
    let org = s.lock();
    let me = org.user(req.user_id)?;
    if include_all_active && !me.is_admin() {
        return Err(ApiErr::bad("User not authorized for this query"));
    }
    // Guests see only the channels they are in.
    if me.role == crate::org::Role::Guest {
        include_public = false;
    }
    let owner = me.bot_owner.filter(|_| include_owner_subscribed && me.is_bot());
    let uid = req.user_id;
    let wanted = |c: &ChannelRec| {
        let subscribed = c.subs.contains_key(&uid);
        let all = (include_all || include_all_active) && (me.is_admin() || org.can_access_channel(uid, c.id));
        all || (include_public && !c.invite_only)
            || (include_web_public && c.is_web_public)
            || (include_subscribed && subscribed)
            || (include_content && org.can_access_channel(uid, c.id) && (subscribed || !c.invite_only))
            || owner.is_some_and(|o| c.subs.contains_key(&o))
    };
    let mut list: Vec<&ChannelRec> =
        org.channels.values().filter(|c| !(exclude_archived && c.is_archived) && wanted(c)).collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    let list: Vec<Value> = list
        .into_iter()
        .map(|c| {
            let mut v = org.channel_json(c);
            if include_default {
                // The demo organization has no default channels.
                v["is_default"] = json!(false);
            }
            v
        })
        .collect();
    Ok(reply(p, success(json!({"streams": list}))))
}

/// `GET /streams/{id}`: one channel the user may see.
pub async fn stream(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let org = s.lock();
    let c = org.accessible_channel(req.user_id, cid)?;
    Ok(reply(&req.p, success(json!({"stream": org.channel_json(c)}))))
}

/// Principals given as IDs or emails.
fn principals(org: &Org, raw: Option<Value>, caller: i64) -> Result<Vec<i64>, ApiErr> {
    let Some(raw) = raw else { return Ok(vec![caller]) };
    let items = raw.as_array().cloned().ok_or_else(|| ApiErr::bad("principals is not a list"))?;
    let level = org.settings.feature_level;
    let bad_principal = |what: String| {
        if level >= 208 {
            ApiErr::bad(format!("No such user: {what}"))
        } else {
            ApiErr::new(
                StatusCode::FORBIDDEN,
                "UNAUTHORIZED_PRINCIPAL",
                format!("User not authorized to execute queries on behalf of '{what}'"),
            )
            .with("principal", what)
        }
    };
    let mut ids = Vec::new();
    for item in items {
        let user = match &item {
            Value::Number(n) => n.as_i64().and_then(|id| org.users.get(&id)),
            Value::String(s) => org.user_by_email(s),
            _ => None,
        };
        match user {
            Some(u) if u.is_active => ids.push(u.id),
            _ => {
                return Err(bad_principal(
                    item.as_str().map(str::to_owned).unwrap_or_else(|| item.to_string()),
                ));
            }
        }
    }
    Ok(ids)
}

/// `DELETE /users/me/subscriptions`
pub async fn unsubscribe(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let names: Vec<String> = p.json("subscriptions")?;
    let raw_principals: Option<Value> = p.opt_json("principals")?;
    let mut org = s.lock();
    let targets = principals(&org, raw_principals, req.user_id)?;
    let caller = org.user(req.user_id)?.clone();
    let mut channel_ids = Vec::new();
    for n in &names {
        // Administrators may remove anyone from any channel, private ones included.
        // Before feature level 362 archived channels' subscriptions could not be modified.
        let archived_locked = |c: &ChannelRec| c.is_archived && org.settings.feature_level < 362;
        let visible = |c: &&ChannelRec| {
            (caller.is_admin() || org.can_access_channel(req.user_id, c.id)) && !archived_locked(c)
        };
        let c = org.channel_named(n).filter(visible).ok_or_else(|| {
            ApiErr::new(
                StatusCode::BAD_REQUEST,
                "STREAM_DOES_NOT_EXIST",
                format!("Channel '{n}' does not exist"),
            )
            .with("stream", n.clone())
        })?;
        channel_ids.push(c.id);
    }
    for cid in &channel_ids {
        for t in &targets {
            if *t == req.user_id {
                continue;
            }
            let owns_bot = org.users.get(t).is_some_and(|u| u.bot_owner == Some(req.user_id));
            let group = org.channels.get(cid).map_or(0, |c| c.can_remove_group);
            let permitted = caller.is_admin() || owns_bot || org.in_group(group, req.user_id);
            if !permitted {
                return Err(ApiErr::insufficient());
            }
        }
    }
    let mut removed = Vec::new();
    let mut not_removed = Vec::new();
    for cid in channel_ids {
        for t in &targets {
            let name = org.channels.get(&cid).map(|c| c.name.clone()).unwrap_or_default();
            if org.is_subscribed(*t, cid) {
                org.sub_event_remove(*t, cid);
                if let Some(c) = org.channels.get_mut(&cid) {
                    c.subs.remove(t);
                }
                removed.push(name);
            } else {
                not_removed.push(name);
            }
        }
    }
    Ok(reply(p, success(json!({"removed": removed, "not_removed": not_removed}))))
}

/// `POST /users/me/subscriptions`: subscribe (creating missing channels).
pub async fn subscribe(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let subs: Vec<Value> = p.json("subscriptions")?;
    let raw_principals: Option<Value> = p.opt_json("principals")?;
    let invite_only = p.bool_or("invite_only", false)?;
    let authorization_errors_fatal = p.bool_or("authorization_errors_fatal", true)?;
    let mut org = s.lock();
    // Unknown before level 507: not read, so reported as ignored.
    let push_default = if org.settings.feature_level >= crate::levels::DEFAULT_PUSH_NOTIFICATIONS {
        p.opt_bool("default_push_notifications")?
    } else {
        None
    };
    let targets = principals(&org, raw_principals, req.user_id)?;
    let caller = org.user(req.user_id)?.clone();
    if push_default == Some(true) && !caller.is_admin() {
        return Err(ApiErr::admin_required());
    }
    // Every channel is checked before any is changed, so a refusal leaves no trace.
    let mut unauthorized = Vec::new();
    for sub in &subs {
        let name = sub.get("name").and_then(Value::as_str).unwrap_or("").trim().to_owned();
        crate::validate::check_channel_name(&name)?;
        match org.channel_named(&name).map(|c| c.id) {
            Some(cid)
                if !org.can_access_channel(req.user_id, cid)
                    || org.channels.get(&cid).is_some_and(|c| c.is_archived) =>
            {
                unauthorized.push(name);
            }
            Some(_) => {}
            None if caller.role == crate::org::Role::Guest => return Err(ApiErr::insufficient()),
            None => {}
        }
    }
    // The reference refuses the whole request unless asked to list what it could not access.
    if authorization_errors_fatal && let Some(first) = unauthorized.first() {
        return Err(ApiErr::bad(format!("Unable to access channel ({first}).")));
    }
    let mut subscribed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut already: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for sub in subs {
        let name = sub.get("name").and_then(Value::as_str).unwrap_or("").trim().to_owned();
        if unauthorized.contains(&name) {
            continue;
        }
        let cid = match org.channel_named(&name).map(|c| c.id) {
            Some(cid) => cid,
            None => {
                let description = sub.get("description").and_then(Value::as_str).unwrap_or("").to_owned();
                let push = push_default.unwrap_or(false);
                org.create_channel(req.user_id, &name, &description, invite_only, push)
            }
        };
        let first_visible = org.next_message_id();
        for t in &targets {
            // Keyed by user ID since feature level 289, by email before.
            let email = if org.settings.feature_level >= 289 {
                t.to_string()
            } else {
                org.users.get(t).map(|u| u.email.clone()).unwrap_or_default()
            };
            if org.is_subscribed(*t, cid) {
                already.entry(email).or_default().push(name.clone());
                continue;
            }
            org.add_subscriber(*t, cid, first_visible);
            subscribed.entry(email).or_default().push(name.clone());
        }
    }
    let mut body = json!({"subscribed": subscribed, "already_subscribed": already});
    if !authorization_errors_fatal {
        body["unauthorized"] = json!(unauthorized);
    }
    Ok(reply(p, success(body)))
}

/// `POST /users/me/subscriptions/properties`
pub async fn properties(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let data: Vec<Value> = p.json("subscription_data")?;
    let mut org = s.lock();
    let mut changes = Vec::new();
    for d in &data {
        let cid = d.get("stream_id").and_then(Value::as_i64).ok_or_else(|| ApiErr::missing("stream_id"))?;
        let prop =
            d.get("property").and_then(Value::as_str).ok_or_else(|| ApiErr::missing("property"))?.to_owned();
        let value = d.get("value").cloned().ok_or_else(|| ApiErr::missing("value"))?;
        if !org.is_subscribed(req.user_id, cid) {
            return Err(ApiErr::bad(format!("Not subscribed to channel ID {cid}")));
        }
        let sub = org
            .channels
            .get_mut(&cid)
            .and_then(|c| c.subs.get_mut(&req.user_id))
            .ok_or_else(|| ApiErr::bad("Invalid channel ID"))?;
        let as_bool = |v: &Value| {
            v.as_bool().ok_or_else(|| ApiErr::bad(format!("value for '{prop}' is not a boolean")))
        };
        // The notification settings are `null` (the user's default) until first set; the
        // reference server takes only `true` or `false` for them, never `null` back.
        let opt_bool = |v: &Value| as_bool(v).map(Some);
        match prop.as_str() {
            "color" => {
                sub.color = value
                    .as_str()
                    .filter(|c| c.starts_with('#'))
                    .ok_or_else(|| ApiErr::bad("Invalid color"))?
                    .into()
            }
            "is_muted" => sub.is_muted = as_bool(&value)?,
            "in_home_view" => sub.is_muted = !as_bool(&value)?,
            "pin_to_top" => sub.pin_to_top = as_bool(&value)?,
            "desktop_notifications" => sub.desktop_notifications = opt_bool(&value)?,
            "email_notifications" => sub.email_notifications = opt_bool(&value)?,
            "push_notifications" => sub.push_notifications = opt_bool(&value)?,
            "audible_notifications" => sub.audible_notifications = opt_bool(&value)?,
            "wildcard_mentions_notify" => sub.wildcard_mentions_notify = opt_bool(&value)?,
            _ => return Err(ApiErr::bad(format!("Unknown subscription property: {prop}"))),
        }
        let prop = if prop == "in_home_view" { "is_muted".to_owned() } else { prop };
        let value = if d.get("property").and_then(Value::as_str) == Some("in_home_view") {
            json!(sub.is_muted)
        } else {
            value
        };
        changes.push((cid, prop, value));
    }
    for (cid, prop, value) in changes {
        // Muting: `in_home_view` (its legacy inverse) first, then `is_muted`, as the reference
        // server has sent since feature level 139.
        if prop == "is_muted" {
            let in_home_view = json!(!value.as_bool().unwrap_or(false));
            let ev = json!({"type": "subscription", "op": "update", "stream_id": cid, "property": "in_home_view", "value": in_home_view});
            org.queues.push(&[req.user_id], &ev);
        }
        org.queues.push(&[req.user_id], &json!({"type": "subscription", "op": "update", "stream_id": cid, "property": prop, "value": value}));
    }
    Ok(reply(p, ok()))
}

/// `GET /users/me/{stream_id}/topics`
pub async fn topics(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let allow_empty = crate::levels::allow_empty_topic(s.lock().settings.feature_level, &req.p)?;
    let org = s.lock();
    let c = org.accessible_channel(req.user_id, cid)?;
    // Topics of archived channels are served since feature level 480.
    if c.is_archived && org.settings.feature_level < 480 {
        return Err(ApiErr::bad("Invalid channel ID"));
    }
    let mut by_topic: BTreeMap<String, (String, i64)> = BTreeMap::new();
    for m in org.messages.values().filter(|m| m.channel_id() == Some(cid)) {
        if !org.can_read(req.user_id, m) {
            continue;
        }
        let e = by_topic.entry(m.topic().to_lowercase()).or_insert_with(|| (m.topic().to_owned(), m.id));
        if m.id >= e.1 {
            *e = (m.topic().to_owned(), m.id);
        }
    }
    let mut list: Vec<(String, i64)> = by_topic.into_values().collect();
    list.sort_by_key(|t| std::cmp::Reverse(t.1));
    let topics: Vec<Value> = list
        .into_iter()
        .map(|(name, max_id)| json!({"name": org.topic_out(&name, allow_empty), "max_id": max_id}))
        .collect();
    Ok(reply(&req.p, success(json!({"topics": topics}))))
}

fn set_policy(org: &mut Org, user: i64, cid: i64, topic: &str, policy: i64) {
    let key = (user, cid, topic.to_lowercase());
    let t = org.now();
    if policy == 0 {
        org.user_topics.remove(&key);
    } else {
        org.user_topics.insert(key, (topic.to_owned(), policy, t));
    }
    // The empty topic is shown as the realm's display name to clients without `empty_topic_name`.
    let with_empty = json!(topic);
    let with_display = json!(org.topic_out(topic, false));
    org.queues.push_with(&[user], "user_topic", |q| {
        let shown = if q.empty_topic_name { &with_empty } else { &with_display };
        Some(json!({"type": "user_topic", "stream_id": cid, "topic_name": shown, "last_updated": t, "visibility_policy": policy}))
    });
    let muted = muted_topics_json(org, user);
    org.queues.push(&[user], &json!({"type": "muted_topics", "muted_topics": muted}));
}

/// Legacy `muted_topics`: `[channel name, topic, timestamp]` triples.
pub fn muted_topics_json(org: &Org, user: i64) -> Value {
    json!(
        org.user_topics
            .iter()
            .filter(|((u, _, _), (_, p, _))| *u == user && *p == 1)
            .filter_map(|((_, c, _), (t, _, ts))| org.channels.get(c).map(|ch| json!([ch.name, t, ts])))
            .collect::<Vec<_>>()
    )
}

/// `POST /user_topics`
pub async fn user_topic(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    // The endpoint is new in feature level 170; older servers only have the legacy one.
    if s.lock().settings.feature_level < 170 {
        return Err(ApiErr::no_endpoint());
    }
    let cid = p.i64("stream_id")?;
    let topic_raw = p.str("topic")?;
    let policy = p.i64("visibility_policy")?;
    if !(0..=3).contains(&policy) {
        return Err(ApiErr::bad("Invalid visibility_policy"));
    }
    let mut org = s.lock();
    if policy == 3 && org.settings.feature_level < 219 {
        return Err(ApiErr::bad("Invalid visibility_policy"));
    }
    org.accessible_channel(req.user_id, cid)?;
    let topic = org.topic_in(&topic_raw);
    if topic.chars().count() > org.realm.max_topic_length {
        return Err(ApiErr::bad("Topic is too long"));
    }
    set_policy(&mut org, req.user_id, cid, &topic, policy);
    Ok(reply(p, ok()))
}

/// `PATCH /users/me/subscriptions/muted_topics` (legacy).
pub async fn muted_topics(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let cid = p.opt_i64("stream_id")?;
    let name = p.opt_str("stream");
    let topic_raw = p.str("topic")?;
    let op = p.str("op")?;
    let mut org = s.lock();
    let cid = match (cid, name) {
        (Some(id), None) => id,
        (None, Some(n)) => org.channel_named(&n).map(|c| c.id).ok_or_else(|| {
            ApiErr::new(
                StatusCode::BAD_REQUEST,
                "STREAM_DOES_NOT_EXIST",
                format!("Channel '{n}' does not exist"),
            )
            .with("stream", n.clone())
        })?,
        _ => return Err(ApiErr::bad("Please supply exactly one of 'stream' and 'stream_id'.")),
    };
    if !org.is_subscribed(req.user_id, cid) {
        return Err(ApiErr::bad("Invalid channel ID"));
    }
    let topic = org.topic_in(&topic_raw);
    if topic.chars().count() > org.realm.max_topic_length {
        return Err(ApiErr::bad("Topic is too long"));
    }
    let current = org.topic_policy(req.user_id, cid, &topic);
    let idempotent = org.settings.feature_level >= 170;
    match op.as_str() {
        "add" => {
            if current == 1 && !idempotent {
                return Err(ApiErr::bad("Topic already muted"));
            }
            set_policy(&mut org, req.user_id, cid, &topic, 1);
        }
        "remove" => {
            if current != 1 && !idempotent {
                return Err(ApiErr::bad("Topic is not muted"));
            }
            if current == 1 {
                set_policy(&mut org, req.user_id, cid, &topic, 0);
            }
        }
        _ => return Err(ApiErr::bad("Invalid op: must be 'add' or 'remove'")),
    }
    Ok(reply(p, ok()))
}

/// `GET /streams/{id}/email_address`
pub async fn email_address(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let sender = req.p.opt_i64("sender_id")?;
    let org = s.lock();
    if org.settings.feature_level < crate::levels::CHANNEL_EMAIL_ENDPOINT {
        return Err(ApiErr::no_endpoint());
    }
    let c = org.accessible_channel(req.user_id, cid)?;
    if org.post_denied(req.user_id, cid).is_some() {
        return Err(ApiErr::bad("You do not have permission to post in this channel."));
    }
    let sender = sender.unwrap_or(org.email_gateway_bot);
    let allowed = sender == req.user_id
        || sender == org.email_gateway_bot
        || org.users.get(&sender).is_some_and(|u| u.bot_owner == Some(req.user_id) && u.is_active);
    if !allowed {
        return Err(ApiErr::bad("Invalid sender_id: must be you, the email gateway bot, or a bot you own"));
    }
    let slug: String = c
        .name
        .chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch.to_ascii_lowercase() } else { '-' })
        .collect();
    let email = if sender == org.email_gateway_bot {
        format!("{slug}.{}@streams.{}", c.email_token, org.realm.email_domain)
    } else {
        format!("{slug}.{}.sender-{sender}@streams.{}", c.email_token, org.realm.email_domain)
    };
    Ok(reply(&req.p, success(json!({"email": email}))))
}

/// `DELETE /streams/{id}`: archive a channel (administrators).
pub async fn archive(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let cid = path_id("stream_id", &id)?;
    let mut org = s.lock();
    if !org.user(req.user_id)?.is_admin() {
        return Err(ApiErr::admin_required());
    }
    let c = org
        .channels
        .get_mut(&cid)
        .filter(|c| !c.is_archived)
        .ok_or_else(|| ApiErr::bad("Invalid channel ID"))?;
    c.is_archived = true;
    let json = org.channels.get(&cid).map(|c| org.channel_json(c));
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    org.queues
        .push(&everyone, &json!({"type": "stream", "op": "delete", "streams": [json], "stream_ids": [cid]}));
    Ok(reply(&req.p, ok()))
}

/// `PATCH /users/me/subscriptions` (undocumented; gone from level 512): subscribe to `add` and
/// unsubscribe from `delete` in one request, the two answers merged (`compose_views`).
pub async fn update_subscriptions(State(s): State<Arc<Shared>>, req: Req) -> Res {
    if s.lock().settings.feature_level >= crate::levels::NO_PATCH_SUBSCRIPTIONS {
        return Err(super::common::method_not_allowed().await);
    }
    let add: Vec<Value> = req.p.opt_json("add")?.unwrap_or_default();
    let delete: Vec<String> = req.p.opt_json("delete")?.unwrap_or_default();
    if add.is_empty() && delete.is_empty() {
        return Err(ApiErr::bad("Nothing to do. Specify at least one of \"add\" or \"delete\"."));
    }
    let part = |name: &str, list: String| Req {
        user_id: req.user_id,
        client: req.client.clone(),
        p: crate::params::Params::from_pairs(vec![(name.into(), list)]),
        files: Vec::new(),
    };
    let mut merged = serde_json::Map::new();
    if !add.is_empty() {
        let answer = subscribe(State(s.clone()), part("subscriptions", json!(add).to_string())).await?;
        merged.extend(answer.0.as_object().cloned().unwrap_or_default());
    }
    if !delete.is_empty() {
        let answer = unsubscribe(State(s.clone()), part("subscriptions", json!(delete).to_string())).await?;
        merged.extend(answer.0.as_object().cloned().unwrap_or_default());
    }
    Ok(reply(&req.p, Value::Object(merged)))
}
