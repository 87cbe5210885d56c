//! What the archive on this machine holds for a narrow (`Effect::SearchArchive`, answered by
//! `Msg::ArchiveHits`): a search's matches shown at once while the server is asked, any view's
//! messages while offline. Shown as provisional (`NarrowView::provisional`) and said in the title
//! (`NarrowView::local`); the server's first page takes their place, the selection kept
//! (`navigation::on_messages`).

use super::common::{rebuild_sidebar, set_error, set_status};
use super::hold;
use super::navigation::select_initial;
use super::prelude::*;

/// The archive's messages for a narrow arrived.
pub(super) fn on_hits(st: &mut State, narrow: Narrow, epoch: u64, messages: Vec<Message>) -> Vec<Effect> {
    // The server's answer came first (it stands), or the window was opened anew since.
    if st.data.narrows.get(&narrow).is_none_or(|v| v.epoch != epoch || v.loaded) {
        return vec![];
    }
    let mut ids = Vec::with_capacity(messages.len());
    for mut m in messages {
        ids.push(m.id);
        // A message held is as fresh as the archive's or fresher.
        if !st.data.messages.contains_key(&m.id) {
            // What is unread is the unread index's word (the server's, kept up by events): the
            // archive may have missed a message read while this client was not running.
            m.flags.retain(|f| *f != Flag::Read);
            if !st.data.unread.contains(m.id) {
                m.flags.push(Flag::Read);
            }
            st.data.insert_message(m);
        }
    }
    // What the view would not hold from the server: moved elsewhere since, or, in the combined
    // feed, muted. A search is the archive's word as it is the server's.
    let d = &st.data;
    let me = d.me;
    ids.retain(|id| {
        d.messages.get(id).is_some_and(|m| {
            matches!(narrow, Narrow::Search { .. })
                || (narrow.contains(m, me) && (narrow != Narrow::All || d.in_feed(m)))
        })
    });
    let offline = st.ui.offline.is_some();
    let view = st.data.narrows.get_mut(&narrow).expect("checked above");
    if ids.is_empty() && !offline && view.loading_newer {
        // Nothing here: "Loading…" until the server answers, which says it better.
        return vec![];
    }
    view.merge(ids);
    view.provisional = true;
    if view.local.is_none() {
        view.local = Some(if offline || !view.loading_newer { Local::Offline } else { Local::Asking });
    }
    if narrow == st.ui.narrow && st.ui.selected.is_none() {
        select_initial(st);
    }
    hold::enforce(st);
    rebuild_sidebar(st);
    vec![]
}

/// The server's first page of a narrow did not come: what the archive showed stays, alone.
pub(super) fn on_failed(st: &mut State, narrow: &Narrow, error: &ApiError) {
    let offline = st.ui.offline.is_some();
    if let Some(v) = st.data.narrows.get_mut(narrow).filter(|v| !v.loaded && v.local.is_some()) {
        v.local = Some(if offline || error.is_transient() { Local::Offline } else { Local::Refused });
    }
}

/// A page of a backfill (`:archive`) is in the archive.
pub(super) fn on_backfill_progress(st: &mut State, name: &str, fetched: u64) -> Vec<Effect> {
    if st.ui.backfilling {
        set_status(st, format!("archiving {name}: {} messages so far…", grouped(fetched)));
    }
    vec![]
}

/// A backfill of one narrow ended: all of its history is in the archive, or why not.
pub(super) fn on_backfill_done(st: &mut State, name: &str, result: Result<u64, String>) -> Vec<Effect> {
    if !st.ui.backfilling {
        return vec![];
    }
    match result {
        Ok(n) => set_status(st, format!("archived {name}: all {} messages", grouped(n))),
        Err(why) => {
            st.ui.backfilling = false;
            set_error(st, format!("archiving {name} stopped: {why}"));
        }
    }
    vec![]
}

/// A count with its thousands separated: 200,000.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_grouped_by_thousands() {
        let g: Vec<String> = [0, 999, 1000, 200_000, 1_234_567].into_iter().map(super::grouped).collect();
        assert_eq!(g, ["0", "999", "1,000", "200,000", "1,234,567"]);
    }
}
