//! The state's types: the UI state (focus, sidebar rows, the compose box, prompts, popups,
//! notices), and [`State`], everything the UI task owns (its time zone is `when::TimeZone`).

use super::editor::Editor;
use super::effect::Effect;
use super::narrow::Narrow;
use super::outgoing::*;
pub use super::rooms::backfill::Backfill;
pub use super::rooms::channels::{ChannelsPane, Section, SidebarRow};
pub use super::rooms::connection::{Connection, FirstPage, Offline};
pub use super::rooms::people::PeoplePane;
pub use super::rooms::presence::{Presence, Typing, TypingNotice};
use super::settings::Settings;
use super::state::*;
use super::when::TimeZone;
use crate::api::*;
use crate::line::LineEditor;
use std::collections::HashSet;

/// Which pane has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    Sidebar,
    #[default]
    Messages,
    People,
}

/// The compose box.
#[derive(Debug, Clone)]
pub struct Compose {
    pub target: Target,
    pub editor: Editor,
    /// Editing this message instead of sending a new one.
    pub editing: Option<MessageId>,
    /// Editing this scheduled message.
    pub scheduled: Option<i64>,
    /// Completions for the word before the cursor: (shown, inserted).
    pub suggestions: Vec<(String, String)>,
    /// How many characters before the cursor a completion replaces.
    pub token_len: usize,
    /// Repeated tab: (index of the completion inserted, characters it inserted).
    pub cycle: Option<(usize, usize)>,
    /// A Tab (`false`) or shift+tab (`true`) that found nothing while the list its candidates
    /// come from was being read (`--low-bandwidth`'s people): done once the list is in.
    pub tab: Option<bool>,
    /// Shown in place of the editor (alt+p): the server's rendering of the text.
    pub preview: Option<Preview>,
}

/// The compose text as the server renders it: what was sent to be rendered, and the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The text asked about; an answer for any other text is stale.
    pub text: String,
    /// The server's HTML, once it has answered.
    pub html: Option<String>,
    /// Rows scrolled down.
    pub scroll: u16,
}

impl Compose {
    pub fn new(target: Target, text: &str, editing: Option<MessageId>) -> Self {
        let editor = Editor::new(text);
        Compose {
            target,
            editor,
            editing,
            scheduled: None,
            suggestions: Vec::new(),
            token_len: 0,
            cycle: None,
            tab: None,
            preview: None,
        }
    }
    pub fn text(&self) -> String {
        self.editor.text()
    }
    /// Where this compose box's draft is kept: per conversation, per edited message, per
    /// scheduled message.
    pub fn draft_key(&self) -> String {
        match (self.editing, self.scheduled) {
            (Some(id), _) => format!("edit-{id}"),
            (_, Some(id)) => format!("scheduled-{id}"),
            _ => self.target.key(),
        }
    }
}

/// Completions of the word at the end of a prompt, cycled by repeated tab.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    /// (shown, inserted).
    pub suggestions: Vec<(String, String)>,
    /// How many characters at the end of the text a completion replaces.
    pub token_len: usize,
    /// (index of the completion inserted, characters it inserted).
    pub cycle: Option<(usize, usize)>,
    /// A Tab (`false`) or shift+tab (`true`) that found nothing while the list its candidates
    /// come from was being read (`--low-bandwidth`'s people): done once the list is in.
    pub tab: Option<bool>,
}

/// Who has read a message, or why that is not known.
pub type Receipts = Result<Vec<UserId>, String>;

/// A folder's entries: (name, is a folder).
pub type Folder = Vec<(String, bool)>;

/// A one-line prompt at the bottom (search, compose recipient, the palette, …), edited with the
/// usual line keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub line: LineEditor,
}

impl Prompt {
    /// A prompt prefilled with `text`, the cursor at its end.
    pub fn new(kind: PromptKind, text: &str) -> Prompt {
        Prompt { kind, line: LineEditor::new(text) }
    }

