//! The finishable set's walks over dense bit sets, one bit per position of a level's *layer*.
//!
//! The walks of [`Finishable::build`](crate::Finishable::build) keep keys only (no counters). On boards of up
//! to [`MAX_HOLES`] holes, the positions a level can hold are few enough to be numbered densely: a level of a
//! walk holds positions with the same number of pegs `k` and the same position class `c` (play keeps the
//! class, and the symmetries used keep it on the positions of a walk, see [`meet`]), and these positions, its
//! *layer*, are numbered in increasing order of their bits by their *rank*. On the English board the widest
//! layer, 16 pegs of one class, has about C(33, 16) / 16 = 73 million positions: a bit set of 9 MB.
//!
//! So a step of a walk is: for each class of the level, its successors' normal forms, each ranked (two table
//! lookups and an add: the rank of the high bits' prefix in the layer, plus the rank of the low 16 bits among
//! the values with their number of pegs and class) and its bit set in the next level's bit set (the bit's
//! word asked for from memory some successors ahead, and only written when the bit is not set already: most
//! successors are repeats). The next level is then the bit set read in order: its ranks, increasing. There is
//! no record written and read back, no table, no sort; duplicates cost one cached read each. A level kept is a
//! list of ranks (4 bytes a class), and a level intersected with another is the AND of their bit sets.
//!
//! Boards with more holes, layers too big for the memory allowed, or a start whose class the walk cannot
//! keep, use the general walks of [`crate::enumerate`] ([`meet`] returns `None`).
//!
//! The solution counts over a finishable set found this way are counted here too ([`count_paths`]): level by
//! level from the start, each finishable position pulls the paths of the finishable positions one jump above
//! it, looked up by rank in a bit set of the level above (no records, no sorting, no table of counters). For a
//! self-dual problem (the start is the full board less the finish hole) only down to the middle: below it, the
//! paths to the finish from the complements are pushed up from the middle instead.

mod layer;
mod paths;
mod sink;
#[cfg(test)]
mod tests;
mod walk;

pub(crate) use paths::count_paths;
pub(crate) use sink::Jumps;
pub(crate) use walk::{meet, prepare};
