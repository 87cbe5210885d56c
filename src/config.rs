//! The config file: TOML in the XDG config directory (`~/.config/topicterm/config.toml`) or
//! wherever `--config PATH` says. Every setting is optional; [`default_text`] prints them all
//! with their defaults and what they mean.
//!
//! A wrong key or value is an error that names the file, the line and column, and the valid
//! choices: `config.toml:3:9: theme = "blue" is not one of dark, light, high-contrast`.

use crate::app::keymap::{Action, Context, KEY_SYNTAX, Key, KeyConflict, Keymap, Override};
use crate::app::settings::{Clock, ImageMode, Notifications, NotifyMethod, Settings, StartNarrow};
use crate::app::settings::{ThemeChoice, ThemeName};
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Everything the config file says, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub theme: ThemeName,
    pub clock: Clock,
    /// The file gives `time_format`: it decides over the user's Zulip `twenty_four_hour_time`.
    pub clock_set: bool,
    pub start: StartNarrow,
    /// The file gives `start`: it decides over the user's Zulip `web_home_view`.
    pub start_set: bool,
    pub show_channels: bool,
    pub show_people: bool,
    /// Browse without marking messages read (zulip-terminal's explore mode).
    pub explore: bool,
    pub notifications: Notifications,
    /// `[notifications] command`: the user's own notification program, run instead of the
    /// built-in desktop notifications.
    pub notify_command: Option<String>,
    /// How images in messages show.
    pub images: ImageMode,
    /// The most messages held in memory (0: no bound).
    pub max_messages: usize,
    /// Keep every message seen in the account's archive, searchable offline
    /// (`topicterm search`).
    pub history: bool,
    /// Spend as few bytes as the work allows (`app::settings::Settings::low_bandwidth`).
    pub low_bandwidth: bool,
    /// One column for screen readers (`app::settings::Settings::screen_reader`).
    pub screen_reader: bool,
    /// The `[keys]` entries, as given.
    pub key_overrides: Vec<Override>,
    /// The defaults with the overrides applied.
    pub keymap: Keymap,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            theme: ThemeName::default(),
            clock: Clock::default(),
            clock_set: false,
            start: StartNarrow::default(),
            start_set: false,
            show_channels: true,
            show_people: false,
            explore: false,
            notifications: Notifications::default(),
            notify_command: None,
            images: ImageMode::default(),
            max_messages: crate::app::settings::MAX_MESSAGES,
            history: true,
            low_bandwidth: false,
            screen_reader: false,
            key_overrides: Vec::new(),
            keymap: Keymap::default(),
        }
    }
}

impl Config {
    /// What the app uses; `no_color` (from `NO_COLOR`) removes every colour from the theme.
    pub fn settings(&self, no_color: bool) -> Settings {
        Settings {
            keymap: self.keymap.clone(),
            clock: self.clock,
            clock_set: self.clock_set,
            theme: ThemeChoice::new(self.theme, no_color),
            // Not given, the user's home view decides (`web_home_view`, which the app follows
            // when `start` is `None`).
            start: self.start_set.then(|| self.start.clone()),
            show_channels: self.show_channels,
            show_people: self.show_people,
            explore: self.explore,
            notifications: self.notifications,
            images: self.images,
            max_messages: self.max_messages,
            low_bandwidth: self.low_bandwidth,
            screen_reader: self.screen_reader,
        }
    }
}

/// Why a config file cannot be used: one line per problem, each naming the file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct ConfigError(pub Vec<String>);

/// `$XDG_CONFIG_HOME/topicterm` (usually `~/.config/topicterm`).
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "topicterm").map(|d| d.config_dir().to_path_buf())
}

/// Where the config file is looked for without `--config`.
pub fn default_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("config.toml"))
}

/// Read the config: `explicit` must exist; the default file may be missing (then: defaults).
pub fn load(explicit: Option<&Path>) -> Result<Config, ConfigError> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => match default_path() {
            Some(p) if p.exists() => p,
            _ => return Ok(Config::default()),
        },
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| ConfigError(vec![format!("cannot read config file {}: {e}", path.display())]))?;
    parse(&text, &path.display().to_string())
}

// ------------------------------------------------------------------------------------------
// Parsing
// ------------------------------------------------------------------------------------------

