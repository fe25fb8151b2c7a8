//! The listener: connections accepted up to a cap, each served by hyper with timeouts, and a stop that
//! closes them all within a bound.
//!
//! - **Headers and idle connections**: a connection must send a request's headers within the idle timeout of
//!   being accepted or of its previous answer (hyper's header-read timer, which also runs while a kept-alive
//!   connection waits for its next request); past it the connection is closed.
//! - **Bodies**: a request's body must arrive within the idle timeout too ([`read_body`]); past it, a 408.
//! - **The cap**: at most `max_connections` connections are open. When one more arrives, the oldest
//!   connection that is not in the middle of a request (one still sending its headers, or idle between
//!   requests) is closed to make room; when every connection is busy, the newcomer gets a 503 and is closed.
//!   So connections that send nothing can neither exhaust the process's file descriptors nor lock others out.
//! - **Stopping**: when `stop` resolves, the listener closes, every connection finishes the request it is
//!   answering and closes, and [`run`] returns once they have, or after `grace` at the latest.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;
use tower::Service;

use super::error::ApiError;

/// How connections are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnLimits {
    /// Connections open at once.
    pub max_connections: usize,
    /// The longest a connection may be silent while the server waits for a request, its headers or its body.
    pub idle_timeout: Duration,
    /// After the stop, the longest the server waits for the requests being answered.
    pub grace: Duration,
}

/// One open connection, as the cap sees it.
struct Conn {
    /// Requests being answered on it now (0 or 1 with HTTP/1.1).
    busy: Arc<AtomicUsize>,
    /// Notified to close it.
    close: Arc<Notify>,
}

/// The open connections by the order they came in.
#[derive(Default)]
struct Conns {
    open: Mutex<BTreeMap<u64, Conn>>,
}

impl Conns {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Conn>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Make room for one more connection under `cap`: close the oldest idle one if the cap is reached.
    /// Whether there is room.
    fn make_room(&self, cap: usize) -> bool {
        let mut open = self.lock();
        if open.len() < cap {
            return true;
        }
        let idle = open
            .iter()
            .find(|(_, c)| c.busy.load(Ordering::Acquire) == 0)
            .map(|(&id, _)| id);
        match idle.and_then(|id| open.remove(&id)) {
            Some(c) => {
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Removes a connection from [`Conns`] when its task ends.
struct Registered(Arc<Conns>, u64);

impl Drop for Registered {
    fn drop(&mut self) {
        self.0.lock().remove(&self.1);
    }
}

/// Counts a request as being answered while it lives.
struct Busy(Arc<AtomicUsize>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serve `app` on `listener` within `limits` until `stop` resolves, then close every connection (within
/// `limits.grace`).
pub async fn run(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    stop: impl Future<Output = ()>,
) {
    let conns = Arc::new(Conns::default());
    let (closing_tx, closing_rx) = watch::channel(false);
    let mut tasks = JoinSet::new();
    let mut next_id = 0u64;
    let mut stop = pin!(stop);
    loop {
        // Reap the connections that have ended.
        while tasks.try_join_next().is_some() {}
        let (stream, _peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(_) => {
                    // Out of file descriptors or a connection reset before it was accepted: wait a moment
                    // rather than spin, and go on.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        if !conns.make_room(limits.max_connections) {
            tasks.spawn(turn_away(stream));
            continue;
        }
        let id = next_id;
        next_id += 1;
        let busy = Arc::new(AtomicUsize::new(0));
        let close = Arc::new(Notify::new());
        conns.lock().insert(
            id,
            Conn {
                busy: Arc::clone(&busy),
                close: Arc::clone(&close),
            },
        );
        let registered = Registered(Arc::clone(&conns), id);
        let app = app.clone();
        let mut closing = closing_rx.clone();
        let idle = limits.idle_timeout;
        tasks.spawn(async move {
            let _registered = registered;
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                busy.fetch_add(1, Ordering::AcqRel);
                let guard = Busy(Arc::clone(&busy));
                let mut app = app.clone();
                async move {
                    let answer = app.call(req.map(Body::new)).await;
                    drop(guard);
                    answer
                }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(idle)
                .keep_alive(true);
            let mut conn = pin!(builder.serve_connection(TokioIo::new(stream), service));
            let mut shutting = false;
            loop {
                tokio::select! {
                    _ = conn.as_mut() => break,
                    () = close.notified(), if !shutting => {
                        // Evicted to make room: it was not answering a request.
                        break;
                    }
                    changed = closing.changed(), if !shutting => {
                        shutting = true;
                        if changed.is_ok() {
                            conn.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
        });
    }
    drop(listener);
    let _ = closing_tx.send(true);
    let drained = tokio::time::timeout(limits.grace, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tasks.abort_all();
    }
}

/// Answer a connection past the cap with a 503 and close it.
async fn turn_away(stream: tokio::net::TcpStream) {
    let body = r#"{"error":"the server has too many connections open; try again in a moment"}"#;
    let text = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    );
    let mut rest = text.as_bytes();
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        while !rest.is_empty() && stream.writable().await.is_ok() {
            match stream.try_write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(_) => break,
            }
        }
    })
    .await;
}

/// Middleware: read the whole request body (at most `limit` bytes) within `timeout`, so that a client that
/// stops sending half-way is answered 408 instead of holding its connection; past `limit`, a 413.
pub async fn read_body(timeout: Duration, limit: usize, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "the request body is larger than {} KiB, or was cut off",
                limit / 1024
            ),
        }
        .into_response(),
        Err(_) => ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "the request body did not arrive within {:.0} s",
                timeout.as_secs_f64()
            ),
        }
        .into_response(),
    }
}

/// The connection cap for a process allowed `nofile` open files: room for the files, pipes and the listener the
/// server itself needs.
pub fn default_max_connections(nofile: Option<u64>) -> usize {
    let cap = nofile.map_or(1024, |n| n.saturating_sub(64).min(1024));
    usize::try_from(cap).unwrap_or(1024).max(16)
}

/// The process's limit on open files (its soft limit), raised first to the hard limit where that is allowed.
pub fn open_file_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct given and nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut lim) != 0 {
            return None;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max.min(65_536),
                rlim_max: lim.rlim_max,
            };
            if raised.rlim_cur > lim.rlim_cur
                && libc::setrlimit(libc::RLIMIT_NOFILE, &raw const raised) == 0
            {
                lim = raised;
            }
        }
    }
    Some(lim.rlim_cur)
}
