//! The escape and control sequences that must never reach the terminal, as bytes: what is left
//! of a payload once ESC and BEL are gone is harmless visible text, but the sequences themselves
//! must not appear. ratatui's own output uses ESC [ for cursor moves and colours, never these.

pub fn forbidden() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("OSC", b"\x1b]".to_vec()),
        ("clear screen", b"\x1b[2J".to_vec()),
        ("server's colour change", b"\x1b[31mred".to_vec()),
        ("BEL", vec![0x07]),
        ("C1 CSI", "\u{9b}".as_bytes().to_vec()),
        ("RLO", "\u{202e}".as_bytes().to_vec()),
        ("LRI", "\u{2066}".as_bytes().to_vec()),
        ("backspace", vec![0x08]),
        ("DEL", vec![0x7f]),
        ("carriage return", vec![b'\r']),
    ]
}
