//! Register, event queues, navigation views, organization settings.

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{Org, Role};
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

/// Long-poll timeout clients should use (seconds); a heartbeat comes before it.
pub const LONGPOLL_TIMEOUT: u64 = 90;

/// Register's `narrow`: `[operator, operand]` pairs of the operators the reference server
/// filters events by (`check_narrow_for_events`), refused in its words otherwise.
/// `narrow` of `POST /register` (the reference's `check_supported_events_narrow_filter`): a
/// server before `channel` was an operator ([`crate::levels::CHANNEL_OPERATOR`]) knows only
/// `stream` for it.
fn events_narrow(level: i64, terms: Vec<Vec<String>>) -> Result<Vec<(String, String)>, ApiErr> {
    terms
        .into_iter()
        .map(|term| match <[String; 2]>::try_from(term) {
            Ok([op, _])
                if !["channel", "stream", "topic", "exact-topic", "sender", "is"].contains(&op.as_str())
                    || (op == "channel" && level < crate::levels::CHANNEL_OPERATOR) =>
            {
                Err(ApiErr::bad(format!("Operator {op} not supported.")))
            }
            Ok([op, operand]) if op == "is" && operand == "followed" => {
                Err(ApiErr::bad(format!("Operand {operand} not supported.")))
            }
            Ok([op, operand]) => Ok((op, operand)),
            Err(_) => Err(ApiErr::bad("Invalid narrow: each term is [operator, operand]")),
        })
        .collect()
}

/// `POST /register`
pub async fn register(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let event_types: Option<Vec<String>> = p.opt_json("event_types")?;
    let fetch: Option<Vec<String>> = p.opt_json("fetch_event_types")?;
    let apply_markdown = p.bool_or("apply_markdown", false)?;
    let _ = p.opt_bool("client_gravatar")?;
    let include = p.opt_str("include_subscribers").unwrap_or_else(|| "false".into());
    let slim = p.bool_or("slim_presence", false)?;
    let _ = p.opt_bool("all_public_streams")?;
    let _ = p.opt_i64("presence_history_limit_days")?;
    let caps: Map<String, Value> = p.opt_json("client_capabilities")?.unwrap_or_default();
    // The capability means nothing to a server before empty topics.
    let empty_topic = caps.get("empty_topic_name").and_then(Value::as_bool).unwrap_or(false)
        && s.lock().settings.feature_level >= crate::levels::EMPTY_TOPIC;
    let simplified_presence =
        caps.get("simplified_presence_events").and_then(Value::as_bool).unwrap_or(false);
    let cap = |name: &str| caps.get(name).and_then(Value::as_bool).unwrap_or(false);
    let level = s.lock().settings.feature_level;
    let narrow = events_narrow(level, p.opt_json::<Vec<Vec<String>>>("narrow")?.unwrap_or_default())?;
    // Below level 481 the parameter is unknown: not read, so reported as ignored.
    let idle_timeout = if level >= crate::levels::IDLE_QUEUE_TIMEOUT {
        idle_queue_timeout(p.opt_str("idle_queue_timeout"))?
    } else {
        None
    };
    let fetch: Option<HashSet<String>> = fetch.or(event_types.clone()).map(|v| v.into_iter().collect());
    let mut org = s.lock();
    org.queues.gc();
    let uid = req.user_id;
    let simplified_presence =
        simplified_presence && org.settings.feature_level >= crate::levels::SIMPLIFIED_PRESENCE_EVENTS;
    let event_types = event_types.map(|v| v.into_iter().collect());
    let queue_id = org.queues.create(uid, event_types, apply_markdown, empty_topic, simplified_presence);
    let default_lifetime = org.queues.lifetime;
    let q = org.queues.map.get_mut(&queue_id).expect("the queue just made");
    q.narrow = narrow;
    q.user_settings_object = cap("user_settings_object");
    q.individual_emoji_changes =
        cap("individual_emoji_changes") && level >= crate::levels::INDIVIDUAL_EMOJI_CHANGES;
    q.lifetime = idle_timeout.unwrap_or(default_lifetime);
    let lifetime = q.lifetime;
    let me = org.user(uid)?.clone();
    let mut answer = Answer { r: Map::new(), fetch };
    let a = &mut answer;
    head(a, &org, &queue_id, lifetime);
    for (key, event_type, value) in super::realm_state::other_fields(&org) {
        if a.wants(event_type) {
            a.put(key, value);
        }
    }
    if a.wants("realm") {
        realm(a, &org, &s.url);
    }
    if a.wants("realm_user") {
        own_and_others(a, &org, &me);
    }
    if a.wants("realm_bot") {
        a.put("realm_bots", json!(super::realm_state::bots_json(&org, &me)));
    }
    channels_and_messages(a, &org, uid, &include, empty_topic, slim);
    personal(a, &org, &me, cap("user_settings_object"));
    Ok(reply(p, success(Value::Object(answer.r))))
}

