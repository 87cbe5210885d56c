//! What a server of each feature level takes and sends: the one table of "since level N"
//! facts. The client speaks to every server in its own terms from here (the narrow's operator
//! names, message types, which endpoint or parameter exists), so an older server never gets a
//! name it refuses. The levels come from the API changelog in `shared/spec/zulip-openapi.yaml`
//! (checked against zulip/zulip's `api_docs/changelog.md`); the demo server's
//! `--feature-level N` refuses and sends by the same table, so both sides are tested at N-1 and N.
//!
//! Zulip versions by level: 7.0 = 185, 8.0 = 188–237, 9.0 = 240–277, 10.0 = 280–371,
//! 11.0 = 377–421, 12.0 = 422–498, 13.0-dev (Zulip Cloud) from 502. `docs/levels.md` says, entry
//! by entry from 421 to 503, what the client and the demo server do with each change.

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
/// What [`FOLLOWED_TOPICS`] brought, and with which version, in the words of a refusal
/// ([`Level::require`]): the client's keys and the API say it alike.
pub const FOLLOWING: (&str, &str) = ("following topics", "Zulip 8.0");
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
/// Narrow operators `dm` and `is:dm` (Zulip 7.0); `pm-with` and `is:private` before. Below the
/// oldest supported level, but the names an unknown-operator answer falls back to.
pub const DM_OPERATOR: i64 = 177;
/// `anchor=date` with `anchor_date` on `GET /messages` (Zulip 12.0): "Invalid anchor" before.
pub const ANCHOR_DATE: i64 = 445;
/// Narrow `mentions:<user>` (Zulip 12.0).
pub const MENTIONS_OPERATOR: i64 = 446;
/// Narrow `channels:archived` (Zulip 12.0).
pub const CHANNELS_ARCHIVED: i64 = 489;
/// An attachment's `create_time` in seconds (Zulip 12.0); milliseconds before.
pub const ATTACHMENT_SECONDS: i64 = 443;
/// An attachment's `message_ids` replaces its `messages` list of `{id, date_sent}` (Zulip 12.0).
pub const ATTACHMENT_MESSAGE_IDS: i64 = 472;
/// `actions` on `DELETE /users/{id}`: what of a deactivated user's to delete (Zulip 12.0);
/// ignored before.
pub const DEACTIVATE_ACTIONS: i64 = 459;
/// `can_create_topic_group` on channels: who may start a new topic (Zulip 12.0).
pub const CAN_CREATE_TOPIC_GROUP: i64 = 441;
/// `idle_queue_timeout` on register: how long a queue lives without a poll (Zulip 12.0).
pub const IDLE_QUEUE_TIMEOUT: i64 = 481;
/// No narrow operator `dm-with` exists on any server up to level 503 (the web app's search box
/// takes it and sends `dm-including`): the client always sends `dm-including`.
/// `/reminders`: reminders about a message, delivered by the Notification Bot (Zulip 11.0);
/// the endpoint is unknown before.
pub const REMINDERS: i64 = 381;
/// What [`REMINDERS`] brought, in the words of a refusal ([`Level::require`]).
pub const REMINDING: (&str, &str) = ("reminders", "Zulip 11.0");
/// `note` on `POST /reminders` (Zulip 11.0); before it, the server ignores it.
pub const REMINDER_NOTE: i64 = 415;
/// `message_ids` on `GET /messages`: these messages, by ID (Zulip 10.0).
pub const MESSAGE_IDS: i64 = 300;
/// The channel setting `default_push_notifications`, set by administrators (Zulip 13.0).
pub const DEFAULT_PUSH_NOTIFICATIONS: i64 = 507;
/// `POST /messages` answers `message_url` and `message_link` (Zulip 13.0).
pub const SEND_ANSWERS_LINK: i64 = 508;
/// The `hide_link_previews` message flag (Zulip 13.0); "Invalid flag" before.
pub const HIDE_LINK_PREVIEWS: i64 = 510;

/// A server's level as far as the client knows it: `None` before register answered, taken
/// as the newest (every name of the current protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Level(pub Option<i64>);

impl Level {
    /// Does the server have what came with level `since`?
    pub fn has(self, since: i64) -> bool {
        self.0.is_none_or(|l| l >= since)
    }

