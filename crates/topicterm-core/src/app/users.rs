//! Users and user groups, with their presence and status, and the users the user muted: the one
//! owner of who is in the organization, as zulip-flutter's `UserStore`. Its fields are private:
//! the users arrive whole when the roster is read (`app::roster`, off the first frame's path),
//! register's answer gives the presence and the muted users, and the server's `realm_user`,
//! `user_group`, `presence`, `user_status` and `muted_users` events change it only through its
//! methods, each costing what the event changes. The index of who holds which full name
//! (`app::people::Names`) is kept by the same calls that change a name, so the two cannot part.
//! With `--low-bandwidth` the users and groups read on demand may be older than the events that
//! came while they were on their way: those win (`since`). A leaf.

mod since;

use super::people::{NameError, Names, Person};
use crate::api::{
    Event, GroupSettingValue, ModernPresence, MutedUser, PresenceEvent, Presences, RealmUserEvent,
    RegisterResponse, User, UserGroup, UserGroupEvent, UserId, UserStatus, UserStatusEvent,
};
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// A user as the client needs them.
#[derive(Debug, Clone, PartialEq)]
pub struct UserInfo {
    pub id: UserId,
    pub full_name: String,
    pub email: String,
    pub is_bot: bool,
    pub is_active: bool,
    /// False: invisible; always shown offline.
    pub presence_enabled: bool,
    pub status: UserStatus,
    /// 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.
    pub role: i64,
}

impl UserInfo {
    pub fn is_admin(&self) -> bool {
        self.role <= 200
    }
}

/// A user's role from the fields servers send (`role` since level 59, else the booleans).
pub fn role_of(role: Option<i64>, is_owner: bool, is_admin: bool, is_guest: bool) -> i64 {
    role.unwrap_or(if is_owner {
        100
    } else if is_admin {
        200
    } else if is_guest {
        600
    } else {
        400
    })
}

/// A name while the users are still being read (`app::roster`: for a few milliseconds after the
/// first frame).
pub const NOT_YET: &str = "…";

/// A user's presence as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Active,
    Idle,
    Offline,
}

/// Who is in the organization, their groups, presence and status, and whom the user muted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Users {
    by_id: HashMap<UserId, UserInfo>,
    /// Who holds which full name: changed with every name in `by_id`.
    names: Names,
    groups: HashMap<i64, UserGroup>,
    presence: HashMap<UserId, ModernPresence>,
    presence_last_update_id: i64,
    /// Users whose messages are hidden behind a "muted sender" line and never notify.
    muted: HashSet<UserId>,
    /// The users are being read off the main task (`app::roster`): the epoch of the
    /// `Effect::ReadUsers` awaited, and the event batches that wait for it, in order.
    due: Option<u64>,
    held: Vec<Vec<Event>>,
    /// Only some users are known (`--low-bandwidth`: register lists no one): those learnt from
    /// messages and read one by one, until the whole list is read (`on_people`).
    partial: bool,
    /// The groups are not known (`--low-bandwidth`) until read (`on_groups`).
    groups_unknown: bool,
    /// What a reader needed and this store lacks (`WANT_PEOPLE`, `WANT_GROUPS`), asked for
    /// after the `Msg` (`take_wants`); what was asked and not answered yet; what was asked and
    /// not read, asked again only at the user's next doing (`may_ask_again`), not at once by
    /// an answer that happens to need it too.
    wants: Cell<u8>,
    asked: u8,
    failed: u8,
    /// The `realm_user` events since each read of users on its way was asked (`None`: the
    /// whole list; `Some(id)`: one user), and the `user_group` events since the groups were:
    /// applied again over the answer, which may be older than they are.
    user_reads: since::Since<Option<UserId>, RealmUserEvent>,
    group_reads: since::Since<(), UserGroupEvent>,
}

/// The whole list of users is needed.
pub const WANT_PEOPLE: u8 = 1;
/// The user groups are needed.
pub const WANT_GROUPS: u8 = 2;

impl Users {
    /// What register's answer says of people besides the users themselves (those are read off
    /// the main task, `reading`): the presence, from where presence pings go on, and the muted
    /// users. The users and groups held stay until the roster is read.
    pub fn on_register(&mut self, r: &RegisterResponse) {
        self.muted = r.muted_users.iter().flatten().map(|m| m.id).collect();
        if let Some(p) = &r.presences {
            self.presence = p.modern();
        }
        self.presence_last_update_id = r.presence_last_update_id.unwrap_or(-1);
    }

    /// Only some users are known from now on, and no groups (`--low-bandwidth`'s register,
    /// which lists neither): people are learnt from messages (`learn`) and read when needed.
    pub fn start_partial(&mut self) {
        self.partial = true;
        self.groups_unknown = true;
        self.groups.clear();
        self.asked = 0;
        self.failed = 0;
        self.user_reads.clear();
        self.group_reads.clear();
    }

