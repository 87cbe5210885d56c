//! Fences: making CommonMark see Zulip's nesting of `quote`/`spoiler` blocks.

use std::borrow::Cow;

/// How deeply `spoiler`/`quote` fences nest before they are shown as plain
/// code blocks; this bounds the renderer's recursion.
pub(super) const MAX_FENCE_DEPTH: usize = 10;

/// A line that opens or closes a fence.
pub(super) struct FenceLine<'a> {
    pub(super) indent: usize,
    pub(super) fence_char: u8,
    pub(super) len: usize,
    pub(super) info: &'a str,
}

impl<'a> FenceLine<'a> {
    /// Fences indented by up to three spaces (deeper lines may be indented
    /// code, so nesting there is left to CommonMark).
    pub(super) fn parse(line: &'a str) -> Option<Self> {
        let line = line.trim_end_matches(['\n', '\r']);
        let rest = line.trim_start_matches(' ');
        let indent = line.len() - rest.len();
        let fence_char = *rest.as_bytes().first()?;
        if indent > 3 || !matches!(fence_char, b'`' | b'~') {
            return None;
        }
        let len = rest.bytes().take_while(|&b| b == fence_char).count();
        let info = rest[len..].trim();
        if len < 3 || (fence_char == b'`' && info.contains('`')) {
            return None;
        }
        Some(FenceLine { indent, fence_char, len, info })
    }
}

/// A fence open while [`normalize_fences`] scans.
pub(super) struct OpenFence {
    pub(super) fence_char: u8,
    pub(super) len: usize,
    /// A `quote`/`spoiler` fence, whose content is Markdown with fences of its own.
    pub(super) container: bool,
    pub(super) opener_line: usize,
    /// The longest fence line inside, per fence character (`` ` ``, `~`).
    pub(super) inner: [usize; 2],
}

pub(super) fn fence_index(fence_char: u8) -> usize {
    usize::from(fence_char == b'~')
}

/// Zulip lets a `quote` or `spoiler` fence contain fenced blocks opened with
/// the same fence: an inner ```` ```python ```` opens a nested block (closed
/// by the next ```` ``` ````), where CommonMark would take it as content and
/// end the outer block early. This lengthens such outer fences so that
/// CommonMark finds the same structure.
pub(super) fn normalize_fences(source: &str) -> Cow<'_, str> {
    if !source.contains("```") && !source.contains("~~~") {
        return Cow::Borrowed(source);
    }
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let mut stack: Vec<OpenFence> = Vec::new();
    // (line, new fence length), in the order fences close.
    let mut rewrites: Vec<(usize, usize)> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(fence) = FenceLine::parse(line) else {
            continue;
        };
        let depth = stack.len();
        match stack.last_mut() {
            Some(top)
                if fence.fence_char == top.fence_char && fence.len >= top.len && fence.info.is_empty() =>
            {
                close_fence(&mut stack, &mut rewrites, Some((index, fence.len)));
            }
            // Inside code (or too deep to nest further), fences are content.
            Some(top) if !top.container || depth >= MAX_FENCE_DEPTH => {
                let slot = &mut top.inner[fence_index(fence.fence_char)];
                *slot = (*slot).max(fence.len);
            }
            _ => {
                let kind = fence.info.split_whitespace().next().unwrap_or("");
                stack.push(OpenFence {
                    fence_char: fence.fence_char,
                    len: fence.len,
                    container: ["quote", "quoted", "spoiler"].iter().any(|k| k.eq_ignore_ascii_case(kind)),
                    opener_line: index,
                    inner: [0; 2],
                });
            }
        }
    }
    while !stack.is_empty() {
        close_fence(&mut stack, &mut rewrites, None);
    }
    if rewrites.is_empty() {
        return Cow::Borrowed(source);
    }
    rewrites.sort_unstable();
    let mut out = String::with_capacity(source.len() + rewrites.len() * 4);
    let mut pending = rewrites.iter().peekable();
    for (index, line) in lines.iter().enumerate() {
        match pending.next_if(|(at, _)| *at == index) {
            Some(&(_, len)) => {
                // Only fence lines are rewritten, so this parses.
                if let Some(fence) = FenceLine::parse(line) {
                    out.push_str(&line[..fence.indent]);
                    out.extend(std::iter::repeat_n(char::from(fence.fence_char), len));
                    out.push_str(&line[fence.indent + fence.len..]);
                }
            }
            None => out.push_str(line),
        }
    }
    Cow::Owned(out)
}

/// Pops the innermost open fence (closed on `closer` = (line, length), or by
/// the end of the text), lengthening it if it is a container with longer or
/// equal fences inside, and tells its parent about its fence lines.
pub(super) fn close_fence(
    stack: &mut Vec<OpenFence>,
    rewrites: &mut Vec<(usize, usize)>,
    closer: Option<(usize, usize)>,
) {
    let Some(fence) = stack.pop() else { return };
    let own = fence_index(fence.fence_char);
    let mut len = fence.len;
    if fence.container && fence.inner[own] >= fence.len {
        len = fence.inner[own] + 1;
        rewrites.push((fence.opener_line, len));
        if let Some((line, _)) = closer {
            rewrites.push((line, len));
        }
    }
    if let Some(parent) = stack.last_mut() {
        for (slot, inner) in parent.inner.iter_mut().zip(fence.inner) {
            *slot = (*slot).max(inner);
        }
        let closer_len = closer.map_or(0, |(_, closer_len)| closer_len);
        parent.inner[own] = parent.inner[own].max(len).max(closer_len);
    }
}
