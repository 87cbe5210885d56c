//! Operations on messages: report, edit history, mark a topic as read, reactions, typing for
//! edits. (Getting messages and narrows are in `messages.rs`, whose helpers these share;
//! sending, editing and flags in `messages_send.rs`.)

use crate::common::{Env, assert_err};
use crate::messages::*;
use serde_json::json;
use std::collections::BTreeSet;
use topicterm::api::*;
use topicterm::server::ServerOptions;

// ---------------------------------------------------------------------------------------------
// Operation 9: report a message
// ---------------------------------------------------------------------------------------------

/// The newest messages of the moderation channel, raw Markdown, as an administrator reads them.
async fn moderation_messages(env: &Env, n: u64) -> Vec<Message> {
    let q = GetMessages {
        apply_markdown: Some(false),
        ..GetMessages::around(Anchor::Newest, n, 0).narrow(vec![t("channel", env.channel_id("moderation"))])
    };
    env.client("admin").get_messages(&q).await.unwrap().messages
}

#[tokio::test]
async fn report_posts_a_notification_into_the_moderation_channel() {
    let env = Env::start().await;
    let member = env.client("member");
    let moderator = env.client("moderator");
    let mod_queue = queue(&moderator).await;
    let reported = find(&member, "pull/1902").await;
    let before = moderation_messages(&env, 1).await[0].id;
    member.report_message(reported.id, "spam", Some("Looks like an ad to me")).await.unwrap();

    let latest = moderation_messages(&env, 1).await.remove(0);
    assert!(latest.id > before);
    assert_eq!(latest.channel_name(), Some("moderation"));
    for needle in ["Maya Lindqvist", "Alice Okafor", "Spam", "Looks like an ad to me", "pull/1902"] {
        assert!(latest.content.contains(needle), "{needle:?} in {}", latest.content);
    }
    assert!(latest.subject.contains("Alice Okafor"), "{}", latest.subject);
    // Subscribers of the moderation channel get it live.
    let delivered = message_events(&events(&moderator, &mod_queue).await);
    assert!(delivered.iter().any(|e| e.message.id == latest.id));
    // The reporter is not in the channel and cannot read it.
    let r = member
        .get_messages(&GetMessages::around(Anchor::Newest, 1, 0).narrow(vec![t("channel", "moderation")]))
        .await;
    assert_err(r, "BAD_NARROW", "");
}

#[tokio::test]
async fn every_report_type_from_register_is_accepted() {
    let env = Env::start().await;
    let member = env.client("member");
    let types =
        member.register(&RegisterParams::default()).await.unwrap().server_report_message_types.unwrap();
    let keys: BTreeSet<&str> = types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, BTreeSet::from(["harassment", "inappropriate", "norms", "other", "spam"]));
    let reported = find(&member, "pull/1902").await;
    for rt in &types {
        member.report_message(reported.id, &rt.key, Some("see above")).await.unwrap();
        let latest = moderation_messages(&env, 1).await.remove(0);
        assert!(latest.content.contains(&rt.name), "{} in {}", rt.name, latest.content);
    }
}

#[tokio::test]
async fn report_of_type_other_needs_a_description() {
    let env = Env::start().await;
    let member = env.client("member");
    let reported = find(&member, "pull/1902").await;
    let before = env.requests();
    for desc in [None, Some("   ")] {
        let r = member.report_message(reported.id, "other", desc).await;
        assert_limit(&env, before, r, LimitError::ReportDescriptionRequired);
    }
    let newest = moderation_messages(&env, 1).await[0].id;
    let raw = env
        .raw("member", "POST", &format!("/messages/{}/report", reported.id), &[("report_type", "other")])
        .await;
    assert_400(raw, "BAD_REQUEST");
    assert_eq!(moderation_messages(&env, 1).await[0].id, newest, "nothing was posted");
}

