//! Unit tests of `update`: each message kind on a registered state, no network.

use super::compose::emoji_matches;
use super::*;
use serde_json::json;

pub(super) const ME: i64 = 10;

pub(super) fn msg(id: i64, channel: i64, topic: &str, flags: &[&str]) -> serde_json::Value {
    json!({
        "id": id, "type": "stream", "content": format!("<p>message {id}</p>"), "display_recipient": "eng",
        "sender_id": 11, "sender_full_name": "Alice", "stream_id": channel, "subject": topic,
        "timestamp": 1_700_000_000 + id, "flags": flags,
    })
}

/// A registered state with two channels (2 muted), a followed topic, and unreads.
pub(super) fn registered() -> (State, Vec<Effect>) {
    let mut st = State::default();
    let reg: RegisterResponse = serde_json::from_value(json!({
        "queue_id": "q1", "last_event_id": -1, "zulip_feature_level": 496, "user_id": ME,
        "realm_users": [
            {"user_id": ME, "full_name": "Me", "email": "me@x"},
            {"user_id": 11, "full_name": "Alice", "email": "alice@x"},
        ],
        "subscriptions": [
            {"stream_id": 1, "name": "eng", "color": "#fff", "pin_to_top": true},
            {"stream_id": 2, "name": "random", "color": "#fff", "is_muted": true},
        ],
        "user_topics": [
            {"stream_id": 1, "topic_name": "Noise", "visibility_policy": 1, "last_updated": 0},
            {"stream_id": 2, "topic_name": "lunch", "visibility_policy": 2, "last_updated": 0},
        ],
        "unread_msgs": {"streams": [
            {"stream_id": 1, "topic": "plans", "unread_message_ids": [5, 6]},
            {"stream_id": 1, "topic": "noise", "unread_message_ids": [7]},
            {"stream_id": 2, "topic": "lunch", "unread_message_ids": [8]},
            {"stream_id": 2, "topic": "chatter", "unread_message_ids": [9]},
        ], "pms": [{"sender_id": 11, "unread_message_ids": [4]}], "huddles": [], "mentions": []},
    }))
    .unwrap();
    let fx = register_at_once(&mut st, reg);
    (st, fx)
}

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// `ctrl+f`: follow the selected message's topic (`f` and `F` are link hints there).
fn follow_key() -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char('f'), KeyModifiers::CONTROL))
}

#[test]
fn register_builds_sidebar_unreads_and_fetches_the_feed() {
    let (st, fx) = registered();
    assert_eq!(st.ui.sidebar.rows()[4], SidebarRow::Channel(1), "pinned channel first after the views");
    assert_eq!(st.data.channel_unread(1), 2, "the muted topic does not count");
    assert_eq!(st.data.channel_unread(2), 1, "in a muted channel only the unmuted topic counts");
    assert_eq!(st.data.unread.count(&Conv::Dm(vec![11])), 1);
    assert_eq!(st.data.unread.dm_total(), 1, "the DM total is kept with the index");
    assert!(matches!(&fx[0], Effect::FetchMessages { narrow: Narrow::All, anchor: Anchor::FirstUnread, .. }));
    assert!(matches!(&fx[1], Effect::PollEvents { queue_id, .. } if queue_id == "q1"));
    assert_eq!(fx.len(), 2, "register carries the channels: nothing else is fetched: {fx:?}");
}

#[test]
fn new_messages_join_loaded_views_but_not_muted_ones_in_the_feed() {
    let (mut st, _) = registered();
    let resp: MessagesResponse = serde_json::from_value(json!({
        "messages": [msg(5, 1, "plans", &[]), msg(6, 1, "plans", &[])],
        "found_newest": true, "found_oldest": true,
    }))
    .unwrap();
    update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    assert_eq!(st.ui.selected, Some(5), "starts at the first unread");
    let event = |id: i64, topic: &str| {
        Event::decode(
            json!({"id": id, "type": "message", "message": msg(100 + id, 1, topic, &[]), "flags": []}),
        )
    };
    update(&mut st, Msg::Events(vec![event(1, "plans"), event(2, "noise")]));
    assert_eq!(st.data.views[&Narrow::All].ids(), vec![5, 6, 101], "the muted topic's message stays out");
    // 5 was read when selected; 6 and the new 101 are unread.
    assert_eq!(st.data.topic_unread(1, "plans"), 2);
    assert_eq!(st.data.channel_unread(1), 2);
}

/// The server's word that a topic's policy changed (0 default, 1 muted, 2 unmuted, 3 followed).
fn user_topic(id: i64, channel: i64, topic: &str, policy: i64) -> Msg {
    Msg::Events(vec![Event::decode(json!({
        "id": id, "type": "user_topic", "stream_id": channel, "topic_name": topic,
        "last_updated": 0, "visibility_policy": policy,
    }))])
}

#[test]
fn mute_key_asks_the_server_and_the_topic_changes_when_it_says_so() {
    let (mut st, _) = registered();
    let resp: MessagesResponse =
        serde_json::from_value(json!({"messages": [msg(5, 1, "plans", &[])], "found_newest": true})).unwrap();
    update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    let fx = update(&mut st, key('M'));
    assert_eq!(
        fx,
        vec![Effect::SetPolicy { channel: 1, topic: "plans".into(), policy: VisibilityPolicy::Muted }]
    );
    assert_eq!(st.ui.status.as_ref().unwrap().text, "#eng > plans: muting…");
    assert_eq!(st.data.policy(1, "plans"), VisibilityPolicy::None, "not before the server says so");
    update(&mut st, user_topic(1, 1, "plans", 1));
    assert_eq!(st.data.channel_unread(1), 0, "muted: its unreads no longer count");
    assert!(st.data.views[&Narrow::All].ids().is_empty(), "and its messages leave the feed");
    let fx = update(&mut st, key('M'));
    assert_eq!(
        fx,
        vec![Effect::SetPolicy { channel: 1, topic: "plans".into(), policy: VisibilityPolicy::None }]
    );
    update(&mut st, user_topic(2, 1, "plans", 0));
    let fx = update(&mut st, follow_key());
    assert!(matches!(&fx[0], Effect::SetPolicy { policy: VisibilityPolicy::Followed, .. }));
    update(&mut st, user_topic(3, 1, "Plans", 3));
    assert_eq!(st.data.policy(1, "plans"), VisibilityPolicy::Followed, "topics match case-insensitively");
}