    pub fn text(&self) -> &str {
        self.line.text()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    Search,
    /// `channel>topic` for a new channel message.
    ChannelTopic,
    /// Comma-separated names or emails for a new DM.
    DmRecipients,
    /// A palette command (`:`).
    Command,
    /// When to send the composed message.
    ScheduleTime,
    /// y/N before `Ui::confirm` runs.
    Confirm,
    /// Which of the selected message's links to open.
    OpenLink,
    /// Which of the selected message's code blocks to copy.
    CopyCode,
    /// The path of a file to attach.
    AttachPath,
    /// Filter the channels pane as the user types.
    FilterChannels,
    /// Filter the people pane as the user types.
    FilterPeople,
    /// The title of a new saved snippet (its text: the compose box's).
    SnippetTitle,
    /// `t`: the selected message's topic, to rename; `mode` says which of its messages take
    /// the new name (`change_all`, `change_later`, `change_one`), tab changes it.
    RenameTopic {
        mode: &'static str,
    },
}

impl PromptKind {
    /// Which messages a rename takes, in words, for the prompt's label.
    pub fn rename_scope(mode: &str) -> &'static str {
        match mode {
            "change_later" => "this and later messages",
            "change_one" => "only this message",
            _ => "all its messages",
        }
    }
}

/// A popup over the main screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Popup {
    Help {
        scroll: u16,
    },
    EditHistory {
        message_id: MessageId,
        snapshots: Option<Vec<HistorySnapshot>>,
        scroll: u16,
    },
    /// Pick an emoji to react with; typing searches.
    Emoji {
        message_id: MessageId,
        query: LineEditor,
        /// (name, code, reaction type), best first.
        matches: Vec<(String, String, String)>,
        selected: usize,
    },
    /// Scheduled messages, by delivery time.
    Scheduled {
        selected: usize,
    },
    /// The drafts (`:drafts`): every conversation's unsent text, typed here or kept by the
    /// server (`update::drafts_list`).
    Drafts {
        selected: usize,
    },
    /// Sender, exact time, links and who reacted.
    MessageInfo {
        message_id: MessageId,
        scroll: u16,
    },
    /// Every channel the user can see (`:channels`); typing filters. `list`: `None` while
    /// loading.
    Channels {
        query: LineEditor,
        selected: usize,
        list: Option<ChannelList>,
    },
    /// One channel: the server's details, its email address, the user's own settings.
    /// `back`: the `:channels` list it was opened from (ctrl+o), which esc returns to.
    ChannelInfo {
        channel: ChannelId,
        details: Option<Box<BasicChannel>>,
        email: Option<Result<String, String>>,
        scroll: u16,
        back: Option<Box<Popup>>,
    },
    /// The recent conversations view (`rows`: `None` while loading).
    Recent {
        selected: usize,
        rows: Option<Vec<RecentConversation>>,
    },
    /// A user's profile (`details` once the server has answered).
    Profile {
        user: UserId,
        details: Option<Box<User>>,
        scroll: u16,
    },
    /// A message's inline images, one at a time, as large as the screen allows.
    Image {
        message_id: MessageId,
        /// The pictures, in the message's order, and the one shown.
        srcs: Vec<String>,
        shown: usize,
    },
    /// The user's reminders, by delivery time (`Data::reminders`; asked for when the server
    /// has not said them).
    Reminders {
        selected: usize,
    },
    /// The user's Zulip settings (`:settings`, `app::zulip_settings`): row 0 is how
    /// notifications are shown (the config's), the others `zulip_settings::SETTINGS`.
    Settings {
        selected: usize,
    },
    /// The user's uploaded files (`list`: `None` while loading).
    Uploads {
        selected: usize,
        list: Option<UploadList>,
    },
    /// The user's saved snippets (`:snippets`): enter inserts one; `/` filters by title and
    /// text. `shown`: the IDs the filter keeps, in order (`None` while the server is asked).
    Snippets {
        query: LineEditor,
        /// The filter line has the keys (after `/`); else the list does.
        filtering: bool,
        selected: usize,
        shown: Option<Vec<i64>>,
    },
    /// The inbox (`:inbox`): unread conversations by channel, then direct messages.
    Inbox(InboxView),
    /// Link hints (`f`, `F`): the links on screen labelled; typing a label opens or copies it.
    Hints(super::hints::Hints),
}

