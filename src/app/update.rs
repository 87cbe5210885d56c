//! `update(&mut State, Msg) -> Vec<Effect>`: all behaviour, no I/O.

use super::keymap::{Action, Context};
use super::narrow::{Narrow, dm_key, parse_search};
use super::*;
use crate::api::*;
use crate::backoff::{Backoff, pseudo_random};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::HashMap;

mod complete;
mod outbox;
mod outside;
mod server_drafts;
pub use outbox::pending_in;
pub use outside::{message_link, plain_text};
pub use server_drafts::ServerDrafts;

/// Messages fetched around the anchor when a narrow opens, and per page when scrolling back.
pub const PAGE: u64 = 50;

/// Apply one input; return what must happen outside.
pub fn update(st: &mut State, msg: Msg) -> Vec<Effect> {
    let (prompt_before, status_before) = (st.ui.prompt.is_some(), st.ui.status.clone());
    let mut fx = apply(st, msg);
    // A prompt opens on a clean line: what was said before it does not linger there.
    if !prompt_before && st.ui.prompt.is_some() && st.ui.status == status_before {
        st.ui.status = None;
    }
    // Every local draft save is followed on the server.
    server_drafts::follow(st, &mut fx);
    fx
}

fn apply(st: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(key) => on_key(st, key),
        Msg::Paste(text) => on_paste(st, &text),
        Msg::Focus(focused) => {
            st.ui.unfocused = !focused;
            // Report the change now rather than at the next interval.
            let active = focused && st.now - st.ui.last_input < IDLE_AFTER;
            if st.data.queue_id.is_none() {
                return vec![];
            }
            if focused {
                st.ui.last_input = st.now;
            }
            st.ui.last_ping = st.now;
            vec![Effect::Ping { active: active || focused, last_update_id: st.data.presence_last_update_id }]
        }
        Msg::Scroll { sidebar, lines } => {
            if st.ui.popup.is_some() || st.ui.prompt.is_some() {
                return vec![];
            }
            st.ui.focus = if sidebar { Focus::Sidebar } else { Focus::Messages };
            on_action(st, if lines < 0 { Action::Up } else { Action::Down })
        }
        Msg::ClickSidebar(row) => {
            if row >= st.ui.sidebar.len() || st.ui.popup.is_some() || st.ui.prompt.is_some() {
                return vec![];
            }
            st.ui.focus = Focus::Sidebar;
            st.ui.sidebar_selected = row;
            on_action(st, Action::Open)
        }
        Msg::ClickMessage(id) => {
            if st.ui.popup.is_some() || st.ui.prompt.is_some() {
                return vec![];
            }
            st.ui.focus = Focus::Messages;
            st.ui.selected = Some(id);
            mark_selected_read(st)
        }
        Msg::Tick(now) => on_tick(st, now),
        Msg::Scheduled(Ok(note)) => {
            let fx: Vec<Effect> =
                st.ui.compose.take().map(|c| drop_draft(st, c.draft_key())).into_iter().collect();
            set_status(st, note);
            fx
        }
        Msg::Scheduled(Err(e)) => {
            set_error(st, format!("not scheduled: {e}"));
            vec![]
        }
        Msg::Presence(resp) => {
            if let Some(p) = &resp.presences {
                st.data.presence.extend(p.modern());
            }
            if let Some(id) = resp.presence_last_update_id {
                st.data.presence_last_update_id = st.data.presence_last_update_id.max(id);
            }
            rebuild_people(st);
            vec![]
        }
        Msg::Registered(resp) => on_registered(st, *resp),
        Msg::RegisterFailed(why) => {
            st.ui.loading = false;
            // Back off exponentially up to a minute, with jitter so that many clients of a
            // restarted server do not come back in step.
            let attempts = st.ui.offline.as_ref().map_or(0, |o| o.attempts) + 1;
            let wait = Backoff::CLIENT.delay_secs(attempts, pseudo_random(st.now, attempts));
            let retry_at = st.now + wait;
            st.ui.offline = Some(Offline { why, retry_at, attempts, register_due: true });
            vec![]
        }
        Msg::Offline { why, retry_in } => {
            let attempts = st.ui.offline.as_ref().map_or(0, |o| o.attempts);
            st.ui.offline =
                Some(Offline { why, retry_at: st.now + retry_in as i64, attempts, register_due: false });
            vec![]
        }
        Msg::Online => {
            if st.ui.offline.take().is_some() {
                set_status(st, "back online");
            }
            outbox::pump(st)
        }
        Msg::Messages { narrow, resp, older, epoch } => {
            // A page asked for an earlier incarnation of the window would leave a gap.
            if epoch != 0 && st.data.epoch(&narrow) != epoch {
                return vec![];
            }
            let mut fx = on_messages(st, narrow, *resp, older);
            fx.extend(outbox::reap(st));
            fx
        }
        Msg::MessagesFailed { narrow, error } => {
            if let Some(v) = st.data.narrows.get_mut(&narrow) {
                v.loading_older = false;
                v.loading_newer = false;
            }
            set_error(st, format!("loading messages failed: {error}"));
            vec![]
        }
        Msg::DraftsLoaded(drafts) => {
            let (unsent, drafts): (Vec<_>, Vec<_>) =
                drafts.into_iter().partition(|(k, _)| k.starts_with("outbox-"));
            for (k, v) in drafts {
                // What is on this machine wins over a copy from the server; text typed since
                // start-up wins over both.
                let from_server =
                    st.data.server_drafts.as_ref().and_then(|sd| sd.by_key.get(&k)).map(|(_, c)| c);
                if st.drafts.get(&k).is_none_or(|cur| Some(cur) == from_server) {
                    st.drafts.insert(k, v);
                }
            }
            unsent.into_iter().flat_map(|(k, v)| outbox::restore(st, &k, &v)).collect()
        }
        Msg::Subscriptions(subs) => {
            st.data.channels = subs.iter().map(|s| (s.stream_id, channel_info(s))).collect();
            rebuild_sidebar(st);
            vec![]
        }
        Msg::Topics { channel, topics } => {
            let list = st.data.topics.entry(channel).or_default();
            for t in topics {
                list.touch(&t.name, t.max_id);
            }
            list.loaded = true;
            list.loading = false;
            rebuild_sidebar(st);
            // A `#channel>topic` completion may be waiting for these.
            if st.ui.compose.is_some() {
                suggest(st)
            } else if st.ui.prompt.as_ref().is_some_and(|p| complete::completes(p.kind))
                && st.ui.completion.cycle.is_none()
            {
                complete::suggest(st)
            } else {
                vec![]
            }
        }
        Msg::Events(events) => {
            let mut fx = Vec::new();
            let (mut sidebar, mut people) = (false, false);
            for e in events {
                st.data.last_event_id = st.data.last_event_id.max(e.id);
                // Rows and the people list change only for some events; rebuilding them for
                // every typing notice would be O(channels + users) per event.
                let expanded = st.ui.expanded;
                sidebar |= match &e.kind {
                    EventKind::Subscription(_) => true,
                    // Rows list topics only for the expanded channel.
                    EventKind::Message(m) => expanded.is_some() && m.message.stream_id == expanded,
                    EventKind::UpdateMessage(_) | EventKind::DeleteMessage(_) => expanded.is_some(),
                    _ => false,
                };
                people |= matches!(
                    e.kind,
                    EventKind::Presence(_) | EventKind::UserStatus(_) | EventKind::RealmUser(_)
                );
                fx.extend(on_event(st, e.kind));
            }
            if sidebar {
                rebuild_sidebar(st);
            }
            if people {
                rebuild_people(st);
            }
            fx
        }
        Msg::AuthLost(why) => {
            st.ui.fatal = Some(format!("the server refused this account: {why}"));
            st.ui.quit = true;
            vec![Effect::Quit]
        }
        Msg::QueueLost => {
            set_status(st, "event queue expired; resynchronising…");
            vec![Effect::Register]
        }
        Msg::QueueUnreadable => {
            set_error(st, "the server kept sending events this client cannot read; resynchronising…");
            vec![Effect::Register]
        }
        Msg::Sent { local_id, result } => outbox::on_sent(st, &local_id, result),
        Msg::DraftPushed { key, content, result } => server_drafts::on_pushed(st, key, content, result),
        Msg::History { message_id, result } => {
            match (&mut st.ui.popup, result) {
                (Some(Popup::EditHistory { message_id: m, snapshots, .. }), Ok(s)) if *m == message_id => {
                    *snapshots = Some(s);
                }
                (_, Err(e)) => {
                    st.ui.popup = None;
                    set_error(st, format!("edit history: {e}"));
                }
                _ => {}
            }
            vec![]
        }
        Msg::Raw { message_id, edit, result } => match result {
            Ok(raw) => {
                let Some(m) = st.data.messages.get(&message_id) else { return vec![] };
                let target = target_of(st, m);
                let text = if edit { raw } else { quote_reply(st, m, &raw) };
                open_compose(st, target, &text, edit.then_some(message_id));
                if edit {
                    return vec![Effect::EditTyping { message_id, start: true }];
                }
                vec![]
            }
            Err(e) => {
                set_error(st, e);
                vec![]
            }
        },
        Msg::Edited(Ok(_)) => {
            let fx: Vec<Effect> =
                st.ui.compose.take().map(|c| drop_draft(st, c.draft_key())).into_iter().collect();
            set_status(st, "saved");
            fx
        }
        Msg::EditorDone(result) => outside::editor_done(st, result),
        Msg::Edited(Err(e)) => {
            set_error(st, format!("not saved: {e}"));
            vec![]
        }
        Msg::Done(Ok(note)) => {
            if !note.is_empty() {
                set_status(st, note);
            }
            vec![]
        }
        Msg::ChannelEmail(Ok(email)) => {
            set_status(st, format!("channel email copied: {email}"));
            vec![Effect::Copy(email)]
        }
        Msg::ChannelEmail(Err(e)) => {
            set_error(st, format!("channel email: {e}"));
            vec![]
        }
        Msg::Done(Err(e)) => {
            set_error(st, e);
            vec![]
        }
    }
}

/// The web app's quote-and-reply text: a silent mention linking to the message, then the raw
/// Markdown in a `quote` fence longer than any fence inside it, and a fresh line for the reply
/// (a `> ` quote would swallow the reply as a lazy continuation line).
fn quote_reply(st: &State, m: &Message, raw: &str) -> String {
    let longest = raw
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let n = t.chars().take_while(|c| *c == '`').count();
            (n >= 3).then_some(n)
        })
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let link = outside::message_link(st, m);
    format!(
        "@_**{}|{}** [said]({link}):\n{fence}quote\n{}\n{fence}\n",
        m.sender_full_name,
        m.sender_id,
        raw.trim_end_matches('\n')
    )
}

fn set_status(st: &mut State, text: impl Into<String>) {
    st.ui.status = Some(Status { text: text.into(), error: false, at: st.now });
}

fn set_error(st: &mut State, text: impl Into<String>) {
    st.ui.status = Some(Status { text: text.into(), error: true, at: st.now });
}