    /// Whether only some users are known (a name may belong to someone not known here).
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// Whether the groups are not known (`--low-bandwidth`, until read).
    pub fn groups_unknown(&self) -> bool {
        self.groups_unknown
    }

    /// Whether a list a reader needed (the people, the groups) is wanted or on its way: what
    /// found nothing meanwhile may find it once it is in.
    pub fn awaits_list(&self) -> bool {
        (self.wants.get() | self.asked) & (WANT_PEOPLE | WANT_GROUPS) != 0 || self.is_reading()
    }

    /// A reader needs what `what` says and this store lacks: asked for after the `Msg`, once.
    fn want(&self, what: u8) {
        let lacking = (if self.partial { WANT_PEOPLE } else { 0 })
            | (if self.groups_unknown { WANT_GROUPS } else { 0 });
        self.wants.set(self.wants.get() | (what & lacking & !self.asked & !self.failed));
    }

    /// The groups are needed (a profile shows them): asked for where they are not known.
    pub fn need_groups(&self) {
        self.want(WANT_GROUPS);
    }

    /// What readers needed since the last call, now asked for (each once until answered).
    pub fn take_wants(&mut self) -> u8 {
        let w = self.wants.replace(0);
        self.asked |= w;
        if w & WANT_PEOPLE != 0 {
            self.user_reads.asked(None);
        }
        if w & WANT_GROUPS != 0 {
            self.group_reads.asked(());
        }
        w
    }

    /// An asking failed: it is asked again at the next need after the user's next doing.
    pub fn ask_failed(&mut self, what: u8) {
        self.asked &= !what;
        self.failed |= what;
        if what & WANT_PEOPLE != 0 {
            self.user_reads.answered(&None);
        }
        if what & WANT_GROUPS != 0 {
            self.group_reads.answered(&());
        }
    }

    /// One user is asked for now (`GET /users/{id}`, a profile), while only some are known.
    pub fn reading_user(&mut self, id: UserId) {
        if self.partial {
            self.user_reads.asked(Some(id));
        }
    }

    /// Those of `ids` not known, at most `n`, each to be read alone (`GET /users/{id}`), their
    /// reads noted (`reading_user`); none once everyone is known.
    pub fn reading_alone(&mut self, mut ids: Vec<UserId>, n: usize) -> Vec<UserId> {
        if !self.partial {
            return vec![];
        }
        ids.retain(|u| !self.by_id.contains_key(u));
        ids.sort_unstable();
        ids.dedup();
        ids.truncate(n);
        for u in &ids {
            self.user_reads.asked(Some(*u));
        }
        ids
    }

    /// One user read (`reading_user`): learnt, then the events about them that came since the
    /// asking applied again (the answer may be older). Once everyone is known the list and the
    /// events keep them: the answer is not needed.
    pub fn on_user(&mut self, u: &User) {
        let since = self.user_reads.answered(&Some(u.user_id));
        if !self.partial {
            return;
        }
        self.learn_user(u);
        for ev in since.iter().filter(|ev| realm_user_id(ev) == Some(u.user_id)) {
            self.apply_realm_user(ev);
        }
    }

    /// One user not read: nothing waits for them.
    pub fn user_not_read(&mut self, id: UserId) {
        self.user_reads.answered(&Some(id));
    }

    /// The user did something (a key, a click): what failed may be asked again when needed.
    pub fn may_ask_again(&mut self) {
        self.failed = 0;
    }

    /// Someone seen on a message (its sender, a DM's participants) and not known: kept under
    /// that name until the server says more — while only some users are known
    /// (`--low-bandwidth`), and the system bots whom no list of the organization's users holds
    /// there (`GET /users` leaves them out, `GET /users/{id}` refuses them; register's
    /// `cross_realm_bots` come only with all the users). One already known stays as known (an
    /// older message may carry an older name; `realm_user` events keep names).
    pub fn learn(&mut self, id: UserId, full_name: &str, email: &str) {
        if full_name.is_empty() || self.by_id.contains_key(&id) {
            return;
        }
        self.learn_self(id, full_name, email, 400);
    }

    /// The people a message names (its sender, a DM's participants), learnt as [`Users::learn`].
    pub fn learn_from(&mut self, m: &crate::api::Message) {
        self.learn(m.sender_id, &m.sender_full_name, &m.sender_email);
        if let crate::api::DisplayRecipient::Users(people) = &m.display_recipient {
            people.iter().for_each(|r| self.learn(r.id, &r.full_name, &r.email));
        }
    }

    /// The user themself, as register says (`GET /users/me` in `--low-bandwidth`).
    pub fn learn_self(&mut self, id: UserId, full_name: &str, email: &str, role: i64) {
        if let Some(old) = self.by_id.remove(&id) {
            self.names.remove(id, &old.full_name);
        }
        self.names.add(id, full_name);
        self.by_id.insert(
            id,
            UserInfo {
                id,
                full_name: full_name.to_owned(),
                email: email.to_owned(),
                is_bot: false,
                is_active: true,
                presence_enabled: true,
                status: UserStatus::default(),
                role,
            },
        );
    }

