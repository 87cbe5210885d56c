//! Operations 5 (update presence), 8 (update status) and 12 (APNs device token).

use crate::common::{Env, assert_err};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use topicterm::api::*;
use topicterm::server::ServerOptions;

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

#[track_caller]
fn assert_near(actual: i64, expected: i64) {
    assert!((actual - expected).abs() <= 5, "timestamp {actual} should be about {expected}");
}

fn presence(status: PresenceStatus, last_update_id: Option<i64>) -> PresenceUpdate {
    PresenceUpdate { last_update_id, ..PresenceUpdate::new(status) }
}

/// The modern entries of a response, by user ID.
#[track_caller]
fn modern(r: &PresenceResponse) -> HashMap<UserId, ModernPresence> {
    match r.presences.as_ref().expect("presences") {
        p @ Presences::Modern(_) => p.modern(),
        Presences::Legacy(l) => panic!("expected the modern format, got {l:?}"),
    }
}

#[track_caller]
fn legacy(r: &PresenceResponse) -> HashMap<String, LegacyPresence> {
    match r.presences.as_ref().expect("presences") {
        Presences::Legacy(l) => l.clone(),
        Presences::Modern(m) => panic!("expected the legacy format, got {m:?}"),
    }
}

async fn queue(c: &Client) -> String {
    c.register(&RegisterParams::default()).await.unwrap().queue_id.expect("queue_id")
}

async fn events(c: &Client, queue_id: &str) -> Vec<EventKind> {
    let evs = c.get_events(queue_id, -1, true, Duration::from_secs(5)).await.unwrap();
    evs.into_iter().map(|e| e.kind).collect()
}

fn presence_events(evs: &[EventKind]) -> Vec<&PresenceEvent> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::Presence(p) => Some(p),
            _ => None,
        })
        .collect()
}

fn status_events(evs: &[EventKind]) -> Vec<&UserStatusEvent> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::UserStatus(s) => Some(s),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Operation 5: update presence
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn presence_first_fetch_with_minus_one_returns_all_visible_entries_by_user_id() {
    let env = Env::start().await;
    let r = env.client("member").update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
    let entries = modern(&r);
    let t = now();
    for who in ["owner", "admin", "alice", "bob", "dave", "erin", "farid", "noa", "moderator", "member"] {
        assert!(entries.contains_key(&env.user_id(who)), "{who} missing from {entries:?}");
    }
    // alice was active 10 seconds ago; dave went idle 40 seconds ago after 10 idle minutes.
    let alice = entries[&env.user_id("alice")];
    assert_near(alice.active_timestamp, t - 10);
    assert_near(alice.idle_timestamp, t - 10);
    let dave = entries[&env.user_id("dave")];
    assert_near(dave.idle_timestamp, t - 40);
    assert_near(dave.active_timestamp, t - 640);
    // The caller's own report is included.
    assert_near(entries[&env.user_id("member")].active_timestamp, t);
    let id = r.presence_last_update_id.expect("presence_last_update_id");
    assert!(id > 0, "{id}");
    assert!(r.server_timestamp.is_some());
}

#[tokio::test]
async fn presence_with_last_update_id_returns_only_newer_updates() {
    let env = Env::start().await;
    let member = env.client("member");
    let first = member.update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
    let id = first.presence_last_update_id.unwrap();
    // bob was last seen three days ago: his report is new data.
    env.client("bob").update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap();
    let second = member.update_presence(&presence(PresenceStatus::Active, Some(id))).await.unwrap();
    let entries = modern(&second);
    let keys: HashSet<UserId> = entries.keys().copied().collect();
    assert_eq!(keys, HashSet::from([env.user_id("bob")]), "only bob's update is newer");
    assert_near(entries[&env.user_id("bob")].active_timestamp, now());
    let newer = second.presence_last_update_id.unwrap();
    assert!(newer > id, "{newer} > {id}");
    // Nothing happened since: the same ID comes back with no entries.
    let third = member.update_presence(&presence(PresenceStatus::Active, Some(newer))).await.unwrap();
    assert!(modern(&third).is_empty(), "{:?}", third.presences);
    assert_eq!(third.presence_last_update_id, Some(newer));
}

