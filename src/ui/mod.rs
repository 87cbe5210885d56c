//! Views: functions of the state. Only what is visible is laid out; rendered message content
//! is cached per (message, width, content, spoilers) in a [`RenderCache`] the caller owns.

mod channel_info;
mod channels;
mod clusters;
mod common;
mod compose;
pub mod content;
mod editor;
mod emoji;
mod help;
mod hints;
mod history;
pub mod image;
mod inbox;
mod info;
mod messages;
mod people;
mod popups;
mod profile;
mod reader;
mod recent;
mod reminders;
mod scheduled;
mod settings;
mod sidebar;
mod snippets;
mod status;
pub mod theme;
mod uploads;
mod widget;
mod xtversion;

pub use common::{HitMap, RenderCache, emoji_label};
pub use history::diff_lines;
pub use image::Graphics;
pub use people::activity_glyph;
pub use status::narrow_title;

use crate::app::{Focus, State};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};

const SIDEBAR_WIDTH: u16 = 26;

/// Draw the whole screen.
pub fn draw(f: &mut Frame, st: &State, cache: &mut RenderCache) {
    // One column of plain text for screen readers (`--screen-reader`).
    if st.settings.screen_reader {
        reader::draw(f, st, cache);
        return;
    }
    let area = f.area();
    // Set again below by a scrolled popup.
    st.ui.popup_bottom.set(None);
    let compose_h = if st.ui.compose.is_some() { 7.min(area.height / 2) } else { 0 };
    let theme = cache.theme(st.settings.theme);
    let t = &*theme;
    let status_h = status::status_height(st, t, area.width);
    let [main, compose, status] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(compose_h), Constraint::Length(status_h)])
            .areas(area);
    let side_w = if !st.settings.show_channels && st.ui.focus != Focus::Sidebar {
        0
    } else if main.width < 60 {
        main.width / 3
    } else {
        SIDEBAR_WIDTH
    };
    // A quarter of the screen, from 16 to 40 columns (at 160 it grows to 40: names and status
    // texts were cut at 30).
    let people_w = if st.ui.people.shown() { (main.width / 4).clamp(16, 40) } else { 0 };
    let [side, msgs, people] =
        Layout::horizontal([Constraint::Length(side_w), Constraint::Min(10), Constraint::Length(people_w)])
            .areas(main);
    sidebar::draw_sidebar(f, st, side, &mut cache.hits, t);
    messages::draw_messages(f, st, t, cache, msgs);
    if people_w > 0 {
        people::draw_people(f, st, t, people);
    }
    if compose_h > 0 {
        compose::draw_compose(f, st, t, cache, compose);
    }
    status::draw_status(f, st, t, status);
    popups::draw_popup(f, st, t, cache);
    clusters::cut_wide(f.buffer_mut());
    clusters::guard_clusters(f.buffer_mut(), &mut cache.clusters);
}
