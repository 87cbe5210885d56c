//! Colours: one [`Theme`] value holds every style the views and the content renderer use, so a
//! palette for light terminals, a high-contrast one and "no colour at all" (`NO_COLOR`) are
//! just different values.

use super::content;
use crate::app::settings::{ThemeChoice, ThemeName};
use ratatui::style::{Color, Modifier, Style};

/// Every style of the interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Secondary text: timestamps, hints, muted channels, borders of unfocused panes.
    pub dim: Style,
    /// The selected row of a list.
    pub selected: Style,
    /// Conversation headers, labels, the status line's title.
    pub header: Style,
    /// Errors and the offline banner.
    pub error: Style,
    /// Emphasised names (senders, the sidebar's first rows).
    pub bold: Style,
    /// The focused pane's border, the compose box, the selection marker, your own reactions.
    pub accent: Style,
    /// Unread counts and markers, stars, completion hints.
    pub highlight: Style,
    /// "… is typing" and active presence.
    pub ok: Style,
    /// Idle presence.
    pub idle: Style,
    /// The status line's background.
    pub status_bar: Style,
    /// Inserted and deleted words in edit history.
    pub diff_insert: Style,
    pub diff_delete: Style,
    /// Message content.
    pub content: content::Theme,
}

impl Default for Theme {
    /// The dark palette: exactly the colours the views had before themes existed.
    fn default() -> Self {
        Theme {
            dim: Style::new().fg(Color::DarkGray),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            header: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            bold: Style::new().add_modifier(Modifier::BOLD),
            accent: Style::new().fg(Color::Cyan),
            highlight: Style::new().fg(Color::Yellow),
            ok: Style::new().fg(Color::Green),
            idle: Style::new().fg(Color::Yellow),
            status_bar: Style::new().bg(Color::Black),
            diff_insert: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            diff_delete: Style::new().fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            content: content::Theme::default(),
        }
    }
}

impl Theme {
    /// The palette a config file names; `no_color` (the `NO_COLOR` convention) removes every
    /// colour and keeps bold, reverse, underline and the rest.
    pub fn new(name: ThemeName, no_color: bool) -> Theme {
        let t = match name {
            ThemeName::Dark => Theme::default(),
            ThemeName::Light => Theme::light(),
            ThemeName::HighContrast => Theme::high_contrast(),
        };
        if no_color { t.without_colour() } else { t }
    }

    /// The styles for what the settings chose.
    pub fn of(choice: ThemeChoice) -> Theme {
        Theme::new(choice.name, choice.no_color)
    }

    /// For light backgrounds: no yellow or light colours on white, dim text in dark grey.
    pub fn light() -> Theme {
        let bold = Modifier::BOLD;
        let dim = Style::new().fg(Color::DarkGray);
        let c = content::Theme::default();
        Theme {
            dim,
            header: Style::new().fg(Color::Blue).add_modifier(bold),
            error: Style::new().fg(Color::Red).add_modifier(bold),
            accent: Style::new().fg(Color::Blue),
            highlight: Style::new().fg(Color::Magenta),
            ok: Style::new().fg(Color::Green),
            idle: Style::new().fg(Color::Magenta),
            status_bar: Style::new().bg(Color::Gray),
            content: content::Theme {
                code_inline: Style::new().fg(Color::Magenta),
                list_marker: Style::new().fg(Color::Blue),
                link: Style::new().fg(Color::Blue).add_modifier(Modifier::UNDERLINED),
                link_marker: Style::new().fg(Color::Blue),
                mention: Style::new().fg(Color::Blue).add_modifier(bold),
                mention_silent: Style::new().fg(Color::Blue),
                group_mention: Style::new().fg(Color::Magenta).add_modifier(bold),
                group_mention_silent: Style::new().fg(Color::Magenta),
                wildcard_mention: Style::new().fg(Color::Red).add_modifier(bold),
                channel: Style::new().fg(Color::Green),
                emoji_custom: Style::new().fg(Color::Magenta),
                time: Style::new().fg(Color::Blue),
                spoiler: Style::new().fg(Color::Magenta),
                media: Style::new().fg(Color::Blue),
                code_text: Style::new().fg(Color::Black),
                code_number: Style::new().fg(Color::Blue),
                ..c
            },
            ..Theme::default()
        }
    }

