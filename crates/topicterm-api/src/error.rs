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
    /// The server's human-readable message (empty when the body has none).
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
            _ => String::new(),
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

/// A request refused on the client before it was sent (or an answer it stopped reading), naming
/// the rule it breaks.
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
    #[error("a channel needs a name")]
    EmptyChannelName,
    #[error("a channel name is at most 60 characters; this one has {0}")]
    ChannelNameTooLong(usize),
    #[error("a channel name cannot contain control characters")]
    ChannelNameControl,
    #[error("name at least one email address to invite")]
    NoInvitees,
    #[error("an APNs token must not be empty")]
    EmptyToken,
    /// What came with feature level `since` (Zulip `version`), asked of a server at `at`.
    #[error(
        "this server does not offer {what}: it needs {version} or later (feature level {since}; this server is at {at})"
    )]
    NotOnThisServer { what: &'static str, version: &'static str, since: i64, at: i64 },
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
    #[error("this link is not a file that can be fetched")]
    NotFetchable,
    #[error("the file is larger than {max_mib} MiB, more than this client fetches")]
    TooLargeToFetch { max_mib: usize },
    /// An answer larger than [`super::transport::answer_bound`] allows its endpoint: refused
    /// unread (by its announced length) or as soon as it passes the bound.
    #[error("the server's answer was larger than {max_mib} MiB, more than this client reads for it")]
    AnswerTooLarge { max_mib: usize },
    #[error("a snippet needs a title")]
    SnippetTitleEmpty,
    #[error("the title is {0} characters; a snippet's title may have 60")]
    SnippetTitleTooLong(usize),
}

/// Every way an API call can fail. The `Display` form is for the log: it says what happened in
/// technical terms (status, endpoint path without its query, lengths, where JSON broke) and never
/// quotes what the server sent, which can be message text. What the user reads is worded by
/// `app::update::answers` from the kind.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The server answered with an error body (shown as its message; `ServerError`'s own
    /// `Display` adds the code and status).
    #[error("{}", .0.msg)]
    Server(Box<ServerError>),
    /// The request never got an answer (DNS, connect, TLS, timeout, broken connection).
    #[error("network error: {message}")]
    Transport { message: String, timeout: bool, connect: bool },
    /// The server answered, but not with what the protocol says.
    #[error("unexpected answer from the server (HTTP {status}): {message}")]
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

    /// An answer to `path` that is not what the protocol says: `json` is why it could not be
    /// read, `len` its length in bytes. Only these facts are kept, never the answer's text.
    pub fn unreadable(path: &str, status: u16, len: usize, json: &serde_json::Error) -> ApiError {
        let path = path.split('?').next().unwrap_or(path);
        ApiError::Decode { status, message: format!("{path}: {} ({len} bytes)", json_fault(json)) }
    }

    /// No connection pool could be made (`reason`, for the log): with rustls' platform verifier
    /// that means no certificate of the system's could be read to trust servers by. Nothing was
    /// sent; the user is told what trusts a server instead (`cert_bundle`).
    pub fn no_connections(reason: &str) -> ApiError {
        ApiError::Transport {
            message: format!("no connection can be made ({reason}) — {UNTRUSTED_CERTIFICATE}"),
            timeout: false,
            connect: true,
        }
    }

    /// True for failures worth retrying later: network trouble, 5xx, rate limits, and answers
    /// that are not the protocol's (a proxy's error page). The one notion of "transient".
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Transport { .. } | ApiError::Decode { .. } => true,
            // An answer too large to be the protocol's is another unreadable answer.
            ApiError::Limit(LimitError::AnswerTooLarge { .. }) => true,
            ApiError::Server(e) => e.status >= 500 || e.status == 429,
            ApiError::Limit(_) => false,
        }
    }

    /// Whether the request may have reached the server and been acted on although this failed:
    /// a timeout or a cut connection, a 5xx, an unreadable answer (too large to read among
    /// them). A refused connection, a rate limit or a refusal never was.
    pub fn may_have_arrived(&self) -> bool {
        match self {
            ApiError::Transport { connect, .. } => !connect,
            ApiError::Server(e) => e.status >= 500,
            ApiError::Decode { .. } | ApiError::Limit(LimitError::AnswerTooLarge { .. }) => true,
            ApiError::Limit(_) => false,
        }
    }

    /// What the trouble is, as a kind the client words for the user.
    pub fn trouble(&self) -> Trouble {
        match self {
            ApiError::Transport { message, .. } if message.ends_with(UNTRUSTED_CERTIFICATE) => {
                Trouble::UntrustedCertificate
            }
            ApiError::Transport { message, .. } if message.ends_with(CLIENT_CERTIFICATE_REQUIRED) => {
                Trouble::ClientCertificateRequired
            }
            ApiError::Transport { connect: true, .. } => Trouble::Unreachable,
            ApiError::Transport { timeout: true, .. } => Trouble::NoAnswer,
            ApiError::Transport { .. } => Trouble::ConnectionLost,
            ApiError::Server(e) if e.status == 429 => Trouble::TooManyRequests,
            ApiError::Server(e) if matches!(e.status, 502..=504) => Trouble::Unavailable,
            ApiError::Server(e) if e.status >= 500 => Trouble::ServerFailed,
            ApiError::Server(e) if e.status == 404 && e.msg.starts_with("Invalid API endpoint") => {
                Trouble::NoSuchEndpoint
            }
            ApiError::Decode { status: 404, .. } => Trouble::NoSuchEndpoint,
            ApiError::Decode { status: 502..=504, .. } => Trouble::Unavailable,
            ApiError::Decode { status, .. } if *status >= 500 => Trouble::ServerFailed,
            ApiError::Decode { .. } => Trouble::NotUnderstood,
            ApiError::Server(_) => Trouble::Refused,
            ApiError::Limit(_) => Trouble::Limit,
        }
    }

    /// True when the credentials are refused (wrong key, deactivated user or realm).
    pub fn is_auth(&self) -> bool {
        matches!(self, ApiError::Server(e) if e.status == 401
            || matches!(e.code.as_str(), "UNAUTHORIZED" | "USER_DEACTIVATED" | "REALM_DEACTIVATED"))
    }
}

