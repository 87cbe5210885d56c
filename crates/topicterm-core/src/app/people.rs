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
    /// A text with commas that reads both as one person's full name and as several people.
    Commas { who: String },
}

/// What a prompt says while it waits for the whole list of people.
pub const READING_PEOPLE: &str = "reading the people list…";

/// What a prompt says while it waits for the user groups.
pub const READING_GROUPS: &str = "reading the user groups…";

/// Whether `who` names one person by what only they hold (an ID, an email), so a list of only
/// some people can decide it when it holds them.
pub fn decides_alone(who: &str) -> bool {
    let who = who.trim().trim_start_matches('@').trim_matches('*').trim();
    !who.starts_with('"') && (id_form(who).is_some() || who.contains('@'))
}

/// The longest full name the server allows (`UserProfile.MAX_NAME_LENGTH`), in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// A full name as a recipient list takes it back: in `"quotes"` when it holds a comma or would
/// read as something else (an ID, `id:7`, `Name|7`, a `#channel`), else as it is. The server
/// allows no `"` in a name (`NAME_INVALID_CHARS`), so the quotes need no escape.
pub fn as_typed(full_name: &str) -> String {
    let other = id_form(full_name).is_some() || full_name.starts_with('#');
    if full_name.contains(',') || other { format!("\"{full_name}\"") } else { full_name.to_owned() }
}

/// The byte ranges of a recipient list's comma-separated pieces (a comma in `"quotes"` does
/// not separate), and whether each is quoted (a whole name, never joined to its neighbours).
pub fn pieces(text: &str) -> Vec<(std::ops::Range<usize>, bool)> {
    let mut out = Vec::new();
    let (mut start, mut quoted, mut has_quote) = (0, false, false);
    for (at, c) in text.char_indices() {
        match c {
            '"' => {
                quoted = !quoted;
                has_quote = true;
            }
            ',' if !quoted => {
                out.push((start..at, has_quote));
                start = at + 1;
                has_quote = false;
            }
            _ => {}
        }
    }
    out.push((start..text.len(), has_quote));
    out
}