#[tokio::test]
async fn report_description_is_limited_to_1000_code_points() {
    let env = Env::start().await;
    let member = env.client("member");
    let reported = find(&member, "pull/1902").await;
    let before = env.requests();
    let long = "é".repeat(1001);
    let r = member.report_message(reported.id, "spam", Some(&long)).await;
    assert_limit(&env, before, r, LimitError::ReportDescriptionTooLong(1001));
    // 1000 two-byte characters are 1000 code points, within the limit.
    member.report_message(reported.id, "spam", Some(&"é".repeat(1000))).await.unwrap();
    let path = format!("/messages/{}/report", reported.id);
    let raw =
        env.raw("member", "POST", &path, &[("report_type", "spam"), ("description", long.as_str())]).await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn report_with_an_unknown_type_is_a_bad_request() {
    let env = Env::start().await;
    let member = env.client("member");
    let reported = find(&member, "pull/1902").await;
    assert_err(member.report_message(reported.id, "boring", None).await, "BAD_REQUEST", "report_type");
}

#[tokio::test]
async fn report_of_an_inaccessible_message_is_a_bad_request() {
    let env = Env::start().await;
    let member = env.client("member");
    let hidden = find(&env.client("admin"), "Draft hiring plan").await;
    assert_err(member.report_message(hidden.id, "spam", None).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn register_names_the_moderation_channel_and_reports_need_one() {
    let env = Env::start().await;
    let member = env.client("member");
    let reg = member.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.realm_moderation_request_channel_id, Some(env.channel_id("moderation")));

    let admin = env.client("admin");
    admin.update_realm(Params::new().add("moderation_request_channel_id", -1)).await.unwrap();
    let reg = member.register(&RegisterParams::default()).await.unwrap();
    assert_eq!(reg.realm_moderation_request_channel_id, Some(-1));
    let reported = find(&member, "pull/1902").await;
    assert_err(
        member.report_message(reported.id, "spam", None).await,
        "BAD_REQUEST",
        "Moderation request channel",
    );
}

// ---------------------------------------------------------------------------------------------
// Operation 10: edit history
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn history_of_an_unedited_message_is_one_snapshot() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Tally so far TOML").await;
    let raw_content = c.get_message(m.id, false).await.unwrap().message.content;
    let h = c.get_message_history(m.id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].topic, "bikeshed: config file format");
    assert_eq!(h[0].content, raw_content);
    assert_eq!(h[0].rendered_content, m.content);
    assert_eq!(h[0].user_id, Some(m.sender_id));
    assert_eq!(h[0].timestamp, m.timestamp);
    assert!(m.edit_history.is_none() && m.last_edit_timestamp.is_none() && m.last_moved_timestamp.is_none());

    let (status, body) = env.raw("member", "GET", &format!("/messages/{}/history", m.id), &[]).await;
    assert_eq!(status, 200);
    let keys: BTreeSet<&str> =
        body["message_history"][0].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["content", "rendered_content", "timestamp", "topic", "user_id"]));
}