/// Register's answer as it is written: the fields, and the types the client fetches (`None`:
/// all).
struct Answer {
    r: Map<String, Value>,
    fetch: Option<HashSet<String>>,
}

impl Answer {
    fn put(&mut self, k: &str, v: Value) {
        self.r.insert(k.to_owned(), v);
    }

    fn wants(&self, t: &str) -> bool {
        self.fetch.as_ref().is_none_or(|f| f.contains(t))
    }
}

/// What every answer has: the queue, the server's version and limits.
fn head(a: &mut Answer, org: &Org, queue_id: &str, lifetime: std::time::Duration) {
    let level = org.settings.feature_level;
    a.put("queue_id", json!(queue_id));
    a.put("last_event_id", json!(-1));
    a.put("zulip_feature_level", json!(level));
    let version = crate::levels::version(level);
    a.put("zulip_version", json!(version));
    a.put("zulip_merge_base", json!(version));
    a.put("event_queue_longpoll_timeout_seconds", json!(LONGPOLL_TIMEOUT));
    if level >= crate::levels::IDLE_QUEUE_TIMEOUT {
        a.put("idle_queue_timeout_secs", json!(lifetime.as_secs_f64().ceil() as u64));
    }
    a.put("max_message_length", json!(org.realm.max_message_length));
    a.put("max_topic_length", json!(org.realm.max_topic_length));
    // Empty topics ("general chat") are new at level 334.
    if level >= crate::levels::EMPTY_TOPIC {
        a.put("realm_empty_topic_display_name", json!(org.realm.empty_topic_display_name));
    }
    let types: Vec<Value> =
        super::common::report_types(level).iter().map(|(k, n)| json!({"key": k, "name": n})).collect();
    // Servers before level 435 do not list report types (clients use the five fixed ones).
    if level >= 435 {
        a.put("server_report_message_types", json!(types));
    }
    a.put(
        "realm_moderation_request_channel_id",
        json!(org.realm.moderation_request_channel_id.unwrap_or(-1)),
    );
}

/// The organization's settings and the server's (`realm`).
fn realm(a: &mut Answer, org: &Org, url: &str) {
    for (key, value) in super::realm_state::realm_fields(org, url) {
        a.put(key, value);
    }
    a.put("realm_name", json!(org.realm.name));
    a.put("realm_message_content_delete_limit_seconds", json!(org.realm.delete_own_limit_secs));
    a.put("realm_allow_edit_history", json!(org.realm.allow_edit_history));
    a.put(
        "realm_message_edit_history_visibility_policy",
        json!(if org.realm.allow_edit_history { "all" } else { "none" }),
    );
    a.put("realm_date_created", json!(org.realm.date_created));
    // -1: messages are kept for ever.
    a.put("realm_message_retention_days", json!(-1));
    a.put("server_presence_ping_interval_seconds", json!(super::users::PING_INTERVAL));
    a.put("server_presence_offline_threshold_seconds", json!(super::users::OFFLINE_THRESHOLD));
    a.put("server_typing_started_wait_period_milliseconds", json!(10000));
    a.put("server_typing_stopped_wait_period_milliseconds", json!(5000));
    a.put("server_typing_started_expiry_period_milliseconds", json!(15000));
    a.put("max_file_upload_size_mib", json!(crate::org::MAX_UPLOAD_MIB));
    a.put("max_stream_name_length", json!(60));
    a.put("max_stream_description_length", json!(1024));
}

