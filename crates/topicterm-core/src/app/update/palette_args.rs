//! What palette commands share: the user or channel an argument names, and the y/N question
//! asked before a command runs.

use super::common::*;
use super::prelude::*;

/// The user a command's argument names (as `narrow::Resolver` reads a name).
pub(super) fn resolve_user(st: &State, who: &str) -> Result<UserId, String> {
    crate::app::narrow::Resolver::user_id(&st.data, who).map_err(|e| e.to_string())
}

/// A channel a command names, as Tab completes it: any channel by its name, or the one of
/// `which` that the name begins (or begins a word of).
pub(super) fn channel_named(st: &State, name: &str, which: Which) -> Result<ChannelId, String> {
    if let Some(id) = crate::app::narrow::Resolver::channel_id(&st.data, name) {
        return Ok(id);
    }
    st.data.channels.resolve(which, name).map_err(|found| match found.as_slice() {
        [] => format!("no channel named {name:?}"),
        _ => several(name, &found),
    })
}

/// A name that begins several channels' names: which, so that the user can type more.
pub(super) fn several(name: &str, found: &[&str]) -> String {
    let shown: Vec<String> = found.iter().take(5).map(|n| format!("#{n}")).collect();
    let more = if found.len() > 5 { format!(" and {} more", found.len() - 5) } else { String::new() };
    format!("{name:?} could be {}{more}: type more of the name, or Tab through them", shown.join(", "))
}

/// The channel a command is about: named (any by its name, or one of the user's that the name
/// begins, as `channel_named`), or the one being viewed.
pub(super) fn command_channel(st: &State, named: Option<&str>) -> Result<ChannelId, String> {
    match named {
        Some(n) => channel_named(st, n, Which::Subscribed),
        None => match &st.ui.narrow {
            Narrow::Channel(c) | Narrow::Topic(c, _) => Ok(*c),
            _ => selected_message(st)
                .and_then(|m| m.stream_id().filter(|_| !m.is_dm()))
                .ok_or_else(|| "name a #channel, or open one first".to_owned()),
        },
    }
}

/// Ask `question` before `effect`, followed by "(y/N)" (every confirmation says it the same
/// way): only `y` runs it, anything else cancels.
pub(super) fn confirm(st: &mut State, question: String, effect: Effect) {
    ask(st, question, Confirmed::Run(Box::new(effect)));
}

/// Ask `question` before doing `then`, as [`confirm`] does.
pub(super) fn ask(st: &mut State, question: String, then: Confirmed) {
    st.ui.confirm = Some((format!("{question} (y/N)"), then));
    st.ui.prompt = Some(Prompt::new(PromptKind::Confirm, ""));
}
