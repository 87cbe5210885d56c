//! topicterm: a terminal client for Zulip-compatible team chat.
//!
//! Module map:
//! - [`api`]: typed async HTTP client, one function per operation, serde models, the error type
//!   and client-side limit checks. Knows nothing of the UI.
//! - [`server`]: the embedded demo server (axum): an in-memory organization seeded from
//!   `assets/demo_org.json` that honours the contract's rules. Knows nothing of the client.

pub mod api;
pub mod server;
