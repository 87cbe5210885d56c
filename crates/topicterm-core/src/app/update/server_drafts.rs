//! Drafts kept on the server (`/drafts`), synchronised with the drafts on disk: what arrives,
//! handed to the drafts' owner (`app::drafts::Drafts`) with the key the compose box is typing in.

use super::prelude::*;

/// The compose box's key being typed in right now, if any.
fn editing_key(st: &State) -> Option<String> {
    st.ui.compose.as_ref().filter(|c| c.editing.is_none() && c.scheduled.is_none()).map(Compose::draft_key)
}

/// Register: take the server's drafts (when it keeps them for this user).
pub(super) fn on_register(
    st: &mut State,
    drafts: Option<Vec<Draft>>,
    settings: Option<&UserSettings>,
) -> Vec<Effect> {
    let enabled = settings.and_then(|s| s.enable_drafts_synchronization).unwrap_or(true);
    let editing = editing_key(st);
    st.drafts.on_register(drafts, enabled, st.data.me, editing.as_deref())
}

/// A `drafts` event.
pub(super) fn on_event(st: &mut State, ev: DraftsEvent) -> Vec<Effect> {
    let editing = editing_key(st);
    st.drafts.on_event(ev, st.data.me, editing.as_deref())
}

/// The answer to a push: remember the new draft's ID, or why it failed.
pub(super) fn on_pushed(
    st: &mut State,
    key: String,
    content: String,
    result: Result<i64, ApiError>,
) -> Vec<Effect> {
    let editing = editing_key(st);
    st.drafts.on_pushed(key, content, result, editing.as_deref())
}

/// Follow local draft saves with server pushes and deletes (called on every `update`).
pub(super) fn follow(st: &mut State, fx: &mut Vec<Effect>) {
    let compose = editing_key(st).zip(st.ui.compose.as_ref().map(|c| c.target.clone()));
    st.drafts.follow(fx, compose, st.data.me, st.now);
}

/// On each tick: push drafts whose last change was held back.
pub(super) fn flush(st: &mut State) -> Vec<Effect> {
    st.drafts.flush(st.data.me, st.now)
}

/// The server confirmed a deletion (or had no such draft): forget it.
pub(super) fn on_gone(st: &mut State, id: i64) -> Vec<Effect> {
    st.drafts.on_gone(id)
}

/// Drafts found on disk at start-up: kept where nothing newer is typed, with the outbox's
/// unsent messages and what the server was not yet told.
pub(super) fn on_loaded(st: &mut State, drafts: std::collections::HashMap<String, String>) -> Vec<Effect> {
    let editing = editing_key(st);
    let (mut fx, unsent) = st.drafts.on_loaded(drafts, editing.as_deref());
    fx.extend(super::outbox::restore_all(st, unsent));
    fx
}

#[cfg(test)]
mod tests {
    use super::super::tests::registered;
    use super::*;
    use crate::app::drafts::{gone_id, gone_key, unconfirmed_key};
    use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
    use crate::app::update;

    const KEY: &str = "channel-1-plans";

    /// Registered, with one draft kept on the server (ID 5) for #eng > plans.
    fn with_server_draft(st: &mut State) {
        let mut d = Draft::channel(1, "plans", "said already");
        d.id = Some(5);
        on_register(st, Some(vec![d]), None);
    }

