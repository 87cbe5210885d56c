//! The palette's parsing, command by command.

use super::*;

#[test]
fn parses_every_command_shape() {
    assert_eq!(parse("status In a meeting", 496), Ok(Command::Status(Some("In a meeting".into()))));
    assert_eq!(parse("status clear", 496), Ok(Command::Status(None)));
    assert_eq!(
        parse("unsubscribe #design bob alice@x", 496),
        Ok(Command::Unsubscribe {
            channel: Some("design".into()),
            users: vec!["bob".into(), "alice@x".into()]
        })
    );
    assert_eq!(parse("unsubscribe", 496), Ok(Command::Unsubscribe { channel: None, users: vec![] }));
    assert_eq!(
        parse(r#"group-add backend "Bob Nakamura""#, 496),
        Ok(Command::Group {
            group: "backend".into(),
            add: true,
            subgroups: false,
            names: vec!["Bob Nakamura".into()]
        })
    );
    assert_eq!(
        parse("subgroup-remove engineers frontend", 496),
        Ok(Command::Group {
            group: "engineers".into(),
            add: false,
            subgroups: true,
            names: vec!["frontend".into()]
        })
    );
    assert_eq!(
        parse("view-rename narrow/channel/9 My view", 496),
        Ok(Command::View { fragment: "narrow/channel/9".into(), pinned: None, name: Some("My view".into()) })
    );
    assert_eq!(
        parse("report other it is rude", 496),
        Ok(Command::Report { report_type: "other".into(), description: Some("it is rude".into()) })
    );
}

#[test]
fn errors_say_what_to_type() {
    assert!(parse("deactivate", 496).unwrap_err().contains("usage: :deactivate USER"));
    assert!(parse("deactivate bob --delete-all", 496).unwrap_err().contains("unknown flag"));
    assert_eq!(
        parse("deactivate Bob Nakamura --delete-dms", 496),
        Ok(Command::Deactivate { user: "Bob Nakamura".into(), actions: vec!["--delete-dms".into()] })
    );
    assert!(parse("playground a b", 496).unwrap_err().contains("URL_TEMPLATE"));
    assert!(parse("grup-add x y", 496).unwrap_err().contains("no command"));
    assert!(parse("group", 496).unwrap_err().contains("did you mean group-add, group-remove"));
    assert!(parse("", 496).is_err());
}

#[test]
fn apns_needs_the_app_id_from_level_223() {
    let err = parse("apns 0a1b", 496).unwrap_err();
    assert!(err.contains("needs the app ID") && err.contains("usage: :apns TOKEN APPID"), "{err}");
    assert_eq!(
        parse("apns 0a1b org.example", 223),
        Ok(Command::Apns { token: "0a1b".into(), appid: Some("org.example".into()) })
    );
    assert_eq!(parse("apns 0a1b", 222), Ok(Command::Apns { token: "0a1b".into(), appid: None }));
    assert_eq!(parse("apns", 222).unwrap_err(), "usage: :apns TOKEN [APPID]");
    assert_eq!(args("apns", 496), "TOKEN APPID");
}

#[test]
fn muted_users_and_alert_words() {
    assert_eq!(
        parse("mute-user Bob Nakamura", 496),
        Ok(Command::MuteUser { user: "Bob Nakamura".into(), mute: true })
    );
    assert_eq!(parse("unmute-user bob", 496), Ok(Command::MuteUser { user: "bob".into(), mute: false }));
    assert_eq!(parse("mute-user", 496).unwrap_err(), "usage: :mute-user USER");
    assert_eq!(parse("alert-words", 496), Ok(Command::AlertWords(None)));
    assert_eq!(parse("mark-read", 496), Ok(Command::MarkRead(None)));
    assert_eq!(
        parse("rename-topic release 2.5 --later", 496),
        Ok(Command::MoveTopic { channel: None, topic: Some("release 2.5".into()), mode: "change_later" })
    );
    assert_eq!(
        parse("move-topic #design new name", 496),
        Ok(Command::MoveTopic {
            channel: Some("design".into()),
            topic: Some("new name".into()),
            mode: "change_all"
        })
    );
    assert_eq!(
        parse("rename-topic --one", 496).unwrap_err(),
        "usage: :rename-topic NEW [--one|--later|--all]"
    );
    assert_eq!(parse("mark-read all", 496), Ok(Command::MarkRead(Some(true))));
    assert_eq!(parse("mark-read everything", 496).unwrap_err(), "usage: :mark-read [channel|all]");
    assert_eq!(
        parse(r#"alert-words add deploy "on call""#, 496),
        Ok(Command::AlertWords(Some((true, vec!["deploy".into(), "on call".into()]))))
    );
    assert!(parse("alert-words add", 496).unwrap_err().starts_with("usage: :alert-words"));
}

#[test]
fn channel_and_people_commands() {
    assert_eq!(parse("channels", 496), Ok(Command::Channels));
    assert_eq!(parse("subscribe #book club", 496), Ok(Command::Subscribe("book club".into())));
    assert_eq!(
        parse("invite a@x.org,b@x.org c@x.org #night shift #general", 496),
        Ok(Command::Invite {
            emails: vec!["a@x.org".into(), "b@x.org".into(), "c@x.org".into()],
            channels: vec!["night shift".into(), "general".into()],
        })
    );
    assert_eq!(
        parse("create-channel \"night shift\" --private --description On **call**", 496),
        Ok(Command::CreateChannel {
            name: "night shift".into(),
            private: true,
            description: "On **call**".into()
        })
    );
    assert_eq!(
        parse("create-channel night shift --loud", 496),
        Err("unknown flag --loud; usage: :create-channel NAME [--private] [--description TEXT]".into())
    );
    assert!(parse("subscribe", 496).unwrap_err().contains("usage: :subscribe #channel"));
    assert_eq!(parse("channel-info", 496), Ok(Command::ChannelInfo(None)));
    assert_eq!(
        parse("channel-push-default on #design team", 496),
        Ok(Command::PushDefault { on: true, channel: Some("design team".into()) })
    );
    assert_eq!(parse("channel-push-default off", 496), Ok(Command::PushDefault { on: false, channel: None }));
    assert!(parse("channel-push-default", 496).is_err() && parse("channel-push-default yes", 496).is_err());
    assert_eq!(parse("channel-info #design", 496), Ok(Command::ChannelInfo(Some("design".into()))));
    assert_eq!(parse("profile @**Bob Nakamura**", 496), Ok(Command::Profile(Some("Bob Nakamura".into()))));
    assert_eq!(parse("profile", 496), Ok(Command::Profile(None)));
}

#[test]
fn snippets_take_no_arguments() {
    assert_eq!(parse("snippets", 496), Ok(Command::Snippets));
    assert_eq!(parse("forget", 496), Ok(Command::Forget));
    let channels = |names: &[&str]| {
        Ok(Command::Archive(Backfill::Channels(names.iter().map(|n| (*n).to_owned()).collect())))
    };
    assert_eq!(parse("archive #general #design team", 496), channels(&["general", "design team"]));
    assert_eq!(parse("archive all", 496), Ok(Command::Archive(Backfill::All)));
    assert_eq!(parse("archive stop", 496), Ok(Command::Archive(Backfill::Stop)));
    assert_eq!(parse("archive", 496), Ok(Command::Archive(Backfill::Resume)));
    for bad in ["archive general", "archive all #general", "archive #"] {
        assert_eq!(parse(bad, 496), Err("usage: :archive [#channel… | all | stop]".into()), "{bad}");
    }
    assert_eq!(complete("sn"), vec!["snippets"]);
}

#[test]
fn completion_follows_the_table() {
    assert_eq!(complete("view"), vec!["view-pin", "view-hide", "view-rename"]);
    assert_eq!(complete("sch"), vec!["scheduled"]);
}

#[test]
fn reminders_and_uploads() {
    assert_eq!(
        parse("remind tomorrow 9:00 call Bob", 496),
        Ok(Command::Remind(["tomorrow", "9:00", "call", "Bob"].map(String::from).to_vec()))
    );
    assert_eq!(parse("remind", 496).unwrap_err(), "usage: :remind WHEN [NOTE]");
    assert_eq!(parse("reminders", 496), Ok(Command::Reminders));
    assert_eq!(parse("uploads", 496), Ok(Command::Uploads));
    assert_eq!(complete("remi"), vec!["remind", "reminders"]);
}
