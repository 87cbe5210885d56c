//! People in `--low-bandwidth` (issue 39): register lists neither the users nor the user groups
//! (most of its bytes in a large organization), so only some people are known — the user,
//! whoever a message names (`Data::insert_stored` → `Users::learn`), and the people of the
//! direct-message rows shown, read one by one (`GET /users/{id}`). What must see everyone asks
//! for the whole list once, on its first need (`GET /users`: a name typed for a recipient, name
//! completion, the people pane), saying so and waiting — a name is never picked from the
//! partial list, as someone not known may hold it; the groups likewise (`GET /user_groups`:
//! group completion, `:group`, a profile). A prompt that waited is answered again once the list
//! is read. The system bots (register's `cross_realm_bots`, which come only with the whole list
//! of users) are named by their messages: a DM row's newest is read for them.

use super::common::*;
use super::prelude::*;
use crate::app::msg::{Answer, Failure};
use crate::app::people::{READING_GROUPS, READING_PEOPLE};
use crate::app::users::{WANT_GROUPS, WANT_PEOPLE};

/// At most this many people of the rows shown are read one by one after register.
const NAMED_AT_START: usize = 10;

/// A register answer in `--low-bandwidth` (before anything is built from it): only some users
/// are known from now on, and no groups; the user is known by what register says of them.
pub(super) fn on_registered(st: &mut State, r: &RegisterResponse) {
    if !st.settings.low_bandwidth || r.realm_users.is_some() {
        return;
    }
    let users = &mut st.data.users;
    users.start_partial();
    if let (Some(id), Some(name)) = (r.user_id, &r.full_name) {
        // The reference sends no `role` at the top level: the flags say it.
        let flag = |f: Option<bool>| f.unwrap_or(false);
        let role = r.role.unwrap_or(match () {
            _ if flag(r.is_owner) => 100,
            _ if flag(r.is_admin) => 200,
            _ if flag(r.is_moderator) => 300,
            _ if flag(r.is_guest) => 600,
            _ => 400,
        });
        users.learn_self(id, name, r.email.as_deref().unwrap_or(""), role);
    }
}

/// The people of the direct-message rows shown whom no message named yet: read one by one.
pub(super) fn name_rows(st: &mut State) -> Vec<Effect> {
    if !st.data.users.is_partial() {
        return vec![];
    }
    let ids: Vec<UserId> = recent_dms(&st.data, DM_ROWS).into_iter().flatten().collect();
    // Their reads noted: the events about them meanwhile win over the answers.
    let ids = st.data.users.reading_alone(ids, NAMED_AT_START);
    ids.into_iter().map(|u| Effect::Api(ApiCall::User(u))).collect()
}

/// Before every `Msg`: the user's own doing (a key, a paste, a click, the wheel) lets what
/// failed be asked again at its next need — an answer needing it too (the groups read for the
/// same completion, a topic list) does not ask again at once what just failed.
pub(super) fn before(st: &mut State, msg: &Msg) {
    if matches!(
        msg,
        Msg::Key(_)
            | Msg::Paste(_)
            | Msg::Scroll { .. }
            | Msg::ClickSidebar(_)
            | Msg::ClickMessage(_)
            | Msg::ClickOrganization(_)
    ) {
        st.data.users.may_ask_again();
    }
}

/// After every `Msg`: what readers needed and the store lacks is asked for, once, and said.
pub(super) fn follow(st: &mut State) -> Vec<Effect> {
    let wants = st.data.users.take_wants();
    let mut fx = Vec::new();
    let said = st.ui.status.as_ref().is_some_and(|s| s.text.contains(READING_PEOPLE));
    if wants & WANT_PEOPLE != 0 {
        fx.push(Effect::Api(ApiCall::People));
        if !said {
            set_status(st, READING_PEOPLE);
        }
    }
    if wants & WANT_GROUPS != 0 {
        fx.push(Effect::Api(ApiCall::Groups));
        if wants & WANT_PEOPLE == 0 && !st.ui.status.as_ref().is_some_and(|s| s.text.contains(READING_GROUPS))
        {
            set_status(st, READING_GROUPS);
        }
    }
    fx
}

