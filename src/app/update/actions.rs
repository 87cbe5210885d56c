//! The actions keys are bound to (see `keymap`).

use super::common::*;
use super::compose::*;
use super::message_events::starred_changed;
use super::navigation::*;
use super::prelude::*;

/// The channel of the selected sidebar row, when the sidebar has the focus and a channel row
/// (not one of its topics) is selected.
pub(super) fn sidebar_channel(st: &State) -> Option<ChannelId> {
    match st.ui.sidebar.get(st.ui.sidebar_selected) {
        Some(SidebarRow::Channel(c)) if st.ui.focus == Focus::Sidebar => Some(*c),
        _ => None,
    }
}

/// `M` / `U` / `F` / `R` on a channel row act on the channel, as in the web app's channel menu.
pub(super) fn channel_row_action(st: &mut State, a: Action) -> Vec<Effect> {
    let Some(c) = sidebar_channel(st) else { return vec![] };
    let name = st.data.channel_name(c).to_owned();
    match a {
        Action::MuteTopic | Action::UnmuteTopic => {
            let Some(ch) = st.data.channels.get(&c) else { return vec![] };
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
    let name = st.data.channel_name(c).to_owned();
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
    let Some(ch) = st.data.channels.get(&c) else { return vec![] };
    let name = ch.name.clone();
    set_status(st, format!("#{name}: {}…", if muted { "muting" } else { "unmuting" }));
    vec![Effect::SetChannelMuted { channel: c, name, muted }]
}

/// The conversation of the selected message or sidebar row, as (channel, topic).
pub(super) fn current_topic(st: &State) -> Option<(ChannelId, String)> {
    if st.ui.focus == Focus::Sidebar
        && let Some(SidebarRow::Topic(c, t)) = st.ui.sidebar.get(st.ui.sidebar_selected)
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

pub(super) fn on_action(st: &mut State, a: Action) -> Vec<Effect> {
    match a {
        Action::Quit => {
            st.ui.quit = true;
            vec![Effect::Quit]
        }
        Action::Help => {
            st.ui.popup = Some(Popup::Help { scroll: 0 });
            vec![]
        }
        Action::ViewImage => super::images::view_image(st),
        Action::NextOrganization | Action::PreviousOrganization => {
            let how = if a == Action::NextOrganization { OrgSwitch::Next } else { OrgSwitch::Previous };
            switch_organization(st, how)
        }
        Action::Cancel => {
            if super::panes::clear_filter(st) {
                return vec![];
            }
            st.ui.status = None;
            vec![]
        }
        Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
            let delta: isize = match a {
                Action::Up => -1,
                Action::Down => 1,
                Action::PageUp => -10,
                Action::PageDown => 10,
                Action::Top => isize::MIN / 2,
                _ => isize::MAX / 2,
            };
            if st.ui.focus == Focus::People {
                super::panes::move_person(st, delta);
                vec![]
            } else if st.ui.focus == Focus::Sidebar {
                let len = st.ui.sidebar.len() as isize;
                st.ui.sidebar_selected = (st.ui.sidebar_selected as isize)
                    .saturating_add(delta)
                    .clamp(0, (len - 1).max(0)) as usize;
                settle_sidebar_selection(st, delta > 0);
                vec![]
            } else {
                move_selection(st, delta)
            }
        }
        Action::FocusSidebar | Action::FocusMessages => {
            super::panes::focus_step(st, a == Action::FocusMessages);
            vec![]
        }
        Action::Open if st.ui.focus == Focus::People => super::panes::open_person(st),
        Action::Open => {
            let Some(row) = st.ui.sidebar.get(st.ui.sidebar_selected).cloned() else { return vec![] };
            if !row.selectable() {
                return vec![];
            }
            if let SidebarRow::View(fragment) = &row {
                return super::views::open(st, fragment);
            }
            let mut fx = Vec::new();
            if let SidebarRow::Channel(c) = row {
                if st.ui.expanded == Some(c) {
                    st.ui.expanded = None;
                } else {
                    st.ui.expanded = Some(c);
                    let list = st.data.topics.entry(c).or_default();
                    if !list.loaded && !list.loading {
                        list.loading = true;
                        fx.push(Effect::FetchTopics(c));
                    }
                }
                rebuild_sidebar(st);
            }
            fx.extend(open_narrow(st, row.narrow()));
            st.ui.focus = Focus::Sidebar;
            fx
        }
        Action::AllMessages => open_narrow(st, Narrow::All),
        Action::AllDms => open_narrow(st, Narrow::AllDms),
        Action::Starred => open_narrow(st, Narrow::Starred),
        Action::Mentions => open_narrow(st, Narrow::Mentions),
        Action::RetrySend => super::outbox::retry_now(st),
        Action::OpenLink => super::outside::open_link(st, None),
        // Only in the compose box.
        Action::ExternalEditor => vec![],
        Action::CopyLink => super::outside::copy_link(st),
        Action::CopyCode => super::outside::copy_code(st, None),
        Action::TakeBackUnsent => super::outbox::take_back(st),
        Action::TogglePeople => {
            st.ui.show_people = !st.ui.show_people;
            st.ui.focus = match (st.ui.show_people, st.ui.focus) {
                (true, _) => Focus::People,
                (false, Focus::People) => Focus::Messages,
                (false, f) => f,
            };
            rebuild_people(st);
            vec![]
        }
        Action::Palette => {
            st.ui.prompt = Some(Prompt::new(PromptKind::Command, ""));
            vec![]
        }
        Action::Search if matches!(st.ui.focus, Focus::Sidebar | Focus::People) => {
            super::panes::start_filter(st)
        }
        Action::Search => {
            st.ui.prompt = Some(Prompt::new(PromptKind::Search, ""));
            vec![]
        }
        Action::NextUnreadTopic => {
            let order: Vec<ChannelId> = st
                .ui
                .sidebar
                .iter()
                .filter_map(|r| if let SidebarRow::Channel(c) = r { Some(*c) } else { None })
                .collect();
            // Unread topics in sidebar order: channels as listed, topics by name. The next one
            // is the first after the current topic in that order (whether or not the current
            // one is still unread), wrapping around: never back to an earlier one first.
            let rank: HashMap<ChannelId, usize> = order.iter().enumerate().map(|(i, c)| (*c, i)).collect();
            let current = match &st.ui.narrow {
                Narrow::Topic(c, t) => rank.get(c).map(|r| (*r, t.to_lowercase())),
                Narrow::Channel(c) => rank.get(c).map(|r| (*r, String::new())),
                _ => None,
            };
            let mut candidates: Vec<(usize, ChannelId, String)> = Vec::new();
            for (r, c) in order.iter().enumerate() {
                if let Some(topics) = st.data.unread.topics_in(*c) {
                    candidates.extend(
                        topics.iter().filter(|t| !st.data.topic_muted(*c, t)).map(|t| (r, *c, t.clone())),
                    );
                }
            }
            let next = match &current {
                Some((r, t)) => candidates
                    .iter()
                    .find(|(cr, _, ct)| (cr, ct) > (r, t))
                    .or(candidates.iter().find(|(cr, _, ct)| (cr, ct) != (r, t)))
                    .or(candidates.first()),
                None => candidates.first(),
            }
            .map(|(_, c, t)| (*c, t.clone()));
            match next {
                Some((c, t)) => {
                    // Use the topic's display name from any unread message in it.
                    let name = st
                        .data
                        .unread
                        .in_conv(&Conv::Topic(c, t.clone()))
                        .and_then(|ids| ids.iter().find_map(|id| st.data.messages.get(id)))
                        .map(|m| m.topic().to_owned())
                        .or_else(|| {
                            st.data
                                .topics
                                .get(&c)
                                .and_then(|l| l.topics.iter().find(|x| x.name.to_lowercase() == t))
                                .map(|x| x.name.clone())
                        })
                        .unwrap_or(t);
                    open_narrow(st, Narrow::Topic(c, name))
                }
                None => {
                    set_status(st, "no unread topics");
                    vec![]
                }
            }
        }
        Action::NextUnreadDm => {
            let next = st
                .data
                .unread
                .conversations()
                .filter_map(|(c, _)| if let Conv::Dm(u) = c { Some(u.clone()) } else { None })
                .min();
            match next {
                Some(users) => open_narrow(st, Narrow::Dm(users)),
                None => {
                    set_status(st, "no unread direct messages");
                    vec![]
                }
            }
        }
        Action::NarrowChannel => match selected_message(st).map(|m| (m.stream_id(), m.is_dm())) {
            Some((Some(c), false)) => open_narrow(st, Narrow::Channel(c)),
            _ => vec![],
        },
        Action::NarrowTopic => match selected_message(st).map(|m| target_of(st, m)) {
            Some(Target::Channel { id, topic }) => open_narrow(st, Narrow::Topic(id, topic)),
            Some(Target::Dm(users)) => open_narrow(st, Narrow::Dm(users)),
            None => vec![],
        },
        Action::Reply => {
            let target = current_target(st);
            match target {
                Some(t) => open_compose(st, t, "", None),
                None => set_status(st, "select a message to reply to, or press c / x"),
            }
            vec![]
        }
        Action::ReplyMention => {
            let Some(m) = selected_message(st) else {
                set_status(st, "select a message to reply to");
                return vec![];
            };
            let (target, mention) =
                (target_of(st, m), format!("@**{}|{}** ", m.sender_full_name(), m.sender_id()));
            open_compose(st, target, &mention, None);
            vec![]
        }
        Action::ReplyAuthor => {
            if let Some(m) = selected_message(st) {
                let t = Target::Dm(dm_key(&[m.sender_id()], st.data.me));
                open_compose(st, t, "", None);
            }
            vec![]
        }
        Action::QuoteReply | Action::Edit => {
            let Some(m) = selected_message(st) else { return vec![] };
            if a == Action::Edit && m.sender_id() != st.data.me {
                set_error(st, "you can only edit your own messages");
                return vec![];
            }
            let id = m.id;
            vec![Effect::FetchRaw { message_id: id, edit: a == Action::Edit }]
        }
        Action::NewChannelMessage => {
            let text = match &st.ui.narrow {
                Narrow::Topic(c, t) => format!("{}>{}", st.data.channel_name(*c), t),
                Narrow::Channel(c) => format!("{}>", st.data.channel_name(*c)),
                _ => String::new(),
            };
            st.ui.prompt = Some(Prompt::new(PromptKind::ChannelTopic, &text));
            vec![]
        }
        Action::NewDm => {
            st.ui.prompt = Some(Prompt::new(PromptKind::DmRecipients, ""));
            vec![]
        }
        Action::Star => {
            let Some(m) = st.ui.selected.and_then(|id| st.data.messages.get_mut(&id)) else { return vec![] };
            let add = !m.has_flag("starred");
            m.set_flag("starred", add);
            let id = m.id;
            starred_changed(st, id, add);
            vec![Effect::SetFlag { ids: vec![id], flag: "starred", add }]
        }
        Action::ThumbsUp => {
            let me = st.data.me;
            let Some(m) = selected_message(st) else { return vec![] };
            let mine = m.reactions().iter().find(|r| r.user_id == me && r.emoji_code == "1f44d");
            let spec = match mine {
                Some(r) => EmojiSpec::from(r),
                None => EmojiSpec {
                    emoji_name: Some("+1".into()),
                    emoji_code: Some("1f44d".into()),
                    reaction_type: Some("unicode_emoji".into()),
                },
            };
            vec![Effect::React { message_id: m.id, emoji: spec, add: mine.is_none() }]
        }
        Action::EmojiPicker => {
            let Some(id) = st.ui.selected else { return vec![] };
            let matches = emoji_matches(&st.data, "", 200);
            st.ui.popup =
                Some(Popup::Emoji { message_id: id, query: LineEditor::default(), matches, selected: 0 });
            vec![]
        }
        Action::EditHistory => {
            let Some(id) = st.ui.selected else { return vec![] };
            if !st.data.realm.allow_edit_history {
                set_error(st, "this organization has disabled edit history");
                return vec![];
            }
            st.ui.popup = Some(Popup::EditHistory { message_id: id, snapshots: None, scroll: 0 });
            vec![Effect::FetchHistory(id)]
        }
        Action::MarkUnread => mark_unread_from_here(st).unwrap_or_else(|e| {
            set_status(st, e);
            vec![]
        }),
        Action::MessageInfo => {
            let Some(id) = st.ui.selected else { return vec![] };
            st.ui.popup = Some(Popup::MessageInfo { message_id: id, scroll: 0 });
            // Who has read it, on the user's own message, where the organization shows that.
            let mine = st.data.messages.get(&id).is_some_and(|m| m.sender_id() == st.data.me);
            if mine && st.data.realm.read_receipts {
                st.ui.read_receipts = Some((id, None));
                return vec![Effect::FetchReadReceipts(id)];
            }
            st.ui.read_receipts = None;
            vec![]
        }
        Action::MuteTopic | Action::UnmuteTopic | Action::FollowTopic | Action::MarkTopicRead
            if sidebar_channel(st).is_some() =>
        {
            channel_row_action(st, a)
        }
        Action::MuteTopic | Action::UnmuteTopic | Action::FollowTopic => {
            let Some((c, t)) = current_topic(st) else {
                set_status(st, "select a topic first");
                return vec![];
            };
            // As the web app: unmuting a topic of a channel that is not muted takes it back
            // to the default; only in a muted channel is it "unmuted" (policy 2).
            let channel_muted = st.data.channels.get(&c).is_some_and(|ch| ch.muted);
            let wanted = match a {
                Action::MuteTopic => VisibilityPolicy::Muted,
                Action::UnmuteTopic if channel_muted => VisibilityPolicy::Unmuted,
                Action::UnmuteTopic => VisibilityPolicy::None,
                _ => VisibilityPolicy::Followed,
            };
            let policy = if st.data.policy(c, &t) == wanted { VisibilityPolicy::None } else { wanted };
            // The policy changes here when the server says it changed (its `user_topic`
            // event): a refused change leaves the topic as it was.
            let pending = super::answers::policy_words(policy).1;
            set_status(st, format!("#{} > {t}: {pending}", st.data.channel_name(c)));
            vec![Effect::SetPolicy { channel: c, topic: t, policy }]
        }
        Action::MarkTopicRead => {
            let Some((c, t)) = current_topic(st) else { return vec![] };
            mark_topic_read(c, t)
        }
        Action::ToggleSpoiler => {
            let Some(m) = selected_message(st) else { return vec![] };
            // A muted sender's message: the key shows it (and hides it again).
            if st.data.muted_users.contains(&m.sender_id()) {
                let id = m.id;
                if !st.ui.revealed.remove(&id) {
                    st.ui.revealed.insert(id);
                }
                return vec![];
            }
            // Zulip renders every spoiler as a `spoiler-block`.
            if !m.content().contains("spoiler-block") {
                set_status(st, "this message has no spoilers");
                return vec![];
            }
            let id = m.id;
            if !st.ui.open_spoilers.remove(&(id, 0)) {
                st.ui.open_spoilers.insert((id, 0));
            }
            vec![]
        }
        // Compose keys act in the compose box; the topic keys go through the palette (`keys.rs`).
        Action::Send
        | Action::Schedule
        | Action::Attach
        | Action::ChangeRecipient
        | Action::Complete
        | Action::CompleteBack => vec![],
        Action::RenameTopic | Action::MoveTopic | Action::ResolveTopic => vec![],
        Action::ChannelInfo => super::directory::info_action(st),
        Action::Recent => super::recent::open_recent(st),
        Action::Profile if st.ui.focus == Focus::People => match super::panes::selected_person(st) {
            Some(u) => super::directory::open_profile(st, u),
            None => vec![],
        },
        Action::Profile => super::directory::sender_profile(st),
        Action::Remind => super::reminders::prompt(st),
        Action::Reminders => super::reminders::open(st).unwrap_or_else(|e| {
            set_error(st, e);
            vec![]
        }),
        Action::Uploads => super::uploads::open(st),
        // Keys of the compose box (`keys.rs`).
        Action::Snippets | Action::Preview => vec![],
        Action::Inbox => super::inbox::open(st),
        // Only in the inbox (`inbox::on_key`).
        Action::InboxToggle | Action::InboxCollapse | Action::InboxExpand => vec![],
    }
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
