//! Narrow filters of get-messages and flags/narrow.

use crate::error::{ApiErr, ApiResult};
use crate::org::{MessageRec, Org, Recip, strip_resolved};
use serde_json::Value;
use std::collections::BTreeSet;
use topicterm_api::names::same_name;

#[derive(Debug, Clone)]
enum Term {
    Channel(i64),
    Channels,
    /// `channels:archived`: messages of archived channels (in the viewer's own history).
    ArchivedChannels,
    Topic(String),
    Dm(Vec<i64>),
    DmWith(i64),
    /// `group-pm-with`: group conversations (three or more people) that include the user.
    GroupDmWith(i64),
    Sender(i64),
    Mentions(i64),
    Is(String),
    Has(String),
    /// Full-text search: lowercased words (each anywhere) and `"quoted phrases"` (as word lists).
    Search {
        words: Vec<String>,
        phrases: Vec<Vec<String>>,
    },
    Id(i64),
}

/// Words of a text for phrase matching: lowercased runs of letters and digits.
fn phrase_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// Split a `search` operand into plain words and `"quoted phrases"` (an unclosed quote runs to
/// the end), as the reference server does.
fn search_term(operand: &str) -> Term {
    let (mut words, mut phrases) = (Vec::new(), Vec::new());
    for (i, part) in operand.split('"').enumerate() {
        if i % 2 == 1 {
            let phrase = phrase_words(part);
            if !phrase.is_empty() {
                phrases.push(phrase);
            }
        } else {
            words.extend(part.split_whitespace().map(str::to_lowercase));
        }
    }
    Term::Search { words, phrases }
}

/// Do the phrase's words appear in `text` next to each other and in order (any case)?
fn has_phrase(text: &str, phrase: &[String]) -> bool {
    phrase_words(text).windows(phrase.len()).any(|w| w == phrase)
}

/// A parsed narrow for one viewer.
#[derive(Debug, Clone)]
pub struct Narrow {
    terms: Vec<(Term, bool)>,
    viewer: i64,
}

fn bad(msg: &str) -> ApiErr {
    ApiErr::new(axum::http::StatusCode::BAD_REQUEST, "BAD_NARROW", format!("Invalid narrow operator: {msg}"))
}

/// A user ID or email (the reference server has no `me`: clients resolve it).
fn user_operand(org: &Org, v: &Value) -> ApiResult<i64> {
    match v {
        Value::Number(n) => {
            n.as_i64().filter(|id| org.users.contains_key(id)).ok_or_else(|| bad("unknown user"))
        }
        Value::String(s) => match s.parse::<i64>() {
            Ok(id) if org.users.contains_key(&id) => Ok(id),
            _ => org.user_by_email(s).map(|u| u.id).ok_or_else(|| bad("unknown user")),
        },
        _ => Err(bad("invalid user operand")),
    }
}

fn user_list(org: &Org, v: &Value) -> ApiResult<Vec<i64>> {
    match v {
        Value::Array(items) => items.iter().map(|i| user_operand(org, i)).collect(),
        Value::String(s) if s.contains(',') => {
            s.split(',').map(|p| user_operand(org, &Value::String(p.trim().to_owned()))).collect()
        }
        other => Ok(vec![user_operand(org, other)?]),
    }
}

