//! Who is typing and whether the user is here: the others' typing notices (shown under the
//! messages until they expire), the user's own typing notice in force (what the server was last
//! told), and what presence is reported from (the last key, the last report, the terminal's
//! focus).
//!
//! Written by the typing events (`update/people_events.rs`), the compose box's keystrokes
//! (`update/typing.rs`), the keys and focus changes (`update/keys.rs`, `update/tick.rs`); the
//! status line reads [`Presence::typing`]. It knows no `State`: start with
//! [`Presence::started_typing`] and [`Presence::ping_due`].

use crate::api::{MessageId, UserId};
use crate::app::outgoing::Target;
use crate::app::unreads::Conv;

/// The user's own typing, as last told to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypingNotice {
    pub to: Target,
    /// When "start" was last sent, and the last keystroke (UNIX seconds).
    pub started_at: i64,
    pub last_key: i64,
}

/// Someone typing a message or editing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typing {
    pub user: UserId,
    /// The conversation (for new messages) …
    pub conversation: Option<Conv>,
    /// … or the message being edited.
    pub editing: Option<MessageId>,
    pub until: i64,
}

/// Seconds a "start" typing notice of someone else is shown without being renewed.
const SHOWN_FOR: i64 = 15;

/// Typing and presence (see the module doc).
#[derive(Debug, Default)]
pub struct Presence {
    /// Who is typing where, until when (UNIX seconds).
    typing: Vec<Typing>,
    /// The user's own typing notice in force, if any.
    notice: Option<TypingNotice>,
    /// When the user last pressed a key (for active/idle presence).
    last_input: i64,
    /// When presence was last reported.
    last_ping: i64,
    /// The terminal has lost focus (the user is elsewhere: report idle).
    unfocused: bool,
}

impl Presence {
    /// Who is typing where, as shown.
    pub fn typing(&self) -> &[Typing] {
        &self.typing
    }
    /// `user` started (`start`) or stopped typing a new message in `conversation` at `now`.
    pub fn someone_typing(&mut self, user: UserId, conversation: Option<Conv>, start: bool, now: i64) {
        self.typing.retain(|t| !(t.user == user && t.editing.is_none()));
        if start {
            self.typing.push(Typing { user, conversation, editing: None, until: now + SHOWN_FOR });
        }
    }
    /// `user` started (`start`) or stopped editing message `id` at `now`.
    pub fn someone_editing(&mut self, user: UserId, id: MessageId, start: bool, now: i64) {
        self.typing.retain(|t| !(t.user == user && t.editing == Some(id)));
        if start {
            self.typing.push(Typing { user, conversation: None, editing: Some(id), until: now + SHOWN_FOR });
        }
    }
    /// The notices that ran out by `now` go.
    pub fn expire_typing(&mut self, now: i64) {
        self.typing.retain(|t| t.until > now);
    }
    /// Others' typing is no longer shown (the user turned it off).
    pub fn forget_typing(&mut self) {
        self.typing.clear();
    }

    /// The user's own typing notice in force.
    pub fn notice(&self) -> Option<&TypingNotice> {
        self.notice.as_ref()
    }
    /// The notice in force, to renew or replace on a keystroke.
    pub fn notice_mut(&mut self) -> &mut Option<TypingNotice> {
        &mut self.notice
    }
    /// "stop" was told: no notice is in force.
    pub fn stopped_typing(&mut self) -> Option<TypingNotice> {
        self.notice.take()
    }

    /// When the user last pressed a key.
    pub fn last_input(&self) -> i64 {
        self.last_input
    }
    /// The user pressed a key (here, or in another organization of the window) at `now`.
    pub fn key_pressed(&mut self, now: i64) {
        self.last_input = now;
    }
    /// Presence is due at `now`, reported every `interval` seconds.
    pub fn ping_due(&self, now: i64, interval: i64) -> bool {
        now - self.last_ping >= interval
    }
    /// Presence was reported at `now`.
    pub fn pinged(&mut self, now: i64) {
        self.last_ping = now;
    }
    /// The terminal has lost focus: the user is elsewhere.
    pub fn unfocused(&self) -> bool {
        self.unfocused
    }
    /// The terminal gained (`true`) or lost focus.
    pub fn focus_changed(&mut self, focused: bool) {
        self.unfocused = !focused;
    }
    /// Whether the user counts as active at `now` (focused, a key within `idle_after`).
    pub fn active(&self, now: i64, idle_after: i64) -> bool {
        !self.unfocused && now - self.last_input < idle_after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typing_notice_is_replaced_by_the_next_and_expires() {
        let mut p = Presence::default();
        p.someone_typing(11, Some(Conv::Topic(1, "plans".into())), true, 1000);
        p.someone_typing(11, Some(Conv::Topic(1, "plans".into())), true, 1005);
        p.someone_editing(11, 5, true, 1000);
        assert_eq!(p.typing().len(), 2, "one notice per user and message");
        p.expire_typing(1015);
        assert_eq!(p.typing().len(), 1, "the edit's ran out, the renewed one stays");
        p.someone_typing(11, None, false, 1016);
        assert!(p.typing().is_empty());
    }

    #[test]
    fn presence_is_due_on_the_interval_and_idle_when_away() {
        let mut p = Presence::default();
        p.key_pressed(100);
        assert!(p.ping_due(100, 60));
        p.pinged(100);
        assert!(!p.ping_due(159, 60));
        assert!(p.active(150, 140));
        p.focus_changed(false);
        assert!(!p.active(150, 140), "away from the terminal");
    }
}
