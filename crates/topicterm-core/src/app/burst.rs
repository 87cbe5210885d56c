//! A burst of notifications summed up: at most [`AT_MOST`] are shown in any [`WINDOW`]
//! seconds; the ones past that are counted (by why they notify and where they came from) and,
//! once the window is over, told in one summary whose click opens the newest of them. While a
//! burst goes on, one summary per window; a window with nothing held ends it. Each organization
//! keeps its own. A leaf: the time is given (`State::now`), it names no `State`.

use super::effect::Clicked;

/// How many notifications any [`WINDOW`] seconds may show.
pub const AT_MOST: usize = 3;

/// The window, in seconds.
pub const WINDOW: i64 = 10;

/// Why a message notifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Direct,
    Mention,
    AlertWord,
    Followed,
    /// A channel the user gets every message of (its `desktop_notifications`, or their
    /// default for channels).
    Channel,
}

impl Reason {
    /// In [`Held::by_reason`]'s order.
    pub const ALL: [Reason; 5] =
        [Reason::Direct, Reason::Mention, Reason::AlertWord, Reason::Followed, Reason::Channel];

    fn index(self) -> usize {
        self as usize
    }
}

/// A notification as `outside::notify` words it, with why it notifies and where it came from
/// (in words, for a summary naming one conversation).
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub title: String,
    pub body: String,
    pub clicked: Clicked,
    pub reason: Reason,
    /// The conversation, as a summary names it: "in #general > plans", "from Alice".
    pub place: String,
    /// Shown as a notification (desktop, or the bell where that is how they are shown).
    pub desktop: bool,
    /// A sound: the terminal's bell.
    pub audible: bool,
}

/// The notifications held back in the current window.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    pub count: usize,
    /// How many for each reason, in [`Reason::ALL`]'s order.
    pub by_reason: [usize; 5],
    /// Any of them is to be shown, any to sound.
    pub desktop: bool,
    pub audible: bool,
    /// Every one of them is in the newest one's conversation.
    pub one_conversation: bool,
    /// The newest: its click is the summary's, and when it is the only one it is shown as it is.
    pub newest: Notice,
}

impl Held {
    pub fn of(&self, reason: Reason) -> usize {
        self.by_reason[reason.index()]
    }
}

/// The notifications shown lately and those held back.
#[derive(Debug, Default)]
pub struct Burst {
    /// When the last [`AT_MOST`] notifications were shown, oldest first; a summary fills them
    /// all (the burst's allowance is spent on it).
    shown: [Option<i64>; AT_MOST],
    held: Option<Held>,
    /// The last notification shown rang the bell too (an audible one): where no desktop shows
    /// it, its bell has rung already.
    rang: bool,
}

impl Burst {
    /// A notification was shown, with the bell (`rang`) or without.
    pub fn shown_with_bell(&mut self, rang: bool) {
        self.rang = rang;
    }

    /// Whether the last notification shown rang the bell.
    pub fn rang(&self) -> bool {
        self.rang
    }

    /// Whether one more may be shown at `now`: fewer than [`AT_MOST`] in the last [`WINDOW`]
    /// seconds. A time after `now` (the clock was set back) no longer counts.
    fn room(&self, now: i64) -> bool {
        self.shown[0].is_none_or(|t| t <= now - WINDOW || t > now)
    }

    fn record(&mut self, now: i64) {
        self.shown.rotate_left(1);
        self.shown[AT_MOST - 1] = Some(now);
    }

    /// A message that notifies, at `now`: `Some` to show it now, `None` when it is held for the
    /// summary (everything is, once something is, until the summary has gone).
    pub fn admit(&mut self, now: i64, notice: Notice) -> Option<Notice> {
        if self.held.is_none() && self.room(now) {
            self.record(now);
            return Some(notice);
        }
        match &mut self.held {
            Some(h) => {
                h.count += 1;
                h.by_reason[notice.reason.index()] += 1;
                h.one_conversation &= h.newest.clicked.open == notice.clicked.open;
                h.desktop |= notice.desktop;
                h.audible |= notice.audible;
                h.newest = notice;
            }
            None => {
                let mut by_reason = [0; 5];
                by_reason[notice.reason.index()] = 1;
                let (desktop, audible) = (notice.desktop, notice.audible);
                self.held = Some(Held {
                    count: 1,
                    by_reason,
                    one_conversation: true,
                    desktop,
                    audible,
                    newest: notice,
                });
            }
        }
        None
    }

    /// On the clock: the held ones, once the window they were held in is over (to be told in
    /// one notification, which spends the next window's allowance).
    pub fn due(&mut self, now: i64) -> Option<Held> {
        if self.held.is_none() || !self.room(now) {
            return None;
        }
        self.shown = [Some(now); AT_MOST];
        self.held.take()
    }

    /// How many are held back now.
    pub fn held(&self) -> usize {
        self.held.as_ref().map_or(0, |h| h.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::narrow::Narrow;

    fn notice(id: i64, reason: Reason, open: Narrow) -> Notice {
        let clicked = Clicked { open, id };
        Notice {
            title: "acme".into(),
            body: format!("m{id}"),
            clicked,
            reason,
            place: "from Alice".into(),
            desktop: true,
            audible: false,
        }
    }

    #[test]
    fn three_in_any_ten_seconds_then_held_until_the_window_is_over() {
        let mut b = Burst::default();
        let dm = Narrow::Dm(vec![11]);
        for (i, t) in [(1, 100), (2, 104), (3, 109)] {
            assert!(b.admit(t, notice(i, Reason::Direct, dm.clone())).is_some());
        }
        assert!(b.admit(109, notice(4, Reason::Mention, Narrow::Topic(1, "a".into()))).is_none());
        assert!(b.admit(110, notice(5, Reason::Direct, dm.clone())).is_none(), "held while one is");
        assert_eq!(b.due(109), None);
        let h = b.due(110).expect("the oldest shown is 10 s old");
        assert_eq!(
            (h.count, h.of(Reason::Direct), h.of(Reason::Mention), h.one_conversation),
            (2, 1, 1, false)
        );
        assert_eq!(h.newest.clicked.id, 5);
        // The summary spent the next window: still held, one summary per window.
        assert!(b.admit(115, notice(6, Reason::Direct, dm.clone())).is_none());
        assert_eq!(b.due(119), None);
        assert_eq!(b.due(120).map(|h| (h.count, h.one_conversation)), Some((1, true)));
        // A quiet window: shown again.
        assert_eq!(b.due(131), None);
        assert!(b.admit(131, notice(7, Reason::Direct, dm)).is_some());
    }

    #[test]
    fn a_clock_set_back_does_not_hold_everything() {
        let mut b = Burst::default();
        for i in 0..3 {
            b.admit(10_000, notice(i, Reason::Direct, Narrow::Dm(vec![11])));
        }
        assert!(b.admit(100, notice(9, Reason::Direct, Narrow::Dm(vec![11]))).is_some());
    }
}
