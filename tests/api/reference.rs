//! Rules of the reference (Zulip) server the demo server follows, so that clients tested
//! against it are driven the way a real server drives them.

use crate::common::*;
use topicterm::api::*;

/// A topic holding exactly `n` messages, and their IDs.
async fn topic_of(env: &Env, c: &Client, n: usize) -> (Vec<NarrowTerm>, Vec<MessageId>) {
    let channel = env.channel_id("general");
    for i in 0..n {
        c.send_message(&OutgoingMessage::channel(channel, "paging rule", &format!("message {i}")))
            .await
            .unwrap();
    }
    let narrow = vec![NarrowTerm::new("channel", channel), NarrowTerm::new("topic", "paging rule")];
    let all =
        c.get_messages(&GetMessages::around(Anchor::Oldest, 0, 100).narrow(narrow.clone())).await.unwrap();
    let ids: Vec<MessageId> = all.messages.iter().map(|m| m.id).collect();
    assert_eq!(ids.len(), n);
    (narrow, ids)
}

#[tokio::test]
async fn found_newest_and_oldest_follow_the_reference_rule_not_the_exact_truth() {
    let env = Env::start().await;
    let c = env.client("member");
    let (narrow, ids) = topic_of(&env, &c, 5).await;
    let page = |anchor: Anchor, before: u64, after: u64| {
        let q = GetMessages::around(anchor, before, after).narrow(narrow.clone());
        let c = c.clone();
        async move { c.get_messages(&q).await.unwrap() }
    };
    // Exactly the five there are, asked for from the oldest end: a full page is not "found".
    let r = page(Anchor::Oldest, 0, 5).await;
    assert_eq!(r.messages.len(), 5);
    assert!(r.found_oldest, "anchored at the oldest end");
    assert!(!r.found_newest, "five asked, five came: the reference server does not say the end was found");
    // The next page is empty, and says so.
    let mut q = GetMessages::around(Anchor::Id(ids[4]), 0, 5).narrow(narrow.clone());
    q.include_anchor = Some(false);
    let r = c.get_messages(&q).await.unwrap();
    assert!(r.messages.is_empty() && r.found_newest);
    // Fewer than asked: found.
    assert!(page(Anchor::Oldest, 0, 6).await.found_newest);
    // From the newest end, the same on the other side.
    let r = page(Anchor::Newest, 5, 0).await;
    assert!(r.found_newest, "anchored at the newest end");
    assert!(!r.found_oldest);
    assert!(page(Anchor::Newest, 6, 0).await.found_oldest);
    // Nothing asked on a side finds nothing there, even at the very first message.
    let r = page(Anchor::Id(ids[0]), 0, 1).await;
    assert!(!r.found_oldest, "num_before = 0");
    assert_eq!(r.messages.len(), 2, "the anchor and one after");
}

#[tokio::test]
async fn content_is_stored_without_trailing_whitespace_or_leading_blank_lines() {
    let env = Env::start().await;
    let c = env.client("member");
    let channel = env.channel_id("general");
    let sent = "\n\n  indented first line\nsecond   \n\n\t \n";
    let id = c.send_message(&OutgoingMessage::channel(channel, "normalising", sent)).await.unwrap().id;
    let raw = c.get_message(id, false).await.unwrap();
    assert_eq!(raw.raw_content.unwrap_or(raw.message.content), "  indented first line\nsecond");
    // Edits are stored the same way.
    let edit = MessageEdit { content: Some("\nedited  \n".into()), ..Default::default() };
    c.update_message(id, &edit).await.unwrap();
    let raw = c.get_message(id, false).await.unwrap();
    assert_eq!(raw.raw_content.unwrap_or(raw.message.content), "edited");
    // Whitespace only is still empty.
    let err = c.send_message(&OutgoingMessage::channel(channel, "normalising", "\n \t\n")).await;
    assert!(err.is_err());
}

