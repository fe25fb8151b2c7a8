//! Engine work, off the async threads, behind a limit.
//!
//! At most `workers` jobs run at once (one per core by default), each on tokio's blocking pool; up to `queue`
//! more wait their turn. A request that finds the queue full is answered at once with a 503, so a flood of
//! requests costs a counter, not memory. Every job has a deadline: a job still waiting or running when it
//! passes is answered with a 503, and its [`Cancel`] tells the engine to stop (the job keeps its worker slot
//! until it has stopped, so the limit counts real work).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::Semaphore;
use utoipa::ToSchema;

use super::error::ApiError;

/// The least number of lookups the quick lane lets wait ([`Jobs::run_quick`]): a lookup takes a millisecond or
/// so, so a long queue of them drains in well under a second; bounded by the connections a server keeps open
/// (1,024 by default), it never turns a lookup away before the connection limit does.
pub const QUICK_QUEUE: usize = 1024;

/// The limits of the job pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Jobs running at once.
    pub workers: usize,
    /// Jobs waiting beyond those (past this, a 503).
    pub queue: usize,
    /// Time from a job's arrival to its answer (waiting included); past it, a 503.
    pub time_limit: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        Limits {
            workers: cores,
            queue: 256,
            time_limit: Duration::from_secs(20),
        }
    }
}

/// What a running job checks to know it should stop: the request's deadline, or a flag set when its answer is
/// no longer awaited.
#[derive(Debug, Clone)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Instant,
}

impl Cancel {
    /// A cancel token with its own flag and `deadline` (for callers outside the pool, such as tests).
    pub fn new(deadline: Instant) -> Cancel {
        Cancel {
            flag: Arc::new(AtomicBool::new(false)),
            deadline,
        }
    }

    /// Whether the job should stop now.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// The flag itself (set when the answer is no longer awaited), for engines that poll an `AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// The flag, shared, for work that keeps it beyond this call (a session's `play::Env`).
    pub fn shared_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Time left before the deadline.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// The pool's counters, as `/api/status` shows them.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct JobStats {
    /// Jobs allowed to run at once.
    pub workers: usize,
    /// Jobs allowed to wait.
    pub queue: usize,
    /// The per-request time limit in milliseconds.
    pub time_limit_ms: u64,
    /// Jobs running now.
    pub running: usize,
    /// Background work (peg table builds) running now, on slots of its own.
    pub background: usize,
    /// Searches a player waits for (a peg solution being looked for) running now, on slots of their own.
    pub searches: usize,
    /// Jobs waiting now.
    pub waiting: usize,
    /// Lookups allowed to wait on the quick lane (the larger of `queue` and [`QUICK_QUEUE`]).
    pub quick_queue: usize,
    /// Jobs finished since start.
    pub done: u64,
    /// Requests turned away with a 503 because the queue was full.
    pub rejected: u64,
    /// Jobs that passed their time limit.
    pub timed_out: u64,
}

/// The job pool (cheap to share: wrap it in an `Arc`).
#[derive(Debug)]
pub struct Jobs {
    limits: Limits,
    slots: Arc<Semaphore>,
    /// The quick lane's slots ([`Jobs::run_quick`]): as many again, so that a lookup never waits behind a
    /// search.
    quick_slots: Arc<Semaphore>,
    /// The quick lane's jobs admitted and not yet finished: its own queue, so that a flood of searches cannot
    /// turn lookups away.
    quick_admitted: Arc<AtomicUsize>,
    /// Slots for background work ([`Jobs::run_background`]).
    background: Arc<Semaphore>,
    /// Slots for the background work a player waits for ([`Jobs::run_waited_for`]), apart from the tables.
    waited_for: Arc<Semaphore>,
    background_running: Arc<AtomicUsize>,
    waited_for_running: Arc<AtomicUsize>,
    /// Background work admitted and not yet finished: a queue of its own, at most half the size of the jobs'
    /// queue, so that work no request waits for never turns a request away.
    background_admitted: Arc<AtomicUsize>,
    /// The same for the work a player waits for ([`Jobs::run_waited_for`]).
    waited_for_admitted: Arc<AtomicUsize>,
    /// Jobs admitted and not yet finished (waiting or running).
    admitted: Arc<AtomicUsize>,
    running: Arc<AtomicUsize>,
    done: Arc<AtomicU64>,
    rejected: AtomicU64,
    timed_out: AtomicU64,
    /// The cancel flags of the jobs running now, by a number of their own, so that [`Jobs::close`] can stop
    /// them all.
    live: Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>,
    next_id: AtomicU64,
    /// Set by [`Jobs::close`]: no job starts any more.
    closed: AtomicBool,
}

