//! The user's uploads through the typed client (`crates/topicterm-api/src/attachments.rs`): listed with the
//! messages that link to them and the space uploads take, the `attachment` events (uploaded, linked,
//! deleted), deletion, and the organization's quota.

use crate::common::*;
use topicterm::api::*;
use topicterm::server::ServerOptions;

fn body(bytes: &[u8]) -> reqwest::Body {
    reqwest::Body::from(bytes.to_vec())
}

#[tokio::test]
async fn uploads_are_listed_where_used_and_deleted_with_their_events() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let q = env.queue("member", r#"["attachment"]"#).await;
    let used = c.upload_file("report.pdf", 5, body(b"%PDF-")).await.unwrap();
    c.upload_file("notes.txt", 3, body(b"abc")).await.unwrap();
    let general = env.channel_id("general");
    let m = OutgoingMessage::channel(general, "reports", &format!("see [report.pdf]({})", used.url));
    let linked = c.send_message(&m).await.unwrap().id;
    let list = c.get_attachments().await.unwrap();
    assert_eq!(list.upload_space_used, Some(8), "every upload of the organization");
    let report = list.attachments.iter().find(|a| a.name == "report.pdf").expect("listed");
    assert_eq!((report.size, report.message_ids.clone()), (5, vec![linked]));
    assert_eq!(report.url(), used.url, "the link a message uses");
    assert!(report.uploaded_at() > 1_700_000_000 && report.uploaded_at() < 4_000_000_000, "seconds");
    let notes = list.attachments.iter().find(|a| a.name == "notes.txt").expect("listed");
    assert!(notes.message_ids.is_empty());
    // Others do not see them, nor may they delete them.
    assert!(env.client("alice").get_attachments().await.unwrap().attachments.is_empty());
    let err = env.client("alice").remove_attachment(notes.id).await.unwrap_err();
    assert_eq!(err.server().map(|s| s.msg.as_str()), Some("Invalid attachment"));
    c.remove_attachment(notes.id).await.unwrap();
    let left = c.get_attachments().await.unwrap();
    assert_eq!(left.attachments.len(), 1);
    assert_eq!(left.upload_space_used, Some(5));
    // The events, as the reference server sends them: uploaded (twice), linked, deleted.
    let events: Vec<AttachmentEvent> = env
        .events("member", &q)
        .await
        .into_iter()
        .filter_map(|e| match Event::decode(e).kind {
            EventKind::Attachment(a) => Some(a),
            _ => None,
        })
        .collect();
    let ops: Vec<String> = events
        .iter()
        .map(|e| match &e.change {
            AttachmentChange::Add(a) => format!("add {}", a.name),
            AttachmentChange::Update(a) => format!("update {} in {}", a.name, a.message_ids.len()),
            AttachmentChange::Remove(id) => format!("remove {}", if *id == notes.id { "notes" } else { "?" }),
        })
        .collect();
    assert_eq!(ops, ["add report.pdf", "add notes.txt", "update report.pdf in 1", "remove notes"]);
    assert_eq!(events.last().and_then(|e| e.upload_space_used), Some(5));
}

#[tokio::test]
async fn a_new_upload_never_takes_the_place_of_an_earlier_one() {
    let env = Env::start().await;
    let c = env.registered_client("member").await;
    let first = c.upload_file("a.txt", 5, body(b"first")).await.unwrap();
    let second = c.upload_file("a.txt", 6, body(b"second")).await.unwrap();
    let id = c.get_attachments().await.unwrap().attachments.iter().find(|a| a.url() == first.url).unwrap().id;
    c.remove_attachment(id).await.unwrap();
    // Two uploads left a folder each; the third gets a new one (it took the second's before).
    let third = c.upload_file("a.txt", 5, body(b"third")).await.unwrap();
    assert_ne!(third.url, second.url);
    assert_eq!(c.download(&second.url).await.unwrap(), b"second");
    assert_eq!(c.get_attachments().await.unwrap().attachments.len(), 2);
}

#[tokio::test]
async fn the_quota_is_announced_and_an_upload_past_it_refused() {
    let env = Env::start_with(ServerOptions { upload_quota_mib: Some(1), ..Default::default() }).await;
    let c = env.client("member");
    let reg = c
        .register(&RegisterParams { fetch_event_types: Some(vec!["realm".into()]), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(reg.realm_upload_quota_mib, Some(1));
    let half = vec![b'x'; 600 << 10];
    c.upload_file("a.bin", half.len() as u64, body(&half)).await.unwrap();
    let err = c.upload_file("b.bin", half.len() as u64, body(&half)).await.unwrap_err();
    assert_eq!(
        err.server().map(|s| (s.code.as_str(), s.msg.as_str())),
        Some(("REALM_UPLOAD_QUOTA", "Upload would exceed your organization's upload quota."))
    );
    // Without a quota (a self-hosted server's default): null.
    let free = Env::start().await;
    assert_eq!(
        free.client("member").register(&Default::default()).await.unwrap().realm_upload_quota_mib,
        None
    );
}

/// Level 443 sends times in seconds (milliseconds before) and 472 the linking messages as
/// `message_ids` (a `messages` list before): the server speaks each shape on its side of the
/// level, and the client reads every one as the same upload, dated today and used once.
#[tokio::test]
async fn uploads_are_dated_and_placed_on_both_sides_of_443_and_472() {
    for level in [442, 443, 471, 472] {
        let env = Env::start_with(ServerOptions { feature_level: level, ..Default::default() }).await;
        let c = env.registered_client("member").await;
        let up = c.upload_file("r.pdf", 5, body(b"%PDF-")).await.unwrap();
        let general = env.channel_id("general");
        let m = OutgoingMessage::channel(general, "reports", &format!("[r.pdf]({})", up.url));
        let linked = c.send_message(&m).await.unwrap().id;
        let (_, raw) = env.raw("member", "GET", "/attachments", &[]).await;
        let a = &raw["attachments"][0];
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        let sent = a["create_time"].as_i64().unwrap();
        if level < 443 {
            assert!((sent / 1000 - now).abs() < 600, "level {level}: milliseconds: {a}");
        } else {
            assert!((sent - now).abs() < 600, "level {level}: seconds: {a}");
        }
        if level < 472 {
            assert_eq!(a["messages"][0]["id"], linked, "level {level}: {a}");
            assert!(a.get("message_ids").is_none(), "level {level}: {a}");
        } else {
            assert_eq!(a["message_ids"], serde_json::json!([linked]), "level {level}: {a}");
            assert!(a.get("messages").is_none(), "level {level}: {a}");
        }
        let read = &c.get_attachments().await.unwrap().attachments[0];
        assert!((read.uploaded_at() - now).abs() < 600, "level {level}: dated today, not in 1970");
        assert_eq!(read.message_ids, vec![linked], "level {level}: where it is used");
    }
}
