//! The HTML of messages, as text: escaping for HTML (text and double-quoted attributes
//! alike), and marking words in rendered HTML. The one home of both for the client (a message
//! being sent, a notification's markup, alert words) and the demo server (its Markdown, the
//! search matches it marks).

/// Text made safe to put into HTML (text or a double-quoted attribute). Decoding is the
/// parser's job (the client's `content`); this is the one escaper.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` to `out`, escaped for use in text and double-quoted attributes.
pub fn push_escaped(out: &mut String, s: &str) {
    let mut last = 0;
    for (i, byte) in s.bytes().enumerate() {
        let replacement = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(replacement);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

/// `html` with every occurrence of the words (any case) in its text wrapped in
/// `<span class="{class}">` (search matches, alert words); `whole`: only where the word is not
/// part of a longer run of letters, digits or underscores. Tags and character references are
/// never split.
pub fn mark_words(html: &str, words: &[String], class: &str, whole: bool) -> String {
    let words: Vec<Vec<char>> = words.iter().filter(|w| !w.is_empty()).map(|w| w.chars().collect()).collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    // The text character before `rest` (markup counts as a boundary).
    let mut prev: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        if c == '<' || c == '&' {
            let end = if c == '<' { '>' } else { ';' };
            let len = rest.find(end).map_or(rest.len(), |i| i + 1);
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            prev = None;
            continue;
        }
        let longest = if whole && prev.is_some_and(is_word) {
            None
        } else {
            words
                .iter()
                .filter_map(|w| match_len(rest, w))
                .filter(|len| !whole || !rest[*len..].chars().next().is_some_and(is_word))
                .max()
        };
        match longest {
            Some(len) => {
                out.push_str("<span class=\"");
                out.push_str(class);
                out.push_str("\">");
                out.push_str(&rest[..len]);
                out.push_str("</span>");
                prev = rest[..len].chars().next_back();
                rest = &rest[len..];
            }
            None => {
                out.push(c);
                prev = Some(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// The byte length of `word` at the start of `text` compared case-insensitively, stopping at
/// markup.
fn match_len(text: &str, word: &[char]) -> Option<usize> {
    let mut len = 0;
    let mut chars = text.chars();
    for w in word {
        let c = chars.next()?;
        if c == '<' || c == '&' || !c.to_lowercase().eq(w.to_lowercase()) {
            return None;
        }
        len += c.len_utf8();
    }
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_html_escapes_markup_characters() {
        assert_eq!(escape_html(r#"<a href="x">&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;'&lt;/a&gt;");
    }

    #[test]
    fn words_are_marked_in_text_never_in_markup() {
        let w = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let html = "<p class=\"deploy\">Deploy &amp; redeploy <a href=\"/deploy\">deploy_x</a> DEPLOY.</p>";
        assert_eq!(
            mark_words(html, &w(&["deploy"]), "alert-word", true),
            "<p class=\"deploy\"><span class=\"alert-word\">Deploy</span> &amp; redeploy <a href=\"/deploy\">deploy_x</a> <span class=\"alert-word\">DEPLOY</span>.</p>"
        );
        assert_eq!(
            mark_words("redeploy", &w(&["deploy"]), "highlight", false),
            "re<span class=\"highlight\">deploy</span>"
        );
        assert_eq!(mark_words("a &amp; b", &w(&["amp"]), "highlight", false), "a &amp; b");
    }
}
