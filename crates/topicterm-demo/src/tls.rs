//! HTTPS for the demo server (`demo-server --tls`): a certificate generated at start for
//! `localhost` and `127.0.0.1`, self-signed, so that clients can be tested as they meet
//! self-hosted servers: trusted through `cert_bundle`, refused without it, accepted with
//! `insecure`.

use std::sync::Arc;

/// A generated certificate and its key, as PEM.
pub struct Generated {
    pub cert_pem: String,
    key_pem: String,
}

impl Generated {
    /// The private key (PEM).
    pub fn key_pem(&self) -> &str {
        &self.key_pem
    }
}

/// A self-signed certificate for this machine's names.
pub fn generate() -> anyhow::Result<Generated> {
    let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
    let rcgen::CertifiedKey { cert, signing_key } = rcgen::generate_simple_self_signed(names)?;
    Ok(Generated { cert_pem: cert.pem(), key_pem: signing_key.serialize_pem() })
}

/// A certificate authority for client certificates and one client certificate it signed
/// (for `demo-server --require-client-cert`): the server trusts `ca_pem`, the client shows `cert`.
pub struct ClientCerts {
    pub ca_pem: String,
    pub cert: Generated,
}

/// A new client-certificate authority and a client certificate from it.
pub fn client_certs() -> anyhow::Result<ClientCerts> {
    let ca_key = rcgen::KeyPair::generate()?;
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new())?;
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name.push(rcgen::DnType::CommonName, "topicterm demo client CA");
    ca.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::DigitalSignature];
    let ca_cert = ca.self_signed(&ca_key)?;
    let key = rcgen::KeyPair::generate()?;
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new())?;
    params.distinguished_name.push(rcgen::DnType::CommonName, "topicterm demo client");
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
    let cert = params.signed_by(&key, &rcgen::Issuer::new(ca, ca_key))?;
    Ok(ClientCerts {
        ca_pem: ca_cert.pem(),
        cert: Generated { cert_pem: cert.pem(), key_pem: key.serialize_pem() },
    })
}

/// The server's side of the handshake: its certificate, and with `client_ca`, only clients
/// showing a certificate that CA signed are served. Each connection's handshake is made on
/// that connection's own task (`serve`), bounded in time, so one that stalls keeps no one
/// else waiting.
pub fn acceptor(g: &Generated, client_ca: Option<&str>) -> anyhow::Result<tokio_rustls::TlsAcceptor> {
    use rustls::pki_types::pem::PemObject;
    let certs = rustls::pki_types::CertificateDer::pem_slice_iter(g.cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()?;
    let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(g.key_pem.as_bytes())?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()?;
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some(pem) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in rustls::pki_types::CertificateDer::pem_slice_iter(pem.as_bytes()) {
                roots.add(c?)?;
            }
            let verifier =
                rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                    .build()?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let config = builder.with_single_cert(certs, key)?;
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}
