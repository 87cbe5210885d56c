//! The compose box: opening it (with drafts), quoting, sending, scheduling.

use super::common::*;
use super::prelude::*;
use crate::app::rules;

/// Whether enter sends in the compose box, as the user set it (`enter_sends`); then the other
/// key, alt+enter, makes a new line. Off (or a server that does not say): enter makes a new
/// line and the send keys send.
pub fn enter_sends(st: &State) -> bool {
    st.data.user_settings().enter_sends == Some(true)
}

/// A key in the compose box as the user's `enter_sends` makes it: whether it sends, and the key
/// to act on otherwise — with enter sending, enter sends and alt+enter (or shift+enter, where the
/// terminal tells it) is a new line.
pub(super) fn enter_as_set(st: &State, key: KeyEvent) -> (bool, KeyEvent) {
    if key.code != KeyCode::Enter || !enter_sends(st) {
        return (false, key);
    }
    if key.modifiers.is_empty() {
        return (true, key);
    }
    if key.modifiers.intersects(KeyModifiers::ALT | KeyModifiers::SHIFT) {
        return (false, KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    }
    (false, key)
}

/// The web app's quote-and-reply text: a silent mention linking to the message, then the raw
/// Markdown in a `quote` fence longer than any fence inside it, and a fresh line for the reply
/// (a `> ` quote would swallow the reply as a lazy continuation line).
pub(super) fn quote_reply(st: &State, m: &Stored, raw: &str) -> String {
    let longest = raw
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let n = t.chars().take_while(|c| *c == '`').count();
            (n >= 3).then_some(n)
        })
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let link = super::outside::message_link(st, m);
    format!(
        "@_**{}|{}** [said]({link}):\n{fence}quote\n{}\n{fence}\n",
        m.sender_full_name(),
        m.sender_id(),
        raw.trim_end_matches('\n')
    )
}

/// The compose box's text, unless there is nothing to `what` (said in the status line).
pub(super) fn compose_text(st: &mut State, what: &str) -> Option<String> {
    let text = st.ui.compose.as_ref()?.text();
    if text.trim().is_empty() {
        set_error(st, format!("nothing to {what}"));
        return None;
    }
    Some(text)
}

pub(super) fn send_compose(st: &mut State) -> Vec<Effect> {
    let Some(text) = compose_text(st, "send") else { return vec![] };
    if let Some(why) = rules::too_long(&st.data, text.chars().count()) {
        set_error(st, why);
        return vec![];
    }
    let Some(c) = &st.ui.compose else { return vec![] };
    if let Some(id) = c.scheduled {
        if st.data.lists.scheduled().get(&id).is_some_and(|s| s.failed) {
            set_error(st, "this scheduled message failed to send: press ctrl+s to give it a new time");
            return vec![];
        }
        let update = ScheduledMessageUpdate { content: Some(text), ..Default::default() };
        return vec![Effect::Api(ApiCall::UpdateScheduled { id, update })];
    }
    if let Some(id) = c.editing {
        let refused = st.data.messages.get(&id).and_then(|m| rules::edit_refused(&st.data, m, st.now));
        if let Some(why) = refused {
            set_error(st, why);
            return vec![];
        }
        set_status(st, "saving…");
        return vec![
            Effect::Edit { message_id: id, content: text },
            Effect::EditTyping { message_id: id, start: false },
        ];
    }
    let target = c.target.clone();
    if let Some(why) = new_topic_refused(st, &target) {
        set_error(st, why);
        return vec![];
    }
    st.ui.compose = None;
    st.ui.draft_dirty = false;
    if st.ui.conn.is_offline() {
        set_status(st, "offline: the message will go when the connection is back");
    } else {
        set_status(st, "sending…");
    }
    super::outbox::enqueue(st, target, text)
}

/// Why the organization's rules refuse a message to `target` (`app::rules::send_refused`:
/// the compose box stays open, its text kept, for another conversation).
fn new_topic_refused(st: &State, target: &Target) -> Option<String> {
    rules::send_refused(&st.data, target)
}

/// Scheduled message IDs by delivery time.
pub fn scheduled_in_order(st: &State) -> Vec<i64> {
    let mut v: Vec<&ScheduledMessage> = st.data.lists.scheduled().values().collect();
    v.sort_by_key(|s| (s.scheduled_delivery_timestamp, s.scheduled_message_id));
    v.into_iter().map(|s| s.scheduled_message_id).collect()
}