#[tokio::test]
async fn presence_without_last_update_id_uses_the_legacy_format_by_email() {
    let env = Env::start().await;
    let r = env.client("member").update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap();
    let entries = legacy(&r);
    let alice = &entries[&env.creds("alice").email];
    let agg = alice.aggregated.as_ref().expect("aggregated");
    assert_eq!(agg.status, "active");
    assert_near(agg.timestamp, now() - 10);
    assert!(!agg.client.is_empty());
    let per_client = alice.clients.get(&agg.client).expect("one entry per client");
    assert_eq!(per_client.status, "active");
    assert!(per_client.pushable.is_some(), "client entries carry pushable");
    let dave = &entries[&env.creds("dave").email];
    assert_eq!(dave.aggregated.as_ref().unwrap().status, "idle");
    assert!(!entries.contains_key(&env.creds("carol").email), "carol is invisible");
    assert!(!entries.keys().any(|k| k.parse::<i64>().is_ok()), "keys are emails");
}

#[tokio::test]
async fn slim_presence_gives_the_modern_format() {
    let env = Env::start().await;
    let u = PresenceUpdate { slim_presence: Some(true), ..PresenceUpdate::new(PresenceStatus::Active) };
    let r = env.client("member").update_presence(&u).await.unwrap();
    let entries = modern(&r);
    assert!(entries.contains_key(&env.user_id("alice")));
    assert!(!entries.contains_key(&env.user_id("carol")));
}

#[tokio::test]
async fn ping_only_returns_no_presences() {
    let env = Env::start().await;
    let u = PresenceUpdate { ping_only: Some(true), ..presence(PresenceStatus::Active, Some(-1)) };
    let r = env.client("member").update_presence(&u).await.unwrap();
    assert!(r.presences.is_none(), "{:?}", r.presences);
    // The ping itself was recorded: others see the member now.
    let r = env.client("alice").update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
    assert_near(modern(&r)[&env.user_id("member")].active_timestamp, now());
}

#[tokio::test]
async fn invisible_user_never_appears() {
    let env = Env::start().await;
    let carol = env.user_id("carol");
    for who in ["member", "admin", "carol"] {
        let r = env.client(who).update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
        assert!(!modern(&r).contains_key(&carol), "{who} sees carol");
    }
    let params = RegisterParams { slim_presence: Some(true), ..Default::default() };
    let reg = env.client("member").register(&params).await.unwrap();
    let presences = reg.presences.expect("presences");
    assert!(!presences.modern().contains_key(&carol));
    assert!(presences.modern().contains_key(&env.user_id("alice")));
}

#[tokio::test]
async fn history_limit_days_leaves_out_older_entries() {
    let env = Env::start().await;
    let member = env.client("member");
    let bob = env.user_id("bob"); // last seen three days ago
    let noa = env.user_id("noa"); // last seen an hour ago
    let all = member.update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
    assert!(modern(&all).contains_key(&bob), "the default is 14 days");
    let u = PresenceUpdate { history_limit_days: Some(1), ..presence(PresenceStatus::Active, Some(-1)) };
    let recent = modern(&member.update_presence(&u).await.unwrap());
    assert!(!recent.contains_key(&bob));
    assert!(recent.contains_key(&noa));
}

#[tokio::test]
async fn idle_then_active_changes_the_callers_entry() {
    let env = Env::start().await;
    let noa = env.client("noa");
    let noa_id = env.user_id("noa");
    let alice = env.client("alice");
    let t = now();

    noa.update_presence(&PresenceUpdate::new(PresenceStatus::Idle)).await.unwrap();
    let seen = modern(&alice.update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap());
    assert_near(seen[&noa_id].idle_timestamp, t);
    assert_near(seen[&noa_id].active_timestamp, t - 3600);
    let old = legacy(&alice.update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap());
    assert_eq!(old[&env.creds("noa").email].aggregated.as_ref().unwrap().status, "idle");

    noa.update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap();
    let seen = modern(&alice.update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap());
    assert_near(seen[&noa_id].active_timestamp, t);
    let old = legacy(&alice.update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap());
    assert_eq!(old[&env.creds("noa").email].aggregated.as_ref().unwrap().status, "active");
}

#[tokio::test]
async fn presence_events_reach_other_users() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let bob = env.user_id("bob");
    env.client("bob").update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap();
    let evs = events(&alice, &q).await;
    let ev =
        presence_events(&evs).into_iter().find(|p| p.user_id == Some(bob)).expect("bob's presence event");
    assert_eq!(ev.email.as_deref(), Some(env.creds("bob").email.as_str()));
    // A client without `simplified_presence_events` gets the legacy shape only.
    assert!(ev.presences.is_none(), "{ev:?}");
    let client = ev.presence.as_ref().expect("legacy part").values().next().expect("a client");
    assert_near(client.timestamp, now());
    assert_eq!(client.status, "active");
}