    fn loaded(keys: &[(&str, &str)]) -> Msg {
        Msg::DraftsLoaded(keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    #[test]
    fn a_deleted_server_draft_is_remembered_on_disk_until_the_server_confirms() {
        let (mut st, _) = registered();
        with_server_draft(&mut st);
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("said already"));
        st.ui.compose =
            Some(Compose::new(Target::Channel { id: 1, topic: "plans".into() }, "said already", None));
        let fx = update(&mut st, Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)));
        assert!(fx.contains(&Effect::DeleteServerDraft(5)), "{fx:?}");
        let gone = fx.iter().position(|e| *e == Effect::SaveDraft { key: gone_key(5), text: "5".into() });
        let dropped =
            fx.iter().position(|e| *e == Effect::SaveDraft { key: KEY.into(), text: String::new() });
        let outbox =
            fx.iter().position(|e| matches!(e, Effect::SaveDraft { key, .. } if key.starts_with("outbox-")));
        assert!(dropped < gone && gone < outbox, "remembered before the outbox file is written: {fx:?}");
        assert!(st.drafts.is_gone(5));
        let fx = update(&mut st, Msg::ServerDraftGone(5));
        assert_eq!(fx, vec![Effect::SaveDraft { key: gone_key(5), text: String::new() }]);
        assert!(st.drafts.none_gone());
    }

    /// The message was sent while its draft's creation was on its way to the server: the draft
    /// created there is deleted as soon as its ID is known.
    #[test]
    fn a_draft_created_on_the_server_after_its_message_was_sent_is_deleted() {
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![]), None);
        st.drafts.creating(KEY);
        let fx = update(&mut st, Msg::DraftPushed { key: KEY.into(), content: "x".into(), result: Ok(9) });
        assert_eq!(
            fx,
            vec![Effect::SaveDraft { key: gone_key(9), text: "9".into() }, Effect::DeleteServerDraft(9)]
        );
        // Still there to type: kept.
        st.drafts.insert(KEY.into(), "x".into());
        let fx = update(&mut st, Msg::DraftPushed { key: KEY.into(), content: "x".into(), result: Ok(10) });
        assert!(fx.is_empty(), "{fx:?}");
        assert_eq!(st.drafts.server_copy(KEY), Some((10, "x")));
    }

    /// A create whose answer was lost, or whose event comes before its answer: the draft that
    /// turns up is ours, and once its text was sent it is deleted, not put back in the compose box.
    #[test]
    fn our_own_draft_turning_up_after_its_text_was_sent_is_deleted() {
        let lost = || ApiError::Transport { message: "reset".into(), timeout: false, connect: false };
        for answer_first in [true, false] {
            let (mut st, _) = registered();
            on_register(&mut st, Some(vec![]), None);
            st.drafts.creating(KEY);
            if answer_first {
                let fx = update(
                    &mut st,
                    Msg::DraftPushed { key: KEY.into(), content: "sent".into(), result: Err(lost()) },
                );
                assert_eq!(fx, vec![Effect::SaveDraft { key: unconfirmed_key(KEY), text: "sent".into() }]);
            }
            let mut d = Draft::channel(1, "plans", "sent");
            d.id = Some(12);
            let fx = update(
                &mut st,
                Msg::Events(vec![Event { id: 1, kind: EventKind::Drafts(DraftsEvent::Add(vec![d])) }]),
            );
            assert!(fx.contains(&Effect::DeleteServerDraft(12)), "answer first: {answer_first}: {fx:?}");
            assert!(!st.drafts.contains_key(KEY), "{:?}", st.drafts);
            if !answer_first {
                let fx = update(
                    &mut st,
                    Msg::DraftPushed { key: KEY.into(), content: "sent".into(), result: Ok(12) },
                );
                assert!(fx.is_empty(), "deleted once: {fx:?}");
            }
        }
        // Another client's draft for the same conversation still fills it.
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![]), None);
        let mut d = Draft::channel(1, "plans", "from the web");
        d.id = Some(13);
        update(
            &mut st,
            Msg::Events(vec![Event { id: 1, kind: EventKind::Drafts(DraftsEvent::Add(vec![d])) }]),
        );
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("from the web"));
    }

    /// A create whose answer was lost, then a kill: the next run still knows the draft is ours.
    #[test]
    fn an_unheard_create_is_known_after_a_restart_in_either_order() {
        let mut d = Draft::channel(1, "plans", "sent");
        d.id = Some(14);
        let found = || loaded(&[(&unconfirmed_key(KEY), "sent")]);
        // The disk first, then register.
        let (mut st, _) = registered();
        update(&mut st, found());
        let fx = on_register(&mut st, Some(vec![d.clone()]), None);
        assert!(fx.contains(&Effect::DeleteServerDraft(14)), "{fx:?}");
        assert!(!st.drafts.contains_key(KEY));
        // Register first.
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![d.clone()]), None);
        let fx = update(&mut st, found());
        assert!(fx.contains(&Effect::DeleteServerDraft(14)), "{fx:?}");
        assert!(!st.drafts.contains_key(KEY));
        // A draft of the same text still on disk is the user's: kept.
        let (mut st, _) = registered();
        on_register(&mut st, Some(vec![d]), None);
        let fx = update(&mut st, loaded(&[(&unconfirmed_key(KEY), "sent"), (KEY, "sent")]));
        assert!(!fx.contains(&Effect::DeleteServerDraft(14)), "{fx:?}");
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("sent"));
    }

    /// The run before was killed (or lost the network) before the server deleted a sent
    /// message's draft: at the next start that draft does not come back, whichever of register
    /// and the disk answers first, and the deletion is asked again.
    #[test]
    fn an_unconfirmed_deletion_keeps_the_draft_out_after_a_restart() {
        // Register first.
        let (mut st, _) = registered();
        with_server_draft(&mut st);
        let fx = update(&mut st, loaded(&[(&gone_key(5), "5")]));
        assert!(fx.contains(&Effect::DeleteServerDraft(5)), "{fx:?}");
        assert!(!st.drafts.contains_key(KEY), "{:?}", st.drafts);
        // The disk first.
        let (mut st, _) = registered();
        update(&mut st, loaded(&[(&gone_key(5), "5")]));
        with_server_draft(&mut st);
        assert!(!st.drafts.contains_key(KEY), "{:?}", st.drafts);
        // A local draft with other text is the user's: kept.
        let (mut st, _) = registered();
        with_server_draft(&mut st);
        st.drafts.insert(KEY.into(), "typed since".into());
        update(&mut st, loaded(&[(&gone_key(5), "5")]));
        assert_eq!(st.drafts.get(KEY).map(String::as_str), Some("typed since"));
        assert_eq!(gone_id("gone-draft-x"), None);
    }
}
