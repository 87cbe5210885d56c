//! What several handlers share: the response types and the report reasons.

use crate::error::ApiErr;
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
