//! Palette commands about channels: leave one (or remove others), its email address, create
//! one, its details.

use super::actions::sidebar_channel;
use super::common::*;
use super::directory::{leave_question, open_channel_info};
use super::palette_args::{channel_named, command_channel, confirm, resolve_user};
use super::prelude::*;

/// `:unsubscribe [#channel] [user…]`: ask before the user (or the users named) leave a channel.
pub(super) fn unsubscribe(
    st: &mut State,
    channel: Option<&str>,
    users: &[String],
) -> Result<Vec<Effect>, String> {
    // Only a named channel, the channel row selected in the sidebar, or the one on
    // screen: never the channel of whatever message happens to be selected in a
    // combined view.
    let c = match (channel, &st.ui.narrow, sidebar_channel(st)) {
        (Some(_), _, _) => command_channel(st, channel)?,
        (None, _, Some(c)) => c,
        (None, Narrow::Channel(c) | Narrow::Topic(c, _), _) => *c,
        (None, _, _) => return Err("name the channel: unsubscribe #channel [user…]".into()),
    };
    let ids = users.iter().map(|u| resolve_user(st, u)).collect::<Result<Vec<_>, _>>()?;
    let name = st.data.channels.name(c).to_owned();
    let me = st.data.me;
    let who = |u: &UserId| if *u == me { "you".to_owned() } else { st.data.user_name(*u).to_owned() };
    let question = match ids.as_slice() {
        [] => leave_question(&name, false),
        [one] if *one == me => leave_question(&name, false),
        _ => {
            let names: Vec<String> = ids.iter().map(who).collect();
            format!("Remove {} from #{name}?", and_list(&names))
        }
    };
    let names = if ids.is_empty() { vec!["you".to_owned()] } else { ids.iter().map(who).collect() };
    let principals = (!ids.is_empty()).then_some(ids);
    confirm(st, question, Effect::Api(ApiCall::Unsubscribe { channels: vec![name], principals, names }));
    Ok(vec![])
}

/// `:channel-email [#channel] [sender]`: ask the server for a channel's email address.
pub(super) fn channel_email(
    st: &State,
    channel: Option<&str>,
    sender: Option<&str>,
) -> Result<Vec<Effect>, String> {
    let c = command_channel(st, channel)?;
    let sender = match sender {
        None => None,
        Some("me") => Some(st.data.me),
        Some(s) => Some(resolve_user(st, s)?),
    };
    Ok(vec![Effect::Api(ApiCall::ChannelEmail { channel: c, sender })])
}

/// `:create-channel`: create a channel with the user as its first subscriber, unless one of
/// that name exists.
pub(super) fn create_channel(
    st: &mut State,
    name: String,
    private: bool,
    description: String,
) -> Result<Vec<Effect>, String> {
    crate::api::limits::check_channel_name(&name).map_err(|e| e.to_string())?;
    if let Some(c) = st.data.channels.by_name(&name) {
        return Err(format!("#{} already exists, and you are in it", c.name));
    }
    if let Some((_, n)) = st.data.channels.joinable_by_name(&name) {
        return Err(format!("#{n} already exists (:subscribe #{n} joins it)"));
    }
    set_status(st, format!("creating #{name}…"));
    let subscribers = vec![st.data.me];
    Ok(vec![Effect::Api(ApiCall::CreateChannel(NewChannel { name, description, private, subscribers }))])
}

/// `:channel-info [#channel]`: open a channel's details.
pub(super) fn channel_info(st: &mut State, named: Option<&str>) -> Result<Vec<Effect>, String> {
    // Named, the channel row selected in the sidebar, or the one being viewed.
    let id = match named {
        Some(n) => channel_named(st, n, Which::Any)?,
        None => match sidebar_channel(st) {
            Some(c) => c,
            None => command_channel(st, None)?,
        },
    };
    Ok(open_channel_info(st, id, None))
}

/// `:channel-push-default on|off [#channel]`: whether the channel's new subscribers get mobile
/// notifications (level 507; organization administrators only, as the server rules).
pub(super) fn push_default(st: &mut State, on: bool, named: Option<&str>) -> Result<Vec<Effect>, String> {
    st.data
        .realm
        .level()
        .require(
            crate::api::levels::DEFAULT_PUSH_NOTIFICATIONS,
            "a channel's default for mobile notifications",
            "Zulip 13.0",
        )
        .map_err(|e| e.to_string())?;
    if !st.data.users.get(st.data.me).is_some_and(UserInfo::is_admin) {
        return Err(
            "only organization administrators set a channel's default for mobile notifications".into()
        );
    }
    let channel = command_channel(st, named)?;
    set_status(
        st,
        format!("setting #{}'s default for mobile notifications…", st.data.channels.name(channel)),
    );
    Ok(vec![Effect::Api(ApiCall::PushDefault { channel, on })])
}
