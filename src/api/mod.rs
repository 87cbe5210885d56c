//! Typed client for the team-chat API (the Zulip REST API).
//!
//! Knows nothing of the UI. See `client` for the operations, `models` for the resources,
//! `events` for register and real-time events, `limits` for client-side checks.

pub mod client;
pub mod error;
pub mod events;
pub mod limits;
pub mod models;
pub mod zuliprc;

pub use client::*;
pub use error::{ApiError, LimitError, Result, ServerError};
pub use events::*;
pub use models::*;
