//! Organization operations: 14 (deactivate a user), 16 (user group members), 18 (navigation
//! views), 19 (code playgrounds) and 21 (outgoing webhooks).

use crate::common::{Env, assert_err};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;
use tokio::sync::mpsc;
use topicterm::api::*;
use topicterm::server::ServerOptions;
use topicterm::server::org::Recip;

async fn queue(c: &Client) -> String {
    c.register(&RegisterParams::default()).await.unwrap().queue_id.expect("queue_id")
}

async fn events(c: &Client, queue_id: &str) -> Vec<EventKind> {
    let evs = c.get_events(queue_id, -1, true, Duration::from_secs(5)).await.unwrap();
    evs.into_iter().map(|e| e.kind).collect()
}

/// Long-poll until an event matches, or fail after a few seconds.
async fn wait_for(c: &Client, queue_id: &str, mut pred: impl FnMut(&EventKind) -> bool) -> EventKind {
    let mut last = -1;
    let wait = async {
        loop {
            let evs = c.get_events(queue_id, last, false, Duration::from_secs(60)).await.unwrap();
            for e in evs {
                last = last.max(e.id);
                if pred(&e.kind) {
                    return e.kind;
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait).await.expect("the event arrives")
}

/// `(public channel, private channel, direct)` messages a user sent, as the server stores them.
fn sent_by(env: &Env, who: &str) -> (usize, usize, usize) {
    let uid = env.user_id(who);
    let org = env.server.shared.lock();
    let mut counts = (0, 0, 0);
    for m in org.messages.values().filter(|m| m.sender_id == uid) {
        match &m.recip {
            Recip::Channel { id, .. } if org.channels[id].invite_only => counts.1 += 1,
            Recip::Channel { .. } => counts.0 += 1,
            Recip::Dm { .. } => counts.2 += 1,
        }
    }
    counts
}

fn message_ids_by(env: &Env, who: &str) -> BTreeSet<MessageId> {
    let uid = env.user_id(who);
    let org = env.server.shared.lock();
    org.messages.values().filter(|m| m.sender_id == uid).map(|m| m.id).collect()
}

fn deactivated_user_ids(evs: &[EventKind]) -> Vec<UserId> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::RealmUser(RealmUserEvent::Update(p)) => {
                (p.is_active == Some(false)).then_some(p.user_id)
            }
            _ => None,
        })
        .collect()
}

fn deleted_ids(evs: &[EventKind]) -> Vec<MessageId> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::DeleteMessage(d) => Some(d.ids()),
            _ => None,
        })
        .flat_map(|ids| ids.into_iter().collect::<BTreeSet<_>>())
        .collect()
}

fn actions(public: bool, private: bool, direct: bool, profile: bool) -> DeactivationActions {
    DeactivationActions {
        delete_profile: profile,
        delete_public_channel_messages: public,
        delete_private_channel_messages: private,
        delete_direct_messages: direct,
    }
}

// ---------------------------------------------------------------------------------------------
// Operation 14: deactivate a user
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn only_administrators_may_deactivate() {
    let env = Env::start().await;
    for who in ["member", "moderator"] {
        let r = env.client(who).deactivate_user(env.user_id("bob"), None, None).await;
        assert_err(r, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    }
    env.client("bob").get_subscriptions(None).await.expect("bob is still active");
}

#[tokio::test]
async fn deactivated_user_is_refused_and_listed_inactive() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let bob = env.user_id("bob");
    let r = env.client("admin").deactivate_user(bob, None, Some("Thanks for everything")).await.unwrap();
    assert!(r.ignored_parameters_unsupported.is_empty(), "{r:?}");

    let err = env.client("bob").get_subscriptions(None).await.unwrap_err();
    let e = err.server().expect("server error");
    assert_eq!((e.status, e.code.as_str()), (401, "USER_DEACTIVATED"));
    assert!(err.is_auth());

    let users = alice.get_users().await.unwrap();
    let listed = users.members.iter().find(|u| u.user_id == bob).expect("bob is still listed");
    assert!(!listed.is_active);
    assert_eq!(listed.full_name, "Bob Nakamura", "no actions: the profile stays");
    assert_eq!(deactivated_user_ids(&events(&alice, &q).await), vec![bob]);
    let reg = alice.register(&RegisterParams::default()).await.unwrap();
    assert!(reg.realm_users.unwrap().read().iter().all(|u| u.user_id != bob));
    assert!(reg.realm_non_active_users.unwrap().read().iter().any(|u| u.user_id == bob));
    // Nothing else was deleted.
    assert_eq!(sent_by(&env, "bob"), (9, 0, 3));
}

