//! Fuzz target `keys`: the whole app driven by the input's keys, pastes, resizes, palette
//! commands, another user's actions and clock ticks against the demo server, its invariants
//! checked after every step; see `../keys.rs`. The same function replays the corpus on stable
//! in `tests/fuzz_corpus.rs` and runs the seeded `tests/keyfuzz.rs`.
#![no_main]

#[path = "../keys.rs"]
mod keys;

libfuzzer_sys::fuzz_target!(|data: &[u8]| keys::check(data));
