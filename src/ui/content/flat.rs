//! The flat walk, for content nested deeper than the structured walker goes.

use super::*;

/// What the flat walk keeps open while it walks.
struct Open<'t> {
    /// Elements that set the style, with the style before them.
    styles: Vec<(NodeId, Inherit)>,
    /// Links being walked: their address, and the link text captured outside them.
    links: Vec<(NodeId, &'t str, Option<String>)>,
    /// Spoiler blocks, and whether each is open.
    spoilers: Vec<(NodeId, bool)>,
    /// Spoiler headers, and where the flow stood when each began.
    headers: Vec<(NodeId, usize)>,
}

impl Renderer<'_> {
    /// The iterative walker used below [`MAX_DEPTH`]: keeps inline styles, links, spoilers
    /// (never leaking hidden content), code blocks, math and media; block structure becomes
    /// plain line breaks.
    pub(super) fn walk_flat(&mut self, root: NodeId, flow: &mut Flow, base: Inherit) {
        let tree = self.tree;
        let mut cur = base;
        let mut open =
            Open { styles: Vec::new(), links: Vec::new(), spoilers: Vec::new(), headers: Vec::new() };
        tree.walk(root, |step| match step {
            Step::Text(text, parent) => {
                let hidden = open.spoilers.last().is_some_and(|(b, o)| !o && parent == Some(*b));
                if !hidden {
                    self.emit(flow, text, cur);
                }
                true
            }
            Step::Open(id, e) => self.flat_open(id, e, flow, &mut cur, &mut open),
            Step::Close(id, e) => {
                self.flat_close(id, e, flow, &mut cur, &mut open);
                true
            }
        });
    }

    /// A spoiler's marker in the flat walk, with "Spoiler (spoiler)" when it has no header.
    fn flat_spoiler_mark(&self, open: bool, headed: bool, flow: &mut Flow, cur: Inherit) {
        let t = self.theme;
        flow.soft_break();
        flow.text(if open { "▼ " } else { "▶ " }, t.spoiler, true);
        if !headed {
            flow.text("Spoiler", cur.style.patch(t.spoiler), true);
            flow.space(t.dim);
            flow.text("(spoiler)", t.dim, true);
            flow.soft_break();
        }
    }

    /// An element entered: whether to walk into it.
    fn flat_open<'t>(
        &mut self,
        id: NodeId,
        e: &'t Element,
        flow: &mut Flow,
        cur: &mut Inherit,
        open: &mut Open<'t>,
    ) -> bool {
        let t = self.theme;
        if matches!(e.role, Role::Skipped) {
            return false;
        }
        let parent = self.tree.node(id).parent;
        if let Some((block, false)) = open.spoilers.last()
            && parent == Some(*block)
            && !e.spoiler_header
        {
            return false;
        }
        match e.spoiler {
            Spoiler::Block { header, .. } => {
                let shown = self.spoiler_open(e);
                self.flat_spoiler_mark(shown, header.is_some(), flow, *cur);
                open.spoilers.push((id, shown));
                return true;
            }
            Spoiler::Content { stray: true, .. } => {
                let shown = self.spoiler_open(e);
                self.flat_spoiler_mark(shown, false, flow, *cur);
                return shown;
            }
            _ => {}
        }
        if e.spoiler_header && open.spoilers.last().is_some_and(|(b, _)| parent == Some(*b)) {
            open.headers.push((id, flow.mark()));
            return true;
        }
        if self.atom(e, flow, *cur) {
            return false;
        }
        if let Role::Link { href, mention } = &e.role {
            if let Some(href) = href {
                open.links.push((id, href, self.capture.replace(String::new())));
                open.styles.push((id, *cur));
                *cur = cur.patch(if *mention { t.channel } else { t.link });
            } else if *mention {
                open.styles.push((id, *cur));
                *cur = cur.patch(t.channel);
            }
            return true;
        }
        let next = match e.role {
            Role::Heading { major: true } => cur.patch(t.heading_major),
            Role::Heading { major: false } => cur.patch(t.heading),
            _ => self.inline_inherit(e, *cur),
        };
        if e.block {
            if open.headers.is_empty() {
                flow.soft_break();
            } else {
                flow.space(cur.style);
            }
            if e.tag == Tag::Li {
                flow.text("• ", t.list_marker, true);
            }
        } else if matches!(e.tag, Tag::Cell { .. }) {
            flow.space(cur.style);
        }
        open.styles.push((id, *cur));
        *cur = next;
        true
    }

    /// An element walked into is left.
    fn flat_close(
        &mut self,
        id: NodeId,
        e: &Element,
        flow: &mut Flow,
        cur: &mut Inherit,
        open: &mut Open<'_>,
    ) {
        let t = self.theme;
        if open.styles.last().is_some_and(|(s, _)| *s == id)
            && let Some((_, saved)) = open.styles.pop()
        {
            *cur = saved;
        }
        if open.links.last().is_some_and(|(l, _, _)| *l == id)
            && let Some((_, href, outer)) = open.links.pop()
        {
            let captured = self.capture.take().unwrap_or_default();
            self.capture = outer.map(|mut o| {
                o.push_str(&captured);
                o
            });
            let n = self.register_link(href, &attr_text(&captured), false);
            flow.text(&format!("[{n}]"), super::marker_style(cur.style, t), true);
        }
        if open.headers.last().is_some_and(|(h, _)| *h == id)
            && let Some((_, mark)) = open.headers.pop()
        {
            if flow.mark() == mark {
                flow.text("Spoiler", cur.style.patch(t.spoiler), true);
            }
            flow.space(t.dim);
            flow.text("(spoiler)", t.dim, true);
            flow.soft_break();
        }
        if open.spoilers.last().is_some_and(|(s, _)| *s == id) {
            open.spoilers.pop();
            flow.soft_break();
        }
        if open.headers.is_empty() && e.block {
            flow.soft_break();
        }
    }
}
