//! `topicterm login`: every way the user's organization lets them in, from a terminal.
//!
//! It asks for the server URL, reads its methods (`GET /server_settings`) and offers what it
//! has: email (or, on an LDAP organization, username) and password (`POST /fetch_api_key`), and
//! each single sign-on method ("Log in with GitHub", "Log in with Demo SSO", …) by the reference
//! server's desktop flow (`api::desktop_login`): a one-time key, the method's sign-in page opened
//! in any browser (on this machine or another; with `$BROWSER` where it is set), the token that page shows pasted back here,
//! decrypted and redeemed once within 15 s for the API key. Where the organization also takes
//! passwords the server gives a signed-in session's key only with the password, so login says so
//! before the browser step and asks for it after. `--zuliprc FILE` imports a zuliprc downloaded
//! from the web app instead. Every way ends in `account::keep_account`.
//!
//! The server's words (its name, a method's name, its refusals) are untrusted: they reach the
//! terminal only through `content::text::sanitize`.

use crate::account::{
    AccountStore, ApiKey, LoginOptions, LoginOutcome, Prompter, keep_account, normalize_site, read_zuliprc,
};
use crate::api::desktop_login::{DesktopKey, ExternalAuthMethod, RedeemError, TokenError};
use crate::api::{ApiError, Client, ServerSettings};
use crate::content::text::sanitize;
use anyhow::bail;
use std::path::Path;

/// How many times a question is asked before login gives up.
const ATTEMPTS: usize = 3;

/// One way to log in that the server offers.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Method {
    /// Email (or username) and password.
    Password,
    /// A single sign-on method, by the desktop flow.
    External(ExternalAuthMethod),
}

impl Method {
    fn words(&self, username_kind: &str) -> String {
        match self {
            Method::Password => format!("{username_kind} and password"),
            Method::External(m) => format!("Log in with {}", sanitize(&m.display_name)),
        }
    }
}

/// The methods `server_settings` offers that this client can use, passwords first.
fn methods(settings: &ServerSettings) -> Vec<Method> {
    let mut all = vec![];
    if settings.passwords() {
        all.push(Method::Password);
    }
    all.extend(settings.external_methods().into_iter().map(Method::External));
    all
}

/// Log in interactively and keep the key. Secrets never reach `prompter.say` or the error.
pub async fn login(
    store: &AccountStore,
    prompter: &mut dyn Prompter,
    opts: &LoginOptions,
) -> anyhow::Result<LoginOutcome> {
    if let Some(n) = &opts.account
        && !crate::account::valid_account_name(n)
    {
        bail!("{n:?} cannot be an account name: use letters, digits, '.', '_' and '-'");
    }
    let (site, settings) = ask_server(prompter, opts).await?;
    let username_kind =
        if settings.require_email_format_usernames == Some(false) { "Username" } else { "Email" };
    let offered = methods(&settings);
    let method = match offered.as_slice() {
        [] => bail!(
            "{site} offers no way to log in that topicterm can use. Download a zuliprc from the web app \
             (Personal settings → Account & privacy → API key) and import it with: topicterm login --zuliprc PATH"
        ),
        [one] => one.clone(),
        many => choose(prompter, many, username_kind)?,
    };
    let (email, key) = match method {
        Method::Password => with_password(prompter, &site, opts, username_kind).await?,
        Method::External(m) => with_sign_on(prompter, &site, opts, &m, settings.passwords()).await?,
    };
    keep_account(store, prompter, opts, &site, &email, key)
}

/// The server: asked until one answers as a Zulip server.
async fn ask_server(
    prompter: &mut dyn Prompter,
    opts: &LoginOptions,
) -> anyhow::Result<(String, ServerSettings)> {
    for _ in 0..ATTEMPTS {
        let answer = prompter.ask("Server URL (e.g. https://chat.example.com): ")?;
        if answer.trim().is_empty() {
            continue;
        }
        let site = normalize_site(&answer);
        let settings = match Client::anonymous(&site, &opts.tls) {
            Ok(c) => c.server_settings().await,
            Err(e) => Err(e),
        };
        match settings {
            Ok(s) => {
                let realm = sanitize(s.realm_name.as_deref().unwrap_or(&site));
                prompter.say(&format!(
                    "{realm}: Zulip {} (feature level {})",
                    sanitize(&s.zulip_version),
                    s.zulip_feature_level
                ))?;
                return Ok((site, s));
            }
            Err(e) => prompter.say(&format!(
                "{} does not answer as a Zulip server: {}",
                sanitize(&site),
                crate::app::why(&e)
            ))?,
        }
    }
    bail!("no server; nothing was changed")
}

/// Which method, when the server offers several.
fn choose(prompter: &mut dyn Prompter, offered: &[Method], username_kind: &str) -> anyhow::Result<Method> {
    let mut menu = String::from("How do you log in?");
    for (i, m) in offered.iter().enumerate() {
        menu.push_str(&format!("\n  {}. {}", i + 1, m.words(username_kind)));
    }
    prompter.say(&menu)?;
    for _ in 0..ATTEMPTS {
        let answer = prompter.ask(&format!("Choose 1–{}: ", offered.len()))?;
        match answer.trim().parse::<usize>() {
            Ok(n) if (1..=offered.len()).contains(&n) => return Ok(offered[n - 1].clone()),
            _ => prompter.say(&format!("Type a number from 1 to {}.", offered.len()))?,
        }
    }
    bail!("no login method chosen; nothing was changed")
}

