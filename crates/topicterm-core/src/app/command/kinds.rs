//! What a palette line parses into: [`Command`], one variant per command (names are resolved to
//! IDs by `update`), and what `:archive` asks ([`Backfill`]). Knows nothing of parsing or of the
//! state. Start at [`Command`].

/// A parsed palette command (names are resolved to IDs by `update`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Scheduled,
    Drafts,
    Status(Option<String>),
    Mute,
    Unmute,
    Follow,
    Unsubscribe {
        channel: Option<String>,
        users: Vec<String>,
    },
    Deactivate {
        user: String,
        actions: Vec<String>,
    },
    /// Jump to the first message on or after a date in the current narrow.
    Date(String),
    Group {
        group: String,
        add: bool,
        subgroups: bool,
        names: Vec<String>,
    },
    View {
        fragment: String,
        pinned: Option<bool>,
        name: Option<String>,
    },
    Playground {
        name: String,
        language: String,
        template: String,
    },
    ChannelEmail {
        channel: Option<String>,
        sender: Option<String>,
    },
    Apns {
        token: String,
        appid: Option<String>,
    },
    Report {
        report_type: String,
        description: Option<String>,
    },
    /// Write what the client holds to a JSON file (bug reports, the chaos test).
    DumpState(Option<String>),
    /// Delete the selected message.
    Delete,
    /// Hide the selected message's link previews for the user (`true`) or show them again.
    HidePreviews(bool),
    /// Rename the selected message's topic and/or move it to another channel: which messages
    /// go (`change_one`, `change_later`, `change_all`).
    MoveTopic {
        channel: Option<String>,
        topic: Option<String>,
        mode: &'static str,
    },
    /// Mark the selected message's topic resolved (✔) or not.
    Resolve(bool),
    /// Add an option to the selected message's poll (`true`) or a task to its to-do list.
    AddItem {
        poll: bool,
        text: String,
    },
    /// The selected message and every later one of the view become unread.
    MarkUnread,
    /// Delete the selected topic and every message in it (administrators; asks first).
    DeleteTopic,
    /// Mark the selected topic (`None`), the current channel or everything as read.
    MarkRead(Option<bool>),
    /// Hide (or show again) a user's messages.
    MuteUser {
        user: String,
        mute: bool,
    },
    /// List the alert words (`None`), or add or remove some.
    AlertWords(Option<(bool, Vec<String>)>),
    /// Browse every channel the user can see.
    Channels,
    /// The latest conversations across channels and direct messages.
    Recent,
    /// Upload a file and link it in the compose box.
    Attach(String),
    /// Join a channel by name.
    Subscribe(String),
    /// A channel's details and the user's settings for it: named, or the one in view.
    ChannelInfo(Option<String>),
    /// New subscribers of a channel (named, or the one in view) get mobile notifications.
    PushDefault {
        on: bool,
        channel: Option<String>,
    },
    /// A user's profile: named, or the selected message's sender.
    Profile(Option<String>),
    /// Create a channel (the user its first subscriber).
    CreateChannel {
        name: String,
        private: bool,
        description: String,
    },
    /// Invite people by email, into the channels named (none: the default channels).
    Invite {
        emails: Vec<String>,
        channels: Vec<String>,
    },
    Help,
    Quit,
    /// Remind the user of the selected message: the time and a note, as typed (`WHEN [NOTE]`).
    Remind(Vec<String>),
    /// The user's reminders, by delivery time.
    Reminders,
    /// The user's Zulip settings, where each comes from; enter changes one on the server.
    Settings,
    /// The user's uploaded files.
    Uploads,
    /// The user's saved snippets.
    Snippets,
    /// Unread conversations by channel, then direct messages.
    Inbox,
    /// Remove this account's archive, last session, drafts and outbox from this machine (after asking).
    Forget,
    /// Fetch older history into the archive, or stop doing so.
    Archive(Backfill),
}

/// What `:archive` asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backfill {
    /// These channels' history (their names, without `#`).
    Channels(Vec<String>),
    /// Every message the user can see.
    All,
    Stop,
    /// `:archive` alone: go on with what `:archive stop` ended (or the last session left).
    Resume,
}
