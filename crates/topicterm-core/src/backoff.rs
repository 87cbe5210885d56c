//! One home for retry timing: exponential backoff with jitter, so that many clients of a
//! restarted server do not come back in step. Pure: the caller supplies the randomness (the
//! pure core derives it from its state, the network tasks draw it), so `app` stays free of I/O.

use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The wait before the first retry.
    pub first: Duration,
    /// The longest wait before jitter.
    pub max: Duration,
}

impl Backoff {
    /// Requests retried by the network tasks (event polls, idempotent flag changes).
    pub const NETWORK: Backoff = Backoff { first: Duration::from_millis(500), max: Duration::from_secs(30) };
    /// Registering again and resending from the outbox: whole seconds on the app's clock.
    pub const CLIENT: Backoff = Backoff { first: Duration::from_secs(2), max: Duration::from_secs(60) };

    /// The wait before retry number `attempt` (1 for the first): `first` doubled per attempt up
    /// to `max`, plus a jitter of up to half of that taken from `random`.
    pub fn delay(self, attempt: u32, random: u64) -> Duration {
        let doublings = attempt.saturating_sub(1).min(16);
        let base = self.first.saturating_mul(1 << doublings).min(self.max);
        let half_ms = base.as_millis() as u64 / 2;
        base + Duration::from_millis(random % (half_ms + 1))
    }

    /// The same in whole seconds (at least one), for the app's seconds clock.
    pub fn delay_secs(self, attempt: u32, random: u64) -> i64 {
        (self.delay(attempt, random.wrapping_mul(1000)).as_secs() as i64).max(1)
    }
}

/// A deterministic stand-in for randomness in the pure core: different for different clocks and
/// attempts, so clients started together still spread out.
pub fn pseudo_random(now: i64, attempt: u32) -> u64 {
    (now as u64).wrapping_add(attempt as u64 * 7919).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 17
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_up_to_the_cap_with_at_most_half_again_as_jitter() {
        let b = Backoff::NETWORK;
        assert_eq!(b.delay(1, 0), Duration::from_millis(500));
        assert_eq!(b.delay(2, 0), Duration::from_secs(1));
        assert_eq!(b.delay(3, 0), Duration::from_secs(2));
        assert_eq!(b.delay(20, 0), Duration::from_secs(30));
        assert_eq!(b.delay(1, 250), Duration::from_millis(750));
        assert_eq!(b.delay(1, 251), Duration::from_millis(500), "jitter wraps within half");
        for r in [0, 1, 77, u64::MAX] {
            assert!(b.delay(40, r) <= Duration::from_secs(45));
        }
        assert_eq!(Backoff::CLIENT.delay_secs(1, 0), 2);
        assert!((2..=3).contains(&Backoff::CLIENT.delay_secs(1, pseudo_random(1000, 1))));
        assert_eq!(Backoff::CLIENT.delay_secs(9, 0), 60);
    }
}
