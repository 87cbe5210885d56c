//! What the user's Zulip settings (`Data::user_settings`) change at once in the client, at
//! register and after each `user_settings` event: the time zone and the clock times are shown
//! in. (Reading follows them in `read_marking`, the compose box's enter in `compose`.)

use super::prelude::*;
use crate::app::settings::Clock;

/// Times in the user's `timezone` where they set one (else the system's); a fixed zone (the
/// tests', or UTC by choice) stays. The clock by `twenty_four_hour_time` unless the config file
/// gives `time_format`.
pub(super) fn follow(st: &mut State) {
    let s = st.data.user_settings();
    if !matches!(st.tz, TimeZone::Fixed(_)) {
        st.tz = s.timezone.as_deref().and_then(TimeZone::named).unwrap_or(TimeZone::Local);
    }
    if !st.settings.clock_set
        && let Some(h24) = s.twenty_four_hour_time
    {
        st.settings.clock = if h24 { Clock::H24 } else { Clock::H12 };
    }
}
