//! `POST /user_uploads` (multipart) and the file served back to those who may read it.

use crate::common::*;
use topicterm::api::*;

fn body(bytes: &[u8]) -> reqwest::Body {
    reqwest::Body::from(bytes.to_vec())
}

#[tokio::test]
async fn an_uploaded_file_is_served_back_to_those_who_may_read_it() {
    let env = Env::start().await;
    let c = env.client("member");
    let text = b"line one\nline two\n";
    let r = c.upload_file("notes for you.txt", text.len() as u64, body(text)).await.unwrap();
    assert!(r.url.starts_with("/user_uploads/") && r.url.ends_with("/notes-for-you.txt"), "{r:?}");
    assert_eq!(r.uri, r.url, "the legacy name too");
    assert_eq!(r.filename.as_deref(), Some("notes-for-you.txt"));
    // Another user reads it back with their credentials once it is in a message they can read
    // (before that, only its uploader: `hostile_server.rs`).
    let general = env.channel_id("general");
    c.send_message(&OutgoingMessage::channel(general, "notes", &format!("[notes]({})", r.url)))
        .await
        .unwrap();
    assert_eq!(env.client("bob").download(&r.url).await.unwrap(), text);
    // Without credentials: refused.
    let anon = reqwest::get(format!("{}{}", env.server.url, r.url)).await.unwrap();
    assert_eq!(anon.status(), 401);
    // A path cannot climb out of its folder.
    let r = c.upload_file("../../etc/passwd", 1, body(b"x")).await.unwrap();
    assert!(r.url.ends_with("/passwd") && !r.url.contains(".."), "{r:?}");
}

/// A download with a cap (pictures: 10 MB) stops reading past it and says so.
#[tokio::test]
async fn a_capped_download_refuses_a_larger_file() {
    let env = Env::start().await;
    let c = env.client("member");
    let big = vec![b'x'; (1 << 20) + 10];
    let r = c.upload_file("big.png", big.len() as u64, body(&big)).await.unwrap();
    let err = c.download_at_most(&r.url, 1 << 20).await.unwrap_err();
    assert!(
        matches!(
            err,
            topicterm::api::ApiError::Limit(topicterm::api::LimitError::TooLargeToFetch { max_mib: 1 })
        ),
        "{err}"
    );
    assert_eq!(c.download_at_most(&r.url, 2 << 20).await.unwrap().len(), big.len());
}

#[tokio::test]
async fn uploads_larger_than_the_limit_or_without_a_file_are_refused() {
    let env = Env::start().await;
    let c = env.client("member");
    let reg = c
        .register(&RegisterParams { fetch_event_types: Some(vec!["realm".into()]), ..Default::default() })
        .await
        .unwrap();
    let max = reg.max_file_upload_size_mib.expect("the limit is announced") as usize;
    let big = vec![b'x'; (max << 20) + 1];
    let err = c.upload_file("big.bin", big.len() as u64, body(&big)).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("File is larger than this server's configured maximum upload size ({max} MiB).")
    );
    // A form without a file part.
    let (status, reply) = env.raw("member", "POST", "/user_uploads", &[("filename", "x")]).await;
    assert_eq!((status, reply["msg"].as_str()), (400, Some("You must specify a file to upload")), "{reply}");
}
