//! The command palette (`:`): every operation, including those without a natural key.

use super::narrow::tokens;

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

/// (name, arguments, what it does) — completion and `:help` come from this table.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("scheduled", "", "list scheduled messages (e edit, d delete)"),
    (
        "drafts",
        "",
        "your drafts, this machine's and the server's: enter opens one in the compose box, d deletes",
    ),
    ("status", "[:emoji:] TEXT | clear", "set or clear your status (text and emoji)"),
    ("date", "YYYY-MM-DD[ HH:MM]", "jump to the first message on or after a date"),
    ("mute", "", "mute the selected topic"),
    ("unmute", "", "unmute the selected topic"),
    ("follow", "", "follow the selected topic"),
    ("unsubscribe", "[#channel] [user …]", "unsubscribe yourself or others"),
    (
        "deactivate",
        "USER [--delete-profile] [--delete-public] [--delete-private] [--delete-dms]",
        "deactivate a user and their bots (administrators; asks to confirm)",
    ),
    ("group-add", "GROUP USER …", "add members to a user group"),
    ("group-remove", "GROUP USER …", "remove members from a user group"),
    ("subgroup-add", "GROUP SUBGROUP …", "add subgroups to a user group"),
    ("subgroup-remove", "GROUP SUBGROUP …", "remove subgroups from a user group"),
    ("view-pin", "FRAGMENT", "pin a navigation view"),
    ("view-hide", "FRAGMENT", "hide a navigation view"),
    ("view-rename", "FRAGMENT NAME", "rename a custom navigation view"),
    ("playground", "NAME LANGUAGE URL_TEMPLATE", "add a code playground ({code} in the template)"),
    ("channel-email", "[#channel] [sender]", "show a channel's email address"),
    ("apns", "TOKEN APPID", "register an APNs device token for an iOS app (its bundle ID)"),
    ("report", "TYPE [description]", "report the selected message to moderators"),
    (
        "rename-topic",
        "NEW [--one|--later|--all]",
        "rename the selected message's topic (all of it unless --one or --later)",
    ),
    ("move-topic", "#channel [NEW]", "move the selected message's topic to another channel (and rename it)"),
    ("resolve", "", "mark the selected message's topic resolved (✔)"),
    ("unresolve", "", "mark the selected message's topic unresolved"),
    ("delete", "", "delete the selected message (yours, or any as an administrator; asks first)"),
    ("hide-previews", "", "hide the link previews of the selected message (for you; Zulip 13.0)"),
    ("show-previews", "", "show the selected message's link previews again"),
    (
        "delete-topic",
        "",
        "delete the selected topic and all its messages, for everyone (administrators; asks first, naming how many)",
    ),
    ("poll-option", "TEXT", "add an option to the selected message's poll"),
    ("todo-add", "TEXT", "add a task to the selected message's to-do list"),
    (
        "mark-unread",
        "",
        "the selected message and every later one of the view become unread (reading resumes when you move)",
    ),
    ("mark-read", "[channel|all]", "mark the selected topic, its channel, or everything as read"),
    ("mute-user", "USER", "hide a user's messages behind a muted-sender line; no notifications"),
    ("unmute-user", "USER", "show a muted user's messages again"),
    (
        "alert-words",
        "[add|remove WORD …]",
        "list your alert words, or add or remove some (\"a phrase\" in quotes)",
    ),
    ("dump-state", "[PATH]", "write what the client holds to a JSON file (for bug reports)"),
    (
        "channels",
        "",
        "browse every channel you can see: type to filter, ↑/↓ move, enter opens, ctrl+s joins or leaves, ctrl+o info",
    ),
    ("subscribe", "#channel", "join a channel"),
    (
        "attach",
        "PATH",
        "upload a file and link it where the cursor is (the compose box opens for the selected message's conversation)",
    ),
    ("recent", "", "recent conversations across channels and DMs: unread, who wrote, when; enter opens"),
    (
        "channel-info",
        "[#channel]",
        "a channel's description, subscribers, folder, who may post, email; m mute, p pin, d / a desktop / audible notifications, s join or leave",
    ),
    (
        "channel-push-default",
        "on|off [#channel]",
        "whether new subscribers get mobile notifications for a channel (administrators; Zulip 13.0)",
    ),
    ("profile", "[@user]", "a user's profile (default: the selected message's sender); x DM, @ mention"),
    (
        "create-channel",
        "NAME [--private] [--description TEXT]",
        "create a channel and join it (\"a name\" in quotes, or the words before the flags)",
    ),
    (
        "invite",
        "EMAIL… [#channel…]",
        "invite people by email, into the channels named (none: the organization's default channels)",
    ),
    (
        "remind",
        "WHEN [NOTE]",
        "remind you of the selected message at WHEN (in 2h, tomorrow 9:00, 17:30, 2026-11-25 15:00), with a note",
    ),
    ("reminders", "", "your reminders by time: which message, the note; d deletes"),
    (
        "settings",
        "",
        "your Zulip settings (notifications, read marking, display) and where each comes from; enter changes one on the server",
    ),
    ("uploads", "", "your uploaded files: size, date, where used, the total; d deletes, enter or o opens"),
    (
        "snippets",
        "",
        "your saved snippets: enter inserts one (in the compose box, or a new one for the selected conversation), a saves the compose text as one, d deletes, / filters",
    ),
    ("help", "", "show the keys"),
    ("quit", "", "quit"),
    (
        "inbox",
        "",
        "unread conversations by channel (newest topic first), then DMs; enter opens, space collapses a channel",
    ),
    (
        "forget",
        "",
        "remove this account's archive (topicterm search), last session, drafts and unsent messages from this machine; asks first",
    ),
    (
        "archive",
        "[#channel… | all | stop]",
        "fetch the older history of channels (or of everything) into the archive on this machine, in the background; stop ends it, :archive alone resumes it where it stopped",
    ),
];

