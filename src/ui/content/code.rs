//! Code blocks: framed, with Pygments token classes as styles.

use super::*;
use crate::content::tree::{Code, Token};

impl Renderer<'_> {
    pub(super) fn code_block(&mut self, code: &Code, flow: &mut Flow) {
        let t = self.theme;
        let segs: Vec<(&str, Style)> = code
            .runs
            .iter()
            .map(|(text, token)| {
                (text.as_str(), token.map_or(t.code_text, |k| t.code_text.patch(token_style(k, t))))
            })
            .collect();
        // The text to copy, as the document model has it (the same text, unstyled).
        self.code_blocks.push(code.code.clone());
        self.code_languages.push(code.language.clone());
        let lang = &code.language;

        // Split into logical lines.
        let mut logical: Vec<Vec<(&str, Style)>> = vec![Vec::new()];
        for (s, st) in segs {
            for (i, part) in s.split('\n').enumerate() {
                if i > 0 {
                    logical.push(Vec::new());
                }
                if !part.is_empty()
                    && let Some(l) = logical.last_mut()
                {
                    l.push((part, st));
                }
            }
        }
        if logical.len() > 1 && logical.last().is_some_and(|l| l.is_empty()) {
            logical.pop();
        }

        let framed = flow.width >= 2 + MIN_INNER / 2;
        let inner = if framed { flow.width - 2 } else { flow.width };
        let mut out = Vec::new();
        let header = match &lang {
            Some(l) => format!("╭─ {l}"),
            None => "╭─".to_owned(),
        };
        out.push(Line::from(Span::styled(truncate_to_width(&header, flow.width), t.code_border)));
        let mut body: Vec<Line<'static>> = Vec::new();
        let mut continued: Vec<bool> = Vec::new();
        for line in &logical {
            let mut cur: Vec<Span<'static>> = Vec::new();
            let mut w = 0;
            let mut col = 0;
            let mut first = true;
            let mut put = |g: &str, gw: usize, st: Style, cur: &mut Vec<Span<'static>>| {
                let (g, gw) = if gw > inner { ("\u{FFFD}", 1) } else { (g, gw) };
                if w + gw > inner && w > 0 {
                    body.push(Line::from(std::mem::take(cur)));
                    continued.push(!first);
                    first = false;
                    w = 0;
                }
                push_span(cur, g, st);
                w += gw;
            };
            for (text, st) in line {
                for g in text.graphemes(true) {
                    if g == "\t" {
                        let n = TAB_WIDTH - col % TAB_WIDTH;
                        for _ in 0..n {
                            put(" ", 1, *st, &mut cur);
                        }
                        col += n;
                    } else {
                        let gw = grapheme_width(g);
                        put(g, gw, *st, &mut cur);
                        col += gw;
                    }
                }
            }
            body.push(Line::from(cur));
            continued.push(!first);
        }
        for (line, cont) in body.into_iter().zip(continued) {
            if framed {
                let prefix = if cont { "┆ " } else { "│ " };
                out.extend(prefix_lines(vec![line], prefix, prefix, t.code_border));
            } else {
                out.push(line);
            }
        }
        out.push(Line::from(Span::styled("╰─", t.code_border)));
        flow.block(out, Kind::Block);
    }
}

/// The style of a Pygments token inside a code block.
fn token_style(token: Token, t: &Theme) -> Style {
    match token {
        Token::Deleted => t.code_deleted,
        Token::Inserted => t.code_inserted,
        Token::Heading => t.code_heading,
        Token::Number => t.code_number,
        Token::Name => t.code_name,
        Token::Keyword => t.code_keyword,
        Token::String => t.code_string,
        Token::Comment => t.code_comment,
    }
}
