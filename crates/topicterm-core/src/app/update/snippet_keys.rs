//! Keys of the saved snippets popup: move, `enter` inserts the selected snippet (at the compose
//! box's cursor, or in a new compose box for the selected conversation), `a` saves the compose
//! text as a snippet (asking for its title), `d` deletes one after a question naming it, `/`
//! gives the keys to the filter line (by title and text) until `esc` or `tab`.

use super::actions::current_target;
use super::common::*;
use super::palette_args::confirm;
use super::prelude::*;
use super::snippets::*;

/// Keys of the popup; `None`: it is not open.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let Some(Popup::Snippets { query, filtering, selected, shown }) = &mut st.ui.popup else { return None };
    let last = shown.as_ref().map_or(0, |s| s.len().saturating_sub(1));
    match key.code {
        KeyCode::Down => *selected = (*selected + 1).min(last),
        KeyCode::Up => *selected = selected.saturating_sub(1),
        KeyCode::PageDown => *selected = (*selected + 10).min(last),
        KeyCode::PageUp => *selected = selected.saturating_sub(10),
        KeyCode::Enter => return Some(insert(st)),
        // The filter line's keys: esc or tab hand the keys back to the list, the filter kept.
        KeyCode::Esc | KeyCode::Tab if *filtering => *filtering = false,
        _ if *filtering && query.key(&key) == crate::line::Edit::Changed => refilter(st, false),
        _ if *filtering => {}
        KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
        _ if key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => {}
        KeyCode::Char('j') => *selected = (*selected + 1).min(last),
        KeyCode::Char('k') => *selected = selected.saturating_sub(1),
        KeyCode::Home | KeyCode::Char('g') => *selected = 0,
        KeyCode::End | KeyCode::Char('G') => *selected = last,
        KeyCode::Char('/') => *filtering = true,
        KeyCode::Char('a') => ask_title(st),
        KeyCode::Char('d') => ask_delete(st),
        _ => {}
    }
    Some(vec![])
}

/// `enter`: the selected snippet's text goes in at the compose box's cursor; with none open, a
/// compose box opens with it for the selected message's conversation (or the one in view).
fn insert(st: &mut State) -> Vec<Effect> {
    let Some(s) = selected(st).cloned() else { return vec![] };
    if let Some(c) = &mut st.ui.compose {
        c.preview = None;
        c.editor.insert_str(&s.content);
        st.ui.popup = None;
        set_status(st, format!("inserted the snippet \"{}\"", s.title));
    } else {
        let Some(target) = current_target(st) else {
            set_error(st, "select a message or open a conversation to write the snippet in");
            return vec![];
        };
        st.ui.popup = None;
        open_compose(st, target, &s.content, None);
    }
    st.ui.draft_dirty = true;
    super::typing::keystroke(st)
}

/// `a`: the compose box's text becomes a snippet once the title is typed (`snippets::save`).
fn ask_title(st: &mut State) {
    match st.ui.compose.as_ref().map(Compose::text) {
        None => set_error(st, "write the snippet in the compose box first, then save it from this list"),
        Some(t) if t.trim().is_empty() => set_error(st, "nothing to save: the compose box is empty"),
        Some(_) => st.ui.prompt = Some(Prompt::new(PromptKind::SnippetTitle, "")),
    }
}

/// `d`: the selected snippet is deleted on the server once the user says yes.
fn ask_delete(st: &mut State) {
    let Some(s) = selected(st) else { return };
    let (id, title) = (s.id, s.title.clone());
    let question = format!("Delete the saved snippet \"{}\"?", crate::content::sanitize(&title));
    confirm(st, question, Effect::Api(ApiCall::DeleteSnippet { id, title }));
}
