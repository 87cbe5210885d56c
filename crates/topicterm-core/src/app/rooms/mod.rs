//! The rooms of the UI state (`model::Ui`): each part of it that one piece of the app owns,
//! as its own type with private fields and methods named for what happens to it. `Ui` only
//! holds them; no file writes into a room but through its methods.
//!
//! - [`channels::ChannelsPane`]: the channels pane's rows, selection, expanded channel and
//!   filter.
//! - [`people::PeoplePane`]: the people pane, shown or not, its list, selection and filter.
//! - [`connection::Connection`]: the connection and the session's bookkeeping (offline, a
//!   silent server, the last session's cache, the cold start's first page, a refused account,
//!   quitting).
//! - [`backfill::Backfill`]: the `:archive` backfill, running, stopped or to resume, and the
//!   last check of the archive.
//! - [`presence::Presence`]: who is typing, the user's own typing notice, and what presence
//!   is reported from (the last key, the last report, the terminal's focus).
//!
//! Start with `model::Ui`, which names each room; a room is a leaf: it knows the data types it
//! holds, never `State` or `Ui`.

pub mod backfill;
pub mod channels;
pub mod connection;
pub mod people;
pub mod presence;
