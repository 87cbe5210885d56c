#!/usr/bin/env python3
"""Generate demo_org.json (beside this script), the seed of the embedded demo server.

The content is written by hand below; this script only lays it out in time,
derives unread flags from a few simple rules, resolves emoji names to codes and
writes the JSON deterministically (no randomness).  Run it from anywhere:

    python3 crates/topicterm-demo/assets/gen_demo_org.py

The schema is `crates/topicterm-demo/src/seed/mod.rs`.
"""

import hashlib
import json
import os
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "demo_org.json")

# ---------------------------------------------------------------------------
# Emoji
# ---------------------------------------------------------------------------

# gemoji shortcode -> code point(s), checked against unicodedata below.
UNICODE_EMOJI = {
    "+1": ("1f44d", "THUMBS UP SIGN"),
    "tada": ("1f389", "PARTY POPPER"),
    "heart": ("2764", "HEAVY BLACK HEART"),
    "eyes": ("1f440", "EYES"),
    "rocket": ("1f680", "ROCKET"),
    "smile": ("1f604", "SMILING FACE WITH OPEN MOUTH AND SMILING EYES"),
    "laughing": ("1f606", "SMILING FACE WITH OPEN MOUTH AND TIGHTLY-CLOSED EYES"),
    "joy": ("1f602", "FACE WITH TEARS OF JOY"),
    "thinking": ("1f914", "THINKING FACE"),
    "check": ("2705", "WHITE HEAVY CHECK MARK"),
    "calendar": ("1f4c6", "TEAR-OFF CALENDAR"),
    "palm_tree": ("1f334", "PALM TREE"),
    "coffee": ("2615", "HOT BEVERAGE"),
    "bug": ("1f41b", "BUG"),
    "fire": ("1f525", "FIRE"),
    "100": ("1f4af", "HUNDRED POINTS SYMBOL"),
    "pray": ("1f64f", "PERSON WITH FOLDED HANDS"),
    "wave": ("1f44b", "WAVING HAND SIGN"),
    "clap": ("1f44f", "CLAPPING HANDS SIGN"),
    "sweat_smile": ("1f605", "SMILING FACE WITH OPEN MOUTH AND COLD SWEAT"),
    "raised_hands": ("1f64c", "PERSON RAISING BOTH HANDS IN CELEBRATION"),
    "crab": ("1f980", "CRAB"),
    "snake": ("1f40d", "SNAKE"),
    "package": ("1f4e6", "PACKAGE"),
    "taco": ("1f32e", "TACO"),
    "books": ("1f4da", "BOOKS"),
    "sparkles": ("2728", "SPARKLES"),
    "bulb": ("1f4a1", "ELECTRIC LIGHT BULB"),
    "muscle": ("1f4aa", "FLEXED BICEPS"),
    "croissant": ("1f950", "CROISSANT"),
}

for _name, (_code, _uname) in UNICODE_EMOJI.items():
    _cp = "".join(chr(int(p, 16)) for p in _code.split("-"))
    assert unicodedata.name(_cp) == _uname, (_name, _code)

CUSTOM_EMOJI = [
    {"name": "partyparrot", "author": "alice"},
    {"name": "shipit", "author": "owner"},
    {"name": "lgtm", "author": "bob"},
]
CUSTOM_NAMES = {e["name"] for e in CUSTOM_EMOJI}


def reaction(user, name):
    if name in CUSTOM_NAMES:
        return {"user": user, "emoji_name": name, "reaction_type": "realm_emoji"}
    if name == "zulip":
        return {"user": user, "emoji_name": "zulip", "emoji_code": "zulip",
                "reaction_type": "svc_extra_emoji"}
    return {"user": user, "emoji_name": name, "emoji_code": UNICODE_EMOJI[name][0],
            "reaction_type": "unicode_emoji"}


def unicode_status(text, name):
    return {"status_text": text, "emoji_name": name, "emoji_code": UNICODE_EMOJI[name][0],
            "reaction_type": "unicode_emoji"}


# ---------------------------------------------------------------------------
# Realm, users, channels, groups
# ---------------------------------------------------------------------------

REALM = {
    "name": "Topicterm Demo",
    "string_id": "demo",
    "email_domain": "demo.topicterm.test",
    "empty_topic_display_name": "general chat",
    "moderation_request_channel": "moderation",
    "allow_edit_history": True,
    "max_message_length": 10000,
    "max_topic_length": 60,
}

USERS = [
    {"short_name": "owner", "full_name": "Priya Raman", "role": "owner",
     "timezone": "America/Los_Angeles"},
    {"short_name": "admin", "full_name": "Diego Alvarez", "role": "admin",
     "status": unicode_status("In a meeting", "calendar"),
     "timezone": "America/Mexico_City"},
    {"short_name": "member", "full_name": "Maya Lindqvist", "role": "member",
     "timezone": "Europe/Stockholm"},
    {"short_name": "alice", "full_name": "Alice Okafor", "role": "member",
     # Custom realm emoji: the server fills emoji_code with the emoji's ID.
     "status": {"status_text": "Release week!", "emoji_name": "partyparrot",
                "reaction_type": "realm_emoji"},
     "timezone": "Europe/London"},
    {"short_name": "bob", "full_name": "Bob Nakamura", "role": "member",
     "status": unicode_status("Vacationing", "palm_tree"),
     "timezone": "Asia/Tokyo"},
    {"short_name": "carol", "full_name": "Carol Dubois", "role": "member",
     "presence_enabled": False, "timezone": "Europe/Paris"},
    {"short_name": "dave", "full_name": "Dave Kowalski", "role": "member",
     "status": {"status_text": "Working from the Kraków office this week"},
     "timezone": "America/Chicago"},
    {"short_name": "erin", "full_name": "Erin Byrne", "role": "member",
     "status": unicode_status("Coffee break", "coffee"),
     "timezone": "Europe/Dublin"},
    {"short_name": "farid", "full_name": "Farid Haddad", "role": "member",
     "timezone": "Asia/Beirut"},
    {"short_name": "noa", "full_name": "Noa Peretz", "role": "member",
     "timezone": "Asia/Jerusalem"},
    {"short_name": "moderator", "full_name": "Sam Whitfield", "role": "moderator",
     "timezone": "Australia/Sydney"},
    {"short_name": "guest", "full_name": "Gabriel Stone", "role": "guest",
     "timezone": "America/New_York"},
    {"short_name": "helperbot", "full_name": "Helper Bot", "role": "member",
     "bot_type": 1, "owner": "member"},
    {"short_name": "echobot", "full_name": "Echo Bot", "role": "member",
     "bot_type": 3, "owner": "member"},
]
NAME = {u["short_name"]: u["full_name"] for u in USERS}
ALL_USERS = [u["short_name"] for u in USERS]


def m(short):
    """A user mention."""
    return "@**%s**" % NAME[short]


def sm(short):
    """A silent mention."""
    return "@_**%s**" % NAME[short]


CHANNEL_FOLDERS = [
    {"name": "Engineering", "description": "Where the code gets written, reviewed and shipped."},
    {"name": "Social", "description": "Lunch, books, pets and everything else."},
]

HUMANS_NO_GUEST = ["owner", "admin", "member", "alice", "bob", "carol", "dave", "erin",
                   "farid", "noa", "moderator"]

CHANNELS = [
    {"name": "general",
     "description": "Everyone's here. Company-wide chatter; use **#announcements** for news.",
     "subscribers": ["*"], "color": "#76ce90", "created_days_ago": 730, "creator": "owner"},
    {"name": "announcements",
     "description": "Company news. Only administrators can post; discuss in #**general**.",
     "posting": "admins", "subscribers": ["*"], "color": "#f5ce6e",
     "created_days_ago": 730, "creator": "owner"},
    {"name": "engineering",
     "description": "Day-to-day engineering: planning, reviews, incidents. "
                    "See the [handbook](https://example.com/topicterm/handbook/engineering).",
     "folder": "Engineering",
     "subscribers": ["owner", "admin", "member", "alice", "bob", "carol", "dave", "erin",
                     "farid", "noa", "moderator", "helperbot"],
     "color": "#5b8def", "pinned_by": ["member", "alice"],
     "can_remove_subscribers_group": "leads", "created_days_ago": 700, "creator": "admin"},
    {"name": "builds",
     "description": "CI results from `helperbot`. Mute freely.",
     "folder": "Engineering",
     "subscribers": ["admin", "member", "alice", "bob", "carol", "dave", "farid", "helperbot"],
     "color": "#a6a6a6", "created_days_ago": 500, "creator": "dave"},
    {"name": "design",
     "description": "Mockups, palettes and *design reviews*.",
     "folder": "Engineering",
     "subscribers": ["owner", "member", "alice", "carol", "erin", "noa", "guest"],
     "color": "#c2726a", "created_days_ago": 400, "creator": "alice"},
    {"name": "support",
     "description": "Customer issues escalated from the support queue. "
                    "Please include the customer name in the topic.",
     "subscribers": ["owner", "admin", "member", "dave", "erin", "farid", "moderator",
                     "guest", "helperbot", "echobot"],
     "color": "#e79ab5", "created_days_ago": 650, "creator": "moderator"},
    {"name": "random",
     "description": "Off-topic. Pets, keyboards, lunch. :coffee:",
     "folder": "Social",
     "subscribers": HUMANS_NO_GUEST,
     "color": "#b0a5fd", "muted_by": ["member"], "created_days_ago": 730, "creator": "owner"},
    {"name": "book-club",
     "description": "One book a month. Spoilers in ```spoiler blocks, please.",
     "folder": "Social",
     "subscribers": ["owner", "member", "alice", "carol", "erin", "farid", "noa", "guest"],
     "color": "#94c849", "created_days_ago": 300, "creator": "carol"},
    {"name": "security",
     "description": "Vulnerability reports and dependency audits. **Private**, and new "
                    "subscribers cannot see history from before they joined.",
     "invite_only": True, "history_public_to_subscribers": False,
     "subscribers": ["owner", "admin", "member", "alice", "dave"],
     "color": "#e4523d", "created_days_ago": 600, "creator": "admin"},
    {"name": "leadership",
     "description": "Hiring, budget and offsite planning.",
     "invite_only": True,
     "subscribers": ["owner", "admin", "alice", "moderator"],
     "color": "#9987e1", "created_days_ago": 600, "creator": "owner"},
    {"name": "moderation",
     "description": "Moderation requests and reports land here.",
     "invite_only": True,
     "subscribers": ["owner", "admin", "moderator"],
     "color": "#f4ae55", "created_days_ago": 365, "creator": "owner"},
    # A public channel `member` is not in: found and joined through `:channels`.
    {"name": "outdoors",
     "description": "Hikes, climbing and weekend trips. Trip reports welcome; see the "
                    "[trail list](https://example.com/topicterm/trails) before asking **where to go**.",
     "folder": "Social",
     "subscribers": ["owner", "erin", "farid", "noa"],
     "color": "#addfe5", "created_days_ago": 120, "creator": "erin"},
]
CHAN = {c["name"]: c for c in CHANNELS}


