//! Background work behind an interface the front end supplies.
//!
//! Some actions start work that takes a while: generating a sudoku, the Mouse & Cats engine thinking, the peg
//! solver searching or building its table. A session never starts a thread: it packs the work into a [`Task`]
//! and hands it to the [`Runner`] of its [`crate::Env`]. The terminal's runner starts a thread per task and the
//! screen keeps drawing; a server's can hand it to its blocking pool; [`Inline`] runs it at once on the calling
//! thread, so that every action has finished its work when it returns (tools, tests, and a server that calls
//! the session inside its own blocking task).
//!
//! The session keeps a [`Pending`] for each task and collects the result when the front end calls its `poll`
//! (or `wait`) method. A task that panics is reported as [`Outcome::Failed`] with the panic's message; it never
//! takes the caller down.

use std::any::Any;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

/// A piece of background work, ready to run anywhere, once.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// Where a session's background work runs: supplied by the front end.
pub trait Runner: Send + Sync {
    /// Run `task` exactly once: now on this thread, or soon on another. A task dropped without running is seen
    /// by the session as a failure.
    fn run(&self, task: Task);

    /// Run `task`, work a player waits for (a search whose progress the game shows), as [`Runner::run`] does,
    /// unless the runner keeps long background work apart: then this work must not wait behind that work.
    fn run_waited_for(&self, task: Task) {
        self.run(task);
    }

    /// Whether every task runs at once on the calling thread (then work that could go on for long is given a
    /// budget, so that an action still returns).
    fn works_inline(&self) -> bool {
        false
    }
}

/// The runner that runs each task at once, on the calling thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct Inline;

impl Runner for Inline {
    fn run(&self, task: Task) {
        task();
    }

    fn works_inline(&self) -> bool {
        true
    }
}

/// What a finished piece of work gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<T> {
    /// Its result.
    Done(T),
    /// It panicked (the message), or was dropped by the runner without running.
    Failed(String),
}

/// The result of a task handed to a [`Runner`], collected without blocking ([`Pending::poll`]) or by waiting
/// ([`Pending::wait`]).
pub struct Pending<T> {
    rx: Receiver<Result<T, String>>,
}

impl<T> fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Pending")
    }
}

/// Hand `work` to `runner`; the result comes back through the [`Pending`].
pub fn submit<T: Send + 'static>(
    runner: &dyn Runner,
    work: impl FnOnce() -> T + Send + 'static,
) -> Pending<T> {
    let (tx, rx) = mpsc::channel();
    runner.run(Box::new(move || {
        let result = catch_unwind(AssertUnwindSafe(work)).map_err(panic_message);
        // The session may have dropped its Pending (a new game, say): then nobody wants the result.
        let _ = tx.send(result);
    }));
    Pending { rx }
}

/// A [`Pending`] that no task of its own fulfils, and its sending end: for a result that some other piece of work
/// hands over (a complete peg table that one game's task builds while other games wait for it). `Err` carries the
/// message of a failure, as [`Outcome::Failed`].
pub(crate) fn handed_over<T>() -> (mpsc::Sender<Result<T, String>>, Pending<T>) {
    let (tx, rx) = mpsc::channel();
    (tx, Pending { rx })
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "it stopped".to_string()
    }
}

/// The message of a task that was dropped without running.
const DROPPED: &str = "the work was dropped before it finished";

impl<T> Pending<T> {
    /// The outcome if the work has finished, without waiting.
    pub fn poll(&self) -> Option<Outcome<T>> {
        match self.rx.try_recv() {
            Ok(Ok(v)) => Some(Outcome::Done(v)),
            Ok(Err(m)) => Some(Outcome::Failed(m)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Outcome::Failed(DROPPED.into())),
        }
    }

    /// Wait at most `limit` for the work to finish: its outcome, or `None` if it is still running.
    pub fn wait_for(&self, limit: Duration) -> Option<Outcome<T>> {
        match self.rx.recv_timeout(limit) {
            Ok(Ok(v)) => Some(Outcome::Done(v)),
            Ok(Err(m)) => Some(Outcome::Failed(m)),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Outcome::Failed(DROPPED.into())),
        }
    }

    /// Wait for the work to finish.
    pub fn wait(&self) -> Outcome<T> {
        match self.rx.recv() {
            Ok(Ok(v)) => Outcome::Done(v),
            Ok(Err(m)) => Outcome::Failed(m),
            Err(_) => Outcome::Failed(DROPPED.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_work_is_done_when_submitted() {
        let p = submit(&Inline, || 6 * 7);
        assert_eq!(p.poll(), Some(Outcome::Done(42)));
    }

    #[test]
    fn a_panicking_task_is_a_failure_with_its_message() {
        let p: Pending<u32> = submit(&Inline, || panic!("deliberate panic in a test task"));
        assert_eq!(
            p.wait(),
            Outcome::Failed("deliberate panic in a test task".into())
        );
    }

    #[test]
    fn waiting_a_while_for_unfinished_work_gives_none() {
        struct Never(std::sync::Mutex<Vec<Task>>);
        impl Runner for Never {
            fn run(&self, task: Task) {
                // Kept, never run: the sender stays alive.
                if let Ok(mut v) = self.0.lock() {
                    v.push(task);
                }
            }
        }
        let never = Never(std::sync::Mutex::new(Vec::new()));
        let p: Pending<u32> = submit(&never, || 1);
        assert_eq!(p.wait_for(Duration::from_millis(5)), None);
        let tasks = std::mem::take(&mut *never.0.lock().unwrap());
        for t in tasks {
            t();
        }
        assert_eq!(p.wait_for(Duration::from_millis(5)), Some(Outcome::Done(1)));
    }

    #[test]
    fn a_dropped_task_is_a_failure() {
        struct Drop;
        impl Runner for Drop {
            fn run(&self, _task: Task) {}
        }
        let p: Pending<u32> = submit(&Drop, || 1);
        assert!(matches!(p.poll(), Some(Outcome::Failed(_))));
        assert!(matches!(p.wait(), Outcome::Failed(_)));
    }
}
