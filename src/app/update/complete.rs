//! Tab completion: cycling through the matches (tab forwards, shift+tab backwards), and the
//! candidates of the channel>topic and DM prompts.

use super::prelude::*;

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

/// Tab (or shift+tab) in a prompt that completes.
pub(super) fn prompt(st: &mut State, back: bool) -> Vec<Effect> {
    let mut fx = Vec::new();
    if st.ui.completion.cycle.is_none() {
        fx = suggest(st);
    }
    let Some(p) = &mut st.ui.prompt else { return fx };
    let comp = &mut st.ui.completion;
    let text = std::cell::RefCell::new(&mut p.text);
    comp.cycle = step(
        &comp.suggestions,
        comp.token_len,
        comp.cycle,
        back,
        |n| {
            let mut t = text.borrow_mut();
            for _ in 0..n {
                t.pop();
            }
        },
        |s| text.borrow_mut().push_str(s),
    );
    fx
}

/// Does this prompt complete names?
pub(super) fn completes(kind: PromptKind) -> bool {
    matches!(kind, PromptKind::ChannelTopic | PromptKind::DmRecipients)
}

/// Work out the candidates for the end of the prompt's text (fetching a channel's topics when
/// they are not loaded yet, as the compose box's `#channel>topic` does).
pub(super) fn suggest(st: &mut State) -> Vec<Effect> {
    let mut fx = Vec::new();
    let Some(p) = &st.ui.prompt else { return fx };
    let d = &st.data;
    let mut out: Vec<(String, String)> = Vec::new();
    let token: String;
    match p.kind {
        PromptKind::ChannelTopic => match p.text.split_once('>') {
            None => {
                token = p.text.clone();
                let q = token.trim().trim_start_matches('#').to_lowercase();
                let mut chans: Vec<&ChannelInfo> =
                    d.channels.values().filter(|c| c.name.to_lowercase().contains(&q)).collect();
                chans.sort_by_key(|c| (!c.name.to_lowercase().starts_with(&q), c.name.to_lowercase()));
                out.extend(
                    chans.into_iter().take(8).map(|c| (format!("#{}", c.name), format!("{}>", c.name))),
                );
            }
            Some((chan, topic)) => {
                token = topic.to_owned();
                let chan = chan.trim().trim_start_matches('#');
                if let Some(cid) = crate::app::narrow::Resolver::channel_id(d, chan) {
                    let q = topic.trim_start().to_lowercase();
                    match d.topics.get(&cid) {
                        Some(list) if list.loaded => {
                            let mut topics: Vec<&str> = list
                                .topics
                                .iter()
                                .map(|t| t.name.as_str())
                                .filter(|t| t.to_lowercase().contains(&q))
                                .collect();
                            // Topics come newest first; names that start with the query first.
                            topics.sort_by_key(|t| !t.to_lowercase().starts_with(&q));
                            out.extend(topics.into_iter().take(8).map(|t| (t.to_owned(), t.to_owned())));
                        }
                        Some(list) if list.loading => {}
                        _ => {
                            st.data.topics.entry(cid).or_default().loading = true;
                            fx.push(Effect::FetchTopics(cid));
                        }
                    }
                }
            }
        },
        PromptKind::DmRecipients => {
            let last = p.text.rsplit(',').next().unwrap_or("");
            token = last.trim_start().to_owned();
            let q = token.to_lowercase();
            if !q.is_empty() {
                let mut users: Vec<&UserInfo> = d
                    .users
                    .values()
                    .filter(|u| u.is_active && u.full_name.to_lowercase().contains(&q))
                    .collect();
                users.sort_by_key(|u| {
                    (!u.full_name.to_lowercase().starts_with(&q), u.full_name.to_lowercase())
                });
                out.extend(
                    users.into_iter().take(8).map(|u| (u.full_name.clone(), format!("{}, ", u.full_name))),
                );
            }
        }
        _ => return fx,
    }
    st.ui.completion = Completion { suggestions: out, token_len: token.chars().count(), cycle: None };
    fx
}
