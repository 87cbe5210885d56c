//! Finished background jobs, put into words. `net` answers with what it ran and a typed result
//! (`ApiError` kinds, I/O errors); this file is the one place that says what the user reads about
//! them.

use super::common::*;
use super::prelude::*;
use crate::api::error::{CLIENT_CERTIFICATE_REQUIRED, Trouble, UNTRUSTED_CERTIFICATE};
use crate::app::msg::{Answer, Failure, Job, Unsubscribed};

/// An API error, in the user's words: the server's own message for a refusal, the kind of
/// trouble otherwise — never a status code, a URL or a library's text. The error itself, in
/// technical terms and without anything the server sent (see `ApiError`'s `Display`), goes to
/// the log.
pub fn why(e: &ApiError) -> String {
    match e.server() {
        Some(s) => tracing::info!("a request was refused: {s}"),
        None => tracing::info!("a request failed: {e}"),
    }
    match e.trouble() {
        Trouble::Unreachable => "server unreachable".into(),
        Trouble::NoAnswer => "no answer from the server".into(),
        Trouble::ConnectionLost => "connection lost".into(),
        Trouble::UntrustedCertificate => UNTRUSTED_CERTIFICATE.into(),
        Trouble::ClientCertificateRequired => CLIENT_CERTIFICATE_REQUIRED.into(),
        Trouble::Unavailable => "server unavailable".into(),
        Trouble::ServerFailed => "server error".into(),
        Trouble::TooManyRequests => "too many requests: the server asked to wait".into(),
        Trouble::NotUnderstood => "garbled answer from the server".into(),
        Trouble::NoSuchEndpoint => "not available on this server".into(),
        Trouble::Limit => e.to_string(),
        Trouble::Refused => match e.server() {
            Some(s) if !s.msg.trim().is_empty() => crate::content::sanitize(s.msg.trim()),
            Some(s) if s.status == 404 => "not found on the server".into(),
            Some(s) if matches!(s.status, 401 | 403) => "the server does not allow it".into(),
            _ => "refused by the server".into(),
        },
    }
}

/// How the user asks again for something: a key bound to an action, else a palette command.
pub(super) struct Again {
    pub key: Option<(Context, Action)>,
    pub command: Option<&'static str>,
}

/// How to ask again for what failed, when trying again may help (the trouble may pass): the
/// key (else the palette command) and "retries", as in " (v retries)"; empty for a refusal,
/// which asking again would only repeat.
pub(super) fn retry_hint(st: &State, e: &ApiError, again: &Again) -> String {
    if !e.is_transient() {
        return String::new();
    }
    let key = again.key.and_then(|(ctx, action)| st.settings.keymap.keys_for(ctx, action).into_iter().next());
    match key.or_else(|| again.command.map(|c| format!(":{c}"))) {
        Some(how) => format!(" ({how} retries)"),
        None => String::new(),
    }
}

/// A failed job in the user's words, with how to ask again (see [`retry_hint`]).
fn failure_again(st: &State, f: &Failure, again: &Again) -> String {
    match f {
        Failure::Api(e) => format!("{}{}", why(e), retry_hint(st, e, again)),
        f => failure(f),
    }
}

/// The failure of a call whose part shows it itself (a popup, the preview), with how to ask
/// for it again.
pub(super) fn failure_for(st: &State, call: &ApiCall, f: &Failure) -> String {
    let again = match call {
        ApiCall::Channels => Again { key: None, command: Some("channels") },
        ApiCall::ChannelDetails(_) => {
            Again { key: Some((Context::Sidebar, Action::ChannelInfo)), command: Some("channel-info") }
        }
        ApiCall::Profile(_) => {
            Again { key: Some((Context::Messages, Action::Profile)), command: Some("profile") }
        }
        ApiCall::Snippets => Again { key: None, command: Some("snippets") },
        ApiCall::RenderPreview { .. } => {
            Again { key: Some((Context::Compose, Action::Preview)), command: None }
        }
        ApiCall::RecentMessages => {
            Again { key: Some((Context::Global, Action::Recent)), command: Some("recent") }
        }
        _ => return failure(f),
    };
    failure_again(st, f, &again)
}

