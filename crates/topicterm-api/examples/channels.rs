//! Register with a Zulip server and print the names of the channels the account is subscribed
//! to, as a first use of `topicterm-api`.
//!
//! ```sh
//! cargo run -p topicterm-api --example channels -- ~/.zuliprc
//! ```
//!
//! A zuliprc is the file the web app's "Download zuliprc" gives (`[api]` with `site`, `email`
//! and `key`); `topicterm demo-server --zuliprc-dir DIR` writes ones for the demo server.

use std::path::PathBuf;
use topicterm_api::{Client, RegisterParams, zuliprc};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os().nth(1).map(PathBuf::from).unwrap_or_else(|| PathBuf::from("zuliprc"));
    let creds = zuliprc::read(&path)?;
    let client = Client::new(&creds)?;
    // Ask for the subscriptions alone: the answer carries only what was asked for.
    let params =
        RegisterParams { event_types: Some(vec!["subscription".to_owned()]), ..RegisterParams::default() };
    let state = client.register(&params).await?;
    println!("{} (Zulip {}, feature level {})", creds.site, state.zulip_version, state.zulip_feature_level);
    let mut names: Vec<String> =
        state.subscriptions.unwrap_or_default().into_iter().map(|s| s.channel.name).collect();
    names.sort_by_key(|n| n.to_lowercase());
    for name in names {
        println!("#{name}");
    }
    // The queue register opened is not polled: say so rather than let it expire.
    if let Some(queue) = state.queue_id {
        client.delete_queue(&queue).await?;
    }
    Ok(())
}
