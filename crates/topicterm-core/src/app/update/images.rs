//! Pictures of inline images: asked for when the view would draw them (and only on the user's
//! own server), kept when they come, shown full screen with `I`.

use super::answers::failure;
use super::common::*;
use super::prelude::*;
use crate::app::images::{Slot, on_own_server};
use crate::app::msg::Failure;
use crate::app::settings::ImageMode;

/// What a picture on another server shows instead.
pub const ELSEWHERE: &str = "on another server: not fetched (o opens the link)";

/// Pictures the view would draw: asked for, unless images are off or only come when asked
/// for (`--low-bandwidth`).
pub(super) fn on_wanted(st: &mut State, srcs: Vec<String>) -> Vec<Effect> {
    if st.settings.low_bandwidth {
        return vec![];
    }
    fetch_pictures(st, srcs)
}

/// Ask for the pictures not asked for yet (those on the user's own server).
fn fetch_pictures(st: &mut State, srcs: Vec<String>) -> Vec<Effect> {
    if st.settings.images == ImageMode::Off {
        return vec![];
    }
    let mut fx = Vec::new();
    for src in srcs {
        if !st.images.is_new(&src) {
            continue;
        }
        if on_own_server(&st.site, &src) {
            st.images.set(src.clone(), Slot::Loading);
            fx.push(Effect::FetchImage { src });
        } else {
            st.images.set(src, Slot::Failed(ELSEWHERE.into()));
        }
    }
    fx
}

pub(super) fn on_image(st: &mut State, src: String, result: Result<crate::app::images::Picture, Failure>) {
    let slot = match result {
        Ok(p) => Slot::Ready(p),
        Err(f) => Slot::Failed(failure(&f)),
    };
    st.images.set(src, slot);
}

/// `I`: the selected message's images, full screen (those in closed spoilers left out).
pub(super) fn view_image(st: &mut State) -> Vec<Effect> {
    let Some(m) = selected_message(st) else {
        set_status(st, "no message selected");
        return vec![];
    };
    let id = m.id;
    let srcs = shown_parts(st, m).previews;
    if srcs.is_empty() {
        set_status(st, "this message has no image");
        return vec![];
    }
    if st.settings.images == ImageMode::Off {
        set_status(st, "images are off (images = \"off\" in the config): o opens the link");
        return vec![];
    }
    st.ui.popup = Some(Popup::Image { message_id: id, srcs: srcs.clone(), shown: 0 });
    // Asked for: fetched even with `--low-bandwidth`.
    fetch_pictures(st, srcs)
}

/// Keys of the full-screen image: the next and previous image, and away.
pub(super) fn on_image_key(st: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(Popup::Image { srcs, shown, .. }) = &mut st.ui.popup else { return vec![] };
    match key.code {
        KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('I') => st.ui.popup = None,
        KeyCode::Char('n') | KeyCode::Char('l') | KeyCode::Right | KeyCode::Char('j') | KeyCode::Down => {
            *shown = (*shown + 1).min(srcs.len().saturating_sub(1))
        }
        KeyCode::Char('p') | KeyCode::Char('h') | KeyCode::Left | KeyCode::Char('k') | KeyCode::Up => {
            *shown = shown.saturating_sub(1)
        }
        _ => {}
    }
    vec![]
}
