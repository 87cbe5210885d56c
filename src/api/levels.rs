//! What a server of each feature level takes and sends: the one table of "since level N"
//! facts. The client speaks to every server in its own terms from here (the narrow's operator
//! names, message types, which endpoint or parameter exists), so an older server never gets a
//! name it refuses. The levels come from the API changelog in `shared/spec/zulip-openapi.yaml`
//! (checked against zulip/zulip's `api_docs/changelog.md`); the demo server's
//! `--feature-level N` refuses and sends by the same table, so both sides are tested at N-1 and N.
//!
//! Zulip versions by level: 7.0 = 185, 8.0 = 188–237, 9.0 = 240–277, 10.0 = 280–371,
//! 11.0 = 377–421.

use super::models::NarrowTerm;

/// The oldest server this client supports: Zulip 7.0.
pub const OLDEST_SUPPORTED: i64 = 185;
/// `POST /user_topics` (visibility policies); before it, `muted_topics` (Zulip 7.0).
pub const USER_TOPICS: i64 = 170;
/// Narrow `id` takes an integer operand (Zulip 8.0); before, a string.
pub const ID_INTEGER_OPERAND: i64 = 194;
/// `POST /typing` for a channel takes `stream_id`; before, `to` is required (Zulip 8.0).
pub const TYPING_STREAM_ID: i64 = 215;
/// Visibility policy 3, followed topics (Zulip 8.0): "Invalid visibility_policy" before.
pub const FOLLOWED_TOPICS: i64 = 219;
/// `read_by_sender` on `POST /messages` (Zulip 8.0). Before it, a server marks the sender's own
/// message read only for clients it knows by name, so the client marks it read itself.
pub const READ_BY_SENDER: i64 = 236;
/// `last_update_id` on presence pings (Zulip 9.0); before it, `slim_presence` asks for the
/// modern format (by user ID).
pub const PRESENCE_LAST_UPDATE_ID: i64 = 263;
/// Message type `channel` in `POST /messages`, scheduled messages and typing (Zulip 9.0):
/// "Invalid type" before; `stream` works at every level.
pub const CHANNEL_TYPE: i64 = 248;
/// Narrow operators `channel` and `channels` (Zulip 9.0): "Invalid narrow operator: unknown
/// operator channel" before; `stream` and `streams` work at every level.
pub const CHANNEL_OPERATOR: i64 = 250;
/// `include_realm_default_subscriptions` on `POST /invites` (Zulip 9.0); before it, an invitation
/// names its channels (at least one).
pub const INVITE_DEFAULT_CHANNELS: i64 = 261;
/// Saved snippets: `/saved_snippets`, register's `saved_snippets` and their events (Zulip 10.0).
pub const SAVED_SNIPPETS: i64 = 297;
/// Empty topic names ("general chat", the `empty_topic_name` capability, Zulip 10.0).
pub const EMPTY_TOPIC: i64 = 334;
/// `POST /message_edit_typing` (Zulip 10.0); no edit-typing endpoint before.
pub const EDIT_TYPING_LEGACY: i64 = 351;
/// `POST /messages/{id}/typing` replaces `/message_edit_typing` (Zulip 10.0).
pub const EDIT_TYPING: i64 = 361;
/// `POST /channels/create` (Zulip 11.0); before it, subscribing to a new name creates the
/// channel.
pub const CREATE_CHANNEL: i64 = 417;
/// `include_subscribers=partial` (Zulip 11.0).
pub const PARTIAL_SUBSCRIBERS: i64 = 412;
/// Narrow `dm-with` replaces `dm-including` (Zulip 12.0).
pub const DM_WITH: i64 = 456;
/// `/reminders`: reminders about a message, delivered by the Notification Bot (Zulip 11.0);
/// the endpoint is unknown before.
pub const REMINDERS: i64 = 381;
/// `note` on `POST /reminders` (Zulip 11.0); before it, the server ignores it.
pub const REMINDER_NOTE: i64 = 415;
/// `message_ids` on `GET /messages`: these messages, by ID (Zulip 10.0).
pub const MESSAGE_IDS: i64 = 300;