    /// What came with level `since` (Zulip `version`), or the refusal that names both levels.
    pub fn require(
        self,
        since: i64,
        what: &'static str,
        version: &'static str,
    ) -> Result<(), super::error::LimitError> {
        match self.0 {
            Some(at) if at < since => {
                Err(super::error::LimitError::NotOnThisServer { what, version, since, at })
            }
            _ => Ok(()),
        }
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
    /// [`CHANNEL_OPERATOR`], `id` operands as strings before [`ID_INTEGER_OPERAND`], `dm` and
    /// `is:dm` as `pm-with` and `is:private` before [`DM_OPERATOR`], and `dm-with` (the web app's
    /// name) as `dm-including` at every level.
    pub fn narrow(self, terms: &[NarrowTerm]) -> Vec<NarrowTerm> {
        terms
            .iter()
            .map(|t| {
                let mut t = t.clone();
                match t.operator.as_str() {
                    "channel" if !self.has(CHANNEL_OPERATOR) => t.operator = "stream".into(),
                    "channels" if !self.has(CHANNEL_OPERATOR) => t.operator = "streams".into(),
                    "dm-with" => t.operator = "dm-including".into(),
                    "dm" if !self.has(DM_OPERATOR) => t.operator = "pm-with".into(),
                    "is" if !self.has(DM_OPERATOR) && t.operand == "dm" => t.operand = "private".into(),
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

    /// Register's `narrow` (`[operator, operand]` pairs) in the server's terms, by the same
    /// rule as [`Level::narrow`]: `channel` is `stream` before [`CHANNEL_OPERATOR`].
    pub fn events_narrow(self, pairs: &[(String, String)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(op, operand)| {
                let term = self.narrow(&[NarrowTerm::new(op.as_str(), operand.as_str())]).remove(0);
                let operand = term.operand.as_str().map_or_else(|| term.operand.to_string(), str::to_owned);
                (term.operator, operand)
            })
            .collect()
    }

    /// The operators of `terms` this server does not have and that have no older name: refused
    /// before asking, naming both levels.
    pub fn check_narrow(self, terms: &[NarrowTerm]) -> Result<(), super::error::LimitError> {
        for t in terms {
            match t.operator.as_str() {
                "mentions" => {
                    self.require(MENTIONS_OPERATOR, "searching by mention (mentions:)", "Zulip 12.0")?
                }
                "channels" if t.operand == "archived" => {
                    self.require(CHANNELS_ARCHIVED, "searching archived channels", "Zulip 12.0")?
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The same narrow in the oldest names every server knows, when that differs from what
    /// this level sends: what to ask once more when a server refuses an operator's name
    /// ([`refuses_a_name`]) although its level says it has it.
    pub fn older_names(self, terms: &[NarrowTerm]) -> Option<Vec<NarrowTerm>> {
        let oldest = Level(Some(0)).narrow(terms);
        (oldest != self.narrow(terms)).then_some(oldest)
    }
}

/// Whether a server refused a narrow for an operator's name or operand type: "unknown
/// operator X" (`BAD_NARROW`), or "operand is not a string" (an operator it takes only names for).
pub fn refuses_a_name(e: &super::error::ApiError) -> bool {
    e.server().is_some_and(|s| {
        s.status == 400
            && ((s.code == "BAD_NARROW" && s.msg.contains("unknown operator"))
                || s.msg.contains("is not a string"))
    })
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
        // No server knows `dm-with`: the web app's name is sent as `dm-including` at every level.
        assert_eq!(at(503)[3], "dm-including:5");
        assert_eq!(at(OLDEST_SUPPORTED)[3], "dm-including:5");
        assert_eq!(at(OLDEST_SUPPORTED)[4], "topic:\"t\"");
        assert_eq!(ops(None, &terms)[0].0, "channel", "before register: the current protocol");
        // Register's narrow, by the same rule.
        let pairs = [("channel".to_owned(), "Verona".to_owned()), ("is".to_owned(), "dm".to_owned())];
        let names =
            |l| Level(Some(l)).events_narrow(&pairs).into_iter().map(|(o, _)| o).collect::<Vec<String>>();
        assert_eq!(names(CHANNEL_OPERATOR - 1), ["stream", "is"]);
        assert_eq!(names(CHANNEL_OPERATOR), ["channel", "is"]);
        assert_eq!(Level(Some(218)).events_narrow(&pairs)[0].1, "Verona");
    }

    #[test]
    fn a_level_has_what_came_at_or_before_it() {
        assert!(Level(Some(248)).has(CHANNEL_TYPE));
        assert!(!Level(Some(247)).has(CHANNEL_TYPE));
        assert!(Level(None).has(CHANNELS_ARCHIVED));
    }

    #[test]
    fn operators_without_an_older_name_are_refused_naming_both_levels() {
        let mentions = [NarrowTerm::new("mentions", 5)];
        assert!(Level(Some(MENTIONS_OPERATOR)).check_narrow(&mentions).is_ok());
        assert_eq!(
            Level(Some(MENTIONS_OPERATOR - 1)).check_narrow(&mentions).unwrap_err().to_string(),
            "this server does not offer searching by mention (mentions:): it needs Zulip 12.0 or later \
             (feature level 446; this server is at 445)"
        );
        let archived = [NarrowTerm::new("channels", "archived")];
        assert!(Level(Some(CHANNELS_ARCHIVED - 1)).check_narrow(&archived).is_err());
        assert!(
            Level(Some(CHANNELS_ARCHIVED - 1)).check_narrow(&[NarrowTerm::new("channels", "public")]).is_ok()
        );
    }

    #[test]
    fn a_refused_name_falls_back_to_the_oldest_names_once() {
        let terms = [NarrowTerm::new("channel", 7), NarrowTerm::new("dm", serde_json::json!([5]))];
        let older = Level(Some(503)).older_names(&terms).unwrap();
        let names: Vec<&str> = older.iter().map(|t| t.operator.as_str()).collect();
        assert_eq!(names, ["stream", "pm-with"]);
        assert_eq!(Level(Some(0)).older_names(&terms), None, "already the oldest");
        let unknown = super::super::error::ServerError::new(
            400,
            "BAD_NARROW",
            "Invalid narrow operator: unknown operator channel",
        );
        assert!(refuses_a_name(&super::super::error::ApiError::Server(Box::new(unknown))));
        let not_string = super::super::error::ServerError::new(400, "BAD_REQUEST", "operand is not a string");
        assert!(refuses_a_name(&super::super::error::ApiError::Server(Box::new(not_string))));
        let other = super::super::error::ServerError::new(
            400,
            "BAD_NARROW",
            "Invalid narrow operator: unknown user 9",
        );
        assert!(!refuses_a_name(&super::super::error::ApiError::Server(Box::new(other))));
    }
}
