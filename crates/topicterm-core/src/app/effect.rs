//! What `update` asks of the outside world: requests for the network tasks (`net`) and work
//! for the terminal side of the main loop (`run`).

use super::narrow::Narrow;
use super::outgoing::{Target, Verify};
use crate::api::*;

/// Operations run for the palette and popups; each answers `Msg::Done` with a summary.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiCall {
    SetStatus(StatusUpdate),
    /// `names`: what to call each principal in the answer ("you" for oneself; one entry,
    /// "you", without principals).
    Unsubscribe {
        channels: Vec<String>,
        principals: Option<Vec<UserId>>,
        names: Vec<String>,
    },
    Deactivate {
        user: UserId,
        name: String,
        actions: Option<DeactivationActions>,
    },
    /// `done`: the summary on success; `group` and `names` (user names, `@group` names by ID)
    /// word the server's refusals, which name IDs.
    GroupMembers {
        group_id: i64,
        update: GroupMembersUpdate,
        done: String,
        group: String,
        names: Vec<(i64, String)>,
    },
    NavView {
        fragment: String,
        is_pinned: Option<bool>,
        name: Option<String>,
    },
    AddPlayground {
        name: String,
        language: String,
        template: String,
    },
    /// `PATCH /settings`: one of the user's Zulip settings (`name`) set to `value`; `label`
    /// and `words` say it. The value is the user's only once the `user_settings` event says so.
    UserSetting {
        name: String,
        value: serde_json::Value,
        label: String,
        words: String,
    },
    ChannelEmail {
        channel: ChannelId,
        sender: Option<UserId>,
    },
    Apns {
        token: String,
        appid: Option<String>,
    },
    Report {
        message_id: MessageId,
        report_type: String,
        description: Option<String>,
    },
    Schedule(NewScheduledMessage),
    UpdateScheduled {
        id: i64,
        update: ScheduledMessageUpdate,
    },
    DeleteScheduled(i64),
    DeleteMessage(MessageId),
    /// Move (rename, resolve) messages of a topic; `done`: what to say when it worked.
    MoveTopic {
        message_id: MessageId,
        edit: MessageEdit,
        done: String,
    },
    MuteUser {
        user: UserId,
        name: String,
        mute: bool,
    },
    AlertWords {
        add: bool,
        words: Vec<String>,
    },
    /// A change to a message's widget (a vote, a tick).
    Submessage {
        message_id: MessageId,
        content: serde_json::Value,
    },
    /// The newest messages, for the recent conversations view: answers `Answer::Messages`.
    RecentMessages,
    /// Every channel the user can see (`GET /streams`): answers `Answer::Channels`.
    Channels,
    /// One channel's details (`GET /streams/{id}`): answers `Answer::Channel`.
    ChannelDetails(ChannelId),
    /// A channel's `default_push_notifications` (administrators, level 507).
    PushDefault {
        channel: ChannelId,
        on: bool,
    },
    /// A user with their custom profile fields (`GET /users/{id}`): answers `Answer::User`.
    Profile(UserId),
    /// One user, to name them (`GET /users/{id}`, `--low-bandwidth`): answers `Answer::User`.
    User(UserId),
    /// One message, to name the people it names (`--low-bandwidth`: a DM row's newest, when
    /// `GET /users/{id}` refused one of its people — a system bot): answers `Answer::Messages`.
    PeopleOf(MessageId),
    /// Every user (`GET /users`, `--low-bandwidth`'s first need): answers `Answer::People`.
    People,
    /// Every user group (`GET /user_groups`, `--low-bandwidth`'s first need): answers
    /// `Answer::Groups`.
    Groups,
    /// Subscribe to existing channels by name: answers `Answer::Subscribed`.
    Subscribe {
        names: Vec<String>,
    },
    /// Set one of the user's boolean settings for a channel (`pin_to_top`,
    /// `desktop_notifications`, …).
    SubscriptionProperty {
        channel: ChannelId,
        property: String,
        value: bool,
    },
    /// Create a channel: answers `Answer::ChannelCreated`.
    CreateChannel(NewChannel),
    /// Invite people by email into channels (none: the default channels): answers
    /// `Answer::Invited`. `channels`: the names, for the answer.
    Invite {
        emails: Vec<String>,
        ids: Vec<ChannelId>,
        channels: Vec<String>,
    },
    /// Remind the user of a message at `at` (UNIX seconds), with a note where the server
    /// keeps one (`note_kept`: said when it does not).
    Remind {
        message_id: MessageId,
        at: i64,
        note: Option<String>,
        note_kept: bool,
    },
    /// The user's reminders (`GET /reminders`, when register had none): answers
    /// `Answer::Reminders`.
    Reminders,
    DeleteReminder(i64),
    /// The user's uploads (`GET /attachments`) and the messages that link to them: answers
    /// `Answer::Uploads`.
    Uploads,
    /// Delete one of the user's uploads; `name`: the file's, for the answer.
    DeleteUpload {
        id: i64,
        name: String,
    },
    /// The user's saved snippets (`GET /saved_snippets`), where register had none: answers
    /// `Answer::Snippets`.
    Snippets,
    /// Save a snippet (its title, its text).
    CreateSnippet {
        title: String,
        content: String,
    },
    /// Delete a saved snippet; `title` words the answer.
    DeleteSnippet {
        id: i64,
        title: String,
    },
    /// Render the compose text for its preview: answers `Answer::Rendered`.
    RenderPreview {
        content: String,
    },
}