    /// A user's whole record from the server (their profile, `GET /users/me`, `GET /users/{id}`).
    pub fn learn_user(&mut self, u: &User) {
        let old = self.by_id.remove(&u.user_id);
        if let Some(old) = &old {
            self.names.remove(old.id, &old.full_name);
        }
        let status = old.map(|o| o.status).unwrap_or_default();
        self.names.add(u.user_id, &u.full_name);
        self.by_id.insert(u.user_id, info_of(u, u.is_active, status));
    }

    /// The whole list of users read (`GET /users`, which lists the deactivated too): it
    /// replaces what was learnt of them; those it leaves out (the system bots) stay.
    /// The events that came since it was asked are applied again over it: a rename or a
    /// deactivation the answer is older than is not undone.
    pub fn on_people(&mut self, list: Vec<User>) {
        self.asked &= !WANT_PEOPLE;
        for u in &list {
            self.learn_user(u);
        }
        self.partial = false;
        for ev in self.user_reads.answered(&None) {
            self.apply_realm_user(&ev);
        }
    }

    /// The user groups read (`GET /user_groups`), and the group events since the asking
    /// applied again over them (members added twice are kept once).
    pub fn on_groups(&mut self, list: Vec<UserGroup>) {
        self.asked &= !WANT_GROUPS;
        self.groups = list.into_iter().map(|g| (g.id, g)).collect();
        self.groups_unknown = false;
        let since = self.group_reads.answered(&());
        for ev in &since {
            self.apply_group(ev);
        }
        for ev in &since {
            if let Some(g) = group_id(ev).and_then(|id| self.groups.get_mut(&id)) {
                g.members.sort_unstable();
                g.members.dedup();
                g.direct_subgroup_ids.sort_unstable();
                g.direct_subgroup_ids.dedup();
            }
        }
    }

