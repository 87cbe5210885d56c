//! Work done outside a request: POSTing outgoing-webhook payloads (and sending the bots'
//! replies), and delivering due scheduled messages.

use crate::org::Recip;
use crate::shared::Shared;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// POST queued outgoing-webhook payloads; a bot's reply (`{"content": …}`) is sent back into
/// the conversation as the bot.
pub fn dispatch_webhooks(s: &Arc<Shared>) {
    let jobs = std::mem::take(&mut s.lock().webhook_jobs);
    for job in jobs {
        let s = s.clone();
        tokio::spawn(async move {
            let resp = s.http.post(&job.url).json(&job.payload).send().await;
            let body: Option<Value> = match resp {
                Ok(r) if r.status().is_success() => r.json().await.ok(),
                Ok(r) => {
                    tracing::warn!("outgoing webhook to {} answered {}", job.url, r.status());
                    None
                }
                Err(e) => {
                    tracing::warn!("outgoing webhook to {} failed: {e}", job.url);
                    None
                }
            };
            let Some(content) = body.as_ref().and_then(|b| b.get("content")).and_then(Value::as_str) else {
                return;
            };
            if content.trim().is_empty() {
                return;
            }
            let msg_id = job.payload["message"]["id"].as_i64().unwrap_or(0);
            {
                let mut org = s.lock();
                let Some(recip) = org.messages.get(&msg_id).map(|m| m.recip.clone()) else { return };
                let recip = match recip {
                    Recip::Dm { mut users } => {
                        users.push(job.bot_id);
                        users.sort_unstable();
                        users.dedup();
                        Recip::Dm { users }
                    }
                    other => other,
                };
                if let Err(e) = org.send(job.bot_id, recip, content, "ZulipOutgoingWebhook", None, None) {
                    tracing::warn!("webhook bot reply refused: {}", e.msg);
                }
            }
            dispatch_webhooks(&s);
        });
    }
}

/// Deliver due scheduled messages, and collect expired event queues, forever.
pub async fn scheduler_loop(shared: Arc<Shared>, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    loop {
        interval.tick().await;
        let delivered = {
            let mut org = shared.lock();
            // Expired and overflowed queues go even when nobody registers or polls, as the
            // reference server collects them every minute.
            org.queues.gc();
            let at = org.now();
            let reminded = super::daily::deliver_due_reminders(&mut org, at);
            org.deliver_due(at) || reminded
        };
        if delivered {
            dispatch_webhooks(&shared);
        }
    }
}