fn on_registered(st: &mut State, r: RegisterResponse) -> Vec<Effect> {
    if st.ui.offline.take().is_some() {
        set_status(st, "back online");
    }
    let d = &mut st.data;
    d.me = r.user_id.unwrap_or(d.me);
    d.realm = RealmInfo {
        name: r.realm_name.clone().unwrap_or_default(),
        feature_level: r.zulip_feature_level,
        empty_topic_name: r.realm_empty_topic_display_name.clone().unwrap_or_else(|| "general chat".into()),
        max_message_length: r.max_message_length,
        max_topic_length: r.max_topic_length,
        // Before level 435 the server does not list them: the five fixed ones.
        report_types: r.server_report_message_types.clone().unwrap_or_else(|| {
            [
                ("spam", "Spam"),
                ("harassment", "Harassment"),
                ("inappropriate", "Inappropriate content"),
                ("norms", "Violates community norms"),
                ("other", "Other reason"),
            ]
            .iter()
            .map(|(k, n)| ReportType { key: (*k).into(), name: (*n).into() })
            .collect()
        }),
        moderation_channel: r.realm_moderation_request_channel_id.filter(|id| *id > 0),
        allow_edit_history: r.realm_allow_edit_history.unwrap_or(true),
        ping_interval: r.server_presence_ping_interval_seconds.unwrap_or(60),
        offline_threshold: r.server_presence_offline_threshold_seconds.unwrap_or(140) as i64,
        longpoll_timeout: r.event_queue_longpoll_timeout_seconds.unwrap_or(90),
    };
    let statuses = r.user_status.clone().unwrap_or_default();
    for u in r
        .realm_users
        .iter()
        .flatten()
        .chain(r.realm_non_active_users.iter().flatten())
        .chain(r.cross_realm_bots.iter().flatten())
    {
        let status = statuses.get(&u.user_id.to_string()).cloned().unwrap_or_default();
        d.users.insert(
            u.user_id,
            UserInfo {
                id: u.user_id,
                full_name: u.full_name.clone(),
                email: u.email.clone(),
                is_bot: u.is_bot,
                is_active: u.is_active,
                presence_enabled: u.presence_enabled,
                status,
                role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
            },
        );
    }
    d.channels = r.subscriptions.iter().flatten().map(|s| (s.stream_id, channel_info(s))).collect();
    d.user_topics.clear();
    for t in r.user_topics.iter().flatten() {
        d.user_topics.insert((t.stream_id, t.topic_name.to_lowercase()), t.visibility_policy);
    }
    // Servers before level 170 list muted topics as [channel name, topic, time].
    if r.user_topics.is_none() {
        for m in r.muted_topics.iter().flatten() {
            let (Some(name), Some(topic)) =
                (m.get(0).and_then(|v| v.as_str()), m.get(1).and_then(|v| v.as_str()))
            else {
                continue;
            };
            if let Some(c) = d.channels.values().find(|c| c.name == name) {
                d.user_topics.insert((c.id, topic.to_lowercase()), VisibilityPolicy::Muted);
            }
        }
    }
    d.unread.clear();
    if let Some(u) = &r.unread_msgs {
        for s in &u.streams {
            for id in &s.unread_message_ids {
                d.unread.add(*id, Conv::Topic(s.stream_id, s.topic.to_lowercase()));
                d.topics.entry(s.stream_id).or_default().touch(&s.topic, *id);
            }
        }
        for dm in u.direct() {
            if let Some(other) = dm.other() {
                let key = if other == d.me { vec![] } else { vec![other] };
                for id in &dm.unread_message_ids {
                    d.unread.add(*id, Conv::Dm(key.clone()));
                }
            }
        }
        for h in &u.huddles {
            let users: Vec<UserId> = h.user_ids_string.split(',').filter_map(|x| x.parse().ok()).collect();
            for id in &h.unread_message_ids {
                d.unread.add(*id, Conv::Dm(dm_key(&users, d.me)));
            }
        }
        d.unread.mentions.extend(u.mentions.iter().copied());
    }
    if let Some(p) = &r.presences {
        d.presence = p.modern();
    }
    d.presence_last_update_id = r.presence_last_update_id.unwrap_or(-1);
    d.scheduled =
        r.scheduled_messages.iter().flatten().map(|s| (s.scheduled_message_id, s.clone())).collect();
    d.realm_emoji = r.realm_emoji.clone().unwrap_or_default();
    d.groups = r.realm_user_groups.iter().flatten().map(|g| (g.id, g.clone())).collect();
    d.queue_id = r.queue_id.clone();
    d.last_event_id = r.last_event_id;
    st.ui.loading = false;
    server_drafts::on_register(st, r.drafts.clone(), r.user_settings.as_ref());
    st.data.nav_views = r.navigation_views.clone().unwrap_or_default();
    st.data.playgrounds = r.realm_playgrounds.clone().unwrap_or_default();
    rebuild_sidebar(st);
    rebuild_people(st);
    super::settings::apply_start(st);
    // After a lost queue, every loaded window may have missed messages, edits and deletions:
    // refetch each from its newest loaded message on (a page back refreshes what is shown);
    // the answers replace what they cover, so nothing is doubled or kept after deletion.
    let mut fx = resync_narrows(st);
    // The shown narrow keeps its selection when it is being resynchronised.
    if !st.data.narrows.contains_key(&st.ui.narrow) {
        let focus = st.ui.focus;
        fx.extend(open_narrow(st, st.ui.narrow.clone()));
        st.ui.focus = focus;
    }
    fx.push(Effect::FetchSubscriptions);
    fx.extend(outbox::pump(st));
    if let Some(q) = st.data.queue_id.clone() {
        fx.push(Effect::PollEvents {
            queue_id: q,
            last_event_id: st.data.last_event_id,
            timeout_secs: st.data.realm.longpoll_timeout,
        });
    }
    fx
}

/// Messages fetched after the newest loaded one when resynchronising a window.
const RESYNC_AFTER: u64 = 4 * PAGE;

fn resync_narrows(st: &mut State) -> Vec<Effect> {
    let me = st.data.me;
    let op = dm_operator(st);
    let mut fx = Vec::new();
    // Windows still loading or empty are loaded anew when shown.
    st.data.narrows.retain(|_, v| v.loaded && !v.ids.is_empty());
    let epochs = &mut st.data.epochs;
    for (narrow, view) in st.data.narrows.iter_mut() {
        let newest = view.ids[view.ids.len() - 1];
        view.loading_newer = true;
        view.loading_older = false;
        // Pages asked for before the loss are dropped: this one replaces them.
        *epochs += 1;
        view.epoch = *epochs;
        fx.push(Effect::FetchMessages {
            narrow: narrow.clone(),
            terms: narrow.terms(me, op),
            anchor: Anchor::Id(newest),
            before: PAGE,
            after: RESYNC_AFTER,
            older: false,
            epoch: view.epoch,
        });
    }
    fx
}

/// Channels deleted, archived or changed (name, description) while subscribed.
fn on_stream_event(st: &mut State, ev: OpValueEvent) {
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

fn channel_info(s: &Subscription) -> ChannelInfo {
    ChannelInfo {
        id: s.stream_id,
        name: s.name.clone(),
        description: s.description.clone(),
        color: s.color.clone(),
        pinned: s.pin_to_top,
        muted: s.is_muted,
        invite_only: s.invite_only,
    }
}

/// Rebuild the people list: active, then idle, then offline; by name within each.
/// Only while the pane is shown: it sorts every user.
pub fn rebuild_people(st: &mut State) {
    if !st.ui.show_people {
        return;
    }
    let d = &st.data;
    let now = st.now;
    let mut people: Vec<(u8, String, UserId)> = d
        .users
        .values()
        .filter(|u| u.is_active && !u.is_bot)
        .map(|u| {
            let rank = match d.activity(u.id, now) {
                Activity::Active => 0,
                Activity::Idle => 1,
                Activity::Offline => 2,
            };
            (rank, u.full_name.to_lowercase(), u.id)
        })
        .collect();
    people.sort();
    st.ui.people = people.into_iter().map(|(_, _, id)| id).collect();
}

/// Rebuild the channels pane's rows (on changes only, not per frame).
pub fn rebuild_sidebar(st: &mut State) {
    let d = &st.data;
    let mut chans: Vec<&ChannelInfo> = d.channels.values().collect();
    chans.sort_by_key(|c| (!c.pinned, c.muted, c.name.to_lowercase()));
    let mut rows =
        vec![SidebarRow::AllMessages, SidebarRow::AllDms, SidebarRow::Starred, SidebarRow::Mentions];
    for c in chans {
        rows.push(SidebarRow::Channel(c.id));
        if st.ui.expanded == Some(c.id)
            && let Some(list) = d.topics.get(&c.id)
        {
            rows.extend(list.topics.iter().map(|t| SidebarRow::Topic(c.id, t.name.clone())));
        }
    }
    let prev = st.ui.sidebar.get(st.ui.sidebar_selected).cloned();
    st.ui.sidebar = rows;
    if let Some(p) = prev
        && let Some(i) = st.ui.sidebar.iter().position(|r| *r == p)
    {
        st.ui.sidebar_selected = i;
    }
    st.ui.sidebar_selected = st.ui.sidebar_selected.min(st.ui.sidebar.len().saturating_sub(1));
}

fn dm_operator(st: &State) -> &'static str {
    st.data.realm.dm_operator()
}

/// Switch to a narrow, fetching its first page if needed.
pub fn open_narrow(st: &mut State, narrow: Narrow) -> Vec<Effect> {
    st.ui.narrow = narrow.clone();
    st.ui.selected = None;
    st.ui.focus = Focus::Messages;
    if st.data.narrows.get(&narrow).is_some_and(|v| v.loaded || v.loading_newer) {
        if narrow == Narrow::Starred {
            // Messages unstarred while the view was on screen leave it now.
            let msgs = &st.data.messages;
            if let Some(v) = st.data.narrows.get_mut(&narrow) {
                v.ids.retain(|id| msgs.get(id).is_none_or(|m| m.has_flag("starred")));
            }
        }
        select_initial(st);
        // Reopening a conversation reads its first unread message, as the first opening did.
        return mark_selected_read(st);
    }
    let epoch = st.data.reset_view(&narrow);
    let terms = narrow.terms(st.data.me, dm_operator(st));
    vec![Effect::FetchMessages {
        narrow,
        terms,
        anchor: Anchor::FirstUnread,
        before: PAGE,
        after: PAGE,
        older: false,
        epoch,
    }]
}

fn select_initial(st: &mut State) {
    let Some(view) = st.data.narrows.get(&st.ui.narrow) else { return };
    let first_unread = view.ids.iter().copied().find(|id| st.data.unread.by_id.contains_key(id));
    st.ui.selected = first_unread.or_else(|| view.ids.last().copied());
}

fn on_messages(st: &mut State, narrow: Narrow, resp: MessagesResponse, older: bool) -> Vec<Effect> {
    let ids: Vec<MessageId> = resp.messages.iter().map(|m| m.id).collect();
    let mut ids_sorted = ids.clone();
    ids_sorted.sort_unstable();
    // The server's computed anchor is the first message on or after the date.
    let date_anchor = match st.ui.date_jump.take() {
        Some(date) if narrow == st.ui.narrow && !older => resp.anchor.map(|a| (a, date)),
        other => {
            st.ui.date_jump = other;
            None
        }
    };
    for m in resp.messages {
        st.data.insert_message(m);
    }
    let keep: Vec<MessageId> = if narrow == Narrow::All {
        ids.into_iter().filter(|id| st.data.messages.get(id).is_some_and(|m| st.data.in_feed(m))).collect()
    } else {
        ids
    };
    let view = st.data.narrows.entry(narrow.clone()).or_default();
    // A page is the truth for the range it covers: drop what is no longer there (deleted or
    // moved away while the queue was lost).
    if let (Some(lo), Some(hi)) = (ids_sorted.first(), ids_sorted.last()) {
        view.ids.retain(|id| id < lo || id > hi || ids_sorted.binary_search(id).is_ok());
    }
    view.merge(keep);
    if older {
        view.found_oldest = resp.found_oldest;
        view.loading_older = false;
    } else {
        view.found_oldest |= resp.found_oldest;
        view.found_newest = resp.found_newest;
        view.loading_newer = false;
    }
    view.loaded = true;
    if let Some((anchor, date)) = date_anchor {
        // The anchor itself may be hidden (a muted topic in the feed): take the next shown one.
        let on_or_after = view.ids.iter().copied().find(|id| *id >= anchor);
        st.ui.selected = on_or_after.or(view.ids.last().copied());
        if on_or_after.is_none() {
            set_status(st, format!("nothing here on or after {date}: showing the newest message"));
        }
    }
    rebuild_sidebar(st);
    apply_jump(st);
    if narrow == st.ui.narrow && st.ui.selected.is_none() {
        select_initial(st);
        return mark_selected_read(st);
    }
    vec![]
}

/// The selected message, if any.
pub fn selected_message(st: &State) -> Option<&Message> {
    st.ui.selected.and_then(|id| st.data.messages.get(&id))
}

fn mark_selected_read(st: &mut State) -> Vec<Effect> {
    let Some(id) = st.ui.selected else { return vec![] };
    if !st.data.unread.by_id.contains_key(&id) {
        return vec![];
    }
    st.data.unread.remove(id);
    if let Some(m) = st.data.messages.get_mut(&id)
        && !m.has_flag("read")
    {
        m.flags.push("read".into());
    }
    vec![Effect::MarkRead(vec![id])]
}

fn move_selection(st: &mut State, delta: isize) -> Vec<Effect> {
    let Some(view) = st.data.narrows.get(&st.ui.narrow) else { return vec![] };
    if view.ids.is_empty() {
        return vec![];
    }
    let pos = st.ui.selected.and_then(|id| view.ids.binary_search(&id).ok()).unwrap_or(view.ids.len() - 1);
    let new = (pos as isize + delta).clamp(0, view.ids.len() as isize - 1) as usize;
    st.ui.selected = Some(view.ids[new]);
    let mut fx = mark_selected_read(st);
    // Near the bottom of a window that does not reach the newest messages: page newer ones in;
    // near the top, older history.
    let view = st.data.narrows.get_mut(&st.ui.narrow).expect("view exists");
    let newer = new + 5 >= view.ids.len() && !view.found_newest && !view.loading_newer;
    let older = new < 5 && !view.found_oldest && !view.loading_older;
    view.loading_newer |= newer;
    view.loading_older |= older;
    let (first, last, epoch) = (view.ids[0], view.ids[view.ids.len() - 1], view.epoch);
    let narrow = st.ui.narrow.clone();
    let terms = narrow.terms(st.data.me, dm_operator(st));
    let page = |anchor, before, after, older| Effect::FetchMessages {
        narrow: narrow.clone(),
        terms: terms.clone(),
        anchor: Anchor::Id(anchor),
        before,
        after,
        older,
        epoch,
    };
    if newer {
        fx.push(page(last, 0, PAGE, false));
    }
    if older {
        fx.push(page(first, PAGE, 0, true));
    }
    fx
}

/// Seconds without input after which the user counts as idle.
pub const IDLE_AFTER: i64 = 300;

fn on_tick(st: &mut State, now: i64) -> Vec<Effect> {
    st.now = now;
    // Feedback expires, so an old remark is never taken for the answer to a later action.
    if st.ui.status.as_ref().is_some_and(|s| s.expired(now)) {
        st.ui.status = None;
    }
    st.ui.typing.retain(|t| t.until > now);
    if let Some(o) = &mut st.ui.offline
        && o.register_due
        && now >= o.retry_at
    {
        o.register_due = false;
        return vec![Effect::Register];
    }
    // Drafts reach the disk within a tick of typing.
    let mut fx = Vec::new();
    if st.ui.draft_dirty
        && let Some(c) = &st.ui.compose
    {
        st.ui.draft_dirty = false;
        let (key, text) = (c.draft_key(), c.text());
        st.drafts.insert(key.clone(), text.clone());
        fx.push(Effect::SaveDraft { key, text });
    }
    fx.extend(ping_if_due(st, now));
    fx.extend(server_drafts::flush(st));
    // A send waiting out its backoff.
    if st.outbox.iter().any(|o| matches!(o.state, OutState::Retry { at, .. } if at <= now)) {
        fx.extend(outbox::pump(st));
    }
    fx
}

