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
    CompleteBack,
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
    /// Every action, in the order the default config lists them.
    pub const ALL: &[Action] = &[
        Action::Quit,
        Action::Help,
        Action::Up,
        Action::Down,
        Action::PageUp,
        Action::PageDown,
        Action::Top,
        Action::Bottom,
        Action::FocusSidebar,
        Action::FocusMessages,
        Action::Open,
        Action::AllMessages,
        Action::AllDms,
        Action::Starred,
        Action::Mentions,
        Action::Search,
        Action::NextUnreadTopic,
        Action::NextUnreadDm,
        Action::NarrowChannel,
        Action::NarrowTopic,
        Action::Reply,
        Action::ReplyAuthor,
        Action::QuoteReply,
        Action::NewChannelMessage,
        Action::NewDm,
        Action::Edit,
        Action::Star,
        Action::ThumbsUp,
        Action::EmojiPicker,
        Action::EditHistory,
        Action::MessageInfo,
        Action::MuteTopic,
        Action::UnmuteTopic,
        Action::FollowTopic,
        Action::MarkTopicRead,
        Action::ToggleSpoiler,
        Action::Send,
        Action::Complete,
        Action::CompleteBack,
        Action::Schedule,
        Action::Palette,
        Action::TogglePeople,
        Action::RetrySend,
        Action::TakeBackUnsent,
        Action::OpenLink,
        Action::CopyLink,
        Action::CopyCode,
        Action::ExternalEditor,
        Action::Cancel,
    ];

    /// The action's name in config files.
    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Help => "help",
            Action::Up => "up",
            Action::Down => "down",
            Action::PageUp => "page_up",
            Action::PageDown => "page_down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::FocusSidebar => "focus_channels",
            Action::FocusMessages => "focus_messages",
            Action::Open => "open",
            Action::AllMessages => "all_messages",
            Action::AllDms => "all_dms",
            Action::Starred => "starred",
            Action::Mentions => "mentions",
            Action::Search => "search",
            Action::NextUnreadTopic => "next_unread_topic",
            Action::NextUnreadDm => "next_unread_dm",
            Action::NarrowChannel => "narrow_channel",
            Action::NarrowTopic => "narrow_conversation",
            Action::Reply => "reply",
            Action::ReplyAuthor => "reply_author",
            Action::QuoteReply => "quote_reply",
            Action::NewChannelMessage => "new_channel_message",
            Action::NewDm => "new_dm",
            Action::Edit => "edit",
            Action::Star => "star",
            Action::ThumbsUp => "thumbs_up",
            Action::EmojiPicker => "emoji_picker",
            Action::EditHistory => "edit_history",
            Action::MessageInfo => "message_info",
            Action::MuteTopic => "mute_topic",
            Action::UnmuteTopic => "unmute_topic",
            Action::FollowTopic => "follow_topic",
            Action::MarkTopicRead => "mark_topic_read",
            Action::ToggleSpoiler => "toggle_spoilers",
            Action::Send => "send",
            Action::Complete => "complete",
            Action::CompleteBack => "complete_back",
            Action::Schedule => "schedule",
            Action::Palette => "palette",
            Action::TogglePeople => "toggle_people",
            Action::RetrySend => "retry_send",
            Action::TakeBackUnsent => "take_back_unsent",
            Action::OpenLink => "open_link",
            Action::CopyLink => "copy_link",
            Action::CopyCode => "copy_code",
            Action::ExternalEditor => "external_editor",
            Action::Cancel => "cancel",
        }
    }

    /// The action a config file names.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.iter().copied().find(|a| a.name() == name)
    }

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
            Action::Complete => "complete @user, #channel, #channel>topic or :emoji: (again: the next match)",
            Action::CompleteBack => "the previous completion",
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
    (Context::Compose, code(KeyCode::BackTab), Action::CompleteBack),
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

/// The keys in force: the defaults of [`BINDINGS`] with the user's overrides applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<(Context, Key, Action)>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap { bindings: BINDINGS.to_vec() }
    }
}

/// The user's keys for an action: in one context, or (`None`) wherever the action has keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub context: Option<Context>,
    pub action: Action,
    pub keys: Vec<Key>,
}

