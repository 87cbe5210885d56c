//! Optimistic sending: the outbox.
//!
//! A sent message is shown at once as pending and kept on disk until the server has it. Sends go
//! out in the order written, one at a time, and wait while the connection is down. A network
//! failure retries with backoff; when the request may have reached the server (a timeout, a broken
//! connection, a 5xx), the server is asked first whether it has the message, so a retry never
//! posts it twice. The server's copy is recognised by `local_message_id` on its event, or by the
//! ID the send returned, whichever comes first; the pending copy then disappears, so the message is
//! never shown twice. A refused send stays, marked, until retried or taken back into the compose box.

use super::common::*;
use super::prelude::*;

/// Where an outgoing message waits on disk (in the drafts directory).
pub(super) fn disk_key(local_id: &str) -> String {
    format!("outbox-{local_id}")
}

#[derive(serde::Serialize, serde::Deserialize)]
struct OnDisk {
    /// The compose draft key of its conversation.
    draft: String,
    content: String,
    /// Where it goes, and the newest message ID known when it was written: with both, a run
    /// after a crash looks for it on the server and sends it only if it is not there. Files
    /// written before these fields existed have neither: their text goes back to the draft.
    #[serde(default)]
    target: Option<Target>,
    #[serde(default)]
    after_id: Option<MessageId>,
    #[serde(default)]
    created: i64,
    /// The channel's name when it was written (`Outgoing::channel_name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    channel_name: Option<String>,
}

/// Queue the compose box's text; the box closes at once.
pub(super) fn enqueue(st: &mut State, target: Target, content: String) -> Vec<Effect> {
    let draft = target.key();
    let channel_name = match &target {
        Target::Channel { id, .. } => st.data.channels.get(*id).map(|c| c.name.clone()),
        Target::Dm(_) => None,
    };
    let o = st.outbox.enqueue(st.now, target, channel_name, content, st.data.newest_id());
    let on_disk = OnDisk {
        draft: draft.clone(),
        content: o.content.clone(),
        target: Some(o.target.clone()),
        after_id: Some(o.after_id),
        created: o.created,
        channel_name: o.channel_name.clone(),
    };
    let (key, target) = (disk_key(&o.local_id), o.target.clone());
    let stored = serde_json::to_string(&on_disk).expect("strings and numbers serialize");
    let mut fx = vec![drop_draft(st, draft), Effect::SaveDraft { key, text: stored }];
    // Show the bottom of the conversation, where the pending copy is.
    if narrow_holds(&st.ui.narrow, &target)
        && let Some(v) = st.data.views.get(&st.ui.narrow)
        && v.found_newest()
    {
        st.ui.selected = v.ids().last().copied().or(st.ui.selected);
    }
    fx.extend(pump(st));
    fx
}

/// Start the next send if none is in flight and the connection is up.
pub(super) fn pump(st: &mut State) -> Vec<Effect> {
    if st.ui.conn.is_offline() || st.data.queue_id().is_none() {
        return vec![];
    }
    let Some(o) = st.outbox.next_to_send(st.now) else { return vec![] };
    let me = st.data.me;
    // A retry of one that may have reached the server looks for it there first.
    let verify = (matches!(o.state, OutState::Retry { .. }) && o.maybe_sent).then(|| {
        let mut terms = o.target.narrow().terms(me);
        terms.push(NarrowTerm::new("sender", me));
        Verify { terms, after_id: o.after_id, skip: st.outbox.sent_ids().collect() }
    });
    let local_id = o.local_id.clone();
    let queue_id = st.data.queue_id().map(str::to_owned);
    let o = st.outbox.sending(&local_id).expect("just picked");
    let mut message = match &o.target {
        Target::Channel { id, topic } => OutgoingMessage::channel(*id, topic, &o.content),
        Target::Dm(users) => {
            let ids = if users.is_empty() { vec![me] } else { users.clone() };
            OutgoingMessage::direct(ids, &o.content)
        }
    };
    message.local_id = Some(local_id.clone());
    message.queue_id = queue_id;
    // The user wrote it: read for them, whatever the server guesses from the client's name.
    message.read_by_sender = Some(true);
    vec![Effect::Send { local_id, message, verify }]
}

