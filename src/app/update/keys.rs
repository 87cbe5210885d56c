//! Keys and pastes: routed to the prompt, popup, compose box or the pane's actions.

use super::actions::*;
use super::common::*;
use super::compose::*;
use super::navigation::*;
use super::palette::*;
use super::prelude::*;

pub(super) fn on_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    st.ui.last_input = st.now;
    if st.ui.prompt.is_some() {
        return on_prompt_key(st, key);
    }
    if st.ui.popup.is_some() {
        return on_popup_key(st, key);
    }
    if st.ui.compose.is_some() {
        return match st.settings.keymap.lookup(Context::Compose, &key) {
            Some(Action::Send) => send_compose(st),
            Some(Action::ExternalEditor) => super::outside::external_edit(st),
            Some(Action::Schedule) => {
                st.ui.prompt = Some(Prompt { kind: PromptKind::ScheduleTime, text: String::new() });
                vec![]
            }
            Some(Action::ChangeRecipient) => change_recipient(st),
            Some(Action::Attach) => {
                st.ui.prompt = Some(Prompt { kind: PromptKind::AttachPath, text: String::new() });
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
        && let Some(w) = st.data.widgets.get(&id)
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
    st.ui.last_input = st.now;
    // Terminals send a pasted line break as CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if let Some(p) = &mut st.ui.prompt {
        if p.kind != PromptKind::Confirm {
            let line = text.replace('\n', " ");
            p.text.extend(line.chars().filter(|c| !c.is_control()));
        }
        return vec![];
    }
    if st.ui.popup.is_some() {
        return vec![];
    }
    let Some(c) = &mut st.ui.compose else { return vec![] };
    let text: String = text.chars().filter(|&c| c == '\n' || c == '\t' || !c.is_control()).collect();
    c.editor.insert_str(text);
    st.ui.draft_dirty = true;
    let mut fx = super::typing::keystroke(st);
    fx.extend(suggest(st));
    fx
}

pub(super) fn on_prompt_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(p) = &mut st.ui.prompt else { return vec![] };
    if p.kind == PromptKind::Confirm {
        st.ui.prompt = None;
        let pending = st.ui.confirm.take();
        if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
            return pending.map(|(_, e)| *e).into_iter().collect();
        }
        set_status(st, "cancelled");
        return vec![];
    }
    if p.kind == PromptKind::Command && key.code == KeyCode::Tab && !p.text.contains(' ') {
        let options = crate::app::command::complete(&p.text);
        match options.as_slice() {
            [one] => p.text = format!("{one} "),
            [] => {}
            many => {
                // Extend to the longest common prefix and list the rest.
                let first = many[0];
                let common = (0..first.len())
                    .rev()
                    .map(|n| &first[..=n])
                    .find(|pre| many.iter().all(|o| o.starts_with(pre)))
                    .unwrap_or("");
                if common.len() > p.text.len() {
                    p.text = common.to_owned();
                }
                let list = many.join("  ");
                set_status(st, list);
            }
        }
        return vec![];
    }
    let completes = super::complete::completes(p.kind);
    if completes && matches!(key.code, KeyCode::Tab | KeyCode::BackTab) {
        return super::complete::prompt(st, key.code == KeyCode::BackTab);
    }
    let filter = matches!(p.kind, PromptKind::FilterChannels | PromptKind::FilterPeople).then_some(p.kind);
    match key.code {
        KeyCode::Esc => {
            st.ui.prompt = None;
            if let Some(kind) = filter {
                super::panes::filter_changed(st, kind, None);
            }
        }
        KeyCode::Backspace => {
            p.text.pop();
        }
        KeyCode::Enter => {
            let p = st.ui.prompt.take().expect("prompt");
            st.ui.completion = Completion::default();
            return submit_prompt(st, p);
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => p.text.push(c),
        _ => return vec![],
    }
    if st.ui.prompt.is_none() {
        st.ui.completion = Completion::default();
        return vec![];
    }
    if let (Some(kind), Some(p)) = (filter, &st.ui.prompt) {
        let text = p.text.clone();
        super::panes::filter_changed(st, kind, Some(&text));
        return vec![];
    }
    // The candidates follow what is typed.
    if completes { super::complete::suggest(st) } else { vec![] }
}