#[tokio::test]
async fn history_of_the_seeded_message_with_content_and_topic_edits() {
    let env = Env::start().await;
    let c = env.client("member");
    let (alice, admin) = (env.user_id("alice"), env.user_id("admin"));
    let m = find(&c, "Update: fixed, see below").await;
    assert_eq!(m.subject, "staging certificate expiry");
    let h = c.get_message_history(m.id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 4, "the original and three edits");
    let original = "Unrelated, but staging is throwing cert erors sinc this morning:";
    let fixed = "Unrelated, but staging is throwing cert errors since this morning:";

    // The original: only the five base fields.
    assert!(h[0].content.starts_with(original));
    assert_eq!(h[0].topic, "release 2.4 planning");
    assert_eq!((h[0].user_id, h[0].timestamp), (Some(alice), m.timestamp));
    assert!(h[0].prev_content.is_none() && h[0].prev_topic.is_none() && h[0].stream.is_none());

    // 1: content edit by alice, two minutes later.
    assert!(h[1].content.starts_with(fixed));
    assert_eq!(h[1].prev_content.as_deref(), Some(h[0].content.as_str()));
    assert_eq!(h[1].prev_rendered_content.as_deref(), Some(h[0].rendered_content.as_str()));
    let diff = h[1].content_html_diff.as_deref().unwrap();
    assert!(diff.contains("errors") && diff.contains("highlight_text_inserted"), "{diff}");
    assert_eq!(h[1].topic, "release 2.4 planning");
    assert!(h[1].prev_topic.is_none() && h[1].stream.is_none() && h[1].prev_stream.is_none());
    assert_eq!((h[1].user_id, h[1].timestamp), (Some(alice), m.timestamp + 120));

    // 2: topic edit by admin: the content is unchanged and not marked edited.
    assert_eq!(h[2].prev_topic.as_deref(), Some("release 2.4 planning"));
    assert_eq!(h[2].topic, "staging certificate expiry");
    assert_eq!(h[2].content, h[1].content);
    assert!(h[2].prev_content.is_none() && h[2].content_html_diff.is_none() && h[2].stream.is_none());
    assert_eq!((h[2].user_id, h[2].timestamp), (Some(admin), m.timestamp + 600));

    // 3: content edit by alice.
    assert!(h[3].content.ends_with("**Update:** fixed, see below."));
    assert_eq!(h[3].prev_content.as_deref(), Some(h[2].content.as_str()));
    assert!(h[3].content_html_diff.is_some());
    assert!(h[3].prev_topic.is_none());
    assert_eq!(h[3].topic, "staging certificate expiry");
    assert_eq!(h[3].rendered_content, m.content, "the last snapshot is the current message");
    assert_eq!((h[3].user_id, h[3].timestamp), (Some(alice), m.timestamp + 2700));

    // get-messages carries the same edits, newest first.
    let eh = m.edit_history.clone().unwrap();
    assert_eq!(eh.len(), 3);
    assert_eq!(eh[0].prev_content.as_deref(), Some(h[2].content.as_str()));
    assert_eq!(eh[1].prev_topic.as_deref(), Some("release 2.4 planning"));
    assert_eq!(eh[1].topic.as_deref(), Some("staging certificate expiry"));
    assert!(eh[1].prev_content.is_none());
    assert_eq!(eh[2].prev_content.as_deref(), Some(h[0].content.as_str()));
    assert_eq!(m.last_edit_timestamp, Some(m.timestamp + 2700));
    assert_eq!(m.last_moved_timestamp, Some(m.timestamp + 600));
}

#[tokio::test]
async fn history_of_a_moved_message_names_both_channels() {
    let env = Env::start().await;
    let c = env.client("member");
    let (eng, support) = (env.channel_id("engineering"), env.channel_id("support"));
    let m = find(&c, "exporting a channel with").await;
    assert_eq!(m.stream_id, Some(support));
    let h = c.get_message_history(m.id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 2);
    assert!(h[0].stream.is_none() && h[0].prev_stream.is_none());
    assert_eq!((h[1].prev_stream, h[1].stream), (Some(eng), Some(support)));
    assert!(h[1].prev_topic.is_none() && h[1].prev_content.is_none() && h[1].content_html_diff.is_none());
    assert_eq!(h[1].topic, h[0].topic);
    assert_eq!(h[1].user_id, Some(env.user_id("moderator")));
    let eh = &m.edit_history.clone().unwrap()[0];
    assert_eq!((eh.prev_stream, eh.stream), (Some(eng), Some(support)));
    assert!(m.last_moved_timestamp.is_some());
    assert!(m.last_edit_timestamp.is_none(), "a move is not a content edit");
}