/// Commands starting with what was typed.
pub fn complete(prefix: &str) -> Vec<&'static str> {
    let p = prefix.trim_start();
    COMMANDS.iter().map(|(n, _, _)| *n).filter(|n| n.starts_with(p)).collect()
}

/// The feature level from which `:apns` needs the app ID (older servers defaulted it).
pub const APNS_APPID_REQUIRED: i64 = 223;

/// A command's arguments as the server of `feature_level` takes them.
pub fn args(name: &str, feature_level: i64) -> &'static str {
    match name {
        "apns" if feature_level < APNS_APPID_REQUIRED => "TOKEN [APPID]",
        _ => COMMANDS.iter().find(|(n, _, _)| *n == name).map_or("", |(_, a, _)| *a),
    }
}

fn usage(name: &str, feature_level: i64) -> String {
    format!("usage: :{name} {}", args(name, feature_level))
}

/// A typed command: its name and arguments, and the server's level, for the parsers below.
struct Typed<'a> {
    name: &'a str,
    args: &'a [String],
    feature_level: i64,
}

impl Typed<'_> {
    /// The arguments as one line.
    fn rest(&self) -> String {
        self.args.join(" ")
    }

    /// The command's usage line, as the server of this level takes it.
    fn usage(&self) -> String {
        usage(self.name, self.feature_level)
    }

    /// At least `n` arguments, or the usage line.
    fn need(&self, n: usize) -> Result<(), String> {
        if self.args.len() < n { Err(self.usage()) } else { Ok(()) }
    }

    /// A leading `#channel` (without its `#`), and the arguments after it.
    fn channel_and_rest(&self) -> (Option<String>, Vec<String>) {
        match self.args.split_first() {
            Some((first, rest)) if first.starts_with('#') => {
                (Some(first.trim_start_matches('#').to_owned()), rest.to_vec())
            }
            _ => (None, self.args.to_vec()),
        }
    }
}

