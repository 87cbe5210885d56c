//! Keys → actions, per context: one table (`actions!`) names each action once with its config
//! name, help text and default keys. The help screen is generated from it, so it can never
//! disagree with what the keys do.

use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};

/// Where a key is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Anywhere outside the compose box and prompts.
    Global,
    Sidebar,
    Messages,
    /// The people pane.
    People,
    Compose,
    /// The inbox (`:inbox`).
    Inbox,
}

/// Declares [`Action`] from one table: each action once, with its config name, its help text
/// and its default keys per context. The enum, `Action::ALL`, names, help and default bindings
/// all come from it, so they cannot disagree.
macro_rules! actions {
    ($( $variant:ident => $name:literal, $help:literal, [$($ctx:ident $key:expr),* $(,)?]; )*) => {
        /// Everything a key can do.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action { $($variant,)* }

        impl Action {
            /// Every action, in the order the default config and the help screen list them.
            pub const ALL: &[Action] = &[$(Action::$variant,)*];

            /// The action's name in config files.
            pub fn name(self) -> &'static str {
                match self { $(Action::$variant => $name,)* }
            }

            /// What the help screen says.
            pub fn describe(self) -> &'static str {
                match self { $(Action::$variant => $help,)* }
            }

            /// The default keys, per context.
            pub fn default_keys(self) -> &'static [(Context, Key)] {
                match self {
                    $(Action::$variant => {
                        const KEYS: &[(Context, Key)] = &[$((Context::$ctx, $key)),*];
                        KEYS
                    })*
                }
            }
        }
    };
}

