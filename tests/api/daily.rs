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