/// Parse a palette line (without the leading `:`) for a server of `feature_level`.
pub fn parse(line: &str, feature_level: i64) -> Result<Command, String> {
    let toks = tokens(line);
    let Some((name, args)) = toks.split_first() else { return Err("type a command; tab completes".into()) };
    let t = Typed { name, args, feature_level };
    match name.as_str() {
        "scheduled" => Ok(Command::Scheduled),
        "drafts" => Ok(Command::Drafts),
        "dump-state" => Ok(Command::DumpState(args.first().cloned())),
        "status" => status(&t),
        "mute" => Ok(Command::Mute),
        "unmute" => Ok(Command::Unmute),
        "follow" => Ok(Command::Follow),
        "unsubscribe" => Ok(unsubscribe(&t)),
        "deactivate" => deactivate(&t),
        "date" => t.need(1).map(|()| Command::Date(t.rest())),
        "group-add" | "group-remove" | "subgroup-add" | "subgroup-remove" => group(&t),
        "view-pin" | "view-hide" => view_pin(&t),
        "view-rename" => view_rename(&t),
        "playground" => playground(&t),
        "channel-email" => Ok(channel_email(&t)),
        "apns" => apns(&t),
        "report" => report(&t),
        "delete" => Ok(Command::Delete),
        "hide-previews" => Ok(Command::HidePreviews(true)),
        "show-previews" => Ok(Command::HidePreviews(false)),
        "rename-topic" => rename_topic(&t),
        "move-topic" => move_topic(&t),
        "resolve" => Ok(Command::Resolve(true)),
        "unresolve" => Ok(Command::Resolve(false)),
        "mark-unread" => Ok(Command::MarkUnread),
        "delete-topic" => Ok(Command::DeleteTopic),
        "poll-option" | "todo-add" => add_item(&t),
        "mark-read" => mark_read(&t),
        "mute-user" | "unmute-user" => mute_user(&t),
        "alert-words" => alert_words(&t),
        "channels" => Ok(Command::Channels),
        "recent" => Ok(Command::Recent),
        "attach" => t.need(1).map(|()| Command::Attach(t.rest())),
        "subscribe" => t.need(1).map(|()| Command::Subscribe(t.rest().trim_start_matches('#').to_owned())),
        "channel-info" => Ok(channel_info(&t)),
        "channel-push-default" => push_default(&t),
        "profile" => Ok(profile(&t)),
        "create-channel" => create_channel(&t),
        "invite" => invite(&t),
        "help" => Ok(Command::Help),
        "quit" | "q" => Ok(Command::Quit),
        "remind" => t.need(1).map(|()| Command::Remind(args.to_vec())),
        "reminders" => Ok(Command::Reminders),
        "settings" => Ok(Command::Settings),
        "uploads" => Ok(Command::Uploads),
        "snippets" => Ok(Command::Snippets),
        "inbox" => Ok(Command::Inbox),
        "forget" => Ok(Command::Forget),
        "archive" => archive(&t),
        other => Err(unknown(other)),
    }
}

/// What to say for a name that is no command: the commands it starts, if any.
fn unknown(other: &str) -> String {
    let close = complete(other);
    if close.is_empty() {
        format!("no command {other:?}")
    } else {
        format!("no command {other:?}; did you mean {}?", close.join(", "))
    }
}

// The user's own settings.

/// `:status TEXT | clear`.
fn status(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    match t.rest() {
        r if r == "clear" => Ok(Command::Status(None)),
        r => Ok(Command::Status(Some(r))),
    }
}

/// `:alert-words [add|remove WORD …]`.
fn alert_words(t: &Typed) -> Result<Command, String> {
    match t.args.split_first() {
        None => Ok(Command::AlertWords(None)),
        Some((op, words)) if (op == "add" || op == "remove") && !words.is_empty() => {
            Ok(Command::AlertWords(Some((op == "add", words.to_vec()))))
        }
        _ => Err(t.usage()),
    }
}

/// `:apns TOKEN APPID` (the app ID optional on servers before `APNS_APPID_REQUIRED`).
fn apns(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    if t.args.len() < 2 && t.feature_level >= APNS_APPID_REQUIRED {
        return Err(format!("this server needs the app ID too; {}", t.usage()));
    }
    Ok(Command::Apns { token: t.args[0].clone(), appid: t.args.get(1).cloned() })
}

// Messages and topics.

/// `:report TYPE [description]`.
fn report(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    let desc = t.args[1..].join(" ");
    Ok(Command::Report { report_type: t.args[0].clone(), description: (!desc.is_empty()).then_some(desc) })
}