#[test]
fn a_follow_the_server_refused_leaves_no_trace() {
    let (mut st, _) = registered();
    let resp: MessagesResponse =
        serde_json::from_value(json!({"messages": [msg(5, 1, "plans", &[])], "found_newest": true})).unwrap();
    update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    let fx = update(&mut st, follow_key());
    assert!(matches!(&fx[0], Effect::SetPolicy { policy: VisibilityPolicy::Followed, .. }));
    let refused = ApiError::Server(Box::new(ServerError::new(400, "BAD_REQUEST", "Not allowed")));
    let job = crate::app::msg::Job::SetPolicy {
        channel: 1,
        topic: "plans".into(),
        policy: VisibilityPolicy::Followed,
    };
    update(&mut st, Msg::Done { job, result: Err(crate::app::msg::Failure::Api(refused)) });
    assert_eq!(st.data.policy(1, "plans"), VisibilityPolicy::None, "not followed");
    let said = st.ui.status.as_ref().unwrap();
    assert!(said.error && said.text.starts_with("#eng > plans not followed: "), "{said:?}");
}

#[test]
fn a_message_marked_unread_again_counts_as_a_mention_again() {
    let (mut st, _) = registered();
    let resp: MessagesResponse = serde_json::from_value(json!({
        "messages": [msg(50, 1, "plans", &["read", "mentioned"]), msg(51, 1, "plans", &["read"])],
        "found_newest": true, "found_oldest": true,
    }))
    .unwrap();
    update(
        &mut st,
        Msg::Messages { narrow: Narrow::Channel(1), resp: Box::new(resp), older: false, epoch: 0 },
    );
    st.ui.narrow = Narrow::Channel(1);
    st.ui.selected = Some(50);
    assert_eq!(st.data.unread.mentions(), 0);
    update(&mut st, key('!'));
    assert_eq!(st.data.unread.mentions(), 1, "the Mentions count rises at once");
    assert!(st.data.unread.contains(51) && !st.data.unread.is_mention(51));
    // The server's word for the same, and a reading elsewhere, keep it right.
    let flags = |id: i64, op: &str| {
        Msg::Events(vec![Event::decode(json!({
            "id": id, "type": "update_message_flags", "op": op, "flag": "read", "messages": [50],
            "all": false,
        }))])
    };
    update(&mut st, flags(1, "remove"));
    assert_eq!(st.data.unread.mentions(), 1);
    update(&mut st, flags(2, "add"));
    assert_eq!(st.data.unread.mentions(), 0);
    update(&mut st, flags(3, "remove"));
    assert_eq!(st.data.unread.mentions(), 1, "unread again from another device");
}

#[test]
fn read_flags_from_the_server_update_unreads_both_ways() {
    let (mut st, _) = registered();
    let ev = |op: &str| {
        Event::decode(json!({"id": 3, "type": "update_message_flags", "op": op, "operation": op,
            "flag": "read", "messages": [5], "all": false}))
    };
    update(&mut st, Msg::Events(vec![ev("add")]));
    assert_eq!(st.data.topic_unread(1, "plans"), 1);
    let dm_read =
        Event::decode(json!({"id": 4, "type": "update_message_flags", "op": "add", "operation": "add",
        "flag": "read", "messages": [4], "all": false}));
    update(&mut st, Msg::Events(vec![dm_read]));
    assert_eq!(st.data.unread.dm_total(), 0);
    // Marking unread needs the message to know where it lives.
    let resp: MessagesResponse =
        serde_json::from_value(json!({"messages": [msg(5, 1, "plans", &["read"])], "found_newest": true}))
            .unwrap();
    update(
        &mut st,
        Msg::Messages { narrow: Narrow::Channel(1), resp: Box::new(resp), older: false, epoch: 0 },
    );
    update(&mut st, Msg::Events(vec![ev("remove")]));
    assert_eq!(st.data.topic_unread(1, "plans"), 2);
}

#[test]
fn scrolling_to_the_top_pages_older_history() {
    let (mut st, _) = registered();
    let msgs: Vec<_> = (20..30).map(|i| msg(i, 1, "plans", &["read"])).collect();
    let resp: MessagesResponse =
        serde_json::from_value(json!({"messages": msgs, "found_newest": true, "found_oldest": false}))
            .unwrap();
    update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    assert_eq!(st.ui.selected, Some(29), "nothing unread: starts at the newest");
    let fx = update(&mut st, key('k'));
    assert!(fx.is_empty(), "far from the top: {fx:?}");
    let fx = update(&mut st, key('g'));
    assert_eq!(st.ui.selected, Some(20));
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::FetchMessages { anchor: Anchor::Id(20), older: true, after: 0, .. }
        )),
        "{fx:?}"
    );
    let again = update(&mut st, key('k'));
    assert!(!again.iter().any(|e| matches!(e, Effect::FetchMessages { .. })), "one page request at a time");
}

#[test]
fn selecting_an_unread_message_marks_it_read() {
    let (mut st, _) = registered();
    // As with a cache file: the session is kept once the first page is in.
    st.keep_session = true;
    st.ui.conn.registered(true);
    let resp: MessagesResponse = serde_json::from_value(
        json!({"messages": [msg(5, 1, "plans", &[]), msg(6, 1, "plans", &[])], "found_newest": true, "found_oldest": true}),
    )
    .unwrap();
    let fx =
        update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    assert_eq!(fx[0], Effect::MarkRead(vec![5]));
    assert!(
        matches!(&fx[1..], [Effect::SaveCache(s)] if s.messages.len() == 2),
        "the first screen complete, the session is kept: {fx:?}"
    );
    assert!(!st.ui.conn.cache_due(), "kept once a session");
    let fx = update(&mut st, key('j'));
    assert_eq!(fx, vec![Effect::MarkRead(vec![6])]);
    assert_eq!(st.data.topic_unread(1, "plans"), 0);
}

