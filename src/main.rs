//! The `topicterm` binary: command line, logging, terminal setup, and the subcommands.

use anyhow::Context as _;
use clap::{CommandFactory, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;
use topicterm::account::{self, AccountStore, LoginOptions, TerminalPrompter};
use topicterm::api::{Client, Credentials};
use topicterm::app::orgs::AccountSource;
use topicterm::app::settings::Settings;
use topicterm::run::Organization;
#[cfg(feature = "demo")]
use topicterm::server::{DemoServer, ServerOptions};

/// The long help, with or without the demo organization (the `demo` feature).
macro_rules! long_about {
    ($demo:literal) => {
        concat!(
            "A fast, keyboard-driven terminal client for Zulip-compatible team chat.\n\n\
            Without a command it starts the client: on the account chosen with --account (else the \
            default account; add accounts with `topicterm login`), on the zuliprc given with -c, else \
            on ~/.zuliprc.",
            $demo,
            "\n\n\
            Settings are read from $XDG_CONFIG_HOME/topicterm/config.toml (or --config PATH); \
            `topicterm --print-default-config` prints every setting with its default. NO_COLOR turns \
            colours off. Logs go to $XDG_STATE_HOME/topicterm/topicterm.log."
        )
    };
}
#[cfg(feature = "demo")]
const LONG_ABOUT: &str = long_about!(" `topicterm --demo` runs it on an embedded demo organization.");
#[cfg(not(feature = "demo"))]
const LONG_ABOUT: &str = long_about!("");

/// What to do when there are no credentials.
#[cfg(feature = "demo")]
const NO_CREDENTIALS_HINT: &str = "(use `topicterm --demo` to try the demo organization, `topicterm login` to add an \
    account, or -c PATH for a zuliprc)";
#[cfg(not(feature = "demo"))]
const NO_CREDENTIALS_HINT: &str = "(use `topicterm login` to add an account, or -c PATH for a zuliprc)";

#[derive(Parser)]
#[command(
    name = "topicterm",
    version,
    about = "A fast, keyboard-driven terminal client for Zulip-compatible team chat",
    long_about = LONG_ABOUT
)]
struct Cli {
    /// Start the embedded demo server and log in as its seeded member.
    #[cfg(feature = "demo")]
    #[arg(long, conflicts_with_all = ["zuliprc", "account"])]
    demo: bool,
    /// Without the demo server, `--demo` is refused with a reason rather than unknown.
    #[cfg(not(feature = "demo"))]
    #[arg(long, hide = true)]
    demo: bool,
    /// Use this zuliprc (INI [api] with email, key, site; it must be private: chmod 600).
    #[arg(short = 'c', long = "zuliprc", value_name = "PATH", conflicts_with = "account")]
    zuliprc: Option<PathBuf>,
    /// Use this account (see `topicterm accounts`) instead of the default one.
    #[arg(short = 'a', long, value_name = "NAME")]
    account: Option<String>,
    /// Read settings from this TOML file instead of $XDG_CONFIG_HOME/topicterm/config.toml.
    #[arg(long = "config", value_name = "PATH")]
    config: Option<PathBuf>,
    /// Browse without marking messages read (explore mode; `explore = true` in the config).
    #[arg(long)]
    explore: bool,
    /// Spend as few bytes as the work allows: smaller first pages, pictures only when asked
    /// for, no typing notifications sent, optional events not fetched, the people and groups
    /// read only when needed (`low_bandwidth = true` in the config).
    #[arg(long)]
    low_bandwidth: bool,
    /// One column for screen readers: the focused pane fills the screen, plain text with no
    /// box-drawing characters or animation, every mark also a word, the cursor on the focused
    /// row (`screen_reader = true` in the config).
    #[arg(long)]
    screen_reader: bool,
    /// Neither show nor keep the last session (by default it is kept in the cache folder,
    /// readable only by you, and drawn at start-up until the server answers).
    #[arg(long)]
    no_cache: bool,
    /// Print a commented config file with every setting at its default, and exit.
    #[arg(long)]
    print_default_config: bool,
    /// Log debug detail to the log file.
    #[arg(short = 'd', long)]
    debug: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Which organization `demo-server` serves.
#[cfg(feature = "demo")]
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum DemoSize {
    Demo,
    Large,
}

/// How `demo-server`'s organization lets people log in.
#[cfg(feature = "demo")]
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum DemoAuth {
    /// Email and password.
    Password,
    /// A username and password, as an LDAP organization.
    Ldap,
    /// Only single sign-on ("Log in with Demo SSO", the desktop flow).
    Sso,
    /// Password and single sign-on.
    Both,
}

#[derive(Subcommand)]
enum Command {
    /// Log in to a server the way its organization offers — email or username and password, or
    /// single sign-on ("Log in with GitHub", …) through a browser — or import a downloaded
    /// zuliprc; the API key goes to the OS keyring (or, where there is none, to a private
    /// zuliprc in the config directory).
    Login {
        /// Import this zuliprc (downloaded from the web app: Personal settings → Account &
        /// privacy → API key; mode 0600) instead of logging in.
        #[arg(long, value_name = "FILE")]
        zuliprc: Option<PathBuf>,
        /// Name the account (default: the server's host name).
        #[arg(short = 'a', long, value_name = "NAME")]
        account: Option<String>,
        /// Make it the default account (the first account always is).
        #[arg(long)]
        default: bool,
        /// Keep the API key in a zuliprc (mode 0600) even where a keyring exists.
        #[arg(long)]
        no_keyring: bool,
        /// Trust the certificates in this PEM file instead of the system's (kept with the
        /// account, as `cert_bundle`).
        #[arg(long, value_name = "PATH")]
        cert_bundle: Option<PathBuf>,
        /// Accept any certificate (kept with the account, as `insecure`; the status bar says so).
        #[arg(long)]
        insecure: bool,
    },
    /// Forget an account and delete its API key.
    Logout {
        /// The account (default: the default account).
        #[arg(short = 'a', long, value_name = "NAME")]
        account: Option<String>,
    },
    /// List the accounts: server, email, and where each API key is.
    Accounts,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    Man,
    /// Run the embedded demo server in the foreground until killed.
    #[cfg(feature = "demo")]
    DemoServer(DemoServerArgs),
    /// Receive outgoing-webhook payloads, refuse a wrong token, and print each message.
    WebhookListen {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// The bot's outgoing-webhook token.
        #[arg(long)]
        token: String,
    },
    /// Print the form of the register request the client sends, one `name=value` per line
    /// (for `bench/scale.sh`, which replays the client's start-up requests with curl).
    #[command(hide = true)]
    RegisterForm,
    /// Send a message: to '#channel>topic', or '@name' (several: '@name,@other'); the text is
    /// the argument, else standard input. Prints the message's ID.
    Send(topicterm::script::SendArgs),
    /// Print messages as they arrive (with --since N the last N first), one line each, or one
    /// JSON object each with --json; only those matching SEARCH (the client's `/` search).
    Tail(topicterm::script::TailArgs),
    /// Print unread counts for a status bar: --format '{total} {mentions} {dms} {channel:NAME}';
    /// on failure a placeholder (--placeholder, default `?`) and a status that says what failed.
    Unread(topicterm::script::UnreadArgs),
    /// Print the messages matching SEARCH (the client's `/` search syntax) from the archive of
    /// what the client has seen on this machine (`history` in the config), without the server;
    /// with --server, the server's. One line each, oldest first, or one JSON object each.
    Search(topicterm::script::SearchArgs),
}

/// The demo server's options (`topicterm demo-server`).
#[cfg(feature = "demo")]
#[derive(clap::Args)]
struct DemoServerArgs {
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
    /// The organization: the bundled demo one, or it grown to 20,000 users, 2,000 channels
    /// and 200,000 messages (deterministic; for benchmarks).
    #[arg(long, value_enum, default_value = "demo")]
    size: DemoSize,
    /// Serve HTTPS with a self-signed certificate generated at start; with --zuliprc-dir it
    /// is written there as demo-cert.pem and each zuliprc names it as its cert_bundle.
    #[arg(long)]
    tls: bool,
    /// With --tls: serve only clients that show a client certificate; one is made at start
    /// and written beside the zuliprcs (demo-client-cert.pem, demo-client-key.pem), which
    /// name it as client_cert and client_cert_key.
    #[arg(long, requires = "tls")]
    require_client_cert: bool,
    /// How people log in: password, ldap (a username, not an email), sso (only "Log in with
    /// Demo SSO", through the reference's desktop flow) or both (password and SSO).
    #[arg(long, value_enum, default_value = "password")]
    auth: DemoAuth,
}

/// Where logs go: never the screen while the interface runs.
fn log_file() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "topicterm")?;
    let dir = dirs.state_dir().unwrap_or(dirs.cache_dir()).to_path_buf();
    topicterm::files::private_folder(&dir).ok()?;
    Some(dir.join("topicterm.log"))
}

