//! Reminders about messages (Zulip 11.0): set one, list them, delete one. The server delivers
//! each as a direct message from the Notification Bot and sends `reminders` events as they come
//! and go.

use super::error::Result;
use super::levels::REMINDER_NOTE;
use super::models::{Ack, MessageId, UserId};
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};

/// An undelivered reminder, as listed (`GET /reminders`, register's `reminders`, events).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Reminder {
    pub reminder_id: i64,
    /// Who it goes to: the user who set it.
    #[serde(default)]
    pub to: Vec<UserId>,
    /// The Notification Bot's text (Markdown): what it says, the note, the message quoted.
    #[serde(default)]
    pub content: String,
    pub scheduled_delivery_timestamp: i64,
    /// The server tried to deliver it and could not.
    #[serde(default)]
    pub failed: bool,
    pub reminder_target_message_id: MessageId,
}

/// The line the note follows in the Notification Bot's text (`zerver/lib/reminders.py`).
const NOTE_MARK: &str = "Note:\n > ";

impl Reminder {
    /// The note given with it: the list has no field for it, so it is read from the
    /// Notification Bot's text, where it follows "Note:" up to the paragraph's end.
    pub fn note(&self) -> Option<&str> {
        let first = self.content.split("\n\n").next()?;
        let (_, note) = first.split_once(NOTE_MARK)?;
        Some(note.trim()).filter(|n| !n.is_empty())
    }