/// The user themself and everyone else (`realm_user`).
fn own_and_others(a: &mut Answer, org: &Org, me: &crate::org::UserRec) {
    let uid = me.id;
    a.put("user_id", json!(uid));
    a.put("email", json!(me.email));
    a.put("full_name", json!(me.full_name));
    a.put("is_admin", json!(me.is_admin()));
    a.put("is_owner", json!(me.role == Role::Owner));
    a.put("is_moderator", json!(me.role <= Role::Moderator));
    a.put("is_guest", json!(me.role == Role::Guest));
    // No `role` here: the reference says the user's role by these flags only.
    // The reference server strips `is_active` here (`post_process_state`): which list a
    // user is in says it.
    let listed = |u: &crate::org::UserRec| {
        let mut j = org.user_json(u);
        if let Some(o) = j.as_object_mut() {
            o.remove("is_active");
        }
        j
    };
    let active: Vec<Value> =
        org.users.values().filter(|u| u.is_active && !u.is_system_bot).map(listed).collect();
    let inactive: Vec<Value> = org.users.values().filter(|u| !u.is_active).map(listed).collect();
    let system: Vec<Value> = org.users.values().filter(|u| u.is_system_bot).map(listed).collect();
    a.put("realm_users", json!(active));
    a.put("realm_non_active_users", json!(inactive));
    a.put("cross_realm_bots", json!(system));
}

/// The user's channels, messages' state, presence and topics.
fn channels_and_messages(a: &mut Answer, org: &Org, uid: i64, include: &str, empty_topic: bool, slim: bool) {
    if a.wants("subscription") {
        let subs: Vec<Value> = org
            .channels
            .values()
            .filter_map(|c| c.subs.get(&uid).map(|sub| org.subscription_json(c, sub, include)))
            .collect();
        let never: Vec<Value> = org
            .channels
            .values()
            .filter(|c| !c.subs.contains_key(&uid) && org.can_access_channel(uid, c.id))
            .map(|c| org.channel_json(c))
            .collect();
        a.put("subscriptions", json!(subs));
        a.put("unsubscribed", json!([]));
        a.put("never_subscribed", json!(never));
    }
    if a.wants("message") {
        // The user's newest message (`max_message_id_for_user`: of their UserMessage rows), not
        // the organization's: a client joins its first page to the queue by it.
        let newest = org.user_msgs.get(&uid).and_then(|m| m.keys().next_back().copied());
        a.put("max_message_id", json!(newest.unwrap_or(-1)));
    }
    if a.wants("message") || a.wants("update_message_flags") {
        a.put("unread_msgs", org.unread_msgs(uid, empty_topic));
    }
    if a.wants("starred_messages") || a.wants("update_message_flags") {
        let starred: Vec<i64> = org
            .user_msgs
            .get(&uid)
            .map(|m| m.iter().filter(|(_, f)| f.starred).map(|(id, _)| *id).collect())
            .unwrap_or_default();
        a.put("starred_messages", json!(starred));
    }
    if a.wants("presence") {
        let entries = org.visible_presence(None, 14);
        // Modern (by user ID) only when asked for with `slim_presence`; else the legacy format
        // by email, as the reference server answers.
        a.put("presences", org.presence_json(&entries, slim));
        if org.settings.feature_level >= crate::levels::PRESENCE_LAST_UPDATE_ID {
            a.put("presence_last_update_id", json!(org.max_presence_id()));
        }
        a.put("server_timestamp", json!(org.now_f64()));
    }
    // `user_topics` is new at level 170; older servers only list muted topics.
    if a.wants("user_topic") && org.settings.feature_level >= 170 {
        let list: Vec<Value> = org
            .user_topics
            .iter()
            .filter(|((u, _, _), _)| *u == uid)
            .map(|((_, c, _), (t, p, ts))| {
                json!({"stream_id": c, "topic_name": org.topic_out(t, empty_topic), "visibility_policy": p, "last_updated": ts})
            })
            .collect();
        a.put("user_topics", json!(list));
    }
}