impl Override {
    /// The override in force for an action in a context.
    pub fn find(overrides: &[Override], ctx: Context, action: Action) -> Option<&Override> {
        let mine = |o: &&Override| o.action == action;
        overrides
            .iter()
            .filter(mine)
            .find(|o| o.context == Some(ctx))
            .or_else(|| overrides.iter().filter(mine).find(|o| o.context.is_none()))
    }
}

/// Two actions want the same key where both would be reachable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyConflict {
    pub key: Key,
    /// Where the key is pressed.
    pub context: Context,
    /// The action that keeps the key (first in the table) and the one that loses it.
    pub actions: (Action, Action),
}

impl std::fmt::Display for KeyConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is bound to both {} and {} {}",
            self.key.config_name(),
            self.actions.0.name(),
            self.actions.1.name(),
            self.context.where_pressed()
        )
    }
}

impl Keymap {
    /// The defaults with each overridden action bound to exactly the given keys (none:
    /// unbound). An override for one context wins over one for every context of the action.
    /// A key that would then do two things in one place is an error.
    pub fn with_overrides(overrides: &[Override]) -> Result<Keymap, KeyConflict> {
        let mut bindings = Vec::new();
        let mut placed: Vec<(Context, Action)> = Vec::new();
        for &(ctx, key, action) in BINDINGS {
            match Override::find(overrides, ctx, action) {
                None => bindings.push((ctx, key, action)),
                // The replacement keys go where the first default was, so overriding an action
                // with its default keys changes nothing.
                Some(o) if !placed.contains(&(ctx, action)) => {
                    placed.push((ctx, action));
                    for k in &o.keys {
                        if !bindings.contains(&(ctx, *k, action)) {
                            bindings.push((ctx, *k, action));
                        }
                    }
                }
                Some(_) => {}
            }
        }
        let map = Keymap { bindings };
        match map.conflicts().into_iter().next() {
            Some(c) => Err(c),
            None => Ok(map),
        }
    }

    /// Keys that do two things in one place: twice in one context, or in a pane's context and
    /// among the global keys (the pane's action would hide the global one there).
    pub fn conflicts(&self) -> Vec<KeyConflict> {
        let mut out = Vec::new();
        for (i, &(ctx, key, action)) in self.bindings.iter().enumerate() {
            for &(ctx2, key2, action2) in &self.bindings[..i] {
                let overlaps = ctx2 == ctx
                    || (ctx2 == Context::Global && matches!(ctx, Context::Sidebar | Context::Messages))
                    || (ctx == Context::Global && matches!(ctx2, Context::Sidebar | Context::Messages));
                if overlaps && key2 == key && action2 != action {
                    let pane = if ctx == Context::Global { ctx2 } else { ctx };
                    out.push(KeyConflict { key, context: pane, actions: (action2, action) });
                }
            }
        }
        out
    }

    /// The action of a key in a context (falling back to global keys outside the compose box).
    pub fn lookup(&self, ctx: Context, key: &KeyEvent) -> Option<Action> {
        // Shifted letters arrive as uppercase chars, sometimes with SHIFT set.
        let mods = key.modifiers & !KeyModifiers::SHIFT;
        let matches = |b: &Key| b.code == key.code && b.mods == mods;
        let find =
            |c: Context| self.bindings.iter().find(|(bc, b, _)| *bc == c && matches(b)).map(|(_, _, a)| *a);
        match ctx {
            Context::Compose => find(Context::Compose),
            Context::Global => find(Context::Global),
            other => find(other).or_else(|| find(Context::Global)),
        }
    }

    /// The keys of an action in a context, as written in the help screen.
    pub fn keys_for(&self, ctx: Context, action: Action) -> Vec<String> {
        self.bindings
            .iter()
            .filter(|(c, _, a)| *c == ctx && *a == action)
            .map(|(_, k, _)| key_name(k))
            .collect()
    }

    /// Every binding, in order of precedence.
    pub fn bindings(&self) -> &[(Context, Key, Action)] {
        &self.bindings
    }

