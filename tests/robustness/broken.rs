//! Broken answers (part 3 of `robustness.rs`): not JSON, truncated, cut short, known fields
//! of the wrong types — each refused with a message, the client left working.

use super::*;

// -------------------------------------------------------------------------------------------
// 3. Broken answers.
// -------------------------------------------------------------------------------------------

/// A change made to a JSON answer.
type Mangle = fn(&mut Value);

/// The first GET /events answer carrying a message becomes `reply(real answer)`.
pub(crate) fn on_message_batch(reply: impl Fn(&Exchange) -> Reply + Send + 'static) -> Rule {
    Box::new(move |ex: &Exchange| ex.has_message_event().then(|| reply(ex)))
}

/// An answer to GET /events that cannot be decoded: the client shows that it is offline and
/// why, keeps running, and when the server answers properly again gets the same events (none
/// is lost: the queue was not acknowledged) and says it is back.
async fn undecodable_events_answer(rule: Rule, why: &str) {
    let mut rig = Rig::start(ServerOptions::default(), vec![]).await;
    rig.proxy.arm(rule);
    let text = "sent while the answers were broken";
    let id = rig.post("alice", "broken", text).await;
    rig.until("the client to notice the broken answer", |st| st.ui.conn.is_offline()).await;
    let s = rig.draw(200, 24).text();
    assert!(s.contains(&format!("offline: {why} — retrying in")), "the banner says why, in words:\n{s}");
    assert!(!s.contains("http://") && !s.contains("/events"), "no URL or request detail:\n{s}");
    assert_eq!(rig.proxy.rewritten(), 1);
    assert!(!rig.st.data.messages.contains_key(&id));
    rig.until("the client to recover", |st| !st.ui.conn.is_offline() && st.data.messages.contains_key(&id))
        .await;
    let s = rig.draw(200, 24).text();
    assert!(s.contains("back online"), "{s}");
    rig.open_topic("broken").await;
    let s = rig.draw(100, 24).text();
    assert_eq!(s.matches(text).count(), 1, "delivered once:\n{s}");
    rig.control().await;
}

#[tokio::test]
async fn an_events_answer_that_is_not_json_puts_the_client_offline_until_it_recovers() {
    let _w = Watchdog::new("an_events_answer_that_is_not_json_puts_the_client_offline_until_it_recovers");
    let rule = on_message_batch(|_| Reply::Body(200, b"<html><body>502 Bad Gateway</body></html>".to_vec()));
    undecodable_events_answer(rule, "garbled answer from the server").await;
}

#[tokio::test]
async fn an_events_answer_whose_events_are_not_a_list_puts_the_client_offline_until_it_recovers() {
    let _w = Watchdog::new("an_events_answer_whose_events_are_not_a_list");
    let rule = on_message_batch(|ex| {
        let mut v = ex.json().expect("JSON");
        let events = v["events"].take();
        v["events"] = json!({"0": events[0]});
        Reply::Body(200, v.to_string().into_bytes())
    });
    undecodable_events_answer(rule, "garbled answer from the server").await;
}

#[tokio::test]
async fn a_truncated_events_answer_puts_the_client_offline_until_it_recovers() {
    let _w = Watchdog::new("a_truncated_events_answer_puts_the_client_offline_until_it_recovers");
    let rule = on_message_batch(|ex| Reply::Body(200, ex.body[..ex.body.len() / 2].to_vec()));
    undecodable_events_answer(rule, "garbled answer from the server").await;
}

#[tokio::test]
async fn an_events_answer_cut_mid_body_puts_the_client_offline_until_it_recovers() {
    let _w = Watchdog::new("an_events_answer_cut_mid_body_puts_the_client_offline_until_it_recovers");
    let rule = on_message_batch(|ex| Reply::CutAfter(ex.body.clone(), ex.body.len() / 2));
    undecodable_events_answer(rule, "connection lost").await;
}

#[tokio::test]
async fn an_events_answer_with_a_server_error_page_puts_the_client_offline_until_it_recovers() {
    let _w = Watchdog::new("an_events_answer_with_a_server_error_page");
    let rule = on_message_batch(|_| Reply::Body(502, b"Bad Gateway".to_vec()));
    undecodable_events_answer(rule, "server unavailable").await;
}

