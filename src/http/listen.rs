//! The accept loop: hyper connections with the timeouts `axum::serve` does not expose. A
//! client that sends its headers slower than `header_timeout` is cut off (slowloris), and
//! idle HTTP/2 connections are pinged and dropped; bodies have their own timeout in the
//! router (`RequestBodyTimeoutLayer`).

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

/// Largest request head (request line and headers) hyper buffers; beyond it, 431.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish
/// (at most `drain` long) and closes the connections.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    drain: Duration,
    shutdown: impl Future<Output = ()> + Send,
) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header_timeout).max_buf_size(MAX_HEAD_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(Duration::from_secs(20)))
        .keep_alive_timeout(header_timeout)
        .max_header_list_size(MAX_HEAD_BYTES as u32);
    let connections = TaskTracker::new();
    let closing = CancellationToken::new();
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
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let builder = builder.clone();
        let closing = closing.clone();
        connections.spawn(async move {
            let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(address));
                app.clone().oneshot(req.map(axum::body::Body::new))
            });
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(error = %e, %address, "connection ended with an error");
                    }
                }
                () = closing.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    closing.cancel();
    connections.close();
    if tokio::time::timeout(drain, connections.wait()).await.is_err() {
        tracing::warn!("open connections did not finish in time; closing them");
    }
}
