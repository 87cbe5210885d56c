//! `topicterm login` against the real demo server over loopback: the key goes to a keyring
//! (keyring-core's mock store standing in for the Secret Service) or, without one, to a private
//! zuliprc; the key never shows in what login prints or in its errors.

use std::io::Cursor;
use std::sync::Arc;
use topicterm::account::{AccountStore, Keyring, LinePrompter, LoginOptions, login, read_zuliprc};
use topicterm::api::Client;
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
    assert!(printed.contains("http://127.0.0.1:9 does not answer as a Zulip server"), "{printed}");
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
