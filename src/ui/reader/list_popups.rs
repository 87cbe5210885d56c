//! The list popups the default view draws in columns with marks (scheduled messages, the emoji
//! picker, reminders, uploads, saved snippets) and the full-screen picture, as the
//! screen-reader mode draws them: a heading that says what the popup is and which keys work,
//! then each item one row of words, the selected one marked and holding the cursor (moving the
//! selection repaints two rows). Loading, empty and failed lists are one plain sentence.

use super::rows::{Pane, list, plain_row, with_marks};
use crate::api::{MessageId, Recipient};
use crate::app::images::Slot;
use crate::app::{Shown, State, UploadList, size_text};
use crate::content::sanitize;
use crate::line::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;

/// Only a heading: a popup with nothing to list. Its row holds the cursor.
fn sentence(f: &mut Frame, pane: &Pane, area: Rect, text: &str) -> Option<u16> {
    super::rows::heading(f, pane.t, area, text);
    Some(area.y)
}

/// Scheduled messages, by delivery time: where to, when, failed or not, the text.
pub(super) fn draw_scheduled(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    selected: usize,
) -> Option<u16> {
    let ids = crate::app::scheduled_in_order(st);
    if ids.is_empty() {
        let text = "Scheduled messages: nothing scheduled; compose, then control s schedules; esc closes";
        return sentence(f, pane, area, text);
    }
    let d = &st.data;
    let head = format!("Scheduled messages, {}: e edits, d deletes, esc closes", ids.len());
    let row = |i: usize| {
        let Some(s) = ids.get(i).and_then(|id| d.lists.scheduled().get(id)) else { return String::new() };
        let to = match &s.to {
            Recipient::Channel(c) => format!(
                "to channel {} topic {}",
                sanitize(d.channels.name(*c)),
                sanitize(d.realm.topic_shown(s.topic.as_deref().unwrap_or("")))
            ),
            Recipient::Users(u) => {
                let names: Vec<String> = u.iter().map(|x| sanitize(&d.partner_name(*x))).collect();
                format!("DM to {}", names.join(", "))
            }
        };
        let when = st.tz.format(s.scheduled_delivery_timestamp, st.settings.clock.short());
        let failed = if s.failed { "failed" } else { "" };
        let text = format!("text: {}", super::super::snippets::one_line(&s.content));
        with_marks(to, &[when, failed.to_owned(), text])
    };
    list(f, pane, area, &head, ids.len(), selected, row)
}

/// `:drafts`: each draft as a row of words — where it goes, whether the server has it too,
/// its text.
pub(super) fn draw_drafts(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    selected: usize,
) -> Option<u16> {
    let all = crate::app::drafts_listed(st);
    if all.is_empty() {
        return sentence(
            f,
            pane,
            area,
            "Drafts: none; what you leave unsent in a compose box is kept here; esc closes",
        );
    }
    let head = format!("Drafts, {}: enter opens one, d deletes, esc closes", all.len());
    let row = |i: usize| {
        let Some(d) = all.get(i) else { return String::new() };
        let server = if d.on_server { "on the server too" } else { "" };
        let text = format!("text: {}", super::super::snippets::one_line(&d.text));
        with_marks(super::super::scheduled::draft_place(st, &d.target), &[server.to_owned(), text])
    };
    list(f, pane, area, &head, all.len(), selected, row)
}

/// The emoji picker: what is searched, then each match by name — custom or not, whether the
/// user reacted with it — and its place among the matches.
pub(super) fn draw_emoji(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    (id, query): (MessageId, &LineEditor),
    matches: &[(String, String, String)],
    selected: usize,
) -> Option<u16> {
    let typed = sanitize(query.text());
    let search = if typed.is_empty() { "type to search".to_owned() } else { format!("search {typed}") };
    let n = matches.len();
    if n == 0 {
        return sentence(f, pane, area, &format!("Emoji picker: {search}, no emoji match; esc closes"));
    }
    let count = if n == 1 { "1 match".to_owned() } else { format!("{n} matches") };
    let head = format!("Emoji picker: {search}, {count}; enter reacts, esc closes");
    let row = |i: usize| {
        let (name, code, kind) = &matches[i];
        let custom = if kind == "unicode_emoji" { "" } else { "custom" };
        let mine = if super::super::emoji::reacted(st, id, code, kind) { "you reacted" } else { "" };
        let place = format!("{} of {n}", i + 1);
        with_marks(sanitize(name).replace('_', " "), &[custom.to_owned(), mine.to_owned(), place])
    };
    list(f, pane, area, &head, n, selected, row)
}