/// Schedule the composed message (or move an edited scheduled message) to `at`.
pub(super) fn schedule_compose(st: &mut State, at: i64) -> Vec<Effect> {
    let Some(content) = compose_text(st, "schedule") else { return vec![] };
    if let Some(why) = rules::too_long(&st.data, content.chars().count()) {
        set_error(st, why);
        return vec![];
    }
    let Some(c) = &st.ui.compose else { return vec![] };
    if let Some(id) = c.scheduled {
        let update = ScheduledMessageUpdate {
            content: Some(content),
            scheduled_delivery_timestamp: Some(at),
            ..Default::default()
        };
        return vec![Effect::Api(ApiCall::UpdateScheduled { id, update })];
    }
    if let Some(why) = new_topic_refused(st, &c.target) {
        set_error(st, why);
        return vec![];
    }
    let Some(c) = &st.ui.compose else { return vec![] };
    let (kind, to, topic) = match &c.target {
        Target::Channel { id, topic } => (SendType::Channel, Recipient::Channel(*id), Some(topic.clone())),
        Target::Dm(u) => {
            let ids = if u.is_empty() { vec![st.data.me] } else { u.clone() };
            (SendType::Direct, Recipient::Users(ids), None)
        }
    };
    let msg = NewScheduledMessage {
        kind,
        to,
        content,
        topic,
        scheduled_delivery_timestamp: at,
        read_by_sender: Some(true),
    };
    vec![Effect::Api(ApiCall::Schedule(msg))]
}

