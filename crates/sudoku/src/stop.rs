//! Stopping long work from outside: the `_until` variants of the rater, the logical solver and the classic
//! generator take a flag (`&AtomicBool`) that another thread may raise (a server whose request ran out of time,
//! a user who gave up); the work looks at it after every step, or every grid and cell tried, and then ends with
//! [`Stopped`] instead of an answer. The variants without a flag never stop early and cost nothing extra.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sudoku::Grid;
//! use sudoku::rate;
//! use sudoku::stop::Stopped;
//!
//! let puzzle: Grid = "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.".parse()?;
//! // Raised before the work starts: no rating, and no wrong one.
//! assert_eq!(rate::rate_until(&puzzle, false, &AtomicBool::new(true)).err(), Some(Stopped));
//! // Never raised: the same report as `rate::rate`.
//! let report = rate::rate_until(&puzzle, false, &AtomicBool::new(false))?;
//! assert_eq!(report.rating, rate::rate(&puzzle, false).rating);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::convert::Infallible;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// The work was stopped by its flag before it finished: there is no answer (and no partial one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stopped before it finished, as asked")
    }
}

impl std::error::Error for Stopped {}

/// The check a piece of work makes between its steps: `Err` ends it. The work is written once over this check;
/// the variant without a flag passes [`Never`], whose error cannot happen, so it compiles to nothing.
pub(crate) trait Check {
    /// Why the work ends early.
    type Error;
    /// `Err` when the work must stop now.
    fn check(&self) -> Result<(), Self::Error>;
}

/// The check of the variants without a flag: never stops.
pub(crate) struct Never;

impl Check for Never {
    type Error = Infallible;
    #[inline(always)]
    fn check(&self) -> Result<(), Infallible> {
        Ok(())
    }
}

impl Check for &AtomicBool {
    type Error = Stopped;
    #[inline]
    fn check(&self) -> Result<(), Stopped> {
        if self.load(Ordering::Relaxed) {
            Err(Stopped)
        } else {
            Ok(())
        }
    }
}