/// The people a comma-separated list names (`@` optional, empty pieces skipped), each by
/// `one` (the rule of [`person`]). A full name may hold commas (`Othello, the Moor of
/// Venice`): neighbouring pieces are read together as one name too. The list must read one way
/// only: a text that is both one person's name and several people (Mallory renamed "Alice,
/// Bob") is refused, to be written with quotes or emails, never guessed.
pub fn people_in(
    text: &str,
    one: impl Fn(&str) -> Result<UserId, NameError>,
) -> Result<Vec<UserId>, NameError> {
    let pieces = pieces(text);
    let n = pieces.len();
    let span = |i: usize, j: usize| &text[pieces[i].0.start..pieces[j - 1].0.end];
    let blank = |s: &str| s.trim().trim_start_matches('@').trim_matches('*').trim().is_empty();
    // Every reading of pieces i..j: a person, nothing (an empty piece), or why not.
    let mut read: HashMap<(usize, usize), Result<Option<UserId>, NameError>> = HashMap::new();
    for i in 0..n {
        for j in i + 1..=n {
            let s = span(i, j);
            if j > i + 1
                && (pieces[i..j].iter().any(|p| p.1) || s.trim().chars().count() > MAX_NAME_CHARS + 8)
            {
                break;
            }
            let r = if j == i + 1 && blank(s) { Ok(None) } else { one(s).map(Some) };
            read.insert((i, j), r);
        }
    }
    let ok = |i: usize, j: usize| read.get(&(i, j)).is_some_and(Result::is_ok);
    // ways[i]: how many readings pieces i.. have (at most 2 counted).
    let mut ways = vec![0u8; n + 1];
    ways[n] = 1;
    for i in (0..n).rev() {
        ways[i] = (i + 1..=n).filter(|&j| ok(i, j)).map(|j| ways[j]).fold(0, |a, w| (a + w).min(2));
    }
    if ways[0] == 0 {
        // Where the furthest reading that works so far stops: why the next piece names no one.
        let mut reach = vec![false; n + 1];
        reach[0] = true;
        for i in 0..n {
            if reach[i] {
                (i + 1..=n).filter(|&j| ok(i, j)).for_each(|j| reach[j] = true);
            }
        }
        let at = (0..n).rev().find(|&i| reach[i]).unwrap_or(0);
        let errors: Vec<&NameError> =
            (at + 1..=n).filter_map(|j| read.get(&(at, j)).and_then(|r| r.as_ref().err())).collect();
        let pick = errors
            .iter()
            .find(|e| matches!(e, NameError::NotListed { .. }))
            .or_else(|| errors.iter().find(|e| matches!(e, NameError::Shared { .. })))
            .or(errors.first());
        return Err(pick.map_or_else(
            || NameError::Nobody { who: span(at, at + 1).trim().to_owned(), could: vec![] },
            |e| (*e).clone(),
        ));
    }
    let mut ids = Vec::new();
    let mut i = 0;
    while i < n {
        let next: Vec<usize> = (i + 1..=n).filter(|&j| ok(i, j) && ways[j] > 0).collect();
        if next.len() > 1 {
            return Err(NameError::Commas { who: span(i, next[next.len() - 1]).trim().to_owned() });
        }
        let j = next[0];
        if let Some(Ok(Some(id))) = read.get(&(i, j)) {
            ids.push(*id);
        }
        i = j;
    }
    Ok(ids)
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
            NameError::Commas { who } => write!(
                f,
                "{who:?} is one person's name and also a list of people: write the one name in quotes (@\"{who}\") or name each by email"
            ),
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
    // `"…"`: a full name and nothing else (`"42"` is the person called 42, not ID 42).
    let (who, quoted) = match who.strip_prefix('"') {
        Some(rest) => (rest.strip_suffix('"').unwrap_or(rest).trim(), true),
        None => (who, false),
    };
    let nobody = |could| NameError::Nobody { who: who.to_owned(), could };
    if who.is_empty() {
        return Err(nobody(vec![]));
    }
    if let Some(id) = id_form(who).filter(|_| !quoted) {
        return if known(id) { Ok(id) } else { Err(nobody(vec![])) };
    }
    let active = people.filter(|p| p.active);
    let named = |p: &Person| (p.full_name.to_owned(), p.email.to_owned());
    if who.contains('@') && !quoted {
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

    const COMMAS: &[(UserId, &str, &str, bool)] = &[
        (1, "Othello, the Moor of Venice", "othello@demo.test", true),
        (2, "Alice", "alice@demo.test", true),
        (3, "Bob", "bob@demo.test", true),
        (4, "Alice, Bob", "mallory@demo.test", true),
        (5, "42", "answer@demo.test", true),
        (6, "#1 fan", "fan@demo.test", true),
        (42, "Deep Thought", "deep@demo.test", true),
    ];

    fn list(text: &str) -> Result<Vec<UserId>, NameError> {
        let people =
            COMMAS.iter().map(|&(id, full_name, email, active)| Person { id, full_name, email, active });
        people_in(text, |who| person(people.clone(), |id| COMMAS.iter().any(|p| p.0 == id), who))
    }

    #[test]
    fn a_name_with_commas_is_one_recipient_typed_bare_or_quoted() {
        assert_eq!(list("@Othello, the Moor of Venice"), Ok(vec![1]));
        assert_eq!(list("othello, the moor of venice, @bob, "), Ok(vec![1, 3]));
        assert_eq!(list("@\"Othello, the Moor of Venice\""), Ok(vec![1]));
        assert_eq!(list("@\"Othello, the Moor of Venice\", \"Alice\",bob@demo.test"), Ok(vec![1, 2, 3]));
        assert_eq!(list("@**Othello, the Moor of Venice**"), Ok(vec![1]));
        // Quotes make a name of what would be an ID.
        assert_eq!(list("42"), Ok(vec![42]));
        assert_eq!(list("\"42\", 2"), Ok(vec![5, 2]));
        assert_eq!(list(" , "), Ok(vec![]));
        // What names no one says which piece.
        let err = list("Othello").unwrap_err();
        assert!(
            err.to_string().contains("did you mean Othello, the Moor of Venice (othello@demo.test)"),
            "{err}"
        );
        assert_eq!(
            list("Bob, Othelo, the Moor of Venice").unwrap_err(),
            NameError::Nobody { who: "Othelo".into(), could: vec![] }
        );
    }

    #[test]
    fn a_list_that_reads_two_ways_is_refused() {
        // Mallory renamed herself "Alice, Bob": the text is her and the two of them.
        let err = list("Alice, Bob").unwrap_err();
        assert_eq!(err, NameError::Commas { who: "Alice, Bob".into() });
        assert!(err.to_string().contains("in quotes (@\"Alice, Bob\") or name each by email"), "{err}");
        assert_eq!(list("\"Alice, Bob\""), Ok(vec![4]));
        assert_eq!(list("\"Alice\", \"Bob\""), Ok(vec![2, 3]));
        assert_eq!(list("alice@demo.test, Bob"), Ok(vec![2, 3]));
    }

    #[test]
    fn every_name_typed_back_names_its_holder() {
        for &(id, name, _, _) in COMMAS {
            let typed = as_typed(name);
            assert_eq!(list(&format!("@{typed}")), Ok(vec![id]), "{name} as {typed}");
            assert_eq!(list(&format!("{typed}, deep@demo.test, ")), Ok(vec![id, 42]), "{typed}");
        }
        assert_eq!(as_typed("Othello, the Moor of Venice"), "\"Othello, the Moor of Venice\"");
        assert_eq!(as_typed("42"), "\"42\"");
        assert_eq!(as_typed("Alice"), "Alice");
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
