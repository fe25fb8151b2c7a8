//! What the workers send each other: parcels of records (as they are within a process, byte strings between
//! processes) and the notes by which they agree, and the transport that carries both.

use std::any::Any;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::checkpoint::SavedShare;
use super::error::TransportError;
use super::figures::WorkerFigures;
use crate::step::Acc;

/// How the workers of a distributed enumeration reach each other. Every worker calls the two methods the same
/// number of times, in the same order (the enumeration is in lockstep); each call returns when every worker
/// has made it.
pub trait Transport {
    /// Send each parcel to its worker ([`Parcel::to`]); return the parcels sent to this worker in this call
    /// (one from every worker, the worker itself included), in any order.
    ///
    /// # Errors
    /// When a worker cannot be reached any more.
    fn exchange(&mut self, parcels: Vec<Parcel>) -> Result<Vec<Parcel>, TransportError>;

    /// Send `note` to every worker; return the notes of all workers (this one's included), in any order.
    ///
    /// # Errors
    /// When a worker cannot be reached any more.
    fn all_gather(&mut self, note: Note) -> Result<Vec<Note>, TransportError>;
}

/// How many processes, and how many workers each: worker `w` runs in process `w / per_process`. Workers of one
/// process hand each other records as they are; to another process they are byte-packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Number of processes.
    pub processes: usize,
    /// Workers per process.
    pub per_process: usize,
}

impl Shape {
    /// Number of workers.
    pub fn workers(&self) -> usize {
        self.processes * self.per_process
    }

    /// The process of worker `w`.
    pub fn process_of(&self, w: usize) -> usize {
        w / self.per_process.max(1)
    }
}

/// One worker's records for another, in one exchange. Parcels between workers of one process carry the
/// buffers themselves; between processes, a byte string (which is what [`Serialize`] writes).
pub struct Parcel {
    pub(super) to: u32,
    pub(super) from: u32,
    /// Bit 0: the sender has more sources to expand in this level; bit 1: the sender's step failed.
    pub(super) flags: u8,
    pub(super) body: Body,
}

pub(super) enum Body {
    Empty,
    Local(Arc<dyn Any + Send + Sync>),
    Wire(Vec<u8>),
}

pub(super) const MORE: u8 = 1;

pub(super) const FAILED: u8 = 2;

impl Parcel {
    /// The worker it is for.
    pub fn to(&self) -> usize {
        self.to as usize
    }

    /// The worker it is from.
    pub fn from(&self) -> usize {
        self.from as usize
    }

    /// Bytes it takes between processes (0 for a parcel between workers of one process).
    pub fn wire_bytes(&self) -> usize {
        match &self.body {
            Body::Wire(b) => b.len(),
            _ => 0,
        }
    }
}

impl Clone for Parcel {
    fn clone(&self) -> Parcel {
        Parcel {
            to: self.to,
            from: self.from,
            flags: self.flags,
            body: match &self.body {
                Body::Empty => Body::Empty,
                Body::Local(a) => Body::Local(Arc::clone(a)),
                Body::Wire(b) => Body::Wire(b.clone()),
            },
        }
    }
}

impl std::fmt::Debug for Parcel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = match &self.body {
            Body::Empty => "empty".to_string(),
            Body::Local(_) => "local".to_string(),
            Body::Wire(b) => format!("{} bytes", b.len()),
        };
        f.debug_struct("Parcel")
            .field("to", &self.to)
            .field("from", &self.from)
            .field("flags", &self.flags)
            .field("body", &body)
            .finish()
    }
}

/// A byte string serialized as one (so that binary formats copy it in one go).
struct ByteStr<'a>(&'a [u8]);

impl Serialize for ByteStr<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// The owned counterpart of [`ByteStr`].
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ByteBuf, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<ByteBuf, A::Error> {
                let mut v = Vec::with_capacity(a.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(b) = a.next_element::<u8>()? {
                    v.push(b);
                }
                Ok(ByteBuf(v))
            }
        }
        d.deserialize_byte_buf(V)
    }
}

/// Body kinds on the wire.
const KIND_EMPTY: u8 = 0;

const KIND_WIRE: u8 = 1;

/// A parcel between workers of one process that was serialized all the same (a transport that does not keep
/// them in the process): the receiver reports it.
const KIND_LOCAL: u8 = 2;

impl Serialize for Parcel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let (kind, bytes): (u8, &[u8]) = match &self.body {
            Body::Empty => (KIND_EMPTY, &[]),
            Body::Wire(b) => (KIND_WIRE, b),
            Body::Local(_) => (KIND_LOCAL, &[]),
        };
        let mut t = s.serialize_tuple(5)?;
        t.serialize_element(&self.to)?;
        t.serialize_element(&self.from)?;
        t.serialize_element(&self.flags)?;
        t.serialize_element(&kind)?;
        t.serialize_element(&ByteStr(bytes))?;
        t.end()
    }
}

