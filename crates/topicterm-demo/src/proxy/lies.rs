//! The lying modes of the fault proxy: a seeded [`Rule`] for the rewriting relay that replaces a
//! share of the server's answers with what broken servers and networks send — answers of the
//! wrong shape, invalid JSON, an HTML page with 200, a Content-Length longer than the body, a
//! reset before any byte, a body trickled or cut off, a 5xx or 429 with `Retry-After`, long
//! delays, a body far larger than any answer. Every lie is told after the request reached the
//! server (but for those that never reach it in life), so a lie about a send's answer is a lie
//! about a send that happened.
//!
//! [`Liar::rules`] gives the rules (a 429 or a captive portal's page is told instead of asking
//! the server; every other lie about the server's real answer) and the tally of lies by kind for
//! a run's figures.

use super::relay::{Exchange, Reply, Rule};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One way to lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lie {
    /// The JSON of the answer with one value, somewhere inside, of another type.
    WrongShape,
    /// The answer cut in the middle of its JSON, with 200 and a matching length.
    InvalidJson,
    /// An HTML page with 200 (a captive portal, a misconfigured proxy).
    Html,
    /// A Content-Length longer than the body, then the connection closes.
    ShortLength,
    /// The connection closes before any byte of the body.
    Reset,
    /// The answer, slowly, in small pieces.
    Trickle,
    /// No length announced; part of the body; then the connection drops.
    Truncated,
    /// 502, 503 or 504 (with `Retry-After`).
    ServerError,
    /// 429 with `Retry-After`.
    TooMany,
    /// The real answer after a long wait.
    Delay,
    /// A body of [`Liar::huge`] bytes.
    Huge,
}

impl Lie {
    /// Every lie.
    pub const ALL: [Lie; 11] = [
        Lie::WrongShape,
        Lie::InvalidJson,
        Lie::Html,
        Lie::ShortLength,
        Lie::Reset,
        Lie::Trickle,
        Lie::Truncated,
        Lie::ServerError,
        Lie::TooMany,
        Lie::Delay,
        Lie::Huge,
    ];

    /// A short name for figures (`wrong-shape`, …).
    pub fn name(self) -> &'static str {
        match self {
            Lie::WrongShape => "wrong-shape",
            Lie::InvalidJson => "invalid-json",
            Lie::Html => "html-200",
            Lie::ShortLength => "short-length",
            Lie::Reset => "reset",
            Lie::Trickle => "trickle",
            Lie::Truncated => "truncated",
            Lie::ServerError => "5xx",
            Lie::TooMany => "429",
            Lie::Delay => "delay",
            Lie::Huge => "huge",
        }
    }
}

/// How to lie: how often, in which ways, how long the waits.
#[derive(Clone, Debug)]
pub struct Liar {
    /// The share of answers replaced, 0.0–1.0.
    pub rate: f64,
    /// The lies drawn from (each in turn, in a shuffled order).
    pub kinds: Vec<Lie>,
    /// The range of a [`Lie::Delay`] or a [`Lie::Trickle`]'s spread.
    pub delay: (Duration, Duration),
    /// `Retry-After` seconds of a 5xx or 429.
    pub retry_after: u64,
    /// A [`Lie::Huge`] body's size.
    pub huge: usize,
    pub seed: u64,
}

impl Default for Liar {
    fn default() -> Liar {
        Liar {
            rate: 0.3,
            kinds: Lie::ALL.to_vec(),
            delay: (Duration::from_secs(5), Duration::from_secs(30)),
            retry_after: 1,
            huge: 50 * 1024 * 1024,
            seed: 1,
        }
    }
}

/// Lies told so far, by kind.
#[derive(Clone, Default)]
pub struct Told(Arc<Mutex<BTreeMap<Lie, u64>>>);

impl Told {
    /// A copy of the counts.
    pub fn counts(&self) -> BTreeMap<Lie, u64> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
    pub fn total(&self) -> u64 {
        self.counts().values().sum()
    }
    /// `wrong-shape 12, html-200 3, …` (kinds never told left out).
    pub fn summary(&self) -> String {
        let counts = self.counts();
        let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{} {n}", k.name())).collect();
        parts.join(", ")
    }
}

