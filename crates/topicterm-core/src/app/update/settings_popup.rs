//! `:settings`: the user's Zulip settings and where each comes from (`app::zulip_settings`);
//! enter asks the server to change the selected one (`PATCH /settings`). Nothing changes here
//! before the server's `user_settings` event says so; a refusal is said and leaves the value
//! as it was.

use super::common::{list_move, set_error, set_status};
use super::prelude::*;
use crate::app::zulip_settings::{self, SETTINGS};

/// `:settings`: the list, from its first row.
pub(super) fn open(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Settings { selected: 0 });
    vec![]
}

/// Keys of the list: move, enter changes the selected setting on the server, esc closes.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(Popup::Settings { selected }) = &mut st.ui.popup else { return vec![] };
    if list_move(selected, zulip_settings::ROWS - 1, key.code) {
        return vec![];
    }
    let row = *selected;
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') => {
            st.ui.popup = None;
            vec![]
        }
        KeyCode::Enter => change(st, row),
        _ => vec![],
    }
}

/// Enter on row `row`.
fn change(st: &mut State, row: usize) -> Vec<Effect> {
    let Some(setting) = row.checked_sub(1).and_then(|i| SETTINGS.get(i)) else {
        set_error(
            st,
            "how notifications are shown is this terminal's own: [notifications] method in the config",
        );
        return vec![];
    };
    let now = zulip_settings::value(st.data.user_settings(), setting.name);
    let Some(value) = zulip_settings::next(setting, now.as_ref(), st.data.realm.server.feature_level) else {
        let why = match now {
            None => format!("{}: this server has no such setting", setting.label),
            Some(_) => format!("{}: change it in Zulip's web app (Settings)", setting.label),
        };
        set_error(st, why);
        return vec![];
    };
    let words = zulip_settings::words(setting, Some(&value));
    set_status(st, format!("{}: asking the server for {words}…", setting.label));
    vec![Effect::Api(ApiCall::UserSetting {
        name: setting.name.to_owned(),
        value,
        label: setting.label.to_owned(),
        words,
    })]
}

#[cfg(test)]
mod tests {
    use super::super::tests::registered;
    use super::*;
    use crate::app::update;

    fn key(st: &mut State, code: KeyCode) -> Vec<Effect> {
        update(st, Msg::Key(KeyEvent::new(code, crate::app::keys::KeyModifiers::NONE)))
    }

    #[test]
    fn enter_asks_the_server_and_changes_nothing_before_its_event() {
        let (mut st, _) = registered();
        let on = serde_json::json!(true);
        st.data.on_user_setting(UserSettingChange::Other {
            property: "enable_desktop_notifications".into(),
            value: on,
        });
        open(&mut st);
        assert!(key(&mut st, KeyCode::Enter).is_empty(), "the local row is the config's");
        key(&mut st, KeyCode::Down);
        let fx = key(&mut st, KeyCode::Enter);
        assert!(
            matches!(&fx[..], [Effect::Api(ApiCall::UserSetting { name, value, .. })]
                if name == "enable_desktop_notifications" && *value == serde_json::json!(false)),
            "{fx:?}"
        );
        assert_eq!(st.data.user_settings().enable_desktop_notifications, Some(true), "not before the event");
    }
}
