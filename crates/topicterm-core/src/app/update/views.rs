//! Saved views (the server's navigation views) as rows of the channels pane: the fragment
//! parsed into a view of this client, the built-in ones (`inbox`, `recent`, …) included.

use super::prelude::*;

/// A built-in view's fragment → its name.
const BUILT_IN: &[(&str, &str)] = &[
    ("inbox", "Inbox"),
    ("recent", "Recent conversations"),
    ("feed", "Combined feed"),
    ("all_messages", "Combined feed"),
    ("starred", "Starred messages"),
    ("mentions", "Mentions"),
    ("my_dms", "Direct messages"),
    ("reactions", "Reactions"),
    ("drafts", "Drafts"),
    ("scheduled", "Scheduled messages"),
];

/// The name a view is shown with: its own, a built-in one's, or the fragment.
pub fn view_name(v: &NavigationView) -> String {
    if let Some(name) = v.name.as_deref().filter(|n| !n.trim().is_empty()) {
        return name.to_owned();
    }
    let bare = v.fragment.trim_start_matches('#');
    BUILT_IN.iter().find(|(f, _)| *f == bare).map_or_else(|| bare.to_owned(), |(_, n)| (*n).to_owned())
}

/// A fragment as a search query (`narrow/channel/12-design/is/followed` →
/// `channel:12 is:followed`), for views `narrow::from_fragment` does not cover.
fn fragment_query(fragment: &str) -> Option<String> {
    let rest = fragment.trim_start_matches('#').strip_prefix("narrow/")?;
    let parts: Vec<&str> = rest.split('/').collect();
    let mut terms = Vec::new();
    for pair in parts.chunks(2) {
        let [op, operand] = pair else { return None };
        let (negated, op) = match op.strip_prefix('-') {
            Some(op) => ("-", op),
            None => ("", *op),
        };
        let mut value = crate::api::urls::hash_decode(operand);
        // `12-design`: the channel's ID, then its name for people to read.
        if matches!(op, "channel" | "stream")
            && let Some((id, _)) = value.split_once('-').filter(|(id, _)| id.parse::<i64>().is_ok())
        {
            value = id.to_owned();
        }
        let value = if value.contains(char::is_whitespace) { format!("\"{value}\"") } else { value };
        terms.push(format!("{negated}{op}:{value}"));
    }
    Some(terms.join(" "))
}

/// A channel or one of its topics, when that is all the terms say (so the view is the
/// ordinary one, with its compose target and topic list).
fn simple(terms: &[NarrowTerm]) -> Option<Narrow> {
    let op = |t: &NarrowTerm, name: &str| {
        !t.negated && (t.operator == name || (name == "channel" && t.operator == "stream"))
    };
    match terms {
        [c] if op(c, "channel") => Some(Narrow::Channel(c.operand.as_i64()?)),
        [c, t] if op(c, "channel") && op(t, "topic") => {
            Some(Narrow::Topic(c.operand.as_i64()?, t.operand.as_str()?.to_owned()))
        }
        _ => None,
    }
}

/// Enter on a view's row.
pub(super) fn open(st: &mut State, fragment: &str) -> Vec<Effect> {
    let bare = fragment.trim_start_matches('#');
    let narrow = match bare {
        "recent" => return super::recent::open_recent(st),
        "scheduled" => {
            st.ui.popup = Some(Popup::Scheduled { selected: 0 });
            return vec![];
        }
        "inbox" | "feed" | "all_messages" => Narrow::All,
        "my_dms" => Narrow::AllDms,
        "starred" => Narrow::Starred,
        "mentions" => Narrow::Mentions,
        _ => match crate::app::narrow::from_fragment(bare, st.data.me) {
            Some((n, _)) => n,
            None => {
                let Some(query) = fragment_query(bare) else {
                    super::common::set_error(st, format!("this client cannot show the view {bare:?}"));
                    return vec![];
                };
                match parse_search(&query, &st.data) {
                    Ok(terms) => simple(&terms).unwrap_or(Narrow::Search { query, terms }),
                    Err(e) => {
                        super::common::set_error(st, format!("view {bare:?}: {e}"));
                        return vec![];
                    }
                }
            }
        },
    };
    super::navigation::open_narrow(st, narrow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_become_queries() {
        assert_eq!(
            fragment_query("narrow/channel/12-design/is/followed").as_deref(),
            Some("channel:12 is:followed")
        );
        assert_eq!(
            fragment_query("narrow/channel/support/topic/a.20b/-is/resolved").as_deref(),
            Some("channel:support topic:\"a b\" -is:resolved")
        );
        assert_eq!(fragment_query("recent"), None);
        assert_eq!(fragment_query("narrow/channel"), None);
    }

    #[test]
    fn names_of_views() {
        let v = |f: &str, n: Option<&str>| NavigationView {
            fragment: f.into(),
            is_pinned: false,
            name: n.map(Into::into),
        };
        assert_eq!(view_name(&v("recent", None)), "Recent conversations");
        assert_eq!(view_name(&v("narrow/is/starred", Some("Mine"))), "Mine");
        assert_eq!(view_name(&v("narrow/x/y", None)), "narrow/x/y");
    }
}
