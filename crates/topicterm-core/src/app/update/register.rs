//! What a register answer changes: the whole store, a resync of every loaded window, and the
//! derived rows of the channels and people panes.

use super::common::*;
use super::navigation::*;
use super::prelude::*;
use crate::app::roster::{Roll, Roster};

pub(super) fn on_registered(st: &mut State, mut r: RegisterResponse) -> Vec<Effect> {
    // The server's answer (a kept session's has no queue): its newest message, for the first page.
    let newest = r.queue_id.is_some().then_some(r.max_message_id);
    if st.ui.conn.back_online() {
        set_status(st, "back online");
    }
    let keep = st.keep_session;
    if st.ui.conn.registered(keep) {
        set_status(st, "up to date");
    }
    super::people_list::on_registered(st, &r);
    // The users are read off the first frame's path (`app::roster`); events wait for them.
    let read_users = roster_of(&mut st.data, &mut r);
    // The rest of the data as the answer says: the messages held from before (the last
    // session, a lost queue) read or not as it says now.
    st.data.on_register(&r);
    st.ui.conn.loaded();
    let drafts_fx = super::server_drafts::on_register(st, r.drafts.clone(), r.user_settings.as_ref());
    super::user_settings::follow(st);
    rebuild_sidebar(st);
    rebuild_people(st);
    // A first view that names people waits for them.
    let search_start = matches!(st.settings.start, Some(crate::app::settings::StartNarrow::Search(_)));
    if !(search_start && st.data.users.is_reading()) {
        apply_start(st);
    }
    // After a lost queue, every loaded window may have missed messages, edits and deletions:
    // each is asked again, what it holds and what came after (`resync_narrows`); the answer
    // takes its place, so nothing is doubled or kept after deletion.
    let mut fx: Vec<Effect> = read_users.into_iter().collect();
    // The user's home view (`web_home_view`) where the config names no first view: once, at
    // the server's first answer.
    if newest.is_some() && st.ui.conn.take_home_due() {
        fx.extend(home_view(st));
    }
    fx.extend(resync_narrows(st));
    fx.extend(drafts_fx);
    // The first page asked for with register: applied now if it came first, or awaited.
    if let Some(max_message_id) = newest {
        fx.extend(super::cold_start::on_registered(st, max_message_id));
    }
    fx.extend(super::people_list::name_rows(st));
    // The shown narrow keeps its selection when it is being resynchronised.
    if !st.data.views.contains(&st.ui.narrow) && st.settings.start.is_none() {
        fx.extend(open_shown(st));
    }
    fx.extend(super::outbox::pump(st));
    // The last session's unfinished `:archive` goes on, now that the server answers.
    let left = if newest.is_some() { st.ui.backfill.take_left_by_last_session() } else { vec![] };
    if !left.is_empty() {
        let targets = left;
        fx.extend(super::palette_settings::start_backfill(st, targets, "archiving resumes:"));
    }
    // Older than supported: said, with the server's version; what works still works.
    if let Some(warning) = too_old(&r) {
        set_error(st, warning);
    } else if let Some(lacked) = lacked(&r) {
        set_status(st, lacked);
    }
    if let Some(q) = st.data.queue_id().map(str::to_owned) {
        fx.push(Effect::PollEvents {
            queue_id: q,
            last_event_id: st.data.last_event_id(),
            timeout_secs: st.data.realm.timing.longpoll_timeout,
        });
    }
    fx
}

/// The users and groups of register, to be read off the main task (`Effect::ReadUsers`); the
/// event batches wait for them.
fn roster_of(d: &mut Data, r: &mut RegisterResponse) -> Option<Effect> {
    let lists: Vec<(Later<User>, bool)> = [
        (r.realm_users.take(), true),
        (r.realm_non_active_users.take(), false),
        (r.cross_realm_bots.take(), true),
    ]
    .into_iter()
    .filter_map(|(list, active)| Some((list?, active)))
    .collect();
    let groups = r.realm_user_groups.take();
    (!lists.is_empty() || groups.is_some()).then(|| {
        let epoch = d.views.next_epoch();
        d.users.reading(epoch);
        let statuses = r.user_status.take().unwrap_or_default();
        Effect::ReadUsers { epoch, roster: Box::new(Roster { lists, statuses, groups }) }
    })
}

/// What the server's answer lacked and was read on its own, in words (said once per register).
fn lacked(r: &RegisterResponse) -> Option<String> {
    let words: Vec<&str> = r
        .lacked
        .iter()
        .map(|l| match *l {
            "realm_users" => "the users",
            "subscriptions" => "your channels",
            other => other,
        })
        .collect();
    (!words.is_empty())
        .then(|| format!("the server's answer lacked {}: read on their own", words.join(" and ")))
}

/// A server older than the oldest supported, in words (what works still works).
fn too_old(r: &RegisterResponse) -> Option<String> {
    if r.zulip_feature_level >= crate::api::levels::OLDEST_SUPPORTED {
        return None;
    }
    let version = if r.zulip_version.is_empty() {
        "an old version".to_owned()
    } else {
        format!("Zulip {}", r.zulip_version)
    };
    Some(format!(
        "this server runs {version} (feature level {}); topicterm supports Zulip 7.0 and later: some actions will fail",
        r.zulip_feature_level
    ))
}

