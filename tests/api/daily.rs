//! Operations of the daily-driver screens: one user, marking read, deleting, moving topics.

use crate::common::*;
use topicterm::api::*;

#[tokio::test]
async fn one_user_by_id_or_email_as_the_python_bindings_ask() {
    let env = Env::start().await;
    let c = env.client("member");
    let bob = env.user_id("bob");
    let u = c.get_user(bob, true).await.unwrap().user;
    assert_eq!((u.user_id, u.full_name.as_str()), (bob, "Bob Nakamura"));
    // By email, in any case (the path the bindings' get_user_by_email takes).
    let email = env.creds("bob").email.to_uppercase();
    let (status, body) = env.raw("member", "GET", &format!("/users/{email}"), &[]).await;
    assert_eq!((status, &body["user"]["user_id"]), (200, &serde_json::json!(bob)), "{body}");
    let err = c.get_user(987_654, false).await.unwrap_err();
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

#[tokio::test]
async fn moving_and_resolving_topics_as_the_reference_server_does() {
    let env = Env::start().await;
    let (me, bob) = (env.client("member"), env.client("bob"));
    let (general, design) = (env.channel_id("general"), env.channel_id("design"));
    let mut ids = Vec::new();
    for text in ["a", "b", "c"] {
        ids.push(bob.send_message(&OutgoingMessage::channel(general, "to move", text)).await.unwrap().id);
    }
    let topic_of = |id: MessageId| {
        let me = me.clone();
        async move {
            let m = me.get_message(id, true).await.unwrap().message;
            (m.stream_id, m.subject)
        }
    };
    // A member renames someone else's recent topic from its middle: later messages only.
    let edit = MessageEdit {
        topic: Some("moved".into()),
        propagate_mode: Some("change_later".into()),
        ..Default::default()
    };
    me.update_message(ids[1], &edit).await.unwrap();
    assert_eq!(topic_of(ids[0]).await.1, "to move");
    assert_eq!(topic_of(ids[2]).await.1, "moved");
    // The notification bot tells the new topic, in the reference server's words.
    let notes = |topic: &'static str| {
        let me = me.clone();
        async move {
            let q = GetMessages::around(Anchor::Newest, 20, 0)
                .narrow(vec![NarrowTerm::new("channel", general), NarrowTerm::new("topic", topic)]);
            me.get_messages(&q).await.unwrap().messages.into_iter().map(|m| m.content).collect::<Vec<_>>()
        }
    };
    let moved = notes("moved").await;
    assert!(moved.iter().any(|c| c.contains("2 messages were moved here from")), "{moved:?}");
    // Resolving is a rename with the ✔ prefix; the bot says who did it.
    let resolve = MessageEdit {
        topic: Some("✔ moved".into()),
        propagate_mode: Some("change_all".into()),
        ..Default::default()
    };
    me.update_message(ids[2], &resolve).await.unwrap();
    let resolved = notes("✔ moved").await;
    assert!(resolved.iter().any(|c| c.contains("has marked this topic as resolved")), "{resolved:?}");
    // Another channel, the whole topic, and the old topic told as well when asked.
    let to_design = MessageEdit {
        stream_id: Some(design),
        propagate_mode: Some("change_all".into()),
        send_notification_to_old_thread: Some(true),
        ..Default::default()
    };
    me.update_message(ids[0], &to_design).await.unwrap();
    assert_eq!(topic_of(ids[0]).await, (Some(design), "to move".to_owned()));
    assert!(notes("to move").await.iter().any(|c| c.contains("This topic was moved to")));
    // Past a week, a member may no longer move it (moderators and administrators may).
    {
        let mut org = env.server.shared.lock();
        org.messages.get_mut(&ids[0]).unwrap().timestamp -= 8 * 86400;
    }
    let rename = MessageEdit { topic: Some("late".into()), ..Default::default() };
    let err = me.update_message(ids[0], &rename).await.unwrap_err();
    assert_eq!(err.to_string(), "The time limit for editing this message's topic has passed.");
    env.client("admin").update_message(ids[0], &rename).await.unwrap();
    // Guests never move messages.
    let err = env.client("guest").update_message(ids[2], &rename).await;
    assert!(err.is_err());
}

#[tokio::test]
async fn recent_private_conversations_are_newest_first_and_name_the_others() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let params = RegisterParams {
        fetch_event_types: Some(vec!["recent_private_conversations".into()]),
        ..Default::default()
    };
    let list = c.register(&params).await.unwrap().recent_private_conversations.expect("asked for");
    assert!(list.len() >= 3, "{list:?}");
    assert!(list.windows(2).all(|w| w[0].max_message_id > w[1].max_message_id), "newest first");
    assert!(list.iter().all(|r| !r.user_ids.contains(&me) && r.user_ids.is_sorted()), "{list:?}");
    // A new group DM is at the top, naming the others only.
    let (carol, bob) = (env.user_id("carol"), env.user_id("bob"));
    let sent = env
        .client("carol")
        .send_message(&OutgoingMessage::direct(vec![me, bob], "group hi"))
        .await
        .unwrap()
        .id;
    let list = c.register(&params).await.unwrap().recent_private_conversations.unwrap();
    let mut others = vec![carol, bob];
    others.sort_unstable();
    assert_eq!((list[0].user_ids.clone(), list[0].max_message_id), (others, sent));
    // Not asked for: not sent.
    let other = RegisterParams { fetch_event_types: Some(vec!["alert_words".into()]), ..Default::default() };
    assert!(c.register(&other).await.unwrap().recent_private_conversations.is_none());
}
