//! "When" for scheduled messages and reminders: `in 2h`, `in 1h30m`, `tomorrow 9:00`, `17:30`, or ISO 8601;
//! and the time zone times are read and shown in.

use chrono::{DateTime, Duration, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone as _};

/// How times are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeZone {
    /// The system's local time zone.
    #[default]
    Local,
    /// A fixed offset from UTC in seconds (tests; users who want UTC).
    Fixed(i32),
    /// An IANA time zone, the one the user set in Zulip (`timezone`): its offset at each time
    /// (summer time included). Made by [`TimeZone::named`].
    Named(ZoneId),
}

/// A named time zone kept in [`ZONES`] (so [`TimeZone`] stays `Copy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneId(u16);

/// The named time zones met, each once: at most [`MAX_ZONES`] (the time zone database has
/// fewer), so a server sending names without end costs nothing more.
static ZONES: std::sync::Mutex<Vec<(String, jiff::tz::TimeZone)>> = std::sync::Mutex::new(Vec::new());
const MAX_ZONES: usize = 1024;

impl TimeZone {
    /// The IANA time zone `name` (`Europe/Stockholm`), when the time zone database knows it.
    pub fn named(name: &str) -> Option<TimeZone> {
        let zone = jiff::tz::TimeZone::get(name).ok()?;
        let mut zones = ZONES.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = zones.iter().position(|(n, _)| n == name) {
            return Some(TimeZone::Named(ZoneId(i as u16)));
        }
        if zones.len() >= MAX_ZONES {
            return None;
        }
        zones.push((name.to_owned(), zone));
        Some(TimeZone::Named(ZoneId((zones.len() - 1) as u16)))
    }

    /// A named zone's offset from UTC at `ts`, in seconds.
    fn named_offset(id: ZoneId, ts: i64) -> Option<i32> {
        let zone = ZONES.lock().unwrap_or_else(|e| e.into_inner()).get(usize::from(id.0))?.1.clone();
        Some(zone.to_offset(jiff::Timestamp::from_second(ts).ok()?).seconds())
    }

    /// Format a UNIX time with a chrono format string.
    pub fn format(self, ts: i64, fmt: &str) -> String {
        let fixed = |off: i32| {
            chrono::FixedOffset::east_opt(off)
                .and_then(|z| z.timestamp_opt(ts, 0).single())
                .map(|t| t.format(fmt).to_string())
        };
        let out = match self {
            TimeZone::Local => chrono::Local.timestamp_opt(ts, 0).single().map(|t| t.format(fmt).to_string()),
            TimeZone::Fixed(off) => fixed(off),
            TimeZone::Named(id) => Self::named_offset(id, ts).and_then(fixed),
        };
        out.unwrap_or_else(|| "?".into())
    }
}

fn offset(tz: TimeZone, now: i64) -> FixedOffset {
    match tz {
        TimeZone::Fixed(s) => {
            FixedOffset::east_opt(s).unwrap_or(FixedOffset::east_opt(0).expect("zero offset"))
        }
        TimeZone::Named(id) => TimeZone::named_offset(id, now)
            .and_then(FixedOffset::east_opt)
            .unwrap_or(FixedOffset::east_opt(0).expect("zero offset")),
        TimeZone::Local => chrono::Local
            .timestamp_opt(now, 0)
            .single()
            .map(|t| *t.offset())
            .unwrap_or(FixedOffset::east_opt(0).expect("zero offset")),
    }
}

