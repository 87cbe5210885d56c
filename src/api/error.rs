//! The one error type of the API layer.

use serde_json::{Map, Value};
use std::fmt;

/// An error response from the server: `{"result":"error","msg":…,"code":…}` plus extras.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerError {
    /// HTTP status of the response.
    pub status: u16,
    /// The server's error code (`BAD_REQUEST`, `STREAM_DOES_NOT_EXIST`, …); `BAD_REQUEST` when absent.
    pub code: String,
    /// The server's human-readable message.
    pub msg: String,
    /// `stream_id` extra field (`STREAM_DOES_NOT_EXIST` when scheduling).
    pub stream_id: Option<i64>,
    /// `stream` extra field (`STREAM_DOES_NOT_EXIST` when unsubscribing).
    pub stream: Option<String>,
    /// `queue_id` extra field (`BAD_EVENT_QUEUE_ID`).
    pub queue_id: Option<String>,
    /// Seconds to wait, from the body's `retry-after` or the `Retry-After` header (HTTP 429).
    pub retry_after: Option<f64>,
    /// Every other field of the body, for codes this client does not know.
    pub extra: Map<String, Value>,
}

impl ServerError {
    /// An error with only a status, a code and a message.
    pub fn new(status: u16, code: &str, msg: &str) -> Self {
        Self::from_body(status, &serde_json::json!({"code": code, "msg": msg}), None)
    }

    /// Build from an error body; tolerant of missing or mistyped fields.
    pub fn from_body(status: u16, body: &Value, retry_after_header: Option<f64>) -> Self {
        let mut extra = body.as_object().cloned().unwrap_or_default();
        let code = match extra.remove("code") {
            Some(Value::String(s)) => s,
            _ => "BAD_REQUEST".to_owned(),
        };
        let msg = match extra.remove("msg") {
            Some(Value::String(s)) => s,
            _ => format!("HTTP {status}"),
        };
        extra.remove("result");
        let stream_id = extra.get("stream_id").and_then(Value::as_i64);
        let stream = extra.get("stream").and_then(Value::as_str).map(str::to_owned);
        let queue_id = extra.get("queue_id").and_then(Value::as_str).map(str::to_owned);
        let retry_after = extra
            .get("retry-after")
            .or_else(|| extra.get("retry_after"))
            .and_then(Value::as_f64)
            .or(retry_after_header);
        ServerError { status, code, msg, stream_id, stream, queue_id, retry_after, extra }
    }
}

/// A request refused on the client before it was sent, naming the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("status text is {0} characters; the limit is 60")]
    StatusTextTooLong(usize),
    #[error("emoji_name is required when emoji_code or reaction_type is given")]
    EmojiNameRequired,
    #[error("report description is {0} characters; the limit is 1000")]
    ReportDescriptionTooLong(usize),
    #[error("a report of type 'other' needs a description")]
    ReportDescriptionRequired,
    #[error("{0} messages requested; at most 5000 can be fetched at once")]
    TooManyMessages(u64),
    #[error("message_ids cannot be combined with anchor, include_anchor, num_before or num_after")]
    MessageIdsWithRange,
    #[error("num_before and num_after are required unless message_ids is given")]
    RangeRequired,
    #[error("use_first_unread_anchor cannot be combined with anchor")]
    FirstUnreadWithAnchor,
    #[error("anchor 'date' needs anchor_date")]
    AnchorDateRequired,
    #[error("visibility_policy must be 0, 1, 2 or 3, not {0}")]
    InvalidVisibilityPolicy(i64),
    #[error("exactly one of stream_id and stream must be given")]
    LegacyMuteChannel,
    #[error("a scheduled channel message needs a topic other than {0:?}")]
    ScheduledTopicInvalid(String),
    #[error("changing a scheduled message's type requires 'to'")]
    ScheduledTypeWithoutTo,
    #[error("changing a scheduled message to a channel message requires 'topic'")]
    ScheduledChannelTypeWithoutTopic,
    #[error("url_template must contain exactly one variable, named 'code'")]
    PlaygroundTemplate,
    #[error("message is {len} characters; the server allows {max}")]
    ContentTooLong { len: usize, max: usize },
    #[error("topic is {len} characters; the server allows {max}")]
    TopicTooLong { len: usize, max: usize },
    #[error("the message is empty")]
    EmptyContent,
    #[error("an APNs token must not be empty")]
    EmptyToken,
    #[error("this server does not offer {0}: it needs {1} or later")]
    NotOnThisServer(&'static str, &'static str),
    #[error("a direct message needs at least one recipient")]
    NoRecipients,
    #[error("nothing to change")]
    NothingToChange,
    #[error("the email address must not be empty")]
    EmptyEmail,
    #[error("a channel draft needs exactly one channel ID, not {0}")]
    DraftChannelCount(usize),
    #[error("the {0} must not contain null bytes")]
    NullByte(&'static str),
    #[error("a draft's timestamp must not be negative")]
    NegativeDraftTimestamp,
    #[error("the draft's type is not one this client can send")]
    UnknownDraftType,
}