#[tokio::test]
async fn history_shows_a_fresh_edit() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = send_channel(&c, env.channel_id("engineering"), "history test", "first draft").await;
    c.update_message(id, &MessageEdit { content: Some("second draft".into()), ..Default::default() })
        .await
        .unwrap();
    let h = c.get_message_history(id, false).await.unwrap().message_history;
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].content, "first draft");
    assert_eq!(h[1].content, "second draft");
    assert_eq!(h[1].prev_content.as_deref(), Some("first draft"));
    assert_eq!(h[1].user_id, Some(env.user_id("member")));
    let diff = h[1].content_html_diff.as_deref().unwrap();
    assert!(diff.contains("second") && diff.contains("first"), "{diff}");
}

#[tokio::test]
async fn history_of_a_missing_or_inaccessible_message_is_a_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.get_message_history(99_999_999, false).await, "BAD_REQUEST", "");
    let hidden = find(&env.client("admin"), "Draft hiring plan").await;
    assert_err(c.get_message_history(hidden.id, false).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn disabled_edit_history_refuses_history_and_hides_edit_history() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Update: fixed, see below").await;
    assert!(m.edit_history.is_some());
    env.client("admin").update_realm(Params::new().add("allow_edit_history", false)).await.unwrap();
    assert_err(c.get_message_history(m.id, false).await, "BAD_REQUEST", "");
    let again = find(&c, "Update: fixed, see below").await;
    assert!(again.edit_history.is_none(), "edit_history is absent when viewing it is disallowed");
    assert_eq!(again.last_edit_timestamp, m.last_edit_timestamp);
}

#[tokio::test]
async fn history_replaces_the_empty_topic_unless_allowed() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = send_channel(&c, env.channel_id("general"), "", "in the empty topic").await;
    let plain_q = queue(&c).await;
    let capable = env.client("member");
    let caps =
        RegisterParams { client_capabilities: Some(json!({"empty_topic_name": true})), ..Default::default() };
    let capable_q = capable.register(&caps).await.unwrap().queue_id.unwrap();
    c.update_message(id, &move_to(Some("named now"), None, "change_one")).await.unwrap();
    // The update event names the old topic the way each queue's client can show it.
    let plain = update_events(&events(&c, &plain_q).await);
    assert_eq!(plain[0].orig_subject.as_deref(), Some("general chat"));
    assert_eq!(plain[0].subject.as_deref(), Some("named now"));
    let with_capability = update_events(&events(&capable, &capable_q).await);
    assert_eq!(with_capability[0].orig_subject.as_deref(), Some(""));

    let h = c.get_message_history(id, false).await.unwrap().message_history;
    assert_eq!(h[0].topic, "general chat");
    assert_eq!(h[1].prev_topic.as_deref(), Some("general chat"));
    assert_eq!(h[1].topic, "named now");
    let h = c.get_message_history(id, true).await.unwrap().message_history;
    assert_eq!(h[0].topic, "");
    assert_eq!(h[1].prev_topic.as_deref(), Some(""));
}

// ---------------------------------------------------------------------------------------------
// Operation 11: mark a topic as read
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn mark_topic_as_read_marks_only_that_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let q = queue(&c).await;
    let eng = env.channel_id("engineering");
    let topic = vec![t("channel", eng), t("topic", "bikeshed: config file format"), t("is", "unread")];
    let other = vec![t("channel", eng), t("topic", "release 2.4 planning"), t("is", "unread")];
    let unread = ids(&all(&c, topic.clone()).await);
    let other_unread = ids(&all(&c, other.clone()).await);
    assert!(!unread.is_empty() && !other_unread.is_empty());

    c.mark_topic_as_read(eng, "bikeshed: config file format").await.unwrap();
    assert!(all(&c, topic).await.is_empty());
    assert_eq!(ids(&all(&c, other).await), other_unread, "other topics stay unread");
    let flags = flag_events(&events(&c, &q).await);
    assert_eq!(flags.len(), 1);
    assert_eq!((&flags[0].op, flags[0].flag.as_str()), (&AddRemove::Add, "read"));
    assert_eq!(flags[0].messages, unread);
}

