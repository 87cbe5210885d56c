//! What palette commands share: the user or channel an argument names, and the y/N question
//! asked before a command runs.

use super::common::*;
use super::prelude::*;

/// The user a command's argument names (as `narrow::Resolver` reads a name).
pub(super) fn resolve_user(st: &State, who: &str) -> Result<UserId, String> {
    crate::app::narrow::Resolver::user_id(&st.data, who).map_err(|e| e.to_string())
}

/// The channel a command is about: named, or the one being viewed.
pub(super) fn command_channel(st: &State, named: Option<&str>) -> Result<ChannelId, String> {
    match named {
        Some(n) => crate::app::narrow::Resolver::channel_id(&st.data, n)
            .ok_or_else(|| format!("no channel named {n:?}")),
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
    st.ui.confirm = Some((format!("{question} (y/N)"), Box::new(effect)));
    st.ui.prompt = Some(Prompt::new(PromptKind::Confirm, ""));
}
