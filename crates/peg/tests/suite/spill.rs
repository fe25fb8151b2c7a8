//! The spilling enumeration ([`peg::spill`]) against the in-memory engine: levels kept in a store (here in
//! memory, byte for byte as the directory store writes them), built in as many passes as a small memory
//! limit forces, and runs stopped by a failing store at every point and resumed from what it recorded.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Mutex;

use peg::enumerate::{self, Options};
use peg::shard::{SavedShare, ShareData, State};
use peg::spill::{self, LevelStore, SpillError, SpillStep, Stored};
use peg::{Board, Problem};

/// A store in memory: the files, and what the last commit recorded. `fail_at` makes the n-th write fail (a
/// full disk, or a killed process: what was committed before stays).
#[derive(Default)]
struct MemStore {
    files: BTreeMap<String, Vec<u8>>,
    committed: Option<Stored>,
    puts: usize,
    fail_at: Option<usize>,
}

impl LevelStore for MemStore {
    fn put(
        &mut self,
        pegs: u32,
        bucket: usize,
        data: &dyn ShareData,
    ) -> Result<SavedShare, String> {
        self.puts += 1;
        if self.fail_at == Some(self.puts) {
            return Err("cannot write: No space left on device".to_string());
        }
        let mut bytes = Vec::new();
        data.write_to(&mut bytes).unwrap();
        let name = format!("level-{pegs}-{bucket}.bin");
        let saved = SavedShare {
            worker: bucket as u32,
            classes: data.classes(),
            bytes: bytes.len() as u64,
            checksum: 0,
            name: name.clone(),
        };
        self.files.insert(name, bytes);
        Ok(saved)
    }

    fn get(&mut self, saved: &SavedShare) -> Result<Box<dyn Read + '_>, String> {
        let b = self.files.get(&saved.name).ok_or("missing bucket")?;
        Ok(Box::new(&b[..]))
    }

    fn commit(&mut self, state: &State, buckets: &[SavedShare]) -> Result<(), String> {
        self.committed = Some(Stored {
            state: state.clone(),
            buckets: buckets.to_vec(),
        });
        self.files
            .retain(|name, _| buckets.iter().any(|b| &b.name == name));
        Ok(())
    }

    fn place(&self) -> String {
        "memory".to_string()
    }
}

/// The most passes any step took, with the log of a run.
fn run(
    p: &Problem,
    opts: &Options<'_>,
    store: &mut MemStore,
    resume: Option<Stored>,
) -> (Result<peg::Count, SpillError>, usize) {
    let most = Mutex::new(0usize);
    let log = |s: &SpillStep| {
        let mut m = most.lock().unwrap();
        *m = (*m).max(s.passes);
    };
    let r = spill::count(p, opts, store, resume, Some(&log));
    (r, most.into_inner().unwrap())
}

/// The English board whole, and the French board's first levels, with memory limits that force several
/// passes per step: the in-memory engine's count, row for row.
#[test]
fn spilled_counts_equal_the_engine() {
    for (name, levels, memory) in [
        ("english", Some(14), 64u64 << 20),
        ("french", Some(12), 64 << 20),
        ("diamond", Some(9), 70 << 20),
        ("wiegleb", Some(8), 70 << 20),
        ("triangle", None, 70 << 20),
    ] {
        let p = Problem::standard(Board::builtin(name).unwrap());
        let plain = Options {
            max_levels: levels,
            ..Options::default()
        };
        let want = enumerate::count(&p, &plain).unwrap();
        let opts = Options {
            max_levels: levels,
            max_memory: Some(memory),
            ..Options::default()
        };
        let mut store = MemStore::default();
        let (got, passes) = run(&p, &opts, &mut store, None);
        assert_eq!(got.unwrap(), want, "{name} under {memory} bytes");
        if name == "english" || name == "french" {
            assert!(passes > 1, "{name}: every step was one pass");
        }
    }
}

/// With a finish hole (the finishable rows are added as the engine adds them).
#[test]
fn spilled_count_with_a_finish_hole() {
    let p = Problem::from_names(Board::builtin("triangle").unwrap(), &[], Some("13")).unwrap();
    let want = enumerate::count(&p, &Options::default()).unwrap();
    let mut store = MemStore::default();
    let (got, _) = run(&p, &Options::default(), &mut store, None);
    assert_eq!(got.unwrap(), want);
}

/// A store that fails at its n-th write, for every n of a run (the triangle; the English board's first
/// levels, a few points): the run stops with the store's error, and a run resumed from what the store recorded
/// gives the same count.
#[test]
fn runs_stopped_at_any_write_resume_to_the_same_count() {
    for (name, levels, memory, every) in [
        ("triangle", None, 40u64 << 20, 1),
        ("english", Some(12), 36 << 20, 5),
    ] {
        let p = Problem::standard(Board::builtin(name).unwrap());
        let opts = Options {
            max_levels: levels,
            max_memory: Some(memory),
            ..Options::default()
        };
        let want = engine_count(&p, levels);
        let mut full = MemStore::default();
        let (got, passes) = run(&p, &opts, &mut full, None);
        assert_eq!(got.unwrap(), want, "{name}");
        assert!(passes > 1 || name == "triangle", "{name}: one pass a step");
        let writes = full.puts;
        assert!(writes > 10, "{name}: only {writes} writes");
        for n in (1..=writes).filter(|n| n % every == 1 % every || *n == writes) {
            let mut store = MemStore {
                fail_at: Some(n),
                ..MemStore::default()
            };
            let (r, _) = run(&p, &opts, &mut store, None);
            match r {
                Err(SpillError::Store(e)) => assert!(e.contains("No space left"), "{e}"),
                other => panic!("{name}, write {n}: {other:?}"),
            }
            store.fail_at = None;
            let resume = store.committed.clone();
            let (got, _) = run(&p, &opts, &mut store, resume);
            assert_eq!(got.unwrap(), want, "{name}: stopped at write {n}");
        }
    }
}

