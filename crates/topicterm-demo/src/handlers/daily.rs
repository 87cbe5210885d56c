//! What the web app does every day beyond sending: read receipts, rendering a draft, checking
//! messages against a narrow, saved snippets and reminders (delivered by the Notification Bot),
//! each with the reference server's permissions, errors and events.

use super::common::Res;
use super::narrow::{Narrow, highlight};
use crate::error::{ApiErr, ApiResult, ok, success};
use crate::levels;
use crate::markdown::escape_html;
use crate::org::{Org, Recip, ReminderRec, SnippetRec};
use crate::params::path_id;
use crate::shared::{Req, Shared, reply};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

fn not_found(what: &str) -> ApiErr {
    ApiErr::new(StatusCode::NOT_FOUND, "BAD_REQUEST", format!("{what} does not exist"))
}

fn readable(org: &Org, user: i64, id: i64) -> ApiResult<()> {
    match org.messages.get(&id) {
        Some(m) if org.can_read(user, m) => Ok(()),
        _ => Err(ApiErr::bad("Invalid message(s)")),
    }
}

/// `GET /messages/{id}/read_receipts`: who has read it, never its sender, nor people who do not
/// share read receipts, nor anyone muted by or muting the asker (zerver/views/read_receipts.py);
/// refused where the organization turned read receipts off (it does not here).
pub async fn read_receipts(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("message_id", &id)?;
    let org = s.lock();
    readable(&org, req.user_id, id)?;
    let sender = org.messages[&id].sender_id;
    let user_ids: Vec<i64> = org
        .users
        .values()
        // Only those who received it and marked it read: no row, no receipt (a public channel's
        // history is "read" for anyone who looks, which says nothing).
        .filter(|u| u.is_active && u.id != sender)
        .filter(|u| org.user_msgs.get(&u.id).and_then(|m| m.get(&id)).is_some_and(|f| f.read))
        .filter(|u| super::settings::of_user(&org, u.id).get("send_read_receipts") != Some(&json!(false)))
        .filter(|u| {
            let mutes = |a: i64, b: i64| org.muted_users.get(&a).is_some_and(|m| m.contains_key(&b));
            !mutes(u.id, req.user_id) && !mutes(req.user_id, u.id)
        })
        .map(|u| u.id)
        .collect();
    Ok(reply(&req.p, success(json!({"user_ids": user_ids}))))
}

/// `POST /messages/render`: the HTML a message with this Markdown would have.
pub async fn render(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let content = req.p.str("content")?;
    if content.trim().is_empty() {
        return Err(ApiErr::bad("Message must not be empty"));
    }
    let org = s.lock();
    let html = crate::markdown::render(&content, &*org).html;
    Ok(reply(&req.p, success(json!({"rendered": html}))))
}

/// `GET /messages/matches_narrow`: which of these messages a narrow holds, with what matched.
pub async fn matches_narrow(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let ids: Vec<i64> = p.json("msg_ids")?;
    let raw: Value = p.json("narrow")?;
    let org = s.lock();
    let narrow = Narrow::parse(&org, req.user_id, Some(&raw))?;
    let words = narrow.search_words().unwrap_or_default();
    let mut found = serde_json::Map::new();
    for id in ids {
        let Some(m) = org.messages.get(&id).filter(|m| org.can_read(req.user_id, m)) else { continue };
        if narrow.matches(&org, m) {
            found.insert(
                id.to_string(),
                json!({
                    "match_content": highlight(&m.rendered.html, &words),
                    "match_subject": highlight(&escape_html(m.topic()), &words),
                }),
            );
        }
    }
    Ok(reply(p, success(json!({"messages": found}))))
}

fn snippet_json(s: &SnippetRec) -> Value {
    json!({"id": s.id, "title": s.title, "content": s.content, "date_created": s.date_created})
}

/// One user's saved snippets (also in register).
pub fn snippets_of(org: &Org, user: i64) -> Vec<Value> {
    org.snippets.values().filter(|x| x.owner == user).map(snippet_json).collect()
}

/// Saved snippets came with feature level 297: an older server has no such endpoint.
fn has_snippets(org: &Org) -> ApiResult<()> {
    if org.settings.feature_level < crate::levels::SAVED_SNIPPETS {
        return Err(ApiErr::no_endpoint());
    }
    Ok(())
}

/// `GET /saved_snippets`.
pub async fn snippets(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    has_snippets(&org)?;
    let list = snippets_of(&org, req.user_id);
    Ok(reply(&req.p, success(json!({"saved_snippets": list}))))
}

/// A snippet's title or text as the reference server's typed endpoint takes it: stripped of
/// the whitespace around it, then neither blank nor longer than `max` code points (its errors
/// name the parameter, as pydantic's `StringConstraints` failures do).
fn snippet_field(name: &str, value: &str, max: usize) -> ApiResult<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(ApiErr::bad(format!("{name} cannot be blank")));
    }
    if v.chars().count() > max {
        return Err(ApiErr::bad(format!("{name} is too long (limit: {max} characters)")));
    }
    Ok(v.to_owned())
}