/// Work out completions for the word before the compose cursor.
pub(super) fn suggest(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    let cursor = c.editor.cursor();
    let (row, col) = (cursor.0, cursor.1);
    let line = c.editor.lines().get(row).cloned().unwrap_or_default();
    let before: String = line.chars().take(col).collect();
    // The token starts at the last sigil that begins a word.
    let start = before
        .char_indices()
        .filter(|(i, ch)| {
            matches!(ch, '@' | '#' | ':') && (*i == 0 || before[..*i].ends_with(char::is_whitespace))
        })
        .map(|(i, _)| i)
        .next_back();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut fx = Vec::new();
    let token = start.map(|i| &before[i..]).unwrap_or("");
    let d = &st.data;
    if let Some(rest) = token.strip_prefix('@') {
        // `@_` mentions silently (no notification), as in the web app.
        let silent = rest.starts_with('_');
        let sigil = if silent { "@_" } else { "@" };
        let q = rest.trim_start_matches('_').trim_start_matches('*').to_lowercase();
        if !q.contains(char::is_whitespace) || q.len() < 30 {
            let mut users: Vec<&UserInfo> = d
                .users
                .all()
                .into_iter()
                .flatten()
                .filter(|u| u.is_active && u.full_name.to_lowercase().contains(&q))
                .collect();
            users.sort_by_key(|u| (!u.full_name.to_lowercase().starts_with(&q), u.full_name.to_lowercase()));
            out.extend(users.into_iter().take(8).map(|u| match d.users.name_shared(&u.full_name) {
                // A name two people hold mentions by ID too, as the web app does.
                true => {
                    (format!("{} ({})", u.full_name, u.email), format!("{sigil}**{}|{}**", u.full_name, u.id))
                }
                false => (u.full_name.clone(), format!("{sigil}**{}**", u.full_name)),
            }));
            // User groups (not the roles' system groups).
            let mut groups: Vec<&UserGroup> = d
                .users
                .all_groups()
                .into_iter()
                .flatten()
                .filter(|g| !g.is_system_group && !g.deactivated && g.name.to_lowercase().contains(&q))
                .collect();
            groups.sort_by_key(|g| (!g.name.to_lowercase().starts_with(&q), g.name.to_lowercase()));
            out.extend(groups.into_iter().take(4).map(|g| {
                (format!("{} (group of {})", g.name, g.members.len()), format!("{sigil}*{}*", g.name))
            }));
            // Everyone in the conversation, loudly only.
            if !silent && !q.is_empty() {
                for (w, who) in [
                    ("all", "everyone in the channel"),
                    ("everyone", "everyone in the channel"),
                    ("channel", "everyone in the channel"),
                    ("topic", "everyone in the topic"),
                ] {
                    if w.starts_with(&q) {
                        out.push((format!("{w} (notifies {who})"), format!("@**{w}**")));
                    }
                }
            }
        }
    } else if let Some(q) = token.strip_prefix('#').map(|q| q.trim_start_matches("**")) {
        match q.split_once('>') {
            Some((chan, topic_q)) => {
                if let Some(cid) = crate::app::narrow::Resolver::channel_id(d, chan) {
                    let topic_q = topic_q.to_lowercase();
                    match d.topics.of(cid) {
                        Some(list) if list.is_loaded() => out.extend(
                            list.iter()
                                .map(|t| (d.realm.topic_shown(&t.name), t.name.as_str()))
                                .filter(|(shown, _)| shown.to_lowercase().contains(&topic_q))
                                .take(8)
                                .map(|(shown, t)| {
                                    (shown.to_owned(), format!("#**{}>{t}**", d.channels.name(cid)))
                                }),
                        ),
                        _ => {
                            if st.data.topics.ask(cid) {
                                fx.push(Effect::FetchTopics(cid));
                            }
                        }
                    }
                }
            }
            None => {
                let q = q.to_lowercase();
                let mut chans: Vec<&ChannelInfo> =
                    d.channels.iter().filter(|c| c.name.to_lowercase().contains(&q)).collect();
                chans.sort_by_key(|c| (!c.name.to_lowercase().starts_with(&q), c.name.to_lowercase()));
                out.extend(
                    chans.into_iter().take(8).map(|c| (format!("#{}", c.name), format!("#**{}**", c.name))),
                );
            }
        }
    } else if let Some(q) = token.strip_prefix(':').filter(|q| q.chars().count() >= 2 && !q.contains(' ')) {
        out.extend(
            emoji_matches(d, q, 8)
                .into_iter()
                // As the `E` picker shows them: the emoji and its name (custom ones marked ◆).
                .map(|(name, code, kind)| {
                    let glyph = crate::api::emoji::glyph(&code)
                        .filter(|g| kind == "unicode_emoji" && !g.chars().any(char::is_control));
                    (format!("{} :{name}:", glyph.unwrap_or_else(|| "◆".into())), format!(":{name}:"))
                }),
        );
    }
    let token_len = token.chars().count();
    if let Some(c) = &mut st.ui.compose {
        c.suggestions = out;
        c.token_len = token_len;
        c.cycle = None;
        c.tab = None;
    }
    fx
}

/// Emoji matching a search: custom emoji, the service's own, then Unicode by Zulip's names.
/// Names that start with the query come first.
pub fn emoji_matches(d: &Data, query: &str, limit: usize) -> Vec<(String, String, String)> {
    let q = query.trim().trim_matches(':').to_lowercase();
    let mut starts = Vec::new();
    let mut contains = Vec::new();
    let mut push = |name: &str, code: String, kind: &str| {
        let entry = (name.to_owned(), code, kind.to_owned());
        if name.starts_with(&q) {
            starts.push(entry);
        } else if name.contains(&q) {
            contains.push(entry);
        }
    };
    let mut custom: Vec<&RealmEmoji> = d.realm.custom.emoji.values().filter(|e| !e.deactivated).collect();
    custom.sort_by(|a, b| a.name.cmp(&b.name));
    for e in custom {
        push(&e.name, e.id.clone(), "realm_emoji");
    }
    push("zulip", "zulip".into(), "svc_extra_emoji");
    for e in crate::api::emoji::all() {
        for name in e.names() {
            push(name, e.code.to_owned(), "unicode_emoji");
        }
    }
    // Names typed from habit (gemoji's `thumbsup`) offer the Zulip name of the same emoji.
    if starts.len() < limit && q.len() >= 2 {
        for (_, e) in crate::api::emoji::gemoji_starting_with(&q) {
            let entry = (e.name.to_owned(), e.code.to_owned(), "unicode_emoji".to_owned());
            if !starts.contains(&entry) {
                starts.push(entry);
            }
        }
    }
    starts.extend(contains);
    starts.truncate(limit);
    starts
}
