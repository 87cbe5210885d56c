//! HTTPS for the demo server (`demo-server --tls`): a certificate generated at start for
//! `localhost` and `127.0.0.1`, self-signed, so that clients can be tested as they meet
//! self-hosted servers: trusted through `cert_bundle`, refused without it, accepted with
//! `insecure`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

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

/// A TCP listener whose connections are TLS, for `axum::serve`.
pub struct TlsListener {
    tcp: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl TlsListener {
    pub fn new(tcp: TcpListener, g: &Generated) -> anyhow::Result<TlsListener> {
        use rustls::pki_types::pem::PemObject;
        let certs = rustls::pki_types::CertificateDer::pem_slice_iter(g.cert_pem.as_bytes())
            .collect::<Result<Vec<_>, _>>()?;
        let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(g.key_pem.as_bytes())?;
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(certs, key)?;
        Ok(TlsListener { tcp, acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)) })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let (tcp, addr) = match self.tcp.accept().await {
                Ok(x) => x,
                Err(e) => {
                    tracing::debug!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            // A handshake that stalls must not keep others waiting for long.
            match tokio::time::timeout(Duration::from_secs(10), self.acceptor.accept(tcp)).await {
                Ok(Ok(stream)) => return (stream, addr),
                Ok(Err(e)) => tracing::debug!("TLS handshake with {addr} failed: {e}"),
                Err(_) => tracing::debug!("TLS handshake with {addr} timed out"),
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}