fn init_logging(debug: bool, to_file: bool) {
    let default = if debug { "topicterm=debug,warn" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("TOPICTERM_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(false);
    if to_file {
        if let Some(file) = log_file().and_then(|p| topicterm::files::open_private_log(&p).ok()) {
            builder.with_writer(std::sync::Mutex::new(file)).init();
        }
        // Without a writable log file, log nothing rather than corrupt the screen.
    } else {
        builder.with_writer(std::io::stderr).init();
    }
}

/// Write generated text to stdout; a reader that stops early (`| head`) is not an error.
fn emit(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The command line's definition (for completions and the man page).
fn cli_command() -> clap::Command {
    Cli::command()
}

/// A failure is said in words, with its causes, and never with a backtrace: the default
/// report of a `main` returning an error printed "Stack backtrace: 0: <unknown>…" wherever
/// `RUST_BACKTRACE` was set (the log has the details).
fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let mut text = format!("Error: {e}");
            let causes: Vec<String> = e.chain().skip(1).map(|c| c.to_string()).collect();
            if !causes.is_empty() {
                text.push_str("\n\nCaused by:");
                for (i, c) in causes.iter().enumerate() {
                    text.push_str(&format!("\n    {i}: {c}"));
                }
            }
            let lines: Vec<String> = text.lines().map(topicterm::content::sanitize).collect();
            eprintln!("{}", lines.join("\n"));
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let launched = std::time::Instant::now();
    // Before any TLS client or server (the demo server's, the webhook listener's) is made.
    topicterm::api::install_crypto();
    let mut cli = Cli::parse();
    if let Some(printed) = print_only(&cli) {
        return printed;
    }
    prepare(&cli);
    let rt = tokio::runtime::Runtime::new()?;
    match cli.command.take() {
        Some(Command::Login { zuliprc, account, default, no_keyring, cert_bundle, insecure }) => {
            let store = AccountStore::open_default()?;
            // A relative path is kept as the absolute one it names now.
            let cert_bundle = cert_bundle.map(|p| std::path::absolute(&p).unwrap_or(p));
            let tls = topicterm::api::Tls { insecure, cert_bundle, ..Default::default() };
            let browser = topicterm::net::Openers::from_env().browser;
            let opts = LoginOptions { account, make_default: default, no_keyring, tls, browser };
            match zuliprc {
                Some(path) => {
                    rt.block_on(topicterm::login::import_zuliprc(&store, &mut TerminalPrompter, &opts, &path))
                }
                None => rt.block_on(topicterm::login::login(&store, &mut TerminalPrompter, &opts)),
            }
            .map(|_| ())
        }
        Some(Command::Logout { account }) => logout(account.as_deref()),
        Some(Command::Accounts) => list_accounts(),
        Some(Command::Completions { .. } | Command::Man | Command::RegisterForm) => Ok(()),
        #[cfg(feature = "demo")]
        Some(Command::DemoServer(args)) => {
            let zuliprc_dir = args.zuliprc_dir.clone();
            rt.block_on(demo_server(demo_server_options(args)?, zuliprc_dir))
        }
        Some(Command::Send(a)) => {
            run_script(&rt, topicterm::script::Script::Send(a), cli.zuliprc, cli.account)
        }
        Some(Command::Tail(a)) => {
            run_script(&rt, topicterm::script::Script::Tail(a), cli.zuliprc, cli.account)
        }
        Some(Command::Unread(a)) => {
            run_script(&rt, topicterm::script::Script::Unread(a), cli.zuliprc, cli.account)
        }
        Some(Command::Search(a)) => {
            run_script(&rt, topicterm::script::Script::Search(a), cli.zuliprc, cli.account)
        }
        Some(Command::WebhookListen { addr, token }) => rt.block_on(topicterm::webhook::listen(addr, token)),
        None => run_client(&rt, cli, launched),
    }
}

/// What only prints something and exits, before logging or a runtime is set up: the default
/// config, completions, the man page, the register form. `None`: the command does more.
fn print_only(cli: &Cli) -> Option<anyhow::Result<()>> {
    if cli.print_default_config {
        return Some(emit(topicterm::config::default_text().as_bytes()));
    }
    match &cli.command {
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut cli_command(), "topicterm", &mut out);
            Some(emit(&out))
        }
        Some(Command::Man) => {
            let mut out = Vec::new();
            Some(
                clap_mangen::Man::new(cli_command())
                    .render(&mut out)
                    .map_err(anyhow::Error::from)
                    .and_then(|()| emit(&out)),
            )
        }
        Some(Command::RegisterForm) => {
            let form = topicterm::net::register_params().params();
            let lines: String = form.pairs().iter().map(|(k, v)| format!("{k}={v}\n")).collect();
            Some(emit(lines.as_bytes()))
        }
        _ => None,
    }
}

