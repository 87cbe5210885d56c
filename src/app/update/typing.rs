//! Telling the others in a conversation that the user is typing (`POST /typing`), as the web
//! app does: "start" on the first keystroke and again every `server_typing_started_wait_period`
//! while typing goes on; "stop" after five idle seconds, or when the compose box closes or
//! changes conversation. Edits have their own notices (`Effect::EditTyping`).

use super::prelude::*;

/// Seconds without a keystroke after which typing counts as stopped (the web app's 5 s).
const IDLE_SECS: i64 = 5;

/// A keystroke in the compose box.
pub(super) fn keystroke(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    // Notes to self tell nobody; with `--low-bandwidth` nobody is told.
    if st.settings.low_bandwidth
        || c.editing.is_some()
        || c.scheduled.is_some()
        || c.target == Target::Dm(Vec::new())
    {
        return vec![];
    }
    let (to, now) = (c.target.clone(), st.now);
    let mut fx = Vec::new();
    match &mut st.ui.typing_notice {
        Some(n) if n.to == to => {
            n.last_key = now;
            if now - n.started_at >= st.data.realm.typing_started_wait_secs {
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

/// After every input: typing stops when the compose box is gone or idle, or now goes elsewhere.
pub(super) fn follow(st: &mut State) -> Vec<Effect> {
    let Some(n) = &st.ui.typing_notice else { return vec![] };
    let here = st.ui.compose.as_ref().is_some_and(|c| c.target == n.to && c.editing.is_none());
    if here && st.now - n.last_key < IDLE_SECS {
        return vec![];
    }
    let to = n.to.clone();
    st.ui.typing_notice = None;
    vec![Effect::Typing { to, start: false }]
}