/// The two rules of a liar, for [`super::relay::Rewriter::arm_before`] and `arm_always`, and the
/// tally of both.
pub struct Lying {
    /// Lies told instead of asking the server ([`Lie::refuses`]).
    pub before: Rule,
    /// Lies told about the server's real answer.
    pub after: Rule,
    pub told: Told,
}

impl Lie {
    /// Told without the request reaching the server, as in life: a 429 is a refusal, and a
    /// captive portal's page comes from the portal.
    pub fn refuses(self) -> bool {
        matches!(self, Lie::TooMany | Lie::Html)
    }
}

impl Liar {
    /// The rules to arm on a [`super::relay::Rewriter`]: each answer is a lie with probability
    /// `rate`, the kinds drawn evenly.
    pub fn rules(&self) -> Lying {
        let told = Told::default();
        let n = self.kinds.len().max(1) as f64;
        let refusing: Vec<Lie> = self.kinds.iter().copied().filter(|k| k.refuses()).collect();
        let answering: Vec<Lie> = self.kinds.iter().copied().filter(|k| !k.refuses()).collect();
        let before_rate = self.rate.clamp(0.0, 1.0) * refusing.len() as f64 / n;
        // Of the requests that pass the first rule, the share that makes the overall rate.
        let after_rate =
            (self.rate.clamp(0.0, 1.0) * answering.len() as f64 / n / (1.0 - before_rate)).min(1.0);
        Lying {
            before: self.rule(refusing, before_rate, 1, told.clone()),
            after: self.rule(answering, after_rate, 2, told.clone()),
            told,
        }
    }

    fn rule(&self, kinds: Vec<Lie>, rate: f64, stream: u64, told: Told) -> Rule {
        let me = self.clone();
        let mut rng = StdRng::seed_from_u64(self.seed.wrapping_mul(31).wrapping_add(stream));
        // Kinds come out of a shuffled bag, refilled when empty: every kind is told once in each
        // `kinds.len()` lies, so a short run still tells them all.
        let mut bag: Vec<Lie> = Vec::new();
        Box::new(move |ex: &Exchange| {
            if kinds.is_empty() || !rng.random_bool(rate) {
                return None;
            }
            if bag.is_empty() {
                bag = kinds.clone();
                bag.shuffle(&mut rng);
            }
            let lie = bag.pop().expect("a refilled bag");
            let reply = me.tell(lie, ex, &mut rng);
            *told.0.lock().unwrap_or_else(|e| e.into_inner()).entry(lie).or_default() += 1;
            Some(reply)
        })
    }

    fn wait(&self, rng: &mut StdRng) -> Duration {
        let (lo, hi) = self.delay;
        if hi <= lo { lo } else { rng.random_range(lo..hi) }
    }

    /// The reply that tells `lie` about this exchange.
    pub fn tell(&self, lie: Lie, ex: &Exchange, rng: &mut StdRng) -> Reply {
        let body = ex.body.clone();
        let half = |rng: &mut StdRng| if body.len() > 1 { rng.random_range(1..body.len()) } else { 0 };
        match lie {
            Lie::WrongShape => {
                let mangled = match serde_json::from_slice::<Value>(&body) {
                    Ok(mut v) => {
                        mangle(&mut v, rng);
                        v.to_string().into_bytes()
                    }
                    Err(_) => b"[]".to_vec(),
                };
                Reply::Body(200, mangled)
            }
            Lie::InvalidJson => {
                let cut = half(rng);
                Reply::Body(200, body[..cut].to_vec())
            }
            Lie::Html => Reply::Html(
                200,
                b"<!DOCTYPE html><html><head><title>Sign in to the network</title></head>\
                  <body><h1>Welcome!</h1><p>Accept the terms to continue.</p></body></html>"
                    .to_vec(),
            ),
            Lie::ShortLength => {
                let cut = half(rng);
                Reply::CutAfter(body, cut)
            }
            Lie::Reset => Reply::CutAfter(body, 0),
            Lie::Trickle => Reply::Trickle(body, self.wait(rng)),
            Lie::Truncated => {
                let cut = half(rng);
                Reply::Truncated(body, cut)
            }
            Lie::ServerError => Reply::RetryAfter([502, 503, 504][rng.random_range(0..3)], self.retry_after),
            Lie::TooMany => Reply::RetryAfter(429, self.retry_after),
            Lie::Delay => Reply::Late(self.wait(rng)),
            Lie::Huge => Reply::Huge(self.huge),
        }
    }
}