/// Takes a job's flag out of [`Jobs::live`] when dropped.
struct Live(Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>, u64);

impl Drop for Live {
    fn drop(&mut self) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.1);
    }
}

/// Decrements a counter when dropped (so that a job counts until it has really finished).
struct Count(Arc<AtomicUsize>);

impl Drop for Count {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Jobs {
    /// A pool with these limits (at least one worker).
    pub fn new(limits: Limits) -> Jobs {
        let limits = Limits {
            workers: limits.workers.max(1),
            ..limits
        };
        Jobs {
            limits,
            slots: Arc::new(Semaphore::new(limits.workers)),
            quick_slots: Arc::new(Semaphore::new(limits.workers)),
            quick_admitted: Arc::new(AtomicUsize::new(0)),
            background: Arc::new(Semaphore::new(limits.workers)),
            waited_for: Arc::new(Semaphore::new(limits.workers)),
            background_running: Arc::new(AtomicUsize::new(0)),
            waited_for_running: Arc::new(AtomicUsize::new(0)),
            background_admitted: Arc::new(AtomicUsize::new(0)),
            waited_for_admitted: Arc::new(AtomicUsize::new(0)),
            admitted: Arc::new(AtomicUsize::new(0)),
            running: Arc::new(AtomicUsize::new(0)),
            done: Arc::new(AtomicU64::new(0)),
            rejected: AtomicU64::new(0),
            timed_out: AtomicU64::new(0),
            live: Arc::new(Mutex::new(HashMap::new())),
            next_id: AtomicU64::new(0),
            closed: AtomicBool::new(false),
        }
    }

