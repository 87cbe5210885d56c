//! Integration tests: the real API client against the real demo server over loopback HTTP.
//! One binary (one link step); one module per area.

mod common;

mod attachments;
mod channels;
mod channels_people;
mod daily;
mod daily_endpoints;
mod demo_server;
mod drafts;
mod emoji;
mod endpoints13;
mod fidelity;
mod hostile_server;
mod levels;
mod levels12;
mod levels13;
mod messages;
mod messages_narrows;
mod messages_ops;
mod messages_send;
mod org;
mod org_endpoints;
mod protocol;
mod realm_rules;
mod reference;
mod register_narrow;
mod reminders;
mod removals;
mod resource_limits;
mod scheduled;
mod servers_in_the_wild;
mod smoke;
mod snippets;
mod suite_gaps;
mod third_party;
mod topic_group;
mod topic_policies;
mod uploads;
mod users;
mod widgets;
