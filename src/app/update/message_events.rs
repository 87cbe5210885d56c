//! The message events (`message`, `update_message`, `delete_message`, `reaction`,
//! `update_message_flags`, `submessage`), applied to the message store, the unread index, the
//! views and the channels' topic rows — each as the server says it is now.

use super::common::*;
use super::navigation::open_near;
use super::prelude::*;
use crate::app::told::Mark;
use crate::names::same_name;

/// A new message: held, counted, and added to every loaded view it belongs to.
pub(super) fn on_message(st: &mut State, ev: Box<MessageEvent>) -> Vec<Effect> {
    let me = st.data.me;
    let ev = *ev;
    let mut m = ev.message;
    m.flags = ev.flags;
    let m = st.data.messages.compact(m);
    let id = m.id;
    st.data.messages.told(id, Mark::Changed, st.now);
    let notice = super::outside::notify(st, &m);
    super::recent::on_message(st, &m);
    let d = &st.data;
    let targets: Vec<Narrow> = d
        .views
        .iter()
        .filter(|(n, v)| {
            let feed_ok = **n != Narrow::All || d.in_feed(&m);
            feed_ok && n.contains(&m, me) && v.found_newest()
        })
        .map(|(n, _)| n.clone())
        .collect();
    st.data.insert_stored(m);
    st.data.views.on_message(id, &targets);
    apply_jump(st);
    let mut fx = super::burst::admit(st, notice);
    fx.extend(super::outbox::on_message_event(st, ev.local_message_id.as_deref(), id));
    fx
}

/// Messages edited, or moved to another topic or channel.
pub(super) fn on_update(st: &mut State, ev: &UpdateMessageEvent) -> Vec<Effect> {
    let ids = if ev.message_ids.is_empty() { vec![ev.message_id] } else { ev.message_ids.clone() };
    let moved = ev.subject.is_some() || ev.new_stream_id.is_some();
    for id in &ids {
        // What the event says wins over a page asked for before it (`app::told`).
        let mark = match moved {
            true => Mark::Moved { channel: ev.new_stream_id, topic: ev.subject.clone() },
            false => Mark::Changed,
        };
        st.data.messages.told(*id, mark, st.now);
        let Some(m) = st.data.messages.get_mut(id) else { continue };
        if *id == ev.message_id
            && let Some(c) = &ev.rendered_content
        {
            m.set_content(c, ev.edit_timestamp);
            // The user's flags as they are now (an alert word may have come or gone).
            if !ev.flags.is_empty() {
                m.set_flags(&ev.flags);
            }
        }
        if moved {
            st.data.move_held(*id, ev.new_stream_id, ev.subject.as_deref());
        }
        st.data.reindex(*id);
    }
    if !moved {
        return vec![];
    }
    let mut fx: Vec<Effect> = views_after_move(st, ev, &ids).into_iter().collect();
    fx.extend(moved_topic_rows(st, ev, &ids));
    // Reading the topic that moved: follow the selected message to where it went.
    if let (Narrow::Topic(..), Some(sel)) = (&st.ui.narrow, st.ui.selected)
        && ids.contains(&sel)
        && let Some(m) = st.data.messages.get(&sel)
        && let Some(c) = m.stream_id()
    {
        let to = Narrow::Topic(c, m.topic().to_owned());
        if to != st.ui.narrow {
            return follow(st, to, sel, &ids, fx);
        }
    }
    fx
}

/// A held message moved: to channel `channel` (`None`: the same) and/or topic `topic`.
/// The topic on screen moved with its selected message: its new topic is opened at that
/// message, showing at once what is held of it — the messages that moved and what the new
/// topic's view held — until the server's page takes their place (what the event said wins
/// over that page even when the server answered it before making the move, `app::told`).
fn follow(st: &mut State, to: Narrow, sel: MessageId, ids: &[MessageId], mut fx: Vec<Effect>) -> Vec<Effect> {
    let me = st.data.me;
    let d = &st.data;
    let mut shown: Vec<MessageId> = d.views.get(&to).map(|v| v.ids().to_vec()).unwrap_or_default();
    shown.extend(ids.iter().copied().filter(|id| d.messages.get(id).is_some_and(|m| to.contains(m, me))));
    fx.extend(open_near(st, to.clone(), sel));
    st.data.views.fill_provisional(&to, shown);
    apply_jump(st);
    fx
}

