//! The level step: expanding one level of the enumeration into the next.
//!
//! The next level is built in rounds of about 3 million successors:
//!
//! 1. *expand* (both cores, work-stealing over blocks of 64 source classes): for each class, its images are
//!    computed once; its legal moves are found per direction of moves; each gives a successor whose images are
//!    the class's images XOR the move's precomputed images, and whose normal form is their minimum (eight
//!    successors at a time on AVX-512). Successors of one class that fall in the same class are merged (class
//!    total times multiplicity for the full tree, once for the normal tree). The class's two counters go to
//!    the round's table of source counters, and each successor becomes an 8-byte *record* (its key inside its
//!    partition, and the index of those counters) in the buffer of its partition;
//! 2. *merge* (both cores, over partitions): each partition's open-addressing table, about 400 KiB, is read
//!    into the core's cache, then the partition's records are added into it.
//!
//! One driver runs the rounds ([`Rounds::feed`]), whatever the place the records go ([`Sink`]): the tables of
//! this process (the in-memory run, and each pass of a spilling store, `crate::spill`), or the cluster workers
//! that own their partitions (the exchange of `crate::shard`, whose workers stay in lockstep). The run loops
//! around it share the level plan (the next level's size, its key width, the last level) and the state of a
//! run after each level ([`State`]).
//!
//! When every source has been expanded, each table is sorted (it is nearly sorted already: its home slots
//! increase with the key) and frozen. Tables, buffers and counter tables are kept from level to level. A count
//! that never looks at its levels (the whole table) skips the freeze while the memory limit leaves room: the
//! next step expands the level straight from its tables, slot by slot, which takes about twice the memory of
//! a frozen level.
//!
//! Counters are `u64`; a level where a class's sum overflows is rebuilt with `u128` counters (on the English
//! board, the levels of 4 pegs and fewer; the level totals, summed in `u128`, pass 2^64 from 9 pegs down).
//! Every addition is checked. Memory is bounded: before each level the memory it needs is
//! estimated and compared with the limit ([`Options::max_memory`]); the check is repeated after every round
//! with the tables' real size.

mod expand;
mod levels;
mod options;
mod plan;
mod rounds;
mod sink;
mod state;
mod walk;

pub(crate) use expand::{Acc, Ctx, StepError, Worker};
pub(crate) use levels::{AnyFrozen, KeyLevel, Source};
pub use options::{CounterWidth, Options, Progress, StatsSink, StepStats};
pub(crate) use plan::{BASE_BYTES, NARROW_KEY_BITS, key_pbits, narrow_keys, next_pegs};
pub(crate) use rounds::{
    Builder, Checks, Rounds, fit_round, round_bytes, round_records, round_records_for,
    round_records_least, round_within, sized_classes,
};
pub(crate) use sink::{Sink, Stop, warm_worth};
pub use state::State;
pub(crate) use walk::{Walk, run};
