//! What is kept of a session on this machine (see `update/cache.rs` for how it is taken and
//! shown, `net/cache.rs` for the file).

use super::narrow::Narrow;
use crate::api::{ChannelId, Later, Message, MessageId, RegisterResponse, User, UserGroup};
use serde::{Deserialize, Serialize};

/// How many of each kept narrow's newest messages are kept.
pub const CACHED_MESSAGES: usize = 200;

/// How many narrows are kept: the open one and those opened last before it. With
/// [`CACHED_MESSAGES`], the file holds at most 1,000 messages.
pub const CACHED_NARROWS: usize = 5;

/// What is kept of a session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The state, in the shape of the register answer that would have produced it.
    pub register: RegisterResponse,
    /// The narrow that was open, and the message selected in it: the next start reopens it
    /// there.
    pub open: Narrow,
    pub selected: Option<MessageId>,
    /// The loaded windows of the narrows opened last, the open one first (when it was loaded).
    pub windows: Vec<Window>,
    /// Their messages, each once, oldest first.
    pub messages: Vec<Message>,
    /// The users, kept apart from the rest (`register.realm_users` is empty): the file keeps
    /// them on a line of their own, after what the first screen needs, so that reading the
    /// rest does not read them; they are read after the first frame, as register's are.
    #[serde(skip)]
    pub users: Option<Later<User>>,
    /// The user groups, kept apart the same way (`register.realm_user_groups` is empty), on
    /// the line after the users: read with them.
    #[serde(skip)]
    pub groups: Option<Later<UserGroup>>,
    /// What `:archive` had still to fetch when the session was kept: it goes on once the
    /// server answers.
    #[serde(default)]
    pub backfill: Vec<BackfillTarget>,
}

/// The newest part of one narrow's loaded window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Window {
    pub narrow: Narrow,
    /// Ascending; each is in `Snapshot::messages`.
    pub ids: Vec<MessageId>,
    pub found_newest: bool,
    pub found_oldest: bool,
}

/// A narrow whose history `:archive` fetches: a channel, or every message (`None`). Kept in
/// the session while it is not done, so that a backfill resumes when the client starts again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackfillTarget {
    /// As the status line names it: `#general`, or `all messages`.
    pub name: String,
    pub channel: Option<ChannelId>,
}
