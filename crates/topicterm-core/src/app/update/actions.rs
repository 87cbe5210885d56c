//! The actions keys are bound to (see `keymap`): `on_action` is the table; the work is in
//! the file of each action's domain (`actions_moves`, `actions_message`, `actions_screen`),
//! or here for the conversation the keys act on: replying to it, its topic's policy.

use super::actions_message::{
    edit_history, emoji_picker, fetch_text, message_info, star, thumbs_up, toggle_spoiler,
};
use super::actions_moves::{
    focus_step, move_by, narrow_channel, next_unread_dm, next_unread_topic, open_row,
};
use super::actions_screen::{cancel, open_help, open_prompt, person_profile, quit, toggle_people};
use super::common::*;
use super::navigation::{mark_unread_from_here, open_narrow};
use super::prelude::*;

/// The channel of the selected sidebar row, when the sidebar has the focus and a channel row
/// (not one of its topics) is selected.
pub(super) fn sidebar_channel(st: &State) -> Option<ChannelId> {
    match st.ui.sidebar.selected() {
        Some(SidebarRow::Channel(c)) if st.ui.focus == Focus::Sidebar => Some(*c),
        _ => None,
    }
}

/// `M` / `U` / `F` / `R` on a channel row act on the channel, as in the web app's channel menu.
pub(super) fn channel_row_action(st: &mut State, a: Action) -> Vec<Effect> {
    let Some(c) = sidebar_channel(st) else { return vec![] };
    let name = st.data.channels.name(c).to_owned();
    match a {
        Action::MuteTopic | Action::UnmuteTopic => {
            let Some(ch) = st.data.channels.get(c) else { return vec![] };
            let muted = a == Action::MuteTopic && !ch.muted;
            if ch.muted == muted {
                set_status(st, format!("#{name} is not muted"));
                return vec![];
            }
            set_channel_muted(st, c, muted)
        }
        Action::MarkTopicRead => mark_channel_read(st, c),
        _ => {
            set_status(st, "following is for topics: open the channel and pick one");
            vec![]
        }
    }
}

/// Mark a whole channel read on the server. The counts change when the server says the
/// messages are read (its `update_message_flags` events), never before: a refused request
/// leaves them as the server has them.
pub(super) fn mark_channel_read(st: &mut State, c: ChannelId) -> Vec<Effect> {
    let name = st.data.channels.name(c).to_owned();
    if st.data.unread.topics_in(c).is_none_or(|t| t.is_empty()) {
        set_status(st, format!("#{name} has no unread messages"));
        return vec![];
    }
    set_status(st, format!("marking #{name} as read…"));
    vec![Effect::MarkChannelRead { channel: c, name }]
}

/// Mark a topic read on the server; the counts follow the server's events (as for a channel).
pub(super) fn mark_topic_read(c: ChannelId, t: String) -> Vec<Effect> {
    vec![Effect::MarkTopicRead { channel: c, topic: t }]
}

/// Mute or unmute a subscribed channel on the server. It changes here (and the combined feed
/// leaves its topics out) when the server says so, with its `subscription` event: a refused
/// change leaves the channel as it was.
pub(super) fn set_channel_muted(st: &mut State, c: ChannelId, muted: bool) -> Vec<Effect> {
    let Some(ch) = st.data.channels.get(c) else { return vec![] };
    let name = ch.name.clone();
    set_status(st, format!("#{name}: {}…", if muted { "muting" } else { "unmuting" }));
    vec![Effect::SetChannelMuted { channel: c, name, muted }]
}

/// The conversation of the selected message or sidebar row, as (channel, topic).
pub(super) fn current_topic(st: &State) -> Option<(ChannelId, String)> {
    if st.ui.focus == Focus::Sidebar
        && let Some(SidebarRow::Topic(c, t)) = st.ui.sidebar.selected()
    {
        return Some((*c, t.clone()));
    }
    let m = selected_message(st)?;
    Some((m.stream_id().filter(|_| !m.is_dm())?, m.topic().to_owned()))
}

/// Where a reply goes: the selected message's conversation, else the conversation in view.
pub(super) fn current_target(st: &State) -> Option<Target> {
    match selected_message(st) {
        Some(m) => Some(target_of(st, m)),
        None => match &st.ui.narrow {
            Narrow::Topic(c, t) => Some(Target::Channel { id: *c, topic: t.clone() }),
            Narrow::Dm(u) => Some(Target::Dm(u.clone())),
            _ => None,
        },
    }
}

