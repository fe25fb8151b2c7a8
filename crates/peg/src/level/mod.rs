//! How the fast enumeration stores a level, and the order it keeps positions in.
//!
//! - A normal form (a position's smallest image) is turned into a *mixed key* by a bijection of the `bits`-bit
//!   integers ([`Mixer`]), so that mixed keys are spread evenly however structured the positions are.
//! - A level is split into `2^p` *partitions* by the top `p` bits of the mixed key ([`Layout`]); so partitions
//!   hold consecutive ranges of mixed keys, and a level read partition after partition is in increasing order.
//! - While a level is built, each partition is an open-addressing table whose home slot grows with the key
//!   ([`Table`]); tables are small enough to stay in a core's cache while records are added to them.
//! - A finished partition is *frozen* ([`Part`]): its entries sorted, each stored as the difference from the
//!   previous key and the two counters, every field in the fewest bytes that hold its largest value in that
//!   partition (typically 2 + 4 + 4 bytes an entry at the widest English levels, keys only: 2 bytes).

mod filter;
mod keys;
mod part;
mod pool;
mod table;
#[cfg(test)]
mod tests;

pub(crate) use filter::KeyFilter;
pub(crate) use keys::{Layout, Mixer, PART_TARGET, Rec, Slot, TableKey};
pub(crate) use part::{BLOCK, Frozen, Part};
pub(crate) use pool::Pool;
pub(crate) use table::{INIT_LOAD, Table};