#[tokio::test]
async fn bots_of_a_deactivated_user_are_deactivated_first() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let q = queue(&admin).await;
    admin.deactivate_user(env.user_id("member"), None, None).await.unwrap();
    let order = deactivated_user_ids(&events(&admin, &q).await);
    assert_eq!(order.len(), 3, "{order:?}");
    assert_eq!(order[2], env.user_id("member"), "the owner comes last: {order:?}");
    let bots: BTreeSet<UserId> = order[..2].iter().copied().collect();
    assert_eq!(bots, BTreeSet::from([env.user_id("helperbot"), env.user_id("echobot")]));
    for who in ["member", "helperbot", "echobot"] {
        let err = env.client(who).get_subscriptions(None).await.unwrap_err();
        assert_eq!(err.code(), Some("USER_DEACTIVATED"), "{who}: {err:?}");
    }
    // Other bots and users are untouched.
    env.client("alice").get_subscriptions(None).await.unwrap();
}

#[tokio::test]
async fn delete_profile_renames_the_user_and_removes_the_picture() {
    let env = Env::start().await;
    let bob = env.user_id("bob");
    env.client("admin").deactivate_user(bob, Some(&actions(false, false, false, true)), None).await.unwrap();
    let users = env.client("alice").get_users().await.unwrap();
    let listed = users.members.iter().find(|u| u.user_id == bob).unwrap();
    assert!(listed.full_name.starts_with("Deleted User"), "{}", listed.full_name);
    assert!(!listed.full_name.contains("Bob"));
    assert_eq!(listed.avatar_url, None);
    assert_eq!(sent_by(&env, "bob"), (9, 0, 3), "the profile action deletes no messages");
}

#[tokio::test]
async fn delete_public_channel_messages_deletes_exactly_those_bots_first() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let q = queue(&admin).await;
    let (member_before, bot_before) = (sent_by(&env, "member"), sent_by(&env, "helperbot"));
    assert!(member_before.0 > 0 && member_before.1 > 0 && member_before.2 > 0, "{member_before:?}");
    let member_msgs = message_ids_by(&env, "member");
    let bot_msgs: BTreeSet<MessageId> =
        message_ids_by(&env, "helperbot").union(&message_ids_by(&env, "echobot")).copied().collect();

    admin
        .deactivate_user(env.user_id("member"), Some(&actions(true, false, false, false)), None)
        .await
        .unwrap();
    assert_eq!(sent_by(&env, "member"), (0, member_before.1, member_before.2));
    assert_eq!(sent_by(&env, "helperbot"), (0, 0, bot_before.2));
    assert_eq!(sent_by(&env, "echobot").0, 0);

    let evs = events(&admin, &q).await;
    let deleted = deleted_ids(&evs);
    assert!(deleted.iter().any(|id| bot_msgs.contains(id)), "{deleted:?}");
    assert!(deleted.iter().any(|id| member_msgs.contains(id)), "{deleted:?}");
    let first_member = deleted.iter().position(|id| member_msgs.contains(id)).unwrap();
    assert!(deleted[first_member..].iter().all(|id| member_msgs.contains(id)), "bots' messages go first");
    // The admin can no longer fetch them.
    let engineering = env.channel_id("engineering");
    let narrow =
        vec![NarrowTerm::new("channel", engineering), NarrowTerm::new("sender", env.user_id("member"))];
    let left =
        admin.get_messages(&GetMessages::around(Anchor::Newest, 1000, 0).narrow(narrow)).await.unwrap();
    assert!(left.messages.is_empty(), "{:?}", left.messages.iter().map(|m| m.id).collect::<Vec<_>>());
}

