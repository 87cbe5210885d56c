//! Channels and people: the `:channels` list (filter, join, leave, open), a channel's info
//! with the user's own settings for it, and a user's profile (start a DM, mention them).
//!
//! The server's answers fill the popups; what changes on the server (joining, leaving,
//! settings) comes back as `subscription` events, which `events` applies.

use super::common::*;
use super::prelude::*;
use crate::app::msg::Answer;

/// Reads a channel description's HTML for the one-line summary of the list.
struct Plain(TimeZone);

impl crate::content::ContentContext for Plain {
    fn format_time(&self, ts: i64) -> String {
        self.0.format(ts, "%a %-d %b %H:%M")
    }
    fn spoiler_open(&self, _: usize) -> bool {
        false
    }
}

/// A description as one line of plain, sanitised text: the rendered HTML if the server sent
/// it, else the Markdown as it is.
fn summary(tz: TimeZone, c: &BasicChannel) -> String {
    if c.rendered_description.trim().is_empty() {
        let text = crate::content::sanitize(&c.description);
        return text.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    crate::content::Document::parse(&c.rendered_description).summary(&Plain(tz)).text
}

/// Keep the channels whose name or description holds every word typed: those whose name
/// starts with the first word first, then the others whose name holds every word, then the
/// ones only their description matches (each group in the list's order).
pub(super) fn refilter(list: &mut ChannelList, query: &str) {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let mut ranked: Vec<(u8, usize)> = list
        .all
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (name, desc) = (e.channel.name.to_lowercase(), e.summary.to_lowercase());
            let in_name = words.iter().all(|w| name.contains(w.as_str()));
            let rank = match words.first() {
                _ if !in_name => 2,
                Some(first) if name.starts_with(first.as_str()) => 0,
                _ => 1,
            };
            let matches =
                in_name || words.iter().all(|w| name.contains(w.as_str()) || desc.contains(w.as_str()));
            matches.then_some((rank, i))
        })
        .collect();
    ranked.sort_by_key(|&(rank, _)| rank);
    list.shown = ranked.into_iter().map(|(_, i)| i).collect();
}

/// `:channels`: the list, once the server has answered.
pub(super) fn open_channels(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Channels { query: LineEditor::default(), selected: 0, list: None });
    vec![Effect::Api(ApiCall::Channels)]
}

/// Whether [`on_answer`] is where this call's answer goes (the popups of this module).
pub(super) fn answers(call: &ApiCall) -> bool {
    matches!(
        call,
        ApiCall::Channels
            | ApiCall::ChannelDetails(_)
            | ApiCall::Profile(_)
            | ApiCall::Subscribe { .. }
            | ApiCall::SubscriptionProperty { .. }
    )
}

/// One of this module's calls answered (`Err`: the failure in words).
pub(super) fn on_answer(st: &mut State, call: ApiCall, result: Result<Answer, String>) -> Vec<Effect> {
    match (call, result) {
        (ApiCall::Channels, Ok(Answer::Channels(list))) => on_channel_list(st, Ok(list)),
        (ApiCall::Channels, Err(e)) => on_channel_list(st, Err(e)),
        (ApiCall::ChannelDetails(c), Ok(Answer::Channel(details))) => on_channel_details(st, c, Ok(details)),
        (ApiCall::ChannelDetails(c), Err(e)) => on_channel_details(st, c, Err(e)),
        (ApiCall::Profile(u), Ok(Answer::User(user))) => on_profile(st, u, Ok(user)),
        (ApiCall::Profile(u), Err(e)) => on_profile(st, u, Err(e)),
        (ApiCall::Subscribe { names }, Ok(Answer::Subscribed(r))) => on_subscribed(st, names, Ok(r)),
        (ApiCall::Subscribe { names }, Err(e)) => on_subscribed(st, names, Err(e)),
        (ApiCall::SubscriptionProperty { channel, property, value }, result) => {
            on_property_set(st, channel, &property, value, result.map(|_| ()))
        }
        // `net` answers each call with its own kind of answer.
        _ => vec![],
    }
}

