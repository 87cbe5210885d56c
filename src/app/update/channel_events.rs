//! Channel events: subscriptions (the user's and others'), channels changed, archived or
//! deleted, and channel folders — each applied to the channels the client holds.

use super::common::*;
use super::prelude::*;

/// The user's subscriptions (added, removed, a property changed) and others' (counts).
pub(super) fn on_subscription(st: &mut State, ev: &SubscriptionEvent) -> Vec<Effect> {
    match ev {
        SubscriptionEvent::Update { stream_id, change } => {
            let Some(c) = st.data.channels.get_mut(stream_id) else { return vec![] };
            let was = c.muted;
            match change {
                SubscriptionChange::Muted(muted) => c.muted = *muted,
                // The legacy inverse of `is_muted`: Zulip sends both.
                SubscriptionChange::InHomeView(shown) => c.muted = !shown,
                SubscriptionChange::PinToTop(pinned) => c.pinned = *pinned,
                SubscriptionChange::Color(color) => c.color.clone_from(color),
                // `None` (the user's default) is a value too.
                SubscriptionChange::DesktopNotifications(v) => c.desktop_notifications = *v,
                SubscriptionChange::AudibleNotifications(v) => c.audible_notifications = *v,
                SubscriptionChange::Folder(folder) => c.folder_id = *folder,
                SubscriptionChange::Other { .. } => {}
            }
            if c.muted != was {
                let muted = c.muted;
                return super::navigation::feed_after_mute(st, muted);
            }
        }
        SubscriptionEvent::Add(subscriptions) => {
            for s in subscriptions {
                st.data.unsubscribed.remove(&s.stream_id);
                super::directory::count_subscribers(st, s.stream_id, 1);
                st.data.channels.insert(s.stream_id, channel_info(s));
            }
        }
        SubscriptionEvent::Remove(ids) => {
            for id in ids {
                if let Some(c) = st.data.channels.remove(id) {
                    st.data.unsubscribed.insert(*id, c.name);
                }
                super::directory::count_subscribers(st, *id, -1);
            }
        }
        SubscriptionEvent::PeerAdd { stream_ids, user_ids } => {
            peers_changed(st, stream_ids, user_ids.len() as i64)
        }
        SubscriptionEvent::PeerRemove { stream_ids, user_ids } => {
            peers_changed(st, stream_ids, -(user_ids.len() as i64));
        }
        SubscriptionEvent::Other(_) => {}
    }
    vec![]
}

/// Others subscribed to channels (`n` of them) or left them (`-n`).
fn peers_changed(st: &mut State, stream_ids: &[ChannelId], n: i64) {
    for id in stream_ids {
        super::directory::count_subscribers(st, *id, n);
    }
}

/// Channels deleted, archived or changed (name, description) while subscribed.
pub(super) fn on_stream(st: &mut State, ev: StreamEvent) {
    let gone: Vec<ChannelId> = match ev {
        StreamEvent::Delete(ids) => ids,
        StreamEvent::Update { stream_id, change } => {
            let Some(c) = st.data.channels.get_mut(&stream_id) else { return };
            match change {
                StreamChange::Archived(true) => return forget(st, vec![stream_id]),
                StreamChange::Name(n) => c.name = n,
                StreamChange::Description(d) => c.description = d,
                // Into a folder, or out of every folder (`None`).
                StreamChange::Folder(folder) => c.folder_id = folder,
                StreamChange::CanCreateTopicGroup(setting) => c.can_create_topic_group = setting,
                StreamChange::Archived(false) | StreamChange::Other { .. } => return,
            }
            vec![]
        }
        StreamEvent::Create | StreamEvent::Other(_) => vec![],
    };
    forget(st, gone);
}

/// Channels gone (deleted or archived) forgotten, and the sidebar rebuilt.
fn forget(st: &mut State, gone: Vec<ChannelId>) {
    let mut any = false;
    for id in gone {
        any |= st.data.channels.remove(&id).is_some();
        if st.ui.expanded == Some(id) {
            st.ui.expanded = None;
        }
    }
    if any {
        set_status(st, "a channel you were subscribed to was archived");
    }
    rebuild_sidebar(st);
}

/// Channel folders added, renamed, archived or reordered.
pub(super) fn on_folder(st: &mut State, ev: ChannelFolderEvent) {
    let folders = &mut st.data.channel_folders;
    match ev {
        ChannelFolderEvent::Add(f) => {
            folders.insert(f.id, f);
        }
        ChannelFolderEvent::Update { id, name, is_archived } => {
            if let Some(f) = folders.get_mut(&id) {
                f.name = name.unwrap_or_else(|| std::mem::take(&mut f.name));
                f.is_archived = is_archived.unwrap_or(f.is_archived);
            }
        }
        ChannelFolderEvent::Reorder(order) => {
            for (i, id) in order.iter().enumerate() {
                if let Some(f) = folders.get_mut(id) {
                    f.order = i as i64;
                }
            }
        }
    }
}
