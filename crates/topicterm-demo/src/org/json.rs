//! JSON views of the records, as the API returns them: messages (with edit history), users,
//! and `register`'s unread counts.

use super::Org;
use super::records::{EditRec, MessageRec, Recip, Role, UserRec};
use serde_json::{Value, json};
use std::collections::BTreeMap;

impl Org {
    /// Display form of a topic for a client that may not know the empty topic.
    pub fn topic_out(&self, topic: &str, allow_empty: bool) -> String {
        if topic.is_empty() && !allow_empty {
            self.realm.empty_topic_display_name.clone()
        } else {
            topic.to_owned()
        }
    }

    /// A message as the viewer sees it.
    pub fn message_json(
        &self,
        msg: &MessageRec,
        viewer: i64,
        apply_markdown: bool,
        allow_empty_topic: bool,
    ) -> Value {
        let sender = self.users.get(&msg.sender_id);
        let (kind, display_recipient, stream_id) = match &msg.recip {
            Recip::Channel { id, .. } => {
                let name = self.channels.get(id).map(|c| c.name.clone()).unwrap_or_default();
                ("stream", json!(name), Some(*id))
            }
            Recip::Dm { users } => {
                let list: Vec<Value> = users
                    .iter()
                    .filter_map(|u| self.users.get(u))
                    .map(|u| json!({"id": u.id, "email": u.email, "full_name": u.full_name, "is_mirror_dummy": false}))
                    .collect();
                ("private", json!(list), None)
            }
        };
        let recipient_id = match &msg.recip {
            Recip::Channel { id, .. } => 100_000 + id,
            Recip::Dm { users } => self.dm_recipient_ids.get(users).copied().unwrap_or(0),
        };
        let mut v = json!({
            "id": msg.id,
            "type": kind,
            "avatar_url": null,
            "client": msg.client,
            "content": if apply_markdown { &msg.rendered.html } else { &msg.content },
            "content_type": if apply_markdown { "text/html" } else { "text/x-markdown" },
            "display_recipient": display_recipient,
            "is_me_message": msg.is_me,
            "reactions": msg.reactions,
            "recipient_id": recipient_id,
            "sender_email": sender.map(|s| s.email.clone()).unwrap_or_default(),
            "sender_full_name": sender.map(|s| s.full_name.clone()).unwrap_or_default(),
            "sender_id": msg.sender_id,
            "sender_realm_str": self.realm.string_id,
            "subject": self.topic_out(msg.topic(), allow_empty_topic || kind == "private"),
            "submessages": msg.submessages,
            "timestamp": msg.timestamp,
            "topic_links": [],
            "flags": self.flags_for(viewer, msg.id),
        });
        if let Some(obj) = v.as_object_mut() {
            if let Some(sid) = stream_id {
                obj.insert("stream_id".into(), json!(sid));
            }
            if self.settings.feature_level < crate::levels::LAST_MOVED_TIMESTAMP {
                // An edit or a move, as an older server says it.
                if let Some(t) = msg.last_edit_ts.max(msg.last_moved_ts) {
                    obj.insert("last_edit_timestamp".into(), json!(t));
                }
            } else {
                if let Some(t) = msg.last_edit_ts {
                    obj.insert("last_edit_timestamp".into(), json!(t));
                }
                if let Some(t) = msg.last_moved_ts {
                    obj.insert("last_moved_timestamp".into(), json!(t));
                }
            }
            if !msg.edits.is_empty() && self.realm.allow_edit_history {
                let hist: Vec<Value> =
                    msg.edits.iter().rev().map(|e| self.edit_entry_json(e, allow_empty_topic)).collect();
                obj.insert("edit_history".into(), json!(hist));
            }
        }
        v
    }

    fn edit_entry_json(&self, e: &EditRec, allow_empty: bool) -> Value {
        let mut o = serde_json::Map::new();
        o.insert("user_id".into(), json!(e.user_id));
        o.insert("timestamp".into(), json!(e.timestamp));
        if let Some(p) = &e.prev_content {
            o.insert("prev_content".into(), json!(p));
            o.insert("prev_rendered_content".into(), json!(e.prev_rendered));
        }
        if let (Some(p), Some(s)) = (e.prev_stream, e.stream) {
            o.insert("prev_stream".into(), json!(p));
            o.insert("stream".into(), json!(s));
        }
        if let (Some(p), Some(t)) = (&e.prev_topic, &e.topic) {
            o.insert("prev_topic".into(), json!(self.topic_out(p, allow_empty)));
            o.insert("topic".into(), json!(self.topic_out(t, allow_empty)));
        }
        Value::Object(o)
    }

