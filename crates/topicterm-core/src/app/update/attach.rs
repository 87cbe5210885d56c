//! Attaching files: `:attach PATH` and `ctrl+t` in the compose box upload a file and put its
//! Markdown link where the cursor is. The compose box stays usable while it goes; the status
//! line shows how far it got.

use super::actions::current_target;
use super::answers::size_text;
use super::common::*;
use super::prelude::*;

/// Upload `path` for the open compose box, or open one for the selected message's
/// conversation (or the conversation in view).
pub(super) fn attach(st: &mut State, path: &str) -> Result<Vec<Effect>, String> {
    let target = match &st.ui.compose {
        Some(c) => c.target.clone(),
        None => {
            let target =
                current_target(st).ok_or("select a message, or open a conversation, to attach a file to")?;
            let draft = st.drafts.get(&target.key()).cloned().unwrap_or_default();
            open_compose(st, target.clone(), &draft, None);
            target
        }
    };
    let name = file_name(path);
    set_status(st, format!("uploading {name}…"));
    Ok(vec![Effect::Upload {
        path: path.to_owned(),
        target,
        max_bytes: st.data.realm.limits.max_upload_bytes,
    }])
}

/// The last part of a path, for messages.
pub fn file_name(path: &str) -> String {
    let name = path.trim_end_matches(['/', '\\']).rsplit(['/', '\\']).next().unwrap_or(path);
    crate::content::sanitize(name)
}

/// How far an upload got, on the status line.
pub(super) fn progress(st: &mut State, name: &str, sent: u64, total: u64) {
    let pct = (sent * 100).checked_div(total).unwrap_or(100);
    set_status(st, format!("uploading {}: {pct}% of {}", crate::content::sanitize(name), size_text(total)));
}

/// The link for an uploaded file, as the web app writes it.
pub fn link(name: &str, url: &str) -> String {
    let label: String = name.chars().filter(|c| !matches!(c, '[' | ']')).collect();
    format!("[{label}]({url})")
}

/// An upload finished: the link goes where the cursor is, in the compose box it was for
/// (opened again if it was closed meanwhile, with its draft).
pub(super) fn uploaded(st: &mut State, target: Target, name: &str, url: &str) -> Vec<Effect> {
    let text = link(name, url);
    match &mut st.ui.compose {
        Some(c) if c.target == target => {
            // The text changes: a preview shown would be of what it was.
            c.preview = None;
            // Apart from the word before it: `retarget test[notes.txt](…)` would run together.
            let (row, col) = c.editor.cursor();
            let before = c.editor.lines().get(row).and_then(|l| l.chars().nth(col.wrapping_sub(1)));
            if before.is_some_and(|ch| !ch.is_whitespace()) {
                c.editor.insert_str(" ");
            }
            c.editor.insert_str(&text)
        }
        _ => {
            let key = target.key();
            let mut draft = st.drafts.get(&key).cloned().unwrap_or_default();
            if !draft.is_empty() && !draft.ends_with(char::is_whitespace) {
                draft.push(' ');
            }
            draft.push_str(&text);
            if st.ui.compose.is_none() {
                open_compose(st, target, &draft, None);
            } else {
                // Another compose box is open: the link waits in that conversation's draft.
                st.drafts.insert(key.clone(), draft.clone());
                set_status(st, format!("uploaded {name}: the link is in that conversation's draft"));
                return vec![Effect::SaveDraft { key, text: draft }];
            }
        }
    }
    st.ui.draft_dirty = true;
    set_status(st, format!("uploaded {name}"));
    vec![]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_links() {
        assert_eq!(file_name("/tmp/x/report.pdf"), "report.pdf");
        assert_eq!(file_name("C:\\files\\a b.png"), "a b.png");
        assert_eq!(link("a [b].txt", "/user_uploads/2/1/a-b.txt"), "[a b.txt](/user_uploads/2/1/a-b.txt)");
    }
}