/// Reminders, by delivery time: when, which conversation, failed or not, the note, the text.
pub(super) fn draw_reminders(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    selected: usize,
) -> Option<u16> {
    let Some(reminders) = st.data.lists.reminders() else {
        return sentence(f, pane, area, "Reminders: loading; esc closes");
    };
    if reminders.is_empty() {
        let text = "Reminders: none; select a message, then :remind WHEN NOTE sets one; esc closes";
        return sentence(f, pane, area, text);
    }
    let head = format!("Reminders, {}: d deletes, esc closes", reminders.len());
    let width = area.width as usize;
    let row = |i: usize| {
        let Some(r) = reminders.get(i) else { return String::new() };
        let when = st.tz.format(r.scheduled_delivery_timestamp, st.settings.clock.short());
        let place = match st.data.messages.get(&r.reminder_target_message_id) {
            Some(m) => super::messages::place(st, m),
            // As the server's notice says it: `#channel > topic`, `DM: names`.
            None => r.place().map_or_else(
                || "a message not loaded here".to_owned(),
                |p| {
                    let p = sanitize(&p);
                    match (p.strip_prefix("DM: "), p.strip_prefix('#').and_then(|p| p.split_once(" > "))) {
                        (Some(names), _) => format!("in a DM with {names}"),
                        (None, Some((channel, topic))) => format!("in channel {channel} topic {topic}"),
                        _ => p,
                    }
                },
            ),
        };
        let failed = if r.failed { "failed" } else { "" };
        let note = r.note().map_or_else(String::new, |n| format!("note: {}", sanitize(n)));
        let text = crate::app::reminder_excerpt(st, r, width);
        let text = format!("text: {}", super::super::snippets::one_line(&text));
        with_marks(format!("{when}, {place}"), &[failed.to_owned(), note, text])
    };
    list(f, pane, area, &head, reminders.len(), selected, row)
}

/// The user's uploaded files, newest first: name, size, date, where each is used; what they
/// take in the heading.
pub(super) fn draw_uploads(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    selected: usize,
    files: Option<&UploadList>,
) -> Option<u16> {
    let Some(files) = files else {
        return sentence(f, pane, area, "Uploaded files: loading; esc closes");
    };
    if files.files.is_empty() {
        let text =
            "Uploaded files: none; :attach PATH or control t in the compose box uploads one; esc closes";
        return sentence(f, pane, area, text);
    }
    let totals = super::super::uploads::totals(st, files).join("; ");
    let head = format!("Uploaded files: enter opens, d deletes, esc closes; {totals}");
    let row = |i: usize| {
        let file = &files.files[i];
        let date = format!("uploaded {}", st.tz.format(file.uploaded_at(), "%-d %b %Y"));
        let used = super::super::uploads::used_in(st, files, file, super::popups::narrow_words);
        with_marks(sanitize(&file.name), &[size_text(file.size), date, used])
    };
    list(f, pane, area, &head, files.files.len(), selected, row)
}

/// What the saved snippets popup shows, as the popup has it.
pub(super) struct SnippetsShown<'a> {
    pub(super) query: &'a LineEditor,
    pub(super) filtering: bool,
    pub(super) selected: usize,
    pub(super) shown: Option<&'a [i64]>,
}

