//! topicterm: a terminal client for Zulip-compatible team chat.
//!
//! Module map:
//! - [`api`]: typed async HTTP client, one function per operation, serde models, the error type
//!   and client-side limit checks. Knows nothing of the UI.
//! - [`server`]: the embedded demo server (axum): an in-memory organization seeded from
//!   `assets/demo_org.json` that honours the contract's rules. Knows nothing of the client.
//! - [`app`]: the state store, `Msg`s in, `Effect`s out, and the pure `update` function; the
//!   keymap; narrows and search parsing; the settings the config file decides. No I/O.
//! - [`editor`]: the compose box's text editor (ratatui-textarea behind a small interface).
//! - [`line`]: the one-line prompts' editor (tui-input behind a small interface, readline keys).
//! - [`net`]: the dispatcher that runs effects as tasks, and the event long-poller.
//! - [`content`]: message HTML as a document (links, code blocks, spoilers, text) and
//!   `sanitize`; no terminal layout. Used by `app`, `ui` and `webhook`.
//! - [`ui`]: views as functions of the state (one file per pane and popup), the content layout,
//!   and the colour themes built from the theme the settings name.
//! - [`files`]: writing the files this machine keeps (atomically), the one home for it.
//! - [`heap`]: the allocator's settings (one arena; free memory given back after large answers).
//! - [`backoff`]: retry timing (exponential backoff with jitter), the one home for it.
//! - [`config`]: the TOML config file, its defaults and its error messages.
//! - [`account`]: `topicterm login`, accounts, and where API keys live (keyring or private file).
//! - [`run`]: the main loop, generic over the ratatui backend.
//! - [`outside`]: what the main loop does beyond the screen (bell, clipboard, notifications,
//!   `$EDITOR`), with a recording stand-in for tests.
//! - [`urls`]: the one home for URL encoding (paths, URI components, the web app's hash encoding).
//! - [`webhook`]: `topicterm webhook-listen`, the receiving end of outgoing webhooks.
//! - [`script`]: the scripting subcommands `send`, `tail` and `unread`, and their exit statuses.

pub mod account;
pub use topicterm_api as api;
pub mod app;
pub mod backoff;
pub mod config;
pub mod content;
pub mod desktop;
pub mod editor;
pub use topicterm_api::emoji;
pub mod files;
pub mod heap;
pub mod line;
pub mod net;
pub mod outside;
pub mod run;
pub mod script;
#[cfg(feature = "demo")]
pub mod server;
pub mod ui;
pub use topicterm_api::urls;
pub mod webhook;