pub(super) fn submit_prompt(st: &mut State, p: Prompt) -> Vec<Effect> {
    match p.kind {
        PromptKind::Confirm => vec![],
        PromptKind::AttachPath if p.text.trim().is_empty() => vec![],
        PromptKind::AttachPath => super::attach::attach(st, p.text.trim()).unwrap_or_else(|e| {
            set_error(st, e);
            vec![]
        }),
        PromptKind::FilterChannels | PromptKind::FilterPeople => {
            super::panes::filter_changed(st, p.kind, Some(&p.text));
            super::panes::filter_kept(st, p.kind);
            vec![]
        }
        PromptKind::OpenLink | PromptKind::CopyCode => match p.text.trim().parse::<usize>() {
            Ok(n) if p.kind == PromptKind::OpenLink => super::outside::open_link(st, Some(n)),
            Ok(n) => super::outside::copy_code(st, Some(n)),
            Err(_) => {
                set_error(st, "type a number");
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::Command => match crate::app::command::parse(&p.text, st.data.realm.feature_level) {
            Ok(cmd) => match run_command(st, cmd) {
                Ok(fx) => fx,
                Err(e) => {
                    set_error(st, e);
                    st.ui.prompt = Some(p);
                    vec![]
                }
            },
            Err(e) => {
                set_error(st, e);
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::ScheduleTime => match crate::app::when::parse_when(&p.text, st.now, st.tz) {
            Ok(at) => schedule_compose(st, at),
            Err(e) => {
                set_error(st, e);
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::Search => match parse_search(&p.text, &st.data) {
            Ok(terms) => {
                let narrow = Narrow::Search { query: p.text.clone(), terms };
                st.data.narrows.remove(&narrow);
                open_narrow(st, narrow)
            }
            Err(e) => {
                set_error(st, format!("search: {e}"));
                st.ui.prompt = Some(p);
                vec![]
            }
        },
        PromptKind::ChannelTopic => {
            let (chan, topic) = p.text.split_once('>').unwrap_or((p.text.as_str(), ""));
            let chan = chan.trim().trim_start_matches('#');
            match crate::app::narrow::Resolver::channel_id(&st.data, chan) {
                Some(id) => {
                    let target = Target::Channel { id, topic: topic.trim().to_owned() };
                    return retarget_or_open(st, target);
                }
                None => {
                    set_error(st, format!("no channel named {chan:?}"));
                    st.ui.prompt = Some(p);
                }
            }
            vec![]
        }
        PromptKind::DmRecipients => {
            let mut ids = Vec::new();
            for who in p.text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                match crate::app::narrow::Resolver::user_id(&st.data, who) {
                    Some(id) => ids.push(id),
                    None => {
                        set_error(st, format!("no user {who:?}"));
                        st.ui.prompt = Some(p);
                        return vec![];
                    }
                }
            }
            if ids.is_empty() {
                set_error(st, "name at least one recipient");
                st.ui.prompt = Some(p);
                return vec![];
            }
            let target = Target::Dm(dm_key(&ids, st.data.me));
            retarget_or_open(st, target)
        }
    }
}

/// `ctrl+g` in the compose box: the `c` or `x` prompt, filled with where it goes now.
fn change_recipient(st: &mut State) -> Vec<Effect> {
    let Some(c) = &st.ui.compose else { return vec![] };
    if c.editing.is_some() {
        set_error(st, "a sent message keeps its conversation: :rename-topic or :move-topic moves it");
        return vec![];
    }
    let d = &st.data;
    let (kind, text) = match &c.target {
        Target::Channel { id, topic } => {
            (PromptKind::ChannelTopic, format!("{}>{topic}", d.channel_name(*id)))
        }
        Target::Dm(users) => {
            let names: Vec<&str> = users.iter().map(|u| d.user_name(*u)).collect();
            (PromptKind::DmRecipients, names.join(", "))
        }
    };
    st.ui.prompt = Some(Prompt { kind, text });
    vec![]
}

/// The `c`/`x` prompt answered: with a compose box open (`ctrl+g`) it now goes to `target`,
/// text and all (its draft moves with it); else a compose box opens for `target`.
fn retarget_or_open(st: &mut State, target: Target) -> Vec<Effect> {
    let Some(c) = &mut st.ui.compose else {
        open_compose(st, target, "", None);
        return vec![];
    };
    if c.target == target {
        return vec![];
    }
    let old = c.draft_key();
    c.target = target;
    c.suggestions.clear();
    let fx = drop_draft(st, old);
    st.ui.draft_dirty = true;
    set_status(st, "the message will go to the new recipient; the text is kept");
    // (Typing notices follow by themselves: `typing::follow` runs after every input.)
    vec![fx]
}

pub(super) fn on_popup_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    if let Some(fx) = super::directory_keys::on_popup_key(st, key) {
        return fx;
    }
    if matches!(st.ui.popup, Some(Popup::Image { .. })) {
        return super::images::on_image_key(st, key);
    }
    if matches!(st.ui.popup, Some(Popup::Scheduled { .. })) {
        let ids: Vec<i64> = scheduled_in_order(st);
        let Some(Popup::Scheduled { selected }) = &mut st.ui.popup else { return vec![] };
        *selected = (*selected).min(ids.len().saturating_sub(1));
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => st.ui.popup = None,
            KeyCode::Char('j') | KeyCode::Down => {
                *selected = (*selected + 1).min(ids.len().saturating_sub(1))
            }
            KeyCode::Char('k') | KeyCode::Up => *selected = selected.saturating_sub(1),
            KeyCode::Char('d') => {
                if let Some(sm) = ids.get(*selected).and_then(|id| st.data.scheduled.get(id)) {
                    let question = format!("Delete the scheduled message {}?", scheduled_label(st, sm));
                    let effect = Effect::Api(ApiCall::DeleteScheduled(sm.scheduled_message_id));
                    confirm(st, question, effect);
                }
            }
            KeyCode::Char('e') | KeyCode::Enter => {
                if let Some(sm) = ids.get(*selected).and_then(|id| st.data.scheduled.get(id)).cloned() {
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
        return vec![];
    }
    if let Some(Popup::Emoji { message_id, query, matches, selected }) = &mut st.ui.popup {
        match key.code {
            KeyCode::Esc => st.ui.popup = None,
            KeyCode::Down => *selected = (*selected + 1).min(matches.len().saturating_sub(1)),
            KeyCode::Up => *selected = selected.saturating_sub(1),
            KeyCode::Backspace => {
                query.pop();
                *matches = emoji_matches(&st.data, query, 200);
                *selected = 0;
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                query.push(c);
                *matches = emoji_matches(&st.data, query, 200);
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
                        m.reactions.iter().find(|r| {
                            r.user_id == me && r.emoji_code == code && r.reaction_type.as_str() == kind
                        })
                    })
                    .cloned();
                // Removal sends the server's stored name, code and type.
                let (emoji, add) = match mine {
                    Some(r) => (EmojiSpec::from(&r), false),
                    None => (
                        EmojiSpec {
                            emoji_name: Some(name),
                            emoji_code: Some(code),
                            reaction_type: Some(kind),
                        },
                        true,
                    ),
                };
                return vec![Effect::React { message_id: id, emoji, add }];
            }
            _ => {}
        }
        return vec![];
    }
    let Some(popup) = &mut st.ui.popup else { return vec![] };
    let scroll = match popup {
        Popup::Help { scroll }
        | Popup::EditHistory { scroll, .. }
        | Popup::MessageInfo { scroll, .. }
        | Popup::ChannelInfo { scroll, .. }
        | Popup::Profile { scroll, .. } => scroll,
        Popup::Scheduled { .. }
        | Popup::Emoji { .. }
        | Popup::Channels { .. }
        | Popup::Recent { .. }
        | Popup::Image { .. } => {
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
