//! Keys of the reminders and uploads lists: move, `d` deletes after a question, esc closes;
//! in the uploads list enter or `o` opens the file (downloaded from the user's own server, as
//! a message's upload link is).

use super::palette_args::confirm;
use super::prelude::*;

/// Move a list's selection by a key; `false`: not a moving key.
fn moved(selected: &mut usize, len: usize, key: &KeyEvent) -> bool {
    super::common::list_move(selected, len.saturating_sub(1), key.code)
}

fn reminders_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let len = st.data.lists.reminders().map_or(0, <[_]>::len);
    let Some(Popup::Reminders { selected }) = &mut st.ui.popup else { return vec![] };
    if moved(selected, len, &key) {
        return vec![];
    }
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
        KeyCode::Char('d') => {
            let Some(r) = super::reminders::selected(st) else { return vec![] };
            let when = st.tz.format(r.scheduled_delivery_timestamp, "%a %-d %b %H:%M");
            let about = crate::content::sanitize(&super::reminders::reminder_excerpt(st, r, 40));
            let question = if about.is_empty() {
                format!("Delete the reminder of {when}?")
            } else {
                format!("Delete the reminder of {when} about \"{about}\"?")
            };
            let effect = Effect::Api(ApiCall::DeleteReminder(r.reminder_id));
            confirm(st, question, effect);
        }
        _ => {}
    }
    vec![]
}

fn uploads_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(Popup::Uploads { selected, list }) = &mut st.ui.popup else { return vec![] };
    let len = list.as_ref().map_or(0, |l| l.files.len());
    if moved(selected, len, &key) {
        return vec![];
    }
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
        KeyCode::Char('d') => {
            let Some(f) = super::uploads::selected(st) else { return vec![] };
            let name = crate::content::sanitize(&f.name);
            let question = format!(
                "Delete {name} ({})? Messages that link to it lose it; this cannot be undone.",
                super::answers::size_text(f.size)
            );
            let effect = Effect::Api(ApiCall::DeleteUpload { id: f.id, name });
            confirm(st, question, effect);
        }
        KeyCode::Enter | KeyCode::Char('o') => {
            let Some(f) = super::uploads::selected(st) else { return vec![] };
            let (url, name) = (f.url(), crate::content::sanitize(&f.name));
            return super::outside::open_judged(st, &url, &name, &name);
        }
        _ => {}
    }
    vec![]
}

/// Keys of these lists; `None`: neither is open.
pub(super) fn on_popup_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    match &st.ui.popup {
        Some(Popup::Reminders { .. }) => Some(reminders_key(st, key)),
        Some(Popup::Settings { .. }) => Some(super::settings_popup::on_key(st, key)),
        Some(Popup::Uploads { .. }) => Some(uploads_key(st, key)),
        _ => None,
    }
}