#[test]
fn presence_pings_on_the_interval_and_turns_idle_without_input() {
    let (mut st, _) = registered();
    st.data.realm.timing.ping_interval = 60;
    let t0 = 1_800_000_000;
    update(&mut st, Msg::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE)));
    st.ui.presence.key_pressed(t0);
    assert_eq!(update(&mut st, Msg::Tick(t0)), vec![Effect::Ping { active: true, last_update_id: -1 }]);
    assert_eq!(update(&mut st, Msg::Tick(t0 + 30)), vec![], "not before the interval");
    let resp: PresenceResponse = serde_json::from_value(json!({
        "presence_last_update_id": 42,
        "presences": {"11": {"active_timestamp": t0, "idle_timestamp": t0}},
    }))
    .unwrap();
    update(&mut st, Msg::Presence(Box::new(resp)));
    assert_eq!(st.data.activity(11, t0 + 10), Activity::Active);
    let fx = update(&mut st, Msg::Tick(t0 + IDLE_AFTER + 1));
    assert_eq!(
        fx,
        vec![Effect::Ping { active: false, last_update_id: 42 }],
        "idle after inactivity, newest id"
    );
}

/// Keys go to the organization on screen; the others hear of them and stay active.
#[test]
fn input_in_another_organization_keeps_presence_active() {
    let (mut st, _) = registered();
    st.data.realm.timing.ping_interval = 60;
    let t0 = 1_800_000_000;
    st.ui.presence.key_pressed(t0);
    update(&mut st, Msg::Tick(t0 + IDLE_AFTER - 10));
    update(&mut st, Msg::InputElsewhere);
    assert_eq!(st.ui.presence.last_input(), t0 + IDLE_AFTER - 10, "the time of the other organization's key");
    assert_eq!(
        update(&mut st, Msg::Tick(t0 + IDLE_AFTER + 60)),
        vec![Effect::Ping { active: true, last_update_id: -1 }],
        "still active past the idle time since its own last key"
    );
}

#[test]
fn typing_notices_are_kept_until_they_expire() {
    let (mut st, _) = registered();
    st.now = 1000;
    let ev = Event::decode(json!({"id": 1, "type": "typing", "op": "start", "message_type": "stream",
        "sender": {"user_id": 11, "email": "alice@x"}, "stream_id": 1, "topic": "Plans"}));
    update(&mut st, Msg::Events(vec![ev]));
    assert_eq!(st.ui.presence.typing().len(), 1);
    assert_eq!(st.ui.presence.typing()[0].conversation, Some(Conv::Topic(1, "plans".into())));
    let edit = Event::decode(json!({"id": 2, "type": "typing_edit_message", "op": "start", "sender_id": 11,
        "message_id": 5, "recipient": {"type": "channel", "channel_id": 1, "topic": "plans"}}));
    update(&mut st, Msg::Events(vec![edit]));
    assert_eq!(st.ui.presence.typing().len(), 2);
    update(&mut st, Msg::Tick(1016));
    assert!(st.ui.presence.typing().is_empty(), "expired");
}

#[test]
fn losing_terminal_focus_reports_idle_at_once() {
    let (mut st, _) = registered();
    st.now = 5_000;
    st.ui.presence.key_pressed(4_990);
    assert_eq!(update(&mut st, Msg::Focus(false)), vec![Effect::Ping { active: false, last_update_id: -1 }]);
    st.data.realm.timing.ping_interval = 60;
    assert_eq!(update(&mut st, Msg::Tick(5_061)), vec![Effect::Ping { active: false, last_update_id: -1 }]);
    assert_eq!(update(&mut st, Msg::Focus(true)), vec![Effect::Ping { active: true, last_update_id: -1 }]);
}

#[test]
fn drafts_are_saved_on_the_next_tick_and_restored_on_reopen() {
    let (mut st, _) = registered();
    st.ui.compose = Some(Compose::new(Target::Channel { id: 1, topic: "Plans".into() }, "", None));
    update(&mut st, key('h'));
    update(&mut st, key('i'));
    let fx = update(&mut st, Msg::Tick(1));
    assert!(fx.contains(&Effect::SaveDraft { key: "channel-1-plans".into(), text: "hi".into() }), "{fx:?}");
    assert!(
        !update(&mut st, Msg::Tick(2)).iter().any(|e| matches!(e, Effect::SaveDraft { .. })),
        "only when changed"
    );
    st.ui.compose = None;
    open_compose(&mut st, Target::Channel { id: 1, topic: "plans".into() }, "", None);
    assert_eq!(st.ui.compose.as_ref().map(Compose::text).as_deref(), Some("hi"), "same topic, any case");
}

#[test]
fn a_failed_register_is_retried_with_growing_backoff() {
    let mut st = State { now: 1_000, ..Default::default() };
    update(
        &mut st,
        Msg::RegisterFailed(ApiError::Transport {
            message: "connection refused".into(),
            timeout: false,
            connect: true,
        }),
    );
    let first = st.ui.conn.offline().cloned().expect("offline");
    assert!(first.retry_at > 1_000 && first.retry_at <= 1_000 + 3, "{first:?}");
    assert_eq!(update(&mut st, Msg::Tick(first.retry_at - 1)), vec![], "not before its time");
    assert_eq!(update(&mut st, Msg::Tick(first.retry_at)), vec![Effect::Register]);
    assert_eq!(update(&mut st, Msg::Tick(first.retry_at + 1)), vec![], "one attempt at a time");
    update(
        &mut st,
        Msg::RegisterFailed(ApiError::Transport {
            message: "connection refused".into(),
            timeout: false,
            connect: true,
        }),
    );
    let second = st.ui.conn.offline().cloned().unwrap();
    assert!(second.retry_at - st.now >= 4, "backs off: {second:?}");
    let (mut ok, _) = registered();
    ok.ui.conn.went_offline(second);
    let reg: RegisterResponse = serde_json::from_value(json!({"queue_id": "q2", "user_id": ME})).unwrap();
    register_at_once(&mut ok, reg);
    assert!(!ok.ui.conn.is_offline());
}

