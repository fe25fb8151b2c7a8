//! [`peg::shard::Transport`] over timely dataflow: two dataflows per worker, one for the record parcels (routed
//! to their owner by timely's exchange on the parcel's destination) and one for the notes every worker sends
//! to every other. Each exchange is one timely epoch: the worker sends its parcels at the epoch, closes it,
//! and steps the computation until the probe says the epoch is complete everywhere; what arrived for the
//! epoch is then taken from the sink's stash (parcels of the next epoch from faster workers wait there).
//! Each parcel travels as a timely message of its own (the engine cuts the records for another process into
//! parcels of a few hundred KiB), so that timely's buffers between processes keep their first size.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::time::Duration;

use peg::shard::{Note, Parcel, Transport, TransportError};
use timely::container::{
    CapacityContainerBuilder, ContainerBuilder, LengthPreservingContainerBuilder, PushInto,
};
use timely::dataflow::channels::pact::{Exchange, ExchangeCore};
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input as _, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

type Stash<D> = Rc<RefCell<BTreeMap<u64, Vec<D>>>>;

/// The input of a dataflow of `D`s at `u64` epochs.
type Input<D> = InputHandle<u64, CapacityContainerBuilder<Vec<D>>>;

/// Builds timely's containers of parcels one parcel each: a message between processes is then one parcel.
/// (timely's default builder packs up to a few hundred parcels to one worker into a message, and a buffer
/// between processes grows to the next power of two of the biggest message it has carried, for good: packed,
/// a round's parcels to one worker make a message of several MB.)
#[derive(Default)]
struct OneParcel {
    pending: VecDeque<Vec<Parcel>>,
    current: Vec<Parcel>,
}

impl PushInto<Parcel> for OneParcel {
    fn push_into(&mut self, p: Parcel) {
        self.pending.push_back(vec![p]);
    }
}

impl ContainerBuilder for OneParcel {
    type Container = Vec<Parcel>;

    fn extract(&mut self) -> Option<&mut Vec<Parcel>> {
        self.current = self.pending.pop_front()?;
        Some(&mut self.current)
    }

    fn finish(&mut self) -> Option<&mut Vec<Parcel>> {
        self.extract()
    }
}

impl LengthPreservingContainerBuilder for OneParcel {}

/// The timely transport of one worker.
pub struct TimelyTransport<'w> {
    worker: &'w mut Worker,
    parcels: Option<Input<Parcel>>,
    parcel_probe: ProbeHandle<u64>,
    parcel_stash: Stash<Parcel>,
    parcel_epoch: u64,
    notes: Option<Input<(u32, Note)>>,
    note_probe: ProbeHandle<u64>,
    note_stash: Stash<Note>,
    note_epoch: u64,
}

impl<'w> TimelyTransport<'w> {
    /// Build the two dataflows on `worker`.
    pub fn new(worker: &'w mut Worker) -> TimelyTransport<'w> {
        let parcel_stash: Stash<Parcel> = Rc::default();
        let note_stash: Stash<Note> = Rc::default();
        let stash = Rc::clone(&parcel_stash);
        let (parcels, parcel_probe) = worker.dataflow::<u64, _, _>(move |scope| {
            let (input, stream) = scope.new_input::<Vec<Parcel>>();
            // The stash holds no capability: the probe after it passes an epoch once every parcel of the
            // epoch, from every worker, has been taken in.
            let (probe, _) = stream
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    ExchangeCore::<OneParcel, _>::new_core(|p: &Parcel| p.to() as u64),
                    "ParcelStash",
                    move |_cap, _info| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let t = cap.least().copied().unwrap_or(0);
                                stash.borrow_mut().entry(t).or_default().append(data);
                            });
                        }
                    },
                )
                .probe();
            (input, probe)
        });
        let stash = Rc::clone(&note_stash);
        let (notes, note_probe) = worker.dataflow::<u64, _, _>(move |scope| {
            let (input, stream) = scope.new_input::<Vec<(u32, Note)>>();
            let (probe, _) = stream
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|n: &(u32, Note)| u64::from(n.0)),
                    "NoteStash",
                    move |_cap, _info| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let t = cap.least().copied().unwrap_or(0);
                                stash
                                    .borrow_mut()
                                    .entry(t)
                                    .or_default()
                                    .extend(data.drain(..).map(|(_, n)| n));
                            });
                        }
                    },
                )
                .probe();
            (input, probe)
        });
        TimelyTransport {
            worker,
            parcels: Some(parcels),
            parcel_probe,
            parcel_stash,
            parcel_epoch: 0,
            notes: Some(notes),
            note_probe,
            note_stash,
            note_epoch: 0,
        }
    }

    /// Step the worker until `probe` has passed `epoch`.
    fn settle(&mut self, which: bool, epoch: u64) {
        loop {
            let probe = if which {
                &self.parcel_probe
            } else {
                &self.note_probe
            };
            if !probe.less_equal(&epoch) {
                return;
            }
            self.worker.step_or_park(Some(Duration::from_millis(50)));
        }
    }

    /// Close the inputs (the dataflows end once every worker has closed them).
    pub fn close(&mut self) {
        self.parcels = None;
        self.notes = None;
    }
}

impl Transport for TimelyTransport<'_> {
    fn exchange(&mut self, parcels: Vec<Parcel>) -> Result<Vec<Parcel>, TransportError> {
        let epoch = self.parcel_epoch;
        let Some(input) = self.parcels.as_mut() else {
            return Err(TransportError("the transport is closed".into()));
        };
        for p in parcels {
            input.send(p);
        }
        input.advance_to(epoch + 1);
        self.settle(true, epoch);
        self.parcel_epoch += 1;
        Ok(self
            .parcel_stash
            .borrow_mut()
            .remove(&epoch)
            .unwrap_or_default())
    }

    fn all_gather(&mut self, note: Note) -> Result<Vec<Note>, TransportError> {
        let epoch = self.note_epoch;
        let peers = self.worker.peers();
        let Some(input) = self.notes.as_mut() else {
            return Err(TransportError("the transport is closed".into()));
        };
        for w in 0..peers {
            input.send((w as u32, note.clone()));
        }
        input.advance_to(epoch + 1);
        self.settle(false, epoch);
        self.note_epoch += 1;
        Ok(self
            .note_stash
            .borrow_mut()
            .remove(&epoch)
            .unwrap_or_default())
    }
}