pub(super) fn target_of(st: &State, m: &Stored) -> Target {
    match m.stream_id() {
        Some(id) if !m.is_dm() => Target::Channel { id, topic: m.topic().to_owned() },
        _ => Target::Dm(dm_key(&m.dm_user_ids(), st.data.me)),
    }
}

/// What each action does: one line an action.
pub(super) fn on_action(st: &mut State, a: Action) -> Vec<Effect> {
    use Action as A;
    match a {
        A::Quit => quit(st),
        A::Help => open_help(st),
        A::ViewImage => super::images::view_image(st),
        A::NextOrganization => switch_organization(st, OrgSwitch::Next),
        A::PreviousOrganization => switch_organization(st, OrgSwitch::Previous),
        A::Cancel => cancel(st),
        A::Up | A::Down | A::PageUp | A::PageDown | A::Top | A::Bottom => move_by(st, a),
        A::FocusSidebar | A::FocusMessages => focus_step(st, a == A::FocusMessages),
        A::Open if st.ui.focus == Focus::People => super::panes::open_person(st),
        A::Open => open_row(st),
        A::AllMessages => open_narrow(st, Narrow::All),
        A::AllDms => open_narrow(st, Narrow::AllDms),
        A::Starred => open_narrow(st, Narrow::Starred),
        A::Mentions => open_narrow(st, Narrow::Mentions),
        A::RetrySend => super::outbox::retry_now(st),
        A::OpenLink => super::outside::open_link(st, None),
        A::LinkHints | A::CopyLinkHint => super::hints::start(st, a == A::CopyLinkHint),
        // Only in the compose box.
        A::ExternalEditor => vec![],
        A::CopyLink => super::outside::copy_link(st),
        A::CopyCode => super::outside::copy_code(st, None),
        A::TakeBackUnsent => super::outbox::take_back(st),
        A::TogglePeople => toggle_people(st),
        A::Palette => open_prompt(st, PromptKind::Command),
        A::Search if matches!(st.ui.focus, Focus::Sidebar | Focus::People) => super::panes::start_filter(st),
        A::Search => open_prompt(st, PromptKind::Search),
        A::NextUnreadTopic => next_unread_topic(st),
        A::NextUnreadDm => next_unread_dm(st),
        A::NarrowChannel => narrow_channel(st),
        A::NarrowTopic => narrow_conversation(st),
        A::Reply => reply(st),
        A::ReplyMention => reply_mention(st),
        A::ReplyAuthor => reply_author(st),
        A::QuoteReply | A::Edit => fetch_text(st, a == A::Edit),
        A::NewChannelMessage => new_channel_message(st),
        A::NewDm => open_prompt(st, PromptKind::DmRecipients),
        A::Star => star(st),
        A::ThumbsUp => thumbs_up(st),
        A::EmojiPicker => emoji_picker(st),
        A::EditHistory => edit_history(st),
        A::MarkUnread => or_status(st, mark_unread_from_here),
        A::MessageInfo => message_info(st),
        A::MuteTopic | A::UnmuteTopic | A::FollowTopic | A::MarkTopicRead
            if sidebar_channel(st).is_some() =>
        {
            channel_row_action(st, a)
        }
        A::MuteTopic | A::UnmuteTopic | A::FollowTopic => set_topic_policy(st, a),
        A::MarkTopicRead => current_topic(st).map_or_else(Vec::new, |(c, t)| mark_topic_read(c, t)),
        A::ToggleSpoiler => toggle_spoiler(st),
        // Compose keys act in the compose box; the topic keys go through the palette (`keys.rs`).
        A::Send | A::Schedule | A::Attach | A::ChangeRecipient | A::Complete | A::CompleteBack => vec![],
        A::RenameTopic | A::MoveTopic | A::ResolveTopic => vec![],
        A::ChannelInfo => super::directory::info_action(st),
        A::Recent => super::recent::open_recent(st),
        A::Profile if st.ui.focus == Focus::People => person_profile(st),
        A::Profile => super::directory::sender_profile(st),
        A::Remind => super::reminders::prompt(st),
        A::Reminders => or_error(st, super::reminders::open),
        A::Uploads => super::uploads::open(st),
        // Keys of the compose box (`keys.rs`).
        A::Snippets | A::Preview => vec![],
        A::Inbox => super::inbox::open(st),
        // Only in the inbox (`inbox::on_key`).
        A::InboxToggle | A::InboxCollapse | A::InboxExpand => vec![],
    }
}

/// What an action that may be refused did; its refusal said on the status line.
fn or_status(st: &mut State, act: fn(&mut State) -> Result<Vec<Effect>, String>) -> Vec<Effect> {
    act(st).unwrap_or_else(|e| {
        set_status(st, e);
        vec![]
    })
}

