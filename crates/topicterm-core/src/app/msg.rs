//! What `update` takes in: keys, pastes, the clock, and every answer of the network tasks.

use super::effect::{ApiCall, Clicked};
use super::narrow::Narrow;
use super::outgoing::SendFailure;
use crate::api::*;
use crate::app::keys::KeyEvent;
use std::path::PathBuf;

/// A background job that answers with [`Msg::Done`], named with what its answer needs in
/// order to be put into words (by `app`, never by `net`).
#[derive(Debug)]
pub enum Job {
    /// Work nobody waits for (typing notices, a deleted server draft, a failed presence ping):
    /// nothing to say either way.
    Quiet,
    /// A palette or popup operation.
    Api(Box<ApiCall>),
    /// Writing a draft to this machine's disk.
    SaveDraft,
    /// A channel's topics.
    FetchTopics(ChannelId),
    /// Opening a link (`download`: an uploaded file, fetched first).
    Open {
        download: bool,
    },
    DumpState,
    /// A file uploaded for the compose box of `target`.
    Upload {
        target: super::outgoing::Target,
    },
    /// A topic's visibility policy for the user (muted, followed…), asked of the server.
    SetPolicy {
        channel: ChannelId,
        topic: String,
        policy: VisibilityPolicy,
    },
    /// Read and other flags.
    Flags,
    /// A message starred (`add`) or its star taken off.
    Star {
        add: bool,
    },
    /// A message's link previews hidden (`hide`) or shown again.
    HidePreviews {
        hide: bool,
    },
    MarkTopicRead,
    MarkChannelRead {
        name: String,
    },
    MarkAllRead,
    /// This account's files removed (`:forget`).
    Forget,
    MarkUnread,
    DeleteTopic {
        name: String,
    },
    SetChannelMuted {
        name: String,
        muted: bool,
    },
    /// A reaction added (`add`) or taken back.
    React {
        add: bool,
    },
}

/// What a finished job brings back.
#[derive(Debug)]
pub enum Answer {
    Nothing,
    /// Unsubscriptions, one per person asked for (`name`: how the request named them), and the
    /// refusal that stopped the rest, if any.
    Unsubscribed {
        done: Vec<Unsubscribed>,
        refused: Option<ApiError>,
    },
    /// A channel's email address.
    Email(String),
    /// A list of words (the alert words after a change).
    Words(Vec<String>),
    /// One user's record.
    User(Box<User>),
    /// Every user (`GET /users`).
    People(Vec<User>),
    /// Every user group (`GET /user_groups`).
    Groups(Vec<UserGroup>),
    /// Every channel the user can see.
    Channels(Vec<BasicChannel>),
    /// One channel's details.
    Channel(Box<BasicChannel>),
    /// Messages (the newest, for the recent conversations view).
    Messages(Vec<Message>),
    /// What a subscription request did.
    Subscribed(SubscribeResponse),
    /// An uploaded file: its name and the URL a message links to.
    Uploaded {
        name: String,
        url: String,
    },
    /// A file written (the state dump).
    Written(PathBuf),
    /// A link or a downloaded file handed to the browser (`opening`: why that failed;
    /// `browser`: the user's `$BROWSER` was the one asked, not the system's opener).
    Opened {
        target: String,
        saved: bool,
        opening: Option<ProgramFailure>,
        browser: bool,
    },
    /// An attachment saved at `target` and not opened (`why`: not of an inert type, or its
    /// contents are not what its name says).
    Kept {
        target: String,
        why: Kept,
    },
    /// A channel created (its ID, where the server says it).
    ChannelCreated(Option<ChannelId>),
    /// Invitations sent to all but those skipped.
    Invited(Invited),
    /// The user's reminders.
    Reminders(Vec<Reminder>),
    /// The user's uploads, the space all uploads take, and the messages that link to them
    /// (those the server gave).
    Uploads {
        files: Vec<Attachment>,
        used: Option<u64>,
        messages: Vec<Message>,
    },
    /// The user's saved snippets.
    Snippets(Vec<SavedSnippet>),
    /// A text rendered by the server (HTML).
    Rendered(String),
}