#[tokio::test]
async fn mark_topic_as_read_takes_the_empty_topic_display_name() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let general = env.channel_id("general");
    let unread = vec![t("channel", general), t("topic", ""), t("is", "unread")];
    let mut expected = ids(&all(&c, unread.clone()).await);
    expected.push(send_channel(&alice, general, "", "first in the empty topic").await);
    expected.push(send_channel(&alice, general, "", "second in the empty topic").await);
    assert_eq!(ids(&all(&c, unread.clone()).await), expected);
    let q = queue(&c).await;
    c.mark_topic_as_read(general, "general chat").await.unwrap();
    assert!(all(&c, unread).await.is_empty());
    assert_eq!(flag_events(&events(&c, &q).await)[0].messages, expected);
    // Messages in named topics of the channel stay unread.
    let named =
        all(&c, vec![t("channel", general), t("topic", "all-hands questions"), t("is", "unread")]).await;
    assert!(!named.is_empty());
}

#[tokio::test]
async fn mark_topic_as_read_takes_no_topic_as_the_empty_topic() {
    let env = Env::start().await;
    let c = env.client("member");
    let general = env.channel_id("general");
    send_channel(&env.client("alice"), general, "", "unread in the empty topic").await;
    let unread = vec![t("channel", general), t("topic", ""), t("is", "unread")];
    assert!(!all(&c, unread.clone()).await.is_empty());
    c.mark_topic_as_read(general, "(no topic)").await.unwrap();
    assert!(all(&c, unread).await.is_empty());
}

#[tokio::test]
async fn mark_topic_as_read_in_an_invalid_or_inaccessible_channel_is_a_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    assert_err(c.mark_topic_as_read(99_999, "x").await, "BAD_REQUEST", "");
    assert_err(c.mark_topic_as_read(env.channel_id("leadership"), "offsite").await, "BAD_REQUEST", "");
}

// ---------------------------------------------------------------------------------------------
// Operation 13: remove a reaction (and adding them)
// ---------------------------------------------------------------------------------------------

fn mine<'a>(m: &'a Message, user: UserId, name: &str) -> Option<&'a Reaction> {
    m.reactions.iter().find(|r| r.user_id == user && r.emoji_name == name)
}

#[tokio::test]
async fn remove_a_unicode_reaction_with_the_stored_values() {
    let env = Env::start().await;
    let c = env.client("member");
    let alice = env.client("alice");
    let me = env.user_id("member");
    let alice_q = queue(&alice).await;
    let m = find(&c, "Please join me in welcoming").await;
    let r = mine(&m, me, "tada").cloned().expect("member reacted with tada");
    assert_eq!(r.reaction_type, ReactionType::UnicodeEmoji);
    assert_eq!(r.emoji_code, "1f389");
    c.remove_reaction(m.id, &EmojiSpec::from(&r)).await.unwrap();

    let after = c.get_message(m.id, true).await.unwrap().message;
    assert!(mine(&after, me, "tada").is_none());
    assert_eq!(after.reactions.len(), m.reactions.len() - 1, "other reactions stay");
    let evs = reaction_events(&events(&alice, &alice_q).await);
    assert_eq!(evs.len(), 1);
    let e = &evs[0];
    assert_eq!((&e.op, e.message_id, e.user_id), (&AddRemove::Remove, m.id, me));
    assert_eq!((e.emoji_name.as_str(), e.emoji_code.as_str()), ("tada", "1f389"));
    assert_eq!(e.reaction_type, ReactionType::UnicodeEmoji);
}

