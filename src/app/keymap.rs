//! Keys → actions, per context. The help screen is generated from these tables, so it can never
//! disagree with what the keys do.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a key is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Anywhere outside the compose box and prompts.
    Global,
    Sidebar,
    Messages,
    Compose,
}

/// Everything a key can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    FocusSidebar,
    FocusMessages,
    Open,
    AllMessages,
    AllDms,
    Starred,
    Mentions,
    Search,
    NextUnreadTopic,
    NextUnreadDm,
    NarrowChannel,
    NarrowTopic,
    Reply,
    ReplyAuthor,
    QuoteReply,
    NewChannelMessage,
    NewDm,
    Edit,
    Star,
    ThumbsUp,
    EmojiPicker,
    EditHistory,
    MessageInfo,
    MuteTopic,
    UnmuteTopic,
    FollowTopic,
    MarkTopicRead,
    ToggleSpoiler,
    Send,
    Complete,
    Schedule,
    Palette,
    TogglePeople,
    RetrySend,
    TakeBackUnsent,
    OpenLink,
    CopyLink,
    CopyCode,
    ExternalEditor,
    Cancel,
}

impl Action {
    /// What the help screen says.
    pub fn describe(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Help => "show this help",
            Action::Up => "move up",
            Action::Down => "move down",
            Action::PageUp => "page up (loads older messages)",
            Action::PageDown => "page down",
            Action::Top => "go to the top",
            Action::Bottom => "go to the bottom",
            Action::FocusSidebar => "focus the channels pane",
            Action::FocusMessages => "focus the messages pane",
            Action::Open => "open the selected channel or topic",
            Action::AllMessages => "all messages",
            Action::AllDms => "all direct messages",
            Action::Starred => "starred messages",
            Action::Mentions => "messages that mention you",
            Action::Search => "search (web syntax: channel:x topic:\"y\" sender:5 is:unread words)",
            Action::NextUnreadTopic => "next topic with unread messages",
            Action::NextUnreadDm => "next direct message conversation with unread messages",
            Action::NarrowChannel => "narrow to the selected message's channel",
            Action::NarrowTopic => "narrow to the selected message's topic or conversation",
            Action::Reply => "reply in the selected message's conversation",
            Action::ReplyAuthor => "reply to the author in a direct message",
            Action::QuoteReply => "quote and reply",
            Action::NewChannelMessage => "new channel message",
            Action::NewDm => "new direct message",
            Action::Edit => "edit your message",
            Action::Star => "star or unstar the message",
            Action::EmojiPicker => "react with any emoji (type to search; enter toggles)",
            Action::ThumbsUp => "react with 👍 (again to remove)",
            Action::EditHistory => "show the message's edit history",
            Action::MessageInfo => "message info: sender, exact time, links, reactions",
            Action::MuteTopic => "mute the topic (again: back to default)",
            Action::UnmuteTopic => "unmute the topic in a muted channel (again: back to default)",
            Action::FollowTopic => "follow the topic (again: back to default)",
            Action::MarkTopicRead => "mark the topic as read",
            Action::ToggleSpoiler => "open or close spoilers in the message",
            Action::Send => "send",
            Action::Complete => "complete @user, #channel, #channel>topic or :emoji:",
            Action::Schedule => "schedule for later (in 2h, tomorrow 9:00, 17:30, 2026-11-25 15:00)",
            Action::TogglePeople => "show or hide the people pane (presence and statuses)",
            Action::Palette => "command palette (tab completes; :help lists commands)",
            Action::RetrySend => "send unsent messages again now",
            Action::OpenLink => "open a link of the message (uploads are downloaded with your login)",
            Action::CopyLink => "copy a link to the message (OSC 52 clipboard, works over SSH)",
            Action::CopyCode => "copy a code block of the message",
            Action::ExternalEditor => "edit the text in $EDITOR",
            Action::TakeBackUnsent => "take the last unsent message back into the compose box",
            Action::Cancel => "close / cancel (the draft is kept)",
        }
    }
}

