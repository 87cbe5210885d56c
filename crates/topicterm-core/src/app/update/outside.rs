//! Reaching outside the terminal: opening links and attachments, copying to the clipboard,
//! editing in `$EDITOR`, notifications. `update` only decides; the effects do the work.

use super::common::*;
use super::navigation::{open_narrow, open_near};
use super::prelude::*;
use crate::api::urls::Link;
use crate::app::alerts::{ChannelAlerts, Facts};
use crate::app::burst::{Notice, Reason};
use crate::content::{ContentContext, Document, sanitize};

/// Which of `count` things (links, code blocks) the user means: the only one, the number
/// given, or `None` after asking (a prompt) or saying there is none.
fn pick(st: &mut State, what: &str, count: usize, number: Option<usize>, ask: PromptKind) -> Option<usize> {
    match (number, count) {
        (_, 0) => {
            set_error(st, format!("this message has no {what}s"));
            None
        }
        (None, 1) => Some(1),
        (None, count) => {
            st.ui.prompt = Some(Prompt::new(ask, ""));
            set_status(st, format!("which {what}? 1–{count}"));
            None
        }
        (Some(n), count) if n == 0 || n > count => {
            set_error(st, format!("no {what} {n}: the message has {count}"));
            None
        }
        (Some(n), _) => Some(n),
    }
}

/// `o`: open the selected message's link (asks which when there are several).
pub(super) fn open_link(st: &mut State, number: Option<usize>) -> Vec<Effect> {
    let Some(m) = selected_message(st) else { return vec![] };
    let links = shown_parts(st, m).links;
    if links.is_empty() {
        // Links out of sight are not offered; say where they are.
        let why = match st.shown(m) {
            Shown::Hidden => " (its sender is muted)",
            Shown::Body { spoilers_open: false } if !parts_with(m, true).links.is_empty() => {
                " shown (those in its closed spoiler count once it is open)"
            }
            _ => "",
        };
        set_error(st, format!("this message has no links{why}"));
        return vec![];
    }
    let Some(n) = pick(st, "link", links.len(), number, PromptKind::OpenLink) else { return vec![] };
    let url = links[n - 1].url.clone();
    open_shown_link(st, &url, &format!("[{n}]"))
}

/// Open a link the message pane shows, named `label` (`[2]`, or a link hint's `[as]`), through
/// [`open_judged`].
pub(super) fn open_shown_link(st: &mut State, url: &str, label: &str) -> Vec<Effect> {
    open_judged(st, url, label, &format!("link {label}"))
}

/// Open a link from server text: a link into the user's own web app here, at that place; an
/// upload on the user's own server downloaded (with their credentials) and opened; a web or
/// mail link in the browser. Only `urls::judge`, the one place that decides, says which.
/// `label` names it while it opens, `what` when it is refused.
pub(super) fn open_judged(st: &mut State, url: &str, label: &str, what: &str) -> Vec<Effect> {
    let (url, download) = match crate::api::urls::judge(&st.site, url) {
        Link::InApp(url) => {
            let fragment = url.fragment().unwrap_or_default();
            if let Some((narrow, near)) = crate::app::narrow::from_fragment(fragment, st.data.me) {
                set_status(st, format!("{label} opened here"));
                return match near {
                    Some(id) => open_near(st, narrow, id),
                    None => open_narrow(st, narrow),
                };
            }
            // A view of the web app topicterm has not (`#narrow/is/starred`): the browser.
            (url, false)
        }
        Link::OwnUpload(url) => (url, true),
        Link::Web(url) => (url, false),
        Link::Refused(why) => {
            set_error(st, format!("{what} not opened: {why}"));
            return vec![];
        }
    };
    set_status(st, if download { format!("downloading {label}…") } else { format!("opening {label}…") });
    vec![Effect::OpenUrl { url: url.to_string(), download }]
}

/// A link to a message that opens it in the web app.
pub fn message_link(st: &State, m: &Stored) -> String {
    let site = st.site.trim_end_matches('/');
    match m.stream_id() {
        Some(c) if !m.is_dm() => {
            let name = st.data.channels.name(c).replace(' ', "-");
            format!(
                "{site}/#narrow/channel/{c}-{}/topic/{}/near/{}",
                crate::api::urls::hash_component(&name),
                crate::api::urls::hash_component(m.topic()),
                m.id
            )
        }
        _ => {
            let mut ids = m.dm_user_ids();
            ids.sort_unstable();
            let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
            format!("{site}/#narrow/dm/{}/near/{}", ids.join(","), m.id)
        }
    }
}

