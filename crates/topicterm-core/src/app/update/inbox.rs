//! The inbox (`:inbox`, `B`), the web app's default view: unread conversations grouped by
//! channel — a heading with the channel's unread total, then its topics, newest first — then the
//! direct-message conversations. Muted channels and topics are left out (a followed or unmuted
//! topic of a muted channel stays, as in the web app). Built from the unread index, never from
//! the messages, and rebuilt when the index (or a mute) changes while it is open.

use super::common::list_move;
use super::prelude::*;
use std::collections::BTreeSet;

/// `:inbox`: the view, built at once from what the client holds.
pub(super) fn open(st: &mut State) -> Vec<Effect> {
    let collapsed = BTreeSet::new();
    let rows = build(&st.data, &collapsed);
    let revision = st.data.unread.revision();
    st.ui.popup = Some(Popup::Inbox(InboxView { rows, selected: 0, collapsed, revision }));
    vec![]
}

/// A conversation with unread messages: its newest unread message, its key in the index, and
/// how many.
type Unread<'a, K> = (MessageId, &'a K, usize);

/// Rows from the unread index (cost: the conversations with unread messages).
pub fn build(d: &Data, collapsed: &BTreeSet<InboxGroup>) -> Vec<InboxRow> {
    // Channels as the web app's inbox orders them: pinned first, muted last, then by name.
    let mut channels: Vec<(&ChannelInfo, Vec<Unread<String>>)> = Vec::new();
    for (c, topics) in d.unread.channels() {
        let Some(info) = d.channels.get(c) else { continue };
        let mut list: Vec<Unread<String>> = topics
            .iter()
            .filter(|t| !d.topic_muted(c, t))
            .filter_map(|t| {
                let ids = d.unread.in_conv(&Conv::Topic(c, t.clone()))?;
                Some((*ids.last()?, t, ids.len()))
            })
            .collect();
        if list.is_empty() {
            continue;
        }
        list.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        channels.push((info, list));
    }
    channels.sort_by_cached_key(|(c, _)| (!c.pinned, c.muted, c.name.to_lowercase(), c.id));
    let mut rows = Vec::new();
    for (info, topics) in channels {
        let group = InboxGroup::Channel(info.id);
        let unread = topics.iter().map(|t| t.2).sum();
        rows.push(InboxRow::Group { group, unread });
        if collapsed.contains(&group) {
            continue;
        }
        for (newest, lower, unread) in topics {
            // Named as its newest unread message names it (the index keeps it lowercased).
            let topic = d.messages.get(&newest).map_or_else(|| lower.clone(), |m| m.topic().to_owned());
            rows.push(InboxRow::Topic { channel: info.id, topic, unread });
        }
    }
    // Direct messages, newest first; conversations with muted users only are left out.
    let mut dms: Vec<Unread<Vec<UserId>>> = d
        .unread
        .conversations()
        .filter_map(|(conv, ids)| match conv {
            Conv::Dm(users) if users.is_empty() || !users.iter().all(|u| d.users.is_muted(*u)) => {
                Some((*ids.last()?, users, ids.len()))
            }
            _ => None,
        })
        .collect();
    if !dms.is_empty() {
        dms.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        let unread = dms.iter().map(|t| t.2).sum();
        rows.push(InboxRow::Group { group: InboxGroup::Dms, unread });
        if !collapsed.contains(&InboxGroup::Dms) {
            rows.extend(
                dms.into_iter().map(|(_, users, unread)| InboxRow::Dm { users: users.clone(), unread }),
            );
        }
    }
    rows
}

/// Rebuild the open inbox, the selection staying on the row it was on (or, when that row went,
/// at the same place: on the row that took its place).
pub(super) fn rebuild(st: &mut State) {
    let Some(Popup::Inbox(view)) = &st.ui.popup else { return };
    let rows = build(&st.data, &view.collapsed);
    let revision = st.data.unread.revision();
    let Some(Popup::Inbox(view)) = &mut st.ui.popup else { return };
    let chosen = view.rows.get(view.selected).cloned();
    view.rows = rows;
    view.revision = revision;
    if let Some(c) = chosen
        && let Some(i) = view.rows.iter().position(|r| r.same_place(&c))
    {
        view.selected = i;
    }
    view.selected = view.selected.min(view.rows.len().saturating_sub(1));
}

/// After every message: the open inbox follows the unread index.
pub(super) fn follow(st: &mut State) {
    if let Some(Popup::Inbox(view)) = &st.ui.popup
        && view.revision != st.data.unread.revision()
    {
        rebuild(st);
    }
}

/// Collapse (`Some(true)`), expand (`Some(false)`) or toggle (`None`) the selected row's group;
/// the selection goes to its heading.
fn fold(st: &mut State, collapse: Option<bool>) {
    let Some(Popup::Inbox(view)) = &mut st.ui.popup else { return };
    let Some(group) = view.rows.get(view.selected).map(InboxRow::group) else { return };
    let collapse = collapse.unwrap_or(!view.collapsed.contains(&group));
    if collapse {
        view.collapsed.insert(group);
    } else {
        view.collapsed.remove(&group);
    }
    if let Some(i) =
        view.rows.iter().position(|r| matches!(r, InboxRow::Group { group: g, .. } if *g == group))
    {
        view.selected = i;
    }
    rebuild(st);
}