    /// Every user, for what must see them all (completion, the people pane): `None` while only
    /// some are known, the whole list then asked for.
    /// While register's users are being read (`is_reading`), `None` too: they come whole.
    pub fn all(&self) -> Option<impl Iterator<Item = &UserInfo> + '_> {
        self.want(WANT_PEOPLE);
        (!self.partial && !self.is_reading()).then(|| self.by_id.values())
    }

    /// Every group, for what must see them all: `None` while they are not known, then asked for
    /// (or being read with register's users).
    pub fn all_groups(&self) -> Option<impl Iterator<Item = &UserGroup> + '_> {
        self.want(WANT_GROUPS);
        (!self.groups_unknown && !self.is_reading()).then(|| self.groups.values())
    }

    /// The one person `who` names, by the rule of `app::people`. While only some users are
    /// known, only an ID or an email of a known user decides: a full name (anyone may hold it)
    /// or someone not known waits for the whole list, which is asked for (or, while register's
    /// users are being read, comes by itself).
    pub fn person(&self, who: &str) -> Result<UserId, NameError> {
        let found = super::people::person(self.people(), |id| self.contains(id), who);
        let whole = !self.partial && !self.is_reading();
        if whole || (found.is_ok() && super::people::decides_alone(who)) {
            return found;
        }
        self.want(WANT_PEOPLE);
        Err(NameError::NotListed { who: who.trim().to_owned() })
    }

    /// The users are being read, by the `Effect::ReadUsers` of this epoch: event batches wait.
    pub fn reading(&mut self, epoch: u64) {
        self.due = Some(epoch);
    }

    /// Whether the users are still being read.
    pub fn is_reading(&self) -> bool {
        self.due.is_some()
    }

    /// A batch of events while the users are read: kept, to be applied after (`None`); else
    /// given back to be applied now.
    pub fn hold(&mut self, events: Vec<Event>) -> Option<Vec<Event>> {
        if self.due.is_none() {
            return Some(events);
        }
        self.held.push(events);
        None
    }

    /// The users and groups read for `epoch` (register lists everyone: they replace those
    /// held), and the event batches that waited for them, in order; `None` when they are of an
    /// earlier register (another came meanwhile) and dropped.
    pub fn on_roster(
        &mut self,
        epoch: u64,
        users: HashMap<UserId, UserInfo>,
        groups: HashMap<i64, UserGroup>,
    ) -> Option<Vec<Vec<Event>>> {
        if self.due != Some(epoch) {
            return None;
        }
        self.due = None;
        self.names = Names::of(users.values().map(|u| (u.id, u.full_name.as_str())));
        self.by_id = users;
        self.groups = groups;
        Some(std::mem::take(&mut self.held))
    }

    /// A user joined the organization, or one changed (name, email, active, role); one no
    /// longer seen keeps its ID, under the name the server gives it. Kept while users are read
    /// on demand, to be applied again over the answer.
    pub fn on_realm_user(&mut self, ev: &RealmUserEvent) {
        self.apply_realm_user(ev);
        self.user_reads.record(ev);
    }

    fn apply_realm_user(&mut self, ev: &RealmUserEvent) {
        let p = match ev {
            RealmUserEvent::Add(u) => {
                let info = UserInfo {
                    id: u.user_id,
                    full_name: u.full_name.clone(),
                    email: u.email.clone(),
                    is_bot: u.is_bot,
                    is_active: true,
                    presence_enabled: u.presence_enabled,
                    status: UserStatus::default(),
                    role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
                };
                self.names.add(u.user_id, &u.full_name);
                if let Some(old) = self.by_id.insert(u.user_id, info)
                    && !old.full_name.eq_ignore_ascii_case(&u.full_name)
                {
                    self.names.remove(old.id, &old.full_name);
                }
                return;
            }
            RealmUserEvent::Update(p) | RealmUserEvent::Remove(p) => p,
            RealmUserEvent::Other(_) => return,
        };
        let id = p.user_id;
        let Some(u) = self.by_id.get_mut(&id) else { return };
        if let Some(n) = &p.full_name {
            self.names.remove(id, &u.full_name);
            self.names.add(id, n);
            u.full_name.clone_from(n);
        }
        if let Some(e) = &p.new_email {
            u.email.clone_from(e);
        }
        if let Some(a) = p.is_active {
            u.is_active = a;
        }
        if let Some(r) = p.role {
            u.role = r;
        }
    }

    /// A user's status text or emoji.
    pub fn on_status(&mut self, ev: UserStatusEvent) {
        let Some(u) = self.by_id.get_mut(&ev.user_id) else { return };
        if let Some(t) = ev.status_text {
            u.status.status_text = t;
        }
        if let Some(n) = ev.emoji_name {
            u.status.emoji_name = n;
            u.status.emoji_code = ev.emoji_code.unwrap_or_default();
            u.status.reaction_type = ev.reaction_type.unwrap_or_default();
        }
    }

    /// Who is active: a legacy entry says only the newest time, so no user moves back.
    pub fn on_presence(&mut self, ev: &PresenceEvent) {
        for (id, p) in ev.entries() {
            let e = self.presence.entry(id).or_insert(p);
            e.active_timestamp = e.active_timestamp.max(p.active_timestamp);
            e.idle_timestamp = e.idle_timestamp.max(p.idle_timestamp);
        }
    }

    /// The server's answer to a presence ping: the entries it gives (changed since the last
    /// ping), and where the next ping goes on from.
    pub fn on_ping_answer(&mut self, presences: Option<&Presences>, last_update_id: Option<i64>) {
        if let Some(p) = presences {
            self.presence.extend(p.modern());
        }
        if let Some(id) = last_update_id {
            self.presence_last_update_id = self.presence_last_update_id.max(id);
        }
    }

    /// A user group added, removed, or its members or subgroups changed (kept while the groups
    /// are read on demand, to be applied again over the answer).
    pub fn on_group(&mut self, ev: &UserGroupEvent) {
        self.apply_group(ev);
        self.group_reads.record(ev);
    }

    fn apply_group(&mut self, ev: &UserGroupEvent) {
        let groups = &mut self.groups;
        match ev {
            UserGroupEvent::Add(g) => {
                groups.insert(g.id, g.clone());
            }
            UserGroupEvent::Remove { group_id } => {
                groups.remove(group_id);
            }
            UserGroupEvent::AddMembers { group_id, user_ids } => {
                if let Some(g) = groups.get_mut(group_id) {
                    g.members.extend(user_ids);
                }
            }
            UserGroupEvent::RemoveMembers { group_id, user_ids } => {
                if let Some(g) = groups.get_mut(group_id) {
                    g.members.retain(|m| !user_ids.contains(m));
                }
            }
            UserGroupEvent::AddSubgroups { group_id, subgroup_ids } => {
                if let Some(g) = groups.get_mut(group_id) {
                    g.direct_subgroup_ids.extend(subgroup_ids);
                }
            }
            UserGroupEvent::RemoveSubgroups { group_id, subgroup_ids } => {
                if let Some(g) = groups.get_mut(group_id) {
                    g.direct_subgroup_ids.retain(|m| !subgroup_ids.contains(m));
                }
            }
            UserGroupEvent::Update { .. } | UserGroupEvent::Other(_) => {}
        }
    }

    /// The users the user muted, as the server lists them now (the whole list, each time).
    pub fn on_muted_users(&mut self, muted: &[MutedUser]) {
        self.muted = muted.iter().map(|m| m.id).collect();
    }

    pub fn get(&self, id: UserId) -> Option<&UserInfo> {
        self.by_id.get(&id)
    }

    pub fn contains(&self, id: UserId) -> bool {
        self.by_id.contains_key(&id)
    }

    /// Every user, active or not, in no order.
    pub fn iter(&self) -> impl Iterator<Item = &UserInfo> + '_ {
        self.by_id.values()
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The users called `name` (any case), in no order (O(those)).
    pub fn named<'a>(&'a self, name: &str) -> impl Iterator<Item = &'a UserInfo> + 'a {
        self.names.holders(name).iter().filter_map(|id| self.by_id.get(id))
    }

    /// Whether someone else may be called `name` too (any case): more than one person known is,
    /// or only some people are known (`--low-bandwidth` before the whole list is read), so a
    /// name beside which the email must be shown cannot be told from one that needs none.
    pub fn name_shared(&self, name: &str) -> bool {
        self.partial || self.names.shared(name)
    }

    /// A user's full name: "…" while the users are read, "(unknown user)" for one not known.
    pub fn name(&self, id: UserId) -> &str {
        match self.by_id.get(&id) {
            Some(u) => u.full_name.as_str(),
            None if self.due.is_some() || self.partial => NOT_YET,
            None => "(unknown user)",
        }
    }

    /// A person named as a DM partner: the full name, and beside it the email when someone
    /// else holds the same name or may (anyone can take a name; the email is theirs alone) —
    /// in every mode alike: where not everyone is known, the email is shown.
    pub fn partner_name(&self, id: UserId) -> std::borrow::Cow<'_, str> {
        match self.by_id.get(&id) {
            Some(u) if self.name_shared(&u.full_name) => format!("{} ({})", u.full_name, u.email).into(),
            _ => self.name(id).into(),
        }
    }

    /// The people as the naming rule of `app::people` sees them.
    pub fn people(&self) -> impl Iterator<Item = Person<'_>> + Clone + '_ {
        self.by_id.values().map(|u| Person {
            id: u.id,
            full_name: &u.full_name,
            email: &u.email,
            active: u.is_active,
        })
    }

    pub fn status(&self, id: UserId) -> Option<&UserStatus> {
        self.by_id.get(&id).map(|u| &u.status)
    }

    pub fn presence(&self, id: UserId) -> Option<&ModernPresence> {
        self.presence.get(&id)
    }

    /// Where the next presence ping goes on from.
    pub fn presence_last_update_id(&self) -> i64 {
        self.presence_last_update_id
    }

    /// A user's presence as shown at `now`, with the server's offline threshold (seconds).
    pub fn activity(&self, user: UserId, now: i64, threshold: i64) -> Activity {
        let Some(u) = self.by_id.get(&user) else { return Activity::Offline };
        if !u.presence_enabled {
            return Activity::Offline;
        }
        let Some(p) = self.presence.get(&user) else { return Activity::Offline };
        if now - p.active_timestamp <= threshold {
            Activity::Active
        } else if now - p.idle_timestamp <= threshold {
            Activity::Idle
        } else {
            Activity::Offline
        }
    }

    pub fn is_muted(&self, id: UserId) -> bool {
        self.muted.contains(&id)
    }

    /// The muted users, in no order.
    pub fn muted(&self) -> impl Iterator<Item = UserId> + '_ {
        self.muted.iter().copied()
    }

    pub fn group(&self, id: i64) -> Option<&UserGroup> {
        self.groups.get(&id)
    }

    /// Every user group, in no order.
    pub fn groups(&self) -> impl Iterator<Item = &UserGroup> + '_ {
        self.groups.values()
    }

    /// Whether `user` is among those a group setting names: its direct members, or a member of
    /// one of its groups or their subgroups (each group looked at once). `None` when the groups
    /// are not known yet (nothing can be said).
    pub fn in_group_setting(&self, user: UserId, setting: &GroupSettingValue) -> Option<bool> {
        if self.groups.is_empty() || self.groups_unknown {
            return None;
        }
        let mut todo: Vec<i64> = match setting {
            GroupSettingValue::Group(id) => vec![*id],
            GroupSettingValue::Anonymous { direct_members, .. } if direct_members.contains(&user) => {
                return Some(true);
            }
            GroupSettingValue::Anonymous { direct_subgroups, .. } => direct_subgroups.clone(),
        };
        let mut seen = HashSet::new();
        while let Some(id) = todo.pop() {
            let Some(g) = self.groups.get(&id).filter(|_| seen.insert(id)) else { continue };
            if g.members.contains(&user) {
                return Some(true);
            }
            todo.extend(&g.direct_subgroup_ids);
        }
        Some(false)
    }

    /// Whether the store agrees with itself: each user and group is kept under its own ID, and
    /// the name index lists exactly the users, each under the name they hold. (A group may name
    /// members or subgroups not known here: the server says so, not this store.)
    pub fn check(&self) -> Result<(), String> {
        if let Some((id, u)) = self.by_id.iter().find(|(id, u)| **id != u.id) {
            return Err(format!("user {} is kept under ID {id}", u.id));
        }
        if let Some((id, g)) = self.groups.iter().find(|(id, g)| **id != g.id) {
            return Err(format!("group {} is kept under ID {id}", g.id));
        }
        if let Some(u) = self.by_id.values().find(|u| !self.names.holds(u.id, &u.full_name)) {
            return Err(format!("user {} is not indexed under their name {:?}", u.id, u.full_name));
        }
        if self.names.len() != self.by_id.len() {
            return Err(format!(
                "the name index lists {} people for {} users",
                self.names.len(),
                self.by_id.len()
            ));
        }
        Ok(())
    }
}