impl Narrow {
    /// Parse the `narrow` parameter: a list of `{operator, operand, negated}` objects or of
    /// `[operator, operand]` pairs.
    pub fn parse(org: &Org, viewer: i64, raw: Option<&Value>) -> ApiResult<Narrow> {
        let mut terms = Vec::new();
        let empty = Vec::new();
        let items = match raw {
            None | Some(Value::Null) => &empty,
            Some(Value::Array(a)) => a,
            Some(_) => return Err(ApiErr::bad("narrow is not a list")),
        };
        let mut with: Option<i64> = None;
        for item in items {
            let (op, operand, negated) = match item {
                Value::Array(pair) if pair.len() == 2 => {
                    (pair[0].as_str().unwrap_or("").to_owned(), pair[1].clone(), false)
                }
                Value::Object(o) => (
                    o.get("operator").and_then(Value::as_str).unwrap_or("").to_owned(),
                    o.get("operand").cloned().unwrap_or(Value::Null),
                    o.get("negated").and_then(Value::as_bool).unwrap_or(false),
                ),
                _ => return Err(ApiErr::bad("narrow elements must be objects or pairs")),
            };
            if let Some(e) = crate::levels::refuse_narrow_term(org.settings.feature_level, &op, &operand) {
                return Err(e);
            }
            let text = || operand.as_str().map(str::to_owned).unwrap_or_else(|| operand.to_string());
            let term = match op.as_str() {
                "channel" | "stream" => {
                    let id = match &operand {
                        Value::Number(n) => n.as_i64(),
                        Value::String(s) => {
                            s.parse::<i64>().ok().or_else(|| org.channel_named(s).map(|c| c.id))
                        }
                        _ => None,
                    };
                    let id = id
                        .filter(|id| org.can_access_channel(viewer, *id))
                        .ok_or_else(|| bad("unknown channel"))?;
                    Term::Channel(id)
                }
                "channels" | "streams" => match operand.as_str() {
                    Some("public") | Some("web-public") => Term::Channels,
                    // Refused before its level (`levels::refuse_narrow_term`).
                    Some("archived") => Term::ArchivedChannels,
                    _ => return Err(bad(&format!("unknown channels operand {}", text()))),
                },
                "topic" | "subject" => Term::Topic(org.topic_in(&text()).to_lowercase()),
                "dm" | "pm-with" => {
                    let mut users = user_list(org, &operand)?;
                    users.push(viewer);
                    users.sort_unstable();
                    users.dedup();
                    Term::Dm(users)
                }
                // No server knows `dm-with`: refused at every level (`levels::refuse_narrow_term`).
                "dm-including" => Term::DmWith(user_operand(org, &operand)?),
                "group-pm-with" => Term::GroupDmWith(user_operand(org, &operand)?),
                "sender" => Term::Sender(user_operand(org, &operand)?),
                "mentions" => Term::Mentions(user_operand(org, &operand)?),
                "is" => {
                    let t = text();
                    match t.as_str() {
                        "dm" | "private" | "starred" | "mentioned" | "unread" | "alerted" | "resolved"
                        | "followed" | "muted" => Term::Is(if t == "private" { "dm".into() } else { t }),
                        _ => return Err(bad(&format!("unknown 'is' operand {t}"))),
                    }
                }
                "has" => {
                    let t = text();
                    match t.as_str() {
                        "link" | "attachment" | "image" | "reaction" => Term::Has(t),
                        _ => return Err(bad(&format!("unknown 'has' operand {t}"))),
                    }
                }
                "search" => search_term(&text()),
                "id" => Term::Id(
                    operand.as_i64().or_else(|| text().parse().ok()).ok_or_else(|| bad("invalid id"))?,
                ),
                "with" => {
                    with = Some(
                        operand
                            .as_i64()
                            .or_else(|| text().parse().ok())
                            .ok_or_else(|| bad("invalid with"))?,
                    );
                    continue;
                }
                "near" => continue,
                _ => return Err(bad(&format!("unknown operator {op}"))),
            };
            terms.push((term, negated));
        }
        if let Some(mid) = with {
            // Follow the message to its current conversation.
            if let Some(m) = org.messages.get(&mid).filter(|m| org.can_read(viewer, m)) {
                terms.retain(|(t, _)| !matches!(t, Term::Channel(_) | Term::Topic(_) | Term::Dm(_)));
                match &m.recip {
                    Recip::Channel { id, topic } => {
                        terms.push((Term::Channel(*id), false));
                        terms.push((Term::Topic(topic.to_lowercase()), false));
                    }
                    Recip::Dm { users } => terms.push((Term::Dm(users.clone()), false)),
                }
            }
        }
        Ok(Narrow { terms, viewer })
    }

    /// Does the narrow search shared history (a channel operator) rather than the viewer's own?
    fn shared_history(&self) -> bool {
        self.terms.iter().any(|(t, neg)| !neg && matches!(t, Term::Channel(_) | Term::Channels))
    }

