//! The distributed enumeration ([`peg::shard`]) against the single-machine engine: several workers in threads,
//! joined by an in-memory transport that sends the parcels between "processes" through serde (JSON), in every
//! shape (one process of several workers, several processes of one, mixed), every counter width, with
//! checkpoints saved in memory and runs resumed from each of them.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};

use peg::enumerate::{self, CounterWidth, Options};
use peg::shard::{
    self, Checkpoint, Note, Parcel, Resume, SavedShare, Shape, ShardError, ShardOptions,
    ShardOutput, ShareData, State, Transport, TransportError,
};
use peg::spill::{LevelStore, Stored};
use peg::{Board, Finish, Lattice, Problem};

/// Workers in threads of one test process, meeting at a barrier.
struct Hub {
    shape: Shape,
    barrier: Barrier,
    mail: Vec<Mutex<Vec<Parcel>>>,
    notes: Mutex<Vec<Note>>,
}

struct Local {
    hub: Arc<Hub>,
    me: usize,
}

impl Transport for Local {
    fn exchange(&mut self, parcels: Vec<Parcel>) -> Result<Vec<Parcel>, TransportError> {
        let shape = self.hub.shape;
        for p in parcels {
            let to = p.to();
            // Between processes, through serde, as a real transport would (the big ones only when the test
            // runs with small rounds: JSON spells every byte out).
            let p = if shape.process_of(to) != shape.process_of(self.me) && p.wire_bytes() < 1 << 16
            {
                let s = serde_json::to_string(&p).unwrap();
                serde_json::from_str(&s).unwrap()
            } else {
                p
            };
            self.hub.mail[to].lock().unwrap().push(p);
        }
        self.hub.barrier.wait();
        let mine = std::mem::take(&mut *self.hub.mail[self.me].lock().unwrap());
        self.hub.barrier.wait();
        Ok(mine)
    }

    fn all_gather(&mut self, note: Note) -> Result<Vec<Note>, TransportError> {
        let s = serde_json::to_string(&note).unwrap();
        self.hub
            .notes
            .lock()
            .unwrap()
            .push(serde_json::from_str(&s).unwrap());
        self.hub.barrier.wait();
        let all = self.hub.notes.lock().unwrap().clone();
        self.hub.barrier.wait();
        if self.me == 0 {
            self.hub.notes.lock().unwrap().clear();
        }
        self.hub.barrier.wait();
        Ok(all)
    }
}

/// Checkpoints kept in memory: every level's shares and states, by level.
#[derive(Default)]
struct Store {
    shares: Mutex<BTreeMap<(u32, usize), Vec<u8>>>,
    states: Mutex<Vec<(State, Vec<SavedShare>)>>,
}

struct MemCheckpoint {
    store: Arc<Store>,
    me: usize,
}

impl Checkpoint for MemCheckpoint {
    fn save(&mut self, pegs: u32, share: &dyn ShareData) -> Result<SavedShare, String> {
        let mut bytes = Vec::new();
        share.write_to(&mut bytes).map_err(|e| e.to_string())?;
        let saved = SavedShare {
            worker: self.me as u32,
            classes: share.classes(),
            bytes: bytes.len() as u64,
            checksum: 0,
            name: format!("{pegs}-{}", self.me),
        };
        self.store
            .shares
            .lock()
            .unwrap()
            .insert((pegs, self.me), bytes);
        Ok(saved)
    }

    fn commit(&mut self, state: &State, shares: &[SavedShare]) -> Result<(), String> {
        self.store
            .states
            .lock()
            .unwrap()
            .push((state.clone(), shares.to_vec()));
        Ok(())
    }
}

struct Run<'a> {
    shape: Shape,
    width: CounterWidth,
    levels: Option<usize>,
    store: Option<Arc<Store>>,
    resume: Option<&'a State>,
    round: usize,
}

