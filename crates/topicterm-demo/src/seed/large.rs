//! `demo-server --size large`: the demo organization grown to the scale of a big company, for
//! benchmarks (`bench/scale.sh`). Deterministic: the same seed text every time.
//!
//! The bundled demo organization stays as it is (its people, channels and messages, so the
//! demo accounts and their zuliprc files work), and gets company-sized company: 20,000 users in
//! all, 2,000 channels (500 of them `member`'s), 200,000 messages over many topics with a mix
//! of content (code, quotes, mentions, emoji, long messages), a few thousand unread for
//! `member`.

use serde_json::{Value, json};

pub const USERS: usize = 20_000;
pub const CHANNELS: usize = 2_000;
pub const MEMBER_CHANNELS: usize = 500;
pub const MESSAGES: usize = 200_000;
/// Unread for `member`, among the newest messages of their channels.
pub const MEMBER_UNREAD: usize = 3_000;
/// People in a generated channel besides `member` (when `member` is in it).
const SUBSCRIBERS: usize = 8;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FIRST: &[&str] = &[
    "Ada", "Ben", "Chloe", "Dmitri", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kavya", "Luca",
    "Mei", "Nils", "Olu", "Paula", "Quinn", "Rafael", "Sana", "Tomas", "Uma", "Viktor", "Wen", "Ximena",
    "Yusuf", "Zoe",
];
const LAST: &[&str] = &[
    "Andersen",
    "Barros",
    "Chen",
    "Dubois",
    "Eze",
    "Fischer",
    "Garcia",
    "Haddad",
    "Ivanova",
    "Jensen",
    "Kaur",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quist",
    "Rossi",
    "Silva",
    "Tanaka",
];
const TEAMS: &[&str] = &[
    "payments", "search", "mobile", "infra", "data", "growth", "billing", "docs", "security", "support",
    "design", "sales", "ml", "platform", "release", "qa", "ops", "legal", "hiring", "events",
];
const SUBJECTS: &[&str] = &[
    "weekly sync",
    "incident review",
    "flaky tests",
    "release plan",
    "onboarding",
    "roadmap",
    "hiring",
    "on-call handoff",
    "customer feedback",
    "design review",
    "budget",
    "retro",
    "launch",
    "migration",
    "performance",
    "dependencies",
    "docs",
    "office",
    "offsite",
    "metrics",
];
const WORDS: &[&str] = &[
    "deploy",
    "staging",
    "latency",
    "rollback",
    "ticket",
    "review",
    "merge",
    "cache",
    "queue",
    "schema",
    "dashboard",
    "alert",
    "customer",
    "draft",
    "timeline",
    "estimate",
    "blocker",
    "owner",
    "scope",
    "test",
    "config",
    "branch",
    "benchmark",
    "index",
    "backfill",
    "quota",
    "region",
    "patch",
    "retry",
    "budget",
];
const EMOJI: &[&str] =
    &[":tada:", ":+1:", ":eyes:", ":rocket:", ":thinking:", ":fire:", ":check:", ":coffee:"];

fn sentence(r: &mut Rng, words: usize) -> String {
    let s: Vec<&str> = (0..words).map(|_| r.pick(WORDS)).collect();
    let mut out = s.join(" ");
    if let Some(c) = out.get(..1) {
        out = c.to_uppercase() + &out[1..];
    }
    out.push('.');
    out
}

/// A message of one of several kinds, like a real organization's mix.
fn content(r: &mut Rng, people: &[String]) -> String {
    match r.below(20) {
        0..=8 => {
            let n = 4 + r.below(12);
            sentence(r, n)
        }
        9 | 10 => format!("{} {}", sentence(r, 6), r.pick(EMOJI)),
        11 | 12 => format!("@**{}** {}", people[r.below(people.len())], sentence(r, 8)),
        13 => format!("```rust\nfn {}() -> u32 {{\n    {}\n}}\n```", r.pick(WORDS), r.below(1000)),
        14 => format!("> {}\n\n{}", sentence(r, 10), sentence(r, 6)),
        15 => format!("- {}\n- {}\n- {}", sentence(r, 4), sentence(r, 5), sentence(r, 3)),
        16 => (0..6).map(|_| sentence(r, 14)).collect::<Vec<_>>().join(" "),
        17 => format!("See https://example.com/{}/{} for {}", r.pick(TEAMS), r.below(10_000), sentence(r, 5)),
        18 => format!("**{}**: {}", r.pick(WORDS), sentence(r, 9)),
        _ => format!("`{}` {}", r.pick(WORDS), sentence(r, 7)),
    }
}