/// Before any command runs: logging, the user's folders made private, and the client's heap.
fn prepare(cli: &Cli) {
    // The client's screen, and the scripts' output, are kept free of logs.
    let scripted = matches!(
        cli.command,
        Some(Command::Send(_) | Command::Tail(_) | Command::Unread(_) | Command::Search(_))
    );
    init_logging(cli.debug, cli.command.is_none() || scripted);
    // What an older version left readable by others is made the user's alone.
    if let Some(dirs) = directories::ProjectDirs::from("", "", "topicterm") {
        // The accounts' folder too: `accounts.toml` names them, and a login without a keyring
        // keeps its key there.
        let own = [
            dirs.config_dir(),
            dirs.data_dir(),
            dirs.cache_dir(),
            dirs.state_dir().unwrap_or(dirs.cache_dir()),
        ];
        for (dir, e) in topicterm::files::keep_private(&own) {
            tracing::warn!("{} could not be made private: {e}", dir.display());
        }
    }
    // The client (not the demo server, which serves many at once) runs on one heap.
    if cli.command.is_none() {
        topicterm::heap::single_arena();
    }
}

/// `topicterm logout`: the account's key deleted, and what the client kept of it.
fn logout(account: Option<&str>) -> anyhow::Result<()> {
    let store = AccountStore::open_default()?;
    let (name, acct) = store.remove(account)?;
    println!("Logged out of {name} ({} on {}); its API key is deleted.", acct.email, acct.site);
    // What the client kept of it goes with it: its files, and only its own.
    if let Some(folders) = topicterm::kept::Folders::of_user() {
        logged_out(&folders.account(&acct.email, &acct.site).remove());
    }
    Ok(())
}

