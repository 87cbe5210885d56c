//! The whole-app harness, shared with the robustness and chaos tests: see
//! `tests/support/app.rs`. The TUI tests name it `crate::harness`.

#[path = "../support/app.rs"]
mod shared;

pub use shared::*;
