//! Saved snippets (`:snippets`, and a key in the compose box): the user's list, kept by
//! register's `saved_snippets` and the `saved_snippets` events (asked of the server where
//! register had none), filtered by title and text; saving the compose text as one; the
//! server's answers. The popup's keys are in `snippet_keys.rs`.

use super::common::*;
use super::prelude::*;
use crate::app::msg::Answer;

/// `:snippets`: the list, asked of the server when register did not bring it — unless the
/// server is older than saved snippets, which is said instead.
pub(super) fn open(st: &mut State) -> Vec<Effect> {
    let level = st.data.realm.server.feature_level;
    if st.data.lists.snippets().is_none()
        && level > 0
        && let Err(e) = crate::api::snippets::no_snippets_here(Some(level))
    {
        set_error(st, e.to_string());
        return vec![];
    }
    let shown = st.data.lists.snippets().map(|all| filtered(all, ""));
    let ask = shown.is_none();
    st.ui.popup =
        Some(Popup::Snippets { query: LineEditor::default(), filtering: false, selected: 0, shown });
    if ask { vec![Effect::Api(ApiCall::Snippets)] } else { vec![] }
}

/// The snippets a filter keeps, in the order they are listed: by title, those whose title
/// matches before those that match only by their text. Every word of the filter must be
/// somewhere in the title or the text.
pub(super) fn filtered(all: &std::collections::BTreeMap<i64, SavedSnippet>, query: &str) -> Vec<i64> {
    let q = query.trim().to_lowercase();
    let mut kept: Vec<(bool, String, i64)> = all
        .values()
        .filter_map(|s| {
            let title = s.title.to_lowercase();
            let by_title = matches_filter(&title, &q);
            let kept = by_title || matches_filter(&format!("{title}\n{}", s.content), &q);
            kept.then_some((!by_title, title, s.id))
        })
        .collect();
    kept.sort();
    kept.into_iter().map(|(_, _, id)| id).collect()
}

/// The list changed (`keep`: the selection stays on the snippet it was on, if still shown), or
/// its filter did (the best match is selected): what the popup shows follows.
pub(super) fn refilter(st: &mut State, keep: bool) {
    let Some(all) = st.data.lists.snippets() else { return };
    let Some(Popup::Snippets { query, selected, shown, .. }) = &mut st.ui.popup else { return };
    let was = shown.as_ref().and_then(|s| s.get(*selected)).copied().filter(|_| keep);
    let now = filtered(all, query.text());
    *selected = was.and_then(|id| now.iter().position(|x| *x == id)).unwrap_or(0);
    *shown = Some(now);
}

/// The snippet selected in the popup.
pub(super) fn selected(st: &State) -> Option<&SavedSnippet> {
    let Some(Popup::Snippets { selected, shown: Some(shown), .. }) = &st.ui.popup else { return None };
    shown.get(*selected).and_then(|id| st.data.lists.snippets()?.get(id))
}

/// The title prompt answered: the compose text is saved under it, or why not is said (the
/// prompt stays open to fix the title).
pub(super) fn save(st: &mut State, title: &str) -> Result<Vec<Effect>, String> {
    let content = st
        .ui
        .compose
        .as_ref()
        .map(Compose::text)
        .filter(|t| !t.trim().is_empty())
        .ok_or("nothing to save: the compose box is empty")?;
    crate::api::limits::check_snippet(title, &content, st.data.realm.limits.max_message_length)
        .map_err(|e| e.to_string())?;
    let title = title.trim().to_owned();
    set_status(st, format!("saving the snippet \"{title}\"…"));
    Ok(vec![Effect::Api(ApiCall::CreateSnippet { title, content })])
}

/// Whether a palette operation's answer is this file's to put on screen.
pub(super) fn answers(call: &ApiCall) -> bool {
    matches!(call, ApiCall::Snippets | ApiCall::CreateSnippet { .. } | ApiCall::DeleteSnippet { .. })
}

/// The server answered (`result`'s error: why it failed, in the user's words).
pub(super) fn on_answer(st: &mut State, call: ApiCall, result: Result<Answer, String>) -> Vec<Effect> {
    match (call, result) {
        (ApiCall::Snippets, Ok(Answer::Snippets(list))) => {
            st.data.lists.on_snippets_listed(list);
            refilter(st, true);
        }
        (ApiCall::Snippets, Err(why)) => {
            if matches!(st.ui.popup, Some(Popup::Snippets { shown: None, .. })) {
                st.ui.popup = None;
            }
            set_error(st, format!("saved snippets: {why}"));
        }
        (ApiCall::CreateSnippet { title, .. }, Ok(_)) => {
            set_status(st, format!("saved the snippet \"{title}\""));
        }
        (ApiCall::CreateSnippet { title, .. }, Err(why)) => {
            set_error(st, format!("the snippet \"{title}\" was not saved: {why}"));
        }
        (ApiCall::DeleteSnippet { title, .. }, Ok(_)) => {
            set_status(st, format!("deleted the snippet \"{title}\""));
        }
        (ApiCall::DeleteSnippet { title, .. }, Err(why)) => {
            set_error(st, format!("the snippet \"{title}\" was not deleted: {why}"));
        }
        _ => {}
    }
    vec![]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snippet(id: i64, title: &str, content: &str) -> SavedSnippet {
        SavedSnippet { id, title: title.into(), content: content.into(), date_created: 0 }
    }

    #[test]
    fn the_filter_keeps_title_matches_first_then_text_matches_by_title() {
        let all = [
            snippet(1, "Thanks", "Thank you for the review!"),
            snippet(2, "standup", "Yesterday: …\nToday: thanks to Bob"),
            snippet(3, "apology", "Sorry for the delay."),
            snippet(4, "Another thanks", "cheers"),
        ]
        .into_iter()
        .map(|s| (s.id, s))
        .collect();
        assert_eq!(filtered(&all, ""), vec![4, 3, 2, 1], "by title");
        assert_eq!(filtered(&all, "thanks"), vec![4, 1, 2], "titles first");
        assert_eq!(filtered(&all, "  SORRY delay "), vec![3], "every word, any case");
        assert_eq!(filtered(&all, "nothing"), Vec::<i64>::new());
    }
}