#[tokio::test]
async fn delete_private_channel_messages_deletes_exactly_those() {
    let env = Env::start().await;
    let before = sent_by(&env, "member");
    let admin = env.client("admin");
    admin
        .deactivate_user(env.user_id("member"), Some(&actions(false, true, false, false)), None)
        .await
        .unwrap();
    assert_eq!(sent_by(&env, "member"), (before.0, 0, before.2));
    let narrow =
        vec![NarrowTerm::new("channel", "security"), NarrowTerm::new("sender", env.user_id("member"))];
    let left = admin.get_messages(&GetMessages::around(Anchor::Newest, 100, 0).narrow(narrow)).await.unwrap();
    assert!(left.messages.is_empty());
}

#[tokio::test]
async fn delete_direct_messages_deletes_exactly_those() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let member = env.user_id("member");
    let dm = vec![NarrowTerm::new("dm", member)];
    let before_view =
        alice.get_messages(&GetMessages::around(Anchor::Newest, 100, 0).narrow(dm.clone())).await.unwrap();
    let from_member: Vec<MessageId> =
        before_view.messages.iter().filter(|m| m.sender_id == member).map(|m| m.id).collect();
    assert_eq!(from_member.len(), 2);
    let before = sent_by(&env, "member");
    let helper_before = sent_by(&env, "helperbot");

    let admin = env.client("admin");
    admin.deactivate_user(member, Some(&actions(false, false, true, false)), None).await.unwrap();
    assert_eq!(sent_by(&env, "member"), (before.0, before.1, 0));
    assert_eq!(sent_by(&env, "helperbot"), (helper_before.0, 0, 0));

    let after_view =
        alice.get_messages(&GetMessages::around(Anchor::Newest, 100, 0).narrow(dm)).await.unwrap();
    assert!(after_view.messages.iter().all(|m| m.sender_id != member));
    assert_eq!(after_view.messages.len(), before_view.messages.len() - 2, "alice's replies stay");
    let deleted = deleted_ids(&events(&alice, &q).await);
    for id in &from_member {
        assert!(deleted.contains(id), "delete_message event for {id}: {deleted:?}");
    }
}

#[tokio::test]
async fn the_only_owner_cannot_be_deactivated() {
    let env = Env::start().await;
    let owner = env.user_id("owner");
    assert_err(env.client("admin").deactivate_user(owner, None, None).await, "BAD_REQUEST", "owner");
    let r = env.client("owner").deactivate_user(owner, None, None).await;
    assert_err(r, "BAD_REQUEST", "only organization owner");
    env.client("owner").get_subscriptions(None).await.expect("the owner is still active");
}

#[tokio::test]
async fn deactivating_a_nonexistent_or_inactive_user_is_a_bad_request() {
    let env = Env::start().await;
    let admin = env.client("admin");
    assert_err(admin.deactivate_user(999_999, None, None).await, "BAD_REQUEST", "No such user");
    admin.deactivate_user(env.user_id("bob"), None, None).await.unwrap();
    assert_err(admin.deactivate_user(env.user_id("bob"), None, None).await, "BAD_REQUEST", "No such user");
}

#[tokio::test]
async fn unknown_deactivation_action_is_a_bad_request() {
    let env = Env::start().await;
    let path = format!("/users/{}", env.user_id("bob"));
    let (status, body) =
        env.raw("admin", "DELETE", &path, &[("actions", r#"{"delete_everything": true}"#)]).await;
    assert_eq!(status, 400);
    assert!(body["msg"].as_str().unwrap().contains("delete_everything"), "{body}");
    env.client("bob").get_subscriptions(None).await.expect("bob is still active");
}

// ---------------------------------------------------------------------------------------------
// Operation 16: update user group members
// ---------------------------------------------------------------------------------------------

async fn group(env: &Env, name: &str) -> UserGroup {
    let reg = env.client("alice").register(&RegisterParams::default()).await.unwrap();
    reg.realm_user_groups.unwrap().read().into_iter().find(|g| g.name == name).expect("group")
}

fn group_events(evs: &[EventKind]) -> Vec<&UserGroupEvent> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::UserGroup(g) => Some(g),
            _ => None,
        })
        .collect()
}

fn add(ids: &[UserId]) -> GroupMembersUpdate {
    GroupMembersUpdate { add: Some(ids.to_vec()), ..Default::default() }
}

