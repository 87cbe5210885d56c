//! JSON error responses of the demo server.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

/// An error response: `{"result":"error","msg":…,"code":…, extra…}`.
#[derive(Debug, Clone)]
pub struct ApiErr {
    pub status: StatusCode,
    pub code: &'static str,
    pub msg: String,
    pub extra: Map<String, Value>,
}

impl ApiErr {
    pub fn new(status: StatusCode, code: &'static str, msg: impl Into<String>) -> Self {
        ApiErr { status, code, msg: msg.into(), extra: Map::new() }
    }
    /// 400 `BAD_REQUEST`.
    pub fn bad(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "BAD_REQUEST", msg)
    }
    /// 400 `REQUEST_VARIABLE_MISSING` naming the parameter.
    pub fn missing(var: &str) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "REQUEST_VARIABLE_MISSING", format!("Missing '{var}' argument"))
            .with("var_name", var)
    }
    /// 400 `UNAUTHORIZED_PRINCIPAL`: the caller must be an administrator.
    pub fn admin_required() -> Self {
        Self::new(StatusCode::BAD_REQUEST, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
    }
    /// 400 `UNAUTHORIZED_PRINCIPAL`: the caller must be an owner.
    pub fn owner_required() -> Self {
        Self::new(StatusCode::BAD_REQUEST, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
    }
    pub fn insufficient() -> Self {
        Self::bad("Insufficient permission")
    }
    /// 404 `NOT_FOUND`: no such endpoint (also what a server older than an endpoint says).
    pub fn no_endpoint() -> Self {
        Self::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Invalid API endpoint")
    }
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }
}

impl IntoResponse for ApiErr {
    fn into_response(self) -> Response {
        let mut body = self.extra;
        body.insert("result".into(), json!("error"));
        body.insert("msg".into(), json!(self.msg));
        body.insert("code".into(), json!(self.code));
        let mut resp = (self.status, axum::Json(Value::Object(body.clone()))).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut()
                .insert("www-authenticate", "Basic realm=\"zulip\"".parse().expect("static header"));
        }
        if self.status == StatusCode::REQUEST_TIMEOUT {
            // The rest of a body too slow to arrive is not waited for on this connection.
            resp.headers_mut().insert("connection", "close".parse().expect("static header"));
        }
        if let Some(secs) = body.get("retry-after").and_then(Value::as_f64)
            && let Ok(v) = format!("{}", secs.ceil() as u64).parse()
        {
            resp.headers_mut().insert("retry-after", v);
        }
        resp
    }
}

pub type ApiResult<T = Value> = Result<T, ApiErr>;

/// A success body with extra fields.
pub fn success(fields: Value) -> Value {
    let mut obj = match fields {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    obj.insert("result".into(), json!("success"));
    obj.insert("msg".into(), json!(""));
    Value::Object(obj)
}

/// A success body with no extra fields.
pub fn ok() -> Value {
    success(json!({}))
}
