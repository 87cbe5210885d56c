//! The organization's custom profile fields, as the reference's
//! `zerver/views/custom_profile_fields.py`: listed, created and reordered by administrators,
//! each change sent to everyone as a `custom_profile_fields` event with the whole list.

use super::common::Res;
use crate::error::{ApiErr, ok, success};
use crate::org::{Org, ProfileFieldRec};
use crate::shared::{Req, Shared, reply};
use axum::extract::State;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The reference's `CustomProfileField.NAME_MAX_LENGTH` and `HINT_MAX_LENGTH`.
const NAME_MAX: usize = 40;
const HINT_MAX: usize = 80;
/// At most this many fields show in the profile summary.
const SUMMARY_MAX: usize = 2;
/// The field types: short text, long text, list of options, date, link, users, external
/// account, pronouns.
const SELECT: i64 = 3;
const USER: i64 = 6;
const EXTERNAL_ACCOUNT: i64 = 7;
const TYPES: std::ops::RangeInclusive<i64> = 1..=8;

/// The external accounts the reference knows by name (`DEFAULT_EXTERNAL_ACCOUNTS`): a field of
/// one of them takes its label and hint from here.
const DEFAULT_ACCOUNTS: &[(&str, &str, &str)] = &[
    ("github", "GitHub", "Enter your GitHub username"),
    ("twitter", "Twitter", "Enter your Twitter username"),
];

/// Everyone learns the new list of fields.
fn notify(org: &mut Org) {
    let everyone: Vec<i64> = org.users.values().filter(|u| u.is_active).map(|u| u.id).collect();
    let e = json!({"type": "custom_profile_fields", "fields": org.profile_fields_json()});
    org.queues.push(&everyone, &e);
}

/// `GET /realm/profile_fields`.
pub async fn list(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let org = s.lock();
    Ok(reply(&req.p, success(json!({"custom_fields": org.profile_fields_json()}))))
}

/// A list field's options: `{"key": {"text": …, "order": …}, …}`, at least one, no two alike.
fn check_choices(data: &Map<String, Value>) -> Result<(), ApiErr> {
    if data.is_empty() {
        return Err(ApiErr::bad("Field must have at least one choice."));
    }
    let mut texts = Vec::new();
    for (key, choice) in data {
        let text = choice.get("text").and_then(Value::as_str);
        let order = choice.get("order").and_then(Value::as_str);
        let (Some(text), Some(_)) = (text, order) else {
            return Err(ApiErr::bad(format!("field_data[\"{key}\"] is not a valid choice")));
        };
        if text.trim().is_empty() {
            return Err(ApiErr::bad(format!("field_data[\"{key}\"][\"text\"] cannot be blank.")));
        }
        if texts.contains(&text) {
            return Err(ApiErr::bad("Field must not have duplicate choices."));
        }
        texts.push(text);
    }
    Ok(())
}

/// An external account field names its kind: one the reference knows, or `custom` with a
/// link pattern holding `%(username)s`. The default kind's label and hint, if it is one.
fn check_account(data: &Map<String, Value>) -> Result<Option<(&'static str, &'static str)>, ApiErr> {
    let subtype = data
        .get("subtype")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiErr::bad("Invalid field data: subtype must be a string."))?;
    if subtype == "custom" {
        let pattern = data.get("url_pattern").and_then(Value::as_str).unwrap_or("");
        if pattern.is_empty() {
            return Err(ApiErr::bad("Custom external account must define URL pattern"));
        }
        if !pattern.contains("%(username)s") {
            return Err(ApiErr::bad("URL pattern must contain '%(username)s'."));
        }
        return Ok(None);
    }
    DEFAULT_ACCOUNTS
        .iter()
        .find(|(k, _, _)| *k == subtype)
        .map(|(_, name, hint)| Some((*name, *hint)))
        .ok_or_else(|| ApiErr::bad("Invalid external account type"))
}

/// `POST /realm/profile_fields` (administrators): a new field, last in order; its ID.
pub async fn create(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let p = &req.p;
    let field_type: i64 = p.json("field_type")?;
    let mut name = p.opt_str("name").unwrap_or_default().trim().to_owned();
    let mut hint = p.opt_str("hint").unwrap_or_default();
    let field_data: Map<String, Value> = p.opt_json("field_data")?.unwrap_or_default();
    let summary = p.bool_or("display_in_profile_summary", false)?;
    let required = p.bool_or("required", false)?;
    let editable_by_user = p.bool_or("editable_by_user", true)?;
    let mut org = s.lock();
    // Unknown before level 455: not read, so reported as ignored.
    let matching = if org.settings.feature_level >= crate::levels::USE_FOR_USER_MATCHING {
        p.bool_or("use_for_user_matching", false)?
    } else {
        false
    };
    super::org_admin::admin(&org, req.user_id)?;
    if summary && org.profile_fields.values().filter(|f| f.display_in_profile_summary).count() >= SUMMARY_MAX
    {
        return Err(ApiErr::bad("Only 2 custom profile fields can be displayed in the profile summary."));
    }
    let default_account = match field_type {
        SELECT => check_choices(&field_data).map(|()| None)?,
        EXTERNAL_ACCOUNT => check_account(&field_data)?,
        _ => None,
    };
    if let Some((n, h)) = default_account {
        (name, hint) = (n.to_owned(), h.to_owned());
    } else {
        if name.is_empty() {
            return Err(ApiErr::bad("Label cannot be blank."));
        }
        if hint.chars().count() > HINT_MAX {
            return Err(ApiErr::bad(format!("hint is too long (limit: {HINT_MAX} characters)")));
        }
        if name.chars().count() > NAME_MAX {
            return Err(ApiErr::bad(format!("name is too long (limit: {NAME_MAX} characters)")));
        }
    }
    if !TYPES.contains(&field_type) {
        return Err(ApiErr::bad("Invalid field type."));
    }
    if summary && field_type == USER {
        return Err(ApiErr::bad("Field type not supported for display in profile summary."));
    }
    if matching && !matches!(field_type, 1 | EXTERNAL_ACCOUNT) {
        return Err(ApiErr::bad("Field type not supported for use for user matching."));
    }
    if org.profile_fields.values().any(|f| f.name == name) {
        return Err(ApiErr::bad("A field with that label already exists."));
    }
    let id = org.profile_fields.keys().max().copied().unwrap_or(0) + 1;
    let field_data = if matches!(field_type, SELECT | EXTERNAL_ACCOUNT) {
        Value::Object(field_data).to_string()
    } else {
        String::new()
    };
    let rec = ProfileFieldRec {
        id,
        field_type,
        name,
        hint,
        // The reference orders a new field by its ID: after every other.
        order: id,
        display_in_profile_summary: summary,
        field_data,
        required,
        editable_by_user,
        use_for_user_matching: matching,
    };
    org.profile_fields.insert(id, rec);
    notify(&mut org);
    Ok(reply(p, success(json!({"id": id}))))
}

/// `PATCH /realm/profile_fields` (administrators): `order` lists every field's ID in the new
/// order.
pub async fn reorder(State(s): State<Arc<Shared>>, req: Req) -> Res {
    let order: Vec<i64> = req.p.json("order")?;
    let mut org = s.lock();
    super::org_admin::admin(&org, req.user_id)?;
    if org.profile_fields.keys().any(|id| !order.contains(id)) {
        return Err(ApiErr::bad("Invalid order mapping."));
    }
    for (at, id) in order.iter().enumerate() {
        if let Some(f) = org.profile_fields.get_mut(id) {
            f.order = at as i64;
        }
    }
    notify(&mut org);
    Ok(reply(&req.p, ok()))
}
