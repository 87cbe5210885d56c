//! `topicterm webhook-listen`: receive the payload the server POSTs to an outgoing-webhook bot
//! (operation 21), refuse a wrong token, and print each message.

use crate::api::WebhookPayload;
use crate::content::sanitize;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::json;
use std::sync::Arc;
use tokio::sync::mpsc;

/// One line describing a received payload (server text sanitised).
pub fn describe(p: &WebhookPayload) -> String {
    let m = &p.message;
    let place = match m.channel_name() {
        Some(c) => format!("#{} > {}", c, m.topic()),
        None => "direct message".to_owned(),
    };
    let trigger = match p.trigger {
        crate::api::WebhookTrigger::Mention => "mention",
        crate::api::WebhookTrigger::DirectMessage => "direct_message",
        crate::api::WebhookTrigger::Other => "other",
    };
    sanitize(&format!("[{trigger}] {} in {place} to {}: {}", m.sender_full_name, p.bot_full_name, p.data))
}

struct Listener {
    token: String,
    out: mpsc::UnboundedSender<WebhookPayload>,
}

async fn receive(
    State(l): State<Arc<Listener>>,
    body: axum::body::Bytes,
) -> (StatusCode, axum::Json<serde_json::Value>) {
    let payload: WebhookPayload = match serde_json::from_slice(&body) {
        Ok(p) => p,
        Err(e) => {
            return (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"result": "error", "msg": format!("not a webhook payload: {e}")})),
            );
        }
    };
    if payload.token != l.token {
        return (StatusCode::UNAUTHORIZED, axum::Json(json!({"result": "error", "msg": "wrong token"})));
    }
    let _ = l.out.send(payload);
    // Nothing to say back in the conversation.
    (StatusCode::OK, axum::Json(json!({"response_not_required": true})))
}

/// The receiving app: every path accepts payloads (`/`, `/svc-outgoing-webhook`, …).
pub fn router(token: String, out: mpsc::UnboundedSender<WebhookPayload>) -> Router {
    let state = Arc::new(Listener { token, out });
    Router::new().route("/", post(receive)).route("/{*path}", post(receive)).with_state(state)
}

/// Serve until killed, printing each payload.
pub async fn listen(addr: std::net::SocketAddr, token: String) -> anyhow::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("listening for outgoing webhooks on http://{}", listener.local_addr()?);
    tokio::spawn(async move {
        while let Some(p) = rx.recv().await {
            println!("{}", describe(&p));
        }
    });
    axum::serve(listener, router(token, tx)).await?;
    Ok(())
}
