//! Which `Host` a request may name: a defence against DNS rebinding.
//!
//! A page on another site can point its own name at 127.0.0.1 once the browser has loaded it, and then send
//! requests to this server that the browser treats as same-origin; they still carry the other site's name in
//! `Host`. So the server answers only requests whose `Host` (port aside) is the address it listens on (any
//! address literal when it listens on all of them: a literal cannot be rebound), `localhost`, or a name the
//! user allowed with `--allow-host`. Everything else is a 403 naming the option.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The names a request's `Host` may carry.
#[derive(Debug, Clone)]
pub struct AllowedHosts {
    /// The address listened on.
    addr: SocketAddr,
    /// Extra names, lower case.
    names: Vec<String>,
}

impl AllowedHosts {
    /// The hosts allowed for a server listening on `addr`, with the extra `names`.
    pub fn new(addr: SocketAddr, names: &[String]) -> AllowedHosts {
        AllowedHosts {
            addr,
            names: names
                .iter()
                .map(|n| n.trim().trim_end_matches('.').to_ascii_lowercase())
                .collect(),
        }
    }

    /// Whether a request with this `Host` header value is answered.
    pub fn allows(&self, host: &str) -> bool {
        let name = host_name(host).trim_end_matches('.').to_ascii_lowercase();
        if name == "localhost" || self.names.contains(&name) {
            return true;
        }
        let literal = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(&name);
        match literal.parse::<IpAddr>() {
            Ok(ip) => self.addr.ip().is_unspecified() || ip == self.addr.ip(),
            Err(_) => false,
        }
    }
}

/// The name part of a `Host` value: without its port, brackets kept around an IPv6 literal.
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    }
}

/// Middleware: answer 403 to a request whose `Host` is not allowed.
pub async fn check(allowed: Arc<AllowedHosts>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_string()));
    match host {
        Some(h) if allowed.allows(&h) => next.run(req).await,
        Some(h) => ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "this server does not answer for the host '{}'; it answers for {}, localhost, and the names given \
                 with --allow-host",
                mousecats::error::excerpt(&h),
                allowed.addr.ip()
            ),
        }
        .into_response(),
        None => ApiError::bad("the request has no Host header").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let a = AllowedHosts::new("127.0.0.1:8080".parse().unwrap(), &["Board.Lan".into()]);
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:8080",
            "LOCALHOST",
            "board.lan:80",
            "board.lan.",
        ] {
            assert!(a.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "10.0.0.1:8080",
            "[::1]:8080",
            "localhost.evil.example",
            "",
        ] {
            assert!(!a.allows(bad), "{bad}");
        }
        let any = AllowedHosts::new("0.0.0.0:80".parse().unwrap(), &[]);
        assert!(any.allows("192.168.1.7:80"));
        assert!(any.allows("[fe80::1]:80"));
        assert!(!any.allows("evil.example"));
        let v6 = AllowedHosts::new("[::1]:80".parse().unwrap(), &[]);
        assert!(v6.allows("[::1]:80"));
        assert!(!v6.allows("127.0.0.1:80"));
    }
}
