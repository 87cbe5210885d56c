//! Palette commands on the selected message's topic: rename or move it, resolve it, delete it.

use super::actions::current_topic;
use super::common::*;
use super::palette_args::command_channel;
use super::prelude::*;
use crate::app::rules::{TopicChange, topic_change_refused};

/// The topic prefix that marks a topic resolved (the server's convention).
pub(super) const RESOLVED_PREFIX: &str = "✔ ";

/// The selected message, when it is in a channel: (its ID, the channel, the topic).
pub(super) fn selected_topic_message(st: &State) -> Result<(MessageId, ChannelId, String), String> {
    let m = selected_message(st).ok_or("select a message in the topic first")?;
    let c = m.stream_id().filter(|_| !m.is_dm()).ok_or("direct messages have no topic to change")?;
    Ok((m.id, c, m.topic().to_owned()))
}

/// `:rename-topic` and `:move-topic`: rename the selected message's topic and/or move it to
/// another channel (`mode` says which messages go).
pub(super) fn move_topic(
    st: &mut State,
    channel: Option<&str>,
    topic: Option<String>,
    mode: &'static str,
) -> Result<Vec<Effect>, String> {
    let (id, c, old) = selected_topic_message(st)?;
    let to_channel = channel.map(|n| command_channel(st, Some(n))).transpose()?;
    let to_channel = to_channel.filter(|n| *n != c);
    let topic = topic.filter(|t| *t != old);
    if to_channel.is_none() && topic.is_none() {
        return Err("nothing to change: that is where the topic is".into());
    }
    // The organization's rules, before the request (`app::rules`).
    use crate::app::rules::{TopicChange, topic_change_refused};
    let change = if to_channel.is_some() { TopicChange::Move } else { TopicChange::Rename };
    if let Some(why) = st
        .data
        .messages
        .get(&id)
        .and_then(|m| topic_change_refused(&st.data, m, change, mode == "change_all", st.now))
    {
        return Err(why);
    }
    let dest =
        format!("#{} > {}", st.data.channels.name(to_channel.unwrap_or(c)), topic.as_deref().unwrap_or(&old));
    let done = match (to_channel, mode) {
        (None, "change_all") => format!("topic renamed: {dest}"),
        (Some(_), "change_all") => format!("topic moved: {dest}"),
        _ => format!("moved to {dest}"),
    };
    let edit =
        MessageEdit { topic, stream_id: to_channel, propagate_mode: Some(mode.into()), ..Default::default() };
    set_status(st, "moving…");
    Ok(vec![Effect::Api(ApiCall::MoveTopic { message_id: id, edit, done })])
}

/// `:resolve` and `:unresolve`: add or take off the ✔ of the selected message's topic.
pub(super) fn resolve_topic(st: &mut State, resolve: bool) -> Result<Vec<Effect>, String> {
    let (id, c, old) = selected_topic_message(st)?;
    let bare = old.strip_prefix(RESOLVED_PREFIX).unwrap_or(&old).to_owned();
    if old.starts_with(RESOLVED_PREFIX) == resolve {
        return Err(format!("the topic is {}resolved", if resolve { "already " } else { "not " }));
    }
    // The organization's rules, before any request, as `V` asks them (`app::rules`).
    let refused = st
        .data
        .messages
        .get(&id)
        .and_then(|m| topic_change_refused(&st.data, m, TopicChange::Resolve, true, st.now));
    if let Some(why) = refused {
        return Err(why);
    }
    let topic = if resolve { format!("{RESOLVED_PREFIX}{bare}") } else { bare };
    let done = format!("#{} > {topic}", st.data.channels.name(c));
    let done = if resolve { format!("resolved: {done}") } else { format!("unresolved: {done}") };
    let edit =
        MessageEdit { topic: Some(topic), propagate_mode: Some("change_all".into()), ..Default::default() };
    Ok(vec![Effect::Api(ApiCall::MoveTopic { message_id: id, edit, done })])
}

/// `:delete-topic`: count the selected topic's messages, to ask before deleting them all.
pub(super) fn delete_topic(st: &mut State) -> Result<Vec<Effect>, String> {
    let (channel, topic) = current_topic(st).ok_or("select a message in a topic first")?;
    if !st.data.users.get(st.data.me).is_some_and(UserInfo::is_admin) {
        return Err("only administrators can delete a topic".into());
    }
    set_status(st, format!("counting the messages of #{} > {topic}…", st.data.channels.name(channel)));
    Ok(vec![Effect::CountTopic { channel, topic }])
}