impl<'de> Deserialize<'de> for Parcel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Parcel, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Parcel;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a parcel")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Parcel, A::Error> {
                use serde::de::Error;
                let missing = || A::Error::custom("a parcel ended early");
                let to: u32 = a.next_element()?.ok_or_else(missing)?;
                let from: u32 = a.next_element()?.ok_or_else(missing)?;
                let flags: u8 = a.next_element()?.ok_or_else(missing)?;
                let kind: u8 = a.next_element()?.ok_or_else(missing)?;
                let bytes: ByteBuf = a.next_element()?.ok_or_else(missing)?;
                let body = match kind {
                    KIND_EMPTY => Body::Empty,
                    KIND_WIRE => Body::Wire(bytes.0),
                    KIND_LOCAL => {
                        return Err(A::Error::custom(
                            "a parcel between workers of one process was sent between processes",
                        ));
                    }
                    k => return Err(A::Error::custom(format!("unknown parcel kind {k}"))),
                };
                Ok(Parcel {
                    to,
                    from,
                    flags,
                    body,
                })
            }
        }
        d.deserialize_tuple(5, V)
    }
}

/// A small message every worker sends to every other at the points where they must agree (the start and the
/// end of each level step, checkpoints, the final figures).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Note {
    pub(super) from: u32,
    pub(super) body: NoteBody,
}

impl Note {
    /// The worker it is from.
    pub fn from(&self) -> usize {
        self.from as usize
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) enum NoteBody {
    /// Whether the worker could read its share of a checkpoint (an error message if not).
    Loaded(Option<String>),
    /// A level step is about to start: the memory the worker expects it to need and its process's limit.
    Start { needed: u64, limit: Option<u64> },
    /// A level step ended: the statistics of the worker's share of the level expanded, the classes of its
    /// share of the next level, and whether (and how) its step failed.
    End {
        acc: Acc,
        next_len: u64,
        failure: Failure,
    },
    /// The worker saved its share in a checkpoint (or why it could not).
    Saved(Result<SavedShare, String>),
    /// Worker 0 recorded the checkpoint (or why it could not).
    Committed(Option<String>),
    /// The worker's figures, at the end.
    Figures(WorkerFigures),
    /// Positions and classes of the worker's share of a level that can still finish.
    Found { positions: u64, classes: u64 },
    /// A spilling step is about to start: the passes the worker needs (0: none fits its memory limit, which
    /// would need `needed` bytes a process), and why its store has no room for its share of the next level.
    Plan {
        passes: u64,
        needed: u64,
        disk: Option<String>,
    },
    /// Worker 0's count of the positions that can still finish, (pegs, positions, classes) per level, or why
    /// it stopped (a spilling run with a finish hole).
    Finishable(Result<Vec<(u32, u64, u64)>, CountFailure>),
}

/// A [`CountError`](crate::CountError) as a note carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum CountFailure {
    Overflow {
        pegs: u32,
    },
    MemoryLimit {
        pegs: u32,
        needed: u64,
        limit: u64,
        classes_so_far: u64,
    },
    Cancelled,
}

impl From<&crate::CountError> for CountFailure {
    fn from(e: &crate::CountError) -> CountFailure {
        match *e {
            crate::CountError::Overflow { pegs } => CountFailure::Overflow { pegs },
            crate::CountError::MemoryLimit {
                pegs,
                needed,
                limit,
                classes_so_far,
            } => CountFailure::MemoryLimit {
                pegs,
                needed,
                limit,
                classes_so_far,
            },
            crate::CountError::Cancelled => CountFailure::Cancelled,
        }
    }
}

impl From<CountFailure> for crate::CountError {
    fn from(e: CountFailure) -> crate::CountError {
        match e {
            CountFailure::Overflow { pegs } => crate::CountError::Overflow { pegs },
            CountFailure::MemoryLimit {
                pegs,
                needed,
                limit,
                classes_so_far,
            } => crate::CountError::MemoryLimit {
                pegs,
                needed,
                limit,
                classes_so_far,
            },
            CountFailure::Cancelled => crate::CountError::Cancelled,
        }
    }
}

impl NoteBody {
    pub(super) fn name(&self) -> &'static str {
        match self {
            NoteBody::Loaded(_) => "loaded",
            NoteBody::Start { .. } => "start",
            NoteBody::End { .. } => "end",
            NoteBody::Saved(_) => "saved",
            NoteBody::Committed(_) => "committed",
            NoteBody::Figures(_) => "figures",
            NoteBody::Found { .. } => "found",
            NoteBody::Plan { .. } => "plan",
            NoteBody::Finishable(_) => "finishable",
        }
    }
}

/// How a worker's level step failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Failure {
    None,
    /// A narrow counter overflowed: the level is rebuilt with 128-bit counters.
    Narrow,
    /// The worker's memory passed its part of the process's limit; the bytes it expects the process to need.
    Memory {
        needed: u64,
    },
    /// A 128-bit counter overflowed.
    Overflow {
        pegs: u32,
    },
}