fn ping_if_due(st: &mut State, now: i64) -> Vec<Effect> {
    if st.ui.loading || st.data.queue_id.is_none() {
        return vec![];
    }
    let interval = st.data.realm.ping_interval.max(10) as i64;
    if now - st.ui.last_ping < interval {
        return vec![];
    }
    st.ui.last_ping = now;
    let active = !st.ui.unfocused && now - st.ui.last_input < IDLE_AFTER;
    vec![Effect::Ping { active, last_update_id: st.data.presence_last_update_id }]
}

fn on_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    st.ui.last_input = st.now;
    if st.ui.prompt.is_some() {
        return on_prompt_key(st, key);
    }
    if st.ui.popup.is_some() {
        return on_popup_key(st, key);
    }
    if st.ui.compose.is_some() {
        return match st.settings.keymap.lookup(Context::Compose, &key) {
            Some(Action::Send) => send_compose(st),
            Some(Action::ExternalEditor) => outside::external_edit(st),
            Some(Action::Schedule) => {
                st.ui.prompt = Some(Prompt { kind: PromptKind::ScheduleTime, text: String::new() });
                vec![]
            }
            Some(Action::Cancel) => {
                let Some(c) = st.ui.compose.take() else { return vec![] };
                let text = c.text();
                let key = c.draft_key();
                let mut fx: Vec<Effect> = c
                    .editing
                    .map(|message_id| Effect::EditTyping { message_id, start: false })
                    .into_iter()
                    .collect();
                st.ui.draft_dirty = false;
                if text.trim().is_empty() {
                    st.drafts.remove(&key);
                    set_status(st, "closed");
                } else {
                    st.drafts.insert(key.clone(), text.clone());
                    set_status(st, "draft kept: reopen the conversation's compose box to continue");
                }
                fx.push(Effect::SaveDraft { key, text });
                fx
            }
            Some(a @ (Action::Complete | Action::CompleteBack)) => {
                complete::compose(st, a == Action::CompleteBack);
                vec![]
            }
            _ => {
                if let Some(c) = &mut st.ui.compose {
                    c.editor.input(key);
                    st.ui.draft_dirty = true;
                }
                suggest(st)
            }
        };
    }
    let ctx = match st.ui.focus {
        Focus::Sidebar => Context::Sidebar,
        Focus::Messages => Context::Messages,
    };
    match st.settings.keymap.lookup(ctx, &key) {
        Some(a) => on_action(st, a),
        None => vec![],
    }
}

/// A paste goes whole into the open prompt line (newlines become spaces: a paste never submits
/// it), else into the compose box; anywhere else it is ignored, so pasted text cannot run keys.
fn on_paste(st: &mut State, text: &str) -> Vec<Effect> {
    st.ui.last_input = st.now;
    // Terminals send a pasted line break as CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if let Some(p) = &mut st.ui.prompt {
        if p.kind != PromptKind::Confirm {
            let line = text.replace('\n', " ");
            p.text.extend(line.chars().filter(|c| !c.is_control()));
        }
        return vec![];
    }
    if st.ui.popup.is_some() {
        return vec![];
    }
    let Some(c) = &mut st.ui.compose else { return vec![] };
    let text: String = text.chars().filter(|&c| c == '\n' || c == '\t' || !c.is_control()).collect();
    c.editor.insert_str(text);
    st.ui.draft_dirty = true;
    suggest(st)
}

fn on_prompt_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(p) = &mut st.ui.prompt else { return vec![] };
    if p.kind == PromptKind::Confirm {
        st.ui.prompt = None;
        let pending = st.ui.confirm.take();
        if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
            return pending.map(|(_, e)| *e).into_iter().collect();
        }
        set_status(st, "cancelled");
        return vec![];
    }
    if p.kind == PromptKind::Command && key.code == KeyCode::Tab && !p.text.contains(' ') {
        let options = super::command::complete(&p.text);
        match options.as_slice() {
            [one] => p.text = format!("{one} "),
            [] => {}
            many => {
                // Extend to the longest common prefix and list the rest.
                let first = many[0];
                let common = (0..first.len())
                    .rev()
                    .map(|n| &first[..=n])
                    .find(|pre| many.iter().all(|o| o.starts_with(pre)))
                    .unwrap_or("");
                if common.len() > p.text.len() {
                    p.text = common.to_owned();
                }
                let list = many.join("  ");
                set_status(st, list);
            }
        }
        return vec![];
    }
    let completes = complete::completes(p.kind);
    if completes && matches!(key.code, KeyCode::Tab | KeyCode::BackTab) {
        return complete::prompt(st, key.code == KeyCode::BackTab);
    }
    match key.code {
        KeyCode::Esc => st.ui.prompt = None,
        KeyCode::Backspace => {
            p.text.pop();
        }
        KeyCode::Enter => {
            let p = st.ui.prompt.take().expect("prompt");
            st.ui.completion = Completion::default();
            return submit_prompt(st, p);
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => p.text.push(c),
        _ => return vec![],
    }
    if st.ui.prompt.is_none() {
        st.ui.completion = Completion::default();
        return vec![];
    }
    // The candidates follow what is typed.
    if completes { complete::suggest(st) } else { vec![] }
}