/// Messages moved: every view (the conversations they left and joined too, the one on screen
/// among them) lets go of those no longer in it and takes those now in it where its window
/// covers their place — so a view never keeps a message moved out of it, nor lacks one moved
/// into it. Moved messages not held are asked for with the window on screen they land in
/// (the other windows they land in load anew when opened): the effect that asks.
fn views_after_move(st: &mut State, ev: &UpdateMessageEvent, ids: &[MessageId]) -> Option<Effect> {
    let me = st.data.me;
    let mut views = std::mem::take(&mut st.data.views);
    let d = &st.data;
    let belongs = |n: &Narrow, id: MessageId| {
        d.messages.get(&id).is_some_and(|m| n.contains(m, me) && (*n != Narrow::All || d.in_feed(m)))
    };
    let missing: Vec<MessageId> = ids.iter().copied().filter(|id| !d.messages.contains_key(id)).collect();
    // Where the messages not held went: the event's channel and topic.
    let channel = ev.new_stream_id.or(ev.stream_id);
    let topic = ev.subject.as_deref().or(ev.orig_subject.as_deref());
    let lands = |n: &Narrow| match n {
        Narrow::All => channel.zip(topic).is_none_or(|(c, t)| !d.topic_muted(c, t)),
        Narrow::Channel(c) => channel == Some(*c),
        Narrow::Topic(c, t) => channel == Some(*c) && topic.is_some_and(|x| same_name(x, t)),
        _ => false,
    };
    let asked = views.on_move(ids, &missing, belongs, lands, &st.ui.narrow);
    st.data.views = views;
    let epoch = asked?;
    Some(super::navigation::again_of(st, st.ui.narrow.clone(), epoch))
}

/// A topic moved (renamed, or to another channel): its row in the channels pane goes where
/// the messages went. The old row goes when the whole topic moved; when only some messages
/// did, the old channel's topics are asked for again (the server knows what is left).
fn moved_topic_rows(st: &mut State, ev: &UpdateMessageEvent, ids: &[MessageId]) -> Vec<Effect> {
    let d = &mut st.data;
    // Its newest message moved: the row stands on what is still known there (its newest
    // unread message), else goes until the server says what is left.
    let unread = &d.unread;
    let from = ev.stream_id.unwrap_or_default();
    let changed = d
        .topics
        .on_move(ev, ids, |name| unread.in_conv(&Conv::topic(from, name)).and_then(|s| s.last().copied()));
    if !changed.rows {
        return vec![];
    }
    rebuild_sidebar(st);
    changed.ask_again.map(Effect::FetchTopics).into_iter().collect()
}

/// A poll's vote, a to-do list's tick.
pub(super) fn on_submessage(st: &mut State, ev: &SubmessageEvent) {
    st.data.messages.told(ev.message_id, Mark::Changed, st.now);
    if let Some(m) = st.data.messages.get_mut(&ev.message_id) {
        m.add_submessage(ev.submessage());
        let m = m.clone();
        st.data.refresh_widget(&m);
    }
}

/// Messages deleted (one, or a topic's in batches): gone from the store, the counts and every
/// view. A topic whose newest message went loses its row unless what is left of it is known;
/// the channel's topics are asked for again, the server knowing what is left.
pub(super) fn on_delete(st: &mut State, ev: &DeleteMessageEvent) -> Vec<Effect> {
    let ids = ev.ids();
    for &id in &ids {
        st.data.messages.told(id, Mark::Deleted, st.now);
        st.data.messages.remove(&id);
        st.data.widgets.remove(&id);
        st.data.unread.remove(id);
        st.data.views.on_delete(id);
        if st.ui.selected == Some(id) {
            st.ui.selected = None;
        }
    }
    let (Some(c), Some(topic)) = (ev.stream_id, ev.topic.as_deref()) else { return vec![] };
    let d = &mut st.data;
    // What is still known of the topic: its newest unread message, or the newest message its
    // own view holds.
    let (unread, views) = (&d.unread, &d.views);
    let left = |name: &str| {
        let left = [
            unread.in_conv(&Conv::topic(c, topic)).and_then(|s| s.last().copied()),
            views.get(&Narrow::Topic(c, name.to_owned())).and_then(|v| v.ids().last().copied()),
        ];
        left.into_iter().flatten().max()
    };
    let changed = d.topics.on_delete(ev, left);
    if !changed.rows {
        return vec![];
    }
    rebuild_sidebar(st);
    changed.ask_again.map(Effect::FetchTopics).into_iter().collect()
}

