//! Searching the archive: the web app's search syntax, read by the client's own parser
//! (`app::narrow::parse_search`, its names looked up in what the archive knows), its terms
//! translated into SQL and an FTS5 query. User text never becomes SQL: every operand is a bound
//! parameter, and every word is quoted for FTS5 (its syntax — `AND`, `NEAR`, `*`, `^`, `:` —
//! is read as words).

use super::store::{
    FLAGS, HAS_ATTACHMENT, HAS_IMAGE, HAS_LINK, HAS_REACTION, MENTIONED, ROW, Store, dm_key, flag_bit,
    from_row,
};
use crate::api::{ChannelId, Flag, Message, NarrowTerm, UserId};
use crate::app::narrow::{Resolver, SearchError, raw_tokens, read_search};
use crate::app::people::{NameError, Person, person};
use crate::names::same_name;
use rusqlite::types::Value;

/// What the archive knows of names: its channels and people, and who the user is.
pub struct Known {
    channels: Vec<(ChannelId, String)>,
    people: Vec<(UserId, String, String)>,
    me: UserId,
}

impl Known {
    pub fn of(store: &Store) -> rusqlite::Result<Known> {
        let conn = store.conn();
        // Every channel a kept message is in is there (`store::put`): no scan of the messages.
        let mut stmt = conn.prepare("SELECT id, name FROM channels")?;
        let channels = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        let mut stmt = conn.prepare("SELECT id, name, email FROM people")?;
        let people =
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_, _>>()?;
        Ok(Known { channels, people, me: store.me()?.unwrap_or(-1) })
    }
}

impl Resolver for Known {
    fn channel_id(&self, name: &str) -> Option<ChannelId> {
        let name = name.trim_start_matches('#');
        self.channels.iter().find(|(_, n)| same_name(n, name)).map(|(id, _)| *id)
    }
    /// By the one rule of `app::people`, among the people the archive has seen.
    fn user_id(&self, who: &str) -> Result<UserId, NameError> {
        let people = self.people.iter().map(|(id, name, email)| Person {
            id: *id,
            full_name: name,
            email,
            active: true,
        });
        // An ID is taken as it is: the archive may hold messages of someone it has no name for.
        person(people, |_| true, who)
    }
    fn me(&self) -> UserId {
        self.me
    }
}

/// A search as SQL: the `WHERE` clause and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Sql {
    pub clause: String,
    pub params: Vec<Value>,
}

/// Read a query in the web app's syntax against what the archive knows.
pub fn parse(query: &str, known: &Known) -> Result<Vec<NarrowTerm>, SearchError> {
    read_search(query, known)
}

/// A message found, and its text as searched (the HTML's text, on one line, sanitized).
#[derive(Debug, Clone)]
pub struct Found {
    pub message: Message,
    pub text: String,
}

/// The newest `limit` messages matching the terms, oldest first.
pub fn search(store: &Store, terms: &[NarrowTerm], limit: u32) -> Result<Vec<Found>, String> {
    let me = store.me().map_err(|e| e.to_string())?.unwrap_or(-1);
    let sql = translate(terms, me)?;
    let text = format!(
        "SELECT {ROW}, text FROM messages WHERE {} AND id NOT IN (SELECT id FROM doubt)
         ORDER BY id DESC LIMIT {}",
        sql.clause,
        limit.max(1)
    );
    let run = || -> rusqlite::Result<Vec<Found>> {
        let mut stmt = store.conn().prepare(&text)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(sql.params.iter()), |r| {
            let text = r.get(10)?;
            Ok(from_row(r)?.map(|message| Found { message, text }))
        })?;
        let mut found: Vec<Found> = rows.filter_map(|r| r.transpose()).collect::<Result<_, _>>()?;
        found.reverse();
        Ok(found)
    };
    run().map_err(|e| format!("the archive could not be searched: {e}"))
}

/// The terms as a `WHERE` clause with bound parameters (`me`: whom `dm:` adds to a conversation).
pub fn translate(terms: &[NarrowTerm], me: UserId) -> Result<Sql, String> {
    let mut clauses = Vec::new();
    let mut params = Vec::new();
    for t in terms {
        let Some(clause) = clause(t, me, &mut params)? else { continue };
        clauses.push(if t.negated { format!("NOT coalesce(({clause}), 0)") } else { format!("({clause})") });
    }
    if clauses.is_empty() {
        clauses.push("1".into());
    }
    Ok(Sql { clause: clauses.join(" AND "), params })
}

/// The bit a flag's `is:` tests.
fn flag_test(bits: i64) -> String {
    format!("flags & {bits} != 0")
}