/// Why a program the client starts (the browser or opener, `$EDITOR`) did not do its part;
/// `answers.rs` words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramFailure {
    /// It could not be started (not installed, not allowed to run, …).
    NotStarted { program: String, kind: std::io::ErrorKind },
    /// It ran and said it failed (its exit code, if it had one).
    Exited { program: String, code: Option<i32> },
    /// The file it works on could not be made or read back.
    File(std::io::ErrorKind),
}

impl ProgramFailure {
    /// In words, for the status bar and `topicterm login`.
    pub fn words(&self) -> String {
        use std::io::ErrorKind as K;
        match self {
            Self::NotStarted { program, kind: K::NotFound } => {
                format!("{program} was not found: is it installed?")
            }
            Self::NotStarted { program, kind: K::PermissionDenied } => {
                format!("{program} is not allowed to run")
            }
            Self::NotStarted { program, .. } => format!("{program} could not be started"),
            Self::Exited { program, code: Some(code) } => format!("{program} failed (exit code {code})"),
            Self::Exited { program, code: None } => format!("{program} was stopped"),
            Self::File(kind) => {
                let why = match kind {
                    K::NotFound => "not found",
                    K::PermissionDenied => "no permission",
                    K::StorageFull => "the disk is full",
                    K::ReadOnlyFilesystem => "a read-only file system",
                    _ => "an input/output error",
                };
                format!("its file could not be written or read back ({why})")
            }
        }
    }

    /// How a program run through `sh -c` ended: `sh` says 127 when it cannot find the program and
    /// 126 when it may not run it; any other code but 0 is the program's own failure.
    pub fn from_sh(program: String, code: Option<i32>) -> Result<(), ProgramFailure> {
        use std::io::ErrorKind;
        match code {
            Some(0) => Ok(()),
            Some(127) => Err(ProgramFailure::NotStarted { program, kind: ErrorKind::NotFound }),
            Some(126) => Err(ProgramFailure::NotStarted { program, kind: ErrorKind::PermissionDenied }),
            code => Err(ProgramFailure::Exited { program, code }),
        }
    }
}

/// What one unsubscription did.
#[derive(Debug, PartialEq)]
pub struct Unsubscribed {
    pub name: String,
    pub removed: Vec<String>,
    pub not_removed: Vec<String>,
}

