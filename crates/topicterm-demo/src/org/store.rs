//! The message store: who receives a message, storing one (with its per-user flags), and
//! applying an edit or move with its history.

use super::records::{EditRec, Flags, MessageRec, Recip};
use super::{Org, strip_resolved};
use crate::markdown;
use std::collections::BTreeSet;

/// Whether `content` holds one of the words, in any case, as a word of its own (not inside a
/// longer run of letters, digits or underscores), as the reference server matches alert words.
pub fn has_alert_word(content: &str, words: &[String]) -> bool {
    let text = content.to_lowercase();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    words.iter().map(|w| w.to_lowercase()).filter(|w| !w.is_empty()).any(|w| {
        text.match_indices(w.as_str()).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + w.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
    })
}

impl Org {
    /// Users who receive a message: subscribers, or DM participants.
    pub fn recipients(&self, recip: &Recip) -> Vec<i64> {
        match recip {
            Recip::Channel { id, .. } => {
                self.channels.get(id).map(|c| c.subs.keys().copied().collect()).unwrap_or_default()
            }
            Recip::Dm { users } => users.clone(),
        }
    }

    pub fn recipient_id(&mut self, recip: &Recip) -> i64 {
        match recip {
            Recip::Channel { id, .. } => 100_000 + id,
            Recip::Dm { users } => {
                let next = 200_000 + self.dm_recipient_ids.len() as i64;
                *self.dm_recipient_ids.entry(users.clone()).or_insert(next)
            }
        }
    }

    /// Store a message (no checks, no events); the sender has read it.
    pub fn insert_message(
        &mut self,
        sender: i64,
        recip: Recip,
        content: &str,
        ts: i64,
        client: &str,
        read_by_sender: Option<bool>,
    ) -> i64 {
        let id = self.alloc_message_id();
        self.message_generation += 1;
        let rendered = markdown::render(content, self);
        let mut wildcard_users = Vec::new();
        if rendered.wildcard_mention {
            wildcard_users = self.recipients(&recip);
        }
        let mut mentioned: BTreeSet<i64> = rendered.mentioned_user_ids.iter().copied().collect();
        for g in &rendered.mentioned_group_ids {
            for u in self.users.keys() {
                if self.in_group(*g, *u) {
                    mentioned.insert(*u);
                }
            }
        }
        let is_me = content.starts_with("/me ");
        self.recipient_id(&recip);
        for uid in self.recipients(&recip) {
            // A muted sender's messages arrive read, as on the reference server.
            let muted = self.muted_users.get(&uid).is_some_and(|m| m.contains_key(&sender));
            let flags = Flags {
                read: (uid == sender && read_by_sender.unwrap_or(true)) || (uid != sender && muted),
                starred: false,
                mentioned: mentioned.contains(&uid),
                wildcard_mentioned: wildcard_users.contains(&uid),
                collapsed: false,
                has_alert_word: uid != sender
                    && self.alert_words.get(&uid).is_some_and(|w| has_alert_word(content, w)),
                hide_link_previews: false,
            };
            self.user_msgs.entry(uid).or_default().insert(id, flags);
        }
        self.messages.insert(
            id,
            MessageRec {
                id,
                sender_id: sender,
                recip,
                content: content.to_owned(),
                rendered,
                timestamp: ts,
                client: client.to_owned(),
                is_me,
                reactions: Vec::new(),
                submessages: Vec::new(),
                edits: Vec::new(),
                last_edit_ts: None,
                last_moved_ts: None,
            },
        );
        // `/poll` and `/todo` messages are widgets: their first submessage says so.
        if let Some(widget) = super::widgets::from_content(content) {
            self.add_submessage(id, sender, "widget", &widget.to_string());
        }
        id
    }

    /// Store a submessage; its ID (submessages have their own sequence).
    pub fn add_submessage(&mut self, message_id: i64, sender: i64, msg_type: &str, content: &str) -> i64 {
        self.submessage_seq += 1;
        let id = self.submessage_seq;
        if let Some(m) = self.messages.get_mut(&message_id) {
            m.submessages.push(super::records::SubmessageRec {
                id,
                message_id,
                sender_id: sender,
                msg_type: msg_type.to_owned(),
                content: content.to_owned(),
            });
        }
        id
    }

    /// Change one message's content, topic and/or channel, recording edit history.
    #[allow(clippy::too_many_arguments)]
    pub fn apply_edit(
        &mut self,
        id: i64,
        by: i64,
        ts: i64,
        content: Option<&str>,
        topic: Option<&str>,
        channel: Option<i64>,
        _notify: bool,
    ) {
        let rendered = content.map(|c| markdown::render(c, self));
        self.message_generation += 1;
        let new_subs: Option<Vec<i64>> = channel
            .map(|c| self.channels.get(&c).map(|ch| ch.subs.keys().copied().collect()).unwrap_or_default());
        let Some(msg) = self.messages.get_mut(&id) else { return };
        let mut e = EditRec { user_id: by, timestamp: ts, ..Default::default() };
        if let (Some(c), Some(r)) = (content, rendered)
            && c != msg.content
        {
            e.prev_content = Some(std::mem::replace(&mut msg.content, c.to_owned()));
            e.prev_rendered = Some(std::mem::replace(&mut msg.rendered.html, r.html.clone()));
            e.content = Some(c.to_owned());
            e.rendered = Some(r.html.clone());
            let html = r.html.clone();
            msg.rendered = r;
            msg.rendered.html = html;
            msg.is_me = c.starts_with("/me ");
            msg.last_edit_ts = Some(ts);
            // Alert words are matched again in the new text (never for the sender).
            let sender = msg.sender_id;
            let content = c.to_owned();
            for (uid, flags) in self.user_msgs.iter_mut() {
                if let Some(f) = flags.get_mut(&id) {
                    f.has_alert_word = *uid != sender
                        && self.alert_words.get(uid).is_some_and(|w| has_alert_word(&content, w));
                }
            }
        }
        let mut moved = false;
        if let Recip::Channel { id: cid, topic: t } = &mut msg.recip {
            if let Some(nt) = topic
                && nt != t
            {
                let old = std::mem::replace(t, nt.to_owned());
                // Resolving or unresolving alone is not a move.
                if strip_resolved(&old) != strip_resolved(nt) {
                    moved = true;
                }
                e.prev_topic = Some(old);
                e.topic = Some(nt.to_owned());
            }
            if let Some(nc) = channel
                && nc != *cid
            {
                e.prev_stream = Some(*cid);
                e.stream = Some(nc);
                *cid = nc;
                moved = true;
            }
        }
        if moved {
            msg.last_moved_ts = Some(ts);
        }
        let changed = e.content.is_some() || e.topic.is_some() || e.stream.is_some();
        if changed {
            msg.edits.push(e);
        }
        if let Some(subs) = new_subs {
            for uid in subs {
                self.user_msgs
                    .entry(uid)
                    .or_default()
                    .entry(id)
                    .or_insert(Flags { read: true, ..Default::default() });
            }
        }
    }

    /// The viewer's flags on a message (`read` + `historical` without a personal copy).
    pub fn flags_for(&self, viewer: i64, id: i64) -> Vec<&'static str> {
        match self.user_msgs.get(&viewer).and_then(|m| m.get(&id)) {
            Some(f) => f.names(),
            None => vec!["read", "historical"],
        }
    }
}