/// The demo server's options, from its command line.
#[cfg(feature = "demo")]
fn demo_server_options(args: DemoServerArgs) -> anyhow::Result<ServerOptions> {
    let seed = match args.size {
        DemoSize::Demo => topicterm::server::seed::DEMO_SEED.to_owned(),
        DemoSize::Large => topicterm::server::seed::large::large_seed(topicterm::server::seed::DEMO_SEED)
            .map_err(|e| anyhow::anyhow!("large seed: {e}"))?,
    };
    Ok(ServerOptions {
        seed,
        addr: args.addr,
        outgoing_webhook_url: args.outgoing_webhook_url,
        feature_level: args.feature_level.unwrap_or(topicterm::server::org::FEATURE_LEVEL),
        queue_lifetime: std::time::Duration::from_secs(args.queue_lifetime),
        heartbeat: std::time::Duration::from_secs(args.heartbeat.max(1)),
        tls: args.tls,
        require_client_cert: args.require_client_cert,
        key_secret: Some(demo_key_secret()?),
        counters_file: Some(demo_data_dir()?.join(topicterm::server::counters::FILE)),
        auth: match args.auth {
            DemoAuth::Password => topicterm::server::logins::AuthMode::Password,
            DemoAuth::Ldap => topicterm::server::logins::AuthMode::Ldap,
            DemoAuth::Sso => topicterm::server::logins::AuthMode::Sso,
            DemoAuth::Both => topicterm::server::logins::AuthMode::Both,
        },
        ..Default::default()
    })
}

