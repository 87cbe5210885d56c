//! topicterm's pure core: everything the client knows and decides, with no terminal, network,
//! clock or runtime in it. The client (`topicterm`) runs the effects the core asks for
//! (`net/`), draws its state (`ui/`) and turns the terminal's keys into the core's
//! (`run::key_of`).
//!
//! - [`app`]: the state, the owners of each domain, and `update(&mut State, Msg) -> Vec<Effect>`.
//! - [`content`]: Zulip's rendered HTML, parsed once into the document tree `ui` lays out.
//! - [`line`]: the one-line prompts' editor (tui-input behind a small interface, readline keys).
//! - [`backoff`]: retry timing, the one home for it.
//!
//! Start at `app::update`.

pub mod app;
pub mod backoff;
pub mod content;
pub mod line;

pub use topicterm_api as api;
