//! Messages on their way: where a composed message goes, and the outbox's entries (optimistic
//! sending: shown at once, sent in order, looked for before a retry).

use super::narrow::Narrow;
use crate::api::*;

/// Where a message being composed goes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    Channel { id: ChannelId, topic: String },
    Dm(Vec<UserId>),
}

impl Target {
    /// A stable name for the conversation (topics compare case-insensitively).
    pub fn key(&self) -> String {
        match self {
            Target::Channel { id, topic } => format!("channel-{id}-{}", topic.to_lowercase()),
            Target::Dm(users) => {
                format!("dm-{}", users.iter().map(i64::to_string).collect::<Vec<_>>().join("-"))
            }
        }
    }
}

impl Target {
    /// The narrow of this conversation.
    pub fn narrow(&self) -> Narrow {
        match self {
            Target::Channel { id, topic } => Narrow::Topic(*id, topic.clone()),
            Target::Dm(users) => Narrow::Dm(users.clone()),
        }
    }

    /// Whether a message going here shows in `narrow`.
    pub fn shown_in(&self, narrow: &Narrow) -> bool {
        match (narrow, self) {
            (Narrow::All, _) => true,
            (Narrow::Channel(c), Target::Channel { id, .. }) => c == id,
            (Narrow::Topic(c, t), Target::Channel { id, topic }) => {
                c == id && crate::api::names::same_name(t, topic)
            }
            (Narrow::AllDms, Target::Dm(_)) => true,
            (Narrow::Dm(a), Target::Dm(b)) => a == b,
            _ => false,
        }
    }
}

/// A message on its way to the server: shown at once as pending, sent in order, one at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    /// Our `local_id`; the server echoes it as `local_message_id` on the message event.
    pub local_id: String,
    pub target: Target,
    /// The channel's name when it was written (kept on disk with it): what its row says where a
    /// channel is gone since (deleted, archived, a restarted server), never "(unknown channel)".
    pub channel_name: Option<String>,
    pub content: String,
    /// When it was written (UNIX seconds).
    pub created: i64,
    /// The newest message ID known when it was written: a copy of it on the server has a higher ID.
    pub after_id: MessageId,
    /// An attempt may have reached the server: look for it there before sending again.
    pub maybe_sent: bool,
    /// Failed attempts in a row (drives the backoff).
    pub attempts: u32,
    pub state: OutState,
}

/// Where an outgoing message is.
#[derive(Debug, Clone, PartialEq)]
pub enum OutState {
    /// Waiting for its turn or for the connection.
    Queued,
    /// The request is in flight.
    Sending,
    /// The network failed: try again at `at`.
    Retry { at: i64, why: String },
    /// The server accepted it as this message; waiting for it to arrive.
    Sent(MessageId),
    /// The server refused it; it stays, marked, until retried or taken back into the compose box.
    Failed(String),
}

/// Why a send did not go through.
#[derive(Debug)]
pub struct SendFailure {
    pub error: ApiError,
    /// A network or server fault: worth trying again.
    pub retry: bool,
    /// The request may have reached the server (timeout, broken connection, 5xx).
    pub maybe_sent: bool,
    /// The server refused the search for an earlier attempt (its conversation is gone or out
    /// of reach): it cannot be looked for, so the next attempt sends and the server says what
    /// is wrong with the message itself — instead of looking, refused, forever.
    pub unsearchable: bool,
}

/// Look for an earlier attempt of a send on the server before sending it again.
#[derive(Debug, Clone, PartialEq)]
pub struct Verify {
    /// The conversation, plus `sender:me`.
    pub terms: Vec<NarrowTerm>,
    /// Only messages with a higher ID can be ours.
    pub after_id: MessageId,
    /// Messages already matched to other sends.
    pub skip: Vec<MessageId>,
}