/// Saved snippets: the filter, then each snippet's title and text.
pub(super) fn draw_snippets(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    s: SnippetsShown,
) -> Option<u16> {
    let typed = sanitize(s.query.text());
    let (Some(shown), Some(all)) = (s.shown, st.data.lists.snippets()) else {
        return sentence(f, pane, area, "Saved snippets: loading; esc closes");
    };
    let filter = if typed.is_empty() { String::new() } else { format!(" matching {typed}") };
    if shown.is_empty() {
        let text = if all.is_empty() {
            "Saved snippets: none yet; write one in the compose box, then a here saves it; esc closes"
                .to_owned()
        } else {
            format!("Saved snippets{filter}: none; esc closes")
        };
        return sentence(f, pane, area, &text);
    }
    let keys = if s.filtering {
        "type to filter, up and down move, enter inserts, esc goes back to the list"
    } else {
        "enter inserts, a saves the compose text, d deletes, slash filters, esc closes"
    };
    let head = format!("Saved snippets{filter}, {}: {keys}", shown.len());
    let row = |i: usize| {
        let Some(snippet) = shown.get(i).and_then(|id| all.get(id)) else { return String::new() };
        format!("{}: {}", sanitize(&snippet.title), super::super::snippets::one_line(&snippet.content))
    };
    list(f, pane, area, &head, shown.len(), s.selected, row)
}

/// A message's picture, full screen: not drawn in this mode (half-blocks would be noise), but
/// said — which of how many, its name and where it is, whether it is here, and the keys.
pub(super) fn draw_image(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    id: MessageId,
    (srcs, shown): (&[String], usize),
) -> Option<u16> {
    let Some(src) = srcs.get(shown) else { return sentence(f, pane, area, "Picture: none; esc closes") };
    let label = st
        .data
        .messages
        .get(&id)
        .and_then(|m| {
            let spoilers = matches!(st.shown(m), Shown::Body { spoilers_open: true });
            let s = super::messages::summary(st, pane, m, spoilers);
            s.previews.iter().position(|p| p == src).and_then(|i| s.preview_labels.get(i).cloned())
        })
        .filter(|l| !l.trim().is_empty())
        .unwrap_or_else(|| {
            let path = src.split(['?', '#']).next().unwrap_or(src);
            path.rsplit('/').next().unwrap_or(path).to_owned()
        });
    // A picture on the user's own server says which server that is.
    let host = match crate::urls::judge(&st.site, src) {
        crate::urls::Link::Refused(_) => "not fetched".to_owned(),
        crate::urls::Link::InApp(u) | crate::urls::Link::OwnUpload(u) | crate::urls::Link::Web(u) => {
            sanitize(&crate::urls::shown_host(&u))
        }
    };
    let rows = [
        format!("picture {} of {}: {} ({host})", shown + 1, srcs.len(), sanitize(&label)),
        match st.images.get(src) {
            None | Some(Slot::Loading) => "loading".to_owned(),
            Some(Slot::Failed(why)) => format!("not shown: {}", sanitize(why)),
            Some(Slot::Ready(_)) => "fetched; the screen-reader mode does not draw pictures".to_owned(),
        },
        "n or j the next picture, p or k the previous, esc closes".to_owned(),
    ];
    let rows = rows.iter().flat_map(|r| super::rows::wrap(r, area.width as usize));
    for (k, text) in rows.enumerate() {
        plain_row(f, pane.t, area, k as u16, &text, false);
    }
    Some(area.y)
}

/// The user's Zulip settings (`:settings`): each a row of words — what it is, its value,
/// where it comes from.
pub(super) fn draw_settings(
    f: &mut Frame,
    st: &State,
    pane: &mut Pane,
    area: Rect,
    selected: usize,
) -> Option<u16> {
    use crate::app::zulip_settings::{ROWS, listed};
    let head =
        format!("Your Zulip settings, {ROWS}: enter changes the selected one on the server, esc closes");
    let row = |i: usize| {
        let Some((label, value, from)) = listed(st.data.user_settings(), &st.settings.notifications, i)
        else {
            return String::new();
        };
        let from = if from.is_empty() { String::new() } else { format!("from: {from}") };
        with_marks(format!("{label}: {}", sanitize(&value)), &[from])
    };
    list(f, pane, area, &head, ROWS, selected, row)
}