/// The client itself: settings and credentials read before the terminal is touched, so that
/// errors print plainly.
fn run_client(rt: &tokio::runtime::Runtime, cli: Cli, launched: std::time::Instant) -> anyhow::Result<()> {
    let config = topicterm::config::load(cli.config.as_deref())?;
    let no_color = topicterm::app::settings::no_color_requested(std::env::var_os("NO_COLOR"));
    let mut settings = config.settings(no_color);
    settings.explore |= cli.explore;
    settings.low_bandwidth |= cli.low_bandwidth;
    settings.screen_reader |= cli.screen_reader;
    let keep = !cli.no_cache;
    let outside = topicterm::outside::Terminal {
        notify: settings.notifications.method,
        command: config.notify_command.clone(),
    };
    let keep = Keep { session: keep, history: config.history };
    rt.block_on(client_main(cli.demo, cli.zuliprc, cli.account, keep, settings, outside, launched))
}

/// Run a scripting subcommand on one account and exit with its status.
fn run_script(
    rt: &tokio::runtime::Runtime,
    script: topicterm::script::Script,
    zuliprc: Option<PathBuf>,
    account: Option<String>,
) -> ! {
    let (zuliprc, account) = script.account(zuliprc, account);
    let creds = credentials(zuliprc, account, false)
        .and_then(|mut all| all.drain(..).next().map(|(_, creds, _)| creds).context("no account"));
    let code = rt.block_on(script.run(creds));
    std::process::exit(code)
}

fn list_accounts() -> anyhow::Result<()> {
    let store = AccountStore::open_default()?;
    let accounts = store.load()?;
    if accounts.accounts.is_empty() {
        println!("No accounts yet: add one with `topicterm login`.");
    }
    let width = accounts.accounts.keys().map(|n| n.chars().count()).max().unwrap_or(0);
    for (name, a) in &accounts.accounts {
        let mark = if accounts.default.as_deref() == Some(name.as_str()) { "*" } else { " " };
        println!("{mark} {name:<width$}  {} on {}  (key: {})", a.email, a.site, a.key_location());
    }
    Ok(())
}

/// Say what `topicterm logout` removed of the account's files, and what it left and why.
fn logged_out(removed: &topicterm::kept::Removed) {
    let mut what = Vec::new();
    if removed.archive {
        what.push("its archive of messages".to_owned());
    }
    if removed.session {
        what.push("its last session".to_owned());
    }
    match removed.drafts {
        0 => {}
        1 => what.push("its one draft or unsent message".to_owned()),
        n => what.push(format!("its {n} drafts and unsent messages")),
    }
    if !what.is_empty() {
        println!("Removed from this machine: {}.", what.join(", "));
    }
    for left in &removed.left {
        println!("Left: {}", topicterm::content::sanitize(left));
    }
}

/// An account to open: its name, its credentials, and where they come from.
type Opened = (String, Credentials, AccountSource);

/// The organizations to open, each with its account's name: -c's zuliprc, else the account
/// chosen with --account, else every account (the default first; only the default one unless
/// `all`), else ~/.zuliprc.
fn credentials(zuliprc: Option<PathBuf>, account: Option<String>, all: bool) -> anyhow::Result<Vec<Opened>> {
    let hint = NO_CREDENTIALS_HINT;
    let from_file = |path: PathBuf| {
        let creds = account::read_zuliprc(&path).map_err(|e| anyhow::anyhow!("{e}\n{hint}"))?;
        Ok(vec![(topicterm::urls::host_of(&creds.site), creds, AccountSource::Zuliprc(path))])
    };
    if let Some(path) = zuliprc {
        return from_file(path);
    }
    let store = AccountStore::open_default()?;
    let stored = |(name, creds): (String, Credentials)| {
        let source = AccountSource::Account(name.clone());
        (name, creds, source)
    };
    if account.is_some() || !all {
        if let Some(one) = store.credentials(account.as_deref())? {
            return Ok(vec![stored(one)]);
        }
    } else {
        let all = store.all_credentials().map_err(|e| {
            anyhow::anyhow!("{e}\n(every account opens at once; open one with --account NAME)")
        })?;
        if !all.is_empty() {
            return Ok(all.into_iter().map(stored).collect());
        }
    }
    let home = directories::BaseDirs::new().context("cannot find your home directory")?;
    let path = home.home_dir().join(".zuliprc");
    if !path.exists() {
        anyhow::bail!("no account yet, and no ~/.zuliprc\n{hint}");
    }
    from_file(path)
}