/// The reference server's `SavedSnippet.MAX_TITLE_LENGTH`.
const SNIPPET_TITLE_MAX: usize = 60;

/// `POST /saved_snippets`: a `saved_snippets` add event to the owner's clients.
pub async fn create_snippet(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let (title, content) = (req.p.str("title")?, req.p.str("content")?);
    let mut org = s.lock();
    has_snippets(&org)?;
    let title = snippet_field("title", &title, SNIPPET_TITLE_MAX)?;
    let content = snippet_field("content", &content, org.realm.max_message_length)?;
    let id = org.alloc();
    let rec = SnippetRec { id, owner: req.user_id, title, content, date_created: org.now() };
    let ev = json!({"type": "saved_snippets", "op": "add", "saved_snippet": snippet_json(&rec)});
    org.snippets.insert(id, rec);
    org.queues.push(&[req.user_id], &ev);
    Ok(reply(&req.p, success(json!({"saved_snippet_id": id}))))
}

/// `PATCH /saved_snippets/{id}` (feature level 368): a new title, text or both; the owner's
/// other clients hear an `update` event (zerver/views/saved_snippets.py).
pub async fn edit_snippet(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("saved_snippet_id", &id)?;
    let (title, content) = (req.p.opt_str("title"), req.p.opt_str("content"));
    let mut org = s.lock();
    if org.settings.feature_level < levels::SAVED_SNIPPET_EDIT {
        return Err(ApiErr::no_endpoint());
    }
    if org.snippets.get(&id).is_none_or(|x| x.owner != req.user_id) {
        return Err(not_found("Saved snippet"));
    }
    if title.is_none() && content.is_none() {
        return Err(ApiErr::bad("At least one of title or content must be provided."));
    }
    let title = title.map(|t| snippet_field("title", &t, SNIPPET_TITLE_MAX)).transpose()?;
    let max = org.realm.max_message_length;
    let content = content.map(|c| snippet_field("content", &c, max)).transpose()?;
    let Some(rec) = org.snippets.get_mut(&id) else { return Err(not_found("Saved snippet")) };
    if let Some(t) = title {
        rec.title = t;
    }
    if let Some(c) = content {
        rec.content = c;
    }
    let ev = json!({"type": "saved_snippets", "op": "update", "saved_snippet": snippet_json(rec)});
    org.queues.push(&[req.user_id], &ev);
    Ok(reply(&req.p, ok()))
}

/// `DELETE /saved_snippets/{id}`.
pub async fn delete_snippet(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let id = path_id("saved_snippet_id", &id)?;
    let mut org = s.lock();
    has_snippets(&org)?;
    if org.snippets.get(&id).is_none_or(|x| x.owner != req.user_id) {
        return Err(not_found("Saved snippet"));
    }
    org.snippets.remove(&id);
    org.queues
        .push(&[req.user_id], &json!({"type": "saved_snippets", "op": "remove", "saved_snippet_id": id}));
    Ok(reply(&req.p, ok()))
}

/// The longest note a reminder takes (the reference server's `MAX_REMINDER_NOTE_LENGTH`).
const MAX_NOTE: usize = 1000;

fn mention(org: &Org, user: i64) -> String {
    let name = org.users.get(&user).map_or("Unknown user", |u| u.full_name.as_str());
    format!("@_**{name}|{user}**")
}

/// "A", "A and B", "A, B, and C", as the reference server lists mentions.
fn mentions(org: &Org, users: &[i64]) -> String {
    let all: Vec<String> = users.iter().map(|u| mention(org, *u)).collect();
    match all.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
        [] => String::new(),
    }
}

/// The reminder's text, as the Notification Bot sends it (`get_reminder_formatted_content`,
/// `zerver/lib/reminders.py`): what was asked, the note, who said what where, the message
/// quoted. Written when the reminder is set, as the reference server stores it.
fn reminder_content(org: &Org, message_id: i64, note: Option<&str>) -> String {
    let Some(m) = org.messages.get(&message_id) else { return String::new() };
    let what = if matches!(m.recip, Recip::Channel { .. }) { "message" } else { "direct message" };
    let mut text = match note {
        Some(note) => format!("You requested a reminder for the following {what}. Note:\n > {note}"),
        None => format!("You requested a reminder for the following {what}."),
    };
    text.push_str("\n\n");
    let who = mention(org, m.sender_id);
    let (url, link) = super::common::message_place(org, m);
    let place = match (&m.recip, link) {
        (Recip::Channel { .. }, Some(link)) => format!("in {link}"),
        (Recip::Dm { users }, _) => {
            let mut others: Vec<i64> = users.iter().copied().filter(|u| *u != m.sender_id).collect();
            if others.is_empty() {
                others.push(m.sender_id);
            }
            format!("to {}", mentions(org, &others))
        }
        _ => String::new(),
    };
    let widget =
        [("/poll", "poll"), ("/todo", "todo list")].into_iter().find(|(p, _)| m.content.starts_with(p));
    match widget {
        Some((_, widget)) => text.push_str(&format!("{who} [sent]({url}) a {widget} {place}.")),
        None => {
            // A fence longer than any run of backticks in the message.
            let longest = m.content.split(|c| c != '`').map(str::len).max().unwrap_or(0);
            let fence = "`".repeat(longest.max(2) + 1);
            text.push_str(&format!("{who} [said]({url}) {place}:\n{fence}quote\n{}\n{fence}", m.content));
        }
    }
    text
}

