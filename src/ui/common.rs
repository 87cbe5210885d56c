//! What the panes and popups share: the render cache, the hit map for clicks, clipping,
//! popup placement and scrolling, emoji labels.

use super::content::{RenderedContent, render_html_with_theme};
use super::theme::Theme;
use crate::api::MessageId;
use crate::app::State;
use crate::app::images::Slot;
use crate::app::settings::ThemeChoice;
use crate::content::{ContentContext, display_width, sanitize};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::collections::HashMap;
use std::rc::Rc;

/// A layout's key: the message, the width, its HTML's hash, (spoilers open, previews drawn),
/// room for pictures.
type LayoutKey = (MessageId, u16, u64, (bool, bool), bool);

/// Cache of rendered message bodies. Bounded; cleared wholesale when full.
#[derive(Default)]
pub struct RenderCache {
    map: HashMap<LayoutKey, Rc<RenderedContent>>,
    /// Where the last frame put things, for mouse clicks.
    pub hits: HitMap,
    /// Where the last frame drew graphemes that terminals may draw differently (see
    /// [`clusters::guard_clusters`]).
    pub(super) clusters: Vec<(u16, u16, String)>,
    /// The styles of the theme the settings name, built when that name changes.
    theme: Option<(ThemeChoice, Rc<Theme>)>,
    /// Pictures: how they are drawn, encoded ones, wanted ones.
    pub pictures: super::image::Pictures,
    /// What the screen-reader mode keeps between frames (`ui::reader`).
    pub(super) reader: ReaderMemory,
    /// The compose box as last drawn (`ui::editor`): its wrapped text and scroll.
    pub(super) compose: super::editor::Drawn,
}

/// What the screen-reader mode keeps between frames: where each list and the messages were
/// scrolled (moved only as far as the selection needs, so a move repaints only the rows that
/// change), and messages' text as one run (by message, content and spoilers; bounded).
#[derive(Default)]
pub(super) struct ReaderMemory {
    pub(super) sidebar_top: usize,
    pub(super) people_top: usize,
    /// A list popup's (the inbox, recent conversations).
    pub(super) popup_top: usize,
    /// The narrow and the message on the messages pane's first row.
    pub(super) messages_top: Option<(crate::app::Narrow, MessageId)>,
    pub(super) texts: HashMap<(MessageId, u64, bool), Rc<crate::content::Summary>>,
}

/// Screen regions of the last frame.
#[derive(Debug, Default, Clone)]
pub struct HitMap {
    /// The organizations' rows (several open), one line each from the top.
    pub orgs: Rect,
    pub sidebar: Rect,
    /// Sidebar row index shown on the sidebar's first line.
    pub sidebar_start: usize,
    /// The sidebar row on each line, where rows take more than one (the screen-reader mode
    /// wraps them); `None`: one line each from `sidebar_start`.
    pub sidebar_rows: Option<Vec<usize>>,
    pub messages: Rect,
    /// The message on each line of the messages pane (top to bottom).
    pub message_rows: Vec<Option<MessageId>>,
    /// The links whose numbers the messages pane shows, in reading order (what link hints
    /// label: the main loop tells the app when they change).
    pub links: Vec<crate::app::hints::LinkSpot>,
    /// The messages the pane drew down to their last line, top to bottom (what reading on
    /// sight may read: the main loop tells the app when they change).
    pub seen: Vec<MessageId>,
}

impl HitMap {
    /// What a click at (column, row) means.
    pub fn click(&self, x: u16, y: u16) -> Option<crate::app::Msg> {
        let inside = |r: Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if inside(self.orgs) {
            return Some(crate::app::Msg::ClickOrganization((y - self.orgs.y) as usize));
        }
        if inside(self.sidebar) {
            let line = (y - self.sidebar.y) as usize;
            let row = match &self.sidebar_rows {
                Some(rows) => *rows.get(line)?,
                None => self.sidebar_start + line,
            };
            return Some(crate::app::Msg::ClickSidebar(row));
        }
        if inside(self.messages) {
            let id = self.message_rows.get((y - self.messages.y) as usize).copied().flatten()?;
            return Some(crate::app::Msg::ClickMessage(id));
        }
        None
    }

    /// Is (column, row) over the channels pane?
    pub fn over_sidebar(&self, x: u16, y: u16) -> bool {
        let r = self.sidebar;
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    }
}

pub(super) const CACHE_LIMIT: usize = 4000;

