//! What the scripting subcommands share: the one table of exit statuses, the account flags
//! every one takes, a failure with its status, standard output that ends quietly when its
//! reader goes away, and the register answer made into the client's data (its name lookups).

use crate::api::{
    ApiError, Client, Credentials, IncludeSubscribers, NarrowTerm, RegisterParams, RegisterResponse,
};
use crate::app::State;
use crate::app::state::Data;
use std::io::Write;
use std::path::PathBuf;

/// Declares the exit statuses once: the enum, the help text every subcommand shows
/// (`topicterm help send`), and the list the README is checked against.
macro_rules! exit_statuses {
    ($($(#[$doc:meta])* $name:ident = $code:literal : $text:literal,)*) => {
        /// How a scripting subcommand ends: its exit status.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Exit {
            $($(#[$doc])* $name = $code,)*
        }

        /// The exit statuses, as `--help` lists them.
        pub const EXIT_HELP: &str = concat!("Exit status:\n", $("  ", $code, "  ", $text, "\n",)*);

        /// Each status with what it says.
        pub const EXIT_STATUSES: &[(Exit, &str)] = &[$((Exit::$name, $text),)*];
    };
}

exit_statuses! {
    /// Done.
    Done = 0: "done",
    /// The command line is wrong (clap's own status for its errors, and ours: an empty message, a bad template or search).
    Usage = 2: "usage: a wrong command line, template or search",
    /// No account to use, a key that cannot be read, or one the server refuses.
    Credentials = 3: "no usable account: none set up, the key unreadable, or refused by the server",
    /// The server could not be reached, or did not answer in time.
    Network = 4: "network: the server is unreachable, unavailable or did not answer",
    /// The server (or this program, before asking it) refused: an unknown or ambiguous target, not allowed.
    Refused = 5: "refused: an unknown or ambiguous channel or person, or not allowed",
    /// Anything else: the server failed, or answered what the protocol does not say.
    Other = 6: "other: the server failed or its answer could not be read",
}

impl Exit {
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The status an API failure ends with.
    pub fn of(e: &ApiError) -> Exit {
        use crate::api::error::Trouble::*;
        if e.is_auth() {
            return Exit::Credentials;
        }
        match e.trouble() {
            Unreachable | NoAnswer | ConnectionLost | Unavailable | TooManyRequests => Exit::Network,
            UntrustedCertificate | ClientCertificateRequired => Exit::Network,
            Refused | Limit | NoSuchEndpoint => Exit::Refused,
            ServerFailed | NotUnderstood => Exit::Other,
        }
    }
}

/// The flags every scripting subcommand takes (the top-level `-a`/`-c` are taken too).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Common {
    /// Use this account (see `topicterm accounts`) instead of the default one.
    #[arg(short = 'a', long, value_name = "NAME")]
    pub account: Option<String>,
    /// Use this zuliprc (INI [api] with email, key, site; it must be private: chmod 600).
    #[arg(short = 'c', long = "zuliprc", value_name = "PATH", conflicts_with = "account")]
    pub zuliprc: Option<PathBuf>,
    /// Print JSON (one object per line) instead of text.
    #[arg(long)]
    pub json: bool,
}

impl Common {
    /// These flags, else the top-level ones given before the subcommand.
    pub fn or(&self, zuliprc: Option<PathBuf>, account: Option<String>) -> (Option<PathBuf>, Option<String>) {
        if self.zuliprc.is_some() || self.account.is_some() {
            (self.zuliprc.clone(), self.account.clone())
        } else {
            (zuliprc, account)
        }
    }
}

/// A subcommand that failed: its status and a one-line reason.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub why: String,
}

impl Failure {
    pub fn new(exit: Exit, why: impl Into<String>) -> Failure {
        Failure { exit, why: why.into() }
    }

    /// An API failure, with what was being done: `doing: why` in the client's words.
    pub fn api(doing: &str, e: &ApiError) -> Failure {
        Failure::new(Exit::of(e), format!("{doing}: {}", crate::app::why(e)))
    }

    /// A search that cannot be read: refused when it names a channel or person that is not
    /// there or not alone (as `send` refuses such a target), else the command line's fault.
    pub fn search(e: &crate::app::narrow::SearchError) -> Failure {
        let exit = if e.names_no_one { Exit::Refused } else { Exit::Usage };
        Failure::new(exit, format!("cannot read the search: {e}"))
    }

    /// Credentials that could not be read (the error says which and how to fix it).
    pub fn credentials(e: &anyhow::Error) -> Failure {
        Failure::new(Exit::Credentials, format!("{e:#}"))
    }
}

/// The client for these credentials.
pub fn client(creds: anyhow::Result<Credentials>) -> Result<Client, Failure> {
    let creds = creds.map_err(|e| Failure::credentials(&e))?;
    Client::new(&creds).map_err(|e| Failure::new(Exit::Credentials, format!("cannot use the account: {e}")))
}

/// Register a queue (failures in words).
pub async fn register(client: &Client, params: &RegisterParams) -> Result<RegisterResponse, Failure> {
    // A server that answered and refused the key was reached: say what it refused (it read
    // "cannot reach the organization: Invalid API key").
    client.register(params).await.map_err(|e| {
        let doing = if e.server().is_some() { "the server refused" } else { "cannot reach the organization" };
        Failure::api(doing, &e)
    })
}

/// The client's data from a register answer, as the interactive client builds it (through
/// `app::update`): its users, channels and name lookups (`narrow::Resolver`).
pub fn data_of(answer: RegisterResponse) -> Data {
    let mut st = State::default();
    let _ = crate::app::register_at_once(&mut st, answer);
    st.data
}

/// The organization's names (users and channels, from a light register whose queue is
/// deleted at once) and a search in the web app's syntax read against them.
pub async fn names_and_search(client: &Client, query: &str) -> Result<(Data, Vec<NarrowTerm>), Failure> {
    let params = RegisterParams {
        event_types: Some(vec!["message".into()]),
        fetch_event_types: Some(vec!["realm_user".into(), "subscription".into()]),
        include_subscribers: Some(IncludeSubscribers::False),
        ..Default::default()
    };
    let answer = register(client, &params).await?;
    let queue = answer.queue_id.clone();
    let data = data_of(answer);
    forget_queue(client, queue.as_deref()).await;
    let terms = crate::app::narrow::read_search(query, &data).map_err(|e| Failure::search(&e))?;
    Ok((data, terms))
}

/// Delete a queue that is no longer needed; a failure only costs the server a queue that
/// expires on its own.
pub async fn forget_queue(client: &Client, queue_id: Option<&str>) {
    if let Some(q) = queue_id
        && let Err(e) = client.delete_queue(q).await
    {
        tracing::debug!("queue not deleted: {e}");
    }
}

/// Standard output, line by line. A reader that went away (`| head -1`: EPIPE) ends the
/// output: `line` says so with `false`, and nothing is printed about it.
pub struct Out {
    closed: bool,
}

impl Out {
    pub fn new() -> Out {
        Out { closed: false }
    }

    /// Write one line and flush it; `false` once standard output is closed.
    pub fn line(&mut self, text: &str) -> bool {
        if self.closed {
            return false;
        }
        let mut out = std::io::stdout().lock();
        match writeln!(out, "{text}").and_then(|()| out.flush()) {
            Ok(()) => true,
            Err(e) => {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    tracing::info!("standard output failed: {e}");
                }
                self.closed = true;
                false
            }
        }
    }
}

