//! The host file: one `host:port` line per process, in process order (process 0 first). Blank lines and
//! lines starting with `#` are skipped; a `#` after an address starts a comment.

use std::path::Path;

/// One process's address, with the line it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    /// `host:port` as written (`[v6]:port` for an IPv6 address).
    pub addr: String,
    /// The line of the host file (1-based; 0 for addresses not read from a file).
    pub line: usize,
}

/// Why a host file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostsError {
    /// The file could not be read.
    #[error("cannot read the host file {file}: {message}")]
    Read {
        /// The file.
        file: String,
        /// The system's message.
        message: String,
    },
    /// A line is not `host:port`.
    #[error("host file {file}, line {line}: {message}")]
    Line {
        /// The file.
        file: String,
        /// The line (1-based).
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file has no address.
    #[error("the host file {file} has no host:port line")]
    Empty {
        /// The file.
        file: String,
    },
}

/// Read the host file at `path`.
///
/// # Errors
/// The file cannot be read, a line is not `host:port` with a port in 1..=65535, or two lines name the same
/// address.
pub fn read(path: &Path) -> Result<Vec<Host>, HostsError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| HostsError::Read {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse(&text, &file)
}

/// Parse host file text (`file` names it in messages).
///
/// # Errors
/// As [`read`].
pub fn parse(text: &str, file: &str) -> Result<Vec<Host>, HostsError> {
    let mut hosts: Vec<Host> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let err = |message: String| HostsError::Line {
            file: file.to_string(),
            line,
            message,
        };
        if content.split_whitespace().count() > 1 {
            return Err(err(format!(
                "'{content}' has more than one address (one host:port per line)"
            )));
        }
        let Some((host, port)) = content.rsplit_once(':') else {
            return Err(err(format!(
                "'{content}' is not host:port (for example 10.0.0.2:4100)"
            )));
        };
        let host_ok = if let Some(inner) = host.strip_prefix('[') {
            inner
                .strip_suffix(']')
                .is_some_and(|v6| v6.parse::<std::net::Ipv6Addr>().is_ok())
        } else {
            !host.is_empty()
                && !host.contains(':')
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
        };
        if !host_ok {
            return Err(err(format!(
                "'{host}' is not a host name or address (write [v6]:port for an IPv6 address)"
            )));
        }
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => {
                return Err(err(format!("'{port}' is not a port number (1 to 65535)")));
            }
        }
        if let Some(h) = hosts.iter().find(|h| h.addr == content) {
            return Err(err(format!(
                "{content} is already the address of process {} (line {})",
                hosts.iter().position(|x| x == h).unwrap_or(0),
                h.line
            )));
        }
        hosts.push(Host {
            addr: content.to_string(),
            line,
        });
    }
    if hosts.is_empty() {
        return Err(HostsError::Empty {
            file: file.to_string(),
        });
    }
    Ok(hosts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_errors() {
        let h = parse(
            "# cluster\n127.0.0.1:4100\n\n  node-2.lab:4101  # second\n[::1]:4102\n",
            "h",
        )
        .unwrap_or_default();
        let addrs: Vec<(&str, usize)> = h.iter().map(|h| (h.addr.as_str(), h.line)).collect();
        assert_eq!(
            addrs,
            [
                ("127.0.0.1:4100", 2),
                ("node-2.lab:4101", 4),
                ("[::1]:4102", 5)
            ]
        );
        let bad = |t: &str| parse(t, "hosts.txt").err().map(|e| e.to_string());
        assert_eq!(
            bad("a:1\nlocalhost\n").as_deref(),
            Some(
                "host file hosts.txt, line 2: 'localhost' is not host:port (for example 10.0.0.2:4100)"
            )
        );
        assert!(bad("a:1\nb:70000\n").is_some_and(|m| m.contains("line 2") && m.contains("70000")));
        assert!(bad("a:0\n").is_some_and(|m| m.contains("line 1")));
        assert!(
            bad("a:1\n\na:1\n").is_some_and(|m| m.contains("line 3") && m.contains("process 0"))
        );
        assert!(bad("a b:1\n").is_some_and(|m| m.contains("line 1")));
        assert!(bad("::1:5\n").is_some_and(|m| m.contains("[v6]")));
        assert!(bad("# nothing\n\n").is_some_and(|m| m.contains("no host:port")));
    }
}
