//! A linear pre-scan that estimates how much work html5ever's tree builder would do.
//!
//! html5ever scans its stack of open elements for many tags (e.g. "close a p element in button
//! scope" for every `<div>`) and its list of active formatting elements for every formatting tag,
//! so pathological nesting makes parsing quadratic: 200 KB of `<div>` takes seconds, 1 MB a
//! minute. [`parse_too_costly`] tokenizes tags roughly, simulates the stack and charges those
//! scans, and gives up as soon as the budget is exceeded. It can only overcharge heavily
//! malformed input (thousands of unclosed tags); Zulip's HTML never comes close.

/// Shown instead of content whose parsing would take too long.
pub const TOO_COMPLEX: &str = "[message content too deeply nested to display]";
/// Budget of simulated tree-builder steps (10,000 nested `<div>`s cost about 5·10⁷).
const PARSE_BUDGET: u64 = 100_000_000;
/// Relative cost of a step through the list of active formatting elements.
const FORMATTING_WEIGHT: u64 = 16;
/// Relative cost of re-creating ("reconstructing") a formatting element.
const CLONE_WEIGHT: u64 = 100;

/// Whether html5ever would do an excessive amount of work on `html`.
pub fn parse_too_costly(html: &str) -> bool {
    let bytes = html.as_bytes();
    let mut sim = StackSim::default();
    let mut i = 0;
    while let Some(off) = bytes[i..].iter().position(|&b| b == b'<') {
        i += off + 1;
        let Some(&c) = bytes.get(i) else { break };
        if c == b'!' || c == b'?' {
            let end: &[u8] = if bytes[i..].starts_with(b"!--") { b"-->" } else { b">" };
            match find_bytes(&bytes[i..], end) {
                Some(p) => i += p + end.len(),
                None => break,
            }
            continue;
        }
        let is_end = c == b'/';
        let start = i + usize::from(is_end);
        if !bytes.get(start).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let mut j = start;
        while j < bytes.len() && !matches!(bytes[j], b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'/' | b'>') {
            j += 1;
        }
        let Some((close, attrs)) = scan_attributes(bytes, j) else {
            break;
        };
        // The tokenizer checks every attribute against the previous ones.
        sim.cost += attrs * attrs / 8;
        let has_attrs = attrs > 0;
        let name = TagName::new(&bytes[start..j]);
        i = close + 1;
        if is_end {
            sim.end(name);
        } else {
            if name.is("plaintext") {
                break;
            }
            if name.is_raw_text() {
                // Skip to the matching end tag: nothing inside is markup.
                match find_end_tag(&bytes[i..], name.as_bytes()) {
                    Some(p) => i += p,
                    None => break,
                }
                continue;
            }
            sim.start(name, has_attrs);
        }
        if sim.cost > PARSE_BUDGET {
            return true;
        }
    }
    false
}

/// From just after a tag name, find the tag's closing `>` (quotes respected) and count its
/// attributes. `None` if the tag is not closed.
fn scan_attributes(bytes: &[u8], mut p: usize) -> Option<(usize, u64)> {
    let is_ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C');
    let mut count = 0;
    loop {
        while p < bytes.len() && (is_ws(bytes[p]) || bytes[p] == b'/') {
            p += 1;
        }
        match bytes.get(p) {
            None => return None,
            Some(b'>') => return Some((p, count)),
            Some(_) => {}
        }
        count += 1;
        // Name: up to whitespace, '/', '>' or '=' (a leading '=' belongs to the name).
        p += 1;
        while p < bytes.len() && !is_ws(bytes[p]) && !matches!(bytes[p], b'/' | b'>' | b'=') {
            p += 1;
        }
        while p < bytes.len() && is_ws(bytes[p]) {
            p += 1;
        }
        if bytes.get(p) != Some(&b'=') {
            continue;
        }
        p += 1;
        while p < bytes.len() && is_ws(bytes[p]) {
            p += 1;
        }
        match bytes.get(p) {
            Some(&q @ (b'"' | b'\'')) => {
                let end = bytes[p + 1..].iter().position(|&b| b == q)?;
                p += end + 2;
            }
            _ => {
                while p < bytes.len() && !is_ws(bytes[p]) && bytes[p] != b'>' {
                    p += 1;
                }
            }
        }
    }
}

fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn find_end_tag(hay: &[u8], name: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = find_bytes(&hay[from..], b"</") {
        let at = from + p + 2;
        if hay.get(at..at + name.len()).is_some_and(|n| n.eq_ignore_ascii_case(name)) {
            return Some(from + p);
        }
        from = at;
    }
    None
}

/// A lower-cased tag name (names longer than 16 bytes are kept truncated: they only ever
/// match each other, which is good enough for a cost estimate).
#[derive(Clone, Copy, PartialEq, Eq)]
struct TagName {
    buf: [u8; 16],
    len: u8,
}

impl TagName {
    fn new(raw: &[u8]) -> Self {
        let mut buf = [0; 16];
        let len = raw.len().min(16);
        for (d, s) in buf.iter_mut().zip(raw) {
            *d = s.to_ascii_lowercase();
        }
        TagName { buf, len: len as u8 }
    }
    fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }
    fn is(&self, name: &str) -> bool {
        self.as_bytes() == name.as_bytes()
    }
    fn any(&self, names: &[&str]) -> bool {
        names.iter().any(|n| self.is(n))
    }
    fn is_raw_text(&self) -> bool {
        self.any(&[
            "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
        ])
    }
}

#[derive(Default)]
struct StackSim {
    stack: Vec<(TagName, bool)>,
    /// Positions in `stack` of: scope boundaries (td, th, table, button, …), elements that stop
    /// the `li` search, and open p / li / a / table-structure elements.
    boundaries: Vec<usize>,
    li_barriers: Vec<usize>,
    ps: Vec<usize>,
    lis: Vec<usize>,
    anchors: Vec<usize>,
    tables: Vec<usize>,
    /// Formatting elements with attributes in the list of active formatting elements (they
    /// escape the "Noah's Ark" limit of three identical entries, so the list can grow).
    active: Vec<TagName>,
    /// Such elements popped off the stack while still active: the parser re-creates them.
    to_reconstruct: Vec<TagName>,
    forms: usize,
    open_tables: usize,
    cost: u64,
}

impl StackSim {
    fn pop(&mut self) -> Option<(TagName, bool)> {
        let top = self.stack.pop()?;
        self.forms -= usize::from(top.0.is("form"));
        self.open_tables -= usize::from(top.0.is("table"));
        Some(top)
    }

    fn truncate(&mut self, len: usize) {
        while self.stack.len() > len {
            if let Some((name, true)) = self.pop() {
                self.to_reconstruct.push(name);
                self.cost += CLONE_WEIGHT;
            }
        }
        for v in [
            &mut self.boundaries,
            &mut self.li_barriers,
            &mut self.ps,
            &mut self.lis,
            &mut self.anchors,
            &mut self.tables,
        ] {
            while v.last().is_some_and(|&p| p >= len) {
                v.pop();
            }
        }
    }

    fn push(&mut self, name: TagName, fmt_attrs: bool) {
        let pos = self.stack.len();
        let special = is_special_tag(&name);
        if name.any(&["td", "th", "table", "caption", "button", "object", "marquee", "applet", "template"]) {
            self.boundaries.push(pos);
        }
        if special && !name.any(&["address", "div", "p", "li", "dd", "dt"]) {
            self.li_barriers.push(pos);
        }
        if name.is("p") {
            self.ps.push(pos);
        }
        if name.any(&["li", "dd", "dt"]) {
            self.lis.push(pos);
        }
        if name.any(&["a", "nobr"]) {
            self.anchors.push(pos);
        }
        if name.any(&["table", "tbody", "thead", "tfoot", "tr", "td", "th", "select"]) {
            self.tables.push(pos);
        }
        self.forms += usize::from(name.is("form"));
        self.open_tables += usize::from(name.is("table"));
        self.stack.push((name, fmt_attrs));
    }

    /// A scan of the stack down to the nearest scope boundary.
    fn scan(&mut self) {
        let floor = self.boundaries.last().map_or(0, |b| b + 1);
        self.cost += (self.stack.len() - floor.min(self.stack.len())) as u64 + 1;
    }

    fn close_p(&mut self) {
        if let Some(&p) = self.ps.last()
            && self.boundaries.last().is_none_or(|&b| b < p)
        {
            self.truncate(p);
        }
    }

