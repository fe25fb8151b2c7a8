//! Process helpers shared by the cluster tests (`peg_cluster.rs`, `peg_cluster_netns.rs`).
// A test helper: a process that cannot be waited for or killed is the test failing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Child, Output};
use std::time::{Duration, Instant};

/// The boardlab binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_boardlab")
}

/// Bytes of a process's output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Wait for a process at most `limit`; its output. A process still running then is killed and the test fails
/// with its stderr.
pub fn finish(mut c: Child, limit: Duration) -> Output {
    let t = Instant::now();
    loop {
        if c.try_wait().unwrap().is_some() {
            return c.wait_with_output().unwrap();
        }
        if t.elapsed() > limit {
            c.kill().unwrap();
            let out = c.wait_with_output().unwrap();
            panic!(
                "a process did not end within {limit:?}: {}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
