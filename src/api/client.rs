//! The HTTP client: one async function per operation.
//!
//! Parameters are form-encoded (GET: query string); lists and objects travel as JSON text
//! inside the field. Every success body is checked for `ignored_parameters_unsupported`, which
//! is logged and kept in the typed response. Limits are checked before a request is sent.

use super::error::{ApiError, LimitError, Result, ServerError};
use super::events::{Event, EventsResponse, RegisterResponse};
use super::limits;
use super::models::*;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// Account credentials (a zuliprc's `[api]` section). `Debug` never shows the key.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// Base URL of the server, e.g. `https://chat.example.com`.
    pub site: String,
    pub email: String,
    pub api_key: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("site", &self.site)
            .field("email", &self.email)
            .field("api_key", &"<redacted>")
            .finish()
    }
}

/// What the client learns from the server and uses for limit checks and fallbacks.
#[derive(Debug, Clone, Default)]
pub struct ServerInfo {
    pub feature_level: Option<i64>,
    pub max_message_length: Option<usize>,
    pub max_topic_length: Option<usize>,
    pub empty_topic_display_name: Option<String>,
}

/// The typed API client. Cheap to clone; clones share the connection pool and server info.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    /// `{site}/api/v1`
    base: String,
    email: String,
    api_key: String,
    info: Arc<RwLock<ServerInfo>>,
}

impl Client {
    /// The server's base URL (without `/api/v1`).
    pub fn site(&self) -> &str {
        self.base.strip_suffix("/api/v1").unwrap_or(&self.base)
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("base", &self.base).field("email", &self.email).finish()
    }
}

/// Parameters of one request, in order.
#[derive(Debug, Default, Clone)]
pub struct Params(Vec<(String, String)>);

impl Params {
    pub fn new() -> Self {
        Params(Vec::new())
    }
    /// A plain value (strings, numbers, booleans as `true`/`false`).
    pub fn add(mut self, key: &str, value: impl ToString) -> Self {
        self.0.push((key.to_owned(), value.to_string()));
        self
    }
    /// An optional plain value.
    pub fn opt(self, key: &str, value: Option<impl ToString>) -> Self {
        match value {
            Some(v) => self.add(key, v),
            None => self,
        }
    }
    /// A list or object, as JSON text.
    pub fn json(self, key: &str, value: &impl Serialize) -> Self {
        let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
        self.add(key, text)
    }
    /// An optional list or object, as JSON text.
    pub fn opt_json(self, key: &str, value: Option<&impl Serialize>) -> Self {
        match value {
            Some(v) => self.json(key, v),
            None => self,
        }
    }
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}

/// Where get-messages starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    Id(MessageId),
    Newest,
    Oldest,
    FirstUnread,
    /// First message on or after `anchor_date` (feature level 445).
    Date,
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Anchor::Id(id) => write!(f, "{id}"),
            Anchor::Newest => f.write_str("newest"),
            Anchor::Oldest => f.write_str("oldest"),
            Anchor::FirstUnread => f.write_str("first_unread"),
            Anchor::Date => f.write_str("date"),
        }
    }
}

/// Parameters of get-messages (operation 6).
#[derive(Debug, Clone, Default)]
pub struct GetMessages {
    pub anchor: Option<Anchor>,
    pub include_anchor: Option<bool>,
    pub anchor_date: Option<String>,
    pub num_before: Option<u64>,
    pub num_after: Option<u64>,
    pub narrow: Vec<NarrowTerm>,
    pub client_gravatar: Option<bool>,
    pub apply_markdown: Option<bool>,
    pub message_ids: Option<Vec<MessageId>>,
    pub allow_empty_topic_name: Option<bool>,
    pub use_first_unread_anchor: Option<bool>,
}

impl GetMessages {
    /// `num_before` messages before and `num_after` after `anchor`.
    pub fn around(anchor: Anchor, num_before: u64, num_after: u64) -> Self {
        GetMessages {
            anchor: Some(anchor),
            num_before: Some(num_before),
            num_after: Some(num_after),
            ..Default::default()
        }
    }
    pub fn narrow(mut self, narrow: Vec<NarrowTerm>) -> Self {
        self.narrow = narrow;
        self
    }

    fn validate(&self) -> Result<(), LimitError> {
        let total = self.num_before.unwrap_or(0) + self.num_after.unwrap_or(0);
        if total > 5000 {
            return Err(LimitError::TooManyMessages(total));
        }
        if self.message_ids.is_some() {
            if self.anchor.is_some()
                || self.include_anchor.is_some()
                || self.use_first_unread_anchor.is_some()
                || self.num_before.is_some()
                || self.num_after.is_some()
            {
                return Err(LimitError::MessageIdsWithRange);
            }
            if self.message_ids.as_ref().is_some_and(|ids| ids.len() > 5000) {
                return Err(LimitError::TooManyMessages(
                    self.message_ids.as_ref().map_or(0, |v| v.len() as u64),
                ));
            }
        } else if self.num_before.is_none() || self.num_after.is_none() {
            return Err(LimitError::RangeRequired);
        }
        if self.use_first_unread_anchor == Some(true) && self.anchor.is_some() {
            return Err(LimitError::FirstUnreadWithAnchor);
        }
        if self.anchor == Some(Anchor::Date) && self.anchor_date.is_none() {
            return Err(LimitError::AnchorDateRequired);
        }
        Ok(())
    }

    fn params(&self) -> Params {
        Params::new()
            .opt("anchor", self.anchor.as_ref())
            .opt("include_anchor", self.include_anchor)
            .opt("anchor_date", self.anchor_date.as_ref())
            .opt("num_before", self.num_before)
            .opt("num_after", self.num_after)
            .opt_json("narrow", (!self.narrow.is_empty()).then_some(&self.narrow))
            .opt("client_gravatar", self.client_gravatar)
            .opt("apply_markdown", self.apply_markdown)
            .opt_json("message_ids", self.message_ids.as_ref())
            .opt("allow_empty_topic_name", self.allow_empty_topic_name)
            .opt("use_first_unread_anchor", self.use_first_unread_anchor)
    }
}