#[tokio::test]
async fn add_and_remove_a_custom_emoji_reaction() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let q = queue(&c).await;
    let m = find(&c, "Tally so far TOML").await;
    let spec = EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() };
    c.add_reaction(m.id, &spec).await.unwrap();
    let stored = c.get_message(m.id, true).await.unwrap().message;
    let r = mine(&stored, me, "partyparrot").cloned().unwrap();
    assert_eq!(r.reaction_type, ReactionType::RealmEmoji);
    assert!(r.emoji_code.parse::<i64>().is_ok(), "a custom emoji's code is its ID");
    c.remove_reaction(m.id, &EmojiSpec::from(&r)).await.unwrap();
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
    let evs = reaction_events(&events(&c, &q).await);
    let ops: Vec<&AddRemove> = evs.iter().map(|e| &e.op).collect();
    assert_eq!(ops, [&AddRemove::Add, &AddRemove::Remove]);
    assert!(evs.iter().all(|e| e.emoji_code == r.emoji_code && e.reaction_type == ReactionType::RealmEmoji));
}

#[tokio::test]
async fn add_and_remove_a_service_extra_emoji_reaction() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Tally so far TOML").await;
    c.add_reaction(m.id, &EmojiSpec { emoji_name: Some("zulip".into()), ..Default::default() })
        .await
        .unwrap();
    let stored = c.get_message(m.id, true).await.unwrap().message;
    let r = mine(&stored, me, "zulip").cloned().unwrap();
    assert_eq!(r.reaction_type, ReactionType::SvcExtraEmoji);
    assert_eq!(r.emoji_code, "zulip");
    c.remove_reaction(m.id, &EmojiSpec::from(&r)).await.unwrap();
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn remove_without_reaction_type_does_not_assume_unicode() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Tally so far TOML").await;
    c.add_reaction(m.id, &EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() })
        .await
        .unwrap();
    let r = mine(&c.get_message(m.id, true).await.unwrap().message, me, "partyparrot").cloned().unwrap();
    // The code of a custom emoji is not a valid Unicode code: this only works if the server
    // does not assume unicode_emoji when reaction_type is absent.
    let spec = EmojiSpec {
        emoji_name: Some(r.emoji_name.clone()),
        emoji_code: Some(r.emoji_code.clone()),
        reaction_type: None,
    };
    c.remove_reaction(m.id, &spec).await.unwrap();
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn remove_a_reaction_by_code_alone_or_by_name_alone() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Please join me in welcoming").await;
    let tada = mine(&m, me, "tada").cloned().unwrap();
    // emoji_name is optional: code and type identify the reaction.
    let by_code = EmojiSpec {
        emoji_name: None,
        emoji_code: Some(tada.emoji_code.clone()),
        reaction_type: Some("unicode_emoji".into()),
    };
    c.remove_reaction(m.id, &by_code).await.unwrap();
    assert!(mine(&c.get_message(m.id, true).await.unwrap().message, me, "tada").is_none());

    let party = find(&c, "Tally so far TOML").await;
    c.add_reaction(party.id, &EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() })
        .await
        .unwrap();
    let by_name = EmojiSpec { emoji_name: Some("partyparrot".into()), ..Default::default() };
    c.remove_reaction(party.id, &by_name).await.unwrap();
    assert!(c.get_message(party.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn add_reaction_needs_an_emoji_name() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Tally so far TOML").await;
    let before = env.requests();
    let spec = EmojiSpec { emoji_name: None, emoji_code: Some("1f389".into()), reaction_type: None };
    assert_limit(&env, before, c.add_reaction(m.id, &spec).await, LimitError::EmojiNameRequired);
    let path = format!("/messages/{}/reactions", m.id);
    let (status, _) = env.raw("member", "POST", &path, &[("emoji_code", "1f389")]).await;
    assert_eq!(status, 400);
    assert!(c.get_message(m.id, true).await.unwrap().message.reactions.is_empty());
}

#[tokio::test]
async fn removing_an_absent_reaction_is_reaction_does_not_exist() {
    let env = Env::start().await;
    let c = env.client("member");
    let me = env.user_id("member");
    let m = find(&c, "Please join me in welcoming").await;
    // Others reacted with wave; member did not.
    let wave = m.reactions.iter().find(|r| r.emoji_name == "wave").cloned().unwrap();
    assert!(mine(&m, me, "wave").is_none());
    assert_err(c.remove_reaction(m.id, &EmojiSpec::from(&wave)).await, "REACTION_DOES_NOT_EXIST", "");
    let after = c.get_message(m.id, true).await.unwrap().message;
    assert_eq!(after.reactions, m.reactions, "nobody's reaction was removed");
}

#[tokio::test]
async fn before_feature_level_193_an_absent_reaction_is_a_bad_request() {
    let env = Env::start_with(ServerOptions { feature_level: 192, ..Default::default() }).await;
    let c = env.client("member");
    let m = find(&c, "Please join me in welcoming").await;
    let wave = m.reactions.iter().find(|r| r.emoji_name == "wave").cloned().unwrap();
    assert_err(c.remove_reaction(m.id, &EmojiSpec::from(&wave)).await, "BAD_REQUEST", "");
}

#[tokio::test]
async fn removing_with_an_invalid_emoji_code_is_a_bad_request() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Please join me in welcoming").await;
    for rt in [Some("unicode_emoji"), Some("realm_emoji"), None] {
        let spec = EmojiSpec {
            emoji_name: Some("tada".into()),
            emoji_code: Some("not-a-code".into()),
            reaction_type: rt.map(str::to_owned),
        };
        assert_err(c.remove_reaction(m.id, &spec).await, "BAD_REQUEST", "emoji code");
    }
    assert_eq!(c.get_message(m.id, true).await.unwrap().message.reactions, m.reactions);
}

