//! A fault-injecting TCP proxy for tests: put it between a client and the demo server, then cut
//! every open connection (a dropped network), or take it down so that new connections are closed
//! as soon as they open (a server that is gone) until it comes back up.
//!
//! Faults are real socket events (resets and EOFs in the middle of requests and long polls), so
//! the client sees exactly what a flaky network gives it. Lies told at the HTTP level (answers of
//! the wrong shape, HTML with 200, trickled or truncated bodies, 5xx and 429, long delays, huge
//! bodies) come from the rewriting relay of [`relay`] with the seeded rule of [`lies`]; put the
//! relay behind this proxy to have both.

pub mod lies;
pub mod relay;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

#[derive(Default)]
struct State {
    down: AtomicBool,
    /// Connections being relayed.
    live: Mutex<Vec<AbortHandle>>,
    /// Connections cut or refused.
    faults: AtomicU64,
    relayed: AtomicU64,
}

/// The proxy; dropping it stops it and cuts everything.
pub struct FaultProxy {
    /// The address clients connect to.
    pub addr: SocketAddr,
    state: Arc<State>,
    accept: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// Listen on a free loopback port and relay to `upstream`.
    pub async fn start(upstream: SocketAddr) -> std::io::Result<FaultProxy> {
        let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let addr = listener.local_addr()?;
        let state = Arc::new(State::default());
        let st = state.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if st.down.load(Ordering::SeqCst) {
                    st.faults.fetch_add(1, Ordering::SeqCst);
                    drop(inbound);
                    continue;
                }
                st.relayed.fetch_add(1, Ordering::SeqCst);
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                let mut live = st.live.lock().unwrap_or_else(|e| e.into_inner());
                live.retain(|h| !h.is_finished());
                live.push(task.abort_handle());
            }
        });
        Ok(FaultProxy { addr, state, accept })
    }

    /// `http://ADDR`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Cut every open connection; returns how many were cut.
    pub fn cut(&self) -> usize {
        let mut live = self.state.live.lock().unwrap_or_else(|e| e.into_inner());
        let mut n = 0;
        for h in live.drain(..) {
            if !h.is_finished() {
                h.abort();
                n += 1;
            }
        }
        self.state.faults.fetch_add(n as u64, Ordering::SeqCst);
        n
    }

    /// Go down (cut everything; close new connections at once) or come back up.
    pub fn set_down(&self, down: bool) {
        self.state.down.store(down, Ordering::SeqCst);
        if down {
            self.cut();
        }
    }

    /// Connections cut or refused so far.
    pub fn faults(&self) -> u64 {
        self.state.faults.load(Ordering::SeqCst)
    }

    /// Connections relayed so far.
    pub fn relayed(&self) -> u64 {
        self.state.relayed.load(Ordering::SeqCst)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}
