//! The user's settings as the app uses them. the client's `config` reads them from the config file;
//! everything here is plain data with defaults, so tests build a `State` without a file.

use super::keymap::Keymap;
use super::narrow::{Narrow, Resolver, dm_key, parse_search};
use crate::api::{ChannelId, NarrowTerm, UserId};

/// The palettes a config file can name; `ui::theme` builds their styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeName {
    /// For dark terminal backgrounds (16 basic ANSI colours).
    #[default]
    Dark,
    /// For light terminal backgrounds.
    Light,
    /// Bold, bright colours and no dim text.
    HighContrast,
}

impl ThemeName {
    /// Every name, as config files write them.
    pub const ALL: &[(&str, ThemeName)] =
        &[("dark", ThemeName::Dark), ("light", ThemeName::Light), ("high-contrast", ThemeName::HighContrast)];

    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(_, t)| *t == self).map_or("dark", |(n, _)| n)
    }

    pub fn parse(s: &str) -> Option<ThemeName> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
    }
}

/// The colours the views use: a palette, and whether `NO_COLOR` removed every colour (bold,
/// reverse, underline and the rest stay). `ui::theme::Theme::of` builds the styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ThemeChoice {
    pub name: ThemeName,
    pub no_color: bool,
}

impl ThemeChoice {
    pub fn new(name: ThemeName, no_color: bool) -> ThemeChoice {
        ThemeChoice { name, no_color }
    }
}

/// Does `NO_COLOR` ask for no colour? (Set and not empty, per no-color.org.)
pub fn no_color_requested(value: Option<std::ffi::OsString>) -> bool {
    value.is_some_and(|v| !v.is_empty())
}

/// 24-hour or 12-hour times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    #[default]
    H24,
    H12,
}

impl Clock {
    /// Day and time, as message headers show it.
    pub fn short(self) -> &'static str {
        match self {
            Clock::H24 => "%a %-d %b %H:%M",
            Clock::H12 => "%a %-d %b %-I:%M %p",
        }
    }
    /// Date and time with seconds.
    pub fn stamp(self) -> &'static str {
        match self {
            Clock::H24 => "%Y-%m-%d %H:%M:%S",
            Clock::H12 => "%Y-%m-%d %-I:%M:%S %p",
        }
    }
    /// Everything, for message info.
    pub fn full(self) -> &'static str {
        match self {
            Clock::H24 => "%A %-d %B %Y, %H:%M:%S %Z",
            Clock::H12 => "%A %-d %B %Y, %-I:%M:%S %p %Z",
        }
    }
    /// The time of day alone.
    pub fn time(self) -> &'static str {
        match self {
            Clock::H24 => "%H:%M",
            Clock::H12 => "%-I:%M %p",
        }
    }
}

/// The view shown first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StartNarrow {
    #[default]
    All,
    AllDms,
    Starred,
    Mentions,
    /// A search in the web app's syntax, resolved once the organization's names are known.
    Search(String),
}

/// Accepts any name: checks a search's syntax before the organization is known.
struct AnyName;

impl Resolver for AnyName {
    fn channel_id(&self, _: &str) -> Option<ChannelId> {
        Some(0)
    }
    fn user_id(&self, _: &str) -> Result<UserId, super::people::NameError> {
        Ok(0)
    }
    fn me(&self) -> UserId {
        0
    }
}

impl StartNarrow {
    /// The names a config file may give instead of a search.
    pub const NAMES: &[(&str, StartNarrow)] = &[
        ("all", StartNarrow::All),
        ("dms", StartNarrow::AllDms),
        ("starred", StartNarrow::Starred),
        ("mentions", StartNarrow::Mentions),
    ];

    /// `all`, `dms`, `starred`, `mentions`, or a search (`channel:design topic:"q3 plan"`), whose
    /// syntax is checked now and names later.
    pub fn parse(s: &str) -> Result<StartNarrow, String> {
        let s = s.trim();
        if let Some((_, n)) = Self::NAMES.iter().find(|(name, _)| name.eq_ignore_ascii_case(s)) {
            return Ok(n.clone());
        }
        parse_search(s, &AnyName).map(|_| StartNarrow::Search(s.to_owned()))
    }