    fn term_matches(&self, org: &Org, m: &MessageRec, term: &Term) -> bool {
        let flags = org.user_msgs.get(&self.viewer).and_then(|ms| ms.get(&m.id));
        match term {
            Term::Channel(id) => m.channel_id() == Some(*id),
            Term::Channels => {
                m.channel_id().is_some_and(|c| org.channels.get(&c).is_some_and(|c| !c.invite_only))
            }
            Term::Topic(t) => m.channel_id().is_some() && same_name(m.topic(), t),
            Term::Dm(users) => matches!(&m.recip, Recip::Dm { users: u } if u == users),
            Term::ArchivedChannels => {
                m.channel_id().is_some_and(|c| org.channels.get(&c).is_some_and(|c| c.is_archived))
            }
            Term::DmWith(uid) => matches!(&m.recip, Recip::Dm { users } if users.contains(uid)),
            Term::GroupDmWith(uid) => {
                matches!(&m.recip, Recip::Dm { users } if users.len() > 2 && users.contains(uid))
            }
            Term::Sender(uid) => m.sender_id == *uid,
            Term::Mentions(uid) => m.rendered.mentioned_user_ids.contains(uid),
            Term::Is(what) => match what.as_str() {
                "dm" => matches!(m.recip, Recip::Dm { .. }),
                "starred" => flags.is_some_and(|f| f.starred),
                "mentioned" => flags.is_some_and(|f| f.mentioned || f.wildcard_mentioned),
                "alerted" => flags.is_some_and(|f| f.has_alert_word),
                "unread" => flags.is_some_and(|f| !f.read),
                "resolved" => m.channel_id().is_some() && m.topic() != strip_resolved(m.topic()),
                "followed" => {
                    m.channel_id().is_some_and(|c| org.topic_policy(self.viewer, c, m.topic()) == 3)
                }
                "muted" => m.channel_id().is_some_and(|c| {
                    let policy = org.topic_policy(self.viewer, c, m.topic());
                    let channel_muted = org
                        .channels
                        .get(&c)
                        .and_then(|ch| ch.subs.get(&self.viewer))
                        .is_some_and(|s| s.is_muted);
                    policy == 1 || (channel_muted && policy != 2 && policy != 3)
                }),
                _ => false,
            },
            Term::Has(what) => match what.as_str() {
                "link" => m.rendered.has_link,
                "image" => m.rendered.has_image,
                "attachment" => m.rendered.has_attachment,
                "reaction" => !m.reactions.is_empty(),
                _ => false,
            },
            Term::Search { words, phrases } => {
                let hay = format!("{} {}", m.topic(), m.content).to_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
                    && phrases.iter().all(|p| has_phrase(m.topic(), p) || has_phrase(&m.content, p))
            }
            Term::Id(id) => m.id == *id,
        }
    }

    /// The words a (not negated) `search` term looks for, if any: what results highlight.
    pub fn search_words(&self) -> Option<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        for (t, negated) in &self.terms {
            if let (Term::Search { words, phrases }, false) = (t, negated) {
                out.extend(words.iter().cloned());
                out.extend(phrases.iter().flatten().cloned());
            }
        }
        (!out.is_empty()).then_some(out)
    }

    pub fn matches(&self, org: &Org, m: &MessageRec) -> bool {
        self.terms.iter().all(|(t, neg)| self.term_matches(org, m, t) != *neg)
    }

    /// IDs of every message the viewer can read that matches, ascending.
    pub fn matching_ids(&self, org: &Org) -> Vec<i64> {
        if self.shared_history() {
            org.messages
                .values()
                .filter(|m| org.can_read(self.viewer, m) && self.matches(org, m))
                .map(|m| m.id)
                .collect()
        } else {
            let own: BTreeSet<i64> =
                org.user_msgs.get(&self.viewer).map(|m| m.keys().copied().collect()).unwrap_or_default();
            own.into_iter()
                .filter_map(|id| org.messages.get(&id))
                .filter(|m| self.matches(org, m))
                .map(|m| m.id)
                .collect()
        }
    }
}

/// `html` with every occurrence of the words (any case) marked `<span class="highlight">`, as
/// the reference server marks search results (`match_content`, `match_subject`).
pub fn highlight(html: &str, words: &[String]) -> String {
    topicterm_api::markup::mark_words(html, words, "highlight", false)
}
