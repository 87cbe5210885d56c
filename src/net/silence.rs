//! A server that does not answer, noticed within seconds: once a second the oldest request on
//! its way is looked at ([`crate::api::Client::unanswered_for`]); past [`SILENT_AFTER`] the app is
//! told how long it has waited (`Msg::Unanswered(Some(secs))`), and told again when every such
//! request is answered or has failed (`Msg::Unanswered(None)`). A request keeps its own deadline
//! (30 s): this only says sooner what is happening.

use crate::api::Client;
use crate::app::Msg;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

/// How long a request that should take a moment may go unanswered before it is said.
pub const SILENT_AFTER: Duration = Duration::from_secs(5);

/// Watch `client`'s requests until the app stops listening.
pub(super) fn watch(client: Client, tx: UnboundedSender<Msg>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut clock = tokio::time::interval(Duration::from_secs(1));
        clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut said = false;
        while !tx.is_closed() {
            clock.tick().await;
            let waited = client.unanswered_for().filter(|w| *w >= SILENT_AFTER);
            if waited.is_some() != said {
                said = waited.is_some();
                let _ = tx.send(Msg::Unanswered(waited.map(|w| w.as_secs())));
            }
        }
    })
}