def subscribers(channel):
    subs = CHAN[channel]["subscribers"]
    return list(ALL_USERS) if subs == ["*"] else list(subs)


USER_GROUPS = [
    {"name": "backend", "description": "Server, API and protocol work.",
     "members": ["member", "bob", "dave", "farid"]},
    {"name": "frontend", "description": "The terminal UI.",
     "members": ["alice", "erin", "noa"]},
    {"name": "engineers", "description": "All of engineering.",
     "members": ["carol"], "subgroups": ["backend", "frontend"]},
    {"name": "leads", "description": "Tech leads; can manage #engineering subscriptions.",
     "members": ["alice", "dave"]},
    {"name": "oncall", "description": "This week's pager rotation.",
     "members": ["member", "dave"], "subgroups": ["leads"]},
]

# ---------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------

CONVS = []


def M(sender, gap, content, at=None, r=None, e=None, star=None, unread=None, client=None, w=None):
    """One message.  `gap`: minutes after the previous message of the conversation;
    `at`: absolute minutes_ago instead.  `r`: {emoji_name: [users]}.
    `e`: [(by, minutes_later, {"content"|"topic"|"channel": ...})].
    `w`: [(user, submessage)]: changes to the message's widget (votes, ticks), in order."""
    return {"sender": sender, "gap": gap, "at": at, "content": content, "r": r or {},
            "e": e or [], "star": star or [], "unread": unread or [], "client": client, "w": w or []}


def conv(start, msgs, channel=None, topic=None, dm=None, unread=None, resolve=None):
    """A thread.  Channel conversations give channel+topic, DMs give `dm`, the list of
    participants.  `unread`: {user: n}: the last n messages of the conversation sent
    after that user's last own message are unread for them.  `resolve`: (by,
    minutes_after_last_message): mark the topic resolved, which edits every message."""
    CONVS.append({"start": start, "msgs": msgs, "channel": channel, "topic": topic,
                  "dm": dm, "unread": unread or {}, "resolve": resolve})


LONG_LINE = "https://ci.demo.topicterm.test/artifacts/arm64-linux/" + "".join(
    hashlib.sha256(("topicterm-%d" % i).encode()).hexdigest() for i in range(4)
) + "/test-results.tar.zst"

# ----- widgets: a poll and a to-do list (Zulip's /poll and /todo) ----------------

conv(6000, channel="random", topic="team offsite", msgs=[
    M("carol", 0, "/poll Where should the spring offsite be?\nLisbon\nKrakow\nTallinn", w=[
        ("alice", {"type": "vote", "key": "canned,0", "vote": 1}),
        ("dave", {"type": "vote", "key": "canned,1", "vote": 1}),
        ("erin", {"type": "vote", "key": "canned,0", "vote": 1}),
        ("dave", {"type": "new_option", "idx": 1, "option": "Somewhere with a beach"}),
        ("bob", {"type": "vote", "key": "{id:dave},1", "vote": 1}),
    ]),
])

conv(5000, channel="engineering", topic="release 2.5 checklist", msgs=[
    M("admin", 0, "/todo Release 2.5\nFreeze the branch: no features after Friday\nChangelog: user-facing changes only\nTag and announce", w=[
        ("admin", {"type": "strike", "key": "0,canned"}),
        ("alice", {"type": "new_task", "key": 3, "task": "Update the screenshots", "desc": "", "completed": False}),
    ]),
])

# ----- general --------------------------------------------------------------

conv(14300, channel="general", topic="", msgs=[
    M("dave", 0, "morning all :coffee:"),
    M("erin", 4, "Morning! Anyone else's train stuck outside the station, or is it just the 07:40 again?"),
    M("carol", 3, "Just the 07:40 again. It's tradition at this point."),
])

conv(10500, channel="general", topic="coffee machine", msgs=[
    M("erin", 0, "The coffee machine on the 3rd floor is making *very* concerning noises. Do not use until further notice."),
    M("dave", 6, "Define concerning"),
    M("erin", 2, "Like a dial-up modem having a bad day."),
    M("admin", 30, "Facilities is sending someone tomorrow morning. Until then the 2nd floor one works fine :pray:",
      r={"pray": ["erin", "dave", "member"]}),
    M("erin", 1400, "It's fixed! It was a descaling alarm. Nobody had descaled it since *2024*.",
      r={"tada": ["dave", "alice", "noa"], "coffee": ["erin", "member"]}),
])

conv(13010, channel="announcements", topic="welcome Farid Haddad", msgs=[
    M("owner", 0, "Please join me in welcoming %s to the team! :tada:\n\n"
      "Farid joins the @*backend* group from a payments startup in Beirut and will be pairing "
      "with %s for his first couple of weeks. Say hi in #**general>welcome Farid!**"
      % (m("farid"), m("member")),
      r={"tada": ["admin", "member", "alice", "dave", "carol", "noa", "erin"],
         "wave": ["bob", "moderator"], "partyparrot": ["alice"]}),
])

conv(12990, channel="general", topic="welcome Farid!", msgs=[
    M("alice", 0, "Welcome Farid! :wave:"),
    M("dave", 2, "Welcome aboard! Don't let Maya scare you with the release checklist :laughing:"),
    M("member", 3, "Hey, I'm nice! Mostly. Welcome %s, I'll ping you about a setup session after lunch." % m("farid")),
    M("farid", 10, "Thanks everyone! Really happy to be here. Fair warning: I will ask a lot of questions in the first week :sweat_smile:",
      r={"heart": ["alice", "member", "noa"], "wave": ["owner"]}),
    M("noa", 2, "There are no dumb questions, only undocumented answers. Welcome!",
      r={"100": ["dave", "alice", "member", "carol"]}),
    M("carol", 5, "Welcome! House rule: if you break CI, you bring pastries :croissant:"),
    M("bob", 30, "ようこそ! Welcome Farid. I'm in Tokyo, so I'll be the one answering your questions at 3am your time :smile:"),
    M("farid", 6, "/me bookmarks the pastry rule"),
    M("erin", 20, "Welcome Farid! :tada: Lunch is on us this week.", client="ZulipMobile"),
    M("moderator", 240, "Welcome from Sydney! If a customer ever pings you directly, send them to #**support** and tag me."),
])

conv(6500, channel="general", topic="office wifi", msgs=[
    M("erin", 0, "Is the office wifi down for anyone else, or just me?"),
    M("carol", 2, "Down for me too"),
    M("admin", 5, "Known issue, the ISP is on it. Use the `topicterm-guest` network in the meantime, the password is on the whiteboard."),
    M("admin", 45, "Should be back.",
      e=[("admin", 3, {"content": "Should be back. The ISP says it was a fibre cut two streets away."})]),
    M("erin", 2, "Works, thanks!", r={"+1": ["admin"]}),
])

conv(4800, channel="general", topic="holiday schedule", msgs=[
    M("admin", 0, "Reminder to put your December time off in the team calendar by the end of next week. What I have so far:\n\n"
      "| Week of | Out |\n|---|---|\n| Dec 14 | Bob |\n| Dec 21 | Alice, Dave, Erin |\n| Dec 28 | most of us :palm_tree: |\n\n"
      "Support coverage for the week of Dec 28 is %s plus one volunteer." % m("moderator"),
      r={"+1": ["moderator", "alice", "member"]}),
    M("moderator", 30, "I can cover Dec 28-31 alone if someone takes Jan 2."),
    M("farid", 20, "I'll take Jan 2, I'm not travelling this year."),
    M("admin", 10, "Thanks both! :pray:"),
])

conv(2600, channel="general", topic="holiday party", msgs=[
    M("owner", 0, "Holiday party brainstorm: we have budget for either a nice dinner or an activity + dinner. Ideas?",
      e=[("admin", 15, {"channel": "random"})]),
])

conv(1440, channel="announcements", topic="all-hands", msgs=[
    M("owner", 0, "@**all** The quarterly all-hands is on <time:2026-11-25T15:00:00+00:00>. Agenda:\n\n"
      "1. Q4 numbers\n2. 2.4 roadmap (%s)\n3. Open Q&A: drop questions in #**general>all-hands questions** ahead of time\n"
      % m("member"),
      e=[("owner", 4, {"content": "@**all** The quarterly all-hands is on <time:2026-11-25T15:00:00+00:00>. Agenda:\n\n"
                       "1. Q4 numbers\n2. 2.4 roadmap (%s)\n3. Open Q&A: drop questions in #**general>all-hands questions** ahead of time\n\n"
                       "The recording will be posted for everyone in APAC time zones." % m("member")})],
      r={"+1": ["admin", "alice", "dave", "moderator"], "calendar": ["erin", "noa"]}),
])

conv(1400, channel="general", topic="all-hands questions", unread={"member": 2, "alice": 2, "noa": 5}, msgs=[
    M("dave", 0, "Question for the all-hands: what's the plan for a mobile client? Customers keep asking."),
    M("erin", 60, "Q: could we get a recap of the Q3 customer survey results?"),
    M("owner", 120, "Great questions, keep them coming. I'll answer both at the all-hands."),
    M("guest", 900, "Not sure if guests are invited to the all-hands, but if so: will the design system be published openly?"),
    M("owner", 20, "Guests are very welcome, %s! And yes, I'll cover it." % m("guest"),
      r={"heart": ["guest"]}),
])

conv(35, channel="general", topic="", unread={"member": 1}, msgs=[
    M("alice", 0, "PSA: the office kitchen is getting deep-cleaned this afternoon, so grab your stuff from the fridge :pray:"),
    M("owner", 10, "Thanks! Also, whoever owns the jar of kimchi from 2024 on the bottom shelf: it's time."),
])

# ----- announcements --------------------------------------------------------

conv(7200, channel="announcements", topic="topicterm 2.3.1", msgs=[
    M("admin", 0, "**topicterm 2.3.1** is out :rocket:\n\nHighlights:\n"
      "- exponential backoff on reconnect, the fix for #**engineering>incident 2026-11-12 postmortem**\n"
      "- `Retry-After` is honoured on HTTP 429 (thanks %s!)\n"
      "- fixed `/me` messages showing the sender's name twice\n\n"
      "Full changelog: https://example.com/topicterm/releases/2.3.1" % m("farid"),
      r={"rocket": ["member", "dave", "farid", "carol"], "shipit": ["owner", "alice"],
         "zulip": ["moderator"]}),
])

# ----- engineering ----------------------------------------------------------

