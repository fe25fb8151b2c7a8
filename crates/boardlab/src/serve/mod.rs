//! `boardlab serve`: the games, their engines and their analysis as a local web app.
//!
//! An axum server on tokio. Every page, script and stylesheet is compiled into the binary ([`assets`]); no
//! request path reaches the file system. The JSON API under `/api/` (documented by the OpenAPI document at
//! `/api/openapi.json`, generated from the handlers by utoipa) is stateless: the page keeps the game (in
//! `localStorage`) and sends what a question needs. Engine work runs on the blocking pool behind the limits of
//! [`jobs`]; bad input is a 4xx `{"error": "..."}` naming what was wrong.

pub mod assets;
pub mod error;
pub mod fields;
pub mod host;
pub mod jobs;
pub mod listen;
pub mod menus;
pub mod mouse;
pub mod openapi;
pub mod peg;
pub mod session;
pub mod sudoku;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, anyhow};
use axum::Router;
use axum::extract::{DefaultBodyLimit, OriginalUri, State};
use axum::http::Method;
use axum::routing::get;
use clap::Args;
use serde::Serialize;
use utoipa::ToSchema;

use error::{ApiError, ApiResult};
pub use jobs::{Jobs, Limits};

/// The largest request body accepted, in bytes (a save file is a few kilobytes).
pub const BODY_LIMIT: usize = 64 * 1024;

/// Arguments of `boardlab serve`.
#[derive(Debug, Args, Clone)]
pub struct ServeArgs {
    /// The address to listen on. Anything but a loopback address lets other machines use the server.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Engine jobs run at once [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Engine jobs that may wait for a free worker; past that a request is answered 503 at once.
    #[arg(long, value_name = "N", default_value = "256")]
    pub queue: usize,
    /// Seconds a request may take, waiting included; past that it is answered 503.
    #[arg(long, value_name = "SECS", default_value = "20")]
    pub time_limit: f64,
    /// Connections open at once; past that the oldest idle one is closed, or the newcomer answered 503
    /// [default: 1024, fewer when the process may open fewer files].
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Seconds a connection may stay silent while the server waits for a request, its headers or its body;
    /// then it is closed (a half-sent body is answered 408).
    #[arg(long, value_name = "SECS", default_value = "10")]
    pub idle_timeout: f64,
    /// The memory the server's caches keep between requests, all together: complete peg tables, peg solvers
    /// with what they learnt, Mouse & Cats solutions (for example 256M or 2G; a bare number is in MiB). Past
    /// it the least recently used go; `/api/status` shows what is kept.
    #[arg(long, value_name = "SIZE", default_value = "512M", value_parser = crate::files::parse_size)]
    pub cache_memory: u64,
    /// Also answer requests that name this host (the address listened on and `localhost` are always
    /// answered; other names are refused, against DNS rebinding). Repeat it for more names.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
}

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    /// The engine job pool.
    pub jobs: Arc<Jobs>,
    /// The one memory budget of every cache below (`--cache-memory`).
    pub memory: play::MemoryBudget,
    /// Peg solvers and counts kept between requests.
    pub peg: peg::Caches,
    /// What the sudoku and Mouse & Cats sessions run in: their work at once on the calling thread (the
    /// sessions run inside the job pool).
    pub env: play::Env,
    /// What the peg sessions run in: the complete tables of finishable positions, shared by every game, are
    /// built in the background on the job pool ([`PoolRunner`]: a table can take longer than a request), and
    /// the indicator's search slices run beside the request that waits for them.
    pub peg_env: play::Env,
}

/// A `play::Runner` for work that may outlive the request that started it (a peg table, shared through the
/// `Env`, is built once and used by every later request): each task goes to the job pool as background work
/// ([`Jobs::run_background`]; a search a player waits for, [`Jobs::run_waited_for`]), within its limits, and is
/// dropped when the pool has no room for it.
#[derive(Debug, Clone)]
pub struct PoolRunner {
    jobs: Arc<Jobs>,
    runtime: tokio::runtime::Handle,
}

impl play::Runner for PoolRunner {
    fn run(&self, task: play::Task) {
        let jobs = Arc::clone(&self.jobs);
        self.runtime.spawn(async move {
            jobs.run_background(task).await;
        });
    }