#[test]
fn organization_events_update_what_the_ui_relies_on() {
    let (mut st, _) = registered();
    st.data.users.on_group(&UserGroupEvent::Add(
        serde_json::from_value(json!({"id": 5, "name": "backend", "members": [10]})).unwrap(),
    ));
    let evs = vec![
        Event::decode(
            json!({"id": 1, "type": "realm", "op": "update", "property": "moderation_request_channel_id", "value": 9}),
        ),
        Event::decode(
            json!({"id": 2, "type": "realm", "op": "update", "property": "allow_edit_history", "value": false}),
        ),
        Event::decode(
            json!({"id": 3, "type": "user_group", "op": "add_members", "group_id": 5, "user_ids": [11]}),
        ),
        Event::decode(
            json!({"id": 4, "type": "user_group", "op": "remove_members", "group_id": 5, "user_ids": [10]}),
        ),
        Event::decode(
            json!({"id": 5, "type": "realm_user", "op": "add", "person": {"user_id": 12, "full_name": "New Person", "email": "n@x"}}),
        ),
        Event::decode(
            json!({"id": 6, "type": "realm_emoji", "op": "update", "realm_emoji": {"7": {"id": "7", "name": "shipit", "source_url": "/e/7.png", "deactivated": false, "author_id": 11}}}),
        ),
    ];
    update(&mut st, Msg::Events(evs));
    assert_eq!(st.data.realm.moderation.moderation_channel, Some(9));
    assert!(!st.data.realm.policies.allow_edit_history);
    assert_eq!(st.data.users.group(5).unwrap().members, vec![11]);
    assert_eq!(st.data.users[&12].full_name, "New Person");
    // A new custom emoji is offered by the picker at once.
    assert!(emoji_matches(&st.data, "shipit", 5).iter().any(|(n, code, _)| n == "shipit" && code == "7"));
    // The edit-history key now explains instead of asking the server.
    st.ui.selected = Some(5);
    assert_eq!(update(&mut st, key('H')), vec![]);
    assert!(st.ui.status.as_ref().is_some_and(|s| s.error && s.text.contains("disabled")));
}

#[test]
fn queue_loss_registers_again() {
    let (mut st, _) = registered();
    assert_eq!(update(&mut st, Msg::QueueLost), vec![Effect::Register]);
    assert!(st.ui.status.as_ref().is_some_and(|s| s.text.contains("expired")));
    assert_eq!(update(&mut st, Msg::QueueUnreadable), vec![Effect::Register]);
    assert!(st.ui.status.as_ref().is_some_and(|s| s.error && s.text.contains("cannot read")));
}

fn page(ids: &[i64], topic: &str, found_newest: bool) -> Box<MessagesResponse> {
    let msgs: Vec<_> = ids.iter().map(|i| msg(*i, 1, topic, &["read"])).collect();
    Box::new(
        serde_json::from_value(json!({"messages": msgs, "found_newest": found_newest, "found_oldest": true}))
            .unwrap(),
    )
}

#[test]
fn a_new_register_resyncs_every_loaded_narrow_from_its_newest_message() {
    let (mut st, _) = registered();
    let topic = Narrow::Topic(1, "plans".into());
    update(
        &mut st,
        Msg::Messages {
            narrow: Narrow::Channel(1),
            resp: page(&[20, 21, 22], "plans", true),
            older: false,
            epoch: 0,
        },
    );
    update(
        &mut st,
        Msg::Messages { narrow: topic.clone(), resp: page(&[20, 22], "plans", true), older: false, epoch: 0 },
    );
    st.ui.narrow = topic.clone();
    let reg: RegisterResponse = serde_json::from_value(
        json!({"queue_id": "q2", "last_event_id": 5, "zulip_feature_level": 496, "user_id": ME}),
    )
    .unwrap();
    let fx = register_at_once(&mut st, reg);
    let mut fetched: Vec<(Narrow, Anchor, u64)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::FetchMessages { narrow, anchor, after, .. } => {
                Some((narrow.clone(), anchor.clone(), *after))
            }
            _ => None,
        })
        .collect();
    fetched.sort_by_key(|(n, ..)| format!("{n:?}"));
    assert_eq!(
        fetched,
        vec![
            (Narrow::Channel(1), Anchor::Id(22), RESYNC_AFTER),
            (topic.clone(), Anchor::Id(22), RESYNC_AFTER)
        ],
        "every open narrow, once each (the shown one too)"
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::PollEvents { queue_id, .. } if queue_id == "q2")));
    // While away, 21 was deleted and 23, 24 arrived: the answer replaces the range it covers.
    update(
        &mut st,
        Msg::Messages {
            narrow: Narrow::Channel(1),
            resp: page(&[20, 22, 23, 24], "plans", true),
            older: false,
            epoch: 0,
        },
    );
    let v = &st.data.views[&Narrow::Channel(1)];
    assert_eq!(v.ids(), vec![20, 22, 23, 24]);
    assert!(v.found_newest() && !v.is_loading_newer());
}

#[test]
fn a_page_asked_for_before_the_window_was_reset_is_dropped() {
    let (mut st, _) = registered();
    let fx = open_narrow(&mut st, Narrow::Channel(1));
    let Some(Effect::FetchMessages { epoch: first, .. }) = fx.first().cloned() else { panic!("{fx:?}") };
    // The window is reset (a jump to a sent message, a date, a resync) before the page comes.
    let second = st.data.reset_view(&Narrow::Channel(1));
    assert_ne!(first, second);
    let stale = Msg::Messages {
        narrow: Narrow::Channel(1),
        resp: page(&[1, 2, 3], "plans", true),
        older: false,
        epoch: first,
    };
    update(&mut st, stale);
    assert!(st.data.views[&Narrow::Channel(1)].ids().is_empty(), "an old page would leave a gap");
    let fresh = Msg::Messages {
        narrow: Narrow::Channel(1),
        resp: page(&[40, 41], "plans", true),
        older: false,
        epoch: second,
    };
    update(&mut st, fresh);
    assert_eq!(st.data.views[&Narrow::Channel(1)].ids(), vec![40, 41]);
}

