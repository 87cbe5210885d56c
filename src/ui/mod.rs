//! Views: functions of the state. Only what is visible is laid out; rendered message content
//! is cached per (message, width, content, spoilers) in a [`RenderCache`] the caller owns.

mod channel_info;
mod channels;
mod clusters;
mod common;
mod compose;
pub mod content;
mod emoji;
mod help;
mod hints;
mod history;
pub mod image;
mod inbox;
mod info;
mod messages;
mod people;
mod profile;
mod recent;
mod reminders;
mod scheduled;
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

use crate::app::{Focus, Popup, State};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};

const SIDEBAR_WIDTH: u16 = 26;

/// Draw the whole screen.
pub fn draw(f: &mut Frame, st: &State, cache: &mut RenderCache) {
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
    let people_w = if st.ui.show_people { (main.width / 4).clamp(16, 40) } else { 0 };
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
        Some(Popup::Channels { query, selected, list }) => {
            channels::draw_channels(f, st, t, query, *selected, list.as_ref())
        }
        Some(Popup::ChannelInfo { channel, details, email, scroll, .. }) => {
            channel_info::draw_channel_info(f, st, t, *channel, details.as_deref(), email.as_ref(), *scroll)
        }
        Some(Popup::Recent { selected, rows }) => recent::draw_recent(f, st, t, *selected, rows.as_deref()),
        Some(Popup::Profile { user, details, scroll }) => {
            profile::draw_profile(f, st, t, *user, details.as_deref(), *scroll)
        }
        Some(Popup::Image { srcs, shown, .. }) => {
            image::draw_image_popup(f, st, t, &mut cache.pictures, srcs, *shown)
        }
        Some(Popup::Reminders { selected }) => reminders::draw_reminders(f, st, t, *selected),
        Some(Popup::Uploads { selected, list }) => uploads::draw_uploads(f, st, t, *selected, list.as_ref()),
        Some(Popup::Snippets { query, filtering, selected, shown }) => {
            snippets::draw_snippets(f, st, t, query, *filtering, *selected, shown.as_deref())
        }
        Some(Popup::Inbox(view)) => inbox::draw_inbox(f, st, t, view),
        // Drawn in the messages pane, over the links' numbers.
        Some(Popup::Hints(_)) | None => {}
    }
    clusters::cut_wide(f.buffer_mut());
    clusters::guard_clusters(f.buffer_mut(), &mut cache.clusters);
}
