//! Emoji by Zulip's names: every name the client offers is one the server accepts, the names
//! Zulip has and gemoji lacks work, and gemoji-only names are translated before sending.

use crate::common::*;
use topicterm::api::*;

async fn some_message(c: &Client) -> MessageId {
    let q = GetMessages::around(Anchor::Newest, 1, 0);
    c.get_messages(&q).await.unwrap().messages[0].id
}

#[tokio::test]
async fn every_emoji_name_the_client_can_send_is_accepted() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = some_message(&c).await;
    let mut accepted = 0;
    for e in topicterm::emoji::all() {
        for name in e.names() {
            // Name and code together, as the client sends them (picker, completion, `:status`).
            let spec = EmojiSpec {
                emoji_name: Some(name.into()),
                emoji_code: Some(e.code.into()),
                reaction_type: Some("unicode_emoji".into()),
            };
            c.add_reaction(id, &spec)
                .await
                .unwrap_or_else(|err| panic!(":{name}: ({}) refused: {err}", e.code));
            c.remove_reaction(id, &spec).await.unwrap();
            accepted += 1;
        }
    }
    assert!(accepted > 2500, "{accepted}");
}

#[tokio::test]
async fn zulip_names_missing_from_gemoji_work_and_gemoji_only_names_are_translated() {
    let env = Env::start().await;
    let c = env.client("member");
    let id = some_message(&c).await;
    for (name, code) in
        [("thumbs_up", "1f44d"), ("like", "1f44d"), ("check", "2705"), ("working_on_it", "1f6e0")]
    {
        let spec = EmojiSpec { emoji_name: Some(name.into()), ..Default::default() };
        c.add_reaction(id, &spec).await.unwrap_or_else(|e| panic!(":{name}: refused: {e}"));
        let reactions = c.get_message(id, true).await.unwrap().message.reactions;
        assert!(
            reactions.iter().any(|r| (r.emoji_name.as_str(), r.emoji_code.as_str()) == (name, code)),
            "{name}"
        );
        // One reaction per emoji (by code) and person: the next alias of the same one needs this gone.
        c.remove_reaction(id, &spec).await.unwrap();
    }
    // A gemoji-only name is refused by the server, as by Zulip …
    let spec = EmojiSpec { emoji_name: Some("thumbsup".into()), ..Default::default() };
    let err = c.add_reaction(id, &spec).await.unwrap_err();
    assert_eq!(err.to_string(), "Emoji 'thumbsup' does not exist");
    // … and the client's translation of it is accepted.
    let (name, e) = topicterm::emoji::resolve("thumbsup").unwrap();
    let spec =
        EmojiSpec { emoji_name: Some(name.into()), emoji_code: Some(e.code.into()), ..Default::default() };
    c.add_reaction(id, &spec).await.unwrap();
    // A name that does not stand for the code is refused, whatever the code.
    let wrong = EmojiSpec {
        emoji_name: Some("check".into()),
        emoji_code: Some("1f44d".into()),
        reaction_type: Some("unicode_emoji".into()),
    };
    assert_eq!(c.add_reaction(id, &wrong).await.unwrap_err().to_string(), "Invalid emoji name.");
}
