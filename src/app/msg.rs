//! What `update` takes in: keys, pastes, the clock, and every answer of the network tasks.

use super::narrow::Narrow;
use super::outgoing::SendFailure;
use crate::api::*;
use crossterm::event::KeyEvent;

/// Inputs of `update`.
#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    /// Text pasted into the terminal (bracketed paste): it goes in whole, not as keys.
    Paste(String),
    /// The terminal gained (true) or lost (false) focus.
    Focus(bool),
    /// The mouse wheel moved over a pane: positive is down.
    Scroll {
        sidebar: bool,
        lines: isize,
    },
    /// A click on a sidebar row (by index) …
    ClickSidebar(usize),
    /// … or on a message.
    ClickMessage(MessageId),
    Tick(i64),
    Registered(Box<RegisterResponse>),
    RegisterFailed(String),
    /// A page of a narrow arrived.
    Messages {
        narrow: Narrow,
        resp: Box<MessagesResponse>,
        older: bool,
        /// The window's epoch when it was asked for (0: whatever window there is).
        epoch: u64,
    },
    MessagesFailed {
        narrow: Narrow,
        error: String,
    },
    Topics {
        channel: ChannelId,
        topics: Vec<TopicEntry>,
    },
    /// The subscribed channels.
    Subscriptions(Vec<Subscription>),
    /// Drafts found on disk at start-up, by key.
    DraftsLoaded(std::collections::HashMap<String, String>),
    /// A draft was pushed to the server: its ID there.
    DraftPushed {
        key: String,
        content: String,
        result: Result<i64, String>,
    },
    Events(Vec<Event>),
    /// The event queue is gone: register again.
    QueueLost,
    /// The event queue keeps answering what cannot be read: replace it.
    QueueUnreadable,
    /// The server refused our credentials (wrong key, deactivated user or organization).
    AuthLost(String),
    /// The event poll failed for a network reason; it tries again in `retry_in` seconds.
    Offline {
        why: String,
        retry_in: u64,
    },
    /// A poll succeeded after failures.
    Online,
    Sent {
        local_id: String,
        result: Result<MessageId, SendFailure>,
    },
    History {
        message_id: MessageId,
        result: Result<Vec<HistorySnapshot>, String>,
    },
    /// A message's Markdown, for quoting or editing.
    Raw {
        message_id: MessageId,
        edit: bool,
        result: Result<String, String>,
    },
    /// A background action finished: `Ok(note)` or `Err(why)`.
    Done(Result<String, String>),
    /// A channel's email address (`:channel-email`), to show and copy.
    ChannelEmail(Result<String, String>),
    /// A message was scheduled or a scheduled message changed: close the compose box.
    Scheduled(Result<String, String>),
    /// Presence changes since the last ping.
    Presence(Box<PresenceResponse>),
    /// An edit was saved (or refused: the compose box stays).
    Edited(Result<MessageId, String>),
    /// `$EDITOR` returned the compose text (or failed).
    EditorDone(Result<String, String>),
    /// Every channel the user can see (`:channels`).
    ChannelList(Result<Vec<BasicChannel>, ApiError>),
    /// One channel's details (`:channel-info`).
    ChannelDetails {
        channel: ChannelId,
        result: Result<Box<BasicChannel>, ApiError>,
    },
    /// A user's profile (`:profile`).
    Profile {
        user: UserId,
        result: Result<Box<User>, ApiError>,
    },
    /// A subscription to channels by name was asked for.
    Subscribed {
        names: Vec<String>,
        result: Result<SubscribeResponse, ApiError>,
    },
    /// A subscription setting was changed (the server's event brings the new value).
    PropertySet {
        channel: ChannelId,
        property: String,
        value: bool,
        result: Result<(), ApiError>,
    },
}