#[tokio::test]
async fn wrong_types_in_events_lose_only_those_events_not_the_batch() {
    let _w = Watchdog::new("wrong_types_in_events_lose_only_those_events_not_the_batch");
    let mut rig = Rig::start(ServerOptions::default(), vec![]).await;
    let general = rig.channel_id("general");
    let alice = rig.server.shared.lock().users.values().find(|u| u.short_name == "alice").map(|u| u.id);
    let alice = alice.expect("alice");
    // The real batch (a message event) arrives with hostile events around it, under the same
    // event ID so the queue position stays the server's.
    rig.proxy.arm(on_message_batch(move |ex| {
        let mut v = ex.json().expect("JSON");
        let good = v["events"].as_array().expect("events").iter().find(|e| e["type"] == "message").cloned();
        let good = good.expect("a message event");
        let eid = good["id"].clone();
        let mid = good["message"]["id"].as_i64().expect("message id");
        let with = |path: &[&str], value: Value| {
            let mut e = good.clone();
            let mut at = &mut e;
            for p in &path[..path.len() - 1] {
                at = &mut at[*p];
            }
            at[path[path.len() - 1]] = value;
            e
        };
        let reaction = |user: Value| {
            json!({"id": eid, "type": "reaction", "op": "add", "message_id": mid, "user_id": user,
                   "emoji_name": "tada", "emoji_code": "1f389", "reaction_type": "unicode_emoji"})
        };
        let events = vec![
            with(&["message", "id"], json!(mid.to_string())),
            with(&["message", "reactions"], json!({"tada": 1})),
            with(&["message", "content"], json!(42)),
            with(&["message", "sender_id"], Value::Null),
            with(&["message", "timestamp"], json!("yesterday")),
            with(&["flags"], json!("read")),
            reaction(Value::Null),
            reaction(json!("alice")),
            json!({"id": eid, "type": "update_message", "message_id": "x", "content": 1}),
            json!({"id": eid, "type": "delete_message", "message_ids": {"a": 1}}),
            json!({"id": eid, "type": "subscription", "op": 7}),
            json!({"id": eid, "type": "update_message_flags", "op": "add", "flag": "read", "messages": "all"}),
            json!({"id": eid, "type": "presence", "presence": []}),
            json!({"id": eid, "type": "typing", "op": "start", "sender": "alice"}),
            json!({"id": eid, "type": "realm_user", "op": "update", "person": 5}),
            json!({"id": eid, "type": "a_future_event", "payload": {"deep": [1, 2, 3]}}),
            json!({"id": eid, "type": 17}),
            json!(42),
            json!("an event"),
            Value::Null,
            json!([]),
            good,
            reaction(json!(alice)),
        ];
        v["events"] = Value::Array(events);
        Reply::Body(200, v.to_string().into_bytes())
    }));
    let text = "the good event in a bad batch";
    let id = rig.post("alice", "mixed", text).await;
    rig.until("the good events", |st| st.data.messages.get(&id).is_some_and(|m| !m.reactions().is_empty()))
        .await;
    assert_eq!(rig.proxy.rewritten(), 1);
    assert!(!rig.st.ui.conn.is_offline(), "a batch with bad events is not an outage");
    let m = &rig.st.data.messages[&id];
    assert!(m.content().contains(text));
    assert_eq!(m.reactions().len(), 1, "only the well-formed reaction applied: {:?}", m.reactions());
    assert_eq!(m.reactions()[0].user_id, alice);
    rig.until("the user to be told", |st| st.ui.status.is_some()).await;
    let status = rig.st.ui.status.clone().expect("a status");
    assert!(status.error, "{status:?}");
    assert!(
        status.text.starts_with("ignored ")
            && status.text.ends_with(" unreadable event(s) from the server (message)"),
        "the user is told what was skipped: {status:?}"
    );
    let s = rig.draw(200, 24).text();
    assert!(s.contains("unreadable event(s) from the server (message)"), "{s}");
    rig.open(Narrow::Topic(general, "mixed".into())).await;
    let s = check_frame(&mut rig, 80, 24).text();
    assert_eq!(s.matches(text).count(), 1, "shown once:\n{s}");
    // The event that was the number 42 is no message (the clock may show 42: only whole
    // lines of the feed count).
    let mut feed_lines =
        s.lines().filter_map(|l| l.split_once('│')).map(|(_, m)| m.trim_start_matches(['▌', '▏']).trim());
    assert!(!feed_lines.any(|m| m == "42"), "{s}");

    // The queue goes on from the server's position: the next event arrives normally.
    let next = rig.post("alice", "mixed", "the next one").await;
    rig.until("the next message", |st| st.data.messages.contains_key(&next)).await;
    rig.control().await;
}

