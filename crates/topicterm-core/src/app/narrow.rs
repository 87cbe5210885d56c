//! Narrows (what the message pane shows) and the web app's search syntax.

use super::people::NameError;
use super::store::Stored;
use crate::api::names::same_name;
use crate::api::{ChannelId, Flag, MessageId, NarrowTerm, UserId};
use serde_json::json;

/// What the message pane shows (kept with the last session, hence serialisable).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Narrow {
    /// The combined feed: everything except muted channels and topics.
    #[default]
    All,
    Channel(ChannelId),
    Topic(ChannelId, String),
    /// Every direct message.
    AllDms,
    /// One DM conversation: the other participants, sorted (empty = notes to self).
    Dm(Vec<UserId>),
    Starred,
    Mentions,
    /// A search in the web app's syntax, already turned into terms.
    Search {
        query: String,
        terms: Vec<NarrowTerm>,
    },
}

impl std::hash::Hash for Narrow {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::mem::discriminant(self).hash(h);
        match self {
            Narrow::Channel(c) => c.hash(h),
            Narrow::Topic(c, t) => (c, t).hash(h),
            Narrow::Dm(u) => u.hash(h),
            // Equal searches have equal queries, so hashing the query alone is consistent.
            Narrow::Search { query, .. } => query.hash(h),
            Narrow::All | Narrow::AllDms | Narrow::Starred | Narrow::Mentions => {}
        }
    }
}

impl Narrow {
    /// The `narrow` parameter for get-messages.
    pub fn terms(&self, me: UserId) -> Vec<NarrowTerm> {
        match self {
            Narrow::All => vec![],
            Narrow::Channel(c) => vec![NarrowTerm::new("channel", *c)],
            Narrow::Topic(c, t) => vec![NarrowTerm::new("channel", *c), NarrowTerm::new("topic", t.as_str())],
            Narrow::AllDms => vec![NarrowTerm::new("is", "dm")],
            Narrow::Dm(users) => {
                let ids: Vec<UserId> = if users.is_empty() { vec![me] } else { users.clone() };
                vec![NarrowTerm::new("dm", json!(ids))]
            }
            Narrow::Starred => vec![NarrowTerm::new("is", "starred")],
            Narrow::Mentions => vec![NarrowTerm::new("is", "mentioned")],
            Narrow::Search { terms, .. } => terms.clone(),
        }
    }

    /// Whether selecting a message in this view marks it read: in every conversation and list
    /// view, never in a search's results (as the web app: a search is for finding, and it
    /// marked a group DM read that `/sender:Alice` only passed over).
    pub fn reads(&self) -> bool {
        !matches!(self, Narrow::Search { .. })
    }

    /// Does a message (arriving live) belong here? Searches are never extended live.
    pub fn contains(&self, m: &Stored, me: UserId) -> bool {
        match self {
            Narrow::All => true,
            Narrow::Channel(c) => m.stream_id() == Some(*c),
            Narrow::Topic(c, t) => m.stream_id() == Some(*c) && same_name(m.topic(), t),
            Narrow::AllDms => m.is_dm(),
            Narrow::Dm(users) => m.is_dm() && dm_key(&m.dm_user_ids(), me) == *users,
            Narrow::Starred => m.has_flag(Flag::Starred),
            Narrow::Mentions => m.mentions_me(),
            Narrow::Search { .. } => false,
        }
    }

    pub fn is_conversation(&self) -> bool {
        matches!(self, Narrow::Topic(..) | Narrow::Dm(_))
    }
}

/// The other participants of a DM, sorted, without me.
/// A web-app link's fragment (`narrow/channel/9-design/topic/q3.20plan/near/42`, the legacy
/// `stream`/`subject`/`pm-with` spellings, `narrow/dm/7,8-group`) as a narrow, and the message
/// it points at (`near`, `with`). `None` for fragments that are not a conversation.
pub fn from_fragment(fragment: &str, me: UserId) -> Option<(Narrow, Option<MessageId>)> {
    let rest = fragment.trim_start_matches('#').strip_prefix("narrow/")?;
    let parts: Vec<&str> = rest.split('/').collect();
    let (mut channel, mut topic, mut dm, mut near) = (None, None, None, None);
    let leading_id = |s: &str| s.split('-').next().and_then(|n| n.parse::<i64>().ok());
    for pair in parts.chunks(2) {
        let [op, operand] = pair else { return None };
        match *op {
            "channel" | "stream" => channel = Some(leading_id(operand)?),
            "topic" | "subject" => topic = Some(crate::api::urls::hash_decode(operand)),
            "dm" | "pm-with" => {
                let ids = operand.split('-').next()?;
                let ids: Option<Vec<UserId>> = ids.split(',').map(|n| n.parse().ok()).collect();
                dm = Some(dm_key(&ids?, me));
            }
            "near" | "with" => near = operand.parse::<MessageId>().ok(),
            _ => return None,
        }
    }
    let narrow = match (channel, topic, dm) {
        (Some(c), Some(t), None) => Narrow::Topic(c, t),
        (Some(c), None, None) => Narrow::Channel(c),
        (None, None, Some(users)) => Narrow::Dm(users),
        _ => return None,
    };
    Some((narrow, near))
}

