//! The command palette (`:`): every operation, including those without a natural key.

use super::narrow::tokens;

/// A parsed palette command (names are resolved to IDs by `update`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Scheduled,
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
    /// The user's uploaded files.
    Uploads,
    /// The user's saved snippets.
    Snippets,
    /// Unread conversations by channel, then direct messages.
    Inbox,
}

/// (name, arguments, what it does) — completion and `:help` come from this table.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("scheduled", "", "list scheduled messages (e edit, d delete)"),
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

/// Parse a palette line (without the leading `:`) for a server of `feature_level`.
pub fn parse(line: &str, feature_level: i64) -> Result<Command, String> {
    let toks = tokens(line);
    let Some((name, args)) = toks.split_first() else { return Err("type a command; tab completes".into()) };
    let rest = || args.join(" ");
    let usage = |name: &str| usage(name, feature_level);
    let need = |n: usize| if args.len() < n { Err(usage(name)) } else { Ok(()) };
    let channel_and_rest = |args: &[String]| -> (Option<String>, Vec<String>) {
        match args.split_first() {
            Some((first, rest)) if first.starts_with('#') => {
                (Some(first.trim_start_matches('#').to_owned()), rest.to_vec())
            }
            _ => (None, args.to_vec()),
        }
    };
    Ok(match name.as_str() {
        "scheduled" => Command::Scheduled,
        "dump-state" => Command::DumpState(args.first().cloned()),
        "status" if args.is_empty() => return Err(usage(name)),
        "status" if rest() == "clear" => Command::Status(None),
        "status" => Command::Status(Some(rest())),
        "mute" => Command::Mute,
        "unmute" => Command::Unmute,
        "follow" => Command::Follow,
        "unsubscribe" => {
            let (channel, users) = channel_and_rest(args);
            Command::Unsubscribe { channel, users }
        }
        "deactivate" => {
            let (flags, words): (Vec<String>, Vec<String>) =
                args.iter().cloned().partition(|a| a.starts_with("--"));
            if words.is_empty() {
                return Err(usage(name));
            }
            for f in &flags {
                if !matches!(
                    f.as_str(),
                    "--delete-profile" | "--delete-public" | "--delete-private" | "--delete-dms"
                ) {
                    return Err(format!("unknown flag {f}; {}", usage(name)));
                }
            }
            Command::Deactivate { user: words.join(" "), actions: flags }
        }
        "date" => {
            need(1)?;
            Command::Date(rest())
        }
        "group-add" | "group-remove" | "subgroup-add" | "subgroup-remove" => {
            need(2)?;
            Command::Group {
                group: args[0].clone(),
                add: name.ends_with("-add"),
                subgroups: name.starts_with("subgroup"),
                names: args[1..].to_vec(),
            }
        }
        "view-pin" | "view-hide" => {
            need(1)?;
            Command::View { fragment: args[0].clone(), pinned: Some(name == "view-pin"), name: None }
        }
        "view-rename" => {
            need(2)?;
            Command::View { fragment: args[0].clone(), pinned: None, name: Some(args[1..].join(" ")) }
        }
        "playground" => {
            need(3)?;
            Command::Playground {
                name: args[0].clone(),
                language: args[1].clone(),
                template: args[2].clone(),
            }
        }
        "channel-email" => {
            let (channel, rest) = channel_and_rest(args);
            Command::ChannelEmail { channel, sender: (!rest.is_empty()).then(|| rest.join(" ")) }
        }
        "apns" => {
            need(1)?;
            if args.len() < 2 && feature_level >= APNS_APPID_REQUIRED {
                return Err(format!("this server needs the app ID too; {}", usage(name)));
            }
            Command::Apns { token: args[0].clone(), appid: args.get(1).cloned() }
        }
        "report" => {
            need(1)?;
            let desc = args[1..].join(" ");
            Command::Report { report_type: args[0].clone(), description: (!desc.is_empty()).then_some(desc) }
        }
        "delete" => Command::Delete,
        "rename-topic" => {
            let mut mode = "change_all";
            let mut words = Vec::new();
            for a in args {
                match a.as_str() {
                    "--one" => mode = "change_one",
                    "--later" => mode = "change_later",
                    "--all" => mode = "change_all",
                    _ => words.push(a.as_str()),
                }
            }
            if words.is_empty() {
                return Err(usage(name));
            }
            Command::MoveTopic { channel: None, topic: Some(words.join(" ")), mode }
        }
        "move-topic" => {
            need(1)?;
            let channel = args[0].trim_start_matches('#').to_owned();
            let topic = (args.len() > 1).then(|| args[1..].join(" "));
            Command::MoveTopic { channel: Some(channel), topic, mode: "change_all" }
        }
        "resolve" => Command::Resolve(true),
        "unresolve" => Command::Resolve(false),
        "mark-unread" => Command::MarkUnread,
        "delete-topic" => Command::DeleteTopic,
        "poll-option" | "todo-add" => {
            need(1)?;
            Command::AddItem { poll: name == "poll-option", text: rest() }
        }
        "mark-read" => match args.first().map(String::as_str) {
            None | Some("topic") => Command::MarkRead(None),
            Some("channel") => Command::MarkRead(Some(false)),
            Some("all") => Command::MarkRead(Some(true)),
            _ => return Err(usage(name)),
        },
        "mute-user" | "unmute-user" => {
            need(1)?;
            Command::MuteUser { user: args.join(" "), mute: name == "mute-user" }
        }
        "alert-words" => match args.split_first() {
            None => Command::AlertWords(None),
            Some((op, words)) if (op == "add" || op == "remove") && !words.is_empty() => {
                Command::AlertWords(Some((op == "add", words.to_vec())))
            }
            _ => return Err(usage(name)),
        },
        "channels" => Command::Channels,
        "recent" => Command::Recent,
        "attach" => {
            need(1)?;
            Command::Attach(rest())
        }
        "subscribe" => {
            need(1)?;
            Command::Subscribe(rest().trim_start_matches('#').to_owned())
        }
        "channel-info" => {
            let named = rest();
            Command::ChannelInfo((!named.is_empty()).then(|| named.trim_start_matches('#').to_owned()))
        }
        "profile" => {
            let named = rest();
            Command::Profile(
                (!named.is_empty()).then(|| named.trim_start_matches('@').trim_matches('*').to_owned()),
            )
        }
        "create-channel" => {
            let mut private = false;
            let (mut words, mut description) = (Vec::new(), Vec::new());
            let mut in_description = false;
            for a in args {
                match a.as_str() {
                    "--private" => private = true,
                    "--description" => in_description = true,
                    f if f.starts_with("--") => return Err(format!("unknown flag {f}; {}", usage(name))),
                    w if in_description => description.push(w),
                    w => words.push(w),
                }
            }
            if words.is_empty() {
                return Err(usage(name));
            }
            Command::CreateChannel {
                name: words.join(" ").trim_start_matches('#').to_owned(),
                private,
                description: description.join(" "),
            }
        }
        "invite" => {
            // Addresses (commas allowed), then `#channel`s — a channel's name runs on to the
            // next `#` or address, so names with spaces need no quotes.
            let (mut emails, mut channels): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
            for word in args.iter().flat_map(|a| a.split(',')).map(str::trim).filter(|w| !w.is_empty()) {
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
                return Err(usage(name));
            }
            if let Some(bad) = emails.iter().find(|e| !e.contains('@')) {
                return Err(format!("{bad:?} is not an email address; {}", usage(name)));
            }
            Command::Invite { emails, channels }
        }
        "help" => Command::Help,
        "quit" | "q" => Command::Quit,
        "remind" => {
            need(1)?;
            Command::Remind(args.to_vec())
        }
        "reminders" => Command::Reminders,
        "uploads" => Command::Uploads,
        "snippets" => Command::Snippets,
        "inbox" => Command::Inbox,
        other => {
            let close = complete(other);
            return Err(if close.is_empty() {
                format!("no command {other:?}")
            } else {
                format!("no command {other:?}; did you mean {}?", close.join(", "))
            });
        }
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