/// `y`: copy a link to the selected message.
pub(super) fn copy_link(st: &mut State) -> Vec<Effect> {
    let Some(m) = selected_message(st) else { return vec![] };
    let link = message_link(st, m);
    set_status(st, "link to the message copied");
    vec![Effect::Term(TermEffect::Copy(link))]
}

/// Copy the address of a link the message pane shows, named `label`: made whole (a link on
/// this server gets its site) by `urls::judge`, which refuses what it would not open.
pub(super) fn copy_address(st: &mut State, url: &str, label: &str) -> Vec<Effect> {
    let url = match crate::api::urls::judge(&st.site, url) {
        Link::InApp(url) | Link::OwnUpload(url) | Link::Web(url) => url.to_string(),
        Link::Refused(why) => {
            set_error(st, format!("the address of {label} is not copied: {why}"));
            return vec![];
        }
    };
    set_status(st, format!("the address of {label} copied"));
    vec![Effect::Term(TermEffect::Copy(url))]
}

/// `Y`: copy a code block of the selected message (asks which when there are several).
pub(super) fn copy_code(st: &mut State, number: Option<usize>) -> Vec<Effect> {
    let Some(m) = selected_message(st) else { return vec![] };
    let blocks = shown_parts(st, m).code_blocks;
    let Some(n) = pick(st, "code block", blocks.len(), number, PromptKind::CopyCode) else { return vec![] };
    set_status(st, format!("code block {n} copied"));
    vec![Effect::Term(TermEffect::Copy(blocks[n - 1].code.clone()))]
}

/// `ctrl+o` in the compose box: edit the text in `$EDITOR`.
pub(super) fn external_edit(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    vec![Effect::Term(TermEffect::ExternalEdit { text: c.text() })]
}

/// The editor returned: its text replaces the compose box's (nothing is lost on failure).
pub(super) fn editor_done(
    st: &mut State,
    result: Result<String, crate::app::msg::ProgramFailure>,
) -> Vec<Effect> {
    match (result, &st.ui.compose) {
        (Ok(text), Some(c)) => {
            let text = text.trim_end_matches('\n');
            let mut new = Compose::new(c.target.clone(), text, c.editing);
            new.scheduled = c.scheduled;
            st.ui.compose = Some(new);
            st.ui.draft_dirty = true;
            set_status(st, "text taken back from the editor");
        }
        (Ok(_), None) => {}
        (Err(e), _) => {
            let why = e.words();
            set_error(
                st,
                format!("not edited: {why}; the text is unchanged ($VISUAL or $EDITOR names the editor)"),
            )
        }
    }
    vec![]
}

/// Text of a message's HTML for a notification: the document's text (closed spoilers stay
/// hidden, entities decoded, controls out), on one line.
pub fn plain_text(html: &str, max_chars: usize) -> String {
    struct Closed;
    impl ContentContext for Closed {
        fn format_time(&self, _: i64) -> String {
            String::new()
        }
        fn spoiler_open(&self, _: usize) -> bool {
            false
        }
    }
    cut(&Document::parse(html).summary(&Closed).text, max_chars)
}

/// At most `max_chars` characters of a text, "…" marking a cut.
pub(super) fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

