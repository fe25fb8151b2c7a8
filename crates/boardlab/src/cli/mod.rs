//! The `boardlab <game> <verb>` tools: thin layers over the engine crates.

pub mod mouse;
pub mod peg;
pub mod sudoku;

/// The largest `--threads` accepted: this many per core. More threads than that only slow a run down (and
/// 100,000 of them took a machine to a load of 1000), so a larger number is refused with this bound.
pub const THREADS_PER_CORE: usize = 4;

/// Parse a `--threads` value: a whole number from 1 to [`THREADS_PER_CORE`] times the cores.
///
/// # Errors
/// Not a whole number, 0, or above the bound (the message gives the bound and the number of cores).
pub fn parse_threads(s: &str) -> Result<std::num::NonZeroUsize, String> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let max = THREADS_PER_CORE * cores;
    let t = s.trim();
    let too_many = || {
        format!(
            "{} threads: give 1 to {max} ({THREADS_PER_CORE} per core; this machine has {cores})",
            short(t)
        )
    };
    let n: usize = match t.parse() {
        Ok(n) => n,
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => return Err(too_many()),
        Err(_) => {
            return Err(format!(
                "'{}' is not a number of threads (1 to {max})",
                short(t)
            ));
        }
    };
    match std::num::NonZeroUsize::new(n) {
        Some(n) if n.get() <= max => Ok(n),
        _ => Err(too_many()),
    }
}

/// At most 32 characters of `text`, for quoting a user's input in an error message.
pub fn short(text: &str) -> String {
    mousecats::error::excerpt(text)
}
