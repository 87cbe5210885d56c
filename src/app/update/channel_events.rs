//! Channel events: subscriptions (the user's and others'), channels changed, archived or
//! deleted, and channel folders — each applied by `app::channels::Channels`, then what
//! follows on screen: the combined feed after a mute, the `:channels` list's subscriber
//! counts, the sidebar and the words.

use super::common::*;
use super::prelude::*;
use crate::app::channels::StreamApplied;

/// The user's subscriptions (added, removed, a property changed) and others' (counts).
pub(super) fn on_subscription(st: &mut State, ev: &SubscriptionEvent) -> Vec<Effect> {
    if let Some(muted) = st.data.channels.on_subscription(ev) {
        return super::navigation::feed_after_mute(st, muted);
    }
    match ev {
        SubscriptionEvent::Add(subscriptions) => {
            for s in subscriptions {
                super::directory::count_subscribers(st, s.stream_id, 1);
            }
        }
        SubscriptionEvent::Remove(ids) => peers_changed(st, ids, -1),
        SubscriptionEvent::PeerAdd { stream_ids, user_ids } => {
            peers_changed(st, stream_ids, user_ids.len() as i64)
        }
        SubscriptionEvent::PeerRemove { stream_ids, user_ids } => {
            peers_changed(st, stream_ids, -(user_ids.len() as i64));
        }
        SubscriptionEvent::Update { .. } | SubscriptionEvent::Other(_) => {}
    }
    vec![]
}

/// Others subscribed to channels (`n` of them) or left them (`-n`).
fn peers_changed(st: &mut State, stream_ids: &[ChannelId], n: i64) {
    for id in stream_ids {
        super::directory::count_subscribers(st, *id, n);
    }
}

/// Channels deleted, archived or changed (name, description) while subscribed: the sidebar
/// drawn again, and a channel the user was in that is gone said.
pub(super) fn on_stream(st: &mut State, ev: StreamEvent) {
    if let StreamEvent::Update { stream_id, change: StreamChange::DefaultPushNotifications(on) } = &ev
        && let Some(Popup::ChannelInfo { channel, details: Some(c), .. }) = &mut st.ui.popup
        && channel == stream_id
    {
        c.default_push_notifications = Some(*on);
    }
    match st.data.channels.on_stream(ev) {
        StreamApplied::Nothing => return,
        StreamApplied::Changed => {}
        StreamApplied::Gone { ids, subscribed } => {
            st.data.topics.on_channels_gone(&ids);
            if st.ui.expanded.is_some_and(|c| ids.contains(&c)) {
                st.ui.expanded = None;
            }
            if subscribed {
                set_status(st, "a channel you were subscribed to was archived");
            }
        }
    }
    rebuild_sidebar(st);
}

/// Channel folders added, renamed, archived or reordered.
pub(super) fn on_folder(st: &mut State, ev: ChannelFolderEvent) {
    st.data.channels.on_folder(ev);
}