/// A server's level as far as the client knows it: `None` before register answered, taken
/// as the newest (every name of the current protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Level(pub Option<i64>);

impl Level {
    /// Does the server have what came with level `since`?
    pub fn has(self, since: i64) -> bool {
        self.0.is_none_or(|l| l >= since)
    }

    /// A message type in the server's terms: `stream`/`private` before [`CHANNEL_TYPE`].
    pub fn send_type(self, kind: super::models::SendType) -> super::models::SendType {
        use super::models::SendType;
        match kind {
            _ if self.has(CHANNEL_TYPE) => kind,
            k if k.is_channel() => SendType::Stream,
            _ => SendType::Private,
        }
    }

    /// A topic in the server's terms: the empty topic ("general chat") as `(no topic)` before
    /// [`EMPTY_TOPIC`], where an empty one is refused ("Topic can't be empty!").
    pub fn topic(self, topic: &str) -> String {
        if topic.trim().is_empty() && !self.has(EMPTY_TOPIC) { "(no topic)".into() } else { topic.to_owned() }
    }

    /// A narrow in the server's terms: `channel`/`channels` as `stream`/`streams` before
    /// [`CHANNEL_OPERATOR`], `id` operands as strings before [`ID_INTEGER_OPERAND`], `dm-with`
    /// as `dm-including` before [`DM_WITH`].
    pub fn narrow(self, terms: &[NarrowTerm]) -> Vec<NarrowTerm> {
        terms
            .iter()
            .map(|t| {
                let mut t = t.clone();
                match t.operator.as_str() {
                    "channel" if !self.has(CHANNEL_OPERATOR) => t.operator = "stream".into(),
                    "channels" if !self.has(CHANNEL_OPERATOR) => t.operator = "streams".into(),
                    "dm-with" if !self.has(DM_WITH) => t.operator = "dm-including".into(),
                    "id" if !self.has(ID_INTEGER_OPERAND) => {
                        if let Some(n) = t.operand.as_i64() {
                            t.operand = n.to_string().into();
                        }
                    }
                    _ => {}
                }
                t
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(level: Option<i64>, terms: &[NarrowTerm]) -> Vec<(String, serde_json::Value)> {
        Level(level).narrow(terms).into_iter().map(|t| (t.operator, t.operand)).collect()
    }

    #[test]
    fn narrows_are_spoken_in_the_servers_terms_on_each_side_of_each_level() {
        let terms = [
            NarrowTerm::new("channel", 7),
            NarrowTerm::new("channels", "public"),
            NarrowTerm::new("id", 42),
            NarrowTerm::new("dm-with", 5),
            NarrowTerm::new("topic", "t"),
        ];
        let at = |l| ops(Some(l), &terms).into_iter().map(|(o, v)| format!("{o}:{v}")).collect::<Vec<_>>();
        assert_eq!(at(CHANNEL_OPERATOR)[..2], ["channel:7", "channels:\"public\""]);
        assert_eq!(at(CHANNEL_OPERATOR - 1)[..2], ["stream:7", "streams:\"public\""]);
        assert_eq!(at(ID_INTEGER_OPERAND)[2], "id:42");
        assert_eq!(at(ID_INTEGER_OPERAND - 1)[2], "id:\"42\"");
        assert_eq!(at(DM_WITH)[3], "dm-with:5");
        assert_eq!(at(DM_WITH - 1)[3], "dm-including:5");
        assert_eq!(at(OLDEST_SUPPORTED)[4], "topic:\"t\"");
        assert_eq!(ops(None, &terms)[0].0, "channel", "before register: the current protocol");
    }

    #[test]
    fn a_level_has_what_came_at_or_before_it() {
        assert!(Level(Some(248)).has(CHANNEL_TYPE));
        assert!(!Level(Some(247)).has(CHANNEL_TYPE));
        assert!(Level(None).has(DM_WITH));
    }
}