/// One term as SQL (`None`: it filters nothing, as `near:`), its operands pushed as parameters.
fn clause(t: &NarrowTerm, me: UserId, params: &mut Vec<Value>) -> Result<Option<String>, String> {
    let op = t.operator.as_str();
    let int = |params: &mut Vec<Value>| -> Result<(), String> {
        let id = t.operand.as_i64().ok_or_else(|| format!("{op}: needs an ID"))?;
        params.push(Value::Integer(id));
        Ok(())
    };
    let n = |params: &Vec<Value>| params.len() + 1;
    let sql = match op {
        "channel" => {
            int(params)?;
            format!("channel_id = ?{}", n(params) - 1)
        }
        "sender" => {
            int(params)?;
            format!("sender_id = ?{}", n(params) - 1)
        }
        "id" => {
            int(params)?;
            format!("id = ?{}", n(params) - 1)
        }
        "near" | "with" => return Ok(None),
        "topic" => {
            let topic = t.operand.as_str().ok_or("topic: needs a topic")?;
            params.push(Value::Text(topic.to_owned()));
            // ASCII is matched through the index; other scripts by the server's rule.
            let at = n(params) - 1;
            if topic.is_ascii() {
                format!("topic = ?{at} COLLATE NOCASE")
            } else {
                format!("same_name(topic, ?{at})")
            }
        }
        "dm" => {
            let ids: Vec<UserId> = t
                .operand
                .as_array()
                .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect())
                .ok_or("dm: needs people")?;
            params.push(Value::Text(dm_key(ids.into_iter().chain([me]))));
            format!("dm_key = ?{}", n(params) - 1)
        }
        "dm-including" => {
            let id = t.operand.as_i64().ok_or("dm-including: needs a person")?;
            params.push(Value::Text(format!(",{id},")));
            format!("instr(dm_key, ?{}) > 0", n(params) - 1)
        }
        "mentions" if t.operand.as_i64() == Some(me) => flag_test(MENTIONED),
        "is" => match t.operand.as_str().unwrap_or_default() {
            "dm" => "dm_key IS NOT NULL".into(),
            "starred" => flag_test(flag_bit(&Flag::Starred)),
            "mentioned" => flag_test(MENTIONED),
            "alerted" => flag_test(flag_bit(&Flag::HasAlertWord)),
            "unread" => format!("flags & {} = 0", flag_bit(&Flag::Read)),
            "resolved" => "topic LIKE '✔ %'".into(),
            other => return Err(format!("is:{other} is not kept in the archive")),
        },
        "has" => match t.operand.as_str().unwrap_or_default() {
            "link" => format!("has & {HAS_LINK} != 0"),
            "attachment" => format!("has & {HAS_ATTACHMENT} != 0"),
            "image" => format!("has & {HAS_IMAGE} != 0"),
            "reaction" => format!("has & {HAS_REACTION} != 0"),
            other => return Err(format!("has:{other} is not kept in the archive")),
        },
        "search" => return Ok(words(t.operand.as_str().unwrap_or_default(), params)),
        other => return Err(format!("{other}: is not kept in the archive")),
    };
    debug_assert!(FLAGS.len() < 63);
    Ok(Some(sql))
}

/// Words and quoted phrases as FTS5 matches: every word must be there (the last one as a
/// prefix: the user may still be typing it), `-word` must not; each quoted as an FTS5 string.
fn words(text: &str, params: &mut Vec<Value>) -> Option<String> {
    let tokens = raw_tokens(text);
    let last = tokens.len().saturating_sub(1);
    let (mut wanted, mut unwanted) = (Vec::new(), Vec::new());
    for (i, tok) in tokens.iter().enumerate() {
        let phrase = tok.starts_with('"');
        let (negated, body) = match tok.strip_prefix('-') {
            Some(rest) if !phrase && rest.chars().any(char::is_alphanumeric) => (true, rest),
            _ => (false, tok.as_str()),
        };
        let body = body.replace('"', "");
        // Nothing FTS5 would index (punctuation alone) filters nothing.
        if !body.chars().any(char::is_alphanumeric) {
            continue;
        }
        let quoted = format!("\"{body}\"");
        if negated {
            unwanted.push(quoted);
        } else if i == last && !phrase {
            wanted.push(format!("{quoted} *"));
        } else {
            wanted.push(quoted);
        }
    }
    let mut clauses = Vec::new();
    if !wanted.is_empty() {
        params.push(Value::Text(wanted.join(" AND ")));
        clauses.push(format!("id IN (SELECT rowid FROM fts WHERE fts MATCH ?{})", params.len()));
    }
    if !unwanted.is_empty() {
        params.push(Value::Text(unwanted.join(" OR ")));
        clauses.push(format!("id NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?{})", params.len()));
    }
    (!clauses.is_empty()).then(|| clauses.join(" AND "))
}