/// Keep the list's subscriber counts current (subscription and peer events), also while a
/// channel's info opened from it is in front.
pub(super) fn count_subscribers(st: &mut State, channel: ChannelId, delta: i64) {
    let popup = match &mut st.ui.popup {
        Some(Popup::ChannelInfo { back: Some(back), .. }) => back.as_mut(),
        Some(p) => p,
        None => return,
    };
    let Popup::Channels { list: Some(list), .. } = popup else { return };
    if let Some(e) = list.all.iter_mut().find(|e| e.channel.stream_id == channel) {
        e.channel.subscriber_count = e.channel.subscriber_count.map(|n| (n + delta).max(0));
    }
}

fn on_channel_list(st: &mut State, result: Result<Vec<BasicChannel>, String>) -> Vec<Effect> {
    let tz = st.tz;
    match (&mut st.ui.popup, result) {
        (Some(Popup::Channels { query, selected, list }), Ok(channels)) => {
            let all =
                channels.into_iter().map(|c| ChannelEntry { summary: summary(tz, &c), channel: c }).collect();
            let mut l = ChannelList { all, shown: Vec::new() };
            refilter(&mut l, query.text());
            *selected = (*selected).min(l.shown.len().saturating_sub(1));
            *list = Some(l);
        }
        (Some(Popup::Channels { .. }), Err(e)) => {
            st.ui.popup = None;
            set_error(st, format!("channels: {e}"));
        }
        _ => {}
    }
    vec![]
}

/// Say what became of a subscription request, naming the channels.
fn on_subscribed(
    st: &mut State,
    names: Vec<String>,
    result: Result<SubscribeResponse, String>,
) -> Vec<Effect> {
    let list = format!("#{}", names.join(", #"));
    match result {
        Ok(r) if !r.unauthorized.is_empty() => set_error(
            st,
            format!("#{} is private: you need an invitation to join", r.unauthorized.join(", #")),
        ),
        Ok(r) if r.already_subscribed.as_object().is_some_and(|o| !o.is_empty()) => {
            set_status(st, format!("you were already in {list}"))
        }
        Ok(_) => set_status(st, format!("you joined {list}")),
        Err(e) => set_error(st, format!("could not join {list}: {e}")),
    }
    vec![]
}

/// A channel just created: opened, as the web app does, when known by its ID or (a server that
/// does not say the ID) by its name.
pub(super) fn open_created(st: &mut State, name: &str, id: Option<ChannelId>) -> Vec<Effect> {
    match id.or_else(|| st.data.channels.by_name(name).map(|c| c.id)) {
        Some(c) => super::navigation::open_narrow(st, Narrow::Channel(c)),
        None => vec![],
    }
}

/// A channel by name: one the user is in, or one they can join.
pub(super) fn channel_by_name(st: &State, name: &str) -> Option<ChannelId> {
    crate::app::narrow::Resolver::channel_id(&st.data, name)
}

/// The question before leaving a channel (a private one needs an invitation to come back);
/// `confirm` adds "(y/N)".
pub(super) fn leave_question(name: &str, private: bool) -> String {
    if private {
        format!("Leave #{name}? It is private: you need an invitation to come back.")
    } else {
        format!("Leave #{name}?")
    }
}

/// `:subscribe #name`: only existing channels (the server would create a missing one).
pub(super) fn subscribe_command(st: &mut State, name: &str) -> Result<Vec<Effect>, String> {
    if let Some(c) = st.data.channels.by_name(name) {
        return Err(format!("you are already in #{}", c.name));
    }
    // As Tab completes it: the name, or the one channel to join that it begins (a word of).
    let id = st.data.channels.resolve(Which::Joinable, name).map_err(|found| match found.as_slice() {
        [] => format!("no channel named {name:?} that you can join (:channels lists them)"),
        _ => super::palette_args::several(name, &found),
    })?;
    let exact = st.data.channels.name(id).to_owned();
    set_status(st, format!("joining #{exact}…"));
    Ok(vec![Effect::Api(ApiCall::Subscribe { names: vec![exact] })])
}

