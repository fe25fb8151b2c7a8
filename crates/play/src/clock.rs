//! Time for timers (the sudoku clock, the peg auto-play): the real clock, or a hand-driven one so tests are deterministic.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A monotonic clock: time elapsed since some fixed origin.
#[derive(Debug, Clone)]
pub enum Clock {
    /// The real monotonic clock.
    System(Instant),
    /// A clock that only moves when told to (tests); shared, so a test can hold one handle and the app another.
    Manual(Arc<AtomicU64>),
}

impl Clock {
    /// The real clock, starting now.
    pub fn system() -> Clock {
        Clock::System(Instant::now())
    }

    /// A manual clock standing at zero.
    pub fn manual() -> Clock {
        Clock::Manual(Arc::new(AtomicU64::new(0)))
    }

    /// Time since the origin.
    pub fn now(&self) -> Duration {
        match self {
            Clock::System(start) => start.elapsed(),
            Clock::Manual(ms) => Duration::from_millis(ms.load(Ordering::Relaxed)),
        }
    }

    /// Move a manual clock forward (does nothing to the real clock).
    pub fn advance(&self, by: Duration) {
        if let Clock::Manual(ms) = self {
            let add = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
            ms.fetch_add(add, Ordering::Relaxed);
        }
    }
}

/// A stopwatch that can be paused (while the help is open, or once the game is over) and resumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopwatch {
    /// Time accumulated in finished running spells.
    banked: Duration,
    /// When the current running spell started, if running.
    since: Option<Duration>,
}

impl Stopwatch {
    /// A stopwatch showing `banked`, running from `now`.
    pub fn running(banked: Duration, now: Duration) -> Stopwatch {
        Stopwatch {
            banked,
            since: Some(now),
        }
    }

    /// Elapsed time at `now`.
    pub fn elapsed(&self, now: Duration) -> Duration {
        match self.since {
            Some(s) => self.banked + now.saturating_sub(s),
            None => self.banked,
        }
    }

    /// Stop counting (keeps the time).
    pub fn pause(&mut self, now: Duration) {
        self.banked = self.elapsed(now);
        self.since = None;
    }

    /// Count again from `now`.
    pub fn resume(&mut self, now: Duration) {
        if self.since.is_none() {
            self.since = Some(now);
        }
    }

    /// Whether it is counting.
    pub fn is_running(&self) -> bool {
        self.since.is_some()
    }
}

/// `m:ss`, or `h:mm:ss` past an hour.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwatch_pauses_and_resumes() {
        let c = Clock::manual();
        let mut w = Stopwatch::running(Duration::from_secs(5), c.now());
        c.advance(Duration::from_secs(10));
        assert_eq!(w.elapsed(c.now()), Duration::from_secs(15));
        w.pause(c.now());
        c.advance(Duration::from_secs(100));
        assert_eq!(w.elapsed(c.now()), Duration::from_secs(15));
        w.resume(c.now());
        c.advance(Duration::from_secs(1));
        assert_eq!(w.elapsed(c.now()), Duration::from_secs(16));
    }

    #[test]
    fn durations_print_as_clock_times() {
        assert_eq!(format_duration(Duration::from_secs(0)), "0:00");
        assert_eq!(format_duration(Duration::from_secs(75)), "1:15");
        assert_eq!(format_duration(Duration::from_secs(3725)), "1:02:05");
    }
}
