//! Accounts: where API keys live, and which account a run uses. `crate::login` asks how to log
//! in and ends in [`keep_account`], which keeps the key in the OS keyring (the `keyring` crate:
//! Keychain, Credential Manager or the Secret Service). Where no keyring is available (headless
//! machines, no D-Bus) the key goes to a zuliprc with mode 0600 in the config directory instead,
//! and login says so. `accounts.toml` beside it records each account's server, email and where
//! its key is; one account is the default, `--account NAME` picks another.
//!
//! The key is never printed, logged, put in a process argument or an error message: it travels
//! as an [`ApiKey`], whose `Debug` and `Display` show `<redacted>`.

use crate::api::{Credentials, zuliprc};
use anyhow::{Context as _, bail};
use keyring_core::CredentialStore;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The keyring service name under which keys are stored (the user is "EMAIL on SITE").
pub const KEYRING_SERVICE: &str = "topicterm";

/// An API key. Shows as `<redacted>`; [`ApiKey::expose`] is the only way to the text.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

// ------------------------------------------------------------------------------------------
// Reading a zuliprc safely
// ------------------------------------------------------------------------------------------

/// A path as a shell word (quoted when it needs to be), for commands we tell the user to run.
pub fn shell_word(path: &Path) -> String {
    let s = path.display().to_string();
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+@=:,~".contains(c)) {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Refuse a key file that other users can read (or write): the key in it would not be secret.
pub fn check_private(path: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            bail!(
                "{} holds an API key but other users can read it (mode {mode:04o}); refusing to use it.\n\
                 Make it private with:\n    chmod 600 {}",
                path.display(),
                shell_word(path)
            );
        }
    }
    Ok(())
}

/// Read a zuliprc, refusing one that others can read.
pub fn read_zuliprc(path: &Path) -> anyhow::Result<Credentials> {
    if !path.exists() {
        // Let the parser report the missing file in its usual words.
        return Ok(zuliprc::read(path)?);
    }
    check_private(path)?;
    Ok(zuliprc::read(path)?)
}

// ------------------------------------------------------------------------------------------
// accounts.toml
// ------------------------------------------------------------------------------------------

/// One account, as `accounts.toml` records it. The key itself is never in this file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Account {
    /// The server's URL, e.g. `https://chat.example.com`.
    pub site: String,
    pub email: String,
    /// The zuliprc (mode 0600) that holds the key; absent: the key is in the OS keyring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zuliprc: Option<PathBuf>,
    /// `insecure`, `cert_bundle`, `client_cert`, `client_cert_key`, as in a zuliprc.
    #[serde(flatten)]
    pub tls: crate::api::Tls,
}

impl Account {
    /// The keyring entry's user name.
    fn keyring_user(&self) -> String {
        format!("{} on {}", self.email, self.site)
    }

    /// Where the key is, as people read it.
    pub fn key_location(&self) -> String {
        match &self.zuliprc {
            Some(p) => format!("{} (mode 0600)", p.display()),
            None => "the OS keyring".into(),
        }
    }
}

/// The contents of `accounts.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accounts {
    /// The account used without `--account`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(default)]
    pub accounts: BTreeMap<String, Account>,
}

impl Accounts {
    /// The account to use: the named one, else the default, else the only one. `Ok(None)`:
    /// there are no accounts and none was named.
    pub fn choose(&self, name: Option<&str>) -> anyhow::Result<Option<(String, Account)>> {
        let names = || {
            if self.accounts.is_empty() {
                "there are no accounts yet".to_owned()
            } else {
                format!("the accounts are: {}", self.accounts.keys().cloned().collect::<Vec<_>>().join(", "))
            }
        };
        let pick = |n: &str| self.accounts.get(n).map(|a| (n.to_owned(), a.clone()));
        match name {
            Some(n) => match pick(n) {
                Some(a) => Ok(Some(a)),
                None => {
                    bail!("no account named {n:?}: {}.\nAdd it with: topicterm login --account {n}", names())
                }
            },
            None => {
                if let Some(a) = self.default.as_deref().and_then(pick) {
                    return Ok(Some(a));
                }
                match self.accounts.len() {
                    0 => Ok(None),
                    1 => Ok(self.accounts.iter().next().map(|(n, a)| (n.clone(), a.clone()))),
                    _ => bail!(
                        "several accounts and none is the default: choose one with --account NAME ({}), \
                         or make one the default with: topicterm login --account NAME --default",
                        names()
                    ),
                }
            }
        }
    }
}