    pub fn as_config(&self) -> String {
        match self {
            StartNarrow::Search(q) => q.clone(),
            other => Self::NAMES.iter().find(|(_, n)| n == other).map_or("all", |(name, _)| name).to_owned(),
        }
    }
}

/// How notifications are shown (the terminal's own), and the kinds the user's config turns on
/// or off over their Zulip settings: `None` (not written) follows what the user set in Zulip
/// (`app::alerts`); `Some` is an override the user wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Notifications {
    /// Direct messages (over `enable_desktop_notifications`).
    pub dm: Option<bool>,
    /// Mentions and alert words (over `enable_desktop_notifications`).
    pub mention: Option<bool>,
    /// Followed topics (over `enable_followed_topic_desktop_notifications`).
    pub followed: Option<bool>,
    pub method: NotifyMethod,
}

/// How a notification reaches the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NotifyMethod {
    /// A desktop notification where a notification service exists, the bell otherwise.
    #[default]
    Desktop,
    /// The terminal bell.
    Bell,
    None,
}

impl NotifyMethod {
    pub const ALL: &[(&str, NotifyMethod)] =
        &[("desktop", NotifyMethod::Desktop), ("bell", NotifyMethod::Bell), ("none", NotifyMethod::None)];

    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(_, m)| *m == self).map_or("desktop", |(n, _)| n)
    }
}

/// How images in messages show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImageMode {
    /// Drawn with the best graphics the terminal answers for (kitty, sixel, iTerm2), else with
    /// half-blocks.
    #[default]
    Auto,
    /// Drawn with Unicode half-blocks, whatever the terminal.
    Halfblocks,
    /// Not drawn: the numbered link only.
    Off,
}

impl ImageMode {
    pub const ALL: &[(&str, ImageMode)] =
        &[("auto", ImageMode::Auto), ("halfblocks", ImageMode::Halfblocks), ("off", ImageMode::Off)];

    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(_, m)| *m == self).map_or("auto", |(n, _)| n)
    }
}

/// Everything the config file decides.
#[derive(Debug, Clone)]
pub struct Settings {
    pub keymap: Keymap,
    pub clock: Clock,
    /// The config file gives the clock (`time_format`); otherwise the user's Zulip
    /// `twenty_four_hour_time` decides it, where the server says.
    pub clock_set: bool,
    pub theme: ThemeChoice,
    /// The first view; taken by the first register.
    pub start: Option<StartNarrow>,
    /// Show the channels pane (hidden, it still appears while it has the focus).
    pub show_channels: bool,
    /// Show the people pane at start (`w` toggles it).
    pub show_people: bool,
    /// Browse without marking messages read.
    pub explore: bool,
    pub notifications: Notifications,
    pub images: ImageMode,
    /// The most messages held (`update::hold`); 0: no bound.
    pub max_messages: usize,
    /// Spend as few bytes as the work allows (`--low-bandwidth`): smaller first pages, no
    /// typing notifications sent, pictures only when asked for (`I`); `net` also leaves the
    /// optional event types out of register and pings presence without asking for others'.
    pub low_bandwidth: bool,
    /// One column for screen readers (`--screen-reader`, `ui::reader`): the focused pane fills
    /// the screen, plain text without box-drawing characters or animation, every mark also a
    /// word, and the terminal's cursor on the focused row.
    pub screen_reader: bool,
}

/// The default bound on messages held: a few MB, far more than a day's reading.
pub const MAX_MESSAGES: usize = 50_000;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            keymap: Keymap::default(),
            clock: Clock::default(),
            clock_set: false,
            theme: ThemeChoice::default(),
            start: None,
            show_channels: true,
            show_people: false,
            explore: false,
            notifications: Notifications::default(),
            images: ImageMode::default(),
            max_messages: MAX_MESSAGES,
            low_bandwidth: false,
            screen_reader: false,
        }
    }
}

