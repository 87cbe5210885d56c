//! Global times: `<time:…>` and the values it accepts.

use super::escape::escape_html;
use super::text::is_digits;
use std::fmt::Write as _;

/// Remembers where the last search for a `<time:…>` tag's end stopped, so
/// that many unclosed tags on one line don't make rendering quadratic.
#[derive(Default)]
pub(super) struct ClosingSearch {
    pub(super) from: usize,
    /// The first `>` or newline at or after `from`, if any.
    pub(super) found: Option<usize>,
}

/// `<time:…>` at byte `at`: where it ends and its HTML (Zulip's `<time>`
/// element, or its error span for values it can't parse).
pub(super) fn time_tag(
    source: &str,
    at: usize,
    end: usize,
    search: &mut ClosingSearch,
) -> Option<(usize, String)> {
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
    let html = match parse_time(value) {
        Some(datetime) => format!(r#"<time datetime="{datetime}">{}</time>"#, escape_html(value)),
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
    let days = seconds.div_euclid(86_400);
    let time = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    if !(1..=9999).contains(&year) {
        return None;
    }
    let mut out =
        format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}", time / 3600, time / 60 % 60, time % 60);
    if micros > 0 {
        let _ = write!(out, ".{micros:06}");
    }
    out.push('Z');
    Some(out)
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
    if year == 0 || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
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
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
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

pub(super) fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// algorithm).
pub(super) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
pub(super) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_arithmetic_round_trips() {
        for days in (-800_000..3_000_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
    }
}