/// Why a background job failed: the API's error kinds, or the local system's.
#[derive(Debug)]
pub enum Failure {
    Api(ApiError),
    /// A local file could not be written.
    File {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A downloaded picture that cannot be shown (the decoder's reason).
    Undecodable(String),
    /// A local file could not be read.
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A file larger than the server takes (bytes).
    TooLarge {
        path: PathBuf,
        size: u64,
        max: u64,
    },
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        Failure::Api(e)
    }
}

/// What a check of the archive against the server cost (`Msg::ArchiveChecked`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArchiveCheck {
    /// Requests made.
    pub requests: u64,
    /// Messages the server sent back.
    pub messages: u64,
}

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
    /// Pictures the last frame would have drawn and the state does not have yet.
    ImagesWanted(Vec<String>),
    /// The links the last frame showed in the messages pane, in screen order (sent when they
    /// changed): what link hints label.
    LinksOnScreen(Vec<super::hints::LinkSpot>),
    /// The messages the last frame drew in the messages pane down to their last line, top to
    /// bottom (sent when they or the narrow changed): what the user's
    /// `web_mark_read_on_scroll_policy` may read.
    MessagesOnScreen(Vec<crate::api::MessageId>),
    /// A picture fetched (or not).
    Image {
        src: String,
        result: Result<super::images::Picture, Failure>,
    },
    /// A click on an organization's row (several open).
    ClickOrganization(usize),
    /// The organizations open in the window changed (their unread counts, the one on screen):
    /// the main loop tells every one of them.
    Organizations(super::orgs::Orgs),
    /// The user pressed a key or pasted in another organization open in the window: they are
    /// at the keyboard, so presence here stays active too.
    InputElsewhere,
    /// Another organization open in the window was closed: the server refused its account.
    OrganizationClosed {
        name: String,
        why: String,
    },
    /// This closed organization could not be reopened: its credentials could not be read
    /// again (the reason, in the words of the account store).
    ReopenFailed(String),
    Tick(i64),
    /// A request that should take a moment has waited this many seconds for the server's
    /// answer (`net::silence`); `None`: every such request is answered or has failed.
    Unanswered(Option<u64>),
    Registered(Box<RegisterResponse>),
    /// The last session, read from this machine.
    Cached(Box<crate::app::session::Snapshot>),
    /// Register's users and user groups, read (`Effect::ReadUsers` of the same epoch).
    Users {
        epoch: u64,
        roll: Box<crate::app::roster::Roll>,
    },
    RegisterFailed(ApiError),
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
        error: ApiError,
        /// The page asked for was older history (else the first page or newer messages).
        older: bool,
        /// The window's incarnation it was asked for (0: any).
        epoch: u64,
    },
    /// What the archive on this machine holds for a narrow (`Effect::SearchArchive`): the
    /// newest matches, oldest first, shown until the server's page comes (or alone offline).
    ArchiveHits {
        narrow: Narrow,
        /// The window's incarnation it was asked for.
        epoch: u64,
        messages: Vec<Message>,
    },
    Topics {
        channel: ChannelId,
        topics: Vec<TopicEntry>,
    },
    /// A page of a backfill written to the archive (`Effect::Backfill`): `fetched` messages of
    /// the narrow named `name` so far, over every run, of `about` in all (a guess, when it can
    /// be made).
    BackfillProgress {
        name: String,
        fetched: u64,
        about: Option<u64>,
    },
    /// A backfill's page could not be fetched (`why`): it is asked again in `retry_in` seconds.
    BackfillWaiting {
        name: String,
        why: String,
        retry_in: u64,
    },
    /// A backfill of one narrow ended: every message fetched (how many, over every run), or why
    /// it stopped (the archive off, the server refusing).
    BackfillDone {
        name: String,
        result: Result<u64, String>,
    },
    /// The archive was checked against the server after a register (`net/reconcile.rs`): what
    /// it keeps that the server no longer shows the user dropped, what changed replaced — with
    /// how many requests and messages that took — or why the check stopped.
    ArchiveChecked(Result<ArchiveCheck, String>),
    /// Drafts found on disk at start-up, by key.
    DraftsLoaded(std::collections::HashMap<String, String>),
    /// A draft was pushed to the server: its ID there.
    DraftPushed {
        key: String,
        content: String,
        result: Result<i64, ApiError>,
    },
    /// The server deleted this draft (or had no such draft).
    ServerDraftGone(i64),
    Events(Vec<Event>),
    /// The event queue is gone: register again.
    QueueLost,
    /// The event queue keeps answering what cannot be read: replace it.
    QueueUnreadable,
    /// The server refused our credentials (wrong key, deactivated user or organization).
    AuthLost(ApiError),
    /// The event poll failed for a network reason; it tries again in `retry_in` seconds.
    Offline {
        error: ApiError,
        retry_in: u64,
    },
    /// A poll succeeded after failures.
    Online,
    /// Events of this many arrived that could not be read (the first one's type and error).
    UnreadableEvents {
        count: usize,
        first: (String, String),
    },
    Sent {
        local_id: String,
        result: Result<MessageId, SendFailure>,
    },
    /// How many messages a topic holds (`all`: every one was counted; else there are more).
    TopicCounted {
        channel: ChannelId,
        topic: String,
        result: Result<(usize, bool), ApiError>,
    },
    ReadReceipts {
        message_id: MessageId,
        result: Result<Vec<UserId>, ApiError>,
    },
    History {
        message_id: MessageId,
        result: Result<Vec<HistorySnapshot>, ApiError>,
    },
    /// A message's Markdown, for quoting or editing.
    Raw {
        message_id: MessageId,
        edit: bool,
        result: Result<String, ApiError>,
    },
    /// A background job finished.
    Done {
        job: Job,
        result: Result<Answer, Failure>,
    },
    /// Presence changes since the last ping.
    Presence(Box<PresenceResponse>),
    /// An edit was saved (or refused: the compose box stays).
    Edited(Result<MessageId, ApiError>),
    /// How much of an upload has gone out (bytes).
    UploadProgress {
        name: String,
        sent: u64,
        total: u64,
    },
    /// A folder's entries (name, is a folder) for path completion; `None`: it cannot be read.
    Listed {
        dir: String,
        entries: Option<Vec<(String, bool)>>,
    },
    /// `$EDITOR` returned the compose text (or failed).
    EditorDone(Result<String, ProgramFailure>),
    /// A desktop notification was clicked.
    NotificationClicked(Clicked),
    /// No desktop showed a notification (the reason is in the log): the bell instead.
    NotificationUnshown,
}

