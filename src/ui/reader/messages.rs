//! The messages pane as the screen-reader mode draws it: each message one run of text — who,
//! when, where and its marks in words on its first row, then its text, its links as
//! `link 1: docs (good.example)` and its reactions — with no rules between days or senders.

use super::rows::{Pane, heading, plain_row, wrap};
use crate::api::{Flag, MessageId};
use crate::app::hints::LinkSpot;
use crate::app::widget::Widget;
use crate::app::{Narrow, OutState, Outgoing, Popup, Shown, State, Stored, Target};
use crate::content::{ContentContext, Document, Summary, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;
use std::collections::HashMap;
use std::rc::Rc;

/// How many texts the mode keeps before it lets them all go.
const TEXTS_HELD: usize = 2000;

/// How times inside a message's text read, and whether its spoilers are open.
pub(super) struct Reading {
    pub(super) tz: crate::app::TimeZone,
    pub(super) clock: crate::app::settings::Clock,
    pub(super) spoilers: bool,
}

impl ContentContext for Reading {
    fn format_time(&self, ts: i64) -> String {
        self.tz.format(ts, self.clock.short())
    }
    fn spoiler_open(&self, _index: usize) -> bool {
        self.spoilers
    }
}

/// The message's text as one run, with its links (closed spoilers left out), kept.
pub(super) fn summary(st: &State, pane: &mut Pane, m: &Stored, spoilers: bool) -> Rc<Summary> {
    let key = (m.id, super::super::common::hash(m.content()), spoilers);
    if let Some(s) = pane.memory.texts.get(&key) {
        return s.clone();
    }
    if pane.memory.texts.len() >= TEXTS_HELD {
        pane.memory.texts.clear();
    }
    let ctx = Reading { tz: st.tz, clock: st.settings.clock, spoilers };
    let s = Rc::new(Document::parse(m.content()).summary(&ctx));
    pane.memory.texts.insert(key, s.clone());
    s
}

/// Where a message was sent, in words.
pub(super) fn place(st: &State, m: &Stored) -> String {
    let d = &st.data;
    match m.stream_id() {
        Some(c) if !m.is_dm() => {
            let topic = sanitize(d.realm.topic_shown(m.topic()));
            let policy = match d.policy(c, m.topic()) {
                crate::api::VisibilityPolicy::Followed => ", followed topic",
                crate::api::VisibilityPolicy::Muted => ", muted topic",
                _ => "",
            };
            let private = if d.channels.get(c).is_some_and(|ch| ch.invite_only) { "private " } else { "" };
            format!("in {private}channel {} topic {topic}{policy}", sanitize(d.channels.name(c)))
        }
        _ => {
            let others = crate::app::narrow::dm_key(&m.dm_user_ids(), d.me);
            if others.is_empty() {
                "in notes to self".into()
            } else {
                let names: Vec<String> = others.iter().map(|u| sanitize(&d.partner_name(*u))).collect();
                format!("in a DM with {}", names.join(", "))
            }
        }
    }
}

/// Where a link leads, in words, judged by `urls::judge` as `o` opens it: a place in this
/// organization, an uploaded file, this server, an email, or the host (as the opener gets it:
/// ASCII, `xn--…` for a name in other scripts, with a port not the scheme's own); a link that
/// is not opened says so.
pub(super) fn host(site: &str, url: &str) -> String {
    use crate::urls::Link;
    match crate::urls::judge(site, url) {
        Link::InApp(_) => "in this organization".into(),
        Link::OwnUpload(_) => "uploaded file".into(),
        Link::Web(u) if u.scheme() == "mailto" => match crate::urls::shown_host(&u) {
            d if d.is_empty() => "email".into(),
            d => format!("email to {}", sanitize(&d)),
        },
        Link::Web(u) => {
            let site = url::Url::parse(site.trim_end_matches('/')).ok();
            if site.as_ref().is_some_and(|s| s.origin() == u.origin()) {
                return "this server".into();
            }
            let host = crate::urls::shown_host(&u);
            // The site's host on another scheme is not the site: say which scheme.
            if site.is_some_and(|s| crate::urls::shown_host(&s) == host) {
                return sanitize(&format!("{}://{host}", u.scheme()));
            }
            sanitize(&host)
        }
        Link::Refused(_) => "not opened".into(),
    }
}

/// One message as rows of `width` columns: the first says who, when, where and its marks; and
/// how many links it numbers.
fn message_rows(st: &State, pane: &mut Pane, m: &Stored, width: usize) -> (Vec<String>, usize) {
    let shown = st.shown(m);
    let hidden = shown == Shown::Hidden;
    let who = if hidden { "Muted user".to_owned() } else { sanitize(m.sender_full_name()) };
    let mut head =
        format!("{who}, {}, {}", st.tz.format(m.timestamp, st.settings.clock.short()), place(st, m));
    let mentioned = [
        Flag::Mentioned,
        Flag::WildcardMentioned,
        Flag::StreamWildcardMentioned,
        Flag::TopicWildcardMentioned,
        Flag::GroupMentioned,
    ]
    .iter()
    .any(|f| m.has_flag(f.clone()));
    let marks = [
        (st.data.unread.contains(m.id), "unread"),
        (m.has_flag(Flag::Starred), "starred"),
        (m.last_edit_timestamp().is_some(), "edited"),
        (m.last_edit_timestamp().is_none() && m.last_moved_timestamp().is_some(), "moved"),
        (mentioned, "mentioned you"),
        (m.has_flag(Flag::HasAlertWord), "alert word"),
    ];
    for (on, word) in marks {
        if on {
            head.push_str(", ");
            head.push_str(word);
        }
    }
    head.push(':');
    let mut rows = wrap(&head, width);
    if hidden {
        rows.extend(wrap("a message from a muted user; z shows it", width));
        return (rows, 0);
    }
    // A poll or a to-do list reads as its state, not its `/poll` or `/todo` text.
    if let Some(w) = st.data.widgets().get(&m.id) {
        let mut body = widget_words(st, w);
        if st.ui.selected == Some(m.id) {
            body.push_str(match w {
                Widget::Poll(_) => " 1 to 9 vote (again: take the vote back).",
                Widget::Todo(_) => " 1 to 9 tick or untick a task.",
            });
        }
        let reactions = reactions(st, m);
        if !reactions.is_empty() {
            body.push_str(&format!(" Reactions: {reactions}."));
        }
        rows.extend(wrap(&body, width));
        return (rows, 0);
    }
    let spoilers = matches!(shown, Shown::Body { spoilers_open: true });
    let s = summary(st, pane, m, spoilers);
    let mut body = s.text.clone();
    for (i, link) in s.links.iter().enumerate() {
        let text = sanitize(&link.text);
        let text = if text.trim().is_empty() { sanitize(&link.url) } else { text };
        // A link whose text is its address was just read in the text: not a second time.
        let text = if names_itself(&text, &link.url) && s.text.contains(text.trim()) {
            String::new()
        } else {
            format!(": {text}")
        };
        let kind = if link.is_image { "picture" } else { "link" };
        // While link hints are on, each link says its label.
        let spot = LinkSpot { message: m.id, number: i + 1 };
        let hint = match &st.ui.popup {
            Some(Popup::Hints(h)) => h.label_of(spot).filter(|l| l.starts_with(h.typed.as_str())),
            _ => None,
        };
        let hint = hint.map(|l| format!(", hint {l}")).unwrap_or_default();
        body.push_str(&format!(" {kind} {}{hint}{text} ({}).", i + 1, host(&st.site, &link.url)));
    }
    let reactions = reactions(st, m);
    if !reactions.is_empty() {
        body.push_str(&format!(" Reactions: {reactions}."));
    }
    rows.extend(wrap(body.trim(), width));
    (rows, s.links.len())
}

/// Whether a link's text is its address (as Zulip writes a bare URL: with or without its
/// scheme, a trailing `/`, in any case).
fn names_itself(text: &str, url: &str) -> bool {
    let bare = |s: &str| {
        let s = s.trim().to_lowercase();
        let s = ["https://", "http://", "mailto:"]
            .iter()
            .find_map(|p| s.strip_prefix(p))
            .unwrap_or(&s)
            .to_owned();
        s.trim_end_matches('/').to_owned()
    };
    !text.trim().is_empty() && bare(text) == bare(url)
}

/// `text` ending as a sentence does: a full stop unless it ends in one, or in ? or !.
fn sentence(mut text: String) -> String {
    if !text.ends_with(['.', '?', '!']) {
        text.push('.');
    }
    text
}

/// A poll's question and options with their votes, or a to-do list's tasks, in words.
fn widget_words(st: &State, w: &Widget) -> String {
    let mut out = String::new();
    match w {
        Widget::Poll(p) => {
            out.push_str(&sentence(format!("Poll: {}", sanitize(&p.question))));
            for (i, o) in p.options.iter().enumerate() {
                let n = o.voters.len();
                let votes = if n == 1 { "1 vote".to_owned() } else { format!("{n} votes") };
                let mine = if o.voters.contains(&st.data.me) { ", including yours" } else { "" };
                out.push_str(&format!(" Option {}: {}, {votes}{mine}.", i + 1, sanitize(&o.text)));
            }
        }
        Widget::Todo(t) => {
            let title = if t.title.is_empty() { "Task list".to_owned() } else { sanitize(&t.title) };
            out.push_str(&sentence(format!("Task list: {title}")));
            for (i, task) in t.tasks.iter().enumerate() {
                let desc =
                    if task.desc.is_empty() { String::new() } else { format!(": {}", sanitize(&task.desc)) };
                let done = if task.done { "done" } else { "not done" };
                out.push_str(&format!(" Task {}: {}{desc}, {done}.", i + 1, sanitize(&task.task)));
            }
        }
    }
    out
}

/// "thumbs up 2 including you, tada 1", in order of first appearance.
fn reactions(st: &State, m: &Stored) -> String {
    let counts = super::super::common::reaction_counts(st, m, |r| sanitize(&r.emoji_name).replace('_', " "));
    let parts: Vec<String> = counts
        .into_iter()
        .map(|(name, n, mine)| if mine { format!("{name} {n} including you") } else { format!("{name} {n}") })
        .collect();
    parts.join(", ")
}

/// A message on its way, in words.
fn pending_rows(st: &State, o: &Outgoing, width: usize) -> Vec<String> {
    let state = match &o.state {
        OutState::Queued if st.ui.conn.is_offline() => "waiting for the connection; ctrl+u edits".to_owned(),
        OutState::Queued => "waiting to send".to_owned(),
        OutState::Sending => "sending".to_owned(),
        OutState::Sent(_) => "sent".to_owned(),
        OutState::Retry { at, why } => format!(
            "not sent yet: {}; retrying at {}; ctrl+r sends now, ctrl+u edits",
            sanitize(why),
            st.tz.format(*at, "%H:%M:%S")
        ),
        OutState::Failed(why) => format!("not sent: {}; ctrl+r retries, ctrl+u edits", sanitize(why)),
    };
    let to = match &o.target {
        Target::Channel { id, topic } => {
            let name = match (st.data.channels.get(*id), &o.channel_name) {
                (None, Some(name)) => name.as_str(),
                _ => st.data.channels.name(*id),
            };
            format!("to channel {} topic {}", sanitize(name), sanitize(st.data.realm.topic_shown(topic)))
        }
        Target::Dm(users) if users.is_empty() => "to notes to self".into(),
        Target::Dm(users) => format!(
            "in a DM to {}",
            users.iter().map(|u| sanitize(&st.data.partner_name(*u))).collect::<Vec<_>>().join(", ")
        ),
    };
    let text: String = o.content.chars().take(2000).map(|c| if c == '\n' { ' ' } else { c }).collect();
    let mut rows = wrap(&format!("You, {to}, {state}:"), width);
    rows.extend(wrap(&sanitize(&text), width));
    rows
}

/// The messages pane filling `area`; the row of the selected message's first row.
pub(super) fn draw_messages(f: &mut Frame, st: &State, pane: &mut Pane, area: Rect) -> Option<u16> {
    let w = area.width as usize;
    let title = sanitize(&super::super::status::narrow_title(st, &st.ui.narrow));
    let mut head = format!("Messages in {title}");
    let view = st.data.views.get(&st.ui.narrow);
    let search = matches!(st.ui.narrow, Narrow::Search { .. });
    if let Some(who) = view.and_then(|v| v.answered_by(search)) {
        head.push_str(", ");
        head.push_str(who);
    }
    if st.ui.conn.fatal().is_some() {
        let text: Vec<String> = st.ui.conn.reopen().iter().map(|l| sanitize(l)).collect();
        let body = heading(f, pane.t, area, "The organization is closed");
        pane.hits.messages = body;
        let h = body.height as usize;
        let rows: Vec<String> = text.iter().flat_map(|l| wrap(l, w)).collect();
        for (k, r) in rows.iter().take(h).enumerate() {
            plain_row(f, pane.t, body, k as u16, r, false);
        }
        return Some(area.y);
    }
    let pending = |st: &State| -> Vec<String> {
        crate::app::pending_in(st, &st.ui.narrow).flat_map(|o| pending_rows(st, o, w)).collect()
    };
    let Some(view) = view.filter(|v| !v.ids().is_empty()) else {
        let text = match view {
            None if st.ui.conn.loading() => "connecting",
            None if st.ui.conn.is_offline() => crate::app::not_loaded(st),
            None => "loading",
            Some(v) if v.is_loading_newer() => "loading",
            Some(v) if !v.is_loaded() => crate::app::not_loaded(st),
            Some(_) => "no messages here",
        };
        let body = heading(f, pane.t, area, &format!("{head}: {text}"));
        pane.hits.messages = body;
        for (k, r) in pending(st).iter().take(body.height as usize).enumerate() {
            plain_row(f, pane.t, body, k as u16, r, false);
        }
        return Some(area.y);
    };
    if view.is_loading_older() {
        head.push_str(", loading older messages");
    }
    let body = heading(f, pane.t, area, &head);
    pane.hits.messages = body;
    let h = body.height as usize;
    let ids = view.ids();
    let sel = st.ui.selected.and_then(|id| ids.binary_search(&id).ok()).unwrap_or(ids.len() - 1);
    let mut laid = Laid { st, ids, w, rows: HashMap::new() };
    // The first message shown: the last frame's while the selected one still fits below it,
    // else as far up as lets the selected one end on the last row.
    let kept = match &pane.memory.messages_top {
        Some((n, id)) if *n == st.ui.narrow => ids.binary_search(id).ok(),
        _ => None,
    };
    let top = match kept {
        Some(t) if t <= sel => {
            let mut used = 0;
            let mut fits = true;
            for i in t..=sel {
                used += laid.count(pane, i);
                if used > h && i > t {
                    fits = false;
                    break;
                }
            }
            if fits { t } else { laid.fit_up(pane, sel, h) }
        }
        Some(_) => sel,
        None => laid.fit_up(pane, sel, h),
    };
    pane.memory.messages_top = Some((st.ui.narrow.clone(), ids[top]));
    let mut k = 0;
    let mut cursor = None;
    let mut owners: Vec<Option<MessageId>> = Vec::new();
    let mut i = top;
    while k < h && i < ids.len() {
        laid.count(pane, i);
        let (rows, links) = laid.rows.remove(&i).unwrap_or_default();
        // Its links are what `f` labels.
        pane.hits.links.extend((1..=links).map(|number| LinkSpot { message: ids[i], number }));
        for (r, text) in rows.iter().enumerate() {
            if k >= h {
                break;
            }
            let selected = i == sel && r == 0;
            if selected {
                cursor = Some(body.y + k as u16);
            }
            plain_row(f, pane.t, body, k as u16, text, selected);
            owners.push(Some(ids[i]));
            k += 1;
        }
        i += 1;
    }
    if i >= ids.len() && view.found_newest() {
        for r in pending(st) {
            if k >= h {
                break;
            }
            plain_row(f, pane.t, body, k as u16, &r, false);
            owners.push(None);
            k += 1;
        }
    }
    pane.hits.message_rows = owners;
    cursor
}

/// Messages of the view laid out into rows, each once a frame.
struct Laid<'a> {
    st: &'a State,
    ids: &'a [MessageId],
    w: usize,
    /// Each message's rows and how many links it numbers.
    rows: HashMap<usize, (Vec<String>, usize)>,
}

impl Laid<'_> {
    /// The rows message `i` of the view takes.
    fn count(&mut self, pane: &mut Pane, i: usize) -> usize {
        if let Some((r, _)) = self.rows.get(&i) {
            return r.len();
        }
        let st = self.st;
        let r =
            st.data.messages.get(&self.ids[i]).map(|m| message_rows(st, pane, m, self.w)).unwrap_or_default();
        let n = r.0.len();
        self.rows.insert(i, r);
        n
    }

    /// The first message to show so that message `sel` ends on the last of `h` rows (or starts
    /// on the first, when it takes more).
    fn fit_up(&mut self, pane: &mut Pane, sel: usize, h: usize) -> usize {
        let mut top = sel;
        let mut used = self.count(pane, sel);
        while top > 0 {
            let n = self.count(pane, top - 1);
            if used + n > h {
                break;
            }
            used += n;
            top -= 1;
        }
        top
    }
}
