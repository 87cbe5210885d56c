//! The rewriting HTTP proxy of the demo server (`topicterm::server::proxy::relay`), under the
//! name the tests have always used. Included by `tests/robustness.rs` and `tests/tui`.

#![allow(unused_imports)]

pub use topicterm::server::proxy::relay::{Exchange, Gate, Hold, Reply, Rewriter, Rule};