/// What an action that may be refused did; its refusal said as an error.
fn or_error(st: &mut State, act: fn(&mut State) -> Result<Vec<Effect>, String>) -> Vec<Effect> {
    act(st).unwrap_or_else(|e| {
        set_error(st, e);
        vec![]
    })
}

/// Open the selected message's conversation: its topic, or its direct messages.
fn narrow_conversation(st: &mut State) -> Vec<Effect> {
    match selected_message(st).map(|m| target_of(st, m)) {
        Some(Target::Channel { id, topic }) => open_narrow(st, Narrow::Topic(id, topic)),
        Some(Target::Dm(users)) => open_narrow(st, Narrow::Dm(users)),
        None => vec![],
    }
}

/// Reply in the selected message's conversation, or the one in view.
fn reply(st: &mut State) -> Vec<Effect> {
    let target = current_target(st);
    match target {
        Some(t) => open_compose(st, t, "", None),
        None => set_status(st, "select a message to reply to, or press c / x"),
    }
    vec![]
}

/// Reply to the selected message, mentioning its sender.
fn reply_mention(st: &mut State) -> Vec<Effect> {
    let Some(m) = selected_message(st) else {
        set_status(st, "select a message to reply to");
        return vec![];
    };
    let (target, mention) = (target_of(st, m), format!("@**{}|{}** ", m.sender_full_name(), m.sender_id()));
    open_compose(st, target, &mention, None);
    vec![]
}

/// A direct message to the selected message's sender.
fn reply_author(st: &mut State) -> Vec<Effect> {
    if let Some(m) = selected_message(st) {
        let t = Target::Dm(dm_key(&[m.sender_id()], st.data.me));
        open_compose(st, t, "", None);
    }
    vec![]
}

/// Ask for the channel and topic of a new message, starting from the conversation in view.
fn new_channel_message(st: &mut State) -> Vec<Effect> {
    let text = match &st.ui.narrow {
        Narrow::Topic(c, t) => format!("{}>{}", st.data.channels.name(*c), t),
        Narrow::Channel(c) => format!("{}>", st.data.channels.name(*c)),
        _ => String::new(),
    };
    st.ui.prompt = Some(Prompt::new(PromptKind::ChannelTopic, &text));
    vec![]
}

/// Mute, unmute or follow the selected topic; the same key again takes it back to the default.
fn set_topic_policy(st: &mut State, a: Action) -> Vec<Effect> {
    let Some((c, t)) = current_topic(st) else {
        set_status(st, "select a topic first");
        return vec![];
    };
    // As the web app: unmuting a topic of a channel that is not muted takes it back
    // to the default; only in a muted channel is it "unmuted" (policy 2).
    let channel_muted = st.data.channels.get(c).is_some_and(|ch| ch.muted);
    let wanted = match a {
        Action::MuteTopic => VisibilityPolicy::Muted,
        Action::UnmuteTopic if channel_muted => VisibilityPolicy::Unmuted,
        Action::UnmuteTopic => VisibilityPolicy::None,
        _ => VisibilityPolicy::Followed,
    };
    let policy = if st.data.policy(c, &t) == wanted { VisibilityPolicy::None } else { wanted };
    // Refused here, in the words the API's refusal has, whichever key asked (`F` on a topic
    // row, ctrl+f, `:follow`): nothing is sent that the server's level rules out.
    let (what, version) = crate::api::levels::FOLLOWING;
    if policy == VisibilityPolicy::Followed
        && let Err(e) = st.data.realm.level().require(crate::api::levels::FOLLOWED_TOPICS, what, version)
    {
        set_error(st, e.to_string());
        return vec![];
    }
    // The policy changes here when the server says it changed (its `user_topic`
    // event): a refused change leaves the topic as it was.
    let pending = super::answers::policy_words(policy).1;
    set_status(st, format!("#{} > {t}: {pending}", st.data.channels.name(c)));
    vec![Effect::SetPolicy { channel: c, topic: t, policy }]
}

/// Put another organization on screen: the main loop does it; said here when there is none.
pub(super) fn switch_organization(st: &mut State, how: OrgSwitch) -> Vec<Effect> {
    let orgs = &st.ui.orgs;
    if crate::app::orgs::switch_target(&orgs.rows, orgs.active, how).is_none() {
        if !orgs.several() {
            set_status(
                st,
                "only this organization is open: without --account, every account of `topicterm accounts` opens",
            );
        }
        return vec![];
    }
    vec![Effect::Term(TermEffect::SwitchOrganization(how))]
}