pub(super) struct Ctx<'a> {
    pub(super) spoilers: bool,
    pub(super) tz: crate::app::TimeZone,
    pub(super) clock: crate::app::settings::Clock,
    /// Make room for the pictures of inline images on this server, if any.
    pub(super) images: Option<Room<'a>>,
    /// Draw the server's link previews (false: the user hid them on this message).
    pub(super) previews: bool,
}

/// What room for pictures is made from: the server whose pictures are drawn, the pictures held
/// (whose size is known), the pixels of a cell.
pub(super) struct Room<'a> {
    pub(super) site: &'a str,
    pub(super) held: &'a crate::app::images::Images,
    pub(super) cell: (u16, u16),
}

impl ContentContext for Ctx<'_> {
    fn format_time(&self, ts: i64) -> String {
        self.tz.format(ts, self.clock.short())
    }
    fn spoiler_open(&self, _index: usize) -> bool {
        self.spoilers
    }
    fn link_previews(&self) -> bool {
        self.previews
    }
    fn image(&self, src: &str) -> bool {
        self.images.as_ref().is_some_and(|r| crate::app::images::on_own_server(r.site, src))
    }
    fn picture_rows(&self, src: &str, pixels: Option<(u32, u32)>, width: u16, most: u16) -> Option<u16> {
        let room = self.images.as_ref()?;
        let pixels = pixels.or_else(|| match room.held.get(src) {
            Some(Slot::Ready(p)) => Some((p.0.width(), p.0.height())),
            _ => None,
        })?;
        Some(super::image::inline_rows(pixels, room.cell, width, most))
    }
}

pub(super) fn hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

impl RenderCache {
    /// Draw pictures with `graphics` from now on: bodies laid out for another cell size are
    /// laid out again.
    pub fn set_graphics(&mut self, graphics: super::image::Graphics) {
        if graphics.cell_pixels() != self.pictures.graphics.cell_pixels() {
            self.map.clear();
        }
        self.pictures.set_graphics(graphics);
    }

    /// The styles for the settings' theme choice; built once, again only when the choice
    /// changes (which also drops bodies rendered in the old colours).
    pub(super) fn theme(&mut self, choice: ThemeChoice) -> Rc<Theme> {
        match &self.theme {
            Some((c, t)) if *c == choice => t.clone(),
            _ => {
                let t = Rc::new(Theme::of(choice));
                if self.theme.is_some() {
                    self.map.clear();
                }
                self.theme = Some((choice, t.clone()));
                t
            }
        }
    }

    /// The layout of a message's HTML (`html`: its content, or what a search matched in it),
    /// with room for the pictures of inline images on the user's server when `pictures` (and
    /// the settings draw images).
    pub(super) fn get(
        &mut self,
        m: &crate::app::Stored,
        html: &str,
        width: u16,
        spoilers: bool,
        st: &State,
        pictures: bool,
    ) -> Rc<RenderedContent> {
        let previews = !m.has_flag(crate::api::Flag::HideLinkPreviews);
        self.layout(m.id, html, width, (spoilers, previews), st, pictures)
    }

    /// The layout of the compose box's preview: the server's HTML of the text, laid out as a
    /// message's (spoilers closed, no pictures), kept under an ID no message has.
    pub(super) fn preview(&mut self, html: &str, width: u16, st: &State) -> Rc<RenderedContent> {
        self.layout(MessageId::MIN, html, width, (false, true), st, false)
    }

    fn layout(
        &mut self,
        id: MessageId,
        html: &str,
        width: u16,
        (spoilers, previews): (bool, bool),
        st: &State,
        pictures: bool,
    ) -> Rc<RenderedContent> {
        let settings = &st.settings;
        let tz = st.tz;
        let theme = self.theme(settings.theme);
        let cell = self.pictures.graphics.cell_pixels();
        let images = cell
            .filter(|_| pictures && settings.images != crate::app::settings::ImageMode::Off)
            .map(|cell| Room { site: st.site.as_str(), held: &st.images, cell });
        let key = (id, width, hash(html), (spoilers, previews), images.is_some());
        // A picture laid out before its size was known is laid out again once it is held (the
        // layout changes once; the pane keeps the selected message where it was).
        if let Some(r) = self.map.get(&key)
            && !r.images.iter().any(|i| !i.sized && matches!(st.images.get(&i.src), Some(Slot::Ready(_))))
        {
            return r.clone();
        }
        if self.map.len() >= CACHE_LIMIT {
            self.map.clear();
        }
        let ctx = Ctx { spoilers, tz, clock: settings.clock, images, previews };
        let r = Rc::new(render_html_with_theme(html, width, &ctx, &theme.content));
        self.map.insert(key, r.clone());
        r
    }
}

