//! Whether a new message notifies, and how, by what the user set in Zulip — as the web app
//! decides (`message_notifications.ts`): desktop notifications for direct messages and mentions by
//! `enable_desktop_notifications`, `@all`-style mentions also by `wildcard_mentions_notify` (the
//! channel's own where it has one), followed topics by `enable_followed_topic_desktop_notifications`,
//! every message of a channel whose `desktop_notifications` is on (`null`: the user's
//! `enable_stream_desktop_notifications`); sounds (the terminal's bell) by `enable_sounds`, the
//! followed-topic and channel audible settings the same way. The local config may override the
//! kinds it names (`[notifications] dm`, `mention`, `followed`) where the user wrote them. A
//! setting the server did not send (an older server) keeps the client's old behaviour: direct
//! messages, mentions, alert words and followed topics notify, no sound.
//!
//! A leaf: what it needs is given (`outside::notify` gathers it); muted topics, channels and
//! people, and the user's own messages, are ruled out before it is asked.

use super::burst::Reason;
use super::settings::Notifications;
use crate::api::UserSettings;

/// What is known of a message for its notification.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Facts {
    pub direct: bool,
    /// The user mentioned by name or by a group of theirs.
    pub mentioned: bool,
    /// An `@all`-style mention (channel or topic wide).
    pub wildcard: bool,
    pub alert_word: bool,
    pub followed: bool,
    /// The user's subscription to the message's channel, with its own settings (`None`: not
    /// subscribed — only mentions, alert words and followed topics notify there).
    pub channel: Option<ChannelAlerts>,
}

/// A subscription's own notification settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChannelAlerts {
    pub desktop: Option<bool>,
    pub audible: Option<bool>,
    pub wildcard_mentions_notify: Option<bool>,
}

/// How a message notifies: why (the first that holds), a desktop notification, a sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alert {
    pub reason: Reason,
    pub desktop: bool,
    pub audible: bool,
}

