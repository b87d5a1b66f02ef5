//! The accept loop: hyper connections with the limits `axum::serve` does not expose. A
//! connection with no request in flight and nothing left to send is closed once it has
//! been so for `header_timeout` (counted from accept, so a client that never sends a byte
//! is cut off too) or, after its first request, for `idle_timeout` (idle keep-alive). A
//! response is sent whole to a client that reads at least `min_response_bytes_per_sec`,
//! measured over each `idle_timeout` while the client holds it up; a slower one is cut
//! off. At most `max_connections` are open at once: at the bound the oldest connection
//! with no request in flight is closed to make room; when every connection has a request
//! in flight, a few more are taken for the probes alone (`/healthz`, `/readyz`; anything
//! else gets 503), and the rest wait in the kernel's backlog. Idle HTTP/2 connections are
//! also pinged; bodies have their own limits in the router.

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

/// Largest request head (request line and headers) hyper buffers; beyond it, 431.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// File descriptors kept out of the connection bound: the database pool (SQLite opens
/// three files per connection), the runtime, log output, word lists being read, and the
/// probes' connections.
pub const RESERVED_FDS: u64 = 128;

/// Connections taken beyond the bound, when every connection has a request in flight, to
/// answer the probes (one request each).
const PROBE_CONNECTIONS: usize = 8;

/// How long connections may sit without a request, and how many may be open.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// From accept to the first request's complete head.
    pub header_timeout: Duration,
    /// From the end of a response to the next request's complete head.
    pub idle_timeout: Duration,
    pub max_connections: usize,
    /// What a client must read of a response, on average over each `idle_timeout` in
    /// which it holds the response up, to be sent the rest.
    pub min_response_bytes_per_sec: u64,
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

/// What a connection has sent, and whether its last write waits for the client to read.
#[derive(Default)]
struct Meter {
    sent: AtomicU64,
    held_up: AtomicBool,
}

impl Meter {
    /// Bytes the client has taken (sent less what still waits in the socket's send
    /// queue), and whether more wait for it, in the process or in the kernel.
    fn delivered(&self, socket: Socket) -> (u64, bool) {
        let unsent = unsent(socket);
        let sent = self.sent.load(Ordering::Relaxed);
        (sent.saturating_sub(unsent), unsent > 0 || self.held_up.load(Ordering::Relaxed))
    }
}

#[cfg(unix)]
type Socket = std::os::fd::RawFd;
#[cfg(not(unix))]
type Socket = ();

/// Bytes written to `socket` that its peer has not acknowledged yet: the kernel's send
/// queue, which can hold megabytes, so that writes alone do not show how fast a client reads.
#[cfg(target_os = "linux")]
fn unsent(socket: Socket) -> u64 {
    let mut n: libc::c_int = 0;
    // SAFETY: TIOCOUTQ (SIOCOUTQ) writes one int; the socket is open while its connection is served.
    let ok = unsafe { libc::ioctl(socket, libc::TIOCOUTQ, &mut n) } == 0;
    if ok {
        n.max(0) as u64
    } else {
        0
    }
}

#[cfg(not(target_os = "linux"))]
fn unsent(_: Socket) -> u64 {
    0
}

/// A socket whose writes are counted in its [`Meter`].
struct Metered<S> {
    inner: S,
    meter: Arc<Meter>,
}