/// The user a `realm_user` event is about.
fn realm_user_id(ev: &RealmUserEvent) -> Option<UserId> {
    match ev {
        RealmUserEvent::Add(u) => Some(u.user_id),
        RealmUserEvent::Update(p) | RealmUserEvent::Remove(p) => Some(p.user_id),
        RealmUserEvent::Other(_) => None,
    }
}

/// The group a `user_group` event changes.
fn group_id(ev: &UserGroupEvent) -> Option<i64> {
    match ev {
        UserGroupEvent::Add(g) => Some(g.id),
        UserGroupEvent::Remove { group_id }
        | UserGroupEvent::AddMembers { group_id, .. }
        | UserGroupEvent::RemoveMembers { group_id, .. }
        | UserGroupEvent::AddSubgroups { group_id, .. }
        | UserGroupEvent::RemoveSubgroups { group_id, .. } => Some(*group_id),
        UserGroupEvent::Update { .. } | UserGroupEvent::Other(_) => None,
    }
}

/// A user as the client keeps them, from the server's record.
pub fn info_of(u: &User, active: bool, status: UserStatus) -> UserInfo {
    UserInfo {
        id: u.user_id,
        role: role_of(u.role, u.is_owner, u.is_admin, u.is_guest),
        full_name: u.full_name.clone(),
        email: u.email.clone(),
        is_bot: u.is_bot,
        is_active: active,
        presence_enabled: u.presence_enabled,
        status,
    }
}