/// An emoji reaction added or taken back.
pub(super) fn on_reaction(st: &mut State, ev: ReactionEvent) {
    st.data.messages.told(ev.message_id, Mark::Changed, st.now);
    if let Some(m) = st.data.messages.get_mut(&ev.message_id) {
        let r = Reaction {
            emoji_name: ev.emoji_name,
            emoji_code: ev.emoji_code,
            reaction_type: ev.reaction_type,
            user_id: ev.user_id,
        };
        match ev.op {
            AddRemove::Add => {
                m.add_reaction(r);
            }
            AddRemove::Remove => m.retain_reactions(|x| {
                !(x.user_id == r.user_id
                    && x.emoji_code == r.emoji_code
                    && x.reaction_type == r.reaction_type)
            }),
            AddRemove::Other(_) => {}
        }
    }
}

/// Flags set or cleared (read, starred, …), here or on another device.
pub(super) fn on_flags(st: &mut State, ev: &FlagsEvent) {
    let add = match ev.op {
        AddRemove::Add => true,
        AddRemove::Remove => false,
        AddRemove::Other(_) => return,
    };
    if ev.flag == Flag::Read && add && ev.all {
        st.data.unread.clear();
        st.data.messages.set_flag_where(Flag::Read, |_| true);
    }
    for id in &ev.messages {
        // The read state is the unread index's, which a page never overrides; other flags
        // win over a page asked for before (`app::told`).
        if ev.flag != Flag::Read {
            st.data.messages.told(*id, Mark::Changed, st.now);
        }
        if let Some(m) = st.data.messages.get_mut(id) {
            m.set_flag(ev.flag.clone(), add);
        }
        if ev.flag == Flag::Starred {
            if add {
                st.data.starred.insert(*id);
            } else {
                st.data.starred.remove(id);
            }
            starred_changed(st, *id, add);
        }
        if ev.flag == Flag::Read {
            if add {
                st.data.unread.remove(*id);
            } else if let Some(m) = st.data.messages.get(id) {
                let conv = st.data.conv_of(m);
                let mentioned = m.mentions_me();
                st.data.unread.add(*id, conv, mentioned);
            } else if let Some(d) = ev.message_details.get(id) {
                // Not held here: where it is comes with the event.
                let conv = match (d.kind.as_str(), d.stream_id) {
                    ("stream", Some(c)) => {
                        let topic = d.topic.clone().unwrap_or_default();
                        st.data.topics.on_message(c, &topic, *id);
                        Conv::topic(c, &topic)
                    }
                    _ => Conv::dm(d.user_ids.as_deref().unwrap_or_default(), st.data.me),
                };
                st.data.unread.add(*id, conv, d.mentioned);
            }
        }
    }
}

/// Keep the starred view's window true to the flags: a newly starred message joins it where the
/// window covers its place; an unstarred one leaves it, except while the view is on screen (it
/// stays under the cursor until the view is opened again, as in the web app). A message this
/// client does not hold makes the window stale: it is fetched again when next opened.
pub(super) fn starred_changed(st: &mut State, id: MessageId, add: bool) {
    let shown = st.ui.narrow == Narrow::Starred;
    let held = st.data.messages.contains_key(&id);
    let Some(view) = st.data.views.get_mut(&Narrow::Starred) else { return };
    if !held {
        if !shown {
            st.data.views.close(&Narrow::Starred);
        }
        return;
    }
    if add {
        if view.covers(id) {
            view.merge([id]);
        }
    } else if !shown {
        view.remove(id);
    }
}