/// What is the user's own: muted users, alert words, statuses, drafts, settings, snippets,
/// reminders, views, groups and fields.
fn personal(a: &mut Answer, org: &Org, me: &crate::org::UserRec, settings_object: bool) {
    let uid = me.id;
    if a.wants("muted_users") {
        a.put("muted_users", super::me::muted_users_json(org, uid));
    }
    if a.wants("alert_words") {
        a.put("alert_words", json!(org.alert_words.get(&uid).cloned().unwrap_or_default()));
    }
    if a.wants("muted_topics") {
        a.put("muted_topics", super::subs::muted_topics_json(org, uid));
    }
    if a.wants("user_status") {
        let mut m = Map::new();
        for u in org.users.values().filter(|u| u.is_active) {
            let st = super::users::status_json(u);
            if st.as_object().is_some_and(|o| !o.is_empty()) {
                m.insert(u.id.to_string(), st);
            }
        }
        a.put("user_status", Value::Object(m));
    }
    if a.wants("realm_emoji") {
        a.put("realm_emoji", org.realm_emoji_json());
    }
    if a.wants("scheduled_messages") {
        a.put("scheduled_messages", json!(org.scheduled_list_json(uid)));
    }
    if a.wants("drafts") {
        // Empty when synchronization is off: turning it off deleted them.
        let mut drafts = org.drafts_json(uid);
        drafts.truncate(super::drafts::MAX_DRAFTS_IN_REGISTER);
        a.put("drafts", json!(drafts));
    }
    if a.wants("user_settings")
        || a.wants("update_display_settings")
        || a.wants("update_global_notifications")
    {
        let mut settings = super::settings::of_user(org, uid);
        settings.insert("enable_drafts_synchronization".into(), json!(org.drafts_sync_enabled(uid)));
        settings.insert("presence_enabled".into(), json!(me.presence_enabled));
        settings.insert("timezone".into(), json!(me.timezone));
        // Clients without the `user_settings_object` capability read them at the top level:
        // the reference's frozen legacy lists only, never a setting newer than the object.
        if !settings_object {
            for (k, v) in
                settings.iter().filter(|(k, _)| super::settings::LEGACY_TOP_LEVEL.contains(&k.as_str()))
            {
                a.put(k, v.clone());
            }
        }
        if a.wants("user_settings") {
            a.put("user_settings", Value::Object(settings));
        }
    }
    if a.wants("saved_snippets") && org.settings.feature_level >= crate::levels::SAVED_SNIPPETS {
        a.put("saved_snippets", json!(super::daily::snippets_of(org, uid)));
    }
    if a.wants("reminders") && org.settings.feature_level >= crate::levels::REMINDERS_IN_REGISTER {
        a.put("reminders", json!(super::daily::reminders_of(org, uid)));
    }
    if a.wants("recent_private_conversations") {
        a.put("recent_private_conversations", org.recent_dms_json(uid));
    }
    if a.wants("navigation_views") {
        a.put("navigation_views", nav_views_json(org, uid));
    }
    if a.wants("realm_playgrounds") {
        a.put("realm_playgrounds", super::users::playgrounds_json(org));
    }
    if a.wants("realm_user_groups") {
        let list: Vec<Value> = org.groups.values().map(super::users::group_json).collect();
        a.put("realm_user_groups", json!(list));
    }
    if a.wants("custom_profile_fields") {
        a.put("custom_profile_fields", org.profile_fields_json());
        a.put("custom_profile_field_types", super::users::profile_field_types());
    }
    if a.wants("channel_folders") {
        a.put("channel_folders", json!(super::org_admin::folders_json(org, true)));
    }
}

/// Register's `idle_queue_timeout` (level 481): seconds, or `mobile` (12 hours), at most a week
/// (the reference server's `MOBILE_EVENT_QUEUE_TIMEOUT_SECS`, `MAX_QUEUE_TIMEOUT_SECS`).
fn idle_queue_timeout(raw: Option<String>) -> Result<Option<std::time::Duration>, ApiErr> {
    const MOBILE: u64 = 12 * 3600;
    const MAX: u64 = 7 * 24 * 3600;
    let Some(raw) = raw else { return Ok(None) };
    let secs = match raw.trim() {
        "mobile" | "\"mobile\"" => MOBILE,
        n => n
            .parse::<u64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| ApiErr::bad("idle_queue_timeout is not a positive integer or \"mobile\""))?,
    };
    Ok(Some(std::time::Duration::from_secs(secs.min(MAX))))
}

