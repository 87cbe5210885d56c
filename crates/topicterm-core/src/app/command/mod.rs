//! The command palette (`:`): every operation, including those without a natural key.
//!
//! Three parts below this file, each knowing only what stands below it: `kinds.rs` (what a line
//! parses into), `table.rs` (every command's name, arguments and help: completion and `:help`
//! read it) and `parsers.rs` (one parser per command with arguments). This file is `parse`, which
//! hands a line to its parser. Start at [`parse`].

mod kinds;
mod parsers;
mod table;

pub use kinds::{Backfill, Command};
pub use table::{APNS_APPID_REQUIRED, COMMANDS, args, complete};

use super::narrow::tokens;
use parsers::*;

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

#[cfg(test)]
mod tests;