#[cfg(test)]
mod tests {
    use super::super::store::{Change, open};
    use super::*;
    use crate::api::MessageId;
    use serde_json::json;

    const ME: UserId = 7;
    const ALICE: (UserId, &str, &str) = (5, "Alice Okafor", "alice@x");
    const BOB: (UserId, &str, &str) = (8, "Bob", "bob@x");
    const I: (UserId, &str, &str) = (ME, "Me", "me@x");

    fn message(id: MessageId, v: serde_json::Value) -> Message {
        let mut base = json!({
            "id": id, "type": "stream", "content": "<p>nothing</p>", "display_recipient": "design",
            "stream_id": 9, "subject": "plans", "sender_id": 5, "sender_full_name": "Alice Okafor",
            "sender_email": "alice@x", "timestamp": 1000 + id, "flags": ["read"],
        });
        for (k, val) in v.as_object().unwrap() {
            base[k] = val.clone();
        }
        serde_json::from_value(base).unwrap()
    }

    /// A direct message among `with`, the first its sender.
    fn dm(id: MessageId, with: &[(UserId, &str, &str)], content: &str) -> Message {
        let users: Vec<_> =
            with.iter().map(|(id, n, e)| json!({"id": id, "full_name": n, "email": e})).collect();
        let (sender, name, email) = with[0];
        message(
            id,
            json!({"type": "private", "display_recipient": users, "stream_id": null, "subject": "",
            "content": content, "sender_id": sender, "sender_full_name": name, "sender_email": email}),
        )
    }

