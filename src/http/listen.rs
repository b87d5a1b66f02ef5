//! The accept loop: hyper connections with the limits `axum::serve` does not expose. A
//! connection with no request in flight is closed once it has been so for
//! `header_timeout` (counted from accept, so a client that never sends a byte is cut off
//! too) or, after its first request, for `idle_timeout` (idle keep-alive). At most
//! `max_connections` are open at once: at the bound the oldest connection with no request
//! in flight is closed to make room, and when every connection has a request in flight,
//! new ones wait in the kernel's backlog. Idle HTTP/2 connections are also pinged; bodies
//! have their own limits in the router.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

/// Largest request head (request line and headers) hyper buffers; beyond it, 431.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// File descriptors kept out of the connection bound: the database pool (SQLite opens
/// three files per connection), the runtime, log output, word lists being read.
pub const RESERVED_FDS: u64 = 128;

/// How long connections may sit without a request, and how many may be open.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// From accept to the first request's complete head.
    pub header_timeout: Duration,
    /// From the end of a response to the next request's complete head.
    pub idle_timeout: Duration,
    pub max_connections: usize,
}

/// The connection bound for this process: `requested` if given, at most the soft
/// RLIMIT_NOFILE less `RESERVED_FDS`. Returns the bound and the file limit it was derived
/// from (None where it cannot be read).
pub fn connection_bound(requested: Option<usize>) -> (usize, Option<u64>) {
    let files = open_file_limit();
    let ceiling = files.map(|n| n.saturating_sub(RESERVED_FDS).max(16)).unwrap_or(u64::MAX);
    let bound = match requested {
        Some(n) => (n as u64).min(ceiling),
        None => ceiling.min(65_536),
    };
    (bound.max(1) as usize, files)
}

#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is narrower than u64 on some targets
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit only writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

/// One open connection: its requests in flight (a response counts until its body has
/// been sent), whether it has had one, and the signal that closes it to make room.
struct Connection {
    in_flight: watch::Sender<usize>,
    served: AtomicBool,
    evict: CancellationToken,
}

/// Holds a connection busy while a request or its response body is alive.
struct Busy(Arc<Connection>);

impl Busy {
    fn start(connection: &Arc<Connection>) -> Busy {
        connection.served.store(true, Ordering::Relaxed);
        connection.in_flight.send_modify(|n| *n += 1);
        Busy(connection.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.in_flight.send_modify(|n| *n -= 1);
    }
}

/// The open connections in accept order.
#[derive(Default)]
struct Open(Mutex<BTreeMap<u64, Arc<Connection>>>);

impl Open {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Connection>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the oldest connection with no request in flight; false if there is none.
    fn evict_oldest_idle(&self) -> bool {
        let open = self.lock();
        match open.values().find(|c| *c.in_flight.borrow() == 0 && !c.evict.is_cancelled()) {
            Some(idle) => {
                idle.evict.cancel();
                true
            }
            None => false,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish
/// (at most `drain` long) and closes the connections.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    drain: Duration,
    shutdown: impl Future<Output = ()> + Send,
) {
    let mut builder = Builder::new(TokioExecutor::new());
    // No hyper header timeout: the watch on requests in flight below covers the first
    // request (from accept, which hyper's timer does not) and every later one.
    builder.http1().max_buf_size(MAX_HEAD_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(Duration::from_secs(20)))
        .keep_alive_timeout(limits.header_timeout)
        .max_header_list_size(MAX_HEAD_BYTES as u32);
    let connections = TaskTracker::new();
    let closing = CancellationToken::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let open = Arc::new(Open::default());
    let mut next_id = 0u64;
    tokio::pin!(shutdown);
    loop {
        let (stream, address) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: pause rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                // At the bound: make room by closing an idle connection, else wait for one
                // to end (meanwhile new connections wait in the backlog).
                if !open.evict_oldest_idle() {
                    tracing::warn!(limit = limits.max_connections, "every connection has a request in flight");
                }
                tokio::select! {
                    permit = slots.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
                    () = &mut shutdown => break,
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let connection = Arc::new(Connection {
            in_flight: watch::Sender::new(0),
            served: AtomicBool::new(false),
            evict: CancellationToken::new(),
        });
        let id = next_id;
        next_id += 1;
        open.lock().insert(id, connection.clone());
        let app = app.clone();
        let builder = builder.clone();
        let closing = closing.clone();
        let open = open.clone();
        connections.spawn(async move {
            let _permit = permit;
            let mut in_flight = connection.in_flight.subscribe();
            let service = {
                let connection = connection.clone();
                hyper::service::service_fn(move |mut req: Request<Incoming>| {
                    req.extensions_mut().insert(ConnectInfo::<SocketAddr>(address));
                    let busy = Busy::start(&connection);
                    let response = app.clone().oneshot(req.map(axum::body::Body::new));
                    async move {
                        // The body keeps the connection busy until it has been sent.
                        let response = response.await?;
                        Ok::<_, std::convert::Infallible>(response.map(|body| {
                            axum::body::Body::new(body.map_frame(move |frame| {
                                let _ = &busy;
                                frame
                            }))
                        }))
                    }
                })
            };
            let served = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            tokio::pin!(served);
            loop {
                let idle = *in_flight.borrow_and_update() == 0;
                let allowed =
                    if connection.served.load(Ordering::Relaxed) { limits.idle_timeout } else { limits.header_timeout };
                tokio::select! {
                    result = served.as_mut() => {
                        if let Err(e) = result {
                            tracing::debug!(error = %e, %address, "connection ended with an error");
                        }
                        break;
                    }
                    _ = in_flight.changed() => {}
                    () = tokio::time::sleep(allowed), if idle => {
                        tracing::debug!(%address, "closing a connection with no request");
                        break;
                    }
                    () = connection.evict.cancelled() => {
                        tracing::debug!(%address, "closing an idle connection to make room");
                        break;
                    }
                    () = closing.cancelled() => {
                        served.as_mut().graceful_shutdown();
                        let _ = served.await;
                        break;
                    }
                }
            }
            open.lock().remove(&id);
        });
    }
    drop(listener);
    closing.cancel();
    connections.close();
    if tokio::time::timeout(drain, connections.wait()).await.is_err() {
        tracing::warn!("open connections did not finish in time; closing them");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_bound_stays_below_the_open_file_limit() {
        let (bound, files) = connection_bound(None);
        let files = files.expect("the open-file limit is readable here");
        assert_eq!(bound as u64, files.saturating_sub(RESERVED_FDS).clamp(16, 65_536));
        assert_eq!(connection_bound(Some(10)).0, 10);
        assert_eq!(connection_bound(Some(usize::MAX)).0 as u64, files.saturating_sub(RESERVED_FDS).max(16));
    }
}
