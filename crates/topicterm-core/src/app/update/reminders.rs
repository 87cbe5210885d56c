//! Reminders about messages (Zulip 11.0): `:remind WHEN [NOTE]` on the selected message, the
//! `:reminders` list — register's `reminders`, kept by `reminders` events, asked for when the
//! server did not say them — and what comes back. The list's keys are in `lists_keys.rs`; what
//! the user reads about the results, in `answers.rs`. A delivered reminder arrives as a direct
//! message from the Notification Bot, which notifies as any direct message does.

use super::common::*;
use super::prelude::*;
use crate::api::levels::{Level, REMINDER_NOTE, REMINDERS, REMINDING};

/// The server's level as far as the client knows it (before register: the newest).
fn level(st: &State) -> Level {
    st.data.realm.level()
}

/// Reminders are refused by a server before [`REMINDERS`], in the words of every key the
/// server's level rules out (`Level::require`).
fn supported(st: &State) -> Result<(), String> {
    level(st).require(REMINDERS, REMINDING.0, REMINDING.1).map_err(|e| e.to_string())
}

/// What `:remind` says without a selected message.
const SELECT_FIRST: &str = "select the message to be reminded of first";

/// The remind key: the palette's `:remind`, for the time (and a note) to be typed.
pub(super) fn prompt(st: &mut State) -> Vec<Effect> {
    match (selected_message(st), supported(st)) {
        (None, _) => set_error(st, SELECT_FIRST),
        (_, Err(e)) => set_error(st, e),
        (Some(_), Ok(())) => {
            st.ui.prompt = Some(Prompt::new(PromptKind::Command, "remind "));
            set_status(
                st,
                "remind me: in 2h, tomorrow 9:00, 17:30 or 2026-11-25 15:00, then a note if you like",
            );
        }
    }
    vec![]
}

/// `:remind WHEN [NOTE]`: the time at the start of the words (the scheduling syntax), the
/// rest a note; refused before anything is sent when no message is selected, the time cannot
/// be read or has passed.
pub(super) fn remind(st: &mut State, words: &[String]) -> Result<Vec<Effect>, String> {
    let message_id = selected_message(st).map(|m| m.id).ok_or(SELECT_FIRST)?;
    supported(st)?;
    let (at, rest) = crate::app::when::split_when(words, st.now, st.tz)?;
    let note = (!rest.is_empty()).then(|| rest.join(" "));
    let note_kept = level(st).has(REMINDER_NOTE);
    set_status(st, "setting the reminder…");
    Ok(vec![Effect::Api(ApiCall::Remind { message_id, at, note, note_kept })])
}

/// `:reminders`: the list, asked for when the server has not said it.
pub(super) fn open(st: &mut State) -> Result<Vec<Effect>, String> {
    supported(st)?;
    st.ui.popup = Some(Popup::Reminders { selected: 0 });
    Ok(if st.data.lists.reminders().is_none() { vec![Effect::Api(ApiCall::Reminders)] } else { vec![] })
}

/// The server listed them.
pub(super) fn on_list(st: &mut State, list: Vec<Reminder>) {
    st.data.lists.on_reminders_listed(list);
    clamp(st);
}

/// A reminder deleted here (the server said yes): it leaves the list at once.
pub(super) fn deleted(st: &mut State, id: i64) {
    st.data.lists.on_reminders(RemindersEvent::Remove(id));
    clamp(st);
}

/// The selection stays on a row that is there (after a `reminders` event, too).
pub(super) fn clamp(st: &mut State) {
    let len = st.data.lists.reminders().map_or(0, <[Reminder]>::len);
    if let Some(Popup::Reminders { selected }) = &mut st.ui.popup {
        *selected = (*selected).min(len.saturating_sub(1));
    }
}

/// The reminder selected in the list.
pub(super) fn selected(st: &State) -> Option<&Reminder> {
    let Some(Popup::Reminders { selected }) = &st.ui.popup else { return None };
    st.data.lists.reminders()?.get(*selected)
}

/// The start of the text of the message a reminder is about (at most `max` characters): the
/// message's own when it is held, else as the Notification Bot's text quotes it.
pub fn reminder_excerpt(st: &State, r: &Reminder, max: usize) -> String {
    match st.data.messages.get(&r.reminder_target_message_id) {
        Some(m) => super::outside::plain_text(m.content(), max),
        None => r.quoted().map(|q| super::outside::cut(q, max)).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reminder(id: i64, at: i64) -> Reminder {
        Reminder {
            reminder_id: id,
            to: vec![],
            content: String::new(),
            scheduled_delivery_timestamp: at,
            failed: false,
            reminder_target_message_id: 1,
        }
    }

    /// A `reminders` event as `Data::apply` and `events::react` take it.
    fn on_event(st: &mut State, ev: RemindersEvent) {
        let at = crate::app::data_events::Moment { now: 0, shown: &Narrow::All };
        let event = Event { id: 1, kind: EventKind::Reminders(ev) };
        assert!(matches!(st.data.apply(event, &at), crate::app::data_events::Applied::Data(_)));
        clamp(st);
    }

    fn ids(st: &State) -> Vec<i64> {
        st.data.lists.reminders().unwrap_or_default().iter().map(|r| r.reminder_id).collect()
    }

    #[test]
    fn events_keep_the_list_by_time_and_the_selection_on_a_row() {
        let mut st = State::default();
        // No list yet: nothing to keep (it is asked for when opened).
        on_event(&mut st, RemindersEvent::Add(vec![reminder(1, 50)]));
        assert!(st.data.lists.reminders().is_none());
        on_list(&mut st, vec![reminder(2, 300), reminder(1, 100)]);
        assert_eq!(ids(&st), [1, 2]);
        on_event(&mut st, RemindersEvent::Add(vec![reminder(3, 200), reminder(4, 100)]));
        assert_eq!(ids(&st), [1, 4, 3, 2], "by time, then by ID");
        // Moved (added again with another time): once, in its new place.
        on_event(&mut st, RemindersEvent::Add(vec![reminder(1, 400)]));
        assert_eq!(ids(&st), [4, 3, 2, 1]);
        st.ui.popup = Some(Popup::Reminders { selected: 3 });
        on_event(&mut st, RemindersEvent::Remove(1));
        assert_eq!(ids(&st), [4, 3, 2]);
        assert_eq!(st.ui.popup, Some(Popup::Reminders { selected: 2 }), "still on a row");
        assert_eq!(selected(&st).map(|r| r.reminder_id), Some(2));
    }
}