/// A channel's info popup: its details and email address are asked for. `back`: the popup
/// esc returns to (the `:channels` list it was opened from).
pub(super) fn open_channel_info(st: &mut State, channel: ChannelId, back: Option<Box<Popup>>) -> Vec<Effect> {
    st.ui.popup = Some(Popup::ChannelInfo { channel, details: None, email: None, scroll: 0, back });
    vec![
        Effect::Api(ApiCall::ChannelDetails(channel)),
        Effect::Api(ApiCall::ChannelEmail { channel, sender: None }),
    ]
}

/// `i` on a channel (or topic) row of the sidebar.
pub(super) fn info_action(st: &mut State) -> Vec<Effect> {
    let channel = match st.ui.sidebar.selected() {
        Some(SidebarRow::Channel(c) | SidebarRow::Topic(c, _)) if st.ui.focus == Focus::Sidebar => *c,
        _ => {
            set_status(st, "select a channel in the channels pane first");
            return vec![];
        }
    };
    open_channel_info(st, channel, None)
}

fn on_channel_details(
    st: &mut State,
    channel: ChannelId,
    result: Result<Box<BasicChannel>, String>,
) -> Vec<Effect> {
    let Some(Popup::ChannelInfo { channel: shown, details, back, .. }) = &mut st.ui.popup else {
        return vec![];
    };
    if *shown != channel {
        return vec![];
    }
    match result {
        Ok(c) => {
            *details = Some(c);
            // The groups and people it names, where they are not known (`--low-bandwidth`).
            let Some(Popup::ChannelInfo { details: Some(c), .. }) = &st.ui.popup else { return vec![] };
            return named_by_channel(&mut st.data.users, c);
        }
        Err(e) => {
            st.ui.popup = back.take().map(|b| *b);
            set_error(st, format!("channel info: {e}"));
        }
    }
    vec![]
}

/// A channel's details shown: the groups its "who may post" names are needed, and the people
/// it names whom no message named (its creator, the setting's members) are read alone — both
/// only where not known (`--low-bandwidth`, `people_list`).
fn named_by_channel(users: &mut crate::app::users::Users, c: &BasicChannel) -> Vec<Effect> {
    let members: &[UserId] = match &c.can_send_message_group {
        Some(GroupSettingValue::Anonymous { direct_members, direct_subgroups }) => {
            if !direct_subgroups.is_empty() {
                users.need_groups();
            }
            direct_members
        }
        Some(GroupSettingValue::Group(_)) => {
            users.need_groups();
            &[]
        }
        None => &[],
    };
    let ids = c.creator_id.iter().chain(members).copied().collect();
    users.reading_alone(ids, 10).into_iter().map(|u| Effect::Api(ApiCall::User(u))).collect()
}

/// The channel email for the info popup, if it is waiting for one (else `Err` gives it back).
pub(super) fn take_email(
    st: &mut State,
    email: Result<String, String>,
) -> Result<(), Result<String, String>> {
    match &mut st.ui.popup {
        Some(Popup::ChannelInfo { email: slot @ None, .. }) => {
            *slot = Some(email);
            Ok(())
        }
        _ => Err(email),
    }
}

/// The name of a subscription setting, as the status line says it.
pub(super) fn setting_name(property: &str) -> &str {
    match property {
        "pin_to_top" => "pinned",
        "desktop_notifications" => "desktop notifications",
        "audible_notifications" => "audible notifications",
        other => other,
    }
}