/// The answer to a send.
pub(super) fn on_sent(st: &mut State, local_id: &str, result: Result<MessageId, SendFailure>) -> Vec<Effect> {
    if st.outbox.get(local_id).is_none() {
        // Already seen arriving through the event queue.
        return pump(st);
    }
    let mut fx = Vec::new();
    match result {
        Ok(id) => {
            let target = st.outbox.on_sent(local_id, id).map(|o| o.target.clone()).expect("held");
            // The server has it: nothing to bring back after a crash.
            fx.push(Effect::SaveDraft { key: disk_key(local_id), text: String::new() });
            set_status(st, "sent");
            fx.extend(jump_to_sent(st, &target, id));
            fx.extend(reap(st));
        }
        // The server refuses to search the place (a channel gone): no earlier copy can be found
        // there, nor need be. Sent now without looking; the send's own answer decides, and the
        // search's refusal is never what the user is told.
        Err(f) if f.unsearchable => {
            st.outbox.on_unsearchable(local_id);
        }
        Err(f) if f.retry => {
            let why = super::answers::why(&f.error);
            let now = st.now;
            // Back off up to a minute, with jitter; the connection coming back retries at once.
            let backoff = |attempts| now + Backoff::CLIENT.delay_secs(attempts, pseudo_random(now, attempts));
            let at = st.outbox.on_retry(local_id, f.maybe_sent, why.clone(), backoff).expect("held");
            set_error(st, format!("not sent yet ({why}): trying again in {}s", at - now));
        }
        Err(f) => {
            let why = super::answers::why(&f.error);
            set_error(st, format!("not sent: {why} (ctrl+r retries, ctrl+u takes it back to edit)"));
            st.outbox.on_refused(local_id, why);
        }
    }
    fx.extend(pump(st));
    fx
}

/// Select the sent message once the shown view holds it; reload around it if the loaded window
/// does not reach the newest messages.
fn jump_to_sent(st: &mut State, target: &Target, id: MessageId) -> Vec<Effect> {
    if !narrow_holds(&st.ui.narrow, target) {
        return vec![];
    }
    st.ui.jump_to = Some(id);
    apply_jump(st);
    let narrow = st.ui.narrow.clone();
    if st.ui.jump_to.is_none() || st.data.views.get(&narrow).is_none_or(|v| v.found_newest()) {
        return vec![];
    }
    vec![super::navigation::fetch_around(st, narrow, id)]
}

/// A message arrived through the event queue: if it is one of ours, it is no longer pending.
pub(super) fn on_message_event(st: &mut State, local_id: Option<&str>, id: MessageId) -> Vec<Effect> {
    let Some(o) = st.outbox.on_message(local_id, id) else { return vec![] };
    let mut fx = vec![Effect::SaveDraft { key: disk_key(&o.local_id), text: String::new() }];
    // Unless the send's answer already did, say so and show it.
    if !matches!(o.state, OutState::Sent(_)) {
        set_status(st, "sent");
        fx.extend(jump_to_sent(st, &o.target, id));
    }
    // The send's own answer may still be on its way; the next one need not wait for it.
    if o.state == OutState::Sending {
        fx.extend(pump(st));
    }
    fx
}

/// Drop pending copies whose message the store now holds (however it arrived: event or fetch).
pub(super) fn reap(st: &mut State) -> Vec<Effect> {
    let messages = &st.data.messages;
    let gone = st.outbox.reap(|id| messages.contains_key(&id));
    gone.iter().map(|l| Effect::SaveDraft { key: disk_key(l), text: String::new() }).collect()
}

/// Try every waiting or refused message again now.
pub(super) fn retry_now(st: &mut State) -> Vec<Effect> {
    let n = st.outbox.retry_now(st.now);
    if n == 0 {
        set_status(st, "nothing to retry");
        return vec![];
    }
    if st.ui.conn.is_offline() {
        set_status(st, format!("{n} message(s) will go when the connection is back"));
    } else {
        set_status(st, format!("retrying {n} message(s)"));
    }
    pump(st)
}

/// Take the newest unsent message (refused, waiting out a retry, or queued while offline) back
/// into its compose box, out of the outbox. One in flight is left alone: it may arrive.
pub(super) fn take_back(st: &mut State) -> Vec<Effect> {
    let Some(o) = st.outbox.take_back() else {
        set_status(st, "no unsent message to take back");
        return vec![];
    };
    open_compose(st, o.target.clone(), &o.content, None);
    st.ui.draft_dirty = true;
    set_status(st, "the unsent message is back in the compose box");
    vec![Effect::SaveDraft { key: disk_key(&o.local_id), text: String::new() }]
}

