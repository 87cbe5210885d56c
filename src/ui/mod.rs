//! Views: functions of the state. Only what is visible is laid out; rendered message content
//! is cached per (message, width, content, spoilers) in a [`RenderCache`] the caller owns.

mod clusters;
mod compose;
pub mod content;
mod emoji;
mod help;
mod history;
mod info;
mod messages;
mod people;
mod scheduled;
mod sidebar;
mod status;
pub mod theme;

pub use history::diff_lines;
pub use people::activity_glyph;
pub use status::narrow_title;

use crate::api::{Message, MessageId};
use crate::app::settings::ThemeChoice;
use crate::app::{Focus, Popup, State};
use crate::content::{ContentContext, display_width, sanitize};
use content::{RenderedContent, render_html_with_theme};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::collections::HashMap;
use std::rc::Rc;
use theme::Theme;

/// Cache of rendered message bodies. Bounded; cleared wholesale when full.
#[derive(Default)]
pub struct RenderCache {
    map: HashMap<(MessageId, u16, u64, bool), Rc<RenderedContent>>,
    /// Where the last frame put things, for mouse clicks.
    pub hits: HitMap,
    /// Where the last frame drew graphemes that terminals may draw differently (see
    /// [`clusters::guard_clusters`]).
    clusters: Vec<(u16, u16, String)>,
    /// The styles of the theme the settings name, built when that name changes.
    theme: Option<(ThemeChoice, Rc<Theme>)>,
}

/// Screen regions of the last frame.
#[derive(Debug, Default, Clone)]
pub struct HitMap {
    pub sidebar: Rect,
    /// Sidebar row index shown on the sidebar's first line.
    pub sidebar_start: usize,
    pub messages: Rect,
    /// The message on each line of the messages pane (top to bottom).
    pub message_rows: Vec<Option<MessageId>>,
}

impl HitMap {
    /// What a click at (column, row) means.
    pub fn click(&self, x: u16, y: u16) -> Option<crate::app::Msg> {
        let inside = |r: Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if inside(self.sidebar) {
            return Some(crate::app::Msg::ClickSidebar(self.sidebar_start + (y - self.sidebar.y) as usize));
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

const CACHE_LIMIT: usize = 4000;

struct Ctx {
    spoilers: bool,
    tz: crate::app::TimeZone,
    clock: crate::app::settings::Clock,
}

impl ContentContext for Ctx {
    fn format_time(&self, ts: i64) -> String {
        self.tz.format(ts, self.clock.short())
    }
    fn spoiler_open(&self, _index: usize) -> bool {
        self.spoilers
    }
}

fn hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

impl RenderCache {
    /// The styles for the settings' theme choice; built once, again only when the choice
    /// changes (which also drops bodies rendered in the old colours).
    fn theme(&mut self, choice: ThemeChoice) -> Rc<Theme> {
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

    fn get(
        &mut self,
        m: &Message,
        width: u16,
        spoilers: bool,
        tz: crate::app::TimeZone,
        settings: &crate::app::settings::Settings,
    ) -> Rc<RenderedContent> {
        let theme = self.theme(settings.theme);
        let key = (m.id, width, hash(&m.content), spoilers);
        if let Some(r) = self.map.get(&key) {
            return r.clone();
        }
        if self.map.len() >= CACHE_LIMIT {
            self.map.clear();
        }
        let ctx = Ctx { spoilers, tz, clock: settings.clock };
        let r = Rc::new(render_html_with_theme(&m.content, width, &ctx, &theme.content));
        self.map.insert(key, r.clone());
        r
    }
}

const SIDEBAR_WIDTH: u16 = 26;

/// Draw the whole screen.
pub fn draw(f: &mut Frame, st: &State, cache: &mut RenderCache) {
    let area = f.area();
    // Set again below by a scrolled popup.
    st.ui.popup_bottom.set(None);
    let compose_h = if st.ui.compose.is_some() { 7.min(area.height / 2) } else { 0 };
    let [main, compose, status] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(compose_h), Constraint::Length(1)])
            .areas(area);
    let side_w = if !st.settings.show_channels && st.ui.focus != Focus::Sidebar {
        0
    } else if main.width < 60 {
        main.width / 3
    } else {
        SIDEBAR_WIDTH
    };
    let people_w = if st.ui.show_people { (main.width / 4).clamp(16, 30) } else { 0 };
    let [side, msgs, people] =
        Layout::horizontal([Constraint::Length(side_w), Constraint::Min(10), Constraint::Length(people_w)])
            .areas(main);
    let theme = cache.theme(st.settings.theme);
    let t = &*theme;
    sidebar::draw_sidebar(f, st, side, &mut cache.hits, t);
    messages::draw_messages(f, st, t, cache, msgs);
    if people_w > 0 {
        people::draw_people(f, st, t, people);
    }
    if compose_h > 0 {
        compose::draw_compose(f, st, t, compose);
    }
    status::draw_status(f, st, t, status);
    match &st.ui.popup {
        Some(Popup::Help { scroll }) => help::draw_help(f, st, t, *scroll),
        Some(Popup::EditHistory { message_id, snapshots, scroll }) => {
            history::draw_history(f, st, t, *message_id, snapshots.as_deref(), *scroll)
        }
        Some(Popup::MessageInfo { message_id, scroll }) => {
            info::draw_info(f, st, t, cache, *message_id, *scroll)
        }
        Some(Popup::Scheduled { selected }) => scheduled::draw_scheduled(f, st, t, *selected),
        Some(Popup::Emoji { message_id, query, matches, selected }) => {
            emoji::draw_emoji(f, st, t, *message_id, query, matches, *selected)
        }
        None => {}
    }
    clusters::guard_clusters(f.buffer_mut(), &mut cache.clusters);
}

fn clip(s: &str, width: usize) -> String {
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
    if kind == "unicode_emoji" {
        let s: Option<String> =
            code.split('-').map(|p| u32::from_str_radix(p, 16).ok().and_then(char::from_u32)).collect();
        if let Some(s) = s.filter(|s| !s.chars().any(char::is_control)) {
            return s;
        }
    }
    format!(":{}:", sanitize(name))
}
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}
/// A popup's text, scrolled: no further than its last line at the bottom. That largest useful
/// scroll is left in the state for the keys (`G`/End go there, `j` stops there).
fn scrolled_popup(f: &mut Frame, st: &State, lines: Vec<Line>, block: Block, area: Rect, scroll: u16) {
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let inner = block.inner(area);
    let total = text.line_count(inner.width);
    let bottom = u16::try_from(total.saturating_sub(inner.height as usize)).unwrap_or(u16::MAX);
    st.ui.popup_bottom.set(Some(bottom));
    f.render_widget(text.block(block).scroll((scroll.min(bottom), 0)), area);
}