/// Which keyring keys go to.
pub enum Keyring {
    /// The OS keyring (Keychain, Credential Manager or the Secret Service), connected on first use.
    Os(OnceLock<Result<Arc<CredentialStore>, String>>),
    /// This store (tests give keyring-core's mock), or none at all.
    Given(Option<Arc<CredentialStore>>),
}

impl Keyring {
    pub fn os() -> Keyring {
        Keyring::Os(OnceLock::new())
    }

    /// The store, or why there is none.
    fn store(&self) -> Result<Arc<CredentialStore>, String> {
        match self {
            Keyring::Given(Some(s)) => Ok(s.clone()),
            Keyring::Given(None) => Err("no keyring was given".into()),
            // The keyring crate picks the platform's store and makes it keyring-core's default.
            Keyring::Os(cell) => cell
                .get_or_init(|| match keyring::Entry::store_status() {
                    Ok(()) => keyring_core::get_default_store().ok_or_else(|| "no credential store".into()),
                    Err(e) => Err(e.to_string()),
                })
                .clone(),
        }
    }
}

/// Account metadata and key files in one directory (the XDG config directory), plus a keyring.
pub struct AccountStore {
    pub dir: PathBuf,
    pub keyring: Keyring,
}

impl AccountStore {
    pub fn new(dir: impl Into<PathBuf>, keyring: Keyring) -> AccountStore {
        AccountStore { dir: dir.into(), keyring }
    }

    /// `$XDG_CONFIG_HOME/topicterm` with the OS keyring.
    pub fn open_default() -> anyhow::Result<AccountStore> {
        let dir = crate::config::config_dir().context("cannot find your home directory")?;
        Ok(AccountStore::new(dir, Keyring::os()))
    }

    pub fn accounts_path(&self) -> PathBuf {
        self.dir.join("accounts.toml")
    }