    /// The start of the message it is about, as the text quotes it (for a message this client
    /// does not hold): the first line inside the quote block.
    pub fn quoted(&self) -> Option<&str> {
        let (_, rest) = self.content.split_once("quote\n")?;
        rest.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("```"))
    }

    /// Where the message it is about was sent, as the text says it (for a message this client
    /// does not hold): `#channel > topic` from its `#**channel>topic@id**` (or the link the
    /// server writes when the names need escaping), `DM: names` from the people it was sent to.
    pub fn place(&self) -> Option<String> {
        let said = self.content.split("\n\n").nth(1)?.lines().next()?;
        if let Some((_, to)) = said.split_once(") to ") {
            let names: Vec<&str> = to
                .split("@_**")
                .skip(1)
                .filter_map(|n| n.split_once("**").map(|(n, _)| n.rsplit_once('|').map_or(n, |(n, _)| n)))
                .collect();
            return (!names.is_empty()).then(|| format!("DM: {}", names.join(", ")));
        }
        let (_, link) = said.split_once(" in ")?;
        let inner = match link.strip_prefix("#**") {
            Some(rest) => rest.split_once("**")?.0.rsplit_once('@')?.0,
            None => link.strip_prefix("[#")?.split_once(" @ ")?.0,
        };
        let (channel, topic) = inner.split_once('>').or_else(|| inner.split_once(" > "))?;
        Some(format!("#{} > {}", channel.trim(), topic.trim()))
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RemindersResponse {
    pub reminders: Vec<Reminder>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ReminderCreated {
    pub reminder_id: i64,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// A `reminders` event: reminders set (`add`) or gone — deleted or delivered (`remove`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawRemindersEvent")]
pub enum RemindersEvent {
    Add(Vec<Reminder>),
    Remove(i64),
}

#[derive(Deserialize)]
struct RawRemindersEvent {
    op: String,
    #[serde(default)]
    reminders: Option<Vec<Reminder>>,
    #[serde(default)]
    reminder_id: Option<i64>,
}

impl TryFrom<RawRemindersEvent> for RemindersEvent {
    type Error = String;
    fn try_from(r: RawRemindersEvent) -> std::result::Result<Self, Self::Error> {
        match r.op.as_str() {
            "add" => r.reminders.map(RemindersEvent::Add).ok_or_else(|| "missing field `reminders`".into()),
            "remove" => {
                r.reminder_id.map(RemindersEvent::Remove).ok_or_else(|| "missing field `reminder_id`".into())
            }
            other => Err(format!("unknown reminders op `{other}`")),
        }
    }
}

#[cfg(feature = "http")]
impl Client {
    /// `POST /reminders`: remind the user of a message at `at` (UNIX seconds). The note goes
    /// only to a server that keeps one ([`REMINDER_NOTE`]); older ones would ignore it.
    pub async fn create_message_reminder(
        &self,
        message_id: MessageId,
        at: i64,
        note: Option<&str>,
    ) -> Result<ReminderCreated> {
        let note = note.filter(|n| !n.trim().is_empty() && self.level().has(REMINDER_NOTE));
        let p = Params::new()
            .add("message_id", message_id)
            .add("scheduled_delivery_timestamp", at)
            .opt("note", note);
        self.call(Method::POST, "/reminders", p).await
    }

    /// `GET /reminders`: the user's undelivered reminders, soonest first.
    pub async fn get_reminders(&self) -> Result<RemindersResponse> {
        self.call(Method::GET, "/reminders", Params::new()).await
    }

    /// `DELETE /reminders/{id}`.
    pub async fn delete_reminder(&self, id: i64) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/reminders/{id}"), Params::new()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reminder(content: &str) -> Reminder {
        Reminder {
            reminder_id: 1,
            to: vec![],
            content: content.into(),
            scheduled_delivery_timestamp: 0,
            failed: false,
            reminder_target_message_id: 9,
        }
    }

    #[test]
    fn the_note_and_the_quoted_text_are_read_from_the_bots_text() {
        let r = reminder(
            "You requested a reminder for the following message. Note:\n > before Friday\n\n\
             @_**Alice|4** [said](http://x/#narrow/near/9) in #**general>t@9**:\n```quote\ndo the thing\nand more\n```",
        );
        assert_eq!(r.note(), Some("before Friday"));
        assert_eq!(r.quoted(), Some("do the thing"));
        let plain = reminder(
            "You requested a reminder for the following message.\n\n@_**A|4** said:\n```quote\nhi\n```",
        );
        assert_eq!(plain.note(), None);
        assert_eq!(plain.quoted(), Some("hi"));
        assert_eq!(reminder("").quoted(), None);
    }

    #[test]
    fn the_place_is_read_from_the_bots_text() {
        let channel = reminder(
            "You requested a reminder for the following message.\n\n\
             @_**Alice|4** [said](http://x/#narrow/near/9) in #**general>lunch plans@9**:\n```quote\nhi\n```",
        );
        assert_eq!(channel.place().as_deref(), Some("#general > lunch plans"));
        let escaped = reminder(
            "You requested a reminder for the following message.\n\n\
             @_**Alice|4** [said](http://x/#narrow/near/9) in [#a*b > c$d @ 💬](http://x/#narrow/near/9):\n```quote\nhi\n```",
        );
        assert_eq!(escaped.place().as_deref(), Some("#a*b > c$d"));
        let dm = reminder(
            "You requested a reminder for the following direct message. Note:\n > soon\n\n\
             @_**Alice|4** [said](http://x/#narrow/near/9) to @_**Bob|5**, and @_**Carol|6**:\n```quote\nhi\n```",
        );
        assert_eq!(dm.place().as_deref(), Some("DM: Bob, Carol"));
        assert_eq!(reminder("You requested a reminder.").place(), None);
    }

    #[test]
    fn events_decode_by_op() {
        let add: RemindersEvent = serde_json::from_value(serde_json::json!({
            "op": "add", "reminders": [{"reminder_id": 3, "type": "private", "to": [8], "content": "x",
            "rendered_content": "<p>x</p>", "scheduled_delivery_timestamp": 5, "failed": false,
            "reminder_target_message_id": 9}]
        }))
        .unwrap();
        assert!(matches!(&add, RemindersEvent::Add(v) if v[0].reminder_id == 3));
        let gone: RemindersEvent =
            serde_json::from_value(serde_json::json!({"op": "remove", "reminder_id": 3})).unwrap();
        assert_eq!(gone, RemindersEvent::Remove(3));
        assert!(serde_json::from_value::<RemindersEvent>(serde_json::json!({"op": "remove"})).is_err());
    }
}