/// Whether [`on_answer`] takes this call's answer.
pub(super) fn answers(call: &ApiCall) -> bool {
    matches!(call, ApiCall::User(_) | ApiCall::PeopleOf(_) | ApiCall::People | ApiCall::Groups)
}

/// One user, the whole list or the groups read (or not).
pub(super) fn on_answer(st: &mut State, call: ApiCall, result: Result<Answer, Failure>) -> Vec<Effect> {
    match (call, result) {
        (ApiCall::User(_), Ok(Answer::User(u))) => {
            st.data.users.on_user(&u);
            rebuild_sidebar(st);
            vec![]
        }
        (ApiCall::People, Ok(Answer::People(list))) => {
            st.data.users.on_people(list);
            rebuild_sidebar(st);
            rebuild_people(st);
            answered(st, READING_PEOPLE, "the people list is read")
        }
        (ApiCall::Groups, Ok(Answer::Groups(list))) => {
            st.data.users.on_groups(list);
            answered(st, READING_GROUPS, "the user groups are read")
        }
        (ApiCall::PeopleOf(_), Ok(Answer::Messages(messages))) => {
            messages.iter().for_each(|m| st.data.users.learn_from(m));
            rebuild_sidebar(st);
            vec![]
        }
        (call, Ok(_)) => {
            tracing::warn!("{call:?}: an answer of another kind");
            vec![]
        }
        // A name not read stays "…": said nowhere, it is asked again with the next rows. One
        // the server refuses to describe alone is a system bot (Notification Bot is of no
        // organization: `GET /users/{id}` refuses it and `GET /users` leaves it out): the
        // newest message of its DM row names it.
        (ApiCall::User(u), Err(f)) => {
            tracing::info!("user {u} not read: {f:?}");
            st.data.users.user_not_read(u);
            let refused = matches!(&f, Failure::Api(e) if !e.is_transient());
            let newest =
                st.data.recent_dms().iter().filter(|(key, _)| key.contains(&u)).map(|(_, id)| *id).max();
            match newest {
                Some(id) if refused => vec![Effect::Api(ApiCall::PeopleOf(id))],
                _ => vec![],
            }
        }
        (ApiCall::PeopleOf(id), Err(f)) => {
            tracing::info!("the people of message {id} not read: {f:?}");
            vec![]
        }
        (call, Err(f)) => {
            let (what, words) = if call == ApiCall::People {
                (WANT_PEOPLE, "the people list")
            } else {
                (WANT_GROUPS, "the user groups")
            };
            st.data.users.ask_failed(what);
            let why = super::answers::failure_for(st, &call, &f);
            set_error(st, format!("{words} could not be read: {why}; asked again when needed"));
            vec![]
        }
    }
}

/// Register's users (and groups) read off the first frame's path: what waited on them goes
/// on, as when the list is read in `--low-bandwidth`.
pub(super) fn on_roll(st: &mut State) -> Vec<Effect> {
    answered(st, READING_PEOPLE, "the people list is read")
}

/// What waited on the list goes on: a prompt refused with "reading …" is answered again; a
/// completion waiting (in the compose box or a prompt) suggests again; the status says so.
fn answered(st: &mut State, waiting: &str, done: &str) -> Vec<Effect> {
    let status = st.ui.status.as_ref().filter(|s| s.text.contains(waiting));
    let (waited, refused) = (status.is_some(), status.is_some_and(|s| s.error));
    if refused && let Some(p) = st.ui.prompt.take() {
        st.ui.status = None;
        return super::prompt::submit_prompt(st, p);
    }
    if waited {
        set_status(st, done);
    }
    if st.ui.compose.is_some() && st.ui.prompt.is_none() {
        // A Tab pressed while the list was read completes now, as it would have.
        let tab = st.ui.compose.as_mut().and_then(|c| c.tab.take());
        let fx = super::compose::suggest(st);
        if let Some(back) = tab {
            super::complete::compose(st, back);
        }
        fx
    } else if st.ui.prompt.as_ref().is_some_and(|p| super::complete::completes(p.kind))
        && st.ui.completion.cycle.is_none()
    {
        // A Tab pressed while the list was read completes now, as it would have.
        match st.ui.completion.tab {
            Some(back) => super::complete::prompt(st, back),
            None => super::complete::suggest(st),
        }
    } else {
        vec![]
    }
}
