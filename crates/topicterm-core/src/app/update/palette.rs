//! The command palette: `:command` lines turned into effects. `run_command` is the table; the
//! work is in the file of each command's domain: `palette_messages`, `palette_topics`,
//! `palette_channels`, `palette_people`, `palette_settings` (what they share is in
//! `palette_args`).

use super::actions::on_action;
use super::common::*;
use super::directory::{open_channels, subscribe_command};
use super::navigation::mark_unread_from_here;
use super::palette_channels::{channel_email, channel_info, create_channel, push_default, unsubscribe};
use super::palette_messages::{add_item, delete_message, hide_previews, jump_to_date, mark_read, report};
use super::palette_people::{deactivate, group_members, invite, mute_user, profile};
use super::palette_settings::{add_playground, clear_status, list_alert_words, set_status_text};
use super::palette_settings::{archive, forget};
use super::palette_topics::{
    RESOLVED_PREFIX, delete_topic, move_topic, resolve_topic, selected_topic_message,
};
use super::prelude::*;
use crate::app::command::Command;
use crate::app::rules::{TopicChange, topic_change_refused};

// `confirm` is defined with what the commands share; the files that ask before a key acts
// (`keys`, `lists_keys`, `snippet_keys`, `directory_keys`, `update::apply`) name it here.

/// `t`, `m`, `V` on a message: the palette's topic commands, prefilled (rename, move) or run
/// (resolve or unresolve, whichever the topic is not).
pub(super) fn topic_key(st: &mut State, a: Action) -> Vec<Effect> {
    let (id, _, topic) = match selected_topic_message(st) {
        Ok(t) => t,
        Err(e) => {
            set_error(st, e);
            return vec![];
        }
    };
    // The organization's rules, before any prompt or request (`app::rules`).
    let change = match a {
        Action::RenameTopic => TopicChange::Rename,
        Action::MoveTopic => TopicChange::Move,
        _ => TopicChange::Resolve,
    };
    let refused =
        st.data.messages.get(&id).and_then(|m| topic_change_refused(&st.data, m, change, true, st.now));
    if let Some(why) = refused {
        set_error(st, why);
        return vec![];
    }
    let text = match a {
        // A prompt of its own holding only the name (ctrl+u clears the name, not a command).
        Action::RenameTopic => {
            let shown = st.data.realm.topic_shown(&topic).to_owned();
            st.ui.prompt = Some(Prompt::new(PromptKind::RenameTopic { mode: "change_all" }, &shown));
            return vec![];
        }
        Action::MoveTopic => "move-topic #".to_owned(),
        _ => {
            let cmd = Command::Resolve(!topic.starts_with(RESOLVED_PREFIX));
            return run_command(st, cmd).unwrap_or_else(|e| {
                set_error(st, e);
                vec![]
            });
        }
    };
    st.ui.prompt = Some(Prompt::new(PromptKind::Command, &text));
    vec![]
}

/// "to #channel > topic at Tue 25 Nov 10:00", for questions about a scheduled message.
pub(super) fn scheduled_label(st: &State, sm: &ScheduledMessage) -> String {
    let to = match &sm.to {
        Recipient::Channel(c) => {
            format!("to #{} > {}", st.data.channels.name(*c), sm.topic.as_deref().unwrap_or_default())
        }
        Recipient::Users(u) => {
            let names: Vec<&str> = u.iter().map(|id| st.data.user_name(*id)).collect();
            format!("to {}", names.join(", "))
        }
    };
    let at = st.tz.format(sm.scheduled_delivery_timestamp, "%a %-d %b %H:%M");
    format!("{to} at {at}")
}

/// Turn a palette command into effects (or say what is wrong): one line a command.
pub(super) fn run_command(st: &mut State, cmd: Command) -> Result<Vec<Effect>, String> {
    use Command as C;
    Ok(match cmd {
        C::Scheduled => open_scheduled(st),
        C::Drafts => super::drafts_list::open(st),
        C::Status(None) => clear_status(),
        C::Status(Some(text)) => set_status_text(st, &text)?,
        C::Date(date) => jump_to_date(st, &date)?,
        C::Mute => on_action(st, Action::MuteTopic),
        C::Unmute => on_action(st, Action::UnmuteTopic),
        C::Follow => on_action(st, Action::FollowTopic),
        C::Help => on_action(st, Action::Help),
        C::Quit => on_action(st, Action::Quit),
        C::Unsubscribe { channel, users } => unsubscribe(st, channel.as_deref(), &users)?,
        C::Deactivate { user, actions } => deactivate(st, &user, &actions)?,
        C::Group { group, add, subgroups, names } => group_members(st, &group, add, subgroups, &names)?,
        C::View { fragment, pinned, name } => {
            vec![Effect::Api(ApiCall::NavView { fragment, is_pinned: pinned, name })]
        }
        C::MoveTopic { channel, topic, mode } => move_topic(st, channel.as_deref(), topic, mode)?,
        C::Resolve(resolve) => resolve_topic(st, resolve)?,
        C::Delete => delete_message(st)?,
        C::HidePreviews(hide) => hide_previews(st, hide)?,
        C::MarkUnread => mark_unread_from_here(st)?,
        C::DeleteTopic => delete_topic(st)?,
        C::AddItem { poll, text } => add_item(st, poll, &text)?,
        C::MarkRead(what) => mark_read(st, what)?,
        C::MuteUser { user, mute } => mute_user(st, &user, mute)?,
        C::AlertWords(None) => list_alert_words(st),
        C::AlertWords(Some((add, words))) => vec![Effect::Api(ApiCall::AlertWords { add, words })],
        C::DumpState(path) => dump_state(st, path),
        C::Playground { name, language, template } => add_playground(name, language, template)?,
        C::ChannelEmail { channel, sender } => channel_email(st, channel.as_deref(), sender.as_deref())?,
        C::Apns { token, appid } => vec![Effect::Api(ApiCall::Apns { token, appid })],
        C::Channels => open_channels(st),
        C::Recent => super::recent::open_recent(st),
        C::Snippets => super::snippets::open(st),
        C::Attach(path) => super::attach::attach(st, &path)?,
        C::Subscribe(name) => subscribe_command(st, &name)?,
        C::CreateChannel { name, private, description } => create_channel(st, name, private, description)?,
        C::Invite { emails, channels } => invite(st, emails, &channels)?,
        C::ChannelInfo(named) => channel_info(st, named.as_deref())?,
        C::PushDefault { on, channel } => push_default(st, on, channel.as_deref())?,
        C::Profile(named) => profile(st, named.as_deref())?,
        C::Report { report_type, description } => report(st, report_type, description)?,
        C::Remind(words) => super::reminders::remind(st, &words)?,
        C::Reminders => super::reminders::open(st)?,
        C::Settings => super::settings_popup::open(st),
        C::Uploads => super::uploads::open(st),
        C::Inbox => super::inbox::open(st),
        C::Forget => forget(st),
        C::Archive(what) => archive(st, what)?,
    })
}

/// `:scheduled`: open the list of scheduled messages.
fn open_scheduled(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Scheduled { selected: 0 });
    vec![]
}

/// `:dump-state [PATH]`: write what the client holds to a JSON file.
fn dump_state(st: &State, path: Option<String>) -> Vec<Effect> {
    let contents = serde_json::to_string_pretty(&state_dump(st)).unwrap_or_default();
    vec![Effect::DumpState { path, contents }]
}