    fn top_is(&self, names: &[&str]) -> bool {
        self.stack.last().is_some_and(|(n, _)| n.any(names))
    }

    fn start(&mut self, name: TagName, has_attrs: bool) {
        const VOID: &[&str] = &[
            "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "image",
            "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
        ];
        const FORMATTING: &[&str] =
            &["b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u"];
        const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];
        if name.any(VOID) {
            if name.is("hr") {
                self.scan();
                self.close_p();
            }
            return;
        }
        if name.is("form") && self.forms > 0 {
            return;
        }
        if self.open_tables == 0
            && name.any(&["tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup"])
        {
            // Table parts outside any table are ignored by the parser.
            return;
        }
        if name.any(&["li", "dd", "dt"]) {
            self.scan();
            if let Some(&l) = self.lis.last()
                && self.li_barriers.last().is_none_or(|&b| b < l)
            {
                self.cost += (self.stack.len() - l) as u64;
                self.truncate(l);
            }
            self.close_p();
        } else if name.any(&["a", "nobr"]) {
            if let Some(&a) = self.anchors.last() {
                self.cost += (self.stack.len() - a) as u64;
                self.truncate(a);
            }
        } else if name.is("button") {
            self.scan();
            if let Some(&b) = self.boundaries.last()
                && self.stack[b].0.is("button")
            {
                self.truncate(b);
            }
        } else if name
            .any(&["table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup", "select"])
        {
            // Table structure (and select) re-opens rather than nests, unless inside a cell.
            if let Some(&t) = self.tables.last() {
                let inside_cell = self.stack[t].0.any(&["td", "th"]);
                if !inside_cell || name.any(&["td", "th", "tr", "tbody", "thead", "tfoot"]) {
                    let same = self.tables.iter().rev().take(4).find(|&&p| self.stack[p].0 == name);
                    if let Some(&p) = same {
                        self.truncate(p);
                    }
                }
            }
            if name.is("table") {
                self.scan();
                self.close_p();
            }
        } else if name.any(FORMATTING) {
            if has_attrs {
                self.cost += FORMATTING_WEIGHT * self.active.len() as u64;
                self.active.push(name);
            }
        } else if name.is("option") || name.is("optgroup") {
            if self.top_is(&["option"]) {
                self.truncate(self.stack.len() - 1);
            }
        } else if is_special_tag(&name) {
            // div, blockquote, ul, p, pre, h1, …: "close a p element in button scope".
            self.scan();
            self.close_p();
            if name.any(HEADINGS) && self.top_is(HEADINGS) {
                self.truncate(self.stack.len() - 1);
            }
        }
        self.push(name, has_attrs && name.any(FORMATTING));
        for n in std::mem::take(&mut self.to_reconstruct) {
            self.push(n, true);
        }
    }

    fn end(&mut self, name: TagName) {
        let len = self.active.len();
        if let Some(k) = self.active.iter().rev().take(4).position(|n| *n == name) {
            self.active.remove(len - 1 - k);
        }
        if let Some((n, _)) = self.stack.last()
            && *n == name
        {
            self.pop();
            self.truncate(self.stack.len());
            return;
        }
        // Not on top: the parser searches the stack (in scope, or down to a special element).
        self.scan();
        let len = self.stack.len();
        if let Some(k) = self.stack.iter().rev().take(16).position(|(n, _)| *n == name) {
            self.truncate(len - 1 - k);
        }
    }
}

fn is_special_tag(name: &TagName) -> bool {
    name.any(&[
        "address",
        "applet",
        "area",
        "article",
        "aside",
        "base",
        "basefont",
        "bgsound",
        "blockquote",
        "body",
        "br",
        "button",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "embed",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "iframe",
        "img",
        "input",
        "keygen",
        "li",
        "link",
        "listing",
        "main",
        "marquee",
        "menu",
        "meta",
        "nav",
        "noembed",
        "noframes",
        "noscript",
        "object",
        "ol",
        "p",
        "param",
        "plaintext",
        "pre",
        "script",
        "search",
        "section",
        "select",
        "source",
        "style",
        "summary",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
        "wbr",
        "xmp",
    ])
}
