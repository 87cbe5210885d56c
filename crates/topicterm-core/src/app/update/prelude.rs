//! What every part of `update` uses from outside it: the app's types, the API's, keys.

pub(super) use crate::api::*;
pub(super) use crate::app::channels::{ChannelInfo, Which};
pub(super) use crate::app::effect::*;
pub(super) use crate::app::keymap::{Action, Context};
pub(super) use crate::app::keys::{KeyCode, KeyEvent, KeyModifiers};
pub(super) use crate::app::model::*;
pub(super) use crate::app::msg::Msg;
pub(super) use crate::app::narrow::{Narrow, dm_key, parse_search};
pub(super) use crate::app::orgs::OrgSwitch;
pub(super) use crate::app::outgoing::*;
pub(super) use crate::app::state::*;
pub(super) use crate::app::store::Stored;
pub(super) use crate::app::unreads::Conv;
pub(super) use crate::app::users::{Activity, UserInfo};
pub(super) use crate::app::views::{CatchUp, Failed, Page, Wanted};
pub(super) use crate::app::when::TimeZone;
pub(super) use crate::backoff::{Backoff, pseudo_random};
pub(super) use crate::line::LineEditor;
pub(super) use std::collections::HashMap;