/// What `update` asks the outside world to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Register,
    FetchMessages {
        narrow: Narrow,
        terms: Vec<NarrowTerm>,
        anchor: Anchor,
        before: u64,
        after: u64,
        older: bool,
        /// The window's epoch, echoed in the answer.
        epoch: u64,
    },
    /// Ask the archive on this machine (the client's `archive`) for the newest `limit` messages of a
    /// narrow, answered by `Msg::ArchiveHits` (not at all when no archive is kept).
    SearchArchive {
        narrow: Narrow,
        terms: Vec<NarrowTerm>,
        limit: u32,
        epoch: u64,
    },
    FetchTopics(ChannelId),
    /// Read the last session from this machine (answered by `Msg::Cached`, or not at all).
    LoadCache,
    /// Read register's users into the users map, off the main task (answered by `Msg::Users`).
    ReadUsers {
        epoch: u64,
        roster: Box<crate::app::roster::Roster>,
    },
    /// Keep this session on this machine (written atomically, with its server and account).
    SaveCache(Box<crate::app::session::Snapshot>),
    /// Write a draft to disk atomically (empty text deletes it).
    SaveDraft {
        key: String,
        text: String,
    },
    /// Create (`id: None`) or update a draft on the server.
    PushDraft {
        key: String,
        id: Option<i64>,
        draft: Draft,
    },
    DeleteServerDraft(i64),
    Send {
        local_id: String,
        message: OutgoingMessage,
        /// An earlier attempt may have arrived: look before sending.
        verify: Option<Verify>,
    },
    Edit {
        message_id: MessageId,
        content: String,
    },
    SetPolicy {
        channel: ChannelId,
        topic: String,
        policy: VisibilityPolicy,
    },
    MarkRead(Vec<MessageId>),
    /// One of the operations behind the palette and popups.
    Api(ApiCall),
    /// Report presence; `last_update_id` asks for changes since then (modern protocol).
    Ping {
        active: bool,
        last_update_id: i64,
    },
    /// Star a message or take its star off: asked once, shown when the server's event says so.
    Star {
        id: MessageId,
        add: bool,
    },
    /// Hide a message's link previews for the user, or show them again (`hide_link_previews`,
    /// level 510): shown when the server's event says so, as a star is.
    HidePreviews {
        id: MessageId,
        hide: bool,
    },
    FetchHistory(MessageId),
    /// Who has read the user's own message (message info).
    FetchReadReceipts(MessageId),
    /// Upload a file (`~` is the home folder) and link it in the compose box for `target`;
    /// refused without uploading when larger than `max_bytes`.
    Upload {
        path: String,
        target: Target,
        max_bytes: Option<u64>,
    },
    /// Fetch a message's Markdown to quote it (`edit: false`) or edit it.
    FetchRaw {
        message_id: MessageId,
        edit: bool,
    },
    React {
        message_id: MessageId,
        emoji: EmojiSpec,
        add: bool,
    },
    MarkTopicRead {
        channel: ChannelId,
        topic: String,
    },
    /// Mark every message of a channel read (`POST /messages/flags/narrow`, page by page).
    MarkChannelRead {
        channel: ChannelId,
        name: String,
    },
    /// Count a topic's messages (up to 1,000) before asking whether to delete it.
    CountTopic {
        channel: ChannelId,
        topic: String,
    },
    /// Delete a topic and all its messages (administrators), call after call until complete.
    DeleteTopic {
        channel: ChannelId,
        topic: String,
        /// `#channel > topic`, for the answer.
        name: String,
    },
    /// The message `anchor` and every later one of the narrow become unread
    /// (`POST /messages/flags/narrow`, page by page).
    MarkUnreadFrom {
        terms: Vec<NarrowTerm>,
        anchor: MessageId,
    },
    /// Mute or unmute a channel (the subscription's `is_muted`).
    /// Every unread message, everywhere.
    MarkAllRead,
    /// Remove this account's files from the disk — its archive (the client's `archive`), its last
    /// session, its drafts and outbox — and keep nothing more in them this session.
    Forget,
    /// Fetch the older history of these narrows into the archive only (not the views), a page
    /// at a time, each from where the last run left it (`:archive`); one task, which a new
    /// `Backfill` or `BackfillStop` ends. Answered by `Msg::BackfillProgress` after each page and
    /// `Msg::BackfillDone` for each narrow.
    Backfill(Vec<crate::app::session::BackfillTarget>),
    /// End the running backfill (`:archive stop`); what it fetched stays, and it resumes there.
    BackfillStop,
    /// Tell the conversation the user started or stopped typing.
    Typing {
        to: Target,
        start: bool,
    },
    SetChannelMuted {
        channel: ChannelId,
        name: String,
        muted: bool,
    },
    /// Load the current narrow around the first message on or after a date (anchor `date`).
    JumpToDate {
        narrow: Narrow,
        terms: Vec<NarrowTerm>,
        date: String,
        epoch: u64,
    },
    /// Tell others this user started or stopped editing a message.
    EditTyping {
        message_id: MessageId,
        start: bool,
    },
    /// List a folder's entries to complete a path (`~/` is home); answered by `Msg::Listed`.
    ListFolder(String),
    /// Write what the client holds (`state_dump`) to a file; `None`: the default place.
    DumpState {
        path: Option<String>,
        contents: String,
    },
    /// Open a link in the browser; `download`: an uploaded file, fetched with the user's
    /// credentials and opened from disk.
    OpenUrl {
        url: String,
        download: bool,
    },
    /// Work for the terminal side of the main loop; the network tasks never see it.
    Term(TermEffect),
    /// Fetch and decode a picture on the user's own server (from the disk cache when there).
    FetchImage {
        src: String,
    },
    PollEvents {
        queue_id: String,
        last_event_id: i64,
        timeout_secs: u64,
    },
    Quit,
}

/// What needs the terminal itself, so the main loop runs it between two frames: never sent to
/// the network tasks.
#[derive(Debug, Clone, PartialEq)]
pub enum TermEffect {
    /// Put text on the clipboard (OSC 52: works over SSH).
    Copy(String),
    /// Tell the user about a new message (desktop notification or bell): the organization as
    /// the title, who wrote where and the text as the body; clicked, it opens `clicked`.
    Notify { title: String, body: String, clicked: Clicked },
    /// Edit the compose text in `$EDITOR`.
    ExternalEdit { text: String },
    /// Put another of the open organizations on screen.
    SwitchOrganization(super::orgs::OrgSwitch),
    /// Read this closed organization's credentials again and open it anew.
    Reopen,
    /// Ring the terminal bell (a notification no desktop showed, or one clicked).
    Bell,
}

/// What a click on a notification opens: the message's conversation, at the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Clicked {
    pub open: Narrow,
    pub id: MessageId,
}
