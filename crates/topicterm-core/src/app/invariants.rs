//! What must hold of the data after every change, checked after every batch of events, page
//! and register answer in debug and test builds (as zulip-flutter's `debugAssert`s): the
//! derived state agrees with the state it derives from, so a drift shows up in the first test
//! that makes it, not as a wrong count a user meets days later. Walks everything held: never
//! built into a release.

use super::drafts::Drafts;
use super::narrow::Narrow;
use super::outbox::Outbox;
use super::state::Data;
use crate::api::Flag;
use crate::api::names::same_name;

/// The first way the data disagrees with itself, in words.
pub fn check(d: &Data) -> Result<(), String> {
    d.unread.check()?;
    // A channel is the user's or one they can join, never both.
    d.channels.check()?;
    // The name index lists exactly the users, each under the name they hold.
    d.users.check()?;
    // Each scheduled message and snippet under its own ID; the reminders soonest first.
    d.lists.check()?;
    // Every held message counts as unread exactly when its flags say so, where it lives, and
    // as a mention exactly when it mentions the user.
    for m in d.messages.values() {
        let unread = !m.has_flag(Flag::Read);
        if d.unread.contains(m.id) != unread {
            return Err(format!(
                "message {} is {} but the unread index says otherwise",
                m.id,
                if unread { "unread" } else { "read" }
            ));
        }
        if unread {
            let conv = d.conv_of(m);
            if d.unread.conv(m.id) != Some(&conv) {
                return Err(format!(
                    "unread message {} is counted in {:?}, not {conv:?}",
                    m.id,
                    d.unread.conv(m.id)
                ));
            }
            if d.unread.is_mention(m.id) != m.mentions_me() {
                return Err(format!("unread message {} is miscounted as a mention", m.id));
            }
        }
    }
    // No view of a place holds a message that is somewhere else now. (The lists that follow a
    // flag keep what the user is looking at until they leave; searches are the server's.)
    d.views.check()?;
    for (narrow, view) in d.views.iter() {
        if !matches!(narrow, Narrow::Channel(_) | Narrow::Topic(..) | Narrow::Dm(_) | Narrow::AllDms) {
            continue;
        }
        if let Some(m) =
            view.ids().iter().filter_map(|id| d.messages.get(id)).find(|m| !narrow.contains(m, d.me))
        {
            return Err(format!("the view of {narrow:?} holds message {}, which is not there", m.id));
        }
    }
    // A channel's topic row stands for messages: none is listed twice, the rows are newest
    // first, and the newest message a row names, where it is held, is in that channel and
    // topic (not moved, renamed or deleted from under the row); no policy is misfiled.
    d.topics.check()?;
    for (c, list) in d.topics.iter() {
        for t in list.iter() {
            if let Some(m) = d.messages.get(&t.max_id)
                && (m.stream_id() != Some(c) || !same_name(m.topic(), &t.name))
            {
                return Err(format!(
                    "channel {c}'s topic row {:?} stands on message {}, which is in {:?} > {:?} now",
                    t.name,
                    m.id,
                    m.stream_id(),
                    m.topic()
                ));
            }
        }
    }
    Ok(())
}

/// Panics, naming what disagrees, when the data does not hold together; nothing in a release.
pub fn assert_holds(d: &Data, drafts: &Drafts, outbox: &Outbox, after: &str) {
    // The drafts: no server draft both held and deleted here, nor held by two conversations.
    // The outbox: local ids unique, at most one send in flight, no message accepted twice.
    if cfg!(debug_assertions)
        && let Err(e) = check(d).and_then(|()| drafts.check()).and_then(|()| outbox.check())
    {
        panic!("the data no longer holds together after {after}: {e}");
    }
}