pub fn dm_key(participants: &[UserId], me: UserId) -> Vec<UserId> {
    let mut v: Vec<UserId> = participants.iter().copied().filter(|u| *u != me).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Name lookups the search parser needs.
pub trait Resolver {
    fn channel_id(&self, name: &str) -> Option<ChannelId>;
    /// A user by ID, email or full name, by the one rule of `app::people`.
    fn user_id(&self, who: &str) -> Result<UserId, NameError>;
    /// The current user, whom `me` names in searches (`sender:me`, `dm:me`).
    fn me(&self) -> UserId;
}

/// A user operand: `me` (any case) is the current user, as in the web app; the server only
/// takes IDs and emails, so it is resolved here.
fn search_user(r: &dyn Resolver, who: &str) -> Result<UserId, SearchError> {
    if who.eq_ignore_ascii_case("me") {
        return Ok(r.me());
    }
    r.user_id(who).map_err(|e| SearchError::names(e.to_string()))
}

/// The longest search read, in characters, and the most operators and words in one: longer
/// ones are refused in these words, before any server or the archive's SQLite sees them
/// (3,000 `channel:` terms were "Expression tree is too large" there).
pub const MAX_SEARCH_CHARS: usize = 2000;
pub const MAX_SEARCH_TERMS: usize = 100;

/// Why a search cannot be read: its words, and whether it names a channel or person that is not
/// there or not alone (the scripts' "refused" status) rather than being malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchError {
    pub why: String,
    pub names_no_one: bool,
}