#[tokio::test]
async fn members_are_added_and_removed() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let backend = env.group_id("backend");
    let (erin, bob) = (env.user_id("erin"), env.user_id("bob"));
    let upd = GroupMembersUpdate { add: Some(vec![erin]), delete: Some(vec![bob]), ..Default::default() };
    env.client("admin").update_user_group_members(backend, &upd).await.unwrap();
    let g = group(&env, "backend").await;
    assert!(g.members.contains(&erin));
    assert!(!g.members.contains(&bob));
    assert!(g.members.contains(&env.user_id("member")), "others stay");
    let evs = events(&alice, &q).await;
    let evs = group_events(&evs);
    let added = UserGroupEvent::AddMembers { group_id: backend, user_ids: vec![erin] };
    assert!(evs.contains(&&added), "{evs:?}");
    let removed = UserGroupEvent::RemoveMembers { group_id: backend, user_ids: vec![bob] };
    assert!(evs.contains(&&removed), "{evs:?}");
}

#[tokio::test]
async fn subgroups_are_added_and_removed() {
    let env = Env::start().await;
    let alice = env.client("alice");
    let q = queue(&alice).await;
    let (frontend, leads) = (env.group_id("frontend"), env.group_id("leads"));
    let admin = env.client("admin");
    let upd = GroupMembersUpdate { add_subgroups: Some(vec![leads]), ..Default::default() };
    admin.update_user_group_members(frontend, &upd).await.unwrap();
    assert_eq!(group(&env, "frontend").await.direct_subgroup_ids, vec![leads]);
    let upd = GroupMembersUpdate { delete_subgroups: Some(vec![leads]), ..Default::default() };
    admin.update_user_group_members(frontend, &upd).await.unwrap();
    assert!(group(&env, "frontend").await.direct_subgroup_ids.is_empty());

    let evs = events(&alice, &q).await;
    assert_eq!(
        group_events(&evs),
        [
            &UserGroupEvent::AddSubgroups { group_id: frontend, subgroup_ids: vec![leads] },
            &UserGroupEvent::RemoveSubgroups { group_id: frontend, subgroup_ids: vec![leads] }
        ]
    );
}

#[tokio::test]
async fn deactivated_or_nonexistent_users_are_refused() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let bob = env.user_id("bob");
    admin.deactivate_user(bob, None, None).await.unwrap();
    let frontend = env.group_id("frontend");
    assert_err(
        admin.update_user_group_members(frontend, &add(&[bob])).await,
        "BAD_REQUEST",
        "Invalid user ID",
    );
    assert_err(
        admin.update_user_group_members(frontend, &add(&[999_999])).await,
        "BAD_REQUEST",
        "Invalid user ID",
    );
    // Removing a deactivated user is refused too: the lists take active users only.
    let del = GroupMembersUpdate { delete: Some(vec![bob]), ..Default::default() };
    assert_err(
        admin.update_user_group_members(env.group_id("backend"), &del).await,
        "BAD_REQUEST",
        "Invalid user ID",
    );
    assert!(!group(&env, "frontend").await.members.contains(&bob));
}

#[tokio::test]
async fn subgroup_cycles_are_refused() {
    let env = Env::start().await;
    let admin = env.client("admin");
    // oncall already contains leads.
    let (leads, oncall) = (env.group_id("leads"), env.group_id("oncall"));
    let upd = GroupMembersUpdate { add_subgroups: Some(vec![oncall]), ..Default::default() };
    assert_err(admin.update_user_group_members(leads, &upd).await, "BAD_REQUEST", "cycle");
    // engineers contains backend, so backend cannot contain engineers.
    let upd =
        GroupMembersUpdate { add_subgroups: Some(vec![env.group_id("engineers")]), ..Default::default() };
    assert_err(admin.update_user_group_members(env.group_id("backend"), &upd).await, "BAD_REQUEST", "cycle");
    assert!(group(&env, "leads").await.direct_subgroup_ids.is_empty());
}

