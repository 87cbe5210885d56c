//! What is kept of a session on this machine (see `update/cache.rs` for how it is taken and
//! shown, `net/cache.rs` for the file).

use crate::api::{Message, NarrowTerm, RegisterResponse};
use serde::{Deserialize, Serialize};

/// How many of the open narrow's newest messages are kept.
pub const CACHED_MESSAGES: usize = 200;

/// What is kept of a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The state, in the shape of the register answer that would have produced it.
    pub register: RegisterResponse,
    /// The open narrow, as terms (it is compared, never sent).
    pub narrow: Vec<NarrowTerm>,
    /// Its newest messages, oldest first.
    pub messages: Vec<Message>,
    pub found_newest: bool,
    pub found_oldest: bool,
}
