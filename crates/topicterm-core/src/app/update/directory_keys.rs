//! Keys of the channels and people popups: move, filter, join and leave in the `:channels`
//! list; the user's own settings in a channel's info; a DM or a mention from a profile.

use super::actions::*;
use super::common::*;
use super::directory::*;
use super::navigation::*;
use super::palette_args::confirm;
use super::prelude::*;

/// The channel selected in the `:channels` list.
fn selected_entry(st: &State) -> Option<&BasicChannel> {
    match &st.ui.popup {
        Some(Popup::Channels { selected, list: Some(list), .. }) => {
            list.shown.get(*selected).and_then(|i| list.all.get(*i)).map(|e| &e.channel)
        }
        _ => None,
    }
}

/// Join a channel the user is not in, or leave one they are in (asking first, as
/// `:unsubscribe` does; for a private one, saying that coming back needs an invitation).
pub(super) fn toggle_subscription(
    st: &mut State,
    channel: ChannelId,
    name: String,
    private: bool,
) -> Vec<Effect> {
    if st.data.channels.is_subscribed(channel) {
        let leave = Effect::Api(ApiCall::Unsubscribe {
            channels: vec![name.clone()],
            principals: None,
            names: vec!["you".into()],
        });
        confirm(st, leave_question(&name, private), leave);
        vec![]
    } else {
        set_status(st, format!("joining #{name}…"));
        vec![Effect::Api(ApiCall::Subscribe { names: vec![name] })]
    }
}

fn channels_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(Popup::Channels { query, selected, list }) = &mut st.ui.popup else { return vec![] };
    let len = list.as_ref().map_or(0, |l| l.shown.len());
    let last = len.saturating_sub(1);
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => st.ui.popup = None,
        KeyCode::Down => *selected = (*selected + 1).min(last),
        KeyCode::Up => *selected = selected.saturating_sub(1),
        KeyCode::PageDown => *selected = (*selected + 10).min(last),
        KeyCode::PageUp => *selected = selected.saturating_sub(10),
        KeyCode::Home => *selected = 0,
        KeyCode::End => *selected = last,
        KeyCode::Enter => {
            let Some(c) = selected_entry(st) else { return vec![] };
            let (id, name) = (c.stream_id, c.name.clone());
            if !st.data.channels.is_subscribed(id) {
                set_status(st, format!("you are not in #{name}: ctrl+s joins it"));
                return vec![];
            }
            st.ui.popup = None;
            return open_narrow(st, Narrow::Channel(id));
        }
        // The filter is a line like every prompt's (left/right, ctrl+w, ctrl+u, …).
        _ if (!ctrl || !matches!(key.code, KeyCode::Char('s' | 'o')))
            && query.key(&key) == crate::line::Edit::Changed =>
        {
            if let Some(l) = list {
                refilter(l, query.text());
            }
            *selected = 0;
        }
        _ if !ctrl => {}
        KeyCode::Char('s') => {
            let Some(c) = selected_entry(st) else { return vec![] };
            let (id, name, private) = (c.stream_id, c.name.clone(), c.invite_only);
            return toggle_subscription(st, id, name, private);
        }
        KeyCode::Char('o') => {
            let Some(id) = selected_entry(st).map(|c| c.stream_id) else { return vec![] };
            let back = st.ui.popup.take().map(Box::new);
            return open_channel_info(st, id, back);
        }
        _ => {}
    }
    vec![]
}

/// Keys of the channel info popup: the user's own settings. `None`: not one of them (the
/// popup scrolls).
fn info_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let Some(Popup::ChannelInfo { channel, details, email, back, .. }) = &mut st.ui.popup else {
        return None;
    };
    let c = *channel;
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return None;
    }
    // Opened from the `:channels` list: esc (or q) goes back to it, as it was.
    if matches!(key.code, KeyCode::Esc | KeyCode::Char('q'))
        && let Some(back) = back.take()
    {
        st.ui.popup = Some(*back);
        return Some(vec![]);
    }
    let KeyCode::Char(k @ ('m' | 'p' | 'd' | 'a' | 's' | 'y')) = key.code else { return None };
    if k == 'y' {
        return Some(match email {
            Some(Ok(e)) => {
                let e = e.clone();
                set_status(st, format!("channel email copied: {e}"));
                vec![Effect::Term(TermEffect::Copy(e))]
            }
            _ => {
                set_error(st, "no channel email to copy");
                vec![]
            }
        });
    }
    let from_details = details.as_ref().map(|d| (d.name.clone(), d.invite_only));
    let Some(sub) = st.data.channels.get(c).cloned() else {
        let Some((name, private)) = from_details else { return Some(vec![]) };
        if k == 's' {
            return Some(toggle_subscription(st, c, name, private));
        }
        set_status(st, format!("you are not in #{name}: s joins it"));
        return Some(vec![]);
    };
    let (property, value) = match k {
        's' => return Some(toggle_subscription(st, c, sub.name.clone(), sub.invite_only)),
        'm' => return Some(set_channel_muted(st, c, !sub.muted)),
        'p' => ("pin_to_top", !sub.pinned),
        // From the user's default to the other value and back.
        'd' => {
            let default = st.data.notify_defaults().desktop;
            ("desktop_notifications", next_notify(sub.desktop_notifications, default))
        }
        _ => (
            "audible_notifications",
            next_notify(sub.audible_notifications, st.data.notify_defaults().audible),
        ),
    };
    let words = if property == "pin_to_top" {
        (if value { "on" } else { "off" }).to_owned()
    } else {
        notify_words(Some(value), st.data.notify_defaults().get(property))
    };
    set_status(st, format!("#{}: {} {words}…", sub.name, setting_name(property)));
    Some(vec![Effect::Api(ApiCall::SubscriptionProperty { channel: c, property: property.into(), value })])
}

/// Keys of the profile popup: `x` / enter starts a DM with them, `@` mentions them.
fn profile_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let Some(Popup::Profile { user, details, .. }) = &st.ui.popup else { return None };
    let user = *user;
    let name = details.as_ref().map_or_else(|| st.data.user_name(user).to_owned(), |d| d.full_name.clone());
    match key.code {
        KeyCode::Char('x') | KeyCode::Enter => {
            st.ui.popup = None;
            open_compose(st, Target::Dm(dm_key(&[user], st.data.me)), "", None);
        }
        KeyCode::Char('@') => {
            let mention = format!("@**{name}|{user}** ");
            if let Some(c) = &mut st.ui.compose {
                c.editor.insert_str(&mention);
                st.ui.draft_dirty = true;
                st.ui.popup = None;
                return Some(vec![]);
            }
            let target = current_target(st);
            let Some(target) = target else {
                set_error(st, "open a conversation or select a message to mention them in");
                return Some(vec![]);
            };
            st.ui.popup = None;
            open_compose(st, target, &mention, None);
            st.ui.draft_dirty = true;
        }
        _ => return None,
    }
    Some(vec![])
}

/// Keys of this module's popups; `None`: not theirs (a scrolled popup scrolls).
pub(super) fn on_popup_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    match &st.ui.popup {
        Some(Popup::Channels { .. }) => Some(channels_key(st, key)),
        Some(Popup::ChannelInfo { .. }) => info_key(st, key),
        Some(Popup::Profile { .. }) => profile_key(st, key),
        Some(Popup::Recent { .. }) => super::recent::on_key(st, key),
        _ => None,
    }
}
