//! Tab completion: cycling through the matches (tab forwards, shift+tab backwards), and the
//! candidates of the prompts: channels then topics (`c`, `ctrl+g`), people (`x`, and `@` in
//! `c`), palette commands and their arguments (channels, topics, people, groups, paths), and
//! paths in the attach prompt (a folder's entries are listed off the main task, `Msg::Listed`).

use super::prelude::*;
use crate::app::command;
use crate::app::narrow::{Resolver, raw_tokens};

/// Replace the last inserted completion (or the typed token) with the next or previous match.
/// `remove` deletes that many characters before the cursor, `insert` inserts text there.
/// Returns the new cycle state.
fn step(
    suggestions: &[(String, String)],
    token_len: usize,
    cycle: Option<(usize, usize)>,
    back: bool,
    mut remove: impl FnMut(usize),
    mut insert: impl FnMut(&str),
) -> Option<(usize, usize)> {
    let n = suggestions.len();
    if n == 0 {
        return cycle;
    }
    let (index, chars) = match cycle {
        Some((i, inserted)) => ((if back { i + n - 1 } else { i + 1 }) % n, inserted),
        None => (if back { n - 1 } else { 0 }, token_len),
    };
    remove(chars);
    let text = &suggestions[index].1;
    insert(text);
    Some((index, text.chars().count()))
}

/// Tab (or shift+tab) in the compose box.
pub(super) fn compose(st: &mut State, back: bool) {
    let Some(c) = &mut st.ui.compose else { return };
    if c.cycle.is_none() && c.suggestions.is_empty() && st.data.users.awaits_list() {
        // Nothing yet: the list is on its way, and this Tab is done when it comes.
        c.tab = Some(back);
        return;
    }
    let suggestions: Vec<(String, String)> =
        c.suggestions.iter().map(|(shown, ins)| (shown.clone(), format!("{ins} "))).collect();
    let editor = std::cell::RefCell::new(&mut c.editor);
    let cycle = step(
        &suggestions,
        c.token_len,
        c.cycle,
        back,
        |n| {
            for _ in 0..n {
                editor.borrow_mut().delete_char();
            }
        },
        |text| {
            editor.borrow_mut().insert_str(text);
        },
    );
    c.cycle = cycle;
}

/// Tab (or shift+tab) in a prompt that completes. One candidate is inserted and completion starts
/// afresh from there (a folder's entries, the topic after a channel, the next argument); several
/// are cycled through.
pub(super) fn prompt(st: &mut State, back: bool) -> Vec<Effect> {
    let mut fx = Vec::new();
    if st.ui.completion.cycle.is_none() {
        fx = suggest(st);
    }
    let Some(p) = &mut st.ui.prompt else { return fx };
    let comp = &mut st.ui.completion;
    if comp.cycle.is_none() && comp.suggestions.is_empty() && st.data.users.awaits_list() {
        // Nothing yet: the list is on its way, and this Tab is done when it comes.
        comp.tab = Some(back);
        return fx;
    }
    let single = comp.cycle.is_none() && comp.suggestions.len() == 1;
    let line = std::cell::RefCell::new(&mut p.line);
    comp.cycle = step(
        &comp.suggestions,
        comp.token_len,
        comp.cycle,
        back,
        |n| line.borrow_mut().delete_before(n),
        |s| line.borrow_mut().insert_str(s),
    );
    if single {
        fx.extend(suggest(st));
    }
    fx
}

/// Does this prompt complete?
pub(super) fn completes(kind: PromptKind) -> bool {
    matches!(
        kind,
        PromptKind::ChannelTopic
            | PromptKind::DmRecipients
            | PromptKind::Command
            | PromptKind::AttachPath
            | PromptKind::Search
    )
}

/// At most this many candidates are offered.
const SHOWN: usize = 8;