fn nav_views_json(org: &Org, uid: i64) -> Value {
    json!(
        org.nav_views
            .get(&uid)
            .map(|v| v
                .iter()
                .map(|x| json!({"fragment": x.fragment, "is_pinned": x.is_pinned, "name": x.name}))
                .collect::<Vec<_>>())
            .unwrap_or_default()
    )
}

fn bad_queue(queue_id: &str) -> ApiErr {
    ApiErr::new(StatusCode::BAD_REQUEST, "BAD_EVENT_QUEUE_ID", format!("Bad event queue ID: {queue_id}"))
        .with("queue_id", queue_id)
}

/// Clears a queue's `polling` mark when a long-poll ends, also when the client hangs up and
/// the handler future is dropped mid-wait: a queue left marked would never expire.
struct PollGuard {
    shared: Arc<Shared>,
    queue_id: String,
}

impl Drop for PollGuard {
    fn drop(&mut self) {
        let mut org = self.shared.lock();
        if let Some(q) = org.queues.map.get_mut(&self.queue_id) {
            q.polling = false;
            q.last_access = Instant::now();
        }
    }
}

/// `GET /events`: long-poll.
pub async fn get_events(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let queue_id = p.str("queue_id")?;
    let last_event_id = p.opt_i64("last_event_id")?.unwrap_or(-1);
    let dont_block = p.bool_or("dont_block", false)?;
    let deadline = tokio::time::Instant::now() + s.heartbeat;
    // Declared before the lock guards below, so it is dropped after them (no self-deadlock).
    let mut waiting: Option<PollGuard> = None;
    loop {
        let notify = {
            let mut org = s.lock();
            org.queues.gc();
            let q = org
                .queues
                .map
                .get_mut(&queue_id)
                .filter(|q| q.user_id == req.user_id)
                .ok_or_else(|| bad_queue(&queue_id))?;
            q.ack(last_event_id);
            q.last_access = Instant::now();
            if !q.events.is_empty() || dont_block {
                let events: Vec<Value> = q.events.iter().map(|(_, e)| e.clone()).collect();
                return Ok(reply(p, success(json!({"events": events, "queue_id": queue_id}))));
            }
            q.polling = true;
            q.notify.clone()
        };
        waiting.get_or_insert_with(|| PollGuard { shared: s.clone(), queue_id: queue_id.clone() });
        let woke = tokio::time::timeout_at(deadline, notify.notified()).await.is_ok();
        if !woke {
            s.lock().queues.push_to(&queue_id, json!({"type": "heartbeat"}));
        }
    }
}

/// `DELETE /events`
pub async fn delete_queue(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let queue_id = req.p.str("queue_id")?;
    let mut org = s.lock();
    match org.queues.map.get(&queue_id) {
        Some(q) if q.user_id == req.user_id => {
            org.queues.remove_where(|q| q.id == queue_id);
            Ok(reply(&req.p, ok()))
        }
        _ => Err(bad_queue(&queue_id)),
    }
}

/// `POST /demo/expire_queues` (demo server only): delete the caller's event queues, or one of
/// them (`queue_id`), as an expired or restarted server would. For fault-injection tests.
pub async fn expire_queues(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let only = req.p.opt_str("queue_id");
    let mut org = s.lock();
    let expired =
        org.queues.remove_where(|q| q.user_id == req.user_id && only.as_ref().is_none_or(|o| *o == q.id));
    Ok(reply(&req.p, success(json!({"expired": expired}))))
}

/// `GET /navigation_views`
pub async fn nav_views(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    Ok(reply(&req.p, success(json!({"navigation_views": nav_views_json(&org, req.user_id)}))))
}