/// The kinds of trouble a request runs into, as the user is told about them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trouble {
    /// No connection could be made.
    Unreachable,
    /// Connected, but no answer came in time.
    NoAnswer,
    /// The connection broke before the answer was complete.
    ConnectionLost,
    /// The server's certificate is not trusted.
    UntrustedCertificate,
    /// The server wants a client certificate.
    ClientCertificateRequired,
    /// The server (or a proxy in front of it) is down or overloaded: 502, 503, 504.
    Unavailable,
    /// The server failed (another 5xx).
    ServerFailed,
    /// Rate limited.
    TooManyRequests,
    /// An answer that is not the protocol's: not JSON, or JSON of another shape.
    NotUnderstood,
    /// The server has no such endpoint: a 404 page, or "Invalid API endpoint" (an older server).
    NoSuchEndpoint,
    /// The server refused the request, with its own message.
    Refused,
    /// The client refused to send it.
    Limit,
}

/// Why JSON could not be read, without any of its text: the kind of fault and where.
/// (serde_json's own message can quote the value it met, which can be message text.)
pub fn json_fault(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let kind = match e.classify() {
        Category::Io => "a read error",
        Category::Syntax => "not JSON",
        Category::Data => "JSON of another shape",
        Category::Eof => "JSON cut short",
    };
    format!("{kind} at line {}, column {}", e.line(), e.column())
}

/// What to do about a server certificate this client does not trust (the zuliprc options of the
/// Python bindings).
pub const UNTRUSTED_CERTIFICATE: &str = "the server's certificate is not trusted: put its CA's PEM file in the \
     zuliprc as cert_bundle=PATH (or, knowing the risk, insecure=true)";

/// What to do when the server asks for a client certificate and none (or one it does not accept)
/// was shown.
pub const CLIENT_CERTIFICATE_REQUIRED: &str = "the server asks for a client certificate: put yours in the \
     zuliprc as client_cert=PATH and its key as client_cert_key=PATH";

#[cfg(feature = "http")]
impl From<reqwest::Error> for ApiError {
    fn from(e: reqwest::Error) -> Self {
        // The URL's path only: its query can hold a search, which is the user's words.
        let path = e.url().map(|u| u.path().to_owned());
        let (timeout, connect) = (e.is_timeout(), e.is_connect());
        let e = e.without_url();
        let mut message = match path {
            Some(path) => format!("{path}: {e}"),
            None => e.to_string(),
        };
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
        ApiError::Transport { message, timeout, connect }
    }
}

/// Shorthand.
pub type Result<T, E = ApiError> = std::result::Result<T, E>;

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, HTTP {})", self.msg, self.code, self.status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endpoint an older server does not have: its 404 page (a real Zulip 8.0-dev answered
    /// HTML), or "Invalid API endpoint"; another 404 is the server's own refusal.
    #[test]
    fn a_404_page_or_an_invalid_endpoint_is_an_endpoint_this_server_lacks() {
        let page = ApiError::Decode { status: 404, message: "/streams/7/email_address: not JSON".into() };
        assert_eq!(page.trouble(), Trouble::NoSuchEndpoint);
        let old = ServerError::new(404, "NOT_FOUND", "Invalid API endpoint");
        assert_eq!(ApiError::Server(Box::new(old)).trouble(), Trouble::NoSuchEndpoint);
        let gone = ServerError::new(404, "BAD_REQUEST", "Invalid message(s)");
        assert_eq!(ApiError::Server(Box::new(gone)).trouble(), Trouble::Refused);
    }

    /// A send whose answer was too large to read reached the server (it answered): the outbox
    /// looks for the message there instead of calling it not sent (the chaos test's huge lie
    /// on a send left a sent message marked "not sent").
    #[test]
    fn an_answer_too_large_to_read_may_have_been_acted_on_and_is_worth_asking_again() {
        let e = ApiError::from(LimitError::AnswerTooLarge { max_mib: 16 });
        assert!(e.may_have_arrived() && e.is_transient());
        let fetch = ApiError::from(LimitError::TooLargeToFetch { max_mib: 16 });
        assert!(!fetch.may_have_arrived() && !fetch.is_transient());
    }

    #[test]
    fn json_faults_say_what_and_where_but_never_quote_the_text() {
        let secret = "the secret plans for friday";
        let shape = serde_json::from_str::<i64>(&format!("\"{secret}\"")).unwrap_err();
        assert!(shape.to_string().contains(secret), "serde_json's own message quotes it: {shape}");
        assert_eq!(json_fault(&shape), "JSON of another shape at line 1, column 29");
        let syntax = serde_json::from_str::<serde_json::Value>(&format!("<html>{secret}")).unwrap_err();
        assert_eq!(json_fault(&syntax), "not JSON at line 1, column 1");
        let cut = serde_json::from_str::<serde_json::Value>(&format!("{{\"msg\": \"{secret}")).unwrap_err();
        assert_eq!(json_fault(&cut), "JSON cut short at line 1, column 36");
        let e = ApiError::unreadable("/messages?anchor=newest&narrow=secret", 200, 512, &shape);
        assert_eq!(
            e.to_string(),
            "unexpected answer from the server (HTTP 200): /messages: JSON of another shape at line 1, column 29 (512 bytes)"
        );
    }
}