/// Work out the candidates for the text before the prompt's cursor (fetching a channel's topics
/// or listing a folder when they are not known yet: their answers call this again).
pub(super) fn suggest(st: &mut State) -> Vec<Effect> {
    let mut fx = Vec::new();
    let Some(p) = &st.ui.prompt else { return fx };
    let before = p.line.before_cursor().to_owned();
    let (out, token) = match p.kind {
        PromptKind::ChannelTopic => match before.split_once('>') {
            None if before.contains(',') || before.trim_start().starts_with('@') => people_list(st, &before),
            None => {
                let mut out = channels(st, Which::Subscribed, before.trim(), |name| format!("{name}>"));
                // Fewer channels than room: people too, for a DM instead (ctrl+g to a person).
                let q = before.trim().to_lowercase();
                // Not where only some people are known: a channel typed reads no list of people.
                if !q.is_empty() && out.len() < SHOWN && !st.data.users.is_partial() {
                    let room = SHOWN - out.len();
                    out.extend(
                        people(st, &q, room, |n| format!("@{}, ", crate::app::people::as_typed(n)))
                            .into_iter()
                            .map(|(s, i)| (format!("@{s}"), i)),
                    );
                }
                (out, before.clone())
            }
            Some((chan, topic)) => {
                let chan = chan.trim().trim_start_matches('#').to_owned();
                (topics(st, &chan, topic.trim_start(), &mut fx, str::to_owned), topic.to_owned())
            }
        },
        PromptKind::DmRecipients => people_list(st, &before),
        PromptKind::AttachPath => (paths(st, &before, &mut fx), file_part(&before).to_owned()),
        PromptKind::Command => arguments(st, &before, &mut fx),
        PromptKind::Search => search(st, &before, &mut fx),
        _ => return fx,
    };
    st.ui.completion =
        Completion { suggestions: out, token_len: token.chars().count(), cycle: None, tab: None };
    fx
}

/// The `/` prompt: the operand of the word being typed — `channel:`, `topic:` (of the channel
/// an earlier `channel:` names), `sender:`, `dm:`, `dm-including:`, `mentions:`, `is:`, `has:`
/// — and `#name` (a channel) or `@name` (a sender), each completed to the whole operator and
/// its operand, quoted when it holds a space.
fn search(st: &mut State, before: &str, fx: &mut Vec<Effect>) -> (Vec<(String, String)>, String) {
    let token = before.rsplit(' ').next().unwrap_or("").to_owned();
    let (neg, body) = match token.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", token.as_str()),
    };
    let quoted = |v: &str| if v.contains(' ') { format!("\"{v}\"") } else { v.to_owned() };
    let term = |op: &str, v: &str| format!("{neg}{op}:{} ", quoted(v));
    let (op, q) = match body.split_once(':') {
        Some((op, q)) => (op.to_lowercase(), q.trim_start_matches('"').to_owned()),
        None if body.starts_with('#') => ("channel".to_owned(), body[1..].to_owned()),
        None if body.starts_with('@') => ("sender".to_owned(), body[1..].to_owned()),
        None => return (vec![], token),
    };
    let out = match op.as_str() {
        "channel" | "stream" => channels(st, Which::Any, &q, |n| term("channel", n)),
        "topic" | "subject" => {
            // The channel an earlier word names.
            let chan = before.split(' ').find_map(|w| {
                w.strip_prefix("channel:").or_else(|| w.strip_prefix("stream:")).map(|c| c.trim_matches('"'))
            });
            match chan {
                Some(chan) => topics(st, chan, &q, fx, |t| term("topic", t)),
                None => vec![],
            }
        }
        "sender" | "from" | "dm" | "pm-with" | "dm-including" | "dm-with" | "mentions" => {
            let op = if op == "from" { "sender".to_owned() } else { op };
            let lower = q.to_lowercase();
            if lower.is_empty() { vec![] } else { people(st, &lower, SHOWN, |n| term(&op, n)) }
        }
        "is" => {
            words(&["dm", "starred", "mentioned", "unread", "alerted", "resolved", "followed", "muted"], &q)
                .map(|w| (format!("is:{w}"), term("is", w)))
                .collect()
        }
        "has" => words(&["link", "attachment", "image", "reaction"], &q)
            .map(|w| (format!("has:{w}"), term("has", w)))
            .collect(),
        _ => vec![],
    };
    (out, token)
}

/// The words of a fixed list that start with `q`.
fn words<'a>(list: &'a [&'a str], q: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    list.iter().copied().filter(move |w| w.starts_with(q))
}

/// A folder's entries arrived (or could not be read): the attach prompt's candidates follow.
pub(super) fn listed(st: &mut State, dir: String, entries: Option<Vec<(String, bool)>>) -> Vec<Effect> {
    if st.ui.listing.as_ref().is_none_or(|(d, _)| *d != dir) {
        return vec![];
    }
    st.ui.listing = Some((dir, Some(entries.unwrap_or_default())));
    let open = st.ui.prompt.as_ref().is_some_and(|p| completes(p.kind));
    if open && st.ui.completion.cycle.is_none() { suggest(st) } else { vec![] }
}