/// Keys of the inbox: move, enter opens, the fold keys (keymap's inbox context), esc closes.
pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    if !matches!(st.ui.popup, Some(Popup::Inbox(_))) {
        return None;
    }
    let keymap = &st.settings.keymap;
    let (own, again) = (keymap.lookup(Context::Inbox, &key), keymap.lookup(Context::Global, &key));
    match own {
        Some(Action::InboxToggle) => return Some(fold_and(st, None)),
        Some(Action::InboxCollapse) => return Some(fold_and(st, Some(true))),
        Some(Action::InboxExpand) => return Some(fold_and(st, Some(false))),
        _ => {}
    }
    // The key that opens it closes it too.
    let again = again == Some(Action::Inbox);
    let Some(Popup::Inbox(view)) = &mut st.ui.popup else { return None };
    let last = view.rows.len().saturating_sub(1);
    let selected = &mut view.selected;
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
        _ if again => st.ui.popup = None,
        code if list_move(selected, last, code) => {}
        KeyCode::Enter => {
            let Some(row) = view.rows.get(*selected) else { return Some(vec![]) };
            let narrow = match row {
                InboxRow::Group { group: InboxGroup::Channel(c), .. } => Narrow::Channel(*c),
                InboxRow::Group { group: InboxGroup::Dms, .. } => Narrow::AllDms,
                InboxRow::Topic { channel, topic, .. } => Narrow::Topic(*channel, topic.clone()),
                InboxRow::Dm { users, .. } => Narrow::Dm(users.clone()),
            };
            st.ui.popup = None;
            return Some(super::navigation::open_narrow(st, narrow));
        }
        _ => {}
    }
    Some(vec![])
}

fn fold_and(st: &mut State, collapse: Option<bool>) -> Vec<Effect> {
    fold(st, collapse);
    vec![]
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ME, msg, registered};
    use super::*;
    use serde_json::json;

    fn view(st: &State) -> &InboxView {
        match &st.ui.popup {
            Some(Popup::Inbox(v)) => v,
            other => panic!("no inbox: {other:?}"),
        }
    }

    fn event(id: i64, value: serde_json::Value) -> Msg {
        let mut v = value;
        v["id"] = json!(id);
        Msg::Events(vec![Event::decode(v)])
    }

    #[test]
    fn it_is_built_from_the_unread_index_grouped_and_without_muted_topics() {
        let (mut st, _) = registered();
        super::super::update(&mut st, Msg::Key(KeyEvent::new(KeyCode::Char('B'), KeyModifiers::NONE)));
        let rows = &view(&st).rows;
        // eng: plans (2; "noise" is muted); random is muted, only its unmuted "lunch" stays; DMs.
        assert_eq!(
            rows,
            &vec![
                InboxRow::Group { group: InboxGroup::Channel(1), unread: 2 },
                InboxRow::Topic { channel: 1, topic: "plans".into(), unread: 2 },
                InboxRow::Group { group: InboxGroup::Channel(2), unread: 1 },
                InboxRow::Topic { channel: 2, topic: "lunch".into(), unread: 1 },
                InboxRow::Group { group: InboxGroup::Dms, unread: 1 },
                InboxRow::Dm { users: vec![11], unread: 1 },
            ]
        );
        let _ = ME;
    }

    #[test]
    fn it_follows_new_messages_reads_and_mutes_and_the_selection_stays_on_its_row() {
        let (mut st, _) = registered();
        open(&mut st);
        // On the DM row.
        let Some(Popup::Inbox(v)) = &mut st.ui.popup else { panic!() };
        v.selected = 5;
        // A new topic in eng comes first in its group: the selection stays on the DM.
        let m = json!({"type": "message", "message": msg(50, 1, "Fresh", &[]), "flags": []});
        super::super::update(&mut st, event(1, m));
        let v = view(&st);
        assert_eq!(v.rows[1], InboxRow::Topic { channel: 1, topic: "Fresh".into(), unread: 1 });
        assert!(matches!(v.rows[v.selected], InboxRow::Dm { .. }), "{:?}", v.rows);
        // Read elsewhere: the DM goes, the selection takes the row in its place (the last).
        let read = json!({"type": "update_message_flags", "op": "add", "flag": "read", "messages": [4], "all": false});
        super::super::update(&mut st, event(2, read));
        let v = view(&st);
        assert!(
            !v.rows
                .iter()
                .any(|r| matches!(r, InboxRow::Dm { .. } | InboxRow::Group { group: InboxGroup::Dms, .. }))
        );
        assert_eq!(v.selected, v.rows.len() - 1);
        // Muting a topic (an event) takes it out at once.
        let mute = json!({"type": "user_topic", "stream_id": 1, "topic_name": "plans", "last_updated": 0, "visibility_policy": 1});
        super::super::update(&mut st, event(3, mute));
        assert!(
            !view(&st).rows.iter().any(|r| matches!(r, InboxRow::Topic { topic, .. } if topic == "plans"))
        );
    }

    #[test]
    fn space_folds_a_channel_and_enter_opens_the_conversation() {
        let (mut st, _) = registered();
        open(&mut st);
        let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
        super::super::update(&mut st, key(KeyCode::Char('j')));
        super::super::update(&mut st, key(KeyCode::Char(' ')));
        let v = view(&st);
        assert_eq!(v.selected, 0, "on the heading of the folded channel");
        assert_eq!(v.rows.len(), 5, "its topic hidden");
        super::super::update(&mut st, key(KeyCode::Right));
        assert_eq!(view(&st).rows.len(), 6);
        super::super::update(&mut st, key(KeyCode::Char('j')));
        let fx = super::super::update(&mut st, key(KeyCode::Enter));
        assert!(st.ui.popup.is_none());
        assert_eq!(st.ui.narrow, Narrow::Topic(1, "plans".into()));
        assert!(fx.iter().any(|e| matches!(e, Effect::FetchMessages { .. })), "{fx:?}");
    }
}