/// Replace one value somewhere inside `v` (up to four levels down, never the top-level `result`)
/// by a value of another type.
pub fn mangle(v: &mut Value, rng: &mut StdRng) {
    mangle_at(v, rng, 0);
}

fn mangle_at(v: &mut Value, rng: &mut StdRng, depth: usize) {
    let child = match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().filter(|k| depth > 0 || *k != "result").cloned().collect();
            if keys.is_empty() { None } else { map.get_mut(&keys[rng.random_range(0..keys.len())]) }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            items.get_mut(i)
        }
        _ => None,
    };
    match child {
        Some(c) if depth < 3 && matches!(c, Value::Object(_) | Value::Array(_)) && rng.random_bool(0.6) => {
            mangle_at(c, rng, depth + 1)
        }
        Some(c) => *c = other_type(c, rng),
        None => *v = other_type(v, rng),
    }
}

/// A value of another JSON type than `v`.
fn other_type(v: &Value, rng: &mut StdRng) -> Value {
    let choices = [
        Value::Null,
        Value::Bool(true),
        Value::from(-1),
        Value::from("\u{1b}[2Jnot what you expected"),
        Value::Array(vec![Value::from(1), Value::Null]),
        serde_json::json!({"surprise": true}),
    ];
    let same = |c: &Value| std::mem::discriminant(c) == std::mem::discriminant(v);
    let others: Vec<&Value> = choices.iter().filter(|c| !same(c)).collect();
    others[rng.random_range(0..others.len())].clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(body: &str) -> Exchange {
        Exchange {
            method: "GET".into(),
            path: "/api/v1/users".into(),
            status: 200,
            body: body.as_bytes().into(),
        }
    }

    #[test]
    fn a_wrong_shape_keeps_result_and_changes_one_type() {
        let text = r#"{"result":"success","msg":"","members":[{"user_id":1,"full_name":"A"}]}"#;
        for seed in 0..200 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut v: Value = serde_json::from_str(text).unwrap();
            mangle(&mut v, &mut rng);
            assert_eq!(v["result"], "success", "seed {seed}: {v}");
            assert_ne!(v, serde_json::from_str::<Value>(text).unwrap(), "seed {seed}: nothing changed");
        }
    }

    #[test]
    fn every_lie_is_told_and_counted_and_refusals_come_before_the_server() {
        let liar = Liar { rate: 1.0, delay: (Duration::ZERO, Duration::ZERO), huge: 10, ..Liar::default() };
        let mut lying = liar.rules();
        let ex = exchange(r#"{"result":"success","msg":"","x":[1,2]}"#);
        let (mut before, mut after) = (0, 0);
        for _ in 0..500 {
            if (lying.before)(&ex).is_some() {
                before += 1;
            } else {
                assert!((lying.after)(&ex).is_some());
                after += 1;
            }
        }
        let counts = lying.told.counts();
        assert_eq!(counts.len(), Lie::ALL.len(), "{}", lying.told.summary());
        assert_eq!(lying.told.total(), 500);
        let refused: u64 = counts.iter().filter(|(k, _)| k.refuses()).map(|(_, n)| n).sum();
        assert_eq!(refused, before);
        assert!(before > 40 && after > 300, "{before} {after}");
        let mut none = Liar { rate: 0.0, ..Liar::default() }.rules();
        assert!((none.before)(&exchange("{}")).is_none() && (none.after)(&exchange("{}")).is_none());
    }

    #[test]
    fn invalid_json_is_invalid() {
        let liar = Liar::default();
        let mut rng = StdRng::seed_from_u64(3);
        let ex = exchange(r#"{"result":"success","msg":"","members":[]}"#);
        for _ in 0..50 {
            let Reply::Body(200, body) = liar.tell(Lie::InvalidJson, &ex, &mut rng) else { panic!("a body") };
            assert!(serde_json::from_slice::<Value>(&body).is_err(), "{}", String::from_utf8_lossy(&body));
        }
    }
}