impl Default for Out {
    fn default() -> Self {
        Out::new()
    }
}

/// A JSON value as one line. serde escapes the C0 controls only; every other character the
/// terminal must never see (`content::is_unsafe_char`: DEL, C1 controls such as CSI U+009B,
/// bidirectional overrides, invisible format characters) is written as a `\uXXXX` escape too,
/// so a script that prints a field does not hand the terminal a control.
pub fn json_line(v: &impl serde::Serialize) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Escaping);
    match v.serialize(&mut ser) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!(r#"{{"result":"error","msg":"{e}"}}"#),
    }
}

/// serde_json's compact output, escaping what `content::is_unsafe_char` names, and tags.
struct Escaping;

impl serde_json::ser::Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if crate::content::is_unsafe_char(c) || crate::content::is_tag(c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                for unit in c.encode_utf16(&mut [0; 2]) {
                    write!(w, "\\u{unit:04x}")?;
                }
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// Report a failure: on standard error as `topicterm CMD: why`, and with `--json` on standard
/// output too, as `{"result":"error","msg":…,"code":N}`. Returns the exit status.
pub fn report(command: &str, json: bool, f: &Failure) -> i32 {
    let why = crate::content::sanitize(&f.why.replace('\n', " "));
    if json {
        Out::new()
            .line(&json_line(&serde_json::json!({"result": "error", "msg": why, "code": f.exit.code()})));
    }
    let _ = writeln!(std::io::stderr().lock(), "topicterm {command}: {why}");
    f.exit.code()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_output_escapes_every_character_the_terminal_must_not_see() {
        let v = serde_json::json!({"t": "a\u{9b}31m\u{9d}0;x\u{7f}\u{202e}b\u{e0041}\u{200b}c é 😎 \u{1b}[2J\"\n"});
        let line = json_line(&v);
        assert_eq!(line, r#"{"t":"a\u009b31m\u009d0;x\u007f\u202eb\udb40\udc41\u200bc é 😎 \u001b[2J\"\n"}"#);
        assert!(
            !line
                .chars()
                .any(|c| !c.is_ascii() && (crate::content::is_unsafe_char(c) || crate::content::is_tag(c))),
            "{line:?}"
        );
        // What a script reads back is what the server sent.
        assert_eq!(serde_json::from_str::<serde_json::Value>(&line).unwrap(), v);
    }

    #[test]
    fn the_help_lists_every_status_once() {
        for (exit, text) in EXIT_STATUSES {
            let line = format!("  {}  {text}\n", exit.code());
            assert_eq!(EXIT_HELP.matches(&line).count(), 1, "{line}");
        }
        assert_eq!(Exit::Usage.code(), 2, "clap's own status for a wrong command line");
    }

    #[test]
    fn the_readme_lists_the_statuses() {
        let readme = include_str!("../../README.md");
        for (exit, text) in EXIT_STATUSES {
            assert!(
                readme.contains(&format!("| {} | {text} |", exit.code())),
                "README lacks status {exit:?}"
            );
        }
    }
}