/// The `:uploads` list: the user's files, newest first, the space uploads take, and the
/// conversations of the messages that link to them (as far as the client knows them).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UploadList {
    pub files: Vec<Attachment>,
    /// Bytes the files take together.
    pub total: u64,
    /// Bytes every upload of the organization takes (the server's count), when it says.
    pub used: Option<u64>,
    /// The conversation of each message that links to a file, from the messages fetched with
    /// the list (a message held in the store is looked up there).
    pub places: std::collections::HashMap<MessageId, Narrow>,
}

/// The inbox as shown: its rows, derived from the unread index and rebuilt when the index
/// changes (or a mute does), not per frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InboxView {
    pub rows: Vec<InboxRow>,
    pub selected: usize,
    /// Groups shown as their heading only.
    pub collapsed: std::collections::BTreeSet<InboxGroup>,
    /// The unread index's revision the rows were built from.
    pub revision: u64,
}

/// A group of the inbox: a channel's topics, or the direct messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InboxGroup {
    Channel(ChannelId),
    Dms,
}

/// A row of the inbox with its unread count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxRow {
    /// A group's heading: a channel's or the direct messages' unread total.
    Group { group: InboxGroup, unread: usize },
    /// A topic, named as its newest unread message names it.
    Topic { channel: ChannelId, topic: String, unread: usize },
    /// A direct-message conversation (the others in it).
    Dm { users: Vec<UserId>, unread: usize },
}

impl InboxRow {
    /// The group the row belongs to (or heads).
    pub fn group(&self) -> InboxGroup {
        match self {
            InboxRow::Group { group, .. } => *group,
            InboxRow::Topic { channel, .. } => InboxGroup::Channel(*channel),
            InboxRow::Dm { .. } => InboxGroup::Dms,
        }
    }

    /// The same place in two builds (topics compare without case; counts do not matter).
    pub fn same_place(&self, other: &InboxRow) -> bool {
        match (self, other) {
            (InboxRow::Group { group: a, .. }, InboxRow::Group { group: b, .. }) => a == b,
            (InboxRow::Topic { channel: a, topic: t, .. }, InboxRow::Topic { channel: b, topic: u, .. }) => {
                a == b && t.to_lowercase() == u.to_lowercase()
            }
            (InboxRow::Dm { users: a, .. }, InboxRow::Dm { users: b, .. }) => a == b,
            _ => false,
        }
    }

    pub fn unread(&self) -> usize {
        match self {
            InboxRow::Group { unread, .. } | InboxRow::Topic { unread, .. } | InboxRow::Dm { unread, .. } => {
                *unread
            }
        }
    }
}

/// A row of the recent conversations view.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentConversation {
    /// The topic (as its newest message names it) or the direct-message conversation.
    pub narrow: Narrow,
    pub newest: MessageId,
    pub timestamp: i64,
    /// Who wrote in it, most recent first (a few).
    pub senders: Vec<UserId>,
}

/// A channel of the `:channels` list: what the server says of it, and its description as one
/// line of plain text (read once, when the list arrives, not per frame).
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelEntry {
    pub channel: BasicChannel,
    pub summary: String,
}

/// The `:channels` list and what the filter keeps of it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChannelList {
    pub all: Vec<ChannelEntry>,
    /// Indexes into `all` that match the filter, in order.
    pub shown: Vec<usize>,
}

/// A line in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub error: bool,
    /// When it was said (UNIX seconds): it goes after `Status::LASTS` (errors twice as long).
    pub at: i64,
}

impl Status {
    pub const LASTS: i64 = 6;
    pub fn expired(&self, now: i64) -> bool {
        now - self.at >= if self.error { 2 * Self::LASTS } else { Self::LASTS }
    }
}

/// What a y/N question does on "y": an effect, or a change of this app's own state.
#[derive(Debug, Clone)]
pub enum Confirmed {
    Run(Box<Effect>),
    /// Discard a draft (`:drafts`, `d`), here and on the server.
    DeleteDraft {
        key: String,
        on_server: bool,
    },
}