/// `:rename-topic NEW [--one|--later|--all]`.
fn rename_topic(t: &Typed) -> Result<Command, String> {
    let mut mode = "change_all";
    let mut words = Vec::new();
    for a in t.args {
        match a.as_str() {
            "--one" => mode = "change_one",
            "--later" => mode = "change_later",
            "--all" => mode = "change_all",
            _ => words.push(a.as_str()),
        }
    }
    if words.is_empty() {
        return Err(t.usage());
    }
    Ok(Command::MoveTopic { channel: None, topic: Some(words.join(" ")), mode })
}

/// `:move-topic #channel [NEW]`.
fn move_topic(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    let channel = t.args[0].trim_start_matches('#').to_owned();
    let topic = (t.args.len() > 1).then(|| t.args[1..].join(" "));
    Ok(Command::MoveTopic { channel: Some(channel), topic, mode: "change_all" })
}

/// `:poll-option TEXT` and `:todo-add TEXT`.
fn add_item(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    Ok(Command::AddItem { poll: t.name == "poll-option", text: t.rest() })
}

/// `:mark-read [topic|channel|all]`.
fn mark_read(t: &Typed) -> Result<Command, String> {
    match t.args.first().map(String::as_str) {
        None | Some("topic") => Ok(Command::MarkRead(None)),
        Some("channel") => Ok(Command::MarkRead(Some(false))),
        Some("all") => Ok(Command::MarkRead(Some(true))),
        _ => Err(t.usage()),
    }
}

// Channels.

/// `:unsubscribe [#channel] [user …]`.
fn unsubscribe(t: &Typed) -> Command {
    let (channel, users) = t.channel_and_rest();
    Command::Unsubscribe { channel, users }
}

/// `:channel-email [#channel] [sender]`.
fn channel_email(t: &Typed) -> Command {
    let (channel, rest) = t.channel_and_rest();
    Command::ChannelEmail { channel, sender: (!rest.is_empty()).then(|| rest.join(" ")) }
}

/// `:channel-info [#channel]`.
/// `:channel-push-default on|off [#channel]`.
fn push_default(t: &Typed) -> Result<Command, String> {
    let usage = "usage: channel-push-default on|off [#channel]";
    let on = match t.args.first().map(String::as_str) {
        Some("on") => true,
        Some("off") => false,
        _ => return Err(usage.into()),
    };
    let named = t.args[1..].join(" ");
    let channel = (!named.is_empty()).then(|| named.trim_start_matches('#').to_owned());
    Ok(Command::PushDefault { on, channel })
}

fn channel_info(t: &Typed) -> Command {
    let named = t.rest();
    Command::ChannelInfo((!named.is_empty()).then(|| named.trim_start_matches('#').to_owned()))
}

/// `:create-channel NAME [--private] [--description TEXT]`.
fn create_channel(t: &Typed) -> Result<Command, String> {
    let mut private = false;
    let (mut words, mut description) = (Vec::new(), Vec::new());
    let mut in_description = false;
    for a in t.args {
        match a.as_str() {
            "--private" => private = true,
            "--description" => in_description = true,
            f if f.starts_with("--") => return Err(format!("unknown flag {f}; {}", t.usage())),
            w if in_description => description.push(w),
            w => words.push(w),
        }
    }
    if words.is_empty() {
        return Err(t.usage());
    }
    Ok(Command::CreateChannel {
        name: words.join(" ").trim_start_matches('#').to_owned(),
        private,
        description: description.join(" "),
    })
}

// People, groups and the organization's lists.

/// `:deactivate USER [--delete-…]`.
fn deactivate(t: &Typed) -> Result<Command, String> {
    let (flags, words): (Vec<String>, Vec<String>) =
        t.args.iter().cloned().partition(|a| a.starts_with("--"));
    if words.is_empty() {
        return Err(t.usage());
    }
    for f in &flags {
        if !matches!(f.as_str(), "--delete-profile" | "--delete-public" | "--delete-private" | "--delete-dms")
        {
            return Err(format!("unknown flag {f}; {}", t.usage()));
        }
    }
    Ok(Command::Deactivate { user: words.join(" "), actions: flags })
}