    /// Bright colours, bold where it helps, and no dark grey.
    pub fn high_contrast() -> Theme {
        let bold = Modifier::BOLD;
        let dim = Style::new().fg(Color::Gray);
        let c = content::Theme::default();
        Theme {
            dim,
            selected: Style::new().add_modifier(Modifier::REVERSED | bold),
            header: Style::new().fg(Color::LightCyan).add_modifier(bold),
            error: Style::new().fg(Color::LightRed).add_modifier(bold),
            accent: Style::new().fg(Color::LightCyan).add_modifier(bold),
            highlight: Style::new().fg(Color::LightYellow).add_modifier(bold),
            ok: Style::new().fg(Color::LightGreen).add_modifier(bold),
            idle: Style::new().fg(Color::LightYellow),
            status_bar: Style::new().bg(Color::Black).fg(Color::White),
            diff_insert: Style::new().fg(Color::LightGreen).add_modifier(bold | Modifier::UNDERLINED),
            diff_delete: Style::new().fg(Color::LightRed).add_modifier(Modifier::CROSSED_OUT),
            content: content::Theme {
                quote_bar: dim,
                code_inline: Style::new().fg(Color::LightYellow),
                mention_silent: Style::new().fg(Color::LightBlue),
                group_mention_silent: Style::new().fg(Color::LightMagenta),
                math: Style::new().fg(Color::LightGreen),
                media: Style::new().fg(Color::LightCyan),
                rule: dim,
                table_border: dim,
                code_border: dim,
                code_text: Style::new().fg(Color::White),
                code_keyword: Style::new().fg(Color::LightMagenta),
                code_string: Style::new().fg(Color::LightGreen),
                code_comment: Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC),
                code_number: Style::new().fg(Color::LightCyan),
                code_name: Style::new().fg(Color::LightBlue),
                code_inserted: Style::new().fg(Color::LightGreen),
                code_deleted: Style::new().fg(Color::LightRed),
                dim,
                ..c
            },
            ..Theme::default()
        }
    }

    /// The same theme with every colour removed.
    pub fn without_colour(self) -> Theme {
        let f = strip;
        let c = self.content;
        Theme {
            dim: f(self.dim),
            selected: f(self.selected),
            header: f(self.header),
            error: f(self.error),
            bold: f(self.bold),
            accent: f(self.accent),
            highlight: f(self.highlight),
            ok: f(self.ok),
            idle: f(self.idle),
            status_bar: f(self.status_bar),
            diff_insert: f(self.diff_insert),
            diff_delete: f(self.diff_delete),
            // Every field by name, so a new one cannot be forgotten here.
            content: content::Theme {
                text: f(c.text),
                strong: f(c.strong),
                emphasis: f(c.emphasis),
                strike: f(c.strike),
                underline: f(c.underline),
                code_inline: f(c.code_inline),
                heading_major: f(c.heading_major),
                heading: f(c.heading),
                quote_bar: f(c.quote_bar),
                list_marker: f(c.list_marker),
                link: f(c.link),
                link_marker: f(c.link_marker),
                mention: f(c.mention),
                mention_silent: f(c.mention_silent),
                group_mention: f(c.group_mention),
                group_mention_silent: f(c.group_mention_silent),
                wildcard_mention: f(c.wildcard_mention),
                // Without colour, matches stand out by inversion.
                search_match: f(c.search_match).add_modifier(Modifier::REVERSED),
                alert_word: f(c.alert_word),
                channel: f(c.channel),
                emoji_custom: f(c.emoji_custom),
                time: f(c.time),
                spoiler: f(c.spoiler),
                math: f(c.math),
                media: f(c.media),
                rule: f(c.rule),
                table_border: f(c.table_border),
                table_header: f(c.table_header),
                code_border: f(c.code_border),
                code_text: f(c.code_text),
                code_keyword: f(c.code_keyword),
                code_string: f(c.code_string),
                code_comment: f(c.code_comment),
                code_number: f(c.code_number),
                code_name: f(c.code_name),
                code_inserted: f(c.code_inserted),
                code_deleted: f(c.code_deleted),
                code_heading: f(c.code_heading),
                dim: f(c.dim),
            },
        }
    }
}

/// A style without colours (modifiers stay).
fn strip(s: Style) -> Style {
    Style { fg: None, bg: None, underline_color: None, ..s }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn styles(t: &Theme) -> Vec<Style> {
        let c = &t.content;
        vec![
            t.dim,
            t.selected,
            t.header,
            t.error,
            t.bold,
            t.accent,
            t.highlight,
            t.ok,
            t.idle,
            t.status_bar,
            t.diff_insert,
            t.diff_delete,
            c.link,
            c.mention,
            c.code_keyword,
            c.code_comment,
            c.dim,
        ]
    }

    #[test]
    fn no_colour_removes_every_colour_and_keeps_modifiers() {
        for (_, name) in ThemeName::ALL {
            let plain = Theme::new(*name, true);
            let coloured = Theme::new(*name, false);
            assert_ne!(plain, coloured);
            for (p, c) in styles(&plain).into_iter().zip(styles(&coloured)) {
                assert_eq!((p.fg, p.bg, p.underline_color), (None, None, None));
                assert_eq!(p.add_modifier, c.add_modifier);
            }
        }
    }

    #[test]
    fn the_palettes_differ() {
        assert_ne!(Theme::light(), Theme::default());
        assert_ne!(Theme::high_contrast(), Theme::default());
        assert_eq!(Theme::new(ThemeName::Dark, false), Theme::default());
        assert_eq!(Theme::of(ThemeChoice::default()), Theme::default());
        assert_eq!(Theme::of(ThemeChoice::new(ThemeName::Light, true)), Theme::light().without_colour());
    }
}
