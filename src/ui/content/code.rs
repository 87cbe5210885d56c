//! Code blocks: framed, with Pygments token classes as styles.

use super::*;

impl Renderer<'_> {
    pub(super) fn code_block(&mut self, pre: ElementRef<'_>, flow: &mut Flow) {
        let t = self.theme;
        let lang = code_language(pre);

        // Collect the text with Pygments token styles, without recursion.
        let mut segs: Vec<(String, Style)> = Vec::new();
        let mut stack: Vec<(ElementRef<'_>, Style)> = Vec::new();
        walk_tree(pre, |v| match v {
            Visit::Open(e) => {
                let name = e.value().name();
                if is_skipped(e) || (e != pre && is_spoiler_part(e)) {
                    return false;
                }
                if name == "br" {
                    segs.push(("\n".to_owned(), t.code_text));
                }
                if let Some(st) = token_style(e, t) {
                    stack.push((e, st));
                }
                true
            }
            Visit::Close(e) => {
                if stack.last().is_some_and(|(x, _)| *x == e) {
                    stack.pop();
                }
                true
            }
            Visit::Text(text, _) => {
                let st = stack.last().map_or(t.code_text, |(_, s)| t.code_text.patch(*s));
                segs.push((sanitize_code(text), st));
                true
            }
        });
        // The text to copy, as the document model has it (the same text, unstyled).
        self.code_blocks.push(code_text(pre));
        self.code_languages.push(lang.clone());

        // Split into logical lines.
        let mut logical: Vec<Vec<(&str, Style)>> = vec![Vec::new()];
        for (s, st) in &segs {
            for (i, part) in s.split('\n').enumerate() {
                if i > 0 {
                    logical.push(Vec::new());
                }
                if !part.is_empty()
                    && let Some(l) = logical.last_mut()
                {
                    l.push((part, *st));
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

/// Style of a Pygments token `<span class="…">` inside a code block.
fn token_style(el: ElementRef<'_>, t: &Theme) -> Option<Style> {
    if el.value().name() != "span" {
        return None;
    }
    el.value().classes().find_map(|c| {
        Some(match c {
            "gd" => t.code_deleted,
            "gi" => t.code_inserted,
            "gh" | "gu" => t.code_heading,
            "il" => t.code_number,
            "nf" | "fm" | "nc" | "nn" | "nb" | "bp" | "nd" | "nt" | "ne" => t.code_name,
            _ => match c.as_bytes().first() {
                Some(b'k') => t.code_keyword,
                Some(b's') => t.code_string,
                Some(b'c') => t.code_comment,
                Some(b'm') => t.code_number,
                _ => return None,
            },
        })
    })
}
