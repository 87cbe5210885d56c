//! Pictures on screen: how this terminal draws them (kitty, sixel or iTerm2 graphics when it
//! answers for them, Unicode half-blocks elsewhere — [`Graphics`], decided once at start), the
//! encoded pictures by size, and what the rows kept for a picture show until it is there.
//! A picture not in the state yet is put on [`Pictures::wanted`]; the main loop asks for it
//! after the frame, so a frame never waits for one.

use super::theme::Theme;
use crate::app::State;
use crate::app::images::Slot;
use crate::app::settings::ImageMode;
use crate::content::sanitize;
use ratatui::Frame;
use ratatui::layout::{Rect, Size};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui_image::picker::cap_parser::QueryStdioOptions;
use ratatui_image::picker::{Picker, ProtocolType};
use ratatui_image::protocol::Protocol;
use ratatui_image::{Image, Resize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How long the terminal has to answer the graphics query (terminals answer in milliseconds;
/// one that does not answer at all costs this much start-up once).
const QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(1000);

/// Inside tmux (`$TMUX`), in a session no terminal is attached to (started detached, as
/// scripts and tests do).
fn inside_detached_tmux() -> bool {
    inside_tmux(std::env::var_os("TMUX").as_deref())
        && std::process::Command::new("tmux")
            .args(["display-message", "-p", "#{session_attached}"])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Whether `TMUX` says this runs inside tmux: set and not empty, as tmux itself reads it (an
/// empty `TMUX` is not nested; asking tmux then asks whatever server the machine runs).
fn inside_tmux(var: Option<&std::ffi::OsStr>) -> bool {
    var.is_some_and(|v| !v.is_empty())
}

/// How pictures are drawn in this terminal.
#[derive(Clone, Debug)]
pub struct Graphics {
    /// `None`: not at all (`images = "off"`).
    picker: Option<Picker>,
    /// Not asked of the terminal yet ([`Graphics::unknown`]): pictures are laid out at a
    /// half-block's cell size and stand as "loading image…".
    pending: bool,
}

impl Default for Graphics {
    fn default() -> Self {
        Graphics::halfblocks()
    }
}

impl Graphics {
    /// Unicode half-blocks in colour: any terminal, and every test.
    pub fn halfblocks() -> Graphics {
        Graphics { picker: Some(Picker::halfblocks()), pending: false }
    }

    pub fn off() -> Graphics {
        Graphics { picker: None, pending: false }
    }

    /// To be asked of the terminal (after the first frame): until then pictures are laid out
    /// as half-blocks would be and not drawn.
    pub fn unknown() -> Graphics {
        Graphics { pending: true, ..Graphics::halfblocks() }
    }

    /// What `mode` asks for. `Auto` asks the terminal which graphics it supports and its cell
    /// size in pixels (escape sequences, answered within a second; inside tmux the outer
    /// terminal's): call it in the alternate screen, while nothing else reads terminal events.
    /// A terminal that does not answer gets half-blocks.
    pub fn detect(mode: ImageMode) -> Graphics {
        match mode {
            ImageMode::Off => Graphics::off(),
            ImageMode::Halfblocks => Graphics::halfblocks(),
            ImageMode::Auto if inside_detached_tmux() => {
                // The query would go through tmux to a terminal that is not there: nobody would
                // answer, start-up would wait for the timeout, and the reader left waiting for
                // the answer would take the user's first key.
                tracing::info!("in a tmux session no terminal is attached to: half-blocks");
                Graphics::halfblocks()
            }
            ImageMode::Auto => {
                let options = QueryStdioOptions { timeout: QUERY_TIMEOUT, ..Default::default() };
                match Picker::from_query_stdio_with_options(options) {
                    Ok(mut picker) if picker.protocol_type() == ProtocolType::Kitty => {
                        use super::xtversion;
                        let answer =
                            xtversion::ask(picker.tmux_detected(), QUERY_TIMEOUT).unwrap_or_default();
                        if xtversion::kitty_draws_placeholders(&answer) == Some(false) {
                            let (a, b, c) = xtversion::kitty_version(&answer).unwrap_or_default();
                            tracing::info!(
                                "kitty {a}.{b}.{c} draws no Unicode placeholders (0.28 and later do): half-blocks"
                            );
                            picker.set_protocol_type(ProtocolType::Halfblocks);
                        }
                        Graphics { picker: Some(picker), pending: false }
                    }
                    Ok(picker) => Graphics { picker: Some(picker), pending: false },
                    Err(e) => {
                        tracing::info!(
                            "the terminal did not say which graphics it supports ({e}): half-blocks"
                        );
                        Graphics::halfblocks()
                    }
                }
            }
        }
    }

    /// The pixels of a terminal cell, which size pictures in cells (`None`: images are off).
    pub fn cell_pixels(&self) -> Option<(u16, u16)> {
        self.picker.as_ref().map(|p| {
            let f = p.font_size();
            (f.width, f.height)
        })
    }

    /// The protocol in use, as the log and the notes name it.
    pub fn name(&self) -> &'static str {
        match self.picker.as_ref().map(Picker::protocol_type) {
            _ if self.pending => "not asked yet",
            None => "off",
            Some(ProtocolType::Halfblocks) => "half-blocks",
            Some(ProtocolType::Sixel) => "sixel",
            Some(ProtocolType::Kitty) => "kitty",
            Some(ProtocolType::Iterm2) => "iTerm2",
        }
    }
}

/// Encoded pictures kept at most (each is one size of one picture).
const ENCODED: usize = 16;

/// A picture at a size (in cells).
type Key = (String, u16, u16);
/// An encoding made off the frame.
type Encoded = (Key, Result<Protocol, String>);

/// The views' side of pictures: how to draw them, those encoded for a size, those wanted.
#[derive(Default)]
pub struct Pictures {
    pub graphics: Graphics,
    encoded: HashMap<Key, Protocol>,
    /// Kitty, sixel and iTerm2 encodings cost tens of milliseconds for a message's picture and
    /// a hundred or more full screen (`benches/images.rs`), so they are made on a blocking
    /// thread: those under way, those finished (taken by the next frame), and those that failed.
    encoding: std::collections::HashSet<Key>,
    finished: Arc<Mutex<Vec<Encoded>>>,
    failed: HashMap<Key, String>,
    /// Woken when an encoding finishes: the main loop draws again.
    pub ready: Arc<tokio::sync::Notify>,
    /// Pictures the last frame would have drawn and the state does not have: the main loop
    /// takes them (`std::mem::take`) and asks for them.
    pub wanted: Vec<String>,
}

impl Pictures {
    /// Draw with `graphics` from now on (once, when the terminal has said which it draws: the
    /// pending graphics before encode nothing), what was encoded or refused before let go.
    pub fn set_graphics(&mut self, graphics: Graphics) {
        self.graphics = graphics;
        self.encoded.clear();
        self.failed.clear();
        self.encoding.clear();
        self.finished.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Take the encodings finished since the last frame.
    fn take_finished(&mut self) {
        let done = std::mem::take(&mut *self.finished.lock().unwrap_or_else(|e| e.into_inner()));
        for (key, result) in done {
            self.encoding.remove(&key);
            match result {
                Ok(proto) => self.keep(key, proto),
                Err(why) => {
                    self.failed.insert(key, why);
                }
            }
        }
    }

    fn keep(&mut self, key: Key, proto: Protocol) {
        if self.encoded.len() >= ENCODED {
            self.encoded.clear();
            self.failed.clear();
        }
        self.encoded.insert(key, proto);
    }
}

/// How a picture fills the room it has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// At most its natural size (at the terminal's cell size), from the top left: inline.
    Shrink,
    /// As large as the room allows, centred: full screen.
    Fill,
}

/// Draw the picture `src` in `area` (kept for it, whole on screen), or what stands in for it.
pub(super) fn draw_picture(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    pics: &mut Pictures,
    src: &str,
    area: Rect,
    fit: Fit,
) {
    let note = |f: &mut Frame, text: &str| {
        let line = Line::styled(sanitize(text), t.dim);
        f.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), area);
    };
    pics.take_finished();
    let Some(picker) = &pics.graphics.picker else { return };
    let picture = match st.images.get(src) {
        None if st.settings.low_bandwidth => {
            return note(f, "picture not fetched (low bandwidth): I shows it");
        }
        None => {
            if !pics.wanted.iter().any(|w| w == src) {
                pics.wanted.push(src.to_owned());
            }
            return note(f, "loading image…");
        }
        Some(Slot::Loading) => return note(f, "loading image…"),
        Some(Slot::Failed(why)) => return note(f, &format!("image not shown: {why}")),
        // Fetched, and drawn once the terminal has said how.
        Some(Slot::Ready(_)) if pics.graphics.pending => return note(f, "loading image…"),
        Some(Slot::Ready(p)) => p,
    };
    let key = (src.to_owned(), area.width, area.height);
    let room = Size::new(area.width, area.height);
    if let Some(why) = pics.failed.get(&key) {
        return note(f, &format!("image not shown: {why}"));
    }
    if !pics.encoded.contains_key(&key) {
        let runtime = tokio::runtime::Handle::try_current();
        match runtime {
            // Half-blocks take a couple of milliseconds: drawn now.
            _ if picker.protocol_type() == ProtocolType::Halfblocks => {}
            Ok(runtime) => {
                if pics.encoding.insert(key.clone()) {
                    let (picker, picture) = (picker.clone(), picture.0.clone());
                    let (finished, ready) = (pics.finished.clone(), pics.ready.clone());
                    runtime.spawn_blocking(move || {
                        let result = encode(&picker, &picture, room, fit);
                        finished.lock().unwrap_or_else(|e| e.into_inner()).push((key, result));
                        ready.notify_one();
                    });
                }
                return note(f, "loading image…");
            }
            // No runtime to hand it to (not the main loop): drawn now.
            Err(_) => {}
        }
        match encode(picker, &picture.0, room, fit) {
            Ok(proto) => pics.keep(key.clone(), proto),
            Err(e) => return note(f, &format!("image not shown: {e}")),
        }
    }
    if let Some(proto) = pics.encoded.get(&key) {
        let size = proto.size();
        let at = match fit {
            Fit::Shrink => area,
            Fit::Fill => Rect {
                x: area.x + area.width.saturating_sub(size.width) / 2,
                y: area.y + area.height.saturating_sub(size.height) / 2,
                width: size.width.min(area.width),
                height: size.height.min(area.height),
            },
        };
        f.render_widget(Image::new(proto), at);
    }
}

/// The cells a `width`×`height` pixel picture takes in `room`, at `font` pixels a cell: its
/// natural size, or as large as `room` allows for [`Fit::Fill`], shrunk to fit, aspect kept.
fn cells_for(width: u32, height: u32, font: (u16, u16), room: Size, fit: Fit) -> Size {
    let natural = (f64::from(width) / f64::from(font.0.max(1)), f64::from(height) / f64::from(font.1.max(1)));
    let most =
        (f64::from(room.width) / natural.0.max(1e-9)).min(f64::from(room.height) / natural.1.max(1e-9));
    // Inline, a picture whose natural size, in whole cells, fits is drawn at it (the rows the
    // layout keeps are its natural height rounded: 2.4 rows are 2, not a picture shrunk to fit).
    let fits = natural.0.round() <= f64::from(room.width) && natural.1.round() <= f64::from(room.height);
    let scale = match fit {
        Fit::Fill => most,
        Fit::Shrink if fits => 1.0,
        Fit::Shrink => most.min(1.0),
    };
    let side = |n: f64, limit: u16| ((n * scale).round() as u16).clamp(1, limit.max(1));
    Size::new(side(natural.0, room.width), side(natural.1, room.height))
}

/// The rows a `pixels` picture takes inline ([`Fit::Shrink`]) in a room `width` columns wide
/// and at most `most` rows high, at `cell` pixels a cell: what the layout keeps for it, so that
/// a small picture leaves no blank rows under it.
pub(super) fn inline_rows(pixels: (u32, u32), cell: (u16, u16), width: u16, most: u16) -> u16 {
    cells_for(pixels.0, pixels.1, cell, Size::new(width, most), Fit::Shrink).height
}

/// `picture` encoded to be drawn in `room`. It is first brought down, with a fast area average,
/// to the pixels it will take (for half-blocks: two a cell), so that encoding — on the frame that
/// first shows it — costs about a millisecond and not a resampling of the whole picture.
pub fn encode(
    picker: &Picker,
    picture: &image::DynamicImage,
    room: Size,
    fit: Fit,
) -> Result<Protocol, String> {
    let font = picker.font_size();
    let cells = cells_for(picture.width(), picture.height(), (font.width, font.height), room, fit);
    let filter = image::imageops::FilterType::Triangle;
    if picker.protocol_type() == ProtocolType::Halfblocks {
        let (w, h) = (u32::from(cells.width), u32::from(cells.height) * 2);
        let pixels = if picture.width() >= w && picture.height() >= h {
            picture.thumbnail_exact(w, h)
        } else {
            picture.resize_exact(w, h, filter)
        };
        let blocks =
            ratatui_image::protocol::halfblocks::Halfblocks::new(pixels, cells).map_err(|e| e.to_string())?;
        return Ok(Protocol::Halfblocks(blocks));
    }
    let (w, h) =
        (u32::from(cells.width) * u32::from(font.width), u32::from(cells.height) * u32::from(font.height));
    let pixels =
        if picture.width() > w || picture.height() > h { picture.thumbnail(w, h) } else { picture.clone() };
    let resize = if fit == Fit::Fill { Resize::Scale(Some(filter)) } else { Resize::Fit(Some(filter)) };
    picker.new_protocol(pixels, cells, resize).map_err(|e| e.to_string())
}

/// The full-screen image (`I`): one of a message's pictures, as large as the screen allows.
pub(super) fn draw_image_popup(
    f: &mut Frame,
    st: &State,
    t: &Theme,
    pics: &mut Pictures,
    srcs: &[String],
    shown: usize,
) {
    use ratatui::widgets::{Block, Borders, Clear};
    let area = f.area();
    let Some(src) = srcs.get(shown) else { return };
    let title = format!(
        " image {} of {} · n/p next, previous · esc closes · {} ",
        shown + 1,
        srcs.len(),
        pics.graphics.name()
    );
    let block = Block::default().borders(Borders::ALL).border_style(t.accent).title(title);
    let inner = block.inner(area);
    f.render_widget(Clear, area);
    f.render_widget(block, area);
    if inner.width > 0 && inner.height > 0 {
        draw_picture(f, st, t, pics, src, inner, Fit::Fill);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_tmux_variable_is_not_inside_tmux() {
        assert!(!inside_tmux(None));
        assert!(!inside_tmux(Some(std::ffi::OsStr::new(""))), "tmux reads an empty TMUX as not nested");
        assert!(inside_tmux(Some(std::ffi::OsStr::new("/tmp/tmux-0/default,123,0"))));
    }

    #[test]
    fn a_picture_takes_its_natural_size_inline_and_the_whole_room_full_screen() {
        // 10×20 pixel cells: a 200×100 picture is 20×5 cells.
        let room = Size::new(60, 12);
        assert_eq!(cells_for(200, 100, (10, 20), room, Fit::Shrink), Size::new(20, 5));
        // Full screen it grows until a side meets the room: 60 / 20 = 3, 12 / 5 = 2.4.
        assert_eq!(cells_for(200, 100, (10, 20), room, Fit::Fill), Size::new(48, 12));
        // A large one shrinks, aspect kept: 1,000×1,000 is 100×50 cells, fitted by height.
        assert_eq!(cells_for(1000, 1000, (10, 20), room, Fit::Shrink), Size::new(24, 12));
        // Its natural size in whole cells, when that fits: 64×48 is 6.4×2.4, drawn 6×2 in 2 rows.
        assert_eq!(cells_for(64, 48, (10, 20), Size::new(60, 2), Fit::Shrink), Size::new(6, 2));
        // Never nothing, never beyond the room.
        assert_eq!(cells_for(1, 1, (10, 20), room, Fit::Shrink), Size::new(1, 1));
        assert_eq!(cells_for(100_000, 10, (10, 20), room, Fit::Shrink), Size::new(60, 1));
        assert_eq!(cells_for(0, 0, (0, 0), Size::new(0, 0), Fit::Fill), Size::new(1, 1));
    }

    #[test]
    fn the_rows_kept_inline_follow_the_pictures_size_up_to_the_most() {
        // 10×20 pixel cells: 64×48 pixels are 6×2 cells, 640×480 would be 24 rows.
        assert_eq!(inline_rows((64, 48), (10, 20), 50, 6), 2);
        assert_eq!(inline_rows((640, 480), (10, 20), 50, 6), 6);
        // A wide one in a narrow room: as many rows as its width allows, aspect kept.
        assert_eq!(inline_rows((1000, 100), (10, 20), 20, 6), 1);
    }

    #[test]
    fn half_blocks_are_encoded_at_their_cell_size_from_a_large_or_small_picture() {
        let picker = Picker::halfblocks();
        for (w, h) in [(1024, 683), (16, 8)] {
            let picture =
                image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(w, h, image::Rgb([200, 10, 10])));
            let room = Size::new(60, 12);
            let font = picker.font_size();
            let want = cells_for(w, h, (font.width, font.height), room, Fit::Fill);
            let proto = encode(&picker, &picture, room, Fit::Fill).unwrap();
            assert_eq!(proto.size(), want, "{w}×{h}");
        }
    }

    /// Sixel is encoded off the frame: the first frame says it is coming, the main loop is woken
    /// when it is ready, and the next frame draws it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sixel_picture_is_encoded_off_the_frame_and_drawn_when_ready() {
        use crate::app::images::Picture;
        use ratatui::{Terminal, backend::TestBackend};
        let src = "/user_uploads/1/pic.png";
        let mut st = State::default();
        let picture =
            image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(400, 300, image::Rgb([9, 9, 200])));
        st.images.set(src.into(), Slot::Ready(Picture(Arc::new(picture))));
        // Half-blocks' picker has 10×20 pixel cells.
        let mut sixel = Picker::halfblocks();
        sixel.set_protocol_type(ProtocolType::Sixel);
        let mut pics =
            Pictures { graphics: Graphics { picker: Some(sixel), pending: false }, ..Default::default() };
        let theme = Theme::default();
        let mut term = Terminal::new(TestBackend::new(60, 20)).unwrap();
        let mut frame = |pics: &mut Pictures| {
            term.draw(|f| draw_picture(f, &st, &theme, pics, src, Rect::new(0, 0, 60, 20), Fit::Fill))
                .unwrap()
                .buffer
                .clone()
        };
        let first = frame(&mut pics);
        assert_eq!(first[(0, 0)].symbol(), "l", "the first frame says it is loading: {first:?}");
        assert!(!first.content.iter().any(|c| c.symbol().contains("\x1bP")), "not drawn yet");
        tokio::time::timeout(std::time::Duration::from_secs(20), pics.ready.notified())
            .await
            .expect("the main loop is woken when the encoding is done");
        let next = frame(&mut pics);
        // ratatui-image puts the whole sixel sequence (after clearing the area) in the picture's
        // first cell: (3, 0), as 53×20 cells are centred in 60.
        let drawn = next[(3, 0)].symbol();
        // A sixel sequence of the picture at 530×400 pixels (53×20 cells of 10×20).
        assert!(
            drawn.contains("\x1bP") && drawn.contains("q\"1;1;530;400") && drawn.ends_with("\x1b\\"),
            "sixel in the first cell: {drawn:?}"
        );
        // Drawn again, it is not encoded again.
        assert!(pics.encoding.is_empty() && pics.encoded.len() == 1);
        frame(&mut pics);
        assert!(pics.encoding.is_empty() && pics.encoded.len() == 1);
    }
}
