//! `topicterm-api`: a typed async client for the Zulip REST API (and servers that speak it),
//! the library under the `topicterm` terminal client, usable by any Rust program.
//!
//! A [`Client`] is made from [`Credentials`] (by hand or read from a zuliprc with
//! [`zuliprc::read`]); each operation is one `async` method on it, returning typed answers or
//! the one error type, [`ApiError`] (a server's refusal, a transport failure, or a
//! [`LimitError`] found before anything was sent). [`Client::register`] opens an event queue and
//! answers with the organization's state ([`RegisterResponse`]); [`Client::get_events`]
//! long-polls it for typed [`Event`]s. The client learns the server's feature level from
//! register and speaks to older servers as they expect ([`levels`]).
//!
//! ```no_run
//! # async fn run() -> topicterm_api::Result<()> {
//! use topicterm_api::{Client, RegisterParams, zuliprc};
//!
//! let creds = zuliprc::read(std::path::Path::new("zuliprc")).expect("a zuliprc");
//! let client = Client::new(&creds)?;
//! let state = client.register(&RegisterParams::default()).await?;
//! println!("{} at feature level {}", state.zulip_version, state.zulip_feature_level);
//! # Ok(())
//! # }
//! ```
//!
//! `examples/channels.rs` registers and prints the names of the channels the account is
//! subscribed to. TLS is rustls with ring ([`install_crypto`]).
//!
//! Layout: `transport` holds the client and the one request path; each resource has a file
//! with its operations and their parameter and answer types (`messages`, `channels`,
//! `invites`, `users`, `presence`, `scheduled`, `snippets`, `drafts`, `realm`, `queue`,
//! `reminders`, `attachments`); `models` holds the resources shared between them, `events`
//! register's answer and the real-time events, `limits` the checks made before a request is
//! sent, `error` the one error type. Beside them, what the API's users and the demo server
//! share: `urls` (URL encoding, and which links may carry credentials), `names` (when two
//! topic or channel names are the same), `emoji` (Zulip's
//! Unicode emoji names and codes), `markup` (escaping text for HTML, marking words in
//! it), `files` (files written atomically, `~/` as home) and
//! `zuliprc` (the Python bindings' credential file). It knows nothing of a terminal or a UI.

// Without `http` (the pure core's build) the operations' imports and helpers go unused.
#![cfg_attr(not(feature = "http"), allow(unused_imports, dead_code))]

pub mod attachments;
pub mod channels;
#[cfg(feature = "http")]
pub mod desktop_login;
pub mod drafts;
pub mod emoji;
pub mod error;
pub mod events;
pub mod files;
pub mod flags;
pub mod invites;
pub mod lenient;
pub mod levels;
pub mod limits;
pub mod markup;
pub mod messages;
pub mod models;
pub mod names;
pub mod presence;
pub mod queue;
pub mod realm;
pub mod reminders;
pub mod rules;
pub mod scheduled;
pub mod settings;
pub mod snippets;
pub mod transport;
pub mod urls;
pub mod users;
pub mod waiting;
pub mod zuliprc;

pub use attachments::*;
pub use channels::*;
pub use error::{ApiError, LimitError, Result, ServerError};
pub use events::*;
pub use flags::Flag;
pub use invites::*;
pub use lenient::Later;
pub use messages::*;
pub use models::*;
pub use presence::*;
pub use queue::*;
pub use realm::*;
pub use reminders::*;
pub use rules::{RealmRules, role_policy_allows};
pub use scheduled::*;
pub use settings::UserSettings;
pub use snippets::*;
pub use transport::*;
pub use users::*;