#[tokio::test]
async fn invisible_users_send_no_presence_events() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let member = env.client("member");
    let member_id = env.user_id("member");
    // Going invisible (away) before the member's first report of the session.
    member.update_status(&StatusUpdate { away: Some(true), ..Default::default() }).await.unwrap();
    member.update_presence(&PresenceUpdate::new(PresenceStatus::Active)).await.unwrap();
    let evs = events(&alice, &q).await;
    assert!(presence_events(&evs).iter().all(|p| p.user_id != Some(member_id)), "{evs:?}");
    let r = alice.update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
    assert!(!modern(&r).contains_key(&member_id));

    // Visible again: the stored report is shown.
    member.update_status(&StatusUpdate { away: Some(false), ..Default::default() }).await.unwrap();
    let r = alice.update_presence(&presence(PresenceStatus::Active, Some(-1))).await.unwrap();
    assert!(modern(&r).contains_key(&member_id));
}

#[tokio::test]
async fn invalid_or_missing_presence_status_is_a_bad_request() {
    let env = Env::start().await;
    let (status, body) = env.raw("member", "POST", "/users/me/presence", &[("status", "busy")]).await;
    assert_eq!(status, 400);
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], "BAD_REQUEST");
    assert!(body["msg"].as_str().unwrap().contains("busy"), "{body}");
    let (status, body) = env.raw("member", "POST", "/users/me/presence", &[]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "REQUEST_VARIABLE_MISSING");
    assert_eq!(body["var_name"], "status");
}

// ---------------------------------------------------------------------------------------------
// Operation 8: update status
// ---------------------------------------------------------------------------------------------

async fn status_of(env: &Env, who: &str) -> Option<UserStatus> {
    let reg = env.client("alice").register(&RegisterParams::default()).await.unwrap();
    reg.user_status.expect("user_status").remove(&env.user_id(who).to_string())
}

fn text(t: &str) -> StatusUpdate {
    StatusUpdate { status_text: Some(t.into()), ..Default::default() }
}

fn emoji(name: &str, code: Option<&str>, reaction_type: Option<&str>) -> StatusUpdate {
    StatusUpdate {
        emoji_name: Some(name.into()),
        emoji_code: code.map(Into::into),
        reaction_type: reaction_type.map(Into::into),
        ..Default::default()
    }
}

#[tokio::test]
async fn status_text_is_set_shown_in_register_and_sent_as_event() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    env.client("member").update_status(&text("Deep work until 3")).await.unwrap();
    let st = status_of(&env, "member").await.expect("member has a status");
    assert_eq!(st.status_text, "Deep work until 3");
    assert_eq!(st.emoji_name, "");
    let evs = events(&alice, &q).await;
    let ev = status_events(&evs).into_iter().find(|e| e.user_id == env.user_id("member")).expect("event");
    assert_eq!(ev.status_text.as_deref(), Some("Deep work until 3"));
    assert_eq!(ev.emoji_name, None, "only passed values change");
}

#[tokio::test]
async fn only_passed_values_change() {
    let env = Env::start().await;
    // admin's seeded status: "In a meeting" with :calendar:.
    env.client("admin").update_status(&text("Lunch")).await.unwrap();
    let st = status_of(&env, "admin").await.unwrap();
    assert_eq!(st.status_text, "Lunch");
    assert_eq!(st.emoji_name, "calendar");
    assert_eq!(st.emoji_code, "1f4c6");
}

#[tokio::test]
async fn unicode_emoji_by_name_and_code() {
    let env = Env::start().await;
    let member = env.client("member");
    member.update_status(&emoji("rocket", Some("1f680"), Some("unicode_emoji"))).await.unwrap();
    let st = status_of(&env, "member").await.unwrap();
    assert_eq!((st.emoji_name.as_str(), st.emoji_code.as_str()), ("rocket", "1f680"));
    assert_eq!(st.reaction_type, "unicode_emoji");
    // By name alone the server finds the code.
    member.update_status(&emoji("tada", None, None)).await.unwrap();
    let st = status_of(&env, "member").await.unwrap();
    assert_eq!((st.emoji_name.as_str(), st.emoji_code.as_str()), ("tada", "1f389"));
    assert_eq!(st.reaction_type, "unicode_emoji");
}

