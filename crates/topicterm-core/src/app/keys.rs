//! The core's own key types: what a key press is to `app` (the keymap, the editors, the
//! popups' keys), with no terminal library behind it. They have the shape of crossterm's
//! (`KeyEvent { code, modifiers }`, `KeyCode::Char(c)`, `KeyModifiers::CONTROL | ALT`), so
//! code reads as it did; the terminal layer (`run::key_of`) converts crossterm's events into
//! them in one place, and tests build them directly.
//!
//! Owns: the key codes `app` can tell apart (every other terminal key arrives as
//! [`KeyCode::Null`]) and the modifier set. Knows nothing of terminals or key release events
//! (the terminal layer drops releases before converting).

use std::ops::{BitAnd, BitOr, BitOrAssign, Not};

/// A key, without its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCode {
    Backspace,
    Enter,
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
    PageUp,
    PageDown,
    Tab,
    /// Shift+tab, as terminals send it.
    BackTab,
    Delete,
    Insert,
    /// F1–F12 (and beyond, as the terminal sends them).
    F(u8),
    Char(char),
    /// A key `app` has no use for (caps lock, media keys, a lone modifier …).
    Null,
    Esc,
}

/// The modifiers held with a key: a set of bits, as crossterm's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct KeyModifiers(u8);

impl KeyModifiers {
    pub const NONE: KeyModifiers = KeyModifiers(0);
    pub const SHIFT: KeyModifiers = KeyModifiers(1);
    pub const CONTROL: KeyModifiers = KeyModifiers(1 << 1);
    pub const ALT: KeyModifiers = KeyModifiers(1 << 2);
    pub const SUPER: KeyModifiers = KeyModifiers(1 << 3);
    pub const HYPER: KeyModifiers = KeyModifiers(1 << 4);
    pub const META: KeyModifiers = KeyModifiers(1 << 5);

    /// Every modifier of `other` is held.
    pub const fn contains(self, other: KeyModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Any modifier of `other` is held.
    pub const fn intersects(self, other: KeyModifiers) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The modifiers held that `other` does not name.
    pub const fn difference(self, other: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 & !other.0)
    }

    pub fn insert(&mut self, other: KeyModifiers) {
        self.0 |= other.0;
    }

    pub fn remove(&mut self, other: KeyModifiers) {
        self.0 &= !other.0;
    }

    /// The raw bits (SHIFT 1, CONTROL 2, ALT 4, SUPER 8, HYPER 16, META 32: crossterm's).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set of these bits, unknown ones dropped.
    pub const fn from_bits_truncate(bits: u8) -> KeyModifiers {
        KeyModifiers(bits & 0b11_1111)
    }
}

impl std::fmt::Debug for KeyModifiers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NAMES: [&str; 6] = ["SHIFT", "CONTROL", "ALT", "SUPER", "HYPER", "META"];
        let names: Vec<&str> =
            NAMES.iter().enumerate().filter(|(i, _)| self.0 & (1 << i) != 0).map(|(_, n)| *n).collect();
        write!(f, "KeyModifiers({})", if names.is_empty() { "0x0".to_owned() } else { names.join(" | ") })
    }
}

impl BitOr for KeyModifiers {
    type Output = KeyModifiers;
    fn bitor(self, rhs: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 | rhs.0)
    }
}

impl BitOrAssign for KeyModifiers {
    fn bitor_assign(&mut self, rhs: KeyModifiers) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for KeyModifiers {
    type Output = KeyModifiers;
    fn bitand(self, rhs: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 & rhs.0)
    }
}

impl Not for KeyModifiers {
    type Output = KeyModifiers;
    fn not(self) -> KeyModifiers {
        KeyModifiers(!self.0 & 0b11_1111)
    }
}

/// A key pressed (or repeated): its code and the modifiers held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

impl KeyEvent {
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent { code, modifiers }
    }
}

impl From<KeyCode> for KeyEvent {
    fn from(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_combine_as_sets() {
        let m = KeyModifiers::CONTROL | KeyModifiers::ALT;
        assert!(m.contains(KeyModifiers::CONTROL) && m.contains(KeyModifiers::ALT));
        assert!(!m.contains(KeyModifiers::SHIFT | KeyModifiers::ALT));
        assert!(m.intersects(KeyModifiers::SHIFT | KeyModifiers::ALT));
        assert_eq!(m & !KeyModifiers::ALT, KeyModifiers::CONTROL);
        let mut s = KeyModifiers::SHIFT;
        s.remove(KeyModifiers::SHIFT);
        assert!(s.is_empty() && s == KeyModifiers::NONE);
        assert!(KeyModifiers::NONE.contains(KeyModifiers::NONE));
        assert_eq!(format!("{m:?}"), "KeyModifiers(CONTROL | ALT)");
        assert_eq!(KeyEvent::from(KeyCode::Esc), KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    }
}