/// What the message pane says of a narrow that is neither loaded nor loading: why, and when it
/// will be (it loads when the server answers: see `reload_if_not_loaded` and `on_registered`).
pub fn not_loaded(st: &State) -> &'static str {
    if st.ui.conn.is_offline() {
        "Not loaded yet: offline — it loads when the server answers"
    } else if st.ui.conn.from_cache() {
        "Not loaded yet: it loads when the server answers"
    } else {
        "Not loaded: open it again to retry"
    }
}

/// Any failure, in the user's words.
/// A failure in the user's words, naming the server's version where what was asked does not
/// exist on it ("not available on this server (Zulip 8.0-dev)").
pub(super) fn failure_here(st: &State, f: &Failure) -> String {
    match f {
        Failure::Api(e) if e.trouble() == crate::api::error::Trouble::NoSuchEndpoint => {
            st.data.realm.not_here()
        }
        f => failure(f),
    }
}

pub(super) fn failure(f: &Failure) -> String {
    match f {
        Failure::Api(e) => why(e),
        Failure::Undecodable(why) => format!("not a picture topicterm can show ({why})"),
        Failure::File { path, error } => {
            format!("could not write {}: {}", path.display(), write_failure(error, path))
        }
        Failure::Read { path, error } => match error.kind() {
            std::io::ErrorKind::NotFound => format!("there is no file {}", path.display()),
            std::io::ErrorKind::PermissionDenied => format!("no permission to read {}", path.display()),
            std::io::ErrorKind::IsADirectory => format!("{} is a folder, not a file", path.display()),
            kind => format!("could not read {}: {kind}", path.display()),
        },
        Failure::TooLarge { path, size, max } => format!(
            "{} is {}; this server takes files up to {} MiB",
            path.display(),
            size_text(*size),
            max >> 20
        ),
    }
}