/// Messages left in the outbox by an earlier run (killed while they were on their way) go back
/// into the outbox, ahead of anything written since, oldest first: each is looked for on the
/// server before it is sent, so it arrives exactly once. Files of older versions, which do not
/// say where a message goes, go back into their conversations' drafts for the user to decide.
pub(super) fn restore_all(st: &mut State, unsent: Vec<(String, String)>) -> Vec<Effect> {
    let mut back = Vec::new();
    let mut fx = Vec::new();
    for (key, text) in unsent {
        let Ok(o) = serde_json::from_str::<OnDisk>(&text) else { continue };
        match (o.target, o.after_id, key.strip_prefix("outbox-")) {
            (Some(target), Some(after_id), Some(local_id)) => back.push(Outgoing {
                local_id: local_id.to_owned(),
                target,
                channel_name: o.channel_name,
                content: o.content,
                created: o.created,
                after_id,
                maybe_sent: true,
                attempts: 0,
                state: OutState::Retry { at: st.now, why: "not confirmed sent before the restart".into() },
            }),
            _ => fx.extend(to_draft(st, &key, o.draft, o.content)),
        }
    }
    let n = st.outbox.restore(back);
    if n > 0 {
        set_status(
            st,
            format!("{n} message(s) not confirmed sent last time: sending unless the server has them"),
        );
        fx.extend(pump(st));
    }
    fx
}

/// An old outbox file's message goes back into its conversation's draft.
fn to_draft(st: &mut State, key: &str, draft: String, content: String) -> Vec<Effect> {
    let merged = match st.drafts.get(&draft) {
        Some(d) if !d.trim().is_empty() => format!("{d}\n\n{content}"),
        _ => content,
    };
    st.drafts.insert(draft.clone(), merged.clone());
    set_status(st, "a message not confirmed sent last time is back in its draft: check before sending");
    vec![
        Effect::SaveDraft { key: draft, text: merged },
        Effect::SaveDraft { key: key.into(), text: String::new() },
    ]
}