/// `:group-add`, `:group-remove`, `:subgroup-add`, `:subgroup-remove GROUP NAME …`.
fn group(t: &Typed) -> Result<Command, String> {
    t.need(2)?;
    Ok(Command::Group {
        group: t.args[0].clone(),
        add: t.name.ends_with("-add"),
        subgroups: t.name.starts_with("subgroup"),
        names: t.args[1..].to_vec(),
    })
}

/// `:mute-user USER` and `:unmute-user USER`.
fn mute_user(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    Ok(Command::MuteUser { user: t.rest(), mute: t.name == "mute-user" })
}

/// `:profile [@user]`.
fn profile(t: &Typed) -> Command {
    let named = t.rest();
    Command::Profile((!named.is_empty()).then(|| named.trim_start_matches('@').trim_matches('*').to_owned()))
}

/// `:invite EMAIL… [#channel…]`.
fn invite(t: &Typed) -> Result<Command, String> {
    // Addresses (commas allowed), then `#channel`s — a channel's name runs on to the
    // next `#` or address, so names with spaces need no quotes.
    let (mut emails, mut channels): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for word in t.args.iter().flat_map(|a| a.split(',')).map(str::trim).filter(|w| !w.is_empty()) {
        match (word.strip_prefix('#'), channels.last_mut()) {
            (Some(c), _) => channels.push(c.to_owned()),
            (None, Some(c)) if !word.contains('@') => {
                c.push(' ');
                c.push_str(word);
            }
            _ => emails.push(word.to_owned()),
        }
    }
    if emails.is_empty() {
        return Err(t.usage());
    }
    if let Some(bad) = emails.iter().find(|e| !e.contains('@')) {
        return Err(format!("{bad:?} is not an email address; {}", t.usage()));
    }
    Ok(Command::Invite { emails, channels })
}

/// `:archive #channel…`, `:archive all`, `:archive stop`, `:archive` (resume) — a channel's name runs on to the
/// next `#`, so names with spaces need no quotes.
fn archive(t: &Typed) -> Result<Command, String> {
    match t.args {
        [] => return Ok(Command::Archive(Backfill::Resume)),
        [one] if one == "all" => return Ok(Command::Archive(Backfill::All)),
        [one] if one == "stop" => return Ok(Command::Archive(Backfill::Stop)),
        [first, ..] if first.starts_with('#') => {}
        _ => return Err(t.usage()),
    }
    let mut channels: Vec<String> = Vec::new();
    for word in t.args {
        match (word.strip_prefix('#'), channels.last_mut()) {
            (Some(c), _) => channels.push(c.to_owned()),
            (None, Some(c)) => {
                c.push(' ');
                c.push_str(word);
            }
            (None, None) => return Err(t.usage()),
        }
    }
    if channels.iter().any(String::is_empty) {
        return Err(t.usage());
    }
    Ok(Command::Archive(Backfill::Channels(channels)))
}

/// `:view-pin FRAGMENT` and `:view-hide FRAGMENT`.
fn view_pin(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    Ok(Command::View { fragment: t.args[0].clone(), pinned: Some(t.name == "view-pin"), name: None })
}

/// `:view-rename FRAGMENT NAME`.
fn view_rename(t: &Typed) -> Result<Command, String> {
    t.need(2)?;
    Ok(Command::View { fragment: t.args[0].clone(), pinned: None, name: Some(t.args[1..].join(" ")) })
}

