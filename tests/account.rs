//! `topicterm login` against the real demo server over loopback: the key goes to a keyring
//! (keyring-core's mock store standing in for the Secret Service) or, without one, to a private
//! zuliprc; the key never shows in what login prints or in its errors.

use std::io::Cursor;
use std::sync::Arc;
use topicterm::account::{AccountStore, Keyring, LinePrompter, LoginOptions, read_zuliprc};
use topicterm::api::Client;
use topicterm::login::login;
use topicterm::server::{DemoServer, ServerOptions, org::DEMO_PASSWORD};

struct Env {
    server: DemoServer,
    dir: tempfile::TempDir,
}

async fn env() -> Env {
    let server = DemoServer::start(ServerOptions::default()).await.expect("demo server");
    Env { server, dir: tempfile::tempdir().unwrap() }
}

impl Env {
    fn email(&self, who: &str) -> String {
        self.server.credentials(who).expect("seeded user").email
    }
    fn key(&self, who: &str) -> String {
        self.server.credentials(who).expect("seeded user").api_key
    }
    fn store(&self, keyring: Keyring) -> AccountStore {
        AccountStore::new(self.dir.path().join("config"), keyring)
    }
}

fn mock_keyring() -> (Keyring, Arc<keyring_core::CredentialStore>) {
    let store: Arc<keyring_core::CredentialStore> = keyring_core::mock::Store::new().unwrap();
    (Keyring::Given(Some(store.clone())), store)
}

/// Run login with scripted answers; returns the result and everything it printed.
async fn run_login(
    store: &AccountStore,
    answers: &[&str],
    opts: &LoginOptions,
) -> (anyhow::Result<topicterm::account::LoginOutcome>, String) {
    let input = Cursor::new(answers.iter().map(|a| format!("{a}\n")).collect::<String>());
    let mut p = LinePrompter { input, output: Vec::new() };
    let result = login(store, &mut p, opts).await;
    (result, String::from_utf8(p.output).unwrap())
}

#[tokio::test]
async fn login_puts_the_key_in_the_keyring_and_the_account_works() {
    let env = env().await;
    let (keyring, mock) = mock_keyring();
    let store = env.store(keyring);
    let email = env.email("alice");
    let site = env.server.url.clone();
    let (result, printed) =
        run_login(&store, &[&site, &email, DEMO_PASSWORD], &LoginOptions::default()).await;
    let outcome = result.unwrap();
    assert!(outcome.is_default, "the first account is the default");
    assert_eq!(outcome.account.zuliprc, None, "the key is not in a file");
    assert!(printed.contains("The API key is in the OS keyring."), "{printed}");
    assert!(printed.contains(&format!("Logged in as {email} on {site}")), "{printed}");
    assert!(printed.contains("Password: "), "{printed}");

    // The key is in the keyring under the service name, and nowhere in the config directory.
    let key = env.key("alice");
    let entry = mock.build("topicterm", &format!("{email} on {site}"), None).unwrap();
    assert_eq!(entry.get_password().unwrap(), key);
    for f in std::fs::read_dir(&store.dir).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        assert!(!text.contains(&key), "the key leaked into {text}");
    }
    assert!(!printed.contains(&key) && !printed.contains(DEMO_PASSWORD), "{printed}");

    // Starting without --account uses it, and the server accepts the credentials.
    let (name, creds) = store.credentials(None).unwrap().unwrap();
    assert_eq!(name, outcome.name);
    assert_eq!(creds.email, email);
    assert!(!format!("{creds:?}").contains(&key));
    let client = Client::new(&creds).unwrap();
    let reg = client.register(&Default::default()).await.expect("the stored key works");
    assert!(reg.queue_id.is_some());

    // Logging out deletes the keyring entry and the account.
    store.remove(None).unwrap();
    assert!(matches!(entry.get_password(), Err(keyring_core::Error::NoEntry)));
    assert_eq!(store.credentials(None).unwrap(), None);
}

