//! `update(&mut State, Msg) -> Vec<Effect>`: all behaviour, no I/O.
//!
//! `apply` routes each message by what arrived; the work is split the same way: `answers`
//! (finished background jobs, put into words), `register`
//! (a register answer and resyncs), `events` (real-time events), `keys` (keys and pastes),
//! `actions` (what keys are bound to), `navigation` (narrows, pages, selection, reading),
//! `compose` and `complete` (the compose box and tab completion), `outbox` (optimistic sending),
//! `palette` (`:commands`), `tick` (the clock and presence pings), `server_drafts`,
//! `outside` (links, clipboard, editor, notifications), `reminders` and `uploads` (their
//! lists, whose keys are in `lists_keys`).

mod actions;
mod actions_message;
mod actions_moves;
mod actions_screen;
mod answers;
mod attach;
mod burst;
pub mod cache;
mod channel_events;
mod closed;
mod cold_start;
mod common;
mod complete;
mod compose;
mod directory;
mod directory_keys;
mod done;
mod events;
mod hold;
mod images;
mod inbox;
mod keys;
mod lists_keys;
mod message_events;
mod navigation;
mod outbox;
mod outside;
mod palette;
mod palette_args;
mod palette_channels;
mod palette_messages;
mod palette_people;
mod palette_settings;
mod palette_topics;
mod panes;
mod people_events;
mod prelude;
mod preview;
mod prompt;
mod recent;
mod register;
mod reminders;
mod server_drafts;
mod snippet_keys;
mod snippets;
#[cfg(test)]
mod tests;
mod tick;
mod typing;
mod uploads;
mod views;

use actions::*;
pub use answers::{not_loaded, size_text, why};
pub use cold_start::start;
use common::*;
pub use common::{rebuild_people, rebuild_sidebar};
pub use compose::scheduled_in_order;
use compose::*;
pub use directory::{role_name, who_may_post, zone_time};
use events::*;
use keys::*;
pub use navigation::open_narrow;
use navigation::*;
pub use outbox::pending_in;
pub use outside::{message_link, plain_text};
use prelude::*;
pub use recent::{RECENT_MESSAGES, conversation};
use register::*;
pub use reminders::reminder_excerpt;
use tick::*;
pub use views::view_name;

/// How a failed page of messages starts its status line (cleared when a page loads).
const LOAD_FAILED: &str = "messages not loaded";

/// Apply one input; return what must happen outside.
pub fn update(st: &mut State, msg: Msg) -> Vec<Effect> {
    // The server refused the account: nothing goes to it until it is reopened.
    if st.ui.fatal.is_some() {
        return closed::on_msg(st, msg);
    }
    let (prompt_before, status_before) = (st.ui.prompt.is_some(), st.ui.status.clone());
    let what = msg.name();
    let mut fx = apply(st, msg);
    // A prompt opens on a clean line: what was said before it does not linger there.
    if !prompt_before && st.ui.prompt.is_some() && st.ui.status == status_before {
        st.ui.status = None;
    }
    // The session's state is kept on this machine once the first screen is complete (its
    // page came with register's answer, or after it, and its users are read).
    if st.ui.cache_due
        && st.data.roster_due.is_none()
        && st.data.narrows.get(&st.ui.narrow).is_some_and(|v| v.loaded && !v.loading_newer)
    {
        st.ui.cache_due = false;
        fx.push(Effect::SaveCache(Box::new(cache::snapshot(st))));
    }
    // The open inbox follows the unread index.
    inbox::follow(st);
    // Every local draft save is followed on the server.
    server_drafts::follow(st, &mut fx);
    // Others see the user typing, and stop seeing it.
    fx.extend(typing::follow(st));
    crate::app::invariants::assert_holds(&st.data, what);
    fx
}