/// A new message: whether it notifies, and how, is what the user set in Zulip (`app::alerts`,
/// with the config's written overrides) — never for the user's own, never from muted people,
/// never in muted topics or channels, not for the conversation on screen while the terminal has
/// focus. What is shown of it is `burst::admit`'s to decide.
pub(super) fn notify(st: &State, m: &Stored) -> Option<Notice> {
    let d = &st.data;
    if m.sender_id() == d.me || d.users.is_muted(m.sender_id()) {
        return None;
    }
    let mut facts = Facts {
        direct: m.is_dm(),
        mentioned: m.has_flag(Flag::Mentioned),
        wildcard: [Flag::WildcardMentioned, Flag::StreamWildcardMentioned, Flag::TopicWildcardMentioned]
            .into_iter()
            .any(|f| m.has_flag(f)),
        alert_word: m.has_flag(Flag::HasAlertWord),
        ..Default::default()
    };
    if !m.is_dm() {
        let c = m.stream_id()?;
        if d.topic_muted(c, m.topic()) {
            return None;
        }
        facts.followed = d.policy(c, m.topic()) == VisibilityPolicy::Followed;
        facts.channel = d.channels.get(c).map(|c| ChannelAlerts {
            desktop: c.desktop_notifications,
            audible: c.audible_notifications,
            wildcard_mentions_notify: c.wildcard_mentions_notify,
        });
    }
    let alert = crate::app::alerts::decide(&facts, d.user_settings(), &st.settings.notifications)?;
    let reason = alert.reason;
    let shown = !st.ui.presence.unfocused()
        && st.ui.orgs.on_screen()
        && st.ui.narrow.contains(m, d.me)
        && st.ui.narrow != Narrow::All;
    if shown {
        return None;
    }
    let sender = sanitize(m.sender_full_name());
    let (who, place) = match m.stream_id() {
        Some(c) if !m.is_dm() => {
            let why = match reason {
                Reason::Mention => " (mention)",
                Reason::AlertWord => " (alert word)",
                Reason::Followed => " (followed)",
                _ => "",
            };
            let place = format!("#{} > {}", sanitize(d.channels.name(c)), sanitize(m.topic()));
            (format!("{sender} in {place}{why}"), format!("in {place}"))
        }
        _ => {
            let others: Vec<String> = m
                .dm_user_ids()
                .into_iter()
                .filter(|u| *u != d.me)
                .map(|u| sanitize(d.user_name(u)))
                .collect();
            let place = match others.len() {
                0 | 1 => format!("from {sender}"),
                _ => format!("in the group with {}", cut(&others.join(", "), 80)),
            };
            (format!("{sender} (direct message)"), place)
        }
    };
    // A direct message's text only where the user lets notifications show it.
    let body = if m.is_dm() && d.user_settings().pm_content_in_desktop_notifications == Some(false) {
        who
    } else {
        format!("{who}: {}", plain_text(m.content(), 200))
    };
    let clicked = Clicked { open: super::recent::conversation(d, m), id: m.id };
    let (desktop, audible) = (alert.desktop, alert.audible);
    Some(Notice { title: org_name(st), body, clicked, reason, place, desktop, audible })
}

/// The organization, as a notification's title: its name among several open, else the name
/// its server gives it, else its server's host.
fn org_name(st: &State) -> String {
    match st.ui.orgs.own_name() {
        Some(org) => sanitize(&org),
        None if !st.data.realm.name.trim().is_empty() => sanitize(&st.data.realm.name),
        None => sanitize(&crate::api::urls::host_of(&st.site)),
    }
}

/// A notification clicked: its conversation on screen at its message, this organization
/// brought on screen if another was, and the bell, which draws the eye to the terminal (most
/// terminals mark or raise a window that rings).
pub(super) fn notification_clicked(st: &mut State, clicked: Clicked) -> Vec<Effect> {
    st.ui.popup = None;
    let mut fx = open_near(st, clicked.open, clicked.id);
    if !st.ui.orgs.on_screen() {
        fx.push(Effect::Term(TermEffect::SwitchOrganization(OrgSwitch::To(st.ui.orgs.index))));
    }
    fx.push(Effect::Term(TermEffect::Bell));
    fx
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::app::update;
    #[allow(unused_imports)]
    use crate::app::update::*;

    #[test]
    fn notification_text_is_the_rendered_text_without_closed_spoilers() {
        let html = "<p>a &amp; b <strong>bold</strong></p><div class=\"spoiler-block\">\
            <div class=\"spoiler-header\"><p>ending</p></div><div class=\"spoiler-content\"><p>he dies</p></div></div>";
        let text = plain_text(html, 200);
        assert!(text.starts_with("a & b bold") && text.contains("ending"), "{text}");
        assert!(!text.contains("he dies"), "a spoiler leaked: {text}");
        assert_eq!(plain_text("<p>abcdef</p>", 3), "abc…");
    }

    #[test]
    fn hash_encoding_matches_the_web_app() {
        assert_eq!(crate::api::urls::hash_component("copy me.now"), "copy.20me.2Enow");
        assert_eq!(crate::api::urls::hash_component("a(b)!~*'c/d"), "a(b)!~*'c.2Fd");
    }
}