#[tokio::test]
async fn subscribe_replies_are_keyed_by_user_id_from_level_289_and_by_email_before() {
    for (level, by_id) in [(topicterm::server::ServerOptions::default().feature_level, true), (288, false)] {
        let env =
            Env::start_with(topicterm::server::ServerOptions { feature_level: level, ..Default::default() })
                .await;
        let bob = env.client("bob");
        let key = if by_id { env.user_id("bob").to_string() } else { env.creds("bob").email };
        let r = bob.subscribe(&["design"], None).await.unwrap();
        assert_eq!(r.subscribed, serde_json::json!({key.clone(): ["design"]}), "level {level}");
        let r = bob.subscribe(&["design"], None).await.unwrap();
        assert_eq!(r.already_subscribed, serde_json::json!({key: ["design"]}), "level {level}");
    }
}

#[tokio::test]
async fn search_results_carry_what_matched_marked_and_other_narrows_do_not() {
    let env = Env::start().await;
    let c = env.client("member");
    let channel = env.channel_id("general");
    let sent = "Flaky <test> & a **flaky** link: https://flaky.example/span";
    c.send_message(&OutgoingMessage::channel(channel, "is it FLAKY & slow?", sent)).await.unwrap();
    let q = GetMessages::around(Anchor::Newest, 1, 0).narrow(vec![NarrowTerm::new("search", "flaky")]);
    let m = c.get_messages(&q).await.unwrap().messages.remove(0);
    let content = m.match_content.expect("match_content");
    assert!(content.contains("<span class=\"highlight\">Flaky</span> &lt;test&gt; &amp;"), "{content}");
    assert!(content.contains("<strong><span class=\"highlight\">flaky</span></strong>"), "{content}");
    assert!(!content.contains("\"https://<span"), "attributes are never marked: {content}");
    assert_eq!(m.match_subject.as_deref(), Some("is it <span class=\"highlight\">FLAKY</span> &amp; slow?"));
    // Not a search: nothing marked.
    let q = GetMessages::around(Anchor::Newest, 1, 0).narrow(vec![NarrowTerm::new("channel", channel)]);
    let m = c.get_messages(&q).await.unwrap().messages.remove(0);
    assert!(m.match_content.is_none() && m.match_subject.is_none());
}

async fn queue_of(c: &Client) -> String {
    c.register(&RegisterParams::default()).await.unwrap().queue_id.expect("queue_id")
}

async fn events_of(c: &Client, queue_id: &str) -> Vec<EventKind> {
    let evs = c.get_events(queue_id, -1, true, std::time::Duration::from_secs(5)).await.unwrap();
    evs.into_iter().map(|e| e.kind).filter(|k| *k != EventKind::Heartbeat).collect()
}

#[tokio::test]
async fn muting_a_user_reads_their_messages_now_and_later_and_is_announced() {
    let env = Env::start().await;
    let (me, bob) = (env.client("member"), env.client("bob"));
    let bob_id = env.user_id("bob");
    let general = env.channel_id("general");
    let before = bob.send_message(&OutgoingMessage::channel(general, "muting", "before")).await.unwrap().id;
    let q = queue_of(&me).await;
    me.mute_user(bob_id).await.unwrap();
    let after = bob.send_message(&OutgoingMessage::channel(general, "muting", "after")).await.unwrap().id;
    for id in [before, after] {
        let flags = me.get_message(id, true).await.unwrap().message.flags;
        assert!(
            flags.contains(&topicterm::api::Flag::Read),
            "message {id} from a muted user is read: {flags:?}"
        );
    }
    let evs = events_of(&me, &q).await;
    assert!(evs.iter().any(
        |e| matches!(e, EventKind::MutedUsers { muted_users } if muted_users.iter().any(|m| m.id == bob_id))
    ));
    assert!(evs.iter().any(
        |e| matches!(e, EventKind::UpdateMessageFlags(f) if f.flag == topicterm::api::Flag::Read && f.messages.contains(&before))
    ));
    let reg = me.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.muted_users.unwrap().iter().map(|m| m.id).collect::<Vec<_>>(), vec![bob_id]);
    // The reference server's refusals.
    assert_eq!(me.mute_user(bob_id).await.unwrap_err().to_string(), "User already muted");
    assert_eq!(me.mute_user(env.user_id("member")).await.unwrap_err().to_string(), "Cannot mute self");
    assert_eq!(me.mute_user(99_999).await.unwrap_err().to_string(), "No such user");
    me.unmute_user(bob_id).await.unwrap();
    assert_eq!(me.unmute_user(bob_id).await.unwrap_err().to_string(), "User is not muted");
    let unread = bob.send_message(&OutgoingMessage::channel(general, "muting", "unmuted")).await.unwrap().id;
    assert!(!me.get_message(unread, true).await.unwrap().message.flags.contains(&topicterm::api::Flag::Read));
}

