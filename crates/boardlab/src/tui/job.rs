//! Background work (an engine thinking, a puzzle being generated, a solver searching) on its own thread, so the
//! screen keeps drawing and answering keys meanwhile.

use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;

/// The name of every job thread (the panic hook recognises them by it).
pub const THREAD_NAME: &str = "boardlab-job";

/// The message of the last panic on a job thread, kept by the panic hook while the screen is in use.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Keep the message of a panic on a job thread (called from the panic hook, instead of printing it over the
/// screen).
pub fn record_panic(message: String) {
    if let Ok(mut slot) = LAST_PANIC.lock() {
        *slot = Some(message);
    }
}

/// The message of the last panic on a job thread, if one was recorded since the last call.
pub fn take_panic_message() -> Option<String> {
    LAST_PANIC.lock().ok().and_then(|mut slot| slot.take())
}

/// The runner of the game sessions' background work: a named thread per task (the panic hook recognises them),
/// so the screen keeps drawing meanwhile.
#[derive(Debug, Clone, Copy, Default)]
pub struct Threads;

impl play::Runner for Threads {
    fn run(&self, task: play::Task) {
        // If no thread can be started, the task is dropped with the error and the session sees a failure.
        let _ = thread::Builder::new().name(THREAD_NAME.into()).spawn(task);
    }
}

/// One computation running on a background thread.
#[derive(Debug)]
pub struct Job<T> {
    rx: Receiver<T>,
}

/// What a finished job gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<T> {
    /// The result.
    Done(T),
    /// The computation died (it panicked) without a result.
    Failed,
}

impl<T: Send + 'static> Job<T> {
    /// Run `work` on a new thread.
    pub fn spawn(work: impl FnOnce() -> T + Send + 'static) -> Job<T> {
        let (tx, rx) = mpsc::channel();
        let spawned = thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let _ = tx.send(work());
            });
        // If no thread could be started, the sender is gone with the closure and the job reports Failed.
        drop(spawned);
        Job { rx }
    }

    /// The outcome if the job has finished, without waiting.
    pub fn poll(&self) -> Option<Outcome<T>> {
        match self.rx.try_recv() {
            Ok(v) => Some(Outcome::Done(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Outcome::Failed),
        }
    }

    /// Wait for the job to finish.
    pub fn wait(&self) -> Outcome<T> {
        match self.rx.recv() {
            Ok(v) => Outcome::Done(v),
            Err(_) => Outcome::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_delivers_its_result() {
        let job = Job::spawn(|| 6 * 7);
        assert_eq!(job.wait(), Outcome::Done(42));
    }

    #[test]
    fn a_panicking_job_reports_failure() {
        let job: Job<u32> = Job::spawn(|| panic!("deliberate panic in a test job"));
        assert_eq!(job.wait(), Outcome::Failed);
    }
}