conv(12900, channel="engineering", topic="onboarding Farid", unread={"noa": 3}, msgs=[
    M("member", 0, "%s here's the setup checklist, shout if anything's off:\n\n"
      "1. Clone the repo: `git clone git@git.demo.topicterm.test:topicterm/topicterm.git`\n"
      "2. Install the toolchain: it's pinned in `rust-toolchain.toml`, so `rustup show` is enough\n"
      "3. Run the tests:\n"
      "   - `cargo test` for the unit tests\n"
      "   - `cargo test --features demo-server` for the integration suite\n"
      "4. Read the [architecture overview](https://example.com/topicterm/docs/architecture)\n"
      "5. Pick a `good-first-issue` from the tracker" % m("farid"),
      star=["farid"]),
    M("farid", 40, "Done with 1-3, but `cargo test --features demo-server` fails on my machine:\n"
      "```\nerror: linking with `cc` failed: exit status: 1\n  = note: /usr/bin/ld: cannot find -lssl: No such file or directory\n```"),
    M("dave", 5, "Ah, that's the old `native-tls` feature. We switched to rustls months ago but the wiki still says "
      "`--features native-tls`. Did you copy the command from the wiki?"),
    M("farid", 3, "...yes :sweat_smile:"),
    M("member", 2, "I'll fix the wiki. Plain `cargo test --features demo-server` should work.",
      e=[("member", 9, {"content": "I'll fix the wiki. Plain `cargo test --features demo-server` should work.\n\n"
                                   "(fixed: https://example.com/topicterm/wiki/Setup)"})]),
    M("farid", 25, "All green now :check: 412 tests passed.",
      r={"tada": ["member", "dave"], "muscle": ["alice"]}),
    M("farid", 300, "Question: what's the convention for commit messages? I see both `fix(api): ...` and `api: fix ...` in the log."),
    M("alice", 20, "`area: summary` is the current one; the conventional-commits style is from before we switched. "
      "There's a hook in `scripts/commit-msg` if you want it enforced locally."),
    M("farid", 5, "Got it, thanks!"),
    M("member", 200, "How's the first issue going? The one where `/me` messages render the sender name twice?"),
    M("farid", 15, "Found it! We prepend the sender name in the renderer *and* in the message list widget.",
      e=[("farid", 12, {"content": "Found it! We prepend the sender name in the renderer *and* in the message list widget. "
                                  "PR: https://example.com/topicterm/pull/1873"})]),
    M("member", 10, "Nice, reviewing now. Small nit: please add a test in `tests/render_me.rs`."),
    M("farid", 90, "Test added. Also found that `/me` with a trailing newline rendered an empty paragraph, fixed that too."),
    M("member", 5, "Merged :shipit:", r={"shipit": ["dave", "alice"], "partyparrot": ["farid"]}),
])

conv(12000, channel="engineering", topic="incident 2026-11-12 postmortem", msgs=[
    M("admin", 0, "Starting the postmortem thread for yesterday's outage. Draft doc: https://example.com/topicterm/postmortems/2026-11-12\n\n"
      "**Summary:** for ~45 minutes, clients in the EU region could not load message history. Root cause: a reconnect "
      "storm after a load balancer config push at 09:14 UTC.\n\n@*oncall* please add anything I've missed, especially the timeline.",
      e=[("admin", 20, {"content": "Starting the postmortem thread for yesterday's outage. Draft doc: https://example.com/topicterm/postmortems/2026-11-12\n\n"
                                   "**Summary:** for ~47 minutes, clients in the EU region could not load message history. Root cause: a reconnect "
                                   "storm after a load balancer config push at 09:14 UTC.\n\n@*oncall* please add anything I've missed, especially the timeline."})]),
    M("dave", 12, "Timeline from my notes:\n\n"
      "| Time (UTC) | Event |\n|---|---|\n"
      "| 09:14 | LB config push to `lb-eu-2` |\n"
      "| 09:16 | Event queue p99 latency > 30s, pager fires |\n"
      "| 09:21 | I ack and start investigating |\n"
      "| 09:38 | Reconnect storm identified: every client retrying `/register` with no backoff |\n"
      "| 09:52 | Rate limit on `/register` raised, queue drains |\n"
      "| 10:01 | All clear |",
      r={"+1": ["admin", "member"]}),
    M("member", 6, "The client side of this is on us. topicterm retries `/register` immediately when its event queue is gone:\n"
      "```rust\nloop {\n    match client.register().await {\n        Ok(queue) => return Ok(queue),\n"
      "        Err(e) if e.is_retryable() => continue, // no backoff!\n        Err(e) => return Err(e),\n    }\n}\n```\n"
      "A thousand clients doing that at once is basically a DDoS we built ourselves."),
    M("alice", 3, "oof :fire:"),
    M("admin", 5, "To be clear, this is a **blameless** review. The missing backoff has been there since 1.0; nobody caught it "
      "because we had never lost all the queues at once before.",
      r={"heart": ["member", "dave", "carol"], "100": ["owner"]}),
    M("dave", 10, "> we had never lost all the queues at once before\n\n"
      "We actually did once, in March, but at 3am with 20 users online, so nobody noticed :sweat_smile:"),
    M("member", 15, "Proposed fix: exponential backoff with full jitter, capped at 60s:\n"
      "```rust\nlet base = Duration::from_millis(500);\nlet cap = Duration::from_secs(60);\n"
      "let exp = base.saturating_mul(1 << attempt.min(7));\n"
      "let sleep = rand::rng().random_range(Duration::ZERO..=exp.min(cap));\n"
      "tokio::time::sleep(sleep).await;\n```"),
    M("bob", 20, "+1 to full jitter. The usual reference: https://aws.amazon.com/builders-library/timeouts-retries-and-backoff-with-jitter/"),
    M("carol", 30, "I can add a chaos test for this: kill all event queues on the demo server and assert that the "
      "reconnects are spread over more than 10s. %s does the demo server have a way to drop queues?" % m("member")),
    M("member", 8, "Not yet, but it's ~20 lines. I'll add a `POST /debug/drop_queues` behind the `demo-server` feature."),
    M("admin", 120, "Action items, please check that you're OK with your name next to one:\n\n"
      "1. **Client**\n"
      "   - exponential backoff with jitter on `/register` (%s)\n"
      "   - respect `Retry-After` on 429 (%s, good starter task)\n"
      "2. **Server**\n"
      "   - per-IP rate limit on `/register` (%s)\n"
      "   - alert on the queue-drop rate, not just latency (%s)\n"
      "3. **Process**\n"
      "   - LB config pushes go through the canary (%s)\n"
      "   - chaos test in CI (%s)\n\n"
      "Target: all done before 2.3.1 ships."
      % (m("member"), m("farid"), m("dave"), m("dave"), m("admin"), m("carol")),
      star=["member", "admin"],
      r={"+1": ["member", "dave", "farid", "carol"], "check": ["alice"]}),
    M("farid", 10, "Happy to take `Retry-After`!"),
    M("dave", 3, "👍 on mine"),
    M("owner", 60, "Thanks all, great write-up. One ask: can we publish an external version for customers? "
      "%s had a couple of people asking in the support queue." % sm("moderator")),
    M("moderator", 20, "Yes please. I've been pointing people at the status page, but a proper write-up would help. "
      "I can draft it from the doc."),
    M("admin", 15, "Go for it, Sam. I'll review."),
    M("member", 1500, "Backoff fix is merged: https://example.com/topicterm/pull/1880. Before/after from the new chaos test:\n\n"
      "| | reconnects in the first second | p99 reconnect delay |\n|---|---:|---:|\n"
      "| before | 1,000 | 0.02s |\n| after | 14 | 41.7s |\n\n"
      "![reconnect histogram](https://example.com/topicterm/img/reconnect-histogram.png)",
      r={"tada": ["admin", "dave", "carol", "farid"], "partyparrot": ["alice"], "rocket": ["dave"],
         "zulip": ["owner"]}),
    M("carol", 20, "The chaos test runs nightly now, results in #**builds>nightly**."),
])

conv(11500, channel="engineering", topic="flaky CI on arm64", resolve=("admin", 3), msgs=[
    M("carol", 0, "`test_event_queue_gc` has failed 4 times this week, always on the arm64 runner, never on x86. Log:\n"
      "```\n---- server::queue::tests::test_event_queue_gc stdout ----\n"
      "thread 'server::queue::tests::test_event_queue_gc' panicked at src/server/queue.rs:212:9:\n"
      "assertion `left == right` failed\n  left: 1\n right: 0\n```\nAnyone seen this?",
      r={"eyes": ["member", "dave"], "bug": ["farid"]}),
    M("dave", 15, "Only on arm64 smells like timing. That runner is a lot slower. Does the test sleep?"),
    M("carol", 5, "It does :sweat_smile: `std::thread::sleep(Duration::from_millis(50))` and then it expects the GC to have run."),
    M("member", 10, "Yeah, that's the culprit. We should use a paused tokio clock instead of real time:\n"
      "```rust\n#[tokio::test(start_paused = true)]\nasync fn test_event_queue_gc() {\n"
      "    let server = DemoServer::start().await;\n    let _queue = server.register_queue().await;\n"
      "    tokio::time::advance(QUEUE_TIMEOUT + Duration::from_secs(1)).await;\n"
      "    server.run_gc().await;\n    assert_eq!(server.queue_count(), 0);\n}\n```",
      r={"bulb": ["carol", "farid"]}),
    M("carol", 8, "Oh nice, didn't know about `start_paused`. Does it work with our `spawn_blocking` stuff?"),
    M("member", 4, "No, the blocking pool doesn't see the paused clock. But the GC isn't a blocking task, so it's fine here."),
    M("bob", 40, "FWIW I can reproduce it on my laptop under load:\n"
      "```bash\n# a CPU hog plus 50 runs of the test\nstress-ng --cpu 8 --timeout 300s &\n"
      "for i in $(seq 1 50); do\n  cargo test -q test_event_queue_gc -- --exact || echo \"FAIL on run $i\"\ndone\n```\n"
      "Fails about 1 run in 12."),
    M("carol", 30, "Great, that gives us a way to verify the fix. %s are you doing the change or should I?" % m("member")),
    M("member", 3, "Go ahead, I'm buried in 2.4 stuff."),
    M("carol", 300, "PR: https://example.com/topicterm/pull/1866. 200 runs of Bob's loop, 0 failures :tada:",
      e=[("carol", 2, {"content": "PR: https://example.com/topicterm/pull/1866. 200 runs of Bob's loop, 0 failures :tada:\n\n"
                                  "(And 0 pastries owed.)"})],
      r={"tada": ["bob", "member", "dave"], "partyparrot": ["alice"], "lgtm": ["bob"]}),
    M("dave", 20, "While we're at it, 3 other tests use real sleeps: `grep -rn 'thread::sleep' tests/` shows them. Ticket?"),
    M("carol", 10, "Filed: https://example.com/topicterm/issues/1867"),
    M("admin", 2000, "arm64 has been green for 3 days straight. Resolving, thanks %s!" % m("carol"),
      r={"check": ["member", "dave", "carol"]}),
])

