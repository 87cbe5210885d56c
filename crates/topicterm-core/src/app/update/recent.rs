//! The recent conversations view (`:recent`, `v`): the latest conversations across channels and
//! direct messages, newest first, from the server's newest messages (as the web app builds
//! its own), kept current by new messages while it is open.

use super::common::*;
use super::prelude::*;
use crate::app::msg::Answer;

/// How many of the newest messages the view is built from.
pub const RECENT_MESSAGES: u64 = 1000;
/// How many senders a row names.
const SENDERS: usize = 4;

/// `:recent`: the view, filled when the server has answered.
pub(super) fn open_recent(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Recent { selected: 0, rows: None });
    vec![Effect::Api(ApiCall::RecentMessages)]
}

/// The conversation a message belongs to, as a view to open.
pub fn conversation(d: &Data, m: &Stored) -> Narrow {
    match m.stream_id() {
        Some(c) if !m.is_dm() => Narrow::Topic(c, m.topic().to_owned()),
        _ => Narrow::Dm(dm_key(&m.dm_user_ids(), d.me)),
    }
}

/// Left out, as in the web app: muted topics and channels, and conversations with muted users
/// only.
fn hidden(d: &Data, n: &Narrow) -> bool {
    match n {
        Narrow::Topic(c, t) => d.topic_muted(*c, t),
        Narrow::Dm(users) => !users.is_empty() && users.iter().all(|u| d.users.is_muted(*u)),
        _ => false,
    }
}

/// Two views of one conversation (topics compare without case).
fn same(a: &Narrow, b: &Narrow) -> bool {
    match (a, b) {
        (Narrow::Topic(c1, t1), Narrow::Topic(c2, t2)) => c1 == c2 && t1.to_lowercase() == t2.to_lowercase(),
        _ => a == b,
    }
}

/// Rows from messages in any order: one per conversation, newest first.
pub fn build(d: &Data, messages: Vec<Message>) -> Vec<RecentConversation> {
    // Read as the store keeps them (they are not held).
    let mut messages: Vec<Stored> = messages.into_iter().map(Stored::from).collect();
    messages.sort_unstable_by_key(|m| std::cmp::Reverse(m.id));
    let mut rows: Vec<RecentConversation> = Vec::new();
    let mut index: HashMap<Narrow, usize> = HashMap::new();
    for m in &messages {
        let narrow = conversation(d, m);
        let key = match &narrow {
            Narrow::Topic(c, t) => Narrow::Topic(*c, t.to_lowercase()),
            n => n.clone(),
        };
        let i = *index.entry(key).or_insert_with(|| {
            rows.push(RecentConversation { narrow, newest: m.id, timestamp: m.timestamp, senders: vec![] });
            rows.len() - 1
        });
        let row = &mut rows[i];
        if row.senders.len() < SENDERS && !row.senders.contains(&m.sender_id()) {
            row.senders.push(m.sender_id());
        }
    }
    rows.retain(|r| !hidden(d, &r.narrow));
    rows
}

/// The server's newest messages arrived (or could not be had).
pub(super) fn on_answer(st: &mut State, result: Result<Answer, String>) -> Vec<Effect> {
    match result {
        Ok(Answer::Messages(messages)) => {
            let built = build(&st.data, messages);
            if let Some(Popup::Recent { rows, selected }) = &mut st.ui.popup {
                *selected = (*selected).min(built.len().saturating_sub(1));
                *rows = Some(built);
            }
        }
        Ok(_) => {}
        Err(e) => {
            if matches!(st.ui.popup, Some(Popup::Recent { .. })) {
                st.ui.popup = None;
            }
            set_error(st, format!("recent conversations: {e}"));
        }
    }
    vec![]
}

/// A new message while the view is open: its conversation goes to the top.
pub(super) fn on_message(st: &mut State, m: &Stored) {
    let narrow = conversation(&st.data, m);
    if hidden(&st.data, &narrow) {
        return;
    }
    let Some(Popup::Recent { rows: Some(rows), selected }) = &mut st.ui.popup else { return };
    let chosen = rows.get(*selected).map(|r| r.narrow.clone());
    let mut row = match rows.iter().position(|r| same(&r.narrow, &narrow)) {
        Some(i) => rows.remove(i),
        None => RecentConversation { narrow, newest: m.id, timestamp: m.timestamp, senders: vec![] },
    };
    row.newest = row.newest.max(m.id);
    row.timestamp = row.timestamp.max(m.timestamp);
    row.senders.retain(|u| *u != m.sender_id());
    row.senders.insert(0, m.sender_id());
    row.senders.truncate(SENDERS);
    rows.insert(0, row);
    // The selection stays on the conversation it was on.
    if let Some(c) = chosen {
        *selected = rows.iter().position(|r| r.narrow == c).unwrap_or(0);
    }
}

/// Keys of the view: move, enter opens, esc closes.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let Some(Popup::Recent { rows, selected }) = &mut st.ui.popup else { return None };
    let last = rows.as_ref().map_or(0, |r| r.len().saturating_sub(1));
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('v') => st.ui.popup = None,
        code if list_move(selected, last, code) => {}
        KeyCode::Enter => {
            let Some(row) = rows.as_ref().and_then(|r| r.get(*selected)) else { return Some(vec![]) };
            let narrow = row.narrow.clone();
            st.ui.popup = None;
            return Some(super::navigation::open_narrow(st, narrow));
        }
        _ => {}
    }
    Some(vec![])
}
