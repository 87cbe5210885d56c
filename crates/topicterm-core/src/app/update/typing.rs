//! Telling the others in a conversation that the user is typing (`POST /typing`), as the web
//! app does: "start" on the first keystroke and again every `server_typing_started_wait_period`
//! while typing goes on; "stop" after five idle seconds, or when the compose box closes or
//! changes conversation. Edits have their own notices (`Effect::EditTyping`).

use super::prelude::*;

/// Seconds without a keystroke after which typing counts as stopped (the web app's 5 s).
const IDLE_SECS: i64 = 5;

/// Whether the user lets others see them typing to `to`, as they set it in Zulip
/// (`send_private_typing_notifications`, `send_stream_typing_notifications`; a server that does
/// not say: yes).
pub(super) fn tells(st: &State, to: &Target) -> bool {
    let s = st.data.user_settings();
    let setting = match to {
        Target::Dm(_) => s.send_private_typing_notifications,
        Target::Channel { .. } => s.send_stream_typing_notifications,
    };
    setting != Some(false)
}

/// Whether others' typing is shown (`receives_typing_notifications`; not said: yes).
pub(super) fn shown(st: &State) -> bool {
    st.data.user_settings().receives_typing_notifications != Some(false)
}

/// A keystroke in the compose box.
pub(super) fn keystroke(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    // Notes to self tell nobody; with `--low-bandwidth` nobody is told; nor where the user
    // keeps their typing to themselves.
    if st.settings.low_bandwidth
        || c.editing.is_some()
        || c.scheduled.is_some()
        || c.target == Target::Dm(Vec::new())
        || !tells(st, &c.target)
    {
        return vec![];
    }
    let (to, now) = (c.target.clone(), st.now);
    let mut fx = Vec::new();
    match st.ui.presence.notice_mut() {
        Some(n) if n.to == to => {
            n.last_key = now;
            if now - n.started_at >= st.data.realm.timing.typing_started_wait_secs {
                n.started_at = now;
                fx.push(Effect::Typing { to, start: true });
            }
        }
        other => {
            if let Some(old) = other.take() {
                fx.push(Effect::Typing { to: old.to, start: false });
            }
            *other = Some(TypingNotice { to: to.clone(), started_at: now, last_key: now });
            fx.push(Effect::Typing { to, start: true });
        }
    }
    fx
}

/// After every input: typing stops when the compose box is gone or idle, or now goes elsewhere,
/// or the user has just turned their typing notices off; others' typing goes when the user
/// turned showing it off.
pub(super) fn follow(st: &mut State) -> Vec<Effect> {
    if !shown(st) && !st.ui.presence.typing().is_empty() {
        st.ui.presence.forget_typing();
    }
    let Some(n) = st.ui.presence.notice() else { return vec![] };
    let here =
        st.ui.compose.as_ref().is_some_and(|c| c.target == n.to && c.editing.is_none()) && tells(st, &n.to);
    if here && st.now - n.last_key < IDLE_SECS {
        return vec![];
    }
    let to = n.to.clone();
    st.ui.presence.stopped_typing();
    vec![Effect::Typing { to, start: false }]
}
