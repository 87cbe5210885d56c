//! Palette commands that change settings: the user's status and alert words, the
//! organization's code playgrounds.

use super::common::*;
use super::compose::emoji_matches;
use super::prelude::*;
use crate::app::command::Backfill;
use crate::app::session::BackfillTarget;

/// `:forget`: remove this account's files from this machine, after asking.
pub(super) fn forget(st: &mut State) -> Vec<Effect> {
    let question = "Remove this account's archive of messages, last session, drafts and unsent messages \
                    from this machine? Nothing more is kept until you start topicterm again (history = \
                    false in the config keeps no archive)."
        .to_owned();
    super::palette_args::confirm(st, question, Effect::Forget);
    vec![]
}

/// `:archive #channel…` / `all` / `stop` / alone: fetch older history into the archive in the
/// background (`Effect::Backfill`), end that, or go on with what was ended. With no archive
/// kept, `net` answers that it is off.
pub(super) fn archive(st: &mut State, what: Backfill) -> Result<Vec<Effect>, String> {
    let targets = match what {
        Backfill::Stop => {
            // What was still to fetch (the last session's, when none ran yet) waits for
            // `:archive` alone.
            if !st.ui.backfill.stop() {
                set_status(st, "nothing is being archived (:archive #channel… or :archive all starts it)");
            } else {
                set_status(st, "archiving stopped; :archive alone resumes where it stopped");
            }
            return Ok(vec![Effect::BackfillStop]);
        }
        Backfill::Resume => {
            if let Some(running) = st.ui.backfill.running().first() {
                let name = running.name.clone();
                set_status(st, format!("archiving {name} goes on already (:archive stop ends it)"));
                return Ok(vec![]);
            }
            let targets = st.ui.backfill.take_to_resume();
            if targets.is_empty() {
                return Err(
                    "nothing stopped to resume: :archive #channel… or :archive all fetches older history"
                        .into(),
                );
            }
            return Ok(start_backfill(st, targets, "archiving resumes:"));
        }
        Backfill::All => vec![BackfillTarget { name: "all messages".into(), channel: None }],
        Backfill::Channels(names) => names
            .iter()
            .map(|n| {
                let id = super::palette_args::command_channel(st, Some(n))?;
                let name = st.data.channels.get(id).map_or_else(|| n.clone(), |c| c.name.clone());
                Ok(BackfillTarget { name: format!("#{name}"), channel: Some(id) })
            })
            .collect::<Result<Vec<_>, String>>()?,
    };
    Ok(start_backfill(st, targets, "archiving"))
}

/// Start fetching `targets`' history (`:archive`, or the last session's unfinished one).
pub(super) fn start_backfill(st: &mut State, targets: Vec<BackfillTarget>, doing: &str) -> Vec<Effect> {
    st.ui.backfill.start(&targets);
    let Some(first) = targets.first() else { return vec![] };
    set_status(st, format!("{doing} {}…", first.name));
    vec![Effect::Backfill(targets)]
}

/// `:status clear`: clear the status text and emoji.
pub(super) fn clear_status() -> Vec<Effect> {
    vec![Effect::Api(ApiCall::SetStatus(StatusUpdate {
        status_text: Some(String::new()),
        emoji_name: Some(String::new()),
        emoji_code: Some(String::new()),
        reaction_type: Some(String::new()),
        ..Default::default()
    }))]
}

/// `:status [:emoji:] TEXT`: set the status text, and its emoji when it starts with one.
pub(super) fn set_status_text(st: &State, text: &str) -> Result<Vec<Effect>, String> {
    // A leading :emoji: sets the status emoji; without one the emoji is cleared, as the
    // web app does (the server keeps fields that are not sent).
    let mut update = StatusUpdate {
        emoji_name: Some(String::new()),
        emoji_code: Some(String::new()),
        reaction_type: Some(String::new()),
        ..Default::default()
    };
    let mut text = text.trim().to_owned();
    if let Some(rest) = text.strip_prefix(':')
        && let Some((name, after)) = rest.split_once(':')
        && !name.contains(' ')
    {
        let (n, code, kind) = emoji_matches(&st.data, name, 1000)
            .into_iter()
            .find(|(n, _, _)| n == name)
            .or_else(|| {
                // A gemoji name (`:thumbsup:`) is taken as the Zulip name of its emoji.
                let (n, e) = crate::api::emoji::resolve(name)?;
                Some((n.to_owned(), e.code.to_owned(), "unicode_emoji".to_owned()))
            })
            .ok_or_else(|| format!("no emoji :{name}:"))?;
        update.emoji_name = Some(n);
        update.emoji_code = Some(code);
        update.reaction_type = Some(kind);
        text = after.trim().to_owned();
    }
    crate::api::limits::check_status_text(&text).map_err(|e| e.to_string())?;
    update.status_text = Some(text);
    Ok(vec![Effect::Api(ApiCall::SetStatus(update))])
}

/// `:alert-words`: say what the alert words are.
pub(super) fn list_alert_words(st: &mut State) -> Vec<Effect> {
    let text = super::answers::alert_words_note(st.data.alert_words());
    set_status(st, text);
    vec![]
}

/// `:playground`: add a code playground, once its URL template is one the server takes.
pub(super) fn add_playground(
    name: String,
    language: String,
    template: String,
) -> Result<Vec<Effect>, String> {
    crate::api::limits::check_playground_template(&template).map_err(|e| e.to_string())?;
    Ok(vec![Effect::Api(ApiCall::AddPlayground { name, language, template })])
}