    pub fn load(&self) -> anyhow::Result<Accounts> {
        let path = self.accounts_path();
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| {
                let at = e.span().map_or(String::new(), |s| {
                    format!(":{}", text.get(..s.start).unwrap_or("").matches('\n').count() + 1)
                });
                anyhow::anyhow!("{}{at}: {}", path.display(), e.message().trim())
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Accounts::default()),
            Err(e) => Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
        }
    }

    fn ensure_dir(&self) -> anyhow::Result<()> {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        b.create(&self.dir).with_context(|| format!("cannot create {}", self.dir.display()))
    }

    /// Write `accounts.toml` atomically.
    pub fn save(&self, accounts: &Accounts) -> anyhow::Result<()> {
        self.ensure_dir()?;
        let text = format!(
            "# topicterm accounts: written by `topicterm login`. API keys are not in this file.\n{}",
            toml::to_string_pretty(accounts).context("cannot write accounts")?
        );
        let path = self.accounts_path();
        crate::files::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// The fallback key file of an account.
    pub fn zuliprc_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.zuliprc"))
    }

    /// An account's key, from the keyring or its zuliprc.
    pub fn key(&self, name: &str, account: &Account) -> anyhow::Result<ApiKey> {
        if let Some(path) = &account.zuliprc {
            return Ok(ApiKey::new(read_zuliprc(path)?.api_key));
        }
        let relogin = format!("topicterm login --account {name}");
        let store = self.keyring.store().map_err(|why| {
            anyhow::anyhow!(
                "the API key of account {name:?} is in the OS keyring, which is not available here ({why}).\n\
                 Log in again to keep it in a file instead: {relogin} --no-keyring"
            )
        })?;
        let entry = store
            .build(KEYRING_SERVICE, &account.keyring_user(), None)
            .map_err(|e| anyhow::anyhow!("cannot use the keyring: {e}"))?;
        match entry.get_password() {
            Ok(k) => Ok(ApiKey::new(k)),
            Err(keyring_core::Error::NoEntry) => {
                bail!("the keyring has no API key for account {name:?}; log in again: {relogin}")
            }
            Err(e) => bail!("cannot read the API key of account {name:?} from the keyring: {e}"),
        }
    }

    /// The credentials of the account to use (see [`Accounts::choose`]); `Ok(None)` when
    /// there are no accounts and none was named.
    pub fn credentials(&self, name: Option<&str>) -> anyhow::Result<Option<(String, Credentials)>> {
        let Some((name, account)) = self.load()?.choose(name)? else { return Ok(None) };
        let creds = self.credentials_of(&name, &account)?;
        Ok(Some((name, creds)))
    }

    /// The credentials of every account, the default one first (the rest by name): the
    /// organizations one window opens. Empty when there are no accounts.
    pub fn all_credentials(&self) -> anyhow::Result<Vec<(String, Credentials)>> {
        let accounts = self.load()?;
        let mut names: Vec<&String> = accounts.accounts.keys().collect();
        names.sort_by_key(|n| accounts.default.as_ref() != Some(*n));
        names.into_iter().map(|n| Ok((n.clone(), self.credentials_of(n, &accounts.accounts[n])?))).collect()
    }

    fn credentials_of(&self, name: &str, account: &Account) -> anyhow::Result<Credentials> {
        let key = self.key(name, account)?;
        Ok(Credentials {
            site: account.site.clone(),
            email: account.email.clone(),
            api_key: key.0,
            tls: account.tls.clone(),
        })
    }

    /// Forget an account: its key (keyring entry or file) and its entry in `accounts.toml`.
    pub fn remove(&self, name: Option<&str>) -> anyhow::Result<(String, Account)> {
        let mut accounts = self.load()?;
        let Some((name, account)) = accounts.choose(name)? else { bail!("there are no accounts") };
        match &account.zuliprc {
            Some(path) => match std::fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => bail!("cannot delete {}: {e}", path.display()),
            },
            None => {
                if let Ok(store) = self.keyring.store() {
                    let entry = store.build(KEYRING_SERVICE, &account.keyring_user(), None)?;
                    match entry.delete_credential() {
                        Ok(()) | Err(keyring_core::Error::NoEntry) => {}
                        Err(e) => bail!("cannot delete the API key from the keyring: {e}"),
                    }
                }
            }
        }
        accounts.accounts.remove(&name);
        if accounts.default.as_deref() == Some(name.as_str()) {
            accounts.default = None;
        }
        if accounts.default.is_none() && accounts.accounts.len() == 1 {
            accounts.default = accounts.accounts.keys().next().cloned();
        }
        self.save(&accounts)?;
        Ok((name, account))
    }
}

// ------------------------------------------------------------------------------------------
// Login
// ------------------------------------------------------------------------------------------

/// Where login's questions go and answers come from.
pub trait Prompter {
    /// Ask for a line of text (shown as typed).
    fn ask(&mut self, question: &str) -> std::io::Result<String>;
    /// Ask for a secret (not shown).
    fn ask_secret(&mut self, question: &str) -> std::io::Result<String>;
    /// Tell the user something.
    fn say(&mut self, text: &str) -> std::io::Result<()>;
}

/// Questions to a writer, answers (secrets included) as lines from a reader: pipes and tests.
pub struct LinePrompter<R, W> {
    pub input: R,
    pub output: W,
}

impl<R: BufRead, W: Write> LinePrompter<R, W> {
    fn line(&mut self) -> std::io::Result<String> {
        let mut s = String::new();
        if self.input.read_line(&mut s)? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no more input"));
        }
        Ok(s.trim_end_matches(['\n', '\r']).to_owned())
    }
}

impl<R: BufRead, W: Write> Prompter for LinePrompter<R, W> {
    fn ask(&mut self, question: &str) -> std::io::Result<String> {
        write!(self.output, "{question}")?;
        self.output.flush()?;
        self.line()
    }
    fn ask_secret(&mut self, question: &str) -> std::io::Result<String> {
        self.ask(question)
    }
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.output, "{text}")
    }
}

/// The terminal: questions on stderr, answers from stdin; secrets without echo (read from the
/// terminal itself) when stdin is a terminal, else as a line from stdin (`… | topicterm login`).
pub struct TerminalPrompter;

impl Prompter for TerminalPrompter {
    fn ask(&mut self, question: &str) -> std::io::Result<String> {
        let stdin = std::io::stdin();
        LinePrompter { input: stdin.lock(), output: std::io::stderr() }.ask(question)
    }
    fn ask_secret(&mut self, question: &str) -> std::io::Result<String> {
        use std::io::IsTerminal;
        if std::io::stdin().is_terminal() { rpassword::prompt_password(question) } else { self.ask(question) }
    }
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(std::io::stderr(), "{text}")
    }
}