/// `PATCH /navigation_views/{fragment}`
pub async fn update_nav_view(State(s): State<Arc<Shared>>, Path(fragment): Path<String>, req: Req) -> Res {
    let p = &req.p;
    let is_pinned = p.opt_bool("is_pinned")?;
    let name = p.opt_str("name");
    if is_pinned.is_none() && name.is_none() {
        return Err(ApiErr::bad("Nothing to change: give is_pinned or name"));
    }
    let mut org = s.lock();
    let views = org.nav_views.entry(req.user_id).or_default();
    let v = views
        .iter_mut()
        .find(|v| v.fragment == fragment)
        .ok_or_else(|| ApiErr::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Navigation view does not exist."))?;
    if v.builtin && name.is_some() {
        return Err(ApiErr::bad("Built-in views cannot have a custom name."));
    }
    if let Some(n) = &name {
        if n.trim().is_empty() {
            return Err(ApiErr::bad("Name must not be empty"));
        }
        v.name = Some(n.trim().to_owned());
    }
    if let Some(pin) = is_pinned {
        v.is_pinned = pin;
    }
    let mut data = Map::new();
    if let Some(pin) = is_pinned {
        data.insert("is_pinned".into(), json!(pin));
    }
    if let Some(n) = name {
        data.insert("name".into(), json!(n.trim()));
    }
    let ev = json!({"type": "navigation_view", "op": "update", "fragment": fragment, "data": data});
    org.queues.push(&[req.user_id], &ev);
    Ok(reply(p, ok()))
}

/// `PATCH /realm`: the organization settings the contract's rules depend on.
pub async fn update_realm(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let moderation = p.opt_i64("moderation_request_channel_id")?;
    let allow_history = p.opt_bool("allow_edit_history")?;
    let history_policy = p.opt_str("message_edit_history_visibility_policy");
    let name = p.opt_str("name");
    let description = p.opt_str("description");
    let mut org = s.lock();
    if !org.user(req.user_id)?.is_admin() {
        return Err(ApiErr::admin_required());
    }
    if description.as_ref().is_some_and(|d| d.chars().count() > 1000) {
        return Err(ApiErr::bad("description is too long (limit: 1000 characters)"));
    }
    // A refusal below leaves the organization as it was.
    let before = org.realm.clone();
    let mut changes: Vec<(&str, Value)> = Vec::new();
    if let Some(id) = moderation {
        if id == -1 {
            org.realm.moderation_request_channel_id = None;
        } else {
            let c = org.channels.get(&id).ok_or_else(|| ApiErr::bad("Invalid channel ID"))?;
            if !c.invite_only {
                return Err(ApiErr::bad("Moderation request channel must be private."));
            }
            org.realm.moderation_request_channel_id = Some(id);
        }
        changes.push(("moderation_request_channel_id", json!(id)));
    }
    let allow = match history_policy.as_deref() {
        Some("all") | Some("moves") => Some(true),
        Some("none") => Some(false),
        Some(other) => {
            return Err(ApiErr::bad(format!("Invalid message_edit_history_visibility_policy '{other}'")));
        }
        None => allow_history,
    };
    if let Some(a) = allow {
        org.realm.allow_edit_history = a;
        changes.push(("allow_edit_history", json!(a)));
    }
    if let Some(n) = name {
        if n.trim().is_empty() {
            return Err(ApiErr::bad("Organization name must not be empty"));
        }
        org.realm.name = n.clone();
        changes.push(("name", json!(n)));
    }
    // The rules for messages (`org/rules.rs`), checked whole before they change.
    let rule_events = match org.patch_rules(p) {
        Ok(events) => events,
        Err(e) => {
            org.realm = before;
            return Err(e);
        }
    };
    let everyone: Vec<i64> = org.users.keys().copied().collect();
    for ev in &rule_events {
        org.queues.push(&everyone, ev);
    }
    if let Some(d) = description {
        org.realm.description = Some(d.clone());
        let rendered = crate::markdown::render(&d, &*org).html;
        let ev = description_event(org.settings.feature_level, &d, &rendered);
        org.queues.push(&everyone, &ev);
    } else if changes.is_empty() && rule_events.is_empty() {
        return Err(ApiErr::bad("No setting to change"));
    }
    for (prop, value) in changes {
        org.queues
            .push(&everyone, &json!({"type": "realm", "op": "update", "property": prop, "value": value}));
    }
    Ok(reply(p, ok()))
}

/// The event of a changed organization description, as a server of `level` sends it: from 464
/// a `realm/update_dict` with its rendering; 462–463 a `realm/update` with it; before, without.
fn description_event(level: i64, description: &str, rendered: &str) -> Value {
    use crate::levels::{DESCRIPTION_UPDATE_DICT, RENDERED_REALM_DESCRIPTION};
    if level >= DESCRIPTION_UPDATE_DICT {
        json!({"type": "realm", "op": "update_dict", "property": "default",
               "data": {"description": description, "rendered_description": rendered}})
    } else {
        let mut ev =
            json!({"type": "realm", "op": "update", "property": "description", "value": description});
        if level >= RENDERED_REALM_DESCRIPTION {
            ev["rendered_description"] = json!(rendered);
        }
        ev
    }
}

/// `GET /user_uploads/{path}`: an uploaded file, for its uploader and for those who can read
/// a message it is tied to (`Org::can_read_upload`); anyone else gets what a missing file gets.
pub async fn upload(
    State(s): State<Arc<Shared>>,
    axum::extract::Path(path): axum::extract::Path<String>,
    req: crate::shared::Req,
) -> Result<axum::response::Response, ApiErr> {
    use axum::response::IntoResponse;
    let ctype = axum::http::header::CONTENT_TYPE;
    let org = s.lock();
    if org.can_read_upload(req.user_id, &path) {
        if let Some(f) = org.uploads.get(&path) {
            return Ok(([(ctype, f.content_type.clone())], f.bytes.clone()).into_response());
        }
        if let Some((_, body)) = crate::org::DEMO_UPLOADS.iter().find(|(p, _)| *p == path) {
            return Ok(([(ctype, "text/plain; charset=utf-8")], body.to_string()).into_response());
        }
    }
    Err(ApiErr::new(axum::http::StatusCode::NOT_FOUND, "NOT_FOUND", "File not found"))
}

/// A file name as the reference server stores it: letters, digits, `.`, `-` and `_`, spaces
/// as `-`, nothing that could climb out of its folder.
fn stored_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = base
        .chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .filter(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let clean = clean.trim_start_matches('.');
    if clean.is_empty() { "uploaded-file".into() } else { clean.chars().take(200).collect() }
}

/// `POST /user_uploads`: one file (multipart), kept in memory, in a folder of its own named at
/// random (as the reference server's): one upload's address says nothing of another's.
pub async fn upload_file(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let mut files = req.files;
    let file = match files.len() {
        0 => return Err(ApiErr::bad("You must specify a file to upload")),
        1 => files.remove(0),
        _ => return Err(ApiErr::bad("You may only upload one file at a time")),
    };
    let max = crate::org::MAX_UPLOAD_MIB;
    if file.bytes.len() > max << 20 {
        return Err(ApiErr::bad(format!(
            "File is larger than this server's configured maximum upload size ({max} MiB)."
        )));
    }
    let mut org = s.lock();
    if let Some(quota) = org.settings.upload_quota_mib
        && (org.upload_space_used() + file.bytes.len()) as u64 > quota << 20
    {
        return Err(ApiErr::new(
            axum::http::StatusCode::BAD_REQUEST,
            "REALM_UPLOAD_QUOTA",
            "Upload would exceed your organization's upload quota.",
        ));
    }
    let name = stored_name(&file.filename);
    let path = loop {
        let path = format!("2/{}/{name}", org.upload_folder());
        if !org.uploads.contains_key(&path) {
            break path;
        }
    };
    let (id, created) = (org.alloc(), org.now());
    let content_type = file.content_type.unwrap_or_else(|| "application/octet-stream".into());
    // A picture's size, from its header only (as Zulip keeps it for `data-original-dimensions`).
    let dimensions = image::ImageReader::new(std::io::Cursor::new(&file.bytes))
        .with_guessed_format()
        .ok()
        .and_then(|r| r.into_dimensions().ok());
    let upload = crate::org::StoredUpload {
        id,
        name: name.clone(),
        created,
        owner: req.user_id,
        content_type,
        bytes: file.bytes,
        dimensions,
        messages: Default::default(),
    };
    org.uploads.insert(path.clone(), upload);
    org.notify_attachment(&path, "add");
    let url = format!("/user_uploads/{path}");
    Ok(reply(&req.p, success(json!({"uri": url, "url": url, "filename": name}))))
}
