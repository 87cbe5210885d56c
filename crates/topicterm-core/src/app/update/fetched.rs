//! Answers fetched for what the user is doing: a topic's messages counted before deleting it,
//! read receipts, edit history, a message's Markdown to quote or edit, an edit saved.

use super::actions::target_of;
use super::answers;
use super::common::*;
use super::compose::quote_reply;
use super::prelude::*;

/// A topic's messages counted: the question before deleting it says how many.
pub(super) fn on_topic_counted(
    st: &mut State,
    channel: ChannelId,
    topic: String,
    result: Result<(usize, bool), ApiError>,
) -> Vec<Effect> {
    match result {
        Ok((n, all)) => {
            let name = format!("#{} > {topic}", st.data.channels.name(channel));
            let count = match (n, all) {
                (1, true) => "its one message".to_owned(),
                (n, true) => format!("its {n} messages"),
                (n, false) => format!("its {n} newest messages and more"),
            };
            let question = format!("Delete {name} and {count}, for everyone? This cannot be undone.");
            super::palette_args::confirm(st, question, Effect::DeleteTopic { channel, topic, name });
            vec![]
        }
        Err(e) => {
            set_error(st, format!("not deleted: could not count the topic's messages: {}", answers::why(&e)));
            vec![]
        }
    }
}

/// Who has read a message.
pub(super) fn on_read_receipts(
    st: &mut State,
    message_id: MessageId,
    result: Result<Vec<UserId>, ApiError>,
) -> Vec<Effect> {
    if let Some((id, receipts)) = &mut st.ui.read_receipts
        && *id == message_id
    {
        *receipts = Some(result.map_err(|e| answers::why(&e)));
    }
    vec![]
}

/// A message's edit history, for its popup.
pub(super) fn on_history(
    st: &mut State,
    message_id: MessageId,
    result: Result<Vec<HistorySnapshot>, ApiError>,
) -> Vec<Effect> {
    match (&mut st.ui.popup, result) {
        (Some(Popup::EditHistory { message_id: m, snapshots, .. }), Ok(s)) if *m == message_id => {
            *snapshots = Some(s);
        }
        (_, Err(e)) => {
            st.ui.popup = None;
            let again = answers::Again { key: Some((Context::Messages, Action::EditHistory)), command: None };
            let hint = answers::retry_hint(st, &e, &again);
            set_error(st, format!("edit history: {}{hint}", answers::why(&e)));
        }
        _ => {}
    }
    vec![]
}

/// A message's Markdown: into the compose box to quote or edit.
pub(super) fn on_raw(
    st: &mut State,
    message_id: MessageId,
    edit: bool,
    result: Result<String, ApiError>,
) -> Vec<Effect> {
    match result {
        Ok(raw) => {
            let Some(m) = st.data.messages.get(&message_id) else { return vec![] };
            let target = target_of(st, m);
            let text = if edit { raw } else { quote_reply(st, m, &raw) };
            // Others see the edit being typed where the user lets them see typing there.
            let tells = super::typing::tells(st, &target);
            open_compose(st, target, &text, edit.then_some(message_id));
            if edit && tells {
                return vec![Effect::EditTyping { message_id, start: true }];
            }
            vec![]
        }
        Err(e) => {
            set_error(st, format!("could not fetch the message's text: {}", answers::why(&e)));
            vec![]
        }
    }
}

/// An edit was saved: the compose box closes and its draft goes.
pub(super) fn on_edited(st: &mut State) -> Vec<Effect> {
    let fx: Vec<Effect> = st.ui.compose.take().map(|c| drop_draft(st, c.draft_key())).into_iter().collect();
    set_status(st, "saved");
    fx
}