/// A key as written in the help screen and config files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn k(c: char) -> Key {
    Key { code: KeyCode::Char(c), mods: KeyModifiers::NONE }
}
const fn ctrl(c: char) -> Key {
    Key { code: KeyCode::Char(c), mods: KeyModifiers::CONTROL }
}
const fn code(code: KeyCode) -> Key {
    Key { code, mods: KeyModifiers::NONE }
}

/// Default bindings: (context, key, action). Earlier entries win.
pub const BINDINGS: &[(Context, Key, Action)] = &[
    (Context::Compose, ctrl('d'), Action::Send),
    (Context::Compose, Key { code: KeyCode::Enter, mods: KeyModifiers::ALT }, Action::Send),
    (Context::Compose, ctrl('s'), Action::Schedule),
    (Context::Compose, code(KeyCode::Tab), Action::Complete),
    (Context::Compose, ctrl('o'), Action::ExternalEditor),
    (Context::Compose, code(KeyCode::Esc), Action::Cancel),
    (Context::Global, ctrl('c'), Action::Quit),
    (Context::Global, k('q'), Action::Quit),
    (Context::Global, k('?'), Action::Help),
    (Context::Global, code(KeyCode::Esc), Action::Cancel),
    (Context::Global, k('a'), Action::AllMessages),
    (Context::Global, k('P'), Action::AllDms),
    (Context::Global, k('f'), Action::Starred),
    (Context::Global, k('#'), Action::Mentions),
    (Context::Global, k('/'), Action::Search),
    (Context::Global, k(':'), Action::Palette),
    (Context::Global, k('w'), Action::TogglePeople),
    (Context::Global, ctrl('r'), Action::RetrySend),
    (Context::Global, ctrl('u'), Action::TakeBackUnsent),
    (Context::Global, k('n'), Action::NextUnreadTopic),
    (Context::Global, k('p'), Action::NextUnreadDm),
    (Context::Global, k('c'), Action::NewChannelMessage),
    (Context::Global, k('x'), Action::NewDm),
    (Context::Global, k('j'), Action::Down),
    (Context::Global, code(KeyCode::Down), Action::Down),
    (Context::Global, k('k'), Action::Up),
    (Context::Global, code(KeyCode::Up), Action::Up),
    (Context::Global, code(KeyCode::PageUp), Action::PageUp),
    (Context::Global, code(KeyCode::PageDown), Action::PageDown),
    (Context::Global, k('g'), Action::Top),
    (Context::Global, code(KeyCode::Home), Action::Top),
    (Context::Global, k('G'), Action::Bottom),
    (Context::Global, code(KeyCode::End), Action::Bottom),
    (Context::Global, k('h'), Action::FocusSidebar),
    (Context::Global, code(KeyCode::Left), Action::FocusSidebar),
    (Context::Global, k('l'), Action::FocusMessages),
    (Context::Global, code(KeyCode::Right), Action::FocusMessages),
    (Context::Sidebar, code(KeyCode::Enter), Action::Open),
    (Context::Sidebar, k('M'), Action::MuteTopic),
    (Context::Sidebar, k('U'), Action::UnmuteTopic),
    (Context::Sidebar, k('F'), Action::FollowTopic),
    (Context::Sidebar, k('R'), Action::MarkTopicRead),
    (Context::Messages, k('r'), Action::Reply),
    (Context::Messages, code(KeyCode::Enter), Action::Reply),
    (Context::Messages, k('R'), Action::ReplyAuthor),
    (Context::Messages, k('>'), Action::QuoteReply),
    (Context::Messages, k('e'), Action::Edit),
    (Context::Messages, k('s'), Action::NarrowChannel),
    (Context::Messages, k('S'), Action::NarrowTopic),
    (Context::Messages, k('*'), Action::Star),
    (Context::Messages, k('+'), Action::ThumbsUp),
    (Context::Messages, k('E'), Action::EmojiPicker),
    (Context::Messages, k('H'), Action::EditHistory),
    (Context::Messages, k('i'), Action::MessageInfo),
    (Context::Messages, k('M'), Action::MuteTopic),
    (Context::Messages, k('U'), Action::UnmuteTopic),
    (Context::Messages, k('F'), Action::FollowTopic),
    (Context::Messages, k('T'), Action::MarkTopicRead),
    (Context::Messages, k('z'), Action::ToggleSpoiler),
    (Context::Messages, k('o'), Action::OpenLink),
    (Context::Messages, k('y'), Action::CopyLink),
    (Context::Messages, k('Y'), Action::CopyCode),
];

