//! Keys and pastes: routed to the prompt, popup, compose box or the pane's actions.

use super::actions::*;
use super::common::*;
use super::compose::*;
use super::palette::*;
use super::palette_args::confirm;
use super::prelude::*;

pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    st.ui.presence.key_pressed(st.now);
    if st.ui.prompt.is_some() {
        return super::prompt::on_prompt_key(st, key);
    }
    if st.ui.popup.is_some() {
        return on_popup_key(st, key);
    }
    if st.ui.compose.is_some() {
        let (sends, key) = enter_as_set(st, key);
        if !sends && let Some(fx) = super::preview::on_key(st, key) {
            return fx;
        }
        let action =
            if sends { Some(Action::Send) } else { st.settings.keymap.lookup(Context::Compose, &key) };
        return match action {
            Some(Action::Send) => send_compose(st),
            Some(Action::ExternalEditor) => super::outside::external_edit(st),
            Some(Action::Schedule) => {
                st.ui.prompt = Some(Prompt::new(PromptKind::ScheduleTime, ""));
                vec![]
            }
            Some(Action::ChangeRecipient) => super::prompt::change_recipient(st),
            Some(Action::Attach) => {
                st.ui.prompt = Some(Prompt::new(PromptKind::AttachPath, ""));
                vec![]
            }
            Some(Action::Cancel) => {
                let Some(c) = st.ui.compose.take() else { return vec![] };
                let text = c.text();
                let key = c.draft_key();
                let mut fx: Vec<Effect> = c
                    .editing
                    .map(|message_id| Effect::EditTyping { message_id, start: false })
                    .into_iter()
                    .collect();
                st.ui.draft_dirty = false;
                if text.trim().is_empty() {
                    st.drafts.remove(&key);
                    set_status(st, "closed");
                } else {
                    st.drafts.insert(key.clone(), text.clone());
                    set_status(st, "draft kept: reopen the conversation's compose box to continue");
                }
                fx.push(Effect::SaveDraft { key, text });
                fx
            }
            Some(Action::Preview) => super::preview::toggle(st),
            Some(Action::Snippets) => super::snippets::open(st),
            // Help over the box: its keys first; closed, the text is as it was.
            Some(Action::Help) => super::actions_screen::open_help(st),
            Some(a @ (Action::Complete | Action::CompleteBack)) => {
                super::complete::compose(st, a == Action::CompleteBack);
                vec![]
            }
            _ => {
                if let Some(c) = &mut st.ui.compose {
                    c.editor.input(key);
                    st.ui.draft_dirty = true;
                }
                let mut fx = super::typing::keystroke(st);
                fx.extend(suggest(st));
                fx
            }
        };
    }
    // Digits choose in the selected message's poll or to-do list.
    if let (Focus::Messages, KeyCode::Char(c @ '1'..='9')) = (st.ui.focus, key.code)
        && !key.modifiers.contains(KeyModifiers::CONTROL)
        && let Some(id) = st.ui.selected
        && let Some(w) = st.data.widgets().get(&id)
    {
        let n = c as usize - '1' as usize;
        return match crate::app::widget::choose(w, n, st.data.me) {
            Some(content) => vec![Effect::Api(ApiCall::Submessage { message_id: id, content })],
            None => {
                set_status(st, format!("there is no item {c} here"));
                vec![]
            }
        };
    }
    let ctx = match st.ui.focus {
        Focus::Sidebar => Context::Sidebar,
        Focus::Messages => Context::Messages,
        Focus::People => Context::People,
    };
    match st.settings.keymap.lookup(ctx, &key) {
        Some(a @ (Action::RenameTopic | Action::MoveTopic | Action::ResolveTopic)) => topic_key(st, a),
        Some(a) => on_action(st, a),
        // A digit on a message without a poll or a to-do list (handled above): say why nothing
        // happens.
        None if ctx == Context::Messages
            && matches!(key.code, KeyCode::Char('1'..='9'))
            && !key.modifiers.contains(KeyModifiers::CONTROL) =>
        {
            let why = if st.ui.selected.is_some() { "this message has neither" } else { "select one first" };
            set_status(st, format!("1–9 vote in a poll or tick a to-do item; {why}"));
            vec![]
        }
        None => vec![],
    }
}