actions! {
    Quit => "quit", "quit",
        [Global ctrl('c'), Global k('q')];
    Help => "help", "show this help (in the compose box: f1)",
        [Global k('?'), Compose code(KeyCode::F(1))];
    Up => "up", "move up",
        [Global k('k'), Global code(KeyCode::Up)];
    Down => "down", "move down",
        [Global k('j'), Global code(KeyCode::Down)];
    PageUp => "page_up", "page up (loads older messages)",
        [Global code(KeyCode::PageUp)];
    PageDown => "page_down", "page down",
        [Global code(KeyCode::PageDown)];
    Top => "top", "go to the top",
        [Global k('g'), Global code(KeyCode::Home)];
    Bottom => "bottom", "go to the bottom",
        [Global k('G'), Global code(KeyCode::End)];
    FocusSidebar => "focus_channels", "focus the pane to the left (the channels pane)",
        [Global k('h'), Global code(KeyCode::Left)];
    FocusMessages => "focus_messages", "focus the pane to the right (messages, then people when shown)",
        [Global k('l'), Global code(KeyCode::Right)];
    Open => "open", "open the selected channel, topic or conversation; on a person, a DM to them",
        [Sidebar code(KeyCode::Enter), People code(KeyCode::Enter)];
    AllMessages => "all_messages", "all messages",
        [Global k('a')];
    AllDms => "all_dms", "all direct messages",
        [Global k('P')];
    Starred => "starred", "starred messages",
        [Global k('f')];
    Mentions => "mentions", "messages that mention you",
        [Global k('#')];
    Search => "search", "search (web syntax: channel:x topic:\"y\" sender:5 is:unread words); in the channels or people pane: filter it as you type",
        [Global k('/')];
    NextUnreadTopic => "next_unread_topic", "next topic with unread messages",
        [Global k('n')];
    NextUnreadDm => "next_unread_dm", "next direct message conversation with unread messages",
        [Global k('p')];
    NarrowChannel => "narrow_channel", "narrow to the selected message's channel",
        [Messages k('s')];
    NarrowTopic => "narrow_conversation", "narrow to the selected message's topic or conversation",
        [Messages k('S')];
    Reply => "reply", "reply in the selected message's conversation",
        [Messages k('r'), Messages code(KeyCode::Enter)];
    ReplyAuthor => "reply_author", "reply to the author in a direct message",
        [Messages k('R')];
    ReplyMention => "reply_mention", "reply in the conversation, mentioning the author",
        [Messages k('@')];
    QuoteReply => "quote_reply", "quote and reply",
        [Messages k('>')];
    NewChannelMessage => "new_channel_message", "new channel message",
        [Global k('c')];
    NewDm => "new_dm", "new direct message",
        [Global k('x')];
    Edit => "edit", "edit your message",
        [Messages k('e')];
    Star => "star", "star or unstar the message",
        [Messages k('*')];
    ThumbsUp => "thumbs_up", "react with 👍 (again to remove)",
        [Messages k('+')];
    EmojiPicker => "emoji_picker", "react with any emoji (type to search; enter toggles)",
        [Messages k('E')];
    EditHistory => "edit_history", "show the message's edit history",
        [Messages k('H')];
    Profile => "profile", "the sender's (or selected person's) profile (x: DM them, @: mention them)",
        [Messages k('u'), People k('u')];
    MessageInfo => "message_info", "message info: sender, exact time, links, reactions",
        [Messages k('i')];
    MuteTopic => "mute_topic", "mute the topic, or on a channel row the channel (again: undo)",
        [Sidebar k('M'), Messages k('M')];
    UnmuteTopic => "unmute_topic", "unmute the topic in a muted channel, or on a channel row the channel",
        [Sidebar k('U'), Messages k('U')];
    FollowTopic => "follow_topic", "follow the topic (again: back to default)",
        [Sidebar k('F'), Messages ctrl('f')];
    MarkTopicRead => "mark_topic_read", "mark the topic as read, or on a channel row the whole channel",
        [Sidebar k('R'), Messages k('T')];
    MarkUnread => "mark_unread", "mark the message and every later one unread (:mark-unread)",
        [Messages k('!')];
    RenameTopic => "rename_topic", "rename the message's topic (tab: all, later or only this message)",
        [Messages k('t')];
    MoveTopic => "move_topic", "move the message's topic to another channel (opens :move-topic)",
        [Messages k('m')];
    ResolveTopic => "resolve_topic", "mark the message's topic resolved ✔ (again: unresolved)",
        [Messages k('V')];
    ToggleSpoiler => "toggle_spoilers", "open or close spoilers in the message (or show a muted sender's message)",
        [Messages k('z')];
    Send => "send", "send",
        [Compose ctrl('d'), Compose Key { code: KeyCode::Enter, mods: KeyModifiers::ALT }];
    Complete => "complete", "complete @user, #channel, #channel>topic or :emoji: (again: the next match)",
        [Compose code(KeyCode::Tab)];
    CompleteBack => "complete_back", "the previous completion",
        [Compose code(KeyCode::BackTab)];
    Schedule => "schedule", "schedule for later (in 2h, tomorrow 9:00, 17:30, 2026-11-25 15:00)",
        [Compose ctrl('s')];
    ChangeRecipient => "change_recipient", "send to another channel and topic, or other people (the text stays)",
        [Compose ctrl('g')];
    Attach => "attach", "attach a file: upload it and link it where the cursor is (:attach PATH)",
        [Compose ctrl('t')];
    Palette => "palette", "command palette (tab completes; :help lists commands)",
        [Global k(':')];
    TogglePeople => "toggle_people", "show (and focus) or hide the people pane: presence and statuses",
        [Global k('w')];
    RetrySend => "retry_send", "send unsent messages again now",
        [Global ctrl('r')];
    TakeBackUnsent => "take_back_unsent", "take the last unsent message back into the compose box",
        [Global ctrl('u')];
    OpenLink => "open_link", "open a link of the message (uploads are downloaded with your login)",
        [Messages k('o')];
    LinkHints => "link_hints", "label the links and pictures on screen; typing a label opens it (as o)",
        [Messages k('f')];
    CopyLinkHint => "copy_link_hint", "label the links on screen; typing a label copies its address (OSC 52)",
        [Messages k('F')];
    CopyLink => "copy_link", "copy a link to the message (OSC 52 clipboard, works over SSH)",
        [Messages k('y')];
    CopyCode => "copy_code", "copy a code block of the message",
        [Messages k('Y')];
    ExternalEditor => "external_editor", "edit the text in $EDITOR",
        [Compose ctrl('o')];
    Cancel => "cancel", "close / cancel (the draft is kept)",
        [Compose code(KeyCode::Esc), Global code(KeyCode::Esc)];
    Recent => "recent", "recent conversations across channels and direct messages (enter opens)",
        [Global k('v')];
    ChannelInfo => "channel_info", "channel info: description, subscribers, folder, posting, your settings",
        [Sidebar k('i')];
    ViewImage => "view_image", "the selected message's images, full screen (n/p: next, previous)",
        [Messages k('I')];
    NextOrganization => "next_organization", "the next organization (every account opens at once)",
        [Global k(']')];
    PreviousOrganization => "previous_organization", "the previous organization",
        [Global k('[')];
    Remind => "remind", "remind you of the message later (opens :remind WHEN [NOTE])",
        [Messages k('Z')];
    Reminders => "reminders", "your reminders, by time: which message, the note (d deletes)",
        [Global k('W')];
    Uploads => "uploads", "your uploaded files: size, date, where used (d deletes, enter or o opens)",
        [Global k('A')];
    Snippets => "snippets", "your saved snippets (:snippets): enter inserts one at the cursor, a saves this text as one",
        [Compose Key { code: KeyCode::Char('s'), mods: KeyModifiers::ALT }];
    Preview => "preview", "preview the message as the server renders it (again, esc or typing: back to the text)",
        [Compose Key { code: KeyCode::Char('p'), mods: KeyModifiers::ALT }];
    Inbox => "inbox", "the inbox: unread conversations by channel, then direct messages (:inbox; the web app's shift+i, which shows images here)",
        [Global k('B')];
    InboxToggle => "inbox_toggle", "in the inbox: collapse or expand the selected channel (or the direct messages)",
        [Inbox k(' ')];
    InboxCollapse => "inbox_collapse", "in the inbox: collapse the selected channel's group",
        [Inbox code(KeyCode::Left), Inbox k('h')];
    InboxExpand => "inbox_expand", "in the inbox: expand the selected channel's group",
        [Inbox code(KeyCode::Right), Inbox k('l')];
}