/// The narrow a search's terms describe, as a live view where there is one (so new messages
/// arrive in it), else as a search.
pub(super) fn narrow_of(query: &str, terms: Vec<NarrowTerm>, me: UserId) -> Narrow {
    let op = |t: &NarrowTerm, name: &str| t.operator == name && !t.negated;
    match terms.as_slice() {
        [c] if op(c, "channel") => c.operand.as_i64().map(Narrow::Channel),
        [c, t] if op(c, "channel") && op(t, "topic") => {
            c.operand.as_i64().zip(t.operand.as_str()).map(|(c, t)| Narrow::Topic(c, t.to_owned()))
        }
        [d] if op(d, "dm") => d
            .operand
            .as_array()
            .map(|ids| Narrow::Dm(dm_key(&ids.iter().filter_map(|v| v.as_i64()).collect::<Vec<_>>(), me))),
        [i] if op(i, "is") => match i.operand.as_str() {
            Some("dm") => Some(Narrow::AllDms),
            Some("starred") => Some(Narrow::Starred),
            Some("mentioned") => Some(Narrow::Mentions),
            _ => None,
        },
        _ => None,
    }
    .unwrap_or_else(|| Narrow::Search { query: query.to_owned(), terms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_names_and_searches() {
        assert_eq!(StartNarrow::parse("all"), Ok(StartNarrow::All));
        assert_eq!(StartNarrow::parse("DMs"), Ok(StartNarrow::AllDms));
        assert_eq!(StartNarrow::parse("channel:design"), Ok(StartNarrow::Search("channel:design".into())));
        assert!(StartNarrow::parse("is:weird").unwrap_err().contains("is:weird"));
        assert!(StartNarrow::parse("  ").is_err());
        for (name, n) in StartNarrow::NAMES {
            assert_eq!(n.as_config(), *name);
        }
    }

    #[test]
    fn simple_searches_become_live_views() {
        let t = |op: &str, v: serde_json::Value| NarrowTerm::new(op, v);
        assert_eq!(narrow_of("q", vec![t("channel", 5.into())], 1), Narrow::Channel(5));
        assert_eq!(
            narrow_of("q", vec![t("channel", 5.into()), t("topic", "x".into())], 1),
            Narrow::Topic(5, "x".into())
        );
        assert_eq!(narrow_of("q", vec![t("dm", serde_json::json!([1, 7]))], 1), Narrow::Dm(vec![7]));
        assert_eq!(narrow_of("q", vec![t("is", "starred".into())], 1), Narrow::Starred);
        let other = vec![t("channel", 5.into()), t("search", "x".into())];
        assert_eq!(narrow_of("q", other.clone(), 1), Narrow::Search { query: "q".into(), terms: other });
        let negated = vec![t("channel", 5.into()).negate()];
        assert!(matches!(narrow_of("q", negated, 1), Narrow::Search { .. }));
    }

    #[test]
    fn theme_names_round_trip() {
        for (n, t) in ThemeName::ALL {
            assert_eq!(ThemeName::parse(n), Some(*t));
            assert_eq!(t.as_str(), *n);
        }
        assert_eq!(ThemeName::parse("blue"), None);
    }

    #[test]
    fn no_color_means_set_and_not_empty() {
        assert!(!no_color_requested(None));
        assert!(!no_color_requested(Some("".into())));
        assert!(no_color_requested(Some("1".into())));
        assert!(no_color_requested(Some("0".into())), "any value counts, even 0");
    }

    #[test]
    fn twelve_hour_formats() {
        let tz = super::super::TimeZone::Fixed(0);
        assert_eq!(tz.format(1_795_266_000, Clock::H12.short()), "Sat 21 Nov 1:00 PM");
        assert_eq!(tz.format(1_795_266_000, Clock::H24.short()), "Sat 21 Nov 13:00");
        assert_eq!(tz.format(1_795_266_000, Clock::H12.stamp()), "2026-11-21 1:00:00 PM");
    }
}
