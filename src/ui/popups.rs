//! The popup open, if any, drawn over the panes (the default view) or alone (the
//! screen-reader mode).

use super::common::RenderCache;
use super::theme::Theme;
use super::{channel_info, channels, emoji, help, history, image, inbox, info, recent, reminders};
use super::{profile, scheduled, settings, snippets, uploads};
use crate::app::{Popup, State};
use ratatui::Frame;

/// Draw the open popup (a hint session draws in the messages pane, over the links' numbers).
pub(super) fn draw_popup(f: &mut Frame, st: &State, t: &Theme, cache: &mut RenderCache) {
    match &st.ui.popup {
        Some(Popup::Help { scroll }) => help::draw_help(f, st, t, *scroll),
        Some(Popup::EditHistory { message_id, snapshots, scroll }) => {
            history::draw_history(f, st, t, *message_id, snapshots.as_deref(), *scroll)
        }
        Some(Popup::MessageInfo { message_id, scroll }) => {
            info::draw_info(f, st, t, cache, *message_id, *scroll)
        }
        Some(Popup::Scheduled { selected }) => scheduled::draw_scheduled(f, st, t, *selected),
        Some(Popup::Drafts { selected }) => scheduled::draw_drafts(f, st, t, *selected),
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
        Some(Popup::Settings { selected }) => settings::draw_settings(f, st, t, *selected),
        Some(Popup::Uploads { selected, list }) => uploads::draw_uploads(f, st, t, *selected, list.as_ref()),
        Some(Popup::Snippets { query, filtering, selected, shown }) => {
            snippets::draw_snippets(f, st, t, query, *filtering, *selected, shown.as_deref())
        }
        Some(Popup::Inbox(view)) => inbox::draw_inbox(f, st, t, view),
        // Drawn in the messages pane, over the links' numbers.
        Some(Popup::Hints(_)) | None => {}
    }
}
