//! Random secrets: API keys, webhook tokens, channel email tokens, queue IDs.

use rand::Rng;

/// A random alphanumeric token.
pub fn token(len: usize) -> String {
    rand::rng().sample_iter(rand::distr::Alphanumeric).take(len).map(char::from).collect()
}
