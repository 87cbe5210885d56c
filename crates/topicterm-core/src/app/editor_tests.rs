//! The compose editor alone: each key of its table, the history and the text's guarantee.

use super::*;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn alt(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::ALT)
}

fn shift(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::SHIFT)
}

fn typed(e: &mut Editor, text: &str) {
    for c in text.chars() {
        e.input(key(KeyCode::Char(c)));
    }
}

#[test]
fn a_trailing_newline_leaves_the_cursor_on_a_fresh_line() {
    let e = Editor::new("quote\n");
    assert_eq!(e.lines(), ["quote", ""]);
    assert_eq!(e.cursor(), (1, 0));
    assert_eq!(e.text(), "quote\n");
    let mut e = Editor::new("a\r\nb");
    assert_eq!(e.text(), "a\nb");
    e.insert_str("c");
    e.delete_char();
    e.insert_str("d");
    assert_eq!(e.text(), "a\nbd");
    assert_eq!(Editor::new("").lines(), [""]);
}

#[test]
fn what_must_never_reach_the_terminal_never_enters_the_text() {
    let mut e = Editor::new("a\u{202e}b\u{1b}[2J\tc\nd\u{2067}");
    assert_eq!(e.text(), "ab[2J\tc\nd");
    e.insert_str("\u{202e}x\ny\u{7}");
    assert_eq!(e.text(), "ab[2J\tc\ndx\ny");
    e.input(key(KeyCode::Char('\u{202e}')));
    e.input(KeyEvent::new(KeyCode::Char('\u{1b}'), KeyModifiers::ALT));
    assert_eq!(e.text(), "ab[2J\tc\ndx\ny");
}

#[test]
fn characters_enter_backspace_and_delete_edit_at_the_cursor() {
    let mut e = Editor::new("");
    typed(&mut e, "héllo");
    e.input(key(KeyCode::Left));
    e.input(key(KeyCode::Left));
    e.input(key(KeyCode::Enter));
    assert_eq!(e.lines(), ["hél", "lo"]);
    assert_eq!(e.cursor(), (1, 0));
    e.input(key(KeyCode::Backspace));
    assert_eq!((e.text().as_str(), e.cursor()), ("héllo", (0, 3)));
    e.input(key(KeyCode::Delete));
    e.input(ctrl('d'));
    assert_eq!(e.text(), "hél");
    e.input(ctrl('m'));
    e.input(ctrl('h'));
    e.input(ctrl('h'));
    assert_eq!((e.text().as_str(), e.cursor()), ("hé", (0, 2)));
    // Alt+enter, shift+enter: a new line too (the keymap turns what sends first).
    e.input(alt(KeyCode::Enter));
    assert_eq!(e.lines(), ["hé", ""]);
}

#[test]
fn moves_stay_inside_the_text() {
    let mut e = Editor::new("one\nlonger line\nx");
    e.input(key(KeyCode::Up));
    assert_eq!(e.cursor(), (1, 1));
    e.input(key(KeyCode::End));
    e.input(key(KeyCode::Up));
    assert_eq!(e.cursor(), (0, 3), "the column is kept inside the shorter line");
    e.input(key(KeyCode::Up));
    assert_eq!(e.cursor(), (0, 3));
    e.input(key(KeyCode::Right));
    assert_eq!(e.cursor(), (1, 0), "right at a line's end goes to the next");
    e.input(key(KeyCode::Left));
    assert_eq!(e.cursor(), (0, 3));
    e.input(ctrl('a'));
    assert_eq!(e.cursor(), (0, 0));
    e.input(ctrl('e'));
    assert_eq!(e.cursor(), (0, 3));
    e.input(ctrl('n'));
    e.input(ctrl('b'));
    e.input(ctrl('f'));
    assert_eq!(e.cursor(), (1, 3));
    e.input(alt(KeyCode::Char('>')));
    assert_eq!(e.cursor(), (2, 1));
    e.input(alt(KeyCode::Char('<')));
    assert_eq!(e.cursor(), (0, 1));
    e.input(key(KeyCode::Home));
    e.input(key(KeyCode::Down));
    e.input(key(KeyCode::Down));
    e.input(key(KeyCode::Down));
    assert_eq!(e.cursor(), (2, 0));
}

#[test]
fn words_move_and_delete_as_ratatui_textarea_found_them() {
    let mut e = Editor::new("foo.bar  baz_qux");
    e.input(alt(KeyCode::Char('b')));
    assert_eq!(e.cursor(), (0, 9));
    e.input(KeyEvent::new(KeyCode::Left, KeyModifiers::CONTROL));
    assert_eq!(e.cursor(), (0, 4));
    e.input(KeyEvent::new(KeyCode::Left, KeyModifiers::CONTROL));
    assert_eq!(e.cursor(), (0, 3));
    e.input(alt(KeyCode::Char('f')));
    assert_eq!(e.cursor(), (0, 4));
    e.input(KeyEvent::new(KeyCode::Right, KeyModifiers::CONTROL));
    assert_eq!(e.cursor(), (0, 9));
    e.input(key(KeyCode::End));
    e.input(ctrl('w'));
    assert_eq!(e.text(), "foo.bar  ");
    e.input(alt(KeyCode::Backspace));
    assert_eq!(e.text(), "foo.");
    e.input(ctrl('a'));
    e.input(alt(KeyCode::Char('d')));
    assert_eq!(e.text(), ".");
    e.input(alt(KeyCode::Delete));
    assert_eq!(e.text(), "");
}