/// An event ID the client cannot read is not acknowledged: the server sends the batch again,
/// and applying it twice shows nothing twice.
#[tokio::test]
async fn events_with_unreadable_ids_are_delivered_again_and_applied_once() {
    let _w = Watchdog::new("events_with_unreadable_ids_are_delivered_again_and_applied_once");
    let mut rig = Rig::start(ServerOptions::default(), vec![]).await;
    rig.proxy.arm(on_message_batch(|ex| {
        let mut v = ex.json().expect("JSON");
        for e in v["events"].as_array_mut().expect("events") {
            e["id"] = json!(format!("#{}", e["id"]));
        }
        Reply::Body(200, v.to_string().into_bytes())
    }));
    let text = "delivered twice";
    let id = rig.post("alice", "again", text).await;
    let before = rig.st.data.last_event_id();
    rig.until("the message", |st| st.data.messages.contains_key(&id)).await;
    rig.until("the events acknowledged", |st| st.data.last_event_id() > before).await;
    rig.settle().await;
    assert_eq!(rig.proxy.rewritten(), 1);
    rig.show(id).await;
    let s = check_frame(&mut rig, 80, 24).text();
    assert_eq!(s.matches(text).count(), 1, "shown once:\n{s}");
    rig.control().await;
}

/// A queue that answers only what cannot be read (an event this client cannot parse sits in
/// it) is given up after a few tries: the client registers again and fetches what it missed.
#[tokio::test]
async fn a_queue_that_stays_unreadable_is_replaced_and_nothing_is_lost() {
    let _w = Watchdog::new("a_queue_that_stays_unreadable_is_replaced_and_nothing_is_lost");
    let mut rig = Rig::start(ServerOptions::default(), vec![]).await;
    let text = "poison in the queue";
    rig.proxy.arm_always(Box::new(move |ex: &Exchange| {
        (ex.is("GET", "/events") && String::from_utf8_lossy(&ex.body).contains(text))
            .then(|| Reply::Body(200, br#"{"result": "success", "events": 5}"#.to_vec()))
    }));
    let registers = Arc::new(Mutex::new(0));
    let count = registers.clone();
    rig.proxy.arm_always(Box::new(move |ex: &Exchange| {
        *count.lock().unwrap() += ex.is("POST", "/register") as usize;
        None
    }));
    let id = rig.post("alice", "poison", text).await;
    rig.until("the client to notice", |st| st.ui.conn.is_offline()).await;
    rig.until("a new queue", |st| {
        st.ui.status.as_ref().is_some_and(|s| s.text.contains("cannot read; resynchronising"))
    })
    .await;
    rig.until("the client to recover", |st| !st.ui.conn.is_offline() && st.data.queue_id().is_some()).await;
    rig.settle().await;
    assert_eq!(*registers.lock().unwrap(), 1, "registered again once");
    assert!(rig.proxy.rewritten() >= 3);
    rig.show(id).await;
    let s = check_frame(&mut rig, 80, 24).text();
    assert_eq!(s.matches(text).count(), 1, "fetched after all, once:\n{s}");
    // The new queue works.
    let next = rig.post("alice", "poison", "after the poison").await;
    rig.until("the next message", |st| st.data.messages.contains_key(&next)).await;
    rig.control().await;
}

#[tokio::test]
async fn wrong_types_in_a_messages_answer_are_refused_with_a_message() {
    let _w = Watchdog::new("wrong_types_in_a_messages_answer_are_refused_with_a_message");
    let mut rig = Rig::start(ServerOptions::default(), vec![]).await;
    let random = rig.channel_id("random");
    // A wrong type inside one message costs only that message: see
    // `a_message_field_of_the_wrong_type_costs_only_that_message`. What is refused here is an
    // answer that cannot be read as a page at all.
    let mangles: Vec<(&str, Mangle)> = vec![
        ("messages not a list", |v| v["messages"] = json!("none")),
        ("found_newest as a string", |v| v["found_newest"] = json!("yes")),
        ("a truncated answer", |v| *v = json!(v.to_string()[..40].to_owned())),
    ];
    for (what, mangle) in mangles {
        rig.proxy.arm(Box::new(move |ex: &Exchange| {
            ex.is("GET", "/messages").then(|| {
                let mut v = ex.json().expect("JSON");
                mangle(&mut v);
                // The truncated case sends the prefix itself, not as a JSON string.
                let body = match v.as_str() {
                    Some(prefix) => prefix.as_bytes().to_vec(),
                    None => v.to_string().into_bytes(),
                };
                Reply::Body(200, body)
            })
        }));
        rig.st.data.views.close(&Narrow::Channel(random));
        rig.st.ui.status = None;
        let fx = app::open_narrow(&mut rig.st, Narrow::Channel(random));
        rig.run(fx);
        rig.until(what, |st| st.ui.status.is_some()).await;
        let status = rig.st.ui.status.clone().expect("status");
        assert!(status.error, "{what}: {status:?}");
        assert!(
            status.text.starts_with("messages not loaded: garbled answer from the server (trying again in "),
            "{what}: {status:?}"
        );
        let s = check_frame(&mut rig, 200, 24).text();
        assert!(s.contains("messages not loaded: garbled answer from the server"), "{what}:\n{s}");
    }
    // Asking again works.
    rig.st.data.views.close(&Narrow::Channel(random));
    rig.open(Narrow::Channel(random)).await;
    assert!(rig.st.data.views[&Narrow::Channel(random)].ids().len() > 1);
    rig.control().await;
}

#[tokio::test]
async fn wrong_types_in_the_register_answer_are_refused_with_a_message_and_retried() {
    let _w = Watchdog::new("wrong_types_in_the_register_answer_are_refused_with_a_message_and_retried");
    let mangles: Vec<(&str, Mangle)> = vec![
        ("queue_id as a number", |v| v["queue_id"] = json!(7)),
        ("realm_users as a string", |v| v["realm_users"] = json!("everyone")),
        ("a subscription's ID as a string", |v| v["subscriptions"][0]["stream_id"] = json!("9")),
        ("unread_msgs as a string", |v| v["unread_msgs"] = json!("none")),
    ];
    let rules: Vec<Rule> = mangles
        .iter()
        .map(|&(_, mangle)| -> Rule {
            Box::new(move |ex: &Exchange| {
                ex.is("POST", "/register").then(|| {
                    let mut v = ex.json().expect("JSON");
                    mangle(&mut v);
                    Reply::Body(200, v.to_string().into_bytes())
                })
            })
        })
        .collect();
    let mut rig = Rig::start(ServerOptions::default(), rules).await;
    for (what, _) in &mangles {
        rig.until(what, |st| st.ui.conn.offline().is_some_and(|o| o.register_due)).await;
        let o = rig.st.ui.conn.offline().cloned().expect("offline");
        assert_eq!(o.why, "garbled answer from the server", "{what}: {o:?}");
        let s = rig.draw(200, 24).text();
        assert!(s.contains("offline: garbled answer from the server — retrying in"), "{what}:\n{s}");
        // Time passes until the retry.
        rig.send(Msg::Tick(o.retry_at)).await;
    }
    rig.until("registered", |st| !st.ui.conn.is_offline() && st.data.queue_id().is_some()).await;
    assert_eq!(rig.proxy.rewritten(), mangles.len());
    let s = check_frame(&mut rig, 80, 24).text();
    assert!(s.contains("back online"), "{s}");
    rig.control().await;
}

/// Messages fetched through the API client directly: a page with one bad message is refused
/// as a whole with an error naming the field, and the same client goes on working.
#[tokio::test]
async fn a_message_field_of_the_wrong_type_costs_only_that_message() {
    let _w = Watchdog::new("a_message_field_of_the_wrong_type_costs_only_that_message");
    let rig = Rig::start(ServerOptions::default(), vec![]).await;
    rig.proxy.arm(Box::new(|ex: &Exchange| {
        ex.is("GET", "/messages").then(|| {
            let mut v = ex.json().expect("JSON");
            v["messages"][0]["timestamp"] = json!("yesterday");
            Reply::Body(200, v.to_string().into_bytes())
        })
    }));
    let mut creds = rig.server.credentials("member").expect("member");
    creds.site = rig.proxy.url.clone();
    let c = Client::new(&creds).expect("client");
    let q = GetMessages::around(Anchor::Newest, 5, 0);
    // The page is read; the one message becomes its placeholder (the log names the field).
    let page = c.get_messages(&q).await.expect("the rest of the page is read");
    assert_eq!(page.messages.len(), 5);
    let bad = &page.messages[0];
    assert_eq!(bad.content, format!("<p><em>a message could not be read (ID {})</em></p>", bad.id));
    assert!(page.messages[1..].iter().all(|m| !m.content.contains("could not be read")));
    assert_eq!(c.get_messages(&q).await.expect("the next answer is fine").messages.len(), 5);
    // Other wrong types in one message: the same; a message whose ID cannot be read is left out.
    let mangles: Vec<(Mangle, usize)> = vec![
        (|v| v["messages"][0]["reactions"] = json!({"a": 1}), 5),
        (|v| v["messages"][0]["content"] = json!(12), 5),
        (|v| v["messages"][0]["id"] = json!("12"), 4),
    ];
    for (mangle, count) in mangles {
        rig.proxy.arm(Box::new(move |ex: &Exchange| {
            ex.is("GET", "/messages").then(|| {
                let mut v = ex.json().expect("JSON");
                mangle(&mut v);
                Reply::Body(200, v.to_string().into_bytes())
            })
        }));
        let page = c.get_messages(&q).await.expect("the rest of the page is read");
        assert_eq!(page.messages.len(), count);
    }
}

/// The server takes a message but its answer is lost, and so is its event (the queue is gone
/// before it is delivered). The client cannot know whether the message arrived: before sending
/// it again it looks for it on the server, finds it, and does not post it twice.
#[tokio::test]
async fn a_send_whose_answer_is_lost_is_looked_for_before_it_is_sent_again() {
    let _w = Watchdog::new("a_send_whose_answer_is_lost_is_looked_for_before_it_is_sent_again");
    let mut rig = Rig::start(ServerOptions::default(), vec![]).await;
    rig.open_topic("lost answers").await;
    let text = "did this arrive?";
    // The answer to the send is cut after the server handled it …
    rig.proxy.arm(Box::new(|ex: &Exchange| {
        ex.is("POST", "/messages").then(|| Reply::CutAfter(ex.body.clone(), 3))
    }));
    // … and so is every event batch carrying it, until its queue is gone.
    rig.proxy.arm_always(Box::new(move |ex: &Exchange| {
        (ex.is("GET", "/events") && String::from_utf8_lossy(&ex.body).contains(text))
            .then(|| Reply::CutAfter(ex.body.clone(), 5))
    }));
    rig.apply(Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::NONE)));
    rig.keys("general>lost answers").await;
    rig.key(KeyCode::Enter).await;
    rig.keys(text).await;
    rig.apply(Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)));
    rig.until("the send to fail", |st| st.outbox.iter().any(|o| matches!(o.state, OutState::Retry { .. })))
        .await;
    assert!(rig.st.outbox[0].maybe_sent, "a cut answer may hide a message that arrived");
    // The queue expires (as after a server restart); the client registers again.
    let member = rig.server.credentials("member").unwrap();
    let direct = Client::new(&member).unwrap();
    direct
        .raw(reqwest::Method::POST, "/demo/expire_queues", Params::new(), Duration::from_secs(5))
        .await
        .unwrap();
    rig.until("a new queue", |st| !st.ui.conn.is_offline() && st.data.queue_id().is_some()).await;
    // Time for the retry: it looks first, finds the message and does not send it again.
    let later = rig.st.now + 120;
    rig.send(Msg::Tick(later)).await;
    rig.until("the outbox to empty", |st| st.outbox.is_empty()).await;
    let q = GetMessages::around(Anchor::Newest, 50, 0);
    let copies =
        direct.get_messages(&q).await.unwrap().messages.iter().filter(|m| m.content.contains(text)).count();
    assert_eq!(copies, 1, "posted once");
}