#[tokio::test]
async fn system_groups_cannot_be_edited() {
    let env = Env::start().await;
    let members = env.group_id("role:members");
    let r = env.client("owner").update_user_group_members(members, &add(&[env.user_id("guest")])).await;
    assert_err(r, "BAD_REQUEST", "");
    assert!(!group(&env, "role:members").await.members.contains(&env.user_id("guest")));
}

#[tokio::test]
async fn nothing_to_change_is_refused_by_client_and_server() {
    let env = Env::start().await;
    let backend = env.group_id("backend");
    let before = env.requests();
    let r = env.client("admin").update_user_group_members(backend, &GroupMembersUpdate::default()).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::NothingToChange))), "{r:?}");
    assert_eq!(env.requests(), before);
    let (status, body) = env.raw("admin", "POST", &format!("/user_groups/{backend}/members"), &[]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
}

/// helperbot joins backend, then tries to add erin.
async fn bot_adds_a_member(env: &Env) -> Result<Ack> {
    let backend = env.group_id("backend");
    env.client("admin").update_user_group_members(backend, &add(&[env.user_id("helperbot")])).await.unwrap();
    env.client("helperbot").update_user_group_members(backend, &add(&[env.user_id("erin")])).await
}

#[tokio::test]
async fn bots_cannot_edit_groups_before_feature_level_496() {
    let env = Env::start_with(ServerOptions { feature_level: 490, ..Default::default() }).await;
    assert_err(bot_adds_a_member(&env).await, "BAD_REQUEST", "Bots");
    assert!(!group(&env, "backend").await.members.contains(&env.user_id("erin")));
}

#[tokio::test]
async fn bots_can_edit_groups_from_feature_level_496() {
    let env = Env::start().await;
    bot_adds_a_member(&env).await.unwrap();
    assert!(group(&env, "backend").await.members.contains(&env.user_id("erin")));
}

#[tokio::test]
async fn non_members_who_are_not_administrators_are_refused() {
    let env = Env::start().await;
    let backend = env.group_id("backend");
    let farid = env.user_id("farid");
    let r = env.client("erin").update_user_group_members(backend, &add(&[env.user_id("noa")])).await;
    assert_err(r, "BAD_REQUEST", "Insufficient permission");
    // A member of the group may.
    let remove = GroupMembersUpdate { delete: Some(vec![farid]), ..Default::default() };
    env.client("member").update_user_group_members(backend, &remove).await.unwrap();
    let g = group(&env, "backend").await;
    assert!(!g.members.contains(&env.user_id("noa")));
    assert!(!g.members.contains(&farid));
}

// ---------------------------------------------------------------------------------------------
// Operation 18: update a navigation view
// ---------------------------------------------------------------------------------------------

const RELEASE_VIEW: &str = "narrow/channel/engineering/topic/release.202.2E4.20planning";

async fn view(c: &Client, fragment: &str) -> NavigationView {
    let views = c.get_navigation_views().await.unwrap().navigation_views;
    views.into_iter().find(|v| v.fragment == fragment).unwrap_or_else(|| panic!("no view {fragment}"))
}