#[test]
fn ctrl_k_and_ctrl_j_cut_to_the_line_ends_and_ctrl_y_pastes() {
    let mut e = Editor::new("hello world\nnext");
    e.input(alt(KeyCode::Char('<')));
    e.input(alt(KeyCode::Char('f')));
    e.input(ctrl('k'));
    assert_eq!(e.lines(), ["hello ", "next"]);
    e.input(ctrl('k'));
    assert_eq!(e.lines(), ["hello next"], "at a line's end, the line break goes");
    e.input(ctrl('y'));
    assert_eq!(e.lines(), ["hello worldnext"]);
    e.input(ctrl('j'));
    assert_eq!((e.text().as_str(), e.cursor()), ("next", (0, 0)));
    e.input(key(KeyCode::End));
    e.input(ctrl('y'));
    assert_eq!(e.text(), "nexthello world");
}

#[test]
fn undo_and_redo_step_through_each_edit() {
    let mut e = Editor::new("ab");
    typed(&mut e, "c");
    e.input(key(KeyCode::Enter));
    typed(&mut e, "d");
    assert_eq!(e.text(), "abc\nd");
    e.input(ctrl('u'));
    assert_eq!((e.text().as_str(), e.cursor()), ("abc\n", (1, 0)));
    e.input(ctrl('u'));
    e.input(ctrl('u'));
    assert_eq!((e.text().as_str(), e.cursor()), ("ab", (0, 2)));
    e.input(ctrl('u'));
    assert_eq!(e.text(), "ab", "nothing before the box opened");
    e.input(ctrl('r'));
    e.input(ctrl('r'));
    assert_eq!((e.text().as_str(), e.cursor()), ("abc\n", (1, 0)));
    typed(&mut e, "x");
    e.input(ctrl('r'));
    assert_eq!(e.text(), "abc\nx", "an edit ends what could be redone");
    // ctrl+k's undo puts the cursor where the cut text ended, as ratatui-textarea's did.
    let mut e = Editor::new("hello");
    e.input(ctrl('a'));
    e.input(ctrl('k'));
    e.input(ctrl('u'));
    assert_eq!((e.text().as_str(), e.cursor()), ("hello", (0, 5)));
    let mut e = Editor::new("");
    for _ in 0..60 {
        typed(&mut e, "a");
    }
    for _ in 0..60 {
        e.input(ctrl('u'));
    }
    assert_eq!(e.text().len(), 10, "fifty steps are kept");
}

#[test]
fn shift_moves_select_and_ctrl_x_c_y_cut_copy_and_paste() {
    let mut e = Editor::new("one two\nthree");
    e.input(alt(KeyCode::Char('<')));
    e.input(ctrl('a'));
    e.input(shift(KeyCode::Right));
    e.input(shift(KeyCode::Right));
    e.input(shift(KeyCode::Right));
    assert_eq!(e.selection(), Some((0, 0)));
    e.input(ctrl('c'));
    assert_eq!(e.selection(), None);
    e.input(key(KeyCode::End));
    e.input(ctrl('y'));
    assert_eq!(e.lines(), ["one twoone", "three"]);
    e.input(shift(KeyCode::Down));
    e.input(ctrl('x'));
    assert_eq!(e.lines(), ["one twoone"]);
    e.input(ctrl('a'));
    e.input(ctrl('y'));
    assert_eq!(e.lines(), ["", "threeone twoone"]);
    // Typing over a selection replaces it; a move without shift ends it.
    e.input(shift(KeyCode::Home));
    typed(&mut e, "Z");
    assert_eq!(e.lines(), ["", "Zone twoone"]);
    e.input(shift(KeyCode::Left));
    e.input(key(KeyCode::Left));
    assert_eq!(e.selection(), None);
    // Shift+letters are letters.
    assert_eq!(e.cursor(), (0, 0), "left from a line's start goes to the line above");
    e.input(shift(KeyCode::Char('Q')));
    assert_eq!(e.lines(), ["Q", "Zone twoone"]);
}

#[test]
fn tab_inserts_spaces_to_the_next_stop_and_pages_move_a_box_height() {
    let mut e = Editor::new("ab");
    e.input(key(KeyCode::Tab));
    assert_eq!(e.text(), "ab  ");
    e.input(key(KeyCode::BackTab));
    assert_eq!(e.text(), "ab      ");
    let mut e = Editor::new(&"x\n".repeat(20));
    e.shown_rows(5);
    e.input(key(KeyCode::PageUp));
    assert_eq!(e.cursor(), (15, 0));
    e.input(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::ALT));
    assert_eq!(e.cursor(), (10, 0));
    e.input(ctrl('v'));
    e.input(key(KeyCode::PageDown));
    assert_eq!(e.cursor(), (20, 0));
}

#[test]
fn paragraphs_are_runs_of_lines_between_empty_ones() {
    let mut e = Editor::new("a\nb\n\nc\nd\n\ne");
    e.input(alt(KeyCode::Char('<')));
    e.input(ctrl('a'));
    e.input(KeyEvent::new(KeyCode::Down, KeyModifiers::CONTROL));
    assert_eq!(e.cursor(), (3, 0));
    e.input(alt(KeyCode::Char(']')));
    assert_eq!(e.cursor(), (6, 0));
    e.input(alt(KeyCode::Char('[')));
    assert_eq!(e.cursor(), (3, 0));
    e.input(KeyEvent::new(KeyCode::Up, KeyModifiers::CONTROL));
    assert_eq!(e.cursor(), (0, 0));
}

#[test]
fn clones_are_the_same_box_and_each_new_one_is_another() {
    let a = Editor::new("x");
    assert_eq!(a.clone().id(), a.id());
    assert_ne!(Editor::new("x").id(), a.id());
}