/// Email (or username) and password: `POST /fetch_api_key`.
async fn with_password(
    prompter: &mut dyn Prompter,
    site: &str,
    opts: &LoginOptions,
    username_kind: &str,
) -> anyhow::Result<(String, ApiKey)> {
    let client = Client::anonymous(site, &opts.tls)?;
    for _ in 0..ATTEMPTS {
        let email = prompter.ask(&format!("{username_kind}: "))?.trim().to_owned();
        if email.is_empty() {
            continue;
        }
        let password = prompter.ask_secret("Password: ")?;
        match client.fetch_api_key(&email, &password).await {
            Ok(r) => return Ok((r.email.clone(), ApiKey::new(r.api_key))),
            Err(ApiError::Server(e)) if matches!(e.status, 401 | 403) => {
                prompter.say(&format!("Not accepted: {}", sanitize(&e.msg)))?;
            }
            Err(e) => bail!("cannot log in to {}: {}", sanitize(site), crate::app::why(&e)),
        }
    }
    bail!("not logged in; nothing was changed")
}

/// Single sign-on by the desktop flow. A wrong paste is asked again; a token the server refuses
/// (used, or older than 15 s) or one made for another login starts again with a new key.
async fn with_sign_on(
    prompter: &mut dyn Prompter,
    site: &str,
    opts: &LoginOptions,
    method: &ExternalAuthMethod,
    passwords_too: bool,
) -> anyhow::Result<(String, ApiKey)> {
    let name = sanitize(&method.display_name);
    let client = Client::anonymous(site, &opts.tls)?;
    if passwords_too {
        prompter.say(
            "This organization also takes passwords: after you sign in, it gives topicterm the API key only \
             with your Zulip password. Without one, download a zuliprc from the web app (Personal settings → \
             Account & privacy → API key) and run: topicterm login --zuliprc PATH",
        )?;
    }
    for _ in 0..ATTEMPTS {
        let key = DesktopKey::new()
            .map_err(|_| anyhow::anyhow!("the system gave no random numbers for a login key"))?;
        let url = key.login_url(site, method).map_err(|e| anyhow::anyhow!(sanitize(&e)))?;
        prompter.say(&format!(
            "Open this address in a browser (on any machine) and log in with {name}:\n  {url}\n\
             The page then shows a login token: copy it, come back here and paste it at once (it works for 15 seconds)."
        ))?;
        if let Some(browser) = &opts.browser {
            match crate::net::in_browser(browser, &url).await {
                Ok(()) => prompter.say("(It is open in your browser, $BROWSER.)")?,
                Err(e) => prompter.say(&format!(
                    "($BROWSER could not open it: {}; open it by hand.)",
                    sanitize(&e.words())
                ))?,
            }
        }
        let Some(token) = ask_token(prompter, &key)? else { continue };
        let password = if passwords_too { Some(prompter.ask_secret("Your Zulip password: ")?) } else { None };
        match client.redeem_login_token(&token, password.as_deref()).await {
            Ok(r) => return Ok((r.email.clone(), ApiKey::new(r.api_key))),
            Err(RedeemError::Refused) => prompter.say(
                "The server refused the token: a token works once, within 15 seconds of signing in. Starting again.",
            )?,
            Err(RedeemError::NeedsPassword(why)) => {
                prompter.say(&format!("Not accepted: {} Starting again.", sanitize(why.trim())))?
            }
            Err(RedeemError::Api(e)) => bail!("cannot log in to {}: {}", sanitize(site), crate::app::why(&e)),
        }
    }
    bail!("not logged in; nothing was changed")
}

/// The pasted token, decrypted: `None` when it was made for another login (start again).
fn ask_token(prompter: &mut dyn Prompter, key: &DesktopKey) -> anyhow::Result<Option<String>> {
    for _ in 0..ATTEMPTS {
        let pasted = prompter.ask("Login token: ")?;
        if pasted.trim().is_empty() {
            continue;
        }
        match key.decrypt(&pasted) {
            Ok(token) => return Ok(Some(token)),
            Err(e @ TokenError::NotHex) => prompter.say(&format!("{e}; paste it again."))?,
            Err(e @ TokenError::NotForThisLogin) => {
                prompter.say(&format!("{e}."))?;
                return Ok(None);
            }
        }
    }
    bail!("no login token; nothing was changed")
}

/// `topicterm login --zuliprc FILE`: a zuliprc downloaded from the web app becomes an account
/// (its key to the keyring), once the server has taken its key.
pub async fn import_zuliprc(
    store: &AccountStore,
    prompter: &mut dyn Prompter,
    opts: &LoginOptions,
    path: &Path,
) -> anyhow::Result<LoginOutcome> {
    let mut creds = read_zuliprc(path)?;
    if creds.tls == crate::api::Tls::default() {
        creds.tls = opts.tls.clone();
    }
    let me = match Client::new(&creds) {
        Ok(c) => c.get_own_user().await,
        Err(e) => Err(e),
    };
    let me = match me {
        Ok(me) => me,
        Err(e) => {
            bail!("{} was not accepted by {}: {}", path.display(), sanitize(&creds.site), crate::app::why(&e))
        }
    };
    prompter.say(&format!("{} takes this key: {}.", creds.site, sanitize(&me.full_name)))?;
    let opts = LoginOptions { tls: creds.tls.clone(), ..opts.clone() };
    keep_account(store, prompter, &opts, &creds.site, &creds.email, ApiKey::new(creds.api_key.clone()))
}