impl Msg {
    /// Which input this is, for a message about it (the invariants' check names it).
    pub fn name(&self) -> &'static str {
        match self {
            Msg::Key { .. } => "Key",
            Msg::Paste { .. } => "Paste",
            Msg::Focus { .. } => "Focus",
            Msg::Scroll { .. } => "Scroll",
            Msg::ClickSidebar { .. } => "ClickSidebar",
            Msg::ClickMessage { .. } => "ClickMessage",
            Msg::ImagesWanted { .. } => "ImagesWanted",
            Msg::LinksOnScreen(_) => "LinksOnScreen",
            Msg::MessagesOnScreen(_) => "MessagesOnScreen",
            Msg::Image { .. } => "Image",
            Msg::ClickOrganization { .. } => "ClickOrganization",
            Msg::Organizations { .. } => "Organizations",
            Msg::InputElsewhere => "InputElsewhere",
            Msg::OrganizationClosed { .. } => "OrganizationClosed",
            Msg::ReopenFailed { .. } => "ReopenFailed",
            Msg::Tick { .. } => "Tick",
            Msg::Unanswered(_) => "Unanswered",
            Msg::Registered { .. } => "Registered",
            Msg::Cached { .. } => "Cached",
            Msg::Users { .. } => "Users",
            Msg::RegisterFailed { .. } => "RegisterFailed",
            Msg::Messages { .. } => "Messages",
            Msg::MessagesFailed { .. } => "MessagesFailed",
            Msg::ArchiveHits { .. } => "ArchiveHits",
            Msg::Topics { .. } => "Topics",
            Msg::BackfillProgress { .. } => "BackfillProgress",
            Msg::BackfillDone { .. } => "BackfillDone",
            Msg::BackfillWaiting { .. } => "BackfillWaiting",
            Msg::ArchiveChecked { .. } => "ArchiveChecked",
            Msg::DraftsLoaded { .. } => "DraftsLoaded",
            Msg::DraftPushed { .. } => "DraftPushed",
            Msg::ServerDraftGone { .. } => "ServerDraftGone",
            Msg::Events { .. } => "Events",
            Msg::QueueLost => "QueueLost",
            Msg::QueueUnreadable => "QueueUnreadable",
            Msg::AuthLost { .. } => "AuthLost",
            Msg::Offline { .. } => "Offline",
            Msg::Online => "Online",
            Msg::UnreadableEvents { .. } => "UnreadableEvents",
            Msg::Sent { .. } => "Sent",
            Msg::TopicCounted { .. } => "TopicCounted",
            Msg::ReadReceipts { .. } => "ReadReceipts",
            Msg::History { .. } => "History",
            Msg::Raw { .. } => "Raw",
            Msg::Done { .. } => "Done",
            Msg::Presence { .. } => "Presence",
            Msg::Edited { .. } => "Edited",
            Msg::UploadProgress { .. } => "UploadProgress",
            Msg::Listed { .. } => "Listed",
            Msg::EditorDone { .. } => "EditorDone",
            Msg::NotificationClicked { .. } => "NotificationClicked",
            Msg::NotificationUnshown => "NotificationUnshown",
        }
    }
}

/// Why a downloaded attachment was saved and not opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    /// An archive: saved, never unpacked or opened.
    Archive,
    /// Its name is of no inert type: programs, scripts, pages, documents with macros, and
    /// every type not on the list (a name with no extension or a trailing dot too).
    NotInert,
    /// Its name is of an inert type (this extension) but its contents are not.
    Contents(String),
}

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Kept::Archive => f.write_str("an archive is saved, not unpacked or opened"),
            Kept::NotInert => f.write_str("only pictures, PDFs, plain text, audio and video are opened"),
            Kept::Contents(ext) => write!(f, "its contents are not those of a .{ext} file"),
        }
    }
}