    /// Unread counts etc. for `register`'s `unread_msgs`.
    pub fn unread_msgs(&self, user_id: i64, allow_empty_topic: bool) -> Value {
        let mut streams: BTreeMap<(i64, String), Vec<i64>> = BTreeMap::new();
        let mut dms: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        let mut huddles: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let mut mentions = Vec::new();
        let mut count = 0;
        if let Some(ms) = self.user_msgs.get(&user_id) {
            for (id, f) in ms.iter().filter(|(_, f)| !f.read) {
                let Some(m) = self.messages.get(id) else { continue };
                count += 1;
                if f.mentioned || f.wildcard_mentioned {
                    mentions.push(*id);
                }
                match &m.recip {
                    Recip::Channel { id: cid, topic } => {
                        streams.entry((*cid, self.topic_out(topic, allow_empty_topic))).or_default().push(*id)
                    }
                    Recip::Dm { users } if users.len() <= 2 => {
                        let other = users.iter().copied().find(|u| *u != user_id).unwrap_or(user_id);
                        dms.entry(other).or_default().push(*id)
                    }
                    Recip::Dm { users } => huddles
                        .entry(users.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
                        .or_default()
                        .push(*id),
                }
            }
        }
        json!({
            "count": count,
            "pms": dms.iter().map(|(u, ids)| json!({"other_user_id": u, "sender_id": u, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "streams": streams.iter().map(|((c, t), ids)| json!({"stream_id": c, "topic": t, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "huddles": huddles.iter().map(|(k, ids)| json!({"user_ids_string": k, "unread_message_ids": ids})).collect::<Vec<_>>(),
            "mentions": mentions,
            "old_unreads_missing": false,
        })
    }

    pub fn user_json(&self, u: &UserRec) -> Value {
        use crate::levels::{IMPORTED_STUB, USER_IS_DELETED};
        let mut user = json!({
            "user_id": u.id,
            "email": u.email,
            "delivery_email": null,
            "full_name": u.full_name,
            "is_active": u.is_active,
            "is_bot": u.is_bot(),
            "is_admin": u.is_admin(),
            "is_owner": u.role == Role::Owner,
            "is_guest": u.role == Role::Guest,
            "role": u.role as i64,
            "timezone": u.timezone,
            "avatar_url": if u.avatar_removed { json!(null) } else { json!(format!("/avatar/{}", u.id)) },
            "avatar_version": 1,
            "date_joined": chrono::DateTime::from_timestamp(u.date_joined, 0).map(|d| d.to_rfc3339()).unwrap_or_default(),
        });
        // As the reference's `format_user_row`: a bot's type and owner, on bots only, and the
        // custom profile fields on people only. Whether someone shares their presence is not
        // said here: an invisible user has no presence.
        if u.is_bot() {
            user["bot_type"] = json!(u.bot_type);
            user["bot_owner_id"] = json!(u.bot_owner);
        } else {
            user["profile_data"] = self.profile_data_json(u);
        }
        if self.settings.feature_level >= IMPORTED_STUB {
            user["is_imported_stub"] = json!(false);
        }
        if self.settings.feature_level >= USER_IS_DELETED {
            user["is_deleted"] = json!(false);
        }
        user
    }

    /// The custom emoji by ID (register's `realm_emoji`, `GET /realm/emoji`).
    pub fn realm_emoji_json(&self) -> Value {
        let mut m = serde_json::Map::new();
        for id in self.realm_emoji.keys() {
            m.insert(id.to_string(), self.one_emoji_json(*id));
        }
        Value::Object(m)
    }

    /// One custom emoji, as listed and as a `realm_emoji` `add` event carries it.
    pub fn one_emoji_json(&self, id: i64) -> Value {
        let (name, author) = self.realm_emoji.get(&id).cloned().unwrap_or_default();
        json!({"id": id.to_string(), "name": name, "source_url": format!("/user_avatars/1/emoji/images/{id}.png"),
               "still_url": null, "deactivated": self.deactivated_emoji.contains(&id), "author_id": author})
    }

    /// The user's direct-message conversations among their newest 1,000 direct messages
    /// (register's `recent_private_conversations`): the others in each, sorted, and the
    /// newest message's ID; newest first.
    pub fn recent_dms_json(&self, uid: i64) -> Value {
        let mut newest: std::collections::HashMap<Vec<i64>, i64> = std::collections::HashMap::new();
        let mine = self.messages.values().rev().filter_map(|m| match &m.recip {
            Recip::Dm { users } if users.contains(&uid) => Some((users, m.id)),
            _ => None,
        });
        for (users, id) in mine.take(1000) {
            let others: Vec<i64> = users.iter().copied().filter(|u| *u != uid).collect();
            newest.entry(others).or_insert(id);
        }
        let mut list: Vec<(Vec<i64>, i64)> = newest.into_iter().collect();
        list.sort_by_key(|(_, id)| std::cmp::Reverse(*id));
        json!(list.iter().map(|(u, id)| json!({"user_ids": u, "max_message_id": id})).collect::<Vec<_>>())
    }

    /// A user's custom profile field values by field ID: `value`, plus `rendered_value` for
    /// the Markdown (long text) fields. Bots have none.
    pub fn profile_data_json(&self, u: &UserRec) -> Value {
        let mut out = serde_json::Map::new();
        if u.is_bot() {
            return Value::Object(out);
        }
        for f in self.profile_fields.values() {
            let Some(v) = self.profile_data.get(&(u.id, f.id)) else { continue };
            let mut entry = json!({"value": v});
            if f.field_type == 2 {
                entry["rendered_value"] = json!(crate::markdown::render(v, self).html);
            }
            out.insert(f.id.to_string(), entry);
        }
        Value::Object(out)
    }

    /// The organization's custom profile fields, in display order (register's shape).
    pub fn profile_fields_json(&self) -> Value {
        let mut fields: Vec<&super::records::ProfileFieldRec> = self.profile_fields.values().collect();
        fields.sort_by_key(|f| f.order);
        json!(
            fields
                .iter()
                .map(|f| {
                    let mut field = json!({
                        "id": f.id,
                        "type": f.field_type,
                        "order": f.order,
                        "name": f.name,
                        "hint": f.hint,
                        "field_data": f.field_data,
                        "display_in_profile_summary": f.display_in_profile_summary,
                        "required": f.required,
                        "editable_by_user": f.editable_by_user,
                    });
                    if self.settings.feature_level >= crate::levels::USE_FOR_USER_MATCHING {
                        field["use_for_user_matching"] = json!(f.use_for_user_matching);
                    }
                    field
                })
                .collect::<Vec<_>>()
        )
    }
}
