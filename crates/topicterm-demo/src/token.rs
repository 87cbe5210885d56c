//! Random secrets: API keys, webhook tokens, channel email tokens, queue IDs.

use rand::Rng;

/// A random alphanumeric token.
pub fn token(len: usize) -> String {
    rand::rng().sample_iter(rand::distr::Alphanumeric).take(len).map(char::from).collect()
}

/// A token of `len` alphanumeric characters (at most 32) derived from `secret` and `what`
/// (HMAC-SHA256): the same for the same two, unguessable without the secret.
pub fn derived(secret: &[u8], what: &str, len: usize) -> String {
    const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
    let tag = ring::hmac::sign(&key, what.as_bytes());
    tag.as_ref().iter().take(len).map(|b| char::from(ALNUM[usize::from(*b) % ALNUM.len()])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_derived_token_is_the_same_for_the_same_secret_and_differs_otherwise() {
        let a = derived(b"secret one", "api key of a@x", 32);
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()), "{a}");
        assert_eq!(a, derived(b"secret one", "api key of a@x", 32));
        assert_ne!(a, derived(b"secret two", "api key of a@x", 32));
        assert_ne!(a, derived(b"secret one", "api key of b@x", 32));
    }
}
