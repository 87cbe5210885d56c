//! The content palette.

use ratatui::style::{Color, Modifier, Style};

/// The palette used by the renderer. Every style the renderer emits comes from here, so a
/// different theme (light terminal, monochrome, …) is just a different value of this struct.
///
/// Styles are *patched* onto the inherited style (e.g. a link inside `<strong>` is bold and
/// link-coloured), so most entries only set what distinguishes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Base style of all text.
    pub text: Style,
    /// `<strong>`, `<b>`.
    pub strong: Style,
    /// `<em>`, `<i>`.
    pub emphasis: Style,
    /// `<del>`, `<s>`.
    pub strike: Style,
    /// `<u>`, `<ins>`.
    pub underline: Style,
    /// Inline `<code>`.
    pub code_inline: Style,
    /// `<h1>`, `<h2>`.
    pub heading_major: Style,
    /// `<h3>`–`<h6>`.
    pub heading: Style,
    /// The "▎ " bar in front of quoted lines.
    pub quote_bar: Style,
    /// List bullets and numbers.
    pub list_marker: Style,
    /// Link text.
    pub link: Style,
    /// The "[n]" reference after a link.
    pub link_marker: Style,
    /// `@Name` mention.
    pub mention: Style,
    /// Silent mention (`Name`, no notification).
    pub mention_silent: Style,
    /// `@group` mention.
    pub group_mention: Style,
    /// Silent group mention.
    pub group_mention_silent: Style,
    /// `@topic`, `@all`, `@channel` and other wildcard mentions.
    pub wildcard_mention: Style,
    /// Words a search matched (`<span class="highlight">` in search results).
    pub search_match: Style,
    /// The user's alert words in a message (`<span class="alert-word">`).
    pub alert_word: Style,
    /// `#channel` / `#channel > topic` references.
    pub channel: Style,
    /// Custom emoji shown as `:name:`.
    pub emoji_custom: Style,
    /// `<time>` rendered through [`ContentContext::format_time`].
    pub time: Style,
    /// Spoiler marker ("▶ "/"▼ "), default header and content gutter.
    pub spoiler: Style,
    /// TeX source of KaTeX math.
    pub math: Style,
    /// "[image N] …" / "[video] …" lines.
    pub media: Style,
    /// `<hr>` line.
    pub rule: Style,
    /// Column separators of tables.
    pub table_border: Style,
    /// Header cells of tables (and labels in the narrow table layout).
    pub table_header: Style,
    /// Frame of code blocks ("╭─ lang", "│ ", "╰─").
    pub code_border: Style,
    /// Code block text.
    pub code_text: Style,
    /// Syntax highlighting (Pygments token classes in Zulip's HTML).
    pub code_keyword: Style,
    pub code_string: Style,
    pub code_comment: Style,
    pub code_number: Style,
    pub code_name: Style,
    pub code_inserted: Style,
    pub code_deleted: Style,
    pub code_heading: Style,
    /// Secondary text, e.g. the " (spoiler)" hint.
    pub dim: Style,
}

impl Default for Theme {
    /// A theme for dark terminals using only the 16 basic ANSI colours.
    fn default() -> Self {
        let bold = Modifier::BOLD;
        let dim = Style::new().fg(Color::DarkGray);
        Theme {
            text: Style::new(),
            strong: Style::new().add_modifier(bold),
            emphasis: Style::new().add_modifier(Modifier::ITALIC),
            strike: Style::new().add_modifier(Modifier::CROSSED_OUT),
            underline: Style::new().add_modifier(Modifier::UNDERLINED),
            code_inline: Style::new().fg(Color::Yellow),
            heading_major: Style::new().add_modifier(bold | Modifier::UNDERLINED),
            heading: Style::new().add_modifier(bold),
            quote_bar: dim,
            list_marker: Style::new().fg(Color::LightBlue),
            link: Style::new().fg(Color::Cyan).add_modifier(Modifier::UNDERLINED),
            link_marker: Style::new().fg(Color::Cyan),
            mention: Style::new().fg(Color::LightBlue).add_modifier(bold),
            mention_silent: Style::new().fg(Color::Blue),
            group_mention: Style::new().fg(Color::LightMagenta).add_modifier(bold),
            group_mention_silent: Style::new().fg(Color::Magenta),
            wildcard_mention: Style::new().fg(Color::LightYellow).add_modifier(bold),
            search_match: Style::new().fg(Color::Black).bg(Color::Yellow),
            alert_word: Style::new().fg(Color::LightRed).add_modifier(bold | Modifier::UNDERLINED),
            channel: Style::new().fg(Color::LightGreen),
            emoji_custom: Style::new().fg(Color::LightYellow),
            time: Style::new().fg(Color::LightCyan),
            spoiler: Style::new().fg(Color::LightYellow),
            math: Style::new().fg(Color::Green),
            media: Style::new().fg(Color::Cyan),
            rule: dim,
            table_border: dim,
            table_header: Style::new().add_modifier(bold),
            code_border: dim,
            code_text: Style::new().fg(Color::Gray),
            code_keyword: Style::new().fg(Color::Magenta),
            code_string: Style::new().fg(Color::Green),
            code_comment: Style::new().fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            code_number: Style::new().fg(Color::Cyan),
            code_name: Style::new().fg(Color::Blue),
            code_inserted: Style::new().fg(Color::Green),
            code_deleted: Style::new().fg(Color::Red),
            code_heading: Style::new().add_modifier(bold),
            dim,
        }
    }
}
