//! Fuzz target `search`: see `../checks.rs` for what is checked. The same checks replay the
//! corpus on stable in `tests/fuzz_corpus.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::search(data));
