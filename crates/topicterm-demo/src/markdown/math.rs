//! `$$TeX$$` math: finding it inline, and the KaTeX-shaped HTML it becomes.

use super::text::is_word_char;
use topicterm_api::markup::escape_html;

/// Inline `$$TeX$$` at byte `at`, as Zulip's pattern
/// `\B(?<!\$)\$\$[^\n_$](\\\$|[^$\n])*\$\$(?!\$)\B` (so `$$5 and $$10` is
/// not math). Returns where it ends and the TeX.
pub(super) fn inline_math(source: &str, at: usize, end: usize) -> Option<(usize, &str)> {
    let rest = source[at..end].strip_prefix("$$")?;
    if source[..at].chars().next_back().is_some_and(|c| c == '$' || is_word_char(c)) {
        return None;
    }
    let close = rest.find("$$")?;
    let body = &rest[..close];
    let unescaped_dollar = body.match_indices('$').any(|(i, _)| !body[..i].ends_with('\\'));
    if body.is_empty() || body.starts_with('_') || body.contains(['\n', '`']) || unescaped_dollar {
        return None;
    }
    let after = rest[close + 2..].chars().next();
    if after.is_some_and(|c| c == '$' || is_word_char(c)) {
        return None;
    }
    Some((at + close + 4, body))
}

/// KaTeX's output shape; the demo server doesn't typeset, so the TeX source
/// stands in for the rendered formula.
pub(super) fn katex_html(tex: &str, display: bool) -> String {
    let tex = escape_html(tex);
    let display = if display { r#" display="block""# } else { "" };
    format!(
        r#"<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"{display}><semantics><mrow></mrow><annotation encoding="application/x-tex">{tex}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">{tex}</span></span>"#
    )
}