#[tokio::test]
async fn realm_emoji_by_id() {
    let env = Env::start().await;
    let reg = env.client("member").register(&RegisterParams::default()).await.unwrap();
    let shipit = reg.realm_emoji.unwrap().into_values().find(|e| e.name == "shipit").expect("shipit");
    env.client("member")
        .update_status(&emoji("shipit", Some(&shipit.id), Some("realm_emoji")))
        .await
        .unwrap();
    let st = status_of(&env, "member").await.unwrap();
    assert_eq!(st.emoji_name, "shipit");
    assert_eq!(st.emoji_code, shipit.id);
    assert_eq!(st.reaction_type, "realm_emoji");
}

#[tokio::test]
async fn svc_extra_emoji() {
    let env = Env::start().await;
    env.client("member")
        .update_status(&emoji("zulip", Some("zulip"), Some("svc_extra_emoji")))
        .await
        .unwrap();
    let st = status_of(&env, "member").await.unwrap();
    assert_eq!((st.emoji_name.as_str(), st.emoji_code.as_str()), ("zulip", "zulip"));
    assert_eq!(st.reaction_type, "svc_extra_emoji");
}

#[tokio::test]
async fn empty_strings_clear_the_status() {
    let env = Env::start().await;
    let bob = env.client("bob");
    let q = queue(&bob).await;
    assert_eq!(status_of(&env, "admin").await.unwrap().status_text, "In a meeting");
    let clear = StatusUpdate {
        status_text: Some(String::new()),
        emoji_name: Some(String::new()),
        ..Default::default()
    };
    env.client("admin").update_status(&clear).await.unwrap();
    assert_eq!(status_of(&env, "admin").await, None, "a cleared status is not listed");
    let evs = events(&bob, &q).await;
    let ev = status_events(&evs).into_iter().find(|e| e.user_id == env.user_id("admin")).expect("event");
    assert_eq!(ev.status_text.as_deref(), Some(""));
    assert_eq!(ev.emoji_name.as_deref(), Some(""));
}

#[tokio::test]
async fn away_is_the_inverse_of_presence_enabled() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let member = env.client("member");
    let member_id = env.user_id("member");
    // The member's own setting (user objects do not say it, as on the reference).
    let presence_enabled = async || {
        let (_, r) = env.raw("member", "POST", "/register", &[("event_types", "[\"user_settings\"]")]).await;
        r["user_settings"]["presence_enabled"].as_bool().expect("presence_enabled")
    };
    assert!(presence_enabled().await);

    member.update_status(&StatusUpdate { away: Some(true), ..Default::default() }).await.unwrap();
    assert!(!presence_enabled().await);
    assert_eq!(status_of(&env, "member").await.unwrap().away, Some(true));
    let evs = events(&alice, &q).await;
    let ev = status_events(&evs).into_iter().find(|e| e.user_id == member_id).expect("event");
    assert_eq!(ev.away, Some(true));

    member.update_status(&StatusUpdate { away: Some(false), ..Default::default() }).await.unwrap();
    assert!(presence_enabled().await);
    assert_eq!(status_of(&env, "member").await, None);
    // carol is invisible in the seed: her status says so.
    assert_eq!(status_of(&env, "carol").await.unwrap().away, Some(true));
}

#[tokio::test]
async fn status_with_no_values_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let before = env.requests();
    let r = env.client("member").update_status(&StatusUpdate::default()).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::NothingToChange))), "{r:?}");
    assert_eq!(env.requests(), before, "no request was sent");
    let (status, body) = env.raw("member", "POST", "/users/me/status", &[]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
}

#[tokio::test]
async fn status_text_over_60_code_points_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let member = env.client("member");
    let long = "é".repeat(61);
    let before = env.requests();
    let r = member.update_status(&text(&long)).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::StatusTextTooLong(61)))), "{r:?}");
    assert_eq!(env.requests(), before);
    let (status, body) = env.raw("member", "POST", "/users/me/status", &[("status_text", &long)]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
    assert!(body["msg"].as_str().unwrap().contains("too long"), "{body}");
    // 60 two-byte code points (120 bytes) are within the limit.
    member.update_status(&text(&"é".repeat(60))).await.unwrap();
    assert_eq!(status_of(&env, "member").await.unwrap().status_text, "é".repeat(60));
}

#[tokio::test]
async fn emoji_name_is_required_with_code_or_type() {
    let env = Env::start().await;
    let member = env.client("member");
    let before = env.requests();
    for upd in [
        StatusUpdate { emoji_code: Some("1f680".into()), ..Default::default() },
        StatusUpdate { reaction_type: Some("unicode_emoji".into()), ..Default::default() },
    ] {
        let r = member.update_status(&upd).await;
        assert!(matches!(r, Err(ApiError::Limit(LimitError::EmojiNameRequired))), "{r:?}");
    }
    assert_eq!(env.requests(), before);
    for params in [[("emoji_code", "1f680")], [("reaction_type", "unicode_emoji")]] {
        let (status, body) = env.raw("member", "POST", "/users/me/status", &params).await;
        assert_eq!(status, 400);
        assert_eq!(body["code"], "BAD_REQUEST");
        assert!(body["msg"].as_str().unwrap().contains("emoji_name"), "{body}");
    }
}

