//! Unit tests of what the user's Zulip settings change: typing notices sent and shown, the time
//! zone and the clock, enter in the compose box — each as register says and as an event changes.

use super::tests::registered;
use super::*;
use serde_json::json;

fn setting(id: i64, property: &str, value: serde_json::Value) -> Msg {
    Msg::Events(vec![Event::decode(json!({
        "id": id, "type": "user_settings", "op": "update", "property": property, "value": value,
    }))])
}

fn typed(st: &mut State, c: char) -> Vec<Effect> {
    update(st, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)))
}

fn typing_sent(fx: &[Effect]) -> bool {
    fx.iter().any(|e| matches!(e, Effect::Typing { start: true, .. }))
}

#[test]
fn typing_notices_go_only_where_the_user_lets_them_and_stop_when_turned_off() {
    let (mut st, _) = registered();
    common::open_compose(&mut st, Target::Channel { id: 1, topic: "plans".into() }, "", None);
    assert!(typing_sent(&typed(&mut st, 'a')), "not said: told");
    update(&mut st, setting(1, "send_stream_typing_notifications", json!(false)));
    // Turned off while typing: the notice in force stops, and no other starts.
    assert!(st.ui.presence.notice().is_none());
    st.now += 60;
    assert!(!typing_sent(&typed(&mut st, 'b')));
    // Direct messages follow their own setting.
    common::open_compose(&mut st, Target::Dm(vec![11]), "", None);
    assert!(typing_sent(&typed(&mut st, 'c')));
    update(&mut st, setting(2, "send_private_typing_notifications", json!(false)));
    st.now += 60;
    common::open_compose(&mut st, Target::Dm(vec![11]), "", None);
    assert!(!typing_sent(&typed(&mut st, 'd')));
}

#[test]
fn others_typing_is_shown_unless_the_user_turned_it_off() {
    let (mut st, _) = registered();
    let typing = |id: i64| {
        Msg::Events(vec![Event::decode(json!({
            "id": id, "type": "typing", "op": "start", "message_type": "stream", "stream_id": 1,
            "topic": "plans", "sender": {"user_id": 11, "email": "alice@x"},
        }))])
    };
    update(&mut st, typing(1));
    assert_eq!(st.ui.presence.typing().len(), 1);
    update(&mut st, setting(2, "receives_typing_notifications", json!(false)));
    assert!(st.ui.presence.typing().is_empty(), "what was shown goes");
    update(&mut st, typing(3));
    assert!(st.ui.presence.typing().is_empty());
}

#[test]
fn times_follow_the_users_zone_and_clock_unless_fixed_or_configured() {
    let (mut st, _) = registered();
    assert_eq!(st.tz, TimeZone::Local, "no zone said: the system's");
    update(&mut st, setting(1, "timezone", json!("Asia/Tokyo")));
    assert_eq!(st.tz.format(0, "%H:%M"), "09:00");
    update(&mut st, setting(2, "timezone", json!("")));
    assert_eq!(st.tz, TimeZone::Local, "unset: the system's again");
    update(&mut st, setting(3, "timezone", json!("No/Such_Zone")));
    assert_eq!(st.tz, TimeZone::Local);
    // A fixed zone (UTC by choice, the tests') stays.
    st.tz = TimeZone::Fixed(0);
    update(&mut st, setting(4, "timezone", json!("Asia/Tokyo")));
    assert_eq!(st.tz, TimeZone::Fixed(0));
    // The clock: the user's, unless the config file gives one.
    update(&mut st, setting(5, "twenty_four_hour_time", json!(false)));
    assert_eq!(st.settings.clock, crate::app::settings::Clock::H12);
    update(&mut st, setting(6, "twenty_four_hour_time", json!(true)));
    assert_eq!(st.settings.clock, crate::app::settings::Clock::H24);
    st.settings.clock_set = true;
    update(&mut st, setting(7, "twenty_four_hour_time", json!(false)));
    assert_eq!(st.settings.clock, crate::app::settings::Clock::H24, "the config's");
}

#[test]
fn enter_sends_only_where_the_user_set_it() {
    let (mut st, _) = registered();
    let enter = |m: KeyModifiers| Msg::Key(KeyEvent::new(KeyCode::Enter, m));
    common::open_compose(&mut st, Target::Channel { id: 1, topic: "plans".into() }, "hi", None);
    update(&mut st, enter(KeyModifiers::NONE));
    assert_eq!(st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("hi\n"), "not said: a new line");
    update(&mut st, setting(1, "enter_sends", json!(true)));
    update(&mut st, enter(KeyModifiers::ALT));
    assert_eq!(st.ui.compose.as_ref().map(|c| c.text()).as_deref(), Some("hi\n\n"), "alt+enter: a new line");
    let fx = update(&mut st, enter(KeyModifiers::NONE));
    assert!(st.ui.compose.is_none(), "sent: {fx:?}");
}