impl<S> Metered<S> {
    fn count(&self, written: &Poll<io::Result<usize>>) {
        match written {
            Poll::Ready(Ok(n)) => {
                self.meter.sent.fetch_add(*n as u64, Ordering::Relaxed);
                self.meter.held_up.store(false, Ordering::Relaxed);
            }
            Poll::Ready(Err(_)) => self.meter.held_up.store(false, Ordering::Relaxed),
            Poll::Pending => self.meter.held_up.store(true, Ordering::Relaxed),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.count(&written);
        written
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.count(&written);
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The open connections in accept order.
#[derive(Default)]
struct Open(Mutex<BTreeMap<u64, Arc<Connection>>>);

impl Open {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Connection>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn any_idle(&self) -> bool {
        self.lock().values().any(|c| *c.in_flight.borrow() == 0)
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

/// A listener's connections as `/readyz` sees them: whether new ones must wait.
#[derive(Clone)]
pub struct Connections {
    slots: Arc<Semaphore>,
    probe_slots: Arc<Semaphore>,
    open: Arc<Open>,
    max: usize,
}

impl Connections {
    pub fn new(max_connections: usize) -> Connections {
        Connections {
            slots: Arc::new(Semaphore::new(max_connections)),
            probe_slots: Arc::new(Semaphore::new(PROBE_CONNECTIONS)),
            open: Arc::default(),
            max: max_connections,
        }
    }

    /// Whether every connection the bound allows is open with a request in flight, so that a
    /// new client would wait.
    pub fn full(&self) -> bool {
        self.slots.available_permits() == 0 && !self.open.any_idle()
    }

    pub fn max(&self) -> usize {
        self.max
    }
}

/// Serves `app` on `listener`, within `connections`' bound, until `shutdown` completes,
/// then lets open requests finish (at most `drain` long) and closes the connections.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    connections: Connections,
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
    let Connections { slots, probe_slots, open, .. } = connections;
    let connections = TaskTracker::new();
    let closing = CancellationToken::new();
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
        // A slot of the bound, or one of the probes' own (`probes_only`).
        let (slot, probes_only): (OwnedSemaphorePermit, bool) = match slots.clone().try_acquire_owned() {
            Ok(permit) => (permit, false),
            // At the bound: make room by closing an idle connection and wait for it to end.
            Err(_) if open.evict_oldest_idle() => tokio::select! {
                permit = slots.clone().acquire_owned() => (permit.expect("the semaphore is never closed"), false),
                () = &mut shutdown => break,
            },
            // Every connection has a request in flight: this one may still ask the probes;
            // when their connections are taken too, wait for any to end (meanwhile new
            // connections wait in the backlog).
            Err(_) => {
                tracing::warn!(limit = limits.max_connections, "every connection has a request in flight");
                match probe_slots.clone().try_acquire_owned() {
                    Ok(permit) => (permit, true),
                    Err(_) => tokio::select! {
                        permit = slots.clone().acquire_owned() => (permit.expect("the semaphore is never closed"), false),
                        permit = probe_slots.clone().acquire_owned() => (permit.expect("the semaphore is never closed"), true),
                        () = &mut shutdown => break,
                    },
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
        // A probes' connection is not among those the bound counts (nor closed to make room).
        if !probes_only {
            open.lock().insert(id, connection.clone());
        }
        let app = app.clone();
        let mut builder = builder.clone();
        if probes_only {
            builder.http1().keep_alive(false);
        }
        let closing = closing.clone();
        let open = open.clone();
        let meter = Arc::new(Meter::default());
        #[cfg(unix)]
        let socket = std::os::fd::AsRawFd::as_raw_fd(&stream);
        #[cfg(not(unix))]
        let socket = ();
        let stream = Metered { inner: stream, meter: meter.clone() };
        connections.spawn(async move {
            let _slot = slot;
            let mut in_flight = connection.in_flight.subscribe();
            let service = {
                let connection = connection.clone();
                let max = limits.max_connections;
                hyper::service::service_fn(move |mut req: Request<Incoming>| {
                    req.extensions_mut().insert(ConnectInfo::<SocketAddr>(address));
                    let busy = Busy::start(&connection);
                    let probe = matches!(req.uri().path(), "/healthz" | "/readyz");
                    let response = app.clone().oneshot(req.map(axum::body::Body::new));
                    async move {
                        if probes_only && !probe {
                            return Ok(every_connection_busy(max));
                        }
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
            // Each window the connection is watched over: from when it began, and what had
            // been sent by then.
            let mut window = (Instant::now(), 0u64);
            let delivered = || meter.delivered(socket).0;
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
                    _ = in_flight.changed() => window = (Instant::now(), delivered()),
                    () = tokio::time::sleep_until(window.0 + allowed) => {
                        let (now, held_up) = meter.delivered(socket);
                        let taken = now.saturating_sub(window.1);
                        if held_up {
                            // A response waits for the client to read it: the client must keep up.
                            let least = limits.min_response_bytes_per_sec as f64 * allowed.as_secs_f64();
                            if (taken as f64) < least {
                                tracing::debug!(%address, taken, "closing a connection whose client reads too slowly");
                                break;
                            }
                        } else if idle && taken == 0 {
                            tracing::debug!(%address, "closing a connection with no request");
                            break;
                        }
                        // Busy with a request, or a response was taken during the window.
                        window = (Instant::now(), now);
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

/// What a probes' connection answers to anything but the probes.
fn every_connection_busy(max: usize) -> axum::response::Response {
    use axum::response::IntoResponse;
    crate::http::error::ApiError::Unavailable {
        detail: format!("every connection (--max-connections {max}) has a request in flight; try again shortly"),
        retry_after: 1,
    }
    .into_response()
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