/// Response of get-messages.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct MessagesResponse {
    #[serde(default)]
    pub anchor: Option<i64>,
    #[serde(default)]
    pub found_newest: bool,
    #[serde(default)]
    pub found_oldest: bool,
    #[serde(default)]
    pub found_anchor: bool,
    #[serde(default)]
    pub history_limited: bool,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// A new scheduled message (operation 1).
#[derive(Debug, Clone, PartialEq)]
pub struct NewScheduledMessage {
    pub kind: SendType,
    pub to: Recipient,
    pub content: String,
    pub topic: Option<String>,
    pub scheduled_delivery_timestamp: i64,
    pub read_by_sender: Option<bool>,
}

/// Changes to a scheduled message (operation 2); `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScheduledMessageUpdate {
    pub kind: Option<SendType>,
    pub to: Option<Recipient>,
    pub content: Option<String>,
    pub topic: Option<String>,
    pub scheduled_delivery_timestamp: Option<i64>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ScheduledMessageCreated {
    pub scheduled_message_id: i64,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// Channel by ID or by name (legacy muting).
#[derive(Debug, Clone, Default)]
pub struct LegacyMute {
    pub stream_id: Option<ChannelId>,
    pub stream: Option<String>,
    pub topic: String,
    /// `true` mutes (`op=add`), `false` unmutes (`op=remove`).
    pub mute: bool,
}

/// Presence report (operation 5).
#[derive(Debug, Clone)]
pub struct PresenceUpdate {
    pub status: PresenceStatus,
    pub last_update_id: Option<i64>,
    pub history_limit_days: Option<u32>,
    pub ping_only: Option<bool>,
    pub new_user_input: Option<bool>,
    pub slim_presence: Option<bool>,
}

impl PresenceUpdate {
    pub fn new(status: PresenceStatus) -> Self {
        PresenceUpdate {
            status,
            last_update_id: None,
            history_limit_days: None,
            ping_only: None,
            new_user_input: None,
            slim_presence: None,
        }
    }
}

/// Who to unsubscribe (operation 7).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Principals {
    Ids(Vec<UserId>),
    Emails(Vec<String>),
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UnsubscribeResponse {
    #[serde(default)]
    pub removed: Vec<String>,
    #[serde(default)]
    pub not_removed: Vec<String>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SubscribeResponse {
    #[serde(default)]
    pub subscribed: Value,
    #[serde(default)]
    pub already_subscribed: Value,
    #[serde(default)]
    pub unauthorized: Vec<String>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// Status change (operation 8); only given fields change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusUpdate {
    pub status_text: Option<String>,
    pub emoji_name: Option<String>,
    pub emoji_code: Option<String>,
    pub reaction_type: Option<String>,
    pub away: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct HistoryResponse {
    pub message_history: Vec<HistorySnapshot>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// An emoji to remove or add; give the server's stored values when removing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmojiSpec {
    pub emoji_name: Option<String>,
    pub emoji_code: Option<String>,
    pub reaction_type: Option<String>,
}

impl From<&Reaction> for EmojiSpec {
    fn from(r: &Reaction) -> Self {
        EmojiSpec {
            emoji_name: Some(r.emoji_name.clone()),
            emoji_code: Some(r.emoji_code.clone()),
            reaction_type: Some(r.reaction_type.as_str().to_owned()),
        }
    }
}

/// What to delete along with a deactivated user (feature level 459).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct DeactivationActions {
    #[serde(default)]
    pub delete_profile: bool,
    #[serde(default)]
    pub delete_public_channel_messages: bool,
    #[serde(default)]
    pub delete_private_channel_messages: bool,
    #[serde(default)]
    pub delete_direct_messages: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TopicsResponse {
    pub topics: Vec<TopicEntry>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// Changes to a user group's members and subgroups (operation 16).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupMembersUpdate {
    pub add: Option<Vec<UserId>>,
    pub delete: Option<Vec<UserId>>,
    pub add_subgroups: Option<Vec<i64>>,
    pub delete_subgroups: Option<Vec<i64>>,
}

/// `start` or `stop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypingOp {
    Start,
    Stop,
}

impl fmt::Display for TypingOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TypingOp::Start => "start",
            TypingOp::Stop => "stop",
        })
    }
}

