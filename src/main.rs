//! The `topicterm` binary: command line, logging, terminal setup, and the subcommands.

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;
use topicterm::api::{Client, Credentials, zuliprc};
use topicterm::server::{DemoServer, ServerOptions};

#[derive(Parser)]
#[command(
    name = "topicterm",
    version,
    about = "A fast, keyboard-driven terminal client for Zulip-compatible team chat"
)]
struct Cli {
    /// Start the embedded demo server and log in as its seeded member.
    #[arg(long, conflicts_with = "config")]
    demo: bool,
    /// The zuliprc to use (default: ~/.zuliprc).
    #[arg(short = 'c', long = "config", value_name = "PATH")]
    config: Option<PathBuf>,
    /// Log debug detail to the log file.
    #[arg(short = 'd', long)]
    debug: bool,
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
        /// Delete event queues not polled for this many seconds (fault testing).
        #[arg(long, default_value_t = 600)]
        queue_lifetime: u64,
        /// Answer an idle long-poll with a heartbeat after this many seconds.
        #[arg(long, default_value_t = 50)]
        heartbeat: u64,
    },
    /// Receive outgoing-webhook payloads, refuse a wrong token, and print each message.
    WebhookListen {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// The bot's outgoing-webhook token.
        #[arg(long)]
        token: String,
    },
}

/// Where logs go: never the screen while the interface runs.
fn log_file() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "topicterm")?;
    let dir = dirs.state_dir().unwrap_or(dirs.cache_dir()).to_path_buf();
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("topicterm.log"))
}

fn init_logging(debug: bool, to_file: bool) {
    let default = if debug { "topicterm=debug,warn" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("TOPICTERM_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(false);
    if to_file {
        if let Some(file) =
            log_file().and_then(|p| std::fs::OpenOptions::new().create(true).append(true).open(p).ok())
        {
            builder.with_writer(std::sync::Mutex::new(file)).init();
        }
        // Without a writable log file, log nothing rather than corrupt the screen.
    } else {
        builder.with_writer(std::io::stderr).init();
    }
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    init_logging(cli.debug, cli.command.is_none());
    let rt = tokio::runtime::Runtime::new()?;
    match cli.command {
        Some(Command::DemoServer {
            addr,
            zuliprc_dir,
            outgoing_webhook_url,
            feature_level,
            queue_lifetime,
            heartbeat,
        }) => {
            let opts = ServerOptions {
                addr,
                outgoing_webhook_url,
                feature_level: feature_level.unwrap_or(topicterm::server::org::FEATURE_LEVEL),
                queue_lifetime: std::time::Duration::from_secs(queue_lifetime),
                heartbeat: std::time::Duration::from_secs(heartbeat.max(1)),
                ..Default::default()
            };
            rt.block_on(demo_server(opts, zuliprc_dir))
        }
        Some(Command::WebhookListen { addr, token }) => rt.block_on(topicterm::webhook::listen(addr, token)),
        None => rt.block_on(client_main(cli.demo, cli.config)),
    }
}

/// Find and read the credentials before touching the terminal, so errors print plainly.
fn credentials(path: Option<PathBuf>) -> anyhow::Result<Credentials> {
    let path = match path {
        Some(p) => p,
        None => {
            let home = directories::BaseDirs::new().context("cannot find your home directory")?;
            home.home_dir().join(".zuliprc")
        }
    };
    zuliprc::read(&path).map_err(|e| {
        anyhow::anyhow!("{e}\n(use `topicterm --demo` to try the demo organization, or -c PATH)")
    })
}

async fn client_main(demo: bool, config: Option<PathBuf>) -> anyhow::Result<()> {
    // The demo server lives as long as the client.
    let (_server, creds) = if demo {
        let server = DemoServer::start(ServerOptions::default()).await?;
        let creds = server.credentials("member").context("the demo organization has no member")?;
        (Some(server), creds)
    } else {
        (None, credentials(config)?)
    };
    let client = Client::new(&creds)?;
    // Drafts are kept per account; the demo org's account is the same on every run.
    let site = if demo { "demo".to_owned() } else { creds.site.clone() };
    let account: String = format!("{}@{}", creds.email, site)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '@' || c == '.' { c } else { '_' })
        .collect();
    let drafts_dir = directories::ProjectDirs::from("", "", "topicterm")
        .map(|d| d.data_dir().join("drafts").join(account));
    let mut terminal = ratatui::init();
    // The mouse scrolls and selects, and focus changes drive idle presence. Both are switched
    // off again on every exit path below and by the panic hook (ratatui's own hook, chained,
    // restores the rest of the terminal).
    let _ = crossterm::execute!(
        std::io::stdout(),
        crossterm::event::EnableMouseCapture,
        crossterm::event::EnableFocusChange
    );
    let restore = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(
            std::io::stdout(),
            crossterm::event::DisableMouseCapture,
            crossterm::event::DisableFocusChange
        );
        restore(info);
    }));
    let input = crossterm::event::EventStream::new();
    let mut outside = topicterm::outside::Terminal::default();
    let result = topicterm::run::run_main_loop(&mut terminal, client, input, drafts_dir, &mut outside).await;
    let _ = crossterm::execute!(
        std::io::stdout(),
        crossterm::event::DisableMouseCapture,
        crossterm::event::DisableFocusChange
    );
    ratatui::restore();
    let state = result?;
    if let Some(why) = state.ui.fatal {
        anyhow::bail!(why);
    }
    Ok(())
}

async fn demo_server(opts: ServerOptions, zuliprc_dir: Option<PathBuf>) -> anyhow::Result<()> {
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