/// How an account's credentials are read again, to reopen its organization after the server
/// refused them and the user logged in again (or fixed the zuliprc).
fn reread(source: &AccountSource) -> Option<topicterm::run::Reread> {
    match source.clone() {
        AccountSource::Account(name) => Some(std::sync::Arc::new(move || {
            let store = AccountStore::open_default()?;
            let (_, creds) = store.credentials(Some(&name))?.context("the account is gone")?;
            Ok(creds)
        })),
        AccountSource::Zuliprc(path) => Some(std::sync::Arc::new(move || account::read_zuliprc(&path))),
        AccountSource::Given => None,
    }
}

/// What to do about a refused account, once the window is closed.
fn relogin_hint(source: &AccountSource) -> String {
    match source {
        AccountSource::Account(name) => {
            format!("  to use it again, log in again: topicterm login --account {name}")
        }
        AccountSource::Zuliprc(path) => {
            format!("  to use it again, put a valid API key in {}", account::shell_word(path))
        }
        AccountSource::Given => String::new(),
    }
}

/// What is kept of an organization on this machine beyond its drafts.
#[derive(Clone, Copy)]
struct Keep {
    /// The last session (not with --no-cache).
    session: bool,
    /// The archive (`history` in the config).
    history: bool,
}

/// An organization to open, with its drafts and (unless `demo` or not `keep.session`) its last
/// session kept in folders of its own account; its archive where `keep.history` (never the
/// demo's, new on every run).
fn organization((name, creds, source): Opened, demo: bool, keep: Keep) -> anyhow::Result<Organization> {
    let creds = &creds;
    // Drafts are kept per account; the demo org's account is the same on every run.
    let site = if demo { "demo" } else { creds.site.as_str() };
    let dirs = directories::ProjectDirs::from("", "", "topicterm");
    let files = topicterm::kept::Folders::of_user().map(|f| f.account(&creds.email, site));
    // What an older version kept under a name another account could share is moved once.
    for m in files.iter().flat_map(topicterm::kept::AccountFiles::migrate) {
        match m {
            topicterm::kept::Moved::Moved { .. } => tracing::info!("{m}"),
            topicterm::kept::Moved::Left { .. } => tracing::warn!("{m}"),
        }
    }
    let owner =
        files.as_ref().map_or_else(|| topicterm::files::Owner::new(&creds.email, site), |f| f.owner.clone());
    // The demo organization is new on every run: there is no last session to show.
    let cache_file = files.as_ref().filter(|_| keep.session && !demo).map(|f| f.cache.clone());
    // The client's connection pool (the system's certificates read and parsed: milliseconds of
    // processor) is made after the last session is read, which the first frame is drawn from;
    // at once where there is none.
    let (client, connect) = Client::held(creds)?;
    // Read while the terminal is made.
    let kept = cache_file.clone().map(|file| {
        let site = topicterm::api::site_of(&creds.site).to_owned();
        topicterm::net::cache::Early::read(file, site, creds.email.clone(), move || connect.now())
    });
    // Pictures are kept for every server in one folder (each named by server and address).
    let images_dir = dirs.as_ref().filter(|_| !demo).map(|d| d.cache_dir().join("images"));
    // Attachments opened with `o`: one private folder (0700) for every account.
    let downloads_dir = dirs.as_ref().map(|d| d.cache_dir().join("downloads"));
    let drafts_dir = files.as_ref().map(|f| f.drafts.clone());
    let reread = reread(&source);
    let archive_file = files.filter(|_| keep.history && !demo).map(|f| f.archive);
    Ok(Organization {
        name,
        client,
        owner,
        drafts_dir,
        cache_file,
        kept,
        images_dir,
        downloads_dir,
        archive_file,
        account: source,
        reread,
    })
}

