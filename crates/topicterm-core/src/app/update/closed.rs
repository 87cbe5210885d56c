//! An organization whose account the server refused: closed — nothing goes to its server — until
//! the user fixes the account (in another terminal) and reopens it here. Its screen says how
//! (`answers::account_refused`); it takes only the keys that make sense now: `r` reopens, quit,
//! and the keys that switch organizations.

use super::actions::switch_organization;
use super::common::*;
use super::prelude::*;

/// Anything that arrives while closed.
pub(super) fn on_msg(st: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(key) => on_key(st, key),
        Msg::Tick(now) => {
            st.now = now;
            if st.ui.status.as_ref().is_some_and(|s| s.expired(now)) {
                st.ui.status = None;
            }
            vec![]
        }
        Msg::Focus(focused) => {
            st.ui.presence.focus_changed(focused);
            vec![]
        }
        Msg::Organizations(orgs) => {
            st.ui.orgs = orgs;
            vec![]
        }
        Msg::ClickOrganization(i) => switch_organization(st, OrgSwitch::To(i)),
        Msg::OrganizationClosed { name, .. } => {
            let text = super::answers::closed_elsewhere(st, &name);
            set_error(st, text);
            vec![]
        }
        Msg::ReopenFailed(why) => {
            set_error(st, super::answers::reopen_failed(&why));
            vec![]
        }
        // What its tasks still had to say: nothing to do with it now.
        _ => vec![],
    }
}

fn on_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    if key.code == KeyCode::Char(REOPEN_KEY) && key.modifiers.difference(KeyModifiers::SHIFT).is_empty() {
        set_status(st, "reopening: reading the account's credentials again…");
        return vec![Effect::Term(TermEffect::Reopen)];
    }
    match st.settings.keymap.lookup(Context::Global, &key) {
        Some(Action::Quit) => {
            st.ui.conn.quit();
            vec![Effect::Quit]
        }
        Some(Action::Help) => {
            let text = super::answers::closed_keys(st);
            set_status(st, text);
            vec![]
        }
        Some(a @ (Action::NextOrganization | Action::PreviousOrganization)) => {
            let how = if a == Action::NextOrganization { OrgSwitch::Next } else { OrgSwitch::Previous };
            switch_organization(st, how)
        }
        _ => vec![],
    }
}
