//! Outgoing webhooks: which bots a new message triggers, and the payload each one gets. The
//! payloads are queued in `Org::webhook_jobs` and POSTed once the lock is released
//! (`handlers::background::dispatch_webhooks`).

use super::Org;
use super::records::{Recip, UserRec, WebhookJob};
use serde_json::json;

impl Org {
    /// Queue an outgoing-webhook payload for every webhook bot the message triggers.
    pub fn trigger_webhooks(&mut self, msg_id: i64) {
        let Some(url) = self.settings.outgoing_webhook_url.clone() else { return };
        let Some(msg) = self.messages.get(&msg_id).cloned() else { return };
        let bots: Vec<UserRec> = self
            .users
            .values()
            .filter(|u| u.bot_type == Some(3) && u.is_active && u.id != msg.sender_id)
            .cloned()
            .collect();
        for bot in bots {
            let trigger = match &msg.recip {
                Recip::Dm { users } if users.contains(&bot.id) => "direct_message",
                Recip::Channel { .. } if msg.rendered.mentioned_user_ids.contains(&bot.id) => "mention",
                _ => continue,
            };
            let mut m = self.message_json(&msg, bot.id, false, true);
            if let Some(obj) = m.as_object_mut() {
                obj.insert("rendered_content".into(), json!(msg.rendered.html));
            }
            let payload = json!({
                "bot_email": bot.email,
                "bot_full_name": bot.full_name,
                "data": msg.content,
                "trigger": trigger,
                "token": bot.webhook_token,
                "message": m,
            });
            self.webhook_jobs.push(WebhookJob { url: url.clone(), bot_id: bot.id, payload });
        }
    }
}
