//! Message flags: what the server says of a message for the requesting user (`read`,
//! `starred`, `mentioned`, …), as a type rather than a string, so a client compares variants.
//! Decoded from and encoded to the server's names; a name this crate does not know is kept as
//! [`Flag::Other`] (and sent back as it came), never dropped.

use serde::{Deserialize, Serialize};

/// A message flag (`UserMessage.ALL_FLAGS` of the server, with the deprecated and computed ones).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(from = "String", into = "String")]
pub enum Flag {
    Read,
    Starred,
    Collapsed,
    /// The user is mentioned by name.
    Mentioned,
    /// A wildcard mention (`@**all**`, `@**channel**`) in a channel message (level 224).
    StreamWildcardMentioned,
    /// A `@**topic**` mention (level 224).
    TopicWildcardMentioned,
    /// A wildcard mention, as servers before level 224 name it.
    WildcardMentioned,
    /// A group the user is in is mentioned (computed by some servers).
    GroupMentioned,
    HasAlertWord,
    /// The user was not subscribed when the message was sent.
    Historical,
    IsPrivate,
    ActiveMobilePushNotification,
    SummarizeInHome,
    SummarizeInStream,
    ForceExpand,
    ForceCollapse,
    /// The user hid the message's link previews (level 510).
    HideLinkPreviews,
    /// A flag this crate does not know, by the server's name.
    Other(String),
}

impl Flag {
    /// Every flag this crate knows, in a fixed order (a client may number them by it).
    pub const KNOWN: [Flag; 17] = [
        Flag::Read,
        Flag::Starred,
        Flag::Collapsed,
        Flag::Mentioned,
        Flag::StreamWildcardMentioned,
        Flag::TopicWildcardMentioned,
        Flag::WildcardMentioned,
        Flag::GroupMentioned,
        Flag::HasAlertWord,
        Flag::Historical,
        Flag::IsPrivate,
        Flag::ActiveMobilePushNotification,
        Flag::SummarizeInHome,
        Flag::SummarizeInStream,
        Flag::ForceExpand,
        Flag::ForceCollapse,
        Flag::HideLinkPreviews,
    ];

    /// The flags that say a message mentions the user: by name, or a wildcard in its channel or
    /// topic (`wildcard_mentioned` is the name older servers use).
    pub const MENTIONS: [Flag; 4] = [
        Flag::Mentioned,
        Flag::StreamWildcardMentioned,
        Flag::TopicWildcardMentioned,
        Flag::WildcardMentioned,
    ];

    /// The server's name for it.
    pub fn as_str(&self) -> &str {
        match self {
            Flag::Read => "read",
            Flag::Starred => "starred",
            Flag::Collapsed => "collapsed",
            Flag::Mentioned => "mentioned",
            Flag::StreamWildcardMentioned => "stream_wildcard_mentioned",
            Flag::TopicWildcardMentioned => "topic_wildcard_mentioned",
            Flag::WildcardMentioned => "wildcard_mentioned",
            Flag::GroupMentioned => "group_mentioned",
            Flag::HasAlertWord => "has_alert_word",
            Flag::Historical => "historical",
            Flag::IsPrivate => "is_private",
            Flag::ActiveMobilePushNotification => "active_mobile_push_notification",
            Flag::SummarizeInHome => "summarize_in_home",
            Flag::SummarizeInStream => "summarize_in_stream",
            Flag::ForceExpand => "force_expand",
            Flag::ForceCollapse => "force_collapse",
            Flag::HideLinkPreviews => "hide_link_previews",
            Flag::Other(name) => name,
        }
    }

    /// Its place in [`Flag::KNOWN`]; `None` for one this crate does not know.
    pub fn index(&self) -> Option<usize> {
        Flag::KNOWN.iter().position(|f| f == self)
    }
}

impl From<&str> for Flag {
    fn from(name: &str) -> Flag {
        Flag::KNOWN.into_iter().find(|f| f.as_str() == name).unwrap_or_else(|| Flag::Other(name.to_owned()))
    }
}

impl From<String> for Flag {
    fn from(name: String) -> Flag {
        match Flag::from(name.as_str()) {
            Flag::Other(_) => Flag::Other(name),
            known => known,
        }
    }
}

impl From<Flag> for String {
    fn from(f: Flag) -> String {
        match f {
            Flag::Other(name) => name,
            known => known.as_str().to_owned(),
        }
    }
}

impl std::fmt::Display for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_known_flag_goes_to_its_name_and_back() {
        for (i, f) in Flag::KNOWN.iter().enumerate() {
            assert_eq!(Flag::from(f.as_str()), *f);
            assert_eq!(f.index(), Some(i));
            assert_eq!(serde_json::to_value(f).unwrap(), json!(f.as_str()));
        }
        assert_eq!(Flag::from("has_alert_word"), Flag::HasAlertWord);
        assert_eq!(Flag::Read.to_string(), "read");
    }

    #[test]
    fn an_unknown_flag_is_kept_by_name() {
        let f: Vec<Flag> = serde_json::from_value(json!(["read", "sparkly", "Starred"])).unwrap();
        assert_eq!(f, [Flag::Read, Flag::Other("sparkly".into()), Flag::Other("Starred".into())]);
        assert_eq!(f[1].index(), None);
        assert_eq!(serde_json::to_value(&f).unwrap(), json!(["read", "sparkly", "Starred"]));
    }
}