fn nav_events(evs: &[EventKind]) -> Vec<&NavigationViewEvent> {
    evs.iter()
        .filter_map(|e| match e {
            EventKind::NavigationView(v) => Some(v),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn custom_view_is_hidden_and_pinned() {
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue(&member).await;
    assert!(view(&member, RELEASE_VIEW).await.is_pinned);
    member.update_navigation_view(RELEASE_VIEW, Some(false), None).await.unwrap();
    let v = view(&member, RELEASE_VIEW).await;
    assert!(!v.is_pinned);
    assert_eq!(v.name.as_deref(), Some("Release"), "the name is kept");
    member.update_navigation_view(RELEASE_VIEW, Some(true), None).await.unwrap();
    assert!(view(&member, RELEASE_VIEW).await.is_pinned);

    let evs = events(&member, &q).await;
    let evs = nav_events(&evs);
    assert_eq!(evs.len(), 2);
    let pinned = |p: bool| NavigationViewEvent::Update {
        fragment: RELEASE_VIEW.to_owned(),
        is_pinned: Some(p),
        name: None,
    };
    assert_eq!(evs, [&pinned(false), &pinned(true)]);
    // Another user's views are their own.
    assert!(
        env.client("alice")
            .get_navigation_views()
            .await
            .unwrap()
            .navigation_views
            .iter()
            .all(|v| v.fragment != RELEASE_VIEW)
    );
}

#[tokio::test]
async fn built_in_view_is_pinned() {
    let env = Env::start().await;
    let member = env.client("member");
    assert!(!view(&member, "recent").await.is_pinned);
    member.update_navigation_view("recent", Some(true), None).await.unwrap();
    let v = view(&member, "recent").await;
    assert!(v.is_pinned);
    assert_eq!(v.name, None);
}

#[tokio::test]
async fn custom_view_is_renamed() {
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue(&member).await;
    member.update_navigation_view(RELEASE_VIEW, None, Some("Release 2.4")).await.unwrap();
    let v = view(&member, RELEASE_VIEW).await;
    assert_eq!(v.name.as_deref(), Some("Release 2.4"));
    assert!(v.is_pinned, "pinning is kept");
    let evs = events(&member, &q).await;
    let renamed = NavigationViewEvent::Update {
        fragment: RELEASE_VIEW.to_owned(),
        is_pinned: None,
        name: Some(Some("Release 2.4".to_owned())),
    };
    assert_eq!(nav_events(&evs), [&renamed]);
    let reg = member.register(&RegisterParams::default()).await.unwrap();
    let listed = reg.navigation_views.unwrap().into_iter().find(|v| v.fragment == RELEASE_VIEW).unwrap();
    assert_eq!(listed.name.as_deref(), Some("Release 2.4"));
}

#[tokio::test]
async fn built_in_view_cannot_get_a_custom_name() {
    let env = Env::start().await;
    let member = env.client("member");
    let e = assert_err(
        member.update_navigation_view("inbox", None, Some("My inbox")).await,
        "BAD_REQUEST",
        "Built-in",
    );
    assert_eq!(e.status, 400);
    assert_eq!(view(&member, "inbox").await.name, None);
}

#[tokio::test]
async fn unknown_fragment_is_not_found() {
    let env = Env::start().await;
    let member = env.client("member");
    let e = assert_err(
        member.update_navigation_view("narrow/channel/nowhere", Some(true), None).await,
        "NOT_FOUND",
        "",
    );
    assert_eq!(e.status, 404);
    // alice's custom view is not the member's.
    let alices = "narrow/channel/design/topic/design.20review.3A.20inbox.20view";
    let e = assert_err(member.update_navigation_view(alices, Some(false), None).await, "NOT_FOUND", "");
    assert_eq!(e.status, 404);
    assert!(view(&env.client("alice"), alices).await.is_pinned);
}

#[tokio::test]
async fn navigation_view_update_needs_a_change() {
    let env = Env::start().await;
    let before = env.requests();
    let r = env.client("member").update_navigation_view(RELEASE_VIEW, None, None).await;
    assert!(matches!(r, Err(ApiError::Limit(LimitError::NothingToChange))), "{r:?}");
    assert_eq!(env.requests(), before);
    let (status, body) = env.raw("member", "PATCH", &format!("/navigation_views/{RELEASE_VIEW}"), &[]).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "BAD_REQUEST");
}

// ---------------------------------------------------------------------------------------------
// Operation 19: add a code playground
// ---------------------------------------------------------------------------------------------

const GO_TEMPLATE: &str = "https://go.dev/play/?v=goprev{&code}";

#[tokio::test]
async fn administrator_adds_a_playground() {
    let env = Env::start().await;
    let member = env.client("member");
    let q = queue(&member).await;
    let r = env.client("admin").add_playground("Go playground", "Go", GO_TEMPLATE).await.unwrap();
    let expected = Playground {
        id: r.id,
        name: "Go playground".into(),
        pygments_language: "Go".into(),
        url_template: GO_TEMPLATE.into(),
    };
    let evs = events(&member, &q).await;
    let listed = evs
        .iter()
        .find_map(|e| match e {
            EventKind::RealmPlaygrounds { realm_playgrounds } => Some(realm_playgrounds.clone()),
            _ => None,
        })
        .expect("realm_playgrounds event");
    assert_eq!(listed.len(), 3, "the event carries the full list");
    assert!(listed.contains(&expected));
    let reg = member.register(&RegisterParams::default()).await.unwrap();
    assert!(reg.realm_playgrounds.unwrap().contains(&expected));
}

#[tokio::test]
async fn members_cannot_add_playgrounds() {
    let env = Env::start().await;
    let r = env.client("member").add_playground("Go playground", "Go", GO_TEMPLATE).await;
    assert_err(r, "UNAUTHORIZED_PRINCIPAL", "administrator");
    let reg = env.client("member").register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.realm_playgrounds.unwrap().len(), 2);
}

#[tokio::test]
async fn template_needs_exactly_one_variable_named_code() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let bad = ["https://go.dev/play/", "https://go.dev/play/?c={source}", "https://go.dev/play/{?code,lang}"];
    let before = env.requests();
    for t in bad {
        let r = admin.add_playground("Go playground", "Go", t).await;
        assert!(matches!(r, Err(ApiError::Limit(LimitError::PlaygroundTemplate))), "{t}: {r:?}");
    }
    assert_eq!(env.requests(), before);
    for t in bad {
        let params = [("name", "Go playground"), ("pygments_language", "Go"), ("url_template", t)];
        let (status, body) = env.raw("admin", "POST", "/realm/playgrounds", &params).await;
        assert_eq!(status, 400, "{t}");
        assert_eq!(body["code"], "BAD_REQUEST");
        assert!(body["msg"].as_str().unwrap().contains("code"), "{body}");
    }
}