/// A store whose free space is less than the next level needs: the run stops before the level, saying so.
#[test]
fn too_little_free_space_stops_before_the_level() {
    struct Tight(MemStore);
    impl LevelStore for Tight {
        fn put(&mut self, pegs: u32, b: usize, d: &dyn ShareData) -> Result<SavedShare, String> {
            self.0.put(pegs, b, d)
        }
        fn get(&mut self, s: &SavedShare) -> Result<Box<dyn Read + '_>, String> {
            self.0.get(s)
        }
        fn commit(&mut self, s: &State, b: &[SavedShare]) -> Result<(), String> {
            self.0.commit(s, b)
        }
        fn free_bytes(&self) -> Option<u64> {
            Some(100 << 20)
        }
        fn place(&self) -> String {
            "/somewhere".to_string()
        }
    }
    let p = Problem::standard(Board::builtin("diamond").unwrap());
    let mut store = Tight(MemStore::default());
    let e = spill::count(&p, &Options::default(), &mut store, None, None).unwrap_err();
    let SpillError::Disk {
        pegs, needed, free, ..
    } = e.clone()
    else {
        panic!("{e:?}");
    };
    assert!(needed > free && pegs < 39, "{e}");
    assert!(
        e.to_string().starts_with("/somewhere has 100 MiB free"),
        "{e}"
    );
    // What was done is recorded: the levels before it.
    let st = store.0.committed.unwrap().state;
    assert_eq!(st.pegs, pegs + 1);
}

/// The in-memory engine's count of the first `levels` levels (all without).
fn engine_count(p: &Problem, levels: Option<usize>) -> peg::Count {
    enumerate::count(
        p,
        &Options {
            max_levels: levels,
            ..Options::default()
        },
    )
    .unwrap()
}

/// Each step's figures of a run, with the run's result.
fn run_steps(p: &Problem, opts: &Options<'_>) -> (Result<peg::Count, SpillError>, Vec<SpillStep>) {
    let steps = Mutex::new(Vec::new());
    let log = |s: &SpillStep| steps.lock().unwrap().push(*s);
    let mut store = MemStore::default();
    let r = spill::count(p, opts, &mut store, None, Some(&log));
    (r, steps.into_inner().unwrap())
}

/// Every step holds no more memory than its plan counted, and plans within the limit: the bucket expanded,
/// the tables, the rounds' record buffers and source counters (one entry per source class a round covers,
/// which grow with the passes: a pass keeps fewer of each class's records), the frozen bucket's arrays kept
/// for the next pass. With 64-bit counters, and with 16-bit ones that overflow at once, so that steps are
/// planned again and rebuilt with 128-bit counters. The counts are the engine's.
#[test]
fn every_step_holds_no_more_than_its_plan() {
    use peg::enumerate::CounterWidth;
    for (name, levels, memory, width) in [
        ("french", 15, 100u64 << 20, CounterWidth::U64),
        ("french", 14, 80 << 20, CounterWidth::U64),
        ("french", 14, 90 << 20, CounterWidth::U16),
    ] {
        let p = Problem::standard(Board::builtin(name).unwrap());
        let want = engine_count(&p, Some(levels));
        let opts = Options {
            max_levels: Some(levels),
            max_memory: Some(memory),
            counter_width: width,
            ..Options::default()
        };
        let (got, steps) = run_steps(&p, &opts);
        let what = format!(
            "{name} {levels} levels under {} MiB, {width:?}",
            memory >> 20
        );
        assert_eq!(got.unwrap(), want, "{what}");
        assert!(steps.iter().any(|s| s.passes >= 4), "{what}: {steps:?}");
        if width == CounterWidth::U16 {
            assert!(steps.iter().any(|s| s.rebuilt_wide), "{what}");
        }
        // The steps that build a level (the last step only expands its level: it has no plan to keep).
        for s in steps.iter().filter(|s| s.next_classes > 0) {
            assert!(s.planned_bytes <= memory, "{what}: {s:?}");
            assert_eq!(s.replans, 0, "{what}: {s:?}");
            assert!(
                s.held_bytes <= s.planned_bytes,
                "{what}: {} pegs held {} bytes, planned {} ({} passes)",
                s.pegs,
                s.held_bytes,
                s.planned_bytes,
                s.passes
            );
        }
    }
}

/// A step that cannot fit even one partition a pass stops before it starts, and says how many classes the
/// levels before it had: those expanded and the one it would expand.
#[test]
fn a_step_that_cannot_fit_names_the_classes_so_far() {
    let p = Problem::standard(Board::builtin("french").unwrap());
    let levels = 14;
    let full = engine_count(&p, Some(levels));
    let opts = Options {
        max_levels: Some(levels),
        max_memory: Some(40 << 20),
        ..Options::default()
    };
    let (got, steps) = run_steps(&p, &opts);
    let Err(SpillError::Count(peg::CountError::MemoryLimit {
        pegs,
        needed,
        limit,
        classes_so_far,
    })) = got
    else {
        panic!("{got:?}");
    };
    assert_eq!(limit, 40 << 20);
    assert!(needed > limit, "{needed}");
    // Every level before the one not built was expanded or being expanded.
    let want: u64 = full
        .levels
        .iter()
        .filter(|l| l.pegs > pegs)
        .map(|l| l.classes)
        .sum();
    assert!(want > 0);
    assert_eq!(classes_so_far, want, "stopped before {pegs} pegs");
    assert_eq!(steps.last().map(|s| s.pegs), Some(pegs + 2));
}