#[tokio::test]
async fn without_a_keyring_the_key_goes_to_a_private_zuliprc_and_login_says_so() {
    let env = env().await;
    let store = env.store(Keyring::Given(None));
    let email = env.email("bob");
    let site = env.server.url.clone();
    let (result, printed) = run_login(
        &store,
        &[&site, &email, DEMO_PASSWORD],
        &LoginOptions { account: Some("work".into()), ..Default::default() },
    )
    .await;
    let outcome = result.unwrap();
    assert_eq!(outcome.name, "work");
    let path = outcome.account.zuliprc.clone().expect("a key file");
    assert_eq!(path, store.dir.join("work.zuliprc"));
    assert!(printed.contains("No OS keyring is available here"), "{printed}");
    assert!(printed.contains(&path.display().to_string()) && printed.contains("0600"), "{printed}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dir_mode = std::fs::metadata(&store.dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(dir_mode, 0o700);
    }
    let key = env.key("bob");
    assert_eq!(read_zuliprc(&path).unwrap().api_key, key);
    assert!(!printed.contains(&key), "{printed}");
    let accounts = std::fs::read_to_string(store.accounts_path()).unwrap();
    assert!(accounts.contains("[accounts.work]") && !accounts.contains(&key), "{accounts}");

    let (_, creds) = store.credentials(Some("work")).unwrap().unwrap();
    Client::new(&creds).unwrap().register(&Default::default()).await.expect("the stored key works");

    // --no-keyring keeps it in a file even where a keyring exists; a second account is not
    // the default unless asked.
    let (keyring, mock) = mock_keyring();
    let store = AccountStore::new(store.dir.clone(), keyring);
    let carol = env.email("carol");
    let opts = LoginOptions { account: Some("carol".into()), no_keyring: true, ..Default::default() };
    let (result, printed) = run_login(&store, &[&site, &carol, DEMO_PASSWORD], &opts).await;
    let outcome = result.unwrap();
    assert!(!outcome.is_default);
    assert!(outcome.account.zuliprc.is_some());
    assert!(!printed.contains("No OS keyring"), "{printed}");
    assert!(printed.contains("Start with: topicterm --account carol"), "{printed}");
    assert!(mock.build("topicterm", &format!("{carol} on {site}"), None).unwrap().get_password().is_err());
    assert_eq!(store.credentials(None).unwrap().unwrap().0, "work", "still the default");
    assert_eq!(store.credentials(Some("carol")).unwrap().unwrap().1.email, carol);
}

#[tokio::test]
async fn wrong_answers_are_asked_again_and_never_echoed() {
    let env = env().await;
    let (keyring, _) = mock_keyring();
    let store = env.store(keyring);
    let email = env.email("dave");
    let site = env.server.url.clone();
    // A server that is not there, then the real one; a wrong password, then the right one.
    let answers = ["http://127.0.0.1:9", &site, &email, "not-the-password", &email, DEMO_PASSWORD];
    let (result, printed) = run_login(&store, &answers, &LoginOptions::default()).await;
    result.unwrap();
    // In the user's words: what happened, not the HTTP library's text.
    assert!(
        printed.contains("http://127.0.0.1:9 does not answer as a Zulip server: server unreachable"),
        "{printed}"
    );
    assert!(!printed.contains("network error") && !printed.contains("error sending request"), "{printed}");
    assert!(printed.contains("Not accepted: "), "{printed}");
    assert!(!printed.contains("not-the-password") && !printed.contains(DEMO_PASSWORD), "{printed}");

    // Three wrong passwords: nothing is stored, and the error holds no secret.
    let store = AccountStore::new(env.dir.path().join("other"), Keyring::Given(None));
    let answers = [site.as_str(), &email, "x1", &email, "x2", &email, "x3"];
    let (result, printed) = run_login(&store, &answers, &LoginOptions::default()).await;
    let e = format!("{:?}", result.unwrap_err());
    assert!(e.contains("not logged in; nothing was changed"), "{e}");
    assert!(!e.contains("x3") && !printed.contains("x3"));
    assert!(!store.accounts_path().exists());

    // Input that runs out is an error, not a hang or a panic.
    let (result, _) = run_login(&store, &[site.as_str()], &LoginOptions::default()).await;
    assert!(result.is_err());
    // A bad account name is refused before anything is asked.
    let opts = LoginOptions { account: Some("../x".into()), ..Default::default() };
    let (result, printed) = run_login(&store, &[], &opts).await;
    assert!(result.unwrap_err().to_string().contains("cannot be an account name"));
    assert_eq!(printed, "");
}