/// A paste goes whole into the open prompt line (newlines become spaces: a paste never submits
/// it), else into the compose box; anywhere else it is ignored, so pasted text cannot run keys.
pub(super) fn on_paste(st: &mut State, text: &str) -> Vec<Effect> {
    st.ui.presence.key_pressed(st.now);
    // Terminals send a pasted line break as CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if st.ui.prompt.is_some() {
        return super::prompt::paste(st, &text);
    }
    if st.ui.popup.is_some() {
        return vec![];
    }
    // Pasted into the text: the preview goes, the editor shows what was pasted.
    super::preview::close(st);
    let Some(c) = &mut st.ui.compose else { return vec![] };
    let text: String = text.chars().filter(|&c| c == '\n' || c == '\t' || !c.is_control()).collect();
    c.editor.insert_str(text);
    st.ui.draft_dirty = true;
    let mut fx = super::typing::keystroke(st);
    fx.extend(suggest(st));
    fx
}

pub(super) fn on_popup_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    if let Some(fx) = super::hints::on_key(st, key) {
        return fx;
    }
    if let Some(fx) = super::directory_keys::on_popup_key(st, key) {
        return fx;
    }
    if let Some(fx) = super::lists_keys::on_popup_key(st, key) {
        return fx;
    }
    if let Some(fx) = super::snippet_keys::on_key(st, key) {
        return fx;
    }
    if let Some(fx) = super::inbox::on_key(st, key) {
        return fx;
    }
    if matches!(st.ui.popup, Some(Popup::Image { .. })) {
        return super::images::on_image_key(st, key);
    }
    match st.ui.popup {
        Some(Popup::Scheduled { .. }) => scheduled_key(st, key),
        Some(Popup::Drafts { .. }) => super::drafts_list::on_key(st, key),
        Some(Popup::Emoji { .. }) => emoji_key(st, key),
        _ => scroll_key(st, key),
    }
}

/// The scheduled messages' popup: move, delete after a question, edit in the compose box.
fn scheduled_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let ids: Vec<i64> = scheduled_in_order(st);
    let Some(Popup::Scheduled { selected }) = &mut st.ui.popup else { return vec![] };
    *selected = (*selected).min(ids.len().saturating_sub(1));
    // The keys every list popup shares (`G`, `g`, pages too: issue 40, `G` did nothing here).
    if list_move(selected, ids.len().saturating_sub(1), key.code) {
        return vec![];
    }
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
        KeyCode::Char('d') => {
            if let Some(sm) = ids.get(*selected).and_then(|id| st.data.lists.scheduled().get(id)) {
                let question = format!("Delete the scheduled message {}?", scheduled_label(st, sm));
                let effect = Effect::Api(ApiCall::DeleteScheduled(sm.scheduled_message_id));
                confirm(st, question, effect);
            }
        }
        KeyCode::Char('e') | KeyCode::Enter => {
            if let Some(sm) = ids.get(*selected).and_then(|id| st.data.lists.scheduled().get(id)).cloned() {
                let target = match &sm.to {
                    Recipient::Channel(c) => {
                        Target::Channel { id: *c, topic: sm.topic.clone().unwrap_or_default() }
                    }
                    Recipient::Users(u) => Target::Dm(dm_key(u, st.data.me)),
                };
                let mut c = Compose::new(target.clone(), &sm.content, None);
                c.scheduled = Some(sm.scheduled_message_id);
                // An edit cancelled earlier was kept as a draft: continue it.
                let draft = st.drafts.get(&c.draft_key()).filter(|d| !d.trim().is_empty());
                let restored = draft.is_some_and(|d| *d != sm.content);
                if let Some(d) = draft {
                    c = Compose::new(target, d, None);
                    c.scheduled = Some(sm.scheduled_message_id);
                }
                st.ui.compose = Some(c);
                st.ui.popup = None;
                let hint = match (sm.failed, restored) {
                    (true, _) => "this one failed: ctrl+s to pick a new time",
                    (false, true) => "draft restored: ctrl+d saves, ctrl+s changes the time",
                    (false, false) => "ctrl+d saves, ctrl+s changes the time",
                };
                set_status(st, hint);
            }
        }
        _ => {}
    }
    vec![]
}