    fn run_waited_for(&self, task: play::Task) {
        let jobs = Arc::clone(&self.jobs);
        self.runtime.spawn(async move {
            jobs.run_waited_for(task).await;
        });
    }
}

/// Where the peg sessions' background work runs: the pool, when there is a runtime to reach it; else nothing
/// runs in the background (the sessions answer from the search).
fn background_runner(jobs: &Arc<Jobs>) -> Arc<dyn play::Runner> {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => Arc::new(PoolRunner {
            jobs: Arc::clone(jobs),
            runtime,
        }),
        Err(_) => Arc::new(Dropped),
    }
}

/// A runner that drops every task (the session sees the work as failed).
#[derive(Debug, Clone, Copy)]
struct Dropped;

impl play::Runner for Dropped {
    fn run(&self, _task: play::Task) {}
}

/// Complete peg tables kept for the sessions (the English one is about 50 MB; other starts up to about 140 MB).
const PEG_TABLES_KEPT: usize = 2;

/// The shared state as handlers receive it.
pub type Shared = State<Arc<AppState>>;

/// The whole application: pages, assets and the API, with the body limit.
pub fn router(limits: Limits) -> Router {
    router_for(app_state(limits))
}

/// The caches' memory budget when `serve` is not given one: room for the English peg table, a few solvers and
/// two 10x10 Mouse & Cats solutions, and little enough for a small machine.
pub const DEFAULT_CACHE_MEMORY: u64 = 512 << 20;

/// The state every handler shares, with the job pool of `limits` and the default cache budget.
pub fn app_state(limits: Limits) -> Arc<AppState> {
    app_state_with(limits, DEFAULT_CACHE_MEMORY)
}

/// The state every handler shares, with the job pool of `limits` and `cache_memory` bytes for the caches.
pub fn app_state_with(limits: Limits, cache_memory: u64) -> Arc<AppState> {
    let jobs = Arc::new(Jobs::new(limits));
    let runner = background_runner(&jobs);
    let memory = play::MemoryBudget::new(cache_memory);
    let mouse_solutions = play::MouseSolutions::with_budget(memory.clone());
    let peg_tables = play::PegTables::with_budget(PEG_TABLES_KEPT, memory.clone());
    Arc::new(AppState {
        jobs,
        peg: peg::Caches::new(memory.clone()),
        memory,
        env: play::Env {
            // The engine's move also when a game is made or loaded with the engine to move; later moves get
            // what is left of their request (`session::mouse`).
            mouse_time_limit: Some(
                limits
                    .time_limit
                    .saturating_sub(Duration::from_secs(1))
                    .max(Duration::from_millis(100)),
            ),
            mouse_solutions: mouse_solutions.clone(),
            peg_tables: peg_tables.clone(),
            ..play::Env::blocking()
        },
        peg_env: play::Env {
            peg_tables,
            mouse_solutions,
            ..play::Env::new(runner, play::Clock::system())
        },
    })
}

/// The application over `state`.
pub fn router_for(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/status", get(status))
        .route("/openapi.json", get(openapi::document))
        .merge(menus::routes())
        .merge(mouse::routes())
        .merge(peg::routes())
        .merge(sudoku::routes())
        .merge(session::routes())
        .method_not_allowed_fallback(api_method_not_allowed)
        .fallback(api_fallback);
    Router::new()
        .nest("/api", api)
        .merge(assets::routes())
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::map_response(nosniff))
        .with_state(state)
}

/// Every answer, errors and 404s included, tells the browser not to guess its type from its content.
async fn nosniff(mut res: axum::response::Response) -> axum::response::Response {
    res.headers_mut().insert(
        axum::http::header::X_CONTENT_TYPE_OPTIONS,
        axum::http::HeaderValue::from_static("nosniff"),
    );
    res
}

/// The server's state: the job pool's counters and the process's memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    /// `boardlab` and its version.
    pub server: String,
    /// The job pool.
    pub jobs: jobs::JobStats,
    /// The caches kept between requests, within their one memory budget.
    pub cache: CacheStatus,
    /// Resident memory of the process in bytes (Linux), to watch under load.
    pub rss_bytes: Option<u64>,
}