fn run(p: &Problem, r: &Run<'_>) -> Vec<Result<ShardOutput, ShardError>> {
    let n = r.shape.workers();
    let hub = Arc::new(Hub {
        shape: r.shape,
        barrier: Barrier::new(n),
        mail: (0..n).map(|_| Mutex::new(Vec::new())).collect(),
        notes: Mutex::new(Vec::new()),
    });
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|me| {
                let hub = Arc::clone(&hub);
                s.spawn(move || {
                    let mut net = Local { hub, me };
                    let mut opts = ShardOptions::new(me, r.shape);
                    opts.counter_width = r.width;
                    opts.max_levels = r.levels;
                    opts.round_records = r.round;
                    let mut cp = r.store.as_ref().map(|store| MemCheckpoint {
                        store: Arc::clone(store),
                        me,
                    });
                    let mut bytes: Vec<u8> = match (r.resume, &r.store) {
                        (Some(st), Some(store)) => {
                            store.shares.lock().unwrap()[&(st.pegs, me)].clone()
                        }
                        _ => Vec::new(),
                    };
                    let mut reader: &[u8] = &bytes[..];
                    let resume = r.resume.map(|st| Resume {
                        state: st.clone(),
                        share: &mut reader,
                    });
                    let out = shard::count(
                        p,
                        &opts,
                        &mut net,
                        cp.as_mut().map(|c| c as &mut dyn Checkpoint),
                        resume,
                    );
                    bytes.clear();
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn single(p: &Problem, levels: Option<usize>) -> peg::Count {
    enumerate::count(
        p,
        &Options {
            max_levels: levels,
            ..Options::default()
        },
    )
    .unwrap()
}

fn plain(shape: Shape) -> Run<'static> {
    Run {
        shape,
        width: CounterWidth::U64,
        levels: None,
        store: None,
        resume: None,
        round: 0,
    }
}

const SHAPES: [Shape; 4] = [
    Shape {
        processes: 1,
        per_process: 3,
    },
    Shape {
        processes: 3,
        per_process: 1,
    },
    Shape {
        processes: 2,
        per_process: 2,
    },
    Shape {
        processes: 1,
        per_process: 1,
    },
];

fn check(p: &Problem, r: &Run<'_>) {
    let want = single(p, r.levels);
    for (w, out) in run(p, r).into_iter().enumerate() {
        let out = out.unwrap();
        assert_eq!(out.count, want, "worker {w} of {:?}", r.shape);
        assert_eq!(out.figures.len(), r.shape.workers());
        let sent: u64 = out.figures.iter().map(|f| f.records_sent).sum();
        let received: u64 = out.figures.iter().map(|f| f.records_received).sum();
        assert_eq!(sent, received);
        let wire_sent: u64 = out.figures.iter().map(|f| f.wire_sent).sum();
        let wire_received: u64 = out.figures.iter().map(|f| f.wire_received).sum();
        assert_eq!(wire_sent, wire_received);
        if r.shape.processes == 1 {
            assert_eq!(wire_sent, 0);
        }
    }
}

#[test]
fn triangle_every_shape_and_width() {
    let p = Problem::standard(Board::builtin("triangle").unwrap());
    for shape in SHAPES {
        for width in [CounterWidth::U64, CounterWidth::U16, CounterWidth::U128] {
            check(
                &p,
                &Run {
                    width,
                    // Small rounds: many exchanges a level.
                    round: 64,
                    ..plain(shape)
                },
            );
        }
    }
}

#[test]
fn english_in_four_workers_with_narrow_counters() {
    let p = Problem::standard(Board::english());
    check(
        &p,
        &Run {
            width: CounterWidth::U16,
            ..plain(SHAPES[2])
        },
    );
}

/// 28 holes, the English board less two arms' ends, with one mirror symmetry; the centre empty.
fn flag() -> (Board, peg::Position) {
    Board::from_layout(
        "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  o\n",
        Lattice::Square,
        "flag",
    )
    .unwrap()
}

#[test]
fn custom_layout_and_early_levels() {
    let (b, start) = flag();
    let p = Problem::new(b, start, Finish::Anywhere).unwrap();
    check(&p, &plain(SHAPES[2]));
    let french = Problem::standard(Board::builtin("french").unwrap());
    check(
        &french,
        &Run {
            levels: Some(9),
            ..plain(SHAPES[1])
        },
    );
    // The diamond (41 holes: 32-bit keys in at least 1,024 partitions) and Wiegleb's board (45 holes: 64-bit
    // keys in tables and records).
    for name in ["diamond", "wiegleb"] {
        let p = Problem::standard(Board::builtin(name).unwrap());
        check(
            &p,
            &Run {
                levels: Some(7),
                ..plain(SHAPES[2])
            },
        );
    }
}

/// Checkpoints after every level; a run resumed from each gives the uninterrupted run's table.
#[test]
fn resumed_from_every_checkpoint() {
    let p = Problem::standard(Board::builtin("triangle").unwrap());
    let want = single(&p, None);
    for shape in [SHAPES[0], SHAPES[2]] {
        let store = Arc::new(Store::default());
        let r = Run {
            store: Some(Arc::clone(&store)),
            width: CounterWidth::U16,
            ..plain(shape)
        };
        for out in run(&p, &r) {
            assert_eq!(out.unwrap().count, want);
        }
        let states = store.states.lock().unwrap().clone();
        assert_eq!(states.len(), want.levels.len() - 1);
        for (st, shares) in &states {
            assert_eq!(shares.len(), shape.workers());
            let classes: u64 = shares.iter().map(|s| s.classes).sum();
            assert_eq!(Some(&classes), st.sizes.last());
            let r = Run {
                resume: Some(st),
                store: Some(Arc::clone(&store)),
                width: CounterWidth::U16,
                ..plain(shape)
            };
            for out in run(&p, &r) {
                let out = out.unwrap();
                assert_eq!(out.count, want);
                assert_eq!(out.resumed_from, Some(st.pegs));
            }
        }
    }
}

/// With a finish hole and checkpoints: every checkpoint's state holds the engine's counts of the positions
/// that can still finish, and a run resumed from each checkpoint (as a killed run is) gives the engine's
/// table, finishable rows included, on the triangle: to the start's vacancy, to another hole of its position
/// class, to a hole of another class (none can finish), and from a checkpoint that holds no rows (they are
/// found again).
#[test]
fn finish_holes_resumed_from_every_checkpoint() {
    let b = Board::builtin("triangle").unwrap();
    let start = b.full().without_peg(0);
    let class = |h: usize| b.position_class(peg::Position::EMPTY.with_peg(h));
    let other = (1..b.holes())
        .find(|&h| class(h) != b.position_class(start))
        .unwrap();
    let solvable = |h: usize| {
        let p = Problem::new(b.clone(), start, Finish::Hole(h)).unwrap();
        single(&p, None)
            .levels
            .iter()
            .any(|l| l.finishable > Some(0))
    };
    let same = (1..b.holes())
        .find(|&h| class(h) == b.position_class(start) && solvable(h))
        .unwrap();
    // (start's vacancy, finish, shape, whether some position can finish)
    let cases = [
        (0, 0, SHAPES[1], true),
        (0, same, SHAPES[0], true),
        (0, other, SHAPES[2], false),
    ];
    for (v, h, shape, some) in cases {
        let name = format!("{} to {}", b.hole_name(v), b.hole_name(h));
        let p = Problem::new(b.clone(), b.full().without_peg(v), Finish::Hole(h)).unwrap();
        let want = single(&p, None);
        assert!(want.levels.iter().all(|l| l.finishable.is_some()), "{name}");
        assert_eq!(
            want.levels.iter().any(|l| l.finishable > Some(0)),
            some,
            "{name}"
        );
        let store = Arc::new(Store::default());
        let r = Run {
            store: Some(Arc::clone(&store)),
            ..plain(shape)
        };
        for out in run(&p, &r) {
            assert_eq!(out.unwrap().count, want, "finish {name}");
        }
        let states = store.states.lock().unwrap().clone();
        assert_eq!(states.len(), want.levels.len() - 1, "finish {name}");
        for (st, _) in &states {
            // The rows recorded are the engine's (levels without one have no position that can finish).
            let rows = st.finishable.as_ref().expect("the rows recorded");
            for l in &want.levels {
                let row = rows.iter().find(|r| r.pegs == l.pegs);
                assert_eq!(
                    (l.finishable, l.finishable_classes),
                    (
                        Some(row.map_or(0, |r| r.positions)),
                        Some(row.map_or(0, |r| r.classes))
                    ),
                    "finish {name}, {} pegs",
                    l.pegs
                );
            }
            let mut without = st.clone();
            without.finishable = None;
            for from in [st, &without] {
                let r = Run {
                    resume: Some(from),
                    store: Some(Arc::clone(&store)),
                    ..plain(shape)
                };
                for out in run(&p, &r) {
                    let out = out.unwrap();
                    assert_eq!(out.count, want, "finish {name}, from {} pegs", st.pegs);
                    assert_eq!(out.resumed_from, Some(st.pegs));
                }
            }
        }
    }
}

/// A share of another worker, or a damaged one, is refused by every worker.
#[test]
fn damaged_shares_are_refused() {
    let p = Problem::standard(Board::english());
    let shape = SHAPES[0];
    let store = Arc::new(Store::default());
    let r = Run {
        store: Some(Arc::clone(&store)),
        levels: Some(8),
        ..plain(shape)
    };
    for out in run(&p, &r) {
        out.unwrap();
    }
    let (st, _) = store.states.lock().unwrap()[5].clone();
    // Worker 1's share given to worker 0 too.
    {
        let mut shares = store.shares.lock().unwrap();
        let other = shares[&(st.pegs, 1)].clone();
        shares.insert((st.pegs, 0), other);
    }
    let resumed = Run {
        resume: Some(&st),
        store: Some(Arc::clone(&store)),
        ..plain(shape)
    };
    for out in run(&p, &resumed) {
        let e = out.unwrap_err();
        assert!(matches!(e, ShardError::Resume { worker: 0, .. }), "{e}");
        assert!(e.to_string().contains("owns"), "{e}");
    }
    // A flipped byte in the packed entries: caught by the share's own consistency checks or its keys.
    {
        let mut shares = store.shares.lock().unwrap();
        let mut b = shares[&(st.pegs, 1)].clone();
        let n = b.len();
        b[n - 7] ^= 0xff;
        b.truncate(n - 3);
        shares.insert((st.pegs, 1), b);
    }
    for out in run(&p, &resumed) {
        let e = out.unwrap_err();
        assert!(matches!(e, ShardError::Resume { .. }), "{e}");
    }
}

#[test]
fn memory_limit_stops_every_worker() {
    let p = Problem::standard(Board::english());
    let shape = SHAPES[2];
    let n = shape.workers();
    let hub = Arc::new(Hub {
        shape,
        barrier: Barrier::new(n),
        mail: (0..n).map(|_| Mutex::new(Vec::new())).collect(),
        notes: Mutex::new(Vec::new()),
    });
    let errs: Vec<ShardError> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..n)
            .map(|me| {
                let hub = Arc::clone(&hub);
                let p = &p;
                s.spawn(move || {
                    let mut opts = ShardOptions::new(me, shape);
                    // Process 1 has little memory.
                    opts.max_memory = Some(if me >= 2 { 80 << 20 } else { 8 << 30 });
                    shard::count(p, &opts, &mut Local { hub, me }, None, None).unwrap_err()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for e in &errs {
        assert_eq!(e, &errs[0]);
        let ShardError::Memory {
            process,
            needed,
            limit,
            ..
        } = e
        else {
            panic!("{e}")
        };
        assert_eq!(*process, 1);
        assert_eq!(*limit, 80 << 20);
        assert!(needed > limit);
    }
    assert!(errs[0].to_string().contains("process 1 would need"));
}

/// Finish holes: the finishable counts from the complements (the start's vacancy), from a finish table with
/// the same symmetries or fewer, or none at all (another position class), as the single-machine engine.
#[test]
fn finish_holes_every_way() {
    let b = Board::builtin("triangle").unwrap();
    for v in [0, 3, 4] {
        for f in 0..b.holes() {
            let p = Problem::new(b.clone(), b.full().without_peg(v), Finish::Hole(f)).unwrap();
            check(&p, &plain(SHAPES[1 + f % 2]));
        }
    }
    let (flag, start) = flag();
    for f in ["d4", "d1", "a3"] {
        let h = flag.parse_hole(f).unwrap();
        let p = Problem::new(flag.clone(), start, Finish::Hole(h)).unwrap();
        check(&p, &plain(SHAPES[2]));
    }
}

/// Level stores of the workers of a spilling run, in memory (byte for byte as the directory stores write
/// them): every worker's files, what worker 0 committed last, and a write that fails (a full disk, or a
/// process killed: what was committed before stays).
#[derive(Default)]
struct Spilled {
    files: Mutex<BTreeMap<String, Vec<u8>>>,
    committed: Mutex<Option<Stored>>,
    puts: AtomicUsize,
    fail_at: Option<usize>,
}

struct WorkerMem {
    s: Arc<Spilled>,
    me: usize,
}

impl LevelStore for WorkerMem {
    fn put(&mut self, pegs: u32, b: usize, data: &dyn ShareData) -> Result<SavedShare, String> {
        let n = self.s.puts.fetch_add(1, Ordering::SeqCst) + 1;
        if self.s.fail_at == Some(n) {
            return Err("cannot write: No space left on device".to_string());
        }
        let mut bytes = Vec::new();
        data.write_to(&mut bytes).unwrap();
        let name = format!("level-{pegs}-w{}-{b}.bin", self.me);
        let saved = SavedShare {
            worker: self.me as u32,
            classes: data.classes(),
            bytes: bytes.len() as u64,
            checksum: 0,
            name: name.clone(),
        };
        self.s.files.lock().unwrap().insert(name, bytes);
        Ok(saved)
    }

    fn get(&mut self, saved: &SavedShare) -> Result<Box<dyn std::io::Read + '_>, String> {
        let b = self.s.files.lock().unwrap().get(&saved.name).cloned();
        Ok(Box::new(std::io::Cursor::new(b.ok_or("missing bucket")?)))
    }

    fn commit(&mut self, state: &State, buckets: &[SavedShare]) -> Result<(), String> {
        if self.me == 0 {
            *self.s.committed.lock().unwrap() = Some(Stored {
                state: state.clone(),
                buckets: buckets.to_vec(),
            });
        }
        Ok(())
    }

    fn place(&self) -> String {
        "memory".to_string()
    }
}

/// A spilling run of `shape` with the memory limit `mib` MiB a process, resumed from what `s` committed
/// when `resume`.
fn run_spilled(
    p: &Problem,
    shape: Shape,
    (levels, mib): (Option<usize>, u64),
    s: &Arc<Spilled>,
    resume: bool,
) -> Vec<Result<ShardOutput, ShardError>> {
    let n = shape.workers();
    let hub = Arc::new(Hub {
        shape,
        barrier: Barrier::new(n),
        mail: (0..n).map(|_| Mutex::new(Vec::new())).collect(),
        notes: Mutex::new(Vec::new()),
    });
    let stored = if resume {
        s.committed.lock().unwrap().clone()
    } else {
        None
    };
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..n)
            .map(|me| {
                let hub = Arc::clone(&hub);
                let stored = stored.clone();
                let mut store = WorkerMem {
                    s: Arc::clone(s),
                    me,
                };
                sc.spawn(move || {
                    let mut net = Local { hub, me };
                    let mut opts = ShardOptions::new(me, shape);
                    opts.max_levels = levels;
                    opts.max_memory = Some(mib << 20);
                    shard::count_spilled(p, &opts, &mut net, &mut store, stored)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The most buckets a worker wrote of one level (the passes of the step that built it).
fn most_passes(s: &Spilled) -> usize {
    let mut per: BTreeMap<String, usize> = BTreeMap::new();
    for name in s.files.lock().unwrap().keys() {
        let level_worker = name.rsplit_once('-').unwrap().0.to_string();
        *per.entry(level_worker).or_default() += 1;
    }
    per.values().copied().max().unwrap_or(0)
}

/// The spilling cluster run ([`shard::count_spilled`]): each worker's share of a level in its own store,
/// each step in as many passes as the memory limit needs: the engine's table, on the English board's first
/// 15 levels in two processes of one worker and in one process of two, and on a custom board's first levels.
#[test]
fn spilled_shards_equal_the_engine() {
    let english = Problem::standard(Board::english());
    for shape in [
        Shape {
            processes: 2,
            per_process: 1,
        },
        Shape {
            processes: 1,
            per_process: 2,
        },
    ] {
        let s = Arc::new(Spilled::default());
        let want = single(&english, Some(15));
        for out in run_spilled(&english, shape, (Some(15), 40), &s, false) {
            assert_eq!(out.unwrap().count, want, "{shape:?}");
        }
        assert!(most_passes(&s) >= 2, "{shape:?}: every step in one pass");
    }
}

/// A spilling cluster run stopped by a write that fails (on whichever worker makes it) at a dozen points
/// spread over the run, the first and the last among them, then resumed from what was committed: the
/// engine's table each time.
#[test]
fn spilled_shards_resume_after_a_failed_write_anywhere() {
    let p = Problem::standard(Board::english());
    let shape = Shape {
        processes: 2,
        per_process: 1,
    };
    let want = single(&p, Some(15));
    let whole = Arc::new(Spilled::default());
    for out in run_spilled(&p, shape, (Some(15), 40), &whole, false) {
        assert_eq!(out.unwrap().count, want);
    }
    let puts = whole.puts.load(Ordering::SeqCst);
    assert!(most_passes(&whole) >= 2, "every step in one pass");
    let every = (puts / 12).max(1);
    for fail_at in (1..=puts).filter(|n| n % every == 1 || *n == puts) {
        let s = Arc::new(Spilled {
            fail_at: Some(fail_at),
            ..Spilled::default()
        });
        for out in run_spilled(&p, shape, (Some(15), 40), &s, false) {
            let e = out.unwrap_err();
            assert!(e.to_string().contains("No space left"), "{e}");
        }
        let resumed = run_spilled(&p, shape, (Some(15), 40), &s, true);
        for out in resumed {
            assert_eq!(out.unwrap().count, want, "write {fail_at} of {puts} failed");
        }
    }
}
