//! topicterm: a terminal client for Zulip-compatible team chat.
//!
//! The workspace has four crates, and Cargo keeps their layering (a crate can name only what it
//! depends on):
//! - `topicterm-api` ([`api`]): the typed async HTTP client, one function per operation, serde
//!   models, the events, the error type and client-side limit checks; with what the client and
//!   the demo server share — [`urls`] (the one home for URL encoding: paths, URI components, the
//!   web app's hash encoding; and which links may carry credentials), [`emoji`] (Zulip's emoji
//!   names and codes), `api::markup` (escaping HTML, marking words in it) and `api::files`
//!   (files written atomically). Knows nothing of the UI or the demo server.
//! - `topicterm-demo` ([`server`], the `demo` feature, on by default): the embedded demo server
//!   (axum), an in-memory organization seeded from its `assets/demo_org.json` that honours the
//!   contract's rules, and the fault proxies the tests use. Depends on `topicterm-api` alone.
//! - `topicterm-core` ([`app`], [`content`], [`line`], [`backoff`]): the pure core — the state,
//!   the owners of each domain, `update(&mut State, Msg) -> Vec<Effect>`, the HTML document
//!   tree. Depends on `topicterm-api` and no terminal, network or runtime crate.
//! - `topicterm`, this crate: the client, its modules below. Re-exports the others at the
//!   paths they had as its modules (`crate::api::…`, `crate::app::…`, `topicterm::server::…`).
//!
//! Module map of this crate:
//! - [`net`]: the dispatcher that runs effects as tasks, and the event long-poller.
//! - [`archive`]: the message archive: every message seen, per account, in SQLite with a
//!   full-text index, written off the main loop; searched by `topicterm search`.
//! - [`ui`]: views as functions of the state (one file per pane and popup), the content layout,
//!   and the colour themes built from the theme the settings name.
//! - [`files`]: the client's files: its folders kept private, fresh files, which downloads may
//!   be opened (writing itself is `api::files`', re-exported there).
//! - [`heap`]: the allocator's settings (one arena; free memory given back after large answers).
//! - [`config`]: the TOML config file, its defaults and its error messages.
//! - [`account`]: `topicterm login`, accounts, and where API keys live (keyring or private file).
//! - [`run`]: the main loop, generic over the ratatui backend.
//! - [`outside`]: what the main loop does beyond the screen (bell, clipboard, notifications,
//!   `$EDITOR`), with a recording stand-in for tests.
//! - [`desktop`]: desktop notifications.
//! - [`webhook`]: `topicterm webhook-listen`, the receiving end of outgoing webhooks.
//! - [`script`]: the scripting subcommands `send`, `tail` and `unread`, and their exit statuses.

pub mod account;
pub mod archive;
pub mod config;
pub mod desktop;
pub mod files;
pub mod heap;
pub mod kept;
pub mod login;
pub mod net;
pub mod outside;
pub mod run;
pub mod script;
pub mod ui;
pub mod webhook;

// The other crates of the workspace, at the paths they had as modules of this one.
pub use topicterm_api as api;
pub use topicterm_api::{emoji, names, urls};
pub use topicterm_core::{app, backoff, content, line};
#[cfg(feature = "demo")]
pub use topicterm_demo as server;
