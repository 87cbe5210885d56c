//! `update(&mut State, Msg) -> Vec<Effect>`: all behaviour, no I/O.
//!
//! `apply` routes each message by what arrived; the work is split the same way: `answers`
//! (finished background jobs, put into words), `register`
//! (a register answer and resyncs), `events` (real-time events), `keys` (keys and pastes),
//! `actions` (what keys are bound to), `navigation` (narrows, pages, selection, reading),
//! `compose` and `complete` (the compose box and tab completion), `outbox` (optimistic sending),
//! `palette` (`:commands`), `tick` (the clock and presence pings), `server_drafts`,
//! `outside` (links, clipboard, editor, notifications), `hints` (link hints), `reminders` and `uploads` (their
//! lists, whose keys are in `lists_keys`), `drafts_list` (`:drafts`).

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
mod connection;
mod directory;
mod directory_keys;
mod done;
mod drafts_list;
mod events;
mod fetched;
mod hints;
mod hold;
mod images;
mod inbox;
mod keys;
mod lists_keys;
mod local;
mod message_events;
mod mouse;
mod navigation;
mod outbox;
mod outside;
mod pages;
mod palette;
mod palette_args;
mod palette_channels;
mod palette_messages;
mod palette_people;
mod palette_settings;
mod palette_topics;
mod panes;
mod people_events;
mod people_list;
mod prelude;
mod preview;
mod prompt;
mod read_marking;
mod recent;
mod register;
mod reminders;
mod server_drafts;
mod settings_popup;
mod snippet_keys;
mod snippets;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_settings;
mod tick;
mod typing;
mod uploads;
mod user_settings;
mod views;

use actions::*;
pub use answers::{not_loaded, size_text, why};
pub use cold_start::start;
use common::*;
pub use common::{rebuild_people, rebuild_sidebar};
pub use compose::{enter_sends, scheduled_in_order};
pub use directory::{role_name, who_may_post, zone_time};
pub use drafts_list::{Listed, listed};
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

/// Apply one input; return what must happen outside.
pub fn update(st: &mut State, msg: Msg) -> Vec<Effect> {
    // The server refused the account: nothing goes to it until it is reopened.
    if st.ui.conn.fatal().is_some() {
        return closed::on_msg(st, msg);
    }
    let (prompt_before, status_before) = (st.ui.prompt.is_some(), st.ui.status.clone());
    let what = msg.name();
    people_list::before(st, &msg);
    let mut fx = apply(st, msg);
    // A prompt opens on a clean line: what was said before it does not linger there.
    if !prompt_before && st.ui.prompt.is_some() && st.ui.status == status_before {
        st.ui.status = None;
    }
    // The session's state is kept on this machine once the first screen is complete (its
    // page came with register's answer, or after it, and its users are read).
    if st.ui.conn.cache_due()
        && !st.data.users.is_reading()
        && st.data.views.get(&st.ui.narrow).is_some_and(|v| v.is_loaded() && !v.is_loading_newer())
    {
        st.ui.conn.take_cache_due();
        fx.push(Effect::SaveCache(Box::new(cache::snapshot(st))));
    }
    // The open inbox follows the unread index.
    inbox::follow(st);
    // Every local draft save is followed on the server.
    server_drafts::follow(st, &mut fx);
    // What is on screen is read, where the user's setting says so.
    fx.extend(read_marking::follow(st));
    // Others see the user typing, and stop seeing it.
    fx.extend(typing::follow(st));
    // What a reader needed of the people not all known here is asked for (`--low-bandwidth`).
    fx.extend(people_list::follow(st));
    crate::app::invariants::assert_holds(&st.data, &st.drafts, &st.outbox, what);
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
        Msg::Focus(focused) => tick::on_focus(st, focused),
        Msg::Scroll { sidebar, lines } => mouse::on_scroll(st, sidebar, lines),
        Msg::ClickSidebar(row) => mouse::on_click_sidebar(st, row),
        Msg::ImagesWanted(srcs) => images::on_wanted(st, srcs),
        Msg::LinksOnScreen(links) => {
            st.ui.links_on_screen = links;
            vec![]
        }
        Msg::MessagesOnScreen(ids) => {
            st.ui.messages_on_screen = (st.ui.narrow.clone(), ids);
            vec![]
        }
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
            st.ui.presence.key_pressed(st.now);
            vec![]
        }
        Msg::OrganizationClosed { name, .. } => {
            let text = answers::closed_elsewhere(st, &name);
            set_error(st, text);
            vec![]
        }
        // Only a closed organization is reopened.
        Msg::ReopenFailed(_) => vec![],
        Msg::ClickMessage(id) => mouse::on_click_message(st, id),
        Msg::Tick(now) => on_tick(st, now),
        Msg::Presence(resp) => {
            st.data.users.on_ping_answer(resp.presences.as_ref(), resp.presence_last_update_id);
            rebuild_people(st);
            vec![]
        }
        Msg::Registered(resp) => on_registered(st, *resp),
        Msg::RegisterFailed(error) => connection::on_register_failed(st, &error),
        Msg::Offline { error, retry_in } => connection::on_offline(st, &error, retry_in),
        Msg::Online => connection::on_online(st),
        Msg::Unanswered(waited) => connection::on_unanswered(st, waited),
        Msg::Messages { narrow, resp, older, epoch } => pages::on_page(st, narrow, resp, older, epoch),
        Msg::Cached(snapshot) => cache::on_cached(st, *snapshot),
        Msg::Users { epoch, roll } => pages::on_users(st, epoch, *roll),
        Msg::MessagesFailed { narrow, error, older, epoch } => {
            pages::on_page_failed(st, narrow, &error, older, epoch)
        }
        Msg::DraftsLoaded(drafts) => server_drafts::on_loaded(st, drafts),
        Msg::ArchiveHits { narrow, epoch, messages } => local::on_hits(st, narrow, epoch, messages),
        Msg::BackfillProgress { name, fetched, about } => {
            local::on_backfill_progress(st, &name, fetched, about)
        }
        Msg::BackfillWaiting { name, why, retry_in } => local::on_backfill_waiting(st, &name, &why, retry_in),
        Msg::BackfillDone { name, result } => local::on_backfill_done(st, &name, result),
        Msg::ArchiveChecked(result) => local::on_archive_checked(st, result),
        Msg::Topics { channel, topics } => pages::on_topics(st, channel, topics),
        Msg::Events(events) => events::on_events(st, events),
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
        Msg::TopicCounted { channel, topic, result } => fetched::on_topic_counted(st, channel, topic, result),
        Msg::ReadReceipts { message_id, result } => fetched::on_read_receipts(st, message_id, result),
        Msg::History { message_id, result } => fetched::on_history(st, message_id, result),
        Msg::Raw { message_id, edit, result } => fetched::on_raw(st, message_id, edit, result),
        Msg::Edited(Ok(_)) => fetched::on_edited(st),
        Msg::UploadProgress { name, sent, total } => {
            attach::progress(st, &name, sent, total);
            vec![]
        }
        Msg::Listed { dir, entries } => complete::listed(st, dir, entries),
        Msg::EditorDone(result) => outside::editor_done(st, result),
        Msg::NotificationClicked(clicked) => outside::notification_clicked(st, clicked),
        Msg::NotificationUnshown => burst::unshown(st),
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