impl SearchError {
    fn syntax(why: impl Into<String>) -> SearchError {
        SearchError { why: why.into(), names_no_one: false }
    }
    fn names(why: impl Into<String>) -> SearchError {
        SearchError { why: why.into(), names_no_one: true }
    }
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

/// Split a query into tokens as typed, keeping `"quoted strings"` whole and with their quotes.
/// An unclosed quote runs to the end of the query and is closed there.
pub fn raw_tokens(q: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in q.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if quoted {
        cur.push('"');
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Split a query into tokens, keeping `"quoted strings"` whole (without the quotes).
pub fn tokens(q: &str) -> Vec<String> {
    raw_tokens(q).into_iter().map(|t| t.replace('"', "")).filter(|t| !t.is_empty()).collect()
}

/// Parse the web app's search syntax (`channel:x topic:"y z" sender:5 is:unread -sender:7 words`)
/// into narrow terms with ID operands. Unknown names are errors naming the token.
pub fn parse_search(query: &str, r: &dyn Resolver) -> Result<Vec<NarrowTerm>, String> {
    read_search(query, r).map_err(|e| e.why)
}

/// [`parse_search`], saying whether what failed is a name ([`SearchError::names_no_one`]).
pub fn read_search(query: &str, r: &dyn Resolver) -> Result<Vec<NarrowTerm>, SearchError> {
    let tokens = raw_tokens(query);
    if tokens.len() > MAX_SEARCH_TERMS {
        return Err(SearchError::syntax(format!(
            "the search has too many terms ({}; at most {MAX_SEARCH_TERMS}): search for fewer at once",
            tokens.len()
        )));
    }
    let chars = query.chars().count();
    if chars > MAX_SEARCH_CHARS {
        return Err(SearchError::syntax(format!(
            "the search is too long ({chars} characters; at most {MAX_SEARCH_CHARS}): search for fewer words"
        )));
    }
    let mut terms = Vec::new();
    let mut words = Vec::new();
    for tok in tokens {
        let (negated, body) = match tok.strip_prefix('-') {
            Some(rest) if rest.contains(':') => (true, rest),
            _ => (false, tok.as_str()),
        };
        // `op:value` or `op:"quoted value"`; a quoted phrase that holds a colon is a phrase.
        let Some((op, value)) = body
            .split_once(':')
            .map(|(op, v)| (op, v.replace('"', "")))
            .filter(|(op, v)| !op.is_empty() && !op.contains('"') && !v.is_empty())
        else {
            words.push(tok);
            continue;
        };
        let value = value.as_str();
        let op = op.to_lowercase();
        let term = match op.as_str() {
            "channel" | "stream" => {
                let id = r
                    .channel_id(value)
                    .ok_or_else(|| SearchError::names(format!("no channel named {value:?}")))?;
                NarrowTerm::new("channel", id)
            }
            "channels" | "streams" => NarrowTerm::new("channels", value),
            "topic" | "subject" => NarrowTerm::new("topic", value),
            "sender" | "from" => NarrowTerm::new("sender", search_user(r, value)?),
            "dm" | "pm-with" => {
                // People as the `x` prompt reads them: a full name may hold commas.
                let one = |w: &str| match w.trim() {
                    w if w.eq_ignore_ascii_case("me") => Ok(r.me()),
                    w => r.user_id(w),
                };
                let ids = crate::app::people::people_in(value, one)
                    .map_err(|e| SearchError::names(e.to_string()))?;
                if ids.is_empty() {
                    return Err(SearchError::syntax(format!("{op}: needs a person")));
                }
                NarrowTerm::new("dm", json!(ids))
            }
            // `dm-with` is the web app's search box name; every server knows `dm-including`.
            "dm-with" | "dm-including" => NarrowTerm::new("dm-including", search_user(r, value)?),
            "mentions" => NarrowTerm::new("mentions", search_user(r, value)?),
            "is" => match value {
                "dm" | "private" | "starred" | "mentioned" | "unread" | "alerted" | "resolved"
                | "followed" | "muted" => {
                    NarrowTerm::new("is", if value == "private" { "dm" } else { value })
                }
                _ => return Err(SearchError::syntax(format!("unknown is:{value}"))),
            },
            "has" => match value {
                "link" | "links" | "attachment" | "attachments" | "image" | "images" | "reaction"
                | "reactions" => NarrowTerm::new("has", value.trim_end_matches('s')),
                _ => return Err(SearchError::syntax(format!("unknown has:{value}"))),
            },
            "id" | "near" | "with" => {
                let id: i64 =
                    value.parse().map_err(|_| SearchError::syntax(format!("{op}: needs a message ID")))?;
                NarrowTerm::new(&op, id)
            }
            _ => {
                words.push(tok);
                continue;
            }
        };
        terms.push(if negated { term.negate() } else { term });
    }
    // Quoted phrases keep their quotes: the server matches them as phrases.
    if !words.is_empty() {
        terms.push(NarrowTerm::new("search", words.join(" ")));
    }
    if terms.is_empty() {
        return Err(SearchError::syntax("empty search"));
    }
    Ok(terms)
}

#[cfg(test)]
mod tests {

    /// A topic's view holds its messages whatever the case of their topic, in every script,
    /// as the server's narrow does (`UPPER(subject) = UPPER(%s)`).
    #[test]
    fn a_topic_holds_its_messages_in_any_case_in_every_script() {
        let m = |topic: &str| {
            let m: crate::api::Message = serde_json::from_value(serde_json::json!({
                "id": 1, "type": "stream", "content": "<p>x</p>", "display_recipient": "eng",
                "sender_id": 2, "sender_full_name": "A", "stream_id": 9, "subject": topic,
                "timestamp": 1, "flags": [],
            }))
            .unwrap();
            Stored::from(m)
        };
        let apples = Narrow::Topic(9, "äpfel".into());
        assert!(apples.contains(&m("Äpfel"), 1) && apples.contains(&m("ÄPFEL"), 1));
        assert!(!apples.contains(&m("Apfel"), 1));
        assert!(Narrow::Topic(9, "Plans".into()).contains(&m("plans"), 1));
    }

    #[test]
    fn web_app_fragments_become_narrows() {
        let me = 1;
        assert_eq!(
            from_fragment("narrow/channel/9-design/topic/q3.20plan/near/42", me),
            Some((Narrow::Topic(9, "q3 plan".into()), Some(42)))
        );
        assert_eq!(
            from_fragment("#narrow/stream/9-design/subject/a.2Eb", me),
            Some((Narrow::Topic(9, "a.b".into()), None))
        );
        assert_eq!(from_fragment("narrow/channel/9-design", me), Some((Narrow::Channel(9), None)));
        assert_eq!(from_fragment("narrow/dm/7,1,3-group", me), Some((Narrow::Dm(vec![3, 7]), None)));
        assert_eq!(from_fragment("narrow/pm-with/7-alice/near/5", me), Some((Narrow::Dm(vec![7]), Some(5))));
        assert_eq!(from_fragment("narrow/is/starred", me), None);
        assert_eq!(from_fragment("inbox", me), None);
        assert_eq!(from_fragment("narrow/channel/x-design", me), None);
    }
    use super::*;

    struct R;
    impl Resolver for R {
        fn channel_id(&self, name: &str) -> Option<ChannelId> {
            (name.eq_ignore_ascii_case("design")).then_some(12)
        }
        fn user_id(&self, who: &str) -> Result<UserId, NameError> {
            match who {
                "5" | "alice@x" | "Alice Okafor" => Ok(5),
                "7" => Ok(7),
                "Othello, the Moor of Venice" => Ok(9),
                _ => Err(NameError::Nobody { who: who.into(), could: vec![] }),
            }
        }
        fn me(&self) -> UserId {
            7
        }
    }

    #[test]
    fn a_dm_operand_takes_a_full_name_with_a_comma() {
        let t = parse_search(r#"dm:"Othello, the Moor of Venice,alice@x" hi"#, &R).unwrap();
        assert_eq!(serde_json::to_value(&t[0]).unwrap(), json!({"operator": "dm", "operand": [9, 5]}));
        assert!(parse_search("dm:,", &R).unwrap_err().contains("needs a person"));
    }

    #[test]
    fn web_syntax_to_terms() {
        let t =
            parse_search(r#"channel:design -sender:7 topic:"q3 plan" is:unread has:links words here"#, &R)
                .unwrap();
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(
            v,
            json!([
                {"operator": "channel", "operand": 12},
                {"operator": "sender", "operand": 7, "negated": true},
                {"operator": "topic", "operand": "q3 plan"},
                {"operator": "is", "operand": "unread"},
                {"operator": "has", "operand": "link"},
                {"operator": "search", "operand": "words here"},
            ])
        );
    }

    #[test]
    fn unknown_names_are_errors() {
        assert!(parse_search("channel:nope", &R).unwrap_err().contains("nope"));
        assert!(parse_search("sender:bob", &R).unwrap_err().contains("bob"));
        assert!(parse_search("is:weird", &R).is_err());
        assert!(parse_search("   ", &R).is_err());
    }

    #[test]
    fn me_is_the_current_user() {
        let t = parse_search("sender:me", &R).unwrap();
        assert_eq!(t, vec![NarrowTerm::new("sender", 7)]);
        let t = parse_search("-sender:ME dm:me,5 mentions:me", &R).unwrap();
        assert_eq!(
            t,
            vec![
                NarrowTerm::new("sender", 7).negate(),
                NarrowTerm::new("dm", json!([7, 5])),
                NarrowTerm::new("mentions", 7),
            ]
        );
    }

    #[test]
    fn quoted_phrases_keep_their_quotes_in_the_search_operand() {
        let t = parse_search(r#""topics muted""#, &R).unwrap();
        assert_eq!(t, vec![NarrowTerm::new("search", r#""topics muted""#)]);
        let t = parse_search(r#"inbox "muted  topics" topic:"q3 plan" bug"#, &R).unwrap();
        assert_eq!(
            t,
            vec![
                NarrowTerm::new("topic", "q3 plan"),
                NarrowTerm::new("search", r#"inbox "muted  topics" bug"#)
            ]
        );
        // An unclosed quote runs to the end and is closed for the server.
        let t = parse_search(r#"say "hello there"#, &R).unwrap();
        assert_eq!(t, vec![NarrowTerm::new("search", r#"say "hello there""#)]);
    }

    #[test]
    fn plain_words_and_colons_in_text() {
        let t = parse_search("error: timeout -x", &R).unwrap();
        assert_eq!(t, vec![NarrowTerm::new("search", "error: timeout -x")]);
        let t = parse_search("dm:5,7", &R).unwrap();
        assert_eq!(t, vec![NarrowTerm::new("dm", json!([5, 7]))]);
    }
}