fn submit_prompt(st: &mut State, p: Prompt) -> Vec<Effect> {
    match p.kind {
        PromptKind::Confirm => vec![],
        PromptKind::OpenLink | PromptKind::CopyCode => match p.text.trim().parse::<usize>() {
            Ok(n) if p.kind == PromptKind::OpenLink => outside::open_link(st, Some(n)),
            Ok(n) => outside::copy_code(st, Some(n)),
            Err(_) => {
                set_error(st, "type a number");
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::Command => match super::command::parse(&p.text, st.data.realm.feature_level) {
            Ok(cmd) => match run_command(st, cmd) {
                Ok(fx) => fx,
                Err(e) => {
                    set_error(st, e);
                    st.ui.prompt = Some(p);
                    vec![]
                }
            },
            Err(e) => {
                set_error(st, e);
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::ScheduleTime => match super::when::parse_when(&p.text, st.now, st.tz) {
            Ok(at) => schedule_compose(st, at),
            Err(e) => {
                set_error(st, e);
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::Search => match parse_search(&p.text, &st.data) {
            Ok(terms) => {
                let narrow = Narrow::Search { query: p.text.clone(), terms };
                st.data.narrows.remove(&narrow);
                open_narrow(st, narrow)
            }
            Err(e) => {
                set_error(st, format!("search: {e}"));
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::ChannelTopic => {
            let (chan, topic) = p.text.split_once('>').unwrap_or((p.text.as_str(), ""));
            let chan = chan.trim().trim_start_matches('#');
            match super::narrow::Resolver::channel_id(&st.data, chan) {
                Some(id) => {
                    open_compose(st, Target::Channel { id, topic: topic.trim().to_owned() }, "", None);
                }
                None => {
                    set_error(st, format!("no channel named {chan:?}"));
                    st.ui.prompt = Some(p);
                }
            }
            vec![]
        }
        PromptKind::DmRecipients => {
            let mut ids = Vec::new();
            for who in p.text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                match super::narrow::Resolver::user_id(&st.data, who) {
                    Some(id) => ids.push(id),
                    None => {
                        set_error(st, format!("no user {who:?}"));
                        st.ui.prompt = Some(p);
                        return vec![];
                    }
                }
            }
            if ids.is_empty() {
                set_error(st, "name at least one recipient");
                st.ui.prompt = Some(p);
                return vec![];
            }
            open_compose(st, Target::Dm(dm_key(&ids, st.data.me)), "", None);
            vec![]
        }
    }
}

fn on_popup_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    if matches!(st.ui.popup, Some(Popup::Scheduled { .. })) {
        let ids: Vec<i64> = scheduled_in_order(st);
        let Some(Popup::Scheduled { selected }) = &mut st.ui.popup else { return vec![] };
        *selected = (*selected).min(ids.len().saturating_sub(1));
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
            KeyCode::Char('j') | KeyCode::Down => {
                *selected = (*selected + 1).min(ids.len().saturating_sub(1))
            }
            KeyCode::Char('k') | KeyCode::Up => *selected = selected.saturating_sub(1),
            KeyCode::Char('d') => {
                if let Some(sm) = ids.get(*selected).and_then(|id| st.data.scheduled.get(id)) {
                    let question = format!("Delete the scheduled message {}? (y/N)", scheduled_label(st, sm));
                    let effect = Effect::Api(ApiCall::DeleteScheduled(sm.scheduled_message_id));
                    confirm(st, question, effect);
                }
            }
            KeyCode::Char('e') | KeyCode::Enter => {
                if let Some(sm) = ids.get(*selected).and_then(|id| st.data.scheduled.get(id)).cloned() {
                    let target = match &sm.to {
                        Recipient::Channel(c) => {
                            Target::Channel { id: *c, topic: sm.topic.clone().unwrap_or_default() }
                        }
                        Recipient::Users(u) => Target::Dm(dm_key(u, st.data.me)),
                    };
                    let mut c = Compose::new(target.clone(), &sm.content, None);
                    c.scheduled = Some(sm.scheduled_message_id);
                    // An edit cancelled earlier was kept as a draft: continue it.
                    let draft = st.drafts.get(&c.draft_key()).filter(|d| !d.trim().is_empty());
                    let restored = draft.is_some_and(|d| *d != sm.content);
                    if let Some(d) = draft {
                        c = Compose::new(target, d, None);
                        c.scheduled = Some(sm.scheduled_message_id);
                    }
                    st.ui.compose = Some(c);
                    st.ui.popup = None;
                    let hint = match (sm.failed, restored) {
                        (true, _) => "this one failed: ctrl+s to pick a new time",
                        (false, true) => "draft restored: ctrl+d saves, ctrl+s changes the time",
                        (false, false) => "ctrl+d saves, ctrl+s changes the time",
                    };
                    set_status(st, hint);
                }
            }
            _ => {}
        }
        return vec![];
    }
    if let Some(Popup::Emoji { message_id, query, matches, selected }) = &mut st.ui.popup {
        match key.code {
            KeyCode::Esc => st.ui.popup = None,
            KeyCode::Down => *selected = (*selected + 1).min(matches.len().saturating_sub(1)),
            KeyCode::Up => *selected = selected.saturating_sub(1),
            KeyCode::Backspace => {
                query.pop();
                *matches = emoji_matches(&st.data, query, 200);
                *selected = 0;
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                query.push(c);
                *matches = emoji_matches(&st.data, query, 200);
                *selected = 0;
            }
            KeyCode::Enter => {
                let id = *message_id;
                let Some((name, code, kind)) = matches.get(*selected).cloned() else { return vec![] };
                st.ui.popup = None;
                let me = st.data.me;
                let mine = st
                    .data
                    .messages
                    .get(&id)
                    .and_then(|m| {
                        m.reactions.iter().find(|r| {
                            r.user_id == me && r.emoji_code == code && r.reaction_type.as_str() == kind
                        })
                    })
                    .cloned();
                // Removal sends the server's stored name, code and type.
                let (emoji, add) = match mine {
                    Some(r) => (EmojiSpec::from(&r), false),
                    None => (
                        EmojiSpec {
                            emoji_name: Some(name),
                            emoji_code: Some(code),
                            reaction_type: Some(kind),
                        },
                        true,
                    ),
                };
                return vec![Effect::React { message_id: id, emoji, add }];
            }
            _ => {}
        }
        return vec![];
    }
    let Some(popup) = &mut st.ui.popup else { return vec![] };
    let scroll = match popup {
        Popup::Help { scroll } | Popup::EditHistory { scroll, .. } | Popup::MessageInfo { scroll, .. } => {
            scroll
        }
        Popup::Scheduled { .. } | Popup::Emoji { .. } => return vec![],
    };
    // Never past the end as last drawn (`G` asks for "the end" before the view knows it).
    let bottom = st.ui.popup_bottom.get().unwrap_or(u16::MAX);
    *scroll = (*scroll).min(bottom);
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('?') => st.ui.popup = None,
        KeyCode::Char('j') | KeyCode::Down => *scroll = scroll.saturating_add(1).min(bottom),
        KeyCode::Char('k') | KeyCode::Up => *scroll = scroll.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => *scroll = scroll.saturating_add(10).min(bottom),
        KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
        KeyCode::Char('g') | KeyCode::Home => *scroll = 0,
        KeyCode::Char('G') | KeyCode::End => *scroll = bottom,
        _ => {}
    }
    vec![]
}

/// The channel of the selected sidebar row, when the sidebar has the focus and a channel row
/// (not one of its topics) is selected.
fn sidebar_channel(st: &State) -> Option<ChannelId> {
    match st.ui.sidebar.get(st.ui.sidebar_selected) {
        Some(SidebarRow::Channel(c)) if st.ui.focus == Focus::Sidebar => Some(*c),
        _ => None,
    }
}

/// `M` / `U` / `F` / `R` on a channel row act on the channel, as in the web app's channel menu.
fn channel_row_action(st: &mut State, a: Action) -> Vec<Effect> {
    let Some(c) = sidebar_channel(st) else { return vec![] };
    let name = st.data.channel_name(c).to_owned();
    match a {
        Action::MuteTopic | Action::UnmuteTopic => {
            let Some(ch) = st.data.channels.get_mut(&c) else { return vec![] };
            let muted = a == Action::MuteTopic && !ch.muted;
            if ch.muted == muted {
                set_status(st, format!("#{name} is not muted"));
                return vec![];
            }
            ch.muted = muted;
            // The combined feed leaves out muted channels' topics (those not unmuted or followed).
            let d = &st.data;
            let keep: Option<Vec<MessageId>> = d.narrows.get(&Narrow::All).map(|v| {
                v.ids.iter().copied().filter(|id| d.messages.get(id).is_none_or(|m| d.in_feed(m))).collect()
            });
            if let (Some(keep), Some(view)) = (keep, st.data.narrows.get_mut(&Narrow::All)) {
                // Unmuted: what was left out comes back with the next fetch.
                view.loaded &= muted;
                view.ids = keep;
            }
            rebuild_sidebar(st);
            set_status(st, format!("#{name}: {}…", if muted { "muting" } else { "unmuting" }));
            vec![Effect::SetChannelMuted { channel: c, name, muted }]
        }
        Action::MarkTopicRead => {
            let topics: Vec<String> =
                st.data.unread.by_channel.get(&c).map(|t| t.iter().cloned().collect()).unwrap_or_default();
            if topics.is_empty() {
                set_status(st, format!("#{name} has no unread messages"));
                return vec![];
            }
            for t in topics {
                let ids: Vec<MessageId> = st
                    .data
                    .unread
                    .by_conv
                    .get(&Conv::Topic(c, t))
                    .map(|s| s.iter().copied().collect())
                    .unwrap_or_default();
                for id in ids {
                    st.data.unread.remove(id);
                }
            }
            rebuild_sidebar(st);
            set_status(st, format!("marking #{name} as read…"));
            vec![Effect::MarkChannelRead { channel: c, name }]
        }
        _ => {
            set_status(st, "following is for topics: open the channel and pick one");
            vec![]
        }
    }
}

/// The conversation of the selected message or sidebar row, as (channel, topic).
fn current_topic(st: &State) -> Option<(ChannelId, String)> {
    if st.ui.focus == Focus::Sidebar
        && let Some(SidebarRow::Topic(c, t)) = st.ui.sidebar.get(st.ui.sidebar_selected)
    {
        return Some((*c, t.clone()));
    }
    let m = selected_message(st)?;
    Some((m.stream_id.filter(|_| !m.is_dm())?, m.topic().to_owned()))
}

fn target_of(st: &State, m: &Message) -> Target {
    match m.stream_id {
        Some(id) if !m.is_dm() => Target::Channel { id, topic: m.topic().to_owned() },
        _ => Target::Dm(dm_key(&m.dm_user_ids(), st.data.me)),
    }
}

fn on_action(st: &mut State, a: Action) -> Vec<Effect> {
    match a {
        Action::Quit => {
            st.ui.quit = true;
            vec![Effect::Quit]
        }
        Action::Help => {
            st.ui.popup = Some(Popup::Help { scroll: 0 });
            vec![]
        }
        Action::Cancel => {
            st.ui.status = None;
            vec![]
        }
        Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
            let delta: isize = match a {
                Action::Up => -1,
                Action::Down => 1,
                Action::PageUp => -10,
                Action::PageDown => 10,
                Action::Top => isize::MIN / 2,
                _ => isize::MAX / 2,
            };
            if st.ui.focus == Focus::Sidebar {
                let len = st.ui.sidebar.len() as isize;
                st.ui.sidebar_selected = (st.ui.sidebar_selected as isize)
                    .saturating_add(delta)
                    .clamp(0, (len - 1).max(0)) as usize;
                vec![]
            } else {
                move_selection(st, delta)
            }
        }
        Action::FocusSidebar => {
            st.ui.focus = Focus::Sidebar;
            vec![]
        }
        Action::FocusMessages => {
            st.ui.focus = Focus::Messages;
            vec![]
        }
        Action::Open => {
            let Some(row) = st.ui.sidebar.get(st.ui.sidebar_selected).cloned() else { return vec![] };
            let mut fx = Vec::new();
            if let SidebarRow::Channel(c) = row {
                if st.ui.expanded == Some(c) {
                    st.ui.expanded = None;
                } else {
                    st.ui.expanded = Some(c);
                    let list = st.data.topics.entry(c).or_default();
                    if !list.loaded && !list.loading {
                        list.loading = true;
                        fx.push(Effect::FetchTopics(c));
                    }
                }
                rebuild_sidebar(st);
            }
            fx.extend(open_narrow(st, row.narrow()));
            st.ui.focus = Focus::Sidebar;
            fx
        }
        Action::AllMessages => open_narrow(st, Narrow::All),
        Action::AllDms => open_narrow(st, Narrow::AllDms),
        Action::Starred => open_narrow(st, Narrow::Starred),
        Action::Mentions => open_narrow(st, Narrow::Mentions),
        Action::RetrySend => outbox::retry_now(st),
        Action::OpenLink => outside::open_link(st, None),
        // Only in the compose box.
        Action::ExternalEditor => vec![],
        Action::CopyLink => outside::copy_link(st),
        Action::CopyCode => outside::copy_code(st, None),
        Action::TakeBackUnsent => outbox::take_back(st),
        Action::TogglePeople => {
            st.ui.show_people = !st.ui.show_people;
            rebuild_people(st);
            vec![]
        }
        Action::Palette => {
            st.ui.prompt = Some(Prompt { kind: PromptKind::Command, text: String::new() });
            vec![]
        }
        Action::Search => {
            st.ui.prompt = Some(Prompt { kind: PromptKind::Search, text: String::new() });
            vec![]
        }
        Action::NextUnreadTopic => {
            let order: Vec<ChannelId> = st
                .ui
                .sidebar
                .iter()
                .filter_map(|r| if let SidebarRow::Channel(c) = r { Some(*c) } else { None })
                .collect();
            // Unread topics in sidebar order: channels as listed, topics by name. The next one
            // is the first after the current topic in that order (whether or not the current
            // one is still unread), wrapping around: never back to an earlier one first.
            let rank: HashMap<ChannelId, usize> = order.iter().enumerate().map(|(i, c)| (*c, i)).collect();
            let current = match &st.ui.narrow {
                Narrow::Topic(c, t) => rank.get(c).map(|r| (*r, t.to_lowercase())),
                Narrow::Channel(c) => rank.get(c).map(|r| (*r, String::new())),
                _ => None,
            };
            let mut candidates: Vec<(usize, ChannelId, String)> = Vec::new();
            for (r, c) in order.iter().enumerate() {
                if let Some(topics) = st.data.unread.by_channel.get(c) {
                    candidates.extend(
                        topics.iter().filter(|t| !st.data.topic_muted(*c, t)).map(|t| (r, *c, t.clone())),
                    );
                }
            }
            let next = match &current {
                Some((r, t)) => candidates
                    .iter()
                    .find(|(cr, _, ct)| (cr, ct) > (r, t))
                    .or(candidates.iter().find(|(cr, _, ct)| (cr, ct) != (r, t)))
                    .or(candidates.first()),
                None => candidates.first(),
            }
            .map(|(_, c, t)| (*c, t.clone()));
            match next {
                Some((c, t)) => {
                    // Use the topic's display name from any unread message in it.
                    let name = st
                        .data
                        .unread
                        .by_conv
                        .get(&Conv::Topic(c, t.clone()))
                        .and_then(|ids| ids.iter().find_map(|id| st.data.messages.get(id)))
                        .map(|m| m.topic().to_owned())
                        .or_else(|| {
                            st.data
                                .topics
                                .get(&c)
                                .and_then(|l| l.topics.iter().find(|x| x.name.to_lowercase() == t))
                                .map(|x| x.name.clone())
                        })
                        .unwrap_or(t);
                    open_narrow(st, Narrow::Topic(c, name))
                }
                None => {
                    set_status(st, "no unread topics");
                    vec![]
                }
            }
        }
        Action::NextUnreadDm => {
            let next = st
                .data
                .unread
                .by_conv
                .keys()
                .filter_map(|c| if let Conv::Dm(u) = c { Some(u.clone()) } else { None })
                .min();
            match next {
                Some(users) => open_narrow(st, Narrow::Dm(users)),
                None => {
                    set_status(st, "no unread direct messages");
                    vec![]
                }
            }
        }
        Action::NarrowChannel => match selected_message(st).map(|m| (m.stream_id, m.is_dm())) {
            Some((Some(c), false)) => open_narrow(st, Narrow::Channel(c)),
            _ => vec![],
        },
        Action::NarrowTopic => match selected_message(st).map(|m| target_of(st, m)) {
            Some(Target::Channel { id, topic }) => open_narrow(st, Narrow::Topic(id, topic)),
            Some(Target::Dm(users)) => open_narrow(st, Narrow::Dm(users)),
            None => vec![],
        },
        Action::Reply => {
            let target = match selected_message(st) {
                Some(m) => Some(target_of(st, m)),
                None => match &st.ui.narrow {
                    Narrow::Topic(c, t) => Some(Target::Channel { id: *c, topic: t.clone() }),
                    Narrow::Dm(u) => Some(Target::Dm(u.clone())),
                    _ => None,
                },
            };
            match target {
                Some(t) => open_compose(st, t, "", None),
                None => set_status(st, "select a message to reply to, or press c / x"),
            }
            vec![]
        }
        Action::ReplyAuthor => {
            if let Some(m) = selected_message(st) {
                let t = Target::Dm(dm_key(&[m.sender_id], st.data.me));
                open_compose(st, t, "", None);
            }
            vec![]
        }
        Action::QuoteReply | Action::Edit => {
            let Some(m) = selected_message(st) else { return vec![] };
            if a == Action::Edit && m.sender_id != st.data.me {
                set_error(st, "you can only edit your own messages");
                return vec![];
            }
            let id = m.id;
            vec![Effect::FetchRaw { message_id: id, edit: a == Action::Edit }]
        }
        Action::NewChannelMessage => {
            let text = match &st.ui.narrow {
                Narrow::Topic(c, t) => format!("{}>{}", st.data.channel_name(*c), t),
                Narrow::Channel(c) => format!("{}>", st.data.channel_name(*c)),
                _ => String::new(),
            };
            st.ui.prompt = Some(Prompt { kind: PromptKind::ChannelTopic, text });
            vec![]
        }
        Action::NewDm => {
            st.ui.prompt = Some(Prompt { kind: PromptKind::DmRecipients, text: String::new() });
            vec![]
        }
        Action::Star => {
            let Some(m) = st.ui.selected.and_then(|id| st.data.messages.get_mut(&id)) else { return vec![] };
            let add = !m.has_flag("starred");
            if add {
                m.flags.push("starred".into());
            } else {
                m.flags.retain(|f| f != "starred");
            }
            let id = m.id;
            starred_changed(st, id, add);
            vec![Effect::SetFlag { ids: vec![id], flag: "starred", add }]
        }
        Action::ThumbsUp => {
            let me = st.data.me;
            let Some(m) = selected_message(st) else { return vec![] };
            let mine = m.reactions.iter().find(|r| r.user_id == me && r.emoji_code == "1f44d");
            let spec = match mine {
                Some(r) => EmojiSpec::from(r),
                None => EmojiSpec {
                    emoji_name: Some("+1".into()),
                    emoji_code: Some("1f44d".into()),
                    reaction_type: Some("unicode_emoji".into()),
                },
            };
            vec![Effect::React { message_id: m.id, emoji: spec, add: mine.is_none() }]
        }
        Action::EmojiPicker => {
            let Some(id) = st.ui.selected else { return vec![] };
            let matches = emoji_matches(&st.data, "", 200);
            st.ui.popup = Some(Popup::Emoji { message_id: id, query: String::new(), matches, selected: 0 });
            vec![]
        }
        Action::EditHistory => {
            let Some(id) = st.ui.selected else { return vec![] };
            if !st.data.realm.allow_edit_history {
                set_error(st, "this organization has disabled edit history");
                return vec![];
            }
            st.ui.popup = Some(Popup::EditHistory { message_id: id, snapshots: None, scroll: 0 });
            vec![Effect::FetchHistory(id)]
        }
        Action::MessageInfo => {
            if let Some(id) = st.ui.selected {
                st.ui.popup = Some(Popup::MessageInfo { message_id: id, scroll: 0 });
            }
            vec![]
        }
        Action::MuteTopic | Action::UnmuteTopic | Action::FollowTopic | Action::MarkTopicRead
            if sidebar_channel(st).is_some() =>
        {
            channel_row_action(st, a)
        }
        Action::MuteTopic | Action::UnmuteTopic | Action::FollowTopic => {
            let Some((c, t)) = current_topic(st) else {
                set_status(st, "select a topic first");
                return vec![];
            };
            let wanted = match a {
                Action::MuteTopic => VisibilityPolicy::Muted,
                Action::UnmuteTopic => VisibilityPolicy::Unmuted,
                _ => VisibilityPolicy::Followed,
            };
            let policy = if st.data.policy(c, &t) == wanted { VisibilityPolicy::None } else { wanted };
            set_policy(st, c, &t, policy);
            let label = match policy {
                VisibilityPolicy::Muted => "muted",
                VisibilityPolicy::Unmuted => "unmuted",
                VisibilityPolicy::Followed => "followed",
                _ => "back to default",
            };
            set_status(st, format!("#{} > {t}: {label}", st.data.channel_name(c)));
            vec![Effect::SetPolicy { channel: c, topic: t, policy }]
        }
        Action::MarkTopicRead => {
            let Some((c, t)) = current_topic(st) else { return vec![] };
            let ids: Vec<MessageId> = st
                .data
                .unread
                .by_conv
                .get(&Conv::Topic(c, t.to_lowercase()))
                .map(|s| s.iter().copied().collect())
                .unwrap_or_default();
            for id in &ids {
                st.data.unread.remove(*id);
            }
            vec![Effect::MarkTopicRead { channel: c, topic: t }]
        }
        Action::ToggleSpoiler => {
            let Some(m) = selected_message(st) else { return vec![] };
            // Zulip renders every spoiler as a `spoiler-block`.
            if !m.content.contains("spoiler-block") {
                set_status(st, "this message has no spoilers");
                return vec![];
            }
            let id = m.id;
            if !st.ui.open_spoilers.remove(&(id, 0)) {
                st.ui.open_spoilers.insert((id, 0));
            }
            vec![]
        }
        Action::Send | Action::Schedule | Action::Complete | Action::CompleteBack => vec![],
    }
}

/// Keep the starred view's window true to the flags: a newly starred message joins it where the
/// window covers its place; an unstarred one leaves it, except while the view is on screen (it
/// stays under the cursor until the view is opened again, as in the web app). A message this
/// client does not hold makes the window stale: it is fetched again when next opened.
fn starred_changed(st: &mut State, id: MessageId, add: bool) {
    let shown = st.ui.narrow == Narrow::Starred;
    let held = st.data.messages.contains_key(&id);
    let Some(view) = st.data.narrows.get_mut(&Narrow::Starred) else { return };
    if !held {
        if !shown {
            st.data.narrows.remove(&Narrow::Starred);
        }
        return;
    }
    if add {
        let after_first = view.found_oldest || view.ids.first().is_some_and(|f| *f <= id);
        let before_last = view.found_newest || view.ids.last().is_some_and(|l| id <= *l);
        if view.loaded && after_first && before_last {
            view.merge([id]);
        }
    } else if !shown {
        view.remove(id);
    }
}

/// Would a message sent to `target` show in `narrow`?
fn narrow_holds(narrow: &Narrow, target: &Target) -> bool {
    match (narrow, target) {
        (Narrow::All, _) => true,
        (Narrow::Channel(c), Target::Channel { id, .. }) => c == id,
        (Narrow::Topic(c, t), Target::Channel { id, topic }) => c == id && t.eq_ignore_ascii_case(topic),
        (Narrow::AllDms, Target::Dm(_)) => true,
        (Narrow::Dm(a), Target::Dm(b)) => a == b,
        _ => false,
    }
}

/// Select the message the user just sent, once the current view holds it.
fn apply_jump(st: &mut State) {
    let Some(id) = st.ui.jump_to else { return };
    if st.data.narrows.get(&st.ui.narrow).is_some_and(|v| v.ids.binary_search(&id).is_ok()) {
        st.ui.selected = Some(id);
        st.ui.jump_to = None;
    }
}

/// Change a topic's visibility locally (the server's event confirms it).
fn set_policy(st: &mut State, c: ChannelId, topic: &str, policy: VisibilityPolicy) {
    let key = (c, topic.to_lowercase());
    if policy == VisibilityPolicy::None {
        st.data.user_topics.remove(&key);
    } else {
        st.data.user_topics.insert(key, policy);
    }
    // The combined feed hides muted topics.
    let d = &mut st.data;
    if let Some(view) = d.narrows.get_mut(&Narrow::All) {
        let msgs = &d.messages;
        let hide = policy == VisibilityPolicy::Muted
            || (policy == VisibilityPolicy::None && d.channels.get(&c).is_some_and(|ch| ch.muted));
        if hide {
            view.ids.retain(|id| {
                !msgs.get(id).is_some_and(|m| m.stream_id == Some(c) && m.topic().eq_ignore_ascii_case(topic))
            });
        } else {
            view.loaded = false;
        }
    }
}

/// The compose box's text, unless there is nothing to `what` (said in the status line).
fn compose_text(st: &mut State, what: &str) -> Option<String> {
    let text = st.ui.compose.as_ref()?.text();
    if text.trim().is_empty() {
        set_error(st, format!("nothing to {what}"));
        return None;
    }
    Some(text)
}

fn send_compose(st: &mut State) -> Vec<Effect> {
    let Some(text) = compose_text(st, "send") else { return vec![] };
    let Some(c) = &st.ui.compose else { return vec![] };
    if let Some(id) = c.scheduled {
        if st.data.scheduled.get(&id).is_some_and(|s| s.failed) {
            set_error(st, "this scheduled message failed to send: press ctrl+s to give it a new time");
            return vec![];
        }
        let update = ScheduledMessageUpdate { content: Some(text), ..Default::default() };
        return vec![Effect::Api(ApiCall::UpdateScheduled { id, update })];
    }
    if let Some(id) = c.editing {
        set_status(st, "saving…");
        return vec![
            Effect::Edit { message_id: id, content: text },
            Effect::EditTyping { message_id: id, start: false },
        ];
    }
    let target = c.target.clone();
    st.ui.compose = None;
    st.ui.draft_dirty = false;
    if st.ui.offline.is_some() {
        set_status(st, "offline: the message will go when the connection is back");
    } else {
        set_status(st, "sending…");
    }
    outbox::enqueue(st, target, text)
}

/// Work out completions for the word before the compose cursor.
fn suggest(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    let cursor = c.editor.cursor();
    let (row, col) = (cursor.0, cursor.1);
    let line = c.editor.lines().get(row).cloned().unwrap_or_default();
    let before: String = line.chars().take(col).collect();
    // The token starts at the last sigil that begins a word.
    let start = before
        .char_indices()
        .filter(|(i, ch)| {
            matches!(ch, '@' | '#' | ':') && (*i == 0 || before[..*i].ends_with(char::is_whitespace))
        })
        .map(|(i, _)| i)
        .next_back();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut fx = Vec::new();
    let token = start.map(|i| &before[i..]).unwrap_or("");
    let d = &st.data;
    if let Some(q) = token.strip_prefix('@').map(|q| q.trim_start_matches("**").to_lowercase()) {
        if !q.contains(char::is_whitespace) || q.len() < 30 {
            let mut users: Vec<&UserInfo> =
                d.users.values().filter(|u| u.is_active && u.full_name.to_lowercase().contains(&q)).collect();
            users.sort_by_key(|u| (!u.full_name.to_lowercase().starts_with(&q), u.full_name.to_lowercase()));
            out.extend(
                users.into_iter().take(8).map(|u| (u.full_name.clone(), format!("@**{}**", u.full_name))),
            );
        }
    } else if let Some(q) = token.strip_prefix('#').map(|q| q.trim_start_matches("**")) {
        match q.split_once('>') {
            Some((chan, topic_q)) => {
                if let Some(cid) = super::narrow::Resolver::channel_id(d, chan) {
                    let topic_q = topic_q.to_lowercase();
                    match d.topics.get(&cid) {
                        Some(list) if list.loaded => out.extend(
                            list.topics
                                .iter()
                                .filter(|t| t.name.to_lowercase().contains(&topic_q))
                                .take(8)
                                .map(|t| {
                                    (t.name.clone(), format!("#**{}>{}**", d.channel_name(cid), t.name))
                                }),
                        ),
                        Some(list) if list.loading => {}
                        _ => {
                            st.data.topics.entry(cid).or_default().loading = true;
                            fx.push(Effect::FetchTopics(cid));
                        }
                    }
                }
            }
            None => {
                let q = q.to_lowercase();
                let mut chans: Vec<&ChannelInfo> =
                    d.channels.values().filter(|c| c.name.to_lowercase().contains(&q)).collect();
                chans.sort_by_key(|c| (!c.name.to_lowercase().starts_with(&q), c.name.to_lowercase()));
                out.extend(
                    chans.into_iter().take(8).map(|c| (format!("#{}", c.name), format!("#**{}**", c.name))),
                );
            }
        }
    } else if let Some(q) = token.strip_prefix(':').filter(|q| q.chars().count() >= 2 && !q.contains(' ')) {
        out.extend(
            emoji_matches(d, q, 8)
                .into_iter()
                .map(|(name, code, kind)| (format!(":{name}: {code} {kind}"), format!(":{name}:"))),
        );
    }
    let token_len = token.chars().count();
    if let Some(c) = &mut st.ui.compose {
        c.suggestions = out;
        c.token_len = token_len;
        c.cycle = None;
    }
    fx
}

/// Emoji matching a search: custom emoji, the service's own, then Unicode by shortcode.
/// Names that start with the query come first.
pub fn emoji_matches(d: &Data, query: &str, limit: usize) -> Vec<(String, String, String)> {
    let q = query.trim().trim_matches(':').to_lowercase();
    let mut starts = Vec::new();
    let mut contains = Vec::new();
    let mut push = |name: &str, code: String, kind: &str| {
        let entry = (name.to_owned(), code, kind.to_owned());
        if name.starts_with(&q) {
            starts.push(entry);
        } else if name.contains(&q) {
            contains.push(entry);
        }
    };
    let mut custom: Vec<&RealmEmoji> = d.realm_emoji.values().filter(|e| !e.deactivated).collect();
    custom.sort_by(|a, b| a.name.cmp(&b.name));
    for e in custom {
        push(&e.name, e.id.clone(), "realm_emoji");
    }
    push("zulip", "zulip".into(), "svc_extra_emoji");
    for e in emojis::iter() {
        for sc in e.shortcodes() {
            push(sc, unicode_emoji_code(e.as_str()), "unicode_emoji");
        }
    }
    starts.extend(contains);
    starts.truncate(limit);
    starts
}

/// Open the compose box, continuing the conversation's saved draft if there is one.
fn open_compose(st: &mut State, target: Target, text: &str, editing: Option<MessageId>) {
    let mut c = Compose::new(target, text, editing);
    if let Some(draft) = st.drafts.get(&c.draft_key()).filter(|d| !d.trim().is_empty()) {
        let merged =
            if text.is_empty() || editing.is_some() { draft.clone() } else { format!("{draft}\n{text}") };
        c = Compose::new(c.target.clone(), &merged, editing);
        set_status(st, "draft restored");
    }
    st.ui.compose = Some(c);
}

/// Forget a sent (or saved) compose box's draft.
fn drop_draft(st: &mut State, key: String) -> Effect {
    st.drafts.remove(&key);
    st.ui.draft_dirty = false;
    Effect::SaveDraft { key, text: String::new() }
}

/// Scheduled message IDs by delivery time.
pub fn scheduled_in_order(st: &State) -> Vec<i64> {
    let mut v: Vec<&ScheduledMessage> = st.data.scheduled.values().collect();
    v.sort_by_key(|s| (s.scheduled_delivery_timestamp, s.scheduled_message_id));
    v.into_iter().map(|s| s.scheduled_message_id).collect()
}

/// Schedule the composed message (or move an edited scheduled message) to `at`.
fn schedule_compose(st: &mut State, at: i64) -> Vec<Effect> {
    let Some(content) = compose_text(st, "schedule") else { return vec![] };
    let Some(c) = &st.ui.compose else { return vec![] };
    if let Some(id) = c.scheduled {
        let update = ScheduledMessageUpdate {
            content: Some(content),
            scheduled_delivery_timestamp: Some(at),
            ..Default::default()
        };
        return vec![Effect::Api(ApiCall::UpdateScheduled { id, update })];
    }
    let (kind, to, topic) = match &c.target {
        Target::Channel { id, topic } => (SendType::Channel, Recipient::Channel(*id), Some(topic.clone())),
        Target::Dm(u) => {
            let ids = if u.is_empty() { vec![st.data.me] } else { u.clone() };
            (SendType::Direct, Recipient::Users(ids), None)
        }
    };
    let msg = NewScheduledMessage {
        kind,
        to,
        content,
        topic,
        scheduled_delivery_timestamp: at,
        read_by_sender: None,
    };
    vec![Effect::Api(ApiCall::Schedule(msg))]
}

fn resolve_user(st: &State, who: &str) -> Result<UserId, String> {
    super::narrow::Resolver::user_id(&st.data, who.trim_start_matches('@'))
        .ok_or_else(|| format!("no user {who:?}"))
}

fn resolve_group(st: &State, name: &str) -> Result<i64, String> {
    st.data
        .groups
        .values()
        .find(|g| g.name.eq_ignore_ascii_case(name.trim_start_matches('@')))
        .map(|g| g.id)
        .ok_or_else(|| format!("no user group {name:?}"))
}

/// The channel a command is about: named, or the one being viewed.
fn command_channel(st: &State, named: Option<&str>) -> Result<ChannelId, String> {
    match named {
        Some(n) => {
            super::narrow::Resolver::channel_id(&st.data, n).ok_or_else(|| format!("no channel named {n:?}"))
        }
        None => match &st.ui.narrow {
            Narrow::Channel(c) | Narrow::Topic(c, _) => Ok(*c),
            _ => selected_message(st)
                .and_then(|m| m.stream_id.filter(|_| !m.is_dm()))
                .ok_or_else(|| "name a #channel, or open one first".to_owned()),
        },
    }
}

/// Ask "(y/N)" before `effect`: only `y` runs it.
fn confirm(st: &mut State, question: String, effect: Effect) {
    st.ui.confirm = Some((question, Box::new(effect)));
    st.ui.prompt = Some(Prompt { kind: PromptKind::Confirm, text: String::new() });
}

/// "to #channel > topic at Tue 25 Nov 10:00", for questions about a scheduled message.
fn scheduled_label(st: &State, sm: &ScheduledMessage) -> String {
    let to = match &sm.to {
        Recipient::Channel(c) => {
            format!("to #{} > {}", st.data.channel_name(*c), sm.topic.as_deref().unwrap_or_default())
        }
        Recipient::Users(u) => {
            let names: Vec<&str> = u.iter().map(|id| st.data.user_name(*id)).collect();
            format!("to {}", names.join(", "))
        }
    };
    let at = st.tz.format(sm.scheduled_delivery_timestamp, "%a %-d %b %H:%M");
    format!("{to} at {at}")
}

/// "A", "A and B", "A, B and C".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Turn a palette command into effects (or say what is wrong).
fn run_command(st: &mut State, cmd: super::command::Command) -> Result<Vec<Effect>, String> {
    use super::command::Command as C;
    Ok(match cmd {
        C::Scheduled => {
            st.ui.popup = Some(Popup::Scheduled { selected: 0 });
            vec![]
        }
        C::Status(None) => vec![Effect::Api(ApiCall::SetStatus(StatusUpdate {
            status_text: Some(String::new()),
            emoji_name: Some(String::new()),
            emoji_code: Some(String::new()),
            reaction_type: Some(String::new()),
            ..Default::default()
        }))],
        C::Status(Some(text)) => {
            // A leading :emoji: sets the status emoji; without one the emoji is cleared, as the
            // web app does (the server keeps fields that are not sent).
            let mut update = StatusUpdate {
                emoji_name: Some(String::new()),
                emoji_code: Some(String::new()),
                reaction_type: Some(String::new()),
                ..Default::default()
            };
            let mut text = text.trim().to_owned();
            if let Some(rest) = text.strip_prefix(':')
                && let Some((name, after)) = rest.split_once(':')
                && !name.contains(' ')
            {
                let (n, code, kind) = emoji_matches(&st.data, name, 1000)
                    .into_iter()
                    .find(|(n, _, _)| n == name)
                    .ok_or_else(|| format!("no emoji :{name}:"))?;
                update.emoji_name = Some(n);
                update.emoji_code = Some(code);
                update.reaction_type = Some(kind);
                text = after.trim().to_owned();
            }
            crate::api::limits::check_status_text(&text).map_err(|e| e.to_string())?;
            update.status_text = Some(text);
            vec![Effect::Api(ApiCall::SetStatus(update))]
        }
        C::Date(date) => {
            let date = date.trim().to_owned();
            let valid = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").is_ok()
                || chrono::NaiveDateTime::parse_from_str(&date.replace(' ', "T"), "%Y-%m-%dT%H:%M").is_ok();
            if !valid {
                return Err(format!("{date:?} is not a date; use YYYY-MM-DD or YYYY-MM-DD HH:MM"));
            }
            let narrow = st.ui.narrow.clone();
            let epoch = st.data.reset_view(&narrow);
            st.ui.selected = None;
            st.ui.date_jump = Some(date.clone());
            let terms = narrow.terms(st.data.me, dm_operator(st));
            vec![Effect::JumpToDate { narrow, terms, date: date.replace(' ', "T"), epoch }]
        }
        C::Mute => on_action(st, Action::MuteTopic),
        C::Unmute => on_action(st, Action::UnmuteTopic),
        C::Follow => on_action(st, Action::FollowTopic),
        C::Help => on_action(st, Action::Help),
        C::Quit => on_action(st, Action::Quit),
        C::Unsubscribe { channel, users } => {
            // Only a named channel or the one on screen: never the channel of whatever message
            // happens to be selected in a combined view.
            let c = match (channel.as_deref(), &st.ui.narrow) {
                (Some(_), _) => command_channel(st, channel.as_deref())?,
                (None, Narrow::Channel(c) | Narrow::Topic(c, _)) => *c,
                (None, _) => return Err("name the channel: unsubscribe #channel [user…]".into()),
            };
            let ids = users.iter().map(|u| resolve_user(st, u)).collect::<Result<Vec<_>, _>>()?;
            let name = st.data.channel_name(c).to_owned();
            let me = st.data.me;
            let who = |u: &UserId| if *u == me { "you".to_owned() } else { st.data.user_name(*u).to_owned() };
            let question = match ids.as_slice() {
                [] => format!("Leave #{name}? (y/N)"),
                [one] if *one == me => format!("Leave #{name}? (y/N)"),
                _ => {
                    let names: Vec<String> = ids.iter().map(who).collect();
                    format!("Remove {} from #{name}? (y/N)", and_list(&names))
                }
            };
            let names = if ids.is_empty() { vec!["you".to_owned()] } else { ids.iter().map(who).collect() };
            let principals = (!ids.is_empty()).then_some(ids);
            confirm(
                st,
                question,
                Effect::Api(ApiCall::Unsubscribe { channels: vec![name], principals, names }),
            );
            vec![]
        }
        C::Deactivate { user: who, actions } => {
            let user = resolve_user(st, &who)?;
            let name = st.data.user_name(user).to_owned();
            let has = |f: &str| actions.iter().any(|a| a == f);
            let actions = (!actions.is_empty()).then(|| DeactivationActions {
                delete_profile: has("--delete-profile"),
                delete_public_channel_messages: has("--delete-public"),
                delete_private_channel_messages: has("--delete-private"),
                delete_direct_messages: has("--delete-dms"),
            });
            if !st.data.users.get(&st.data.me).is_some_and(UserInfo::is_admin) {
                return Err("only organization administrators can deactivate users".into());
            }
            let mut also = Vec::new();
            if let Some(a) = &actions {
                for (on, what) in [
                    (a.delete_profile, "their profile data"),
                    (a.delete_public_channel_messages, "their messages in public channels"),
                    (a.delete_private_channel_messages, "their messages in private channels"),
                    (a.delete_direct_messages, "their direct messages"),
                ] {
                    if on {
                        also.push(what);
                    }
                }
            }
            let deletes = if also.is_empty() {
                "Their messages stay.".to_owned()
            } else {
                format!("This also deletes {}: it cannot be undone.", also.join(", "))
            };
            let effect = Effect::Api(ApiCall::Deactivate { user, name: name.clone(), actions });
            confirm(st, format!("Deactivate {name}? Their bots go too. {deletes} (y/N)"), effect);
            vec![]
        }
        C::Group { group, add, subgroups, names } => {
            let group_id = resolve_group(st, &group)?;
            let ids: Vec<i64> = if subgroups {
                names.iter().map(|n| resolve_group(st, n)).collect::<Result<_, _>>()?
            } else {
                names.iter().map(|n| resolve_user(st, n)).collect::<Result<_, _>>()?
            };
            let d = &st.data;
            let g = &d.groups[&group_id];
            let gname = format!("@{}", g.name);
            let name = |id: &i64| {
                if subgroups {
                    d.groups.get(id).map_or_else(|| "(unknown group)".to_owned(), |g| format!("@{}", g.name))
                } else {
                    d.user_name(*id).to_owned()
                }
            };
            let listed: Vec<String> = ids.iter().map(name).collect();
            let list = and_list(&listed);
            // Say what the server would refuse, by name (its refusals name IDs).
            for id in &ids {
                let n = name(id);
                let present =
                    if subgroups { g.direct_subgroup_ids.contains(id) } else { g.members.contains(id) };
                match (add, subgroups, present) {
                    (true, false, true) => return Err(format!("{n} is already in {gname}")),
                    (false, false, false) => return Err(format!("{n} is not in {gname}")),
                    (true, true, true) => return Err(format!("{n} is already a subgroup of {gname}")),
                    (false, true, false) => return Err(format!("{n} is not a subgroup of {gname}")),
                    _ => {}
                }
            }
            let many = ids.len() > 1;
            let done = match (add, subgroups) {
                (true, false) => format!("{list} added to {gname}"),
                (false, false) => format!("{list} removed from {gname}"),
                (true, true) if many => format!("{list} are now subgroups of {gname}"),
                (true, true) => format!("{list} is now a subgroup of {gname}"),
                (false, true) if many => format!("{list} are no longer subgroups of {gname}"),
                (false, true) => format!("{list} is no longer a subgroup of {gname}"),
            };
            let names = ids.iter().copied().zip(listed).collect();
            let mut update = GroupMembersUpdate::default();
            match (add, subgroups) {
                (true, false) => update.add = Some(ids),
                (false, false) => update.delete = Some(ids),
                (true, true) => update.add_subgroups = Some(ids),
                (false, true) => update.delete_subgroups = Some(ids),
            }
            vec![Effect::Api(ApiCall::GroupMembers { group_id, update, done, group: gname, names })]
        }
        C::View { fragment, pinned, name } => {
            vec![Effect::Api(ApiCall::NavView { fragment, is_pinned: pinned, name })]
        }
        C::DumpState(path) => {
            let contents = serde_json::to_string_pretty(&state_dump(st)).unwrap_or_default();
            vec![Effect::DumpState { path, contents }]
        }
        C::Playground { name, language, template } => {
            crate::api::limits::check_playground_template(&template).map_err(|e| e.to_string())?;
            vec![Effect::Api(ApiCall::AddPlayground { name, language, template })]
        }
        C::ChannelEmail { channel, sender } => {
            let c = command_channel(st, channel.as_deref())?;
            let sender = match sender.as_deref() {
                None => None,
                Some("me") => Some(st.data.me),
                Some(s) => Some(resolve_user(st, s)?),
            };
            vec![Effect::Api(ApiCall::ChannelEmail { channel: c, sender })]
        }
        C::Apns { token, appid } => vec![Effect::Api(ApiCall::Apns { token, appid })],
        C::Report { report_type, description } => {
            let id = st.ui.selected.ok_or("select the message to report first")?;
            if st.data.realm.moderation_channel.is_none() {
                return Err(
                    "this organization has no moderation channel, so messages cannot be reported".into()
                );
            }
            let types = &st.data.realm.report_types;
            if !types.is_empty() && !types.iter().any(|t| t.key == report_type) {
                let keys: Vec<&str> = types.iter().map(|t| t.key.as_str()).collect();
                return Err(format!("report type must be one of: {}", keys.join(", ")));
            }
            crate::api::limits::check_report(&report_type, description.as_deref())
                .map_err(|e| e.to_string())?;
            vec![Effect::Api(ApiCall::Report { message_id: id, report_type, description })]
        }
    })
}

fn on_event(st: &mut State, kind: EventKind) -> Vec<Effect> {
    let me = st.data.me;
    match kind {
        EventKind::Message(ev) => {
            let mut m = ev.message;
            m.flags = ev.flags;
            let id = m.id;
            let notice = outside::notify(st, &m, &m.flags);
            let narrows: Vec<Narrow> = st.data.narrows.keys().cloned().collect();
            let mut targets = Vec::new();
            for n in narrows {
                let feed_ok = n != Narrow::All || st.data.in_feed(&m);
                if feed_ok && n.contains(&m, me) && st.data.narrows.get(&n).is_some_and(|v| v.found_newest) {
                    targets.push(n);
                }
            }
            st.data.insert_message(m);
            for n in targets {
                if let Some(v) = st.data.narrows.get_mut(&n) {
                    v.merge([id]);
                }
            }
            apply_jump(st);
            let mut fx: Vec<Effect> = notice.into_iter().collect();
            fx.extend(outbox::on_message_event(st, ev.local_message_id.as_deref(), id));
            return fx;
        }
        EventKind::UpdateMessage(ev) => {
            let ids = if ev.message_ids.is_empty() { vec![ev.message_id] } else { ev.message_ids.clone() };
            for id in &ids {
                let Some(m) = st.data.messages.get_mut(id) else { continue };
                if *id == ev.message_id
                    && let Some(c) = &ev.rendered_content
                {
                    m.content = c.clone();
                    m.last_edit_timestamp = Some(ev.edit_timestamp);
                }
                if let Some(t) = &ev.subject {
                    m.subject = t.clone();
                }
                if let Some(c) = ev.new_stream_id {
                    m.stream_id = Some(c);
                    m.display_recipient = DisplayRecipient::Channel(
                        st.data.channels.get(&c).map(|x| x.name.clone()).unwrap_or_default(),
                    );
                }
                st.data.reindex(*id);
            }
            // Views of the old and new conversations are refetched when next opened.
            if ev.subject.is_some() || ev.new_stream_id.is_some() {
                st.data.narrows.retain(|n, _| !n.is_conversation());
            }
        }
        EventKind::DeleteMessage(ev) => {
            for id in ev.ids() {
                st.data.messages.remove(&id);
                st.data.unread.remove(id);
                for v in st.data.narrows.values_mut() {
                    v.remove(id);
                }
                if st.ui.selected == Some(id) {
                    st.ui.selected = None;
                }
            }
        }
        EventKind::Reaction(ev) => {
            if let Some(m) = st.data.messages.get_mut(&ev.message_id) {
                let r = Reaction {
                    emoji_name: ev.emoji_name,
                    emoji_code: ev.emoji_code,
                    reaction_type: ev.reaction_type,
                    user_id: ev.user_id,
                };
                if ev.op == "add" {
                    if !m.reactions.contains(&r) {
                        m.reactions.push(r);
                    }
                } else {
                    m.reactions.retain(|x| {
                        !(x.user_id == r.user_id
                            && x.emoji_code == r.emoji_code
                            && x.reaction_type == r.reaction_type)
                    });
                }
            }
        }
        EventKind::UpdateMessageFlags(ev) => {
            let add = ev.op == "add";
            if ev.flag == "read" && add && ev.all {
                st.data.unread.clear();
            }
            for id in &ev.messages {
                if let Some(m) = st.data.messages.get_mut(id) {
                    if add && !m.has_flag(&ev.flag) {
                        m.flags.push(ev.flag.clone());
                    } else if !add {
                        m.flags.retain(|f| *f != ev.flag);
                    }
                }
                if ev.flag == "starred" {
                    starred_changed(st, *id, add);
                }
                if ev.flag == "read" {
                    if add {
                        st.data.unread.remove(*id);
                    } else if let Some(m) = st.data.messages.get(id) {
                        let conv = st.data.conv_of(m);
                        st.data.unread.add(*id, conv);
                    }
                }
            }
        }
        EventKind::UserTopic(t) => {
            let key = (t.stream_id, t.topic_name.to_lowercase());
            if t.visibility_policy == VisibilityPolicy::None {
                st.data.user_topics.remove(&key);
            } else {
                st.data.user_topics.insert(key, t.visibility_policy);
            }
        }
        EventKind::Subscription(ev) => match ev.op.as_str() {
            "update" => {
                if let (Some(id), Some(prop), Some(v)) =
                    (ev.stream_id, ev.property.as_deref(), ev.value.as_ref())
                    && let Some(c) = st.data.channels.get_mut(&id)
                {
                    match prop {
                        "is_muted" => c.muted = v.as_bool().unwrap_or(c.muted),
                        "in_home_view" => c.muted = !v.as_bool().unwrap_or(!c.muted),
                        "pin_to_top" => c.pinned = v.as_bool().unwrap_or(c.pinned),
                        "color" => c.color = v.as_str().unwrap_or(&c.color).to_owned(),
                        _ => {}
                    }
                }
            }
            "add" => {
                for s in ev.subscriptions.iter().flatten() {
                    if let Ok(s) = serde_json::from_value::<Subscription>(s.clone()) {
                        st.data.channels.insert(s.stream_id, channel_info(&s));
                    }
                }
            }
            "remove" => {
                for s in ev.subscriptions.iter().flatten() {
                    if let Some(id) = s.get("stream_id").and_then(|v| v.as_i64()) {
                        st.data.channels.remove(&id);
                    }
                }
            }
            _ => {}
        },
        EventKind::Presence(ev) => {
            for (k, p) in ev.presences.iter().flatten() {
                if let Ok(id) = k.parse::<UserId>() {
                    st.data.presence.insert(id, *p);
                }
            }
        }
        EventKind::UserStatus(ev) => {
            if let Some(u) = st.data.users.get_mut(&ev.user_id) {
                if let Some(t) = ev.status_text {
                    u.status.status_text = t;
                }
                if let Some(n) = ev.emoji_name {
                    u.status.emoji_name = n;
                    u.status.emoji_code = ev.emoji_code.unwrap_or_default();
                    u.status.reaction_type = ev.reaction_type.unwrap_or_default();
                }
            }
        }
        EventKind::ScheduledMessages(ev) => {
            for s in ev.scheduled_messages.into_iter().flatten().chain(ev.scheduled_message) {
                st.data.scheduled.insert(s.scheduled_message_id, s);
            }
            if ev.op == "remove"
                && let Some(id) = ev.scheduled_message_id
            {
                st.data.scheduled.remove(&id);
            }
        }
        EventKind::Realm(ev) if ev.op.as_deref() == Some("update") => {
            let value = ev.fields.get("value");
            match ev.fields.get("property").and_then(|p| p.as_str()) {
                Some("moderation_request_channel_id") => {
                    st.data.realm.moderation_channel = value.and_then(|v| v.as_i64()).filter(|id| *id > 0);
                }
                Some("allow_edit_history") => {
                    st.data.realm.allow_edit_history = value.and_then(|v| v.as_bool()).unwrap_or(true);
                }
                Some("name") => {
                    st.data.realm.name = value.and_then(|v| v.as_str()).unwrap_or_default().to_owned();
                }
                _ => {}
            }
        }
        EventKind::UserGroup(ev) => {
            let ids = || ev.user_ids.clone().unwrap_or_default();
            let subs = || ev.direct_subgroup_ids.clone().unwrap_or_default();
            match (ev.op.as_str(), ev.group_id.and_then(|g| st.data.groups.get_mut(&g))) {
                ("add", _) => {
                    if let Some(g) = ev.group.clone() {
                        st.data.groups.insert(g.id, g);
                    }
                }
                ("remove", _) => {
                    if let Some(g) = ev.group_id {
                        st.data.groups.remove(&g);
                    }
                }
                ("add_members", Some(g)) => g.members.extend(ids()),
                ("remove_members", Some(g)) => g.members.retain(|m| !ids().contains(m)),
                ("add_subgroups", Some(g)) => g.direct_subgroup_ids.extend(subs()),
                ("remove_subgroups", Some(g)) => g.direct_subgroup_ids.retain(|m| !subs().contains(m)),
                _ => {}
            }
        }
        EventKind::RealmUser(ev) if ev.op.as_deref() == Some("add") => {
            if let Some(u) =
                ev.fields.get("person").and_then(|p| serde_json::from_value::<User>(p.clone()).ok())
            {
                st.data.users.insert(
                    u.user_id,
                    UserInfo {
                        id: u.user_id,
                        full_name: u.full_name,
                        email: u.email,
                        is_bot: u.is_bot,
                        is_active: true,
                        presence_enabled: u.presence_enabled,
                        status: UserStatus::default(),
                        role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
                    },
                );
            }
        }
        EventKind::RealmUser(ev) => {
            if let Some(p) = ev.fields.get("person")
                && let Some(id) = p.get("user_id").and_then(|v| v.as_i64())
                && let Some(u) = st.data.users.get_mut(&id)
            {
                if let Some(n) = p.get("full_name").and_then(|v| v.as_str()) {
                    u.full_name = n.to_owned();
                }
                if let Some(a) = p.get("is_active").and_then(|v| v.as_bool()) {
                    u.is_active = a;
                }
                if let Some(r) = p.get("role").and_then(|v| v.as_i64()) {
                    u.role = r;
                }
            }
        }
        EventKind::Typing(ev) => {
            let conversation = match (ev.stream_id, &ev.topic, &ev.recipients) {
                (Some(c), Some(t), _) => Some(Conv::Topic(c, t.to_lowercase())),
                (_, _, Some(r)) => {
                    Some(Conv::Dm(dm_key(&r.iter().map(|u| u.user_id).collect::<Vec<_>>(), me)))
                }
                _ => None,
            };
            let user = ev.sender.user_id;
            st.ui.typing.retain(|t| !(t.user == user && t.editing.is_none()));
            if ev.op == "start" && user != me {
                st.ui.typing.push(Typing { user, conversation, editing: None, until: st.now + 15 });
            }
        }
        EventKind::TypingEditMessage(ev) => {
            st.ui.typing.retain(|t| !(t.user == ev.sender_id && t.editing == Some(ev.message_id)));
            if ev.op == "start" && ev.sender_id != me {
                st.ui.typing.push(Typing {
                    user: ev.sender_id,
                    conversation: None,
                    editing: Some(ev.message_id),
                    until: st.now + 15,
                });
            }
        }
        EventKind::Drafts(ev) => return server_drafts::on_event(st, ev),
        EventKind::NavigationView(ev) => {
            let views = &mut st.data.nav_views;
            match (ev.op.as_str(), ev.navigation_view, ev.fragment) {
                ("add", Some(v), _) => {
                    views.retain(|x| x.fragment != v.fragment);
                    views.push(v);
                }
                ("update", _, Some(f)) => {
                    if let (Some(v), Some(data)) = (views.iter_mut().find(|x| x.fragment == f), ev.data) {
                        if let Some(p) = data.get("is_pinned").and_then(|p| p.as_bool()) {
                            v.is_pinned = p;
                        }
                        if let Some(n) = data.get("name") {
                            v.name = n.as_str().map(str::to_owned);
                        }
                    }
                }
                ("remove", _, Some(f)) => views.retain(|x| x.fragment != f),
                _ => {}
            }
        }
        EventKind::RealmPlaygrounds { realm_playgrounds } => st.data.playgrounds = realm_playgrounds,
        EventKind::RealmEmoji { realm_emoji } => st.data.realm_emoji = realm_emoji,
        EventKind::Stream(ev) => on_stream_event(st, ev),
        EventKind::Malformed { event_type, error } => {
            tracing::warn!("ignored a malformed {event_type} event: {error}");
            // What such an event carried is fetched again: the loaded windows are refreshed.
            if matches!(event_type.as_str(), "message" | "update_message" | "delete_message") {
                return resync_narrows(st);
            }
        }
        _ => {}
    }
    vec![]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    pub(super) const ME: i64 = 10;

    pub(super) fn msg(id: i64, channel: i64, topic: &str, flags: &[&str]) -> serde_json::Value {
        json!({
            "id": id, "type": "stream", "content": format!("<p>message {id}</p>"), "display_recipient": "eng",
            "sender_id": 11, "sender_full_name": "Alice", "stream_id": channel, "subject": topic,
            "timestamp": 1_700_000_000 + id, "flags": flags,
        })
    }

    /// A registered state with two channels (2 muted), a followed topic, and unreads.
    pub(super) fn registered() -> (State, Vec<Effect>) {
        let mut st = State::default();
        let reg: RegisterResponse = serde_json::from_value(json!({
            "queue_id": "q1", "last_event_id": -1, "zulip_feature_level": 496, "user_id": ME,
            "realm_users": [
                {"user_id": ME, "full_name": "Me", "email": "me@x"},
                {"user_id": 11, "full_name": "Alice", "email": "alice@x"},
            ],
            "subscriptions": [
                {"stream_id": 1, "name": "eng", "color": "#fff", "pin_to_top": true},
                {"stream_id": 2, "name": "random", "color": "#fff", "is_muted": true},
            ],
            "user_topics": [
                {"stream_id": 1, "topic_name": "Noise", "visibility_policy": 1, "last_updated": 0},
                {"stream_id": 2, "topic_name": "lunch", "visibility_policy": 2, "last_updated": 0},
            ],
            "unread_msgs": {"streams": [
                {"stream_id": 1, "topic": "plans", "unread_message_ids": [5, 6]},
                {"stream_id": 1, "topic": "noise", "unread_message_ids": [7]},
                {"stream_id": 2, "topic": "lunch", "unread_message_ids": [8]},
                {"stream_id": 2, "topic": "chatter", "unread_message_ids": [9]},
            ], "pms": [{"sender_id": 11, "unread_message_ids": [4]}], "huddles": [], "mentions": []},
        }))
        .unwrap();
        let fx = update(&mut st, Msg::Registered(Box::new(reg)));
        (st, fx)
    }

    fn key(c: char) -> Msg {
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    #[test]
    fn register_builds_sidebar_unreads_and_fetches_the_feed() {
        let (st, fx) = registered();
        assert_eq!(st.ui.sidebar[4], SidebarRow::Channel(1), "pinned channel first after the views");
        assert_eq!(st.data.channel_unread(1), 2, "the muted topic does not count");
        assert_eq!(st.data.channel_unread(2), 1, "in a muted channel only the unmuted topic counts");
        assert_eq!(st.data.unread.count(&Conv::Dm(vec![11])), 1);
        assert_eq!(st.data.unread.dm_total, 1, "the DM total is kept with the index");
        assert!(matches!(
            &fx[0],
            Effect::FetchMessages { narrow: Narrow::All, anchor: Anchor::FirstUnread, .. }
        ));
        assert_eq!(fx[1], Effect::FetchSubscriptions, "channels are fetched alongside");
        assert!(matches!(&fx[2], Effect::PollEvents { queue_id, .. } if queue_id == "q1"));
    }

    #[test]
    fn new_messages_join_loaded_views_but_not_muted_ones_in_the_feed() {
        let (mut st, _) = registered();
        let resp: MessagesResponse = serde_json::from_value(json!({
            "messages": [msg(5, 1, "plans", &[]), msg(6, 1, "plans", &[])],
            "found_newest": true, "found_oldest": true,
        }))
        .unwrap();
        update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
        assert_eq!(st.ui.selected, Some(5), "starts at the first unread");
        let event = |id: i64, topic: &str| {
            Event::decode(
                json!({"id": id, "type": "message", "message": msg(100 + id, 1, topic, &[]), "flags": []}),
            )
        };
        update(&mut st, Msg::Events(vec![event(1, "plans"), event(2, "noise")]));
        assert_eq!(st.data.narrows[&Narrow::All].ids, vec![5, 6, 101], "the muted topic's message stays out");
        // 5 was read when selected; 6 and the new 101 are unread.
        assert_eq!(st.data.topic_unread(1, "plans"), 2);
        assert_eq!(st.data.channel_unread(1), 2);
    }

    #[test]
    fn mute_key_toggles_the_topic_and_asks_the_server() {
        let (mut st, _) = registered();
        let resp: MessagesResponse =
            serde_json::from_value(json!({"messages": [msg(5, 1, "plans", &[])], "found_newest": true}))
                .unwrap();
        update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
        let fx = update(&mut st, key('M'));
        assert_eq!(
            fx,
            vec![Effect::SetPolicy { channel: 1, topic: "plans".into(), policy: VisibilityPolicy::Muted }]
        );
        assert_eq!(st.data.channel_unread(1), 0, "muting hides its unreads at once");
        assert!(st.data.narrows[&Narrow::All].ids.is_empty(), "and its messages from the feed");
        let fx = update(&mut st, key('M'));
        assert_eq!(
            fx,
            vec![Effect::SetPolicy { channel: 1, topic: "plans".into(), policy: VisibilityPolicy::None }]
        );
        let fx = update(&mut st, key('F'));
        assert!(matches!(&fx[0], Effect::SetPolicy { policy: VisibilityPolicy::Followed, .. }));
        assert_eq!(st.data.policy(1, "Plans"), VisibilityPolicy::Followed, "topics match case-insensitively");
    }

    #[test]
    fn read_flags_from_the_server_update_unreads_both_ways() {
        let (mut st, _) = registered();
        let ev = |op: &str| {
            Event::decode(json!({"id": 3, "type": "update_message_flags", "op": op, "operation": op,
                "flag": "read", "messages": [5], "all": false}))
        };
        update(&mut st, Msg::Events(vec![ev("add")]));
        assert_eq!(st.data.topic_unread(1, "plans"), 1);
        let dm_read =
            Event::decode(json!({"id": 4, "type": "update_message_flags", "op": "add", "operation": "add",
            "flag": "read", "messages": [4], "all": false}));
        update(&mut st, Msg::Events(vec![dm_read]));
        assert_eq!(st.data.unread.dm_total, 0);
        // Marking unread needs the message to know where it lives.
        let resp: MessagesResponse = serde_json::from_value(
            json!({"messages": [msg(5, 1, "plans", &["read"])], "found_newest": true}),
        )
        .unwrap();
        update(
            &mut st,
            Msg::Messages { narrow: Narrow::Channel(1), resp: Box::new(resp), older: false, epoch: 0 },
        );
        update(&mut st, Msg::Events(vec![ev("remove")]));
        assert_eq!(st.data.topic_unread(1, "plans"), 2);
    }

    #[test]
    fn scrolling_to_the_top_pages_older_history() {
        let (mut st, _) = registered();
        let msgs: Vec<_> = (20..30).map(|i| msg(i, 1, "plans", &["read"])).collect();
        let resp: MessagesResponse =
            serde_json::from_value(json!({"messages": msgs, "found_newest": true, "found_oldest": false}))
                .unwrap();
        update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
        assert_eq!(st.ui.selected, Some(29), "nothing unread: starts at the newest");
        let fx = update(&mut st, key('k'));
        assert!(fx.is_empty(), "far from the top: {fx:?}");
        let fx = update(&mut st, key('g'));
        assert_eq!(st.ui.selected, Some(20));
        assert!(
            fx.iter().any(|e| matches!(
                e,
                Effect::FetchMessages { anchor: Anchor::Id(20), older: true, after: 0, .. }
            )),
            "{fx:?}"
        );
        let again = update(&mut st, key('k'));
        assert!(
            !again.iter().any(|e| matches!(e, Effect::FetchMessages { .. })),
            "one page request at a time"
        );
    }

    #[test]
    fn selecting_an_unread_message_marks_it_read() {
        let (mut st, _) = registered();
        let resp: MessagesResponse = serde_json::from_value(
            json!({"messages": [msg(5, 1, "plans", &[]), msg(6, 1, "plans", &[])], "found_newest": true, "found_oldest": true}),
        )
        .unwrap();
        let fx = update(
            &mut st,
            Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 },
        );
        assert_eq!(fx, vec![Effect::MarkRead(vec![5])]);
        let fx = update(&mut st, key('j'));
        assert_eq!(fx, vec![Effect::MarkRead(vec![6])]);
        assert_eq!(st.data.topic_unread(1, "plans"), 0);
    }

    #[test]
    fn presence_pings_on_the_interval_and_turns_idle_without_input() {
        let (mut st, _) = registered();
        st.data.realm.ping_interval = 60;
        let t0 = 1_800_000_000;
        update(&mut st, Msg::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE)));
        st.ui.last_input = t0;
        assert_eq!(update(&mut st, Msg::Tick(t0)), vec![Effect::Ping { active: true, last_update_id: -1 }]);
        assert_eq!(update(&mut st, Msg::Tick(t0 + 30)), vec![], "not before the interval");
        let resp: PresenceResponse = serde_json::from_value(json!({
            "presence_last_update_id": 42,
            "presences": {"11": {"active_timestamp": t0, "idle_timestamp": t0}},
        }))
        .unwrap();
        update(&mut st, Msg::Presence(Box::new(resp)));
        assert_eq!(st.data.activity(11, t0 + 10), Activity::Active);
        let fx = update(&mut st, Msg::Tick(t0 + IDLE_AFTER + 1));
        assert_eq!(
            fx,
            vec![Effect::Ping { active: false, last_update_id: 42 }],
            "idle after inactivity, newest id"
        );
    }

    #[test]
    fn typing_notices_are_kept_until_they_expire() {
        let (mut st, _) = registered();
        st.now = 1000;
        let ev = Event::decode(json!({"id": 1, "type": "typing", "op": "start", "message_type": "stream",
            "sender": {"user_id": 11, "email": "alice@x"}, "stream_id": 1, "topic": "Plans"}));
        update(&mut st, Msg::Events(vec![ev]));
        assert_eq!(st.ui.typing.len(), 1);
        assert_eq!(st.ui.typing[0].conversation, Some(Conv::Topic(1, "plans".into())));
        let edit =
            Event::decode(json!({"id": 2, "type": "typing_edit_message", "op": "start", "sender_id": 11,
            "message_id": 5, "recipient": {"type": "channel", "channel_id": 1, "topic": "plans"}}));
        update(&mut st, Msg::Events(vec![edit]));
        assert_eq!(st.ui.typing.len(), 2);
        update(&mut st, Msg::Tick(1016));
        assert!(st.ui.typing.is_empty(), "expired");
    }

    #[test]
    fn losing_terminal_focus_reports_idle_at_once() {
        let (mut st, _) = registered();
        st.now = 5_000;
        st.ui.last_input = 4_990;
        assert_eq!(
            update(&mut st, Msg::Focus(false)),
            vec![Effect::Ping { active: false, last_update_id: -1 }]
        );
        st.data.realm.ping_interval = 60;
        assert_eq!(
            update(&mut st, Msg::Tick(5_061)),
            vec![Effect::Ping { active: false, last_update_id: -1 }]
        );
        assert_eq!(
            update(&mut st, Msg::Focus(true)),
            vec![Effect::Ping { active: true, last_update_id: -1 }]
        );
    }

    #[test]
    fn drafts_are_saved_on_the_next_tick_and_restored_on_reopen() {
        let (mut st, _) = registered();
        st.ui.compose = Some(Compose::new(Target::Channel { id: 1, topic: "Plans".into() }, "", None));
        update(&mut st, key('h'));
        update(&mut st, key('i'));
        let fx = update(&mut st, Msg::Tick(1));
        assert!(
            fx.contains(&Effect::SaveDraft { key: "channel-1-plans".into(), text: "hi".into() }),
            "{fx:?}"
        );
        assert!(
            !update(&mut st, Msg::Tick(2)).iter().any(|e| matches!(e, Effect::SaveDraft { .. })),
            "only when changed"
        );
        st.ui.compose = None;
        open_compose(&mut st, Target::Channel { id: 1, topic: "plans".into() }, "", None);
        assert_eq!(st.ui.compose.as_ref().map(Compose::text).as_deref(), Some("hi"), "same topic, any case");
    }

    #[test]
    fn a_failed_register_is_retried_with_growing_backoff() {
        let mut st = State { now: 1_000, ..Default::default() };
        update(&mut st, Msg::RegisterFailed("connection refused".into()));
        let first = st.ui.offline.clone().expect("offline");
        assert!(first.retry_at > 1_000 && first.retry_at <= 1_000 + 3, "{first:?}");
        assert_eq!(update(&mut st, Msg::Tick(first.retry_at - 1)), vec![], "not before its time");
        assert_eq!(update(&mut st, Msg::Tick(first.retry_at)), vec![Effect::Register]);
        assert_eq!(update(&mut st, Msg::Tick(first.retry_at + 1)), vec![], "one attempt at a time");
        update(&mut st, Msg::RegisterFailed("connection refused".into()));
        let second = st.ui.offline.clone().unwrap();
        assert!(second.retry_at - st.now >= 4, "backs off: {second:?}");
        let (mut ok, _) = registered();
        ok.ui.offline = Some(second);
        let reg: RegisterResponse = serde_json::from_value(json!({"queue_id": "q2", "user_id": ME})).unwrap();
        update(&mut ok, Msg::Registered(Box::new(reg)));
        assert!(ok.ui.offline.is_none());
    }

    #[test]
    fn organization_events_update_what_the_ui_relies_on() {
        let (mut st, _) = registered();
        st.data
            .groups
            .insert(5, serde_json::from_value(json!({"id": 5, "name": "backend", "members": [10]})).unwrap());
        let evs = vec![
            Event::decode(
                json!({"id": 1, "type": "realm", "op": "update", "property": "moderation_request_channel_id", "value": 9}),
            ),
            Event::decode(
                json!({"id": 2, "type": "realm", "op": "update", "property": "allow_edit_history", "value": false}),
            ),
            Event::decode(
                json!({"id": 3, "type": "user_group", "op": "add_members", "group_id": 5, "user_ids": [11]}),
            ),
            Event::decode(
                json!({"id": 4, "type": "user_group", "op": "remove_members", "group_id": 5, "user_ids": [10]}),
            ),
            Event::decode(
                json!({"id": 5, "type": "realm_user", "op": "add", "person": {"user_id": 12, "full_name": "New Person", "email": "n@x"}}),
            ),
            Event::decode(
                json!({"id": 6, "type": "realm_emoji", "op": "update", "realm_emoji": {"7": {"id": "7", "name": "shipit", "source_url": "/e/7.png", "deactivated": false, "author_id": 11}}}),
            ),
        ];
        update(&mut st, Msg::Events(evs));
        assert_eq!(st.data.realm.moderation_channel, Some(9));
        assert!(!st.data.realm.allow_edit_history);
        assert_eq!(st.data.groups[&5].members, vec![11]);
        assert_eq!(st.data.users[&12].full_name, "New Person");
        // A new custom emoji is offered by the picker at once.
        assert!(emoji_matches(&st.data, "shipit", 5).iter().any(|(n, code, _)| n == "shipit" && code == "7"));
        // The edit-history key now explains instead of asking the server.
        st.ui.selected = Some(5);
        assert_eq!(update(&mut st, key('H')), vec![]);
        assert!(st.ui.status.as_ref().is_some_and(|s| s.error && s.text.contains("disabled")));
    }

    #[test]
    fn queue_loss_registers_again() {
        let (mut st, _) = registered();
        assert_eq!(update(&mut st, Msg::QueueLost), vec![Effect::Register]);
        assert!(st.ui.status.as_ref().is_some_and(|s| s.text.contains("expired")));
        assert_eq!(update(&mut st, Msg::QueueUnreadable), vec![Effect::Register]);
        assert!(st.ui.status.as_ref().is_some_and(|s| s.error && s.text.contains("cannot read")));
    }

    fn page(ids: &[i64], topic: &str, found_newest: bool) -> Box<MessagesResponse> {
        let msgs: Vec<_> = ids.iter().map(|i| msg(*i, 1, topic, &["read"])).collect();
        Box::new(
            serde_json::from_value(
                json!({"messages": msgs, "found_newest": found_newest, "found_oldest": true}),
            )
            .unwrap(),
        )
    }

    #[test]
    fn a_new_register_resyncs_every_loaded_narrow_from_its_newest_message() {
        let (mut st, _) = registered();
        let topic = Narrow::Topic(1, "plans".into());
        update(
            &mut st,
            Msg::Messages {
                narrow: Narrow::Channel(1),
                resp: page(&[20, 21, 22], "plans", true),
                older: false,
                epoch: 0,
            },
        );
        update(
            &mut st,
            Msg::Messages {
                narrow: topic.clone(),
                resp: page(&[20, 22], "plans", true),
                older: false,
                epoch: 0,
            },
        );
        st.ui.narrow = topic.clone();
        let reg: RegisterResponse = serde_json::from_value(
            json!({"queue_id": "q2", "last_event_id": 5, "zulip_feature_level": 496, "user_id": ME}),
        )
        .unwrap();
        let fx = update(&mut st, Msg::Registered(Box::new(reg)));
        let mut fetched: Vec<(Narrow, Anchor, u64)> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::FetchMessages { narrow, anchor, after, .. } => {
                    Some((narrow.clone(), anchor.clone(), *after))
                }
                _ => None,
            })
            .collect();
        fetched.sort_by_key(|(n, ..)| format!("{n:?}"));
        assert_eq!(
            fetched,
            vec![
                (Narrow::Channel(1), Anchor::Id(22), RESYNC_AFTER),
                (topic.clone(), Anchor::Id(22), RESYNC_AFTER)
            ],
            "every open narrow, once each (the shown one too)"
        );
        assert!(fx.iter().any(|e| matches!(e, Effect::PollEvents { queue_id, .. } if queue_id == "q2")));
        // While away, 21 was deleted and 23, 24 arrived: the answer replaces the range it covers.
        update(
            &mut st,
            Msg::Messages {
                narrow: Narrow::Channel(1),
                resp: page(&[20, 22, 23, 24], "plans", true),
                older: false,
                epoch: 0,
            },
        );
        let v = &st.data.narrows[&Narrow::Channel(1)];
        assert_eq!(v.ids, vec![20, 22, 23, 24]);
        assert!(v.found_newest && !v.loading_newer);
    }

    #[test]
    fn a_page_asked_for_before_the_window_was_reset_is_dropped() {
        let (mut st, _) = registered();
        let fx = open_narrow(&mut st, Narrow::Channel(1));
        let Some(Effect::FetchMessages { epoch: first, .. }) = fx.first().cloned() else { panic!("{fx:?}") };
        // The window is reset (a jump to a sent message, a date, a resync) before the page comes.
        let second = st.data.reset_view(&Narrow::Channel(1));
        assert_ne!(first, second);
        let stale = Msg::Messages {
            narrow: Narrow::Channel(1),
            resp: page(&[1, 2, 3], "plans", true),
            older: false,
            epoch: first,
        };
        update(&mut st, stale);
        assert!(st.data.narrows[&Narrow::Channel(1)].ids.is_empty(), "an old page would leave a gap");
        let fresh = Msg::Messages {
            narrow: Narrow::Channel(1),
            resp: page(&[40, 41], "plans", true),
            older: false,
            epoch: second,
        };
        update(&mut st, fresh);
        assert_eq!(st.data.narrows[&Narrow::Channel(1)].ids, vec![40, 41]);
    }

    #[test]
    fn moving_down_a_window_that_stops_short_of_the_newest_pages_newer_messages_in() {
        let (mut st, _) = registered();
        st.ui.narrow = Narrow::Channel(1);
        update(
            &mut st,
            Msg::Messages {
                narrow: Narrow::Channel(1),
                resp: page(&[30, 31, 32], "plans", false),
                older: false,
                epoch: 0,
            },
        );
        st.ui.selected = Some(30);
        let fx = update(&mut st, key('j'));
        assert!(
            fx.iter().any(|e| matches!(
                e,
                Effect::FetchMessages { anchor: Anchor::Id(32), before: 0, after: PAGE, older: false, .. }
            )),
            "{fx:?}"
        );
        assert!(
            update(&mut st, key('j')).iter().all(|e| !matches!(e, Effect::FetchMessages { .. })),
            "one page at a time"
        );
        update(
            &mut st,
            Msg::Messages {
                narrow: Narrow::Channel(1),
                resp: page(&[32, 33], "plans", true),
                older: false,
                epoch: 0,
            },
        );
        assert_eq!(st.data.narrows[&Narrow::Channel(1)].ids, vec![30, 31, 32, 33]);
    }
}