/// The emoji picker: the query edits like a prompt, enter reacts (or takes the reaction back).
fn emoji_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(Popup::Emoji { message_id, query, matches, selected }) = &mut st.ui.popup else { return vec![] };
    match key.code {
        KeyCode::Esc => st.ui.popup = None,
        KeyCode::Down => *selected = (*selected + 1).min(matches.len().saturating_sub(1)),
        KeyCode::Up => *selected = selected.saturating_sub(1),
        // The query is a line like every prompt's (left/right, ctrl+w, ctrl+u, …).
        _ if query.key(&key) == crate::line::Edit::Changed => {
            *matches = emoji_matches(&st.data, query.text(), 200);
            *selected = 0;
        }
        KeyCode::Enter => {
            let id = *message_id;
            let Some((name, code, kind)) = matches.get(*selected).cloned() else { return vec![] };
            st.ui.popup = None;
            let me = st.data.me;
            let mine = st
                .data
                .messages
                .get(&id)
                .and_then(|m| {
                    m.reactions()
                        .iter()
                        .find(|r| r.user_id == me && r.emoji_code == code && r.reaction_type.as_str() == kind)
                })
                .cloned();
            // Removal sends the server's stored name, code and type.
            let (emoji, add) = match mine {
                Some(r) => (EmojiSpec::from(&r), false),
                None => (
                    EmojiSpec { emoji_name: Some(name), emoji_code: Some(code), reaction_type: Some(kind) },
                    true,
                ),
            };
            set_status(st, super::actions_message::reacting(add));
            return vec![Effect::React { message_id: id, emoji, add }];
        }
        _ => {}
    }
    vec![]
}

/// The popups of text (help, edit history, message and channel info, profiles): they scroll.
fn scroll_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(popup) = &mut st.ui.popup else { return vec![] };
    let scroll = match popup {
        Popup::Help { scroll }
        | Popup::EditHistory { scroll, .. }
        | Popup::MessageInfo { scroll, .. }
        | Popup::ChannelInfo { scroll, .. }
        | Popup::Profile { scroll, .. } => scroll,
        Popup::Scheduled { .. }
        | Popup::Drafts { .. }
        | Popup::Emoji { .. }
        | Popup::Channels { .. }
        | Popup::Recent { .. }
        | Popup::Image { .. }
        | Popup::Reminders { .. }
        | Popup::Settings { .. }
        | Popup::Uploads { .. }
        | Popup::Snippets { .. }
        | Popup::Inbox(_)
        | Popup::Hints(_) => {
            return vec![];
        }
    };
    // Never past the end as last drawn (`G` asks for "the end" before the view knows it).
    let bottom = st.ui.popup_bottom.get().unwrap_or(u16::MAX);
    *scroll = (*scroll).min(bottom);
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('?') => st.ui.popup = None,
        KeyCode::Char('j') | KeyCode::Down => *scroll = scroll.saturating_add(1).min(bottom),
        KeyCode::Char('k') | KeyCode::Up => *scroll = scroll.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => *scroll = scroll.saturating_add(10).min(bottom),
        KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
        KeyCode::Char('g') | KeyCode::Home => *scroll = 0,
        KeyCode::Char('G') | KeyCode::End => *scroll = bottom,
        _ => {}
    }
    vec![]
}