/// UI state.
#[derive(Debug, Default)]
pub struct Ui {
    pub focus: Focus,
    pub narrow: Narrow,
    /// The selected message in the current narrow.
    pub selected: Option<MessageId>,
    /// The channels pane: its rows, selection, expanded channel and filter.
    pub sidebar: ChannelsPane,
    pub compose: Option<Compose>,
    pub prompt: Option<Prompt>,
    /// Who has read the message whose info is open (the user's own): `None` inside until the
    /// server answers.
    pub read_receipts: Option<(MessageId, Option<Receipts>)>,
    /// Marked unread from here (`:mark-unread`): this message is not read again until the
    /// selection moves, as in the web app.
    pub hold_read: Option<MessageId>,
    /// Tab completion in the prompts that complete.
    pub completion: Completion,
    /// The folder whose entries complete a path in the attach prompt (`None` inside: asked for).
    pub listing: Option<(String, Option<Folder>)>,
    pub popup: Option<Popup>,
    /// The largest useful scroll of the popup (or of the compose box's preview) as last drawn
    /// (the view knows the wrapped text and the screen): scrolling stops there, and `G`/End go
    /// there.
    pub popup_bottom: std::cell::Cell<Option<u16>>,
    pub status: Option<Status>,
    /// The connection and the session's bookkeeping.
    pub conn: Connection,
    /// The `:archive` backfill.
    pub backfill: Backfill,
    /// (message, spoiler index) toggled open.
    pub open_spoilers: HashSet<(MessageId, usize)>,
    /// Messages of muted senders the user chose to see.
    pub revealed: HashSet<MessageId>,
    /// Select this message as soon as it is in the current view (the user's own sent message).
    pub jump_to: Option<MessageId>,
    /// The next page of the current narrow answers a jump to a date: select its anchor.
    pub date_jump: Option<String>,
    /// The people pane: shown or not, who it lists (rebuilt on presence and user changes, not
    /// per frame), its selection and filter.
    pub people: PeoplePane,
    /// What a `Confirm` prompt does on "y", and the question.
    pub confirm: Option<(String, Confirmed)>,
    /// Who is typing, and what the user's presence is reported from.
    pub presence: Presence,
    /// The compose text changed since the draft was last saved.
    pub draft_dirty: bool,
    /// The narrows opened last, newest first (at most `session::CACHED_NARROWS`): the last
    /// session keeps their windows.
    pub visited: Vec<Narrow>,
    /// The organizations open in the window (empty with one).
    pub orgs: super::orgs::Orgs,
    /// The links the last frame showed in the messages pane, in screen order (told by the
    /// main loop after a frame, `Msg::LinksOnScreen`): what `f` labels.
    pub links_on_screen: Vec<super::hints::LinkSpot>,
    /// The messages the last frame drew whole (down to their last line) in the messages pane,
    /// and the narrow it showed (told by the main loop, `Msg::MessagesOnScreen`): what reading
    /// on sight marks read (`update/read_marking.rs`).
    pub messages_on_screen: (Narrow, Vec<MessageId>),
    /// Marked unread from here in this narrow: nothing on screen here is read on sight until
    /// the user opens another view (as the web app stops reading a view marked unread).
    pub reading_held: Option<Narrow>,
}

/// Everything the UI task owns.
#[derive(Debug, Default)]
pub struct State {
    /// How times are shown.
    pub tz: TimeZone,
    pub data: Data,
    pub ui: Ui,
    /// Current UNIX time, advanced by `Msg::Tick` (keeps `update` pure).
    pub now: i64,
    /// Unsent compose text by draft key (mirrors the drafts on disk), with what is known of the
    /// server's drafts (`app::drafts`).
    pub drafts: super::drafts::Drafts,
    /// Messages sent but not yet seen back from the server, in the order written (`app::outbox`).
    pub outbox: super::outbox::Outbox,
    /// The server's base URL (message links, attachments).
    pub site: String,
    /// Any certificate is accepted for this server (`insecure`): said on every frame.
    pub insecure: bool,
    /// The session is kept on this machine (a cache file is configured): only then is a
    /// snapshot of it taken.
    pub keep_session: bool,
    /// The user's settings (config file): keys, colours, clock, first view.
    pub settings: Settings,
    /// Where the account's credentials come from (what the user fixes when they are refused).
    pub account: super::orgs::AccountSource,
    /// Pictures of inline images: fetched, failed, decoded.
    pub images: super::images::Images,
    /// The notifications shown lately and those held back for a burst's summary.
    pub notices: super::burst::Burst,
}

