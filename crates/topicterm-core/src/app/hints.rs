//! Link hints (`f`, `F`): every link, attachment and picture on screen labelled with one or two
//! letters, home-row first as in qutebrowser; typing a label opens (or copies) it. What is on
//! screen is what the last frame drew ([`LinkSpot`]s, told by `Msg::LinksOnScreen`); this file
//! decides the labels and follows what is typed. A leaf: it names no `State`.

use crate::api::MessageId;

/// A link as the message pane numbers it: message `message`'s link `[number]` (from 1, in
/// the numbering of `State::shown`, which `o` uses too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinkSpot {
    pub message: MessageId,
    pub number: usize,
}

/// The letters labels are made of: the home row first, as qutebrowser's `hints.chars`.
pub const LETTERS: &[char] = &['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l'];

/// Labels for `count` links, in order: the shortest that serve them all, none a prefix of
/// another. As qutebrowser's: with more links than letters, the first links keep one letter
/// each and the others take two, starting with the letters the short ones left free (9 links:
/// `a`…`l`; 30: six single letters and 24 pairs).
pub fn labels(count: usize) -> Vec<String> {
    let base = LETTERS.len();
    if count == 0 {
        return Vec::new();
    }
    // The digits the longest label needs.
    let mut needed = 1;
    let mut space = base;
    while space < count {
        needed += 1;
        space *= base;
    }
    // Each label one letter shorter takes the room of `base` longer ones.
    let short = if needed > 1 { (space - count) / (base - 1) } else { 0 };
    let long = count - short;
    let mut out: Vec<String> = (0..short).map(|i| spell(i, needed - 1)).collect();
    out.extend((short * base..short * base + long).map(|i| spell(i, needed)));
    out
}

/// `number` in base [`LETTERS`], `digits` long (padded with the first letter).
fn spell(mut number: usize, digits: usize) -> String {
    let base = LETTERS.len();
    let mut out = vec![LETTERS[0]; digits];
    for slot in out.iter_mut().rev() {
        *slot = LETTERS[number % base];
        number /= base;
    }
    out.into_iter().collect()
}

/// A hint session: the links labelled when it began, what has been typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hints {
    /// `F`: the chosen link's address is copied; else it is opened.
    pub copy: bool,
    /// The letters typed so far (a prefix of a label).
    pub typed: String,
    /// Each label and its link, in screen order.
    pub targets: Vec<(String, LinkSpot)>,
}

/// What a typed letter did to a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// The start of one or more labels: wait for more.
    More,
    /// A whole label: its link.
    Chosen(LinkSpot),
    /// No label starts so: what was typed, for the status line.
    NoSuch(String),
}

impl Hints {
    /// Label `links` (as on screen, in order); `None` when there are none.
    pub fn new(links: &[LinkSpot], copy: bool) -> Option<Hints> {
        if links.is_empty() {
            return None;
        }
        let targets = labels(links.len()).into_iter().zip(links.iter().copied()).collect();
        Some(Hints { copy, typed: String::new(), targets })
    }

    /// The label of a link, if it has one.
    pub fn label_of(&self, spot: LinkSpot) -> Option<&str> {
        self.targets.iter().find(|(_, s)| *s == spot).map(|(l, _)| l.as_str())
    }

    /// A letter typed (either case).
    pub fn type_letter(&mut self, c: char) -> Typed {
        let typed = format!("{}{}", self.typed, c.to_ascii_lowercase());
        if let Some((_, spot)) = self.targets.iter().find(|(l, _)| *l == typed) {
            return Typed::Chosen(*spot);
        }
        if self.targets.iter().any(|(l, _)| l.starts_with(&typed)) {
            self.typed = typed;
            return Typed::More;
        }
        Typed::NoSuch(typed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix_free(labels: &[String]) -> bool {
        labels
            .iter()
            .enumerate()
            .all(|(i, a)| labels.iter().enumerate().all(|(j, b)| i == j || !b.starts_with(a.as_str())))
    }

    #[test]
    fn few_links_get_one_home_row_letter_each() {
        assert_eq!(labels(0), Vec::<String>::new());
        assert_eq!(labels(1), vec!["a"]);
        assert_eq!(labels(4), vec!["a", "s", "d", "f"]);
        assert_eq!(labels(9), vec!["a", "s", "d", "f", "g", "h", "j", "k", "l"]);
    }

    #[test]
    fn more_links_than_letters_take_two_and_none_is_a_prefix_of_another() {
        let l = labels(10);
        assert_eq!(l.len(), 10);
        assert!(l.iter().all(|x| x.len() <= 2) && l.iter().any(|x| x.len() == 2), "{l:?}");
        assert!(prefix_free(&l), "{l:?}");
        let l = labels(30);
        assert_eq!(l.len(), 30);
        assert_eq!(l[..6], ["a", "s", "d", "f", "g", "h"], "the first links keep one letter");
        assert_eq!(l[6..9], ["ja", "js", "jd"], "the pairs start where the singles left off");
        assert!(l[6..].iter().all(|x| x.len() == 2), "{l:?}");
        assert!(prefix_free(&l), "{l:?}");
        let all: std::collections::HashSet<&String> = l.iter().collect();
        assert_eq!(all.len(), 30, "each label once");
        // A full screen of pairs, then three letters when pairs run out.
        let l = labels(81);
        assert!(l.iter().all(|x| x.len() == 2) && prefix_free(&l));
        let l = labels(82);
        assert!(l.iter().all(|x| x.len() <= 3) && prefix_free(&l) && l.len() == 82);
        for n in 1..200 {
            let l = labels(n);
            assert!(l.len() == n && prefix_free(&l), "{n}: {l:?}");
            assert!(l.iter().all(|x| x.chars().all(|c| LETTERS.contains(&c))));
        }
    }

    #[test]
    fn typing_follows_the_labels() {
        let links: Vec<LinkSpot> = (0..30).map(|i| LinkSpot { message: 100 + i, number: 1 }).collect();
        let mut h = Hints::new(&links, false).unwrap();
        assert_eq!(h.label_of(links[7]), Some("js"));
        assert_eq!(h.clone().type_letter('S'), Typed::Chosen(links[1]), "either case");
        assert_eq!(h.type_letter('j'), Typed::More);
        assert_eq!(h.typed, "j");
        assert_eq!(h.clone().type_letter('s'), Typed::Chosen(links[7]));
        assert_eq!(h.type_letter('q'), Typed::NoSuch("jq".into()));
        assert_eq!(Hints::new(&[], true), None);
    }
}