#[tokio::test]
async fn a_missing_keyring_entry_or_keyring_is_explained() {
    let env = env().await;
    let (keyring, mock) = mock_keyring();
    let store = env.store(keyring);
    let email = env.email("erin");
    let site = env.server.url.clone();
    let opts = LoginOptions { account: Some("erin".into()), ..Default::default() };
    run_login(&store, &[&site, &email, DEMO_PASSWORD], &opts).await.0.unwrap();
    // Someone deleted the key from the keyring.
    mock.build("topicterm", &format!("{email} on {site}"), None).unwrap().delete_credential().unwrap();
    let e = store.credentials(None).unwrap_err().to_string();
    assert!(
        e.contains("no API key for account \"erin\"") && e.contains("topicterm login --account erin"),
        "{e}"
    );
    // The account's key is in a keyring this machine does not have.
    let store = AccountStore::new(store.dir.clone(), Keyring::Given(None));
    let e = store.credentials(Some("erin")).unwrap_err().to_string();
    assert!(e.contains("not available here") && e.contains("--no-keyring"), "{e}");
}

#[tokio::test]
async fn login_to_a_self_signed_server_needs_its_certificate_and_keeps_it_with_the_account() {
    let server =
        DemoServer::start(ServerOptions { tls: true, ..Default::default() }).await.expect("demo server");
    let env = Env { server, dir: tempfile::tempdir().unwrap() };
    let store = env.store(Keyring::Given(None));
    let (site, email) = (env.server.url.clone(), env.email("bob"));
    let answers = [site.as_str(), email.as_str(), DEMO_PASSWORD];

    // Without the certificate: refused, saying what to do.
    let (result, printed) = run_login(&store, &answers, &LoginOptions::default()).await;
    let why = format!("{:#} {printed}", result.expect_err("an untrusted certificate"));
    assert!(why.contains("certificate") && why.contains("cert_bundle"), "{why}");

    // With it: logged in, and the account remembers whom it trusts.
    let bundle = env.dir.path().join("ca.pem");
    std::fs::write(&bundle, env.server.cert_pem.as_ref().unwrap()).unwrap();
    let tls = topicterm::api::Tls { cert_bundle: Some(bundle.clone()), ..Default::default() };
    let opts = LoginOptions { account: Some("tls".into()), tls, ..Default::default() };
    let (result, printed) = run_login(&store, &answers, &opts).await;
    result.unwrap_or_else(|e| panic!("{e:#}\n{printed}"));
    let (_, creds) = store.credentials(Some("tls")).unwrap().unwrap();
    assert_eq!(creds.tls.cert_bundle, Some(bundle));
    Client::new(&creds).unwrap().register(&Default::default()).await.expect("the account works over HTTPS");
}

// ------------------------------------------------------------------------------------------
// Every way to log in (issue 53): single sign-on by the desktop flow, passwords and SSO both,
// LDAP usernames, an imported zuliprc — each against the demo server over real HTTP.
// ------------------------------------------------------------------------------------------

#[path = "support/browser.rs"]
mod browser;

use std::collections::VecDeque;
use topicterm::account::Prompter;
use topicterm::server::logins::AuthMode;

