//! Typed client for the team-chat API (the Zulip REST API).
//!
//! Knows nothing of the UI. `transport` holds the client and the one request path; each resource
//! has a file with its operations and their parameter and answer types (`messages`, `channels`,
//! `invites`, `users`, `presence`, `scheduled`, `snippets`, `drafts`, `realm`, `queue`, `reminders`, `attachments`); `models` holds the resources
//! shared between them, `events` register's answer and the real-time events, `limits` the checks
//! made before a request is sent, `error` the one error type.

pub mod attachments;
pub mod channels;
pub mod drafts;
pub mod error;
pub mod events;
pub mod invites;
pub mod lenient;
pub mod levels;
pub mod limits;
pub mod messages;
pub mod models;
pub mod presence;
pub mod queue;
pub mod realm;
pub mod reminders;
pub mod scheduled;
pub mod snippets;
pub mod transport;
pub mod users;
pub mod zuliprc;

pub use attachments::*;
pub use channels::*;
pub use error::{ApiError, LimitError, Result, ServerError};
pub use events::*;
pub use invites::*;
pub use lenient::Later;
pub use messages::*;
pub use models::*;
pub use presence::*;
pub use queue::*;
pub use realm::*;
pub use reminders::*;
pub use scheduled::*;
pub use snippets::*;
pub use transport::*;
pub use users::*;
