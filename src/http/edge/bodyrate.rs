//! The minimum transfer rate of request bodies. A timeout that restarts on every byte lets
//! a client hold a request for as long as the request timeout by sending a byte now and
//! then; here a body must have sent `rate` bytes a second on average once `grace` has
//! passed since it was first read, so its deadline grows with what has arrived.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// How fast request bodies must arrive.
#[derive(Debug, Clone, Copy)]
pub struct BodyRate {
    /// Time a body may take before the rate applies.
    pub grace: Duration,
    /// Bytes a second a body must average after `grace`.
    pub bytes_per_sec: u64,
}

/// The error a body gives when it arrives too slowly (408 in `extract::body_error`).
#[derive(Debug, thiserror::Error)]
#[error("the request body arrived more slowly than the minimum rate")]
pub struct TooSlow;

/// Wraps every request body in the minimum rate.
pub async fn min_body_rate(State(rate): State<BodyRate>, req: Request, next: Next) -> Response {
    next.run(req.map(|body| Body::new(RatedBody::new(body, rate)))).await
}

struct RatedBody {
    inner: Body,
    /// Set when the body is first read (a request may wait for a slot before that).
    clock: Option<(Instant, Pin<Box<Sleep>>)>,
    received: u64,
    rate: BodyRate,
}

impl RatedBody {
    fn new(inner: Body, rate: BodyRate) -> RatedBody {
        RatedBody { inner, clock: None, received: 0, rate }
    }
}

impl HttpBody for RatedBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        let grace = this.rate.grace;
        let (started, deadline) = this.clock.get_or_insert_with(|| {
            let now = Instant::now();
            (now, Box::pin(tokio::time::sleep_until(now + grace)))
        });
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    let earned = Duration::from_secs_f64(this.received as f64 / this.rate.bytes_per_sec.max(1) as f64);
                    deadline.as_mut().reset(*started + grace + earned);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(other) => Poll::Ready(other.map(|r| r.map_err(Into::into))),
            Poll::Pending => match deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(TooSlow.into()))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