conv(9500, channel="engineering", topic="MSRV bump to 1.88", msgs=[
    M("dave", 0, "Proposal: bump the MSRV to **1.88** and move the workspace to edition 2024. Main wins:\n"
      "- let chains (`if let Some(x) = a && x > 3 { .. }`), which kill a bunch of nested `if let`s in the event loop\n"
      "- async closures\n- the new `unsafe extern` rules, which we'd have to deal with eventually anyway\n\n"
      "Nobody builds us with a distro rustc as far as I know. Objections?"),
    M("bob", 30, "No objection. Here's what it buys us in `events.rs`:\n"
      "```rust\n// before\nif let Some(ev) = queue.pop() {\n    if let EventKind::Message(m) = &ev.kind {\n"
      "        if m.is_mentioned() {\n            notify(m);\n        }\n    }\n}\n\n"
      "// after\nif let Some(ev) = queue.pop()\n    && let EventKind::Message(m) = &ev.kind\n    && m.is_mentioned()\n{\n    notify(m);\n}\n```",
      r={"heart": ["dave"], "crab": ["dave", "member", "farid"]}),
    M("alice", 10, "The Homebrew formula builds with Homebrew's rust, which is always the latest, so packaging is fine."),
    M("carol", 60, "The `cargo-deb` job uses the `rust:1.80` docker image, we'd need to bump that."),
    M("dave", 5, "Good catch, will do it in the same PR."),
    M("member", 20, "+1. Can we land it *after* the 2.4 branch cut though? I don't want edition churn in the middle of stabilisation."),
    M("dave", 3, "Sure, I'll wait for the branch cut.", r={"+1": ["member", "bob"]}),
])

conv(10000, channel="engineering", topic="release 2.4 planning", unread={"member": 7, "erin": 4, "noa": 2}, msgs=[
    M("member", 0, "Kicking off 2.4 planning. Proposed scope:\n\n"
      "1. **Inbox view** (%s, %s)\n   - grouped by channel, collapsible\n   - keyboard navigation: `j`/`k`, `Enter` to open\n"
      "2. **Reconnect backoff** (me), carried over from the incident\n"
      "3. **Message edit history** viewer\n   - side-by-side diff\n   - inline diff\n"
      "4. **Performance**\n   - lazy-load avatars\n   - cache rendered Markdown\n\n"
      "Branch cut proposed for <time:2026-11-24T12:00:00+00:00>, release a week later. Thoughts?"
      % (m("alice"), m("noa")),
      e=[("member", 30, {"content": "Kicking off 2.4 planning. Proposed scope:\n\n"
                                    "1. **Inbox view** (%s, %s)\n   - grouped by channel, collapsible\n   - keyboard navigation: `j`/`k`, `Enter` to open\n"
                                    "2. **Reconnect backoff** (me), carried over from the incident\n"
                                    "3. **Message edit history** viewer\n   - side-by-side diff\n   - ~~inline diff~~ (punted to 2.5)\n"
                                    "4. **Performance**\n   - lazy-load avatars\n   - cache rendered Markdown\n\n"
                                    "Branch cut proposed for <time:2026-11-24T12:00:00+00:00>, release a week later. Thoughts?"
                                    % (m("alice"), m("noa"))})],
      star=["member"],
      r={"+1": ["alice", "dave", "noa", "farid"], "eyes": ["carol"]}),
    M("alice", 20, "Inbox view is on track: the list is done, keyboard nav is half-done. %s is doing the collapse animation. "
      "Well, \"animation\", in a terminal :laughing:" % m("noa")),
    M("noa", 5, "It's a very tasteful ▸/▾ toggle", r={"joy": ["alice", "dave"]}),
    M("dave", 30, "Edit history viewer: do we need the server to send `prev_rendered_content`, or do we diff locally? "
      "Local is simpler but we need the raw Markdown for each version."),
    M("member", 10, "The edit history endpoint gives us `content` and `prev_content` per snapshot, so local diff is fine. "
      "We already depend on `similar` for the draft diff."),
    M("dave", 4, "Ok, local it is."),
    M("erin", 60, "From the frontend side: can we get a decision on whether the inbox shows muted topics? We keep going back and forth."),
    M("member", 15, "Proposal: hide muted topics by default, same as the web app, with a toggle. @*frontend* objections?"),
    M("alice", 5, "Works for me"),
    M("noa", 2, "👍"),
    M("carol", 1440, "The QA plan for 2.4 is here: https://example.com/topicterm/wiki/QA-2.4. The main risk in my view is the "
      "inbox view on small terminals (80x24). %s is there a minimum size?" % sm("alice")),
    M("alice", 20, "80x24 is the minimum we support. Below that we show a *terminal too small* screen."),
    M("member", 30, "Also: Carol's fix from #**engineering>✔ flaky CI on arm64** should make the 2.4 CI runs a lot less noisy. :pray:"),
    M("member", 600, "Status update:\n\n"
      "| Item | Owner | Status |\n|---|---|---|\n"
      "| Inbox view | Alice, Noa | :construction: 80%% |\n"
      "| Reconnect backoff | Maya | :check: merged |\n"
      "| Edit history viewer | Dave | :construction: 50%% |\n"
      "| Lazy avatars | Erin | :cross_mark: not started |\n"
      "| Markdown cache | Farid | :construction: in review |\n\n"
      "Lazy avatars looks at risk. %s OK to punt it to 2.5?" % m("erin"),
      star=["member", "owner"], r={"eyes": ["erin"], "+1": ["owner", "admin"]}),
    M("erin", 30, "Yes, punt it. Avatars are a nice-to-have in a terminal anyway, half of them can't show images."),
    M("farid", 45, "The Markdown cache PR is ready for another look: https://example.com/topicterm/pull/1891. "
      "The hit rate on the demo server is ~93%."),
    M("member", 20, "Nice! I'll review it tomorrow morning."),
    M("dave", 2400, "The edit history viewer is done:\n\n![edit history viewer](https://example.com/topicterm/img/edit-history.png)\n\n"
      "It shows every version with a *word-level* diff against the previous one.",
      r={"tada": ["member", "alice", "noa", "owner"], "partyparrot": ["erin", "alice"], "zulip": ["carol"]}),
    M("owner", 40, "This looks great. Can the release notes call the edit history viewer out as the headline feature?"),
    M("member", 5, "Yep, drafting the notes now."),
    M("admin", 1500, "Heads-up: the branch cut is coming up on <time:2026-11-24T12:00:00+00:00>. Anything not merged by then goes to 2.5. @*engineers*"),
    M("alice", 30, "Inbox keyboard nav is merged :tada: Only the *mark topic as read* shortcut is left.",
      r={"tada": ["member", "noa"], "partyparrot": ["noa"]}),
    M("noa", 0, "Found a bug in the inbox: muted topics reappear after a reconnect. Repro:\n"
      "1. mute a topic\n2. restart the server\n3. wait for topicterm to reconnect\n\n"
      "The topic is back in the list until you restart topicterm.", at=120),
    M("alice", 8, "Ugh, we rebuild the inbox from `/register` but forget to re-apply `user_topics`. Should be a one-liner."),
    M("dave", 5, "%s blocker for 2.4, or fix in 2.4.1?" % m("member")),
    M("carol", 10, "I'd call it a blocker, muting is the whole point of the inbox for heavy users."),
    M("alice", 20, "Fix is up: https://example.com/topicterm/pull/1902. It *was* a one-liner, plus a test.",
      r={"+1": ["carol", "noa", "dave"], "lgtm": ["dave"]}),
    M("admin", 30, "Let's take it into 2.4 then. %s your call on the final go/no-go." % m("member")),
    M("farid", 15, "The Markdown cache is merged too, so everything in the status table except lazy avatars is in :rocket:"),
])

# A message posted in the wrong topic; moved by an admin into its own topic.  Three edits.
conv(7800, channel="engineering", topic="release 2.4 planning", msgs=[
    M("alice", 0, "Unrelated, but staging is throwing cert erors sinc this morning:\n"
      "```\ncurl: (60) SSL certificate problem: certificate has expired\n```\nIs anyone on it?",
      e=[("alice", 2, {"content": "Unrelated, but staging is throwing cert errors since this morning:\n"
                                  "```\ncurl: (60) SSL certificate problem: certificate has expired\n```\nIs anyone on it?"}),
         ("admin", 10, {"topic": "staging certificate expiry"}),
         ("alice", 45, {"content": "Unrelated, but staging is throwing cert errors since this morning:\n"
                                   "```\ncurl: (60) SSL certificate problem: certificate has expired\n```\nIs anyone on it?\n\n"
                                   "**Update:** fixed, see below."})]),
])
conv(7788, channel="engineering", topic="staging certificate expiry", msgs=[
    M("admin", 0, "Moved this to its own topic. Looking now; cert-manager was supposed to renew it."),
    M("admin", 15, "Found it: the renewal job has been failing since the DNS provider rotated our API tokens:\n"
      "```bash\n$ kubectl -n staging describe certificate topicterm-staging\n...\n"
      "  Warning  Failed  3d  cert-manager  Error presenting challenge: 401 Unauthorized\n```\n"
      "Updated the token, the cert is renewed. Staging should be fine now.",
      r={"pray": ["alice", "dave"]}),
    M("alice", 13, "Confirmed, thanks!"),
    M("dave", 20, "We should alert when a cert expires in less than 14 days. Adding it to the action items from "
      "#**engineering>incident 2026-11-12 postmortem**."),
])

conv(8000, channel="engineering", topic="i18n rendering", msgs=[
    M("noa", 0, "Going through the i18n bugs before 2.4. I'll post some test strings here so we can eyeball them in "
      "topicterm and the web app side by side."),
    M("noa", 2, "Hebrew, RTL with embedded LTR: שלום לכולם! הגרסה החדשה של topicterm (2.4) תצא בשבוע הבא. ראו את `CHANGELOG.md` לפרטים."),
    M("farid", 5, "Arabic: مرحبا بالجميع! هل جربتم الإصدار الجديد؟ الرسائل الطويلة تلتف بشكل صحيح الآن، لكن علامات الترقيم في نهاية السطر ما زالت تظهر في المكان الخطأ."),
    M("bob", 10, "CJK, where every character is two columns wide: 東京オフィスからこんにちは。全角文字の折り返しが正しく動くか確認してください。"
      "中文测试：宽字符换行。한국어도 테스트합니다。",
      r={"+1": ["noa"], "eyes": ["member"]}),
    M("alice", 4, "Emoji soup: 🎉🎉🎉 🚀🔥💯 👩🏽‍💻 👨‍👩‍👧‍👦 🏳️‍🌈 🇸🇪🇯🇵🇱🇧🇮🇱 ✔︎✔️ :tada::rocket::fire: "
      "The ZWJ sequences and the flags are the interesting ones: terminals disagree about their width."),
    M("carol", 8, "And my favourite, a very long line with no break opportunities:\n" + LONG_LINE),
    M("member", 15, "Results in topicterm:\n"
      "- Hebrew/Arabic: the terminal shapes the text, but we draw the sender column on the wrong side when a line starts RTL. "
      "Known issue, not a blocker\n"
      "- CJK: :check: wraps correctly\n"
      "- emoji: the ZWJ family renders as 4 separate people in kitty and as 1 in wezterm :sweat_smile:\n"
      "- long line: hard-wraps at the column limit :check:",
      r={"+1": ["noa", "alice"], "clap": ["farid"]}),
    M("noa", 10, "Thanks! I'll file the RTL sender column for 2.5."),
])

