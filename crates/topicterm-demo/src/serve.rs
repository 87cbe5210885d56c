//! Serving the routes: an accept loop of the server's own rather than `axum::serve`, which takes
//! no settings, so that every connection must deliver its request head (and over TLS, first its
//! handshake) within a bound, or be closed. Without one, 300 of 300 half-sent requests were still
//! holding their connections after 35 s (issue 37).
//!
//! HTTP/1 only, as `axum::serve` served it here (neither side is built with HTTP/2).

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};

/// Accept connections until `stop` fires (or the returned task is dropped); each is served on a
/// task of its own, and asked to finish what it is doing and close when serving stops.
/// `head_timeout` bounds the TLS handshake and the reading of each request's head, the first
/// and those after it on a kept-alive connection alike (an idle connection is closed after as
/// long).
pub fn spawn(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    app: Router,
    head_timeout: Duration,
    mut stop: oneshot::Receiver<()>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        // Dropped (when serving stops, or this task is aborted): every connection winds down.
        let (_serving, stopped) = watch::channel(());
        loop {
            let (tcp, addr) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(x) => x,
                    Err(e) => {
                        // Out of file descriptors, say: wait rather than spin.
                        tracing::debug!("accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                _ = &mut stop => break,
            };
            let (app, tls, stopped) = (app.clone(), tls.clone(), stopped.clone());
            tokio::spawn(async move {
                let Some(acceptor) = tls else {
                    return connection(tcp, app, head_timeout, stopped).await;
                };
                match tokio::time::timeout(head_timeout, acceptor.accept(tcp)).await {
                    Ok(Ok(stream)) => connection(stream, app, head_timeout, stopped).await,
                    Ok(Err(e)) => tracing::debug!("TLS handshake with {addr} failed: {e}"),
                    Err(_) => tracing::debug!("TLS handshake with {addr} timed out"),
                }
            });
        }
    })
}

/// Serve one connection until it closes, its client is too slow with a request head, or
/// serving stops (then the request under way is finished first).
async fn connection<I>(io: I, app: Router, head_timeout: Duration, mut stopped: watch::Receiver<()>)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(head_timeout);
    let conn = builder.serve_connection(TokioIo::new(io), TowerToHyperService::new(app));
    let mut conn = std::pin::pin!(conn);
    let mut winding_down = false;
    loop {
        tokio::select! {
            done = conn.as_mut() => {
                if let Err(e) = done {
                    tracing::debug!("connection closed: {e}");
                }
                return;
            }
            // Resolves only once the sender is gone: serving stopped.
            _ = stopped.changed(), if !winding_down => {
                winding_down = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}