    /// Help lines for a context: (keys, description), the context's own keys first, then global.
    pub fn help(&self, ctx: Context) -> Vec<(String, &'static str)> {
        let mut out: Vec<(String, &'static str)> = Vec::new();
        let contexts: &[Context] = match ctx {
            Context::Compose => &[Context::Compose],
            Context::Global => &[Context::Global],
            Context::Sidebar => &[Context::Sidebar, Context::Global],
            _ => &[Context::Messages, Context::Global],
        };
        for c in contexts {
            let mut seen: Vec<Action> = Vec::new();
            for (_, _, a) in self.bindings.iter().filter(|(bc, _, _)| bc == c) {
                if seen.contains(a) || out.iter().any(|(_, d)| *d == a.describe()) {
                    continue;
                }
                seen.push(*a);
                out.push((self.keys_for(*c, *a).join(" / "), a.describe()));
            }
        }
        out
    }
}

impl Context {
    /// Every context, with its name in config files (`[keys.messages]`).
    pub const ALL: &[(&str, Context)] = &[
        ("global", Context::Global),
        ("channels", Context::Sidebar),
        ("messages", Context::Messages),
        ("compose", Context::Compose),
    ];

    pub fn config_name(self) -> &'static str {
        Self::ALL.iter().find(|(_, c)| *c == self).map_or("global", |(n, _)| n)
    }

    /// The contexts where an action has default keys (where overrides for it can go).
    pub fn of(action: Action) -> Vec<Context> {
        let mut out = Vec::new();
        for (c, _, a) in BINDINGS {
            if *a == action && !out.contains(c) {
                out.push(*c);
            }
        }
        out
    }

    /// "in the compose box", as error messages say it.
    pub fn where_pressed(self) -> &'static str {
        match self {
            Context::Global => "everywhere",
            Context::Sidebar => "in the channels pane",
            Context::Messages => "in the messages pane",
            Context::Compose => "in the compose box",
        }
    }
}

/// How a key is written on the help screen.
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
        KeyCode::BackTab => "shift+tab".into(),
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