/// How the message pane shows a message's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// A muted sender's message the user has not chosen to see: nothing of it.
    Hidden,
    /// Its content, its spoilers open or closed (`z` opens and closes them all).
    Body { spoilers_open: bool },
}

impl State {
    /// How message `m` shows: the one answer the message pane draws by and `o`, `Y` and `I`
    /// number by, so that a number on screen is the link it opens and nothing out of sight
    /// (a closed spoiler, a muted sender's message) gets one.
    pub fn shown(&self, m: &super::store::Stored) -> Shown {
        if self.data.users.is_muted(m.sender_id()) && !self.ui.revealed.contains(&m.id) {
            return Shown::Hidden;
        }
        Shown::Body { spoilers_open: self.ui.open_spoilers.contains(&(m.id, 0)) }
    }
}

/// What the client holds, as JSON: the IDs of the messages held, loaded windows with the terms
/// that select them on the server, unread messages, the outbox, the connection. Compared with the server's truth by the chaos
/// test; attached to bug reports.
pub fn state_dump(st: &State) -> serde_json::Value {
    use serde_json::json;
    let me = st.data.me;
    let mut narrows: Vec<serde_json::Value> = st
        .data
        .views
        .iter()
        .map(|(n, v)| {
            let mut terms = n.terms(me);
            // The combined feed leaves muted topics out.
            if *n == Narrow::All {
                terms.push(NarrowTerm::new("is", "muted").negate());
            }
            json!({
                "narrow": format!("{n:?}"),
                "terms": terms,
                "ids": v.ids(),
                "found_newest": v.found_newest(),
                "found_oldest": v.found_oldest(),
                "loading": v.is_loading_newer() || v.is_loading_older(),
                "loaded": v.is_loaded(),
                "provisional": v.is_provisional(),
                "asked_again_at": v.catch_up_at(),
            })
        })
        .collect();
    narrows.sort_by_key(|n| n["narrow"].to_string());
    let mut unread: Vec<MessageId> = st.data.unread.ids().collect();
    unread.sort_unstable();
    let mut held: Vec<MessageId> = st.data.messages.keys().copied().collect();
    held.sort_unstable();
    let outbox: Vec<serde_json::Value> = st
        .outbox
        .iter()
        .map(|o| json!({"local_id": o.local_id, "content": o.content, "state": format!("{:?}", o.state)}))
        .collect();
    json!({
        "me": me,
        "now": st.now,
        "queue_id": st.data.queue_id(),
        "last_event_id": st.data.last_event_id(),
        "offline": st.ui.conn.offline().map(|o| o.why.clone()),
        "messages": st.data.messages.len(),
        "held": held,
        "narrows": narrows,
        "unread": unread,
        "outbox": outbox,
        "drafts": st.drafts.len(),
        "archive_checked": st.ui.backfill.checked().map(|c| format!("{c:?}")),
    })
}

/// What the other organizations show of `st`, its account named `name` (`chosen` by the user,
/// else the server's address): the organization's own name and who the user is there too
/// (`Orgs::label`). Costs the channels and topics with unread messages: worked out when the
/// organization changed, not per frame.
pub fn org_row(name: &str, chosen: bool, st: &State) -> super::orgs::OrgRow {
    let me = st.data.users.get(st.data.me).map(|u| u.full_name.clone()).unwrap_or_default();
    super::orgs::OrgRow {
        name: name.to_owned(),
        user: me,
        realm: st.data.realm.name.clone(),
        chosen,
        unread: st.data.unread_total(),
        mentions: st.data.unread.mentions(),
        offline: st.ui.conn.is_offline(),
        closed: st.ui.conn.fatal().map(str::to_owned),
    }
}
