//! The compose box's text as ratatui draws it: the core's plain editor (`app::editor::Editor`:
//! lines, cursor, selection) laid into a ratatui-textarea `TextArea` kept between frames, which
//! wraps long lines at words (long words at graphemes), draws the cursor and the selection, and
//! scrolls only as far as the cursor needs — the drawing the box had when the `TextArea` itself
//! was the editor.
//!
//! Owns: the `TextArea` of the box on screen and its scroll. Knows nothing of keys: nothing here
//! edits the text (the core does, `Editor::input`); the `TextArea` is rebuilt from the editor's
//! lines whenever they change, its scroll carried over, and the editor's cursor and selection set
//! on it each frame. Start at [`draw`].

use crate::app::editor::Editor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui_textarea::{CursorMove, TextArea, WrapMode};

/// The box drawn at the last frame: which editor it showed (`Editor::id`), and its `TextArea`.
#[derive(Default)]
pub struct Drawn(Option<(u64, TextArea<'static>)>);

/// Draw `editor` in `area`, through the `TextArea` kept in `drawn`.
pub(super) fn draw(f: &mut Frame, editor: &Editor, drawn: &mut Drawn, area: Rect) {
    editor.shown_rows(area.height);
    f.render_widget(&*text_area(editor, drawn), area);
}

/// The `TextArea` showing `editor`: the last frame's when it is the same box with the same
/// lines, else one built from them, scrolled where the last frame's was (a new box from the top).
fn text_area<'d>(editor: &Editor, drawn: &'d mut Drawn) -> &'d mut TextArea<'static> {
    let same_box = matches!(&drawn.0, Some((id, _)) if *id == editor.id());
    let stale = match &drawn.0 {
        Some((_, area)) => !same_box || area.lines() != editor.lines(),
        None => true,
    };
    if stale {
        let mut area = TextArea::from(editor.lines().iter().cloned());
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        if same_box && let Some((_, old)) = &drawn.0 {
            let (rows, cols) = old.scroll_offset();
            area.scroll((rows as i16, cols as i16));
        }
        drawn.0 = Some((editor.id(), area));
    }
    let Some((_, area)) = &mut drawn.0 else { unreachable!("set above") };
    area.cancel_selection();
    if let Some((row, col)) = editor.selection() {
        area.move_cursor(jump((row, col)));
        area.start_selection();
    }
    area.move_cursor(jump(editor.cursor()));
    area
}

fn jump((row, col): (usize, usize)) -> CursorMove {
    CursorMove::Jump(row.min(u16::MAX as usize) as u16, col.min(u16::MAX as usize) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui_textarea::{Input, Key};

    /// What the terminal shows of a box `width`×`height` drawn from `editor`, and where the
    /// cursor is drawn (the reversed cell).
    fn screen(editor: &Editor, drawn: &mut Drawn, width: u16, height: u16) -> Vec<String> {
        let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
        t.draw(|f| draw(f, editor, drawn, f.area())).unwrap();
        let buf = t.backend().buffer();
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| {
                        let c = &buf[(x, y)];
                        let reversed = c.modifier.contains(ratatui::style::Modifier::REVERSED);
                        if reversed { format!("[{}]", c.symbol()) } else { c.symbol().to_owned() }
                    })
                    .collect::<String>()
            })
            .collect()
    }

    /// The same keys given to ratatui-textarea itself (as the box was before the core owned
    /// the text), drawn in the same box.
    fn textarea_screen(text: &str, keys: &[Input], width: u16, height: u16) -> Vec<String> {
        let lines = text.split('\n').map(str::to_owned);
        let mut area = TextArea::from(lines);
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
        let mut out = vec![];
        for k in keys {
            area.input(k.clone());
            t.draw(|f| f.render_widget(&area, f.area())).unwrap();
            let buf = t.backend().buffer();
            out = (0..height)
                .map(|y| {
                    (0..width)
                        .map(|x| {
                            let c = &buf[(x, y)];
                            let reversed = c.modifier.contains(ratatui::style::Modifier::REVERSED);
                            if reversed { format!("[{}]", c.symbol()) } else { c.symbol().to_owned() }
                        })
                        .collect::<String>()
                })
                .collect();
        }
        out
    }

    fn input(code: KeyCode, m: KeyModifiers) -> (KeyEvent, Input) {
        let key = match code {
            KeyCode::Char(c) => Key::Char(c),
            KeyCode::Enter => Key::Enter,
            KeyCode::Backspace => Key::Backspace,
            KeyCode::Left => Key::Left,
            KeyCode::Right => Key::Right,
            KeyCode::Up => Key::Up,
            KeyCode::Down => Key::Down,
            KeyCode::Home => Key::Home,
            KeyCode::End => Key::End,
            _ => Key::Null,
        };
        let input = Input {
            key,
            ctrl: m.contains(KeyModifiers::CONTROL),
            alt: m.contains(KeyModifiers::ALT),
            shift: m.contains(KeyModifiers::SHIFT),
        };
        (KeyEvent::new(code, m), input)
    }

    /// Typing, moving and deleting in a narrow box with long lines: after every key the screen
    /// is the one ratatui-textarea drew, cursor, wrapping, selection and scroll included.
    #[test]
    fn the_box_draws_as_ratatui_textarea_drew_it() {
        let none = KeyModifiers::NONE;
        let text = "a first line long enough to wrap twice in a narrow box\n\nshort\nthe last line, also long enough to wrap";
        let mut keys = vec![];
        for c in " and more words".chars() {
            keys.push(input(KeyCode::Char(c), none));
        }
        for (code, m) in [
            (KeyCode::Char('a'), KeyModifiers::CONTROL),
            (KeyCode::Char('<'), KeyModifiers::ALT),
            (KeyCode::End, none),
            (KeyCode::Char('x'), none),
            (KeyCode::Left, KeyModifiers::CONTROL),
            (KeyCode::Left, KeyModifiers::SHIFT),
            (KeyCode::Left, KeyModifiers::SHIFT),
            (KeyCode::Char('w'), KeyModifiers::CONTROL),
            (KeyCode::Enter, none),
            (KeyCode::Char('>'), KeyModifiers::ALT),
            (KeyCode::Char('y'), KeyModifiers::CONTROL),
            (KeyCode::Backspace, none),
            (KeyCode::Char('u'), KeyModifiers::CONTROL),
        ] {
            keys.push(input(code, m));
        }
        let mut editor = Editor::new(text);
        let mut drawn = Drawn::default();
        for n in 1..=keys.len() {
            editor.input(keys[n - 1].0);
            let ours = screen(&editor, &mut drawn, 16, 5);
            let inputs: Vec<Input> = keys[..n].iter().map(|k| k.1.clone()).collect();
            assert_eq!(ours, textarea_screen(text, &inputs, 16, 5), "after {:?}", keys[n - 1].0);
        }
    }
}