/// The least `max_messages` can be: a screen's worth of several views.
const MIN_HELD: usize = 1_000;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Raw {
    theme: Option<Spanned<String>>,
    time_format: Option<Spanned<toml::Value>>,
    start: Option<Spanned<String>>,
    explore: Option<bool>,
    images: Option<Spanned<String>>,
    max_messages: Option<Spanned<i64>>,
    history: Option<bool>,
    low_bandwidth: Option<bool>,
    screen_reader: Option<bool>,
    panels: Option<RawPanels>,
    notifications: Option<RawNotifications>,
    keys: Option<Spanned<KeysValue>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPanels {
    channels: Option<bool>,
    people: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNotifications {
    dm: Option<bool>,
    mention: Option<bool>,
    followed: Option<bool>,
    method: Option<Spanned<String>>,
    command: Option<Spanned<String>>,
}

/// A value in `[keys]`: one key, a list of keys, or a table (`[keys.messages]`).
enum KeysValue {
    One(String),
    List(Vec<Spanned<String>>),
    Table(Vec<(Spanned<String>, Spanned<KeysValue>)>),
}

impl<'de> Deserialize<'de> for KeysValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = KeysValue;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of keys such as [\"q\", \"ctrl+c\"]")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<KeysValue, E> {
                Ok(KeysValue::One(v.to_owned()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<KeysValue, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = seq.next_element::<Spanned<String>>()? {
                    out.push(k);
                }
                Ok(KeysValue::List(out))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<KeysValue, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<Spanned<String>>()? {
                    out.push((k, map.next_value::<Spanned<KeysValue>>()?));
                }
                Ok(KeysValue::Table(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Byte offsets → "PATH:LINE:COLUMN".
struct Source<'a> {
    text: &'a str,
    path: &'a str,
}

impl Source<'_> {
    fn at(&self, span: &Range<usize>) -> String {
        let start = span.start.min(self.text.len());
        let before = self.text.get(..start).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{}:{line}:{col}", self.path)
    }
    /// The text of a span, as written (`"blue"` with its quotes).
    fn written(&self, span: &Range<usize>) -> &str {
        self.text.get(span.clone()).unwrap_or("?")
    }
    fn line_of(&self, span: &Range<usize>) -> &str {
        let start = span.start.min(self.text.len());
        let from = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        self.text[from..].lines().next().unwrap_or("").trim()
    }
}

fn one_of<T>(choices: &[(&str, T)]) -> String {
    choices.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// Parse config text; `path` is how errors name the file.
pub fn parse(text: &str, path: &str) -> Result<Config, ConfigError> {
    let src = Source { text, path };
    let raw: Raw = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_owned();
        ConfigError(vec![match e.span() {
            Some(span) => format!("{}: {msg} (in `{}`)", src.at(&span), src.line_of(&span)),
            None => format!("{path}: {msg}"),
        }])
    })?;
    let mut errors = Vec::new();
    let mut cfg = Config::default();

    if let Some(t) = &raw.theme {
        match ThemeName::parse(t.get_ref()) {
            Some(name) => cfg.theme = name,
            None => errors.push(format!(
                "{}: theme = {} is not one of {}",
                src.at(&t.span()),
                src.written(&t.span()),
                one_of(ThemeName::ALL)
            )),
        }
    }
    if let Some(m) = &raw.images {
        match ImageMode::ALL.iter().find(|(name, _)| *name == m.get_ref()) {
            Some((_, mode)) => cfg.images = *mode,
            None => errors.push(format!(
                "{}: images = {} is not one of {}",
                src.at(&m.span()),
                src.written(&m.span()),
                one_of(ImageMode::ALL)
            )),
        }
    }
    if let Some(v) = &raw.time_format {
        cfg.clock_set = true;
        let n = match v.get_ref() {
            toml::Value::Integer(n) => Some(*n),
            toml::Value::String(s) => s.trim().trim_end_matches('h').parse().ok(),
            _ => None,
        };
        match n {
            Some(24) => cfg.clock = Clock::H24,
            Some(12) => cfg.clock = Clock::H12,
            _ => errors.push(format!(
                "{}: time_format = {} is not one of 12, 24",
                src.at(&v.span()),
                src.written(&v.span())
            )),
        }
    }
    if let Some(s) = &raw.start {
        cfg.start_set = true;
        match StartNarrow::parse(s.get_ref()) {
            Ok(n) => cfg.start = n,
            Err(e) => errors.push(format!(
                "{}: start = {}: {e}; use one of {} or a search such as \"channel:design topic:\\\"q3 plan\\\"\"",
                src.at(&s.span()),
                src.written(&s.span()),
                one_of(StartNarrow::NAMES)
            )),
        }
    }
    cfg.explore = raw.explore.unwrap_or(cfg.explore);
    cfg.history = raw.history.unwrap_or(cfg.history);
    cfg.low_bandwidth = raw.low_bandwidth.unwrap_or(cfg.low_bandwidth);
    cfg.screen_reader = raw.screen_reader.unwrap_or(cfg.screen_reader);
    if let Some(m) = &raw.max_messages {
        match usize::try_from(*m.get_ref()) {
            Ok(n) if n == 0 || n >= MIN_HELD => cfg.max_messages = n,
            _ => errors.push(format!(
                "{}: max_messages = {}: give at least {MIN_HELD} (or 0 for no bound)",
                src.at(&m.span()),
                src.written(&m.span())
            )),
        }
    }
    if let Some(p) = &raw.panels {
        cfg.show_channels = p.channels.unwrap_or(cfg.show_channels);
        cfg.show_people = p.people.unwrap_or(cfg.show_people);
    }
    if let Some(n) = &raw.notifications {
        let d = &mut cfg.notifications;
        // Written, they override the user's Zulip settings; not written, those decide.
        d.dm = n.dm.or(d.dm);
        d.mention = n.mention.or(d.mention);
        d.followed = n.followed.or(d.followed);
        if let Some(m) = &n.method {
            match NotifyMethod::ALL.iter().find(|(name, _)| *name == m.get_ref()) {
                Some((_, method)) => d.method = *method,
                None => errors.push(format!(
                    "{}: method = {} is not one of {}",
                    src.at(&m.span()),
                    src.written(&m.span()),
                    one_of(NotifyMethod::ALL)
                )),
            }
        }
        if let Some(c) = &n.command {
            match c.get_ref().trim() {
                "" => errors.push(format!("{}: command is empty", src.at(&c.span()))),
                command => cfg.notify_command = Some(command.to_owned()),
            }
        }
    }
    if let Some(keys) = &raw.keys {
        let overrides = key_overrides(&src, keys, &mut errors);
        if errors.is_empty() {
            match Keymap::with_overrides(&overrides.iter().map(|(o, _)| o.clone()).collect::<Vec<_>>()) {
                Ok(km) => cfg.keymap = km,
                Err(c) => errors.push(conflict_message(&src, &c, &overrides)),
            }
        }
        cfg.key_overrides = overrides.into_iter().map(|(o, _)| o).collect();
    }
    if errors.is_empty() { Ok(cfg) } else { Err(ConfigError(errors)) }
}

/// The overrides in `[keys]`, each with where it was written.
fn key_overrides(
    src: &Source,
    keys: &Spanned<KeysValue>,
    errors: &mut Vec<String>,
) -> Vec<(Override, Range<usize>)> {
    let actions = || Action::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ");
    let KeysValue::Table(entries) = keys.get_ref() else {
        errors.push(format!("{}: keys must be a table: [keys]", src.at(&keys.span())));
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut entry = |context: Option<Context>,
                     name: &Spanned<String>,
                     value: &Spanned<KeysValue>,
                     errors: &mut Vec<String>| {
        let where_ = src.at(&name.span());
        let Some(action) = Action::from_name(name.get_ref()) else {
            errors.push(format!(
                "{where_}: {:?} is not an action; the actions are: {}",
                name.get_ref(),
                actions()
            ));
            return;
        };
        if let Some(ctx) = context {
            let homes = Context::of(action);
            if !homes.contains(&ctx) {
                let names: Vec<&str> = homes.iter().map(|c| c.config_name()).collect();
                errors.push(format!(
                    "{where_}: {} has no keys {}; it can be bound in [keys] or [keys.{}]",
                    action.name(),
                    ctx.where_pressed(),
                    names.join("] or [keys.")
                ));
                return;
            }
        }
        let written: Vec<(String, Range<usize>)> = match value.get_ref() {
            KeysValue::One(k) => vec![(k.clone(), value.span())],
            KeysValue::List(l) => l.iter().map(|k| (k.get_ref().clone(), k.span())).collect(),
            KeysValue::Table(_) => {
                errors.push(format!(
                    "{}: {} = needs a list of keys such as [\"q\"]",
                    src.at(&value.span()),
                    action.name()
                ));
                return;
            }
        };
        let mut parsed: Vec<Key> = Vec::new();
        for (text, span) in written {
            match Key::parse(&text) {
                Ok(k) if !parsed.contains(&k) => parsed.push(k),
                Ok(_) => {}
                Err(e) => errors.push(format!("{}: {}: {e}", src.at(&span), action.name())),
            }
        }
        out.push((Override { context, action, keys: parsed }, name.span()));
    };
    for (name, value) in entries {
        match value.get_ref() {
            KeysValue::Table(inner) => match Context::ALL.iter().find(|(n, _)| *n == name.get_ref()) {
                Some((_, ctx)) => {
                    for (n, v) in inner {
                        entry(Some(*ctx), n, v, errors);
                    }
                }
                None => errors.push(format!(
                    "{}: [keys.{}] is not one of {}",
                    src.at(&name.span()),
                    name.get_ref(),
                    Context::ALL.iter().map(|(n, _)| format!("[keys.{n}]")).collect::<Vec<_>>().join(", ")
                )),
            },
            _ => entry(None, name, value, errors),
        }
    }
    out
}

fn conflict_message(src: &Source, c: &KeyConflict, overrides: &[(Override, Range<usize>)]) -> String {
    // Point at the override that brought the key in: the losing action's, else the winner's.
    let span = [c.actions.1, c.actions.0]
        .iter()
        .find_map(|a| overrides.iter().rev().find(|(o, _)| o.action == *a && o.keys.contains(&c.key)))
        .map(|(_, s)| s.clone());
    let at = span.map_or_else(|| src.path.to_owned(), |s| src.at(&s));
    format!("{at}: {c}; a key can do one thing in each place")
}

// ------------------------------------------------------------------------------------------
// The default file
// ------------------------------------------------------------------------------------------

/// Text as `#` comment lines of at most 100 columns.
fn comment(text: &str) -> String {
    let mut lines = vec![String::from("#")];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line");
        if last.chars().count() + 1 + word.chars().count() > 100 {
            lines.push(format!("# {word}"));
        } else {
            last.push(' ');
            last.push_str(word);
        }
    }
    lines.join("\n")
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

fn key_list(keys: &[Key]) -> String {
    format!("[{}]", keys.iter().map(|k| toml_str(&k.config_name())).collect::<Vec<_>>().join(", "))
}

/// The default config, commented: what `topicterm --print-default-config` prints. It parses
/// back to [`Config::default`].
pub fn default_text() -> String {
    let d = Config::default();
    let mut s = String::new();
    s.push_str(&format!(
        r#"# topicterm configuration.
#
# topicterm reads $XDG_CONFIG_HOME/topicterm/config.toml (usually ~/.config/topicterm/config.toml)
# or the file given with --config PATH. Every setting is optional; this file spells out the
# defaults. Print it again with: topicterm --print-default-config

# Colours: {themes}.
# NO_COLOR set to anything but the empty string turns every colour off, whatever the theme.
theme = {theme}

# Times: 24 (13:05) or 12 (1:05 PM).
time_format = 24

# The first view: {starts}, or a search in the web app's syntax, such as
# "channel:engineering", "channel:design topic:\"q3 plan\"", "dm:alice@example.com" or "is:unread".
start = {start}

# Explore: browse without marking anything read (T and :mark-read still do). --explore also
# turns it on for one run.
explore = {explore}

# Images in messages: auto (kitty, sixel or iTerm2 graphics where the terminal answers for them,
# else half-blocks), halfblocks (Unicode half-blocks in colour, any terminal), or off (the
# numbered link only). Only images on your own server are fetched.
images = {images}

# The most messages held in memory. Past it, the views furthest from the screen are let go and
# fetched again when opened; unread counts never depend on it. 0: no bound.
max_messages = {max_messages}

# History: keep every message you see, with its edits, reactions and deletions, in an archive
# on this machine ($XDG_DATA_HOME/topicterm/archive/, readable only by you), which
# `topicterm search` searches without the server. false: nothing is kept (an archive already
# kept stays until you remove it).
history = {history}

# Low bandwidth (phones, trains, satellite links): smaller first pages, pictures only when you
# ask (I), no typing notifications sent, and presence, typing and status events not fetched.
# --low-bandwidth also turns it on for one run.
low_bandwidth = {low_bandwidth}

# Screen reader (Orca, NVDA over SSH, Speakup, BRLTTY): one column, the focused pane filling the
# screen; plain text with no box-drawing characters, spinners or countdowns; every mark also a
# word (unread 3, muted, starred, edited); the terminal's cursor on the focused row.
# --screen-reader also turns it on for one run.
screen_reader = {screen_reader}

[panels]
# The channels pane. Hidden, it still shows while it has the focus (h or ←).
channels = {channels}
# The people pane (w shows or hides it).
people = {people}

[notifications]
# Which messages notify is what you set in Zulip (web app: Settings > Notifications): direct
# messages, mentions, followed topics, the channels you get every message of; muted channels,
# topics and people never notify. Sounds there ring the terminal bell. Only what you write here
# overrides them (see :settings): true or false for direct messages, mentions and alert words,
# followed topics.
# dm = true
# mention = true
# followed = true
# How they are shown: desktop (a desktop notification where a notification service runs, else
# the terminal bell; sounds ring the bell), bell (the bell for all), or none.
method = {method}
# With method = "desktop", a program of your own instead of the built-in notifications, run
# through sh with `--`, the title and the body after what you write (the bell rings if it fails):
# command = "notify-send --app-name=topicterm"

{syntax}
# [] unbinds an action. A key can do one thing in each place: [keys] binds an action wherever it
# has keys; [keys.channels], [keys.messages] and [keys.compose] bind it in one place only.
[keys]
"#,
        themes = one_of(ThemeName::ALL),
        theme = toml_str(d.theme.as_str()),
        starts = one_of(StartNarrow::NAMES),
        start = toml_str(&d.start.as_config()),
        explore = d.explore,
        images = toml_str(d.images.as_str()),
        max_messages = d.max_messages,
        history = d.history,
        low_bandwidth = d.low_bandwidth,
        screen_reader = d.screen_reader,
        channels = d.show_channels,
        people = d.show_people,
        method = toml_str(d.notifications.method.as_str()),
        syntax = comment(&format!("Keys: action = [keys]. A key is {KEY_SYNTAX}.")),
    ));
    let keys_in = |ctx: Context, a: Action| -> Vec<Key> {
        a.default_keys().iter().filter(|(c, _)| *c == ctx).map(|(_, k)| *k).collect()
    };
    // Actions whose keys are the same wherever they live go in [keys]; the others per place.
    let mut per_place: Vec<(Context, Action)> = Vec::new();
    for a in Action::ALL {
        let homes = Context::of(*a);
        let first = keys_in(homes[0], *a);
        if homes.iter().all(|c| keys_in(*c, *a) == first) {
            s.push_str(&format!("{} = {}  # {}\n", a.name(), key_list(&first), a.describe()));
        } else {
            per_place.extend(homes.iter().map(|c| (*c, *a)));
        }
    }
    for (name, ctx) in Context::ALL {
        let here: Vec<Action> = per_place.iter().filter(|(c, _)| c == ctx).map(|(_, a)| *a).collect();
        if here.is_empty() {
            continue;
        }
        s.push_str(&format!("\n[keys.{name}]\n"));
        for a in here {
            s.push_str(&format!("{} = {}  # {}\n", a.name(), key_list(&keys_in(*ctx, a)), a.describe()));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::theme::Theme;

    fn err(text: &str) -> String {
        parse(text, "/home/me/.config/topicterm/config.toml").unwrap_err().to_string()
    }

    #[test]
    fn the_default_text_parses_back_to_the_defaults() {
        let text = default_text();
        let cfg = parse(&text, "default").unwrap();
        assert_eq!(cfg.keymap, Keymap::default());
        // (It spells `time_format` and `start` out, so they are the file's.)
        assert!(cfg.clock_set && cfg.start_set);
        let given = Config { key_overrides: vec![], clock_set: false, start_set: false, ..cfg.clone() };
        assert_eq!(given, Config::default());
        // Every action is in it, and every setting is spelled out (not commented out).
        for a in Action::ALL {
            assert!(text.contains(&format!("\n{} = [", a.name())), "{} missing", a.name());
        }
        assert_eq!(
            cfg.key_overrides.len(),
            Action::ALL.len() + 3,
            "mark_topic_read and follow_topic are per pane, help global and in the compose box"
        );
        for line in [
            "theme = \"dark\"",
            "time_format = 24",
            "start = \"all\"",
            "method = \"desktop\"",
            "images = \"auto\"",
        ] {
            assert!(text.lines().any(|l| l == line), "{line}");
        }
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parse("", "x").unwrap(), Config::default());
        assert_eq!(parse("# nothing\n", "x").unwrap(), Config::default());
    }

    #[test]
    fn the_bound_on_messages_held_is_read() {
        assert_eq!(Config::default().max_messages, 50_000);
        assert!(Config::default().history);
        assert!(!parse("history = false", "x").unwrap().history);
        assert!(parse("history = \"no\"", "x").is_err());
        assert_eq!(parse("max_messages = 2000", "x").unwrap().max_messages, 2000);
        assert_eq!(parse("max_messages = 0", "x").unwrap().max_messages, 0);
        let e = parse("max_messages = 10", "x").unwrap_err().to_string();
        assert!(e.contains("max_messages = 10: give at least 1000"), "{e}");
        assert!(parse("max_messages = -1", "x").is_err());
        assert!(parse("max_messages = \"many\"", "x").is_err());
    }

    #[test]
    fn explore_mode_is_read() {
        assert!(parse("low_bandwidth = true", "x").unwrap().low_bandwidth);
        assert!(!parse("", "x").unwrap().low_bandwidth);
        assert!(parse("low_bandwidth = \"yes\"", "x").is_err());
        assert!(parse("screen_reader = true", "x").unwrap().screen_reader);
        assert!(!parse("", "x").unwrap().screen_reader);
        assert!(parse("screen_reader = \"yes\"", "x").is_err());
        assert!(parse("explore = true", "x").unwrap().explore);
        assert!(!parse("", "x").unwrap().explore);
        assert!(parse("explore = 1", "x").is_err());
    }

    #[test]
    fn settings_are_read() {
        let cfg = parse(
            r#"
theme = "high-contrast"
time_format = 12
start = "channel:design"
[panels]
channels = false
people = true
[notifications]
dm = false
method = "bell"
command = "  notify-send -u low "
[keys]
reply = ["b", "enter"]
quit = "ctrl+q"
[keys.channels]
mark_topic_read = ["ctrl+t"]
"#,
            "x",
        )
        .unwrap();
        assert_eq!(cfg.theme, ThemeName::HighContrast);
        assert_eq!(cfg.clock, Clock::H12);
        assert_eq!(cfg.start, StartNarrow::Search("channel:design".into()));
        assert!(!cfg.show_channels && cfg.show_people);
        assert_eq!(
            cfg.notifications,
            Notifications { dm: Some(false), mention: None, followed: None, method: NotifyMethod::Bell }
        );
        assert_eq!(cfg.notify_command.as_deref(), Some("notify-send -u low"));
        assert_eq!(parse("", "x").unwrap().notify_command, None);
        assert_eq!(cfg.keymap.keys_for(Context::Messages, Action::Reply), vec!["b", "enter"]);
        assert_eq!(cfg.keymap.keys_for(Context::Global, Action::Quit), vec!["ctrl+q"]);
        assert_eq!(cfg.keymap.keys_for(Context::Sidebar, Action::MarkTopicRead), vec!["ctrl+t"]);
        assert_eq!(cfg.keymap.keys_for(Context::Messages, Action::MarkTopicRead), vec!["T"]);
        assert_eq!(parse("time_format = \"24h\"", "x").unwrap().clock, Clock::H24);
        let s = cfg.settings(false);
        assert_eq!(Theme::of(s.theme), Theme::high_contrast());
        assert_eq!(Theme::of(cfg.settings(true).theme), Theme::high_contrast().without_colour());
    }

    #[test]
    fn a_wrong_value_names_file_line_and_choices() {
        let e = err("# my config\n\ntheme = \"blue\"\n");
        assert_eq!(
            e,
            "/home/me/.config/topicterm/config.toml:3:9: theme = \"blue\" is not one of dark, light, high-contrast"
        );
        let e = err("time_format = 13");
        assert_eq!(e, "/home/me/.config/topicterm/config.toml:1:15: time_format = 13 is not one of 12, 24");
        let e = err("[notifications]\nmethod = \"popup\"\n");
        assert!(e.ends_with(":2:10: method = \"popup\" is not one of desktop, bell, none"), "{e}");
        let e = err("[notifications]\ncommand = \" \"\n");
        assert!(e.ends_with(":2:11: command is empty"), "{e}");
        let e = err("images = \"sixel\"");
        assert!(e.ends_with(":1:10: images = \"sixel\" is not one of auto, halfblocks, off"), "{e}");
        assert_eq!(parse("images = \"off\"", "x").unwrap().images, ImageMode::Off);
        let e = err("start = \"is:weird\"");
        assert!(e.contains(":1:9: start = \"is:weird\": unknown is:weird; use one of all, dms"), "{e}");
    }

    #[test]
    fn every_problem_is_reported_not_just_the_first() {
        let e = err("theme = \"blue\"\ntime_format = 7\n");
        assert_eq!(e.lines().count(), 2, "{e}");
        assert!(e.lines().nth(1).unwrap().contains(":2:15: time_format = 7"), "{e}");
    }

    #[test]
    fn a_wrong_key_names_file_line_and_choices() {
        let e = err("\ncolour = \"dark\"\n");
        assert!(e.starts_with("/home/me/.config/topicterm/config.toml:2:1: unknown field `colour`"), "{e}");
        assert!(e.contains("`theme`") && e.contains("`keys`"), "lists the valid keys: {e}");
        let e = err("[panels]\nchannels = \"yes\"\n");
        assert!(e.contains("config.toml:2:12:") && e.contains("boolean"), "{e}");
        assert!(e.contains("(in `channels = \"yes\"`)"), "{e}");
        let e = err("[panels]\nsidebar = true\n");
        assert!(e.contains(":2:1: unknown field `sidebar`, expected `channels` or `people`"), "{e}");
        let e = err("theme = ");
        assert!(e.starts_with("/home/me/.config/topicterm/config.toml:1:"), "{e}");
    }

    #[test]
    fn key_errors_name_the_action_the_key_and_the_choices() {
        let e = err("[keys]\nrepyl = [\"r\"]\n");
        assert!(e.contains(":2:1: \"repyl\" is not an action; the actions are: quit, help,"), "{e}");
        let e = err("[keys]\nreply = [\"y\", \"ctrl+enterr\"]\n");
        assert!(e.contains(":2:15: reply: \"ctrl+enterr\" is not a key"), "{e}");
        assert!(e.contains("pgup"), "lists the key names: {e}");
        let e = err("[keys]\nstar = [\"r\"]\n");
        assert_eq!(
            e,
            "/home/me/.config/topicterm/config.toml:2:1: r is bound to both reply and star in the messages pane; \
             a key can do one thing in each place"
        );
        let e = err("[keys.compose]\nreply = [\"ctrl+r\"]\n");
        assert!(
            e.contains(
                ":2:1: reply has no keys in the compose box; it can be bound in [keys] or [keys.messages]"
            ),
            "{e}"
        );
        let e = err("[keys.sidebar]\nopen = [\"o\"]\n");
        assert!(e.contains("[keys.sidebar] is not one of [keys.global], [keys.channels]"), "{e}");
        let e = err("[keys]\nquit = 5\n");
        assert!(e.contains(":2:8:") && e.contains("list of keys"), "{e}");
    }

    #[test]
    fn a_missing_explicit_file_is_an_error() {
        let e = load(Some(Path::new("/nonexistent/topicterm.toml"))).unwrap_err().to_string();
        assert!(e.contains("cannot read config file /nonexistent/topicterm.toml"), "{e}");
    }
}