#[tokio::test]
async fn duplicate_playgrounds_are_refused() {
    let env = Env::start().await;
    let admin = env.client("admin");
    let r = admin.add_playground("Rust playground", "Rust", "https://play.rust-lang.org/?code={code}").await;
    assert_err(r, "BAD_REQUEST", "already exists");
    // Same name for another language is a different playground.
    admin.add_playground("Rust playground", "Go", GO_TEMPLATE).await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Operation 21: outgoing webhooks
// ---------------------------------------------------------------------------------------------

/// A bot's integration: records every payload and answers with `answer`.
async fn webhook_receiver(answer: Value) -> (String, mpsc::UnboundedReceiver<Value>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/bot",
        axum::routing::post(move |axum::Json(payload): axum::Json<Value>| {
            let (tx, answer) = (tx.clone(), answer.clone());
            async move {
                let _ = tx.send(payload);
                axum::Json(answer)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/bot"), rx)
}

async fn webhook_env(answer: Value) -> (Env, mpsc::UnboundedReceiver<Value>) {
    let (url, rx) = webhook_receiver(answer).await;
    let env = Env::start_with(ServerOptions { outgoing_webhook_url: Some(url), ..Default::default() }).await;
    (env, rx)
}

async fn next_payload(rx: &mut mpsc::UnboundedReceiver<Value>) -> WebhookPayload {
    let v = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await.expect("a payload").unwrap();
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("payload does not decode: {e}: {v}"))
}

fn is_message_from(e: &EventKind, sender: UserId) -> Option<&Message> {
    match e {
        EventKind::Message(m) if m.message.sender_id == sender => Some(&m.message),
        _ => None,
    }
}

#[tokio::test]
async fn mention_triggers_the_webhook_and_the_reply_is_posted() {
    let (env, mut rx) = webhook_env(json!({"content": "pong"})).await;
    let member = env.client("member");
    let q = queue(&member).await;
    let support = env.channel_id("support");
    let content = "@**Echo Bot** ping";
    let sent = member.send_message(&OutgoingMessage::channel(support, "bot test", content)).await.unwrap();

    let p = next_payload(&mut rx).await;
    assert_eq!(p.trigger, WebhookTrigger::Mention);
    assert_eq!(p.bot_email, env.creds("echobot").email);
    assert_eq!(p.bot_full_name, "Echo Bot");
    assert_eq!(p.data, content, "data is the raw Markdown");
    assert_eq!(Some(p.token.clone()), env.server.webhook_token("echobot"));
    assert!(!p.token.is_empty() && p.token.chars().all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(p.message.id, sent.id);
    assert_eq!(p.message.sender_id, env.user_id("member"));
    assert_eq!(p.message.stream_id, Some(support));
    assert_eq!(p.message.subject, "bot test");
    let html = p.message.rendered_content.as_deref().expect("rendered_content");
    assert!(html.contains("user-mention"), "{html}");

    let echobot = env.user_id("echobot");
    let reply = wait_for(&member, &q, |e| is_message_from(e, echobot).is_some()).await;
    let reply = is_message_from(&reply, echobot).unwrap();
    assert_eq!(reply.stream_id, Some(support));
    assert_eq!(reply.subject, "bot test");
    assert!(reply.content.contains("pong"), "{}", reply.content);
}

#[tokio::test]
async fn direct_message_to_the_bot_triggers_the_webhook() {
    let (env, mut rx) = webhook_env(json!({"content": "pong"})).await;
    let member = env.client("member");
    let q = queue(&member).await;
    let echobot = env.user_id("echobot");
    member.send_message(&OutgoingMessage::direct(vec![echobot], "hello bot")).await.unwrap();
    let p = next_payload(&mut rx).await;
    assert_eq!(p.trigger, WebhookTrigger::DirectMessage);
    assert_eq!(p.data, "hello bot");
    assert!(p.message.is_dm());
    let mut participants = p.message.dm_user_ids();
    participants.sort_unstable();
    let mut expected = vec![env.user_id("member"), echobot];
    expected.sort_unstable();
    assert_eq!(participants, expected);

    let reply = wait_for(&member, &q, |e| is_message_from(e, echobot).is_some()).await;
    let reply = is_message_from(&reply, echobot).unwrap();
    assert!(reply.is_dm());
    assert!(reply.dm_user_ids().contains(&env.user_id("member")));
}

#[tokio::test]
async fn messages_not_addressed_to_the_bot_trigger_nothing() {
    let (env, mut rx) = webhook_env(json!({})).await;
    let member = env.client("member");
    let support = env.channel_id("support");
    // echobot is subscribed to support, but is not mentioned.
    member.send_message(&OutgoingMessage::channel(support, "bot test", "no bots here")).await.unwrap();
    member.send_message(&OutgoingMessage::direct(vec![env.user_id("alice")], "just us")).await.unwrap();
    member.send_message(&OutgoingMessage::channel(support, "bot test", "@**Echo Bot** now")).await.unwrap();
    let p = next_payload(&mut rx).await;
    assert_eq!(p.data, "@**Echo Bot** now", "the first payload is for the mention");
    // A second mention, sent after them all: every payload before its own is one too many
    // (waiting on it, not on a fixed time).
    member.send_message(&OutgoingMessage::channel(support, "bot test", "@**Echo Bot** last")).await.unwrap();
    let p = next_payload(&mut rx).await;
    assert_eq!(p.data, "@**Echo Bot** last", "exactly one payload for the first three");
}

#[test]
fn webhook_payload_decodes_legacy_spellings() {
    let payload = json!({
        "bot_email": "echo-bot@demo.topicterm.test",
        "bot_full_name": "Echo Bot",
        "data": "hi",
        "trigger": "private_message",
        "token": "abc123",
        "message": {
            "id": 7, "type": "private", "content": "hi", "sender_id": 3, "timestamp": 1,
            "display_recipient": [{"id": 3, "email": "a@x", "full_name": "A", "is_mirror_dummy": false}],
            "reactions": [{"emoji_name": "zulip", "emoji_code": "zulip", "reaction_type": "zulip_extra_emoji", "user_id": 3}],
            "rendered_content": "<p>hi</p>",
        },
    });
    let p: WebhookPayload = serde_json::from_value(payload).unwrap();
    assert_eq!(p.trigger, WebhookTrigger::DirectMessage);
    assert_eq!(p.message.reactions[0].reaction_type, ReactionType::SvcExtraEmoji);
    assert_eq!(p.message.rendered_content.as_deref(), Some("<p>hi</p>"));
    let modern: WebhookTrigger = serde_json::from_value(json!("direct_message")).unwrap();
    assert_eq!(modern, WebhookTrigger::DirectMessage);
    let mention: WebhookTrigger = serde_json::from_value(json!("mention")).unwrap();
    assert_eq!(mention, WebhookTrigger::Mention);
}