fn reminder_json(org: &Org, r: &ReminderRec) -> Value {
    let rendered = crate::markdown::render(&r.content, org).html;
    json!({
        "reminder_id": r.id, "type": "private", "to": [r.owner], "content": r.content,
        "rendered_content": rendered, "scheduled_delivery_timestamp": r.deliver_at, "failed": false,
        "reminder_target_message_id": r.message_id,
    })
}

/// `POST /reminders`: a reminder about a message the user can read, in the future; its note
/// from the level that keeps one (before, the server ignores it and says so).
pub async fn create_reminder(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let level = s.lock().settings.feature_level;
    if level < levels::REMINDERS {
        return Err(ApiErr::no_endpoint());
    }
    let message_id = p.i64("message_id")?;
    let at = p.i64("scheduled_delivery_timestamp")?;
    let note = if level >= levels::REMINDER_NOTE { p.opt_str("note") } else { None };
    // As `normalize_note_text`: trailing space and leading blank lines go.
    let note = note.map(|n| n.trim_end().trim_start_matches('\n').to_owned()).filter(|n| !n.is_empty());
    if note.as_ref().is_some_and(|n| n.chars().count() > MAX_NOTE) {
        return Err(ApiErr::bad(format!("Maximum reminder note length: {MAX_NOTE} characters")));
    }
    let mut org = s.lock();
    // As the reference server checks them: the time first, then the message.
    if at <= org.now() {
        return Err(ApiErr::bad("Scheduled delivery time must be in the future."));
    }
    readable(&org, req.user_id, message_id)?;
    let id = org.alloc();
    let content = reminder_content(&org, message_id, note.as_deref());
    let rec = ReminderRec { id, owner: req.user_id, message_id, content, deliver_at: at };
    let ev = json!({"type": "reminders", "op": "add", "reminders": [reminder_json(&org, &rec)]});
    org.reminders.insert(id, rec);
    org.queues.push(&[req.user_id], &ev);
    Ok(reply(p, success(json!({"reminder_id": id}))))
}

/// One user's undelivered reminders, soonest first (also in register).
pub fn reminders_of(org: &Org, user: i64) -> Vec<Value> {
    let mut list: Vec<&ReminderRec> = org.reminders.values().filter(|r| r.owner == user).collect();
    list.sort_by_key(|r| (r.deliver_at, r.id));
    list.into_iter().map(|r| reminder_json(org, r)).collect()
}

/// `GET /reminders`.
pub async fn reminders(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    if org.settings.feature_level < levels::REMINDERS {
        return Err(ApiErr::no_endpoint());
    }
    let list = reminders_of(&org, req.user_id);
    Ok(reply(&req.p, success(json!({"reminders": list}))))
}

/// `DELETE /reminders/{id}`.
pub async fn delete_reminder(State(s): State<Arc<Shared>>, Path(id): Path<String>, req: Req) -> Res {
    let mut org = s.lock();
    if org.settings.feature_level < levels::REMINDERS {
        return Err(ApiErr::no_endpoint());
    }
    let id = path_id("reminder_id", &id)?;
    if org.reminders.get(&id).is_none_or(|r| r.owner != req.user_id) {
        return Err(not_found("Reminder"));
    }
    org.reminders.remove(&id);
    org.queues.push(&[req.user_id], &json!({"type": "reminders", "op": "remove", "reminder_id": id}));
    Ok(reply(&req.p, ok()))
}

/// Deliver due reminders (the scheduler's tick): each a DM from the Notification Bot to its
/// owner, and a `reminders` remove event. True when any was delivered.
pub fn deliver_due_reminders(org: &mut Org, at: i64) -> bool {
    let due: Vec<ReminderRec> = org.reminders.values().filter(|r| r.deliver_at <= at).cloned().collect();
    for r in &due {
        org.reminders.remove(&r.id);
        let content = r.content.clone();
        let bot = org.notification_bot;
        let users = if bot == r.owner { vec![r.owner] } else { vec![bot.min(r.owner), bot.max(r.owner)] };
        if let Err(e) = org.send(bot, Recip::Dm { users }, &content, "Internal", None, Some(false)) {
            tracing::warn!("reminder {} not delivered: {}", r.id, e.msg);
        }
        org.queues.push(&[r.owner], &json!({"type": "reminders", "op": "remove", "reminder_id": r.id}));
    }
    !due.is_empty()
}
