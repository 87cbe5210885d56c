//! Palette commands on messages: jump to a date, delete one, add to its poll or to-do list,
//! report it, mark read.

use super::actions::{current_topic, mark_channel_read, mark_topic_read};
use super::common::*;
use super::palette_args::{command_channel, confirm};
use super::prelude::*;

/// `:date`: reload the view from the first message on or after a date.
pub(super) fn jump_to_date(st: &mut State, date: &str) -> Result<Vec<Effect>, String> {
    let date = date.trim().to_owned();
    let valid = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").is_ok()
        || chrono::NaiveDateTime::parse_from_str(&date.replace(' ', "T"), "%Y-%m-%dT%H:%M").is_ok();
    if !valid {
        return Err(format!("{date:?} is not a date; use YYYY-MM-DD or YYYY-MM-DD HH:MM"));
    }
    st.data
        .realm
        .level()
        .require(crate::api::levels::ANCHOR_DATE, "jumping to a date", "Zulip 12.0")
        .map_err(|e| e.to_string())?;
    let narrow = st.ui.narrow.clone();
    let epoch = st.data.reset_view(&narrow);
    st.ui.selected = None;
    st.ui.date_jump = Some(date.clone());
    let terms = narrow.terms(st.data.me);
    Ok(vec![Effect::JumpToDate { narrow, terms, date: date.replace(' ', "T"), epoch }])
}

/// `:delete`: ask before deleting the selected message (the user's own, or any for an admin).
pub(super) fn delete_message(st: &mut State) -> Result<Vec<Effect>, String> {
    let m = selected_message(st).ok_or("select a message first")?;
    // The organization's rules, before the question (`app::rules`).
    if let Some(why) = crate::app::rules::delete_refused(&st.data, m, st.now) {
        return Err(why);
    }
    let id = m.id;
    let preview: String = super::outside::plain_text(m.content(), 40);
    confirm(st, format!("Delete \"{preview}\"?"), Effect::Api(ApiCall::DeleteMessage(id)));
    Ok(vec![])
}

/// `:hide-previews` and `:show-previews`: the user's `hide_link_previews` flag on the selected
/// message (level 510), changed when the server's event says so.
pub(super) fn hide_previews(st: &mut State, hide: bool) -> Result<Vec<Effect>, String> {
    st.data
        .realm
        .level()
        .require(crate::api::levels::HIDE_LINK_PREVIEWS, "hiding link previews", "Zulip 13.0")
        .map_err(|e| e.to_string())?;
    let m = selected_message(st).ok_or("select a message first")?;
    if m.has_flag(Flag::HideLinkPreviews) == hide {
        return Err(if hide {
            "its link previews are hidden already"
        } else {
            "its link previews are shown"
        }
        .into());
    }
    let id = m.id;
    set_status(st, if hide { "hiding its link previews…" } else { "showing its link previews again…" });
    Ok(vec![Effect::HidePreviews { id, hide }])
}

/// `:poll-option` and `:todo-add`: add to the selected message's poll or to-do list.
pub(super) fn add_item(st: &State, poll: bool, text: &str) -> Result<Vec<Effect>, String> {
    use crate::app::widget::Widget;
    let id = st.ui.selected.ok_or("select the message with the poll or to-do list first")?;
    let w = st.data.widgets().get(&id);
    match (w, poll) {
        (Some(w @ Widget::Poll(_)), true) | (Some(w @ Widget::Todo(_)), false) => {
            let content = crate::app::widget::add_item(w, st.data.me, text);
            Ok(vec![Effect::Api(ApiCall::Submessage { message_id: id, content })])
        }
        (Some(Widget::Todo(_)), true) => Err("this message is a to-do list: :todo-add adds a task".into()),
        (Some(Widget::Poll(_)), false) => Err("this message is a poll: :poll-option adds an option".into()),
        (None, true) => Err("the selected message has no poll (/poll makes one)".into()),
        (None, false) => Err("the selected message has no to-do list (/todo makes one)".into()),
    }
}

/// `:mark-read`: the selected topic (`None`), the current channel (`false`), or everything
/// (`true`, after asking).
pub(super) fn mark_read(st: &mut State, what: Option<bool>) -> Result<Vec<Effect>, String> {
    match what {
        None => {
            let (c, t) = current_topic(st).ok_or("select a message in a topic first")?;
            set_status(st, format!("marking #{} > {t} as read…", st.data.channels.name(c)));
            Ok(mark_topic_read(c, t))
        }
        Some(false) => {
            let c = command_channel(st, None)?;
            Ok(mark_channel_read(st, c))
        }
        Some(true) => {
            confirm(st, "Mark every message as read?".into(), Effect::MarkAllRead);
            Ok(vec![])
        }
    }
}

/// `:report`: report the selected message to the organization's moderators.
pub(super) fn report(
    st: &State,
    report_type: String,
    description: Option<String>,
) -> Result<Vec<Effect>, String> {
    let id = st.ui.selected.ok_or("select the message to report first")?;
    if st.data.realm.moderation.moderation_channel.is_none() {
        return Err("this organization has no moderation channel, so messages cannot be reported".into());
    }
    let types = &st.data.realm.moderation.report_types;
    if !types.is_empty() && !types.iter().any(|t| t.key == report_type) {
        let keys: Vec<&str> = types.iter().map(|t| t.key.as_str()).collect();
        return Err(format!("report type must be one of: {}", keys.join(", ")));
    }
    crate::api::limits::check_report(&report_type, description.as_deref()).map_err(|e| e.to_string())?;
    Ok(vec![Effect::Api(ApiCall::Report { message_id: id, report_type, description })])
}