conv(6200, channel="engineering", topic="code review etiquette", msgs=[
    M("alice", 0, "Can we agree on a convention for review comments? Half the time I can't tell whether a comment is blocking. Proposal:\n"
      "- prefix with **nit:** for things the author can ignore\n"
      "- prefix with **q:** for questions\n"
      "- anything else is blocking"),
    M("dave", 15, "+1, plus **suggestion:** for *take it or leave it, but I feel somewhat strongly*."),
    M("farid", 10, "As the new person: this would help a lot. I've been treating every comment as blocking."),
    M("member", 20, "%s said:\n```quote\nI've been treating every comment as blocking.\n```\n"
      "That's on us, not you. Let's write this down in `CONTRIBUTING.md`." % sm("farid")),
    M("carol", 30, "And please, no \"LGTM\" with 14 unresolved comments :pray:", r={"joy": ["dave", "alice"], "100": ["member"]}),
    M("alice", 60, "PR for `CONTRIBUTING.md`: https://example.com/topicterm/pull/1885", r={"lgtm": ["dave", "member", "carol"]}),
    M("bob", 180, "Late to this but :+1:. Also suggest \"praise:\" so we remember to say when something is nice."),
])

conv(5500, channel="engineering", topic="rate limiter design", msgs=[
    M("dave", 0, r"Design for the per-IP `/register` rate limit (action item from the postmortem). Token bucket: capacity $$b$$, "
      r"refill rate $$r$$ tokens/s. A client that has been idle for $$t$$ seconds has" "\n"
      "```math\n" r"\text{tokens}(t) = \min\left(b,\; \text{tokens}_0 + r \cdot t\right)" "\n```\n"
      r"I'm thinking $$b = 10$$, $$r = 0.5$$.",
      e=[("dave", 25, {"content": r"Design for the per-IP `/register` rate limit (action item from the postmortem). Token bucket: capacity $$b$$, "
                                  r"refill rate $$r$$ tokens/s. A client that has been idle for $$t$$ seconds has" "\n"
                                  "```math\n" r"\text{tokens}(t) = \min\left(b,\; \text{tokens}_0 + r \cdot t\right)" "\n```\n"
                                  r"I'm thinking $$b = 10$$, $$r = 0.2$$ (edit: 0.5 was too generous, since whole offices share one IP behind NAT)."})]),
    M("member", 15, r"With full jitter on the client side, the expected delay of attempt $$n$$ is half of the capped window: "
      r"$$E[d_n] = \frac{1}{2}\min(c,\; 2^n s)$$. So after ~7 attempts clients wait 30s on average, "
      "way slower than your refill."),
    M("farid", 10, r"Possibly dumb question: why is the average half the window? Is it just $$\int_0^1 x\,dx = \frac{1}{2}$$, scaled?"),
    M("member", 3, r"Exactly that: a uniform distribution on $$[0, d]$$ has mean $$d/2$$.", r={"bulb": ["farid"]}),
    M("bob", 40, "Let's also return `Retry-After` so that well-behaved clients don't have to guess. Farid's client change already honours it."),
    M("dave", 10, "Yep, the 429 body follows the usual API error format:\n"
      "```json\n{\"result\": \"error\", \"code\": \"RATE_LIMIT_HIT\", \"msg\": \"API usage exceeded rate limit\", \"retry-after\": 2.5}\n```"),
    M("farid", 5, "Matches what I parse :check:"),
])

conv(4000, channel="engineering", topic="deprecating v1 API", msgs=[
    M("admin", 0, "About 3% of requests still hit the `/api/v1/legacy/*` endpoints. Plan:\n"
      "1. Add a `Deprecation` header now\n2. Email the owners of the top 10 API keys by volume\n3. Remove the endpoints in 3.0\n\n"
      "@*backend* can someone grab step 1?"),
    M("farid", 30, "I can do it. Is there a standard header format?"),
    M("dave", 5, "Yes: RFC 9745 for `Deprecation` (e.g. `Deprecation: @1767225600`) plus RFC 8594's `Sunset` header with the removal date."),
    M("farid", 60, "PR: https://example.com/topicterm/pull/1899", r={"+1": ["admin", "dave"]}),
    M("moderator", 30, "From the support side: please send me the list of affected keys before the emails go out. "
      "Some of those are customers I'd rather call."),
    M("admin", 10, "Will do, Sam."),
])

conv(1500, channel="engineering", topic="config format", msgs=[
    M("erin", 0, "Poll-ish: the config file keeps growing and people keep asking for comments in it, so let's pick a format "
      "for 2.5. React to vote:\n\n- :package: keep JSON\n- :crab: TOML\n- :snake: YAML\n- KDL (kidding. Mostly)",
      e=[("erin", 3, {"topic": "bikeshed: config file format"})],
      r={"crab": ["dave", "member", "farid", "alice", "erin"], "snake": ["noa", "moderator"], "package": ["carol"]}),
])
conv(1490, channel="engineering", topic="bikeshed: config file format", unread={"member": 5, "alice": 4}, msgs=[
    M("dave", 0, "TOML, obviously. `Cargo.toml` has trained everyone already."),
    M("noa", 5, "YAML has anchors, which would be nice for theme inheritance..."),
    M("carol", 3, "YAML also has the Norway problem: `country: NO` parses as `false`.", r={"joy": ["dave", "erin", "member"]}),
    M("noa", 2, "ok, fair :laughing:"),
    M("member", 30, "TOML. And please let's not spend two weeks on this."),
    M("member", 1, "/me mutes the topic before it reaches 200 messages"),
    M("erin", 0, "Tally so far: TOML 5, YAML 2, JSON 1. Unless someone strongly objects, TOML it is.", at=400),
    M("farid", 10, "Can we support both for a release? JSON for existing users, with a deprecation warning?"),
    M("erin", 5, "Yes, that's the plan: read `config.json` if there's no `config.toml`, and log a warning."),
    M("dave", 20, "Here's a migration helper, in case it's useful:\n"
      "```python\nimport json\nimport sys\n\nimport tomli_w\n\nsrc = sys.argv[1]\nwith open(src) as f:\n    cfg = json.load(f)\n"
      "with open(src.removesuffix('.json') + '.toml', 'wb') as f:\n    tomli_w.dump(cfg, f)\n```"),
    M("carol", 0, "The Norway problem lives on in my heart 🇳🇴", at=8),
])

# dave's report, moved to #support by the moderator
conv(3200, channel="engineering", topic="customer report: export hangs", msgs=[
    M("dave", 0, "Customer report via Sam: exporting a channel with >50k messages hangs at 99%. I can reproduce it with the "
      "demo server and a synthetic channel. Looks like the final zip step is O(n²) in the number of attachments.",
      e=[("moderator", 20, {"channel": "support"})]),
])
conv(3179, channel="support", topic="customer report: export hangs", msgs=[
    M("moderator", 0, "Moved to #**support** so the whole customer thread is in one place. The customer is Acme. "
      "%s is there a workaround I can give them?" % m("dave")),
    M("dave", 10, "Export one month at a time instead of the whole channel:\n"
      "```bash\ntopicterm export --channel sales --since 2026-10-01 --until 2026-11-01 -o sales-october.zip\n```"),
    M("moderator", 5, "Perfect, sending that."),
    M("dave", 200, "The fix is up: we were re-reading the zip central directory for every file. 50k messages now export in 40s "
      "instead of never :sweat_smile:",
      r={"100": ["moderator"], "zulip": ["erin", "moderator"], "tada": ["member"]}),
])

# ----- builds (helperbot) ---------------------------------------------------

BOT = "helperbot"
conv(11600, channel="builds", topic="main", unread={"member": 2, "carol": 2, "farid": 2}, msgs=[
    M(BOT, 0, ":cross_mark: **main** build [#4412](https://ci.demo.topicterm.test/builds/4412) failed on `arm64-linux`\n"
      "Failed test: `server::queue::tests::test_event_queue_gc`", client="helperbot"),
    M(BOT, 0, ":check: **main** build [#4431](https://ci.demo.topicterm.test/builds/4431) passed in 12m 04s\n"
      "`a1b2c3d` *queue: use a paused clock in the gc test* (Carol Dubois)", at=9400, client="helperbot"),
    M(BOT, 0, ":cross_mark: **main** build [#4470](https://ci.demo.topicterm.test/builds/4470) failed on `x86_64-windows`\n"
      "Failed step: `cargo clippy --all-targets -- -D warnings`", at=6000, client="helperbot"),
    M("dave", 10, "That's me, a new clippy lint. Fixing."),
    M(BOT, 25, ":check: **main** build [#4471](https://ci.demo.topicterm.test/builds/4471) passed in 11m 52s",
      client="helperbot", r={"+1": ["dave"]}),
    M(BOT, 0, ":check: **main** build [#4502](https://ci.demo.topicterm.test/builds/4502) passed in 12m 30s",
      at=1200, client="helperbot"),
    M(BOT, 0, ":cross_mark: **main** build [#4519](https://ci.demo.topicterm.test/builds/4519) failed on `aarch64-darwin`\n"
      "Failed test: `render::tests::spoiler_nested`", at=150, client="helperbot"),
    M("alice", 5, "Looking, probably my spoiler change.", r={"eyes": ["dave"]}),
])

conv(8600, channel="builds", topic="nightly", unread={"member": 1, "carol": 1}, msgs=[
    M(BOT, 0, "Nightly #301: all 3 platforms :check: (chaos suite not enabled)", client="helperbot"),
    M(BOT, 1440, "Nightly #302: all 3 platforms :check:, chaos suite 1/1 (`reconnect_storm`)", client="helperbot"),
    M(BOT, 1440, "Nightly #303: all 3 platforms :check:, chaos suite 1/1", client="helperbot"),
    M(BOT, 1440, "Nightly #304: all 3 platforms :check:, chaos suite 1/1", client="helperbot"),
    M(BOT, 1440, "Nightly #305: :cross_mark: chaos suite 0/1: `reconnect_storm` took 71s (budget: 60s)", client="helperbot"),
    M("carol", 90, "The runner was shared with a release build that night; rerun passed. I'll give the chaos job its own runner."),
    M(BOT, 1350, "Nightly #306: all 3 platforms :check:, chaos suite 1/1", client="helperbot"),
])

# ----- design ---------------------------------------------------------------