/// The names of a comma-separated list: candidates for the last one.
/// A name with a comma completes in quotes (`"Othello, the Moor of Venice", `), so the list
/// reads back one way (`app::people::people_in`); a comma in quotes does not start a name.
fn people_list(st: &State, before: &str) -> (Vec<(String, String)>, String) {
    let last = crate::app::people::pieces(before).pop().map_or("", |(at, _)| &before[at]);
    let token = last.trim_start().to_owned();
    let q = token.trim_start_matches('@').trim_start_matches('"').to_lowercase();
    if q.is_empty() {
        return (vec![], token);
    }
    (people(st, &q, SHOWN, |n| format!("{}, ", crate::app::people::as_typed(n))), token)
}

/// Active people whose name holds `q` (lowercase), names that start with it first.
fn people(st: &State, q: &str, n: usize, insert: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let mut users: Vec<&UserInfo> = st
        .data
        .users
        .all()
        .into_iter()
        .flatten()
        .filter(|u| u.is_active && u.full_name.to_lowercase().contains(q))
        .collect();
    users.sort_by_key(|u| (!u.full_name.to_lowercase().starts_with(q), u.full_name.to_lowercase()));
    // A name someone else holds too is shown with the email and completes to it (`app::people`).
    let d = &st.data;
    users
        .into_iter()
        .take(n)
        .map(|u| match d.users.name_shared(&u.full_name) {
            true => (format!("{} ({})", u.full_name, u.email), insert(&u.email)),
            false => (u.full_name.clone(), insert(&u.full_name)),
        })
        .collect()
}

/// The channels of `which` that the typed text (`#` optional) begins or begins a word of, by
/// `Channels::matching` — the rule the commands resolve a name by when Enter is pressed.
fn channels(st: &State, which: Which, typed: &str, insert: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let found = st.data.channels.matching(which, typed);
    found.into_iter().take(SHOWN).map(|(_, name)| (format!("#{name}"), insert(name))).collect()
}

/// The channels a command's `#channel` can name: `:subscribe` one to join, `:channel-info`
/// any, the rest the user's own.
fn channels_of(command: &str) -> Which {
    match command {
        "subscribe" => Which::Joinable,
        "channel-info" => Which::Any,
        _ => Which::Subscribed,
    }
}

/// The topics of the channel named `chan` that hold `typed`, asking for them when not loaded.
fn topics(
    st: &mut State,
    chan: &str,
    typed: &str,
    fx: &mut Vec<Effect>,
    insert: impl Fn(&str) -> String,
) -> Vec<(String, String)> {
    let Some(cid) = Resolver::channel_id(&st.data, chan) else { return vec![] };
    let q = typed.to_lowercase();
    match st.data.topics.of(cid) {
        Some(list) if list.is_loaded() => {
            // The empty topic by its name ("general chat"), as everywhere a person reads it.
            let realm = &st.data.realm;
            let mut names: Vec<&str> = list
                .iter()
                .map(|t| realm.topic_shown(&t.name))
                .filter(|t| t.to_lowercase().contains(&q))
                .collect();
            // Topics come newest first; names that start with the query first.
            names.sort_by_key(|t| !t.to_lowercase().starts_with(&q));
            names.into_iter().take(SHOWN).map(|t| (t.to_owned(), insert(t))).collect()
        }
        _ => {
            if st.data.topics.ask(cid) {
                fx.push(Effect::FetchTopics(cid));
            }
            vec![]
        }
    }
}

/// The file name being typed: what follows the last `/`.
fn file_part(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, f)| f)
}

/// The entries of the folder a path names that start with its file part (hidden ones only when
/// asked for with a `.`); folders end in `/`. The folder is listed first when not known.
fn paths(st: &mut State, path: &str, fx: &mut Vec<Effect>) -> Vec<(String, String)> {
    let (dir, file) = match path.rsplit_once('/') {
        Some((d, f)) => (format!("{d}/"), f),
        None => (String::new(), path),
    };
    match &st.ui.listing {
        Some((d, Some(entries))) if *d == dir => entries
            .iter()
            .filter(|(name, _)| name.starts_with(file) && (file.starts_with('.') || !name.starts_with('.')))
            .take(SHOWN)
            .map(|(name, folder)| {
                let name = if *folder { format!("{name}/") } else { name.clone() };
                (name.clone(), name)
            })
            .collect(),
        Some((d, None)) if *d == dir => vec![],
        _ => {
            st.ui.listing = Some((dir.clone(), None));
            fx.push(Effect::ListFolder(dir));
            vec![]
        }
    }
}

