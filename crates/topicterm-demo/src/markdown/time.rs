//! Global times: `<time:…>` and the values it accepts.

use super::text::is_digits;
use std::fmt::Write as _;
use topicterm_api::markup::escape_html;

/// Remembers where the last search for a `<time:…>` tag's end stopped, so
/// that many unclosed tags on one line don't make rendering quadratic.
#[derive(Default)]
pub(super) struct ClosingSearch {
    pub(super) from: usize,
    /// The first `>` or newline at or after `from`, if any.
    pub(super) found: Option<usize>,
}

/// `<time:…>` at byte `at`, as a server of `level` writes it: where it ends and its HTML
/// (Zulip's `<time>` element; for a value it can't parse, an error span before level 451, the
/// tag as text from 451). From level 503 only ISO 8601 is read.
pub(super) fn time_tag(
    source: &str,
    at: usize,
    end: usize,
    search: &mut ClosingSearch,
    level: i64,
) -> Option<(usize, String)> {
    use crate::levels::{INVALID_TIME_AS_TEXT, TIME_ISO_ONLY};
    const OPEN: &str = "<time:";
    if !source[at..end].starts_with(OPEN) {
        return None;
    }
    let from = at + OPEN.len();
    let stale = from < search.from || search.found.is_some_and(|found| found < from);
    if stale || search.from == 0 {
        search.from = from;
        search.found = source[from..end].find(['>', '\n']).map(|i| from + i);
    }
    let close = search.found.filter(|&i| source.as_bytes()[i] == b'>')?;
    let value = &source[from..close];
    let parsed = if level >= TIME_ISO_ONLY { parse_iso_time(value) } else { parse_time(value) };
    let html = match parsed {
        Some(datetime) => format!(r#"<time datetime="{datetime}">{}</time>"#, escape_html(value)),
        None if level >= INVALID_TIME_AS_TEXT => escape_html(&source[at..close + 1]),
        None => {
            format!(r#"<span class="timestamp-error">Invalid time format: {}</span>"#, escape_html(value))
        }
    };
    Some((close + 1, html))
}

/// Parses a `<time:…>` value for the forms people use (Zulip accepts
/// whatever `dateutil` does): ISO 8601 with an optional offset (UTC when
/// absent) and UNIX timestamps. Returns the UTC `datetime` attribute value.
pub(super) fn parse_time(value: &str) -> Option<String> {
    let value = value.trim();
    let (seconds, micros) = parse_unix_timestamp(value).or_else(|| parse_iso8601(value))?;
    let at = chrono::DateTime::from_timestamp(seconds, 0)?;
    if !(1..=9999).contains(&chrono::Datelike::year(&at)) {
        return None;
    }
    let mut out = at.format("%Y-%m-%dT%H:%M:%S").to_string();
    if micros > 0 {
        let _ = write!(out, ".{micros:06}");
    }
    out.push('Z');
    Some(out)
}

/// A `<time:…>` value as a server from level 503 reads it (Python's `fromisoformat`): ISO 8601
/// only, with `T` or one space between date and time and the offset right after the time; no
/// UNIX timestamps, no `UTC`/`GMT` names.
pub(super) fn parse_iso_time(value: &str) -> Option<String> {
    let value = value.trim();
    let spaces: Vec<usize> = value.match_indices(' ').map(|(i, _)| i).collect();
    let iso = matches!(spaces.as_slice(), [] | [10]);
    if !iso || value.contains("UTC") || value.contains("GMT") || parse_unix_timestamp(value).is_some() {
        return None;
    }
    parse_time(value)
}

/// `1733000000` or `1733000000.5`: seconds and microseconds.
pub(super) fn parse_unix_timestamp(value: &str) -> Option<(i64, u32)> {
    let unsigned = value.strip_prefix('-').unwrap_or(value);
    let (int, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if !is_digits(int) || !(fraction.is_empty() || is_digits(fraction)) || int.len() > 12 {
        return None;
    }
    let value: f64 = value.parse().ok()?;
    let seconds = value.floor();
    let mut micros = ((value - seconds) * 1e6).round() as u32;
    // `seconds` has at most 12 digits, so it fits.
    let mut seconds = seconds as i64;
    if micros >= 1_000_000 {
        seconds += 1;
        micros -= 1_000_000;
    }
    Some((seconds, micros))
}

/// `2026-11-25`, `2026-11-25T15:00`, `2026-11-25 15:00:00.5+01:00`, …:
/// seconds since the epoch and microseconds.
pub(super) fn parse_iso8601(value: &str) -> Option<(i64, u32)> {
    let mut p = Cursor { rest: value };
    let year = p.number(4)?;
    p.expect("-")?;
    let month = p.number(2)?;
    p.expect("-")?;
    let day = p.number(2)?;
    let date = chrono::NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month as u32, day as u32)
        .filter(|_| year != 0)?;
    let (mut hour, mut minute, mut second, mut micros) = (0, 0, 0, 0);
    if p.eat("T") || p.eat("t") || p.eat(" ") {
        hour = p.number(2)?;
        p.expect(":")?;
        minute = p.number(2)?;
        if p.eat(":") {
            second = p.number(2)?;
            if p.eat(".") || p.eat(",") {
                micros = p.fraction()?;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let offset = p.utc_offset()?;
    if !p.rest.is_empty() {
        return None;
    }
    let time = chrono::NaiveTime::from_hms_opt(hour as u32, minute as u32, second as u32)?;
    let seconds = date.and_time(time).and_utc().timestamp() - offset;
    Some((seconds, micros))
}

/// A tiny parser over the rest of a string.
pub(super) struct Cursor<'a> {
    pub(super) rest: &'a str,
}

impl Cursor<'_> {
    pub(super) fn eat(&mut self, s: &str) -> bool {
        match self.rest.strip_prefix(s) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    pub(super) fn expect(&mut self, s: &str) -> Option<()> {
        self.eat(s).then_some(())
    }

    /// Exactly `digits` decimal digits.
    pub(super) fn number(&mut self, digits: usize) -> Option<i64> {
        let field = self.rest.get(..digits).filter(|f| is_digits(f))?;
        self.rest = &self.rest[digits..];
        field.parse().ok()
    }

    /// Fractional-second digits, as microseconds.
    pub(super) fn fraction(&mut self) -> Option<u32> {
        let len = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return None;
        }
        let digits = &self.rest[..len.min(6)];
        self.rest = &self.rest[len..];
        let micros: u32 = digits.parse().ok()?;
        Some(micros * 10u32.pow((6 - digits.len()) as u32))
    }

    /// An optional `Z`, `UTC`, `GMT`, `±HH`, `±HHMM` or `±HH:MM` (after
    /// optional spaces), in seconds east of UTC.
    pub(super) fn utc_offset(&mut self) -> Option<i64> {
        self.rest = self.rest.trim_start_matches(' ');
        if self.rest.is_empty() || self.eat("Z") || self.eat("z") || self.eat("UTC") || self.eat("GMT") {
            return Some(0);
        }
        let sign = if self.eat("+") {
            1
        } else {
            self.expect("-")?;
            -1
        };
        let hours = self.number(2)?;
        self.eat(":");
        let minutes = if self.rest.is_empty() { 0 } else { self.number(2)? };
        (hours <= 23 && minutes <= 59).then_some(sign * (hours * 3600 + minutes * 60))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_read_as_zulip_reads_them() {
        assert_eq!(parse_time("0").as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(parse_time("1795262400.5").as_deref(), Some("2026-11-21T12:00:00.500000Z"));
        assert_eq!(parse_time("2024-02-29T23:30+01:00").as_deref(), Some("2024-02-29T22:30:00Z"));
        assert_eq!(parse_time("2000-03-01 00:00:00,25 UTC").as_deref(), Some("2000-03-01T00:00:00.250000Z"));
        assert_eq!(parse_time("2023-02-29"), None, "not a leap year");
        assert_eq!(parse_time("0000-01-01"), None);
        assert_eq!(parse_time("2024-13-01"), None);
        assert_eq!(parse_time("2024-01-01T24:00"), None);
    }

    #[test]
    fn from_503_only_iso_8601() {
        assert_eq!(parse_iso_time("2026-11-25T10:00-05:00").as_deref(), Some("2026-11-25T15:00:00Z"));
        assert_eq!(parse_iso_time("2026-11-25 15:00").as_deref(), Some("2026-11-25T15:00:00Z"));
        assert_eq!(parse_iso_time("2026-11-25").as_deref(), Some("2026-11-25T00:00:00Z"));
        assert_eq!(parse_iso_time("1733000000"), None);
        assert_eq!(parse_iso_time("2000-03-01 00:00:00 UTC"), None);
        assert_eq!(parse_iso_time("2026-11-25T15:00 +01:00"), None);
    }
}
