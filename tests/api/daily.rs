//! Operations of the daily-driver screens: one user, marking read, deleting, moving topics.

use crate::common::*;
use topicterm::api::*;

#[tokio::test]
async fn one_user_by_id_or_email_as_the_python_bindings_ask() {
    let env = Env::start().await;
    let c = env.client("member");
    let bob = env.user_id("bob");
    let u = c.get_user(bob).await.unwrap().user;
    assert_eq!((u.user_id, u.full_name.as_str()), (bob, "Bob Nakamura"));
    // By email, in any case (the path the bindings' get_user_by_email takes).
    let email = env.creds("bob").email.to_uppercase();
    let (status, body) = env.raw("member", "GET", &format!("/users/{email}"), &[]).await;
    assert_eq!((status, &body["user"]["user_id"]), (200, &serde_json::json!(bob)), "{body}");
    let err = c.get_user(987_654).await.unwrap_err();
    assert_eq!(err.to_string(), "No such user");
    assert_eq!(err.server().map(|s| s.status), Some(400));
}

/// The IDs of the user's unread messages in a narrow.
async fn unread(c: &Client, mut narrow: Vec<NarrowTerm>) -> Vec<MessageId> {
    narrow.push(NarrowTerm::new("is", "unread"));
    let q = GetMessages::around(Anchor::Newest, 1000, 0).narrow(narrow);
    c.get_messages(&q).await.unwrap().messages.iter().map(|m| m.id).collect()
}

#[tokio::test]
async fn mark_a_channel_then_everything_as_read() {
    let env = Env::start().await;
    let c = env.client("member");
    let engineering = env.channel_id("engineering");
    let channel = vec![NarrowTerm::new("channel", engineering)];
    assert!(!unread(&c, channel.clone()).await.is_empty(), "the seed leaves unread messages there");
    let elsewhere = unread(&c, vec![]).await.len() - unread(&c, channel.clone()).await.len();
    assert!(elsewhere > 0);
    c.mark_channel_as_read(engineering).await.unwrap();
    assert!(unread(&c, channel).await.is_empty());
    assert_eq!(unread(&c, vec![]).await.len(), elsewhere, "only that channel");
    c.mark_all_as_read().await.unwrap();
    assert!(unread(&c, vec![]).await.is_empty());
    // A private channel the user is not in is refused.
    let security = env.channel_id("security");
    let outsider = {
        let org = env.server.shared.lock();
        let subs = &org.channels[&security].subs;
        org.users
            .values()
            .find(|u| !u.is_bot() && u.is_active && !subs.contains_key(&u.id))
            .map(|u| u.short_name.clone())
    }
    .expect("someone outside #security");
    assert!(env.client(&outsider).mark_channel_as_read(security).await.is_err());
}

#[tokio::test]
async fn deleting_messages_follows_the_organizations_rules_and_tells_everyone() {
    let env = Env::start().await;
    let (me, bob, admin) = (env.client("member"), env.client("bob"), env.client("admin"));
    let general = env.channel_id("general");
    let bob_q = bob.register(&RegisterParams::default()).await.unwrap().queue_id.unwrap();
    let mine = me.send_message(&OutgoingMessage::channel(general, "deleting", "oops")).await.unwrap().id;
    let theirs = bob.send_message(&OutgoingMessage::channel(general, "deleting", "bob's")).await.unwrap().id;
    // Someone else's message: refused (not an administrator).
    let err = me.delete_message(theirs).await.unwrap_err();
    assert_eq!(err.to_string(), "You don't have permission to delete this message");
    // One's own, within the time limit: gone, and those who had it are told.
    me.delete_message(mine).await.unwrap();
    assert!(me.get_message(mine, true).await.is_err());
    let evs = bob.get_events(&bob_q, -1, true, std::time::Duration::from_secs(5)).await.unwrap();
    let deleted: Vec<&DeleteMessageEvent> = evs
        .iter()
        .filter_map(|e| if let EventKind::DeleteMessage(d) = &e.kind { Some(d) } else { None })
        .collect();
    assert_eq!(deleted.len(), 1, "{evs:?}");
    assert_eq!(deleted[0].message_id, Some(mine));
    // An old message of one's own: past the limit (600 s by default, as on Zulip).
    let me_id = env.user_id("member");
    let old = {
        let org = env.server.shared.lock();
        org.messages
            .values()
            .find(|m| m.sender_id == me_id)
            .map(|m| m.id)
            .expect("a seeded message of member's")
    };
    let err = me.delete_message(old).await.unwrap_err();
    assert_eq!(err.to_string(), "The time limit for deleting this message has passed");
    // An administrator deletes anything.
    admin.delete_message(theirs).await.unwrap();
    admin.delete_message(old).await.unwrap();
    assert!(admin.delete_message(old).await.is_err(), "already gone");
}