/// Whether the message notifies, and how; `None`: not at all.
pub fn decide(f: &Facts, s: &UserSettings, local: &Notifications) -> Option<Alert> {
    // The server's settings, each with the old behaviour where the server has none.
    let desktop = s.enable_desktop_notifications.unwrap_or(true);
    let sounds = s.enable_sounds.unwrap_or(false);
    let followed_desktop = s.enable_followed_topic_desktop_notifications.unwrap_or(true);
    let followed_audible = s.enable_followed_topic_audible_notifications.unwrap_or(false);
    let wildcard_notifies =
        f.channel.and_then(|c| c.wildcard_mentions_notify).or(s.wildcard_mentions_notify).unwrap_or(true);
    let followed_wildcard = s.enable_followed_topic_wildcard_mentions_notify.unwrap_or(false);
    // The local overrides: `false` silences the kind, `true` shows it whatever the server says.
    let over = |o: Option<bool>, server: bool| o.unwrap_or(server);
    let silenced = |o: Option<bool>| o == Some(false);
    let mut kinds: Vec<(Reason, bool, bool)> = Vec::new();
    if f.direct {
        if !silenced(local.dm) {
            kinds.push((Reason::Direct, over(local.dm, desktop), sounds));
        }
    } else {
        let personal = f.mentioned || (f.wildcard && wildcard_notifies);
        if personal && !silenced(local.mention) {
            kinds.push((Reason::Mention, over(local.mention, desktop), sounds));
        }
        if f.alert_word && !silenced(local.mention) {
            kinds.push((Reason::AlertWord, over(local.mention, desktop), sounds));
        }
        if f.followed && !silenced(local.followed) {
            kinds.push((Reason::Followed, over(local.followed, followed_desktop), followed_audible));
            // `@all` in a followed topic, by its own setting.
            if f.wildcard && followed_wildcard {
                kinds.push((Reason::Mention, followed_desktop, followed_audible));
            }
        }
        if let Some(channel) = f.channel {
            let desktop = channel.desktop.or(s.enable_stream_desktop_notifications).unwrap_or(false);
            let audible = channel.audible.or(s.enable_stream_audible_notifications).unwrap_or(false);
            kinds.push((Reason::Channel, desktop, audible));
        }
    }
    let desktop = kinds.iter().any(|k| k.1);
    let audible = kinds.iter().any(|k| k.2);
    let reason = kinds.iter().find(|k| k.1 || k.2)?.0;
    Some(Alert { reason, desktop, audible })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zulip_defaults() -> UserSettings {
        UserSettings {
            enable_desktop_notifications: Some(true),
            enable_sounds: Some(true),
            enable_followed_topic_desktop_notifications: Some(true),
            enable_followed_topic_audible_notifications: Some(true),
            enable_stream_desktop_notifications: Some(false),
            enable_stream_audible_notifications: Some(false),
            wildcard_mentions_notify: Some(true),
            enable_followed_topic_wildcard_mentions_notify: Some(true),
            ..Default::default()
        }
    }

    fn alert(reason: Reason, desktop: bool, audible: bool) -> Option<Alert> {
        Some(Alert { reason, desktop, audible })
    }

    #[test]
    fn without_server_settings_the_old_behaviour_stays() {
        let none = UserSettings::default();
        let local = Notifications::default();
        let dm = Facts { direct: true, ..Default::default() };
        assert_eq!(decide(&dm, &none, &local), alert(Reason::Direct, true, false));
        let plain = Facts::default();
        assert_eq!(decide(&plain, &none, &local), None, "an ordinary channel message");
        let word = Facts { alert_word: true, ..Default::default() };
        assert_eq!(decide(&word, &none, &local), alert(Reason::AlertWord, true, false));
        let followed = Facts { followed: true, ..Default::default() };
        assert_eq!(decide(&followed, &none, &local), alert(Reason::Followed, true, false));
    }

    #[test]
    fn the_users_zulip_settings_decide_and_a_written_override_wins() {
        let mut s = zulip_defaults();
        let local = Notifications::default();
        let dm = Facts { direct: true, ..Default::default() };
        assert_eq!(decide(&dm, &s, &local), alert(Reason::Direct, true, true));
        s.enable_desktop_notifications = Some(false);
        assert_eq!(decide(&dm, &s, &local), alert(Reason::Direct, false, true), "the sound stays");
        s.enable_sounds = Some(false);
        assert_eq!(decide(&dm, &s, &local), None);
        let forced = Notifications { dm: Some(true), ..Default::default() };
        assert_eq!(decide(&dm, &s, &forced), alert(Reason::Direct, true, false));
        let silenced = Notifications { dm: Some(false), ..Default::default() };
        assert_eq!(decide(&dm, &zulip_defaults(), &silenced), None);

        // A channel of every message: its own setting, else the user's default.
        let s = zulip_defaults();
        let on = ChannelAlerts { desktop: Some(true), ..Default::default() };
        let msg = Facts { channel: Some(on), ..Default::default() };
        assert_eq!(decide(&msg, &s, &local), alert(Reason::Channel, true, false));
        let mut all = zulip_defaults();
        all.enable_stream_audible_notifications = Some(true);
        let subscribed = Facts { channel: Some(ChannelAlerts::default()), ..Default::default() };
        assert_eq!(decide(&subscribed, &all, &local), alert(Reason::Channel, false, true));
        assert_eq!(decide(&Facts::default(), &all, &local), None, "not subscribed");
        let off = ChannelAlerts { audible: Some(false), ..Default::default() };
        assert_eq!(decide(&Facts { channel: Some(off), ..Default::default() }, &all, &local), None);

        // `@all`: by the channel's own wildcard setting, else the user's.
        let wild = Facts { wildcard: true, ..Default::default() };
        assert_eq!(decide(&wild, &s, &local), alert(Reason::Mention, true, true));
        let quiet = ChannelAlerts { wildcard_mentions_notify: Some(false), ..Default::default() };
        assert_eq!(decide(&Facts { channel: Some(quiet), ..wild }, &s, &local), None);
        let mut s2 = zulip_defaults();
        s2.wildcard_mentions_notify = Some(false);
        assert_eq!(decide(&wild, &s2, &local), None);
        let in_followed = Facts { followed: true, ..wild };
        s2.enable_followed_topic_desktop_notifications = Some(false);
        s2.enable_followed_topic_audible_notifications = Some(false);
        assert_eq!(decide(&in_followed, &s2, &local), None);
    }
}