    /// An archive holding a few messages of every kind.
    fn archive() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut s = open(
            &dir.path().join("a.db"),
            &crate::files::Owner::new("me@example.com", "https://chat.example.com"),
        )
        .unwrap();
        let put = |m: Message| Change::Put(Box::new(m));
        s.apply(&[
            Change::Me(ME),
            Change::Channel { id: 9, name: "design".into(), private: false },
            Change::Channel { id: 10, name: "ops".into(), private: false },
            put(message(1, json!({"content": "<p>the deploy failed again</p>"}))),
            put(message(2, json!({"content": "<p>Déploiement réussi</p>", "subject": "Q3 Plan", "flags": []}))),
            put(message(3, json!({"stream_id": 10, "display_recipient": "ops", "subject": "alerts",
                "content": "<p>see <a href=\"https://x.org\">the page</a></p>", "flags": ["read", "starred"]}))),
            put(message(4, json!({"sender_id": 8, "sender_full_name": "Bob", "sender_email": "bob@x",
                "content": "<p>@<strong>Me</strong> deploy it AND NEAR(x) \"now\"</p>", "flags": ["read", "mentioned"]}))),
            put(message(5, json!({"content": "<p><a href=\"/user_uploads/1/a/b.pdf\">b.pdf</a></p>"}))),
            put(message(6, json!({"content": "<div class=\"message_inline_image\"><a href=\"/user_uploads/1/c.png\"><img src=\"/user_uploads/1/c.png\"></a></div>"}))),
            put(dm(7, &[ALICE, I], "<p>deployment secrets</p>")),
            put(dm(8, &[BOB, ALICE, I], "<p>group deploy</p>")),
        ])
        .unwrap();
        (dir, s)
    }

    fn ids(s: &Store, query: &str) -> Vec<MessageId> {
        let known = Known::of(s).unwrap();
        let terms = parse(query, &known).unwrap_or_else(|e| panic!("{query}: {e}"));
        search(s, &terms, 100).unwrap().iter().map(|f| f.message.id).collect()
    }

    #[test]
    fn channel() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "channel:ops"), vec![3]);
        assert_eq!(ids(&s, "stream:#Design deploy"), vec![1, 4]);
    }

    #[test]
    fn a_channel_register_did_not_name_is_found_by_the_name_its_messages_give() {
        let (_d, mut s) = archive();
        let notes =
            message(9, json!({"stream_id": 42, "display_recipient": "field-notes", "content": "<p>x</p>"}));
        s.apply(&[Change::Put(Box::new(notes))]).unwrap();
        assert_eq!(ids(&s, "channel:field-notes"), vec![9]);
        // Register's name, when it comes, is the one searched.
        s.apply(&[Change::Channel { id: 42, name: "notes".into(), private: false }]).unwrap();
        assert_eq!(ids(&s, "channel:notes"), vec![9]);
    }

    #[test]
    fn topic_any_case() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, r#"topic:"q3 plan""#), vec![2]);
    }

    /// The server takes topics that differ only in case as one in every script, not in ASCII
    /// alone ("Äpfel" and "äPFEL"), and so does a search of the archive.
    #[test]
    fn topic_any_case_in_every_script() {
        let (_d, mut s) = archive();
        let apples = message(9, json!({"subject": "Äpfel", "content": "<p>fruit</p>"}));
        s.apply(&[Change::Put(Box::new(apples))]).unwrap();
        assert_eq!(ids(&s, "topic:äPFEL"), vec![9]);
        assert!(ids(&s, "topic:apfel").is_empty());
    }

    #[test]
    fn sender_by_name_email_id_or_me() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "sender:bob@x"), vec![4, 8]);
        assert_eq!(ids(&s, "sender:Bob channel:design"), vec![4]);
        assert_eq!(ids(&s, "sender:8 is:dm"), vec![8]);
        assert!(ids(&s, "sender:me").is_empty());
        let known = Known::of(&s).unwrap();
        assert!(parse("sender:Bo", &known).unwrap_err().why.contains("Bo"), "a prefix names no one");
    }

    #[test]
    fn dm_is_one_conversation_and_dm_with_any_including() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "dm:alice@x"), vec![7]);
        assert_eq!(ids(&s, "dm:bob@x,alice@x"), vec![8]);
        assert_eq!(ids(&s, "dm-with:alice@x"), vec![7, 8]);
        assert_eq!(ids(&s, "is:dm"), vec![7, 8]);
    }

    #[test]
    fn is_starred_mentioned_unread() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "is:starred"), vec![3]);
        assert_eq!(ids(&s, "is:mentioned"), vec![4]);
        assert_eq!(ids(&s, "is:unread"), vec![2]);
        let known = Known::of(&s).unwrap();
        let terms = parse("is:followed", &known).unwrap();
        assert!(search(&s, &terms, 10).unwrap_err().contains("is:followed"));
    }

    #[test]
    fn has_link_attachment_image() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "has:link"), vec![3, 5, 6]);
        assert_eq!(ids(&s, "has:attachment"), vec![5, 6]);
        assert_eq!(ids(&s, "has:image"), vec![6]);
    }

    #[test]
    fn negation_of_operators_and_words() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "-channel:design"), vec![3, 7, 8], "direct messages are in no channel");
        assert_eq!(ids(&s, "deploy -is:dm"), vec![1, 4]);
        assert_eq!(ids(&s, "deploy -failed"), vec![4, 8]);
        assert_eq!(ids(&s, "-has:link -is:dm -is:starred"), vec![1, 2, 4]);
    }

    #[test]
    fn words_without_diacritics_the_last_one_a_prefix() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, "deploiement"), vec![2], "diacritics removed");
        assert_eq!(ids(&s, "deplo"), vec![1, 2, 4, 7, 8], "the last word as a prefix");
        assert_eq!(ids(&s, "failed deplo"), vec![1]);
        assert!(ids(&s, "deplo secrets").is_empty(), "only the last word is a prefix");
    }

    #[test]
    fn quoted_phrases() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, r#""deploy failed""#), vec![1]);
        assert_eq!(ids(&s, r#""failed deploy""#), Vec::<MessageId>::new(), "a phrase's words in its order");
        assert_eq!(ids(&s, "failed deploy"), vec![1], "words in any order");
        assert_eq!(ids(&s, r#""failed again""#), vec![1]);
        assert_eq!(ids(&s, r#""group deploy" -failed"#), vec![8]);
    }

    #[test]
    fn fts_syntax_in_the_query_is_read_as_words() {
        let (_d, s) = archive();
        assert_eq!(ids(&s, r#"AND NEAR(x) "now""#), vec![4]);
        assert_eq!(ids(&s, "deploy OR"), Vec::<MessageId>::new(), "OR is a word, not an operator");
        assert_eq!(ids(&s, "topic:plans ')--"), vec![1, 4, 5, 6], "punctuation alone filters nothing");
        assert_eq!(ids(&s, "\"it\"\" *"), vec![4]);
        let sql = translate(&[NarrowTerm::new("topic", "x' OR 1=1 --")], ME).unwrap();
        assert_eq!(sql.clause, "(topic = ?1 COLLATE NOCASE)", "operands are bound, never in the SQL");
    }
}
