//! Naming people from text: the one rule every place that turns typed text into a person
//! follows — the `c`/`x` prompts and `ctrl+g`, palette arguments, search operands, and the
//! scripting commands (`topicterm send`, `tail sender:`/`dm:`).
//!
//! - An ID always works: `7`, `id:7`, or the mention form `**Name|7**` / `Name|7`.
//! - A text with `@` in it is an email, and matches only the user whose email it is: a full
//!   name never matches as an email (anyone can rename themselves `bob@example.com`).
//! - Otherwise it is a full name, matched whole (any case). A name two people share is
//!   ambiguous: refused, naming each with their email, never the first one found.
//! - A prefix, or an email's local part, never picks anyone: it is offered as a suggestion, as
//!   whoever joins tomorrow as `a…` would otherwise take `@a`'s messages.
//!
//! [`Names`] indexes who holds which full name, so a view can tell in O(1) that a name is shared
//! and show the email beside it. A leaf: it names no `State`.

use crate::api::UserId;
use std::collections::HashMap;

/// A person as the rule sees them.
#[derive(Debug, Clone, Copy)]
pub struct Person<'a> {
    pub id: UserId,
    pub full_name: &'a str,
    pub email: &'a str,
    pub active: bool,
}

/// Why a text names no one person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    /// No one answers to it; the few whose names start with it, to suggest (name, email).
    Nobody { who: String, could: Vec<(String, String)> },
    /// Several people share the name: each, with their email.
    Shared { who: String, people: Vec<(String, String)> },
    /// Only some people are known here (`--low-bandwidth`) and the text is a name anyone may
    /// hold, or names no one known: the whole list is being read, nobody is picked meanwhile.
    NotListed { who: String },
}

/// What a prompt says while it waits for the whole list of people.
pub const READING_PEOPLE: &str = "reading the people list…";

/// What a prompt says while it waits for the user groups.
pub const READING_GROUPS: &str = "reading the user groups…";

/// Whether `who` names one person by what only they hold (an ID, an email), so a list of only
/// some people can decide it when it holds them.
pub fn decides_alone(who: &str) -> bool {
    let who = who.trim().trim_start_matches('@').trim_matches('*').trim();
    id_form(who).is_some() || who.contains('@')
}

/// At most this many people are named in a refusal.
const NAMED: usize = 5;

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |people: &[(String, String)]| {
            let mut s =
                people.iter().take(NAMED).map(|(n, e)| format!("{n} ({e})")).collect::<Vec<_>>().join(", ");
            if people.len() > NAMED {
                s.push_str(", …");
            }
            s
        };
        match self {
            NameError::Nobody { who, could } if could.is_empty() => write!(f, "no one is named {who:?}"),
            NameError::Nobody { who, could } => {
                write!(
                    f,
                    "no one is named {who:?}; did you mean {}? (name them in full or by email)",
                    list(could)
                )
            }
            NameError::Shared { who, people } => {
                write!(f, "{} people are named {who:?}: {}; name one by email", people.len(), list(people))
            }
            NameError::NotListed { who } => {
                write!(f, "{READING_PEOPLE} ({who:?} is looked up among everyone once it is read)")
            }
        }
    }
}

/// The one person `who` names, by the rule above. `known` says whether an ID is a user's.
pub fn person<'a>(
    people: impl Iterator<Item = Person<'a>> + Clone,
    known: impl Fn(UserId) -> bool,
    who: &str,
) -> Result<UserId, NameError> {
    let who = who.trim().trim_start_matches('@').trim_matches('*').trim();
    let nobody = |could| NameError::Nobody { who: who.to_owned(), could };
    if who.is_empty() {
        return Err(nobody(vec![]));
    }
    if let Some(id) = id_form(who) {
        return if known(id) { Ok(id) } else { Err(nobody(vec![])) };
    }
    let active = people.filter(|p| p.active);
    let named = |p: &Person| (p.full_name.to_owned(), p.email.to_owned());
    if who.contains('@') {
        return active
            .clone()
            .find(|p| p.email.eq_ignore_ascii_case(who))
            .map(|p| p.id)
            .ok_or_else(|| nobody(vec![]));
    }
    let lower = who.to_lowercase();
    let mut same: Vec<Person> = active.clone().filter(|p| p.full_name.to_lowercase() == lower).collect();
    match same.len() {
        1 => return Ok(same[0].id),
        0 => {}
        _ => {
            same.sort_by(|a, b| a.email.cmp(b.email));
            return Err(NameError::Shared { who: who.to_owned(), people: same.iter().map(named).collect() });
        }
    }
    let mut could: Vec<Person> = active
        .filter(|p| {
            p.full_name.to_lowercase().starts_with(&lower)
                || p.email.split('@').next().is_some_and(|l| l.eq_ignore_ascii_case(who))
        })
        .collect();
    could.sort_by(|a, b| a.full_name.cmp(b.full_name).then(a.email.cmp(b.email)));
    Err(nobody(could.iter().take(NAMED + 1).map(named).collect()))
}

/// `7`, `id:7`, `Name|7`: the ID it gives.
fn id_form(who: &str) -> Option<UserId> {
    if let Ok(id) = who.parse() {
        return Some(id);
    }
    if let Some(id) = who.strip_prefix("id:") {
        return id.trim().parse().ok();
    }
    who.rsplit_once('|').and_then(|(_, id)| id.trim().parse().ok())
}