/// How to log in.
#[derive(Debug, Clone, Default)]
pub struct LoginOptions {
    /// The account's name (default: from the server's host name).
    pub account: Option<String>,
    /// Make it the default account (the first account always is).
    pub make_default: bool,
    /// Keep the key in a zuliprc even where a keyring exists.
    pub no_keyring: bool,
    /// How the server is trusted (kept with the account).
    pub tls: crate::api::Tls,
    /// The user's browser (`$BROWSER`): a single sign-on's address is opened with it as well as
    /// printed. `None`: only printed.
    pub browser: Option<String>,
}

/// What login did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginOutcome {
    pub name: String,
    pub account: Account,
    pub is_default: bool,
}

/// Account names: letters, digits, `.`, `_`, `-` (they name files).
pub fn valid_account_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

/// An account name from a server URL: its host, and port when there is one (the name an
/// account gets when the user gives none).
pub fn name_from_site(site: &str) -> String {
    let url = url::Url::parse(site).ok();
    let host = url.as_ref().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_else(|| "zulip".into());
    let name = match url.and_then(|u| u.port()) {
        Some(p) => format!("{host}-{p}"),
        None => host,
    };
    name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect()
}

/// `chat.example.com` → `https://chat.example.com`; no trailing slash.
pub fn normalize_site(input: &str) -> String {
    let s = input.trim().trim_end_matches('/');
    if s.contains("://") { s.to_owned() } else { format!("https://{s}") }
}

