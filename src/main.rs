//! The `topicterm` binary: command line, logging, and the subcommands.

use clap::{Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;
use topicterm::server::{DemoServer, ServerOptions};

#[derive(Parser)]
#[command(
    name = "topicterm",
    version,
    about = "A fast, keyboard-driven terminal client for Zulip-compatible team chat"
)]
struct Cli {
    /// Start the embedded demo server and log in as the seeded member.
    #[arg(long)]
    demo: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the embedded demo server in the foreground until killed.
    DemoServer {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:9991")]
        addr: SocketAddr,
        /// Write one `{short_name}.zuliprc` per seeded human and bot here (mode 0600).
        #[arg(long)]
        zuliprc_dir: Option<PathBuf>,
        /// POST outgoing-webhook bot payloads to this URL.
        #[arg(long)]
        outgoing_webhook_url: Option<String>,
        /// Pretend to be a server of this feature level.
        #[arg(long)]
        feature_level: Option<i64>,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TOPICTERM_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let rt = tokio::runtime::Runtime::new()?;
    match cli.command {
        Some(Command::DemoServer { addr, zuliprc_dir, outgoing_webhook_url, feature_level }) => {
            rt.block_on(demo_server(addr, zuliprc_dir, outgoing_webhook_url, feature_level))
        }
        None if cli.demo => {
            anyhow::bail!(
                "the terminal interface is not built yet; run `topicterm demo-server --zuliprc-dir DIR` to use the demo server"
            )
        }
        None => anyhow::bail!("the terminal interface is not built yet; see `topicterm --help`"),
    }
}

async fn demo_server(
    addr: SocketAddr,
    zuliprc_dir: Option<PathBuf>,
    outgoing_webhook_url: Option<String>,
    feature_level: Option<i64>,
) -> anyhow::Result<()> {
    let mut opts = ServerOptions { addr, outgoing_webhook_url, ..Default::default() };
    if let Some(level) = feature_level {
        opts.feature_level = level;
    }
    let server = DemoServer::start(opts).await?;
    println!("demo server listening on {}", server.url);
    if let Some(dir) = zuliprc_dir {
        let written = server.write_zuliprcs(&dir)?;
        println!("wrote {} zuliprc files to {}", written.len(), dir.display());
    }
    for name in server.short_names() {
        if let Some(token) = server.webhook_token(&name) {
            println!("outgoing webhook token of {name}: {token}");
        }
    }
    println!("password for fetch_api_key: {}", topicterm::server::org::DEMO_PASSWORD);
    tokio::signal::ctrl_c().await?;
    server.stop().await;
    Ok(())
}