/// The users are read: the map replaces the one held (register lists everyone), the rows that
/// name people are drawn again, a first view that names people is opened, and the event
/// batches that waited are given back, in order, to be applied. Users of an earlier register
/// (another came meanwhile) are dropped.
pub(super) fn on_users(st: &mut State, epoch: u64, roll: Roll) -> (Vec<Effect>, Vec<Vec<Event>>) {
    let Some(held) = st.data.users.on_roster(epoch, roll.users, roll.groups) else { return (vec![], vec![]) };
    rebuild_sidebar(st);
    rebuild_people(st);
    // What needed everyone meanwhile (a Tab, a recipient by name) waited: it goes on now.
    let mut fx = super::people_list::on_roll(st);
    if st.settings.start.is_some() {
        apply_start(st);
        if !st.data.views.contains(&st.ui.narrow) {
            fx.extend(open_shown(st));
        }
    }
    (fx, held)
}

/// Every loaded window asked again (`Views::resync`): from its newest message back over all it
/// holds (`resync_before`) and on to what came after.
pub(super) fn resync_narrows(st: &mut State) -> Vec<Effect> {
    let me = st.data.me;
    let mut fx = Vec::new();
    // What the lost queue said no longer concerns any page: these are asked after it.
    st.data.messages.forget_told();
    // Windows still loading or empty are loaded anew when shown; pages asked for before the
    // loss are dropped: these replace them.
    for (narrow, newest, held, epoch) in st.data.views.resync() {
        fx.push(Effect::FetchMessages {
            terms: narrow.terms(me),
            narrow,
            anchor: Anchor::Id(newest),
            before: resync_before(held),
            after: RESYNC_AFTER,
            older: false,
            epoch,
        });
    }
    fx
}

/// The web app's home view as the user set it (`web_home_view`): the inbox or the recent
/// conversations open over the first view; all messages (or a server without the setting, before
/// level 219) is the first view as it is.
fn home_view(st: &mut State) -> Vec<Effect> {
    if st.ui.popup.is_some() {
        return vec![];
    }
    match st.data.user_settings().web_home_view.as_deref() {
        Some("inbox") => super::inbox::open(st),
        // `recent` from level 454, `recent_topics` before.
        Some("recent" | "recent_topics") => super::recent::open_recent(st),
        _ => vec![],
    }
}