/// What a palette command's argument names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arg {
    Channel,
    Person,
    Group,
    Path,
    Topic,
    Other,
}

/// The kinds of a command's arguments, read from its usage (`#channel [NEW]`, `GROUP USER …`),
/// each with whether it may be left out; a last `…` repeats the last kind.
fn arg_kinds(usage: &str) -> (Vec<(Arg, bool)>, bool) {
    let mut kinds = Vec::new();
    let mut repeats = false;
    for word in usage.split_whitespace() {
        let optional = word.starts_with('[');
        let w = word.trim_matches(|c| c == '[' || c == ']');
        let kind = match w {
            "…" => {
                repeats = true;
                continue;
            }
            _ if w.contains("#channel") => Arg::Channel,
            "USER" | "@user" | "user" | "sender" => Arg::Person,
            "GROUP" | "SUBGROUP" => Arg::Group,
            "PATH" => Arg::Path,
            "NEW" => Arg::Topic,
            _ => Arg::Other,
        };
        kinds.push((kind, optional));
    }
    (kinds, repeats)
}

/// The words an argument may be when its usage lists them (`[channel|all]`): lowercase words
/// separated by `|`; none for a placeholder (`TEXT`, `WHEN`).
fn choices(usage: &str, index: usize) -> Vec<&str> {
    let bare = |w: &str| w.trim_matches(|c| c == '[' || c == ']').to_owned();
    let Some(word) = usage.split_whitespace().filter(|w| bare(w) != "…").nth(index) else { return vec![] };
    let words: Vec<&str> = word.trim_matches(|c| c == '[' || c == ']').split('|').collect();
    let literal = |w: &&str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    if words.len() > 1 && words.iter().all(literal) { words } else { vec![] }
}

/// A name as a palette argument: quoted when it holds a space.
fn quoted(name: &str) -> String {
    if name.contains(char::is_whitespace) { format!("\"{name}\"") } else { name.to_owned() }
}