#[test]
fn moving_down_a_window_that_stops_short_of_the_newest_pages_newer_messages_in() {
    let (mut st, _) = registered();
    st.ui.narrow = Narrow::Channel(1);
    update(
        &mut st,
        Msg::Messages {
            narrow: Narrow::Channel(1),
            resp: page(&[30, 31, 32], "plans", false),
            older: false,
            epoch: 0,
        },
    );
    st.ui.selected = Some(30);
    let fx = update(&mut st, key('j'));
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::FetchMessages { anchor: Anchor::Id(32), before: 0, after: PAGE, older: false, .. }
        )),
        "{fx:?}"
    );
    assert!(
        update(&mut st, key('j')).iter().all(|e| !matches!(e, Effect::FetchMessages { .. })),
        "one page at a time"
    );
    update(
        &mut st,
        Msg::Messages {
            narrow: Narrow::Channel(1),
            resp: page(&[32, 33], "plans", true),
            older: false,
            epoch: 0,
        },
    );
    assert_eq!(st.data.views[&Narrow::Channel(1)].ids(), vec![30, 31, 32, 33]);
}

#[test]
fn emoji_completion_offers_zulip_names_and_translates_gemoji_ones() {
    let d = Data::default();
    let names = |q: &str| emoji_matches(&d, q, 20).into_iter().map(|(n, c, _)| (n, c)).collect::<Vec<_>>();
    let thumbs = names("thumbs_u");
    assert!(thumbs.contains(&("thumbs_up".into(), "1f44d".into())), "{thumbs:?}");
    // Typed from habit: gemoji's name offers the Zulip name of the same emoji, never itself.
    let habit = names("thumbsu");
    assert_eq!(habit.first(), Some(&("+1".into(), "1f44d".into())), "{habit:?}");
    assert!(habit.iter().all(|(n, _)| crate::api::emoji::by_name(n).is_some() || n == "zulip"), "{habit:?}");
    assert!(names("working_on").iter().any(|(n, _)| n == "working_on_it"));
}

/// Two organizations as the main loop tells a state about them.
fn orgs(active: usize, closed: Option<&str>) -> Msg {
    let row = |name: &str| crate::app::orgs::OrgRow { name: name.into(), ..Default::default() };
    let mut rows = vec![row("acme"), row("globex")];
    rows[1].closed = closed.map(str::to_owned);
    Msg::Organizations(crate::app::orgs::Orgs { rows, active, index: 0 })
}

#[test]
fn an_organization_not_on_screen_reads_nothing_until_it_is_shown() {
    let (mut st, _) = registered();
    update(&mut st, orgs(1, None));
    let resp: MessagesResponse = serde_json::from_value(
        json!({"messages": [msg(5, 1, "plans", &[]), msg(6, 1, "plans", &[])], "found_newest": true, "found_oldest": true}),
    )
    .unwrap();
    let fx =
        update(&mut st, Msg::Messages { narrow: Narrow::All, resp: Box::new(resp), older: false, epoch: 0 });
    assert!(!fx.iter().any(|e| matches!(e, Effect::MarkRead(_))), "nobody saw it: {fx:?}");
    assert_eq!(st.ui.selected, Some(5));
    assert_eq!(st.data.topic_unread(1, "plans"), 2);
    // Switched to: the selected message is on screen now.
    assert_eq!(update(&mut st, orgs(0, None)), vec![Effect::MarkRead(vec![5])]);
    // Told again with nothing new: nothing more is read.
    assert_eq!(update(&mut st, orgs(0, None)), vec![]);
}

#[test]
fn switching_organizations_asks_the_main_loop_or_says_why_not() {
    let (mut st, _) = registered();
    let switch = |how| vec![Effect::Term(TermEffect::SwitchOrganization(how))];
    let fx = update(&mut st, key(']'));
    assert_eq!(fx, vec![]);
    assert!(st.ui.status.as_ref().unwrap().text.contains("only this organization is open"));
    update(&mut st, orgs(0, None));
    assert_eq!(update(&mut st, key(']')), switch(OrgSwitch::Next));
    assert_eq!(update(&mut st, key('[')), switch(OrgSwitch::Previous));
    assert_eq!(update(&mut st, Msg::ClickOrganization(1)), switch(OrgSwitch::To(1)));
    // A closed one is switched to as well: its screen says how to reopen it.
    update(&mut st, orgs(0, Some("the server refused this account: invalid API key")));
    assert_eq!(update(&mut st, key(']')), switch(OrgSwitch::Next));
    assert_eq!(update(&mut st, Msg::ClickOrganization(1)), switch(OrgSwitch::To(1)));
    update(&mut st, Msg::OrganizationClosed { name: "globex".into(), why: "invalid API key".into() });
    let said = st.ui.status.as_ref().unwrap();
    assert!(
        said.error && said.text == "globex closed — the server refused the account; ] shows how to reopen it",
        "{said:?}"
    );
}

/// A refused account closes its organization without ending the client: the screen says why
/// and how to fix it; only reopening, quitting and switching are taken; nothing goes out.
#[test]
fn a_refused_account_closes_the_organization_and_says_how_to_reopen_it() {
    let (mut st, _) = registered();
    st.account = crate::app::orgs::AccountSource::Account("work".into());
    let refusal = ApiError::Server(Box::new(ServerError::new(401, "UNAUTHORIZED", "Invalid API key")));
    // Something being written is kept on this machine.
    let target = crate::app::outgoing::Target::Channel { id: 1, topic: "plans".into() };
    super::common::open_compose(&mut st, target, "half a thought", None);
    let fx = update(&mut st, Msg::AuthLost(refusal));
    assert!(
        fx.iter().any(|e| matches!(e, Effect::SaveDraft { text, .. } if text == "half a thought")),
        "{fx:?}"
    );
    assert!(st.ui.compose.is_none());
    assert!(!st.ui.conn.quitting(), "the window stays open");
    assert_eq!(st.ui.conn.fatal(), Some("the server refused this account: Invalid API key"));
    assert_eq!(
        st.ui.conn.reopen(),
        vec![
            "The server refused this account:",
            "    Invalid API key",
            "",
            "Log in again, in another terminal:",
            "    topicterm login --account work",
            "then press r here to reopen it.",
        ]
    );
    assert!(st.data.queue_id().is_none() && !st.ui.conn.is_offline());
    // Nothing else is done while closed: no key, tick or answer sends anything.
    assert_eq!(update(&mut st, key('c')), vec![]);
    assert!(st.ui.compose.is_none());
    let later = st.now + 3600;
    assert_eq!(update(&mut st, Msg::Tick(later)), vec![]);
    assert_eq!(update(&mut st, Msg::QueueLost), vec![]);
    assert_eq!(update(&mut st, key('?')), vec![]);
    assert_eq!(
        st.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("closed: r reopens it once the account is fixed, q quits")
    );
    assert_eq!(update(&mut st, key('r')), vec![Effect::Term(TermEffect::Reopen)]);
    update(&mut st, Msg::ReopenFailed("the keyring has no API key for account \"work\"".into()));
    assert_eq!(
        st.ui.status.as_ref().map(|s| s.text.as_str()),
        Some("not reopened: the keyring has no API key for account \"work\"")
    );
    assert_eq!(update(&mut st, key('q')), vec![Effect::Quit]);
    assert!(st.ui.conn.quitting());
}

