//! Whole-app tests: the real state, update, dispatcher and views against the demo server,
//! drawn on ratatui's `TestBackend` and compared with insta snapshots.

mod archive;
mod bandwidth;
mod bandwidth_names;
mod bandwidth_people;
mod cache;
mod channels_people;
mod cold_start;
mod comma_names;
mod daily;
mod drafts;
mod drawing;
mod drift;
mod events;
mod everyday;
mod failures;
mod folders;
mod harness;
mod held;
mod hints;
mod images;
mod inbox;
mod keys;
mod levels;
mod moves;
mod navigation;
mod organization;
mod orgs;
mod outbox;
mod outside;
mod palette;
mod preview;
mod prompts;
mod real_server;
mod reference;
mod refused;
mod reminders;
#[path = "../support/rewriter.rs"]
mod rewriter;
mod screen_reader;
mod screen_reader_popups;
mod screens;
mod search_cli;
mod search_complete;
mod snippets;
mod uploads;