/// Open the configured first view, once the organization is known (called on register).
/// A search naming an unknown channel or user stays on all messages and says why.
pub(super) fn apply_start(st: &mut State) {
    let Some(start) = st.settings.start.take() else { return };
    st.ui.narrow = match start {
        crate::app::settings::StartNarrow::All => Narrow::All,
        crate::app::settings::StartNarrow::AllDms => Narrow::AllDms,
        crate::app::settings::StartNarrow::Starred => Narrow::Starred,
        crate::app::settings::StartNarrow::Mentions => Narrow::Mentions,
        crate::app::settings::StartNarrow::Search(q) => match parse_search(&q, &st.data) {
            Ok(terms) => crate::app::settings::narrow_of(&q, terms, st.data.me),
            Err(e) => {
                st.ui.status =
                    Some(Status { text: format!("config: start = {q:?}: {e}"), error: true, at: st.now });
                Narrow::All
            }
        },
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::settings::StartNarrow;
    use crate::app::update::tests::ME;
    use crate::app::update::update;
    use serde_json::json;

    fn answer(queue: &str, names: &[(i64, &str)]) -> RegisterResponse {
        let users: Vec<_> = names
            .iter()
            .map(|(id, n)| json!({"user_id": id, "full_name": n, "email": format!("u{id}@x")}))
            .collect();
        serde_json::from_value(json!({
            "queue_id": queue, "last_event_id": -1, "zulip_feature_level": 496, "user_id": ME,
            "realm_users": users, "subscriptions": [],
        }))
        .unwrap()
    }

    /// What the network task answers to the `Effect::ReadUsers` among `fx`.
    fn users_read(fx: &[Effect]) -> Msg {
        let Some(Effect::ReadUsers { epoch, roster }) =
            fx.iter().find(|e| matches!(e, Effect::ReadUsers { .. }))
        else {
            panic!("the users are not asked to be read: {fx:?}")
        };
        Msg::Users { epoch: *epoch, roll: Box::new((**roster).clone().read()) }
    }

    #[test]
    fn register_is_applied_before_its_users_are_read_and_events_wait_for_them() {
        let mut st = State::default();
        let fx = update(&mut st, Msg::Registered(Box::new(answer("q1", &[(ME, "Me"), (11, "Alice")]))));
        let users = users_read(&fx);
        assert!(!st.ui.conn.loading(), "the organization is shown");
        assert!(st.data.users.is_empty());
        assert_eq!(
            st.data.user_name(11),
            crate::app::users::NOT_YET,
            "a name not yet read says so, not '(unknown user)'"
        );
        // An event about a user waits for the map that lists them.
        let rename = Event::decode(json!({
            "id": 0, "type": "realm_user", "op": "update", "person": {"user_id": 11, "full_name": "Alicia"},
        }));
        update(&mut st, Msg::Events(vec![rename]));
        assert_eq!(st.data.last_event_id(), -1, "held, not applied");
        update(&mut st, users);
        assert_eq!(st.data.user_name(11), "Alicia", "the held event applied to the map read");
        assert_eq!(st.data.user_name(ME), "Me");
        assert_eq!(st.data.user_name(12), "(unknown user)");
        assert_eq!(st.data.last_event_id(), 0);
        assert!(!st.data.users.is_reading(), "nothing held any more");
    }

    /// While register's users are being read off the first frame's path, what must see
    /// everyone answers from no partial list: the people and groups are not listed, a
    /// recipient typed by name waits and says so, and nothing is asked of the server (they are
    /// on their way). Once read, the recipient is answered again: the compose box opens to them.
    #[test]
    fn what_needs_everyone_waits_while_the_users_are_read_then_goes_on() {
        use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
        let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
        let mut st = State::default();
        let fx =
            update(&mut st, Msg::Registered(Box::new(answer("q1", &[(ME, "Me"), (11, "Alice Okafor")]))));
        let users = users_read(&fx);
        let u = &st.data.users;
        assert!(u.all().is_none() && u.all_groups().is_none(), "no list from the users not read yet");
        assert!(matches!(u.person("Alice Okafor"), Err(crate::app::people::NameError::NotListed { .. })));
        assert!(u.awaits_list(), "a Tab waits for the list");
        let mut asked = Vec::new();
        asked.extend(update(&mut st, key(KeyCode::Char('x'))));
        for c in "Alice Okafor".chars() {
            asked.extend(update(&mut st, key(KeyCode::Char(c))));
        }
        asked.extend(update(&mut st, key(KeyCode::Enter)));
        assert!(!asked.iter().any(|e| matches!(e, Effect::Api(_))), "nothing asked of the server: {asked:?}");
        assert!(st.ui.compose.is_none(), "no one picked before the list is read");
        let said = st.ui.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
        assert!(said.contains(crate::app::people::READING_PEOPLE), "{said}");
        update(&mut st, users);
        assert_eq!(st.data.users.person("Alice Okafor"), Ok(11));
        assert!(st.ui.compose.is_some(), "the recipient answered again once the list is read");
    }

    /// The user groups (half a megabyte in a large organization) are read with the users, off
    /// the first frame's path, and a group event waits for them as a user event does.
    #[test]
    fn the_user_groups_are_read_with_the_users() {
        let mut st = State::default();
        let mut r = answer("q1", &[(ME, "Me")]);
        r.realm_user_groups =
            Some(serde_json::from_str(r#"[{"id": 7, "name": "backend", "members": [1]}]"#).unwrap());
        let fx = update(&mut st, Msg::Registered(Box::new(r)));
        assert_eq!(st.data.users.groups().count(), 0, "not read yet");
        let added = Event::decode(json!({
            "id": 0, "type": "user_group", "op": "add",
            "group": {"id": 8, "name": "frontend", "members": [], "direct_subgroup_ids": [], "description": ""},
        }));
        update(&mut st, Msg::Events(vec![added]));
        update(&mut st, users_read(&fx));
        assert_eq!(st.data.users.group(7).map(|g| g.name.as_str()), Some("backend"));
        assert_eq!(
            st.data.users.group(8).map(|g| g.name.as_str()),
            Some("frontend"),
            "the held event applied after"
        );
    }

    #[test]
    fn the_users_of_an_earlier_register_are_dropped() {
        let mut st = State::default();
        let first = update(&mut st, Msg::Registered(Box::new(answer("q1", &[(11, "Old")]))));
        let second = update(&mut st, Msg::Registered(Box::new(answer("q2", &[(11, "New")]))));
        update(&mut st, users_read(&second));
        update(&mut st, users_read(&first));
        assert_eq!(st.data.user_name(11), "New");
    }

    #[test]
    fn a_first_view_that_names_people_opens_once_they_are_read() {
        let mut st = State::default();
        st.settings.start = Some(StartNarrow::Search("dm:u11@x".into()));
        let fx = update(&mut st, Msg::Registered(Box::new(answer("q1", &[(ME, "Me"), (11, "Alice")]))));
        assert!(
            !fx.iter().any(|e| matches!(e, Effect::FetchMessages { .. })),
            "nothing opened before the people are known: {fx:?}"
        );
        let fx = update(&mut st, users_read(&fx));
        assert!(st.ui.status.as_ref().is_none_or(|s| !s.error), "{:?}", st.ui.status);
        assert_eq!(st.ui.narrow, Narrow::Dm(vec![11]));
        assert!(
            fx.iter().any(|e| matches!(e, Effect::FetchMessages { narrow: Narrow::Dm(u), .. } if *u == [11]))
        );
    }
}