/// Keep a logged-in account: its key in the OS keyring (or, without one, a private zuliprc),
/// the account in `accounts.toml` (the default when it is the first or `make_default`). What
/// every way of logging in ends with (`crate::login`).
pub fn keep_account(
    store: &AccountStore,
    prompter: &mut dyn Prompter,
    opts: &LoginOptions,
    site: &str,
    email: &str,
    key: ApiKey,
) -> anyhow::Result<LoginOutcome> {
    if let Some(n) = &opts.account
        && !valid_account_name(n)
    {
        bail!("{n:?} cannot be an account name: use letters, digits, '.', '_' and '-'");
    }
    let mut accounts = store.load()?;
    let (site, email) = (site.to_owned(), email.to_owned());
    // Where the key goes.
    let name = opts.account.clone().unwrap_or_else(|| name_from_site(&site));
    let mut account =
        Account { site: site.clone(), email: email.clone(), zuliprc: None, tls: opts.tls.clone() };
    let keyring_result = if opts.no_keyring {
        Err("--no-keyring".to_owned())
    } else {
        store.keyring.store().and_then(|s| {
            let entry = s.build(KEYRING_SERVICE, &account.keyring_user(), None).map_err(|e| e.to_string())?;
            entry.set_password(key.expose()).map_err(|e| e.to_string())
        })
    };
    // A key from an earlier login of this account must not linger in a file.
    let old_file = accounts.accounts.get(&name).and_then(|a| a.zuliprc.clone());
    match keyring_result {
        Ok(()) => {
            prompter.say("The API key is in the OS keyring.")?;
            if let Some(old) = old_file {
                let _ = std::fs::remove_file(old);
            }
        }
        Err(why) => {
            store.ensure_dir()?;
            let path = store.zuliprc_path(&name);
            let creds = Credentials {
                site: site.clone(),
                email: email.clone(),
                api_key: key.expose().to_owned(),
                tls: opts.tls.clone(),
            };
            zuliprc::write(&path, &creds).with_context(|| format!("cannot write {}", path.display()))?;
            check_private(&path)?;
            if opts.no_keyring {
                prompter.say(&format!("The API key is in {} (mode 0600).", path.display()))?;
            } else {
                prompter.say(&format!(
                    "No OS keyring is available here ({why}): the API key is in {} instead (mode 0600, \
                     readable by you only).",
                    path.display()
                ))?;
            }
            account.zuliprc = Some(path);
        }
    }
    accounts.accounts.insert(name.clone(), account.clone());
    if opts.make_default || accounts.default.is_none() || accounts.accounts.len() == 1 {
        accounts.default = Some(name.clone());
    }
    store.save(&accounts)?;
    let is_default = accounts.default.as_deref() == Some(name.as_str());
    let how = if is_default { "topicterm".to_owned() } else { format!("topicterm --account {name}") };
    prompter.say(&format!("Logged in as {email} on {site}: account {name:?}. Start with: {how}"))?;
    Ok(LoginOutcome { name, account, is_default })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_never_shows() {
        let k = ApiKey::new("SECRET-KEY");
        assert_eq!(format!("{k}"), "<redacted>");
        assert!(!format!("{k:?}").contains("SECRET"));
        assert!(!format!("{:?}", Some(k.clone())).contains("SECRET"));
        assert_eq!(k.expose(), "SECRET-KEY");
    }

    #[test]
    fn names_and_sites() {
        assert_eq!(normalize_site(" chat.example.com/ "), "https://chat.example.com");
        assert_eq!(normalize_site("http://127.0.0.1:9991"), "http://127.0.0.1:9991");
        assert_eq!(name_from_site("https://chat.example.com"), "chat.example.com");
        assert_eq!(name_from_site("http://127.0.0.1:9991"), "127.0.0.1-9991");
        assert!(valid_account_name("work-2.x_y"));
        for bad in ["", "a/b", "..x y", "é"] {
            assert!(!valid_account_name(bad), "{bad}");
        }
        assert_eq!(shell_word(Path::new("/home/me/.zuliprc")), "/home/me/.zuliprc");
        assert_eq!(shell_word(Path::new("/tmp/my rc")), "'/tmp/my rc'");
        assert_eq!(shell_word(Path::new("/tmp/it's")), r"'/tmp/it'\''s'");
    }

    #[test]
    fn choosing_an_account() {
        let a = |s: &str| Account {
            site: format!("https://{s}"),
            email: "me@x".into(),
            zuliprc: None,
            tls: Default::default(),
        };
        let mut acc = Accounts::default();
        assert_eq!(acc.choose(None).unwrap(), None);
        let e = acc.choose(Some("work")).unwrap_err().to_string();
        assert!(
            e.contains("no account named \"work\"") && e.contains("topicterm login --account work"),
            "{e}"
        );
        acc.accounts.insert("work".into(), a("work"));
        assert_eq!(acc.choose(None).unwrap().unwrap().0, "work", "the only one");
        acc.accounts.insert("home".into(), a("home"));
        let e = acc.choose(None).unwrap_err().to_string();
        assert!(e.contains("--account") && e.contains("home, work"), "{e}");
        acc.default = Some("home".into());
        assert_eq!(acc.choose(None).unwrap().unwrap().0, "home");
        assert_eq!(acc.choose(Some("work")).unwrap().unwrap().0, "work");
    }

    #[test]
    fn an_account_takes_the_zuliprc_tls_options_by_the_same_names() {
        let text = "[accounts.work]\nsite = \"https://chat.internal\"\nemail = \"me@x\"\n\
                    cert_bundle = \"/etc/ca.pem\"\ninsecure = false\n";
        let acc: Accounts = toml::from_str(text).unwrap();
        let work = &acc.accounts["work"];
        assert_eq!(work.tls.cert_bundle.as_deref(), Some(std::path::Path::new("/etc/ca.pem")));
        assert!(!work.tls.insecure);
        let again: Accounts = toml::from_str(&toml::to_string(&acc).unwrap()).unwrap();
        assert_eq!(again.accounts["work"].tls, work.tls, "written back the same");
    }

    #[cfg(unix)]
    #[test]
    fn a_readable_zuliprc_is_refused_with_the_chmod_to_fix_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("my rc");
        let creds = Credentials {
            site: "http://x".into(),
            email: "a@b".into(),
            api_key: "SECRET".into(),
            tls: Default::default(),
        };
        zuliprc::write(&path, &creds).unwrap();
        assert_eq!(read_zuliprc(&path).unwrap(), creds);
        for mode in [0o644, 0o640, 0o604, 0o660] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            let e = read_zuliprc(&path).unwrap_err().to_string();
            assert!(e.contains(&format!("mode {mode:04o}")), "{e}");
            assert!(e.contains(&format!("chmod 600 '{}'", path.display())), "{e}");
            assert!(!e.contains("SECRET"));
        }
    }
}