/// A person at the terminal with a browser: login's questions are answered from a script, and
/// "Login token: " by `token` given the last sign-in address login printed.
struct Person<F: FnMut(&str) -> String> {
    answers: VecDeque<String>,
    printed: String,
    token: F,
}

impl<F: FnMut(&str) -> String> Prompter for Person<F> {
    fn ask(&mut self, question: &str) -> std::io::Result<String> {
        self.printed.push_str(question);
        self.printed.push('\n');
        if question.starts_with("Login token") {
            let url =
                browser::address_in(&self.printed).expect("an address was printed before the token is asked");
            return Ok((self.token)(&url));
        }
        self.answers
            .pop_front()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no more input"))
    }
    fn ask_secret(&mut self, question: &str) -> std::io::Result<String> {
        self.ask(question)
    }
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        self.printed.push_str(text);
        self.printed.push('\n');
        Ok(())
    }
}

/// Run a future to its end from inside a prompter's (blocking) answer.
fn block<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(f))
}

async fn env_with(auth: AuthMode) -> Env {
    let server = DemoServer::start(ServerOptions { auth, ..Default::default() }).await.expect("demo server");
    Env { server, dir: tempfile::tempdir().unwrap() }
}

async fn login_as<F: FnMut(&str) -> String>(
    store: &AccountStore,
    answers: &[&str],
    token: F,
) -> (anyhow::Result<topicterm::account::LoginOutcome>, String) {
    login_with(store, answers, &LoginOptions::default(), token).await
}

async fn login_with<F: FnMut(&str) -> String>(
    store: &AccountStore,
    answers: &[&str],
    opts: &LoginOptions,
    token: F,
) -> (anyhow::Result<topicterm::account::LoginOutcome>, String) {
    let mut p =
        Person { answers: answers.iter().map(|s| s.to_string()).collect(), printed: String::new(), token };
    let r = login(store, &mut p, opts).await;
    (r, p.printed)
}