/// The action of a key in a context (falling back to global keys outside the compose box).
pub fn lookup(ctx: Context, key: &KeyEvent) -> Option<Action> {
    // Shifted letters arrive as uppercase chars, sometimes with SHIFT set.
    let mods = key.modifiers & !KeyModifiers::SHIFT;
    let matches = |b: &Key| b.code == key.code && b.mods == mods;
    let find = |c: Context| BINDINGS.iter().find(|(bc, b, _)| *bc == c && matches(b)).map(|(_, _, a)| *a);
    match ctx {
        Context::Compose => find(Context::Compose),
        Context::Global => find(Context::Global),
        other => find(other).or_else(|| find(Context::Global)),
    }
}

/// How a key is written.
pub fn key_name(key: &Key) -> String {
    let base = match key.code {
        KeyCode::Char(' ') => "space".to_owned(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::PageUp => "pgup".into(),
        KeyCode::PageDown => "pgdn".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        KeyCode::Tab => "tab".into(),
        other => format!("{other:?}").to_lowercase(),
    };
    let mut s = String::new();
    if key.mods.contains(KeyModifiers::CONTROL) {
        s.push_str("ctrl+");
    }
    if key.mods.contains(KeyModifiers::ALT) {
        s.push_str("alt+");
    }
    s + &base
}

/// Help lines for a context: (keys, description), the context's own keys first, then global.
pub fn help(ctx: Context) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let contexts: &[Context] = match ctx {
        Context::Compose => &[Context::Compose],
        Context::Global => &[Context::Global],
        Context::Sidebar => &[Context::Sidebar, Context::Global],
        _ => &[Context::Messages, Context::Global],
    };
    for c in contexts {
        let mut seen: Vec<Action> = Vec::new();
        for (bc, _, a) in BINDINGS.iter().filter(|(bc, _, _)| bc == c) {
            let _ = bc;
            if seen.contains(a) || out.iter().any(|(_, d)| *d == a.describe()) {
                continue;
            }
            seen.push(*a);
            let keys: Vec<String> = BINDINGS
                .iter()
                .filter(|(b2, _, a2)| b2 == c && a2 == a)
                .map(|(_, key, _)| key_name(key))
                .collect();
            out.push((keys.join(" / "), a.describe()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn context_keys_win_and_fall_back_to_global() {
        assert_eq!(lookup(Context::Messages, &key('r')), Some(Action::Reply));
        assert_eq!(lookup(Context::Sidebar, &key('r')), None);
        assert_eq!(lookup(Context::Sidebar, &key('j')), Some(Action::Down));
        assert_eq!(lookup(Context::Compose, &key('j')), None, "typing j in the editor is not a command");
        let shifted = KeyEvent::new(KeyCode::Char('M'), KeyModifiers::SHIFT);
        assert_eq!(lookup(Context::Messages, &shifted), Some(Action::MuteTopic));
    }

    #[test]
    fn help_lists_every_bound_action_of_the_context() {
        let h = help(Context::Messages);
        for (c, _, a) in BINDINGS {
            if *c == Context::Messages || *c == Context::Global {
                assert!(h.iter().any(|(_, d)| *d == a.describe()), "{a:?} missing from help");
            }
        }
        assert!(h.iter().any(|(k, _)| k == "r / enter"));
    }
}