/// Who holds which full name (any case), to tell a shared name in O(1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Names {
    by_name: HashMap<String, Vec<UserId>>,
}

impl Names {
    /// The index of these people (O(people): built where the users are read).
    pub fn of<'a>(people: impl Iterator<Item = (UserId, &'a str)>) -> Names {
        let mut names = Names::default();
        for (id, name) in people {
            names.add(id, name);
        }
        names
    }

    pub fn add(&mut self, id: UserId, name: &str) {
        let ids = self.by_name.entry(name.to_lowercase()).or_default();
        if !ids.contains(&id) {
            ids.push(id);
        }
    }

    pub fn remove(&mut self, id: UserId, name: &str) {
        let key = name.to_lowercase();
        if let Some(ids) = self.by_name.get_mut(&key) {
            ids.retain(|x| *x != id);
            if ids.is_empty() {
                self.by_name.remove(&key);
            }
        }
    }

    /// Whether more than one person is called `name`.
    pub fn shared(&self, name: &str) -> bool {
        self.by_name.get(&name.to_lowercase()).is_some_and(|ids| ids.len() > 1)
    }

    /// Who is called `name` (any case).
    pub fn holders(&self, name: &str) -> &[UserId] {
        self.by_name.get(&name.to_lowercase()).map_or(&[], Vec::as_slice)
    }

    /// Whether `id` is indexed under `name`.
    pub fn holds(&self, id: UserId, name: &str) -> bool {
        self.holders(name).contains(&id)
    }

    /// How many people are indexed (O(names): for checks).
    pub fn len(&self) -> usize {
        self.by_name.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PEOPLE: &[(UserId, &str, &str, bool)] = &[
        (1, "Alice Okafor", "alice@demo.test", true),
        (2, "Bob Nakamura", "bob@demo.test", true),
        (3, "Bob Nakamura", "mallory@demo.test", true),
        (4, "bob@demo.test", "eve@demo.test", true),
        (5, "Farid Haddad", "farid@demo.test", true),
        (6, "Gone Person", "gone@demo.test", false),
    ];

    fn find(who: &str) -> Result<UserId, NameError> {
        let people =
            PEOPLE.iter().map(|&(id, full_name, email, active)| Person { id, full_name, email, active });
        person(people, |id| PEOPLE.iter().any(|p| p.0 == id), who)
    }

    #[test]
    fn an_email_names_only_the_user_whose_email_it_is() {
        assert_eq!(find("bob@demo.test"), Ok(2));
        assert_eq!(find("@BOB@demo.test"), Ok(2));
        // Eve's full name is Bob's email: she is never picked by it, nor by her name as an email.
        assert_eq!(
            find("nobody@demo.test"),
            Err(NameError::Nobody { who: "nobody@demo.test".into(), could: vec![] })
        );
        assert_eq!(find("eve@demo.test"), Ok(4));
    }

    #[test]
    fn a_shared_name_is_refused_with_everyone_who_holds_it() {
        let err = find("bob nakamura").unwrap_err();
        assert_eq!(
            err,
            NameError::Shared {
                who: "bob nakamura".into(),
                people: vec![
                    ("Bob Nakamura".into(), "bob@demo.test".into()),
                    ("Bob Nakamura".into(), "mallory@demo.test".into())
                ]
            }
        );
        assert_eq!(
            err.to_string(),
            "2 people are named \"bob nakamura\": Bob Nakamura (bob@demo.test), Bob Nakamura (mallory@demo.test); name one by email"
        );
    }

    #[test]
    fn a_prefix_or_local_part_only_suggests() {
        let err = find("a").unwrap_err();
        assert_eq!(
            err,
            NameError::Nobody {
                who: "a".into(),
                could: vec![("Alice Okafor".into(), "alice@demo.test".into())]
            }
        );
        assert!(err.to_string().contains("did you mean Alice Okafor (alice@demo.test)?"), "{err}");
        assert!(matches!(find("farid"), Err(NameError::Nobody { .. })));
        assert!(matches!(find("Far"), Err(NameError::Nobody { .. })));
    }

    #[test]
    fn ids_and_unique_names_work_in_every_form() {
        assert_eq!(find("Alice Okafor"), Ok(1));
        assert_eq!(find("@**alice okafor**"), Ok(1));
        assert_eq!(find("3"), Ok(3));
        assert_eq!(find("id:3"), Ok(3));
        assert_eq!(find("@**Bob Nakamura|3**"), Ok(3));
        assert_eq!(find("Bob Nakamura|2"), Ok(2));
        assert!(find("id:99").is_err());
        // A deactivated user is named by ID only.
        assert!(find("Gone Person").is_err());
        assert_eq!(find("6"), Ok(6));
    }

    #[test]
    fn the_index_tells_a_shared_name_through_renames() {
        let mut names = Names::of(PEOPLE.iter().map(|p| (p.0, p.1)));
        assert!(names.shared("bob nakamura"));
        assert!(!names.shared("Alice Okafor"));
        names.remove(3, "Bob Nakamura");
        names.add(3, "Mallory");
        assert!(!names.shared("Bob Nakamura"));
        names.remove(1, "Alice Okafor");
        names.add(1, "BOB NAKAMURA");
        assert!(names.shared("Bob Nakamura"));
    }
}