/// The caches' memory budget (`--cache-memory`) and what it holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct CacheStatus {
    /// The budget in bytes.
    pub limit_bytes: u64,
    /// Bytes kept now.
    pub used_bytes: u64,
    /// Things kept now (tables, solvers, solutions).
    pub entries: usize,
    /// Bytes kept now by each cache, largest first.
    pub caches: Vec<CacheUse>,
    /// Things evicted since the start to make room (the least recently used first).
    pub evicted: u64,
    /// Things not kept because each alone was larger than the budget.
    pub refused: u64,
}

/// What one cache keeps.
#[derive(Debug, Serialize, ToSchema)]
pub struct CacheUse {
    /// Its name: "peg tables", "peg solvers", "peg counts", "mouse solutions".
    pub name: String,
    /// Bytes it keeps now.
    pub bytes: u64,
}

impl From<play::BudgetStats> for CacheStatus {
    fn from(s: play::BudgetStats) -> CacheStatus {
        CacheStatus {
            limit_bytes: s.limit_bytes.unwrap_or(u64::MAX),
            used_bytes: s.used_bytes,
            entries: s.entries,
            caches: s
                .caches
                .into_iter()
                .map(|(name, bytes)| CacheUse { name, bytes })
                .collect(),
            evicted: s.evicted,
            refused: s.refused,
        }
    }
}

/// The server's state.
#[utoipa::path(get, path = "/api/status", tag = "server",
    responses((status = 200, description = "The job pool's counters and the memory in use", body = Status)))]
pub async fn status(State(state): Shared) -> ApiResult<Status> {
    Ok(axum::Json(Status {
        server: format!("boardlab {}", env!("CARGO_PKG_VERSION")),
        jobs: state.jobs.stats(),
        cache: CacheStatus::from(state.memory.stats()),
        rss_bytes: rss(),
    }))
}

/// The process's resident memory, from `/proc/self/status` (Linux only).
fn rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

async fn api_fallback(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::not_found(format!(
        "no API route {method} {} (the routes are listed in /api/openapi.json)",
        uri.path()
    ))
}

async fn api_method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    let path = uri.path();
    let hint = if method == Method::GET {
        "it takes a POST with a JSON body"
    } else {
        "see /api/openapi.json for the methods it takes"
    };
    ApiError {
        status: axum::http::StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{path} does not answer {method}: {hint}"),
    }
}

