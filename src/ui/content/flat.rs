//! The flat walk, for content nested deeper than the structured walker goes.

use super::*;

impl Renderer<'_> {
    /// The iterative walker used below [`MAX_DEPTH`]: keeps inline styles, links, spoilers
    /// (never leaking hidden content), code blocks, math and media; block structure becomes
    /// plain line breaks.
    pub(super) fn walk_flat<'d>(&mut self, root: ElementRef<'d>, flow: &mut Flow, base: Inherit) {
        let t = self.theme;
        let mut cur = base;
        let mut styles: Vec<(ElementRef<'d>, Inherit)> = Vec::new();
        let mut links: Vec<(ElementRef<'d>, &'d str, Option<String>)> = Vec::new();
        let mut spoilers: Vec<(ElementRef<'d>, bool)> = Vec::new();
        let mut headers: Vec<(ElementRef<'d>, usize)> = Vec::new();
        walk_tree(root, |v| match v {
            Visit::Text(text, parent) => {
                let hidden = spoilers.last().is_some_and(|(b, open)| !open && parent == Some(*b));
                if !hidden {
                    self.emit(flow, text, cur);
                }
                true
            }
            Visit::Open(el) => {
                if is_skipped(el) {
                    return false;
                }
                let name = el.value().name();
                let parent = parent_element(el);
                if let Some((block, false)) = spoilers.last()
                    && parent == Some(*block)
                    && !has_class(el, "spoiler-header")
                {
                    return false;
                }
                if is_spoiler_block(el) {
                    let open = self.spoiler_open(el);
                    flow.soft_break();
                    flow.text(if open { "▼ " } else { "▶ " }, t.spoiler, true);
                    if !el.child_elements().any(|c| has_class(c, "spoiler-header")) {
                        flow.text("Spoiler", cur.style.patch(t.spoiler), true);
                        flow.space(t.dim);
                        flow.text("(spoiler)", t.dim, true);
                        flow.soft_break();
                    }
                    spoilers.push((el, open));
                    return true;
                }
                if is_stray_spoiler_content(el) {
                    let open = self.spoiler_open(el);
                    flow.soft_break();
                    flow.text(if open { "▼ " } else { "▶ " }, t.spoiler, true);
                    flow.text("Spoiler", cur.style.patch(t.spoiler), true);
                    flow.space(t.dim);
                    flow.text("(spoiler)", t.dim, true);
                    flow.soft_break();
                    return open;
                }
                if has_class(el, "spoiler-header") && spoilers.last().is_some_and(|(b, _)| parent == Some(*b))
                {
                    headers.push((el, flow.mark()));
                    return true;
                }
                if self.atom(el, flow, cur) {
                    return false;
                }
                if name == "a" {
                    let mention = has_class(el, "stream") || has_class(el, "stream-topic");
                    if let Some(href) = el.attr("href").map(str::trim).filter(|h| !h.is_empty()) {
                        links.push((el, href, self.capture.replace(String::new())));
                        styles.push((el, cur));
                        cur = cur.patch(if mention { t.channel } else { t.link });
                    } else if mention {
                        styles.push((el, cur));
                        cur = cur.patch(t.channel);
                    }
                    return true;
                }
                let next = match name {
                    "h1" | "h2" => cur.patch(t.heading_major),
                    "h3" | "h4" | "h5" | "h6" => cur.patch(t.heading),
                    _ => self.inline_inherit(el, cur),
                };
                if is_block(name) {
                    if headers.is_empty() {
                        flow.soft_break();
                    } else {
                        flow.space(cur.style);
                    }
                    if name == "li" {
                        flow.text("• ", t.list_marker, true);
                    }
                } else if matches!(name, "td" | "th") {
                    flow.space(cur.style);
                }
                styles.push((el, cur));
                cur = next;
                true
            }
            Visit::Close(el) => {
                if styles.last().is_some_and(|(e, _)| *e == el)
                    && let Some((_, saved)) = styles.pop()
                {
                    cur = saved;
                }
                if links.last().is_some_and(|(e, _, _)| *e == el)
                    && let Some((_, href, outer)) = links.pop()
                {
                    let captured = self.capture.take().unwrap_or_default();
                    self.capture = outer.map(|mut o| {
                        o.push_str(&captured);
                        o
                    });
                    let n = self.register_link(href, &attr_text(&captured), false);
                    flow.text(&format!("[{n}]"), super::marker_style(cur.style, t), true);
                }
                if headers.last().is_some_and(|(e, _)| *e == el)
                    && let Some((_, mark)) = headers.pop()
                {
                    if flow.mark() == mark {
                        flow.text("Spoiler", cur.style.patch(t.spoiler), true);
                    }
                    flow.space(t.dim);
                    flow.text("(spoiler)", t.dim, true);
                    flow.soft_break();
                }
                if spoilers.last().is_some_and(|(e, _)| *e == el) {
                    spoilers.pop();
                    flow.soft_break();
                }
                if headers.is_empty() && is_block(el.value().name()) {
                    flow.soft_break();
                }
                true
            }
        });
    }
}