fn on_property_set(
    st: &mut State,
    channel: ChannelId,
    property: &str,
    value: bool,
    result: Result<(), String>,
) -> Vec<Effect> {
    let name = st.data.channels.name(channel).to_owned();
    let what = setting_name(property);
    match result {
        Ok(()) if property == "pin_to_top" => {
            set_status(st, format!("#{name} {}", if value { "pinned" } else { "unpinned" }))
        }
        Ok(()) => {
            let words = notify_words(Some(value), st.data.notify_defaults().get(property));
            set_status(st, format!("#{name}: {what} {words}"))
        }
        Err(e) => set_error(st, format!("#{name}: {what} not changed: {e}")),
    }
    vec![]
}

/// A user's profile popup (from `:profile`, `u` on a message, or the people pane).
pub(super) fn open_profile(st: &mut State, user: UserId) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Profile { user, details: None, scroll: 0 });
    // Its groups, where they are not known (`--low-bandwidth`).
    st.data.users.need_groups();
    st.data.users.reading_user(user);
    vec![Effect::Api(ApiCall::Profile(user))]
}

/// `u`: the selected message's sender.
pub(super) fn sender_profile(st: &mut State) -> Vec<Effect> {
    match selected_message(st).map(|m| m.sender_id()) {
        Some(u) => open_profile(st, u),
        None => {
            set_status(st, "select a message first");
            vec![]
        }
    }
}

fn on_profile(st: &mut State, user: UserId, result: Result<Box<User>, String>) -> Vec<Effect> {
    // Learnt where only some users are known (`--low-bandwidth`), the popup shown or not.
    match &result {
        Ok(u) => st.data.users.on_user(u),
        Err(_) => st.data.users.user_not_read(user),
    }
    let Some(Popup::Profile { user: shown, .. }) = &st.ui.popup else { return vec![] };
    if *shown != user {
        return vec![];
    }
    match result {
        Ok(u) => {
            let Some(Popup::Profile { details, .. }) = &mut st.ui.popup else { return vec![] };
            *details = Some(u);
        }
        Err(e) => {
            st.ui.popup = None;
            set_error(st, format!("profile: {e}"));
        }
    }
    vec![]
}

/// An organization role in words.
pub fn role_name(role: i64) -> &'static str {
    match role {
        100 => "Organization owner",
        200 => "Organization administrator",
        300 => "Moderator",
        600 => "Guest",
        _ => "Member",
    }
}

/// Who may post in a channel, in words: its `can_send_message_group` (a system group by its
/// meaning, another group by name, or the people named), else the older `stream_post_policy`.
pub fn who_may_post(d: &Data, c: &BasicChannel) -> String {
    use crate::app::rules::{post_policy, who_may};
    who_may(d, c.can_send_message_group.as_ref(), post_policy(c.stream_post_policy))
}