conv(8600, channel="design", topic="design review: inbox view", unread={"guest": 2}, msgs=[
    M("alice", 0, "Design review for the inbox view. Mockup:\n\n![inbox mockup](https://example.com/topicterm/design/inbox-v3.png)\n\n"
      "And the same thing in ASCII, since we're a terminal app:\n"
      "```text\n▾ #engineering                     12\n    release 2.4 planning            7\n    i18n rendering                  5\n"
      "▸ #design                           3\n▾ Direct messages                   2\n    Alice Okafor                    2\n```\n"
      "Feedback welcome, especially from %s and %s." % (m("guest"), m("noa")),
      r={"eyes": ["noa", "guest", "member"]}),
    M("guest", 60, "Looks clean! Two thoughts:\n"
      "1. The right-aligned unread counts are great, but channel rows and topic rows look too similar. Maybe **bold** channels?\n"
      "2. Could the DM section come first? For most people DMs are what they check first."),
    M("noa", 20, "Bold channels: yes. DMs first: I'm less sure... actually the web app puts DMs first too. OK, convinced."),
    M("alice", 10, "Updated: https://example.com/topicterm/design/inbox-v4.png", r={"heart": ["guest", "noa"]}),
    M("owner", 120, "Love it. Please make sure the selected row is visible on monochrome terminals too, not just with color."),
    M("alice", 15, "Good point, we'll use reverse video plus a `>` marker."),
    M("member", 30, "From the implementation side: please keep every row exactly one line high. Variable-height rows made "
      "the message list code a nightmare."),
    M("noa", 5, "*Strictly* one line, I promise."),
    M("erin", 200, "Accessibility check: with `NO_COLOR=1` everything is still distinguishable :check:"),
    M("carol", 4600, "Screen reader check with Orca + GNOME Terminal: it reads the unread counts fine. It reads ▾ as "
      "*black down-pointing small triangle* though :sweat_smile:", r={"joy": ["alice", "noa", "erin"]}),
    M("alice", 10, "lol. Let's add an accessible mode that uses `[-]`/`[+]` instead."),
    M("guest", 20, "That also helps people whose fonts don't have those glyphs. +1"),
])

conv(6000, channel="design", topic="color palette v2", msgs=[
    M("noa", 0, "Proposed palette for the 256-color theme:\n\n"
      "| Role | Hex | xterm-256 |\n|---|---|---:|\n"
      "| accent | `#5b8def` | 69 |\n| mention | `#f4a63a` | 215 |\n| unread | `#3fb950` | 71 |\n"
      "| muted | `#8b949e` | 246 |\n| error | `#f85149` | 203 |\n\n"
      "The 16-color fallback maps these to blue, yellow, green, bright black and red.",
      e=[("noa", 64, {"content": "Proposed palette for the 256-color theme:\n\n"
                                 "| Role | Hex | xterm-256 |\n|---|---|---:|\n"
                                 "| accent | `#5b8def` | 69 |\n| mention | `#e3b341` | 179 |\n| unread | `#3fb950` | 71 |\n"
                                 "| muted | `#8b949e` | 246 |\n| error | `#f85149` | 203 |\n\n"
                                 "The 16-color fallback maps these to blue, bright yellow, green, bright black and red."})],
      star=["member"]),
    M("erin", 20, "Contrast of the muted grey on the dark background is 4.6:1, so it passes WCAG AA :check:"),
    M("guest", 30, "The mention orange and the error red look very similar with deuteranopia. Worth checking in a simulator: "
      "https://example.com/tools/color-blindness-sim"),
    M("noa", 15, "Oof, you're right. Moving mention to a yellow, `#e3b341`. Updated the table above."),
    M("alice", 5, "Much better :partyparrot:"),
    M("member", 60, "Does the 16-color fallback still work with the yellow? Some terminals render plain yellow as brown."),
    M("noa", 10, "It's *bright* yellow in the fallback now, so it should be fine."),
])

conv(300, channel="design", topic="dark mode icons", unread={"member": 2, "alice": 3, "carol": 3}, msgs=[
    M("guest", 0, "Uploaded the dark mode icon set for the website: https://example.com/topicterm/design/icons-dark.zip "
      "(~~SVG only~~ SVG and PNG)", r={"sparkles": ["noa", "erin"]}),
    M("noa", 10, "These are great, thanks Gabriel!"),
    M("erin", 20, "We'll ship them with the website update next week."),
])

# ----- support --------------------------------------------------------------

conv(2500, channel="support", topic="SSO login loop for Acme", unread={"member": 3, "farid": 4}, msgs=[
    M("moderator", 0, "Acme reports that some of their users get stuck in a login loop with SAML SSO: they authenticate with "
      "their IdP, get redirected back, and land on the login page again. Only Safari users. @*backend* any ideas?"),
    M("erin", 20, "Safari + login loop is almost always a `SameSite` cookie problem."),
    M("dave", 15, "The session cookie is `SameSite=Lax`... but the SAML response is a cross-site POST, and Lax cookies "
      "aren't sent on those. That's the bug."),
    M("member", 10, "We hit the same thing in the web app last year. The fix was to stop relying on the session cookie in "
      "the ACS endpoint and use `RelayState` instead. See https://example.com/topicterm/issues/1204"),
    M("dave", 30, "Yep, same code path. I'll port the fix. ETA tomorrow.", r={"pray": ["moderator"]}),
    M("moderator", 600, "The customer confirms the fix works for most users, but 2 people still see the loop. Both are on "
      "iOS with *Prevent Cross-Site Tracking* turned on."),
    M("dave", 20, "Hmm. Can they try a private window? If that works, it's a stale cookie from before the fix."),
    M("moderator", 40, "Private window works :tada: Telling them to clear cookies for our domain.",
      r={"tada": ["dave", "member"], "zulip": ["erin"]}),
    M("moderator", 0, "Acme is asking whether we can put the fix in writing for their security review. %s you wrote the "
      "original fix, could you write a short paragraph?" % m("member"), at=70),
    M("erin", 5, "I can help if Maya is swamped with the release."),
    M("admin", 10, "Thanks Erin. Maya, no rush, their review is next week."),
])

conv(2000, channel="general", topic="sharing topics with clients", msgs=[
    M("guest", 0, "Hi all, quick question: is there a way to share a read-only link to a topic with a client?",
      e=[("admin", 15, {"channel": "support"})]),
])
conv(1984, channel="support", topic="sharing topics with clients", msgs=[
    M("moderator", 0, "Moved to #**support**. You can copy a link to the topic, but your client would need an account. "
      "For external sharing, export the topic as HTML:\n```bash\ntopicterm export --topic 'design review: inbox view' --format html\n```"),
    M("guest", 10, "HTML export is perfect, thanks!", r={"+1": ["moderator"]}),
])

conv(1100, channel="support", topic="docs: keyboard shortcuts page", msgs=[
    M("guest", 0, "A customer pointed out that the keyboard shortcuts page still lists `Ctrl+K` for search; it's `/` now. "
      "https://example.com/topicterm/docs/keyboard-shortcuts"),
    M("erin", 15, "Good catch! Fixed in the docs repo, it'll be live after the next deploy."),
    M("guest", 5, "Thanks! While you're there, `?` for the shortcut list isn't documented at all."),
    M("erin", 10, "Added that too :check:", r={"clap": ["guest"]}),
])

conv(900, channel="support", topic="webhook test", msgs=[
    M("member", 0, "%s ping" % m("echobot"), client="topicterm"),
    M("echobot", 0, "ping", client="ZulipOutgoingWebhook"),
    M("member", 1, "Webhook round trip is ~200ms. Leaving %s in here for the demo." % sm("echobot"), client="topicterm"),
])

# ----- random ---------------------------------------------------------------

conv(9800, channel="random", topic="pets of topicterm", msgs=[
    M("noa", 0, "New thread, as requested: pets. This is Pita, she supervises all my code reviews.\n\n"
      "![Pita](https://example.com/photos/pita.jpg)", r={"heart": ["dave", "alice", "member", "erin"]}),
    M("dave", 5, "Pita looks like she'd reject my PRs"),
    M("bob", 30, "Mochi, the laziest shiba in Tokyo:\n\n![Mochi](https://example.com/photos/mochi.jpg)",
      r={"heart": ["noa", "alice", "member", "carol", "erin", "farid"]}),
    M("carol", 20, "No pets, but I have a sourdough starter named Clint Yeastwood",
      r={"laughing": ["dave", "noa", "alice", "member", "bob"]}),
    M("alice", 3, "that counts"),
])

conv(7000, channel="random", topic="keyboard nerds", msgs=[
    M("dave", 0, "Finally built the split keyboard. Took 6 hours, 3 of which were desoldering a switch I put in backwards."),
    M("member", 20, "Pics or it didn't happen"),
    M("dave", 5, "![split keyboard](https://example.com/photos/split-kb.jpg)\nThe layout is Colemak-DH, which means I "
      "currently type at 15 wpm.", r={"fire": ["member", "erin"], "joy": ["bob"]}),
    M("erin", 30, "The layout file alone would scare me. Where are the arrow keys?"),
    M("dave", 10, "Layer 2, on the home row. `hjkl`-style, obviously."),
    M("bob", 5, "Vim user detected :laughing:"),
])

conv(4400, channel="random", topic="lunch friday", unread={"member": 3, "erin": 3}, msgs=[
    M("erin", 0, "Team lunch on Friday? Options:\n- the ramen place on 5th\n- tacos :taco:\n- the new Lebanese place Farid keeps talking about",
      r={"taco": ["dave"]}),
    M("farid", 10, "I don't *keep* talking about it. I mentioned it three times."),
    M("dave", 2, "Four."),
    M("farid", 1, "...it's really good though"),
    M("alice", 5, "Vote Lebanese"),
    M("member", 20, "Lebanese! As long as there's a veggie option."),
    M("farid", 2, "Half the menu is veggie. The moutabal alone is worth the trip."),
    M("erin", 600, "Booked for 8 people at 12:30 on Friday, under \"Topicterm\".", r={"+1": ["farid", "alice", "member", "dave"]}),
    M("dave", 0, "Running 10 minutes late, order me the mixed grill please", at=45, client="ZulipMobile"),
    M("carol", 5, "We're at the table by the window :wave:", client="ZulipMobile"),
    M("noa", 3, "Is the booking under \"Topicterm\" or \"Topic Term\"? The host is confused", client="ZulipMobile"),
])

conv(3600, channel="random", topic="music while coding", msgs=[
    M("erin", 0, "What's everyone listening to while coding? I need new focus music."),
    M("dave", 10, "Video game soundtracks. No lyrics, designed to keep you focused for hours. It's a cheat code."),
    M("noa", 5, "Rain sounds + lo-fi. I'm a cliché and I'm fine with it."),
    M("farid", 20, "Fairuz in the morning, nothing after lunch :coffee:"),
    M("alice", 15, "Brown noise. My partner thinks I'm listening to a broken fridge."),
    M("erin", 5, "Trying all of these, thanks!", r={"heart": ["dave", "noa", "farid", "alice"]}),
])

