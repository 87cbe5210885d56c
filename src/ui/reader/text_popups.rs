//! The popups of text (help, edit history, message info, channel info, profiles) as the
//! screen-reader mode draws them: a heading that says what the popup is and which keys work,
//! then one paragraph of words per fact, wrapped at words; `j`/`k` scroll them as in the
//! default view, the cursor on the first row of text. What each tells is gathered by the
//! default popup's own functions (`ui/help.rs`, `info.rs`, `channel_info.rs`, `profile.rs`).

use super::messages::{Reading, host, place, summary};
use super::rows::{Pane, scrolled};
use crate::api::{BasicChannel, ChannelId, HistorySnapshot, MessageId, User, UserId};
use crate::app::{Shown, State};
use crate::content::{Document, Summary, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;

/// A key as the help names it (`↑ / k`), in words (`up or k`).
fn key_words(keys: &str) -> String {
    keys.replace('↑', "up")
        .replace('↓', "down")
        .replace('←', "left")
        .replace('→', "right")
        .replace(" / ", " or ")
}

/// The help: the keys of the compose box or the focused pane, then the palette's commands.
pub(super) fn draw_help(f: &mut Frame, st: &State, pane: &mut Pane, area: Rect, scroll: u16) -> Option<u16> {
    use super::super::help::{COMMANDS_HEAD, context, modes, who};
    use crate::app::keymap::Context;
    let ctx = context(st);
    let place = match ctx {
        Context::Compose => "the compose box",
        Context::Sidebar => "the channels pane",
        Context::People => "the people pane",
        _ => "the messages pane",
    };
    let head = format!("Help, keys (esc to close) of {place}, then the commands: j and k scroll");
    let mut text = vec![
        format!("Commands: {COMMANDS_HEAD}"),
        format!("Modes: {}", modes(st)),
        format!("You are {}.", sanitize(&who(st, true))),
        String::new(),
    ];
    for (keys, what) in st.settings.keymap.help(ctx) {
        text.push(format!("{}: {what}", key_words(&keys)));
    }
    // The compose box's keys, where `?` is typed as text (f1 opens this help there).
    if ctx != Context::Compose {
        text.push(String::new());
        text.push("Keys in the compose box (f1 there shows them):".to_owned());
        for (keys, what) in st.settings.keymap.help(Context::Compose) {
            text.push(format!("{}: {what}", key_words(&keys)));
        }
    }
    text.push(String::new());
    text.push("Commands (press : then tab to complete):".to_owned());
    for (name, _, what) in crate::app::command::COMMANDS {
        let args = crate::app::command::args(name, st.data.realm.server.feature_level);
        let usage = format!(":{name} {args}");
        text.push(format!("{}: {what}", usage.trim_end()));
    }
    scrolled(f, st, pane.t, area, &head, &text, scroll)
}

/// The words removed from `old` and added in `new`, each run joined by spaces.
fn changed_words(old: &str, new: &str) -> (String, String) {
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    for ch in similar::TextDiff::from_words(old, new).iter_all_changes() {
        let word = ch.value().trim();
        match ch.tag() {
            similar::ChangeTag::Delete if !word.is_empty() => removed.push(word.to_owned()),
            similar::ChangeTag::Insert if !word.is_empty() => added.push(word.to_owned()),
            _ => {}
        }
    }
    (sanitize(&removed.join(" ")), sanitize(&added.join(" ")))
}

/// A text on one line (its line breaks as spaces), sanitised.
fn one_line(text: &str) -> String {
    sanitize(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The edit history: one paragraph per version — which, when, by whom, what changed.
pub(super) fn draw_history(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    (id, scroll): (MessageId, u16),
    snaps: Option<&[HistorySnapshot]>,
) -> Option<u16> {
    let d = &st.data;
    let by = d.messages.get(&id).map(|m| sanitize(m.sender_full_name()));
    let of = by.map_or_else(|| format!("message {id}"), |who| format!("message by {who}"));
    let Some(snaps) = snaps else {
        return scrolled(f, st, pane.t, area, &format!("Edit history of {of}: loading; esc closes"), &[], 0);
    };
    let n = snaps.len();
    let head = format!("Edit history of {of}, {n} versions: j and k scroll, esc closes");
    let mut text = Vec::with_capacity(n);
    for (i, s) in snaps.iter().enumerate() {
        let who = s.user_id.map_or("someone unknown".to_owned(), |u| sanitize(d.user_name(u)));
        let when = st.tz.format(s.timestamp, st.settings.clock.stamp());
        let mut what = Vec::new();
        if i == 0 {
            what.push("the original".to_owned());
        }
        if let Some(pt) = &s.prev_topic {
            what.push(format!("topic changed from {} to {}", sanitize(pt), sanitize(&s.topic)));
        }
        if let (Some(ps), Some(ns)) = (s.prev_stream, s.stream) {
            what.push(format!(
                "moved from channel {} to channel {}",
                sanitize(d.channels.name(ps)),
                sanitize(d.channels.name(ns))
            ));
        }
        let prev = if i == 0 { None } else { snaps.get(i - 1).map(|p| p.content.as_str()) };
        if i == 0 || s.prev_content.is_some() {
            if let Some(prev) = prev {
                let (removed, added) = changed_words(prev, &s.content);
                if !removed.is_empty() {
                    what.push(format!("removed: {removed}"));
                }
                if !added.is_empty() {
                    what.push(format!("added: {added}"));
                }
            }
            what.push(format!("text: {}", one_line(&s.content)));
        }
        text.push(format!("version {} of {n}, {when}, by {who}: {}", i + 1, what.join("; ")));
    }
    scrolled(f, st, pane.t, area, &head, &text, scroll)
}

/// A link in words, as the info popups list it: its number, its text, where it leads.
fn link_words(i: usize, link: &crate::content::LinkRef) -> String {
    let kind = if link.is_image { "picture" } else { "link" };
    let text = sanitize(&link.text);
    let url = sanitize(&link.url);
    if text.trim().is_empty() || text == url {
        format!("{kind} {}: {url}", i + 1)
    } else {
        format!("{kind} {}: {text}, {url}", i + 1)
    }
}

/// Message info: who, when, where, links, code playgrounds, reactions, who has read it.
pub(super) fn draw_info(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    (id, scroll): (MessageId, u16),
) -> Option<u16> {
    use super::super::info::{ReadBy, playgrounds, reactions_by_emoji, read_by};
    let Some(m) = st.data.messages.get(&id) else {
        return scrolled(f, st, pane.t, area, "Message info: this message is gone; esc closes", &[], 0);
    };
    let clock = st.settings.clock;
    let where_ = place(st, m);
    let mut text = vec![
        format!("From: {}, {}", sanitize(m.sender_full_name()), sanitize(m.sender_email())),
        format!("Sent: {}", st.tz.format(m.timestamp, clock.full())),
        format!("Where: {}", where_.strip_prefix("in ").unwrap_or(&where_)),
        format!("ID: {}", m.id),
    ];
    if let Some(ts) = m.last_edit_timestamp() {
        text.push(format!("Edited: {}", st.tz.format(ts, clock.stamp())));
    }
    if let Some(ts) = m.last_moved_timestamp() {
        text.push(format!("Moved: {}", st.tz.format(ts, clock.stamp())));
    }
    let spoilers = matches!(st.shown(m), Shown::Body { spoilers_open: true });
    let s = summary(st, pane, m, spoilers);
    text.extend(s.links.iter().enumerate().map(|(i, l)| link_words(i, l)));
    let code = s.code_blocks.iter().map(|c| (c.code.as_str(), c.language.as_deref()));
    for p in playgrounds(st, code) {
        text.push(format!("code block {} runs in {}: {}", p.block, p.name, p.url));
    }
    for r in reactions_by_emoji(st, m) {
        text.push(format!("reaction {} by {}", r.name.replace('_', " "), r.who.join(", ")));
    }
    match read_by(st, m) {
        None => {}
        Some(ReadBy::Asking) => text.push("Read by: asking the server".to_owned()),
        Some(ReadBy::Failed(e)) => text.push(format!("Read by: {e}")),
        Some(ReadBy::Names(names)) if names.is_empty() => text.push("Read by nobody yet".to_owned()),
        Some(ReadBy::Names(names)) => text.push(format!("Read by {}: {}", names.len(), names.join(", "))),
        Some(ReadBy::Off) => text.push("read receipts are off in this organization".to_owned()),
    }
    scrolled(f, st, pane.t, area, "Message info: j and k scroll, esc closes", &text, scroll)
}

/// HTML the server rendered (a description, a profile field) as one run of words.
fn html_words(st: &State, html: &str) -> Summary {
    let ctx = Reading { tz: st.tz, clock: st.settings.clock, spoilers: false };
    Document::parse(html).summary(&ctx)
}

/// What a channel info popup shows, as the popup has it.
pub(super) struct ChannelShown<'a> {
    pub(super) channel: ChannelId,
    pub(super) details: Option<&'a BasicChannel>,
    pub(super) email: Option<&'a Result<String, String>>,
    pub(super) scroll: u16,
}

/// Channel info: what the channel is, its description, facts, email, the user's settings with
/// the keys that change them.
pub(super) fn draw_channel_info(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    c: ChannelShown,
) -> Option<u16> {
    use super::super::channel_info::{facts, kind, settings};
    let d = &st.data;
    let sub = d.channels.get(c.channel);
    let name = c.details.map(|c| c.name.as_str()).or(sub.map(|s| s.name.as_str())).unwrap_or("");
    let head = format!("Channel info of channel {}: j and k scroll, esc closes", sanitize(name));
    let mut text = Vec::new();
    match c.details {
        None => text.push("loading".to_owned()),
        Some(ch) => {
            let archived = if ch.is_archived { ", archived" } else { "" };
            text.push(format!("channel {}, {}{archived}", sanitize(&ch.name), kind(ch)));
            if !ch.rendered_description.trim().is_empty() {
                let s = html_words(st, &ch.rendered_description);
                text.push(format!("Description: {}", s.text.trim()));
                for (i, l) in s.links.iter().enumerate() {
                    text.push(format!("{} ({})", link_words(i, l), host(&st.site, &l.url)));
                }
            } else if !ch.description.trim().is_empty() {
                text.push(format!("Description: {}", one_line(&ch.description)));
            } else {
                text.push("No description.".to_owned());
            }
            text.extend(facts(st, ch).into_iter().map(|(label, value)| format!("{label}: {value}")));
        }
    }
    text.push(match c.email {
        None => "Email: loading".to_owned(),
        Some(Ok(e)) => format!("Email: {}", sanitize(e)),
        Some(Err(e)) => format!("Email: {}", sanitize(e)),
    });
    match sub {
        None => text.push("You are not subscribed: s joins the channel.".to_owned()),
        Some(s) => {
            text.push("Your settings, each with the key that changes it:".to_owned());
            for (key, what, value) in settings(st, s) {
                text.push(format!("{what}: {value}, key {key}"));
            }
            text.push("key s leaves the channel, key y copies the channel email".to_owned());
        }
    }
    scrolled(f, st, pane.t, area, &head, &text, c.scroll)
}

/// A profile: who someone is, their facts, their custom fields, the keys that write to them.
pub(super) fn draw_profile(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    (user, scroll): (UserId, u16),
    details: Option<&User>,
) -> Option<u16> {
    use super::super::profile::{Custom, custom_fields, facts};
    let d = &st.data;
    let name = details.map_or_else(|| d.user_name(user).to_owned(), |u| u.full_name.clone());
    let head = format!(
        "Profile of {}: x sends a direct message, @ mentions, j and k scroll, esc closes",
        sanitize(&name)
    );
    let Some(u) = details else {
        return scrolled(f, st, pane.t, area, &head, &["loading".to_owned()], scroll);
    };
    let mut text = Vec::new();
    for fact in facts(st, u, user) {
        // The status's emoji by its name, as the people pane says it.
        let value = if fact.label == "Status" { super::lists::status_words(st, user) } else { fact.value };
        text.push(format!("{}: {value}", fact.label));
    }
    for (label, value) in custom_fields(st, u) {
        let value = match value {
            Custom::Html(html) => html_words(st, html).text.trim().to_owned(),
            Custom::Text(text) => text,
        };
        text.push(format!("{label}: {value}"));
    }
    scrolled(f, st, pane.t, area, &head, &text, scroll)
}