async fn client_main(
    demo: bool,
    zuliprc: Option<PathBuf>,
    account: Option<String>,
    keep: Keep,
    settings: Settings,
    mut outside: topicterm::outside::Terminal,
    launched: std::time::Instant,
) -> anyhow::Result<()> {
    // The demo server lives as long as the client.
    #[cfg(feature = "demo")]
    let (_server, accounts) = if demo {
        let server = DemoServer::start(ServerOptions::default()).await?;
        let creds = server.credentials("member").context("the demo organization has no member")?;
        (Some(server), vec![("demo".to_owned(), creds, AccountSource::Given)])
    } else {
        (None, credentials(zuliprc, account, true)?)
    };
    #[cfg(not(feature = "demo"))]
    let accounts = if demo {
        anyhow::bail!("this build of topicterm has no demo server (it was built without the `demo` feature)");
    } else {
        credentials(zuliprc, account, true)?
    };
    // Start-up's steps go to the log at debug level (target `topicterm::start`).
    tracing::debug!(target: "topicterm::start", "accounts read {:?} after launch", launched.elapsed());
    let orgs = accounts
        .into_iter()
        .map(|opened| organization(opened, demo, keep))
        .collect::<anyhow::Result<Vec<_>>>()?;
    tracing::debug!(target: "topicterm::start", "clients made {:?} after launch", launched.elapsed());
    let mut terminal = ratatui::init();
    tracing::debug!(target: "topicterm::start", "terminal ready {:?} after launch", launched.elapsed());
    // The mouse scrolls and selects, focus changes drive idle presence, and bracketed paste
    // delivers a paste as one piece of text rather than as keys. All are switched off again on
    // every exit path below and by the panic hook (ratatui's own hook, chained, restores the
    // rest of the terminal).
    let _ = crossterm::execute!(
        std::io::stdout(),
        crossterm::event::EnableMouseCapture,
        crossterm::event::EnableFocusChange,
        crossterm::event::EnableBracketedPaste
    );
    let restore = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // The screen is gone with the terminal restored: the log keeps what happened and where.
        tracing::error!(target: "topicterm::panic", "{info}");
        let _ = crossterm::execute!(
            std::io::stdout(),
            crossterm::event::DisableMouseCapture,
            crossterm::event::DisableFocusChange,
            crossterm::event::DisableBracketedPaste
        );
        restore(info);
    }));
    // Which graphics the terminal draws pictures with: asked after the first frame (`auto`),
    // before its events are read.
    let (start_reading, reading) = tokio::sync::oneshot::channel();
    let input = topicterm::run::terminal_events(reading);
    let mode = settings.images;
    let graphics = match mode {
        topicterm::app::settings::ImageMode::Auto => {
            topicterm::run::GraphicsSource::Ask(Box::new(move || {
                let graphics = topicterm::ui::Graphics::detect(mode);
                let _ = start_reading.send(());
                graphics
            }))
        }
        _ => {
            let _ = start_reading.send(());
            topicterm::ui::Graphics::detect(mode).into()
        }
    };
    tracing::debug!(target: "topicterm::start", "main loop started {:?} after launch", launched.elapsed());
    let result =
        topicterm::run::run_main_loop(&mut terminal, orgs, input, settings, graphics, &mut outside).await;
    let _ = crossterm::execute!(
        std::io::stdout(),
        crossterm::event::DisableMouseCapture,
        crossterm::event::DisableFocusChange,
        crossterm::event::DisableBracketedPaste
    );
    ratatui::restore();
    let states = result?;
    // Accounts the server refused and the user did not reopen: said again, with what to do,
    // now that the terminal is back (the window said it too, and stayed open for it).
    for st in &states {
        let Some(why) = st.ui.conn.fatal() else { continue };
        let org = st.ui.orgs.own_name().map_or_else(String::new, |org| format!("{org}: "));
        eprintln!("closed: {org}{why}");
        let hint = relogin_hint(&st.account);
        if !hint.is_empty() {
            eprintln!("{hint}");
        }
    }
    Ok(())
}

/// The secret the demo server's API keys are derived from, kept in the data folder: the same
/// organization keeps its keys across restarts.
#[cfg(feature = "demo")]
fn demo_key_secret() -> anyhow::Result<Vec<u8>> {
    topicterm::server::key_secret_file(&demo_data_dir()?)
}

/// The data folder `demo-server` keeps its key secret and ID counters in.
#[cfg(feature = "demo")]
fn demo_data_dir() -> anyhow::Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "topicterm")
        .ok_or_else(|| anyhow::anyhow!("no home folder to keep the demo server's key secret in"))?;
    Ok(dirs.data_dir().to_owned())
}

#[cfg(feature = "demo")]
async fn demo_server(opts: ServerOptions, zuliprc_dir: Option<PathBuf>) -> anyhow::Result<()> {
    let server = DemoServer::start(opts).await?;
    println!("demo server listening on {}", server.url);
    if let Some(dir) = zuliprc_dir {
        let written = server.write_zuliprcs(&dir)?;
        println!("wrote {} zuliprc files to {}", written.len(), dir.display());
        if server.cert_pem.is_some() {
            println!("certificate (self-signed): {}", dir.join(topicterm::server::CERT_FILE).display());
        }
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