/// Pending messages of a narrow, for the message pane.
pub fn pending_in<'a>(st: &'a State, narrow: &'a Narrow) -> impl Iterator<Item = &'a Outgoing> + 'a {
    st.outbox.pending_in(narrow)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ME, msg, registered};
    use super::*;
    use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
    #[allow(unused_imports)]
    use crate::app::update;
    #[allow(unused_imports)]
    use crate::app::update::*;
    use serde_json::json;

    fn ctrl(c: char) -> Msg {
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
    }

    /// Type `text` to `plans` in channel 1 and send it; returns the effects.
    fn send(st: &mut State, text: &str) -> Vec<Effect> {
        st.ui.compose = Some(Compose::new(Target::Channel { id: 1, topic: "plans".into() }, text, None));
        update(st, ctrl('d'))
    }

    fn sends(fx: &[Effect]) -> Vec<(String, String, bool)> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Send { local_id, message, verify } => {
                    Some((local_id.clone(), message.content.clone(), verify.is_some()))
                }
                _ => None,
            })
            .collect()
    }

    fn own_message_event(id: MessageId, text: &str, local_id: Option<&str>) -> Msg {
        let mut m = msg(id, 1, "plans", &["read"]);
        m["sender_id"] = json!(ME);
        m["content"] = json!(format!("<p>{text}</p>"));
        let ev = json!({"id": id, "type": "message", "message": m, "flags": ["read"], "local_message_id": local_id});
        Msg::Events(vec![Event::decode(ev)])
    }

    fn failure(why: &str, retry: bool, maybe_sent: bool) -> SendFailure {
        let error =
            ApiError::Server(Box::new(ServerError::new(if retry { 503 } else { 400 }, "BAD_REQUEST", why)));
        SendFailure { error, retry, maybe_sent, unsearchable: false }
    }

    fn refused() -> ApiError {
        ApiError::Transport { message: "connection refused".into(), timeout: false, connect: true }
    }

    #[test]
    fn a_send_shows_at_once_as_pending_and_its_event_replaces_it() {
        let (mut st, _) = registered();
        let fx = send(&mut st, "my words");
        assert!(st.ui.compose.is_none(), "the compose box closes at once");
        let out = sends(&fx);
        assert_eq!(out.len(), 1, "{fx:?}");
        let (local_id, content, verify) = out[0].clone();
        assert_eq!((content.as_str(), verify), ("my words", false));
        let Some(Effect::Send { message, .. }) = fx.iter().find(|e| matches!(e, Effect::Send { .. })) else {
            unreachable!()
        };
        assert_eq!(
            (message.local_id.as_deref(), message.queue_id.as_deref()),
            (Some(&*local_id), Some("q1"))
        );
        // The text moves from the conversation's draft to the outbox file on disk.
        assert!(fx.contains(&Effect::SaveDraft { key: "channel-1-plans".into(), text: String::new() }));
        assert!(fx.iter().any(|e| matches!(e, Effect::SaveDraft { key, text } if *key == disk_key(&local_id) && text.contains("my words"))));
        assert_eq!(pending_in(&st, &Narrow::Topic(1, "plans".into())).count(), 1);
        assert_eq!(pending_in(&st, &Narrow::Channel(2)).count(), 0);

        // The event (matched by local id) arrives before the send's own answer.
        let fx = update(&mut st, own_message_event(500, "my words", Some(&local_id)));
        assert!(st.outbox.is_empty(), "not shown twice");
        assert!(fx.contains(&Effect::SaveDraft { key: disk_key(&local_id), text: String::new() }));
        assert!(st.data.messages.contains_key(&500));
        let fx = update(&mut st, Msg::Sent { local_id, result: Ok(500) });
        assert!(st.outbox.is_empty() && sends(&fx).is_empty());
    }

    #[test]
    fn the_answer_first_then_an_event_without_local_id_also_matches() {
        let (mut st, _) = registered();
        let fx = send(&mut st, "hello");
        let local_id = sends(&fx)[0].0.clone();
        let fx = update(&mut st, Msg::Sent { local_id: local_id.clone(), result: Ok(77) });
        assert_eq!(st.outbox[0].state, OutState::Sent(77), "still shown until the message itself arrives");
        assert!(
            fx.contains(&Effect::SaveDraft { key: disk_key(&local_id), text: String::new() }),
            "off the disk"
        );
        // After a re-register the event comes from another queue: no local id, matched by ID.
        update(&mut st, own_message_event(77, "hello", None));
        assert!(st.outbox.is_empty());
        assert_eq!(st.data.messages.values().filter(|m| m.id == 77).count(), 1);
    }

    #[test]
    fn sends_wait_while_offline_and_go_in_order_when_back() {
        let (mut st, _) = registered();
        update(&mut st, Msg::Offline { error: refused(), retry_in: 4 });
        assert!(sends(&send(&mut st, "first")).is_empty(), "nothing goes out while offline");
        assert!(sends(&send(&mut st, "second")).is_empty());
        assert!(st.ui.status.as_ref().unwrap().text.contains("offline"));
        assert_eq!(st.outbox.len(), 2);
        let fx = update(&mut st, Msg::Online);
        let out = sends(&fx);
        assert_eq!(out.len(), 1, "one at a time, to keep the order");
        assert_eq!(out[0].1, "first");
        let fx = update(&mut st, Msg::Sent { local_id: out[0].0.clone(), result: Ok(600) });
        assert_eq!(sends(&fx)[0].1, "second", "the next goes once the first is accepted");
    }

    #[test]
    fn a_network_failure_retries_with_backoff_and_looks_before_resending() {
        let (mut st, _) = registered();
        st.now = 1000;
        let first = sends(&send(&mut st, "one"))[0].0.clone();
        let fx = send(&mut st, "two");
        assert!(sends(&fx).is_empty(), "waits behind the one in flight");
        // The connection broke after the request went out: the server may have it.
        update(&mut st, Msg::Sent { local_id: first.clone(), result: Err(failure("timed out", true, true)) });
        let OutState::Retry { at, .. } = st.outbox[0].state.clone() else { panic!("{:?}", st.outbox) };
        assert!(at > 1000 && at <= 1000 + 3, "first retry within a few seconds: {at}");
        assert!(st.ui.status.as_ref().unwrap().error);
        assert!(
            sends(&update(&mut st, Msg::Tick(at - 1))).is_empty(),
            "not before its time; 'two' waits too"
        );
        let fx = update(&mut st, Msg::Tick(at));
        let Some(Effect::Send { verify: Some(v), local_id, .. }) =
            fx.iter().find(|e| matches!(e, Effect::Send { .. }))
        else {
            panic!("{fx:?}")
        };
        assert_eq!(*local_id, first);
        assert!(v.terms.iter().any(|t| t.operator == "sender" && t.operand == json!(ME)));
        assert!(v.terms.iter().any(|t| t.operator == "topic"));
        // A refused connection cannot have reached the server, but the earlier attempt might have.
        update(&mut st, Msg::Sent { local_id: first.clone(), result: Err(failure("refused", true, false)) });
        assert!(st.outbox[0].maybe_sent, "still looks first");
        assert_eq!(st.outbox[0].attempts, 2);
        let OutState::Retry { at: at2, .. } = st.outbox[0].state.clone() else { panic!() };
        assert!(at2 - st.now >= 4, "backs off: {}", at2 - st.now);
        // ctrl+r skips the wait.
        let fx = update(&mut st, ctrl('r'));
        assert_eq!(sends(&fx).len(), 1);
        let fx = update(&mut st, Msg::Sent { local_id: first, result: Ok(700) });
        assert_eq!(sends(&fx)[0].1, "two");
    }

    /// Issue 40: a message queued for a channel that is gone looked for its earlier attempt,
    /// was refused the search, and looked again, forever. Refused the search, it is sent at once; the
    /// server's refusal of the message is final and said as the send's.
    #[test]
    fn a_send_whose_search_is_refused_is_sent_and_a_refusal_then_is_final() {
        let (mut st, _) = registered();
        st.now = 1000;
        let first = sends(&send(&mut st, "to a channel that goes"))[0].0.clone();
        update(&mut st, Msg::Sent { local_id: first.clone(), result: Err(failure("timed out", true, true)) });
        let fx = update(&mut st, ctrl('r'));
        assert!(matches!(
            fx.iter().find(|e| matches!(e, Effect::Send { .. })),
            Some(Effect::Send { verify: Some(_), .. })
        ));
        let mut refused_search = failure("Invalid narrow operator: unknown channel", true, false);
        refused_search.unsearchable = true;
        let fx = update(&mut st, Msg::Sent { local_id: first.clone(), result: Err(refused_search) });
        assert!(
            matches!(
                fx.iter().find(|e| matches!(e, Effect::Send { .. })),
                Some(Effect::Send { verify: None, .. })
            ),
            "sent at once, without looking: {fx:?}"
        );
        let said = st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
        assert!(!said.contains("narrow operator"), "the search's refusal is not said: {said}");
        update(
            &mut st,
            Msg::Sent { local_id: first, result: Err(failure("Invalid channel ID", false, false)) },
        );
        assert!(matches!(st.outbox[0].state, OutState::Failed(_)), "final: {:?}", st.outbox[0].state);
        let said = st.ui.status.as_ref().unwrap().text.clone();
        assert!(
            said.starts_with("not sent: Invalid channel ID"),
            "the send's refusal, not the search's: {said}"
        );
        assert!(
            update(&mut st, Msg::Tick(5000)).iter().all(|e| !matches!(e, Effect::Send { .. })),
            "no retry"
        );
    }

    #[test]
    fn a_refused_send_stays_marked_and_can_be_retried_or_taken_back() {
        let (mut st, _) = registered();
        let id = sends(&send(&mut st, "not allowed"))[0].0.clone();
        update(
            &mut st,
            Msg::Sent {
                local_id: id.clone(),
                result: Err(failure("You do not have permission", false, false)),
            },
        );
        assert!(matches!(&st.outbox[0].state, OutState::Failed(why) if why.contains("permission")));
        assert!(st.ui.status.as_ref().unwrap().text.contains("ctrl+r"));
        // Later sends are not held back by a refused one.
        assert_eq!(sends(&send(&mut st, "fine")).len(), 1);
        let (mut st2, _) = registered();
        let id2 = sends(&send(&mut st2, "again")).remove(0).0;
        update(&mut st2, Msg::Sent { local_id: id2, result: Err(failure("no", false, false)) });
        let fx = update(&mut st2, ctrl('r'));
        assert_eq!(sends(&fx).len(), 1, "retry sends it again");
        // Taken back: the compose box opens with the text and the outbox file goes.
        let fx = update(&mut st, ctrl('u'));
        assert_eq!(st.ui.compose.as_ref().map(Compose::text).as_deref(), Some("not allowed"));
        assert!(fx.contains(&Effect::SaveDraft { key: disk_key(&id), text: String::new() }));
        assert_eq!(st.outbox.len(), 1, "only 'fine' is left");
    }

    #[test]
    fn a_fetched_page_that_holds_the_sent_message_ends_the_pending_copy() {
        let (mut st, _) = registered();
        let id = sends(&send(&mut st, "x"))[0].0.clone();
        update(&mut st, Msg::Sent { local_id: id, result: Ok(42) });
        let mut m = msg(42, 1, "plans", &["read"]);
        m["sender_id"] = json!(ME);
        let resp: MessagesResponse =
            serde_json::from_value(json!({"messages": [m], "found_newest": true})).unwrap();
        update(
            &mut st,
            Msg::Messages {
                narrow: Narrow::Topic(1, "plans".into()),
                resp: Box::new(resp),
                older: false,
                epoch: 0,
            },
        );
        assert!(st.outbox.is_empty());
    }

    #[test]
    fn retry_and_take_back_say_when_there_is_nothing_to_do() {
        let (mut st, _) = registered();
        assert!(update(&mut st, ctrl('r')).is_empty());
        assert_eq!(st.ui.status.as_ref().map(|s| s.text.as_str()), Some("nothing to retry"));
        assert!(update(&mut st, ctrl('u')).is_empty());
        assert_eq!(st.ui.status.as_ref().map(|s| s.text.as_str()), Some("no unsent message to take back"));
    }

    #[test]
    fn messages_left_unsent_by_an_old_version_come_back_as_drafts() {
        let (mut st, _) = registered();
        let stored = json!({"draft": "channel-1-plans", "content": "lost?"}).to_string();
        let mut found = std::collections::HashMap::new();
        found.insert("channel-1-plans".to_owned(), "half typed".to_owned());
        found.insert(disk_key("9.1"), stored);
        found.insert(disk_key("9.2"), "not json".to_owned());
        let fx = update(&mut st, Msg::DraftsLoaded(found));
        assert_eq!(st.drafts.get("channel-1-plans").unwrap(), "half typed\n\nlost?");
        assert!(fx.contains(&Effect::SaveDraft { key: disk_key("9.1"), text: String::new() }));
        assert!(st.outbox.is_empty(), "not sent again on its own: the user decides");
    }

    /// A run killed while a message was on its way: the next run looks for it on the server
    /// (it may have arrived) before sending it, ahead of what was written since.
    #[test]
    fn messages_left_unsent_by_a_crash_are_looked_for_then_sent_first() {
        let (mut st, _) = registered();
        // Written in this run before the old files were read (offline: it waits).
        st.ui.conn.went_offline(Offline {
            why: "down".into(),
            retry_at: 0,
            attempts: 1,
            register_due: false,
        });
        send(&mut st, "new one");
        st.ui.conn.back_online();
        let target = Target::Channel { id: 1, topic: "Plans".into() };
        let old = |content: &str, created: i64| {
            json!({"draft": "channel-1-plans", "content": content, "target": target, "after_id": 7, "created": created})
                .to_string()
        };
        let mut found = std::collections::HashMap::new();
        found.insert(disk_key("20.1"), old("second", 20));
        found.insert(disk_key("10.1"), old("first", 10));
        let fx = update(&mut st, Msg::DraftsLoaded(found));
        let contents: Vec<&str> = st.outbox.iter().map(|o| o.content.as_str()).collect();
        assert_eq!(contents, ["first", "second", "new one"]);
        assert!(!st.drafts.contains_key("channel-1-plans"), "not put back into the draft");
        // The oldest goes first, looked for on the server since the newest message it knew.
        let Some(Effect::Send { local_id, message, verify: Some(v) }) =
            fx.iter().find(|e| matches!(e, Effect::Send { .. }))
        else {
            panic!("a verified send: {fx:?}")
        };
        assert_eq!((local_id.as_str(), message.content.as_str(), v.after_id), ("10.1", "first", 7));
        assert!(v.terms.contains(&NarrowTerm::new("sender", ME)), "{v:?}");
        // Found there: nothing is sent again, and the file goes once the message arrives.
        let fx = update(&mut st, Msg::Sent { local_id: "10.1".into(), result: Ok(8) });
        assert!(fx.contains(&Effect::SaveDraft { key: disk_key("10.1"), text: String::new() }), "{fx:?}");
        assert_eq!(sends(&fx).len(), 1, "then the next one: {fx:?}");
        assert_eq!(sends(&fx)[0].1, "second");
    }
}