/// Named keys, as config files write them (the first name of each is the one printed).
const NAMED_KEYS: &[(&str, KeyCode)] = &[
    ("enter", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("escape", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("space", KeyCode::Char(' ')),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("del", KeyCode::Delete),
    ("insert", KeyCode::Insert),
    ("up", KeyCode::Up),
    ("↑", KeyCode::Up),
    ("down", KeyCode::Down),
    ("↓", KeyCode::Down),
    ("left", KeyCode::Left),
    ("←", KeyCode::Left),
    ("right", KeyCode::Right),
    ("→", KeyCode::Right),
    ("pgup", KeyCode::PageUp),
    ("pageup", KeyCode::PageUp),
    ("pgdn", KeyCode::PageDown),
    ("pagedown", KeyCode::PageDown),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
];

/// What a key may be written as, for error messages.
pub const KEY_SYNTAX: &str = "a character (q, G, ?, +), a name (enter, esc, tab, backtab, space, backspace, \
     delete, insert, up, down, left, right, pgup, pgdn, home, end, f1–f12), optionally after ctrl+ and/or alt+";

impl Key {
    /// Parse a key as config files write it: `q`, `G`, `ctrl+d`, `alt+enter`, `pgup`, `f5`, `+`.
    pub fn parse(text: &str) -> Result<Key, String> {
        let bad = || format!("{text:?} is not a key: use {KEY_SYNTAX}");
        let mut mods = KeyModifiers::NONE;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            let (m, len) = if lower.starts_with("ctrl+") && rest.len() > 5 {
                (KeyModifiers::CONTROL, 5)
            } else if lower.starts_with("alt+") && rest.len() > 4 {
                (KeyModifiers::ALT, 4)
            } else if lower.starts_with("shift+") && rest.len() > 6 {
                (KeyModifiers::SHIFT, 6)
            } else {
                break;
            };
            mods |= m;
            rest = &rest[len..];
        }
        let mut chars = rest.chars();
        let lower = rest.to_lowercase();
        let code = if let Some((_, code)) = NAMED_KEYS.iter().find(|(n, _)| *n == lower) {
            *code
        } else if let (Some(c), None) = (chars.next(), chars.next()) {
            if c.is_control() {
                return Err(bad());
            }
            KeyCode::Char(c)
        } else if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
            if !(1..=12).contains(&n) {
                return Err(bad());
            }
            KeyCode::F(n)
        } else {
            return Err(bad());
        };
        // Terminals send shifted letters as uppercase and shift+tab as backtab; other
        // shifted keys cannot be told apart.
        let code = if mods.contains(KeyModifiers::SHIFT) {
            mods.remove(KeyModifiers::SHIFT);
            match code {
                KeyCode::Char(c) if c.is_alphabetic() => KeyCode::Char(c.to_uppercase().next().unwrap_or(c)),
                KeyCode::Tab => KeyCode::BackTab,
                _ => return Err(format!("{text:?}: shift+ only goes with letters and tab")),
            }
        } else {
            code
        };
        Ok(Key { code, mods })
    }

    /// How config files write the key (what [`Key::parse`] reads back).
    pub fn config_name(&self) -> String {
        let base = match self.code {
            KeyCode::Char(c) if c != ' ' => c.to_string(),
            KeyCode::F(n) => format!("f{n}"),
            code => NAMED_KEYS.iter().find(|(_, c)| *c == code).map_or("?", |(n, _)| *n).to_owned(),
        };
        let mut s = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            s.push_str("ctrl+");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            s.push_str("alt+");
        }
        s + &base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn context_keys_win_and_fall_back_to_global() {
        let km = Keymap::default();
        assert_eq!(km.lookup(Context::Messages, &key('r')), Some(Action::Reply));
        assert_eq!(km.lookup(Context::Sidebar, &key('r')), None);
        assert_eq!(km.lookup(Context::Sidebar, &key('j')), Some(Action::Down));
        assert_eq!(km.lookup(Context::Compose, &key('j')), None, "typing j in the editor is not a command");
        let shifted = KeyEvent::new(KeyCode::Char('M'), KeyModifiers::SHIFT);
        assert_eq!(km.lookup(Context::Messages, &shifted), Some(Action::MuteTopic));
    }

    #[test]
    fn help_lists_every_bound_action_of_the_context() {
        let h = Keymap::default().help(Context::Messages);
        for (c, _, a) in BINDINGS {
            if *c == Context::Messages || *c == Context::Global {
                assert!(h.iter().any(|(_, d)| *d == a.describe()), "{a:?} missing from help");
            }
        }
        assert!(h.iter().any(|(k, _)| k == "r / enter"));
    }

    #[test]
    fn every_action_has_a_unique_name_and_a_default_key() {
        for (_, _, a) in BINDINGS {
            assert!(Action::ALL.contains(a), "{a:?} is missing from Action::ALL");
        }
        for a in Action::ALL {
            assert!(BINDINGS.iter().any(|(_, _, b)| b == a), "{a:?} has no default key");
            assert_eq!(Action::from_name(a.name()), Some(*a));
            assert_eq!(Action::ALL.iter().filter(|b| b.name() == a.name()).count(), 1);
        }
        assert_eq!(Action::from_name("Quit"), None, "names are exact");
    }

    #[test]
    fn the_defaults_have_no_conflicts() {
        assert_eq!(Keymap::default().conflicts(), vec![]);
    }

    #[test]
    fn keys_parse_and_print_back() {
        for (_, k, _) in BINDINGS {
            assert_eq!(Key::parse(&k.config_name()), Ok(*k), "{}", k.config_name());
            assert_eq!(Key::parse(&key_name(k)), Ok(*k), "help names parse too: {}", key_name(k));
        }
        let ctrl_d = Key { code: KeyCode::Char('d'), mods: KeyModifiers::CONTROL };
        assert_eq!(Key::parse("ctrl+d"), Ok(ctrl_d));
        assert_eq!(Key::parse("Ctrl+d"), Ok(ctrl_d));
        assert_eq!(Key::parse("+"), Ok(k('+')));
        assert_eq!(Key::parse("ctrl++").map(|k| k.code), Ok(KeyCode::Char('+')));
        assert_eq!(Key::parse("shift+g"), Ok(k('G')));
        assert_eq!(Key::parse("shift+tab"), Ok(code(KeyCode::BackTab)));
        assert_eq!(Key::parse("F5"), Ok(code(KeyCode::F(5))));
        assert_eq!(Key::parse("space").map(|k| k.config_name()), Ok("space".to_owned()));
        for bad in ["", "ctrl+", "enterr", "f13", "f0", "ab", "\u{7}"] {
            let e = Key::parse(bad).unwrap_err();
            assert!(e.contains("enter, esc"), "{bad:?}: the message lists the names: {e}");
        }
        assert!(Key::parse("shift+1").unwrap_err().contains("letters and tab"));
    }

    #[test]
    fn overrides_replace_an_actions_keys_where_it_lives() {
        let all = |action: Action, keys: &[&str]| Override {
            context: None,
            action,
            keys: keys.iter().map(|k| Key::parse(k).unwrap()).collect(),
        };
        let km = Keymap::with_overrides(&[all(Action::Reply, &["v"])]).unwrap();
        assert_eq!(km.lookup(Context::Messages, &key('v')), Some(Action::Reply));
        assert_eq!(km.lookup(Context::Messages, &key('r')), None, "the old key is free");
        let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(km.lookup(Context::Messages, &enter), None);
        assert_eq!(km.lookup(Context::Sidebar, &key('v')), None, "reply lives in the messages pane only");
        assert_eq!(km.keys_for(Context::Messages, Action::Reply), vec!["v"]);
        // An action bound in two panes gets the new keys in both …
        let km = Keymap::with_overrides(&[all(Action::MarkTopicRead, &["ctrl+t"])]).unwrap();
        let ctrl_t = KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL);
        assert_eq!(km.lookup(Context::Sidebar, &ctrl_t), Some(Action::MarkTopicRead));
        assert_eq!(km.lookup(Context::Messages, &ctrl_t), Some(Action::MarkTopicRead));
        // … and an override for one context wins there.
        let one = Override { context: Some(Context::Sidebar), ..all(Action::MarkTopicRead, &["X"]) };
        let km = Keymap::with_overrides(&[one, all(Action::MarkTopicRead, &["ctrl+t"])]).unwrap();
        assert_eq!(km.keys_for(Context::Sidebar, Action::MarkTopicRead), vec!["X"]);
        assert_eq!(km.keys_for(Context::Messages, Action::MarkTopicRead), vec!["ctrl+t"]);
        // No keys: unbound.
        let km = Keymap::with_overrides(&[all(Action::Quit, &[])]).unwrap();
        assert_eq!(km.lookup(Context::Messages, &key('q')), None);
        // Overriding every action in every context with its defaults changes nothing.
        let mut same = Vec::new();
        for a in Action::ALL {
            for c in Context::of(*a) {
                let keys =
                    BINDINGS.iter().filter(|(bc, _, b)| *bc == c && b == a).map(|(_, k, _)| *k).collect();
                same.push(Override { context: Some(c), action: *a, keys });
            }
        }
        assert_eq!(Keymap::with_overrides(&same).unwrap(), Keymap::default());
    }

    #[test]
    fn a_key_doing_two_things_in_one_place_is_a_conflict() {
        // Twice in one context.
        let all = |action: Action, keys: &[&str]| Override {
            context: None,
            action,
            keys: keys.iter().map(|k| Key::parse(k).unwrap()).collect(),
        };
        let e = Keymap::with_overrides(&[all(Action::Star, &["r"])]).unwrap_err();
        assert_eq!(e.actions, (Action::Reply, Action::Star));
        assert_eq!(e.context, Context::Messages);
        assert_eq!(e.to_string(), "r is bound to both reply and star in the messages pane");
        // A pane key hiding a global one.
        let e = Keymap::with_overrides(&[all(Action::Quit, &["e"])]).unwrap_err();
        assert_eq!(e.context, Context::Messages);
        assert!(e.to_string().contains("quit") && e.to_string().contains("edit"), "{e}");
        // The compose box is separate from the panes.
        assert!(Keymap::with_overrides(&[all(Action::Send, &["ctrl+c"])]).is_ok());
        // Swapping two keys is fine when both actions are rebound.
        let swap = [all(Action::Reply, &["e"]), all(Action::Edit, &["r"])];
        let km = Keymap::with_overrides(&swap).unwrap();
        assert_eq!(km.lookup(Context::Messages, &key('r')), Some(Action::Edit));
    }
}
