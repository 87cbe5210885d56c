//! The palette's table: each command's name, arguments and what it does ([`COMMANDS`], which
//! completion, `:help` and the usage lines read), and the arguments as a server of a given feature
//! level takes them. Knows nothing of parsing a line. Start at [`COMMANDS`].

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

pub(super) fn usage(name: &str, feature_level: i64) -> String {
    format!("usage: :{name} {}", args(name, feature_level))
}
