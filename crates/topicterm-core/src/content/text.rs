//! Text that reaches the terminal: [`sanitize`] (nothing that could act as a control gets
//! through) and [`display_width`] (columns, as ratatui counts them), with the small helpers
//! the document model and the layout share.

use std::borrow::Cow;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Remove everything that could reach the terminal as control: C0 and C1 control characters
/// (except that the renderer turns \n into line breaks and \t into spaces before calling this),
/// DEL, bidirectional overrides/isolates/embeddings (U+202A–U+202E, U+2066–U+2069, U+200E/F are fine to drop too),
/// and other format characters that can reorder or hide text (U+061C). Escape sequences die with their ESC.
pub fn sanitize(s: &str) -> String {
    clean(s).into_owned()
}

/// Display width of a string in terminal columns (grapheme-aware; zero-width joiners, combining
/// marks and variation selectors count 0; wide CJK/emoji count 2).
///
/// This agrees with how ratatui places graphemes into buffer cells (graphemes containing control
/// characters are dropped by ratatui and count 0 here).
pub fn display_width(s: &str) -> usize {
    if s.is_ascii() {
        return s.bytes().filter(|b| !b.is_ascii_control()).count();
    }
    s.graphemes(true).map(grapheme_width).sum()
}

// ---------------------------------------------------------------------------------------------
// Constants and small text helpers
// ---------------------------------------------------------------------------------------------

/// A character that must never reach the terminal (see [`sanitize`]): what every text the
/// client draws or edits leaves out.
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1F}'            // C0 controls (incl. ESC, \n, \t)
        | '\u{7F}'..='\u{9F}'         // DEL, C1 controls (incl. CSI U+009B)
        | '\u{061C}'                  // Arabic letter mark
        | '\u{200E}' | '\u{200F}'     // LRM, RLM
        | '\u{202A}'..='\u{202E}'     // embeddings and overrides
        | '\u{2066}'..='\u{2069}'     // isolates
        | '\u{206A}'..='\u{206F}'     // deprecated shaping/swapping format characters
        | '\u{2028}' | '\u{2029}'     // line/paragraph separators
        | '\u{FEFF}'                  // BOM / zero width no-break space
        | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation (hides text)
    ) || is_invisible(c)
}

/// An invisible character with no use in a name, a topic or a chat message, which hides text or
/// makes a name look empty or like another, and whose width terminals disagree on (a line
/// holding one broke a popup's border): tags, zero-width spaces, invisible operators, fillers.
/// Kept: the joiners (U+200C, U+200D) and variation selectors, which emoji and scripts need.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}'                    // soft hyphen
        | '\u{034F}'                  // combining grapheme joiner
        | '\u{115F}' | '\u{1160}'     // Hangul choseong/jungseong fillers
        | '\u{17B4}' | '\u{17B5}'     // Khmer inherent vowels
        | '\u{180B}'..='\u{180F}'     // Mongolian selectors and vowel separator
        | '\u{200B}'                  // zero width space
        | '\u{2060}'..='\u{2065}'     // word joiner, invisible operators
        | '\u{3164}'                  // Hangul filler
        | '\u{FFA0}'                  // halfwidth Hangul filler
        | '\u{1BCA0}'..='\u{1BCA3}'   // shorthand format controls
        | '\u{1D173}'..='\u{1D17A}'   // musical format controls
    )
}

/// A tag character (U+E0000–U+E007F): hidden ASCII. Kept only where an emoji flag needs them
/// (🏴 then tag letters then the cancel tag: 🏴󠁧󠁢󠁳󠁣󠁴󠁿); see [`drop_stray_tags`].
pub fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// `s` without tag characters, except in emoji flag sequences.
fn drop_stray_tags(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\u{1F3F4}' {
            let letters =
                chars[i + 1..].iter().take_while(|c| ('\u{E0020}'..='\u{E007E}').contains(*c)).count();
            let end = i + 1 + letters;
            if letters > 0 && chars.get(end) == Some(&'\u{E007F}') {
                out.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
        }
        if !is_tag(chars[i]) {
            out.push(chars[i]);
        }
        i += 1;
    }
    out
}

pub fn clean(s: &str) -> Cow<'_, str> {
    if !s.is_ascii() && s.chars().any(is_tag) {
        let kept = drop_stray_tags(s);
        return Cow::Owned(clean_controls(&kept).into_owned());
    }
    clean_controls(s)
}

fn clean_controls(s: &str) -> Cow<'_, str> {
    if s.chars().any(is_unsafe_char) || (!s.is_ascii() && has_long_zero_width_run(s)) {
        let mut run = 0;
        Cow::Owned(
            s.chars()
                .filter(|&c| !is_unsafe_char(c))
                .filter(|&c| {
                    // Stacked combining marks ("Zalgo" text) are cut to a few per character.
                    run = if unicode_width::UnicodeWidthChar::width(c) == Some(0) { run + 1 } else { 0 };
                    run <= MAX_ZERO_WIDTH_RUN
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

/// Zero-width characters (combining marks, joiners, selectors) kept in a row.
const MAX_ZERO_WIDTH_RUN: usize = 8;

pub fn has_long_zero_width_run(s: &str) -> bool {
    let mut run = 0;
    s.chars().any(|c| {
        run = if unicode_width::UnicodeWidthChar::width(c) == Some(0) { run + 1 } else { 0 };
        run > MAX_ZERO_WIDTH_RUN
    })
}

/// Like [`sanitize`] but keeps `\n` and `\t` (code block text for copying).
pub fn sanitize_code(s: &str) -> String {
    let s = if s.chars().any(is_tag) { Cow::Owned(drop_stray_tags(s)) } else { Cow::Borrowed(s) };
    s.chars().filter(|&c| c == '\n' || c == '\t' || !is_unsafe_char(c)).collect()
}

pub fn grapheme_width(g: &str) -> usize {
    if g.len() == 1 {
        return usize::from(!g.as_bytes()[0].is_ascii_control());
    }
    if g.chars().any(char::is_control) {
        return 0;
    }
    // ratatui counts the halfwidth (han)dakuten as a cell of their own.
    g.width() + g.chars().filter(|&c| matches!(c, '\u{FF9E}' | '\u{FF9F}')).count()
}

pub fn is_html_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C')
}

/// Collapse HTML whitespace runs into single spaces and trim.
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_html_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Clean text from an attribute: whitespace collapsed, control characters removed.
pub fn attr_text(s: &str) -> String {
    sanitize(&collapse_ws(s))
}

#[cfg(test)]
mod tests {
    use topicterm_api::markup::escape_html;

    #[test]
    fn escaped_text_parses_back_to_itself() {
        let text = "a < b && c > \"d\" <script>x</script> &amp;";
        let html = format!("<p title=\"{}\">{}</p>", escape_html(text), escape_html(text));
        let doc = scraper::Html::parse_fragment(&html);
        let p = doc.root_element().child_elements().next().expect("a paragraph");
        assert_eq!(p.text().collect::<String>(), text);
        assert_eq!(p.attr("title"), Some(text));
    }
}