#[test]
fn a_message_in_an_organization_not_on_screen_notifies_with_its_name() {
    let (mut st, _) = registered();
    update(&mut st, orgs(1, None));
    let dm = json!({"id": 40, "type": "private", "content": "<p>psst</p>", "sender_id": 11,
        "sender_full_name": "Alice", "sender_email": "alice@x", "timestamp": 1_700_000_100, "flags": [],
        "display_recipient": [{"id": ME, "email": "me@x", "full_name": "Me"}, {"id": 11, "email": "alice@x", "full_name": "Alice"}]});
    let ev = Event::decode(json!({"id": 0, "type": "message", "message": dm, "flags": []}));
    let fx = update(&mut st, Msg::Events(vec![ev]));
    let told: Vec<(&str, &str)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Term(TermEffect::Notify { title, body, .. }) => Some((title.as_str(), body.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(told, vec![("acme", "Alice (direct message): psst")], "{fx:?}");
}

#[test]
fn pictures_wanted_are_fetched_once_and_only_from_the_own_server() {
    use crate::app::images::{Picture, Slot};
    let (mut st, _) = registered();
    st.site = "https://chat.example.com".into();
    let own = "/user_uploads/thumbnail/2/ab/cat.png/840x560.webp".to_owned();
    let other = "https://img.example/cat.png".to_owned();
    let fx = update(&mut st, Msg::ImagesWanted(vec![own.clone(), other.clone()]));
    assert_eq!(fx, vec![Effect::FetchImage { src: own.clone() }]);
    assert_eq!(st.images.get(&own), Some(&Slot::Loading));
    assert_eq!(st.images.get(&other), Some(&Slot::Failed(super::images::ELSEWHERE.into())));
    // Wanted again by the next frame while loading: not asked twice.
    assert_eq!(update(&mut st, Msg::ImagesWanted(vec![own.clone()])), vec![]);
    let picture = Picture(std::sync::Arc::new(image::DynamicImage::new_rgb8(4, 3)));
    update(&mut st, Msg::Image { src: own.clone(), result: Ok(picture.clone()) });
    assert_eq!(st.images.get(&own), Some(&Slot::Ready(picture)));
    // A failure is kept in words, and not retried by every frame.
    let broken = "/user_uploads/2/x/broken.png".to_owned();
    update(&mut st, Msg::ImagesWanted(vec![broken.clone()]));
    let failure = crate::app::Failure::Undecodable("Format error decoding Png".into());
    update(&mut st, Msg::Image { src: broken.clone(), result: Err(failure) });
    let Some(Slot::Failed(why)) = st.images.get(&broken) else { panic!("{:?}", st.images.get(&broken)) };
    assert_eq!(why, "not a picture topicterm can show (Format error decoding Png)");
    assert_eq!(update(&mut st, Msg::ImagesWanted(vec![broken])), vec![]);
    // Off: nothing is fetched.
    st.settings.images = crate::app::settings::ImageMode::Off;
    assert_eq!(update(&mut st, Msg::ImagesWanted(vec!["/user_uploads/new.png".into()])), vec![]);
}

/// Every confirmation ends in "(y/N)" (`:mark-read all` said "(y/n)"), and only y or Y runs it.
#[test]
fn confirmations_say_y_slash_capital_n_and_only_y_confirms() {
    let (mut st, _) = registered();
    let ask = |st: &mut State| {
        let fx = update(st, key(':'));
        assert!(fx.is_empty());
        for c in "mark-read all".chars() {
            update(st, key(c));
        }
        update(st, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
        st.ui.confirm.as_ref().map(|(q, _)| q.clone()).expect("a question")
    };
    assert_eq!(ask(&mut st), "Mark every message as read? (y/N)");
    for no in [KeyCode::Char('n'), KeyCode::Enter, KeyCode::Char('x'), KeyCode::Esc] {
        let fx = update(&mut st, Msg::Key(KeyEvent::new(no, KeyModifiers::NONE)));
        assert!(fx.is_empty(), "{no:?} does not confirm: {fx:?}");
        assert!(st.ui.confirm.is_none() && st.ui.prompt.is_none());
        ask(&mut st);
    }
    assert_eq!(update(&mut st, key('Y')), vec![Effect::MarkAllRead]);
}

/// A narrow opened before the server could be asked shows the messages held of it, and its
/// first page replaces them (a message held but gone from the server does not stay); offline
/// nothing is asked, and it loads when the connection is back.
#[test]
fn a_narrow_filled_from_held_messages_is_replaced_by_its_first_page() {
    let (mut st, _) = registered();
    let page = |ids: &[i64]| -> Box<MessagesResponse> {
        let messages: Vec<serde_json::Value> = ids.iter().map(|id| msg(*id, 1, "plans", &["read"])).collect();
        Box::new(
            serde_json::from_value(json!({"messages": messages, "found_newest": true, "found_oldest": true}))
                .unwrap(),
        )
    };
    let resp = page(&[5, 6]);
    update(&mut st, Msg::Messages { narrow: Narrow::All, resp, older: false, epoch: 0 });
    let plans = Narrow::Topic(1, "plans".into());

    // The last session shown, the server not answered yet: held messages, and a page asked for.
    st.ui.conn.shown_from_cache();
    let fx = open_narrow(&mut st, plans.clone());
    let epoch = match fx.as_slice() {
        [Effect::FetchMessages { epoch, .. }] => *epoch,
        _ => panic!("a page is asked for: {fx:?}"),
    };
    assert_eq!(st.data.views[&plans].ids(), vec![5, 6]);
    assert!(st.data.views[&plans].is_provisional() && !st.data.views[&plans].is_loaded());
    // (20, not 8: the fixture's unread message 8 is in #2 > lunch, and a page saying it is
    // here now would be a move, which is not what this test is about.)
    update(&mut st, Msg::Messages { narrow: plans.clone(), resp: page(&[6, 20]), older: false, epoch });
    assert_eq!(st.data.views[&plans].ids(), vec![6, 20], "the page replaces what was held");
    assert!(!st.data.views[&plans].is_provisional() && st.data.views[&plans].is_loaded());

    // Offline: held messages, nothing asked; back online, the narrow on screen loads.
    st.ui.conn.registered(false);
    st.ui.conn.went_offline(Offline { why: "gone".into(), retry_at: 0, attempts: 1, register_due: false });
    let noise = Narrow::Channel(1);
    // Nothing asked of the server; the archive on this machine is asked what it holds.
    let fx = open_narrow(&mut st, noise.clone());
    assert!(matches!(fx.as_slice(), [Effect::SearchArchive { narrow, .. }] if *narrow == noise), "{fx:?}");
    assert_eq!(st.data.views[&noise].ids(), vec![5, 6, 20]);
    let fx = update(&mut st, Msg::Online);
    assert!(matches!(fx.as_slice(), [Effect::FetchMessages { narrow, .. }] if *narrow == noise), "{fx:?}");
}

/// A registered state whose channels are in folders: 1 "eng" (pinned, in Code), 2 "random"
/// (muted, in Social), 3 "builds" (in Code), 4 "general" (none), 5 "old" (in an archived folder).
fn registered_with_folders() -> State {
    let mut st = State::default();
    let reg: RegisterResponse = serde_json::from_value(json!({
        "queue_id": "q1", "last_event_id": -1, "zulip_feature_level": 496, "user_id": ME,
        "realm_users": [{"user_id": ME, "full_name": "Me", "email": "me@x"}],
        "subscriptions": [
            {"stream_id": 1, "name": "eng", "color": "#fff", "pin_to_top": true, "folder_id": 100},
            {"stream_id": 2, "name": "random", "color": "#fff", "is_muted": true, "folder_id": 101},
            {"stream_id": 3, "name": "builds", "color": "#fff", "folder_id": 100},
            {"stream_id": 4, "name": "general", "color": "#fff"},
            {"stream_id": 5, "name": "old", "color": "#fff", "folder_id": 102},
        ],
        "channel_folders": [
            {"id": 101, "name": "Social", "order": 1},
            {"id": 100, "name": "Code", "order": 0},
            {"id": 102, "name": "Gone", "order": 2, "is_archived": true},
        ],
    }))
    .unwrap();
    register_at_once(&mut st, reg);
    st
}

/// The channels pane's rows from the first heading on.
fn channel_rows(st: &State) -> Vec<SidebarRow> {
    let first =
        st.ui.sidebar.rows().iter().position(|r| matches!(r, SidebarRow::Header(_) | SidebarRow::Channel(_)));
    st.ui.sidebar.rows()[first.unwrap_or(0)..].to_vec()
}

#[test]
fn channels_are_grouped_under_their_folders_in_the_servers_order_pinned_first() {
    let st = registered_with_folders();
    use SidebarRow::{Channel as C, Header as H};
    assert_eq!(
        channel_rows(&st),
        vec![
            H(Section::Pinned),
            C(1),
            H(Section::Folder(100)),
            C(3),
            H(Section::Folder(101)),
            C(2),
            H(Section::Other),
            C(4),
            C(5),
        ],
        "pinned first wherever their folder; folders by order; the archived folder's channel in none"
    );
    // Without folders: no headings at all.
    let (plain, _) = registered();
    assert!(!plain.ui.sidebar.rows().iter().any(|r| matches!(r, SidebarRow::Header(_))));
}

#[test]
fn the_selection_passes_over_headings_and_the_filter_keeps_the_folders_of_what_matches() {
    let mut st = registered_with_folders();
    update(&mut st, key('h'));
    assert_eq!(st.ui.focus, Focus::Sidebar);
    let at = |st: &State| st.ui.sidebar.rows()[st.ui.sidebar.selected_index()].clone();
    update(&mut st, key('G'));
    assert_eq!(at(&st), SidebarRow::Channel(5));
    let mut seen = vec![at(&st)];
    for _ in 0..st.ui.sidebar.rows().len() {
        update(&mut st, key('k'));
        seen.push(at(&st));
    }
    assert!(seen.iter().all(SidebarRow::selectable), "never on a heading: {seen:?}");
    assert!(seen.contains(&SidebarRow::Channel(3)) && seen.contains(&SidebarRow::Channel(1)));
    // Enter on a heading (a click) does nothing.
    let heading = st.ui.sidebar.rows().iter().position(|r| !r.selectable()).unwrap();
    let narrow = st.ui.narrow.clone();
    assert!(update(&mut st, Msg::ClickSidebar(heading)).is_empty());
    assert_eq!(st.ui.narrow, narrow);
    // Filtering: the folders of the channels that match, and the selection on the first channel.
    update(&mut st, key('/'));
    for c in "bu".chars() {
        update(&mut st, key(c));
    }
    assert_eq!(st.ui.sidebar.rows(), vec![SidebarRow::Header(Section::Folder(100)), SidebarRow::Channel(3)]);
    assert_eq!(st.ui.sidebar.selected_index(), 1);
}

#[test]
fn folder_events_and_a_channel_moving_between_folders_regroup_the_pane() {
    let mut st = registered_with_folders();
    let ev = |id: i64, v: serde_json::Value| {
        let mut v = v;
        v["id"] = json!(id);
        Msg::Events(vec![Event::decode(v)])
    };
    // general goes into Social.
    update(
        &mut st,
        ev(
            1,
            json!({"type": "stream", "op": "update", "stream_id": 4, "name": "general", "property": "folder_id", "value": 101}),
        ),
    );
    let social =
        st.ui.sidebar.rows().iter().position(|r| *r == SidebarRow::Header(Section::Folder(101))).unwrap();
    assert_eq!(
        st.ui.sidebar.rows()[social + 1..social + 3],
        [SidebarRow::Channel(4), SidebarRow::Channel(2)]
    );
    // The folders swap places.
    update(&mut st, ev(2, json!({"type": "channel_folder", "op": "reorder", "order": [102, 101, 100]})));
    let pos = |st: &State, s: Section| {
        st.ui.sidebar.rows().iter().position(|r| *r == SidebarRow::Header(s)).unwrap()
    };
    assert!(pos(&st, Section::Folder(101)) < pos(&st, Section::Folder(100)));
    // A new folder, renamed; Code archived (its channel goes to the others); general out of any.
    let folder = json!({"id": 103, "name": "Ops", "order": 3, "description": "", "rendered_description": "",
        "creator_id": null, "date_created": 0, "is_archived": false});
    update(&mut st, ev(3, json!({"type": "channel_folder", "op": "add", "channel_folder": folder})));
    update(
        &mut st,
        ev(
            4,
            json!({"type": "channel_folder", "op": "update", "channel_folder_id": 103, "data": {"name": "Operations"}}),
        ),
    );
    assert_eq!(st.data.channels.folder(103).unwrap().name, "Operations");
    update(
        &mut st,
        ev(
            5,
            json!({"type": "channel_folder", "op": "update", "channel_folder_id": 100, "data": {"is_archived": true}}),
        ),
    );
    update(
        &mut st,
        ev(
            6,
            json!({"type": "stream", "op": "update", "stream_id": 4, "name": "general", "property": "folder_id", "value": null}),
        ),
    );
    use SidebarRow::{Channel as C, Header as H};
    assert_eq!(
        channel_rows(&st),
        vec![H(Section::Pinned), C(1), H(Section::Folder(101)), C(2), H(Section::Other), C(3), C(4), C(5)]
    );
}

/// Level 441's `can_create_topic_group`: a user it leaves out is told, before anything is
/// sent, that they may not start a new topic (the compose box and its text stay); an existing
/// topic, or a user the group takes in (through a subgroup, after an event), sends.
#[test]
fn a_new_topic_the_user_may_not_start_is_refused_before_sending() {
    let mut st = State::default();
    let reg: RegisterResponse = serde_json::from_value(json!({
        "queue_id": "q1", "last_event_id": -1, "zulip_feature_level": 503, "user_id": ME,
        "realm_users": [{"user_id": ME, "full_name": "Me", "email": "me@x"}],
        "realm_user_groups": [
            {"id": 1, "name": "role:administrators", "members": [99], "is_system_group": true},
            {"id": 2, "name": "leads", "members": [], "direct_subgroup_ids": [1]},
        ],
        "subscriptions": [{"stream_id": 1, "name": "eng", "color": "#fff", "can_create_topic_group": 2}],
    }))
    .unwrap();
    register_at_once(&mut st, reg);
    st.data.topics.on_fetched(1, vec![TopicEntry { name: "plans".into(), max_id: 5 }], [], |_, _| false);
    let send = |st: &mut State, topic: &str| {
        st.ui.compose = Some(Compose::new(Target::Channel { id: 1, topic: topic.into() }, "hello", None));
        update(st, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT)))
    };
    let fx = send(&mut st, "brand new");
    assert!(fx.is_empty(), "nothing is sent: {fx:?}");
    let status = st.ui.status.clone().expect("said");
    assert!(status.error && status.text.starts_with("you may not start new topics in #eng"), "{status:?}");
    assert_eq!(st.ui.compose.as_ref().map(|c| c.text()), Some("hello".to_owned()), "the text is kept");
    // An existing topic (any case) is no new topic.
    let fx = send(&mut st, "PLANS");
    assert!(st.ui.compose.is_none() && !fx.is_empty(), "{:?}", st.ui.status);
    // Made an administrator: in the group through its subgroup.
    let joined = Event::decode(
        json!({"id": 1, "type": "user_group", "op": "add_members", "group_id": 1, "user_ids": [ME]}),
    );
    update(&mut st, Msg::Events(vec![joined]));
    let fx = send(&mut st, "brand new");
    assert!(st.ui.compose.is_none() && !fx.is_empty(), "{:?}", st.ui.status);
}

/// "general chat" typed is the empty topic only where the server has empty topics (level
/// 334); before it, the name is a topic like any other (an empty one would be refused).
#[test]
fn the_empty_topics_name_is_the_empty_topic_only_where_it_exists() {
    let realm = |level| RealmInfo {
        server: ServerVersion { feature_level: level, ..Default::default() },
        empty_topic_name: "general chat".into(),
        ..Default::default()
    };
    assert_eq!(realm(503).topic_typed(" General chat "), "");
    assert_eq!(realm(334).topic_typed("general chat"), "");
    assert_eq!(realm(218).topic_typed("general chat"), "general chat");
    assert_eq!(realm(218).topic_shown(""), "general chat");
    assert_eq!(realm(503).topic_typed("lunch"), "lunch");
}

/// A page can bring a message moved while the client was not told (a lost queue): the topic it
/// left keeps no row standing on it (found by the topic-row invariant on a fixture).
#[test]
fn a_page_bringing_a_message_from_elsewhere_moves_it_out_of_its_old_topics_row() {
    let (mut st, _) = registered();
    assert_eq!(st.data.topics.of(2).and_then(|l| l.get("lunch")).map(|t| t.max_id), Some(8));
    let page: Box<MessagesResponse> = Box::new(
        serde_json::from_value(
            json!({"messages": [msg(8, 1, "plans", &["read"])], "found_newest": true, "found_oldest": true}),
        )
        .unwrap(),
    );
    update(&mut st, Msg::Messages { narrow: Narrow::All, resp: page, older: false, epoch: 0 });
    assert!(st.data.topics.of(2).unwrap().get("lunch").is_none(), "{:?}", st.data.topics.of(2));
    assert_eq!(st.data.topics.of(1).and_then(|l| l.get("plans")).map(|t| t.max_id), Some(8));
    assert!(!st.data.unread.contains(8), "read, as the page says");
}