/// The user with this ID (as `Store`'s index: a panic when not known).
impl std::ops::Index<&UserId> for Users {
    type Output = UserInfo;
    fn index(&self, id: &UserId) -> &UserInfo {
        &self.by_id[id]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::EventKind;
    use serde_json::{Value, json};

    fn event(v: Value) -> EventKind {
        Event::decode(v).kind
    }

    fn user(id: UserId, name: &str) -> UserInfo {
        UserInfo {
            id,
            full_name: name.into(),
            email: format!("{}@x", name.to_lowercase()),
            is_bot: false,
            is_active: true,
            presence_enabled: true,
            status: UserStatus::default(),
            role: 400,
        }
    }

    /// Ann (1) and Bo (2) read; group 5 "backend" of Ann.
    fn store() -> Users {
        let mut u = Users::default();
        u.reading(1);
        let users = [user(1, "Ann"), user(2, "Bo")].into_iter().map(|u| (u.id, u)).collect();
        let group: UserGroup =
            serde_json::from_value(json!({"id": 5, "name": "backend", "members": [1]})).unwrap();
        assert_eq!(u.on_roster(1, users, [(5, group)].into()), Some(vec![]));
        u.check().unwrap();
        u
    }

    fn apply(u: &mut Users, v: Value) {
        match event(v) {
            EventKind::RealmUser(ev) => u.on_realm_user(&ev),
            EventKind::UserGroup(ev) => u.on_group(&ev),
            EventKind::Presence(ev) => u.on_presence(&ev),
            EventKind::UserStatus(ev) => u.on_status(ev),
            EventKind::MutedUsers { muted_users } => u.on_muted_users(&muted_users),
            other => panic!("not a people event: {other:?}"),
        }
        u.check().unwrap();
    }

    #[test]
    fn events_wait_while_the_users_are_read_and_an_earlier_roster_is_dropped() {
        let mut u = Users::default();
        assert!(!u.is_reading());
        assert_eq!(u.hold(vec![]), Some(vec![]), "nothing read: applied at once");
        u.reading(2);
        assert_eq!(u.name(7), NOT_YET);
        let batch = vec![Event::decode(json!({"id": 1, "type": "muted_users", "muted_users": []}))];
        assert_eq!(u.hold(batch.clone()), None);
        assert_eq!(u.on_roster(1, HashMap::new(), HashMap::new()), None, "of an earlier register");
        assert!(u.is_reading());
        let read = u.on_roster(2, [(7, user(7, "Cy"))].into(), HashMap::new());
        assert_eq!(read, Some(vec![batch]));
        assert!(!u.is_reading());
        assert_eq!((u.name(7), u.name(8)), ("Cy", "(unknown user)"));
        assert_eq!(u.named("cy").map(|u| u.id).collect::<Vec<_>>(), [7]);
        u.check().unwrap();
    }

    #[test]
    fn register_gives_presence_and_the_muted_users_and_keeps_the_users() {
        let mut u = store();
        let r: RegisterResponse = serde_json::from_value(json!({
            "queue_id": "q", "last_event_id": -1, "muted_users": [{"id": 2, "timestamp": 0}],
            "presences": {"1": {"active_timestamp": 100, "idle_timestamp": 90}},
            "presence_last_update_id": 42,
        }))
        .unwrap();
        u.on_register(&r);
        assert!(u.is_muted(2) && !u.is_muted(1));
        assert_eq!(u.muted().collect::<Vec<_>>(), [2]);
        assert_eq!(u.presence(1).map(|p| p.active_timestamp), Some(100));
        assert_eq!(u.presence_last_update_id(), 42);
        assert_eq!(u.len(), 2, "the users wait for the roster");
    }

    #[test]
    fn a_user_added_renamed_changed_and_removed_keeps_the_name_index() {
        let mut u = store();
        apply(
            &mut u,
            json!({"type": "realm_user", "op": "add", "person": {"user_id": 3, "full_name": "Ann", "email": "ann2@x"}}),
        );
        assert!(u.name_shared("ANN"));
        assert_eq!(u.partner_name(3), "Ann (ann2@x)");
        assert_eq!(u.partner_name(2), "Bo");
        // Added again under another name: the old name no longer counts.
        apply(
            &mut u,
            json!({"type": "realm_user", "op": "add", "person": {"user_id": 3, "full_name": "Cy", "email": "cy@x"}}),
        );
        assert!(!u.name_shared("Ann"));
        apply(
            &mut u,
            json!({"type": "realm_user", "op": "update", "person": {"user_id": 2, "full_name": "Ann", "new_email": "b@y", "role": 200}}),
        );
        assert!(u.name_shared("ann"));
        assert_eq!((u[&2].full_name.as_str(), u[&2].email.as_str(), u[&2].is_admin()), ("Ann", "b@y", true));
        assert_eq!(u.named("Bo").count(), 0);
        apply(
            &mut u,
            json!({"type": "realm_user", "op": "update", "person": {"user_id": 2, "is_active": false}}),
        );
        assert!(!u[&2].is_active);
        apply(
            &mut u,
            json!({"type": "realm_user", "op": "remove", "person": {"user_id": 2, "full_name": "Unknown user"}}),
        );
        assert_eq!(u.name(2), "Unknown user", "kept, under the name the server gives");
        assert!(!u.name_shared("Ann"));
        // Someone not known, or an op not known, changes nothing.
        let before = u.clone();
        apply(
            &mut u,
            json!({"type": "realm_user", "op": "update", "person": {"user_id": 99, "full_name": "X"}}),
        );
        apply(&mut u, json!({"type": "realm_user", "op": "merge", "person": {}}));
        assert_eq!(u, before);
    }

    #[test]
    fn a_status_changes_its_text_and_emoji_apart() {
        let mut u = store();
        apply(&mut u, json!({"type": "user_status", "user_id": 1, "status_text": "lunch"}));
        apply(
            &mut u,
            json!({"type": "user_status", "user_id": 1, "emoji_name": "car", "emoji_code": "1f697", "reaction_type": "unicode_emoji"}),
        );
        let s = u.status(1).unwrap();
        assert_eq!(
            (s.status_text.as_str(), s.emoji_name.as_str(), s.emoji_code.as_str()),
            ("lunch", "car", "1f697")
        );
        apply(&mut u, json!({"type": "user_status", "user_id": 1, "emoji_name": ""}));
        assert_eq!(u.status(1).map(|s| (s.status_text.as_str(), s.emoji_code.as_str())), Some(("lunch", "")));
        apply(&mut u, json!({"type": "user_status", "user_id": 99, "status_text": "x"}));
        assert_eq!(u.status(99), None);
    }

    #[test]
    fn presence_never_moves_a_user_back_and_a_ping_answer_adds_to_it() {
        let mut u = store();
        apply(
            &mut u,
            json!({"type": "presence", "presences": {"1": {"active_timestamp": 100, "idle_timestamp": 100}}}),
        );
        // The legacy shape: one user by client; an older time does not move them back.
        apply(
            &mut u,
            json!({"type": "presence", "user_id": 1, "email": "ann@x", "presence": {"web": {"client": "web", "status": "idle", "timestamp": 50}}}),
        );
        assert_eq!(u.presence(1).map(|p| (p.active_timestamp, p.idle_timestamp)), Some((100, 100)));
        assert_eq!(u.activity(1, 150, 140), Activity::Active);
        assert_eq!(u.activity(1, 300, 140), Activity::Offline);
        assert_eq!(u.activity(2, 150, 140), Activity::Offline, "no presence");
        let answer: Presences =
            serde_json::from_value(json!({"2": {"active_timestamp": 10, "idle_timestamp": 200}})).unwrap();
        u.on_ping_answer(Some(&answer), Some(7));
        u.on_ping_answer(None, Some(3));
        assert_eq!(u.presence_last_update_id(), 7, "never back");
        assert_eq!(u.activity(2, 250, 140), Activity::Idle);
    }

    #[test]
    fn groups_added_changed_and_removed() {
        let mut u = store();
        let op = |op: &str, key: &str, ids: Value| json!({"type": "user_group", "op": op, "group_id": 5, key: ids});
        apply(&mut u, op("add_members", "user_ids", json!([2])));
        apply(&mut u, op("remove_members", "user_ids", json!([1])));
        assert_eq!(u.group(5).unwrap().members, [2]);
        apply(
            &mut u,
            json!({"type": "user_group", "op": "add", "group": {"id": 6, "name": "leads", "members": [1]}}),
        );
        apply(&mut u, op("add_subgroups", "direct_subgroup_ids", json!([6])));
        assert_eq!(u.in_group_setting(1, &GroupSettingValue::Group(5)), Some(true), "through the subgroup");
        apply(&mut u, op("remove_subgroups", "direct_subgroup_ids", json!([6])));
        assert_eq!(u.in_group_setting(1, &GroupSettingValue::Group(5)), Some(false));
        apply(&mut u, json!({"type": "user_group", "op": "update", "group_id": 5, "data": {"name": "be"}}));
        assert_eq!(u.group(5).unwrap().name, "backend", "names are not shown: not kept");
        apply(&mut u, json!({"type": "user_group", "op": "remove", "group_id": 6}));
        assert_eq!(u.groups().map(|g| g.id).collect::<Vec<_>>(), [5]);
        assert_eq!(Users::default().in_group_setting(1, &GroupSettingValue::Group(5)), None, "not known yet");
    }

    #[test]
    fn the_muted_users_are_the_servers_list_each_time() {
        let mut u = store();
        apply(
            &mut u,
            json!({"type": "muted_users", "muted_users": [{"id": 1, "timestamp": 0}, {"id": 2, "timestamp": 0}]}),
        );
        assert!(u.is_muted(1) && u.is_muted(2));
        apply(&mut u, json!({"type": "muted_users", "muted_users": [{"id": 2, "timestamp": 0}]}));
        assert!(!u.is_muted(1) && u.is_muted(2));
    }

    #[test]
    fn a_partial_store_learns_from_messages_and_decides_no_name_until_listed() {
        let mut u = Users::default();
        u.start_partial();
        u.learn(1, "Ann", "ann@x");
        u.learn(1, "Ann Old", "ann@x");
        u.learn(2, "", "nobody@x");
        u.check().unwrap();
        assert_eq!(
            (u.name(1), u.name(2)),
            ("Ann", NOT_YET),
            "kept as first seen; one not seen is not yet known"
        );
        assert_eq!(u.take_wants(), 0);
        // Whether another holds the name cannot be known: the email is shown beside it.
        assert!(u.name_shared("Ann"));
        assert_eq!(u.partner_name(1), "Ann (ann@x)");
        // An ID or an email of someone known decides; a name (anyone may hold it) waits.
        assert_eq!(u.person("ann@x"), Ok(1));
        assert_eq!(u.person("id:1"), Ok(1));
        assert!(matches!(u.person("Ann"), Err(NameError::NotListed { .. })));
        assert!(u.all().is_none() && u.all_groups().is_none());
        assert_eq!(u.take_wants(), WANT_PEOPLE | WANT_GROUPS);
        assert!(matches!(u.person("Ann"), Err(NameError::NotListed { .. })));
        assert_eq!(u.take_wants(), 0, "asked once until answered");
        let list: Vec<User> = serde_json::from_value(json!([
            {"user_id": 1, "full_name": "Ann", "email": "ann@x"},
            {"user_id": 3, "full_name": "Ann", "email": "ann2@x", "is_active": true},
        ]))
        .unwrap();
        u.on_people(list);
        u.check().unwrap();
        assert!(!u.is_partial());
        assert!(matches!(u.person("Ann"), Err(NameError::Shared { .. })), "now the rule decides");
        assert_eq!(u.partner_name(1), "Ann (ann@x)", "shared");
        u.learn_user(
            &serde_json::from_value(json!({"user_id": 4, "full_name": "Cy", "email": "cy@x"})).unwrap(),
        );
        assert_eq!(
            (u.partner_name(1), u.partner_name(4)),
            ("Ann (ann@x)".into(), "Cy".into()),
            "everyone known"
        );
        assert_eq!(u.in_group_setting(1, &GroupSettingValue::Group(5)), None, "groups not known");
        u.on_groups(vec![serde_json::from_value(json!({"id": 5, "name": "b", "members": [1]})).unwrap()]);
        assert_eq!(u.in_group_setting(1, &GroupSettingValue::Group(5)), Some(true));
        // The default mode wants nothing, whatever is read.
        let full = store();
        assert!(full.all().is_some());
        assert_eq!(full.clone().take_wants(), 0);
    }

    #[test]
    fn the_check_finds_a_name_index_out_of_step() {
        let mut u = store();
        u.names.add(9, "Ghost");
        assert!(u.check().unwrap_err().contains("2 users"));
        let mut u = store();
        u.by_id.get_mut(&1).unwrap().full_name = "Renamed".into();
        assert!(u.check().unwrap_err().contains("not indexed under their name"));
    }
}
