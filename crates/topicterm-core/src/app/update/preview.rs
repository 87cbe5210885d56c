//! The compose box's preview (alt+p): the text as the server renders it
//! (`POST /messages/render`), drawn in place of the editor by the messages' content renderer.
//! The editor is left alone meanwhile: any key that edits (or the preview key again, or esc)
//! goes back to it with the text and the cursor as they were; the send key sends. An answer
//! for a text other than the one shown is stale, and dropped.

use super::common::*;
use super::prelude::*;
use crate::app::msg::Answer;

/// Rows a page key scrolls the preview.
const PAGE_ROWS: u16 = 4;

/// The preview key: show the preview (asking the server), or go back to the text.
pub(super) fn toggle(st: &mut State) -> Vec<Effect> {
    let Some(c) = &mut st.ui.compose else { return vec![] };
    if c.preview.take().is_some() {
        return vec![];
    }
    let text = c.text();
    if text.trim().is_empty() {
        set_error(st, "nothing to preview: the compose box is empty");
        return vec![];
    }
    c.preview = Some(Preview { text: text.clone(), html: None, scroll: 0 });
    vec![Effect::Api(ApiCall::RenderPreview { content: text })]
}

/// A key while the preview is shown (`None`: no preview, or a key that works as it does in the
/// editor — sending). Arrows and page keys scroll it; any other key goes back to the editor
/// and does nothing more, so the text and the cursor are as they were.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let p = st.ui.compose.as_mut()?.preview.as_mut()?;
    if st.settings.keymap.lookup(Context::Compose, &key) == Some(Action::Send) {
        return None;
    }
    // No further than the last row as last drawn.
    let bottom = st.ui.popup_bottom.get().unwrap_or(u16::MAX);
    match (key.code, key.modifiers & !KeyModifiers::SHIFT) {
        (KeyCode::Down, KeyModifiers::NONE) => p.scroll = p.scroll.saturating_add(1).min(bottom),
        (KeyCode::Up, KeyModifiers::NONE) => p.scroll = p.scroll.saturating_sub(1),
        (KeyCode::PageDown, _) => p.scroll = p.scroll.saturating_add(PAGE_ROWS).min(bottom),
        (KeyCode::PageUp, _) => p.scroll = p.scroll.saturating_sub(PAGE_ROWS),
        _ => close(st),
    }
    Some(vec![])
}

/// Back to the editor (a paste, an upload's link, a key): the preview goes.
pub(super) fn close(st: &mut State) {
    if let Some(c) = &mut st.ui.compose {
        c.preview = None;
    }
}

/// The server rendered `content` (`result`'s error: why not, in the user's words). Kept only
/// for the preview still waiting for that very text.
pub(super) fn on_answer(st: &mut State, content: &str, result: Result<Answer, String>) -> Vec<Effect> {
    let Some(c) = &mut st.ui.compose else { return vec![] };
    let waiting = c.preview.as_ref().is_some_and(|p| p.html.is_none() && p.text == content);
    if !waiting || c.text() != content {
        return vec![];
    }
    match result {
        Ok(Answer::Rendered(html)) => {
            if let Some(p) = &mut c.preview {
                p.html = Some(html);
            }
        }
        Ok(_) => {}
        Err(why) => {
            c.preview = None;
            set_error(st, format!("no preview: {why}; the text is as you left it"));
        }
    }
    vec![]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::msg::Job;

    fn composing(text: &str) -> State {
        let mut st = State::default();
        st.ui.compose = Some(Compose::new(Target::Dm(vec![]), text, None));
        st
    }

    fn answer(st: &mut State, content: &str) {
        let job = Job::Api(Box::new(ApiCall::RenderPreview { content: content.into() }));
        let html = format!("<p>{content}</p>");
        crate::app::update(st, Msg::Done { job, result: Ok(Answer::Rendered(html)) });
    }

    fn html(st: &State) -> Option<String> {
        st.ui.compose.as_ref()?.preview.as_ref()?.html.clone()
    }

    #[test]
    fn an_answer_for_another_text_than_the_one_shown_is_dropped() {
        let mut st = composing("new");
        let fx = toggle(&mut st);
        assert_eq!(fx, vec![Effect::Api(ApiCall::RenderPreview { content: "new".into() })]);
        answer(&mut st, "old");
        assert_eq!(html(&st), None, "an older text's answer");
        answer(&mut st, "new");
        assert_eq!(html(&st).as_deref(), Some("<p>new</p>"));
        // The text changed under the preview (an upload's link): what was asked is not it.
        let mut st = composing("a");
        toggle(&mut st);
        st.ui.compose.as_mut().unwrap().editor.insert_str("b");
        answer(&mut st, "a");
        assert_eq!(html(&st), None);
        // Back to the editor before the answer: nothing is shown or said.
        let mut st = composing("a");
        toggle(&mut st);
        toggle(&mut st);
        answer(&mut st, "a");
        assert!(st.ui.compose.as_ref().unwrap().preview.is_none() && st.ui.status.is_none());
    }
}