/// Apply a register answer with its users read at once, on this task: for callers that run no
/// network tasks (the scripting subcommands, tests). Returns the other effects.
pub fn register_at_once(st: &mut State, r: RegisterResponse) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in update(st, Msg::Registered(Box::new(r))) {
        match e {
            Effect::ReadUsers { epoch, roster } => {
                out.extend(update(st, Msg::Users { epoch, roll: Box::new(roster.read()) }))
            }
            e => out.push(e),
        }
    }
    out
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
            let heading = st.ui.sidebar.get(row).is_none_or(|r| !r.selectable());
            if heading || st.ui.popup.is_some() || st.ui.prompt.is_some() {
                return vec![];
            }
            st.ui.focus = Focus::Sidebar;
            st.ui.sidebar_selected = row;
            on_action(st, Action::Open)
        }
        Msg::ImagesWanted(srcs) => images::on_wanted(st, srcs),
        Msg::Image { src, result } => {
            images::on_image(st, src, result);
            vec![]
        }
        Msg::ClickOrganization(i) => switch_organization(st, OrgSwitch::To(i)),
        Msg::Organizations(orgs) => {
            let shown = !st.ui.orgs.on_screen() && orgs.on_screen();
            st.ui.orgs = orgs;
            // Put on screen: what is selected is seen now.
            if shown { mark_selected_read(st) } else { vec![] }
        }
        Msg::InputElsewhere => {
            st.ui.last_input = st.now;
            vec![]
        }
        Msg::OrganizationClosed { name, .. } => {
            let text = answers::closed_elsewhere(st, &name);
            set_error(st, text);
            vec![]
        }
        // Only a closed organization is reopened.
        Msg::ReopenFailed(_) => vec![],
        Msg::ClickMessage(id) => {
            if st.ui.popup.is_some() || st.ui.prompt.is_some() {
                return vec![];
            }
            st.ui.focus = Focus::Messages;
            st.ui.selected = Some(id);
            mark_selected_read(st)
        }
        Msg::Tick(now) => on_tick(st, now),
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
        Msg::RegisterFailed(error) => {
            cold_start::forget(st);
            let why = answers::why(&error);
            st.ui.loading = false;
            // Back off exponentially up to a minute, with jitter so that many clients of a
            // restarted server do not come back in step.
            let attempts = st.ui.offline.as_ref().map_or(0, |o| o.attempts) + 1;
            let wait = Backoff::CLIENT.delay_secs(attempts, pseudo_random(st.now, attempts));
            let retry_at = st.now + wait;
            st.ui.offline = Some(Offline { why, retry_at, attempts, register_due: true });
            vec![]
        }
        Msg::Offline { error, retry_in } => {
            let why = answers::why(&error);
            let attempts = st.ui.offline.as_ref().map_or(0, |o| o.attempts);
            st.ui.offline =
                Some(Offline { why, retry_at: st.now + retry_in as i64, attempts, register_due: false });
            vec![]
        }
        Msg::Online => {
            if st.ui.offline.take().is_some() {
                set_status(st, "back online");
            }
            let mut fx = reload_if_not_loaded(st);
            fx.extend(outbox::pump(st));
            fx
        }
        Msg::Messages { narrow, resp, older, epoch } => {
            // The first page, come before the register answer, waits for it.
            let Some(resp) = cold_start::on_page(st, &narrow, epoch, resp) else { return vec![] };
            // A page asked for an earlier incarnation of the window would leave a gap.
            if epoch != 0 && st.data.epoch(&narrow) != epoch {
                return vec![];
            }
            // A view that loads says its earlier failure is over.
            if narrow == st.ui.narrow
                && st.ui.status.as_ref().is_some_and(|s| s.error && s.text.starts_with(LOAD_FAILED))
            {
                st.ui.status = None;
            }
            if !older && let Some(v) = st.data.narrows.get_mut(&narrow) {
                v.catch_up_at = None;
                v.catch_up_failures = 0;
            }
            let first = cold_start::is_first(st, &narrow, epoch);
            let (newest, found_newest) = cold_start::newest_of(&resp);
            let mut fx = on_messages(st, narrow, *resp, older);
            fx.extend(outbox::reap(st));
            hold::enforce(st);
            if first {
                let (more, held) = cold_start::after_page(st, newest, found_newest);
                fx.extend(more);
                for events in held {
                    fx.extend(apply(st, Msg::Events(events)));
                }
            }
            fx
        }
        Msg::Cached(snapshot) => cache::on_cached(st, *snapshot),
        Msg::Users { epoch, roll } => {
            let (mut fx, held) = register::on_users(st, epoch, *roll);
            for events in held {
                fx.extend(apply(st, Msg::Events(events)));
            }
            fx
        }
        Msg::MessagesFailed { narrow, error, older, epoch } => {
            let (early, held) = cold_start::on_page_failed(st, &narrow);
            if early {
                // Asked for again once register is in, as any first view is.
                return vec![];
            }
            let fx: Vec<Effect> =
                held.into_iter().flat_map(|events| apply(st, Msg::Events(events))).collect();
            if epoch != 0 && st.data.epoch(&narrow) != epoch {
                return fx;
            }
            let shown = narrow == st.ui.narrow;
            let now = st.now;
            let mut again =
                if error.is_transient() { " (reopen the view to retry)".to_owned() } else { String::new() };
            let mut drop_window = false;
            if let Some(v) = st.data.narrows.get_mut(&narrow) {
                v.loading_older = false;
                v.loading_newer = false;
                // A loaded window whose newer messages did not come may miss some: it no longer
                // claims to reach the newest. Shown, it is asked again after a while; not shown,
                // it is loaded anew when opened.
                if !older && v.loaded {
                    v.found_newest = false;
                    if !shown {
                        drop_window = true;
                    } else if error.is_transient() {
                        v.catch_up_failures += 1;
                        let wait = Backoff::CLIENT
                            .delay_secs(v.catch_up_failures, pseudo_random(now, v.catch_up_failures));
                        v.catch_up_at = Some(now + wait);
                        again = format!(" (trying again in {wait}s)");
                    }
                }
            }
            if drop_window {
                st.data.narrows.remove(&narrow);
            }
            // Asked again when the view is opened again (or paged, for older ones).
            if shown || !drop_window {
                set_error(st, format!("{LOAD_FAILED}: {}{again}", answers::why(&error)));
            }
            fx
        }
        Msg::DraftsLoaded(drafts) => {
            let (unsent, drafts): (Vec<_>, Vec<_>) =
                drafts.into_iter().partition(|(k, _)| k.starts_with("outbox-"));
            let (gone, drafts): (Vec<_>, Vec<_>) =
                drafts.into_iter().partition(|(k, _)| server_drafts::gone_id(k).is_some());
            let gone: Vec<i64> = gone.iter().filter_map(|(k, _)| server_drafts::gone_id(k)).collect();
            let (unconfirmed, drafts): (Vec<_>, Vec<_>) =
                drafts.into_iter().partition(|(k, _)| k.starts_with("unconfirmed-draft-"));
            let unconfirmed: Vec<(String, String)> = unconfirmed
                .into_iter()
                .filter_map(|(k, v)| Some((k.strip_prefix("unconfirmed-draft-")?.to_owned(), v)))
                .collect();
            let on_disk: std::collections::HashSet<String> = drafts.iter().map(|(k, _)| k.clone()).collect();
            for (k, v) in drafts {
                // What is on this machine wins over a copy from the server; text typed since
                // start-up wins over both.
                let from_server =
                    st.data.server_drafts.as_ref().and_then(|sd| sd.by_key.get(&k)).map(|(_, c)| c);
                if st.drafts.get(&k).is_none_or(|cur| Some(cur) == from_server) {
                    st.drafts.insert(k, v);
                }
            }
            let mut fx = server_drafts::on_gone_loaded(st, gone);
            fx.extend(server_drafts::on_unconfirmed_loaded(st, unconfirmed, &on_disk));
            fx.extend(outbox::restore_all(st, unsent));
            fx
        }
        Msg::Topics { channel, topics } => {
            // The server's list is what there is: a topic it no longer lists was deleted or
            // moved away. Its unread messages stand for a topic too (the index lets go of
            // deleted ones).
            let list = st.data.topics.entry(channel).or_default();
            list.topics.clear();
            for t in topics {
                list.touch(&t.name, t.max_id);
            }
            for t in st.data.unread.topics_in(channel).into_iter().flatten() {
                let newest = st.data.unread.in_conv(&Conv::Topic(channel, t.clone())).and_then(|s| s.last());
                if let Some(newest) = newest
                    && !list.topics.iter().any(|x| x.name.eq_ignore_ascii_case(t))
                {
                    list.touch(t, *newest);
                }
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
            // Held while the users are read (an event about a user lands on the map that lists
            // them), then while the first page is still out.
            if st.data.roster_due.is_some() {
                st.data.roster_held.push(events);
                return vec![];
            }
            let Some(events) = cold_start::hold(st, events) else { return vec![] };
            let mut fx = Vec::new();
            let (mut sidebar, mut people, mut mutes) = (false, false, false);
            for e in events {
                st.data.last_event_id = st.data.last_event_id.max(e.id);
                // Rows and the people list change only for some events; rebuilding them for
                // every typing notice would be O(channels + users) per event.
                let expanded = st.ui.expanded;
                sidebar |= match &e.kind {
                    EventKind::Subscription(_) => true,
                    // Rows list topics only for the expanded channel.
                    // … and the recent direct-message conversations.
                    EventKind::Message(m) => {
                        m.message.is_dm() || (expanded.is_some() && m.message.stream_id == expanded)
                    }
                    EventKind::MutedUsers { .. } | EventKind::NavigationView(_) => true,
                    EventKind::ChannelFolder(_) => true,
                    EventKind::UpdateMessage(_) | EventKind::DeleteMessage(_) => expanded.is_some(),
                    _ => false,
                };
                people |= matches!(
                    e.kind,
                    EventKind::Presence(_) | EventKind::UserStatus(_) | EventKind::RealmUser(_)
                );
                // What the inbox leaves out, or the channels it names, may have changed.
                mutes |= matches!(
                    e.kind,
                    EventKind::UserTopic(_)
                        | EventKind::Subscription(_)
                        | EventKind::MutedUsers { .. }
                        | EventKind::Stream(_)
                );
                fx.extend(on_event(st, e.kind));
            }
            if sidebar {
                rebuild_sidebar(st);
            }
            if people {
                rebuild_people(st);
            }
            if mutes {
                inbox::rebuild(st);
            }
            hold::enforce(st);
            fx
        }
        Msg::AuthLost(e) => answers::account_refused(st, &e),
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
        Msg::ServerDraftGone(id) => server_drafts::on_gone(st, id),
        Msg::TopicCounted { channel, topic, result } => match result {
            Ok((n, all)) => {
                let name = format!("#{} > {topic}", st.data.channel_name(channel));
                let count = match (n, all) {
                    (1, true) => "its one message".to_owned(),
                    (n, true) => format!("its {n} messages"),
                    (n, false) => format!("its {n} newest messages and more"),
                };
                let question = format!("Delete {name} and {count}, for everyone? This cannot be undone.");
                palette::confirm(st, question, Effect::DeleteTopic { channel, topic, name });
                vec![]
            }
            Err(e) => {
                set_error(
                    st,
                    format!("not deleted: could not count the topic's messages: {}", answers::why(&e)),
                );
                vec![]
            }
        },
        Msg::ReadReceipts { message_id, result } => {
            if let Some((id, receipts)) = &mut st.ui.read_receipts
                && *id == message_id
            {
                *receipts = Some(result.map_err(|e| answers::why(&e)));
            }
            vec![]
        }
        Msg::History { message_id, result } => {
            match (&mut st.ui.popup, result) {
                (Some(Popup::EditHistory { message_id: m, snapshots, .. }), Ok(s)) if *m == message_id => {
                    *snapshots = Some(s);
                }
                (_, Err(e)) => {
                    st.ui.popup = None;
                    let again =
                        answers::Again { key: Some((Context::Messages, Action::EditHistory)), command: None };
                    let hint = answers::retry_hint(st, &e, &again);
                    set_error(st, format!("edit history: {}{hint}", answers::why(&e)));
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
                set_error(st, format!("could not fetch the message's text: {}", answers::why(&e)));
                vec![]
            }
        },
        Msg::Edited(Ok(_)) => {
            let fx: Vec<Effect> =
                st.ui.compose.take().map(|c| drop_draft(st, c.draft_key())).into_iter().collect();
            set_status(st, "saved");
            fx
        }
        Msg::UploadProgress { name, sent, total } => {
            attach::progress(st, &name, sent, total);
            vec![]
        }
        Msg::Listed { dir, entries } => complete::listed(st, dir, entries),
        Msg::EditorDone(result) => outside::editor_done(st, result),
        Msg::NotificationClicked(clicked) => outside::notification_clicked(st, clicked),
        Msg::NotificationUnshown => vec![Effect::Term(TermEffect::Bell)],
        Msg::Edited(Err(e)) => {
            set_error(st, format!("not saved: {}", answers::why(&e)));
            vec![]
        }
        Msg::Done { job, result } => done::on_done(st, job, result),
        Msg::UnreadableEvents { count, first: (event_type, error) } => {
            // Where it broke is for the log; the user learns what was skipped.
            tracing::info!("{count} unreadable event(s); the first, of type {event_type:?}: {error}");
            set_error(st, format!("ignored {count} unreadable event(s) from the server ({event_type})"));
            vec![]
        }
    }
}
