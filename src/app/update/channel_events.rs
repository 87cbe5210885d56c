//! Channel events: subscriptions (the user's and others'), channels changed, archived or
//! deleted, and channel folders — each applied to the channels the client holds.

use super::common::*;
use super::prelude::*;

/// The user's subscriptions (added, removed, a property changed) and others' (counts).
pub(super) fn on_subscription(st: &mut State, ev: &SubscriptionEvent) -> Vec<Effect> {
    match ev.op.as_str() {
        "update" => {
            if let (Some(id), Some(prop), Some(v)) = (ev.stream_id, ev.property.as_deref(), ev.value.as_ref())
                && let Some(c) = st.data.channels.get_mut(&id)
            {
                let was = c.muted;
                match prop {
                    // Zulip sends both (`in_home_view` is the legacy inverse).
                    "is_muted" => c.muted = v.as_bool().unwrap_or(c.muted),
                    "in_home_view" => c.muted = !v.as_bool().unwrap_or(!c.muted),
                    "pin_to_top" => c.pinned = v.as_bool().unwrap_or(c.pinned),
                    "color" => c.color = v.as_str().unwrap_or(&c.color).to_owned(),
                    // `null` (the user's default) is a value too.
                    "desktop_notifications" => c.desktop_notifications = v.as_bool(),
                    "audible_notifications" => c.audible_notifications = v.as_bool(),
                    "folder_id" => c.folder_id = v.as_i64(),
                    _ => {}
                }
                if c.muted != was {
                    let muted = c.muted;
                    return super::navigation::feed_after_mute(st, muted);
                }
            }
        }
        "add" => {
            for s in ev.subscriptions.iter().flatten() {
                if let Ok(s) = serde_json::from_value::<Subscription>(s.clone()) {
                    st.data.unsubscribed.remove(&s.stream_id);
                    super::directory::count_subscribers(st, s.stream_id, 1);
                    st.data.channels.insert(s.stream_id, channel_info(&s));
                }
            }
        }
        "remove" => {
            for s in ev.subscriptions.iter().flatten() {
                if let Some(id) = s.get("stream_id").and_then(|v| v.as_i64()) {
                    if let Some(c) = st.data.channels.remove(&id) {
                        st.data.unsubscribed.insert(id, c.name);
                    }
                    super::directory::count_subscribers(st, id, -1);
                }
            }
        }
        "peer_add" | "peer_remove" => {
            let n = ev.user_ids.as_ref().map_or(0, Vec::len) as i64;
            let n = if ev.op == "peer_add" { n } else { -n };
            for id in ev.stream_ids.iter().flatten() {
                super::directory::count_subscribers(st, *id, n);
            }
        }
        _ => {}
    }
    vec![]
}

/// Channels deleted, archived or changed (name, description) while subscribed.
pub(super) fn on_stream(st: &mut State, ev: OpValueEvent) {
    let id_of = |v: &serde_json::Value| v.get("stream_id").and_then(|i| i.as_i64());
    let gone: Vec<ChannelId> = match ev.op.as_deref() {
        Some("delete") => {
            let mut ids: Vec<ChannelId> = ev
                .fields
                .get("stream_ids")
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|i| i.as_i64()).collect())
                .unwrap_or_default();
            if let Some(streams) = ev.fields.get("streams").and_then(|v| v.as_array()) {
                ids.extend(streams.iter().filter_map(id_of));
            }
            ids
        }
        Some("update") => {
            let Some(id) = ev.fields.get("stream_id").and_then(|i| i.as_i64()) else { return };
            let prop = ev.fields.get("property").and_then(|p| p.as_str()).unwrap_or_default();
            let value = ev.fields.get("value");
            let Some(c) = st.data.channels.get_mut(&id) else { return };
            match (prop, value) {
                ("name", Some(serde_json::Value::String(n))) => c.name = n.clone(),
                ("description", Some(serde_json::Value::String(d))) => c.description = d.clone(),
                ("is_archived", Some(serde_json::Value::Bool(true))) => {}
                // Into a folder, or out of every folder (`null`).
                ("folder_id", Some(v)) => c.folder_id = v.as_i64(),
                ("can_create_topic_group", Some(v)) => {
                    c.can_create_topic_group = serde_json::from_value(v.clone()).ok();
                }
                _ => return,
            }
            if prop == "is_archived" { vec![id] } else { vec![] }
        }
        _ => vec![],
    };
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