/// `:playground NAME LANGUAGE URL_TEMPLATE`.
fn playground(t: &Typed) -> Result<Command, String> {
    t.need(3)?;
    Ok(Command::Playground {
        name: t.args[0].clone(),
        language: t.args[1].clone(),
        template: t.args[2].clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command_shape() {
        assert_eq!(parse("status In a meeting", 496), Ok(Command::Status(Some("In a meeting".into()))));
        assert_eq!(parse("status clear", 496), Ok(Command::Status(None)));
        assert_eq!(
            parse("unsubscribe #design bob alice@x", 496),
            Ok(Command::Unsubscribe {
                channel: Some("design".into()),
                users: vec!["bob".into(), "alice@x".into()]
            })
        );
        assert_eq!(parse("unsubscribe", 496), Ok(Command::Unsubscribe { channel: None, users: vec![] }));
        assert_eq!(
            parse(r#"group-add backend "Bob Nakamura""#, 496),
            Ok(Command::Group {
                group: "backend".into(),
                add: true,
                subgroups: false,
                names: vec!["Bob Nakamura".into()]
            })
        );
        assert_eq!(
            parse("subgroup-remove engineers frontend", 496),
            Ok(Command::Group {
                group: "engineers".into(),
                add: false,
                subgroups: true,
                names: vec!["frontend".into()]
            })
        );
        assert_eq!(
            parse("view-rename narrow/channel/9 My view", 496),
            Ok(Command::View {
                fragment: "narrow/channel/9".into(),
                pinned: None,
                name: Some("My view".into())
            })
        );
        assert_eq!(
            parse("report other it is rude", 496),
            Ok(Command::Report { report_type: "other".into(), description: Some("it is rude".into()) })
        );
    }

    #[test]
    fn errors_say_what_to_type() {
        assert!(parse("deactivate", 496).unwrap_err().contains("usage: :deactivate USER"));
        assert!(parse("deactivate bob --delete-all", 496).unwrap_err().contains("unknown flag"));
        assert_eq!(
            parse("deactivate Bob Nakamura --delete-dms", 496),
            Ok(Command::Deactivate { user: "Bob Nakamura".into(), actions: vec!["--delete-dms".into()] })
        );
        assert!(parse("playground a b", 496).unwrap_err().contains("URL_TEMPLATE"));
        assert!(parse("grup-add x y", 496).unwrap_err().contains("no command"));
        assert!(parse("group", 496).unwrap_err().contains("did you mean group-add, group-remove"));
        assert!(parse("", 496).is_err());
    }

    #[test]
    fn apns_needs_the_app_id_from_level_223() {
        let err = parse("apns 0a1b", 496).unwrap_err();
        assert!(err.contains("needs the app ID") && err.contains("usage: :apns TOKEN APPID"), "{err}");
        assert_eq!(
            parse("apns 0a1b org.example", 223),
            Ok(Command::Apns { token: "0a1b".into(), appid: Some("org.example".into()) })
        );
        assert_eq!(parse("apns 0a1b", 222), Ok(Command::Apns { token: "0a1b".into(), appid: None }));
        assert_eq!(parse("apns", 222).unwrap_err(), "usage: :apns TOKEN [APPID]");
        assert_eq!(args("apns", 496), "TOKEN APPID");
    }

    #[test]
    fn muted_users_and_alert_words() {
        assert_eq!(
            parse("mute-user Bob Nakamura", 496),
            Ok(Command::MuteUser { user: "Bob Nakamura".into(), mute: true })
        );
        assert_eq!(parse("unmute-user bob", 496), Ok(Command::MuteUser { user: "bob".into(), mute: false }));
        assert_eq!(parse("mute-user", 496).unwrap_err(), "usage: :mute-user USER");
        assert_eq!(parse("alert-words", 496), Ok(Command::AlertWords(None)));
        assert_eq!(parse("mark-read", 496), Ok(Command::MarkRead(None)));
        assert_eq!(
            parse("rename-topic release 2.5 --later", 496),
            Ok(Command::MoveTopic { channel: None, topic: Some("release 2.5".into()), mode: "change_later" })
        );
        assert_eq!(
            parse("move-topic #design new name", 496),
            Ok(Command::MoveTopic {
                channel: Some("design".into()),
                topic: Some("new name".into()),
                mode: "change_all"
            })
        );
        assert_eq!(
            parse("rename-topic --one", 496).unwrap_err(),
            "usage: :rename-topic NEW [--one|--later|--all]"
        );
        assert_eq!(parse("mark-read all", 496), Ok(Command::MarkRead(Some(true))));
        assert_eq!(parse("mark-read everything", 496).unwrap_err(), "usage: :mark-read [channel|all]");
        assert_eq!(
            parse(r#"alert-words add deploy "on call""#, 496),
            Ok(Command::AlertWords(Some((true, vec!["deploy".into(), "on call".into()]))))
        );
        assert!(parse("alert-words add", 496).unwrap_err().starts_with("usage: :alert-words"));
    }

    #[test]
    fn channel_and_people_commands() {
        assert_eq!(parse("channels", 496), Ok(Command::Channels));
        assert_eq!(parse("subscribe #book club", 496), Ok(Command::Subscribe("book club".into())));
        assert_eq!(
            parse("invite a@x.org,b@x.org c@x.org #night shift #general", 496),
            Ok(Command::Invite {
                emails: vec!["a@x.org".into(), "b@x.org".into(), "c@x.org".into()],
                channels: vec!["night shift".into(), "general".into()],
            })
        );
        assert_eq!(
            parse("create-channel \"night shift\" --private --description On **call**", 496),
            Ok(Command::CreateChannel {
                name: "night shift".into(),
                private: true,
                description: "On **call**".into()
            })
        );
        assert_eq!(
            parse("create-channel night shift --loud", 496),
            Err("unknown flag --loud; usage: :create-channel NAME [--private] [--description TEXT]".into())
        );
        assert!(parse("subscribe", 496).unwrap_err().contains("usage: :subscribe #channel"));
        assert_eq!(parse("channel-info", 496), Ok(Command::ChannelInfo(None)));
        assert_eq!(
            parse("channel-push-default on #design team", 496),
            Ok(Command::PushDefault { on: true, channel: Some("design team".into()) })
        );
        assert_eq!(
            parse("channel-push-default off", 496),
            Ok(Command::PushDefault { on: false, channel: None })
        );
        assert!(
            parse("channel-push-default", 496).is_err() && parse("channel-push-default yes", 496).is_err()
        );
        assert_eq!(parse("channel-info #design", 496), Ok(Command::ChannelInfo(Some("design".into()))));
        assert_eq!(
            parse("profile @**Bob Nakamura**", 496),
            Ok(Command::Profile(Some("Bob Nakamura".into())))
        );
        assert_eq!(parse("profile", 496), Ok(Command::Profile(None)));
    }

    #[test]
    fn snippets_take_no_arguments() {
        assert_eq!(parse("snippets", 496), Ok(Command::Snippets));
        assert_eq!(parse("forget", 496), Ok(Command::Forget));
        let channels = |names: &[&str]| {
            Ok(Command::Archive(Backfill::Channels(names.iter().map(|n| (*n).to_owned()).collect())))
        };
        assert_eq!(parse("archive #general #design team", 496), channels(&["general", "design team"]));
        assert_eq!(parse("archive all", 496), Ok(Command::Archive(Backfill::All)));
        assert_eq!(parse("archive stop", 496), Ok(Command::Archive(Backfill::Stop)));
        assert_eq!(parse("archive", 496), Ok(Command::Archive(Backfill::Resume)));
        for bad in ["archive general", "archive all #general", "archive #"] {
            assert_eq!(parse(bad, 496), Err("usage: :archive [#channel… | all | stop]".into()), "{bad}");
        }
        assert_eq!(complete("sn"), vec!["snippets"]);
    }

    #[test]
    fn completion_follows_the_table() {
        assert_eq!(complete("view"), vec!["view-pin", "view-hide", "view-rename"]);
        assert_eq!(complete("sch"), vec!["scheduled"]);
    }

    #[test]
    fn reminders_and_uploads() {
        assert_eq!(
            parse("remind tomorrow 9:00 call Bob", 496),
            Ok(Command::Remind(["tomorrow", "9:00", "call", "Bob"].map(String::from).to_vec()))
        );
        assert_eq!(parse("remind", 496).unwrap_err(), "usage: :remind WHEN [NOTE]");
        assert_eq!(parse("reminders", 496), Ok(Command::Reminders));
        assert_eq!(parse("uploads", 496), Ok(Command::Uploads));
        assert_eq!(complete("remi"), vec!["remind", "reminders"]);
    }
}