conv(3000, channel="random", topic="advent of code", unread={"member": 6, "carol": 2}, msgs=[
    M("alice", 0, "Advent of Code starts on December 1st! Private leaderboard code: `1234567-8a9b0c1d`. "
      "Spoilers in spoiler blocks please :pray:"),
    M("dave", 30, "In. Doing it in Rust again, aiming for < 1s total runtime across all days."),
    M("farid", 10, "I'll do Python, I need to relearn it anyway."),
    M("carol", 60, "Warming up with last year's day 1:\n"
      "```spoiler Day 1 of 2024, in Python\n~~~python\nleft, right = zip(*(map(int, line.split()) for line in open('input.txt')))\n"
      "print(sum(abs(a - b) for a, b in zip(sorted(left), sorted(right))))\n~~~\n```",
      r={"eyes": ["dave", "farid"]}),
    M("member", 20, "Cute one-liner. Mine was a lot longer :sweat_smile:"),
    M("alice", 0, "The leaderboard is up to 9 people. Reminder: puzzles unlock at midnight US Eastern, which is 06:00 for the "
      "Europe folks.", at=120),
    M("dave", 10, "/me sets an alarm for 05:55"),
    M("noa", 5, "I'm doing it in Excel this year. Don't @ me."),
    M("carol", 10, "%s :eyes:" % m("noa"), r={"joy": ["dave", "noa"]}),
    M("farid", 20, "I made a template so each day is just filling in a function:\n"
      "```python\nfrom pathlib import Path\n\n\ndef solve(lines: list[str]) -> int:\n    raise NotImplementedError\n\n\n"
      "if __name__ == \"__main__\":\n    print(solve(Path(\"input.txt\").read_text().splitlines()))\n```"),
    M("erin", 50, "Spoiler for nobody in particular:\n```spoiler What I'm bringing to day 1\nCoffee. A lot of it. :coffee:\n```"),
])

conv(2584, channel="random", topic="holiday party", unread={"carol": 2}, msgs=[
    M("alice", 0, "Escape room! We're good at debugging, let's prove it."),
    M("dave", 5, "Karaoke. Final answer."),
    M("erin", 3, "Cooking class? There's one that does Lebanese food :eyes: %s" % sm("farid")),
    M("farid", 20, "I feel seen."),
    M("admin", 60, "Noted: escape room, karaoke, cooking class. I'll run a proper vote next week.",
      r={"+1": ["owner", "alice", "erin"]}),
])

# ----- book club ------------------------------------------------------------

conv(9000, channel="book-club", topic="Designing Data-Intensive Applications", unread={"member": 2, "guest": 3}, msgs=[
    M("carol", 0, "Chapters 5 and 6 (replication and partitioning) this week. My takeaway: the section on replication lag made "
      "me rethink how we do read-after-write in the edit history viewer.", r={"books": ["alice", "erin"]}),
    M("alice", 60, "> made me rethink how we do read-after-write in the edit history viewer\n\n"
      "Same! We read from the replica right after an edit, which is exactly the anomaly in the book."),
    M("farid", 30, "The partitioning chapter is a good read with our `channel_id` sharding in mind. A hot channel like "
      "#**general** is the \"celebrity\" problem."),
    M("erin", 120, "Sorry, I'm behind. Catching up this weekend, no spoilers please"),
    M("noa", 5, "```spoiler Chapter 7 spoiler\nThe transactions chapter is the best one in the book.\n```"),
    M("erin", 2, "NOA", r={"joy": ["noa", "carol", "alice"]}),
    M("member", 5800, "Next book proposals? I'd vote for *Crafting Interpreters*. We're writing a Markdown renderer anyway."),
    M("farid", 10, "+1, and the web version is free: https://craftinginterpreters.com/"),
    M("guest", 30, "Could I suggest something non-technical for a change? *The Design of Everyday Things*.",
      r={"+1": ["noa", "erin", "carol"]}),
    M("carol", 0, "Let's do both: *The Design of Everyday Things* over the holidays, *Crafting Interpreters* in January. "
      "I'll set up the schedule.", at=1000, r={"books": ["guest", "noa"]}),
    M("noa", 5, "🎉📚"),
])

# ----- security (private, protected history) --------------------------------

conv(7000, channel="security", topic="dependency audit", msgs=[
    M("dave", 0, "Monthly `cargo audit` run: 2 findings.\n```\nCrate:    idna\nVersion:  0.5.0\n"
      "Title:    `idna` accepts Punycode labels that do not produce any non-ASCII when decoded\n"
      "Solution: Upgrade to >=1.0.0\n\nCrate:    instant\nWarning:  unmaintained\n```\n"
      "`idna` comes in through `url`, so we just need to bump `url`. `instant` is a dev-dependency only."),
    M("member", 30, "I'll take the `url` bump, it's in the client anyway."),
    M("alice", 10, "Reminder: this channel has protected history, so new members won't see older advisories. "
      "Please keep the tracking issue updated too: https://example.com/topicterm/security/issues/42"),
    M("member", 200, "`url` is bumped, the audit is clean :check:", r={"+1": ["dave", "admin"]}),
])

conv(2100, channel="security", topic="demo server debug endpoint", unread={"member": 2, "alice": 4}, msgs=[
    M("admin", 0, "We got a report through security@ about the demo server: `/debug/drop_queues` is reachable without "
      "auth when the `demo-server` feature is on. Production builds aren't affected, but let's gate it behind a flag anyway."),
    M("dave", 30, "Agreed. %s you added that endpoint for the chaos test, want me to take it?" % m("member")),
    M("member", 10, "I'll do it, it's a 5-line change. I'll credit the reporter in the changelog."),
    M("owner", 0, "The reporter confirmed the fix. Thanks all, and please thank them publicly in the 2.4 notes.", at=300),
    M("dave", 20, "Added to the draft release notes."),
])

# ----- leadership (private) -------------------------------------------------

conv(5000, channel="leadership", topic="hiring plan 2027", msgs=[
    M("owner", 0, "Draft hiring plan for 2027: 2 backend, 1 SRE, 1 designer (convert %s from contractor, if he's "
      "interested). Numbers are in the doc: https://example.com/topicterm/leadership/hiring-2027" % m("guest")),
    M("admin", 60, "+1 on converting Gabriel. I'd also like a second support person, so Sam isn't the only one on call."),
    M("moderator", 20, "Yes please :pray:"),
    M("alice", 30, "Backend: let's prioritise Postgres experience, our bus factor there is one (Dave)."),
    M("owner", 400, "Updated the doc with the support hire. Finalising at the board meeting next week.",
      r={"+1": ["admin", "alice", "moderator"]}),
])

conv(2200, channel="leadership", topic="offsite", msgs=[
    M("admin", 0, "The offsite venue shortlist is in the doc. Lisbon or Kraków?"),
    M("owner", 30, "Kraków. Cheaper, and Dave has been wanting to show everyone around."),
    M("moderator", 10, "Kraków :+1:"),
])

# ----- moderation (private) -------------------------------------------------

conv(3500, channel="moderation", topic="spam account in #random", msgs=[
    M("moderator", 0, "Heads-up: a spam account (`promo-bot-7731`) joined through the open invite link and posted crypto "
      "links in #**random**. I deactivated it and deleted the messages, and turned off the open invite link for now."),
    M("admin", 15, "Thanks Sam. Let's keep invites admin-only from now on."),
    M("owner", 30, "Agreed.", r={"+1": ["moderator"]}),
])

conv(500, channel="moderation", topic="weekly summary", msgs=[
    M("moderator", 0, "Quiet week: 0 reports, 1 display name change request (done). Nothing to escalate."),
])

# ----- outdoors (public; member is not subscribed) ---------------------------

conv(7, channel="outdoors", topic="saturday hike", msgs=[
    M("erin", 0, "Anyone up for the ridge loop on Saturday? ~14 km, leaving the station at **8:30**."),
    M("noa", 1, "In! I'll bring the spare poles :hiking_boot:"),
])

conv(6, channel="outdoors", topic="gear swap", msgs=[
    M("farid", 0, "Selling a barely used 2-person tent, ask me for photos."),
])

# ----- direct messages ------------------------------------------------------

conv(12850, dm=["member", "farid"], unread={"member": 1}, msgs=[
    M("member", 0, "Hey Farid! Want to do the setup session at 14:00? I'll send a video link.", client="topicterm"),
    M("farid", 8, "14:00 works 👍"),
    M("member", 2, "Great: https://meet.demo.topicterm.test/maya-farid", client="topicterm"),
    M("farid", 0, "Quick question: is it OK to ask the *why is it like this* questions in #**engineering**, or is there a better place?", at=10000),
    M("member", 6, "#**engineering** is perfect. If it's only about your setup, a DM is fine too. Nobody minds.", client="topicterm"),
    M("farid", 0, "Thanks for all the help these two weeks, btw. Feeling way less lost.", at=200,
      r={"heart": ["member"]}),
])

conv(8200, dm=["alice", "member"], unread={"member": 2}, msgs=[
    M("alice", 0, "Do you have 10 minutes to look at my inbox PR? It touches the event loop and I'd like a second opinion."),
    M("member", 5, "Sure, after standup.", client="topicterm"),
    M("member", 90, "Left a few comments. The event loop part looks right; I'd just move the `user_topics` handling "
      "into its own function.", client="topicterm", r={"+1": ["alice"]}),
    M("alice", 0, "btw, did you see the muted topic bug Noa found? I have a fix up but I'd love your eyes on it before "
      "the branch cut", at=50),
    M("alice", 1, "(no rush, tomorrow is fine)"),
])

conv(6800, dm=["admin", "member"], msgs=[
    M("admin", 0, "Can we move our 1:1 to Thursday this week?"),
    M("member", 20, "Works for me", client="topicterm"),
    M("admin", 0, "For the 2.4 go/no-go: I'm happy to defer to you. Just let me know by Monday.", at=1600),
    M("member", 30, "Will do. Leaning towards go, pending the QA pass.", client="topicterm", r={"+1": ["admin"]}),
])

conv(4500, dm=["bob", "member"], msgs=[
    M("bob", 0, "I'm off from tomorrow for a week :palm_tree: The `reconnect-metrics` branch is yours if you need it, "
      "notes are in the PR description."),
    M("member", 10, "Enjoy! I'll look after it.", client="topicterm"),
    M("bob", 5, "Thanks! Don't let Dave rename everything while I'm gone :laughing:", r={"laughing": ["member"]}),
])

conv(4300, dm=["carol", "member"], msgs=[
    M("carol", 0, "Are you OK with me making the chaos test a required check? It takes ~4 minutes."),
    M("member", 15, "Yes, but nightly only for now. 4 extra minutes on every PR is a lot.", client="topicterm"),
    M("carol", 5, "Fair, nightly it is."),
])

conv(2000, dm=["erin", "member"], msgs=[
    M("erin", 0, "Random question: who owns the demo server's seed data?"),
    M("member", 10, "That's me :sweat_smile: why?", client="topicterm"),
    M("erin", 3, "The demo org needs more realistic people in it. Right now it's all \"Test User 1\" and \"Test User 2\"."),
    M("member", 5, "Working on it! Expect pets, lunch plans and at least one bikeshed.", client="topicterm",
      e=[("member", 2, {"content": "Working on it! Expect pets, lunch plans and at least one bikeshed. :wink:"})],
      r={"joy": ["erin"]}),
])