/// A duration: `2h`, `1h30m`, `1d`, or in words — `2 hours`, `90 minutes`, `1 day 2 hours`,
/// `1 week` (what the scheduler's help shows, and what people type).
fn parse_duration(s: &str) -> Option<i64> {
    // Digits and letters apart: "1h30m" reads as "1 h 30 m".
    let mut spaced = String::new();
    let mut last_digit = None;
    for c in s.chars() {
        let digit = c.is_ascii_digit();
        if last_digit.is_some_and(|d| d != digit) && !c.is_whitespace() {
            spaced.push(' ');
        }
        spaced.push(c);
        last_digit = if c.is_whitespace() { None } else { Some(digit) };
    }
    let words: Vec<&str> = spaced.split_whitespace().collect();
    if words.is_empty() || !words.len().is_multiple_of(2) {
        return None;
    }
    let mut total = 0i64;
    for pair in words.chunks(2) {
        let n: i64 = pair[0].parse().ok()?;
        let unit = match pair[1].trim_end_matches(',') {
            "w" | "week" | "weeks" => 7 * 86400,
            "d" | "day" | "days" => 86400,
            "h" | "hr" | "hrs" | "hour" | "hours" => 3600,
            "m" | "min" | "mins" | "minute" | "minutes" => 60,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    Some(total)
}

fn parse_clock(s: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(s, "%H:%M").ok().or_else(|| NaiveTime::parse_from_str(s, "%H:%M:%S").ok())
}

/// The UNIX time a phrase means, which must be in the future.
pub fn parse_when(input: &str, now: i64, tz: TimeZone) -> Result<i64, String> {
    let ts = read_when(input, now, tz).ok_or_else(|| {
        format!(
            "cannot read {input:?} as a time; try `in 2h`, `tomorrow 9:00`, `17:30` or `2026-11-25 15:00`"
        )
    })?;
    if ts <= now {
        return Err(format!("{input:?} is in the past"));
    }
    Ok(ts)
}

/// A time at the start of `words`, and the words after it: the longest run of leading words
/// that reads as a time (`tomorrow 9:00 call Bob` is tomorrow at 09:00, then `call Bob`), which
/// must be in the future.
pub fn split_when(words: &[String], now: i64, tz: TimeZone) -> Result<(i64, Vec<String>), String> {
    // No phrase of the syntax takes more than five words (`in 1 hour 30 minutes`).
    let longest = words.len().min(5);
    for n in (1..=longest).rev() {
        let phrase = words[..n].join(" ");
        if read_when(&phrase, now, tz).is_some() {
            return parse_when(&phrase, now, tz).map(|ts| (ts, words[n..].to_vec()));
        }
    }
    parse_when(&words.join(" "), now, tz).map(|ts| (ts, Vec::new()))
}

/// The UNIX time a phrase means, past or not; `None` when it is not a time.
fn read_when(input: &str, now: i64, tz: TimeZone) -> Option<i64> {
    let s = input.trim().to_lowercase();
    let off = offset(tz, now);
    let local_now = off.timestamp_opt(now, 0).single()?;
    let at = |date: NaiveDate, time: NaiveTime| -> Option<i64> {
        off.from_local_datetime(&date.and_time(time)).single().map(|t| t.timestamp())
    };
    let nine = NaiveTime::from_hms_opt(9, 0, 0).expect("09:00");
    if let Some(rest) = s.strip_prefix("in ") {
        parse_duration(rest).map(|d| now + d)
    } else if let Some(d) = parse_duration(&s) {
        // `2 hours`, `90 minutes`: from now, as with `in`.
        Some(now + d)
    } else if let Some(rest) = s.strip_prefix("tomorrow") {
        let time = if rest.trim().is_empty() { Some(nine) } else { parse_clock(rest.trim()) };
        time.and_then(|t| at(local_now.date_naive() + Duration::days(1), t))
    } else if let Some(rest) = s.strip_prefix("today") {
        parse_clock(rest.trim()).and_then(|t| at(local_now.date_naive(), t))
    } else if let Some(t) = parse_clock(&s) {
        // A bare time: today, or tomorrow if it has passed.
        at(local_now.date_naive(), t).map(|ts| if ts <= now { ts + 86400 } else { ts })
    } else if let Ok(dt) = DateTime::parse_from_rfc3339(&input.trim().replace(' ', "T")) {
        Some(dt.timestamp())
    } else {
        let raw = input.trim().replace('T', " ");
        NaiveDateTime::parse_from_str(&raw, "%Y-%m-%d %H:%M")
            .or_else(|_| NaiveDateTime::parse_from_str(&raw, "%Y-%m-%d %H:%M:%S"))
            .ok()
            .and_then(|dt| off.from_local_datetime(&dt).single())
            .map(|t| t.timestamp())
            .or_else(|| NaiveDate::parse_from_str(&raw, "%Y-%m-%d").ok().and_then(|d| at(d, nine)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Saturday 2026-11-21 12:00 UTC.
    const NOW: i64 = 1_795_262_400;

    #[test]
    fn relative_and_clock_times() {
        let utc = TimeZone::Fixed(0);
        assert_eq!(parse_when("in 2h", NOW, utc), Ok(NOW + 7200));
        assert_eq!(parse_when("in 1h30m", NOW, utc), Ok(NOW + 5400));
        assert_eq!(parse_when("in 1d", NOW, utc), Ok(NOW + 86400));
        // In words, with or without `in` (issue 40: `:remind in 2 hours` was refused).
        assert_eq!(parse_when("in 2 hours", NOW, utc), Ok(NOW + 7200));
        assert_eq!(parse_when("2 hours", NOW, utc), Ok(NOW + 7200));
        assert_eq!(parse_when("90 minutes", NOW, utc), Ok(NOW + 5400));
        assert_eq!(parse_when("in 1 hour 30 minutes", NOW, utc), Ok(NOW + 5400));
        assert_eq!(parse_when("in 1 week", NOW, utc), Ok(NOW + 7 * 86400));
        assert!(parse_when("in 2 fortnights", NOW, utc).is_err());
        let words: Vec<String> = "in 2 hours call Bob".split(' ').map(str::to_owned).collect();
        assert_eq!(split_when(&words, NOW, utc), Ok((NOW + 7200, vec!["call".to_owned(), "Bob".to_owned()])));
        assert_eq!(parse_when("tomorrow 9:00", NOW, utc), Ok(NOW + 21 * 3600));
        assert_eq!(parse_when("tomorrow", NOW, utc), Ok(NOW + 21 * 3600));
        assert_eq!(parse_when("17:30", NOW, utc), Ok(NOW + 5 * 3600 + 1800));
        assert_eq!(parse_when("08:00", NOW, utc), Ok(NOW + 20 * 3600), "passed today: tomorrow");
        assert_eq!(parse_when("today 13:00", NOW, utc), Ok(NOW + 3600));
    }

    #[test]
    fn iso_8601_and_zones() {
        let utc = TimeZone::Fixed(0);
        assert_eq!(parse_when("2026-11-25T15:00:00Z", NOW, utc), Ok(NOW + 4 * 86400 + 3 * 3600));
        assert_eq!(parse_when("2026-11-25 15:00", NOW, utc), Ok(NOW + 4 * 86400 + 3 * 3600));
        let cet = TimeZone::Fixed(3600);
        assert_eq!(parse_when("2026-11-25 15:00", NOW, cet), Ok(NOW + 4 * 86400 + 2 * 3600), "local time");
        assert_eq!(parse_when("2026-11-25T15:00:00+01:00", NOW, utc), Ok(NOW + 4 * 86400 + 2 * 3600));
    }

    #[test]
    fn past_and_nonsense_are_explained() {
        let utc = TimeZone::Fixed(0);
        assert!(parse_when("2020-01-01 10:00", NOW, utc).unwrap_err().contains("past"));
        assert!(parse_when("today 9:00", NOW, utc).unwrap_err().contains("past"));
        assert!(parse_when("whenever", NOW, utc).unwrap_err().contains("try"));
        assert!(parse_when("in 2 fortnights", NOW, utc).is_err());
    }

    #[test]
    fn a_time_then_a_note() {
        let utc = TimeZone::Fixed(0);
        let w = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let note = |v: Vec<String>| v.join(" ");
        let split = |s: &str| split_when(&w(s), NOW, utc).map(|(ts, rest)| (ts, note(rest)));
        assert_eq!(split("tomorrow 9:00 call Bob"), Ok((NOW + 21 * 3600, "call Bob".into())));
        assert_eq!(split("tomorrow standup"), Ok((NOW + 21 * 3600, "standup".into())));
        assert_eq!(split("in 1h 30m"), Ok((NOW + 5400, String::new())));
        assert_eq!(split("in 2h before the call"), Ok((NOW + 7200, "before the call".into())));
        assert_eq!(split("2026-11-25 15:00 ship it"), Ok((NOW + 4 * 86400 + 3 * 3600, "ship it".into())));
        assert_eq!(split("17:30"), Ok((NOW + 5 * 3600 + 1800, String::new())));
        assert_eq!(split("2020-01-01 10:00 old").unwrap_err(), "\"2020-01-01 10:00\" is in the past");
        assert!(
            split("soonish call Bob").unwrap_err().starts_with("cannot read \"soonish call Bob\" as a time")
        );
    }

    #[test]
    fn a_named_zone_shows_its_offset_at_each_time_and_an_unknown_name_is_none() {
        // 2026-11-21 12:00 UTC and 2026-07-01 12:00 UTC.
        let (winter, summer) = (1_795_262_400, 1_782_907_200);
        let sthlm = TimeZone::named("Europe/Stockholm").expect("known");
        assert_eq!(sthlm.format(winter, "%H:%M"), "13:00");
        assert_eq!(sthlm.format(summer, "%H:%M"), "14:00");
        assert_eq!(TimeZone::named("Europe/Stockholm"), Some(sthlm), "kept once");
        assert_eq!(TimeZone::named("Mars/Olympus_Mons"), None);
        assert_eq!(TimeZone::named(""), None);
    }
}
