//! The application: state, messages in, effects out, and the pure [`update`] function.
//!
//! Nothing here does I/O or awaits: `update(&mut State, Msg) -> Vec<Effect>` decides, the `net`
//! dispatcher performs effects and answers with more `Msg`s.

pub mod alerts;
pub mod burst;
pub mod channels;
pub mod command;
pub mod data_events;
pub mod drafts;
pub mod editor;
mod effect;
pub mod hints;
pub mod images;
pub mod invariants;
pub mod keymap;
pub mod keys;
pub mod lists;
mod model;
mod msg;
pub mod narrow;
pub mod orgs;
pub mod outbox;
mod outgoing;
pub mod people;
pub mod rooms;
pub mod roster;
pub mod rules;
pub mod session;
pub mod settings;
pub mod state;
pub mod store;
pub mod told;
pub mod topics;
pub mod unreads;
mod update;
pub mod users;
pub mod views;
pub mod when;
pub mod widget;
pub mod zulip_settings;

pub use channels::{ChannelInfo, Channels};
pub use drafts::Drafts;
pub use effect::{ApiCall, Clicked, Effect, TermEffect};
pub use keymap::{Action, Context};
pub use lists::Lists;
pub use model::*;
pub use msg::{Answer, ArchiveCheck, Failure, Job, Kept, Msg, ProgramFailure, Unsubscribed};
pub use narrow::Narrow;
pub use outbox::Outbox;
pub use outgoing::*;
pub use session::BackfillTarget;
pub use state::*;
pub use store::{Store, Stored};
pub use topics::{TopicInfo, TopicList, Topics};
pub use unreads::{Conv, Unreads};
pub use update::cache;
pub use update::{Listed, listed as drafts_listed};
pub use update::{
    RECENT_MESSAGES, conversation, enter_sends, message_link, not_loaded, open_narrow, pending_in,
    plain_text, rebuild_people, rebuild_sidebar, register_at_once, reminder_excerpt, role_name,
    scheduled_in_order, size_text, start, update, view_name, who_may_post, why, zone_time,
};
pub use users::{Activity, NOT_YET, UserInfo, Users, role_of};
pub use when::TimeZone;