/// Every way an API call can fail.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The server answered with an error body.
    #[error("{}", .0.msg)]
    Server(Box<ServerError>),
    /// The request never got an answer (DNS, connect, TLS, timeout, broken connection).
    #[error("network error: {message}")]
    Transport { message: String, timeout: bool, connect: bool },
    /// The server answered, but not with what the protocol says.
    #[error("unexpected response from server (HTTP {status}): {message}")]
    Decode { status: u16, message: String },
    /// Refused before sending: the request breaks one of the contract's limits.
    #[error("{0}")]
    Limit(#[from] LimitError),
}

impl ApiError {
    /// The server's error code, if the server answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            ApiError::Server(e) => Some(&e.code),
            _ => None,
        }
    }

    /// The server error, if any.
    pub fn server(&self) -> Option<&ServerError> {
        match self {
            ApiError::Server(e) => Some(e),
            _ => None,
        }
    }

    /// True for failures worth retrying later: network trouble, 5xx, rate limits, and answers
    /// that are not the protocol's (a proxy's error page). The one notion of "transient".
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Transport { .. } | ApiError::Decode { .. } => true,
            ApiError::Server(e) => e.status >= 500 || e.status == 429,
            ApiError::Limit(_) => false,
        }
    }

    /// Whether the request may have reached the server and been acted on although this failed:
    /// a timeout or a cut connection, a 5xx, an unreadable answer. A refused connection, a rate
    /// limit or a refusal never was.
    pub fn may_have_arrived(&self) -> bool {
        match self {
            ApiError::Transport { connect, .. } => !connect,
            ApiError::Server(e) => e.status >= 500,
            ApiError::Decode { .. } => true,
            ApiError::Limit(_) => false,
        }
    }

    /// What went wrong with the connection, in a few words for a status line (the full error,
    /// with URLs and queue ids, belongs in the log).
    pub fn outage(&self) -> String {
        match self {
            // Retrying will not help; the user has to say whom to trust.
            ApiError::Transport { message, .. } if message.ends_with(UNTRUSTED_CERTIFICATE) => {
                UNTRUSTED_CERTIFICATE.into()
            }
            ApiError::Transport { message, .. } if message.ends_with(CLIENT_CERTIFICATE_REQUIRED) => {
                CLIENT_CERTIFICATE_REQUIRED.into()
            }
            ApiError::Transport { connect: true, .. } => "server unreachable".into(),
            ApiError::Transport { timeout: true, .. } => "the server stopped answering".into(),
            ApiError::Transport { .. } => "connection lost".into(),
            ApiError::Server(e) if e.status == 429 => "too many requests: the server asked to wait".into(),
            ApiError::Server(e) if e.status >= 500 => format!("server error (HTTP {})", e.status),
            ApiError::Server(e) => e.msg.clone(),
            ApiError::Decode { status, .. } if *status >= 500 => format!("server error (HTTP {status})"),
            ApiError::Decode { .. } => "the server's answer could not be read".into(),
            ApiError::Limit(l) => l.to_string(),
        }
    }

    /// True when the credentials are refused (wrong key, deactivated user or realm).
    pub fn is_auth(&self) -> bool {
        matches!(self, ApiError::Server(e) if e.status == 401
            || matches!(e.code.as_str(), "UNAUTHORIZED" | "USER_DEACTIVATED" | "REALM_DEACTIVATED"))
    }
}

/// What to do about a server certificate this client does not trust (the zuliprc options of the
/// Python bindings).
pub const UNTRUSTED_CERTIFICATE: &str = "the server's certificate is not trusted: put its CA's PEM file in the \
     zuliprc as cert_bundle=PATH (or, knowing the risk, insecure=true)";

/// What to do when the server asks for a client certificate and none (or one it does not accept)
/// was shown.
pub const CLIENT_CERTIFICATE_REQUIRED: &str = "the server asks for a client certificate: put yours in the \
     zuliprc as client_cert=PATH and its key as client_cert_key=PATH";

impl From<reqwest::Error> for ApiError {
    fn from(e: reqwest::Error) -> Self {
        // reqwest's Display includes the URL but never the credentials (sent in a header).
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            message.push_str(": ");
            message.push_str(&s.to_string());
            source = s.source();
        }
        // A certificate problem: say which options fix it.
        let lower = message.to_lowercase();
        if lower.contains("certificaterequired") || lower.contains("certificate required") {
            message.push_str(" — ");
            message.push_str(CLIENT_CERTIFICATE_REQUIRED);
        } else if lower.contains("certificate")
            || lower.contains("unknownissuer")
            || lower.contains("invalid peer")
        {
            message.push_str(" — ");
            message.push_str(UNTRUSTED_CERTIFICATE);
        }
        ApiError::Transport { message, timeout: e.is_timeout(), connect: e.is_connect() }
    }
}

/// Shorthand.
pub type Result<T, E = ApiError> = std::result::Result<T, E>;

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, HTTP {})", self.msg, self.code, self.status)
    }
}
