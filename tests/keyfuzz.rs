//! The whole app under random use, seeded so a failure is repeated by its seed: the key
//! fuzzer of `fuzz/keys.rs` (random keys, pastes, frame sizes and palette commands with
//! arguments drawn from the state, interleaved with another user's messages, reactions and
//! edits, and clock ticks, on the whole-app harness against the demo server, its invariants
//! checked after every step and at the end) fed bytes from a seeded RNG. The same function is
//! the libFuzzer target `keys` and replays its corpus in `tests/fuzz_corpus.rs`.
//!
//! `KEYFUZZ_STEPS=20000 KEYFUZZ_SEED=7 cargo test --test keyfuzz -- --nocapture` runs it longer
//! or another way; CI runs the default (2,000 steps, seed 1).

#[path = "../fuzz/keys.rs"]
mod keys;

/// More bytes than any action reads (a palette command with two arguments reads seven).
const BYTES_PER_STEP: usize = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_use_never_panics_draws_no_control_character_and_loses_nothing() {
    let steps: usize = std::env::var("KEYFUZZ_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::var("KEYFUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut data = vec![0; steps * BYTES_PER_STEP];
    fastrand::Rng::with_seed(seed).fill(&mut data);
    let app = keys::harness::App::start("member").await;
    keys::run(app, &data, steps, keys::harness::QUIET, &format!("seed {seed}")).await;
}
