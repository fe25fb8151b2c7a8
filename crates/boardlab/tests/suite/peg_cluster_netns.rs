//! `boardlab peg count` on processes in separate network namespaces, each with its own address on a bridge
//! (veth pairs), as on separate hosts: the same table as the single-machine command; and a process cut off
//! from the network in the middle of the run makes every process stop with a message within the peer timeout.
//!
//! Needs root and iproute2 (`ip netns`); skipped with a notice where they are missing or namespaces cannot be
//! made. The addresses (192.0.2.0/24, a documentation range) exist only inside the namespaces this test makes,
//! which it deletes at the end.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cluster_common::{bin, finish, text};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("ip: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            text(&out.stderr).trim()
        ))
    }
}

/// Namespaces `<tag>0..n` (one per process) and `<tag>b` (the bridge), deleted on drop.
struct Net {
    tag: String,
    n: usize,
}

impl Net {
    fn ns(&self, i: usize) -> String {
        format!("{}{i}", self.tag)
    }
    fn bridge(&self) -> String {
        format!("{}b", self.tag)
    }
    fn addr(i: usize) -> String {
        format!("192.0.2.{}", i + 1)
    }
    /// The bridge's side of process `i`'s link.
    fn port(&self, i: usize) -> String {
        format!("{}q{i}", self.tag)
    }

    fn make(n: usize) -> Result<Net, String> {
        let tag = format!("blc{}", std::process::id() % 100_000);
        let net = Net { tag, n };
        let br = net.bridge();
        ip(&["netns", "add", &br])?;
        for i in 0..n {
            ip(&["netns", "add", &net.ns(i)])?;
        }
        ip(&["-n", &br, "link", "add", "br0", "type", "bridge"])?;
        ip(&["-n", &br, "link", "set", "br0", "up"])?;
        for i in 0..n {
            let ns = net.ns(i);
            let (a, b) = (format!("{}p{i}", net.tag), net.port(i));
            ip(&[
                "link", "add", &a, "netns", &ns, "type", "veth", "peer", "name", &b, "netns", &br,
            ])?;
            ip(&["-n", &br, "link", "set", &b, "master", "br0"])?;
            ip(&["-n", &br, "link", "set", &b, "up"])?;
            ip(&[
                "-n",
                &ns,
                "addr",
                "add",
                &format!("{}/24", Net::addr(i)),
                "dev",
                &a,
            ])?;
            ip(&["-n", &ns, "link", "set", &a, "up"])?;
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        }
        Ok(net)
    }

    fn spawn(&self, i: usize, args: &[&str], hosts: &str, debug: bool) -> Child {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", &self.ns(i), bin()])
            .args(args)
            .args(["--hosts", hosts, "--process", &i.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if debug {
            c.env("PEG_DEBUG", "1");
        }
        c.spawn().unwrap()
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for i in 0..self.n {
            let _ = ip(&["netns", "del", &self.ns(i)]);
        }
        let _ = ip(&["netns", "del", &self.bridge()]);
    }
}

/// Why this machine cannot run the test, if it cannot.
fn unsupported() -> Option<String> {
    let uid = Command::new("id").arg("-u").output().ok()?;
    if text(&uid.stdout).trim() != "0" {
        return Some("not root".into());
    }
    if Command::new("ip").arg("-V").output().is_err() {
        return Some("iproute2's ip is not installed".into());
    }
    None
}

#[test]
fn processes_in_separate_network_namespaces() {
    if let Some(why) = unsupported() {
        eprintln!("skipping the network namespace test: {why}");
        return;
    }
    let net = match Net::make(3) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("skipping the network namespace test: cannot make namespaces here ({e})");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts.txt");
    std::fs::write(
        &hosts,
        (0..3)
            .map(|i| format!("{}:4100\n", Net::addr(i)))
            .collect::<String>(),
    )
    .unwrap();
    let hosts = hosts.to_str().unwrap();
    // The same table as on one machine.
    let args = [
        "--json", "peg", "count", "--board", "french", "--levels", "8",
    ];
    let single = Command::new(bin()).args(args).output().unwrap();
    assert!(single.status.success());
    let children: Vec<Child> = (0..3).map(|i| net.spawn(i, &args, hosts, false)).collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| finish(c, Duration::from_secs(120)))
        .collect();
    for (i, o) in outs.iter().enumerate() {
        assert!(o.status.success(), "process {i}: {}", text(&o.stderr));
    }
    let want = text(&single.stdout);
    let body = want.strip_suffix("\n}\n").unwrap();
    let got = text(&outs[0].stdout);
    assert!(got.starts_with(body), "{got}");
    let v: serde_json::Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["cluster"]["per_process"][1]["address"], "192.0.2.2:4100");
    assert!(
        v["cluster"]["per_process"][2]["bytes_received"]
            .as_u64()
            .unwrap()
            > 0
    );

    // Process 1 cut off (its link down) in the middle of the run: every process stops within the timeout.
    let args = ["peg", "count", "--peer-timeout", "4s"];
    let mut children: Vec<Child> = (0..3).map(|i| net.spawn(i, &args, hosts, i == 1)).collect();
    let err = children[1].stderr.take().unwrap();
    let mut lines = BufReader::new(err).lines();
    loop {
        let line = lines.next().expect("process 1 ended early").unwrap();
        if line.contains("level 25 pegs:") {
            break;
        }
    }
    ip(&["-n", &net.bridge(), "link", "set", &net.port(1), "down"]).unwrap();
    let t = Instant::now();
    // The rest of process 1's stderr.
    let rest =
        std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>().join("\n"));
    let mut rest = Some(rest);
    for (i, c) in children.into_iter().enumerate() {
        let out = finish(c, Duration::from_secs(30));
        let err = if i == 1 {
            rest.take().unwrap().join().unwrap()
        } else {
            text(&out.stderr)
        };
        assert!(!out.status.success(), "process {i} succeeded");
        assert!(
            err.contains("has not been heard from for 4 s"),
            "process {i}: {err}"
        );
        assert!(!err.contains("panicked"), "process {i}: {err}");
    }
    assert!(t.elapsed() < Duration::from_secs(20));
}
