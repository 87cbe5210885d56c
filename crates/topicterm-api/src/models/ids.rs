//! The IDs every model names, and the serde default the models share (a leaf: the model
//! files import it, it imports none of them).

/// A user ID.
pub type UserId = i64;
/// A message ID.
pub type MessageId = i64;
/// A channel (stream) ID.
pub type ChannelId = i64;

/// The default of a flag the server leaves out when true.
pub(crate) fn default_true() -> bool {
    true
}