/// The time now in an IANA time zone, with its offset: "14:05 (UTC+01:00)". `None` for a
/// zone this client does not know (the time zone database is built in: nothing is read).
pub fn zone_time(zone: &str, now: i64, clock: crate::app::settings::Clock) -> Option<String> {
    let tz = jiff::tz::TimeZone::get(zone).ok()?;
    let at = jiff::Timestamp::from_second(now).ok()?.to_zoned(tz);
    let time = match clock {
        crate::app::settings::Clock::H24 => "%H:%M",
        crate::app::settings::Clock::H12 => "%-I:%M %p",
    };
    Some(format!("{} (UTC{})", at.strftime(time), at.strftime("%:z")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::settings::Clock;

    #[test]
    fn local_time_follows_the_zone_and_its_summer_time() {
        // 2026-11-21 12:00 UTC and 2026-07-01 12:00 UTC.
        let (winter, summer) = (1_795_262_400, 1_782_907_200);
        assert_eq!(zone_time("Asia/Tokyo", winter, Clock::H24).as_deref(), Some("21:00 (UTC+09:00)"));
        assert_eq!(zone_time("Europe/Stockholm", winter, Clock::H24).as_deref(), Some("13:00 (UTC+01:00)"));
        assert_eq!(zone_time("Europe/Stockholm", summer, Clock::H24).as_deref(), Some("14:00 (UTC+02:00)"));
        assert_eq!(zone_time("America/Chicago", winter, Clock::H12).as_deref(), Some("6:00 AM (UTC-06:00)"));
        assert_eq!(zone_time("Mars/Olympus_Mons", winter, Clock::H24), None);
        assert_eq!(zone_time("", winter, Clock::H24), None);
    }

    fn entry(name: &str, summary: &str) -> ChannelEntry {
        let mut channel = channel(None, None);
        channel.name = name.into();
        ChannelEntry { channel, summary: summary.into() }
    }

    fn channel(setting: Option<GroupSettingValue>, policy: Option<i64>) -> BasicChannel {
        let core = ChannelCore {
            stream_id: 1,
            name: "x".into(),
            description: String::new(),
            rendered_description: String::new(),
            date_created: 0,
            creator_id: None,
            invite_only: false,
            is_web_public: false,
            is_announcement_only: false,
            stream_post_policy: policy,
            history_public_to_subscribers: true,
            first_message_id: None,
            folder_id: None,
            stream_weekly_traffic: None,
            subscriber_count: None,
            can_send_message_group: setting,
        };
        BasicChannel { channel: core, is_archived: false, is_default: None, default_push_notifications: None }
    }

    /// `pay` on the large organization listed `#billing-alert-695` (its description says
    /// "payments") before any `#payments-…`.
    #[test]
    fn the_channel_filter_ranks_name_prefixes_then_names_then_descriptions() {
        let mut list = ChannelList {
            all: vec![
                entry("billing-alert-695", "alerts about payments"),
                entry("team-pay", "the team"),
                entry("payments-eu", "money"),
                entry("general", "everything"),
                entry("payments-us", "money"),
            ],
            shown: vec![],
        };
        let names = |l: &ChannelList| -> Vec<String> {
            l.shown.iter().map(|i| l.all[*i].channel.name.clone()).collect()
        };
        refilter(&mut list, "pay");
        assert_eq!(names(&list), ["payments-eu", "payments-us", "team-pay", "billing-alert-695"]);
        refilter(&mut list, "PAY us");
        assert_eq!(names(&list), ["payments-us"]);
        refilter(&mut list, "money");
        assert_eq!(names(&list), ["payments-eu", "payments-us"], "description matches keep the list's order");
        refilter(&mut list, "");
        assert_eq!(list.shown, [0, 1, 2, 3, 4], "no filter: the list's order");
    }

    #[test]
    fn who_may_post_reads_groups_and_the_old_policy() {
        let mut d = Data::default();
        let group = |id: i64, name: &str, system: bool| UserGroup {
            id,
            name: name.into(),
            description: String::new(),
            members: vec![],
            direct_subgroup_ids: vec![],
            is_system_group: system,
            deactivated: false,
        };
        for (id, name, system) in
            [(3, "role:administrators", true), (7, "role:everyone", true), (30, "leads", false)]
        {
            d.users.on_group(&UserGroupEvent::Add(group(id, name, system)));
        }
        let c = channel;
        assert_eq!(who_may_post(&d, &c(Some(GroupSettingValue::Group(7)), None)), "everyone");
        assert_eq!(who_may_post(&d, &c(Some(GroupSettingValue::Group(3)), Some(1))), "administrators only");
        assert_eq!(who_may_post(&d, &c(Some(GroupSettingValue::Group(30)), None)), "members of @leads");
        let anon = GroupSettingValue::Anonymous { direct_members: vec![], direct_subgroups: vec![3, 30] };
        assert_eq!(who_may_post(&d, &c(Some(anon), None)), "administrators, @leads");
        assert_eq!(who_may_post(&d, &c(None, Some(2))), "administrators only");
        assert_eq!(who_may_post(&d, &c(None, None)), "everyone");
    }
}