fn keyring_key(mock: &Arc<keyring_core::CredentialStore>, email: &str, site: &str) -> String {
    mock.build(topicterm::account::KEYRING_SERVICE, &format!("{email} on {site}"), None)
        .unwrap()
        .get_password()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organization_with_only_single_sign_on_logs_in_through_the_browser() {
    let env = env_with(AuthMode::Sso).await;
    let (keyring, mock) = mock_keyring();
    let store = env.store(keyring);
    let (site, email) = (env.server.url.clone(), env.email("alice"));
    let who = email.clone();
    // The user's browser ($BROWSER) is given the address, as one argument.
    let opened = env.dir.path().join("opened");
    let opts =
        LoginOptions { browser: Some(format!("printf %s > '{}'", opened.display())), ..Default::default() };
    let (result, printed) =
        login_with(&store, &[&site], &opts, |url| block(browser::sign_in(url, &who, DEMO_PASSWORD)).unwrap())
            .await;
    let outcome = result.unwrap_or_else(|e| panic!("{e:?}\n{printed}"));
    assert_eq!(outcome.account.email, email);
    assert_eq!(std::fs::read_to_string(&opened).unwrap(), browser::address_in(&printed).unwrap());
    assert!(printed.contains("(It is open in your browser, $BROWSER.)"), "{printed}");
    // One method: nothing to choose, straight to the browser, the method named as the server names it.
    assert!(!printed.contains("How do you log in?"), "{printed}");
    assert!(printed.contains("log in with Demo SSO"), "{printed}");
    let url = browser::address_in(&printed).unwrap();
    assert!(url.starts_with(&format!("{site}/accounts/login/social/oidc?desktop_flow_otp=")), "{url}");
    assert_eq!(
        keyring_key(&mock, &email, &site),
        env.key("alice"),
        "the key the server gave, in the keyring"
    );
    assert!(!printed.contains(&env.key("alice")), "the key never shows:\n{printed}");
    assert!(printed.contains("Logged in as"), "{printed}");
    // Passwords are refused here, in the server's words.
    let p = Client::anonymous(&site, &Default::default()).unwrap().fetch_api_key(&email, DEMO_PASSWORD).await;
    assert!(p.unwrap_err().to_string().contains("Password authentication is disabled"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_paste_is_asked_again_and_a_token_for_another_login_or_used_before_starts_again() {
    let env = env_with(AuthMode::Sso).await;
    let (keyring, mock) = mock_keyring();
    let store = env.store(keyring);
    let (site, email) = (env.server.url.clone(), env.email("alice"));
    let who = email.clone();
    let mut pastes = 0;
    let (result, printed) = login_as(&store, &[&site], |url| {
        pastes += 1;
        match pastes {
            1 => "not a token at all".into(),
            // Signed in for another app's key: this login cannot read it.
            2 => {
                let other = url.replace(&browser::otp_of(url), &"ab".repeat(32));
                block(browser::sign_in(&other, &who, DEMO_PASSWORD)).unwrap()
            }
            // Someone used the token first: the server takes a token once.
            3 => {
                let shown = block(browser::sign_in(url, &who, DEMO_PASSWORD)).unwrap();
                let token = browser::decrypt(&browser::otp_of(url), &shown);
                let first = block(
                    reqwest::Client::new().get(format!("{}/accounts/login/subdomain/{token}", site)).send(),
                );
                assert!(first.is_ok());
                shown
            }
            _ => block(browser::sign_in(url, &who, DEMO_PASSWORD)).unwrap(),
        }
    })
    .await;
    let outcome = result.unwrap_or_else(|e| panic!("{e:?}\n{printed}"));
    assert_eq!(outcome.account.email, email);
    assert_eq!(pastes, 4);
    assert!(printed.contains("that is not the token the sign-in page showed"), "{printed}");
    assert!(printed.contains("that token was not made for this login"), "{printed}");
    assert!(
        printed.contains("The server refused the token: a token works once, within 15 seconds"),
        "{printed}"
    );
    // Each start has a key of its own.
    let mut otps: Vec<String> =
        printed.split_whitespace().filter(|w| w.contains("desktop_flow_otp=")).map(browser::otp_of).collect();
    assert_eq!(otps.len(), 3, "{printed}");
    otps.dedup();
    assert_eq!(otps.len(), 3, "a new key each time:\n{printed}");
    assert_eq!(keyring_key(&mock, &email, &site), env.key("alice"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn where_passwords_are_on_too_both_are_offered_and_single_sign_on_asks_the_password() {
    let env = env_with(AuthMode::Both).await;
    let (keyring, mock) = mock_keyring();
    let store = env.store(keyring);
    let (site, email) = (env.server.url.clone(), env.email("alice"));
    let who = email.clone();
    let answers = [site.as_str(), "3", "2", "not-the-password", DEMO_PASSWORD];
    let (result, printed) =
        login_as(&store, &answers, |url| block(browser::sign_in(url, &who, DEMO_PASSWORD)).unwrap()).await;
    let outcome = result.unwrap_or_else(|e| panic!("{e:?}\n{printed}"));
    assert_eq!(outcome.account.email, email);
    assert!(
        printed.contains("How do you log in?\n  1. Email and password\n  2. Log in with Demo SSO\n"),
        "{printed}"
    );
    assert!(printed.contains("Type a number from 1 to 2."), "{printed}");
    assert!(printed.contains("This organization also takes passwords"), "{printed}");
    assert!(printed.contains("topicterm login --zuliprc PATH"), "the way without a password:\n{printed}");
    assert!(printed.contains("Not accepted: Password is incorrect. Starting again."), "{printed}");
    assert_eq!(keyring_key(&mock, &email, &site), env.key("alice"));

    // The password way, on the same server.
    let (keyring, _) = mock_keyring();
    let store = env.store(keyring);
    let bob = env.email("bob");
    let (result, printed) = login_as(&store, &[&site, "1", &bob, DEMO_PASSWORD], |_| unreachable!()).await;
    assert_eq!(result.unwrap_or_else(|e| panic!("{e:?}\n{printed}")).account.email, bob);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ldap_organization_asks_for_the_username() {
    let env = env_with(AuthMode::Ldap).await;
    let (keyring, _) = mock_keyring();
    let store = env.store(keyring);
    let site = env.server.url.clone();
    let (result, printed) = login_as(&store, &[&site, "alice", DEMO_PASSWORD], |_| unreachable!()).await;
    let outcome = result.unwrap_or_else(|e| panic!("{e:?}\n{printed}"));
    assert!(printed.contains("Username: "), "{printed}");
    assert!(!printed.contains("How do you log in?"), "{printed}");
    assert_eq!(outcome.account.email, env.email("alice"), "the account is the email the server gave");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_downloaded_zuliprc_is_imported_once_the_server_takes_its_key() {
    let env = env().await;
    let (keyring, mock) = mock_keyring();
    let store = env.store(keyring);
    let alice = env.server.credentials("alice").unwrap();
    let path = env.dir.path().join("zuliprc");
    topicterm::api::zuliprc::write(&path, &alice).unwrap();
    let mut p = LinePrompter { input: Cursor::new(""), output: Vec::new() };

    // One others can read is refused, with the command that fixes it; nothing is kept.
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let opts = LoginOptions::default();
    let e = topicterm::login::import_zuliprc(&store, &mut p, &opts, &path).await.unwrap_err();
    assert!(format!("{e:#}").contains("chmod 600"), "{e:#}");
    assert!(!store.accounts_path().exists());

    // A key the server does not take is refused; nothing is kept.
    let wrong = env.dir.path().join("wrong.zuliprc");
    topicterm::api::zuliprc::write(
        &wrong,
        &topicterm::api::Credentials { api_key: "x".repeat(32), ..alice.clone() },
    )
    .unwrap();
    let e = topicterm::login::import_zuliprc(&store, &mut p, &opts, &wrong).await.unwrap_err();
    assert!(format!("{e:#}").contains("was not accepted by"), "{e:#}");
    assert!(!store.accounts_path().exists());

    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let outcome = topicterm::login::import_zuliprc(&store, &mut p, &opts, &path).await.unwrap();
    assert_eq!(outcome.account.email, alice.email);
    assert_eq!(keyring_key(&mock, &alice.email, &alice.site), alice.api_key);
    let printed = String::from_utf8(p.output).unwrap();
    assert!(!printed.contains(&alice.api_key), "{printed}");
    let (_, creds) = store.credentials(None).unwrap().unwrap();
    assert_eq!(creds.api_key, alice.api_key);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_pasted_after_fifteen_seconds_is_refused_and_login_starts_again() {
    let env = env_with(AuthMode::Sso).await;
    let (keyring, _) = mock_keyring();
    let store = env.store(keyring);
    let (site, email) = (env.server.url.clone(), env.email("alice"));
    let (who, server) = (email.clone(), env.server.shared.clone());
    let mut pastes = 0;
    let (result, printed) = login_as(&store, &[&site], |url| {
        pastes += 1;
        let shown = block(browser::sign_in(url, &who, DEMO_PASSWORD)).unwrap();
        if pastes == 1 {
            // The person took 16 seconds to paste it.
            server.lock().settings.clock_offset += 16;
        }
        shown
    })
    .await;
    assert_eq!(result.unwrap_or_else(|e| panic!("{e:?}\n{printed}")).account.email, email);
    assert_eq!(pastes, 2);
    assert!(
        printed.contains("The server refused the token: a token works once, within 15 seconds"),
        "{printed}"
    );
}