#[tokio::test]
async fn alert_words_flag_new_messages_as_whole_words_and_are_announced() {
    let env = Env::start().await;
    let (me, bob) = (env.client("member"), env.client("bob"));
    let general = env.channel_id("general");
    let q = queue_of(&me).await;
    let words = me.add_alert_words(&["Deploy".into(), "on call".into()]).await.unwrap().alert_words;
    assert_eq!(words, vec!["Deploy", "on call"]);
    assert_eq!(
        me.add_alert_words(&["deploy".into()]).await.unwrap().alert_words.len(),
        2,
        "no duplicates by case"
    );
    let send = |text: &'static str| {
        let bob = bob.clone();
        async move { bob.send_message(&OutgoingMessage::channel(general, "alerts", text)).await.unwrap().id }
    };
    let hit = send("who is ON CALL tonight? the deploy is late").await;
    let miss = send("redeployment of deployer_x").await;
    let flags = |id| {
        let me = me.clone();
        async move { me.get_message(id, true).await.unwrap().message.flags }
    };
    assert!(flags(hit).await.contains(&topicterm::api::Flag::HasAlertWord));
    assert!(
        !flags(miss).await.contains(&topicterm::api::Flag::HasAlertWord),
        "inside longer words is not a match"
    );
    // An edit is matched again: the word gone, the flag goes; back, it comes back.
    let edit = |text: &str| MessageEdit { content: Some(text.into()), ..Default::default() };
    bob.update_message(miss, &edit("the deploy moved")).await.unwrap();
    assert!(flags(miss).await.contains(&topicterm::api::Flag::HasAlertWord), "the edit added one");
    bob.update_message(miss, &edit("redeployment of deployer_x")).await.unwrap();
    assert!(!flags(miss).await.contains(&topicterm::api::Flag::HasAlertWord), "and took it away");
    let alerted = me
        .get_messages(
            &GetMessages::around(Anchor::Newest, 10, 0).narrow(vec![NarrowTerm::new("is", "alerted")]),
        )
        .await
        .unwrap();
    assert_eq!(alerted.messages.iter().map(|m| m.id).collect::<Vec<_>>(), vec![hit]);
    assert_eq!(me.get_alert_words().await.unwrap().alert_words, vec!["Deploy", "on call"]);
    let left = me.remove_alert_words(&["DEPLOY".into(), "never added".into()]).await.unwrap().alert_words;
    assert_eq!(left, vec!["on call"]);
    let evs = events_of(&me, &q).await;
    let lists: Vec<&Vec<String>> = evs
        .iter()
        .filter_map(|e| if let EventKind::AlertWords { alert_words } = e { Some(alert_words) } else { None })
        .collect();
    assert_eq!(lists.last().map(|l| l.as_slice()), Some(&["on call".to_owned()][..]));
    let too_long = "x".repeat(101);
    assert!(me.add_alert_words(&[too_long]).await.unwrap_err().to_string().contains("too long"));
}