#[tokio::test]
async fn adding_a_reaction_twice_or_an_unknown_emoji_fails() {
    let env = Env::start().await;
    let c = env.client("member");
    let m = find(&c, "Please join me in welcoming").await;
    let tada = EmojiSpec { emoji_name: Some("tada".into()), ..Default::default() };
    assert_err(c.add_reaction(m.id, &tada).await, "REACTION_ALREADY_EXISTS", "");
    let unknown = EmojiSpec { emoji_name: Some("no_such_emoji_anywhere".into()), ..Default::default() };
    assert_err(c.add_reaction(m.id, &unknown).await, "BAD_REQUEST", "");
    // A valid code does not make a made-up name valid.
    let made_up = EmojiSpec {
        emoji_name: Some("not_a_real_name".into()),
        emoji_code: Some("1f44d".into()),
        reaction_type: Some("unicode_emoji".into()),
    };
    assert_err(c.add_reaction(m.id, &made_up).await, "BAD_REQUEST", "Invalid emoji name");
    assert_eq!(c.get_message(m.id, true).await.unwrap().message.reactions, m.reactions);
}

// ---------------------------------------------------------------------------------------------
// Operation 17: typing notifications for message edits
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn edit_typing_in_a_channel_notifies_the_other_subscribers() {
    let env = Env::start().await;
    let member = env.client("member");
    let (alice, guest) = (env.client("alice"), env.client("guest"));
    let eng = env.channel_id("engineering");
    let id = send_channel(&member, eng, "typing test", "to be edited").await;
    let (mq, aq, gq) = (queue(&member).await, queue(&alice).await, queue(&guest).await);

    member.set_edit_typing(id, TypingOp::Start).await.unwrap();
    member.set_edit_typing(id, TypingOp::Stop).await.unwrap();
    let got = typing_edits(&events(&alice, &aq).await);
    let ops: Vec<&StartStop> = got.iter().map(|e| &e.op).collect();
    assert_eq!(ops, [&StartStop::Start, &StartStop::Stop]);
    for e in &got {
        assert_eq!((e.sender_id, e.message_id), (env.user_id("member"), id));
        assert_eq!(e.recipient, Some(json!({"type": "channel", "channel_id": eng, "topic": "typing test"})));
    }
    assert!(typing_edits(&events(&member, &mq).await).is_empty(), "not to the sender");
    assert!(typing_edits(&events(&guest, &gq).await).is_empty(), "not to non-subscribers");
}

