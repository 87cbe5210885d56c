//! What several handlers share: the response types and the report reasons.

use crate::error::ApiErr;
use crate::org::{MessageRec, Org, Recip};
use serde_json::Value;

pub type Json = axum::Json<Value>;
pub type Res = Result<Json, ApiErr>;

/// Report types by feature level (from the registration response since 435).
pub fn report_types(_feature_level: i64) -> Vec<(&'static str, &'static str)> {
    vec![
        ("spam", "Spam"),
        ("harassment", "Harassment"),
        ("inappropriate", "Inappropriate content"),
        ("norms", "Violates community norms"),
        ("other", "Other reason"),
    ]
}

/// Where a message is, as the web app links to it: the `#narrow/…/near/ID` fragment, and the
/// Markdown that names it in a channel (`#**channel>topic@ID**`, or a plain link to the fragment
/// where the names would break that syntax), as the reference server writes them in reminders
/// and, from level 508, in the answer to `POST /messages`.
pub fn message_place(org: &Org, m: &MessageRec) -> (String, Option<String>) {
    match &m.recip {
        Recip::Channel { id, topic } => {
            let name = org.channels.get(id).map(|c| c.name.as_str()).unwrap_or_default();
            let url = format!(
                "#narrow/channel/{id}-{}/topic/{}/near/{}",
                name.replace(' ', "-"),
                topic.replace(' ', "."),
                m.id
            );
            let plain = |s: &str| !s.contains(['`', '>', '*', '&', '$']);
            let link = if plain(name) && plain(topic) {
                format!("#**{name}>{topic}@{}**", m.id)
            } else {
                format!("[#{name} > {topic} @ 💬]({url})")
            };
            (url, Some(link))
        }
        Recip::Dm { .. } => (format!("#narrow/near/{}", m.id), None),
    }
}

/// 405, as the reference server answers a method an endpoint does not have.
pub async fn method_not_allowed() -> ApiErr {
    ApiErr::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "BAD_REQUEST",
        "Method not allowed for this endpoint",
    )
}