conv(2400, dm=["helperbot", "member"], unread={"member": 1}, msgs=[
    M(BOT, 0, ":check: Your build [#4498](https://ci.demo.topicterm.test/builds/4498) on branch "
      "`maya/edit-history-cache` passed.", client="helperbot"),
    M(BOT, 0, ":cross_mark: Your build [#4520](https://ci.demo.topicterm.test/builds/4520) on branch `maya/release-2.4-notes` "
      "failed at step `docs`: broken link in `CHANGELOG.md` line 12.", at=140, client="helperbot"),
])

conv(880, dm=["member", "echobot"], msgs=[
    M("member", 0, "hello from a DM", client="topicterm"),
    M("echobot", 0, "hello from a DM", client="ZulipOutgoingWebhook"),
])

conv(7500, dm=["alice", "member", "dave"], unread={"member": 2}, msgs=[
    M("alice", 0, "Erin's 5-year anniversary is next Thursday! Group gift? I was thinking one of those fancy espresso "
      "grinders, since she's the office coffee person."),
    M("dave", 10, "In. Send me the payment link."),
    M("member", 15, "In! A card too?", client="topicterm"),
    M("alice", 5, "Yep, I'll pass a card around on Monday. Don't tell her :shushing_face:"),
    M("alice", 0, "The grinder arrived :tada: Hiding it in the meeting room cupboard.", at=1000),
    M("dave", 5, "perfect", r={"coffee": ["alice"]}),
])

conv(600, dm=["noa", "member", "erin"], unread={"member": 1}, msgs=[
    M("noa", 0, "Anyone up for a quick call about the inbox colors? 10 minutes max."),
    M("erin", 5, "Sure, now works for me."),
    M("noa", 40, "Thanks Erin! Maya, here's the summary so you don't need a call: we're keeping the palette, but the "
      "unread count uses the accent color instead of green."),
])

conv(9000, dm=["carol", "alice", "bob"], msgs=[
    M("carol", 0, "Who's going to the Rust meetup on Thursday?"),
    M("bob", 20, "I'm remote, remember :sweat_smile: but send me the talk recordings"),
    M("alice", 5, "I'll be there! And yes, Bob, I'll send the links."),
])

conv(5900, dm=["guest", "noa"], msgs=[
    M("guest", 0, "Hi Noa! Could you send me the link to the palette file?"),
    M("noa", 12, "Here you go: https://example.com/figma/topicterm-palette"),
])

conv(3000, dm=["admin", "owner", "moderator"], msgs=[
    M("admin", 0, "Quick sync about the Acme contract renewal tomorrow?"),
    M("owner", 20, "Sure, 10:00 Pacific."),
    M("moderator", 5, "Works for me."),
])

# ---------------------------------------------------------------------------
# Everything else
# ---------------------------------------------------------------------------

USER_TOPICS = [
    {"user": "member", "channel": "engineering", "topic": "bikeshed: config file format", "policy": "muted"},
    {"user": "member", "channel": "engineering", "topic": "release 2.4 planning", "policy": "followed"},
    {"user": "member", "channel": "support", "topic": "SSO login loop for Acme", "policy": "followed"},
    {"user": "member", "channel": "random", "topic": "lunch friday", "policy": "unmuted"},
    {"user": "alice", "channel": "design", "topic": "design review: inbox view", "policy": "followed"},
    {"user": "bob", "channel": "general", "topic": "office wifi", "policy": "muted"},
    {"user": "carol", "channel": "engineering", "topic": "✔ flaky CI on arm64", "policy": "followed"},
    {"user": "dave", "channel": "random", "topic": "music while coding", "policy": "muted"},
    {"user": "farid", "channel": "engineering", "topic": "onboarding Farid", "policy": "followed"},
]

NAVIGATION_VIEWS = [
    {"user": "member", "fragment": "narrow/channel/engineering/topic/release.202.2E4.20planning",
     "name": "Release", "is_pinned": True},
    {"user": "member", "fragment": "narrow/channel/support/is/followed", "name": "Support (followed)",
     "is_pinned": False},
    {"user": "member", "fragment": "recent", "is_pinned": False},
    {"user": "alice", "fragment": "narrow/channel/design/topic/design.20review.3A.20inbox.20view",
     "name": "Inbox review", "is_pinned": True},
]

SCHEDULED = [
    {"sender": "member", "channel": "engineering", "topic": "release 2.4 planning",
     "content": "Reminder: the **2.4 branch cut** is <time:2026-11-24T12:00:00+00:00>. Please merge or re-target your PRs to 2.5 by then. @*engineers*",
     "minutes_from_now": 90},
    {"sender": "member", "to": ["alice"],
     "content": "Morning! Reviewed the muted-topics fix, LGTM. Merging after standup.",
     "minutes_from_now": 720},
    {"sender": "member", "channel": "support", "topic": "SSO login loop for Acme",
     "content": "Here's the paragraph for Acme's security review:\n\n> The ACS endpoint no longer depends on the session "
                "cookie; the login state is carried in the signed `RelayState` parameter instead.",
     "minutes_from_now": -30, "failed": True},
]

PRESENCE = [
    {"user": "owner", "status": "active", "seconds_ago": 20},
    {"user": "admin", "status": "active", "seconds_ago": 45},
    {"user": "alice", "status": "active", "seconds_ago": 10},
    {"user": "carol", "status": "active", "seconds_ago": 15},
    {"user": "dave", "status": "idle", "seconds_ago": 40},
    {"user": "erin", "status": "idle", "seconds_ago": 300},
    {"user": "farid", "status": "active", "seconds_ago": 30},
    {"user": "noa", "status": "active", "seconds_ago": 3600},
    {"user": "moderator", "status": "idle", "seconds_ago": 7200},
    {"user": "bob", "status": "active", "seconds_ago": 259200},
]

# Custom profile fields (kind: short_text, long_text, date, link, pronouns) and values.
CUSTOM_PROFILE_FIELDS = [
    {"name": "Pronouns", "kind": "pronouns", "hint": "What pronouns should people use to refer to you?",
     "summary": True,
     "values": {"member": "she/her", "alice": "she/her", "bob": "he/him", "farid": "he/him",
                "noa": "they/them"}},
    {"name": "Team", "kind": "short_text", "hint": "Your team or department", "summary": True,
     "values": {"owner": "Leadership", "admin": "Platform", "member": "Client apps",
                "alice": "Design systems", "bob": "Backend", "dave": "Infrastructure"}},
    {"name": "Working hours", "kind": "short_text", "hint": "When you are usually around",
     "values": {"member": "08:00–16:30 CET, Mon–Thu", "bob": "10:00–19:00 JST"}},
    {"name": "Birthday", "kind": "date", "hint": "",
     "values": {"member": "1991-04-12", "alice": "1988-09-30"}},
    {"name": "Website", "kind": "link", "hint": "Your personal website or portfolio",
     "values": {"alice": "https://example.com/alice", "member": "https://example.com/maya"}},
    {"name": "About me", "kind": "long_text", "hint": "A few words about you",
     "values": {"member": "Terminal enthusiast. Maintains the **keyboard shortcuts** page and the "
                          "team's dotfiles.",
                "bob": "Databases, queues and *very* strong coffee."}},
]

PLAYGROUNDS = [
    {"name": "Rust playground", "pygments_language": "Rust",
     "url_template": "https://play.rust-lang.org/?edition=2024&code={code}"},
    {"name": "Python sandbox", "pygments_language": "Python",
     "url_template": "https://playground.demo.topicterm.test/python?code={code}"},
]

# Bob is on vacation: everything he received in the last three days is unread.
VACATION = {"bob": 3 * 1440}


# ---------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------

def build_messages():
    rows = []
    for ci, c in enumerate(CONVS):
        t = c["start"]
        laid = []
        for mi, msg in enumerate(c["msgs"]):
            if msg["at"] is not None:
                assert msg["at"] <= t, ("'at' goes back in time", c["topic"], msg["content"][:40])
                t = msg["at"]
            elif mi > 0:
                t -= msg["gap"]
            assert t > 0, ("message in the future", c["topic"], msg["content"][:40])
            laid.append((t, msg))
        # Recipients and unread flags.
        out = []
        for t, msg in laid:
            o = {"sender": msg["sender"]}
            if c["dm"] is not None:
                assert msg["sender"] in c["dm"]
                o["to"] = [u for u in c["dm"] if u != msg["sender"]]
            else:
                o["channel"] = c["channel"]
                o["topic"] = c["topic"]
            o["content"] = msg["content"]
            o["minutes_ago"] = t
            if msg["r"]:
                o["reactions"] = [reaction(u, name) for name, users in msg["r"].items() for u in users]
            edits = [{"by": by, "minutes_later": later, **change} for by, later, change in msg["e"]]
            if c["resolve"]:
                by, after = c["resolve"]
                resolved_at = laid[-1][0] - after
                edits.append({"by": by, "minutes_later": t - resolved_at, "topic": "✔ " + c["topic"]})
            edits.sort(key=lambda e: e["minutes_later"])
            if edits:
                o["edits"] = edits
            o["unread_for"] = list(msg["unread"])
            if msg["star"]:
                o["starred_by"] = msg["star"]
            if msg["client"]:
                o["client"] = msg["client"]
            if msg["w"]:
                o["widget_events"] = [{"user": u, "content": sub} for u, sub in msg["w"]]
            out.append(o)
        for user, n in c["unread"].items():
            own = [i for i, o in enumerate(out) if o["sender"] == user]
            after = out[own[-1] + 1:] if own else out
            for o in after[-n:]:
                o["unread_for"].append(user)
        for mi, o in enumerate(out):
            rows.append((-o["minutes_ago"], ci, mi, o))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    msgs = [r[3] for r in rows]
    for o in msgs:
        for user, window in VACATION.items():
            if o["minutes_ago"] < window and o["sender"] != user and user in recipients(o):
                o["unread_for"].append(user)
        o["unread_for"] = [u for u in ALL_USERS if u in o["unread_for"]]
        if not o["unread_for"]:
            del o["unread_for"]
    return msgs


def final_channel(o):
    ch = o.get("channel")
    for e in o.get("edits", []):
        ch = e.get("channel", ch)
    return ch


def recipients(o):
    if "to" in o:
        return [o["sender"]] + o["to"]
    return subscribers(final_channel(o))


def main():
    seed = {
        "realm": REALM,
        "users": USERS,
        "channel_folders": CHANNEL_FOLDERS,
        "channels": CHANNELS,
        "user_groups": USER_GROUPS,
        "custom_emoji": CUSTOM_EMOJI,
        "messages": build_messages(),
        "user_topics": USER_TOPICS,
        "navigation_views": NAVIGATION_VIEWS,
        "scheduled_messages": SCHEDULED,
        "presence": PRESENCE,
        "playgrounds": PLAYGROUNDS,
        "custom_profile_fields": CUSTOM_PROFILE_FIELDS,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(seed, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("wrote %s (%d messages)" % (OUT, len(seed["messages"])))


if __name__ == "__main__":
    main()
