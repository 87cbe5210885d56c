//! Self-hosted servers as they are: a self-signed certificate (`demo-server --tls`), trusted
//! through `cert_bundle`, refused without it (saying which option fixes it), accepted with
//! `insecure`; the zuliprc options by the Python bindings' names.

use crate::common::Env;
use topicterm::api::{ApiError, Client, Credentials, Tls, zuliprc};
use topicterm::server::ServerOptions;

async fn tls_env() -> Env {
    Env::start_with(ServerOptions { tls: true, ..Default::default() }).await
}

fn with_tls(mut c: Credentials, tls: Tls) -> Credentials {
    c.tls = tls;
    c
}

#[tokio::test]
async fn a_self_signed_server_is_trusted_through_cert_bundle_refused_without_and_accepted_insecure() {
    let env = tls_env().await;
    assert!(env.server.url.starts_with("https://"), "{}", env.server.url);
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("demo-cert.pem");
    std::fs::write(&bundle, env.server.cert_pem.as_ref().expect("a certificate")).unwrap();

    // The system's roots do not know it: refused, with a message that says what to do.
    let plain = Client::new(&env.creds("member")).unwrap();
    match plain.get_users().await {
        Err(ApiError::Transport { message, .. }) => {
            assert!(message.contains("certificate"), "names the certificate problem: {message}");
            assert!(message.contains("cert_bundle=") && message.contains("insecure=true"), "{message}");
        }
        other => panic!("an untrusted certificate must be refused: {other:?}"),
    }
    assert!(!plain.insecure());

    // Trusted through cert_bundle, as the Python bindings do.
    let trusted =
        with_tls(env.creds("member"), Tls { cert_bundle: Some(bundle.clone()), ..Default::default() });
    let users = Client::new(&trusted).unwrap().get_users().await.expect("trusted through cert_bundle");
    assert!(users.members.iter().any(|u| u.email == env.creds("member").email));

    // Accepted with insecure, and the client says so.
    let insecure =
        Client::new(&with_tls(env.creds("member"), Tls { insecure: true, ..Default::default() })).unwrap();
    assert!(insecure.insecure());
    insecure.get_users().await.expect("accepted with insecure");
}

#[tokio::test]
async fn the_options_are_read_and_written_by_the_python_bindings_names() {
    let text = "[api]\nemail=a@b.c\nkey=k\nsite=https://chat.example.com\ninsecure=True\n\
                cert_bundle=/etc/ca.pem\nclient_cert=/c.pem\nclient_cert_key=/c.key\n";
    let c = zuliprc::parse(text, "rc").unwrap();
    assert_eq!(
        c.tls,
        Tls {
            insecure: true,
            cert_bundle: Some("/etc/ca.pem".into()),
            client_cert: Some("/c.pem".into()),
            client_cert_key: Some("/c.key".into()),
        }
    );
    assert_eq!(zuliprc::parse(&zuliprc::render(&c), "rc").unwrap().tls, c.tls, "written back the same");
    let bad = zuliprc::parse(&text.replace("insecure=True", "insecure=maybe"), "rc").unwrap_err();
    assert!(bad.to_string().contains("insecure=maybe: use true or false"), "{bad}");
}

#[tokio::test]
async fn unreadable_certificate_files_are_named_with_their_option() {
    let env = tls_env().await;
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.pem");
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(&garbage, "not a certificate").unwrap();
    let err = |tls: Tls| match Client::new(&with_tls(env.creds("member"), tls)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a client must not be made with an unreadable file"),
    };
    let e = err(Tls { cert_bundle: Some(missing.clone()), ..Default::default() });
    assert!(e.contains("cert_bundle") && e.contains("nope.pem"), "{e}");
    let e = err(Tls { cert_bundle: Some(garbage.clone()), ..Default::default() });
    assert!(e.contains("cert_bundle") && e.contains("no PEM certificate"), "{e}");
    let e = err(Tls { client_cert: Some(garbage.clone()), ..Default::default() });
    assert!(e.contains("client_cert") && e.contains("garbage.pem"), "{e}");
    let e = err(Tls { client_cert_key: Some(garbage), ..Default::default() });
    assert!(e.contains("client_cert_key") && e.contains("without client_cert"), "{e}");
}

#[tokio::test]
async fn a_client_certificate_and_its_key_make_an_identity() {
    let env = tls_env().await;
    let dir = tempfile::tempdir().unwrap();
    // The server's own certificate and key stand in for a client's: any PEM pair will do.
    let pair = topicterm::server::tls::generate().unwrap();
    let (cert, key) = (dir.path().join("client.pem"), dir.path().join("client.key"));
    std::fs::write(&cert, &pair.cert_pem).unwrap();
    std::fs::write(&key, pair.key_pem()).unwrap();
    let bundle = dir.path().join("ca.pem");
    std::fs::write(&bundle, env.server.cert_pem.as_ref().unwrap()).unwrap();
    let tls = Tls {
        cert_bundle: Some(bundle),
        client_cert: Some(cert),
        client_cert_key: Some(key),
        ..Default::default()
    };
    let c = Client::new(&with_tls(env.creds("member"), tls)).expect("an identity from the pair");
    c.get_users().await.expect("the server, which asks for no certificate, still answers");
}

#[tokio::test]
async fn a_server_that_asks_for_a_client_certificate_serves_the_client_that_shows_one() {
    let env =
        Env::start_with(ServerOptions { tls: true, require_client_cert: true, ..Default::default() }).await;
    let client = env.server.client_cert.as_ref().expect("a client certificate");
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let bundle = write("ca.pem", env.server.cert_pem.as_ref().unwrap());
    let (cert, key) = (write("client.pem", &client.cert_pem), write("client.key", client.key_pem()));
    let trusting = Tls { cert_bundle: Some(bundle), ..Default::default() };

    // Without a client certificate: refused, and told which options to set.
    let bare = Client::new(&with_tls(env.creds("member"), trusting.clone())).unwrap();
    match bare.get_users().await {
        Err(ApiError::Transport { message, .. }) => {
            assert!(message.contains("client_cert=") && message.contains("client_cert_key="), "{message}");
            assert!(!message.contains("server's certificate is not trusted"), "not the server's: {message}");
        }
        other => panic!("a client without a certificate must be refused: {other:?}"),
    }
    // With it: served.
    let tls = Tls { client_cert: Some(cert), client_cert_key: Some(key), ..trusting };
    Client::new(&with_tls(env.creds("member"), tls)).unwrap().get_users().await.expect("served");

    // The zuliprcs `demo-server --require-client-cert` writes name everything needed.
    let rcs = tempfile::tempdir().unwrap();
    env.server.write_zuliprcs(rcs.path()).unwrap();
    let rc = zuliprc::read(&rcs.path().join("member.zuliprc")).unwrap();
    assert!(rc.tls.client_cert.is_some() && rc.tls.client_cert_key.is_some() && rc.tls.cert_bundle.is_some());
    Client::new(&rc).unwrap().get_users().await.expect("served with the written zuliprc");
}
