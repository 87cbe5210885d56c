//! What follows on screen from the channel events that `app::channels::Channels` applied
//! (through `Data::apply`; `events::react` hands it here): a channel gone said, and channel
//! info's default for push notifications. (The feed after a mute is
//! `navigation::feed_after_mute`, the `:channels` list's counts `directory::count_subscribers`.)

use super::common::*;
use super::prelude::*;

/// Channels archived or deleted: the expanded one closes, and one the user was in is said.
pub(super) fn gone(st: &mut State, ids: &[ChannelId], subscribed: bool) {
    st.ui.sidebar.channels_gone(ids);
    if subscribed {
        set_status(st, "a channel you were subscribed to was archived");
    }
}

/// A channel's default for push notifications changed: channel info open on it shows it.
pub(super) fn push_default(st: &mut State, channel: ChannelId, on: bool) {
    if let Some(Popup::ChannelInfo { channel: shown, details: Some(c), .. }) = &mut st.ui.popup
        && *shown == channel
    {
        c.default_push_notifications = Some(on);
    }
}