/// Where someone is typing.
#[derive(Debug, Clone)]
pub enum TypingTo {
    Direct(Vec<UserId>),
    Channel { stream_id: ChannelId, topic: String },
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct IdResponse {
    pub id: i64,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EmailResponse {
    pub email: String,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// `include_subscribers` of get-subscriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeSubscribers {
    True,
    False,
    /// Feature level 412.
    Partial,
}

impl fmt::Display for IncludeSubscribers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IncludeSubscribers::True => "true",
            IncludeSubscribers::False => "false",
            IncludeSubscribers::Partial => "partial",
        })
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SubscriptionsResponse {
    pub subscriptions: Vec<Subscription>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// A message to send.
#[derive(Debug, Clone, PartialEq)]
pub struct OutgoingMessage {
    pub kind: SendType,
    pub to: Recipient,
    pub topic: Option<String>,
    pub content: String,
    /// Echoed back in the `message` event on this client's queue.
    pub local_id: Option<String>,
    pub queue_id: Option<String>,
    pub read_by_sender: Option<bool>,
}

impl OutgoingMessage {
    pub fn channel(stream_id: ChannelId, topic: &str, content: &str) -> Self {
        OutgoingMessage {
            kind: SendType::Channel,
            to: Recipient::Channel(stream_id),
            topic: Some(topic.to_owned()),
            content: content.to_owned(),
            local_id: None,
            queue_id: None,
            read_by_sender: None,
        }
    }
    pub fn direct(user_ids: Vec<UserId>, content: &str) -> Self {
        OutgoingMessage {
            kind: SendType::Direct,
            to: Recipient::Users(user_ids),
            topic: None,
            content: content.to_owned(),
            local_id: None,
            queue_id: None,
            read_by_sender: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SendResponse {
    pub id: MessageId,
    #[serde(default)]
    pub automatic_new_visibility_policy: Option<i64>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// An edit of a message (content, topic, move).
#[derive(Debug, Clone, Default)]
pub struct MessageEdit {
    pub content: Option<String>,
    pub topic: Option<String>,
    pub stream_id: Option<ChannelId>,
    /// `change_one`, `change_later` or `change_all`.
    pub propagate_mode: Option<String>,
    pub send_notification_to_old_thread: Option<bool>,
    pub send_notification_to_new_thread: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SingleMessageResponse {
    pub message: Message,
    #[serde(default)]
    pub raw_content: Option<String>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FlagsResponse {
    #[serde(default)]
    pub messages: Vec<MessageId>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FlagsNarrowResponse {
    pub processed_count: i64,
    pub updated_count: i64,
    #[serde(default)]
    pub first_processed_id: Option<MessageId>,
    #[serde(default)]
    pub last_processed_id: Option<MessageId>,
    #[serde(default)]
    pub found_oldest: bool,
    #[serde(default)]
    pub found_newest: bool,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ScheduledMessagesResponse {
    pub scheduled_messages: Vec<ScheduledMessage>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct NavigationViewsResponse {
    pub navigation_views: Vec<NavigationView>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ServerSettings {
    #[serde(default)]
    pub zulip_version: String,
    #[serde(default)]
    pub zulip_feature_level: i64,
    #[serde(default)]
    pub realm_name: Option<String>,
    #[serde(default)]
    pub realm_url: Option<String>,
    /// Legacy name of `realm_url`. Servers send both, so it cannot be a serde alias (that
    /// fails as a duplicate field); use [`ServerSettings::url`].
    #[serde(default)]
    pub realm_uri: Option<String>,
    #[serde(default)]
    pub authentication_methods: Value,
    #[serde(default)]
    pub require_email_format_usernames: Option<bool>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

impl ServerSettings {
    /// The organization's URL, from either spelling.
    pub fn url(&self) -> Option<&str> {
        self.realm_url.as_deref().or(self.realm_uri.as_deref())
    }
}

/// `Debug` never shows the key.
#[derive(Clone, Deserialize, Serialize)]
pub struct ApiKeyResponse {
    pub api_key: String,
    pub email: String,
    #[serde(default)]
    pub user_id: Option<UserId>,
}

impl fmt::Debug for ApiKeyResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiKeyResponse")
            .field("api_key", &"<redacted>")
            .field("email", &self.email)
            .field("user_id", &self.user_id)
            .finish()
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UsersResponse {
    pub members: Vec<User>,
}

/// Parameters of `POST /register`.
#[derive(Debug, Clone, Default)]
pub struct RegisterParams {
    pub event_types: Option<Vec<String>>,
    pub fetch_event_types: Option<Vec<String>>,
    pub apply_markdown: Option<bool>,
    pub client_gravatar: Option<bool>,
    pub include_subscribers: Option<IncludeSubscribers>,
    pub slim_presence: Option<bool>,
    pub all_public_streams: Option<bool>,
    pub narrow: Option<Vec<(String, String)>>,
    pub client_capabilities: Option<Value>,
}

/// Timeout for ordinary requests; long-polls set their own.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

impl Client {
    /// A client with credentials. The site may be given with or without a trailing slash.
    pub fn new(creds: &Credentials) -> Result<Self> {
        Self::build(&creds.site, &creds.email, &creds.api_key)
    }

    /// A client without credentials, for `server_settings` and `fetch_api_key`.
    pub fn anonymous(site: &str) -> Result<Self> {
        Self::build(site, "", "")
    }

    fn build(site: &str, email: &str, api_key: &str) -> Result<Self> {
        let site = site.trim().trim_end_matches('/');
        let parsed = url::Url::parse(site).map_err(|e| ApiError::Transport {
            message: format!("invalid server URL {site:?}: {e}"),
            timeout: false,
            connect: false,
        })?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(ApiError::Transport {
                message: format!("invalid server URL {site:?}: use http:// or https://"),
                timeout: false,
                connect: false,
            });
        }
        let http = reqwest::Client::builder()
            .user_agent(concat!("topicterm/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(Client {
            http,
            base: format!("{site}/api/v1"),
            email: email.to_owned(),
            api_key: api_key.to_owned(),
            info: Arc::new(RwLock::new(ServerInfo::default())),
        })
    }

    /// The account's email.
    pub fn email(&self) -> &str {
        &self.email
    }

    /// What the client knows about the server (feature level, limits).
    pub fn server_info(&self) -> ServerInfo {
        self.info.read().map(|i| i.clone()).unwrap_or_default()
    }

    /// Record what the server said about itself (done by `register` automatically).
    pub fn set_server_info(&self, info: ServerInfo) {
        if let Ok(mut guard) = self.info.write() {
            *guard = info;
        }
    }

    fn feature_level(&self) -> Option<i64> {
        self.server_info().feature_level
    }

    /// Send a request and return the decoded success body.
    pub async fn call<T: DeserializeOwned>(&self, method: Method, path: &str, params: Params) -> Result<T> {
        self.call_with_timeout(method, path, params, DEFAULT_TIMEOUT).await
    }

    async fn call_with_timeout<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        params: Params,
        timeout: Duration,
    ) -> Result<T> {
        let value = self.raw(method, path, params, timeout).await?;
        if let Some(ignored) = value.get("ignored_parameters_unsupported").and_then(Value::as_array)
            && !ignored.is_empty()
        {
            tracing::warn!(path, ?ignored, "server ignored unsupported parameters");
        }
        serde_json::from_value(value)
            .map_err(|e| ApiError::Decode { status: 200, message: format!("{path}: {e}") })
    }

    /// Fetch an uploaded file (`/user_uploads/…`, relative or on this server) with the user's
    /// credentials; other hosts never see them. At most 200 MB.
    pub async fn download(&self, url: &str) -> Result<Vec<u8>> {
        const MAX: usize = 200 << 20;
        let site = self.site().trim_end_matches('/');
        let (full, ours) = if url.starts_with('/') {
            (format!("{site}{url}"), true)
        } else {
            (url.to_owned(), url.starts_with(&format!("{site}/")))
        };
        let mut req = self.http.get(&full).timeout(Duration::from_secs(300));
        if ours && !self.email.is_empty() {
            req = req.basic_auth(&self.email, Some(&self.api_key));
        }
        let mut resp = req.send().await?;
        let status = resp.status().as_u16();
        if !resp.status().is_success() {
            return Err(ApiError::Decode {
                status,
                message: format!("download of {url} answered HTTP {status}"),
            });
        }
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await? {
            if body.len() + chunk.len() > MAX {
                return Err(ApiError::Decode { status, message: format!("{url} is larger than 200 MB") });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    /// Send a request and return the raw JSON of a success body; error bodies become
    /// [`ApiError::Server`]. Used for operations this client has no type for.
    pub async fn raw(&self, method: Method, path: &str, params: Params, timeout: Duration) -> Result<Value> {
        let url = format!("{}{}", self.base, path);
        let mut req = self.http.request(method.clone(), &url).timeout(timeout);
        if !self.email.is_empty() {
            req = req.basic_auth(&self.email, Some(&self.api_key));
        }
        req = if method == Method::GET { req.query(params.pairs()) } else { req.form(params.pairs()) };
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let retry_header = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok());
        let bytes = resp.bytes().await?;
        let body: Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => {
                let snippet: String = String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
                    .chars()
                    .filter(|c| !c.is_control())
                    .collect();
                return Err(ApiError::Decode {
                    status,
                    message: format!("{path}: not JSON ({e}): {snippet}"),
                });
            }
        };
        let is_error = body.get("result").and_then(Value::as_str) == Some("error");
        if !(200..300).contains(&status) || is_error {
            return Err(ApiError::Server(Box::new(ServerError::from_body(status, &body, retry_header))));
        }
        Ok(body)
    }

    // ---------------------------------------------------------------------------------
    // The contract's 22 operations.
    // ---------------------------------------------------------------------------------

    /// Operation 1: `POST /scheduled_messages`.
    pub async fn create_scheduled_message(
        &self,
        msg: &NewScheduledMessage,
    ) -> Result<ScheduledMessageCreated> {
        let info = self.server_info();
        if msg.kind.is_channel() {
            limits::check_scheduled_topic(msg.topic.as_deref(), info.empty_topic_display_name.as_deref())?;
            limits::check_topic_length(msg.topic.as_deref().unwrap_or(""), info.max_topic_length)?;
        }
        limits::check_content(&msg.content, info.max_message_length)?;
        if matches!(&msg.to, Recipient::Users(u) if u.is_empty()) {
            return Err(LimitError::NoRecipients.into());
        }
        let p = Params::new()
            .add("type", msg.kind.as_str())
            .add("to", msg.to.to_param())
            .add("content", &msg.content)
            .opt("topic", msg.topic.as_ref().filter(|_| msg.kind.is_channel()))
            .add("scheduled_delivery_timestamp", msg.scheduled_delivery_timestamp)
            .opt("read_by_sender", msg.read_by_sender);
        self.call(Method::POST, "/scheduled_messages", p).await
    }

    /// Operation 2: `PATCH /scheduled_messages/{id}`.
    pub async fn update_scheduled_message(&self, id: i64, upd: &ScheduledMessageUpdate) -> Result<Ack> {
        let info = self.server_info();
        if let Some(kind) = upd.kind {
            if upd.to.is_none() {
                return Err(LimitError::ScheduledTypeWithoutTo.into());
            }
            if kind.is_channel() {
                if upd.topic.is_none() {
                    return Err(LimitError::ScheduledChannelTypeWithoutTopic.into());
                }
                limits::check_scheduled_topic(
                    upd.topic.as_deref(),
                    info.empty_topic_display_name.as_deref(),
                )?;
            }
        }
        if let Some(c) = &upd.content {
            limits::check_content(c, info.max_message_length)?;
        }
        if let Some(t) = &upd.topic {
            limits::check_topic_length(t, info.max_topic_length)?;
        }
        if upd.kind.is_none()
            && upd.to.is_none()
            && upd.content.is_none()
            && upd.topic.is_none()
            && upd.scheduled_delivery_timestamp.is_none()
        {
            return Err(LimitError::NothingToChange.into());
        }
        let p = Params::new()
            .opt("type", upd.kind.map(SendType::as_str))
            .opt("to", upd.to.as_ref().map(Recipient::to_param))
            .opt("content", upd.content.as_ref())
            .opt("topic", upd.topic.as_ref())
            .opt("scheduled_delivery_timestamp", upd.scheduled_delivery_timestamp);
        self.call(Method::PATCH, &format!("/scheduled_messages/{id}"), p).await
    }

    /// Operation 3: `POST /user_topics`. Below feature level 170 muting falls back to the legacy
    /// operation (only none and muted exist there).
    pub async fn update_user_topic(
        &self,
        stream_id: ChannelId,
        topic: &str,
        policy: VisibilityPolicy,
    ) -> Result<Ack> {
        let value = i64::from(policy);
        limits::check_visibility_policy(value)?;
        limits::check_topic_length(topic, self.server_info().max_topic_length)?;
        if self.feature_level().is_some_and(|l| l < 170)
            && matches!(policy, VisibilityPolicy::None | VisibilityPolicy::Muted)
        {
            let legacy = LegacyMute {
                stream_id: Some(stream_id),
                stream: None,
                topic: topic.to_owned(),
                mute: policy == VisibilityPolicy::Muted,
            };
            return self.mute_topic_legacy(&legacy).await;
        }
        let p = Params::new().add("stream_id", stream_id).add("topic", topic).add("visibility_policy", value);
        self.call(Method::POST, "/user_topics", p).await
    }

    /// Operation 4: `PATCH /users/me/subscriptions/muted_topics` (deprecated since 170).
    pub async fn mute_topic_legacy(&self, m: &LegacyMute) -> Result<Ack> {
        if m.stream_id.is_some() == m.stream.is_some() {
            return Err(LimitError::LegacyMuteChannel.into());
        }
        limits::check_topic_length(&m.topic, self.server_info().max_topic_length)?;
        let p = Params::new()
            .opt("stream_id", m.stream_id)
            .opt("stream", m.stream.as_ref())
            .add("topic", &m.topic)
            .add("op", if m.mute { "add" } else { "remove" });
        self.call(Method::PATCH, "/users/me/subscriptions/muted_topics", p).await
    }

    /// Operation 5: `POST /users/me/presence`.
    pub async fn update_presence(&self, u: &PresenceUpdate) -> Result<PresenceResponse> {
        let p = Params::new()
            .add("status", u.status.as_str())
            .opt("last_update_id", u.last_update_id)
            .opt("history_limit_days", u.history_limit_days)
            .opt("ping_only", u.ping_only)
            .opt("new_user_input", u.new_user_input)
            .opt("slim_presence", u.slim_presence);
        self.call(Method::POST, "/users/me/presence", p).await
    }

    /// Operation 6: `GET /messages`.
    pub async fn get_messages(&self, q: &GetMessages) -> Result<MessagesResponse> {
        q.validate()?;
        self.call(Method::GET, "/messages", q.params()).await
    }

    /// Operation 7: `DELETE /users/me/subscriptions`.
    pub async fn unsubscribe(
        &self,
        subscriptions: &[String],
        principals: Option<&Principals>,
    ) -> Result<UnsubscribeResponse> {
        let p = Params::new().json("subscriptions", &subscriptions).opt_json("principals", principals);
        self.call(Method::DELETE, "/users/me/subscriptions", p).await
    }

    /// Operation 8: `POST /users/me/status`.
    pub async fn update_status(&self, s: &StatusUpdate) -> Result<Ack> {
        if let Some(t) = &s.status_text {
            limits::check_status_text(t)?;
        }
        limits::check_emoji_triplet(
            s.emoji_name.as_deref(),
            s.emoji_code.as_deref(),
            s.reaction_type.as_deref(),
        )?;
        if s.status_text.is_none()
            && s.emoji_name.is_none()
            && s.emoji_code.is_none()
            && s.reaction_type.is_none()
            && s.away.is_none()
        {
            return Err(LimitError::NothingToChange.into());
        }
        let p = Params::new()
            .opt("status_text", s.status_text.as_ref())
            .opt("emoji_name", s.emoji_name.as_ref())
            .opt("emoji_code", s.emoji_code.as_ref())
            .opt("reaction_type", s.reaction_type.as_ref())
            .opt("away", s.away);
        self.call(Method::POST, "/users/me/status", p).await
    }

    /// Operation 9: `POST /messages/{id}/report`.
    pub async fn report_message(
        &self,
        message_id: MessageId,
        report_type: &str,
        description: Option<&str>,
    ) -> Result<Ack> {
        limits::check_report(report_type, description)?;
        let p = Params::new().add("report_type", report_type).opt("description", description);
        self.call(Method::POST, &format!("/messages/{message_id}/report"), p).await
    }

    /// Operation 10: `GET /messages/{id}/history`.
    pub async fn get_message_history(
        &self,
        message_id: MessageId,
        allow_empty_topic_name: bool,
    ) -> Result<HistoryResponse> {
        let p = Params::new().add("allow_empty_topic_name", allow_empty_topic_name);
        self.call(Method::GET, &format!("/messages/{message_id}/history"), p).await
    }

    /// Operation 11: `POST /mark_topic_as_read` (deprecated).
    pub async fn mark_topic_as_read(&self, stream_id: ChannelId, topic_name: &str) -> Result<Ack> {
        let p = Params::new().add("stream_id", stream_id).add("topic_name", topic_name);
        self.call(Method::POST, "/mark_topic_as_read", p).await
    }

    /// Operation 12: `POST /users/me/apns_device_token` (deprecated since 406).
    pub async fn add_apns_token(&self, token: &str, appid: Option<&str>) -> Result<Ack> {
        if token.is_empty() {
            return Err(LimitError::EmptyToken.into());
        }
        let p = Params::new().add("token", token).opt("appid", appid);
        self.call(Method::POST, "/users/me/apns_device_token", p).await
    }

    /// Operation 13: `DELETE /messages/{id}/reactions`.
    pub async fn remove_reaction(&self, message_id: MessageId, emoji: &EmojiSpec) -> Result<Ack> {
        let p = Params::new()
            .opt("emoji_name", emoji.emoji_name.as_ref())
            .opt("emoji_code", emoji.emoji_code.as_ref())
            .opt("reaction_type", emoji.reaction_type.as_ref());
        self.call(Method::DELETE, &format!("/messages/{message_id}/reactions"), p).await
    }

    /// Operation 14: `DELETE /users/{id}` (administrators only).
    pub async fn deactivate_user(
        &self,
        user_id: UserId,
        actions: Option<&DeactivationActions>,
        notification_comment: Option<&str>,
    ) -> Result<Ack> {
        let p = Params::new()
            .opt_json("actions", actions)
            .opt("deactivation_notification_comment", notification_comment);
        self.call(Method::DELETE, &format!("/users/{user_id}"), p).await
    }

    /// Operation 15: `GET /users/me/{stream_id}/topics`.
    pub async fn get_topics(
        &self,
        stream_id: ChannelId,
        allow_empty_topic_name: bool,
    ) -> Result<TopicsResponse> {
        let p = Params::new().add("allow_empty_topic_name", allow_empty_topic_name);
        self.call(Method::GET, &format!("/users/me/{stream_id}/topics"), p).await
    }

    /// Operation 16: `POST /user_groups/{id}/members`.
    pub async fn update_user_group_members(&self, group_id: i64, u: &GroupMembersUpdate) -> Result<Ack> {
        let p = Params::new()
            .opt_json("add", u.add.as_ref())
            .opt_json("delete", u.delete.as_ref())
            .opt_json("add_subgroups", u.add_subgroups.as_ref())
            .opt_json("delete_subgroups", u.delete_subgroups.as_ref());
        if p.pairs().is_empty() {
            return Err(LimitError::NothingToChange.into());
        }
        self.call(Method::POST, &format!("/user_groups/{group_id}/members"), p).await
    }

    /// Operation 17: `POST /messages/{id}/typing` (before feature level 361: `/message_edit_typing`).
    pub async fn set_edit_typing(&self, message_id: MessageId, op: TypingOp) -> Result<Ack> {
        if self.feature_level().is_some_and(|l| l < 361) {
            let p = Params::new().add("message_id", message_id).add("op", op);
            return self.call(Method::POST, "/message_edit_typing", p).await;
        }
        let p = Params::new().add("op", op);
        self.call(Method::POST, &format!("/messages/{message_id}/typing"), p).await
    }

    /// Operation 18: `PATCH /navigation_views/{fragment}`; the fragment may contain slashes.
    pub async fn update_navigation_view(
        &self,
        fragment: &str,
        is_pinned: Option<bool>,
        name: Option<&str>,
    ) -> Result<Ack> {
        if is_pinned.is_none() && name.is_none() {
            return Err(LimitError::NothingToChange.into());
        }
        let p = Params::new().opt("is_pinned", is_pinned).opt("name", name);
        let path = format!("/navigation_views/{}", encode_path(fragment));
        self.call(Method::PATCH, &path, p).await
    }

    /// Operation 19: `POST /realm/playgrounds`.
    pub async fn add_playground(
        &self,
        name: &str,
        pygments_language: &str,
        url_template: &str,
    ) -> Result<IdResponse> {
        limits::check_playground_template(url_template)?;
        let p = Params::new()
            .add("name", name)
            .add("pygments_language", pygments_language)
            .add("url_template", url_template);
        self.call(Method::POST, "/realm/playgrounds", p).await
    }

    /// Operation 20: `GET /streams/{id}/email_address`.
    pub async fn get_channel_email(
        &self,
        stream_id: ChannelId,
        sender_id: Option<UserId>,
    ) -> Result<EmailResponse> {
        let p = Params::new().opt("sender_id", sender_id);
        self.call(Method::GET, &format!("/streams/{stream_id}/email_address"), p).await
    }

    // Operation 21 (outgoing webhook) is a payload the server sends: see [`WebhookPayload`] and
    // `crate::webhook`.

    /// Operation 22: `GET /users/me/subscriptions`. Servers below feature level 412 do not know
    /// `partial`; they are asked for the full lists instead (a superset of any partial list).
    pub async fn get_subscriptions(
        &self,
        include_subscribers: Option<IncludeSubscribers>,
    ) -> Result<SubscriptionsResponse> {
        let include = match include_subscribers {
            Some(IncludeSubscribers::Partial) if self.feature_level().is_some_and(|l| l < 412) => {
                Some(IncludeSubscribers::True)
            }
            other => other,
        };
        let p = Params::new().opt("include_subscribers", include);
        self.call(Method::GET, "/users/me/subscriptions", p).await
    }

    // ---------------------------------------------------------------------------------
    // What a chat client needs beyond the 22.
    // ---------------------------------------------------------------------------------

    /// `POST /register`. Records the server's feature level and limits in this client.
    pub async fn register(&self, r: &RegisterParams) -> Result<RegisterResponse> {
        let p = Params::new()
            .opt_json("event_types", r.event_types.as_ref())
            .opt_json("fetch_event_types", r.fetch_event_types.as_ref())
            .opt("apply_markdown", r.apply_markdown)
            .opt("client_gravatar", r.client_gravatar)
            .opt("include_subscribers", r.include_subscribers)
            .opt("slim_presence", r.slim_presence)
            .opt("all_public_streams", r.all_public_streams)
            .opt_json("narrow", r.narrow.as_ref())
            .opt_json("client_capabilities", r.client_capabilities.as_ref());
        let resp: RegisterResponse = self.call(Method::POST, "/register", p).await?;
        let mut info = self.server_info();
        info.feature_level = Some(resp.zulip_feature_level);
        info.max_message_length = resp.max_message_length.or(info.max_message_length);
        info.max_topic_length = resp.max_topic_length.or(info.max_topic_length);
        info.empty_topic_display_name =
            resp.realm_empty_topic_display_name.clone().or(info.empty_topic_display_name);
        self.set_server_info(info);
        Ok(resp)
    }

    /// `GET /events`: long-polls up to `timeout` (use the server's
    /// `event_queue_longpoll_timeout_seconds` plus a margin). Events are decoded one by one.
    pub async fn get_events(
        &self,
        queue_id: &str,
        last_event_id: i64,
        dont_block: bool,
        timeout: Duration,
    ) -> Result<Vec<Event>> {
        let p = Params::new()
            .add("queue_id", queue_id)
            .add("last_event_id", last_event_id)
            .add("dont_block", dont_block);
        let resp: EventsResponse = self.call_with_timeout(Method::GET, "/events", p, timeout).await?;
        Ok(resp.events.into_iter().map(Event::decode).collect())
    }

    /// `DELETE /events`.
    pub async fn delete_queue(&self, queue_id: &str) -> Result<Ack> {
        self.call(Method::DELETE, "/events", Params::new().add("queue_id", queue_id)).await
    }

    /// `POST /messages`.
    pub async fn send_message(&self, m: &OutgoingMessage) -> Result<SendResponse> {
        let info = self.server_info();
        limits::check_content(&m.content, info.max_message_length)?;
        if let Some(t) = &m.topic {
            limits::check_topic_length(t, info.max_topic_length)?;
        }
        if matches!(&m.to, Recipient::Users(u) if u.is_empty()) {
            return Err(LimitError::NoRecipients.into());
        }
        // Servers below feature level 248 only know `stream` and `private`.
        let kind = if self.feature_level().is_some_and(|l| l < 248) {
            if m.kind.is_channel() { SendType::Stream } else { SendType::Private }
        } else {
            m.kind
        };
        let p = Params::new()
            .add("type", kind.as_str())
            .add("to", m.to.to_param())
            .opt("topic", m.topic.as_ref().filter(|_| m.kind.is_channel()))
            .add("content", &m.content)
            .opt("local_id", m.local_id.as_ref())
            .opt("queue_id", m.queue_id.as_ref())
            .opt("read_by_sender", m.read_by_sender);
        self.call(Method::POST, "/messages", p).await
    }

    /// `PATCH /messages/{id}`.
    pub async fn update_message(&self, message_id: MessageId, e: &MessageEdit) -> Result<Ack> {
        let info = self.server_info();
        if let Some(c) = &e.content {
            limits::check_content(c, info.max_message_length)?;
        }
        if let Some(t) = &e.topic {
            limits::check_topic_length(t, info.max_topic_length)?;
        }
        let p = Params::new()
            .opt("content", e.content.as_ref())
            .opt("topic", e.topic.as_ref())
            .opt("stream_id", e.stream_id)
            .opt("propagate_mode", e.propagate_mode.as_ref())
            .opt("send_notification_to_old_thread", e.send_notification_to_old_thread)
            .opt("send_notification_to_new_thread", e.send_notification_to_new_thread);
        if p.pairs().is_empty() {
            return Err(LimitError::NothingToChange.into());
        }
        self.call(Method::PATCH, &format!("/messages/{message_id}"), p).await
    }

    /// `GET /messages/{id}`; `apply_markdown=false` gives the raw Markdown (quote, edit).
    pub async fn get_message(
        &self,
        message_id: MessageId,
        apply_markdown: bool,
    ) -> Result<SingleMessageResponse> {
        let p = Params::new().add("apply_markdown", apply_markdown);
        self.call(Method::GET, &format!("/messages/{message_id}"), p).await
    }

    /// `POST /messages/flags`.
    pub async fn update_message_flags(
        &self,
        messages: &[MessageId],
        add: bool,
        flag: &str,
    ) -> Result<FlagsResponse> {
        let p = Params::new()
            .json("messages", &messages)
            .add("op", if add { "add" } else { "remove" })
            .add("flag", flag);
        self.call(Method::POST, "/messages/flags", p).await
    }

    /// `POST /messages/flags/narrow`.
    pub async fn update_message_flags_for_narrow(
        &self,
        anchor: &Anchor,
        num_before: u64,
        num_after: u64,
        narrow: &[NarrowTerm],
        add: bool,
        flag: &str,
    ) -> Result<FlagsNarrowResponse> {
        let p = Params::new()
            .add("anchor", anchor)
            .add("num_before", num_before)
            .add("num_after", num_after)
            .json("narrow", &narrow)
            .add("op", if add { "add" } else { "remove" })
            .add("flag", flag);
        self.call(Method::POST, "/messages/flags/narrow", p).await
    }

    /// `POST /messages/{id}/reactions`.
    pub async fn add_reaction(&self, message_id: MessageId, emoji: &EmojiSpec) -> Result<Ack> {
        limits::check_emoji_triplet(
            emoji.emoji_name.as_deref(),
            emoji.emoji_code.as_deref(),
            emoji.reaction_type.as_deref(),
        )?;
        let p = Params::new()
            .opt("emoji_name", emoji.emoji_name.as_ref())
            .opt("emoji_code", emoji.emoji_code.as_ref())
            .opt("reaction_type", emoji.reaction_type.as_ref());
        self.call(Method::POST, &format!("/messages/{message_id}/reactions"), p).await
    }

    /// `POST /typing`.
    pub async fn set_typing_status(&self, op: TypingOp, to: &TypingTo) -> Result<Ack> {
        let p = Params::new().add("op", op);
        let p = match to {
            TypingTo::Direct(ids) => p.add("type", "direct").json("to", ids),
            TypingTo::Channel { stream_id, topic } => {
                p.add("type", "stream").add("stream_id", stream_id).add("topic", topic)
            }
        };
        self.call(Method::POST, "/typing", p).await
    }

    /// `GET /scheduled_messages`.
    pub async fn get_scheduled_messages(&self) -> Result<ScheduledMessagesResponse> {
        self.call(Method::GET, "/scheduled_messages", Params::new()).await
    }

    /// `DELETE /scheduled_messages/{id}`.
    pub async fn delete_scheduled_message(&self, id: i64) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/scheduled_messages/{id}"), Params::new()).await
    }

    /// `GET /navigation_views`.
    pub async fn get_navigation_views(&self) -> Result<NavigationViewsResponse> {
        self.call(Method::GET, "/navigation_views", Params::new()).await
    }

    /// `POST /users/me/subscriptions/properties`: `(stream_id, property, value)` triples.
    pub async fn update_subscription_settings(&self, changes: &[(ChannelId, &str, Value)]) -> Result<Ack> {
        let data: Vec<Value> = changes
            .iter()
            .map(|(id, prop, v)| serde_json::json!({"stream_id": id, "property": prop, "value": v}))
            .collect();
        let p = Params::new().json("subscription_data", &data);
        self.call(Method::POST, "/users/me/subscriptions/properties", p).await
    }

    /// `POST /users/me/subscriptions`: subscribe to channels by name (created if missing).
    pub async fn subscribe(
        &self,
        names: &[&str],
        principals: Option<&Principals>,
    ) -> Result<SubscribeResponse> {
        let subs: Vec<Value> = names.iter().map(|n| serde_json::json!({"name": n})).collect();
        let p = Params::new().json("subscriptions", &subs).opt_json("principals", principals);
        self.call(Method::POST, "/users/me/subscriptions", p).await
    }

    /// `GET /users`.
    pub async fn get_users(&self) -> Result<UsersResponse> {
        self.call(Method::GET, "/users", Params::new()).await
    }

    /// `PATCH /realm` (administrators): organization settings as raw parameters.
    pub async fn update_realm(&self, params: Params) -> Result<Ack> {
        self.call(Method::PATCH, "/realm", params).await
    }

    /// `GET /server_settings` (no authentication needed).
    pub async fn server_settings(&self) -> Result<ServerSettings> {
        self.call(Method::GET, "/server_settings", Params::new()).await
    }

    /// `POST /fetch_api_key` with a password.
    pub async fn fetch_api_key(&self, username: &str, password: &str) -> Result<ApiKeyResponse> {
        let p = Params::new().add("username", username).add("password", password);
        self.call(Method::POST, "/fetch_api_key", p).await
    }

    /// `GET /drafts`: the user's server-side drafts, most recently edited first. Refused
    /// (`BAD_REQUEST`) while `enable_drafts_synchronization` is off.
    pub async fn get_drafts(&self) -> Result<DraftsResponse> {
        self.call(Method::GET, "/drafts", Params::new()).await
    }

    /// `POST /drafts`: store drafts on the server; returns their IDs in the order given.
    /// Every draft is checked first; the server stores all of them or none.
    pub async fn create_drafts(&self, drafts: &[Draft]) -> Result<Vec<i64>> {
        let info = self.server_info();
        for d in drafts {
            limits::check_draft(d, info.max_message_length, info.max_topic_length)?;
        }
        let body: Vec<Draft> = drafts.iter().map(Draft::to_request).collect();
        let created: DraftsCreated =
            self.call(Method::POST, "/drafts", Params::new().json("drafts", &body)).await?;
        Ok(created.ids)
    }

    /// `PATCH /drafts/{id}`: replace a draft (its `id` field is not sent).
    pub async fn edit_draft(&self, id: i64, draft: &Draft) -> Result<Ack> {
        let info = self.server_info();
        limits::check_draft(draft, info.max_message_length, info.max_topic_length)?;
        let p = Params::new().json("draft", &draft.to_request());
        self.call(Method::PATCH, &format!("/drafts/{id}"), p).await
    }

    /// `DELETE /drafts/{id}`.
    pub async fn delete_draft(&self, id: i64) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/drafts/{id}"), Params::new()).await
    }

    /// `PATCH /settings` `enable_drafts_synchronization`: turning it off deletes the drafts
    /// stored on the server (local copies are the client's business).
    pub async fn set_drafts_sync(&self, enabled: bool) -> Result<Ack> {
        let p = Params::new().add("enable_drafts_synchronization", enabled);
        self.call(Method::PATCH, "/settings", p).await
    }
}

/// Percent-encode a path that may contain slashes, keeping the slashes.
fn encode_path(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            url::form_urlencoded::byte_serialize(seg.as_bytes()).collect::<String>().replace('+', "%20")
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_messages_limits() {
        let q = GetMessages::around(Anchor::Newest, 3000, 2001);
        assert_eq!(q.validate(), Err(LimitError::TooManyMessages(5001)));
        let q =
            GetMessages { message_ids: Some(vec![1]), anchor: Some(Anchor::Newest), ..Default::default() };
        assert_eq!(q.validate(), Err(LimitError::MessageIdsWithRange));
        let q = GetMessages { message_ids: Some(vec![1]), num_after: Some(1), ..Default::default() };
        assert_eq!(q.validate(), Err(LimitError::MessageIdsWithRange));
        let q = GetMessages { message_ids: Some(vec![1, 2]), ..Default::default() };
        assert_eq!(q.validate(), Ok(()));
        let mut q = GetMessages::around(Anchor::Newest, 1, 1);
        q.use_first_unread_anchor = Some(true);
        assert_eq!(q.validate(), Err(LimitError::FirstUnreadWithAnchor));
        let q = GetMessages::around(Anchor::Date, 1, 1);
        assert_eq!(q.validate(), Err(LimitError::AnchorDateRequired));
    }

    #[test]
    fn path_encoding_keeps_slashes() {
        assert_eq!(encode_path("narrow/channel/9-x/topic/a b"), "narrow/channel/9-x/topic/a%20b");
        assert_eq!(encode_path("inbox"), "inbox");
    }

    #[test]
    fn credentials_debug_hides_key() {
        let c = Credentials { site: "http://x".into(), email: "a@b".into(), api_key: "SECRET".into() };
        assert!(!format!("{c:?}").contains("SECRET"));
    }
}