/// "12.3 MiB", "500 KiB", "80 bytes": binary units, as the server states its upload limit.
pub fn size_text(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{} KiB", bytes / 1024),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// The server refused the account (a wrong or revoked key, a deactivated user or
/// organization): the organization closes — nothing more goes to its server — and its screen
/// says why and how to fix the account and reopen it.
pub(super) fn account_refused(st: &mut State, e: &ApiError) -> Vec<Effect> {
    use crate::app::orgs::AccountSource;
    let reason = why(e);
    let key = REOPEN_KEY;
    let deactivated = matches!(e.code(), Some("USER_DEACTIVATED" | "REALM_DEACTIVATED"));
    let mut lines =
        vec!["The server refused this account:".to_owned(), format!("    {reason}"), String::new()];
    lines.extend(match &st.account {
        _ if deactivated => vec![
            "An administrator can reactivate it;".to_owned(),
            format!("then press {key} here to reopen it."),
        ],
        AccountSource::Account(name) => vec![
            "Log in again, in another terminal:".to_owned(),
            format!("    topicterm login --account {name}"),
            format!("then press {key} here to reopen it."),
        ],
        AccountSource::Zuliprc(path) => vec![
            format!("Put a valid API key in {}", path.display()),
            format!("(in another terminal), then press {key} here to reopen it."),
        ],
        AccountSource::Given => vec![format!("Press {key} to try again.")],
    });
    st.ui.conn.refused(format!("the server refused this account: {reason}"), lines);
    // Nothing is retried or asked any more; the screen is the explanation. What was being
    // written is kept on this machine, and comes back with the compose box once reopened.
    st.data.forget_queue();
    st.ui.popup = None;
    st.ui.prompt = None;
    st.ui.status = None;
    let Some(c) = st.ui.compose.take() else { return vec![] };
    let (key, text) = (c.draft_key(), c.text());
    st.ui.draft_dirty = false;
    st.drafts.insert(key.clone(), text.clone());
    vec![Effect::SaveDraft { key, text }]
}

/// Another organization of the window was closed (the server refused its account): where to
/// learn more.
pub(super) fn closed_elsewhere(st: &State, name: &str) -> String {
    let key = st.settings.keymap.keys_for(Context::Global, Action::NextOrganization).into_iter().next();
    let how = key.unwrap_or_else(|| "its row".to_owned());
    format!("{name} closed — the server refused the account; {how} shows how to reopen it")
}

/// The keys a closed organization takes (its `?`).
pub(super) fn closed_keys(st: &State) -> String {
    let quit = st.settings.keymap.keys_for(Context::Global, Action::Quit);
    let quit = quit.iter().find(|k| k.chars().count() == 1).or(quit.first());
    match quit {
        Some(q) => format!("closed: {REOPEN_KEY} reopens it once the account is fixed, {q} quits"),
        None => format!("closed: {REOPEN_KEY} reopens it once the account is fixed"),
    }
}

/// A closed organization could not be reopened.
pub(super) fn reopen_failed(why: &str) -> String {
    format!("not reopened: {why}")
}

/// A finished job whose answer is only words (the parts that take their own answers have them
/// from `done`).
pub(super) fn on_done(st: &mut State, job: Job, result: Result<Answer, Failure>) -> Vec<Effect> {
    let result = match result {
        Ok(answer) => answer,
        Err(f) => {
            refused(st, job, &f);
            return vec![];
        }
    };
    let call = match job {
        Job::Api(call) => *call,
        job => return other_success(st, job, result),
    };
    let note = match (call, result) {
        (ApiCall::ChannelEmail { .. }, Answer::Email(email)) => {
            set_status(st, format!("channel email copied: {email}"));
            return vec![Effect::Term(TermEffect::Copy(email))];
        }
        (call @ (ApiCall::Schedule(_) | ApiCall::UpdateScheduled { .. }), _) => {
            // Scheduled: the compose box's work is done.
            let fx: Vec<Effect> =
                st.ui.compose.take().map(|c| drop_draft(st, c.draft_key())).into_iter().collect();
            // When it will go, in words ("scheduled for tomorrow at 09:00"): it said only
            // "scheduled".
            let at = match &call {
                ApiCall::Schedule(m) => Some(m.scheduled_delivery_timestamp),
                ApiCall::UpdateScheduled { update, .. } => update.scheduled_delivery_timestamp,
                _ => None,
            };
            let note = match (matches!(call, ApiCall::Schedule(_)), at) {
                (true, Some(at)) => format!("scheduled for {}", when_words(st, at)),
                (false, Some(at)) => format!("scheduled message moved to {}", when_words(st, at)),
                (true, None) => "scheduled".to_owned(),
                (false, None) => "scheduled message updated".to_owned(),
            };
            set_status(st, note);
            return fx;
        }
        (_, Answer::Unsubscribed { done, refused }) => {
            let mut parts: Vec<String> = done.iter().flat_map(unsubscribed).collect();
            if let Some(e) = refused {
                parts.push(why(&e));
                set_error(st, parts.join("; "));
                return vec![];
            }
            parts.join("; ")
        }
        (ApiCall::CreateChannel(c), Answer::ChannelCreated(_)) => {
            let kind = if c.private { " (private)" } else { "" };
            format!("#{}{kind} created; you are in it", c.name)
        }
        (ApiCall::Invite { emails, channels, .. }, Answer::Invited(r)) => {
            invited_note(&emails, &channels, &r.skipped)
        }
        (ApiCall::AlertWords { .. }, Answer::Words(words)) => {
            st.data.on_alert_words(words);
            alert_words_note(st.data.alert_words())
        }
        (ApiCall::Remind { at, note, note_kept, .. }, _) => reminded(st, at, note.is_some() && !note_kept),
        (call, _) => api_success(call),
    };
    if !note.is_empty() {
        set_status(st, note);
    }
    vec![]
}

/// The reminders or uploads list was not loaded: it closes (if open) and says why.
pub(super) fn list_failed(st: &mut State, call: &ApiCall, f: &Failure) {
    let (what, action) = match call {
        ApiCall::Reminders => ("reminders", Action::Reminders),
        _ => ("uploads", Action::Uploads),
    };
    let open = matches!(
        (call, &st.ui.popup),
        (ApiCall::Reminders, Some(Popup::Reminders { .. })) | (ApiCall::Uploads, Some(Popup::Uploads { .. }))
    );
    if open {
        st.ui.popup = None;
    }
    let again = Again { key: Some((Context::Global, action)), command: Some(what) };
    set_error(st, format!("{what} not loaded: {}", failure_again(st, f, &again)));
}

/// When a time comes, from now: "today at 17:30", "tomorrow at 09:00", "on Wed 25 Nov at
/// 15:00" (with the year when it is another).
pub(super) fn when_words(st: &State, at: i64) -> String {
    let tz = st.tz;
    let day = |ts: i64| tz.format(ts, "%Y-%m-%d");
    let time = tz.format(at, st.settings.clock.time());
    if day(at) == day(st.now) {
        format!("today at {time}")
    } else if day(at) == day(st.now + 86_400) {
        format!("tomorrow at {time}")
    } else if tz.format(at, "%Y") == tz.format(st.now, "%Y") {
        format!("on {} at {time}", tz.format(at, "%a %-d %b"))
    } else {
        format!("on {} at {time}", tz.format(at, "%a %-d %b %Y"))
    }
}

/// A reminder was set: when it will come (and that the note was left out, by a server that
/// keeps none).
fn reminded(st: &State, at: i64, note_dropped: bool) -> String {
    let when = when_words(st, at);
    if note_dropped {
        format!("I'll remind you about this message {when} (without the note: this server keeps none)")
    } else {
        format!("I'll remind you about this message {when}")
    }
}

/// What a failing system opener's words end with: how to name a browser instead.
const NO_BROWSER: &str =
    " — set $BROWSER to your browser's command to open links (e.g. BROWSER=firefox topicterm)";

/// A job other than a palette operation worked.
fn other_success(st: &mut State, job: Job, result: Answer) -> Vec<Effect> {
    let note: String = match (job, result) {
        (Job::Open { .. }, Answer::Opened { target, saved, opening, browser }) => {
            // Without `$BROWSER`, a failing system opener says how to name a browser.
            let how = if browser { "" } else { NO_BROWSER };
            match (saved, opening) {
                (true, None) => format!("saved and opened {target}"),
                (false, None) => format!("opened {target}"),
                (true, Some(e)) => format!("saved {target} (not opened: {}{how})", e.words()),
                (false, Some(e)) => {
                    set_error(st, format!("could not open {target}: {}{how}", e.words()));
                    return vec![];
                }
            }
        }
        (Job::Open { .. }, Answer::Kept { target, why }) => format!("saved {target} — not opened: {why}"),
        (Job::DumpState, Answer::Written(path)) => format!("state written to {}", path.display()),
        (Job::MarkTopicRead, _) => "topic marked as read".into(),
        (Job::Star { add }, _) => if add { "starred" } else { "star taken off" }.into(),
        (Job::HidePreviews { hide }, _) => {
            if hide { "link previews hidden" } else { "link previews shown again" }.into()
        }
        (Job::React { add }, _) => if add { "reaction added" } else { "reaction taken back" }.into(),
        (Job::MarkChannelRead { name }, _) => format!("#{name} marked as read"),
        (Job::MarkAllRead, _) => "all messages marked as read".into(),
        (Job::Forget, _) => {
            "this account's archive, last session, drafts and unsent messages are removed from this machine"
                .into()
        }
        (Job::MarkUnread, _) => "marked as unread from the selected message".into(),
        (Job::DeleteTopic { name }, _) => format!("deleted {name}"),
        (Job::SetChannelMuted { name, muted }, _) => {
            format!("#{name} {}", if muted { "muted" } else { "unmuted" })
        }
        (Job::SetPolicy { channel, topic, policy }, _) => {
            format!("#{} > {topic}: {}", st.data.channels.name(channel), policy_words(policy).0)
        }
        _ => String::new(),
    };
    if !note.is_empty() {
        set_status(st, note);
    }
    vec![]
}

/// The alert words, for the status line.
pub(super) fn alert_words_note(words: &[String]) -> String {
    if words.is_empty() {
        "no alert words (:alert-words add WORD)".into()
    } else {
        format!("alert words: {}", crate::content::sanitize(&words.join(", ")))
    }
}

/// What a palette operation did, when it worked.
fn api_success(call: ApiCall) -> String {
    match call {
        ApiCall::SetStatus(u) if u.status_text.as_deref() == Some("") => "status cleared".into(),
        ApiCall::SetStatus(_) => "status set".into(),
        ApiCall::Deactivate { name, .. } => format!("{name} deactivated"),
        ApiCall::GroupMembers { done, .. } => done,
        ApiCall::NavView { fragment, .. } => format!("view {fragment} updated"),
        ApiCall::AddPlayground { name, .. } => format!("playground {name} added"),
        ApiCall::UserSetting { label, words, .. } => {
            format!("{label}: {words}, saved in your Zulip settings")
        }
        ApiCall::Apns { .. } => "APNs token registered".into(),
        ApiCall::Report { .. } => "reported to the moderators".into(),
        ApiCall::DeleteScheduled(_) => "scheduled message deleted".into(),
        ApiCall::MuteUser { name, mute: true, .. } => format!("{name} muted: their messages are hidden"),
        ApiCall::MuteUser { name, mute: false, .. } => format!("{name} unmuted"),
        ApiCall::AlertWords { .. } => String::new(),
        ApiCall::DeleteMessage(_) => "message deleted".into(),
        ApiCall::PushDefault { on: true, .. } => "new subscribers get mobile notifications for it".into(),
        ApiCall::PushDefault { on: false, .. } => {
            "new subscribers follow their own mobile notification default".into()
        }
        ApiCall::Channels
        | ApiCall::Submessage { .. }
        | ApiCall::RecentMessages
        | ApiCall::ChannelDetails(_)
        | ApiCall::Profile(_)
        | ApiCall::User(_)
        | ApiCall::PeopleOf(_)
        | ApiCall::People
        | ApiCall::Groups
        | ApiCall::Subscribe { .. }
        | ApiCall::SubscriptionProperty { .. } => String::new(),
        ApiCall::MoveTopic { done, .. } => done,
        ApiCall::Unsubscribe { .. } | ApiCall::ChannelEmail { .. } => String::new(),
        ApiCall::Schedule(_) | ApiCall::UpdateScheduled { .. } => String::new(),
        ApiCall::Remind { .. } | ApiCall::Reminders | ApiCall::Uploads => String::new(),
        ApiCall::DeleteReminder(_) => "reminder deleted".into(),
        ApiCall::DeleteUpload { name, .. } => format!("deleted {name}"),
        ApiCall::CreateChannel(_) | ApiCall::Invite { .. } => String::new(),
        // Put into words by `snippets.rs` and `preview.rs`.
        ApiCall::Snippets
        | ApiCall::CreateSnippet { .. }
        | ApiCall::DeleteSnippet { .. }
        | ApiCall::RenderPreview { .. } => String::new(),
    }
}

/// Who was invited, where to, and who was not and why (the server's reasons).
fn invited_note(emails: &[String], channels: &[String], skipped: &[crate::api::Skipped]) -> String {
    let sent: Vec<String> =
        emails.iter().filter(|e| !skipped.iter().any(|s| s.email.eq_ignore_ascii_case(e))).cloned().collect();
    let into = if channels.is_empty() {
        "the default channels".to_owned()
    } else {
        format!("#{}", channels.join(", #"))
    };
    let mut note = format!("invited {} (into {into})", and_list(&sent));
    if !skipped.is_empty() {
        note.push_str(&format!("; {}", skipped_note(skipped)));
    }
    note
}

/// "not invited: a@x.org (Already has an account.), …".
fn skipped_note(skipped: &[crate::api::Skipped]) -> String {
    let each: Vec<String> = skipped
        .iter()
        .map(|s| crate::content::sanitize(&format!("{} ({})", s.email, s.reason.trim())))
        .collect();
    format!("not invited: {}", each.join(", "))
}

/// A job failed: say so, in the terms of what was asked.
fn refused(st: &mut State, job: Job, f: &Failure) {
    let text = failure(f);
    let said = match job {
        Job::Quiet => return,
        Job::Api(call) => match (*call, f) {
            (ApiCall::Submessage { .. }, _) => format!("not counted: {text}"),
            (ApiCall::ChannelEmail { .. }, _) => format!("channel email: {text}"),
            (ApiCall::PushDefault { .. }, _) => {
                format!("the channel's mobile notification default is unchanged: {text}")
            }
            (ApiCall::Schedule(_) | ApiCall::UpdateScheduled { .. }, _) => format!("not scheduled: {text}"),
            (ApiCall::Invite { .. }, Failure::Api(e)) => match crate::api::invitation_failure(e) {
                Some((skipped, _)) if !skipped.is_empty() => {
                    format!("nobody was invited; {}", skipped_note(&skipped))
                }
                _ if insufficient(e) => {
                    "not invited: this organization does not let you invite people".into()
                }
                _ => format!("not invited: {text}"),
            },
            (ApiCall::CreateChannel(c), Failure::Api(e)) if insufficient(e) => {
                format!("#{} not created: this organization does not let you create channels", c.name)
            }
            (ApiCall::CreateChannel(c), _) => format!("#{} not created: {text}", c.name),
            (ApiCall::GroupMembers { group, names, .. }, Failure::Api(e)) => {
                group_refusal(&why(e), &group, &names)
            }
            (ApiCall::MoveTopic { .. }, Failure::Api(crate::api::ApiError::Server(e)))
                if e.code == "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED" =>
            {
                move_limit_refusal(e).unwrap_or(text)
            }
            // From level 511 the server says when a report could not reach the moderators.
            (ApiCall::Report { .. }, _) => format!("not reported: {text}"),
            (ApiCall::Remind { .. }, _) => format!("not reminded: {text}"),
            (ApiCall::UserSetting { label, .. }, _) => format!("{label} is unchanged: {text}"),
            (ApiCall::DeleteReminder(_), _) => format!("reminder not deleted: {text}"),
            (ApiCall::DeleteUpload { name, .. }, _) => format!("{name} not deleted: {text}"),
            _ => text,
        },
        Job::SaveDraft => match f {
            Failure::File { error, path } => {
                format!("could not save the draft: {}", write_failure(error, path))
            }
            _ => format!("could not save the draft: {text}"),
        },
        Job::Upload { .. } => format!("not attached: {text}"),
        Job::FetchTopics(_) => format!("topics: {text}"),
        Job::Star { add } => format!("{}: {text}", if add { "not starred" } else { "star not taken off" }),
        Job::HidePreviews { hide } => {
            format!("{}: {text}", if hide { "previews not hidden" } else { "previews not shown again" })
        }
        Job::React { add } => {
            format!("{}: {text}", if add { "reaction not added" } else { "reaction not taken back" })
        }
        Job::SetPolicy { channel, topic, policy } => {
            let name = st.data.channels.name(channel);
            format!("#{name} > {topic} not {}: {text}", policy_words(policy).0)
        }
        Job::Open { download: true } if matches!(f, Failure::Api(_)) => format!("download failed: {text}"),
        Job::Open { .. } if matches!(f, Failure::File { .. }) => match f {
            Failure::File { error, path } => format!("cannot save the file: {}", write_failure(error, path)),
            _ => text,
        },
        _ => text,
    };
    set_error(st, said);
}

/// A topic's visibility policy in words: what it is once set, and while it is being set.
pub(super) fn policy_words(policy: VisibilityPolicy) -> (&'static str, &'static str) {
    match policy {
        VisibilityPolicy::Muted => ("muted", "muting…"),
        VisibilityPolicy::Unmuted => ("unmuted", "unmuting…"),
        VisibilityPolicy::Followed => ("followed", "following…"),
        _ => ("back to default", "back to default…"),
    }
}

/// The server's refusal for want of permission: its message for it, or for a guest where a
/// view is for members only (`require_member_or_admin`: invitations).
fn insufficient(e: &ApiError) -> bool {
    e.server().is_some_and(|s| s.msg == "Insufficient permission" || s.msg == "Not allowed for guest users")
}

/// Why a file could not be written, in words (the I/O error's own text names the temporary
/// file it was written through).
fn write_failure(e: &std::io::Error, path: &std::path::Path) -> String {
    use std::io::ErrorKind as K;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    match e.kind() {
        K::NotFound => format!("there is no folder {}", dir.display()),
        K::PermissionDenied => format!("no permission to write in {}", dir.display()),
        K::IsADirectory => "that is a folder".into(),
        K::NotADirectory => format!("{} is not a folder", dir.display()),
        K::ReadOnlyFilesystem => "the file system is read-only".into(),
        K::StorageFull => "the disk is full".into(),
        other => other.to_string(),
    }
}

/// What an unsubscription did, naming who ("you" for oneself).
fn unsubscribed(u: &Unsubscribed) -> Vec<String> {
    let Unsubscribed { name, removed, not_removed } = u;
    let list = |chans: &[String]| format!("#{}", chans.join(", #"));
    let mut parts = Vec::new();
    if !removed.is_empty() {
        parts.push(if name == "you" {
            format!("you left {}", list(removed))
        } else {
            format!("{name} removed from {}", list(removed))
        });
    }
    if !not_removed.is_empty() {
        let was = if name == "you" { "you were" } else { "was" };
        let who = if name == "you" { String::new() } else { format!("{name} ") };
        parts.push(format!("{who}{was} not subscribed to {}", list(not_removed)));
    }
    parts
}

/// A refusal of a group change in names: the server's messages name users and groups by ID
/// ("User 14 is already a member of this group"), so the client words the known ones itself.
fn group_refusal(msg: &str, group: &str, names: &[(i64, String)]) -> String {
    let numbers: Vec<i64> = msg.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    let Some(name) = names.iter().find(|(id, _)| numbers.contains(id)).map(|(_, n)| n.as_str()) else {
        return if msg.contains("cycle") {
            format!("{group} cannot take a subgroup that contains it")
        } else {
            msg.to_owned()
        };
    };
    if msg.contains("already a member") {
        format!("{name} is already in {group}")
    } else if msg.contains("no member") {
        format!("{name} is not in {group}")
    } else if msg.contains("already a subgroup") {
        format!("{name} is already a subgroup of {group}")
    } else if msg.contains("not a subgroup") {
        format!("{name} is not a subgroup of {group}")
    } else if msg.starts_with("Invalid") {
        format!("{name} is deactivated or unknown")
    } else {
        msg.to_owned()
    }
}

/// A move that took messages past the organization's time limit (level 505 also for a
/// `change_all` from a message past it): how many may move, and how.
fn move_limit_refusal(e: &crate::api::ServerError) -> Option<String> {
    let n = |key: &str| e.extra.get(key).and_then(serde_json::Value::as_i64);
    let (allowed, all) = (n("total_messages_allowed_to_move")?, n("total_messages_in_topic")?);
    let first = n("first_message_id_allowed_to_move")?;
    Some(format!(
        "not moved: only the {allowed} most recent of the topic's {all} messages may move (the rest are past the organization's time limit); select the first of them (message {first}) and move it with the ones after it (`t`, tab: this and later)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(size_text(80), "80 bytes");
        assert_eq!(size_text(512_000), "500 KiB");
        assert_eq!(size_text(12_345_678), "11.8 MiB");
        assert_eq!(size_text(27 * 1_048_576), "27.0 MiB", "the same unit as the limit");
    }

    #[test]
    fn group_refusals_name_people_and_groups_not_ids() {
        let names = vec![(14, "Dave Kowalski".to_owned()), (3, "@frontend".to_owned())];
        let say = |msg: &str, group: &str| group_refusal(msg, group, &names);
        assert_eq!(
            say("User 14 is already a member of this group", "@backend"),
            "Dave Kowalski is already in @backend"
        );
        assert_eq!(
            say("There is no member '14' in this user group", "@backend"),
            "Dave Kowalski is not in @backend"
        );
        assert_eq!(
            say("User group 3 is not a subgroup of this group.", "@oncall"),
            "@frontend is not a subgroup of @oncall"
        );
        assert_eq!(
            say("User group 3 is already a subgroup of this group.", "@oncall"),
            "@frontend is already a subgroup of @oncall"
        );
        assert_eq!(say("Invalid user ID: 14", "@backend"), "Dave Kowalski is deactivated or unknown");
        assert_eq!(
            say("User group cycle detected", "@leads"),
            "@leads cannot take a subgroup that contains it"
        );
        assert_eq!(say("Insufficient permission", "@backend"), "Insufficient permission");
    }

    #[test]
    fn unsubscriptions_say_who() {
        let c = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let u = |name: &str, removed: &[&str], not_removed: &[&str]| Unsubscribed {
            name: name.into(),
            removed: c(removed),
            not_removed: c(not_removed),
        };
        assert_eq!(unsubscribed(&u("you", &["builds"], &[])), vec!["you left #builds"]);
        assert_eq!(unsubscribed(&u("you", &[], &["builds"])), vec!["you were not subscribed to #builds"]);
        assert_eq!(
            unsubscribed(&u("Dave Kowalski", &["a", "b"], &["c"])),
            vec!["Dave Kowalski removed from #a, #b", "Dave Kowalski was not subscribed to #c"]
        );
    }

    #[test]
    fn troubles_are_worded_without_codes_urls_or_a_librarys_text() {
        let server = |status: u16, body: serde_json::Value| {
            ApiError::Server(Box::new(ServerError::from_body(status, &body, None)))
        };
        let empty = serde_json::json!({});
        assert_eq!(why(&server(500, empty.clone())), "server error");
        assert_eq!(why(&server(502, empty.clone())), "server unavailable");
        assert_eq!(why(&server(429, empty.clone())), "too many requests: the server asked to wait");
        assert_eq!(why(&server(404, empty.clone())), "not found on the server");
        assert_eq!(why(&server(200, serde_json::json!({"result": "error"}))), "refused by the server");
        assert_eq!(why(&server(400, serde_json::json!({"msg": "Invalid narrow"}))), "Invalid narrow");
        let transport = |connect, timeout| ApiError::Transport {
            message: "/api/v1/messages: error sending request: connection refused".into(),
            timeout,
            connect,
        };
        assert_eq!(why(&transport(true, false)), "server unreachable");
        assert_eq!(why(&transport(false, true)), "no answer from the server");
        assert_eq!(why(&transport(false, false)), "connection lost");
        // No connection pool could be made: what trusts a server instead, not the library's reason.
        let no_pool = ApiError::no_connections("No CA certificates were loaded from the system");
        assert_eq!(why(&no_pool), UNTRUSTED_CERTIFICATE);
        assert!(
            why(&no_pool).contains("cert_bundle=PATH") && !why(&no_pool).contains("CA certificates were")
        );
        let garbled =
            ApiError::Decode { status: 200, message: "/messages: not JSON at line 1, column 1".into() };
        assert_eq!(why(&garbled), "garbled answer from the server");
        let page = ApiError::Decode { status: 504, message: "/events: not JSON at line 1, column 1".into() };
        assert_eq!(why(&page), "server unavailable");
    }

    #[test]
    fn a_reminder_says_when_it_comes_from_now() {
        // Saturday 2026-11-21 12:00 UTC.
        let now = 1_795_262_400;
        let st = State { now, tz: crate::app::TimeZone::Fixed(0), ..Default::default() };
        assert_eq!(when_words(&st, now + 2 * 3600), "today at 14:00");
        assert_eq!(when_words(&st, now + 21 * 3600), "tomorrow at 09:00");
        assert_eq!(when_words(&st, now + 4 * 86_400 + 3 * 3600), "on Wed 25 Nov at 15:00");
        assert_eq!(when_words(&st, now + 60 * 86_400), "on Wed 20 Jan 2027 at 12:00");
        assert_eq!(
            reminded(&st, now + 3600, true),
            "I'll remind you about this message today at 13:00 (without the note: this server keeps none)"
        );
        // Another time zone: its own today and tomorrow.
        let tokyo = State { tz: crate::app::TimeZone::Fixed(9 * 3600), ..st };
        assert_eq!(when_words(&tokyo, now + 13 * 3600), "tomorrow at 10:00");
    }

    #[test]
    fn write_failures_do_not_show_temporary_files() {
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "at path \"/x/.tmpAb12\"");
        assert_eq!(write_failure(&e, std::path::Path::new("/x/state.json")), "there is no folder /x");
        let f = Failure::File { path: "/x/state.json".into(), error: e };
        assert_eq!(failure(&f), "could not write /x/state.json: there is no folder /x");
    }
}
