//! Link hints: `f` labels the links on screen (what the last frame showed, `Ui::links_on_screen`)
//! and typing a label opens it as `o` would; `F` copies its address as `y` copies a message's.
//! Labels and typing are `app::hints`'; the link a label names is read again from the message
//! as it shows now (`shown_parts`), so nothing hidden since is opened.

use super::common::*;
use super::prelude::*;
use crate::app::hints::{Hints, LinkSpot, Typed};

/// `f` (open) or `F` (copy): label the links on screen.
pub(super) fn start(st: &mut State, copy: bool) -> Vec<Effect> {
    let Some(hints) = Hints::new(&st.ui.links_on_screen, copy) else {
        set_status(st, "no links on screen");
        return vec![];
    };
    let what = if copy { "copy its address" } else { "open it" };
    set_status(st, format!("type a link's label to {what} (esc: cancel)"));
    st.ui.popup = Some(Popup::Hints(hints));
    vec![]
}

/// A key while the labels show: a letter narrows them down or chooses one; backspace takes
/// the last letter back; esc, or a key no label has, ends the session.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let Some(Popup::Hints(hints)) = &mut st.ui.popup else { return None };
    let letter = match key.code {
        KeyCode::Char(c) if !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => c,
        KeyCode::Backspace if !hints.typed.is_empty() => {
            hints.typed.pop();
            return Some(vec![]);
        }
        KeyCode::Esc => {
            st.ui.popup = None;
            st.ui.status = None;
            return Some(vec![]);
        }
        _ => {
            st.ui.popup = None;
            set_status(st, "link hints cancelled");
            return Some(vec![]);
        }
    };
    let copy = hints.copy;
    match hints.type_letter(letter) {
        Typed::More => Some(vec![]),
        Typed::NoSuch(typed) => {
            st.ui.popup = None;
            set_status(st, format!("no link is labelled {typed}"));
            Some(vec![])
        }
        Typed::Chosen(spot) => {
            let label = format!("[{}]", hints.label_of(spot).unwrap_or_default());
            st.ui.popup = None;
            Some(follow(st, spot, &label, copy))
        }
    }
}

/// Open or copy the link a label chose, as the message shows it now.
fn follow(st: &mut State, spot: LinkSpot, label: &str, copy: bool) -> Vec<Effect> {
    let url = st
        .data
        .messages
        .get(&spot.message)
        .and_then(|m| shown_parts(st, m).links.into_iter().nth(spot.number.wrapping_sub(1)))
        .map(|l| l.url);
    let Some(url) = url else {
        set_error(st, format!("link {label} is no longer shown"));
        return vec![];
    };
    if copy {
        super::outside::copy_address(st, &url, label)
    } else {
        super::outside::open_shown_link(st, &url, label)
    }
}