#[tokio::test]
async fn edit_typing_in_a_direct_message_notifies_the_participants() {
    let env = Env::start().await;
    let member = env.client("member");
    let (farid, alice) = (env.client("farid"), env.client("alice"));
    let (me, farid_id) = (env.user_id("member"), env.user_id("farid"));
    let id = send_dm(&member, vec![farid_id], "dm to be edited").await;
    let (fq, aq) = (queue(&farid).await, queue(&alice).await);
    member.set_edit_typing(id, TypingOp::Start).await.unwrap();
    let got = typing_edits(&events(&farid, &fq).await);
    assert_eq!(got.len(), 1);
    assert_eq!((&got[0].op, got[0].sender_id, got[0].message_id), (&StartStop::Start, me, id));
    let mut users = vec![me, farid_id];
    users.sort_unstable();
    assert_eq!(got[0].recipient, Some(json!({"type": "direct", "user_ids": users})));
    assert!(typing_edits(&events(&alice, &aq).await).is_empty());
}

#[tokio::test]
async fn edit_typing_with_an_invalid_op_is_a_bad_request() {
    let env = Env::start().await;
    let member = env.client("member");
    let id = send_channel(&member, env.channel_id("engineering"), "typing", "x").await;
    let raw = env.raw("member", "POST", &format!("/messages/{id}/typing"), &[("op", "pause")]).await;
    assert_400(raw, "BAD_REQUEST");
}

#[tokio::test]
async fn edit_typing_needs_an_accessible_message_of_ones_own() {
    let env = Env::start().await;
    let member = env.client("member");
    let hidden = find(&env.client("admin"), "Draft hiring plan").await;
    assert_err(member.set_edit_typing(hidden.id, TypingOp::Start).await, "BAD_REQUEST", "");
    assert_err(member.set_edit_typing(99_999_999, TypingOp::Start).await, "BAD_REQUEST", "");
    let alices = find(&member, "pull/1902").await;
    assert_err(member.set_edit_typing(alices.id, TypingOp::Start).await, "BAD_REQUEST", "permission");
    // Content edits belong to the sender alone, even for moderators.
    let own = send_channel(&member, env.channel_id("engineering"), "typing", "mine").await;
    let moderator = env.client("moderator");
    assert_err(moderator.set_edit_typing(own, TypingOp::Start).await, "BAD_REQUEST", "permission");
}

#[tokio::test]
async fn edit_typing_uses_the_legacy_path_before_feature_level_361() {
    let env = Env::start_with(ServerOptions { feature_level: 355, ..Default::default() }).await;
    let member = env.client("member");
    let farid = env.client("farid");
    let id = send_dm(&member, vec![env.user_id("farid")], "old server").await;
    // This server has no /messages/{id}/typing yet.
    let (status, _) = env.raw("member", "POST", &format!("/messages/{id}/typing"), &[("op", "start")]).await;
    assert_eq!(status, 404);
    assert_err(member.set_edit_typing(id, TypingOp::Start).await, "NOT_FOUND", "");
    // Once the client knows the feature level it uses /message_edit_typing.
    let fq = queue(&farid).await;
    member.register(&RegisterParams::default()).await.unwrap();
    member.set_edit_typing(id, TypingOp::Start).await.unwrap();
    let got = typing_edits(&events(&farid, &fq).await);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].message_id, id);
}

#[tokio::test]
async fn edit_typing_legacy_path_is_gone_from_feature_level_361() {
    let env = Env::start().await;
    let member = env.client("member");
    let id = send_channel(&member, env.channel_id("engineering"), "typing", "new server").await;
    let id = id.to_string();
    let (status, _) = env
        .raw("member", "POST", "/message_edit_typing", &[("message_id", id.as_str()), ("op", "start")])
        .await;
    assert_eq!(status, 404);
}
