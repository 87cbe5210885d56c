//! Palette commands about people and groups: deactivate a user, a group's members and
//! subgroups, mute a user, a profile, invitations.

use super::common::*;
use super::directory::{channel_by_name, open_profile};
use super::palette_args::{confirm, resolve_user};
use super::prelude::*;

/// The user group a command's argument names (`@` optional, any case).
fn resolve_group(st: &State, name: &str) -> Result<i64, String> {
    let Some(mut groups) = st.data.users.all_groups() else {
        return Err(format!(
            "{} ({name:?} is looked up once they are read)",
            crate::app::people::READING_GROUPS
        ));
    };
    groups
        .find(|g| g.name.eq_ignore_ascii_case(name.trim_start_matches('@')))
        .map(|g| g.id)
        .ok_or_else(|| format!("no user group {name:?}"))
}

/// `:deactivate USER [--delete-…]`: ask an administrator before deactivating a user, naming
/// what goes with them.
pub(super) fn deactivate(st: &mut State, who: &str, actions: &[String]) -> Result<Vec<Effect>, String> {
    let user = resolve_user(st, who)?;
    let name = st.data.user_name(user).to_owned();
    let has = |f: &str| actions.iter().any(|a| a == f);
    let actions = (!actions.is_empty()).then(|| DeactivationActions {
        delete_profile: has("--delete-profile"),
        delete_public_channel_messages: has("--delete-public"),
        delete_private_channel_messages: has("--delete-private"),
        delete_direct_messages: has("--delete-dms"),
    });
    if !st.data.users.get(st.data.me).is_some_and(UserInfo::is_admin) {
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
    confirm(st, format!("Deactivate {name}? Their bots go too. {deletes}"), effect);
    Ok(vec![])
}

/// `:group-add`, `:group-remove`, `:subgroup-add`, `:subgroup-remove`: change a user group's
/// members or subgroups, refusing by name what the server would refuse.
pub(super) fn group_members(
    st: &State,
    group: &str,
    add: bool,
    subgroups: bool,
    names: &[String],
) -> Result<Vec<Effect>, String> {
    let group_id = resolve_group(st, group)?;
    let ids: Vec<i64> = if subgroups {
        names.iter().map(|n| resolve_group(st, n)).collect::<Result<_, _>>()?
    } else {
        names.iter().map(|n| resolve_user(st, n)).collect::<Result<_, _>>()?
    };
    let d = &st.data;
    let g = &d.users.group(group_id).expect("a group held");
    let gname = format!("@{}", g.name);
    let name = |id: &i64| {
        if subgroups {
            d.users.group(*id).map_or_else(|| "(unknown group)".to_owned(), |g| format!("@{}", g.name))
        } else {
            d.user_name(*id).to_owned()
        }
    };
    let listed: Vec<String> = ids.iter().map(name).collect();
    let list = and_list(&listed);
    // Say what the server would refuse, by name (its refusals name IDs).
    for id in &ids {
        let n = name(id);
        let present = if subgroups { g.direct_subgroup_ids.contains(id) } else { g.members.contains(id) };
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
    Ok(vec![Effect::Api(ApiCall::GroupMembers { group_id, update, done, group: gname, names })])
}

/// `:mute-user` and `:unmute-user`: hide (or show again) a user's messages.
pub(super) fn mute_user(st: &State, who: &str, mute: bool) -> Result<Vec<Effect>, String> {
    let user = resolve_user(st, who)?;
    let name = st.data.user_name(user).to_owned();
    if user == st.data.me {
        return Err("you cannot mute yourself".into());
    }
    if st.data.users.is_muted(user) == mute {
        return Err(format!("{name} is {}muted", if mute { "already " } else { "not " }));
    }
    Ok(vec![Effect::Api(ApiCall::MuteUser { user, name, mute })])
}

/// `:profile [@user]`: open a user's profile, by default the selected message's sender's.
pub(super) fn profile(st: &mut State, named: Option<&str>) -> Result<Vec<Effect>, String> {
    let user = match named {
        Some(n) => resolve_user(st, n)?,
        None => selected_message(st)
            .map(|m| m.sender_id())
            .ok_or("name someone (:profile @name), or select one of their messages")?,
    };
    Ok(open_profile(st, user))
}

/// `:invite EMAIL… [#channel…]`: invite people by email into the channels named.
pub(super) fn invite(
    st: &mut State,
    emails: Vec<String>,
    channels: &[String],
) -> Result<Vec<Effect>, String> {
    let ids = channels
        .iter()
        .map(|n| channel_by_name(st, n).ok_or_else(|| format!("no channel named {n:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    let channels: Vec<String> = ids.iter().map(|c| st.data.channels.name(*c).to_owned()).collect();
    set_status(st, format!("inviting {}…", and_list(&emails)));
    Ok(vec![Effect::Api(ApiCall::Invite { emails, ids, channels })])
}
