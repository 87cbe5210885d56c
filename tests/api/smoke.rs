//! The harness works end to end.

use crate::common::Env;
use topicterm::api::*;

#[tokio::test]
async fn member_registers_and_reads_messages() {
    let env = Env::start().await;
    let c = env.client("member");
    let reg = c.register(&RegisterParams::default()).await.unwrap();
    assert!(reg.queue_id.is_some());
    assert_eq!(reg.max_topic_length, Some(60));
    assert_eq!(reg.realm_empty_topic_display_name.as_deref(), Some("general chat"));
    let msgs = c.get_messages(&GetMessages::around(Anchor::Newest, 50, 0)).await.unwrap();
    assert_eq!(msgs.messages.len(), 50);
    assert!(msgs.found_newest);
    assert!(msgs.messages.windows(2).all(|w| w[0].id < w[1].id));
}

#[tokio::test]
async fn wrong_key_is_401_json() {
    let env = Env::start().await;
    let mut creds = env.creds("member");
    creds.api_key = "wrong".into();
    let c = Client::new(&creds).unwrap();
    let err = c.get_subscriptions(None).await.unwrap_err();
    let e = err.server().expect("server error");
    assert_eq!(e.status, 401);
    assert_eq!((e.code.as_str(), e.msg.as_str()), ("UNAUTHORIZED", "Malformed API key"));
    assert!(err.is_auth());
}