impl Action {
    /// The action a config file names.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.iter().copied().find(|a| a.name() == name)
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

/// Default bindings, (context, key, action), in the table's order. Earlier entries win.
pub fn default_bindings() -> Vec<(Context, Key, Action)> {
    Action::ALL.iter().flat_map(|a| a.default_keys().iter().map(move |(c, k)| (*c, *k, *a))).collect()
}

/// The keys in force: the [`default_bindings`] with the user's overrides applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<(Context, Key, Action)>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap { bindings: default_bindings() }
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
        for (ctx, key, action) in default_bindings() {
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
    /// among the global keys (the pane's action would hide the global one there) — unless the
    /// defaults themselves do so (`f`: link hints in the messages pane, starred messages in the
    /// others), which the help says.
    pub fn conflicts(&self) -> Vec<KeyConflict> {
        let defaults = default_bindings();
        let by_design = |a: &(Context, Key, Action), b: &(Context, Key, Action)| {
            a.0 != b.0 && defaults.contains(a) && defaults.contains(b)
        };
        let mut out = Vec::new();
        for (i, &(ctx, key, action)) in self.bindings.iter().enumerate() {
            for &(ctx2, key2, action2) in &self.bindings[..i] {
                let overlaps = ctx2 == ctx
                    || (ctx2 == Context::Global
                        && matches!(ctx, Context::Sidebar | Context::Messages | Context::People))
                    || (ctx == Context::Global
                        && matches!(ctx2, Context::Sidebar | Context::Messages | Context::People));
                let shadowed = by_design(&(ctx, key, action), &(ctx2, key2, action2));
                if overlaps && key2 == key && action2 != action && !shadowed {
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
            Context::Inbox => find(Context::Inbox),
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
        // The inbox's own keys follow the panes' (its popup has no help of its own).
        let contexts: &[Context] = match ctx {
            Context::Compose => &[Context::Compose],
            Context::Global => &[Context::Global],
            Context::Inbox => &[Context::Inbox],
            Context::Sidebar => &[Context::Sidebar, Context::Global, Context::Inbox],
            Context::People => &[Context::People, Context::Global, Context::Inbox],
            _ => &[Context::Messages, Context::Global, Context::Inbox],
        };
        for c in contexts {
            let mut seen: Vec<Action> = Vec::new();
            for (_, _, a) in self.bindings.iter().filter(|(bc, _, _)| bc == c) {
                if seen.contains(a) || out.iter().any(|(_, d)| *d == a.describe()) {
                    continue;
                }
                seen.push(*a);
                out.push((self.help_keys(ctx, *c, *a), a.describe()));
            }
        }
        out
    }

    /// An action's keys of context `c` as the help of context `ctx` lists them: a global key
    /// that `ctx`'s own keys hide there is reached from the channels pane (`h then f`).
    fn help_keys(&self, ctx: Context, c: Context, action: Action) -> String {
        let keys =
            || self.bindings.iter().filter(move |(bc, _, a)| *bc == c && *a == action).map(|(_, k, _)| k);
        let hidden = |k: &Key| {
            c == Context::Global && ctx != c && self.bindings.iter().any(|(bc, b, _)| *bc == ctx && b == k)
        };
        let here: Vec<String> = keys().filter(|k| !hidden(k)).map(key_name).collect();
        if !here.is_empty() {
            return here.join(" / ");
        }
        let elsewhere = keys().map(key_name).collect::<Vec<_>>().join(" / ");
        match self.keys_for(Context::Global, Action::FocusSidebar).first() {
            Some(left) => format!("{left} then {elsewhere}"),
            None => format!("{elsewhere} (other panes)"),
        }
    }
}

impl Context {
    /// Every context, with its name in config files (`[keys.messages]`).
    pub const ALL: &[(&str, Context)] = &[
        ("global", Context::Global),
        ("channels", Context::Sidebar),
        ("messages", Context::Messages),
        ("people", Context::People),
        ("compose", Context::Compose),
        ("inbox", Context::Inbox),
    ];

    pub fn config_name(self) -> &'static str {
        Self::ALL.iter().find(|(_, c)| *c == self).map_or("global", |(n, _)| n)
    }

    /// The contexts where an action has default keys (where overrides for it can go).
    pub fn of(action: Action) -> Vec<Context> {
        let mut out = Vec::new();
        for (c, _) in action.default_keys() {
            if !out.contains(c) {
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
            Context::People => "in the people pane",
            Context::Compose => "in the compose box",
            Context::Inbox => "in the inbox",
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
        KeyCode::F(n) => format!("f{n}"),
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
        for (c, _, a) in default_bindings() {
            if c == Context::Messages || c == Context::Global {
                assert!(h.iter().any(|(_, d)| *d == a.describe()), "{a:?} missing from help");
            }
        }
        assert!(h.iter().any(|(k, _)| k == "r / enter"));
    }

    /// `f` is link hints in the messages pane and starred messages in the others: the
    /// messages pane's key wins there, the global one elsewhere, and the help says so.
    #[test]
    fn a_pane_key_hides_a_global_one_where_the_defaults_say() {
        let km = Keymap::default();
        assert_eq!(km.lookup(Context::Messages, &key('f')), Some(Action::LinkHints));
        assert_eq!(km.lookup(Context::Messages, &key('F')), Some(Action::CopyLinkHint));
        assert_eq!(km.lookup(Context::Sidebar, &key('f')), Some(Action::Starred));
        assert_eq!(km.lookup(Context::People, &key('f')), Some(Action::Starred));
        let ctrl_f = KeyEvent::new(KeyCode::Char('f'), KeyModifiers::CONTROL);
        assert_eq!(km.lookup(Context::Messages, &ctrl_f), Some(Action::FollowTopic));
        assert_eq!(km.lookup(Context::Sidebar, &key('F')), Some(Action::FollowTopic));
        let h = km.help(Context::Messages);
        let keys = |a: Action| h.iter().find(|(_, d)| *d == a.describe()).map(|(k, _)| k.clone());
        assert_eq!(keys(Action::LinkHints).as_deref(), Some("f"));
        assert_eq!(keys(Action::Starred).as_deref(), Some("h then f"), "from the channels pane");
        assert_eq!(keys(Action::FollowTopic).as_deref(), Some("ctrl+f"));
        let h = km.help(Context::Sidebar);
        assert!(h.iter().any(|(k, d)| k == "f" && *d == Action::Starred.describe()));
        // A user's key that hides a global one is still a conflict.
        let mine = Override { context: Some(Context::Messages), action: Action::Star, keys: vec![k('a')] };
        assert!(Keymap::with_overrides(&[mine]).is_err());
    }

    #[test]
    fn every_action_has_a_unique_name_and_a_default_key() {
        for a in Action::ALL {
            assert!(!a.default_keys().is_empty(), "{a:?} has no default key");
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
        for (_, k, _) in default_bindings() {
            assert_eq!(Key::parse(&k.config_name()), Ok(k), "{}", k.config_name());
            assert_eq!(Key::parse(&key_name(&k)), Ok(k), "help names parse too: {}", key_name(&k));
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
        let km = Keymap::with_overrides(&[all(Action::Reply, &["b"])]).unwrap();
        assert_eq!(km.lookup(Context::Messages, &key('b')), Some(Action::Reply));
        assert_eq!(km.lookup(Context::Messages, &key('r')), None, "the old key is free");
        let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(km.lookup(Context::Messages, &enter), None);
        assert_eq!(km.lookup(Context::Sidebar, &key('b')), None, "reply lives in the messages pane only");
        assert_eq!(km.keys_for(Context::Messages, Action::Reply), vec!["b"]);
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
                let keys = a.default_keys().iter().filter(|(bc, _)| *bc == c).map(|(_, k)| *k).collect();
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
