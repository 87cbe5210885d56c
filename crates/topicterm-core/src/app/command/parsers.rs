//! The parsers of the palette's commands that take arguments: one function per command (or per
//! family), from a [`Typed`] line to a [`Command`] or the usage line to show. Knows nothing of the
//! state: names stay names here (`update` resolves them). Start at [`Typed`].

use super::kinds::{Backfill, Command};
use super::table::{APNS_APPID_REQUIRED, usage};

/// A typed command: its name and arguments, and the server's level, for the parsers below.
pub(super) struct Typed<'a> {
    pub(super) name: &'a str,
    pub(super) args: &'a [String],
    pub(super) feature_level: i64,
}

impl Typed<'_> {
    /// The arguments as one line.
    pub(super) fn rest(&self) -> String {
        self.args.join(" ")
    }

    /// The command's usage line, as the server of this level takes it.
    pub(super) fn usage(&self) -> String {
        usage(self.name, self.feature_level)
    }

    /// At least `n` arguments, or the usage line.
    pub(super) fn need(&self, n: usize) -> Result<(), String> {
        if self.args.len() < n { Err(self.usage()) } else { Ok(()) }
    }

    /// A leading `#channel` (without its `#`), and the arguments after it.
    pub(super) fn channel_and_rest(&self) -> (Option<String>, Vec<String>) {
        match self.args.split_first() {
            Some((first, rest)) if first.starts_with('#') => {
                (Some(first.trim_start_matches('#').to_owned()), rest.to_vec())
            }
            _ => (None, self.args.to_vec()),
        }
    }
}

// The user's own settings.

/// `:status TEXT | clear`.
pub(super) fn status(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    match t.rest() {
        r if r == "clear" => Ok(Command::Status(None)),
        r => Ok(Command::Status(Some(r))),
    }
}

/// `:alert-words [add|remove WORD …]`.
pub(super) fn alert_words(t: &Typed) -> Result<Command, String> {
    match t.args.split_first() {
        None => Ok(Command::AlertWords(None)),
        Some((op, words)) if (op == "add" || op == "remove") && !words.is_empty() => {
            Ok(Command::AlertWords(Some((op == "add", words.to_vec()))))
        }
        _ => Err(t.usage()),
    }
}

/// `:apns TOKEN APPID` (the app ID optional on servers before `APNS_APPID_REQUIRED`).
pub(super) fn apns(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    if t.args.len() < 2 && t.feature_level >= APNS_APPID_REQUIRED {
        return Err(format!("this server needs the app ID too; {}", t.usage()));
    }
    Ok(Command::Apns { token: t.args[0].clone(), appid: t.args.get(1).cloned() })
}

// Messages and topics.

/// `:report TYPE [description]`.
pub(super) fn report(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    let desc = t.args[1..].join(" ");
    Ok(Command::Report { report_type: t.args[0].clone(), description: (!desc.is_empty()).then_some(desc) })
}

/// `:rename-topic NEW [--one|--later|--all]`.
pub(super) fn rename_topic(t: &Typed) -> Result<Command, String> {
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
pub(super) fn move_topic(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    let channel = t.args[0].trim_start_matches('#').to_owned();
    let topic = (t.args.len() > 1).then(|| t.args[1..].join(" "));
    Ok(Command::MoveTopic { channel: Some(channel), topic, mode: "change_all" })
}

/// `:poll-option TEXT` and `:todo-add TEXT`.
pub(super) fn add_item(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    Ok(Command::AddItem { poll: t.name == "poll-option", text: t.rest() })
}

/// `:mark-read [topic|channel|all]`.
pub(super) fn mark_read(t: &Typed) -> Result<Command, String> {
    match t.args.first().map(String::as_str) {
        None | Some("topic") => Ok(Command::MarkRead(None)),
        Some("channel") => Ok(Command::MarkRead(Some(false))),
        Some("all") => Ok(Command::MarkRead(Some(true))),
        _ => Err(t.usage()),
    }
}

// Channels.

/// `:unsubscribe [#channel] [user …]`.
pub(super) fn unsubscribe(t: &Typed) -> Command {
    let (channel, users) = t.channel_and_rest();
    Command::Unsubscribe { channel, users }
}

/// `:channel-email [#channel] [sender]`.
pub(super) fn channel_email(t: &Typed) -> Command {
    let (channel, rest) = t.channel_and_rest();
    Command::ChannelEmail { channel, sender: (!rest.is_empty()).then(|| rest.join(" ")) }
}

/// `:channel-info [#channel]`.
/// `:channel-push-default on|off [#channel]`.
pub(super) fn push_default(t: &Typed) -> Result<Command, String> {
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

pub(super) fn channel_info(t: &Typed) -> Command {
    let named = t.rest();
    Command::ChannelInfo((!named.is_empty()).then(|| named.trim_start_matches('#').to_owned()))
}

/// `:create-channel NAME [--private] [--description TEXT]`.
pub(super) fn create_channel(t: &Typed) -> Result<Command, String> {
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
pub(super) fn deactivate(t: &Typed) -> Result<Command, String> {
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
pub(super) fn group(t: &Typed) -> Result<Command, String> {
    t.need(2)?;
    Ok(Command::Group {
        group: t.args[0].clone(),
        add: t.name.ends_with("-add"),
        subgroups: t.name.starts_with("subgroup"),
        names: t.args[1..].to_vec(),
    })
}

/// `:mute-user USER` and `:unmute-user USER`.
pub(super) fn mute_user(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    Ok(Command::MuteUser { user: t.rest(), mute: t.name == "mute-user" })
}

/// `:profile [@user]`.
pub(super) fn profile(t: &Typed) -> Command {
    let named = t.rest();
    Command::Profile((!named.is_empty()).then(|| named.trim_start_matches('@').trim_matches('*').to_owned()))
}

/// `:invite EMAIL… [#channel…]`.
pub(super) fn invite(t: &Typed) -> Result<Command, String> {
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
pub(super) fn archive(t: &Typed) -> Result<Command, String> {
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
pub(super) fn view_pin(t: &Typed) -> Result<Command, String> {
    t.need(1)?;
    Ok(Command::View { fragment: t.args[0].clone(), pinned: Some(t.name == "view-pin"), name: None })
}

/// `:view-rename FRAGMENT NAME`.
pub(super) fn view_rename(t: &Typed) -> Result<Command, String> {
    t.need(2)?;
    Ok(Command::View { fragment: t.args[0].clone(), pinned: None, name: Some(t.args[1..].join(" ")) })
}

/// `:playground NAME LANGUAGE URL_TEMPLATE`.
pub(super) fn playground(t: &Typed) -> Result<Command, String> {
    t.need(3)?;
    Ok(Command::Playground {
        name: t.args[0].clone(),
        language: t.args[1].clone(),
        template: t.args[2].clone(),
    })
}
