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
    if st.data.views.get(&narrow).is_none_or(|v| v.epoch() != epoch || v.is_loaded()) {
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
    let offline = st.ui.conn.is_offline();
    let view = st.data.views.get_mut(&narrow).expect("checked above");
    if !view.archive_shown(ids, offline) {
        // Nothing here: "Loading…" until the server answers, which says it better.
        return vec![];
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
    let offline = st.ui.conn.is_offline();
    if let Some(v) = st.data.views.get_mut(narrow) {
        v.archive_alone(offline || error.is_transient());
    }
}

/// A page of a backfill (`:archive`) is in the archive.
pub(super) fn on_backfill_progress(
    st: &mut State,
    name: &str,
    fetched: u64,
    about: Option<u64>,
) -> Vec<Effect> {
    if !st.ui.backfill.running().is_empty() {
        let about = about.filter(|a| *a > fetched);
        let of = about.map(|a| format!(" of about {}", grouped(a))).unwrap_or_default();
        let s = if about.unwrap_or(fetched) == 1 { "" } else { "s" };
        set_status(st, format!("archiving {name}: {}{of} message{s} so far…", grouped(fetched)));
    }
    vec![]
}

/// A backfill's page could not be fetched: it is asked again in a while (`:archive stop`
/// ends it).
pub(super) fn on_backfill_waiting(st: &mut State, name: &str, why: &str, retry_in: u64) -> Vec<Effect> {
    if !st.ui.backfill.running().is_empty() {
        set_status(
            st,
            format!("archiving {name}: waiting for the server ({why}); trying again in {retry_in} s…"),
        );
    }
    vec![]
}

/// A backfill of one narrow ended: all of its history is in the archive, or why not.
pub(super) fn on_backfill_done(st: &mut State, name: &str, result: Result<u64, String>) -> Vec<Effect> {
    if st.ui.backfill.running().is_empty() {
        return vec![];
    }
    match result {
        Ok(n) => {
            st.ui.backfill.done(name);
            let all = match n {
                0 => "no messages".to_owned(),
                1 => "its 1 message".to_owned(),
                _ => format!("all {} messages", grouped(n)),
            };
            set_status(st, format!("archived {name}: {all}"));
        }
        Err(why) => {
            // `:archive` alone tries again from where it came to.
            st.ui.backfill.failed();
            set_error(st, format!("archiving {name} stopped: {why} (:archive alone tries again)"));
        }
    }
    vec![]
}

/// The archive was checked against the server (`net/reconcile.rs`): kept for `:dump-state`;
/// nothing is said — what it dropped was no longer the user's to see, and a check that stopped
/// is made again after the next register.
pub(super) fn on_archive_checked(
    st: &mut State,
    result: Result<crate::app::msg::ArchiveCheck, String>,
) -> Vec<Effect> {
    st.ui.backfill.check_ended(Some(result));
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
    use super::super::tests::registered;
    use super::*;
    use crate::app::command::Backfill;
    use crate::app::{BackfillTarget, update};

    #[test]
    fn an_unfinished_archive_is_kept_with_the_session_and_goes_on_once_the_server_answers() {
        let (mut st, _) = registered();
        let fx = super::super::palette_settings::archive(&mut st, Backfill::All).unwrap();
        let all = vec![BackfillTarget { name: "all messages".into(), channel: None }];
        assert_eq!(fx, vec![Effect::Backfill(all.clone())]);
        update(
            &mut st,
            Msg::BackfillProgress { name: "all messages".into(), fetched: 1000, about: Some(5000) },
        );
        assert_eq!(
            st.ui.status.as_ref().unwrap().text,
            "archiving all messages: 1,000 of about 5,000 messages so far…"
        );
        // The session is kept (as the file keeps it) while the backfill is not done.
        let kept = super::super::cache::snapshot(&st);
        let kept: crate::app::session::Snapshot =
            serde_json::from_str(&serde_json::to_string(&kept).unwrap()).unwrap();
        assert_eq!(kept.backfill, all);

        // The next start: the kept session is drawn, nothing is fetched on its account ...
        let mut next = crate::app::State::default();
        let fx = update(&mut next, Msg::Cached(Box::new(kept)));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Backfill(_))), "{fx:?}");
        // ... and the backfill goes on once the server answers.
        let (_, answer) = registered_answer();
        let fx = crate::app::register_at_once(&mut next, answer);
        assert!(fx.contains(&Effect::Backfill(all.clone())), "{fx:?}");
        assert_eq!(next.ui.status.as_ref().unwrap().text, "archiving resumes: all messages…");
        update(&mut next, Msg::BackfillDone { name: "all messages".into(), result: Ok(5000) });
        assert_eq!(next.ui.status.as_ref().unwrap().text, "archived all messages: all 5,000 messages");
        assert!(super::super::cache::snapshot(&next).backfill.is_empty(), "done: nothing is resumed");
        // A register again (a lost queue) starts nothing.
        let (_, answer) = registered_answer();
        let fx = crate::app::register_at_once(&mut next, answer);
        assert!(!fx.iter().any(|e| matches!(e, Effect::Backfill(_))), "{fx:?}");
    }

    /// The register answer of `registered`.
    fn registered_answer() -> (crate::app::State, crate::api::RegisterResponse) {
        let (st, _) = registered();
        let answer = super::super::cache::snapshot(&st).register;
        let mut answer = answer;
        answer.queue_id = Some("q2".into());
        (st, answer)
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        let g: Vec<String> = [0, 999, 1000, 200_000, 1_234_567].into_iter().map(super::grouped).collect();
        assert_eq!(g, ["0", "999", "1,000", "200,000", "1,234,567"]);
    }
}