/// Whether `addr` can only be reached from this machine.
fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// Run `boardlab serve` until Ctrl+C.
///
/// # Errors
/// A bad address or option, or an address that cannot be bound.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr = args.addr.trim().parse().map_err(|_| {
        anyhow!(
            "--addr: '{}' is not an address of the form HOST:PORT with a numeric host, such as 127.0.0.1:8080 \
             or [::1]:8080",
            args.addr
        )
    })?;
    if !(args.time_limit > 0.0 && args.time_limit <= 3600.0) {
        anyhow::bail!(
            "--time-limit must be more than 0 and at most 3600 seconds, got {}",
            args.time_limit
        );
    }
    let mut limits = Limits {
        queue: args.queue,
        time_limit: Duration::from_secs_f64(args.time_limit),
        ..Limits::default()
    };
    if let Some(j) = args.jobs {
        if j == 0 || j > 1024 {
            anyhow::bail!("--jobs must be between 1 and 1024, got {j}");
        }
        limits.workers = j;
    }
    if !(args.idle_timeout > 0.0 && args.idle_timeout <= 3600.0) {
        anyhow::bail!(
            "--idle-timeout must be more than 0 and at most 3600 seconds, got {}",
            args.idle_timeout
        );
    }
    let nofile = listen::open_file_limit();
    let conn = listen::ConnLimits {
        max_connections: match args.max_connections {
            Some(n) if (1..=1_000_000).contains(&n) => n,
            Some(n) => anyhow::bail!("--max-connections must be between 1 and 1000000, got {n}"),
            None => listen::default_max_connections(nofile),
        },
        idle_timeout: Duration::from_secs_f64(args.idle_timeout),
        grace: STOP_GRACE,
    };
    for name in &args.allow_host {
        if name.trim().is_empty() || name.contains(['/', ' ', '@']) {
            anyhow::bail!(
                "--allow-host: '{}' is not a host name",
                mousecats::error::excerpt(name)
            );
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The jobs, the quick lane, the table builds and the searches a player waits for, each `workers` at
        // most, and a few for the rest (so that no lane's job waits for a thread behind another lane's).
        .max_blocking_threads(4 * limits.workers + 4)
        .build()
        .context("starting the async runtime")?;
    if args.cache_memory < 1 << 20 {
        anyhow::bail!(
            "--cache-memory must be at least 1 MiB, got {} bytes",
            args.cache_memory
        );
    }
    let state = app_state_in(&runtime, limits, args.cache_memory);
    let result = runtime.block_on(serve(addr, args.open, state, conn, &args.allow_host));
    // Jobs that have not stopped by now (an engine between two looks at its cancel flag) are left to end with
    // the process.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result?;
    let _ = crate::outln!("boardlab serve: stopped");
    Ok(ExitCode::SUCCESS)
}

/// After SIGINT or SIGTERM, the longest the server waits for the answers under way.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// [`app_state_with`] inside `runtime` (whose handle the peg sessions' background runner keeps).
fn app_state_in(
    runtime: &tokio::runtime::Runtime,
    limits: Limits,
    cache_memory: u64,
) -> Arc<AppState> {
    let _inside = runtime.enter();
    app_state_with(limits, cache_memory)
}

async fn serve(
    addr: SocketAddr,
    open: bool,
    state: Arc<AppState>,
    conn: listen::ConnLimits,
    allow_host: &[String],
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr().unwrap_or(addr);
    let url = format!("http://{local}/");
    if !is_loopback(&local) {
        crate::errln!(
            "boardlab: warning: listening on {local}, which is not a loopback address: anyone who can reach it \
             can use this server"
        );
    }
    // Solve Mouse & Cats once in the background, so that the first hint does not wait for it (the sessions and
    // the engine routes share the solution). Then start building the complete table of the page's default peg
    // game (the English board, one peg anywhere) on the pool, so that its indicator answers from the table soon:
    // a session starts the build and is dropped; the table stays in the shared cache. One after the other, as
    // both use rayon's threads: the solution, a few milliseconds alone, would otherwise wait behind the table.
    let warm = Arc::clone(&state);
    tokio::task::spawn_blocking(move || {
        let _ = warm
            .env
            .mouse_solutions
            .get_or_solve(mousecats::Rule::FarRow);
        let _ = play::PegSession::new(
            ::peg::Problem::standard(::peg::Board::english()),
            &warm.peg_env,
        );
    });
    // A closed stdout must not stop (or panic) a server: its status lines are best effort.
    let _ = crate::outln!("boardlab serve: listening on {url} (Ctrl+C stops it)");
    if open {
        open_browser(&url);
    }
    let allowed = Arc::new(host::AllowedHosts::new(local, allow_host));
    let idle = conn.idle_timeout;
    let app = router_for(Arc::clone(&state))
        .layer(axum::middleware::from_fn(move |req, next| {
            listen::read_body(idle, BODY_LIMIT, req, next)
        }))
        .layer(axum::middleware::from_fn(move |req, next| {
            host::check(Arc::clone(&allowed), req, next)
        }));
    let stopping = Arc::clone(&state);
    listen::run(listener, app, conn, async move {
        shutdown().await;
        // Every running job is told to stop, and no new one starts; the answers under way end with a 503. The
        // peg tables being built and the searches under way in the background stop too.
        stopping.jobs.close();
        stopping.peg_env.peg_tables.stop();
    })
    .await;
    Ok(())
}

/// Resolves on Ctrl+C (or SIGTERM on Unix); a second one ends the process at once.
async fn shutdown() {
    signal().await;
    crate::errln!("boardlab serve: stopping");
    tokio::spawn(async {
        signal().await;
        std::process::exit(130);
    });
}

/// The next SIGINT or SIGTERM.
async fn signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Ask the desktop to open `url`; a failure is a warning, not an error.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => {}
        Err(e) => crate::errln!(
            "boardlab: warning: could not open a browser with {opener}: {e}; open {url} yourself"
        ),
    }
}