/// Styled spans cut to `width` columns, the cut marked with `…` as [`clip`] marks it.
pub(super) fn clip_line(spans: Vec<Span<'static>>, width: usize) -> Line<'static> {
    let mut out = Vec::new();
    let mut used = 0;
    for s in spans {
        let w = display_width(&s.content);
        if used + w <= width {
            used += w;
            out.push(s);
        } else {
            out.push(Span::styled(clip(&s.content, width - used), s.style));
            break;
        }
    }
    Line::from(out)
}

pub(super) fn clip(s: &str, width: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    for g in unicode_segmentation::UnicodeSegmentation::graphemes(s, true) {
        let gw = display_width(g);
        if w + gw > width {
            if !out.is_empty() {
                out.pop();
                out.push('…');
            }
            break;
        }
        out.push_str(g);
        w += gw;
    }
    out
}

/// The glyph for a reaction: the Unicode emoji, or `:name:`.
pub fn emoji_label(code: &str, name: &str, kind: &str) -> String {
    if kind == "unicode_emoji"
        && let Some(s) = crate::emoji::glyph(code).filter(|s| !s.chars().any(char::is_control))
    {
        return s;
    }
    format!(":{}:", sanitize(name))
}

pub(super) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// A popup's text, scrolled: no further than its last line at the bottom. That largest useful
/// scroll is left in the state for the keys (`G`/End go there, `j` stops there).
pub(super) fn scrolled_popup(
    f: &mut Frame,
    st: &State,
    lines: Vec<Line>,
    block: Block,
    area: Rect,
    scroll: u16,
) {
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let inner = block.inner(area);
    let total = text.line_count(inner.width);
    let bottom = u16::try_from(total.saturating_sub(inner.height as usize)).unwrap_or(u16::MAX);
    st.ui.popup_bottom.set(Some(bottom));
    f.render_widget(text.block(block).scroll((scroll.min(bottom), 0)), area);
}

/// A row of a list popup with a hanging indent: `head` (a key, a mark, a command; `indent`
/// columns wide, padded) then `text` wrapped at words into `width` columns, every wrapped line
/// starting under the text, not at the border (issue 40: wrapped help lines began at column 0).
pub(super) fn hanging(head: Span<'static>, text: &str, indent: usize, width: usize) -> Vec<Line<'static>> {
    let room = width.saturating_sub(indent).max(10);
    let mut rows: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let last = rows.last_mut().expect("a row");
        let used = crate::content::display_width(last);
        let w = crate::content::display_width(word);
        if used > 0 && used + 1 + w > room {
            rows.push(word.to_owned());
        } else {
            if used > 0 {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    let mut lines = Vec::with_capacity(rows.len());
    for (i, row) in rows.into_iter().enumerate() {
        let first = if i == 0 { head.clone() } else { Span::raw(" ".repeat(indent)) };
        lines.push(Line::from(vec![first, Span::raw(row)]));
    }
    lines
}

/// A line being edited, in `width` columns: the text around the cursor (the grapheme under it
/// reversed, `█` at the end), `…` where text is hidden either side.
pub(super) fn line_spans(
    line: &crate::line::LineEditor,
    width: usize,
    t: &super::theme::Theme,
) -> Vec<Span<'static>> {
    let v = line.view(width);
    let mut spans = Vec::new();
    if v.cut_left {
        spans.push(Span::styled("…", t.dim));
    }
    spans.push(Span::raw(v.before));
    if v.at.is_empty() {
        spans.push(Span::styled("█", t.dim));
    } else {
        spans.push(Span::styled(v.at, t.selected));
    }
    spans.push(Span::raw(v.after));
    if v.cut_right {
        spans.push(Span::styled("…", t.dim));
    }
    spans
}

/// A message's reactions counted by `label` (one label per emoji): (label, how many, whether
/// one is the user's), in order of first appearance. The index keeps this linear in the
/// number of reactions (a message may carry thousands).
pub(super) fn reaction_counts(
    st: &crate::app::State,
    m: &crate::app::Stored,
    label: impl Fn(&crate::api::Reaction) -> String,
) -> Vec<(String, usize, bool)> {
    let mut counts: Vec<(String, usize, bool)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for r in m.reactions() {
        let label = label(r);
        let mine = r.user_id == st.data.me;
        match index.get(&label) {
            Some(&i) => {
                counts[i].1 += 1;
                counts[i].2 |= mine;
            }
            None => {
                index.insert(label.clone(), counts.len());
                counts.push((label, 1, mine));
            }
        }
    }
    counts
}