    /// Stop the pool: every running job is told to stop (its cancel flag is set), waiting ones and later ones
    /// are answered 503 at once. For the server's shutdown.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.slots.close();
        self.quick_slots.close();
        self.background.close();
        self.waited_for.close();
        for flag in self
            .live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
        {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Whether [`Jobs::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Lookups allowed to wait on the quick lane.
    fn quick_queue(&self) -> usize {
        self.limits.queue.max(QUICK_QUEUE)
    }

    /// The counters now.
    pub fn stats(&self) -> JobStats {
        let admitted = self.admitted.load(Ordering::Acquire)
            + self.quick_admitted.load(Ordering::Acquire)
            + self.background_admitted.load(Ordering::Acquire)
            + self.waited_for_admitted.load(Ordering::Acquire);
        let running = self.running.load(Ordering::Acquire);
        let background = self.background_running.load(Ordering::Acquire);
        let searches = self.waited_for_running.load(Ordering::Acquire);
        JobStats {
            workers: self.limits.workers,
            queue: self.limits.queue,
            time_limit_ms: u64::try_from(self.limits.time_limit.as_millis()).unwrap_or(u64::MAX),
            running,
            background,
            searches,
            waiting: admitted.saturating_sub(running + background + searches),
            quick_queue: self.quick_queue(),
            done: self.done.load(Ordering::Relaxed),
            rejected: self.rejected.load(Ordering::Relaxed),
            timed_out: self.timed_out.load(Ordering::Relaxed),
        }
    }

    /// Run `job` on the blocking pool within the limits; `what` names the job in messages.
    ///
    /// # Errors
    /// A 503 when the queue is full or the time limit passes; the job's own error otherwise; a 500 if the job
    /// panicked (a bug).
    pub async fn run<T, F>(&self, what: &str, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> Result<T, ApiError> + Send + 'static,
    {
        self.run_on_for(
            &self.slots,
            &self.admitted,
            self.limits.queue,
            what,
            self.limits.time_limit,
            job,
        )
        .await
    }

    /// [`Jobs::run`] for work bounded by a few milliseconds (a lookup in a table already built, one step of a
    /// solver on 81 cells): it runs on slots of its own, so it never waits behind a long search, with a queue
    /// of its own of at least [`QUICK_QUEUE`] (so that a busy page's lookups wait their millisecond rather than
    /// being turned away).
    ///
    /// # Errors
    /// As [`Jobs::run`].
    pub async fn run_quick<T, F>(&self, what: &str, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> Result<T, ApiError> + Send + 'static,
    {
        self.run_on_for(
            &self.quick_slots,
            &self.quick_admitted,
            self.quick_queue(),
            what,
            self.limits.time_limit,
            job,
        )
        .await
    }

    /// Work no request waits for (a peg table shared by later games): it runs on the blocking pool on one of
    /// `workers` background slots of its own, waits for one in a queue of its own (half the jobs' queue: counted
    /// with them in the status, but never taking a request's place), and is dropped when that queue is full or
    /// the pool is closed (the session that wanted it then answers without it, and a later one asks again). It
    /// has no deadline: it ends when its work does, or when the server stops.
    pub async fn run_background(&self, job: impl FnOnce() + Send + 'static) {
        self.run_background_on(
            &self.background,
            &self.background_admitted,
            &self.background_running,
            job,
        )
        .await;
    }

    /// Background work that a player waits for (a peg search whose progress the page shows): as
    /// [`Jobs::run_background`], on `workers` slots and in a queue of its own, so that it never waits behind
    /// the long table builds, nor is turned away because they fill their queue.
    pub async fn run_waited_for(&self, job: impl FnOnce() + Send + 'static) {
        self.run_background_on(
            &self.waited_for,
            &self.waited_for_admitted,
            &self.waited_for_running,
            job,
        )
        .await;
    }

    async fn run_background_on(
        &self,
        slots: &Arc<Semaphore>,
        admitted_count: &Arc<AtomicUsize>,
        running_count: &Arc<AtomicUsize>,
        job: impl FnOnce() + Send + 'static,
    ) {
        let capacity = self.limits.workers + (self.limits.queue / 2).max(1);
        let before = admitted_count.fetch_add(1, Ordering::AcqRel);
        let admitted = Count(Arc::clone(admitted_count));
        if before >= capacity || self.is_closed() {
            drop(admitted);
            self.rejected.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let Ok(permit) = Arc::clone(slots).acquire_owned().await else {
            return;
        };
        let running = Arc::clone(running_count);
        running.fetch_add(1, Ordering::AcqRel);
        let running = Count(running);
        let done = Arc::clone(&self.done);
        let _ = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _admitted = admitted;
            let _running = running;
            job();
            done.fetch_add(1, Ordering::Relaxed);
        })
        .await;
    }

    async fn run_on_for<T, F>(
        &self,
        slots: &Arc<Semaphore>,
        admitted_count: &Arc<AtomicUsize>,
        queue: usize,
        what: &str,
        time_limit: Duration,
        job: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> Result<T, ApiError> + Send + 'static,
    {
        if self.is_closed() {
            return Err(ApiError::unavailable("the server is shutting down"));
        }
        let started = Instant::now();
        let deadline = started + time_limit;
        let capacity = self.limits.workers + queue;
        let before = admitted_count.fetch_add(1, Ordering::AcqRel);
        let admitted = Count(Arc::clone(admitted_count));
        if before >= capacity {
            drop(admitted);
            self.rejected.fetch_add(1, Ordering::Relaxed);
            return Err(ApiError::unavailable(format!(
                "the server is busy: {} jobs are running and {queue} are waiting, the most it queues; try again \
                 in a moment",
                self.limits.workers
            )));
        }
        let limit_text = format!("{:.1} s", self.limits.time_limit.as_secs_f64());
        let permit = match tokio::time::timeout_at(
            deadline.into(),
            Arc::clone(slots).acquire_owned(),
        )
        .await
        {
            Ok(Ok(p)) => p,
            Ok(Err(_)) => return Err(ApiError::unavailable("the server is shutting down")),
            Err(_) => {
                self.timed_out.fetch_add(1, Ordering::Relaxed);
                return Err(ApiError::unavailable(format!(
                    "{what}: the server was too busy to start it within the time limit of {limit_text}"
                )));
            }
        };
        let cancel = Cancel {
            flag: Arc::new(AtomicBool::new(false)),
            deadline,
        };
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, Arc::clone(&cancel.flag));
        let live = Live(Arc::clone(&self.live), id);
        if self.is_closed() {
            // Closed between the permit and the registration: this job would miss the stop signal.
            return Err(ApiError::unavailable("the server is shutting down"));
        }
        let job_cancel = cancel.clone();
        let running = Arc::clone(&self.running);
        let done = Arc::clone(&self.done);
        running.fetch_add(1, Ordering::AcqRel);
        let running_count = Count(running);
        let handle = tokio::task::spawn_blocking(move || {
            // Held until the job has really finished, also after its answer stopped being awaited.
            let _permit = permit;
            let _admitted = admitted;
            let _running = running_count;
            let _live = live;
            // A job whose answer is no longer awaited by the time it gets a thread does not start.
            if job_cancel.is_cancelled() {
                return Err(ApiError::unavailable("stopped before it started"));
            }
            let out = job(&job_cancel);
            done.fetch_add(1, Ordering::Relaxed);
            out
        });
        match tokio::time::timeout_at(deadline.into(), handle).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => Err(ApiError::internal(format!(
                "{what}: the engine failed unexpectedly ({}); this is a bug in boardlab",
                if join.is_panic() {
                    "it panicked"
                } else {
                    "it was cancelled"
                }
            ))),
            Err(_) => {
                cancel.flag.store(true, Ordering::Relaxed);
                self.timed_out.fetch_add(1, Ordering::Relaxed);
                Err(ApiError::unavailable(format!(
                    "{what}: no answer within the server's time limit of {limit_text}"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job that holds its slot until `release` is raised.
    fn held(release: &Arc<AtomicBool>) -> impl FnOnce() + Send + 'static {
        let release = Arc::clone(release);
        move || {
            while !release.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// Wait until `what` holds (at most 5 s).
    async fn until(what: impl Fn() -> bool) -> bool {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if what() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        false
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn table_builds_wait_in_their_own_queue_behind_no_search_and_no_request() {
        let jobs = Arc::new(Jobs::new(Limits {
            workers: 1,
            queue: 4,
            time_limit: Duration::from_secs(10),
        }));
        let release = Arc::new(AtomicBool::new(false));
        // More builds than the background lane holds (one running, two waiting): the rest are dropped.
        let mut builds = Vec::new();
        for _ in 0..6 {
            let (jobs, job) = (Arc::clone(&jobs), held(&release));
            builds.push(tokio::spawn(async move { jobs.run_background(job).await }));
        }
        assert!(until(|| jobs.stats().background == 1 && jobs.stats().rejected == 3).await);
        assert_eq!(jobs.stats().waiting, 2, "{:?}", jobs.stats());
        // A search a player waits for runs at once, on its own slot, while every build slot is taken.
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (search_release, searcher) = (Arc::new(AtomicBool::new(false)), Arc::clone(&jobs));
        let search = held(&search_release);
        tokio::spawn(async move {
            searcher
                .run_waited_for(move || {
                    search();
                    let _ = tx.send(());
                })
                .await;
        });
        // It is counted apart from the builds while it runs.
        assert!(
            until(|| jobs.stats().searches == 1).await,
            "{:?}",
            jobs.stats()
        );
        assert_eq!(jobs.stats().background, 1, "{:?}", jobs.stats());
        search_release.store(true, Ordering::Release);
        tokio::time::timeout(Duration::from_secs(2), rx)
            .await
            .expect("the search ran while the builds held their slots")
            .expect("the search ran, not dropped");
        // A request is admitted and answered: the builds took no place in its queue.
        let answer = jobs.run("a request", |_| Ok(7)).await;
        assert!(matches!(answer, Ok(7)), "{answer:?}");
        // Closing the pool drops the builds still waiting; the running one ends when its work does.
        jobs.close();
        release.store(true, Ordering::Release);
        for b in builds {
            b.await.expect("the build's task ends");
        }
        assert!(until(|| jobs.stats().background == 0 && jobs.stats().waiting == 0).await);
        assert_eq!(
            jobs.stats().done,
            3,
            "one build, the search and the request: {:?}",
            jobs.stats()
        );
    }
}
