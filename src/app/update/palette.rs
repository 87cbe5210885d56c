//! The command palette: `:command` lines turned into effects.

use super::actions::*;
use super::common::*;
use super::compose::*;
use super::directory::*;
use super::prelude::*;

pub(super) fn resolve_user(st: &State, who: &str) -> Result<UserId, String> {
    crate::app::narrow::Resolver::user_id(&st.data, who).map_err(|e| e.to_string())
}

pub(super) fn resolve_group(st: &State, name: &str) -> Result<i64, String> {
    st.data
        .groups
        .values()
        .find(|g| g.name.eq_ignore_ascii_case(name.trim_start_matches('@')))
        .map(|g| g.id)
        .ok_or_else(|| format!("no user group {name:?}"))
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

/// The topic prefix that marks a topic resolved (the server's convention).
pub(super) const RESOLVED_PREFIX: &str = "✔ ";

/// The selected message, when it is in a channel: (its ID, the channel, the topic).
fn selected_topic_message(st: &State) -> Result<(MessageId, ChannelId, String), String> {
    let m = selected_message(st).ok_or("select a message in the topic first")?;
    let c = m.stream_id().filter(|_| !m.is_dm()).ok_or("direct messages have no topic to change")?;
    Ok((m.id, c, m.topic().to_owned()))
}

/// `t`, `m`, `V` on a message: the palette's topic commands, prefilled (rename, move) or run
/// (resolve or unresolve, whichever the topic is not).
pub(super) fn topic_key(st: &mut State, a: Action) -> Vec<Effect> {
    let (_, _, topic) = match selected_topic_message(st) {
        Ok(t) => t,
        Err(e) => {
            set_error(st, e);
            return vec![];
        }
    };
    let text = match a {
        Action::RenameTopic => format!("rename-topic {topic}"),
        Action::MoveTopic => "move-topic #".to_owned(),
        _ => {
            let cmd = crate::app::command::Command::Resolve(!topic.starts_with(RESOLVED_PREFIX));
            return run_command(st, cmd).unwrap_or_else(|e| {
                set_error(st, e);
                vec![]
            });
        }
    };
    st.ui.prompt = Some(Prompt::new(PromptKind::Command, &text));
    vec![]
}

/// Ask `question` before `effect`, followed by "(y/N)" (every confirmation says it the same
/// way): only `y` runs it, anything else cancels.
pub(super) fn confirm(st: &mut State, question: String, effect: Effect) {
    st.ui.confirm = Some((format!("{question} (y/N)"), Box::new(effect)));
    st.ui.prompt = Some(Prompt::new(PromptKind::Confirm, ""));
}

/// "to #channel > topic at Tue 25 Nov 10:00", for questions about a scheduled message.
pub(super) fn scheduled_label(st: &State, sm: &ScheduledMessage) -> String {
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

/// Turn a palette command into effects (or say what is wrong).
pub(super) fn run_command(st: &mut State, cmd: crate::app::command::Command) -> Result<Vec<Effect>, String> {
    use crate::app::command::Command as C;
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
                    .or_else(|| {
                        // A gemoji name (`:thumbsup:`) is taken as the Zulip name of its emoji.
                        let (n, e) = crate::emoji::resolve(name)?;
                        Some((n.to_owned(), e.code.to_owned(), "unicode_emoji".to_owned()))
                    })
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
            st.data
                .realm
                .level()
                .require(crate::api::levels::ANCHOR_DATE, "jumping to a date", "Zulip 12.0")
                .map_err(|e| e.to_string())?;
            let narrow = st.ui.narrow.clone();
            let epoch = st.data.reset_view(&narrow);
            st.ui.selected = None;
            st.ui.date_jump = Some(date.clone());
            let terms = narrow.terms(st.data.me);
            vec![Effect::JumpToDate { narrow, terms, date: date.replace(' ', "T"), epoch }]
        }
        C::Mute => on_action(st, Action::MuteTopic),
        C::Unmute => on_action(st, Action::UnmuteTopic),
        C::Follow => on_action(st, Action::FollowTopic),
        C::Help => on_action(st, Action::Help),
        C::Quit => on_action(st, Action::Quit),
        C::Unsubscribe { channel, users } => {
            // Only a named channel, the channel row selected in the sidebar, or the one on
            // screen: never the channel of whatever message happens to be selected in a
            // combined view.
            let c = match (channel.as_deref(), &st.ui.narrow, sidebar_channel(st)) {
                (Some(_), _, _) => command_channel(st, channel.as_deref())?,
                (None, _, Some(c)) => c,
                (None, Narrow::Channel(c) | Narrow::Topic(c, _), _) => *c,
                (None, _, _) => return Err("name the channel: unsubscribe #channel [user…]".into()),
            };
            let ids = users.iter().map(|u| resolve_user(st, u)).collect::<Result<Vec<_>, _>>()?;
            let name = st.data.channel_name(c).to_owned();
            let me = st.data.me;
            let who = |u: &UserId| if *u == me { "you".to_owned() } else { st.data.user_name(*u).to_owned() };
            let question = match ids.as_slice() {
                [] => super::directory::leave_question(&name, false),
                [one] if *one == me => super::directory::leave_question(&name, false),
                _ => {
                    let names: Vec<String> = ids.iter().map(who).collect();
                    format!("Remove {} from #{name}?", and_list(&names))
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
            confirm(st, format!("Deactivate {name}? Their bots go too. {deletes}"), effect);
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
        C::MoveTopic { channel, topic, mode } => {
            let (id, c, old) = selected_topic_message(st)?;
            let to_channel = channel.as_deref().map(|n| command_channel(st, Some(n))).transpose()?;
            let to_channel = to_channel.filter(|n| *n != c);
            let topic = topic.filter(|t| *t != old);
            if to_channel.is_none() && topic.is_none() {
                return Err("nothing to change: that is where the topic is".into());
            }
            let dest = format!(
                "#{} > {}",
                st.data.channel_name(to_channel.unwrap_or(c)),
                topic.as_deref().unwrap_or(&old)
            );
            let done = match (to_channel, mode) {
                (None, "change_all") => format!("topic renamed: {dest}"),
                (Some(_), "change_all") => format!("topic moved: {dest}"),
                _ => format!("moved to {dest}"),
            };
            let edit = MessageEdit {
                topic,
                stream_id: to_channel,
                propagate_mode: Some(mode.into()),
                ..Default::default()
            };
            set_status(st, "moving…");
            vec![Effect::Api(ApiCall::MoveTopic { message_id: id, edit, done })]
        }
        C::Resolve(resolve) => {
            let (id, c, old) = selected_topic_message(st)?;
            let bare = old.strip_prefix(RESOLVED_PREFIX).unwrap_or(&old).to_owned();
            if old.starts_with(RESOLVED_PREFIX) == resolve {
                return Err(format!("the topic is {}resolved", if resolve { "already " } else { "not " }));
            }
            let topic = if resolve { format!("{RESOLVED_PREFIX}{bare}") } else { bare };
            let done = format!("#{} > {topic}", st.data.channel_name(c));
            let done = if resolve { format!("resolved: {done}") } else { format!("unresolved: {done}") };
            let edit = MessageEdit {
                topic: Some(topic),
                propagate_mode: Some("change_all".into()),
                ..Default::default()
            };
            vec![Effect::Api(ApiCall::MoveTopic { message_id: id, edit, done })]
        }
        C::Delete => {
            let m = selected_message(st).ok_or("select a message first")?;
            let admin = st.data.users.get(&st.data.me).is_some_and(UserInfo::is_admin);
            if m.sender_id() != st.data.me && !admin {
                return Err("you can delete only your own messages".into());
            }
            let id = m.id;
            let preview: String = super::outside::plain_text(m.content(), 40);
            confirm(st, format!("Delete \"{preview}\"?"), Effect::Api(ApiCall::DeleteMessage(id)));
            vec![]
        }
        C::MarkUnread => super::navigation::mark_unread_from_here(st)?,
        C::DeleteTopic => {
            let (channel, topic) =
                super::actions::current_topic(st).ok_or("select a message in a topic first")?;
            if !st.data.users.get(&st.data.me).is_some_and(UserInfo::is_admin) {
                return Err("only administrators can delete a topic".into());
            }
            set_status(st, format!("counting the messages of #{} > {topic}…", st.data.channel_name(channel)));
            vec![Effect::CountTopic { channel, topic }]
        }
        C::AddItem { poll, text } => {
            use crate::app::widget::Widget;
            let id = st.ui.selected.ok_or("select the message with the poll or to-do list first")?;
            let w = st.data.widgets.get(&id);
            match (w, poll) {
                (Some(w @ Widget::Poll(_)), true) | (Some(w @ Widget::Todo(_)), false) => {
                    let content = crate::app::widget::add_item(w, st.data.me, &text);
                    vec![Effect::Api(ApiCall::Submessage { message_id: id, content })]
                }
                (Some(Widget::Todo(_)), true) => {
                    return Err("this message is a to-do list: :todo-add adds a task".into());
                }
                (Some(Widget::Poll(_)), false) => {
                    return Err("this message is a poll: :poll-option adds an option".into());
                }
                (None, true) => return Err("the selected message has no poll (/poll makes one)".into()),
                (None, false) => {
                    return Err("the selected message has no to-do list (/todo makes one)".into());
                }
            }
        }
        C::MarkRead(None) => {
            let (c, t) = super::actions::current_topic(st).ok_or("select a message in a topic first")?;
            set_status(st, format!("marking #{} > {t} as read…", st.data.channel_name(c)));
            super::actions::mark_topic_read(c, t)
        }
        C::MarkRead(Some(false)) => {
            let c = command_channel(st, None)?;
            super::actions::mark_channel_read(st, c)
        }
        C::MarkRead(Some(true)) => {
            confirm(st, "Mark every message as read?".into(), Effect::MarkAllRead);
            vec![]
        }
        C::MuteUser { user: who, mute } => {
            let user = resolve_user(st, &who)?;
            let name = st.data.user_name(user).to_owned();
            if user == st.data.me {
                return Err("you cannot mute yourself".into());
            }
            if st.data.muted_users.contains(&user) == mute {
                return Err(format!("{name} is {}muted", if mute { "already " } else { "not " }));
            }
            vec![Effect::Api(ApiCall::MuteUser { user, name, mute })]
        }
        C::AlertWords(None) => {
            let text = super::answers::alert_words_note(&st.data.alert_words);
            set_status(st, text);
            vec![]
        }
        C::AlertWords(Some((add, words))) => vec![Effect::Api(ApiCall::AlertWords { add, words })],
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
        C::Channels => open_channels(st),
        C::Recent => super::recent::open_recent(st),
        C::Snippets => super::snippets::open(st),
        C::Attach(path) => super::attach::attach(st, &path)?,
        C::Subscribe(name) => subscribe_command(st, &name)?,
        C::CreateChannel { name, private, description } => {
            crate::api::limits::check_channel_name(&name).map_err(|e| e.to_string())?;
            if let Some(c) = st.data.subscribed_channel_id(&name) {
                return Err(format!("#{} already exists, and you are in it", st.data.channel_name(c)));
            }
            if let Some((_, n)) = st.data.unsubscribed.iter().find(|(_, n)| n.eq_ignore_ascii_case(&name)) {
                return Err(format!("#{n} already exists (:subscribe #{n} joins it)"));
            }
            set_status(st, format!("creating #{name}…"));
            let subscribers = vec![st.data.me];
            vec![Effect::Api(ApiCall::CreateChannel(NewChannel { name, description, private, subscribers }))]
        }
        C::Invite { emails, channels } => {
            let ids = channels
                .iter()
                .map(|n| channel_by_name(st, n).ok_or_else(|| format!("no channel named {n:?}")))
                .collect::<Result<Vec<_>, _>>()?;
            let channels: Vec<String> = ids.iter().map(|c| st.data.channel_name(*c).to_owned()).collect();
            set_status(st, format!("inviting {}…", and_list(&emails)));
            vec![Effect::Api(ApiCall::Invite { emails, ids, channels })]
        }
        C::ChannelInfo(named) => {
            // Named, the channel row selected in the sidebar, or the one being viewed.
            let id = match named.as_deref() {
                Some(n) => channel_by_name(st, n).ok_or_else(|| format!("no channel named {n:?}"))?,
                None => match sidebar_channel(st) {
                    Some(c) => c,
                    None => command_channel(st, None)?,
                },
            };
            open_channel_info(st, id, None)
        }
        C::Profile(named) => {
            let user = match named.as_deref() {
                Some(n) => resolve_user(st, n)?,
                None => selected_message(st)
                    .map(|m| m.sender_id())
                    .ok_or("name someone (:profile @name), or select one of their messages")?,
            };
            open_profile(st, user)
        }
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
        C::Remind(words) => super::reminders::remind(st, &words)?,
        C::Reminders => super::reminders::open(st)?,
        C::Uploads => super::uploads::open(st),
        C::Inbox => super::inbox::open(st),
    })
}