#[tokio::test]
async fn emoji_problems_are_bad_requests_and_change_nothing() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let cases = [
        (emoji("no_such_emoji_anywhere", None, None), "does not exist"),
        (emoji("rocket", Some("zzzz"), Some("unicode_emoji")), "Invalid emoji code"),
        (emoji("no_such_emoji_anywhere", Some("1f680"), Some("unicode_emoji")), "Invalid emoji name"),
        (emoji("shipit", Some("99999"), Some("realm_emoji")), "Invalid custom emoji"),
        (emoji("nope", Some("nope"), Some("svc_extra_emoji")), "Invalid emoji name"),
    ];
    for (upd, needle) in cases {
        assert_err(admin.update_status(&upd).await, "BAD_REQUEST", needle);
    }
    let st = status_of(&env, "admin").await.unwrap();
    assert_eq!((st.emoji_name.as_str(), st.emoji_code.as_str()), ("calendar", "1f4c6"));
}

// ---------------------------------------------------------------------------------------------
// Operation 12: APNs device token
// ---------------------------------------------------------------------------------------------

fn apns_tokens(env: &Env, who: &str) -> Vec<(String, Option<String>)> {
    let uid = env.user_id(who);
    let org = env.server.shared.lock();
    org.apns_tokens.iter().filter(|(u, _, _)| *u == uid).map(|(_, t, a)| (t.clone(), a.clone())).collect()
}

#[tokio::test]
async fn apns_token_is_registered() {
    let env = Env::start().await;
    let r =
        env.client("member").add_apns_token("c0ffee0123456789", Some("org.example.topicterm")).await.unwrap();
    assert!(r.ignored_parameters_unsupported.is_empty());
    assert_eq!(
        apns_tokens(&env, "member"),
        vec![("c0ffee0123456789".into(), Some("org.example.topicterm".into()))]
    );
    // Registering it again keeps one entry.
    env.client("member").add_apns_token("c0ffee0123456789", Some("org.example.topicterm")).await.unwrap();
    assert_eq!(apns_tokens(&env, "member").len(), 1);
}

#[tokio::test]
async fn empty_apns_token_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let before = env.requests();
    let r = env.client("member").add_apns_token("", Some("org.example.topicterm")).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::EmptyToken))), "{r:?}");
    assert_eq!(env.requests(), before);
    let (status, body) = env
        .raw("member", "POST", "/users/me/apns_device_token", &[("token", ""), ("appid", "org.example.x")])
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
    assert!(body["msg"].as_str().unwrap().contains("invalid length"), "{body}");
}

#[tokio::test]
async fn overlong_apns_token_is_a_bad_request() {
    let env = Env::start().await;
    let long = "ab".repeat(200);
    let r = env.client("member").add_apns_token(&long, Some("org.example.topicterm")).await;
    assert_err(r, "BAD_REQUEST", "invalid length");
    assert!(apns_tokens(&env, "member").is_empty());
}

#[tokio::test]
async fn non_hex_apns_token_is_invalid() {
    let env = Env::start().await;
    for bad in ["not-a-hex-token!", "abc"] {
        let r = env.client("member").add_apns_token(bad, Some("org.example.topicterm")).await;
        assert_err(r, "BAD_REQUEST", "Invalid APNS token");
    }
    assert!(apns_tokens(&env, "member").is_empty());
}

#[tokio::test]
async fn appid_is_required_at_this_feature_level() {
    let env = Env::start().await;
    let e = assert_err(
        env.client("member").add_apns_token("c0ffee", None).await,
        "REQUEST_VARIABLE_MISSING",
        "appid",
    );
    assert_eq!(e.status, 400);
    assert!(apns_tokens(&env, "member").is_empty());
}

#[tokio::test]
async fn appid_is_optional_before_feature_level_223() {
    let env = Env::start_with(ServerOptions { feature_level: 200, ..Default::default() }).await;
    env.client("member").add_apns_token("c0ffee", None).await.unwrap();
    assert_eq!(apns_tokens(&env, "member"), vec![("c0ffee".into(), None)]);
}