/// Candidates for the `:` line: the command's name, then its arguments by kind.
fn arguments(st: &mut State, before: &str, fx: &mut Vec<Effect>) -> (Vec<(String, String)>, String) {
    let toks = raw_tokens(before);
    let open_quote = before.matches('"').count() % 2 == 1;
    let fresh = before.is_empty() || (before.ends_with(char::is_whitespace) && !open_quote);
    let (done, token) = match toks.split_last() {
        Some((last, rest)) if !fresh => (rest.to_vec(), last.clone()),
        _ => (toks.clone(), String::new()),
    };
    let Some(name) = done.first() else {
        let names = command::complete(&token);
        return (names.into_iter().map(|n| (n.to_owned(), format!("{n} "))).collect(), token);
    };
    let (kinds, repeats) = arg_kinds(command::args(name, st.data.realm.server.feature_level));
    let at = done.len() - 1;
    // A `#channel` that was given counts; one left out does not shift the rest.
    let given = done[1..].iter().filter(|t| !t.starts_with('#')).count();
    let skip_channel = kinds.first().is_some_and(|(k, opt)| *k == Arg::Channel && *opt);
    let index =
        if skip_channel && !done[1..].first().is_some_and(|t| t.starts_with('#')) { given + 1 } else { at };
    let mut kind = match kinds.get(index) {
        Some((k, _)) => *k,
        None if repeats => kinds.last().map_or(Arg::Other, |k| k.0),
        None => Arg::Other,
    };
    if kind == Arg::Channel && skip_channel && index == 0 && !token.starts_with('#') {
        kind = kinds.get(1).map_or(Arg::Channel, |k| k.0);
    }
    if token.starts_with('#') {
        kind = Arg::Channel;
    } else if token.starts_with('@') {
        kind = Arg::Person;
    }
    // A topic is the rest of the line, spaces and all.
    let topic_at = kinds.iter().position(|k| k.0 == Arg::Topic);
    if let Some(t) = topic_at
        && at >= t
        && !token.starts_with(['-', '#'])
    {
        kind = Arg::Topic;
    }
    let bare = token.trim_start_matches(['#', '@']).replace('"', "");
    let out = match kind {
        Arg::Channel => channels(st, channels_of(name), &bare, |n| format!("#{} ", quoted(n))),
        Arg::Person => {
            let at = if token.starts_with('@') || name == "profile" { "@" } else { "" };
            people(st, &bare.to_lowercase(), SHOWN, |n| format!("{at}{} ", quoted(n)))
                .into_iter()
                .map(|(s, i)| (format!("@{s}"), i))
                .collect()
        }
        Arg::Group => {
            let q = bare.to_lowercase();
            let mut groups: Vec<&str> = st
                .data
                .users
                .all_groups()
                .into_iter()
                .flatten()
                .filter(|g| !g.deactivated && g.name.to_lowercase().contains(&q))
                .map(|g| g.name.as_str())
                .collect();
            groups.sort_by_key(|g| (!g.to_lowercase().starts_with(&q), g.to_lowercase()));
            groups.into_iter().take(SHOWN).map(|g| (g.to_owned(), format!("{} ", quoted(g)))).collect()
        }
        Arg::Topic => {
            // `:move-topic #channel NEW` names its channel; `:rename-topic` keeps the selected one's.
            let chan = match done.get(1).filter(|t| t.starts_with('#')) {
                Some(c) => c.trim_start_matches('#').replace('"', ""),
                None => super::common::selected_message(st)
                    .and_then(|m| m.stream_id())
                    .map(|c| st.data.channels.name(c).to_owned())
                    .unwrap_or_default(),
            };
            let typed = after_tokens(before, 1 + topic_at.unwrap_or(0)).to_owned();
            return (topics(st, &chan, &typed, fx, str::to_owned), typed);
        }
        Arg::Path => return (paths(st, &token, fx), file_part(&token).to_owned()),
        // Words the usage lists as they are typed (`[channel|all]`: issue 40, tab offered none).
        Arg::Other => choices(command::args(name, st.data.realm.server.feature_level), index)
            .into_iter()
            .filter(|c| c.starts_with(&bare.to_lowercase()))
            .map(|c| (c.to_owned(), format!("{c} ")))
            .collect(),
    };
    (out, token)
}

/// What follows the first `k` words of a palette line (a quoted word counts as one).
fn after_tokens(s: &str, k: usize) -> &str {
    let mut rest = s;
    for _ in 0..k {
        rest = rest.trim_start();
        let mut quoted = false;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                !quoted && c.is_whitespace()
            })
            .map_or(rest.len(), |(i, _)| i);
        rest = &rest[end..];
    }
    rest.trim_start()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_words_are_offered_and_placeholders_are_not() {
        assert_eq!(choices("[channel|all]", 0), ["channel", "all"]);
        assert_eq!(choices("[#channel] [one|later|all]", 1), ["one", "later", "all"]);
        assert!(choices("TEXT", 0).is_empty() && choices("[channel|all]", 1).is_empty());
        assert!(choices("A|B", 0).is_empty(), "placeholders in capitals");
    }

    #[test]
    fn argument_kinds_come_from_the_usage() {
        assert_eq!(arg_kinds("#channel [NEW]"), (vec![(Arg::Channel, false), (Arg::Topic, true)], false));
        assert_eq!(arg_kinds("GROUP USER …"), (vec![(Arg::Group, false), (Arg::Person, false)], true));
        assert_eq!(arg_kinds("[#channel] [user …]"), (vec![(Arg::Channel, true), (Arg::Person, true)], true));
        assert_eq!(arg_kinds("[@user]"), (vec![(Arg::Person, true)], false));
        assert_eq!(arg_kinds("PATH"), (vec![(Arg::Path, false)], false));
    }

    #[test]
    fn a_topic_is_the_rest_of_the_line() {
        assert_eq!(after_tokens("move-topic #\"big one\" release 2", 2), "release 2");
        assert_eq!(after_tokens("rename-topic ", 1), "");
        assert_eq!(after_tokens("rename-topic naming th", 1), "naming th");
    }

    #[test]
    fn names_with_spaces_are_quoted() {
        assert_eq!(quoted("Alice Okafor"), "\"Alice Okafor\"");
        assert_eq!(quoted("design"), "design");
    }
}