/// The large organization's seed text, built on the bundled one (`demo`).
pub fn large_seed(demo: &str) -> Result<String, String> {
    let mut seed: Value = serde_json::from_str(demo).map_err(|e| e.to_string())?;
    let mut r = Rng(0x7091_C7E4_2026);
    let users = seed["users"].as_array().map_or(0, Vec::len);
    let mut names: Vec<String> = Vec::new();
    let mut shorts: Vec<String> = Vec::new();
    let mut new_users = Vec::new();
    for i in 0..USERS.saturating_sub(users) {
        let short = format!("u{i:05}");
        let name = format!("{} {} {i}", r.pick(FIRST), r.pick(LAST));
        new_users.push(json!({"short_name": short, "full_name": name, "role": "member",
                              "presence_enabled": r.below(4) != 0}));
        names.push(name);
        shorts.push(short);
    }
    if let Some(list) = seed["users"].as_array_mut() {
        list.extend(new_users);
    }
    let existing = seed["channels"].as_array().map_or(0, Vec::len);
    let members_own = seed["channels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["subscribers"].as_array().is_some_and(|s| s.iter().any(|x| x == "member")))
        .count();
    let mine_needed = MEMBER_CHANNELS.saturating_sub(members_own);
    let mut channels: Vec<(String, Vec<usize>)> = Vec::new();
    let mut new_channels = Vec::new();
    for i in 0..CHANNELS.saturating_sub(existing) {
        let name = format!("{}-{}-{i}", r.pick(TEAMS), r.pick(WORDS));
        let mine = i < mine_needed;
        let subs: Vec<usize> = (0..SUBSCRIBERS).map(|_| r.below(shorts.len())).collect();
        let mut list: Vec<String> = subs.iter().map(|s| shorts[*s].clone()).collect();
        if mine {
            list.push("member".into());
        }
        list.sort();
        list.dedup();
        let description = format!("The {} team: {}", r.pick(TEAMS), sentence(&mut r, 6));
        new_channels.push(json!({"name": name, "description": description,
                                 "subscribers": list, "created_days_ago": 400}));
        channels.push((name, subs));
    }
    if let Some(list) = seed["channels"].as_array_mut() {
        list.extend(new_channels);
    }
    // Messages: most in member's channels (what the benchmarks read), older than the bundled
    // ones so the demo's own conversations stay the newest.
    let existing_msgs = seed["messages"].as_array().map_or(0, Vec::len);
    let count = MESSAGES.saturating_sub(existing_msgs);
    let oldest_demo = seed["messages"]
        .as_array()
        .and_then(|m| m.iter().filter_map(|x| x["minutes_ago"].as_u64()).max())
        .unwrap_or(20_000);
    let mut generated = Vec::with_capacity(count);
    for k in 0..count {
        let c = if r.below(10) < 7 { r.below(mine_needed.max(1)) } else { r.below(channels.len()) };
        let (channel, subs) = &channels[c];
        let sender = &shorts[subs[r.below(subs.len())]];
        let topic = format!("{} {}", r.pick(SUBJECTS), r.below(40));
        // Oldest first: minutes_ago falls as k grows; a minute apart on average.
        let minutes_ago = oldest_demo + 1 + (count - k) as u64;
        let mut m = json!({"sender": sender, "channel": channel, "topic": topic,
                           "content": content(&mut r, &names), "minutes_ago": minutes_ago});
        if c < mine_needed && k >= count.saturating_sub(MEMBER_UNREAD * 10 / 7) && r.below(10) < 7 {
            m["unread_for"] = json!(["member"]);
        }
        generated.push(m);
    }
    if let Some(list) = seed["messages"].as_array_mut() {
        let demo_msgs = std::mem::take(list);
        *list = generated;
        list.extend(demo_msgs);
    }
    Ok(seed.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_every_time_with_the_sizes_promised() {
        let demo = crate::seed::DEMO_SEED;
        let a = large_seed(demo).unwrap();
        assert_eq!(a, large_seed(demo).unwrap(), "deterministic");
        let v: Value = serde_json::from_str(&a).unwrap();
        assert_eq!(v["users"].as_array().unwrap().len(), USERS);
        assert_eq!(v["channels"].as_array().unwrap().len(), CHANNELS);
        assert_eq!(v["messages"].as_array().unwrap().len(), MESSAGES);
        let mine = v["channels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["subscribers"].as_array().unwrap().iter().any(|s| s == "member"))
            .count();
        assert_eq!(mine, MEMBER_CHANNELS);
        let ages: Vec<u64> =
            v["messages"].as_array().unwrap().iter().map(|m| m["minutes_ago"].as_u64().unwrap()).collect();
        assert!(ages.windows(2).all(|w| w[0] >= w[1]), "oldest first");
    }
}
